(** * Certificates of R8-with-biases verdicts for concrete blocks (R9 beyond genericity)

    A concrete biased block [x + B sigma(A x + c) + b0] is given by its
    augmented rows [RA] ([A = zmat_rows dA RA], [c = zaug d dA RA]) and the
    columns [CB] of [B]; [b0] is any vector (the output bias never matters).
    The canonical form is checked by [BiasGroupingCheck.check_bias_grouping]
    (with [check_pm_scales] for the GELU family); each lemma turns the
    boolean checks into the statement:
    - [cert_bias_r8_absorbable_relu] / [cert_bias_r8_absorbable_pm] (any
      [sigma] with [sigma z - sigma (-z) = z]; GELU, GELU_tanh, SiLU): width
      data ([WidthCheck.check_width_data]) give absorbability at [m];
    - [cert_bias_r8_no_width_relu] / [cert_bias_r8_no_width_pm]: canonical
      classes ([check_bias_lines] / [check_bias_signs]) and any proof of
      [~ width_condition d k m U G L] refute absorbability at [m] (the entry
      point for every refutation of the width condition);
    - [cert_bias_r8_below_relu] / [cert_bias_r8_below_pm]: [m < k];
    - [cert_bias_r8_nosub_relu] / [cert_bias_r8_nosub_pm]: at [m = k], a
      no-subset certificate ([CheckNoSubset.check_nosub] on [(U, G, L)]).
    For the GELU family the offset of the form holds [b_i sigma(c_i)] for
    constant rows as a term: nothing here evaluates [sigma].
    Examples at the end: a biased ReLU block with duplicate and scaled rows and
    a constant row (absorbable at 2, not at 1 nor 0), a GELU block with
    opposite rows and a constant row, tampered certificates rejected. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63.
From Absorb Require Import Sums Blocks ActivationDefs Activations ReluSubmatrix BiasSpec BiasBlocks
  GeluAffineRidge.
From Absorb Require Import GeluBias PmBiasCanonical IntSums Modular SubsetTargets CheckNoSubset.
From Absorb.decide Require Import RidgeForm.
From Absorb.certify Require Import ZMatrices GroupingCheck WidthCheck SignsCheck R8Certify
  CertifyWidth BiasGroupingCheck.
From Absorb.bias Require Import SigmaBiasGrouping.
Import ListNotations.
Open Scope R_scope.

(** ** Absorbable *)

Theorem cert_bias_r8_absorbable_relu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL
    T S r dE CE dP CP dQ RQ (b0 : vec) :
  check_bias_grouping d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_width_data d k m dL RL dG CG dU RU T S r dE CE dP CP dQ RQ = true ->
  absorbable_ungated_bias relu d n m identity (zmat_rows dA RA) (zaug d dA RA) (zmat_cols dB CB) b0.
Proof.
  intros Hg Hw.
  exact (relu_bias_grouping_drop_sufficient d n k K m _ _ _ _ _ _ _ _ _ _ _
           (check_bias_grouping_sound relu _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ b0 Hg)
           (check_width_data_sound _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Hw)).
Qed.

Theorem cert_bias_r8_absorbable_pm (sigma : R -> R) d n k K m dA RA dB CB dU RU dl LN cls
    dG CG dL RL
    T S r dE CE dP CP dQ RQ (b0 : vec) :
  odd_part_identity sigma ->
  check_bias_grouping d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_width_data d k m dL RL dG CG dU RU T S r dE CE dP CP dQ RQ = true ->
  absorbable_ungated_bias sigma d n m identity (zmat_rows dA RA) (zaug d dA RA)
    (zmat_cols dB CB) b0.
Proof.
  intros Hodd Hg Hpm Hw.
  exact (pm_bias_grouping_drop_sufficient sigma Hodd d n k K m _ _ _ _ _ _ _ _ _ _ _
           (check_bias_grouping_pm_sound sigma _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ b0 Hg Hpm)
           (check_width_data_sound _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Hw)).
Qed.

(** ** Not absorbable: no width condition *)

Theorem cert_bias_r8_no_width_relu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL (b0 : vec) :
  check_bias_grouping d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_bias_lines d k dU RU dG CG = true ->
  ~ width_condition d k m (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL) ->
  ~ absorbable_ungated_bias relu d n m identity (zmat_rows dA RA) (zaug d dA RA)
    (zmat_cols dB CB) b0.
Proof.
  intros Hg Hl Hw.
  rewrite (relu_bias_grouping_drop_iff d n k K m _ _ _ _ _ _ _ _ _ _ _
             (check_bias_grouping_sound relu _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ b0 Hg)
             (check_bias_lines_sound _ _ _ _ _ _ Hl)).
  exact Hw.
Qed.

Theorem cert_bias_r8_no_width_pm (sigma : R -> R) d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL
    (b0 : vec) :
  odd_part_identity sigma -> affine_ridge_unique_even (even_part sigma) ->
  check_bias_grouping d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_bias_signs d k dU RU dG CG = true ->
  ~ width_condition d k m (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL) ->
  ~ absorbable_ungated_bias sigma d n m identity (zmat_rows dA RA) (zaug d dA RA)
    (zmat_cols dB CB) b0.
Proof.
  intros Hodd Hu Hg Hpm Hs Hw.
  rewrite (pm_bias_grouping_drop_iff sigma Hodd Hu d n k K m _ _ _ _ _ _ _ _ _ _ _
             (check_bias_grouping_pm_sound sigma _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ b0 Hg Hpm)
             (check_bias_signs_sound _ _ _ _ _ _ Hs)).
  exact Hw.
Qed.

(** ** Not absorbable below the number of classes *)

Theorem cert_bias_r8_below_relu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL (b0 : vec) :
  check_bias_grouping d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_bias_lines d k dU RU dG CG = true ->
  Nat.ltb m k = true ->
  ~ absorbable_ungated_bias relu d n m identity (zmat_rows dA RA) (zaug d dA RA)
    (zmat_cols dB CB) b0.
Proof.
  intros Hg Hl Hm. apply (cert_bias_r8_no_width_relu d n k K m _ _ _ _ _ _ _ _ _ _ _ _ _ b0 Hg Hl).
  apply not_width_below_classes, Nat.ltb_lt, Hm.
Qed.

Theorem cert_bias_r8_below_pm (sigma : R -> R) d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL
    (b0 : vec) :
  odd_part_identity sigma -> affine_ridge_unique_even (even_part sigma) ->
  check_bias_grouping d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_bias_signs d k dU RU dG CG = true ->
  Nat.ltb m k = true ->
  ~ absorbable_ungated_bias sigma d n m identity (zmat_rows dA RA) (zaug d dA RA)
    (zmat_cols dB CB) b0.
Proof.
  intros Hodd Hu Hg Hpm Hs Hm.
  apply (cert_bias_r8_no_width_pm sigma d n k K m _ _ _ _ _ _ _ _ _ _ _ _ _ b0 Hodd Hu Hg Hpm Hs).
  apply not_width_below_classes, Nat.ltb_lt, Hm.
Qed.

(** ** Not absorbable at [m = k]: no subset of the ridges cancels [L] *)

Theorem cert_bias_r8_nosub_relu d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL p F FS (b0 : vec) :
  check_bias_grouping d n k K dA RA dB CB dU (zrows RU) dl LN cls dG (zrows CG) dL
    (zrows RL) = true ->
  check_bias_lines d k dU (zrows RU) dG (zrows CG) = true ->
  check_nosub d k dU dG dL RU CG RL p F FS = true ->
  ~ absorbable_ungated_bias relu d n k identity (zmat_rows dA RA) (zaug d dA RA)
    (zmat_cols dB CB) b0.
Proof.
  intros Hg Hl Hn. exact (cert_bias_r8_no_width_relu d n k K k _ _ _ _ _ _ _ _ _ _ _ _ _ b0 Hg Hl
                            (nosub_no_width_at_k d k dU dG dL RU CG RL p F FS Hn)).
Qed.

Theorem cert_bias_r8_nosub_pm (sigma : R -> R) d n k K dA RA dB CB dU RU dl LN cls dG CG
    dL RL p F FS
    (b0 : vec) :
  odd_part_identity sigma -> affine_ridge_unique_even (even_part sigma) ->
  check_bias_grouping d n k K dA RA dB CB dU (zrows RU) dl LN cls dG (zrows CG) dL
    (zrows RL) = true ->
  check_pm_scales n K dl LN cls = true ->
  check_bias_signs d k dU (zrows RU) dG (zrows CG) = true ->
  check_nosub d k dU dG dL RU CG RL p F FS = true ->
  ~ absorbable_ungated_bias sigma d n k identity (zmat_rows dA RA) (zaug d dA RA)
    (zmat_cols dB CB) b0.
Proof.
  intros Hodd Hu Hg Hpm Hs Hn.
  exact (cert_bias_r8_no_width_pm sigma d n k K k _ _ _ _ _ _ _ _ _ _ _ _ _ b0 Hodd Hu Hg Hpm Hs
           (nosub_no_width_at_k d k dU dG dL RU CG RL p F FS Hn)).
Qed.

(** ** Examples *)

(** ReLU, [d = 1], [n = 4]: [x + relu(x + 1) + relu(x + 1) + relu(2x + 2) + 3 relu(-1)]
    (duplicate rows, a scaled row, a constant row): one class [(1, 1)] with
    scales [1, 1, 2], kink [4], [L = 1]. *)
Definition cbx_RA : list (list Z) := [[1; 1]; [1; 1]; [2; 2]; [0; -1]]%Z.
Definition cbx_CB : list (list Z) := [[1]; [1]; [1]; [3]]%Z.
Definition cbx_LN : list Z := [1; 1; 2; 0]%Z.
Definition cbx_cls : list nat := [0; 0; 0; 1]%nat.

Example cbx_relu_absorbable_2 :
  absorbable_ungated_bias relu 1 4 2 identity (zmat_rows 1 cbx_RA) (zaug 1 1 cbx_RA)
    (zmat_cols 1 cbx_CB)
    (fun _ => 5).
Proof.
  apply
    (cert_bias_r8_absorbable_relu 1 4 1 1 2 1 cbx_RA 1 cbx_CB 1 [[1; 1]]%Z 1 cbx_LN
      cbx_cls 1 [[4]]%Z
           1 [[1]]%Z [true] [false] 0 1 [[1]]%Z 1 [] 1 []); vm_compute; reflexivity.
Qed.

Example cbx_relu_not_absorbable_0 :
  ~ absorbable_ungated_bias relu 1 4 0 identity (zmat_rows 1 cbx_RA) (zaug 1 1 cbx_RA)
    (zmat_cols 1 cbx_CB)
      (fun _ => 5).
Proof.
  apply
    (cert_bias_r8_below_relu 1 4 1 1 0 1 cbx_RA 1 cbx_CB 1 [[1; 1]]%Z 1 cbx_LN cbx_cls 1 [[4]]%Z
      1 [[1]]%Z);
    vm_compute; reflexivity.
Qed.

(** Width [k = 1]: [1 + 4 s <> 0] for [s] in [{0, 1}]. *)
Example cbx_relu_not_absorbable_1 :
  ~ absorbable_ungated_bias relu 1 4 1 identity (zmat_rows 1 cbx_RA) (zaug 1 1 cbx_RA)
    (zmat_cols 1 cbx_CB)
      (fun _ => 5).
Proof.
  apply
    (cert_bias_r8_no_width_relu 1 4 1 1 1 1 cbx_RA 1 cbx_CB 1 [[1; 1]]%Z 1 cbx_LN cbx_cls 1 [[4]]%Z
      1 [[1]]%Z);
    [vm_compute; reflexivity .. |].
  apply no_width_condition_at_k. intros S H. specialize (H 0%nat 0%nat ltac:(lia) ltac:(lia)).
  unfold masked_outer, zmat_rows, zmat_cols in H. simpl in H. destruct (S 0%nat); lra.
Qed.

(** A wrong width, a wrong kink: rejected. *)
Example cbx_tampered :
  check_width_data 1 1 1 1 [[1]]%Z 1 [[4]]%Z 1 [[1; 1]]%Z [true] [false] 0 1 [[1]]%Z 1 [] 1 []
    = false /\
  check_bias_grouping 1 4 1 1 1 cbx_RA 1 cbx_CB 1 [[1; 1]]%Z 1 cbx_LN cbx_cls 1 [[3]]%Z 1
    [[1]]%Z = false.
Proof. split; vm_compute; reflexivity. Qed.

(** GELU family, [d = 1], [n = 3]: [x + s(x + 1) + s(-x - 1) + s(0 x + 2)]: one class
    [(1, 1)] (scales [1, -1]), kink [2], [L = 0], the constant [s(2)] in the offset.
    Absorbable at width [1], not at [0]. *)
Definition cgx_RA : list (list Z) := [[1; 1]; [-1; -1]; [0; 2]]%Z.
Definition cgx_CB : list (list Z) := [[1]; [1]; [1]]%Z.

Example cgx_gelu_absorbable_1 :
  absorbable_ungated_bias gelu 1 3 1 identity (zmat_rows 1 cgx_RA) (zaug 1 1 cgx_RA)
    (zmat_cols 1 cgx_CB)
    (fun _ => 0).
Proof.
  apply (cert_bias_r8_absorbable_pm gelu 1 3 1 1 1 1 cgx_RA 1 cgx_CB 1 [[1; 1]]%Z 1 [1; -1; 0]%Z
           [0; 0; 1]%nat 1 [[2]]%Z 1 [[0]]%Z [false] [false] 0 1 [] 1 [] 1 [] _ gelu_odd_part);
    vm_compute; reflexivity.
Qed.

Example cgx_silu_not_absorbable_0 :
  ~ absorbable_ungated_bias silu 1 3 0 identity (zmat_rows 1 cgx_RA) (zaug 1 1 cgx_RA)
    (zmat_cols 1 cgx_CB)
      (fun _ => 0).
Proof.
  apply (cert_bias_r8_below_pm silu 1 3 1 1 0 1 cgx_RA 1 cgx_CB 1 [[1; 1]]%Z 1 [1; -1; 0]%Z
           [0; 0; 1]%nat 1 [[2]]%Z 1 [[0]]%Z _ silu_odd_part silu_even_part_affine_unique);
    vm_compute; reflexivity.
Qed.

(** A scale [2] is not a GELU-family scale. *)
Example cgx_pm_scale_tampered : check_pm_scales 3 1 1 [1; 2; 0]%Z [0; 0; 1]%nat = false.
Proof. vm_compute. reflexivity. Qed.

(** ** The headline iffs of [SigmaBiasGrouping] on checked data, true side *)

(** [relu_bias_grouping_drop_iff] (<-) on [cbx] at width [2] (its (->) side is used by
    [cbx_relu_not_absorbable_1]). *)
Example cbx_relu_iff_width2 :
  absorbable_ungated_bias relu 1 4 2 identity (zmat_rows 1 cbx_RA) (zaug 1 1 cbx_RA)
    (zmat_cols 1 cbx_CB)
    (fun _ => 5).
Proof.
  apply (proj2 (relu_bias_grouping_drop_iff 1 4 1 1 2 _ _ _ _ _ _ _ _ _ _ _
                  (check_bias_grouping_sound relu 1 4 1 1 1 cbx_RA 1 cbx_CB 1 [[1; 1]]%Z 1
                    cbx_LN cbx_cls
                     1 [[4]]%Z 1 [[1]]%Z (fun _ => 5) ltac:(vm_compute; reflexivity))
                  (check_bias_lines_sound 1 1 1 [[1; 1]]%Z 1 [[4]]%Z
                    ltac:(vm_compute; reflexivity)))).
  apply
    (check_width_data_sound 1 1 2 1 [[1]]%Z 1 [[4]]%Z 1 [[1; 1]]%Z [true] [false] 0 1 [[1]]%Z
      1 [] 1 []).
  vm_compute. reflexivity.
Qed.

(** [pm_bias_grouping_drop_iff] (<-) for GELU on [cgx] at width [1] (its (->) side:
    [cgx_silu_not_absorbable_0] through [cert_bias_r8_no_width_pm]). *)
Example cgx_gelu_iff_width1 :
  absorbable_ungated_bias gelu 1 3 1 identity (zmat_rows 1 cgx_RA) (zaug 1 1 cgx_RA)
    (zmat_cols 1 cgx_CB)
    (fun _ => 0).
Proof.
  apply (proj2 (pm_bias_grouping_drop_iff gelu gelu_odd_part gelu_even_part_affine_unique 1 3 1 1 1
                  _ _ _ _ _ _ _ _ _ _ _
                  (check_bias_grouping_pm_sound gelu 1 3 1 1 1 cgx_RA 1 cgx_CB 1 [[1; 1]]%Z 1
                    [1; -1; 0]%Z
                     [0; 0; 1]%nat 1 [[2]]%Z 1 [[0]]%Z (fun _ => 0) ltac:(vm_compute; reflexivity)
                     ltac:(vm_compute; reflexivity))
                  (check_bias_signs_sound 1 1 1 [[1; 1]]%Z 1 [[2]]%Z
                    ltac:(vm_compute; reflexivity)))).
  apply
    (check_width_data_sound 1 1 1 1 [[0]]%Z 1 [[2]]%Z 1 [[1; 1]]%Z [false] [false] 0 1 []
      1 [] 1 []).
  vm_compute. reflexivity.
Qed.
