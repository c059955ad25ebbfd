(** * Checkers for skips: an inverse pair, a nonzero matrix

    [check_inverse_sound]: [P Q = Q P = I] exactly; [check_nonzero_sound]: [P]
    has a nonzero entry; [identity_nonzero]. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63 Znumtheory.
From Absorb Require Import Sums Blocks IntSums Modular SubsetTargets.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

Definition check_inverse (d : nat) (dP : Z) (RP : list (list int)) (dQ : Z) (RQ : list (list int))
    (ps : list int) : bool :=
  (0 <? dP)%Z && (0 <? dQ)%Z &&
  check_prod d d (rowsX RP) (rowsX RQ) (rowsX (id_rows d)) (fun _ => true) 1 (- (dP * dQ)) ps &&
  check_prod d d (rowsX RQ) (rowsX RP) (rowsX (id_rows d)) (fun _ => true) 1 (- (dP * dQ)) ps.

Lemma prod_identity d dP RP dQ RQ ps :
  (0 < dP)%Z -> (0 < dQ)%Z ->
  check_prod d d (rowsX RP) (rowsX RQ) (rowsX (id_rows d)) (fun _ => true) 1 (- (dP * dQ))
    ps = true ->
  forall k l, (k < d)%nat -> (l < d)%nat ->
  mm d (mat_of_rows dP RP) (mat_of_rows dQ RQ) k l = identity k l.
Proof.
  intros HP HQ H k l Hk Hl.
  pose proof (check_prod_sound _ _ _ _ _ _ _ _ _ H k l Hk Hl) as E.
  rewrite <- (id_rows_spec d k l Hk Hl).
  unfold mm, mat_of_rows. unfold rowsX in E. fold (zentry (id_rows d) k l) in E.
  apply IZR_lt in HP, HQ.
  rewrite (sumn_ext d _ (fun m => IZR (zentry RP k m * zentry RQ m l) / (IZR dP * IZR dQ)))%R
    by (intros; rewrite mult_IZR; field; lra).
  unfold Rdiv. rewrite sumn_scal_r, <- IZR_zsum.
  assert (Ez : zsum d (fun m => zentry RP k m * zentry RQ m l)%Z =
               (dP * dQ * zentry (id_rows d) k l)%Z).
  { unfold zentry in *. lia. }
  rewrite Ez, !mult_IZR. field. lra.
Qed.

Theorem check_inverse_sound d dP RP dQ RQ ps :
  check_inverse d dP RP dQ RQ ps = true ->
  inverse_of d (mat_of_rows dP RP) (mat_of_rows dQ RQ).
Proof.
  unfold check_inverse. intros H.
  apply andb_prop in H as [H H2]. apply andb_prop in H as [H H1].
  apply andb_prop in H as [HP HQ]. apply Z.ltb_lt in HP, HQ.
  intros k l Hk Hl. split.
  - exact (prod_identity d dP RP dQ RQ ps HP HQ H1 k l Hk Hl).
  - rewrite Z.mul_comm in H2. exact (prod_identity d dQ RQ dP RP ps HQ HP H2 k l Hk Hl).
Qed.

Definition check_nonzero (d : nat) (RP : list (list int)) (k l : nat) : bool :=
  Nat.ltb k d && Nat.ltb l d && negb (nth l (nth k RP []) 0%uint63 =? 0)%uint63.

Lemma check_nonzero_sound d dP RP k l :
  check_nonzero d RP k l = true -> (0 < dP)%Z -> nonzero_mat d (mat_of_rows dP RP).
Proof.
  unfold check_nonzero. intros H HP.
  apply andb_prop in H as [H Hz]. apply andb_prop in H as [Hk Hl].
  apply Nat.ltb_lt in Hk, Hl. apply Bool.negb_true_iff in Hz.
  exists k, l. split; [exact Hk|]. split; [exact Hl|].
  unfold mat_of_rows, zentry. apply IZR_lt in HP. intros E.
  assert (E' : IZR (zval (nth l (nth k RP []) 0%uint63)) = 0%R).
  { apply (f_equal (fun x => x * IZR dP)%R) in E. field_simplify in E; lra. }
  apply eq_IZR, zval_zero in E'. rewrite E', Uint63.eqb_refl in Hz. discriminate.
Qed.

Lemma identity_nonzero d : (0 < d)%nat -> nonzero_mat d identity.
Proof.
  intros H. exists 0%nat, 0%nat. split; [exact H|]. split; [exact H|].
  unfold identity. simpl. lra.
Qed.
