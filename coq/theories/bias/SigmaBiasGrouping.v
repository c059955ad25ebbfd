(** * Groupings of biased blocks for ReLU and the GELU family, with a zero-kink tail

    [ReluBiasGrouping.bias_grouping] ties a biased ReLU block
    [x + B relu(A x + c) + b0] to its biased ridge form; its offset [l0]
    reads [relu (c_i)] for dropped rows.  Here the same relation is written
    for any activation ([sigma_bias_grouping]: the offset reads
    [sigma (c_i)], so for GELU a constant row [a_i = 0] contributes the
    symbolic constant [b_i gelu(c_i)], never evaluated), with classes
    [k .. K-1] of zero kink ([sigma_bias_grouping_drop], the flat classes of
    R8: their rows stay in [L] and [l0]).
    - [sigma_bias_grouping_relu]: for ReLU it is [bias_grouping];
    - [sigma_bias_grouping_form]: a grouping whose kept scales obey the scale
      law [sigma(lam z) = |lam| sigma z - [lam < 0] |lam| z] (ReLU: any
      [lam <> 0]; the GELU family: [lam = +-1], [odd_part_scale_law_pm]) makes the
      block its biased ridge form; [pm_bias_grouping_form] for the
      +- grouping [pm_bias_grouping];
    - [sigma_bias_grouping_drop_form]: with a zero-kink tail, the ridge form
      of the first [k] classes;
    - [relu_bias_grouping_drop_iff] (headline), [pm_bias_grouping_drop_iff]
      (headline): with canonical first [k] classes, absorbable at width [m]
      iff R8's width condition [width_condition d k m U G L];
    - [relu_bias_grouping_drop_sufficient], [pm_bias_grouping_drop_sufficient]:
      the width condition suffices without canonicity.
    [GroupingSound.grouping_l0] is the offset the relation asks for; certificates
    ([certify/BiasGroupingCheck.v]) pass it as this term, so no value of
    [sigma] is ever computed.  Non-vacuity: at the end, and the concrete
    certificates of [certify/CertifyBiasWidth.v]. *)

From Coq Require Import Reals Lra Lia Arith.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry FiniteMaps
  Ridge ReluSubmatrix FlipSigns Biases BiasSpec AffineRidge ReluBias RidgeForm BiasRidgeForm
  ReluBiasGrouping ReluBiasNecessity BiasCanonical GeluAffineRidge GeluBias PmBiasCanonical
  PmBiasNecessity.
From Absorb.decide Require Import WidthCore.
Open Scope R_scope.

(** [GroupingSound.act_bias_grouping]; its last clause reads [l0 = grouping_l0 ...]. *)
Definition sigma_bias_grouping (sigma : R -> R) := act_bias_grouping sigma.

Lemma sigma_bias_grouping_relu d n k A c B b0 U s G L l0 cls lam :
  sigma_bias_grouping relu d n k A c B b0 U s G L l0 cls lam ->
  bias_grouping d n k A c B b0 U s G L l0 cls lam.
Proof. intros H. exact H. Qed.

(** The +- grouping of the GELU family. *)
Definition pm_bias_grouping (sigma : R -> R) (d n k : nat) (A : mat) (c : vec) (B : mat)
    (b0 : vec) (U : mat) (s : vec) (G L : mat) (l0 : vec) (cls : nat -> nat)
      (lam : nat -> R) : Prop :=
  sigma_bias_grouping sigma d n k A c B b0 U s G L l0 cls lam /\
  (forall i, (i < n)%nat -> (cls i < k)%nat -> lam i = 1 \/ lam i = -1).

(** ** The block is its biased ridge form *)

Theorem sigma_bias_grouping_form : forall sigma d n k A c B b0 U s G L l0 cls lam,
  sigma_bias_grouping sigma d n k A c B b0 U s G L l0 cls lam ->
  (forall i, (i < n)%nat -> (cls i < k)%nat -> scale_law sigma (lam i)) ->
  same_fun d (residual d identity (ungated_bias sigma d n A c B b0))
             (bias_ridge_form sigma d k U s G L l0).
Proof. exact act_bias_grouping_form. Qed.

Corollary pm_bias_grouping_form : forall sigma, odd_part_identity sigma ->
  forall d n k A c B b0 U s G L l0 cls lam,
  pm_bias_grouping sigma d n k A c B b0 U s G L l0 cls lam ->
  same_fun d (residual d identity (ungated_bias sigma d n A c B b0))
             (bias_ridge_form sigma d k U s G L l0).
Proof.
  intros sigma Hodd d n k A c B b0 U s G L l0 cls lam [Hg Hpm].
  apply (sigma_bias_grouping_form sigma d n k A c B b0 U s G L l0 cls lam Hg).
  intros i Hi Hk. exact (odd_part_scale_law_pm sigma (lam i) Hodd (Hpm i Hi Hk)).
Qed.

(** ** A zero-kink tail *)

Lemma bias_ridge_form_drop_zero sigma d k K U s (G L : mat) l0 : (k <= K)%nat ->
  (forall p t, (p < d)%nat -> (k <= t)%nat -> (t < K)%nat -> G p t = 0) ->
  same_fun d (bias_ridge_form sigma d K U s G L l0) (bias_ridge_form sigma d k U s G L l0).
Proof.
  intros Hk HZ x p Hp. unfold bias_ridge_form. rewrite (sumn_split_at k K _ Hk).
  rewrite (sumn_zero (K - k)); [ring|]. intros i Hi.
  rewrite (HZ p (k + i)%nat Hp ltac:(lia) ltac:(lia)). ring.
Qed.

Definition sigma_bias_grouping_drop (sigma : R -> R) (d n k K : nat) (A : mat) (c : vec) (B : mat)
    (b0 : vec) (U : mat) (s : vec) (G L : mat) (l0 : vec) (cls : nat -> nat)
      (lam : nat -> R) : Prop :=
  (k <= K)%nat /\ sigma_bias_grouping sigma d n K A c B b0 U s G L l0 cls lam /\
  (forall p t, (p < d)%nat -> (k <= t)%nat -> (t < K)%nat -> G p t = 0).

Definition pm_bias_grouping_drop (sigma : R -> R) (d n k K : nat) (A : mat) (c : vec) (B : mat)
    (b0 : vec) (U : mat) (s : vec) (G L : mat) (l0 : vec) (cls : nat -> nat)
      (lam : nat -> R) : Prop :=
  sigma_bias_grouping_drop sigma d n k K A c B b0 U s G L l0 cls lam /\
  (forall i, (i < n)%nat -> (cls i < K)%nat -> lam i = 1 \/ lam i = -1).

Theorem sigma_bias_grouping_drop_form : forall sigma d n k K A c B b0 U s G L l0 cls lam,
  sigma_bias_grouping_drop sigma d n k K A c B b0 U s G L l0 cls lam ->
  (forall i, (i < n)%nat -> (cls i < K)%nat -> scale_law sigma (lam i)) ->
  same_fun d (residual d identity (ungated_bias sigma d n A c B b0))
             (bias_ridge_form sigma d k U s G L l0).
Proof.
  intros sigma d n k K A c B b0 U s G L l0 cls lam [Hk [Hg HZ]] Hsc.
  exact
    (same_fun_trans_b d _ _ _
      (sigma_bias_grouping_form sigma d n K A c B b0 U s G L l0 cls lam Hg Hsc)
           (bias_ridge_form_drop_zero sigma d k K U s G L l0 Hk HZ)).
Qed.

Lemma relu_grouping_drop_form d n k K A c B b0 U s G L l0 cls lam :
  sigma_bias_grouping_drop relu d n k K A c B b0 U s G L l0 cls lam ->
  same_fun d (residual d identity (ungated_bias relu d n A c B b0))
             (bias_ridge_form relu d k U s G L l0).
Proof.
  intros H. apply (sigma_bias_grouping_drop_form relu d n k K A c B b0 U s G L l0 cls lam H).
  destruct H as [_ [[[Hkeep _] _] _]]. intros i Hi Hk.
  exact (relu_scale_law (lam i) (proj1 (Hkeep i Hi Hk))).
Qed.

Lemma pm_grouping_drop_form sigma d n k K A c B b0 U s G L l0 cls lam : odd_part_identity sigma ->
  pm_bias_grouping_drop sigma d n k K A c B b0 U s G L l0 cls lam ->
  same_fun d (residual d identity (ungated_bias sigma d n A c B b0))
             (bias_ridge_form sigma d k U s G L l0).
Proof.
  intros Hodd [H Hpm].
  apply (sigma_bias_grouping_drop_form sigma d n k K A c B b0 U s G L l0 cls lam H).
  intros i Hi Hk. exact (odd_part_scale_law_pm sigma (lam i) Hodd (Hpm i Hi Hk)).
Qed.

(** ** Absorbability through the form *)

Lemma residual_form_iff sigma d n m A c B b0 k U s G L l0 (W : Prop) :
  same_fun d (residual d identity (ungated_bias sigma d n A c B b0))
             (bias_ridge_form sigma d k U s G L l0) ->
  ((exists A' c' B' b0',
      same_fun d (ungated_bias sigma d m A' c' B' b0')
        (bias_ridge_form sigma d k U s G L l0)) <-> W) ->
  (absorbable_ungated_bias sigma d n m identity A c B b0 <-> W).
Proof.
  intros Hres Hiff. rewrite <- Hiff. split.
  - intros [A' [c' [B' [b0' H]]]]. exists A', c', B', b0'. exact (same_fun_trans_b d _ _ _ H Hres).
  - intros [A' [c' [B' [b0' H]]]]. exists A', c', B', b0'. intros x p Hp.
    rewrite (H x p Hp). symmetry. exact (Hres x p Hp).
Qed.

Lemma form_sufficient sigma d n m A c B b0 k U s G L l0 : odd_part_identity sigma ->
  same_fun d (residual d identity (ungated_bias sigma d n A c B b0))
             (bias_ridge_form sigma d k U s G L l0) ->
  width_condition d k m U G L -> absorbable_ungated_bias sigma d n m identity A c B b0.
Proof.
  intros Hodd Hres Hw.
  destruct (bias_width_condition_sufficient sigma d k m U s G L l0 Hodd Hw)
    as [A' [c' [B' [b0' H]]]].
  exists A', c', B', b0'. intros x p Hp. rewrite (H x p Hp). symmetry. exact (Hres x p Hp).
Qed.

Theorem relu_bias_grouping_drop_sufficient : forall d n k K m A c B b0 U s G L l0 cls lam,
  sigma_bias_grouping_drop relu d n k K A c B b0 U s G L l0 cls lam ->
  width_condition d k m U G L -> absorbable_ungated_bias relu d n m identity A c B b0.
Proof.
  intros d n k K m A c B b0 U s G L l0 cls lam Hg.
  exact (form_sufficient relu d n m A c B b0 k U s G L l0 relu_odd_part
           (relu_grouping_drop_form d n k K A c B b0 U s G L l0 cls lam Hg)).
Qed.

Theorem pm_bias_grouping_drop_sufficient : forall sigma, odd_part_identity sigma ->
  forall d n k K m A c B b0 U s G L l0 cls lam,
  pm_bias_grouping_drop sigma d n k K A c B b0 U s G L l0 cls lam ->
  width_condition d k m U G L -> absorbable_ungated_bias sigma d n m identity A c B b0.
Proof.
  intros sigma Hodd d n k K m A c B b0 U s G L l0 cls lam Hg.
  exact (form_sufficient sigma d n m A c B b0 k U s G L l0 Hodd
           (pm_grouping_drop_form sigma d n k K A c B b0 U s G L l0 cls lam Hodd Hg)).
Qed.

Theorem relu_bias_grouping_drop_iff : forall d n k K m A c B b0 U s G L l0 cls lam,
  sigma_bias_grouping_drop relu d n k K A c B b0 U s G L l0 cls lam ->
  generic_bias_lines d k U s G ->
  (absorbable_ungated_bias relu d n m identity A c B b0 <-> width_condition d k m U G L).
Proof.
  intros d n k K m A c B b0 U s G L l0 cls lam Hg Hgen.
  apply (residual_form_iff relu d n m A c B b0 k U s G L l0 _
           (relu_grouping_drop_form d n k K A c B b0 U s G L l0 cls lam Hg)).
  exact (relu_bias_form_iff d k m U s G L l0 Hgen).
Qed.

Theorem pm_bias_grouping_drop_iff : forall sigma, odd_part_identity sigma ->
  affine_ridge_unique_even (even_part sigma) ->
  forall d n k K m A c B b0 U s G L l0 cls lam,
  pm_bias_grouping_drop sigma d n k K A c B b0 U s G L l0 cls lam ->
  generic_bias_signs d k U s G ->
  (absorbable_ungated_bias sigma d n m identity A c B b0 <-> width_condition d k m U G L).
Proof.
  intros sigma Hodd Hu d n k K m A c B b0 U s G L l0 cls lam Hg Hgen.
  apply (residual_form_iff sigma d n m A c B b0 k U s G L l0 _
           (pm_grouping_drop_form sigma d n k K A c B b0 U s G L l0 cls lam Hodd Hg)).
  exact (pm_bias_form_iff sigma Hodd Hu d k m U s G L l0 Hgen).
Qed.

(** ** Non-vacuity *)

(** [d = 1], [n = 3]: [x + sigma(x + 1) + sigma(-x - 1) + sigma(0 x + 2)] with one
    class [(u, s) = (1, 1)] (scales [1, -1]), kink [G = 2], linear part [L = 0],
    and a constant row [sigma(2)] that goes into the offset. *)
Definition sg_A : mat := fun i _ => if Nat.eq_dec i 0 then 1 else if Nat.eq_dec i 1 then -1 else 0.
Definition sg_c : vec := fun i => if Nat.eq_dec i 0 then 1 else if Nat.eq_dec i 1 then -1 else 2.
Definition sg_cls : nat -> nat := fun i => if Nat.eq_dec i 2 then 1%nat else 0%nat.
Definition sg_lam : nat -> R := fun i => if Nat.eq_dec i 0 then 1 else -1.

Definition sg_l0 (sigma : R -> R) : vec :=
  grouping_l0 sigma 1 3 1 sg_c (fun _ _ => 1) (fun _ => 0) (fun _ => 1) sg_cls sg_lam.

Example pm_bias_grouping_instance sigma :
  pm_bias_grouping sigma 1 3 1 sg_A sg_c (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 1)
    (fun _ _ => 2) (fun _ _ => 0) (sg_l0 sigma) sg_cls sg_lam.
Proof.
  assert (H1 : Rabs (-1) = 1) by (rewrite Rabs_left; lra).
  split; [split; [split; [|split; [|split]] | split] |].
  - intros i Hi Hk. unfold sg_cls in Hk. destruct (Nat.eq_dec i 2); [lia|].
    unfold sg_A, sg_lam. destruct (Nat.eq_dec i 0); [|destruct (Nat.eq_dec i 1); [|lia]];
      (split; [lra | intros; ring]).
  - intros i Hi Hk. left. intros j _. unfold sg_cls in Hk. unfold sg_A.
    destruct (Nat.eq_dec i 2) as [->|]; [reflexivity | lia].
  - intros p t _ Ht. assert (t = 0%nat) by lia. subst. simpl. unfold sg_cls, sg_lam. simpl.
    rewrite Rabs_R1, H1. ring.
  - intros p q Hp Hq. assert (p = 0%nat) by lia. assert (q = 0%nat) by lia. subst.
    simpl. unfold sg_cls, sg_lam, identity. simpl. rewrite H1.
    destruct (Rlt_dec 1 0); [lra|]. destruct (Rlt_dec (-1) 0); [|lra]. ring.
  - intros i Hi Hk. unfold sg_cls in Hk. destruct (Nat.eq_dec i 2); [lia|].
    unfold sg_c, sg_lam. destruct (Nat.eq_dec i 0); [|destruct (Nat.eq_dec i 1); [|lia]]; ring.
  - intros p _. reflexivity.
  - intros i Hi Hk. unfold sg_lam. destruct (Nat.eq_dec i 0); [left | right]; reflexivity.
Qed.

(** Its form is [2 sigma(x + 1) + l0] with [L = 0]: absorbable at width [1]
    ([T = S = {}], [r = 0]); for GELU the offset holds the symbolic [gelu 2]. *)
Example pm_bias_grouping_absorbable_1 :
  absorbable_ungated_bias gelu 1 3 1 identity sg_A sg_c (fun _ _ => 1) (fun _ => 0).
Proof.
  apply
    (pm_bias_grouping_drop_sufficient gelu gelu_odd_part 1 3 1 1 1 sg_A sg_c (fun _ _ => 1)
      (fun _ => 0)
           (fun _ _ => 1) (fun _ => 1) (fun _ _ => 2) (fun _ _ => 0) (sg_l0 gelu) sg_cls sg_lam).
  - split; [split; [lia | split; [exact (proj1 (pm_bias_grouping_instance gelu)) |]] |].
    + intros p t _ H1 H2. lia.
    + exact (proj2 (pm_bias_grouping_instance gelu)).
  - exists (fun _ => false), (fun _ => false), 0%nat, (fun _ _ => 0), (fun _ _ => 0),
      (fun _ _ => 0).
    split; [intros; discriminate|]. split; [simpl; lia|].
    intros i j _ _. unfold masked_outer, low_rank. simpl. ring.
Qed.

(** And not at width [0] ([relu]'s and [gelu]'s iff, one canonical class). *)
Example pm_bias_grouping_not_absorbable_0 :
  ~ absorbable_ungated_bias gelu 1 3 0 identity sg_A sg_c (fun _ _ => 1) (fun _ => 0).
Proof.
  rewrite (pm_bias_grouping_drop_iff gelu gelu_odd_part gelu_even_part_affine_unique 1 3 1 1 0
             sg_A sg_c (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 1) (fun _ _ => 2)
             (fun _ _ => 0)
             (sg_l0 gelu) sg_cls sg_lam).
  - intros [T [S [r [E [P [Q [_ [Hw _]]]]]]]]. simpl in Hw. lia.
  - split; [split; [lia | split; [exact (proj1 (pm_bias_grouping_instance gelu)) |]] |].
    + intros p t _ H1 H2. lia.
    + exact (proj2 (pm_bias_grouping_instance gelu)).
  - split; [|split].
    + intros i _. exists 0%nat. split; [lia | unfold row; lra].
    + intros i j Hi Hj Hne. lia.
    + intros i _. exists 0%nat. split; [lia | unfold col; lra].
Qed.
