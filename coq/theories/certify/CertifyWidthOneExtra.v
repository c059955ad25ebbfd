(** * Certificates: a layer with one extra row is not absorbable at width [n]

    Issue 20 item 3: a layer with one zero row of [W_up] (a pruned neuron,
    [ln = 0]), one row on the line of another ([a_z = (ln / ld) a_(i1)]) or one
    zero column of [W_down] (a dead neuron; [extra_relation]) has [k = n - 1]
    ridge classes ([OneExtraGrouping.v]), and R8 ([R8.relu_absorbable_iff_width])
    at width [n = k + 1] leaves [r = 0] and [|T| <= 1], which
    [RefuteOneExtra.check_refute_block] refutes on a block.

    [one_extra_form]: the argument over the block's integer numerators, with
    genericity read on any columns [C2] and the refutation's data congruent
    modulo [q]: the one-extra grouping's classes are canonical and R8's width
    condition at [n] fails.  [one_extra_r8 sigma]: R8 reads that grouping for
    [sigma] ([one_extra_r8_relu]; [one_extra_r8_pm] for the GELU family, when the
    extra row is zero, dead or [+-] row [i1]); [one_extra_core]: with it, not
    absorbable.  [CertifyWidthOneExtraResidues.v] applies it to residues (the
    form certificates use).
    [cert_one_extra_not_absorbable]: from columns [C] of [W_up] ([RA], all [n]
    rows) and rows [R1] of [W_down] ([CB], all [n] columns), the relation of
    rows [z] and [i1], the genericity of the [k] classes on the block
    ([check_generic_sorted]) and the refutation ([check_refute]), for every
    pair [(A, B)] agreeing with the block and satisfying the relation:
    [~ absorbable_ungated relu d n n identity A B].  The checkers read the data
    modulo primes only: genericity mod [p] (about [2^30]: thousands of distinct
    ratios), the refutation mod [q] below [2^21] ([check_refute_raw]: dot
    products summed unreduced); the block's [U], [G], [L] are computed by
    [check_one_extra] from [RA] and [CB].
    [cert_one_extra_coded_not_absorbable]: the same with the block written as
    codes of [+- m 2^e] ([CodedData.dval]), decoded by the VM ([decode]). *)

From Coq Require Import Reals ZArith Lia Lra List Uint63.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix.
From Absorb Require Import IntSums Modular CheckNoSubset CheckGeneric CodedData Certify
  CertifyCoded.
From Absorb.decide Require Import RidgeForm R8.
From Absorb.certify Require Import RefuteOneExtra OneExtraGrouping.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

(** ** The block's ridge form, computed mod [p] *)

Fixpoint remove_at {X} (z : nat) (l : list X) : list X :=
  match l, z with
  | [], _ => []
  | _ :: l', O => l'
  | x :: l', S z' => x :: remove_at z' l'
  end.

Lemma nth_remove_at {X} z (l : list X) t x0 : nth t (remove_at z l) x0 = nth (rep z t) l x0.
Proof.
  revert z t. induction l as [|x l IH]; intros z t.
  { destruct z, t; simpl; try reflexivity; destruct (rep _ _); reflexivity. }
  destruct z as [|z]; [reflexivity|]. destruct t as [|t]; [reflexivity|].
  simpl. rewrite IH. unfold rep.
  destruct (Nat.ltb_spec t z); destruct (Nat.ltb_spec (S t) (S z)); try lia; reflexivity.
Qed.

Lemma remove_at_length {X} z (l : list X) : (z < length l)%nat ->
  length (remove_at z l) = (length l - 1)%nat.
Proof.
  revert z. induction l as [|x l IH]; intros z H; [simpl in H; lia|].
  destruct z as [|z]; simpl; [lia|]. simpl in H. rewrite IH by lia. lia.
Qed.

Fixpoint mapi_from {X Y} (f : nat -> X -> Y) (i : nat) (l : list X) : list Y :=
  match l with [] => [] | x :: l' => f i x :: mapi_from f (S i) l' end.

Lemma nth_mapi_from {X Y} (f : nat -> X -> Y) l : forall i t x0 y0, (t < length l)%nat ->
  nth t (mapi_from f i l) y0 = f (i + t)%nat (nth t l x0).
Proof.
  induction l as [|x l IH]; intros i t x0 y0 Ht; simpl in Ht; [lia|].
  destruct t as [|t]; simpl; [rewrite Nat.add_0_r; reflexivity|].
  rewrite (IH (S i) t x0 y0) by lia. f_equal. lia.
Qed.

Lemma mapi_from_length {X Y} (f : nat -> X -> Y) l : forall i, length (mapi_from f i l) = length l.
Proof. induction l; intros i; simpl; [reflexivity | rewrite IHl; reflexivity]. Qed.

Definition kink_col (p : int) (r1 : nat) (cld cln : int) (a b : list int) : list int :=
  map (fun l => addm p (mulm p cld (red p (nth l a 0%uint63)))
                       (mulm p cln (red p (nth l b 0%uint63))))
    (seq 0 r1).

(** Columns of [G] on the block: [ld b_(rep t) + [t = idx i1] |ln| b_z], mod [p]. *)
Definition block_G (p : int) (r1 z i1 : nat) (ln ld : Z) (CB : list (list int)) : list (list int) :=
  mapi_from (fun t col => kink_col p r1 (cZ p ld)
                            (if Nat.eqb t (idx z i1) then cZ p (Z.abs ln) else 0%uint63)
                            col (nth z CB [])) 0 (remove_at z CB).

(** [L] on the block: [ld dA dB [R1_l = C_j] + [ln < 0] ln b_z[l] a_(i1)[j]], mod [p]. *)
Definition block_L (p : int) (R1 C : list nat) (z i1 : nat) (ln ld dA dB : Z)
    (RA CB : list (list int)) : list (list int) :=
  map (fun l => map (fun j =>
         addm p (if Nat.eqb (nth l R1 O) (nth j C O) then cZ p (ld * dA * dB) else 0%uint63)
           (if Z.ltb ln 0 then mulm p (cZ p ln) (mulm p (red p (nth l (nth z CB []) 0%uint63))
                                                         (red p (nth j (nth i1 RA []) 0%uint63)))
            else 0%uint63)) (seq 0 (length C))) (seq 0 (length R1)).

Definition check_one_extra (d n z i1 : nat) (ln ld : Z) (R1 C : list nat) (dA dB : Z)
    (RA CB : list (list int)) (p q : int) (u v : list int) (Ys : list (list (list int)))
    (As : list (list int)) : bool :=
  index_ok d R1 && index_ok d C && Nat.ltb z n && Nat.ltb i1 n && negb (Nat.eqb z i1) &&
  (0 <? ld)%Z && (0 <? dA)%Z && (0 <? dB)%Z && Nat.eqb (length RA) n && Nat.eqb (length CB) n &&
  let RU := remove_at z RA in
  check_generic_sorted (length C) (n - 1) RU (block_G p (length R1) z i1 ln ld CB) p u v &&
  check_refute_raw (length R1) (length C) (n - 1) q (cZ q (ld * dB * dA)) Ys As RU
    (block_G q (length R1) z i1 ln ld CB) (block_L q R1 C z i1 ln ld dA dB RA CB).

(** Row [z] of [A] is [ln / ld] times row [i1]. *)
Definition row_multiple (d z i1 : nat) (ln ld : Z) (A : mat) : Prop :=
  forall q, (q < d)%nat -> A z q = (IZR ln / IZR ld * A i1 q)%R.

(** Column [z] of [B] is zero: neuron [z] is dead whatever its row of [A]. *)
Definition col_zero (d z : nat) (B : mat) : Prop := forall p, (p < d)%nat -> B p z = 0%R.

(** The relation a one-extra certificate needs: [row_multiple], or [ln = 0] and [col_zero]. *)
Definition extra_relation (d z i1 : nat) (ln ld : Z) (A B : mat) : Prop :=
  row_multiple d z i1 ln ld A \/ (ln = 0%Z /\ col_zero d z B).

(** ** The computed block data are the integer data mod [p] *)

Section BlockData.

Variables (n z i1 : nat) (ln ld dA dB : Z) (R1 C : list nat) (RA CB : list (list int)) (p : int).
Variable Hp : (1 < phi p < 2 ^ 31)%Z.
Variable Hz : (z < n)%nat.
Variable HlenB : length CB = n.

Definition eU1 (t j : nat) : Z := zentry RA (rep z t) j.
Definition eG1 (t l : nat) : Z :=
  if Nat.ltb t (n - 1) && Nat.ltb l (length R1) then
    (ld * zentry CB (rep z t) l +
     (if Nat.eqb t (idx z i1) then Z.abs ln * zentry CB z l else 0))%Z
  else 0%Z.
Definition eL1 (l j : nat) : Z :=
  if Nat.ltb l (length R1) && Nat.ltb j (length C) then
    (ld * dA * dB * (if Nat.eqb (nth l R1 O) (nth j C O) then 1 else 0) +
     (if Z.ltb ln 0 then ln * zentry CB z l * zentry RA i1 j else 0))%Z
  else 0%Z.

Lemma zval_res (x : int) : (phi x < phi p)%Z -> zval x = phi x.
Proof. intros H. apply (zval_phi_small x (phi p)); lia. Qed.

Lemma congr_U : congr (phi p) (zentry (remove_at z RA)) eU1.
Proof. intros t j. unfold zentry, eU1. rewrite nth_remove_at. reflexivity. Qed.

Lemma addm_lt x y : (phi (addm p x y) < phi p)%Z.
Proof. rewrite (addm_spec p Hp). apply Z.mod_pos_bound. lia. Qed.

Lemma block_G_entry t l : zentry (block_G p (length R1) z i1 ln ld CB) t l = (eG1 t l mod phi p)%Z.
Proof.
  unfold eG1, zentry, block_G.
  assert (Hlen : length (remove_at z CB) = (n - 1)%nat) by (rewrite remove_at_length; lia).
  destruct (Nat.ltb_spec t (n - 1)) as [Ht|Ht].
  - rewrite (nth_mapi_from _ _ 0 t [] []) by lia. simpl Nat.add. unfold kink_col.
    destruct (Nat.ltb_spec l (length R1)) as [Hl|Hl].
    + rewrite (nth_map_seq _ (length R1) l _ Hl). simpl andb. rewrite zval_res by apply addm_lt.
      rewrite (addm_spec p Hp), !(mulm_spec p Hp), !(red_spec p Hp), (cZ_spec p ld Hp).
      rewrite nth_remove_at.
      destruct (Nat.eqb t (idx z i1)).
      * rewrite (cZ_spec p _ Hp), <- !Zmult_mod, <- Zplus_mod. reflexivity.
      * change (phi 0%uint63) with 0%Z. rewrite Z.mul_0_l, Zmod_0_l, Z.add_0_r, Zmod_mod.
        rewrite <- Zmult_mod. f_equal. ring.
    + rewrite nth_overflow by (rewrite map_length, seq_length; lia).
      rewrite Bool.andb_false_r. reflexivity.
  - rewrite (nth_overflow (mapi_from _ _ _)) by (rewrite mapi_from_length; lia). simpl.
    destruct l; reflexivity.
Qed.

Lemma congr_G : congr (phi p) (zentry (block_G p (length R1) z i1 ln ld CB)) eG1.
Proof. intros t l. rewrite block_G_entry, Zmod_mod. reflexivity. Qed.

Lemma congr_L : congr (phi p) (zentry (block_L p R1 C z i1 ln ld dA dB RA CB)) eL1.
Proof.
  intros l j. unfold eL1, zentry, block_L.
  destruct (Nat.ltb_spec l (length R1)) as [Hl|Hl].
  - rewrite (nth_map_seq _ (length R1) l _ Hl).
    destruct (Nat.ltb_spec j (length C)) as [Hj|Hj].
    + rewrite (nth_map_seq _ (length C) j _ Hj). simpl andb. rewrite zval_res by apply addm_lt.
      rewrite (addm_spec p Hp), Zmod_mod, Zplus_mod. symmetry. rewrite Zplus_mod. f_equal. f_equal.
      * destruct (Nat.eqb _ _); [rewrite (cZ_spec p _ Hp), Zmod_mod; f_equal; ring|].
        change (phi 0%uint63) with 0%Z. rewrite Z.mul_0_r. reflexivity.
      * destruct (Z.ltb ln 0); [|reflexivity].
        rewrite !(mulm_spec p Hp), !(red_spec p Hp), (cZ_spec p _ Hp), Zmod_mod.
        rewrite <- (Zmult_mod (zval _) (zval _)), <- Zmult_mod. f_equal. ring.
    + rewrite nth_overflow by (rewrite map_length, seq_length; lia).
      rewrite Bool.andb_false_r. reflexivity.
  - rewrite (nth_overflow (map _ (seq 0 (length R1)))) by (rewrite map_length, seq_length; lia).
    destruct j; reflexivity.
Qed.

End BlockData.

(** ** The core, over the integer numerators of the block

    [eA i j]: row [i] of [W_up] at column [nth j C]; [eBt i l]: row [nth l R1] of [W_down]
    at column [i], each over its denominator.  Genericity of the classes on columns [C2]
    (any that carry it: all of [C], or two of them) and the refutation modulo [q] of data
    congruent to the block's [U], [G], [L] refute R8's condition at width [n]. *)

Section Core.

Variables (d n z i1 : nat) (ln ld dA dB : Z) (R1 C : list nat) (eA eBt : nat -> nat -> Z).

Definition eU1f (t j : nat) : Z := eA (rep z t) j.
Definition eG1f (t l : nat) : Z :=
  if Nat.ltb t (n - 1) && Nat.ltb l (length R1) then
    (ld * eBt (rep z t) l + (if Nat.eqb t (idx z i1) then Z.abs ln * eBt z l else 0))%Z
  else 0%Z.
Definition eL1f (l j : nat) : Z :=
  if Nat.ltb l (length R1) && Nat.ltb j (length C) then
    (ld * dA * dB * (if Nat.eqb (nth l R1 O) (nth j C O) then 1 else 0) +
     (if Z.ltb ln 0 then ln * eBt z l * eA i1 j else 0))%Z
  else 0%Z.

(** The block's data refute R8's width condition at [n] for the one-extra grouping, whose
    classes are canonical; which activation reads it is [one_extra_r8]'s business. *)
Theorem one_extra_form (C2 : list nat) (eA2 : nat -> nat -> Z) (q cL : int)
    (Ys : list (list (list int))) (As RUq Gq Lq : list (list int)) (A B : mat) :
  index_ok d R1 = true -> index_ok d C = true -> index_ok d C2 = true ->
  (z < n)%nat -> (i1 < n)%nat -> z <> i1 -> (0 < ld)%Z -> (0 < dA)%Z -> (0 < dB)%Z ->
  generic (length C2) (n - 1) (zmat dA (fun t j => eA2 (rep z t) j)) (zmat_t (ld * dB) eG1f) ->
  check_refute (length R1) (length C) (n - 1) q cL Ys As RUq Gq Lq = true ->
  (phi cL mod phi q = (ld * dB * dA) mod phi q)%Z ->
  congr (phi q) (zentry RUq) eU1f -> congr (phi q) (zentry Gq) eG1f ->
  congr (phi q) (zentry Lq) eL1f ->
  (forall i j, (i < n)%nat -> (j < length C)%nat -> A i (nth j C O) = zmat dA eA i j) ->
  (forall i j, (i < n)%nat -> (j < length C2)%nat -> A i (nth j C2 O) = zmat dA eA2 i j) ->
  (forall l i, (l < length R1)%nat -> (i < n)%nat -> B (nth l R1 O) i = zmat_t dB eBt l i) ->
  lines_distinct d (n - 1) (U1 z A) /\ nonzero_cols d (n - 1) (G1 n z i1 ln ld B) /\
  ~ width_condition d (n - 1) n (U1 z A) (G1 n z i1 ln ld B) (L1 n z i1 ln ld A B).
Proof.
  intros HR1 HC HC2 Hz Hi1 Hzi Hld HdA HdB Hgen Hr HcL CU CG CL HA HA2 HB.
  destruct (check_parts _ _ _ _ _ _ _ _ _ _ Hr) as (Hq & _).
  set (k := (n - 1)%nat).
  set (r1 := length R1). set (c := length C).
  pose proof (index_ok_lt d R1 HR1) as HR1d. pose proof (index_ok_lt d C HC) as HCd.
  pose proof (index_ok_lt d C2 HC2) as HC2d.
  assert (HdG : (0 < ld * dB)%Z) by lia.
  destruct Hgen as (Gr & Gi & Gc).
  (* the block's values *)
  assert (VU : forall t j, (t < k)%nat -> (j < c)%nat ->
            U1 z A t (nth j C O) = (IZR (eU1f t j) / IZR dA)%R).
  { intros t j Ht Hj. unfold U1, eU1f. rewrite (HA _ j (rep_lt n z t Ht Hz) Hj). reflexivity. }
  assert (VU2 : forall t j, (t < k)%nat -> (j < length C2)%nat ->
            U1 z A t (nth j C2 O) = (IZR (eA2 (rep z t) j) / IZR dA)%R).
  { intros t j Ht Hj. unfold U1. rewrite (HA2 _ j (rep_lt n z t Ht Hz) Hj). reflexivity. }
  assert (VG : forall t l, (t < k)%nat -> (l < r1)%nat ->
            G1 n z i1 ln ld B (nth l R1 O) t = (IZR (eG1f t l) / IZR (ld * dB))%R).
  { intros t l Ht Hl. rewrite (G1_value n z i1 ln ld B Hz Hi1 Hzi (nth l R1 O) t Ht).
    unfold eG1f. rewrite (proj2 (Nat.ltb_lt t (n - 1)) Ht), (proj2 (Nat.ltb_lt l (length R1)) Hl).
    simpl andb.
    rewrite (HB l _ Hl (rep_lt n z t Ht Hz)), (HB l z Hl Hz). unfold zmat_t.
    apply IZR_lt in Hld as Hld', HdB as HdB'.
    destruct (Z.eqb_spec ln 0) as [E|E].
    - destruct (Nat.eqb t (idx z i1)); rewrite ?E; simpl Z.abs; rewrite ?plus_IZR, ?mult_IZR;
        simpl IZR; field; lra.
    - destruct (Nat.eqb t (idx z i1)); rewrite ?plus_IZR, ?mult_IZR; [|simpl IZR; field; lra].
      unfold lamr, Rdiv. rewrite Rabs_mult, Rabs_inv. rewrite (Rabs_pos_eq (IZR ld)) by lra.
      rewrite abs_IZR. field. lra. }
  assert (VL : forall l j, (l < r1)%nat -> (j < c)%nat ->
            L1 n z i1 ln ld A B (nth l R1 O) (nth j C O) =
            (IZR (eL1f l j) / IZR (ld * dA * dB))%R).
  { intros l j Hl Hj. rewrite (L1_value d n z i1 ln ld A B Hz Hi1 Hzi Hld _ _ (HCd j Hj)).
    unfold eL1f.
    rewrite (proj2 (Nat.ltb_lt l (length R1)) Hl), (proj2 (Nat.ltb_lt j (length C)) Hj).
    simpl andb.
    apply IZR_lt in Hld as Hld', HdB as HdB', HdA as HdA'.
    cbv iota. rewrite plus_IZR, !mult_IZR. unfold identity.
    destruct (Nat.eq_dec (nth l R1 O) (nth j C O)) as [E|E].
    - rewrite (proj2 (Nat.eqb_eq _ _) E).
      destruct (Z.ltb ln 0); [|simpl IZR; field; lra].
      rewrite (HB l z Hl Hz), (HA i1 j Hi1 Hj). unfold zmat_t, zmat, lamr.
      rewrite !mult_IZR. simpl IZR. field. lra.
    - rewrite (proj2 (Nat.eqb_neq _ _) E).
      destruct (Z.ltb ln 0); [|simpl IZR; field; lra].
      rewrite (HB l z Hl Hz), (HA i1 j Hi1 Hj). unfold zmat_t, zmat, lamr.
      rewrite !mult_IZR. simpl IZR. field. lra. }
  (* canonical classes *)
  assert (Hlines : lines_distinct d k (U1 z A)).
  { split.
    - intros t Ht. destruct (Gr t Ht) as [j [Hj Hnz]]. exists (nth j C2 O).
      split; [exact (HC2d j Hj)|]. unfold row in *. rewrite (VU2 t j Ht Hj). exact Hnz.
    - intros s t Hs Ht Hst al be H. apply (Gi s t Hs Ht Hst al be). intros j Hj.
      unfold row. specialize (H (nth j C2 O) (HC2d j Hj)). unfold row in H.
      rewrite (VU2 s j Hs Hj), (VU2 t j Ht Hj) in H. exact H. }
  assert (Hcols : nonzero_cols d k (G1 n z i1 ln ld B)).
  { intros t Ht. destruct (Gc t Ht) as [l [Hl Hnz]]. unfold col, zmat_t in Hnz.
    assert (Hl1 : (l < r1)%nat).
    { destruct (Nat.ltb_spec l r1) as [|Hge]; [assumption|]. exfalso. apply Hnz.
      unfold eG1f. rewrite (proj2 (Nat.ltb_ge l (length R1)) Hge), Bool.andb_false_r.
      unfold Rdiv. simpl IZR. apply Rmult_0_l. }
    exists (nth l R1 O). split; [exact (HR1d l Hl1)|]. unfold col.
    rewrite (VG t l Ht Hl1). exact Hnz. }
  split; [exact Hlines|]. split; [exact Hcols|].
  intros (T & S & r & E & P & Q & _ & Hm & Heq). unfold k in Hm.
  assert (Hr0 : r = 0%nat) by lia. subst r.
  apply (check_refute_block r1 c k q cL Ys As _ _ _ eU1f eG1f eL1f
           dA (ld * dB) (ld * dA * dB) Hr CU CG CL HcL HdA HdG ltac:(lia)
           S T (fun l t => E (nth l R1 O) t) ltac:(unfold k; lia)).
  intros l j Hl Hj.
  specialize (Heq (nth l R1 O) (nth j C O) (HR1d l Hl) (HCd j Hj)).
  unfold masked_outer, low_rank in Heq. simpl sumn in Heq. rewrite Rplus_0_r in Heq.
  rewrite <- (VL l j Hl Hj).
  rewrite (sumn_ext k _ (fun t => if S t then G1 n z i1 ln ld B (nth l R1 O) t *
                                      U1 z A t (nth j C O) else 0)%R).
  - rewrite (sumn_ext k (fun t => if T t then _ else 0)%R
              (fun t => if T t then E (nth l R1 O) t * U1 z A t (nth j C O) else 0)%R).
    + exact Heq.
    + intros t Ht. rewrite (VU t j Ht Hj). reflexivity.
  - intros t Ht. rewrite (VG t l Ht Hl), (VU t j Ht Hj). reflexivity.
Qed.

End Core.

(** ** R8 for the one-extra grouping, per activation *)

(** What a one-extra certificate needs of [sigma]: absorbable at width [n] gives R8's width
    condition for the one-extra grouping when its classes are canonical. *)
Definition one_extra_r8 (sigma : R -> R) (d n z i1 : nat) (ln ld : Z) : Prop :=
  forall A B : mat, extra_relation d z i1 ln ld A B -> lines_distinct d (n - 1) (U1 z A) ->
    nonzero_cols d (n - 1) (G1 n z i1 ln ld B) -> absorbable_ungated sigma d n n identity A B ->
    width_condition d (n - 1) n (U1 z A) (G1 n z i1 ln ld B) (L1 n z i1 ln ld A B).

Lemma one_extra_r8_relu d n z i1 ln ld :
  (z < n)%nat -> (i1 < n)%nat -> z <> i1 -> (0 < ld)%Z -> one_extra_r8 relu d n z i1 ln ld.
Proof.
  intros Hz Hi1 Hzi Hld A B Hrel Hl Hc.
  exact (proj1 (relu_absorbable_iff_width d n (kk n) n A B _ _ _ _ _
                  (one_extra_grouping d n z i1 ln ld A B Hz Hi1 Hzi Hld Hrel) Hl Hc)).
Qed.

(** The GELU family: the extra row must be zero, dead, or [+-] row [i1] (classes by sign). *)
Lemma one_extra_r8_pm sigma d n z i1 ln ld :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  (z < n)%nat -> (i1 < n)%nat -> z <> i1 -> (0 < ld)%Z -> (ln = 0 \/ Z.abs ln = ld)%Z ->
  one_extra_r8 sigma d n z i1 ln ld.
Proof.
  intros Hodd H0 Hun Hz Hi1 Hzi Hld Hs A B Hrel Hl Hc.
  exact (proj1 (pm_absorbable_iff_width sigma d n (kk n) n A B _ _ _ _ _ Hodd H0 Hun
                  (one_extra_grouping_pm d n z i1 ln ld A B Hz Hi1 Hzi Hld Hrel Hs)
                  (lines_distinct_signs_distinct d (kk n) _ Hl) Hc)).
Qed.

(** [one_extra_form] with R8 for [sigma]: not absorbable at width [n]. *)
Theorem one_extra_core (sigma : R -> R) (d n z i1 : nat) (ln ld dA dB : Z) (R1 C : list nat)
    (eA eBt : nat -> nat -> Z) (C2 : list nat) (eA2 : nat -> nat -> Z) (q cL : int)
    (Ys : list (list (list int))) (As RUq Gq Lq : list (list int)) (A B : mat) :
  one_extra_r8 sigma d n z i1 ln ld ->
  index_ok d R1 = true -> index_ok d C = true -> index_ok d C2 = true ->
  (z < n)%nat -> (i1 < n)%nat -> z <> i1 -> (0 < ld)%Z -> (0 < dA)%Z -> (0 < dB)%Z ->
  generic (length C2) (n - 1) (zmat dA (fun t j => eA2 (rep z t) j))
    (zmat_t (ld * dB) (eG1f n z i1 ln ld R1 eBt)) ->
  check_refute (length R1) (length C) (n - 1) q cL Ys As RUq Gq Lq = true ->
  (phi cL mod phi q = (ld * dB * dA) mod phi q)%Z ->
  congr (phi q) (zentry RUq) (eU1f z eA) -> congr (phi q) (zentry Gq) (eG1f n z i1 ln ld R1 eBt) ->
  congr (phi q) (zentry Lq) (eL1f z i1 ln ld dA dB R1 C eA eBt) ->
  (forall i j, (i < n)%nat -> (j < length C)%nat -> A i (nth j C O) = zmat dA eA i j) ->
  (forall i j, (i < n)%nat -> (j < length C2)%nat -> A i (nth j C2 O) = zmat dA eA2 i j) ->
  (forall l i, (l < length R1)%nat -> (i < n)%nat -> B (nth l R1 O) i = zmat_t dB eBt l i) ->
  extra_relation d z i1 ln ld A B -> ~ absorbable_ungated sigma d n n identity A B.
Proof.
  intros Hr8 HR1 HC HC2 Hz Hi1 Hzi Hld HdA HdB Hgen Hr HcL CU CG CL HA HA2 HB Hrel Habs.
  destruct (one_extra_form d n z i1 ln ld dA dB R1 C eA eBt C2 eA2 q cL Ys As RUq Gq Lq A B
              HR1 HC HC2 Hz Hi1 Hzi Hld HdA HdB Hgen Hr HcL CU CG CL HA HA2 HB)
    as (Hl & Hc & Hw).
  exact (Hw (Hr8 A B Hrel Hl Hc Habs)).
Qed.

(** ** The certificate lemma *)

(** The facts a conjunction of boolean tests in the context states. *)
Ltac check_facts :=
  repeat match goal with
         | H : (_ && _) = true |- _ => apply andb_prop in H as [? ?]
         | H : Nat.ltb _ _ = true |- _ => apply Nat.ltb_lt in H
         | H : Z.ltb _ _ = true |- _ => apply Z.ltb_lt in H
         | H : Nat.eqb _ _ = true |- _ => apply Nat.eqb_eq in H
         | H : negb (Nat.eqb _ _) = true |- _ => apply Bool.negb_true_iff, Nat.eqb_neq in H
         end.

Section Cert.

Variables (d n z i1 : nat) (ln ld : Z) (R1 C : list nat) (dA dB : Z) (RA CB : list (list int))
  (p q : int) (u v : list int) (Ys : list (list (list int))) (As : list (list int)).

Variable Hchk : check_one_extra d n z i1 ln ld R1 C dA dB RA CB p q u v Ys As = true.

Lemma one_extra_parts :
  index_ok d R1 = true /\ index_ok d C = true /\ (z < n)%nat /\ (i1 < n)%nat /\ z <> i1 /\
  (0 < ld)%Z /\ (0 < dA)%Z /\ (0 < dB)%Z /\ length RA = n /\ length CB = n /\
  check_generic_sorted (length C) (n - 1) (remove_at z RA) (block_G p (length R1) z i1 ln ld CB)
    p u v = true /\
  check_refute (length R1) (length C) (n - 1) q (cZ q (ld * dB * dA)) Ys As (remove_at z RA)
    (block_G q (length R1) z i1 ln ld CB) (block_L q R1 C z i1 ln ld dA dB RA CB) = true.
Proof.
  unfold check_one_extra in Hchk. cbv zeta in Hchk.
  apply andb_prop in Hchk as [Hchk Hgr]. apply andb_prop in Hgr as [Hg0 Hraw].
  apply check_refute_raw_sound in Hraw.
  repeat match type of Hchk with (_ && _) = true => apply andb_prop in Hchk as [Hchk ?] end.
  check_facts. repeat split; assumption.
Qed.

Theorem cert_one_extra_not_absorbable :
  forall A B : mat, agrees_up n C dA RA A -> agrees_down n R1 dB CB B ->
  row_multiple d z i1 ln ld A -> ~ absorbable_ungated relu d n n identity A B.
Proof.
  destruct one_extra_parts as (HR1 & HC & Hz & Hi1 & Hzi & Hld & HdA & HdB & HlA & HlB & Hg & Hr).
  intros A B HA HB Hrow.
  assert (Hp : (1 < phi p < 2 ^ 31)%Z).
  { unfold check_generic_sorted in Hg. apply p_ok_spec.
    do 4 (apply andb_prop in Hg as [Hg _]). exact Hg. }
  destruct (check_parts _ _ _ _ _ _ _ _ _ _ Hr) as (Hq & _).
  assert (HdG : (0 < ld * dB)%Z) by lia.
  apply (one_extra_core relu d n z i1 ln ld dA dB R1 C (zentry RA) (zentry CB) C (zentry RA) q
           (cZ q (ld * dB * dA)) Ys As (remove_at z RA) (block_G q (length R1) z i1 ln ld CB)
           (block_L q R1 C z i1 ln ld dA dB RA CB) A B
           (one_extra_r8_relu d n z i1 ln ld Hz Hi1 Hzi Hld) HR1 HC HC Hz Hi1 Hzi Hld HdA HdB).
  - exact (check_generic_sorted_sound_congr (length C) (n - 1) dA (ld * dB) _ _ p u v
             (eU1 z RA) (eG1 n z i1 ln ld R1 CB) Hg HdA HdG (congr_U z RA p)
             (block_G_entry n z i1 ln ld R1 CB p Hp Hz HlB)).
  - exact Hr.
  - rewrite (cZ_spec q _ Hq), Zmod_mod. reflexivity.
  - exact (congr_U z RA q).
  - exact (congr_G n z i1 ln ld R1 CB q Hq Hz HlB).
  - exact (congr_L n z i1 ln ld dA dB R1 C RA CB q Hq Hz HlB).
  - intros i j Hi Hj. rewrite (HA i j Hi Hj). reflexivity.
  - intros i j Hi Hj. rewrite (HA i j Hi Hj). reflexivity.
  - intros l i Hl Hi. rewrite (HB l i Hl Hi). reflexivity.
  - left. exact Hrow.
Qed.

End Cert.

(** ** Coded data: the block as codes of [+- mag * 2^e], decoded by the VM

    The certificate writes the block as codes ([CodedData.dval]; two per
    63-bit literal when they fit: fewer literals for Coq to elaborate than
    plain numerators).  [decode] turns them into signed numerators when each
    decoded value fits ([fits]: [mag * 2^e < 2^62]); the checker runs on the
    decoded block, and [cert_one_extra_coded_not_absorbable] states the
    verdict for every pair agreeing with the decoded block
    ([agrees_up_coded], [agrees_down_coded]). *)

Definition dec1 (E c : int) : int :=
  let v := (dmag E c << dexp E c)%uint63 in if dsign c then (0 - v)%uint63 else v.

Definition fits1 (E c : int) : bool :=
  (dexp E c <? 62)%uint63 && (dmag E c <? (4611686018427387904 >> dexp E c))%uint63.

Definition decode (E : int) (rows : list (list int)) : list (list int) := map (map (dec1 E)) rows.
Definition fits (E : int) (rows : list (list int)) : bool := forallb (forallb (fits1 E)) rows.

Lemma dec1_spec E c : fits1 E c = true -> zval (dec1 E c) = dval E c.
Proof.
  unfold fits1, dec1, dval. intros H. apply andb_prop in H as [He Hm]. apply ltb_spec in He, Hm.
  rewrite lsr_spec in Hm. change (phi 62) with 62%Z in He.
  change (phi 4611686018427387904) with (2 ^ 62)%Z in Hm.
  pose proof (to_Z_bounded (dmag E c)) as Bm. pose proof (to_Z_bounded (dexp E c)) as Be.
  set (m := phi (dmag E c)) in *. set (e := phi (dexp E c)) in *.
  assert (Hpe : (0 < 2 ^ e)%Z) by (apply Z.pow_pos_nonneg; lia).
  assert (Hsplit : (2 ^ 62 = 2 ^ (62 - e) * 2 ^ e)%Z)
    by (rewrite <- Z.pow_add_r by lia; f_equal; lia).
  assert (Hdiv : (2 ^ 62 / 2 ^ e = 2 ^ (62 - e))%Z) by (rewrite Hsplit; apply Z.div_mul; lia).
  rewrite Hdiv in Hm.
  assert (Hv : (0 <= m * 2 ^ e < 2 ^ 62)%Z).
  { split; [nia|]. rewrite Hsplit. apply Z.mul_lt_mono_pos_r; lia. }
  assert (Ev : phi (dmag E c << dexp E c)%uint63 = (m * 2 ^ e)%Z).
  { rewrite lsl_spec, wB_eq. apply Z.mod_small. fold m e. lia. }
  set (w := (m * 2 ^ e)%Z) in *.
  destruct (dsign c).
  - replace ((-1) * m * 2 ^ e)%Z with (- w)%Z by (unfold w; ring).
    assert (Ew : phi (0 - (dmag E c << dexp E c))%uint63 = ((0 - w) mod 2 ^ 63)%Z)
      by (rewrite sub_spec, Ev, wB_eq; reflexivity).
    unfold zval. rewrite Ew.
    destruct (Z.eq_dec w 0) as [Z0|Z0].
    + rewrite Z0. change ((0 - 0) mod 2 ^ 63)%Z with 0%Z.
      destruct ((0 - (dmag E c << dexp E c)) <? half_int)%uint63 eqn:Hh; [reflexivity|].
      exfalso. rewrite <- Bool.not_true_iff_false in Hh. apply Hh. apply ltb_spec.
      rewrite Ew, Z0, half_int_spec. change ((0 - 0) mod 2 ^ 63)%Z with 0%Z. lia.
    + assert (Hm' : ((0 - w) mod 2 ^ 63 = 2 ^ 63 - w)%Z).
      { rewrite <- (Z.mod_add _ 1) by lia. rewrite Z.mod_small by lia. ring. }
      rewrite Hm'.
      destruct ((0 - (dmag E c << dexp E c)) <? half_int)%uint63 eqn:Hh; [|lia].
      exfalso. apply ltb_spec in Hh. rewrite Ew, half_int_spec, Hm' in Hh. lia.
  - replace (1 * m * 2 ^ e)%Z with w by (unfold w; ring).
    unfold zval. rewrite Ev.
    destruct ((dmag E c << dexp E c) <? half_int)%uint63 eqn:Hh; [reflexivity|].
    exfalso. rewrite <- Bool.not_true_iff_false in Hh. apply Hh. apply ltb_spec.
    rewrite Ev, half_int_spec. lia.
Qed.

Lemma dec1_0 E : dec1 E 0 = 0%uint63.
Proof.
  apply to_Z_inj. unfold dec1. change (dsign 0) with false. cbv iota.
  rewrite lsl_spec. unfold dmag. rewrite !div_spec. change (phi 0) with 0%Z.
  rewrite !Zdiv_0_l. reflexivity.
Qed.

Lemma zentry_decode E rows : fits E rows = true ->
  forall i j, zentry (decode E rows) i j = dentry E rows i j.
Proof.
  intros H i j. unfold zentry, dentry, decode.
  rewrite (nth_map_default (map (dec1 E)) rows [] [] i eq_refl).
  rewrite (nth_map_default (dec1 E) _ 0%uint63 0%uint63 j (dec1_0 E)).
  destruct (nth_in_or_default j (nth i rows []) 0%uint63) as [Hin|Hd].
  - apply dec1_spec. unfold fits in H. rewrite forallb_forall in H.
    destruct (nth_in_or_default i rows []) as [Hr|Hr].
    + specialize (H _ Hr). rewrite forallb_forall in H. exact (H _ Hin).
    + rewrite Hr in Hin. destruct j; contradiction.
  - rewrite Hd, dec1_0, dval_0. apply zval_0.
Qed.

Definition check_one_extra_coded (d n z i1 : nat) (ln ld : Z) (R1 C : list nat) (dA dB : Z)
    (E : int) (RA CB : list (list int)) (p q : int) (u v : list int)
    (Ys : list (list (list int))) (As : list (list int)) : bool :=
  fits E RA && fits E CB &&
  check_one_extra d n z i1 ln ld R1 C dA dB (decode E RA) (decode E CB) p q u v Ys As.

Theorem cert_one_extra_coded_not_absorbable (d n z i1 : nat) (ln ld : Z) (R1 C : list nat)
    (dA dB : Z) (E : int) (RA CB : list (list int)) (p q : int) (u v : list int)
    (Ys : list (list (list int))) (As : list (list int)) :
  check_one_extra_coded d n z i1 ln ld R1 C dA dB E RA CB p q u v Ys As = true ->
  forall A B : mat, agrees_up_coded n C dA E RA A -> agrees_down_coded n R1 dB E CB B ->
  row_multiple d z i1 ln ld A -> ~ absorbable_ungated relu d n n identity A B.
Proof.
  intros Hchk A B HA HB. unfold check_one_extra_coded in Hchk.
  apply andb_prop in Hchk as [H Hc]. apply andb_prop in H as [HfA HfB].
  apply (cert_one_extra_not_absorbable d n z i1 ln ld R1 C dA dB (decode E RA) (decode E CB)
           p q u v Ys As Hc).
  - intros i j Hi Hj. rewrite (HA i j Hi Hj). unfold mat_of_drows, zmat, mat_of_rows.
    rewrite (zentry_decode E RA HfA). reflexivity.
  - intros k i Hk Hi. rewrite (HB k i Hk Hi). unfold mat_of_dcols, zmat_t, mat_of_cols.
    rewrite (zentry_decode E CB HfB). reflexivity.
Qed.
