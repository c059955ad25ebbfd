(** * quick_gelu with biases, by rescaling SiLU (paper.md R10 with R9)

    [quick_gelu z = silu (c z) / c] with [c = 1.702], so
    [even_part quick_gelu z = (1/c) even_part silu (c z)]
    ([QuickGeluRidge.quick_gelu_even_silu]).

    Main results:
    - [affine_independent_1d_rescale]: the one-variable statement
      [affine_independent_1d e] passes to [z |-> k e (c z)] for [c, k <> 0]
      (the pairs [(alpha_j, beta_j)] become [(c alpha_j, c beta_j)], still
      pairwise not equal up to sign), and [even_affine_independent_of_silu]
      for an even part [(1/c) even_part silu (c z)];
    - [quick_gelu_even_affine_independent :
       affine_independent_1d (even_part quick_gelu)], from
      [SiluAffineRidge.silu_even_affine_independent];
    - R9 for quick_gelu: [quick_gelu_bias_absorbable_iff_submatrix],
      [quick_gelu_bias_generic_not_absorbable_below] (generic blocks with
      biases) and [quick_gelu_bias_block_decided] (every biased block is
      decided by R8's width condition on its canonical form);
    - non-vacuity: both sides of the equivalence and the width bound on the
      blocks of [GeluBias.v] ([BiasR9Instances.v]), and the non-generic block
      [x + quick_gelu(x + 1) + quick_gelu(x + 1)], absorbable at width 2
      and not at width 1 ([PmBiasNecessity.pmn_decided_widths]). *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix.
From Absorb Require Import Biases RidgeForm BiasSpec BiasRidgeForm GeluAffineRidge GeluBias.
From Absorb Require Import SiluAffineRidge PmBiasNecessity BiasR9Instances.
From Absorb Require Import MoreActivationDefs MoreActivations QuickGeluRidge.
Open Scope R_scope.

(** ** Rescaling preserves the one-variable statement *)

Lemma affine_independent_1d_ext (e f : R -> R) :
  (forall z, e z = f z) -> affine_independent_1d e -> affine_independent_1d f.
Proof.
  intros Hef He N gamma alpha beta p q Ha Hd Hs.
  apply (He N gamma alpha beta p q Ha Hd). intros t. rewrite <- (Hs t).
  apply sumn_ext. intros j _. rewrite Hef. reflexivity.
Qed.

Lemma pairs_pm_distinct_scale N (alpha beta : nat -> R) c : c <> 0 ->
  pairs_pm_distinct N alpha beta ->
  pairs_pm_distinct N (fun j => c * alpha j) (fun j => c * beta j).
Proof.
  intros Hc Hd i j Hi Hj Hne H. apply (Hd i j Hi Hj Hne).
  destruct H as [[E1 E2]|[E1 E2]]; [left|right]; split;
    apply (Rmult_eq_reg_l c); (lra || exact Hc).
Qed.

Theorem affine_independent_1d_rescale (e : R -> R) (c k : R) :
  c <> 0 -> k <> 0 -> affine_independent_1d e -> affine_independent_1d (fun z => k * e (c * z)).
Proof.
  intros Hc Hk He N gamma alpha beta p q Ha Hd Hs j Hj.
  assert (H : gamma j * k = 0).
  { apply (He N (fun i => gamma i * k) (fun i => c * alpha i) (fun i => c * beta i) p q);
      [| | | exact Hj].
    - intros i Hi. apply Rmult_integral_contrapositive. split; [exact Hc | exact (Ha i Hi)].
    - exact (pairs_pm_distinct_scale N alpha beta c Hc Hd).
    - intros t. rewrite <- (Hs t). apply sumn_ext. intros i _.
      replace (c * alpha i * t + c * beta i) with (c * (alpha i * t + beta i)) by ring. ring. }
  apply Rmult_integral in H. destruct H as [H|H]; [exact H | contradiction].
Qed.

(** ** quick_gelu *)

(** An activation whose even part is [(1/c) even_part silu (c z)], [c > 0]
    (quick_gelu here, [tanh_gelu k 0] in [TanhGeluAffineRidge.v]). *)
Lemma even_affine_independent_of_silu (f : R -> R) (c : R) : 0 < c ->
  (forall z, even_part f z = / c * even_part silu (c * z)) -> affine_independent_1d (even_part f).
Proof.
  intros Hc Hf. apply (affine_independent_1d_ext (fun z => / c * even_part silu (c * z))).
  - intros z. symmetry. apply Hf.
  - apply affine_independent_1d_rescale;
      [lra | apply Rinv_neq_0_compat; lra | exact silu_even_affine_independent].
Qed.

Theorem quick_gelu_even_affine_independent : affine_independent_1d (even_part quick_gelu).
Proof.
  exact (even_affine_independent_of_silu quick_gelu _ quick_gelu_scale_pos quick_gelu_even_silu).
Qed.

Lemma quick_gelu_even_part_affine_unique : affine_ridge_unique_even (even_part quick_gelu).
Proof. exact (affine_ridge_unique_of_1d _ quick_gelu_even_affine_independent). Qed.

(** ** R9 for quick_gelu, with biases *)

Theorem quick_gelu_bias_absorbable_iff_submatrix : forall d n A c B b0,
  generic_bias_signs d n A c B ->
  (absorbable_ungated_bias quick_gelu d n n identity A c B b0 <->
    exists S, submatrix_cond d n S A B).
Proof.
  exact
    (bias_absorbable_iff_of_1d quick_gelu quick_gelu_odd_part quick_gelu_even_affine_independent).
Qed.

Theorem quick_gelu_bias_generic_not_absorbable_below : forall d n m A c B b0,
  generic_bias_signs d n A c B -> (m < n)%nat ->
  ~ absorbable_ungated_bias quick_gelu d n m identity A c B b0.
Proof.
  exact
    (bias_not_absorbable_below_of_1d quick_gelu quick_gelu_odd_part
      quick_gelu_even_affine_independent).
Qed.

Theorem quick_gelu_bias_block_decided : forall d n A c B b0,
  exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_bias_signs d k U s G /\
    same_fun d (residual d identity (ungated_bias quick_gelu d n A c B b0))
               (bias_ridge_form quick_gelu d k U s G L l0) /\
    forall m, absorbable_ungated_bias quick_gelu d n m identity A c B b0
              <-> width_condition d k m U G L.
Proof.
  exact (pm_bias_block_decided quick_gelu quick_gelu_odd_part quick_gelu_even_part_affine_unique).
Qed.

(** ** Non-vacuity *)

(** The blocks of [GeluBias.v] ([a = 1], biases [0, 1]). *)
Example quick_gelu_bias_absorbable_side : ex2_absorbable_side quick_gelu.
Proof.
  exact
    (ex2_absorbable_side_of_1d quick_gelu quick_gelu_odd_part quick_gelu_even_affine_independent).
Qed.

Example quick_gelu_bias_not_absorbable_side : ex2_not_absorbable_side quick_gelu.
Proof.
  exact
    (ex2_not_absorbable_side_of_1d quick_gelu quick_gelu_odd_part
      quick_gelu_even_affine_independent).
Qed.

Example quick_gelu_bias_below_instance : ex2_below_instance quick_gelu.
Proof.
  exact
    (ex2_below_instance_of_1d quick_gelu quick_gelu_odd_part quick_gelu_even_affine_independent).
Qed.

(** The non-generic block [x + sigma(x + 1) + sigma(x + 1)] of
    [PmBiasNecessity.v]: absorbable at width 2, not at width 1. *)
Example quick_gelu_bias_decided_width2 :
  absorbable_ungated_bias quick_gelu 1 2 2 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  exact
    (proj1 (pmn_decided_widths quick_gelu quick_gelu_odd_part quick_gelu_even_part_affine_unique)).
Qed.

Example quick_gelu_bias_decided_width1 :
  ~ absorbable_ungated_bias quick_gelu 1 2 1 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  exact
    (proj2 (pmn_decided_widths quick_gelu quick_gelu_odd_part quick_gelu_even_part_affine_unique)).
Qed.

(** The rescaling lemma's side conditions hold for quick_gelu's constant. *)
Example quick_gelu_affine_rescale_constants :
  quick_gelu_scale <> 0 /\ / quick_gelu_scale <> 0 /\ affine_independent_1d (even_part silu).
Proof.
  destruct quick_gelu_rescale_constants as [H1 [H2 _]].
  exact (conj H1 (conj H2 silu_even_affine_independent)).
Qed.
