(** * R5, proved once for every activation with a ridge matching

    [R5_package sigma] collects what R5 says about one activation [sigma],
    for generic [(A, B)] (rows nonzero and pairwise linearly independent,
    columns nonzero):
    - the submatrix characterization: [x + B sigma(A x)] is absorbable at
      width [n] iff some [S] has [B[:,S] A[S,:] = -I];
    - below width [n] it is never absorbable;
    - the absorbable weights form a Lebesgue-null set at width [n], and at
      every width [m < n] (for [1 <= d] and [2 <= d \/ n <= 1]).
    [R5_of_matching]: every [sigma] with [sigma(z) - sigma(-z) = z] and a
    [ridge_matching] ([ReluSubmatrix.v]) has the whole package.  The
    projections [package_iff], [package_forward], [package_below],
    [package_null], [package_below_null] and the non-vacuity facts
    [package_instances] ([R5_instances]: both sides of the equivalence and
    the width bound at [d = n = 1]) give each activation its uniformly named
    theorems: here for ReLU ([relu_R5], [relu_absorbable_iff_submatrix],
    [relu_absorbable_null]), in [ridge/] for GELU, SiLU and GELU_tanh
    ([X_R5], [X_absorbable_iff_submatrix], [X_absorbable_generic_submatrix],
    [X_generic_not_absorbable_below], [X_absorbable_null]; below width [n]
    the null statement is [package_below_null X_R5]). *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations ParamSets FlipSigns Ridge
  ReluSubmatrix SubmatrixIff NullDisjointness.
Open Scope R_scope.

Definition R5_package (sigma : R -> R) : Prop :=
  (forall d n A B, generic d n A B ->
     (absorbable_ungated sigma d n n identity A B <-> exists S, submatrix_cond d n S A B)) /\
  (forall d n m A B, generic d n A B -> (m < n)%nat ->
     ~ absorbable_ungated sigma d n m identity A B) /\
  (forall d n, (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat ->
     params_null d n (fun A B => absorbable_ungated sigma d n n identity A B)) /\
  (forall d n m, (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat -> (m < n)%nat ->
     params_null d n (fun A B => absorbable_ungated sigma d n m identity A B)).

(** Concrete instances at [d = n = 1], [A = 1]: [B = -1] is absorbable at
    width 1, [B = 1] is not, nor at width 0. *)
Definition R5_instances (sigma : R -> R) : Prop :=
  (generic 1 1 (fun _ _ => 1) (fun _ _ => -1) /\
   (exists S, submatrix_cond 1 1 S (fun _ _ => 1) (fun _ _ => -1)) /\
   absorbable_ungated sigma 1 1 1 identity (fun _ _ => 1) (fun _ _ => -1)) /\
  (generic 1 1 (fun _ _ => 1) (fun _ _ => 1) /\
   ~ (exists S, submatrix_cond 1 1 S (fun _ _ => 1) (fun _ _ => 1)) /\
   ~ absorbable_ungated sigma 1 1 1 identity (fun _ _ => 1) (fun _ _ => 1)) /\
  (generic 1 1 (fun _ _ => 1) (fun _ _ => 1) /\
   ~ absorbable_ungated sigma 1 1 0 identity (fun _ _ => 1) (fun _ _ => 1)).

Theorem R5_of_matching sigma :
  odd_part_identity sigma -> ridge_matching sigma -> R5_package sigma.
Proof.
  intros Hodd Hmatch.
  pose proof (matching_not_absorbable_below sigma Hmatch) as Hbelow.
  split; [exact (matching_absorbable_iff_submatrix sigma Hodd Hmatch)|].
  split; [exact Hbelow|]. split.
  - intros d n Hd Hdn. apply absorbable_null_of_R5; [exact Hd | exact Hdn |].
    exact (matching_absorbable_generic_submatrix sigma Hodd Hmatch d n).
  - intros d n m Hd Hdn Hm. apply absorbable_below_null_of_generic; [exact Hd | exact Hdn |].
    intros A B Hg. exact (Hbelow d n m A B Hg Hm).
Qed.

(** Activations [z/2 + e], [e] even, with ridge uniqueness of [e]: GELU,
    GELU_tanh, SiLU ([ridge/]). *)
Theorem even_R5 sigma :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  R5_package sigma.
Proof.
  intros Hodd H0 Hu. exact (R5_of_matching sigma Hodd (even_ridge_matching sigma Hodd H0 Hu)).
Qed.

(** ** The uniform projections *)

Section Projections.
  Context {sigma : R -> R} (H : R5_package sigma).

  Theorem package_iff : forall d n A B, generic d n A B ->
    (absorbable_ungated sigma d n n identity A B <-> exists S, submatrix_cond d n S A B).
  Proof. exact (proj1 H). Qed.

  Theorem package_forward : forall d n A B, generic d n A B ->
    absorbable_ungated sigma d n n identity A B -> exists S, submatrix_cond d n S A B.
  Proof. intros d n A B Hg. exact (proj1 (package_iff d n A B Hg)). Qed.

  Theorem package_below : forall d n m A B, generic d n A B -> (m < n)%nat ->
    ~ absorbable_ungated sigma d n m identity A B.
  Proof. exact (proj1 (proj2 H)). Qed.

  Theorem package_null : forall d n, (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat ->
    params_null d n (fun A B => absorbable_ungated sigma d n n identity A B).
  Proof. exact (proj1 (proj2 (proj2 H))). Qed.

  Theorem package_below_null : forall d n m,
    (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat -> (m < n)%nat ->
    params_null d n (fun A B => absorbable_ungated sigma d n m identity A B).
  Proof. exact (proj2 (proj2 (proj2 H))). Qed.

  Theorem package_instances : R5_instances sigma.
  Proof.
    split; [exact (iff_absorbable_side_1_1 sigma package_iff)|].
    split; [exact (iff_not_absorbable_side_1_1 sigma package_iff)|].
    destruct (below_width_instance_1_1 sigma package_below) as [Hg [_ Hn]].
    split; assumption.
  Qed.
End Projections.

(** ** ReLU *)

(** The package from ReLU's matching, then the uniform names not already
    in [ReluSubmatrix.v] ([relu_absorbable_generic_submatrix],
    [relu_generic_not_absorbable_below]). *)
Definition relu_R5 : R5_package relu := R5_of_matching relu relu_odd_part relu_ridge_matching.
Definition relu_absorbable_iff_submatrix := package_iff relu_R5.
Definition relu_absorbable_null := package_null relu_R5.

Example relu_R5_instances : R5_instances relu := package_instances relu_R5.
