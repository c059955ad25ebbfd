(** * Certificates for biased blocks with a non-identity skip (R1 with biases)

    A block [P x + B sigma(A x + c) + b0] with an invertible skip [P] is
    absorbable at width [m] iff [x + (Q B) sigma(A x + c) + Q b0] is, for
    [Q = P^-1] ([SkipReductionBias.skip_reduction_ungated_bias]).  A certificate
    gives [P], [Q] ([CheckSkip.check_inverse]), the user's [B], [b0] and the
    reduced [B~ = Q B], [b0~ = Q b0] exactly, checked over [Z]
    ([CertifySkipWidth.check_reduced_down], [check_reduced_bias]); the verdict on
    the reduced block is any identity-skip certificate with biases.
    - [check_reduced_bias_sound]: [Q b0 = b0~] entrywise;
    - [absorbable_ungated_bias_ext]: absorbability reads [B] on [d x n] and [b0] on [d] only;
    - [cert_skip_bias_reduce]: the checks give
      [absorbable (P, A, c, B, b0) <-> absorbable (I, A, c, B~, b0~)] at every width.
    - [check_reduced_down_rows_sound], [cert_skip_bias_partial]: for reduced certificates
      stated for all weights agreeing with rows [R] of [B~] ([Certify.agrees_down]), [Q B]
      agrees with them, so the user's block absorbable gives a reduced block that is.
    Example: [skip_reduced_bias_ok] (a right and a wrong [b0~]). *)

From Coq Require Import Reals ZArith Lia Lra List Uint63.
From Absorb Require Import Sums Blocks ActivationDefs SkipReduction SkipReductionBias BiasBlocks.
From Absorb Require Import IntSums CheckSkip.
From Absorb.certify Require Import ZMatrices CertifyWidth CertifySkipWidth Certify.
Import ListNotations.
Open Scope bool_scope.

(** [dQ db b0~[p] = db~ sum_q Q[p, q] b0[q]] for every [p < d]. *)
Definition check_reduced_bias (d : nat) (dQ : Z) (RQ : list (list int)) (db : Z) (Lb : list int)
    (dbt : Z) (Lbt : list int) : bool :=
  (0 <? dQ)%Z && (0 <? db)%Z && (0 <? dbt)%Z &&
  forallb (fun p =>
    Z.eqb (dQ * db * zval (nth p Lbt 0%uint63))
          (dbt * zsum d (fun q => zentry RQ p q * zval (nth q Lb 0%uint63))))%Z
    (seq 0 d).

Lemma check_reduced_bias_sound d dQ RQ db Lb dbt Lbt :
  check_reduced_bias d dQ RQ db Lb dbt Lbt = true ->
  forall p, (p < d)%nat -> mv d (mat_of_rows dQ RQ) (vec_of db Lb) p = vec_of dbt Lbt p.
Proof.
  intros H p Hp. unfold check_reduced_bias in H.
  apply andb_prop in H as [H Hall]. apply andb_prop in H as [H Hbt].
  apply andb_prop in H as [HQ Hb].
  apply Z.ltb_lt in HQ, Hb, Hbt.
  rewrite forallb_forall in Hall. specialize (Hall p (proj2 (in_seq d 0 p) ltac:(lia))).
  apply Z.eqb_eq in Hall.
  unfold mv, dot, row, mat_of_rows, vec_of.
  pose proof (IZR_pos_neq0 _ HQ). pose proof (IZR_pos_neq0 _ Hb). pose proof (IZR_pos_neq0 _ Hbt).
  rewrite
    (sumn_ext d _ (fun q => IZR (zentry RQ p q * zval (nth q Lb 0%uint63)) / (IZR dQ * IZR db)))%R
    by (intros; rewrite mult_IZR; field; auto).
  unfold Rdiv. rewrite sumn_scal_r, <- IZR_zsum.
  apply (f_equal IZR) in Hall. rewrite !mult_IZR in Hall.
  replace (IZR (zval (nth p Lbt 0%uint63)))
    with (IZR dbt * IZR (zsum d (fun q => (zentry RQ p q * zval (nth q Lb 0%uint63))%Z))
          / (IZR dQ * IZR db))%R
    by (rewrite <- Hall; field; auto).
  field. auto.
Qed.

Lemma absorbable_ungated_bias_ext sigma d n m (P A : mat) (c : vec) (B B' : mat) (b0 b0' : vec) :
  (forall p i, (p < d)%nat -> (i < n)%nat -> B p i = B' p i) ->
  (forall p, (p < d)%nat -> b0 p = b0' p) ->
  absorbable_ungated_bias sigma d n m P A c B b0 ->
    absorbable_ungated_bias sigma d n m P A c B' b0'.
Proof.
  intros HB Hb [A' [c' [B'' [b0'' H]]]]. exists A', c', B'', b0''. intros x p Hp.
  rewrite (H x p Hp). unfold residual, ungated_bias. rewrite (Hb p Hp). f_equal. f_equal.
  apply sumn_ext. intros i Hi. rewrite (HB p i Hp Hi). reflexivity.
Qed.

(** The glue: [P Q = Q P = I] checked, [Q B = Bt] on [d x n] and [Q b0 = bt] on [d]. *)
Theorem cert_skip_bias_reduce sigma d n m dP RP dQ RQ ps (A : mat) (c : vec) dB CB db Lb (Bt : mat)
    (bt : vec) :
  check_inverse d dP RP dQ RQ ps = true ->
  (forall p i, (p < d)%nat -> (i < n)%nat ->
    mm d (mat_of_rows dQ RQ) (mat_of_cols dB CB) p i = Bt p i) ->
  (forall p, (p < d)%nat -> mv d (mat_of_rows dQ RQ) (vec_of db Lb) p = bt p) ->
  (absorbable_ungated_bias sigma d n m (mat_of_rows dP RP) A c (mat_of_cols dB CB)
    (vec_of db Lb) <->
   absorbable_ungated_bias sigma d n m identity A c Bt bt).
Proof.
  intros Hinv EB Eb.
  rewrite
    (skip_reduction_ungated_bias sigma d n m _ _ A c _ _ (check_inverse_sound _ _ _ _ _ _ Hinv)).
  split; apply absorbable_ungated_bias_ext; intros; [apply EB | apply Eb | symmetry; apply EB
                                                   | symmetry; apply Eb]; assumption.
Qed.

(** [Q B = B~] from [check_reduced_down], with [B~] given as [mat_of_cols] data. *)
Lemma check_reduced_down_cols d n dQ RQ dB CB dBt CBt :
  check_reduced_down d n dQ RQ dB CB dBt CBt = true ->
  forall p i, (p < d)%nat -> (i < n)%nat ->
  mm d (mat_of_rows dQ RQ) (mat_of_cols dB CB) p i = mat_of_cols dBt CBt p i.
Proof.
  intros H p i Hp Hi. rewrite <- zmat_cols_zrows.
  exact (check_reduced_down_sound _ _ _ _ _ _ _ _ H p i Hp Hi).
Qed.

(** ** Partial reduced certificates: [Q B] agrees with [B~] on rows [R] *)

(** [dQ dB B~[k, i] = dBt sum_q Q[R_k, q] B[q, i]] for every [k < |R|], [i < n]. *)
Definition check_reduced_down_rows (d n : nat) (R : list nat) (dQ : Z)
    (RQ : list (list int)) (dB : Z)
    (CB : list (list int)) (dBt : Z) (CBt : list (list int)) : bool :=
  (0 <? dQ)%Z && (0 <? dB)%Z && (0 <? dBt)%Z &&
  forallb (fun i => forallb (fun k =>
    Z.eqb (dQ * dB * zentry CBt i k)
      (dBt * zsum d (fun q => zentry RQ (nth k R O) q * zentry CB i q)))%Z
    (seq 0 (length R))) (seq 0 n).

Lemma check_reduced_down_rows_sound d n R dQ RQ dB CB dBt CBt :
  check_reduced_down_rows d n R dQ RQ dB CB dBt CBt = true ->
  agrees_down n R dBt CBt (mm d (mat_of_rows dQ RQ) (mat_of_cols dB CB)).
Proof.
  intros H k i Hk Hi. unfold check_reduced_down_rows in H.
  apply andb_prop in H as [H Hall]. apply andb_prop in H as [H HBt].
  apply andb_prop in H as [HQ HB].
  apply Z.ltb_lt in HQ, HB, HBt.
  rewrite forallb_forall in Hall. specialize (Hall i (proj2 (in_seq n 0 i) ltac:(lia))).
  rewrite forallb_forall in Hall. specialize (Hall k (proj2 (in_seq (length R) 0 k) ltac:(lia))).
  apply Z.eqb_eq in Hall.
  unfold mm, mat_of_rows, mat_of_cols.
  pose proof (IZR_pos_neq0 _ HQ). pose proof (IZR_pos_neq0 _ HB). pose proof (IZR_pos_neq0 _ HBt).
  rewrite
    (sumn_ext d _ (fun q => IZR (zentry RQ (nth k R O) q * zentry CB i q) / (IZR dQ * IZR dB)))%R
    by (intros; rewrite mult_IZR; field; auto).
  unfold Rdiv. rewrite sumn_scal_r, <- IZR_zsum.
  apply (f_equal IZR) in Hall. rewrite !mult_IZR in Hall.
  replace (IZR (zentry CBt i k))
    with
    (IZR dBt * IZR (zsum d (fun q => (zentry RQ (nth k R O) q * zentry CB i q)%Z)) /
      (IZR dQ * IZR dB))%R
    by (rewrite <- Hall; field; auto).
  field. auto.
Qed.

(** The user's block absorbable gives a reduced block, agreeing with [B~] on rows [R], that is. *)
Theorem cert_skip_bias_partial sigma d n m dP RP dQ RQ ps R dBt CBt (A : mat) (c : vec) dB CB
    (b0 : vec) :
  check_inverse d dP RP dQ RQ ps = true ->
  check_reduced_down_rows d n R dQ RQ dB CB dBt CBt = true ->
  absorbable_ungated_bias sigma d n m (mat_of_rows dP RP) A c (mat_of_cols dB CB) b0 ->
  exists (Bt : mat) (bt : vec),
    agrees_down n R dBt CBt Bt /\ absorbable_ungated_bias sigma d n m identity A c Bt bt.
Proof.
  intros Hinv Hrows H.
  exists (mm d (mat_of_rows dQ RQ) (mat_of_cols dB CB)), (mv d (mat_of_rows dQ RQ) b0). split.
  - exact (check_reduced_down_rows_sound _ _ _ _ _ _ _ _ _ Hrows).
  - exact (proj1 (skip_reduction_ungated_bias sigma d n m _ _ A c _ _
                     (check_inverse_sound _ _ _ _ _ _ Hinv)) H).
Qed.

(** ** Example *)

(** [Q = 1/2] (d = 1), [b0 = 3], [b0~ = 3/2]; a wrong [b0~ = 3] is rejected. *)
Example skip_reduced_bias_ok :
  check_reduced_bias 1 2 [[1%uint63]] 1 [3%uint63] 2 [3%uint63] = true /\
  check_reduced_bias 1 2 [[1%uint63]] 1 [3%uint63] 1 [3%uint63] = false.
Proof. split; vm_compute; reflexivity. Qed.

(** Rows [R = [0]] of [B~ = Q B] for [Q = 1/2], [B = (2, 4)]: [B~ = (1, 2)]; a wrong row is
    rejected. *)
Example skip_reduced_rows_ok :
  check_reduced_down_rows 1 2 [0%nat] 2 [[1%uint63]] 1 [[2%uint63]; [4%uint63]] 1
    [[1%uint63]; [2%uint63]] = true /\
  check_reduced_down_rows 1 2 [0%nat] 2 [[1%uint63]] 1 [[2%uint63]; [4%uint63]] 1
    [[1%uint63]; [3%uint63]] = false.
Proof. split; vm_compute; reflexivity. Qed.

(** [cert_skip_bias_reduce]'s checks hold for [2x - 2 relu(x + 1) + 3] (skip [2], inverse [1/2]),
    reduced to [x - relu(x + 1) + 3/2]. *)
Definition minus_two : int := 9223372036854775806%uint63.

Example cert_skip_bias_instance :
  absorbable_ungated_bias relu 1 1 1 (mat_of_rows 1 [[2%uint63]]) (fun _ _ => 1%R) (fun _ => 1%R)
    (mat_of_cols 1 [[minus_two]]) (vec_of 1 [3%uint63]) <->
  absorbable_ungated_bias relu 1 1 1 identity (fun _ _ => 1%R) (fun _ => 1%R)
    (mat_of_cols 2 [[minus_two]]) (vec_of 2 [3%uint63]).
Proof.
  exact (cert_skip_bias_reduce relu 1 1 1 1 [[2%uint63]] 2 [[1%uint63]] [2%uint63; 3%uint63]
           _ _ 1 [[minus_two]] 1 [3%uint63] _ _ (eq_refl true)
           (check_reduced_down_cols 1 1 2 [[1%uint63]] 1 [[minus_two]] 2 [[minus_two]]
             (eq_refl true))
           (check_reduced_bias_sound 1 2 [[1%uint63]] 1 [3%uint63] 2 [3%uint63] (eq_refl true))).
Qed.
