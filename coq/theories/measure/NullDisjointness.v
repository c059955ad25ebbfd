(** * R6: almost every residual block is not absorbable at its own width

    With the Lebesgue-null sets of [spec/ParamSets.v] ([params_null d n T]:
    the weights [(A, B)] with [T A B] form a null set of
    [R^(n*d) x R^(d*n)]):
    - [null_union], [params_null_mono]: null sets are closed under finite
      unions and subsets;
    - [bad_null]: the bad set [Z ∪ non-generic] of [GenericDisjointness.v]
      is null for [1 <= d] and [2 <= d \/ n <= 1] (the hypotheses of
      [generic_disjointness]);
    - [absorbable_null_of_R5]: for any activation for which R5 (=>) holds
      (generic and absorbable at width [n] imply the submatrix condition),
      the weights for which [x + B sigma(A x)] is absorbable at width [n]
      form a null set (same hypotheses on [d], [n]);
    - [absorbable_below_null_of_generic]: likewise at widths [m < n] when
      generic blocks are never absorbable there.
    The instances for ReLU, GELU, GELU_tanh, SiLU ([relu_absorbable_null],
    ...) come with the R5 package ([results/R5Package.v], [ridge/]).
    So for almost every [(A, B)] skip-connected and residual-free MLPs of the
    same width are disjoint (the paper's "generic disjointness", R6).
    Non-vacuity: [absorbable_example_2] is an absorbable point for [d = 2];
    [relu_absorbable_null_instance]. *)

From Coq Require Import Reals Lra Lia List Classical.
From Absorb Require Import Sums Blocks ActivationDefs Activations FlipSigns ParamSets NonGeneric
  NullSetCover NullSet.
From Absorb Require Import ReluSubmatrix GenericDisjointness.
Import ListNotations.
Open Scope R_scope.

Lemma null_mono cs (E F : (key -> R) -> Prop) :
  (forall p, E p -> F p) -> lebesgue_null cs F -> lebesgue_null cs E.
Proof.
  intros HEF HF eps Heps. destruct (HF eps Heps) as [cover [Hp [Hc Hs]]].
  exists cover. split; [exact Hp|]. split; [|exact Hs].
  intros p Hx. apply Hc, HEF, Hx.
Qed.

Lemma null_union cs (E F : (key -> R) -> Prop) :
  lebesgue_null cs E -> lebesgue_null cs F -> lebesgue_null cs (fun p => E p \/ F p).
Proof.
  intros HE HF eps Heps.
  destruct (HE (eps / 2) ltac:(lra)) as [c1 [Hp1 [Hc1 Hs1]]].
  destruct (HF (eps / 2) ltac:(lra)) as [c2 [Hp2 [Hc2 Hs2]]].
  exists (fun m => c1 m ++ c2 m). split; [|split].
  - intros m b Hb. apply in_app_or in Hb. destruct Hb as [Hb|Hb]; [apply (Hp1 m) | apply (Hp2 m)];
      exact Hb.
  - intros p [Hx|Hx].
    + destruct (Hc1 p Hx) as [m [b [Hb Hin]]]. exists m, b.
      split; [apply in_or_app; left|]; assumption.
    + destruct (Hc2 p Hx) as [m [b [Hb Hin]]]. exists m, b.
      split; [apply in_or_app; right|]; assumption.
  - intros M. rewrite (sumn_ext M _ (fun m => total_volume cs (c1 m) + total_volume cs (c2 m)))
      by (intros; apply total_volume_app).
    rewrite sumn_plus. pose proof (Hs1 M). pose proof (Hs2 M). lra.
Qed.

Lemma params_null_mono d n (T U : mat -> mat -> Prop) :
  (forall A B, T A B -> U A B) -> params_null d n U -> params_null d n T.
Proof. intros H. apply null_mono. intros p. apply H. Qed.

Theorem bad_null d n : (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat -> params_null d n (bad d n).
Proof.
  intros Hd Hdn. unfold params_null, bad. apply null_union.
  - apply Z_null. exact Hd.
  - apply nongeneric_null; assumption.
Qed.

(** ** Absorbable blocks are rare *)

Theorem absorbable_null_of_R5 (sigma : R -> R) d n :
  (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat ->
  (forall A B, generic d n A B -> absorbable_ungated sigma d n n identity A B -> in_Z d n A B) ->
  params_null d n (fun A B => absorbable_ungated sigma d n n identity A B).
Proof.
  intros Hd Hdn HR5. apply (params_null_mono d n _ (bad d n)); [|apply bad_null; assumption].
  intros A B Habs. destruct (classic (generic d n A B)) as [Hg|Hng].
  - left. exact (HR5 A B Hg Habs).
  - right. exact Hng.
Qed.

Theorem absorbable_below_null_of_generic (sigma : R -> R) d n m :
  (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat ->
  (forall A B, generic d n A B -> ~ absorbable_ungated sigma d n m identity A B) ->
  params_null d n (fun A B => absorbable_ungated sigma d n m identity A B).
Proof.
  intros Hd Hdn Hgen.
  apply (params_null_mono d n _ (nongeneric d n)); [|apply nongeneric_null; assumption].
  intros A B Habs Hg. exact (Hgen A B Hg Habs).
Qed.

(** ** Non-vacuity *)

(** [d = n = 2], [A = I], [B = -I]: absorbable (for every [sigma] with
    [sigma(z) - sigma(-z) = z]), so the null sets above are not empty. *)
Lemma submatrix_example_2 :
  submatrix_cond 2 2 (fun _ => true) identity (fun k i => - identity k i).
Proof.
  intros k l Hk Hl. unfold subset_sum, identity. simpl.
  destruct k as [|[|k]]; [| |lia]; destruct l as [|[|l]]; [| | lia | | | lia]; simpl; ring.
Qed.

Example absorbable_example_2 :
  absorbable_ungated relu 2 2 2 identity identity (fun k i => - identity k i).
Proof. exact (odd_part_absorbable relu 2 2 _ _ _ relu_odd_part submatrix_example_2). Qed.

Example relu_absorbable_null_instance :
  params_null 2 2 (fun A B => absorbable_ungated relu 2 2 2 identity A B) :=
  absorbable_null_of_R5 relu 2 2 ltac:(lia) ltac:(lia) (relu_absorbable_generic_submatrix 2 2).
