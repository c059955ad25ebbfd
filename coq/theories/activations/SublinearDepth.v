(** * R4 for real degrees [0 <= k < 1]: sublinear branches (R10, beyond)

    [Depth.v] handles [k = 0] with bounded remainders and [k >= 2] with
    [o(|x|)] at 0.  For [0 <= k < 1] a [k]-homogeneous block is neither
    bounded nor small at 0, but it is *sublinear*: for every [eps > 0]
    there is [C] with [|f x| <= eps |x| + C] ([sublinear]).

    Method: sublinear maps form a [small_class] ([sublinear_class]), so the
    argument of [Depth.v] ([depth_small_not_representable]) applies:
    [near_lin_sub d M F] ([F x - M x] sublinear) is stable under
    composition ([near_lin_sub_compose]), and a sublinear linear map is
    zero ([linear_sublinear_zero]).

    Headlines:
    - [depth_sublinear_not_representable_skips]: for an activation with
      [scalar_sublinear sigma], [L] residual blocks (any invertible skips)
      are never a nonempty composition of residual-free blocks, any widths;
    - [homogeneous_real_scalar_sublinear]: every [k]-homogeneous activation
      with real [0 <= k < 1] is sublinear;
    - [depth_homogeneous_real_sublinear_not_representable] (identity skips),
      with non-vacuity examples ([ReLU^(1/2)], the step). *)

From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From Absorb Require Import Sums Blocks Compositions SkipReduction Gated Depth.
From Absorb Require Import MoreActivationDefs MoreActivations HomogeneousReal HomogeneousRealDepth.
Open Scope R_scope.

(** ** Sublinear maps *)

Definition sublinear (d : nat) (F : vec -> vec) : Prop :=
  forall eps, 0 < eps -> exists C, forall x, vnorm d (F x) <= eps * vnorm d x + C.

Definition near_lin_sub (d : nat) (M : mat) (F : vec -> vec) : Prop :=
  sublinear d (fun x k => F x k - mv d M x k).

Lemma sublinear_ext d f g : same_fun d f g -> sublinear d f -> sublinear d g.
Proof.
  intros E H eps He. destruct (H eps He) as [C HC]. exists C. intros x.
  rewrite <- (vnorm_ext d _ _ (E x)). apply HC.
Qed.

Lemma sublinear_minus d f g :
  sublinear d f -> sublinear d g -> sublinear d (fun x k => f x k - g x k).
Proof.
  intros Hf Hg eps He.
  destruct (Hf (eps / 2) ltac:(lra)) as [C1 H1]. destruct (Hg (eps / 2) ltac:(lra)) as [C2 H2].
  exists (C1 + C2). intros x.
  pose proof (vnorm_minus d (f x) (g x)). pose proof (H1 x). pose proof (H2 x). lra.
Qed.

Lemma sublinear_compose d F G : sublinear d F -> sublinear d G -> sublinear d (fun x => G (F x)).
Proof.
  intros HF HG eps He.
  destruct (HF 1 ltac:(lra)) as [CF HCF]. destruct (HG eps He) as [CG HCG].
  exists (eps * CF + CG). intros x.
  eapply Rle_trans; [apply HCG|].
  pose proof (HCF x). assert (eps * vnorm d (F x) <= eps * (1 * vnorm d x + CF))
    by (apply Rmult_le_compat_l; lra).
  lra.
Qed.

Lemma near_lin_sub_compose d M N F G :
  near_lin_sub d M F -> near_lin_sub d N G -> near_lin_sub d (mm d N M) (fun x => G (F x)).
Proof.
  intros HF HG eps He.
  set (KM := mat_norm d M). set (KN := mat_norm d N).
  assert (HKM : 0 <= KM) by apply mat_norm_nonneg.
  assert (HKN : 0 <= KN) by apply mat_norm_nonneg.
  set (e1 := eps / (2 * (KN + 1))). assert (He1 : 0 < e1) by (apply Rdiv_lt_0_compat; lra).
  set (e2 := eps / (2 * (KM + 1))). assert (He2 : 0 < e2) by (apply Rdiv_lt_0_compat; lra).
  destruct (HF 1 ltac:(lra)) as [C0 HC0]. destruct (HF e1 He1) as [C1 HC1].
  destruct (HG e2 He2) as [C2 HC2].
  exists (e2 * C0 + C2 + KN * C1). intros x.
  set (X := vnorm d x). assert (HX : 0 <= X) by apply vnorm_nonneg.
  set (D := fun l => F x l - mv d M x l).
  assert (HD0 : vnorm d D <= 1 * X + C0) by apply HC0.
  assert (HD1 : vnorm d D <= e1 * X + C1) by apply HC1.
  destruct (compose_split_bound d M N F G x) as [Hs HFx]. fold KM KN X D in Hs, HFx.
  pose proof (HC2 (F x)) as Ha.
  eapply Rle_trans; [exact Hs|].
  assert (e2 * vnorm d (F x) <= e2 * ((KM + 1) * X + C0)) by (apply Rmult_le_compat_l; lra).
  assert (e2 * (KM + 1) = eps / 2) by (unfold e2; field; lra).
  assert (KN * vnorm d D <= KN * (e1 * X + C1)) by (apply Rmult_le_compat_l; lra).
  assert (KN * e1 <= eps / 2).
  { assert ((KN + 1) * e1 = eps / 2) by (unfold e1; field; lra). nra. }
  assert (KN * e1 * X <= eps / 2 * X) by (apply Rmult_le_compat_r; lra).
  nra.
Qed.

(** A sublinear linear map vanishes on [R^d]. *)
Lemma linear_sublinear_zero d M :
  sublinear d (mv d M) -> forall x i, (i < d)%nat -> mv d M x i = 0.
Proof.
  intros H x i Hi. apply (vnorm_zero_coord d (mv d M x) i); [|exact Hi].
  set (N := vnorm d (mv d M x)). set (X := vnorm d x).
  assert (HX : 0 <= X) by apply vnorm_nonneg.
  destruct (Rle_or_lt N 0) as [Hle|Hpos]; [exact Hle|]. exfalso.
  set (eps := N / (2 * (X + 1))).
  assert (He : 0 < eps) by (apply Rdiv_lt_0_compat; lra).
  destruct (H eps He) as [C HC].
  assert (HC0 : 0 <= C).
  { pose proof (HC (fun _ => 0)) as H0.
    assert (E : vnorm d (fun _ => 0) = 0) by (apply sumn_zero; intros; apply Rabs_R0).
    rewrite E in H0. pose proof (vnorm_nonneg d (mv d M (fun _ => 0))). lra. }
  set (t := (2 * C + 2) / N). assert (Ht : 0 < t) by (apply Rdiv_lt_0_compat; lra).
  pose proof (HC (vscale t x)) as Hb.
  rewrite (vnorm_ext d (mv d M (vscale t x)) (vscale t (mv d M x)))
    in Hb by (intros k _; apply mv_vscale).
  rewrite !vnorm_scale, Rabs_pos_eq in Hb by lra. fold N X in Hb.
  assert (HtN : t * N = 2 * C + 2) by (unfold t; field; lra).
  assert (HeX : eps * X <= N / 2).
  { unfold eps. apply (Rmult_le_reg_r (2 * (X + 1))); [lra|].
    replace (N / (2 * (X + 1)) * X * (2 * (X + 1))) with (N * X) by (field; lra).
    nra. }
  assert (eps * (t * X) <= t * (N / 2)).
  { replace (eps * (t * X)) with (t * (eps * X)) by ring. apply Rmult_le_compat_l; lra. }
  lra.
Qed.

Lemma sublinear_class d : small_class d (sublinear d).
Proof.
  split; [exact (sublinear_ext d) | exact (sublinear_minus d) | | exact (sublinear_compose d)
         | exact (linear_sublinear_zero d) | exact (near_lin_sub_compose d)].
  intros eps He. exists 0. intros x. pose proof (vnorm_nonneg d x).
  replace (vnorm d _) with 0 by (symmetry; apply sumn_zero; intros; apply Rabs_R0). nra.
Qed.

(** ** Ungated blocks with a sublinear activation *)

Definition scalar_sublinear (sigma : R -> R) : Prop :=
  forall eps, 0 < eps -> exists C, forall z, Rabs (sigma z) <= eps * Rabs z + C.

Lemma ungated_sublinear sigma d n A B :
  scalar_sublinear sigma -> sublinear d (ungated sigma d n A B).
Proof.
  intros Hs eps He.
  set (W := gated_weight d n A B). assert (HW : 0 <= W) by apply gated_weight_nonneg.
  set (eta := eps / (W + 1)). assert (Heta : 0 < eta) by (apply Rdiv_lt_0_compat; lra).
  destruct (Hs eta Heta) as [C HC].
  exists (sumn d (fun i => sumn n (fun j => Rabs (B i j) * C))). intros x.
  eapply Rle_trans.
  - apply (weighted_bound_plus d n A B x eta C). intros j _.
    eapply Rle_trans; [apply HC|]. pose proof (dot_bound d (row A j) x).
    assert (eta * Rabs (dot d (row A j) x) <= eta * (vnorm d (row A j) * vnorm d x))
      by (apply Rmult_le_compat_l; lra).
    lra.
  - fold W. apply Rplus_le_compat_r.
    assert (eta * W <= eps).
    { assert (eta * (W + 1) = eps) by (unfold eta; field; lra). nra. }
    pose proof (vnorm_nonneg d x). nra.
Qed.

Lemma ublock_sublinear sigma d b : scalar_sublinear sigma -> sublinear d (ublock sigma d b).
Proof. intros Hs. destruct b as [[n A] B]. apply ungated_sublinear. exact Hs. Qed.

Theorem depth_sublinear_not_representable_skips :
  forall sigma d (res : list (mat * (nat * mat * mat))) (free : list (nat * mat * mat)),
  (1 <= d)%nat -> scalar_sublinear sigma ->
  Forall (fun r => exists Q, inverse_of d (fst r) Q) res -> free <> nil ->
  ~ same_fun d (compose (map (fun r => residual d (fst r) (ublock sigma d (snd r))) res))
               (compose (map (ublock sigma d) free)).
Proof.
  intros sigma d res free Hd Hs.
  exact (depth_small_not_representable d _ (sublinear_class d) (ublock sigma d) res free Hd
           (fun b => ublock_sublinear sigma d b Hs)).
Qed.

(** ** Homogeneous activations of real degree [0 <= k < 1] are sublinear *)

(** [K a^k <= eps a + K R^k] for [a > 0], with [R^(k-1) = eps/(K+1)]. *)
Lemma Rpower_sublinear_bound (K k eps a : R) : 0 <= K -> 0 <= k < 1 -> 0 < eps -> 0 < a ->
  K * Rpower a k <= eps * a + K * Rpower (Rpower (eps / (K + 1)) (/ (k - 1))) k.
Proof.
  intros HK Hk He Ha.
  set (c := eps / (K + 1)). assert (Hc : 0 < c) by (apply Rdiv_lt_0_compat; lra).
  set (R0 := Rpower c (/ (k - 1))). assert (HR : 0 < R0) by apply Rpower_pos.
  assert (HR1 : Rpower R0 (k - 1) = c).
  { unfold R0. rewrite Rpower_mult, Rinv_l by lra. apply Rpower_1, Hc. }
  pose proof (Rpower_pos a k). pose proof (Rpower_pos R0 k).
  destruct (Rle_or_lt a R0) as [Hle|Hlt].
  - assert (Rpower a k <= Rpower R0 k) by (apply Rle_Rpower_l; lra).
    assert (K * Rpower a k <= K * Rpower R0 k) by (apply Rmult_le_compat_l; lra). nra.
  - (* a^k = a * a^(k-1) <= a * R0^(k-1) = a c *)
    assert (Hsplit : Rpower a k = a * Rpower a (k - 1)).
    { rewrite <- (Rpower_1 a) at 2 by exact Ha. rewrite <- Rpower_plus. f_equal. ring. }
    assert (Hdec : Rpower a (k - 1) <= c).
    { rewrite <- HR1. replace (k - 1) with (- (1 - k)) by ring. rewrite !Rpower_Ropp.
      apply Rinv_le_contravar; [apply Rpower_pos|]. apply Rle_Rpower_l; lra. }
    assert (K * c <= eps).
    { assert ((K + 1) * c = eps) by (unfold c; field; lra). pose proof Hc. nra. }
    rewrite Hsplit. pose proof (Rpower_pos a (k - 1)).
    assert (K * (a * Rpower a (k - 1)) <= a * (K * c)).
    { replace (K * (a * Rpower a (k - 1))) with (a * (K * Rpower a (k - 1))) by ring.
      apply Rmult_le_compat_l; [lra|]. apply Rmult_le_compat_l; lra. }
    assert (a * (K * c) <= a * eps) by (apply Rmult_le_compat_l; lra).
    assert (0 <= K * Rpower R0 k) by (apply Rmult_le_pos; lra).
    fold c R0. nra.
Qed.

Theorem homogeneous_real_scalar_sublinear (k : R) sigma :
  0 <= k < 1 -> pos_homogeneous_real k sigma -> scalar_sublinear sigma.
Proof.
  intros Hk Hs eps He.
  set (K := Rabs (sigma 1) + Rabs (sigma (-1))).
  assert (HK : 0 <= K) by (unfold K; pose proof (Rabs_pos (sigma 1));
                            pose proof (Rabs_pos (sigma (-1))); lra).
  exists (K * Rpower (Rpower (eps / (K + 1)) (/ (k - 1))) k + Rabs (sigma 0)). intros z.
  assert (0 <= K * Rpower (Rpower (eps / (K + 1)) (/ (k - 1))) k)
    by (apply Rmult_le_pos; [lra | apply Rlt_le, Rpower_pos]).
  destruct (Req_dec z 0) as [->|Hz0].
  - rewrite Rabs_R0. lra.
  - pose proof (Rabs_pos (sigma 0)).
    eapply Rle_trans; [apply (homogeneous_real_bound k); assumption|]. fold K.
    pose proof (Rpower_sublinear_bound K k eps (Rabs z) HK Hk He (Rabs_pos_lt z Hz0)). lra.
Qed.

(** ** Headlines *)

Theorem depth_homogeneous_real_sublinear_not_representable :
  forall (k : R) sigma d (res free : list (nat * mat * mat)),
  (1 <= d)%nat -> 0 <= k < 1 -> pos_homogeneous_real k sigma -> free <> nil ->
  ~ same_fun d (compose (map (res_ublock sigma d) res)) (compose (map (ublock sigma d) free)).
Proof.
  intros k sigma d res free Hd Hk Hs.
  exact (depth_small_not_representable_id d _ (sublinear_class d) (ublock sigma d) res free Hd
           (fun b => ublock_sublinear sigma d b (homogeneous_real_scalar_sublinear k sigma Hk Hs))).
Qed.

(** ** Non-vacuity *)

(** [ReLU^(1/2)] (neither bounded nor [o(|z|)] at 0, so outside
    [Depth.v]) is sublinear; two residual blocks are not one residual-free
    block. *)
Example relu_real_pow_half_depth_instance :
  scalar_sublinear (relu_real_pow (1 / 2)) /\
  ~ same_fun 1 (compose (map (res_ublock (relu_real_pow (1 / 2)) 1) [one_ublock_r; one_ublock_r]))
               (compose (map (ublock (relu_real_pow (1 / 2)) 1) [one_ublock_r])).
Proof.
  split.
  - apply (homogeneous_real_scalar_sublinear (1 / 2)); [lra | apply relu_real_pow_homogeneous].
  - apply (depth_homogeneous_real_sublinear_not_representable (1 / 2));
      [lia | lra | apply relu_real_pow_homogeneous | discriminate].
Qed.

(** With an invertible skip [P = 2] in the residual block. *)
Example relu_real_pow_half_depth_skips_instance :
  ~ same_fun 1
    (compose (map (fun r => residual 1 (fst r) (ublock (relu_real_pow (1 / 2)) 1 (snd r)))
                             [(two_id, one_ublock_r)]))
               (compose (map (ublock (relu_real_pow (1 / 2)) 1) [one_ublock_r])).
Proof.
  apply depth_sublinear_not_representable_skips; [lia | | | discriminate].
  - apply (homogeneous_real_scalar_sublinear (1 / 2)); [lra | apply relu_real_pow_homogeneous].
  - constructor; [exists half_id; exact two_id_invertible | constructor].
Qed.

(** The step ([k = 0]) is covered too. *)
Example heaviside_sublinear : scalar_sublinear heaviside.
Proof.
  apply (homogeneous_real_scalar_sublinear 0); [lra|].
  exact heaviside_homogeneous_real_0.
Qed.
