(** * R1 with biases: skip reduction for biased blocks

    For an invertible skip [P] with inverse [Q], the biased residual block
    [x |-> P x + B sigma(A x + c) + b0] is absorbable at width [m] iff
    [x |-> x + (Q B) sigma(A x + c) + Q b0] is:
    - [skip_reduction_ungated_bias].
    The proof is the bias-free transfer argument of [SkipReduction] with the
    down-projection and output bias moved together: [Q (B s + b0) = (Q B) s + Q b0]
    ([ungated_bias_mv_down]).  Non-vacuity: [skip_reduction_bias_lhs_instance],
    [skip_reduction_bias_rhs_instance]. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs BiasBlocks SkipReduction.
Open Scope R_scope.

(** ** Down-projection and output bias commute with a left matrix factor *)

(** A family of maps, indexed by a down-projection and an output bias, on
    which a left matrix factor acts on both. *)
Definition down_affine (d : nat) (f : mat -> vec -> vec -> vec) : Prop :=
  forall M N b x i, mv d M (f N b x) i = f (mm d M N) (mv d M b) x i.

(** Key lemma: [Q (B sigma(A x + c) + b0) = (Q B) sigma(A x + c) + Q b0]. *)
Lemma ungated_bias_mv_down sigma d n A c B b0 Q x i :
  mv d Q (ungated_bias sigma d n A c B b0 x) i =
  ungated_bias sigma d n A c (mm d Q B) (mv d Q b0) x i.
Proof.
  unfold ungated_bias at 1. rewrite mv_plus, down_mv. reflexivity.
Qed.

Lemma ungated_bias_down_affine sigma d n A c :
  down_affine d (fun N b => ungated_bias sigma d n A c N b).
Proof. intros M N b x i. apply ungated_bias_mv_down. Qed.

(** ** The transfer argument for down-affine families *)

(** The parameter is the pair (down-projection, output bias), on which [M] acts on both. *)
Definition act_affine (d : nat) (M : mat) (Bb : mat * vec) : mat * vec :=
  (mm d M (fst Bb), mv d M (snd Bb)).

Lemma down_affine_commutes d (f : mat -> vec -> vec -> vec) :
  down_affine d f -> commutes_left (act_affine d) d (fun Bb => f (fst Bb) (snd Bb)).
Proof. intros H M [N b] x i. apply H. Qed.

Lemma residual_transfer_bias_fwd d (g h : mat -> vec -> vec -> vec) P Q B' b' B b :
  inverse_of d P Q -> down_affine d g -> down_affine d h ->
  same_fun d (g B' b') (residual d P (h B b)) ->
  same_fun d (g (mm d Q B') (mv d Q b')) (residual d identity (h (mm d Q B) (mv d Q b))).
Proof.
  intros HPQ Hg Hh.
  exact (residual_transfer_act_fwd (act_affine d) d _ _ P Q (B', b') (B, b) HPQ
           (down_affine_commutes d g Hg) (down_affine_commutes d h Hh)).
Qed.

Lemma residual_transfer_bias_bwd d (g h : mat -> vec -> vec -> vec) P Q B' b' B b :
  inverse_of d P Q -> down_affine d g -> down_affine d h ->
  same_fun d (g B' b') (residual d identity (h (mm d Q B) (mv d Q b))) ->
  same_fun d (g (mm d P B') (mv d P b')) (residual d P (h B b)).
Proof.
  intros HPQ Hg Hh.
  exact (residual_transfer_act_bwd (act_affine d) d _ _ P Q (B', b') (B, b) HPQ
           (down_affine_commutes d g Hg) (down_affine_commutes d h Hh)).
Qed.

(** ** R1 with biases *)

Theorem skip_reduction_ungated_bias : forall sigma d n m P Q A c B b0,
  inverse_of d P Q ->
  (absorbable_ungated_bias sigma d n m P A c B b0 <->
   absorbable_ungated_bias sigma d n m identity A c (mm d Q B) (mv d Q b0)).
Proof.
  intros sigma d n m P Q A c B b0 HPQ.
  split; intros [A' [c' [B' [b0' E]]]].
  - exists A', c', (mm d Q B'), (mv d Q b0').
    exact (residual_transfer_bias_fwd d (fun N b => ungated_bias sigma d m A' c' N b)
             (fun N b => ungated_bias sigma d n A c N b) P Q B' b0' B b0 HPQ
             (ungated_bias_down_affine _ _ _ _ _) (ungated_bias_down_affine _ _ _ _ _) E).
  - exists A', c', (mm d P B'), (mv d P b0').
    exact (residual_transfer_bias_bwd d (fun N b => ungated_bias sigma d m A' c' N b)
             (fun N b => ungated_bias sigma d n A c N b) P Q B' b0' B b0 HPQ
             (ungated_bias_down_affine _ _ _ _ _) (ungated_bias_down_affine _ _ _ _ _) E).
Qed.

(** ** Non-vacuity: skip [P = 2] (d = 1) with inverse [1/2], nonzero biases,
    and both sides of the iff hold:
    [2x - 2 relu(x + 1) + 3 = 1 - 2 relu(-x - 1)]. *)

Definition const_vec (v : R) : vec := fun _ => v.

Lemma relu_odd_identity_bias_local z : relu z - relu (- z) = z.
Proof. unfold relu, Rmax. destruct (Rle_dec z 0), (Rle_dec (- z) 0); lra. Qed.

Example skip_reduction_bias_lhs_instance :
  absorbable_ungated_bias relu 1 1 1 two_id (const_mat 1) (const_vec 1)
    (const_mat (-2)) (const_vec 3).
Proof.
  exists (const_mat (-1)), (const_vec (-1)), (const_mat (-2)), (const_vec 1).
  intros x i Hi. assert (i = 0%nat) by lia. subst.
  unfold ungated_bias, residual, mv, dot, row, const_mat, const_vec, two_id. simpl.
  pose proof (relu_odd_identity_bias_local (x 0%nat + 1)).
  replace (0 + -1 * x 0%nat + -1) with (- (x 0%nat + 1)) by ring.
  replace (0 + 1 * x 0%nat + 1) with (x 0%nat + 1) by ring. lra.
Qed.

Example skip_reduction_bias_rhs_instance :
  absorbable_ungated_bias relu 1 1 1 identity (const_mat 1) (const_vec 1)
    (mm 1 half_id (const_mat (-2))) (mv 1 half_id (const_vec 3)).
Proof.
  exact (proj1 (skip_reduction_ungated_bias relu 1 1 1 two_id half_id _ _ _ _ two_id_invertible)
           skip_reduction_bias_lhs_instance).
Qed.

