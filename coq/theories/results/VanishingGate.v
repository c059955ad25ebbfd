(** * R3 and R4 for one gate continuous at 0 with value 0, stated once

    For a gate [gamma] with [vanishing_at_0 gamma]: [vanishing_gate_depth]
    (R4: residual blocks against any nonempty list of residual-free ones)
    and [vanishing_gate_instance] (R3 at [d = n = m = 1], skip [I], all
    weights 1).  The per-activation theorems (SwiGLU, GeGLU, quick_gelu, ...
    in [ImpossibilityInstances] and [MoreActivationInstances]) are one-line
    applications of these and of [Gated.gated_not_absorbable] to the gate's
    [vanishing_at_0] lemma.  The notations below spell out their statements
    (parsing only: each theorem's statement is the plain proposition). *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Blocks Compositions SkipReduction Gated Depth.
Open Scope R_scope.

Notation gated_not_absorbable_claim gamma :=
  (forall d n m P C A B, nonzero_mat d P -> ~ absorbable_gated gamma d n m P C A B)
  (only parsing).

Notation gated_depth_claim gamma :=
  (forall d (res free : list (nat * mat * mat * mat)), (1 <= d)%nat -> free <> nil ->
     ~ same_fun d (compose (map (res_gblock gamma d) res)) (compose (map (gblock gamma d) free)))
  (only parsing).

Notation unit_gated_not_absorbable gamma :=
  (~ absorbable_gated gamma 1 1 1 identity (const_mat 1) (const_mat 1) (const_mat 1))
  (only parsing).

Section VanishingGate.

Context (gamma : R -> R) (Hgamma : vanishing_at_0 gamma).

Lemma vanishing_gate_depth : gated_depth_claim gamma.
Proof. intros d res free Hd. exact (depth_gated_not_representable gamma d res free Hd Hgamma). Qed.

Lemma vanishing_gate_instance : vanishing_at_0 gamma /\ unit_gated_not_absorbable gamma.
Proof.
  split; [exact Hgamma|]. apply gated_not_absorbable; [exact Hgamma|].
  exists 0%nat, 0%nat. unfold identity. simpl. repeat split; try lia. lra.
Qed.

End VanishingGate.
