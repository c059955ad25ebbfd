(** * Affine ridge uniqueness for GELU's even part (paper.md R9, GELU)

    [gelu_even z = gelu z - z/2 = z (Phi z - 1/2)] is even, with
    [gelu_even'' z = (2 - z^2) phi z] ([gelu_even_derive2]).

    Main results:
    - [gauss_poly_sum_unique]: if [sum_j g_j (2 - z_j^2) exp (- z_j^2 / 2) = 0]
      for every real [t], where [z_j = alpha_j t + beta_j], [alpha_j <> 0]
      and the pairs [(alpha_j, beta_j)] are pairwise not equal up to sign
      ([pairs_pm_distinct]), then every [g_j = 0].  Proof by asymptotics at
      [t -> +oo] with explicit [1/t] bounds: the exponents
      [- (alpha^2 t^2 + 2 alpha beta t + beta^2) / 2] have pairwise distinct
      [(alpha^2, alpha beta)]; the term with the lexicographically smallest
      one dominates after division by its exponential and by [- alpha^2 t^2].
    - [gelu_even_affine_independent] (one variable): if
      [sum_j gamma_j gelu_even (alpha_j t + beta_j) = p t + q] for every [t],
      with the same hypotheses, then every [gamma_j = 0] (differentiate twice).
    - [affine_ridge_unique_of_1d]: for any [e], the one-variable statement
      ([affine_independent_1d e]) implies the statement in [R^d]
      ([affine_ridge_unique_even e]): restrict to a line [t u] with [u]
      avoiding the hyperplanes [v_j^perp], [(v_i -+ v_j)^perp].
    - [gelu_affine_ridge_unique : affine_ridge_unique_even gelu_even]
      (headline, no hypotheses).
    - [not_affine_independent_abs]: the one-variable statement fails for
      ReLU's even part [|z|/2], so it is a real property of [e];
      [affine_1d_pairs01_holds]: its hypotheses hold on the pairs [(1, 0)],
      [(1, 1)] for every [e] (non-vacuity for every activation of R9). *)

From Coq Require Import Reals Lra Lia List.
From Coquelicot Require Import Coquelicot.
From Absorb Require Import Geometry FiniteMaps Calculus.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge GeluRidge.
From Absorb Require Import RidgeForm BiasSpec SiluRidge.
Open Scope R_scope.

(** ** The statements *)

(** The pairs [(alpha_j, beta_j)] are pairwise not equal up to sign. *)
Definition pairs_pm_distinct (N : nat) (alpha beta : nat -> R) : Prop :=
  forall i j, (i < N)%nat -> (j < N)%nat -> i <> j ->
    ~ ((alpha i = alpha j /\ beta i = beta j) \/ (alpha i = - alpha j /\ beta i = - beta j)).

(** One variable: shifted dilations of [e] are independent modulo affine functions. *)
Definition affine_independent_1d (e : R -> R) : Prop :=
  forall N (gamma alpha beta : nat -> R) (p q : R),
    (forall j, (j < N)%nat -> alpha j <> 0) -> pairs_pm_distinct N alpha beta ->
    (forall t, sumn N (fun j => gamma j * e (alpha j * t + beta j)) = p * t + q) ->
    forall j, (j < N)%nat -> gamma j = 0.

(** [R^d]: a sum of ridges [e (v_j . x + c_j)] equal to an affine function,
    with [v_j <> 0] and the [(v_j, c_j)] pairwise not equal up to sign,
    has zero coefficients. *)
Definition affine_ridge_unique_even (e : R -> R) : Prop :=
  forall d N (V : mat) (c : vec) (beta : nat -> R) (w : vec) (w0 : R),
    (forall j, (j < N)%nat -> nonzero_vec d (row V j)) ->
    (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j ->
       ~ pm_equal (S d) (aug_row d V c i) (aug_row d V c j)) ->
    (forall x, sumn N (fun j => beta j * e (dot d (row V j) x + c j)) = dot d w x + w0) ->
    forall j, (j < N)%nat -> beta j = 0.

(** ** Derivatives of [gelu_even] *)

Definition gelu_even_d1 (z : R) : R := Phi z - / 2 + z * gauss_density z.
Definition gelu_even_d2 (z : R) : R := (2 - z * z) * gauss_density z.

Lemma is_derive_eq (f : R -> R) x l l' : is_derive f x l -> l = l' -> is_derive f x l'.
Proof. intros H <-. exact H. Qed.

Lemma gauss_density_derive z : is_derive gauss_density z (- z * gauss_density z).
Proof.
  unfold gauss_density. pose proof sqrt_2PI_pos.
  auto_derive; [exact I|]. unfold Rdiv. field. lra.
Qed.

Lemma gelu_even_derive z : is_derive gelu_even z (gelu_even_d1 z).
Proof.
  unfold gelu_even, gelu_even_d1.
  eapply is_derive_eq.
  - apply (Derive.is_derive_mult (fun z => z) (fun z => Phi z - / 2)).
    + apply (is_derive_id (K := R_AbsRing)).
    + apply (is_derive_minus (K := R_AbsRing) (V := R_NormedModule) Phi (fun _ => / 2)).
      * apply Phi_derive.
      * apply (is_derive_const (K := R_AbsRing) (V := R_NormedModule)).
  - simpl. unfold one, minus, plus, opp, zero. simpl. ring.
Qed.

Lemma gelu_even_derive2 z : is_derive gelu_even_d1 z (gelu_even_d2 z).
Proof.
  unfold gelu_even_d1, gelu_even_d2.
  eapply is_derive_eq.
  - apply (is_derive_plus (K := R_AbsRing) (V := R_NormedModule)
             (fun z => Phi z - / 2) (fun z => z * gauss_density z)).
    + apply (is_derive_minus (K := R_AbsRing) (V := R_NormedModule) Phi (fun _ => / 2)).
      * apply Phi_derive.
      * apply (is_derive_const (K := R_AbsRing) (V := R_NormedModule)).
    + apply (Derive.is_derive_mult (fun z => z) gauss_density).
      * apply (is_derive_id (K := R_AbsRing)).
      * apply gauss_density_derive.
  - simpl. unfold one, minus, plus, opp, zero. simpl. ring.
Qed.

(** [t |-> f (a t + b)] has derivative [a f' (a t + b)]. *)
Lemma is_derive_affine_comp (f df : R -> R) a b t :
  (forall z, is_derive f z (df z)) ->
  is_derive (fun s => f (a * s + b)) t (a * df (a * t + b)).
Proof.
  intros Hf.
  apply (is_derive_comp (K := R_AbsRing) (V := R_NormedModule) f (fun s => a * s + b)).
  - apply Hf.
  - eapply is_derive_eq.
    + apply (is_derive_plus (K := R_AbsRing) (V := R_NormedModule) (fun s => a * s) (fun _ => b)).
      * apply (is_derive_scal (fun s => s) t a 1 (is_derive_id (K := R_AbsRing) t)).
      * apply (is_derive_const (K := R_AbsRing) (V := R_NormedModule)).
    + unfold plus, zero. simpl. ring.
Qed.

(** The derivative of a sum of shifted dilations. *)
Lemma is_derive_shift_sum N (gamma alpha beta : nat -> R) (f df : R -> R) t :
  (forall z, is_derive f z (df z)) ->
  is_derive (fun s => sumn N (fun j => gamma j * f (alpha j * s + beta j))) t
    (sumn N (fun j => gamma j * (alpha j * df (alpha j * t + beta j)))).
Proof.
  intros Hf. apply (is_derive_sumn N (fun j s => gamma j * f (alpha j * s + beta j))).
  intros j _. apply (is_derive_scal (fun s => f (alpha j * s + beta j))).
  apply is_derive_affine_comp. exact Hf.
Qed.

(** A function equal to [p t + q] everywhere has derivative [p]. *)
Lemma is_derive_affine_fun (f : R -> R) p q t l :
  (forall s, f s = p * s + q) -> is_derive f t l -> l = p.
Proof.
  intros Hf Hd.
  assert (H0 : is_derive f t p).
  { apply (is_derive_ext (K := R_AbsRing) (V := R_NormedModule) (fun s => p * s + q));
      [intros; rewrite Hf; reflexivity|].
    eapply is_derive_eq.
    - apply (is_derive_plus (K := R_AbsRing) (V := R_NormedModule) (fun s => p * s) (fun _ => q)).
      + apply (is_derive_scal (fun s => s) t p 1 (is_derive_id (K := R_AbsRing) t)).
      + apply (is_derive_const (K := R_AbsRing) (V := R_NormedModule)).
    - unfold plus, zero. simpl. ring. }
  apply is_derive_unique in Hd. apply is_derive_unique in H0. congruence.
Qed.

(** Differentiating [sum_j gamma_j gelu_even (alpha_j t + beta_j) = p t + q] twice. *)
Lemma gelu_even_shift_sum_d2 N (gamma alpha beta : nat -> R) p q :
  (forall t, sumn N (fun j => gamma j * gelu_even (alpha j * t + beta j)) = p * t + q) ->
  forall t,
    sumn N (fun j => gamma j * (alpha j * (alpha j * gelu_even_d2 (alpha j * t + beta j)))) = 0.
Proof.
  intros Hs t.
  assert (H1 : forall s, sumn N (fun j => gamma j * (alpha j * gelu_even_d1 (alpha j * s + beta j)))
                         = 0 * s + p).
  { intros s. rewrite Rmult_0_l, Rplus_0_l.
    exact (is_derive_affine_fun _ p q s _ Hs
             (is_derive_shift_sum N gamma alpha beta gelu_even gelu_even_d1 s gelu_even_derive)). }
  pose proof (is_derive_shift_sum N (fun j => gamma j * alpha j) alpha beta gelu_even_d1
                gelu_even_d2 t gelu_even_derive2) as Hd.
  assert (Hd' : is_derive
    (fun s => sumn N (fun j => gamma j * (alpha j * gelu_even_d1 (alpha j * s + beta j)))) t
    (sumn N (fun j => gamma j * (alpha j * (alpha j * gelu_even_d2 (alpha j * t + beta j)))))).
  { eapply is_derive_eq.
    - apply (is_derive_ext (K := R_AbsRing) (V := R_NormedModule)
               (fun s =>
                 sumn N (fun j => gamma j * alpha j * gelu_even_d1 (alpha j * s + beta j)))).
      + intros s. apply sumn_ext. intros j _. ring.
      + exact Hd.
    - apply sumn_ext. intros j _. ring. }
  exact (is_derive_affine_fun _ 0 p t _ H1 Hd').
Qed.

(** ** Explicit [1/t] bounds *)

(** A number bounded by [M / t] for all large [t] is [0]. *)
Lemma bounded_by_inv_large (K : R) :
  (exists T M, forall t, T <= t -> Rabs K <= M / t) -> K = 0.
Proof.
  intros [T [M H]]. destruct (Req_dec K 0) as [E|HK]; [exact E|exfalso].
  pose proof (Rabs_pos_lt K HK) as HKp.
  set (t := Rmax (Rmax T 1) (2 * Rabs M / Rabs K + 1)).
  assert (Ht1 : 1 <= t) by (unfold t; eapply Rle_trans; [apply Rmax_r|apply Rmax_l]).
  assert (HtT : T <= t) by (unfold t; eapply Rle_trans; [apply Rmax_l|apply Rmax_l]).
  assert (Ht2 : 2 * Rabs M / Rabs K + 1 <= t) by (unfold t; apply Rmax_r).
  specialize (H t HtT).
  assert (HM : M / t <= Rabs M / t).
  { unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra | apply RRle_abs]. }
  assert (Hlt : Rabs M / t < Rabs K / 2).
  { apply (Rmult_lt_reg_r t); [lra|]. unfold Rdiv.
    replace (Rabs M * / t * t) with (Rabs M) by (field; lra).
    assert (E : 2 * Rabs M / Rabs K * Rabs K = 2 * Rabs M) by (field; lra).
    pose proof (Rabs_pos M).
    assert (2 * Rabs M < Rabs K * t) by nra. lra. }
  lra.
Qed.

(** Bounds by [C / t] for large [t] add up over a finite sum. *)
Lemma tail_sum_bound N (g : nat -> R -> R) :
  (forall j, (j < N)%nat -> exists T C, forall t, T <= t -> Rabs (g j t) <= C / t) ->
  exists T C, forall t, T <= t -> Rabs (sumn N (fun j => g j t)) <= C / t.
Proof.
  induction N as [|N IH]; intros H.
  - exists 0, 0. intros t _. rewrite sumn_0, Rabs_R0. unfold Rdiv. rewrite Rmult_0_l. lra.
  - destruct IH as [T1 [C1 H1]]; [intros j Hj; apply H; lia|].
    destruct (H N ltac:(lia)) as [T2 [C2 H2]].
    exists (Rmax T1 T2), (C1 + C2). intros t Ht. rewrite sumn_S.
    eapply Rle_trans; [apply Rabs_triang|].
    replace ((C1 + C2) / t) with (C1 / t + C2 / t) by (unfold Rdiv; ring).
    apply Rplus_le_compat; [apply H1 | apply H2];
      eapply Rle_trans; [|exact Ht| |exact Ht]; [apply Rmax_l | apply Rmax_r].
Qed.

(** A quadratic with positive leading coefficient, or a linear function with
    positive slope, eventually exceeds [delta t]. *)
Lemma quad_growth a b c : 0 < a \/ (a = 0 /\ 0 < b) ->
  exists delta T, 0 < delta /\ 1 <= T /\
    forall t, T <= t -> delta * t <= a * t * t + b * t + c.
Proof.
  intros [Ha|[Ha Hb]].
  - exists 1, ((Rabs b + Rabs c + 1) / a + 1). split; [lra|]. split.
    + assert (0 <= (Rabs b + Rabs c + 1) / a)
        by (apply Rdiv_le_0_compat; [pose proof (Rabs_pos b); pose proof (Rabs_pos c); lra | lra]).
      lra.
    + intros t Ht.
      assert (Hat : Rabs b + Rabs c + 1 <= a * t).
      { assert (E : (Rabs b + Rabs c + 1) / a * a = Rabs b + Rabs c + 1) by (field; lra).
        nra. }
      pose proof (Rabs_pos c). pose proof (Rabs_pos b).
      assert (Ht1 : 1 <= t).
      { assert (0 <= (Rabs b + Rabs c + 1) / a) by (apply Rdiv_le_0_compat; lra). lra. }
      pose proof (Rle_abs b). pose proof (Rle_abs (- b)). rewrite Rabs_Ropp in *.
      pose proof (Rle_abs (- c)). rewrite Rabs_Ropp in *.
      nra.
  - subst a. exists (b / 2), (2 * Rabs c / b + 1). split; [lra|]. split.
    + assert (0 <= 2 * Rabs c / b)
        by (apply Rdiv_le_0_compat; [pose proof (Rabs_pos c); lra | lra]).
      lra.
    + intros t Ht. pose proof (Rle_abs (- c)). rewrite Rabs_Ropp in *.
      assert (E : 2 * Rabs c / b * b = 2 * Rabs c) by (field; lra).
      nra.
Qed.

Lemma exp_neg_le_inv y : 0 < y -> exp (- y) <= / y.
Proof.
  intros Hy. rewrite exp_Ropp. apply Rinv_le_contravar; [exact Hy|].
  pose proof (exp_ineq1_le y). lra.
Qed.

Lemma sq_affine_le a b t : 1 <= t ->
  (a * t + b) * (a * t + b) <= (Rabs a + Rabs b) * (Rabs a + Rabs b) * (t * t).
Proof.
  intros Ht.
  assert (Hu : Rabs (a * t + b) <= (Rabs a + Rabs b) * t).
  { eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_mult, (Rabs_right t) by lra.
    pose proof (Rabs_pos b). nra. }
  pose proof (Rabs_pos (a * t + b)).
  replace ((a * t + b) * (a * t + b)) with (Rabs (a * t + b) * Rabs (a * t + b))
    by (destruct (Rcase_abs (a * t + b)); [rewrite Rabs_left by lra | rewrite Rabs_right by lra];
        ring).
  nra.
Qed.

Lemma le_div_t x C t : 0 < t -> x * t <= C -> x <= C / t.
Proof.
  intros Ht H. apply (Rmult_le_reg_r t); [exact Ht|].
  replace (C / t * t) with C by (field; lra). exact H.
Qed.

(** ** The Gaussian sum *)

(** The exponent data: [P = alpha^2], [Q = alpha beta]. *)
Lemma pm_pairs_of_PQ ai bi aj bj : ai <> 0 -> aj <> 0 ->
  ai * ai = aj * aj -> ai * bi = aj * bj ->
  (ai = aj /\ bi = bj) \/ (ai = - aj /\ bi = - bj).
Proof.
  intros Hi Hj HP HQ.
  assert (Hc : ai = aj \/ ai = - aj).
  { assert ((ai - aj) * (ai + aj) = 0) by nra.
    apply Rmult_integral in H. destruct H; [left|right]; lra. }
  destruct Hc as [E|E]; [left|right]; split; try exact E; subst ai.
  - apply (Rmult_eq_reg_l aj); [lra | exact Hj].
  - apply (Rmult_eq_reg_l aj); [lra | exact Hj].
Qed.

(** The dominated terms: [|(2 - z_j^2) exp ((z_m^2 - z_j^2)/2) / (P_m t^2)| <= C / t]. *)
Lemma gauss_dominated_bound am bm aj bj :
  am <> 0 ->
  (am * am < aj * aj \/ (am * am = aj * aj /\ am * bm < aj * bj)) ->
  exists T C, forall t, T <= t ->
    Rabs ((2 - (aj * t + bj) * (aj * t + bj))
          * exp (((am * t + bm) * (am * t + bm) - (aj * t + bj) * (aj * t + bj)) / 2)
          / (am * am * (t * t))) <= C / t.
Proof.
  intros Ham Hlex.
  destruct (quad_growth (aj * aj - am * am) (2 * (aj * bj - am * bm)) (bj * bj - bm * bm))
    as [delta [T [Hd [HT Hq]]]].
  { destruct Hlex as [H|[H1 H2]]; [left; lra | right; split; lra]. }
  set (K := 2 + (Rabs aj + Rabs bj) * (Rabs aj + Rabs bj)).
  assert (HP : 0 < am * am) by (apply Rsqr_pos_lt in Ham; unfold Rsqr in Ham; exact Ham).
  exists T, (2 * K / (delta * (am * am))). intros t Ht.
  assert (Ht1 : 1 <= t) by lra.
  specialize (Hq t Ht).
  set (zj := aj * t + bj). set (zm := am * t + bm).
  assert (Hdiff : (zj * zj - zm * zm) =
    (aj * aj - am * am) * t * t + 2 * (aj * bj - am * bm) * t + (bj * bj - bm * bm))
    by (unfold zj, zm; ring).
  assert (Hy : 0 < (zj * zj - zm * zm) / 2) by nra.
  assert (Hexp : exp ((zm * zm - zj * zj) / 2) <= 2 / (delta * t)).
  { replace ((zm * zm - zj * zj) / 2) with (- ((zj * zj - zm * zm) / 2)) by field.
    eapply Rle_trans; [apply exp_neg_le_inv, Hy|].
    replace (2 / (delta * t)) with (/ ((delta * t) / 2)) by (field; lra).
    apply Rinv_le_contravar; nra. }
  assert (Hpoly : Rabs (2 - zj * zj) <= K * (t * t)).
  { pose proof (sq_affine_le aj bj t Ht1) as Hs. fold zj in Hs.
    unfold K. apply Rabs_le. split; nra. }
  pose proof (exp_pos ((zm * zm - zj * zj) / 2)) as Hep.
  set (E := exp ((zm * zm - zj * zj) / 2)) in *.
  assert (HPt : 0 < am * am * (t * t))
    by (apply Rmult_lt_0_compat; [exact HP | apply Rmult_lt_0_compat; lra]).
  replace ((2 - zj * zj) * E / (am * am * (t * t)))
    with ((2 - zj * zj) * E * / (am * am * (t * t))) by reflexivity.
  rewrite !Rabs_mult, (Rabs_right E) by lra.
  rewrite (Rabs_right (/ _)) by (apply Rle_ge, Rlt_le, Rinv_0_lt_compat; exact HPt).
  apply le_div_t; [lra|].
  assert (Hprod : Rabs (2 - zj * zj) * E <= K * (t * t) * (2 / (delta * t))).
  { apply Rmult_le_compat; [apply Rabs_pos | lra | exact Hpoly | exact Hexp]. }
  replace (K * (t * t) * (2 / (delta * t))) with (2 * K * t / delta) in Hprod by (field; lra).
  apply (Rmult_le_reg_r (am * am)); [exact HP|].
  replace (Rabs (2 - zj * zj) * E * / (am * am * (t * t)) * t * (am * am))
    with (Rabs (2 - zj * zj) * E / t) by (field; lra).
  replace (2 * K / (delta * (am * am)) * (am * am)) with (2 * K / delta) by (field; lra).
  apply (Rmult_le_reg_r t); [lra|].
  replace (Rabs (2 - zj * zj) * E / t * t) with (Rabs (2 - zj * zj) * E) by (field; lra).
  replace (2 * K / delta * t) with (2 * K * t / delta) by (field; lra).
  exact Hprod.
Qed.

(** The dominant term: [1 + (2 - z_m^2) / (P_m t^2) = O(1/t)]. *)
Lemma gauss_main_bound a b : a <> 0 ->
  exists T C, forall t, T <= t ->
    Rabs (1 + (2 - (a * t + b) * (a * t + b)) / (a * a * (t * t))) <= C / t.
Proof.
  intros Ha. assert (HP : 0 < a * a) by (apply Rsqr_pos_lt in Ha; exact Ha).
  exists 1, ((2 + b * b + 2 * Rabs (a * b)) / (a * a)). intros t Ht.
  replace (1 + (2 - (a * t + b) * (a * t + b)) / (a * a * (t * t)))
    with ((2 - 2 * (a * b) * t - b * b) / (a * a * (t * t))) by (field; lra).
  assert (HPt : 0 < a * a * (t * t)) by (apply Rmult_lt_0_compat; [exact HP | nra]).
  rewrite Rabs_div by lra. rewrite (Rabs_right (a * a * (t * t))) by lra.
  assert (Hn : Rabs (2 - 2 * (a * b) * t - b * b) <= (2 + b * b + 2 * Rabs (a * b)) * t).
  { pose proof (Rle_abs (a * b)). pose proof (Rle_abs (- (a * b))). rewrite Rabs_Ropp in *.
    apply Rabs_le. split; nra. }
  apply le_div_t; [lra|].
  apply (Rmult_le_reg_r (a * a)); [exact HP|].
  replace (Rabs (2 - 2 * (a * b) * t - b * b) / (a * a * (t * t)) * t * (a * a))
    with (Rabs (2 - 2 * (a * b) * t - b * b) / t) by (field; lra).
  replace ((2 + b * b + 2 * Rabs (a * b)) / (a * a) * (a * a))
    with (2 + b * b + 2 * Rabs (a * b)) by (field; lra).
  apply (Rmult_le_reg_r t); [lra|].
  replace (Rabs (2 - 2 * (a * b) * t - b * b) / t * t)
    with (Rabs (2 - 2 * (a * b) * t - b * b)) by (field; lra).
  exact Hn.
Qed.

Lemma scale_bound (g : R) (X : R -> R) :
  (exists T C, forall t, T <= t -> Rabs (X t) <= C / t) ->
  exists T C, forall t, T <= t -> Rabs (g * X t) <= C / t.
Proof.
  intros [T [C H]]. exists T, (Rabs g * C). intros t Ht. rewrite Rabs_mult.
  replace (Rabs g * C / t) with (Rabs g * (C / t)) by (unfold Rdiv; ring).
  apply Rmult_le_compat_l; [apply Rabs_pos | apply H, Ht].
Qed.

(** [(2 - z^2) exp (- z^2 / 2)] for [z = alpha t + beta]. *)
Definition gauss_poly (a b t : R) : R :=
  (2 - (a * t + b) * (a * t + b)) * exp (- ((a * t + b) * (a * t + b)) / 2).

Theorem gauss_poly_sum_unique : forall N (g alpha beta : nat -> R),
  (forall j, (j < N)%nat -> alpha j <> 0) -> pairs_pm_distinct N alpha beta ->
  (forall t, sumn N (fun j => g j * gauss_poly (alpha j) (beta j) t) = 0) ->
  forall j, (j < N)%nat -> g j = 0.
Proof.
  intros N g alpha beta Ha Hd Hs j Hj.
  destruct (Req_dec (g j) 0) as [E|Hgj]; [exact E|exfalso].
  set (P := fun i => alpha i * alpha i). set (Q := fun i => alpha i * beta i).
  destruct (exists_min_index N P (fun i => g i <> 0)) as [m1 [Hm1 [Hgm1 Hmin1]]].
  { intros i. destruct (Req_dec (g i) 0); [right; tauto | left; assumption]. }
  { exists j. split; assumption. }
  destruct (exists_min_index N Q (fun i => g i <> 0 /\ P i = P m1)) as [m [Hm [[Hgm HPm] Hmin2]]].
  { intros i. destruct (Req_dec (g i) 0); destruct (Req_dec (P i) (P m1)); tauto. }
  { exists m1. split; [exact Hm1 | split; [exact Hgm1 | reflexivity]]. }
  (* every other nonzero term is lexicographically larger *)
  assert (Hlex : forall i, (i < N)%nat -> i <> m -> g i <> 0 ->
    alpha m * alpha m < alpha i * alpha i \/
    (alpha m * alpha m = alpha i * alpha i /\ alpha m * beta m < alpha i * beta i)).
  { intros i Hi Hne Hgi. pose proof (Hmin1 i Hi Hgi) as H1. fold (P i).
    destruct (Rlt_dec (P m) (P i)) as [Hlt|Hge]; [left; exact Hlt|right].
    assert (HPe : P m = P i) by (apply Rnot_lt_le in Hge; lra). split; [exact HPe|].
    assert (HPi : P i = P m1) by lra.
    pose proof (Hmin2 i Hi (conj Hgi HPi)) as H2. fold (Q m) (Q i).
    destruct (Req_dec (Q m) (Q i)) as [HQ|HQ]; [|lra].
    exfalso. apply (Hd m i Hm Hi (not_eq_sym Hne)).
    apply pm_pairs_of_PQ; [apply Ha, Hm | apply Ha, Hi | exact HPe | exact HQ]. }
  apply Hgm. apply bounded_by_inv_large.
  set (F := fun i t => (2 - (alpha i * t + beta i) * (alpha i * t + beta i))
      * exp (((alpha m * t + beta m) * (alpha m * t + beta m)
              - (alpha i * t + beta i) * (alpha i * t + beta i)) / 2)
      / (alpha m * alpha m * (t * t))).
  assert (HP : 0 < alpha m * alpha m) by (apply Rsqr_pos_lt, Ha, Hm).
  assert (HF : forall t, 0 < t -> sumn N (fun i => g i * F i t) = 0).
  { intros t Ht.
    rewrite <- (Rmult_0_r (exp ((alpha m * t + beta m) * (alpha m * t + beta m) / 2)
                           / (alpha m * alpha m * (t * t)))), <- (Hs t), <- sumn_scal_l.
    apply sumn_ext. intros i _. unfold F, gauss_poly.
    replace (((alpha m * t + beta m) * (alpha m * t + beta m)
              - (alpha i * t + beta i) * (alpha i * t + beta i)) / 2)
      with ((alpha m * t + beta m) * (alpha m * t + beta m) / 2
            + - ((alpha i * t + beta i) * (alpha i * t + beta i)) / 2) by field.
    rewrite exp_plus. field. split; nra. }
  destruct (tail_sum_bound N (fun i t => if Nat.eq_dec m i then g m * (1 + F m t)
                                         else g i * F i t)) as [T [C HTC]].
  { intros i Hi. destruct (Nat.eq_dec m i) as [<-|Hne].
    - apply (scale_bound (g m) (fun t => 1 + F m t)).
      destruct (gauss_main_bound (alpha m) (beta m) (Ha m Hm)) as [T [C H]].
      exists (Rmax T 1), C. intros t Ht. unfold F.
      replace ((alpha m * t + beta m) * (alpha m * t + beta m)
               - (alpha m * t + beta m) * (alpha m * t + beta m)) with 0 by ring.
      replace (0 / 2) with 0 by field. rewrite exp_0, Rmult_1_r.
      apply H. eapply Rle_trans; [apply Rmax_l | exact Ht].
    - destruct (Req_dec (g i) 0) as [Z|NZ].
      + exists 0, 0. intros t _. rewrite Z, Rmult_0_l, Rabs_R0. unfold Rdiv. lra.
      + apply (scale_bound (g i) (F i)).
        exact (gauss_dominated_bound (alpha m) (beta m) (alpha i) (beta i) (Ha m Hm)
                 (Hlex i Hi (not_eq_sym Hne) NZ)). }
  exists (Rmax T 1), C. intros t Ht.
  assert (Ht0 : 0 < t) by (pose proof (Rmax_r T 1); lra).
  assert (E : g m = sumn N (fun i => if Nat.eq_dec m i then g m * (1 + F m t) else g i * F i t)).
  { rewrite (sumn_ext N _ (fun i => g i * F i t + (if Nat.eq_dec m i then g m else 0))).
    - rewrite sumn_plus, (HF t Ht0), (sumn_delta N m (fun _ => g m) Hm). ring.
    - intros i _. destruct (Nat.eq_dec m i) as [<-|]; ring. }
  rewrite E. apply HTC. eapply Rle_trans; [apply Rmax_l | exact Ht].
Qed.

(** ** One variable: GELU *)

Theorem gelu_even_affine_independent : affine_independent_1d gelu_even.
Proof.
  intros N gamma alpha beta p q Ha Hd Hs j Hj.
  pose proof (gelu_even_shift_sum_d2 N gamma alpha beta p q Hs) as H2.
  assert (Hg : gamma j * alpha j * alpha j = 0).
  { apply (gauss_poly_sum_unique N (fun j => gamma j * alpha j * alpha j) alpha beta Ha Hd);
      [|exact Hj].
    intros t. pose proof sqrt_2PI_pos as Hpi.
    rewrite <- (Rmult_0_r (sqrt (2 * PI))), <- (H2 t), <- sumn_scal_l.
    apply sumn_ext. intros i _. unfold gelu_even_d2, gauss_density, gauss_poly.
    field. lra. }
  pose proof (Ha j Hj) as Haj. apply Rmult_integral in Hg. destruct Hg as [Hg|Hg]; [|contradiction].
  apply Rmult_integral in Hg. destruct Hg as [Hg|Hg]; [exact Hg | contradiction].
Qed.

(** ** From one variable to [R^d] *)

Definition nz_dec (d : nat) (w : vec) : bool :=
  if forall_lt_sumbool (fun k => w k = 0) (fun k => Req_EM_T (w k) 0) d then false else true.

Lemma nz_dec_spec d w : nz_dec d w = true <-> nonzero_vec d w.
Proof.
  unfold nz_dec. destruct (forall_lt_sumbool _ _ d) as [Hz|Hz]; split; intros H.
  - discriminate.
  - exfalso. destruct H as [k [Hk Hw]]. exact (Hw (Hz k Hk)).
  - destruct (nonzero_vec_or_zero d w) as [Hn|Hn]; [exact Hn | contradiction].
  - reflexivity.
Qed.

(** Finitely many vectors: one [u] is non-orthogonal to all the nonzero ones. *)
Lemma avoid_nonzero d (l : list vec) :
  exists u, forall w, In w l -> nonzero_vec d w -> dot d w u <> 0.
Proof.
  destruct (avoid_hyperplanes d (filter (nz_dec d) l)) as [u Hu].
  - intros w Hw. apply filter_In in Hw. apply nz_dec_spec, Hw.
  - exists u. intros w Hw Hn. apply Hu, filter_In. split; [exact Hw | apply nz_dec_spec, Hn].
Qed.

(** [(a, c) = s (a', c')] with [s = +-1], coordinatewise, gives augmented
    rows equal up to sign. *)
Lemma aug_pm_of_split d (A1 : mat) (c1 : vec) i (A2 : mat) (c2 : vec) j s :
  (s = 1 \/ s = -1) -> (forall l, (l < d)%nat -> A1 i l = s * A2 j l) -> c1 i = s * c2 j ->
  pm_equal (S d) (aug_row d A1 c1 i) (aug_row d A2 c2 j).
Proof.
  intros Hs HA Hc. unfold aug_row.
  destruct Hs as [Es|Es]; subst s; [left|right]; intros l Hl;
    destruct (Nat.ltb l d) eqn:El;
    try (apply Nat.ltb_lt in El; rewrite (HA l El)); try rewrite Hc; ring.
Qed.

Theorem affine_ridge_unique_of_1d (e : R -> R) :
  affine_independent_1d e -> affine_ridge_unique_even e.
Proof.
  intros H1 d N V c beta w w0 Hnz Hsign Hs j Hj.
  destruct (avoid_nonzero d (sign_normals N V)) as [u Hu].
  apply (H1 N beta (fun j => dot d (row V j) u) c (dot d w u) w0); [| | | exact Hj].
  - intros i Hi. apply Hu; [apply sign_normals_row, Hi | apply Hnz, Hi].
  - intros i k Hi Hk Hne Hpm. destruct (sign_normals_pair N V i k Hi Hk Hne) as [Hm Hp].
    destruct Hpm as [[E1 E2]|[E1 E2]].
    + destruct (nonzero_vec_or_zero d (vlin 1 (row V i) (-1) (row V k))) as [Hn|Hz].
      * apply (Hu _ Hm Hn). rewrite dot_vlin_l. lra.
      * apply (Hsign i k Hi Hk Hne).
        apply (aug_pm_of_split d V c i V c k 1); [left; reflexivity| |lra].
        intros l Hl. specialize (Hz l Hl). unfold vlin, row in Hz. lra.
    + destruct (nonzero_vec_or_zero d (vlin 1 (row V i) 1 (row V k))) as [Hn|Hz].
      * apply (Hu _ Hp Hn). rewrite dot_vlin_l. lra.
      * apply (Hsign i k Hi Hk Hne).
        apply (aug_pm_of_split d V c i V c k (-1)); [right; reflexivity| |lra].
        intros l Hl. specialize (Hz l Hl). unfold vlin, row in Hz. lra.
  - intros t. rewrite (Rmult_comm (dot d w u)), <- dot_scal_r, <- (Hs (vscale t u)).
    apply sumn_ext. intros i _. rewrite dot_scal_r, (Rmult_comm t). reflexivity.
Qed.

(** ** Headline: GELU, in [R^d], no hypotheses *)

Theorem gelu_affine_ridge_unique : affine_ridge_unique_even gelu_even.
Proof. exact (affine_ridge_unique_of_1d gelu_even gelu_even_affine_independent). Qed.

(** ** Non-vacuity *)

(** One variable: the hypotheses hold for the pairs [(1, 0)] and [(1, 1)]
    (same dilation, different shifts), with zero weights and [p = q = 0], for
    every function [e] (GELU here; the other activations of R9 use it too). *)
Definition affine_1d_pairs01 (e : R -> R) : Prop :=
  let alpha := fun _ : nat => 1 in
  let beta := fun j : nat => INR j in
  (forall j, (j < 2)%nat -> alpha j <> 0) /\ pairs_pm_distinct 2 alpha beta /\
  (forall t, sumn 2 (fun j => 0 * e (alpha j * t + beta j)) = 0 * t + 0).

Lemma affine_1d_pairs01_holds (e : R -> R) : affine_1d_pairs01 e.
Proof.
  split; [|split].
  - intros j _. lra.
  - intros i j Hi Hj Hne [[_ E]|[E _]]; [apply INR_eq in E; lia | lra].
  - intros t. simpl. ring.
Qed.

Example gelu_even_affine_instance : affine_1d_pairs01 gelu_even.
Proof. exact (affine_1d_pairs01_holds gelu_even). Qed.

(** The sign hypothesis is needed: [(1, 1)] and [(-1, -1)] are equal up to
    sign, and [gelu_even (t + 1) - gelu_even (- t - 1) = 0] with nonzero
    coefficients. *)
Example gelu_even_affine_sign_needed :
  forall t, sumn 2 (fun j => (if Nat.eq_dec j 0 then 1 else -1)
                             * gelu_even ((if Nat.eq_dec j 0 then 1 else -1) * t
                                          + (if Nat.eq_dec j 0 then 1 else -1))) = 0 * t + 0.
Proof.
  intros t. simpl.
  replace (-1 * t + -1) with (- (1 * t + 1)) by ring. rewrite gelu_even_even. ring.
Qed.

(** [R^d]: the hypotheses of [affine_ridge_unique_even] hold for the rows
    [x |-> x] and [x |-> x + 1] of [R^1]. *)
Example gelu_affine_ridge_instance :
  let V : mat := fun _ _ => 1 in
  let c : vec := fun j => INR j in
  (forall j, (j < 2)%nat -> nonzero_vec 1 (row V j)) /\
  (forall i j, (i < 2)%nat -> (j < 2)%nat -> i <> j ->
     ~ pm_equal 2 (aug_row 1 V c i) (aug_row 1 V c j)) /\
  (forall x, sumn 2 (fun j => 0 * gelu_even (dot 1 (row V j) x + c j)) =
             dot 1 (fun _ => 0) x + 0).
Proof.
  split; [|split].
  - intros j _. exists 0%nat. split; [lia | unfold row; lra].
  - intros i j Hi Hj Hne [C|C]; specialize (C 1%nat ltac:(lia)); unfold aug_row in C; simpl in C.
    + apply INR_eq in C. lia.
    + pose proof (pos_INR i). pose proof (pos_INR j).
      assert (INR i = 0 /\ INR j = 0) as [Ei Ej] by lra.
      apply Hne. apply INR_eq. lra.
  - intros x. unfold dot. simpl. ring.
Qed.

(** The one-variable statement is not automatic: it fails for ReLU's even
    part [|z|/2], since [|2t|/2 - 2 |t|/2 = 0] for the pairs [(2, 0)], [(1, 0)]. *)
Lemma not_affine_independent_abs : ~ affine_independent_1d (fun z => Rabs z / 2).
Proof.
  intros H.
  assert (E : (1 : R) = 0).
  { apply (H 2%nat (fun j => if Nat.eq_dec j 0 then 1 else -2)
             (fun j => if Nat.eq_dec j 0 then 2 else 1) (fun _ => 0) 0 0) with (j := 0%nat);
      [| | | lia].
    - intros j _. destruct (Nat.eq_dec j 0); lra.
    - intros i j Hi Hj Hne [[C _]|[C _]];
        destruct (Nat.eq_dec i 0), (Nat.eq_dec j 0); subst; try lia; lra.
    - intros t. simpl. rewrite !Rplus_0_r, Rabs_mult, (Rabs_right 2) by lra.
      replace (1 * t) with t by ring. lra. }
  lra.
Qed.
