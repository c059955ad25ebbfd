(** * R11 stretch, ReLU: a pre-norm block against bare ReLU blocks with biases

    The bare residual-free form: [g(x) = B' relu(A' x + c') + b0'] of any
    width [m].  Along rays the ReLU block is exactly affine for large [t]:
    [g(t w) - t B' relu(A' w)] is constant for [t >= T], uniformly for [w]
    near a [v] off the hyperplanes [a'_j . v = 0] ([relu_block_eventually]).
    If a pre-norm block [h(x) = P x + f(N x)] ([f] bounded on bounded sets,
    [N] a LayerNorm or RMSNorm) equals [g], boundedness of [f o N] forces
    [P w = B' relu(A' w)] there, so [f(N(t w))] is the same number for all
    such [w] and all [t >= T] ([prenorm_relu_eventually_constant]).  Hence:
    - [prenorm_not_relu_bare]: when [f o N] is nowhere "eventually locally
      constant along rays" (for every [v], [delta > 0], [T] some [w] within
      [delta] of [v] and [t >= T] give [f(N(t w)) <> f(N(t v))]), [h] is no
      bare ReLU block with biases, of any width, for any linear part [P];
      [prenorm_continuous_not_relu_bare]: the same for continuous [f];
    - [layernorm_residual_not_relu_bare]: for [d >= 2], every [eps > 0]
      and every [P], [x |-> P x + LayerNorm(x)] ([gamma = 1], [beta = 0],
      [f] the identity) is no bare ReLU block with biases of any width
      ([d = 1] is excluded rightly: there LayerNorm is constant).
    This is paper.md's stretch for ReLU only (the exact eventual equality
    makes [d >= 2] suffice); the GELU family (limits instead of equalities,
    [d >= 3]) is not done. *)

From Coq Require Import Reals Lra Lia List Classical.
From Absorb Require Import Sums Blocks BiasBlocks Norms ContinuityDefs Geometry.
From Absorb Require Import ActivationDefs Activations Gated Depth ContinuousBounded.
From Absorb Require Import PreNorm PostNorm.
Open Scope R_scope.

(** ** One ReLU unit along rays *)

Lemma dot_vscale d a t w : dot d a (vscale t w) = t * dot d a w.
Proof.
  unfold dot, vscale. rewrite <- sumn_scal_l. apply sumn_ext. intros; ring.
Qed.

Lemma dot_cube_bound d a v w delta :
  cube d v delta w -> Rabs (dot d a w - dot d a v) <= vnorm d a * delta.
Proof.
  intros Hw. unfold dot. rewrite <- sumn_minus. eapply Rle_trans; [apply sumn_abs|].
  unfold vnorm. rewrite <- sumn_scal_r. apply sumn_le. intros k Hk.
  replace (a k * w k - a k * v k) with (a k * (w k - v k)) by ring.
  rewrite Rabs_mult. apply Rmult_le_compat_l; [apply Rabs_pos|].
  left. apply Hw, Hk.
Qed.

Lemma relu_large_pos beta c t : 0 < beta -> Rabs c < t * beta ->
  relu (t * beta + c) - t * relu beta = c.
Proof.
  intros Hb Hc. pose proof (Rle_abs (- c)). rewrite Rabs_Ropp in *.
  rewrite (relu_pos (t * beta + c)) by lra. rewrite (relu_pos beta) by lra. ring.
Qed.

Lemma relu_large_neg beta c t : beta < 0 -> Rabs c < t * - beta ->
  relu (t * beta + c) - t * relu beta = 0.
Proof.
  intros Hb Hc. pose proof (Rle_abs c).
  rewrite (relu_neg (t * beta + c)) by lra. rewrite (relu_neg beta) by lra. ring.
Qed.

(** A unit [relu(a . x + c)] minus its linear part [t relu(a . w)] is the
    same number at every [t w], [t >= T], [w] near [v], if [a . v <> 0] or
    [a = 0]. *)
Lemma relu_unit_eventually d (a : vec) (c : R) (v : vec) :
  (dot d a v <> 0 \/ forall k, (k < d)%nat -> a k = 0) ->
  exists delta T, 0 < delta /\ forall w t t', cube d v delta w -> T <= t -> T <= t' ->
    relu (dot d a (vscale t w) + c) - t * relu (dot d a w) =
    relu (dot d a (vscale t' v) + c) - t' * relu (dot d a v).
Proof.
  intros [Hav|Ha0].
  - set (al := dot d a v). set (Sa := vnorm d a).
    assert (HSa : 0 <= Sa) by apply vnorm_nonneg.
    assert (Hal : 0 < Rabs al) by (apply Rabs_pos_lt; exact Hav).
    exists (Rabs al / (2 * (Sa + 1))), (2 * Rabs c / Rabs al + 1).
    split; [apply Rdiv_lt_0_compat; lra|].
    assert (HT : (2 * Rabs c / Rabs al + 1) * (Rabs al / 2) = Rabs c + Rabs al / 2)
      by (field; lra).
    assert (Hdel : Sa * (Rabs al / (2 * (Sa + 1))) < Rabs al / 2).
    { apply (Rmult_lt_reg_r (2 * (Sa + 1))); [lra|].
      replace (Sa * (Rabs al / (2 * (Sa + 1))) * (2 * (Sa + 1))) with (Sa * Rabs al)
        by (field; lra).
      nra. }
    assert (HT0 : 0 <= 2 * Rabs c / Rabs al)
      by (unfold Rdiv; apply Rmult_le_pos; [pose proof (Rabs_pos c); lra |
                                            left; apply Rinv_0_lt_compat, Hal]).
    (* every [w] near [v] has [a . w] of the sign of [al], [|a . w| > |al| / 2] *)
    assert (Hnear : forall w t, cube d v (Rabs al / (2 * (Sa + 1))) w ->
                      2 * Rabs c / Rabs al + 1 <= t ->
                      relu (dot d a (vscale t w) + c) - t * relu (dot d a w) =
                      if Rlt_dec 0 al then c else 0).
    { intros w t Hw Ht. rewrite dot_vscale.
      pose proof (dot_cube_bound d a v w _ Hw) as Hb. fold al Sa in Hb.
      assert (Hwa : Rabs (dot d a w - al) < Rabs al / 2) by lra.
      destruct (Rlt_dec 0 al) as [Hpos|Hneg].
      + rewrite (Rabs_pos_eq al) in Hal, Hwa, HT, Ht, HT0 by lra.
        assert (Hw' : al / 2 < dot d a w) by (apply Rabs_def2 in Hwa; lra).
        apply relu_large_pos; [lra|].
        assert (t * (al / 2) <= t * dot d a w) by (apply Rmult_le_compat_l; lra).
        assert ((2 * Rabs c / al + 1) * (al / 2) <= t * (al / 2))
          by (apply Rmult_le_compat_r; lra).
        lra.
      + assert (Hn : al < 0)
          by (destruct (Rtotal_order al 0) as [?|[E|?]];
              [assumption | exfalso; apply Hav; exact E | exfalso; apply Hneg; assumption]).
        rewrite (Rabs_left al) in Hal, Hwa, HT, Ht, HT0 by lra.
        assert (Hw' : dot d a w < al / 2) by (apply Rabs_def2 in Hwa; lra).
        apply relu_large_neg; [lra|].
        assert (t * (- al / 2) <= t * - dot d a w) by (apply Rmult_le_compat_l; lra).
        assert ((2 * Rabs c / - al + 1) * (- al / 2) <= t * (- al / 2))
          by (apply Rmult_le_compat_r; lra).
        lra. }
    intros w t t' Hw Ht Ht'. transitivity (if Rlt_dec 0 al then c else 0);
      [apply Hnear; assumption | symmetry; apply Hnear; [|exact Ht']].
    intros k Hk. rewrite Rminus_diag_eq, Rabs_R0 by reflexivity.
    apply Rdiv_lt_0_compat; lra.
  - assert (Hz : forall x, dot d a x = 0).
    { intros x. unfold dot. apply sumn_zero. intros k Hk. rewrite Ha0 by exact Hk. ring. }
    exists 1, 0. split; [lra|]. intros w t t' _ _ _. rewrite !Hz.
    rewrite (relu_neg 0) by lra. ring.
Qed.

(** ** A whole block *)

Lemma finite_eventually m (P : nat -> R -> R -> Prop) :
  (forall j delta delta' T T', 0 < delta' <= delta -> T <= T' -> P j delta T -> P j delta' T') ->
  (forall j, (j < m)%nat -> exists delta T, 0 < delta /\ P j delta T) ->
  exists delta T, 0 < delta /\ forall j, (j < m)%nat -> P j delta T.
Proof.
  intros Hmono. induction m as [|m IH]; intros H.
  - exists 1, 0. split; [lra|]. intros j Hj. lia.
  - destruct IH as [d1 [T1 [Hd1 H1]]]; [intros j Hj; apply H; lia|].
    destruct (H m (Nat.lt_succ_diag_r m)) as [d2 [T2 [Hd2 H2]]].
    exists (Rmin d1 d2), (Rmax T1 T2). split; [apply Rmin_pos; assumption|].
    intros j Hj. destruct (Nat.eq_dec j m) as [->|Hne].
    + apply (Hmono m d2 _ T2); [split; [apply Rmin_pos; assumption | apply Rmin_r] | apply Rmax_r | exact H2].
    + apply (Hmono j d1 _ T1); [split; [apply Rmin_pos; assumption | apply Rmin_l] | apply Rmax_l |].
      apply H1. lia.
Qed.

Lemma block_split m (F G : nat -> R) b t :
  sumn m F + b - t * sumn m G = sumn m (fun j => F j - t * G j) + b.
Proof. rewrite sumn_minus, sumn_scal_l. ring. Qed.

(** [v] is off the hyperplanes of the nonzero rows of [A]. *)
Definition off_rows (d m : nat) (A : mat) (v : vec) : Prop :=
  forall j, (j < m)%nat -> dot d (row A j) v <> 0 \/ forall k, (k < d)%nat -> A j k = 0.

Lemma relu_block_eventually d m A c B b0 v : off_rows d m A v ->
  exists delta T, 0 < delta /\ forall w t t' i, cube d v delta w -> T <= t -> T <= t' ->
    ungated_bias relu d m A c B b0 (vscale t w) i - t * ungated relu d m A B w i =
    ungated_bias relu d m A c B b0 (vscale t' v) i - t' * ungated relu d m A B v i.
Proof.
  intros Hv.
  set (Pj := fun j delta T => forall w t t', cube d v delta w -> T <= t -> T <= t' ->
    relu (dot d (row A j) (vscale t w) + c j) - t * relu (dot d (row A j) w) =
    relu (dot d (row A j) (vscale t' v) + c j) - t' * relu (dot d (row A j) v)).
  destruct (finite_eventually m Pj) as [delta [T [Hd HP]]].
  - intros j d1 d2 T1 T2 Hd12 HT HPj w t t' Hw Ht Ht'. apply HPj; try lra.
    intros k Hk. specialize (Hw k Hk). lra.
  - intros j Hj. apply relu_unit_eventually, Hv, Hj.
  - exists delta, T. split; [exact Hd|]. intros w t t' i Hw Ht Ht'.
    unfold ungated_bias, ungated. rewrite !block_split. f_equal.
    apply sumn_ext. intros j Hj. pose proof (HP j Hj w t t' Hw Ht Ht') as E.
    match goal with
    | |- ?b * ?x - ?s * (?b * ?y) = ?b * ?x' - ?s' * (?b * ?y') =>
        replace (b * x - s * (b * y)) with (b * (x - s * y)) by ring;
        replace (b * x' - s' * (b * y')) with (b * (x' - s' * y')) by ring
    end.
    rewrite E. reflexivity.
Qed.
