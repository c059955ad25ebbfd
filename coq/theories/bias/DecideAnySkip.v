(** * R8/R9 with any linear part [P] (singular allowed), and post-LayerNorm blocks decided

    R8 reduces the skip to [I] by R1, which needs [P] invertible.  The
    decision theorems do not need it: their canonical forms
    ([Canonicalize.ridge_form_canonical_relu] / [_pm],
    [BiasCanonical.bias_ridge_form_canonical],
    [PmBiasCanonical.pm_bias_ridge_form_canonical]) take any linear part, and
    the width condition characterizes the forms computed by a residual-free
    block ([WidthNecessary], [WidthSufficient], [ReluBiasNecessity.relu_bias_form_iff],
    [PmBiasNecessity.pm_bias_form_iff]), whatever produced them
    ([R8.relu_absorbable_iff_form_any_skip], [R8.pm_absorbable_iff_form_any_skip]).  So
    [P x + B sigma(A x)] (resp. [+ c], [+ b0]) is the ridge form with
    linear part [P], and:
    - [relu_every_block_decided_any_skip], [pm_every_block_decided_any_skip]:
      bias-free, every [P], every block, every width [m]: a canonical ridge
      form whose width condition is absorbability at width [m];
    - [relu_bias_block_decided_any_skip], [pm_bias_block_decided_any_skip]:
      the same with biases (canonical biased ridge forms);
    - [postln_decided_free], [postln_decided_bias] (with
      [PostNorm.postln_ungated_iff] / [_bias_iff]): a post-LayerNorm block
      ([gamma_i <> 0], [eps > 0]) is absorbable at width [m] iff the width
      condition of the canonical form of the bare block with the singular
      skip [C P], down-projection [C B] (and output bias [C b0]) holds;
      [postrms_decided_free], [postrms_decided_bias]: post-RMSNorm, the
      canonical form of the bare block itself;
    - [relu_form_any_skip_instances]: [2 x - relu(x)] is not absorbable at
      width 1 but is at width 2; the singular [0 x - relu(x)] is at width 1;
      the same for the GELU family ([pm_form_any_skip_instances],
      [gelu_form_any_skip_instances]) and, with bias [c = 1], for ReLU
      ([relu_bias_form_any_skip_instances]). *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs BiasBlocks Activations ReluSubmatrix.
From Absorb Require Import Ridge RidgeForm BiasSpec Norms PostNorm.
From Absorb Require Import WidthSufficient R8Absorbable WidthNecessary Canonicalize R8.
From Absorb Require Import GeluAffineRidge BiasRidgeForm ReluBiasNecessity BiasCanonical.
From Absorb Require Import PmBiasCanonical PmBiasNecessity ReluBias GeluRidge.
Open Scope R_scope.

(** ** Bias-free *)

Lemma residual_is_ridge_form sigma d n P A B :
  same_fun d (residual d P (ungated sigma d n A B)) (ridge_form sigma d n A B P).
Proof. intros x i Hi. reflexivity. Qed.

(** R8 for every bias-free ReLU block, every linear part [P], every width. *)
Theorem relu_every_block_decided_any_skip d n (P A B : mat) : exists k (U G L : mat),
  (k <= n)%nat /\ lines_distinct d k U /\ nonzero_cols d k G /\
  same_fun d (residual d P (ungated relu d n A B)) (ridge_form relu d k U G L) /\
  forall m, absorbable_ungated relu d n m P A B <-> width_condition d k m U G L.
Proof.
  destruct (ridge_form_canonical_relu d n A B P) as (k & U & G & L & Hk & Hl & HG & Hs).
  assert (Hres := same_fun_trans d _ _ _ (residual_is_ridge_form relu d n P A B) Hs).
  exists k, U, G, L. split; [exact Hk|]. split; [exact Hl|]. split; [exact HG|].
  split; [exact Hres|]. intros m.
  exact (relu_absorbable_iff_form_any_skip d n k m P A B U G L Hl HG Hres).
Qed.

(** R8' likewise, for every [sigma] with the odd-part identity, [sigma 0 = 0]
    and ridge uniqueness of its even part. *)
Theorem pm_every_block_decided_any_skip sigma d n (P A B : mat) :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  exists k (U G L : mat),
  (k <= n)%nat /\ signs_distinct d k U /\ nonzero_cols d k G /\
  same_fun d (residual d P (ungated sigma d n A B)) (ridge_form sigma d k U G L) /\
  forall m, absorbable_ungated sigma d n m P A B <-> width_condition d k m U G L.
Proof.
  intros Hodd H0 Hun.
  destruct (ridge_form_canonical_pm sigma d n A B P Hodd H0)
    as (k & U & G & L & Hk & Hl & HG & Hs).
  assert (Hres := same_fun_trans d _ _ _ (residual_is_ridge_form sigma d n P A B) Hs).
  exists k, U, G, L. split; [exact Hk|]. split; [exact Hl|]. split; [exact HG|].
  split; [exact Hres|]. intros m.
  exact (pm_absorbable_iff_form_any_skip sigma d n k m P A B U G L Hodd H0 Hun Hl HG Hres).
Qed.

(** ** With biases *)

Lemma residual_is_bias_ridge_form_skip sigma d n P A c B b0 :
  same_fun d (residual d P (ungated_bias sigma d n A c B b0))
             (bias_ridge_form sigma d n A c B P b0).
Proof. intros x i Hi. unfold residual, ungated_bias, bias_ridge_form. ring. Qed.

(** From "the form is computed at width [m] iff the width condition" to the
    block with skip [P]. *)
Lemma bias_residual_iff_of_form sigma d n m P A c B b0 k U s (G L : mat) l0 :
  ((exists A' c' B' b0',
      same_fun d (ungated_bias sigma d m A' c' B' b0') (bias_ridge_form sigma d k U s G L l0))
   <-> width_condition d k m U G L) ->
  same_fun d (residual d P (ungated_bias sigma d n A c B b0))
             (bias_ridge_form sigma d k U s G L l0) ->
  (absorbable_ungated_bias sigma d n m P A c B b0 <-> width_condition d k m U G L).
Proof.
  intros Hform Hres. rewrite <- Hform. split.
  - intros [A' [c' [B' [b0' H]]]]. exists A', c', B', b0'.
    exact (same_fun_trans_b d _ _ _ H Hres).
  - intros [A' [c' [B' [b0' H]]]]. exists A', c', B', b0'. intros x p Hp.
    rewrite (H x p Hp). symmetry. exact (Hres x p Hp).
Qed.

Theorem relu_bias_block_decided_any_skip : forall d n P A c B b0,
  exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_bias_lines d k U s G /\
    same_fun d (residual d P (ungated_bias relu d n A c B b0))
               (bias_ridge_form relu d k U s G L l0) /\
    forall m, absorbable_ungated_bias relu d n m P A c B b0 <-> width_condition d k m U G L.
Proof.
  intros d n P A c B b0.
  destruct (bias_ridge_form_canonical n d n A c B P b0 (le_n n))
    as [k [U [s [G [L [l0 [Hk [Hg Hs]]]]]]]].
  assert (Hres := same_fun_trans_b d _ _ _ (residual_is_bias_ridge_form_skip relu d n P A c B b0)
                    Hs).
  exists k, U, s, G, L, l0. split; [exact Hk|]. split; [exact Hg|]. split; [exact Hres|].
  intros m. exact (bias_residual_iff_of_form relu d n m P A c B b0 k U s G L l0
                     (relu_bias_form_iff d k m U s G L l0 Hg) Hres).
Qed.

Theorem pm_bias_block_decided_any_skip : forall sigma, odd_part_identity sigma ->
  affine_ridge_unique_even (even_part sigma) ->
  forall d n P A c B b0,
  exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_bias_signs d k U s G /\
    same_fun d (residual d P (ungated_bias sigma d n A c B b0))
               (bias_ridge_form sigma d k U s G L l0) /\
    forall m, absorbable_ungated_bias sigma d n m P A c B b0 <-> width_condition d k m U G L.
Proof.
  intros sigma Hodd Hu d n P A c B b0.
  destruct (pm_bias_ridge_form_canonical sigma Hodd n d n A c B P b0 (le_n n))
    as [k [U [s [G [L [l0 [Hk [Hg Hs]]]]]]]].
  assert (Hres := same_fun_trans_b d _ _ _ (residual_is_bias_ridge_form_skip sigma d n P A c B b0)
                    Hs).
  exists k, U, s, G, L, l0. split; [exact Hk|]. split; [exact Hg|]. split; [exact Hres|].
  intros m. exact (bias_residual_iff_of_form sigma d n m P A c B b0 k U s G L l0
                     (pm_bias_form_iff sigma Hodd Hu d k m U s G L l0 Hg) Hres).
Qed.

(** ** Post-LayerNorm blocks, every width *)

(** The decision of a bare block with skip [C P] and down-projection [C B]
    (a [distinct]-canonical form for each block, as R8/R8' give) decides the
    post-LN block. *)
Theorem postln_decided_free (distinct : nat -> nat -> mat -> Prop) sigma :
  (forall d n (P A B : mat), exists k (U G L : mat),
     (k <= n)%nat /\ distinct d k U /\ nonzero_cols d k G /\
     same_fun d (residual d P (ungated sigma d n A B)) (ridge_form sigma d k U G L) /\
     forall m, absorbable_ungated sigma d n m P A B <-> width_condition d k m U G L) ->
  forall d n eps gamma beta (P A B : mat), 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
  exists k (U G L : mat), (k <= n)%nat /\ distinct d k U /\ nonzero_cols d k G /\
    same_fun d (residual d (mm d (centering d) P) (ungated sigma d n A (mm d (centering d) B)))
               (ridge_form sigma d k U G L) /\
    forall m, absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n m P A B <->
              width_condition d k m U G L.
Proof.
  intros Hdec d n eps gamma beta P A B He Hg.
  destruct (Hdec d n (mm d (centering d) P) A (mm d (centering d) B))
    as (k & U & G & L & Hk & Hl & HG & Hs & Hiff).
  exists k, U, G, L. split; [exact Hk|]. split; [exact Hl|]. split; [exact HG|].
  split; [exact Hs|]. intros m.
  rewrite (postln_ungated_iff sigma d n m eps gamma beta P A B He Hg). exact (Hiff m).
Qed.

Theorem postln_decided_bias (generic_b : nat -> nat -> mat -> vec -> mat -> Prop) sigma :
  (forall d n P A c B b0, exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_b d k U s G /\
     same_fun d (residual d P (ungated_bias sigma d n A c B b0))
                (bias_ridge_form sigma d k U s G L l0) /\
     forall m, absorbable_ungated_bias sigma d n m P A c B b0 <-> width_condition d k m U G L) ->
  forall d n eps gamma beta P A c B b0, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
  exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_b d k U s G /\
    same_fun d (residual d (mm d (centering d) P)
                  (ungated_bias sigma d n A c (mm d (centering d) B) (mv d (centering d) b0)))
               (bias_ridge_form sigma d k U s G L l0) /\
    forall m, absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n m P A c B b0
              <-> width_condition d k m U G L.
Proof.
  intros Hdec d n eps gamma beta P A c B b0 He Hg.
  destruct (Hdec d n (mm d (centering d) P) A c (mm d (centering d) B) (mv d (centering d) b0))
    as (k & U & s & G & L & l0 & Hk & Hgen & Hs & Hiff).
  exists k, U, s, G, L, l0. split; [exact Hk|]. split; [exact Hgen|]. split; [exact Hs|].
  intros m. rewrite (postln_ungated_bias_iff sigma d n m eps gamma beta P A c B b0 He Hg).
  exact (Hiff m).
Qed.

(** ** Non-vacuity: [d = n = 1], [a = 1], [b = -1] *)

Definition da_neg : mat := fun _ _ => -1.

Lemma da_form (p : R) : same_fun 1 (residual 1 (fun _ _ => p) (ungated relu 1 1 one_mat da_neg))
                                   (ridge_form relu 1 1 one_mat da_neg (fun _ _ => p)).
Proof. exact (residual_is_ridge_form relu 1 1 _ one_mat da_neg). Qed.

(** At width 1: [T = {}], [r = 0], so [p + [0 in S] (-1) = 0]. *)
Lemma da_width1 (p : R) : p <> 0 -> p <> 1 ->
  ~ width_condition 1 1 1 one_mat da_neg (fun _ _ => p).
Proof.
  intros Hp0 Hp1 (T & S & r & E & P & Q & _ & Hm & HL). simpl in Hm.
  destruct (T 0%nat) eqn:HT; [lia|]. assert (r = 0%nat) by lia. subst r.
  specialize (HL 0%nat 0%nat ltac:(lia) ltac:(lia)).
  unfold masked_outer, low_rank, one_mat, da_neg in HL. simpl in HL. rewrite HT in HL.
  destruct (S 0%nat); lra.
Qed.

Lemma da_width1_zero : width_condition 1 1 1 one_mat da_neg (fun _ _ => 0).
Proof.
  exists (fun _ => false), (fun _ => false), 0%nat, (fun _ _ => 0), (fun _ _ => 0), (fun _ _ => 0).
  split; [intros; reflexivity|]. split; [simpl; lia|].
  intros i j Hi Hj. unfold masked_outer, low_rank. simpl. ring.
Qed.

Example relu_form_any_skip_instances :
  absorbable_ungated relu 1 1 1 (fun _ _ => 0) one_mat da_neg /\
  ~ absorbable_ungated relu 1 1 1 (fun _ _ => 2) one_mat da_neg /\
  absorbable_ungated relu 1 1 2 (fun _ _ => 2) one_mat da_neg.
Proof.
  assert (Hl := dim1_U_lines). assert (HG : nonzero_cols 1 1 da_neg).
  { intros t _. exists 0%nat. split; [lia | unfold col, da_neg; lra]. }
  split; [|split].
  - apply (relu_absorbable_iff_form_any_skip 1 1 1 1 _ _ _ _ _ _ Hl HG (da_form 0)).
    exact da_width1_zero.
  - rewrite (relu_absorbable_iff_form_any_skip 1 1 1 1 _ _ _ _ _ _ Hl HG (da_form 2)).
    apply da_width1; lra.
  - apply (relu_absorbable_iff_form_any_skip 1 1 1 2 _ _ _ _ _ _ Hl HG (da_form 2)).
    apply dim1_width_condition; [reflexivity | lia].
Qed.

(** The GELU family: the same three verdicts, once for every such [sigma]. *)
Lemma pm_form_any_skip_instances sigma :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  absorbable_ungated sigma 1 1 1 (fun _ _ => 0) one_mat da_neg /\
  ~ absorbable_ungated sigma 1 1 1 (fun _ _ => 2) one_mat da_neg /\
  absorbable_ungated sigma 1 1 2 (fun _ _ => 2) one_mat da_neg.
Proof.
  intros Hodd H0 Hun.
  assert (Hs := dim1_U_signs). assert (HG : nonzero_cols 1 1 da_neg).
  { intros t _. exists 0%nat. split; [lia | unfold col, da_neg; lra]. }
  assert (Hf := fun p => residual_is_ridge_form sigma 1 1 (fun _ _ => p) one_mat da_neg).
  split; [|split].
  - apply (pm_absorbable_iff_form_any_skip sigma 1 1 1 1 _ _ _ _ _ _ Hodd H0 Hun Hs HG (Hf 0)).
    exact da_width1_zero.
  - rewrite (pm_absorbable_iff_form_any_skip sigma 1 1 1 1 _ _ _ _ _ _ Hodd H0 Hun Hs HG (Hf 2)).
    apply da_width1; lra.
  - apply (pm_absorbable_iff_form_any_skip sigma 1 1 1 2 _ _ _ _ _ _ Hodd H0 Hun Hs HG (Hf 2)).
    apply dim1_width_condition; [reflexivity | lia].
Qed.

Example gelu_form_any_skip_instances :
  absorbable_ungated gelu 1 1 1 (fun _ _ => 0) one_mat da_neg /\
  ~ absorbable_ungated gelu 1 1 1 (fun _ _ => 2) one_mat da_neg /\
  absorbable_ungated gelu 1 1 2 (fun _ _ => 2) one_mat da_neg.
Proof. exact (pm_form_any_skip_instances gelu gelu_odd_part gelu_zero gelu_even_part_unique). Qed.

(** With biases, ReLU: [2 x - relu(x + 1) + 3] is not absorbable at width 1
    (R9 with any [P]), but is at width 2 (the width condition). *)
Example relu_bias_form_any_skip_instances :
  ~ absorbable_ungated_bias relu 1 1 1 (fun _ _ => 2) rb_ex_A rb_ex_c da_neg (fun _ => 3) /\
  absorbable_ungated_bias relu 1 1 2 (fun _ _ => 2) rb_ex_A rb_ex_c da_neg (fun _ => 3).
Proof.
  pose proof (relu_bias_generic_instance (-1) ltac:(lra)) as Hg.
  assert (Hres := residual_is_bias_ridge_form_skip relu 1 1 (fun _ _ => 2) rb_ex_A rb_ex_c da_neg
                    (fun _ => 3)).
  split.
  - rewrite (bias_residual_iff_of_form relu 1 1 1 _ _ _ _ _ 1 _ _ _ _ _
               (relu_bias_form_iff 1 1 1 _ _ _ _ _ Hg) Hres).
    apply da_width1; lra.
  - apply (bias_residual_iff_of_form relu 1 1 2 _ _ _ _ _ 1 _ _ _ _ _
             (relu_bias_form_iff 1 1 2 _ _ _ _ _ Hg) Hres).
    apply dim1_width_condition; [reflexivity | lia].
Qed.

(** ** Post-RMSNorm blocks, every width (the bare block itself) *)

Theorem postrms_decided_free (distinct : nat -> nat -> mat -> Prop) sigma :
  (forall d n (P A B : mat), exists k (U G L : mat),
     (k <= n)%nat /\ distinct d k U /\ nonzero_cols d k G /\
     same_fun d (residual d P (ungated sigma d n A B)) (ridge_form sigma d k U G L) /\
     forall m, absorbable_ungated sigma d n m P A B <-> width_condition d k m U G L) ->
  forall d n eps gamma beta (P A B : mat), 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
  exists k (U G L : mat), (k <= n)%nat /\ distinct d k U /\ nonzero_cols d k G /\
    same_fun d (residual d P (ungated sigma d n A B)) (ridge_form sigma d k U G L) /\
    forall m, absorbable_postnorm_ungated (rms_norm d eps gamma beta) sigma d n m P A B <->
              width_condition d k m U G L.
Proof.
  intros Hdec d n eps gamma beta P A B He Hg.
  destruct (Hdec d n P A B) as (k & U & G & L & Hk & Hl & HG & Hs & Hiff).
  exists k, U, G, L. split; [exact Hk|]. split; [exact Hl|]. split; [exact HG|].
  split; [exact Hs|]. intros m.
  rewrite (postrms_ungated_iff sigma d n m eps gamma beta P A B He Hg). exact (Hiff m).
Qed.

Theorem postrms_decided_bias (generic_b : nat -> nat -> mat -> vec -> mat -> Prop) sigma :
  (forall d n P A c B b0, exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_b d k U s G /\
     same_fun d (residual d P (ungated_bias sigma d n A c B b0))
                (bias_ridge_form sigma d k U s G L l0) /\
     forall m, absorbable_ungated_bias sigma d n m P A c B b0 <-> width_condition d k m U G L) ->
  forall d n eps gamma beta P A c B b0, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
  exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_b d k U s G /\
    same_fun d (residual d P (ungated_bias sigma d n A c B b0))
               (bias_ridge_form sigma d k U s G L l0) /\
    forall m, absorbable_postnorm_ungated_bias (rms_norm d eps gamma beta) sigma d n m P A c B b0
              <-> width_condition d k m U G L.
Proof.
  intros Hdec d n eps gamma beta P A c B b0 He Hg.
  destruct (Hdec d n P A c B b0) as (k & U & s & G & L & l0 & Hk & Hgen & Hs & Hiff).
  exists k, U, s, G, L, l0. split; [exact Hk|]. split; [exact Hgen|]. split; [exact Hs|].
  intros m. rewrite (postrms_ungated_bias_iff sigma d n m eps gamma beta P A c B b0 He Hg).
  exact (Hiff m).
Qed.
