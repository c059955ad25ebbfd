(** * Every ridge form equals a canonical one

    A ridge form [x |-> L x + sum_{t<k} gamma_t sigma(u_t . x)] is made
    canonical (nonzero directions, pairwise in different classes, nonzero
    kinks) without changing the function and without adding classes:
    - [drop_class]: a class with [u_t = 0] (and [sigma 0 = 0]) or
      [gamma_t = 0] is deleted;
    - [merge_class]: a class [u_j = c u_i] with the scale law
      [sigma(c z) = |c| sigma(z) - [c < 0] |c| z] is merged into class [i]:
      kink [gamma_i + |c| gamma_j], linear part [L - [c < 0] |c| gamma_j u_i^T];
    - [ridge_form_canonical_gen]: by induction on [k], for any class
      relation whose members obey the scale law;
    - [ridge_form_canonical_relu] (classes = lines, [lines_distinct]) and
      [ridge_form_canonical_pm] (classes = [+-], [signs_distinct]). *)

From Coq Require Import Reals Lra Lia Classical.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix.
From Absorb Require Import Geometry FiniteMaps Calculus.
From Absorb.decide Require Import RidgeForm GroupingSound WidthNecessary.
Open Scope R_scope.

Lemma same_fun_trans d (f g h : vec -> vec) :
  same_fun d f g -> same_fun d g h -> same_fun d f h.
Proof. intros H1 H2 x p Hp. rewrite (H1 x p Hp). exact (H2 x p Hp). Qed.

(** ** Deleting and merging one class *)

Lemma drop_class sigma d N (U G L : mat) j : sigma 0 = 0 -> (j <= N)%nat ->
  ((forall p, (p < d)%nat -> G p j = 0) \/ (forall q, (q < d)%nat -> U j q = 0)) ->
  same_fun d (ridge_form sigma d (S N) U G L)
             (ridge_form sigma d N (skip_rows U j) (fun p t => G p (skip j t)) L).
Proof.
  intros H0 Hj Hz x p Hp. unfold ridge_form. rewrite (sumn_skip N _ j Hj).
  assert (Z : G p j * sigma (dot d (row U j) x) = 0).
  { destruct Hz as [Hz|Hz].
    - rewrite (Hz p Hp). ring.
    - rewrite (dot_zero_l d (row U j) x Hz), H0. ring. }
  rewrite Z, Rplus_0_l. reflexivity.
Qed.

(** The kinks and linear part after merging class [j] into class [i]. *)
Definition merged_G (G : mat) (j i : nat) (c : R) : mat :=
  fun p t => G p (skip j t) + (if Nat.eq_dec (skip j t) i then Rabs c * G p j else 0).

Definition merged_L (L G U : mat) (j i : nat) (c : R) : mat :=
  fun p q => L p q - (if Rlt_dec c 0 then Rabs c * G p j * U i q else 0).

Lemma merge_class sigma d N (U G L : mat) j i c : (j <= N)%nat -> (i < S N)%nat -> i <> j ->
  (forall q, (q < d)%nat -> U j q = c * U i q) -> scale_law sigma c ->
  same_fun d (ridge_form sigma d (S N) U G L)
             (ridge_form sigma d N (skip_rows U j) (merged_G G j i c) (merged_L L G U j i c)).
Proof.
  intros Hj Hi Hne Hc Hsc x p Hp. unfold ridge_form. rewrite (sumn_skip N _ j Hj).
  rewrite (parallel_dot d (row U j) (row U i) c x Hc), Hsc.
  rewrite (sumn_ext N (fun t => merged_G G j i c p t * sigma (dot d (row (skip_rows U j) t) x))
             (fun t => G p (skip j t) * sigma (dot d (row U (skip j t)) x)
                + (if Nat.eq_dec (skip j t) i then Rabs c * G p j * sigma (dot d (row U i) x)
                   else 0))).
  2:{ intros t _. unfold merged_G, skip_rows, row. destruct (Nat.eq_dec (skip j t) i) as [E|E].
      - rewrite E. ring.
      - ring. }
  rewrite sumn_plus, (sumn_skip_delta N j i _ Hj Hi Hne).
  assert (HL : mv d (merged_L L G U j i c) x p =
               mv d L x p - (if Rlt_dec c 0 then Rabs c * G p j * dot d (row U i) x else 0)).
  { unfold mv, merged_L, dot, row. destruct (Rlt_dec c 0).
    - rewrite <- sumn_scal_l, <- sumn_minus. apply sumn_ext. intros; ring.
    - rewrite Rminus_0_r. apply sumn_ext. intros; ring. }
  unfold skip_rows. rewrite HL. destruct (Rlt_dec c 0); ring.
Qed.

(** ** Canonical forms *)

Definition canonical_rel (rel : nat -> vec -> vec -> Prop) (d k : nat) (U G : mat) : Prop :=
  (forall t, (t < k)%nat -> nonzero_vec d (row U t)) /\
  (forall s t, (s < k)%nat -> (t < k)%nat -> s <> t -> ~ rel d (row U s) (row U t)) /\
  nonzero_cols d k G.

Theorem ridge_form_canonical_gen sigma (rel : nat -> vec -> vec -> Prop) :
  sigma 0 = 0 ->
  (forall d v u, nonzero_vec d v -> rel d v u ->
     exists c, (forall q, (q < d)%nat -> v q = c * u q) /\ scale_law sigma c) ->
  forall d k (U G L : mat), exists k' (U' G' L' : mat),
    (k' <= k)%nat /\ canonical_rel rel d k' U' G' /\
    same_fun d (ridge_form sigma d k U G L) (ridge_form sigma d k' U' G' L').
Proof.
  intros H0 Hmerge d k. induction k as [|N IH]; intros U G L.
  - exists 0%nat, U, G, L. split; [lia|].
    split; [split; [|split]; [intros t Ht; lia | intros s t Hs; lia | intros t Ht; lia]|].
    intros x p _. reflexivity.
  - destruct (classic (exists j, (j < S N)%nat /\
                 (~ nonzero_vec d (row U j) \/ ~ nonzero_vec d (col G j))))
      as [[j [Hj Hz]]|Hnz].
    { destruct (IH (skip_rows U j) (fun p t => G p (skip j t)) L)
          as (k' & U' & G' & L' & Hk & Hc & Hs).
      exists k', U', G', L'. split; [lia|]. split; [exact Hc|].
      refine (same_fun_trans d _ _ _ (drop_class sigma d N U G L j H0 ltac:(lia) _) Hs).
      destruct Hz as [Hz|Hz]; [right | left]; intros q Hq; exact (not_nonzero_zero d _ Hz q Hq). }
    assert (Hnz' : forall j, (j < S N)%nat -> nonzero_vec d (row U j) /\ nonzero_vec d (col G j)).
    { intros j Hj. split; apply NNPP; intros C; apply Hnz; exists j; tauto. }
    destruct (classic (exists j i, (j < S N)%nat /\ (i < S N)%nat /\ i <> j /\
                                   rel d (row U j) (row U i)))
      as [[j [i [Hj [Hi [Hne Hr]]]]]|Hno].
    { destruct (Hmerge d _ _ (proj1 (Hnz' j Hj)) Hr) as [c [Hc Hsc]].
      destruct (IH (skip_rows U j) (merged_G G j i c) (merged_L L G U j i c))
        as (k' & U' & G' & L' & Hk & Hcan & Hs).
      exists k', U', G', L'. split; [lia|]. split; [exact Hcan|].
      exact (same_fun_trans d _ _ _
               (merge_class sigma d N U G L j i c ltac:(lia) Hi Hne Hc Hsc) Hs). }
    exists (S N), U, G, L. split; [lia|]. split; [|intros x p _; reflexivity].
    split; [|split].
    + intros t Ht. exact (proj1 (Hnz' t Ht)).
    + intros s t Hs Ht Hst C. apply Hno. exists s, t.
      split;
        [exact Hs | split; [exact Ht | split; [intros E; apply Hst; symmetry; exact E | exact C]]].
    + intros t Ht. exact (proj2 (Hnz' t Ht)).
Qed.

(** ** ReLU: classes are lines *)

Lemma not_parallel_independent d (u v : vec) :
  nonzero_vec d v -> ~ parallel_to d u v -> lin_independent2 d u v.
Proof.
  intros [k0 [Hk0 Hv]] Hnp al be Hab. destruct (Req_dec al 0) as [Ha|Ha].
  - subst al. split; [reflexivity|]. specialize (Hab k0 Hk0).
    apply (Rmult_eq_reg_r (v k0)); [lra | exact Hv].
  - exfalso. apply Hnp. exists (- be / al). intros q Hq. specialize (Hab q Hq).
    apply (Rmult_eq_reg_l al); [|exact Ha]. field_simplify; [lra | exact Ha].
Qed.

Theorem ridge_form_canonical_relu d k (U G L : mat) : exists k' (U' G' L' : mat),
  (k' <= k)%nat /\ lines_distinct d k' U' /\ nonzero_cols d k' G' /\
  same_fun d (ridge_form relu d k U G L) (ridge_form relu d k' U' G' L').
Proof.
  destruct (ridge_form_canonical_gen relu parallel_to ltac:(apply relu_neg; lra)) with d k U G L
    as (k' & U' & G' & L' & Hk & [HU [Hd HG]] & Hs).
  - intros d' v u [q0 [Hq0 Hv]] [c Hc]. exists c. split; [exact Hc|]. apply relu_scale_law.
    intros E. apply Hv. rewrite (Hc q0 Hq0), E. ring.
  - exists k', U', G', L'. split; [exact Hk|]. split; [|split; [exact HG | exact Hs]].
    split; [exact HU|]. intros s t Hs' Ht Hst. apply not_parallel_independent; [exact (HU t Ht)|].
    exact (Hd s t Hs' Ht Hst).
Qed.

(** ** The GELU family: classes are directions up to sign *)

Theorem ridge_form_canonical_pm sigma d k (U G L : mat) :
  odd_part_identity sigma -> sigma 0 = 0 -> exists k' (U' G' L' : mat),
  (k' <= k)%nat /\ signs_distinct d k' U' /\ nonzero_cols d k' G' /\
  same_fun d (ridge_form sigma d k U G L) (ridge_form sigma d k' U' G' L').
Proof.
  intros Hodd H0.
  destruct (ridge_form_canonical_gen sigma pm_equal H0) with d k U G L
    as (k' & U' & G' & L' & Hk & [HU [Hd HG]] & Hs).
  - intros d' v u _ Hr. destruct (same_up_to_sign_parallel d' v u Hr) as [c [Hc1 Hc]].
    exists c. split; [exact Hc | exact (odd_part_scale_law_pm sigma c Hodd Hc1)].
  - exists k', U', G', L'. split; [exact Hk|]. split; [split; [exact HU | exact Hd]|].
    split; [exact HG | exact Hs].
Qed.
