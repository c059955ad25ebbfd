(** * R9 for ReLU with any linear part [P] (singular allowed), and post-norm with biases

    [ReluBias.v] proves (=>) of R5 with biases for any linear part [P]:
    [ReluBias.relu_bias_skip_generic_submatrix] ([generic_bias_lines], and
    [P x + B relu(A x + c) + b0] absorbable at width [n] by a biased ReLU
    block, give [S] with [B[:,S] A[S,:] = -P]) and
    [ReluBias.relu_bias_skip_not_absorbable_below].  Here:
    - [odd_skip_absorbable_bias]: (<=) for every [sigma] with
      [sigma(z) - sigma(-z) = z], no genericity (flip the rows of [S]; the
      output bias absorbs [sum_{i in S} b_i c_i]);
    - [relu_bias_skip_absorbable_iff] (headline); bias-free at [c = 0]:
      [relu_skip_not_absorbable_below] (never below width [n], any [P]);
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

(** ** The equivalence ((=>) is [ReluBias.relu_bias_skip_generic_submatrix]) *)

Theorem relu_bias_skip_absorbable_iff : forall d n P A c B b0,
  generic_bias_lines d n A c B ->
  (absorbable_ungated_bias relu d n n P A c B b0 <-> exists S, skip_submatrix_cond d n S A B P).
Proof.
  intros d n P A c B b0 Hg. split.
  - exact (relu_bias_skip_generic_submatrix d n P A c B b0 Hg).
  - intros [S HS]. exact (odd_skip_absorbable_bias relu d n S P A c B b0 relu_odd_part HS).
Qed.

(** ** Bias-free, below width [n]: the biased statement at [c = 0] *)

Lemma generic_bias_lines_zero d n A B : generic d n A B -> generic_bias_lines d n A (fun _ => 0) B.
Proof.
  intros [Hnz [Hind Hb]]. split; [exact Hnz|]. split; [|exact Hb].
  intros i j Hi Hj Hne al be H. apply (Hind i j Hi Hj Hne al be). intros k Hk.
  pose proof (H k ltac:(lia)) as E. unfold aug_row in E.
  replace (Nat.ltb k d) with true in E by (symmetry; apply Nat.ltb_lt, Hk). exact E.
Qed.

Theorem relu_skip_not_absorbable_below : forall d n m P A B,
  generic d n A B -> (m < n)%nat -> ~ absorbable_ungated relu d n m P A B.
Proof.
  intros d n m P A B Hg Hmn [A' [B' H]].
  apply (relu_bias_skip_not_absorbable_below d n m P A (fun _ => 0) B (fun _ => 0)
           (generic_bias_lines_zero d n A B Hg) Hmn).
  exists A', (fun _ => 0), B', (fun _ => 0). intros x i Hi. unfold ungated_bias, residual.
  pose proof (H x i Hi) as E. unfold ungated, residual in E.
  rewrite !(sumn_ext _ (fun j => _ * relu (_ + 0)) (fun j => _ * relu (dot d _ x))) by
    (intros; rewrite Rplus_0_r; reflexivity).
  lra.
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

(** Bias-free, below width: [x |-> relu(x_1) e_1 + relu(x_2) e_2] ([A = B = I],
    generic) with the singular skip [P = 0] needs width 2. *)
Example relu_skip_below_instance :
  generic 2 2 identity identity /\ ~ absorbable_ungated relu 2 2 1 (fun _ _ => 0) identity identity.
Proof.
  assert (Hg : generic 2 2 identity identity).
  { split; [|split].
    - intros i Hi. exists i. split; [exact Hi|]. unfold row, identity.
      destruct (Nat.eq_dec i i); [lra | congruence].
    - intros i j Hi Hj Hne al be H.
      pose proof (H i Hi) as Ei. pose proof (H j Hj) as Ej. unfold row, identity in Ei, Ej.
      destruct (Nat.eq_dec i i) as [_|C]; [|congruence].
      destruct (Nat.eq_dec j j) as [_|C]; [|congruence].
      destruct (Nat.eq_dec j i) as [E|_]; [congruence|].
      destruct (Nat.eq_dec i j) as [E|_]; [congruence|]. split; lra.
    - intros i Hi. exists i. split; [exact Hi|]. unfold col, identity.
      destruct (Nat.eq_dec i i); [lra | congruence]. }
  split; [exact Hg|]. exact (relu_skip_not_absorbable_below 2 2 1 _ _ _ Hg ltac:(lia)).
Qed.
