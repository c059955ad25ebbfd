(** * R5 (=>) for the certificates of quick_gelu and gelu_fast (R10)

    [Certify.generic_submatrix_property] for the two activations of R10 whose
    ridge uniqueness is proved in [activations/]: [quick_gelu] (rescaled SiLU,
    [QuickGeluRidge.v]) and [gelu_fast] (the tanh-GELU family,
    [GeluFastRidge.v]). With them, the generic "not absorbable" certificates
    of [Certify.v] apply to these activations as to GELU and SiLU; the
    absorbable ones need only [MoreActivations.quick_gelu_odd_part] /
    [gelu_fast_odd_part]. Kept apart from [Certify.v] so that other
    certificates do not load the R10 files. *)

From Coq Require Import Reals.
From Absorb Require Import Blocks MoreActivationDefs QuickGeluRidge GeluFastRidge Certify.

Lemma quick_gelu_generic_submatrix : generic_submatrix_property quick_gelu.
Proof. exact quick_gelu_absorbable_generic_submatrix. Qed.

Lemma gelu_fast_generic_submatrix : generic_submatrix_property gelu_fast.
Proof. exact gelu_fast_absorbable_generic_submatrix. Qed.
