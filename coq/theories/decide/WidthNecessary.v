(** * R8 and R8' (=>): a ridge form computed at width [m] meets the width condition

    paper.md's "deciding every block", the hard half.  If a residual-free
    block [x |-> B' sigma(A' x)] of width [m] equals the ridge form
    [x |-> L x + sum_{t<k} gamma_t sigma(u_t . x)] everywhere, then
    [width_condition d k m U G L] holds:
    - [width_condition_necessary_relu]: ReLU, directions on distinct lines;
    - [width_condition_necessary_pm]: any [sigma] with
      [sigma(z) - sigma(-z) = z], [sigma 0 = 0] and ridge uniqueness of its
      even part (GELU, GELU_tanh, SiLU: [width_condition_necessary_gelu],
      [_gelu_tanh], [_silu]), directions distinct up to sign.
    Both are instances of [width_condition_necessary_generic], stated for a
    "class relation" [rel] ([parallel_to] for ReLU, [pm_equal] for the GELU
    family) and a grouped ridge uniqueness property [grouped_ridge e rel] of
    the even part [e = sigma - id/2]:
    - the odd parts of both sides agree ([witness_odd_matrix]) and so do the
      even parts ([witness_even_eq]);
    - [grouped_ridge] ([grouped_ridge_abs] for ReLU, via the kinks of
      [Ridge.v]; [grouped_ridge_of_unique] for the GELU family, via
      [Ridge.ridge_even_grouped]) says that in every class of witness rows
      the kinks add up to the form's kink [gamma_t], or to [0] for a class
      that is not a direction of the form ([class_kink_form],
      [class_kink_other]);
    - witness rows are labelled by the form's classes and by
      representatives (the first row of each further class), and
      [WidthCore.width_condition_of_labels] counts. *)

From Coq Require Import Reals Lra Lia Bool Classical.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix
  GeluRidge GeluTanhRidge SiluRidge SubmatrixIff.
From Absorb Require Import Geometry FiniteMaps Calculus.
From Absorb.decide Require Import RidgeForm WidthCore.
Open Scope R_scope.

(** ** Odd and even parts of [block = ridge form] *)

Lemma sigma_even_sum sigma z : odd_part_identity sigma ->
  sigma z + sigma (- z) = 2 * even_part sigma z.
Proof. intros Hodd. unfold even_part. pose proof (Hodd z). lra. Qed.

Lemma ridge_form_odd sigma d k (U G L : mat) x p : odd_part_identity sigma ->
  ridge_form sigma d k U G L x p - ridge_form sigma d k U G L (fun t => - x t) p =
  2 * mv d L x p + sumn k (fun t => G p t * dot d (row U t) x).
Proof.
  intros Hodd. unfold ridge_form, mv. rewrite dot_opp_r.
  assert (E : sumn k (fun t => G p t * sigma (dot d (row U t) x))
              - sumn k (fun t => G p t * sigma (dot d (row U t) (fun t0 => - x t0)))
              = sumn k (fun t => G p t * dot d (row U t) x)).
  { rewrite <- sumn_minus. apply sumn_ext. intros t _. rewrite dot_opp_r.
    pose proof (Hodd (dot d (row U t) x)) as E. set (z := dot d (row U t) x) in *.
    transitivity (G p t * (sigma z - sigma (- z))); [ring | rewrite E; reflexivity]. }
  lra.
Qed.

Lemma ridge_form_even sigma d k (U G L : mat) x p : odd_part_identity sigma ->
  ridge_form sigma d k U G L x p + ridge_form sigma d k U G L (fun t => - x t) p =
  2 * sumn k (fun t => G p t * even_part sigma (dot d (row U t) x)).
Proof.
  intros Hodd. unfold ridge_form, mv. rewrite dot_opp_r, <- sumn_scal_l.
  assert (E : sumn k (fun t => G p t * sigma (dot d (row U t) x))
              + sumn k (fun t => G p t * sigma (dot d (row U t) (fun t0 => - x t0)))
              = sumn k (fun t => 2 * (G p t * even_part sigma (dot d (row U t) x)))).
  { rewrite <- sumn_plus. apply sumn_ext. intros t _. rewrite dot_opp_r.
    pose proof (sigma_even_sum sigma (dot d (row U t) x) Hodd) as E.
    set (z := dot d (row U t) x) in *.
    transitivity (G p t * (sigma z + sigma (- z))); [ring | rewrite E; ring]. }
  lra.
Qed.

Lemma ungated_odd sigma d m (A' B' : mat) x p : odd_part_identity sigma ->
  ungated sigma d m A' B' x p - ungated sigma d m A' B' (fun t => - x t) p =
  sumn m (fun j => B' p j * dot d (row A' j) x).
Proof.
  intros Hodd. unfold ungated. rewrite <- sumn_minus. apply sumn_ext. intros j _.
  rewrite dot_opp_r. pose proof (Hodd (dot d (row A' j) x)) as E.
  set (z := dot d (row A' j) x) in *.
  transitivity (B' p j * (sigma z - sigma (- z))); [ring | rewrite E; reflexivity].
Qed.

Lemma ungated_even sigma d m (A' B' : mat) x p : odd_part_identity sigma ->
  ungated sigma d m A' B' x p + ungated sigma d m A' B' (fun t => - x t) p =
  2 * sumn m (fun j => B' p j * even_part sigma (dot d (row A' j) x)).
Proof.
  intros Hodd. unfold ungated. rewrite <- sumn_scal_l, <- sumn_plus. apply sumn_ext. intros j _.
  rewrite dot_opp_r. pose proof (sigma_even_sum sigma (dot d (row A' j) x) Hodd) as E.
  set (z := dot d (row A' j) x) in *.
  transitivity (B' p j * (sigma z + sigma (- z))); [ring | rewrite E; ring].
Qed.

Section Parts.

Variables (sigma : R -> R) (d k m : nat) (U G L A' B' : mat).
Context (Hodd : odd_part_identity sigma).
Context (H : same_fun d (ungated sigma d m A' B') (ridge_form sigma d k U G L)).

Lemma witness_odd_eq p x : (p < d)%nat ->
  sumn m (fun j => B' p j * dot d (row A' j) x) =
  2 * mv d L x p + sumn k (fun t => G p t * dot d (row U t) x).
Proof.
  intros Hp. rewrite <- (ungated_odd sigma d m A' B' x p Hodd),
    <- (ridge_form_odd sigma d k U G L x p Hodd).
  rewrite (H x p Hp), (H (fun t => - x t) p Hp). reflexivity.
Qed.

Lemma witness_odd_matrix p q : (p < d)%nat -> (q < d)%nat ->
  sumn m (fun j => B' p j * A' j q) = 2 * L p q + sumn k (fun t => G p t * U t q).
Proof.
  intros Hp Hq. pose proof (witness_odd_eq p (fun t => identity q t) Hp) as E.
  unfold mv in E. rewrite !dot_unit in E by exact Hq.
  rewrite (sumn_ext m _ (fun j => B' p j * A' j q)) in E
    by (intros j _; rewrite dot_unit by exact Hq; reflexivity).
  rewrite (sumn_ext k _ (fun t => G p t * U t q)) in E
    by (intros t _; rewrite dot_unit by exact Hq; reflexivity).
  exact E.
Qed.

Lemma witness_even_eq p x : (p < d)%nat ->
  sumn m (fun j => B' p j * even_part sigma (dot d (row A' j) x)) =
  sumn k (fun t => G p t * even_part sigma (dot d (row U t) x)).
Proof.
  intros Hp. pose proof (ungated_even sigma d m A' B' x p Hodd) as E1.
  pose proof (ridge_form_even sigma d k U G L x p Hodd) as E2.
  rewrite (H x p Hp), (H (fun t => - x t) p Hp) in E1. lra.
Qed.

End Parts.

(** ** Grouped ridge uniqueness *)

(** In a vanishing sum of ridges [sum_j beta_j e(v_j . x)], the rows [v_j]
    in the class of a nonzero [u] (given by [mb], with [v_j = c_j u]) carry
    total weight [sum beta_j |c_j| = 0]. *)
Definition grouped_ridge (e : R -> R) (rel : nat -> vec -> vec -> Prop) : Prop :=
  forall d N (V : mat) (beta : nat -> R) (u : vec) (mb : nat -> bool) (c : nat -> R),
    (forall x, sumn N (fun j => beta j * e (dot d (row V j) x)) = 0) ->
    nonzero_vec d u ->
    (forall j, (j < N)%nat -> (mb j = true <-> nonzero_vec d (row V j) /\ rel d (row V j) u)) ->
    (forall j q, (j < N)%nat -> (q < d)%nat -> mb j = true -> V j q = c j * u q) ->
    sumn N (fun j => if mb j then beta j * Rabs (c j) else 0) = 0.

Lemma not_nonzero_zero d (v : vec) : ~ nonzero_vec d v -> forall q, (q < d)%nat -> v q = 0.
Proof.
  intros Hn q Hq. destruct (Req_EM_T (v q) 0) as [E|E]; [exact E|].
  exfalso. apply Hn. exists q. split; assumption.
Qed.

(** ReLU's even part [|z|/2]: classes are lines. *)
Theorem grouped_ridge_abs : grouped_ridge Rabs parallel_to.
Proof.
  intros d N V beta u mb c Hs Hu Hmb Hc.
  destruct (ridge_avoid d u (row V) N Hu) as [x0 [Hux Hx]].
  pose proof (ridge_kink_eq d N V beta 0 V beta
                ltac:(intro x; unfold ridge_sum; rewrite Hs; reflexivity) x0 u) as Hk.
  unfold kink_sum in Hk. rewrite sumn_0 in Hk.
  pose proof (dot_self_pos d u Hu) as Hpp.
  rewrite (sumn_ext N _ (fun j => dot d u u * (if mb j then beta j * Rabs (c j) else 0))) in Hk.
  - rewrite sumn_scal_l in Hk. apply Rmult_integral in Hk. destruct Hk as [Hk|Hk]; [lra | exact Hk].
  - intros j Hj. destruct (mb j) eqn:Em.
    + assert (Hpar : forall q, (q < d)%nat -> row V j q = c j * u q)
        by (intros q Hq; exact (Hc j q Hj Hq Em)).
      rewrite (parallel_dot d _ _ (c j) x0 Hpar), Hux, Rmult_0_r.
      destruct (Req_EM_T 0 0) as [_|C]; [|congruence].
      rewrite (parallel_dot d _ _ (c j) u Hpar), Rabs_mult, (Rabs_right (dot d u u)) by lra. ring.
    + destruct (Req_EM_T (dot d (row V j) x0) 0) as [E|E]; [|ring].
      destruct (Hx j Hj) as [C|Hpar]; [contradiction|].
      assert (Hz : ~ nonzero_vec d (row V j)).
      { intros Hnz. assert (mb j = true) by (apply Hmb; [exact Hj | split; assumption]).
        congruence. }
      rewrite (dot_zero_l d _ u (not_nonzero_zero d _ Hz)), Rabs_R0. ring.
Qed.

Lemma even_part_relu z : even_part relu z = Rabs z / 2.
Proof. unfold even_part. rewrite relu_abs. ring. Qed.

Theorem grouped_ridge_relu : grouped_ridge (even_part relu) parallel_to.
Proof.
  intros d N V beta u mb c Hs. apply (grouped_ridge_abs d N V beta u mb c).
  intros x. specialize (Hs x).
  rewrite (sumn_ext N _ (fun j => 2 * (beta j * even_part relu (dot d (row V j) x)))).
  - rewrite sumn_scal_l, Hs. ring.
  - intros j _. rewrite even_part_relu. field.
Qed.

(** The GELU family: classes are directions up to sign. *)
Theorem grouped_ridge_of_unique (e : R -> R) :
  (forall z, e (- z) = e z) -> e 0 = 0 -> ridge_unique_even e -> grouped_ridge e pm_equal.
Proof.
  intros He He0 Hun d N V beta u mb c Hs Hu Hmb Hc.
  transitivity (sumn N (fun t => beta t * sim_ind d (row V t) u));
    [|exact (ridge_even_grouped e He He0 Hun d N V beta Hs u Hu)].
  apply sumn_ext. intros j Hj. unfold sim_ind.
  destruct Hu as [q0 [Hq0 Hu0]].
  destruct (sign_sim_dec d (row V j) u) as [S|S]; destruct (mb j) eqn:Em.
  - assert (E : c j * u q0 = u q0 \/ c j * u q0 = - u q0).
    { rewrite <- (Hc j q0 Hj Hq0 Em). destruct S as [S|S]; [left | right]; exact (S q0 Hq0). }
    assert (Hc1 : c j = 1 \/ c j = -1).
    { destruct E as [E|E]; [left | right]; apply (Rmult_eq_reg_r (u q0)); try lra; exact Hu0. }
    rewrite (pm1_abs _ Hc1). ring.
  - exfalso. assert (Hz : ~ nonzero_vec d (row V j)).
    { intros Hnz. assert (mb j = true) by (apply Hmb; [exact Hj | split; [exact Hnz | exact S]]).
      congruence. }
    apply Hu0. pose proof (not_nonzero_zero d _ Hz q0 Hq0) as Z. unfold row in Z.
    destruct S as [S|S]; specialize (S q0 Hq0); unfold row in S; lra.
  - exfalso. apply S. apply (proj1 (Hmb j Hj) Em).
  - ring.
Qed.

(** ** Class relations *)

(** [rel d v u]: [v] lies in the class of [u]. *)
Definition class_rel (rel : nat -> vec -> vec -> Prop) : Prop :=
  (forall d u v, rel d u v -> exists c, forall q, (q < d)%nat -> u q = c * v q) /\
  (forall d u, rel d u u) /\
  (forall d u v, nonzero_vec d u -> rel d u v -> rel d v u) /\
  (forall d u v w, rel d u v -> rel d v w -> rel d u w).

Lemma class_rel_parallel : class_rel parallel_to.
Proof.
  split; [|split; [|split]].
  - intros d u v H. exact H.
  - intros d u. exists 1. intros; ring.
  - intros d u v [q [Hq Hu]] [c Hc]. assert (Hc0 : c <> 0).
    { intros E. apply Hu. rewrite (Hc q Hq), E. ring. }
    exists (/ c). intros q' Hq'. rewrite (Hc q' Hq'). field. exact Hc0.
  - intros d u v w [c1 H1] [c2 H2]. exists (c1 * c2). intros q Hq. rewrite (H1 q Hq), (H2 q Hq).
    ring.
Qed.

Lemma class_rel_pm : class_rel pm_equal.
Proof.
  split; [|split; [|split]].
  - intros d u v H. destruct (same_up_to_sign_parallel d u v H) as [c [_ Hc]]. exists c. exact Hc.
  - intros d u. exact (same_up_to_sign_refl d u).
  - intros d u v _ H. exact (same_up_to_sign_sym d u v H).
  - intros d u v w. exact (same_up_to_sign_trans d u v w).
Qed.

(** ** Labelling the witness rows *)

Section Construction.

Variables (sigma : R -> R) (rel : nat -> vec -> vec -> Prop).
Variables (d k m : nat) (U G L A' B' : mat).
Context (Hodd : odd_part_identity sigma).
Context (Hrel : class_rel rel).
Context (Hgr : grouped_ridge (even_part sigma) rel).
Context (HU : forall t, (t < k)%nat -> nonzero_vec d (row U t)).
Context (HUd : forall s t, (s < k)%nat -> (t < k)%nat -> s <> t -> ~ rel d (row U s) (row U t)).
Context (H : same_fun d (ungated sigma d m A' B') (ridge_form sigma d k U G L)).

Let rel_scale := proj1 Hrel.
Let rel_refl := proj1 (proj2 Hrel).
Let rel_sym := proj1 (proj2 (proj2 Hrel)).
Let rel_trans := proj2 (proj2 (proj2 Hrel)).

(** Witness rows followed by the form's directions (with opposite weights). *)
Definition cat_rows : mat := fun j => if lt_dec j m then A' j else U (j - m)%nat.
Definition cat_coef (p : nat) : nat -> R :=
  fun j => if lt_dec j m then B' p j else - G p (j - m)%nat.

Lemma cat_vanishes p x : (p < d)%nat ->
  sumn (m + k)%nat (fun j => cat_coef p j * even_part sigma (dot d (row cat_rows j) x)) = 0.
Proof.
  intros Hp. rewrite sumn_add.
  rewrite (sumn_ext m _ (fun j => B' p j * even_part sigma (dot d (row A' j) x))).
  2:{ intros j Hj. unfold cat_coef, cat_rows, row. destruct (lt_dec j m); [reflexivity | lia]. }
  rewrite (sumn_ext k _ (fun t => - (G p t * even_part sigma (dot d (row U t) x)))).
  2:{ intros t Ht. unfold cat_coef, cat_rows, row. destruct (lt_dec (m + t) m); [lia|].
      replace (m + t - m)%nat with t by lia. ring. }
  rewrite sumn_opp, (witness_even_eq sigma d k m U G L A' B' Hodd H p x Hp). ring.
Qed.

(** In the class of a nonzero [u], witness kinks and form kinks agree. *)
Lemma class_kink_general u (mb1 mb2 : nat -> bool) (c1 c2 : nat -> R) p :
  nonzero_vec d u -> (p < d)%nat ->
  (forall j, (j < m)%nat -> (mb1 j = true <-> nonzero_vec d (row A' j) /\ rel d (row A' j) u)) ->
  (forall j q, (j < m)%nat -> (q < d)%nat -> mb1 j = true -> A' j q = c1 j * u q) ->
  (forall t, (t < k)%nat -> (mb2 t = true <-> nonzero_vec d (row U t) /\ rel d (row U t) u)) ->
  (forall t q, (t < k)%nat -> (q < d)%nat -> mb2 t = true -> U t q = c2 t * u q) ->
  sumn m (fun j => if mb1 j then B' p j * Rabs (c1 j) else 0) =
  sumn k (fun t => if mb2 t then G p t * Rabs (c2 t) else 0).
Proof.
  intros Hu Hp H1 H1c H2 H2c.
  pose proof (Hgr d (m + k)%nat cat_rows (cat_coef p) u
                (fun j => if lt_dec j m then mb1 j else mb2 (j - m)%nat)
                (fun j => if lt_dec j m then c1 j else c2 (j - m)%nat)
                (fun x => cat_vanishes p x Hp) Hu) as E.
  rewrite sumn_add in E.
  rewrite (sumn_ext m _ (fun j => if mb1 j then B' p j * Rabs (c1 j) else 0)) in E.
  2:{ intros j Hj. unfold cat_coef. destruct (lt_dec j m); [reflexivity | lia]. }
  rewrite (sumn_ext k _ (fun t => - (if mb2 t then G p t * Rabs (c2 t) else 0))) in E.
  2:{ intros t Ht. unfold cat_coef. destruct (lt_dec (m + t) m); [lia|].
      replace (m + t - m)%nat with t by lia. destruct (mb2 t); ring. }
  rewrite sumn_opp in E.
  assert (Z : forall a b, a + - b = 0 -> a = b) by (intros; lra). apply Z, E.
  - intros j Hj. unfold cat_rows, row. destruct (lt_dec j m) as [Hjm|Hjm].
    + exact (H1 j Hjm).
    + exact (H2 (j - m)%nat ltac:(lia)).
  - intros j q Hj Hq. unfold cat_rows. destruct (lt_dec j m) as [Hjm|Hjm].
    + exact (H1c j q Hjm Hq).
    + exact (H2c (j - m)%nat q ltac:(lia) Hq).
Qed.

(** A direction [u_t0] of the form: its witness rows carry [gamma_t0]. *)
Lemma class_kink_form t0 (mb : nat -> bool) (c : nat -> R) p :
  (t0 < k)%nat -> (p < d)%nat ->
  (forall j, (j < m)%nat ->
    (mb j = true <-> nonzero_vec d (row A' j) /\ rel d (row A' j) (row U t0))) ->
  (forall j q, (j < m)%nat -> (q < d)%nat -> mb j = true -> A' j q = c j * U t0 q) ->
  sumn m (fun j => if mb j then B' p j * Rabs (c j) else 0) = G p t0.
Proof.
  intros Ht0 Hp Hmb Hc.
  rewrite (class_kink_general (row U t0) mb (fun t => if Nat.eq_dec t0 t then true else false)
             c (fun _ => 1) p (HU t0 Ht0) Hp Hmb Hc).
  - rewrite (sumn_ext k _ (fun t => if Nat.eq_dec t0 t then G p t else 0)).
    + apply sumn_delta. exact Ht0.
    + intros t _. destruct (Nat.eq_dec t0 t); [rewrite Rabs_R1; ring | reflexivity].
  - intros t Ht. destruct (Nat.eq_dec t0 t) as [<-|Hne].
    + split; [intros _; split; [exact (HU t0 Ht0) | apply rel_refl] | reflexivity].
    + split; [discriminate|]. intros [_ C]. exfalso.
      exact (HUd t t0 Ht Ht0 (fun E => Hne (eq_sym E)) C).
  - intros t q Ht Hq E. destruct (Nat.eq_dec t0 t) as [<-|]; [unfold row; ring | discriminate].
Qed.

(** A class that is no direction of the form: its kinks cancel. *)
Lemma class_kink_other u (mb : nat -> bool) (c : nat -> R) p :
  nonzero_vec d u -> (p < d)%nat ->
  (forall t, (t < k)%nat -> ~ rel d (row U t) u) ->
  (forall j, (j < m)%nat -> (mb j = true <-> nonzero_vec d (row A' j) /\ rel d (row A' j) u)) ->
  (forall j q, (j < m)%nat -> (q < d)%nat -> mb j = true -> A' j q = c j * u q) ->
  sumn m (fun j => if mb j then B' p j * Rabs (c j) else 0) = 0.
Proof.
  intros Hu Hp Hno Hmb Hc.
  rewrite (class_kink_general u mb (fun _ => false) c (fun _ => 0) p Hu Hp Hmb Hc).
  - apply sumn_zero. reflexivity.
  - intros t Ht. split; [discriminate|]. intros [_ C]. exfalso. exact (Hno t Ht C).
  - intros t q _ _ E. discriminate.
Qed.

(** Rows off every direction of the form, and the first row of each such class. *)
Definition off_form (j : nat) : Prop := forall t, (t < k)%nat -> ~ rel d (row A' j) (row U t).

Definition first_of_class (j : nat) : Prop :=
  nonzero_vec d (row A' j) /\ off_form j /\
  forall j', (j' < j)%nat -> ~ (nonzero_vec d (row A' j') /\ rel d (row A' j') (row A' j)).

Lemma first_of_class_exists j : (j < m)%nat -> nonzero_vec d (row A' j) -> off_form j ->
  exists j0, (j0 <= j)%nat /\ first_of_class j0 /\ rel d (row A' j) (row A' j0).
Proof.
  induction j as [j IH] using lt_wf_ind. intros Hj Hnz Hoff.
  destruct
    (classic (exists j', (j' < j)%nat /\ nonzero_vec d (row A' j') /\ rel d (row A' j') (row A' j)))
    as [[j' [Hj' [Hnz' Hr']]]|Hno].
  - assert (Hoff' : off_form j').
    { intros t Ht C. apply (Hoff t Ht). exact (rel_trans d _ _ _ (rel_sym d _ _ Hnz' Hr') C). }
    destruct (IH j' Hj' ltac:(lia) Hnz' Hoff') as [j0 [Hle [Hf Hr0]]].
    exists j0. split; [lia|]. split; [exact Hf|].
    exact (rel_trans d _ _ _ (rel_sym d _ _ Hnz' Hr') Hr0).
  - exists j. split; [lia|]. split; [|apply rel_refl].
    split; [exact Hnz|]. split; [exact Hoff|]. intros j' Hj' C. apply Hno. exists j'. tauto.
Qed.

(** Labels: [t < k] for the form's directions, [k + j0] for a first row [j0]. *)
Definition labW : mat := fun l => if lt_dec l k then U l else A' (l - k)%nat.

Lemma labW_lo l : (l < k)%nat -> row labW l = row U l.
Proof. intros Hl. unfold row, labW. destruct (lt_dec l k); [reflexivity | lia]. Qed.

Lemma labW_hi l : (k <= l)%nat -> row labW l = row A' (l - k).
Proof. intros Hl. unfold row, labW. destruct (lt_dec l k); [lia | reflexivity]. Qed.

Definition label_ok (l : nat) : Prop :=
  (l < k)%nat \/ ((k <= l)%nat /\ first_of_class (l - k)).

Definition in_label (l j : nat) : Prop :=
  nonzero_vec d (row A' j) /\ label_ok l /\ rel d (row A' j) (row labW l).

Lemma in_label_unique l1 l2 j : in_label l1 j -> in_label l2 j -> l1 = l2.
Proof.
  intros [Hnz [Ho1 R1]] [_ [Ho2 R2]].
  assert (R12 : rel d (row labW l1) (row labW l2))
    by exact (rel_trans d _ _ _ (rel_sym d _ _ Hnz R1) R2).
  assert (R21 : rel d (row labW l2) (row labW l1))
    by exact (rel_trans d _ _ _ (rel_sym d _ _ Hnz R2) R1).
  destruct Ho1 as [L1|[L1 F1]], Ho2 as [L2|[L2 F2]].
  - rewrite (labW_lo l1 L1), (labW_lo l2 L2) in R12.
    destruct (Nat.eq_dec l1 l2) as [|Hne]; [assumption|]. exfalso. exact (HUd l1 l2 L1 L2 Hne R12).
  - rewrite (labW_lo l1 L1), (labW_hi l2 L2) in R21. exfalso. exact (proj1 (proj2 F2) l1 L1 R21).
  - rewrite (labW_hi l1 L1), (labW_lo l2 L2) in R12. exfalso. exact (proj1 (proj2 F1) l2 L2 R12).
  - rewrite (labW_hi l1 L1), (labW_hi l2 L2) in R12, R21.
    destruct (lt_eq_lt_dec (l1 - k) (l2 - k)) as [[Hlt|Heq]|Hgt].
    + exfalso. exact (proj2 (proj2 F2) (l1 - k)%nat Hlt (conj (proj1 F1) R12)).
    + lia.
    + exfalso. exact (proj2 (proj2 F1) (l2 - k)%nat Hgt (conj (proj1 F2) R21)).
Qed.

Lemma in_label_exists j : (j < m)%nat -> nonzero_vec d (row A' j) ->
  exists l, (l < k + m)%nat /\ in_label l j.
Proof.
  intros Hj Hnz.
  destruct (classic (exists t, (t < k)%nat /\ rel d (row A' j) (row U t))) as [[t [Ht Hr]]|Hno].
  - exists t. split; [lia|]. split; [exact Hnz|]. split; [left; exact Ht|].
    rewrite (labW_lo t Ht). exact Hr.
  - assert (Hoff : off_form j) by (intros t Ht C; apply Hno; exists t; split; assumption).
    destruct (first_of_class_exists j Hj Hnz Hoff) as [j0 [Hle [Hf Hr]]].
    exists (k + j0)%nat. split; [lia|]. split; [exact Hnz|].
    rewrite (labW_hi (k + j0) ltac:(lia)). replace (k + j0 - k)%nat with j0 by lia.
    split; [right; split; [lia|] | exact Hr].
    replace (k + j0 - k)%nat with j0 by lia. exact Hf.
Qed.

Lemma label_choice : exists mem : nat -> nat -> bool,
  forall l j, (l < k + m)%nat -> (j < m)%nat -> (mem l j = true <-> in_label l j).
Proof.
  destruct (finite_choice (fun _ => false) (k + m)
              (fun l f => forall j, (j < m)%nat -> (f j = true <-> in_label l j))) as [F HF].
  - intros l _. apply (finite_choice false m (fun j b => b = true <-> in_label l j)).
    intros j _. destruct (classic (in_label l j)) as [Hi|Hi].
    + exists true. tauto.
    + exists false. split; [discriminate | intros C; contradiction].
  - exists F. intros l j Hl Hj. exact (HF l Hl j Hj).
Qed.

Lemma coef_choice : exists sc : nat -> nat -> R,
  forall l j, (l < k + m)%nat -> (j < m)%nat -> in_label l j ->
    forall q, (q < d)%nat -> A' j q = sc l j * labW l q.
Proof.
  destruct (finite_choice (fun _ => 0) (k + m)
              (fun l f => forall j, (j < m)%nat -> in_label l j ->
                          forall q, (q < d)%nat -> A' j q = f j * labW l q)) as [F HF].
  - intros l _. apply (finite_choice 0 m (fun j c => in_label l j ->
                          forall q, (q < d)%nat -> A' j q = c * labW l q)).
    intros j _. destruct (classic (in_label l j)) as [Hi|Hi].
    + destruct (rel_scale d _ _ (proj2 (proj2 Hi))) as [c Hc]. exists c. intros _. exact Hc.
    + exists 0. intros C. contradiction.
  - exists F. intros l j Hl Hj. exact (HF l Hl j Hj).
Qed.

Theorem width_condition_necessary_construction :
  nonzero_cols d k G -> width_condition d k m U G L.
Proof.
  intros HG. destruct label_choice as [mem Hmem]. destruct coef_choice as [sc Hsc].
  apply (width_condition_of_labels d k m (k + m) U G L A' B' labW mem sc).
  - lia.
  - exact HG.
  - intros l q Hl Hq. unfold labW. destruct (lt_dec l k); [reflexivity | lia].
  - intros j q Hj Hq. destruct (classic (nonzero_vec d (row A' j))) as [Hnz|Hz].
    + destruct (in_label_exists j Hj Hnz) as [l0 [Hl0 Hin]].
      rewrite (sumn_ext (k + m) _ (fun l => if Nat.eq_dec l0 l then sc l j * labW l q else 0)).
      * rewrite sumn_delta by exact Hl0. exact (Hsc l0 j Hl0 Hj Hin q Hq).
      * intros l Hl. destruct (Nat.eq_dec l0 l) as [<-|Hne].
        -- rewrite (proj2 (Hmem l0 j Hl0 Hj) Hin). reflexivity.
        -- destruct (mem l j) eqn:E; [|reflexivity]. exfalso. apply Hne.
           exact (in_label_unique l0 l j Hin (proj1 (Hmem l j Hl Hj) E)).
    + rewrite sumn_zero.
      * exact (not_nonzero_zero d _ Hz q Hq).
      * intros l Hl. destruct (mem l j) eqn:E; [|reflexivity]. exfalso.
        exact (Hz (proj1 (proj1 (Hmem l j Hl Hj) E))).
  - intros j Hj. apply sumn_indicator_le_one. intros l1 l2 H1 H2 E1 E2.
    exact (in_label_unique l1 l2 j (proj1 (Hmem l1 j H1 Hj) E1) (proj1 (Hmem l2 j H2 Hj) E2)).
  - intros p q Hp Hq. exact (witness_odd_matrix sigma d k m U G L A' B' Hodd H p q Hp Hq).
  - intros l p Hl Hp. destruct (Nat.ltb_spec l k) as [Hlk|Hlk].
    + apply (class_kink_form l (mem l) (sc l) p Hlk Hp).
      * intros j Hj. rewrite (Hmem l j Hl Hj). unfold in_label. rewrite (labW_lo l Hlk).
        split; [tauto|]. intros [Hnz Hr]. split; [exact Hnz|]. split; [left; exact Hlk | exact Hr].
      * intros j q Hj Hq E. rewrite (Hsc l j Hl Hj (proj1 (Hmem l j Hl Hj) E) q Hq).
        unfold labW. destruct (lt_dec l k); [reflexivity | lia].
    + destruct (classic (first_of_class (l - k))) as [Hf|Hf].
      * apply (class_kink_other (row A' (l - k)) (mem l) (sc l) p (proj1 Hf) Hp).
        -- intros t Ht C. apply (proj1 (proj2 Hf) t Ht). exact (rel_sym d _ _ (HU t Ht) C).
        -- intros j Hj. rewrite (Hmem l j Hl Hj). unfold in_label. rewrite (labW_hi l Hlk).
           split; [tauto|]. intros [Hnz Hr]. split; [exact Hnz|].
           split; [right; split; assumption | exact Hr].
        -- intros j q Hj Hq E. rewrite (Hsc l j Hl Hj (proj1 (Hmem l j Hl Hj) E) q Hq).
           unfold labW. destruct (lt_dec l k); [lia | reflexivity].
      * apply sumn_zero. intros j Hj. destruct (mem l j) eqn:E; [|reflexivity]. exfalso.
        destruct (proj1 (Hmem l j Hl Hj) E) as [_ [[C|[_ C]] _]]; [lia | exact (Hf C)].
Qed.

End Construction.

(** ** The (=>) direction *)

Theorem width_condition_necessary_generic sigma rel d k m (U G L A' B' : mat) :
  odd_part_identity sigma -> class_rel rel -> grouped_ridge (even_part sigma) rel ->
  (forall t, (t < k)%nat -> nonzero_vec d (row U t)) ->
  (forall s t, (s < k)%nat -> (t < k)%nat -> s <> t -> ~ rel d (row U s) (row U t)) ->
  nonzero_cols d k G ->
  same_fun d (ungated sigma d m A' B') (ridge_form sigma d k U G L) ->
  width_condition d k m U G L.
Proof.
  intros Hodd Hrel Hgr HU HUd HG H.
  exact (width_condition_necessary_construction sigma rel d k m U G L A' B'
           Hodd Hrel Hgr HU HUd H HG).
Qed.

(** R8 (=>), ReLU. *)
Theorem width_condition_necessary_relu d k m (U G L A' B' : mat) :
  lines_distinct d k U -> nonzero_cols d k G ->
  same_fun d (ungated relu d m A' B') (ridge_form relu d k U G L) ->
  width_condition d k m U G L.
Proof.
  intros [HU Hind] HG H.
  apply (width_condition_necessary_generic relu parallel_to d k m U G L A' B'
           relu_odd_part class_rel_parallel grouped_ridge_relu HU); [|exact HG | exact H].
  intros s t Hs Ht Hne Hpar.
  exact (parallel_not_independent d _ _ Hpar (Hind t s Ht Hs (fun E => Hne (eq_sym E)))).
Qed.

(** R8' (=>), any [sigma] with [sigma(z) - sigma(-z) = z], [sigma 0 = 0] and
    ridge uniqueness of its even part. *)
Theorem width_condition_necessary_pm sigma d k m (U G L A' B' : mat) :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  signs_distinct d k U -> nonzero_cols d k G ->
  same_fun d (ungated sigma d m A' B') (ridge_form sigma d k U G L) ->
  width_condition d k m U G L.
Proof.
  intros Hodd H0 Hun [HU Hsd] HG H.
  assert (He0 : even_part sigma 0 = 0) by (unfold even_part; rewrite H0; field).
  apply (width_condition_necessary_generic sigma pm_equal d k m U G L A' B' Hodd class_rel_pm
           (grouped_ridge_of_unique _ (even_part_even sigma Hodd) He0 Hun) HU Hsd HG H).
Qed.

Corollary width_condition_necessary_gelu d k m (U G L A' B' : mat) :
  signs_distinct d k U -> nonzero_cols d k G ->
  same_fun d (ungated gelu d m A' B') (ridge_form gelu d k U G L) ->
  width_condition d k m U G L.
Proof.
  apply width_condition_necessary_pm; [exact gelu_odd_part | exact gelu_zero |].
  exact (ridge_unique_even_ext _ _ even_part_gelu gelu_ridge_unique).
Qed.

Corollary width_condition_necessary_gelu_tanh d k m (U G L A' B' : mat) :
  signs_distinct d k U -> nonzero_cols d k G ->
  same_fun d (ungated gelu_tanh d m A' B') (ridge_form gelu_tanh d k U G L) ->
  width_condition d k m U G L.
Proof.
  apply width_condition_necessary_pm;
    [exact gelu_tanh_odd_part | exact gelu_tanh_zero | exact gelu_tanh_ridge_unique].
Qed.

Corollary width_condition_necessary_silu d k m (U G L A' B' : mat) :
  signs_distinct d k U -> nonzero_cols d k G ->
  same_fun d (ungated silu d m A' B') (ridge_form silu d k U G L) ->
  width_condition d k m U G L.
Proof.
  apply width_condition_necessary_pm;
    [exact silu_odd_part | exact (proj2 silu_vanishing) | exact silu_ridge_unique].
Qed.
