(** * Uniqueness of sums of ridges [x |-> sum_j beta_j |v_j . x|]

    The analytic core of R5 (=>) for ReLU.  Main results:
    - [ridge_kink_eq]: if two ridge sums agree everywhere, their "kinks"
      along every hyperplane agree: for all [x0], [w],
      [sum_{j : v_j.x0 = 0} beta_j |v_j.w|] is the same on both sides
      (second difference along [lam x0 +- w] for large [lam]);
    - [ridge_avoid]: for [p <> 0] and finitely many [v_j] there is [x0]
      with [p.x0 = 0] and [v_j.x0 <> 0] unless [v_j] is a multiple of [p];
    - [ridge_unique] (headline): a ridge sum over nonzero pairwise linearly
      independent directions vanishes identically only if all its
      coefficients are 0.
    For an even [e] that is not homogeneous (the even parts of GELU, SiLU,
    GELU_tanh): [ridge_unique_even e], the same uniqueness for directions
    pairwise not equal up to sign (the hypothesis the even-part route of R5
    uses, proved in [ridge/]); [ridge_even_grouped]: from it, any vanishing
    [e]-ridge sum has zero total weight on each class of directions equal
    up to sign (one [grouped_merge_step] per merged row);
    [not_ridge_unique_even_abs]: [|z|/2] (ReLU) does not have it; the tent
    [|z - 1| + |z + 1| - 2] does ([ridge_unique_even_tent], via
    [tent_base_point] and [tent_small_step]). *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks Geometry.
Open Scope R_scope.

(** ** Avoiding finitely many hyperplanes inside [p^perp] *)

(** Either some [y] with [p.y = 0] sees [v], or [v] is a multiple of [p];
    the witness is [y = |p|^2 v - (v.p) p], for which [y.y = |p|^2 (v.y)]. *)
Lemma perp_or_parallel d p v : nonzero_vec d p ->
  (exists y, dot d p y = 0 /\ dot d v y <> 0) \/ parallel_to d v p.
Proof.
  intros Hp. pose proof (dot_self_pos d p Hp) as Hpp.
  pose (y := vlin (dot d p p) v (- dot d v p) p).
  assert (Hpy : dot d p y = 0) by (unfold y; rewrite dot_vlin_r, (dot_comm d p v); ring).
  destruct (Req_EM_T (dot d v y) 0) as [H0|H0]; [right | left; exists y; split; assumption].
  assert (Hyy : dot d y y = 0).
  { unfold y at 1. rewrite dot_vlin_l. fold y. rewrite Hpy, H0. ring. }
  exists (dot d v p / dot d p p). intros k Hk.
  pose proof (dot_self_zero d y Hyy k Hk) as Hyk. unfold y, vlin in Hyk.
  apply (Rmult_eq_reg_l (dot d p p)); [|lra].
  replace (dot d p p * (dot d v p / dot d p p * p k)) with (dot d v p * p k) by (field; lra).
  lra.
Qed.

Lemma ridge_avoid d (p : vec) (v : nat -> vec) N : nonzero_vec d p ->
  exists x, dot d p x = 0 /\
    forall j, (j < N)%nat -> dot d (v j) x <> 0 \/ parallel_to d (v j) p.
Proof.
  intros Hp. induction N as [|N IH].
  - exists (fun _ => 0). split; [apply dot_zero_r | intros; lia].
  - destruct IH as [x [Hpx Hx]].
    destruct (Req_EM_T (dot d (v N) x) 0) as [HN|HN].
    2:{ exists x. split; [exact Hpx|]. intros j Hj.
        destruct (Nat.eq_dec j N) as [->|]; [left; exact HN | apply Hx; lia]. }
    destruct (perp_or_parallel d p (v N) Hp) as [[y [Hpy Hvy]] | Hpar].
    2:{ exists x. split; [exact Hpx|]. intros j Hj.
        destruct (Nat.eq_dec j N) as [->|]; [right; exact Hpar | apply Hx; lia]. }
    pose (f := fun j => if Req_EM_T (dot d (v j) x) 0 then 0
                        else Rabs (dot d (v j) y) / Rabs (dot d (v j) x)).
    assert (Hf : forall j, (j < N)%nat -> 0 <= f j).
    { intros j _. unfold f. destruct (Req_EM_T (dot d (v j) x) 0); [lra|].
      unfold Rdiv. apply Rmult_le_pos; [apply Rabs_pos|].
      left. apply Rinv_0_lt_compat, Rabs_pos_lt. assumption. }
    exists (vlin (1 + sumn N f) x 1 y). split.
    + rewrite dot_vlin_r, Hpx, Hpy. ring.
    + intros j Hj. rewrite dot_vlin_r. destruct (Nat.eq_dec j N) as [->|Hne].
      * left. rewrite HN. lra.
      * destruct (Hx j ltac:(lia)) as [Hxj|Hpar]; [left | right; exact Hpar].
        apply large_comb_nonzero; [exact Hxj|].
        pose proof (sumn_term_le N f j Hf ltac:(lia)) as Hle. unfold f in Hle at 1.
        destruct (Req_EM_T (dot d (v j) x) 0); [contradiction | lra].
Qed.

(** ** Ridge sums and their kinks *)

Definition ridge_sum (d N : nat) (V : mat) (beta : nat -> R) (x : vec) : R :=
  sumn N (fun j => beta j * Rabs (dot d (row V j) x)).

(** The jump of slope along the hyperplane [x0] sits on, in direction [w]. *)
Definition kink_sum (d N : nat) (V : mat) (beta : nat -> R) (x0 w : vec) : R :=
  sumn N (fun j => if Req_EM_T (dot d (row V j) x0) 0
                   then beta j * Rabs (dot d (row V j) w) else 0).

(** How far out along [x0] the terms not vanishing at [x0] are linear. *)
Definition kink_bound (d N : nat) (V : mat) (x0 w : vec) : R :=
  sumn N (fun j => if Req_EM_T (dot d (row V j) x0) 0 then 0
                   else Rabs (dot d (row V j) w) / Rabs (dot d (row V j) x0)).

Lemma kink_bound_nonneg d N V x0 w : 0 <= kink_bound d N V x0 w.
Proof.
  unfold kink_bound. apply sumn_nonneg. intros j _.
  destruct (Req_EM_T (dot d (row V j) x0) 0); [lra|].
  unfold Rdiv. apply Rmult_le_pos; [apply Rabs_pos|].
  left. apply Rinv_0_lt_compat, Rabs_pos_lt. assumption.
Qed.

Lemma kink_bound_spec d N V x0 w j : (j < N)%nat -> dot d (row V j) x0 <> 0 ->
  Rabs (dot d (row V j) w) <= kink_bound d N V x0 w * Rabs (dot d (row V j) x0).
Proof.
  intros Hj Hx. assert (Hpa : 0 < Rabs (dot d (row V j) x0)) by (apply Rabs_pos_lt; exact Hx).
  pose proof (sumn_term_le N (fun j => if Req_EM_T (dot d (row V j) x0) 0 then 0
                   else Rabs (dot d (row V j) w) / Rabs (dot d (row V j) x0)) j) as Hle.
  cbv beta in Hle.
  destruct (Req_EM_T (dot d (row V j) x0) 0) as [E|_]; [contradiction|].
  assert (Hle' : Rabs (dot d (row V j) w) / Rabs (dot d (row V j) x0) <= kink_bound d N V x0 w).
  { unfold kink_bound. apply Hle; [|exact Hj]. intros i _.
    destruct (Req_EM_T (dot d (row V i) x0) 0); [lra|].
    unfold Rdiv. apply Rmult_le_pos; [apply Rabs_pos|].
    left. apply Rinv_0_lt_compat, Rabs_pos_lt. assumption. }
  apply Rmult_le_compat_r with (r := Rabs (dot d (row V j) x0)) in Hle'; [|lra].
  replace (Rabs (dot d (row V j) w) / Rabs (dot d (row V j) x0) * Rabs (dot d (row V j) x0))
    with (Rabs (dot d (row V j) w)) in Hle' by (field; lra).
  exact Hle'.
Qed.

Lemma abs_second_diff a b : Rabs b <= Rabs a -> Rabs (a + b) + Rabs (a - b) - 2 * Rabs a = 0.
Proof. unfold Rabs. repeat destruct Rcase_abs; lra. Qed.

(** Second difference of a ridge sum at [lam x0] in direction [w]. *)
Lemma ridge_second_diff d N V beta x0 w lam : kink_bound d N V x0 w <= lam ->
  ridge_sum d N V beta (vlin lam x0 1 w) + ridge_sum d N V beta (vlin lam x0 (-1) w)
    - 2 * ridge_sum d N V beta (vscale lam x0) = 2 * kink_sum d N V beta x0 w.
Proof.
  intros Hlam. pose proof (kink_bound_nonneg d N V x0 w) as Hkb.
  unfold ridge_sum, kink_sum.
  rewrite <- sumn_plus, <- !sumn_scal_l, <- sumn_minus.
  apply sumn_ext. intros j Hj. rewrite !dot_vlin_r, dot_scal_r.
  destruct (Req_EM_T (dot d (row V j) x0) 0) as [H0|H0].
  - rewrite H0, Rmult_0_r, !Rplus_0_l, Rabs_R0, Rmult_1_l.
    replace (-1 * dot d (row V j) w) with (- dot d (row V j) w) by ring.
    rewrite Rabs_Ropp. ring.
  - assert (Hb : Rabs (dot d (row V j) w) <= Rabs (lam * dot d (row V j) x0)).
    { rewrite Rabs_mult, (Rabs_right lam) by lra.
      apply Rle_trans with (1 := kink_bound_spec d N V x0 w j Hj H0).
      apply Rmult_le_compat_r; [apply Rabs_pos | exact Hlam]. }
    pose proof (abs_second_diff _ _ Hb) as E.
    replace (lam * dot d (row V j) x0 + -1 * dot d (row V j) w)
      with (lam * dot d (row V j) x0 - dot d (row V j) w) by ring.
    rewrite Rmult_1_l.
    transitivity (beta j * (Rabs (lam * dot d (row V j) x0 + dot d (row V j) w)
      + Rabs (lam * dot d (row V j) x0 - dot d (row V j) w)
      - 2 * Rabs (lam * dot d (row V j) x0))); [ring|].
    rewrite E. ring.
Qed.

(** Equal ridge sums have equal kinks. *)
Lemma ridge_kink_eq d N V beta M W gamma :
  (forall x, ridge_sum d N V beta x = ridge_sum d M W gamma x) ->
  forall x0 w, kink_sum d N V beta x0 w = kink_sum d M W gamma x0 w.
Proof.
  intros H x0 w.
  pose proof (kink_bound_nonneg d N V x0 w) as B1. pose proof (kink_bound_nonneg d M W x0 w) as B2.
  pose (lam := kink_bound d N V x0 w + kink_bound d M W x0 w).
  pose proof (ridge_second_diff d N V beta x0 w lam ltac:(unfold lam; lra)) as H1.
  pose proof (ridge_second_diff d M W gamma x0 w lam ltac:(unfold lam; lra)) as H2.
  rewrite !H in H1. lra.
Qed.

(** ** Uniqueness *)

Theorem ridge_unique : forall d m (V : mat) (beta : nat -> R),
  (forall j, (j < m)%nat -> nonzero_vec d (row V j)) ->
  (forall i j, (i < m)%nat -> (j < m)%nat -> i <> j -> lin_independent2 d (row V i) (row V j)) ->
  (forall x, sumn m (fun j => beta j * Rabs (dot d (row V j) x)) = 0) ->
  forall j, (j < m)%nat -> beta j = 0.
Proof.
  intros d m V beta Hnz Hind H j0 Hj0.
  destruct (ridge_avoid d (row V j0) (row V) m (Hnz j0 Hj0)) as [x0 [Hpx Hx]].
  assert (Hk := ridge_kink_eq d m V beta 0 V beta
                  ltac:(intro x; unfold ridge_sum; rewrite H; reflexivity) x0 (row V j0)).
  unfold kink_sum in Hk. rewrite sumn_0 in Hk.
  rewrite (sumn_ext m _ (fun j => if Nat.eq_dec j0 j
                                  then beta j * Rabs (dot d (row V j) (row V j0)) else 0)) in Hk.
  - rewrite sumn_delta in Hk by exact Hj0.
    pose proof (dot_self_pos d (row V j0) (Hnz j0 Hj0)).
    rewrite Rabs_right in Hk by lra.
    apply Rmult_integral in Hk. destruct Hk; [assumption | lra].
  - intros j Hj. destruct (Nat.eq_dec j0 j) as [<-|Hne].
    + destruct (Req_EM_T (dot d (row V j0) x0) 0); [reflexivity | contradiction].
    + destruct (Hx j Hj) as [Hnz'|Hpar].
      * destruct (Req_EM_T (dot d (row V j) x0) 0); [contradiction | reflexivity].
      * exfalso. exact (parallel_not_independent d _ _ Hpar (Hind j0 j Hj0 Hj Hne)).
Qed.

(** Non-vacuity: one nonzero direction in dimension 1. *)
Example ridge_unique_instance :
  let V : mat := fun _ _ => 1 in
  (forall j, (j < 1)%nat -> nonzero_vec 1 (row V j)) /\
  (forall i j, (i < 1)%nat -> (j < 1)%nat -> i <> j -> lin_independent2 1 (row V i) (row V j)) /\
  (forall x, sumn 1 (fun j => 0 * Rabs (dot 1 (row V j) x)) = 0).
Proof.
  split; [|split].
  - intros j _. exists 0%nat. split; [lia | unfold row; lra].
  - intros i j Hi Hj Hne. lia.
  - intros x. simpl. ring.
Qed.

(** ** Even ridge functions (GELU): the uniqueness hypothesis and regrouping

    For an even [e], [v] and [-v] give the same ridge [x |-> e(v.x)], so
    uniqueness can only hold over directions distinct up to sign.
    [ridge_unique_even e] is that uniqueness statement; it is a named
    hypothesis (not an axiom): for [e = |.|/2] it is false
    ([not_ridge_unique_even_abs]), for GELU's even part it is the analytic
    fact the paper relies on.  [ridge_even_grouped] derives from it the
    regrouped form used by the R5 argument: in any vanishing sum, the
    coefficients of each class of directions equal up to sign add up to 0. *)

Definition same_up_to_sign (d : nat) (u v : vec) : Prop :=
  (forall k, (k < d)%nat -> u k = v k) \/ (forall k, (k < d)%nat -> u k = - v k).

Definition ridge_unique_even (e : R -> R) : Prop :=
  forall d N (V : mat) (beta : nat -> R),
    (forall j, (j < N)%nat -> nonzero_vec d (row V j)) ->
    (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j ->
       ~ same_up_to_sign d (row V i) (row V j)) ->
    (forall x, sumn N (fun j => beta j * e (dot d (row V j) x)) = 0) ->
    forall j, (j < N)%nat -> beta j = 0.

(** Sanity: the hypothesis fails for [|.|/2] ([2|x| - |2x| = 0]), so it is
    not a consequence of [ridge_unique]. *)
Lemma not_ridge_unique_even_abs : ~ ridge_unique_even (fun z => Rabs z / 2).
Proof.
  intros H.
  assert (E : 2 = 0).
  { apply (H 1%nat 2%nat (fun j _ => INR (S j)) (fun j => if Nat.eq_dec j 0 then 2 else -1))
      with (j := 0%nat); [| | | lia].
    - intros j Hj. exists 0%nat. split; [lia|]. unfold row. apply not_0_INR. lia.
    - intros i j Hi Hj Hne [C|C]; specialize (C 0%nat ltac:(lia)); unfold row in C.
      + apply Hne. apply INR_eq in C. lia.
      + assert (Hi' : 0 < INR (S i)) by (apply lt_0_INR; lia).
        assert (Hj' : 0 < INR (S j)) by (apply lt_0_INR; lia). lra.
    - intros x. unfold dot, row. simpl.
      replace (0 + (1 + 1) * x 0%nat) with (2 * x 0%nat) by ring.
      replace (0 + 1 * x 0%nat) with (x 0%nat) by ring.
      rewrite Rabs_mult, (Rabs_right 2) by lra. field. }
  lra.
Qed.

Lemma sign_sim_dec d u v : {same_up_to_sign d u v} + {~ same_up_to_sign d u v}.
Proof.
  destruct (forall_lt_sumbool (fun k => u k = v k) (fun k => Req_EM_T (u k) (v k)) d) as [H1|H1];
    [left; left; exact H1|].
  destruct (forall_lt_sumbool (fun k => u k = - v k) (fun k => Req_EM_T (u k) (- v k)) d)
    as [H2|H2]; [left; right; exact H2|].
  right. intros [C|C]; contradiction.
Defined.

Definition sim_ind (d : nat) (u v : vec) : R := if sign_sim_dec d u v then 1 else 0.

Lemma same_up_to_sign_refl d u : same_up_to_sign d u u.
Proof. left. reflexivity. Qed.

Lemma same_up_to_sign_sym d u v : same_up_to_sign d u v -> same_up_to_sign d v u.
Proof. intros [H|H]; [left|right]; intros k Hk; rewrite (H k Hk); ring. Qed.

Lemma same_up_to_sign_trans d u v w :
  same_up_to_sign d u v -> same_up_to_sign d v w -> same_up_to_sign d u w.
Proof.
  intros [H1|H1] [H2|H2]; [left|right|right|left]; intros k Hk;
    rewrite (H1 k Hk), (H2 k Hk); ring.
Qed.

Lemma same_up_to_sign_parallel d v p : same_up_to_sign d v p ->
  exists c, (c = 1 \/ c = -1) /\ forall k, (k < d)%nat -> v k = c * p k.
Proof.
  intros [H|H]; [exists 1 | exists (-1)]; (split; [lra|]); intros k Hk; rewrite (H k Hk); ring.
Qed.

Lemma sim_ind_trans d v w u : same_up_to_sign d v w -> sim_ind d v u = sim_ind d w u.
Proof.
  intros Hvw. unfold sim_ind.
  destruct (sign_sim_dec d v u) as [H1|H1], (sign_sim_dec d w u) as [H2|H2]; try reflexivity.
  - exfalso. apply H2. exact (same_up_to_sign_trans d _ _ _ (same_up_to_sign_sym d _ _ Hvw) H1).
  - exfalso. apply H1. exact (same_up_to_sign_trans d _ _ _ Hvw H2).
Qed.

Lemma sim_ind_zero d v u : (forall k, (k < d)%nat -> v k = 0) -> nonzero_vec d u ->
  sim_ind d v u = 0.
Proof.
  intros Hv [k [Hk Hu]]. unfold sim_ind.
  destruct (sign_sim_dec d v u) as [[C|C]|]; [| |reflexivity];
    exfalso; apply Hu; specialize (C k Hk); rewrite (Hv k Hk) in C; lra.
Qed.

Lemma dot_zero_l d u x : (forall k, (k < d)%nat -> u k = 0) -> dot d u x = 0.
Proof. intros H. unfold dot. apply sumn_zero. intros k Hk. rewrite (H k Hk). ring. Qed.

Lemma even_sim_eq (e : R -> R) d u v x : (forall z, e (- z) = e z) ->
  same_up_to_sign d u v -> e (dot d u x) = e (dot d v x).
Proof.
  intros He [H|H].
  - f_equal. unfold dot. apply sumn_ext. intros k Hk. rewrite (H k Hk). reflexivity.
  - replace (dot d u x) with (- dot d v x); [apply He|].
    unfold dot. rewrite <- sumn_opp. apply sumn_ext. intros k Hk. rewrite (H k Hk). ring.
Qed.

(** *** Deleting / merging one index of a finite family *)

Definition skip (j t : nat) : nat := if lt_dec t j then t else S t.

Lemma skip_neq j t : skip j t <> j.
Proof. unfold skip. destruct (lt_dec t j); lia. Qed.

Lemma sumn_skip N f j : (j <= N)%nat -> sumn (S N) f = f j + sumn N (fun t => f (skip j t)).
Proof.
  induction N as [|N IH]; intros Hj.
  - assert (j = 0%nat) by lia. subst. rewrite sumn_S, !sumn_0. ring.
  - rewrite (sumn_S (S N) f). destruct (Nat.eq_dec j (S N)) as [->|Hne].
    + rewrite (sumn_ext (S N) (fun t => f (skip (S N) t)) f); [ring|].
      intros t Ht. unfold skip. destruct (lt_dec t (S N)); [reflexivity | lia].
    + rewrite (IH ltac:(lia)), (sumn_S N (fun t => f (skip j t))). cbv beta.
      replace (skip j N) with (S N) by (unfold skip; destruct (lt_dec N j); lia). ring.
Qed.

Lemma sumn_skip_delta N j i c : (j <= N)%nat -> (i < S N)%nat -> i <> j ->
  sumn N (fun t => if Nat.eq_dec (skip j t) i then c else 0) = c.
Proof.
  intros Hj Hi Hne. pose (t0 := if lt_dec i j then i else pred i).
  assert (Ht0 : (t0 < N)%nat) by (unfold t0; destruct (lt_dec i j); lia).
  rewrite (sumn_ext N _ (fun t => if Nat.eq_dec t0 t then c else 0)).
  - exact (sumn_delta N t0 (fun _ => c) Ht0).
  - intros t Ht. unfold skip, t0.
    destruct (lt_dec t j), (lt_dec i j), (Nat.eq_dec _ i), (Nat.eq_dec _ t); try reflexivity; lia.
Qed.

Definition merge_coef (beta : nat -> R) (j i t : nat) : R :=
  beta (skip j t) + (if Nat.eq_dec (skip j t) i then beta j else 0).

Definition skip_rows (V : mat) (j : nat) : mat := fun t => V (skip j t).

(** Deleting index [j] and adding its coefficient to index [i] ([i = j]: plain deletion). *)
Lemma sumn_merge N (beta h : nat -> R) j i : (j <= N)%nat -> (i < S N)%nat ->
  sumn N (fun t => merge_coef beta j i t * h (skip j t)) =
  sumn (S N) (fun t => beta t * h t) - beta j * h j
    + (if Nat.eq_dec i j then 0 else beta j * h i).
Proof.
  intros Hj Hi. rewrite (sumn_skip N (fun t => beta t * h t) j Hj). unfold merge_coef.
  rewrite (sumn_ext N _ (fun t => beta (skip j t) * h (skip j t)
             + (if Nat.eq_dec (skip j t) i then beta j * h i else 0))).
  2:{ intros t _. destruct (Nat.eq_dec (skip j t) i) as [<-|]; ring. }
  rewrite sumn_plus. destruct (Nat.eq_dec i j) as [->|Hne].
  - assert (Z : sumn N (fun t => if Nat.eq_dec (skip j t) j then beta j * h j else 0) = 0).
    { apply sumn_zero. intros t _. destruct (Nat.eq_dec (skip j t) j) as [E|]; [|reflexivity].
      exfalso. exact (skip_neq j t E). }
    rewrite Z. ring.
  - rewrite (sumn_skip_delta N j i (beta j * h i) Hj Hi Hne). ring.
Qed.

(** *** Regrouping *)

(** One regrouping step: when row [j] contributes to both sums exactly as
    row [i] does ([i = j]: not at all), the statement for the [N] rows left
    after moving [beta_j] onto [i] gives it for all [N + 1] rows. *)
Lemma grouped_merge_step (e : R -> R) d N (V : mat) (beta : nat -> R) u j i :
  (j <= N)%nat -> (i < S N)%nat ->
  (forall x, beta j * e (dot d (row V j) x) =
             if Nat.eq_dec i j then 0 else beta j * e (dot d (row V i) x)) ->
  beta j * sim_ind d (row V j) u = (if Nat.eq_dec i j then 0 else beta j * sim_ind d (row V i) u) ->
  (forall x, sumn (S N) (fun t => beta t * e (dot d (row V t) x)) = 0) ->
  ((forall x, sumn N (fun t => merge_coef beta j i t * e (dot d (row (skip_rows V j) t) x)) = 0) ->
   sumn N (fun t => merge_coef beta j i t * sim_ind d (row (skip_rows V j) t) u) = 0) ->
  sumn (S N) (fun t => beta t * sim_ind d (row V t) u) = 0.
Proof.
  intros Hj Hi Hf Hg Hsum IH.
  assert (Hs' : forall x, sumn N (fun t => merge_coef beta j i t
                                     * e (dot d (row (skip_rows V j) t) x)) = 0).
  { intros x.
    refine (eq_trans (sumn_merge N beta (fun t => e (dot d (row V t) x)) j i Hj Hi) _).
    cbv beta. rewrite Hsum, (Hf x). destruct (Nat.eq_dec i j); ring. }
  pose proof (eq_trans (eq_sym (sumn_merge N beta (fun t => sim_ind d (row V t) u) j i Hj Hi))
                (IH Hs')) as E.
  cbv beta in E. rewrite Hg in E. destruct (Nat.eq_dec i j); lra.
Qed.

Theorem ridge_even_grouped (e : R -> R) :
  (forall z, e (- z) = e z) -> e 0 = 0 -> ridge_unique_even e ->
  forall d N (V : mat) (beta : nat -> R),
    (forall x, sumn N (fun j => beta j * e (dot d (row V j) x)) = 0) ->
    forall u, nonzero_vec d u -> sumn N (fun t => beta t * sim_ind d (row V t) u) = 0.
Proof.
  intros He He0 Hu d N. induction N as [|N IH]; intros V beta Hsum u Hnz; [apply sumn_0|].
  (* case A: some direction is zero: delete it *)
  destruct (exists_lt_or (fun j => forall k, (k < d)%nat -> row V j k = 0)
              (fun j => match forall_lt_sumbool _ (fun k => Req_EM_T (row V j k) 0) d with
                        | left h => or_introl h | right h => or_intror h end) (S N))
    as [[j [Hj Hz]]|Hnz'].
  { apply (grouped_merge_step e d N V beta u j j ltac:(lia) Hj); [| |exact Hsum|].
    - intros x. rewrite dot_zero_l by exact Hz. rewrite He0.
      destruct (Nat.eq_dec j j); [ring | congruence].
    - rewrite sim_ind_zero by assumption. destruct (Nat.eq_dec j j); [ring | congruence].
    - intros Hs'. exact (IH _ _ Hs' u Hnz). }
  (* case B: two directions agree up to sign: merge them *)
  assert (Hdec : forall j,
            (exists i, (i < S N)%nat /\ (i <> j /\ same_up_to_sign d (row V i) (row V j)))
            \/ ~ (exists i, (i < S N)%nat /\ (i <> j /\ same_up_to_sign d (row V i) (row V j)))).
  { intros j. destruct (exists_lt_or (fun i => i <> j /\ same_up_to_sign d (row V i) (row V j)))
      with (N := S N) as [E|E].
    - intros i. destruct (Nat.eq_dec i j); [right; tauto|].
      destruct (sign_sim_dec d (row V i) (row V j)); [left; tauto | right; tauto].
    - left. exact E.
    - right. intros [i [Hi Hi']]. exact (E i Hi Hi').  }
  destruct (exists_lt_or _ Hdec (S N)) as [[j [Hj [i [Hi [Hij Hsim]]]]]|Hnone].
  { apply (grouped_merge_step e d N V beta u j i ltac:(lia) Hi); [| |exact Hsum|].
    - intros x. rewrite (even_sim_eq e d (row V i) (row V j) x He Hsim).
      destruct (Nat.eq_dec i j); [contradiction | reflexivity].
    - rewrite (sim_ind_trans d (row V i) (row V j) u Hsim).
      destruct (Nat.eq_dec i j); [contradiction | reflexivity].
    - intros Hs'. exact (IH _ _ Hs' u Hnz). }
  (* case C: nonzero, pairwise distinct up to sign: all coefficients vanish *)
  apply sumn_zero. intros t Ht.
  rewrite (Hu d (S N) V beta); [ring | | | exact Hsum | exact Ht].
  - intros j Hj. destruct (nonzero_vec_or_zero d (row V j)) as [H|H]; [exact H|].
    exfalso. exact (Hnz' j Hj H).
  - intros i j Hi Hj Hne Hs. apply (Hnone j Hj). exists i. split; [exact Hi|]. split; assumption.
Qed.

(** The hypothesis only depends on the values of [e]. *)
Lemma ridge_unique_even_ext (e1 e2 : R -> R) :
  (forall z, e1 z = e2 z) -> ridge_unique_even e1 -> ridge_unique_even e2.
Proof.
  intros He H d N V beta Hnz Hind Hs. apply (H d N V beta Hnz Hind).
  intros x. rewrite <- (Hs x). apply sumn_ext. intros j _. rewrite He. reflexivity.
Qed.

(** ** A positive instance: [tent z = |z - 1| + |z + 1| - 2]

    [ridge_unique_even] is satisfiable: for this even, non-homogeneous [e]
    with [e 0 = 0], the ridge [x |-> tent(v.x)] has kinks exactly on the two
    hyperplanes [v.x = +-1], which determine [v] up to sign
    ([ridge_unique_even_tent]). *)

Lemma parallel_dot_r d (v p : vec) c u :
  (forall k, (k < d)%nat -> v k = c * p k) -> dot d v u = c * dot d p u.
Proof.
  intros H. unfold dot. rewrite <- sumn_scal_l. apply sumn_ext. intros k Hk.
  rewrite (H k Hk). ring.
Qed.

Definition tent (z : R) : R := Rabs (z - 1) + Rabs (z + 1) - 2.

Lemma tent_even z : tent (- z) = tent z.
Proof.
  unfold tent. replace (- z - 1) with (- (z + 1)) by ring.
  replace (- z + 1) with (- (z - 1)) by ring. rewrite !Rabs_Ropp. ring.
Qed.

Lemma tent_0 : tent 0 = 0.
Proof.
  unfold tent, Rabs. repeat destruct Rcase_abs; lra.
Qed.

Definition qratio (g b : R) : R := if Req_EM_T g 0 then 0 else Rabs b / Rabs g.

Lemma qratio_nonneg g b : 0 <= qratio g b.
Proof.
  unfold qratio. destruct (Req_EM_T g 0); [lra|].
  unfold Rdiv. apply Rmult_le_pos; [apply Rabs_pos|].
  left. apply Rinv_0_lt_compat, Rabs_pos_lt. assumption.
Qed.

Lemma step_le g b T : g <> 0 -> qratio g b <= T -> / (1 + T) * Rabs b <= Rabs g.
Proof.
  intros Hg Hq. pose proof (qratio_nonneg g b) as Hq0.
  unfold qratio in Hq, Hq0. destruct (Req_EM_T g 0) as [|_]; [contradiction|].
  assert (Hpg : 0 < Rabs g) by (apply Rabs_pos_lt; exact Hg).
  assert (Hb : Rabs b <= T * Rabs g).
  { replace (Rabs b) with (Rabs b / Rabs g * Rabs g) by (field; lra).
    apply Rmult_le_compat_r; [lra | exact Hq]. }
  apply Rmult_le_reg_l with (1 + T); [lra|].
  rewrite <- Rmult_assoc, Rinv_r, Rmult_1_l by lra.
  replace ((1 + T) * Rabs g) with (Rabs g + T * Rabs g) by ring. lra.
Qed.

Lemma abs_bracket g b t : 0 < t -> (g <> 0 -> t * Rabs b <= Rabs g) ->
  Rabs (g + t * b) + Rabs (g - t * b) - 2 * Rabs g =
  if Req_EM_T g 0 then 2 * (t * Rabs b) else 0.
Proof.
  intros Ht H. destruct (Req_EM_T g 0) as [->|Hg].
  - replace (0 + t * b) with (t * b) by ring. replace (0 - t * b) with (- (t * b)) by ring.
    rewrite Rabs_Ropp, Rabs_mult, (Rabs_right t), Rabs_R0 by lra. ring.
  - apply abs_second_diff. rewrite Rabs_mult, (Rabs_right t) by lra. exact (H Hg).
Qed.

Lemma tent_second_diff a b t : 0 < t ->
  (a - 1 <> 0 -> t * Rabs b <= Rabs (a - 1)) -> (a + 1 <> 0 -> t * Rabs b <= Rabs (a + 1)) ->
  tent (a + t * b) + tent (a - t * b) - 2 * tent a =
  (if Req_EM_T (a - 1) 0 then 2 * (t * Rabs b) else 0)
  + (if Req_EM_T (a + 1) 0 then 2 * (t * Rabs b) else 0).
Proof.
  intros Ht H1 H2. rewrite <- (abs_bracket (a - 1) b t Ht H1), <- (abs_bracket (a + 1) b t Ht H2).
  unfold tent.
  replace (a + t * b - 1) with (a - 1 + t * b) by ring.
  replace (a + t * b + 1) with (a + 1 + t * b) by ring.
  replace (a - t * b - 1) with (a - 1 - t * b) by ring.
  replace (a - t * b + 1) with (a + 1 - t * b) by ring. ring.
Qed.

(** [|a + s b| > 1] once [s >= (|a| + 1)/|b| + 1]. *)
Lemma far_from_pm1 a b s : b <> 0 -> (Rabs a + 1) / Rabs b + 1 <= s ->
  a + s * b <> 1 /\ a + s * b <> -1.
Proof.
  intros Hb Hs. assert (Hpb : 0 < Rabs b) by (apply Rabs_pos_lt; exact Hb).
  assert (Hq : 0 <= (Rabs a + 1) / Rabs b).
  { unfold Rdiv. apply Rmult_le_pos; [pose proof (Rabs_pos a); lra|].
    left. apply Rinv_0_lt_compat. exact Hpb. }
  assert (Hsb : Rabs a + 1 + Rabs b <= s * Rabs b).
  { replace (Rabs a + 1 + Rabs b) with (((Rabs a + 1) / Rabs b + 1) * Rabs b) by (field; lra).
    apply Rmult_le_compat_r; [lra | exact Hs]. }
  assert (Habs : Rabs (s * b) = s * Rabs b) by (rewrite Rabs_mult, (Rabs_right s) by lra; ring).
  split; intros E.
  - replace (s * b) with (1 - a) in Habs by lra.
    pose proof (Rabs_triang 1 (- a)) as Tr. rewrite Rabs_Ropp, Rabs_R1 in Tr.
    replace (1 + - a) with (1 - a) in Tr by ring. lra.
  - replace (s * b) with (- 1 - a) in Habs by lra.
    pose proof (Rabs_triang (- 1) (- a)) as Tr.
    replace (Rabs (- 1)) with 1 in Tr by (unfold Rabs; destruct Rcase_abs; lra).
    rewrite Rabs_Ropp in Tr.
    replace (- 1 + - a) with (- 1 - a) in Tr by ring. lra.
Qed.

(** A point [x0] on the hyperplane [v_j0.x = 1] off every other
    [v_j.x = +-1] (rows nonzero, pairwise not equal up to sign). *)
Lemma tent_base_point d N (V : mat) j0 :
  (forall j, (j < N)%nat -> nonzero_vec d (row V j)) ->
  (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> ~ same_up_to_sign d (row V i) (row V j)) ->
  (j0 < N)%nat ->
  exists x0, dot d (row V j0) x0 = 1 /\
    forall j, (j < N)%nat -> j <> j0 -> dot d (row V j) x0 <> 1 /\ dot d (row V j) x0 <> -1.
Proof.
  intros Hnz Hind Hj0.
  pose (p := row V j0). pose proof (dot_self_pos d p (Hnz j0 Hj0)) as Hpp.
  pose (xp := vscale (/ dot d p p) p).
  assert (Hpxp : dot d p xp = 1) by (unfold xp; rewrite dot_scal_r; field; lra).
  destruct (ridge_avoid d p (row V) N (Hnz j0 Hj0)) as [y [Hpy Hy]].
  pose (r := fun j => if Req_EM_T (dot d (row V j) y) 0 then 0
                      else (Rabs (dot d (row V j) xp) + 1) / Rabs (dot d (row V j) y)).
  assert (Hr : forall j, (j < N)%nat -> 0 <= r j).
  { intros j _. unfold r. destruct (Req_EM_T (dot d (row V j) y) 0); [lra|].
    unfold Rdiv. apply Rmult_le_pos; [pose proof (Rabs_pos (dot d (row V j) xp)); lra|].
    left. apply Rinv_0_lt_compat, Rabs_pos_lt. assumption. }
  exists (vlin 1 xp (1 + sumn N r) y). split.
  { rewrite dot_vlin_r. fold p. rewrite Hpxp, Hpy. ring. }
  intros j Hj Hne. rewrite dot_vlin_r, Rmult_1_l.
  destruct (Hy j Hj) as [Hvy|[c Hc]].
  - apply far_from_pm1; [exact Hvy|].
    pose proof (sumn_term_le N r j Hr Hj) as Hle. unfold r in Hle at 1.
    destruct (Req_EM_T (dot d (row V j) y) 0); [contradiction | lra].
  - rewrite (parallel_dot_r d _ _ c xp Hc), (parallel_dot_r d _ _ c y Hc).
    fold p. rewrite Hpxp, Hpy, Rmult_0_r, Rmult_0_r, Rplus_0_r, Rmult_1_r.
    split; intros Ec; subst c; apply (Hind j j0 Hj Hj0 Hne);
      [left | right]; intros k Hk; rewrite (Hc k Hk); unfold p; ring.
Qed.

(** A step [t > 0] small enough that the second difference of [tent] at
    each [a_j] with step [t b_j] sees only the kinks at [+-1] exactly at
    [a_j]. *)
Lemma tent_small_step N (al be : nat -> R) :
  exists t, 0 < t /\ forall j, (j < N)%nat ->
    tent (al j + t * be j) + tent (al j - t * be j) - 2 * tent (al j) =
    (if Req_EM_T (al j - 1) 0 then 2 * (t * Rabs (be j)) else 0)
    + (if Req_EM_T (al j + 1) 0 then 2 * (t * Rabs (be j)) else 0).
Proof.
  pose (T := sumn N (fun j => qratio (al j - 1) (be j) + qratio (al j + 1) (be j))).
  assert
    (HT : forall j, (j < N)%nat -> qratio (al j - 1) (be j) <= T /\ qratio (al j + 1) (be j) <= T).
  { intros j Hj.
    pose proof (sumn_term_le N (fun j => qratio (al j - 1) (be j) + qratio (al j + 1) (be j)) j
                  ltac:(intros i _; pose proof (qratio_nonneg (al i - 1) (be i));
                        pose proof (qratio_nonneg (al i + 1) (be i)); lra) Hj) as Hle.
    pose proof (qratio_nonneg (al j - 1) (be j)). pose proof (qratio_nonneg (al j + 1) (be j)).
    fold T in Hle. cbv beta in Hle. split; lra. }
  assert (HT0 : 0 <= T).
  { unfold T. apply sumn_nonneg. intros i _.
    pose proof (qratio_nonneg (al i - 1) (be i)).
    pose proof (qratio_nonneg (al i + 1) (be i)). lra. }
  exists (/ (1 + T)). split; [apply Rinv_0_lt_compat; lra|].
  intros j Hj. destruct (HT j Hj) as [H1 H2].
  apply tent_second_diff; [apply Rinv_0_lt_compat; lra | intros G; exact (step_le _ _ T G H1)
                          | intros G; exact (step_le _ _ T G H2)].
Qed.

Theorem ridge_unique_even_tent : ridge_unique_even tent.
Proof.
  intros d N V beta Hnz Hind Hs j0 Hj0.
  pose (p := row V j0). pose proof (dot_self_pos d p (Hnz j0 Hj0)) as Hpp.
  destruct (tent_base_point d N V j0 Hnz Hind Hj0) as [x0 [Hal0 Hal]].
  pose (al := fun j => dot d (row V j) x0). pose (be := fun j => dot d (row V j) p).
  destruct (tent_small_step N al be) as [t [Ht Hstep]].
  (* second difference along [p]: only the kink of [v_j0.x = 1] at [x0] counts *)
  assert (E : sumn N (fun j => beta j * tent (dot d (row V j) (vlin 1 x0 t p)))
            + sumn N (fun j => beta j * tent (dot d (row V j) (vlin 1 x0 (- t) p)))
            - 2 * sumn N (fun j => beta j * tent (dot d (row V j) x0)) = 0)
    by (rewrite !Hs; ring).
  rewrite <- sumn_plus, <- sumn_scal_l, <- sumn_minus in E.
  rewrite (sumn_ext N _ (fun j => if Nat.eq_dec j0 j then beta j * (2 * (t * Rabs (be j))) else 0))
    in E.
  - rewrite sumn_delta in E by exact Hj0. unfold be in E. fold p in E.
    rewrite (Rabs_right (dot d p p)) in E by lra.
    apply Rmult_integral in E. destruct E as [E|E]; [exact E|].
    exfalso. assert (0 < t * dot d p p) by (apply Rmult_lt_0_compat; lra). lra.
  - intros j Hj. rewrite !dot_vlin_r. fold (al j) (be j).
    replace (1 * al j + t * be j) with (al j + t * be j) by ring.
    replace (1 * al j + - t * be j) with (al j - t * be j) by ring.
    replace (beta j * tent (al j + t * be j) + beta j * tent (al j - t * be j)
             - 2 * (beta j * tent (al j)))
      with (beta j * (tent (al j + t * be j) + tent (al j - t * be j) - 2 * tent (al j)))
      by ring.
    rewrite (Hstep j Hj).
    destruct (Nat.eq_dec j0 j) as [<-|Hne].
    + unfold al. rewrite Hal0. replace (1 - 1) with 0 by ring.
      destruct (Req_EM_T 0 0) as [_|C]; [|congruence].
      destruct (Req_EM_T (1 + 1) 0) as [C|_]; [lra|]. ring.
    + destruct (Hal j Hj ltac:(lia)) as [Hn1 Hn2]. fold (al j) in Hn1, Hn2.
      destruct (Req_EM_T (al j - 1) 0) as [C|_]; [exfalso; apply Hn1; lra|].
      destruct (Req_EM_T (al j + 1) 0) as [C|_]; [exfalso; apply Hn2; lra|]. ring.
Qed.
