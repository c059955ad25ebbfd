(** * Non-vacuity: each checker accepts some concrete data

    The paper's counterexample has no subset; a generic pair (both genericity
    checkers, and the sorted one rejecting parallel rows); a submatrix
    instance; an inverse pair; a nonzero skip; an unpacked literal. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63 Znumtheory.
From Absorb Require Import Sums Blocks IntSums Modular SubsetTargets CheckNoSubset CheckGeneric
  CheckSubmatrix CheckSkip.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

(** ** Non-vacuity: each checker accepts some data *)

(** The paper's counterexample ([d = 1], [a = (1, 2)], [b = (1, 1)]): no subset,
    shown modulo 7 with both indices free and the functional [Y = 1]. *)
Example nosub_counterexample :
  check_nosub 1 2 1 1 1 [[1]; [2]]%uint63 [[1]; [1]]%uint63 (id_rows 1) 7%uint63 [0; 1]%nat
    [(None, [(0%nat, [1%uint63])])] = true.
Proof. vm_compute. reflexivity. Qed.

Corollary counterexample_no_subset S :
  ~ submatrix_cond 1 2 S (mat_of_rows 1 [[1]; [2]]%uint63) (mat_of_cols 1 [[1]; [1]]%uint63).
Proof. exact (check_nosub_identity _ _ _ _ _ _ _ _ _ nosub_counterexample S). Qed.

Example generic_example :
  generic 2 2 (mat_of_rows 1 [[1; 2]; [3; 1]]%uint63) (mat_of_cols 2 [[1; 0]; [0; 5]]%uint63).
Proof.
  apply (check_generic_sound 2 2 1 2 _ _ 7%uint63 [1; 0]%uint63 [0; 1]%uint63);
    [vm_compute; reflexivity | reflexivity | reflexivity].
Qed.

(** The sorted-ratio checker on the same pair: ratios [1/2] and [3] mod 7 differ. *)
Example generic_sorted_example :
  generic 2 2 (mat_of_rows 1 [[1; 2]; [3; 1]]%uint63) (mat_of_cols 2 [[1; 0]; [0; 5]]%uint63).
Proof.
  apply (check_generic_sorted_sound 2 2 1 2 _ _ 7%uint63 [1; 0]%uint63 [0; 1]%uint63);
    [vm_compute; reflexivity | reflexivity | reflexivity].
Qed.

(** It rejects parallel rows [(1, 2)] and [(2, 4)] (equal ratios), and a vanishing [v . a_i]. *)
Example generic_sorted_rejects :
  check_generic_sorted 2 2 [[1; 2]; [2; 4]]%uint63 [[1; 0]; [0; 5]]%uint63 7%uint63 [1; 0]%uint63
    [0; 1]%uint63
    = false /\
  check_generic_sorted 2 2 [[1; 0]; [3; 1]]%uint63 [[1; 0]; [0; 5]]%uint63 7%uint63 [1; 0]%uint63
    [0; 1]%uint63
    = false.
Proof. split; vm_compute; reflexivity. Qed.

(** [d = n = 1], [a = 3], [b = -1/3], [S = {0}]. *)
Example submatrix_example :
  submatrix_cond 1 1 (Sfun [true]) (mat_of_rows 1 [[3]]%uint63)
    (mat_of_cols 3 [[9223372036854775807]]%uint63).
Proof.
  apply (check_submatrix_identity _ _ _ _ _ _ _ [7; 11]%uint63). vm_compute. reflexivity.
Qed.

(** [P = 2], [Q = 1/2]. *)
Example inverse_example : inverse_of 1 (mat_of_rows 1 [[2]]%uint63) (mat_of_rows 2 [[1]]%uint63).
Proof. apply (check_inverse_sound _ _ _ _ _ [5; 7]%uint63). vm_compute. reflexivity. Qed.

Example nonzero_example : nonzero_mat 2 (mat_of_rows 4 [[0; 0]; [0; 1]]%uint63).
Proof. apply (check_nonzero_sound 2 4 _ 1 1); [vm_compute; reflexivity | reflexivity]. Qed.
