(** * R11': generic post-norm ReLU blocks, and a block absorbable only post-LN

    R5 for ReLU with an arbitrary (possibly singular) linear part [P]:
    for generic [(A, B)], [x |-> P x + B relu(A x)] is absorbable at width
    [n] iff some [S] has [B[:,S] A[S,:] = -P] ([relu_skip_absorbable_iff];
    [<-] for every [sigma] with [sigma(z) - sigma(-z) = z]:
    [odd_skip_absorbable]).  The proof is R5's: the even part does not see
    [P] ([relu_even_part_skip]), so the rows match as in [ReluSubmatrix.v],
    and the odd part evaluated at the unit vectors gives [-P]
    ([matched_skip_submatrix]).  With [PostNorm.v]:
    - [postln_relu_generic]: post-LayerNorm ([gamma_i <> 0]), [(A, C B)]
      generic: absorbable at width [n] iff [exists S, C (P + B[:,S] A[S,:]) = 0];
    - [postrms_relu_generic]: post-RMSNorm, [(A, B)] generic: iff
      [exists S, B[:,S] A[S,:] = -P];
    - [postln_only_instance]: [d = 2], [x + e_2 relu(x_1 - x_2)] is
      absorbable after a LayerNorm but not bare. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry FiniteMaps Ridge.
From Absorb Require Import SkipReduction ReluSubmatrix FlipSigns Norms PostNorm.
Open Scope R_scope.

(** [B[:,S] A[S,:] = -P] on [R^d]. *)
Definition skip_submatrix_cond (d n : nat) (S : nat -> bool) (A B P : mat) : Prop :=
  forall k l, (k < d)%nat -> (l < d)%nat -> subset_sum n S A B k l = - P k l.

(** The even and odd parts with any linear part [P] ([relu_even_part_skip],
    [ungated_odd_part_skip]) are in [ReluSubmatrix], which derives the identity-skip
    forms from them. *)

(** Once the rows are matched, [S = {i | c_i < 0}] has [B[:,S] A[S,:] = -P]. *)
Lemma matched_skip_submatrix d n P A B A' B' (jf : nat -> nat) (cf : nat -> R) :
  (forall i, (i < n)%nat ->
     (jf i < n)%nat /\ cf i <> 0 /\ forall k, (k < d)%nat -> A' (jf i) k = cf i * A i k) ->
  (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> jf i1 = jf i2 -> i1 = i2) ->
  (forall i k, (i < n)%nat -> (k < d)%nat -> B' k (jf i) * Rabs (cf i) = B k i) ->
  (forall k, (k < d)%nat -> forall x,
     sumn n (fun j => B' k j * dot d (row A' j) x) =
     2 * mv d P x k + sumn n (fun i => B k i * dot d (row A i) x)) ->
  exists S, skip_submatrix_cond d n S A B P.
Proof.
  intros Hf Hinj Hcoef Hodd.
  assert (Hrange : forall i, (i < n)%nat -> (jf i < n)%nat) by (intros i Hi; apply Hf, Hi).
  pose proof (injective_surjective n jf Hrange Hinj) as Hsurj.
  set (neg := fun i => if Rlt_dec (cf i) 0 then true else false).
  exists neg. intros k l Hk Hl. unfold subset_sum.
  pose proof (Hodd k Hk (unit_vec l)) as E. rewrite mv_unit in E by exact Hl.
  assert (Hsum : sumn n (fun j => B' k j * dot d (row A' j) (unit_vec l)) =
    sumn n (fun i => (if neg i then - B k i else B k i) * A i l)).
  { rewrite (sumn_reindex n jf _ Hrange Hinj Hsurj). apply sumn_ext. intros i Hi.
    destruct (Hf i Hi) as [_ [Hci Ei]].
    rewrite (parallel_dot d (row A' (jf i)) (row A i) (cf i) _ Ei).
    change (unit_vec l) with (fun t => identity l t). rewrite dot_unit by exact Hl.
    pose proof (Hcoef i k Hi Hk) as C. unfold row, neg.
    destruct (Rlt_dec (cf i) 0) as [N|N]; simpl.
    - rewrite Rabs_left in C by exact N. rewrite <- C. ring.
    - rewrite Rabs_right in C by (apply Rnot_lt_ge; exact N). rewrite <- C. ring. }
  rewrite Hsum in E.
  rewrite (sumn_ext n (fun i => B k i * dot d (row A i) (unit_vec l))
             (fun i => B k i * A i l)) in E
    by (intros i _; change (unit_vec l) with (fun t => identity l t);
        rewrite dot_unit by exact Hl; reflexivity).
  assert (Hdiff : sumn n (fun i => (if neg i then - B k i else B k i) * A i l)
      - sumn n (fun i => B k i * A i l) =
      -2 * sumn n (fun i => if neg i then B k i * A i l else 0)).
  { rewrite <- sumn_minus, <- sumn_scal_l. apply sumn_ext. intros i _.
    destruct (neg i); ring. }
  lra.
Qed.

Theorem relu_skip_generic_submatrix d n P A B :
  generic d n A B -> absorbable_ungated relu d n n P A B ->
  exists S, skip_submatrix_cond d n S A B P.
Proof.
  intros Hg [A' [B' H]].
  pose proof (relu_even_part_skip d n n P A B A' B' H) as Hev.
  destruct (relu_absorb_choice d n n A B A' B' Hg Hev) as [jf [cf [Hf Hinj]]].
  exact (matched_skip_submatrix d n P A B A' B' jf cf Hf Hinj
           (relu_matched_coef d n A B A' B' jf cf Hg Hev Hf Hinj)
           (ungated_odd_part_skip relu d n n P A B A' B' relu_sub_opp H)).
Qed.

(** ** (<=): flipping the rows of [S], for any odd-part-identity [sigma] *)

Lemma skip_submatrix_mv d n S A B P x i :
  skip_submatrix_cond d n S A B P -> (i < d)%nat ->
  sumn n (fun j => if S j then B i j * dot d (row A j) x else 0) = - mv d P x i.
Proof.
  intros H Hi. rewrite subset_sum_mv. unfold mv, dot, row.
  rewrite (sumn_ext d _ (fun l => - (P i l * x l))); [apply sumn_opp|].
  intros l Hl. rewrite H by assumption. ring.
Qed.

Theorem odd_skip_absorbable sigma d n S P A B :
  odd_part_identity sigma -> skip_submatrix_cond d n S A B P ->
  same_fun d (ungated sigma d n (flip_rows S A) B) (residual d P (ungated sigma d n A B)).
Proof.
  intros Hodd Hsub x i Hi. unfold ungated, residual.
  rewrite (sumn_ext n _ (fun j => B i j * sigma (dot d (row A j) x) -
             (if S j then B i j * dot d (row A j) x else 0))).
  - rewrite sumn_minus, (skip_submatrix_mv d n S A B P x i Hsub Hi). ring.
  - intros j _. rewrite dot_flip_row. destruct (S j); [|ring].
    pose proof (Hodd (dot d (row A j) x)) as E.
    replace (sigma (- dot d (row A j) x))
      with (sigma (dot d (row A j) x) - dot d (row A j) x) by lra. ring.
Qed.

Theorem relu_skip_absorbable_iff d n P A B : generic d n A B ->
  (absorbable_ungated relu d n n P A B <-> exists S, skip_submatrix_cond d n S A B P).
Proof.
  intros Hg. split; [apply relu_skip_generic_submatrix, Hg|].
  intros [S HS]. exists (flip_rows S A), B.
  exact (odd_skip_absorbable relu d n S P A B relu_sub_opp HS).
Qed.

(** ** Post-norm corollaries *)

Lemma subset_sum_mm d n S A B (M : mat) k l :
  subset_sum n S A (mm d M B) k l = mm d M (subset_sum n S A B) k l.
Proof.
  unfold subset_sum, mm.
  rewrite (sumn_ext n _ (fun i => sumn d (fun t => if S i then M k t * B t i * A i l else 0))).
  - rewrite sumn_swap. apply sumn_ext. intros t _. rewrite <- sumn_scal_l.
    apply sumn_ext. intros i _. destruct (S i); ring.
  - intros i _. destruct (S i).
    + rewrite <- sumn_scal_r. reflexivity.
    + symmetry. apply sumn_zero. reflexivity.
Qed.

Lemma mm_plus_r d (M N1 N2 : mat) k l :
  mm d M (fun k' l' => N1 k' l' + N2 k' l') k l = mm d M N1 k l + mm d M N2 k l.
Proof. unfold mm. rewrite <- sumn_plus. apply sumn_ext. intros; ring. Qed.

(** Post-LayerNorm, every [gamma_i <> 0], [(A, C B)] generic (rows of [A]
    nonzero, pairwise independent; no [b_i] a multiple of [1]). *)
Theorem postln_relu_generic d n eps gamma beta P A B : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) -> generic d n A (mm d (centering d) B) ->
  (absorbable_postnorm_ungated (layer_norm d eps gamma beta) relu d n n P A B <->
   exists S, forall k l, (k < d)%nat -> (l < d)%nat ->
     mm d (centering d) (fun k' l' => P k' l' + subset_sum n S A B k' l') k l = 0).
Proof.
  intros He Hg Hgen. rewrite (postln_ungated_iff relu d n n eps gamma beta P A B He Hg).
  rewrite (relu_skip_absorbable_iff d n _ A _ Hgen).
  split; intros [S HS]; exists S; intros k l Hk Hl; pose proof (HS k l Hk Hl) as E;
    rewrite ?mm_plus_r, ?subset_sum_mm in *; lra.
Qed.

(** Post-RMSNorm, every [gamma_i <> 0], [(A, B)] generic. *)
Theorem postrms_relu_generic d n eps gamma beta P A B : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) -> generic d n A B ->
  (absorbable_postnorm_ungated (rms_norm d eps gamma beta) relu d n n P A B <->
   exists S, skip_submatrix_cond d n S A B P).
Proof.
  intros He Hg Hgen. rewrite (postrms_ungated_iff relu d n n eps gamma beta P A B He Hg).
  exact (relu_skip_absorbable_iff d n P A B Hgen).
Qed.

(** ** Non-vacuity: [d = 2], [n = 1], [h(x) = x + e_2 relu(x_1 - x_2)] *)

Definition ex2_A : mat := fun _ k => if Nat.eqb k 0 then 1 else -1.
Definition ex2_B : mat := fun k _ => if Nat.eqb k 0 then 0 else 1.
Definition ex2_LN : vec -> vec := layer_norm 2 1 (fun _ => 1) (fun _ => 0).
Definition ex2_RMS : vec -> vec := rms_norm 2 1 (fun _ => 1) (fun _ => 0).

Lemma ex2_gamma : forall i, (i < 2)%nat -> (fun _ : nat => 1) i <> 0.
Proof. intros. lra. Qed.

Lemma inr2_inv : / INR 2 = / 2.
Proof. reflexivity. Qed.

Lemma ex2_generic : generic 2 1 ex2_A ex2_B.
Proof.
  split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row, ex2_A; simpl; lra].
  - intros i j Hi Hj Hne. lia.
  - intros i _. exists 1%nat. split; [lia | unfold col, ex2_B; simpl; lra].
Qed.

(** [C b = (-1/2, 1/2) <> 0]. *)
Lemma ex2_generic_centered : generic 2 1 ex2_A (mm 2 (centering 2) ex2_B).
Proof.
  split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row, ex2_A; simpl; lra].
  - intros i j Hi Hj Hne. lia.
  - intros i _. exists 1%nat. split; [lia|]. unfold col, mm, centering, ex2_B, identity.
    rewrite inr2_inv. simpl. lra.
Qed.

(** The bare block is not absorbable at width 1: [B[:,S] A[S,:]] has a
    zero [(1,1)] entry. *)
Lemma ex2_bare_not_absorbable : ~ absorbable_ungated relu 2 1 1 identity ex2_A ex2_B.
Proof.
  rewrite (relu_skip_absorbable_iff 2 1 identity ex2_A ex2_B ex2_generic).
  intros [S HS]. pose proof (HS 0%nat 0%nat ltac:(lia) ltac:(lia)) as E.
  unfold subset_sum, ex2_A, ex2_B, identity in E. simpl in E. destruct (S 0%nat); lra.
Qed.

(** [C (I + b a^T) = 0]: its columns are [(1,1)] and [0]. *)
Lemma ex2_postln_condition : forall k l, (k < 2)%nat -> (l < 2)%nat ->
  mm 2 (centering 2) (fun k' l' => identity k' l' + subset_sum 1 (fun _ => true) ex2_A ex2_B k' l')
    k l = 0.
Proof.
  intros k l Hk Hl. unfold mm, centering, subset_sum, ex2_A, ex2_B, identity.
  rewrite inr2_inv.
  destruct k as [|[|k]]; [| |lia]; destruct l as [|[|l]]; try lia; simpl; lra.
Qed.

Theorem ex2_postln_absorbable :
  absorbable_postnorm_ungated ex2_LN relu 2 1 1 identity ex2_A ex2_B.
Proof.
  apply (postln_relu_generic 2 1 1 _ _ identity ex2_A ex2_B ltac:(lra) ex2_gamma
           ex2_generic_centered).
  exists (fun _ => true). exact ex2_postln_condition.
Qed.

(** Both sides of [postln_relu_generic] and [postrms_relu_generic] occur:
    absorbable after a LayerNorm, not bare and not after an RMSNorm. *)
Theorem postln_only_instance :
  absorbable_postnorm_ungated ex2_LN relu 2 1 1 identity ex2_A ex2_B /\
  ~ absorbable_ungated relu 2 1 1 identity ex2_A ex2_B /\
  ~ absorbable_postnorm_ungated ex2_RMS relu 2 1 1 identity ex2_A ex2_B.
Proof.
  split; [exact ex2_postln_absorbable|]. split; [exact ex2_bare_not_absorbable|].
  unfold ex2_RMS.
  rewrite (postrms_ungated_iff relu 2 1 1 1 _ _ identity ex2_A ex2_B ltac:(lra) ex2_gamma).
  exact ex2_bare_not_absorbable.
Qed.

(** A generic post-LN block that is not absorbable at width 1:
    [x + e_1 relu(x_1 - x_2)] ([A] as above, [b = e_1]): the second column
    of [C (I + B[:,S] A[S,:])] is [C (-1, 1)] or [C (0, 1)], never 0. *)
Theorem postln_not_absorbable_instance :
  generic 2 1 ex2_A (fun k _ => if Nat.eqb k 0 then 1 else 0) /\
  ~ absorbable_postnorm_ungated ex2_LN relu 2 1 1 identity ex2_A
      (fun k _ => if Nat.eqb k 0 then 1 else 0).
Proof.
  assert (Hg : generic 2 1 ex2_A (mm 2 (centering 2) (fun k _ => if Nat.eqb k 0 then 1 else 0))).
  { split; [|split].
    - intros i _. exists 0%nat. split; [lia | unfold row, ex2_A; simpl; lra].
    - intros i j Hi Hj Hne. lia.
    - intros i _. exists 0%nat. split; [lia|]. unfold col, mm, centering, identity.
      rewrite inr2_inv. simpl. lra. }
  split.
  - split; [|split].
    + intros i _. exists 0%nat. split; [lia | unfold row, ex2_A; simpl; lra].
    + intros i j Hi Hj Hne. lia.
    + intros i _. exists 0%nat. split; [lia | unfold col; simpl; lra].
  - unfold ex2_LN. rewrite (postln_relu_generic 2 1 1 _ _ identity ex2_A _ ltac:(lra) ex2_gamma Hg).
    intros [S HS]. pose proof (HS 0%nat 1%nat ltac:(lia) ltac:(lia)) as E.
    unfold mm, centering, subset_sum, ex2_A, identity in E. rewrite inr2_inv in E.
    simpl in E. destruct (S 0%nat); lra.
Qed.
