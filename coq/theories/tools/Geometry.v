(** * Elementary geometry of [R^d]

    Linear combinations [vlin a x b y] and the algebra of [dot]; [u.u > 0]
    for [u <> 0]; [parallel_to d v p] ([v] a multiple of [p]) and
    [perp_or_parallel]: either some [y] in [p^perp] sees [v], or [v] is a
    multiple of [p].  [avoid_hyperplanes]: finitely many nonzero vectors
    have a common non-orthogonal vector.  [forall_lt_sumbool],
    [exists_lt_or]: finite quantifiers over [{0 .. N-1}] are decidable
    when their body is. *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Sums Blocks.
Open Scope R_scope.

(** ** The algebra of [dot] *)

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

(** ** Deciding finite properties *)

Lemma forall_lt_sumbool (P : nat -> Prop) : (forall k, {P k} + {~ P k}) ->
  forall d, {forall k, (k < d)%nat -> P k} + {~ forall k, (k < d)%nat -> P k}.
Proof.
  intros H d. induction d as [|d IH].
  - left. intros; lia.
  - destruct IH as [IH|IH].
    + destruct (H d) as [Hd|Hd].
      * left. intros k Hk. destruct (Nat.eq_dec k d) as [->|]; [exact Hd | apply IH; lia].
      * right. intros C. apply Hd, C. lia.
    + right. intros C. apply IH. intros k Hk. apply C. lia.
Defined.

Lemma exists_lt_or (Q : nat -> Prop) : (forall j, Q j \/ ~ Q j) ->
  forall N, (exists j, (j < N)%nat /\ Q j) \/ (forall j, (j < N)%nat -> ~ Q j).
Proof.
  intros HQ N. induction N as [|N IH].
  - right. intros; lia.
  - destruct IH as [[j [Hj Qj]]|IH]; [left; exists j; split; [lia | exact Qj]|].
    destruct (HQ N) as [QN|QN]; [left; exists N; split; [lia | exact QN] | right].
    intros j Hj. destruct (Nat.eq_dec j N) as [->|]; [exact QN | apply IH; lia].
Qed.

(** ** Avoiding finitely many hyperplanes *)

Lemma large_comb_list d (u y : vec) (l : list vec) :
  (forall w, In w l -> dot d w u <> 0) ->
  exists T, forall t, T <= t -> forall w, In w l -> t * dot d w u + 1 * dot d w y <> 0.
Proof.
  induction l as [|w l IH]; intros H.
  - exists 0. intros t _ w [].
  - destruct IH as [T HT]; [intros w' Hw'; apply H; right; exact Hw'|].
    exists (Rmax T (Rabs (dot d w y) / Rabs (dot d w u) + 1)). intros t Ht w' [E|Hw'].
    + subst w'. apply large_comb_nonzero; [apply H; left; reflexivity|].
      eapply Rle_trans; [apply Rmax_r | exact Ht].
    + apply HT; [eapply Rle_trans; [apply Rmax_l | exact Ht] | exact Hw'].
Qed.

(** Finitely many nonzero vectors have a common non-orthogonal vector. *)
Theorem avoid_hyperplanes d (l : list vec) : (forall w, In w l -> nonzero_vec d w) ->
  exists u, forall w, In w l -> dot d w u <> 0.
Proof.
  induction l as [|w l IH]; intros H.
  - exists (fun _ => 0). intros w [].
  - destruct IH as [u Hu]; [intros w' Hw'; apply H; right; exact Hw'|].
    destruct (Req_dec (dot d w u) 0) as [Hw0|Hw0].
    + destruct (large_comb_list d u w l Hu) as [T HT].
      exists (vlin T u 1 w). intros w' [E|Hw'].
      * subst w'. rewrite dot_vlin_r, Hw0.
        pose proof (dot_self_pos d w (H w (or_introl eq_refl))). lra.
      * rewrite dot_vlin_r. apply HT; [lra | exact Hw'].
    + exists u. intros w' [E|Hw']; [subst w'; exact Hw0 | apply Hu; exact Hw'].
Qed.

Lemma nonzero_vec_or_zero d w : nonzero_vec d w \/ forall k, (k < d)%nat -> w k = 0.
Proof.
  destruct (exists_lt_or (fun k => w k <> 0)) with (N := d) as [[k [Hk Hw]]|Hall].
  - intros k. destruct (Req_dec (w k) 0); [right; tauto | left; assumption].
  - left. exists k. split; assumption.
  - right. intros k Hk. destruct (Req_dec (w k) 0) as [E|E]; [exact E|].
    exfalso. exact (Hall k Hk E).
Qed.

