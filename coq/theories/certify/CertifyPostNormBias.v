(** * Certificates for post-LayerNorm blocks with biases and for the GELU family (R11')

    [CertifyPostNorm.v] certifies bias-free post-LN blocks for ReLU.  Here the
    same reduction (skip [C P], down-projection [C B], [C = I - 11^T/d]) is
    combined with R9 for a singular skip ([ReluBiasSkip], [EvenBiasSkip]):
    - the activations' facts: [skip_bias_property sigma] (R9 (=>) with any
      linear part, generic with biases) and [skip_free_property sigma]
      (bias-free, [generic]), for ReLU and the GELU family (GELU, GELU_tanh,
      SiLU, quick_gelu, gelu_fast, through [EvenSkipInstances.gelu_family_skip_hyps]);
    - the target [C P] as data: [cen_target d dT RT P] ([cen_target_id]: the
      identity skip, [cen_id_rows d] over [d]; [cen_target_skip]: a skip given
      by rows, [check_centered_rows]);
    - full certificates: [cert_postln_bias_absorbable] (any [sigma] with
      [sigma(z) - sigma(-z) = z], any biases, any [eps], [gamma], [beta]),
      [cert_postln_bias_not_absorbable] (biases; [check_bias_nonzero] and
      [check_generic] in dimension [d + 1] on the augmented rows against the
      centered columns, [check_nosub] with target [C P]) and
      [cert_postln_free_not_absorbable] (bias-free, any [sigma] with
      [skip_free_property]);
    - partial certificates (identity skip): [cert_postln_bias_not_absorbable_partial]
      and [cert_postln_free_not_absorbable_partial], from columns [R] of [W_up]
      and rows [R] of [C W_down] only, stated for EVERY block whose [W_up]
      agrees on columns [R] and whose centered [C W_down] agrees on rows [R]
      (the biases are not read); the target is [C[R, R]] ([cen_block_rows]).
    Not-absorbable statements need [eps > 0] and every [gamma_i <> 0]. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63.
From Absorb Require Import Sums Blocks ActivationDefs Activations MoreActivationDefs FlipSigns.
From Absorb Require Import Norms PostNorm PostNormGeneric.
From Absorb Require Import BiasBlocks BiasSpec ReluBias ReluBiasSkip GeluBias EvenBiasSkip
  EvenSkipInstances.
From Absorb Require Import RowWalk IntSums Modular SubsetTargets CheckNoSubset CheckGeneric
  CheckSubmatrix Certify CertifyBias CertifyPostNorm.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

(** ** The activations' facts *)

(** R9 (=>) with any linear part [P], weights generic with biases. *)
Definition skip_bias_property (sigma : R -> R) : Prop :=
  forall d n P A c B b0, generic_bias_lines d n A c B ->
    absorbable_ungated_bias sigma d n n P A c B b0 -> exists S, skip_submatrix_cond d n S A B P.

(** R5 (=>) with any linear part [P], bias-free generic weights. *)
Definition skip_free_property (sigma : R -> R) : Prop :=
  forall d n P A B, generic d n A B ->
    absorbable_ungated sigma d n n P A B -> exists S, skip_submatrix_cond d n S A B P.

Lemma relu_skip_bias_property : skip_bias_property relu.
Proof. exact relu_bias_skip_generic_submatrix. Qed.

Lemma relu_skip_free_property : skip_free_property relu.
Proof. intros d n P A B Hg H. exact (proj1 (relu_skip_absorbable_iff d n P A B Hg) H). Qed.

Lemma even_skip_bias_property sigma : even_skip_hyps sigma -> skip_bias_property sigma.
Proof.
  intros [Hodd Hu] d n P A c B b0 Hg.
  exact (even_bias_skip_submatrix sigma Hodd Hu d n P A c B b0
           (generic_bias_lines_signs d n A c B Hg)).
Qed.

Lemma even_skip_free_property sigma : even_skip_hyps sigma -> skip_free_property sigma.
Proof.
  intros [Hodd Hu] d n P A B Hg H.
  exact (proj1 (even_skip_absorbable_iff sigma Hodd Hu d n P A B Hg) H).
Qed.

Lemma gelu_skip_bias_property : skip_bias_property gelu.
Proof. exact (even_skip_bias_property _ (proj1 gelu_family_skip_hyps)). Qed.
Lemma gelu_tanh_skip_bias_property : skip_bias_property gelu_tanh.
Proof. exact (even_skip_bias_property _ (proj1 (proj2 gelu_family_skip_hyps))). Qed.
Lemma silu_skip_bias_property : skip_bias_property silu.
Proof. exact (even_skip_bias_property _ (proj1 (proj2 (proj2 gelu_family_skip_hyps)))). Qed.
Lemma quick_gelu_skip_bias_property : skip_bias_property quick_gelu.
Proof. exact (even_skip_bias_property _ (proj1 (proj2 (proj2 (proj2 gelu_family_skip_hyps))))). Qed.
Lemma gelu_fast_skip_bias_property : skip_bias_property gelu_fast.
Proof. exact (even_skip_bias_property _ (proj2 (proj2 (proj2 (proj2 gelu_family_skip_hyps))))). Qed.

Lemma gelu_skip_free_property : skip_free_property gelu.
Proof. exact (even_skip_free_property _ (proj1 gelu_family_skip_hyps)). Qed.
Lemma gelu_tanh_skip_free_property : skip_free_property gelu_tanh.
Proof. exact (even_skip_free_property _ (proj1 (proj2 gelu_family_skip_hyps))). Qed.
Lemma silu_skip_free_property : skip_free_property silu.
Proof. exact (even_skip_free_property _ (proj1 (proj2 (proj2 gelu_family_skip_hyps)))). Qed.
Lemma quick_gelu_skip_free_property : skip_free_property quick_gelu.
Proof. exact (even_skip_free_property _ (proj1 (proj2 (proj2 (proj2 gelu_family_skip_hyps))))). Qed.
Lemma gelu_fast_skip_free_property : skip_free_property gelu_fast.
Proof. exact (even_skip_free_property _ (proj2 (proj2 (proj2 (proj2 gelu_family_skip_hyps))))). Qed.

(** ** The reduction, as the certificates use it *)

Lemma postln_bias_absorbable_of_target sigma d n eps gamma beta S (P A : mat) (c : vec) (B : mat)
    (b0 : vec) :
  odd_part_identity sigma ->
  target_eq d n S A (mm d (centering d) B) (mm d (centering d) P) ->
  absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n n P A c B b0.
Proof.
  intros Hodd Ht. apply postln_ungated_bias_sufficient.
  exact (odd_skip_absorbable_bias sigma d n S _ A c _ _ Hodd Ht).
Qed.

Lemma postln_bias_not_absorbable_of sigma (prop : skip_bias_property sigma) d n eps gamma beta
    (P A : mat) (c : vec) (B : mat) (b0 : vec) :
  0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
  generic_bias_lines d n A c (mm d (centering d) B) ->
  (forall S, ~ target_eq d n S A (mm d (centering d) B) (mm d (centering d) P)) ->
  ~ absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n n P A c B b0.
Proof.
  intros He Hg Hgen Hno Habs.
  apply (postln_ungated_bias_iff sigma d n n eps gamma beta P A c B b0 He Hg) in Habs.
  destruct (prop d n _ A c _ _ Hgen Habs) as [S HS]. exact (Hno S HS).
Qed.

Lemma postln_free_not_absorbable_of sigma (prop : skip_free_property sigma) d n eps gamma beta
    (P A B : mat) :
  0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
  generic d n A (mm d (centering d) B) ->
  (forall S, ~ target_eq d n S A (mm d (centering d) B) (mm d (centering d) P)) ->
  ~ absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n n P A B.
Proof.
  intros He Hg Hgen Hno Habs.
  apply (postln_ungated_iff sigma d n n eps gamma beta P A B He Hg) in Habs.
  destruct (prop d n _ A _ Hgen Habs) as [S HS]. exact (Hno S HS).
Qed.

Lemma generic_bias_lines_ext_B d n A c (B B' : mat) :
  (forall k i, (k < d)%nat -> (i < n)%nat -> B k i = B' k i) ->
  generic_bias_lines d n A c B -> generic_bias_lines d n A c B'.
Proof.
  intros HB [G1 [G2 G3]]. split; [exact G1|]. split; [exact G2|].
  intros i Hi. destruct (G3 i Hi) as [k [Hk Hnz]]. exists k. split; [exact Hk|].
  unfold col in *. rewrite <- (HB k i Hk Hi). exact Hnz.
Qed.

(** ** The target [C P] as data *)

Definition cen_target (d : nat) (dT : Z) (RT : list (list int)) (P : mat) : Prop :=
  forall k l, (k < d)%nat -> (l < d)%nat -> mat_of_rows dT RT k l = mm d (centering d) P k l.

Lemma cen_target_id d : dim_ok d = true -> cen_target d (Z.of_nat d) (cen_id_rows d) identity.
Proof. intros Hd k l Hk Hl. exact (cen_id_rows_spec d k l Hd Hk Hl). Qed.

Lemma cen_target_skip d dP RP RCP : (0 <? dP)%Z = true -> check_centered_rows d RP RCP = true ->
  cen_target d (Z.of_nat d * dP) RCP (mat_of_rows dP RP).
Proof.
  intros HP Hr k l Hk Hl. apply Z.ltb_lt in HP.
  exact (check_centered_rows_sound d dP RP RCP HP Hr k l Hk Hl).
Qed.

(** ** Full certificates *)

Section Full.

Variables (d n : nat) (dA dB dT : Z) (RA CB CBc RT : list (list int)) (P : mat).

(** Absorbable with biases: [C (P + B_S A_S) = 0] for the given [S]; any biases. *)
Theorem cert_postln_bias_absorbable sigma (odd : odd_part_identity sigma) (Sl : list bool)
    (ps : list int) :
  cen_target d dT RT P -> check_centered_cols d n CB CBc = true ->
  check_submatrix d n dA (Z.of_nat d * dB) dT RA CBc RT Sl ps = true ->
  forall (c b0 : vec) (eps : R) (gamma beta : vec),
    absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n n P
      (mat_of_rows dA RA) c (mat_of_cols dB CB) b0.
Proof.
  intros HT Hc Hs c b0 eps gamma beta.
  assert (HdB : (0 < dB)%Z).
  { unfold check_submatrix in Hs. apply andb_prop in Hs as [Hs _].
    apply andb_prop in Hs as [Hs _]. apply andb_prop in Hs as [_ Hs]. apply Z.ltb_lt in Hs. nia. }
  apply (postln_bias_absorbable_of_target sigma d n eps gamma beta (Sfun Sl) _ _ _ _ _ odd).
  apply (target_eq_ext d n _ _ (mat_of_cols (Z.of_nat d * dB) CBc) _ (mat_of_rows dT RT)).
  - exact (check_centered_cols_sound d n dB CB CBc HdB Hc).
  - exact HT.
  - exact (check_submatrix_sound _ _ _ _ _ _ _ _ _ _ Hs).
Qed.

Variables (pg : int) (U V : list int) (p : int) (F : list nat)
  (FS : list (option nat * functional)).

Lemma no_target_of_nosub (dB' : Z) :
  (0 < dB)%Z -> dB' = (Z.of_nat d * dB)%Z ->
  cen_target d dT RT P -> check_centered_cols d n CB CBc = true ->
  check_nosub d n dA dB' dT RA CBc RT p F FS = true ->
  forall S, ~ target_eq d n S (mat_of_rows dA RA) (mm d (centering d) (mat_of_cols dB CB))
                (mm d (centering d) P).
Proof.
  intros HB -> HT Hc Hn S HS. apply (check_nosub_sound _ _ _ _ _ _ _ _ _ _ _ Hn S).
  apply (target_eq_ext d n S _ (mm d (centering d) (mat_of_cols dB CB)) _
           (mm d (centering d) P)); [| |exact HS].
  - intros k i Hk Hi. symmetry. exact (check_centered_cols_sound d n dB CB CBc HB Hc k i Hk Hi).
  - intros k l Hk Hl. symmetry. exact (HT k l Hk Hl).
Qed.

(** Not absorbable with biases: [(A, c, C B)] generic with biases (augmented rows [RA]) and
    no [S] with [C (P + B_S A_S) = 0]; for every output bias [b0]. *)
Theorem cert_postln_bias_not_absorbable sigma (prop : skip_bias_property sigma) :
  cen_target d dT RT P -> check_centered_cols d n CB CBc = true ->
  check_bias_nonzero d n RA CBc = true -> check_generic (S d) n RA CBc pg U V = true ->
  check_nosub d n dA (Z.of_nat d * dB) dT RA CBc RT p F FS = true ->
  forall (b0 : vec) (eps : R) (gamma beta : vec), 0 < eps ->
    (forall i, (i < d)%nat -> gamma i <> 0) ->
    ~ absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n n P
        (mat_of_rows dA RA) (aug_bias d dA RA) (mat_of_cols dB CB) b0.
Proof.
  intros HT Hc Hnz Hg Hn b0 eps gamma beta He Hgam.
  destruct (nosub_pos _ _ _ _ _ _ _ _ _ _ _ Hn) as [HA [HB HdB]].
  apply (postln_bias_not_absorbable_of sigma prop d n eps gamma beta); [exact He | exact Hgam | |].
  - apply (generic_bias_lines_ext_B d n _ _ (mat_of_cols (Z.of_nat d * dB) CBc));
      [exact (check_centered_cols_sound d n dB CB CBc HB Hc)|].
    exact (generic_bias_lines_of_checks d n dA _ RA CBc pg U V HA HdB Hnz Hg).
  - exact (no_target_of_nosub _ HB eq_refl HT Hc Hn).
Qed.

(** Not absorbable, bias-free: [(A, C B)] generic and no [S]; any [sigma] with
    [skip_free_property] (ReLU and the GELU family). *)
Theorem cert_postln_free_not_absorbable sigma (prop : skip_free_property sigma) :
  cen_target d dT RT P -> check_centered_cols d n CB CBc = true ->
  check_generic d n RA CBc pg U V = true ->
  check_nosub d n dA (Z.of_nat d * dB) dT RA CBc RT p F FS = true ->
  forall (eps : R) (gamma beta : vec), 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    ~ absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n n P
        (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros HT Hc Hg Hn eps gamma beta He Hgam.
  destruct (nosub_pos _ _ _ _ _ _ _ _ _ _ _ Hn) as [HA [HB HdB]].
  apply (postln_free_not_absorbable_of sigma prop d n eps gamma beta); [exact He | exact Hgam | |].
  - apply (generic_ext_B d n _ (mat_of_cols (Z.of_nat d * dB) CBc));
      [exact (check_centered_cols_sound d n dB CB CBc HB Hc)|].
    exact (check_generic_sound d n dA _ RA CBc pg U V Hg HA HdB).
  - exact (no_target_of_nosub _ HB eq_refl HT Hc Hn).
Qed.

End Full.

(** ** Partial certificates: a block of [W_up] and of the centered [W_down] *)

(** [C[R, R]] times [d]: [d - 1] on the diagonal, [-1] elsewhere ([r = |R|]). *)
Definition cen_block_rows (d r : nat) : list (list int) :=
  map (fun k => map (fun l => if Nat.eqb k l then Uint63.of_Z (Z.of_nat d - 1) else (0 - 1)%uint63)
                    (seq 0 r)) (seq 0 r).

Lemma mm_centering_identity d a b : (b < d)%nat ->
  mm d (centering d) identity a b = centering d a b.
Proof.
  intros Hb. unfold mm.
  rewrite (sumn_ext d _ (fun t => if Nat.eq_dec b t then centering d a t else 0)).
  - exact (sumn_delta d b (centering d a) Hb).
  - intros t _. unfold identity. destruct (Nat.eq_dec t b), (Nat.eq_dec b t); subst; try lia; ring.
Qed.

Lemma zval_dim d : dim_ok d = true -> (1 <= d)%nat ->
  zval (Uint63.of_Z (Z.of_nat d - 1)) = (Z.of_nat d - 1)%Z.
Proof.
  intros Hd H1. unfold dim_ok in Hd. apply Z.ltb_lt in Hd. unfold zval.
  assert (E : phi (Uint63.of_Z (Z.of_nat d - 1)) = (Z.of_nat d - 1)%Z).
  { rewrite Uint63.of_Z_spec. apply Z.mod_small. rewrite wB_eq. lia. }
  destruct (Uint63.of_Z (Z.of_nat d - 1) <? half_int)%uint63 eqn:L; [exact E|].
  exfalso. assert (~ (phi (Uint63.of_Z (Z.of_nat d - 1)) < phi half_int)%Z) as L'
    by (rewrite <- Uint63.ltb_spec, L; discriminate).
  rewrite E, half_int_spec in L'. lia.
Qed.

Lemma cen_block_rows_spec d R k l : dim_ok d = true -> index_ok d R = true ->
  (k < length R)%nat -> (l < length R)%nat ->
  mat_of_rows (Z.of_nat d) (cen_block_rows d (length R)) k l =
  mm d (centering d) identity (nth k R O) (nth l R O).
Proof.
  intros Hd Hok Hk Hl. pose proof (index_ok_lt d R Hok) as HR.
  assert (H1 : (1 <= d)%nat) by (pose proof (HR k Hk); lia).
  rewrite (mm_centering_identity d _ _ (HR l Hl)).
  unfold mat_of_rows, zentry, cen_block_rows, centering.
  rewrite (nth_map_seq _ (length R) k [] Hk), (nth_map_seq _ (length R) l 0%uint63 Hl).
  assert (Hd0 : INR d <> 0%R) by (apply not_0_INR; lia).
  rewrite <- INR_IZR_INZ. unfold identity.
  destruct (Nat.eqb_spec k l) as [->|Hne].
  - rewrite (zval_dim d Hd H1). destruct (Nat.eq_dec (nth l R O) (nth l R O)) as [_|C]; [|easy].
    rewrite minus_IZR, <- INR_IZR_INZ. field. exact Hd0.
  - destruct (Nat.eq_dec (nth k R O) (nth l R O)) as [E|_].
    + exfalso. unfold index_ok in Hok. apply andb_prop in Hok as [_ Hnd].
      exact (Hne (nodupb_nth R Hnd k l Hk Hl E)).
    + change (zval (0 - 1)%uint63) with (-1)%Z. field. exact Hd0.
Qed.

(** A subset [S] for the full matrices gives one for the block, the target restricted. *)
Lemma target_restrict d n R S (A B T A' B' T' : mat) :
  index_ok d R = true ->
  (forall i j, (i < n)%nat -> (j < length R)%nat -> A i (nth j R O) = A' i j) ->
  (forall k i, (k < length R)%nat -> (i < n)%nat -> B (nth k R O) i = B' k i) ->
  (forall k l, (k < length R)%nat -> (l < length R)%nat -> T' k l = T (nth k R O) (nth l R O)) ->
  target_eq d n S A B T -> target_eq (length R) n S A' B' T'.
Proof.
  intros Hok HA HB HT Hs k l Hk Hl. pose proof (index_ok_lt d R Hok) as HR.
  assert (E : subset_sum n S A' B' k l = subset_sum n S A B (nth k R O) (nth l R O)).
  { unfold subset_sum. apply sumn_ext. intros i Hi. destruct (S i); [|reflexivity].
    rewrite (HA i l Hi Hl), (HB k i Hk Hi). reflexivity. }
  rewrite E, (Hs _ _ (HR k Hk) (HR l Hl)), (HT k l Hk Hl). reflexivity.
Qed.

Section Partial.

Variables (d n : nat) (Rx : list nat) (dA dB : Z) (RA CB : list (list int)) (pg : int)
  (U V : list int) (p : int) (F : list nat) (FS : list (option nat * functional)).

(** The block's checks, premises of every lemma below. *)
Definition block_checks : Prop :=
  dim_ok d = true /\ index_ok d Rx = true /\
  check_generic_sorted (length Rx) n RA CB pg U V = true /\
  check_nosub (length Rx) n dA dB (Z.of_nat d) RA CB (cen_block_rows d (length Rx)) p F FS = true.

Lemma partial_generic (A B : mat) : block_checks ->
  agrees_up n Rx dA RA A -> agrees_down n Rx dB CB (mm d (centering d) B) ->
  generic d n A (mm d (centering d) B).
Proof.
  intros [Hd [Hok [Hg Hn]]] HA HB.
  destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ Hn) as [HdA HdB].
  exact (generic_restrict d n Rx A _ _ _ (index_ok_lt d Rx Hok) HA HB
           (check_generic_sorted_sound _ n dA dB RA CB pg U V Hg HdA HdB)).
Qed.

Lemma partial_no_target (A B : mat) : block_checks ->
  agrees_up n Rx dA RA A -> agrees_down n Rx dB CB (mm d (centering d) B) ->
  forall S, ~ target_eq d n S A (mm d (centering d) B) (mm d (centering d) identity).
Proof.
  intros [Hd [Hok [Hg Hn]]] HA HB S HS. apply (check_nosub_sound _ _ _ _ _ _ _ _ _ _ _ Hn S).
  apply (target_restrict d n Rx S A _ (mm d (centering d) identity) _ _ _ Hok HA HB); [|exact HS].
  intros k l Hk Hl. exact (cen_block_rows_spec d Rx k l Hd Hok Hk Hl).
Qed.

(** Biases: not absorbable, for every [(W_up, c, W_down, b0)] with [W_up] agreeing on
    columns [R] and [C W_down] on rows [R]. *)
Theorem cert_postln_bias_not_absorbable_partial sigma (prop : skip_bias_property sigma) :
  dim_ok d = true -> index_ok d Rx = true ->
  check_generic_sorted (length Rx) n RA CB pg U V = true ->
  check_nosub (length Rx) n dA dB (Z.of_nat d) RA CB (cen_block_rows d (length Rx)) p F FS = true ->
  forall (A : mat) (c : vec) (B : mat) (b0 : vec),
    agrees_up n Rx dA RA A -> agrees_down n Rx dB CB (mm d (centering d) B) ->
  forall (eps : R) (gamma beta : vec), 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    ~ absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n n identity A c B b0.
Proof.
  intros Hd Hok Hg Hn A c B b0 HA HB eps gamma beta He Hgam.
  assert (H : block_checks) by (repeat split; assumption).
  apply (postln_bias_not_absorbable_of sigma prop d n eps gamma beta); [exact He | exact Hgam | |].
  - exact (generic_bias_lines_of_generic d n A c _ (partial_generic A B H HA HB)).
  - exact (partial_no_target A B H HA HB).
Qed.

(** Bias-free: the same for [(W_up, W_down)]. *)
Theorem cert_postln_free_not_absorbable_partial sigma (prop : skip_free_property sigma) :
  dim_ok d = true -> index_ok d Rx = true ->
  check_generic_sorted (length Rx) n RA CB pg U V = true ->
  check_nosub (length Rx) n dA dB (Z.of_nat d) RA CB (cen_block_rows d (length Rx)) p F FS = true ->
  forall A B : mat, agrees_up n Rx dA RA A -> agrees_down n Rx dB CB (mm d (centering d) B) ->
  forall (eps : R) (gamma beta : vec), 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    ~ absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n n identity A B.
Proof.
  intros Hd Hok Hg Hn A B HA HB eps gamma beta He Hgam.
  assert (H : block_checks) by (repeat split; assumption).
  apply (postln_free_not_absorbable_of sigma prop d n eps gamma beta); [exact He | exact Hgam | |].
  - exact (partial_generic A B H HA HB).
  - exact (partial_no_target A B H HA HB).
Qed.

End Partial.

(** ** Non-vacuity ([d = 2], [n = 1], [a = (1, -1)], bias [c = 1]) *)

(** [b = e_2]: [C b = (-1, 1)/2], [S = {0}]; absorbable after any LayerNorm, any biases. *)
Example cert_postln_bias_absorbable_example : forall b0 eps gamma beta,
  absorbable_postnorm_ungated_bias (layer_norm 2 eps gamma beta) gelu 2 1 1 identity
    (mat_of_rows 1 [[1; 0 - 1]]%uint63) (fun _ => 1) (mat_of_cols 1 [[0; 1]]%uint63) b0.
Proof.
  intros b0. exact (cert_postln_bias_absorbable 2 1 1 1 (Z.of_nat 2) [[1; 0 - 1]]%uint63
    [[0; 1]]%uint63 [[0 - 1; 1]]%uint63 (cen_id_rows 2) identity gelu gelu_odd_part [true]
    [7; 11]%uint63 (cen_target_id 2 eq_refl) eq_refl eq_refl (fun _ => 1) b0).
Qed.

(** [b = e_1]: [(A, c, C B)] generic with biases and no [S]: not absorbable (GELU, biases). *)
Example cert_postln_bias_not_absorbable_example : forall b0 eps gamma beta, 0 < eps ->
  (forall i, (i < 2)%nat -> gamma i <> 0) ->
  ~ absorbable_postnorm_ungated_bias (layer_norm 2 eps gamma beta) gelu 2 1 1 identity
      (mat_of_rows 1 [[1; 0 - 1; 1]]%uint63) (aug_bias 2 1 [[1; 0 - 1; 1]]%uint63)
      (mat_of_cols 1 [[1; 0]]%uint63) b0.
Proof.
  exact (cert_postln_bias_not_absorbable 2 1 1 1 (Z.of_nat 2) [[1; 0 - 1; 1]]%uint63
    [[1; 0]]%uint63 [[1; 0 - 1]]%uint63 (cen_id_rows 2) identity 7%uint63 [1; 0; 0]%uint63
    [0; 1; 0]%uint63 7%uint63 [0]%nat [(None, [(0%nat, [1; 0]%uint63)])] gelu
    gelu_skip_bias_property (cen_target_id 2 eq_refl) eq_refl eq_refl eq_refl eq_refl).
Qed.

(** Partial, block [R = [0]]: every block whose [W_up] has column 0 equal to [1] and whose
    [C W_down] has row 0 equal to [1/2] (any biases, any other entries) is not absorbable. *)
Example cert_postln_partial_example : forall (A : mat) (c : vec) (B : mat) (b0 : vec),
  agrees_up 1 [0%nat] 1 [[1]]%uint63 A ->
  agrees_down 1 [0%nat] 2 [[1]]%uint63 (mm 2 (centering 2) B) ->
  forall eps gamma beta, 0 < eps -> (forall i, (i < 2)%nat -> gamma i <> 0) ->
  ~ absorbable_postnorm_ungated_bias (layer_norm 2 eps gamma beta) silu 2 1 1 identity A c B b0.
Proof.
  exact (cert_postln_bias_not_absorbable_partial 2 1 [0%nat] 1 2 [[1]]%uint63 [[1]]%uint63 7%uint63
    [1]%uint63 [1]%uint63 7%uint63 [0]%nat [(None, [(0%nat, [1]%uint63)])] silu
    silu_skip_bias_property eq_refl eq_refl eq_refl eq_refl).
Qed.

(** Tampered data are refused: parallel augmented rows; a subset claimed for [b = e_1]. *)
Example cert_postln_bias_rejects :
  check_generic 3 2 [[1; 0 - 1; 1]; [2; 0 - 2; 2]]%uint63 [[1; 0 - 1]; [1; 0 - 1]]%uint63 7
    [1; 2; 0]%uint63 [0; 1; 3]%uint63 = false /\
  check_submatrix 2 1 1 (Z.of_nat 2 * 1) (Z.of_nat 2) [[1; 0 - 1]]%uint63 [[1; 0 - 1]]%uint63
    (cen_id_rows 2) [true] [7; 11]%uint63 = false.
Proof. split; vm_compute; reflexivity. Qed.
