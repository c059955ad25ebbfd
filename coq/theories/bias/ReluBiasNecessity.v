(** * R8 with biases for ReLU: necessity of the width condition (paper.md R9)

    A canonical biased ridge form
    [F x = L x + l0 + sum_{t < k} G[:,t] relu(u_t . x + s_t)]
    ([generic_bias_lines d k U s G]: [u_t <> 0], the augmented rows
    [(u_t, s_t)] pairwise independent, every [G[:,t] <> 0]) equal to a biased
    ReLU block of width [m] satisfies R8's width condition
    [width_condition d k m U G L].  The proof peels off one hyperplane class
    at a time ([BiasNecessityCommon.peel_form_necessary]); this file supplies
    the classes: the rows proportional to an augmented row [(p, c0)], with
    weights [|lam|]:
    - [class_kink]: along a hyperplane [p.x + c0 = 0], the rows of two
      families proportional to [(p, c0)] carry the same total [sum |lam| beta]
      when the families differ by an affine function ([relu_class_total]);
    - [relu_class_value]: [relu (lam z) = |lam| relu z - (lam < 0) |lam| z];
    - [relu_class_form]: in a generic form, the class of row [t0] is [{t0}];
    - [relu_bias_form_necessary] (headline) and [relu_bias_form_iff]
      (headline, with [BiasRidgeForm.bias_width_condition_sufficient]);
    - [relu_bias_grouped_iff] (headline): for a biased block with a grouping
      into canonical classes ([ReluBiasGrouping.bias_grouping]),
      absorbability at width [m] iff the width condition. *)

From Coq Require Import Reals Lra Lia Arith Bool.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry FiniteMaps
  Ridge ReluSubmatrix Biases BiasSpec AffineRidge ReluBias RidgeForm BiasRidgeForm
  ReluBiasGrouping.
From Absorb Require Export BiasNecessityCommon.
Open Scope R_scope.

(** ** Rows proportional to a given augmented row [(p, c0)] *)

(** [(v, e) = lam (p, c0)] for some [lam] (decided with [lam = lam_of]). *)
Definition on_class (d : nat) (p : vec) (c0 : R) (q0 : nat) (v : vec) (e : R) : bool :=
  if forall_lt_sumbool (fun k => v k = lam_of p q0 v * p k)
       (fun k => Req_EM_T (v k) (lam_of p q0 v * p k)) d
  then if Req_EM_T e (lam_of p q0 v * c0) then true else false
  else false.

Lemma on_class_true d p c0 q0 v e :
  on_class d p c0 q0 v e = true ->
  (forall k, (k < d)%nat -> v k = lam_of p q0 v * p k) /\ e = lam_of p q0 v * c0.
Proof.
  unfold on_class. destruct forall_lt_sumbool as [H|H]; [|discriminate].
  destruct Req_EM_T as [E|E]; [|discriminate]. intros _. split; assumption.
Qed.

Lemma on_class_intro d p c0 q0 v e lam : (q0 < d)%nat -> p q0 <> 0 ->
  (forall k, (k < d)%nat -> v k = lam * p k) -> e = lam * c0 ->
  on_class d p c0 q0 v e = true.
Proof.
  intros Hq Hp Hv He.
  assert (Hl : lam_of p q0 v = lam) by (unfold lam_of; rewrite (Hv q0 Hq); field; exact Hp).
  unfold on_class. rewrite Hl.
  destruct forall_lt_sumbool as [H|H]; [| exfalso; apply H; exact Hv].
  destruct Req_EM_T as [E|E]; [reflexivity | contradiction].
Qed.

Lemma on_class_self d p c0 q0 : (q0 < d)%nat -> p q0 <> 0 ->
  on_class d p c0 q0 p c0 = true /\ lam_of p q0 p = 1.
Proof.
  intros Hq Hp. split.
  - apply (on_class_intro d p c0 q0 p c0 1 Hq Hp); intros; ring.
  - unfold lam_of. field. exact Hp.
Qed.

(** On a class row, the affine value is [lam] times that of [(p, c0)]. *)
Lemma on_class_value d p c0 q0 v e x :
  on_class d p c0 q0 v e = true ->
  dot d v x + e = lam_of p q0 v * (dot d p x + c0).
Proof.
  intros H. destruct (on_class_true d p c0 q0 v e H) as [Hv He].
  rewrite (parallel_dot d v p _ x Hv), He. ring.
Qed.

(** ** Kinks of a class *)

Lemma bkink_class d N V c beta p c0 q0 x0 :
  (q0 < d)%nat -> p q0 <> 0 -> dot d p x0 + c0 = 0 ->
  (forall j, (j < N)%nat -> dot d (row V j) x0 + c j <> 0 \/
     exists lam, (forall k, (k < d)%nat -> row V j k = lam * p k) /\ c j = lam * c0) ->
  bkink_sum d N V c beta x0 p =
  dot d p p * sumn N (fun j => if on_class d p c0 q0 (row V j) (c j)
                               then Rabs (lam_of p q0 (row V j)) * beta j else 0).
Proof.
  intros Hq Hp Hx0 Hav. unfold bkink_sum. rewrite <- sumn_scal_l.
  assert (Hpp : 0 <= dot d p p).
  { unfold dot. apply sumn_nonneg. intros; apply Rle_0_sqr. }
  apply sumn_ext. intros j Hj.
  destruct (on_class d p c0 q0 (row V j) (c j)) eqn:Ec.
  - rewrite (on_class_value d p c0 q0 _ _ x0 Ec), Hx0, Rmult_0_r.
    destruct (Req_EM_T 0 0) as [_|C]; [|congruence].
    destruct (on_class_true d p c0 q0 _ _ Ec) as [Hv _].
    rewrite (parallel_dot d (row V j) p _ p Hv), Rabs_mult, (Rabs_right (dot d p p)) by lra.
    ring.
  - destruct (Hav j Hj) as [Hn|[lam [Hv He]]].
    + destruct (Req_EM_T (dot d (row V j) x0 + c j) 0); [contradiction | ring].
    + rewrite (on_class_intro d p c0 q0 _ _ lam Hq Hp Hv He) in Ec. discriminate.
Qed.

(** Two families differing by an affine function carry the same class totals. *)
Lemma class_kink d N V c beta N2 W e gamma (F : vec -> R) p c0 q0 :
  (q0 < d)%nat -> p q0 <> 0 ->
  (forall x, bridge_sum d N V c beta x = bridge_sum d N2 W e gamma x + F x) ->
  affine_like F ->
  sumn N (fun j => if on_class d p c0 q0 (row V j) (c j)
                   then Rabs (lam_of p q0 (row V j)) * beta j else 0) =
  sumn N2 (fun j => if on_class d p c0 q0 (row W j) (e j)
                    then Rabs (lam_of p q0 (row W j)) * gamma j else 0).
Proof.
  intros Hq Hp H HF.
  assert (Hnz : nonzero_vec d p) by (exists q0; split; assumption).
  pose proof (dot_self_pos d p Hnz) as Hpp.
  pose (v := fun j => if lt_dec j N then row V j else row W (j - N)%nat).
  pose (ev := fun j => if lt_dec j N then c j else e (j - N)%nat).
  destruct (affine_avoid d p c0 v ev (N + N2) Hnz) as [x0 [Hx0 Hav]].
  pose proof (bkink_eq d N V c beta N2 W e gamma F H HF x0 p) as E.
  rewrite (bkink_class d N V c beta p c0 q0 x0 Hq Hp Hx0) in E.
  - rewrite (bkink_class d N2 W e gamma p c0 q0 x0 Hq Hp Hx0) in E.
    + apply (Rmult_eq_reg_l (dot d p p)); [exact E | lra].
    + intros j Hj. pose proof (Hav (N + j)%nat ltac:(lia)) as G. unfold v, ev in G.
      destruct (lt_dec (N + j) N); [lia|]. replace (N + j - N)%nat with j in G by lia. exact G.
  - intros j Hj. pose proof (Hav j ltac:(lia)) as G. unfold v, ev in G.
    destruct (lt_dec j N); [exact G | lia].
Qed.

(** ** ReLU on a class *)

Lemma relu_scale_any lam z :
  relu (lam * z) = Rabs lam * relu z - (if Rlt_dec lam 0 then Rabs lam * z else 0).
Proof.
  destruct (Req_EM_T lam 0) as [->|Hl].
  - rewrite Rmult_0_l, Rabs_R0. destruct (Rlt_dec 0 0); [lra|].
    unfold relu, Rmax. destruct (Rle_dec 0 0); lra.
  - apply relu_scale_abs. exact Hl.
Qed.

(** If a masked block equals [x |-> dot ell x + const + (a form)], the [|.|]
    parts differ by an affine function. *)
Lemma masked_bridge_eq d w (A' : mat) (c' : vec) (beta : nat -> R) k (U : mat) (s : vec)
    (gamma : nat -> R) (ell : vec) (C : R) :
  (forall x, sumn w (fun j => beta j * relu (dot d (row A' j) x + c' j)) =
             dot d ell x + C + sumn k (fun t => gamma t * relu (dot d (row U t) x + s t))) ->
  forall x, bridge_sum d w A' c' beta x =
    bridge_sum d k U s gamma x +
    (2 * (dot d ell x + C) + sumn k (fun t => gamma t * (dot d (row U t) x + s t))
     - sumn w (fun j => beta j * (dot d (row A' j) x + c' j))).
Proof.
  intros H x. pose proof (H x) as E. rewrite !relu_sum_split in E. lra.
Qed.

Lemma masked_gap_affine d w (A' : mat) (c' : vec) (beta : nat -> R) k (U : mat) (s : vec)
    (gamma : nat -> R) (ell : vec) (C : R) :
  affine_like
    (fun x => 2 * (dot d ell x + C) + sumn k (fun t => gamma t * (dot d (row U t) x + s t))
                        - sumn w (fun j => beta j * (dot d (row A' j) x + c' j))).
Proof.
  intros x0 w' t.
  pose proof (affine_like_dot d ell C x0 w' t) as E0.
  pose proof (affine_like_sum_dot d k U s gamma x0 w' t) as E1.
  pose proof (affine_like_sum_dot d w A' c' beta x0 w' t) as E2.
  cbv beta in E0, E1, E2. lra.
Qed.

(** ** The classes of ReLU, for [BiasNecessityCommon] *)

Definition relu_class d (P : mat) (cp : vec) t q0 (V : mat) (cv : vec) j : bool :=
  on_class d (row P t) (cp t) q0 (row V j) (cv j).

Definition relu_wt (p : vec) (q0 : nat) (v : vec) : R := Rabs (lam_of p q0 v).

Lemma relu_class_self : class_self relu_class.
Proof. intros d P cp t q0 Hq Hp. exact (proj1 (on_class_self d (row P t) (cp t) q0 Hq Hp)). Qed.

Lemma relu_class_value : class_value relu relu_class relu_wt.
Proof.
  intros d P cp t q0 V cv j x _ _ Hc. unfold relu_class in Hc. unfold relu_wt.
  rewrite (on_class_value d _ _ q0 _ _ x Hc). apply relu_scale_any.
Qed.

Lemma relu_class_total : class_total relu relu_class relu_wt.
Proof.
  intros d w A' c' beta k U s gamma ell C P cp t q0 Hq Hp H.
  exact (class_kink d w A' c' beta k U s gamma _ (row P t) (cp t) q0 Hq Hp
           (masked_bridge_eq d w A' c' beta k U s gamma ell C H)
           (masked_gap_affine d w A' c' beta k U s gamma ell C)).
Qed.

(** The only class of the form on the hyperplane of [t0] is [t0]. *)
Lemma relu_class_form : class_form relu_class relu_wt (fun d => lin_independent2 (S d)).
Proof.
  intros d k U s t0 q0 beta Hind Ht0 Hq0 Hp0. unfold relu_class, relu_wt.
  rewrite (sumn_ext k _ (fun t => if Nat.eq_dec t0 t then beta t else 0)).
  - apply sumn_delta. exact Ht0.
  - intros t Ht. destruct (Nat.eq_dec t0 t) as [<-|Hne].
    + destruct (on_class_self d (row U t0) (s t0) q0 Hq0 Hp0) as [Hs Hl].
      rewrite Hs, Hl, Rabs_R1. ring.
    + destruct (on_class d (row U t0) (s t0) q0 (row U t) (s t)) eqn:E; [|reflexivity].
      exfalso. destruct (on_class_true d _ _ q0 _ _ E) as [Hv He].
      apply (aug_multiple_not_independent d U s t t0 (row U t) (s t) 1
               (lam_of (row U t0) q0 (row U t)));
        [lra | intros; unfold row; ring | ring | exact Hv | exact He | apply Hind; auto].
Qed.

(** ** Headline results *)

Theorem relu_bias_form_necessary : forall d k m U s G L l0,
  generic_bias_lines d k U s G ->
  (exists A' c' B' b0',
     same_fun d (ungated_bias relu d m A' c' B' b0') (bias_ridge_form relu d k U s G L l0)) ->
  width_condition d k m U G L.
Proof.
  exact (peel_form_necessary relu relu_class relu_wt (fun d => lin_independent2 (S d))
           relu_class_self relu_class_value relu_class_total relu_class_form).
Qed.

Theorem relu_bias_form_iff : forall d k m U s G L l0,
  generic_bias_lines d k U s G ->
  ((exists A' c' B' b0',
      same_fun d (ungated_bias relu d m A' c' B' b0') (bias_ridge_form relu d k U s G L l0))
   <-> width_condition d k m U G L).
Proof.
  intros d k m U s G L l0 Hg. split.
  - apply relu_bias_form_necessary. exact Hg.
  - intros Hw. exact (bias_width_condition_sufficient relu d k m U s G L l0 relu_odd_part Hw).
Qed.

Theorem relu_bias_grouped_iff : forall d n k m A c B b0 U s G L l0 cls lam,
  bias_grouping d n k A c B b0 U s G L l0 cls lam ->
  generic_bias_lines d k U s G ->
  (absorbable_ungated_bias relu d n m identity A c B b0 <-> width_condition d k m U G L).
Proof.
  intros d n k m A c B b0 U s G L l0 cls lam Hgr Hg. split.
  - intros [A' [c' [B' [b0' H]]]]. apply (relu_bias_form_necessary d k m U s G L l0 Hg).
    exists A', c', B', b0'. intros x p Hp. rewrite (H x p Hp).
    exact (bias_grouping_form d n k A c B b0 U s G L l0 cls lam Hgr x p Hp).
  - apply (relu_bias_grouped_sufficient d n k m A c B b0 U s G L l0 cls lam Hgr).
Qed.

(** ** Non-vacuity *)

(** The block [x + relu(x + 1) + relu(2x + 2)] of [ReluBiasGrouping]
    (one class: [u = 1], [s = 1], kink [G = 3], [L = 1]) is canonical after
    grouping; by [relu_bias_grouped_iff] it is absorbable at width 2 and not
    at width 1.  It is not generic, and no [S] has [B[:,S] A[S,:] = -1]
    (the sums are [0, 1, 2, 3]), so R5's criterion does not apply to it. *)
Example bias_grouped_canonical :
  generic_bias_lines 1 1 (fun _ _ => 1) (fun _ => 1) (fun _ _ => 3).
Proof.
  split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row; lra].
  - intros i j Hi Hj Hne. lia.
  - intros i _. exists 0%nat. split; [lia | unfold col; lra].
Qed.

Example relu_bias_grouped_iff_width2 :
  absorbable_ungated_bias relu 1 2 2 identity bg_A bg_c (fun _ _ => 1) (fun _ => 0).
Proof.
  apply (relu_bias_grouped_iff 1 2 1 2 _ _ _ _ _ _ _ _ _ _ _ bias_grouping_instance
           bias_grouped_canonical).
  exists (fun _ => true), (fun _ => false), 0%nat, (fun _ _ => 1), (fun _ _ => 0), (fun _ _ => 0).
  split; [intros; reflexivity|]. split; [simpl; lia|].
  intros i j _ _. unfold masked_outer, low_rank. simpl. ring.
Qed.

Example relu_bias_grouped_iff_width1 :
  ~ absorbable_ungated_bias relu 1 2 1 identity bg_A bg_c (fun _ _ => 1) (fun _ => 0).
Proof.
  rewrite (relu_bias_grouped_iff 1 2 1 1 _ _ _ _ _ _ _ _ _ _ _ bias_grouping_instance
             bias_grouped_canonical).
  intros [T [S [r [E [P [Q [_ [Hw HL]]]]]]]].
  pose proof (HL 0%nat 0%nat ltac:(lia) ltac:(lia)) as H.
  unfold masked_outer, low_rank in H. simpl in Hw, H.
  destruct (T 0%nat); [lia|]. assert (r = 0%nat) by lia. subst r. simpl in H.
  destruct (S 0%nat); lra.
Qed.

Example relu_bias_grouped_no_submatrix :
  ~ exists S, submatrix_cond 1 2 S bg_A (fun _ _ => 1).
Proof.
  intros [S HS]. specialize (HS 0%nat 0%nat ltac:(lia) ltac:(lia)).
  unfold subset_sum, identity, bg_A in HS. simpl in HS.
  destruct (S 0%nat), (S 1%nat); lra.
Qed.

(** Both sides of [relu_bias_form_iff] on the canonical form [x + relu(x + 1)]
    ([d = k = 1], [U = G = L = 1], [s = 1]): a block of width 2, none of width 1. *)
Example relu_bias_form_iff_width2 :
  exists A' c' B' b0', same_fun 1 (ungated_bias relu 1 2 A' c' B' b0')
    (bias_ridge_form relu 1 1 (fun _ _ => 1) (fun _ => 1) (fun _ _ => 1) (fun _ _ => 1)
       (fun _ => 0)).
Proof.
  apply (relu_bias_form_iff 1 1 2 _ _ _ _ _ (relu_bias_generic_instance 1 ltac:(lra))).
  exact bias_width_condition_instance.
Qed.

Example relu_bias_form_iff_width1 :
  ~ exists A' c' B' b0', same_fun 1 (ungated_bias relu 1 1 A' c' B' b0')
      (bias_ridge_form relu 1 1 (fun _ _ => 1) (fun _ => 1) (fun _ _ => 1) (fun _ _ => 1)
         (fun _ => 0)).
Proof.
  rewrite (relu_bias_form_iff 1 1 1 _ _ _ _ _ (relu_bias_generic_instance 1 ltac:(lra))).
  intros [T [S [r [E [P [Q [_ [Hw HL]]]]]]]].
  pose proof (HL 0%nat 0%nat ltac:(lia) ltac:(lia)) as H.
  unfold masked_outer, low_rank in H. simpl in Hw, H.
  destruct (T 0%nat); [lia|]. assert (r = 0%nat) by lia. subst r. simpl in H.
  destruct (S 0%nat); unfold rb_ex_A in H; lra.
Qed.
