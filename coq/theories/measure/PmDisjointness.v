(** * R6 at every [d >= 1] for GELU, GELU_tanh, SiLU: genericity up to sign

    paper.md, "Correction to R6 at d = 1": for the GELU family the natural
    genericity is weaker than [generic] (pairwise linear independence, which
    fails for every block at [d = 1 < 2 <= n]): rows [a_i] nonzero and
    pairwise not equal up to sign ([a_i <> +-a_j]), columns [b_i] nonzero,
    [pm_generic d n A B := signs_distinct d n A /\ nonzero_cols d n B].
    - [pm_generic_open], [pm_nongeneric_closed],
      [pm_nongeneric_empty_interior], [pm_nongeneric_null]: for every
      [d >= 1] and [n] the pm-non-generic set is closed, with empty interior,
      and Lebesgue-null (it lies in the finite union of the hyperplanes
      [A i 0 = 0], [B 0 i = 0], [A j 0 = A i 0], [A j 0 = - A i 0], [i <> j];
      [NullSet.graph_union_null]);
    - [pm_bad = Z ∪ pm-non-generic]: [pm_bad_closed], [pm_bad_empty_interior],
      [pm_bad_null];
    - [pm_generic_submatrix_iff]: R5 under the weaker genericity, for every
      [sigma] with [sigma(z) - sigma(-z) = z], [sigma 0 = 0] and ridge
      uniqueness of its even part (R8', [R8.pm_absorbable_iff_form], applied
      to the trivial ridge form [U = A], [G = B], [L = I]: at width
      [m = k = n] the width condition is the submatrix condition);
    - headline [pm_generic_disjointness], with the instances
      [gelu_generically_disjoint_all], [gelu_tanh_generically_disjoint_all],
      [silu_generically_disjoint_all]: for every [d >= 1] and every [n],
      outside the closed, empty-interior, null set [pm_bad d n] the block
      [x + B sigma(A x)] is not absorbable at width [n].
    Non-vacuity: [pm_not_bad_example] ([d = 1], [n = 2], [a = (1, 2)],
    [b = (1, 1)] is outside [pm_bad], though non-generic in the old sense:
    [pm_weaker_example]), hence [gelu_pm_disjointness_example] (and for
    GELU_tanh, SiLU): that block is not absorbable at width 2, while for ReLU
    it is ([Paper.R5_counterexample]); [pm_bad_example] is a point of
    [pm_bad]. *)

From Coq Require Import Reals Lra Lia List Classical.
From Absorb Require Import Sums Blocks ActivationDefs Activations ParamSets NonGeneric NullSet.
From Absorb Require Import ReluSubmatrix Ridge GeluTanhRidge SiluRidge FlipSigns.
From Absorb.decide Require Import RidgeForm.
From Absorb Require WidthCore R8 NullDisjointness.
Import ListNotations.
Open Scope R_scope.

(** ** Genericity up to sign *)

Definition pm_generic (d n : nat) (A B : mat) : Prop := signs_distinct d n A /\ nonzero_cols d n B.

Definition pm_nongeneric (d n : nat) (A B : mat) : Prop := ~ pm_generic d n A B.

Definition pm_bad (d n : nat) (A B : mat) : Prop := in_Z d n A B \/ pm_nongeneric d n A B.

(** ** The pm-generic set is open *)

Lemma diff_stable x y :
  x - y <> 0 -> exists e, 0 < e /\
    forall x' y', Rabs (x' - x) < e -> Rabs (y' - y) < e -> x' - y' <> 0.
Proof.
  intros H. pose proof (Rabs_pos_lt _ H) as Hp.
  exists (Rabs (x - y) / 2). split; [lra|]. intros x' y' Hx Hy E.
  assert (Habs : Rabs (x - y) <= Rabs (y' - y) + Rabs (x' - x)).
  { replace (x - y) with ((y' - y) + - (x' - x)) by lra.
    rewrite <- (Rabs_Ropp (x' - x)). apply Rabs_triang. }
  lra.
Qed.

Lemma sum_stable x y :
  x + y <> 0 -> exists e, 0 < e /\
    forall x' y', Rabs (x' - x) < e -> Rabs (y' - y) < e -> x' + y' <> 0.
Proof.
  intros H. destruct (diff_stable x (- y)) as [e [He Hs]]; [lra|].
  exists e. split; [exact He|]. intros x' y' Hx Hy E.
  apply (Hs x' (- y') Hx); [|lra].
  replace (- y' - - y) with (- (y' - y)) by ring. rewrite Rabs_Ropp. exact Hy.
Qed.

Lemma not_pm_equal_witness d (u v : vec) :
  ~ pm_equal d u v ->
  (exists k, (k < d)%nat /\ u k - v k <> 0) /\ (exists l, (l < d)%nat /\ u l + v l <> 0).
Proof.
  intros H. split.
  - apply NNPP. intros Hn. apply H. left. intros j Hj. apply NNPP. intros Hne.
    apply Hn. exists j. split; [exact Hj | intros E; apply Hne; lra].
  - apply NNPP. intros Hn. apply H. right. intros j Hj. apply NNPP. intros Hne.
    apply Hn. exists j. split; [exact Hj | intros E; apply Hne; lra].
Qed.

Lemma not_pm_equal_of_witness d (u v : vec) k l :
  (k < d)%nat -> (l < d)%nat -> u k - v k <> 0 -> u l + v l <> 0 -> ~ pm_equal d u v.
Proof.
  intros Hk Hl H1 H2 [E|E]; [apply H1; rewrite (E k Hk) | apply H2; rewrite (E l Hl)]; ring.
Qed.

Lemma pm_pair_stable d n A B i j :
  (i < n)%nat -> (j < n)%nat -> ~ pm_equal d (row A i) (row A j) ->
  exists e, 0 < e /\ forall A' B', close d n e A B A' B' -> ~ pm_equal d (row A' i) (row A' j).
Proof.
  intros Hi Hj Hne. destruct (not_pm_equal_witness d _ _ Hne) as [[k [Hk H1]] [l [Hl H2]]].
  unfold row in H1, H2.
  destruct (diff_stable _ _ H1) as [e1 [He1 S1]].
  destruct (sum_stable _ _ H2) as [e2 [He2 S2]].
  exists (Rmin e1 e2). split; [apply Rmin_pos; assumption|].
  pose proof (Rmin_l e1 e2). pose proof (Rmin_r e1 e2).
  intros A' B' Hc. apply (not_pm_equal_of_witness d _ _ k l Hk Hl); unfold row.
  - destruct (Hc i k Hi Hk) as [Ha _]. destruct (Hc j k Hj Hk) as [Hb _]. apply S1; lra.
  - destruct (Hc i l Hi Hl) as [Ha _]. destruct (Hc j l Hj Hl) as [Hb _]. apply S2; lra.
Qed.

Theorem pm_generic_open d n : open_set d n (pm_generic d n).
Proof.
  intros A B [[Hrows Hpairs] Hcols].
  destruct (rows_pairs_cols_open d n (fun u v => ~ pm_equal d u v) (pm_pair_stable d n) A B
              (conj Hrows (conj Hpairs Hcols))) as [e [He H]].
  exists e. split; [exact He|]. intros A' B' Hc. destruct (H A' B' Hc) as [H1 [H2 H3]].
  split; [split|]; assumption.
Qed.

Theorem pm_nongeneric_closed d n : closed_set d n (pm_nongeneric d n).
Proof. exact (open_neg_closed d n _ (pm_generic_open d n)). Qed.

Lemma pm_bad_complement_open d n : open_set d n (fun A B => ~ pm_bad d n A B).
Proof. exact (Z_union_complement_open d n _ (pm_generic_open d n)). Qed.

Theorem pm_bad_closed d n : closed_set d n (pm_bad d n).
Proof. exact (Z_union_closed d n _ (pm_generic_open d n)). Qed.

(** ** The pm-non-generic set has empty interior (every [d >= 1])

    Perturb [A i 0] by [s (i + 1)] and [B 0 i] by [s]: each of the finitely
    many conditions [A i 0 = 0], [B 0 i = 0], [A i 0 = A j 0] ([i <> j]),
    [A i 0 = - A j 0] becomes a linear equation in [s] with nonzero slope. *)

Definition pm_dir (i k : nat) : R := if Nat.eqb k 0 then INR (S i) else 0.

Definition pm_pert_up (A : mat) (s : R) : mat := fun i k => A i k + s * pm_dir i k.

Lemma pm_pert_up_0 A s i : pm_pert_up A s i 0%nat = A i 0%nat + s * INR (S i).
Proof. reflexivity. Qed.

Lemma pert_down_0 B s i : pert_down B s 0%nat i = B 0%nat i + s.
Proof. unfold pert_down, dir_down. simpl. ring. Qed.

Lemma pm_dir_bound n i k : (i < n)%nat -> Rabs (pm_dir i k) <= INR n + 1.
Proof.
  intros Hi. pose proof (pos_INR n). pose proof (le_INR (S i) n ltac:(lia)).
  pose proof (pos_INR (S i)).
  unfold pm_dir. destruct (Nat.eqb k 0); [rewrite Rabs_right; lra | rewrite Rabs_R0; lra].
Qed.

(** A linear equation with nonzero slope has one root. *)
Lemma linear_root a b : b <> 0 -> exists l : list R, forall s, a + b * s = 0 -> In s l.
Proof.
  intros Hb. exists [- a / b]. intros s Hs. left.
  assert (s = - a / b); [|auto]. field_simplify_eq; [lra | exact Hb].
Qed.

Lemma pm_pert_bad_finite n (A B : mat) :
  exists l : list R, forall s,
    (exists i, (i < n)%nat /\ A i 0%nat + s * INR (S i) = 0) \/
    (exists i, (i < n)%nat /\ B 0%nat i + s = 0) \/
    (exists i j, (i < n)%nat /\ (j < n)%nat /\ i <> j /\
       (A i 0%nat + s * INR (S i)) - (A j 0%nat + s * INR (S j)) = 0) \/
    (exists i j, (i < n)%nat /\ (j < n)%nat /\
       (A i 0%nat + s * INR (S i)) + (A j 0%nat + s * INR (S j)) = 0) -> In s l.
Proof.
  destruct (finite_bad_nat (fun i s => A i 0%nat + s * INR (S i) = 0) n) as [l1 H1].
  { intros i _. destruct (linear_root (A i 0%nat) (INR (S i))) as [l Hl].
    - apply not_0_INR. lia.
    - exists l. intros s Hs. apply Hl. lra. }
  destruct (finite_bad_nat (fun i s => B 0%nat i + s = 0) n) as [l2 H2].
  { intros i _. exists [- B 0%nat i]. intros s Hs. left. lra. }
  destruct (finite_bad_nat
    (fun i s => exists j, (j < n)%nat /\ i <> j /\
       (A i 0%nat + s * INR (S i)) - (A j 0%nat + s * INR (S j)) = 0) n) as [l3 H3].
  { intros i _.
    destruct (finite_bad_nat (fun j s => i <> j /\
       (A i 0%nat + s * INR (S i)) - (A j 0%nat + s * INR (S j)) = 0) n) as [l H].
    - intros j _. destruct (Nat.eq_dec i j) as [Eij|Hij].
      + exists []. intros s [Hne _]. contradiction.
      + destruct (linear_root (A i 0%nat - A j 0%nat) (INR (S i) - INR (S j))) as [l Hl].
        * intros E. apply Hij. assert (INR (S i) = INR (S j)) as E' by lra.
          apply INR_eq in E'. lia.
        * exists l. intros s [_ Hs]. apply Hl. lra.
    - exists l. intros s [j [Hj [Hij Hs]]]. apply (H j s Hj). auto. }
  destruct (finite_bad_nat
    (fun i s => exists j, (j < n)%nat /\
       (A i 0%nat + s * INR (S i)) + (A j 0%nat + s * INR (S j)) = 0) n) as [l4 H4].
  { intros i _.
    destruct (finite_bad_nat (fun j s =>
       (A i 0%nat + s * INR (S i)) + (A j 0%nat + s * INR (S j)) = 0) n) as [l H].
    - intros j _. destruct (linear_root (A i 0%nat + A j 0%nat) (INR (S i) + INR (S j))) as [l Hl].
      + pose proof (lt_0_INR (S i) ltac:(lia)). pose proof (lt_0_INR (S j) ltac:(lia)). lra.
      + exists l. intros s Hs. apply Hl. lra.
    - exists l. intros s [j [Hj Hs]]. apply (H j s Hj Hs). }
  exists (l1 ++ l2 ++ l3 ++ l4).
  intros s [[i [Hi Hs]]|[[i [Hi Hs]]|[[i [j [Hi [Hj [Hij Hs]]]]]|[i [j [Hi [Hj Hs]]]]]]];
    rewrite !in_app_iff; [left; apply (H1 i); auto | right; left; apply (H2 i); auto | | ].
  - right; right; left. apply (H3 i); [exact Hi | exists j; auto].
  - right; right; right. apply (H4 i); [exact Hi | exists j; auto].
Qed.

Theorem pm_nongeneric_empty_interior d n :
  (1 <= d)%nat -> empty_interior d n (pm_nongeneric d n).
Proof.
  intros Hd A B e He.
  destruct (pm_pert_bad_finite n A B) as [l Hl].
  apply (pert_escape d n pm_dir _ A B e l He (pm_dir_bound n)). intros s Hnl HN.
  fold (pm_pert_up A s) in HN. apply HN. split; [split|].
  - intros i Hi. exists 0%nat. split; [lia|]. unfold row. rewrite pm_pert_up_0.
    intros E. apply Hnl, Hl. left. exists i. split; [exact Hi | exact E].
  - intros i j Hi Hj Hij. apply (not_pm_equal_of_witness d _ _ 0 0); [lia | lia | |];
      unfold row; rewrite !pm_pert_up_0; intros E; apply Hnl, Hl; right; right.
    + left. exists i, j. auto.
    + right. exists i, j. auto.
  - intros i Hi. exists 0%nat. split; [lia|]. unfold col. rewrite pert_down_0.
    intros E. apply Hnl, Hl. right; left. exists i. split; [exact Hi | exact E].
Qed.

Theorem pm_bad_empty_interior d n : (1 <= d)%nat -> empty_interior d n (pm_bad d n).
Proof.
  intros Hd.
  exact
    (Z_union_empty_interior d n _ Hd (pm_generic_open d n) (pm_nongeneric_empty_interior d n Hd)).
Qed.

(** ** The pm-non-generic set is Lebesgue-null (every [d >= 1]) *)

Lemma pm_nongeneric_cases d n A B :
  (1 <= d)%nat -> pm_nongeneric d n A B ->
  (exists i, (i < n)%nat /\ A i 0%nat = 0) \/
  (exists i, (i < n)%nat /\ B 0%nat i = 0) \/
  (exists i j, (i < n)%nat /\ (j < n)%nat /\ i <> j /\ A j 0%nat = A i 0%nat) \/
  (exists i j, (i < n)%nat /\ (j < n)%nat /\ i <> j /\ A j 0%nat = - A i 0%nat).
Proof.
  intros Hd HN. apply NNPP. intros Hno. apply HN. split; [split|].
  - intros i Hi. exists 0%nat. split; [lia|]. unfold row. intros E.
    apply Hno. left. exists i. auto.
  - intros i j Hi Hj Hij [E|E]; specialize (E 0%nat ltac:(lia)); unfold row in E;
      apply Hno; right; right; [left | right]; exists i, j; repeat split; auto; lra.
  - intros i Hi. exists 0%nat. split; [lia|]. unfold col. intros E.
    apply Hno. right; left. exists i. auto.
Qed.

(** Graph [(0, (i, _))]: [A i 0 = 0]; [(1, (i, _))]: [B 0 i = 0];
    [(2, (i, j))]: [A j 0 = A i 0]; [(3, (i, j))]: [A j 0 = - A i 0]. *)
Definition PM_graphs (n : nat) : list (nat * (nat * nat)) :=
  list_prod (seq 0 4) (list_prod (seq 0 n) (seq 0 n)).

Definition PM_y (g : nat * (nat * nat)) : key :=
  match g with
  | (0%nat, (i, _)) => (i, 0%nat, true)
  | (1%nat, (i, _)) => (i, 0%nat, false)
  | (_, (_, j)) => (j, 0%nat, true)
  end.

Definition PM_F (g : nat * (nat * nat)) (q : key -> R) : R :=
  match g with
  | (2%nat, (i, _)) => q (i, 0%nat, true)
  | (3%nat, (i, _)) => - q (i, 0%nat, true)
  | _ => 0
  end.

Definition PM_good (p : key -> R) (g : nat * (nat * nat)) : Prop :=
  match g with
  | (0%nat, (i, _)) => p (i, 0%nat, true) = 0
  | (1%nat, (i, _)) => p (i, 0%nat, false) = 0
  | (2%nat, (i, j)) => i <> j /\ p (j, 0%nat, true) = p (i, 0%nat, true)
  | (_, (i, j)) => i <> j /\ p (j, 0%nat, true) = - p (i, 0%nat, true)
  end.

Definition PM_piece (d n s : nat) (p : key -> R) : Prop :=
  (forall c, In c (param_coords d n) -> Rabs (p c) <= INR s) /\
  exists g, In g (PM_graphs n) /\ PM_good p g.

Lemma PM_graphs_in n t i j : (t < 4)%nat -> (i < n)%nat -> (j < n)%nat ->
    In (t, (i, j)) (PM_graphs n).
Proof. intros Ht Hi Hj. apply in_prod; [|apply in_prod]; apply in_seq; lia. Qed.

Lemma PM_in_pieces d n p :
  (1 <= d)%nat -> pm_nongeneric d n (matA p) (matB p) ->
  exists s, (1 <= s)%nat /\ PM_piece d n s p.
Proof.
  intros Hd HN. destruct (coords_bound p (param_coords d n) 0) as [s [Hs [_ Hb]]].
  exists s. split; [exact Hs|]. split; [exact Hb|].
  destruct (pm_nongeneric_cases d n _ _ Hd HN)
    as [[i [Hi E]]|[[i [Hi E]]|[[i [j [Hi [Hj [Hij E]]]]]|[i [j [Hi [Hj [Hij E]]]]]]]];
    unfold matA, matB in E.
  - exists (0%nat, (i, i)). split; [apply PM_graphs_in; lia | exact E].
  - exists (1%nat, (i, i)). split; [apply PM_graphs_in; lia | exact E].
  - exists (2%nat, (i, j)). split; [apply PM_graphs_in; lia | split; assumption].
  - exists (3%nat, (i, j)). split; [apply PM_graphs_in; lia | split; assumption].
Qed.

Lemma PM_piece_lipschitz d n s p :
  (1 <= d)%nat -> PM_piece d n s p ->
  exists g, In g (PM_graphs n) /\
    forall q delta, 0 < delta <= 1 ->
      (forall c, In c (param_coords d n) -> c <> PM_y g -> Rabs (p c - q c) <= delta) ->
      Rabs (p (PM_y g) - PM_F g q) <= 1 * delta.
Proof.
  intros Hd [_ [g [Hg Hgood]]].
  exists g. split; [exact Hg|]. intros q delta [Hd0 Hd1] Hq.
  destruct g as [t [i j]]. unfold PM_graphs in Hg.
  apply in_prod_iff in Hg. destruct Hg as [Ht Hij]. apply in_seq in Ht.
  apply in_prod_iff in Hij. destruct Hij as [Hi Hj]. apply in_seq in Hi. apply in_seq in Hj.
  simpl in Ht, Hi, Hj.
  assert (Hc : In (i, 0%nat, true) (param_coords d n)) by (apply in_param_coords; lia).
  destruct t as [|[|[|[|t]]]]; [| | | | lia]; simpl in Hgood |- *.
  - rewrite Hgood. replace (0 - 0) with 0 by ring. rewrite Rabs_R0. lra.
  - rewrite Hgood. replace (0 - 0) with 0 by ring. rewrite Rabs_R0. lra.
  - destruct Hgood as [Hne E]. rewrite E. rewrite Rmult_1_l. apply Hq; [exact Hc|].
    intros E'. injection E'. intros. lia.
  - destruct Hgood as [Hne E]. rewrite E. rewrite Rmult_1_l.
    replace (- p (i, 0%nat, true) - - q (i, 0%nat, true))
      with (- (p (i, 0%nat, true) - q (i, 0%nat, true))) by ring.
    rewrite Rabs_Ropp. apply Hq; [exact Hc|]. intros E'. injection E'. intros. lia.
Qed.

(** *** The pm-non-generic set has Lebesgue measure zero, for every [d >= 1]. *)
Theorem pm_nongeneric_null d n : (1 <= d)%nat -> params_null d n (pm_nongeneric d n).
Proof.
  intros Hd. unfold params_null.
  apply (graph_union_null (param_coords d n) (PM_graphs n) PM_y (fun _ => PM_F)
           (fun _ => 1) (fun _ => 1) _ (PM_piece d n)).
  - intros [t [i j]] Hg. unfold PM_graphs in Hg. apply in_prod_iff in Hg. destruct Hg as [Ht Hij].
    apply in_seq in Ht. apply in_prod_iff in Hij. destruct Hij as [Hi Hj].
    apply in_seq in Hi. apply in_seq in Hj. simpl in Ht, Hi, Hj.
    destruct t as [|[|t]]; simpl; apply in_param_coords; lia.
  - intros _. lra.
  - intros _ _. lra.
  - intros p Hp. apply PM_in_pieces; assumption.
  - intros s p _ [Hb _]. exact Hb.
  - intros s p _ Hp. exact (PM_piece_lipschitz d n s p Hd Hp).
Qed.

Theorem pm_bad_null d n : (1 <= d)%nat -> params_null d n (pm_bad d n).
Proof.
  intros Hd. unfold params_null, pm_bad. apply NullDisjointness.null_union.
  - apply Z_null. exact Hd.
  - apply pm_nongeneric_null. exact Hd.
Qed.

(** ** R5 under genericity up to sign (GELU family) *)

(** The residual block is the ridge form with [U = A], [G = B], [L = I]. *)
Lemma residual_trivial_ridge_form sigma d n A B :
  same_fun d (residual d identity (ungated sigma d n A B)) (ridge_form sigma d n A B identity).
Proof. intros x i Hi. reflexivity. Qed.

(** At width [m = k = n] the width condition is the submatrix condition. *)
Lemma width_condition_square_in_Z d n A B :
  width_condition d n n A B identity -> in_Z d n A B.
Proof.
  intros [T [S [r [E [P [Q [_ [Hcount Heq]]]]]]]].
  assert (HT : forall t, (t < n)%nat -> T t = false)
    by (apply WidthCore.count_zero_false; lia).
  assert (Hr : r = 0%nat) by lia. subst r.
  exists S. intros k l Hk Hl. specialize (Heq k l Hk Hl).
  unfold masked_outer, low_rank in Heq. simpl sumn at 3 in Heq.
  rewrite (sumn_zero n (fun t => if T t then E k t * A t l else 0)) in Heq
    by (intros t Ht; rewrite (HT t Ht); reflexivity).
  unfold subset_sum. lra.
Qed.

Theorem pm_generic_submatrix_iff sigma d n A B :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  pm_generic d n A B ->
  (absorbable_ungated sigma d n n identity A B <-> in_Z d n A B).
Proof.
  intros Hodd H0 Hun [Hs HG]. split.
  - intros Habs. apply width_condition_square_in_Z.
    apply (proj1 (R8.pm_absorbable_iff_form sigma d n n n A B A B identity Hodd H0 Hun Hs HG
                    (residual_trivial_ridge_form sigma d n A B))).
    exact Habs.
  - intros [S HS]. exact (odd_part_absorbable sigma d n S A B Hodd HS).
Qed.

(** ** Headline: generic disjointness for every [d >= 1] *)

Theorem pm_generic_disjointness sigma d n :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  (1 <= d)%nat ->
  closed_set d n (pm_bad d n) /\ empty_interior d n (pm_bad d n) /\ params_null d n (pm_bad d n) /\
  forall A B, ~ pm_bad d n A B -> ~ absorbable_ungated sigma d n n identity A B.
Proof.
  intros Hodd H0 Hun Hd. split; [apply pm_bad_closed|].
  split; [exact (pm_bad_empty_interior d n Hd)|]. split; [exact (pm_bad_null d n Hd)|].
  intros A B Hnb Habs. apply Hnb.
  destruct (classic (pm_generic d n A B)) as [Hg|Hng]; [left | right; exact Hng].
  exact (proj1 (pm_generic_submatrix_iff sigma d n A B Hodd H0 Hun Hg) Habs).
Qed.

Corollary gelu_generically_disjoint_all d n : (1 <= d)%nat ->
  closed_set d n (pm_bad d n) /\ empty_interior d n (pm_bad d n) /\ params_null d n (pm_bad d n) /\
  forall A B, ~ pm_bad d n A B -> ~ absorbable_ungated gelu d n n identity A B.
Proof.
  apply pm_generic_disjointness;
    [exact gelu_odd_part | exact gelu_zero | exact R8.gelu_even_part_unique].
Qed.

Corollary gelu_tanh_generically_disjoint_all d n : (1 <= d)%nat ->
  closed_set d n (pm_bad d n) /\ empty_interior d n (pm_bad d n) /\ params_null d n (pm_bad d n) /\
  forall A B, ~ pm_bad d n A B -> ~ absorbable_ungated gelu_tanh d n n identity A B.
Proof.
  apply pm_generic_disjointness;
    [exact gelu_tanh_odd_part | exact gelu_tanh_zero | exact gelu_tanh_ridge_unique].
Qed.

Corollary silu_generically_disjoint_all d n : (1 <= d)%nat ->
  closed_set d n (pm_bad d n) /\ empty_interior d n (pm_bad d n) /\ params_null d n (pm_bad d n) /\
  forall A B, ~ pm_bad d n A B -> ~ absorbable_ungated silu d n n identity A B.
Proof.
  apply pm_generic_disjointness;
    [exact silu_odd_part | exact (proj2 silu_vanishing) | exact silu_ridge_unique].
Qed.

(** ** Non-vacuity *)

(** [d = 1], [n = 2], [a = (1, 2)], [b = (1, 1)] (the weights of
    [Paper.R5_counterexample]). *)
Definition pm_ex_A : mat := fun i _ => if Nat.eqb i 0 then 1 else 2.
Definition pm_ex_B : mat := fun _ _ => 1.

Example pm_not_bad_example : ~ pm_bad 1 2 pm_ex_A pm_ex_B.
Proof.
  intros [[S HS]|HN].
  - specialize (HS 0%nat 0%nat ltac:(lia) ltac:(lia)).
    unfold subset_sum, identity, pm_ex_A, pm_ex_B in HS. simpl in HS.
    destruct (S 0%nat), (S 1%nat); lra.
  - apply HN. split; [split|].
    + intros i Hi. exists 0%nat. split; [lia|]. unfold row, pm_ex_A.
      destruct (Nat.eqb i 0); lra.
    + intros i j Hi Hj Hij [E|E]; specialize (E 0%nat ltac:(lia)); unfold row, pm_ex_A in E;
        destruct i as [|[|i]]; destruct j as [|[|j]]; try lia; simpl in E; lra.
    + intros i Hi. exists 0%nat. split; [lia|]. unfold col, pm_ex_B. lra.
Qed.

(** The old genericity fails there (as at every [d = 1], [n >= 2]); the new one holds. *)
Example pm_weaker_example : nongeneric 1 2 pm_ex_A pm_ex_B /\ ~ pm_bad 1 2 pm_ex_A pm_ex_B.
Proof. split; [apply nongeneric_d1; lia | exact pm_not_bad_example]. Qed.

Example gelu_pm_disjointness_example :
  ~ absorbable_ungated gelu 1 2 2 identity pm_ex_A pm_ex_B.
Proof.
  exact (proj2 (proj2 (proj2 (gelu_generically_disjoint_all 1 2 (le_n 1)))) _ _ pm_not_bad_example).
Qed.

Example gelu_tanh_pm_disjointness_example :
  ~ absorbable_ungated gelu_tanh 1 2 2 identity pm_ex_A pm_ex_B.
Proof.
  exact
    (proj2 (proj2 (proj2 (gelu_tanh_generically_disjoint_all 1 2 (le_n 1)))) _ _
      pm_not_bad_example).
Qed.

Example silu_pm_disjointness_example :
  ~ absorbable_ungated silu 1 2 2 identity pm_ex_A pm_ex_B.
Proof.
  exact (proj2 (proj2 (proj2 (silu_generically_disjoint_all 1 2 (le_n 1)))) _ _ pm_not_bad_example).
Qed.

(** A point of [pm_bad]: [a_0 = a_1]. *)
Example pm_bad_example : pm_bad 1 2 (fun _ _ => 1) (fun _ _ => 1).
Proof.
  right. intros [[_ Hp] _]. apply (Hp 0%nat 1%nat); [lia | lia | lia |].
  left. intros j _. reflexivity.
Qed.
