(** * CertifyBiasCoded: partial certificates with biases (R9) on coded data

    [cert_bias_not_absorbable_partial_coded] (width [n]) and
    [cert_bias_not_absorbable_below_partial_coded] (width [m < n]) are
    [CertifyBias.cert_bias_not_absorbable_partial] and
    [cert_bias_not_absorbable_below_partial] with the block's entries given as
    codes of [+- mag * 2^e] ([CodedData.v]): the checkers run on the residues
    of the codes modulo their primes ([resid], computed by the VM), and the
    congruence soundness lemmas ([check_generic_sorted_sound_congr],
    [check_nosub_identity_congr]) carry the verdict to every [(A, c, B, b0)]
    agreeing with the decoded block ([agrees_up_coded], [agrees_down_coded]),
    whatever the size of its numerators over the common denominators.  As in
    the uncoded case the biases are not read: the block's genericity gives
    [generic] for the full weights ([generic_of_block_coded]), hence
    [generic_bias_lines] for every bias ([bias_not_absorbable_of_generic],
    [bias_below_of_generic]).
    Examples: [bpc_relu_not_absorbable], [bpc_relu_not_absorbable_below]
    (entries [2^100 / 2^100 = 1]; the premises are satisfiable by
    [CertifyCoded.cert_coded_example_agrees]), [bpc_zero_column_rejected]. *)

From Coq Require Import Reals ZArith Lia List Uint63.
From Absorb Require Import Sums Blocks BiasBlocks ActivationDefs Activations BiasSpec ReluBias.
From Absorb Require Import Certify CodedData CertifyCoded CertifyBias.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

Section BiasPartialCoded.

Variable sigma : R -> R.
Variables (d n : nat) (R : list nat) (dA dB : Z) (E : int) (RA CB : list (list int)) (pg : int)
  (U V : list int).

(** The coded block's genericity (checked on residues mod [pg]) gives the full weights'. *)
Lemma generic_of_block_coded (A B : mat) :
  index_ok d R = true -> (0 < dA)%Z -> (0 < dB)%Z ->
  check_generic_sorted (length R) n (resid pg E RA) (resid pg E CB) pg U V = true ->
  agrees_up_coded n R dA E RA A -> agrees_down_coded n R dB E CB B -> generic d n A B.
Proof.
  intros Hok HdA HdB Hg HA HB.
  pose proof (check_generic_sorted_p _ _ _ _ _ _ _ Hg) as Hpg.
  exact (generic_restrict d n R A B _ _ (index_ok_lt d R Hok) HA HB
           (check_generic_sorted_sound_congr _ n dA dB _ _ pg U V (dentry E RA) (dentry E CB)
             Hg HdA HdB
              (congr_resid pg Hpg E RA) (fun i k => zentry_resid pg Hpg E CB i k))).
Qed.

(** Width [n]: not absorbable, for every [(W_up, c, W_down, b0)] agreeing with the coded block. *)
Theorem cert_bias_not_absorbable_partial_coded (r9 : bias_lines_property sigma) (p : int)
    (F : list nat)
    (FS : list (option nat * functional)) :
  index_ok d R = true ->
  check_generic_sorted (length R) n (resid pg E RA) (resid pg E CB) pg U V = true ->
  check_nosub (length R) n dA dB 1 (resid p E RA) (resid p E CB) (id_rows (length R)) p F
    FS = true ->
  forall (A : mat) (c : vec) (B : mat) (b0 : vec),
  agrees_up_coded n R dA E RA A -> agrees_down_coded n R dB E CB B ->
  ~ absorbable_ungated_bias sigma d n n identity A c B b0.
Proof.
  intros Hok Hg Hn A c B b0 HA HB.
  destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ Hn) as [HdA HdB].
  pose proof (check_nosub_p _ _ _ _ _ _ _ _ _ _ _ Hn) as Hp.
  apply (bias_not_absorbable_of_generic sigma r9);
    [exact (generic_of_block_coded A B Hok HdA HdB Hg HA HB)|].
  intros S HS.
  exact (check_nosub_identity_congr _ n dA dB _ _ p F FS (dentry E RA) (dentry E CB) Hn
           (congr_resid p Hp E RA) (congr_resid p Hp E CB) S
           (submatrix_restrict d n R S A B _ _ Hok HA HB HS)).
Qed.

(** Width [m < n]: genericity on the coded block alone. *)
Theorem cert_bias_not_absorbable_below_partial_coded (below : bias_below_property sigma) (m : nat) :
  index_ok d R = true -> (0 <? dA)%Z = true -> (0 <? dB)%Z = true ->
  check_generic_sorted (length R) n (resid pg E RA) (resid pg E CB) pg U V = true ->
    Nat.ltb m n = true ->
  forall (A : mat) (c : vec) (B : mat) (b0 : vec),
  agrees_up_coded n R dA E RA A -> agrees_down_coded n R dB E CB B ->
  ~ absorbable_ungated_bias sigma d n m identity A c B b0.
Proof.
  intros Hok HdA HdB Hg Hm A c B b0 HA HB. apply Z.ltb_lt in HdA, HdB. apply Nat.ltb_lt in Hm.
  exact
    (bias_below_of_generic sigma below d n m A c B b0
      (generic_of_block_coded A B Hok HdA HdB Hg HA HB) Hm).
Qed.

End BiasPartialCoded.

(** ** Non-vacuity *)

(** [d = 2], [n = 1], block [R = [1]]: [W_up] column 1 is the code [712] over
    [2^100] (the entry [2^100 / 2^100 = 1]), [W_down] row 1 is [1] (code [512]);
    every ReLU block agreeing there, with any biases, is not absorbable at width
    [1] (no subset gives [-1]) nor at width [0].  [CertifyCoded.cert_coded_example_agrees]
    gives matrices satisfying both agreement premises. *)
Example bpc_relu_not_absorbable : forall (A : mat) (c : vec) (B : mat) (b0 : vec),
  agrees_up_coded 1 [1%nat] (2 ^ 100) 256 [[712]]%uint63 A ->
  agrees_down_coded 1 [1%nat] 1 256 [[512]]%uint63 B ->
  ~ absorbable_ungated_bias relu 2 1 1 identity A c B b0.
Proof.
  exact (cert_bias_not_absorbable_partial_coded relu 2 1 [1%nat] (2 ^ 100) 1 256 [[712]]%uint63
           [[512]]%uint63 7%uint63 [1]%uint63 [1]%uint63 relu_bias_lines_property 7%uint63 [0]%nat
           [(None, [(0%nat, [1%uint63])])] eq_refl eq_refl eq_refl).
Qed.

Example bpc_relu_not_absorbable_below : forall (A : mat) (c : vec) (B : mat) (b0 : vec),
  agrees_up_coded 1 [1%nat] (2 ^ 100) 256 [[712]]%uint63 A ->
  agrees_down_coded 1 [1%nat] 1 256 [[512]]%uint63 B ->
  ~ absorbable_ungated_bias relu 2 1 0 identity A c B b0.
Proof.
  exact
    (cert_bias_not_absorbable_below_partial_coded relu 2 1 [1%nat] (2 ^ 100) 1 256 [[712]]%uint63
           [[512]]%uint63 7%uint63 [1]%uint63 [1]%uint63 relu_bias_below_property 0 eq_refl
           eq_refl eq_refl
           eq_refl eq_refl).
Qed.

(** A tampered block is rejected: the code [0] makes the [W_down] column zero. *)
Example bpc_zero_column_rejected :
  check_generic_sorted 1 1 (resid 7 256 [[712]]%uint63) (resid 7 256 [[0]]%uint63) 7 [1]%uint63
    [1]%uint63
  = false.
Proof. vm_compute. reflexivity. Qed.
