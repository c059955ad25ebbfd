(** * Canonical biased ridge forms for the GELU family (paper.md R9)

    For any [sigma] with [odd_part_identity sigma] ([sigma z - sigma (-z) = z]:
    GELU, GELU_tanh, SiLU) a biased ridge form
    ([BiasSpec.bias_ridge_form sigma]) is made canonical
    ([generic_bias_signs d k U s G]: [u_t <> 0], the augmented rows
    [(u_t, s_t)] pairwise not equal up to sign, every kink vector
    [G[:,t] <> 0]) without changing the function and without adding classes,
    by the steps and the induction of [BiasCanonical.v]
    ([bias_ridge_form_canonical_by]):
    - [pm_scale]: the scale law at [c = +-1] ([sigma(-z) = sigma z - z]), so a
      class [(u_j, s_j) = c (u_i, s_i)] merges into class [i]
      ([BiasCanonical.merge_bias_class]);
    - [pm_aug_proportional]: augmented rows equal up to sign give such a [c];
    - [pm_bias_ridge_form_canonical]: canonical up to sign; instances
      [gelu_bias_ridge_form_canonical], [gelu_tanh_bias_ridge_form_canonical],
      [silu_bias_ridge_form_canonical];
    - [silu_even_part_affine_unique], [gelu_tanh_even_part_affine_unique]:
      [affine_ridge_unique_even (even_part sigma)] from the one-variable
      statements via [GeluAffineRidge.affine_ridge_unique_of_1d] (GELU's is
      [GeluBias.gelu_even_part_affine_unique]).
    This is the canonicalization step of R8 with biases for the GELU family;
    the necessity of the width condition and the decision of every biased
    block are in [PmBiasNecessity.v]. *)

From Coq Require Import Reals Lra Lia Arith Classical.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry FiniteMaps
  Ridge ReluSubmatrix Biases BiasSpec AugRows AffineRidge ReluBias RidgeForm BiasRidgeForm
  ReluBiasNecessity BiasCanonical GeluAffineRidge GeluBias
  SiluAffineRidge GeluTanhAffineRidge.
Open Scope R_scope.

(** [sigma (c z)] for [c = +-1], in the shape of [relu_scale_any]. *)
Lemma pm_scale sigma c z : odd_part_identity sigma -> c = 1 \/ c = -1 ->
  sigma (c * z) = Rabs c * sigma z - (if Rlt_dec c 0 then Rabs c * z else 0).
Proof.
  intros Hodd [->| ->].
  - rewrite Rabs_R1. destruct (Rlt_dec 1 0); [lra|]. rewrite Rmult_1_l. ring.
  - replace (Rabs (-1)) with 1 by (rewrite Rabs_left; lra). destruct (Rlt_dec (-1) 0); [|lra].
    pose proof (Hodd z) as E. replace (-1 * z) with (- z) by ring. lra.
Qed.

(** Augmented rows equal up to sign: [(u_j, s_j) = c (u_i, s_i)] with [c = +-1]. *)
Lemma pm_aug_proportional d U s i j :
  pm_equal (S d) (aug_row d U s i) (aug_row d U s j) ->
  exists c, (c = 1 \/ c = -1) /\ (forall q, (q < d)%nat -> U j q = c * U i q) /\ s j = c * s i.
Proof.
  intros [H|H].
  - exists 1. split; [left; reflexivity|]. split.
    + intros q Hq. pose proof (H q ltac:(lia)) as E. rewrite !aug_row_coord in E by exact Hq. lra.
    + pose proof (H d ltac:(lia)) as E. rewrite !aug_row_bias_coord in E. lra.
  - exists (-1). split; [right; reflexivity|]. split.
    + intros q Hq. pose proof (H q ltac:(lia)) as E. rewrite !aug_row_coord in E by exact Hq. lra.
    + pose proof (H d ltac:(lia)) as E. rewrite !aug_row_bias_coord in E. lra.
Qed.

Theorem pm_bias_ridge_form_canonical : forall sigma, odd_part_identity sigma ->
  forall n d k U s (G L : mat) l0, (k <= n)%nat ->
  exists k' U' s' G' L' l0', (k' <= k)%nat /\ generic_bias_signs d k' U' s' G' /\
    same_fun d (bias_ridge_form sigma d k U s G L l0) (bias_ridge_form sigma d k' U' s' G' L' l0').
Proof.
  intros sigma Hodd. apply bias_ridge_form_canonical_by; [intros; split; [|split]; intros; lia|].
  intros d N U s G HU HG Hng. apply NNPP. intros Hind. apply Hng. split; [exact HU|].
  split; [|exact HG].
  intros i j Hi Hj Hne Hdep. apply Hind.
  destruct (pm_aug_proportional d U s i j Hdep) as [c [Hc1 [Hc Hcs]]].
  exists i, j, c. do 5 (split; [assumption|]). exact (fun z => pm_scale sigma c z Hodd Hc1).
Qed.

Corollary gelu_bias_ridge_form_canonical : forall n d k U s (G L : mat) l0, (k <= n)%nat ->
  exists k' U' s' G' L' l0', (k' <= k)%nat /\ generic_bias_signs d k' U' s' G' /\
    same_fun d (bias_ridge_form gelu d k U s G L l0) (bias_ridge_form gelu d k' U' s' G' L' l0').
Proof. exact (pm_bias_ridge_form_canonical gelu gelu_odd_part). Qed.

Corollary gelu_tanh_bias_ridge_form_canonical : forall n d k U s (G L : mat) l0, (k <= n)%nat ->
  exists k' U' s' G' L' l0', (k' <= k)%nat /\ generic_bias_signs d k' U' s' G' /\
    same_fun d (bias_ridge_form gelu_tanh d k U s G L l0)
               (bias_ridge_form gelu_tanh d k' U' s' G' L' l0').
Proof. exact (pm_bias_ridge_form_canonical gelu_tanh gelu_tanh_odd_part). Qed.

Corollary silu_bias_ridge_form_canonical : forall n d k U s (G L : mat) l0, (k <= n)%nat ->
  exists k' U' s' G' L' l0', (k' <= k)%nat /\ generic_bias_signs d k' U' s' G' /\
    same_fun d (bias_ridge_form silu d k U s G L l0) (bias_ridge_form silu d k' U' s' G' L' l0').
Proof. exact (pm_bias_ridge_form_canonical silu silu_odd_part). Qed.

Lemma silu_even_part_affine_unique : affine_ridge_unique_even (even_part silu).
Proof. exact (affine_ridge_unique_of_1d _ silu_even_affine_independent). Qed.

Lemma gelu_tanh_even_part_affine_unique : affine_ridge_unique_even (even_part gelu_tanh).
Proof. exact (affine_ridge_unique_of_1d _ gelu_tanh_even_affine_independent). Qed.

(** ** Non-vacuity

    [d = 1], two classes [x + 1] and [-x - 1] (equal up to sign), kinks [1, 1]:
    [gelu(x + 1) + gelu(-x - 1) = 2 gelu(x + 1) - (x + 1)] is one class,
    merged by [merge_bias_class] ([c = -1]). *)
Definition pmex_U : mat := fun t _ => if Nat.eq_dec t 0 then 1 else -1.
Definition pmex_s : vec := fun t => if Nat.eq_dec t 0 then 1 else -1.
Definition pmex_G : mat := fun _ _ => 1.

Example pmex_merge :
  same_fun 1 (bias_ridge_form gelu 1 2 pmex_U pmex_s pmex_G (fun _ _ => 0) (fun _ => 0))
             (bias_ridge_form gelu 1 1 (bskip_rows pmex_U 1) (bskip_vec pmex_s 1)
                (merged_kinks pmex_G 1 0 (-1)) (merged_linear (fun _ _ => 0) pmex_G pmex_U 1 0 (-1))
                (merged_const (fun _ => 0) pmex_G pmex_s 1 0 (-1))).
Proof.
  apply (merge_bias_class gelu 1 1 pmex_U pmex_s pmex_G _ _ 1 0 (-1));
    [exact (fun z => pm_scale gelu (-1) z gelu_odd_part (or_intror eq_refl)) | lia | lia
      | lia | | ].
  - intros q Hq. unfold pmex_U. simpl. ring.
  - unfold pmex_s. simpl. ring.
Qed.

(** This example has a canonical form (with at most two classes). *)
Example pmex_canonical : exists k' U' s' G' L' l0', (k' <= 2)%nat /\
  generic_bias_signs 1 k' U' s' G' /\
  same_fun 1 (bias_ridge_form gelu 1 2 pmex_U pmex_s pmex_G (fun _ _ => 0) (fun _ => 0))
             (bias_ridge_form gelu 1 k' U' s' G' L' l0').
Proof. exact (gelu_bias_ridge_form_canonical 2 1 2 _ _ _ _ _ (le_n 2)). Qed.
