(** * Walking the first [n] rows of list data in one pass

    [map_rows f n A], [map_rows2 f n A B] and [forall_rows f n A] apply [f]
    to the first [n] rows of [A] (and [B]), missing rows read as [[]], walking
    the lists once ([hd]/[tl]) instead of indexing each row with [nth] (which
    costs [O(n^2)] list steps).  [map_rows_spec], [map_rows2_spec],
    [forall_rows_spec]: they equal the indexed forms
    [map (fun i => f (nth i A [])) (seq 0 n)] etc. for all lists, so checkers
    may compute with the former and be reasoned about through the latter. *)

From Coq Require Import List.
Import ListNotations.
Open Scope bool_scope.

Fixpoint map_rows {T Z : Type} (f : list T -> Z) (n : nat) (A : list (list T)) : list Z :=
  match n with
  | O => []
  | S n' => f (hd [] A) :: map_rows f n' (tl A)
  end.

Fixpoint map_rows2 {T U Z : Type} (f : list T -> list U -> Z) (n : nat)
    (A : list (list T)) (B : list (list U)) : list Z :=
  match n with
  | O => []
  | S n' => f (hd [] A) (hd [] B) :: map_rows2 f n' (tl A) (tl B)
  end.

Fixpoint forall_rows {T : Type} (f : list T -> bool) (n : nat) (A : list (list T)) : bool :=
  match n with
  | O => true
  | S n' => f (hd [] A) && forall_rows f n' (tl A)
  end.

Lemma hd_nth {T : Type} (A : list (list T)) : hd [] A = nth 0 A [].
Proof. destruct A; reflexivity. Qed.

Lemma nth_S_tl {T : Type} (A : list (list T)) i : nth (S i) A [] = nth i (tl A) [].
Proof. destruct A; [destruct i|]; reflexivity. Qed.

Lemma map_seq_S {Z : Type} (g : nat -> Z) n :
  map g (seq 0 (S n)) = g 0 :: map (fun i => g (S i)) (seq 0 n).
Proof. simpl. rewrite <- seq_shift, map_map. reflexivity. Qed.

Lemma map_rows_spec {T Z : Type} (f : list T -> Z) n A :
  map_rows f n A = map (fun i => f (nth i A [])) (seq 0 n).
Proof.
  revert A. induction n as [|n IH]; intros A; [reflexivity|].
  rewrite map_seq_S. simpl map_rows. rewrite IH, hd_nth. f_equal.
  apply map_ext. intros i. rewrite nth_S_tl. reflexivity.
Qed.

Lemma map_rows2_spec {T U Z : Type} (f : list T -> list U -> Z) n A B :
  map_rows2 f n A B = map (fun i => f (nth i A []) (nth i B [])) (seq 0 n).
Proof.
  revert A B. induction n as [|n IH]; intros A B; [reflexivity|].
  rewrite map_seq_S. simpl map_rows2. rewrite IH, !hd_nth. f_equal.
  apply map_ext. intros i. rewrite !nth_S_tl. reflexivity.
Qed.

Lemma forall_rows_spec {T : Type} (f : list T -> bool) n A :
  forall_rows f n A = forallb (fun i => f (nth i A [])) (seq 0 n).
Proof.
  revert A. induction n as [|n IH]; intros A; [reflexivity|].
  simpl forall_rows. rewrite IH, hd_nth. simpl seq. rewrite <- seq_shift.
  simpl forallb. f_equal. clear IH. induction (seq 0 n) as [|i l IHl]; [reflexivity|].
  simpl. rewrite IHl, nth_S_tl. reflexivity.
Qed.

Example map_rows2_example :
  map_rows2 (fun a b => length a + length b) 3 [[1]; [1; 2]] [[0; 0; 0]] = [4; 2; 0].
Proof. reflexivity. Qed.

Example forall_rows_example :
  forall_rows (fun r => negb (Nat.eqb (length r) 0)) 2 [[1]; [2]; []] = true /\
  forall_rows (fun r => negb (Nat.eqb (length r) 0)) 3 [[1]; [2]; []] = false.
Proof. split; reflexivity. Qed.
