(** * Ridge uniqueness for GELU_tanh's even part (R5 (=>) for GELU_tanh, unconditionally)

    With [k = sqrt (2 / PI)] and [alpha = 0.044715], GELU_tanh's even part is
    [even_part gelu_tanh z = z tanh (k (z + alpha z^3)) / 2
                           = z (1/2 - 1/(1 + exp (2 k (z + alpha z^3))))].
    After dividing by [t > 0], a vanishing sum of dilations is a vanishing
    sum of logistic tails with exponents [p_j t = 2 k (|c_j| t + alpha |c_j|^3 t^3)],
    which [SiluRidge.logistic_sum_unique] handles (rates [a_j = 2 k |c_j|];
    the cubic terms only widen the gaps).

    Main results: [gelu_tanh_even_dilations_unique],
    [gelu_tanh_ridge_unique : ridge_unique_even (even_part gelu_tanh)], and
    R5 for GELU_tanh: the package [gelu_tanh_R5] of [results/R5Package.v]
    and its uniform names [gelu_tanh_absorbable_iff_submatrix],
    [gelu_tanh_absorbable_generic_submatrix],
    [gelu_tanh_generic_not_absorbable_below], [gelu_tanh_absorbable_null];
    non-vacuity [gelu_tanh_R5_instances]. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry Ridge ReluSubmatrix.
From Absorb Require Import R5Package GeluRidge SiluRidge.
Open Scope R_scope.

(** The constant [sqrt (2 / PI)] and the exponent of the logistic form. *)
Definition gelu_tanh_scale : R := sqrt (2 / PI).

Lemma gelu_tanh_scale_pos : 0 < gelu_tanh_scale.
Proof.
  unfold gelu_tanh_scale. apply sqrt_lt_R0. apply Rdiv_lt_0_compat; [lra | exact PI_RGT_0].
Qed.

Definition gelu_tanh_exponent (z : R) : R :=
  2 * (gelu_tanh_scale * (z + 44715 / 1000000 * (z * z * z))).

Lemma gelu_tanh_even_formula z :
  even_part gelu_tanh z = z * (/ 2 - / (1 + exp (gelu_tanh_exponent z))).
Proof.
  unfold even_part, gelu_tanh, gelu_tanh_exponent, tanh, sinh, cosh.
  fold gelu_tanh_scale.
  set (u := gelu_tanh_scale * (z + 44715 / 1000000 * (z * z * z))).
  replace (2 * u) with (u + u) by ring. rewrite exp_plus, exp_Ropp.
  pose proof (exp_pos u). field. split; [nra | lra].
Qed.

Lemma gelu_tanh_even_abs c t : even_part gelu_tanh (c * t) = even_part gelu_tanh (Rabs c * t).
Proof. exact (even_part_abs gelu_tanh gelu_tanh_odd_part c t). Qed.

Lemma gelu_tanh_cube_le (x y : R) : 0 <= x -> x <= y -> x * x * x <= y * y * y.
Proof.
  intros Hx Hxy. apply Rmult_le_compat; [nra | lra | | lra].
  apply Rmult_le_compat; lra.
Qed.

Theorem gelu_tanh_even_dilations_unique : dilations_independent (even_part gelu_tanh).
Proof.
  intros N c beta Hc Hd.
  pose proof gelu_tanh_scale_pos as Hk.
  apply (logistic_dilations_unique (even_part gelu_tanh) gelu_tanh_exponent N
           (fun j => 2 * gelu_tanh_scale * Rabs (c j)) c beta
           gelu_tanh_even_formula gelu_tanh_even_abs Hc).
  - intros i Hi. pose proof (Rabs_pos_lt _ (Hc i Hi)). apply Rmult_lt_0_compat; lra.
  - intros i k Hi Hk' Hne E. apply (Hd i k Hi Hk' Hne).
    apply (Rmult_eq_reg_l (2 * gelu_tanh_scale)); [exact E | lra].
  - intros i t _ Ht. unfold gelu_tanh_exponent.
    pose proof (Rabs_pos (c i)) as Hc0.
    assert (0 <= Rabs (c i) * t * (Rabs (c i) * t) * (Rabs (c i) * t)).
    { assert (0 <= Rabs (c i) * t) by nra. apply Rmult_le_pos; [nra | lra]. }
    nra.
  - intros i k t Hi Hk' Hlt Ht. unfold gelu_tanh_exponent.
    assert (Hik : Rabs (c i) < Rabs (c k)) by nra.
    pose proof (Rabs_pos (c i)) as Hc0.
    pose proof (gelu_tanh_cube_le (Rabs (c i) * t) (Rabs (c k) * t) ltac:(nra) ltac:(nra)).
    nra.
Qed.

Theorem gelu_tanh_ridge_unique : ridge_unique_even (even_part gelu_tanh).
Proof. apply ridge_unique_of_dilations, gelu_tanh_even_dilations_unique. Qed.

(** ** R5 for GELU_tanh

    From [gelu_tanh_ridge_unique], the package of [results/R5Package.v]
    ([even_R5]) and its uniform names; the [_uncond] names are the former
    ones, kept for existing certificates. *)

Definition gelu_tanh_R5 : R5_package gelu_tanh :=
  even_R5 gelu_tanh gelu_tanh_odd_part gelu_tanh_zero gelu_tanh_ridge_unique.
Definition gelu_tanh_absorbable_iff_submatrix := package_iff gelu_tanh_R5.
Definition gelu_tanh_absorbable_iff_submatrix_uncond := gelu_tanh_absorbable_iff_submatrix.
Definition gelu_tanh_absorbable_generic_submatrix := package_forward gelu_tanh_R5.
Definition gelu_tanh_generic_not_absorbable_below := package_below gelu_tanh_R5.
Definition gelu_tanh_generic_not_absorbable_below_uncond := gelu_tanh_generic_not_absorbable_below.
Definition gelu_tanh_absorbable_null := package_null gelu_tanh_R5.
(** ** Non-vacuity *)

(** Dilations [c = 1, -2] of GELU_tanh's even part. *)
Example gelu_tanh_even_dilations_instance :
  let c := fun j : nat => if Nat.eq_dec j 0 then 1 else -2 in
  (forall j, (j < 2)%nat -> c j <> 0) /\
  (forall i j, (i < 2)%nat -> (j < 2)%nat -> i <> j -> Rabs (c i) <> Rabs (c j)) /\
  (forall t, sumn 2 (fun j => 0 * even_part gelu_tanh (c j * t)) = 0).
Proof.
  destruct silu_even_dilations_instance as [H1 [H2 _]].
  split; [exact H1|]. split; [exact H2|]. intros t. simpl. ring.
Qed.

(** GELU_tanh: both sides of R5 and the width bound, at [d = n = 1] ([R5_instances]). *)
Example gelu_tanh_R5_instances : R5_instances gelu_tanh := package_instances gelu_tanh_R5.
