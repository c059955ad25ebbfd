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
      the block is not absorbable at width [k].
    Examples: the paper's counterexample is not absorbable at width 1
    ([cw_relu_not_absorbable_1]), nor [x + 2 gelu(x)] ([cw_gelu_not_absorbable_1]);
    tampered no-subset data is rejected ([cw_nosub_tampered]). *)

From Coq Require Import Reals ZArith Lia Lra List Uint63.
From Absorb Require Import Sums Blocks ActivationDefs Activations ReluSubmatrix Ridge.
From Absorb Require Import IntSums Modular SubsetTargets CheckNoSubset.
From Absorb.decide Require Import RidgeForm R8 GroupingDrop.
From Absorb.certify Require Import ZMatrices GroupingCheck WidthCheck SignsCheck R8Certify.
Import ListNotations.
Open Scope R_scope.

(** A primitive-integer matrix as signed [Z] entries ([zval], computed by [zval_fast]). *)
Definition zrows (M : list (list int)) : list (list Z) := map (map zval_fast) M.

Lemma zrows_spec M : zrows M = map (map zval) M.
Proof. unfold zrows. apply map_ext. intros r. apply map_ext. apply zval_fast_spec. Qed.

Lemma zent_zrows M i j : zent (zrows M) i j = zentry M i j.
Proof.
  rewrite zrows_spec. unfold zent, zentry. change (@nil Z) with (map zval (@nil int)).
  rewrite map_nth. rewrite <- zval_0. rewrite map_nth. reflexivity.
Qed.

Lemma zmat_rows_zrows den M i j : zmat_rows den (zrows M) i j = mat_of_rows den M i j.
Proof. rewrite zmat_rows_zent, zent_zrows. reflexivity. Qed.

Lemma zmat_cols_zrows den M i j : zmat_cols den (zrows M) i j = mat_of_cols den M i j.
Proof. rewrite zmat_cols_zent, zent_zrows. reflexivity. Qed.

(** No subset of the ridges cancels [L]: no width condition at [k]. *)
Theorem nosub_no_width_at_k d k dU dG dL RU CG RL p F FS :
  check_nosub d k dU dG dL RU CG RL p F FS = true ->
  ~ width_condition d k k (zmat_rows dU (zrows RU)) (zmat_cols dG (zrows CG))
    (zmat_rows dL (zrows RL)).
Proof.
  intros H. apply no_width_condition_at_k. intros S HS.
  apply (check_nosub_sound d k dU dG dL RU CG RL p F FS H S).
  intros i j Hi Hj. specialize (HS i j Hi Hj). unfold masked_outer in HS. unfold subset_sum.
  rewrite zmat_rows_zrows in HS.
  rewrite
    (sumn_ext k _
      (fun t => if S t then mat_of_cols dG CG i t * mat_of_rows dU RU t j else 0)) in HS.
  - lra.
  - intros t Ht. rewrite zmat_cols_zrows, zmat_rows_zrows. reflexivity.
Qed.

(** ** Certificate lemmas at width [k] *)

Theorem cert_r8_nosub_relu d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL p F FS :
  check_grouping_drop d n k K dA RA dB CB dU (zrows RU) dl LN cls dG (zrows CG) dL
    (zrows RL) = true ->
  check_lines_distinct d k dU (zrows RU) = true ->
  check_nonzero_cols d k dG (zrows CG) = true ->
  check_nosub d k dU dG dL RU CG RL p F FS = true ->
  ~ absorbable_ungated relu d n k identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hg Hl HG Hn.
  exact (cert_r8_no_width_condition_relu d n k K k _ _ _ _ _ _ _ _ _ _ _ _ _ Hg Hl HG
                               (nosub_no_width_at_k d k dU dG dL RU CG RL p F FS Hn)).
Qed.

Theorem cert_r8_nosub_pm (sigma : R -> R) d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL p F FS :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  check_grouping_drop d n k K dA RA dB CB dU (zrows RU) dl LN cls dG (zrows CG) dL
    (zrows RL) = true ->
  check_pm_scales n K dl LN cls = true ->
  check_signs_distinct d k dU (zrows RU) = true ->
  check_nonzero_cols d k dG (zrows CG) = true ->
  check_nosub d k dU dG dL RU CG RL p F FS = true ->
  ~ absorbable_ungated sigma d n k identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hodd H0 Hun Hg Hpm Hs HG Hn.
  exact
    (cert_r8_no_width_condition_pm sigma d n k K k _ _ _ _ _ _ _ _ _ _ _ _ _ Hodd H0 Hun
      Hg Hpm Hs HG
           (nosub_no_width_at_k d k dU dG dL RU CG RL p F FS Hn)).
Qed.

(** ** Examples *)

(** The paper's counterexample [x + relu(x) + relu(2x)]: one ridge ([U = 1],
    kink [G = 3], [L = 1]); no [S] gives [1 + 3 s = 0], so it is not absorbable
    at width [k = 1] (it is at width 2, [R8Certify.ex_relu_absorbable_2]). *)
Definition cw_RA : list (list int) := [[1%uint63]; [2%uint63]].
Definition cw_CB : list (list int) := [[1%uint63]; [1%uint63]].
Definition cw_RU : list (list int) := [[1%uint63]].
Definition cw_CG : list (list int) := [[3%uint63]].
Definition cw_RL : list (list int) := [[1%uint63]].
Definition cw_FS : list (option nat * functional) := [(Some 0%nat, [(0%nat, [1336866829%uint63])])].

Example cw_nosub_ok : check_nosub 1 1 1 1 1 cw_RU cw_CG cw_RL 2005300243%uint63 [] cw_FS = true.
Proof. vm_compute. reflexivity. Qed.

Example cw_relu_not_absorbable_1 :
  ~ absorbable_ungated relu 1 2 1 identity (zmat_rows 1 (zrows cw_RA)) (zmat_cols 1 (zrows cw_CB)).
Proof.
  apply
    (cert_r8_nosub_relu 1 2 1 1 1 (zrows cw_RA) 1 (zrows cw_CB) 1 cw_RU 1 [1%Z; 2%Z] [0%nat; 0%nat]
           1 cw_CG 1 cw_RL 2005300243%uint63 [] cw_FS); vm_compute; reflexivity.
Qed.

(** A tampered certificate is rejected: no functionals, or a wrong target [L = -3]
    (then [S = {0}] works and no refutation exists). *)
Example cw_nosub_tampered :
  check_nosub 1 1 1 1 1 cw_RU cw_CG cw_RL 2005300243%uint63 [] [] = false /\
  check_nosub 1 1 1 1 1 cw_RU cw_CG [[Uint63.opp 3%uint63]] 2005300243%uint63 [] cw_FS = false.
Proof. split; vm_compute; reflexivity. Qed.

(** GELU family: [x + s(x) + s(x) = x + 2 s(x)] ([G = 2], [L = 1]): not absorbable
    at width [1] for GELU (and so for any sigma with the odd-part identity and ridge
    uniqueness of its even part). *)
Definition cw2_RA : list (list int) := [[1%uint63]; [1%uint63]].
Definition cw2_CG : list (list int) := [[2%uint63]].
Definition cw2_FS : list (option nat * functional) := [(Some 0%nat, [(0%nat, [928075639%uint63])])].

Example cw_gelu_not_absorbable_1 :
  ~ absorbable_ungated gelu 1 2 1 identity (zmat_rows 1 (zrows cw2_RA)) (zmat_cols 1 (zrows cw_CB)).
Proof.
  apply (cert_r8_nosub_pm gelu 1 2 1 1 1 (zrows cw2_RA) 1 (zrows cw_CB) 1 cw_RU 1 [1%Z; 1%Z]
           [0%nat; 0%nat] 1 cw2_CG 1 cw_RL 1856151277%uint63 [] cw2_FS gelu_odd_part gelu_zero
           gelu_even_part_unique);
    vm_compute; reflexivity.
Qed.
