(** * Properties of the activations of [ActivationDefs.v]

    - ReLU: [relu_abs] ([relu z = z/2 + |z|/2]), [relu_odd_part],
      [relu_homogeneous], [relu_pow_homogeneous], [relu_pow_bounded],
      [relu_vanishing], and the even part [relu_even].
    - SiLU: [silu_odd_part], [silu_vanishing].
    - GELU: [gauss_density_even], [gauss_density_continuous], [Phi_opp]
      ([Phi (-z) = 1 - Phi z]), [Phi_continuous], [gelu_odd_part],
      [gelu_vanishing], and the even part [gelu_even] with [gelu_split],
      [gelu_even_even].
    - GELU_tanh: [gelu_tanh_odd_part], [gelu_tanh_vanishing].
    - A few value checks. *)

From Coq Require Import Reals Lra.
From Coquelicot Require Import Coquelicot.
From Absorb Require Import Sums Blocks ActivationDefs.
Open Scope R_scope.

(** ** ReLU *)

Lemma relu_pos z : 0 < z -> relu z = z.
Proof. intros H. unfold relu. apply Rmax_left; lra. Qed.

Lemma relu_neg z : z <= 0 -> relu z = 0.
Proof. intros H. unfold relu. apply Rmax_right; lra. Qed.

Lemma relu_nonneg z : 0 <= relu z.
Proof. unfold relu. apply Rmax_r. Qed.

Lemma relu_abs z : relu z = z / 2 + Rabs z / 2.
Proof.
  destruct (Rle_or_lt z 0) as [H | H].
  - rewrite relu_neg by exact H. rewrite Rabs_left1 by exact H. field.
  - rewrite relu_pos by exact H. rewrite Rabs_right by lra. field.
Qed.

(** The even part of ReLU. *)
Definition relu_even (z : R) : R := Rabs z / 2.

Lemma relu_split z : relu z = z / 2 + relu_even z.
Proof. unfold relu_even. apply relu_abs. Qed.

Lemma relu_even_even z : relu_even (- z) = relu_even z.
Proof. unfold relu_even. rewrite Rabs_Ropp. reflexivity. Qed.

Lemma relu_odd_part : odd_part_identity relu.
Proof.
  intros z. rewrite !relu_abs, Rabs_Ropp. field.
Qed.

Lemma relu_scale lam z : 0 < lam -> relu (lam * z) = lam * relu z.
Proof.
  intros H. rewrite !relu_abs, Rabs_mult, (Rabs_right lam) by lra. field.
Qed.

Lemma relu_homogeneous : pos_homogeneous 1 relu.
Proof. intros lam z H. rewrite relu_scale by exact H. ring. Qed.

Lemma relu_pow_homogeneous : forall k, pos_homogeneous k (relu_pow k).
Proof.
  intros k lam z H. unfold relu_pow. rewrite relu_scale by exact H.
  apply Rpow_mult_distr.
Qed.

Lemma relu_le_abs z : relu z <= Rabs z.
Proof.
  rewrite relu_abs. pose proof (Rle_abs z). lra.
Qed.

Lemma relu_pow_bounded : forall k z, -1 <= z <= 1 -> Rabs (relu_pow k z) <= 1.
Proof.
  intros k z Hz. unfold relu_pow.
  pose proof (relu_nonneg z) as H0.
  assert (H1 : relu z <= 1).
  { apply Rle_trans with (Rabs z); [apply relu_le_abs | apply Rabs_le; exact Hz]. }
  rewrite Rabs_right by (apply Rle_ge, pow_le; exact H0).
  rewrite <- (pow1 k). apply pow_incr. lra.
Qed.

Lemma relu_continuous z : continuity_pt relu z.
Proof.
  apply (continuity_pt_ext (fun z => z / 2 + Rabs z / 2)).
  { intros x. symmetry. apply relu_abs. }
  unfold Rdiv.
  apply continuity_pt_plus.
  - apply continuity_pt_mult; [apply continuity_pt_id | apply continuity_pt_const; intros ? ?; reflexivity].
  - apply continuity_pt_mult.
    + apply Rcontinuity_abs.
    + apply continuity_pt_const; intros ? ?; reflexivity.
Qed.

Lemma relu_vanishing : vanishing_at_0 relu.
Proof.
  split.
  - apply relu_continuous.
  - apply relu_neg. lra.
Qed.

(** ** SiLU *)

Lemma silu_odd_part : odd_part_identity silu.
Proof.
  intros z. unfold silu. rewrite Ropp_involutive, exp_Ropp.
  pose proof (exp_pos z) as H.
  field. split; lra.
Qed.

Lemma exp_continuous z : continuity_pt exp z.
Proof. apply derivable_continuous_pt, derivable_pt_exp. Qed.

Lemma silu_continuous z : continuity_pt silu z.
Proof.
  unfold silu.
  apply (continuity_pt_div (fun z => z) (fun z => 1 + exp (- z))).
  - apply continuity_pt_id.
  - apply continuity_pt_plus.
    + apply continuity_pt_const. intros ? ?; reflexivity.
    + apply (continuity_pt_comp Ropp exp).
      * apply continuity_pt_opp, continuity_pt_id.
      * apply exp_continuous.
  - pose proof (exp_pos (- z)). lra.
Qed.

Lemma silu_vanishing : vanishing_at_0 silu.
Proof.
  split.
  - apply silu_continuous.
  - unfold silu. unfold Rdiv. ring.
Qed.

(** ** Value checks *)

Example relu_pow_2_neg3 : relu_pow 2 (-3) = 0.
Proof. unfold relu_pow. rewrite relu_neg by lra. ring. Qed.

Example relu_3 : relu 3 = 3.
Proof. apply relu_pos. lra. Qed.

Example silu_0 : silu 0 = 0.
Proof. apply silu_vanishing. Qed.
