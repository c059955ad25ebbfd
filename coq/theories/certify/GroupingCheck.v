(** * Checking a grouping with a zero-kink tail, exactly over the integers

    [check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL]
    decides, with exact [Z] arithmetic, that the concrete data form a
    [grouping_drop] (decide/GroupingDrop.v) of the block with
    [A = zmat_rows dA RA] ([n x d], rows), [B = zmat_cols dB CB] ([d x n],
    columns), directions [U = zmat_rows dU RU] ([K] rows), scales
    [lam_i = LN_i / dl], classes [cls_i = nth i cls K], kinks
    [G = zmat_cols dG CG] ([K] columns) and linear part [L = zmat_rows dL RL]:
    - every kept row ([cls_i < K]): [LN_i <> 0] and
      [dU dl RA_i = LN_i dA RU_{cls_i}] entrywise;
    - every dropped row: [RA_i = 0] or [CB_i = 0];
    - for [t < K]: [dl dB CG_t = dG sum_{cls_i = t} |LN_i| CB_i] (the members
      of class [t] are found once with a filter), [CG_t = 0] for [k <= t];
    - [dl dB dU RL = dL (dl dB dU I - sum_{cls_i < K, LN_i < 0} |LN_i| CB_i RU_{cls_i}^T)]
      (only the rows with [LN_i < 0] are visited; the sum is formed by
      [d^2] dot products, [outer_sum]);
    - all denominators are positive and [k <= K].
    [check_grouping_drop_sound] proves the [grouping_drop] statement;
    [check_pm_scales n K dl LN cls] (every kept [LN_i] is [+-dl]) with
    [check_grouping_drop_pm_sound] proves [grouping_drop_pm]. *)

From Coq Require Import Reals ZArith Lia Lra List.
From Absorb Require Import Sums Blocks.
From Absorb.decide Require Import RidgeForm GroupingDrop.
From Absorb.certify Require Import ZMatrices.
Import ListNotations.
Open Scope bool_scope.

(** ** The rows of a block, with their data side by side *)

Record zrow := { ra : list Z; cb : list Z; ln : Z; cz : Z }.

Definition row_dflt (K : nat) : zrow := {| ra := []; cb := []; ln := 0; cz := Z.of_nat K |}.

Fixpoint mk_rows (n : nat) (RA CB : list (list Z)) (LN : list Z) (cls : list nat) (K : nat) :
  list zrow :=
  match n with
  | O => []
  | S n' => {| ra := hdd RA []; cb := hdd CB []; ln := hdd LN 0%Z; cz := Z.of_nat (hdd cls K) |}
            :: mk_rows n' (tll RA) (tll CB) (tll LN) (tll cls) K
  end.

Lemma mk_rows_length n RA CB LN cls K : length (mk_rows n RA CB LN cls K) = n.
Proof.
  revert RA CB LN cls. induction n; intros; simpl; [reflexivity | rewrite IHn; reflexivity].
Qed.

Lemma nth_mk_rows n : forall RA CB LN cls K i, (i < n)%nat ->
  nth i (mk_rows n RA CB LN cls K) (row_dflt K) =
  {| ra := nth i RA []; cb := nth i CB []; ln := nth i LN 0%Z; cz := Z.of_nat (nth i cls K) |}.
Proof.
  induction n as [|n IH]; intros RA CB LN cls K i Hi; [lia|]. destruct i as [|i].
  - simpl. rewrite !nth_hdd. reflexivity.
  - simpl. rewrite IH by lia. rewrite !nth_tll. reflexivity.
Qed.

(** ** The checker *)

Definition row_ok (Kz dA dU dl : Z) (RU : list (list Z)) (r : zrow) : bool :=
  if Z.ltb (cz r) Kz then
    negb (Z.eqb (ln r) 0) &&
    zveqb (zvscale (dU * dl) (ra r)) (zvscale (ln r * dA) (nth (Z.to_nat (cz r)) RU []))
  else zzero (ra r) || zzero (cb r).

(** [sum_{cls_i = t} |LN_i| CB_i]. *)
Definition class_sum (rows : list zrow) (t : Z) : list Z :=
  fold_right (fun r acc => zvadd (zvscale (Z.abs (ln r)) (cb r)) acc) []
             (filter (fun r => Z.eqb (cz r) t) rows).

Definition col_ok (k : nat) (dl dB dG : Z) (rows : list zrow) (t : nat) (col : list Z) : bool :=
  zveqb (zvscale (dl * dB) col) (zvscale dG (class_sum rows (Z.of_nat t))) &&
  (Nat.ltb t k || zzero col).

Definition neg_row (Kz : Z) (r : zrow) : bool := Z.ltb (cz r) Kz && Z.ltb (ln r) 0.

(** [sum_{cls_i < K, LN_i < 0} |LN_i| CB_i RU_{cls_i}^T] (entries below [d]). *)
Definition neg_sum (d : nat) (Kz : Z) (RU : list (list Z)) (rows : list zrow) : list (list Z) :=
  let negs := filter (neg_row Kz) rows in
  outer_sum d (map (fun r => zvscale (Z.abs (ln r)) (cb r)) negs)
              (map (fun r => nth (Z.to_nat (cz r)) RU []) negs).

Definition check_grouping_drop (d n k K : nat) (dA : Z) (RA : list (list Z)) (dB : Z)
    (CB : list (list Z)) (dU : Z) (RU : list (list Z)) (dl : Z) (LN : list Z) (cls : list nat)
    (dG : Z) (CG : list (list Z)) (dL : Z) (RL : list (list Z)) : bool :=
  let rows := mk_rows n RA CB LN cls K in
  let Kz := Z.of_nat K in
  let D := (dl * dB * dU)%Z in
  Z.ltb 0 dA && Z.ltb 0 dB && Z.ltb 0 dU && Z.ltb 0 dl && Z.ltb 0 dG && Z.ltb 0 dL &&
  Nat.leb k K &&
  forallb (row_ok Kz dA dU dl RU) rows &&
  all_upto (col_ok k dl dB dG rows) [] 0 K CG &&
  zmeqb (zmscale D RL) (zmscale dL (zmadd (zid d D) (zmscale (-1) (neg_sum d Kz RU rows)))).

(** Every kept [LN_i] is [+-dl] (the GELU family). *)
Definition check_pm_scales (n K : nat) (dl : Z) (LN : list Z) (cls : list nat) : bool :=
  forallb (fun r => negb (Z.ltb (cz r) (Z.of_nat K)) || Z.eqb (Z.abs (ln r)) dl)
          (mk_rows n [] [] LN cls K).

(** ** Integer facts behind the checker *)

Lemma class_sum_nth rows t p :
  nth p (class_sum rows t) 0%Z =
  zlsum (map (fun r => if Z.eqb (cz r) t then (Z.abs (ln r) * nth p (cb r) 0)%Z else 0%Z) rows).
Proof.
  unfold class_sum. rewrite nth_fold_zvadd, zlsum_filter. f_equal. apply map_ext. intros r.
  rewrite nth_zvscale. reflexivity.
Qed.

Lemma neg_sum_zent d Kz RU rows p q : (p < d)%nat -> (q < d)%nat ->
  zent (neg_sum d Kz RU rows) p q =
  zlsum (map (fun r => if neg_row Kz r then
                         (Z.abs (ln r) * nth p (cb r) 0 * nth q (nth (Z.to_nat (cz r)) RU []) 0)%Z
                       else 0%Z) rows).
Proof.
  intros Hp Hq. unfold neg_sum. rewrite zent_outer_sum by assumption. rewrite zlsum_filter.
  f_equal. apply map_ext. intros r. rewrite nth_zvscale. reflexivity.
Qed.

(** ** Real facts behind the checker *)

Lemma Rabs_IZR_div l dl : (0 < dl)%Z -> Rabs (IZR l / IZR dl) = IZR (Z.abs l) / IZR dl.
Proof.
  intros H. unfold Rdiv.
  rewrite Rabs_mult, Rabs_inv, abs_IZR, (Rabs_pos_eq (IZR dl)); [reflexivity|].
  apply Rlt_le, IZR_pos_gt0, H.
Qed.

Lemma IZR_div_neg l dl : (0 < dl)%Z -> (IZR l / IZR dl < 0)%R <-> (l < 0)%Z.
Proof.
  intros H. pose proof (IZR_pos_gt0 dl H) as Hd. split; intros E.
  - destruct (Z.lt_ge_cases l 0) as [|Hl]; [assumption|]. exfalso.
    apply IZR_le in Hl. assert (0 <= IZR l / IZR dl)%R; [|lra].
    unfold Rdiv. apply Rmult_le_pos; [exact Hl | apply Rlt_le, Rinv_0_lt_compat, Hd].
  - apply IZR_lt in E. unfold Rdiv.
    assert (0 < (- IZR l) * / IZR dl)%R
      by (apply Rmult_lt_0_compat; [lra | apply Rinv_0_lt_compat, Hd]).
    lra.
Qed.

Lemma scale_eq_real a u l dA dU dl : (0 < dA)%Z -> (0 < dU)%Z -> (0 < dl)%Z ->
  (dU * dl * a = l * dA * u)%Z -> IZR a / IZR dA = IZR l / IZR dl * (IZR u / IZR dU).
Proof.
  intros HA HU Hl E. apply (f_equal IZR) in E. rewrite !mult_IZR in E.
  pose proof (IZR_pos_neq0 _ HA). pose proof (IZR_pos_neq0 _ HU). pose proof (IZR_pos_neq0 _ Hl).
  replace (IZR a / IZR dA) with (IZR dU * IZR dl * IZR a / (IZR dA * IZR dU * IZR dl))
    by (field; auto).
  rewrite E. field. auto.
Qed.

Lemma sumn_rows_IZR {A} (l : list A) n x0 (g : A -> Z) c : length l = n ->
  sumn n (fun i => IZR (g (nth i l x0)) / c) = IZR (zlsum (map g l)) / c.
Proof.
  intros <-. rewrite (sumn_nth_list l x0 (fun r => IZR (g r) / c)), rlsum_div, rlsum_IZR.
  reflexivity.
Qed.

Lemma term_G (c t : nat) l b dl dB : (0 < dl)%Z -> (0 < dB)%Z ->
  (if Nat.eq_dec c t then Rabs (IZR l / IZR dl) * (IZR b / IZR dB) else 0)%R =
  IZR (if Z.eqb (Z.of_nat c) (Z.of_nat t) then (Z.abs l * b)%Z else 0%Z) / (IZR dl * IZR dB).
Proof.
  intros Hl HB. pose proof (IZR_pos_neq0 _ Hl). pose proof (IZR_pos_neq0 _ HB).
  destruct (Nat.eq_dec c t) as [->|E]; [rewrite Z.eqb_refl|].
  - rewrite Rabs_IZR_div, mult_IZR by exact Hl. field. auto.
  - destruct (Z.eqb_spec (Z.of_nat c) (Z.of_nat t))
      as [E'|_]; [apply Nat2Z.inj in E'; contradiction|].
    unfold Rdiv. ring.
Qed.

Lemma term_L (c K : nat) l b u dl dB dU : (0 < dl)%Z -> (0 < dB)%Z -> (0 < dU)%Z ->
  (if Nat.ltb c K then
     if Rlt_dec (IZR l / IZR dl) 0 then Rabs (IZR l / IZR dl) * (IZR b / IZR dB) * (IZR u / IZR dU)
     else 0
   else 0)%R =
  IZR (if Z.ltb (Z.of_nat c) (Z.of_nat K) && Z.ltb l 0 then (Z.abs l * b * u)%Z else 0%Z)
  / (IZR dl * IZR dB * IZR dU).
Proof.
  intros Hl HB HU. pose proof (IZR_pos_neq0 _ Hl). pose proof (IZR_pos_neq0 _ HB).
  pose proof (IZR_pos_neq0 _ HU).
  assert (Hc : Nat.ltb c K = Z.ltb (Z.of_nat c) (Z.of_nat K)).
  { destruct (Nat.ltb_spec c K), (Z.ltb_spec (Z.of_nat c) (Z.of_nat K)); lia. }
  rewrite <- Hc. destruct (Nat.ltb c K); [|simpl; unfold Rdiv; ring].
  destruct (Rlt_dec (IZR l / IZR dl) 0) as [N|N].
  - apply (IZR_div_neg l dl Hl) in N. destruct (Z.ltb_spec l 0); [|lia]. simpl.
    rewrite Rabs_IZR_div, !mult_IZR by exact Hl. field. auto.
  - destruct (Z.ltb_spec l 0) as [N'|]; [exfalso; apply N, (IZR_div_neg l dl Hl), N'|].
    simpl. unfold Rdiv. ring.
Qed.

(** ** Soundness *)

Section Sound.

Variables (d n k K : nat) (dA : Z) (RA : list (list Z)) (dB : Z) (CB : list (list Z)) (dU : Z)
  (RU : list (list Z)) (dl : Z) (LN : list Z) (cls : list nat) (dG : Z) (CG : list (list Z))
  (dL : Z) (RL : list (list Z)).

Let rows := mk_rows n RA CB LN cls K.
Let clsf := fun i => nth i cls K.
Let lamf := fun i => IZR (nth i LN 0%Z) / IZR dl.

Let chk := check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL.

Lemma check_parts : chk = true ->
  (0 < dA)%Z /\ (0 < dB)%Z /\ (0 < dU)%Z /\ (0 < dl)%Z /\ (0 < dG)%Z /\ (0 < dL)%Z
    /\ (k <= K)%nat /\
  forallb (row_ok (Z.of_nat K) dA dU dl RU) rows = true /\
  all_upto (col_ok k dl dB dG rows) [] 0 K CG = true /\
  zmeqb (zmscale (dl * dB * dU) RL)
        (zmscale dL
          (zmadd (zid d (dl * dB * dU)) (zmscale (-1) (neg_sum d (Z.of_nat K) RU rows)))) = true.
Proof.
  intros Hc. unfold chk, check_grouping_drop in Hc. repeat rewrite Bool.andb_true_iff in Hc.
  destruct Hc as [[[[[[[[[H1 H2] H3] H4] H5] H6] H7] H8] H9] H10].
  rewrite Z.ltb_lt in H1, H2, H3, H4, H5, H6. rewrite Nat.leb_le in H7.
  repeat split; assumption.
Qed.

Lemma row_ok_at i : chk = true -> (i < n)%nat ->
  row_ok (Z.of_nat K) dA dU dl RU
    {| ra := nth i RA []; cb := nth i CB []; ln := nth i LN 0%Z;
       cz := Z.of_nat (nth i cls K) |} = true.
Proof.
  intros Hc Hi. destruct (check_parts Hc) as (_ & _ & _ & _ & _ & _ & _ & Hr & _).
  rewrite forallb_forall in Hr. rewrite <- (nth_mk_rows n RA CB LN cls K i Hi).
  apply Hr, nth_In. unfold rows. rewrite mk_rows_length. exact Hi.
Qed.

Lemma grouping_kept : chk = true -> forall i, (i < n)%nat -> (clsf i < K)%nat ->
  lamf i <> 0%R /\
  forall j, (j < d)%nat -> zmat_rows dA RA i j = lamf i * zmat_rows dU RU (clsf i) j.
Proof.
  intros Hc i Hi Hk. destruct (check_parts Hc) as (HA & _ & HU & Hl & _).
  pose proof (row_ok_at i Hc Hi) as R. unfold row_ok in R. simpl in R.
  destruct (Z.ltb_spec (Z.of_nat (nth i cls K)) (Z.of_nat K)) as [_|C]; [|unfold clsf in Hk; lia].
  apply andb_prop in R as [Hnz Heq]. rewrite Bool.negb_true_iff, Z.eqb_neq in Hnz.
  split; [apply IZR_div_neq0; assumption|]. intros j _.
  unfold lamf, clsf, zmat_rows. apply scale_eq_real; try assumption.
  rewrite Nat2Z.id in Heq. pose proof (zveqb_sound _ _ Heq j) as E. rewrite !nth_zvscale in E.
  exact E.
Qed.

Lemma grouping_dropped : chk = true -> forall i, (i < n)%nat -> (K <= clsf i)%nat ->
  (forall j, (j < d)%nat -> zmat_rows dA RA i j = 0%R) \/
  (forall p, (p < d)%nat -> zmat_cols dB CB p i = 0%R).
Proof.
  intros Hc i Hi Hk. pose proof (row_ok_at i Hc Hi) as R. unfold row_ok in R. simpl in R.
  destruct (Z.ltb_spec (Z.of_nat (nth i cls K)) (Z.of_nat K)) as [C|_]; [unfold clsf in Hk; lia|].
  apply Bool.orb_prop in R as [Z0|Z0]; [left | right]; intros j _;
    [unfold zmat_rows | unfold zmat_cols]; rewrite (zzero_sound _ Z0 j); unfold Rdiv; ring.
Qed.

Lemma col_ok_at t : chk = true -> (t < K)%nat -> col_ok k dl dB dG rows t (nth t CG []) = true.
Proof.
  intros Hc Ht. destruct (check_parts Hc) as (_ & _ & _ & _ & _ & _ & _ & _ & Hg & _).
  exact (all_upto_sound0 _ _ _ _ Hg t Ht).
Qed.

Lemma grouping_G_eq : chk = true -> forall p t, (p < d)%nat -> (t < K)%nat ->
  zmat_cols dG CG p t =
  sumn n (fun i => if Nat.eq_dec (clsf i) t then Rabs (lamf i) * zmat_cols dB CB p i else 0).
Proof.
  intros Hc p t _ Ht. destruct (check_parts Hc) as (_ & HB & _ & Hl & HG & _).
  pose proof (col_ok_at t Hc Ht) as C. unfold col_ok in C. apply andb_prop in C as [C _].
  pose proof (zveqb_sound _ _ C p) as E. rewrite !nth_zvscale, class_sum_nth in E.
  set (g := fun r => if Z.eqb (cz r) (Z.of_nat t) then (Z.abs (ln r) * nth p (cb r) 0)%Z else 0%Z).
  assert
    (Hs : sumn n (fun i => if Nat.eq_dec (clsf i) t then Rabs (lamf i) * zmat_cols dB CB p i else 0)
               = IZR (zlsum (map g rows)) / (IZR dl * IZR dB)).
  { rewrite <- (sumn_rows_IZR rows n (row_dflt K) g _ (mk_rows_length _ _ _ _ _ _)).
    apply sumn_ext. intros i Hi. unfold rows, g. rewrite nth_mk_rows by exact Hi. simpl.
    unfold lamf, clsf, zmat_cols. apply term_G; assumption. }
  rewrite Hs. fold rows in E. fold g in E.
  apply (f_equal IZR) in E. rewrite !mult_IZR in E. unfold zmat_cols.
  pose proof (IZR_pos_neq0 _ HB). pose proof (IZR_pos_neq0 _ Hl). pose proof (IZR_pos_neq0 _ HG).
  replace (IZR (nth p (nth t CG []) 0%Z) / IZR dG)
    with (IZR dl * IZR dB * IZR (nth p (nth t CG []) 0%Z) / (IZR dG * (IZR dl * IZR dB)))
    by (field; auto).
  rewrite E. field. auto.
Qed.

Lemma grouping_L_eq : chk = true -> forall p q, (p < d)%nat -> (q < d)%nat ->
  zmat_rows dL RL p q = identity p q
    - sumn n (fun i => if Nat.ltb (clsf i) K then
                         if Rlt_dec (lamf i) 0 then
                           Rabs (lamf i) * zmat_cols dB CB p i * zmat_rows dU RU (clsf i) q
                         else 0
                       else 0).
Proof.
  intros Hc p q Hp Hq. destruct (check_parts Hc) as (_ & HB & HU & Hl & _ & HL & _ & _ & _ & Hm).
  pose proof (zmeqb_sound _ _ Hm p q) as E.
  rewrite zent_zmscale, zent_zmscale, zent_zmadd, zent_zid, zent_zmscale, neg_sum_zent in E
    by assumption.
  set (g := fun r => if neg_row (Z.of_nat K) r then
            (Z.abs (ln r) * nth p (cb r) 0 * nth q (nth (Z.to_nat (cz r)) RU []) 0)%Z else 0%Z).
  assert (Hs : sumn n (fun i => if Nat.ltb (clsf i) K then
                         if Rlt_dec (lamf i) 0 then
                           Rabs (lamf i) * zmat_cols dB CB p i * zmat_rows dU RU (clsf i) q
                         else 0
                       else 0) = IZR (zlsum (map g rows)) / (IZR dl * IZR dB * IZR dU)).
  { rewrite <- (sumn_rows_IZR rows n (row_dflt K) g _ (mk_rows_length _ _ _ _ _ _)).
    apply sumn_ext. intros i Hi. unfold rows, g. rewrite nth_mk_rows by exact Hi. simpl.
    rewrite Nat2Z.id. unfold lamf, clsf, zmat_cols, zmat_rows. apply term_L; assumption. }
  rewrite Hs. fold rows in E. fold g in E.
  apply (f_equal IZR) in E. rewrite !mult_IZR, plus_IZR, mult_IZR in E.
  rewrite zmat_rows_zent. unfold identity.
  pose proof (IZR_pos_neq0 _ HB). pose proof (IZR_pos_neq0 _ Hl). pose proof (IZR_pos_neq0 _ HU).
  pose proof (IZR_pos_neq0 _ HL).
  replace (IZR (zent RL p q) / IZR dL)
    with (IZR dl * IZR dB * IZR dU * IZR (zent RL p q) / (IZR dL * (IZR dl * IZR dB * IZR dU)))
    by (field; auto).
  rewrite E. destruct (Nat.eq_dec p q); rewrite ?mult_IZR; field; auto.
Qed.

Lemma grouping_tail_zero : chk = true -> forall p t, (p < d)%nat -> (k <= t)%nat -> (t < K)%nat ->
  zmat_cols dG CG p t = 0%R.
Proof.
  intros Hc p t _ Hkt Ht. pose proof (col_ok_at t Hc Ht) as C. unfold col_ok in C.
  apply andb_prop in C as [_ C]. destruct (Nat.ltb_spec t k) as [|_]; [lia|]. simpl in C.
  unfold zmat_cols. rewrite (zzero_sound _ C p). unfold Rdiv. ring.
Qed.

Theorem check_grouping_drop_sound_sec : chk = true ->
  grouping_drop d n k K (zmat_rows dA RA) (zmat_cols dB CB) (zmat_rows dU RU) (zmat_cols dG CG)
    (zmat_rows dL RL) clsf lamf.
Proof.
  intros Hc. destruct (check_parts Hc) as (_ & _ & _ & _ & _ & _ & Hk & _).
  split; [exact Hk|]. split; [|exact (grouping_tail_zero Hc)].
  split; [exact (grouping_kept Hc)|]. split; [exact (grouping_dropped Hc)|].
  split; [exact (grouping_G_eq Hc) | exact (grouping_L_eq Hc)].
Qed.

End Sound.

Theorem check_grouping_drop_sound d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  grouping_drop d n k K (zmat_rows dA RA) (zmat_cols dB CB) (zmat_rows dU RU) (zmat_cols dG CG)
    (zmat_rows dL RL) (fun i => nth i cls K) (fun i => IZR (nth i LN 0%Z) / IZR dl).
Proof. exact (check_grouping_drop_sound_sec d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL). Qed.

Lemma check_pm_scales_sound n K dl LN cls : (0 < dl)%Z -> check_pm_scales n K dl LN cls = true ->
  forall i, (i < n)%nat -> (nth i cls K < K)%nat ->
    IZR (nth i LN 0%Z) / IZR dl = 1%R \/ IZR (nth i LN 0%Z) / IZR dl = (-1)%R.
Proof.
  intros Hl H i Hi Hk. unfold check_pm_scales in H. rewrite forallb_forall in H.
  specialize (H (nth i (mk_rows n [] [] LN cls K) (row_dflt K))
                (nth_In _ _ ltac:(rewrite mk_rows_length; exact Hi))).
  rewrite nth_mk_rows in H by exact Hi. simpl in H.
  destruct (Z.ltb_spec (Z.of_nat (nth i cls K)) (Z.of_nat K)) as [_|C]; [|lia]. simpl in H.
  apply Z.eqb_eq in H. pose proof (IZR_pos_neq0 _ Hl).
  destruct (Z.abs_eq_or_opp (nth i LN 0%Z)) as [E|E]; rewrite E in H; [left | right].
  - rewrite H. field. auto.
  - replace (nth i LN 0%Z) with (- dl)%Z by lia. rewrite opp_IZR. field. auto.
Qed.

Theorem check_grouping_drop_pm_sound d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  grouping_drop_pm d n k K (zmat_rows dA RA) (zmat_cols dB CB) (zmat_rows dU RU) (zmat_cols dG CG)
    (zmat_rows dL RL) (fun i => nth i cls K) (fun i => IZR (nth i LN 0%Z) / IZR dl).
Proof.
  intros H Hpm. split; [exact (check_grouping_drop_sound _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ H)|].
  destruct (check_parts d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL H) as (_ & _ & _ & Hl & _).
  exact (check_pm_scales_sound n K dl LN cls Hl Hpm).
Qed.
