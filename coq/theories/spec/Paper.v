(** * What is proved: the paper's results as statements

    A. Mijoski, M. Karbevski, "Can an MLP Absorb Its Own Skip Connection?"
    (arXiv:2604.23705); results R1-R7 as in [docs/paper.md], and
    R8-R11, which go beyond the paper ("deciding every block", and the block
    inside a transformer sublayer).  Each result is a named [Prop], readable
    without any proof: this file imports only files of definitions (those of
    [spec/], and [decide/RidgeForm.v], [bias/BiasSpec.v],
    [activations/MoreActivationDefs.v], which define and prove nothing
    else), and proves nothing.  The proofs are
    [results/PaperProofs.v] ([Theorem r5_relu : Paper.R5_relu], ...).

    Vocabulary ([spec/BlockDefs.v]): [ungated sigma d n A B] is
    [x |-> B sigma(A x)] of width [n] on [R^d]; [gated gamma d n C A B] is
    [x |-> B (gamma(C x) ⊙ A x)]; [residual d P f] is [x |-> P x + f x];
    [absorbable_ungated sigma d n m P A B]: some ungated block of width [m]
    equals [x |-> P x + B sigma(A x)] at every [x] (likewise
    [absorbable_gated]); [identity] is [I_d]; [submatrix_cond d n S A B] is
    [B[:,S] A[S,:] = -I_d]; [generic d n A B]: rows [a_i] nonzero and
    pairwise linearly independent, columns [b_i] nonzero.
    R8-R10 ([decide/RidgeForm.v], [bias/BiasSpec.v]): [ridge_form sigma d k U G L] is
    [x |-> L x + sum_{t<k} G[:,t] sigma(u_t . x)] (directions [u_t] the rows
    of [U], kink vectors [gamma_t] the columns of [G]); [width_condition d k m U G L]
    is R8's criterion (the rank condition written as a factorization
    [L + sum_S gamma_t u_t^T = sum_T e_t u_t^T + P Q], [P Q] of inner
    dimension [r], [k + |T| + 2r <= m]); [lines_distinct] /
    [signs_distinct]: nonzero directions pairwise on different lines /
    pairwise not equal up to sign; [nonzero_cols]: nonzero kinks;
    [grouping_drop] ([_pm]): how the rows of [(A, B)] form those classes;
    [generic_bias_lines] / [generic_bias_signs]: genericity with biases;
    [bias_ridge_form]: the ridge form with biases; with any linear part [P]:
    [spec/SkipDefs.v] (definitions only).
    Where the library proves more than the paper states, the statement
    below is the stronger one and the comment says "(beyond)". *)

From Coq Require Import Reals List.
From Absorb Require Import SumDefs BlockDefs ActivationDefs BiasBlocks Compositions ParamSets.
From Absorb Require Import RidgeForm BiasSpec MoreActivationDefs Norms SkipDefs ContinuityDefs.
Open Scope R_scope.

(** ** R1 Skip reduction *)

(** "For invertible [P]: [P x + f(x)] is absorbable at width [m] iff
    [x + P^-1 f(x)] is (and [P^-1 B] is again a down-projection). Any
    activation, gated or not." *)
Definition R1_ungated : Prop :=
  forall sigma d n m P Q A B, inverse_of d P Q -> (absorbable_ungated sigma d n m P A B <->
     absorbable_ungated sigma d n m identity A (mm d Q B)).

Definition R1_gated : Prop :=
  forall gamma d n m P Q C A B, inverse_of d P Q ->
    (absorbable_gated gamma d n m P C A B <->
     absorbable_gated gamma d n m identity C A (mm d Q B)).

(** ** R2 Homogeneous activations, degree [k <> 1] *)

(** "If [sigma(lam z) = lam^k sigma(z)] for all [lam > 0] ... then for
    [d >= 1] no residual block is absorbable."  (beyond) at any width [m],
    for any nonzero skip [P], and for [k = 0] as well as [k >= 2].
    ([nonzero_mat d P] forces [d >= 1].  The step activation of degree 0 is
    [R10_heaviside]; [relu_pow 0] below is the constant [1], since [0^0 = 1].) *)
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
  (forall gamma d (res : list (mat * (nat * mat * mat * mat)))
          (free : list (nat * mat * mat * mat)),
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
Definition R6_Z_small : Prop :=
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

(** "Correction to R6 at [d = 1]": "For GELU, GELU_tanh and SiLU ... a
    weaker genericity (rows pairwise not [+-]equal) is the natural
    hypothesis, and the null/open-dense statements should hold for all
    [d >= 1]": [generically_disjoint] without the premise
    [2 <= d \/ n <= 1]. *)
Definition generically_disjoint_all (sigma : R -> R) : Prop :=
  forall d n, (1 <= d)%nat -> exists bad : mat -> mat -> Prop,
      closed_set d n bad /\ empty_interior d n bad /\ params_null d n bad /\
      forall A B, ~ bad A B -> ~ absorbable_ungated sigma d n n identity A B.

Definition R6_disjoint_pm : Prop :=
  generically_disjoint_all gelu /\ generically_disjoint_all gelu_tanh /\
  generically_disjoint_all silu.

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

(** ** R8 ReLU, any weights, any target width (bias-free; beyond the paper) *)

(** "Group the rest by the line through [a_i] ...
    [f(x) = x + sum_i b_i ReLU(a_i . x) = L x + sum_u gamma_u ReLU(u . x)] ...
    Claim: [f] is absorbable at width [m] iff there are [T ⊆ U], [S ⊆ U \ T]
    and [r >= 0] with [k + |T| + 2r <= m] and
    [rank((L + sum_{u in S} gamma_u u^T) Q_T) <= r]."
    Every block equals a canonical ridge form (at most [n] classes,
    directions on pairwise different lines, nonzero kinks) whose width
    condition decides absorbability at every width [m]. *)
Definition R8_relu_decided : Prop :=
  forall d n (A B : mat), exists k (U G L : mat),
    (k <= n)%nat /\ lines_distinct d k U /\ nonzero_cols d k G /\
    same_fun d (residual d identity (ungated relu d n A B)) (ridge_form relu d k U G L) /\
    forall m, absorbable_ungated relu d n m identity A B <-> width_condition d k m U G L.

(** "Drop rows with [a_i = 0] or [b_i = 0]. Group the rest by the line
    through [a_i]; pick a direction [u] for each class, so [a_i = lam_i u]
    with [lam_i <> 0] ... Let [U] be the classes with [gamma_u <> 0]": every
    block has such a grouping (the classes with zero kink form the dropped
    tail [k .. K-1]), and through any such canonical grouping the claim holds. *)
Definition R8_relu_grouping : Prop :=
  (forall d n (A B : mat), exists k K (U G L : mat) cls lam,
     grouping_drop d n k K A B U G L cls lam /\ lines_distinct d k U /\ nonzero_cols d k G) /\
  (forall d n k K m (A B U G L : mat) cls lam,
     grouping_drop d n k K A B U G L cls lam -> lines_distinct d k U -> nonzero_cols d k G ->
     (absorbable_ungated relu d n m identity A B <-> width_condition d k m U G L)).

(** "[m >= k + 2d] is always absorbable" (for ReLU and, R8', for GELU,
    GELU_tanh, SiLU: every [sigma] with [sigma(z) - sigma(-z) = z]; [k] the
    number of classes of any ridge form of the block). *)
Definition R8_wide : Prop :=
  forall sigma d n k m (A B U G L : mat), odd_part_identity sigma ->
    same_fun d (residual d identity (ungated sigma d n A B)) (ridge_form sigma d k U G L) ->
    (k + 2 * d <= m)%nat -> absorbable_ungated sigma d n m identity A B.

(** "[m < k] never" ([k] the number of classes of a canonical ridge form). *)
Definition R8_below : Prop :=
  forall d n k m (A B U G L : mat), lines_distinct d k U -> nonzero_cols d k G ->
    same_fun d (residual d identity (ungated relu d n A B)) (ridge_form relu d k U G L) ->
    (m < k)%nat -> ~ absorbable_ungated relu d n m identity A B.

(** "every [d = 1] block at [m >= 2]" (and, "Correction to R6 at [d = 1]":
    "For ReLU and [d = 1] every residual block of any width [n] is
    absorbable at width 2 (so at every width [>= 2])"). *)
Definition R8_dim1 : Prop :=
  forall n m (A B : mat), (2 <= m)%nat -> absorbable_ungated relu 1 n m identity A B.

(** "the paper's counterexample ([k = 1], [m = 2], [T = U]) is absorbable":
    [x + ReLU(x) + ReLU(2x)] is the ridge form with [u = (1)], [gamma = 3],
    [L = I], whose width condition holds at [m = 2]. *)
Definition R8_counterexample : Prop :=
  let A : mat := fun i _ => if Nat.eqb i 0 then 1 else 2 in
  let B : mat := fun _ _ => 1 in
  let U : mat := fun _ _ => 1 in
  let G : mat := fun _ _ => 3 in
  same_fun 1 (residual 1 identity (ungated relu 1 2 A B)) (ridge_form relu 1 1 U G identity) /\
  lines_distinct 1 1 U /\ nonzero_cols 1 1 G /\
  width_condition 1 1 2 U G identity /\ absorbable_ungated relu 1 2 2 identity A B.

(** (beyond) "Reduce the skip to [I] by R1" needs [P] invertible; without
    that reduction: for every linear part [P] (singular allowed) every block
    [P x + B relu(A x)] is decided at every width ([SkipDefs.decided_any_skip]). *)
Definition R8_relu_any_skip : Prop := decided_any_skip lines_distinct relu.

(** ** R8' GELU, GELU_tanh, SiLU, any weights (bias-free; beyond the paper) *)

(** "The same statement with classes of rows equal up to sign
    ([a_j = +-a_i]; [e(lam z)] is not a multiple of [e(z)] for [lam <> +-1]),
    [gamma_u = sum_{i in u} b_i] over the class written with [a_i = +-u], and
    the linear part [L = I - sum_u (sum_{i in u, a_i = -u} b_i) u^T]." *)
Definition decided_up_to_sign (sigma : R -> R) : Prop :=
  forall d n (A B : mat), exists k (U G L : mat),
    (k <= n)%nat /\ signs_distinct d k U /\ nonzero_cols d k G /\
    same_fun d (residual d identity (ungated sigma d n A B)) (ridge_form sigma d k U G L) /\
    forall m, absorbable_ungated sigma d n m identity A B <-> width_condition d k m U G L.

Definition R8p_decided : Prop :=
  decided_up_to_sign gelu /\ decided_up_to_sign gelu_tanh /\ decided_up_to_sign silu.

(** Through a canonical grouping up to sign (scales [lam_i = +-1]). *)
Definition grouping_decides_up_to_sign (sigma : R -> R) : Prop :=
  forall d n k K m (A B U G L : mat) cls lam,
    grouping_drop_pm d n k K A B U G L cls lam -> signs_distinct d k U -> nonzero_cols d k G ->
    (absorbable_ungated sigma d n m identity A B <-> width_condition d k m U G L).

Definition R8p_grouping : Prop :=
  (forall d n (A B : mat), exists k K (U G L : mat) cls lam,
     grouping_drop_pm d n k K A B U G L cls lam /\ signs_distinct d k U /\ nonzero_cols d k G) /\
  grouping_decides_up_to_sign gelu /\ grouping_decides_up_to_sign gelu_tanh /\
  grouping_decides_up_to_sign silu.

(** (beyond) R8' with any linear part [P] (GELU, GELU_tanh, SiLU and R10's
    quick_gelu, gelu_fast). *)
Definition R8p_any_skip : Prop :=
  decided_any_skip signs_distinct gelu /\ decided_any_skip signs_distinct gelu_tanh /\
  decided_any_skip signs_distinct silu /\ decided_any_skip signs_distinct quick_gelu /\
  decided_any_skip signs_distinct gelu_fast.

(** "[m < k] never", up to sign. ([m >= k + 2d]: [R8_wide].) *)
Definition never_below_classes_up_to_sign (sigma : R -> R) : Prop :=
  forall d n k m (A B U G L : mat), signs_distinct d k U -> nonzero_cols d k G ->
    same_fun d (residual d identity (ungated sigma d n A B)) (ridge_form sigma d k U G L) ->
    (m < k)%nat -> ~ absorbable_ungated sigma d n m identity A B.

Definition R8p_below : Prop :=
  never_below_classes_up_to_sign gelu /\ never_below_classes_up_to_sign gelu_tanh /\
  never_below_classes_up_to_sign silu.

(** ** R9 Biases, the (=>) direction (beyond the paper) *)

(** "Block [x + B sigma(A x + c) + b0]; residual-free blocks may have biases
    [c'], [b0'] ... *Generic with biases*: the [(a_i, c_i)] pairwise in
    different classes, every [a_i <> 0], every [b_i <> 0]. Then R5 holds
    with biases: absorbable at width [n] iff
    [exists S, sum_{i in S} b_i a_i^T = -I]."  Classes: lines of
    [(a_i, c_i)] for ReLU, [+-(a_i, c_i)] for the GELU family. *)
Definition bias_characterization (generic_b : nat -> nat -> mat -> vec -> mat -> Prop)
    (sigma : R -> R) : Prop :=
  forall d n A c B b0, generic_b d n A c B ->
    (absorbable_ungated_bias sigma d n n identity A c B b0 <-> exists S, submatrix_cond d n S A B).

Definition R9_relu : Prop := bias_characterization generic_bias_lines relu.

Definition R9_gelu_family : Prop :=
  bias_characterization generic_bias_signs gelu /\
  bias_characterization generic_bias_signs gelu_tanh /\
  bias_characterization generic_bias_signs silu.

(** (beyond) R9 with any linear part [P] in place of [I] (singular allowed):
    generic with biases, absorbable at width [n] iff some [S] has
    [B[:,S] A[S,:] = -P], never below width [n]
    ([SkipDefs.skip_bias_characterization]); the GELU family is GELU,
    GELU_tanh, SiLU and R10's quick_gelu, gelu_fast. *)
Definition R9_relu_any_skip : Prop := skip_bias_characterization generic_bias_lines relu.

Definition R9_gelu_family_any_skip : Prop :=
  skip_bias_characterization generic_bias_signs gelu /\
  skip_bias_characterization generic_bias_signs gelu_tanh /\
  skip_bias_characterization generic_bias_signs silu /\
  skip_bias_characterization generic_bias_signs quick_gelu /\
  skip_bias_characterization generic_bias_signs gelu_fast.

(** R5's "below width [n] a generic one never is", with biases. *)
Definition never_below_width_bias (generic_b : nat -> nat -> mat -> vec -> mat -> Prop)
    (sigma : R -> R) : Prop :=
  forall d n m A c B b0, generic_b d n A c B -> (m < n)%nat ->
    ~ absorbable_ungated_bias sigma d n m identity A c B b0.

Definition R9_below : Prop :=
  never_below_width_bias generic_bias_lines relu /\
  never_below_width_bias generic_bias_signs gelu /\
  never_below_width_bias generic_bias_signs gelu_tanh /\
  never_below_width_bias generic_bias_signs silu.

(** "R8 holds with biases with [u] replaced by the hyperplane classes (the
    rank condition is on the linear parts only)", for ReLU: every biased
    block equals a canonical biased ridge form (augmented rows [(u_t, s_t)]
    pairwise independent, [u_t <> 0], nonzero kinks) whose width condition
    decides absorbability at every width. *)
Definition R9_relu_decided : Prop :=
  forall d n A c B b0, exists k U s (G L : mat) l0,
    (k <= n)%nat /\ generic_bias_lines d k U s G /\
    same_fun d (residual d identity (ungated_bias relu d n A c B b0))
               (bias_ridge_form relu d k U s G L l0) /\
    forall m, absorbable_ungated_bias relu d n m identity A c B b0 <-> width_condition d k m U G L.

(** The same for the GELU family: every biased block equals a canonical biased
    ridge form (augmented rows [(u_t, s_t)] pairwise not equal up to sign,
    [u_t <> 0], nonzero kinks) whose width condition decides absorbability
    at every width. *)
Definition bias_block_decided_signs (sigma : R -> R) : Prop :=
  forall d n A c B b0, exists k U s (G L : mat) l0,
    (k <= n)%nat /\ generic_bias_signs d k U s G /\
    same_fun d (residual d identity (ungated_bias sigma d n A c B b0))
               (bias_ridge_form sigma d k U s G L l0) /\
    forall m, absorbable_ungated_bias sigma d n m identity A c B b0 <-> width_condition d k m U G L.

Definition R9_gelu_family_decided : Prop :=
  bias_block_decided_signs gelu /\ bias_block_decided_signs gelu_tanh /\
  bias_block_decided_signs silu.

(** (beyond) R9's decision with any linear part [P]: every biased block
    [P x + B sigma(A x + c) + b0] is decided at every width ([SkipDefs.bias_decided_any_skip]). *)
Definition R9_decided_any_skip : Prop :=
  bias_decided_any_skip generic_bias_lines relu /\
  bias_decided_any_skip generic_bias_signs gelu /\
  bias_decided_any_skip generic_bias_signs gelu_tanh /\
  bias_decided_any_skip generic_bias_signs silu /\
  bias_decided_any_skip generic_bias_signs quick_gelu /\
  bias_decided_any_skip generic_bias_signs gelu_fast.

(** ** R10 More activations (beyond the paper) *)

(** "[quick_gelu(z) = z sigmoid(1.702 z)] (CLIP) and [gelu_fast] (another
    tanh form) satisfy [sigma(z) - sigma(-z) = z]; R5 (<=) applies as is,
    and (=>) follows from the SiLU / GELU_tanh ridge results by rescaling". *)
Definition R10_quick_gelu : Prop :=
  submatrix_characterization quick_gelu /\ never_below_width quick_gelu.

Definition R10_gelu_fast : Prop :=
  submatrix_characterization gelu_fast /\ never_below_width gelu_fast.

(** R9 for quick_gelu and gelu_fast, with biases: generic blocks with
    biases are absorbable at width [n] iff [exists S, B[:,S] A[S,:] = -I],
    never below width [n], and every biased block is decided by R8's width
    condition on its canonical biased ridge form (classes [+-(a_i, c_i)]). *)
Definition R10_bias : Prop :=
  (bias_characterization generic_bias_signs quick_gelu /\
   never_below_width_bias generic_bias_signs quick_gelu /\
   bias_block_decided_signs quick_gelu) /\
  (bias_characterization generic_bias_signs gelu_fast /\
   never_below_width_bias generic_bias_signs gelu_fast /\
   bias_block_decided_signs gelu_fast).

(** "A step (Heaviside) activation is 0-homogeneous: R2 covers it, and it
    is the honest meaning of 'ReLU^0'" (R2 with [k = 0], any widths, any
    nonzero skip; [relu_pow 0] is the constant [1], not a step). *)
Definition R10_heaviside : Prop :=
  forall d n m P A B, nonzero_mat d P -> ~ absorbable_ungated heaviside d n m P A B.

(** R2 for real degrees [k <> 1] ([sigma(lam z) = lam^k sigma(z)] for
    [lam > 0], [k] real; gates of real degree [k <> 0]), e.g.
    [ReLU^(1/2)], [ReLU^(3/2)] ([relu_real_pow]). *)
Definition R10_real_degrees : Prop :=
  (forall (k : R) sigma d n m P A B, k <> 1 ->
     (forall lam z, 0 < lam -> sigma (lam * z) = Rpower lam k * sigma z) -> nonzero_mat d P ->
     ~ absorbable_ungated sigma d n m P A B) /\
  (forall (k : R) gamma d n m P C A B, k <> 0 ->
     (forall lam z, 0 < lam -> gamma (lam * z) = Rpower lam k * gamma z) -> nonzero_mat d P ->
     ~ absorbable_gated gamma d n m P C A B) /\
  (forall (k : R) d n m P A B, k <> 1 -> nonzero_mat d P ->
     ~ absorbable_ungated (relu_real_pow k) d n m P A B).

(** ** R11 Pre-norm and parallel residual blocks (beyond the paper)

    Vocabulary ([spec/Norms.v]): [layer_norm d eps gamma beta] and
    [rms_norm d eps gamma beta] as PyTorch computes them; [is_norm d N]:
    [N] is one of them with [eps > 0]; [prenorm d P N f] is
    [x |-> P x + f(N x)], [postnorm d N P f] is [x |-> N(P x + f x)],
    [parallel_residual N1 N2 attn mlp] is [x |-> x + attn(N1 x) + mlp(N2 x)];
    [bounded_on_bounded d f]: [f] maps bounded sets to bounded sets (every
    continuous map); [mlp_block sigma d f]: [f] is an ungated or gated
    block with biases, of some width; [centering d] is [C = I - 1 1^T / d]. *)

(** "(N1) both are bounded, [|N(x)|_inf <= sqrt d max|gamma_i| + |beta|_inf]"
    (coordinate by coordinate). *)
Definition R11_norm_bounded : Prop :=
  forall d eps gamma beta x i, 0 < eps -> (i < d)%nat ->
    Rabs (layer_norm d eps gamma beta x i) <= sqrt (INR d) * Rabs (gamma i) + Rabs (beta i) /\
    Rabs (rms_norm d eps gamma beta x i) <= sqrt (INR d) * Rabs (gamma i) + Rabs (beta i).

(** "A pre-norm residual block [h(x) = P x + f(N(x))], [P <> 0], [f] any
    continuous map ..., is never a pre-norm residual-free block [g(N(x))]
    with [g] continuous."  (beyond) [f], [g] any maps bounded on bounded
    sets; the two normalizations may differ. *)
Definition R11_prenorm : Prop :=
  forall d P N N' f g, is_norm d N -> is_norm d N' -> nonzero_mat d P ->
    bounded_on_bounded d f -> bounded_on_bounded d g ->
    ~ same_fun d (prenorm d P N f) (fun x => g (N' x)).

(** "(an MLP of any width, ungated or gated, any continuous activation,
    with or without biases) ... (in particular any MLP of any width)". *)
Definition R11_prenorm_mlp : Prop :=
  forall sigma tau d P N N' f g, continuity sigma -> continuity tau ->
    is_norm d N -> is_norm d N' -> nonzero_mat d P -> mlp_block sigma d f -> mlp_block tau d g ->
    ~ same_fun d (prenorm d P N f) (fun x => g (N' x)).

(** "Depth: a stack of [L] such blocks with identity skips stays within a
    bounded distance of [x], so it is never a composition ending in a
    pre-norm residual-free block" ([H]: all the layers before the last). *)
Definition R11_prenorm_depth : Prop :=
  forall d (bs : list ((vec -> vec) * (vec -> vec))) N g H, (1 <= d)%nat ->
    Forall (fun b => is_norm d (fst b) /\ bounded_on_bounded d (snd b)) bs ->
    is_norm d N -> bounded_on_bounded d g ->
    ~ same_fun d (compose (map (fun b => prenorm d identity (fst b) (snd b)) bs))
                 (fun x => g (N (H x))).

(** "Parallel residual blocks ([x + attn(N1 x) + mlp(N2 x)]) are covered by
    the same argument whenever the attention output is bounded in [N1 x]":
    never a residual-free parallel block [attn'(N1' x) + mlp'(N2' x)]. *)
Definition R11_parallel : Prop :=
  forall d N1 N2 N1' N2' attn mlp attn' mlp', (1 <= d)%nat ->
    is_norm d N1 -> is_norm d N2 -> is_norm d N1' -> is_norm d N2' ->
    bounded_on_bounded d attn -> bounded_on_bounded d mlp ->
    bounded_on_bounded d attn' -> bounded_on_bounded d mlp' ->
    ~ same_fun d (parallel_residual N1 N2 attn mlp)
                 (fun x k => attn' (N1' x) k + mlp' (N2' x) k).
(** R11 as the paper states it: for continuous maps ([continuous_vec], [spec/ContinuityDefs]). *)
Definition R11_prenorm_continuous : Prop :=
  forall d P N N' f g, is_norm d N -> is_norm d N' -> nonzero_mat d P ->
    continuous_vec d f -> continuous_vec d g -> ~ same_fun d (prenorm d P N f) (fun x => g (N' x)).
Definition R11_prenorm_depth_continuous : Prop :=
  forall d (bs : list ((vec -> vec) * (vec -> vec))) N g H, (1 <= d)%nat -> is_norm d N ->
    Forall (fun b => is_norm d (fst b) /\ continuous_vec d (snd b)) bs -> continuous_vec d g ->
    ~ same_fun d (compose (map (fun b => prenorm d identity (fst b) (snd b)) bs))
                 (fun x => g (N (H x))).
Definition R11_parallel_continuous : Prop :=
  forall d N1 N2 N1' N2' attn mlp attn' mlp', (1 <= d)%nat -> is_norm d N1 -> is_norm d N2 ->
    is_norm d N1' -> is_norm d N2' -> continuous_vec d attn -> continuous_vec d mlp ->
    continuous_vec d attn' -> continuous_vec d mlp' ->
    ~ same_fun d (parallel_residual N1 N2 attn mlp) (fun x k => attn' (N1' x) k + mlp' (N2' x) k).
(** Stretch (partial): [x |-> P x + LayerNorm(x)], [d >= 3], is no bare block of any width. *)
Definition R11_stretch_layernorm : Prop :=
  forall sigma d eps P m A c B b0, (3 <= d)%nat -> 0 < eps -> sigma = relu \/ sigma = silu \/
    sigma = gelu \/ sigma = gelu_tanh \/ sigma = gelu_fast \/ sigma = quick_gelu ->
    ~ same_fun d (prenorm d P (layer_norm d eps (fun _ => 1) (fun _ => 0)) (fun x => x))
                 (ungated_bias sigma d m A c B b0).

(** ** R11' Post-norm blocks (beyond the paper) *)

(** "(N2) ... when every [gamma_i <> 0]: [LayerNorm(u) = LayerNorm(v) <->
    C u = C v], [RMSNorm(u) = RMSNorm(v) <-> u = v]." *)
Definition R11p_norm_injective : Prop :=
  forall d eps gamma beta u v, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    (vec_eq d (layer_norm d eps gamma beta u) (layer_norm d eps gamma beta v) <->
     vec_eq d (mv d (centering d) u) (mv d (centering d) v)) /\
    (vec_eq d (rms_norm d eps gamma beta u) (rms_norm d eps gamma beta v) <-> vec_eq d u v).

(** "A zero [gamma_i] drops coordinates from the comparison; state what
    holds then": for every [gamma], the norms agree iff the normalized
    vectors agree at the coordinates with [gamma_i <> 0]; and the bare
    (resp. centered bare) block's absorbability still suffices. *)
Definition R11p_zero_gamma : Prop :=
  (forall d eps gamma beta u v,
     (vec_eq d (layer_norm d eps gamma beta u) (layer_norm d eps gamma beta v) <->
      forall i, (i < d)%nat -> gamma i <> 0 ->
        center d u i / sqrt (mean_sq d (center d u) + eps) =
        center d v i / sqrt (mean_sq d (center d v) + eps)) /\
     (vec_eq d (rms_norm d eps gamma beta u) (rms_norm d eps gamma beta v) <->
      forall i, (i < d)%nat -> gamma i <> 0 ->
        u i / sqrt (mean_sq d u + eps) = v i / sqrt (mean_sq d v + eps))) /\
  (forall sigma d n m eps gamma beta P A B,
     absorbable_ungated sigma d n m P A B ->
     absorbable_postnorm_ungated (rms_norm d eps gamma beta) sigma d n m P A B) /\
  (forall sigma d n m eps gamma beta P A B,
     absorbable_ungated sigma d n m (mm d (centering d) P) A (mm d (centering d) B) ->
     absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n m P A B) /\
  (forall sigma d n m eps gamma beta P A c B b0,
     absorbable_ungated_bias sigma d n m (mm d (centering d) P) A c (mm d (centering d) B)
       (mv d (centering d) b0) ->
     absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n m P A c B b0).

(** "RMSNorm: absorbable iff the bare block is (R1-R10 apply unchanged)":
    ungated, ungated with biases, gated with biases, any widths. *)
Definition R11p_rmsnorm : Prop :=
  (forall sigma d n m eps gamma beta P A B, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
     (absorbable_postnorm_ungated (rms_norm d eps gamma beta) sigma d n m P A B <->
      absorbable_ungated sigma d n m P A B)) /\
  (forall sigma d n m eps gamma beta P A c B b0, 0 < eps ->
     (forall i, (i < d)%nat -> gamma i <> 0) ->
     (absorbable_postnorm_ungated_bias (rms_norm d eps gamma beta) sigma d n m P A c B b0 <->
      absorbable_ungated_bias sigma d n m P A c B b0)) /\
  (forall sigma d n m eps gamma beta P C cg A cu B b0, 0 < eps ->
     (forall i, (i < d)%nat -> gamma i <> 0) ->
     (absorbable_postnorm_gated_bias (rms_norm d eps gamma beta) sigma d n m P C cg A cu B b0 <->
      absorbable_gated_bias sigma d n m P C cg A cu B b0)).

(** "LayerNorm: ... the post-LN block is absorbable at width [m] iff the
    bare block with the singular skip [C P], down-projection [C B] and
    output bias [C b0] is." *)
Definition R11p_layernorm : Prop :=
  (forall sigma d n m eps gamma beta P A B, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
     (absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n m P A B <->
      absorbable_ungated sigma d n m (mm d (centering d) P) A (mm d (centering d) B))) /\
  (forall sigma d n m eps gamma beta P A c B b0, 0 < eps ->
     (forall i, (i < d)%nat -> gamma i <> 0) ->
     (absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n m P A c B b0 <->
      absorbable_ungated_bias sigma d n m (mm d (centering d) P) A c (mm d (centering d) B)
        (mv d (centering d) b0))) /\
  (forall sigma d n m eps gamma beta P C cg A cu B b0, 0 < eps ->
     (forall i, (i < d)%nat -> gamma i <> 0) ->
     (absorbable_postnorm_gated_bias (layer_norm d eps gamma beta) sigma d n m P C cg A cu B b0 <->
      absorbable_gated_bias sigma d n m (mm d (centering d) P) C cg A cu (mm d (centering d) B)
        (mv d (centering d) b0))).

(** R5 for ReLU with any linear part [P] (singular allowed): generic
    [(A, B)] give an absorbable [P x + B relu(A x)] at width [n] iff some
    [S] has [B[:,S] A[S,:] = -P]. *)
Definition R11p_relu_any_skip : Prop :=
  forall d n P A B, generic d n A B ->
    (absorbable_ungated relu d n n P A B <->
     exists S, forall k l, (k < d)%nat -> (l < d)%nat -> subset_sum n S A B k l = - P k l).

(** "Generic weights at [m = n]: absorbable iff [exists S: C(P + B[:,S] A[S,:]) = 0]"
    (ReLU; generic: [(A, C B)] generic, i.e. no [b_i] a multiple of [1]);
    post-RMSNorm: iff [B[:,S] A[S,:] = -P]. *)
Definition R11p_generic : Prop :=
  (forall d n eps gamma beta P A B, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
     generic d n A (mm d (centering d) B) ->
     (absorbable_postnorm_ungated (layer_norm d eps gamma beta) relu d n n P A B <->
      exists S, forall k l, (k < d)%nat -> (l < d)%nat ->
        mm d (centering d) (fun k' l' => P k' l' + subset_sum n S A B k' l') k l = 0)) /\
  (forall d n eps gamma beta P A B, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
     generic d n A B ->
     (absorbable_postnorm_ungated (rms_norm d eps gamma beta) relu d n n P A B <->
      exists S, forall k l, (k < d)%nat -> (l < d)%nat -> subset_sum n S A B k l = - P k l)).

(** R5 for the GELU family with any linear part [P] (singular allowed),
    bias-free, rows nonzero and pairwise not equal up to sign, columns
    nonzero ([SkipDefs.skip_characterization_pm]; [generic] implies these). *)
Definition R11p_gelu_any_skip : Prop :=
  skip_characterization_pm gelu /\ skip_characterization_pm gelu_tanh /\
  skip_characterization_pm silu /\ skip_characterization_pm quick_gelu /\
  skip_characterization_pm gelu_fast.

(** [R11p_generic] with biases, ReLU: every [gamma_i <> 0], [eps > 0],
    [(A, c, C B)] generic with biases: the post-LN block with biases is
    absorbable at width [n] iff [exists S: C (P + B[:,S] A[S,:]) = 0];
    post-RMSNorm, [(A, c, B)] generic with biases: iff [B[:,S] A[S,:] = -P]. *)
Definition R11p_generic_bias : Prop :=
  (forall d n eps gamma beta P A c B b0, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
     generic_bias_lines d n A c (mm d (centering d) B) ->
     (absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) relu d n n P A c B b0 <->
      exists S, forall k l, (k < d)%nat -> (l < d)%nat ->
        mm d (centering d) (fun k' l' => P k' l' + subset_sum n S A B k' l') k l = 0)) /\
  (forall d n eps gamma beta P A c B b0, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
     generic_bias_lines d n A c B ->
     (absorbable_postnorm_ungated_bias (rms_norm d eps gamma beta) relu d n n P A c B b0 <->
      exists S, forall k l, (k < d)%nat -> (l < d)%nat -> subset_sum n S A B k l = - P k l)).

(** The generic post-norm forms for the GELU family, bias-free and with
    biases ([SkipDefs.postnorm_generic_pm]). *)
Definition R11p_gelu_generic : Prop :=
  postnorm_generic_pm gelu /\ postnorm_generic_pm gelu_tanh /\ postnorm_generic_pm silu /\
  postnorm_generic_pm quick_gelu /\ postnorm_generic_pm gelu_fast.

(** "so the post-LN block is absorbable at width [m] iff the bare block with
    the singular skip [C P], down-projection [C B] and output bias [C b0]
    is -- decided by R8/R9": every post-LayerNorm block, bias-free or with
    biases, at every width ([SkipDefs.postln_decided],
    [SkipDefs.postln_bias_decided]); post-RMSNorm likewise, by the bare
    block's own form ([SkipDefs.postnorm_decided]). *)
Definition R11p_decided : Prop :=
  postnorm_decided lines_distinct generic_bias_lines relu /\
  postnorm_decided signs_distinct generic_bias_signs gelu /\
  postnorm_decided signs_distinct generic_bias_signs gelu_tanh /\
  postnorm_decided signs_distinct generic_bias_signs silu /\
  postnorm_decided signs_distinct generic_bias_signs quick_gelu /\
  postnorm_decided signs_distinct generic_bias_signs gelu_fast.

(** R5's "below width [n] a generic one never is" with any linear part [P]
    (bias-free; ReLU with [generic], the GELU family with rows pairwise not
    equal up to sign). *)
Definition R11p_below_any_skip : Prop :=
  (forall d n m P A B, generic d n A B -> (m < n)%nat -> ~ absorbable_ungated relu d n m P A B) /\
  skip_below_pm gelu /\ skip_below_pm gelu_tanh /\ skip_below_pm silu /\
  skip_below_pm quick_gelu /\ skip_below_pm gelu_fast.

(** "a post-LN block can be absorbable when its bare block is not": at
    [d = 2], [x + e_2 relu(x_1 - x_2)] ([B[:,S] A[S,:] = -I + 1 w^T],
    [w = e_1]) is absorbable at width 1 after a LayerNorm, not bare, and
    not after an RMSNorm. *)
Definition R11p_instance : Prop :=
  let A : mat := fun _ k => if Nat.eqb k 0 then 1 else -1 in
  let B : mat := fun k _ => if Nat.eqb k 0 then 0 else 1 in
  absorbable_postnorm_ungated (layer_norm 2 1 (fun _ => 1) (fun _ => 0)) relu 2 1 1 identity A B /\
  ~ absorbable_ungated relu 2 1 1 identity A B /\
  ~ absorbable_postnorm_ungated (rms_norm 2 1 (fun _ => 1) (fun _ => 0)) relu 2 1 1 identity A B.
