(** * The Gaussian tail and the exact GELU at infinity *)

From Coq Require Import Reals Lra Lia.
From Coquelicot Require Import Coquelicot.
From Absorb Require Import ActivationDefs Activations.
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
  apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _. apply (ex_derive_continuous (K := R_AbsRing) (V := R_NormedModule)), gt_f_ex_derive_t.
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
         apply continuity_pt_filterlim. unfold gauss_density. apply (continuity_pt_mult (fun z => x) _).
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
