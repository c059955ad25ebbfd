(** * More unknowns than equations: a nonzero kernel vector

    [kernel_vector]: for a real [r x c] matrix [Q] (function style, rows
    [l < r], columns [j < c]) with [r < c] there is a vector [v] with a
    nonzero entry below [c] and [sum_{j < c} Q l j v j = 0] for every
    [l < r].  Proof by induction on [c], eliminating the last column with a
    pivot row (or taking the last unit vector when that column is zero).
    [kernel_vector_example]: the instance [1 x 2] matrix [(1 1)]. *)

From Coq Require Import Reals Lia Lra Classical.
From Absorb Require Import Sums Blocks.
Open Scope R_scope.

(** The rows other than [l0] of an [S r]-row matrix, renumbered [0 .. r-1]. *)
Definition skip_row (r l0 l : nat) : nat := if Nat.eq_dec l l0 then r else l.

Lemma skip_row_cover r l0 l : (l0 < S r)%nat -> (l < S r)%nat -> l <> l0 ->
  exists l', (l' < r)%nat /\ skip_row r l0 l' = l.
Proof.
  intros H0 Hl Hne. unfold skip_row. destruct (Nat.eq_dec l r) as [->|Hr].
  - exists l0. split; [lia|]. destruct (Nat.eq_dec l0 l0); [reflexivity | congruence].
  - exists l. split; [lia|]. destruct (Nat.eq_dec l l0); [congruence | reflexivity].
Qed.

(** A zero last column: the last unit vector. *)
Lemma kernel_vector_unit c r (Q : mat) : (forall l, (l < r)%nat -> Q l c = 0) ->
  exists v : vec, (exists j, (j < S c)%nat /\ v j <> 0) /\
    forall l, (l < r)%nat -> sumn (S c) (fun j => Q l j * v j) = 0.
Proof.
  intros Hz. exists (fun j => if Nat.eq_dec j c then 1 else 0). split.
  - exists c. split; [lia|]. destruct (Nat.eq_dec c c); [lra | congruence].
  - intros l Hl. rewrite sumn_S. rewrite sumn_zero.
    + destruct (Nat.eq_dec c c); [rewrite Hz by exact Hl; ring | congruence].
    + intros j Hj. destruct (Nat.eq_dec j c); [lia | ring].
Qed.

Theorem kernel_vector : forall c r (Q : mat), (r < c)%nat ->
  exists v : vec, (exists j, (j < c)%nat /\ v j <> 0) /\
    forall l, (l < r)%nat -> sumn c (fun j => Q l j * v j) = 0.
Proof.
  induction c as [|c IH]; intros r Q Hrc; [lia|].
  destruct (classic (forall l, (l < r)%nat -> Q l c = 0)) as [Hz|Hnz].
  { exact (kernel_vector_unit c r Q Hz). }
  apply not_all_ex_not in Hnz as [l0 Hl0]. apply imply_to_and in Hl0 as [Hl0 Hp].
  destruct r as [|r]; [lia|].
  set (Q' := fun l j => Q (skip_row r l0 l) j - Q (skip_row r l0 l) c / Q l0 c * Q l0 j).
  destruct (IH r Q' ltac:(lia)) as [w [[j0 [Hj0 Hw]] Hker]].
  set (s0 := sumn c (fun j => Q l0 j * w j)).
  exists (fun j => if Nat.eq_dec j c then - s0 / Q l0 c else w j). split.
  - exists j0. split; [lia|]. destruct (Nat.eq_dec j0 c); [lia | exact Hw].
  - intros l Hl. rewrite sumn_S.
    rewrite (sumn_ext c _ (fun j => Q l j * w j))
      by (intros j Hj; destruct (Nat.eq_dec j c); [lia | reflexivity]).
    destruct (Nat.eq_dec c c) as [_|]; [|congruence].
    destruct (Nat.eq_dec l l0) as [->|Hne].
    + fold s0. field. exact Hp.
    + destruct (skip_row_cover r l0 l Hl0 Hl Hne) as [l' [Hl' Htau]].
      specialize (Hker l' Hl'). unfold Q' in Hker. rewrite Htau in Hker.
      rewrite (sumn_ext c _ (fun j => Q l j * w j - Q l c / Q l0 c * (Q l0 j * w j))) in Hker
        by (intros j _; ring).
      rewrite sumn_minus, sumn_scal_l in Hker. fold s0 in Hker.
      replace (Q l c * (- s0 / Q l0 c)) with (- (Q l c / Q l0 c * s0)) by (field; exact Hp). lra.
Qed.

Example kernel_vector_example :
  exists v : vec, (exists j, (j < 2)%nat /\ v j <> 0) /\ sumn 2 (fun j => 1 * v j) = 0.
Proof.
  destruct (kernel_vector 2 1 (fun _ _ => 1) ltac:(lia)) as [v [Hnz Hk]].
  exists v. split; [exact Hnz | exact (Hk 0%nat ltac:(lia))].
Qed.
