(** * The Gaussian tail and the exact GELU at infinity (R11 stretch)

    [gelu z = z Phi(z)] with [Phi(z) = 1/2 + RInt gauss_density 0 z]
    ([spec/ActivationDefs.v]).  That [gelu] is asymptotic to ReLU
    ([gelu_relu_asymptotic : relu_asymptotic gelu], in the sense of
    [results/PreNormSigmaBare.v]) needs [Phi(z) -> 1], i.e. the Gaussian
    integral, with a rate: [z (1 - Phi z) -> 0].  Both come from Feynman's
    parametric integral
    [gt_B x = RInt (fun t => exp (-x^2 (1 + t^2) / 2) / (1 + t^2)) 0 1]:
    differentiating under the integral ([is_derive_RInt_param]) and
    substituting [u = x t] give [gt_B' x = - sqrt(2 PI) exp(-x^2/2) (Phi x - 1/2)],
    so [gt_H x = (sqrt(2 PI) (Phi x - 1/2))^2 + 2 gt_B x] has derivative [0]
    and equals [gt_H 0 = 2 atan 1 = PI / 2] ([gt_H_const]).  Hence
    [PI (1 - Phi x) Phi x = gt_B x] ([Phi_tail_identity]), and since
    [0 <= gt_B x <= exp(-x^2/2)]: [0 <= 1 - Phi x <= 2 exp(-x^2/2) / PI] for
    [x >= 0] ([Phi_tail_bound]), [0 <= s (1 - Phi s) <= 4 / (PI s)] for
    [s > 0] ([gelu_tail_le]).  By [Phi (-s) = 1 - Phi s] both
    [gelu s - relu s] and [gelu (-s) - relu (-s)] equal [- s (1 - Phi s)] for
    [s >= 0].  Instances: [x + RMSNorm(x)] on [R^2] and [x + LayerNorm(x)]
    on [R^3] are no bare exact-GELU blocks. *)

From Coq Require Import Reals Lra Lia.
From Coquelicot Require Import Coquelicot.
From Absorb Require Import Sums Blocks BiasBlocks Norms ActivationDefs Activations.
From Absorb Require GeluPositive.
From Absorb Require Import PreNorm PreNormSigmaBare PreNormLayerNormRays.
Open Scope R_scope.

(** The parametric integrand [gt_f x t = exp(-x^2 (1 + t^2) / 2) / (1 + t^2)]. *)
Definition gt_f (x t : R) : R := exp (- (x * x * (1 + t * t)) / 2) / (1 + t * t).

Definition gt_B (x : R) : R := RInt (fun t => gt_f x t) 0 1.

Lemma gt_one_plus_sq_pos t : 0 < 1 + t * t.
Proof. nra. Qed.

Lemma gt_f_derive_x (x t : R) :
  is_derive (fun u => gt_f u t) x (- x * exp (- (x * x * (1 + t * t)) / 2)).
Proof.
  unfold gt_f. pose proof (gt_one_plus_sq_pos t).
  auto_derive; [lra|]. unfold Rdiv. field. lra.
Qed.

Lemma gt_f_ex_derive_t x t : ex_derive (fun t => gt_f x t) t.
Proof.
  unfold gt_f. pose proof (gt_one_plus_sq_pos t). auto_derive. lra.
Qed.

Lemma gt_f_ex_RInt x a b : ex_RInt (fun t => gt_f x t) a b.
Proof.
  apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _.
  apply (ex_derive_continuous (K := R_AbsRing) (V := R_NormedModule)), gt_f_ex_derive_t.
Qed.

Lemma gt_RInt_scal (f : R -> R) a b l : ex_RInt f a b ->
  RInt (fun t => l * f t) a b = l * RInt f a b.
Proof. intros H. exact (RInt_scal f a b l H). Qed.

Lemma gt_RInt_comp_lin (f : R -> R) u v a b : ex_RInt f (u * a + v) (u * b + v) ->
  RInt (fun y => u * f (u * y + v)) a b = RInt f (u * a + v) (u * b + v).
Proof. intros H. exact (RInt_comp_lin f u v a b H). Qed.

Lemma gt_f_Derive_x u v : Derive (fun z => gt_f z v) u = - u * exp (- (u * u * (1 + v * v)) / 2).
Proof. apply is_derive_unique, gt_f_derive_x. Qed.

Lemma gt_sqrt_2PI_pos : 0 < sqrt (2 * PI).
Proof. apply sqrt_lt_R0. pose proof PI_RGT_0. lra. Qed.

Lemma gt_f_Derive_continuous x t :
  continuity_2d_pt (fun u v => Derive (fun z => gt_f z v) u) x t.
Proof.
  apply (continuity_2d_pt_ext (fun u v => - u * exp (- (u * u * (1 + v * v)) / 2))).
  { intros u v. symmetry. apply gt_f_Derive_x. }
  apply continuity_2d_pt_mult.
  - apply continuity_2d_pt_opp, continuity_2d_pt_id1.
  - apply (continuity_1d_2d_pt_comp exp (fun u v => - (u * u * (1 + v * v)) / 2)).
    + apply derivable_continuous_pt, derivable_pt_exp.
    + unfold Rdiv. apply continuity_2d_pt_mult; [|apply continuity_2d_pt_const].
      apply continuity_2d_pt_opp. apply continuity_2d_pt_mult.
      * apply continuity_2d_pt_mult; apply continuity_2d_pt_id1.
      * apply continuity_2d_pt_plus; [apply continuity_2d_pt_const|].
        apply continuity_2d_pt_mult; apply continuity_2d_pt_id2.
Qed.

Lemma gt_B_derive (x : R) :
  is_derive gt_B x (- sqrt (2 * PI) * exp (- (x * x) / 2) * (Phi x - / 2)).
Proof.
  pose proof gt_sqrt_2PI_pos as Hc.
  assert (E : RInt (fun t => Derive (fun u => gt_f u t) x) 0 1
              = - sqrt (2 * PI) * exp (- (x * x) / 2) * (Phi x - / 2)).
  { rewrite (RInt_ext _ (fun t => (- sqrt (2 * PI) * exp (- (x * x) / 2))
                                   * (x * gauss_density (x * t + 0)))).
    2: { intros t _. rewrite gt_f_Derive_x. match goal with |- ?a = ?b => change (@eq R a b) end.
         unfold gauss_density.
         replace (exp (- (x * x * (1 + t * t)) / 2)) with
           (exp (- (x * x) / 2) * exp (- ((x * t + 0) * (x * t + 0)) / 2))
           by (rewrite <- exp_plus; f_equal; field).
         field. lra. }
    rewrite gt_RInt_scal.
    2: { apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _.
         apply continuity_pt_filterlim. unfold gauss_density.
         apply (continuity_pt_mult (fun z => x) _).
         - apply continuity_pt_const. intros a b; reflexivity.
         - apply derivable_continuous_pt. unfold Rdiv. apply derivable_pt_mult.
           + apply (derivable_pt_comp (fun z => - ((x * z + 0) * (x * z + 0)) * / 2) exp).
             * apply derivable_pt_mult; [|apply derivable_pt_const].
               apply derivable_pt_opp, derivable_pt_mult;
                 apply derivable_pt_plus; try apply derivable_pt_const;
                 apply derivable_pt_mult; try apply derivable_pt_const; apply derivable_pt_id.
             * apply derivable_pt_exp.
           + apply derivable_pt_const. }
    rewrite gt_RInt_comp_lin.
    2: { apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _.
         apply Activations.gauss_density_continuous. }
    replace (x * 0 + 0) with 0 by ring. replace (x * 1 + 0) with x by ring.
    unfold Phi. match goal with |- ?a = ?b => change (@eq R a b) end. ring. }
  rewrite <- E. unfold gt_B. apply is_derive_RInt_param.
  - apply filter_forall. intros y t _. eexists. apply gt_f_derive_x.
  - intros t _. apply gt_f_Derive_continuous.
  - apply filter_forall. intros y. apply gt_f_ex_RInt.
Qed.

(** [gt_H x = (sqrt(2 PI) (Phi x - 1/2))^2 + 2 gt_B x] has derivative [0]. *)
Definition gt_H (x : R) : R := (sqrt (2 * PI) * (Phi x - / 2)) ^ 2 + 2 * gt_B x.

Lemma gt_H_derive (x : R) : is_derive gt_H x 0.
Proof.
  pose proof gt_sqrt_2PI_pos as Hc.
  unfold gt_H. auto_derive.
  - split; [eexists; apply Phi_derive|]. split; [|exact I]. eexists; apply gt_B_derive.
  - replace (Derive (fun y : R => Phi y) x) with (gauss_density x)
      by (symmetry; apply is_derive_unique, Phi_derive).
    replace (Derive (fun y : R => gt_B y) x)
      with (- sqrt (2 * PI) * exp (- (x * x) / 2) * (Phi x - / 2))
      by (symmetry; apply is_derive_unique, gt_B_derive).
    unfold gauss_density. match goal with |- ?a = ?b => change (@eq R a b) end.
    field. lra.
Qed.

Lemma gt_B_0 : gt_B 0 = PI / 4.
Proof.
  unfold gt_B. rewrite (RInt_ext _ (fun t => / (1 + t * t))).
  2: { intros t _. unfold gt_f. match goal with |- ?a = ?b => change (@eq R a b) end.
       replace (- (0 * 0 * (1 + t * t)) / 2) with 0 by field. rewrite exp_0. field.
       pose proof (gt_one_plus_sq_pos t). lra. }
  replace (PI / 4) with (atan 1 - atan 0) by (rewrite atan_1, atan_0; ring).
  apply is_RInt_unique. apply (is_RInt_derive (V := R_CompleteNormedModule) atan).
  - intros t _. apply is_derive_Reals.
    replace (/ (1 + t * t)) with (/ (1 + t ^ 2)) by (f_equal; ring).
    apply derivable_pt_lim_atan.
  - intros t _. apply (ex_derive_continuous (K := R_AbsRing) (V := R_NormedModule)).
    pose proof (gt_one_plus_sq_pos t). auto_derive. lra.
Qed.

Lemma gt_H_const (x : R) : gt_H x = PI / 2.
Proof.
  destruct (MVT_gen gt_H 0 x (fun _ => 0)) as [c [_ Hc]].
  - intros y _. apply gt_H_derive.
  - intros y _. apply continuity_pt_filterlim.
    apply (ex_derive_continuous (K := R_AbsRing) (V := R_NormedModule)).
    eexists. apply gt_H_derive.
  - assert (H0 : gt_H 0 = PI / 2).
    { unfold gt_H. rewrite gt_B_0, Activations.Phi_0. field. }
    lra.
Qed.

Lemma gt_B_bounds (x : R) : 0 <= gt_B x <= exp (- (x * x) / 2).
Proof.
  unfold gt_B. split.
  - apply RInt_ge_0; [lra | apply gt_f_ex_RInt |]. intros t _.
    unfold gt_f. pose proof (gt_one_plus_sq_pos t).
    pose proof (exp_pos (- (x * x * (1 + t * t)) / 2)).
    apply Rlt_le, Rdiv_lt_0_compat; lra.
  - apply (Rle_trans _ (RInt (fun _ => exp (- (x * x) / 2)) 0 1)).
    + apply RInt_le; [lra | apply gt_f_ex_RInt | apply ex_RInt_const |].
      intros t Ht. unfold gt_f. pose proof (gt_one_plus_sq_pos t).
      assert (E : exp (- (x * x * (1 + t * t)) / 2) <= exp (- (x * x) / 2)).
      { destruct (Req_dec (x * x * (t * t)) 0) as [Z|Z].
        - right. replace (x * x * (1 + t * t)) with (x * x) by nra. reflexivity.
        - left. apply exp_increasing.
          assert (0 <= x * x * (t * t)) by (apply Rmult_le_pos; nra). nra. }
      pose proof (exp_pos (- (x * x * (1 + t * t)) / 2)).
      apply (Rle_trans _ (exp (- (x * x * (1 + t * t)) / 2))); [|exact E].
      unfold Rdiv at 1. rewrite <- (Rmult_1_r (exp (- (x * x * (1 + t * t)) / 2))) at 2.
      apply Rmult_le_compat_l; [lra|]. rewrite <- Rinv_1.
      apply Rinv_le_contravar; [lra | nra].
    + rewrite RInt_const. unfold scal; simpl; unfold mult; simpl. lra.
Qed.

(** The Gaussian tail: [1 - Phi x = B / (PI Phi x)], so
    [0 <= 1 - Phi x <= 2 exp (-x^2/2) / PI] for [x >= 0]. *)
Lemma Phi_tail_identity (x : R) : PI * (1 - Phi x) * Phi x = gt_B x.
Proof.
  pose proof (gt_H_const x) as H. unfold gt_H in H.
  assert (Hcc : sqrt (2 * PI) * sqrt (2 * PI) = 2 * PI)
    by (apply sqrt_sqrt; pose proof PI_RGT_0; lra).
  replace ((sqrt (2 * PI) * (Phi x - / 2)) ^ 2)
    with (sqrt (2 * PI) * sqrt (2 * PI) * (Phi x - / 2) ^ 2) in H by ring.
  rewrite Hcc in H. nra.
Qed.

Lemma Phi_tail_bound (x : R) : 0 <= x -> 0 <= 1 - Phi x <= 2 * exp (- (x * x) / 2) / PI.
Proof.
  intros Hx. pose proof (Phi_tail_identity x) as E. pose proof (gt_B_bounds x) as [B0 B1].
  pose proof PI_RGT_0 as HPI.
  assert (Hp : / 2 <= Phi x).
  { destruct (Req_dec x 0) as [->|Hz]; [rewrite Activations.Phi_0; lra|].
    left. apply GeluPositive.Phi_gt_half. lra. }
  assert (Hq : 0 <= 1 - Phi x).
  { destruct (Rle_or_lt 0 (1 - Phi x)) as [|Hn]; [assumption|]. exfalso.
    assert (0 < (Phi x - 1) * Phi x) by (apply Rmult_lt_0_compat; lra).
    assert (0 < PI * ((Phi x - 1) * Phi x)) by (apply Rmult_lt_0_compat; lra). nra. }
  split; [exact Hq|].
  apply (Rmult_le_reg_l PI); [exact HPI|].
  replace (PI * (2 * exp (- (x * x) / 2) / PI)) with (2 * exp (- (x * x) / 2)) by (field; lra).
  assert (0 <= PI * (1 - Phi x) * (2 * Phi x - 1))
    by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
  assert (PI * (1 - Phi x) * (2 * Phi x - 1)
          = 2 * (PI * (1 - Phi x) * Phi x) - PI * (1 - Phi x)) by ring.
  lra.
Qed.

Lemma gelu_tail_le (s : R) : 0 < s -> 0 <= s * (1 - Phi s) <= 4 / (PI * s).
Proof.
  intros Hs. pose proof (Phi_tail_bound s ltac:(lra)) as [T0 T1]. pose proof PI_RGT_0 as HPI.
  set (e := exp (- (s * s) / 2)) in T1.
  assert (He : e * (s * s) <= 2).
  { unfold e. replace (- (s * s) / 2) with (- ((s * s) / 2)) by field. rewrite exp_Ropp.
    pose proof (exp_ineq1_le ((s * s) / 2)). pose proof (exp_pos ((s * s) / 2)).
    apply (Rmult_le_reg_r (exp ((s * s) / 2))); [lra|].
    replace (/ exp (s * s / 2) * (s * s) * exp (s * s / 2)) with (s * s) by (field; lra).
    lra. }
  assert (HP : PI * (1 - Phi s) <= 2 * e).
  { apply (Rmult_le_compat_l PI) in T1; [|lra].
    replace (PI * (2 * e / PI)) with (2 * e) in T1 by (field; lra). exact T1. }
  split; [apply Rmult_le_pos; lra|].
  apply (Rmult_le_reg_r (PI * s)); [apply Rmult_lt_0_compat; lra|].
  replace (4 / (PI * s) * (PI * s)) with 4 by (field; lra).
  assert ((s * s) * (PI * (1 - Phi s)) <= (s * s) * (2 * e))
    by (apply Rmult_le_compat_l; [nra | exact HP]).
  replace (s * (1 - Phi s) * (PI * s)) with ((s * s) * (PI * (1 - Phi s))) by ring.
  lra.
Qed.

Lemma gelu_tail_tends : tends_to (fun s => s * (1 - Phi s)) 0.
Proof.
  intros eps He. pose proof PI_RGT_0 as HPI.
  exists (4 / (PI * eps) + 1). intros s Hs.
  assert (H4 : 0 < 4 / (PI * eps))
    by (apply Rdiv_lt_0_compat; [lra | apply Rmult_lt_0_compat; lra]).
  assert (Hs0 : 0 < s) by lra.
  destruct (gelu_tail_le s Hs0) as [L U]. rewrite Rminus_0_r, Rabs_pos_eq by exact L.
  apply (Rle_lt_trans _ _ _ U).
  apply (Rmult_lt_reg_r (PI * s)); [apply Rmult_lt_0_compat; lra|].
  replace (4 / (PI * s) * (PI * s)) with 4 by (field; lra).
  assert (4 / (PI * eps) * (PI * eps) = 4) by (field; lra).
  assert (4 / (PI * eps) * (PI * eps) < s * (PI * eps))
    by (apply Rmult_lt_compat_r; [apply Rmult_lt_0_compat|]; lra).
  nra.
Qed.

(** [relu_asymptotic gelu]: [gelu s - relu s = - s (1 - Phi s)] for [s >= 0], and
    [gelu (-s) - relu (-s) = - s Phi (-s) = - s (1 - Phi s)]. *)
Theorem gelu_relu_asymptotic : relu_asymptotic gelu.
Proof.
  pose proof (tends_to_scal (-1) _ _ gelu_tail_tends) as H. rewrite Rmult_0_r in H.
  split; apply (tends_to_ext (fun s => -1 * (s * (1 - Phi s))) _ 0 0); try exact H;
    intros s Hs; unfold gelu, relu.
  - rewrite Rmax_left by lra. ring.
  - rewrite Rmax_right by lra. rewrite Phi_opp. ring.
Qed.

(** Non-vacuity: on [R^2], [x + RMSNorm(x)] is no bare (exact) GELU block of width 3. *)
Example rmsnorm_residual_not_gelu_bare_instance :
  ~ same_fun 2 (prenorm 2 identity (rms_norm 2 1 (fun _ => 1) (fun _ => 0)) (fun x => x))
               (ungated_bias gelu 2 3 (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 0)).
Proof. apply rmsnorm_residual_not_sigma_bare; [exact gelu_relu_asymptotic | lia | lra]. Qed.

(** ... and on [R^3], [x + LayerNorm(x)] is no bare GELU block of width 4. *)
Example layernorm_residual_not_gelu_bare_instance :
  ~ same_fun 3 (prenorm 3 identity (layer_norm 3 1 (fun _ => 1) (fun _ => 0)) (fun x => x))
               (ungated_bias gelu 3 4 (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 0)).
Proof. apply layernorm_residual_not_sigma_bare; [exact gelu_relu_asymptotic | lia | lra]. Qed.
