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

    Method.  [near_lin d M F]: [F x = M x + o(|x|)] uniformly at 0;
    [near_lin_inf d M F]: [F x = M x + O(1)].  Both are stable under
    composition (the linear parts multiply); residual blocks with [o(|x|)]
    (resp. bounded) branches are [near_lin] (resp. [near_lin_inf]) with an
    injective linear part, while nonempty compositions of [o(|x|)]
    (resp. bounded) maps are [o(|x|)] (resp. bounded).  An injective linear
    map on [R^d], [d >= 1], is neither. *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Sums Blocks SkipReduction Gated.
Open Scope R_scope.

(** ** Composition of a list of maps, head first *)

Fixpoint compose (fs : list (vec -> vec)) : vec -> vec :=
  match fs with
  | nil => fun x => x
  | f :: fs' => fun x => compose fs' (f x)
  end.

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

Lemma near_lin_id d : near_lin d identity (fun x => x).
Proof.
  apply littleo0_vanishing. intros x i Hi. rewrite (mv_identity d x i Hi). ring.
Qed.

Lemma near_lin_residual d P g : littleo0 d g -> near_lin d P (residual d P g).
Proof.
  apply littleo0_ext. intros x i _. unfold residual. ring.
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

(** Splitting [G (F x) - N M x] as [(G - N)(F x) + N (F x - M x)]. *)
Lemma compose_split d M N F G x :
  vec_eq d (fun k => G (F x) k - mv d (mm d N M) x k)
    (fun k => (G (F x) k - mv d N (F x) k) + mv d N (fun l => F x l - mv d M x l) k).
Proof. intros k _. rewrite mv_minus, <- mv_mm. ring. Qed.

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
  (* size of F x *)
  assert (HFx : vnorm d (F x) <= (KM + 1) * X).
  { rewrite (vnorm_ext d (F x) (fun k => D k + mv d M x k)) by (intros k _; unfold D; ring).
    eapply Rle_trans; [apply vnorm_plus|].
    pose proof (mv_bound d M x). fold KM X in H1.
    assert (e1 * X <= 1 * X) by (apply Rmult_le_compat_r; lra). lra. }
  assert (HFsmall : vnorm d (F x) < dG).
  { assert ((KM + 2) * X < (KM + 2) * (dG / (KM + 2))) by (apply Rmult_lt_compat_l; lra).
    assert ((KM + 2) * (dG / (KM + 2)) = dG) by (field; lra). nra. }
  pose proof (HG' (F x) HFsmall) as Ha.
  pose proof (mv_bound d N D) as Hb. fold KN in Hb.
  rewrite (vnorm_ext d _ _ (compose_split d M N F G x)).
  eapply Rle_trans; [apply vnorm_plus|]. fold D.
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

(** A near-linear map with injective linear part is not [o(|x|)]. *)
Lemma near_lin_littleo0_absurd d M F G :
  (1 <= d)%nat -> lin_injective d M -> near_lin d M F -> littleo0 d G ->
  ~ same_fun d F G.
Proof.
  intros Hd HM HF HG E. apply (injective_not_vanishing d M Hd HM).
  apply linear_littleo0_zero.
  apply (littleo0_ext d (fun x k => G x k - (F x k - mv d M x k))).
  - intros x i Hi. rewrite (E x i Hi). ring.
  - apply littleo0_minus; assumption.
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

Lemma near_lin_inf_id d : near_lin_inf d identity (fun x => x).
Proof.
  exists 0. intros x. right. apply sumn_zero. intros i Hi.
  rewrite (mv_identity d x i Hi), Rminus_diag_eq, Rabs_R0; reflexivity.
Qed.

Lemma near_lin_inf_residual d P g : bounded_map d g -> near_lin_inf d P (residual d P g).
Proof.
  apply bounded_ext. intros x i _. unfold residual. ring.
Qed.

Lemma bounded_compose d F G : bounded_map d G -> bounded_map d (fun x => G (F x)).
Proof. intros [K HK]. exists K. intros x. apply HK. Qed.

Lemma near_lin_inf_compose d M N F G :
  near_lin_inf d M F -> near_lin_inf d N G -> near_lin_inf d (mm d N M) (fun x => G (F x)).
Proof.
  intros [KF HF] [KG HG]. exists (KG + mat_norm d N * KF). intros x.
  rewrite (vnorm_ext d _ _ (compose_split d M N F G x)).
  eapply Rle_trans; [apply vnorm_plus|].
  pose proof (HG (F x)). pose proof (HF x) as H2.
  pose proof (mv_bound d N (fun l => F x l - mv d M x l)).
  pose proof (mat_norm_nonneg d N).
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

Lemma near_lin_inf_bounded_absurd d M F G :
  (1 <= d)%nat -> lin_injective d M -> near_lin_inf d M F -> bounded_map d G ->
  ~ same_fun d F G.
Proof.
  intros Hd HM HF HG E. apply (injective_not_vanishing d M Hd HM).
  apply linear_bounded_zero.
  apply (bounded_ext d (fun x k => G x k - (F x k - mv d M x k))).
  - intros x i Hi. rewrite (E x i Hi). ring.
  - apply bounded_minus; assumption.
Qed.

(** ** Compositions of lists *)

Lemma compose_near_lin d (fs : list (vec -> vec)) :
  Forall (fun f => exists P, lin_injective d P /\ near_lin d P f) fs ->
  exists M, lin_injective d M /\ near_lin d M (compose fs).
Proof.
  induction fs as [|f fs IH]; intros H.
  - exists identity. split; [apply identity_injective | apply near_lin_id].
  - inversion H as [|f' fs' [P [HP Hf]] Hfs]; subst.
    destruct (IH Hfs) as [M [HM HFs]]. exists (mm d M P). split.
    + apply mm_injective; assumption.
    + exact (near_lin_compose d P M f (compose fs) Hf HFs).
Qed.

Lemma compose_near_lin_inf d (fs : list (vec -> vec)) :
  Forall (fun f => exists P, lin_injective d P /\ near_lin_inf d P f) fs ->
  exists M, lin_injective d M /\ near_lin_inf d M (compose fs).
Proof.
  induction fs as [|f fs IH]; intros H.
  - exists identity. split; [apply identity_injective | apply near_lin_inf_id].
  - inversion H as [|f' fs' [P [HP Hf]] Hfs]; subst.
    destruct (IH Hfs) as [M [HM HFs]]. exists (mm d M P). split.
    + apply mm_injective; assumption.
    + exact (near_lin_inf_compose d P M f (compose fs) Hf HFs).
Qed.

Lemma compose_littleo0 d (fs : list (vec -> vec)) :
  fs <> nil -> Forall (littleo0 d) fs -> littleo0 d (compose fs).
Proof.
  induction fs as [|f fs IH]; intros Hne H; [congruence|].
  inversion H as [|f' fs' Hf Hfs]; subst.
  destruct fs as [|g gs].
  - exact Hf.
  - exact (littleo0_compose d f (compose (g :: gs)) Hf (IH ltac:(discriminate) Hfs)).
Qed.

Lemma compose_bounded d (fs : list (vec -> vec)) :
  fs <> nil -> Forall (bounded_map d) fs -> bounded_map d (compose fs).
Proof.
  induction fs as [|f fs IH]; intros Hne H; [congruence|].
  inversion H as [|f' fs' Hf Hfs]; subst.
  destruct fs as [|g gs].
  - exact Hf.
  - exact (bounded_compose d f (compose (g :: gs)) (IH ltac:(discriminate) Hfs)).
Qed.

(** The abstract depth theorems. *)
Lemma depth_littleo0_abstract d (rs : list (mat * (vec -> vec))) (fs : list (vec -> vec)) :
  (1 <= d)%nat ->
  Forall (fun r => (exists Q, inverse_of d (fst r) Q) /\ littleo0 d (snd r)) rs ->
  fs <> nil -> Forall (littleo0 d) fs ->
  ~ same_fun d (compose (map (fun r => residual d (fst r) (snd r)) rs)) (compose fs).
Proof.
  intros Hd Hrs Hne Hfs.
  destruct (compose_near_lin d (map (fun r => residual d (fst r) (snd r)) rs)) as [M [HM HF]].
  - apply Forall_map. eapply Forall_impl; [|exact Hrs]. intros [P g] [[Q HPQ] Hg].
    exists P. split; [exact (invertible_injective d P Q HPQ) | apply near_lin_residual; exact Hg].
  - exact (near_lin_littleo0_absurd d M _ _ Hd HM HF (compose_littleo0 d fs Hne Hfs)).
Qed.

Lemma depth_bounded_abstract d (rs : list (mat * (vec -> vec))) (fs : list (vec -> vec)) :
  (1 <= d)%nat ->
  Forall (fun r => (exists Q, inverse_of d (fst r) Q) /\ bounded_map d (snd r)) rs ->
  fs <> nil -> Forall (bounded_map d) fs ->
  ~ same_fun d (compose (map (fun r => residual d (fst r) (snd r)) rs)) (compose fs).
Proof.
  intros Hd Hrs Hne Hfs.
  destruct (compose_near_lin_inf d (map (fun r => residual d (fst r) (snd r)) rs)) as [M [HM HF]].
  - apply Forall_map. eapply Forall_impl; [|exact Hrs]. intros [P g] [[Q HPQ] Hg].
    exists P. split; [exact (invertible_injective d P Q HPQ) | apply near_lin_inf_residual; exact Hg].
  - exact (near_lin_inf_bounded_absurd d M _ _ Hd HM HF (compose_bounded d fs Hne Hfs)).
Qed.
