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
      coefficients are 0. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks.
Open Scope R_scope.

(** ** Linear algebra of [dot] *)

(** The linear combination [a x + b y]. *)
Definition vlin (a : R) (x : vec) (b : R) (y : vec) : vec := fun k => a * x k + b * y k.

Lemma dot_vlin_r d u a x b y : dot d u (vlin a x b y) = a * dot d u x + b * dot d u y.
Proof.
  unfold dot, vlin. rewrite <- !sumn_scal_l, <- sumn_plus. apply sumn_ext; intros; ring.
Qed.

Lemma dot_comm d u v : dot d u v = dot d v u.
Proof. unfold dot. apply sumn_ext; intros; ring. Qed.

Lemma dot_vlin_l d a x b y u : dot d (vlin a x b y) u = a * dot d x u + b * dot d y u.
Proof. rewrite dot_comm, dot_vlin_r, !(dot_comm d u). reflexivity. Qed.

Lemma dot_zero_r d u : dot d u (fun _ => 0) = 0.
Proof. unfold dot. apply sumn_zero; intros; ring. Qed.

Lemma dot_self_pos d u : nonzero_vec d u -> 0 < dot d u u.
Proof.
  intros [k [Hk Hu]]. unfold dot.
  apply Rlt_le_trans with (u k * u k).
  - apply (Rsqr_pos_lt (u k)). exact Hu.
  - apply (sumn_term_le d (fun i => u i * u i) k); [intros; apply Rle_0_sqr | exact Hk].
Qed.

Lemma dot_self_zero d u : dot d u u = 0 -> forall k, (k < d)%nat -> u k = 0.
Proof.
  intros H k Hk. destruct (Req_dec (u k) 0) as [E|E]; [exact E|].
  assert (Hp : 0 < dot d u u) by (apply dot_self_pos; exists k; split; assumption). lra.
Qed.

(** [v] is a (possibly zero) multiple of [p] on the first [d] coordinates. *)
Definition parallel_to (d : nat) (v p : vec) : Prop :=
  exists c, forall k, (k < d)%nat -> v k = c * p k.

Lemma parallel_not_independent d p v : parallel_to d v p -> ~ lin_independent2 d p v.
Proof.
  intros [c Hc] Hi. destruct (Hi c (-1)) as [_ H]; [|lra].
  intros k Hk. rewrite (Hc k Hk). ring.
Qed.

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

(** [t a + b <> 0] once [t >= |b|/|a| + 1]. *)
Lemma large_comb_nonzero a b t : a <> 0 -> Rabs b / Rabs a + 1 <= t -> t * a + 1 * b <> 0.
Proof.
  intros Ha Ht Hz. assert (Hpa : 0 < Rabs a) by (apply Rabs_pos_lt; exact Ha).
  assert (Hq : Rabs b / Rabs a * Rabs a = Rabs b) by (field; lra).
  assert (Hq0 : 0 <= Rabs b / Rabs a)
    by (unfold Rdiv; apply Rmult_le_pos; [apply Rabs_pos | left; apply Rinv_0_lt_compat; lra]).
  assert (Hb : Rabs b = t * Rabs a).
  { replace b with (- (t * a)) by lra. rewrite Rabs_Ropp, Rabs_mult, (Rabs_right t) by lra. ring. }
  assert (Hle : (Rabs b / Rabs a + 1) * Rabs a <= t * Rabs a)
    by (apply Rmult_le_compat_r; [apply Rabs_pos | exact Ht]).
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
