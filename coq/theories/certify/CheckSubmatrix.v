(** * The submatrix checker [check_submatrix] for a given subset and its soundness

    [check_submatrix_sound]: [sum_(i in S) b_i a_i^T = - T] exactly for the
    given [S]; corollaries: [submatrix_cond] for the identity skip, and for R1's
    reduced block with an invertible skip. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63 Znumtheory.
From Absorb Require Import Sums Blocks IntSums Modular SubsetTargets.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

(** ** Instances: a given subset [S], an inverse skip, a nonzero skip *)

Definition check_submatrix (d n : nat) (dA dB dT : Z) (RA CB RT : list (list int))
    (Sl : list bool) (ps : list int) : bool :=
  (0 <? dA)%Z && (0 <? dB)%Z && (0 <? dT)%Z &&
  check_prod d n (colsX CB) (rowsX RA) (rowsX RT) (Sfun Sl) dT (dA * dB) ps.

Theorem check_submatrix_sound d n dA dB dT RA CB RT Sl ps :
  check_submatrix d n dA dB dT RA CB RT Sl ps = true ->
  target_eq d n (Sfun Sl) (mat_of_rows dA RA) (mat_of_cols dB CB) (mat_of_rows dT RT).
Proof.
  unfold check_submatrix. intros H k l Hk Hl.
  apply andb_prop in H as [H Hc]. apply andb_prop in H as [H HT].
  apply andb_prop in H as [HA HB]. apply Z.ltb_lt in HA, HB, HT.
  pose proof (check_prod_sound _ _ _ _ _ _ _ _ _ Hc k l Hk Hl) as E.
  unfold colsX, rowsX in E. fold (zentry RT k l) in E.
  apply IZR_lt in HA, HB, HT.
  rewrite subset_sum_Z by lra. unfold mat_of_rows.
  set (z := zsum n (fun i => if Sfun Sl i then zentry CB i k * zentry RA i l else 0)%Z).
  assert (Ez : (dT * z = - (dA * dB * zentry RT k l))%Z).
  { unfold z. unfold zentry in *. lia. }
  apply (f_equal IZR) in Ez. rewrite !mult_IZR, opp_IZR, !mult_IZR in Ez.
  apply (Rmult_eq_reg_l (IZR dT)); [|lra].
  field_simplify; try lra. rewrite Ez. field. lra.
Qed.

Corollary check_submatrix_identity d n dA dB RA CB Sl ps :
  check_submatrix d n dA dB 1 RA CB (id_rows d) Sl ps = true ->
  submatrix_cond d n (Sfun Sl) (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros H k l Hk Hl. rewrite (check_submatrix_sound _ _ _ _ _ _ _ _ _ _ H k l Hk Hl).
  rewrite id_rows_spec by assumption. reflexivity.
Qed.

Corollary check_submatrix_skip d n dA dB dP RA CB RP Sl ps Q :
  check_submatrix d n dA dB dP RA CB RP Sl ps = true ->
  inverse_of d (mat_of_rows dP RP) Q ->
  submatrix_cond d n (Sfun Sl) (mat_of_rows dA RA) (mm d Q (mat_of_cols dB CB)).
Proof.
  intros H HPQ. apply (target_skip_submatrix _ _ _ _ _ _ _ HPQ).
  exact (check_submatrix_sound _ _ _ _ _ _ _ _ _ _ H).
Qed.
