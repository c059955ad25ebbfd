(** * R5 as an equivalence, for every activation with a ridge matching

    [matching_absorbable_iff_submatrix]: for [sigma] with
    [sigma(z) - sigma(-z) = z] and a [ridge_matching] ([ReluSubmatrix.v]),
    a generic [x + B sigma(A x)] is absorbable at width [n] iff some subset
    [S] of hidden units has [B[:,S] A[S,:] = -I_d]: (=>) is
    [matching_absorbable_generic_submatrix], (<=) is [FlipSigns.v].
    The lemmas [iff_absorbable_side_1_1], [iff_not_absorbable_side_1_1],
    [below_width_instance_1_1] turn any such characterization into concrete
    instances of both sides ([d = n = 1]).
    [tent_act_instances]: for the activation [z/2 + tent z] every hypothesis
    of [even_ridge_matching] (ridge uniqueness included) is proved, so the
    even-part route applies beyond the paper's activations too. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations FlipSigns Geometry Ridge
  ReluSubmatrix.
Open Scope R_scope.

Section Iff.
  Context (sigma : R -> R) (Hodd : odd_part_identity sigma) (Hmatch : ridge_matching sigma).

  Theorem matching_absorbable_iff_submatrix : forall d n A B, generic d n A B ->
    (absorbable_ungated sigma d n n identity A B <-> exists S, submatrix_cond d n S A B).
  Proof.
    intros d n A B Hg. split.
    - exact (matching_absorbable_generic_submatrix sigma Hodd Hmatch d n A B Hg).
    - intros [S HS]. exact (odd_part_absorbable sigma d n S A B Hodd HS).
  Qed.
End Iff.

(** ** Non-vacuity: [d = n = 1], [A = 1], [B = -1] (absorbable) and [B = 1] (not) *)

Lemma generic_1_1 (b : R) : b <> 0 -> generic 1 1 (fun _ _ => 1) (fun _ _ => b).
Proof.
  intros Hb. split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row; lra].
  - intros i j Hi Hj Hne. lia.
  - intros i _. exists 0%nat. split; [lia | unfold col; exact Hb].
Qed.

(** For any activation with the characterization at every generic
    [(A, B)], the two sides at [d = n = 1], [A = 1]: [B = -1] is
    absorbable, [B = 1] is not; and width [m = 0] is too narrow for
    [A = B = 1].  Each activation's non-vacuity examples apply these. *)
Lemma iff_absorbable_side_1_1 (sigma : R -> R) :
  (forall d n A B, generic d n A B ->
     (absorbable_ungated sigma d n n identity A B <-> exists S, submatrix_cond d n S A B)) ->
  generic 1 1 (fun _ _ => 1) (fun _ _ => -1) /\
  (exists S, submatrix_cond 1 1 S (fun _ _ => 1) (fun _ _ => -1)) /\
  absorbable_ungated sigma 1 1 1 identity (fun _ _ => 1) (fun _ _ => -1).
Proof.
  intros Hiff.
  assert (Hg : generic 1 1 (fun _ _ => 1) (fun _ _ => -1)) by (apply generic_1_1; lra).
  assert (HS : exists S, submatrix_cond 1 1 S (fun _ _ => 1) (fun _ _ => -1)).
  { exists (fun _ => true). intros k l Hk Hl.
    assert (k = 0%nat) by lia. assert (l = 0%nat) by lia. subst k l.
    unfold subset_sum, identity. simpl. destruct (Nat.eq_dec 0 0); [ring | congruence]. }
  split; [exact Hg|]. split; [exact HS|].
  apply (Hiff 1%nat 1%nat _ _ Hg). exact HS.
Qed.

Lemma iff_not_absorbable_side_1_1 (sigma : R -> R) :
  (forall d n A B, generic d n A B ->
     (absorbable_ungated sigma d n n identity A B <-> exists S, submatrix_cond d n S A B)) ->
  generic 1 1 (fun _ _ => 1) (fun _ _ => 1) /\
  ~ (exists S, submatrix_cond 1 1 S (fun _ _ => 1) (fun _ _ => 1)) /\
  ~ absorbable_ungated sigma 1 1 1 identity (fun _ _ => 1) (fun _ _ => 1).
Proof.
  intros Hiff.
  assert (Hg : generic 1 1 (fun _ _ => 1) (fun _ _ => 1)) by (apply generic_1_1; lra).
  assert (HS : ~ exists S, submatrix_cond 1 1 S (fun _ _ => 1) (fun _ _ => 1)).
  { intros [S HS]. specialize (HS 0%nat 0%nat ltac:(lia) ltac:(lia)).
    unfold subset_sum, identity in HS. simpl in HS.
    destruct (Nat.eq_dec 0 0); [|congruence]. destruct (S 0%nat); lra. }
  split; [exact Hg|]. split; [exact HS|].
  rewrite (Hiff 1%nat 1%nat _ _ Hg). exact HS.
Qed.

Lemma below_width_instance_1_1 (sigma : R -> R) :
  (forall d n m A B, generic d n A B -> (m < n)%nat ->
     ~ absorbable_ungated sigma d n m identity A B) ->
  generic 1 1 (fun _ _ => 1) (fun _ _ => 1) /\ (0 < 1)%nat /\
  ~ absorbable_ungated sigma 1 1 0 identity (fun _ _ => 1) (fun _ _ => 1).
Proof.
  intros Hbelow.
  assert (Hg : generic 1 1 (fun _ _ => 1) (fun _ _ => 1)) by (apply generic_1_1; lra).
  split; [exact Hg|]. split; [lia|].
  exact (Hbelow 1%nat 1%nat 0%nat _ _ Hg ltac:(lia)).
Qed.

(** ** Non-vacuity of the even-part theorems of [ReluSubmatrix.v]

    The activation [z/2 + tent z] ([tent] of [Ridge.v]) satisfies every
    hypothesis, ridge uniqueness included, so
    [even_absorbable_generic_submatrix] applies to a concrete activation;
    with it, a generic block is absorbable, another is not. *)

Definition tent_act (z : R) : R := z / 2 + tent z.

Lemma tent_act_odd_part : odd_part_identity tent_act.
Proof. intros z. unfold tent_act. rewrite tent_even. field. Qed.

Lemma tent_act_0 : tent_act 0 = 0.
Proof. unfold tent_act. rewrite tent_0. field. Qed.

Lemma tent_act_ridge_unique : ridge_unique_even (even_part tent_act).
Proof.
  apply (ridge_unique_even_ext tent); [|exact ridge_unique_even_tent].
  intros z. unfold even_part, tent_act. field.
Qed.

Lemma tent_act_ridge_matching : ridge_matching tent_act.
Proof. exact (even_ridge_matching tent_act tent_act_odd_part tent_act_0 tent_act_ridge_unique). Qed.

Example tent_act_instances :
  (odd_part_identity tent_act /\ tent_act 0 = 0 /\ ridge_unique_even (even_part tent_act)) /\
  (generic 1 1 (fun _ _ => 1) (fun _ _ => -1) /\
   absorbable_ungated tent_act 1 1 1 identity (fun _ _ => 1) (fun _ _ => -1)) /\
  (generic 1 1 (fun _ _ => 1) (fun _ _ => 1) /\
   ~ absorbable_ungated tent_act 1 1 1 identity (fun _ _ => 1) (fun _ _ => 1)).
Proof.
  pose proof (matching_absorbable_iff_submatrix tent_act tent_act_odd_part tent_act_ridge_matching)
    as Hiff.
  destruct (iff_absorbable_side_1_1 tent_act Hiff) as [Hg1 [_ Ha]].
  destruct (iff_not_absorbable_side_1_1 tent_act Hiff) as [Hg2 [_ Hn]].
  split;
    [split; [exact tent_act_odd_part | split; [exact tent_act_0 | exact tent_act_ridge_unique]]|].
  split; split; assumption.
Qed.
