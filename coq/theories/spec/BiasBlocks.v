(** * Blocks with biases (definitions only; R7)

    [ungated_bias sigma d n A c B b0 x = B sigma(A x + c) + b0] and the gated
    [B (gamma(C x + cg) ⊙ (A x + cu)) + b0]; absorbability at width [m] lets
    the residual-free block choose all its weights and biases. *)

From Coq Require Import Reals.
From Absorb Require Import SumDefs BlockDefs.
Open Scope R_scope.

(** [x |-> B sigma(A x + c) + b0]. *)
Definition ungated_bias (sigma : R -> R) (d n : nat) (A : mat) (c : vec) (B : mat)
    (b0 : vec) (x : vec) : vec :=
  fun i => sumn n (fun j => B i j * sigma (dot d (row A j) x + c j)) + b0 i.

(** [x |-> B (gamma(C x + cg) ⊙ (A x + cu)) + b0]. *)
Definition gated_bias (gamma : R -> R) (d n : nat) (C : mat) (cg : vec) (A : mat)
    (cu : vec) (B : mat) (b0 : vec) (x : vec) : vec :=
  fun i => sumn n (fun j => B i j * (gamma (dot d (row C j) x + cg j) *
                                     (dot d (row A j) x + cu j))) + b0 i.

Definition absorbable_ungated_bias (sigma : R -> R) (d n m : nat) (P A : mat) (c : vec)
    (B : mat) (b0 : vec) : Prop :=
  exists (A' : mat) (c' : vec) (B' : mat) (b0' : vec),
    same_fun d (ungated_bias sigma d m A' c' B' b0')
               (residual d P (ungated_bias sigma d n A c B b0)).

Definition absorbable_gated_bias (gamma : R -> R) (d n m : nat) (P C : mat) (cg : vec)
    (A : mat) (cu : vec) (B : mat) (b0 : vec) : Prop :=
  exists (C' : mat) (cg' : vec) (A' : mat) (cu' : vec) (B' : mat) (b0' : vec),
    same_fun d (gated_bias gamma d m C' cg' A' cu' B' b0')
               (residual d P (gated_bias gamma d n C cg A cu B b0)).
