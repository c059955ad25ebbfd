(** * R5 for ReLU: the submatrix characterization

    For generic [(A, B)] (rows [a_i <> 0], pairwise linearly independent,
    columns [b_i <> 0]), [x + B relu(A x)] is absorbable at width [n] iff
    some subset [S] of hidden units has [B[:,S] A[S,:] = -I_d]
    ([relu_absorbable_iff_submatrix]).  (=>) is [ReluSubmatrix.v], (<=) is
    [FlipSigns.v].  Both sides are realised by concrete generic instances. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations FlipSigns ReluSubmatrix.
Open Scope R_scope.

Theorem relu_absorbable_iff_submatrix : forall d n A B, generic d n A B ->
  (absorbable_ungated relu d n n identity A B <-> exists S, submatrix_cond d n S A B).
Proof.
  intros d n A B Hg. split.
  - exact (relu_absorbable_generic_submatrix d n A B Hg).
  - intros [S HS]. exact (odd_part_absorbable relu d n S A B relu_odd_part HS).
Qed.

(** ** Non-vacuity: [d = n = 1], [A = 1], [B = -1] (absorbable) and [B = 1] (not) *)

Lemma generic_1_1 (b : R) : b <> 0 -> generic 1 1 (fun _ _ => 1) (fun _ _ => b).
Proof.
  intros Hb. split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row; lra].
  - intros i j Hi Hj Hne. lia.
  - intros i _. exists 0%nat. split; [lia | unfold col; exact Hb].
Qed.

Example relu_iff_absorbable_side :
  generic 1 1 (fun _ _ => 1) (fun _ _ => -1) /\
  (exists S, submatrix_cond 1 1 S (fun _ _ => 1) (fun _ _ => -1)) /\
  absorbable_ungated relu 1 1 1 identity (fun _ _ => 1) (fun _ _ => -1).
Proof.
  assert (Hg : generic 1 1 (fun _ _ => 1) (fun _ _ => -1)) by (apply generic_1_1; lra).
  assert (HS : exists S, submatrix_cond 1 1 S (fun _ _ => 1) (fun _ _ => -1)).
  { exists (fun _ => true). intros k l Hk Hl.
    assert (k = 0%nat) by lia. assert (l = 0%nat) by lia. subst k l.
    unfold subset_sum, identity. simpl. destruct (Nat.eq_dec 0 0); [ring | congruence]. }
  split; [exact Hg|]. split; [exact HS|].
  apply (relu_absorbable_iff_submatrix 1 1 _ _ Hg). exact HS.
Qed.

Example relu_iff_not_absorbable_side :
  generic 1 1 (fun _ _ => 1) (fun _ _ => 1) /\
  ~ (exists S, submatrix_cond 1 1 S (fun _ _ => 1) (fun _ _ => 1)) /\
  ~ absorbable_ungated relu 1 1 1 identity (fun _ _ => 1) (fun _ _ => 1).
Proof.
  assert (Hg : generic 1 1 (fun _ _ => 1) (fun _ _ => 1)) by (apply generic_1_1; lra).
  assert (HS : ~ exists S, submatrix_cond 1 1 S (fun _ _ => 1) (fun _ _ => 1)).
  { intros [S HS]. specialize (HS 0%nat 0%nat ltac:(lia) ltac:(lia)).
    unfold subset_sum, identity in HS. simpl in HS.
    destruct (Nat.eq_dec 0 0); [|congruence]. destruct (S 0%nat); lra. }
  split; [exact Hg|]. split; [exact HS|].
  rewrite (relu_absorbable_iff_submatrix 1 1 _ _ Hg). exact HS.
Qed.
