(** * R5 (<=): flipping the rows of a subset absorbs the skip

    For any activation with [sigma(z) - sigma(-z) = z] (ReLU, GELU,
    GELU_tanh, SiLU) and any subset [S] of hidden units with
    [B[:,S] A[S,:] = -I_d] (the submatrix condition), negating the rows
    [a_i, i in S] turns [x |-> B sigma(A x)] into [x |-> x + B sigma(A x)].
    No genericity is needed.

    Main results: [flip_rows_residual], [odd_part_absorbable] and the
    instances [relu_submatrix_absorbable], [silu_submatrix_absorbable],
    [gelu_submatrix_absorbable], [gelu_tanh_submatrix_absorbable];
    [submatrix_example] shows the hypothesis can hold. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations.
Open Scope R_scope.

(** Negate the rows [i] with [S i = true]. *)
Definition flip_rows (S : nat -> bool) (A : mat) : mat :=
  fun i k => if S i then - A i k else A i k.

(** [sum_{j in S} B i j (a_j . x) = (B[:,S] A[S,:] x)_i]. *)
Lemma subset_sum_mv d n (S : nat -> bool) (A B : mat) x i :
  sumn n (fun j => if S j then B i j * dot d (row A j) x else 0) =
  mv d (subset_sum n S A B) x i.
Proof.
  unfold mv, subset_sum, dot, row.
  rewrite (sumn_ext n _ (fun j => sumn d (fun l => if S j then B i j * A j l * x l else 0))).
  - rewrite sumn_swap. apply sumn_ext. intros l _. rewrite <- sumn_scal_r.
    apply sumn_ext. intros j _. destruct (S j); ring.
  - intros j _. destruct (S j).
    + rewrite <- sumn_scal_l. apply sumn_ext. intros; ring.
    + symmetry. apply sumn_zero. reflexivity.
Qed.

(** Under the submatrix condition, [sum_{j in S} b_j (a_j . x) = - x]. *)
Lemma submatrix_cond_mv d n (S : nat -> bool) (A B : mat) x i :
  submatrix_cond d n S A B -> (i < d)%nat ->
  sumn n (fun j => if S j then B i j * dot d (row A j) x else 0) = - x i.
Proof.
  intros H Hi. rewrite subset_sum_mv.
  unfold mv, dot, row.
  rewrite (sumn_ext d _ (fun l => - (identity i l * x l))).
  - rewrite sumn_opp. f_equal. pose proof (mv_identity d x i Hi) as E.
    unfold mv, dot, row in E. exact E.
  - intros l Hl. rewrite H by assumption. ring.
Qed.

Lemma dot_flip_row d (S : nat -> bool) (A : mat) j x :
  dot d (row (flip_rows S A) j) x =
  if S j then - dot d (row A j) x else dot d (row A j) x.
Proof.
  unfold flip_rows, row. destruct (S j); [|reflexivity].
  unfold dot. rewrite <- sumn_opp. apply sumn_ext. intros; ring.
Qed.

Theorem flip_rows_residual (sigma : R -> R) d n (S : nat -> bool) (A B : mat) :
  odd_part_identity sigma -> submatrix_cond d n S A B ->
  same_fun d (ungated sigma d n (flip_rows S A) B)
             (residual d identity (ungated sigma d n A B)).
Proof.
  intros Hodd Hsub x i Hi. unfold ungated, residual.
  rewrite (mv_identity d x i Hi).
  rewrite (sumn_ext n _ (fun j => B i j * sigma (dot d (row A j) x) -
             (if S j then B i j * dot d (row A j) x else 0))).
  - rewrite sumn_minus, (submatrix_cond_mv d n S A B x i Hsub Hi). ring.
  - intros j _. rewrite dot_flip_row. destruct (S j); [|ring].
    pose proof (Hodd (dot d (row A j) x)) as E.
    replace (sigma (- dot d (row A j) x))
      with (sigma (dot d (row A j) x) - dot d (row A j) x) by lra. ring.
Qed.

Theorem odd_part_absorbable : forall sigma d n S A B,
  odd_part_identity sigma -> submatrix_cond d n S A B ->
  absorbable_ungated sigma d n n identity A B.
Proof.
  intros sigma d n S A B Hodd Hsub. exists (flip_rows S A), B.
  exact (flip_rows_residual sigma d n S A B Hodd Hsub).
Qed.

(** The statement of the instances, R5 (<=) for one activation [sigma]
    (parsing only: each instance's statement is the plain proposition). *)
Notation submatrix_absorbable_claim sigma :=
  (forall d n S A B, submatrix_cond d n S A B -> absorbable_ungated sigma d n n identity A B)
  (only parsing).

(** ** Instances *)

Corollary relu_submatrix_absorbable : submatrix_absorbable_claim relu.
Proof. intros d n S A B. apply odd_part_absorbable, relu_odd_part. Qed.

Corollary silu_submatrix_absorbable : submatrix_absorbable_claim silu.
Proof. intros d n S A B. apply odd_part_absorbable, silu_odd_part. Qed.

Corollary gelu_submatrix_absorbable : submatrix_absorbable_claim gelu.
Proof. intros d n S A B. apply odd_part_absorbable, gelu_odd_part. Qed.

Corollary gelu_tanh_submatrix_absorbable : submatrix_absorbable_claim gelu_tanh.
Proof. intros d n S A B. apply odd_part_absorbable, gelu_tanh_odd_part. Qed.

(** ** Non-vacuity: [d = 1], [n = 2], [a = (1, 5)], [b = (-1, 7)], [S = {0}]. *)

Definition ex_A : mat := fun i _ => if Nat.eqb i 0 then 1 else 5.
Definition ex_B : mat := fun _ i => if Nat.eqb i 0 then -1 else 7.
Definition ex_S : nat -> bool := fun i => Nat.eqb i 0.

Example submatrix_example : submatrix_cond 1 2 ex_S ex_A ex_B.
Proof.
  intros k l Hk Hl. assert (k = 0%nat) by lia. assert (l = 0%nat) by lia. subst.
  unfold subset_sum, identity, ex_S, ex_A, ex_B. simpl. lra.
Qed.

Example relu_submatrix_example : absorbable_ungated relu 1 2 2 identity ex_A ex_B.
Proof. exact (relu_submatrix_absorbable 1 2 ex_S ex_A ex_B submatrix_example). Qed.
