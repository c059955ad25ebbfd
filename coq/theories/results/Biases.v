(** * R7 (beyond): blocks with biases

    (The biased blocks and their absorbability are defined in
    [spec/BiasBlocks.v], re-exported here.)
    - [gated_bias_counterexample]: with an up-branch bias the gated
      impossibility (R3) fails:
      [x + (-1) SiLU(x) (0 x + 1) = (-1) SiLU(-x) (0 x + 1)].
    - [odd_part_absorbable_bias]: R5 (<=) survives biases: flip the rows
      and biases in [S]; the output bias absorbs [sum_{i in S} b_i c_i]. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations FlipSigns.
From Absorb Require Export BiasBlocks.
Open Scope R_scope.

(** ** The gated counterexample ([d = n = 1]) *)

Definition C0 : mat := fun _ _ => 1.
Definition cg0 : vec := fun _ => 0.
Definition A0 : mat := fun _ _ => 0.
Definition cu0 : vec := fun _ => 1.
Definition B0 : mat := fun _ _ => -1.
Definition b00 : vec := fun _ => 0.

Theorem gated_bias_counterexample :
  absorbable_gated_bias silu 1 1 1 identity C0 cg0 A0 cu0 B0 b00.
Proof.
  exists (fun _ _ => -1), cg0, A0, cu0, B0, b00.
  intros x i Hi. assert (i = 0%nat) by lia. subst i.
  unfold gated_bias, residual, mv, dot, row, identity, C0, cg0, A0, cu0, B0, b00.
  simpl. pose proof (silu_odd_part (x 0%nat)) as E.
  replace (0 + -1 * x 0%nat + 0) with (- x 0%nat) by ring.
  replace (0 + 1 * x 0%nat + 0) with (x 0%nat) by ring.
  lra.
Qed.

(** The gated block of the counterexample is nonzero:
    at [x = 1] it is [- SiLU(1) <> 0]. *)
Lemma gated_bias_counterexample_nonzero :
  gated_bias silu 1 1 C0 cg0 A0 cu0 B0 b00 (fun _ => 1) 0%nat <> 0.
Proof.
  unfold gated_bias, dot, row, C0, cg0, A0, cu0, B0, b00, silu. simpl.
  replace (0 + 1 * 1 + 0) with 1 by ring.
  pose proof (exp_pos (- (1))) as Hp.
  assert (Hq : 0 < 1 / (1 + exp (- (1)))) by (apply Rdiv_lt_0_compat; lra).
  replace (0 + -1 * (1 / (1 + exp (- (1))) * (0 + 0 * 1 + 1)) + 0)
    with (- (1 / (1 + exp (- (1))))) by ring.
  lra.
Qed.

(** ** R5 (<=) with biases *)

Definition flip_bias (S : nat -> bool) (c : vec) : vec :=
  fun j => if S j then - c j else c j.

(** The new output bias [b0 + sum_{i in S} b_i c_i]. *)
Definition absorbed_bias (n : nat) (S : nat -> bool) (c : vec) (B : mat) (b0 : vec) : vec :=
  fun i => b0 i + sumn n (fun j => if S j then B i j * c j else 0).

Theorem flip_rows_residual_bias (sigma : R -> R) d n (S : nat -> bool) (A : mat) (c : vec)
    (B : mat) (b0 : vec) :
  odd_part_identity sigma -> submatrix_cond d n S A B ->
  same_fun d (ungated_bias sigma d n (flip_rows S A) (flip_bias S c) B (absorbed_bias n S c B b0))
             (residual d identity (ungated_bias sigma d n A c B b0)).
Proof.
  intros Hodd Hsub x i Hi. unfold ungated_bias, residual, absorbed_bias.
  rewrite (mv_identity d x i Hi).
  rewrite (sumn_ext n _ (fun j => B i j * sigma (dot d (row A j) x + c j) -
             ((if S j then B i j * dot d (row A j) x else 0) +
              (if S j then B i j * c j else 0)))).
  - rewrite sumn_minus, sumn_plus, (submatrix_cond_mv d n S A B x i Hsub Hi). ring.
  - intros j _. rewrite dot_flip_row. unfold flip_bias. destruct (S j); [|ring].
    pose proof (Hodd (dot d (row A j) x + c j)) as E.
    replace (- dot d (row A j) x + - c j) with (- (dot d (row A j) x + c j)) by ring.
    replace (sigma (- (dot d (row A j) x + c j)))
      with (sigma (dot d (row A j) x + c j) - (dot d (row A j) x + c j)) by lra.
    ring.
Qed.

Theorem odd_part_absorbable_bias : forall sigma d n S A c B b0,
  odd_part_identity sigma -> submatrix_cond d n S A B ->
  absorbable_ungated_bias sigma d n n identity A c B b0.
Proof.
  intros sigma d n S A c B b0 Hodd Hsub.
  exists (flip_rows S A), (flip_bias S c), B, (absorbed_bias n S c B b0).
  apply flip_rows_residual_bias; assumption.
Qed.

(** Non-vacuity, with nonzero biases: the example of [FlipSigns.v]. *)
Example relu_bias_example :
  absorbable_ungated_bias relu 1 2 2 identity ex_A (fun _ => 3) ex_B (fun _ => -2).
Proof.
  exact (odd_part_absorbable_bias relu 1 2 ex_S ex_A _ ex_B _ relu_odd_part submatrix_example).
Qed.
