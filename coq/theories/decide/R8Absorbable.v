(** * R8 / R8' (<=) for residual blocks, and its special cases

    A grouping of [x + B sigma(A x)] into a ridge form [(U, G, L)] together
    with R8's width condition for [(U, G, L)] at width [m] makes the block
    absorbable at width [m]: for ReLU with any grouping, for any [sigma]
    with [sigma(z) - sigma(-z) = z] and [sigma 0 = 0] (GELU, GELU_tanh,
    SiLU) with a grouping of scales [+-1].

    Main results:
    - [absorbable_of_width_condition] (ReLU), [absorbable_of_width_condition_pm];
    - wide targets: [relu_absorbable_of_grouping_wide],
      [pm_absorbable_of_grouping_wide] ([m >= k + 2d]) and
      [absorbable_wide_any] (every block at [m >= n + 2d], no grouping needed);
    - [relu_dim1_absorbable]: for ReLU and [d = 1] every residual block of any
      width [n] is absorbable at every width [m >= 2] (paper.md's correction
      to R6 at [d = 1]);
    - R5 (<=) as the case [T = {}], [r = 0] of R8:
      [submatrix_width_condition], [submatrix_absorbable_via_width] (ReLU),
      [submatrix_absorbable_via_width_pm] (GELU family). *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations.
From Absorb.decide Require Import RidgeForm GroupingSound WidthSufficient.
Open Scope R_scope.

(** ** Transfer from the ridge form to the residual block *)

Lemma absorbable_of_ridge sigma d n m (A B U G L : mat) k :
  same_fun d (residual d identity (ungated sigma d n A B)) (ridge_form sigma d k U G L) ->
  (exists A' B' : mat, same_fun d (ungated sigma d m A' B') (ridge_form sigma d k U G L)) ->
  absorbable_ungated sigma d n m identity A B.
Proof.
  intros Hres [A' [B' Hw]]. exists A', B'. intros x p Hp.
  rewrite (Hw x p Hp), (Hres x p Hp). reflexivity.
Qed.

(** R8 (<=), ReLU. *)
Theorem absorbable_of_width_condition d n k m (A B U G L : mat) cls lam :
  grouping d n k A B U G L cls lam ->
  width_condition d k m U G L ->
  absorbable_ungated relu d n m identity A B.
Proof.
  intros Hg Hw. apply (absorbable_of_ridge relu d n m A B U G L k).
  - exact (grouping_sound_relu d n k A B U G L cls lam Hg).
  - exact (width_condition_sufficient relu d k m U G L relu_odd_part Hw).
Qed.

(** R8' (<=): GELU, GELU_tanh, SiLU, or any [sigma] with the odd-part identity
    and [sigma 0 = 0]. *)
Theorem absorbable_of_width_condition_pm sigma d n k m (A B U G L : mat) cls lam :
  odd_part_identity sigma -> sigma 0 = 0 ->
  grouping_pm d n k A B U G L cls lam ->
  width_condition d k m U G L ->
  absorbable_ungated sigma d n m identity A B.
Proof.
  intros Hodd H0 Hg Hw. apply (absorbable_of_ridge sigma d n m A B U G L k).
  - exact (grouping_sound_pm sigma d n k A B U G L cls lam Hodd H0 Hg).
  - exact (width_condition_sufficient sigma d k m U G L Hodd Hw).
Qed.

Corollary gelu_absorbable_of_width_condition d n k m (A B U G L : mat) cls lam :
  grouping_pm d n k A B U G L cls lam -> width_condition d k m U G L ->
  absorbable_ungated gelu d n m identity A B.
Proof.
  apply absorbable_of_width_condition_pm; [exact gelu_odd_part | exact (proj2 gelu_vanishing)].
Qed.

Corollary gelu_tanh_absorbable_of_width_condition d n k m (A B U G L : mat) cls lam :
  grouping_pm d n k A B U G L cls lam -> width_condition d k m U G L ->
  absorbable_ungated gelu_tanh d n m identity A B.
Proof.
  apply absorbable_of_width_condition_pm;
    [exact gelu_tanh_odd_part | exact (proj2 gelu_tanh_vanishing)].
Qed.

Corollary silu_absorbable_of_width_condition d n k m (A B U G L : mat) cls lam :
  grouping_pm d n k A B U G L cls lam -> width_condition d k m U G L ->
  absorbable_ungated silu d n m identity A B.
Proof.
  apply absorbable_of_width_condition_pm; [exact silu_odd_part | exact (proj2 silu_vanishing)].
Qed.

(** ** Wide targets *)

Corollary relu_absorbable_of_grouping_wide d n k m (A B U G L : mat) cls lam :
  grouping d n k A B U G L cls lam -> (k + 2 * d <= m)%nat ->
  absorbable_ungated relu d n m identity A B.
Proof.
  intros Hg Hm. apply (absorbable_of_width_condition d n k m A B U G L cls lam Hg).
  apply ridge_form_wide. exact Hm.
Qed.

Corollary pm_absorbable_of_grouping_wide sigma d n k m (A B U G L : mat) cls lam :
  odd_part_identity sigma -> sigma 0 = 0 ->
  grouping_pm d n k A B U G L cls lam -> (k + 2 * d <= m)%nat ->
  absorbable_ungated sigma d n m identity A B.
Proof.
  intros Hodd H0 Hg Hm. apply (absorbable_of_width_condition_pm sigma d n k m A B U G L cls lam);
    try assumption.
  apply ridge_form_wide. exact Hm.
Qed.

(** Every residual block is absorbable at width [n + 2d] (each row its own class). *)
Corollary absorbable_wide_any sigma d n m (A B : mat) :
  odd_part_identity sigma -> sigma 0 = 0 -> (n + 2 * d <= m)%nat ->
  absorbable_ungated sigma d n m identity A B.
Proof.
  intros Hodd H0 Hm.
  exact (pm_absorbable_of_grouping_wide sigma d n n m A B A B identity (fun i => i) (fun _ => 1)
           Hodd H0 (trivial_grouping_pm d n A B) Hm).
Qed.

(** ** ReLU in dimension 1 *)

(** All rows lie on the line through [u = (1)]: class [0] holds the rows
    with [a_i <> 0] (scale [lam_i = a_i]); the rows with [a_i = 0] are dropped. *)
Definition dim1_U : mat := fun _ _ => 1.

Definition dim1_cls (A : mat) : nat -> nat :=
  fun i => if Req_EM_T (A i 0%nat) 0 then 1%nat else 0%nat.

Definition dim1_lam (A : mat) : nat -> R := fun i => A i 0%nat.

Lemma dim1_grouping n (A B : mat) :
  grouping 1 n 1 A B dim1_U (grouping_G n B (dim1_cls A) (dim1_lam A))
           (grouping_L n 1 B dim1_U (dim1_cls A) (dim1_lam A)) (dim1_cls A) (dim1_lam A).
Proof.
  apply grouping_of_classes.
  - intros i _ Hc. unfold dim1_cls in Hc. unfold dim1_lam, dim1_U.
    destruct (Req_EM_T (A i 0%nat) 0) as [_ | Hne]; [lia|].
    split; [exact Hne|]. intros j Hj. replace j with 0%nat by lia. ring.
  - intros i _ Hc. left. unfold dim1_cls in Hc.
    destruct (Req_EM_T (A i 0%nat) 0) as [H0 | _]; [|lia].
    intros j Hj. replace j with 0%nat by lia. exact H0.
Qed.

(** With [d = k = 1] and [u = (1)], two units suffice: [T = {0}] absorbs [L]. *)
Lemma dim1_width_condition m (U G L : mat) :
  U 0%nat 0%nat = 1 -> (2 <= m)%nat -> width_condition 1 1 m U G L.
Proof.
  intros HU Hm.
  exists (fun _ => true), (fun _ => false), 0%nat, (fun p _ => L p 0%nat), (fun _ _ => 0),
         (fun _ _ => 0).
  split; [intros; reflexivity|]. split; [simpl; lia|].
  intros i j Hi Hj. replace j with 0%nat by lia.
  unfold masked_outer, low_rank. simpl. rewrite HU. ring.
Qed.

Theorem relu_dim1_absorbable n m (A B : mat) :
  (2 <= m)%nat -> absorbable_ungated relu 1 n m identity A B.
Proof.
  intros Hm. eapply absorbable_of_width_condition; [apply dim1_grouping|].
  apply dim1_width_condition; [reflexivity | exact Hm].
Qed.

(** ** R5 (<=) as a special case: [T = {}], [r = 0] on the trivial grouping *)

Lemma submatrix_width_condition d n S (A B : mat) :
  submatrix_cond d n S A B -> width_condition d n n A B identity.
Proof.
  intros Hsub. exists (fun _ => false), S, 0%nat, (fun _ _ => 0), (fun _ _ => 0), (fun _ _ => 0).
  split; [intros t _ HT; discriminate HT|]. split; [rewrite count_none; lia|].
  intros i j Hi Hj. rewrite masked_outer_none.
  unfold masked_outer, low_rank. simpl.
  pose proof (Hsub i j Hi Hj) as E. unfold subset_sum in E. rewrite E. ring.
Qed.

Corollary submatrix_absorbable_via_width d n S (A B : mat) :
  submatrix_cond d n S A B -> absorbable_ungated relu d n n identity A B.
Proof.
  intros Hsub.
  apply (absorbable_of_width_condition d n n n A B A B identity (fun i => i) (fun _ => 1)).
  - apply trivial_grouping.
  - exact (submatrix_width_condition d n S A B Hsub).
Qed.

Corollary submatrix_absorbable_via_width_pm sigma d n S (A B : mat) :
  odd_part_identity sigma -> sigma 0 = 0 ->
  submatrix_cond d n S A B -> absorbable_ungated sigma d n n identity A B.
Proof.
  intros Hodd H0 Hsub.
  apply (absorbable_of_width_condition_pm sigma d n n n A B A B identity (fun i => i) (fun _ => 1));
    [exact Hodd | exact H0 | apply trivial_grouping_pm |].
  exact (submatrix_width_condition d n S A B Hsub).
Qed.
