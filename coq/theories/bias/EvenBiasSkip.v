(** * R5/R9 for the GELU family with any linear part [P] (singular allowed)

    [GeluBias.v] proves (=>) of R9 for every [sigma = id/2 + e], [e] even
    with affine ridge uniqueness ([GeluAffineRidge.affine_ridge_unique_even]),
    for a residual block with any linear part [P]:
    [GeluBias.even_bias_skip_submatrix] (the even parts differ by an affine
    function; the augmented rows [(a_i, c_i)] are matched up to sign with
    [b'_{j(i)} = b_i]; the linear parts give
    [sum_j b'_j a'_j^T = 2 P + sum_i b_i a_i^T], so [S = {i | s_i = -1}] has
    [B[:,S] A[S,:] = -P]) and [GeluBias.even_bias_skip_not_absorbable_below].

    [Section SkipMatching] (context: [odd_part_identity sigma],
    [affine_ridge_unique_even (even_part sigma)]):
    - [even_bias_skip_absorbable_iff]: [generic_bias_signs d n A c B] gives
      [P x + B sigma(A x + c) + b0] absorbable at width [n] (by a biased
      block) iff [exists S, B[:,S] A[S,:] = -P];
    - [even_skip_absorbable_iff_pm], [even_skip_not_absorbable_below_pm]:
      bias-free, rows nonzero and pairwise not equal up to sign, columns
      nonzero: [P x + B sigma(A x)] absorbable at width [n] (by a bias-free
      block) iff [exists S, B[:,S] A[S,:] = -P], never below width [n]
      (the bias-free case is the biased one with [c = 0]: a bias-free block
      absorbable by a biased one is absorbable by a bias-free one, by
      (<=)); [even_skip_absorbable_iff] with [generic] (pairwise independent
      rows), as in R5;
    - post-norm: [even_postln_bias_generic], [even_postrms_bias_generic],
      [even_postln_generic_pm], [even_postrms_generic_pm].
    The activations ([gelu], [gelu_tanh], [silu], [quick_gelu], [gelu_fast])
    are instantiated in [EvenSkipInstances.v]. *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Geometry FiniteMaps.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix FlipSigns.
From Absorb Require Import Biases RidgeForm BiasSpec AugRows GeluAffineRidge GeluBias.
From Absorb Require Import Norms PostNorm PostNormGeneric ReluBiasSkip.
Open Scope R_scope.

Section SkipMatching.

Context (sigma : R -> R) (Hodd : odd_part_identity sigma)
        (Hu : affine_ridge_unique_even (even_part sigma)).

Theorem even_bias_skip_absorbable_iff : forall d n P A c B b0,
  generic_bias_signs d n A c B ->
  (absorbable_ungated_bias sigma d n n P A c B b0 <-> exists S, skip_submatrix_cond d n S A B P).
Proof.
  intros d n P A c B b0 Hg.
  split; [exact (even_bias_skip_submatrix sigma Hodd Hu d n P A c B b0 Hg)|].
  intros [S HS]. exact (odd_skip_absorbable_bias sigma d n S P A c B b0 Hodd HS).
Qed.

(** ** Bias-free: the biased statement at [c = 0] *)

(** A bias-free block is a biased one with zero biases. *)
Lemma ungated_as_bias d n A B : same_fun d (ungated_bias sigma d n A (fun _ => 0) B (fun _ => 0))
                                           (ungated sigma d n A B).
Proof.
  intros x i _. unfold ungated_bias, ungated. rewrite Rplus_0_r.
  apply sumn_ext. intros j _. rewrite Rplus_0_r. reflexivity.
Qed.

Lemma ungated_as_bias_residual d n m P A B A' B' :
  same_fun d (ungated sigma d m A' B') (residual d P (ungated sigma d n A B)) ->
  same_fun d (ungated_bias sigma d m A' (fun _ => 0) B' (fun _ => 0))
             (residual d P (ungated_bias sigma d n A (fun _ => 0) B (fun _ => 0))).
Proof.
  intros H x i Hi. unfold residual.
  rewrite (ungated_as_bias d m A' B' x i Hi), (ungated_as_bias d n A B x i Hi).
  exact (H x i Hi).
Qed.

Theorem even_skip_absorbable_iff_pm : forall d n P A B,
  generic_bias_signs d n A (fun _ => 0) B ->
  (absorbable_ungated sigma d n n P A B <-> exists S, skip_submatrix_cond d n S A B P).
Proof.
  intros d n P A B Hg. split.
  - intros [A' [B' H]].
    apply (even_bias_skip_submatrix sigma Hodd Hu d n P A (fun _ => 0) B (fun _ => 0) Hg).
    exists A', (fun _ => 0), B', (fun _ => 0). intros x i Hi.
    exact (ungated_as_bias_residual d n n P A B A' B' H x i Hi).
  - intros [S HS]. exists (flip_rows S A), B.
    exact (odd_skip_absorbable sigma d n S P A B Hodd HS).
Qed.

Theorem even_skip_not_absorbable_below_pm : forall d n m P A B,
  generic_bias_signs d n A (fun _ => 0) B -> (m < n)%nat ->
  ~ absorbable_ungated sigma d n m P A B.
Proof.
  intros d n m P A B Hg Hmn [A' [B' H]].
  apply (even_bias_skip_not_absorbable_below sigma Hodd Hu d n m P A (fun _ => 0) B (fun _ => 0)
           Hg Hmn).
  exists A', (fun _ => 0), B', (fun _ => 0). intros x i Hi.
  exact (ungated_as_bias_residual d n m P A B A' B' H x i Hi).
Qed.

End SkipMatching.

(** ** Genericity without biases *)

(** Rows nonzero and pairwise not equal up to sign, columns nonzero: the
    zero-bias form of [generic_bias_signs]. *)
Lemma signs_distinct_bias_signs d n A B :
  signs_distinct d n A -> (forall i, (i < n)%nat -> nonzero_vec d (col B i)) ->
  generic_bias_signs d n A (fun _ => 0) B.
Proof.
  intros [Hnz Hpm] Hb. split; [exact Hnz|]. split; [|exact Hb].
  intros i j Hi Hj Hne C. apply (Hpm i j Hi Hj Hne).
  destruct (aug_pm_split d A (fun _ => 0) i A (fun _ => 0) j C) as [s [[Es|Es] [HA _]]];
    [left|right]; intros l Hl; unfold row; rewrite (HA l Hl), Es; ring.
Qed.

(** [generic] (pairwise independent rows) is stronger. *)
Lemma generic_signs_distinct d n A B : generic d n A B ->
  signs_distinct d n A /\ (forall i, (i < n)%nat -> nonzero_vec d (col B i)).
Proof.
  intros [Hnz [Hind Hb]]. split; [split; [exact Hnz|] | exact Hb].
  intros s t Hs Ht Hne [C|C].
  - destruct (Hind s t Hs Ht Hne 1 (-1)) as [E _]; [|lra].
    intros k Hk. rewrite (C k Hk). ring.
  - destruct (Hind s t Hs Ht Hne 1 1) as [E _]; [|lra].
    intros k Hk. rewrite (C k Hk). ring.
Qed.

Theorem even_skip_absorbable_iff sigma : odd_part_identity sigma ->
  affine_ridge_unique_even (even_part sigma) -> forall d n P A B, generic d n A B ->
  (absorbable_ungated sigma d n n P A B <-> exists S, skip_submatrix_cond d n S A B P).
Proof.
  intros Hodd Hu d n P A B Hg. destruct (generic_signs_distinct d n A B Hg) as [Hs Hb].
  exact (even_skip_absorbable_iff_pm sigma Hodd Hu d n P A B
           (signs_distinct_bias_signs d n A B Hs Hb)).
Qed.

(** ** Post-norm forms *)

Section PostNorm.

Context (sigma : R -> R) (Hodd : odd_part_identity sigma)
        (Hu : affine_ridge_unique_even (even_part sigma)).

Theorem even_postln_bias_generic d n eps gamma beta P A c B b0 : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) -> generic_bias_signs d n A c (mm d (centering d) B) ->
  (absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n n P A c B b0 <->
   exists S, forall k l, (k < d)%nat -> (l < d)%nat ->
     mm d (centering d) (fun k' l' => P k' l' + subset_sum n S A B k' l') k l = 0).
Proof.
  intros He Hg Hgen. rewrite (postln_ungated_bias_iff sigma d n n eps gamma beta P A c B b0 He Hg).
  rewrite (even_bias_skip_absorbable_iff sigma Hodd Hu d n _ A c _ _ Hgen).
  apply centered_skip_cond_iff.
Qed.

Theorem even_postrms_bias_generic d n eps gamma beta P A c B b0 : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) -> generic_bias_signs d n A c B ->
  (absorbable_postnorm_ungated_bias (rms_norm d eps gamma beta) sigma d n n P A c B b0 <->
   exists S, skip_submatrix_cond d n S A B P).
Proof.
  intros He Hg Hgen. rewrite (postrms_ungated_bias_iff sigma d n n eps gamma beta P A c B b0 He Hg).
  exact (even_bias_skip_absorbable_iff sigma Hodd Hu d n P A c B b0 Hgen).
Qed.

Theorem even_postln_generic_pm d n eps gamma beta P A B : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) ->
  generic_bias_signs d n A (fun _ => 0) (mm d (centering d) B) ->
  (absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n n P A B <->
   exists S, forall k l, (k < d)%nat -> (l < d)%nat ->
     mm d (centering d) (fun k' l' => P k' l' + subset_sum n S A B k' l') k l = 0).
Proof.
  intros He Hg Hgen. rewrite (postln_ungated_iff sigma d n n eps gamma beta P A B He Hg).
  rewrite (even_skip_absorbable_iff_pm sigma Hodd Hu d n _ A _ Hgen).
  apply centered_skip_cond_iff.
Qed.

Theorem even_postrms_generic_pm d n eps gamma beta P A B : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) -> generic_bias_signs d n A (fun _ => 0) B ->
  (absorbable_postnorm_ungated (rms_norm d eps gamma beta) sigma d n n P A B <->
   exists S, skip_submatrix_cond d n S A B P).
Proof.
  intros He Hg Hgen. rewrite (postrms_ungated_iff sigma d n n eps gamma beta P A B He Hg).
  exact (even_skip_absorbable_iff_pm sigma Hodd Hu d n P A B Hgen).
Qed.

End PostNorm.
