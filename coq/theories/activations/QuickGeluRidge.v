(** * R5 (=>) for quick_gelu, by rescaling SiLU (R10)

    [quick_gelu z = silu (c z) / c] with [c = 1.702], so its even part is
    [even_part quick_gelu z = (1/c) even_part silu (c z)].

    - [ridge_unique_even_rescale]: ridge uniqueness of [e] passes to
      [z |-> k e (c z)] for [c, k <> 0] (scale every row of [V] by [c]:
      nonzero rows stay nonzero, rows distinct up to sign stay so).
    - [quick_gelu_ridge_unique : ridge_unique_even (even_part quick_gelu)],
      from [SiluRidge.silu_ridge_unique].
    - R5 for quick_gelu: the whole package of [results/R5Package.v],
      [quick_gelu_R5], with the uniform names
      [quick_gelu_absorbable_iff_submatrix] (generic blocks at width [n]),
      [quick_gelu_absorbable_generic_submatrix],
      [quick_gelu_generic_not_absorbable_below], [quick_gelu_absorbable_null]
      (the below-width null statement is [package_below_null quick_gelu_R5]); non-vacuity
      [quick_gelu_R5_instances] (both sides of the equivalence, width bound). *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix.
From Absorb Require Import R5Package SiluRidge.
From Absorb Require Import MoreActivationDefs MoreActivations.
Open Scope R_scope.

(** ** Rescaling preserves ridge uniqueness *)

(** Every row of [V] multiplied by [c]. *)
Definition scale_rows (c : R) (V : mat) : mat := fun i l => c * V i l.

Lemma dot_scale_row d c V j x : dot d (row (scale_rows c V) j) x = c * dot d (row V j) x.
Proof.
  unfold dot, row, scale_rows. rewrite <- sumn_scal_l. apply sumn_ext. intros; ring.
Qed.

Lemma scale_rows_nonzero d c V j : c <> 0 ->
  nonzero_vec d (row V j) -> nonzero_vec d (row (scale_rows c V) j).
Proof.
  intros Hc [k [Hk Hv]]. exists k. split; [exact Hk|].
  unfold row, scale_rows. apply Rmult_integral_contrapositive. split; assumption.
Qed.

Lemma scale_rows_sign d c V i j : c <> 0 ->
  same_up_to_sign d (row (scale_rows c V) i) (row (scale_rows c V) j) ->
  same_up_to_sign d (row V i) (row V j).
Proof.
  unfold same_up_to_sign, row, scale_rows. intros Hc [H|H]; [left|right];
    intros k Hk; specialize (H k Hk); apply (Rmult_eq_reg_l c); [lra | exact Hc | lra | exact Hc].
Qed.

Theorem ridge_unique_even_rescale (e : R -> R) (c k : R) :
  c <> 0 -> k <> 0 -> ridge_unique_even e -> ridge_unique_even (fun z => k * e (c * z)).
Proof.
  intros Hc Hk He d N V beta Hnz Hind Hs j Hj.
  assert (H : k * beta j = 0).
  { apply (He d N (scale_rows c V) (fun i => k * beta i)); [| | | exact Hj].
    - intros i Hi. apply scale_rows_nonzero; [exact Hc | exact (Hnz i Hi)].
    - intros i l Hi Hl Hne Hsg. exact (Hind i l Hi Hl Hne (scale_rows_sign d c V i l Hc Hsg)).
    - intros x. rewrite <- (Hs x). apply sumn_ext. intros i _.
      rewrite dot_scale_row. ring. }
  apply Rmult_integral in H. destruct H as [H|H]; [contradiction | exact H].
Qed.

(** ** quick_gelu *)

Lemma quick_gelu_even_silu z :
  even_part quick_gelu z = / quick_gelu_scale * even_part silu (quick_gelu_scale * z).
Proof.
  unfold even_part. rewrite quick_gelu_silu. pose proof quick_gelu_scale_pos. field. lra.
Qed.

Theorem quick_gelu_ridge_unique : ridge_unique_even (even_part quick_gelu).
Proof.
  pose proof quick_gelu_scale_pos as Hc.
  apply
    (ridge_unique_even_ext (fun z => / quick_gelu_scale * even_part silu (quick_gelu_scale * z))).
  - intros z. symmetry. apply quick_gelu_even_silu.
  - apply ridge_unique_even_rescale; [lra | apply Rinv_neq_0_compat; lra | exact silu_ridge_unique].
Qed.

(** ** R5 for quick_gelu: the whole package of [results/R5Package.v] *)

Definition quick_gelu_R5 : R5_package quick_gelu :=
  even_R5 quick_gelu quick_gelu_odd_part quick_gelu_zero quick_gelu_ridge_unique.
Definition quick_gelu_absorbable_iff_submatrix := package_iff quick_gelu_R5.
Definition quick_gelu_absorbable_generic_submatrix := package_forward quick_gelu_R5.
Definition quick_gelu_generic_not_absorbable_below := package_below quick_gelu_R5.
Definition quick_gelu_absorbable_null := package_null quick_gelu_R5.

(** ** Non-vacuity *)

(** The rescaling lemma's side conditions hold for quick_gelu's constants. *)
Example quick_gelu_rescale_constants :
  quick_gelu_scale <> 0 /\ / quick_gelu_scale <> 0 /\ ridge_unique_even (even_part silu).
Proof.
  pose proof quick_gelu_scale_pos. split; [lra|]. split; [apply Rinv_neq_0_compat; lra|].
  exact silu_ridge_unique.
Qed.

(** Both sides of the equivalence and the width bound: [d = n = 1], [A = 1];
    [B = -1] is absorbable, [B = 1] is not, nor at width 0. *)
Example quick_gelu_R5_instances : R5_instances quick_gelu := package_instances quick_gelu_R5.
