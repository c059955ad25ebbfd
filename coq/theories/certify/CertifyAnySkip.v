(** * Certificates for bare blocks with any skip [P] (singular allowed), without R1

    [Certify.v]'s skip certificates reduce [P x + B sigma(A x)] to the
    identity skip by R1, so they need [P] invertible ([check_inverse]).  The
    library decides the block for every linear part [P] without R1
    ([Paper.R9_relu_any_skip], [R9_gelu_family_any_skip], [R8_relu_any_skip],
    [R8p_any_skip], [R9_decided_any_skip]); at width [n], for generic
    weights, absorbable iff some [S] has [P + B[:,S] A[S,:] = 0].  The
    certificates here are R5's checkers on that problem with target [P]
    (given by its rows [RP] over [dP]), exactly as [CertifyPostNorm.v] uses
    them with the target [C P]:
    - absorbable ([cert_any_skip_absorbable], [cert_any_skip_absorbable_witness],
      [cert_any_skip_absorbable_bias]): [check_submatrix] with target [P] and
      the given [S]; then [PostNormGeneric.odd_skip_absorbable] /
      [ReluBiasSkip.odd_skip_absorbable_bias]: every activation with
      [sigma(z) - sigma(-z) = z], with biases for every [c] and [b0];
    - not absorbable ([cert_any_skip_not_absorbable],
      [cert_any_skip_bias_not_absorbable]): [check_generic] (with biases:
      [check_bias_nonzero] and [check_generic] in dimension [d + 1] on the
      augmented rows) and [check_nosub] with target [P]; then R5/R9 (=>) with
      any linear part ([CertifyPostNormBias.skip_free_property],
      [skip_bias_property]: ReLU and the GELU family GELU, GELU_tanh, SiLU,
      quick_gelu, gelu_fast);
    - the zero skip ([check_zero_rows]): [0 x + f(x)] is [f], residual-free
      already, so absorbable at width [n] for every activation (or gate) and
      every weight, with or without biases ([cert_zero_skip_absorbable],
      [cert_zero_skip_absorbable_bias], [cert_zero_skip_absorbable_gated],
      [cert_zero_skip_absorbable_gated_bias]).
    Non-vacuity: [d = 2], the rank-1 skip [P = e_1 e_1^T], one instance of
    each verdict (ReLU and GELU, with and without biases) and refused
    tampered data (a wrong [S], a wrong row of [P]). *)

From Coq Require Import Reals ZArith Lia Lra List Uint63.
From Absorb Require Import Sums Blocks ActivationDefs Activations MoreActivationDefs FlipSigns.
From Absorb Require Import PostNormGeneric BiasBlocks BiasSpec ReluBiasSkip.
From Absorb Require Import IntSums Modular SubsetTargets CheckNoSubset CheckGeneric CheckSubmatrix
  Certify CertifyBias CertifyPostNormBias.
Import ListNotations.
Open Scope bool_scope.

(** ** Absorbable: [P + B_S A_S = 0] for a checked [S] *)

Section Absorbable.

Variable sigma : R -> R.
Variable odd : odd_part_identity sigma.
Variables (d n : nat) (dA dB dP : Z) (RA CB RP : list (list int)) (Sl : list bool) (ps : list int).

Theorem cert_any_skip_absorbable :
  check_submatrix d n dA dB dP RA CB RP Sl ps = true ->
  absorbable_ungated sigma d n n (mat_of_rows dP RP) (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros H. exists (flip_rows (Sfun Sl) (mat_of_rows dA RA)), (mat_of_cols dB CB).
  exact (odd_skip_absorbable sigma d n (Sfun Sl) _ _ _ odd
           (check_submatrix_sound _ _ _ _ _ _ _ _ _ _ H)).
Qed.

(** The witness: rows in [S] of [W_up] negated, [W_down] unchanged. *)
Theorem cert_any_skip_absorbable_witness :
  check_submatrix d n dA dB dP RA CB RP Sl ps = true ->
  same_fun d (ungated sigma d n (flip_rows (Sfun Sl) (mat_of_rows dA RA)) (mat_of_cols dB CB))
    (residual d (mat_of_rows dP RP) (ungated sigma d n (mat_of_rows dA RA) (mat_of_cols dB CB))).
Proof.
  intros H.
  exact (odd_skip_absorbable sigma d n (Sfun Sl) _ _ _ odd
           (check_submatrix_sound _ _ _ _ _ _ _ _ _ _ H)).
Qed.

(** With biases: the subset condition reads the linear parts only; every [c], [b0]. *)
Theorem cert_any_skip_absorbable_bias :
  check_submatrix d n dA dB dP RA CB RP Sl ps = true ->
  forall c b0 : vec,
    absorbable_ungated_bias sigma d n n (mat_of_rows dP RP) (mat_of_rows dA RA) c
      (mat_of_cols dB CB) b0.
Proof.
  intros H c b0.
  exact (odd_skip_absorbable_bias sigma d n (Sfun Sl) _ _ c _ b0 odd
           (check_submatrix_sound _ _ _ _ _ _ _ _ _ _ H)).
Qed.

End Absorbable.

(** ** Not absorbable: generic weights and no [S] with [P + B_S A_S = 0] *)

Section NotAbsorbable.

Variables (d n : nat) (dA dB dP : Z) (RA CB RP : list (list int)) (pg : int) (U V : list int)
  (p : int) (F : list nat) (FS : list (option nat * functional)).

(** Bias-free, [(A, B)] generic; [sigma] with R5 (=>) for any linear part. *)
Theorem cert_any_skip_not_absorbable sigma (prop : skip_free_property sigma) :
  check_generic d n RA CB pg U V = true ->
  check_nosub d n dA dB dP RA CB RP p F FS = true ->
  ~ absorbable_ungated sigma d n n (mat_of_rows dP RP) (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros Hg Hn Habs. destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ Hn) as [HA HB].
  destruct (prop d n _ _ _ (check_generic_sound d n dA dB RA CB pg U V Hg HA HB) Habs) as [T HT].
  exact (check_nosub_sound _ _ _ _ _ _ _ _ _ _ _ Hn T HT).
Qed.

(** With biases: [RA] holds the augmented rows [(a_i, c_i)] over [dA], generic with biases
    ([check_bias_nonzero], [check_generic] in dimension [d + 1]); every output bias [b0]. *)
Theorem cert_any_skip_bias_not_absorbable sigma (prop : skip_bias_property sigma) :
  check_bias_nonzero d n RA CB = true -> check_generic (S d) n RA CB pg U V = true ->
  check_nosub d n dA dB dP RA CB RP p F FS = true ->
  forall b0 : vec,
    ~ absorbable_ungated_bias sigma d n n (mat_of_rows dP RP) (mat_of_rows dA RA) (aug_bias d dA RA)
        (mat_of_cols dB CB) b0.
Proof.
  intros Hnz Hg Hn b0 Habs. destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ Hn) as [HA HB].
  destruct (prop d n _ _ _ _ b0
             (generic_bias_lines_of_checks d n dA dB RA CB pg U V HA HB Hnz Hg) Habs)
    as [T HT].
  exact (check_nosub_sound _ _ _ _ _ _ _ _ _ _ _ Hn T HT).
Qed.

End NotAbsorbable.

(** ** The zero skip: the block is residual-free already *)

(** Every entry [(k, l)], [k, l < d], of [RP] is [0]. *)
Definition check_zero_rows (d : nat) (RP : list (list int)) : bool :=
  forallb (fun k => forallb (fun l => Z.eqb (zentry RP k l) 0) (seq 0 d)) (seq 0 d).

Lemma check_zero_rows_sound d dP RP : check_zero_rows d RP = true ->
  forall k l, (k < d)%nat -> (l < d)%nat -> mat_of_rows dP RP k l = 0%R.
Proof.
  unfold check_zero_rows. intros H k l Hk Hl. rewrite forallb_forall in H.
  specialize (H k ltac:(apply in_seq; lia)). rewrite forallb_forall in H.
  specialize (H l ltac:(apply in_seq; lia)). apply Z.eqb_eq in H.
  unfold mat_of_rows. rewrite H. unfold Rdiv. ring.
Qed.

Lemma zero_skip_same d (P : mat) (f : vec -> vec) :
  (forall k l, (k < d)%nat -> (l < d)%nat -> P k l = 0%R) -> same_fun d f (residual d P f).
Proof.
  intros HP x i Hi. unfold residual, mv, dot, row.
  rewrite (sumn_zero d); [ring|]. intros l Hl. rewrite (HP i l Hi Hl). ring.
Qed.

Section ZeroSkip.

Variables (d n : nat) (dP : Z) (RP : list (list int)).

Theorem cert_zero_skip_absorbable (zero : check_zero_rows d RP = true) sigma :
  forall A B : mat, absorbable_ungated sigma d n n (mat_of_rows dP RP) A B.
Proof.
  intros A B. exists A, B. exact (zero_skip_same d _ _ (check_zero_rows_sound d dP RP zero)).
Qed.

Theorem cert_zero_skip_absorbable_bias (zero : check_zero_rows d RP = true) sigma :
  forall (A : mat) (c : vec) (B : mat) (b0 : vec),
    absorbable_ungated_bias sigma d n n (mat_of_rows dP RP) A c B b0.
Proof.
  intros A c B b0. exists A, c, B, b0.
  exact (zero_skip_same d _ _ (check_zero_rows_sound d dP RP zero)).
Qed.

Theorem cert_zero_skip_absorbable_gated (zero : check_zero_rows d RP = true) gamma :
  forall C A B : mat, absorbable_gated gamma d n n (mat_of_rows dP RP) C A B.
Proof.
  intros C A B. exists C, A, B. exact (zero_skip_same d _ _ (check_zero_rows_sound d dP RP zero)).
Qed.

Theorem cert_zero_skip_absorbable_gated_bias (zero : check_zero_rows d RP = true) gamma :
  forall (C : mat) (cg : vec) (A : mat) (cu : vec) (B : mat) (b0 : vec),
    absorbable_gated_bias gamma d n n (mat_of_rows dP RP) C cg A cu B b0.
Proof.
  intros C cg A cu B b0. exists C, cg, A, cu, B, b0.
  exact (zero_skip_same d _ _ (check_zero_rows_sound d dP RP zero)).
Qed.

End ZeroSkip.

(** ** Non-vacuity: [d = 2], [n = 1], [a = e_1], the rank-1 skip [P = e_1 e_1^T] *)

(** [b = -e_1]: [P + b a^T = 0] with [S = {0}]; absorbable (ReLU), though [P] is singular. *)
Example cert_any_skip_absorbable_example :
  absorbable_ungated relu 2 1 1 (mat_of_rows 1 [[1; 0]; [0; 0]]%uint63)
    (mat_of_rows 1 [[1; 0]]%uint63) (mat_of_cols 1 [[0 - 1; 0]]%uint63).
Proof.
  exact (cert_any_skip_absorbable relu relu_odd_part 2 1 1 1 1 [[1; 0]]%uint63 [[0 - 1; 0]]%uint63
           [[1; 0]; [0; 0]]%uint63 [true] [2147483647]%uint63 eq_refl).
Qed.

(** The same with biases, SiLU: every [c], [b0]. *)
Example cert_any_skip_absorbable_bias_example : forall c b0 : vec,
  absorbable_ungated_bias silu 2 1 1 (mat_of_rows 1 [[1; 0]; [0; 0]]%uint63)
    (mat_of_rows 1 [[1; 0]]%uint63) c (mat_of_cols 1 [[0 - 1; 0]]%uint63) b0.
Proof.
  exact (cert_any_skip_absorbable_bias silu silu_odd_part 2 1 1 1 1 [[1; 0]]%uint63
           [[0 - 1; 0]]%uint63
           [[1; 0]; [0; 0]]%uint63 [true] [2147483647]%uint63 eq_refl).
Qed.

(** [b = e_1]: generic, and [P + B_S A_S] is [P] or [2 P], never [0]: not absorbable (GELU). *)
Example cert_any_skip_not_absorbable_example :
  ~ absorbable_ungated gelu 2 1 1 (mat_of_rows 1 [[1; 0]; [0; 0]]%uint63)
      (mat_of_rows 1 [[1; 0]]%uint63) (mat_of_cols 1 [[1; 0]]%uint63).
Proof.
  exact (cert_any_skip_not_absorbable 2 1 1 1 1 [[1; 0]]%uint63 [[1; 0]]%uint63
           [[1; 0]; [0; 0]]%uint63
           7%uint63 [1; 1]%uint63 [0; 0]%uint63 7%uint63 [] [(Some 0%nat, [(0%nat, [1; 0]%uint63)])]
           gelu gelu_skip_free_property eq_refl eq_refl).
Qed.

(** The same with the bias [c = 1] (augmented row [(1, 0, 1)]), ReLU: every [b0]. *)
Example cert_any_skip_bias_not_absorbable_example : forall b0 : vec,
  ~ absorbable_ungated_bias relu 2 1 1 (mat_of_rows 1 [[1; 0]; [0; 0]]%uint63)
      (mat_of_rows 1 [[1; 0; 1]]%uint63) (aug_bias 2 1 [[1; 0; 1]]%uint63)
      (mat_of_cols 1 [[1; 0]]%uint63) b0.
Proof.
  exact (cert_any_skip_bias_not_absorbable 2 1 1 1 1 [[1; 0; 1]]%uint63 [[1; 0]]%uint63
           [[1; 0]; [0; 0]]%uint63 7%uint63 [1; 1; 1]%uint63 [0; 0; 0]%uint63 7%uint63 []
           [(Some 0%nat, [(0%nat, [1; 0]%uint63)])] relu relu_skip_bias_property
           eq_refl eq_refl eq_refl).
Qed.

(** The zero skip: every ReLU block of this shape, and every SwiGLU-style gated one. *)
Example cert_zero_skip_example :
  (forall A B : mat, absorbable_ungated relu 2 1 1 (mat_of_rows 1 [[0; 0]; [0; 0]]%uint63) A B) /\
  (forall C A B : mat, absorbable_gated silu 2 1 1 (mat_of_rows 1 [[0; 0]; [0; 0]]%uint63) C A B).
Proof.
  split.
  - exact (cert_zero_skip_absorbable 2 1 1 [[0; 0]; [0; 0]]%uint63 eq_refl relu).
  - exact (cert_zero_skip_absorbable_gated 2 1 1 [[0; 0]; [0; 0]]%uint63 eq_refl silu).
Qed.

(** Tampered data are refused: the empty subset for [b = -e_1]; a wrong row of [P] (the
    identity's second row [e_2]); a no-subset certificate where [S = {0}] exists; a nonzero
    skip claimed zero. *)
Example cert_any_skip_rejects :
  check_submatrix 2 1 1 1 1 [[1; 0]]%uint63 [[0 - 1; 0]]%uint63 [[1; 0]; [0; 0]]%uint63 [false]
    [2147483647]%uint63 = false /\
  check_submatrix 2 1 1 1 1 [[1; 0]]%uint63 [[0 - 1; 0]]%uint63 [[1; 0]; [0; 1]]%uint63 [true]
    [2147483647]%uint63 = false /\
  check_nosub 2 1 1 1 1 [[1; 0]]%uint63 [[0 - 1; 0]]%uint63 [[1; 0]; [0; 0]]%uint63 7%uint63 []
    [(Some 0%nat, [(0%nat, [1; 0]%uint63)])] = false /\
  check_zero_rows 2 [[1; 0]; [0; 0]]%uint63 = false.
Proof. repeat split; vm_compute; reflexivity. Qed.
