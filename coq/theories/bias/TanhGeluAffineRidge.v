(** * The tanh-GELU family with biases; gelu_fast (paper.md R10 with R9)

    [tanh_gelu k alpha z = z (1 + tanh (k (z + alpha z^3))) / 2]
    ([GeluFastRidge.v]); [gelu_fast] is [tanh_gelu 0.7978845608 0.044715].
    The one-variable argument (the exponent [2 k (z + cu z^3)] along
    [z = alpha_j t + beta_j] is a cubic in [t] whose leading coefficients
    separate the pairs [(alpha_j, beta_j)] for [alpha_j > 0]) is proved
    once, for every [k > 0], [cu > 0], in [TanhFamilyAffine.v]; GELU_tanh
    ([GeluTanhAffineRidge.v]) and gelu_fast are its instances.  For
    [cu = 0] the exponent is linear and this argument does not apply, but
    that member is a rescaled SiLU.

    Main results:
    - [tanh_gelu_even_affine_positive]: the one-variable statement for
      positive dilations, every [k > 0], [cu > 0];
    - [tanh_gelu_even_affine_independent :
       affine_independent_1d (even_part (tanh_gelu k cu))];
    - [tanh_gelu_0_even_affine_independent]: the member [cu = 0] is
      [silu (2 k z) / (2 k)], handled by rescaling SiLU's statement, so
      [tanh_gelu_family_even_affine_independent] covers the whole family
      [k > 0], [cu >= 0] of [GeluFastRidge.v];
    - [gelu_fast_even_affine_independent :
       affine_independent_1d (even_part gelu_fast)];
    - R9 for gelu_fast: [gelu_fast_bias_absorbable_iff_submatrix],
      [gelu_fast_bias_generic_not_absorbable_below],
      [gelu_fast_bias_block_decided];
    - non-vacuity: both sides and the width bound on the blocks of
      [GeluBias.v], the non-generic block
      [x + gelu_fast(x + 1) + gelu_fast(x + 1)] (absorbable at width 2, not
      at width 1), and the family's hypotheses for gelu_fast's constants. *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Geometry FiniteMaps Calculus.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix.
From Absorb Require Import SiluRidge Biases RidgeForm BiasSpec BiasRidgeForm.
From Absorb Require Import GeluAffineRidge GeluBias ExpPolyAsymptotics TanhFamilyAffine.
From Absorb Require Import SiluAffineRidge PmBiasNecessity QuickGeluAffineRidge BiasR9Instances.
From Absorb Require Import MoreActivationDefs MoreActivations GeluFastRidge.
Open Scope R_scope.

(** ** One variable, positive dilations ([TanhFamilyAffine.v]) *)

Theorem tanh_gelu_even_affine_positive : forall k cu, 0 < k -> 0 < cu ->
  forall N (gamma alpha beta : nat -> R) (p q : R),
  (forall j, (j < N)%nat -> 0 < alpha j) ->
  (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> ~ (alpha i = alpha j /\ beta i = beta j)) ->
  (forall t, sumn N (fun j => gamma j * even_part (tanh_gelu k cu) (alpha j * t + beta j)) =
    p * t + q) ->
  forall j, (j < N)%nat -> gamma j = 0.
Proof. exact tanh_family_even_affine_positive. Qed.

(** ** One variable, any nonzero dilations (by evenness) *)

Theorem tanh_gelu_even_affine_independent : forall k cu, 0 < k -> 0 < cu ->
  affine_independent_1d (even_part (tanh_gelu k cu)).
Proof.
  intros k cu Hk Hc.
  exact (affine_independent_of_positive (tanh_gelu k cu) (tanh_gelu_odd_part k cu)
           (tanh_gelu_even_affine_positive k cu Hk Hc)).
Qed.

(** ** The member [cu = 0]: a rescaled SiLU

    [tanh_gelu k 0 z = z sigmoid (2 k z) = silu (2 k z) / (2 k)], so its
    even part is [(1/(2k)) even_part silu (2 k z)] and the one-variable
    statement follows from SiLU's ([QuickGeluAffineRidge.even_affine_independent_of_silu]). *)

Lemma tanh_gelu_0_even_silu k z : 0 < k ->
  even_part (tanh_gelu k 0) z = / (2 * k) * even_part silu (2 * k * z).
Proof.
  intros Hk. rewrite tanh_gelu_even_formula, silu_even_split. unfold tanh_gelu_exponent.
  replace (2 * (k * (z + 0 * (z * z * z)))) with (2 * k * z) by ring.
  pose proof (exp_pos (2 * k * z)). field. split; lra.
Qed.

Theorem tanh_gelu_0_even_affine_independent : forall k, 0 < k ->
  affine_independent_1d (even_part (tanh_gelu k 0)).
Proof.
  intros k Hk. apply (even_affine_independent_of_silu _ (2 * k)); [lra|]. intros z.
  exact (tanh_gelu_0_even_silu k z Hk).
Qed.

(** The whole family, [k > 0], [cu >= 0] (the hypotheses of [GeluFastRidge.v]). *)
Theorem tanh_gelu_family_even_affine_independent : forall k cu, 0 < k -> 0 <= cu ->
  affine_independent_1d (even_part (tanh_gelu k cu)).
Proof.
  intros k cu Hk Hc. destruct (Rle_lt_or_eq_dec 0 cu Hc) as [Hp|<-].
  - exact (tanh_gelu_even_affine_independent k cu Hk Hp).
  - exact (tanh_gelu_0_even_affine_independent k Hk).
Qed.

(** ** gelu_fast *)

Lemma gelu_fast_cubic_pos : 0 < gelu_fast_cubic.
Proof. unfold gelu_fast_cubic. lra. Qed.

Theorem gelu_fast_even_affine_independent : affine_independent_1d (even_part gelu_fast).
Proof.
  intros N gamma alpha beta p q Ha Hd Hs.
  apply (tanh_gelu_even_affine_independent gelu_fast_scale gelu_fast_cubic
           gelu_fast_scale_pos gelu_fast_cubic_pos N gamma alpha beta p q Ha Hd).
  intros t. rewrite <- (Hs t). apply sumn_ext. intros j _. unfold even_part.
  rewrite !gelu_fast_is_tanh_gelu. reflexivity.
Qed.

Lemma gelu_fast_even_part_affine_unique : affine_ridge_unique_even (even_part gelu_fast).
Proof. exact (affine_ridge_unique_of_1d _ gelu_fast_even_affine_independent). Qed.

(** ** R9 for gelu_fast, with biases *)

Theorem gelu_fast_bias_absorbable_iff_submatrix : forall d n A c B b0,
  generic_bias_signs d n A c B ->
  (absorbable_ungated_bias gelu_fast d n n identity A c B b0 <->
    exists S, submatrix_cond d n S A B).
Proof.
  exact (bias_absorbable_iff_of_1d gelu_fast gelu_fast_odd_part gelu_fast_even_affine_independent).
Qed.

Theorem gelu_fast_bias_generic_not_absorbable_below : forall d n m A c B b0,
  generic_bias_signs d n A c B -> (m < n)%nat ->
  ~ absorbable_ungated_bias gelu_fast d n m identity A c B b0.
Proof.
  exact
    (bias_not_absorbable_below_of_1d gelu_fast gelu_fast_odd_part
      gelu_fast_even_affine_independent).
Qed.

Theorem gelu_fast_bias_block_decided : forall d n A c B b0,
  exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_bias_signs d k U s G /\
    same_fun d (residual d identity (ungated_bias gelu_fast d n A c B b0))
               (bias_ridge_form gelu_fast d k U s G L l0) /\
    forall m, absorbable_ungated_bias gelu_fast d n m identity A c B b0
              <-> width_condition d k m U G L.
Proof.
  exact (pm_bias_block_decided gelu_fast gelu_fast_odd_part gelu_fast_even_part_affine_unique).
Qed.

(** ** Non-vacuity *)

(** The family's hypotheses hold for gelu_fast's constants. *)
Example gelu_fast_affine_family_constants : 0 < gelu_fast_scale /\ 0 < gelu_fast_cubic.
Proof. exact (conj gelu_fast_scale_pos gelu_fast_cubic_pos). Qed.

(** The blocks of [GeluBias.v] ([a = 1], biases [0, 1]). *)
Example gelu_fast_bias_absorbable_side : ex2_absorbable_side gelu_fast.
Proof.
  exact (ex2_absorbable_side_of_1d gelu_fast gelu_fast_odd_part gelu_fast_even_affine_independent).
Qed.

Example gelu_fast_bias_not_absorbable_side : ex2_not_absorbable_side gelu_fast.
Proof.
  exact
    (ex2_not_absorbable_side_of_1d gelu_fast gelu_fast_odd_part gelu_fast_even_affine_independent).
Qed.

Example gelu_fast_bias_below_instance : ex2_below_instance gelu_fast.
Proof.
  exact (ex2_below_instance_of_1d gelu_fast gelu_fast_odd_part gelu_fast_even_affine_independent).
Qed.

(** The non-generic block [x + gelu_fast(x + 1) + gelu_fast(x + 1)] of
    [PmBiasNecessity.v]: absorbable at width 2, not at width 1. *)
Example gelu_fast_bias_decided_width2 :
  absorbable_ungated_bias gelu_fast 1 2 2 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  exact (proj1 (pmn_decided_widths gelu_fast gelu_fast_odd_part gelu_fast_even_part_affine_unique)).
Qed.

Example gelu_fast_bias_decided_width1 :
  ~ absorbable_ungated_bias gelu_fast 1 2 1 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  exact (proj2 (pmn_decided_widths gelu_fast gelu_fast_odd_part gelu_fast_even_part_affine_unique)).
Qed.

(** Members of the family other than GELU_tanh and gelu_fast ([k = 1],
    [cu = 1] and [cu = 0]): the one-variable hypotheses with zero weights,
    and the conclusion for both. *)
Example tanh_gelu_1_1_even_affine_instance :
  affine_1d_pairs01 (even_part (tanh_gelu 1 1)) /\
  affine_independent_1d (even_part (tanh_gelu 1 1)) /\
  affine_independent_1d (even_part (tanh_gelu 1 0)).
Proof.
  split; [exact (affine_1d_pairs01_holds _)|].
  split; apply tanh_gelu_family_even_affine_independent; lra.
Qed.
