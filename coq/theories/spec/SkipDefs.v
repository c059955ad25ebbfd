(** * Statements with any linear part [P] (definitions only; used by [Paper.v])

    Predicates over an activation [sigma] for the results that keep the
    linear part [P] of the residual block general (singular allowed; R1
    reduces only invertible skips): R5/R9's submatrix condition
    [B[:,S] A[S,:] = -P], R8/R9's decision at every width, and the
    post-LayerNorm forms, whose bare block has the singular skip [C P]
    ([C = I - 1 1^T / d]).  Nothing is proved here. *)

From Coq Require Import Reals.
From Absorb Require Import SumDefs BlockDefs BiasBlocks RidgeForm BiasSpec Norms.
Open Scope R_scope.

(** (beyond) R9 with any linear part [P] in place of [I] (singular allowed:
    R1 reduces only invertible skips): generic with biases, absorbable at
    width [n] iff some [S] has [B[:,S] A[S,:] = -P], and never below width
    [n].  The GELU family: GELU, GELU_tanh, SiLU and R10's quick_gelu,
    gelu_fast. *)
Definition skip_bias_characterization (generic_b : nat -> nat -> mat -> vec -> mat -> Prop)
    (sigma : R -> R) : Prop :=
  (forall d n P A c B b0, generic_b d n A c B ->
     (absorbable_ungated_bias sigma d n n P A c B b0 <->
      exists S, forall k l, (k < d)%nat -> (l < d)%nat -> subset_sum n S A B k l = - P k l)) /\
  (forall d n m P A c B b0, generic_b d n A c B -> (m < n)%nat ->
     ~ absorbable_ungated_bias sigma d n m P A c B b0).

(** R5 for the GELU family with any linear part [P] (singular allowed),
    bias-free, under the weaker genericity natural for these activations
    (rows nonzero and pairwise not equal up to sign, columns nonzero;
    [generic] implies it): absorbable at width [n] iff some [S] has
    [B[:,S] A[S,:] = -P]. *)
Definition skip_characterization_pm (sigma : R -> R) : Prop :=
  forall d n P A B, signs_distinct d n A -> (forall i, (i < n)%nat -> nonzero_vec d (col B i)) ->
    (absorbable_ungated sigma d n n P A B <->
     exists S, forall k l, (k < d)%nat -> (l < d)%nat -> subset_sum n S A B k l = - P k l).

(** Never below width [n], any linear part [P], bias-free, rows nonzero and
    pairwise not equal up to sign, columns nonzero. *)
Definition skip_below_pm (sigma : R -> R) : Prop :=
  forall d n m P A B, signs_distinct d n A -> (forall i, (i < n)%nat -> nonzero_vec d (col B i)) ->
    (m < n)%nat -> ~ absorbable_ungated sigma d n m P A B.

(** The generic post-norm forms for the GELU family: bias-free (rows of [A]
    nonzero and pairwise not equal up to sign, columns of [C B] (LayerNorm)
    or [B] (RMSNorm) nonzero) and with biases ([generic_bias_signs]). *)
Definition postnorm_generic_pm (sigma : R -> R) : Prop :=
  (forall d n eps gamma beta P A B, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
     signs_distinct d n A ->
     (forall i, (i < n)%nat -> nonzero_vec d (col (mm d (centering d) B) i)) ->
     (absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n n P A B <->
      exists S, forall k l, (k < d)%nat -> (l < d)%nat ->
        mm d (centering d) (fun k' l' => P k' l' + subset_sum n S A B k' l') k l = 0)) /\
  (forall d n eps gamma beta P A B, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
     signs_distinct d n A -> (forall i, (i < n)%nat -> nonzero_vec d (col B i)) ->
     (absorbable_postnorm_ungated (rms_norm d eps gamma beta) sigma d n n P A B <->
      exists S, forall k l, (k < d)%nat -> (l < d)%nat -> subset_sum n S A B k l = - P k l)) /\
  (forall d n eps gamma beta P A c B b0, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
     generic_bias_signs d n A c (mm d (centering d) B) ->
     (absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n n P A c B b0 <->
      exists S, forall k l, (k < d)%nat -> (l < d)%nat ->
        mm d (centering d) (fun k' l' => P k' l' + subset_sum n S A B k' l') k l = 0)) /\
  (forall d n eps gamma beta P A c B b0, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
     generic_bias_signs d n A c B ->
     (absorbable_postnorm_ungated_bias (rms_norm d eps gamma beta) sigma d n n P A c B b0 <->
      exists S, forall k l, (k < d)%nat -> (l < d)%nat -> subset_sum n S A B k l = - P k l)).

(** (beyond) "Reduce the skip to [I] by R1" needs [P] invertible; the
    statement without that reduction: for every linear part [P] (singular
    allowed), every block [P x + B sigma(A x)] equals a canonical ridge form
    whose width condition decides absorbability at every width.  [distinct]
    is [lines_distinct] (ReLU) or [signs_distinct] (the GELU family). *)
Definition decided_any_skip (distinct : nat -> nat -> mat -> Prop) (sigma : R -> R) : Prop :=
  forall d n (P A B : mat), exists k (U G L : mat),
    (k <= n)%nat /\ distinct d k U /\ nonzero_cols d k G /\
    same_fun d (residual d P (ungated sigma d n A B)) (ridge_form sigma d k U G L) /\
    forall m, absorbable_ungated sigma d n m P A B <-> width_condition d k m U G L.

(** (beyond) R9's decision with any linear part [P] (singular allowed):
    every biased block [P x + B sigma(A x + c) + b0] equals a canonical
    biased ridge form whose width condition decides absorbability at every
    width (ReLU: classes are lines; the GELU family: classes up to sign). *)
Definition bias_decided_any_skip (generic_b : nat -> nat -> mat -> vec -> mat -> Prop)
    (sigma : R -> R) : Prop :=
  forall d n P A c B b0, exists k U s (G L : mat) l0,
    (k <= n)%nat /\ generic_b d k U s G /\
    same_fun d (residual d P (ungated_bias sigma d n A c B b0))
               (bias_ridge_form sigma d k U s G L l0) /\
    forall m, absorbable_ungated_bias sigma d n m P A c B b0 <-> width_condition d k m U G L.

(** "so the post-LN block is absorbable at width [m] iff the bare block with
    the singular skip [C P], down-projection [C B] and output bias [C b0]
    is -- decided by R8/R9": every post-LayerNorm block ([gamma_i <> 0],
    [eps > 0]), bias-free or with biases, at every width [m], by the width
    condition of a canonical form of that bare block. *)
Definition postln_decided (distinct : nat -> nat -> mat -> Prop) (sigma : R -> R) : Prop :=
  forall d n eps gamma beta (P A B : mat), 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    exists k (U G L : mat), (k <= n)%nat /\ distinct d k U /\ nonzero_cols d k G /\
      same_fun d (residual d (mm d (centering d) P) (ungated sigma d n A (mm d (centering d) B)))
                 (ridge_form sigma d k U G L) /\
      forall m, absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n m P A B <->
                width_condition d k m U G L.

Definition postln_bias_decided (generic_b : nat -> nat -> mat -> vec -> mat -> Prop)
    (sigma : R -> R) : Prop :=
  forall d n eps gamma beta P A c B b0, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_b d k U s G /\
      same_fun d (residual d (mm d (centering d) P)
                    (ungated_bias sigma d n A c (mm d (centering d) B) (mv d (centering d) b0)))
                 (bias_ridge_form sigma d k U s G L l0) /\
      forall m, absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n m
                  P A c B b0 <-> width_condition d k m U G L.

(** Post-RMSNorm: the canonical form of the bare block itself decides. *)
Definition postrms_decided (distinct : nat -> nat -> mat -> Prop) (sigma : R -> R) : Prop :=
  forall d n eps gamma beta (P A B : mat), 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    exists k (U G L : mat), (k <= n)%nat /\ distinct d k U /\ nonzero_cols d k G /\
      same_fun d (residual d P (ungated sigma d n A B)) (ridge_form sigma d k U G L) /\
      forall m, absorbable_postnorm_ungated (rms_norm d eps gamma beta) sigma d n m P A B <->
                width_condition d k m U G L.

Definition postrms_bias_decided (generic_b : nat -> nat -> mat -> vec -> mat -> Prop)
    (sigma : R -> R) : Prop :=
  forall d n eps gamma beta P A c B b0, 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_b d k U s G /\
      same_fun d (residual d P (ungated_bias sigma d n A c B b0))
                 (bias_ridge_form sigma d k U s G L l0) /\
      forall m, absorbable_postnorm_ungated_bias (rms_norm d eps gamma beta) sigma d n m
                  P A c B b0 <-> width_condition d k m U G L.

(** All four: post-LN and post-RMSNorm, bias-free and with biases. *)
Definition postnorm_decided (distinct : nat -> nat -> mat -> Prop)
    (generic_b : nat -> nat -> mat -> vec -> mat -> Prop) (sigma : R -> R) : Prop :=
  postln_decided distinct sigma /\ postln_bias_decided generic_b sigma /\
  postrms_decided distinct sigma /\ postrms_bias_decided generic_b sigma.
