(** * R8 and R8': absorbability of any bias-free residual block is the width condition

    paper.md's "deciding every block".  Combining the (=>) direction
    ([WidthNecessary.v]) with the (<=) direction ([WidthSufficient.v]) and
    the soundness of groupings ([GroupingSound.v]):
    - [relu_absorbable_iff_form], [pm_absorbable_iff_form]: if
      [x + B sigma(A x)] equals a canonical ridge form [(U, G, L)] (directions
      on distinct lines / distinct up to sign, nonzero kinks), it is
      absorbable at width [m] iff [width_condition d k m U G L]; the
      [_any_skip] forms, of which these are the instance [P = I], do the same
      for [P x + B sigma(A x)] with any linear part [P] (singular allowed);
    - [relu_absorbable_iff_width], [pm_absorbable_iff_width] (and the GELU,
      GELU_tanh, SiLU instances): the same with the ridge form given by a
      grouping of [(A, B)];
    - [relu_not_absorbable_below_classes], [pm_not_absorbable_below_classes]:
      never at a width [m < k];
    - [ridge_form_canonical_relu], [ridge_form_canonical_pm]: every ridge
      form is equal to a canonical one with at most as many classes (delete
      zero directions and zero kinks, merge classes), hence
      [relu_block_canonical], [pm_block_canonical]: every residual block has
      a canonical ridge form, and [relu_every_block_decided],
      [pm_every_block_decided]: for every block and width there is a
      canonical form whose width condition decides absorbability.
    A [grouping] (RidgeForm.v) cannot drop a class of nonzero rows whose
    kinks add up to [0] (its rows have [a_i <> 0], [b_i <> 0]), so the
    canonical objects here are ridge forms; [GroupingDrop.v] adds groupings
    with a zero-kink tail, which exist canonically for every block. *)

From Coq Require Import Reals Lra Lia Classical.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix
  Counterexamples GeluRidge GeluTanhRidge SiluRidge SubmatrixIff.
From Absorb Require Import Geometry FiniteMaps Calculus.
From Absorb.decide Require Import RidgeForm GroupingSound WidthSufficient R8Absorbable
  WidthCore WidthNecessary Canonicalize R8Examples.
Open Scope R_scope.

Lemma same_fun_sym d (f g : vec -> vec) : same_fun d f g -> same_fun d g f.
Proof. intros H x p Hp. symmetry. exact (H x p Hp). Qed.

(** ** Blocks with a canonical ridge form *)

(** Any linear part [P] of the residual block (singular allowed: no R1
    reduction needed); the identity skip is the instance [P = I]. *)
Theorem relu_absorbable_iff_form_any_skip d n k m (P A B U G L : mat) :
  lines_distinct d k U -> nonzero_cols d k G ->
  same_fun d (residual d P (ungated relu d n A B)) (ridge_form relu d k U G L) ->
  (absorbable_ungated relu d n m P A B <-> width_condition d k m U G L).
Proof.
  intros Hl HG Hres. split.
  - intros [A' [B' Habs]]. apply (width_condition_necessary_relu d k m U G L A' B' Hl HG).
    exact (same_fun_trans d _ _ _ Habs Hres).
  - intros Hw.
    destruct (width_condition_sufficient relu d k m U G L relu_odd_part Hw) as [A' [B' Hw']].
    exists A', B'. intros x p Hp. rewrite (Hw' x p Hp), (Hres x p Hp). reflexivity.
Qed.

Theorem pm_absorbable_iff_form_any_skip sigma d n k m (P A B U G L : mat) :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  signs_distinct d k U -> nonzero_cols d k G ->
  same_fun d (residual d P (ungated sigma d n A B)) (ridge_form sigma d k U G L) ->
  (absorbable_ungated sigma d n m P A B <-> width_condition d k m U G L).
Proof.
  intros Hodd H0 Hun Hs HG Hres. split.
  - intros [A' [B' Habs]].
    apply (width_condition_necessary_pm sigma d k m U G L A' B' Hodd H0 Hun Hs HG).
    exact (same_fun_trans d _ _ _ Habs Hres).
  - intros Hw.
    destruct (width_condition_sufficient sigma d k m U G L Hodd Hw) as [A' [B' Hw']].
    exists A', B'. intros x p Hp. rewrite (Hw' x p Hp), (Hres x p Hp). reflexivity.
Qed.

Theorem relu_absorbable_iff_form d n k m (A B U G L : mat) :
  lines_distinct d k U -> nonzero_cols d k G ->
  same_fun d (residual d identity (ungated relu d n A B)) (ridge_form relu d k U G L) ->
  (absorbable_ungated relu d n m identity A B <-> width_condition d k m U G L).
Proof. exact (relu_absorbable_iff_form_any_skip d n k m identity A B U G L). Qed.

Theorem pm_absorbable_iff_form sigma d n k m (A B U G L : mat) :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  signs_distinct d k U -> nonzero_cols d k G ->
  same_fun d (residual d identity (ungated sigma d n A B)) (ridge_form sigma d k U G L) ->
  (absorbable_ungated sigma d n m identity A B <-> width_condition d k m U G L).
Proof. exact (pm_absorbable_iff_form_any_skip sigma d n k m identity A B U G L). Qed.

(** ** Blocks with a grouping *)

(** R8, ReLU: the headline iff for residual blocks. *)
Theorem relu_absorbable_iff_width d n k m (A B U G L : mat) cls lam :
  grouping d n k A B U G L cls lam -> lines_distinct d k U -> nonzero_cols d k G ->
  (absorbable_ungated relu d n m identity A B <-> width_condition d k m U G L).
Proof.
  intros Hg Hl HG. apply (relu_absorbable_iff_form d n k m A B U G L Hl HG).
  exact (grouping_sound_relu d n k A B U G L cls lam Hg).
Qed.

(** R8', any [sigma] with the odd-part identity, [sigma 0 = 0] and ridge
    uniqueness of its even part. *)
Theorem pm_absorbable_iff_width sigma d n k m (A B U G L : mat) cls lam :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  grouping_pm d n k A B U G L cls lam -> signs_distinct d k U -> nonzero_cols d k G ->
  (absorbable_ungated sigma d n m identity A B <-> width_condition d k m U G L).
Proof.
  intros Hodd H0 Hun Hg Hs HG.
  apply (pm_absorbable_iff_form sigma d n k m A B U G L Hodd H0 Hun Hs HG).
  exact (grouping_sound_pm sigma d n k A B U G L cls lam Hodd H0 Hg).
Qed.

Lemma gelu_even_part_unique : ridge_unique_even (even_part gelu).
Proof. exact (ridge_unique_even_ext _ _ even_part_gelu gelu_ridge_unique). Qed.

Corollary gelu_absorbable_iff_width d n k m (A B U G L : mat) cls lam :
  grouping_pm d n k A B U G L cls lam -> signs_distinct d k U -> nonzero_cols d k G ->
  (absorbable_ungated gelu d n m identity A B <-> width_condition d k m U G L).
Proof.
  apply pm_absorbable_iff_width;
    [exact gelu_odd_part | exact gelu_zero | exact gelu_even_part_unique].
Qed.

Corollary gelu_tanh_absorbable_iff_width d n k m (A B U G L : mat) cls lam :
  grouping_pm d n k A B U G L cls lam -> signs_distinct d k U -> nonzero_cols d k G ->
  (absorbable_ungated gelu_tanh d n m identity A B <-> width_condition d k m U G L).
Proof.
  apply pm_absorbable_iff_width;
    [exact gelu_tanh_odd_part | exact gelu_tanh_zero | exact gelu_tanh_ridge_unique].
Qed.

Corollary silu_absorbable_iff_width d n k m (A B U G L : mat) cls lam :
  grouping_pm d n k A B U G L cls lam -> signs_distinct d k U -> nonzero_cols d k G ->
  (absorbable_ungated silu d n m identity A B <-> width_condition d k m U G L).
Proof.
  apply pm_absorbable_iff_width;
    [exact silu_odd_part | exact (proj2 silu_vanishing) | exact silu_ridge_unique].
Qed.

(** ** Below the number of classes: never *)

Lemma width_condition_classes d k m (U G L : mat) : width_condition d k m U G L -> (k <= m)%nat.
Proof. intros (T & S & r & E & P & Q & _ & Hm & _). lia. Qed.

Theorem relu_not_absorbable_below_classes d n k m (A B U G L : mat) :
  lines_distinct d k U -> nonzero_cols d k G ->
  same_fun d (residual d identity (ungated relu d n A B)) (ridge_form relu d k U G L) ->
  (m < k)%nat -> ~ absorbable_ungated relu d n m identity A B.
Proof.
  intros Hl HG Hres Hm Habs.
  pose proof (width_condition_classes d k m U G L
                (proj1 (relu_absorbable_iff_form d n k m A B U G L Hl HG Hres) Habs)). lia.
Qed.

Theorem pm_not_absorbable_below_classes sigma d n k m (A B U G L : mat) :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  signs_distinct d k U -> nonzero_cols d k G ->
  same_fun d (residual d identity (ungated sigma d n A B)) (ridge_form sigma d k U G L) ->
  (m < k)%nat -> ~ absorbable_ungated sigma d n m identity A B.
Proof.
  intros Hodd H0 Hun Hs HG Hres Hm Habs.
  pose proof (width_condition_classes d k m U G L
                (proj1
                  (pm_absorbable_iff_form sigma d n k m A B U G L Hodd H0 Hun Hs HG Hres) Habs)).
  lia.
Qed.

(** ** Every block has a canonical ridge form, so every block is decided *)

Theorem relu_block_canonical d n (A B : mat) : exists k (U G L : mat),
  (k <= n)%nat /\ lines_distinct d k U /\ nonzero_cols d k G /\
  same_fun d (residual d identity (ungated relu d n A B)) (ridge_form relu d k U G L).
Proof.
  destruct (ridge_form_canonical_relu d n A B identity) as (k & U & G & L & Hk & Hl & HG & Hs).
  exists k, U, G, L. split; [exact Hk|]. split; [exact Hl|]. split; [exact HG|].
  exact (same_fun_trans d _ _ _
           (grouping_sound_relu d n n A B A B identity (fun i => i) (fun _ => 1)
              (trivial_grouping d n A B)) Hs).
Qed.

Theorem pm_block_canonical sigma d n (A B : mat) :
  odd_part_identity sigma -> sigma 0 = 0 -> exists k (U G L : mat),
  (k <= n)%nat /\ signs_distinct d k U /\ nonzero_cols d k G /\
  same_fun d (residual d identity (ungated sigma d n A B)) (ridge_form sigma d k U G L).
Proof.
  intros Hodd H0.
  destruct (ridge_form_canonical_pm sigma d n A B identity Hodd H0)
    as (k & U & G & L & Hk & Hl & HG & Hs).
  exists k, U, G, L. split; [exact Hk|]. split; [exact Hl|]. split; [exact HG|].
  exact (same_fun_trans d _ _ _
           (grouping_sound_pm sigma d n n A B A B identity (fun i => i) (fun _ => 1) Hodd H0
              (trivial_grouping_pm d n A B)) Hs).
Qed.

(** R8 for every bias-free ReLU block and every width. *)
Theorem relu_every_block_decided d n m (A B : mat) : exists k (U G L : mat),
  (k <= n)%nat /\ lines_distinct d k U /\ nonzero_cols d k G /\
  (absorbable_ungated relu d n m identity A B <-> width_condition d k m U G L).
Proof.
  destruct (relu_block_canonical d n A B) as (k & U & G & L & Hk & Hl & HG & Hs).
  exists k, U, G, L. split; [exact Hk|]. split; [exact Hl|]. split; [exact HG|].
  exact (relu_absorbable_iff_form d n k m A B U G L Hl HG Hs).
Qed.

(** R8' for every bias-free block of the GELU family and every width. *)
Theorem pm_every_block_decided sigma d n m (A B : mat) :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  exists k (U G L : mat),
  (k <= n)%nat /\ signs_distinct d k U /\ nonzero_cols d k G /\
  (absorbable_ungated sigma d n m identity A B <-> width_condition d k m U G L).
Proof.
  intros Hodd H0 Hun.
  destruct (pm_block_canonical sigma d n A B Hodd H0) as (k & U & G & L & Hk & Hl & HG & Hs).
  exists k, U, G, L. split; [exact Hk|]. split; [exact Hl|]. split; [exact HG|].
  exact (pm_absorbable_iff_form sigma d n k m A B U G L Hodd H0 Hun Hl HG Hs).
Qed.

Corollary gelu_every_block_decided d n m (A B : mat) : exists k (U G L : mat),
  (k <= n)%nat /\ signs_distinct d k U /\ nonzero_cols d k G /\
  (absorbable_ungated gelu d n m identity A B <-> width_condition d k m U G L).
Proof.
  apply pm_every_block_decided;
    [exact gelu_odd_part | exact gelu_zero | exact gelu_even_part_unique].
Qed.

Corollary gelu_tanh_every_block_decided d n m (A B : mat) : exists k (U G L : mat),
  (k <= n)%nat /\ signs_distinct d k U /\ nonzero_cols d k G /\
  (absorbable_ungated gelu_tanh d n m identity A B <-> width_condition d k m U G L).
Proof.
  apply pm_every_block_decided;
    [exact gelu_tanh_odd_part | exact gelu_tanh_zero | exact gelu_tanh_ridge_unique].
Qed.

Corollary silu_every_block_decided d n m (A B : mat) : exists k (U G L : mat),
  (k <= n)%nat /\ signs_distinct d k U /\ nonzero_cols d k G /\
  (absorbable_ungated silu d n m identity A B <-> width_condition d k m U G L).
Proof.
  apply pm_every_block_decided;
    [exact silu_odd_part | exact (proj2 silu_vanishing) | exact silu_ridge_unique].
Qed.

(** ** Non-vacuity *)

Definition one_mat : mat := fun _ _ => 1.

Lemma dim1_U_lines : lines_distinct 1 1 dim1_U.
Proof.
  split; [intros t _; exists 0%nat; split; [lia | unfold row, dim1_U; lra]|].
  intros s t Hs Ht Hst. lia.
Qed.

Lemma dim1_U_signs : signs_distinct 1 1 dim1_U.
Proof.
  split; [intros t _; exists 0%nat; split; [lia | unfold row, dim1_U; lra]|].
  intros s t Hs Ht Hst. lia.
Qed.

Lemma const_nonzero_cols (c : R) : c <> 0 -> nonzero_cols 1 1 (fun _ _ => c).
Proof. intros Hc t _. exists 0%nat. split; [lia | exact Hc]. Qed.

(** The (=>) theorems apply: the paper's counterexample [x + relu(x) + relu(2x)]
    ([gamma = 3], [L = I]) is computed at width 2; and for GELU,
    [x + gelu(x) + 3 gelu(-x)] ([gamma = 4], [L = -2]). *)
Example width_necessary_relu_instance :
  lines_distinct 1 1 dim1_U /\ nonzero_cols 1 1 ex_G3 /\
  exists A' B' : mat,
    same_fun 1 (ungated relu 1 2 A' B') (ridge_form relu 1 1 dim1_U ex_G3 identity).
Proof.
  split; [exact dim1_U_lines|].
  split; [intros t _; exists 0%nat; split; [lia | cbv [col ex_G3 g_G one_mat]; lra]|].
  destruct A0_B0_absorbable_via_width as [A' [B' H]]. exists A', B'.
  exact (same_fun_trans 1 _ _ _ H A0_B0_ridge_form).
Qed.

Example width_necessary_gelu_instance :
  signs_distinct 1 1 dim1_U /\ nonzero_cols 1 1 g_G /\
  exists A' B' : mat, same_fun 1 (ungated gelu 1 2 A' B') (ridge_form gelu 1 1 dim1_U g_G g_L).
Proof.
  split; [exact dim1_U_signs|].
  split; [intros t _; exists 0%nat; split; [lia | cbv [col ex_G3 g_G one_mat]; lra]|].
  destruct gA_gB_absorbable as [A' [B' H]]. exists A', B'.
  exact (same_fun_trans 1 _ _ _ H gA_gB_ridge_form).
Qed.

(** The iff, absorbable side: hypotheses and both sides hold. *)
Example relu_iff_width_absorbable_side :
  grouping 1 2 1 A0 B0 dim1_U ex_G3 identity ex_cls ex_lam /\ lines_distinct 1 1 dim1_U /\
  nonzero_cols 1 1 ex_G3 /\ absorbable_ungated relu 1 2 2 identity A0 B0 /\
  width_condition 1 1 2 dim1_U ex_G3 identity.
Proof.
  split; [exact A0_B0_grouping|]. split; [exact dim1_U_lines|].
  split; [intros t _; exists 0%nat; split; [lia | cbv [col ex_G3 g_G one_mat]; lra]|].
  split; [exact A0_B0_absorbable_via_width | exact A0_B0_width_condition].
Qed.

Example gelu_iff_width_absorbable_side :
  grouping_pm 1 2 1 gA gB dim1_U g_G g_L ex_cls g_lam /\ signs_distinct 1 1 dim1_U /\
  nonzero_cols 1 1 g_G /\ absorbable_ungated gelu 1 2 2 identity gA gB /\
  width_condition 1 1 2 dim1_U g_G g_L.
Proof.
  split; [exact gA_gB_grouping_pm|]. split; [exact dim1_U_signs|].
  split; [intros t _; exists 0%nat; split; [lia | cbv [col ex_G3 g_G one_mat]; lra]|].
  split; [exact gA_gB_absorbable | apply dim1_width_condition; [reflexivity | lia]].
Qed.

(** The iff, non-absorbable side: [x + sigma(x)] on [R^1] at width 1.  The
    width condition at [m = 1] would need [T = {}], [r = 0] and
    [1 + [0 in S] = 0]. *)

Lemma x_plus_sigma_no_width_1 : ~ width_condition 1 1 1 one_mat one_mat identity.
Proof.
  intros (T & S & r & E & P & Q & _ & Hm & HL). simpl in Hm.
  destruct (T 0%nat) eqn:HT; [lia|]. assert (r = 0%nat) by lia. subst r.
  specialize (HL 0%nat 0%nat ltac:(lia) ltac:(lia)).
  unfold masked_outer, low_rank, identity, one_mat in HL. simpl in HL. rewrite HT in HL.
  destruct (S 0%nat); lra.
Qed.

Example relu_iff_width_not_absorbable_side :
  grouping 1 1 1 one_mat one_mat one_mat one_mat identity (fun i => i) (fun _ => 1) /\
  lines_distinct 1 1 one_mat /\ nonzero_cols 1 1 one_mat /\
  ~ absorbable_ungated relu 1 1 1 identity one_mat one_mat /\
  ~ width_condition 1 1 1 one_mat one_mat identity.
Proof.
  assert (Hg := trivial_grouping 1 1 one_mat one_mat).
  assert (Hl : lines_distinct 1 1 one_mat) by exact dim1_U_lines.
  assert (HG : nonzero_cols 1 1 one_mat)
    by (intros t _; exists 0%nat; split; [lia | cbv [col ex_G3 g_G one_mat]; lra]).
  split; [exact Hg|]. split; [exact Hl|]. split; [exact HG|].
  split; [|exact x_plus_sigma_no_width_1].
  rewrite (relu_absorbable_iff_width 1 1 1 1 one_mat one_mat one_mat one_mat identity _ _ Hg Hl HG).
  exact x_plus_sigma_no_width_1.
Qed.

Example gelu_iff_width_not_absorbable_side :
  grouping_pm 1 1 1 one_mat one_mat one_mat one_mat identity (fun i => i) (fun _ => 1) /\
  signs_distinct 1 1 one_mat /\ nonzero_cols 1 1 one_mat /\
  ~ absorbable_ungated gelu 1 1 1 identity one_mat one_mat /\
  ~ width_condition 1 1 1 one_mat one_mat identity.
Proof.
  assert (Hg := trivial_grouping_pm 1 1 one_mat one_mat).
  assert (Hs : signs_distinct 1 1 one_mat) by exact dim1_U_signs.
  assert (HG : nonzero_cols 1 1 one_mat)
    by (intros t _; exists 0%nat; split; [lia | cbv [col ex_G3 g_G one_mat]; lra]).
  split; [exact Hg|]. split; [exact Hs|]. split; [exact HG|].
  split; [|exact x_plus_sigma_no_width_1].
  rewrite (gelu_absorbable_iff_width 1 1 1 1 one_mat one_mat one_mat one_mat identity _ _ Hg Hs HG).
  exact x_plus_sigma_no_width_1.
Qed.

(** Never below the number of classes: the paper's counterexample at width 0. *)
Example relu_below_classes_instance : ~ absorbable_ungated relu 1 2 0 identity A0 B0.
Proof.
  apply (relu_not_absorbable_below_classes 1 2 1 0 A0 B0 dim1_U ex_G3 identity dim1_U_lines
           ltac:(intros t _; exists 0%nat; split; [lia | cbv [col ex_G3 g_G one_mat]; lra])
           A0_B0_ridge_form). lia.
Qed.

Example gelu_below_classes_instance : ~ absorbable_ungated gelu 1 2 0 identity gA gB.
Proof.
  apply (pm_not_absorbable_below_classes gelu 1 2 1 0 gA gB dim1_U g_G g_L gelu_odd_part gelu_zero
           gelu_even_part_unique dim1_U_signs
           ltac:(intros t _; exists 0%nat; split; [lia | cbv [col ex_G3 g_G one_mat]; lra])
           gA_gB_ridge_form). lia.
Qed.

(** Canonical forms: the paper's counterexample (two rows on one line) has one with one class. *)
Example relu_block_canonical_instance : exists k (U G L : mat),
  (k <= 2)%nat /\ lines_distinct 1 k U /\ nonzero_cols 1 k G /\
  same_fun 1 (residual 1 identity (ungated relu 1 2 A0 B0)) (ridge_form relu 1 k U G L).
Proof. exact (relu_block_canonical 1 2 A0 B0). Qed.
