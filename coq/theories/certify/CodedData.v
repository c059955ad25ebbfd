(** * Coded data: weights as [+- mag * 2^e], residues computed in Coq

    Numerators too large for 63 bits (a float32 matrix holding [1e-30] next to
    [1] needs about 150 bits over one denominator per matrix) are written as
    codes: an [int] [c] stands for the integer [dval E c = (-1)^s * mag * 2^e]
    with [s = c mod 2], [e = (c / 2) mod E], [mag = c / 2 / E] ([E] is a
    base fixed per certificate).  The checkers [check_nosub] and
    [check_generic_sorted] read their data only modulo a prime, so they run
    unchanged on the residues [resid p E rows], computed in Coq
    ([zentry_resid]).  Their conclusions hold for every integer matrix
    congruent to the data they read: [check_nosub_sound_congr],
    [check_generic_sorted_sound_congr], stated with matrices [zmat] of
    arbitrary integer entries.  [CertifyCoded.v] uses them for certificates. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63 Znumtheory Permutation.
From Absorb Require Import Sums Blocks IntSums Modular SubsetTargets CheckNoSubset CheckGeneric RowWalk.
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

Definition resid (p E : int) (rows : list (list int)) : list (list int) := map (map (dres p E)) rows.

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
  rewrite (dres_spec p Hp). pose proof (Z.mod_pos_bound (dval E (nth j (nth i rows []) 0%uint63)) (phi p)).
  lia.
Qed.

(** ** Matrices of arbitrary integer entries *)

Definition zmat (den : Z) (eA : nat -> nat -> Z) : mat := fun i j => (IZR (eA i j) / IZR den)%R.

(** Given by its columns: entry [(k, i)] is [eBt i k]. *)
Definition zmat_t (den : Z) (eBt : nat -> nat -> Z) : mat := fun k i => (IZR (eBt i k) / IZR den)%R.

Definition mat_of_drows (den : Z) (E : int) (rows : list (list int)) : mat := zmat den (dentry E rows).
Definition mat_of_dcols (den : Z) (E : int) (cols : list (list int)) : mat := zmat_t den (dentry E cols).

(** Two integer matrices congruent modulo [P]. *)
Definition congr (P : Z) (f g : nat -> nat -> Z) : Prop := forall i j, (f i j mod P = g i j mod P)%Z.

Lemma congr_resid p (Hp : (1 < phi p < 2 ^ 31)%Z) E rows :
  congr (phi p) (zentry (resid p E rows)) (dentry E rows).
Proof. intros i j. rewrite (zentry_resid p Hp), Zmod_mod. reflexivity. Qed.

Lemma congr_refl P f : congr P f f.
Proof. intros i j. reflexivity. Qed.

Lemma zsum_congr P n f g : (forall i, (i < n)%nat -> f i mod P = g i mod P)%Z ->
  (zsum n f mod P = zsum n g mod P)%Z.
Proof. intros H. rewrite zsum_mod, (zsum_mod n g). f_equal. apply zsum_ext. exact H. Qed.

Lemma fsumZ_congr P Y g g' : (forall k yr, (g k yr mod P = g' k yr mod P)%Z) ->
  (fsumZ Y g mod P = fsumZ Y g' mod P)%Z.
Proof.
  intros H. induction Y as [|[k yr] Y IH]; simpl; [reflexivity|].
  rewrite Zplus_mod, (Zplus_mod (g' k yr)), H, IH. reflexivity.
Qed.

Lemma dot_congr P d (u : list int) (a ea : nat -> Z) : (forall l, a l mod P = ea l mod P)%Z ->
  (zsum d (fun l => phi (nth l u 0%uint63) * a l) mod P =
   zsum d (fun l => phi (nth l u 0%uint63) * ea l) mod P)%Z.
Proof.
  intros H. apply zsum_congr. intros l _. rewrite Zmult_mod, H, <- Zmult_mod. reflexivity.
Qed.

(** ** The no-subset checker on congruent data *)

Lemma subset_sum_zmat n S dA dB eA eBt k l : IZR dA <> 0%R -> IZR dB <> 0%R ->
  subset_sum n S (zmat dA eA) (zmat_t dB eBt) k l =
  (IZR (zsum n (fun i => if S i then eBt i k * eA i l else 0)%Z) / (IZR dA * IZR dB))%R.
Proof.
  intros HA HB. unfold subset_sum, zmat, zmat_t.
  rewrite IZR_zsum. unfold Rdiv. rewrite <- sumn_scal_r. apply sumn_ext.
  intros i _. destruct (S i); [rewrite mult_IZR; field; auto | lra].
Qed.

Lemma target_Z_gen d n S dA dB dT eA eBt eT :
  (0 < dA)%Z -> (0 < dB)%Z -> (0 < dT)%Z ->
  target_eq d n S (zmat dA eA) (zmat_t dB eBt) (zmat dT eT) ->
  forall k l, (k < d)%nat -> (l < d)%nat ->
  (dT * zsum n (fun i => if S i then eBt i k * eA i l else 0) = - (dA * dB * eT k l))%Z.
Proof.
  intros HA HB HT H k l Hk Hl. specialize (H k l Hk Hl).
  apply IZR_lt in HA, HB, HT.
  rewrite subset_sum_zmat in H by lra. unfold zmat in H.
  apply eq_IZR. rewrite !mult_IZR, opp_IZR, !mult_IZR.
  match type of H with (?X / _ = _)%R =>
    assert (E : X = (- (IZR (eT k l) / IZR dT) * (IZR dA * IZR dB))%R)
      by (rewrite <- H; field; lra) end.
  rewrite E. field. lra.
Qed.

Lemma subset_values_mod_congr p (Hp : (1 < phi p < 2 ^ 31)%Z) d n dA dB dT RA CB RT eA eBt eT Y
    (S : nat -> bool) :
  fun_ok d Y = true ->
  congr (phi p) (zentry RA) eA -> congr (phi p) (zentry CB) eBt -> congr (phi p) (zentry RT) eT ->
  (forall k l, (k < d)%nat -> (l < d)%nat ->
     dT * zsum n (fun i => if S i then eBt i k * eA i l else 0) = - (dA * dB * eT k l))%Z ->
  (zsum n (fun i => if S i then phi (nth i (yvals p (cZ p dT) Y RA CB n) 0%uint63) else 0)
     mod phi p = phi (tval p (cZ p (- (dA * dB))) Y RT) mod phi p)%Z.
Proof.
  intros Hfun HA HB HT HZ. rewrite (tval_value p Hp d), Zmod_mod by exact Hfun.
  pose proof (functional_identity d n S dT (dA * dB) eA (fun k i => eBt i k) eT Y Hfun HZ) as FI.
  cbv beta in FI.
  transitivity ((- (dA * dB)) * fsumZ Y (fun k yr => zsum d (fun l => phi (nth l yr 0%uint63) * eT k l))
                mod phi p)%Z.
  - rewrite <- FI. apply zsum_congr. intros i Hi. destruct (S i); [|reflexivity].
    rewrite (yvals_value p Hp d n dT RA CB Y i Hfun Hi), Zmod_mod.
    rewrite Zmult_mod, (Zmult_mod dT). f_equal. f_equal.
    apply fsumZ_congr. intros k yr.
    rewrite Zmult_mod, (HB i k), (Zmult_mod (eBt i k)). f_equal. f_equal.
    unfold zdotrow. apply dot_congr. intros l. apply HA.
  - rewrite Zmult_mod, (Zmult_mod (- (dA * dB))). f_equal. f_equal.
    apply fsumZ_congr. intros k yr. symmetry. unfold zdotrow. apply dot_congr. intros l. apply HT.
Qed.

Theorem check_nosub_sound_congr d n dA dB dT RA CB RT p F fs eA eBt eT :
  check_nosub d n dA dB dT RA CB RT p F fs = true ->
  congr (phi p) (zentry RA) eA -> congr (phi p) (zentry CB) eBt -> congr (phi p) (zentry RT) eT ->
  forall S, ~ target_eq d n S (zmat dA eA) (zmat_t dB eBt) (zmat dT eT).
Proof.
  unfold check_nosub. intros H CA CB' CT S HS.
  apply andb_prop in H as [H Hrest]. cbv zeta in Hrest.
  apply andb_prop in Hrest as [Hzero Hall].
  apply andb_prop in H as [H Hfun].
  apply andb_prop in H as [H HT]. apply andb_prop in H as [H HB]. apply andb_prop in H as [Hp HA].
  apply Z.ltb_lt in HA, HB, HT. apply p_ok_spec in Hp.
  pose proof (target_Z_gen d n S dA dB dT eA eBt eT HA HB HT HS) as HZ.
  rewrite forallb_forall in Hall, Hzero, Hfun.
  pose proof (bools_complete (map S F)) as Hb. rewrite map_length in Hb.
  pose proof (Hall _ Hb) as Hex. apply existsb_exists in Hex as [r [Hr Hfails]].
  specialize (Hzero r Hr).
  apply in_map_iff in Hr as [[piv Y] [Er Hf]]. subst r. simpl in Hzero, Hfails.
  specialize (Hfun _ Hf). simpl in Hfun.
  exact (Bool.eq_true_false_abs _ Hfails
           (fails_impossible p Hp n F S piv (yvals p (cZ p dT) Y RA CB n) _
              (yvals_length _ _ _ _ _ _)
              (fun i => yvals_bound p Hp d n dT RA CB Y i Hfun) Hzero
              (subset_values_mod_congr p Hp d n dA dB dT RA CB RT eA eBt eT Y S Hfun CA CB' CT HZ))).
Qed.

Corollary check_nosub_identity_congr d n dA dB RA CB p F fs eA eBt :
  check_nosub d n dA dB 1 RA CB (id_rows d) p F fs = true ->
  congr (phi p) (zentry RA) eA -> congr (phi p) (zentry CB) eBt ->
  forall S, ~ submatrix_cond d n S (zmat dA eA) (zmat_t dB eBt).
Proof.
  intros H CA CB' S Hs.
  apply (check_nosub_sound_congr _ _ _ _ _ _ _ _ _ _ _ eA eBt (zentry (id_rows d)) H CA CB'
           (congr_refl _ _) S).
  exact (submatrix_target_identity d n S _ _ Hs).
Qed.

(** ** The sorted-ratio genericity checker on congruent data *)

Lemma proj_sum_z d dA eA i (u : list int) : IZR dA <> 0%R ->
  sumn d (fun k => IZR (phi (nth k u 0%uint63)) * zmat dA eA i k)%R =
  (IZR (zsum d (fun l => phi (nth l u 0%uint63) * eA i l)%Z) / IZR dA)%R.
Proof.
  intros HA. rewrite IZR_zsum. unfold Rdiv. rewrite <- sumn_scal_r.
  apply sumn_ext. intros k _. unfold zmat. rewrite mult_IZR. field. exact HA.
Qed.

Lemma independent_of_projections_z d dA eA i j (u v : list int) :
  (0 < IZR dA)%R ->
  (zsum d (fun l => phi (nth l u 0%uint63) * eA i l) * zsum d (fun l => phi (nth l v 0%uint63) * eA j l) -
   zsum d (fun l => phi (nth l v 0%uint63) * eA i l) * zsum d (fun l => phi (nth l u 0%uint63) * eA j l)
   <> 0)%Z ->
  lin_independent2 d (row (zmat dA eA) i) (row (zmat dA eA) j).
Proof.
  intros HA Hdet a b Hab.
  assert (Comb : forall w : list int,
    (a * IZR (zsum d (fun l => phi (nth l w 0%uint63) * eA i l)%Z) +
     b * IZR (zsum d (fun l => phi (nth l w 0%uint63) * eA j l)%Z) = 0)%R).
  { intros w.
    set (Si := sumn d (fun k => IZR (phi (nth k w 0%uint63)) * zmat dA eA i k)%R).
    set (Sj := sumn d (fun k => IZR (phi (nth k w 0%uint63)) * zmat dA eA j k)%R).
    assert (Ei : IZR (zsum d (fun l => phi (nth l w 0%uint63) * eA i l)%Z) = (Si * IZR dA)%R)
      by (unfold Si; rewrite proj_sum_z by lra; field; lra).
    assert (Ej : IZR (zsum d (fun l => phi (nth l w 0%uint63) * eA j l)%Z) = (Sj * IZR dA)%R)
      by (unfold Sj; rewrite proj_sum_z by lra; field; lra).
    assert (E0 : (a * Si + b * Sj = 0)%R).
    { unfold Si, Sj. rewrite <- !sumn_scal_l, <- sumn_plus. apply sumn_zero.
      intros k Hk. unfold row in Hab.
      transitivity (IZR (phi (nth k w 0%uint63)) * (a * zmat dA eA i k + b * zmat dA eA j k))%R; [ring|].
      rewrite (Hab k Hk). ring. }
    rewrite Ei, Ej.
    replace (a * (Si * IZR dA) + b * (Sj * IZR dA))%R with ((a * Si + b * Sj) * IZR dA)%R by ring.
    rewrite E0. ring. }
  pose proof (Comb u) as Hu'. pose proof (Comb v) as Hv'.
  set (Ui := zsum d (fun l => phi (nth l u 0%uint63) * eA i l)%Z) in *.
  set (Uj := zsum d (fun l => phi (nth l u 0%uint63) * eA j l)%Z) in *.
  set (Vi := zsum d (fun l => phi (nth l v 0%uint63) * eA i l)%Z) in *.
  set (Vj := zsum d (fun l => phi (nth l v 0%uint63) * eA j l)%Z) in *.
  apply not_0_IZR in Hdet. rewrite minus_IZR, !mult_IZR in Hdet.
  split.
  - apply (Rmult_eq_reg_r (IZR Ui * IZR Vj - IZR Vi * IZR Uj)); [|exact Hdet].
    transitivity ((a * IZR Ui + b * IZR Uj) * IZR Vj - (a * IZR Vi + b * IZR Vj) * IZR Uj)%R;
      [ring|]. rewrite Hu', Hv'. ring.
  - apply (Rmult_eq_reg_r (IZR Ui * IZR Vj - IZR Vi * IZR Uj)); [|exact Hdet].
    transitivity ((a * IZR Vi + b * IZR Vj) * IZR Ui - (a * IZR Ui + b * IZR Uj) * IZR Vi)%R;
      [ring|]. rewrite Hu', Hv'. ring.
Qed.

Lemma mdot_congr p (Hp : (1 < phi p < 2 ^ 31)%Z) d RA eA i (u : list int) :
  congr (phi p) (zentry RA) eA -> length u = d ->
  phi (mdot p u (nth i RA [])) = (zsum d (fun l => phi (nth l u 0%uint63) * eA i l) mod phi p)%Z.
Proof.
  intros C Hu. rewrite (mdot_zdot p Hp d u _ Hu). unfold zdotrow. apply dot_congr. intros l. apply C.
Qed.

Lemma zsum_nonzero d (f : nat -> Z) : zsum d f <> 0%Z -> exists k, (k < d)%nat /\ f k <> 0%Z.
Proof.
  intros H. destruct (Classical_Prop.classic (exists k, (k < d)%nat /\ f k <> 0%Z)) as [Y|N]; [exact Y|].
  exfalso. apply H. rewrite (zsum_ext d _ (fun _ => 0%Z)); [apply zsum_zero|].
  intros l Hl. destruct (Z.eq_dec (f l) 0) as [E|E]; [exact E|].
  exfalso. apply N. exists l. split; assumption.
Qed.

Lemma nonzero_vec_z d dA (a : nat -> Z) : (0 < dA)%Z ->
  (exists k, (k < d)%nat /\ a k <> 0%Z) -> nonzero_vec d (fun k => IZR (a k) / IZR dA)%R.
Proof.
  intros HA [k [Hk Hz]]. apply IZR_lt in HA. exists k. split; [exact Hk|].
  intros E. apply Hz. apply eq_IZR. apply (f_equal (fun x => x * IZR dA)%R) in E.
  field_simplify in E; lra.
Qed.

Theorem check_generic_sorted_sound_congr d n dA dB RA CB p u v eA eBt :
  check_generic_sorted d n RA CB p u v = true -> (0 < dA)%Z -> (0 < dB)%Z ->
  congr (phi p) (zentry RA) eA -> (forall i k, zentry CB i k = eBt i k mod phi p)%Z ->
  generic d n (zmat dA eA) (zmat_t dB eBt).
Proof.
  unfold check_generic_sorted. intros H HA HB CA CB'. cbv zeta in H.
  rewrite forall_rows_spec, map_rows_spec in H.
  apply andb_prop in H as [H Hrest]. apply andb_prop in Hrest as [Hinv Hsort].
  apply andb_prop in H as [H HBc]. apply andb_prop in H as [H Hv].
  apply andb_prop in H as [Hp Hu]. apply p_ok_spec in Hp.
  apply Nat.eqb_eq in Hu, Hv. rewrite forallb_forall in HBc, Hinv.
  set (uv := map (fun i => (mdot p u (nth i RA []), mdot p v (nth i RA []))) (seq 0 n)) in *.
  assert (Huv : forall i, (i < n)%nat -> nth i uv (0%uint63, 0%uint63) =
                 (mdot p u (nth i RA []), mdot p v (nth i RA [])))
    by (intros i Hi; unfold uv; rewrite (nth_map_seq _ n i _ Hi); reflexivity).
  assert (Hinv' : forall i, (i < n)%nat ->
            ((phi (mdot p v (nth i RA [])) * phi (inv_m p (mdot p v (nth i RA [])))) mod phi p = 1)%Z).
  { intros i Hi. apply (invertible_value p Hp).
    replace (mdot p v (nth i RA [])) with (snd (nth i uv (0%uint63, 0%uint63))) by (rewrite (Huv i Hi); reflexivity).
    apply (Hinv (nth i uv (0%uint63, 0%uint63))). apply nth_In. unfold uv. rewrite map_length, seq_length. exact Hi. }
  assert (Hnd : NoDup (map (ratio p) uv)).
  { apply (Permutation_NoDup (Permutation_sym (IntSort.Permuted_sort _))). apply strict_inc_nodup. exact Hsort. }
  rewrite NoDup_nth in Hnd. rewrite map_length in Hnd.
  assert (Hlen : length uv = n) by (unfold uv; rewrite map_length, seq_length; reflexivity).
  split; [|split].
  - intros i Hi. apply (nonzero_vec_z d dA (eA i) HA).
    destruct (zsum_nonzero d (fun l => phi (nth l v 0%uint63) * eA i l)%Z) as [k [Hk Hz]].
    + intros E. specialize (Hinv' i Hi). rewrite (mdot_congr p Hp d RA eA i v CA Hv), E in Hinv'.
      rewrite Zmod_0_l in Hinv'. simpl in Hinv'. discriminate.
    + exists k. split; [exact Hk|]. intros E. apply Hz. rewrite E. ring.
  - intros i j Hi Hj Hij. apply (independent_of_projections_z d dA eA i j u v (IZR_lt _ _ HA)).
    intros E. apply Hij. apply (Hnd i j ltac:(lia) ltac:(lia)).
    rewrite !(map_nth (ratio p) uv (0%uint63, 0%uint63)).
    apply to_Z_inj. rewrite !(ratio_value p Hp), (Huv i Hi), (Huv j Hj). simpl fst; simpl snd.
    rewrite !(mdot_congr p Hp d RA eA _ u CA Hu).
    rewrite !(Zmult_mod_idemp_l).
    apply (ratio_congruent (phi p) _ (phi (mdot p v (nth i RA []))) _ (phi (mdot p v (nth j RA []))));
      [lia | apply Hinv'; exact Hi | apply Hinv'; exact Hj|].
    rewrite !(mdot_congr p Hp d RA eA _ v CA Hv).
    rewrite Zminus_mod, !Zmult_mod_idemp_l, !Zmult_mod_idemp_r, <- Zminus_mod, E. reflexivity.
  - intros i Hi. destruct (nonzero_row_spec d _ (HBc i ltac:(apply in_seq; lia))) as [k [Hk Hz]].
    apply (nonzero_vec_z d dB (eBt i) HB). exists k. split; [exact Hk|].
    intros E. apply Hz. fold (zentry CB i k). rewrite CB', E. reflexivity.
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
Proof. intros H. rewrite Zplus_mod, (Zplus_mod (c1 * y)), Zmult_mod, (Zmult_mod c1 y), H. reflexivity. Qed.

Definition check_prod_res (d m : nat) (XY : int -> (nat -> nat -> int) * (nat -> nat -> int))
    (T : nat -> nat -> int) (S : nat -> bool) (c1 c2 bX bY : Z) (ps : list int) : bool :=
  forallb p_ok ps && pairwise_coprime ps && (0 <=? bX)%Z && (0 <=? bY)%Z &&
  (Z.abs c1 * Z.of_nat m * bX * bY + Z.abs c2 * phi (maxabs d d T) <? zprod ps)%Z &&
  forallb (fun p => let xy := XY p in
             forallb (fun k => forallb (prod_entry_ok p d m (fst xy) (snd xy) T S c1 c2 k) (seq 0 d))
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
  check_prod_res d n (fun p => (colsX (resid p E CB), rowsX (resid p E RA))) (rowsX RT) (Sfun Sl) dT (dA * dB)
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
    do 5 (apply andb_prop in Hc as [Hc _]). rewrite forallb_forall in Hc. apply p_ok_spec, Hc, Hin. }
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
