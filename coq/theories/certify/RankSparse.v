(** * Sparse rank certificates: R8's width condition refuted with 2-sparse columns

    [RankCheck.check_rank_refute] reads dense integer matrices [X], [Y], [Z]
    and forms [Y^T M X] through list lookups: about [d^3 c] steps, hours at
    [d = 300].  When [M_S = L + sum_(t in S) gamma_t u_t^T] is [alpha I]
    plus terms along [u_t0] (one ridge class, rows all on one line), small
    sparse data suffice: a pivot [i0], columns [j_b] ([b < c]),
    - [X_b = u_t0[i0] e_(j_b) - u_t0[j_b] e_(i0)]: orthogonal to [u_t0];
    - [Y_a = e_(j_a)], [Z = I];
    so [(Y^T M X)_ab = u_t0[i0] M[j_a, j_b] - u_t0[j_b] M[j_a, i0]], which
    [check_sparse_entry] compares with [D] on the diagonal and [0] elsewhere,
    reading only those [c^2 + c] entries of the integer matrix [M]
    ([shifted_int]).  Every class in [T] must be [t0] ([|T| <= 1]).
    [check_sparse_refute_sound]: no width condition, through
    [RankRefute.rank_refute_width]; [cert_r8_rank_sparse_relu] /
    [cert_r8_rank_sparse_pm]: not absorbable at width [m], as
    [RankCheck.cert_r8_rank_relu] / [cert_r8_rank_pm]. *)

From Coq Require Import Reals ZArith Lia Lra List.
From Absorb Require Import Sums Blocks ActivationDefs Activations ReluSubmatrix Ridge IntSums.
From Absorb.decide Require Import RidgeForm R8.
From Absorb.certify Require Import ZMatrices GroupingCheck SignsCheck R8Certify RankRefute
  RankCheck.
Import ListNotations.
Open Scope bool_scope.

Record sparse_entry := { sp_t0 : nat; sp_i0 : nat; sp_J : list nat; sp_D : Z }.

(** Entry [(i, j)] of [dL dG dU (L + sum_(t in S) gamma_t u_t^T)] ([shifted_int]); the
    factors that do not depend on [j] are computed once per row (the checker reads rows). *)
Definition shifted_at (k : nat) (Sl : list bool) (dL : Z) (RL : list (list Z)) (dG : Z)
    (CG : list (list Z)) (dU : Z) (RU : list (list Z)) : nat -> nat -> Z :=
  let D := (dG * dU)%Z in
  fun i => let Li := nth i RL nil in
  fun j => (D * nth j Li 0 +
            dL * zsum k (fun t => if nth t Sl false then zent CG t i * zent RU t j else 0))%Z.

Lemma shifted_at_int d k Sl dL RL dG CG dU RU i j : (i < d)%nat -> (j < d)%nat ->
  zent (shifted_int d k Sl dL RL dG CG dU RU) i j = shifted_at k Sl dL RL dG CG dU RU i j.
Proof. intros Hi Hj. unfold shifted_int. rewrite zent_tab by assumption. reflexivity. Qed.

(** [shifted_at] without the term of the entry's class [t0]: that term is [w_i u_j] with
    [u] the class's row, so the checker's [u(i0) M(i, j) - u(j) M(i, i0)] is the same
    without it ([pair_shifted_but]); with one class only [D L] is left (mostly zeros, no
    products of large numbers). *)
Definition shifted_but (k : nat) (Sl : list bool) (t0 : nat) (dL : Z) (RL : list (list Z))
    (dG : Z) (CG : list (list Z)) (dU : Z) (RU : list (list Z)) : nat -> nat -> Z :=
  let D := (dG * dU)%Z in
  fun i => let Li := nth i RL nil in
  fun j => (D * nth j Li 0 +
            dL * zsum k (fun t => if nth t Sl false && negb (Nat.eqb t t0)
                                  then zent CG t i * zent RU t j else 0))%Z.

Lemma shifted_at_but k Sl t0 dL RL dG CG dU RU i j :
  shifted_at k Sl dL RL dG CG dU RU i j =
  (shifted_but k Sl t0 dL RL dG CG dU RU i j +
   dL * zsum k (fun t => if nth t Sl false && Nat.eqb t t0 then zent CG t i else 0%Z) *
   zent RU t0 j)%Z.
Proof.
  unfold shifted_at, shifted_but. cbv zeta.
  assert (E : (zsum k (fun t => if nth t Sl false then zent CG t i * zent RU t j else 0) =
              (zsum k (fun t => if nth t Sl false && negb (Nat.eqb t t0)
                                then zent CG t i * zent RU t j else 0) +
               zent RU t0 j *
               zsum k (fun t => if nth t Sl false && Nat.eqb t t0 then zent CG t i else 0)))%Z).
  { rewrite <- zsum_scal, <- zsum_plus. apply zsum_ext. intros t _.
    destruct (nth t Sl false), (Nat.eqb_spec t t0); subst; simpl; ring. }
  rewrite E. ring.
Qed.

Lemma pair_shifted_but k Sl t0 dL RL dG CG dU RU i0 ja jb :
  (zent RU t0 i0 * shifted_at k Sl dL RL dG CG dU RU ja jb -
   zent RU t0 jb * shifted_at k Sl dL RL dG CG dU RU ja i0 =
   zent RU t0 i0 * shifted_but k Sl t0 dL RL dG CG dU RU ja jb -
   zent RU t0 jb * shifted_but k Sl t0 dL RL dG CG dU RU ja i0)%Z.
Proof. rewrite !(shifted_at_but k Sl t0). ring. Qed.

(** [l]'s entries at the positions [J] (nondecreasing, from [i] on), in one pass. *)
Fixpoint pick_from (J : list nat) (i : nat) (l : list Z) : list Z :=
  match J with
  | [] => []
  | j :: J' => let l' := skipn (j - i) l in hdd l' 0%Z :: pick_from J' j l'
  end.

Fixpoint sorted_from (i : nat) (J : list nat) : bool :=
  match J with [] => true | j :: J' => Nat.leb i j && sorted_from j J' end.

(** Row [i] of [shifted_but] at the columns [J] ([nth_row_at_J]). *)
Fixpoint others_at_J (J : list nat) (Sl : list bool) (t0 : nat) (CG RU : list (list Z)) (i : nat)
    (k : nat) : list Z :=
  match k with
  | O => []
  | S k' => zvadd (others_at_J J Sl t0 CG RU i k')
              (if nth k' Sl false && negb (Nat.eqb k' t0)
               then zvscale (zent CG k' i) (pick_from J 0 (nth k' RU nil)) else [])
  end.

Definition row_at_J (J : list nat) (k : nat) (Sl : list bool) (t0 : nat) (dL : Z)
    (RL : list (list Z)) (dG : Z) (CG : list (list Z)) (dU : Z) (RU : list (list Z)) (i : nat) :
    list Z :=
  zvadd (zvscale (dG * dU) (pick_from J 0 (nth i RL nil)))
        (zvscale dL (others_at_J J Sl t0 CG RU i k)).

(** [u(i0) r_b - u_b m0 = (D if a = b else 0)] for the entries [r_b], [u_b] from [b0] on. *)
Fixpoint pairs_at (ui0 m0 D : Z) (a b0 : nat) (rJ uJ : list Z) : bool :=
  match uJ with
  | [] => true
  | w :: uJ' => Z.eqb (ui0 * hdd rJ 0%Z - w * m0) (if Nat.eqb a b0 then D else 0%Z) &&
                pairs_at ui0 m0 D a (S b0) (tll rJ) uJ'
  end.

Definition check_sparse_entry (d k m : nat) (dL : Z) (RL : list (list Z)) (dG : Z)
    (CG : list (list Z)) (dU : Z) (RU : list (list Z)) (p : list bool * list bool)
    (en : sparse_entry) : bool :=
  let Tl := fst p in
  let J := sp_J en in
  let c := length J in
  let t0 := sp_t0 en in
  let i0 := sp_i0 en in
  let Mx := shifted_but k (snd p) t0 dL RL dG CG dU RU in
  negb (Z.eqb (sp_D en) 0) &&
  Nat.ltb m (k + count k (fun t => nth t Tl false) + 2 * c) &&
  Nat.ltb i0 d && forallb (fun j => Nat.ltb j d) J &&
  forallb (fun t => negb (nth t Tl false) || Nat.eqb t t0) (seq 0 k) &&
  sorted_from 0 J &&
  let ui0 := zent RU t0 i0 in
  let uJ := pick_from J 0 (nth t0 RU nil) in
  forallb (fun a => let ja := nth a J O in
             pairs_at ui0 (Mx ja i0) (sp_D en) a 0
               (row_at_J J k (snd p) t0 dL RL dG CG dU RU ja) uJ)
          (seq 0 c).

(** ** The checker reads what [shifted_but] says *)

Lemma nth_skipn_add {A} (l : list A) x0 : forall m b, nth b (skipn m l) x0 = nth (m + b) l x0.
Proof.
  induction l as [|y l IH]; intros m b; [destruct m, b; reflexivity|].
  destruct m as [|m]; [reflexivity|]. simpl. apply IH.
Qed.

Lemma sorted_from_le J : forall i b, sorted_from i J = true -> (b < length J)%nat ->
  (i <= nth b J O)%nat.
Proof.
  induction J as [|j J IH]; intros i b H Hb; simpl in Hb; [lia|].
  simpl in H. apply andb_prop in H as [Hij H]. apply Nat.leb_le in Hij.
  destruct b as [|b]; [exact Hij|]. simpl. specialize (IH j b H ltac:(lia)). lia.
Qed.

Lemma nth_pick_from J : forall i l b, sorted_from i J = true -> (b < length J)%nat ->
  nth b (pick_from J i l) 0%Z = nth (nth b J O - i) l 0%Z.
Proof.
  induction J as [|j J IH]; intros i l b H Hb; simpl in Hb; [lia|].
  simpl in H. apply andb_prop in H as [Hij H]. apply Nat.leb_le in Hij.
  destruct b as [|b]; simpl.
  - rewrite <- nth_hdd, nth_skipn_add. f_equal. lia.
  - rewrite (IH j _ b H ltac:(lia)), nth_skipn_add. f_equal.
    pose proof (sorted_from_le J j b H ltac:(lia)). lia.
Qed.

Lemma nth_others_at_J J Sl t0 CG RU i b : sorted_from 0 J = true -> (b < length J)%nat ->
  forall k, nth b (others_at_J J Sl t0 CG RU i k) 0%Z =
  zsum k (fun t => if nth t Sl false && negb (Nat.eqb t t0)
                   then zent CG t i * zent RU t (nth b J O) else 0)%Z.
Proof.
  intros HJ Hb k. induction k as [|k IH]; [destruct b; reflexivity|].
  simpl others_at_J. rewrite nth_zvadd, IH. simpl zsum. f_equal.
  destruct (nth k Sl false && negb (Nat.eqb k t0)); [|destruct b; reflexivity].
  rewrite nth_zvscale, nth_pick_from by assumption. rewrite Nat.sub_0_r. reflexivity.
Qed.

Lemma nth_row_at_J J k Sl t0 dL RL dG CG dU RU i b : sorted_from 0 J = true ->
  (b < length J)%nat ->
  nth b (row_at_J J k Sl t0 dL RL dG CG dU RU i) 0%Z =
  shifted_but k Sl t0 dL RL dG CG dU RU i (nth b J O).
Proof.
  intros HJ Hb. unfold row_at_J, shifted_but.
  rewrite nth_zvadd, !nth_zvscale, nth_pick_from, nth_others_at_J by assumption.
  rewrite Nat.sub_0_r. reflexivity.
Qed.

Lemma pairs_at_nth ui0 m0 D a : forall uJ rJ b0, pairs_at ui0 m0 D a b0 rJ uJ = true ->
  forall b, (b < length uJ)%nat ->
  (ui0 * nth b rJ 0 - nth b uJ 0 * m0 = if Nat.eqb a (b0 + b) then D else 0)%Z.
Proof.
  induction uJ as [|w uJ IH]; intros rJ b0 H b Hb; simpl in Hb; [lia|].
  simpl in H. apply andb_prop in H as [H1 H2]. apply Z.eqb_eq in H1.
  destruct b as [|b].
  - rewrite Nat.add_0_r, nth_hdd. exact H1.
  - replace (b0 + S b)%nat with (S b0 + b)%nat by lia.
    simpl nth. rewrite nth_tll. exact (IH _ _ H2 b ltac:(lia)).
Qed.

Definition check_sparse_refute (d k m : nat) (dL : Z) (RL : list (list Z)) (dG : Z)
    (CG : list (list Z)) (dU : Z) (RU : list (list Z)) (es : list sparse_entry) : bool :=
  Z.ltb 0 dL && Z.ltb 0 dG && Z.ltb 0 dU &&
  walk (fun p => Nat.ltb m (k + count k (fun t => nth t (fst p) false)))
       (check_sparse_entry d k m dL RL dG CG dU RU) (enum_ts k) es.

(** ** Soundness *)

Open Scope R_scope.

Definition ind (i q : nat) : R := if Nat.eqb i q then 1 else 0.

Lemma sumn_ind n q f : (q < n)%nat -> sumn n (fun j => f j * ind j q) = f q.
Proof.
  intros Hq. rewrite <- (sumn_delta n q f Hq). apply sumn_ext. intros j _. unfold ind.
  destruct (Nat.eq_dec q j) as [<-|Hne].
  - rewrite Nat.eqb_refl. ring.
  - destruct (Nat.eqb_spec j q); [lia | ring].
Qed.

Lemma sumn_ind_l n q f : (q < n)%nat -> sumn n (fun j => ind j q * f j) = f q.
Proof.
  intros Hq. rewrite <- (sumn_ind n q f Hq). apply sumn_ext. intros j _. ring.
Qed.

Section Entry.

Variables (d k m : nat) (dL : Z) (RL : list (list Z)) (dG : Z) (CG : list (list Z)) (dU : Z)
  (RU : list (list Z)) (Tf Sf : nat -> bool) (en : sparse_entry).

Local Notation J := (sp_J en).
Local Notation c := (length (sp_J en)).
Local Notation t0 := (sp_t0 en).
Local Notation i0 := (sp_i0 en).
Local Notation u := (fun j => zent RU (sp_t0 en) j).

Definition spX (j b : nat) : R := IZR (u i0) * ind j (nth b J O) - IZR (u (nth b J O)) * ind j i0.
Definition spY (i e : nat) : R := ind i (nth e J O).
Definition spZ (a e : nat) : R := ind e a.

Lemma check_sparse_entry_sound :
  (0 < dL)%Z -> (0 < dG)%Z -> (0 < dU)%Z ->
  check_sparse_entry d k m dL RL dG CG dU RU (bl k Tf, bl k Sf) en = true ->
  ~ exists r E P Q, (k + count k Tf + 2 * r <= m)%nat /\
      forall i j, (i < d)%nat -> (j < d)%nat ->
        zmat_rows dL RL i j + masked_outer k Sf (zmat_cols dG CG) (zmat_rows dU RU) i j =
        masked_outer k Tf E (zmat_rows dU RU) i j + low_rank r P Q i j.
Proof.
  intros HL HG HU H. unfold check_sparse_entry in H. simpl fst in H. simpl snd in H.
  repeat rewrite Bool.andb_true_iff in H.
  destruct H as [[[[[[HD Hc] Hi0] HJ] HT] Hsrt] HZ].
  rewrite Bool.negb_true_iff, Z.eqb_neq in HD. rewrite Nat.ltb_lt, count_bl in Hc.
  apply Nat.ltb_lt in Hi0. rewrite forallb_forall in HJ.
  assert (HJd : forall b, (b < c)%nat -> (nth b J O < d)%nat).
  { intros b Hb. apply Nat.ltb_lt, HJ, nth_In. exact Hb. }
  set (D0 := IZR dL * IZR dG * IZR dU).
  assert (HD0 : D0 <> 0) by (unfold D0; repeat apply Rmult_integral_contrapositive_currified;
                              apply IZR_pos_neq0; assumption).
  apply (rank_refute_width d k m c _ _ _ spX spY spZ Tf Sf (IZR (sp_D en) / D0)).
  - unfold Rdiv. apply Rmult_integral_contrapositive_currified;
      [apply not_0_IZR, HD | apply Rinv_neq_0_compat, HD0].
  - exact Hc.
  - intros t b Ht HTt Hb.
    pose proof (forallb_seq_sound _ _ HT t Ht) as H1. simpl in H1.
    rewrite nth_bl, HTt in H1 by exact Ht. simpl in H1. apply Nat.eqb_eq in H1. subst t.
    unfold spX.
    rewrite (sumn_ext d _ (fun j =>
               (zmat_rows dU RU (sp_t0 en) j * IZR (u i0)) * ind j (nth b J O) -
               (zmat_rows dU RU (sp_t0 en) j * IZR (u (nth b J O))) * ind j i0))
      by (intros; ring).
    rewrite sumn_minus,
      (sumn_ind d _ (fun j => zmat_rows dU RU (sp_t0 en) j * IZR (u i0)) (HJd b Hb)),
      (sumn_ind d _ (fun j => zmat_rows dU RU (sp_t0 en) j * IZR (u (nth b J O))) Hi0).
    rewrite !zmat_rows_zent. field. apply IZR_pos_neq0. exact HU.
  - intros a b Ha Hb. unfold spZ.
    rewrite (sumn_ind_l c a _ Ha). unfold spY.
    rewrite (sumn_ind_l d _ _ (HJd a Ha)). unfold spX.
    set (ja := nth a J O). set (jb := nth b J O).
    set (Mr := fun i j =>
      zmat_rows dL RL i j + masked_outer k Sf (zmat_cols dG CG) (zmat_rows dU RU) i j).
    rewrite (sumn_ext d _ (fun j =>
               (Mr ja j * IZR (u i0)) * ind j jb - (Mr ja j * IZR (u jb)) * ind j i0))
      by (intros; unfold Mr; ring).
    rewrite sumn_minus, (sumn_ind d jb (fun j => Mr ja j * IZR (u i0)) (HJd b Hb)),
      (sumn_ind d i0 (fun j => Mr ja j * IZR (u jb)) Hi0).
    unfold Mr.
    rewrite (shifted_int_real d k Sf dL RL dG CG dU RU ja jb HL HG HU (HJd a Ha) (HJd b Hb)).
    rewrite (shifted_int_real d k Sf dL RL dG CG dU RU ja i0 HL HG HU (HJd a Ha) Hi0).
    rewrite !shifted_at_int by (first [exact Hi0 | apply HJd; assumption]).
    pose proof (forallb_seq_sound _ _ HZ a Ha) as Ha'. simpl in Ha'.
    assert (Hlen : length (pick_from J 0 (nth (sp_t0 en) RU nil)) = c).
    { clear. generalize 0%nat, (nth (sp_t0 en) RU nil). induction J as [|j J IH]; intros i l;
        [reflexivity|]. simpl. f_equal. apply IH. }
    pose proof (pairs_at_nth _ _ _ a _ _ 0 Ha' b ltac:(rewrite Hlen; exact Hb)) as Hab.
    rewrite nth_row_at_J, nth_pick_from, Nat.sub_0_r in Hab by assumption.
    fold ja jb in Hab. change (nth jb (nth (sp_t0 en) RU nil) 0%Z) with (u jb) in Hab.
    rewrite <- pair_shifted_but in Hab. fold D0.
    assert (E : IZR (u i0) * (IZR (shifted_at k (bl k Sf) dL RL dG CG dU RU ja jb) / D0) -
                IZR (u jb) * (IZR (shifted_at k (bl k Sf) dL RL dG CG dU RU ja i0) / D0) =
                IZR (u i0 * shifted_at k (bl k Sf) dL RL dG CG dU RU ja jb -
                     u jb * shifted_at k (bl k Sf) dL RL dG CG dU RU ja i0)%Z / D0).
    { rewrite minus_IZR, !mult_IZR. field. exact HD0. }
    transitivity (IZR (u i0 * shifted_at k (bl k Sf) dL RL dG CG dU RU ja jb -
                       u jb * shifted_at k (bl k Sf) dL RL dG CG dU RU ja i0)%Z / D0).
    + rewrite <- E. ring.
    + rewrite Hab. simpl Nat.add. destruct (Nat.eqb a b); [reflexivity | unfold Rdiv; ring].
Qed.

End Entry.

Theorem check_sparse_refute_sound d k m dL RL dG CG dU RU es :
  check_sparse_refute d k m dL RL dG CG dU RU es = true ->
  ~ width_condition d k m (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL).
Proof. apply walk_refute_sound. exact (check_sparse_entry_sound d k m dL RL dG CG dU RU). Qed.

(** ** Certificate lemmas: not absorbable at width [m] *)

Theorem cert_r8_rank_sparse_relu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL es :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_lines_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  check_sparse_refute d k m dL RL dG CG dU RU es = true ->
  ~ absorbable_ungated relu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hg Hl HG Hr.
  apply (cert_r8_no_width_condition_relu d n k K m _ _ _ _ _ _ _ _ _ _ _ _ _ Hg Hl HG).
  exact (check_sparse_refute_sound _ _ _ _ _ _ _ _ _ _ Hr).
Qed.

Theorem cert_r8_rank_sparse_pm (sigma : R -> R)
    d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL es :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_signs_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  check_sparse_refute d k m dL RL dG CG dU RU es = true ->
  ~ absorbable_ungated sigma d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hodd H0 Hun Hg Hpm Hs HG Hr.
  apply
    (cert_r8_no_width_condition_pm sigma d n k K m _ _ _ _ _ _ _ _ _ _ _ _ _ Hodd H0 Hun Hg
      Hpm Hs HG).
  exact (check_sparse_refute_sound _ _ _ _ _ _ _ _ _ _ Hr).
Qed.

(** ** Example: [x + e1 relu(x1) + e2 relu(x2)] at width [3] (as [RankCheck]'s), sparse *)

Definition ex_sp (t0 i0 j : nat) (D : Z) : sparse_entry :=
  {| sp_t0 := t0; sp_i0 := i0; sp_J := [j]; sp_D := D |}.

(** In the order of [enum_ts 2] (as [RankCheck.ex_rank_es]); [c = 1], [J = [j]]: the value
    [u_t0[i0] M[j, j] - u_t0[j] M[j, i0]] with [u_0 = e0], [u_1 = e1]; [T = {0}] needs
    [t0 = 0], [T = {1}] needs [t0 = 1]. *)
Definition ex_sparse_es : list sparse_entry :=
  [ex_sp 0 0 1 1; ex_sp 0 0 1 1; ex_sp 1 1 0 2;       (* class 1 in neither *)
   ex_sp 1 1 0 1; ex_sp 1 1 0 2;                      (* class 1 in T *)
   ex_sp 0 0 1 2; ex_sp 0 0 1 2; ex_sp 0 0 1 2].      (* class 1 in S *)

Example ex_sparse_ok : check_sparse_refute 2 2 3 1 ex_I2 1 ex_I2 1 ex_I2 ex_sparse_es = true.
Proof. vm_compute. reflexivity. Qed.

(** Tampered: a wrong [D]; [T = {0}] with [t0 = 1] (not orthogonal to [u_0]); a missing entry. *)
Example ex_sparse_tampered :
  check_sparse_refute 2 2 3 1 ex_I2 1 ex_I2 1 ex_I2 (ex_sp 0 0 1 2 :: tl ex_sparse_es) = false /\
  check_sparse_refute 2 2 3 1 ex_I2 1 ex_I2 1 ex_I2
    (ex_sp 0 0 1 1 :: ex_sp 1 1 0 1 :: skipn 2 ex_sparse_es) = false /\
  check_sparse_refute 2 2 3 1 ex_I2 1 ex_I2 1 ex_I2 (removelast ex_sparse_es) = false.
Proof. vm_compute. repeat split. Qed.
