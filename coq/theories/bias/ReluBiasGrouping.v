(** * Grouping a biased ReLU block by hyperplanes (paper.md R9, R8 with biases)

    Rows of [x + B relu(A x + c) + b0] with [(a_i, c_i) = lam_i (u_t, s_t)],
    [lam_i <> 0], share the hyperplane class [t]; since
    [relu(lam z) = |lam| relu z - [lam < 0] |lam| z], the block is the biased
    ridge form ([BiasRidgeForm.bias_ridge_form]) with kink vectors
    [G[:,t] = sum_{cls i = t} |lam_i| b_i], linear part
    [L = I - sum_{lam_i < 0} |lam_i| b_i u_{cls i}^T] and constant
    [l0 = b0 - sum_{lam_i < 0} |lam_i| b_i s_{cls i} + sum_{dropped i} b_i relu(c_i)]
    (a dropped row has [a_i = 0], a constant, or [b_i = 0]).
    - [act_bias_grouping_form]: the same for any activation [sigma] whose kept
      scales obey the [scale_law] (dropped rows give [b_i sigma(c_i)] in [l0]);
    - [bias_grouping_form]: the block equals its biased ridge form;
    - [relu_bias_grouped_sufficient] (headline): R8's width condition on the
      linear parts [(U, G, L)] implies absorbability at width [m];
    - [relu_bias_grouped_width] (headline): with canonical classes
      ([generic_bias_lines d k U s G]: [u_t <> 0], the [(u_t, s_t)] pairwise
      independent, [G[:,t] <> 0]) absorbability at width [m] forces [k <= m]. *)

From Coq Require Import Reals Lra Lia Arith.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry FiniteMaps
  Ridge ReluSubmatrix FlipSigns Biases BiasSpec AffineRidge ReluBias RidgeForm BiasRidgeForm.
Open Scope R_scope.

(** The biased grouping relation for an activation [sigma]: kept rows are
    [lam_i (u_t, s_t)], dropped rows contribute [b_i sigma(c_i)] to [l0]. *)
Definition act_bias_grouping (sigma : R -> R) (d n k : nat) (A : mat) (c : vec) (B : mat) (b0 : vec)
    (U : mat) (s : vec) (G L : mat) (l0 : vec) (cls : nat -> nat) (lam : nat -> R) : Prop :=
  (forall i, (i < n)%nat -> (cls i < k)%nat ->
     lam i <> 0 /\ (forall j, (j < d)%nat -> A i j = lam i * U (cls i) j) /\
     c i = lam i * s (cls i)) /\
  (forall i, (i < n)%nat -> (k <= cls i)%nat ->
     (forall j, (j < d)%nat -> A i j = 0) \/ (forall p, (p < d)%nat -> B p i = 0)) /\
  (forall p t, (p < d)%nat -> (t < k)%nat ->
     G p t = sumn n (fun i => if Nat.eq_dec (cls i) t then Rabs (lam i) * B p i else 0)) /\
  (forall p q, (p < d)%nat -> (q < d)%nat ->
     L p q = identity p q
             - sumn n (fun i => if Nat.ltb (cls i) k then
                                  if Rlt_dec (lam i) 0 then Rabs (lam i) * B p i * U (cls i) q
                                  else 0
                                else 0)) /\
  (forall p, (p < d)%nat ->
     l0 p = b0 p
            + sumn n (fun i => if Nat.ltb (cls i) k then
                                 if Rlt_dec (lam i) 0 then - (Rabs (lam i) * B p i * s (cls i))
                                 else 0
                               else B p i * sigma (c i))).

(** The biased analogue of [RidgeForm.grouping] (ReLU). *)
Definition bias_grouping := act_bias_grouping relu.

(** ** ReLU of a scaled argument *)

Lemma relu_scale_abs lam z : lam <> 0 ->
  relu (lam * z) = Rabs lam * relu z - (if Rlt_dec lam 0 then Rabs lam * z else 0).
Proof.
  intros Hl. destruct (Rlt_dec lam 0) as [N|N].
  - rewrite Rabs_left by exact N.
    replace (lam * z) with ((- lam) * (- z)) by ring.
    rewrite relu_scale by lra. pose proof (relu_odd_part z) as O.
    replace (relu (- z)) with (relu z - z) by lra. ring.
  - rewrite Rabs_right by lra. rewrite relu_scale by lra. ring.
Qed.

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

(** [sum_t G[p,t] relu(z_t) = sum_{i kept} |lam_i| b_{p,i} relu(z_{cls i})]. *)
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

(** ** The block is its biased ridge form *)

(** The scale law of [sigma] at [lam] ([relu_scale_abs] for ReLU). *)
Definition scale_law (sigma : R -> R) (lam : R) : Prop :=
  forall z, sigma (lam * z) = Rabs lam * sigma z - (if Rlt_dec lam 0 then Rabs lam * z else 0).

Theorem act_bias_grouping_form : forall sigma d n k A c B b0 U s G L l0 cls lam,
  act_bias_grouping sigma d n k A c B b0 U s G L l0 cls lam ->
  (forall i, (i < n)%nat -> (cls i < k)%nat -> scale_law sigma (lam i)) ->
  same_fun d (residual d identity (ungated_bias sigma d n A c B b0))
             (bias_ridge_form sigma d k U s G L l0).
Proof.
  intros sigma d n k A c B b0 U s G L l0 cls lam [Hkeep [Hdrop [HG [HL Hl0]]]] Hsc x p Hp.
  unfold residual, ungated_bias, bias_ridge_form.
  rewrite (mv_identity d x p Hp).
  rewrite (grouped_linear d n k cls lam B U L x p Hp (fun q Hq => HL p q Hp Hq)).
  rewrite (Hl0 p Hp).
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
    - apply Nat.ltb_lt in E. destruct (Hkeep i Hi E) as [Hl [Ha Hc]].
      rewrite (parallel_dot d (row A i) (row U (cls i)) (lam i) x Ha), Hc.
      replace (lam i * dot d (row U (cls i)) x + lam i * s (cls i))
        with (lam i * (dot d (row U (cls i)) x + s (cls i))) by ring.
      rewrite (Hsc i Hi E). destruct (Rlt_dec (lam i) 0); ring.
    - apply Nat.ltb_ge in E. destruct (Hdrop i Hi E) as [Ha|Hb].
      + rewrite (parallel_dot d (row A i) (row A i) 0 x) by (intros; unfold row; rewrite Ha; [ring | assumption]).
        rewrite Rmult_0_l, Rplus_0_l. ring.
      + rewrite (Hb p Hp). ring. }
  rewrite Ht. repeat (rewrite sumn_plus || rewrite sumn_minus). ring.
Qed.

Theorem bias_grouping_form : forall d n k A c B b0 U s G L l0 cls lam,
  bias_grouping d n k A c B b0 U s G L l0 cls lam ->
  same_fun d (residual d identity (ungated_bias relu d n A c B b0))
             (bias_ridge_form relu d k U s G L l0).
Proof.
  intros d n k A c B b0 U s G L l0 cls lam Hg. apply (act_bias_grouping_form relu d n k A c B b0 U s G L l0 cls lam Hg).
  intros i Hi Hk z. exact (relu_scale_abs (lam i) z (proj1 (proj1 Hg i Hi Hk))).
Qed.

(** ** Consequences *)

Theorem relu_bias_grouped_sufficient : forall d n k m A c B b0 U s G L l0 cls lam,
  bias_grouping d n k A c B b0 U s G L l0 cls lam ->
  width_condition d k m U G L ->
  absorbable_ungated_bias relu d n m identity A c B b0.
Proof.
  intros d n k m A c B b0 U s G L l0 cls lam Hg Hw.
  destruct (bias_width_condition_sufficient relu d k m U s G L l0 relu_odd_part Hw)
    as [A' [c' [B' [b0' H]]]].
  exists A', c', B', b0'. intros x p Hp.
  rewrite (H x p Hp). symmetry. exact (bias_grouping_form d n k A c B b0 U s G L l0 cls lam Hg x p Hp).
Qed.

Theorem relu_bias_grouped_width : forall d n k m A c B b0 U s G L l0 cls lam,
  bias_grouping d n k A c B b0 U s G L l0 cls lam ->
  generic_bias_lines d k U s G ->
  absorbable_ungated_bias relu d n m identity A c B b0 -> (k <= m)%nat.
Proof.
  intros d n k m A c B b0 U s G L l0 cls lam Hg Hgen [A' [c' [B' [b0' H]]]].
  apply (relu_bias_form_width d k m U s G L l0 Hgen).
  exists A', c', B', b0'. intros x p Hp.
  rewrite (H x p Hp). exact (bias_grouping_form d n k A c B b0 U s G L l0 cls lam Hg x p Hp).
Qed.

(** ** Non-vacuity *)

(** [d = 1], [n = 2]: [x + relu(x + 1) + relu(2x + 2)] has one class
    (the hyperplane [x = -1], [u = 1], [s = 1], [lam = (1, 2)]) with kink
    [G = 3], [L = 1], [l0 = 0].  It is absorbable at width 2 (R8's width
    condition with [T = {0}]) but, having one class, the width bound only
    says [1 <= m]. *)
Definition bg_A : mat := fun i _ => if Nat.eq_dec i 0 then 1 else 2.
Definition bg_c : vec := fun i => if Nat.eq_dec i 0 then 1 else 2.
Definition bg_lam : nat -> R := fun i => if Nat.eq_dec i 0 then 1 else 2.

Example bias_grouping_instance :
  bias_grouping 1 2 1 bg_A bg_c (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 1)
    (fun _ _ => 3) (fun _ _ => 1) (fun _ => 0) (fun _ => 0%nat) bg_lam.
Proof.
  assert (Habs2 : Rabs 2 = 2) by (apply Rabs_right; lra).
  assert (Habs1 : Rabs 1 = 1) by (apply Rabs_right; lra).
  split; [|split; [|split; [|split]]].
  - intros i Hi _. unfold bg_A, bg_c, bg_lam.
    destruct (Nat.eq_dec i 0); (split; [lra | split; [intros; ring | ring]]).
  - intros i _ H. lia.
  - intros p t _ Ht. assert (t = 0%nat) by lia. subst. simpl. unfold bg_lam. simpl.
    rewrite Habs1, Habs2. ring.
  - intros p q Hp Hq. assert (p = 0%nat) by lia. assert (q = 0%nat) by lia. subst.
    simpl. unfold bg_lam, identity. simpl.
    destruct (Rlt_dec 1 0); [lra|]. destruct (Rlt_dec 2 0); [lra|]. ring.
  - intros p _. simpl. unfold bg_lam. simpl.
    destruct (Rlt_dec 1 0); [lra|]. destruct (Rlt_dec 2 0); [lra|]. ring.
Qed.

Example relu_bias_grouped_instance :
  absorbable_ungated_bias relu 1 2 2 identity bg_A bg_c (fun _ _ => 1) (fun _ => 0).
Proof.
  apply (relu_bias_grouped_sufficient 1 2 1 2 _ _ _ _ _ _ _ _ _ _ _ bias_grouping_instance).
  exists (fun _ => true), (fun _ => false), 0%nat, (fun _ _ => 1), (fun _ _ => 0), (fun _ _ => 0).
  split; [intros; reflexivity|]. split; [simpl; lia|].
  intros i j _ _. unfold masked_outer, low_rank. simpl. ring.
Qed.
