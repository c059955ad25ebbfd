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
    - [silu_zero], [gelu_zero], [gelu_tanh_zero]: value 0 at 0.
    - [continuity_pt_of_ex_derive] (differentiable implies continuous) and
      [tanh_ex_derive], used for [Phi], [gelu_tanh] and the activations of
      [MoreActivations.v] and [GeluPositive.v].
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
  - apply continuity_pt_mult;
      [apply continuity_pt_id | apply continuity_pt_const; intros ? ?; reflexivity].
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

(** Differentiable at [z] (Coquelicot's [ex_derive]) implies continuous at [z]. *)
Lemma continuity_pt_of_ex_derive (f : R -> R) (z : R) : ex_derive f z -> continuity_pt f z.
Proof.
  intros H. apply continuity_pt_filterlim.
  exact (ex_derive_continuous (K := R_AbsRing) (V := R_NormedModule) f z H).
Qed.

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

(** ** The Gaussian density and its CDF [Phi] *)

Lemma sqrt_2PI_pos : 0 < sqrt (2 * PI).
Proof. apply sqrt_lt_R0. pose proof PI_RGT_0. lra. Qed.

Lemma gauss_density_even t : gauss_density (- t) = gauss_density t.
Proof. unfold gauss_density. replace (- t * - t) with (t * t) by ring. reflexivity. Qed.

Lemma gauss_density_continuous t : continuous gauss_density t.
Proof.
  apply (ex_derive_continuous (K := R_AbsRing) (V := R_NormedModule)). unfold gauss_density.
  auto_derive. pose proof sqrt_2PI_pos. lra.
Qed.

Lemma gauss_density_ex_RInt a b : ex_RInt gauss_density a b.
Proof.
  apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _.
  apply gauss_density_continuous.
Qed.

Lemma RInt_gauss_density_opp z :
  RInt gauss_density 0 (- z) = - RInt gauss_density 0 z.
Proof.
  assert (H : is_RInt (fun y => opp (gauss_density (- y))) 0 z
                (RInt gauss_density (- 0) (- z))).
  { apply (is_RInt_comp_opp (V := R_NormedModule)).
    apply (RInt_correct (V := R_CompleteNormedModule)), gauss_density_ex_RInt. }
  rewrite Ropp_0 in H.
  apply (is_RInt_unique (V := R_CompleteNormedModule)) in H. rewrite <- H.
  rewrite (RInt_ext _ (fun y => opp (gauss_density y)))
    by (intros; rewrite gauss_density_even; reflexivity).
  apply (RInt_opp (V := R_CompleteNormedModule)), gauss_density_ex_RInt.
Qed.

Lemma Phi_opp z : Phi (- z) = 1 - Phi z.
Proof.
  unfold Phi. rewrite RInt_gauss_density_opp. field.
Qed.

Lemma RInt_gauss_density_derive z :
  is_derive (fun b => RInt gauss_density 0 b) z (gauss_density z).
Proof.
  apply (is_derive_RInt (V := R_CompleteNormedModule) gauss_density
           (fun b => RInt gauss_density 0 b) 0 z).
  - apply filter_forall. intros b.
    apply (RInt_correct (V := R_CompleteNormedModule)), gauss_density_ex_RInt.
  - apply gauss_density_continuous.
Qed.

Lemma Phi_derive z : is_derive Phi z (gauss_density z).
Proof.
  unfold Phi.
  replace (gauss_density z) with (0 + gauss_density z) by ring.
  apply (is_derive_plus (K := R_AbsRing) (V := R_NormedModule)
           (fun _ => / 2) (fun b => RInt gauss_density 0 b)).
  - apply (is_derive_const (K := R_AbsRing) (V := R_NormedModule)).
  - apply RInt_gauss_density_derive.
Qed.

Lemma Phi_continuous z : continuity_pt Phi z.
Proof. apply continuity_pt_of_ex_derive. eexists. apply Phi_derive. Qed.

(** ** GELU *)

Lemma gelu_odd_part : odd_part_identity gelu.
Proof.
  intros z. unfold gelu. rewrite Phi_opp. ring.
Qed.

Lemma gelu_continuous z : continuity_pt gelu z.
Proof.
  unfold gelu. apply (continuity_pt_mult (fun z => z) Phi).
  - apply continuity_pt_id.
  - apply Phi_continuous.
Qed.

Lemma gelu_vanishing : vanishing_at_0 gelu.
Proof.
  split.
  - apply gelu_continuous.
  - unfold gelu. ring.
Qed.

(** The even part of GELU. *)
Definition gelu_even (z : R) : R := z * (Phi z - / 2).

Lemma gelu_split z : gelu z = z / 2 + gelu_even z.
Proof. unfold gelu, gelu_even. field. Qed.

Lemma gelu_even_even z : gelu_even (- z) = gelu_even z.
Proof. unfold gelu_even. rewrite Phi_opp. field. Qed.

Lemma Phi_0 : Phi 0 = / 2.
Proof. unfold Phi. rewrite RInt_point. unfold zero. simpl. ring. Qed.

(** ** GELU_tanh *)

Lemma tanh_opp u : tanh (- u) = - tanh u.
Proof.
  unfold tanh, sinh, cosh. rewrite Ropp_involutive.
  assert (0 < exp u + exp (- u)) by (pose proof (exp_pos u); pose proof (exp_pos (- u)); lra).
  field. lra.
Qed.

Lemma tanh_ex_derive (u : R) : ex_derive tanh u.
Proof.
  unfold tanh, sinh, cosh. auto_derive.
  pose proof (exp_pos u); pose proof (exp_pos (- u)). lra.
Qed.

Lemma gelu_tanh_odd_part : odd_part_identity gelu_tanh.
Proof.
  intros z. unfold gelu_tanh.
  replace (sqrt (2 / PI) * (- z + 44715 / 1000000 * (- z * - z * - z)))
    with (- (sqrt (2 / PI) * (z + 44715 / 1000000 * (z * z * z)))) by ring.
  rewrite tanh_opp. field.
Qed.

Lemma gelu_tanh_continuous z : continuity_pt gelu_tanh z.
Proof.
  apply continuity_pt_of_ex_derive. unfold gelu_tanh. auto_derive. auto using tanh_ex_derive.
Qed.

Lemma gelu_tanh_vanishing : vanishing_at_0 gelu_tanh.
Proof.
  split.
  - apply gelu_tanh_continuous.
  - unfold gelu_tanh. field.
Qed.

(** ** Value at 0 (used by the even-part route of R5) *)

Lemma silu_zero : silu 0 = 0.
Proof. unfold silu. unfold Rdiv. ring. Qed.

Lemma gelu_zero : gelu 0 = 0.
Proof. unfold gelu. ring. Qed.

Lemma gelu_tanh_zero : gelu_tanh 0 = 0.
Proof. unfold gelu_tanh. field. Qed.

(** ** Value checks *)

Example relu_pow_2_neg3 : relu_pow 2 (-3) = 0.
Proof. unfold relu_pow. rewrite relu_neg by lra. ring. Qed.

Example relu_3 : relu 3 = 3.
Proof. apply relu_pos. lra. Qed.

Example silu_0 : silu 0 = 0.
Proof. apply silu_vanishing. Qed.

Example Phi_at_0 : Phi 0 = 1 / 2.
Proof. rewrite Phi_0. field. Qed.

Example gelu_odd_at_1 : gelu 1 - gelu (-1) = 1.
Proof. apply gelu_odd_part. Qed.

Example gelu_tanh_0 : gelu_tanh 0 = 0.
Proof. apply gelu_tanh_vanishing. Qed.
