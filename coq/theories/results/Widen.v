(** * R5 (beyond): at width [n + 2d] every block absorbs its skip

    For any activation with [sigma(z) - sigma(-z) = z] and any [A], [B]
    (no genericity, no submatrix condition), [x |-> x + B sigma(A x)] is a
    residual-free block of width [n + 2d]: append the rows [e_k] and [-e_k]
    to [A], and the columns [e_k] and [-e_k] to [B], since
    [x = sum_k e_k (sigma(x_k) - sigma(-x_k))].

    Main result: [odd_part_absorbable_wide]; [relu_absorbable_wide],
    [silu_absorbable_wide], [gelu_absorbable_wide] and
    [gelu_tanh_absorbable_wide] are instances. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations.
Open Scope R_scope.

(** Rows [0..n-1]: [A]; rows [n+k]: [e_k]; rows [n+d+k]: [-e_k]. *)
Definition wide_up (d n : nat) (A : mat) : mat :=
  fun j l => if Nat.ltb j n then A j l
             else if Nat.ltb j (n + d) then identity (j - n)%nat l
             else - identity (j - n - d)%nat l.

(** Columns [0..n-1]: [B]; columns [n+k]: [e_k]; columns [n+d+k]: [-e_k]. *)
Definition wide_down (d n : nat) (B : mat) : mat :=
  fun i j => if Nat.ltb j n then B i j
             else if Nat.ltb j (n + d) then identity i (j - n)%nat
             else - identity i (j - n - d)%nat.

Lemma dot_identity_row d k x :
  (k < d)%nat -> dot d (fun l => identity k l) x = x k.
Proof. intros Hk. exact (mv_identity d x k Hk). Qed.

Lemma dot_opp_identity_row d k x :
  (k < d)%nat -> dot d (fun l => - identity k l) x = - x k.
Proof.
  intros Hk. rewrite <- (dot_identity_row d k x Hk). unfold dot, row.
  rewrite <- sumn_opp. apply sumn_ext. intros; ring.
Qed.

Theorem wide_residual (sigma : R -> R) d n (A B : mat) :
  odd_part_identity sigma ->
  same_fun d (ungated sigma d (n + 2 * d) (wide_up d n A) (wide_down d n B))
             (residual d identity (ungated sigma d n A B)).
Proof.
  intros Hodd x i Hi. unfold ungated, residual.
  replace (n + 2 * d)%nat with (n + (d + d))%nat by lia.
  rewrite sumn_add, sumn_add.
  rewrite (sumn_ext n _ (fun j => B i j * sigma (dot d (row A j) x))).
  2:{ intros j Hj. unfold wide_up, wide_down, row.
      rewrite (proj2 (Nat.ltb_lt j n) Hj). reflexivity. }
  rewrite (sumn_ext d (fun k => wide_down d n B i (n + k)%nat *
             sigma (dot d (row (wide_up d n A) (n + k)%nat) x))
             (fun k => identity i k * sigma (x k))).
  2:{ intros k Hk. unfold wide_up, wide_down, row.
      rewrite (proj2 (Nat.ltb_ge (n + k) n)) by lia.
      rewrite (proj2 (Nat.ltb_lt (n + k) (n + d))) by lia.
      replace (n + k - n)%nat with k by lia.
      rewrite (dot_identity_row d k x Hk). reflexivity. }
  rewrite (sumn_ext d (fun k => wide_down d n B i (n + (d + k))%nat *
             sigma (dot d (row (wide_up d n A) (n + (d + k))%nat) x))
             (fun k => - identity i k * sigma (- x k))).
  2:{ intros k Hk. unfold wide_up, wide_down, row.
      rewrite (proj2 (Nat.ltb_ge (n + (d + k)) n)) by lia.
      rewrite (proj2 (Nat.ltb_ge (n + (d + k)) (n + d))) by lia.
      replace (n + (d + k) - n - d)%nat with k by lia.
      rewrite (dot_opp_identity_row d k x Hk). reflexivity. }
  rewrite (mv_identity d x i Hi). rewrite <- (mv_identity d x i Hi) at 1.
  unfold mv, dot, row.
  assert (E : sumn d (fun k => identity i k * sigma (x k)) +
              sumn d (fun k => - identity i k * sigma (- x k)) =
              sumn d (fun k => identity i k * x k)).
  { rewrite <- sumn_plus. apply sumn_ext. intros k _.
    pose proof (Hodd (x k)) as Ek.
    replace (x k) with (sigma (x k) - sigma (- x k)) at 3 by exact Ek. ring. }
  lra.
Qed.

Theorem odd_part_absorbable_wide : forall sigma d n A B,
  odd_part_identity sigma -> absorbable_ungated sigma d n (n + 2 * d) identity A B.
Proof.
  intros sigma d n A B Hodd. exists (wide_up d n A), (wide_down d n B).
  apply wide_residual, Hodd.
Qed.

Corollary relu_absorbable_wide d n A B :
  absorbable_ungated relu d n (n + 2 * d) identity A B.
Proof. apply odd_part_absorbable_wide, relu_odd_part. Qed.

Corollary silu_absorbable_wide d n A B :
  absorbable_ungated silu d n (n + 2 * d) identity A B.
Proof. apply odd_part_absorbable_wide, silu_odd_part. Qed.

Corollary gelu_absorbable_wide d n A B :
  absorbable_ungated gelu d n (n + 2 * d) identity A B.
Proof. apply odd_part_absorbable_wide, gelu_odd_part. Qed.

Corollary gelu_tanh_absorbable_wide d n A B :
  absorbable_ungated gelu_tanh d n (n + 2 * d) identity A B.
Proof. apply odd_part_absorbable_wide, gelu_tanh_odd_part. Qed.
