(** * A layer with one extra row: its grouping and ridge form on a block

    Row [z] of [A] is [lam a_(i1)] with [lam = ln / ld] ([lam = 0]: a zero row,
    a pruned neuron; [lam <> 0]: a row on the line of row [i1]), or [ln = 0] and
    column [z] of [B] is zero (a dead neuron); the other rows are the [k = n - 1]
    classes, class [t] holding row [rep t].
    [one_extra_grouping]: this is a [RidgeForm.grouping] (ReLU); [one_extra_grouping_pm]:
    a [grouping_pm] (the GELU family) when [ln = 0] or [|ln| = ld].  On a block
    (rows [R1] of the output, columns [C] of the input) its [U], [G], [L] are the
    integer data [eU], [eG], [eL] over [dA], [ld dB], [ld dA dB]
    ([U_block], [G_block], [L_block]). *)

From Coq Require Import Reals ZArith Lia Lra List.
From Absorb Require Import Sums Blocks.
From Absorb.decide Require Import RidgeForm.
Import ListNotations.
Open Scope R_scope.

Section Index.

Variables (n z : nat).

Definition rep (t : nat) : nat := if Nat.ltb t z then t else S t.
Definition idx (i : nat) : nat := if Nat.ltb i z then i else pred i.

Lemma idx_rep t : idx (rep t) = t.
Proof.
  unfold idx, rep. destruct (Nat.ltb_spec t z); [rewrite (proj2 (Nat.ltb_lt t z)) by lia; lia|].
  destruct (Nat.ltb_spec (S t) z); lia.
Qed.

Lemma rep_idx i : i <> z -> rep (idx i) = i.
Proof.
  intros H. unfold idx, rep. destruct (Nat.ltb_spec i z).
  - rewrite (proj2 (Nat.ltb_lt i z)) by lia. reflexivity.
  - destruct (Nat.ltb_spec (pred i) z); lia.
Qed.

Lemma rep_neq t : rep t <> z.
Proof. unfold rep. destruct (Nat.ltb_spec t z); lia. Qed.

Lemma rep_lt t : (t < n - 1)%nat -> (z < n)%nat -> (rep t < n)%nat.
Proof. unfold rep. destruct (Nat.ltb_spec t z); lia. Qed.

Lemma idx_lt i : (i < n)%nat -> i <> z -> (z < n)%nat -> (idx i < n - 1)%nat.
Proof. unfold idx. destruct (Nat.ltb_spec i z); lia. Qed.

End Index.

Section Grouping.

Variables (d n z i1 : nat) (ln ld : Z) (A B : mat).

Definition kk : nat := (n - 1)%nat.
Definition lamr : R := IZR ln / IZR ld.
Definition cls1 (i : nat) : nat :=
  if Nat.eqb i z then (if Z.eqb ln 0 then kk else idx z i1) else idx z i.
Definition lam1 (i : nat) : R := if Nat.eqb i z then lamr else 1.
Definition U1 : mat := fun t j => A (rep z t) j.
Definition G1 : mat := fun p t =>
  sumn n (fun i => if Nat.eq_dec (cls1 i) t then Rabs (lam1 i) * B p i else 0).
Definition L1 : mat := fun p q =>
  identity p q - sumn n (fun i => if Nat.ltb (cls1 i) kk then
                                    if Rlt_dec (lam1 i) 0 then Rabs (lam1 i) * B p i * U1 (cls1 i) q
                                    else 0
                                  else 0).

Variable Hz : (z < n)%nat.
Variable Hi1 : (i1 < n)%nat.
Variable Hzi : z <> i1.
Variable Hld : (0 < ld)%Z.
(** Row [z] of [A] is [lamr] times row [i1], or neuron [z] is dead: [ln = 0] and column [z]
    of [B] is zero (then row [z] of [A] is anything). *)
Variable Hrel : (forall q, (q < d)%nat -> A z q = lamr * A i1 q) \/
                (ln = 0%Z /\ forall p, (p < d)%nat -> B p z = 0).

Lemma lamr_zero : ln = 0%Z -> lamr = 0.
Proof. intros H. unfold lamr, Rdiv. rewrite H. simpl IZR. apply Rmult_0_l. Qed.

Lemma lamr_nonzero : ln <> 0%Z -> lamr <> 0.
Proof.
  intros H. unfold lamr. apply IZR_lt in Hld. apply IZR_neq in H.
  unfold Rdiv. apply Rmult_integral_contrapositive. split; [exact H|].
  apply Rinv_neq_0_compat. lra.
Qed.

Lemma lamr_neg : lamr < 0 <-> (ln < 0)%Z.
Proof.
  unfold lamr. apply IZR_lt in Hld as H. split; intros H1.
  - destruct (Z_lt_le_dec ln 0) as [|Hge]; [assumption|]. apply IZR_le in Hge.
    exfalso. assert (0 <= IZR ln / IZR ld); [|lra].
    unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra].
  - apply IZR_lt in H1. assert (IZR ln / IZR ld < 0); [|lra].
    unfold Rdiv. pose proof (Rinv_0_lt_compat (IZR ld) H). nra.
Qed.

Lemma one_extra_grouping : grouping d n kk A B U1 G1 L1 cls1 lam1.
Proof.
  split; [|split; [|split; reflexivity]].
  - intros i Hi Hc. unfold cls1, lam1 in *. destruct (Nat.eqb_spec i z) as [->|Hne].
    + destruct (Z.eqb_spec ln 0) as [E|E]; [unfold kk in Hc; lia|].
      destruct Hrel as [Hrow|[E0 _]]; [|contradiction].
      split; [exact (lamr_nonzero E)|]. intros j Hj. rewrite (Hrow j Hj). unfold U1.
      rewrite rep_idx by (intros ->; apply Hzi; reflexivity). reflexivity.
    + split; [lra|]. intros j Hj. unfold U1. rewrite rep_idx by exact Hne. ring.
  - intros i Hi Hc. unfold cls1 in Hc. destruct (Nat.eqb_spec i z) as [->|Hne].
    + destruct (Z.eqb_spec ln 0) as [E|E].
      * destruct Hrel as [Hrow|[_ Hcol]]; [left | right; exact Hcol].
        intros j Hj. rewrite (Hrow j Hj), (lamr_zero E). ring.
      * pose proof (idx_lt n z i1 Hi1 (fun e => Hzi (eq_sym e)) Hz). unfold kk in Hc. lia.
    + pose proof (idx_lt n z i Hi Hne Hz). unfold kk in Hc. lia.
Qed.

(** Which rows fall in class [t < kk]: row [rep t], and row [z] when it joins class [t]. *)
Lemma cls1_iff t i : (t < kk)%nat -> (i < n)%nat ->
  (cls1 i = t <-> i = rep z t \/ (i = z /\ ln <> 0%Z /\ t = idx z i1)).
Proof.
  intros Ht Hi. unfold cls1. destruct (Nat.eqb_spec i z) as [->|Hne].
  - pose proof (rep_neq z t) as Hrz. destruct (Z.eqb_spec ln 0) as [E|E].
    + unfold kk in *. split; [intros; exfalso; lia|].
      intros [H1|[_ [H1 _]]]; [exfalso; lia | contradiction].
    + split; [intros <-; right; auto|]. intros [H1|[_ [_ H1]]]; [exfalso; lia | auto].
  - split.
    + intros <-. left. symmetry. apply rep_idx. exact Hne.
    + intros [->|[H _]]; [apply idx_rep | contradiction].
Qed.

Lemma G1_value p t : (t < kk)%nat ->
  G1 p t = B p (rep z t) + (if Z.eqb ln 0 then 0 else if Nat.eqb t (idx z i1)
                              then Rabs lamr * B p z else 0).
Proof.
  intros Ht. unfold G1. assert (Hr : (rep z t < n)%nat) by (apply rep_lt; unfold kk in Ht; lia).
  rewrite (sumn_ext n _ (fun i => (if Nat.eq_dec (rep z t) i then B p i else 0) +
    (if Nat.eq_dec z i then (if Z.eqb ln 0 then 0 else if Nat.eqb t (idx z i1)
                              then Rabs lamr * B p z else 0) else 0))).
  - rewrite sumn_plus, sumn_delta by exact Hr. rewrite sumn_delta by exact Hz. reflexivity.
  - intros i Hi. pose proof (cls1_iff t i Ht Hi) as Hc. pose proof (rep_neq z t) as Hrz.
    destruct (Nat.eq_dec (cls1 i) t) as [E|E].
    + apply Hc in E. destruct (Nat.eq_dec (rep z t) i) as [<-|N1].
      * destruct (Nat.eq_dec z (rep z t)); [lia|]. unfold lam1.
        rewrite (proj2 (Nat.eqb_neq _ z) Hrz), Rabs_R1. ring.
      * destruct E as [|(-> & E1 & E2)]; [lia|].
        destruct (Nat.eq_dec z z); [|lia]. unfold lam1. rewrite Nat.eqb_refl.
        rewrite (proj2 (Z.eqb_neq ln 0) E1), E2, Nat.eqb_refl. ring.
    + destruct (Nat.eq_dec (rep z t) i) as [<-|N1]; [exfalso; apply E, Hc; auto|].
      destruct (Nat.eq_dec z i) as [<-|N2]; [|ring].
      destruct (Z.eqb_spec ln 0) as [|E1]; [ring|].
      destruct (Nat.eqb_spec t (idx z i1)) as [E2|]; [exfalso; apply E, Hc; auto | ring].
Qed.

Lemma L1_value p q : (q < d)%nat ->
  L1 p q = identity p q + (if Z.ltb ln 0 then lamr * B p z * A i1 q else 0).
Proof.
  intros Hq. unfold L1.
  rewrite (sumn_ext n _ (fun i => if Nat.eq_dec z i then
             (if Z.ltb ln 0 then - (lamr * B p z * A i1 q) else 0) else 0)).
  - rewrite sumn_delta by exact Hz. destruct (Z.ltb ln 0); ring.
  - intros i Hi. destruct (Nat.eq_dec z i) as [<-|N].
    + unfold cls1, lam1. rewrite Nat.eqb_refl. destruct (Z.eqb_spec ln 0) as [E|E].
      * rewrite E. simpl. unfold kk. rewrite Nat.ltb_irrefl. reflexivity.
      * rewrite (proj2 (Nat.ltb_lt _ kk))
          by (unfold kk; apply (idx_lt n z i1 Hi1 (fun e => Hzi (eq_sym e)) Hz)).
        destruct (Rlt_dec lamr 0) as [Hn|Hn].
        -- rewrite (proj2 (Z.ltb_lt ln 0)) by (apply lamr_neg; exact Hn).
           unfold U1. rewrite rep_idx by (intros e; apply Hzi; auto).
           rewrite Rabs_left by exact Hn. ring.
        -- destruct (Z.ltb_spec ln 0) as [Hl|]; [|reflexivity].
           exfalso. apply Hn. apply lamr_neg. exact Hl.
    + unfold lam1. rewrite (proj2 (Nat.eqb_neq i z) (fun e => N (eq_sym e))).
      destruct (Nat.ltb (cls1 i) kk); [|reflexivity].
      destruct (Rlt_dec 1 0); [lra | reflexivity].
Qed.

(** The GELU family: kept scales are [+-1] when row [z] is zero, dead, or [+-] row [i1]. *)
Lemma one_extra_grouping_pm : ln = 0%Z \/ Z.abs ln = ld ->
  grouping_pm d n kk A B U1 G1 L1 cls1 lam1.
Proof.
  intros Hs. split; [exact one_extra_grouping|]. intros i Hi Hc. unfold cls1, lam1 in *.
  destruct (Nat.eqb_spec i z) as [->|Hne]; [|left; reflexivity].
  destruct (Z.eqb_spec ln 0) as [E|E]; [unfold kk in Hc; lia|].
  destruct Hs as [|Habs]; [contradiction|]. unfold lamr. rewrite <- Habs.
  apply IZR_neq in E. destruct (Z.abs_spec ln) as [[_ Ha]|[_ Ha]]; rewrite Ha;
    [left | right]; rewrite ?opp_IZR; field; exact E.
Qed.

End Grouping.

(** Distinct lines are distinct up to sign. *)
Lemma lines_distinct_signs_distinct d k (U : mat) : lines_distinct d k U -> signs_distinct d k U.
Proof.
  intros [Hnz Hind]. split; [exact Hnz|]. intros s t Hs Ht Hne [C|C].
  - destruct (Hind s t Hs Ht Hne 1 (-1)) as [E _]; [|lra].
    intros j Hj. rewrite (C j Hj). ring.
  - destruct (Hind s t Hs Ht Hne 1 1) as [E _]; [|lra].
    intros j Hj. rewrite (C j Hj). ring.
Qed.
