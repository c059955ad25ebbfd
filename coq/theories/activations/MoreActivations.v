(** * Properties of the activations of [MoreActivationDefs.v] (R10)

    - [quick_gelu]: [quick_gelu_silu] ([quick_gelu z = silu (1.702 z) / 1.702]),
      [quick_gelu_odd_part], [quick_gelu_vanishing] (continuous, [0] at [0]).
    - [gelu_fast]: [gelu_fast_odd_part], [gelu_fast_vanishing].
    - R5 (<=) for both ([FlipSigns.odd_part_absorbable]):
      [quick_gelu_submatrix_absorbable], [gelu_fast_submatrix_absorbable].
    - [heaviside]: [heaviside_homogeneous_0] ([0]-homogeneity),
      [heaviside_at_0] (the convention [H(0) = 1]), [heaviside_not_constant];
      any value [v] at [0]: [heaviside_at_homogeneous_0], [heaviside_at_1].
    - Non-vacuity examples for the (<=) corollaries. *)

From Coq Require Import Reals Lra.
From Coquelicot Require Import Coquelicot.
From Absorb Require Import Sums Blocks ActivationDefs Activations FlipSigns.
From Absorb Require Import MoreActivationDefs.
Open Scope R_scope.

(** ** quick_gelu *)

Lemma quick_gelu_scale_pos : 0 < quick_gelu_scale.
Proof. unfold quick_gelu_scale. lra. Qed.

Lemma quick_gelu_silu z : quick_gelu z = silu (quick_gelu_scale * z) / quick_gelu_scale.
Proof.
  unfold quick_gelu, silu, quick_gelu_scale.
  replace (- (1702 / 1000) * z) with (- (1702 / 1000 * z)) by ring.
  pose proof (exp_pos (- (1702 / 1000 * z))). field. lra.
Qed.

Lemma quick_gelu_odd_part : odd_part_identity quick_gelu.
Proof.
  intros z. rewrite !quick_gelu_silu.
  pose proof (silu_odd_part (quick_gelu_scale * z)) as H.
  replace (quick_gelu_scale * - z) with (- (quick_gelu_scale * z)) by ring.
  pose proof quick_gelu_scale_pos. field_simplify; [|lra..]. rewrite H. field. lra.
Qed.

Lemma quick_gelu_continuous z : continuity_pt quick_gelu z.
Proof.
  apply continuity_pt_filterlim.
  apply (ex_derive_continuous (K := R_AbsRing) (V := R_NormedModule)).
  unfold quick_gelu. auto_derive.
  match goal with |- 1 + exp ?u <> 0 => pose proof (exp_pos u) end. lra.
Qed.

Lemma quick_gelu_zero : quick_gelu 0 = 0.
Proof. unfold quick_gelu. unfold Rdiv. ring. Qed.

Lemma quick_gelu_vanishing : vanishing_at_0 quick_gelu.
Proof. split; [apply quick_gelu_continuous | exact quick_gelu_zero]. Qed.

(** ** gelu_fast *)

Lemma gelu_fast_odd_part : odd_part_identity gelu_fast.
Proof.
  intros z. unfold gelu_fast.
  replace (7978845608 / 10000000000 * - z * (1 + 44715 / 1000000 * - z * - z))
    with (- (7978845608 / 10000000000 * z * (1 + 44715 / 1000000 * z * z))) by ring.
  rewrite tanh_opp. field.
Qed.

Lemma gelu_fast_continuous z : continuity_pt gelu_fast z.
Proof.
  apply continuity_pt_of_ex_derive. unfold gelu_fast. auto_derive. auto using tanh_ex_derive.
Qed.

Lemma gelu_fast_zero : gelu_fast 0 = 0.
Proof. unfold gelu_fast. field. Qed.

Lemma gelu_fast_vanishing : vanishing_at_0 gelu_fast.
Proof. split; [apply gelu_fast_continuous | exact gelu_fast_zero]. Qed.

(** ** R5 (<=): no genericity needed *)

Corollary quick_gelu_submatrix_absorbable : submatrix_absorbable_claim quick_gelu.
Proof. intros d n S A B. apply odd_part_absorbable, quick_gelu_odd_part. Qed.

Corollary gelu_fast_submatrix_absorbable : submatrix_absorbable_claim gelu_fast.
Proof. intros d n S A B. apply odd_part_absorbable, gelu_fast_odd_part. Qed.

(** ** Heaviside *)

Lemma heaviside_at_0 : heaviside 0 = 1.
Proof. unfold heaviside. destruct (Rle_dec 0 0); [reflexivity | lra]. Qed.

Lemma heaviside_pos z : 0 <= z -> heaviside z = 1.
Proof. intros H. unfold heaviside. destruct (Rle_dec 0 z); [reflexivity | lra]. Qed.

Lemma heaviside_neg z : z < 0 -> heaviside z = 0.
Proof. intros H. unfold heaviside. destruct (Rle_dec 0 z); [lra | reflexivity]. Qed.

(** [H(lam z) = lam^0 H(z)] for [lam > 0]. *)
Lemma heaviside_homogeneous_0 : pos_homogeneous 0 heaviside.
Proof.
  intros lam z Hl. simpl. rewrite Rmult_1_l.
  destruct (Rle_or_lt 0 z) as [Hz|Hz].
  - rewrite !heaviside_pos; [reflexivity | exact Hz | apply Rmult_le_pos; lra].
  - rewrite !heaviside_neg; [reflexivity | exact Hz |].
    apply Ropp_lt_cancel. rewrite Ropp_0, Ropp_mult_distr_r. apply Rmult_lt_0_compat; lra.
Qed.

(** Unlike [ActivationDefs.relu_pow 0] (the constant [1]), the step is
    not constant. *)
Lemma heaviside_not_constant : heaviside 1 <> heaviside (-1).
Proof. rewrite heaviside_pos, heaviside_neg by lra. lra. Qed.

(** Any value at [0]: [heaviside_at v] is [0]-homogeneous, and [v = 1]
    gives [heaviside]. *)
Lemma heaviside_at_homogeneous_0 v : pos_homogeneous 0 (heaviside_at v).
Proof.
  intros lam z Hl. simpl. rewrite Rmult_1_l. unfold heaviside_at.
  destruct (Rtotal_order z 0) as [Hz|[Hz|Hz]].
  - destruct (Rlt_dec (lam * z) 0) as [_|C]; [|exfalso; apply C; nra].
    destruct (Rlt_dec z 0); [reflexivity | lra].
  - subst z. rewrite Rmult_0_r. reflexivity.
  - destruct (Rlt_dec (lam * z) 0) as [C|_]; [exfalso; nra|].
    destruct (Req_EM_T (lam * z) 0) as [C|_]; [exfalso; nra|].
    destruct (Rlt_dec z 0); [lra|]. destruct (Req_EM_T z 0); [lra | reflexivity].
Qed.

Lemma heaviside_at_1 z : heaviside_at 1 z = heaviside z.
Proof.
  unfold heaviside_at, heaviside.
  destruct (Rlt_dec z 0); destruct (Rle_dec 0 z); try lra.
  destruct (Req_EM_T z 0); reflexivity.
Qed.

Lemma relu_pow_0_constant z : relu_pow 0 z = 1.
Proof. reflexivity. Qed.

(** ** Non-vacuity: [d = 1], [n = 2], [a = (1, 5)], [b = (-1, 7)], [S = {0}] *)

Example quick_gelu_submatrix_example : absorbable_ungated quick_gelu 1 2 2 identity ex_A ex_B.
Proof. exact (quick_gelu_submatrix_absorbable 1 2 ex_S ex_A ex_B submatrix_example). Qed.

Example gelu_fast_submatrix_example : absorbable_ungated gelu_fast 1 2 2 identity ex_A ex_B.
Proof. exact (gelu_fast_submatrix_absorbable 1 2 ex_S ex_A ex_B submatrix_example). Qed.
