(** * Positivity and monotonicity facts on [Phi] and GELU's even part

    Facts on [gelu_even z = z (Phi z - 1/2)]; its ridge uniqueness (R5 for
    GELU) is proved in [ridge/GeluRidge.v].  Main results:
    - [gauss_density_pos], [gauss_density_le_0] ([0 < density <= density 0]);
    - [Phi_diff] ([Phi y - Phi x = RInt density x y]), [Phi_strict_incr],
      [Phi_gt_half], [Phi_lt_half], [Phi_half_bound]
      ([|Phi z - 1/2| <= |z| density 0]);
    - [gelu_even_pos] ([gelu_even z > 0] for [z <> 0]),
      [gelu_even_strict_incr] (on [[0, oo)]), [gelu_even_abs_lt],
      [gelu_even_superlinear] ([c gelu_even z < gelu_even (c z)] for
      [c > 1], [z <> 0]), [gelu_even_le_sq], [gelu_even_derive];
    - [gelu_even_not_dilation_abs]: the dilation relation [2 e(x) = e(2x)]
      that refutes ridge uniqueness for [|.|/2] (see [Ridge.v]) fails for
      [e = gelu_even]. *)

From Coq Require Import Reals Lra.
From Coquelicot Require Import Coquelicot.
From Absorb Require Import ActivationDefs Activations.
Open Scope R_scope.

(** ** The density *)

Lemma gauss_density_pos t : 0 < gauss_density t.
Proof.
  unfold gauss_density. apply Rdiv_lt_0_compat; [apply exp_pos | apply sqrt_2PI_pos].
Qed.

Lemma gauss_density_le_0 t : gauss_density t <= gauss_density 0.
Proof.
  unfold gauss_density. unfold Rdiv. apply Rmult_le_compat_r.
  - apply Rlt_le, Rinv_0_lt_compat, sqrt_2PI_pos.
  - destruct (Req_dec t 0) as [->|Ht]; [lra|].
    apply Rlt_le, exp_increasing.
    assert (0 < t * t) by (apply Rsqr_pos_lt; exact Ht). lra.
Qed.

Lemma gauss_density_continuous_pt t : continuity_pt gauss_density t.
Proof. apply continuity_pt_filterlim, gauss_density_continuous. Qed.

(** ** Monotonicity of [Phi] *)

Lemma Phi_diff x y : Phi y - Phi x = RInt gauss_density x y.
Proof.
  unfold Phi.
  pose proof (RInt_Chasles (V := R_CompleteNormedModule) gauss_density 0 x y
                (gauss_density_ex_RInt 0 x) (gauss_density_ex_RInt x y)) as H.
  change plus with Rplus in H. simpl in H. rewrite <- H. ring.
Qed.

Lemma RInt_gauss_density_pos x y : x < y -> 0 < RInt gauss_density x y.
Proof.
  intros Hxy. apply RInt_gt_0; [exact Hxy | |].
  - intros; apply gauss_density_pos.
  - intros; apply gauss_density_continuous.
Qed.

Lemma Phi_strict_incr x y : x < y -> Phi x < Phi y.
Proof.
  intros Hxy. pose proof (Phi_diff x y). pose proof (RInt_gauss_density_pos x y Hxy). lra.
Qed.

Lemma Phi_gt_half z : 0 < z -> / 2 < Phi z.
Proof. intros H. rewrite <- Phi_0. apply Phi_strict_incr, H. Qed.

Lemma Phi_lt_half z : z < 0 -> Phi z < / 2.
Proof. intros H. rewrite <- Phi_0. apply Phi_strict_incr, H. Qed.

Lemma Phi_half_bound_pos z : 0 <= z -> Phi z - / 2 <= z * gauss_density 0.
Proof.
  intros Hz. rewrite <- Phi_0, Phi_diff.
  apply Rle_trans with (RInt (fun _ => gauss_density 0) 0 z).
  - apply RInt_le; [exact Hz | apply gauss_density_ex_RInt | apply ex_RInt_const |].
    intros; apply gauss_density_le_0.
  - rewrite RInt_const. unfold scal. simpl. unfold mult. simpl. lra.
Qed.

Lemma Phi_half_bound z : Rabs (Phi z - / 2) <= Rabs z * gauss_density 0.
Proof.
  destruct (Rle_or_lt 0 z) as [Hz | Hz].
  - pose proof (Phi_half_bound_pos z Hz).
    assert (/ 2 <= Phi z) by (destruct Hz as [Hz | <-];
      [apply Rlt_le, Phi_gt_half, Hz | rewrite Phi_0; lra]).
    rewrite !Rabs_right by lra. exact H.
  - pose proof (Phi_half_bound_pos (- z) ltac:(lra)). rewrite Phi_opp in H.
    pose proof (Phi_lt_half z Hz).
    rewrite Rabs_left by lra. rewrite Rabs_left by lra. lra.
Qed.

(** ** GELU's even part *)

Lemma gelu_even_0 : gelu_even 0 = 0.
Proof. unfold gelu_even. ring. Qed.

Lemma gelu_even_pos z : z <> 0 -> 0 < gelu_even z.
Proof.
  intros Hz. unfold gelu_even.
  destruct (Rle_or_lt 0 z) as [H | H].
  - assert (0 < z) by lra. pose proof (Phi_gt_half z ltac:(lra)).
    apply Rmult_lt_0_compat; lra.
  - pose proof (Phi_lt_half z H).
    replace (z * (Phi z - / 2)) with ((- z) * (/ 2 - Phi z)) by ring.
    apply Rmult_lt_0_compat; lra.
Qed.

Lemma gelu_even_nonneg z : 0 <= gelu_even z.
Proof.
  destruct (Req_dec z 0) as [->|H].
  - rewrite gelu_even_0. lra.
  - apply Rlt_le, gelu_even_pos, H.
Qed.

Lemma gelu_even_strict_incr x y : 0 <= x < y -> gelu_even x < gelu_even y.
Proof.
  intros [Hx Hxy]. unfold gelu_even.
  pose proof (Phi_strict_incr x y Hxy).
  assert (/ 2 <= Phi x).
  { destruct Hx as [Hx | <-]; [apply Rlt_le, Phi_gt_half, Hx | rewrite Phi_0; lra]. }
  apply Rle_lt_trans with (y * (Phi x - / 2)).
  - apply Rmult_le_compat_r; lra.
  - apply Rmult_lt_compat_l; lra.
Qed.

Lemma gelu_even_Rabs z : gelu_even (Rabs z) = gelu_even z.
Proof.
  destruct (Rle_or_lt 0 z) as [H | H].
  - rewrite Rabs_right by lra. reflexivity.
  - rewrite Rabs_left by lra. apply gelu_even_even.
Qed.

Lemma gelu_even_abs_lt x y : Rabs x < Rabs y -> gelu_even x < gelu_even y.
Proof.
  intros H. rewrite <- (gelu_even_Rabs x), <- (gelu_even_Rabs y).
  apply gelu_even_strict_incr. split; [apply Rabs_pos | exact H].
Qed.

(** Strict superlinearity under dilations. *)
Lemma gelu_even_superlinear c z : 1 < c -> z <> 0 -> c * gelu_even z < gelu_even (c * z).
Proof.
  intros Hc Hz. unfold gelu_even.
  destruct (Rle_or_lt 0 z) as [H | H].
  - assert (0 < z) by lra.
    assert (z < c * z) by nra.
    pose proof (Phi_strict_incr z (c * z) ltac:(lra)).
    assert (0 < c * z * (Phi (c * z) - Phi z)) by (apply Rmult_lt_0_compat; nra).
    nra.
  - assert (c * z < z) by nra.
    pose proof (Phi_strict_incr (c * z) z ltac:(lra)).
    assert (0 < (- (c * z)) * (Phi z - Phi (c * z))) by (apply Rmult_lt_0_compat; nra).
    nra.
Qed.

Lemma gelu_even_le_sq z : gelu_even z <= z * z * gauss_density 0.
Proof.
  unfold gelu_even.
  apply Rle_trans with (Rabs z * Rabs (Phi z - / 2)).
  - rewrite <- Rabs_mult. apply Rle_abs.
  - replace (z * z * gauss_density 0) with (Rabs z * (Rabs z * gauss_density 0)).
    + apply Rmult_le_compat_l; [apply Rabs_pos | apply Phi_half_bound].
    + rewrite <- Rmult_assoc, <- Rabs_mult, Rabs_right; [ring|].
      apply Rle_ge, Rle_0_sqr.
Qed.

Lemma gelu_even_derive z :
  is_derive gelu_even z (Phi z - / 2 + z * gauss_density z).
Proof.
  unfold gelu_even.
  replace (Phi z - / 2 + z * gauss_density z)
    with (1 * (Phi z - / 2) + z * (gauss_density z - 0)) by ring.
  apply (is_derive_mult (fun z => z) (fun z => Phi z - / 2)).
  - apply (is_derive_id (K := R_AbsRing)).
  - apply (is_derive_minus (K := R_AbsRing) (V := R_NormedModule) Phi (fun _ => / 2)).
    + apply Phi_derive.
    + apply (is_derive_const (K := R_AbsRing) (V := R_NormedModule)).
  - intros; apply Rmult_comm.
Qed.

Lemma gelu_even_continuous z : continuity_pt gelu_even z.
Proof. apply continuity_pt_of_ex_derive. eexists. apply gelu_even_derive. Qed.

(** The two-term relation [2 e(x) - e(2 x) = 0] behind
    [Ridge.not_ridge_unique_even_abs] fails for GELU's even part. *)
Lemma gelu_even_not_dilation_abs : ~ (forall x, 2 * gelu_even x - gelu_even (2 * x) = 0).
Proof.
  intros H. specialize (H 1).
  pose proof (gelu_even_superlinear 2 1 ltac:(lra) ltac:(lra)). lra.
Qed.

(** ** Instances *)

Example gelu_even_1_pos : 0 < gelu_even 1.
Proof. apply gelu_even_pos. lra. Qed.

Example Phi_1_gt_Phi_0 : Phi 0 < Phi 1.
Proof. apply Phi_strict_incr. lra. Qed.

Example gelu_even_dilation_2 : 2 * gelu_even (-1) < gelu_even (2 * -1).
Proof. apply gelu_even_superlinear; lra. Qed.
