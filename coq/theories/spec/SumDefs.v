(** * Finite sums (definition only)

    [sumn n f = f 0 + ... + f (n-1)].  Its algebra is [tools/Sums.v]. *)

From Coq Require Import Reals.
Open Scope R_scope.

Fixpoint sumn (n : nat) (f : nat -> R) : R :=
  match n with
  | O => 0
  | S m => sumn m f + f m
  end.
