(** * R8 / R8': a grouping turns a residual block into its ridge form

    If [grouping d n k A B U G L cls lam] holds (rows of [A] collected into
    classes along directions [u_t], [a_i = lam_i u_{cls i}]), then
    [x + B sigma(A x)] is the ridge form [L x + sum_t G[:,t] sigma(u_t . x)].

    The only facts about [sigma] used are [sigma 0 = 0] (for dropped rows
    with [a_i = 0]) and the *scale law* of each kept scale [lam]:
    [sigma(lam z) = |lam| sigma(z) - [lam < 0] |lam| z].
    ReLU satisfies it for every [lam <> 0]
    ([ReLU(lam z) = |lam| ReLU(+-z)], [ReLU(-z) = ReLU(z) - z]); any
    activation with [sigma(z) - sigma(-z) = z] satisfies it for [lam = +-1].

    Main results: [grouping_sound] (any activation with the scale law),
    [grouping_sound_relu], [grouping_sound_pm] (GELU family, as one
    statement over [sigma]), and [grouping_of_classes]: the kink vectors
    and linear part of a grouping are determined by [cls], [lam], [U], so a
    grouping exists as soon as its first two clauses hold. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations.
From Absorb.decide Require Import RidgeForm.
Open Scope R_scope.

(** ** The scale law *)

(** [sigma(lam z) = |lam| sigma(z) - [lam < 0] |lam| z] for every [z]. *)
Definition scale_law (sigma : R -> R) (lam : R) : Prop :=
  forall z, sigma (lam * z) = Rabs lam * sigma z - (if Rlt_dec lam 0 then Rabs lam * z else 0).

Lemma relu_scale_law lam : lam <> 0 -> scale_law relu lam.
Proof.
  intros Hne z. destruct (Rlt_dec lam 0) as [Hneg | Hpos].
  - rewrite Rabs_left by exact Hneg.
    replace (lam * z) with (- lam * - z) by ring.
    rewrite relu_scale by lra.
    pose proof (relu_odd_part z) as E.
    replace (relu (- z)) with (relu z - z) by lra. ring.
  - assert (Hpos' : 0 < lam) by (destruct (Rtotal_order lam 0) as [? | [? | ?]]; lra).
    rewrite Rabs_right by lra. rewrite relu_scale by exact Hpos'. ring.
Qed.

Lemma odd_part_scale_law_pm sigma lam :
  odd_part_identity sigma -> (lam = 1 \/ lam = -1) -> scale_law sigma lam.
Proof.
  intros Hodd [-> | ->] z.
  - rewrite Rabs_R1. destruct (Rlt_dec 1 0); [lra|]. rewrite Rmult_1_l. ring.
  - destruct (Rlt_dec (-1) 0); [|lra]. rewrite Rabs_left by lra.
    replace (-1 * z) with (- z) by ring. pose proof (Hodd z). lra.
Qed.

(** ** Sum manipulations *)

Lemma dot_scaled_row d (A U : mat) i t lam x :
  (forall j, (j < d)%nat -> A i j = lam * U t j) ->
  dot d (row A i) x = lam * dot d (row U t) x.
Proof.
  intros H. unfold dot, row. rewrite <- sumn_scal_l. apply sumn_ext.
  intros j Hj. rewrite H by exact Hj. ring.
Qed.

Lemma dot_zero_row d (A : mat) i x :
  (forall j, (j < d)%nat -> A i j = 0) -> dot d (row A i) x = 0.
Proof.
  intros H. unfold dot, row. apply sumn_zero. intros j Hj. rewrite H by exact Hj. ring.
Qed.

(** The kink-vector part of row [j]: [sum_t [cls j = t] |lam_j| b_{pj} sigma(u_t.x)]. *)
Lemma class_delta k (c : nat) (a : R) (f : nat -> R) :
  sumn k (fun t => (if Nat.eq_dec c t then a else 0) * f t) =
  if Nat.ltb c k then a * f c else 0.
Proof.
  destruct (Nat.ltb c k) eqn:E.
  - apply Nat.ltb_lt in E.
    rewrite (sumn_ext k _ (fun t => if Nat.eq_dec c t then a * f t else 0)).
    + apply (sumn_delta k c (fun t => a * f t)). exact E.
    + intros t _. destruct (Nat.eq_dec c t); ring.
  - apply Nat.ltb_ge in E. apply sumn_zero. intros t Ht.
    destruct (Nat.eq_dec c t); [lia | ring].
Qed.

(** The linear-part correction of row [j]. *)
Definition neg_term (d k : nat) (B U : mat) (cls : nat -> nat) (lam : nat -> R)
    (p j : nat) (x : vec) : R :=
  if Nat.ltb (cls j) k then
    if Rlt_dec (lam j) 0 then Rabs (lam j) * B p j * dot d (row U (cls j)) x else 0
  else 0.

(** Row [j] of the block, written in the ridge-form terms. *)
Lemma row_term_split sigma d n k (A B U : mat) cls lam p j x :
  sigma 0 = 0 -> (j < n)%nat ->
  (forall i, (i < n)%nat -> (cls i < k)%nat -> scale_law sigma (lam i)) ->
  (forall i, (i < n)%nat -> (cls i < k)%nat ->
     lam i <> 0 /\ forall j, (j < d)%nat -> A i j = lam i * U (cls i) j) ->
  (forall i, (i < n)%nat -> (k <= cls i)%nat ->
     (forall j, (j < d)%nat -> A i j = 0) \/ (forall p, (p < d)%nat -> B p i = 0)) ->
  (p < d)%nat ->
  B p j * sigma (dot d (row A j) x) =
  sumn k (fun t => (if Nat.eq_dec (cls j) t then Rabs (lam j) * B p j else 0)
                   * sigma (dot d (row U t) x))
  - neg_term d k B U cls lam p j x.
Proof.
  intros H0 Hj Hsc Hkeep Hdrop Hp. rewrite class_delta. unfold neg_term.
  destruct (Nat.ltb (cls j) k) eqn:E.
  - apply Nat.ltb_lt in E. destruct (Hkeep j Hj E) as [_ HA].
    rewrite (dot_scaled_row d A U j (cls j) (lam j) x HA).
    rewrite (Hsc j Hj E). destruct (Rlt_dec (lam j) 0); ring.
  - apply Nat.ltb_ge in E. destruct (Hdrop j Hj E) as [HA | HB].
    + rewrite (dot_zero_row d A j x HA), H0. ring.
    + rewrite HB by exact Hp. ring.
Qed.

(** ** Soundness *)

Theorem grouping_sound sigma d n k (A B U G L : mat) cls lam :
  sigma 0 = 0 ->
  (forall i, (i < n)%nat -> (cls i < k)%nat -> scale_law sigma (lam i)) ->
  grouping d n k A B U G L cls lam ->
  same_fun d (residual d identity (ungated sigma d n A B)) (ridge_form sigma d k U G L).
Proof.
  intros H0 Hsc [Hkeep [Hdrop [HG HL]]] x p Hp.
  unfold residual, ridge_form, ungated.
  rewrite (sumn_ext n _ (fun j =>
             sumn k (fun t => (if Nat.eq_dec (cls j) t then Rabs (lam j) * B p j else 0)
                              * sigma (dot d (row U t) x))
             - neg_term d k B U cls lam p j x)).
  2:{ intros j Hj. apply (row_term_split sigma d n k A B U cls lam p j x); assumption. }
  rewrite sumn_minus, sumn_swap.
  rewrite (sumn_ext k (fun t => sumn n _) (fun t => G p t * sigma (dot d (row U t) x))).
  2:{ intros t Ht. rewrite sumn_scal_r, HG by assumption. reflexivity. }
  (* the linear part *)
  assert (HLx : mv d L x p = mv d identity x p - sumn n (fun j => neg_term d k B U cls lam p j x)).
  { unfold mv, dot, row.
    rewrite (sumn_ext d (fun q => L p q * x q)
               (fun q => identity p q * x q
                         - sumn n (fun j => if Nat.ltb (cls j) k then
                                              if Rlt_dec (lam j) 0
                                              then Rabs (lam j) * B p j * U (cls j) q * x q
                                              else 0
                                            else 0))).
    2:{ intros q Hq. rewrite HL by assumption. rewrite Rmult_minus_distr_r, <- sumn_scal_r.
        f_equal. apply sumn_ext. intros j _.
        destruct (Nat.ltb (cls j) k), (Rlt_dec (lam j) 0); ring. }
    rewrite sumn_minus, sumn_swap. f_equal. apply sumn_ext. intros j _.
    unfold neg_term, dot, row.
    destruct (Nat.ltb (cls j) k).
    - destruct (Rlt_dec (lam j) 0).
      + rewrite <- sumn_scal_l. apply sumn_ext. intros; ring.
      + apply sumn_zero. reflexivity.
    - apply sumn_zero. reflexivity. }
  rewrite HLx. ring.
Qed.

(** ReLU: every grouping is sound. *)
Theorem grouping_sound_relu d n k (A B U G L : mat) cls lam :
  grouping d n k A B U G L cls lam ->
  same_fun d (residual d identity (ungated relu d n A B)) (ridge_form relu d k U G L).
Proof.
  intros Hg. apply (grouping_sound relu d n k A B U G L cls lam); [| | exact Hg].
  - apply relu_neg. lra.
  - intros i Hi Hc. apply relu_scale_law. destruct Hg as [Hkeep _].
    exact (proj1 (Hkeep i Hi Hc)).
Qed.

(** GELU, GELU_tanh, SiLU (any [sigma] with [sigma(z) - sigma(-z) = z] and
    [sigma 0 = 0]): every grouping with scales [+-1] is sound. *)
Theorem grouping_sound_pm sigma d n k (A B U G L : mat) cls lam :
  odd_part_identity sigma -> sigma 0 = 0 ->
  grouping_pm d n k A B U G L cls lam ->
  same_fun d (residual d identity (ungated sigma d n A B)) (ridge_form sigma d k U G L).
Proof.
  intros Hodd H0 [Hg Hpm]. apply (grouping_sound sigma d n k A B U G L cls lam); [exact H0 | | exact Hg].
  intros i Hi Hc. apply odd_part_scale_law_pm; [exact Hodd | exact (Hpm i Hi Hc)].
Qed.

Corollary grouping_sound_gelu d n k (A B U G L : mat) cls lam :
  grouping_pm d n k A B U G L cls lam ->
  same_fun d (residual d identity (ungated gelu d n A B)) (ridge_form gelu d k U G L).
Proof.
  apply grouping_sound_pm; [exact gelu_odd_part | exact (proj2 gelu_vanishing)].
Qed.

Corollary grouping_sound_gelu_tanh d n k (A B U G L : mat) cls lam :
  grouping_pm d n k A B U G L cls lam ->
  same_fun d (residual d identity (ungated gelu_tanh d n A B)) (ridge_form gelu_tanh d k U G L).
Proof.
  apply grouping_sound_pm; [exact gelu_tanh_odd_part | exact (proj2 gelu_tanh_vanishing)].
Qed.

Corollary grouping_sound_silu d n k (A B U G L : mat) cls lam :
  grouping_pm d n k A B U G L cls lam ->
  same_fun d (residual d identity (ungated silu d n A B)) (ridge_form silu d k U G L).
Proof.
  apply grouping_sound_pm; [exact silu_odd_part | exact (proj2 silu_vanishing)].
Qed.

(** ** Building groupings *)

(** The kink vectors a grouping prescribes. *)
Definition grouping_G (n : nat) (B : mat) (cls : nat -> nat) (lam : nat -> R) : mat :=
  fun p t => sumn n (fun i => if Nat.eq_dec (cls i) t then Rabs (lam i) * B p i else 0).

(** The linear part a grouping prescribes. *)
Definition grouping_L (n k : nat) (B U : mat) (cls : nat -> nat) (lam : nat -> R) : mat :=
  fun p q => identity p q
             - sumn n (fun i => if Nat.ltb (cls i) k then
                                  if Rlt_dec (lam i) 0 then Rabs (lam i) * B p i * U (cls i) q
                                  else 0
                                else 0).

(** Classes and scales alone determine a grouping. *)
Lemma grouping_of_classes d n k (A B U : mat) cls lam :
  (forall i, (i < n)%nat -> (cls i < k)%nat ->
     lam i <> 0 /\ forall j, (j < d)%nat -> A i j = lam i * U (cls i) j) ->
  (forall i, (i < n)%nat -> (k <= cls i)%nat ->
     (forall j, (j < d)%nat -> A i j = 0) \/ (forall p, (p < d)%nat -> B p i = 0)) ->
  grouping d n k A B U (grouping_G n B cls lam) (grouping_L n k B U cls lam) cls lam.
Proof.
  intros Hkeep Hdrop. split; [exact Hkeep|]. split; [exact Hdrop|].
  split; intros; reflexivity.
Qed.

(** Every row its own class, scale [1]: [U = A], [G = B], [L = I]. *)
Lemma trivial_grouping d n (A B : mat) :
  grouping d n n A B A B identity (fun i => i) (fun _ => 1).
Proof.
  split; [|split; [|split]].
  - intros i _ _. split; [lra|]. intros j _. ring.
  - intros i Hi Hk. lia.
  - intros p t _ Ht. rewrite Rabs_R1.
    rewrite (sumn_ext n _ (fun i => if Nat.eq_dec t i then B p i else 0)).
    + symmetry. apply sumn_delta. exact Ht.
    + intros i _. destruct (Nat.eq_dec i t), (Nat.eq_dec t i); subst; try ring; congruence.
  - intros p q _ _. rewrite sumn_zero; [ring|]. intros i _.
    destruct (Nat.ltb i n); [|reflexivity]. destruct (Rlt_dec 1 0); [lra | reflexivity].
Qed.

Lemma trivial_grouping_pm d n (A B : mat) :
  grouping_pm d n n A B A B identity (fun i => i) (fun _ => 1).
Proof. split; [apply trivial_grouping | intros; left; reflexivity]. Qed.
