(** * R5 (=>) for gelu_fast: the tanh-GELU family with any positive scale (R10)

    [tanh_gelu k alpha z = z (1 + tanh (k (z + alpha z^3))) / 2].
    [ActivationDefs.gelu_tanh] is [tanh_gelu (sqrt (2/PI)) 0.044715]
    ([gelu_tanh_is_tanh_gelu]) and [gelu_fast] is
    [tanh_gelu 0.7978845608 0.044715] ([gelu_fast_is_tanh_gelu]).
    The argument of [GeluTanhRidge.v] uses only [k > 0] and [alpha >= 0]:
    the even part is
    [z (1/2 - 1/(1 + exp (2 k (z + alpha z^3))))], and after division by
    [t > 0] a vanishing sum of dilations is a vanishing sum of logistic
    tails with rates [2 k |c_j|] (the cubic terms only widen the gaps),
    which [SiluRidge.logistic_sum_unique] handles.

    Main results (for every [k > 0], [alpha >= 0]):
    - [tanh_gelu_odd_part], [tanh_gelu_even_dilations_unique],
      [tanh_gelu_ridge_unique : ridge_unique_even (even_part (tanh_gelu k alpha))];
    - [tanh_gelu_R5]: the whole package of [results/R5Package.v] for every
      member, with [tanh_gelu_absorbable_iff_submatrix],
      [tanh_gelu_generic_not_absorbable_below];
    - instance gelu_fast: [gelu_fast_ridge_unique], [gelu_fast_R5] and the
      uniform names [gelu_fast_absorbable_iff_submatrix],
      [gelu_fast_absorbable_generic_submatrix],
      [gelu_fast_generic_not_absorbable_below], [gelu_fast_absorbable_null]
      (below-width null: [package_below_null gelu_fast_R5]); non-vacuity [gelu_fast_R5_instances]
      (both sides of the equivalence, width bound) and
      [tanh_gelu_1_0_R5_instances] (a third member);
      [gelu_tanh_ridge_unique_from_family] re-derives GELU_tanh's ridge
      uniqueness from the family. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix.
From Absorb Require Import R5Package GeluRidge SiluRidge.
From Absorb Require Import MoreActivationDefs MoreActivations.
Open Scope R_scope.

(** The family. *)
Definition tanh_gelu (k alpha z : R) : R :=
  z * (1 + tanh (k * (z + alpha * (z * z * z)))) / 2.

Lemma gelu_tanh_is_tanh_gelu z : gelu_tanh z = tanh_gelu (sqrt (2 / PI)) (44715 / 1000000) z.
Proof. reflexivity. Qed.

Lemma gelu_fast_is_tanh_gelu z : gelu_fast z = tanh_gelu gelu_fast_scale gelu_fast_cubic z.
Proof.
  unfold gelu_fast, tanh_gelu, gelu_fast_scale, gelu_fast_cubic.
  replace (7978845608 / 10000000000 * z * (1 + 44715 / 1000000 * z * z))
    with (7978845608 / 10000000000 * (z + 44715 / 1000000 * (z * z * z))) by ring.
  field.
Qed.

Lemma gelu_fast_scale_pos : 0 < gelu_fast_scale.
Proof. unfold gelu_fast_scale. lra. Qed.

Lemma gelu_fast_cubic_nonneg : 0 <= gelu_fast_cubic.
Proof. unfold gelu_fast_cubic. lra. Qed.

(** ** The family: odd part, even part, dilations *)

Lemma tanh_gelu_odd_part k alpha : odd_part_identity (tanh_gelu k alpha).
Proof.
  intros z. unfold tanh_gelu.
  replace (k * (- z + alpha * (- z * - z * - z))) with (- (k * (z + alpha * (z * z * z))))
    by ring.
  rewrite tanh_opp. field.
Qed.

Lemma tanh_gelu_zero k alpha : tanh_gelu k alpha 0 = 0.
Proof. unfold tanh_gelu. field. Qed.

Definition tanh_gelu_exponent (k alpha z : R) : R := 2 * (k * (z + alpha * (z * z * z))).

Lemma tanh_gelu_even_formula k alpha z :
  even_part (tanh_gelu k alpha) z = z * (/ 2 - / (1 + exp (tanh_gelu_exponent k alpha z))).
Proof.
  unfold even_part, tanh_gelu, tanh_gelu_exponent, tanh, sinh, cosh.
  set (u := k * (z + alpha * (z * z * z))).
  replace (2 * u) with (u + u) by ring. rewrite exp_plus, exp_Ropp.
  pose proof (exp_pos u). field. split; [nra | lra].
Qed.

Lemma tanh_gelu_even_abs k alpha c t :
  even_part (tanh_gelu k alpha) (c * t) = even_part (tanh_gelu k alpha) (Rabs c * t).
Proof.
  unfold Rabs. destruct (Rcase_abs c); [|reflexivity].
  rewrite <- (even_part_even (tanh_gelu k alpha) (tanh_gelu_odd_part k alpha) (c * t)).
  f_equal. ring.
Qed.

Lemma cube_le (x y : R) : 0 <= x -> x <= y -> x * x * x <= y * y * y.
Proof.
  intros Hx Hxy. apply Rmult_le_compat; [nra | lra | | lra].
  apply Rmult_le_compat; lra.
Qed.

(** The exponent dominates the linear rate [2 k x] for [x >= 0]. *)
Lemma tanh_gelu_exponent_ge k alpha x : 0 < k -> 0 <= alpha -> 0 <= x ->
  2 * k * x <= tanh_gelu_exponent k alpha x.
Proof.
  intros Hk Ha Hx. unfold tanh_gelu_exponent.
  assert (H3 : 0 <= x * x * x) by (apply Rmult_le_pos; [nra | lra]).
  assert (0 <= k * (alpha * (x * x * x))) by (apply Rmult_le_pos; [lra | nra]).
  lra.
Qed.

(** ... and the gaps between exponents dominate the gaps between rates. *)
Lemma tanh_gelu_exponent_gap k alpha x y : 0 < k -> 0 <= alpha -> 0 <= x -> x <= y ->
  2 * k * y - 2 * k * x <= tanh_gelu_exponent k alpha y - tanh_gelu_exponent k alpha x.
Proof.
  intros Hk Ha Hx Hxy. unfold tanh_gelu_exponent.
  pose proof (cube_le x y Hx Hxy) as Hc.
  assert (0 <= k * (alpha * (y * y * y - x * x * x))) by (apply Rmult_le_pos; [lra | nra]).
  lra.
Qed.

Theorem tanh_gelu_even_dilations_unique : forall k alpha, 0 < k -> 0 <= alpha ->
  forall N (c beta : nat -> R),
  (forall j, (j < N)%nat -> c j <> 0) ->
  (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> Rabs (c i) <> Rabs (c j)) ->
  (forall t, sumn N (fun j => beta j * even_part (tanh_gelu k alpha) (c j * t)) = 0) ->
  forall j, (j < N)%nat -> beta j = 0.
Proof.
  intros k alpha Hk Ha N c beta Hc Hd Hs j Hj.
  assert (Hw : beta j * Rabs (c j) = 0).
  { apply (logistic_sum_unique N (fun j => 2 * k * Rabs (c j))
             (fun j => beta j * Rabs (c j))
             (fun j t => tanh_gelu_exponent k alpha (Rabs (c j) * t)));
      [| | | | | exact Hj].
    - intros i Hi. pose proof (Rabs_pos_lt _ (Hc i Hi)). apply Rmult_lt_0_compat; lra.
    - intros i l Hi Hl Hne E. apply (Hd i l Hi Hl Hne).
      apply (Rmult_eq_reg_l (2 * k)); [exact E | lra].
    - intros i t _ Ht. pose proof (Rabs_pos (c i)).
      replace (2 * k * Rabs (c i) * t) with (2 * k * (Rabs (c i) * t)) by ring.
      apply tanh_gelu_exponent_ge; [exact Hk | exact Ha | nra].
    - intros i l t Hi Hl Hlt Ht.
      assert (Hil : Rabs (c i) < Rabs (c l)) by nra.
      pose proof (Rabs_pos (c i)).
      replace ((2 * k * Rabs (c l) - 2 * k * Rabs (c i)) * t)
        with (2 * k * (Rabs (c l) * t) - 2 * k * (Rabs (c i) * t)) by ring.
      apply tanh_gelu_exponent_gap; [exact Hk | exact Ha | nra | nra].
    - intros t Ht. apply (Rmult_eq_reg_l t); [|lra].
      rewrite Rmult_0_r, <- (Hs t), <- sumn_scal_l. apply sumn_ext. intros i _.
      rewrite tanh_gelu_even_abs, tanh_gelu_even_formula. ring. }
  apply Rmult_integral in Hw. destruct Hw as [Hw|Hw]; [exact Hw|].
  exfalso. pose proof (Rabs_pos_lt (c j) (Hc j Hj)). lra.
Qed.

Theorem tanh_gelu_ridge_unique : forall k alpha, 0 < k -> 0 <= alpha ->
  ridge_unique_even (even_part (tanh_gelu k alpha)).
Proof.
  intros k alpha Hk Ha.
  apply ridge_unique_of_dilations, tanh_gelu_even_dilations_unique; assumption.
Qed.

(** ** R5 for the family: the whole package of [results/R5Package.v] *)

Theorem tanh_gelu_R5 : forall k alpha, 0 < k -> 0 <= alpha -> R5_package (tanh_gelu k alpha).
Proof.
  intros k alpha Hk Ha.
  exact (even_R5 (tanh_gelu k alpha) (tanh_gelu_odd_part k alpha) (tanh_gelu_zero k alpha)
           (tanh_gelu_ridge_unique k alpha Hk Ha)).
Qed.

Theorem tanh_gelu_absorbable_iff_submatrix : forall k alpha d n A B,
  0 < k -> 0 <= alpha -> generic d n A B ->
  (absorbable_ungated (tanh_gelu k alpha) d n n identity A B <->
   exists S, submatrix_cond d n S A B).
Proof. intros k alpha d n A B Hk Ha. exact (package_iff (tanh_gelu_R5 k alpha Hk Ha) d n A B). Qed.

Theorem tanh_gelu_generic_not_absorbable_below : forall k alpha d n m A B,
  0 < k -> 0 <= alpha -> generic d n A B -> (m < n)%nat ->
  ~ absorbable_ungated (tanh_gelu k alpha) d n m identity A B.
Proof.
  intros k alpha d n m A B Hk Ha. exact (package_below (tanh_gelu_R5 k alpha Hk Ha) d n m A B).
Qed.

(** ** gelu_fast *)

Theorem gelu_fast_ridge_unique : ridge_unique_even (even_part gelu_fast).
Proof.
  apply (ridge_unique_even_ext (even_part (tanh_gelu gelu_fast_scale gelu_fast_cubic))).
  - intros z. unfold even_part. rewrite gelu_fast_is_tanh_gelu. reflexivity.
  - exact (tanh_gelu_ridge_unique _ _ gelu_fast_scale_pos gelu_fast_cubic_nonneg).
Qed.

(** R5 for gelu_fast: the whole package, and its uniform names. *)
Definition gelu_fast_R5 : R5_package gelu_fast :=
  even_R5 gelu_fast gelu_fast_odd_part gelu_fast_zero gelu_fast_ridge_unique.
Definition gelu_fast_absorbable_iff_submatrix := package_iff gelu_fast_R5.
Definition gelu_fast_absorbable_generic_submatrix := package_forward gelu_fast_R5.
Definition gelu_fast_generic_not_absorbable_below := package_below gelu_fast_R5.
Definition gelu_fast_absorbable_null := package_null gelu_fast_R5.

(** GELU_tanh is the member [k = sqrt (2/PI)] of the family. *)
Corollary gelu_tanh_ridge_unique_from_family : ridge_unique_even (even_part gelu_tanh).
Proof.
  apply (ridge_unique_even_ext (even_part (tanh_gelu (sqrt (2 / PI)) (44715 / 1000000)))).
  - intros z. reflexivity.
  - apply tanh_gelu_ridge_unique; [|lra].
    apply sqrt_lt_R0, Rdiv_lt_0_compat; [lra | exact PI_RGT_0].
Qed.

(** ** Non-vacuity *)

(** The family's hypotheses hold for gelu_fast's constants. *)
Example gelu_fast_family_constants : 0 < gelu_fast_scale /\ 0 <= gelu_fast_cubic.
Proof. exact (conj gelu_fast_scale_pos gelu_fast_cubic_nonneg). Qed.

(** Dilations [c = 1, -2] of gelu_fast's even part (with zero weights). *)
Example tanh_gelu_even_dilations_instance :
  let c := fun j : nat => if Nat.eq_dec j 0 then 1 else -2 in
  (forall j, (j < 2)%nat -> c j <> 0) /\
  (forall i j, (i < 2)%nat -> (j < 2)%nat -> i <> j -> Rabs (c i) <> Rabs (c j)) /\
  (forall t,
    sumn 2 (fun j => 0 * even_part (tanh_gelu gelu_fast_scale gelu_fast_cubic) (c j * t)) = 0).
Proof.
  destruct silu_even_dilations_instance as [H1 [H2 _]].
  split; [exact H1|]. split; [exact H2|]. intros t. simpl. ring.
Qed.

(** A member of the family that is neither GELU_tanh nor gelu_fast
    ([k = 1], [alpha = 0], i.e. [z (1 + tanh z) / 2]): both sides and the
    width bound. *)
Example tanh_gelu_1_0_R5_instances : R5_instances (tanh_gelu 1 0).
Proof. apply package_instances, tanh_gelu_R5; lra. Qed.

(** gelu_fast: both sides of the equivalence and the width bound:
    [d = n = 1], [A = 1]; [B = -1] is absorbable, [B = 1] is not, nor at
    width 0. *)
Example gelu_fast_R5_instances : R5_instances gelu_fast := package_instances gelu_fast_R5.
