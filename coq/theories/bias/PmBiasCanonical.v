(** * Canonical biased ridge forms for the GELU family (paper.md R9)

    For any [sigma] with [odd_part_identity sigma] ([sigma z - sigma (-z) = z]:
    GELU, GELU_tanh, SiLU) a biased ridge form
    ([BiasSpec.bias_ridge_form sigma]) is made canonical
    ([generic_bias_signs d k U s G]: [u_t <> 0], the augmented rows
    [(u_t, s_t)] pairwise not equal up to sign, every kink vector
    [G[:,t] <> 0]) without changing the function and without adding classes:
    - [pm_drop_zero_kink]: a class with [G[:,j] = 0] is deleted;
    - [pm_drop_constant_class]: a class with [u_j = 0] is the constant
      [G[:,j] sigma(s_j)], moved into [l0];
    - [pm_merge_bias_class]: a class [(u_j, s_j) = c (u_i, s_i)], [c = +-1],
      is merged into class [i] ([sigma(-z) = sigma z - z]);
    - [pm_bias_ridge_form_canonical]: by induction on [k]; instances
      [gelu_bias_ridge_form_canonical], [gelu_tanh_bias_ridge_form_canonical],
      [silu_bias_ridge_form_canonical];
    - [silu_even_part_affine_unique], [gelu_tanh_even_part_affine_unique]:
      [affine_ridge_unique_even (even_part sigma)] from the one-variable
      statements via [GeluAffineRidge.affine_ridge_unique_of_1d] (GELU's is
      [GeluBias.gelu_even_part_affine_unique]).
    This is the canonicalization step of R8 with biases for the GELU family;
    the necessity of the width condition and the decision of every biased
    block are in [PmBiasNecessity.v].
    The merging bookkeeping ([bskip], [merged_kinks], ...) is that of
    [BiasCanonical.v]. *)

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

Lemma pm_drop_zero_kink sigma d N U s (G L : mat) l0 j : (j <= N)%nat ->
  (forall p, (p < d)%nat -> G p j = 0) ->
  same_fun d (bias_ridge_form sigma d (S N) U s G L l0)
             (bias_ridge_form sigma d N (bskip_rows U j) (bskip_vec s j) (bskip_cols G j) L l0).
Proof.
  intros Hj HG x p Hp. unfold bias_ridge_form. rewrite (sumn_bskip N _ j Hj), (HG p Hp).
  unfold bskip_rows, bskip_vec, bskip_cols, row. ring.
Qed.

Lemma pm_drop_constant_class sigma d N U s (G L : mat) l0 j : (j <= N)%nat ->
  (forall q, (q < d)%nat -> U j q = 0) ->
  same_fun d (bias_ridge_form sigma d (S N) U s G L l0)
             (bias_ridge_form sigma d N (bskip_rows U j) (bskip_vec s j) (bskip_cols G j) L
                (fun p => l0 p + G p j * sigma (s j))).
Proof.
  intros Hj HU x p Hp. unfold bias_ridge_form. rewrite (sumn_bskip N _ j Hj).
  rewrite (parallel_dot d (row U j) (row U j) 0 x)
    by (intros q Hq; unfold row; rewrite (HU q Hq); ring).
  rewrite Rmult_0_l, Rplus_0_l. unfold bskip_rows, bskip_vec, bskip_cols, row. ring.
Qed.

Lemma pm_merge_bias_class sigma d N U s (G L : mat) l0 j i c : odd_part_identity sigma ->
  c = 1 \/ c = -1 -> (j <= N)%nat -> (i < S N)%nat -> i <> j ->
  (forall q, (q < d)%nat -> U j q = c * U i q) -> s j = c * s i ->
  same_fun d (bias_ridge_form sigma d (S N) U s G L l0)
             (bias_ridge_form sigma d N (bskip_rows U j) (bskip_vec s j) (merged_kinks G j i c)
                (merged_linear L G U j i c) (merged_const l0 G s j i c)).
Proof.
  intros Hodd Hc Hj Hi Hne HU Hs x p Hp. unfold bias_ridge_form. rewrite (sumn_bskip N _ j Hj).
  unfold merged_linear. rewrite (mv_add_outer d L _ (row U i) x p).
  rewrite (parallel_dot d (row U j) (row U i) c x HU), Hs.
  replace (c * dot d (row U i) x + c * s i) with (c * (dot d (row U i) x + s i)) by ring.
  rewrite (pm_scale sigma c _ Hodd Hc).
  rewrite (sumn_ext N (fun t => merged_kinks G j i c p t
                                * sigma (dot d (row (bskip_rows U j) t) x + bskip_vec s j t))
             (fun t => G p (bskip j t) * sigma (dot d (row U (bskip j t)) x + s (bskip j t))
                       + (if Nat.eq_dec (bskip j t) i
                          then Rabs c * G p j * sigma (dot d (row U i) x + s i) else 0))).
  2:{ intros t _. unfold merged_kinks, bskip_rows, bskip_vec, row.
      destruct (Nat.eq_dec (bskip j t) i) as [E|E]; [rewrite E; ring | ring]. }
  rewrite sumn_plus, (sumn_bskip_delta N j i _ Hj Hi Hne).
  unfold merged_const. destruct (Rlt_dec c 0); ring.
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
  intros sigma Hodd.
  induction n as [|n IH]; intros d k U s G L l0 Hk.
  - exists 0%nat, U, s, G, L, l0. split; [lia|]. split.
    + split; [|split]; intros; lia.
    + replace k with 0%nat by lia. intros x p Hp. reflexivity.
  - destruct (classic (generic_bias_signs d k U s G)) as [Hg|Hng].
    { exists k, U, s, G, L, l0. split; [lia|]. split; [exact Hg|]. intros x p Hp. reflexivity. }
    destruct k as [|N]; [exfalso; apply Hng; split; [|split]; intros; lia|].
    assert (Hstep : exists U1 s1 (G1 L1 : mat) l01,
      same_fun d (bias_ridge_form sigma d (S N) U s G L l0) (bias_ridge_form sigma d N U1 s1 G1 L1 l01)).
    { destruct (classic (exists j, (j < S N)%nat /\ ~ nonzero_vec d (row U j))) as [[j [Hj Hz]]|HU].
      { exists (bskip_rows U j), (bskip_vec s j), (bskip_cols G j), L,
               (fun p => l0 p + G p j * sigma (s j)).
        apply pm_drop_constant_class; [lia|]. intros q Hq. exact (not_nonzero_vec_zero d _ Hz q Hq). }
      assert (HU' : forall j, (j < S N)%nat -> nonzero_vec d (row U j)).
      { intros j Hj. apply NNPP. intros C. apply HU. exists j. split; assumption. }
      destruct (classic (exists j, (j < S N)%nat /\ ~ nonzero_vec d (col G j))) as [[j [Hj Hz]]|HG].
      { exists (bskip_rows U j), (bskip_vec s j), (bskip_cols G j), L, l0.
        apply pm_drop_zero_kink; [lia|]. intros p Hp. exact (not_nonzero_vec_zero d _ Hz p Hp). }
      assert (HG' : forall j, (j < S N)%nat -> nonzero_vec d (col G j)).
      { intros j Hj. apply NNPP. intros C. apply HG. exists j. split; assumption. }
      destruct (classic (exists i j, (i < S N)%nat /\ (j < S N)%nat /\ i <> j /\
                  pm_equal (S d) (aug_row d U s i) (aug_row d U s j)))
        as [[i [j [Hi [Hj [Hne Hdep]]]]]|Hind].
      2:{ exfalso. apply Hng. split; [exact HU'|]. split; [|exact HG'].
          intros i j Hi Hj Hne C. apply Hind. exists i, j. auto. }
      destruct (pm_aug_proportional d U s i j Hdep) as [c [Hc1 [Hc Hcs]]].
      exists (bskip_rows U j), (bskip_vec s j), (merged_kinks G j i c),
             (merged_linear L G U j i c), (merged_const l0 G s j i c).
      apply pm_merge_bias_class; [exact Hodd | exact Hc1 | lia | exact Hi | exact Hne | exact Hc | exact Hcs]. }
    destruct Hstep as [U1 [s1 [G1 [L1 [l01 H1]]]]].
    destruct (IH d N U1 s1 G1 L1 l01 ltac:(lia)) as [k' [U' [s' [G' [L' [l0' [Hk' [Hg' H2]]]]]]]].
    exists k', U', s', G', L', l0'. split; [lia|]. split; [exact Hg'|].
    exact (same_fun_trans_b d _ _ _ H1 H2).
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
    merged by [pm_merge_bias_class] ([c = -1]). *)
Definition pmex_U : mat := fun t _ => if Nat.eq_dec t 0 then 1 else -1.
Definition pmex_s : vec := fun t => if Nat.eq_dec t 0 then 1 else -1.
Definition pmex_G : mat := fun _ _ => 1.

Example pmex_merge :
  same_fun 1 (bias_ridge_form gelu 1 2 pmex_U pmex_s pmex_G (fun _ _ => 0) (fun _ => 0))
             (bias_ridge_form gelu 1 1 (bskip_rows pmex_U 1) (bskip_vec pmex_s 1)
                (merged_kinks pmex_G 1 0 (-1)) (merged_linear (fun _ _ => 0) pmex_G pmex_U 1 0 (-1))
                (merged_const (fun _ => 0) pmex_G pmex_s 1 0 (-1))).
Proof.
  apply (pm_merge_bias_class gelu 1 1 pmex_U pmex_s pmex_G _ _ 1 0 (-1) gelu_odd_part);
    [right; reflexivity | lia | lia | lia | | ].
  - intros q Hq. unfold pmex_U. simpl. ring.
  - unfold pmex_s. simpl. ring.
Qed.

(** This example has a canonical form (with at most two classes). *)
Example pmex_canonical : exists k' U' s' G' L' l0', (k' <= 2)%nat /\
  generic_bias_signs 1 k' U' s' G' /\
  same_fun 1 (bias_ridge_form gelu 1 2 pmex_U pmex_s pmex_G (fun _ _ => 0) (fun _ => 0))
             (bias_ridge_form gelu 1 k' U' s' G' L' l0').
Proof. exact (gelu_bias_ridge_form_canonical 2 1 2 _ _ _ _ _ (le_n 2)). Qed.
