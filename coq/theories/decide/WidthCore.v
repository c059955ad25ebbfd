(** * R8 (=>), the counting core: labelled witness rows give the width condition

    Activation-free bookkeeping behind paper.md's R8 / R8' (=>).  The rows
    [j < m] of a witness block [(A', B')] carry labels [l < M] (a row has at
    most one label; [mem l j]); the labels [t < k] are the classes [u_t] of a
    ridge form, the others are further lines [W l].  A labelled row is
    [a'_j = sc l j * W l].  [width_core] (headline) shows: if
    - the odd parts agree: [sum_j b'_j a'_j^T = 2 L + sum_t gamma_t u_t^T], and
    - the kinks agree: for every label the kinks [b'_j |sc|] of its rows add
      up to [gamma_l] ([l < k]) or to [0] ([l >= k]),
    then [width_condition d k m U G L] holds.  Label [l]'s rows with negative
    [sc] carry [N_l = sum b'_j |sc|] and [L = - sum_l N_l W_l^T]; a class
    whose rows all have one orientation costs nothing beyond its row ([S] or
    nothing), a class with both orientations is in [T] (two rows), a further
    line with both orientations is one rank-one term (two rows).
    [masked_outer_low_rank] turns a masked sum of outer products into a
    [low_rank] product of the right inner dimension. *)

From Coq Require Import Reals Lra Lia Bool.
From Absorb Require Import Sums Blocks.
From Absorb.decide Require Import RidgeForm.
Open Scope R_scope.
Open Scope bool_scope.

(** ** Counting *)

Lemma count_INR n (f : nat -> bool) : INR (count n f) = sumn n (fun i => if f i then 1 else 0).
Proof.
  induction n as [|n IH]; [reflexivity|]. simpl count. rewrite plus_INR, IH, sumn_S.
  destruct (f n); simpl; ring.
Qed.

Lemma count_zero_false n (f : nat -> bool) : count n f = 0%nat -> forall i, (i < n)%nat ->
    f i = false.
Proof.
  induction n as [|n IH]; intros H i Hi; [lia|]. simpl in H.
  destruct (f n) eqn:E; [lia|]. rewrite Nat.add_0_r in H.
  destruct (Nat.eq_dec i n) as [->|]; [exact E | apply IH; [exact H | lia]].
Qed.

Lemma count_split n (f g : nat -> bool) :
  (count n (fun i => f i && g i) + count n (fun i => f i && negb (g i)))%nat = count n f.
Proof.
  induction n as [|n IH]; [reflexivity|]. simpl. rewrite <- IH.
  destruct (f n), (g n); simpl; lia.
Qed.

Lemma sumn_const_one n : sumn n (fun _ => 1) = INR n.
Proof. induction n as [|n IH]; [reflexivity|]. rewrite sumn_S, IH, S_INR. ring. Qed.

(** A predicate true for at most one index contributes at most one. *)
Lemma sumn_indicator_le_one M (f : nat -> bool) :
  (forall l1 l2, (l1 < M)%nat -> (l2 < M)%nat -> f l1 = true -> f l2 = true -> l1 = l2) ->
  sumn M (fun l => if f l then 1 else 0) <= 1.
Proof.
  induction M as [|M IH]; intros H; [simpl; lra|]. rewrite sumn_S.
  destruct (f M) eqn:E.
  - rewrite sumn_zero; [lra|]. intros l Hl. destruct (f l) eqn:El; [|reflexivity].
    pose proof (H l M ltac:(lia) ltac:(lia) El E). lia.
  - rewrite Rplus_0_r. apply IH. intros l1 l2 H1 H2. apply H; lia.
Qed.

(** Splitting a sum over labels at [k]. *)
Lemma sumn_split_at k M (f : nat -> R) : (k <= M)%nat ->
  sumn M f = sumn k f + sumn (M - k) (fun i => f (k + i)%nat).
Proof. intros H. replace M with (k + (M - k))%nat at 1 by lia. apply sumn_add. Qed.

(** ** A masked sum of outer products has low rank *)

Lemma masked_outer_low_rank M (R0 : nat -> bool) (P W : mat) :
  exists P' Q' : mat, forall i j, masked_outer M R0 P W i j = low_rank (count M R0) P' Q' i j.
Proof.
  induction M as [|M [P' [Q' IH]]].
  - exists P, W. intros i j. reflexivity.
  - simpl count. destruct (R0 M) eqn:E.
    + set (c := count M R0).
      exists (fun i l => if Nat.eq_dec l c then P i M else P' i l),
             (fun l j => if Nat.eq_dec l c then W M j else Q' l j).
      intros i j. unfold masked_outer. rewrite sumn_S. fold (masked_outer M R0 P W i j).
      rewrite IH, E. unfold low_rank. rewrite Nat.add_1_r, sumn_S.
      destruct (Nat.eq_dec c c) as [_|C]; [|congruence]. f_equal.
      apply sumn_ext. intros l Hl. destruct (Nat.eq_dec l c); [lia | reflexivity].
    + exists P', Q'. intros i j. unfold masked_outer. rewrite sumn_S.
      fold (masked_outer M R0 P W i j). rewrite IH, E, Nat.add_0_r. ring.
Qed.

(** ** The core *)

Section Core.

Variables (d k m M : nat) (U G L A' B' W : mat).
Variables (mem : nat -> nat -> bool) (sc : nat -> nat -> R).

Context (HkM : (k <= M)%nat).
Context (HG : nonzero_cols d k G).
Context (HW : forall l q, (l < k)%nat -> (q < d)%nat -> W l q = U l q).
Context (Hrows : forall j q, (j < m)%nat -> (q < d)%nat ->
  A' j q = sumn M (fun l => if mem l j then sc l j * W l q else 0)).
Context (Hone : forall j, (j < m)%nat -> sumn M (fun l => if mem l j then 1 else 0) <= 1).
Context (Hodd : forall p q, (p < d)%nat -> (q < d)%nat ->
  sumn m (fun j => B' p j * A' j q) = 2 * L p q + sumn k (fun t => G p t * U t q)).
Context (Hkink : forall l p, (l < M)%nat -> (p < d)%nat ->
  sumn m (fun j => if mem l j then B' p j * Rabs (sc l j) else 0) =
  if Nat.ltb l k then G p l else 0).

Definition negative (x : R) : bool := if Rlt_dec x 0 then true else false.

(** Rows of label [l] with negative / nonnegative coefficient. *)
Definition neg_rows (l : nat) (j : nat) : bool := mem l j && negative (sc l j).
Definition pos_rows (l : nat) (j : nat) : bool := mem l j && negb (negative (sc l j)).

(** The kink carried by the negatively oriented rows of label [l]. *)
Definition neg_kink (p l : nat) : R :=
  sumn m (fun j => if neg_rows l j then B' p j * Rabs (sc l j) else 0).

Lemma signed_sum_split p l :
  sumn m (fun j => if mem l j then B' p j * sc l j else 0) =
  sumn m (fun j => if mem l j then B' p j * Rabs (sc l j) else 0) - 2 * neg_kink p l.
Proof.
  unfold neg_kink. rewrite <- sumn_scal_l, <- sumn_minus. apply sumn_ext. intros j _.
  unfold neg_rows, negative. destruct (mem l j); simpl; [|ring].
  destruct (Rlt_dec (sc l j) 0).
  - rewrite Rabs_left by assumption. ring.
  - rewrite Rabs_right by lra. ring.
Qed.

(** [L = - sum_{l < M} N_l W_l^T]. *)
Lemma linear_part_labels p q : (p < d)%nat -> (q < d)%nat ->
  L p q = sumn M (fun l => - neg_kink p l * W l q).
Proof.
  intros Hp Hq. pose proof (Hodd p q Hp Hq) as E.
  rewrite (sumn_ext m _ (fun j => sumn M (fun l =>
             (if mem l j then B' p j * sc l j else 0) * W l q))) in E.
  2:{ intros j Hj. rewrite Hrows by assumption. rewrite <- sumn_scal_l. apply sumn_ext.
      intros l _. destruct (mem l j); ring. }
  rewrite sumn_swap in E.
  rewrite (sumn_ext M _ (fun l => (if Nat.ltb l k then G p l * W l q else 0)
                                  - 2 * (neg_kink p l * W l q))) in E.
  2:{ intros l Hl. rewrite sumn_scal_r, signed_sum_split, Hkink by assumption.
      destruct (Nat.ltb l k); ring. }
  rewrite sumn_minus, (sumn_split_at k M _ HkM) in E.
  rewrite (sumn_ext k _ (fun t => G p t * U t q)) in E.
  2:{ intros t Ht. destruct (Nat.ltb_spec t k); [|lia]. rewrite HW by assumption. reflexivity. }
  rewrite (sumn_zero (M - k) (fun i => if Nat.ltb (k + i) k then _ else 0)) in E.
  2:{ intros i _. destruct (Nat.ltb_spec (k + i) k); [lia | reflexivity]. }
  rewrite sumn_scal_l in E.
  rewrite (sumn_ext M (fun l => - neg_kink p l * W l q) (fun l => - (neg_kink p l * W l q)))
    by (intros; ring).
  rewrite sumn_opp. lra.
Qed.

Lemma neg_kink_none p l : count m (neg_rows l) = 0%nat -> neg_kink p l = 0.
Proof.
  intros H. unfold neg_kink. apply sumn_zero. intros j Hj.
  rewrite (count_zero_false m _ H j Hj). reflexivity.
Qed.

Lemma neg_kink_all p l : (l < M)%nat -> (p < d)%nat -> count m (pos_rows l) = 0%nat ->
  neg_kink p l = if Nat.ltb l k then G p l else 0.
Proof.
  intros Hl Hp H. rewrite <- (Hkink l p Hl Hp). unfold neg_kink. apply sumn_ext. intros j Hj.
  pose proof (count_zero_false m _ H j Hj) as E. unfold pos_rows in E. unfold neg_rows.
  destruct (mem l j); [|reflexivity]. destruct (negative (sc l j)); [reflexivity | discriminate].
Qed.

(** A class [t < k] has at least one row. *)
Lemma class_served t : (t < k)%nat -> (1 <= count m (mem t))%nat.
Proof.
  intros Ht. destruct (count m (mem t)) eqn:E; [|lia]. exfalso.
  destruct (HG t Ht) as [p [Hp Hnz]]. apply Hnz. unfold col.
  pose proof (Hkink t p ltac:(lia) Hp) as K. destruct (Nat.ltb_spec t k); [|lia].
  rewrite <- K. apply sumn_zero. intros j Hj. rewrite (count_zero_false m _ E j Hj). reflexivity.
Qed.

Definition both (l : nat) : bool :=
  negb (Nat.eqb (count m (neg_rows l)) 0) && negb (Nat.eqb (count m (pos_rows l)) 0).
Definition core_T (t : nat) : bool := both t.
Definition core_S (t : nat) : bool := Nat.eqb (count m (pos_rows t)) 0.
Definition core_R (l : nat) : bool := Nat.leb k l && both l.

Lemma both_two l : both l = true -> (2 <= count m (mem l))%nat.
Proof.
  unfold both. intros H. apply andb_prop in H as [H1 H2].
  apply negb_true_iff, Nat.eqb_neq in H1. apply negb_true_iff, Nat.eqb_neq in H2.
  rewrite <- (count_split m (mem l) (fun j => negative (sc l j))).
  fold (neg_rows l). fold (pos_rows l). lia.
Qed.

(** Each label's lower bound on its rows. *)
Definition label_bound (l : nat) : R :=
  (if Nat.ltb l k then 1 + (if core_T l then 1 else 0) else 0) + 2 * (if core_R l then 1 else 0).

Lemma label_bound_le l : (l < M)%nat -> label_bound l <= INR (count m (mem l)).
Proof.
  intros Hl. unfold label_bound, core_R, core_T.
  destruct (Nat.ltb_spec l k) as [Hk|Hk].
  - destruct (Nat.leb_spec k l); [lia|]. simpl.
    pose proof (class_served l Hk) as H1.
    destruct (both l) eqn:B.
    + pose proof (both_two l B) as H2. apply le_INR in H2. simpl in H2. lra.
    + apply le_INR in H1. simpl in H1. lra.
  - destruct (Nat.leb_spec k l); [|lia]. simpl. destruct (both l) eqn:B.
    + pose proof (both_two l B) as H2. apply le_INR in H2. simpl in H2. lra.
    + pose proof (pos_INR (count m (mem l))). lra.
Qed.

Lemma labels_total : sumn M (fun l => INR (count m (mem l))) <= INR m.
Proof.
  rewrite (sumn_ext M _ (fun l => sumn m (fun j => if mem l j then 1 else 0)))
    by (intros; apply count_INR).
  rewrite sumn_swap, <- sumn_const_one. apply sumn_le. intros j Hj. apply Hone, Hj.
Qed.

Lemma bound_total :
  sumn M label_bound = INR k + INR (count k core_T) + 2 * INR (count M core_R).
Proof.
  unfold label_bound. rewrite sumn_plus, sumn_scal_l, <- count_INR.
  rewrite (sumn_split_at k M _ HkM).
  rewrite (sumn_zero (M - k))
    by (intros i _; destruct (Nat.ltb_spec (k + i) k); [lia | reflexivity]).
  rewrite (sumn_ext k _ (fun t => 1 + (if core_T t then 1 else 0)))
    by (intros t Ht; destruct (Nat.ltb_spec t k); [reflexivity | lia]).
  rewrite sumn_plus, sumn_const_one, <- count_INR. ring.
Qed.

Lemma core_count : (k + count k core_T + 2 * count M core_R <= m)%nat.
Proof.
  apply INR_le. rewrite !plus_INR, mult_INR. simpl (INR 2).
  replace (1 + 1) with 2 by ring. rewrite <- bound_total.
  eapply Rle_trans; [|exact labels_total]. apply sumn_le. exact label_bound_le.
Qed.

Theorem width_core : width_condition d k m U G L.
Proof.
  destruct (masked_outer_low_rank M core_R (fun p l => - neg_kink p l) W) as [P' [Q' HPQ]].
  exists core_T, core_S, (count M core_R), (fun p t => - neg_kink p t), P', Q'.
  split; [|split; [exact core_count|]].
  { intros t _. unfold core_T, core_S, both. intros H.
    apply andb_prop in H as [_ H]. apply negb_true_iff in H. exact H. }
  intros p q Hp Hq. rewrite <- HPQ, linear_part_labels by assumption.
  unfold masked_outer.
  rewrite (sumn_split_at k M _ HkM), (sumn_split_at k M (fun t => if core_R t then _ else 0) HkM).
  rewrite (sumn_zero k (fun t => if core_R t then _ else 0)).
  2:{ intros t Ht. unfold core_R. destruct (Nat.leb_spec k t); [lia | reflexivity]. }
  assert (Hlow : sumn k (fun t => - neg_kink p t * W t q)
                 + sumn k (fun t => if core_S t then G p t * U t q else 0)
                 = sumn k (fun t => if core_T t then - neg_kink p t * U t q else 0)).
  { rewrite <- sumn_plus. apply sumn_ext. intros t Ht. rewrite HW by assumption.
    unfold core_T, core_S, both.
    destruct (Nat.eqb_spec (count m (pos_rows t)) 0) as [E|E]; simpl.
    - rewrite (neg_kink_all p t ltac:(lia) Hp E). destruct (Nat.ltb_spec t k); [|lia].
      rewrite andb_false_r. ring.
    - rewrite andb_true_r. destruct (Nat.eqb_spec (count m (neg_rows t)) 0) as [E'|E']; simpl.
      + rewrite (neg_kink_none p t E'). ring.
      + ring. }
  assert (Hhigh : sumn (M - k) (fun i => - neg_kink p (k + i) * W (k + i)%nat q)
                  = sumn (M - k) (fun i =>
                      if core_R (k + i) then - neg_kink p (k + i) * W (k + i)%nat q else 0)).
  { apply sumn_ext. intros i Hi. unfold core_R, both.
    destruct (Nat.leb_spec k (k + i)); [|lia]. simpl.
    destruct (Nat.eqb_spec (count m (neg_rows (k + i))) 0) as [E|E]; simpl.
    - rewrite (neg_kink_none p _ E). ring.
    - destruct (Nat.eqb_spec (count m (pos_rows (k + i))) 0) as [E'|E']; simpl; [|reflexivity].
      rewrite (neg_kink_all p (k + i)%nat ltac:(lia) Hp E').
      destruct (Nat.ltb_spec (k + i) k); [lia|]. ring. }
  rewrite Hhigh. rewrite Rplus_0_l. lra.
Qed.

End Core.

(** The core with every premise spelled out. *)
Theorem width_condition_of_labels d k m M (U G L A' B' W : mat)
    (mem : nat -> nat -> bool) (sc : nat -> nat -> R) :
  (k <= M)%nat ->
  nonzero_cols d k G ->
  (forall l q, (l < k)%nat -> (q < d)%nat -> W l q = U l q) ->
  (forall j q, (j < m)%nat -> (q < d)%nat ->
     A' j q = sumn M (fun l => if mem l j then sc l j * W l q else 0)) ->
  (forall j, (j < m)%nat -> sumn M (fun l => if mem l j then 1 else 0) <= 1) ->
  (forall p q, (p < d)%nat -> (q < d)%nat ->
     sumn m (fun j => B' p j * A' j q) = 2 * L p q + sumn k (fun t => G p t * U t q)) ->
  (forall l p, (l < M)%nat -> (p < d)%nat ->
     sumn m (fun j => if mem l j then B' p j * Rabs (sc l j) else 0) =
     if Nat.ltb l k then G p l else 0) ->
  width_condition d k m U G L.
Proof. exact (width_core d k m M U G L A' B' W mem sc). Qed.
