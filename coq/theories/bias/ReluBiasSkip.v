(** * R9 for ReLU with any linear part [P] (singular allowed), and post-norm with biases

    [ReluBias.v] proves R5 with biases for the identity skip.  Its matching
    argument only compares kinks ([relu_bias_choice], [relu_bias_coef],
    [matched_bridge_eq] take the kink equation, not the skip), and the skip
    enters once more, in the affine difference of the two blocks: [2 x]
    becomes [2 P x] ([bias_affine_gap_skip], still affine).  So:
    - [relu_bias_skip_generic_submatrix]: [generic_bias_lines], and
      [P x + B relu(A x + c) + b0] absorbable at width [n] by a biased
      ReLU block, give [S] with [B[:,S] A[S,:] = -P]
      ([PostNormGeneric.matched_skip_submatrix] for the last step);
    - [odd_skip_absorbable_bias]: (<=) for every [sigma] with
      [sigma(z) - sigma(-z) = z], no genericity (flip the rows of [S]; the
      output bias absorbs [sum_{i in S} b_i c_i]);
    - [relu_bias_skip_absorbable_iff] (headline) and
      [relu_bias_skip_not_absorbable_below] (the width bound does not see [P]);
    - [centered_skip_cond_iff]: [B[:,S] A[S,:] = -C P] with [C B] in place of
      [B] iff [C (P + B[:,S] A[S,:]) = 0] (any [C]);
    - [postln_relu_bias_generic] (headline): every [gamma_i <> 0], [eps > 0],
      [(A, c, C B)] generic with biases: the post-LayerNorm block with biases
      is absorbable at width [n] iff [exists S, C (P + B[:,S] A[S,:]) = 0];
      [postrms_relu_bias_generic]: post-RMSNorm, iff [B[:,S] A[S,:] = -P];
    - non-vacuity at [d = 1] (a singular skip [P = 0] and [P = 2]) and at
      [d = 2] after a LayerNorm: both sides of each equivalence. *)

From Coq Require Import Reals Lra Lia Arith.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry FiniteMaps
  Ridge ReluSubmatrix FlipSigns Biases BiasSpec AffineRidge ReluBias Norms PostNorm
  PostNormGeneric.
Open Scope R_scope.

(** ** (<=): flipping the rows of [S], any [sigma] with [sigma(z) - sigma(-z) = z] *)

Theorem flip_rows_skip_bias sigma d n (S : nat -> bool) (P A : mat) (c : vec) (B : mat)
    (b0 : vec) :
  odd_part_identity sigma -> skip_submatrix_cond d n S A B P ->
  same_fun d (ungated_bias sigma d n (flip_rows S A) (flip_bias S c) B (absorbed_bias n S c B b0))
             (residual d P (ungated_bias sigma d n A c B b0)).
Proof.
  intros Hodd Hsub x i Hi. unfold ungated_bias, residual, absorbed_bias.
  rewrite (sumn_ext n _ (fun j => B i j * sigma (dot d (row A j) x + c j) -
             ((if S j then B i j * dot d (row A j) x else 0) +
              (if S j then B i j * c j else 0)))).
  - rewrite sumn_minus, sumn_plus, (skip_submatrix_mv d n S A B P x i Hsub Hi). ring.
  - intros j _. rewrite dot_flip_row. unfold flip_bias. destruct (S j); [|ring].
    pose proof (Hodd (dot d (row A j) x + c j)) as E.
    replace (- dot d (row A j) x + - c j) with (- (dot d (row A j) x + c j)) by ring.
    replace (sigma (- (dot d (row A j) x + c j)))
      with (sigma (dot d (row A j) x + c j) - (dot d (row A j) x + c j)) by lra.
    ring.
Qed.

Theorem odd_skip_absorbable_bias sigma d n S P A c B b0 :
  odd_part_identity sigma -> skip_submatrix_cond d n S A B P ->
  absorbable_ungated_bias sigma d n n P A c B b0.
Proof.
  intros Hodd Hsub. exists (flip_rows S A), (flip_bias S c), B, (absorbed_bias n S c B b0).
  exact (flip_rows_skip_bias sigma d n S P A c B b0 Hodd Hsub).
Qed.

(** ** (=>): the kinks, then the linear parts *)

(** The affine difference of the two blocks' [|.|] parts, with skip [P]. *)
Definition bias_affine_gap_skip (d n m : nat) (P A : mat) (c : vec) (B : mat) (b0 : vec)
    (A' : mat) (c' : vec) (B' : mat) (b0' : vec) (k : nat) (x : vec) : R :=
  2 * mv d P x k + 2 * (b0 k - b0' k) + sumn n (fun i => B k i * (dot d (row A i) x + c i))
  - sumn m (fun j => B' k j * (dot d (row A' j) x + c' j)).

Lemma bias_affine_gap_skip_affine d n m P A c B b0 A' c' B' b0' k :
  affine_like (bias_affine_gap_skip d n m P A c B b0 A' c' B' b0' k).
Proof.
  intros x0 w t. unfold bias_affine_gap_skip.
  pose proof (affine_like_sum_dot d n A c (B k) x0 w t) as E1.
  pose proof (affine_like_sum_dot d m A' c' (B' k) x0 w t) as E2.
  pose proof (affine_like_dot d (row P k) 0 x0 w t) as E3.
  cbv beta in E1, E2, E3. unfold mv. lra.
Qed.

Lemma relu_bias_even_part_skip d n m P A c B b0 A' c' B' b0' :
  same_fun d (ungated_bias relu d m A' c' B' b0') (residual d P (ungated_bias relu d n A c B b0)) ->
  forall k, (k < d)%nat -> forall x,
    bridge_sum d m A' c' (B' k) x =
    bridge_sum d n A c (B k) x + bias_affine_gap_skip d n m P A c B b0 A' c' B' b0' k x.
Proof.
  intros H k Hk x. pose proof (H x k Hk) as E.
  unfold ungated_bias, residual in E. rewrite !relu_sum_split in E.
  unfold bias_affine_gap_skip. lra.
Qed.

Lemma relu_bias_kinks_skip d n m P A c B b0 A' c' B' b0' :
  same_fun d (ungated_bias relu d m A' c' B' b0') (residual d P (ungated_bias relu d n A c B b0)) ->
  forall k, (k < d)%nat -> forall x0 w,
    bkink_sum d m A' c' (B' k) x0 w = bkink_sum d n A c (B k) x0 w.
Proof.
  intros H k Hk.
  apply (bkink_eq d m A' c' (B' k) n A c (B k)
           (bias_affine_gap_skip d n m P A c B b0 A' c' B' b0' k)).
  - exact (relu_bias_even_part_skip d n m P A c B b0 A' c' B' b0' H k Hk).
  - apply bias_affine_gap_skip_affine.
Qed.

(** An affine identity that vanishes everywhere gives the linear one. *)
Lemma bias_gap_skip_linear d n m P A c B b0 A' c' B' b0' k :
  (forall x, bias_affine_gap_skip d n m P A c B b0 A' c' B' b0' k x = 0) ->
  forall x, sumn m (fun j => B' k j * dot d (row A' j) x) =
            2 * mv d P x k + sumn n (fun i => B k i * dot d (row A i) x).
Proof.
  intros H x. pose proof (H x) as E1. pose proof (H (fun _ => 0)) as E0.
  unfold bias_affine_gap_skip in E1, E0. rewrite !sumn_affine_split in E1, E0.
  rewrite (sumn_zero n (fun i => B k i * dot d (row A i) (fun _ => 0))) in E0
    by (intros; rewrite dot_zero_r; ring).
  rewrite (sumn_zero m (fun j => B' k j * dot d (row A' j) (fun _ => 0))) in E0
    by (intros; rewrite dot_zero_r; ring).
  assert (Hm0 : mv d P (fun _ => 0) k = 0) by (unfold mv; apply dot_zero_r).
  rewrite Hm0 in E0. lra.
Qed.

Theorem relu_bias_skip_generic_submatrix : forall d n P A c B b0,
  generic_bias_lines d n A c B -> absorbable_ungated_bias relu d n n P A c B b0 ->
  exists S, skip_submatrix_cond d n S A B P.
Proof.
  intros d n P A c B b0 Hg [A' [c' [B' [b0' H]]]].
  pose proof (relu_bias_kinks_skip d n n P A c B b0 A' c' B' b0' H) as Hk.
  destruct (relu_bias_choice d n n A c B A' c' B' Hg Hk) as [jf [lf [Hf Hinj]]].
  pose proof (relu_bias_coef d n A c B A' c' B' jf lf Hg Hk Hf Hinj) as Hcoef.
  assert (Hf' : forall i, (i < n)%nat -> (jf i < n)%nat /\ lf i <> 0 /\
                  forall k, (k < d)%nat -> A' (jf i) k = lf i * A i k).
  { intros i Hi. destruct (Hf i Hi) as [Hr [Hl [Ma _]]]. split; [exact Hr|].
    split; [exact Hl|]. exact Ma. }
  apply (matched_skip_submatrix d n P A B A' B' jf lf Hf' Hinj Hcoef).
  intros k Hk'. apply (bias_gap_skip_linear d n n P A c B b0 A' c' B' b0' k).
  intros x. pose proof (relu_bias_even_part_skip d n n P A c B b0 A' c' B' b0' H k Hk' x) as E.
  rewrite (matched_bridge_eq d n A c A' c' (B k) (B' k) jf lf Hf Hinj
             (fun i Hi => Hcoef i k Hi Hk') x) in E.
  lra.
Qed.

Theorem relu_bias_skip_absorbable_iff : forall d n P A c B b0,
  generic_bias_lines d n A c B ->
  (absorbable_ungated_bias relu d n n P A c B b0 <-> exists S, skip_submatrix_cond d n S A B P).
Proof.
  intros d n P A c B b0 Hg. split.
  - exact (relu_bias_skip_generic_submatrix d n P A c B b0 Hg).
  - intros [S HS]. exact (odd_skip_absorbable_bias relu d n S P A c B b0 relu_odd_part HS).
Qed.

(** Below width [n], whatever [P]: the hyperplanes still need distinct rows. *)
Theorem relu_bias_skip_not_absorbable_below : forall d n m P A c B b0,
  generic_bias_lines d n A c B -> (m < n)%nat ->
  ~ absorbable_ungated_bias relu d n m P A c B b0.
Proof.
  intros d n m P A c B b0 Hg Hmn [A' [c' [B' [b0' H]]]].
  destruct (relu_bias_choice d n m A c B A' c' B' Hg
              (relu_bias_kinks_skip d n m P A c B b0 A' c' B' b0' H)) as [jf [lf [Hf Hinj]]].
  pose proof (injective_bound n m jf (fun i Hi => proj1 (Hf i Hi)) Hinj). lia.
Qed.

(** ** Post-norm forms *)

(** With [M B] as down-projection and [M P] as skip ([M = C] for LayerNorm). *)
Lemma centered_skip_cond_iff d n (M P A B : mat) :
  (exists S, skip_submatrix_cond d n S A (mm d M B) (mm d M P)) <->
  (exists S, forall k l, (k < d)%nat -> (l < d)%nat ->
     mm d M (fun k' l' => P k' l' + subset_sum n S A B k' l') k l = 0).
Proof.
  split; intros [S HS]; exists S; intros k l Hk Hl; pose proof (HS k l Hk Hl) as E;
    rewrite ?mm_plus_r, ?subset_sum_mm in *; lra.
Qed.

Theorem postln_relu_bias_generic d n eps gamma beta P A c B b0 : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) -> generic_bias_lines d n A c (mm d (centering d) B) ->
  (absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) relu d n n P A c B b0 <->
   exists S, forall k l, (k < d)%nat -> (l < d)%nat ->
     mm d (centering d) (fun k' l' => P k' l' + subset_sum n S A B k' l') k l = 0).
Proof.
  intros He Hg Hgen. rewrite (postln_ungated_bias_iff relu d n n eps gamma beta P A c B b0 He Hg).
  rewrite (relu_bias_skip_absorbable_iff d n _ A c _ _ Hgen).
  apply centered_skip_cond_iff.
Qed.

Theorem postrms_relu_bias_generic d n eps gamma beta P A c B b0 : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) -> generic_bias_lines d n A c B ->
  (absorbable_postnorm_ungated_bias (rms_norm d eps gamma beta) relu d n n P A c B b0 <->
   exists S, skip_submatrix_cond d n S A B P).
Proof.
  intros He Hg Hgen. rewrite (postrms_ungated_bias_iff relu d n n eps gamma beta P A c B b0 He Hg).
  exact (relu_bias_skip_absorbable_iff d n P A c B b0 Hgen).
Qed.

(** ** Non-vacuity *)

(** [d = n = 1], [A = 1], [c = 1], [B = -1]: with the singular skip [P = 0]
    no subset gives [B[:,S] A[S,:] = 0 = -P] except [S = {}], which does:
    [-relu(x + 1)] is residual-free already.  With [P = 1], [S = {0}]
    works; with [P = 2] no subset does, so [2 x - relu(x + 1)] is not
    absorbable at width 1 with any biases. *)
Example relu_bias_skip_instances :
  generic_bias_lines 1 1 rb_ex_A rb_ex_c (fun _ _ => -1) /\
  absorbable_ungated_bias relu 1 1 1 (fun _ _ => 0) rb_ex_A rb_ex_c (fun _ _ => -1) (fun _ => 3) /\
  absorbable_ungated_bias relu 1 1 1 (fun _ _ => 1) rb_ex_A rb_ex_c (fun _ _ => -1) (fun _ => 3) /\
  ~ absorbable_ungated_bias relu 1 1 1 (fun _ _ => 2) rb_ex_A rb_ex_c (fun _ _ => -1) (fun _ => 3).
Proof.
  pose proof (relu_bias_generic_instance (-1) ltac:(lra)) as Hg.
  split; [exact Hg|]. split; [|split].
  - apply (relu_bias_skip_absorbable_iff 1 1 _ _ _ _ _ Hg). exists (fun _ => false).
    intros k l Hk Hl. unfold subset_sum. simpl. ring.
  - apply (relu_bias_skip_absorbable_iff 1 1 _ _ _ _ _ Hg). exists (fun _ => true).
    intros k l Hk Hl. unfold subset_sum, rb_ex_A. simpl. ring.
  - rewrite (relu_bias_skip_absorbable_iff 1 1 _ _ _ _ _ Hg). intros [S HS].
    specialize (HS 0%nat 0%nat ltac:(lia) ltac:(lia)).
    unfold subset_sum, rb_ex_A in HS. simpl in HS. destruct (S 0%nat); lra.
Qed.

(** Post-LayerNorm with biases at [d = 2], [n = 1]: [a = (1, -1)], [c = 1],
    and [b = e_2] ([C (I + b a^T) = 0]: absorbable) or [b = e_1] (not). *)
Definition pb_c : vec := fun _ => 1.
Definition pb_B1 : mat := fun k _ => if Nat.eqb k 0 then 1 else 0.

Lemma pb_generic (B : mat) : nonzero_vec 2 (col (mm 2 (centering 2) B) 0) ->
  generic_bias_lines 2 1 ex2_A pb_c (mm 2 (centering 2) B).
Proof.
  intros HB. split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row, ex2_A; simpl; lra].
  - intros i j Hi Hj Hne. lia.
  - intros i Hi. assert (i = 0%nat) by lia. subst i. exact HB.
Qed.

Example postln_relu_bias_instances :
  absorbable_postnorm_ungated_bias ex2_LN relu 2 1 1 identity ex2_A pb_c ex2_B (fun _ => 5) /\
  ~ absorbable_postnorm_ungated_bias ex2_LN relu 2 1 1 identity ex2_A pb_c pb_B1 (fun _ => 5).
Proof.
  assert (H2 : / INR 2 = / 2) by reflexivity.
  split.
  - unfold ex2_LN. apply (postln_relu_bias_generic 2 1 1 _ _ identity ex2_A pb_c ex2_B _
                           ltac:(lra) ex2_gamma).
    + apply pb_generic. exists 1%nat. split; [lia|].
      unfold col, mm, centering, ex2_B, identity. rewrite H2. simpl. lra.
    + exists (fun _ => true). exact ex2_postln_condition.
  - unfold ex2_LN. rewrite (postln_relu_bias_generic 2 1 1 _ _ identity ex2_A pb_c pb_B1 _
                              ltac:(lra) ex2_gamma).
    + intros [S HS]. pose proof (HS 0%nat 1%nat ltac:(lia) ltac:(lia)) as E.
      unfold mm, centering, subset_sum, ex2_A, pb_B1, identity in E. rewrite H2 in E.
      simpl in E. destruct (S 0%nat); lra.
    + apply pb_generic. exists 0%nat. split; [lia|].
      unfold col, mm, centering, pb_B1, identity. rewrite H2. simpl. lra.
Qed.
