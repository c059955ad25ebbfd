(** * Augmented rows [(a_i, c_i)]: their coordinates

    The two facts every file on biases uses about [BiasSpec.aug_row]:
    coordinates [0 .. d-1] are the row [a_i] ([aug_row_coord]), coordinate
    [d] is the bias [c_i] ([aug_row_bias_coord]). *)

From Coq Require Import Reals Arith.
From Absorb Require Import BlockDefs BiasSpec.
Open Scope R_scope.

Lemma aug_row_coord d (A : mat) (c : vec) i k : (k < d)%nat -> aug_row d A c i k = A i k.
Proof. intros Hk. unfold aug_row. apply Nat.ltb_lt in Hk. rewrite Hk. reflexivity. Qed.

Lemma aug_row_bias_coord d (A : mat) (c : vec) i : aug_row d A c i d = c i.
Proof. unfold aug_row. rewrite Nat.ltb_irrefl. reflexivity. Qed.
