(** * Every biased ReLU block is decided by R8's width condition (paper.md R9)

    A biased ridge form ([BiasRidgeForm.bias_ridge_form], ReLU) is made
    canonical ([generic_bias_lines d k U s G]: [u_t <> 0], the augmented rows
    [(u_t, s_t)] pairwise independent, every kink vector [G[:,t] <> 0])
    without changing the function and without adding classes.  The steps
    hold for any activation [sigma]:
    - [drop_zero_kink]: a class with [G[:,j] = 0] is deleted;
    - [drop_constant_class]: a class with [u_j = 0] is the constant
      [G[:,j] sigma(s_j)], moved into [l0];
    - [merge_bias_class]: a class [(u_j, s_j) = c (u_i, s_i)] is merged into
      class [i] when [sigma] obeys the scale law at [c]
      ([sigma(c z) = |c| sigma z - [c < 0] |c| z], [GroupingSound.scale_law];
      ReLU: every [c], [relu_scale_any]);
    - [bias_ridge_form_canonical_by]: by induction on [k], for any notion of
      canonical classes whose failure yields such a pair (also used for the
      GELU family in [PmBiasCanonical.v]);
    - [bias_ridge_form_canonical]: its instance for ReLU and lines;
    - [relu_bias_block_decided] (headline): for every biased ReLU block
      [x + B relu(A x + c) + b0] there is a canonical biased ridge form with at
      most [n] classes, equal to the block, such that for every width [m] the
      block is absorbable at width [m] iff [width_condition d k m U G L]
      (R8 with biases, [ReluBiasNecessity.relu_bias_form_iff]). *)

From Coq Require Import Reals Lra Lia Arith Classical.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry FiniteMaps
  Ridge ReluSubmatrix Biases BiasSpec AugRows AffineRidge ReluBias RidgeForm BiasRidgeForm
  ReluBiasGrouping ReluBiasNecessity.
Open Scope R_scope.

(** ** Deleting index [j] from [0 .. N] *)

Definition bskip (j t : nat) : nat := if Nat.ltb t j then t else S t.

Lemma sumn_bskip N (f : nat -> R) j : (j <= N)%nat ->
  sumn (S N) f = f j + sumn N (fun t => f (bskip j t)).
Proof.
  induction N as [|N IH]; intros Hj.
  - replace j with 0%nat by lia. simpl. ring.
  - destruct (Nat.eq_dec j (S N)) as [->|Hne].
    + rewrite sumn_S. rewrite (sumn_ext (S N) (fun t => f (bskip (S N) t)) f); [ring|].
      intros t Ht. unfold bskip. apply Nat.ltb_lt in Ht. rewrite Ht. reflexivity.
    + rewrite sumn_S, IH by lia. rewrite (sumn_S N (fun t => f (bskip j t))).
      unfold bskip at 3. destruct (Nat.ltb_spec N j); [lia|]. ring.
Qed.

Lemma bskip_lt j N t : (t < N)%nat -> (bskip j t < S N)%nat.
Proof. unfold bskip. destruct (Nat.ltb_spec t j); lia. Qed.

Lemma bskip_ne j t : bskip j t <> j.
Proof. unfold bskip. destruct (Nat.ltb_spec t j); lia. Qed.

(** Exactly one [t < N] is sent to [i <> j]. *)
Lemma sumn_bskip_delta N j i (g : R) : (j <= N)%nat -> (i < S N)%nat -> i <> j ->
  sumn N (fun t => if Nat.eq_dec (bskip j t) i then g else 0) = g.
Proof.
  intros Hj Hi Hne.
  set (t0 := if Nat.ltb i j then i else pred i).
  assert (Ht0 : (t0 < N)%nat) by (unfold t0; destruct (Nat.ltb_spec i j); lia).
  rewrite (sumn_ext N _ (fun t => if Nat.eq_dec t0 t then g else 0)).
  - apply (sumn_delta N t0 (fun _ => g) Ht0).
  - intros t Ht. unfold bskip, t0.
    destruct (Nat.ltb_spec t j), (Nat.ltb_spec i j);
      destruct (Nat.eq_dec _ i), (Nat.eq_dec _ t); try reflexivity; lia.
Qed.

Definition bskip_rows (U : mat) (j : nat) : mat := fun t q => U (bskip j t) q.
Definition bskip_vec (s : vec) (j : nat) : vec := fun t => s (bskip j t).
Definition bskip_cols (G : mat) (j : nat) : mat := fun p t => G p (bskip j t).

(** ** Deleting and merging one class *)

Lemma drop_zero_kink sigma d N U s (G L : mat) l0 j : (j <= N)%nat ->
  (forall p, (p < d)%nat -> G p j = 0) ->
  same_fun d (bias_ridge_form sigma d (S N) U s G L l0)
             (bias_ridge_form sigma d N (bskip_rows U j) (bskip_vec s j) (bskip_cols G j) L l0).
Proof.
  intros Hj HG x p Hp. unfold bias_ridge_form. rewrite (sumn_bskip N _ j Hj), (HG p Hp).
  unfold bskip_rows, bskip_vec, bskip_cols, row. ring.
Qed.

Lemma drop_constant_class sigma d N U s (G L : mat) l0 j : (j <= N)%nat ->
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

Definition merged_kinks (G : mat) (j i : nat) (c : R) : mat :=
  fun p t => G p (bskip j t) + (if Nat.eq_dec (bskip j t) i then Rabs c * G p j else 0).

Definition merged_linear (L G U : mat) (j i : nat) (c : R) : mat :=
  fun p q => L p q + (- (if Rlt_dec c 0 then Rabs c * G p j else 0)) * U i q.

Definition merged_const (l0 : vec) (G : mat) (s : vec) (j i : nat) (c : R) : vec :=
  fun p => l0 p - (if Rlt_dec c 0 then Rabs c * G p j * s i else 0).

Lemma merge_bias_class sigma d N U s (G L : mat) l0 j i c : scale_law sigma c ->
  (j <= N)%nat -> (i < S N)%nat -> i <> j ->
  (forall q, (q < d)%nat -> U j q = c * U i q) -> s j = c * s i ->
  same_fun d (bias_ridge_form sigma d (S N) U s G L l0)
             (bias_ridge_form sigma d N (bskip_rows U j) (bskip_vec s j) (merged_kinks G j i c)
                (merged_linear L G U j i c) (merged_const l0 G s j i c)).
Proof.
  intros Hsc Hj Hi Hne HU Hs x p Hp. unfold bias_ridge_form. rewrite (sumn_bskip N _ j Hj).
  unfold merged_linear. rewrite (mv_add_outer d L _ (row U i) x p).
  rewrite (parallel_dot d (row U j) (row U i) c x HU), Hs.
  replace (c * dot d (row U i) x + c * s i) with (c * (dot d (row U i) x + s i)) by ring.
  rewrite (Hsc (dot d (row U i) x + s i)).
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

(** ** Canonical forms *)

Lemma same_fun_trans_b d (f g h : vec -> vec) :
  same_fun d f g -> same_fun d g h -> same_fun d f h.
Proof. intros H1 H2 x p Hp. rewrite (H1 x p Hp). exact (H2 x p Hp). Qed.

Lemma not_nonzero_vec_zero d (u : vec) : ~ nonzero_vec d u -> forall q, (q < d)%nat -> u q = 0.
Proof.
  intros H q Hq. destruct (Req_EM_T (u q) 0) as [Z|Z]; [exact Z|].
  exfalso. apply H. exists q. split; assumption.
Qed.

(** Dependent augmented rows with nonzero linear parts are proportional. *)
Lemma dependent_aug_proportional d U s i j :
  nonzero_vec d (row U i) -> nonzero_vec d (row U j) ->
  ~ lin_independent2 (S d) (aug_row d U s i) (aug_row d U s j) ->
  exists c, (forall q, (q < d)%nat -> U j q = c * U i q) /\ s j = c * s i.
Proof.
  intros Hi Hj Hdep.
  apply not_all_ex_not in Hdep as [al Hdep]. apply not_all_ex_not in Hdep as [be Hdep].
  apply imply_to_and in Hdep as [Hcomb Hnz].
  assert (Hbe : be <> 0).
  { intros Z. apply Hnz. split; [|exact Z].
    destruct Hi as [q [Hq Hu]]. pose proof (Hcomb q ltac:(lia)) as E.
    rewrite !aug_row_coord in E by exact Hq. unfold row in Hu. rewrite Z in E.
    assert (E' : al * U i q = 0) by lra.
    apply Rmult_integral in E' as [E'|E']; [exact E'|]. lra. }
  exists (- al / be). split.
  - intros q Hq. pose proof (Hcomb q ltac:(lia)) as E. rewrite !aug_row_coord in E by exact Hq.
    apply (Rmult_eq_reg_l be); [|exact Hbe]. field_simplify; [|exact Hbe]. lra.
  - pose proof (Hcomb d ltac:(lia)) as E. rewrite !aug_row_bias_coord in E.
    apply (Rmult_eq_reg_l be); [|exact Hbe]. field_simplify; [|exact Hbe]. lra.
Qed.

(** The induction, for any [sigma] and any notion [gen] of canonical classes
    that holds without classes and whose failure, with every [u_t] and every
    [G[:,t]] nonzero, yields classes [(u_j, s_j) = c (u_i, s_i)] with the scale
    law at [c]. *)
Theorem bias_ridge_form_canonical_by (sigma : R -> R)
    (gen : nat -> nat -> mat -> vec -> mat -> Prop) :
  (forall d U s G, gen d 0%nat U s G) ->
  (forall d N U s G, (forall j, (j < S N)%nat -> nonzero_vec d (row U j)) ->
     (forall j, (j < S N)%nat -> nonzero_vec d (col G j)) -> ~ gen d (S N) U s G ->
     exists i j c, (i < S N)%nat /\ (j < S N)%nat /\ i <> j /\
       (forall q, (q < d)%nat -> U j q = c * U i q) /\ s j = c * s i /\ scale_law sigma c) ->
  forall n d k U s (G L : mat) l0, (k <= n)%nat ->
  exists k' U' s' G' L' l0', (k' <= k)%nat /\ gen d k' U' s' G' /\
    same_fun d (bias_ridge_form sigma d k U s G L l0) (bias_ridge_form sigma d k' U' s' G' L' l0').
Proof.
  intros H0 Hdep. induction n as [|n IH]; intros d k U s G L l0 Hk.
  - exists 0%nat, U, s, G, L, l0. split; [lia|]. split; [apply H0|].
    replace k with 0%nat by lia. intros x p Hp. reflexivity.
  - destruct (classic (gen d k U s G)) as [Hg|Hng].
    { exists k, U, s, G, L, l0. split; [lia|]. split; [exact Hg|]. intros x p Hp. reflexivity. }
    destruct k as [|N]; [exfalso; exact (Hng (H0 d U s G))|].
    (* one step of deletion or merging, then induction *)
    assert (Hstep : exists U1 s1 (G1 L1 : mat) l01,
      same_fun d (bias_ridge_form sigma d (S N) U s G L l0)
      (bias_ridge_form sigma d N U1 s1 G1 L1 l01)).
    { destruct (classic (exists j, (j < S N)%nat /\ ~ nonzero_vec d (row U j))) as [[j [Hj Hz]]|HU].
      { exists (bskip_rows U j), (bskip_vec s j), (bskip_cols G j), L,
               (fun p => l0 p + G p j * sigma (s j)).
        apply drop_constant_class; [lia|]. intros q Hq. exact (not_nonzero_vec_zero d _ Hz q Hq). }
      assert (HU' : forall j, (j < S N)%nat -> nonzero_vec d (row U j)).
      { intros j Hj. apply NNPP. intros C. apply HU. exists j. split; assumption. }
      destruct (classic (exists j, (j < S N)%nat /\ ~ nonzero_vec d (col G j))) as [[j [Hj Hz]]|HG].
      { exists (bskip_rows U j), (bskip_vec s j), (bskip_cols G j), L, l0.
        apply drop_zero_kink; [lia|]. intros p Hp. exact (not_nonzero_vec_zero d _ Hz p Hp). }
      assert (HG' : forall j, (j < S N)%nat -> nonzero_vec d (col G j)).
      { intros j Hj. apply NNPP. intros C. apply HG. exists j. split; assumption. }
      destruct (Hdep d N U s G HU' HG' Hng) as [i [j [c [Hi [Hj [Hne [Hc [Hcs Hsc]]]]]]]].
      exists (bskip_rows U j), (bskip_vec s j), (merged_kinks G j i c),
             (merged_linear L G U j i c), (merged_const l0 G s j i c).
      apply merge_bias_class; [exact Hsc | lia | exact Hi | exact Hne | exact Hc | exact Hcs]. }
    destruct Hstep as [U1 [s1 [G1 [L1 [l01 H1]]]]].
    destruct (IH d N U1 s1 G1 L1 l01 ltac:(lia)) as [k' [U' [s' [G' [L' [l0' [Hk' [Hg' H2]]]]]]]].
    exists k', U', s', G', L', l0'. split; [lia|]. split; [exact Hg'|].
    exact (same_fun_trans_b d _ _ _ H1 H2).
Qed.

Theorem bias_ridge_form_canonical : forall n d k U s (G L : mat) l0, (k <= n)%nat ->
  exists k' U' s' G' L' l0', (k' <= k)%nat /\ generic_bias_lines d k' U' s' G' /\
    same_fun d (bias_ridge_form relu d k U s G L l0) (bias_ridge_form relu d k' U' s' G' L' l0').
Proof.
  apply bias_ridge_form_canonical_by; [intros; split; [|split]; intros; lia|].
  intros d N U s G HU HG Hng. apply NNPP. intros Hind. apply Hng. split; [exact HU|].
  split; [|exact HG].
  intros i j Hi Hj Hne. apply NNPP. intros Hdep. apply Hind.
  destruct (dependent_aug_proportional d U s i j (HU i Hi) (HU j Hj) Hdep) as [c [Hc Hcs]].
  exists i, j, c. do 5 (split; [assumption|]). exact (relu_scale_any c).
Qed.

(** ** Every biased ReLU block is decided *)

Theorem relu_bias_block_decided : forall d n A c B b0,
  exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_bias_lines d k U s G /\
    same_fun d (residual d identity (ungated_bias relu d n A c B b0))
               (bias_ridge_form relu d k U s G L l0) /\
    forall m, absorbable_ungated_bias relu d n m identity A c B b0 <-> width_condition d k m U G L.
Proof.
  intros d n A c B b0.
  destruct (bias_ridge_form_canonical n d n A c B identity b0 (le_n n))
    as [k [U [s [G [L [l0 [Hk [Hg Hs]]]]]]]].
  assert (Hres : same_fun d (residual d identity (ungated_bias relu d n A c B b0))
                            (bias_ridge_form relu d k U s G L l0))
    by exact (same_fun_trans_b d _ _ _ (residual_is_bias_ridge_form relu d n A c B b0) Hs).
  exists k, U, s, G, L, l0. split; [exact Hk|]. split; [exact Hg|]. split; [exact Hres|].
  intros m. rewrite <- (relu_bias_form_iff d k m U s G L l0 Hg). split.
  - intros [A' [c' [B' [b0' H]]]]. exists A', c', B', b0'.
    exact (same_fun_trans_b d _ _ _ H Hres).
  - intros [A' [c' [B' [b0' H]]]]. exists A', c', B', b0'. intros x p Hp.
    rewrite (H x p Hp). symmetry. exact (Hres x p Hp).
Qed.

(** Never below the number of canonical classes. *)
Corollary relu_bias_block_not_below_classes : forall d n A c B b0,
  exists k, (k <= n)%nat /\
    forall m, (m < k)%nat -> ~ absorbable_ungated_bias relu d n m identity A c B b0.
Proof.
  intros d n A c B b0.
  destruct (relu_bias_block_decided d n A c B b0) as [k [U [s [G [L [l0 [Hk [Hg [_ Hiff]]]]]]]]].
  exists k. split; [exact Hk|]. intros m Hm Habs. apply Hiff in Habs.
  destruct Habs as [T [S [r [E [P [Q [_ [Hw _]]]]]]]]. lia.
Qed.

(** ** Non-vacuity *)

(** The merge step on [x + relu(x + 1) + relu(2 x + 2)] ([L = I], classes
    [(1, 1)] and [(2, 2) = 2 (1, 1)]): class 1 merges into class 0.
    ([relu_bias_block_decided] itself has no hypotheses.) *)
Example merge_bias_class_instance :
  same_fun 1 (bias_ridge_form relu 1 2 (fun t _ => INR (S t)) (fun t => INR (S t))
                (fun _ _ => 1) identity (fun _ => 0))
             (bias_ridge_form relu 1 1 (bskip_rows (fun t _ => INR (S t)) 1)
                (bskip_vec (fun t => INR (S t)) 1) (merged_kinks (fun _ _ => 1) 1 0 2)
                (merged_linear identity (fun _ _ => 1) (fun t _ => INR (S t)) 1 0 2)
                (merged_const (fun _ => 0) (fun _ _ => 1) (fun t => INR (S t)) 1 0 2)).
Proof.
  apply merge_bias_class; [exact (relu_scale_any 2) | lia | lia | lia | |]; intros; simpl; ring.
Qed.
