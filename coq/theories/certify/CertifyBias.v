(** * CertifyBias: certificates for blocks with biases (R9, generic case)

    A biased block [x + B sigma(A x + c) + b0] is given as data: the rows of
    [A] and the bias [c] share one denominator and one list per row, the
    augmented row [(a_i, c_i)] ([d + 1] entries): [A = mat_of_rows dA RA]
    (only the first [d] entries are read by the block) and
    [c = aug_bias d dA RA] (entry [d] of each row).
    - [generic_bias_lines_of_checks]: [check_bias_nonzero] (every [a_i] and
      [b_i] nonzero) and [check_generic] in dimension [d + 1] on the augmented
      rows (pairwise independent) give [generic_bias_lines];
    - [cert_bias_not_absorbable]: for any [sigma] whose R9 (=>) holds on
      generic-with-biases weights ([bias_lines_property]), those checks and a
      no-subset certificate ([check_nosub]) refute absorbability at width [n];
    - [cert_bias_not_absorbable_below]: the same checks and [m < n] refute
      width [m] for any [sigma] with [bias_below_property];
    - [cert_bias_not_absorbable_partial] (width [n]) and
      [cert_bias_not_absorbable_below_partial] ([m < n]): from a block of the
      weights only (columns [R] of [W_up], rows [R] of [W_down], as
      [Certify.cert_generic_not_absorbable_partial]; the biases are not read),
      stated for EVERY [A c B b0] agreeing with the block: the block's
      [check_generic_sorted] gives [generic] for the full weights, which gives
      [generic_bias_lines] whatever the biases ([generic_bias_lines_of_generic]);
    - instances for ReLU: [relu_bias_lines_property], [relu_bias_below_property];
      [lines_of_signs_property], [below_of_signs_property] and
      [signs_property_of_iff] turn statements on [generic_bias_signs] (the GELU
      family's hypothesis: GELU, GELU_tanh, SiLU in [bias/]) into ones on
      [generic_bias_lines].
    Examples: [bx_relu_not_absorbable] (width [n]), [bx_relu_not_absorbable_below],
    a rejected tampered genericity check; partial: [bp_relu_not_absorbable],
    [bp_relu_not_absorbable_below], [bp_agrees] (the premises are satisfiable),
    [bp_parallel_rejected]. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63.
From Absorb Require Import Sums Blocks ActivationDefs BiasBlocks RidgeForm BiasSpec ReluBias.
From Absorb Require Import IntSums Modular SubsetTargets CheckNoSubset CheckGeneric Certify RowWalk.
Import ListNotations.
Open Scope bool_scope.

(** The bias read from entry [d] of each augmented row. *)
Definition aug_bias (d : nat) (dA : Z) (RA : list (list int)) : vec :=
  fun i => mat_of_rows dA RA i d.

(** Every row of [A] and every column of [B] has a nonzero entry among the first [d]. *)
Definition check_bias_nonzero (d n : nat) (RA CB : list (list int)) : bool :=
  forall_rows (nonzero_row d) n RA && forall_rows (nonzero_row d) n CB.

(** R9 (=>) at width [n] for [sigma], on weights generic with biases (lines). *)
Definition bias_lines_property (sigma : R -> R) : Prop :=
  forall d n A c B b0, generic_bias_lines d n A c B ->
    absorbable_ungated_bias sigma d n n identity A c B b0 -> exists S, submatrix_cond d n S A B.

(** The same with the weaker hypothesis of the GELU family. *)
Definition bias_signs_property (sigma : R -> R) : Prop :=
  forall d n A c B b0, generic_bias_signs d n A c B ->
    absorbable_ungated_bias sigma d n n identity A c B b0 -> exists S, submatrix_cond d n S A B.

(** Widths below [n] never, for generic weights with biases. *)
Definition bias_below_property (sigma : R -> R) : Prop :=
  forall d n m A c B b0, generic_bias_lines d n A c B -> (m < n)%nat ->
    ~ absorbable_ungated_bias sigma d n m identity A c B b0.

(** Below [n], with the GELU family's hypothesis. *)
Definition bias_below_signs_property (sigma : R -> R) : Prop :=
  forall d n m A c B b0, generic_bias_signs d n A c B -> (m < n)%nat ->
    ~ absorbable_ungated_bias sigma d n m identity A c B b0.

Lemma generic_bias_lines_signs d n A c B : generic_bias_lines d n A c B ->
    generic_bias_signs d n A c B.
Proof.
  intros [H1 [H2 H3]]. split; [exact H1|]. split; [|exact H3].
  intros i j Hi Hj Hij [E|E].
  - destruct (H2 i j Hi Hj Hij 1 (-1)) as [C _]; [intros k Hk; rewrite (E k Hk); ring | lra].
  - destruct (H2 i j Hi Hj Hij 1 1) as [C _]; [intros k Hk; rewrite (E k Hk); ring | lra].
Qed.

Lemma lines_of_signs_property sigma : bias_signs_property sigma -> bias_lines_property sigma.
Proof.
  intros H d n A c B b0 Hg. exact (H d n A c B b0 (generic_bias_lines_signs d n A c B Hg)).
Qed.

Lemma below_of_signs_property sigma : bias_below_signs_property sigma -> bias_below_property sigma.
Proof.
  intros H d n m A c B b0 Hg. exact (H d n m A c B b0 (generic_bias_lines_signs d n A c B Hg)).
Qed.

(** The (=>) half of an R9 iff on [generic_bias_signs]. *)
Lemma signs_property_of_iff sigma :
  (forall d n A c B b0, generic_bias_signs d n A c B ->
     (absorbable_ungated_bias sigma d n n identity A c B b0 <->
       exists S, submatrix_cond d n S A B)) ->
  bias_signs_property sigma.
Proof. intros H d n A c B b0 Hg. exact (proj1 (H d n A c B b0 Hg)). Qed.

Lemma relu_bias_lines_property : bias_lines_property relu.
Proof. exact relu_bias_absorbable_generic_submatrix. Qed.

Lemma relu_bias_below_property : bias_below_property relu.
Proof. exact relu_bias_generic_not_absorbable_below. Qed.

(** ** Genericity with biases from the checkers *)

Lemma aug_row_data d dA RA i k : (k < S d)%nat ->
  aug_row d (mat_of_rows dA RA) (aug_bias d dA RA) i k = row (mat_of_rows dA RA) i k.
Proof.
  intros Hk. unfold aug_row, aug_bias, row. destruct (Nat.ltb k d) eqn:E; [reflexivity|].
  apply Nat.ltb_ge in E. replace k with d by lia. reflexivity.
Qed.

Theorem generic_bias_lines_of_checks d n dA dB RA CB pg U V :
  (0 < dA)%Z -> (0 < dB)%Z ->
  check_bias_nonzero d n RA CB = true -> check_generic (S d) n RA CB pg U V = true ->
  generic_bias_lines d n (mat_of_rows dA RA) (aug_bias d dA RA) (mat_of_cols dB CB).
Proof.
  intros HA HB Hnz Hg. unfold check_bias_nonzero in Hnz. rewrite !forall_rows_spec in Hnz.
  apply andb_prop in Hnz as [HAr HBc].
  rewrite forallb_forall in HAr, HBc.
  destruct (check_generic_sound (S d) n dA dB RA CB pg U V Hg HA HB) as [_ [Hpair _]].
  split; [|split].
  - intros i Hi. exact (nonzero_row_mat d dA RA i HA (HAr i ltac:(apply in_seq; lia))).
  - intros i j Hi Hj Hij alpha beta H. apply (Hpair i j Hi Hj Hij alpha beta).
    intros k Hk. rewrite <- (aug_row_data d dA RA i k Hk), <- (aug_row_data d dA RA j k Hk).
    exact (H k Hk).
  - intros i Hi. exact (nonzero_col_mat d dB CB i HB (HBc i ltac:(apply in_seq; lia))).
Qed.

(** ** Certificate lemmas *)

Theorem cert_bias_not_absorbable sigma (r9 : bias_lines_property sigma) d n dA dB RA CB (b0 : vec)
    pg U V p F FS :
  check_bias_nonzero d n RA CB = true ->
  check_generic (S d) n RA CB pg U V = true ->
  check_nosub d n dA dB 1 RA CB (id_rows d) p F FS = true ->
  ~ absorbable_ungated_bias sigma d n n identity (mat_of_rows dA RA) (aug_bias d dA RA)
      (mat_of_cols dB CB) b0.
Proof.
  intros Hnz Hg Hn Habs. destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ Hn) as [HA HB].
  destruct (r9 d n _ _ _ b0 (generic_bias_lines_of_checks d n dA dB RA CB pg U V HA HB Hnz Hg) Habs)
    as [S HS].
  exact (check_nosub_identity d n dA dB RA CB p F FS Hn S HS).
Qed.

Theorem cert_bias_not_absorbable_below sigma (below : bias_below_property sigma) d n m dA dB RA CB
    (b0 : vec) pg U V :
  (0 <? dA)%Z = true -> (0 <? dB)%Z = true ->
  check_bias_nonzero d n RA CB = true ->
  check_generic (S d) n RA CB pg U V = true ->
  Nat.ltb m n = true ->
  ~ absorbable_ungated_bias sigma d n m identity (mat_of_rows dA RA) (aug_bias d dA RA)
      (mat_of_cols dB CB) b0.
Proof.
  intros HA HB Hnz Hg Hm. apply Z.ltb_lt in HA, HB. apply Nat.ltb_lt in Hm.
  exact
    (below d n m _ _ _ b0 (generic_bias_lines_of_checks d n dA dB RA CB pg U V HA HB Hnz Hg) Hm).
Qed.

(** ** Partial certificates: a block of the weights, biases not read

    As [Certify.cert_generic_not_absorbable_partial]: the data are columns [R]
    of [W_up] ([RA]) and rows [R] of [W_down] ([CB]).  If the rows of [W_up]
    restricted to [R] are nonzero and pairwise independent and the rows [R] of
    [W_down] have a nonzero entry in every column ([generic] on the block, by
    [check_generic_sorted]), then the full weights are [generic], and [generic]
    implies [generic_bias_lines] for EVERY bias [c] (a relation between two
    augmented rows restricts to one between the rows [a_i], [a_j]).  So neither
    [c] nor [b0] is read: the verdict holds for every [A c B b0] with [A], [B]
    agreeing with the block. *)

Lemma generic_bias_lines_of_generic d n A c B : generic d n A B -> generic_bias_lines d n A c B.
Proof.
  intros [H1 [H2 H3]]. split; [exact H1|]. split; [|exact H3].
  intros i j Hi Hj Hij alpha beta H. apply (H2 i j Hi Hj Hij alpha beta).
  intros k Hk. pose proof (H k ltac:(lia)) as E. unfold aug_row in E.
  apply Nat.ltb_lt in Hk. rewrite Hk in E. exact E.
Qed.

(** R9 (=>) and no subset: generic (bias-free sense) blocks are not absorbable with any biases. *)
Lemma bias_not_absorbable_of_generic sigma (r9 : bias_lines_property sigma) d n A c B b0 :
  generic d n A B -> (forall S, ~ submatrix_cond d n S A B) ->
  ~ absorbable_ungated_bias sigma d n n identity A c B b0.
Proof.
  intros Hg Hn Habs.
  destruct (r9 d n A c B b0 (generic_bias_lines_of_generic d n A c B Hg) Habs) as [S HS].
  exact (Hn S HS).
Qed.

Lemma bias_below_of_generic sigma (below : bias_below_property sigma) d n m A c B b0 :
  generic d n A B -> (m < n)%nat -> ~ absorbable_ungated_bias sigma d n m identity A c B b0.
Proof.
  intros Hg Hm. exact (below d n m A c B b0 (generic_bias_lines_of_generic d n A c B Hg) Hm).
Qed.

Section BiasPartial.

Variable sigma : R -> R.
Variables (d n : nat) (R : list nat) (dA dB : Z) (RA CB : list (list int)) (pg : int)
    (U V : list int).

(** The block's genericity gives the full weights' genericity. *)
Lemma generic_of_block (A B : mat) :
  index_ok d R = true -> (0 < dA)%Z -> (0 < dB)%Z ->
  check_generic_sorted (length R) n RA CB pg U V = true ->
  agrees_up n R dA RA A -> agrees_down n R dB CB B -> generic d n A B.
Proof.
  intros Hok HdA HdB Hg HA HB.
  exact (generic_restrict d n R A B _ _ (index_ok_lt d R Hok) HA HB
           (check_generic_sorted_sound _ n dA dB RA CB pg U V Hg HdA HdB)).
Qed.

(** Width [n]: not absorbable, for every [(W_up, c, W_down, b0)] agreeing with the block. *)
Theorem cert_bias_not_absorbable_partial (r9 : bias_lines_property sigma) (p : int) (F : list nat)
    (FS : list (option nat * functional)) :
  index_ok d R = true ->
  check_generic_sorted (length R) n RA CB pg U V = true ->
  check_nosub (length R) n dA dB 1 RA CB (id_rows (length R)) p F FS = true ->
  forall (A : mat) (c : vec) (B : mat) (b0 : vec), agrees_up n R dA RA A ->
    agrees_down n R dB CB B ->
  ~ absorbable_ungated_bias sigma d n n identity A c B b0.
Proof.
  intros Hok Hg Hn A c B b0 HA HB.
  destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ Hn) as [HdA HdB].
  apply (bias_not_absorbable_of_generic sigma r9);
    [exact (generic_of_block A B Hok HdA HdB Hg HA HB)|].
  intros S HS.
  exact
    (check_nosub_identity _ n dA dB RA CB p F FS Hn S
      (submatrix_restrict d n R S A B _ _ Hok HA HB HS)).
Qed.

(** Width [m < n]: genericity on the block alone. *)
Theorem cert_bias_not_absorbable_below_partial (below : bias_below_property sigma) (m : nat) :
  index_ok d R = true -> (0 <? dA)%Z = true -> (0 <? dB)%Z = true ->
  check_generic_sorted (length R) n RA CB pg U V = true -> Nat.ltb m n = true ->
  forall (A : mat) (c : vec) (B : mat) (b0 : vec), agrees_up n R dA RA A ->
    agrees_down n R dB CB B ->
  ~ absorbable_ungated_bias sigma d n m identity A c B b0.
Proof.
  intros Hok HdA HdB Hg Hm A c B b0 HA HB. apply Z.ltb_lt in HdA, HdB. apply Nat.ltb_lt in Hm.
  exact
    (bias_below_of_generic sigma below d n m A c B b0
      (generic_of_block A B Hok HdA HdB Hg HA HB) Hm).
Qed.

End BiasPartial.

(** ** Instances *)

(** [d = 1], [n = 2]: rows [a = 1] with biases [0] and [1] (parallel, so not
    [generic], but generic with biases), [B = (1, 1)].  The augmented rows are
    [(1, 0)] and [(1, 1)]; no subset sums to [-1], so the ReLU block is not
    absorbable at width [2], and not at width [1]. *)
Definition bx_RA : list (list int) := [[1%uint63; 0%uint63]; [1%uint63; 1%uint63]].
Definition bx_CB : list (list int) := [[1%uint63]; [1%uint63]].

Example bx_checks :
  check_bias_nonzero 1 2 bx_RA bx_CB = true /\
  check_generic 2 2 bx_RA bx_CB 2147483647 [1%uint63; 0%uint63] [0%uint63; 1%uint63] = true.
Proof. split; vm_compute; reflexivity. Qed.

Example bx_generic : generic_bias_lines 1 2 (mat_of_rows 1 bx_RA) (aug_bias 1 1 bx_RA)
    (mat_of_cols 1 bx_CB).
Proof.
  apply
    (generic_bias_lines_of_checks 1 2 1 1 bx_RA bx_CB 2147483647 [1%uint63; 0%uint63]
      [0%uint63; 1%uint63]);
    [lia | lia | exact (proj1 bx_checks) | exact (proj2 bx_checks)].
Qed.

Example bx_relu_not_absorbable_below (b0 : vec) :
  ~ absorbable_ungated_bias relu 1 2 1 identity (mat_of_rows 1 bx_RA) (aug_bias 1 1 bx_RA)
      (mat_of_cols 1 bx_CB) b0.
Proof.
  apply (cert_bias_not_absorbable_below relu relu_bias_below_property 1 2 1 1 1 bx_RA bx_CB b0
           2147483647 [1%uint63; 0%uint63] [0%uint63; 1%uint63]); vm_compute; reflexivity.
Qed.

(** Width [n = 2]: no subset of [b_i a_i = 1, 1] sums to [-1] (one functional,
    free index [1]); so the ReLU block is not absorbable at its own width. *)
Definition bx_FS : list (option nat * functional) := [(Some 0%nat, [(0%nat, [1%uint63])])].

Example bx_relu_not_absorbable (b0 : vec) :
  ~ absorbable_ungated_bias relu 1 2 2 identity (mat_of_rows 1 bx_RA) (aug_bias 1 1 bx_RA)
      (mat_of_cols 1 bx_CB) b0.
Proof.
  apply (cert_bias_not_absorbable relu relu_bias_lines_property 1 2 1 1 bx_RA bx_CB b0
           2147483647 [1%uint63; 0%uint63] [0%uint63; 1%uint63] 1904553449 [1%nat] bx_FS);
    vm_compute; reflexivity.
Qed.

(** A tampered certificate is rejected: the augmented rows [(1, 0)], [(2, 0)] are parallel. *)
Example bx_parallel_rejected :
  check_generic 2 2 [[1%uint63; 0%uint63]; [2%uint63; 0%uint63]] bx_CB 2147483647
    [1%uint63; 0%uint63] [0%uint63; 1%uint63] = false.
Proof. vm_compute. reflexivity. Qed.

(** Partial certificates.  [d = 3], [n = 2], block [R = [0; 1]]: the rows of
    [W_up] restricted to columns [0, 1] are [(1, 0)], [(0, 1)] and rows [0, 1]
    of [W_down] are [I]; no subset gives [-I] on the block (functional: entry
    [(0, 0)], free index [1]).  So every ReLU block agreeing there, with ANY
    biases and any third column / row, is not absorbable at width [2], nor at
    width [1]. *)
Definition bp_R : list nat := [0%nat; 1%nat].
Definition bp_RA : list (list int) := [[1%uint63; 0%uint63]; [0%uint63; 1%uint63]].
Definition bp_CB : list (list int) := [[1%uint63; 0%uint63]; [0%uint63; 1%uint63]].
Definition bp_FS : list (option nat * functional) :=
  [(Some 0%nat, [(0%nat, [1%uint63; 0%uint63])])].

Example bp_checks :
  index_ok 3 bp_R = true /\
  check_generic_sorted 2 2 bp_RA bp_CB 2147483647 [1%uint63; 2%uint63]
    [1%uint63; 1%uint63] = true /\
  check_nosub 2 2 1 1 1 bp_RA bp_CB (id_rows 2) 1904553449 [1%nat] bp_FS = true.
Proof. vm_compute. repeat split. Qed.

Example bp_relu_not_absorbable : forall (A : mat) (c : vec) (B : mat) (b0 : vec),
  agrees_up 2 bp_R 1 bp_RA A -> agrees_down 2 bp_R 1 bp_CB B ->
  ~ absorbable_ungated_bias relu 3 2 2 identity A c B b0.
Proof.
  exact
    (cert_bias_not_absorbable_partial relu 3 2 bp_R 1 1 bp_RA bp_CB 2147483647 [1%uint63; 2%uint63]
           [1%uint63; 1%uint63] relu_bias_lines_property 1904553449 [1%nat] bp_FS
           (proj1 bp_checks) (proj1 (proj2 bp_checks)) (proj2 (proj2 bp_checks))).
Qed.

Example bp_relu_not_absorbable_below : forall (A : mat) (c : vec) (B : mat) (b0 : vec),
  agrees_up 2 bp_R 1 bp_RA A -> agrees_down 2 bp_R 1 bp_CB B ->
  ~ absorbable_ungated_bias relu 3 2 1 identity A c B b0.
Proof.
  exact
    (cert_bias_not_absorbable_below_partial relu 3 2 bp_R 1 1 bp_RA bp_CB 2147483647
      [1%uint63; 2%uint63]
           [1%uint63; 1%uint63] relu_bias_below_property 1 eq_refl eq_refl eq_refl
           (proj1 (proj2 bp_checks)) eq_refl).
Qed.

(** The premises are satisfiable: a concrete [(A, c, B, b0)] agrees with the block. *)
Example bp_agrees :
  agrees_up 2 bp_R 1 bp_RA
    (mat_of_rows 1 [[1%uint63; 0%uint63; 5%uint63]; [0%uint63; 1%uint63; 7%uint63]]) /\
  agrees_down 2 bp_R 1 bp_CB
    (mat_of_cols 1 [[1%uint63; 0%uint63; 3%uint63]; [0%uint63; 1%uint63; 3%uint63]]).
Proof.
  split; intros i j Hi Hj.
  - destruct i as [|[|i]]; [| |lia]; (destruct j as [|[|j]]; [| |simpl in Hj; lia]); reflexivity.
  - destruct i as [|[|i]]; [| |simpl in Hi; lia]; (destruct j as [|[|j]]; [| |lia]); reflexivity.
Qed.

(** A tampered block is rejected: the restricted rows [(1, 0)], [(2, 0)] are parallel. *)
Example bp_parallel_rejected :
  check_generic_sorted 2 2 [[1%uint63; 0%uint63]; [2%uint63; 0%uint63]] bp_CB 2147483647
    [1%uint63; 2%uint63] [1%uint63; 1%uint63] = false.
Proof. vm_compute. reflexivity. Qed.
