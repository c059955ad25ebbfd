(** * What is proved: the paper's results as statements

    A. Mijoski, M. Karbevski, "Can an MLP Absorb Its Own Skip Connection?"
    (arXiv:2604.23705); results R1-R7 as in [../shared/paper.md].  Each
    result is a named [Prop], readable without any proof: this file imports
    only definition files ([spec/]), and proves nothing.  The proofs are
    [results/PaperProofs.v] ([Theorem r5_relu : Paper.R5_relu], ...).

    Vocabulary ([spec/BlockDefs.v]): [ungated sigma d n A B] is
    [x |-> B sigma(A x)] of width [n] on [R^d]; [gated gamma d n C A B] is
    [x |-> B (gamma(C x) ⊙ A x)]; [residual d P f] is [x |-> P x + f x];
    [absorbable_ungated sigma d n m P A B]: some ungated block of width [m]
    equals [x |-> P x + B sigma(A x)] at every [x] (likewise
    [absorbable_gated]); [identity] is [I_d]; [submatrix_cond d n S A B] is
    [B[:,S] A[S,:] = -I_d]; [generic d n A B]: rows [a_i] nonzero and
    pairwise linearly independent, columns [b_i] nonzero.
    Where the library proves more than the paper states, the statement
    below is the stronger one and the comment says "(beyond)". *)

From Coq Require Import Reals List.
From Absorb Require Import SumDefs BlockDefs ActivationDefs BiasBlocks Compositions ParamSets.
Open Scope R_scope.

(** ** R1 Skip reduction *)

(** "For invertible [P]: [P x + f(x)] is absorbable at width [m] iff
    [x + P^-1 f(x)] is (and [P^-1 B] is again a down-projection). Any
    activation, gated or not." *)
Definition R1_ungated : Prop :=
  forall sigma d n m P Q A B, inverse_of d P Q ->
    (absorbable_ungated sigma d n m P A B <->
     absorbable_ungated sigma d n m identity A (mm d Q B)).

Definition R1_gated : Prop :=
  forall gamma d n m P Q C A B, inverse_of d P Q ->
    (absorbable_gated gamma d n m P C A B <->
     absorbable_gated gamma d n m identity C A (mm d Q B)).

(** ** R2 Homogeneous activations, degree [k <> 1] *)

(** "If [sigma(lam z) = lam^k sigma(z)] for all [lam > 0] ... then for
    [d >= 1] no residual block is absorbable."  (beyond) at any width [m],
    for any nonzero skip [P], and for [k = 0] as well as [k >= 2].
    ([nonzero_mat d P] forces [d >= 1].) *)
Definition R2_ungated : Prop :=
  forall k sigma d n m P A B, k <> 1%nat -> pos_homogeneous k sigma -> nonzero_mat d P ->
    ~ absorbable_ungated sigma d n m P A B.

(** "a gate of degree [k1] makes the gated block degree [k1 + 1]": a gate
    of degree [k >= 1] (ReGLU: [k = 1]) is never absorbable. *)
Definition R2_gated : Prop :=
  forall k gamma d n m P C A B, k <> 0%nat -> pos_homogeneous k gamma -> nonzero_mat d P ->
    ~ absorbable_gated gamma d n m P C A B.

(** "ReLU² and ReLU^k", "ReGLU has degree 2". *)
Definition R2_relu_pow_reglu : Prop :=
  (forall k d n m P A B, k <> 1%nat -> nonzero_mat d P ->
     ~ absorbable_ungated (relu_pow k) d n m P A B) /\
  (forall d n m P C A B, nonzero_mat d P -> ~ absorbable_gated relu d n m P C A B).

(** ** R3 Gated activations *)

(** "If the gate [gamma] is differentiable at 0 with [gamma(0) = 0] (SwiGLU,
    GeGLU, ReGLU), then for [d >= 1] no residual gated block is absorbable."
    (beyond) continuity of [gamma] at 0 with [gamma(0) = 0] suffices
    ([vanishing_at_0]); any widths; any nonzero skip [P]. *)
Definition R3_gated : Prop :=
  forall gamma d n m P C A B, vanishing_at_0 gamma -> nonzero_mat d P ->
    ~ absorbable_gated gamma d n m P C A B.

(** SwiGLU, GeGLU (exact and tanh-approximate), ReGLU. *)
Definition R3_glu : Prop :=
  forall d n m P C A B, nonzero_mat d P ->
    ~ absorbable_gated silu d n m P C A B /\ ~ absorbable_gated gelu d n m P C A B /\
    ~ absorbable_gated gelu_tanh d n m P C A B /\ ~ absorbable_gated relu d n m P C A B.

(** ** R4 Depth *)

(** "For the activations of R2 and R3, a composition of [L] residual blocks
    is not equal to any composition of [L] residual-free blocks of the same
    width."  (beyond) [L] residual blocks against any nonempty list of
    residual-free blocks, any widths ([res], [free] are lists of blocks
    [(n, A, B)] or [(n, C, A, B)], [spec/Compositions.v]). *)
Definition R4_gated : Prop :=
  forall gamma d (res free : list (nat * mat * mat * mat)),
    (1 <= d)%nat -> vanishing_at_0 gamma -> free <> nil ->
    ~ same_fun d (compose (map (res_gblock gamma d) res)) (compose (map (gblock gamma d) free)).

Definition R4_homogeneous : Prop :=
  forall k sigma d (res free : list (nat * mat * mat)),
    (1 <= d)%nat -> (k = 0 \/ 2 <= k)%nat -> pos_homogeneous k sigma -> free <> nil ->
    ~ same_fun d (compose (map (res_ublock sigma d) res)) (compose (map (ublock sigma d) free)).

(** Gates of degree [k >= 1] (ReGLU) need no continuity hypothesis. *)
Definition R4_gated_homogeneous : Prop :=
  forall k gamma d (res free : list (nat * mat * mat * mat)),
    (1 <= d)%nat -> (1 <= k)%nat -> pos_homogeneous k gamma -> free <> nil ->
    ~ same_fun d (compose (map (res_gblock gamma d) res)) (compose (map (gblock gamma d) free)).

(** (beyond) each residual block may have its own invertible skip [P_l]. *)
Definition R4_skips : Prop :=
  (forall gamma d (res : list (mat * (nat * mat * mat * mat))) (free : list (nat * mat * mat * mat)),
     (1 <= d)%nat -> vanishing_at_0 gamma ->
     Forall (fun r => exists Q, inverse_of d (fst r) Q) res -> free <> nil ->
     ~ same_fun d (compose (map (fun r => residual d (fst r) (gblock gamma d (snd r))) res))
                  (compose (map (gblock gamma d) free))) /\
  (forall k sigma d (res : list (mat * (nat * mat * mat))) (free : list (nat * mat * mat)),
     (1 <= d)%nat -> (k = 0 \/ 2 <= k)%nat -> pos_homogeneous k sigma ->
     Forall (fun r => exists Q, inverse_of d (fst r) Q) res -> free <> nil ->
     ~ same_fun d (compose (map (fun r => residual d (fst r) (ublock sigma d (snd r))) res))
                  (compose (map (ublock sigma d) free))).

(** ** R5 ReLU and GELU: the submatrix condition *)

(** "(<=) needs no genericity and holds for every [sigma] with
    [sigma(z) - sigma(-z) = z] (ReLU, GELU, GELU_tanh, SiLU): flip the signs
    of the rows [a_i, i in S]." *)
Definition R5_sufficient : Prop :=
  forall sigma d n S A B, odd_part_identity sigma -> submatrix_cond d n S A B ->
    absorbable_ungated sigma d n n identity A B.

(** "For generic [(A, B)]: [x + B sigma(A x)] is absorbable at width [n] iff
    there is [S] with [B[:,S] A[S,:] = -I_d]." *)
Definition submatrix_characterization (sigma : R -> R) : Prop :=
  forall d n A B, generic d n A B ->
    (absorbable_ungated sigma d n n identity A B <-> exists S, submatrix_cond d n S A B).

Definition R5_relu : Prop := submatrix_characterization relu.
Definition R5_gelu : Prop := submatrix_characterization gelu.

(** "Counterexample without genericity: [d = 1], [a = (1, 2)], [b = (1, 1)]:
    no subset sums to -1, yet [x + ReLU(x) + ReLU(2x) = 4 ReLU(x) - ReLU(-x)]." *)
Definition R5_counterexample : Prop :=
  let A : mat := fun i _ => if Nat.eqb i 0 then 1 else 2 in
  let B : mat := fun _ _ => 1 in
  absorbable_ungated relu 1 2 2 identity A B /\ (forall S, ~ submatrix_cond 1 2 S A B).

(** (beyond) the same characterization for GELU_tanh and SiLU. *)
Definition R5_gelu_tanh : Prop := submatrix_characterization gelu_tanh.
Definition R5_silu : Prop := submatrix_characterization silu.

(** (beyond) "at width [n + 2d] every ungated block with
    [sigma(z) - sigma(-z) = z] is absorbable" ... *)
Definition R5_wide : Prop :=
  forall sigma d n A B, odd_part_identity sigma ->
    absorbable_ungated sigma d n (n + 2 * d) identity A B.

(** ... "below width [n] a generic one never is" (ReLU, GELU, GELU_tanh, SiLU). *)
Definition never_below_width (sigma : R -> R) : Prop :=
  forall d n m A B, generic d n A B -> (m < n)%nat -> ~ absorbable_ungated sigma d n m identity A B.

Definition R5_below : Prop :=
  never_below_width relu /\ never_below_width gelu /\
  never_below_width gelu_tanh /\ never_below_width silu.

(** ** R6 Non-genericity *)

(** "The set [Z = {(A,B) : exists S, sum_{i in S} b_i a_i^T = -I}] is ...
    closed, with empty interior, and of Lebesgue measure zero; for fixed
    [(A,B)] at most [2^n] scalars [t] put [(A, tB)] in [Z]."  (Null: covers
    by countably many boxes of total volume below any [eps],
    [spec/ParamSets.v].) *)
Definition R6_Z : Prop :=
  forall d n, (1 <= d)%nat ->
    closed_set d n (in_Z d n) /\ empty_interior d n (in_Z d n) /\ params_null d n (in_Z d n) /\
    forall A B, exists l : list R, (length l <= 2 ^ n)%nat /\
      forall t, in_Z d n A (fun k i => t * B k i) -> In t l.

(** "The non-generic set is likewise null."  Closed with empty interior and
    null for [d >= 2] or [n <= 1] (for [d = 1 < 2 <= n] every block is
    non-generic: two nonzero reals are never linearly independent); for
    generic [(A, B)], [(A, tB)] is non-generic only at [t = 0]. *)
Definition R6_nongeneric : Prop :=
  (forall d n, (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat ->
     closed_set d n (nongeneric d n) /\ empty_interior d n (nongeneric d n) /\
     params_null d n (nongeneric d n)) /\
  (forall d n A B, generic d n A B ->
     forall t, nongeneric d n A (fun k i => t * B k i) -> t = 0).

(** "Hence skip-connected and residual-free MLPs of the same width are
    generically disjoint: for almost every [(A,B)] (and on an open dense
    set) [x + B sigma(A x)] is not absorbable at width [n]." *)
Definition generically_disjoint (sigma : R -> R) : Prop :=
  forall d n, (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat ->
    exists bad : mat -> mat -> Prop,
      closed_set d n bad /\ empty_interior d n bad /\ params_null d n bad /\
      forall A B, ~ bad A B -> ~ absorbable_ungated sigma d n n identity A B.

Definition R6_disjoint_relu : Prop := generically_disjoint relu.
Definition R6_disjoint_gelu : Prop := generically_disjoint gelu.

(** (beyond) GELU_tanh and SiLU. *)
Definition R6_disjoint_beyond : Prop := generically_disjoint gelu_tanh /\ generically_disjoint silu.

(** ** R7 Biases (beyond) *)

(** "With biases the gated impossibility fails: with up-branch bias,
    [x + (-1) SiLU(x) (0 x + 1) = (-1) SiLU(-x) (0 x + 1)]" ([d = n = 1],
    gate [C = 1], gate bias 0, up [A = 0], up bias 1, down [B = -1]). *)
Definition R7_gated_bias : Prop :=
  absorbable_gated_bias silu 1 1 1 identity (fun _ _ => 1) (fun _ => 0) (fun _ _ => 0)
    (fun _ => 1) (fun _ _ => -1) (fun _ => 0).

(** "The (<=) direction of R5 survives biases (the output bias absorbs
    [sum_{i in S} b_i c_i])." *)
Definition R7_bias_sufficient : Prop :=
  forall sigma d n S A c B b0, odd_part_identity sigma -> submatrix_cond d n S A B ->
    absorbable_ungated_bias sigma d n n identity A c B b0.

(** ** R8-R10 (beyond the paper: deciding every block)

    To be added here by the work on [decide/RidgeForm.v] (R8, R8': ReLU and
    the GELU family at any weights and any target width),
    [bias/BiasSpec.v] (R9: biases, the (=>) direction) and R10 (more
    activations), in the same form: a named [Prop] per claim, quoting
    [paper.md], proved in [results/PaperProofs.v] or beside the proof. *)
