(** * Certificates on residues: a ReLU or GELU-family layer with one extra row at width [n]

    [CertifyWidthOneExtra.cert_one_extra_coded_not_absorbable] carries its block (columns
    [C] of [W_up] for all [n] rows, rows [R1] of [W_down] for all [n] columns) as codes,
    two numerators per 63-bit literal, though its checkers read the block only modulo two
    primes.  Here the certificate carries those residues: [RAq] and [CBq], the block
    modulo the refutation's prime [q < 2^21] (three per literal), and [RAp], columns [C2]
    of [W_up] (two suffice) modulo the genericity prime [p]: the classes' ratios are
    distinct there, hence on all of [W_up] ([CertifyWidthOneExtra.one_extra_core] reads
    genericity from any columns).

    [cert_one_extra_res_not_absorbable]: for every pair whose numerators on the block are
    congruent to the data ([CertifyResidues.agrees_up_mod], [agrees_down_mod]) and whose
    row [z] is [ln / ld] times row [i1]: not absorbable at width [n].  The numerators may
    have any size.  [cert_one_extra_res_dead_not_absorbable]: the same for a dead neuron
    (column [z] of [W_down] zero, [ln = 0]).  Both for any [sigma] R8 reads the one-extra
    grouping for ([one_extra_res_sound] over [CertifyWidthOneExtra.one_extra_r8]):
    [cert_one_extra_res_pm_not_absorbable] / [cert_one_extra_res_pm_dead_not_absorbable] for
    the GELU family (odd-part identity, [sigma 0 = 0], ridge uniqueness of the even part), whose
    extra row must be zero or [+-] row [i1] ([check_one_extra_res_pm]: [|ln| = ld]).
    Examples: [one_extra_res_example], a [3 x 5] layer with a zero row, whose premises its
    integer weights satisfy ([one_extra_res_example_agrees]); [one_extra_res_dead_example], one
    with a dead neuron; [one_extra_res_gelu_example], the first for GELU;
    [one_extra_res_pm_scale_refused], a row at twice another's refused for the GELU family. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix IntSums
  Modular CheckNoSubset CheckGeneric Certify CertifyResidues.
From Absorb.decide Require Import R8.
From Absorb.certify Require Import RefuteOneExtra OneExtraGrouping CertifyWidthOneExtra.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

Definition check_one_extra_res (d n z i1 : nat) (ln ld : Z) (R1 C C2 : list nat) (dA dB : Z)
    (RAq RAp CBq : list (list int)) (p q : int) (u v : list int)
    (Ys : list (list (list int))) (As : list (list int)) : bool :=
  index_ok d R1 && index_ok d C && index_ok d C2 && Nat.ltb z n && Nat.ltb i1 n &&
  negb (Nat.eqb z i1) && (0 <? ld)%Z && (0 <? dA)%Z && (0 <? dB)%Z &&
  Nat.eqb (length RAq) n && Nat.eqb (length RAp) n && Nat.eqb (length CBq) n &&
  let Gq := block_G q (length R1) z i1 ln ld CBq in
  check_generic_sorted (length C2) (n - 1) (remove_at z RAp) Gq p u v &&
  check_refute_raw (length R1) (length C) (n - 1) q (cZ q (ld * dB * dA)) Ys As
    (remove_at z RAq) Gq (block_L q R1 C z i1 ln ld dA dB RAq CBq).

(** ** Congruences carry over to the block's [U], [G], [L] *)

Lemma congr_trans P f g h : congr P f g -> congr P g h -> congr P f h.
Proof. intros H1 H2 i j. rewrite H1. apply H2. Qed.

Lemma mod_add_congr P a a' b b' : (a mod P = a' mod P -> b mod P = b' mod P ->
  (a + b) mod P = (a' + b') mod P)%Z.
Proof. intros Ha Hb. rewrite Zplus_mod, Ha, Hb, <- Zplus_mod. reflexivity. Qed.

Lemma mod_mul_congr P a a' b b' : (a mod P = a' mod P -> b mod P = b' mod P ->
  (a * b) mod P = (a' * b') mod P)%Z.
Proof. intros Ha Hb. rewrite Zmult_mod, Ha, Hb, <- Zmult_mod. reflexivity. Qed.

Section Transport.

Variables (n z i1 : nat) (ln ld dA dB : Z) (R1 C : list nat) (P : Z).

Lemma eU1f_congr eA eA' : congr P eA eA' -> congr P (eU1f z eA) (eU1f z eA').
Proof. intros H t j. apply H. Qed.

Lemma eG1f_congr eB eB' : congr P eB eB' ->
  congr P (eG1f n z i1 ln ld R1 eB) (eG1f n z i1 ln ld R1 eB').
Proof.
  intros H t l. unfold eG1f. destruct (_ && _); [|reflexivity].
  apply mod_add_congr; [apply mod_mul_congr; [reflexivity | apply H]|].
  destruct (Nat.eqb t (idx z i1)); [|reflexivity].
  apply mod_mul_congr; [reflexivity | apply H].
Qed.

Lemma eL1f_congr eA eA' eB eB' : congr P eA eA' -> congr P eB eB' ->
  congr P (eL1f z i1 ln ld dA dB R1 C eA eB) (eL1f z i1 ln ld dA dB R1 C eA' eB').
Proof.
  intros HA HB l j. unfold eL1f. destruct (_ && _); [|reflexivity].
  apply mod_add_congr; [reflexivity|]. destruct (Z.ltb ln 0); [|reflexivity].
  apply mul3_congr; [reflexivity | apply HB | apply HA].
Qed.

End Transport.

(** ** The certificate lemma *)

Lemma check_one_extra_res_rows (d n z i1 : nat) (ln ld : Z) (R1 C C2 : list nat)
    (dA dB : Z) (RAq RAp CBq : list (list int)) (p q : int) (u v : list int)
    (Ys : list (list (list int))) (As : list (list int)) :
  check_one_extra_res d n z i1 ln ld R1 C C2 dA dB RAq RAp CBq p q u v Ys As = true ->
  (z < n)%nat /\ (i1 < n)%nat /\ z <> i1 /\ (0 < ld)%Z.
Proof.
  unfold check_one_extra_res. intros H. repeat (apply andb_prop in H as [H ?]).
  check_facts. repeat split; assumption.
Qed.

(** Any [sigma] for which R8 reads the one-extra grouping ([one_extra_r8]). *)
Lemma one_extra_res_sound (sigma : R -> R) (d n z i1 : nat) (ln ld : Z) (R1 C C2 : list nat)
    (dA dB : Z) (RAq RAp CBq : list (list int)) (p q : int) (u v : list int)
    (Ys : list (list (list int))) (As : list (list int)) :
  one_extra_r8 sigma d n z i1 ln ld ->
  check_one_extra_res d n z i1 ln ld R1 C C2 dA dB RAq RAp CBq p q u v Ys As = true ->
  forall A B : mat, agrees_up_mod n C dA q RAq A -> agrees_up_mod n C2 dA p RAp A ->
  agrees_down_mod n R1 dB q CBq B -> extra_relation d z i1 ln ld A B ->
  ~ absorbable_ungated sigma d n n identity A B.
Proof.
  intros Hr8 Hchk A B [eA [CA HA]] [eA2 [CA2 HA2]] [eBt [CB HB]] Hrel.
  unfold check_one_extra_res in Hchk. cbv zeta in Hchk.
  apply andb_prop in Hchk as [Hchk Hgr]. apply andb_prop in Hgr as [Hg Hr].
  apply check_refute_raw_sound in Hr.
  repeat match type of Hchk with (_ && _) = true => apply andb_prop in Hchk as [Hchk ?] end.
  check_facts.
  rename Hchk into HR1.
  assert (Hp : (1 < phi p < 2 ^ 31)%Z).
  { unfold check_generic_sorted in Hg. apply p_ok_spec.
    do 4 (apply andb_prop in Hg as [Hg _]). exact Hg. }
  destruct (check_parts _ _ _ _ _ _ _ _ _ _ Hr) as (Hq & _).
  match goal with H : length CBq = n |- _ => rename H into HlB end.
  match goal with H : (z < n)%nat |- _ => rename H into Hz end.
  assert (HdG : (0 < ld * dB)%Z) by lia.
  assert (CG : congr (phi q) (zentry (block_G q (length R1) z i1 ln ld CBq))
                 (eG1f n z i1 ln ld R1 eBt)).
  { apply (congr_trans _ _ (eG1f n z i1 ln ld R1 (zentry CBq))).
    - exact (congr_G n z i1 ln ld R1 CBq q Hq Hz HlB).
    - exact (eG1f_congr n z i1 ln ld R1 _ _ _ CB). }
  apply (one_extra_core sigma d n z i1 ln ld dA dB R1 C eA eBt C2 eA2 q (cZ q (ld * dB * dA)) Ys
           As (remove_at z RAq) (block_G q (length R1) z i1 ln ld CBq)
           (block_L q R1 C z i1 ln ld dA dB RAq CBq) A B); try assumption.
  - apply (check_generic_sorted_sound_gen (length C2) (n - 1) dA (ld * dB) (remove_at z RAp)
             (block_G q (length R1) z i1 ln ld CBq) p u v); try assumption.
    + exact (congr_trans _ _ _ _ (congr_U z RAp p) (eU1f_congr z _ _ _ CA2)).
    + intros t l Hnz E. apply Hnz. rewrite (block_G_entry n z i1 ln ld R1 CBq q Hq Hz HlB).
      pose proof (eG1f_congr n z i1 ln ld R1 _ _ _ CB t l) as Et. simpl in Et.
      change (eG1 n z i1 ln ld R1 CBq t l) with (eG1f n z i1 ln ld R1 (zentry CBq) t l).
      rewrite Et, E. reflexivity.
  - rewrite (cZ_spec q _ Hq), Zmod_mod. reflexivity.
  - exact (congr_trans _ _ _ _ (congr_U z RAq q) (eU1f_congr z _ _ _ CA)).
  - apply (congr_trans _ _ (eL1f z i1 ln ld dA dB R1 C (zentry RAq) (zentry CBq))).
    + exact (congr_L n z i1 ln ld dA dB R1 C RAq CBq q Hq Hz HlB).
    + exact (eL1f_congr z i1 ln ld dA dB R1 C _ _ _ _ _ CA CB).
Qed.

Theorem cert_one_extra_res_not_absorbable (d n z i1 : nat) (ln ld : Z) (R1 C C2 : list nat)
    (dA dB : Z) (RAq RAp CBq : list (list int)) (p q : int) (u v : list int)
    (Ys : list (list (list int))) (As : list (list int)) :
  check_one_extra_res d n z i1 ln ld R1 C C2 dA dB RAq RAp CBq p q u v Ys As = true ->
  forall A B : mat, agrees_up_mod n C dA q RAq A -> agrees_up_mod n C2 dA p RAp A ->
  agrees_down_mod n R1 dB q CBq B -> row_multiple d z i1 ln ld A ->
  ~ absorbable_ungated relu d n n identity A B.
Proof.
  intros H A B HA HA2 HB Hrow. destruct (check_one_extra_res_rows _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
                                           _ _ _ H) as (Hz & Hi1 & Hzi & Hld).
  exact (one_extra_res_sound relu _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
           (one_extra_r8_relu d n z i1 ln ld Hz Hi1 Hzi Hld) H A B HA HA2 HB (or_introl Hrow)).
Qed.

(** A dead neuron: column [z] of [W_down] zero ([ln = 0]; row [z] of [W_up] is anything). *)
Theorem cert_one_extra_res_dead_not_absorbable (d n z i1 : nat) (ld : Z) (R1 C C2 : list nat)
    (dA dB : Z) (RAq RAp CBq : list (list int)) (p q : int) (u v : list int)
    (Ys : list (list (list int))) (As : list (list int)) :
  check_one_extra_res d n z i1 0 ld R1 C C2 dA dB RAq RAp CBq p q u v Ys As = true ->
  forall A B : mat, agrees_up_mod n C dA q RAq A -> agrees_up_mod n C2 dA p RAp A ->
  agrees_down_mod n R1 dB q CBq B -> col_zero d z B ->
  ~ absorbable_ungated relu d n n identity A B.
Proof.
  intros H A B HA HA2 HB Hcol. destruct (check_one_extra_res_rows _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
                                           _ _ _ H) as (Hz & Hi1 & Hzi & Hld).
  exact (one_extra_res_sound relu _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
           (one_extra_r8_relu d n z i1 0 ld Hz Hi1 Hzi Hld) H A B HA HA2 HB
           (or_intror (conj eq_refl Hcol))).
Qed.

(** ** The GELU family (R8'): classes by sign *)

(** Row [z] is zero or [+-] row [i1] ([|ln| = ld]); any other multiple is its own class. *)
Definition check_one_extra_res_pm (d n z i1 : nat) (ln ld : Z) (R1 C C2 : list nat) (dA dB : Z)
    (RAq RAp CBq : list (list int)) (p q : int) (u v : list int)
    (Ys : list (list (list int))) (As : list (list int)) : bool :=
  ((ln =? 0) || (Z.abs ln =? ld))%Z &&
  check_one_extra_res d n z i1 ln ld R1 C C2 dA dB RAq RAp CBq p q u v Ys As.

Theorem cert_one_extra_res_pm_not_absorbable (sigma : R -> R) (d n z i1 : nat) (ln ld : Z)
    (R1 C C2 : list nat) (dA dB : Z) (RAq RAp CBq : list (list int)) (p q : int) (u v : list int)
    (Ys : list (list (list int))) (As : list (list int)) :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  check_one_extra_res_pm d n z i1 ln ld R1 C C2 dA dB RAq RAp CBq p q u v Ys As = true ->
  forall A B : mat, agrees_up_mod n C dA q RAq A -> agrees_up_mod n C2 dA p RAp A ->
  agrees_down_mod n R1 dB q CBq B -> row_multiple d z i1 ln ld A ->
  ~ absorbable_ungated sigma d n n identity A B.
Proof.
  intros Hodd H0 Hun H A B HA HA2 HB Hrow. apply andb_prop in H as [Hs H].
  destruct (check_one_extra_res_rows _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ H)
    as (Hz & Hi1 & Hzi & Hld).
  assert (Hs' : (ln = 0 \/ Z.abs ln = ld)%Z)
    by (apply Bool.orb_true_iff in Hs as [E|E]; [left | right]; apply Z.eqb_eq; exact E).
  exact (one_extra_res_sound sigma _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
           (one_extra_r8_pm sigma d n z i1 ln ld Hodd H0 Hun Hz Hi1 Hzi Hld Hs') H A B HA HA2 HB
           (or_introl Hrow)).
Qed.

(** A dead neuron in a GELU-family layer. *)
Theorem cert_one_extra_res_pm_dead_not_absorbable (sigma : R -> R) (d n z i1 : nat) (ld : Z)
    (R1 C C2 : list nat) (dA dB : Z) (RAq RAp CBq : list (list int)) (p q : int) (u v : list int)
    (Ys : list (list (list int))) (As : list (list int)) :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  check_one_extra_res d n z i1 0 ld R1 C C2 dA dB RAq RAp CBq p q u v Ys As = true ->
  forall A B : mat, agrees_up_mod n C dA q RAq A -> agrees_up_mod n C2 dA p RAp A ->
  agrees_down_mod n R1 dB q CBq B -> col_zero d z B ->
  ~ absorbable_ungated sigma d n n identity A B.
Proof.
  intros Hodd H0 Hun H A B HA HA2 HB Hcol.
  destruct (check_one_extra_res_rows _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ H)
    as (Hz & Hi1 & Hzi & Hld).
  exact (one_extra_res_sound sigma _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
           (one_extra_r8_pm sigma d n z i1 0 ld Hodd H0 Hun Hz Hi1 Hzi Hld (or_introl eq_refl))
           H A B HA HA2 HB (or_intror (conj eq_refl Hcol))).
Qed.

(** ** Example: [d = 3], [n = 5], row 2 of [W_up] zero *)

Definition ex_A : list (list int) :=
  [[7; 3; 0]; [9223372036854775804; 9223372036854775804;
    9223372036854775799]; [0; 0; 0]; [6; 3; 8]; [0; 2; 9]]%uint63.
(** [W_down] by columns: column [i] is [[B 0 i; B 1 i; B 2 i]]; negative numerators in two's
    complement ([IntSums.zval]). *)
Definition ex_CB : list (list int) :=
  [[4; 9223372036854775804; 7]; [3; 6; 1]; [1; 3; 9223372036854775799];
   [1; 9223372036854775799; 5]; [8; 9223372036854775806; 4]]%uint63.
Definition ex_RAq : list (list int) :=
  [[7; 3; 0]; [765; 765; 760]; [0; 0; 0]; [6; 3; 8]; [0; 2; 9]]%uint63.
Definition ex_RAp : list (list int) :=
  [[7; 3]; [686921799; 686921799]; [0; 0]; [6; 3]; [0; 2]]%uint63.
Definition ex_CBq : list (list int) :=
  [[4; 765; 7]; [3; 6; 1]; [1; 3; 760]; [1; 760; 5]; [8; 767; 4]]%uint63.
Definition ex_Ys : list (list (list int)) :=
  [[[458; 555; 603]; [256; 1; 0]; [0; 0; 0]]; [[355; 704; 506]; [437; 0; 1]; [0; 0; 0]];
   [[658; 310; 102]; [106; 0; 0]; [1; 0; 0]]; [[383; 616; 632]; [71; 0; 0]; [0; 1; 0]]]%uint63.
Definition ex_As : list (list int) :=
  [[410; 1; 0; 0]; [14; 1; 0; 0]; [446; 1; 0; 0]; [380; 1; 0; 0]]%uint63.

Example one_extra_res_example : forall A B : mat,
  agrees_up_mod 5 [0; 1; 2]%nat 1 769%uint63 ex_RAq A ->
  agrees_up_mod 5 [0; 1]%nat 1 686921803%uint63 ex_RAp A ->
  agrees_down_mod 5 [0; 1; 2]%nat 1 769%uint63 ex_CBq B -> row_multiple 3 2 0 0 1 A ->
  ~ absorbable_ungated relu 3 5 5 identity A B.
Proof.
  exact (cert_one_extra_res_not_absorbable 3 5 2 0 0 1 [0; 1; 2]%nat [0; 1; 2]%nat [0; 1]%nat 1 1
           ex_RAq ex_RAp ex_CBq 686921803%uint63 769%uint63 [774; 98]%uint63 [634; 819]%uint63
           ex_Ys ex_As ltac:(vm_compute; reflexivity)).
Qed.

Example one_extra_res_example_agrees :
  agrees_up_mod 5 [0; 1; 2]%nat 1 769%uint63 ex_RAq (mat_of_rows 1 ex_A) /\
  agrees_up_mod 5 [0; 1]%nat 1 686921803%uint63 ex_RAp (mat_of_rows 1 ex_A) /\
  agrees_down_mod 5 [0; 1; 2]%nat 1 769%uint63 ex_CBq (mat_of_cols 1 ex_CB) /\
  row_multiple 3 2 0 0 1 (mat_of_rows 1 ex_A).
Proof.
  repeat split.
  - apply (agrees_up_mod_of_entries _ _ _ _ _ _ (zentry ex_A)). intros i j Hi Hj.
    simpl in Hj. destruct i as [|[|[|[|[|i]]]]]; try lia; destruct j as [|[|[|j]]]; try lia;
      split; reflexivity.
  - apply (agrees_up_mod_of_entries _ _ _ _ _ _ (zentry ex_A)). intros i j Hi Hj.
    simpl in Hj. destruct i as [|[|[|[|[|i]]]]]; try lia; destruct j as [|[|j]]; try lia;
      split; reflexivity.
  - apply (agrees_down_mod_of_entries _ _ _ _ _ _ (zentry ex_CB)). intros k i Hk Hi.
    simpl in Hk. destruct i as [|[|[|[|[|i]]]]]; try lia; destruct k as [|[|[|k]]]; try lia;
      split; reflexivity.
  - intros j Hj. unfold mat_of_rows.
    destruct j as [|[|[|j]]]; try lia; replace (zentry ex_A 2 _) with 0%Z by reflexivity;
      unfold Rdiv; ring.
Qed.

(** The same layer with row 2 of [W_up] [[-8; -9; -6]] and column 2 of [W_down] zero. *)
Definition ex_RAq_dead : list (list int) :=
  [[7; 3; 0]; [765; 765; 760]; [761; 760; 763]; [6; 3; 8]; [0; 2; 9]]%uint63.
Definition ex_RAp_dead : list (list int) :=
  [[7; 3]; [686921799; 686921799]; [686921795; 686921794]; [6; 3]; [0; 2]]%uint63.
Definition ex_CBq_dead : list (list int) :=
  [[4; 765; 7]; [3; 6; 1]; [0; 0; 0]; [1; 760; 5]; [8; 767; 4]]%uint63.

Example one_extra_res_dead_example : forall A B : mat,
  agrees_up_mod 5 [0; 1; 2]%nat 1 769%uint63 ex_RAq_dead A ->
  agrees_up_mod 5 [0; 1]%nat 1 686921803%uint63 ex_RAp_dead A ->
  agrees_down_mod 5 [0; 1; 2]%nat 1 769%uint63 ex_CBq_dead B -> col_zero 3 2 B ->
  ~ absorbable_ungated relu 3 5 5 identity A B.
Proof.
  exact (cert_one_extra_res_dead_not_absorbable 3 5 2 0 1 [0; 1; 2]%nat [0; 1; 2]%nat [0; 1]%nat 1 1
           ex_RAq_dead ex_RAp_dead ex_CBq_dead 686921803%uint63 769%uint63 [774; 98]%uint63
           [634; 819]%uint63 ex_Ys ex_As ltac:(vm_compute; reflexivity)).
Qed.

(** GELU: the layer with a zero row is not absorbable at width [5] either (the zero row is
    dropped, every other scale is [1]). *)
Example one_extra_res_gelu_example : forall A B : mat,
  agrees_up_mod 5 [0; 1; 2]%nat 1 769%uint63 ex_RAq A ->
  agrees_up_mod 5 [0; 1]%nat 1 686921803%uint63 ex_RAp A ->
  agrees_down_mod 5 [0; 1; 2]%nat 1 769%uint63 ex_CBq B -> row_multiple 3 2 0 0 1 A ->
  ~ absorbable_ungated gelu 3 5 5 identity A B.
Proof.
  exact (cert_one_extra_res_pm_not_absorbable gelu 3 5 2 0 0 1 [0; 1; 2]%nat [0; 1; 2]%nat
           [0; 1]%nat 1 1 ex_RAq ex_RAp ex_CBq 686921803%uint63 769%uint63 [774; 98]%uint63
           [634; 819]%uint63 ex_Ys ex_As gelu_odd_part gelu_zero gelu_even_part_unique
           ltac:(vm_compute; reflexivity)).
Qed.

(** The scale check refuses a row at twice another's (for GELU its own class, not an extra). *)
Example one_extra_res_pm_scale_refused :
  check_one_extra_res_pm 3 5 2 0 2 1 [0; 1; 2]%nat [0; 1; 2]%nat [0; 1]%nat 1 1 ex_RAq ex_RAp
    ex_CBq 686921803%uint63 769%uint63 [774; 98]%uint63 [634; 819]%uint63 ex_Ys ex_As = false.
Proof. vm_compute. reflexivity. Qed.
