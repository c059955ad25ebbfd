(** * R2: homogeneous activations of degree [k <> 1]

    General lemma [homogeneous_residual_zero]: if [f] and [g] are
    positively [k]-homogeneous maps on [R^d] with [k <> 1] and
    [f = P x + g] on [R^d], then [P x = 0] for every [x], i.e. [P = 0].

    Headlines (any widths [n], [m], any nonzero skip [P], [k = 0] included):
    - [homogeneous_not_absorbable_ungated]: an ungated block with a
      [k]-homogeneous activation, [k <> 1], is never absorbable;
    - [homogeneous_not_absorbable_gated]: a gated block whose gate is
      [k]-homogeneous with [k <> 0] (so the block has degree [k+1]) is
      never absorbable. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks SkipReduction.
Open Scope R_scope.

(** Positive [k]-homogeneity of a map [R^d -> R^d]. *)
Definition hom_map (d k : nat) (f : vec -> vec) : Prop :=
  forall lam x, 0 < lam -> vec_eq d (f (vscale lam x)) (vscale (lam ^ k) (f x)).

Lemma pow2_neq_2 k : k <> 1%nat -> 2 ^ k <> 2.
Proof.
  intros Hk. destruct k as [|[|k]].
  - simpl. lra.
  - lia.
  - assert (1 <= 2 ^ k) by (apply pow_R1_Rle; lra). simpl. lra.
Qed.

Lemma homogeneous_residual_zero k d P f g :
  k <> 1%nat -> hom_map d k f -> hom_map d k g ->
  same_fun d f (residual d P g) ->
  forall x i, (i < d)%nat -> mv d P x i = 0.
Proof.
  intros Hk Hf Hg E x i Hi.
  assert (H2 : 0 < 2) by lra.
  pose proof (Hf 2 x H2 i Hi) as F2. pose proof (Hg 2 x H2 i Hi) as G2.
  pose proof (E (vscale 2 x) i Hi) as E2. pose proof (E x i Hi) as E1.
  unfold residual in E2, E1. rewrite mv_vscale in E2. unfold vscale in *.
  rewrite F2, E1, G2 in E2.
  assert (Hz : (2 ^ k - 2) * mv d P x i = 0) by lra.
  apply Rmult_integral in Hz. destruct Hz as [Hz|Hz]; [|exact Hz].
  exfalso. apply (pow2_neq_2 k Hk). lra.
Qed.

Lemma ungated_hom_map k sigma d n A B :
  pos_homogeneous k sigma -> hom_map d k (ungated sigma d n A B).
Proof.
  intros Hs lam x Hl i _. unfold ungated. unfold vscale at 2.
  rewrite <- sumn_scal_l. apply sumn_ext. intros j _.
  rewrite dot_scal_r, (Hs lam _ Hl). ring.
Qed.

(** A gate of degree [k] makes the gated block of degree [k + 1]. *)
Lemma gated_hom_map k gamma d n C A B :
  pos_homogeneous k gamma -> hom_map d (S k) (gated gamma d n C A B).
Proof.
  intros Hs lam x Hl i _. unfold gated. unfold vscale at 3.
  rewrite <- sumn_scal_l. apply sumn_ext. intros j _.
  rewrite !dot_scal_r, (Hs lam _ Hl). simpl. ring.
Qed.

Theorem homogeneous_not_absorbable_ungated : forall k sigma d n m P A B,
  k <> 1%nat -> pos_homogeneous k sigma -> nonzero_mat d P ->
  ~ absorbable_ungated sigma d n m P A B.
Proof.
  intros k sigma d n m P A B Hk Hs HP [A' [B' E]].
  apply (mv_vanishing_not_nonzero d P); [|exact HP].
  exact (homogeneous_residual_zero k d P _ _ Hk
           (ungated_hom_map k sigma d m A' B' Hs) (ungated_hom_map k sigma d n A B Hs) E).
Qed.

Theorem homogeneous_not_absorbable_gated : forall k gamma d n m P C A B,
  k <> 0%nat -> pos_homogeneous k gamma -> nonzero_mat d P ->
  ~ absorbable_gated gamma d n m P C A B.
Proof.
  intros k gamma d n m P C A B Hk Hs HP [C' [A' [B' E]]].
  apply (mv_vanishing_not_nonzero d P); [|exact HP].
  exact (homogeneous_residual_zero (S k) d P _ _ ltac:(lia)
           (gated_hom_map k gamma d m C' A' B' Hs) (gated_hom_map k gamma d n C A B Hs) E).
Qed.

(** The skip itself vanishes: [P = 0] on [R^d x R^d]. *)
Corollary homogeneous_residual_skip_zero k d P f g :
  k <> 1%nat -> hom_map d k f -> hom_map d k g ->
  same_fun d f (residual d P g) ->
  forall i j, (i < d)%nat -> (j < d)%nat -> P i j = 0.
Proof.
  intros Hk Hf Hg E i j Hi Hj. rewrite <- (mv_unit d P i j Hj).
  exact (homogeneous_residual_zero k d P f g Hk Hf Hg E _ i Hi).
Qed.
