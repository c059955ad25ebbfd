(** * Non-vacuity of R9 with biases, once for every activation (paper.md R9)

    The activations whose R9 follows from the one-variable statement
    [affine_independent_1d (even_part sigma)] ([GeluBias.bias_absorbable_iff_of_1d])
    share their concrete instances: [ex2_absorbable_side_of_1d],
    [ex2_not_absorbable_side_of_1d], [ex2_below_instance_of_1d] give both
    sides of R9's equivalence and the width bound on the blocks [ex2] of
    [GeluBias.v] ([GeluBias.ex2_absorbable_side] etc.: [a = 1], biases
    [0, 1]) for every [sigma] with [odd_part_identity sigma] and the
    one-variable statement.  (The one-variable hypotheses hold on the pairs
    [(1, 0)], [(1, 1)] for every function: [GeluAffineRidge.affine_1d_pairs01_holds].) *)

From Coq Require Import Reals.
From Absorb Require Import Sums Blocks ActivationDefs Ridge ReluSubmatrix.
From Absorb Require Import Biases BiasSpec GeluAffineRidge GeluBias.
Open Scope R_scope.

Section Ex2Instances.
Context (sigma : R -> R) (Hodd : odd_part_identity sigma)
    (H1 : affine_independent_1d (even_part sigma)).

Lemma ex2_instances_of_1d :
  ex2_absorbable_side sigma /\ ex2_not_absorbable_side sigma /\ ex2_below_instance sigma.
Proof.
  exact
    (ex2_r9_sides sigma (bias_absorbable_iff_of_1d sigma Hodd H1)
      (bias_not_absorbable_below_of_1d sigma Hodd H1)).
Qed.

Lemma ex2_absorbable_side_of_1d : ex2_absorbable_side sigma.
Proof. exact (proj1 ex2_instances_of_1d). Qed.

Lemma ex2_not_absorbable_side_of_1d : ex2_not_absorbable_side sigma.
Proof. exact (proj1 (proj2 ex2_instances_of_1d)). Qed.

Lemma ex2_below_instance_of_1d : ex2_below_instance sigma.
Proof. exact (proj2 (proj2 ex2_instances_of_1d)). Qed.

End Ex2Instances.
