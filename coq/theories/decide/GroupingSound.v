(** * R8 / R8': a grouping turns a residual block into its ridge form

    If [grouping d n k A B U G L cls lam] holds (rows of [A] collected into
    classes along directions [u_t], [a_i = lam_i u_{cls i}]), then
    [x + B sigma(A x)] is the ridge form [L x + sum_t G[:,t] sigma(u_t . x)].
    With biases ([act_bias_grouping]: also [c_i = lam_i s_{cls i}]),
    [x + B sigma(A x + c) + b0] is the biased ridge form with offset
    [grouping_l0] ([act_bias_grouping_form]); the unbiased statement is its
    case [c = s = b0 = 0].

    The only facts about [sigma] used are [sigma 0 = 0] (for dropped rows
    with [a_i = 0], unbiased case) and the *scale law* of each kept scale [lam]:
    [sigma(lam z) = |lam| sigma(z) - [lam < 0] |lam| z].
    ReLU satisfies it for every [lam <> 0]
    ([ReLU(lam z) = |lam| ReLU(+-z)], [ReLU(-z) = ReLU(z) - z]); any
    activation with [sigma(z) - sigma(-z) = z] satisfies it for [lam = +-1].

    Main results: [act_bias_grouping_form], [grouping_sound] (any activation
    with the scale law), [grouping_sound_relu], [grouping_sound_pm] (GELU
    family, as one statement over [sigma]), and [grouping_of_classes]: the
    kink vectors and linear part of a grouping are determined by [cls], [lam],
    [U], so a grouping exists as soon as its first two clauses hold. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations BiasBlocks BiasSpec.
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

(** ** Biased groupings

    A biased block [x + B sigma(A x + c) + b0] is grouped by a [grouping] of
    [(A, B)] whose kept rows also have [c_i = lam_i s_{cls i}]; the offset
    of its biased ridge form is [grouping_l0]: [b0], minus [|lam_i| b_i s_t]
    for the kept rows with [lam_i < 0], plus [b_i sigma(c_i)] for the dropped
    rows.  The unbiased [grouping_sound] is its case [c = s = b0 = 0]. *)
Definition grouping_l0 (sigma : R -> R) (d n k : nat) (c : vec) (B : mat) (b0 : vec) (s : vec)
    (cls : nat -> nat) (lam : nat -> R) : vec :=
  fun p => b0 p
           + sumn n (fun i => if Nat.ltb (cls i) k then
                                if Rlt_dec (lam i) 0 then - (Rabs (lam i) * B p i * s (cls i))
                                else 0
                              else B p i * sigma (c i)).

Definition act_bias_grouping (sigma : R -> R) (d n k : nat) (A : mat) (c : vec) (B : mat) (b0 : vec)
    (U : mat) (s : vec) (G L : mat) (l0 : vec) (cls : nat -> nat) (lam : nat -> R) : Prop :=
  grouping d n k A B U G L cls lam /\
  (forall i, (i < n)%nat -> (cls i < k)%nat -> c i = lam i * s (cls i)) /\
  (forall p, (p < d)%nat -> l0 p = grouping_l0 sigma d n k c B b0 s cls lam p).

(** ** Regrouping the sums *)

Lemma sumn_delta_or_zero k (t0 : nat) (f : nat -> R) :
  sumn k (fun t => if Nat.eq_dec t0 t then f t else 0) =
  if Nat.ltb t0 k then f t0 else 0.
Proof.
  destruct (Nat.ltb t0 k) eqn:E.
  - apply Nat.ltb_lt in E. apply sumn_delta. exact E.
  - apply Nat.ltb_ge in E. apply sumn_zero. intros t Ht.
    destruct (Nat.eq_dec t0 t); [lia | reflexivity].
Qed.

(** [sum_t G[p,t] z_t = sum_{i kept} |lam_i| b_{p,i} z_{cls i}]. *)
Lemma grouped_kinks n k (cls : nat -> nat) (lam : nat -> R) (B G : mat) (z : nat -> R) p :
  (forall t, (t < k)%nat ->
     G p t = sumn n (fun i => if Nat.eq_dec (cls i) t then Rabs (lam i) * B p i else 0)) ->
  sumn k (fun t => G p t * z t) =
  sumn n (fun i => if Nat.ltb (cls i) k then Rabs (lam i) * B p i * z (cls i) else 0).
Proof.
  intros HG.
  rewrite (sumn_ext k _ (fun t => sumn n (fun i =>
              if Nat.eq_dec (cls i) t then Rabs (lam i) * B p i * z t else 0))).
  - rewrite sumn_swap. apply sumn_ext. intros i _.
    rewrite (sumn_delta_or_zero k (cls i) (fun t => Rabs (lam i) * B p i * z t)). reflexivity.
  - intros t Ht. rewrite (HG t Ht), <- sumn_scal_r. apply sumn_ext. intros i _.
    destruct (Nat.eq_dec (cls i) t); ring.
Qed.

(** The linear part applied to [x]. *)
Lemma grouped_linear d n k (cls : nat -> nat) (lam : nat -> R) (B U L : mat) x p :
  (p < d)%nat ->
  (forall q, (q < d)%nat ->
     L p q = identity p q
             - sumn n (fun i => if Nat.ltb (cls i) k then
                                  if Rlt_dec (lam i) 0 then Rabs (lam i) * B p i * U (cls i) q
                                  else 0
                                else 0)) ->
  mv d L x p = x p - sumn n (fun i => if Nat.ltb (cls i) k then
                                       if Rlt_dec (lam i) 0
                                       then Rabs (lam i) * B p i * dot d (row U (cls i)) x
                                       else 0
                                     else 0).
Proof.
  intros Hp HL. unfold mv at 1. unfold dot at 1. unfold row at 1.
  rewrite (sumn_ext d _ (fun q => identity p q * x q
             - sumn n (fun i => if Nat.ltb (cls i) k then
                                  if Rlt_dec (lam i) 0 then Rabs (lam i) * B p i * U (cls i) q * x q
                                  else 0
                                else 0))).
  - rewrite sumn_minus, sumn_swap.
    pose proof (mv_identity d x p Hp) as I. unfold mv, dot, row in I. rewrite I.
    f_equal. apply sumn_ext. intros i _.
    destruct (Nat.ltb (cls i) k); [|apply sumn_zero; reflexivity].
    destruct (Rlt_dec (lam i) 0); [|apply sumn_zero; reflexivity].
    unfold dot, row. rewrite <- sumn_scal_l. apply sumn_ext. intros; ring.
  - intros q Hq. rewrite (HL q Hq), Rmult_minus_distr_r, <- sumn_scal_r. f_equal.
    apply sumn_ext. intros i _.
    destruct (Nat.ltb (cls i) k); [destruct (Rlt_dec (lam i) 0)|]; ring.
Qed.

(** ** Soundness *)

(** The biased block is its biased ridge form, for any [sigma] whose kept
    scales obey the [scale_law]. *)
Theorem act_bias_grouping_form : forall sigma d n k A c B b0 U s G L l0 cls lam,
  act_bias_grouping sigma d n k A c B b0 U s G L l0 cls lam ->
  (forall i, (i < n)%nat -> (cls i < k)%nat -> scale_law sigma (lam i)) ->
  same_fun d (residual d identity (ungated_bias sigma d n A c B b0))
             (bias_ridge_form sigma d k U s G L l0).
Proof.
  intros sigma d n k A c B b0 U s G L l0 cls lam [[Hkeep [Hdrop [HG HL]]] [Hc Hl0]] Hsc x p Hp.
  unfold residual, ungated_bias, bias_ridge_form.
  rewrite (mv_identity d x p Hp).
  rewrite (grouped_linear d n k cls lam B U L x p Hp (fun q Hq => HL p q Hp Hq)).
  rewrite (Hl0 p Hp). unfold grouping_l0.
  rewrite (grouped_kinks n k cls lam B G (fun t => sigma (dot d (row U t) x + s t)) p
             (fun t Ht => HG p t Hp Ht)).
  assert (Ht : sumn n (fun i => B p i * sigma (dot d (row A i) x + c i)) =
    sumn n (fun i => (if Nat.ltb (cls i) k then
                        if Rlt_dec (lam i) 0 then - (Rabs (lam i) * B p i * s (cls i)) else 0
                      else B p i * sigma (c i))
                     + (if Nat.ltb (cls i) k
                        then Rabs (lam i) * B p i * sigma (dot d (row U (cls i)) x + s (cls i))
                        else 0)
                     - (if Nat.ltb (cls i) k then
                          if Rlt_dec (lam i) 0
                          then Rabs (lam i) * B p i * dot d (row U (cls i)) x else 0
                        else 0))).
  { apply sumn_ext. intros i Hi. destruct (Nat.ltb (cls i) k) eqn:E.
    - apply Nat.ltb_lt in E. destruct (Hkeep i Hi E) as [_ Ha].
      rewrite (dot_scaled_row d A U i (cls i) (lam i) x Ha), (Hc i Hi E).
      replace (lam i * dot d (row U (cls i)) x + lam i * s (cls i))
        with (lam i * (dot d (row U (cls i)) x + s (cls i))) by ring.
      rewrite (Hsc i Hi E). destruct (Rlt_dec (lam i) 0); ring.
    - apply Nat.ltb_ge in E. destruct (Hdrop i Hi E) as [Ha|Hb].
      + rewrite (dot_zero_row d A i x Ha), Rplus_0_l. ring.
      + rewrite (Hb p Hp). ring. }
  rewrite Ht. repeat (rewrite sumn_plus || rewrite sumn_minus). ring.
Qed.

(** Without biases ([c = s = b0 = 0], so [l0 = 0] when [sigma 0 = 0]). *)
Theorem grouping_sound sigma d n k (A B U G L : mat) cls lam :
  sigma 0 = 0 ->
  (forall i, (i < n)%nat -> (cls i < k)%nat -> scale_law sigma (lam i)) ->
  grouping d n k A B U G L cls lam ->
  same_fun d (residual d identity (ungated sigma d n A B)) (ridge_form sigma d k U G L).
Proof.
  intros H0 Hsc Hg x p Hp.
  assert (Hb : act_bias_grouping sigma d n k A (fun _ => 0) B (fun _ => 0) U (fun _ => 0) G L
                 (fun _ => 0) cls lam).
  { split; [exact Hg|]. split; [intros; ring|]. intros q _. unfold grouping_l0.
    rewrite sumn_zero; [ring|]. intros i _. rewrite H0.
    destruct (Nat.ltb (cls i) k); [destruct (Rlt_dec (lam i) 0)|]; ring. }
  pose proof (act_bias_grouping_form sigma d n k A _ B _ U _ G L _ cls lam Hb Hsc x p Hp) as E.
  unfold residual, ungated_bias, bias_ridge_form in E. unfold residual, ungated, ridge_form.
  rewrite (sumn_ext n _ (fun j => B p j * sigma (dot d (row A j) x + 0)))
    by (intros; rewrite Rplus_0_r; reflexivity).
  rewrite (sumn_ext k _ (fun t => G p t * sigma (dot d (row U t) x + 0)))
    by (intros; rewrite Rplus_0_r; reflexivity).
  lra.
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
  intros Hodd H0 [Hg Hpm].
  apply (grouping_sound sigma d n k A B U G L cls lam); [exact H0 | | exact Hg].
  intros i Hi Hc. apply odd_part_scale_law_pm; [exact Hodd | exact (Hpm i Hi Hc)].
Qed.

Corollary grouping_sound_gelu d n k (A B U G L : mat) cls lam :
  grouping_pm d n k A B U G L cls lam ->
  same_fun d (residual d identity (ungated gelu d n A B)) (ridge_form gelu d k U G L).
Proof.
  exact (grouping_sound_pm gelu d n k A B U G L cls lam gelu_odd_part (proj2 gelu_vanishing)).
Qed.

Corollary grouping_sound_silu d n k (A B U G L : mat) cls lam :
  grouping_pm d n k A B U G L cls lam ->
  same_fun d (residual d identity (ungated silu d n A B)) (ridge_form silu d k U G L).
Proof.
  exact (grouping_sound_pm silu d n k A B U G L cls lam silu_odd_part (proj2 silu_vanishing)).
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
