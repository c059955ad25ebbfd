(** * Sanity check of the definition of Lebesgue null sets ([spec/ParamSets.v])

    [unit_interval_not_null]: the segment [[0, 1]] in one coordinate is not
    [lebesgue_null] (its outer measure is [1], not [0]).  So the notion of
    [NullSet.v] is not degenerate: [Z_null] and [nongeneric_null] are real
    statements.  Proof: enlarge the closed boxes of a cover of total length
    [<= 1/4] to open intervals of total length [<= 1/2] ([stages],
    [stages_length], [widening_small]); by a least upper bound argument
    ([unit_interval_compact]) finitely many of them cover [[0, 1]];
    finitely many open intervals covering [[a, b]] have total length
    [>= b - a] ([finite_cover_length]). *)

From Coq Require Import Reals Lra Lia List Classical.
From Absorb Require Import Sums Blocks ParamSets NullSetCover NullSet.
Import ListNotations.
Open Scope R_scope.

(** Total length of a list of intervals [(l, h)]. *)
Fixpoint suml (L : list (R * R)) : R :=
  match L with [] => 0 | iv :: L' => (snd iv - fst iv) + suml L' end.

Lemma suml_app L1 L2 : suml (L1 ++ L2) = suml L1 + suml L2.
Proof. induction L1 as [|iv L1 IH]; simpl; [ring | rewrite IH; ring]. Qed.

Lemma suml_nonneg L : (forall iv, In iv L -> fst iv <= snd iv) -> 0 <= suml L.
Proof.
  induction L as [|iv L IH]; intros H; simpl; [lra|].
  pose proof (H iv (or_introl eq_refl)). pose proof (IH (fun J HJ => H J (or_intror HJ))). lra.
Qed.

Definition covers (L : list (R * R)) (a b : R) : Prop :=
  forall x, a <= x <= b -> exists iv, In iv L /\ fst iv < x < snd iv.

Lemma finite_cover_length_aux k : forall L a b,
  (length L <= k)%nat -> (forall iv, In iv L -> fst iv <= snd iv) ->
  a <= b -> covers L a b -> b - a <= suml L.
Proof.
  induction k as [|k IH]; intros L a b Hk Hord Hab Hcov.
  - destruct L; [|simpl in Hk; lia]. destruct (Hcov b ltac:(lra)) as [iv [[] _]].
  - destruct (Hcov b ltac:(lra)) as [[l h] [HI [Hl Hh]]]. simpl in Hl, Hh.
    destruct (in_split _ _ HI) as [L1 [L2 E]]. subst L.
    assert (Hord' : forall J, In J (L1 ++ L2) -> fst J <= snd J).
    { intros J HJ. apply Hord. apply in_app_or in HJ. apply in_or_app.
      destruct HJ; [left | right; right]; assumption. }
    pose proof (suml_nonneg _ Hord') as Hs.
    rewrite suml_app in Hs |- *. simpl suml.
    destruct (Rlt_le_dec l a) as [Hla|Hal]; [lra|].
    assert (Hrest : l - a <= suml (L1 ++ L2)).
    { apply IH; [rewrite app_length in Hk |- *; simpl in Hk; lia | exact Hord' | exact Hal |].
      intros x Hx. destruct (Hcov x ltac:(lra)) as [J [HJ HxJ]].
      exists J. split; [|exact HxJ]. apply in_app_or in HJ. apply in_or_app.
      destruct HJ as [HJ|[E|HJ]]; [left; exact HJ | | right; exact HJ].
      subst J. simpl in HxJ. lra. }
    rewrite suml_app in Hrest. lra.
Qed.

Lemma finite_cover_length L a b :
  (forall iv, In iv L -> fst iv <= snd iv) -> a <= b -> covers L a b -> b - a <= suml L.
Proof. apply (finite_cover_length_aux (length L)). lia. Qed.

(** ** Compactness of [[0, 1]], by a least upper bound

    If every point of [[0, 1]] is inside an open interval of some stage
    [Fin M] of an increasing family of finite lists, one stage covers
    [[0, 1]]: the supremum [s] of the [x] with [[0, x]] covered by a stage
    is itself inside an interval [(l, h)], which pushes the covered part
    past [s] unless [s = 1]. *)
Lemma unit_interval_compact (Fin : nat -> list (R * R)) :
  (forall M M' iv, (M <= M')%nat -> In iv (Fin M) -> In iv (Fin M')) ->
  (forall x, 0 <= x <= 1 -> exists M iv, In iv (Fin M) /\ fst iv < x < snd iv) ->
  exists M, covers (Fin M) 0 1.
Proof.
  intros Hmono Hpt.
  set (P := fun x => exists M, covers (Fin M) 0 x).
  set (E := fun x => 0 <= x <= 1 /\ P x).
  assert (HE0 : E 0).
  { split; [lra|]. destruct (Hpt 0 ltac:(lra)) as [m [iv [HI HxI]]].
    exists m. intros y Hy. exists iv. split; [exact HI|]. replace y with 0 by lra. exact HxI. }
  destruct (completeness E) as [s [Hub Hleast]].
  { exists 1. intros x [Hx _]. lra. }
  { exists 0. exact HE0. }
  assert (Hs0 : 0 <= s) by (apply Hub; exact HE0).
  assert (Hs1 : s <= 1) by (apply Hleast; intros x [Hx _]; lra).
  destruct (Hpt s ltac:(lra)) as [m [[l h] [HI [Hl Hh]]]]. simpl in Hl, Hh.
  assert (Hx : exists x, E x /\ l < x).
  { apply NNPP. intros Hno. assert (s <= l); [|lra].
    apply Hleast. intros x Hx. apply Rnot_lt_le. intros Hlx. apply Hno. exists x. auto. }
  destruct Hx as [x [[Hx01 [M1 HM1]] Hlx]].
  assert (HP : P (Rmin 1 ((s + h) / 2))).
  { exists (Nat.max M1 m). intros y Hy.
    destruct (Rle_lt_dec y x) as [Hyx|Hxy].
    - destruct (HM1 y ltac:(lra)) as [iv [HI' HyI]]. exists iv. split; [|exact HyI].
      apply (Hmono M1); [lia | exact HI'].
    - exists (l, h). split; [apply (Hmono m); [lia | exact HI]|]. simpl.
      pose proof (Rmin_r 1 ((s + h) / 2)). lra. }
  assert (Hmin : Rmin 1 ((s + h) / 2) <= s).
  { apply Hub. split; [|exact HP]. pose proof (Rmin_l 1 ((s + h) / 2)).
    unfold Rmin. destruct (Rle_dec 1 ((s + h) / 2)); lra. }
  unfold Rmin in HP, Hmin. destruct (Rle_dec 1 ((s + h) / 2)); [exact HP | lra].
Qed.

(** ** Enlarging a box cover to open intervals *)

(** Stage [m] of a cover, each box widened by [eta m] on both sides. *)
Definition widened (c : key) (cover : nat -> list box) (eta : nat -> R) (m : nat) : list (R * R) :=
  map (fun b => (lo b c - eta m, hi b c + eta m)) (cover m).

Definition stages (c : key) (cover : nat -> list box) (eta : nat -> R) (M : nat) : list (R * R) :=
  flat_map (widened c cover eta) (seq 0 M).

Lemma stages_length c cover eta M :
  suml (stages c cover eta M) =
  sumn M (fun m => total_volume [c] (cover m) + INR (length (cover m)) * (2 * eta m)).
Proof.
  unfold stages. induction M as [|M IH]; [reflexivity|].
  rewrite seq_S, flat_map_app, suml_app, IH, sumn_S. simpl. rewrite app_nil_r. f_equal.
  unfold widened. induction (cover M) as [|b L IHL]; [simpl; ring|].
  cbn [map suml total_volume length]. rewrite IHL, S_INR. unfold volume. simpl. ring.
Qed.

(** With [eta m = 1 / (2^(m+1) 8 (|cover m| + 1))] the widening adds at
    most [1/4] in total. *)
Lemma widening_small (k : nat -> nat) M :
  sumn M (fun m => INR (k m) * (2 * / (2 ^ S m * 8 * (INR (k m) + 1)))) <= / 4.
Proof.
  assert (Hext : forall m, INR (k m) * (2 * / (2 ^ S m * 8 * (INR (k m) + 1))) <= / 4 * / 2 ^ S m).
  { intros m'. pose proof (pos_INR (k m')).
    assert (H2 : 0 < 2 ^ S m') by (apply pow_lt; lra).
    set (q := INR (k m')) in *. set (t := 2 ^ S m') in *.
    replace (q * (2 * / (t * 8 * (q + 1)))) with (/ 4 * / t * (q / (q + 1))) by (field; lra).
    rewrite <- (Rmult_1_r (/ 4 * / t)) at 2. apply Rmult_le_compat_l.
    - apply Rmult_le_pos; left; apply Rinv_0_lt_compat; lra.
    - apply (Rmult_le_reg_r (q + 1)); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l; lra. }
  eapply Rle_trans; [apply sumn_le; intros m' _; apply Hext|].
  rewrite sumn_scal_l, sumn_geometric.
  assert (0 < / 2 ^ M) by (apply Rinv_0_lt_compat, pow_lt; lra).
  lra.
Qed.

(** ** [[0, 1]] is not null *)

Theorem unit_interval_not_null (c : key) : ~ lebesgue_null [c] (fun p => 0 <= p c <= 1).
Proof.
  intros Hnull. destruct (Hnull (/ 4) ltac:(lra)) as [cover [Hprop [Hcov Hsum]]].
  set (eta := fun m => / (2 ^ S m * 8 * (INR (length (cover m)) + 1))).
  assert (Heta : forall m, 0 < eta m).
  { intros m. unfold eta. apply Rinv_0_lt_compat. pose proof (pos_INR (length (cover m))).
    pose proof (pow_lt 2 (S m) ltac:(lra)). apply Rmult_lt_0_compat; [lra | lra]. }
  set (Fin := stages c cover eta).
  assert (HJord : forall M iv, In iv (Fin M) -> fst iv <= snd iv).
  { intros M iv HI. unfold Fin, stages in HI. apply in_flat_map in HI. destruct HI as [m [_ HI]].
    unfold widened in HI. apply in_map_iff in HI. destruct HI as [b [<- Hb]]. simpl.
    pose proof (Hprop m b Hb c (or_introl eq_refl)). pose proof (Heta m). lra. }
  assert (Hmono : forall M M' iv, (M <= M')%nat -> In iv (Fin M) -> In iv (Fin M')).
  { intros M M' iv HM HI. unfold Fin, stages in *. apply in_flat_map in HI.
    destruct HI as [m [Hm HI]].
    apply in_flat_map. exists m. split; [apply in_seq in Hm; apply in_seq; lia | exact HI]. }
  assert (Hpt : forall x, 0 <= x <= 1 -> exists M iv, In iv (Fin M) /\ fst iv < x < snd iv).
  { intros x Hx. destruct (Hcov (fun _ => x) Hx) as [m [b [Hb Hin]]].
    destruct (Hin c (or_introl eq_refl)) as [H1 H2]. pose proof (Heta m).
    exists (S m), (lo b c - eta m, hi b c + eta m). split; [|simpl; lra].
    unfold Fin, stages. apply in_flat_map. exists m. split; [apply in_seq; lia|].
    apply (in_map (fun b0 => (lo b0 c - eta m, hi b0 c + eta m))). exact Hb. }
  destruct (unit_interval_compact Fin Hmono Hpt) as [M HM].
  pose proof (finite_cover_length (Fin M) 0 1 (HJord M) ltac:(lra) HM) as Hlen.
  unfold Fin in Hlen. rewrite stages_length, sumn_plus in Hlen.
  pose proof (Hsum M). pose proof (widening_small (fun m => length (cover m)) M).
  unfold eta in Hlen.
  lra.
Qed.
