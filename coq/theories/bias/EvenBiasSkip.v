(** * R5/R9 for the GELU family with any linear part [P] (singular allowed)

    [GeluBias.v] proves R9 for every [sigma = id/2 + e], [e] even with
    affine ridge uniqueness ([GeluAffineRidge.affine_ridge_unique_even]),
    for the identity skip.  The skip enters its argument in one place only:
    the two blocks differ, in their even parts, by an affine function
    ([bias_even_part_affine_skip]: the linear part is now [P x], not [x]);
    the matching of the augmented rows [(a_i, c_i)] up to sign and
    [b'_{j(i)} = b_i] follow as before, and the linear parts give
    [sum_j b'_j a'_j^T = 2 P + sum_i b_i a_i^T] ([bias_matched_odd_skip]), so
    [S = {i | s_i = -1}] has [B[:,S] A[S,:] = -P]
    ([PostNormGeneric.matched_skip_submatrix]).

    [Section SkipMatching] (context: [odd_part_identity sigma],
    [affine_ridge_unique_even (even_part sigma)]):
    - [even_bias_skip_absorbable_iff]: [generic_bias_signs d n A c B] gives
      [P x + B sigma(A x + c) + b0] absorbable at width [n] (by a biased
      block) iff [exists S, B[:,S] A[S,:] = -P];
      [even_bias_skip_not_absorbable_below]: never below width [n];
    - [even_skip_absorbable_iff_pm]: bias-free, rows nonzero and pairwise not
      equal up to sign, columns nonzero: [P x + B sigma(A x)] absorbable at
      width [n] (by a bias-free block) iff [exists S, B[:,S] A[S,:] = -P]
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

(** Absorbing block minus residual block with skip [P], even parts: affine. *)
Lemma bias_even_part_affine_skip d n m P A c B b0 A' c' B' b0' :
  same_fun d (ungated_bias sigma d m A' c' B' b0')
             (residual d P (ungated_bias sigma d n A c B b0)) ->
  forall k, (k < d)%nat -> exists (w : vec) (w0 : R), forall x,
    sumn m (fun j => B' k j * even_part sigma (dot d (row A' j) x + c' j))
    - sumn n (fun i => B k i * even_part sigma (dot d (row A i) x + c i)) = dot d w x + w0.
Proof.
  intros H k Hk.
  set (wA := fun l => sumn n (fun i => B k i * A i l)).
  set (wA' := fun l => sumn m (fun j => B' k j * A' j l)).
  exists (vlin 1 (vlin 1 (row P k) (/ 2) wA) (- / 2) wA'),
    (/ 2 * sumn n (fun i => B k i * c i) + b0 k - / 2 * sumn m (fun j => B' k j * c' j) - b0' k).
  intros x. pose proof (H x k Hk) as E. unfold ungated_bias, residual in E.
  rewrite (sumn_sigma_split sigma d m (B' k) A' c' x),
    (sumn_sigma_split sigma d n (B k) A c x) in E.
  rewrite (sumn_affine d m (B' k) A' c' x), (sumn_affine d n (B k) A c x) in E.
  fold wA wA' in E.
  rewrite !dot_vlin_l. unfold mv in E. lra.
Qed.

(** The coefficients matching the class of [(a_i0, c_i0)] add up to [b_i0]. *)
Lemma bias_absorb_group_skip d n m P A c B b0 A' c' B' b0' :
  generic_bias_signs d n A c B ->
  same_fun d (ungated_bias sigma d m A' c' B' b0')
             (residual d P (ungated_bias sigma d n A c B b0)) ->
  forall i0 k, (i0 < n)%nat -> (k < d)%nat ->
    sumn m (fun j => B' k j * sim_ind (S d) (aug_row d A' c' j) (aug_row d A c i0)) = B k i0.
Proof.
  intros Hg H i0 k Hi0 Hk. pose proof Hg as [Hnz [Hind Hb]].
  pose (Vc := (fun j => if lt_dec j m then A' j else A (j - m)%nat) : mat).
  pose (cc := (fun j => if lt_dec j m then c' j else c (j - m)%nat) : vec).
  pose (bc := fun j => if lt_dec j m then B' k j else - B k (j - m)%nat).
  assert (Hsplit : forall h : vec -> R -> R,
    sumn (m + n) (fun j => bc j * h (row Vc j) (cc j)) =
    sumn m (fun j => B' k j * h (row A' j) (c' j)) - sumn n (fun i => B k i * h (row A i) (c i))).
  { intros h. rewrite sumn_add. unfold Rminus. rewrite <- sumn_opp. f_equal.
    - apply sumn_ext. intros j Hj. unfold bc, Vc, cc, row.
      destruct (lt_dec j m); [reflexivity | lia].
    - apply sumn_ext. intros i Hi. unfold bc, Vc, cc, row. destruct (lt_dec (m + i) m); [lia|].
      replace (m + i - m)%nat with i by lia. ring. }
  destruct (bias_even_part_affine_skip d n m P A c B b0 A' c' B' b0' H k Hk) as [w [w0 Hw]].
  assert (Hs : forall x, sumn (m + n) (fun j => bc j * even_part sigma (dot d (row Vc j) x + cc j))
                         = dot d w x + w0).
  { intros x. rewrite <- (Hw x).
    exact (Hsplit (fun v b => even_part sigma (dot d v x + b))). }
  pose proof (affine_ridge_grouped (even_part sigma) (even_part_even sigma Hodd) Hu
                d (m + n) Vc cc bc w w0 Hs (aug_row d A c i0)
                (nonzero_aug_row d A c i0 (Hnz i0 Hi0))) as G.
  pose proof (eq_trans (eq_sym (Hsplit (fun v b => sim_ind (S d)
                 (fun l => if Nat.ltb l d then v l else b) (aug_row d A c i0)))) G) as G'.
  clear G. rename G' into G. cbv beta in G.
  rewrite
    (sumn_ext n (fun i => B k i * sim_ind (S d) (fun l => if Nat.ltb l d then row A i l else c i)
                                                 (aug_row d A c i0))
             (fun i => if Nat.eq_dec i0 i then B k i else 0)) in G.
  - rewrite sumn_delta in G by exact Hi0.
    apply (Rplus_eq_reg_r (- B k i0)). rewrite Rplus_opp_r, <- G. unfold Rminus. f_equal.
  - intros i Hi. change (fun l => if Nat.ltb l d then row A i l else c i) with (aug_row d A c i).
    unfold sim_ind. destruct (Nat.eq_dec i0 i) as [<-|Hne].
    + destruct (sign_sim_dec (S d) (aug_row d A c i0) (aug_row d A c i0)) as [_|C]; [ring|].
      exfalso. apply C, same_up_to_sign_refl.
    + destruct (sign_sim_dec (S d) (aug_row d A c i) (aug_row d A c i0)) as [C|_]; [|ring].
      exfalso. exact (Hind i i0 Hi Hi0 (not_eq_sym Hne) C).
Qed.

Lemma bias_absorb_match_skip d n m P A c B b0 A' c' B' b0' i0 :
  generic_bias_signs d n A c B ->
  same_fun d (ungated_bias sigma d m A' c' B' b0')
             (residual d P (ungated_bias sigma d n A c B b0)) ->
  (i0 < n)%nat ->
  exists js : nat * R, (fst js < m)%nat /\ (snd js = 1 \/ snd js = -1) /\
    (forall l, (l < d)%nat -> A' (fst js) l = snd js * A i0 l) /\ c' (fst js) = snd js * c i0.
Proof.
  intros Hg H Hi0. pose proof Hg as [_ [_ Hb]].
  destruct (Hb i0 Hi0) as [k [Hk Hbk]]. unfold col in Hbk.
  pose proof (bias_absorb_group_skip d n m P A c B b0 A' c' B' b0' Hg H i0 k Hi0 Hk) as G.
  assert (Hs : sumn m (fun j => B' k j * sim_ind (S d) (aug_row d A' c' j) (aug_row d A c i0)) <> 0)
    by (rewrite G; exact Hbk).
  apply sumn_nonzero_term in Hs. destruct Hs as [j [Hj Hf]].
  unfold sim_ind in Hf.
  destruct (sign_sim_dec (S d) (aug_row d A' c' j) (aug_row d A c i0)) as [Sj|_];
    [|exfalso; apply Hf; ring].
  destruct (aug_pm_split d A' c' j A c i0 Sj) as [s [Hs [HA Hc]]].
  exists (j, s). simpl. split; [exact Hj|]. split; [exact Hs|]. split; [exact HA | exact Hc].
Qed.

Lemma bias_absorb_choice_skip d n m P A c B b0 A' c' B' b0' :
  generic_bias_signs d n A c B ->
  same_fun d (ungated_bias sigma d m A' c' B' b0')
             (residual d P (ungated_bias sigma d n A c B b0)) ->
  exists (jf : nat -> nat) (sf : nat -> R), bias_matching d n m A c A' c' jf sf.
Proof.
  intros Hg H.
  destruct
    (finite_choice (0%nat, 0) n (fun i js => (fst js < m)%nat /\ (snd js = 1 \/ snd js = -1) /\
              (forall l, (l < d)%nat -> A' (fst js) l = snd js * A i l) /\
              c' (fst js) = snd js * c i)) as [f Hf].
  { intros i Hi. exact (bias_absorb_match_skip d n m P A c B b0 A' c' B' b0' i Hg H Hi). }
  exists (fun i => fst (f i)), (fun i => snd (f i)). split; [exact Hf|].
  intros i1 i2 H1 H2 E. destruct (Hf i1 H1) as [_ [Hs1 [HA1 Hc1]]].
  destruct (Hf i2 H2) as [_ [Hs2 [HA2 Hc2]]].
  destruct Hg as [_ [Hind _]].
  apply (bias_matched_rows_same d n A c i1 i2 A' c' (fst (f i1)) Hind H1 H2).
  - exact (aug_pm_of_split d A' c' _ A c i1 _ Hs1 HA1 Hc1).
  - rewrite E. exact (aug_pm_of_split d A' c' _ A c i2 _ Hs2 HA2 Hc2).
Qed.

Theorem even_bias_skip_not_absorbable_below : forall d n m P A c B b0,
  generic_bias_signs d n A c B -> (m < n)%nat ->
  ~ absorbable_ungated_bias sigma d n m P A c B b0.
Proof.
  intros d n m P A c B b0 Hg Hmn [A' [c' [B' [b0' H]]]].
  destruct (bias_absorb_choice_skip d n m P A c B b0 A' c' B' b0' Hg H) as [jf [sf [Hf Hinj]]].
  pose proof (injective_bound n m jf (fun i Hi => proj1 (Hf i Hi)) Hinj). lia.
Qed.

(** With [m = n]: [b'_{j(i)} = b_i]. *)
Lemma bias_matched_coef_skip d n P A c B b0 A' c' B' b0' (jf : nat -> nat) (sf : nat -> R) :
  generic_bias_signs d n A c B ->
  same_fun d (ungated_bias sigma d n A' c' B' b0')
             (residual d P (ungated_bias sigma d n A c B b0)) ->
  bias_matching d n n A c A' c' jf sf ->
  forall i k, (i < n)%nat -> (k < d)%nat -> B' k (jf i) = B k i.
Proof.
  intros Hg H [Hf Hinj] i0 k Hi0 Hk.
  assert (Hrange : forall i, (i < n)%nat -> (jf i < n)%nat) by (intros i Hi; apply Hf, Hi).
  pose proof (injective_surjective n jf Hrange Hinj) as Hsurj.
  pose proof Hg as [_ [Hind _]].
  rewrite <- (bias_absorb_group_skip d n n P A c B b0 A' c' B' b0' Hg H i0 k Hi0 Hk).
  rewrite (sumn_ext n _ (fun j => if Nat.eq_dec (jf i0) j then B' k j else 0)).
  - symmetry. apply sumn_delta. apply Hrange. exact Hi0.
  - intros j Hj. unfold sim_ind. destruct (Nat.eq_dec (jf i0) j) as [<-|Hne].
    + destruct (sign_sim_dec (S d) (aug_row d A' c' (jf i0)) (aug_row d A c i0)) as [_|C]; [ring|].
      exfalso. apply C. destruct (Hf i0 Hi0) as [_ [Hs [HA Hc]]].
      exact (aug_pm_of_split d A' c' _ A c i0 _ Hs HA Hc).
    + destruct (sign_sim_dec (S d) (aug_row d A' c' j) (aug_row d A c i0)) as [C|_]; [|ring].
      exfalso. destruct (Hsurj j Hj) as [i [Hi <-]]. destruct (Hf i Hi) as [_ [Hs [HA Hc]]].
      assert (i = i0).
      { apply (bias_matched_rows_same d n A c i i0 A' c' (jf i) Hind Hi Hi0); [|exact C].
        exact (aug_pm_of_split d A' c' _ A c i _ Hs HA Hc). }
      subst i. contradiction.
Qed.

(** The even parts cancel; the linear parts give
    [sum_j b'_j (a'_j . x) = 2 P x + sum_i b_i (a_i . x)]. *)
Lemma bias_matched_odd_skip d n P A c B b0 A' c' B' b0' (jf : nat -> nat) (sf : nat -> R) :
  generic_bias_signs d n A c B ->
  same_fun d (ungated_bias sigma d n A' c' B' b0')
             (residual d P (ungated_bias sigma d n A c B b0)) ->
  bias_matching d n n A c A' c' jf sf ->
  forall k, (k < d)%nat -> forall x,
    sumn n (fun j => B' k j * dot d (row A' j) x) = 2 * mv d P x k
      + sumn n (fun i => B k i * dot d (row A i) x).
Proof.
  intros Hg H Hm k Hk. pose proof Hm as [Hf Hinj].
  assert (Hrange : forall i, (i < n)%nat -> (jf i < n)%nat) by (intros i Hi; apply Hf, Hi).
  pose proof (injective_surjective n jf Hrange Hinj) as Hsurj.
  pose proof (bias_matched_coef_skip d n P A c B b0 A' c' B' b0' jf sf Hg H Hm) as Hcoef.
  assert (Hev : forall x,
    sumn n (fun j => B' k j * even_part sigma (dot d (row A' j) x + c' j)) =
    sumn n (fun i => B k i * even_part sigma (dot d (row A i) x + c i))).
  { intros x. rewrite (sumn_reindex n jf _ Hrange Hinj Hsurj). apply sumn_ext. intros i Hi.
    rewrite (Hcoef i k Hi Hk). f_equal. destruct (Hf i Hi) as [_ [Hs [HA Hc]]].
    exact (aug_even_eq (even_part sigma) d A' c' (jf i) A c i x (even_part_even sigma Hodd)
             (aug_pm_of_split d A' c' _ A c i _ Hs HA Hc)). }
  assert (Haff : forall x,
    sumn n (fun j => B' k j * (dot d (row A' j) x + c' j)) + 2 * b0' k =
    2 * mv d P x k + sumn n (fun i => B k i * (dot d (row A i) x + c i)) + 2 * b0 k).
  { intros x. pose proof (H x k Hk) as E. unfold ungated_bias, residual in E.
    rewrite (sumn_sigma_split sigma d n (B' k) A' c' x),
      (sumn_sigma_split sigma d n (B k) A c x) in E.
    rewrite (Hev x) in E. lra. }
  intros x.
  pose proof (Haff x) as E1. pose proof (Haff (fun _ => 0)) as E0.
  assert (Hm0 : mv d P (fun _ => 0) k = 0) by (unfold mv; apply dot_zero_r).
  rewrite Hm0 in E0.
  rewrite
    (sumn_ext n (fun j => B' k j * (dot d (row A' j) (fun _ => 0) + c' j)) (fun j => B' k j * c' j))
    in E0 by (intros j _; rewrite dot_zero_r; ring).
  rewrite
    (sumn_ext n (fun i => B k i * (dot d (row A i) (fun _ => 0) + c i)) (fun i => B k i * c i))
    in E0 by (intros i _; rewrite dot_zero_r; ring).
  rewrite (sumn_ext n (fun j => B' k j * (dot d (row A' j) x + c' j))
             (fun j => B' k j * dot d (row A' j) x + B' k j * c' j)) in E1 by (intros; ring).
  rewrite (sumn_ext n (fun i => B k i * (dot d (row A i) x + c i))
             (fun i => B k i * dot d (row A i) x + B k i * c i)) in E1 by (intros; ring).
  rewrite !sumn_plus in E1. lra.
Qed.

Theorem even_bias_skip_submatrix : forall d n P A c B b0,
  generic_bias_signs d n A c B -> absorbable_ungated_bias sigma d n n P A c B b0 ->
  exists S, skip_submatrix_cond d n S A B P.
Proof.
  intros d n P A c B b0 Hg [A' [c' [B' [b0' H]]]].
  destruct (bias_absorb_choice_skip d n n P A c B b0 A' c' B' b0' Hg H) as [jf [sf [Hf Hinj]]].
  apply (matched_skip_submatrix d n P A B A' B' jf sf).
  - intros i Hi. destruct (Hf i Hi) as [Hr [Hs [HA _]]].
    split; [exact Hr|]. split; [exact (pm1_nonzero _ Hs) | exact HA].
  - exact Hinj.
  - intros i k Hi Hk. destruct (Hf i Hi) as [_ [Hs _]].
    rewrite (pm1_abs _ Hs), Rmult_1_r.
    exact (bias_matched_coef_skip d n P A c B b0 A' c' B' b0' jf sf Hg H (conj Hf Hinj) i k Hi Hk).
  - exact (bias_matched_odd_skip d n P A c B b0 A' c' B' b0' jf sf Hg H (conj Hf Hinj)).
Qed.

Theorem even_bias_skip_absorbable_iff : forall d n P A c B b0,
  generic_bias_signs d n A c B ->
  (absorbable_ungated_bias sigma d n n P A c B b0 <-> exists S, skip_submatrix_cond d n S A B P).
Proof.
  intros d n P A c B b0 Hg. split; [exact (even_bias_skip_submatrix d n P A c B b0 Hg)|].
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
  - intros [A' [B' H]]. apply (even_bias_skip_submatrix d n P A (fun _ => 0) B (fun _ => 0) Hg).
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
  apply (even_bias_skip_not_absorbable_below d n m P A (fun _ => 0) B (fun _ => 0) Hg Hmn).
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
