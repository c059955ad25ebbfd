(** * The tanh-GELU family: even part independent modulo affine functions

    [tanh_gelu k cu z = z (1 + tanh (k (z + cu z^3))) / 2]
    ([GeluFastRidge.v]; GELU_tanh is [tanh_gelu (sqrt (2/PI)) 0.044715],
    gelu_fast is [tanh_gelu 0.7978845608 0.044715]).  Its even part is
    [z/2 - z / (1 + exp (g z))] with the cubic exponent
    [g z = 2 k (z + cu z^3)].  Along [z = alpha t + beta] the exponent is a
    cubic in [t] whose leading coefficients
    [(2 k cu alpha^3, 6 k cu alpha^2 beta)] already separate the pairs
    [(alpha, beta)] (for [alpha > 0], [k > 0], [cu > 0]): no Vandermonde
    system is needed, the lexicographically smallest pair dominates.

    Main results:
    - [cubic_growth]: a cubic with lexicographically positive
      [(a3, a2, a1)] eventually exceeds [delta t];
    - [tanh_family_even_affine_positive]: for every [k > 0], [cu > 0], the
      one-variable statement when every [alpha_j > 0] (first the affine
      part vanishes, then [1/(1 + e^g) = e^{-g} - e^{-2g}/(1 + e^{-g})] and
      the term of the smallest [(alpha, beta)] dominates after
      multiplication by [e^{g}/t]).

    This is the only copy of the argument: [GeluTanhAffineRidge.v]
    (GELU_tanh) and [TanhGeluAffineRidge.v] (the family, gelu_fast)
    instantiate it. *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Geometry FiniteMaps Calculus.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix.
From Absorb Require Import SiluRidge Biases RidgeForm BiasSpec.
From Absorb Require Import GeluAffineRidge GeluBias ExpPolyAsymptotics SiluAffineRidge.
From Absorb Require Import MoreActivationDefs MoreActivations GeluFastRidge.
Open Scope R_scope.

(** ** Cubic growth *)

Lemma cubic_growth a3 a2 a1 a0 :
  0 < a3 \/ (a3 = 0 /\ (0 < a2 \/ (a2 = 0 /\ 0 < a1))) ->
  exists delta T, 0 < delta /\ 1 <= T /\
    forall t, T <= t -> delta * t <= a3 * (t * t * t) + a2 * (t * t) + a1 * t + a0.
Proof.
  intros [H3|[H3 H]].
  - set (B := Rabs a2 + Rabs a1 + Rabs a0 + 1).
    assert (HB : 1 <= B) by (unfold B; pose proof (Rabs_pos a2); pose proof (Rabs_pos a1);
                             pose proof (Rabs_pos a0); lra).
    exists 1, (B / a3 + 1). split; [lra|]. split.
    + assert (0 <= B / a3) by (apply logistic_div_nonneg; lra). lra.
    + intros t Ht.
      assert (Hpos : 0 <= B / a3) by (apply logistic_div_nonneg; lra).
      assert (Ht1 : 1 <= t) by lra.
      assert (Hat : B <= a3 * t).
      { assert (E : B / a3 * a3 = B) by (field; lra). nra. }
      assert (Htt : t <= t * t) by nra.
      assert (H3t : B * (t * t) <= a3 * (t * t * t)).
      { replace (a3 * (t * t * t)) with ((a3 * t) * (t * t)) by ring.
        apply Rmult_le_compat_r; nra. }
      pose proof (Rle_abs (- a2)). pose proof (Rle_abs (- a1)). pose proof (Rle_abs (- a0)).
      rewrite !Rabs_Ropp in *.
      assert (Hc2 : - Rabs a2 * (t * t) <= a2 * (t * t)) by nra.
      assert (Hc1 : - Rabs a1 * (t * t) <= a1 * t).
      { pose proof (Rabs_pos a1). nra. }
      assert (Hc0 : - Rabs a0 * (t * t) <= a0).
      { pose proof (Rabs_pos a0). nra. }
      unfold B in H3t. nra.
  - subst a3. destruct (quad_growth a2 a1 a0) as [delta [T [Hd [HT HQ]]]].
    { destruct H as [H|[H1 H2]]; [left; exact H | right; split; assumption]. }
    exists delta, T. split; [exact Hd|]. split; [exact HT|]. intros t Ht.
    pose proof (HQ t Ht). nra.
Qed.

(** ** Generic bounds *)

(** [|(x t + y) / t * exp (- (delta t))| <= K / t] for [t >= 1]. *)
Lemma term_over_t_bound x y delta : 0 < delta ->
  exists K, forall t, 1 <= t -> forall E, 0 <= E -> E <= exp (- (delta * t)) ->
    Rabs ((x * t + y) / t * E) <= K / t.
Proof.
  intros Hd. exists ((Rabs x + Rabs y) / delta). intros t Ht E HE0 HE.
  rewrite Rabs_mult, (Rabs_right E) by lra. rewrite abs_div_pos by lra.
  assert (Hxy : Rabs (x * t + y) <= (Rabs x + Rabs y) * t).
  { eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_mult, (Rabs_right t) by lra.
    pose proof (Rabs_pos y). pose proof (Rabs_pos x). nra. }
  pose proof (exp_neg_bound delta t Hd ltac:(lra)) as Hb.
  assert (Hq : Rabs (x * t + y) / t <= Rabs x + Rabs y).
  { apply (Rmult_le_reg_r t); [lra|]. replace (Rabs (x * t + y) / t * t) with (Rabs (x * t + y))
      by (field; lra). exact Hxy. }
  pose proof (Rabs_pos (x * t + y)).
  assert (0 <= Rabs (x * t + y) / t) by (apply logistic_div_nonneg; lra).
  apply Rle_trans with ((Rabs x + Rabs y) * (/ delta / t)).
  - apply Rmult_le_compat; lra.
  - right. field. lra.
Qed.

Lemma cube_lt a b : 0 < a -> a < b -> a * a * a < b * b * b.
Proof.
  intros Ha Hb. assert (H1 : a * a < b * b) by nra.
  assert (H2 : a * a * a < b * b * a) by (apply Rmult_lt_compat_r; lra).
  assert (H3 : b * b * a < b * b * b) by (apply Rmult_lt_compat_l; nra). lra.
Qed.

Lemma inv_one_plus_exp_le_exp g : / (1 + exp g) <= exp (- g).
Proof.
  rewrite exp_Ropp. pose proof (exp_pos g). apply Rinv_le_contravar; lra.
Qed.

Lemma logistic_split g : / (1 + exp g) = exp (- g) - exp (- g) * exp (- g) / (1 + exp (- g)).
Proof.
  rewrite exp_Ropp. pose proof (exp_pos g). field. split; [|lra]. pose proof (Rinv_0_lt_compat _ H).
  lra.
Qed.

Lemma frac_le_exp G : 0 <= exp (- G) / (1 + exp (- G)) <= exp (- G).
Proof.
  pose proof (exp_pos (- G)) as He. split.
  - apply logistic_div_nonneg; lra.
  - unfold Rdiv. apply Rle_trans with (exp (- G) * 1); [|lra]. apply Rmult_le_compat_l; [lra|].
    rewrite <- Rinv_1. apply Rinv_le_contravar; lra.
Qed.


Section Family.

Variables kk cu : R.
Context (Hkk : 0 < kk) (Hcu : 0 < cu).

(** ** The exponent along a line *)

Definition tg_g3 (a b : R) : R := 2 * kk * cu * (a * a * a).
Definition tg_g2 (a b : R) : R := 6 * kk * cu * (a * a * b).
Definition tg_g1 (a b : R) : R := 2 * kk * a + 6 * kk * cu * (a * b * b).
Definition tg_g0 (a b : R) : R := 2 * kk * b + 2 * kk * cu * (b * b * b).

Lemma tg_exponent_line a b t :
  tanh_gelu_exponent kk cu (a * t + b) = tg_g3 a b * (t * t * t) + tg_g2 a b * (t * t)
    + tg_g1 a b * t + tg_g0 a b.
Proof. unfold tanh_gelu_exponent, tg_g3, tg_g2, tg_g1, tg_g0. ring. Qed.

(** [c g_j - g_m] eventually exceeds [delta t] when the cubic part is
    lexicographically positive. *)
Lemma tg_exponent_gap (c : R) aj bj am bm :
  0 < c * tg_g3 aj bj - tg_g3 am bm \/
  (c * tg_g3 aj bj - tg_g3 am bm = 0 /\
   (0 < c * tg_g2 aj bj - tg_g2 am bm \/
    (c * tg_g2 aj bj - tg_g2 am bm = 0 /\ 0 < c * tg_g1 aj bj - tg_g1 am bm))) ->
  exists delta T, 0 < delta /\ 1 <= T /\ forall t, T <= t ->
    delta * t <=
      c * tanh_gelu_exponent kk cu (aj * t + bj) - tanh_gelu_exponent kk cu (am * t + bm).
Proof.
  intros H.
  destruct (cubic_growth (c * tg_g3 aj bj - tg_g3 am bm) (c * tg_g2 aj bj - tg_g2 am bm)
              (c * tg_g1 aj bj - tg_g1 am bm) (c * tg_g0 aj bj - tg_g0 am bm) H)
              as [delta [T [Hd [HT HG]]]].
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
  exists delta T, 0 < delta /\ 1 <= T /\ forall t, T <= t ->
    delta * t <= tanh_gelu_exponent kk cu (a * t + b).
Proof.
  intros Ha.
  destruct
    (cubic_growth (tg_g3 a b) (tg_g2 a b) (tg_g1 a b) (tg_g0 a b) (or_introl (tg_g3_pos a b Ha)))
    as [delta [T [Hd [HT H]]]].
  exists delta, T. split; [exact Hd|]. split; [exact HT|]. intros t Ht. rewrite tg_exponent_line.
  exact (H t Ht).
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
  pose proof (exp_mono (- gg) (- (delta * t)) ltac:(pose proof (H t Ht); unfold gg; lra)) as H2.
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
    assert (E : Rabs P' * t = Rabs (P' * t + Q' - Q'))
      by (replace (P' * t + Q' - Q') with (P' * t) by ring;
          rewrite Rabs_mult, (Rabs_right t) by lra; reflexivity).
    rewrite E. unfold Rminus. eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_Ropp.
    apply Rplus_le_compat_r. eapply Rle_trans; [exact B|].
    apply Rle_trans with (Rabs K / t); [unfold Rdiv; apply Rmult_le_compat_r;
      [left; apply Rinv_0_lt_compat; lra | apply RRle_abs]|].
    apply (Rmult_le_reg_r t); [lra|]. unfold Rdiv.
    replace (Rabs K * / t * t) with (Rabs K) by (field; lra). pose proof (Rabs_pos K). nra. }
  split; [exact HP|].
  apply bounded_by_inv_large. exists T, K. intros t Ht.
  pose proof (HK t Ht) as B. rewrite Hs, HP in B. replace (0 * t + Q') with Q' in B by ring.
  exact B.
Qed.

(** ** Step 2: the smallest pair dominates *)

Lemma tg_tanh_dominant_bound (c am bm : R) : 0 < am ->
  exists T K, forall t, T <= t ->
    Rabs (c * am - c * ((am * t + bm) / t *
      (1 - exp (- tanh_gelu_exponent kk cu (am * t + bm)) /
        (1 + exp (- tanh_gelu_exponent kk cu (am * t + bm))))))
    <= K / t.
Proof.
  intros Ha. destruct (tg_exponent_pos_growth am bm Ha) as [delta [T [Hd [HT HG]]]].
  destruct (term_over_t_bound am bm delta Hd) as [K1 HK1].
  exists T, (Rabs c * (Rabs bm + K1)). intros t Ht.
  set (G := tanh_gelu_exponent kk cu (am * t + bm)).
  set (E := exp (- G) / (1 + exp (- G))).
  assert (HE : 0 <= E <= exp (- (delta * t))).
  { pose proof (frac_le_exp G) as [H1 H2]. split; [exact H1|].
    eapply Rle_trans; [exact H2|]. apply exp_mono. pose proof (HG t Ht). unfold G. lra. }
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
    - right. destruct (tg_g2_gap_eq aj bj am bm Ha H1 H2) as [E3 P2].
      split; [exact E3 | left; exact P2]. }
  destruct (tg_exponent_gap 2 aj bj am bm) as [d2 [T2 [Hd2 [HT2 G2]]]].
  { left. apply tg_g3_double_pos; lra. }
  destruct (term_over_t_bound aj bj d1 Hd1) as [K1 HK1].
  destruct (term_over_t_bound aj bj d2 Hd2) as [K2 HK2].
  exists (Rmax T1 T2), (Rabs c * (K1 + K2)). intros t Ht.
  assert (Ht1 : T1 <= t) by (eapply Rle_trans; [apply Rmax_l | exact Ht]).
  assert (Ht2 : T2 <= t) by (eapply Rle_trans; [apply Rmax_r | exact Ht]).
  set (Gm := tanh_gelu_exponent kk cu (am * t + bm)).
  set (Gj := tanh_gelu_exponent kk cu (aj * t + bj)).
  set (E1 := exp (Gm + - Gj)).
  set (E2 := exp (Gm + - Gj + - Gj) / (1 + exp (- Gj))).
  assert (HE1 : 0 <= E1 <= exp (- (d1 * t))).
  { split; [left; apply exp_pos|]. apply exp_mono. pose proof (G1 t Ht1). unfold Gm, Gj. lra. }
  assert (HE2 : 0 <= E2 <= exp (- (d2 * t))).
  { pose proof (exp_pos (- Gj)). pose proof (exp_pos (Gm + - Gj + - Gj)). split.
    - apply logistic_div_nonneg; lra.
    - apply Rle_trans with (exp (Gm + - Gj + - Gj)).
      + unfold E2, Rdiv. apply Rle_trans with (exp (Gm + - Gj + - Gj) * 1); [|lra].
        apply Rmult_le_compat_l; [lra|]. rewrite <- Rinv_1. apply Rinv_le_contravar; lra.
      + apply exp_mono. pose proof (G2 t Ht2). unfold Gm, Gj. lra. }
  rewrite Rabs_mult.
  replace (Rabs c * (K1 + K2) / t) with (Rabs c * (K1 / t + K2 / t)) by (field; lra).
  apply Rmult_le_compat_l; [apply Rabs_pos|].
  replace ((aj * t + bj) / t * (E1 - E2)) with ((aj * t + bj) / t * E1 + - ((aj * t + bj) / t * E2))
    by ring.
  eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_Ropp.
  apply Rplus_le_compat; [apply HK1 | apply HK2]; lra.
Qed.

(** ** One variable, positive dilations *)

Theorem tanh_family_even_affine_positive : forall N (gamma alpha beta : nat -> R) (p q : R),
  (forall j, (j < N)%nat -> 0 < alpha j) ->
  (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> ~ (alpha i = alpha j /\ beta i = beta j)) ->
  (forall t, sumn N (fun j => gamma j * even_part (tanh_gelu kk cu) (alpha j * t + beta j)) =
    p * t + q) ->
  forall j, (j < N)%nat -> gamma j = 0.
Proof.
  intros N gamma alpha beta p q Hpos Hd Hs j0 Hj0.
  set (G := fun j t => tanh_gelu_exponent kk cu (alpha j * t + beta j)).
  set (P' := sumn N (fun j => gamma j * alpha j) / 2 - p).
  set (Q' := sumn N (fun j => gamma j * beta j) / 2 - q).
  assert (Hh : forall t, sumn N (fun j => gamma j * ((alpha j * t + beta j)
                   * / (1 + exp (tanh_gelu_exponent kk cu (alpha j * t + beta j))))) = P' * t + Q').
  { apply (half_minus_part_affine N gamma alpha beta (even_part (tanh_gelu kk cu))
             (fun z => / (1 + exp (tanh_gelu_exponent kk cu z))) p q); [|exact Hs].
    intros z. cbv beta. rewrite (tanh_gelu_even_formula kk cu). unfold Rdiv. ring. }
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
    apply sumn_ext. intros j _. unfold h, G.
    rewrite (logistic_split (tanh_gelu_exponent kk cu (alpha j * t + beta j))).
    rewrite !exp_plus. field. split; [|lra].
    pose proof (exp_pos (- tanh_gelu_exponent kk cu (alpha j * t + beta j))). lra. }
  assert (Hgm0 : gamma m * alpha m = 0).
  { apply bounded_by_inv_large.
    destruct
      (tail_sum_bound N (fun j t => if Nat.eq_dec m j then gamma m * alpha m - h m t else - h j t))
      as [T [K HK]].
    { intros j Hj. destruct (Nat.eq_dec m j) as [<-|Hne].
      - destruct (tg_tanh_dominant_bound (gamma m) (alpha m) (beta m) (Hpos m Hm)) as [T [K HK]].
        exists (Rmax T 1), K. intros t Ht.
        assert (HtT : T <= t) by (eapply Rle_trans; [apply Rmax_l | exact Ht]).
        assert (Ht1 : 1 <= t) by (eapply Rle_trans; [apply Rmax_r | exact Ht]).
        unfold h, G.
        replace
          (tanh_gelu_exponent kk cu (alpha m * t + beta m)
            + - tanh_gelu_exponent kk cu (alpha m * t + beta m))
          with 0 by ring. rewrite exp_0, Rplus_0_l.
        exact (HK t HtT).
      - destruct (Req_dec (gamma j) 0) as [Z|NZ].
        + exists 0, 0. intros t _. unfold h. rewrite Z, Rmult_0_l, Ropp_0, Rabs_R0. unfold Rdiv.
          lra.
        + destruct (tg_tanh_other_bound (gamma j) (alpha j) (beta j) (alpha m) (beta m) (Hpos m Hm)
                      (Hlex j Hj (not_eq_sym Hne) NZ)) as [T [K HK]].
          exists T, K. intros t Ht. rewrite Rabs_Ropp. exact (HK t Ht). }
    exists (Rmax T 1), K. intros t Ht.
    assert (HtT : T <= t) by (eapply Rle_trans; [apply Rmax_l | exact Ht]).
    assert (Ht0 : 0 < t) by (pose proof (Rmax_r T 1); lra).
    assert (E : gamma m * alpha m =
                sumn N (fun j => if Nat.eq_dec m j then gamma m * alpha m - h m t else - h j t)).
    { rewrite (sumn_ext N _ (fun j => - h j t + (if Nat.eq_dec m j then gamma m * alpha m else 0))).
      - rewrite sumn_plus, sumn_opp, (Hh0 t Ht0), (sumn_delta N m (fun _ => gamma m * alpha m) Hm).
        ring.
      - intros j _. destruct (Nat.eq_dec m j) as [<-|]; ring. }
    rewrite E. exact (HK t HtT). }
  apply Rmult_integral in Hgm0. destruct Hgm0 as [Z|Z]; [exact (Hgm Z)|].
  pose proof (Hpos m Hm). lra.
Qed.

End Family.
