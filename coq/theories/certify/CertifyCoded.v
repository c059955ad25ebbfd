(** * Certificates on coded data: numerators beyond 63 bits

    [cert_generic_not_absorbable_partial_coded] is
    [Certify.cert_generic_not_absorbable_partial] with the block's entries
    given as codes of [+- mag * 2^e] ([CodedData.v]): the two checkers run on
    the residues of the codes modulo their primes, computed by the VM; the
    verdict is stated for every pair of matrices agreeing with the decoded
    block ([mat_of_drows], [mat_of_dcols]), whatever the size of its numerators
    over the common denominators.  [cert_absorbable_coded] (and its witness
    [cert_absorbable_coded_witness]): R5 (<=) on coded data, the exact
    identity shown through [check_submatrix_coded]; [cert_absorbable_bias_coded]
    with biases (R7), coded too ([vec_of_coded]).  [cert_coded_example],
    [cert_absorbable_coded_example]: blocks whose numerators are [2^100] and [1]. *)

From Coq Require Import Reals ZArith Lia List Uint63.
From Absorb Require Import Sums Blocks BiasBlocks ActivationDefs Activations FlipSigns Biases.
From Absorb Require Export Certify CodedData.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

(** [A] agrees with the coded data on columns [R]; [B] on rows [R]. *)
Definition agrees_up_coded (n : nat) (R : list nat) (dA : Z) (E : int)
    (RA : list (list int)) (A : mat)
  : Prop :=
  forall i j, (i < n)%nat -> (j < length R)%nat -> A i (nth j R O) = mat_of_drows dA E RA i j.

Definition agrees_down_coded (n : nat) (R : list nat) (dB : Z) (E : int)
    (CB : list (list int)) (B : mat)
  : Prop :=
  forall k i, (k < length R)%nat -> (i < n)%nat -> B (nth k R O) i = mat_of_dcols dB E CB k i.

Lemma check_generic_sorted_p d n RA CB p u v :
  check_generic_sorted d n RA CB p u v = true -> (1 < phi p < 2 ^ 31)%Z.
Proof.
  unfold check_generic_sorted. intros H. apply p_ok_spec.
  do 4 (apply andb_prop in H as [H _]). exact H.
Qed.

Lemma check_nosub_p d n dA dB dT RA CB RT p F fs :
  check_nosub d n dA dB dT RA CB RT p F fs = true -> (1 < phi p < 2 ^ 31)%Z.
Proof.
  unfold check_nosub. intros H. apply p_ok_spec.
  do 5 (apply andb_prop in H as [H _]). exact H.
Qed.

Section PartialCoded.

Variable sigma : R -> R.
Variable r5 : generic_submatrix_property sigma.
Variables (d n : nat) (R : list nat) (dA dB : Z) (E : int) (RA CB : list (list int)) (pg : int)
  (U V : list int) (p : int) (F : list nat) (FS : list (option nat * functional)).

(** Not absorbable, for every [(W_up, W_down)] agreeing with the decoded block. *)
Lemma cert_generic_not_absorbable_partial_coded :
  index_ok d R = true ->
  check_generic_sorted (length R) n (resid pg E RA) (resid pg E CB) pg U V = true ->
  check_nosub (length R) n dA dB 1 (resid p E RA) (resid p E CB) (id_rows (length R)) p F
    FS = true ->
  forall A B : mat, agrees_up_coded n R dA E RA A -> agrees_down_coded n R dB E CB B ->
  ~ absorbable_ungated sigma d n n identity A B.
Proof.
  intros Hok Hg Hn A B HA HB Habs.
  destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ Hn) as [HdA HdB].
  pose proof (check_generic_sorted_p _ _ _ _ _ _ _ Hg) as Hpg.
  pose proof (check_nosub_p _ _ _ _ _ _ _ _ _ _ _ Hn) as Hp.
  pose proof
    (check_generic_sorted_sound_congr _ n dA dB _ _ pg U V (dentry E RA) (dentry E CB) Hg HdA HdB
                (congr_resid pg Hpg E RA) (fun i k => zentry_resid pg Hpg E CB i k)) as Hgen.
  destruct (r5 d n A B (generic_restrict d n R A B _ _ (index_ok_lt d R Hok) HA HB Hgen) Habs)
    as [S HS].
  exact (check_nosub_identity_congr _ n dA dB _ _ p F FS (dentry E RA) (dentry E CB) Hn
           (congr_resid p Hp E RA) (congr_resid p Hp E CB) S
           (submatrix_restrict d n R S A B _ _ Hok HA HB HS)).
Qed.

End PartialCoded.

(** ** Absorbable: R5 (<=) on coded data *)

Section AbsorbableCoded.

Variable sigma : R -> R.
Variable odd : odd_part_identity sigma.
Variables (d n : nat) (dA dB : Z) (E : int) (RA CB : list (list int)) (Sl : list bool)
    (ps : list int).

Lemma cert_absorbable_coded :
  check_submatrix_coded d n dA dB 1 E RA CB (id_rows d) Sl ps = true ->
  absorbable_ungated sigma d n n identity (mat_of_drows dA E RA) (mat_of_dcols dB E CB).
Proof.
  intros H. exact (odd_part_absorbable sigma d n (Sfun Sl) _ _ odd
                     (check_submatrix_coded_identity d n dA dB E RA CB Sl ps H)).
Qed.

(** The witness: rows in [S] of [W_up] negated. *)
Lemma cert_absorbable_coded_witness :
  check_submatrix_coded d n dA dB 1 E RA CB (id_rows d) Sl ps = true ->
  same_fun d (ungated sigma d n (flip_rows (Sfun Sl) (mat_of_drows dA E RA)) (mat_of_dcols dB E CB))
    (residual d identity (ungated sigma d n (mat_of_drows dA E RA) (mat_of_dcols dB E CB))).
Proof.
  intros H. exact (flip_rows_residual sigma d n (Sfun Sl) _ _ odd
                     (check_submatrix_coded_identity d n dA dB E RA CB Sl ps H)).
Qed.

(** A coded data vector (biases). *)
Definition vec_of_coded (den : Z) (E : int) (l : list int) : vec :=
  fun i => (IZR (dval E (nth i l 0%uint63)) / IZR den)%R.

Lemma cert_absorbable_bias_coded dc db0 Lc Lb0 :
  check_submatrix_coded d n dA dB 1 E RA CB (id_rows d) Sl ps = true ->
  absorbable_ungated_bias sigma d n n identity (mat_of_drows dA E RA) (vec_of_coded dc E Lc)
    (mat_of_dcols dB E CB) (vec_of_coded db0 E Lb0).
Proof.
  intros H. exact (odd_part_absorbable_bias sigma d n (Sfun Sl) _ _ _ _ odd
                     (check_submatrix_coded_identity d n dA dB E RA CB Sl ps H)).
Qed.

End AbsorbableCoded.

(** ** Non-vacuity *)

(** [d = n = 1]: [a = 2^100 / 2^100 = 1] (code [712]), [b = -1] (code [513]): absorbable
    with [S = {0}]. *)
Example cert_absorbable_coded_example :
  absorbable_ungated relu 1 1 1 identity (mat_of_drows (2 ^ 100) 256 [[712]]%uint63)
    (mat_of_dcols 1 256 [[513]]%uint63).
Proof.
  exact
    (cert_absorbable_coded relu relu_odd_part 1 1 (2 ^ 100) 1 256 [[712]]%uint63
      [[513]]%uint63 [true]
           [2147483647; 2147483629; 2147483587; 2147483579]%uint63 eq_refl).
Qed.

(** The code [712] with base [256] stands for [2^100] ([mag = 1], [e = 100]);
    over the denominator [2^100] it is the entry [1]. *)
Lemma coded_example_value : mat_of_drows (2 ^ 100) 256 [[712]]%uint63 0%nat 0%nat = 1%R.
Proof.
  unfold mat_of_drows, zmat, dentry. simpl nth.
  replace (dval 256 712) with (2 ^ 100)%Z by (vm_compute; reflexivity).
  unfold Rdiv. apply Rinv_r. apply not_0_IZR. discriminate.
Qed.

(** [d = 2], [n = 1], block [R = [1]]: [W_up] column 1 is [2^100 / 2^100 = 1],
    [W_down] row 1 is [1]; every pair agreeing there is not absorbable. *)
Example cert_coded_example : forall A B : mat,
  agrees_up_coded 1 [1%nat] (2 ^ 100) 256 [[712]]%uint63 A ->
  agrees_down_coded 1 [1%nat] 1 256 [[512]]%uint63 B ->
  ~ absorbable_ungated relu 2 1 1 identity A B.
Proof.
  exact
    (cert_generic_not_absorbable_partial_coded relu relu_generic_submatrix 2 1 [1%nat]
      (2 ^ 100) 1 256
           [[712]]%uint63 [[512]]%uint63 7%uint63 [1]%uint63 [1]%uint63 7%uint63 [0]%nat
           [(None, [(0%nat, [1%uint63])])] eq_refl eq_refl eq_refl).
Qed.

(** The premises are satisfiable: the matrices of the block itself agree with it. *)
Example cert_coded_example_agrees :
  agrees_up_coded 1 [1%nat] (2 ^ 100) 256 [[712]]%uint63
    (fun i j => if Nat.eqb j 1 then mat_of_drows (2 ^ 100) 256 [[712]]%uint63 i 0%nat else 0%R) /\
  agrees_down_coded 1 [1%nat] 1 256 [[512]]%uint63
    (fun k i => if Nat.eqb k 1 then mat_of_dcols 1 256 [[512]]%uint63 0%nat i else 0%R).
Proof.
  split; intros a b Ha Hb; simpl in *; [destruct b as [|[|]] | destruct a as [|[|]]]; try lia;
    reflexivity.
Qed.

(** With biases [c = 2^-100] (code [712] over [2^200]) and [b0 = 0]. *)
Example cert_absorbable_bias_coded_example :
  absorbable_ungated_bias relu 1 1 1 identity (mat_of_drows (2 ^ 100) 256 [[712]]%uint63)
    (vec_of_coded (2 ^ 200) 256 [712]%uint63) (mat_of_dcols 1 256 [[513]]%uint63)
    (vec_of_coded 1 256 [0]%uint63).
Proof.
  exact
    (cert_absorbable_bias_coded relu relu_odd_part 1 1 (2 ^ 100) 1 256 [[712]]%uint63 [[513]]%uint63
           [true] [2147483647; 2147483629; 2147483587; 2147483579]%uint63 (2 ^ 200) 1 [712]%uint63
           [0]%uint63 eq_refl).
Qed.
