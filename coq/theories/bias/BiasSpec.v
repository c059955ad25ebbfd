(** * Genericity with biases and biased ridge forms (definitions only; paper.md R9)

    A biased ungated block is [x + B sigma(A x + c) + b0] ([BiasBlocks.ungated_bias]).
    Row [i] is the affine function [x |-> a_i . x + c_i], i.e. the vector
    [(a_i, c_i)] of [R^(d+1)] ([aug_row]).  Its class is a hyperplane:
    - ReLU: [(a_j, c_j) = lam (a_i, c_i)] ([generic_bias_lines] asks the
      augmented rows to be pairwise linearly independent);
    - GELU family: [(a_j, c_j) = +-(a_i, c_i)] ([generic_bias_signs] asks them
      to be pairwise not equal up to sign).
    Both also ask every [a_i <> 0] (a row with [a_i = 0] is a constant) and
    every [b_i <> 0].  [bias_ridge_form] is R8's ridge form with biases.
    Nothing here is proved; this file imports definition files only. *)

From Coq Require Import Reals.
From Absorb Require Import SumDefs BlockDefs RidgeForm.
Open Scope R_scope.

(** [(a_i, c_i)]: coordinates [0 .. d-1] from [A], coordinate [d] is [c_i]. *)
Definition aug_row (d : nat) (A : mat) (c : vec) (i : nat) : vec :=
  fun j => if Nat.ltb j d then A i j else c i.

Definition generic_bias_lines (d n : nat) (A : mat) (c : vec) (B : mat) : Prop :=
  (forall i, (i < n)%nat -> nonzero_vec d (row A i)) /\
  (forall i j, (i < n)%nat -> (j < n)%nat -> i <> j ->
     lin_independent2 (S d) (aug_row d A c i) (aug_row d A c j)) /\
  (forall i, (i < n)%nat -> nonzero_vec d (col B i)).

Definition generic_bias_signs (d n : nat) (A : mat) (c : vec) (B : mat) : Prop :=
  (forall i, (i < n)%nat -> nonzero_vec d (row A i)) /\
  (forall i j, (i < n)%nat -> (j < n)%nat -> i <> j ->
     ~ pm_equal (S d) (aug_row d A c i) (aug_row d A c j)) /\
  (forall i, (i < n)%nat -> nonzero_vec d (col B i)).

(** A *biased ridge form* [x |-> L x + l0 + sum_{t < k} G[:,t] sigma(u_t . x + s_t)]:
    its classes are the affine hyperplanes [u_t . x + s_t = 0]
    ([bias/BiasRidgeForm.v] proves its theory). *)
Definition bias_ridge_form (sigma : R -> R) (d k : nat) (U : mat) (s : vec) (G L : mat)
    (l0 : vec) (x : vec) : vec :=
  fun i => mv d L x i + l0 i + sumn k (fun t => G i t * sigma (dot d (row U t) x + s t)).
