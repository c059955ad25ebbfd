(** * Instances of R1-R4 for the activations of the paper

    - R2: [relu_pow_not_absorbable] ([k <> 1]), [relu2_not_absorbable],
      [reglu_not_absorbable] (ReLU gate, degree 2);
    - R3: [swiglu_not_absorbable] (SiLU gate), [geglu_not_absorbable] (GELU),
      [geglu_tanh_not_absorbable] (tanh-approximate GELU);
    - R4: [relu_pow_depth] ([k = 0] or [k >= 2]), [reglu_depth], [swiglu_depth],
      [geglu_depth], [geglu_tanh_depth];
    - the gated statements for a gate vanishing at 0 are one-line
      applications of [VanishingGate.v] (statements spelled by its notations);
    - non-vacuity: every hypothesis of the general theorems holds for concrete
      data ([d = 1], [P = identity] or [P = 2], concrete weights and lists),
      and concrete instances of the conclusions, including one where both
      sides of the R1 equivalence fail. *)

From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From Absorb Require Import Sums Blocks ActivationDefs Activations
  Compositions SkipReduction Homogeneous Gated Depth VanishingGate.
Open Scope R_scope.

(** ** R2 *)

Theorem relu_pow_not_absorbable : forall k d n m P A B,
  k <> 1%nat -> nonzero_mat d P -> ~ absorbable_ungated (relu_pow k) d n m P A B.
Proof.
  intros k d n m P A B Hk HP.
  exact (homogeneous_not_absorbable_ungated k (relu_pow k) d n m P A B Hk
           (relu_pow_homogeneous k) HP).
Qed.

Theorem relu2_not_absorbable : forall d n m P A B,
  nonzero_mat d P -> ~ absorbable_ungated (relu_pow 2) d n m P A B.
Proof. intros d n m P A B. apply relu_pow_not_absorbable. lia. Qed.

(** ReGLU: the ReLU gate is 1-homogeneous, so the block is 2-homogeneous. *)
Theorem reglu_not_absorbable : gated_not_absorbable_claim relu.
Proof.
  intros d n m P C A B.
  exact (homogeneous_not_absorbable_gated 1 relu d n m P C A B ltac:(lia) relu_homogeneous).
Qed.

(** ** R3 *)

Theorem swiglu_not_absorbable : gated_not_absorbable_claim silu.
Proof. intros d n m P C A B. exact (gated_not_absorbable silu d n m P C A B silu_vanishing). Qed.

(** ** R4 *)

Theorem relu_pow_depth : forall k d (res free : list (nat * mat * mat)),
  (1 <= d)%nat -> (k = 0 \/ 2 <= k)%nat -> free <> nil ->
  ~ same_fun d (compose (map (res_ublock (relu_pow k) d) res))
               (compose (map (ublock (relu_pow k) d) free)).
Proof.
  intros k d res free Hd Hk Hfree.
  exact (depth_homogeneous_not_representable k (relu_pow k) d res free Hd Hk
           (relu_pow_homogeneous k) Hfree).
Qed.

Theorem reglu_depth : gated_depth_claim relu.
Proof. exact (vanishing_gate_depth relu relu_vanishing). Qed.

Theorem swiglu_depth : gated_depth_claim silu.
Proof. exact (vanishing_gate_depth silu silu_vanishing). Qed.

(** ** Non-vacuity *)

(** Hypotheses of the general theorems, for concrete data. *)
Example identity_nonzero_1 : nonzero_mat 1 identity.
Proof. exists 0%nat, 0%nat. unfold identity. simpl. repeat split; try lia. lra. Qed.

Example two_id_nonzero_1 : nonzero_mat 1 two_id.
Proof. exists 0%nat, 0%nat. unfold two_id. simpl. repeat split; try lia. lra. Qed.

Example relu2_homogeneous_2 : pos_homogeneous 2 (relu_pow 2).
Proof. apply relu_pow_homogeneous. Qed.

Example relu_pow0_homogeneous_0 : pos_homogeneous 0 (relu_pow 0).
Proof. apply relu_pow_homogeneous. Qed.

Example relu_gate_homogeneous_1 : pos_homogeneous 1 relu.
Proof. exact relu_homogeneous. Qed.

Example relu_gate_vanishing : vanishing_at_0 relu.
Proof. exact relu_vanishing. Qed.

Example silu_gate_vanishing : vanishing_at_0 silu.
Proof. exact silu_vanishing. Qed.

(** The weights used below: [d = n = m = 1], all entries 1. *)
Definition one_block : nat * mat * mat := (1%nat, const_mat 1, const_mat 1).
Definition one_gblock : nat * mat * mat * mat := (1%nat, const_mat 1, const_mat 1, const_mat 1).

(** Concrete conclusions. *)
Example relu2_instance :
  ~ absorbable_ungated (relu_pow 2) 1 1 1 identity (const_mat 1) (const_mat 1).
Proof. apply relu2_not_absorbable. exact identity_nonzero_1. Qed.

Example reglu_instance : unit_gated_not_absorbable relu.
Proof. exact (proj2 (vanishing_gate_instance relu relu_vanishing)). Qed.

Example swiglu_instance : unit_gated_not_absorbable silu.
Proof. exact (proj2 (vanishing_gate_instance silu silu_vanishing)). Qed.

(** R1 with both sides failing: skip [P = 2], inverse [1/2], ReLU^2
    (the instance where both sides hold is [skip_reduction_lhs_instance],
    [skip_reduction_rhs_instance] in [SkipReduction.v]). *)
Example skip_reduction_both_fail :
  ~ absorbable_ungated (relu_pow 2) 1 1 1 two_id (const_mat 1) (const_mat 1) /\
  ~ absorbable_ungated (relu_pow 2) 1 1 1 identity (const_mat 1) (mm 1 half_id (const_mat 1)).
Proof.
  split.
  - apply relu2_not_absorbable. exact two_id_nonzero_1.
  - intros H.
    apply (relu2_not_absorbable 1 1 1 two_id (const_mat 1) (const_mat 1) two_id_nonzero_1).
    exact
      (proj2 (skip_reduction_ungated (relu_pow 2) 1 1 1 two_id half_id _ _ two_id_invertible) H).
Qed.

Example one_block_list_nonempty : [one_block] <> nil.
Proof. discriminate. Qed.

(** Two residual ReLU^2 blocks are not three residual-free ones. *)
Example relu_pow_depth_instance :
  ~ same_fun 1 (compose (map (res_ublock (relu_pow 2) 1) [one_block; one_block]))
               (compose (map (ublock (relu_pow 2) 1) [one_block; one_block; one_block])).
Proof. apply relu_pow_depth; [lia | right; lia | discriminate]. Qed.

(** The same for the constant activation [relu_pow 0 = 1] ([k = 0]; the step is [heaviside],
    activations/HomogeneousReal.v). *)
Example relu_pow0_depth_instance :
  ~ same_fun 1 (compose (map (res_ublock (relu_pow 0) 1) [one_block]))
               (compose (map (ublock (relu_pow 0) 1) [one_block])).
Proof. apply relu_pow_depth; [lia | left; reflexivity | discriminate]. Qed.

Example reglu_depth_instance :
  ~ same_fun 1 (compose (map (res_gblock relu 1) [one_gblock; one_gblock]))
               (compose (map (gblock relu 1) [one_gblock])).
Proof. apply reglu_depth; [lia | discriminate]. Qed.

Example swiglu_depth_instance :
  ~ same_fun 1 (compose (map (res_gblock silu 1) [one_gblock]))
               (compose (map (gblock silu 1) [one_gblock; one_gblock])).
Proof. apply swiglu_depth; [lia | discriminate]. Qed.

(** Beyond: invertible skips in the residual blocks ([P = 2]). *)
Example relu_pow_depth_skips_instance :
  ~ same_fun 1 (compose (map (fun r => residual 1 (fst r) (ublock (relu_pow 2) 1 (snd r)))
                             [(two_id, one_block)]))
               (compose (map (ublock (relu_pow 2) 1) [one_block])).
Proof.
  apply (depth_homogeneous_not_representable_skips 2); try lia.
  - apply relu_pow_homogeneous.
  - constructor; [exists half_id; exact two_id_invertible | constructor].
  - discriminate.
Qed.

(** Hypotheses of the extra corollaries. *)
Example relu2_scalar_littleo0 : scalar_littleo0 (relu_pow 2).
Proof. apply (homogeneous_scalar_littleo0 2); [lia | apply relu_pow_homogeneous]. Qed.

Example relu2_littleo_instance :
  ~ absorbable_ungated (relu_pow 2) 1 1 1 identity (const_mat 1) (const_mat 1).
Proof.
  apply littleo_not_absorbable_ungated; [exact relu2_scalar_littleo0 | exact identity_nonzero_1].
Qed.

(** Bilinear gate [gamma z = z]: differentiable at 0 with value 0. *)
Example bilinear_gate_instance :
  ~ absorbable_gated (fun z => z) 1 1 1 identity (const_mat 1) (const_mat 1) (const_mat 1).
Proof.
  apply gated_not_absorbable_derivable;
    [apply derivable_pt_id | reflexivity | exact identity_nonzero_1].
Qed.

Example relu2_depth_littleo_instance :
  ~ same_fun 1 (compose (map (fun r => residual 1 (fst r) (ublock (relu_pow 2) 1 (snd r)))
                             [(identity, one_block)]))
               (compose (map (ublock (relu_pow 2) 1) [one_block])).
Proof.
  apply depth_littleo_not_representable_skips; [lia | exact relu2_scalar_littleo0 | | discriminate].
  constructor; [exists identity; apply identity_inverse | constructor].
Qed.

(** A gate [relu_pow 2] (degree 2) at depth: the hypotheses of
    [depth_gated_homogeneous_not_representable] hold. *)
Example relu2_gate_depth_instance :
  ~ same_fun 1 (compose (map (res_gblock (relu_pow 2) 1) [one_gblock]))
               (compose (map (gblock (relu_pow 2) 1) [one_gblock])).
Proof.
  apply (depth_gated_homogeneous_not_representable 2);
    [lia | lia | apply relu_pow_homogeneous | discriminate].
Qed.

(** ** GeGLU (GELU gate) and its tanh approximation *)

Theorem geglu_not_absorbable : gated_not_absorbable_claim gelu.
Proof. intros d n m P C A B. exact (gated_not_absorbable gelu d n m P C A B gelu_vanishing). Qed.

Theorem geglu_tanh_not_absorbable : gated_not_absorbable_claim gelu_tanh.
Proof.
  intros d n m P C A B. exact (gated_not_absorbable gelu_tanh d n m P C A B gelu_tanh_vanishing).
Qed.

Theorem geglu_depth : gated_depth_claim gelu.
Proof. exact (vanishing_gate_depth gelu gelu_vanishing). Qed.

Theorem geglu_tanh_depth : gated_depth_claim gelu_tanh.
Proof. exact (vanishing_gate_depth gelu_tanh gelu_tanh_vanishing). Qed.

Example gelu_gate_vanishing : vanishing_at_0 gelu.
Proof. exact gelu_vanishing. Qed.

Example gelu_tanh_gate_vanishing : vanishing_at_0 gelu_tanh.
Proof. exact gelu_tanh_vanishing. Qed.

Example geglu_instance : unit_gated_not_absorbable gelu.
Proof. exact (proj2 (vanishing_gate_instance gelu gelu_vanishing)). Qed.

Example geglu_tanh_instance : unit_gated_not_absorbable gelu_tanh.
Proof. exact (proj2 (vanishing_gate_instance gelu_tanh gelu_tanh_vanishing)). Qed.

Example geglu_depth_instance :
  ~ same_fun 1 (compose (map (res_gblock gelu 1) [one_gblock; one_gblock]))
               (compose (map (gblock gelu 1) [one_gblock; one_gblock])).
Proof. apply geglu_depth; [lia | discriminate]. Qed.

Example geglu_tanh_depth_instance :
  ~ same_fun 1 (compose (map (res_gblock gelu_tanh 1) [one_gblock]))
               (compose (map (gblock gelu_tanh 1) [one_gblock])).
Proof. apply geglu_tanh_depth; [lia | discriminate]. Qed.
