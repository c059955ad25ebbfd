(** * Affine ridge uniqueness for GELU_tanh's even part (paper.md R9, GELU_tanh)

    [e z = gelu_tanh z - z/2 = z/2 - z / (1 + exp (g z))] with the cubic
    exponent [g z = 2 k (z + 0.044715 z^3)] ([GeluTanhRidge.v]).  GELU_tanh
    is the member [tanh_gelu (sqrt (2/PI)) 0.044715] of the tanh family
    ([GeluFastRidge.gelu_tanh_is_tanh_gelu]), so the one-variable argument
    (the lexicographically smallest pair [(alpha, beta)] dominates) is the
    family's, proved once in [TanhFamilyAffine.v].

    Main results:
    - [gelu_tanh_even_affine_positive]: the one-variable statement when
      every [alpha_j > 0] (instance of [tanh_family_even_affine_positive]);
    - [gelu_tanh_even_affine_independent :
       affine_independent_1d (even_part gelu_tanh)];
    - R9 for GELU_tanh with biases: [gelu_tanh_bias_absorbable_iff_submatrix],
      [gelu_tanh_bias_generic_not_absorbable_below], with examples. *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Geometry FiniteMaps Calculus.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix.
From Absorb Require Import SiluRidge GeluTanhRidge Biases RidgeForm BiasSpec.
From Absorb Require Import GeluAffineRidge GeluBias ExpPolyAsymptotics.
From Absorb Require Import MoreActivationDefs MoreActivations GeluFastRidge TanhFamilyAffine
  BiasR9Instances.
Open Scope R_scope.

(** ** One variable, positive dilations

    GELU_tanh is [tanh_gelu (sqrt (2/PI)) 0.044715] ([gelu_tanh_is_tanh_gelu]),
    so this is the family statement [tanh_family_even_affine_positive]. *)

Lemma gelu_tanh_cubic_pos : 0 < 44715 / 1000000.
Proof. lra. Qed.

Theorem gelu_tanh_even_affine_positive : affine_positive_1d (even_part gelu_tanh).
Proof.
  intros N gamma alpha beta p q Hpos Hd Hs.
  apply (tanh_family_even_affine_positive (sqrt (2 / PI)) (44715 / 1000000)
           gelu_tanh_scale_pos gelu_tanh_cubic_pos N gamma alpha beta p q Hpos Hd).
  intros t. rewrite <- (Hs t). apply sumn_ext. intros j _. unfold even_part.
  rewrite <- gelu_tanh_is_tanh_gelu. reflexivity.
Qed.

(** ** One variable, any nonzero dilations (by evenness) *)

Theorem gelu_tanh_even_affine_independent : affine_independent_1d (even_part gelu_tanh).
Proof.
  exact
    (affine_independent_of_positive gelu_tanh gelu_tanh_odd_part gelu_tanh_even_affine_positive).
Qed.

(** ** R9 for GELU_tanh, with biases *)

Theorem gelu_tanh_bias_absorbable_iff_submatrix : forall d n A c B b0,
  generic_bias_signs d n A c B ->
  (absorbable_ungated_bias gelu_tanh d n n identity A c B b0 <->
    exists S, submatrix_cond d n S A B).
Proof.
  exact (bias_absorbable_iff_of_1d gelu_tanh gelu_tanh_odd_part gelu_tanh_even_affine_independent).
Qed.

Theorem gelu_tanh_bias_generic_not_absorbable_below : forall d n m A c B b0,
  generic_bias_signs d n A c B -> (m < n)%nat ->
  ~ absorbable_ungated_bias gelu_tanh d n m identity A c B b0.
Proof.
  exact
    (bias_not_absorbable_below_of_1d gelu_tanh gelu_tanh_odd_part
      gelu_tanh_even_affine_independent).
Qed.

(** ** Non-vacuity: the blocks of [GeluBias.v] ([a = 1], biases [0, 1]) *)

Example gelu_tanh_bias_absorbable_side : ex2_absorbable_side gelu_tanh.
Proof.
  exact (ex2_absorbable_side_of_1d gelu_tanh gelu_tanh_odd_part gelu_tanh_even_affine_independent).
Qed.

Example gelu_tanh_bias_not_absorbable_side : ex2_not_absorbable_side gelu_tanh.
Proof.
  exact
    (ex2_not_absorbable_side_of_1d gelu_tanh gelu_tanh_odd_part gelu_tanh_even_affine_independent).
Qed.

Example gelu_tanh_bias_below_instance : ex2_below_instance gelu_tanh.
Proof.
  exact (ex2_below_instance_of_1d gelu_tanh gelu_tanh_odd_part gelu_tanh_even_affine_independent).
Qed.

(** One variable: the hypotheses of [gelu_tanh_even_affine_independent] hold
    for the pairs [(1, 0)] and [(1, 1)]. *)
Example gelu_tanh_even_affine_instance : affine_1d_pairs01 (even_part gelu_tanh).
Proof. exact (affine_1d_pairs01_holds _). Qed.
