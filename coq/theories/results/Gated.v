(** * R3: gated blocks with a gate vanishing continuously at 0

    If the gate [gamma] is continuous at 0 with [gamma 0 = 0] (SiLU, GELU,
    ReLU: SwiGLU, GeGLU, ReGLU), no residual gated block is absorbable, at
    any widths and for any nonzero skip [P]:
    - [gated_not_absorbable].

    Proof: a gated block is uniformly [o(|x|)] at 0 ([gated_littleo0]), so
    the linear map [P = g' - g] is [o(|x|)] at 0, hence zero
    ([linear_littleo0_zero]).  The norm [vnorm] (sum of the absolute values
    of the first [d] coordinates) and the notion [littleo0] are reused by
    [Depth.v]. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks SkipReduction.
Open Scope R_scope.

(** ** The l1 norm on the first [d] coordinates *)

Definition vnorm (d : nat) (x : vec) : R := sumn d (fun k => Rabs (x k)).

Lemma vnorm_nonneg d x : 0 <= vnorm d x.
Proof. apply sumn_nonneg. intros; apply Rabs_pos. Qed.

Lemma coord_le_vnorm d x i : (i < d)%nat -> Rabs (x i) <= vnorm d x.
Proof.
  intros Hi. apply (sumn_term_le d (fun k => Rabs (x k))); [intros; apply Rabs_pos | exact Hi].
Qed.

Lemma vnorm_ext d u v : vec_eq d u v -> vnorm d u = vnorm d v.
Proof. intros H. apply sumn_ext. intros k Hk. rewrite H by exact Hk. reflexivity. Qed.

Lemma vnorm_plus d u v : vnorm d (fun k => u k + v k) <= vnorm d u + vnorm d v.
Proof.
  unfold vnorm. rewrite <- sumn_plus. apply sumn_le. intros; apply Rabs_triang.
Qed.

Lemma vnorm_minus d u v : vnorm d (fun k => u k - v k) <= vnorm d u + vnorm d v.
Proof.
  unfold vnorm. rewrite <- sumn_plus. apply sumn_le. intros k _.
  unfold Rminus. eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_Ropp. lra.
Qed.

Lemma vnorm_scale d t x : vnorm d (vscale t x) = Rabs t * vnorm d x.
Proof.
  unfold vnorm, vscale. rewrite <- sumn_scal_l. apply sumn_ext. intros; apply Rabs_mult.
Qed.

Lemma dot_bound d u x : Rabs (dot d u x) <= vnorm d u * vnorm d x.
Proof.
  unfold dot. eapply Rle_trans; [apply sumn_abs|].
  unfold vnorm at 1. rewrite <- sumn_scal_r. apply sumn_le. intros k Hk.
  rewrite Rabs_mult. apply Rmult_le_compat_l; [apply Rabs_pos | apply coord_le_vnorm; exact Hk].
Qed.

Lemma vnorm_zero_coord d x i : vnorm d x <= 0 -> (i < d)%nat -> x i = 0.
Proof.
  intros H Hi. pose proof (coord_le_vnorm d x i Hi). pose proof (Rabs_pos (x i)).
  destruct (Req_dec (x i) 0) as [E|E]; [exact E|].
  exfalso. apply (Rabs_no_R0 _ E). lra.
Qed.

(** ** Uniform little-o at 0 *)

Definition littleo0 (d : nat) (f : vec -> vec) : Prop :=
  forall eps, 0 < eps -> exists delta, 0 < delta /\
    forall x, vnorm d x < delta -> vnorm d (f x) <= eps * vnorm d x.

Lemma littleo0_ext d f g : same_fun d f g -> littleo0 d f -> littleo0 d g.
Proof.
  intros E H eps He. destruct (H eps He) as [delta [Hd Hx]]. exists delta. split; [exact Hd|].
  intros x Hx'. rewrite <- (vnorm_ext d _ _ (E x)). apply Hx. exact Hx'.
Qed.

Lemma littleo0_minus d f g :
  littleo0 d f -> littleo0 d g -> littleo0 d (fun x k => f x k - g x k).
Proof.
  intros Hf Hg eps He.
  destruct (Hf (eps / 2) ltac:(lra)) as [d1 [Hd1 H1]].
  destruct (Hg (eps / 2) ltac:(lra)) as [d2 [Hd2 H2]].
  exists (Rmin d1 d2). split; [apply Rmin_pos; assumption|]. intros x Hx.
  pose proof (Rmin_l d1 d2). pose proof (Rmin_r d1 d2).
  pose proof (H1 x ltac:(lra)). pose proof (H2 x ltac:(lra)).
  pose proof (vnorm_minus d (f x) (g x)). lra.
Qed.

(** A linear map that is [o(|x|)] at 0 vanishes on [R^d]. *)
Lemma linear_littleo0_zero d P :
  littleo0 d (mv d P) -> forall x i, (i < d)%nat -> mv d P x i = 0.
Proof.
  intros H x i Hi. apply (vnorm_zero_coord d (mv d P x) i); [|exact Hi].
  set (N := vnorm d (mv d P x)). set (X := vnorm d x).
  assert (HX : 0 <= X) by apply vnorm_nonneg.
  assert (HN : 0 <= N) by apply vnorm_nonneg.
  assert (Hall : forall eps, 0 < eps -> N <= eps * X).
  { intros eps He. destruct (H eps He) as [delta [Hd Hx]].
    set (t := delta / (X + 1)).
    assert (Ht : 0 < t) by (unfold t; apply Rdiv_lt_0_compat; lra).
    assert (HtX : t * (X + 1) = delta) by (unfold t; field; lra).
    assert (Hlt : vnorm d (vscale t x) < delta).
    { rewrite vnorm_scale, Rabs_pos_eq by lra. fold X. nra. }
    pose proof (Hx _ Hlt) as Hb.
    rewrite (vnorm_ext d (mv d P (vscale t x)) (vscale t (mv d P x)))
      in Hb by (intros k _; apply mv_vscale).
    rewrite !vnorm_scale, Rabs_pos_eq in Hb by lra. fold N X in Hb.
    apply (Rmult_le_reg_l t); [exact Ht|]. lra. }
  destruct (Rle_or_lt N 0) as [Hle|Hpos]; [exact Hle|].
  set (eps := N / (2 * (X + 1))).
  assert (He : 0 < eps) by (unfold eps; apply Rdiv_lt_0_compat; lra).
  pose proof (Hall eps He).
  assert (eps * X <= eps * (X + 1)) by (apply Rmult_le_compat_l; lra).
  assert (eps * (X + 1) = N / 2) by (unfold eps; field; lra).
  lra.
Qed.

(** ** Gates vanishing at 0 *)

Lemma vanishing_small gamma :
  vanishing_at_0 gamma ->
  forall eps, 0 < eps -> exists delta, 0 < delta /\
    forall z, Rabs z < delta -> Rabs (gamma z) <= eps.
Proof.
  intros [Hc H0] eps He.
  destruct (Hc eps He) as [alp [Ha Hx]]. exists alp. split; [exact Ha|].
  intros z Hz. destruct (Req_dec z 0) as [->|Hne].
  - rewrite H0, Rabs_R0. lra.
  - assert (Hd : D_x no_cond 0 z /\ R_dist z 0 < alp).
    { split; [split; [exact I | auto] |]. unfold R_dist. rewrite Rminus_0_r. exact Hz. }
    pose proof (Hx z Hd) as Hg. simpl in Hg. unfold R_dist in Hg.
    rewrite H0, Rminus_0_r in Hg. lra.
Qed.

(** Sum of [|B_ij| |a_j|] over all [i < d], [j < n]. *)
Definition gated_weight (d n : nat) (A B : mat) : R :=
  sumn d (fun i => sumn n (fun j => Rabs (B i j) * vnorm d (row A j))).

Lemma gated_weight_nonneg d n A B : 0 <= gated_weight d n A B.
Proof.
  apply sumn_nonneg. intros. apply sumn_nonneg. intros.
  apply Rmult_le_pos; [apply Rabs_pos | apply vnorm_nonneg].
Qed.

(** Every row of [C] applied to [x] is bounded by [sum_j |c_j| * |x|]. *)
Lemma row_dot_bound d n C x j :
  (j < n)%nat ->
  Rabs (dot d (row C j) x) <= sumn n (fun l => vnorm d (row C l)) * vnorm d x.
Proof.
  intros Hj. eapply Rle_trans; [apply dot_bound|].
  apply Rmult_le_compat_r; [apply vnorm_nonneg|].
  apply (sumn_term_le n (fun l => vnorm d (row C l))); [intros; apply vnorm_nonneg | exact Hj].
Qed.

(** [sum_i |sum_j B_ij g_j| <= eta * weight * |x| + sum_ij |B_ij| c] once
    every [|g_j| <= eta |a_j| |x| + c]. *)
Lemma weighted_bound_plus d n A B x eta c (g : nat -> R) :
  (forall j, (j < n)%nat -> Rabs (g j) <= eta * (vnorm d (row A j) * vnorm d x) + c) ->
  vnorm d (fun i => sumn n (fun j => B i j * g j)) <=
    eta * gated_weight d n A B * vnorm d x + sumn d (fun i => sumn n (fun j => Rabs (B i j) * c)).
Proof.
  intros Hg.
  replace (eta * gated_weight d n A B * vnorm d x + _) with
    (sumn d (fun i => sumn n (fun j =>
       Rabs (B i j) * (eta * (vnorm d (row A j) * vnorm d x) + c)))).
  - unfold vnorm at 1. apply sumn_le. intros i _. eapply Rle_trans; [apply sumn_abs|].
    apply sumn_le. intros j Hj. rewrite Rabs_mult.
    apply Rmult_le_compat_l; [apply Rabs_pos | exact (Hg j Hj)].
  - rewrite (sumn_ext d _ (fun i => sumn n (fun j => Rabs (B i j) * vnorm d (row A j)) *
                                      (eta * vnorm d x) + sumn n (fun j => Rabs (B i j) * c))).
    + rewrite sumn_plus, sumn_scal_r. unfold gated_weight. ring.
    + intros i _. rewrite <- sumn_scal_r, <- sumn_plus. apply sumn_ext. intros j _. ring.
Qed.

Lemma weighted_bound d n A B x eta (g : nat -> R) :
  (forall j, (j < n)%nat -> Rabs (g j) <= eta * (vnorm d (row A j) * vnorm d x)) ->
  vnorm d (fun i => sumn n (fun j => B i j * g j)) <= eta * gated_weight d n A B * vnorm d x.
Proof.
  intros Hg. eapply Rle_trans.
  - apply (weighted_bound_plus d n A B x eta 0). intros j Hj. rewrite Rplus_0_r. exact (Hg j Hj).
  - rewrite sumn_zero; [lra|]. intros i _. apply sumn_zero. intros; ring.
Qed.

(** The pointwise bound: if every gate value is at most [eta] in absolute
    value, the block is at most [eta * weight * |x|]. *)
Lemma gated_bound gamma d n C A B x eta :
  (forall j, (j < n)%nat -> Rabs (gamma (dot d (row C j) x)) <= eta) ->
  vnorm d (gated gamma d n C A B x) <= eta * gated_weight d n A B * vnorm d x.
Proof.
  intros Hg.
  apply (weighted_bound d n A B x eta (fun j => gamma (dot d (row C j) x) * dot d (row A j) x)).
  intros j Hj. rewrite Rabs_mult.
  apply Rmult_le_compat; [apply Rabs_pos | apply Rabs_pos | exact (Hg j Hj) | apply dot_bound].
Qed.

(** A map bounded by [eta * W * |x|] once all [|c_j . x|] are small enough
    (for every [eta > 0]) is [o(|x|)] at 0. *)
Lemma littleo0_of_rows d n C W (f : vec -> vec) :
  0 <= W ->
  (forall eta, 0 < eta -> exists dl, 0 < dl /\ forall x,
     (forall j, (j < n)%nat -> Rabs (dot d (row C j) x) < dl) ->
     vnorm d (f x) <= eta * W * vnorm d x) ->
  littleo0 d f.
Proof.
  intros HW H eps He.
  set (RC := sumn n (fun l => vnorm d (row C l))).
  assert (HRC : 0 <= RC) by (apply sumn_nonneg; intros; apply vnorm_nonneg).
  set (eta := eps / (W + 1)).
  assert (Heta : 0 < eta) by (unfold eta; apply Rdiv_lt_0_compat; lra).
  destruct (H eta Heta) as [dl [Hdl Hf]].
  exists (dl / (RC + 1)). split; [apply Rdiv_lt_0_compat; lra|]. intros x Hx.
  assert (HX : 0 <= vnorm d x) by apply vnorm_nonneg.
  eapply Rle_trans.
  - apply Hf. intros j Hj.
    eapply Rle_lt_trans; [apply row_dot_bound; exact Hj|]. fold RC.
    assert (RC * vnorm d x <= (RC + 1) * vnorm d x) by nra.
    assert ((RC + 1) * vnorm d x < (RC + 1) * (dl / (RC + 1)))
      by (apply Rmult_lt_compat_l; lra).
    assert ((RC + 1) * (dl / (RC + 1)) = dl) by (field; lra). lra.
  - apply Rmult_le_compat_r; [exact HX|].
    assert (eta * (W + 1) = eps) by (unfold eta; field; lra).
    assert (eta * W <= eta * (W + 1)) by (apply Rmult_le_compat_l; lra). lra.
Qed.

Lemma gated_littleo0 gamma d n C A B :
  vanishing_at_0 gamma -> littleo0 d (gated gamma d n C A B).
Proof.
  intros Hg. apply (littleo0_of_rows d n C _ _ (gated_weight_nonneg d n A B)).
  intros eta Heta. destruct (vanishing_small gamma Hg eta Heta) as [dl [Hdl Hs]].
  exists dl. split; [exact Hdl|]. intros x Hx. apply gated_bound. intros j Hj. apply Hs, Hx, Hj.
Qed.

(** ** R3 *)

Theorem gated_not_absorbable : forall gamma d n m P C A B,
  vanishing_at_0 gamma -> nonzero_mat d P -> ~ absorbable_gated gamma d n m P C A B.
Proof.
  intros gamma d n m P C A B Hg HP [C' [A' [B' E]]].
  apply (mv_vanishing_not_nonzero d P); [|exact HP].
  apply linear_littleo0_zero.
  apply (littleo0_ext d (fun x k => gated gamma d m C' A' B' x k - gated gamma d n C A B x k)).
  - intros x i Hi. rewrite (E x i Hi). unfold residual. ring.
  - apply littleo0_minus; apply gated_littleo0; exact Hg.
Qed.

(** The paper's hypothesis (differentiable at 0, value 0) is a special case. *)
Corollary gated_not_absorbable_derivable : forall gamma d n m P C A B,
  derivable_pt gamma 0 -> gamma 0 = 0 -> nonzero_mat d P ->
  ~ absorbable_gated gamma d n m P C A B.
Proof.
  intros gamma d n m P C A B Hd H0.
  apply gated_not_absorbable. split; [apply derivable_continuous_pt; exact Hd | exact H0].
Qed.
