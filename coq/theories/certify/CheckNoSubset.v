(** * The no-subset checker [check_nosub] and its soundness

    [check_nosub_sound_congr]: if the checker accepts, no subset [S] satisfies
    [sum_(i in S) b_i a_i^T = - T] for any integer matrices ([zmat]) congruent
    mod [p] to the data it read; [check_nosub_sound]: the data themselves;
    corollaries for the identity skip and for an invertible skip (R1's reduced
    block).  [yvals] takes [ysum_raw]'s shortcut for small [p] ([yvals_eq]: the
    same values). *)

From Coq Require Import Reals ZArith Lia Lra List Uint63 Znumtheory.
From Absorb Require Import Sums Blocks IntSums Modular SubsetTargets RowWalk.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

(** ** The no-subset checker

    A certificate: a modulus [p], a list [F] of "free" indices and functionals,
    each with an optional pivot index.  For functional [Y], [y_i] is its value
    on [dT b_i a_i^T] and [t] its value on [- dA dB T] (mod p); every [y_i]
    with [i] neither free nor the pivot must vanish.  Then, for every 0/1
    assignment [z] of the free indices, some functional must show
    [t - sum_(i in F, z_i) y_i] to be neither [0] nor [y_pivot]. *)

Definition inF (F : list nat) (i : nat) : bool := existsb (Nat.eqb i) F.

Fixpoint zlook (F : list nat) (z : list bool) (i : nat) : bool :=
  match F, z with
  | f :: F', b :: z' => if Nat.eqb f i then b else zlook F' z' i
  | _, _ => false
  end.

Lemma zlook_map F (S : nat -> bool) i : inF F i = true -> zlook F (map S F) i = S i.
Proof.
  induction F as [|f F IH]; simpl; [discriminate|].
  destruct (Nat.eqb f i) eqn:E; simpl.
  - apply Nat.eqb_eq in E. subst. reflexivity.
  - rewrite Nat.eqb_sym, E. simpl. exact IH.
Qed.

Fixpoint bools (k : nat) : list (list bool) :=
  match k with
  | O => [[]]
  | S k' => map (cons false) (bools k') ++ map (cons true) (bools k')
  end.

Lemma bools_complete z : In z (bools (length z)).
Proof.
  induction z as [|b z IH]; simpl; [auto|].
  apply in_or_app. destruct b; [right | left]; apply in_map; exact IH.
Qed.

Definition opt_is (o : option nat) (i : nat) : bool :=
  match o with Some j => Nat.eqb j i | None => false end.

Fixpoint zero_outside (F : list nat) (piv : option nat) (ys : list int) (i : nat) : bool :=
  match ys with
  | [] => true
  | y :: ys' => (inF F i || opt_is piv i || (y =? 0)%uint63) && zero_outside F piv ys' (S i)
  end.

Lemma zero_outside_spec F piv ys : forall j, zero_outside F piv ys j = true ->
  forall i, inF F (j + i) = false -> opt_is piv (j + i) = false ->
  nth i ys 0%uint63 = 0%uint63.
Proof.
  induction ys as [|y ys IH]; intros j H i HF Hp; [destruct i; reflexivity|].
  simpl in H. apply andb_prop in H as [H1 H2]. destruct i as [|i].
  - rewrite Nat.add_0_r in HF, Hp. rewrite HF, Hp in H1. simpl in H1.
    apply eqb_spec in H1. exact H1.
  - simpl. apply (IH (S j) H2); replace (S j + i)%nat with (j + S i)%nat by lia; assumption.
Qed.

Fixpoint wsum (p : int) (F : list nat) (z : list bool) (ys : list int) (i : nat) : int :=
  match ys with
  | [] => 0%uint63
  | y :: ys' => addm p (if inF F i && zlook F z i then y else 0%uint63) (wsum p F z ys' (S i))
  end.

Lemma wsum_spec p (Hp : (1 < phi p < 2 ^ 31)%Z) F z ys : forall j,
  phi (wsum p F z ys j) =
  (zsum (length ys) (fun i => if inF F (j + i) && zlook F z (j + i)
                              then phi (nth i ys 0%uint63) else 0) mod phi p)%Z.
Proof.
  induction ys as [|y ys IH]; intros j; [reflexivity|].
  simpl wsum. rewrite (addm_spec p Hp), IH. simpl length. rewrite zsum_shift.
  rewrite Nat.add_0_r.
  match goal with |- _ = ((_ + zsum _ ?g) mod _)%Z =>
    rewrite (zsum_ext (length ys) g
             (fun i => if inF F (S j + i) && zlook F z (S j + i)
                       then phi (nth i ys 0%uint63) else 0%Z))
      by (intros i _; rewrite <- Nat.add_succ_comm; reflexivity) end.
  rewrite Zplus_mod_idemp_r. f_equal. f_equal.
  destruct (inF F j && zlook F z j); reflexivity.
Qed.

Definition piv_val (piv : option nat) (ys : list int) : int :=
  match piv with Some i => nth i ys 0%uint63 | None => 0%uint63 end.

Definition fails (p : int) (F : list nat) (z : list bool)
    (r : option nat * list int * int) : bool :=
  let '(piv, ys, t) := r in
  let v := subm p t (wsum p F z ys 0) in
  negb (v =? 0)%uint63 && negb (v =? piv_val piv ys)%uint63.

Definition yvals (p cT : int) (Y : functional) (RA CB : list (list int)) (n : nat) : list int :=
  if small_fun p Y then
    let Y' := fun_red p Y in
    map_rows2 (fun a b => mulm p cT (ysum_raw p Y' (map (red p) a) b)) n RA CB
  else map_rows2 (fun a b => mulm p cT (ysum p Y a b)) n RA CB.

(** Both branches of [yvals] compute [mulm p cT (ysum p Y a_i b_i)] for [i < n]. *)
Lemma yvals_eq p cT Y RA CB n :
  yvals p cT Y RA CB n = map (fun i => mulm p cT (ysum p Y (nth i RA []) (nth i CB []))) (seq 0 n).
Proof.
  unfold yvals. rewrite <- (map_rows2_spec (fun a b => mulm p cT (ysum p Y a b))).
  destruct (small_fun p Y) eqn:E; [|reflexivity].
  cbv zeta. rewrite !map_rows2_spec. apply map_ext. intros i. rewrite (ysum_raw_eq p Y _ _ E).
  reflexivity.
Qed.

(** Both branches on data with negative numerators: [p < 2^21] (reductions
    skipped) and [p = 2^31 - 1] (the general loop) agree with the indexed form. *)
Definition ex_Y : functional := [(1%nat, [3; 0 - 5; 7]%uint63); (0%nat, [0 - 1; 2; 9]%uint63)].
Definition ex_RA : list (list int) := [[1; 0 - 2; 4]; [0 - 3; 5; 6]]%uint63.
Definition ex_CB : list (list int) := [[2; 0 - 1; 8]; [0 - 7; 3; 1]]%uint63.

Example yvals_branches :
  small_fun 1000003 ex_Y = true /\ small_fun 2147483647 ex_Y = false /\
  yvals 1000003 5 ex_Y ex_RA ex_CB 3 =
    map (fun i => mulm 1000003 5 (ysum 1000003 ex_Y (nth i ex_RA []) (nth i ex_CB []))) (seq 0 3) /\
  yvals 2147483647 5 ex_Y ex_RA ex_CB 3 =
    map (fun i => mulm 2147483647 5 (ysum 2147483647 ex_Y (nth i ex_RA []) (nth i ex_CB [])))
      (seq 0 3).
Proof. vm_compute. repeat split; reflexivity. Qed.

Lemma yvals_length p cT Y RA CB n : length (yvals p cT Y RA CB n) = n.
Proof. rewrite yvals_eq, map_length, seq_length. reflexivity. Qed.

Definition tval (p cAB : int) (Y : functional) (RT : list (list int)) : int :=
  mulm p cAB (tsum p Y RT).

Definition check_nosub (d n : nat) (dA dB dT : Z) (RA CB RT : list (list int)) (p : int)
    (F : list nat) (fs : list (option nat * functional)) : bool :=
  p_ok p && (0 <? dA)%Z && (0 <? dB)%Z && (0 <? dT)%Z &&
  forallb (fun f => fun_ok d (snd f)) fs &&
  let rows := map (fun f => (fst f, yvals p (cZ p dT) (snd f) RA CB n,
                             tval p (cZ p (- (dA * dB))) (snd f) RT)) fs in
  forallb (fun r => let '(piv, ys, _) := r in zero_outside F piv ys 0) rows &&
  forallb (fun z => existsb (fails p F z) rows) (bools (length F)).

Lemma zsum_single n i0 g :
  zsum n (fun i => if Nat.eqb i i0 then g else 0%Z) = if Nat.ltb i0 n then g else 0%Z.
Proof.
  induction n as [|n IH]; simpl; [reflexivity|]. rewrite IH.
  destruct (Nat.eqb_spec n i0); destruct (Nat.ltb_spec i0 n); destruct (Nat.ltb_spec i0 (S n));
    try lia; ring.
Qed.

Lemma nosub_core (P : Z) n (S : nat -> bool) F piv (Yv : nat -> Z) (T : Z) :
  (0 < P)%Z -> (forall i, 0 <= Yv i < P)%Z ->
  (forall i, (i < n)%nat -> inF F i = false -> opt_is piv i = false -> Yv i = 0%Z) ->
  (zsum n (fun i => if S i then Yv i else 0) mod P = T mod P)%Z ->
  ((T - zsum n (fun i => if inF F i && S i then Yv i else 0)) mod P = 0 \/
   (T - zsum n (fun i => if inF F i && S i then Yv i else 0)) mod P =
     match piv with Some i0 => Yv i0 | None => 0 end)%Z.
Proof.
  intros HP HY Hz HT.
  set (W := zsum n (fun i => if inF F i && S i then Yv i else 0)%Z).
  set (R := zsum n (fun i => if negb (inF F i) && S i && opt_is piv i then Yv i else 0)%Z).
  assert (Split : zsum n (fun i => if S i then Yv i else 0)%Z = (W + R)%Z).
  { unfold W, R. rewrite <- zsum_plus. apply zsum_ext. intros i Hi.
    destruct (inF F i) eqn:EF, (S i), (opt_is piv i) eqn:EP; simpl; try ring.
    rewrite (Hz i Hi EF EP). ring. }
  assert (X : ((T - W) mod P = R mod P)%Z).
  { rewrite Zminus_mod, <- HT, <- Zminus_mod, Split. f_equal. ring. }
  rewrite X. unfold R. destruct piv as [i0|].
  - rewrite (zsum_ext n _ (fun i => if Nat.eqb i i0
                                    then (if negb (inF F i0) && S i0 then Yv i0 else 0)
                                    else 0)%Z).
    + rewrite zsum_single.
      destruct (Nat.ltb i0 n), (negb (inF F i0) && S i0);
        try (left; apply Z.mod_0_l; lia).
      right. apply Z.mod_small. apply HY.
    + intros i _. simpl. destruct (Nat.eqb_spec i i0).
      * subst. rewrite Nat.eqb_refl, Bool.andb_true_r. reflexivity.
      * rewrite (proj2 (Nat.eqb_neq i0 i)) by auto. rewrite Bool.andb_false_r. reflexivity.
  - left. rewrite (zsum_ext n _ (fun _ => 0%Z))
      by (intros i _; simpl; rewrite Bool.andb_false_r; reflexivity).
    rewrite zsum_zero. apply Z.mod_0_l. lia.
Qed.

(** The values [y_i] of a functional, as integers mod [p]. *)
Lemma yvals_value p (Hp : (1 < phi p < 2 ^ 31)%Z) d n dT RA CB Y i :
  fun_ok d Y = true -> (i < n)%nat ->
  phi (nth i (yvals p (cZ p dT) Y RA CB n) 0%uint63) =
  ((dT * fsumZ Y (fun k yr => zentry CB i k * zdotrow d yr (nth i RA []))) mod phi p)%Z.
Proof.
  intros Hfun Hi. rewrite yvals_eq, nth_map_seq by exact Hi.
  rewrite (mulm_spec p Hp), (cZ_spec p dT Hp), (ysum_spec p Hp d Y _ _ Hfun).
  rewrite <- Zmult_mod. reflexivity.
Qed.

Lemma yvals_bound p (Hp : (1 < phi p < 2 ^ 31)%Z) d n dT RA CB Y i :
  fun_ok d Y = true ->
  (0 <= phi (nth i (yvals p (cZ p dT) Y RA CB n) 0%uint63) < phi p)%Z.
Proof.
  intros Hfun. destruct (Nat.lt_ge_cases i n) as [Hi|Hi].
  - rewrite (yvals_value p Hp d n dT RA CB Y i Hfun Hi). apply Z.mod_pos_bound. lia.
  - rewrite nth_overflow by (rewrite yvals_length; lia).
    change (phi 0) with 0%Z. lia.
Qed.

(** The target value [t] of a functional, as an integer mod [p]. *)
Lemma tval_value p (Hp : (1 < phi p < 2 ^ 31)%Z) d dAB Y RT :
  fun_ok d Y = true ->
  phi (tval p (cZ p (- dAB)) Y RT) =
  ((- dAB) * fsumZ Y (fun k yr => zdotrow d yr (nth k RT [])) mod phi p)%Z.
Proof.
  intros Hfun. unfold tval.
  rewrite (mulm_spec p Hp), (cZ_spec p _ Hp), (tsum_spec p Hp d Y RT Hfun).
  rewrite <- Zmult_mod. reflexivity.
Qed.

(** The weighted sum [wsum] over the free indices, for the assignment [map S F]. *)
Lemma wsum_subset p (Hp : (1 < phi p < 2 ^ 31)%Z) n F (S : nat -> bool) ys :
  length ys = n ->
  phi (wsum p F (map S F) ys 0) =
  (zsum n (fun i => if inF F i && S i then phi (nth i ys 0%uint63) else 0) mod phi p)%Z.
Proof.
  intros Hlen. rewrite (wsum_spec p Hp), Hlen. f_equal.
  apply zsum_ext. intros i _. simpl.
  destruct (inF F i) eqn:EF; [|reflexivity]. simpl. rewrite zlook_map by exact EF. reflexivity.
Qed.

(** One functional cannot both hold for [S] and fail on [S]'s free values. *)
Lemma fails_impossible p (Hp : (1 < phi p < 2 ^ 31)%Z) n F (S : nat -> bool) piv ys t :
  length ys = n ->
  (forall i, (0 <= phi (nth i ys 0%uint63) < phi p)%Z) ->
  zero_outside F piv ys 0 = true ->
  (zsum n (fun i => if S i then phi (nth i ys 0%uint63) else 0) mod phi p = phi t mod phi p)%Z ->
  fails p F (map S F) (piv, ys, t) = false.
Proof.
  intros Hlen HY Hzero HTm.
  assert (Hz : forall i, (i < n)%nat -> inF F i = false -> opt_is piv i = false ->
                 phi (nth i ys 0%uint63) = 0%Z)
    by (intros i _ E1 E2; rewrite (zero_outside_spec F piv ys 0 Hzero i E1 E2); reflexivity).
  unfold fails. apply Bool.not_true_iff_false. intros Hf.
  apply andb_prop in Hf as [F1 F2]. apply Bool.negb_true_iff in F1, F2.
  destruct (nosub_core (phi p) n S F piv (fun i => phi (nth i ys 0%uint63)) (phi t)
              ltac:(lia) HY Hz HTm) as [C|C].
  - assert (E : subm p t (wsum p F (map S F) ys 0) = 0%uint63); [|rewrite E in F1; discriminate].
    apply to_Z_inj. rewrite (subm_spec p Hp), (wsum_subset p Hp n F S ys Hlen).
    rewrite Zminus_mod_idemp_r, C. reflexivity.
  - assert (E : subm p t (wsum p F (map S F) ys 0) = piv_val piv ys);
      [|rewrite E, Uint63.eqb_refl in F2; discriminate].
    apply to_Z_inj. rewrite (subm_spec p Hp), (wsum_subset p Hp n F S ys Hlen).
    rewrite Zminus_mod_idemp_r, C. destruct piv; reflexivity.
Qed.

(** ** Matrices of arbitrary integer entries

    The checker reads its data only modulo [p], so its verdict holds for every
    integer matrix congruent to that data ([check_nosub_sound_congr]); the data
    themselves are the instance [mat_of_rows dA RA = zmat dA (zentry RA)]. *)

Definition zmat (den : Z) (eA : nat -> nat -> Z) : mat := fun i j => (IZR (eA i j) / IZR den)%R.

(** Given by its columns: entry [(k, i)] is [eBt i k]. *)
Definition zmat_t (den : Z) (eBt : nat -> nat -> Z) : mat := fun k i => (IZR (eBt i k) / IZR den)%R.

(** Two integer matrices congruent modulo [P]. *)
Definition congr (P : Z) (f g : nat -> nat -> Z) : Prop :=
  forall i j, (f i j mod P = g i j mod P)%Z.

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

(** ** Soundness of the no-subset checker on congruent data *)

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
  transitivity
    ((- (dA * dB)) * fsumZ Y (fun k yr => zsum d (fun l => phi (nth l yr 0%uint63) * eT k l))
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
              (subset_values_mod_congr p Hp d n dA dB dT RA CB RT eA eBt eT Y S Hfun CA
                CB' CT HZ))).
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

Theorem check_nosub_sound d n dA dB dT RA CB RT p F fs :
  check_nosub d n dA dB dT RA CB RT p F fs = true ->
  forall S, ~ target_eq d n S (mat_of_rows dA RA) (mat_of_cols dB CB) (mat_of_rows dT RT).
Proof.
  intros H. exact (check_nosub_sound_congr _ _ _ _ _ _ _ _ _ _ _ _ _ _ H
                     (congr_refl _ _) (congr_refl _ _) (congr_refl _ _)).
Qed.

Corollary check_nosub_identity d n dA dB RA CB p F fs :
  check_nosub d n dA dB 1 RA CB (id_rows d) p F fs = true ->
  forall S, ~ submatrix_cond d n S (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros H S Hs. apply (check_nosub_sound _ _ _ _ _ _ _ _ _ _ _ H S).
  apply submatrix_target_identity. exact Hs.
Qed.

Corollary check_nosub_skip d n dA dB dP RA CB RP p F fs Q :
  check_nosub d n dA dB dP RA CB RP p F fs = true ->
  inverse_of d (mat_of_rows dP RP) Q ->
  forall S, ~ submatrix_cond d n S (mat_of_rows dA RA) (mm d Q (mat_of_cols dB CB)).
Proof.
  intros H HPQ S Hs. apply (check_nosub_sound _ _ _ _ _ _ _ _ _ _ _ H S).
  exact (submatrix_target_skip _ _ _ _ _ _ _ HPQ Hs).
Qed.
