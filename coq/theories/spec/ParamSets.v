(** * Sets of weights: topology and Lebesgue-null sets (definitions only; R6)

    The parameters of a block are the entries [A i k], [B k i] ([i < n],
    [k < d]).
    - [in_Z d n A B]: some [S] has [B[:,S] A[S,:] = -I] (the set [Z]);
      [nongeneric d n A B]: [(A, B)] is not generic.
    - [close d n eps A B A' B']: every entry of [(A', B')] is within [eps] of
      that of [(A, B)]; [closed_set], [open_set], [empty_interior] for sets
      [T : mat -> mat -> Prop] of parameters.
    - Lebesgue-null sets as outer measure zero: a parameter point is
      [p : key -> R] with coordinates [param_coords d n] ([matA p], [matB p]
      read it as matrices); [lebesgue_null cs E]: for every [eps > 0], [E] is
      covered by countably many boxes (a list per index [m]) of total volume
      at most [eps]; [params_null d n T]: the weights with [T A B] are null. *)

From Coq Require Import Reals List.
From Absorb Require Import SumDefs BlockDefs.
Import ListNotations.
Open Scope R_scope.

Definition in_Z (d n : nat) (A B : mat) : Prop := exists S, submatrix_cond d n S A B.

Definition nongeneric (d n : nat) (A B : mat) : Prop := ~ generic d n A B.

Definition close (d n : nat) (eps : R) (A B A' B' : mat) : Prop :=
  forall i k, (i < n)%nat -> (k < d)%nat ->
    Rabs (A' i k - A i k) < eps /\ Rabs (B' k i - B k i) < eps.

Definition closed_set (d n : nat) (T : mat -> mat -> Prop) : Prop :=
  forall A B,
    (forall eps, 0 < eps -> exists A' B', close d n eps A B A' B' /\ T A' B') -> T A B.

Definition open_set (d n : nat) (T : mat -> mat -> Prop) : Prop :=
  forall A B, T A B ->
    exists eps, 0 < eps /\ forall A' B', close d n eps A B A' B' -> T A' B'.

Definition empty_interior (d n : nat) (T : mat -> mat -> Prop) : Prop :=
  forall A B eps, 0 < eps -> exists A' B', close d n eps A B A' B' /\ ~ T A' B'.

Definition key : Type := (nat * nat * bool)%type.

Definition param_coords (d n : nat) : list key :=
  flat_map (fun i => flat_map (fun k => [(i, k, true); (i, k, false)]) (seq 0 d)) (seq 0 n).

Definition matA (p : key -> R) : mat := fun i k => p (i, k, true).
Definition matB (p : key -> R) : mat := fun k i => p (i, k, false).

Record box := mkbox { lo : key -> R; hi : key -> R }.

Definition in_box (cs : list key) (b : box) (p : key -> R) : Prop :=
  forall c, In c cs -> lo b c <= p c <= hi b c.

Definition proper_box (cs : list key) (b : box) : Prop :=
  forall c, In c cs -> lo b c <= hi b c.

Fixpoint prodl (cs : list key) (f : key -> R) : R :=
  match cs with [] => 1 | c :: cs' => f c * prodl cs' f end.

Definition volume (cs : list key) (b : box) : R := prodl cs (fun c => hi b c - lo b c).

Fixpoint total_volume (cs : list key) (bs : list box) : R :=
  match bs with [] => 0 | b :: bs' => volume cs b + total_volume cs bs' end.

Definition lebesgue_null (cs : list key) (E : (key -> R) -> Prop) : Prop :=
  forall eps, 0 < eps -> exists cover : nat -> list box,
    (forall m b, In b (cover m) -> proper_box cs b) /\
    (forall p, E p -> exists m b, In b (cover m) /\ in_box cs b p) /\
    (forall M, sumn M (fun m => total_volume cs (cover m)) <= eps).

Definition params_null (d n : nat) (T : mat -> mat -> Prop) : Prop :=
  lebesgue_null (param_coords d n) (fun p => T (matA p) (matB p)).
