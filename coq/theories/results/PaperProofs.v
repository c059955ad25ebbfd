(** * Proofs of the statements of [spec/Paper.v]

    One theorem per statement, named after it in lower case
    ([Theorem r5_relu : Paper.R5_relu]); each applies the library's
    theorem for that result (named in the proof), so the statements of
    [Paper.v] and the library's own names cannot drift apart.  The one new
    argument is [disjoint_of_R5]: generic disjointness (R6) for every
    activation with the R5 package, the bad set being [Z ∪ non-generic].
    R8' is proved once for every [sigma] with the odd-part identity,
    [sigma 0 = 0] and ridge uniqueness of its even part
    ([decided_up_to_sign_of], ...), then for GELU, GELU_tanh and SiLU
    ([gelu_family_hyps]; with quick_gelu and gelu_fast: [gelu_family5_hyps]).
    The statements with any linear part [P] (R8, R8', R9, R11') apply
    [bias/ReluBiasSkip.v], [bias/EvenBiasSkip.v] and [bias/DecideAnySkip.v]. *)

From Coq Require Import Reals Lra Lia List Classical.
From Absorb Require Import Sums Blocks ActivationDefs Activations ParamSets Paper.
From Absorb Require Import SkipReduction Homogeneous Gated Depth ImpossibilityInstances.
From Absorb Require Import FlipSigns Widen Counterexamples ReluSubmatrix R5Package.
From Absorb Require Import Ridge GeluRidge SiluRidge GeluTanhRidge.
From Absorb Require Import NonGeneric NullSet GenericDisjointness NullDisjointness.
From Absorb Require Biases.
From Absorb Require R8 R8Absorbable R8Examples GroupingDrop WidthSufficient.
From Absorb Require ReluBias GeluBias GeluTanhAffineRidge SiluAffineRidge BiasCanonical.
From Absorb Require PmBiasNecessity.
From Absorb Require PmDisjointness.
From Absorb Require QuickGeluRidge GeluFastRidge HomogeneousReal.
From Absorb Require QuickGeluAffineRidge TanhGeluAffineRidge.
From Absorb Require PreNorm PreNormContinuous PreNormSigmaBare PreNormLayerNormRays PostNorm
  PostNormGeneric GeluTail.
From Absorb Require ReluBiasSkip EvenBiasSkip EvenSkipInstances DecideAnySkip.
From Absorb Require MoreActivationDefs MoreActivations.
From Absorb Require BiasSpec.
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
  split; [exact depth_gated_not_representable_skips
         | exact depth_homogeneous_not_representable_skips].
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

Theorem r6_z_small : Paper.R6_Z_small.
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
Proof.
  split; [exact (disjoint_of_R5 gelu_tanh gelu_tanh_R5) | exact (disjoint_of_R5 silu silu_R5)].
Qed.

(** Every [d >= 1] for the GELU family: the bad set is [Z ∪ pm-non-generic]
    ([PmDisjointness.pm_generic_disjointness]). *)
Theorem r6_disjoint_pm : Paper.R6_disjoint_pm.
Proof.
  split; [|split]; intros d n Hd; exists (PmDisjointness.pm_bad d n).
  - exact (PmDisjointness.gelu_generically_disjoint_all d n Hd).
  - exact (PmDisjointness.gelu_tanh_generically_disjoint_all d n Hd).
  - exact (PmDisjointness.silu_generically_disjoint_all d n Hd).
Qed.

(** ** R7 *)

Theorem r7_gated_bias : Paper.R7_gated_bias.
Proof. exact Biases.gated_bias_counterexample. Qed.

Theorem r7_bias_sufficient : Paper.R7_bias_sufficient.
Proof. exact Biases.odd_part_absorbable_bias. Qed.

(** ** R8 (beyond the paper) *)

Theorem r8_relu_decided : Paper.R8_relu_decided.
Proof.
  intros d n A B.
  destruct (R8.relu_block_canonical d n A B) as (k & U & G & L & Hk & Hl & HG & Hs).
  exists k, U, G, L. split; [exact Hk|]. split; [exact Hl|]. split; [exact HG|].
  split; [exact Hs|]. intros m. exact (R8.relu_absorbable_iff_form d n k m A B U G L Hl HG Hs).
Qed.

Theorem r8_relu_grouping : Paper.R8_relu_grouping.
Proof.
  split; [exact GroupingDrop.grouping_drop_exists_relu
         | exact GroupingDrop.relu_absorbable_iff_width_drop].
Qed.

Theorem r8_wide : Paper.R8_wide.
Proof.
  intros sigma d n k m A B U G L Hodd Hres Hm.
  exact (R8Absorbable.absorbable_of_ridge sigma d n m A B U G L k Hres
           (WidthSufficient.width_condition_sufficient sigma d k m U G L Hodd
              (WidthSufficient.ridge_form_wide d k m U G L Hm))).
Qed.

Theorem r8_below : Paper.R8_below.
Proof. exact R8.relu_not_absorbable_below_classes. Qed.

Theorem r8_dim1 : Paper.R8_dim1.
Proof. exact R8Absorbable.relu_dim1_absorbable. Qed.

Theorem r8_counterexample : Paper.R8_counterexample.
Proof.
  split; [exact R8Examples.A0_B0_ridge_form|]. split; [exact R8.dim1_U_lines|].
  split; [apply R8.const_nonzero_cols; lra|].
  split; [exact R8Examples.A0_B0_width_condition | exact R8Examples.A0_B0_absorbable_via_width].
Qed.

(** ** R8' (beyond the paper): one proof for every [sigma] with the odd-part
    identity, [sigma 0 = 0] and ridge uniqueness of its even part *)

Lemma decided_up_to_sign_of sigma :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  Paper.decided_up_to_sign sigma.
Proof.
  intros Hodd H0 Hun d n A B.
  destruct (R8.pm_block_canonical sigma d n A B Hodd H0) as (k & U & G & L & Hk & Hl & HG & Hs).
  exists k, U, G, L. split; [exact Hk|]. split; [exact Hl|]. split; [exact HG|].
  split; [exact Hs|]. intros m.
  exact (R8.pm_absorbable_iff_form sigma d n k m A B U G L Hodd H0 Hun Hl HG Hs).
Qed.

Lemma grouping_decides_up_to_sign_of sigma :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  Paper.grouping_decides_up_to_sign sigma.
Proof.
  intros Hodd H0 Hun. repeat intro. eapply GroupingDrop.pm_absorbable_iff_width_drop; eassumption.
Qed.

Lemma never_below_classes_up_to_sign_of sigma :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  Paper.never_below_classes_up_to_sign sigma.
Proof.
  intros Hodd H0 Hun. repeat intro. eapply R8.pm_not_absorbable_below_classes; eassumption.
Qed.

(** The three hypotheses for GELU, GELU_tanh and SiLU, in one place. *)
Lemma gelu_family_hyps (P : (R -> R) -> Prop) :
  (forall sigma, odd_part_identity sigma -> sigma 0 = 0 ->
     ridge_unique_even (even_part sigma) -> P sigma) ->
  P gelu /\ P gelu_tanh /\ P silu.
Proof.
  intros H. split; [exact (H gelu gelu_odd_part gelu_zero R8.gelu_even_part_unique)|].
  split; [exact (H gelu_tanh gelu_tanh_odd_part gelu_tanh_zero gelu_tanh_ridge_unique)|].
  exact (H silu silu_odd_part (proj2 silu_vanishing) silu_ridge_unique).
Qed.

Theorem r8p_decided : Paper.R8p_decided.
Proof. exact (gelu_family_hyps _ decided_up_to_sign_of). Qed.

Theorem r8p_grouping : Paper.R8p_grouping.
Proof.
  split; [exact GroupingDrop.grouping_drop_exists_pm|].
  exact (gelu_family_hyps _ grouping_decides_up_to_sign_of).
Qed.

Theorem r8p_below : Paper.R8p_below.
Proof. exact (gelu_family_hyps _ never_below_classes_up_to_sign_of). Qed.

(** ** R9 (beyond the paper) *)

Theorem r9_relu : Paper.R9_relu.
Proof. exact ReluBias.relu_bias_absorbable_iff_submatrix. Qed.

Theorem r9_gelu_family : Paper.R9_gelu_family.
Proof.
  split; [exact GeluBias.gelu_bias_absorbable_iff_submatrix|].
  split; [exact GeluTanhAffineRidge.gelu_tanh_bias_absorbable_iff_submatrix|].
  exact SiluAffineRidge.silu_bias_absorbable_iff_submatrix.
Qed.

Theorem r9_below : Paper.R9_below.
Proof.
  split; [exact ReluBias.relu_bias_generic_not_absorbable_below|].
  split; [exact GeluBias.gelu_bias_generic_not_absorbable_below|].
  split; [exact GeluTanhAffineRidge.gelu_tanh_bias_generic_not_absorbable_below|].
  exact SiluAffineRidge.silu_bias_generic_not_absorbable_below.
Qed.

Theorem r9_relu_decided : Paper.R9_relu_decided.
Proof. exact BiasCanonical.relu_bias_block_decided. Qed.

Theorem r9_gelu_family_decided : Paper.R9_gelu_family_decided.
Proof.
  split; [exact PmBiasNecessity.gelu_bias_block_decided|].
  split; [exact PmBiasNecessity.gelu_tanh_bias_block_decided|].
  exact PmBiasNecessity.silu_bias_block_decided.
Qed.

(** ** R10 (beyond the paper) *)

Theorem r10_quick_gelu : Paper.R10_quick_gelu.
Proof.
  split; [exact QuickGeluRidge.quick_gelu_absorbable_iff_submatrix
         | exact QuickGeluRidge.quick_gelu_generic_not_absorbable_below].
Qed.

Theorem r10_gelu_fast : Paper.R10_gelu_fast.
Proof.
  split; [exact GeluFastRidge.gelu_fast_absorbable_iff_submatrix
         | exact GeluFastRidge.gelu_fast_generic_not_absorbable_below].
Qed.

Theorem r10_bias : Paper.R10_bias.
Proof.
  split; split; [| split | | split].
  - exact QuickGeluAffineRidge.quick_gelu_bias_absorbable_iff_submatrix.
  - exact QuickGeluAffineRidge.quick_gelu_bias_generic_not_absorbable_below.
  - exact QuickGeluAffineRidge.quick_gelu_bias_block_decided.
  - exact TanhGeluAffineRidge.gelu_fast_bias_absorbable_iff_submatrix.
  - exact TanhGeluAffineRidge.gelu_fast_bias_generic_not_absorbable_below.
  - exact TanhGeluAffineRidge.gelu_fast_bias_block_decided.
Qed.

Theorem r10_heaviside : Paper.R10_heaviside.
Proof. exact HomogeneousReal.heaviside_not_absorbable. Qed.

Theorem r10_real_degrees : Paper.R10_real_degrees.
Proof.
  split; [exact HomogeneousReal.homogeneous_real_not_absorbable_ungated|].
  split; [exact HomogeneousReal.homogeneous_real_not_absorbable_gated
         | exact HomogeneousReal.relu_real_pow_not_absorbable].
Qed.

(** ** R11 *)

Theorem r11_norm_bounded : Paper.R11_norm_bounded.
Proof.
  intros d eps gamma beta x i He Hi.
  split; [exact (PreNorm.layer_norm_coord_bound d eps gamma beta x i He Hi)
         | exact (PreNorm.rms_norm_coord_bound d eps gamma beta x i He Hi)].
Qed.

Theorem r11_prenorm : Paper.R11_prenorm.
Proof. exact PreNorm.prenorm_not_residual_free. Qed.

Theorem r11_prenorm_mlp : Paper.R11_prenorm_mlp.
Proof. exact PreNorm.prenorm_mlp_not_residual_free. Qed.

Theorem r11_prenorm_depth : Paper.R11_prenorm_depth.
Proof. exact PreNorm.prenorm_depth_not_residual_free. Qed.

Theorem r11_parallel : Paper.R11_parallel.
Proof. exact PreNorm.parallel_not_residual_free. Qed.

Theorem r11_prenorm_continuous : Paper.R11_prenorm_continuous.
Proof. exact PreNormContinuous.prenorm_continuous_not_residual_free. Qed.

Theorem r11_prenorm_depth_continuous : Paper.R11_prenorm_depth_continuous.
Proof. exact PreNormContinuous.prenorm_continuous_depth_not_residual_free. Qed.

Theorem r11_parallel_continuous : Paper.R11_parallel_continuous.
Proof. exact PreNormContinuous.parallel_continuous_not_residual_free. Qed.

Theorem r11_stretch_layernorm : Paper.R11_stretch_layernorm.
Proof.
  intros sigma d eps P m A c B b0 Hd He Hs.
  apply (PreNormLayerNormRays.layernorm_residual_not_sigma_bare sigma d eps P m A c B b0);
    [| exact Hd | exact He].
  destruct Hs as [-> | [-> | [-> | [-> | [-> | ->]]]]].
  - exact PreNormSigmaBare.relu_relu_asymptotic.
  - exact PreNormSigmaBare.silu_relu_asymptotic.
  - exact GeluTail.gelu_relu_asymptotic.
  - exact PreNormSigmaBare.gelu_tanh_relu_asymptotic.
  - exact PreNormSigmaBare.gelu_fast_relu_asymptotic.
  - exact PreNormSigmaBare.quick_gelu_relu_asymptotic.
Qed.

(** ** R11' *)

Theorem r11p_norm_injective : Paper.R11p_norm_injective.
Proof.
  intros d eps gamma beta u v He Hg.
  split; [exact (PostNorm.layer_norm_eq_iff d eps gamma beta u v He Hg)
         | exact (PostNorm.rms_norm_eq_iff d eps gamma beta u v He Hg)].
Qed.

Theorem r11p_zero_gamma : Paper.R11p_zero_gamma.
Proof.
  split; [intros; split; [exact (PostNorm.layer_norm_eq_coords d eps gamma beta u v)
                         | exact (PostNorm.rms_norm_eq_coords d eps gamma beta u v)]|].
  split; [exact PostNorm.postrms_ungated_sufficient|].
  split; [exact PostNorm.postln_ungated_sufficient | exact PostNorm.postln_ungated_bias_sufficient].
Qed.

Theorem r11p_rmsnorm : Paper.R11p_rmsnorm.
Proof.
  split; [exact PostNorm.postrms_ungated_iff|].
  split; [exact PostNorm.postrms_ungated_bias_iff | exact PostNorm.postrms_gated_bias_iff].
Qed.

Theorem r11p_layernorm : Paper.R11p_layernorm.
Proof.
  split; [exact PostNorm.postln_ungated_iff|].
  split; [exact PostNorm.postln_ungated_bias_iff | exact PostNorm.postln_gated_bias_iff].
Qed.

Theorem r11p_relu_any_skip : Paper.R11p_relu_any_skip.
Proof. exact PostNormGeneric.relu_skip_absorbable_iff. Qed.

Theorem r11p_generic : Paper.R11p_generic.
Proof.
  split; [exact PostNormGeneric.postln_relu_generic | exact PostNormGeneric.postrms_relu_generic].
Qed.

Theorem r11p_instance : Paper.R11p_instance.
Proof. exact PostNormGeneric.postln_only_instance. Qed.

(** ** Any linear part [P] (beyond: R9 and R11') *)

Theorem r9_relu_any_skip : Paper.R9_relu_any_skip.
Proof.
  split; [exact ReluBiasSkip.relu_bias_skip_absorbable_iff
         | exact ReluBias.relu_bias_skip_not_absorbable_below].
Qed.

(** [SkipDefs.skip_bias_characterization generic_bias_signs] for every activation of
    [EvenSkipInstances.gelu_family_skip_hyps]. *)
Lemma skip_bias_signs_of sigma : EvenSkipInstances.even_skip_hyps sigma ->
  SkipDefs.skip_bias_characterization BiasSpec.generic_bias_signs sigma.
Proof.
  intros [Hodd Hu].
  split; [exact (EvenBiasSkip.even_bias_skip_absorbable_iff sigma Hodd Hu)
         | exact (GeluBias.even_bias_skip_not_absorbable_below sigma Hodd Hu)].
Qed.

Theorem r9_gelu_family_any_skip : Paper.R9_gelu_family_any_skip.
Proof.
  destruct EvenSkipInstances.gelu_family_skip_hyps as [H1 [H2 [H3 [H4 H5]]]].
  split; [exact (skip_bias_signs_of _ H1)|]. split; [exact (skip_bias_signs_of _ H2)|].
  split; [exact (skip_bias_signs_of _ H3)|]. split; [exact (skip_bias_signs_of _ H4)|].
  exact (skip_bias_signs_of _ H5).
Qed.

Lemma skip_pm_of sigma : EvenSkipInstances.even_skip_hyps sigma ->
  SkipDefs.skip_characterization_pm sigma.
Proof.
  intros [Hodd Hu] d n P A B Hs Hb.
  exact (EvenBiasSkip.even_skip_absorbable_iff_pm sigma Hodd Hu d n P A B
           (EvenBiasSkip.signs_distinct_bias_signs d n A B Hs Hb)).
Qed.

Theorem r11p_gelu_any_skip : Paper.R11p_gelu_any_skip.
Proof.
  destruct EvenSkipInstances.gelu_family_skip_hyps as [H1 [H2 [H3 [H4 H5]]]].
  split; [exact (skip_pm_of _ H1)|]. split; [exact (skip_pm_of _ H2)|].
  split; [exact (skip_pm_of _ H3)|]. split; [exact (skip_pm_of _ H4)|].
  exact (skip_pm_of _ H5).
Qed.

Theorem r11p_generic_bias : Paper.R11p_generic_bias.
Proof.
  split; [exact ReluBiasSkip.postln_relu_bias_generic
         | exact ReluBiasSkip.postrms_relu_bias_generic].
Qed.

Lemma postnorm_pm_of sigma : EvenSkipInstances.even_skip_hyps sigma ->
  SkipDefs.postnorm_generic_pm sigma.
Proof.
  intros [Hodd Hu]. split; [|split; [|split]].
  - intros d n eps gamma beta P A B He Hg Hs Hb.
    exact (EvenBiasSkip.even_postln_generic_pm sigma Hodd Hu d n eps gamma beta P A B He Hg
             (EvenBiasSkip.signs_distinct_bias_signs d n A _ Hs Hb)).
  - intros d n eps gamma beta P A B He Hg Hs Hb.
    exact (EvenBiasSkip.even_postrms_generic_pm sigma Hodd Hu d n eps gamma beta P A B He Hg
             (EvenBiasSkip.signs_distinct_bias_signs d n A B Hs Hb)).
  - exact (EvenBiasSkip.even_postln_bias_generic sigma Hodd Hu).
  - exact (EvenBiasSkip.even_postrms_bias_generic sigma Hodd Hu).
Qed.

Theorem r11p_gelu_generic : Paper.R11p_gelu_generic.
Proof.
  destruct EvenSkipInstances.gelu_family_skip_hyps as [H1 [H2 [H3 [H4 H5]]]].
  split; [exact (postnorm_pm_of _ H1)|]. split; [exact (postnorm_pm_of _ H2)|].
  split; [exact (postnorm_pm_of _ H3)|]. split; [exact (postnorm_pm_of _ H4)|].
  exact (postnorm_pm_of _ H5).
Qed.

(** ** Deciding blocks with any linear part [P] (beyond: R8, R8', R9, R11') *)

Theorem r8_relu_any_skip : Paper.R8_relu_any_skip.
Proof. exact DecideAnySkip.relu_every_block_decided_any_skip. Qed.

(** The three hypotheses of R8' for the five activations of the GELU family. *)
Lemma gelu_family5_hyps (Q : (R -> R) -> Prop) :
  (forall sigma, odd_part_identity sigma -> sigma 0 = 0 ->
     ridge_unique_even (even_part sigma) -> Q sigma) ->
  Q gelu /\ Q gelu_tanh /\ Q silu /\ Q MoreActivationDefs.quick_gelu /\
  Q MoreActivationDefs.gelu_fast.
Proof.
  intros H. destruct (gelu_family_hyps Q H) as [H1 [H2 H3]].
  split; [exact H1|]. split; [exact H2|]. split; [exact H3|].
  split; [exact (H _ MoreActivations.quick_gelu_odd_part MoreActivations.quick_gelu_zero
                   QuickGeluRidge.quick_gelu_ridge_unique)|].
  exact (H _ MoreActivations.gelu_fast_odd_part MoreActivations.gelu_fast_zero
           GeluFastRidge.gelu_fast_ridge_unique).
Qed.

Theorem r8p_any_skip : Paper.R8p_any_skip.
Proof.
  apply gelu_family5_hyps. intros sigma Hodd H0 Hun d n P A B.
  exact (DecideAnySkip.pm_every_block_decided_any_skip sigma d n P A B Hodd H0 Hun).
Qed.

Lemma bias_decided_signs_of sigma : EvenSkipInstances.even_skip_hyps sigma ->
  SkipDefs.bias_decided_any_skip BiasSpec.generic_bias_signs sigma.
Proof.
  intros [Hodd Hu]. exact (DecideAnySkip.pm_bias_block_decided_any_skip sigma Hodd Hu).
Qed.

Theorem r9_decided_any_skip : Paper.R9_decided_any_skip.
Proof.
  destruct EvenSkipInstances.gelu_family_skip_hyps as [H1 [H2 [H3 [H4 H5]]]].
  split; [exact DecideAnySkip.relu_bias_block_decided_any_skip|].
  split; [exact (bias_decided_signs_of _ H1)|]. split; [exact (bias_decided_signs_of _ H2)|].
  split; [exact (bias_decided_signs_of _ H3)|]. split; [exact (bias_decided_signs_of _ H4)|].
  exact (bias_decided_signs_of _ H5).
Qed.

Lemma postnorm_decided_of distinct generic_b sigma :
  SkipDefs.decided_any_skip distinct sigma -> SkipDefs.bias_decided_any_skip generic_b sigma ->
  SkipDefs.postnorm_decided distinct generic_b sigma.
Proof.
  intros F B. split; [exact (DecideAnySkip.postln_decided_free _ _ F)|].
  split; [exact (DecideAnySkip.postln_decided_bias _ _ B)|].
  split; [exact (DecideAnySkip.postrms_decided_free _ _ F)
         | exact (DecideAnySkip.postrms_decided_bias _ _ B)].
Qed.

Theorem r11p_decided : Paper.R11p_decided.
Proof.
  destruct r8p_any_skip as [F1 [F2 [F3 [F4 F5]]]].
  destruct r9_decided_any_skip as [B0 [B1 [B2 [B3 [B4 B5]]]]].
  split; [exact (postnorm_decided_of _ _ _ r8_relu_any_skip B0)|].
  split; [exact (postnorm_decided_of _ _ _ F1 B1)|].
  split; [exact (postnorm_decided_of _ _ _ F2 B2)|].
  split; [exact (postnorm_decided_of _ _ _ F3 B3)|].
  split; [exact (postnorm_decided_of _ _ _ F4 B4) | exact (postnorm_decided_of _ _ _ F5 B5)].
Qed.

Lemma skip_below_pm_of sigma : EvenSkipInstances.even_skip_hyps sigma ->
  SkipDefs.skip_below_pm sigma.
Proof.
  intros [Hodd Hu] d n m P A B Hs Hb.
  exact (EvenBiasSkip.even_skip_not_absorbable_below_pm sigma Hodd Hu d n m P A B
           (EvenBiasSkip.signs_distinct_bias_signs d n A B Hs Hb)).
Qed.

Theorem r11p_below_any_skip : Paper.R11p_below_any_skip.
Proof.
  destruct EvenSkipInstances.gelu_family_skip_hyps as [H1 [H2 [H3 [H4 H5]]]].
  split; [exact ReluBiasSkip.relu_skip_not_absorbable_below|].
  split; [exact (skip_below_pm_of _ H1)|]. split; [exact (skip_below_pm_of _ H2)|].
  split; [exact (skip_below_pm_of _ H3)|]. split; [exact (skip_below_pm_of _ H4)|].
  exact (skip_below_pm_of _ H5).
Qed.
