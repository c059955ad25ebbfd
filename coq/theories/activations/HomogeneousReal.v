(** * R2 for the step activation and for real degrees (R10, paper.md R2 (beyond))

    - [heaviside_not_absorbable]: the Heaviside step is [0]-homogeneous
      ([MoreActivations.heaviside_homogeneous_0]), so by
      [Homogeneous.homogeneous_not_absorbable_ungated] no residual block
      [P x + B H(A x)] with nonzero skip [P] is absorbable, at any widths.
      This is the honest meaning of "ReLU^0": [ActivationDefs.relu_pow 0]
      is the constant [1] ([MoreActivations.relu_pow_0_constant]), while
      the step is not constant ([heaviside_not_constant]).
      [heaviside_at_not_absorbable]: the same for any value [v] at [0].
    - Real degrees: [pos_homogeneous_real k sigma] is
      [sigma (lam z) = lam^k sigma z] for [lam > 0] with [lam^k = Rpower lam k].
      [homogeneous_real_not_absorbable_ungated] ([k <> 1]) and
      [homogeneous_real_not_absorbable_gated] (gate of real degree [k <> 0]):
      never absorbable, any widths, any nonzero skip.  Proof as in
      [Homogeneous.v]: compare [lam = 2], [2^k x = 2 x] forces [k = 1]
      ([Rpower2_neq_2]).
    - [pos_homogeneous_real_of_nat]: the natural-degree notion is the
      special case [k = INR n].
    - Instances: [relu_real_pow_homogeneous] ([ReLU^k], any real [k]),
      [relu_real_pow_not_absorbable] ([k <> 1]), with non-vacuity examples
      ([k = 1/2], [k = 3/2], the step, and the [ReLU^(1/2)] gate). *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations SkipReduction Homogeneous.
From Absorb Require Import MoreActivationDefs MoreActivations.
Open Scope R_scope.

(** ** The step (degree 0) *)

Theorem heaviside_not_absorbable : forall d n m P A B,
  nonzero_mat d P -> ~ absorbable_ungated heaviside d n m P A B.
Proof.
  intros d n m P A B HP.
  exact (homogeneous_not_absorbable_ungated 0 heaviside d n m P A B ltac:(lia)
           heaviside_homogeneous_0 HP).
Qed.

(** Whatever the value [v] at [0] ([torch.heaviside(z, v)]). *)
Theorem heaviside_at_not_absorbable : forall v d n m P A B,
  nonzero_mat d P -> ~ absorbable_ungated (heaviside_at v) d n m P A B.
Proof.
  intros v d n m P A B HP.
  exact (homogeneous_not_absorbable_ungated 0 (heaviside_at v) d n m P A B ltac:(lia)
           (heaviside_at_homogeneous_0 v) HP).
Qed.

(** ** Real degrees *)

Definition pos_homogeneous_real (k : R) (sigma : R -> R) : Prop :=
  forall lam z, 0 < lam -> sigma (lam * z) = Rpower lam k * sigma z.

(** Real-degree homogeneity of a map [R^d -> R^d]. *)
Definition hom_map_real (d : nat) (k : R) (f : vec -> vec) : Prop :=
  forall lam x, 0 < lam -> vec_eq d (f (vscale lam x)) (vscale (Rpower lam k) (f x)).

Lemma pos_homogeneous_real_of_nat (k : nat) sigma :
  pos_homogeneous k sigma -> pos_homogeneous_real (INR k) sigma.
Proof. intros H lam z Hl. rewrite Rpower_pow by exact Hl. apply H, Hl. Qed.

Lemma Rpower2_neq_2 (k : R) : k <> 1 -> Rpower 2 k <> 2.
Proof.
  intros Hk E. apply Hk. unfold Rpower in E.
  assert (Hl : 0 < ln 2) by (rewrite <- ln_1; apply ln_increasing; lra).
  apply (f_equal ln) in E. rewrite ln_exp in E.
  apply (Rmult_eq_reg_r (ln 2)); [lra | lra].
Qed.

Lemma homogeneous_real_residual_zero (k : R) d P f g :
  k <> 1 -> hom_map_real d k f -> hom_map_real d k g ->
  same_fun d f (residual d P g) ->
  forall x i, (i < d)%nat -> mv d P x i = 0.
Proof.
  intros Hk Hf Hg E x i Hi.
  assert (H2 : 0 < 2) by lra.
  pose proof (Hf 2 x H2 i Hi) as F2. pose proof (Hg 2 x H2 i Hi) as G2.
  pose proof (E (vscale 2 x) i Hi) as E2. pose proof (E x i Hi) as E1.
  unfold residual in E2, E1. rewrite mv_vscale in E2. unfold vscale in *.
  rewrite F2, E1, G2 in E2.
  assert (Hz : (Rpower 2 k - 2) * mv d P x i = 0) by lra.
  apply Rmult_integral in Hz. destruct Hz as [Hz|Hz]; [|exact Hz].
  exfalso. apply (Rpower2_neq_2 k Hk). lra.
Qed.

Lemma ungated_hom_map_real (k : R) sigma d n A B :
  pos_homogeneous_real k sigma -> hom_map_real d k (ungated sigma d n A B).
Proof.
  intros Hs lam x Hl i _. unfold ungated. unfold vscale at 2.
  rewrite <- sumn_scal_l. apply sumn_ext. intros j _.
  rewrite dot_scal_r, (Hs lam _ Hl). ring.
Qed.

(** A gate of real degree [k] makes the gated block of degree [k + 1]. *)
Lemma gated_hom_map_real (k : R) gamma d n C A B :
  pos_homogeneous_real k gamma -> hom_map_real d (k + 1) (gated gamma d n C A B).
Proof.
  intros Hs lam x Hl i _. unfold gated. unfold vscale at 3.
  rewrite <- sumn_scal_l. apply sumn_ext. intros j _.
  rewrite !dot_scal_r, (Hs lam _ Hl), Rpower_plus, (Rpower_1 lam Hl). ring.
Qed.

Theorem homogeneous_real_not_absorbable_ungated : forall (k : R) sigma d n m P A B,
  k <> 1 -> pos_homogeneous_real k sigma -> nonzero_mat d P ->
  ~ absorbable_ungated sigma d n m P A B.
Proof.
  intros k sigma d n m P A B Hk Hs HP [A' [B' E]].
  apply (mv_vanishing_not_nonzero d P); [|exact HP].
  exact (homogeneous_real_residual_zero k d P _ _ Hk
           (ungated_hom_map_real k sigma d m A' B' Hs)
           (ungated_hom_map_real k sigma d n A B Hs) E).
Qed.

Theorem homogeneous_real_not_absorbable_gated : forall (k : R) gamma d n m P C A B,
  k <> 0 -> pos_homogeneous_real k gamma -> nonzero_mat d P ->
  ~ absorbable_gated gamma d n m P C A B.
Proof.
  intros k gamma d n m P C A B Hk Hs HP [C' [A' [B' E]]].
  apply (mv_vanishing_not_nonzero d P); [|exact HP].
  exact (homogeneous_real_residual_zero (k + 1) d P _ _ ltac:(lra)
           (gated_hom_map_real k gamma d m C' A' B' Hs)
           (gated_hom_map_real k gamma d n C A B Hs) E).
Qed.

(** ** ReLU^k for a real degree [k] *)

Lemma relu_real_pow_nonpos k z : z <= 0 -> relu_real_pow k z = 0.
Proof. intros H. unfold relu_real_pow. destruct (Rle_dec z 0); [reflexivity | lra]. Qed.

Lemma relu_real_pow_pos k z : 0 < z -> relu_real_pow k z = Rpower z k.
Proof. intros H. unfold relu_real_pow. destruct (Rle_dec z 0); [lra | reflexivity]. Qed.

Lemma relu_real_pow_homogeneous : forall k, pos_homogeneous_real k (relu_real_pow k).
Proof.
  intros k lam z Hl. destruct (Rle_or_lt z 0) as [Hz|Hz].
  - rewrite !relu_real_pow_nonpos; [ring | exact Hz |].
    apply Ropp_le_cancel. rewrite Ropp_0, Ropp_mult_distr_r. apply Rmult_le_pos; lra.
  - rewrite !relu_real_pow_pos; [| exact Hz | apply Rmult_lt_0_compat; lra].
    symmetry. apply Rpower_mult_distr; assumption.
Qed.

(** Degree [1] is ReLU itself (the excluded case of R2). *)
Lemma relu_real_pow_1 z : relu_real_pow 1 z = relu z.
Proof.
  destruct (Rle_or_lt z 0) as [Hz|Hz].
  - rewrite relu_real_pow_nonpos, relu_neg by exact Hz. reflexivity.
  - rewrite relu_real_pow_pos, relu_pos, Rpower_1 by exact Hz. reflexivity.
Qed.

Theorem relu_real_pow_not_absorbable : forall (k : R) d n m P A B,
  k <> 1 -> nonzero_mat d P -> ~ absorbable_ungated (relu_real_pow k) d n m P A B.
Proof.
  intros k d n m P A B Hk HP.
  exact (homogeneous_real_not_absorbable_ungated k (relu_real_pow k) d n m P A B Hk
           (relu_real_pow_homogeneous k) HP).
Qed.

(** ** Non-vacuity *)

Example skip_identity_nonzero_1 : nonzero_mat 1 identity.
Proof. exists 0%nat, 0%nat. unfold identity. simpl. repeat split; try lia. lra. Qed.

(** The step: [d = n = m = 1], all weights [1], skip [I]. *)
Example heaviside_instance :
  pos_homogeneous 0 heaviside /\ heaviside 1 <> heaviside (-1) /\
  ~ absorbable_ungated heaviside 1 1 1 identity (const_mat 1) (const_mat 1).
Proof.
  split; [exact heaviside_homogeneous_0|]. split; [exact heaviside_not_constant|].
  apply heaviside_not_absorbable. exact skip_identity_nonzero_1.
Qed.

(** The step with value [1/2] at [0] (the symmetric convention). *)
Example heaviside_half_instance :
  heaviside_at (1 / 2) 0 = 1 / 2 /\
  ~ absorbable_ungated (heaviside_at (1 / 2)) 1 1 1 identity (const_mat 1) (const_mat 1).
Proof.
  split.
  - unfold heaviside_at. destruct (Rlt_dec 0 0); [lra|].
    destruct (Req_EM_T 0 0); [reflexivity | lra].
  - apply heaviside_at_not_absorbable. exact skip_identity_nonzero_1.
Qed.

(** The step as a real-degree-[0] activation. *)
Example heaviside_homogeneous_real_0 : pos_homogeneous_real 0 heaviside.
Proof. exact (pos_homogeneous_real_of_nat 0 heaviside heaviside_homogeneous_0). Qed.

(** [ReLU^(1/2)] and [ReLU^(3/2)]: not absorbable; [ReLU^(1/2)] is not
    constant and not [0] (so the hypothesis is not vacuous). *)
Example relu_real_pow_half_instance :
  (1 / 2 <> 1) /\ relu_real_pow (1 / 2) 4 = 2 /\
  ~ absorbable_ungated (relu_real_pow (1 / 2)) 1 1 1 identity (const_mat 1) (const_mat 1).
Proof.
  split; [lra|]. split.
  - rewrite relu_real_pow_pos by lra.
    replace 4 with (Rpower 2 2) by (replace 2 with (INR 2) at 2 by (simpl; lra);
                                     rewrite Rpower_pow by lra; simpl; lra).
    rewrite Rpower_mult. replace (2 * (1 / 2)) with 1 by field. apply Rpower_1. lra.
  - apply relu_real_pow_not_absorbable; [lra | exact skip_identity_nonzero_1].
Qed.

Example relu_real_pow_three_halves_instance :
  ~ absorbable_ungated (relu_real_pow (3 / 2)) 1 1 1 identity (const_mat 1) (const_mat 1).
Proof. apply relu_real_pow_not_absorbable; [lra | exact skip_identity_nonzero_1]. Qed.

(** A gate of real degree [1/2]: the gated block has degree [3/2]. *)
Example relu_real_pow_gate_instance :
  ~ absorbable_gated (relu_real_pow (1 / 2)) 1 1 1 identity
      (const_mat 1) (const_mat 1) (const_mat 1).
Proof.
  apply (homogeneous_real_not_absorbable_gated (1 / 2)); [lra | apply relu_real_pow_homogeneous |].
  exact skip_identity_nonzero_1.
Qed.
