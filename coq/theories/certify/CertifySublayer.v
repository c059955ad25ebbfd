(** * Certificates for sublayers (R11, R11'): the lemmas pybridge's sublayer certificates apply

    A pre-norm sublayer [x |-> x + f(N x)] with [f] an MLP block of width [n]
    (ungated or gated, with biases) and a parallel-residual sublayer
    [x |-> x + attn(N1 x) + f(N2 x)] are never residual-free
    ([prenorm_mlp_not_residual_free], [parallel_not_residual_free] of
    [results/PreNorm.v]).  The certificates state this for one activation,
    one [d], one [n], one normalization kind with one exact [eps > 0], and
    every [gamma], [beta] and every weight: the lemmas below take the
    continuity of the activation, [1 <= d] and [0 < eps].  The continuity
    of each activation the certificates name is here too
    ([relu_pow_continuity] for [relu^k]; the others from
    [analysis/Activations.v] and [activations/MoreActivations.v]).
    Post-norm certificates glue a bare block's verdict: by [PostNorm]'s
    [postrms_*_iff], or by [postnorm_of_bare_*] below (an absorbable bare
    block gives an absorbable post-norm block for every [gamma], zero
    entries included: [g = h] gives [N g = N h]). *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks BiasBlocks Norms ActivationDefs Activations.
From Absorb Require Import MoreActivationDefs MoreActivations PreNorm PostNorm.
Open Scope R_scope.

(** ** Continuity of the activations *)

Lemma relu_pow_continuity k : continuity (relu_pow k).
Proof.
  induction k as [|k IH]; intro z.
  - unfold relu_pow. simpl. apply continuity_pt_const. intros a b. reflexivity.
  - change (continuity_pt (mult_fct relu (relu_pow k)) z).
    apply continuity_pt_mult; [apply relu_continuous | apply IH].
Qed.

Lemma relu_continuity : continuity relu.
Proof. exact relu_continuous. Qed.
Lemma gelu_continuity : continuity gelu.
Proof. exact gelu_continuous. Qed.
Lemma gelu_tanh_continuity : continuity gelu_tanh.
Proof. exact gelu_tanh_continuous. Qed.
Lemma silu_continuity : continuity silu.
Proof. exact silu_continuous. Qed.
Lemma quick_gelu_continuity : continuity quick_gelu.
Proof. exact quick_gelu_continuous. Qed.
Lemma gelu_fast_continuity : continuity gelu_fast.
Proof. exact gelu_fast_continuous. Qed.

(** ** The normalizations with [eps > 0] *)

Lemma identity_nonzero_mat d : (1 <= d)%nat -> nonzero_mat d identity.
Proof.
  intros Hd. exists 0%nat, 0%nat. unfold identity. simpl. split; [lia|]. split; [lia|]. lra.
Qed.

Lemma layer_norm_is_norm d eps gamma beta : 0 < eps -> is_norm d (layer_norm d eps gamma beta).
Proof. intros He. exists eps, gamma, beta. split; [exact He | left; reflexivity]. Qed.

Lemma rms_norm_is_norm d eps gamma beta : 0 < eps -> is_norm d (rms_norm d eps gamma beta).
Proof. intros He. exists eps, gamma, beta. split; [exact He | right; reflexivity]. Qed.

(** [0 < p / q] for positive integer literals (the certificates' [eps]). *)
Lemma eps_literal_pos p q : (0 < p)%Z -> (0 < q)%Z -> 0 < IZR p / IZR q.
Proof. intros Hp Hq. apply Rdiv_lt_0_compat; apply IZR_lt; assumption. Qed.

(** ** Pre-norm sublayers (R11) *)

(** [x + B sigma(A N(x) + c) + b0] is never [g(N' x)], [g] an MLP block of any
    width with any continuous activation [tau], [N'] any normalization. *)
Theorem cert_prenorm_ungated sigma d n N :
  continuity sigma -> (1 <= d)%nat -> is_norm d N ->
  forall (A : mat) (c : vec) (B : mat) (b0 : vec) (tau : R -> R) (N' g : vec -> vec),
    continuity tau -> is_norm d N' -> mlp_block tau d g ->
    ~ same_fun d (prenorm d identity N (ungated_bias sigma d n A c B b0)) (fun x => g (N' x)).
Proof.
  intros Hs Hd HN A c B b0 tau N' g Ht HN' Hg.
  apply (prenorm_mlp_not_residual_free sigma tau); auto using identity_nonzero_mat.
  left. exists n, A, c, B, b0. reflexivity.
Qed.

(** The gated form [x + B (gamma(C N(x) + cg) ⊙ (A N(x) + cu)) + b0]. *)
Theorem cert_prenorm_gated sigma d n N :
  continuity sigma -> (1 <= d)%nat -> is_norm d N ->
  forall (C : mat) (cg : vec) (A : mat) (cu : vec) (B : mat) (b0 : vec) (tau : R -> R)
         (N' g : vec -> vec),
    continuity tau -> is_norm d N' -> mlp_block tau d g ->
    ~ same_fun d (prenorm d identity N (gated_bias sigma d n C cg A cu B b0)) (fun x => g (N' x)).
Proof.
  intros Hs Hd HN C cg A cu B b0 tau N' g Ht HN' Hg.
  apply (prenorm_mlp_not_residual_free sigma tau); auto using identity_nonzero_mat.
  right. exists n, C, cg, A, cu, B, b0. reflexivity.
Qed.

(** ** Parallel residual sublayers (R11, attention bounded on bounded sets) *)

Theorem cert_parallel_ungated sigma d n N2 :
  continuity sigma -> (1 <= d)%nat -> is_norm d N2 ->
  forall (A : mat) (c : vec) (B : mat) (b0 : vec) (N1 N1' N2' attn attn' g : vec -> vec)
         (tau : R -> R),
    is_norm d N1 -> bounded_on_bounded d attn -> is_norm d N1' -> is_norm d N2' ->
    bounded_on_bounded d attn' -> continuity tau -> mlp_block tau d g ->
    ~ same_fun d (parallel_residual N1 N2 attn (ungated_bias sigma d n A c B b0))
                 (fun x k => attn' (N1' x) k + g (N2' x) k).
Proof.
  intros Hs Hd HN2 A c B b0 N1 N1' N2' attn attn' g tau HN1 Ha HN1' HN2' Ha' Ht Hg.
  apply parallel_not_residual_free; auto.
  - apply ungated_bias_bounded_on_bounded, Hs.
  - exact (mlp_block_bounded_on_bounded tau d g Ht Hg).
Qed.

Theorem cert_parallel_gated sigma d n N2 :
  continuity sigma -> (1 <= d)%nat -> is_norm d N2 ->
  forall (C : mat) (cg : vec) (A : mat) (cu : vec) (B : mat) (b0 : vec)
         (N1 N1' N2' attn attn' g : vec -> vec) (tau : R -> R),
    is_norm d N1 -> bounded_on_bounded d attn -> is_norm d N1' -> is_norm d N2' ->
    bounded_on_bounded d attn' -> continuity tau -> mlp_block tau d g ->
    ~ same_fun d (parallel_residual N1 N2 attn (gated_bias sigma d n C cg A cu B b0))
                 (fun x k => attn' (N1' x) k + g (N2' x) k).
Proof.
  intros Hs Hd HN2 C cg A cu B b0 N1 N1' N2' attn attn' g tau HN1 Ha HN1' HN2' Ha' Ht Hg.
  apply parallel_not_residual_free; auto.
  - apply gated_bias_bounded_on_bounded, Hs.
  - exact (mlp_block_bounded_on_bounded tau d g Ht Hg).
Qed.

(** ** Post-norm sublayers: the sufficient direction, any [gamma] *)

(** [N] reads only the first [d] coordinates. *)
Definition respects (d : nat) (N : vec -> vec) : Prop :=
  forall u v, vec_eq d u v -> vec_eq d (N u) (N v).

Lemma layer_norm_respects d eps gamma beta : respects d (layer_norm d eps gamma beta).
Proof. intros u v H. unfold layer_norm. apply affine_normalize_ext, center_ext, H. Qed.

Lemma rms_norm_respects d eps gamma beta : respects d (rms_norm d eps gamma beta).
Proof. intros u v H. apply rms_norm_of_eq, H. Qed.

Theorem postnorm_of_bare_ungated N sigma d n m P A B : respects d N ->
  absorbable_ungated sigma d n m P A B -> absorbable_postnorm_ungated N sigma d n m P A B.
Proof. intros HN [A' [B' H]]. exists A', B'. intros x. apply HN, H. Qed.

Theorem postnorm_of_bare_ungated_bias N sigma d n m P A c B b0 : respects d N ->
  absorbable_ungated_bias sigma d n m P A c B b0 ->
  absorbable_postnorm_ungated_bias N sigma d n m P A c B b0.
Proof. intros HN [A' [c' [B' [b0' H]]]]. exists A', c', B', b0'. intros x. apply HN, H. Qed.

Theorem postnorm_of_bare_gated_bias N gamma d n m P C cg A cu B b0 : respects d N ->
  absorbable_gated_bias gamma d n m P C cg A cu B b0 ->
  absorbable_postnorm_gated_bias N gamma d n m P C cg A cu B b0.
Proof.
  intros HN [C' [cg' [A' [cu' [B' [b0' H]]]]]].
  exists C', cg', A', cu', B', b0'. intros x. apply HN, H.
Qed.
