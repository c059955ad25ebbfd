(** * R8 / R8' (<=): non-vacuity instances

    Concrete blocks on which the hypotheses of the headline theorems of
    [GroupingSound.v], [WidthSufficient.v] and [R8Absorbable.v] hold.

    - ReLU: the paper's counterexample [d = 1], [a = (1, 2)], [b = (1, 1)]
      ([A0], [B0] of [Counterexamples.v]) has the grouping [k = 1], [u = (1)],
      [lam = (1, 2)], [gamma = 3], [L = I]; R8's width condition holds at
      width 2 with [T = {0}]; so the block is absorbable at width 2, though no
      subset satisfies R5's submatrix condition
      ([paper_counterexample_via_R8]).
    - GELU: [d = 1], [a = (1, -1)], [b = (1, 3)] has the grouping [k = 1],
      [lam = (1, -1)], [gamma = 4], [L = -2]; it is absorbable at width 2,
      and no subset satisfies the submatrix condition
      ([gelu_example_beyond_R5]). *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks ActivationDefs Activations Counterexamples FlipSigns.
From Absorb.decide Require Import RidgeForm GroupingSound WidthSufficient R8Absorbable.
Open Scope R_scope.

(** ** ReLU: the paper's counterexample *)

Definition ex_cls : nat -> nat := fun _ => 0%nat.
Definition ex_lam : nat -> R := fun i => A0 i 0%nat.
Definition ex_G3 : mat := fun _ _ => 3.

Example A0_B0_grouping : grouping 1 2 1 A0 B0 dim1_U ex_G3 identity ex_cls ex_lam.
Proof.
  split; [|split; [|split]].
  - intros i Hi _. unfold ex_lam, dim1_U, ex_cls.
    split; [unfold A0; destruct (Nat.eqb i 0); lra|].
    intros j Hj. unfold A0. destruct (Nat.eqb i 0); ring.
  - intros i _ Hk. unfold ex_cls in Hk. lia.
  - intros p t _ Ht. replace t with 0%nat by lia.
    unfold ex_G3, ex_cls, ex_lam, A0, B0. simpl.
    destruct (Nat.eq_dec 0 0); [|congruence].
    rewrite Rabs_R1, (Rabs_pos_eq 2) by lra. ring.
  - intros p q _ _. unfold ex_cls. simpl.
    unfold ex_lam, A0. simpl. destruct (Rlt_dec 1 0); [lra|]. destruct (Rlt_dec 2 0); [lra|].
    ring.
Qed.

Example A0_B0_ridge_form :
  same_fun 1 (residual 1 identity (ungated relu 1 2 A0 B0))
    (ridge_form relu 1 1 dim1_U ex_G3 identity).
Proof.
  exact (grouping_sound_relu 1 2 1 A0 B0 dim1_U ex_G3 identity ex_cls ex_lam A0_B0_grouping).
Qed.

Example A0_B0_width_condition : width_condition 1 1 2 dim1_U ex_G3 identity.
Proof. apply dim1_width_condition; [reflexivity | lia]. Qed.

Example ridge_3_relu_width_2 :
  exists A' B' : mat,
    same_fun 1 (ungated relu 1 2 A' B') (ridge_form relu 1 1 dim1_U ex_G3 identity).
Proof.
  exact
    (width_condition_sufficient relu 1 1 2 dim1_U ex_G3 identity relu_odd_part
      A0_B0_width_condition).
Qed.

Example ridge_3_wide :
  exists A' B' : mat,
    same_fun 1 (ungated relu 1 3 A' B') (ridge_form relu 1 1 dim1_U ex_G3 identity).
Proof. apply ridge_absorbable_wide; [exact relu_odd_part | lia]. Qed.

Example A0_B0_absorbable_via_width : absorbable_ungated relu 1 2 2 identity A0 B0.
Proof.
  exact (absorbable_of_width_condition 1 2 1 2 A0 B0 dim1_U ex_G3 identity ex_cls ex_lam
           A0_B0_grouping A0_B0_width_condition).
Qed.

Example A0_B0_absorbable_wide : absorbable_ungated relu 1 2 3 identity A0 B0.
Proof.
  exact (relu_absorbable_of_grouping_wide 1 2 1 3 A0 B0 dim1_U ex_G3 identity ex_cls ex_lam
           A0_B0_grouping ltac:(lia)).
Qed.

(** The paper's counterexample, as a corollary of the [d = 1] theorem. *)
Example paper_counterexample_via_R8 :
  absorbable_ungated relu 1 2 2 identity A0 B0 /\ (forall S, ~ submatrix_cond 1 2 S A0 B0).
Proof. split; [exact (relu_dim1_absorbable 2 2 A0 B0 ltac:(lia)) | exact A0_B0_no_subset]. Qed.

(** A [d = 1] block of width 5 with a zero row, absorbed at width 2. *)
Definition ex_A5 : mat := fun i _ => INR i - 2.
Definition ex_B5 : mat := fun _ i => INR i + 1.

Example dim1_width5_absorbable : absorbable_ungated relu 1 5 2 identity ex_A5 ex_B5.
Proof. apply relu_dim1_absorbable. lia. Qed.

(** R5 (<=) recovered from R8 on [FlipSigns.v]'s instance. *)
Example submatrix_example_via_width : absorbable_ungated relu 1 2 2 identity ex_A ex_B.
Proof. exact (submatrix_absorbable_via_width 1 2 ex_S ex_A ex_B submatrix_example). Qed.

(** ** GELU: [a = (1, -1)], [b = (1, 3)] *)

Definition gA : mat := fun i _ => if Nat.eqb i 0 then 1 else -1.
Definition gB : mat := fun _ i => if Nat.eqb i 0 then 1 else 3.
Definition g_lam : nat -> R := fun i => gA i 0%nat.
Definition g_G : mat := fun _ _ => 4.
Definition g_L : mat := fun _ _ => -2.

Example gA_gB_grouping_pm : grouping_pm 1 2 1 gA gB dim1_U g_G g_L ex_cls g_lam.
Proof.
  split; [split; [|split; [|split]]|].
  - intros i Hi _. unfold g_lam, dim1_U, ex_cls.
    split; [unfold gA; destruct (Nat.eqb i 0); lra|].
    intros j Hj. unfold gA. destruct (Nat.eqb i 0); ring.
  - intros i _ Hk. unfold ex_cls in Hk. lia.
  - intros p t _ Ht. replace t with 0%nat by lia.
    unfold g_G, ex_cls, g_lam, gA, gB. simpl.
    destruct (Nat.eq_dec 0 0); [|congruence].
    rewrite Rabs_R1, (Rabs_left (-1)) by lra. ring.
  - intros p q Hp Hq. replace p with 0%nat by lia. replace q with 0%nat by lia.
    unfold g_L, identity, ex_cls, g_lam, gA, gB, dim1_U. simpl.
    destruct (Rlt_dec 1 0); [lra|]. destruct (Rlt_dec (-1) 0); [|lra].
    rewrite (Rabs_left (-1)) by lra. ring.
  - intros i Hi _. unfold g_lam, gA. destruct (Nat.eqb i 0); [left | right]; reflexivity.
Qed.

Example gA_gB_ridge_form :
  same_fun 1 (residual 1 identity (ungated gelu 1 2 gA gB)) (ridge_form gelu 1 1 dim1_U g_G g_L).
Proof. exact (grouping_sound_gelu 1 2 1 gA gB dim1_U g_G g_L ex_cls g_lam gA_gB_grouping_pm). Qed.

Example gA_gB_ridge_form_silu :
  same_fun 1 (residual 1 identity (ungated silu 1 2 gA gB)) (ridge_form silu 1 1 dim1_U g_G g_L).
Proof. exact (grouping_sound_silu 1 2 1 gA gB dim1_U g_G g_L ex_cls g_lam gA_gB_grouping_pm). Qed.

Example gA_gB_absorbable : absorbable_ungated gelu 1 2 2 identity gA gB.
Proof.
  apply (gelu_absorbable_of_width_condition 1 2 1 2 gA gB dim1_U g_G g_L ex_cls g_lam
           gA_gB_grouping_pm).
  apply dim1_width_condition; [reflexivity | lia].
Qed.

Example gA_gB_absorbable_gelu_tanh : absorbable_ungated gelu_tanh 1 2 2 identity gA gB.
Proof.
  apply (gelu_tanh_absorbable_of_width_condition 1 2 1 2 gA gB dim1_U g_G g_L ex_cls g_lam
           gA_gB_grouping_pm).
  apply dim1_width_condition; [reflexivity | lia].
Qed.

Lemma gA_gB_no_subset S : ~ submatrix_cond 1 2 S gA gB.
Proof.
  intros H. specialize (H 0%nat 0%nat ltac:(lia) ltac:(lia)).
  unfold subset_sum, identity, gA, gB in H. simpl in H.
  destruct (S 0%nat), (S 1%nat); lra.
Qed.

Example gelu_example_beyond_R5 :
  absorbable_ungated gelu 1 2 2 identity gA gB /\ (forall S, ~ submatrix_cond 1 2 S gA gB).
Proof. split; [exact gA_gB_absorbable | exact gA_gB_no_subset]. Qed.

Example gelu_wide_any : absorbable_ungated gelu 1 2 4 identity gA gB.
Proof. apply absorbable_wide_any; [exact gelu_odd_part | exact (proj2 gelu_vanishing) | lia]. Qed.

Example gelu_pm_wide : absorbable_ungated gelu 1 2 3 identity gA gB.
Proof.
  exact (pm_absorbable_of_grouping_wide gelu 1 2 1 3 gA gB dim1_U g_G g_L ex_cls g_lam
           gelu_odd_part (proj2 gelu_vanishing) gA_gB_grouping_pm ltac:(lia)).
Qed.

Example silu_pm_absorbable : absorbable_ungated silu 1 2 2 identity gA gB.
Proof.
  exact (absorbable_of_width_condition_pm silu 1 2 1 2 gA gB dim1_U g_G g_L ex_cls g_lam
           silu_odd_part (proj2 silu_vanishing) gA_gB_grouping_pm
           (dim1_width_condition 2 dim1_U g_G g_L eq_refl ltac:(lia))).
Qed.

(** ** A width condition with [S], [T] and [r] all used ([d = 2], [k = 2], [m = 5])

    [u_0 = e_0], [u_1 = e_1], [gamma_0 = gamma_1 = e_0 + e_1],
    [L = [[1, -1], [2, 0]]]: with [S = {1}], [T = {0}], [r = 1],
    [L + gamma_1 u_1^T = [[1, 0], [2, 1]] = e u_0^T + p q^T] with
    [e = (1, 2)], [p = (0, 1)], [q = (0, 1)]. *)

Definition w_U : mat := identity.
Definition w_G : mat := fun _ _ => 1.
Definition w_L : mat := fun i j =>
  if Nat.eqb i 0 then (if Nat.eqb j 0 then 1 else -1) else (if Nat.eqb j 0 then 2 else 0).

Example w_width_condition : width_condition 2 2 5 w_U w_G w_L.
Proof.
  exists (fun t => Nat.eqb t 0), (fun t => Nat.eqb t 1), 1%nat,
         (fun i _ => if Nat.eqb i 0 then 1 else 2),
         (fun i _ => if Nat.eqb i 0 then 0 else 1),
         (fun _ j => if Nat.eqb j 0 then 0 else 1).
  split; [intros t _ HT; apply Nat.eqb_eq in HT; subst; reflexivity|].
  split; [simpl; lia|].
  intros i j Hi Hj. unfold masked_outer, low_rank, w_L, w_G, w_U, identity.
  destruct i as [|[|i]]; [| |lia]; destruct j as [|[|j]]; try lia; simpl; ring.
Qed.

Example w_absorbable :
  exists A' B' : mat, same_fun 2 (ungated gelu 2 5 A' B') (ridge_form gelu 2 2 w_U w_G w_L).
Proof.
  exact (width_condition_sufficient gelu 2 2 5 w_U w_G w_L gelu_odd_part w_width_condition).
Qed.

Example submatrix_example_via_width_gelu : absorbable_ungated gelu 1 2 2 identity ex_A ex_B.
Proof.
  exact (submatrix_absorbable_via_width_pm gelu 1 2 ex_S ex_A ex_B gelu_odd_part
           (proj2 gelu_vanishing) submatrix_example).
Qed.
