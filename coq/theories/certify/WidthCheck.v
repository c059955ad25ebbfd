(** * Checking R8's width condition on concrete data, exactly over the integers

    [check_width_data d k m dL RL dG CG dU RU T S r dE CE dP CP dQ RQ]
    decides that the data witness [width_condition d k m U G L]
    (decide/RidgeForm.v) for [U = zmat_rows dU RU] ([k] rows),
    [G = zmat_cols dG CG] ([k] columns), [L = zmat_rows dL RL]:
    the class sets are [T t = nth t T false], [S t = nth t S false], the
    matrices [E = zmat_cols dE CE] ([k] columns), [P = zmat_cols dP CP]
    ([r] columns), [Q = zmat_rows dQ RQ] ([r] rows); the checker tests that
    the denominators are positive, [T] and [S] are disjoint below [k],
    [k + |T| + 2r <= m], and the identity
    [L + sum_{t in S} G_t U_t^T = sum_{t in T} E_t U_t^T + P Q]
    exactly, after multiplying by the product of all denominators (entries
    below [d]; each sum of outer products is formed by [d^2] dot products).
    - [check_width_data_sound]: the checker proves [width_condition];
    - [width_condition_at_k]: at [m = k] the width condition forces
      [T = {}] and [r = 0], so it says [L + sum_{t in S} G_t U_t^T = 0] for
      some [S] (the bridge to a no-subset refutation). *)

From Coq Require Import Reals ZArith Lia Lra List.
From Absorb Require Import Sums Blocks.
From Absorb.decide Require Import RidgeForm.
From Absorb.certify Require Import ZMatrices.
Import ListNotations.
Open Scope bool_scope.

(** ** The classes of a ridge form, with their data side by side *)

Record zcls := { tt : bool; ss : bool; gcol : list Z; ecol : list Z; urow : list Z }.

Definition cls_dflt : zcls := {| tt := false; ss := false; gcol := []; ecol := []; urow := [] |}.

Fixpoint mk_cls (k : nat) (T S : list bool) (CG CE RU : list (list Z)) : list zcls :=
  match k with
  | O => []
  | S k' => {| tt := hdd T false; ss := hdd S false; gcol := hdd CG []; ecol := hdd CE [];
               urow := hdd RU [] |} :: mk_cls k' (tll T) (tll S) (tll CG) (tll CE) (tll RU)
  end.

Lemma mk_cls_length k T S CG CE RU : length (mk_cls k T S CG CE RU) = k.
Proof.
  revert T S CG CE RU. induction k; intros; simpl; [reflexivity | rewrite IHk; reflexivity].
Qed.

Lemma nth_mk_cls k : forall T S CG CE RU t, (t < k)%nat ->
  nth t (mk_cls k T S CG CE RU) cls_dflt =
  {| tt := nth t T false; ss := nth t S false; gcol := nth t CG []; ecol := nth t CE [];
     urow := nth t RU [] |}.
Proof.
  induction k as [|k IH]; intros T S CG CE RU t Ht; [lia|]. destruct t as [|t].
  - simpl. rewrite !nth_hdd. reflexivity.
  - simpl. rewrite IH by lia. rewrite !nth_tll. reflexivity.
Qed.

(** The [r] columns of [P] next to the [r] rows of [Q]. *)
Fixpoint mk_pq (r : nat) (CP RQ : list (list Z)) : list (list Z * list Z) :=
  match r with O => [] | S r' => (hdd CP [], hdd RQ []) :: mk_pq r' (tll CP) (tll RQ) end.

Lemma mk_pq_length r CP RQ : length (mk_pq r CP RQ) = r.
Proof. revert CP RQ. induction r; intros; simpl; [reflexivity | rewrite IHr; reflexivity]. Qed.

Lemma nth_mk_pq r : forall CP RQ l, (l < r)%nat ->
    nth l (mk_pq r CP RQ) ([], []) = (nth l CP [], nth l RQ []).
Proof.
  induction r as [|r IH]; intros CP RQ l Hl; [lia|]. destruct l as [|l].
  - simpl. rewrite !nth_hdd. reflexivity.
  - simpl. rewrite IH by lia. rewrite !nth_tll. reflexivity.
Qed.

(** ** The checker *)

(** [sum_{sel c} col_c urow_c^T]. *)
Definition masked_sum (d : nat) (sel : zcls -> bool) (col : zcls -> list Z) (cs : list zcls) :
  list (list Z) :=
  let xs := filter sel cs in outer_sum d (map col xs) (map urow xs).

(** [sum_l P_l Q_l^T]. *)
Definition pq_sum (d : nat) (ps : list (list Z * list Z)) : list (list Z) :=
  outer_sum d (map fst ps) (map snd ps).

Definition check_width_data (d k m : nat) (dL : Z) (RL : list (list Z)) (dG : Z)
    (CG : list (list Z))
    (dU : Z) (RU : list (list Z)) (T S : list bool) (r : nat) (dE : Z) (CE : list (list Z))
    (dP : Z) (CP : list (list Z)) (dQ : Z) (RQ : list (list Z)) : bool :=
  let cs := mk_cls k T S CG CE RU in
  Z.ltb 0 dL && Z.ltb 0 dG && Z.ltb 0 dU && Z.ltb 0 dE && Z.ltb 0 dP && Z.ltb 0 dQ &&
  forallb (fun c => negb (tt c && ss c)) cs &&
  Nat.leb (k + count k (fun t => nth t T false) + 2 * r) m &&
  zmeqb
    (zmadd (zmscale (dG * dU * dE * dP * dQ) RL)
      (zmscale (dL * dE * dP * dQ) (masked_sum d ss gcol cs)))
        (zmadd (zmscale (dL * dG * dP * dQ) (masked_sum d tt ecol cs))
               (zmscale (dL * dG * dU * dE) (pq_sum d (mk_pq r CP RQ)))).

(** ** Soundness *)

Lemma masked_sum_zent d sel col cs i j : (i < d)%nat -> (j < d)%nat ->
  zent (masked_sum d sel col cs) i j =
  zlsum (map (fun c => if sel c then (nth i (col c) 0 * nth j (urow c) 0)%Z else 0%Z) cs).
Proof.
  intros Hi Hj. unfold masked_sum. rewrite zent_outer_sum by assumption. apply zlsum_filter.
Qed.

Lemma pq_sum_zent d ps i j : (i < d)%nat -> (j < d)%nat ->
  zent (pq_sum d ps) i j = zlsum (map (fun pq => (nth i (fst pq) 0 * nth j (snd pq) 0)%Z) ps).
Proof. intros Hi Hj. unfold pq_sum. apply zent_outer_sum; assumption. Qed.

Lemma sumn_list_IZR {A} (l : list A) n x0 (g : A -> Z) c : length l = n ->
  sumn n (fun i => IZR (g (nth i l x0)) / c) = IZR (zlsum (map g l)) / c.
Proof.
  intros <-. rewrite (sumn_nth_list l x0 (fun r => IZR (g r) / c)), rlsum_div, rlsum_IZR.
  reflexivity.
Qed.

Lemma masked_outer_zent d k T S CG CE RU (sel : zcls -> bool) (col : zcls -> list Z)
    (Sf : nat -> bool)
    (C : list (list Z)) dC dU i j : (i < d)%nat -> (j < d)%nat -> (0 < dC)%Z -> (0 < dU)%Z ->
  (forall t, (t < k)%nat -> Sf t = sel (nth t (mk_cls k T S CG CE RU) cls_dflt) /\
                           col (nth t (mk_cls k T S CG CE RU) cls_dflt) = nth t C []) ->
  masked_outer k Sf (zmat_cols dC C) (zmat_rows dU RU) i j =
  IZR (zent (masked_sum d sel col (mk_cls k T S CG CE RU)) i j) / (IZR dC * IZR dU).
Proof.
  intros Hi Hj HC HU Hsel. pose proof (IZR_pos_neq0 _ HC). pose proof (IZR_pos_neq0 _ HU).
  rewrite masked_sum_zent by assumption.
  rewrite <- (sumn_list_IZR _ k cls_dflt) by apply mk_cls_length.
  unfold masked_outer. apply sumn_ext. intros t Ht. destruct (Hsel t Ht) as [-> Hc].
  rewrite Hc. rewrite nth_mk_cls by exact Ht. simpl.
  destruct (sel _);
    [rewrite mult_IZR; unfold zmat_cols, zmat_rows; field; auto | unfold Rdiv; ring].
Qed.

Lemma low_rank_zent d r CP RQ dP dQ i j : (i < d)%nat -> (j < d)%nat -> (0 < dP)%Z -> (0 < dQ)%Z ->
  low_rank r (zmat_cols dP CP) (zmat_rows dQ RQ) i j =
  IZR (zent (pq_sum d (mk_pq r CP RQ)) i j) / (IZR dP * IZR dQ).
Proof.
  intros Hi Hj HP HQ. pose proof (IZR_pos_neq0 _ HP). pose proof (IZR_pos_neq0 _ HQ).
  rewrite pq_sum_zent by assumption. rewrite <- (sumn_list_IZR _ r ([], [])) by apply mk_pq_length.
  unfold low_rank. apply sumn_ext. intros l Hl. rewrite nth_mk_pq by exact Hl. simpl.
  rewrite mult_IZR. unfold zmat_cols, zmat_rows. field. auto.
Qed.

Lemma common_denominator (x y z w dL dG dU dE dP dQ : Z) :
  (0 < dL)%Z -> (0 < dG)%Z -> (0 < dU)%Z -> (0 < dE)%Z -> (0 < dP)%Z -> (0 < dQ)%Z ->
  (dG * dU * dE * dP * dQ * x + dL * dE * dP * dQ * y = dL * dG * dP * dQ * z
    + dL * dG * dU * dE * w)%Z ->
  IZR x / IZR dL + IZR y / (IZR dG * IZR dU) = IZR z / (IZR dE * IZR dU)
    + IZR w / (IZR dP * IZR dQ).
Proof.
  intros HL HG HU HE HP HQ E. apply (f_equal IZR) in E. rewrite !plus_IZR, !mult_IZR in E.
  pose proof (IZR_pos_neq0 _ HL). pose proof (IZR_pos_neq0 _ HG). pose proof (IZR_pos_neq0 _ HU).
  pose proof (IZR_pos_neq0 _ HE). pose proof (IZR_pos_neq0 _ HP). pose proof (IZR_pos_neq0 _ HQ).
  set (D := IZR dL * IZR dG * IZR dU * IZR dE * IZR dP * IZR dQ).
  assert (HD : D <> 0%R) by (unfold D; repeat apply Rmult_integral_contrapositive_currified; auto).
  transitivity
    ((IZR dG * IZR dU * IZR dE * IZR dP * IZR dQ * IZR x
      + IZR dL * IZR dE * IZR dP * IZR dQ * IZR y) / D).
  - unfold D. field. repeat split; assumption.
  - rewrite E. unfold D. field. repeat split; assumption.
Qed.

Theorem check_width_data_sound d k m dL RL dG CG dU RU T S r dE CE dP CP dQ RQ :
  check_width_data d k m dL RL dG CG dU RU T S r dE CE dP CP dQ RQ = true ->
  width_condition d k m (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL).
Proof.
  intros H. unfold check_width_data in H. repeat rewrite Bool.andb_true_iff in H.
  destruct H as [[[[[[[[HL HG] HU] HE] HP] HQ] HTS] Hm] Heq].
  rewrite Z.ltb_lt in HL, HG, HU, HE, HP, HQ. rewrite Nat.leb_le in Hm.
  exists (fun t => nth t T false), (fun t => nth t S false), r,
    (zmat_cols dE CE), (zmat_cols dP CP), (zmat_rows dQ RQ).
  split; [|split; [exact Hm|]].
  - intros t Ht HT. rewrite forallb_forall in HTS.
    specialize (HTS _ (nth_In _ cls_dflt ltac:(rewrite mk_cls_length; exact Ht))).
    rewrite nth_mk_cls in HTS by exact Ht. simpl in HTS. rewrite HT in HTS.
    destruct (nth t S false); [discriminate | reflexivity].
  - intros i j Hi Hj. pose proof (zmeqb_sound _ _ Heq i j) as E.
    rewrite !zent_zmadd, !zent_zmscale in E.
    rewrite (masked_outer_zent d k T S CG CE RU ss gcol _ CG dG dU i j Hi Hj HG HU),
            (masked_outer_zent d k T S CG CE RU tt ecol _ CE dE dU i j Hi Hj HE HU),
            (low_rank_zent d r CP RQ dP dQ i j Hi Hj HP HQ)
      by (intros t Ht; rewrite nth_mk_cls by exact Ht; split; reflexivity).
    rewrite zmat_rows_zent.
    apply common_denominator; assumption.
Qed.

(** ** At [m = k] *)

Lemma count_zero k (T : nat -> bool) : count k T = 0%nat -> forall t, (t < k)%nat -> T t = false.
Proof.
  induction k as [|k IH]; intros H t Ht; [lia|]. simpl in H.
  destruct (T k) eqn:Tk; [lia|]. rewrite Nat.add_0_r in H.
  destruct (Nat.eq_dec t k) as [->|]; [exact Tk | apply IH; [exact H | lia]].
Qed.

Theorem width_condition_at_k d k (U G L : mat) : width_condition d k k U G L ->
  exists S : nat -> bool, forall i j, (i < d)%nat -> (j < d)%nat ->
    L i j + masked_outer k S G U i j = 0%R.
Proof.
  intros (T & S & r & E & P & Q & _ & Hm & HL). exists S. intros i j Hi Hj.
  rewrite (HL i j Hi Hj). assert (Hr : r = 0%nat) by lia. subst r.
  assert (HT := count_zero k T ltac:(lia)).
  unfold masked_outer, low_rank. simpl. rewrite sumn_zero; [ring|].
  intros t Ht. rewrite (HT t Ht). reflexivity.
Qed.
