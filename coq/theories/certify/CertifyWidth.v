(** * CertifyWidth: the bridge from no-subset certificates to R8 at width [k]

    R8 certificates ([R8Certify.v]) carry the ridge form [U], [G], [L] of a
    block as [Z] lists.  At width [m = k] (the number of ridges) a width
    condition is exactly a subset [S] of the ridges with
    [L + sum_{t in S} G_t U_t^T = 0] ([width_condition_at_k]), i.e. the
    submatrix problem for [A := U], [B := G] with target [L], which the
    multi-modular checker [check_nosub] ([CheckNoSubset.v]) refutes on
    primitive-integer data.  This file connects the two representations:
    - [zrows]: a primitive-integer matrix read as a [Z] matrix (signed values);
      [zmat_rows_zrows] / [zmat_cols_zrows]: the same real matrix;
    - [nosub_no_width_at_k]: [check_nosub] on [(U, G, L)] proves
      [~ width_condition d k k U G L];
    - [cert_r8_nosub_relu] / [cert_r8_nosub_pm]: with a canonical grouping,
      the block is not absorbable at width [k]. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63.
From Absorb Require Import Sums Blocks ActivationDefs Activations ReluSubmatrix Ridge.
From Absorb Require Import IntSums Modular SubsetTargets CheckNoSubset.
From Absorb.decide Require Import RidgeForm R8 GroupingDrop.
From Absorb.certify Require Import ZMatrices GroupingCheck WidthCheck SignsCheck R8Certify.
Import ListNotations.
Open Scope R_scope.

(** A primitive-integer matrix as signed [Z] entries. *)
Definition zrows (M : list (list int)) : list (list Z) := map (map zval) M.

Lemma zent_zrows M i j : zent (zrows M) i j = zentry M i j.
Proof.
  unfold zent, zrows, zentry. change (@nil Z) with (map zval (@nil int)).
  rewrite map_nth. rewrite <- zval_0. rewrite map_nth. reflexivity.
Qed.

Lemma zmat_rows_zrows den M i j : zmat_rows den (zrows M) i j = mat_of_rows den M i j.
Proof. rewrite zmat_rows_zent, zent_zrows. reflexivity. Qed.

Lemma zmat_cols_zrows den M i j : zmat_cols den (zrows M) i j = mat_of_cols den M i j.
Proof. rewrite zmat_cols_zent, zent_zrows. reflexivity. Qed.

(** No subset of the ridges cancels [L]: no width condition at [k]. *)
Theorem nosub_no_width_at_k d k dU dG dL RU CG RL p F FS :
  check_nosub d k dU dG dL RU CG RL p F FS = true ->
  ~ width_condition d k k (zmat_rows dU (zrows RU)) (zmat_cols dG (zrows CG)) (zmat_rows dL (zrows RL)).
Proof.
  intros H. apply no_width_condition_at_k. intros S HS.
  apply (check_nosub_sound d k dU dG dL RU CG RL p F FS H S).
  intros i j Hi Hj. specialize (HS i j Hi Hj). unfold masked_outer in HS. unfold subset_sum.
  rewrite zmat_rows_zrows in HS.
  rewrite (sumn_ext k _ (fun t => if S t then mat_of_cols dG CG i t * mat_of_rows dU RU t j else 0)) in HS.
  - lra.
  - intros t Ht. rewrite zmat_cols_zrows, zmat_rows_zrows. reflexivity.
Qed.

(** ** Certificate lemmas at width [k] *)

Theorem cert_r8_nosub_relu d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL p F FS :
  check_grouping_drop d n k K dA RA dB CB dU (zrows RU) dl LN cls dG (zrows CG) dL (zrows RL) = true ->
  check_lines_distinct d k dU (zrows RU) = true ->
  check_nonzero_cols d k dG (zrows CG) = true ->
  check_nosub d k dU dG dL RU CG RL p F FS = true ->
  ~ absorbable_ungated relu d n k identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hg Hl HG Hn. exact (cert_r8_no_width_condition_relu d n k K k _ _ _ _ _ _ _ _ _ _ _ _ _ Hg Hl HG
                               (nosub_no_width_at_k d k dU dG dL RU CG RL p F FS Hn)).
Qed.

Theorem cert_r8_nosub_pm (sigma : R -> R) d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL p F FS :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  check_grouping_drop d n k K dA RA dB CB dU (zrows RU) dl LN cls dG (zrows CG) dL (zrows RL) = true ->
  check_pm_scales n K dl LN cls = true ->
  check_signs_distinct d k dU (zrows RU) = true ->
  check_nonzero_cols d k dG (zrows CG) = true ->
  check_nosub d k dU dG dL RU CG RL p F FS = true ->
  ~ absorbable_ungated sigma d n k identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hodd H0 Hun Hg Hpm Hs HG Hn.
  exact (cert_r8_no_width_condition_pm sigma d n k K k _ _ _ _ _ _ _ _ _ _ _ _ _ Hodd H0 Hun Hg Hpm Hs HG
           (nosub_no_width_at_k d k dU dG dL RU CG RL p F FS Hn)).
Qed.
