(** * Compositions of blocks (definitions only; R4)

    [compose fs] applies the maps of [fs] head first.  A list of ungated
    blocks is a list of [(n, A, B)] ([ublock]), of gated ones a list of
    [(n, C, A, B)] ([gblock]); [res_ublock], [res_gblock] add the identity
    skip. *)

From Coq Require Import Reals List.
From Absorb Require Import SumDefs BlockDefs.
Open Scope R_scope.

(** ** Composition of a list of maps, head first *)

Fixpoint compose (fs : list (vec -> vec)) : vec -> vec :=
  match fs with
  | nil => fun x => x
  | f :: fs' => fun x => compose fs' (f x)
  end.

(** ** Lists of blocks *)

(** An ungated block is given by its width, up- and down-projection. *)
Definition ublock (sigma : R -> R) (d : nat) (b : nat * mat * mat) : vec -> vec :=
  let '(n, A, B) := b in ungated sigma d n A B.

(** A gated block is given by its width, gate, up- and down-projection. *)
Definition gblock (gamma : R -> R) (d : nat) (b : nat * mat * mat * mat) : vec -> vec :=
  let '(n, C, A, B) := b in gated gamma d n C A B.

(** Residual blocks with the usual identity skip. *)
Definition res_ublock sigma d b : vec -> vec := residual d identity (ublock sigma d b).
Definition res_gblock gamma d b : vec -> vec := residual d identity (gblock gamma d b).
