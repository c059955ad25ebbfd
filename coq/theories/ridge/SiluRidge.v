(** * Ridge uniqueness for SiLU's even part (R5 (=>) for SiLU, unconditionally)

    SiLU's even part is [even_part silu z = silu z - z/2 = z (1/2 - 1/(1 + e^z))].

    Main results:
    - [logistic_sum_unique]: if [sum_j w_j (1/2 - 1/(1 + exp (p_j t))) = 0]
      for every [t > 0], where [p_j t >= a_j t], the [a_j > 0] are
      distinct and [p_j - p_i] grows at least like [(a_j - a_i) t] when
      [a_i < a_j], then every [w_j = 0].  Proof by asymptotics at
      [t -> +oo], with explicit [1/t] bounds instead of limits: first
      [sum_j w_j = 0]; then, among the nonzero weights, the one with the
      smallest [a_m] dominates after multiplication by [1 + exp (p_m t)].
    - [logistic_dilations_unique]: dilations of any even part of the form
      [z (1/2 - 1/(1 + exp (q z)))] are independent when the exponents
      [q (|c_j| t)] satisfy the hypotheses above (used again by
      [GeluTanhRidge.v]);
    - [ridge_unique_of_dilations] ([GeluRidge.v]) reduces ridge sums to
      one variable.
    - [silu_even_dilations_unique], and the headline
      [silu_ridge_unique : ridge_unique_even (even_part silu)].
    - R5 for SiLU: the package [silu_R5] of
      [results/R5Package.v] and its uniform names
      [silu_absorbable_iff_submatrix], [silu_absorbable_generic_submatrix],
      [silu_generic_not_absorbable_below], [silu_absorbable_null];
      non-vacuity [silu_R5_instances]. *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry Ridge ReluSubmatrix.
From Absorb Require Import R5Package GeluRidge.
Open Scope R_scope.

(** ** Elementary bounds *)

Lemma logistic_div_nonneg (x y : R) : 0 <= x -> 0 < y -> 0 <= x / y.
Proof.
  intros Hx Hy. unfold Rdiv. apply Rmult_le_pos; [exact Hx | left; apply Rinv_0_lt_compat, Hy].
Qed.

(** A number bounded by [M / t] for every [t > 0] is [0]. *)
Lemma bounded_by_inv_t_zero (K M : R) : (forall t, 0 < t -> Rabs K <= M / t) -> K = 0.
Proof.
  intros H. destruct (Req_dec K 0) as [E|HK]; [exact E|exfalso].
  pose proof (Rabs_pos_lt K HK) as HKp.
  pose proof (H 1 Rlt_0_1) as H1. unfold Rdiv in H1; rewrite Rinv_1, Rmult_1_r in H1.
  assert (HM : 0 < M) by lra.
  specialize (H (2 * M / Rabs K) ltac:(apply Rdiv_lt_0_compat; lra)).
  replace (M / (2 * M / Rabs K)) with (Rabs K / 2) in H by (field; lra). lra.
Qed.

Lemma inv_one_plus_exp_le (x : R) : 0 < x -> / (1 + exp x) <= / x.
Proof.
  intros Hx. apply Rinv_le_contravar; [exact Hx|].
  pose proof (exp_ineq1_le x). lra.
Qed.

Lemma inv_one_plus_exp_pos (x : R) : 0 < / (1 + exp x).
Proof. apply Rinv_0_lt_compat. pose proof (exp_pos x). lra. Qed.

(** The ratio of two logistic tails whose exponents differ by at least [x > 0]. *)
Lemma logistic_ratio_le (pm pj x : R) : 0 <= pm -> 0 < x -> x <= pj - pm ->
  (1 + exp pm) / (1 + exp pj) <= 2 / x.
Proof.
  intros Hpm Hx Hd.
  pose proof (exp_pos pm) as Em. pose proof (exp_pos pj) as Ej.
  assert (Hm1 : 1 <= exp pm) by (pose proof (exp_ineq1_le pm); lra).
  assert (Hj : exp pm * (1 + x) <= exp pj).
  { replace pj with (pm + (pj - pm)) by ring. rewrite exp_plus.
    apply Rmult_le_compat_l; [lra|].
    apply Rle_trans with (1 + (pj - pm)); [lra | apply exp_ineq1_le]. }
  assert (Hk : (1 + exp pm) * x <= 2 * (1 + exp pj)).
  { apply Rle_trans with (2 * exp pm * x); [apply Rmult_le_compat_r; lra|].
    apply Rle_trans with (2 * (exp pm * (1 + x))); [nra | lra]. }
  unfold Rdiv. apply (Rmult_le_reg_r ((1 + exp pj) * x)); [apply Rmult_lt_0_compat; lra|].
  replace ((1 + exp pm) * / (1 + exp pj) * ((1 + exp pj) * x)) with ((1 + exp pm) * x)
    by (field; lra).
  replace (2 * / x * ((1 + exp pj) * x)) with (2 * (1 + exp pj)) by (field; lra).
  exact Hk.
Qed.

(** ** Finite minimum over a decidable set of indices *)

Lemma exists_min_index N (a : nat -> R) (Q : nat -> Prop) : (forall j, Q j \/ ~ Q j) ->
  (exists j, (j < N)%nat /\ Q j) ->
  exists m, (m < N)%nat /\ Q m /\ forall j, (j < N)%nat -> Q j -> a m <= a j.
Proof.
  intros HQ. induction N as [|N IH]; intros [j [Hj Qj]]; [lia|].
  destruct (exists_lt_or Q HQ N) as [Hex|Hnone].
  - destruct (IH Hex) as [m [Hm [Qm Hmin]]].
    destruct (HQ N) as [QN|QN].
    + destruct (Rle_dec (a m) (a N)) as [Hle|Hlt].
      * exists m. split; [lia|]. split; [exact Qm|]. intros i Hi Qi.
        destruct (Nat.eq_dec i N) as [->|]; [exact Hle | apply Hmin; [lia | exact Qi]].
      * exists N. split; [lia|]. split; [exact QN|]. intros i Hi Qi.
        destruct (Nat.eq_dec i N) as [->|]; [lra|].
        pose proof (Hmin i ltac:(lia) Qi). lra.
    + exists m. split; [lia|]. split; [exact Qm|]. intros i Hi Qi.
      destruct (Nat.eq_dec i N) as [->|]; [contradiction | apply Hmin; [lia | exact Qi]].
  - exists N. split; [lia|].
    assert (QN : Q N).
    { destruct (Nat.eq_dec j N) as [->|]; [exact Qj|]. exfalso. exact (Hnone j ltac:(lia) Qj). }
    split; [exact QN|]. intros i Hi Qi.
    destruct (Nat.eq_dec i N) as [->|]; [lra|]. exfalso. exact (Hnone i ltac:(lia) Qi).
Qed.

(** ** Sums of logistic tails [w_j / (1 + exp (p_j t))] *)

(** The hypotheses on the exponents, stated as a predicate so that the
    lemmas below can share them. *)
Definition logistic_exponents (N : nat) (a : nat -> R) (p : nat -> R -> R) : Prop :=
  (forall j, (j < N)%nat -> 0 < a j) /\
  (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> a i <> a j) /\
  (forall j t, (j < N)%nat -> 0 < t -> a j * t <= p j t) /\
  (forall i j t, (i < N)%nat -> (j < N)%nat -> a i < a j -> 0 < t ->
     (a j - a i) * t <= p j t - p i t).

(** Step 1 ([t -> +oo]): the constant term vanishes. *)
Lemma logistic_sum_const N a p (w : nat -> R) : logistic_exponents N a p ->
  (forall t, 0 < t -> sumn N (fun j => w j * (/ 2 - / (1 + exp (p j t)))) = 0) ->
  sumn N w = 0.
Proof.
  intros [Ha [_ [Hp _]]] Hs.
  apply (bounded_by_inv_t_zero _ (2 * sumn N (fun j => Rabs (w j) / a j))).
  intros t Ht.
  assert (E : sumn N w = 2 * sumn N (fun j => w j * / (1 + exp (p j t)))).
  { rewrite (sumn_ext N w (fun j => 2 * (w j * (/ 2 - / (1 + exp (p j t)))) +
                                     2 * (w j * / (1 + exp (p j t)))))
      by (intros j _; field; pose proof (exp_pos (p j t)); lra).
    rewrite sumn_plus, !sumn_scal_l, (Hs t Ht). ring. }
  rewrite E, Rabs_mult, (Rabs_right 2) by lra.
  replace (2 * sumn N (fun j => Rabs (w j) / a j) / t)
    with (2 * sumn N (fun j => Rabs (w j) / a j / t)) by (unfold Rdiv; rewrite sumn_scal_r; ring).
  apply Rmult_le_compat_l; [lra|].
  eapply Rle_trans; [apply sumn_abs|]. apply sumn_le. intros j Hj.
  pose proof (Ha j Hj) as Haj. pose proof (Hp j t Hj Ht) as Hpj.
  rewrite Rabs_mult, (Rabs_right (/ _)) by (apply Rle_ge, Rlt_le, inv_one_plus_exp_pos).
  replace (Rabs (w j) / a j / t) with (Rabs (w j) * / (a j * t)) by (field; lra).
  apply Rmult_le_compat_l; [apply Rabs_pos|].
  eapply Rle_trans; [apply inv_one_plus_exp_le; nra|].
  apply Rinv_le_contravar; nra.
Qed.

(** Step 2: the weight of the slowest tail vanishes once every slower
    one has weight [0]. *)
Lemma logistic_sum_dominant N a p (w : nat -> R) m : logistic_exponents N a p ->
  (m < N)%nat -> (forall j, (j < N)%nat -> a j < a m -> w j = 0) ->
  (forall t, 0 < t -> sumn N (fun j => w j * / (1 + exp (p j t))) = 0) ->
  w m = 0.
Proof.
  intros [Ha [Hd [Hp Hgap]]] Hm Hslow Hs.
  set (b := fun j => if Rlt_dec (a m) (a j) then 2 * Rabs (w j) / (a j - a m) else 0).
  assert (Hb : forall j, 0 <= b j).
  { intros j. unfold b. destruct (Rlt_dec (a m) (a j)); [|lra].
    apply logistic_div_nonneg; [pose proof (Rabs_pos (w j)); lra | lra]. }
  apply (bounded_by_inv_t_zero _ (sumn N b)). intros t Ht.
  set (r := fun j => w j * ((1 + exp (p m t)) / (1 + exp (p j t)))).
  assert (Hr : sumn N r = 0).
  { rewrite <- (Rmult_0_r (1 + exp (p m t))), <- (Hs t Ht), <- sumn_scal_l.
    apply sumn_ext. intros j _. unfold r, Rdiv. ring. }
  assert (Hsplit : sumn N r =
    sumn N (fun j => if Nat.eq_dec m j then r j else 0) +
    sumn N (fun j => if Nat.eq_dec m j then 0 else r j)).
  { rewrite <- sumn_plus. apply sumn_ext. intros j _. destruct (Nat.eq_dec m j); ring. }
  rewrite (sumn_delta N m r Hm) in Hsplit.
  assert (Hrm : r m = w m).
  { unfold r. field. pose proof (exp_pos (p m t)). lra. }
  rewrite Hrm, Hr in Hsplit.
  replace (w m) with (- sumn N (fun j => if Nat.eq_dec m j then 0 else r j)) by lra.
  rewrite Rabs_Ropp.
  replace (sumn N b / t) with (sumn N (fun j => b j / t)) by (unfold Rdiv; apply sumn_scal_r).
  eapply Rle_trans; [apply sumn_abs|]. apply sumn_le. intros j Hj.
  destruct (Nat.eq_dec m j) as [<-|Hne].
  - rewrite Rabs_R0. apply logistic_div_nonneg; [apply Hb | exact Ht].
  - destruct (Rlt_dec (a j) (a m)) as [Hjm|Hjm].
    + unfold r. rewrite (Hslow j Hj Hjm), Rmult_0_l, Rabs_R0.
      apply logistic_div_nonneg; [apply Hb | exact Ht].
    + assert (Hmj : a m < a j).
      { pose proof (Hd m j Hm Hj Hne). lra. }
      unfold b. destruct (Rlt_dec (a m) (a j)) as [_|C]; [|contradiction].
      pose proof (Ha m Hm). pose proof (Hp m t Hm Ht). pose proof (Hgap m j t Hm Hj Hmj Ht).
      unfold r. rewrite Rabs_mult, (Rabs_right (_ / _)).
      2: { apply Rle_ge, Rlt_le, Rdiv_lt_0_compat; pose proof (exp_pos (p m t));
           pose proof (exp_pos (p j t)); lra. }
      replace (2 * Rabs (w j) / (a j - a m) / t) with (Rabs (w j) * (2 / ((a j - a m) * t)))
        by (field; lra).
      apply Rmult_le_compat_l; [apply Rabs_pos|].
      apply logistic_ratio_le; [nra | nra | lra].
Qed.

(** Vanishing sums of logistic tails with distinct rates have zero weights. *)
Lemma logistic_tails_unique N a p (w : nat -> R) : logistic_exponents N a p ->
  (forall t, 0 < t -> sumn N (fun j => w j * / (1 + exp (p j t))) = 0) ->
  forall j, (j < N)%nat -> w j = 0.
Proof.
  intros He Hs j Hj. destruct (Req_dec (w j) 0) as [E|Hwj]; [exact E|exfalso].
  destruct (exists_min_index N a (fun i => w i <> 0)) as [m [Hm [Hwm Hmin]]].
  - intros i. destruct (Req_dec (w i) 0); [right; tauto | left; assumption].
  - exists j. split; assumption.
  - apply Hwm. apply (logistic_sum_dominant N a p w m He Hm); [|exact Hs].
    intros i Hi Hlt. destruct (Req_dec (w i) 0) as [E|E]; [exact E|].
    pose proof (Hmin i Hi E). lra.
Qed.

(** Headline of the one-variable analysis. *)
Theorem logistic_sum_unique : forall N (a w : nat -> R) (p : nat -> R -> R),
  (forall j, (j < N)%nat -> 0 < a j) ->
  (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> a i <> a j) ->
  (forall j t, (j < N)%nat -> 0 < t -> a j * t <= p j t) ->
  (forall i j t, (i < N)%nat -> (j < N)%nat -> a i < a j -> 0 < t ->
     (a j - a i) * t <= p j t - p i t) ->
  (forall t, 0 < t -> sumn N (fun j => w j * (/ 2 - / (1 + exp (p j t)))) = 0) ->
  forall j, (j < N)%nat -> w j = 0.
Proof.
  intros N a w p Ha Hd Hp Hgap Hs.
  assert (He : logistic_exponents N a p) by (repeat split; assumption).
  pose proof (logistic_sum_const N a p w He Hs) as H0.
  apply (logistic_tails_unique N a p w He). intros t Ht.
  apply (Rmult_eq_reg_l (-1)); [|lra]. rewrite Rmult_0_r, <- (Hs t Ht), <- sumn_scal_l.
  rewrite <- (Rplus_0_l (sumn N _)), <- (Rmult_0_r (/ 2)), <- H0, <- sumn_scal_l, <- sumn_plus.
  apply sumn_ext. intros i _. ring.
Qed.

Lemma silu_even_formula z : even_part silu z = z * (/ 2 - / (1 + exp z)).
Proof.
  unfold even_part, silu. rewrite exp_Ropp.
  pose proof (exp_pos z). field. split; lra.
Qed.

Lemma silu_even_abs c t : even_part silu (c * t) = even_part silu (Rabs c * t).
Proof. exact (even_part_abs silu silu_odd_part c t). Qed.

(** ** Dilations of an even part of logistic form

    If [e z = z (1/2 - 1/(1 + exp (q z)))] and [e (c t) = e (|c| t)], a
    vanishing sum [sum_j beta_j e (c_j t)] ([c_j <> 0]) is, after division
    by [t > 0], a vanishing logistic sum with exponents
    [p_j t = q (|c_j| t)]; when these satisfy the hypotheses of
    [logistic_sum_unique] (rates [a_j]), every [beta_j = 0]. *)
Lemma logistic_dilations_unique (e q : R -> R) N (a c beta : nat -> R) :
  (forall z, e z = z * (/ 2 - / (1 + exp (q z)))) ->
  (forall c t, e (c * t) = e (Rabs c * t)) ->
  (forall j, (j < N)%nat -> c j <> 0) ->
  (forall j, (j < N)%nat -> 0 < a j) ->
  (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> a i <> a j) ->
  (forall j t, (j < N)%nat -> 0 < t -> a j * t <= q (Rabs (c j) * t)) ->
  (forall i j t, (i < N)%nat -> (j < N)%nat -> a i < a j -> 0 < t ->
     (a j - a i) * t <= q (Rabs (c j) * t) - q (Rabs (c i) * t)) ->
  (forall t, sumn N (fun j => beta j * e (c j * t)) = 0) ->
  forall j, (j < N)%nat -> beta j = 0.
Proof.
  intros Hform Habs Hc Ha Hd Hp Hgap Hs j Hj.
  assert (Hw : beta j * Rabs (c j) = 0).
  { apply (logistic_sum_unique N a (fun j => beta j * Rabs (c j))
             (fun j t => q (Rabs (c j) * t)) Ha Hd Hp Hgap); [|exact Hj].
    intros t Ht. apply (Rmult_eq_reg_l t); [|lra].
    rewrite Rmult_0_r, <- (Hs t), <- sumn_scal_l. apply sumn_ext. intros i _.
    rewrite Habs, Hform. ring. }
  apply Rmult_integral in Hw. destruct Hw as [Hw|Hw]; [exact Hw|].
  exfalso. pose proof (Rabs_pos_lt (c j) (Hc j Hj)). lra.
Qed.

Theorem silu_even_dilations_unique : dilations_independent (even_part silu).
Proof.
  intros N c beta Hc Hd.
  apply (logistic_dilations_unique (even_part silu) (fun z => z) N (fun j => Rabs (c j)) c beta
           silu_even_formula silu_even_abs Hc); [| exact Hd | intros; lra | intros; lra].
  intros i Hi. apply Rabs_pos_lt, Hc, Hi.
Qed.

Theorem silu_ridge_unique : ridge_unique_even (even_part silu).
Proof. apply ridge_unique_of_dilations, silu_even_dilations_unique. Qed.

(** ** R5 for SiLU

    The package of [results/R5Package.v] ([even_R5]), and its uniform names. *)

Definition silu_R5 : R5_package silu := even_R5 silu silu_odd_part silu_zero silu_ridge_unique.
Definition silu_absorbable_iff_submatrix := package_iff silu_R5.
Definition silu_absorbable_generic_submatrix := package_forward silu_R5.
Definition silu_generic_not_absorbable_below := package_below silu_R5.
Definition silu_absorbable_null := package_null silu_R5.
(** ** Non-vacuity *)

(** One variable: the logistic hypotheses hold for rates [1, 2]. *)
Example logistic_sum_instance :
  let a := fun j => INR (S j) in
  (forall j, (j < 2)%nat -> 0 < a j) /\
  (forall i j, (i < 2)%nat -> (j < 2)%nat -> i <> j -> a i <> a j) /\
  (forall j t, (j < 2)%nat -> 0 < t -> a j * t <= a j * t) /\
  (forall i j t, (i < 2)%nat -> (j < 2)%nat -> a i < a j -> 0 < t ->
     (a j - a i) * t <= a j * t - a i * t) /\
  (forall t, 0 < t -> sumn 2 (fun j => 0 * (/ 2 - / (1 + exp (a j * t)))) = 0).
Proof.
  intros a. split; [|split; [|split; [|split]]].
  - intros j _. apply lt_0_INR. lia.
  - intros i j _ _ Hne E. apply INR_eq in E. lia.
  - intros; lra.
  - intros; lra.
  - intros t _. simpl. ring.
Qed.

(** Dilations [c = 1, -2] of SiLU's even part. *)
Example silu_even_dilations_instance :
  let c := fun j : nat => if Nat.eq_dec j 0 then 1 else -2 in
  (forall j, (j < 2)%nat -> c j <> 0) /\
  (forall i j, (i < 2)%nat -> (j < 2)%nat -> i <> j -> Rabs (c i) <> Rabs (c j)) /\
  (forall t, sumn 2 (fun j => 0 * even_part silu (c j * t)) = 0).
Proof.
  intros c. unfold c. split; [|split].
  - intros j _. destruct (Nat.eq_dec j 0); lra.
  - intros i j Hi Hj Hne.
    destruct (Nat.eq_dec i 0), (Nat.eq_dec j 0); try lia;
      rewrite ?Rabs_R1, ?(Rabs_left (-2)) by lra; lra.
  - intros t. simpl. ring.
Qed.

(** Ridge sums in [R^1]: directions [1] and [2]. *)
Example silu_ridge_instance :
  let V : mat := fun j _ => INR (S j) in
  (forall j, (j < 2)%nat -> nonzero_vec 1 (row V j)) /\
  (forall i j, (i < 2)%nat -> (j < 2)%nat -> i <> j -> ~ same_up_to_sign 1 (row V i) (row V j)) /\
  (forall x, sumn 2 (fun j => 0 * even_part silu (dot 1 (row V j) x)) = 0).
Proof.
  destruct gelu_ridge_instance as [H1 [H2 _]].
  split; [exact H1|]. split; [exact H2|]. intros x. simpl. ring.
Qed.

(** R5 for SiLU is not vacuous ([R5_instances]). *)
Example silu_R5_instances : R5_instances silu := package_instances silu_R5.
