(** * R1: skip reduction

    For an invertible skip [P] with inverse [Q], the residual block
    [x |-> P x + f x] is absorbable at width [m] iff [x |-> x + Q f x] is,
    and [Q f] is again a block of the same kind whose down-projection is
    [Q B] ([mm d Q B]).  This holds for every activation, gated or not:
    - [skip_reduction_ungated], [skip_reduction_gated].
    The transfer argument is stated once for any parameter a left factor acts on
    ([residual_transfer_act_fwd], [_bwd]): the down-projection here, the pair
    (down-projection, output bias) in [SkipReductionBias].

    Also general helpers on [mv] used by the other impossibility files:
    [mv_ext_vec], [mv_plus], [mv_unit], [mv_vanishing_not_nonzero]. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs.
Open Scope R_scope.

(** ** Helpers on matrix-vector products *)

(** [mv d M] only reads the first [d] coordinates. *)
Lemma mv_ext_vec d M u v i : vec_eq d u v -> mv d M u i = mv d M v i.
Proof.
  intros H. unfold mv, dot, row. apply sumn_ext. intros k Hk. rewrite H by exact Hk. reflexivity.
Qed.

Lemma mv_plus d M u v i : mv d M (fun k => u k + v k) i = mv d M u i + mv d M v i.
Proof.
  unfold mv, dot, row. rewrite <- sumn_plus. apply sumn_ext. intros; ring.
Qed.

(** The [j]-th standard basis vector. *)
Definition unit_vec (j : nat) : vec := fun k => if Nat.eq_dec j k then 1 else 0.

Lemma mv_unit d M i j : (j < d)%nat -> mv d M (unit_vec j) i = M i j.
Proof.
  intros Hj. unfold mv, dot, row, unit_vec.
  rewrite (sumn_ext d _ (fun k => if Nat.eq_dec j k then M i k else 0)).
  - apply sumn_delta. exact Hj.
  - intros k _. destruct (Nat.eq_dec j k); ring.
Qed.

(** A matrix whose map vanishes on [R^d] is not a nonzero matrix. *)
Lemma mv_vanishing_not_nonzero d P :
  (forall x i, (i < d)%nat -> mv d P x i = 0) -> ~ nonzero_mat d P.
Proof.
  intros H [i [j [Hi [Hj HP]]]]. apply HP. rewrite <- (mv_unit d P i j Hj). apply H. exact Hi.
Qed.

Lemma inverse_of_sym d P Q : inverse_of d P Q -> inverse_of d Q P.
Proof. intros H i j Hi Hj. destruct (H i j Hi Hj). split; assumption. Qed.

(** [P (Q v) = v] on [R^d]. *)
Lemma inverse_mv_cancel d P Q v : inverse_of d P Q -> vec_eq d (mv d P (mv d Q v)) v.
Proof.
  intros H i Hi. rewrite mv_mm.
  rewrite <- (mv_identity d v i Hi). unfold mv, dot, row. apply sumn_ext.
  intros k Hk. destruct (H i k Hi Hk) as [E _]. rewrite E. reflexivity.
Qed.

(** ** Down-projections commute with a left matrix factor *)

Lemma down_mv d n Q B (s : nat -> R) i :
  mv d Q (fun k => sumn n (fun j => B k j * s j)) i = sumn n (fun j => mm d Q B i j * s j).
Proof.
  unfold mv, dot, row, mm.
  rewrite (sumn_ext d _ (fun k => sumn n (fun j => Q i k * B k j * s j))).
  - rewrite sumn_swap. apply sumn_ext. intros j _. apply sumn_scal_r.
  - intros k _. rewrite <- sumn_scal_l. apply sumn_ext. intros; ring.
Qed.

(** Key lemma: [Q (B sigma(A x)) = (Q B) sigma(A x)]. *)
Lemma ungated_mv_down sigma d n A B Q x i :
  mv d Q (ungated sigma d n A B x) i = ungated sigma d n A (mm d Q B) x i.
Proof. apply down_mv. Qed.

Lemma gated_mv_down gamma d n C A B Q x i :
  mv d Q (gated gamma d n C A B x) i = gated gamma d n C A (mm d Q B) x i.
Proof. apply down_mv. Qed.

(** ** The transfer argument, for any family of blocks on whose parameters
    (a down-projection, possibly with more) a left matrix factor acts *)

Section Transfer.
Context {T : Type} (act : mat -> T -> T) (d : nat).

(** A left factor [M] applied to the output is [M] acting on the parameter. *)
Definition commutes_left (f : T -> vec -> vec) : Prop :=
  forall M t x i, mv d M (f t x) i = f (act M t) x i.

Lemma residual_transfer_act_fwd (g h : T -> vec -> vec) P Q t' t :
  inverse_of d P Q -> commutes_left g -> commutes_left h ->
  same_fun d (g t') (residual d P (h t)) ->
  same_fun d (g (act Q t')) (residual d identity (h (act Q t))).
Proof.
  intros HPQ Hg Hh E x i Hi. unfold residual.
  rewrite <- Hg, (mv_ext_vec d Q _ _ i (E x)). unfold residual.
  rewrite mv_plus, Hh.
  rewrite (inverse_mv_cancel d Q P x (inverse_of_sym d P Q HPQ) i Hi).
  rewrite (mv_identity d x i Hi). reflexivity.
Qed.

Lemma residual_transfer_act_bwd (g h : T -> vec -> vec) P Q t' t :
  inverse_of d P Q -> commutes_left g -> commutes_left h ->
  same_fun d (g t') (residual d identity (h (act Q t))) ->
  same_fun d (g (act P t')) (residual d P (h t)).
Proof.
  intros HPQ Hg Hh E x i Hi. unfold residual.
  rewrite <- Hg, (mv_ext_vec d P _ _ i (E x)). unfold residual.
  rewrite mv_plus.
  rewrite (mv_ext_vec d P _ x i (mv_identity d x)).
  rewrite (mv_ext_vec d P (h (act Q t) x) (mv d Q (h t x)) i)
    by (intros k _; rewrite Hh; reflexivity).
  rewrite (inverse_mv_cancel d P Q (h t x) HPQ i Hi). reflexivity.
Qed.

End Transfer.

(** The parameter is the down-projection alone. *)
Definition down_linear (d : nat) (f : mat -> vec -> vec) : Prop :=
  forall M N x i, mv d M (f N x) i = f (mm d M N) x i.

Lemma residual_transfer_fwd d (g h : mat -> vec -> vec) P Q B' B :
  inverse_of d P Q -> down_linear d g -> down_linear d h ->
  same_fun d (g B') (residual d P (h B)) ->
  same_fun d (g (mm d Q B')) (residual d identity (h (mm d Q B))).
Proof. exact (residual_transfer_act_fwd (mm d) d g h P Q B' B). Qed.

Lemma residual_transfer_bwd d (g h : mat -> vec -> vec) P Q B' B :
  inverse_of d P Q -> down_linear d g -> down_linear d h ->
  same_fun d (g B') (residual d identity (h (mm d Q B))) ->
  same_fun d (g (mm d P B')) (residual d P (h B)).
Proof. exact (residual_transfer_act_bwd (mm d) d g h P Q B' B). Qed.


(** ** R1 *)

Theorem skip_reduction_ungated : forall sigma d n m P Q A B,
  inverse_of d P Q ->
  (absorbable_ungated sigma d n m P A B <->
   absorbable_ungated sigma d n m identity A (mm d Q B)).
Proof.
  intros sigma d n m P Q A B HPQ.
  assert (Hd : forall k A0, down_linear d (fun M => ungated sigma d k A0 M))
    by (intros k A0 M N x i; apply ungated_mv_down).
  split; intros [A' [B' E]].
  - exists A', (mm d Q B').
    exact (residual_transfer_fwd d (fun M => ungated sigma d m A' M)
             (fun M => ungated sigma d n A M) P Q B' B HPQ (Hd _ _) (Hd _ _) E).
  - exists A', (mm d P B').
    exact (residual_transfer_bwd d (fun M => ungated sigma d m A' M)
             (fun M => ungated sigma d n A M) P Q B' B HPQ (Hd _ _) (Hd _ _) E).
Qed.

Theorem skip_reduction_gated : forall gamma d n m P Q C A B,
  inverse_of d P Q ->
  (absorbable_gated gamma d n m P C A B <->
   absorbable_gated gamma d n m identity C A (mm d Q B)).
Proof.
  intros gamma d n m P Q C A B HPQ.
  assert (Hd : forall k C0 A0, down_linear d (fun M => gated gamma d k C0 A0 M))
    by (intros k C0 A0 M N x i; apply gated_mv_down).
  split; intros [C' [A' [B' E]]].
  - exists C', A', (mm d Q B').
    exact (residual_transfer_fwd d (fun M => gated gamma d m C' A' M)
             (fun M => gated gamma d n C A M) P Q B' B HPQ (Hd _ _ _) (Hd _ _ _) E).
  - exists C', A', (mm d P B').
    exact (residual_transfer_bwd d (fun M => gated gamma d m C' A' M)
             (fun M => gated gamma d n C A M) P Q B' B HPQ (Hd _ _ _) (Hd _ _ _) E).
Qed.

(** ** Non-vacuity: an invertible skip [P = 2] (d = 1) with inverse [1/2],
    and a block for which both sides of the iff hold:
    [2x - 2 relu(x) = -2 relu(-x)] and [x - relu(x) = -relu(-x)]. *)

Definition two_id : mat := fun i j => if Nat.eq_dec i j then 2 else 0.
Definition half_id : mat := fun i j => if Nat.eq_dec i j then / 2 else 0.
Definition const_mat (c : R) : mat := fun _ _ => c.

Example two_id_invertible : inverse_of 1 two_id half_id.
Proof.
  intros i j Hi Hj. assert (i = 0%nat) by lia. assert (j = 0%nat) by lia. subst.
  unfold mm, two_id, half_id, identity. simpl. split; lra.
Qed.

Lemma relu_odd_identity_local z : relu z - relu (- z) = z.
Proof. unfold relu, Rmax. destruct (Rle_dec z 0), (Rle_dec (- z) 0); lra. Qed.

Example skip_reduction_lhs_instance :
  absorbable_ungated relu 1 1 1 two_id (const_mat 1) (const_mat (-2)).
Proof.
  exists (const_mat (-1)), (const_mat (-2)). intros x i Hi.
  assert (i = 0%nat) by lia. subst.
  unfold ungated, residual, mv, dot, row, const_mat, two_id. simpl.
  pose proof (relu_odd_identity_local (x 0%nat)).
  replace (0 + -1 * x 0%nat) with (- x 0%nat) by ring.
  replace (0 + 1 * x 0%nat) with (x 0%nat) by ring. lra.
Qed.

Example skip_reduction_rhs_instance :
  absorbable_ungated relu 1 1 1 identity (const_mat 1) (mm 1 half_id (const_mat (-2))).
Proof.
  exact (proj1 (skip_reduction_ungated relu 1 1 1 two_id half_id _ _ two_id_invertible)
           skip_reduction_lhs_instance).
Qed.
