(** * Continuous maps of R^d are bounded on bounded sets

    [continuous_vec_bounded_on_bounded]: every continuous map of [R^d]
    ([continuous_vec], [spec/ContinuityDefs.v]) is [bounded_on_bounded]
    ([spec/Norms.v]), the one property of continuity the R11 theorems use.
    Elementary compactness of the box [[-K, K]^d], no topology library:
    - [interval_cover]: a property of sets of reals that passes to subsets
      and to unions of two sets ([hereditary_union]) and holds near every
      point holds on every [[a, b]] (a least-upper-bound argument, Coq's
      [completeness]);
    - [box_cover]: the same for the boxes [box d K], by induction on [d]:
      the induction hypothesis, applied to the property "holds on the part
      of the set in some slab [|y_d - t| < eta]", gives a tube around each
      slice [y_d = t] (the tube lemma), then [interval_cover] in the last
      coordinate;
    - [continuous_coord_bounded_box]: with "some [M] bounds [|f(y)_i|] on
      the set" as the property, each output coordinate is bounded on the
      box; summing over [i < d] ([bounded_coords_sum]) and
      [sum_k |x_k| <= K -> x in box d K] give the theorem.
    Also [coordinatewise_continuous]: applying a continuous [phi : R -> R]
    to every coordinate is [continuous_vec] (for non-vacuity instances). *)

From Coq Require Import Reals Lra Lia Classical.
From Absorb Require Import SumDefs Sums BlockDefs Norms ContinuityDefs.
Open Scope R_scope.

(** ** Local-to-global on an interval *)

(** [Q] holds on every subset of a set it holds on, and on the union of
    two sets it holds on. *)
Definition hereditary_union {A : Type} (Q : (A -> Prop) -> Prop) : Prop :=
  (forall S T : A -> Prop, (forall y, T y -> S y) -> Q S -> Q T) /\
  (forall S T : A -> Prop, Q S -> Q T -> Q (fun y => S y \/ T y)).

Lemma interval_cover (Q : (R -> Prop) -> Prop) a b :
  hereditary_union Q ->
  (forall t, exists eta, 0 < eta /\ Q (fun s => Rabs (s - t) < eta)) ->
  Q (fun s => a <= s <= b).
Proof.
  intros [Hmono Hunion] Hloc.
  assert (Hmono' : forall S T : _ -> Prop, Q S -> (forall y, T y -> S y) -> Q T)
    by (intros S T HS HTS; exact (Hmono S T HTS HS)).
  destruct (Rle_or_lt a b) as [Hab|Hab].
  2: { destruct (Hloc a) as [eta [_ Ha]].
       apply (Hmono' _ _ Ha). intros s Hs. exfalso; lra. }
  set (E := fun s => a <= s <= b /\ Q (fun u => a <= u <= s)).
  assert (Ha : E a).
  { split; [lra|]. destruct (Hloc a) as [eta [He Ha]]. apply (Hmono' _ _ Ha).
    intros u Hu. replace (u - a) with 0 by lra. rewrite Rabs_R0. exact He. }
  assert (Hbd : bound E) by (exists b; intros s [Hs _]; lra).
  destruct (completeness E Hbd (ex_intro _ a Ha)) as [m [Hub Hlub]].
  assert (Ham : a <= m) by (apply Hub, Ha).
  assert (Hmb : m <= b) by (apply Hlub; intros s [Hs _]; lra).
  destruct (Hloc m) as [eta [He Hm]].
  assert (Hs : exists s, E s /\ m - eta < s).
  { apply NNPP. intros Hno.
    assert (Hup : is_upper_bound E (m - eta)).
    { intros s Es. apply Rnot_lt_le. intros Hlt. apply Hno. exists s. split; assumption. }
    pose proof (Hlub _ Hup). lra. }
  destruct Hs as [s [[Hs1 Hs2] Hs3]].
  set (s' := Rmin (m + eta / 2) b).
  assert (Hs' : Q (fun u => a <= u <= s')).
  { apply (Hmono' _ _ (Hunion _ _ Hs2 Hm)). intros u Hu.
    destruct (Rle_or_lt u s) as [Hus|Hus]; [left; lra | right].
    assert (u <= m + eta / 2) by (pose proof (Rmin_l (m + eta / 2) b); unfold s' in Hu; lra).
    apply Rabs_def1; lra. }
  assert (Hs'm : s' <= m).
  { apply Hub. split; [|exact Hs'].
    split; [unfold s'; apply Rmin_glb; lra | apply Rmin_r]. }
  assert (Hbm : b <= m).
  { unfold s', Rmin in Hs'm. destruct (Rle_dec (m + eta / 2) b); lra. }
  apply (Hmono' _ _ Hs'). intros u Hu. split; [lra|].
  unfold s'. apply Rmin_glb; lra.
Qed.

(** ** Local-to-global on a box *)

(** The box [[-K, K]^d] (the coordinates [k >= d] free). *)
Definition box (d : nat) (K : R) (y : vec) : Prop :=
  forall k, (k < d)%nat -> Rabs (y k) <= K.

(** The open cube of half-side [delta] around [x] (the coordinates [k >= d] free). *)
Definition cube (d : nat) (x : vec) (delta : R) (y : vec) : Prop :=
  forall k, (k < d)%nat -> Rabs (y k - x k) < delta.

Lemma box_cover d : forall (Q : (vec -> Prop) -> Prop) K,
  hereditary_union Q ->
  (forall x, exists delta, 0 < delta /\ Q (cube d x delta)) ->
  Q (box d K).
Proof.
  induction d as [|d IH]; intros Q K HQ Hloc; pose proof HQ as [Hmono Hunion];
    assert (Hmono' : forall S T : _ -> Prop, Q S -> (forall y, T y -> S y) -> Q T)
      by (intros S T HS HTS; exact (Hmono S T HTS HS)).
  - destruct (Hloc (fun _ => 0)) as [delta [_ Hc]].
    apply (Hmono' _ _ Hc). intros y _ k Hk. lia.
  - (* the tube lemma: a slab around each slice [y_d = t] *)
    assert (Htube : forall t, exists eta, 0 < eta /\
                      Q (fun y => box d K y /\ Rabs (y d - t) < eta)).
    { intros t.
      set (Qt := fun S : vec -> Prop =>
                   exists eta, 0 < eta /\ Q (fun y => S y /\ Rabs (y d - t) < eta)).
      assert (HQt : hereditary_union Qt).
      { split.
        - intros S T HTS [eta [He HS]]. exists eta. split; [exact He|].
          apply (Hmono' _ _ HS). intros y [Hy Hyd]. split; [apply HTS, Hy | exact Hyd].
        - intros S T [e1 [He1 HS]] [e2 [He2 HT]]. exists (Rmin e1 e2).
          split; [apply Rmin_pos; assumption|].
          apply (Hmono' _ _ (Hunion _ _ HS HT)).
          pose proof (Rmin_l e1 e2). pose proof (Rmin_r e1 e2).
          intros y [[Hy|Hy] Hyd]; [left | right]; split; auto; lra. }
      assert (HlocT : forall x, exists delta, 0 < delta /\ Qt (cube d x delta)).
      { intros x. destruct (Hloc (fun k => if Nat.eq_dec k d then t else x k))
          as [delta [Hd Hc]].
        exists delta. split; [exact Hd|]. exists delta. split; [exact Hd|].
        apply (Hmono' _ _ Hc). intros y [Hy Hyd] k Hk.
        destruct (Nat.eq_dec k d) as [->|Hne]; [exact Hyd | apply Hy; lia]. }
      destruct (IH Qt K HQt HlocT) as [eta [He HQ']]. exists eta. split; assumption. }
    (* then an interval in the last coordinate *)
    set (R1 := fun S : R -> Prop => Q (fun y => box d K y /\ S (y d))).
    assert (HR1 : hereditary_union R1).
    { split.
      - intros S T HTS HS. apply (Hmono' _ _ HS).
        intros y [Hy Hyd]. split; [exact Hy | apply HTS, Hyd].
      - intros S T HS HT. apply (Hmono' _ _ (Hunion _ _ HS HT)).
        intros y [Hy [Hyd|Hyd]]; [left | right]; split; assumption. }
    pose proof (interval_cover R1 (- K) K HR1 Htube) as HI.
    apply (Hmono' _ _ HI). intros y Hy. split.
    + intros k Hk. apply Hy. lia.
    + pose proof (Hy d (Nat.lt_succ_diag_r d)) as Hyd.
      unfold Rabs in Hyd. destruct (Rcase_abs (y d)); lra.
Qed.

(** ** Continuous maps are bounded on bounded sets *)

Lemma continuous_coord_bounded_box d f i K : continuous_vec d f -> (i < d)%nat ->
  exists M, forall y, box d K y -> Rabs (f y i) <= M.
Proof.
  intros Hc Hi.
  set (Q := fun S : vec -> Prop => exists M, forall y, S y -> Rabs (f y i) <= M).
  apply (box_cover d Q K).
  - split.
    + intros S T HTS [M HM]. exists M. intros y Hy. apply HM, HTS, Hy.
    + intros S T [M1 H1] [M2 H2]. exists (Rmax M1 M2). intros y [Hy|Hy].
      * eapply Rle_trans; [apply H1, Hy | apply Rmax_l].
      * eapply Rle_trans; [apply H2, Hy | apply Rmax_r].
  - intros x. destruct (Hc x i 1 Hi Rlt_0_1) as [delta [Hd H]].
    exists delta. split; [exact Hd|]. exists (Rabs (f x i) + 1). intros y Hy.
    pose proof (H y Hy) as Hyx.
    replace (f y i) with ((f y i - f x i) + f x i) by ring.
    eapply Rle_trans; [apply Rabs_triang|]. lra.
Qed.

Lemma bounded_coords_sum d (S : vec -> Prop) (F : vec -> vec) :
  (forall i, (i < d)%nat -> exists M, forall y, S y -> Rabs (F y i) <= M) ->
  exists M, forall y, S y -> sumn d (fun k => Rabs (F y k)) <= M.
Proof.
  induction d as [|d IH]; intros H.
  - exists 0. intros y _. simpl. lra.
  - destruct IH as [M1 H1]; [intros i Hi; apply H; lia|].
    destruct (H d (Nat.lt_succ_diag_r d)) as [M2 H2].
    exists (M1 + M2). intros y Hy. rewrite sumn_S.
    pose proof (H1 y Hy). pose proof (H2 y Hy). lra.
Qed.

(** Every continuous map of [R^d] maps bounded sets to bounded sets. *)
Theorem continuous_vec_bounded_on_bounded d f :
  continuous_vec d f -> bounded_on_bounded d f.
Proof.
  intros Hc K.
  destruct (bounded_coords_sum d (box d K) f
              (fun i Hi => continuous_coord_bounded_box d f i K Hc Hi)) as [M HM].
  exists M. intros x Hx. apply HM. intros k Hk. eapply Rle_trans; [|exact Hx].
  apply (sumn_term_le d (fun k => Rabs (x k)) k); [intros; apply Rabs_pos | exact Hk].
Qed.

(** ** Coordinatewise maps *)

(** [x |-> (phi x_0, phi x_1, ...)] for a continuous [phi : R -> R]. *)
Lemma coordinatewise_continuous d (phi : R -> R) :
  continuity phi -> continuous_vec d (fun x i => phi (x i)).
Proof.
  intros Hc x i eps Hi He.
  destruct (Hc (x i) eps He) as [delta [Hd H]].
  exists delta. split; [exact Hd|]. intros y Hy.
  destruct (Req_dec (y i) (x i)) as [Heq|Hne].
  - rewrite Heq. unfold Rminus. rewrite Rplus_opp_r, Rabs_R0. exact He.
  - apply (H (y i)). split; [split; [exact I | auto] | apply (Hy i Hi)].
Qed.
