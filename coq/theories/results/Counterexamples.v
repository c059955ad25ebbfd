(** * R5: genericity cannot be dropped from the submatrix criterion

    The paper's example: [d = 1], [a = (1, 2)], [b = (1, 1)].  No subset of
    [{b_i a_i} = {1, 2}] sums to [-1], yet
    [x + ReLU(x) + ReLU(2x) = 4 ReLU(x) - ReLU(-x)],
    so the block is absorbable at width 2.  It is not generic ([a_0], [a_1]
    are parallel).

    Main result: [relu_nongeneric_counterexample]. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs.
Open Scope R_scope.

(** [a = (1, 2)] (rows of the [2 x 1] matrix), [b = (1, 1)]. *)
Definition A0 : mat := fun i _ => if Nat.eqb i 0 then 1 else 2.
Definition B0 : mat := fun _ _ => 1.

(** The absorbing block: [a' = (1, -1)], [b' = (4, -1)]. *)
Definition A0' : mat := fun i _ => if Nat.eqb i 0 then 1 else -1.
Definition B0' : mat := fun _ i => if Nat.eqb i 0 then 4 else -1.

Lemma relu_counterexample_identity z :
  4 * relu z - relu (- z) = z + relu z + relu (2 * z).
Proof. unfold relu, Rmax. repeat destruct Rle_dec; lra. Qed.

Lemma A0_B0_absorbable : absorbable_ungated relu 1 2 2 identity A0 B0.
Proof.
  exists A0', B0'. intros x i Hi. assert (i = 0%nat) by lia. subst i.
  unfold ungated, residual, mv, dot, row, identity, A0, B0, A0', B0'. simpl.
  replace (0 + -1 * x 0%nat) with (- x 0%nat) by ring.
  replace (0 + 1 * x 0%nat) with (x 0%nat) by ring.
  replace (0 + 2 * x 0%nat) with (2 * x 0%nat) by ring.
  pose proof (relu_counterexample_identity (x 0%nat)). lra.
Qed.

Lemma A0_B0_no_subset S : ~ submatrix_cond 1 2 S A0 B0.
Proof.
  intros H. specialize (H 0%nat 0%nat ltac:(lia) ltac:(lia)).
  unfold subset_sum, identity, A0, B0 in H. simpl in H.
  destruct (S 0%nat), (S 1%nat); lra.
Qed.

Lemma A0_B0_not_generic : ~ generic 1 2 A0 B0.
Proof.
  intros [_ [Hind _]].
  destruct (Hind 0%nat 1%nat ltac:(lia) ltac:(lia) ltac:(lia) 2 (-1)) as [H _].
  - intros k Hk. unfold row, A0. simpl. ring.
  - lra.
Qed.

Theorem relu_nongeneric_counterexample :
  absorbable_ungated relu 1 2 2 identity A0 B0 /\
  (forall S, ~ submatrix_cond 1 2 S A0 B0) /\
  ~ generic 1 2 A0 B0.
Proof.
  split; [exact A0_B0_absorbable|]. split; [exact A0_B0_no_subset|].
  exact A0_B0_not_generic.
Qed.
