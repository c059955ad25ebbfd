(** * R11 stretch for activations asymptotic to ReLU (SiLU, ...)

    [relu_asymptotic sigma]: [sigma(s) - relu(s) -> 0] as [s -> +oo] and
    as [s -> -oo] (ReLU itself, SiLU: [silu_relu_asymptotic]).  For such a
    [sigma] a bare block [g(x) = B' sigma(A' x + c') + b0'] of any width is
    asymptotically affine along rays: [g(t w) - t B' relu(A' w)] tends, as
    [t -> oo], to one limit for all [w] near a [v] off the hyperplanes
    [a'_j . v = 0] ([sigma_block_limit]).  If a pre-norm block
    [h(x) = P x + f(N x)] ([f] bounded on bounded sets, [N] a LayerNorm or
    RMSNorm) equals [g], then [f(N(t w)) - f(N(t v)) -> 0] for those [w]
    ([prenorm_sigma_asymptotically_constant]); hence
    [prenorm_not_sigma_bare]: when [f o N] is nowhere asymptotically
    constant along rays, [h] is no bare [sigma] block with biases.  This
    is paper.md's asymptotic argument in local form: no connectedness, the
    dimension enters only through the hypothesis on [f o N] (the paper's
    hypothesis, [f] not constant on the ellipsoid, is not used).  It holds for
    [x |-> P x + RMSNorm(x)], [d >= 2] ([rmsnorm_nowhere_ray_asymptotic],
    via the ray limit [RMSNorm(t x) -> x / sqrt(mean(x^2))],
    [rms_ray_limit]): [rmsnorm_residual_not_sigma_bare], for SiLU
    [rmsnorm_residual_not_silu_bare_instance]; for LayerNorm, [d >= 3]:
    [results/PreNormLayerNormRays.v].  [relu_asymptotic] holds
    for ReLU, SiLU, GELU_tanh, gelu_fast and quick_gelu
    ([logistic_relu_asymptotic]: [sigma(z) = z - z / (1 + exp(q z))] with
    [q] growing like [k z]).  GELU itself (through [Phi]) needs the Gaussian
    tail: [gelu_relu_asymptotic] in [results/GeluTail.v]. *)

From Coq Require Import Reals Lra Lia List Classical.
From Absorb Require Import Sums Blocks BiasBlocks Norms ContinuityDefs.
From Absorb Require Import ActivationDefs Activations Gated Depth ContinuousBounded.
From Absorb Require Import PreNorm PreNormReluBare ExpPolyAsymptotics.
From Absorb Require GeluFastRidge ReluSubmatrix MoreActivationDefs.
Open Scope R_scope.

(** ** Limits at [+oo] *)

Definition tends_to (F : R -> R) (l : R) : Prop :=
  forall eps, 0 < eps -> exists T, forall t, T <= t -> Rabs (F t - l) < eps.

Lemma tends_to_plus F G l k : tends_to F l -> tends_to G k ->
  tends_to (fun t => F t + G t) (l + k).
Proof.
  intros HF HG eps He. destruct (HF (eps / 2) ltac:(lra)) as [T1 H1].
  destruct (HG (eps / 2) ltac:(lra)) as [T2 H2]. exists (Rmax T1 T2). intros t Ht.
  pose proof (H1 t (Rle_trans _ _ _ (Rmax_l _ _) Ht)).
  pose proof (H2 t (Rle_trans _ _ _ (Rmax_r _ _) Ht)).
  replace (F t + G t - (l + k)) with ((F t - l) + (G t - k)) by ring.
  eapply Rle_lt_trans; [apply Rabs_triang|]. lra.
Qed.

Lemma tends_to_scal a F l : tends_to F l -> tends_to (fun t => a * F t) (a * l).
Proof.
  intros HF eps He. destruct (HF (eps / (Rabs a + 1))) as [T HT].
  { apply Rdiv_lt_0_compat; [exact He | pose proof (Rabs_pos a); lra]. }
  exists T. intros t Ht. specialize (HT t Ht).
  replace (a * F t - a * l) with (a * (F t - l)) by ring. rewrite Rabs_mult.
  pose proof (Rabs_pos a). pose proof (Rabs_pos (F t - l)).
  apply (Rle_lt_trans _ ((Rabs a + 1) * Rabs (F t - l))); [nra|].
  apply (Rmult_lt_reg_r (/ (Rabs a + 1))); [apply Rinv_0_lt_compat; lra|].
  replace ((Rabs a + 1) * Rabs (F t - l) * / (Rabs a + 1)) with (Rabs (F t - l))
    by (field; lra).
  exact HT.
Qed.

Lemma tends_to_ext F G l T0 : (forall t, T0 <= t -> F t = G t) -> tends_to F l -> tends_to G l.
Proof.
  intros E HF eps He. destruct (HF eps He) as [T HT]. exists (Rmax T T0). intros t Ht.
  rewrite <- E by (eapply Rle_trans; [apply Rmax_r | exact Ht]).
  apply HT. eapply Rle_trans; [apply Rmax_l | exact Ht].
Qed.

Lemma tends_to_const l : tends_to (fun _ => l) l.
Proof.
  intros eps He. exists 0. intros. rewrite Rminus_diag_eq, Rabs_R0; [exact He | reflexivity].
Qed.

Lemma tends_to_minus_self F l : tends_to F l -> tends_to F l ->
  tends_to (fun t => F t - F t) 0.
Proof.
  intros _ _. apply (tends_to_ext (fun _ => 0) _ 0 0); [intros; ring | apply tends_to_const].
Qed.

(** ** [sigma] asymptotic to ReLU *)

Definition relu_asymptotic (sigma : R -> R) : Prop :=
  tends_to (fun s => sigma s - relu s) 0 /\ tends_to (fun s => sigma (- s) - relu (- s)) 0.

Lemma relu_relu_asymptotic : relu_asymptotic relu.
Proof.
  split; (apply (tends_to_ext (fun _ => 0) _ 0 0); [intros; ring | apply tends_to_const]).
Qed.

(** One unit with [a . w = al <> 0]: [sigma(t al + c) - t relu(al)] tends to
    [c] or [0] with the sign of [al]. *)
Lemma sigma_unit_limit sigma (al c : R) : relu_asymptotic sigma -> al <> 0 ->
  tends_to (fun t => sigma (t * al + c) - t * relu al) (if Rlt_dec 0 al then c else 0).
Proof.
  intros [Hp Hn] Hal. assert (Hpa : 0 < Rabs al) by (apply Rabs_pos_lt; exact Hal).
  (* the ReLU part is eventually constant *)
  assert (Hr : forall t, Rabs c / Rabs al + 1 <= t ->
                 relu (t * al + c) - t * relu al = if Rlt_dec 0 al then c else 0).
  { intros t Ht.
    assert (Hq : (Rabs c / Rabs al + 1) * Rabs al = Rabs c + Rabs al) by (field; lra).
    assert (Hc0 : 0 <= Rabs c / Rabs al)
      by (unfold Rdiv; apply Rmult_le_pos; [apply Rabs_pos | left; apply Rinv_0_lt_compat, Hpa]).
    assert (Hta : (Rabs c / Rabs al + 1) * Rabs al <= t * Rabs al)
      by (apply Rmult_le_compat_r; lra).
    destruct (Rlt_dec 0 al) as [Hpos|Hneg].
    - rewrite (Rabs_pos_eq al) in Hq, Hta, Hc0 by lra. apply relu_large_pos; lra.
    - assert (al < 0)
        by (destruct (Rtotal_order al 0) as [?|[?|?]]; [assumption|contradiction|lra]).
      rewrite (Rabs_left al) in Hq, Hta, Hc0 by lra. apply relu_large_neg; lra. }
  (* the rest tends to 0 *)
  assert (Hs : tends_to (fun t => sigma (t * al + c) - relu (t * al + c)) 0).
  { intros eps He. destruct (Rlt_dec 0 al) as [Hpos|Hneg].
    - destruct (Hp eps He) as [S HS]. exists ((Rabs S + Rabs c) / al). intros t Ht.
      apply HS. apply (Rmult_le_compat_r al) in Ht; [|lra].
      replace ((Rabs S + Rabs c) / al * al) with (Rabs S + Rabs c) in Ht by (field; lra).
      pose proof (Rle_abs S). pose proof (Rle_abs (- c)). rewrite Rabs_Ropp in *. lra.
    - assert (al < 0)
        by (destruct (Rtotal_order al 0) as [?|[?|?]]; [assumption|contradiction|lra]).
      destruct (Hn eps He) as [S HS]. exists ((Rabs S + Rabs c) / - al). intros t Ht.
      replace (t * al + c) with (- (- (t * al + c))) by ring. apply HS.
      apply (Rmult_le_compat_r (- al)) in Ht; [|lra].
      replace ((Rabs S + Rabs c) / - al * - al) with (Rabs S + Rabs c) in Ht by (field; lra).
      pose proof (Rle_abs S). pose proof (Rle_abs c). lra. }
  pose proof (tends_to_plus _ _ _ _ Hs (tends_to_const (if Rlt_dec 0 al then c else 0))) as H.
  rewrite Rplus_0_l in H. eapply (tends_to_ext _ _ _ (Rabs c / Rabs al + 1)); [|exact H].
  intros t Ht. rewrite <- (Hr t Ht). ring.
Qed.

Lemma tends_to_limit_eq F l l' : tends_to F l -> l = l' -> tends_to F l'.
Proof. intros H <-. exact H. Qed.

(** ** A whole block *)

Lemma sigma_row_limit sigma d (a : vec) (c : R) (v : vec) : relu_asymptotic sigma ->
  (dot d a v <> 0 \/ forall k, (k < d)%nat -> a k = 0) ->
  exists delta l, 0 < delta /\ forall w, cube d v delta w ->
    tends_to (fun t => sigma (dot d a (vscale t w) + c) - t * relu (dot d a w)) l.
Proof.
  intros Hs [Hav|Ha0].
  - set (al := dot d a v). set (Sa := vnorm d a).
    assert (HSa : 0 <= Sa) by apply vnorm_nonneg.
    assert (Hal : 0 < Rabs al) by (apply Rabs_pos_lt; exact Hav).
    exists (Rabs al / (2 * (Sa + 1))), (if Rlt_dec 0 al then c else 0).
    split; [apply Rdiv_lt_0_compat; lra|]. intros w Hw.
    assert (Hdel : Sa * (Rabs al / (2 * (Sa + 1))) < Rabs al / 2).
    { apply (Rmult_lt_reg_r (2 * (Sa + 1))); [lra|].
      replace (Sa * (Rabs al / (2 * (Sa + 1))) * (2 * (Sa + 1))) with (Sa * Rabs al)
        by (field; lra).
      nra. }
    pose proof (dot_cube_bound d a v w _ Hw) as Hb. fold al Sa in Hb.
    assert (Hwa : Rabs (dot d a w - al) < Rabs al / 2) by lra.
    apply Rabs_def2 in Hwa.
    assert (Hsame : (if Rlt_dec 0 (dot d a w) then c else 0) = (if Rlt_dec 0 al then c else 0)).
    { destruct (Rlt_dec 0 al) as [Hp|Hp]; destruct (Rlt_dec 0 (dot d a w)) as [Hq|Hq];
        try reflexivity; exfalso.
      - rewrite (Rabs_pos_eq al) in Hwa by lra. lra.
      - assert (al < 0) by (destruct (Rtotal_order al 0) as [?|[E|?]];
                             [assumption | exfalso; apply Hav; exact E | lra]).
        rewrite (Rabs_left al) in Hwa by lra. lra. }
    assert (Hw0 : dot d a w <> 0).
    { intros E. rewrite E in Hwa. unfold Rabs in Hwa. destruct (Rcase_abs al); lra. }
    rewrite <- Hsame.
    apply (tends_to_ext (fun t => sigma (t * dot d a w + c) - t * relu (dot d a w)) _ _ 0).
    + intros t _. rewrite dot_vscale. reflexivity.
    + apply sigma_unit_limit; assumption.
  - assert (Hz : forall x, dot d a x = 0).
    { intros x. unfold dot. apply sumn_zero. intros k Hk. rewrite Ha0 by exact Hk. ring. }
    exists 1, (sigma c). split; [lra|]. intros w _.
    apply (tends_to_ext (fun _ => sigma c) _ _ 0); [|apply tends_to_const].
    intros t _. rewrite !Hz, (relu_neg 0), Rplus_0_l by lra. ring.
Qed.

Lemma sigma_block_limit sigma d m A c B v : relu_asymptotic sigma -> off_rows d m A v ->
  exists delta (L : nat -> R), 0 < delta /\ forall w i, cube d v delta w ->
    tends_to (fun t => sumn m (fun j => B i j * (sigma (dot d (row A j) (vscale t w) + c j) -
                                                  t * relu (dot d (row A j) w)))) (L i).
Proof.
  intros Hs. induction m as [|m IH]; intros Hv.
  - exists 1, (fun _ => 0). split; [lra|]. intros w i _.
    apply (tends_to_ext (fun _ => 0) _ _ 0); [intros; reflexivity | apply tends_to_const].
  - destruct IH as [d1 [L [Hd1 HL]]]; [intros j Hj; apply Hv; lia|].
    destruct (sigma_row_limit sigma d (row A m) (c m) v Hs (Hv m (Nat.lt_succ_diag_r m)))
      as [d2 [l [Hd2 Hl]]].
    exists (Rmin d1 d2), (fun i => L i + B i m * l). split; [apply Rmin_pos; assumption|].
    intros w i Hw.
    assert (Hw1 : cube d v d1 w)
      by (intros k Hk; eapply Rlt_le_trans; [apply Hw, Hk | apply Rmin_l]).
    assert (Hw2 : cube d v d2 w)
      by (intros k Hk; eapply Rlt_le_trans; [apply Hw, Hk | apply Rmin_r]).
    simpl. apply tends_to_plus; [apply HL, Hw1 | apply tends_to_scal, Hl, Hw2].
Qed.

(** ** A pre-norm block equal to a bare block *)

Lemma prenorm_sigma_asymptotically_constant sigma d P N f m A c B b0 v :
  relu_asymptotic sigma -> bounded_map d (fun x => f (N x)) ->
  same_fun d (prenorm d P N f) (ungated_bias sigma d m A c B b0) -> off_rows d m A v ->
  exists delta, 0 < delta /\ forall w i, cube d v delta w -> (i < d)%nat ->
    tends_to (fun t => f (N (vscale t w)) i - f (N (vscale t v)) i) 0.
Proof.
  intros Hs [K HK] E Hv.
  destruct (sigma_block_limit sigma d m A c B v Hs Hv) as [delta [L [Hd HL]]].
  assert (HK0 : 0 <= K) by (pose proof (HK v); pose proof (vnorm_nonneg d (f (N v))); lra).
  assert (Hkey : forall w i, cube d v delta w -> (i < d)%nat ->
                   tends_to (fun t => f (N (vscale t w)) i) (L i + b0 i)).
  { intros w i Hw Hi.
    set (D := mv d P w i - ungated relu d m A B w i).
    set (G := fun t => sumn m (fun j => B i j * (sigma (dot d (row A j) (vscale t w) + c j) -
                                                  t * relu (dot d (row A j) w)))).
    assert (HG : tends_to G (L i)) by exact (HL w i Hw).
    assert (Hsplit : forall t, f (N (vscale t w)) i = G t + b0 i - t * D).
    { intros t. pose proof (E (vscale t w) i Hi) as Et.
      unfold prenorm, residual, ungated_bias in Et. rewrite mv_vscale in Et.
      assert (HGt : G t = sumn m (fun j => B i j * sigma (dot d (row A j) (vscale t w) + c j)) -
                          t * ungated relu d m A B w i).
      { unfold G, ungated. rewrite <- sumn_scal_l, <- sumn_minus. apply sumn_ext.
        intros; ring. }
      rewrite HGt. unfold D. lra. }
    destruct (Req_dec D 0) as [HD|HD].
    - apply (tends_to_ext (fun t => G t + b0 i) _ _ 0).
      + intros t _. rewrite Hsplit, HD. ring.
      + apply tends_to_plus; [exact HG | apply tends_to_const].
    - exfalso. assert (HDp : 0 < Rabs D) by (apply Rabs_pos_lt; exact HD).
      destruct (HG 1 Rlt_0_1) as [T HT].
      set (M := K + Rabs (L i) + Rabs (b0 i) + 2).
      set (s := Rmax (Rmax T 0) (M / Rabs D)).
      assert (Hs0 : 0 <= s) by (eapply Rle_trans; [apply Rmax_r | apply Rmax_l]).
      pose proof (HT s (Rle_trans _ _ _ (Rmax_l _ _) (Rmax_l _ _))) as HGs.
      pose proof (Rmult_le_compat_r (Rabs D) _ _ (Rlt_le _ _ HDp) (Rmax_r (Rmax T 0) (M / Rabs D)))
        as HsD.
      fold s in HsD. replace (M / Rabs D * Rabs D) with M in HsD by (field; lra).
      pose proof (coord_le_vnorm d (f (N (vscale s w))) i Hi) as Hc.
      pose proof (HK (vscale s w)) as HKs. rewrite Hsplit in Hc.
      pose proof (Rabs_triang_inv (s * D) (G s + b0 i)) as Htri.
      rewrite Rabs_mult, (Rabs_pos_eq s Hs0) in Htri.
      rewrite Rabs_minus_sym in Htri.
      replace (G s + b0 i - s * D) with (G s + b0 i - s * D) in Htri by ring.
      pose proof (Rabs_triang (G s - L i) (L i + b0 i)) as Htri2.
      replace (G s - L i + (L i + b0 i)) with (G s + b0 i) in Htri2 by ring.
      pose proof (Rabs_triang (L i) (b0 i)).
      unfold M in HsD. lra. }
  exists delta. split; [exact Hd|]. intros w i Hw Hi.
  assert (Hvv : cube d v delta v)
    by (intros k Hk; rewrite Rminus_diag_eq, Rabs_R0 by reflexivity; exact Hd).
  apply (tends_to_ext (fun t => f (N (vscale t w)) i + -1 * f (N (vscale t v)) i) _ _ 0).
  - intros; ring.
  - apply (tends_to_limit_eq _ ((L i + b0 i) + -1 * (L i + b0 i))); [|ring].
    apply tends_to_plus; [|apply tends_to_scal]; apply Hkey; assumption.
Qed.

(** [F] is nowhere asymptotically constant along rays. *)
Definition nowhere_ray_asymptotic (d : nat) (F : vec -> vec) : Prop :=
  forall v delta, 0 < delta -> exists w i, cube d v delta w /\ (i < d)%nat /\
    ~ tends_to (fun t => F (vscale t w) i - F (vscale t v) i) 0.

Theorem prenorm_not_sigma_bare sigma d P N f m A c B b0 :
  relu_asymptotic sigma -> is_norm d N -> bounded_on_bounded d f ->
  nowhere_ray_asymptotic d (fun x => f (N x)) ->
  ~ same_fun d (prenorm d P N f) (ungated_bias sigma d m A c B b0).
Proof.
  intros Hs HN Hf Hnc E.
  destruct (exists_off_rows d m A) as [v Hv].
  destruct (prenorm_sigma_asymptotically_constant sigma d P N f m A c B b0 v Hs
              (bob_after_bounded d N f (is_norm_bounded d N HN) Hf) E Hv) as [delta [Hd HC]].
  destruct (Hnc v delta Hd) as [w [i [Hw [Hi Hne]]]].
  exact (Hne (HC w i Hw Hi)).
Qed.

Theorem prenorm_continuous_not_sigma_bare sigma d P N f m A c B b0 :
  relu_asymptotic sigma -> is_norm d N -> continuous_vec d f ->
  nowhere_ray_asymptotic d (fun x => f (N x)) ->
  ~ same_fun d (prenorm d P N f) (ungated_bias sigma d m A c B b0).
Proof.
  intros Hs HN Hf. apply prenorm_not_sigma_bare; [exact Hs | exact HN |].
  apply continuous_vec_bounded_on_bounded, Hf.
Qed.

(** ** SiLU is asymptotic to ReLU *)

Lemma small_over_t eps : 0 < eps -> forall s, 4 / eps + 1 <= s -> 4 / s < eps.
Proof.
  intros He s Hs. assert (H4 : 0 < 4 / eps) by (apply Rdiv_lt_0_compat; lra).
  apply (Rmult_lt_reg_r s); [lra|]. replace (4 / s * s) with 4 by (field; lra).
  apply (Rmult_lt_reg_l (/ eps)); [apply Rinv_0_lt_compat, He|].
  replace (/ eps * 4) with (4 / eps) by (unfold Rdiv; ring).
  replace (/ eps * (eps * s)) with s by (field; lra). lra.
Qed.

Theorem silu_relu_asymptotic : relu_asymptotic silu.
Proof.
  assert (Hb : forall s, 0 < s -> s * exp (- s) <= 4 / s).
  { intros s Hs. pose proof (t_exp_neg_bound 1 s Rlt_0_1 Hs) as H.
    rewrite Rmult_1_l in H. replace (4 / (1 * 1) / s) with (4 / s) in H by (field; lra).
    exact H. }
  split; intros eps He; exists (4 / eps + 1); intros s Hs;
    (assert (H4 : 0 < 4 / eps) by (apply Rdiv_lt_0_compat; lra));
    pose proof (small_over_t eps He s Hs) as Hsm; pose proof (Hb s ltac:(lra)) as Hbs;
    pose proof (exp_pos s) as Hes; pose proof (exp_pos (- s)) as Hen;
    rewrite Rminus_0_r; unfold silu.
  - rewrite (relu_pos s) by lra.
    replace (s / (1 + exp (- s)) - s) with (- (s * exp (- s)) / (1 + exp (- s))) by (field; lra).
    rewrite abs_div_pos by lra. rewrite Rabs_Ropp, (Rabs_pos_eq (s * exp (- s))) by nra.
    apply (Rle_lt_trans _ (s * exp (- s))); [|lra].
    apply (Rmult_le_reg_r (1 + exp (- s))); [lra|].
    replace (s * exp (- s) / (1 + exp (- s)) * (1 + exp (- s))) with (s * exp (- s))
      by (field; lra).
    nra.
  - rewrite (relu_neg (- s)) by lra. rewrite Ropp_involutive, Rminus_0_r.
    rewrite abs_div_pos by lra. rewrite Rabs_Ropp, (Rabs_pos_eq s) by lra.
    apply (Rle_lt_trans _ (s * exp (- s))); [|lra].
    apply (Rmult_le_reg_r (1 + exp s)); [lra|].
    replace (s / (1 + exp s) * (1 + exp s)) with s by (field; lra).
    rewrite exp_Ropp. replace (s * / exp s * (1 + exp s)) with (s * / exp s + s) by (field; lra).
    assert (0 < s * / exp s) by (apply Rmult_lt_0_compat; [lra | apply Rinv_0_lt_compat, Hes]).
    lra.
Qed.

(** ** The logistic family: GELU_tanh, gelu_fast, quick_gelu *)

Lemma exp_le_mono x y : x <= y -> exp x <= exp y.
Proof. intros [H|H]; [left; apply exp_increasing, H | right; rewrite H; reflexivity]. Qed.

Lemma small_over C eps : 0 < C -> 0 < eps -> forall s, C / eps + 1 <= s -> C / s < eps.
Proof.
  intros HC He s Hs. assert (H4 : 0 < C / eps) by (apply Rdiv_lt_0_compat; lra).
  apply (Rmult_lt_reg_r s); [lra|]. replace (C / s * s) with C by (field; lra).
  apply (Rmult_lt_reg_l (/ eps)); [apply Rinv_0_lt_compat, He|].
  replace (/ eps * C) with (C / eps) by (unfold Rdiv; ring).
  replace (/ eps * (eps * s)) with s by (field; lra). lra.
Qed.

Lemma div_nonneg a b : 0 <= a -> 0 < b -> 0 <= a / b.
Proof. intros. unfold Rdiv. apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]. Qed.

(** [sigma(z) = z - z / (1 + exp(q z))] with [q z >= k z] for [z >= 0] and
    [q z <= k z] for [z <= 0], [k > 0] (SiLU: [q z = z]). *)
Lemma logistic_relu_asymptotic sigma (q : R -> R) k : 0 < k ->
  (forall z, sigma z = z - z / (1 + exp (q z))) ->
  (forall z, 0 <= z -> k * z <= q z) -> (forall z, z <= 0 -> q z <= k * z) ->
  relu_asymptotic sigma.
Proof.
  intros Hk Hs Hpos Hneg.
  assert (Hb : forall s, 0 < s -> s * exp (- (k * s)) <= 4 / (k * k) / s)
    by (intros; apply t_exp_neg_bound; lra).
  assert (HC : 0 < 4 / (k * k)) by (apply Rdiv_lt_0_compat; nra).
  split; intros eps He; exists (4 / (k * k) / eps + 1); intros s Hs';
    pose proof (small_over _ eps HC He s Hs') as Hsm;
    assert (Hs0 : 0 < s) by (pose proof (Rdiv_lt_0_compat _ _ HC He); lra);
    pose proof (Hb s Hs0) as Hbs; rewrite Rminus_0_r, Hs.
  - rewrite (relu_pos s) by lra. set (Q := q s). pose proof (exp_pos Q) as HQ.
    replace (s - s / (1 + exp Q) - s) with (- (s / (1 + exp Q))) by ring.
    rewrite Rabs_Ropp, Rabs_pos_eq by (apply div_nonneg; lra).
    assert (Hm : exp (- Q) <= exp (- (k * s)))
      by (apply exp_le_mono; pose proof (Hpos s ltac:(lra)); unfold Q; lra).
    apply (Rle_lt_trans _ (s * exp (- (k * s)))); [|lra].
    apply (Rle_trans _ (s * exp (- Q))); [|apply Rmult_le_compat_l; lra].
    rewrite exp_Ropp. apply (Rmult_le_reg_r (1 + exp Q)); [lra|].
    replace (s / (1 + exp Q) * (1 + exp Q)) with s by (field; lra).
    replace (s * / exp Q * (1 + exp Q)) with (s * / exp Q + s) by (field; lra).
    assert (0 < s * / exp Q) by (apply Rmult_lt_0_compat; [lra | apply Rinv_0_lt_compat, HQ]).
    lra.
  - rewrite (relu_neg (- s)) by lra. set (Q := q (- s)). pose proof (exp_pos Q) as HQ.
    replace (- s - - s / (1 + exp Q) - 0) with (- (s * exp Q / (1 + exp Q))) by (field; lra).
    rewrite Rabs_Ropp, Rabs_pos_eq
      by (apply div_nonneg; [apply Rmult_le_pos; lra | lra]).
    assert (Hm : exp Q <= exp (- (k * s)))
      by (apply exp_le_mono; pose proof (Hneg (- s) ltac:(lra)); unfold Q; lra).
    apply (Rle_lt_trans _ (s * exp (- (k * s)))); [|lra].
    apply (Rle_trans _ (s * exp Q)); [|apply Rmult_le_compat_l; lra].
    apply (Rmult_le_reg_r (1 + exp Q)); [lra|].
    replace (s * exp Q / (1 + exp Q) * (1 + exp Q)) with (s * exp Q) by (field; lra).
    assert (0 < s * exp Q) by (apply Rmult_lt_0_compat; lra). nra.
Qed.

Lemma tanh_gelu_relu_asymptotic k alpha : 0 < k -> 0 <= alpha ->
  relu_asymptotic (GeluFastRidge.tanh_gelu k alpha).
Proof.
  intros Hk Ha. apply (logistic_relu_asymptotic _ (GeluFastRidge.tanh_gelu_exponent k alpha)
                         (2 * k)); [lra | | |].
  - intros z. pose proof (GeluFastRidge.tanh_gelu_even_formula k alpha z) as E.
    unfold ReluSubmatrix.even_part in E.
    pose proof (exp_pos (GeluFastRidge.tanh_gelu_exponent k alpha z)).
    replace (GeluFastRidge.tanh_gelu k alpha z)
      with (z / 2 + z * (/ 2 - / (1 + exp (GeluFastRidge.tanh_gelu_exponent k alpha z))))
      by lra.
    field. lra.
  - intros z Hz. unfold GeluFastRidge.tanh_gelu_exponent.
    assert (0 <= alpha * (z * z * z)) by (apply Rmult_le_pos; [lra | nra]). nra.
  - intros z Hz. unfold GeluFastRidge.tanh_gelu_exponent.
    assert (alpha * (z * z * z) <= 0).
    { assert (z * z * z <= 0) by nra. nra. }
    nra.
Qed.

Lemma relu_asymptotic_ext sigma tau : (forall z, sigma z = tau z) ->
  relu_asymptotic tau -> relu_asymptotic sigma.
Proof.
  intros E [H1 H2].
  split; [refine (tends_to_ext _ _ _ 0 _ H1) | refine (tends_to_ext _ _ _ 0 _ H2)];
    intros; rewrite E; reflexivity.
Qed.

Theorem gelu_tanh_relu_asymptotic : relu_asymptotic gelu_tanh.
Proof.
  assert (Hk : 0 < sqrt (2 / PI))
    by (apply sqrt_lt_R0, Rdiv_lt_0_compat; [lra | exact PI_RGT_0]).
  apply (relu_asymptotic_ext _ _ GeluFastRidge.gelu_tanh_is_tanh_gelu).
  apply tanh_gelu_relu_asymptotic; [exact Hk | lra].
Qed.

Theorem gelu_fast_relu_asymptotic : relu_asymptotic MoreActivationDefs.gelu_fast.
Proof.
  apply (relu_asymptotic_ext _ _ GeluFastRidge.gelu_fast_is_tanh_gelu).
  apply tanh_gelu_relu_asymptotic; [exact GeluFastRidge.gelu_fast_scale_pos|].
  unfold MoreActivationDefs.gelu_fast_cubic. lra.
Qed.

Theorem quick_gelu_relu_asymptotic : relu_asymptotic MoreActivationDefs.quick_gelu.
Proof.
  apply (logistic_relu_asymptotic _ (fun z => 1702 / 1000 * z) (1702 / 1000)); [lra | | |].
  - intros z. unfold MoreActivationDefs.quick_gelu.
    replace (- (1702 / 1000) * z) with (- (1702 / 1000 * z)) by ring. rewrite exp_Ropp.
    pose proof (exp_pos (1702 / 1000 * z)). field. lra.
  - intros z _. lra.
  - intros z _. lra.
Qed.

(** ** [P x + RMSNorm(x)], [d >= 2] *)

Lemma tends_to_unique F l l' : tends_to F l -> tends_to F l' -> l = l'.
Proof.
  intros H H'. apply NNPP. intros Hne.
  assert (He : 0 < Rabs (l - l') / 2)
    by (apply Rdiv_lt_0_compat; [apply Rabs_pos_lt; intros E; apply Hne; lra | lra]).
  destruct (H _ He) as [T HT]. destruct (H' _ He) as [T' HT'].
  pose proof (HT (Rmax T T') (Rmax_l _ _)). pose proof (HT' (Rmax T T') (Rmax_r _ _)).
  pose proof (Rabs_triang (l - F (Rmax T T')) (F (Rmax T T') - l')) as Ht.
  replace (l - F (Rmax T T') + (F (Rmax T T') - l')) with (l - l') in Ht by ring.
  rewrite (Rabs_minus_sym l (F (Rmax T T'))) in Ht. lra.
Qed.

Lemma mean_sq_vscale d t x : mean_sq d (vscale t x) = t * t * mean_sq d x.
Proof.
  unfold mean_sq, vscale, Rdiv.
  rewrite (sumn_ext d (fun k => t * x k * (t * x k)) (fun k => t * t * (x k * x k)))
    by (intros; ring).
  rewrite sumn_scal_l. ring.
Qed.

(** Along a ray, [RMSNorm(t x)_i -> x_i / sqrt(mean(x^2))] ([gamma = 1],
    [beta = 0]). *)
Lemma rms_ray_limit d eps x i : 0 < eps -> 0 < mean_sq d x ->
  tends_to (fun t => rms_norm d eps (fun _ => 1) (fun _ => 0) (vscale t x) i)
           (x i / sqrt (mean_sq d x)).
Proof.
  intros He Hm. set (m := mean_sq d x). assert (Hm0 : 0 < m) by exact Hm.
  set (phi := fun s => x i / sqrt (m + s)).
  assert (Hphi : continuity_pt phi 0).
  { assert (Hid : continuity_pt id 0) by exact (derivable_continuous_pt id 0 (derivable_pt_id 0)).
    assert (Hcm : continuity_pt (fct_cte m) 0)
      by (apply continuity_pt_const; intros ? ?; reflexivity).
    assert (Hlin : continuity_pt (fun s => m + s) 0)
      by exact (continuity_pt_plus (fct_cte m) id 0 Hcm Hid).
    assert (Hsq : continuity_pt (comp sqrt (fun s => m + s)) 0).
    { apply continuity_pt_comp; [exact Hlin|].
      apply continuity_pt_sqrt; cbv beta; rewrite Rplus_0_r; lra. }
    apply (continuity_pt_div (fct_cte (x i)) (comp sqrt (fun s => m + s)) 0);
      [apply continuity_pt_const; intros ? ?; reflexivity | exact Hsq |].
    unfold comp. rewrite Rplus_0_r. apply Rgt_not_eq, sqrt_lt_R0, Hm. }
  intros e Hee. destruct (Hphi e Hee) as [del [Hdel Hc]].
  exists (eps / del + 1). intros t Ht.
  assert (Ht0 : 1 <= t) by (pose proof (Rdiv_lt_0_compat eps del He Hdel); lra).
  assert (Hs : 0 < eps / (t * t)) by (apply Rdiv_lt_0_compat; nra).
  assert (Hval : rms_norm d eps (fun _ => 1) (fun _ => 0) (vscale t x) i = phi (eps / (t * t))).
  { unfold rms_norm, affine_normalize, phi. rewrite mean_sq_vscale. fold m.
    replace (t * t * m + eps) with ((t * t) * (m + eps / (t * t))) by (field; lra).
    rewrite sqrt_mult_alt by nra. rewrite sqrt_square by lra.
    assert (0 < sqrt (m + eps / (t * t))) by (apply sqrt_lt_R0; lra).
    unfold vscale. field. lra. }
  rewrite Hval. replace (x i / sqrt m) with (phi 0) by (unfold phi; rewrite Rplus_0_r; reflexivity).
  apply (Hc (eps / (t * t))). split; [split; [exact I | lra]|].
  simpl. unfold R_dist. rewrite Rminus_0_r, Rabs_pos_eq by lra.
  apply (Rmult_lt_reg_r (t * t)); [nra|].
  replace (eps / (t * t) * (t * t)) with eps by (field; lra).
  apply (Rmult_le_compat_r del) in Ht; [|lra].
  replace ((eps / del + 1) * del) with (eps + del) in Ht by (field; lra). nra.
Qed.

Lemma mean_sq_pos d x k : (k < d)%nat -> x k <> 0 -> 0 < mean_sq d x.
Proof.
  intros Hk Hx. unfold mean_sq. apply Rdiv_lt_0_compat; [|apply lt_0_INR; lia].
  pose proof (sq_le_sum_sq d x k Hk). assert (0 < x k * x k) by nra. lra.
Qed.

(** Changing coordinate [0] by [eta] changes [sum x_k^2] by [2 x_0 eta + eta^2]. *)
Lemma sumsq_bump d (v : vec) eta : (1 <= d)%nat ->
  sumn d (fun k => (if Nat.eq_dec 0 k then v k + eta else v k) *
                   (if Nat.eq_dec 0 k then v k + eta else v k)) =
  sumn d (fun k => v k * v k) + (2 * v 0%nat * eta + eta * eta).
Proof.
  intros Hd. rewrite <- (sumn_delta d 0 (fun _ => 2 * v 0%nat * eta + eta * eta)) by lia.
  rewrite <- sumn_plus. apply sumn_ext. intros k Hk.
  destruct (Nat.eq_dec 0 k) as [<-|Hne]; ring.
Qed.

Lemma rmsnorm_nowhere_ray_asymptotic d eps : (2 <= d)%nat -> 0 < eps ->
  nowhere_ray_asymptotic d (rms_norm d eps (fun _ => 1) (fun _ => 0)).
Proof.
  intros Hd He v delta Hdel. set (F := rms_norm d eps (fun _ => 1) (fun _ => 0)).
  destruct (Req_dec (v 1%nat) 0) as [Hv1|Hv1].
  - (* move coordinate 1 off 0 *)
    set (w := fun k => if Nat.eq_dec 1 k then v k + delta / 2 else v k).
    exists w, 1%nat. split; [|split; [lia|]].
    + intros k Hk. unfold w. destruct (Nat.eq_dec 1 k).
      * replace (v k + delta / 2 - v k) with (delta / 2) by ring.
        rewrite Rabs_pos_eq by lra. lra.
      * rewrite Rminus_diag_eq, Rabs_R0 by reflexivity. exact Hdel.
    + intros Hlim.
      assert (Hw1 : w 1%nat = delta / 2) by (unfold w; rewrite Hv1; simpl; ring).
      assert (Hmw : 0 < mean_sq d w) by (apply (mean_sq_pos d w 1); [lia | lra]).
      assert (Hz : tends_to (fun t => F (vscale t w) 1%nat) 0).
      { apply (tends_to_ext (fun t => F (vscale t w) 1%nat - F (vscale t v) 1%nat) _ _ 0);
          [|exact Hlim].
        intros t _. unfold F, rms_norm, affine_normalize, vscale. rewrite Hv1.
        unfold Rdiv. ring. }
      pose proof (tends_to_unique _ _ _ Hz (rms_ray_limit d eps w 1 He Hmw)) as E.
      rewrite Hw1 in E. assert (0 < sqrt (mean_sq d w)) by (apply sqrt_lt_R0, Hmw).
      assert (0 < delta / 2 / sqrt (mean_sq d w)) by (apply Rdiv_lt_0_compat; lra). lra.
  - (* move coordinate 0, away from 0, so that the norm grows *)
    set (eta := if Rle_dec 0 (v 0%nat) then delta / 2 else - (delta / 2)).
    set (w := fun k => if Nat.eq_dec 0 k then v k + eta else v k).
    assert (Heta : Rabs eta = delta / 2).
    { unfold eta. destruct (Rle_dec 0 (v 0%nat)).
      - apply Rabs_pos_eq. lra.
      - rewrite Rabs_Ropp. apply Rabs_pos_eq. lra. }
    assert (Hgrow : 0 < 2 * v 0%nat * eta + eta * eta).
    { unfold eta. destruct (Rle_dec 0 (v 0%nat)); nra. }
    exists w, 1%nat. split; [|split; [lia|]].
    + intros k Hk. unfold w. destruct (Nat.eq_dec 0 k).
      * replace (v k + eta - v k) with eta by ring. lra.
      * rewrite Rminus_diag_eq, Rabs_R0 by reflexivity. exact Hdel.
    + intros Hlim.
      assert (Hw1 : w 1%nat = v 1%nat) by reflexivity.
      assert (Hmv : 0 < mean_sq d v) by (apply (mean_sq_pos d v 1); [lia | exact Hv1]).
      assert (Hmw : mean_sq d v < mean_sq d w).
      { unfold mean_sq, w. rewrite sumsq_bump by lia.
        apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat, lt_0_INR; lia | lra]. }
      pose proof (tends_to_plus _ _ _ _ (rms_ray_limit d eps w 1 He ltac:(lra))
                    (tends_to_scal (-1) _ _ (rms_ray_limit d eps v 1 He Hmv))) as H2.
      assert (H3 : tends_to (fun t => F (vscale t w) 1%nat - F (vscale t v) 1%nat)
                     (w 1%nat / sqrt (mean_sq d w) + -1 * (v 1%nat / sqrt (mean_sq d v)))).
      { refine (tends_to_ext _ _ _ 0 _ H2). intros t _. unfold F. ring. }
      pose proof (tends_to_unique _ _ _ H3 Hlim) as E. rewrite Hw1 in E.
      assert (Hs : sqrt (mean_sq d v) < sqrt (mean_sq d w))
        by (apply sqrt_lt_1_alt; lra).
      assert (0 < sqrt (mean_sq d v)) by (apply sqrt_lt_R0, Hmv).
      assert (Heq : v 1%nat * (sqrt (mean_sq d w) - sqrt (mean_sq d v)) = 0).
      { replace 0 with ((v 1%nat / sqrt (mean_sq d w) + -1 * (v 1%nat / sqrt (mean_sq d v)))
                        * (- (sqrt (mean_sq d w) * sqrt (mean_sq d v)))) by (rewrite E; ring).
        field. lra. }
      apply Rmult_integral in Heq. destruct Heq; [contradiction | lra].
Qed.

(** For [d >= 2], every [eps > 0], every [P] and every [sigma] asymptotic
    to ReLU, [x |-> P x + RMSNorm(x)] is no bare [sigma] block with biases,
    of any width. *)
Theorem rmsnorm_residual_not_sigma_bare sigma d eps P m A c B b0 :
  relu_asymptotic sigma -> (2 <= d)%nat -> 0 < eps ->
  ~ same_fun d (prenorm d P (rms_norm d eps (fun _ => 1) (fun _ => 0)) (fun x => x))
               (ungated_bias sigma d m A c B b0).
Proof.
  intros Hs Hd He. apply prenorm_not_sigma_bare; [exact Hs | | |].
  - exists eps, (fun _ => 1), (fun _ => 0). split; [exact He | right; reflexivity].
  - intros K. exists K. intros x Hx. exact Hx.
  - exact (rmsnorm_nowhere_ray_asymptotic d eps Hd He).
Qed.

(** Non-vacuity: on [R^2], [x + RMSNorm(x)] is no bare SiLU block of width 3. *)
Example rmsnorm_residual_not_silu_bare_instance :
  ~ same_fun 2 (prenorm 2 identity (rms_norm 2 1 (fun _ => 1) (fun _ => 0)) (fun x => x))
               (ungated_bias silu 2 3 (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 0)).
Proof. apply rmsnorm_residual_not_sigma_bare; [exact silu_relu_asymptotic | lia | lra]. Qed.

(** ... and no bare GELU_tanh block either. *)
Example rmsnorm_residual_not_gelu_tanh_bare_instance :
  ~ same_fun 2 (prenorm 2 identity (rms_norm 2 1 (fun _ => 1) (fun _ => 0)) (fun x => x))
               (ungated_bias gelu_tanh 2 3 (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 0)).
Proof. apply rmsnorm_residual_not_sigma_bare; [exact gelu_tanh_relu_asymptotic | lia | lra]. Qed.
