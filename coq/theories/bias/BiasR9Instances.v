(** * Non-vacuity of R9 with biases, once for every activation (paper.md R9)

    The activations whose R9 follows from the one-variable statement
    [affine_independent_1d (even_part sigma)] ([GeluBias.bias_absorbable_iff_of_1d])
    share their concrete instances; they are stated and proved here once.

    Main results:
    - [ex2_absorbable_side], [ex2_not_absorbable_side], [ex2_below_instance]:
      both sides of R9's equivalence and the width bound on the blocks
      [ex2] of [GeluBias.v] ([a = 1], biases [0, 1]), and
      [ex2_absorbable_side_of_1d] etc.: they hold for every [sigma] with
      [odd_part_identity sigma] and the one-variable statement;
    - [affine_1d_pairs01]: the one-variable hypotheses on the pairs
      [(1, 0)], [(1, 1)] (same dilation, different shifts) with zero weights,
      and [affine_1d_pairs01_holds] for every function. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Ridge ReluSubmatrix.
From Absorb Require Import Biases BiasSpec GeluAffineRidge GeluBias.
Open Scope R_scope.

(** ** The blocks of [GeluBias.v] *)

Definition ex2_absorbable_side (sigma : R -> R) : Prop :=
  generic_bias_signs 1 2 ex2_A ex2_c ex2_B_yes /\
  (exists S, submatrix_cond 1 2 S ex2_A ex2_B_yes) /\
  absorbable_ungated_bias sigma 1 2 2 identity ex2_A ex2_c ex2_B_yes (fun _ => 5).

Definition ex2_not_absorbable_side (sigma : R -> R) : Prop :=
  generic_bias_signs 1 2 ex2_A ex2_c ex2_B_no /\
  ~ (exists S, submatrix_cond 1 2 S ex2_A ex2_B_no) /\
  ~ absorbable_ungated_bias sigma 1 2 2 identity ex2_A ex2_c ex2_B_no (fun _ => 5).

Definition ex2_below_instance (sigma : R -> R) : Prop :=
  generic_bias_signs 1 2 ex2_A ex2_c ex2_B_yes /\ (1 < 2)%nat /\
  ~ absorbable_ungated_bias sigma 1 2 1 identity ex2_A ex2_c ex2_B_yes (fun _ => 5).

(** They hold for every [sigma] with R9's one-variable route. *)
Section Ex2Instances.
Context (sigma : R -> R) (Hodd : odd_part_identity sigma) (H1 : affine_independent_1d (even_part sigma)).

Lemma ex2_instances_of_1d :
  ex2_absorbable_side sigma /\ ex2_not_absorbable_side sigma /\ ex2_below_instance sigma.
Proof.
  exact (ex2_r9_sides sigma (bias_absorbable_iff_of_1d sigma Hodd H1) (bias_not_absorbable_below_of_1d sigma Hodd H1)).
Qed.

Lemma ex2_absorbable_side_of_1d : ex2_absorbable_side sigma.
Proof. exact (proj1 ex2_instances_of_1d). Qed.

Lemma ex2_not_absorbable_side_of_1d : ex2_not_absorbable_side sigma.
Proof. exact (proj1 (proj2 ex2_instances_of_1d)). Qed.

Lemma ex2_below_instance_of_1d : ex2_below_instance sigma.
Proof. exact (proj2 (proj2 ex2_instances_of_1d)). Qed.

End Ex2Instances.

(** ** One variable: the pairs [(1, 0)] and [(1, 1)], zero weights *)

Definition affine_1d_pairs01 (e : R -> R) : Prop :=
  let alpha := fun _ : nat => 1 in
  let beta := fun j : nat => INR j in
  (forall j, (j < 2)%nat -> alpha j <> 0) /\ pairs_pm_distinct 2 alpha beta /\
  (forall t, sumn 2 (fun j => 0 * e (alpha j * t + beta j)) = 0 * t + 0).

Lemma affine_1d_pairs01_holds (e : R -> R) : affine_1d_pairs01 e.
Proof.
  split; [|split].
  - intros j _. lra.
  - intros i j Hi Hj Hne [[_ E]|[E _]]; [apply INR_eq in E; lia | lra].
  - intros t. simpl. ring.
Qed.
