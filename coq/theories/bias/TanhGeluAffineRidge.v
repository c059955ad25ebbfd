(** * The tanh-GELU family with biases; gelu_fast (paper.md R10 with R9)

    [tanh_gelu k alpha z = z (1 + tanh (k (z + alpha z^3))) / 2]
    ([GeluFastRidge.v]); [gelu_fast] is [tanh_gelu 0.7978845608 0.044715].
    The one-variable argument of [GeluTanhAffineRidge.v] uses of GELU_tanh's
    constants only [k > 0] and a cubic coefficient [> 0]: along
    [z = alpha_j t + beta_j] the exponent [2 k (z + cu z^3)] is a cubic in
    [t] whose leading coefficients [(2 k cu alpha^3, 6 k cu alpha^2 beta)]
    separate the pairs [(alpha_j, beta_j)] for [alpha_j > 0], so the term
    of the lexicographically smallest pair dominates.  Here it is replayed
    for every [k > 0], [cu > 0] (the generic lemmas [cubic_growth],
    [term_over_t_bound], [logistic_split], ... are reused).  For [cu = 0]
    the exponent is linear and this argument does not apply, but that
    member is a rescaled SiLU.

    Main results:
    - [tanh_gelu_even_affine_positive]: the one-variable statement for
      positive dilations, every [k > 0], [cu > 0];
    - [tanh_gelu_even_affine_independent :
       affine_independent_1d (even_part (tanh_gelu k cu))];
    - [tanh_gelu_0_even_affine_independent]: the member [cu = 0] is
      [silu (2 k z) / (2 k)], handled by rescaling SiLU's statement, so
      [tanh_gelu_family_even_affine_independent] covers the whole family
      [k > 0], [cu >= 0] of [GeluFastRidge.v];
    - [gelu_fast_even_affine_independent :
       affine_independent_1d (even_part gelu_fast)];
    - R9 for gelu_fast: [gelu_fast_bias_absorbable_iff_submatrix],
      [gelu_fast_bias_generic_not_absorbable_below],
      [gelu_fast_bias_block_decided];
    - non-vacuity: both sides and the width bound on the blocks of
      [GeluBias.v], the non-generic block
      [x + gelu_fast(x + 1) + gelu_fast(x + 1)] (absorbable at width 2, not
      at width 1), and the family's hypotheses for gelu_fast's constants. *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Geometry FiniteMaps Calculus.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix.
From Absorb Require Import SiluRidge Biases RidgeForm BiasSpec BiasRidgeForm.
From Absorb Require Import GeluAffineRidge GeluBias ExpPolyAsymptotics GeluTanhAffineRidge.
From Absorb Require Import SiluAffineRidge PmBiasNecessity QuickGeluAffineRidge.
From Absorb Require Import MoreActivationDefs MoreActivations GeluFastRidge.
Open Scope R_scope.

Section Family.

Variables kk cu : R.
Context (Hkk : 0 < kk) (Hcu : 0 < cu).

(** ** The exponent along a line *)

Definition tg_g3 (a b : R) : R := 2 * kk * cu * (a * a * a).
Definition tg_g2 (a b : R) : R := 6 * kk * cu * (a * a * b).
Definition tg_g1 (a b : R) : R := 2 * kk * a + 6 * kk * cu * (a * b * b).
Definition tg_g0 (a b : R) : R := 2 * kk * b + 2 * kk * cu * (b * b * b).

Lemma tg_exponent_line a b t :
  tanh_gelu_exponent kk cu (a * t + b) = tg_g3 a b * (t * t * t) + tg_g2 a b * (t * t) + tg_g1 a b * t + tg_g0 a b.
Proof. unfold tanh_gelu_exponent, tg_g3, tg_g2, tg_g1, tg_g0. ring. Qed.

(** [c g_j - g_m] eventually exceeds [delta t] when the cubic part is
    lexicographically positive. *)
Lemma tg_exponent_gap (c : R) aj bj am bm :
  0 < c * tg_g3 aj bj - tg_g3 am bm \/
  (c * tg_g3 aj bj - tg_g3 am bm = 0 /\
   (0 < c * tg_g2 aj bj - tg_g2 am bm \/
    (c * tg_g2 aj bj - tg_g2 am bm = 0 /\ 0 < c * tg_g1 aj bj - tg_g1 am bm))) ->
  exists delta T, 0 < delta /\ 1 <= T /\ forall t, T <= t ->
    delta * t <= c * tanh_gelu_exponent kk cu (aj * t + bj) - tanh_gelu_exponent kk cu (am * t + bm).
Proof.
  intros H.
  destruct (cubic_growth (c * tg_g3 aj bj - tg_g3 am bm) (c * tg_g2 aj bj - tg_g2 am bm)
              (c * tg_g1 aj bj - tg_g1 am bm) (c * tg_g0 aj bj - tg_g0 am bm) H) as [delta [T [Hd [HT HG]]]].
  exists delta, T. split; [exact Hd|]. split; [exact HT|]. intros t Ht.
  rewrite !tg_exponent_line. pose proof (HG t Ht). nra.
Qed.

(** ** Signs of the leading coefficients *)

Lemma tg_g3_pos a b : 0 < a -> 0 < tg_g3 a b.
Proof.
  intros Ha. unfold tg_g3. pose proof Hkk. pose proof Hcu.
  repeat apply Rmult_lt_0_compat; lra.
Qed.

Lemma tg_g3_gap_lt aj bj am bm : 0 < am -> am < aj -> 0 < 1 * tg_g3 aj bj - tg_g3 am bm.
Proof.
  intros Ha Hlt. unfold tg_g3. pose proof Hkk. pose proof Hcu.
  pose proof (cube_lt am aj Ha Hlt).
  assert (0 < 2 * kk * cu) by (repeat apply Rmult_lt_0_compat; lra). nra.
Qed.

Lemma tg_g2_gap_eq aj bj am bm : 0 < am -> aj = am -> bm < bj ->
  1 * tg_g3 aj bj - tg_g3 am bm = 0 /\ 0 < 1 * tg_g2 aj bj - tg_g2 am bm.
Proof.
  intros Ha -> Hlt. unfold tg_g3, tg_g2. split; [ring|].
  pose proof Hkk. pose proof Hcu.
  assert (0 < 6 * kk * cu * (am * am)) by (repeat apply Rmult_lt_0_compat; lra). nra.
Qed.

Lemma tg_g3_double_pos aj bj am bm : 0 < am -> am <= aj -> 0 < 2 * tg_g3 aj bj - tg_g3 am bm.
Proof.
  intros Ha Hle. unfold tg_g3. pose proof Hkk. pose proof Hcu.
  assert (am * am * am <= aj * aj * aj) by (destruct (Rle_lt_or_eq_dec _ _ Hle) as [Hl|He];
    [left; apply cube_lt; lra | right; rewrite He; reflexivity]).
  assert (0 < am * am * am) by (repeat apply Rmult_lt_0_compat; lra).
  assert (0 < 2 * kk * cu) by (repeat apply Rmult_lt_0_compat; lra). nra.
Qed.

Lemma tg_exponent_pos_growth a b : 0 < a ->
  exists delta T, 0 < delta /\ 1 <= T /\ forall t, T <= t -> delta * t <= tanh_gelu_exponent kk cu (a * t + b).
Proof.
  intros Ha. destruct (cubic_growth (tg_g3 a b) (tg_g2 a b) (tg_g1 a b) (tg_g0 a b) (or_introl (tg_g3_pos a b Ha)))
    as [delta [T [Hd [HT H]]]].
  exists delta, T. split; [exact Hd|]. split; [exact HT|]. intros t Ht. rewrite tg_exponent_line. exact (H t Ht).
Qed.

(** ** Step 1: the affine part vanishes *)

Lemma tg_tanh_tail_bound (c a b : R) : 0 < a ->
  exists T K, forall t, T <= t ->
    Rabs (c * ((a * t + b) * / (1 + exp (tanh_gelu_exponent kk cu (a * t + b))))) <= K / t.
Proof.
  intros Ha. destruct (tg_exponent_pos_growth a b Ha) as [delta [T [Hd [HT H]]]].
  exists T, (Rabs c * ((Rabs a + Rabs b) * (4 / (delta * delta)))). intros t Ht.
  assert (Ht1 : 1 <= t) by lra.
  set (gg := tanh_gelu_exponent kk cu (a * t + b)).
  pose proof (inv_one_plus_exp_le_exp gg) as H1.
  pose proof (exp_le_mono (- gg) (- (delta * t)) ltac:(pose proof (H t Ht); unfold gg; lra)) as H2.
  assert (Hi : 0 < / (1 + exp gg)) by (apply Rinv_0_lt_compat; pose proof (exp_pos gg); lra).
  assert (Hz : Rabs (a * t + b) <= (Rabs a + Rabs b) * t).
  { eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_mult, (Rabs_right t) by lra.
    pose proof (Rabs_pos b). pose proof (Rabs_pos a). nra. }
  pose proof (t_exp_neg_bound delta t Hd ltac:(lra)) as Hte.
  rewrite !Rabs_mult, (Rabs_right (/ _)) by lra.
  replace (Rabs c * ((Rabs a + Rabs b) * (4 / (delta * delta))) / t)
    with (Rabs c * ((Rabs a + Rabs b) * (4 / (delta * delta) / t))) by (field; lra).
  apply Rmult_le_compat_l; [apply Rabs_pos|].
  pose proof (Rabs_pos (a * t + b)). pose proof (Rabs_pos a). pose proof (Rabs_pos b).
  apply Rle_trans with ((Rabs a + Rabs b) * t * exp (- (delta * t))).
  - apply Rmult_le_compat; lra.
  - rewrite Rmult_assoc. apply Rmult_le_compat_l; lra.
Qed.

Lemma tg_tanh_affine_zero N (gamma alpha beta : nat -> R) (P' Q' : R) :
  (forall j, (j < N)%nat -> 0 < alpha j) ->
  (forall t, sumn N (fun j => gamma j * ((alpha j * t + beta j)
                 * / (1 + exp (tanh_gelu_exponent kk cu (alpha j * t + beta j))))) = P' * t + Q') ->
  P' = 0 /\ Q' = 0.
Proof.
  intros Hpos Hs.
  destruct (tail_sum_bound N (fun j t => gamma j * ((alpha j * t + beta j)
                 * / (1 + exp (tanh_gelu_exponent kk cu (alpha j * t + beta j)))))) as [T [K HK]].
  { intros j Hj. apply tg_tanh_tail_bound, Hpos, Hj. }
  assert (HP : P' = 0).
  { apply bounded_by_inv_large. exists (Rmax T 1), (Rabs K + Rabs Q'). intros t Ht.
    assert (HtT : T <= t) by (eapply Rle_trans; [apply Rmax_l | exact Ht]).
    assert (Ht1 : 1 <= t) by (eapply Rle_trans; [apply Rmax_r | exact Ht]).
    pose proof (HK t HtT) as B. rewrite Hs in B.
    apply le_div_t; [lra|].
    assert (E : Rabs P' * t = Rabs (P' * t + Q' - Q')) by (replace (P' * t + Q' - Q') with (P' * t) by ring; rewrite Rabs_mult, (Rabs_right t) by lra;
          reflexivity).
    rewrite E. unfold Rminus. eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_Ropp.
    apply Rplus_le_compat_r. eapply Rle_trans; [exact B|].
    apply Rle_trans with (Rabs K / t); [unfold Rdiv; apply Rmult_le_compat_r;
      [left; apply Rinv_0_lt_compat; lra | apply RRle_abs]|].
    apply (Rmult_le_reg_r t); [lra|]. unfold Rdiv.
    replace (Rabs K * / t * t) with (Rabs K) by (field; lra). pose proof (Rabs_pos K). nra. }
  split; [exact HP|].
  apply bounded_by_inv_large. exists T, K. intros t Ht.
  pose proof (HK t Ht) as B. rewrite Hs, HP in B. replace (0 * t + Q') with Q' in B by ring. exact B.
Qed.

(** ** Step 2: the smallest pair dominates *)

Lemma tg_tanh_dominant_bound (c am bm : R) : 0 < am ->
  exists T K, forall t, T <= t ->
    Rabs (c * am - c * ((am * t + bm) / t *
      (1 - exp (- tanh_gelu_exponent kk cu (am * t + bm)) / (1 + exp (- tanh_gelu_exponent kk cu (am * t + bm))))))
    <= K / t.
Proof.
  intros Ha. destruct (tg_exponent_pos_growth am bm Ha) as [delta [T [Hd [HT HG]]]].
  destruct (term_over_t_bound am bm delta Hd) as [K1 HK1].
  exists T, (Rabs c * (Rabs bm + K1)). intros t Ht.
  set (G := tanh_gelu_exponent kk cu (am * t + bm)).
  set (E := exp (- G) / (1 + exp (- G))).
  assert (HE : 0 <= E <= exp (- (delta * t))).
  { pose proof (frac_le_exp G) as [H1 H2]. split; [exact H1|].
    eapply Rle_trans; [exact H2|]. apply exp_le_mono. pose proof (HG t Ht). unfold G. lra. }
  replace (c * am - c * ((am * t + bm) / t * (1 - E))) with (c * (- bm / t + (am * t + bm) / t * E))
    by (field; lra).
  rewrite Rabs_mult.
  replace (Rabs c * (Rabs bm + K1) / t) with (Rabs c * (Rabs bm / t + K1 / t)) by (field; lra).
  apply Rmult_le_compat_l; [apply Rabs_pos|].
  eapply Rle_trans; [apply Rabs_triang|]. apply Rplus_le_compat.
  - rewrite abs_div_pos, Rabs_Ropp by lra. right. reflexivity.
  - apply HK1; lra.
Qed.

Lemma tg_tanh_other_bound (c aj bj am bm : R) : 0 < am ->
  am < aj \/ (aj = am /\ bm < bj) ->
  exists T K, forall t, T <= t ->
    Rabs (c * ((aj * t + bj) / t *
      (exp (tanh_gelu_exponent kk cu (am * t + bm) + - tanh_gelu_exponent kk cu (aj * t + bj))
       - exp (tanh_gelu_exponent kk cu (am * t + bm) + - tanh_gelu_exponent kk cu (aj * t + bj)
              + - tanh_gelu_exponent kk cu (aj * t + bj))
         / (1 + exp (- tanh_gelu_exponent kk cu (aj * t + bj)))))) <= K / t.
Proof.
  intros Ha Hlex.
  assert (Haj : am <= aj) by (destruct Hlex as [H|[H _]]; lra).
  destruct (tg_exponent_gap 1 aj bj am bm) as [d1 [T1 [Hd1 [HT1 G1]]]].
  { destruct Hlex as [H|[H1 H2]].
    - left. apply tg_g3_gap_lt; lra.
    - right. destruct (tg_g2_gap_eq aj bj am bm Ha H1 H2) as [E3 P2]. split; [exact E3 | left; exact P2]. }
  destruct (tg_exponent_gap 2 aj bj am bm) as [d2 [T2 [Hd2 [HT2 G2]]]].
  { left. apply tg_g3_double_pos; lra. }
  destruct (term_over_t_bound aj bj d1 Hd1) as [K1 HK1].
  destruct (term_over_t_bound aj bj d2 Hd2) as [K2 HK2].
  exists (Rmax T1 T2), (Rabs c * (K1 + K2)). intros t Ht.
  assert (Ht1 : T1 <= t) by (eapply Rle_trans; [apply Rmax_l | exact Ht]).
  assert (Ht2 : T2 <= t) by (eapply Rle_trans; [apply Rmax_r | exact Ht]).
  set (Gm := tanh_gelu_exponent kk cu (am * t + bm)). set (Gj := tanh_gelu_exponent kk cu (aj * t + bj)).
  set (E1 := exp (Gm + - Gj)).
  set (E2 := exp (Gm + - Gj + - Gj) / (1 + exp (- Gj))).
  assert (HE1 : 0 <= E1 <= exp (- (d1 * t))).
  { split; [left; apply exp_pos|]. apply exp_le_mono. pose proof (G1 t Ht1). unfold Gm, Gj. lra. }
  assert (HE2 : 0 <= E2 <= exp (- (d2 * t))).
  { pose proof (exp_pos (- Gj)). pose proof (exp_pos (Gm + - Gj + - Gj)). split.
    - apply logistic_div_nonneg; lra.
    - apply Rle_trans with (exp (Gm + - Gj + - Gj)).
      + unfold E2, Rdiv. apply Rle_trans with (exp (Gm + - Gj + - Gj) * 1); [|lra].
        apply Rmult_le_compat_l; [lra|]. rewrite <- Rinv_1. apply Rinv_le_contravar; lra.
      + apply exp_le_mono. pose proof (G2 t Ht2). unfold Gm, Gj. lra. }
  rewrite Rabs_mult.
  replace (Rabs c * (K1 + K2) / t) with (Rabs c * (K1 / t + K2 / t)) by (field; lra).
  apply Rmult_le_compat_l; [apply Rabs_pos|].
  replace ((aj * t + bj) / t * (E1 - E2)) with ((aj * t + bj) / t * E1 + - ((aj * t + bj) / t * E2))
    by ring.
  eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_Ropp.
  apply Rplus_le_compat; [apply HK1 | apply HK2]; lra.
Qed.

(** ** One variable, positive dilations *)

Theorem tanh_gelu_even_affine_positive : forall N (gamma alpha beta : nat -> R) (p q : R),
  (forall j, (j < N)%nat -> 0 < alpha j) ->
  (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> ~ (alpha i = alpha j /\ beta i = beta j)) ->
  (forall t, sumn N (fun j => gamma j * even_part (tanh_gelu kk cu) (alpha j * t + beta j)) = p * t + q) ->
  forall j, (j < N)%nat -> gamma j = 0.
Proof.
  intros N gamma alpha beta p q Hpos Hd Hs j0 Hj0.
  set (G := fun j t => tanh_gelu_exponent kk cu (alpha j * t + beta j)).
  set (P' := sumn N (fun j => gamma j * alpha j) / 2 - p).
  set (Q' := sumn N (fun j => gamma j * beta j) / 2 - q).
  assert (Hh : forall t, sumn N (fun j => gamma j * ((alpha j * t + beta j)
                   * / (1 + exp (tanh_gelu_exponent kk cu (alpha j * t + beta j))))) = P' * t + Q').
  { intros t. pose proof (Hs t) as E.
    rewrite (sumn_ext N _ (fun j => gamma j * (alpha j * t + beta j) / 2
               - gamma j * ((alpha j * t + beta j)
                            * / (1 + exp (tanh_gelu_exponent kk cu (alpha j * t + beta j)))))) in E
      by (intros; rewrite (tanh_gelu_even_formula kk cu); unfold Rdiv; ring).
    rewrite sumn_minus in E.
    assert (L : sumn N (fun j => gamma j * (alpha j * t + beta j) / 2) =
                sumn N (fun j => gamma j * alpha j) / 2 * t + sumn N (fun j => gamma j * beta j) / 2).
    { rewrite (sumn_ext N _ (fun j => gamma j * alpha j * (t / 2) + gamma j * beta j * / 2))
        by (intros; field).
      rewrite sumn_plus, !sumn_scal_r. field. }
    unfold P', Q'. lra. }
  destruct (tg_tanh_affine_zero N gamma alpha beta P' Q' Hpos Hh) as [HP HQ].
  destruct (Req_dec (gamma j0) 0) as [E|Hg0]; [exact E|exfalso].
  (* the lexicographically smallest [(alpha, beta)] with a nonzero coefficient *)
  destruct (exists_min_index N alpha (fun i => gamma i <> 0)) as [m1 [Hm1 [Hgm1 Hmin1]]].
  { intros i. destruct (Req_dec (gamma i) 0); [right; tauto | left; assumption]. }
  { exists j0. split; assumption. }
  destruct (exists_min_index N beta (fun i => gamma i <> 0 /\ alpha i = alpha m1))
    as [m [Hm [[Hgm Ham] Hmin2]]].
  { intros i. destruct (Req_dec (gamma i) 0); destruct (Req_dec (alpha i) (alpha m1)); tauto. }
  { exists m1. split; [exact Hm1 | split; [exact Hgm1 | reflexivity]]. }
  assert (Hlex : forall j, (j < N)%nat -> j <> m -> gamma j <> 0 ->
                   alpha m < alpha j \/ (alpha j = alpha m /\ beta m < beta j)).
  { intros j Hj Hne Hgj. pose proof (Hmin1 j Hj Hgj) as H1.
    destruct (Rlt_dec (alpha m) (alpha j)) as [Hlt|Hge]; [left; exact Hlt|right].
    assert (Haj : alpha j = alpha m1) by (apply Rnot_lt_le in Hge; lra).
    split; [lra|]. pose proof (Hmin2 j Hj (conj Hgj Haj)) as H2.
    destruct (Req_dec (beta m) (beta j)) as [Eb|Eb]; [|lra].
    exfalso. apply (Hd m j Hm Hj (not_eq_sym Hne)). split; [lra | exact Eb]. }
  (* multiply the vanishing sum by [exp (G_m t) / t] *)
  set (h := fun j t => gamma j * ((alpha j * t + beta j) / t *
      (exp (G m t + - G j t) - exp (G m t + - G j t + - G j t) / (1 + exp (- G j t))))).
  assert (Hh0 : forall t, 0 < t -> sumn N (fun j => h j t) = 0).
  { intros t Ht. pose proof (Hh t) as E. rewrite HP, HQ in E.
    replace (0 * t + 0) with 0 in E by ring.
    rewrite <- (Rmult_0_r (exp (G m t) / t)), <- E, <- sumn_scal_l.
    apply sumn_ext. intros j _. unfold h, G. rewrite (logistic_split (tanh_gelu_exponent kk cu (alpha j * t + beta j))).
    rewrite !exp_plus. field. split; [|lra]. pose proof (exp_pos (- tanh_gelu_exponent kk cu (alpha j * t + beta j))). lra. }
  assert (Hgm0 : gamma m * alpha m = 0).
  { apply bounded_by_inv_large.
    destruct (tail_sum_bound N (fun j t => if Nat.eq_dec m j then gamma m * alpha m - h m t else - h j t))
      as [T [K HK]].
    { intros j Hj. destruct (Nat.eq_dec m j) as [<-|Hne].
      - destruct (tg_tanh_dominant_bound (gamma m) (alpha m) (beta m) (Hpos m Hm)) as [T [K HK]].
        exists (Rmax T 1), K. intros t Ht.
        assert (HtT : T <= t) by (eapply Rle_trans; [apply Rmax_l | exact Ht]).
        assert (Ht1 : 1 <= t) by (eapply Rle_trans; [apply Rmax_r | exact Ht]).
        unfold h, G. replace (tanh_gelu_exponent kk cu (alpha m * t + beta m) + - tanh_gelu_exponent kk cu (alpha m * t + beta m))
          with 0 by ring. rewrite exp_0, Rplus_0_l.
        exact (HK t HtT).
      - destruct (Req_dec (gamma j) 0) as [Z|NZ].
        + exists 0, 0. intros t _. unfold h. rewrite Z, Rmult_0_l, Ropp_0, Rabs_R0. unfold Rdiv. lra.
        + destruct (tg_tanh_other_bound (gamma j) (alpha j) (beta j) (alpha m) (beta m) (Hpos m Hm)
                      (Hlex j Hj (not_eq_sym Hne) NZ)) as [T [K HK]].
          exists T, K. intros t Ht. rewrite Rabs_Ropp. exact (HK t Ht). }
    exists (Rmax T 1), K. intros t Ht.
    assert (HtT : T <= t) by (eapply Rle_trans; [apply Rmax_l | exact Ht]).
    assert (Ht0 : 0 < t) by (pose proof (Rmax_r T 1); lra).
    assert (E : gamma m * alpha m =
                sumn N (fun j => if Nat.eq_dec m j then gamma m * alpha m - h m t else - h j t)).
    { rewrite (sumn_ext N _ (fun j => - h j t + (if Nat.eq_dec m j then gamma m * alpha m else 0))).
      - rewrite sumn_plus, sumn_opp, (Hh0 t Ht0), (sumn_delta N m (fun _ => gamma m * alpha m) Hm). ring.
      - intros j _. destruct (Nat.eq_dec m j) as [<-|]; ring. }
    rewrite E. exact (HK t HtT). }
  apply Rmult_integral in Hgm0. destruct Hgm0 as [Z|Z]; [exact (Hgm Z)|].
  pose proof (Hpos m Hm). lra.
Qed.

End Family.

(** ** One variable, any nonzero dilations (by evenness) *)

Theorem tanh_gelu_even_affine_independent : forall k cu, 0 < k -> 0 < cu ->
  affine_independent_1d (even_part (tanh_gelu k cu)).
Proof.
  intros k cu Hk Hc.
  exact (affine_independent_of_positive (tanh_gelu k cu) (tanh_gelu_odd_part k cu)
           (tanh_gelu_even_affine_positive k cu Hk Hc)).
Qed.

(** ** The member [cu = 0]: a rescaled SiLU

    [tanh_gelu k 0 z = z sigmoid (2 k z) = silu (2 k z) / (2 k)], so its
    even part is [(1/(2k)) even_part silu (2 k z)] and the one-variable
    statement follows from SiLU's ([QuickGeluAffineRidge.affine_independent_1d_rescale]). *)

Lemma tanh_gelu_0_even_silu k z : 0 < k ->
  even_part (tanh_gelu k 0) z = / (2 * k) * even_part silu (2 * k * z).
Proof.
  intros Hk. rewrite tanh_gelu_even_formula, silu_even_split. unfold tanh_gelu_exponent.
  replace (2 * (k * (z + 0 * (z * z * z)))) with (2 * k * z) by ring.
  pose proof (exp_pos (2 * k * z)). field. split; lra.
Qed.

Theorem tanh_gelu_0_even_affine_independent : forall k, 0 < k ->
  affine_independent_1d (even_part (tanh_gelu k 0)).
Proof.
  intros k Hk.
  apply (affine_independent_1d_ext (fun z => / (2 * k) * even_part silu (2 * k * z))).
  - intros z. symmetry. apply tanh_gelu_0_even_silu, Hk.
  - apply affine_independent_1d_rescale;
      [lra | apply Rinv_neq_0_compat; lra | exact silu_even_affine_independent].
Qed.

(** The whole family, [k > 0], [cu >= 0] (the hypotheses of [GeluFastRidge.v]). *)
Theorem tanh_gelu_family_even_affine_independent : forall k cu, 0 < k -> 0 <= cu ->
  affine_independent_1d (even_part (tanh_gelu k cu)).
Proof.
  intros k cu Hk Hc. destruct (Rle_lt_or_eq_dec 0 cu Hc) as [Hp|<-].
  - exact (tanh_gelu_even_affine_independent k cu Hk Hp).
  - exact (tanh_gelu_0_even_affine_independent k Hk).
Qed.

(** ** gelu_fast *)

Lemma gelu_fast_cubic_pos : 0 < gelu_fast_cubic.
Proof. unfold gelu_fast_cubic. lra. Qed.

Theorem gelu_fast_even_affine_independent : affine_independent_1d (even_part gelu_fast).
Proof.
  intros N gamma alpha beta p q Ha Hd Hs.
  apply (tanh_gelu_even_affine_independent gelu_fast_scale gelu_fast_cubic
           gelu_fast_scale_pos gelu_fast_cubic_pos N gamma alpha beta p q Ha Hd).
  intros t. rewrite <- (Hs t). apply sumn_ext. intros j _. unfold even_part.
  rewrite !gelu_fast_is_tanh_gelu. reflexivity.
Qed.

Lemma gelu_fast_even_part_affine_unique : affine_ridge_unique_even (even_part gelu_fast).
Proof. exact (affine_ridge_unique_of_1d _ gelu_fast_even_affine_independent). Qed.

(** ** R9 for gelu_fast, with biases *)

Theorem gelu_fast_bias_absorbable_iff_submatrix : forall d n A c B b0,
  generic_bias_signs d n A c B ->
  (absorbable_ungated_bias gelu_fast d n n identity A c B b0 <-> exists S, submatrix_cond d n S A B).
Proof.
  exact (bias_absorbable_iff_of_1d gelu_fast gelu_fast_odd_part gelu_fast_even_affine_independent).
Qed.

Theorem gelu_fast_bias_generic_not_absorbable_below : forall d n m A c B b0,
  generic_bias_signs d n A c B -> (m < n)%nat ->
  ~ absorbable_ungated_bias gelu_fast d n m identity A c B b0.
Proof.
  exact (bias_not_absorbable_below_of_1d gelu_fast gelu_fast_odd_part
           gelu_fast_even_affine_independent).
Qed.

Theorem gelu_fast_bias_block_decided : forall d n A c B b0,
  exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_bias_signs d k U s G /\
    same_fun d (residual d identity (ungated_bias gelu_fast d n A c B b0))
               (bias_ridge_form gelu_fast d k U s G L l0) /\
    forall m, absorbable_ungated_bias gelu_fast d n m identity A c B b0
              <-> width_condition d k m U G L.
Proof.
  exact (pm_bias_block_decided gelu_fast gelu_fast_odd_part gelu_fast_even_part_affine_unique).
Qed.

(** ** Non-vacuity *)

(** The family's hypotheses hold for gelu_fast's constants. *)
Example gelu_fast_affine_family_constants : 0 < gelu_fast_scale /\ 0 < gelu_fast_cubic.
Proof. exact (conj gelu_fast_scale_pos gelu_fast_cubic_pos). Qed.

(** The blocks of [GeluBias.v] ([a = 1], biases [0, 1]). *)
Example gelu_fast_bias_absorbable_side :
  generic_bias_signs 1 2 ex2_A ex2_c ex2_B_yes /\
  (exists S, submatrix_cond 1 2 S ex2_A ex2_B_yes) /\
  absorbable_ungated_bias gelu_fast 1 2 2 identity ex2_A ex2_c ex2_B_yes (fun _ => 5).
Proof.
  exact (proj1 (ex2_r9_sides gelu_fast gelu_fast_bias_absorbable_iff_submatrix
                  gelu_fast_bias_generic_not_absorbable_below)).
Qed.

Example gelu_fast_bias_not_absorbable_side :
  generic_bias_signs 1 2 ex2_A ex2_c ex2_B_no /\
  ~ (exists S, submatrix_cond 1 2 S ex2_A ex2_B_no) /\
  ~ absorbable_ungated_bias gelu_fast 1 2 2 identity ex2_A ex2_c ex2_B_no (fun _ => 5).
Proof.
  exact (proj1 (proj2 (ex2_r9_sides gelu_fast gelu_fast_bias_absorbable_iff_submatrix
                         gelu_fast_bias_generic_not_absorbable_below))).
Qed.

Example gelu_fast_bias_below_instance :
  generic_bias_signs 1 2 ex2_A ex2_c ex2_B_yes /\ (1 < 2)%nat /\
  ~ absorbable_ungated_bias gelu_fast 1 2 1 identity ex2_A ex2_c ex2_B_yes (fun _ => 5).
Proof.
  exact (proj2 (proj2 (ex2_r9_sides gelu_fast gelu_fast_bias_absorbable_iff_submatrix
                         gelu_fast_bias_generic_not_absorbable_below))).
Qed.

(** The non-generic block [x + gelu_fast(x + 1) + gelu_fast(x + 1)] of
    [PmBiasNecessity.v]: absorbable at width 2, not at width 1. *)
Example gelu_fast_bias_decided_width2 :
  absorbable_ungated_bias gelu_fast 1 2 2 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  apply (pm_bias_residual_form_iff gelu_fast gelu_fast_odd_part gelu_fast_even_part_affine_unique
           1 2 _ _ _ _ 1 _ _ _ _ _ pmn_generic (pmn_residual gelu_fast)).
  exact pmn_width2.
Qed.

Example gelu_fast_bias_decided_width1 :
  ~ absorbable_ungated_bias gelu_fast 1 2 1 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  rewrite (pm_bias_residual_form_iff gelu_fast gelu_fast_odd_part gelu_fast_even_part_affine_unique
             1 2 _ _ _ _ 1 _ _ _ _ _ pmn_generic (pmn_residual gelu_fast)).
  exact pmn_not_width1.
Qed.

(** Members of the family other than GELU_tanh and gelu_fast ([k = 1],
    [cu = 1] and [cu = 0]): the one-variable hypotheses with zero weights,
    and the conclusion for both. *)
Example tanh_gelu_1_1_even_affine_instance :
  let alpha := fun _ : nat => 1 in
  let beta := fun j : nat => INR j in
  (forall j, (j < 2)%nat -> alpha j <> 0) /\ pairs_pm_distinct 2 alpha beta /\
  (forall t, sumn 2 (fun j => 0 * even_part (tanh_gelu 1 1) (alpha j * t + beta j)) = 0 * t + 0) /\
  affine_independent_1d (even_part (tanh_gelu 1 1)) /\
  affine_independent_1d (even_part (tanh_gelu 1 0)).
Proof.
  split; [|split; [|split; [|split]]].
  - intros j _. lra.
  - intros i j Hi Hj Hne [[_ E]|[E _]]; [apply INR_eq in E; lia | lra].
  - intros t. simpl. ring.
  - apply tanh_gelu_family_even_affine_independent; lra.
  - apply tanh_gelu_family_even_affine_independent; lra.
Qed.
