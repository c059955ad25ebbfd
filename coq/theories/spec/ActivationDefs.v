(** * The activations of paper.md (definitions only)

    Their properties ([odd_part_identity], [pos_homogeneous],
    [vanishing_at_0] of [BlockDefs.v]) are proved in [analysis/Activations.v]. *)

From Coq Require Import Reals.
From Coquelicot Require Import Coquelicot.
Open Scope R_scope.

Definition relu (z : R) : R := Rmax z 0.

Definition relu_pow (k : nat) (z : R) : R := relu z ^ k.

Definition silu (z : R) : R := z / (1 + exp (- z)).

(** The standard normal density and CDF [Phi(z) = 1/2 + ∫_0^z density]. *)
Definition gauss_density (t : R) : R := exp (- (t * t) / 2) / sqrt (2 * PI).

Definition Phi (z : R) : R := / 2 + RInt gauss_density 0 z.

Definition gelu (z : R) : R := z * Phi z.

(** PyTorch's [approximate='tanh'] GELU; [tanh] is the standard library's
    [sinh / cosh]. *)
Definition gelu_tanh (z : R) : R :=
  z * (1 + tanh (sqrt (2 / PI) * (z + 44715 / 1000000 * (z * z * z)))) / 2.
