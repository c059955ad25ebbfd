(** * Asymptotic uniqueness of exponential polynomials (towards R9 for SiLU)

    - [group_sum_zero]: a finite sum [sum_i w_i f(lam_i)] vanishes when, for
      every [i], the weights of the indices with the same [lam] add up to [0].
    - [exp_poly_groups_zero]: if
      [sum_i (c_i t + d_i) exp (- lam_i t) = O(t exp (- Lam t))] as
      [t -> +oo], then for every rate [lam_i0 < Lam] the [c]'s and the [d]'s
      of the indices with rate [lam_i0] add up to [0].  Proof: the smallest
      rate with a nonzero group dominates, with explicit [1/t] bounds. *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Geometry FiniteMaps Calculus.
From Absorb Require Import Sums Blocks Ridge SiluRidge GeluAffineRidge.
Open Scope R_scope.

(** ** Regrouping by equal values *)

Definition same_rate (lam : nat -> R) (i i' : nat) : R :=
  if Req_EM_T (lam i') (lam i) then 1 else 0.

(** The weight of the group of [i]. *)
Definition group_sum (I : nat) (lam w : nat -> R) (i : nat) : R :=
  sumn I (fun i' => same_rate lam i i' * w i').

Lemma same_rate_refl lam i : same_rate lam i i = 1.
Proof. unfold same_rate. destruct (Req_EM_T (lam i) (lam i)); [reflexivity | congruence]. Qed.

Lemma group_count_pos I lam i : (i < I)%nat -> 1 <= group_sum I lam (fun _ => 1) i.
Proof.
  intros Hi. unfold group_sum.
  pose proof (sumn_term_le I (fun i' => same_rate lam i i' * 1) i) as H.
  cbv beta in H. rewrite same_rate_refl in H. eapply Rle_trans; [|apply H; [|exact Hi]]; [lra|].
  intros j _. unfold same_rate. destruct (Req_EM_T _ _); lra.
Qed.

Lemma group_sum_ext I lam w i i' : lam i = lam i' -> group_sum I lam w i = group_sum I lam w i'.
Proof.
  intros E. unfold group_sum. apply sumn_ext. intros j _. unfold same_rate. rewrite E. reflexivity.
Qed.

Theorem group_sum_zero I (lam w : nat -> R) (f : R -> R) :
  (forall i, (i < I)%nat -> group_sum I lam w i = 0) ->
  sumn I (fun i => w i * f (lam i)) = 0.
Proof.
  intros Hg.
  set (n := fun i => group_sum I lam (fun _ => 1) i).
  assert (Hn : forall i, (i < I)%nat -> 1 <= n i) by (intros; apply group_count_pos; assumption).
  transitivity (sumn I (fun i => sumn I (fun i' => same_rate lam i i' * (w i * f (lam i) / n i)))).
  - apply sumn_ext. intros i Hi.
    assert (E : sumn I (fun i' => same_rate lam i i' * (w i * f (lam i) / n i))
                = n i * (w i * f (lam i) / n i)).
    { unfold n, group_sum. rewrite <- sumn_scal_r. apply sumn_ext. intros; ring. }
    rewrite E. pose proof (Hn i Hi). field. lra.
  - rewrite sumn_swap. apply sumn_zero. intros i' Hi'.
    rewrite (sumn_ext I _ (fun i => same_rate lam i' i * w i * (f (lam i') / n i'))).
    + rewrite sumn_scal_r. unfold group_sum in Hg. rewrite (Hg i' Hi'). ring.
    + intros i Hi.
      pose proof (Hn i' Hi') as Hn'.
      unfold same_rate. destruct (Req_EM_T (lam i') (lam i)) as [E|E];
        destruct (Req_EM_T (lam i) (lam i')) as [E'|E'].
      * assert (Hnn : n i = n i') by (unfold n; apply group_sum_ext; exact E').
        rewrite E', Hnn. field. lra.
      * exfalso. apply E'. symmetry. exact E.
      * exfalso. apply E. symmetry. exact E'.
      * ring.
Qed.

(** ** Elementary bounds *)

Lemma exp_ge_sq_quarter x : 0 <= x -> x * x / 4 <= exp x.
Proof.
  intros Hx. replace x with (x / 2 + x / 2) at 3 by field. rewrite exp_plus.
  pose proof (exp_ineq1_le (x / 2)). nra.
Qed.

(** [t exp (- delta t) <= (4 / delta^2) / t] and [exp (- delta t) <= (1/delta) / t]. *)
Lemma t_exp_neg_bound delta t : 0 < delta -> 0 < t ->
  t * exp (- (delta * t)) <= 4 / (delta * delta) / t.
Proof.
  intros Hd Ht. pose proof (exp_ge_sq_quarter (delta * t) ltac:(nra)) as H.
  pose proof (exp_pos (delta * t)) as Hp. rewrite exp_Ropp.
  apply le_div_t; [exact Ht|].
  replace (t * / exp (delta * t) * t) with (t * t / exp (delta * t)) by (field; lra).
  apply (Rmult_le_reg_r (exp (delta * t))); [exact Hp|].
  replace (t * t / exp (delta * t) * exp (delta * t)) with (t * t) by (field; lra).
  apply (Rmult_le_reg_l (delta * delta / 4)); [nra|].
  replace (delta * delta / 4 * (4 / (delta * delta) * exp (delta * t))) with (exp (delta * t))
    by (field; lra).
  replace (delta * delta / 4 * (t * t)) with (delta * t * (delta * t) / 4) by field. exact H.
Qed.

Lemma exp_neg_bound delta t : 0 < delta -> 0 < t -> exp (- (delta * t)) <= / delta / t.
Proof.
  intros Hd Ht. eapply Rle_trans; [apply exp_neg_le_inv; nra|].
  right. field. split; lra.
Qed.

Lemma abs_div_pos x t : 0 < t -> Rabs (x / t) = Rabs x / t.
Proof.
  intros Ht. unfold Rdiv. rewrite Rabs_mult, Rabs_inv, (Rabs_right t) by lra. reflexivity.
Qed.

(** ** The dominance argument *)

Section Peel.

Variables (I : nat) (c dd lam : nat -> R) (Lam : R).

Definition exp_poly (t : R) : R := sumn I (fun i => (c i * t + dd i) * exp (- (lam i * t))).

Definition exp_poly_small : Prop :=
  exists T C, 0 < T /\ forall t, T <= t -> Rabs (exp_poly t) <= C * t * exp (- (Lam * t)).

Definition groups_vanish_below (mu : R) : Prop :=
  forall i, (i < I)%nat -> lam i < mu -> group_sum I lam c i = 0 /\ group_sum I lam dd i = 0.

Lemma group_sum_filter_lt (w : nat -> R) mu :
  (forall i, (i < I)%nat -> lam i < mu -> group_sum I lam w i = 0) ->
  forall i, (i < I)%nat -> group_sum I lam (fun i => if Rlt_dec (lam i) mu then w i else 0) i = 0.
Proof.
  intros H i Hi. destruct (Rlt_dec (lam i) mu) as [Hl|Hl].
  - rewrite <- (H i Hi Hl). unfold group_sum. apply sumn_ext. intros i' _. unfold same_rate.
    destruct (Req_EM_T (lam i') (lam i)) as [E|E]; [|ring].
    rewrite E. destruct (Rlt_dec (lam i) mu); [ring | contradiction].
  - unfold group_sum. apply sumn_zero. intros i' _. unfold same_rate.
    destruct (Req_EM_T (lam i') (lam i)) as [E|E]; [|ring].
    rewrite E. destruct (Rlt_dec (lam i) mu); [contradiction | ring].
Qed.

(** Multiplying by [exp (mu t)]: the group at [mu] plus the faster terms. *)
Lemma exp_poly_shift mu t :
  groups_vanish_below mu ->
  exp (mu * t) * exp_poly t =
    sumn I (fun i => if Req_EM_T (lam i) mu then c i * t + dd i else 0)
    + sumn I
      (fun i => if Rlt_dec mu (lam i) then (c i * t + dd i) * exp (- ((lam i - mu) * t)) else 0).
Proof.
  intros Hv.
  set (wc := fun i => if Rlt_dec (lam i) mu then c i else 0).
  set (wd := fun i => if Rlt_dec (lam i) mu then dd i else 0).
  assert (Hlow : sumn I (fun i => wc i * (t * exp ((mu - lam i) * t))
                                  + wd i * exp ((mu - lam i) * t)) = 0).
  { rewrite sumn_plus.
    pose proof (group_sum_zero I lam wc (fun l => t * exp ((mu - l) * t))) as G1.
    pose proof (group_sum_zero I lam wd (fun l => exp ((mu - l) * t))) as G2.
    cbv beta in G1, G2. rewrite G1, G2; [ring| |].
    - apply group_sum_filter_lt. intros i Hi Hl. exact (proj2 (Hv i Hi Hl)).
    - apply group_sum_filter_lt. intros i Hi Hl. exact (proj1 (Hv i Hi Hl)). }
  transitivity
    (sumn I (fun i => (wc i * (t * exp ((mu - lam i) * t)) + wd i * exp ((mu - lam i) * t))
     + ((if Req_EM_T (lam i) mu then c i * t + dd i else 0)
        + (if Rlt_dec mu (lam i) then (c i * t + dd i) * exp (- ((lam i - mu) * t)) else 0)))).
  - unfold exp_poly. rewrite <- sumn_scal_l. apply sumn_ext. intros i _. unfold wc, wd.
    destruct (Rlt_dec (lam i) mu) as [H1|H1], (Req_EM_T (lam i) mu) as [H2|H2],
      (Rlt_dec mu (lam i)) as [H3|H3]; try lra.
    + rewrite Rmult_comm, Rmult_assoc, <- exp_plus.
      replace (- (lam i * t) + mu * t) with ((mu - lam i) * t) by ring. ring.
    + rewrite H2, Rmult_comm, Rmult_assoc, <- exp_plus.
      replace (- (mu * t) + mu * t) with 0 by ring. rewrite exp_0. ring.
    + rewrite Rmult_comm, Rmult_assoc, <- exp_plus.
      replace (- (lam i * t) + mu * t) with (- ((lam i - mu) * t)) by ring. ring.
  - rewrite sumn_plus, Hlow, sumn_plus. ring.
Qed.


(** One faster term: [|(c t + d) exp (- delta t)| <= K / t] for [t >= 1]. *)
Lemma faster_term_bound (a b delta : R) : 0 < delta ->
  exists T K, forall t, T <= t -> Rabs ((a * t + b) * exp (- (delta * t))) <= K / t.
Proof.
  intros Hd. exists 1, ((Rabs a + Rabs b) * (4 / (delta * delta))). intros t Ht.
  pose proof (exp_pos (- (delta * t))) as He.
  rewrite Rabs_mult, (Rabs_right (exp _)) by lra.
  assert (Hab : Rabs (a * t + b) <= (Rabs a + Rabs b) * t).
  { eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_mult, (Rabs_right t) by lra.
    pose proof (Rabs_pos b). pose proof (Rabs_pos a). nra. }
  pose proof (t_exp_neg_bound delta t Hd ltac:(lra)) as Hte.
  pose proof (Rabs_pos a). pose proof (Rabs_pos b).
  apply Rle_trans with ((Rabs a + Rabs b) * (t * exp (- (delta * t)))).
  - rewrite <- Rmult_assoc. apply Rmult_le_compat_r; lra.
  - replace ((Rabs a + Rabs b) * (4 / (delta * delta)) / t)
      with ((Rabs a + Rabs b) * (4 / (delta * delta) / t)) by (field; lra).
    apply Rmult_le_compat_l; lra.
Qed.

Theorem exp_poly_groups_zero : exp_poly_small ->
  forall i0, (i0 < I)%nat -> lam i0 < Lam ->
    group_sum I lam c i0 = 0 /\ group_sum I lam dd i0 = 0.
Proof.
  intros [T [C [HT Hsmall]]] i0 Hi0 Hl0.
  set (Q := fun i => lam i < Lam /\ ~ (group_sum I lam c i = 0 /\ group_sum I lam dd i = 0)).
  destruct (Classical_Prop.classic (group_sum I lam c i0 = 0 /\ group_sum I lam dd i0 = 0))
    as [Done|Hq]; [exact Done | exfalso].
  destruct (exists_min_index I lam Q (fun j => Classical_Prop.classic (Q j)))
    as [m [Hm [[HmL Hqm] Hmin]]].
  { exists i0. split; [exact Hi0 | split; assumption]. }
  set (mu := lam m).
  assert (Hv : groups_vanish_below mu).
  { intros i Hi Hl.
    destruct (Classical_Prop.classic (group_sum I lam c i = 0 /\ group_sum I lam dd i = 0))
      as [E|E]; [exact E|].
    exfalso. assert (Qi : Q i) by (split; [unfold mu in Hl; lra | exact E]).
    pose proof (Hmin i Hi Qi). unfold mu in Hl. lra. }
  set (Gc := sumn I (fun i => if Req_EM_T (lam i) mu then c i else 0)).
  set (Gd := sumn I (fun i => if Req_EM_T (lam i) mu then dd i else 0)).
  assert (HGc : Gc = group_sum I lam c m).
  { unfold Gc, group_sum, same_rate, mu. apply sumn_ext. intros i _.
    destruct (Req_EM_T (lam i) (lam m)); ring. }
  assert (HGd : Gd = group_sum I lam dd m).
  { unfold Gd, group_sum, same_rate, mu. apply sumn_ext. intros i _.
    destruct (Req_EM_T (lam i) (lam m)); ring. }
  set (Rgt := fun t => sumn I (fun i => if Rlt_dec mu (lam i)
                        then (c i * t + dd i) * exp (- ((lam i - mu) * t)) else 0)).
  assert (Hsum : forall t, Gc * t + Gd = exp (mu * t) * exp_poly t - Rgt t).
  { intros t. rewrite (exp_poly_shift mu t Hv). unfold Gc, Gd, Rgt.
    rewrite <- sumn_scal_r. unfold Rminus. rewrite Rplus_assoc, Rplus_opp_r, Rplus_0_r.
    rewrite <- sumn_plus. apply sumn_ext. intros i _. destruct (Req_EM_T (lam i) mu); ring. }
  (* [exp (mu t) exp_poly t - Rgt t = O(1/t)] *)
  assert (HF : exists T' K, forall t, T' <= t -> Rabs (exp (mu * t) * exp_poly t - Rgt t) <= K / t).
  { destruct (tail_sum_bound I (fun i t => if Rlt_dec mu (lam i)
                        then (c i * t + dd i) * exp (- ((lam i - mu) * t)) else 0)) as [T2 [K2 H2]].
    { intros i Hi. destruct (Rlt_dec mu (lam i)) as [Hl|Hl].
      - apply faster_term_bound. lra.
      - exists 0, 0. intros t _. rewrite Rabs_R0. unfold Rdiv. lra. }
    assert (Hd0 : 0 < Lam - mu) by (unfold mu; lra).
    exists (Rmax (Rmax T 1) T2), (Rabs C * (4 / ((Lam - mu) * (Lam - mu))) + K2). intros t Ht.
    assert (HtT : T <= t)
      by (eapply Rle_trans; [|exact Ht]; eapply Rle_trans; [apply Rmax_l | apply Rmax_l]).
    assert (Ht1 : 1 <= t)
      by (eapply Rle_trans; [|exact Ht]; eapply Rle_trans; [apply Rmax_r | apply Rmax_l]).
    assert (Ht2 : T2 <= t) by (eapply Rle_trans; [|exact Ht]; apply Rmax_r).
    replace ((Rabs C * (4 / ((Lam - mu) * (Lam - mu))) + K2) / t)
      with (Rabs C * (4 / ((Lam - mu) * (Lam - mu)) / t) + K2 / t) by (field; lra).
    eapply Rle_trans; [apply (Rabs_triang (exp (mu * t) * exp_poly t) (- Rgt t))|].
    rewrite Rabs_Ropp.
    apply Rplus_le_compat; [|exact (H2 t Ht2)].
    rewrite Rabs_mult, (Rabs_right (exp _)) by (apply Rle_ge, Rlt_le, exp_pos).
    pose proof (Hsmall t HtT) as Hs.
    pose proof (t_exp_neg_bound (Lam - mu) t Hd0 ltac:(lra)) as Hte.
    apply Rle_trans with (exp (mu * t) * (Rabs C * t * exp (- (Lam * t)))).
    - apply Rmult_le_compat_l; [left; apply exp_pos|]. eapply Rle_trans; [exact Hs|].
      apply Rmult_le_compat_r; [left; apply exp_pos|].
      apply Rmult_le_compat_r; [lra | apply RRle_abs].
    - replace (exp (mu * t) * (Rabs C * t * exp (- (Lam * t))))
        with (Rabs C * (t * exp (- ((Lam - mu) * t)))).
      + apply Rmult_le_compat_l; [apply Rabs_pos | exact Hte].
      + replace (- ((Lam - mu) * t)) with (mu * t + - (Lam * t)) by ring.
        rewrite exp_plus. ring. }
  destruct HF as [T' [K HF]].
  (* the [t] coefficient vanishes, then the constant *)
  assert (HGc0 : Gc = 0).
  { apply bounded_by_inv_large. exists (Rmax T' 1), (Rabs K + Rabs Gd). intros t Ht.
    assert (HtT : T' <= t) by (eapply Rle_trans; [apply Rmax_l | exact Ht]).
    assert (Ht1 : 1 <= t) by (eapply Rle_trans; [apply Rmax_r | exact Ht]).
    pose proof (HF t HtT) as Hb. rewrite <- Hsum in Hb.
    replace Gc with ((Gc * t + Gd) / t - Gd / t) by (field; lra).
    unfold Rminus. eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_Ropp.
    rewrite !abs_div_pos by lra.
    replace ((Rabs K + Rabs Gd) / t) with (Rabs K / t + Rabs Gd / t) by (field; lra).
    apply Rplus_le_compat_r. unfold Rdiv.
    apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|].
    eapply Rle_trans; [exact Hb|].
    apply Rle_trans with (Rabs K / t); [unfold Rdiv; apply Rmult_le_compat_r;
      [left; apply Rinv_0_lt_compat; lra | apply RRle_abs]|].
    apply (Rmult_le_reg_r t); [lra|]. unfold Rdiv.
    replace (Rabs K * / t * t) with (Rabs K) by (field; lra). pose proof (Rabs_pos K). nra. }
  assert (HGd0 : Gd = 0).
  { apply bounded_by_inv_large. exists T', K. intros t Ht.
    pose proof (HF t Ht) as Hb. rewrite <- Hsum, HGc0 in Hb.
    replace (0 * t + Gd) with Gd in Hb by ring. exact Hb. }
  apply Hqm. rewrite <- HGc, <- HGd. split; assumption.
Qed.

End Peel.
