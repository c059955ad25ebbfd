(** * Ridge sums with biases: kinks on affine hyperplanes (paper.md R9, ReLU)

    A *biased ridge sum* is [x |-> sum_j beta_j |v_j . x + c_j|]
    ([bridge_sum]); its kinks sit on the affine hyperplanes
    [v_j . x + c_j = 0], which need not pass through 0.  Main results:
    - [bridge_second_diff]: at [x0], in direction [w], with a small enough
      step [t], the second difference of a biased ridge sum is
      [2 t] times its kink [sum_{j : v_j.x0 + c_j = 0} beta_j |v_j . w|]
      ([bkink_sum]);
    - [bkink_eq]: two biased ridge sums differing by a function whose second
      differences vanish (an affine one, [affine_like]) have equal kinks
      everywhere;
    - [affine_avoid]: on the hyperplane [p.x + c0 = 0] ([p <> 0]) there is a
      point off every hyperplane [v_j.x + e_j = 0] unless [(v_j, e_j)] is a
      multiple of [(p, c0)];
    - [affine_ridge_unique] (headline): if a biased ridge sum with nonzero
      [v_j] and pairwise linearly independent augmented rows [(v_j, c_j)]
      of [R^(d+1)] is an affine function, every [beta_j] is 0. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks Geometry Ridge BiasSpec AugRows.
Open Scope R_scope.

(** ** Definitions *)

(** [x |-> sum_{j < N} beta_j |v_j . x + c_j|], [v_j] the rows of [V]. *)
Definition bridge_sum (d N : nat) (V : mat) (c : vec) (beta : nat -> R) (x : vec) : R :=
  sumn N (fun j => beta j * Rabs (dot d (row V j) x + c j)).

(** The jump of slope at [x0] in direction [w]: the terms whose hyperplane
    contains [x0]. *)
Definition bkink_sum (d N : nat) (V : mat) (c : vec) (beta : nat -> R) (x0 w : vec) : R :=
  sumn N (fun j => if Req_EM_T (dot d (row V j) x0 + c j) 0
                   then beta j * Rabs (dot d (row V j) w) else 0).

(** A bound making the step [/ (1 + T)] small enough for every term. *)
Definition bkink_bound (d N : nat) (V : mat) (c : vec) (x0 w : vec) : R :=
  sumn N (fun j => qratio (dot d (row V j) x0 + c j) (dot d (row V j) w)).

(** Second differences vanish along every line (affine functions). *)
Definition affine_like (F : vec -> R) : Prop :=
  forall x0 w t, F (vlin 1 x0 t w) + F (vlin 1 x0 (- t) w) - 2 * F x0 = 0.

(** ** Affine functions have no kinks *)

Lemma vlin_coord a x b y k : vlin a x b y k = a * x k + b * y k.
Proof. reflexivity. Qed.

Lemma affine_like_dot d (u : vec) u0 : affine_like (fun x => dot d u x + u0).
Proof. intros x0 w t. rewrite !dot_vlin_r. ring. Qed.

Lemma affine_like_coord k : affine_like (fun x => x k).
Proof. intros x0 w t. rewrite !vlin_coord. ring. Qed.

(** [x |-> sum_j beta_j (v_j . x + c_j)] is affine. *)
Lemma affine_like_sum_dot d N (V : mat) (c : vec) (beta : nat -> R) :
  affine_like (fun x => sumn N (fun j => beta j * (dot d (row V j) x + c j))).
Proof.
  intros x0 w t. rewrite <- sumn_plus, <- sumn_scal_l, <- sumn_minus.
  apply sumn_zero. intros j _. rewrite !dot_vlin_r. ring.
Qed.

(** ** Second differences and kinks *)

Lemma bkink_bound_nonneg d N V c x0 w : 0 <= bkink_bound d N V c x0 w.
Proof. unfold bkink_bound. apply sumn_nonneg. intros j _. apply qratio_nonneg. Qed.

Lemma bkink_bound_term d N V c x0 w j : (j < N)%nat ->
  qratio (dot d (row V j) x0 + c j) (dot d (row V j) w) <= bkink_bound d N V c x0 w.
Proof.
  intros Hj. unfold bkink_bound.
  apply (sumn_term_le N (fun j => qratio (dot d (row V j) x0 + c j) (dot d (row V j) w)) j);
    [intros; apply qratio_nonneg | exact Hj].
Qed.

Lemma step_pos T : 0 <= T -> 0 < / (1 + T).
Proof. intros H. apply Rinv_0_lt_compat. lra. Qed.

Lemma bridge_second_diff d N V c beta x0 w T : bkink_bound d N V c x0 w <= T ->
  bridge_sum d N V c beta (vlin 1 x0 (/ (1 + T)) w)
  + bridge_sum d N V c beta (vlin 1 x0 (- / (1 + T)) w)
  - 2 * bridge_sum d N V c beta x0
  = 2 * / (1 + T) * bkink_sum d N V c beta x0 w.
Proof.
  intros HT. pose proof (bkink_bound_nonneg d N V c x0 w) as H0.
  assert (Ht : 0 < / (1 + T)) by (apply step_pos; lra).
  unfold bridge_sum, bkink_sum.
  rewrite <- sumn_plus, <- !sumn_scal_l, <- sumn_minus.
  apply sumn_ext. intros j Hj. rewrite !dot_vlin_r.
  set (g := dot d (row V j) x0 + c j). set (b := dot d (row V j) w). set (t := / (1 + T)).
  replace (1 * dot d (row V j) x0 + t * b + c j) with (g + t * b) by (unfold g; ring).
  replace (1 * dot d (row V j) x0 + - t * b + c j) with (g - t * b) by (unfold g; ring).
  transitivity (beta j * (Rabs (g + t * b) + Rabs (g - t * b) - 2 * Rabs g)); [ring|].
  rewrite abs_bracket; [| exact Ht |].
  - destruct (Req_EM_T g 0); ring.
  - intros Hg. apply step_le; [exact Hg|].
    pose proof (bkink_bound_term d N V c x0 w j Hj). fold g b in H. lra.
Qed.

(** Biased ridge sums that differ by an affine function have equal kinks. *)
Lemma bkink_eq d N V c beta M W e gamma (F : vec -> R) :
  (forall x, bridge_sum d N V c beta x = bridge_sum d M W e gamma x + F x) ->
  affine_like F ->
  forall x0 w, bkink_sum d N V c beta x0 w = bkink_sum d M W e gamma x0 w.
Proof.
  intros H HF x0 w.
  pose proof (bkink_bound_nonneg d N V c x0 w) as B1.
  pose proof (bkink_bound_nonneg d M W e x0 w) as B2.
  set (T := bkink_bound d N V c x0 w + bkink_bound d M W e x0 w).
  pose proof (bridge_second_diff d N V c beta x0 w T ltac:(unfold T; lra)) as H1.
  pose proof (bridge_second_diff d M W e gamma x0 w T ltac:(unfold T; lra)) as H2.
  pose proof (HF x0 w (/ (1 + T))) as H3.
  rewrite !H in H1.
  assert (Ht : 0 < / (1 + T)) by (apply step_pos; unfold T; lra).
  apply (Rmult_eq_reg_l (2 * / (1 + T))); [lra|].
  assert (Ht' : 2 * / (1 + T) <> 0) by lra. lra.
Qed.

(** A biased ridge sum equal to an affine function has no kinks. *)
Lemma bkink_affine_zero d N V c beta (F : vec -> R) :
  (forall x, bridge_sum d N V c beta x = F x) -> affine_like F ->
  forall x0 w, bkink_sum d N V c beta x0 w = 0.
Proof.
  intros H HF x0 w.
  exact (bkink_eq d N V c beta 0 V c beta F
           ltac:(intros x; rewrite H; unfold bridge_sum; simpl; ring) HF x0 w).
Qed.

(** ** Avoiding finitely many hyperplanes inside an affine hyperplane *)

Lemma affine_avoid d (p : vec) (c0 : R) (v : nat -> vec) (e : nat -> R) N :
  nonzero_vec d p ->
  exists x, dot d p x + c0 = 0 /\
    forall j, (j < N)%nat ->
      dot d (v j) x + e j <> 0 \/
      exists lam, (forall k, (k < d)%nat -> v j k = lam * p k) /\ e j = lam * c0.
Proof.
  intros Hp. pose proof (dot_self_pos d p Hp) as Hpp.
  pose (xp := vscale (- c0 / dot d p p) p).
  assert (Hpxp : dot d p xp = - c0) by (unfold xp; rewrite dot_scal_r; field; lra).
  destruct (ridge_avoid d p v N Hp) as [y [Hpy Hy]].
  pose (r := fun j => if Req_EM_T (dot d (v j) y) 0 then 0
                      else Rabs (dot d (v j) xp + e j) / Rabs (dot d (v j) y)).
  assert (Hr : forall j, (j < N)%nat -> 0 <= r j).
  { intros j _. unfold r. destruct (Req_EM_T (dot d (v j) y) 0); [lra|].
    unfold Rdiv. apply Rmult_le_pos; [apply Rabs_pos|].
    left. apply Rinv_0_lt_compat, Rabs_pos_lt. assumption. }
  pose (s := 1 + sumn N r).
  exists (vlin s y 1 xp). split.
  - rewrite dot_vlin_r, Hpy, Hpxp. ring.
  - intros j Hj. rewrite dot_vlin_r.
    destruct (Hy j Hj) as [Hvy|[lam Hlam]].
    + left. replace (s * dot d (v j) y + 1 * dot d (v j) xp + e j)
              with (s * dot d (v j) y + 1 * (dot d (v j) xp + e j)) by ring.
      apply large_comb_nonzero; [exact Hvy|].
      pose proof (sumn_term_le N r j Hr Hj) as Hle. unfold r in Hle at 1.
      destruct (Req_EM_T (dot d (v j) y) 0); [contradiction|]. unfold s. lra.
    + rewrite (parallel_dot_r d _ _ lam y Hlam), (parallel_dot_r d _ _ lam xp Hlam), Hpy, Hpxp.
      destruct (Req_EM_T (e j - lam * c0) 0) as [E|E].
      * right. exists lam. split; [exact Hlam | lra].
      * left. intros Z. apply E. lra.
Qed.

(** ** Augmented rows ([AugRows.v]: their coordinates) *)

(** If [(v, e) = lam1 (a_i1, c_i1) = lam2 (a_i2, c_i2)] with [lam1 <> 0], the
    augmented rows [i1], [i2] are dependent. *)
Lemma aug_multiple_not_independent d A c i1 i2 (v : vec) e lam1 lam2 :
  lam1 <> 0 ->
  (forall k, (k < d)%nat -> v k = lam1 * A i1 k) -> e = lam1 * c i1 ->
  (forall k, (k < d)%nat -> v k = lam2 * A i2 k) -> e = lam2 * c i2 ->
  ~ lin_independent2 (S d) (aug_row d A c i1) (aug_row d A c i2).
Proof.
  intros Hl E1 F1 E2 F2 Hind.
  destruct (Hind lam1 (- lam2)) as [Z _]; [|contradiction].
  intros k Hk. destruct (Nat.eq_dec k d) as [->|Hne].
  - rewrite !aug_row_bias_coord. lra.
  - rewrite !aug_row_coord by lia. pose proof (E1 k ltac:(lia)). pose proof (E2 k ltac:(lia)). lra.
Qed.

(** ** Uniqueness *)

Theorem affine_ridge_unique : forall d N (V : mat) (c : vec) (beta : nat -> R)
    (w : vec) (w0 : R),
  (forall j, (j < N)%nat -> nonzero_vec d (row V j)) ->
  (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j ->
     lin_independent2 (S d) (aug_row d V c i) (aug_row d V c j)) ->
  (forall x, sumn N (fun j => beta j * Rabs (dot d (row V j) x + c j)) = dot d w x + w0) ->
  forall j, (j < N)%nat -> beta j = 0.
Proof.
  intros d N V c beta w w0 Hnz Hind H j0 Hj0.
  destruct (affine_avoid d (row V j0) (c j0) (row V) c N (Hnz j0 Hj0)) as [x0 [Hpx Hx]].
  pose proof (bkink_affine_zero d N V c beta (fun x => dot d w x + w0) H
                (affine_like_dot d w w0) x0 (row V j0)) as Hk.
  unfold bkink_sum in Hk.
  rewrite (sumn_ext N _ (fun j => if Nat.eq_dec j0 j
                                  then beta j * Rabs (dot d (row V j) (row V j0)) else 0)) in Hk.
  - rewrite sumn_delta in Hk by exact Hj0.
    pose proof (dot_self_pos d (row V j0) (Hnz j0 Hj0)).
    rewrite Rabs_right in Hk by lra.
    apply Rmult_integral in Hk. destruct Hk; [assumption | lra].
  - intros j Hj. destruct (Nat.eq_dec j0 j) as [<-|Hne].
    + destruct (Req_EM_T (dot d (row V j0) x0 + c j0) 0); [reflexivity | contradiction].
    + destruct (Hx j Hj) as [Hnz'|[lam [Hl Hc]]].
      * destruct (Req_EM_T (dot d (row V j) x0 + c j) 0); [contradiction | reflexivity].
      * exfalso. apply (aug_multiple_not_independent d V c j j0 (row V j) (c j) 1 lam);
          [lra | intros k _; unfold row; ring | ring | exact Hl | exact Hc
          | apply Hind; auto].
Qed.

(** ** Non-vacuity *)

(** [d = 1]: the rows [(1, 0)] and [(1, 1)] (kinks at [x = 0] and [x = -1])
    satisfy the hypotheses, and [|x| - |x + 1|] is not affine (its
    coefficients are not 0), while [0 |x| + 0 |x + 1| = 0] is. *)
Definition aff_ex_V : mat := fun _ _ => 1.
Definition aff_ex_c : vec := fun j => if Nat.eq_dec j 0 then 0 else 1.

Example affine_ridge_unique_instance :
  (forall j, (j < 2)%nat -> nonzero_vec 1 (row aff_ex_V j)) /\
  (forall i j, (i < 2)%nat -> (j < 2)%nat -> i <> j ->
     lin_independent2 2 (aug_row 1 aff_ex_V aff_ex_c i) (aug_row 1 aff_ex_V aff_ex_c j)) /\
  (forall x, sumn 2 (fun j => 0 * Rabs (dot 1 (row aff_ex_V j) x + aff_ex_c j))
             = dot 1 (fun _ => 0) x + 0).
Proof.
  split; [|split].
  - intros j _. exists 0%nat. split; [lia | unfold row, aff_ex_V; lra].
  - intros i j Hi Hj Hne al be Hab.
    pose proof (Hab 0%nat ltac:(lia)) as E0. pose proof (Hab 1%nat ltac:(lia)) as E1.
    unfold aug_row, aff_ex_V, aff_ex_c in E0, E1. simpl in E0, E1.
    destruct i as [|[|i]], j as [|[|j]]; try lia; simpl in E0, E1; split; lra.
  - intros x. unfold dot. simpl. ring.
Qed.

(** The hypotheses are not contradictory for a nonzero sum either: a
    nonzero biased ridge sum that is not affine. *)
Example affine_ridge_not_affine :
  ~ exists (w : vec) (w0 : R), forall x : vec,
      sumn 2 (fun j => (if Nat.eq_dec j 0 then 1 else -1)
                       * Rabs (dot 1 (row aff_ex_V j) x + aff_ex_c j)) = dot 1 w x + w0.
Proof.
  intros [w [w0 H]].
  assert (Hb : forall j, (j < 2)%nat -> (if Nat.eq_dec j 0 then 1 else -1) = 0).
  { apply (affine_ridge_unique 1 2 aff_ex_V aff_ex_c _ w w0).
    - apply affine_ridge_unique_instance.
    - apply affine_ridge_unique_instance.
    - exact H. }
  specialize (Hb 0%nat ltac:(lia)). simpl in Hb. lra.
Qed.
