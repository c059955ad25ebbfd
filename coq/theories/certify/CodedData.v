(** * Coded data: weights as [+- mag * 2^e], residues computed in Coq

    Numerators too large for 63 bits (a float32 matrix holding [1e-30] next to
    [1] needs about 150 bits over one denominator per matrix) are written as
    codes: an [int] [c] stands for the integer [dval E c = (-1)^s * mag * 2^e]
    with [s = c mod 2], [e = (c / 2) mod E], [mag = c / 2 / E] ([E] is a
    base fixed per certificate).  The checkers [check_nosub] and
    [check_generic_sorted] read their data only modulo a prime, so they run
    unchanged on the residues [resid p E rows], computed in Coq
    ([zentry_resid]).  Their conclusions hold for every integer matrix
    ([zmat]) congruent to the data they read: [check_nosub_sound_congr]
    ([CheckNoSubset.v]) and [check_generic_sorted_sound_congr] (here, from
    [check_generic_sorted_sound_gen]).  [CertifyCoded.v] uses them for
    certificates. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63 Znumtheory Permutation.
From Absorb Require Import Sums Blocks IntSums Modular SubsetTargets CheckNoSubset CheckGeneric
  RowWalk.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

(** ** Codes and the integers they stand for *)

Definition dsign (c : int) : bool := (c mod 2 =? 1)%uint63.
Definition dexp (E c : int) : int := ((c / 2) mod E)%uint63.
Definition dmag (E c : int) : int := (c / 2 / E)%uint63.

Definition dval (E c : int) : Z :=
  ((if dsign c then -1 else 1) * phi (dmag E c) * 2 ^ phi (dexp E c))%Z.

Lemma dval_0 E : dval E 0 = 0%Z.
Proof.
  unfold dval, dmag. rewrite !div_spec. change (phi 0) with 0%Z. rewrite !Zdiv_0_l. ring.
Qed.

(** [2 ^ e mod p] by squaring, at most [k] steps. *)
Fixpoint pow2m (p e : int) (k : nat) : int :=
  match k with
  | O => 1%uint63
  | S k' =>
      if (e =? 0)%uint63 then 1%uint63 else
      let r := pow2m p (e / 2)%uint63 k' in
      let r2 := mulm p r r in
      if (e mod 2 =? 1)%uint63 then addm p r2 r2 else r2
  end.

Lemma one_mod (P : Z) : (1 < P)%Z -> (1 mod P = 1)%Z.
Proof. intros. apply Z.mod_small. lia. Qed.

Lemma pow2m_spec p (Hp : (1 < phi p < 2 ^ 31)%Z) k : forall e, (phi e < 2 ^ Z.of_nat k)%Z ->
  phi (pow2m p e k) = (2 ^ phi e mod phi p)%Z.
Proof.
  induction k as [|k IH]; intros e He; simpl pow2m; pose proof (to_Z_bounded e) as Be.
  - change (2 ^ Z.of_nat 0)%Z with 1%Z in He. replace (phi e) with 0%Z by lia.
    change (phi 1) with 1%Z. rewrite one_mod; lia.
  - destruct (e =? 0)%uint63 eqn:E0.
    + apply eqb_spec in E0. subst e. change (phi 0) with 0%Z. change (phi 1) with 1%Z.
      rewrite one_mod; lia.
    + assert (He2 : (phi (e / 2) < 2 ^ Z.of_nat k)%Z).
      { rewrite div_spec. change (phi 2) with 2%Z.
        rewrite Nat2Z.inj_succ, Z.pow_succ_r in He by lia. apply Z.div_lt_upper_bound; lia. }
      specialize (IH _ He2). rewrite div_spec in IH. change (phi 2) with 2%Z in IH.
      pose proof (Z.div_mod (phi e) 2 ltac:(lia)) as Hdm.
      pose proof (Z.mod_pos_bound (phi e) 2 ltac:(lia)) as Hmb.
      set (q := (phi e / 2)%Z) in *.
      destruct (e mod 2 =? 1)%uint63 eqn:Em.
      * apply eqb_spec in Em. apply (f_equal phi) in Em. rewrite mod_spec in Em.
        change (phi 2) with 2%Z in Em. change (phi 1) with 1%Z in Em.
        rewrite (addm_spec p Hp), (mulm_spec p Hp), IH, <- Zmult_mod, <- Zplus_mod.
        f_equal. replace (phi e) with (q + q + 1)%Z by lia.
        rewrite !Z.pow_add_r by lia. ring.
      * assert (Em' : (phi e mod 2 = 0)%Z).
        { assert (phi e mod 2 <> 1)%Z as N; [|lia].
          intros N. rewrite <- Bool.not_true_iff_false in Em. apply Em. apply eqb_spec.
          apply to_Z_inj. rewrite mod_spec. exact N. }
        rewrite (mulm_spec p Hp), IH, <- Zmult_mod.
        f_equal. replace (phi e) with (q + q)%Z by lia. rewrite Z.pow_add_r by lia. reflexivity.
Qed.

(** [mag * 2^e mod p]: one shift when [mag * 2^e < 2^62] (every float32 weight over
    the denominator of a matrix of a typical range), else by squaring. *)
Definition mulpow2 (p m e : int) : int :=
  if (e <? 31)%uint63 && (m <? 2147483648)%uint63 then ((m << e) mod p)%uint63
  else mulm p m (pow2m p e 63).

Lemma mulpow2_spec p (Hp : (1 < phi p < 2 ^ 31)%Z) m e :
  phi (mulpow2 p m e) = ((phi m * 2 ^ phi e) mod phi p)%Z.
Proof.
  assert (Hb : (phi e < 2 ^ Z.of_nat 63)%Z)
    by (pose proof (to_Z_bounded e) as B; rewrite wB_eq in B; exact (proj2 B)).
  unfold mulpow2. destruct ((e <? 31)%uint63 && (m <? 2147483648)%uint63) eqn:F.
  - apply andb_prop in F as [F1 F2]. apply ltb_spec in F1, F2.
    change (phi 31) with 31%Z in F1. change (phi 2147483648) with (2 ^ 31)%Z in F2.
    pose proof (to_Z_bounded m). pose proof (to_Z_bounded e).
    rewrite mod_spec, lsl_spec, wB_eq. f_equal. apply Z.mod_small. split; [lia|].
    apply (Z.lt_le_trans _ (2 ^ 31 * 2 ^ 31)); [|apply Z.leb_le; reflexivity].
    apply Z.mul_lt_mono_nonneg; try lia. apply Z.pow_lt_mono_r; lia.
  - rewrite (mulm_spec p Hp), (pow2m_spec p Hp 63 _ Hb), Zmult_mod_idemp_r. reflexivity.
Qed.

(** The residue of a code modulo [p]. *)
Definition dres (p E c : int) : int :=
  let r := mulpow2 p (dmag E c) (dexp E c) in
  if dsign c then subm p 0 r else r.

Lemma dres_spec p (Hp : (1 < phi p < 2 ^ 31)%Z) E c : phi (dres p E c) = (dval E c mod phi p)%Z.
Proof.
  unfold dres, dval. destruct (dsign c).
  - rewrite (subm_spec p Hp), (mulpow2_spec p Hp). change (phi 0) with 0%Z.
    rewrite Zminus_mod_idemp_r. f_equal. ring.
  - rewrite (mulpow2_spec p Hp). f_equal. ring.
Qed.

Lemma zval_small u : (phi u < 2 ^ 62)%Z -> zval u = phi u.
Proof.
  intros H. unfold zval. destruct (u <? half_int)%uint63 eqn:E; [reflexivity|].
  exfalso. rewrite <- Bool.not_true_iff_false in E. apply E. apply ltb_spec.
  rewrite half_int_spec. exact H.
Qed.

(** ** Residue matrices *)

Definition resid (p E : int) (rows : list (list int)) : list (list int) :=
  map (map (dres p E)) rows.

(** [dval] as the VM should compute it: the bits of [mag], then [e] zeros
    ([IntSums.phi_fast]; no product). *)
Definition dval_fast (E c : int) : Z :=
  let v := Z.shiftl (phi_fast (dmag E c)) (phi_fast (dexp E c)) in
  if dsign c then Z.opp v else v.

Lemma dval_fast_spec E c : dval_fast E c = dval E c.
Proof.
  unfold dval_fast, dval. rewrite !phi_fast_spec.
  pose proof (to_Z_bounded (dexp E c)) as B.
  rewrite Z.shiftl_mul_pow2 by lia. destruct (dsign c); ring.
Qed.

(** Coded rows read as integers ([dval], computed by [dval_fast]): the width route's
    data ([list (list Z)], as [zrows] reads plain numerators) when codes are denser or
    plain numerators would end in many zero bits (Coq elaborates such literals about four
    times slower). *)
Definition zcodes (E : int) (rows : list (list int)) : list (list Z) :=
  map (map (dval_fast E)) rows.

Lemma zcodes_spec E rows : zcodes E rows = map (map (dval E)) rows.
Proof. unfold zcodes. apply map_ext. intros r. apply map_ext. apply dval_fast_spec. Qed.

(** Entry [(i, j)] of coded data (0 outside). *)
Definition dentry (E : int) (rows : list (list int)) (i j : nat) : Z :=
  dval E (nth j (nth i rows []) 0%uint63).

Lemma nth_map_default {X Y} (f : X -> Y) l x y i : f x = y -> nth i (map f l) y = f (nth i l x).
Proof. intros <-. apply map_nth. Qed.

Lemma zentry_resid p (Hp : (1 < phi p < 2 ^ 31)%Z) E rows i j :
  zentry (resid p E rows) i j = (dentry E rows i j mod phi p)%Z.
Proof.
  unfold zentry, resid, dentry.
  rewrite (nth_map_default (map (dres p E)) rows [] [] i eq_refl).
  assert (H0 : dres p E 0 = 0%uint63).
  { apply to_Z_inj. rewrite (dres_spec p Hp), dval_0. reflexivity. }
  rewrite (nth_map_default (dres p E) _ 0%uint63 0%uint63 j H0).
  rewrite zval_small; [apply dres_spec; exact Hp|].
  rewrite (dres_spec p Hp).
  pose proof (Z.mod_pos_bound (dval E (nth j (nth i rows []) 0%uint63)) (phi p)).
  lia.
Qed.

(** ** Coded matrices, congruent to their residues *)

Definition mat_of_drows (den : Z) (E : int) (rows : list (list int)) : mat :=
  zmat den (dentry E rows).
Definition mat_of_dcols (den : Z) (E : int) (cols : list (list int)) : mat :=
  zmat_t den (dentry E cols).

Lemma congr_resid p (Hp : (1 < phi p < 2 ^ 31)%Z) E rows :
  congr (phi p) (zentry (resid p E rows)) (dentry E rows).
Proof. intros i j. rewrite (zentry_resid p Hp), Zmod_mod. reflexivity. Qed.

(** ** The sorted-ratio genericity checker on congruent data *)

Theorem check_generic_sorted_sound_congr d n dA dB RA CB p u v eA eBt :
  check_generic_sorted d n RA CB p u v = true -> (0 < dA)%Z -> (0 < dB)%Z ->
  congr (phi p) (zentry RA) eA -> (forall i k, zentry CB i k = eBt i k mod phi p)%Z ->
  generic d n (zmat dA eA) (zmat_t dB eBt).
Proof.
  intros H HA HB CA CB'.
  apply (check_generic_sorted_sound_gen d n dA dB RA CB p u v eA eBt H HA HB CA).
  intros i k Hz E. apply Hz. rewrite CB', E. reflexivity.
Qed.

(** ** Exact products from residues: the submatrix checker on coded data

    [check_prod_res] is [Modular.check_prod] with the data read modulo each
    prime [p] from [XY p] (residues computed per prime) and the size bound
    from given bounds [bX], [bY] on the integers they stand for. *)

Fixpoint zmaxrow (f : nat -> Z) (c : nat) : Z :=
  match c with O => 0%Z | S c' => Z.max (zmaxrow f c') (Z.abs (f c')) end.

Fixpoint zmaxabs (r c : nat) (f : nat -> nat -> Z) : Z :=
  match r with O => 0%Z | S r' => Z.max (zmaxabs r' c f) (zmaxrow (f r') c) end.

Lemma zmaxrow_spec f c i : (i < c)%nat -> (Z.abs (f i) <= zmaxrow f c)%Z.
Proof.
  induction c as [|c IH]; intros Hi; [lia|]. simpl.
  destruct (Nat.eq_dec i c) as [->|Hne]; [lia|]. pose proof (IH ltac:(lia)). lia.
Qed.

Lemma zmaxabs_spec r c f k i : (k < r)%nat -> (i < c)%nat -> (Z.abs (f k i) <= zmaxabs r c f)%Z.
Proof.
  induction r as [|r IH]; intros Hk Hi; [lia|]. simpl.
  destruct (Nat.eq_dec k r) as [->|Hne].
  - pose proof (zmaxrow_spec (f r) c i Hi). lia.
  - pose proof (IH ltac:(lia) Hi). lia.
Qed.

Lemma lin_congr P c1 c2 x y t : (x mod P = y mod P)%Z ->
  ((c1 * x + c2 * t) mod P = (c1 * y + c2 * t) mod P)%Z.
Proof.
  intros H. rewrite Zplus_mod, (Zplus_mod (c1 * y)), Zmult_mod, (Zmult_mod c1 y), H. reflexivity.
Qed.

Definition check_prod_res (d m : nat) (XY : int -> (nat -> nat -> int) * (nat -> nat -> int))
    (T : nat -> nat -> int) (S : nat -> bool) (c1 c2 bX bY : Z) (ps : list int) : bool :=
  forallb p_ok ps && pairwise_coprime ps && (0 <=? bX)%Z && (0 <=? bY)%Z &&
  (Z.abs c1 * Z.of_nat m * bX * bY + Z.abs c2 * phi (maxabs d d T) <? zprod ps)%Z &&
  forallb (fun p => let xy := XY p in
             forallb
               (fun k => forallb (prod_entry_ok p d m (fst xy) (snd xy) T S c1 c2 k) (seq 0 d))
                     (seq 0 d)) ps.

Theorem check_prod_res_sound d m XY T S c1 c2 bX bY ps (eX eY : nat -> nat -> Z) :
  check_prod_res d m XY T S c1 c2 bX bY ps = true ->
  (forall p, In p ps -> forall k i, (zval (fst (XY p) k i) mod phi p = eX k i mod phi p)%Z) ->
  (forall p, In p ps -> forall i l, (zval (snd (XY p) i l) mod phi p = eY i l mod phi p)%Z) ->
  (forall k i, (k < d)%nat -> (i < m)%nat -> Z.abs (eX k i) <= bX)%Z ->
  (forall i l, (i < m)%nat -> (l < d)%nat -> Z.abs (eY i l) <= bY)%Z ->
  forall k l, (k < d)%nat -> (l < d)%nat ->
  (c1 * zsum m (fun i => if S i then eX k i * eY i l else 0) + c2 * zval (T k l) = 0)%Z.
Proof.
  unfold check_prod_res. intros H CX CY BX BY k l Hk Hl.
  apply andb_prop in H as [H Hall]. apply andb_prop in H as [H Hbound].
  apply andb_prop in H as [H HbY]. apply andb_prop in H as [H HbX].
  apply andb_prop in H as [Hok Hpc]. apply Z.ltb_lt in Hbound. apply Z.leb_le in HbX, HbY.
  apply (small_multiple_zero (zprod ps)); [apply zprod_pos; exact Hok| |].
  - apply zprod_divide; auto. intros p Hin.
    rewrite forallb_forall in Hall, Hok. specialize (Hall p Hin). specialize (Hok p Hin).
    apply p_ok_spec in Hok. cbv zeta in Hall.
    rewrite forallb_forall in Hall. specialize (Hall k ltac:(apply in_seq; lia)).
    rewrite forallb_forall in Hall. specialize (Hall l ltac:(apply in_seq; lia)).
    unfold prod_entry_ok in Hall. apply Uint63.eqb_spec in Hall.
    apply (f_equal phi) in Hall.
    rewrite (addm_spec p Hok), !(mulm_spec p Hok), !(cZ_spec p _ Hok), (psum_spec p Hok),
      (red_spec p Hok) in Hall.
    rewrite <- !Zmult_mod, <- Zplus_mod in Hall. change (phi 0) with 0%Z in Hall.
    etransitivity; [|exact Hall]. apply lin_congr.
    apply zsum_congr. intros i _. destruct (S i); [|reflexivity].
    rewrite (Zmult_mod (eX k i)), (Zmult_mod (zval _)), (CX p Hin k i), (CY p Hin i l). reflexivity.
  - eapply Z.le_lt_trans; [|exact Hbound].
    eapply Z.le_trans; [apply Z.abs_triangle|]. rewrite !Z.abs_mul.
    apply Z.add_le_mono.
    + rewrite <- !Z.mul_assoc. apply Z.mul_le_mono_nonneg_l; [lia|].
      eapply Z.le_trans; [apply zsum_abs|].
      replace (Z.of_nat m * (bX * bY))%Z with (zsum m (fun _ => bX * bY))%Z
        by (rewrite zsum_const; ring).
      apply zsum_le. intros i Hi.
      destruct (S i); [|simpl; nia].
      rewrite Z.abs_mul. apply Z.mul_le_mono_nonneg; try lia; [apply BX | apply BY]; assumption.
    + apply Z.mul_le_mono_nonneg_l; [lia|]. apply maxabs_spec; assumption.
Qed.

Definition check_submatrix_coded (d n : nat) (dA dB dT : Z) (E : int) (RA CB RT : list (list int))
    (Sl : list bool) (ps : list int) : bool :=
  (0 <? dA)%Z && (0 <? dB)%Z && (0 <? dT)%Z &&
  check_prod_res d n (fun p => (colsX (resid p E CB), rowsX (resid p E RA))) (rowsX RT) (Sfun Sl)
    dT (dA * dB)
    (zmaxabs d n (fun k i => dentry E CB i k)) (zmaxabs n d (dentry E RA)) ps.

Theorem check_submatrix_coded_sound d n dA dB dT E RA CB RT Sl ps :
  check_submatrix_coded d n dA dB dT E RA CB RT Sl ps = true ->
  target_eq d n (Sfun Sl) (mat_of_drows dA E RA) (mat_of_dcols dB E CB) (mat_of_rows dT RT).
Proof.
  unfold check_submatrix_coded. intros H k l Hk Hl.
  apply andb_prop in H as [H Hc]. apply andb_prop in H as [H HT].
  apply andb_prop in H as [HA HB]. apply Z.ltb_lt in HA, HB, HT.
  assert (Hps : forall p, In p ps -> (1 < phi p < 2 ^ 31)%Z).
  { intros p Hin. unfold check_prod_res in Hc.
    do 5 (apply andb_prop in Hc as [Hc _]). rewrite forallb_forall in Hc.
    apply p_ok_spec, Hc, Hin. }
  pose proof (check_prod_res_sound _ _ _ _ _ _ _ _ _ _ (fun k i => dentry E CB i k) (dentry E RA) Hc
                (fun p Hin k i => eq_trans (f_equal (fun z => z mod phi p)%Z
                                              (zentry_resid p (Hps p Hin) E CB i k)) (Zmod_mod _ _))
                (fun p Hin i l => eq_trans (f_equal (fun z => z mod phi p)%Z
                                              (zentry_resid p (Hps p Hin) E RA i l)) (Zmod_mod _ _))
                (fun k i Hk Hi => zmaxabs_spec d n _ k i Hk Hi)
                (fun i l Hi Hl => zmaxabs_spec n d _ i l Hi Hl) k l Hk Hl) as E0.
  unfold rowsX in E0. fold (zentry RT k l) in E0.
  apply IZR_lt in HA, HB, HT.
  unfold mat_of_drows, mat_of_dcols. rewrite subset_sum_zmat by lra. unfold mat_of_rows.
  set (z := zsum n (fun i => if Sfun Sl i then dentry E CB i k * dentry E RA i l else 0)%Z) in *.
  assert (Ez : (dT * z = - (dA * dB * zentry RT k l))%Z) by lia.
  apply (f_equal IZR) in Ez. rewrite !mult_IZR, opp_IZR, !mult_IZR in Ez.
  apply (Rmult_eq_reg_l (IZR dT)); [|lra].
  field_simplify; try lra. rewrite Ez. field. lra.
Qed.

Corollary check_submatrix_coded_identity d n dA dB E RA CB Sl ps :
  check_submatrix_coded d n dA dB 1 E RA CB (id_rows d) Sl ps = true ->
  submatrix_cond d n (Sfun Sl) (mat_of_drows dA E RA) (mat_of_dcols dB E CB).
Proof.
  intros H k l Hk Hl. rewrite (check_submatrix_coded_sound _ _ _ _ _ _ _ _ _ _ _ H k l Hk Hl).
  rewrite id_rows_spec by assumption. reflexivity.
Qed.
