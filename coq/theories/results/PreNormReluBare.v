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
      ([d = 1] is excluded rightly: there LayerNorm is constant);
      [rmsnorm_residual_not_relu_bare]: the same with RMSNorm, [d >= 1].
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
    + apply (Hmono m d2 _ T2); [| apply Rmax_r | exact H2].
      split; [apply Rmin_pos; assumption | apply Rmin_r].
    + apply (Hmono j d1 _ T1); [| apply Rmax_l | apply H1; lia].
      split; [apply Rmin_pos; assumption | apply Rmin_l].
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

(** ** A pre-norm block equal to a bare ReLU block *)

(** [f(N(t w))] is one number for all [w] near [v] and all [t >= T]. *)
Lemma prenorm_relu_eventually_constant d P N f m A c B b0 v :
  bounded_map d (fun x => f (N x)) ->
  same_fun d (prenorm d P N f) (ungated_bias relu d m A c B b0) -> off_rows d m A v ->
  exists delta T, 0 < delta /\ forall w t t' i, cube d v delta w -> T <= t -> T <= t' ->
    (i < d)%nat -> f (N (vscale t w)) i = f (N (vscale t' v)) i.
Proof.
  intros [K HK] E Hv.
  destruct (relu_block_eventually d m A c B b0 v Hv) as [delta [T [Hd HB]]].
  set (g := ungated_bias relu d m A c B b0) in *.
  set (Ev := fun i => g (vscale T v) i - T * ungated relu d m A B v i).
  assert (HK0 : 0 <= K) by (pose proof (HK v); pose proof (vnorm_nonneg d (f (N v))); lra).
  assert (Hkey : forall w t i, cube d v delta w -> T <= t -> (i < d)%nat ->
                   f (N (vscale t w)) i = Ev i).
  { intros w t i Hw Ht Hi.
    set (D := mv d P w i - ungated relu d m A B w i).
    assert (Hsplit : forall s, T <= s -> f (N (vscale s w)) i = Ev i - s * D).
    { intros s Hs. pose proof (E (vscale s w) i Hi) as Es.
      unfold prenorm, residual in Es. rewrite mv_vscale in Es.
      pose proof (HB w s T i Hw Hs (Rle_refl T)) as Hs'. unfold Ev, D. lra. }
    destruct (Req_dec D 0) as [HD|HD].
    - rewrite (Hsplit t Ht), HD. ring.
    - exfalso. assert (HDp : 0 < Rabs D) by (apply Rabs_pos_lt; exact HD).
      set (s := Rmax T ((K + Rabs (Ev i) + 1) / Rabs D)).
      pose proof (Hsplit s (Rmax_l _ _)) as Hs.
      pose proof (coord_le_vnorm d (f (N (vscale s w))) i Hi) as Hc.
      pose proof (HK (vscale s w)) as HKs.
      assert (Hq : (K + Rabs (Ev i) + 1) / Rabs D * Rabs D = K + Rabs (Ev i) + 1)
        by (field; lra).
      pose proof (Rmult_le_compat_r (Rabs D) _ _ (Rlt_le _ _ HDp)
                    (Rmax_r T ((K + Rabs (Ev i) + 1) / Rabs D))) as HsD.
      fold s in HsD. rewrite Hq in HsD.
      assert (Hs0 : 0 <= s).
      { apply (Rmult_le_reg_r (Rabs D)); [exact HDp|]. pose proof (Rabs_pos (Ev i)). lra. }
      pose proof (Rabs_triang_inv (s * D) (Ev i)) as Htri.
      rewrite Rabs_mult, (Rabs_pos_eq s Hs0) in Htri.
      rewrite Rabs_minus_sym in Htri.
      replace (Ev i - s * D) with (f (N (vscale s w)) i) in Htri by (rewrite Hs; ring).
      lra. }
  exists delta, T. split; [exact Hd|]. intros w t t' i Hw Ht Ht' Hi.
  rewrite (Hkey w t i Hw Ht Hi), (Hkey v t' i); [reflexivity | | exact Ht' | exact Hi].
  intros k Hk. rewrite Rminus_diag_eq, Rabs_R0 by reflexivity. exact Hd.
Qed.

(** Some [v] is off the hyperplanes of the nonzero rows. *)
Lemma exists_off_rows d m A : exists v, off_rows d m A v.
Proof.
  assert (Hl : exists l, (forall w, In w l -> nonzero_vec d w) /\
                 forall j, (j < m)%nat -> nonzero_vec d (row A j) -> In (row A j) l).
  { induction m as [|m IH].
    - exists nil. split; [intros w []|]. intros j Hj. lia.
    - destruct IH as [l [Hl1 Hl2]].
      destruct (nonzero_vec_or_zero d (row A m)) as [Hnz|Hz].
      + exists (row A m :: l). split.
        * intros w [<-|Hw]; [exact Hnz | apply Hl1, Hw].
        * intros j Hj Hj'. destruct (Nat.eq_dec j m) as [->|Hne]; [left; reflexivity|].
          right. apply Hl2; [lia | exact Hj'].
      + exists l. split; [exact Hl1|]. intros j Hj Hj'.
        destruct (Nat.eq_dec j m) as [->|Hne]; [|apply Hl2; [lia | exact Hj']].
        exfalso. destruct Hj' as [k [Hk Hne]]. apply Hne, Hz, Hk. }
  destruct Hl as [l [Hl1 Hl2]]. destruct (avoid_hyperplanes d l Hl1) as [u Hu].
  exists u. intros j Hj. destruct (nonzero_vec_or_zero d (row A j)) as [Hnz|Hz].
  - left. apply Hu, Hl2; assumption.
  - right. exact Hz.
Qed.

(** [F] is nowhere eventually locally constant along rays. *)
Definition nowhere_ray_constant (d : nat) (F : vec -> vec) : Prop :=
  forall v delta T, 0 < delta -> exists w t i, cube d v delta w /\ T <= t /\ (i < d)%nat /\
    F (vscale t w) i <> F (vscale t v) i.

Theorem prenorm_not_relu_bare d P N f m A c B b0 :
  is_norm d N -> bounded_on_bounded d f -> nowhere_ray_constant d (fun x => f (N x)) ->
  ~ same_fun d (prenorm d P N f) (ungated_bias relu d m A c B b0).
Proof.
  intros HN Hf Hnc E.
  destruct (exists_off_rows d m A) as [v Hv].
  destruct (prenorm_relu_eventually_constant d P N f m A c B b0 v
              (bob_after_bounded d N f (is_norm_bounded d N HN) Hf) E Hv)
    as [delta [T [Hd HC]]].
  destruct (Hnc v delta T Hd) as [w [t [i [Hw [Ht [Hi Hne]]]]]].
  apply Hne, (HC w t t i Hw Ht Ht Hi).
Qed.

Theorem prenorm_continuous_not_relu_bare d P N f m A c B b0 :
  is_norm d N -> continuous_vec d f -> nowhere_ray_constant d (fun x => f (N x)) ->
  ~ same_fun d (prenorm d P N f) (ungated_bias relu d m A c B b0).
Proof.
  intros HN Hf. apply prenorm_not_relu_bare; [exact HN|].
  apply continuous_vec_bounded_on_bounded, Hf.
Qed.

(** A map whose values at [t w] and [t v] differ for every [t >= 1], where [w] moves [v]'s
    first coordinate by [delta / 2], is nowhere eventually constant along rays. *)
Lemma nowhere_ray_constant_of_bump d (F : vec -> vec) :
  (forall v delta t, 0 < delta -> 1 <= t ->
     let w := fun k => if Nat.eq_dec 0 k then v k + delta / 2 else v k in
     vec_eq d (F (vscale t w)) (F (vscale t v)) -> False) ->
  nowhere_ray_constant d F.
Proof.
  intros Hbump v delta T Hdel.
  set (w := fun k => if Nat.eq_dec 0 k then v k + delta / 2 else v k).
  set (t := Rmax T 1).
  assert (Ht1 : 1 <= t) by apply Rmax_r.
  destruct (classic (exists i, (i < d)%nat /\ F (vscale t w) i <> F (vscale t v) i))
    as [[i [Hi Hne]]|Hno].
  - exists w, t, i. split; [|split; [apply Rmax_l | split; assumption]].
    intros k Hk. unfold w. destruct (Nat.eq_dec 0 k).
    + replace (v k + delta / 2 - v k) with (delta / 2) by ring.
      rewrite Rabs_pos_eq by lra. lra.
    + rewrite Rminus_diag_eq, Rabs_R0 by reflexivity. exact Hdel.
  - exfalso. apply (Hbump v delta t Hdel Ht1).
    intros i Hi. apply NNPP. intros Hne. apply Hno. exists i. split; assumption.
Qed.

(** ** [P x + LayerNorm(x)], [d >= 2] *)

Lemma layernorm_nowhere_ray_constant d eps : (2 <= d)%nat -> 0 < eps ->
  nowhere_ray_constant d (layer_norm d eps (fun _ => 1) (fun _ => 0)).
Proof.
  intros Hd He. apply nowhere_ray_constant_of_bump. intros v delta t Hdel Ht1 w Heq.
  apply (layer_norm_eq_iff d eps (fun _ => 1) (fun _ => 0) _ _ He) in Heq;
    [|intros; lra].
  pose proof (Heq 1%nat ltac:(lia)) as H1.
  rewrite !centering_mv in H1 by lia. unfold center in H1.
  assert (Hw1 : vscale t w 1%nat = vscale t v 1%nat) by (unfold vscale, w; reflexivity).
  rewrite Hw1 in H1.
  assert (Hsum : sumn d (vscale t w) = sumn d (vscale t v) + t * (delta / 2)).
  { rewrite <- (sumn_delta d 0 (fun _ => t * (delta / 2))) by lia.
    rewrite <- sumn_plus. apply sumn_ext. intros k Hk. unfold vscale, w.
    destruct (Nat.eq_dec 0 k); ring. }
  unfold mean in H1. rewrite Hsum in H1.
  assert (Hd0 : 0 < INR d) by (apply lt_0_INR; lia).
  assert (Hpos : 0 < t * (delta / 2)) by (apply Rmult_lt_0_compat; lra).
  assert (Hdiv : (sumn d (vscale t v) + t * (delta / 2)) / INR d =
                 sumn d (vscale t v) / INR d + t * (delta / 2) / INR d) by (field; lra).
  assert (0 < t * (delta / 2) / INR d) by (apply Rdiv_lt_0_compat; assumption).
  lra.
Qed.

(** For [d >= 2], every [eps > 0] and every linear part [P],
    [x |-> P x + LayerNorm(x)] is no bare ReLU block with biases, of any
    width. *)
Theorem layernorm_residual_not_relu_bare d eps P m A c B b0 : (2 <= d)%nat -> 0 < eps ->
  ~ same_fun d (prenorm d P (layer_norm d eps (fun _ => 1) (fun _ => 0)) (fun x => x))
               (ungated_bias relu d m A c B b0).
Proof.
  intros Hd He. apply prenorm_not_relu_bare.
  - exists eps, (fun _ => 1), (fun _ => 0). split; [exact He | left; reflexivity].
  - intros K. exists K. intros x Hx. exact Hx.
  - exact (layernorm_nowhere_ray_constant d eps Hd He).
Qed.

(** RMSNorm: [x |-> P x + RMSNorm(x)], every [d >= 1]. *)
Lemma rmsnorm_nowhere_ray_constant d eps : (1 <= d)%nat -> 0 < eps ->
  nowhere_ray_constant d (rms_norm d eps (fun _ => 1) (fun _ => 0)).
Proof.
  intros Hd He. apply nowhere_ray_constant_of_bump. intros v delta t Hdel Ht1 w Heq.
  apply (proj1 (rms_norm_eq_iff d eps (fun _ => 1) (fun _ => 0) _ _ He ltac:(intros; lra)))
    in Heq.
  pose proof (Heq 0%nat ltac:(lia)) as H0. unfold vscale, w in H0.
  destruct (Nat.eq_dec 0 0) as [_|C]; [|lia].
  assert (0 < t * (delta / 2)) by (apply Rmult_lt_0_compat; lra). nra.
Qed.

Theorem rmsnorm_residual_not_relu_bare d eps P m A c B b0 : (1 <= d)%nat -> 0 < eps ->
  ~ same_fun d (prenorm d P (rms_norm d eps (fun _ => 1) (fun _ => 0)) (fun x => x))
               (ungated_bias relu d m A c B b0).
Proof.
  intros Hd He. apply prenorm_not_relu_bare.
  - exists eps, (fun _ => 1), (fun _ => 0). split; [exact He | right; reflexivity].
  - intros K. exists K. intros x Hx. exact Hx.
  - exact (rmsnorm_nowhere_ray_constant d eps Hd He).
Qed.

(** Non-vacuity: [x + LayerNorm(x)] on [R^2] is no bare ReLU block of width 3. *)
Example layernorm_residual_not_relu_bare_instance :
  ~ same_fun 2 (prenorm 2 identity (layer_norm 2 1 (fun _ => 1) (fun _ => 0)) (fun x => x))
               (ungated_bias relu 2 3 (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 0)).
Proof. apply layernorm_residual_not_relu_bare; [lia | lra]. Qed.

(** Every hypothesis of [prenorm_not_relu_bare] holds for a concrete block:
    LayerNorm on [R^2] ([eps = 1], [gamma = 1], [beta = 0]), [f] the identity. *)
Example prenorm_relu_bare_hypotheses_instance :
  is_norm 2 (layer_norm 2 1 (fun _ => 1) (fun _ => 0)) /\ bounded_on_bounded 2 (fun x => x) /\
  continuous_vec 2 (fun x => x) /\
  nowhere_ray_constant 2 (fun x => layer_norm 2 1 (fun _ => 1) (fun _ => 0) x).
Proof.
  split; [exists 1, (fun _ => 1), (fun _ => 0); split; [lra | left; reflexivity]|].
  split; [intros K; exists K; intros x Hx; exact Hx|].
  split; [exact (coordinatewise_continuous 2 id (derivable_continuous id derivable_id))|].
  apply layernorm_nowhere_ray_constant; [lia | lra].
Qed.
