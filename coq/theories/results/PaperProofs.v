(** * Proofs of the statements of [spec/Paper.v]

    One theorem per statement, named after it in lower case
    ([Theorem r5_relu : Paper.R5_relu]); each applies the library's
    theorem for that result (named in the proof), so the statements of
    [Paper.v] and the library's own names cannot drift apart.  The one new
    argument is [disjoint_of_R5]: generic disjointness (R6) for every
    activation with the R5 package, the bad set being [Z ∪ non-generic]. *)

From Coq Require Import Reals Lra Lia List Classical.
From Absorb Require Import Sums Blocks ActivationDefs Activations ParamSets Paper.
From Absorb Require Import SkipReduction Homogeneous Gated Depth ImpossibilityInstances.
From Absorb Require Import FlipSigns Widen Counterexamples ReluSubmatrix R5Package.
From Absorb Require Import GeluRidge SiluRidge GeluTanhRidge.
From Absorb Require Import NonGeneric NullSet GenericDisjointness NullDisjointness.
From Absorb Require Biases.
Open Scope R_scope.

(** ** R1 *)

Theorem r1_ungated : Paper.R1_ungated.
Proof. exact skip_reduction_ungated. Qed.

Theorem r1_gated : Paper.R1_gated.
Proof. exact skip_reduction_gated. Qed.

(** ** R2 *)

Theorem r2_ungated : Paper.R2_ungated.
Proof. exact homogeneous_not_absorbable_ungated. Qed.

Theorem r2_gated : Paper.R2_gated.
Proof. exact homogeneous_not_absorbable_gated. Qed.

Theorem r2_relu_pow_reglu : Paper.R2_relu_pow_reglu.
Proof. split; [exact relu_pow_not_absorbable | exact reglu_not_absorbable]. Qed.

(** ** R3 *)

Theorem r3_gated : Paper.R3_gated.
Proof. exact gated_not_absorbable. Qed.

Theorem r3_glu : Paper.R3_glu.
Proof.
  intros d n m P C A B HP.
  split; [exact (swiglu_not_absorbable d n m P C A B HP)|].
  split; [exact (geglu_not_absorbable d n m P C A B HP)|].
  split; [exact (geglu_tanh_not_absorbable d n m P C A B HP)|].
  exact (reglu_not_absorbable d n m P C A B HP).
Qed.

(** ** R4 *)

Theorem r4_gated : Paper.R4_gated.
Proof. exact depth_gated_not_representable. Qed.

Theorem r4_homogeneous : Paper.R4_homogeneous.
Proof. exact depth_homogeneous_not_representable. Qed.

Theorem r4_gated_homogeneous : Paper.R4_gated_homogeneous.
Proof. exact depth_gated_homogeneous_not_representable. Qed.

Theorem r4_skips : Paper.R4_skips.
Proof.
  split; [exact depth_gated_not_representable_skips | exact depth_homogeneous_not_representable_skips].
Qed.

(** ** R5 *)

Theorem r5_sufficient : Paper.R5_sufficient.
Proof. exact odd_part_absorbable. Qed.

Theorem r5_relu : Paper.R5_relu.
Proof. exact relu_absorbable_iff_submatrix. Qed.

Theorem r5_gelu : Paper.R5_gelu.
Proof. exact gelu_absorbable_iff_submatrix. Qed.

Theorem r5_counterexample : Paper.R5_counterexample.
Proof.
  destruct relu_nongeneric_counterexample as [Habs [Hno _]].
  split; [exact Habs | exact Hno].
Qed.

Theorem r5_gelu_tanh : Paper.R5_gelu_tanh.
Proof. exact gelu_tanh_absorbable_iff_submatrix. Qed.

Theorem r5_silu : Paper.R5_silu.
Proof. exact silu_absorbable_iff_submatrix. Qed.

Theorem r5_wide : Paper.R5_wide.
Proof. exact odd_part_absorbable_wide. Qed.

Theorem r5_below : Paper.R5_below.
Proof.
  split; [exact relu_generic_not_absorbable_below|].
  split; [exact gelu_generic_not_absorbable_below|].
  split; [exact gelu_tanh_generic_not_absorbable_below | exact silu_generic_not_absorbable_below].
Qed.

(** ** R6 *)

Theorem r6_Z : Paper.R6_Z.
Proof.
  intros d n Hd. split; [apply Z_closed|]. split; [exact (Z_empty_interior d n Hd)|].
  split; [exact (Z_null d n Hd)|]. intros A B. exact (Z_scalar_finite d n A B Hd).
Qed.

Theorem r6_nongeneric : Paper.R6_nongeneric.
Proof.
  split; [|exact nongeneric_scalar_finite].
  intros d n Hd Hdn. split; [apply nongeneric_closed|].
  split; [exact (nongeneric_empty_interior d n Hd Hdn) | exact (nongeneric_null d n Hd Hdn)].
Qed.

(** Outside [bad = Z ∪ non-generic] (closed, empty interior, null), R5 (=>)
    forbids absorption at width [n]. *)
Lemma disjoint_of_R5 sigma : R5_package sigma -> Paper.generically_disjoint sigma.
Proof.
  intros H5 d n Hd Hdn. exists (bad d n).
  split; [apply bad_closed|]. split; [exact (bad_empty_interior d n Hd Hdn)|].
  split; [exact (bad_null d n Hd Hdn)|].
  intros A B Hnb Habs. apply Hnb.
  destruct (classic (generic d n A B)) as [Hg|Hng]; [left | right; exact Hng].
  exact (package_forward H5 d n A B Hg Habs).
Qed.

Theorem r6_disjoint_relu : Paper.R6_disjoint_relu.
Proof. exact (disjoint_of_R5 relu relu_R5). Qed.

Theorem r6_disjoint_gelu : Paper.R6_disjoint_gelu.
Proof. exact (disjoint_of_R5 gelu gelu_R5). Qed.

Theorem r6_disjoint_beyond : Paper.R6_disjoint_beyond.
Proof. split; [exact (disjoint_of_R5 gelu_tanh gelu_tanh_R5) | exact (disjoint_of_R5 silu silu_R5)]. Qed.

(** ** R7 *)

Theorem r7_gated_bias : Paper.R7_gated_bias.
Proof. exact Biases.gated_bias_counterexample. Qed.

Theorem r7_bias_sufficient : Paper.R7_bias_sufficient.
Proof. exact Biases.odd_part_absorbable_bias. Qed.
