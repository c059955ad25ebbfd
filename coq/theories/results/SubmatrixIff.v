(** * R5 for ReLU: the submatrix characterization

    For generic [(A, B)] (rows [a_i <> 0], pairwise linearly independent,
    columns [b_i <> 0]), [x + B relu(A x)] is absorbable at width [n] iff
    some subset [S] of hidden units has [B[:,S] A[S,:] = -I_d]
    ([relu_absorbable_iff_submatrix]).  (=>) is [ReluSubmatrix.v], (<=) is
    [FlipSigns.v].  Both sides are realised by concrete generic instances.

    GELU and GELU_tanh: the same characterization, and non-absorbability
    below width [n], under the explicit hypothesis that their even part has
    the ridge uniqueness property [ridge_unique_even] of [Ridge.v]
    ([gelu_absorbable_iff_submatrix], [gelu_tanh_absorbable_iff_submatrix],
    [gelu_generic_not_absorbable_below]); that hypothesis is NOT proved.
    [tent_act_instances]: for the activation [z/2 + tent z] every hypothesis
    of the even-part theorems (ridge uniqueness included) is proved. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations FlipSigns Geometry Ridge
  ReluSubmatrix.
Open Scope R_scope.

Theorem relu_absorbable_iff_submatrix : forall d n A B, generic d n A B ->
  (absorbable_ungated relu d n n identity A B <-> exists S, submatrix_cond d n S A B).
Proof.
  intros d n A B Hg. split.
  - exact (relu_absorbable_generic_submatrix d n A B Hg).
  - intros [S HS]. exact (odd_part_absorbable relu d n S A B relu_odd_part HS).
Qed.

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

Example relu_iff_absorbable_side :
  generic 1 1 (fun _ _ => 1) (fun _ _ => -1) /\
  (exists S, submatrix_cond 1 1 S (fun _ _ => 1) (fun _ _ => -1)) /\
  absorbable_ungated relu 1 1 1 identity (fun _ _ => 1) (fun _ _ => -1).
Proof. exact (iff_absorbable_side_1_1 relu relu_absorbable_iff_submatrix). Qed.

Example relu_iff_not_absorbable_side :
  generic 1 1 (fun _ _ => 1) (fun _ _ => 1) /\
  ~ (exists S, submatrix_cond 1 1 S (fun _ _ => 1) (fun _ _ => 1)) /\
  ~ absorbable_ungated relu 1 1 1 identity (fun _ _ => 1) (fun _ _ => 1).
Proof. exact (iff_not_absorbable_side_1_1 relu relu_absorbable_iff_submatrix). Qed.

(** ** GELU and GELU_tanh, under ridge uniqueness of their even parts *)

Lemma gelu_zero : gelu 0 = 0.
Proof. unfold gelu. ring. Qed.

Lemma gelu_tanh_zero : gelu_tanh 0 = 0.
Proof. unfold gelu_tanh. field. Qed.

Lemma even_part_gelu z : gelu_even z = even_part gelu z.
Proof. unfold even_part. rewrite gelu_split. ring. Qed.

Theorem gelu_absorbable_generic_submatrix : forall d n A B,
  ridge_unique_even gelu_even -> generic d n A B ->
  absorbable_ungated gelu d n n identity A B -> exists S, submatrix_cond d n S A B.
Proof.
  intros d n A B Hu. apply (even_absorbable_generic_submatrix gelu d n A B gelu_odd_part gelu_zero).
  exact (ridge_unique_even_ext _ _ even_part_gelu Hu).
Qed.

Theorem gelu_absorbable_iff_submatrix : forall d n A B,
  ridge_unique_even gelu_even -> generic d n A B ->
  (absorbable_ungated gelu d n n identity A B <-> exists S, submatrix_cond d n S A B).
Proof.
  intros d n A B Hu Hg. split.
  - exact (gelu_absorbable_generic_submatrix d n A B Hu Hg).
  - intros [S HS]. exact (odd_part_absorbable gelu d n S A B gelu_odd_part HS).
Qed.

Theorem gelu_generic_not_absorbable_below : forall d n m A B,
  ridge_unique_even gelu_even -> generic d n A B -> (m < n)%nat ->
  ~ absorbable_ungated gelu d n m identity A B.
Proof.
  intros d n m A B Hu. apply (even_generic_not_absorbable_below gelu d n m A B gelu_odd_part gelu_zero).
  exact (ridge_unique_even_ext _ _ even_part_gelu Hu).
Qed.

Theorem gelu_tanh_absorbable_iff_submatrix : forall d n A B,
  ridge_unique_even (even_part gelu_tanh) -> generic d n A B ->
  (absorbable_ungated gelu_tanh d n n identity A B <-> exists S, submatrix_cond d n S A B).
Proof.
  intros d n A B Hu Hg. split.
  - exact (even_absorbable_generic_submatrix gelu_tanh d n A B gelu_tanh_odd_part gelu_tanh_zero
             Hu Hg).
  - intros [S HS]. exact (odd_part_absorbable gelu_tanh d n S A B gelu_tanh_odd_part HS).
Qed.

Theorem gelu_tanh_generic_not_absorbable_below : forall d n m A B,
  ridge_unique_even (even_part gelu_tanh) -> generic d n A B -> (m < n)%nat ->
  ~ absorbable_ungated gelu_tanh d n m identity A B.
Proof.
  intros d n m A B Hu.
  exact (even_generic_not_absorbable_below gelu_tanh d n m A B gelu_tanh_odd_part gelu_tanh_zero Hu).
Qed.

(** The hypotheses other than ridge uniqueness hold together: a generic
    instance absorbable for GELU.  (Ridge uniqueness itself is not proved.) *)
Example gelu_absorbable_instance :
  generic 1 1 (fun _ _ => 1) (fun _ _ => -1) /\
  absorbable_ungated gelu 1 1 1 identity (fun _ _ => 1) (fun _ _ => -1).
Proof.
  split; [apply generic_1_1; lra|].
  apply (odd_part_absorbable gelu 1 1 (fun _ => true)); [exact gelu_odd_part|].
  intros k l Hk Hl. assert (k = 0%nat) by lia. assert (l = 0%nat) by lia. subst k l.
  unfold subset_sum, identity. simpl. destruct (Nat.eq_dec 0 0); [ring | congruence].
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

Example tent_act_instances :
  (odd_part_identity tent_act /\ tent_act 0 = 0 /\ ridge_unique_even (even_part tent_act)) /\
  (generic 1 1 (fun _ _ => 1) (fun _ _ => -1) /\
   absorbable_ungated tent_act 1 1 1 identity (fun _ _ => 1) (fun _ _ => -1)) /\
  (generic 1 1 (fun _ _ => 1) (fun _ _ => 1) /\
   ~ absorbable_ungated tent_act 1 1 1 identity (fun _ _ => 1) (fun _ _ => 1)).
Proof.
  destruct relu_iff_absorbable_side as [Hg1 [HS1 _]].
  destruct relu_iff_not_absorbable_side as [Hg2 [HS2 _]].
  split; [split; [exact tent_act_odd_part | split; [exact tent_act_0 | exact tent_act_ridge_unique]]|].
  split; split; try assumption.
  - destruct HS1 as [S HS]. exact (odd_part_absorbable tent_act 1 1 S _ _ tent_act_odd_part HS).
  - intros Habs. apply HS2.
    exact (even_absorbable_generic_submatrix tent_act 1 1 _ _ tent_act_odd_part tent_act_0
             tent_act_ridge_unique Hg2 Habs).
Qed.
