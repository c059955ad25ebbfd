(** * Affine ridge uniqueness for SiLU's even part (paper.md R9, SiLU)

    [e z = silu z - z/2 = z/2 - z / (1 + exp z)] is even.

    Main results:
    - [logistic_expansion]: [1/(1 + e^z) = sum_{k<K} (-1)^k e^{-(k+1) z}
      + (-1)^K e^{-(K+1) z} / (1 + e^{-z})] (exact);
    - [rate_avoid]: for rates [alpha_j > a > 0] there is [M >= 1] with
      [(k+1) alpha_j <> (l M + 1) a] for all [k, l]: no term of another
      class ever has the rate [(l M + 1) a];
    - [half_minus_part_affine]: for [e z = z/2 - z h(z)], an affine
      [e]-combination makes the [z h(z)]-combination affine (also used by
      [TanhFamilyAffine.v]);
    - [silu_even_affine_positive]: the one-variable statement when every
      [alpha_j > 0]: with [a] the smallest rate carrying a nonzero
      coefficient, the groups of rate [(l M + 1) a] of the expansion
      ([ExpPolyAsymptotics.exp_poly_groups_zero]) give
      [sum_{alpha_j = a} gamma_j e^{-beta_j} (e^{-M beta_j})^l = 0] for
      [l < N], a Vandermonde system with distinct nodes;
    - [silu_even_affine_independent : affine_independent_1d (even_part silu)]
      (all [alpha_j <> 0], by evenness);
    - R9 for SiLU with biases: [silu_bias_absorbable_iff_submatrix],
      [silu_bias_generic_not_absorbable_below]. *)

From Coq Require Import Reals Lra Lia Arith List.
From Absorb Require Import Geometry FiniteMaps Calculus.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix Vandermonde.
From Absorb Require Import SiluRidge GeluRidge Biases RidgeForm BiasSpec GeluAffineRidge GeluBias.
From Absorb Require Import ExpPolyAsymptotics BiasR9Instances.
Open Scope R_scope.

(** ** The expansion of [1/(1 + e^z)] *)

Lemma logistic_geom (y : R) K : 0 < y ->
  y / (1 + y) = sumn K (fun k => (-1) ^ k * y ^ (S k)) + (-1) ^ K * y ^ (S K) / (1 + y).
Proof.
  intros Hy. induction K as [|K IH].
  - simpl. field. lra.
  - rewrite IH, sumn_S. simpl. field. lra.
Qed.

Lemma logistic_expansion z K :
  / (1 + exp z) = sumn K (fun k => (-1) ^ k * exp (- (INR (S k) * z)))
                  + (-1) ^ K * exp (- (INR (S K) * z)) / (1 + exp (- z)).
Proof.
  pose proof (exp_pos (- z)) as Hy.
  assert (E : / (1 + exp z) = exp (- z) / (1 + exp (- z))).
  { rewrite exp_Ropp. pose proof (exp_pos z). field. split; lra. }
  rewrite E, (logistic_geom (exp (- z)) K Hy).
  f_equal.
  - apply sumn_ext. intros k _. f_equal. rewrite <- exp_INR_mult. f_equal. ring.
  - rewrite <- exp_INR_mult. do 3 f_equal. ring.
Qed.

Lemma silu_even_split z : even_part silu z = z / 2 - z * / (1 + exp z).
Proof. rewrite silu_even_formula. field. pose proof (exp_pos z). lra. Qed.

(** For [e z = z/2 - z h(z)] (SiLU's even part here, the tanh family's in
    [TanhFamilyAffine.v]): if the [e]-combination is affine, so is the
    [z h(z)]-combination. *)
Lemma half_minus_part_affine N (gamma alpha beta : nat -> R) (e h : R -> R) p q :
  (forall z, e z = z / 2 - z * h z) ->
  (forall t, sumn N (fun j => gamma j * e (alpha j * t + beta j)) = p * t + q) ->
  forall t, sumn N (fun j => gamma j * ((alpha j * t + beta j) * h (alpha j * t + beta j))) =
    (sumn N (fun j => gamma j * alpha j) / 2 - p) * t
      + (sumn N (fun j => gamma j * beta j) / 2 - q).
Proof.
  intros He Hs t. pose proof (Hs t) as E.
  rewrite (sumn_ext N _ (fun j => gamma j * (alpha j * t + beta j) / 2
             - gamma j * ((alpha j * t + beta j) * h (alpha j * t + beta j)))) in E
    by (intros; rewrite He; unfold Rdiv; ring).
  rewrite sumn_minus in E.
  assert (L : sumn N (fun j => gamma j * (alpha j * t + beta j) / 2) =
              sumn N (fun j => gamma j * alpha j) / 2 * t + sumn N (fun j => gamma j * beta j) / 2).
  { rewrite (sumn_ext N _ (fun j => gamma j * alpha j * (t / 2) + gamma j * beta j * / 2))
      by (intros; field).
    rewrite sumn_plus, !sumn_scal_r. field. }
  lra.
Qed.

(** ** Flattening a double sum *)

Lemma sumn_flatten N K (F : nat -> nat -> R) : (K <> 0)%nat ->
  sumn (N * K) (fun i => F (i / K)%nat (i mod K)%nat) = sumn N (fun j => sumn K (fun k => F j k)).
Proof.
  intros HK. induction N as [|N IH]; [reflexivity|].
  rewrite Nat.mul_succ_l, sumn_add, IH, sumn_S. f_equal.
  apply sumn_ext. intros k Hk. f_equal.
  - rewrite Nat.div_add_l by exact HK. rewrite Nat.div_small by exact Hk. lia.
  - rewrite Nat.add_comm, Nat.mod_add by exact HK. apply Nat.mod_small, Hk.
Qed.

(** ** Avoiding the rates of the other classes *)

Lemma rate_witness_lt (al a : R) p q : 0 < a -> a < al ->
  INR (S p) * al = INR (S q) * a -> (S p < S q)%nat.
Proof.
  intros Ha Hal E. apply INR_lt.
  assert (0 < INR (S p)) by (apply lt_0_INR; lia). nra.
Qed.

Lemma rate_avoid N (alpha : nat -> R) (P : nat -> Prop) (a : R) : 0 < a ->
  (forall j, (j < N)%nat -> P j -> a < alpha j) ->
  exists M, (1 <= M)%nat /\
    forall j, (j < N)%nat -> P j -> forall k l : nat, INR (S k) * alpha j <> INR (S (l * M)) * a.
Proof.
  intros Ha. induction N as [|N IH]; intros Hgt.
  - exists 1%nat. split; [lia|]. intros; lia.
  - destruct IH as [M0 [HM0 H0]]; [intros j Hj; apply Hgt; lia|].
    destruct (Classical_Prop.classic (P N /\ exists p q : nat, INR (S p) * alpha N = INR (S q) * a))
      as [[PN [p [q Epq]]]|Hno].
    + pose proof (rate_witness_lt (alpha N) a p q Ha (Hgt N ltac:(lia) PN) Epq) as Hpq.
      exists (M0 * S q)%nat. split; [lia|]. intros j Hj Pj k l.
      destruct (Nat.eq_dec j N) as [->|Hne].
      * intros E.
        assert (Enat : (S k * S q = S (l * (M0 * S q)) * S p)%nat).
        { apply INR_eq. rewrite !mult_INR.
          apply (Rmult_eq_reg_r a); [|lra].
          assert (0 < INR (S p)) by (apply lt_0_INR; lia).
          apply (Rmult_eq_reg_r (INR (S p))); [|lra].
          replace (INR (S k) * INR (S q) * a * INR (S p))
            with (INR (S k) * (INR (S q) * a) * INR (S p)) by ring.
          rewrite <- Epq.
          replace (INR (S k) * (INR (S p) * alpha N) * INR (S p))
            with (INR (S k) * alpha N * INR (S p) * INR (S p)) by ring.
          rewrite E. ring. }
        assert (Hd : Nat.divide (S q) (S p)).
        { apply (Nat.divide_add_cancel_r (S q) (l * (M0 * S q) * S p) (S p)).
          - apply Nat.divide_mul_l. apply Nat.divide_mul_r. apply Nat.divide_mul_r.
            apply Nat.divide_refl.
          - replace (l * (M0 * S q) * S p + S p)%nat with (S (l * (M0 * S q)) * S p)%nat by lia.
            rewrite <- Enat. apply Nat.divide_mul_r. apply Nat.divide_refl. }
        apply Nat.divide_pos_le in Hd; lia.
      * replace (l * (M0 * S q))%nat with (l * S q * M0)%nat by lia.
        apply H0; [lia | exact Pj].
    + exists M0. split; [exact HM0|]. intros j Hj Pj k l.
      destruct (Nat.eq_dec j N) as [->|Hne].
      * intros E. apply Hno. split; [exact Pj|]. exists k, (l * M0)%nat. exact E.
      * apply H0; [lia | exact Pj].
Qed.

(** ** The expanded family *)

Section Family.

Variables (N K : nat) (gamma alpha beta : nat -> R) (P' Q' : R).

(** Index [i < N K] is the pair [(j, k) = (i / K, i mod K)]: the term
    [gamma_j (-1)^k (alpha_j t + beta_j) e^{-(k+1) (alpha_j t + beta_j)}];
    index [N K] is [- (P' t + Q')]. *)
Definition fam_c (i : nat) : R :=
  if lt_dec i (N * K) then
    gamma (i / K) * (-1) ^ (i mod K) * alpha (i / K) * exp (- (INR (S (i mod K)) * beta (i / K)))
  else - P'.

Definition fam_d (i : nat) : R :=
  if lt_dec i (N * K) then
    gamma (i / K) * (-1) ^ (i mod K) * beta (i / K) * exp (- (INR (S (i mod K)) * beta (i / K)))
  else - Q'.

Definition fam_lam (i : nat) : R :=
  if lt_dec i (N * K) then INR (S (i mod K)) * alpha (i / K) else 0.

(** The remainder of the expansion for row [j]. *)
Definition fam_rem (j : nat) (t : R) : R :=
  (alpha j * t + beta j) * ((-1) ^ K * exp (- (INR (S K) * (alpha j * t + beta j)))
                            / (1 + exp (- (alpha j * t + beta j)))).

Lemma fam_exp_poly_eq t : (K <> 0)%nat ->
  sumn N (fun j => gamma j * ((alpha j * t + beta j) * / (1 + exp (alpha j * t + beta j))))
    = P' * t + Q' ->
  exp_poly (S (N * K)) fam_c fam_d fam_lam t = - sumn N (fun j => gamma j * fam_rem j t).
Proof.
  intros HK Hs. unfold exp_poly. rewrite sumn_S.
  unfold fam_c at 2, fam_d at 2, fam_lam at 2.
  destruct (lt_dec (N * K) (N * K)) as [C|_]; [lia|].
  rewrite (sumn_ext (N * K) _ (fun i => (fun j k =>
      gamma j * (-1) ^ k * ((alpha j * t + beta j) * exp (- (INR (S k) * (alpha j * t + beta j)))))
      (i / K)%nat (i mod K)%nat)).
  - pose proof (sumn_flatten N K (fun j k =>
      gamma j * (-1) ^ k * ((alpha j * t + beta j) * exp (- (INR (S k) * (alpha j * t + beta j)))))
      HK) as F. cbv beta in F. rewrite F. clear F.
    replace (- (0 * t)) with 0 by ring. rewrite exp_0, Rmult_1_r.
    replace (- P' * t + - Q') with (- (P' * t + Q')) by ring. rewrite <- Hs.
    replace
      (sumn N (fun j => gamma j * ((alpha j * t + beta j) * / (1 + exp (alpha j * t + beta j)))))
      with (sumn N (fun j => sumn K (fun k => gamma j * (-1) ^ k * ((alpha j * t + beta j)
               * exp (- (INR (S k) * (alpha j * t + beta j))))) + gamma j * fam_rem j t)).
    + rewrite sumn_plus. ring.
    + apply sumn_ext. intros j _. rewrite (logistic_expansion (alpha j * t + beta j) K).
      unfold fam_rem. rewrite (sumn_ext K _ (fun k => (gamma j * (alpha j * t + beta j)) *
          ((-1) ^ k * exp (- (INR (S k) * (alpha j * t + beta j)))))) by (intros; ring).
      rewrite sumn_scal_l. ring.
  - intros i Hi. unfold fam_c, fam_d, fam_lam. destruct (lt_dec i (N * K)) as [_|C]; [|lia].
    cbv beta. set (j := (i / K)%nat). set (k := (i mod K)%nat).
    replace (- (INR (S k) * (alpha j * t + beta j)))
      with (- (INR (S k) * alpha j * t) + - (INR (S k) * beta j)) by ring.
    rewrite exp_plus. ring.
Qed.

Lemma exp_mono x y : x <= y -> exp x <= exp y.
Proof.
  intros H. destruct (Rle_lt_or_eq_dec x y H) as [Hl|E];
    [left; apply exp_increasing, Hl | rewrite E; right; reflexivity].
Qed.

Lemma fam_rem_bound j t a : 1 <= t -> a <= alpha j ->
  Rabs (fam_rem j t) <=
    (Rabs (alpha j) + Rabs (beta j)) * exp (- (INR (S K) * beta j)) * t
      * exp (- (INR (S K) * a * t)).
Proof.
  intros Ht Ha. unfold fam_rem.
  set (z := alpha j * t + beta j).
  pose proof (exp_pos (- z)) as Hez. pose proof (exp_pos (- (INR (S K) * z))) as Hek.
  assert (HSK : 0 < INR (S K)) by (apply lt_0_INR; lia).
  rewrite Rabs_mult. unfold Rdiv. rewrite !Rabs_mult, pow_1_abs, Rmult_1_l.
  rewrite (Rabs_right (exp _)) by lra.
  rewrite (Rabs_right (/ _)) by (apply Rle_ge, Rlt_le, Rinv_0_lt_compat; lra).
  assert (Hz : Rabs z <= (Rabs (alpha j) + Rabs (beta j)) * t).
  { unfold z. eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_mult, (Rabs_right t) by lra.
    pose proof (Rabs_pos (beta j)). pose proof (Rabs_pos (alpha j)). nra. }
  assert (Hinv : / (1 + exp (- z)) <= 1).
  { rewrite <- Rinv_1. apply Rinv_le_contravar; lra. }
  assert
    (Hexp : exp (- (INR (S K) * z)) <= exp (- (INR (S K) * beta j)) * exp (- (INR (S K) * a * t))).
  { rewrite <- exp_plus. apply exp_mono. unfold z.
    assert (H1 : 0 <= (alpha j - a) * t) by (apply Rmult_le_pos; lra).
    assert (H2 : 0 <= INR (S K) * ((alpha j - a) * t)) by (apply Rmult_le_pos; lra).
    lra. }
  pose proof (Rabs_pos z).
  apply Rle_trans with (Rabs z * exp (- (INR (S K) * z))).
  - apply Rmult_le_compat_l; [lra|].
    pose proof (Rinv_0_lt_compat (1 + exp (- z)) ltac:(lra)).
    rewrite <- (Rmult_1_r (exp (- (INR (S K) * z)))) at 2. apply Rmult_le_compat_l; lra.
  - apply Rle_trans with ((Rabs (alpha j) + Rabs (beta j)) * t *
                          (exp (- (INR (S K) * beta j)) * exp (- (INR (S K) * a * t)))).
    + apply Rmult_le_compat; lra.
    + right. ring.
Qed.

Lemma fam_small a : 0 < a -> (forall j, (j < N)%nat -> gamma j <> 0 -> a <= alpha j) ->
  exists T C, 0 < T /\ forall t, T <= t ->
    Rabs (- sumn N (fun j => gamma j * fam_rem j t)) <= C * t * exp (- (INR (S K) * a * t)).
Proof.
  intros Ha Hmin.
  exists 1, (sumn N (fun j => Rabs (gamma j) * ((Rabs (alpha j) + Rabs (beta j))
                                              * exp (- (INR (S K) * beta j))))).
  split; [lra|]. intros t Ht. rewrite Rabs_Ropp.
  eapply Rle_trans; [apply sumn_abs|].
  rewrite <- !sumn_scal_r. apply sumn_le. intros j Hj. rewrite Rabs_mult.
  destruct (Req_dec (gamma j) 0) as [Z|NZ].
  - rewrite Z, Rabs_R0, !Rmult_0_l. right. reflexivity.
  - pose proof (fam_rem_bound j t a Ht (Hmin j Hj NZ)) as B.
    pose proof (Rabs_pos (gamma j)).
    replace (Rabs (gamma j) * ((Rabs (alpha j) + Rabs (beta j)) * exp (- (INR (S K) * beta j)))
             * t * exp (- (INR (S K) * a * t)))
      with (Rabs (gamma j) * ((Rabs (alpha j) + Rabs (beta j)) * exp (- (INR (S K) * beta j))
             * t * exp (- (INR (S K) * a * t)))) by ring.
    apply Rmult_le_compat_l; lra.
Qed.

Lemma fam_index_lt m k : (m < N)%nat -> (k < K)%nat -> (m * K + k < N * K)%nat.
Proof. intros Hm Hk. nia. Qed.

Lemma fam_index_div m k : (k < K)%nat -> ((m * K + k) / K = m)%nat.
Proof.
  intros Hk. rewrite Nat.div_add_l by lia. rewrite Nat.div_small by exact Hk. lia.
Qed.

Lemma fam_index_mod m k : (k < K)%nat -> ((m * K + k) mod K = k)%nat.
Proof.
  intros Hk. rewrite Nat.add_comm, Nat.mod_add by lia. apply Nat.mod_small, Hk.
Qed.

Lemma fam_lam_at m k : (m < N)%nat -> (k < K)%nat ->
  fam_lam (m * K + k) = INR (S k) * alpha m.
Proof.
  intros Hm Hk. unfold fam_lam.
  destruct (lt_dec _ _) as [_|C]; [|exfalso; apply C, fam_index_lt; assumption].
  rewrite fam_index_div, fam_index_mod by exact Hk. reflexivity.
Qed.

(** The [t]-coefficients of rate [(l M + 1) a] come only from the rows with [alpha_j = a]. *)
Lemma fam_group_c (a : R) (M l m : nat) :
  0 < a -> (l * M < K)%nat -> (m < N)%nat -> alpha m = a ->
  (forall j, (j < N)%nat -> gamma j <> 0 -> alpha j <> a ->
     forall k l', INR (S k) * alpha j <> INR (S (l' * M)) * a) ->
  group_sum (S (N * K)) fam_lam fam_c (m * K + l * M) =
    (-1) ^ (l * M) * a *
    sumn N
      (fun j => if Req_EM_T (alpha j) a then gamma j * exp (- (INR (S (l * M)) * beta j)) else 0).
Proof.
  intros Ha HlM Hm Ham Havoid.
  assert (HK : (K <> 0)%nat) by lia.
  unfold group_sum, same_rate. rewrite sumn_S. rewrite (fam_lam_at m (l * M) Hm HlM), Ham.
  assert (Hmu : 0 < INR (S (l * M)) * a)
    by (apply Rmult_lt_0_compat; [apply lt_0_INR; lia | exact Ha]).
  assert (Hlast : fam_lam (N * K) = 0).
  { unfold fam_lam. destruct (lt_dec (N * K) (N * K)) as [C|_]; [lia | reflexivity]. }
  rewrite Hlast.
  destruct (Req_EM_T 0 (INR (S (l * M)) * a)) as [C|_]; [lra|]. rewrite Rmult_0_l, Rplus_0_r.
  rewrite (sumn_ext (N * K) _ (fun i => (fun j k =>
      (if Req_EM_T (INR (S k) * alpha j) (INR (S (l * M)) * a) then 1 else 0) *
      (gamma j * (-1) ^ k * alpha j * exp (- (INR (S k) * beta j)))) (i / K)%nat (i mod K)%nat)).
  2:{ intros i Hi. unfold fam_lam, fam_c. destruct (lt_dec i (N * K)) as [_|C]; [|lia].
      reflexivity. }
  pose proof (sumn_flatten N K (fun j k =>
      (if Req_EM_T (INR (S k) * alpha j) (INR (S (l * M)) * a) then 1 else 0) *
      (gamma j * (-1) ^ k * alpha j * exp (- (INR (S k) * beta j)))) HK) as F.
  cbv beta in F. rewrite F. clear F.
  rewrite <- sumn_scal_l. apply sumn_ext. intros j Hj.
  destruct (Req_dec (gamma j) 0) as [Z|NZ].
  - rewrite Z. rewrite sumn_zero by (intros; ring). destruct (Req_EM_T (alpha j) a); ring.
  - destruct (Req_EM_T (alpha j) a) as [Ea|Ea].
    + rewrite (sumn_ext K _ (fun k => if Nat.eq_dec (l * M) k then
          gamma j * (-1) ^ k * alpha j * exp (- (INR (S k) * beta j)) else 0)).
      * rewrite
          (sumn_delta K (l * M)
            (fun k => gamma j * (-1) ^ k * alpha j * exp (- (INR (S k) * beta j))) HlM).
        rewrite Ea. ring.
      * intros k Hk. rewrite Ea. destruct (Nat.eq_dec (l * M) k) as [<-|Hne].
        -- destruct (Req_EM_T _ _) as [_|C]; [ring | exfalso; apply C; reflexivity].
        -- destruct (Req_EM_T (INR (S k) * a) (INR (S (l * M)) * a)) as [E|_]; [|ring].
           exfalso. apply Hne. apply Rmult_eq_reg_r in E; [|lra]. apply INR_eq in E. lia.
    + rewrite Rmult_0_r. apply sumn_zero. intros k Hk.
      destruct (Req_EM_T (INR (S k) * alpha j) (INR (S (l * M)) * a)) as [E|_]; [|ring].
      exfalso. exact (Havoid j Hj NZ Ea k l E).
Qed.

End Family.

(** ** One variable, positive dilations *)

Theorem silu_even_affine_positive : forall N (gamma alpha beta : nat -> R) (p q : R),
  (forall j, (j < N)%nat -> 0 < alpha j) ->
  (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> ~ (alpha i = alpha j /\ beta i = beta j)) ->
  (forall t, sumn N (fun j => gamma j * even_part silu (alpha j * t + beta j)) = p * t + q) ->
  forall j, (j < N)%nat -> gamma j = 0.
Proof.
  intros N gamma alpha beta p q Hpos Hd Hs j0 Hj0.
  destruct (Req_dec (gamma j0) 0) as [E|Hg0]; [exact E|exfalso].
  destruct (exists_min_index N alpha (fun i => gamma i <> 0)) as [m [Hm [Hgm Hmin]]].
  { intros i. destruct (Req_dec (gamma i) 0); [right; tauto | left; assumption]. }
  { exists j0. split; assumption. }
  assert (Ha : 0 < alpha m) by (apply Hpos, Hm).
  destruct (rate_avoid N alpha (fun j => gamma j <> 0 /\ alpha j <> alpha m) (alpha m) Ha)
    as [M [HM Havoid]].
  { intros j Hj [Hgj Hne]. pose proof (Hmin j Hj Hgj). lra. }
  set (K := S (N * M)).
  set (P' := sumn N (fun j => gamma j * alpha j) / 2 - p).
  set (Q' := sumn N (fun j => gamma j * beta j) / 2 - q).
  (* the logistic part is affine *)
  assert (Hh : forall t, sumn N (fun j => gamma j * ((alpha j * t + beta j)
                   * / (1 + exp (alpha j * t + beta j)))) = P' * t + Q').
  { exact (half_minus_part_affine N gamma alpha beta _ (fun z => / (1 + exp z)) p q
             silu_even_split Hs). }
  assert (HK : (K <> 0)%nat) by (unfold K; lia).
  assert
    (Hsmall : exp_poly_small (S (N * K)) (fam_c N K gamma alpha beta P') (fam_d N K gamma beta Q')
                     (fam_lam N K alpha) (INR (S K) * alpha m)).
  { destruct (fam_small N K gamma alpha beta (alpha m) Ha) as [T [C [HT HC]]].
    { intros j Hj Hgj. apply Hmin; assumption. }
    exists T, C. split; [exact HT|]. intros t Ht.
    rewrite (fam_exp_poly_eq N K gamma alpha beta P' Q' t HK (Hh t)). exact (HC t Ht). }
  (* the rates [(l M + 1) a]: a Vandermonde system *)
  assert (Hgroup : forall l, (l < N)%nat ->
    sumn N (fun j => if Req_EM_T (alpha j) (alpha m)
                     then gamma j * exp (- (INR (S (l * M)) * beta j)) else 0) = 0).
  { intros l Hl.
    assert (HlM : (l * M < K)%nat) by (unfold K; nia).
    destruct
      (exp_poly_groups_zero (S (N * K)) (fam_c N K gamma alpha beta P') (fam_d N K gamma beta Q')
                (fam_lam N K alpha) (INR (S K) * alpha m) Hsmall (m * K + l * M)) as [G _].
    - pose proof (fam_index_lt N K m (l * M) Hm HlM). lia.
    - rewrite (fam_lam_at N K alpha m (l * M) Hm HlM).
      apply Rmult_lt_compat_r; [exact Ha|]. apply lt_INR. lia.
    - rewrite (fam_group_c N K gamma alpha beta P' (alpha m) M l m Ha HlM Hm eq_refl) in G.
      + apply Rmult_integral in G. destruct G as [G|G]; [|exact G].
        exfalso. apply Rmult_integral in G. destruct G as [G|G]; [|lra].
        exact (pow_nonzero (-1) (l * M) ltac:(lra) G).
      + intros j Hj Hgj Hne. exact (Havoid j Hj (conj Hgj Hne)). }
  set (w := fun j => if Req_EM_T (alpha j) (alpha m) then gamma j * exp (- beta j) else 0).
  set (x := fun j =>
         if Req_EM_T (alpha j) (alpha m) then exp (- (INR M * beta j)) else - (1 + INR j)).
  assert (Hw : w m = 0).
  { apply (vandermonde_zero N w x); [| |exact Hm].
    - intros i k Hi Hk Hne E. unfold x in E.
      assert (HMpos : 0 < INR M) by (apply lt_0_INR; lia).
      destruct (Req_EM_T (alpha i) (alpha m)) as [Ei|Ei], (Req_EM_T (alpha k) (alpha m)) as [Ek|Ek].
      + apply exp_inv in E. apply (Hd i k Hi Hk Hne). split; [lra|].
        apply (Rmult_eq_reg_l (INR M)); lra.
      + pose proof (exp_pos (- (INR M * beta i))). pose proof (pos_INR k). lra.
      + pose proof (exp_pos (- (INR M * beta k))). pose proof (pos_INR i). lra.
      + apply Hne, INR_eq. lra.
    - intros l Hl. rewrite <- (Hgroup l Hl). apply sumn_ext. intros j _. unfold w, x.
      destruct (Req_EM_T (alpha j) (alpha m)); [|ring].
      rewrite <- exp_INR_mult, Rmult_assoc, <- exp_plus. f_equal. f_equal.
      rewrite S_INR, mult_INR. ring. }
  unfold w in Hw. destruct (Req_EM_T (alpha m) (alpha m)) as [_|C]; [|apply C; reflexivity].
  apply Rmult_integral in Hw. destruct Hw as [Hw|Hw]; [exact (Hgm Hw)|].
  pose proof (exp_pos (- beta m)). lra.
Qed.

(** ** One variable, any nonzero dilations (by evenness) *)

Theorem silu_even_affine_independent : affine_independent_1d (even_part silu).
Proof. exact (affine_independent_of_positive silu silu_odd_part silu_even_affine_positive). Qed.

(** ** R9 for SiLU, with biases *)

Theorem silu_bias_absorbable_iff_submatrix : forall d n A c B b0,
  generic_bias_signs d n A c B ->
  (absorbable_ungated_bias silu d n n identity A c B b0 <-> exists S, submatrix_cond d n S A B).
Proof. exact (bias_absorbable_iff_of_1d silu silu_odd_part silu_even_affine_independent). Qed.

Theorem silu_bias_generic_not_absorbable_below : forall d n m A c B b0,
  generic_bias_signs d n A c B -> (m < n)%nat ->
  ~ absorbable_ungated_bias silu d n m identity A c B b0.
Proof. exact (bias_not_absorbable_below_of_1d silu silu_odd_part silu_even_affine_independent). Qed.

(** ** Non-vacuity: the blocks of [GeluBias.v] ([a = 1], biases [0, 1]) *)

Example silu_bias_absorbable_side : ex2_absorbable_side silu.
Proof. exact (ex2_absorbable_side_of_1d silu silu_odd_part silu_even_affine_independent). Qed.

Example silu_bias_not_absorbable_side : ex2_not_absorbable_side silu.
Proof. exact (ex2_not_absorbable_side_of_1d silu silu_odd_part silu_even_affine_independent). Qed.

Example silu_bias_below_instance : ex2_below_instance silu.
Proof. exact (ex2_below_instance_of_1d silu silu_odd_part silu_even_affine_independent). Qed.

(** One variable: the hypotheses of [silu_even_affine_independent] hold for
    the pairs [(1, 0)] and [(1, 1)] (same dilation, different shifts). *)
Example silu_even_affine_instance : affine_1d_pairs01 (even_part silu).
Proof. exact (affine_1d_pairs01_holds _). Qed.
