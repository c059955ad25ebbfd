(** * The GELU family with any linear part: the activations, and non-vacuity

    [EvenBiasSkip.v] proves R5/R9 with any linear part [P] for every [sigma]
    with [sigma(z) - sigma(-z) = z] and affine ridge uniqueness of its even
    part.  Here:
    - [gelu_family_skip_hyps]: both hypotheses for GELU, GELU_tanh, SiLU,
      quick_gelu and gelu_fast (from [GeluBias], [PmBiasCanonical],
      [QuickGeluAffineRidge], [TanhGeluAffineRidge]);
    - [skip_instances sigma]: concrete blocks on both sides of each
      equivalence, proved once for every such [sigma]
      ([skip_instances_of]) and stated for the five activations
      ([gelu_family_skip_instances]):
      biased, [d = n = 1], [x |-> P x - sigma(x + 1) + 3]: absorbable at
      width 1 for the singular [P = 0] and for [P = 1], not for [P = 2];
      never at width 1 with [P = 0] for [d = 1], [n = 2], rows [x], [x + 1];
      bias-free, [P x - sigma(x)]: absorbable for [P = 0], not for [P = 2];
      [sigma(x) + sigma(2 x)] ([P = 0]) never at width 1;
      post-LayerNorm at [d = 2], [n = 1], [a = (1, -1)], skip [I]:
      [b = e_2] absorbable (bias-free and with bias [c = 1]), [b = e_1] not;
      post-RMSNorm: [b = e_2] not absorbable;
    - [relu_bias_skip_below_instance]: ReLU with biases, [P = 0], below width. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs BiasBlocks Activations MoreActivationDefs
  MoreActivations ReluSubmatrix RidgeForm BiasSpec GeluAffineRidge GeluBias PmBiasCanonical
  QuickGeluAffineRidge TanhGeluAffineRidge ReluBias Norms PostNormGeneric ReluBiasSkip
  EvenBiasSkip.
Open Scope R_scope.

(** ** The activations *)

Definition even_skip_hyps (sigma : R -> R) : Prop :=
  odd_part_identity sigma /\ affine_ridge_unique_even (even_part sigma).

Lemma gelu_family_skip_hyps :
  even_skip_hyps gelu /\ even_skip_hyps gelu_tanh /\ even_skip_hyps silu /\
  even_skip_hyps quick_gelu /\ even_skip_hyps gelu_fast.
Proof.
  split; [exact (conj gelu_odd_part gelu_even_part_affine_unique)|].
  split; [exact (conj gelu_tanh_odd_part gelu_tanh_even_part_affine_unique)|].
  split; [exact (conj silu_odd_part silu_even_part_affine_unique)|].
  split; [exact (conj quick_gelu_odd_part quick_gelu_even_part_affine_unique)|].
  exact (conj gelu_fast_odd_part gelu_fast_even_part_affine_unique).
Qed.

(** ** Data *)

Definition sk_one : mat := fun _ _ => 1.
Definition sk_neg : mat := fun _ _ => -1.
Definition sk_c1 : vec := fun _ => 1.
Definition sk_c01 : vec := fun j => if Nat.eq_dec j 0 then 0 else 1.
Definition sk_P (p : R) : mat := fun _ _ => p.

Lemma sk_bias_generic : generic_bias_signs 1 1 sk_one sk_c1 sk_neg.
Proof.
  split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row, sk_one; lra].
  - intros i j Hi Hj Hne. lia.
  - intros i _. exists 0%nat. split; [lia | unfold col, sk_neg; lra].
Qed.

Lemma sk_bias_generic2 : generic_bias_signs 1 2 sk_one sk_c01 sk_one.
Proof.
  split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row, sk_one; lra].
  - intros i j Hi Hj Hne [C|C]; pose proof (C 0%nat ltac:(lia)) as C0;
      pose proof (C 1%nat ltac:(lia)) as C1; unfold aug_row, sk_one, sk_c01 in C0, C1;
      simpl in C0, C1; [|lra].
    destruct i as [|[|i]], j as [|[|j]]; try lia; simpl in C1; lra.
  - intros i _. exists 0%nat. split; [lia | unfold col, sk_one; lra].
Qed.

Definition sk_A12 : mat := fun i _ => if Nat.eq_dec i 0 then 1 else 2.

(** Rows [1] and [2] on [R^1]: not equal up to sign (though parallel). *)
Lemma sk_signs12 : signs_distinct 1 2 sk_A12 /\
  (forall i, (i < 2)%nat -> nonzero_vec 1 (col sk_one i)).
Proof.
  split; [split|].
  - intros t _. exists 0%nat. split; [lia|]. unfold row, sk_A12.
    destruct (Nat.eq_dec t 0); lra.
  - intros s t Hs Ht Hne [C|C]; specialize (C 0%nat ltac:(lia)); unfold row, sk_A12 in C;
      destruct (Nat.eq_dec s 0), (Nat.eq_dec t 0); try lia; lra.
  - intros i _. exists 0%nat. split; [lia | unfold col, sk_one; lra].
Qed.

Lemma sk_signs :
  signs_distinct 1 1 sk_one /\ (forall i, (i < 1)%nat -> nonzero_vec 1 (col sk_neg i)).
Proof.
  split; [split|].
  - intros t _. exists 0%nat. split; [lia | unfold row, sk_one; lra].
  - intros s t Hs Ht Hne. lia.
  - intros i _. exists 0%nat. split; [lia | unfold col, sk_neg; lra].
Qed.

(** [B[:,S] A[S,:]] at [d = n = 1] is [0] or [-1]. *)
Lemma sk_cond (p : R) S : (forall k l, (k < 1)%nat -> (l < 1)%nat ->
  subset_sum 1 S sk_one sk_neg k l = - sk_P p k l) <-> (if S 0%nat then p = 1 else p = 0).
Proof.
  unfold subset_sum, sk_one, sk_neg, sk_P. simpl. split.
  - intros H. specialize (H 0%nat 0%nat ltac:(lia) ltac:(lia)). destruct (S 0%nat); lra.
  - intros H k l _ _. destruct (S 0%nat); rewrite H; ring.
Qed.

Lemma pb_B2_generic : nonzero_vec 2 (col (mm 2 (centering 2) ex2_B) 0).
Proof.
  exists 1%nat. split; [lia|]. unfold col, mm, centering, ex2_B, identity.
  change (/ INR 2) with (/ 2). simpl. lra.
Qed.

Lemma pb_B1_generic : nonzero_vec 2 (col (mm 2 (centering 2) pb_B1) 0).
Proof.
  exists 0%nat. split; [lia|]. unfold col, mm, centering, pb_B1, identity.
  change (/ INR 2) with (/ 2). simpl. lra.
Qed.

Lemma pb_signs (B : mat) (c : vec) : nonzero_vec 2 (col B 0) -> generic_bias_signs 2 1 ex2_A c B.
Proof.
  intros HB. split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row, ex2_A; simpl; lra].
  - intros i j Hi Hj Hne. lia.
  - intros i Hi. assert (i = 0%nat) by lia. subst i. exact HB.
Qed.

Lemma pb_signs_distinct : signs_distinct 2 1 ex2_A.
Proof.
  split.
  - intros t _. exists 0%nat. split; [lia | unfold row, ex2_A; simpl; lra].
  - intros s t Hs Ht Hne. lia.
Qed.

(** [C (I + b a^T)] has second column [C (-1, 1)] or [C (0, 1)] for [b = e_1]. *)
Lemma pb_B1_no : ~ exists S, forall k l, (k < 2)%nat -> (l < 2)%nat ->
  mm 2 (centering 2) (fun k' l' => identity k' l' + subset_sum 1 S ex2_A pb_B1 k' l') k l = 0.
Proof.
  intros [S HS]. pose proof (HS 0%nat 1%nat ltac:(lia) ltac:(lia)) as E.
  unfold mm, centering, subset_sum, ex2_A, pb_B1, identity in E.
  change (/ INR 2) with (/ 2) in E. simpl in E. destruct (S 0%nat); lra.
Qed.

(** [B[:,S] A[S,:] = -I] fails at [(0, 0)] for [b = e_2]. *)
Lemma pb_B2_no : ~ exists S, forall k l, (k < 2)%nat -> (l < 2)%nat ->
  subset_sum 1 S ex2_A ex2_B k l = - identity k l.
Proof.
  intros [S HS]. pose proof (HS 0%nat 0%nat ltac:(lia) ltac:(lia)) as E.
  unfold subset_sum, ex2_A, ex2_B, identity in E. simpl in E. destruct (S 0%nat); lra.
Qed.

(** ** Both sides, for every [sigma] of the family *)

Definition skip_instances (sigma : R -> R) : Prop :=
  (generic_bias_signs 1 1 sk_one sk_c1 sk_neg /\
   absorbable_ungated_bias sigma 1 1 1 (sk_P 0) sk_one sk_c1 sk_neg (fun _ => 3) /\
   absorbable_ungated_bias sigma 1 1 1 (sk_P 1) sk_one sk_c1 sk_neg (fun _ => 3) /\
   ~ absorbable_ungated_bias sigma 1 1 1 (sk_P 2) sk_one sk_c1 sk_neg (fun _ => 3)) /\
  (generic_bias_signs 1 2 sk_one sk_c01 sk_one /\
   ~ absorbable_ungated_bias sigma 1 2 1 (sk_P 0) sk_one sk_c01 sk_one (fun _ => 0)) /\
  (signs_distinct 1 1 sk_one /\
   absorbable_ungated sigma 1 1 1 (sk_P 0) sk_one sk_neg /\
   ~ absorbable_ungated sigma 1 1 1 (sk_P 2) sk_one sk_neg /\
   signs_distinct 1 2 sk_A12 /\ ~ absorbable_ungated sigma 1 2 1 (sk_P 0) sk_A12 sk_one) /\
  (absorbable_postnorm_ungated ex2_LN sigma 2 1 1 identity ex2_A ex2_B /\
   absorbable_postnorm_ungated_bias ex2_LN sigma 2 1 1 identity ex2_A pb_c ex2_B (fun _ => 5) /\
   ~ absorbable_postnorm_ungated ex2_LN sigma 2 1 1 identity ex2_A pb_B1 /\
   ~ absorbable_postnorm_ungated_bias ex2_LN sigma 2 1 1 identity ex2_A pb_c pb_B1 (fun _ => 5) /\
   ~ absorbable_postnorm_ungated ex2_RMS sigma 2 1 1 identity ex2_A ex2_B).

Lemma skip_instances_of sigma : even_skip_hyps sigma -> skip_instances sigma.
Proof.
  intros [Hodd Hu].
  pose proof (even_bias_skip_absorbable_iff sigma Hodd Hu 1 1) as Hb.
  pose proof (even_skip_absorbable_iff_pm sigma Hodd Hu 1 1) as Hf.
  destruct sk_signs as [Hs Hc].
  pose proof (signs_distinct_bias_signs 1 1 sk_one sk_neg Hs Hc) as Hg0.
  split; [|split; [|split]].
  - split; [exact sk_bias_generic|]. split; [|split].
    + apply (Hb _ _ _ _ _ sk_bias_generic). exists (fun _ => false).
      exact (proj2 (sk_cond 0 (fun _ => false)) eq_refl).
    + apply (Hb _ _ _ _ _ sk_bias_generic). exists (fun _ => true).
      exact (proj2 (sk_cond 1 (fun _ => true)) eq_refl).
    + rewrite (Hb _ _ _ _ _ sk_bias_generic). intros [S HS]. apply (proj1 (sk_cond _ _)) in HS.
      destruct (S 0%nat); lra.
  - split; [exact sk_bias_generic2|].
    exact (even_bias_skip_not_absorbable_below sigma Hodd Hu 1 2 1 _ _ _ _ _ sk_bias_generic2
             ltac:(lia)).
  - split; [exact Hs|]. split; [|split; [|split]].
    + apply (Hf _ _ _ Hg0). exists (fun _ => false).
      exact (proj2 (sk_cond 0 (fun _ => false)) eq_refl).
    + rewrite (Hf _ _ _ Hg0). intros [S HS]. apply (proj1 (sk_cond _ _)) in HS.
      destruct (S 0%nat); lra.
    + exact (proj1 sk_signs12).
    + destruct sk_signs12 as [Hs12 Hc12].
      exact (even_skip_not_absorbable_below_pm sigma Hodd Hu 1 2 1 _ _ _
               (signs_distinct_bias_signs 1 2 _ _ Hs12 Hc12) ltac:(lia)).
  - unfold ex2_LN, ex2_RMS.
    pose proof (even_postln_generic_pm sigma Hodd Hu 2 1 1 (fun _ => 1) (fun _ => 0) identity
                  ex2_A) as Ln.
    pose proof (even_postln_bias_generic sigma Hodd Hu 2 1 1 (fun _ => 1) (fun _ => 0) identity
                  ex2_A pb_c) as Lb.
    split; [|split; [|split; [|split]]].
    + apply (Ln ex2_B ltac:(lra) ex2_gamma (pb_signs _ _ pb_B2_generic)).
      exists (fun _ => true). exact ex2_postln_condition.
    + apply (Lb ex2_B _ ltac:(lra) ex2_gamma (pb_signs _ _ pb_B2_generic)).
      exists (fun _ => true). exact ex2_postln_condition.
    + rewrite (Ln pb_B1 ltac:(lra) ex2_gamma (pb_signs _ _ pb_B1_generic)). exact pb_B1_no.
    + rewrite (Lb pb_B1 _ ltac:(lra) ex2_gamma (pb_signs _ _ pb_B1_generic)). exact pb_B1_no.
    + assert (Hb2 : nonzero_vec 2 (col ex2_B 0)).
      { exists 1%nat. split; [lia | unfold col, ex2_B; simpl; lra]. }
      rewrite (even_postrms_generic_pm sigma Hodd Hu 2 1 1 _ _ identity ex2_A ex2_B ltac:(lra)
                 ex2_gamma (pb_signs _ _ Hb2)).
      exact pb_B2_no.
Qed.

Example gelu_family_skip_instances :
  skip_instances gelu /\ skip_instances gelu_tanh /\ skip_instances silu /\
  skip_instances quick_gelu /\ skip_instances gelu_fast.
Proof.
  destruct gelu_family_skip_hyps as [H1 [H2 [H3 [H4 H5]]]].
  split; [exact (skip_instances_of _ H1)|]. split; [exact (skip_instances_of _ H2)|].
  split; [exact (skip_instances_of _ H3)|]. split; [exact (skip_instances_of _ H4)|].
  exact (skip_instances_of _ H5).
Qed.

(** ReLU with biases and the singular skip [P = 0]: two independent
    hyperplanes need width 2. *)
Example relu_bias_skip_below_instance :
  generic_bias_lines 1 2 rb_ex_A rb_ex2_c (fun _ _ => 1) /\
  ~ absorbable_ungated_bias relu 1 2 1 (sk_P 0) rb_ex_A rb_ex2_c (fun _ _ => 1) (fun _ => 0).
Proof.
  split; [exact relu_bias_generic_instance2|].
  exact (relu_bias_skip_not_absorbable_below 1 2 1 _ _ _ _ _ relu_bias_generic_instance2
           ltac:(lia)).
Qed.
