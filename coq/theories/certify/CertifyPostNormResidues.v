(** * Post-LayerNorm partial certificates on residues (R11')

    [CertifyPostNormBias.cert_postln_bias_not_absorbable_partial] and
    [cert_postln_free_not_absorbable_partial] read their block (columns [R] of
    [W_up], rows [R] of the centered [C W_down]) only modulo two primes.  Here the
    certificate carries just those residues, as in [CertifyResidues.v]: the block
    modulo the no-subset prime [p] (the target [C[R, R]] as before,
    [cen_block_rows]) and two indices [R2] modulo the genericity prime [pg].  The
    verdict holds for every block whose entries there are integers congruent to
    the data ([agrees_up_mod], [agrees_down_mod] of [C W_down]), any biases.
    Theorems: [cert_postln_bias_not_absorbable_partial_mod],
    [cert_postln_free_not_absorbable_partial_mod]; example
    [cert_postln_partial_mod_example]. *)

From Coq Require Import Reals ZArith Lia List Uint63.
From Absorb Require Import Sums Blocks ActivationDefs Activations.
From Absorb Require Import Norms PostNorm PostNormGeneric BiasBlocks BiasSpec.
From Absorb Require Import IntSums CheckNoSubset CheckGeneric Certify CertifyBias CertifyPostNorm
  CertifyPostNormBias CertifyResidues.
Import ListNotations.
Open Scope bool_scope.

Section PartialResidues.

Variables (d n : nat) (Rx R2 : list nat) (dA dB : Z) (p pg : int)
  (RAp CBp RAg CBg : list (list int)) (U V : list int) (F : list nat)
  (FS : list (option nat * functional)).

(** The checks of a block on residues, premises of every lemma below. *)
Definition block_checks_mod : Prop :=
  dim_ok d = true /\ index_ok d Rx = true /\ index_ok d R2 = true /\
  check_generic_sorted (length R2) n RAg CBg pg U V = true /\ residues_below pg CBg = true /\
  check_nosub (length Rx) n dA dB (Z.of_nat d) RAp CBp (cen_block_rows d (length Rx)) p F FS
    = true.

Lemma partial_generic_mod (A B : mat) : block_checks_mod ->
  agrees_up_mod n R2 dA pg RAg A -> agrees_down_mod n R2 dB pg CBg (mm d (centering d) B) ->
  generic d n A (mm d (centering d) B).
Proof.
  intros (Hd & Hok & Hok2 & Hg & Hb & Hn) HA HB.
  destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ Hn) as [HdA HdB].
  exact (generic_of_residues d n R2 dA dB pg RAg CBg U V A _ Hok2 HdA HdB Hg Hb HA HB).
Qed.

Lemma partial_no_target_mod (A B : mat) : block_checks_mod ->
  agrees_up_mod n Rx dA p RAp A -> agrees_down_mod n Rx dB p CBp (mm d (centering d) B) ->
  forall S, ~ target_eq d n S A (mm d (centering d) B) (mm d (centering d) identity).
Proof.
  intros (Hd & Hok & Hok2 & Hg & Hb & Hn) [eA [CA HA]] [eBt [CB HB]] S HS.
  apply (check_nosub_sound_congr _ _ _ _ _ _ _ _ _ _ _ eA eBt
           (zentry (cen_block_rows d (length Rx))) Hn CA CB (congr_refl _ _) S).
  apply (target_restrict d n Rx S A _ (mm d (centering d) identity) _ _ _ Hok HA HB); [|exact HS].
  intros k l Hk Hl. exact (cen_block_rows_spec d Rx k l Hd Hok Hk Hl).
Qed.

(** Biases: not absorbable after any LayerNorm with [eps > 0] and every [gamma_i <> 0], for
    every [(W_up, c, W_down, b0)] agreeing with the residues. *)
Theorem cert_postln_bias_not_absorbable_partial_mod sigma (prop : skip_bias_property sigma) :
  dim_ok d = true -> index_ok d Rx = true -> index_ok d R2 = true ->
  check_generic_sorted (length R2) n RAg CBg pg U V = true -> residues_below pg CBg = true ->
  check_nosub (length Rx) n dA dB (Z.of_nat d) RAp CBp (cen_block_rows d (length Rx)) p F FS
    = true ->
  forall (A : mat) (c : vec) (B : mat) (b0 : vec),
    agrees_up_mod n Rx dA p RAp A -> agrees_down_mod n Rx dB p CBp (mm d (centering d) B) ->
    agrees_up_mod n R2 dA pg RAg A -> agrees_down_mod n R2 dB pg CBg (mm d (centering d) B) ->
  forall (eps : R) (gamma beta : vec), 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    ~ absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n n identity A c B b0.
Proof.
  intros Hd Hok Hok2 Hg Hb Hn A c B b0 HA HB HgA HgB eps gamma beta He Hgam.
  assert (H : block_checks_mod) by (repeat split; assumption).
  apply (postln_bias_not_absorbable_of sigma prop d n eps gamma beta); [exact He | exact Hgam | |].
  - exact (generic_bias_lines_of_generic d n A c _ (partial_generic_mod A B H HgA HgB)).
  - exact (partial_no_target_mod A B H HA HB).
Qed.

(** Bias-free: the same for [(W_up, W_down)]. *)
Theorem cert_postln_free_not_absorbable_partial_mod sigma (prop : skip_free_property sigma) :
  dim_ok d = true -> index_ok d Rx = true -> index_ok d R2 = true ->
  check_generic_sorted (length R2) n RAg CBg pg U V = true -> residues_below pg CBg = true ->
  check_nosub (length Rx) n dA dB (Z.of_nat d) RAp CBp (cen_block_rows d (length Rx)) p F FS
    = true ->
  forall A B : mat,
    agrees_up_mod n Rx dA p RAp A -> agrees_down_mod n Rx dB p CBp (mm d (centering d) B) ->
    agrees_up_mod n R2 dA pg RAg A -> agrees_down_mod n R2 dB pg CBg (mm d (centering d) B) ->
  forall (eps : R) (gamma beta : vec), 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    ~ absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n n identity A B.
Proof.
  intros Hd Hok Hok2 Hg Hb Hn A B HA HB HgA HgB eps gamma beta He Hgam.
  assert (H : block_checks_mod) by (repeat split; assumption).
  apply (postln_free_not_absorbable_of sigma prop d n eps gamma beta); [exact He | exact Hgam | |].
  - exact (partial_generic_mod A B H HgA HgB).
  - exact (partial_no_target_mod A B H HA HB).
Qed.

End PartialResidues.

(** ** Non-vacuity *)

(** Block [R = R2 = [0]], residues modulo [7]: every block whose [W_up] has column 0 congruent
    to [1] (over [1]) and whose [C W_down] has row 0 congruent to [1] (over [2]) is not
    absorbable after a LayerNorm (SiLU, any biases); the premises hold for the pair of
    [CertifyResidues.mod_example_agrees]'s kind, e.g. column 0 equal to [8]. *)
Example cert_postln_partial_mod_example : forall (A : mat) (c : vec) (B : mat) (b0 : vec),
  agrees_up_mod 1 [0%nat] 1 7 [[1]]%uint63 A ->
  agrees_down_mod 1 [0%nat] 2 7 [[1]]%uint63 (mm 2 (centering 2) B) ->
  agrees_up_mod 1 [0%nat] 1 7 [[1]]%uint63 A ->
  agrees_down_mod 1 [0%nat] 2 7 [[1]]%uint63 (mm 2 (centering 2) B) ->
  forall eps gamma beta, 0 < eps -> (forall i, (i < 2)%nat -> gamma i <> 0) ->
  ~ absorbable_postnorm_ungated_bias (layer_norm 2 eps gamma beta) silu 2 1 1 identity A c B b0.
Proof.
  exact (cert_postln_bias_not_absorbable_partial_mod 2 1 [0%nat] [0%nat] 1 2 7 7 [[1]]%uint63
    [[1]]%uint63 [[1]]%uint63 [[1]]%uint63 [1]%uint63 [1]%uint63 [0]%nat
    [(None, [(0%nat, [1]%uint63)])] silu silu_skip_bias_property
    eq_refl eq_refl eq_refl eq_refl eq_refl eq_refl).
Qed.

Example postln_mod_example_agrees :
  agrees_up_mod 1 [0%nat] 1 7 [[1]]%uint63 (fun i j => if Nat.eqb j 0 then 8%R else 0%R).
Proof.
  apply (agrees_up_mod_of_entries _ _ _ _ _ _ (fun _ _ => 8%Z)). intros i j Hi Hj.
  simpl in Hj. replace j with O by lia. replace i with O by lia. split.
  - simpl. unfold Rdiv. rewrite Rinv_1, Rmult_1_r. reflexivity.
  - reflexivity.
Qed.
