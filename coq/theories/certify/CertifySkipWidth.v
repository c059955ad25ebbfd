(** * Width certificates for blocks with a non-identity skip (R1 + R8, R1 + R8')

    A block [P x + B sigma(A x)] with an invertible skip [P] is absorbable at
    width [m] iff [x + (Q B) sigma(A x)] is, for [Q = P^-1]
    ([SkipReduction.skip_reduction_ungated]).  A certificate gives [P], [Q]
    ([CheckSkip.check_inverse]: [P Q = Q P = I]) and the reduced [B~ = Q B]
    exactly, checked column by column over [Z] ([check_reduced_down]); the
    width verdict on the reduced block is then any R8 certificate
    ([R8Certify], [CertifyWidth]).
    - [check_reduced_down_sound]: [Q B = B~] entrywise;
    - [absorbable_ungated_ext_B]: absorbability reads [B] on [d x n] only;
    - [cert_skip_reduce]: the two checks give
      [absorbable (P, A, B) <-> absorbable (I, A, B~)] at every width.
    Example: [P = 2 I] on the paper's counterexample, [B~ = B / 2]. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63.
From Absorb Require Import Sums Blocks ActivationDefs Activations SkipReduction.
From Absorb Require Import IntSums Modular SubsetTargets CheckSkip.
From Absorb.certify Require Import ZMatrices GroupingCheck WidthCheck SignsCheck R8Certify
  CertifyWidth.
Import ListNotations.
Open Scope bool_scope.

(** [dQ dB B~[p, i] = dBt sum_q Q[p, q] B[q, i]] for every [p < d], [i < n]
    ([B], [B~] given by their columns). *)
Definition check_reduced_down (d n : nat) (dQ : Z) (RQ : list (list int)) (dB : Z)
    (CB : list (list int))
    (dBt : Z) (CBt : list (list int)) : bool :=
  (0 <? dQ)%Z && (0 <? dB)%Z && (0 <? dBt)%Z &&
  forallb (fun i => forallb (fun p =>
    Z.eqb (dQ * dB * zentry CBt i p) (dBt * zsum d (fun q => zentry RQ p q * zentry CB i q)))%Z
    (seq 0 d)) (seq 0 n).

Lemma check_reduced_down_sound d n dQ RQ dB CB dBt CBt :
  check_reduced_down d n dQ RQ dB CB dBt CBt = true ->
  forall p i, (p < d)%nat -> (i < n)%nat ->
  mm d (mat_of_rows dQ RQ) (mat_of_cols dB CB) p i = zmat_cols dBt (zrows CBt) p i.
Proof.
  intros H p i Hp Hi. unfold check_reduced_down in H.
  apply andb_prop in H as [H Hall]. apply andb_prop in H as [H HBt].
  apply andb_prop in H as [HQ HB].
  apply Z.ltb_lt in HQ, HB, HBt.
  rewrite forallb_forall in Hall. specialize (Hall i (proj2 (in_seq n 0 i) ltac:(lia))).
  rewrite forallb_forall in Hall. specialize (Hall p (proj2 (in_seq d 0 p) ltac:(lia))).
  apply Z.eqb_eq in Hall.
  rewrite zmat_cols_zrows. unfold mm, mat_of_rows, mat_of_cols.
  pose proof (IZR_pos_neq0 _ HQ). pose proof (IZR_pos_neq0 _ HB). pose proof (IZR_pos_neq0 _ HBt).
  rewrite (sumn_ext d _ (fun q => IZR (zentry RQ p q * zentry CB i q) / (IZR dQ * IZR dB)))%R
    by (intros; rewrite mult_IZR; field; auto).
  unfold Rdiv. rewrite sumn_scal_r, <- IZR_zsum.
  apply (f_equal IZR) in Hall. rewrite !mult_IZR in Hall.
  replace (IZR (zentry CBt i p))
    with (IZR dBt * IZR (zsum d (fun q => (zentry RQ p q * zentry CB i q)%Z))
                                      / (IZR dQ * IZR dB))%R
    by (rewrite <- Hall; field; auto).
  field. auto.
Qed.

Lemma absorbable_ungated_ext_B sigma d n m (P A B B' : mat) :
  (forall p i, (p < d)%nat -> (i < n)%nat -> B p i = B' p i) ->
  absorbable_ungated sigma d n m P A B -> absorbable_ungated sigma d n m P A B'.
Proof.
  intros HB [A' [B'' H]]. exists A', B''. intros x p Hp. rewrite (H x p Hp).
  unfold residual, ungated. f_equal. apply sumn_ext. intros i Hi. rewrite (HB p i Hp Hi).
  reflexivity.
Qed.

Theorem cert_skip_reduce sigma d n m dP RP dQ RQ ps (A : mat) dB CB dBt CBt :
  check_inverse d dP RP dQ RQ ps = true ->
  check_reduced_down d n dQ RQ dB CB dBt CBt = true ->
  (absorbable_ungated sigma d n m (mat_of_rows dP RP) A (mat_of_cols dB CB) <->
   absorbable_ungated sigma d n m identity A (zmat_cols dBt (zrows CBt))).
Proof.
  intros Hinv Hred.
  rewrite (skip_reduction_ungated sigma d n m _ _ A _ (check_inverse_sound _ _ _ _ _ _ Hinv)).
  pose proof (check_reduced_down_sound _ _ _ _ _ _ _ _ Hred) as E.
  split; apply absorbable_ungated_ext_B; intros p i Hp Hi; [| symmetry]; exact (E p i Hp Hi).
Qed.

(** ** Example *)

(** [P = 2], [Q = 1/2], [B = (1, 1)] and [B~ = (1/2, 1/2)]; a wrong [B~] is rejected. *)
Example skip_reduced_down_ok :
  check_reduced_down 1 2 2 [[1%uint63]] 1 [[1%uint63]; [1%uint63]] 2
    [[1%uint63]; [1%uint63]] = true /\
  check_reduced_down 1 2 2 [[1%uint63]] 1 [[1%uint63]; [1%uint63]] 1
    [[1%uint63]; [1%uint63]] = false.
Proof. split; vm_compute; reflexivity. Qed.

(** Both sides of [cert_skip_reduce] on [2 x + relu(x) + relu(2x)] ([P = 2], [Q = 1/2]):
    the reduced block [x + relu(x)/2 + relu(2x)/2] has one class ([u = 1], scales
    [1, 2], kink [3/2], [L = 1]); it is absorbable at width [2] ([T = {0}], [E = 1]),
    so the skipped block is, and neither is at width [0] (below the class count). *)
Definition sk_RA : list (list int) := [[1%uint63]; [2%uint63]].
Definition sk_CB : list (list int) := [[1%uint63]; [1%uint63]].

Example skip_absorbable_2 :
  absorbable_ungated relu 1 2 2 (mat_of_rows 1 [[2%uint63]]) (zmat_rows 1 (zrows sk_RA))
    (mat_of_cols 1 sk_CB).
Proof.
  apply
    (proj2
      (cert_skip_reduce relu 1 2 2 1 [[2%uint63]] 2 [[1%uint63]] [5; 7]%uint63 _ 1 sk_CB 2 sk_CB
                  ltac:(vm_compute; reflexivity) ltac:(vm_compute; reflexivity))).
  apply
    (R8Certify.cert_r8_absorbable_relu 1 2 1 1 2 1 (zrows sk_RA) 2 (zrows sk_CB) 1 [[1%Z]] 1
      [1%Z; 2%Z]
           [0%nat; 0%nat] 2 [[3%Z]] 1 [[1%Z]] [true] [false] 0 1 [[1%Z]] 1 [] 1 []);
    vm_compute; reflexivity.
Qed.

Example skip_not_absorbable_0 :
  ~ absorbable_ungated relu 1 2 0 (mat_of_rows 1 [[2%uint63]]) (zmat_rows 1 (zrows sk_RA))
    (mat_of_cols 1 sk_CB).
Proof.
  rewrite (cert_skip_reduce relu 1 2 0 1 [[2%uint63]] 2 [[1%uint63]] [5; 7]%uint63 _ 1 sk_CB 2 sk_CB
             ltac:(vm_compute; reflexivity) ltac:(vm_compute; reflexivity)).
  apply
    (R8Certify.cert_r8_below_classes_relu 1 2 1 1 0 1 (zrows sk_RA) 2 (zrows sk_CB) 1 [[1%Z]] 1
      [1%Z; 2%Z]
           [0%nat; 0%nat] 2 [[3%Z]] 1 [[1%Z]]); vm_compute; reflexivity.
Qed.
