(** * Certificates of R8 / R8' verdicts for concrete blocks

    A concrete block [x + B sigma(A x)] is given by integer lists
    [A = zmat_rows dA RA] ([n] rows of length [d]) and
    [B = zmat_cols dB CB] ([n] columns of length [d]).  A certificate is
    data plus boolean checks evaluated by [vm_compute]; each lemma below
    turns [check = true] facts into the real statement:
    - [cert_r8_absorbable_relu]: a grouping with a zero-kink tail and width
      data at [m] give [absorbable_ungated relu d n m identity A B];
    - [cert_r8_absorbable_pm] (any [sigma] with [sigma z - sigma (-z) = z]
      and [sigma 0 = 0]) and its instances [cert_r8_absorbable_gelu],
      [cert_r8_absorbable_gelu_tanh], [cert_r8_absorbable_silu];
    - [cert_r8_absorbable_wide_relu] / [cert_r8_absorbable_wide_pm] (+ GELU,
      GELU_tanh, SiLU instances): at [m >= k + 2d] no width data is needed;
    - [cert_r8_below_classes_relu] / [cert_r8_below_classes_pm] (+ GELU,
      GELU_tanh, SiLU instances): a canonical grouping with [k] classes and
      [m < k] refute absorbability at width [m];
    - [cert_r8_no_width_condition_relu] / [cert_r8_no_width_condition_pm]
      (+ instances): a canonical grouping and any proof of
      [~ width_condition d k m U G L] refute absorbability at width [m];
    - [no_width_condition_at_k]: at [m = k] such a proof follows from the
      absence of a subset [S] with [L + sum_{t in S} G_t U_t^T = 0]
      (via [width_condition_at_k]).
    Usage for large data: state each check as its own lemma proved by
    [vm_compute; reflexivity] (or the tactic
    [vm_cast_no_check (eq_refl true)]) and pass the lemmas; a bare
    [eq_refl] makes unification and the kernel use slow lazy reduction.
    Examples at the end run the checkers on the paper's counterexample
    [x + relu(x) + relu(2x)] (a wrong certificate is rejected) and apply
    every certificate lemma. *)

From Coq Require Import Reals ZArith Lia Lra List.
From Absorb Require Import Sums Blocks ActivationDefs Activations ReluSubmatrix Ridge SubmatrixIff
  SiluRidge GeluTanhRidge.
From Absorb.decide Require Import RidgeForm WidthSufficient R8Absorbable R8 GroupingDrop.
From Absorb.certify Require Import ZMatrices GroupingCheck WidthCheck SignsCheck.
Import ListNotations.
Open Scope R_scope.

(** ** Absorbable *)

Theorem cert_r8_absorbable_relu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL
    T S r dE CE dP CP dQ RQ :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_width_data d k m dL RL dG CG dU RU T S r dE CE dP CP dQ RQ = true ->
  absorbable_ungated relu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hg Hw.
  apply
    (absorbable_of_ridge relu d n m _ _ (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL) k).
  - exact
      (grouping_drop_sound_relu d n k K _ _ _ _ _ _ _
        (check_grouping_drop_sound _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Hg)).
  - exact
      (width_condition_sufficient relu d k m _ _ _ relu_odd_part
        (check_width_data_sound _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Hw)).
Qed.

Theorem cert_r8_absorbable_pm (sigma : R -> R) d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL
    T S r dE CE dP CP dQ RQ :
  odd_part_identity sigma -> sigma 0 = 0 ->
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_width_data d k m dL RL dG CG dU RU T S r dE CE dP CP dQ RQ = true ->
  absorbable_ungated sigma d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hodd H0 Hg Hpm Hw.
  apply
    (absorbable_of_ridge sigma d n m _ _ (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL) k).
  - exact (grouping_drop_sound_pm sigma d n k K _ _ _ _ _ _ _ Hodd H0
             (check_grouping_drop_pm_sound _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Hg Hpm)).
  - exact
      (width_condition_sufficient sigma d k m _ _ _ Hodd
        (check_width_data_sound _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Hw)).
Qed.

Corollary cert_r8_absorbable_gelu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL
    T S r dE CE dP CP dQ RQ :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_width_data d k m dL RL dG CG dU RU T S r dE CE dP CP dQ RQ = true ->
  absorbable_ungated gelu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof. apply cert_r8_absorbable_pm; [exact gelu_odd_part | exact gelu_zero]. Qed.

Corollary cert_r8_absorbable_gelu_tanh d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL
    T S r dE CE dP CP dQ RQ :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_width_data d k m dL RL dG CG dU RU T S r dE CE dP CP dQ RQ = true ->
  absorbable_ungated gelu_tanh d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof. apply cert_r8_absorbable_pm; [exact gelu_tanh_odd_part | exact gelu_tanh_zero]. Qed.

Corollary cert_r8_absorbable_silu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL
    T S r dE CE dP CP dQ RQ :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_width_data d k m dL RL dG CG dU RU T S r dE CE dP CP dQ RQ = true ->
  absorbable_ungated silu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof. apply cert_r8_absorbable_pm; [exact silu_odd_part | exact (proj2 silu_vanishing)]. Qed.

(** Wide targets [m >= k + 2d] need no width data ([ridge_form_wide]). *)
Theorem cert_r8_absorbable_wide_relu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  Nat.leb (k + 2 * d) m = true ->
  absorbable_ungated relu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hg Hm.
  apply
    (absorbable_of_ridge relu d n m _ _ (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL) k).
  - exact
      (grouping_drop_sound_relu d n k K _ _ _ _ _ _ _
        (check_grouping_drop_sound _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Hg)).
  - exact (ridge_absorbable_wide relu d k m _ _ _ relu_odd_part (proj1 (Nat.leb_le _ _) Hm)).
Qed.

Theorem cert_r8_absorbable_wide_pm (sigma : R -> R) d n k K m dA RA dB CB dU RU dl LN cls dG
    CG dL RL :
  odd_part_identity sigma -> sigma 0 = 0 ->
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  Nat.leb (k + 2 * d) m = true ->
  absorbable_ungated sigma d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hodd H0 Hg Hpm Hm.
  apply
    (absorbable_of_ridge sigma d n m _ _ (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL) k).
  - exact (grouping_drop_sound_pm sigma d n k K _ _ _ _ _ _ _ Hodd H0
             (check_grouping_drop_pm_sound _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Hg Hpm)).
  - exact (ridge_absorbable_wide sigma d k m _ _ _ Hodd (proj1 (Nat.leb_le _ _) Hm)).
Qed.

Corollary cert_r8_absorbable_wide_gelu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true -> Nat.leb (k + 2 * d) m = true ->
  absorbable_ungated gelu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof. apply cert_r8_absorbable_wide_pm; [exact gelu_odd_part | exact gelu_zero]. Qed.

Corollary cert_r8_absorbable_wide_gelu_tanh d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true -> Nat.leb (k + 2 * d) m = true ->
  absorbable_ungated gelu_tanh d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof. apply cert_r8_absorbable_wide_pm; [exact gelu_tanh_odd_part | exact gelu_tanh_zero]. Qed.

Corollary cert_r8_absorbable_wide_silu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true -> Nat.leb (k + 2 * d) m = true ->
  absorbable_ungated silu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof. apply cert_r8_absorbable_wide_pm; [exact silu_odd_part | exact (proj2 silu_vanishing)]. Qed.

(** ** Not absorbable: no width condition *)

Theorem cert_r8_no_width_condition_relu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_lines_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  ~ width_condition d k m (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL) ->
  ~ absorbable_ungated relu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hg Hl HG Hw. rewrite (relu_absorbable_iff_width_drop d n k K m _ _ _ _ _ _ _
    (check_grouping_drop_sound _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Hg)
    (check_lines_distinct_sound _ _ _ _ Hl) (check_nonzero_cols_sound _ _ _ _ HG)).
  exact Hw.
Qed.

Theorem cert_r8_no_width_condition_pm (sigma : R -> R) d n k K m dA RA dB CB dU RU dl LN cls dG
    CG dL RL :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_signs_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  ~ width_condition d k m (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL) ->
  ~ absorbable_ungated sigma d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hodd H0 Hun Hg Hpm Hs HG Hw.
  rewrite (pm_absorbable_iff_width_drop sigma d n k K m _ _ _ _ _ _ _
    Hodd H0 Hun (check_grouping_drop_pm_sound _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Hg Hpm)
    (check_signs_distinct_sound _ _ _ _ Hs) (check_nonzero_cols_sound _ _ _ _ HG)).
  exact Hw.
Qed.

Corollary cert_r8_no_width_condition_gelu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_signs_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  ~ width_condition d k m (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL) ->
  ~ absorbable_ungated gelu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  apply cert_r8_no_width_condition_pm;
    [exact gelu_odd_part | exact gelu_zero | exact gelu_even_part_unique].
Qed.

Corollary cert_r8_no_width_condition_gelu_tanh d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_signs_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  ~ width_condition d k m (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL) ->
  ~ absorbable_ungated gelu_tanh d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  apply cert_r8_no_width_condition_pm;
    [exact gelu_tanh_odd_part | exact gelu_tanh_zero | exact gelu_tanh_ridge_unique].
Qed.

Corollary cert_r8_no_width_condition_silu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_signs_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  ~ width_condition d k m (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL) ->
  ~ absorbable_ungated silu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  apply cert_r8_no_width_condition_pm;
    [exact silu_odd_part | exact (proj2 silu_vanishing) | exact silu_ridge_unique].
Qed.

(** ** Not absorbable: below the number of classes *)

Lemma not_width_below_classes d k m (U G L : mat) : (m < k)%nat -> ~ width_condition d k m U G L.
Proof. intros Hm Hw. pose proof (width_condition_classes d k m U G L Hw). lia. Qed.

Theorem cert_r8_below_classes_relu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_lines_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  Nat.ltb m k = true ->
  ~ absorbable_ungated relu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hg Hl HG Hm.
  apply (cert_r8_no_width_condition_relu d n k K m _ _ _ _ _ _ _ _ _ _ _ _ _ Hg Hl HG).
  apply not_width_below_classes, Nat.ltb_lt, Hm.
Qed.

Theorem cert_r8_below_classes_pm (sigma : R -> R) d n k K m dA RA dB CB dU RU dl LN cls dG
    CG dL RL :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_signs_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  Nat.ltb m k = true ->
  ~ absorbable_ungated sigma d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hodd H0 Hun Hg Hpm Hs HG Hm.
  apply
    (cert_r8_no_width_condition_pm sigma d n k K m _ _ _ _ _ _ _ _ _ _ _ _ _ Hodd H0 Hun Hg
      Hpm Hs HG).
  apply not_width_below_classes, Nat.ltb_lt, Hm.
Qed.

Corollary cert_r8_below_classes_gelu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_signs_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  Nat.ltb m k = true ->
  ~ absorbable_ungated gelu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  apply cert_r8_below_classes_pm;
    [exact gelu_odd_part | exact gelu_zero | exact gelu_even_part_unique].
Qed.

Corollary cert_r8_below_classes_gelu_tanh d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_signs_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  Nat.ltb m k = true ->
  ~ absorbable_ungated gelu_tanh d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  apply cert_r8_below_classes_pm;
    [exact gelu_tanh_odd_part | exact gelu_tanh_zero | exact gelu_tanh_ridge_unique].
Qed.

Corollary cert_r8_below_classes_silu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_signs_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  Nat.ltb m k = true ->
  ~ absorbable_ungated silu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  apply cert_r8_below_classes_pm;
    [exact silu_odd_part | exact (proj2 silu_vanishing) | exact silu_ridge_unique].
Qed.

(** ** At [m = k]: the bridge to a no-subset refutation *)

Corollary no_width_condition_at_k d k (U G L : mat) :
  (forall S : nat -> bool,
     ~ (forall i j, (i < d)%nat -> (j < d)%nat -> L i j + masked_outer k S G U i j = 0)) ->
  ~ width_condition d k k U G L.
Proof. intros H Hw. destruct (width_condition_at_k d k U G L Hw) as [S HS]. exact (H S HS). Qed.

(** ** Examples *)

(** The paper's counterexample [x + relu(x) + relu(2x)]: [d = 1], [n = 2],
    one class [u = 1] with scales [1, 2], kink [3], linear part [1]. *)
Definition ex_RA : list (list Z) := [[1%Z]; [2%Z]].
Definition ex_CB : list (list Z) := [[1%Z]; [1%Z]].
Definition ex_RU : list (list Z) := [[1%Z]].
Definition ex_LN : list Z := [1%Z; 2%Z].
Definition ex_cls : list nat := [0%nat; 0%nat].
Definition ex_CG : list (list Z) := [[3%Z]].
Definition ex_RL : list (list Z) := [[1%Z]].

Example ex_grouping_ok :
  check_grouping_drop 1 2 1 1 1 ex_RA 1 ex_CB 1 ex_RU 1 ex_LN ex_cls 1 ex_CG 1 ex_RL = true.
Proof. vm_compute. reflexivity. Qed.

(** A wrong kink [2] is rejected. *)
Example ex_grouping_wrong_kink :
  check_grouping_drop 1 2 1 1 1 ex_RA 1 ex_CB 1 ex_RU 1 ex_LN ex_cls 1 [[2%Z]] 1 ex_RL = false.
Proof. vm_compute. reflexivity. Qed.

(** A wrong scale ([a_2 = 3 u]) is rejected. *)
Example ex_grouping_wrong_scale :
  check_grouping_drop 1 2 1 1 1 ex_RA 1 ex_CB 1 ex_RU 1 [1%Z; 3%Z] ex_cls 1 ex_CG 1 ex_RL = false.
Proof. vm_compute. reflexivity. Qed.

(** A wrong linear part, a dropped row with [a_i <> 0] and [b_i <> 0], and a
    non-positive denominator are rejected. *)
Example ex_grouping_wrong_L :
  check_grouping_drop 1 2 1 1 1 ex_RA 1 ex_CB 1 ex_RU 1 ex_LN ex_cls 1 ex_CG 1 [[2%Z]] = false.
Proof. vm_compute. reflexivity. Qed.

Example ex_grouping_wrong_drop :
  check_grouping_drop 1 2 1 1 1 ex_RA 1 ex_CB 1 ex_RU 1 ex_LN [0%nat; 1%nat] 1 [[1%Z]] 1
    ex_RL = false.
Proof. vm_compute. reflexivity. Qed.

Example ex_grouping_wrong_den :
  check_grouping_drop 1 2 1 1 1 ex_RA 1 ex_CB 1 ex_RU 1 ex_LN ex_cls 0%Z ex_CG 1 ex_RL = false.
Proof. vm_compute. reflexivity. Qed.

(** Denominators: [A = [[1/2]; [1]]], [B = [[1/3, 1/3]]], scales [1/2, 1],
    kink [1/2 * 1/3 + 1/3 = 1/2]. *)
Example ex_grouping_denominators :
  check_grouping_drop 1 2 1 1 2 ex_RA 3 ex_CB 1 ex_RU 2 ex_LN ex_cls 2 [[1%Z]] 1 ex_RL = true /\
  check_grouping_drop 1 2 1 1 2 ex_RA 3 ex_CB 1 ex_RU 2 ex_LN ex_cls 1 [[1%Z]] 1 ex_RL = false.
Proof. vm_compute. split; reflexivity. Qed.

(** Width [2]: [T = {0}], [S = {}], [r = 0], [E = L = 1]. *)
Example ex_width_ok :
  check_width_data 1 1 2 1 ex_RL 1 ex_CG 1 ex_RU [true] [false] 0 1 [[1%Z]] 1 [] 1 [] = true.
Proof. vm_compute. reflexivity. Qed.

(** The same data claimed at width [1] is rejected ([k + |T| = 2 > 1]),
    and so is a wrong [E]. *)
Example ex_width_too_narrow :
  check_width_data 1 1 1 1 ex_RL 1 ex_CG 1 ex_RU [true] [false] 0 1 [[1%Z]] 1 [] 1 [] = false.
Proof. vm_compute. reflexivity. Qed.

Example ex_width_wrong_E :
  check_width_data 1 1 2 1 ex_RL 1 ex_CG 1 ex_RU [true] [false] 0 1 [[2%Z]] 1 [] 1 [] = false.
Proof. vm_compute. reflexivity. Qed.

Example ex_canonical_ok :
  check_lines_distinct 1 1 1 ex_RU = true /\ check_nonzero_cols 1 1 1 ex_CG = true /\
  check_signs_distinct 1 1 1 ex_RU = true.
Proof. vm_compute. repeat split. Qed.

(** Two parallel directions, two opposite directions, a zero kink: rejected. *)
Example ex_canonical_wrong :
  check_lines_distinct 2 2 1 [[1%Z; 2%Z]; [(-2)%Z; (-4)%Z]] = false /\
  check_signs_distinct 2 2 1 [[1%Z; 2%Z]; [(-1)%Z; (-2)%Z]] = false /\
  check_nonzero_cols 2 1 1 [[0%Z; 0%Z]] = false.
Proof. vm_compute. repeat split. Qed.

(** Distinct lines in dimension 2, and directions distinct up to sign. *)
Example ex_canonical_2d :
  check_lines_distinct 2 3 1 [[1%Z; 0%Z]; [0%Z; 1%Z]; [1%Z; 1%Z]] = true /\
  check_signs_distinct 2 2 1 [[1%Z; 2%Z]; [2%Z; 4%Z]] = true /\
  check_lines_distinct 2 2 1 [[1%Z; 2%Z]; [2%Z; 4%Z]] = false.
Proof. vm_compute. repeat split. Qed.

Example ex_relu_absorbable_2 :
  absorbable_ungated relu 1 2 2 identity (zmat_rows 1 ex_RA) (zmat_cols 1 ex_CB).
Proof.
  exact (cert_r8_absorbable_relu 1 2 1 1 2 1 ex_RA 1 ex_CB 1 ex_RU 1 ex_LN ex_cls 1 ex_CG 1 ex_RL
           [true] [false] 0 1 [[1%Z]] 1 [] 1 [] ex_grouping_ok ex_width_ok).
Qed.

Example ex_relu_not_absorbable_0 :
  ~ absorbable_ungated relu 1 2 0 identity (zmat_rows 1 ex_RA) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_below_classes_relu 1 2 1 1 0 1 ex_RA 1 ex_CB 1 ex_RU 1 ex_LN ex_cls 1 ex_CG 1 ex_RL);
    vm_compute; reflexivity.
Qed.

(** [L + s G U = 1 + 3 s <> 0] for [s] in [{0, 1}]. *)
Lemma ex_no_subset (S : nat -> bool) :
  ~ (forall i j, (i < 1)%nat -> (j < 1)%nat ->
       zmat_rows 1 ex_RL i j + masked_outer 1 S (zmat_cols 1 ex_CG) (zmat_rows 1 ex_RU) i j = 0).
Proof.
  intros H. specialize (H 0%nat 0%nat ltac:(lia) ltac:(lia)).
  unfold masked_outer, zmat_rows, zmat_cols in H. simpl in H.
  destruct (S 0%nat); lra.
Qed.

Example ex_relu_not_absorbable_1 :
  ~ absorbable_ungated relu 1 2 1 identity (zmat_rows 1 ex_RA) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_no_width_condition_relu 1 2 1 1 1 1 ex_RA 1 ex_CB 1 ex_RU 1 ex_LN ex_cls 1
      ex_CG 1 ex_RL);
    [vm_compute; reflexivity .. |].
  apply no_width_condition_at_k. exact ex_no_subset.
Qed.

(** GELU family: [x + s(x) + s(-x) = 2 s(x)] (one class, scales [1, -1],
    kink [2], linear part [0]) is absorbable at width [1]. *)
Example ex_pm_grouping_ok :
  check_grouping_drop 1 2 1 1 1 [[1%Z]; [(-1)%Z]] 1 ex_CB 1 ex_RU 1 [1%Z; (-1)%Z] ex_cls 1 [[2%Z]] 1
    [[0%Z]] = true /\
  check_pm_scales 2 1 1 [1%Z; (-1)%Z] ex_cls = true /\
  check_pm_scales 2 1 1 ex_LN ex_cls = false.
Proof. vm_compute. repeat split. Qed.

Example ex_gelu_absorbable_1 :
  absorbable_ungated gelu 1 2 1 identity (zmat_rows 1 [[1%Z]; [(-1)%Z]]) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_absorbable_gelu 1 2 1 1 1 1 [[1%Z]; [(-1)%Z]] 1 ex_CB 1 ex_RU 1 [1%Z; (-1)%Z] ex_cls
           1 [[2%Z]] 1 [[0%Z]] [false] [false] 0 1 [] 1 [] 1 []); vm_compute; reflexivity.
Qed.

Example ex_gelu_tanh_absorbable_1 :
  absorbable_ungated gelu_tanh 1 2 1 identity (zmat_rows 1 [[1%Z]; [(-1)%Z]]) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_absorbable_gelu_tanh 1 2 1 1 1 1 [[1%Z]; [(-1)%Z]] 1 ex_CB 1 ex_RU 1
      [1%Z; (-1)%Z] ex_cls
           1 [[2%Z]] 1 [[0%Z]] [false] [false] 0 1 [] 1 [] 1 []); vm_compute; reflexivity.
Qed.

Example ex_silu_absorbable_1 :
  absorbable_ungated silu 1 2 1 identity (zmat_rows 1 [[1%Z]; [(-1)%Z]]) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_absorbable_silu 1 2 1 1 1 1 [[1%Z]; [(-1)%Z]] 1 ex_CB 1 ex_RU 1 [1%Z; (-1)%Z] ex_cls
           1 [[2%Z]] 1 [[0%Z]] [false] [false] 0 1 [] 1 [] 1 []); vm_compute; reflexivity.
Qed.

(** [x + s(x) + s(x) = x + 2 s(x)]: absorbable at width [2], not at [1], not at [0]. *)
Definition ex2_RA : list (list Z) := [[1%Z]; [1%Z]].
Definition ex2_LN : list Z := [1%Z; 1%Z].

Example ex_gelu_absorbable_2 :
  absorbable_ungated gelu 1 2 2 identity (zmat_rows 1 ex2_RA) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_absorbable_gelu 1 2 1 1 2 1 ex2_RA 1 ex_CB 1 ex_RU 1 ex2_LN ex_cls 1 [[2%Z]] 1 ex_RL
           [true] [false] 0 1 [[1%Z]] 1 [] 1 []); vm_compute; reflexivity.
Qed.

Lemma ex2_no_subset (S : nat -> bool) :
  ~ (forall i j, (i < 1)%nat -> (j < 1)%nat ->
       zmat_rows 1 ex_RL i j + masked_outer 1 S (zmat_cols 1 [[2%Z]]) (zmat_rows 1 ex_RU) i j = 0).
Proof.
  intros H. specialize (H 0%nat 0%nat ltac:(lia) ltac:(lia)).
  unfold masked_outer, zmat_rows, zmat_cols in H. simpl in H.
  destruct (S 0%nat); lra.
Qed.

Example ex_gelu_not_absorbable_1 :
  ~ absorbable_ungated gelu 1 2 1 identity (zmat_rows 1 ex2_RA) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_no_width_condition_gelu 1 2 1 1 1 1 ex2_RA 1 ex_CB 1 ex_RU 1 ex2_LN ex_cls 1
      [[2%Z]] 1 ex_RL);
    [vm_compute; reflexivity .. |].
  apply no_width_condition_at_k. exact ex2_no_subset.
Qed.

Example ex_gelu_tanh_not_absorbable_1 :
  ~ absorbable_ungated gelu_tanh 1 2 1 identity (zmat_rows 1 ex2_RA) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_no_width_condition_gelu_tanh 1 2 1 1 1 1 ex2_RA 1 ex_CB 1 ex_RU 1 ex2_LN ex_cls 1
      [[2%Z]] 1 ex_RL);
    [vm_compute; reflexivity .. |].
  apply no_width_condition_at_k. exact ex2_no_subset.
Qed.

Example ex_silu_not_absorbable_1 :
  ~ absorbable_ungated silu 1 2 1 identity (zmat_rows 1 ex2_RA) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_no_width_condition_silu 1 2 1 1 1 1 ex2_RA 1 ex_CB 1 ex_RU 1 ex2_LN ex_cls 1
      [[2%Z]] 1 ex_RL);
    [vm_compute; reflexivity .. |].
  apply no_width_condition_at_k. exact ex2_no_subset.
Qed.

Example ex_gelu_not_absorbable_0 :
  ~ absorbable_ungated gelu 1 2 0 identity (zmat_rows 1 ex2_RA) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_below_classes_gelu 1 2 1 1 0 1 ex2_RA 1 ex_CB 1 ex_RU 1 ex2_LN ex_cls 1
      [[2%Z]] 1 ex_RL);
    vm_compute; reflexivity.
Qed.

Example ex_gelu_tanh_not_absorbable_0 :
  ~ absorbable_ungated gelu_tanh 1 2 0 identity (zmat_rows 1 ex2_RA) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_below_classes_gelu_tanh 1 2 1 1 0 1 ex2_RA 1 ex_CB 1 ex_RU 1 ex2_LN ex_cls 1
      [[2%Z]] 1 ex_RL);
    vm_compute; reflexivity.
Qed.

Example ex_silu_not_absorbable_0 :
  ~ absorbable_ungated silu 1 2 0 identity (zmat_rows 1 ex2_RA) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_below_classes_silu 1 2 1 1 0 1 ex2_RA 1 ex_CB 1 ex_RU 1 ex2_LN ex_cls 1
      [[2%Z]] 1 ex_RL);
    vm_compute; reflexivity.
Qed.

(** Classes may be written as integers ([map Z.to_nat]), which keeps large
    certificates free of unary numerals. *)
Example ex_relu_absorbable_2_zcls :
  absorbable_ungated relu 1 2 2 identity (zmat_rows 1 ex_RA) (zmat_cols 1 ex_CB).
Proof.
  apply (cert_r8_absorbable_relu 1 2 1 1 2 1 ex_RA 1 ex_CB 1 ex_RU 1 ex_LN (map Z.to_nat [0%Z; 0%Z])
           1 ex_CG 1 ex_RL [true] [false] 0 1 [[1%Z]] 1 [] 1 []); vm_compute; reflexivity.
Qed.

(** Width [k + 2d = 3] without width data. *)
Example ex_relu_absorbable_wide :
  absorbable_ungated relu 1 2 3 identity (zmat_rows 1 ex_RA) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_absorbable_wide_relu 1 2 1 1 3 1 ex_RA 1 ex_CB 1 ex_RU 1 ex_LN ex_cls 1 ex_CG 1 ex_RL);
    vm_compute; reflexivity.
Qed.

Example ex_silu_absorbable_wide :
  absorbable_ungated silu 1 2 3 identity (zmat_rows 1 ex2_RA) (zmat_cols 1 ex_CB).
Proof.
  apply
    (cert_r8_absorbable_wide_silu 1 2 1 1 3 1 ex2_RA 1 ex_CB 1 ex_RU 1 ex2_LN ex_cls 1
      [[2%Z]] 1 ex_RL);
    vm_compute; reflexivity.
Qed.

(** A dropped class: [x + relu(x) - relu(-x) = 2x] (classes [K = 1], kept
    [k = 0]; the only class has kink [1 - 1 = 0]; [L = 2]) is absorbable at
    width [2] ([r = 1], [P = 2], [Q = 1]) and not at width [1]. *)
Example ex_drop_absorbable_2 :
  absorbable_ungated relu 1 2 2 identity (zmat_rows 1 [[1%Z]; [(-1)%Z]])
    (zmat_cols 1 [[1%Z]; [(-1)%Z]]).
Proof.
  apply
    (cert_r8_absorbable_relu 1 2 0 1 2 1 [[1%Z]; [(-1)%Z]] 1 [[1%Z]; [(-1)%Z]] 1 ex_RU 1
      [1%Z; (-1)%Z] ex_cls
           1 [[0%Z]] 1 [[2%Z]] [] [] 1 1 [] 1 [[2%Z]] 1 [[1%Z]]); vm_compute; reflexivity.
Qed.
