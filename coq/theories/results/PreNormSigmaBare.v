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
    is paper.md's asymptotic argument in local form (no connectedness, so
    no [d >= 3] here: that is needed only to reach the paper's hypothesis,
    [f] not constant on the ellipsoid). *)

From Coq Require Import Reals Lra Lia List Classical.
From Absorb Require Import Sums Blocks BiasBlocks Norms ContinuityDefs.
From Absorb Require Import ActivationDefs Activations Gated Depth ContinuousBounded.
From Absorb Require Import PreNorm PreNormReluBare ExpPolyAsymptotics.
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
Proof. intros eps He. exists 0. intros. rewrite Rminus_diag_eq, Rabs_R0; [exact He | reflexivity]. Qed.

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
    - assert (al < 0) by (destruct (Rtotal_order al 0) as [?|[?|?]]; [assumption|contradiction|lra]).
      rewrite (Rabs_left al) in Hq, Hta, Hc0 by lra. apply relu_large_neg; lra. }
  (* the rest tends to 0 *)
  assert (Hs : tends_to (fun t => sigma (t * al + c) - relu (t * al + c)) 0).
  { intros eps He. destruct (Rlt_dec 0 al) as [Hpos|Hneg].
    - destruct (Hp eps He) as [S HS]. exists ((Rabs S + Rabs c) / al). intros t Ht.
      apply HS. apply (Rmult_le_compat_r al) in Ht; [|lra].
      replace ((Rabs S + Rabs c) / al * al) with (Rabs S + Rabs c) in Ht by (field; lra).
      pose proof (Rle_abs S). pose proof (Rle_abs (- c)). rewrite Rabs_Ropp in *. lra.
    - assert (al < 0) by (destruct (Rtotal_order al 0) as [?|[?|?]]; [assumption|contradiction|lra]).
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
  intros Hs [K HK] E Hv. destruct (sigma_block_limit sigma d m A c B v Hs Hv) as [delta [L [Hd HL]]].
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
