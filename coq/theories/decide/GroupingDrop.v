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
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix.
From Absorb.decide Require Import RidgeForm GroupingSound WidthNecessary Canonicalize R8.
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
    destruct (Hkeep 0%nat ltac:(lia) H0) as [_ A0e]. destruct (Hkeep 1%nat ltac:(lia) H1) as [_ A1e].
    specialize (A0e 0%nat ltac:(lia)). specialize (A1e 0%nat ltac:(lia)).
    unfold cancel_A in *. simpl in *.
    destruct (Hpm 0%nat ltac:(lia) H0) as [L0|L0], (Hpm 1%nat ltac:(lia) H1) as [L1|L1];
      rewrite L0 in A0e; rewrite L1 in A1e; [right | left | left | right];
      intros q Hq; replace q with 0%nat by lia; unfold row; lra.
Qed.
