(** * R8 / R8' (<=): the width condition is sufficient

    For any activation with [sigma(z) - sigma(-z) = z] (ReLU, GELU,
    GELU_tanh, SiLU), every ridge form [L x + sum_{t<k} G[:,t] sigma(u_t.x)]
    satisfying [width_condition d k m U G L] is computed by a residual-free
    block of width [m].  No canonicity of the ridge form is needed, nor
    [sigma 0 = 0] (padding units have zero output weights).

    The witness is assembled from small blocks ("nets") glued side by side:
    - class [t] in [S]: one unit [(-u_t, gamma_t)]
      ([gamma_t sigma(-z) = gamma_t sigma(z) - gamma_t z]);
    - class [t] in [T]: units [(u_t, gamma_t + e_t)] and [(-u_t, -e_t)]
      ([= gamma_t sigma(z) + e_t z]);
    - any other class: one unit [(u_t, gamma_t)];
    - each [l < r]: units [(q_l, p_l)], [(-q_l, -p_l)] ([= p_l (q_l.x)]);
    - padding: zero units.
    Gluing by recursion on [k] and [r] makes the width exactly
    [k + count k T + 2 r] with no index bookkeeping.

    Main results: [width_condition_sufficient], [ridge_form_wide]
    ([m >= k + 2d] always satisfies the width condition) and
    [ridge_absorbable_wide]. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks.
From Absorb.decide Require Import RidgeForm.
Open Scope R_scope.

(** ** Nets: blocks with their width, glued side by side *)

Record net := mk_net { nw : nat; nA : mat; nB : mat }.

Definition net_fun (sigma : R -> R) (d : nat) (N : net) (x : vec) : vec :=
  ungated sigma d (nw N) (nA N) (nB N) x.

Definition zero_net (w : nat) : net := mk_net w (fun _ _ => 0) (fun _ _ => 0).

(** One hidden unit with input weights [a] and output weights [b]. *)
Definition one_unit (a b : vec) : net := mk_net 1 (fun _ j => a j) (fun p _ => b p).

(** The units of [N] followed by those of [M]. *)
Definition glue (N M : net) : net :=
  mk_net (nw N + nw M)
         (fun i => if Nat.ltb i (nw N) then nA N i else nA M (i - nw N)%nat)
         (fun p i => if Nat.ltb i (nw N) then nB N p i else nB M p (i - nw N)%nat).

Definition vneg (a : vec) : vec := fun j => - a j.

Lemma net_fun_zero sigma d w x p : net_fun sigma d (zero_net w) x p = 0.
Proof. unfold net_fun, ungated. apply sumn_zero. intros; simpl; ring. Qed.

Lemma net_fun_one_unit sigma d a b x p :
  net_fun sigma d (one_unit a b) x p = b p * sigma (dot d a x).
Proof. unfold net_fun, ungated. simpl. unfold row. apply Rplus_0_l. Qed.

Lemma net_fun_glue sigma d N M x p :
  net_fun sigma d (glue N M) x p = net_fun sigma d N x p + net_fun sigma d M x p.
Proof.
  unfold net_fun, ungated. simpl. rewrite sumn_add. f_equal.
  - apply sumn_ext. intros i Hi. unfold row.
    destruct (Nat.ltb i (nw N)) eqn:E; [reflexivity|].
    apply Nat.ltb_ge in E. lia.
  - apply sumn_ext. intros i _. unfold row.
    destruct (Nat.ltb (nw N + i) (nw N)) eqn:E.
    + apply Nat.ltb_lt in E. lia.
    + replace (nw N + i - nw N)%nat with i by lia. reflexivity.
Qed.

Lemma dot_vneg d a x : dot d (vneg a) x = - dot d a x.
Proof. unfold dot, vneg. rewrite <- sumn_opp. apply sumn_ext. intros; ring. Qed.

(** A pair of units computing the linear map [x |-> (q . x) b]. *)
Definition linear_pair (q b : vec) : net := glue (one_unit q b) (one_unit (vneg q) (vneg b)).

Lemma net_fun_linear_pair sigma d q b x p :
  odd_part_identity sigma ->
  net_fun sigma d (linear_pair q b) x p = b p * dot d q x.
Proof.
  intros Hodd. unfold linear_pair. rewrite net_fun_glue, !net_fun_one_unit, dot_vneg.
  unfold vneg. pose proof (Hodd (dot d q x)) as E.
  replace (sigma (- dot d q x)) with (sigma (dot d q x) - dot d q x) by lra. ring.
Qed.

(** ** The witness *)

(** The units serving class [t] (in [T]: two units; in [S]: one flipped unit). *)
Definition class_block (U G E : mat) (T S : nat -> bool) (t : nat) : net :=
  if T t then glue (one_unit (row U t) (fun p => G p t + E p t))
                   (one_unit (vneg (row U t)) (fun p => - E p t))
  else if S t then one_unit (vneg (row U t)) (col G t)
  else one_unit (row U t) (col G t).

(** The units of classes [0 .. k-1]. *)
Fixpoint class_net (U G E : mat) (T S : nat -> bool) (k : nat) : net :=
  match k with
  | O => zero_net 0
  | Datatypes.S k' => glue (class_net U G E T S k') (class_block U G E T S k')
  end.

(** The units computing [x |-> P Q x] (inner dimension [r]). *)
Fixpoint lowrank_net (P Q : mat) (r : nat) : net :=
  match r with
  | O => zero_net 0
  | Datatypes.S r' => glue (lowrank_net P Q r') (linear_pair (row Q r') (col P r'))
  end.

(** The witness of width [m]. *)
Definition witness (k m r : nat) (U G E P Q : mat) (T S : nat -> bool) : net :=
  glue (glue (class_net U G E T S k) (lowrank_net P Q r))
       (zero_net (m - (k + count k T + 2 * r))).

Lemma class_net_width U G E T S k' : nw (class_net U G E T S k') = (k' + count k' T)%nat.
Proof.
  induction k' as [|k' IH]; [reflexivity|]. simpl. rewrite IH.
  unfold class_block. destruct (T k'); [simpl; lia|]. destruct (S k'); simpl; lia.
Qed.

Lemma lowrank_net_width P Q r : nw (lowrank_net P Q r) = (2 * r)%nat.
Proof. induction r as [|r IH]; [reflexivity|]. simpl. simpl in IH. rewrite IH. lia. Qed.

Lemma witness_width k m r U G E P Q T S :
  (k + count k T + 2 * r <= m)%nat -> nw (witness k m r U G E P Q T S) = m.
Proof. intros H. simpl. rewrite class_net_width, lowrank_net_width. lia. Qed.

Lemma net_fun_class_block sigma d (U G E : mat) T S x p t :
  odd_part_identity sigma -> (T t = true -> S t = false) ->
  net_fun sigma d (class_block U G E T S t) x p =
  G p t * sigma (dot d (row U t) x)
  + (if T t then E p t * dot d (row U t) x else 0)
  - (if S t then G p t * dot d (row U t) x else 0).
Proof.
  intros Hodd HTS. pose proof (Hodd (dot d (row U t) x)) as Ez.
  unfold class_block. destruct (T t).
  - rewrite (HTS eq_refl), net_fun_glue, !net_fun_one_unit, dot_vneg.
    replace (sigma (- dot d (row U t) x)) with (sigma (dot d (row U t) x) - dot d (row U t) x)
      by lra. ring.
  - destruct (S t); rewrite net_fun_one_unit; unfold col.
    + rewrite dot_vneg.
      replace (sigma (- dot d (row U t) x)) with (sigma (dot d (row U t) x) - dot d (row U t) x)
        by lra. ring.
    + ring.
Qed.

Lemma net_fun_class_net sigma d (U G E : mat) T S x p k' :
  odd_part_identity sigma -> (forall t, (t < k')%nat -> T t = true -> S t = false) ->
  net_fun sigma d (class_net U G E T S k') x p =
  sumn k' (fun t => G p t * sigma (dot d (row U t) x))
  + sumn k' (fun t => if T t then E p t * dot d (row U t) x else 0)
  - sumn k' (fun t => if S t then G p t * dot d (row U t) x else 0).
Proof.
  intros Hodd HTS. induction k' as [|k' IH].
  - unfold class_net. rewrite net_fun_zero. simpl. ring.
  - simpl class_net. rewrite net_fun_glue, IH by (intros t Ht HT; apply HTS; [lia | exact HT]).
    rewrite (net_fun_class_block sigma d U G E T S x p k' Hodd (HTS k' ltac:(lia))).
    rewrite !sumn_S. ring.
Qed.

Lemma net_fun_lowrank_net sigma d (P Q : mat) x p r :
  odd_part_identity sigma ->
  net_fun sigma d (lowrank_net P Q r) x p = sumn r (fun l => P p l * dot d (row Q l) x).
Proof.
  intros Hodd. induction r as [|r IH].
  - unfold lowrank_net. rewrite net_fun_zero. reflexivity.
  - simpl lowrank_net. rewrite net_fun_glue, IH, net_fun_linear_pair by exact Hodd.
    rewrite sumn_S. reflexivity.
Qed.

(** ** The linear part *)

Lemma mv_masked_outer d k T (E U : mat) x p :
  mv d (masked_outer k T E U) x p = sumn k (fun t => if T t then E p t * dot d (row U t) x else 0).
Proof.
  unfold mv, masked_outer, dot, row.
  rewrite (sumn_ext d _ (fun q => sumn k (fun t => (if T t then E p t * U t q else 0) * x q))).
  - rewrite sumn_swap. apply sumn_ext. intros t _. destruct (T t).
    + rewrite <- sumn_scal_l. apply sumn_ext. intros; ring.
    + apply sumn_zero. intros; ring.
  - intros q _. rewrite <- sumn_scal_r. reflexivity.
Qed.

Lemma mv_low_rank d r (P Q : mat) x p :
  mv d (low_rank r P Q) x p = sumn r (fun l => P p l * dot d (row Q l) x).
Proof.
  unfold mv, low_rank, dot, row.
  rewrite (sumn_ext d _ (fun q => sumn r (fun l => P p l * Q l q * x q))).
  - rewrite sumn_swap. apply sumn_ext. intros l _.
    rewrite <- sumn_scal_l. apply sumn_ext. intros; ring.
  - intros q _. rewrite <- sumn_scal_r. reflexivity.
Qed.

(** Matrices equal on [d x d] act equally on [R^d]. *)
Lemma mv_linear_decomp d k r T S (L G E P Q U : mat) x p :
  (p < d)%nat ->
  (forall i j, (i < d)%nat -> (j < d)%nat ->
     L i j + masked_outer k S G U i j = masked_outer k T E U i j + low_rank r P Q i j) ->
  mv d L x p =
  mv d (masked_outer k T E U) x p + mv d (low_rank r P Q) x p - mv d (masked_outer k S G U) x p.
Proof.
  intros Hp H. unfold mv, dot, row. rewrite <- sumn_plus, <- sumn_minus.
  apply sumn_ext. intros q Hq.
  replace (L p q) with (masked_outer k T E U p q + low_rank r P Q p q - masked_outer k S G U p q)
    by (rewrite <- H by assumption; ring).
  ring.
Qed.

(** ** Sufficiency *)

Theorem width_condition_sufficient sigma d k m (U G L : mat) :
  odd_part_identity sigma ->
  width_condition d k m U G L ->
  exists A' B' : mat, same_fun d (ungated sigma d m A' B') (ridge_form sigma d k U G L).
Proof.
  intros Hodd (T & S & r & E & P & Q & HTS & Hm & HL).
  set (N := witness k m r U G E P Q T S).
  exists (nA N), (nB N). intros x p Hp.
  replace m with (nw N) at 1 by (apply witness_width; exact Hm).
  change (ungated sigma d (nw N) (nA N) (nB N) x p) with (net_fun sigma d N x p).
  unfold N, witness. rewrite !net_fun_glue, net_fun_zero.
  rewrite net_fun_class_net by assumption.
  rewrite net_fun_lowrank_net by assumption.
  unfold ridge_form.
  rewrite (mv_linear_decomp d k r T S L G E P Q U x p Hp HL).
  rewrite mv_masked_outer, mv_masked_outer, mv_low_rank. ring.
Qed.

(** ** Wide targets: [m >= k + 2d] always suffices ([T = S = {}], [r = d], [P = L], [Q = I]) *)

Lemma count_none k : count k (fun _ => false) = 0%nat.
Proof. induction k as [|k IH]; [reflexivity|]. simpl. rewrite IH. reflexivity. Qed.

Lemma masked_outer_none k (E U : mat) i j : masked_outer k (fun _ => false) E U i j = 0.
Proof. unfold masked_outer. apply sumn_zero. reflexivity. Qed.

Lemma low_rank_identity d (L : mat) i j : (j < d)%nat -> low_rank d L identity i j = L i j.
Proof.
  intros Hj. unfold low_rank, identity.
  rewrite (sumn_ext d _ (fun l => if Nat.eq_dec j l then L i l else 0)).
  - apply sumn_delta. exact Hj.
  - intros l _. destruct (Nat.eq_dec l j), (Nat.eq_dec j l); subst; try ring; congruence.
Qed.

Theorem ridge_form_wide d k m (U G L : mat) :
  (k + 2 * d <= m)%nat -> width_condition d k m U G L.
Proof.
  intros Hm. exists (fun _ => false), (fun _ => false), d, (fun _ _ => 0), L, identity.
  split; [intros; reflexivity|]. split; [rewrite count_none; lia|].
  intros i j Hi Hj. rewrite !masked_outer_none, low_rank_identity by exact Hj. ring.
Qed.

Corollary ridge_absorbable_wide sigma d k m (U G L : mat) :
  odd_part_identity sigma -> (k + 2 * d <= m)%nat ->
  exists A' B' : mat, same_fun d (ungated sigma d m A' B') (ridge_form sigma d k U G L).
Proof.
  intros Hodd Hm. apply width_condition_sufficient; [exact Hodd|].
  apply ridge_form_wide. exact Hm.
Qed.
