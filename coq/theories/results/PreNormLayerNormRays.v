(** * R11 stretch: [x + LayerNorm(x)] against the activations asymptotic to ReLU

    Along a ray LayerNorm is RMSNorm of the centered ray:
    [LayerNorm(t x) = RMSNorm(t C x)] ([gamma = 1], [beta = 0];
    [layer_norm_ray]), so [LayerNorm(t x)_i -> (C x)_i / sqrt(mean((C x)^2))]
    when [C x <> 0] ([ln_ray_limit]).  For [d >= 3] that limit is nowhere
    locally constant ([layernorm_nowhere_ray_asymptotic]: at a constant [v]
    moving one coordinate makes [C w <> 0]; otherwise moving two coordinates
    [j], [k] other than an [i] with [(C v)_i <> 0], in opposite directions,
    keeps [(C w)_i] and makes [|C w|] grow).  Hence
    [layernorm_residual_not_sigma_bare]: for [d >= 3], every [eps > 0], every
    [P] and every [sigma] asymptotic to ReLU (SiLU, GELU_tanh, gelu_fast,
    quick_gelu), [x |-> P x + LayerNorm(x)] is no bare [sigma] block with
    biases, of any width ([d = 2] is excluded rightly: there the limit only
    takes two values). *)

From Coq Require Import Reals Lra Lia List Classical.
From Absorb Require Import Sums Blocks BiasBlocks Norms ActivationDefs Activations.
From Absorb Require Import PreNorm PreNormReluBare PreNormSigmaBare ContinuousBounded.
Open Scope R_scope.

(** ** LayerNorm along rays *)

Lemma mean_vscale d t x : mean d (vscale t x) = t * mean d x.
Proof. unfold mean, vscale, Rdiv. rewrite sumn_scal_l. ring. Qed.

Lemma center_vscale d t x k : center d (vscale t x) k = vscale t (center d x) k.
Proof. unfold center. rewrite mean_vscale. unfold vscale. ring. Qed.

Lemma layer_norm_ray d eps x t i :
  layer_norm d eps (fun _ => 1) (fun _ => 0) (vscale t x) i =
  rms_norm d eps (fun _ => 1) (fun _ => 0) (vscale t (center d x)) i.
Proof.
  unfold layer_norm, rms_norm, affine_normalize, mean_sq.
  rewrite (sumn_ext d (fun k => center d (vscale t x) k * center d (vscale t x) k)
                      (fun k => vscale t (center d x) k * vscale t (center d x) k))
    by (intros; rewrite center_vscale; reflexivity).
  rewrite center_vscale. reflexivity.
Qed.

Lemma ln_ray_limit d eps x i : 0 < eps -> 0 < mean_sq d (center d x) ->
  tends_to (fun t => layer_norm d eps (fun _ => 1) (fun _ => 0) (vscale t x) i)
           (center d x i / sqrt (mean_sq d (center d x))).
Proof.
  intros He Hm. refine (tends_to_ext _ _ _ 0 _ (rms_ray_limit d eps (center d x) i He Hm)).
  intros t _. rewrite layer_norm_ray. reflexivity.
Qed.

(** ** Nowhere asymptotically constant, [d >= 3] *)

Lemma mean_sq_zero_coord d y k : mean_sq d y = 0 -> (k < d)%nat -> y k = 0.
Proof.
  intros H Hk. unfold mean_sq in H.
  assert (Hd : 0 < INR d) by (apply lt_0_INR; lia).
  assert (Hs : sumn d (fun l => y l * y l) = 0).
  { apply (Rmult_eq_reg_r (/ INR d)); [|apply Rinv_neq_0_compat; lra].
    unfold Rdiv in H. rewrite H. ring. }
  pose proof (sq_le_sum_sq d y k Hk). nra.
Qed.

Lemma exists_nonzero_coord d y : 0 < mean_sq d y -> exists i, (i < d)%nat /\ y i <> 0.
Proof.
  intros H. apply NNPP. intros Hno.
  assert (Hz : sumn d (fun l => y l * y l) = 0).
  { apply sumn_zero. intros l Hl. destruct (Req_dec (y l) 0) as [E|E].
    - rewrite E. ring.
    - exfalso. apply Hno. exists l. split; assumption. }
  unfold mean_sq in H. rewrite Hz in H. unfold Rdiv in H. rewrite Rmult_0_l in H. lra.
Qed.

(** [x + (eta at j) - (eta at k)]. *)
Definition bump2 (j k : nat) (eta : R) (x : vec) : vec :=
  fun l => x l + (if Nat.eq_dec j l then eta else 0) - (if Nat.eq_dec k l then eta else 0).

Lemma sumn_bump2 d j k eta x : (j < d)%nat -> (k < d)%nat ->
  sumn d (bump2 j k eta x) = sumn d x.
Proof.
  intros Hj Hk. unfold bump2. rewrite sumn_minus, sumn_plus.
  rewrite (sumn_delta d j (fun _ => eta)) by exact Hj.
  rewrite (sumn_delta d k (fun _ => eta)) by exact Hk. ring.
Qed.

Lemma center_bump2 d j k eta x l : (j < d)%nat -> (k < d)%nat ->
  center d (bump2 j k eta x) l = bump2 j k eta (center d x) l.
Proof.
  intros Hj Hk. unfold center, mean. rewrite sumn_bump2 by assumption.
  unfold bump2. ring.
Qed.

Lemma sumsq_bump2 d j k eta (y : vec) : (j < d)%nat -> (k < d)%nat -> j <> k ->
  sumn d (fun l => bump2 j k eta y l * bump2 j k eta y l) =
  sumn d (fun l => y l * y l) + (2 * eta * (y j - y k) + 2 * (eta * eta)).
Proof.
  intros Hj Hk Hjk.
  rewrite (sumn_ext d _ (fun l => (y l * y l +
              (if Nat.eq_dec j l then 2 * eta * y l + eta * eta else 0)) +
              (if Nat.eq_dec k l then - (2 * eta * y l) + eta * eta else 0))).
  - rewrite !sumn_plus.
    rewrite (sumn_delta d j (fun l => 2 * eta * y l + eta * eta)) by exact Hj.
    rewrite (sumn_delta d k (fun l => - (2 * eta * y l) + eta * eta)) by exact Hk. ring.
  - intros l _. unfold bump2.
    destruct (Nat.eq_dec j l) as [Ej|Ej]; destruct (Nat.eq_dec k l) as [Ek|Ek];
      [exfalso; apply Hjk; congruence | ring | ring | ring].
Qed.

Lemma layernorm_nowhere_ray_asymptotic d eps : (3 <= d)%nat -> 0 < eps ->
  nowhere_ray_asymptotic d (layer_norm d eps (fun _ => 1) (fun _ => 0)).
Proof.
  intros Hd He v delta Hdel. set (F := layer_norm d eps (fun _ => 1) (fun _ => 0)).
  set (y := center d v).
  assert (Hy0 : 0 <= mean_sq d y) by apply mean_sq_nonneg.
  destruct (Req_dec (mean_sq d y) 0) as [Hz|Hnz].
  - (* [v] constant: move coordinate 0 *)
    set (w := bump2 0 d (delta / 2) v).
    assert (Hw : forall l, (l < d)%nat -> w l = v l + (if Nat.eq_dec 0 l then delta / 2 else 0)).
    { intros l Hl. unfold w, bump2. destruct (Nat.eq_dec d l); [lia | ring]. }
    assert (Hsw : sumn d w = sumn d v + delta / 2).
    { rewrite <- (sumn_delta d 0 (fun _ => delta / 2)) by lia. rewrite <- sumn_plus.
      apply sumn_ext. intros l Hl. apply Hw, Hl. }
    assert (Hcw1 : center d w 1%nat = - (delta / 2 / INR d)).
    { assert (Hy1 : y 1%nat = 0) by (apply (mean_sq_zero_coord d y 1); [exact Hz | lia]).
      unfold y, center, mean in Hy1. unfold center, mean. rewrite Hsw, (Hw 1%nat) by lia.
      simpl. assert (0 < INR d) by (apply lt_0_INR; lia).
      replace ((sumn d v + delta / 2) / INR d) with (sumn d v / INR d + delta / 2 / INR d)
        by (field; lra).
      lra. }
    assert (Hd0 : 0 < INR d) by (apply lt_0_INR; lia).
    assert (Hc1 : center d w 1%nat <> 0).
    { rewrite Hcw1. assert (0 < delta / 2 / INR d) by (apply Rdiv_lt_0_compat; lra). lra. }
    assert (Hmw : 0 < mean_sq d (center d w)) by (apply (mean_sq_pos d _ 1); [lia | exact Hc1]).
    exists w, 1%nat. split; [|split; [lia|]].
    + intros l Hl. rewrite Hw by exact Hl. destruct (Nat.eq_dec 0 l).
      * replace (v l + delta / 2 - v l) with (delta / 2) by ring. rewrite Rabs_pos_eq; lra.
      * replace (v l + 0 - v l) with 0 by ring. rewrite Rabs_R0. exact Hdel.
    + intros Hlim.
      assert (HFv : forall t, F (vscale t v) 1%nat = 0).
      { intros t. unfold F. rewrite layer_norm_ray. unfold rms_norm, affine_normalize.
        unfold vscale at 1.
        pose proof (mean_sq_zero_coord d y 1 Hz ltac:(lia)) as Hy1. unfold y in Hy1.
        rewrite Hy1. unfold Rdiv. ring. }
      assert (H0 : tends_to (fun t => F (vscale t w) 1%nat) 0).
      { refine (tends_to_ext _ _ _ 0 _ Hlim). intros t _. rewrite HFv. ring. }
      pose proof (tends_to_unique _ _ _ H0 (ln_ray_limit d eps w 1 He Hmw)) as E.
      assert (0 < sqrt (mean_sq d (center d w))) by (apply sqrt_lt_R0, Hmw).
      apply Hc1. apply (Rmult_eq_reg_r (/ sqrt (mean_sq d (center d w))));
        [|apply Rinv_neq_0_compat; lra].
      rewrite Rmult_0_l. unfold Rdiv in E. lra.
  - (* [C v <> 0]: keep a nonzero coordinate [i], move [j] and [k] *)
    assert (Hy : 0 < mean_sq d y) by lra.
    destruct (exists_nonzero_coord d y Hy) as [i [Hi Hyi]].
    set (j := if Nat.eq_dec i 0 then 1%nat else 0%nat).
    set (k := if Nat.eq_dec i 2 then 1%nat else 2%nat).
    assert (Hj : (j < d)%nat) by (unfold j; destruct (Nat.eq_dec i 0); lia).
    assert (Hk : (k < d)%nat) by (unfold k; destruct (Nat.eq_dec i 2); lia).
    assert (Hji : j <> i) by (unfold j; destruct (Nat.eq_dec i 0); lia).
    assert (Hki : k <> i) by (unfold k; destruct (Nat.eq_dec i 2); lia).
    assert (Hjk : j <> k)
      by (unfold j, k; destruct (Nat.eq_dec i 0); destruct (Nat.eq_dec i 2); lia).
    set (eta := if Rle_dec 0 (y j - y k) then delta / 2 else - (delta / 2)).
    assert (Heta : Rabs eta = delta / 2).
    { unfold eta. destruct (Rle_dec 0 (y j - y k)).
      - apply Rabs_pos_eq. lra.
      - rewrite Rabs_Ropp. apply Rabs_pos_eq. lra. }
    assert (Hgrow : 0 < 2 * eta * (y j - y k) + 2 * (eta * eta)).
    { unfold eta. destruct (Rle_dec 0 (y j - y k)); nra. }
    set (w := bump2 j k eta v).
    assert (Hcw : forall l, center d w l = bump2 j k eta y l)
      by (intros l; apply center_bump2; assumption).
    assert (Hcwi : center d w i = y i).
    { rewrite Hcw. unfold bump2. destruct (Nat.eq_dec j i); [contradiction|].
      destruct (Nat.eq_dec k i); [contradiction|]. ring. }
    assert (Hmw : mean_sq d y < mean_sq d (center d w)).
    { unfold mean_sq. rewrite (sumn_ext d (fun l => center d w l * center d w l)
                                 (fun l => bump2 j k eta y l * bump2 j k eta y l))
        by (intros; rewrite Hcw; reflexivity).
      rewrite sumsq_bump2 by assumption.
      apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat, lt_0_INR; lia | lra]. }
    exists w, i. split; [|split; [exact Hi|]].
    + intros l Hl. unfold w, bump2.
      destruct (Nat.eq_dec j l); destruct (Nat.eq_dec k l);
        [exfalso; apply Hjk; congruence | | |].
      * replace (v l + eta - 0 - v l) with eta by ring. lra.
      * replace (v l + 0 - eta - v l) with (- eta) by ring. rewrite Rabs_Ropp. lra.
      * replace (v l + 0 - 0 - v l) with 0 by ring. rewrite Rabs_R0. exact Hdel.
    + intros Hlim.
      pose proof (tends_to_plus _ _ _ _ (ln_ray_limit d eps w i He ltac:(lra))
                    (tends_to_scal (-1) _ _ (ln_ray_limit d eps v i He Hy))) as H2.
      assert (H3 : tends_to (fun t => F (vscale t w) i - F (vscale t v) i)
                     (center d w i / sqrt (mean_sq d (center d w)) +
                      -1 * (center d v i / sqrt (mean_sq d (center d v))))).
      { refine (tends_to_ext _ _ _ 0 _ H2). intros t _. unfold F. ring. }
      pose proof (tends_to_unique _ _ _ H3 Hlim) as E. fold y in E. rewrite Hcwi in E.
      assert (Hs : sqrt (mean_sq d y) < sqrt (mean_sq d (center d w)))
        by (apply sqrt_lt_1_alt; lra).
      assert (0 < sqrt (mean_sq d y)) by (apply sqrt_lt_R0, Hy).
      assert (Heq : y i * (sqrt (mean_sq d (center d w)) - sqrt (mean_sq d y)) = 0).
      { replace 0 with ((y i / sqrt (mean_sq d (center d w)) + -1 * (y i / sqrt (mean_sq d y)))
                        * (- (sqrt (mean_sq d (center d w)) * sqrt (mean_sq d y))))
          by (rewrite E; ring).
        field. lra. }
      apply Rmult_integral in Heq. destruct Heq; [contradiction | lra].
Qed.

(** For [d >= 3], every [eps > 0], every [P] and every [sigma] asymptotic
    to ReLU, [x |-> P x + LayerNorm(x)] is no bare [sigma] block with
    biases, of any width. *)
Theorem layernorm_residual_not_sigma_bare sigma d eps P m A c B b0 :
  relu_asymptotic sigma -> (3 <= d)%nat -> 0 < eps ->
  ~ same_fun d (prenorm d P (layer_norm d eps (fun _ => 1) (fun _ => 0)) (fun x => x))
               (ungated_bias sigma d m A c B b0).
Proof.
  intros Hs Hd He. apply prenorm_not_sigma_bare; [exact Hs | | |].
  - exists eps, (fun _ => 1), (fun _ => 0). split; [exact He | left; reflexivity].
  - intros K. exists K. intros x Hx. exact Hx.
  - exact (layernorm_nowhere_ray_asymptotic d eps Hd He).
Qed.

(** Non-vacuity: on [R^3], [x + LayerNorm(x)] is no bare GELU_tanh block of width 4. *)
Example layernorm_residual_not_gelu_tanh_bare_instance :
  ~ same_fun 3 (prenorm 3 identity (layer_norm 3 1 (fun _ => 1) (fun _ => 0)) (fun x => x))
               (ungated_bias gelu_tanh 3 4 (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 0)).
Proof. apply layernorm_residual_not_sigma_bare; [exact gelu_tanh_relu_asymptotic | lia | lra]. Qed.
