(** * Grouping a biased ReLU block by hyperplanes (paper.md R9, R8 with biases)

    Rows of [x + B relu(A x + c) + b0] with [(a_i, c_i) = lam_i (u_t, s_t)],
    [lam_i <> 0], share the hyperplane class [t]; since
    [relu(lam z) = |lam| relu z - [lam < 0] |lam| z], the block is the biased
    ridge form ([BiasRidgeForm.bias_ridge_form]) with kink vectors
    [G[:,t] = sum_{cls i = t} |lam_i| b_i], linear part
    [L = I - sum_{lam_i < 0} |lam_i| b_i u_{cls i}^T] and constant
    [l0 = b0 - sum_{lam_i < 0} |lam_i| b_i s_{cls i} + sum_{dropped i} b_i relu(c_i)]
    (a dropped row has [a_i = 0], a constant, or [b_i = 0]).
    The relation and this form for any activation [sigma] whose kept scales
    obey the [scale_law] ([act_bias_grouping], [act_bias_grouping_form];
    dropped rows give [b_i sigma(c_i)] in [l0]) are in [decide/GroupingSound.v],
    exported from here.
    - [bias_grouping_form]: the block equals its biased ridge form;
    - [relu_bias_grouped_sufficient] (headline): R8's width condition on the
      linear parts [(U, G, L)] implies absorbability at width [m];
    - [relu_bias_grouped_width] (headline): with canonical classes
      ([generic_bias_lines d k U s G]: [u_t <> 0], the [(u_t, s_t)] pairwise
      independent, [G[:,t] <> 0]) absorbability at width [m] forces [k <= m]. *)

From Coq Require Import Reals Lra Lia Arith.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry FiniteMaps
  Ridge ReluSubmatrix FlipSigns Biases BiasSpec AffineRidge ReluBias RidgeForm BiasRidgeForm.
From Absorb.decide Require Export GroupingSound.
Open Scope R_scope.

(** The biased analogue of [RidgeForm.grouping] (ReLU); the relation
    [act_bias_grouping] for any activation, its offset [grouping_l0] and
    [act_bias_grouping_form] are in [GroupingSound.v]. *)
Definition bias_grouping := act_bias_grouping relu.

(** ReLU of a scaled argument ([GroupingSound.relu_scale_law]). *)
Lemma relu_scale_abs lam z : lam <> 0 ->
  relu (lam * z) = Rabs lam * relu z - (if Rlt_dec lam 0 then Rabs lam * z else 0).
Proof. intros Hl. exact (relu_scale_law lam Hl z). Qed.

(** ** The block is its biased ridge form *)

Theorem bias_grouping_form : forall d n k A c B b0 U s G L l0 cls lam,
  bias_grouping d n k A c B b0 U s G L l0 cls lam ->
  same_fun d (residual d identity (ungated_bias relu d n A c B b0))
             (bias_ridge_form relu d k U s G L l0).
Proof.
  intros d n k A c B b0 U s G L l0 cls lam Hg.
  apply (act_bias_grouping_form relu d n k A c B b0 U s G L l0 cls lam Hg).
  intros i Hi Hk. exact (relu_scale_law (lam i) (proj1 (proj1 (proj1 Hg) i Hi Hk))).
Qed.

(** ** Consequences *)

Theorem relu_bias_grouped_sufficient : forall d n k m A c B b0 U s G L l0 cls lam,
  bias_grouping d n k A c B b0 U s G L l0 cls lam ->
  width_condition d k m U G L ->
  absorbable_ungated_bias relu d n m identity A c B b0.
Proof.
  intros d n k m A c B b0 U s G L l0 cls lam Hg Hw.
  destruct (bias_width_condition_sufficient relu d k m U s G L l0 relu_odd_part Hw)
    as [A' [c' [B' [b0' H]]]].
  exists A', c', B', b0'. intros x p Hp.
  rewrite (H x p Hp). symmetry.
  exact (bias_grouping_form d n k A c B b0 U s G L l0 cls lam Hg x p Hp).
Qed.

Theorem relu_bias_grouped_width : forall d n k m A c B b0 U s G L l0 cls lam,
  bias_grouping d n k A c B b0 U s G L l0 cls lam ->
  generic_bias_lines d k U s G ->
  absorbable_ungated_bias relu d n m identity A c B b0 -> (k <= m)%nat.
Proof.
  intros d n k m A c B b0 U s G L l0 cls lam Hg Hgen [A' [c' [B' [b0' H]]]].
  apply (relu_bias_form_width d k m U s G L l0 Hgen).
  exists A', c', B', b0'. intros x p Hp.
  rewrite (H x p Hp). exact (bias_grouping_form d n k A c B b0 U s G L l0 cls lam Hg x p Hp).
Qed.

(** ** Non-vacuity *)

(** [d = 1], [n = 2]: [x + relu(x + 1) + relu(2x + 2)] has one class
    (the hyperplane [x = -1], [u = 1], [s = 1], [lam = (1, 2)]) with kink
    [G = 3], [L = 1], [l0 = 0].  It is absorbable at width 2 (R8's width
    condition with [T = {0}]) but, having one class, the width bound only
    says [1 <= m]. *)
Definition bg_A : mat := fun i _ => if Nat.eq_dec i 0 then 1 else 2.
Definition bg_c : vec := fun i => if Nat.eq_dec i 0 then 1 else 2.
Definition bg_lam : nat -> R := fun i => if Nat.eq_dec i 0 then 1 else 2.

Example bias_grouping_instance :
  bias_grouping 1 2 1 bg_A bg_c (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 1)
    (fun _ _ => 3) (fun _ _ => 1) (fun _ => 0) (fun _ => 0%nat) bg_lam.
Proof.
  assert (Habs2 : Rabs 2 = 2) by (apply Rabs_right; lra).
  assert (Habs1 : Rabs 1 = 1) by (apply Rabs_right; lra).
  split; [split; [|split; [|split]] | split].
  - intros i Hi _. unfold bg_A, bg_lam.
    destruct (Nat.eq_dec i 0); (split; [lra | intros; ring]).
  - intros i _ H. lia.
  - intros p t _ Ht. assert (t = 0%nat) by lia. subst. simpl. unfold bg_lam. simpl.
    rewrite Habs1, Habs2. ring.
  - intros p q Hp Hq. assert (p = 0%nat) by lia. assert (q = 0%nat) by lia. subst.
    simpl. unfold bg_lam, identity. simpl.
    destruct (Rlt_dec 1 0); [lra|]. destruct (Rlt_dec 2 0); [lra|]. ring.
  - intros i _ _. unfold bg_c, bg_lam. destruct (Nat.eq_dec i 0); ring.
  - intros p _. unfold grouping_l0. simpl. unfold bg_lam. simpl.
    destruct (Rlt_dec 1 0); [lra|]. destruct (Rlt_dec 2 0); [lra|]. ring.
Qed.

Example relu_bias_grouped_instance :
  absorbable_ungated_bias relu 1 2 2 identity bg_A bg_c (fun _ _ => 1) (fun _ => 0).
Proof.
  apply (relu_bias_grouped_sufficient 1 2 1 2 _ _ _ _ _ _ _ _ _ _ _ bias_grouping_instance).
  exists (fun _ => true), (fun _ => false), 0%nat, (fun _ _ => 1), (fun _ _ => 0), (fun _ _ => 0).
  split; [intros; reflexivity|]. split; [simpl; lia|].
  intros i j _ _. unfold masked_outer, low_rank. simpl. ring.
Qed.
