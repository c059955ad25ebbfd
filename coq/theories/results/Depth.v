(** * R4: depth

    A composition of residual blocks is never equal (on [R^d], [d >= 1]) to
    a nonempty composition of residual-free blocks, for any numbers of
    blocks and any widths, when
    - the blocks are gated with a gate vanishing continuously at 0
      ([depth_gated_not_representable]), or
    - the blocks are ungated with a positively [k]-homogeneous activation,
      [k >= 2] or [k = 0] ([depth_homogeneous_not_representable]; no
      boundedness assumption on the activation is needed).
    Beyond the paper: the residual blocks may have arbitrary invertible
    skips [P_l] ([depth_gated_not_representable_skips],
    [depth_homogeneous_not_representable_skips]); the number of residual
    blocks may be 0.

    Method ([depth_small_not_representable], for any [small_class]:
    closed under differences and compositions, no nonzero linear member).
    [near_lin d M F]: [F x = M x + o(|x|)] uniformly at 0;
    [near_lin_inf d M F]: [F x = M x + O(1)].  Both are stable under
    composition (the linear parts multiply); residual blocks with [o(|x|)]
    (resp. bounded) branches are [near_lin] (resp. [near_lin_inf]) with an
    injective linear part, while nonempty compositions of [o(|x|)]
    (resp. bounded) maps are [o(|x|)] (resp. bounded).  An injective linear
    map on [R^d], [d >= 1], is neither. *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Sums Blocks Compositions SkipReduction Gated.
Open Scope R_scope.

(** ** Linear algebra helpers *)

Definition mat_norm (d : nat) (M : mat) : R := sumn d (fun i => vnorm d (row M i)).

Lemma mat_norm_nonneg d M : 0 <= mat_norm d M.
Proof. apply sumn_nonneg. intros. apply vnorm_nonneg. Qed.

Lemma mv_bound d M x : vnorm d (mv d M x) <= mat_norm d M * vnorm d x.
Proof.
  unfold vnorm at 1, mat_norm, mv. rewrite <- sumn_scal_r.
  apply sumn_le. intros i _. apply dot_bound.
Qed.

Lemma mv_minus d M u v i : mv d M (fun k => u k - v k) i = mv d M u i - mv d M v i.
Proof. unfold mv, dot, row. rewrite <- sumn_minus. apply sumn_ext. intros; ring. Qed.

(** Injectivity of a linear map on [R^d]. *)
Definition lin_injective (d : nat) (M : mat) : Prop :=
  forall x, (forall i, (i < d)%nat -> mv d M x i = 0) -> forall i, (i < d)%nat -> x i = 0.

Lemma identity_injective d : lin_injective d identity.
Proof. intros x H i Hi. rewrite <- (mv_identity d x i Hi). apply H. exact Hi. Qed.

Lemma mm_injective d M N : lin_injective d M -> lin_injective d N -> lin_injective d (mm d N M).
Proof.
  intros HM HN x H. apply HM. apply HN. intros i Hi. rewrite mv_mm. apply H. exact Hi.
Qed.

Lemma invertible_injective d P Q : inverse_of d P Q -> lin_injective d P.
Proof.
  intros HPQ x H i Hi.
  rewrite <- (inverse_mv_cancel d Q P x (inverse_of_sym d P Q HPQ) i Hi).
  rewrite (mv_ext_vec d Q (mv d P x) (fun _ => 0) i H).
  unfold mv, dot. apply sumn_zero. intros; ring.
Qed.

Lemma identity_inverse d : inverse_of d identity identity.
Proof.
  intros i j Hi _. split; exact (mv_identity d (col identity j) i Hi).
Qed.

(** An injective linear map on [R^d] with [d >= 1] is not zero. *)
Lemma injective_not_vanishing d M :
  (1 <= d)%nat -> lin_injective d M -> ~ (forall x i, (i < d)%nat -> mv d M x i = 0).
Proof.
  intros Hd HM H. pose proof (HM (unit_vec 0) (H (unit_vec 0)) 0%nat ltac:(lia)) as E.
  unfold unit_vec in E. simpl in E. lra.
Qed.

(** Splitting [G (F x) - N M x] as [(G - N)(F x) + N (F x - M x)]. *)
Lemma compose_split d M N F G x :
  vec_eq d (fun k => G (F x) k - mv d (mm d N M) x k)
    (fun k => (G (F x) k - mv d N (F x) k) + mv d N (fun l => F x l - mv d M x l) k).
Proof. intros k _. rewrite mv_minus, <- mv_mm. ring. Qed.

(** Hence [|G (F x) - N M x| <= |G (F x) - N F x| + |N| |F x - M x|] and
    [|F x| <= |M| |x| + |F x - M x|]. *)
Lemma compose_split_bound d M N F G x :
  vnorm d (fun k => G (F x) k - mv d (mm d N M) x k) <=
    vnorm d (fun k => G (F x) k - mv d N (F x) k) +
    mat_norm d N * vnorm d (fun l => F x l - mv d M x l) /\
  vnorm d (F x) <= mat_norm d M * vnorm d x + vnorm d (fun l => F x l - mv d M x l).
Proof.
  split.
  - rewrite (vnorm_ext d _ _ (compose_split d M N F G x)).
    eapply Rle_trans; [apply vnorm_plus|].
    pose proof (mv_bound d N (fun l => F x l - mv d M x l)). lra.
  - rewrite (vnorm_ext d (F x) (fun k => (F x k - mv d M x k) + mv d M x k)) by (intros k _; ring).
    eapply Rle_trans; [apply vnorm_plus|]. pose proof (mv_bound d M x). lra.
Qed.

Lemma map_not_nil {X Y} (f : X -> Y) l : l <> nil -> map f l <> nil.
Proof. destruct l; simpl; congruence. Qed.

Lemma identity_skips d {X} (l : list X) :
  Forall (fun r => exists Q, inverse_of d (fst r) Q) (map (fun b => (identity, b)) l).
Proof.
  apply Forall_map. apply Forall_forall. intros b _. exists identity. apply identity_inverse.
Qed.

(** ** The depth argument for any class of small maps

    [small_class d small]: the class [small] ([o(|x|)] at 0, bounded, or
    sublinear) is closed under [same_fun], differences and compositions,
    contains 0 and no nonzero linear map, and maps differing from linear
    maps by small maps compose ([near_compose]).  Residual blocks with
    small branches then compose to a map near an injective linear map,
    which is never a nonempty composition of small maps. *)

Record small_class (d : nat) (small : (vec -> vec) -> Prop) : Prop := {
  small_ext : forall f g, same_fun d f g -> small f -> small g;
  small_minus : forall f g, small f -> small g -> small (fun x k => f x k - g x k);
  small_zero : small (fun _ _ => 0);
  small_compose : forall F G, small F -> small G -> small (fun x => G (F x));
  small_linear_zero : forall M, small (mv d M) -> forall x i, (i < d)%nat -> mv d M x i = 0;
  near_compose : forall M N F G,
    small (fun x k => F x k - mv d M x k) -> small (fun x k => G x k - mv d N x k) ->
    small (fun x k => G (F x) k - mv d (mm d N M) x k) }.

Section SmallDepth.
Context (d : nat) (small : (vec -> vec) -> Prop) (C : small_class d small).

Lemma compose_near_small (fs : list (vec -> vec)) :
  Forall (fun f => exists P, lin_injective d P /\ small (fun x k => f x k - mv d P x k)) fs ->
  exists M, lin_injective d M /\ small (fun x k => compose fs x k - mv d M x k).
Proof.
  induction fs as [|f fs IH]; intros H.
  - exists identity. split; [apply identity_injective|].
    apply (small_ext _ _ C (fun _ _ => 0)); [|exact (small_zero _ _ C)].
    intros x i Hi. simpl. rewrite (mv_identity d x i Hi). ring.
  - inversion H as [|f' fs' [P [HP Hf]] Hfs]; subst.
    destruct (IH Hfs) as [M [HM HFs]]. exists (mm d M P). split.
    + apply mm_injective; assumption.
    + exact (near_compose _ _ C P M f (compose fs) Hf HFs).
Qed.

Lemma compose_small (fs : list (vec -> vec)) : fs <> nil -> Forall small fs -> small (compose fs).
Proof.
  induction fs as [|f fs IH]; intros Hne H; [congruence|].
  inversion H as [|f' fs' Hf Hfs]; subst.
  destruct fs as [|g gs]; [exact Hf|].
  exact (small_compose _ _ C f (compose (g :: gs)) Hf (IH ltac:(discriminate) Hfs)).
Qed.

(** Residual blocks (invertible skips) with small branches are never a
    nonempty composition of small blocks. *)
Theorem depth_small_not_representable {X} (blk : X -> vec -> vec) (res : list (mat * X))
    (free : list X) :
  (1 <= d)%nat -> (forall b, small (blk b)) ->
  Forall (fun r => exists Q, inverse_of d (fst r) Q) res -> free <> nil ->
  ~ same_fun d (compose (map (fun r => residual d (fst r) (blk (snd r))) res))
               (compose (map blk free)).
Proof.
  intros Hd Hb Hres Hfree E.
  destruct (compose_near_small (map (fun r => residual d (fst r) (blk (snd r))) res))
    as [M [HM HF]].
  { apply Forall_map. eapply Forall_impl; [|exact Hres]. intros [P b] [Q HPQ].
    exists P. split; [exact (invertible_injective d P Q HPQ)|].
    apply (small_ext _ _ C (blk b)); [intros x i _; unfold residual; simpl; ring | apply Hb]. }
  apply (injective_not_vanishing d M Hd HM), (small_linear_zero _ _ C).
  apply (small_ext _ _ C (fun x k => compose (map blk free) x k -
    (compose (map (fun r => residual d (fst r) (blk (snd r))) res) x k - mv d M x k))).
  - intros x i Hi. rewrite (E x i Hi). ring.
  - apply (small_minus _ _ C); [|exact HF]. apply compose_small; [apply map_not_nil, Hfree|].
    apply Forall_forall. intros f Hf. apply in_map_iff in Hf. destruct Hf as [b [<- _]]. apply Hb.
Qed.

(** The same with identity skips. *)
Corollary depth_small_not_representable_id {X} (blk : X -> vec -> vec) (res free : list X) :
  (1 <= d)%nat -> (forall b, small (blk b)) -> free <> nil ->
  ~ same_fun d (compose (map (fun b => residual d identity (blk b)) res)) (compose (map blk free)).
Proof.
  intros Hd Hb Hfree.
  pose proof (depth_small_not_representable blk (map (fun b => (identity, b)) res) free Hd Hb
                (identity_skips d res) Hfree) as H.
  rewrite map_map in H. exact H.
Qed.

End SmallDepth.

(** ** Near-linearity at 0 *)

Definition near_lin (d : nat) (M : mat) (F : vec -> vec) : Prop :=
  littleo0 d (fun x k => F x k - mv d M x k).

Lemma littleo0_vanishing d f : (forall x, vec_eq d (f x) (fun _ => 0)) -> littleo0 d f.
Proof.
  intros H eps He. exists 1. split; [lra|]. intros x _.
  rewrite (vnorm_ext d _ _ (H x)).
  replace (vnorm d (fun _ => 0)) with 0
    by (symmetry; apply sumn_zero; intros; apply Rabs_R0).
  pose proof (vnorm_nonneg d x). nra.
Qed.

Lemma littleo0_compose d F G : littleo0 d F -> littleo0 d G -> littleo0 d (fun x => G (F x)).
Proof.
  intros HF HG eps He.
  destruct (HF 1 ltac:(lra)) as [dF [HdF HF']]. destruct (HG eps He) as [dG [HdG HG']].
  exists (Rmin dF dG). split; [apply Rmin_pos; assumption|]. intros x Hx.
  pose proof (Rmin_l dF dG). pose proof (Rmin_r dF dG).
  pose proof (HF' x ltac:(lra)) as H1.
  pose proof (HG' (F x) ltac:(lra)) as H2.
  eapply Rle_trans; [exact H2|]. apply Rmult_le_compat_l; lra.
Qed.

Lemma near_lin_compose d M N F G :
  near_lin d M F -> near_lin d N G -> near_lin d (mm d N M) (fun x => G (F x)).
Proof.
  intros HF HG eps He.
  set (KM := mat_norm d M). set (KN := mat_norm d N).
  assert (HKM : 0 <= KM) by apply mat_norm_nonneg.
  assert (HKN : 0 <= KN) by apply mat_norm_nonneg.
  set (e1 := Rmin 1 (eps / (2 * (KN + 1)))).
  assert (He1 : 0 < e1) by (apply Rmin_pos; [lra | apply Rdiv_lt_0_compat; lra]).
  assert (He1' : e1 <= 1) by apply Rmin_l.
  assert (He1'' : e1 <= eps / (2 * (KN + 1))) by apply Rmin_r.
  set (e2 := eps / (2 * (KM + 2))).
  assert (He2 : 0 < e2) by (apply Rdiv_lt_0_compat; lra).
  destruct (HF e1 He1) as [dF [HdF HF']]. destruct (HG e2 He2) as [dG [HdG HG']].
  exists (Rmin dF (dG / (KM + 2))).
  split; [apply Rmin_pos; [lra | apply Rdiv_lt_0_compat; lra]|]. intros x Hx.
  pose proof (Rmin_l dF (dG / (KM + 2))). pose proof (Rmin_r dF (dG / (KM + 2))).
  set (X := vnorm d x). assert (HX : 0 <= X) by apply vnorm_nonneg.
  assert (HXlt : X < dG / (KM + 2)) by (unfold X; lra).
  assert (HXlt' : X < dF) by (unfold X; lra).
  set (D := fun l => F x l - mv d M x l).
  assert (HD : vnorm d D <= e1 * X) by (apply HF'; lra).
  destruct (compose_split_bound d M N F G x) as [Hs HFx]. fold KM KN X D in Hs, HFx.
  assert (HFx' : vnorm d (F x) <= (KM + 1) * X).
  { assert (e1 * X <= 1 * X) by (apply Rmult_le_compat_r; lra). lra. }
  assert (HFsmall : vnorm d (F x) < dG).
  { assert ((KM + 2) * X < (KM + 2) * (dG / (KM + 2))) by (apply Rmult_lt_compat_l; lra).
    assert ((KM + 2) * (dG / (KM + 2)) = dG) by (field; lra). nra. }
  pose proof (HG' (F x) HFsmall) as Ha.
  eapply Rle_trans; [exact Hs|].
  assert (e2 * vnorm d (F x) <= e2 * ((KM + 1) * X)) by (apply Rmult_le_compat_l; lra).
  assert (e2 * ((KM + 1) * X) <= eps / 2 * X).
  { assert (e2 * (KM + 2) = eps / 2) by (unfold e2; field; lra). nra. }
  assert (KN * vnorm d D <= KN * (e1 * X)) by (apply Rmult_le_compat_l; lra).
  assert (KN * (e1 * X) <= eps / 2 * X).
  { assert (KN * e1 <= (KN + 1) * e1) by lra.
    assert ((KN + 1) * e1 <= (KN + 1) * (eps / (2 * (KN + 1))))
      by (apply Rmult_le_compat_l; lra).
    assert ((KN + 1) * (eps / (2 * (KN + 1))) = eps / 2) by (field; lra). nra. }
  lra.
Qed.

Lemma littleo0_class d : small_class d (littleo0 d).
Proof.
  split; [exact (littleo0_ext d) | exact (littleo0_minus d) | | exact (littleo0_compose d)
         | exact (linear_littleo0_zero d) | exact (near_lin_compose d)].
  apply littleo0_vanishing. intros x i _. reflexivity.
Qed.

(** ** Near-linearity at infinity (bounded remainder) *)

Definition bounded_map (d : nat) (F : vec -> vec) : Prop :=
  exists K, forall x, vnorm d (F x) <= K.

Definition near_lin_inf (d : nat) (M : mat) (F : vec -> vec) : Prop :=
  bounded_map d (fun x k => F x k - mv d M x k).

Lemma bounded_ext d f g : same_fun d f g -> bounded_map d f -> bounded_map d g.
Proof.
  intros E [K HK]. exists K. intros x. rewrite <- (vnorm_ext d _ _ (E x)). apply HK.
Qed.

Lemma bounded_minus d f g :
  bounded_map d f -> bounded_map d g -> bounded_map d (fun x k => f x k - g x k).
Proof.
  intros [K1 H1] [K2 H2]. exists (K1 + K2). intros x.
  pose proof (vnorm_minus d (f x) (g x)). pose proof (H1 x). pose proof (H2 x). lra.
Qed.

Lemma bounded_compose d F G : bounded_map d G -> bounded_map d (fun x => G (F x)).
Proof. intros [K HK]. exists K. intros x. apply HK. Qed.

Lemma near_lin_inf_compose d M N F G :
  near_lin_inf d M F -> near_lin_inf d N G -> near_lin_inf d (mm d N M) (fun x => G (F x)).
Proof.
  intros [KF HF] [KG HG]. exists (KG + mat_norm d N * KF). intros x.
  destruct (compose_split_bound d M N F G x) as [Hs _].
  pose proof (HG (F x)). pose proof (HF x) as H2. pose proof (mat_norm_nonneg d N).
  assert (mat_norm d N * vnorm d (fun l => F x l - mv d M x l) <= mat_norm d N * KF)
    by (apply Rmult_le_compat_l; assumption).
  lra.
Qed.

(** A bounded linear map vanishes on [R^d]. *)
Lemma linear_bounded_zero d M :
  bounded_map d (mv d M) -> forall x i, (i < d)%nat -> mv d M x i = 0.
Proof.
  intros [K HK] x i Hi. apply (vnorm_zero_coord d (mv d M x) i); [|exact Hi].
  set (N := vnorm d (mv d M x)).
  destruct (Rle_or_lt N 0) as [Hle|Hpos]; [exact Hle|]. exfalso.
  assert (HNK : N <= K) by apply HK.
  set (t := (K + 1) / N).
  assert (Ht : 0 < t) by (unfold t; apply Rdiv_lt_0_compat; lra).
  pose proof (HK (vscale t x)) as Hb.
  rewrite (vnorm_ext d (mv d M (vscale t x)) (vscale t (mv d M x)))
    in Hb by (intros k _; apply mv_vscale).
  rewrite vnorm_scale, Rabs_pos_eq in Hb by lra. fold N in Hb.
  assert (t * N = K + 1) by (unfold t; field; lra). lra.
Qed.

Lemma bounded_class d : small_class d (bounded_map d).
Proof.
  split; [exact (bounded_ext d) | exact (bounded_minus d) | | intros F G _; apply bounded_compose
         | exact (linear_bounded_zero d) | exact (near_lin_inf_compose d)].
  exists 0. intros x. right. apply sumn_zero. intros. apply Rabs_R0.
Qed.

(** ** Ungated blocks: activations that are [o(|z|)] at 0, or bounded *)

Definition scalar_littleo0 (sigma : R -> R) : Prop :=
  forall eps, 0 < eps -> exists delta, 0 < delta /\
    forall z, Rabs z < delta -> Rabs (sigma z) <= eps * Rabs z.

Lemma ungated_bound sigma d n A B x eta :
  0 <= eta ->
  (forall j, (j < n)%nat ->
     Rabs (sigma (dot d (row A j) x)) <= eta * Rabs (dot d (row A j) x)) ->
  vnorm d (ungated sigma d n A B x) <= eta * gated_weight d n A B * vnorm d x.
Proof.
  intros Heta Hs. apply (weighted_bound d n A B x eta (fun j => sigma (dot d (row A j) x))).
  intros j Hj. eapply Rle_trans; [exact (Hs j Hj)|].
  apply Rmult_le_compat_l; [exact Heta | apply dot_bound].
Qed.

Lemma ungated_littleo0 sigma d n A B :
  scalar_littleo0 sigma -> littleo0 d (ungated sigma d n A B).
Proof.
  intros Hs. apply (littleo0_of_rows d n A _ _ (gated_weight_nonneg d n A B)).
  intros eta Heta. destruct (Hs eta Heta) as [dl [Hdl Hsm]].
  exists dl. split; [exact Hdl|]. intros x Hx.
  apply ungated_bound; [lra|]. intros j Hj. apply Hsm, Hx, Hj.
Qed.

Lemma ungated_bounded sigma d n A B K0 :
  (forall z, Rabs (sigma z) <= K0) -> bounded_map d (ungated sigma d n A B).
Proof.
  intros HK. exists (sumn d (fun i => sumn n (fun j => Rabs (B i j) * K0))). intros x.
  apply sumn_le. intros i _. eapply Rle_trans; [apply sumn_abs|].
  apply sumn_le. intros j _. rewrite Rabs_mult.
  apply Rmult_le_compat_l; [apply Rabs_pos | apply HK].
Qed.

(** ** Homogeneous activations *)

Lemma homogeneous_at_0 k sigma : (1 <= k)%nat -> pos_homogeneous k sigma -> sigma 0 = 0.
Proof.
  intros Hk Hs. pose proof (Hs 2 0 ltac:(lra)) as H. rewrite Rmult_0_r in H.
  assert (H1 : 1 < 2 ^ k) by (apply Rlt_pow_R1; [lra | lia]).
  assert (Hz : (2 ^ k - 1) * sigma 0 = 0) by lra.
  apply Rmult_integral in Hz. destruct Hz as [Hz|Hz]; [lra | exact Hz].
Qed.

(** The values at [1] and [-1] determine a homogeneous activation. *)
Lemma homogeneous_pos k sigma z : pos_homogeneous k sigma -> 0 < z -> sigma z = z ^ k * sigma 1.
Proof. intros Hs Hz. rewrite <- (Hs z 1 Hz). f_equal. ring. Qed.

Lemma homogeneous_neg k sigma z :
  pos_homogeneous k sigma -> z < 0 -> sigma z = (- z) ^ k * sigma (-1).
Proof. intros Hs Hz. rewrite <- (Hs (- z) (-1) ltac:(lra)). f_equal. ring. Qed.

Lemma homogeneous_pow_bound k sigma z :
  (1 <= k)%nat -> pos_homogeneous k sigma ->
  Rabs (sigma z) <= (Rabs (sigma 1) + Rabs (sigma (-1))) * Rabs z ^ k.
Proof.
  intros Hk Hs.
  pose proof (Rabs_pos (sigma 1)). pose proof (Rabs_pos (sigma (-1))).
  assert (Hp : 0 <= Rabs z ^ k) by (apply pow_le; apply Rabs_pos).
  destruct (Rtotal_order z 0) as [Hz|[Hz|Hz]].
  - rewrite (homogeneous_neg k sigma z Hs Hz), Rabs_mult, <- RPow_abs, Rabs_Ropp. nra.
  - subst. rewrite (homogeneous_at_0 k sigma Hk Hs).
    apply Rle_trans with 0; [rewrite Rabs_R0; lra | apply Rmult_le_pos; lra].
  - rewrite (homogeneous_pos k sigma z Hs Hz), Rabs_mult, <- RPow_abs. nra.
Qed.

Lemma pow_le_sq a k : 0 <= a <= 1 -> (2 <= k)%nat -> a ^ k <= a ^ 2.
Proof.
  intros Ha Hk. replace k with (2 + (k - 2))%nat by lia. rewrite pow_add.
  assert (a ^ (k - 2) <= 1).
  { rewrite <- (pow1 (k - 2)). apply pow_incr. lra. }
  assert (0 <= a ^ 2) by (apply pow_le; lra).
  pose proof (pow_le a (k - 2) ltac:(lra)). nra.
Qed.

Lemma homogeneous_scalar_littleo0 k sigma :
  (2 <= k)%nat -> pos_homogeneous k sigma -> scalar_littleo0 sigma.
Proof.
  intros Hk Hs eps He.
  set (K := Rabs (sigma 1) + Rabs (sigma (-1))).
  assert (HK : 0 <= K) by (unfold K; pose proof (Rabs_pos (sigma 1));
                            pose proof (Rabs_pos (sigma (-1))); lra).
  exists (Rmin 1 (eps / (K + 1))).
  split; [apply Rmin_pos; [lra | apply Rdiv_lt_0_compat; lra]|]. intros z Hz.
  pose proof (Rmin_l 1 (eps / (K + 1))). pose proof (Rmin_r 1 (eps / (K + 1))).
  set (a := Rabs z) in *. assert (Ha : 0 <= a) by apply Rabs_pos.
  eapply Rle_trans; [apply (homogeneous_pow_bound k); [lia | exact Hs]|]. fold K a.
  assert (a ^ k <= a ^ 2) by (apply pow_le_sq; [lra | exact Hk]).
  assert (K * a <= eps).
  { assert ((K + 1) * (eps / (K + 1)) = eps) by (field; lra).
    assert ((K + 1) * a <= (K + 1) * (eps / (K + 1))) by (apply Rmult_le_compat_l; lra).
    nra. }
  assert (K * a ^ k <= K * a ^ 2) by (apply Rmult_le_compat_l; assumption).
  simpl in *. nra.
Qed.

Lemma homogeneous0_bounded sigma z :
  pos_homogeneous 0 sigma -> Rabs (sigma z) <= Rabs (sigma 1) + Rabs (sigma (-1)) + Rabs (sigma 0).
Proof.
  intros Hs.
  pose proof (Rabs_pos (sigma 1)). pose proof (Rabs_pos (sigma (-1))).
  pose proof (Rabs_pos (sigma 0)).
  destruct (Rtotal_order z 0) as [Hz|[Hz|Hz]].
  - rewrite (homogeneous_neg 0 sigma z Hs Hz). simpl. rewrite Rmult_1_l. lra.
  - subst. lra.
  - rewrite (homogeneous_pos 0 sigma z Hs Hz). simpl. rewrite Rmult_1_l. lra.
Qed.

Lemma gblock_littleo0 gamma d b : vanishing_at_0 gamma -> littleo0 d (gblock gamma d b).
Proof. intros Hg. destruct b as [[[n C] A] B]. apply gated_littleo0. exact Hg. Qed.

Lemma ublock_littleo0 sigma d b : scalar_littleo0 sigma -> littleo0 d (ublock sigma d b).
Proof. intros Hs. destruct b as [[n A] B]. apply ungated_littleo0. exact Hs. Qed.

Lemma ublock_bounded sigma d b : pos_homogeneous 0 sigma -> bounded_map d (ublock sigma d b).
Proof.
  intros Hs. destruct b as [[n A] B]. eapply ungated_bounded.
  intros z. exact (homogeneous0_bounded sigma z Hs).
Qed.

(** ** R4, with invertible skips (beyond) *)

Theorem depth_gated_not_representable_skips :
  forall gamma d (res : list (mat * (nat * mat * mat * mat))) (free : list (nat * mat * mat * mat)),
  (1 <= d)%nat -> vanishing_at_0 gamma ->
  Forall (fun r => exists Q, inverse_of d (fst r) Q) res -> free <> nil ->
  ~ same_fun d (compose (map (fun r => residual d (fst r) (gblock gamma d (snd r))) res))
               (compose (map (gblock gamma d) free)).
Proof.
  intros gamma d res free Hd Hg.
  exact (depth_small_not_representable d _ (littleo0_class d) (gblock gamma d) res free Hd
           (fun b => gblock_littleo0 gamma d b Hg)).
Qed.

(** The general depth theorem for ungated blocks with an [o(|z|)] activation. *)
Theorem depth_littleo_not_representable_skips :
  forall sigma d (res : list (mat * (nat * mat * mat))) (free : list (nat * mat * mat)),
  (1 <= d)%nat -> scalar_littleo0 sigma ->
  Forall (fun r => exists Q, inverse_of d (fst r) Q) res -> free <> nil ->
  ~ same_fun d (compose (map (fun r => residual d (fst r) (ublock sigma d (snd r))) res))
               (compose (map (ublock sigma d) free)).
Proof.
  intros sigma d res free Hd Hs.
  exact (depth_small_not_representable d _ (littleo0_class d) (ublock sigma d) res free Hd
           (fun b => ublock_littleo0 sigma d b Hs)).
Qed.

Theorem depth_homogeneous_not_representable_skips :
  forall k sigma d (res : list (mat * (nat * mat * mat))) (free : list (nat * mat * mat)),
  (1 <= d)%nat -> (k = 0 \/ 2 <= k)%nat -> pos_homogeneous k sigma ->
  Forall (fun r => exists Q, inverse_of d (fst r) Q) res -> free <> nil ->
  ~ same_fun d (compose (map (fun r => residual d (fst r) (ublock sigma d (snd r))) res))
               (compose (map (ublock sigma d) free)).
Proof.
  intros k sigma d res free Hd [->|Hk] Hs.
  - exact (depth_small_not_representable d _ (bounded_class d) (ublock sigma d) res free Hd
             (fun b => ublock_bounded sigma d b Hs)).
  - exact (depth_littleo_not_representable_skips sigma d res free Hd
             (homogeneous_scalar_littleo0 k sigma Hk Hs)).
Qed.

(** ** R4 with identity skips (any numbers of blocks, the free list nonempty) *)

Theorem depth_gated_not_representable :
  forall gamma d (res free : list (nat * mat * mat * mat)),
  (1 <= d)%nat -> vanishing_at_0 gamma -> free <> nil ->
  ~ same_fun d (compose (map (res_gblock gamma d) res)) (compose (map (gblock gamma d) free)).
Proof.
  intros gamma d res free Hd Hg.
  exact (depth_small_not_representable_id d _ (littleo0_class d) (gblock gamma d) res free Hd
           (fun b => gblock_littleo0 gamma d b Hg)).
Qed.

Theorem depth_homogeneous_not_representable :
  forall k sigma d (res free : list (nat * mat * mat)),
  (1 <= d)%nat -> (k = 0 \/ 2 <= k)%nat -> pos_homogeneous k sigma -> free <> nil ->
  ~ same_fun d (compose (map (res_ublock sigma d) res)) (compose (map (ublock sigma d) free)).
Proof.
  intros k sigma d res free Hd Hk Hs Hfree.
  pose proof (depth_homogeneous_not_representable_skips k sigma d (map (fun b => (identity, b)) res)
                free Hd Hk Hs (identity_skips d res) Hfree) as H.
  rewrite map_map in H. exact H.
Qed.

(** ** Also at depth one: an ungated block whose activation is [o(|z|)] at 0
    (e.g. [k]-homogeneous with [k >= 2]) is never absorbable. *)

Theorem littleo_not_absorbable_ungated : forall sigma d n m P A B,
  scalar_littleo0 sigma -> nonzero_mat d P -> ~ absorbable_ungated sigma d n m P A B.
Proof.
  intros sigma d n m P A B Hs HP [A' [B' E]].
  apply (mv_vanishing_not_nonzero d P); [|exact HP].
  apply linear_littleo0_zero.
  apply (littleo0_ext d (fun x k => ungated sigma d m A' B' x k - ungated sigma d n A B x k)).
  - intros x i Hi. rewrite (E x i Hi). unfold residual. ring.
  - apply littleo0_minus; apply ungated_littleo0; exact Hs.
Qed.

(** ** Homogeneous gates of degree [k >= 1] vanish continuously at 0 *)

Lemma pow_le_self a k : 0 <= a <= 1 -> (1 <= k)%nat -> a ^ k <= a.
Proof.
  intros Ha Hk. replace k with (1 + (k - 1))%nat by lia. rewrite pow_add, pow_1.
  assert (a ^ (k - 1) <= 1) by (rewrite <- (pow1 (k - 1)); apply pow_incr; lra).
  pose proof (pow_le a (k - 1) ltac:(lra)). nra.
Qed.

Lemma homogeneous_vanishing_at_0 k gamma :
  (1 <= k)%nat -> pos_homogeneous k gamma -> vanishing_at_0 gamma.
Proof.
  intros Hk Hs. split; [|exact (homogeneous_at_0 k gamma Hk Hs)].
  intros eps He.
  set (K := Rabs (gamma 1) + Rabs (gamma (-1))).
  assert (HK : 0 <= K) by (unfold K; pose proof (Rabs_pos (gamma 1));
                            pose proof (Rabs_pos (gamma (-1))); lra).
  exists (Rmin 1 (eps / (K + 1))).
  split; [apply Rmin_pos; [lra | apply Rdiv_lt_0_compat; lra]|]. intros z [_ Hz].
  simpl in *. unfold R_dist in *. rewrite Rminus_0_r in Hz.
  rewrite (homogeneous_at_0 k gamma Hk Hs), Rminus_0_r.
  pose proof (Rmin_l 1 (eps / (K + 1))). pose proof (Rmin_r 1 (eps / (K + 1))).
  set (a := Rabs z) in *. assert (Ha : 0 <= a) by apply Rabs_pos.
  eapply Rle_lt_trans; [apply (homogeneous_pow_bound k); [exact Hk | exact Hs]|]. fold K a.
  assert (a ^ k <= a) by (apply pow_le_self; [lra | exact Hk]).
  assert (K * a ^ k <= K * a) by (apply Rmult_le_compat_l; assumption).
  assert ((K + 1) * a < (K + 1) * (eps / (K + 1))) by (apply Rmult_lt_compat_l; lra).
  assert ((K + 1) * (eps / (K + 1)) = eps) by (field; lra).
  nra.
Qed.

(** Depth for gated blocks with a [k]-homogeneous gate, [k >= 1] (ReGLU: [k = 1]). *)
Theorem depth_gated_homogeneous_not_representable :
  forall k gamma d (res free : list (nat * mat * mat * mat)),
  (1 <= d)%nat -> (1 <= k)%nat -> pos_homogeneous k gamma -> free <> nil ->
  ~ same_fun d (compose (map (res_gblock gamma d) res)) (compose (map (gblock gamma d) free)).
Proof.
  intros k gamma d res free Hd Hk Hs Hfree.
  exact (depth_gated_not_representable gamma d res free Hd
           (homogeneous_vanishing_at_0 k gamma Hk Hs) Hfree).
Qed.
