(** * Normalization layers and the sublayers around them (definitions only; R11)

    LayerNorm and RMSNorm on [R^d] as PyTorch computes them
    ([nn.LayerNorm], [nn.RMSNorm]): the mean and the (biased) variance are
    means over the [d] coordinates, [eps > 0] sits inside the square root,
    and the affine map is [gamma ⊙ . + beta] ([beta = 0] for PyTorch's
    RMSNorm, which has no bias; a checkpoint with a bias sets [beta]).
    - [layer_norm d eps gamma beta x = gamma ⊙ C x / rho_eps(C x) + beta],
    - [rms_norm d eps gamma beta x = gamma ⊙ x / rho_eps(x) + beta],
    with [rho_eps(v) = sqrt(|v|^2 / d + eps)] and the centering
    [C = I - 1 1^T / d] ([centering], [center]).
    Sublayers: pre-norm [x |-> P x + f(N x)] ([prenorm]), post-norm
    [x |-> N(P x + f x)] ([postnorm]), parallel residual
    [x |-> x + attn(N1 x) + mlp(N2 x)] ([parallel_residual]); absorbability
    of post-norm blocks; the classes of maps the R11 statements quantify
    over ([is_norm], [bounded_on_bounded], [mlp_block]).  Their properties
    are [results/PreNorm.v] and [results/PostNorm.v]. *)

From Coq Require Import Reals.
From Absorb Require Import SumDefs BlockDefs BiasBlocks.
Open Scope R_scope.

(** ** Means and the centering *)

(** [mean d x = (x_0 + ... + x_{d-1}) / d]. *)
Definition mean (d : nat) (x : vec) : R := sumn d x / INR d.

(** The mean of the squares, [|x|^2 / d]. *)
Definition mean_sq (d : nat) (x : vec) : R := sumn d (fun k => x k * x k) / INR d.

(** [x - mean(x) 1]: the centered vector [C x]. *)
Definition center (d : nat) (x : vec) : vec := fun i => x i - mean d x.

(** The centering matrix [C = I - 1 1^T / d]. *)
Definition centering (d : nat) : mat := fun i j => identity i j - / INR d.

(** ** LayerNorm and RMSNorm *)

(** [v |-> gamma ⊙ v / sqrt(mean_sq v + eps) + beta]. *)
Definition affine_normalize (d : nat) (eps : R) (gamma beta : vec) (v : vec) : vec :=
  fun i => v i / sqrt (mean_sq d v + eps) * gamma i + beta i.

(** [nn.LayerNorm]: [(x - mean) / sqrt(var + eps) * gamma + beta] with the
    biased variance [var = mean_sq (C x)]. *)
Definition layer_norm (d : nat) (eps : R) (gamma beta : vec) (x : vec) : vec :=
  affine_normalize d eps gamma beta (center d x).

(** [nn.RMSNorm]: [x / sqrt(mean(x^2) + eps) * gamma] (+ [beta]). *)
Definition rms_norm (d : nat) (eps : R) (gamma beta : vec) (x : vec) : vec :=
  affine_normalize d eps gamma beta x.

(** [N] is a LayerNorm or an RMSNorm on [R^d] with some [eps > 0]. *)
Definition is_norm (d : nat) (N : vec -> vec) : Prop :=
  exists eps gamma beta, 0 < eps /\
    (N = layer_norm d eps gamma beta \/ N = rms_norm d eps gamma beta).

(** ** Sublayers *)

(** Pre-norm residual sublayer [x |-> P x + f(N x)] (GPT-2, LLaMA, ...). *)
Definition prenorm (d : nat) (P : mat) (N f : vec -> vec) (x : vec) : vec :=
  residual d P (fun y => f (N y)) x.

(** Post-norm sublayer [x |-> N(P x + f x)] (BERT, ...). *)
Definition postnorm (d : nat) (N : vec -> vec) (P : mat) (f : vec -> vec) (x : vec) : vec :=
  N (residual d P f x).

(** Parallel residual sublayer [x |-> x + attn(N1 x) + mlp(N2 x)] (GPT-J, ...). *)
Definition parallel_residual (N1 N2 attn mlp : vec -> vec) (x : vec) : vec :=
  fun i => x i + attn (N1 x) i + mlp (N2 x) i.

(** ** Classes of maps *)

(** [f] maps bounded sets of [R^d] (for the l1 norm of the first [d]
    coordinates) to bounded sets: every continuous map of [R^d] does, and
    so does every MLP block with a continuous activation. *)
Definition bounded_on_bounded (d : nat) (f : vec -> vec) : Prop :=
  forall K, exists M, forall x,
    sumn d (fun k => Rabs (x k)) <= K -> sumn d (fun k => Rabs (f x k)) <= M.

(** [f] is an MLP block of some width with activation [sigma], with
    biases: ungated [B sigma(A x + c) + b0] or gated
    [B (sigma(C x + cg) ⊙ (A x + cu)) + b0]. *)
Definition mlp_block (sigma : R -> R) (d : nat) (f : vec -> vec) : Prop :=
  (exists n A c B b0, f = ungated_bias sigma d n A c B b0) \/
  (exists n C cg A cu B b0, f = gated_bias sigma d n C cg A cu B b0).

(** ** Absorbability of post-norm blocks *)

(** [N(P x + B sigma(A x))] equals [N(B' sigma(A' x))] for some block of
    width [m]. *)
Definition absorbable_postnorm_ungated (N : vec -> vec) (sigma : R -> R) (d n m : nat)
    (P A B : mat) : Prop :=
  exists A' B' : mat,
    same_fun d (fun x => N (ungated sigma d m A' B' x)) (postnorm d N P (ungated sigma d n A B)).

(** The same with biases. *)
Definition absorbable_postnorm_ungated_bias (N : vec -> vec) (sigma : R -> R) (d n m : nat)
    (P A : mat) (c : vec) (B : mat) (b0 : vec) : Prop :=
  exists (A' : mat) (c' : vec) (B' : mat) (b0' : vec),
    same_fun d (fun x => N (ungated_bias sigma d m A' c' B' b0' x))
               (postnorm d N P (ungated_bias sigma d n A c B b0)).

(** Gated blocks with biases. *)
Definition absorbable_postnorm_gated_bias (N : vec -> vec) (gamma : R -> R) (d n m : nat)
    (P C : mat) (cg : vec) (A : mat) (cu : vec) (B : mat) (b0 : vec) : Prop :=
  exists (C' : mat) (cg' : vec) (A' : mat) (cu' : vec) (B' : mat) (b0' : vec),
    same_fun d (fun x => N (gated_bias gamma d m C' cg' A' cu' B' b0' x))
               (postnorm d N P (gated_bias gamma d n C cg A cu B b0)).
