(** * MLP blocks, residual blocks and absorbability

    The setting of paper.md.  Vectors are [nat -> R] and matrices
    [nat -> nat -> R]; a dimension argument says which entries count
    (indices [0 .. d-1]).  Orientation follows PyTorch's [nn.Linear.weight]:
    - [A] (up), [C] (gate): [n x d], row [i] is [a_i], [c_i];
    - [B] (down): [d x n], column [i] is [b_i];
    - [P] (skip): [d x d].

    Two functions on [R^d] are equal ([same_fun d]) when they agree on the
    first [d] coordinates for every input.  Every block here is bias-free;
    biased blocks live in [BiasBlocks.v].  Definitions only: their
    basic algebra is [tools/Blocks.v]. *)

From Coq Require Import Reals.
From Absorb Require Import SumDefs.
Open Scope R_scope.

Definition vec := nat -> R.
Definition mat := nat -> nat -> R.

Definition dot (d : nat) (u v : vec) : R := sumn d (fun k => u k * v k).
Definition row (M : mat) (i : nat) : vec := fun k => M i k.
Definition col (M : mat) (j : nat) : vec := fun k => M k j.

(** [mv c M x]: the product of a matrix with [c] columns and a vector. *)
Definition mv (c : nat) (M : mat) (x : vec) : vec := fun i => dot c (row M i) x.

(** [mm c M N]: the product of a matrix with [c] columns and another matrix. *)
Definition mm (c : nat) (M N : mat) : mat := fun i j => sumn c (fun k => M i k * N k j).

Definition identity : mat := fun i j => if Nat.eq_dec i j then 1 else 0.

Definition vscale (t : R) (x : vec) : vec := fun k => t * x k.

(** Equality of vectors of [R^d], and of maps [R^d -> R^d]. *)
Definition vec_eq (d : nat) (u v : vec) : Prop := forall i, (i < d)%nat -> u i = v i.
Definition same_fun (d : nat) (f g : vec -> vec) : Prop := forall x, vec_eq d (f x) (g x).

(** ** Blocks *)

(** Ungated block [x |-> B sigma(A x)] of width [n]. *)
Definition ungated (sigma : R -> R) (d n : nat) (A B : mat) (x : vec) : vec :=
  fun i => sumn n (fun j => B i j * sigma (dot d (row A j) x)).

(** Gated block [x |-> B (gamma(C x) ⊙ A x)] of width [n]
    (SwiGLU: gamma = SiLU, GeGLU: GELU, ReGLU: ReLU). *)
Definition gated (gamma : R -> R) (d n : nat) (C A B : mat) (x : vec) : vec :=
  fun i => sumn n (fun j => B i j * (gamma (dot d (row C j) x) * dot d (row A j) x)).

(** Residual block [x |-> P x + f x]. *)
Definition residual (d : nat) (P : mat) (f : vec -> vec) (x : vec) : vec :=
  fun i => mv d P x i + f x i.

(** ** Absorbability at width [m] *)

Definition absorbable_ungated (sigma : R -> R) (d n m : nat) (P A B : mat) : Prop :=
  exists A' B' : mat,
    same_fun d (ungated sigma d m A' B') (residual d P (ungated sigma d n A B)).

Definition absorbable_gated (gamma : R -> R) (d n m : nat) (P C A B : mat) : Prop :=
  exists C' A' B' : mat,
    same_fun d (gated gamma d m C' A' B') (residual d P (gated gamma d n C A B)).

(** ** Skips *)

Definition nonzero_mat (d : nat) (P : mat) : Prop :=
  exists i j, (i < d)%nat /\ (j < d)%nat /\ P i j <> 0.

Definition inverse_of (d : nat) (P Q : mat) : Prop :=
  forall i j, (i < d)%nat -> (j < d)%nat ->
    mm d P Q i j = identity i j /\ mm d Q P i j = identity i j.

(** ** The submatrix condition and genericity (R5, R6) *)

(** A subset of [{0 .. n-1}] is given by its indicator. *)
Definition subset_sum (n : nat) (S : nat -> bool) (A B : mat) : mat :=
  fun k l => sumn n (fun i => if S i then B k i * A i l else 0).

(** [B[:,S] A[S,:] = -I_d]. *)
Definition submatrix_cond (d n : nat) (S : nat -> bool) (A B : mat) : Prop :=
  forall k l, (k < d)%nat -> (l < d)%nat -> subset_sum n S A B k l = - identity k l.

Definition lin_independent2 (d : nat) (u v : vec) : Prop :=
  forall alpha beta : R,
    (forall k, (k < d)%nat -> alpha * u k + beta * v k = 0) -> alpha = 0 /\ beta = 0.

Definition nonzero_vec (d : nat) (u : vec) : Prop := exists k, (k < d)%nat /\ u k <> 0.

(** Every [a_i <> 0], the [a_i] pairwise linearly independent, every [b_i <> 0]. *)
Definition generic (d n : nat) (A B : mat) : Prop :=
  (forall i, (i < n)%nat -> nonzero_vec d (row A i)) /\
  (forall i j, (i < n)%nat -> (j < n)%nat -> i <> j -> lin_independent2 d (row A i) (row A j)) /\
  (forall i, (i < n)%nat -> nonzero_vec d (col B i)).

(** ** Properties of activations used by the theorems *)

(** [sigma(z) - sigma(-z) = z]: ReLU, GELU, GELU_tanh, SiLU. *)
Definition odd_part_identity (sigma : R -> R) : Prop := forall z, sigma z - sigma (- z) = z.

(** Positive homogeneity of degree [k]: ReLU^k. *)
Definition pos_homogeneous (k : nat) (sigma : R -> R) : Prop :=
  forall lam z, 0 < lam -> sigma (lam * z) = lam ^ k * sigma z.

(** Continuous at 0 with value 0: the gates of SwiGLU, GeGLU, ReGLU. *)
Definition vanishing_at_0 (gamma : R -> R) : Prop := continuity_pt gamma 0 /\ gamma 0 = 0.
