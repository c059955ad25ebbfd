(** * R3 and R4 for the activations of R10, and the limit of R2/R3 for a step gate

    - R3 (gated, gate continuous at 0 with value 0): quick_gelu and
      gelu_fast gates, [quick_gelu_glu_not_absorbable],
      [gelu_fast_glu_not_absorbable] (any widths, any nonzero skip).
    - R4 (depth): [quick_gelu_glu_depth], [gelu_fast_glu_depth] and, for the
      [0]-homogeneous step, [heaviside_depth].
    - [heaviside_gated_absorbable]: with a Heaviside gate the residual block
      [x - H(x) x] IS absorbable at width 1 ([= H(-x) x]).  So the gated part
      of R2 needs a gate of degree [k <> 0]
      ([Homogeneous.homogeneous_not_absorbable_gated]), and R3 needs the
      gate to vanish at 0 ([H(0) = 1], and [H] is discontinuous there):
      neither hypothesis can be dropped.
    - Non-vacuity examples for every theorem.
    The R3/R4 statements are applications of [results/VanishingGate.v]. *)

From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From Absorb Require Import Sums Blocks Compositions SkipReduction Gated Depth VanishingGate.
From Absorb Require Import MoreActivationDefs MoreActivations HomogeneousReal.
Open Scope R_scope.

(** ** R3 *)

Theorem quick_gelu_glu_not_absorbable : gated_not_absorbable_claim quick_gelu.
Proof.
  intros d n m P C A B. exact (gated_not_absorbable quick_gelu d n m P C A B quick_gelu_vanishing).
Qed.

Theorem gelu_fast_glu_not_absorbable : gated_not_absorbable_claim gelu_fast.
Proof.
  intros d n m P C A B. exact (gated_not_absorbable gelu_fast d n m P C A B gelu_fast_vanishing).
Qed.

(** ** R4 *)

Theorem quick_gelu_glu_depth : gated_depth_claim quick_gelu.
Proof. exact (vanishing_gate_depth quick_gelu quick_gelu_vanishing). Qed.

Theorem gelu_fast_glu_depth : gated_depth_claim gelu_fast.
Proof. exact (vanishing_gate_depth gelu_fast gelu_fast_vanishing). Qed.

Theorem heaviside_depth : forall d (res free : list (nat * mat * mat)),
  (1 <= d)%nat -> free <> nil ->
  ~ same_fun d (compose (map (res_ublock heaviside d) res))
               (compose (map (ublock heaviside d) free)).
Proof.
  intros d res free Hd Hfree.
  exact (depth_homogeneous_not_representable 0 heaviside d res free Hd (or_introl eq_refl)
           heaviside_homogeneous_0 Hfree).
Qed.

(** ** A step gate: R2 (gated) and R3 do not extend to it *)

(** [x - H(x) x = H(-x) x] for every real [x]. *)
Lemma heaviside_gate_identity (x : R) : x - heaviside x * x = heaviside (- x) * x.
Proof.
  destruct (Rtotal_order x 0) as [Hx|[Hx|Hx]].
  - rewrite heaviside_neg, heaviside_pos by lra. ring.
  - subst x. ring.
  - rewrite heaviside_pos, heaviside_neg by lra. ring.
Qed.

Theorem heaviside_gated_absorbable :
  absorbable_gated heaviside 1 1 1 identity (const_mat 1) (const_mat 1) (const_mat (-1)).
Proof.
  exists (const_mat (-1)), (const_mat 1), (const_mat 1). intros x i Hi.
  assert (i = 0%nat) by lia. subst i.
  unfold gated, residual, mv, dot, row, const_mat, identity. simpl.
  destruct (Nat.eq_dec 0 0) as [_|C]; [|congruence].
  rewrite !Rplus_0_l, !Rmult_1_l.
  replace (-1 * x 0%nat) with (- x 0%nat) by ring.
  rewrite <- heaviside_gate_identity. ring.
Qed.

(** The step gate is [0]-homogeneous but not vanishing at [0]. *)
Lemma heaviside_not_vanishing : ~ vanishing_at_0 heaviside.
Proof. intros [_ H]. rewrite heaviside_at_0 in H. lra. Qed.

(** ** Non-vacuity *)

Definition one_gblock' : nat * mat * mat * mat := (1%nat, const_mat 1, const_mat 1, const_mat 1).
Definition one_block' : nat * mat * mat := (1%nat, const_mat 1, const_mat 1).

Example quick_gelu_glu_instance : vanishing_at_0 quick_gelu /\ unit_gated_not_absorbable quick_gelu.
Proof. exact (vanishing_gate_instance quick_gelu quick_gelu_vanishing). Qed.

Example gelu_fast_glu_instance : vanishing_at_0 gelu_fast /\ unit_gated_not_absorbable gelu_fast.
Proof. exact (vanishing_gate_instance gelu_fast gelu_fast_vanishing). Qed.

Example quick_gelu_glu_depth_instance :
  ~ same_fun 1 (compose (map (res_gblock quick_gelu 1) [one_gblock'; one_gblock']))
               (compose (map (gblock quick_gelu 1) [one_gblock'])).
Proof. apply quick_gelu_glu_depth; [lia | discriminate]. Qed.

Example gelu_fast_glu_depth_instance :
  ~ same_fun 1 (compose (map (res_gblock gelu_fast 1) [one_gblock']))
               (compose (map (gblock gelu_fast 1) [one_gblock'; one_gblock'])).
Proof. apply gelu_fast_glu_depth; [lia | discriminate]. Qed.

(** Two residual step blocks are not one residual-free step block. *)
Example heaviside_depth_instance :
  ~ same_fun 1 (compose (map (res_ublock heaviside 1) [one_block'; one_block']))
               (compose (map (ublock heaviside 1) [one_block'])).
Proof. apply heaviside_depth; [lia | discriminate]. Qed.
