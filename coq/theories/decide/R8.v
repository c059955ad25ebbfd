(** * R8 and R8': absorbability of any bias-free residual block is the width condition

    paper.md's "deciding every block".  Combining the (=>) direction
    ([WidthNecessary.v]) with the (<=) direction ([WidthSufficient.v]) and
    the soundness of groupings ([GroupingSound.v]):
    - [relu_absorbable_iff_form], [pm_absorbable_iff_form]: if
      [x + B sigma(A x)] equals a canonical ridge form [(U, G, L)] (directions
      on distinct lines / distinct up to sign, nonzero kinks), it is
      absorbable at width [m] iff [width_condition d k m U G L];
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
    canonical objects here are ridge forms, not groupings. *)

From Coq Require Import Reals Lra Lia Classical.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix
  GeluRidge GeluTanhRidge SiluRidge SubmatrixIff.
From Absorb.decide Require Import RidgeForm GroupingSound WidthSufficient R8Absorbable
  WidthCore WidthNecessary.
Open Scope R_scope.

Lemma same_fun_trans d (f g h : vec -> vec) :
  same_fun d f g -> same_fun d g h -> same_fun d f h.
Proof. intros H1 H2 x p Hp. rewrite (H1 x p Hp). exact (H2 x p Hp). Qed.

Lemma same_fun_sym d (f g : vec -> vec) : same_fun d f g -> same_fun d g f.
Proof. intros H x p Hp. symmetry. exact (H x p Hp). Qed.

(** ** Blocks with a canonical ridge form *)

Theorem relu_absorbable_iff_form d n k m (A B U G L : mat) :
  lines_distinct d k U -> nonzero_cols d k G ->
  same_fun d (residual d identity (ungated relu d n A B)) (ridge_form relu d k U G L) ->
  (absorbable_ungated relu d n m identity A B <-> width_condition d k m U G L).
Proof.
  intros Hl HG Hres. split.
  - intros [A' [B' Habs]]. apply (width_condition_necessary_relu d k m U G L A' B' Hl HG).
    exact (same_fun_trans d _ _ _ Habs Hres).
  - intros Hw. apply (absorbable_of_ridge relu d n m A B U G L k Hres).
    exact (width_condition_sufficient relu d k m U G L relu_odd_part Hw).
Qed.

Theorem pm_absorbable_iff_form sigma d n k m (A B U G L : mat) :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  signs_distinct d k U -> nonzero_cols d k G ->
  same_fun d (residual d identity (ungated sigma d n A B)) (ridge_form sigma d k U G L) ->
  (absorbable_ungated sigma d n m identity A B <-> width_condition d k m U G L).
Proof.
  intros Hodd H0 Hun Hs HG Hres. split.
  - intros [A' [B' Habs]].
    apply (width_condition_necessary_pm sigma d k m U G L A' B' Hodd H0 Hun Hs HG).
    exact (same_fun_trans d _ _ _ Habs Hres).
  - intros Hw. apply (absorbable_of_ridge sigma d n m A B U G L k Hres).
    exact (width_condition_sufficient sigma d k m U G L Hodd Hw).
Qed.

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
  intros Hodd H0 Hun Hg Hs HG. apply (pm_absorbable_iff_form sigma d n k m A B U G L Hodd H0 Hun Hs HG).
  exact (grouping_sound_pm sigma d n k A B U G L cls lam Hodd H0 Hg).
Qed.

Lemma gelu_even_part_unique : ridge_unique_even (even_part gelu).
Proof. exact (ridge_unique_even_ext _ _ even_part_gelu gelu_ridge_unique). Qed.

Corollary gelu_absorbable_iff_width d n k m (A B U G L : mat) cls lam :
  grouping_pm d n k A B U G L cls lam -> signs_distinct d k U -> nonzero_cols d k G ->
  (absorbable_ungated gelu d n m identity A B <-> width_condition d k m U G L).
Proof. apply pm_absorbable_iff_width; [exact gelu_odd_part | exact gelu_zero | exact gelu_even_part_unique]. Qed.

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
                (proj1 (pm_absorbable_iff_form sigma d n k m A B U G L Hodd H0 Hun Hs HG Hres) Habs)).
  lia.
Qed.
