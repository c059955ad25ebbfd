(** * Refuting R8's width condition by a rank bound (real-valued part)

    A factorization [M = sum_{t in T} e_t u_t^T + P Q] with inner dimension
    [r] has [rank (M X) <= r] for every [X] whose columns are orthogonal to
    the [u_t], [t in T].  A certificate of [rank (M X) >= c] is a pair
    [Y], [Z] with [Z (Y^T M X) = D I_c], [D <> 0].
    - [rank_refute]: such [X], [Y], [Z] force [c <= r] (a nonzero kernel
      vector [v] of [Q X], [KernelVector.kernel_vector], gives [M X v = 0]
      and then [D v = Z Y^T M X v = 0]);
    - [rank_refute_width]: for one choice of [T], [S] in
      [RidgeForm.width_condition] with [M = L + sum_{t in S} gamma_t u_t^T]:
      if moreover [m < k + |T| + 2c], that choice admits no [r], [E], [P], [Q].
    Non-vacuity: [rank_refute_example] (the [1 x 1] matrix [1] has no
    factorization of inner dimension [0]) and [rank_refute_width_example]
    (the identity of [R^2] has no such factorization with [T = S = {}] and
    [r <= 1]), next to [rank_refute_width_holds] (it has one with [r = 2]). *)

From Coq Require Import Reals Lia Lra.
From Absorb Require Import Sums Blocks KernelVector.
From Absorb.decide Require Import RidgeForm.
Open Scope R_scope.

(** Moving a vector through a product: [(g^T F) v = g^T (F v)]. *)
Lemma sumn_pull n c (g : nat -> R) (F : nat -> nat -> R) (v : vec) :
  sumn c (fun b => sumn n (fun e => g e * F e b) * v b) =
  sumn n (fun e => g e * sumn c (fun b => F e b * v b)).
Proof.
  rewrite (sumn_ext c _ (fun b => sumn n (fun e => g e * F e b * v b)))
    by (intros b _; rewrite <- sumn_scal_r; reflexivity).
  rewrite sumn_swap. apply sumn_ext. intros e _. rewrite <- sumn_scal_l.
  apply sumn_ext. intros b _. ring.
Qed.

(** [sum_{t in T} e_t u_t^T] kills every vector orthogonal to the [u_t], [t in T]. *)
Lemma masked_outer_kills d k c (T : nat -> bool) (E U X : mat) (v : vec) i :
  (forall t b, (t < k)%nat -> T t = true -> (b < c)%nat -> sumn d (fun j => U t j * X j b) = 0) ->
  sumn d (fun j => masked_outer k T E U i j * sumn c (fun b => X j b * v b)) = 0.
Proof.
  intros Horth. unfold masked_outer.
  rewrite (sumn_ext d _ (fun j => sumn k (fun t => (if T t then E i t else 0) * U t j) *
                                   sumn c (fun b => X j b * v b)))
    by (intros j _; f_equal; apply sumn_ext; intros t _; destruct (T t); ring).
  rewrite sumn_pull. apply sumn_zero. intros t Ht.
  destruct (T t) eqn:Tt; [|ring].
  rewrite <- sumn_pull, sumn_zero; [ring|]. intros b Hb. rewrite (Horth t b Ht Tt Hb). ring.
Qed.

(** [P Q] kills every [X v] with [Q X v = 0]. *)
Lemma low_rank_kills d r c (P Q X : mat) (v : vec) i :
  (forall l, (l < r)%nat -> sumn c (fun b => sumn d (fun j => Q l j * X j b) * v b) = 0) ->
  sumn d (fun j => low_rank r P Q i j * sumn c (fun b => X j b * v b)) = 0.
Proof.
  intros Hker. unfold low_rank. rewrite sumn_pull. apply sumn_zero. intros l Hl.
  rewrite <- sumn_pull, Hker by exact Hl. ring.
Qed.

Theorem rank_refute d k c r (M U E P Q X Y Z : mat) (T : nat -> bool) (D : R) :
  D <> 0 ->
  (forall i j, (i < d)%nat -> (j < d)%nat ->
    M i j = masked_outer k T E U i j + low_rank r P Q i j) ->
  (forall t b, (t < k)%nat -> T t = true -> (b < c)%nat -> sumn d (fun j => U t j * X j b) = 0) ->
  (forall a b, (a < c)%nat -> (b < c)%nat ->
     sumn c (fun e => Z a e * sumn d (fun i => Y i e * sumn d (fun j => M i j * X j b))) =
     if Nat.eqb a b then D else 0) ->
  (c <= r)%nat.
Proof.
  intros HD HM Horth HZ. destruct (le_lt_dec c r) as [|Hlt]; [assumption|exfalso].
  destruct (kernel_vector c r (fun l b => sumn d (fun j => Q l j * X j b)) Hlt)
    as [v [[a [Ha Hv]] Hker]].
  assert
    (HMX : forall i, (i < d)%nat -> sumn d (fun j => M i j * sumn c (fun b => X j b * v b)) = 0).
  { intros i Hi.
    rewrite (sumn_ext d _ (fun j => masked_outer k T E U i j * sumn c (fun b => X j b * v b) +
                                    low_rank r P Q i j * sumn c (fun b => X j b * v b)))
      by (intros j Hj; rewrite (HM i j Hi Hj); ring).
    rewrite sumn_plus, (masked_outer_kills d k c T E U X v i Horth),
      (low_rank_kills d r c P Q X v i Hker).
    ring. }
  assert (HDv : D * v a = 0).
  { transitivity (sumn c (fun b => (if Nat.eqb a b then D else 0) * v b)).
    - rewrite (sumn_ext c _ (fun b => if Nat.eq_dec a b then D * v b else 0)).
      + symmetry. exact (sumn_delta c a (fun b => D * v b) Ha).
      + intros b _. destruct (Nat.eq_dec a b) as [->|Hne]; [rewrite Nat.eqb_refl; ring|].
        rewrite (proj2 (Nat.eqb_neq a b) Hne). ring.
    - rewrite (sumn_ext c _ (fun b => sumn c (fun e => Z a e *
                 sumn d (fun i => Y i e * sumn d (fun j => M i j * X j b))) * v b))
        by (intros b Hb; rewrite (HZ a b Ha Hb); reflexivity).
      rewrite sumn_pull. apply sumn_zero. intros e _. rewrite <- Rmult_0_r with (Z a e). f_equal.
      rewrite sumn_pull. apply sumn_zero. intros i Hi. rewrite sumn_pull, (HMX i Hi). ring. }
  apply Rmult_integral in HDv as [|]; contradiction.
Qed.

(** One choice of [(T, S)] of the width condition, refuted by [X], [Y], [Z]. *)
Theorem rank_refute_width d k m c (U G L X Y Z : mat) (T S : nat -> bool) (D : R) :
  D <> 0 -> (m < k + count k T + 2 * c)%nat ->
  (forall t b, (t < k)%nat -> T t = true -> (b < c)%nat -> sumn d (fun j => U t j * X j b) = 0) ->
  (forall a b, (a < c)%nat -> (b < c)%nat ->
     sumn c (fun e => Z a e * sumn d (fun i => Y i e *
       sumn d (fun j => (L i j + masked_outer k S G U i j) * X j b))) =
         if Nat.eqb a b then D else 0) ->
  ~ exists r E P Q, (k + count k T + 2 * r <= m)%nat /\
      forall i j, (i < d)%nat -> (j < d)%nat ->
        L i j + masked_outer k S G U i j = masked_outer k T E U i j + low_rank r P Q i j.
Proof.
  intros HD Hc Horth HZ (r & E & P & Q & Hm & HM).
  pose proof (rank_refute d k c r (fun i j => L i j + masked_outer k S G U i j) U E P Q X Y Z T D
                HD HM Horth HZ). lia.
Qed.

(** ** Examples *)

(** [1 = P Q] with inner dimension [0] is impossible: [X = Y = Z = 1], [c = 1]. *)
Example rank_refute_example (E P Q : mat) :
  ~ (forall i j, (i < 1)%nat -> (j < 1)%nat ->
       1 = masked_outer 0 (fun _ => false) E (fun _ _ => 0) i j + low_rank 0 P Q i j).
Proof.
  intros H. pose proof (rank_refute 1 0 1 0 (fun _ _ => 1) (fun _ _ => 0) E P Q
                          (fun _ _ => 1) (fun _ _ => 1) (fun _ _ => 1) (fun _ => false) 1
                          R1_neq_R0 H) as Hc.
  assert (1 <= 0)%nat; [apply Hc|lia].
  - intros t b Ht. lia.
  - intros a b Ha Hb. replace a with 0%nat by lia. replace b with 0%nat by lia. simpl. ring.
Qed.

Definition id2 : mat := fun i j => if Nat.eq_dec i j then 1 else 0.

(** The identity of [R^2] (one ridge with kink [0] along [e_1], say, taken
    as a two-class form [k = 0]) has no factorization of rank [<= 1]:
    width [m = 3 < 0 + 0 + 2 * 2]. *)
Example rank_refute_width_example (U G : mat) :
  ~ exists r E P Q, (0 + count 0 (fun _ => false) + 2 * r <= 3)%nat /\
      forall i j, (i < 2)%nat -> (j < 2)%nat ->
        id2 i j + masked_outer 0 (fun _ => false) G U i j =
        masked_outer 0 (fun _ => false) E U i j + low_rank r P Q i j.
Proof.
  apply
    (rank_refute_width 2 0 3 2 U G id2 id2 id2 id2 (fun _ => false) (fun _ => false) 1 R1_neq_R0).
  - simpl. lia.
  - intros t b Ht. lia.
  - intros a b Ha Hb. unfold masked_outer, id2. simpl.
    destruct a as [|[|a]]; [| |lia]; destruct b as [|[|b]]; try lia; simpl; ring.
Qed.

(** ... while with [r = 2] it has one ([P = I], [Q = I]). *)
Example rank_refute_width_holds (U G : mat) :
  exists r E P Q, (0 + count 0 (fun _ => false) + 2 * r <= 4)%nat /\
      forall i j, (i < 2)%nat -> (j < 2)%nat ->
        id2 i j + masked_outer 0 (fun _ => false) G U i j =
        masked_outer 0 (fun _ => false) E U i j + low_rank r P Q i j.
Proof.
  exists 2%nat, id2, id2, id2. split; [simpl; lia|]. intros i j Hi Hj.
  unfold masked_outer, low_rank, id2. simpl.
  destruct i as [|[|i]]; [| |lia]; destruct j as [|[|j]]; try lia; simpl; ring.
Qed.
