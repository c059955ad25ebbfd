(** * Ridge forms and the width condition of R8 (definitions only)

    The vocabulary of paper.md's "deciding every block" (R8, R8', R9).  A
    residual block [x + B sigma(A x)] is rewritten, by grouping its rows into
    classes, as a *ridge form*
    [x |-> L x + sum_{t < k} G[:,t] sigma(u_t . x)]
    with directions [u_t] (the rows of [U], [k x d]), kink vectors [gamma_t]
    (the columns of [G], [d x k]) and a linear part [L] ([d x d]).
    [width_condition d k m U G L] is R8's criterion for absorbability at
    width [m], with the rank condition written as a factorization: there are
    disjoint [T], [S] among the classes and [r] with [k + |T| + 2r <= m] and
    [L + sum_{t in S} gamma_t u_t^T = sum_{t in T} e_t u_t^T + P Q] where
    [P Q] has inner dimension [r].  (Over the reals this is the same as
    [rank ((L + sum_S gamma_t u_t^T) Q_T) <= r].)

    Nothing here is proved; the theorems live in the proof files. *)

From Coq Require Import Reals.
From Absorb Require Import SumDefs BlockDefs.
Open Scope R_scope.

(** [x |-> L x + sum_t G[:,t] sigma(u_t . x)]. *)
Definition ridge_form (sigma : R -> R) (d k : nat) (U G L : mat) (x : vec) : vec :=
  fun i => mv d L x i + sumn k (fun t => G i t * sigma (dot d (row U t) x)).

(** The number of [t < k] with [T t = true]. *)
Fixpoint count (k : nat) (T : nat -> bool) : nat :=
  match k with
  | O => O
  | S k' => (count k' T + (if T k' then 1 else 0))%nat
  end.

(** [sum_{t < k, T t} E[:,t] U[t,:]]. *)
Definition masked_outer (k : nat) (T : nat -> bool) (E U : mat) : mat :=
  fun i j => sumn k (fun t => if T t then E i t * U t j else 0).

(** [P Q] with inner dimension [r]: a matrix of rank at most [r]. *)
Definition low_rank (r : nat) (P Q : mat) : mat :=
  fun i j => sumn r (fun l => P i l * Q l j).

(** R8's criterion for width [m]. *)
Definition width_condition (d k m : nat) (U G L : mat) : Prop :=
  exists (T S : nat -> bool) (r : nat) (E P Q : mat),
    (forall t, (t < k)%nat -> T t = true -> S t = false) /\
    (k + count k T + 2 * r <= m)%nat /\
    forall i j, (i < d)%nat -> (j < d)%nat ->
      L i j + masked_outer k S G U i j = masked_outer k T E U i j + low_rank r P Q i j.

(** ** Canonical ridge forms *)

(** Every kink vector is nonzero. *)
Definition nonzero_cols (d k : nat) (G : mat) : Prop :=
  forall t, (t < k)%nat -> nonzero_vec d (col G t).

(** ReLU: nonzero directions on pairwise distinct lines. *)
Definition lines_distinct (d k : nat) (U : mat) : Prop :=
  (forall t, (t < k)%nat -> nonzero_vec d (row U t)) /\
  (forall s t, (s < k)%nat -> (t < k)%nat -> s <> t -> lin_independent2 d (row U s) (row U t)).

(** [u = v] or [u = -v] on the first [d] coordinates. *)
Definition pm_equal (d : nat) (u v : vec) : Prop :=
  (forall j, (j < d)%nat -> u j = v j) \/ (forall j, (j < d)%nat -> u j = - v j).

(** GELU, GELU_tanh, SiLU: nonzero directions, pairwise not equal up to sign. *)
Definition signs_distinct (d k : nat) (U : mat) : Prop :=
  (forall t, (t < k)%nat -> nonzero_vec d (row U t)) /\
  (forall s t, (s < k)%nat -> (t < k)%nat -> s <> t -> ~ pm_equal d (row U s) (row U t)).

(** ** Groupings: how a concrete block becomes a ridge form

    Row [i] of [A] is kept when [cls i < k]; then [a_i = lam_i u_{cls i}]
    with [lam_i <> 0].  A dropped row ([cls i >= k]) has [a_i = 0] or
    [b_i = 0].  [G] and [L] are what the grouping gives for ReLU
    ([ReLU(lam z) = |lam| ReLU(+-z)], [ReLU(-z) = ReLU(z) - z]); for the
    GELU family every [lam_i] is [1] or [-1] and the same formulas hold. *)
Definition grouping (d n k : nat) (A B U G L : mat) (cls : nat -> nat) (lam : nat -> R) : Prop :=
  (forall i, (i < n)%nat -> (cls i < k)%nat ->
     lam i <> 0 /\ forall j, (j < d)%nat -> A i j = lam i * U (cls i) j) /\
  (forall i, (i < n)%nat -> (k <= cls i)%nat ->
     (forall j, (j < d)%nat -> A i j = 0) \/ (forall p, (p < d)%nat -> B p i = 0)) /\
  (forall p t, (p < d)%nat -> (t < k)%nat ->
     G p t = sumn n (fun i => if Nat.eq_dec (cls i) t then Rabs (lam i) * B p i else 0)) /\
  (forall p q, (p < d)%nat -> (q < d)%nat ->
     L p q = identity p q
             - sumn n (fun i => if Nat.ltb (cls i) k then
                                  if Rlt_dec (lam i) 0 then Rabs (lam i) * B p i * U (cls i) q
                                  else 0
                                else 0)).

(** A grouping whose scales are all [+-1] (the GELU family). *)
Definition grouping_pm (d n k : nat) (A B U G L : mat) (cls : nat -> nat) (lam : nat -> R) : Prop :=
  grouping d n k A B U G L cls lam /\
  (forall i, (i < n)%nat -> (cls i < k)%nat -> lam i = 1 \/ lam i = -1).

(** Groupings with a zero-kink tail: [K] classes, of which [k .. K-1] have
    zero kink; the ridge form keeps the classes [0 .. k-1] (R8's "drop" of
    classes whose kinks cancel).  Their theory is [decide/GroupingDrop.v]. *)
Definition grouping_drop (d n k K : nat) (A B U G L : mat) (cls : nat -> nat)
    (lam : nat -> R) : Prop :=
  (k <= K)%nat /\ grouping d n K A B U G L cls lam /\
  (forall p t, (p < d)%nat -> (k <= t)%nat -> (t < K)%nat -> G p t = 0).

Definition grouping_drop_pm (d n k K : nat) (A B U G L : mat) (cls : nat -> nat)
    (lam : nat -> R) : Prop :=
  grouping_drop d n k K A B U G L cls lam /\
  (forall i, (i < n)%nat -> (cls i < K)%nat -> lam i = 1 \/ lam i = -1).
