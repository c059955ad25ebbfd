(** * Groupings that drop cancelling classes, and their existence for every block

    A [grouping] (RidgeForm.v) can only drop rows with [a_i = 0] or
    [b_i = 0].  [grouping_cannot_drop_relu] / [grouping_cannot_drop_pm]: for
    [x + relu(x) - relu(-x)] (resp. the same with GELU) there is no grouping
    with distinct classes and nonzero kinks, since the two rows form one
    class whose kinks cancel.  [grouping_drop d n k K ...] fixes this: a
    grouping into [K] classes whose classes [k .. K-1] have zero kink; the
    ridge form is its first [k] classes.
    - [grouping_drop_sound_relu], [grouping_drop_sound_pm]: the block equals
      the ridge form of the first [k] classes;
    - [grouping_drop_exists_relu], [grouping_drop_exists_pm]: every block has
      one whose first [k] classes are canonical (distinct lines / distinct
      up to sign, nonzero kinks);
    - [relu_absorbable_iff_width_drop], [pm_absorbable_iff_width_drop]: R8,
      R8' for such groupings. *)

From Coq Require Import Reals Lra Lia Classical.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix SubmatrixIff.
From Absorb Require Import Geometry FiniteMaps Calculus GeluRidge.
From Absorb Require Import SubmatrixIff.
From Absorb.decide Require Import RidgeForm GroupingSound WidthSufficient WidthNecessary
  Canonicalize R8.
Open Scope R_scope.

(** ** [grouping] cannot drop a cancelling class *)

Definition cancel_A : mat := fun i _ => if Nat.eqb i 0 then 1 else -1.
Definition cancel_B : mat := fun _ i => if Nat.eqb i 0 then 1 else -1.

(** Both rows of [cancel_A], [cancel_B] kept in one class: its kink is [0]. *)
Lemma cancel_one_class k (U G L : mat) cls lam :
  grouping 1 2 k cancel_A cancel_B U G L cls lam ->
  (cls 0%nat < k)%nat /\ (cls 1%nat < k)%nat /\
  (cls 0%nat = cls 1%nat -> G 0%nat (cls 0%nat) = 0).
Proof.
  intros [Hkeep [Hdrop [HG _]]].
  assert (Hk : forall i, (i < 2)%nat -> (cls i < k)%nat).
  { intros i Hi. destruct (Nat.lt_ge_cases (cls i) k) as [|Hge]; [assumption|].
    exfalso. destruct (Hdrop i Hi Hge) as [Z|Z]; specialize (Z 0%nat ltac:(lia));
      unfold cancel_A, cancel_B in Z; destruct (Nat.eqb i 0); lra. }
  split; [apply Hk; lia|]. split; [apply Hk; lia|]. intros E.
  rewrite (HG 0%nat (cls 0%nat) ltac:(lia) (Hk 0%nat ltac:(lia))). simpl.
  rewrite <- E. destruct (Nat.eq_dec (cls 0%nat) (cls 0%nat)) as [_|C]; [|congruence].
  destruct (Hkeep 0%nat ltac:(lia) (Hk 0%nat ltac:(lia))) as [_ A0e].
  destruct (Hkeep 1%nat ltac:(lia) (Hk 1%nat ltac:(lia))) as [_ A1e].
  specialize (A0e 0%nat ltac:(lia)). specialize (A1e 0%nat ltac:(lia)).
  rewrite <- E in A1e. unfold cancel_A, cancel_B in *. simpl in *.
  assert (Hl : lam 1%nat = - lam 0%nat).
  { assert (Hu : U (cls 0%nat) 0%nat <> 0) by (intros Z; rewrite Z in A0e; lra).
    apply (Rmult_eq_reg_r (U (cls 0%nat) 0%nat)); [lra | exact Hu]. }
  rewrite Hl, Rabs_Ropp. ring.
Qed.

Theorem grouping_cannot_drop_relu :
  ~ exists k (U G L : mat) cls lam, grouping 1 2 k cancel_A cancel_B U G L cls lam /\
      lines_distinct 1 k U /\ nonzero_cols 1 k G.
Proof.
  intros (k & U & G & L & cls & lam & Hg & [HU Hind] & HG).
  destruct (cancel_one_class k U G L cls lam Hg) as [H0 [H1 Hc]].
  destruct (Nat.eq_dec (cls 0%nat) (cls 1%nat)) as [E|E].
  - destruct (HG (cls 0%nat) H0) as [p [Hp Hnz]]. replace p with 0%nat in Hnz by lia.
    exact (Hnz (Hc E)).
  - destruct (Hind _ _ H0 H1 E (U (cls 1%nat) 0%nat) (- U (cls 0%nat) 0%nat)) as [Z _].
    + intros q Hq. replace q with 0%nat by lia. unfold row. ring.
    + destruct (HU (cls 1%nat) H1) as [q [Hq Hnz]]. replace q with 0%nat in Hnz by lia.
      exact (Hnz Z).
Qed.

Theorem grouping_cannot_drop_pm :
  ~ exists k (U G L : mat) cls lam, grouping_pm 1 2 k cancel_A cancel_B U G L cls lam /\
      signs_distinct 1 k U /\ nonzero_cols 1 k G.
Proof.
  intros (k & U & G & L & cls & lam & [Hg Hpm] & [HU Hsd] & HG).
  destruct (cancel_one_class k U G L cls lam Hg) as [H0 [H1 Hc]].
  destruct (Nat.eq_dec (cls 0%nat) (cls 1%nat)) as [E|E].
  - destruct (HG (cls 0%nat) H0) as [p [Hp Hnz]]. replace p with 0%nat in Hnz by lia.
    exact (Hnz (Hc E)).
  - apply (Hsd _ _ H0 H1 E). destruct Hg as [Hkeep _].
    destruct (Hkeep 0%nat ltac:(lia) H0) as [_ A0e].
    destruct (Hkeep 1%nat ltac:(lia) H1) as [_ A1e].
    specialize (A0e 0%nat ltac:(lia)). specialize (A1e 0%nat ltac:(lia)).
    unfold cancel_A in *. simpl in *.
    destruct (Hpm 0%nat ltac:(lia) H0) as [L0|L0], (Hpm 1%nat ltac:(lia) H1) as [L1|L1];
      rewrite L0 in A0e; rewrite L1 in A1e; [right | left | left | right];
      intros q Hq; replace q with 0%nat by lia; unfold row; lra.
Qed.

(** ** Groupings with a zero-kink tail *)

(** [grouping_drop], [grouping_drop_pm] ([K] classes, of which [k .. K-1]
    have zero kink) are defined in [RidgeForm.v]. *)

Lemma ridge_form_drop_zero sigma d k K (U G L : mat) : (k <= K)%nat ->
  (forall p t, (p < d)%nat -> (k <= t)%nat -> (t < K)%nat -> G p t = 0) ->
  same_fun d (ridge_form sigma d K U G L) (ridge_form sigma d k U G L).
Proof.
  intros Hk HZ x p Hp. unfold ridge_form. rewrite (WidthCore.sumn_split_at k K _ Hk).
  rewrite (sumn_zero (K - k)); [ring|]. intros i Hi.
  rewrite (HZ p (k + i)%nat Hp ltac:(lia) ltac:(lia)). ring.
Qed.

Theorem grouping_drop_sound_relu d n k K (A B U G L : mat) cls lam :
  grouping_drop d n k K A B U G L cls lam ->
  same_fun d (residual d identity (ungated relu d n A B)) (ridge_form relu d k U G L).
Proof.
  intros [Hk [Hg HZ]].
  exact (same_fun_trans d _ _ _ (grouping_sound_relu d n K A B U G L cls lam Hg)
                                (ridge_form_drop_zero relu d k K U G L Hk HZ)).
Qed.

Theorem grouping_drop_sound_pm sigma d n k K (A B U G L : mat) cls lam :
  odd_part_identity sigma -> sigma 0 = 0 -> grouping_drop_pm d n k K A B U G L cls lam ->
  same_fun d (residual d identity (ungated sigma d n A B)) (ridge_form sigma d k U G L).
Proof.
  intros Hodd H0 [[Hk [Hg HZ]] Hpm].
  exact
    (same_fun_trans d _ _ _ (grouping_sound_pm sigma d n K A B U G L cls lam Hodd H0 (conj Hg Hpm))
           (ridge_form_drop_zero sigma d k K U G L Hk HZ)).
Qed.

(** R8 for groupings with a zero-kink tail. *)
Theorem relu_absorbable_iff_width_drop d n k K m (A B U G L : mat) cls lam :
  grouping_drop d n k K A B U G L cls lam -> lines_distinct d k U -> nonzero_cols d k G ->
  (absorbable_ungated relu d n m identity A B <-> width_condition d k m U G L).
Proof.
  intros Hg Hl HG. exact (relu_absorbable_iff_form d n k m A B U G L Hl HG
                            (grouping_drop_sound_relu d n k K A B U G L cls lam Hg)).
Qed.

Theorem pm_absorbable_iff_width_drop sigma d n k K m (A B U G L : mat) cls lam :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  grouping_drop_pm d n k K A B U G L cls lam -> signs_distinct d k U -> nonzero_cols d k G ->
  (absorbable_ungated sigma d n m identity A B <-> width_condition d k m U G L).
Proof.
  intros Hodd H0 Hun Hg Hs HG.
  exact (pm_absorbable_iff_form sigma d n k m A B U G L Hodd H0 Hun Hs HG
           (grouping_drop_sound_pm sigma d n k K A B U G L cls lam Hodd H0 Hg)).
Qed.

(** ** Moving classes *)

(** The transposition of [j] and [K0]. *)
Definition swap (j K0 t : nat) : nat :=
  if Nat.eq_dec t j then K0 else if Nat.eq_dec t K0 then j else t.

Lemma swap_invol j K0 t : swap j K0 (swap j K0 t) = t.
Proof.
  unfold swap. destruct (Nat.eq_dec t j), (Nat.eq_dec t K0);
    repeat (destruct Nat.eq_dec); subst; lia.
Qed.

Lemma swap_lt j K0 N t : (j < N)%nat -> (K0 < N)%nat -> ((swap j K0 t < N)%nat <-> (t < N)%nat).
Proof. intros Hj HK. unfold swap. repeat destruct Nat.eq_dec; lia. Qed.

Lemma grouping_G_swap n (B : mat) cls lam j K0 p t :
  grouping_G n B (fun i => swap j K0 (cls i)) lam p t = grouping_G n B cls lam p (swap j K0 t).
Proof.
  unfold grouping_G. apply sumn_ext. intros i _.
  destruct (Nat.eq_dec (swap j K0 (cls i)) t) as [E|E], (Nat.eq_dec (cls i) (swap j K0 t))
    as [E'|E'];
    try reflexivity.
  - exfalso. apply E'. rewrite <- E, swap_invol. reflexivity.
  - exfalso. apply E. rewrite E', swap_invol. reflexivity.
Qed.

(** Moving the rows of class [j] to class [tgt], rescaled by [c]. *)
Definition reassign_cls (cls : nat -> nat) (j tgt : nat) : nat -> nat :=
  fun i => if Nat.eq_dec (cls i) j then tgt else cls i.
Definition reassign_lam (cls : nat -> nat) (lam : nat -> R) (j : nat) (c : R) : nat -> R :=
  fun i => if Nat.eq_dec (cls i) j then c * lam i else lam i.

Lemma grouping_G_reassign_other n (B : mat) cls lam j tgt c p t : t <> j -> t <> tgt ->
  grouping_G n B (reassign_cls cls j tgt) (reassign_lam cls lam j c) p t =
    grouping_G n B cls lam p t.
Proof.
  intros Hj Ht. unfold grouping_G, reassign_cls, reassign_lam. apply sumn_ext. intros i _.
  destruct (Nat.eq_dec (cls i) j) as [E|E].
  - destruct (Nat.eq_dec tgt t); [congruence|].
    destruct (Nat.eq_dec (cls i) t); [congruence | reflexivity].
  - reflexivity.
Qed.

Lemma grouping_G_reassign_emptied n (B : mat) cls lam j tgt c p : j <> tgt ->
  grouping_G n B (reassign_cls cls j tgt) (reassign_lam cls lam j c) p j = 0.
Proof.
  intros Hne. unfold grouping_G, reassign_cls. apply sumn_zero. intros i _.
  destruct (Nat.eq_dec (cls i) j) as [E|E].
  - destruct (Nat.eq_dec tgt j); [congruence | reflexivity].
  - destruct (Nat.eq_dec (cls i) j); [congruence | reflexivity].
Qed.

(** ** The canonicalization invariant *)

Section Canonical.

Variables (d n : nat) (A B : mat).
Variable okl : R -> Prop.
Variable rel : nat -> vec -> vec -> Prop.
Context (okl_nonzero : forall l, okl l -> l <> 0).
Context (rel_merge : forall v u, nonzero_vec d v -> rel d v u ->
  exists c, (forall q, (q < d)%nat -> v q = c * u q) /\ forall l, okl l -> okl (c * l)).

(** Classes [K .. n-1] have zero kink; rows with [cls i >= n] are dropped. *)
Definition inv (K : nat) (U : mat) (cls : nat -> nat) (lam : nat -> R) : Prop :=
  (K <= n)%nat /\
  (forall i, (i < n)%nat -> (cls i < n)%nat ->
     okl (lam i) /\ forall q, (q < d)%nat -> A i q = lam i * U (cls i) q) /\
  (forall i, (i < n)%nat -> (n <= cls i)%nat ->
     (forall q, (q < d)%nat -> A i q = 0) \/ (forall p, (p < d)%nat -> B p i = 0)) /\
  (forall p t, (p < d)%nat -> (K <= t)%nat -> (t < n)%nat -> grouping_G n B cls lam p t = 0).

Lemma inv_zero_kink K0 U cls lam j : inv (S K0) U cls lam -> (j < S K0)%nat ->
  (forall p, (p < d)%nat -> grouping_G n B cls lam p j = 0) ->
  inv K0 (fun t => U (swap j K0 t)) (fun i => swap j K0 (cls i)) lam.
Proof.
  intros [HK [Hkeep [Hdrop HZ]]] Hj Hzj. split; [lia|]. split; [|split].
  - intros i Hi Hc. apply (swap_lt j K0 n (cls i) ltac:(lia) ltac:(lia)) in Hc.
    destruct (Hkeep i Hi Hc) as [Hl Ha]. split; [exact Hl|]. intros q Hq. rewrite swap_invol.
    exact (Ha q Hq).
  - intros i Hi Hc. apply Hdrop; [exact Hi|].
    destruct (Nat.lt_ge_cases (cls i) n) as [Hlt|]; [|assumption].
    apply (swap_lt j K0 n (cls i) ltac:(lia) ltac:(lia)) in Hlt. lia.
  - intros p t Hp Ht Htn. rewrite grouping_G_swap. unfold swap at 1.
    destruct (Nat.eq_dec t j) as [->|Hne]; [replace K0 with j by lia; exact (Hzj p Hp)|].
    destruct (Nat.eq_dec t K0) as [->|Hne']; [exact (Hzj p Hp)|].
    apply HZ; [exact Hp | lia | exact Htn].
Qed.

Lemma inv_drop_zero_direction K U cls lam j : inv K U cls lam -> (j < K)%nat ->
  (forall q, (q < d)%nat -> U j q = 0) ->
  inv K U (reassign_cls cls j n) (reassign_lam cls lam j 1).
Proof.
  intros [HK [Hkeep [Hdrop HZ]]] Hj Hu. split; [exact HK|]. split; [|split].
  - intros i Hi Hc. unfold reassign_cls, reassign_lam in *.
    destruct (Nat.eq_dec (cls i) j); [lia|]. exact (Hkeep i Hi Hc).
  - intros i Hi Hc. unfold reassign_cls in Hc. destruct (Nat.eq_dec (cls i) j) as [E|E].
    + left. intros q Hq. destruct (Hkeep i Hi ltac:(lia)) as [_ Ha].
      rewrite (Ha q Hq), E, (Hu q Hq). ring.
    + exact (Hdrop i Hi Hc).
  - intros p t Hp Ht Htn. rewrite grouping_G_reassign_other by lia. exact (HZ p t Hp Ht Htn).
Qed.

Lemma inv_merge K U cls lam j i0 c : inv K U cls lam -> (j < K)%nat -> (i0 < K)%nat -> i0 <> j ->
  (forall q, (q < d)%nat -> U j q = c * U i0 q) -> (forall l, okl l -> okl (c * l)) ->
  inv K U (reassign_cls cls j i0) (reassign_lam cls lam j c).
Proof.
  intros [HK [Hkeep [Hdrop HZ]]] Hj Hi0 Hne Hu Hc. split; [exact HK|]. split; [|split].
  - intros i Hi Hcl. unfold reassign_cls, reassign_lam in *.
    destruct (Nat.eq_dec (cls i) j) as [E|E]; [|exact (Hkeep i Hi Hcl)].
    destruct (Hkeep i Hi ltac:(lia)) as [Hl Ha]. split; [apply Hc, Hl|].
    intros q Hq. rewrite (Ha q Hq), E, (Hu q Hq). ring.
  - intros i Hi Hcl. unfold reassign_cls in Hcl. destruct (Nat.eq_dec (cls i) j); [lia|].
    exact (Hdrop i Hi Hcl).
  - intros p t Hp Ht Htn. rewrite grouping_G_reassign_other by lia. exact (HZ p t Hp Ht Htn).
Qed.

Lemma inv_canonical K : forall U cls lam, inv K U cls lam ->
  exists k U' cls' lam', (k <= K)%nat /\ inv k U' cls' lam' /\
    canonical_rel rel d k U' (grouping_G n B cls' lam').
Proof.
  induction K as [|K0 IH]; intros U cls lam Hinv.
  { exists 0%nat, U, cls, lam. split; [lia|]. split; [exact Hinv|].
    split; [|split]; [intros t Ht; lia | intros s t Hs; lia | intros t Ht; lia]. }
  (* a class with zero kink: move it to the tail *)
  destruct (classic (exists j, (j < S K0)%nat /\ ~ nonzero_vec d (col (grouping_G n B cls lam) j)))
    as [[j [Hj Hz]]|Hnz].
  { destruct (IH _ _ _ (inv_zero_kink K0 U cls lam j Hinv Hj
                         (fun p Hp => not_nonzero_zero d _ Hz p Hp)))
      as (k & U' & cls' & lam' & Hk & Hi & Hc).
    exists k, U', cls', lam'. split; [lia | split; assumption]. }
  assert (HG : forall j, (j < S K0)%nat -> nonzero_vec d (col (grouping_G n B cls lam) j))
    by (intros j Hj; apply NNPP; intros C; apply Hnz; exists j; split; assumption).
  (* a class with zero direction: drop its rows, then move it to the tail *)
  destruct (classic (exists j, (j < S K0)%nat /\ ~ nonzero_vec d (row U j))) as [[j [Hj Hz]]|Hnzu].
  { assert (Hinv' := inv_drop_zero_direction (S K0) U cls lam j Hinv Hj (not_nonzero_zero d _ Hz)).
    assert (Hjn : j <> n) by (destruct Hinv as [HK _]; lia).
    destruct (IH _ _ _ (inv_zero_kink K0 U _ _ j Hinv' Hj
                         (fun p _ => grouping_G_reassign_emptied n B cls lam j n 1 p Hjn)))
      as (k & U' & cls' & lam' & Hk & Hi & Hc).
    exists k, U', cls', lam'. split; [lia | split; assumption]. }
  assert (HU : forall j, (j < S K0)%nat -> nonzero_vec d (row U j))
    by (intros j Hj; apply NNPP; intros C; apply Hnzu; exists j; split; assumption).
  (* two classes in one relation class: merge them, then move the emptied one *)
  destruct (classic (exists j i0, (j < S K0)%nat /\ (i0 < S K0)%nat /\ i0 <> j /\
                                 rel d (row U j) (row U i0)))
    as [[j [i0 [Hj [Hi0 [Hne Hr]]]]]|Hno].
  { destruct (rel_merge _ _ (HU j Hj) Hr) as [c [Hc Hokc]].
    assert (Hinv' := inv_merge (S K0) U cls lam j i0 c Hinv Hj Hi0 Hne Hc Hokc).
    destruct (IH _ _ _ (inv_zero_kink K0 U _ _ j Hinv' Hj
                         (fun p _ => grouping_G_reassign_emptied n B cls lam j i0 c p
                                       (fun E => Hne (eq_sym E)))))
      as (k & U' & cls' & lam' & Hk & Hi & Hcan).
    exists k, U', cls', lam'. split; [lia | split; assumption]. }
  exists (S K0), U, cls, lam. split; [lia|]. split; [exact Hinv|]. split; [exact HU|].
  split; [|exact HG].
  intros s t Hs Ht Hst C. apply Hno. exists s, t.
  split; [exact Hs | split; [exact Ht | split; [intros E; apply Hst; symmetry; exact E | exact C]]].
Qed.

Lemma inv_start : okl 1 -> inv n A (fun i => i) (fun _ => 1).
Proof.
  intros H1. split; [lia|]. split; [|split].
  - intros i _ _. split; [exact H1|]. intros q _. ring.
  - intros i Hi Hc. lia.
  - intros p t _ Ht Htn. lia.
Qed.

Lemma grouping_drop_of_inv k U cls lam : inv k U cls lam ->
  grouping_drop d n k n A B U (grouping_G n B cls lam) (grouping_L n n B U cls lam) cls lam.
Proof.
  intros [Hk [Hkeep [Hdrop HZ]]]. split; [exact Hk|]. split; [|exact HZ].
  apply grouping_of_classes; [|exact Hdrop].
  intros i Hi Hc. destruct (Hkeep i Hi Hc) as [Hl Ha]. split; [exact (okl_nonzero _ Hl) | exact Ha].
Qed.

Theorem grouping_drop_exists_gen : okl 1 ->
  exists k U cls lam, inv k U cls lam /\
    grouping_drop d n k n A B U (grouping_G n B cls lam) (grouping_L n n B U cls lam) cls lam /\
    canonical_rel rel d k U (grouping_G n B cls lam).
Proof.
  intros H1. destruct (inv_canonical n A (fun i => i) (fun _ => 1) (inv_start H1))
    as (k & U & cls & lam & _ & Hi & Hc).
  exists k, U, cls, lam. split; [exact Hi|].
  split; [exact (grouping_drop_of_inv k U cls lam Hi) | exact Hc].
Qed.

End Canonical.

(** ** Every block has a canonical grouping with a zero-kink tail *)

Theorem grouping_drop_exists_relu d n (A B : mat) : exists k K (U G L : mat) cls lam,
  grouping_drop d n k K A B U G L cls lam /\ lines_distinct d k U /\ nonzero_cols d k G.
Proof.
  destruct (grouping_drop_exists_gen d n A B (fun l => l <> 0) parallel_to)
    as (k & U & cls & lam & _ & Hg & [HU [Hd HG]]).
  - intros l H. exact H.
  - intros v u [q0 [Hq0 Hv]] [c Hc]. exists c. split; [exact Hc|].
    intros l Hl E. apply Rmult_integral in E. destruct E as [E|E]; [|exact (Hl E)].
    apply Hv. rewrite (Hc q0 Hq0), E. ring.
  - lra.
  - exists k, n, U, (grouping_G n B cls lam), (grouping_L n n B U cls lam), cls, lam.
    split; [exact Hg|]. split; [|exact HG]. split; [exact HU|].
    intros s t Hs Ht Hst.
    apply not_parallel_independent; [exact (HU t Ht) | exact (Hd s t Hs Ht Hst)].
Qed.

Theorem grouping_drop_exists_pm d n (A B : mat) : exists k K (U G L : mat) cls lam,
  grouping_drop_pm d n k K A B U G L cls lam /\ signs_distinct d k U /\ nonzero_cols d k G.
Proof.
  destruct (grouping_drop_exists_gen d n A B (fun l => l = 1 \/ l = -1) pm_equal)
    as (k & U & cls & lam & [_ [Hkeep _]] & Hg & [HU [Hd HG]]).
  - intros l H. exact (pm1_nonzero l H).
  - intros v u _ Hr. destruct (same_up_to_sign_parallel d v u Hr) as [c [Hc1 Hc]].
    exists c. split; [exact Hc|]. intros l Hl.
    destruct Hc1 as [E1|E1]; destruct Hl as [E2|E2]; rewrite E1, E2;
      [left | right | right | left]; ring.
  - left. reflexivity.
  - exists k, n, U, (grouping_G n B cls lam), (grouping_L n n B U cls lam), cls, lam.
    split; [split; [exact Hg|] | split; [split; [exact HU | exact Hd] | exact HG]].
    intros i Hi Hc. exact (proj1 (Hkeep i Hi Hc)).
Qed.

(** ** Non-vacuity: [x + relu(x) - relu(-x) = 2x] keeps no class *)

Definition cancel_cls : nat -> nat := fun _ => 0%nat.
Definition cancel_lam : nat -> R := fun i => cancel_A i 0%nat.
Definition cancel_G : mat := grouping_G 2 cancel_B cancel_cls cancel_lam.
Definition cancel_L : mat := grouping_L 2 1 cancel_B one_mat cancel_cls cancel_lam.

Lemma cancel_L_00 : cancel_L 0%nat 0%nat = 2.
Proof.
  unfold cancel_L, grouping_L, identity, cancel_cls, cancel_lam, cancel_A, cancel_B, one_mat. simpl.
  destruct (Rlt_dec 1 0); [lra|]. destruct (Rlt_dec (-1) 0); [|lra].
  rewrite Rabs_left by lra. ring.
Qed.

Example cancel_grouping_drop :
  grouping_drop 1 2 0 1 cancel_A cancel_B one_mat cancel_G cancel_L cancel_cls cancel_lam.
Proof.
  split; [lia|]. split.
  - apply grouping_of_classes.
    + intros i _ _. unfold cancel_lam, cancel_A, one_mat.
      split; [destruct (Nat.eqb i 0); lra|]. intros q _. destruct (Nat.eqb i 0); ring.
    + intros i _ Hc. unfold cancel_cls in Hc. lia.
  - intros p t _ _ Ht. replace t with 0%nat by lia.
    unfold cancel_G, grouping_G, cancel_cls, cancel_lam, cancel_A, cancel_B. simpl.
    rewrite Rabs_R1, Rabs_left by lra. ring.
Qed.

Lemma cancel_no_width_1 : ~ width_condition 1 0 1 one_mat cancel_G cancel_L.
Proof.
  intros (T & S & r & E & P & Q & _ & Hm & HL). simpl in Hm. assert (r = 0%nat) by lia. subst r.
  specialize (HL 0%nat 0%nat ltac:(lia) ltac:(lia)). unfold masked_outer, low_rank in HL.
  simpl in HL.
  rewrite cancel_L_00 in HL. lra.
Qed.

Lemma cancel_canonical : lines_distinct 1 0 one_mat /\ nonzero_cols 1 0 cancel_G.
Proof. split; [split; [intros t Ht; lia | intros s t Hs; lia] | intros t Ht; lia]. Qed.

(** The iff of [relu_absorbable_iff_width_drop] on both sides. *)
Example cancel_absorbable_width_2 : absorbable_ungated relu 1 2 2 identity cancel_A cancel_B.
Proof.
  apply (proj2 (relu_absorbable_iff_width_drop 1 2 0 1 2 cancel_A cancel_B one_mat cancel_G cancel_L
                  cancel_cls cancel_lam cancel_grouping_drop (proj1 cancel_canonical)
                  (proj2 cancel_canonical))).
  apply ridge_form_wide. lia.
Qed.

Example cancel_not_absorbable_width_1 : ~ absorbable_ungated relu 1 2 1 identity cancel_A cancel_B.
Proof.
  rewrite (relu_absorbable_iff_width_drop 1 2 0 1 1 cancel_A cancel_B one_mat cancel_G cancel_L
             cancel_cls cancel_lam cancel_grouping_drop (proj1 cancel_canonical)
             (proj2 cancel_canonical)).
  exact cancel_no_width_1.
Qed.

(** The same for GELU: [x + gelu(x) - gelu(-x) = 2x]. *)
Example cancel_grouping_drop_pm :
  grouping_drop_pm 1 2 0 1 cancel_A cancel_B one_mat cancel_G cancel_L cancel_cls cancel_lam.
Proof.
  split; [exact cancel_grouping_drop|]. intros i _ _. unfold cancel_lam, cancel_A.
  destruct (Nat.eqb i 0); [left | right]; reflexivity.
Qed.

Lemma cancel_signs : signs_distinct 1 0 one_mat.
Proof. split; [intros t Ht; lia | intros s t Hs; lia]. Qed.

Example cancel_gelu_absorbable_width_2 : absorbable_ungated gelu 1 2 2 identity cancel_A cancel_B.
Proof.
  apply
    (proj2 (pm_absorbable_iff_width_drop gelu 1 2 0 1 2 cancel_A cancel_B one_mat cancel_G cancel_L
                  cancel_cls cancel_lam gelu_odd_part gelu_zero gelu_even_part_unique
                  cancel_grouping_drop_pm cancel_signs (proj2 cancel_canonical))).
  apply ridge_form_wide. lia.
Qed.

Example cancel_gelu_not_absorbable_width_1 : ~ absorbable_ungated gelu 1 2 1 identity
    cancel_A cancel_B.
Proof.
  rewrite (pm_absorbable_iff_width_drop gelu 1 2 0 1 1 cancel_A cancel_B one_mat cancel_G cancel_L
             cancel_cls cancel_lam gelu_odd_part gelu_zero gelu_even_part_unique
             cancel_grouping_drop_pm cancel_signs (proj2 cancel_canonical)).
  exact cancel_no_width_1.
Qed.
