(** * The genericity checker [check_generic] and its soundness

    [check_generic_sound]: rows [a_i] and columns [b_i] nonzero and the [a_i]
    pairwise independent, shown through a projection mod [p]; [generic_skip]:
    genericity passes from [B] to [Q B] for an invertible skip;
    [check_generic_sorted_sound]: the same from the ratios [(u . a_i) / (v . a_i)]
    mod [p], sorted and strictly increasing (n log n work instead of n^2 pairs);
    it is the instance of [check_generic_sorted_sound_gen], which holds for any
    integer matrices ([zmat]) congruent mod [p] to the data the checker read. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63 Znumtheory Permutation Orders Mergesort.
From Absorb Require Import Sums Blocks IntSums Modular SubsetTargets CheckNoSubset RowWalk.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

(** ** The genericity checker

    Rows [a_i] and columns [b_i] nonzero (some nonzero entry among the first
    [d]); pairwise independence of the [a_i] through a projection
    [a |-> (u . a, v . a)] whose 2 x 2 determinants are nonzero mod [p]. *)

Definition nonzero_row (d : nat) (r : list int) : bool :=
  existsb (fun x => negb (x =? 0)%uint63) (firstn d r).

Fixpoint allpairs {X} (f : X -> X -> bool) (l : list X) : bool :=
  match l with [] => true | x :: l' => forallb (f x) l' && allpairs f l' end.

Definition proj_ok (p : int) (x y : int * int) : bool :=
  negb (subm p (mulm p (fst x) (snd y)) (mulm p (snd x) (fst y)) =? 0)%uint63.

Definition check_generic (d n : nat) (RA CB : list (list int)) (p : int) (u v : list int) : bool :=
  p_ok p && Nat.eqb (length u) d && Nat.eqb (length v) d &&
  forall_rows (nonzero_row d) n RA &&
  forall_rows (nonzero_row d) n CB &&
  allpairs (proj_ok p) (map_rows (fun r => (mdot p u r, mdot p v r)) n RA).

Lemma nth_firstn_lt {X} d (l : list X) k x : (k < d)%nat -> nth k (firstn d l) x = nth k l x.
Proof.
  revert d l. induction k; intros d l Hk; destruct d; try lia; destruct l; simpl; try reflexivity.
  apply IHk. lia.
Qed.

Lemma nonzero_row_spec d r : nonzero_row d r = true ->
  exists k, (k < d)%nat /\ zval (nth k r 0%uint63) <> 0%Z.
Proof.
  unfold nonzero_row. intros H. apply existsb_exists in H as [x [Hx Hnz]].
  apply In_nth with (d := 0%uint63) in Hx as [k [Hk Ek]].
  rewrite firstn_length in Hk. exists k. split; [lia|].
  rewrite <- nth_firstn_lt with (d := d) by lia. rewrite Ek.
  intros E. apply zval_zero in E. rewrite E in Hnz. discriminate.
Qed.

Lemma allpairs_spec {X} (f : X -> X -> bool) l x0 : allpairs f l = true ->
  forall i j, (i < j)%nat -> (j < length l)%nat -> f (nth i l x0) (nth j l x0) = true.
Proof.
  induction l as [|x l IH]; intros H i j Hij Hj; simpl in *; [lia|].
  apply andb_prop in H as [H1 H2]. destruct i as [|i]; destruct j as [|j]; try lia.
  - rewrite forallb_forall in H1. apply H1. apply nth_In. lia.
  - apply IH; auto; lia.
Qed.

Lemma lin_independent2_sym d u v : lin_independent2 d u v -> lin_independent2 d v u.
Proof.
  intros H a b E. destruct (H b a) as [H1 H2]; [|auto].
  intros k Hk. rewrite <- (E k Hk). ring.
Qed.

(** A nonzero numerator among the first [d] makes a nonzero row (column) of the data matrix. *)
Lemma nonzero_vec_z d dA (a : nat -> Z) : (0 < dA)%Z ->
  (exists k, (k < d)%nat /\ a k <> 0%Z) -> nonzero_vec d (fun k => IZR (a k) / IZR dA)%R.
Proof.
  intros HA [k [Hk Hz]]. apply IZR_lt in HA. exists k. split; [exact Hk|].
  intros E. apply Hz. apply eq_IZR. apply (f_equal (fun x => x * IZR dA)%R) in E.
  field_simplify in E; lra.
Qed.

Lemma nonzero_row_mat d dA RA i : (0 < dA)%Z -> nonzero_row d (nth i RA []) = true ->
  nonzero_vec d (row (mat_of_rows dA RA) i).
Proof. intros HA H. exact (nonzero_vec_z d dA (zentry RA i) HA (nonzero_row_spec d _ H)). Qed.

Lemma nonzero_col_mat d dB CB i : (0 < dB)%Z -> nonzero_row d (nth i CB []) = true ->
  nonzero_vec d (col (mat_of_cols dB CB) i).
Proof. intros HB H. exact (nonzero_vec_z d dB (zentry CB i) HB (nonzero_row_spec d _ H)). Qed.

(** A 2 x 2 determinant of projections that is nonzero mod [p] is nonzero. *)
Lemma proj_ok_det p (Hp : (1 < phi p < 2 ^ 31)%Z) d (u v ri rj : list int) :
  length u = d -> length v = d ->
  proj_ok p (mdot p u ri, mdot p v ri) (mdot p u rj, mdot p v rj) = true ->
  (zdotrow d u ri * zdotrow d v rj - zdotrow d v ri * zdotrow d u rj <> 0)%Z.
Proof.
  intros Hu Hv Hd E. unfold proj_ok in Hd. simpl in Hd. apply Bool.negb_true_iff in Hd.
  assert (E' : subm p (mulm p (mdot p u ri) (mdot p v rj)) (mulm p (mdot p v ri) (mdot p u rj))
               = 0%uint63).
  { apply to_Z_inj. rewrite (subm_spec p Hp), !(mulm_spec p Hp).
    rewrite !(mdot_zdot p Hp d) by assumption.
    rewrite <- !Zmult_mod, <- Zminus_mod, E. reflexivity. }
  rewrite E' in Hd. discriminate.
Qed.

Lemma proj_sum_z d dA eA i (u : list int) : IZR dA <> 0%R ->
  sumn d (fun k => IZR (phi (nth k u 0%uint63)) * zmat dA eA i k)%R =
  (IZR (zsum d (fun l => phi (nth l u 0%uint63) * eA i l)%Z) / IZR dA)%R.
Proof.
  intros HA. rewrite IZR_zsum. unfold Rdiv. rewrite <- sumn_scal_r.
  apply sumn_ext. intros k _. unfold zmat. rewrite mult_IZR. field. exact HA.
Qed.

(** Two rows whose projections have a nonzero 2 x 2 determinant are independent. *)
Lemma independent_of_projections_z d dA eA i j (u v : list int) :
  (0 < IZR dA)%R ->
  (zsum d (fun l => phi (nth l u 0%uint63) * eA i l)
     * zsum d (fun l => phi (nth l v 0%uint63) * eA j l) -
   zsum d (fun l => phi (nth l v 0%uint63) * eA i l)
     * zsum d (fun l => phi (nth l u 0%uint63) * eA j l)
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
      transitivity
        (IZR (phi (nth k w 0%uint63)) * (a * zmat dA eA i k + b * zmat dA eA j k))%R; [ring|].
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

(** The pairwise part of the checker: rows [i < j] are independent. *)
Lemma check_pairs_independent p (Hp : (1 < phi p < 2 ^ 31)%Z) d n dA RA (u v : list int) :
  (0 < IZR dA)%R -> length u = d -> length v = d ->
  allpairs (proj_ok p) (map (fun i => (mdot p u (nth i RA []), mdot p v (nth i RA []))) (seq 0 n))
    = true ->
  forall i j, (i < j)%nat -> (j < n)%nat ->
  lin_independent2 d (row (mat_of_rows dA RA) i) (row (mat_of_rows dA RA) j).
Proof.
  intros HA Hu Hv Hpairs i j Hij Hj.
  pose proof (allpairs_spec _ _ (0%uint63, 0%uint63) Hpairs i j Hij
                ltac:(rewrite map_length, seq_length; exact Hj)) as Hd.
  rewrite !nth_map_seq in Hd by lia.
  exact
    (independent_of_projections_z d dA (zentry RA) i j u v HA
      (proj_ok_det p Hp d u v _ _ Hu Hv Hd)).
Qed.

Theorem check_generic_sound d n dA dB RA CB p u v :
  check_generic d n RA CB p u v = true -> (0 < dA)%Z -> (0 < dB)%Z ->
  generic d n (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  unfold check_generic. rewrite !forall_rows_spec, map_rows_spec. intros H HA HB.
  apply andb_prop in H as [H Hpairs]. apply andb_prop in H as [H HBc].
  apply andb_prop in H as [H HAr]. apply andb_prop in H as [H Hv].
  apply andb_prop in H as [Hp Hu]. apply p_ok_spec in Hp.
  apply Nat.eqb_eq in Hu, Hv. rewrite forallb_forall in HAr, HBc.
  split; [|split].
  - intros i Hi. exact (nonzero_row_mat d dA RA i HA (HAr i ltac:(apply in_seq; lia))).
  - intros i j Hi Hj Hij. pose proof (IZR_lt _ _ HA) as HA'.
    destruct (proj1 (Nat.lt_gt_cases i j) Hij) as [L|L]; [|apply lin_independent2_sym];
      exact (check_pairs_independent p Hp d n dA RA u v HA' Hu Hv Hpairs _ _ L ltac:(lia)).
  - intros i Hi. exact (nonzero_col_mat d dB CB i HB (HBc i ltac:(apply in_seq; lia))).
Qed.

(** With an invertible skip, genericity passes from [B] to [Q B]. *)
Lemma generic_skip d n A B P Q :
  inverse_of d P Q -> generic d n A B -> generic d n A (mm d Q B).
Proof.
  intros HPQ [H1 [H2 H3]]. split; [exact H1|]. split; [exact H2|].
  intros i Hi. destruct (H3 i Hi) as [k [Hk Hnz]].
  destruct (Classical_Prop.classic (nonzero_vec d (col (mm d Q B) i))) as [Y|N]; [exact Y|].
  exfalso. apply Hnz. unfold col.
  assert (Z0 : forall m, (m < d)%nat -> mm d Q B m i = 0%R).
  { intros m Hm. destruct (Req_dec (mm d Q B m i) 0) as [E|E]; [exact E|].
    exfalso. apply N. exists m. split; assumption. }
  transitivity (sumn d (fun j => identity k j * B j i)).
  - unfold identity. rewrite (sumn_ext d _ (fun j => if Nat.eq_dec k j then B j i else 0%R))
      by (intros j _; destruct (Nat.eq_dec k j); ring).
    symmetry. exact (sumn_delta d k (fun j => B j i) Hk).
  - rewrite (sumn_ext d _ (fun j => sumn d (fun m => P k m * Q m j) * B j i)%R).
    + rewrite (sumn_ext d _ (fun j => sumn d (fun m => P k m * Q m j * B j i))%R)
        by (intros; rewrite sumn_scal_r; reflexivity).
      rewrite sumn_swap. apply sumn_zero. intros m Hm.
      rewrite (sumn_ext d _ (fun j => P k m * (Q m j * B j i)))%R by (intros; ring).
      rewrite sumn_scal_l. fold (mm d Q B m i) || unfold mm in Z0. rewrite (Z0 m Hm). ring.
    + intros j Hj. destruct (HPQ k j Hk Hj) as [E _]. unfold mm in E. rewrite E. reflexivity.
Qed.

(** ** Genericity through sorted ratios

    For each row the projections [U_i = u . a_i], [V_i = v . a_i] mod [p];
    [V_i] must be invertible mod [p] (the checker computes [w_i = V_i^(p-2)]
    and checks [V_i w_i = 1]; [p] need not be prime), and the ratios
    [q_i = U_i w_i] mod [p], sorted, must be strictly increasing.  Distinct
    ratios make every 2 x 2 determinant [U_i V_j - V_i U_j] nonzero mod [p]. *)

Module IntLeb <: Orders.TotalLeBool.
  Definition t := int.
  Definition leb (x y : int) : bool := (x <=? y)%uint63.
  Theorem leb_total : forall x y, leb x y = true \/ leb y x = true.
  Proof.
    intros x y. unfold leb. rewrite !Uint63.leb_spec. lia.
  Qed.
End IntLeb.

Module IntSort := Mergesort.Sort IntLeb.

Fixpoint powm (p b e : int) (k : nat) : int :=
  match k with
  | O => 1%uint63
  | S k' => let r := powm p (mulm p b b) (e >> 1)%uint63 k' in
            if (e land 1 =? 1)%uint63 then mulm p b r else r
  end.

Definition inv_m (p x : int) : int := powm p x (p - 2)%uint63 32.
Definition ratio (p : int) (x : int * int) : int := mulm p (fst x) (inv_m p (snd x)).
Definition invertible_m (p v : int) : bool := (mulm p v (inv_m p v) =? 1)%uint63.

Fixpoint strict_inc (l : list int) : bool :=
  match l with
  | x :: ((y :: _) as l') => (x <? y)%uint63 && strict_inc l'
  | _ => true
  end.

Definition check_generic_sorted (d n : nat) (RA CB : list (list int)) (p : int)
    (u v : list int) : bool :=
  p_ok p && Nat.eqb (length u) d && Nat.eqb (length v) d &&
  forall_rows (nonzero_row d) n CB &&
  let uv := map_rows (fun r => (mdot p u r, mdot p v r)) n RA in
  forallb (fun x => invertible_m p (snd x)) uv &&
  strict_inc (IntSort.sort (map (ratio p) uv)).

Lemma strict_inc_head x l : strict_inc (x :: l) = true -> Forall (fun y => (phi x < phi y)%Z) l.
Proof.
  revert x. induction l as [|y l IH]; intros x H; [constructor|].
  simpl in H. apply andb_prop in H as [Hxy H]. apply Uint63.ltb_spec in Hxy.
  constructor; [exact Hxy|]. specialize (IH y H).
  eapply Forall_impl; [|exact IH]. simpl. intros z Hz. lia.
Qed.

Lemma strict_inc_nodup l : strict_inc l = true -> NoDup l.
Proof.
  induction l as [|x l IH]; intros H; [constructor|].
  pose proof (strict_inc_head x l H) as Hall. constructor.
  - intros Hin. rewrite Forall_forall in Hall. specialize (Hall x Hin). lia.
  - apply IH. destruct l as [|y l]; [reflexivity|]. simpl in H. apply andb_prop in H as [_ H].
    exact H.
Qed.

(** Equal ratios from a vanishing determinant (all mod [P], [V]s invertible). *)
Lemma ratio_congruent (P Ui Vi Uj Vj wi wj : Z) : (0 < P)%Z ->
  ((Vi * wi) mod P = 1)%Z -> ((Vj * wj) mod P = 1)%Z -> ((Ui * Vj - Vi * Uj) mod P = 0)%Z ->
  ((Ui * wi) mod P = (Uj * wj) mod P)%Z.
Proof.
  intros HP H1 H2 H3.
  assert (D1 : (P | 1 - Vi * wi)%Z).
  { exists (- ((Vi * wi) / P))%Z. pose proof (Z.div_mod (Vi * wi) P ltac:(lia)). lia. }
  assert (D2 : (P | 1 - Vj * wj)%Z).
  { exists (- ((Vj * wj) / P))%Z. pose proof (Z.div_mod (Vj * wj) P ltac:(lia)). lia. }
  apply Z.mod_divide in H3; [|lia].
  assert (D : (P | Ui * wi - Uj * wj)%Z).
  { replace (Ui * wi - Uj * wj)%Z with
      (Ui * wi * (1 - Vj * wj) - Uj * wj * (1 - Vi * wi) + wi * wj * (Ui * Vj - Vi * Uj))%Z by ring.
    apply Z.divide_add_r; [apply Z.divide_sub_r|]; apply Z.divide_mul_r; assumption. }
  destruct D as [k Hk]. replace (Ui * wi)%Z with (Uj * wj + k * P)%Z by lia.
  apply Z_mod_plus_full.
Qed.

Lemma ratio_value p (Hp : (1 < phi p < 2 ^ 31)%Z) (x : int * int) :
  phi (ratio p x) = ((phi (fst x) * phi (inv_m p (snd x))) mod phi p)%Z.
Proof. unfold ratio. apply mulm_spec. exact Hp. Qed.

Lemma invertible_value p (Hp : (1 < phi p < 2 ^ 31)%Z) v :
  invertible_m p v = true -> ((phi v * phi (inv_m p v)) mod phi p = 1)%Z.
Proof.
  unfold invertible_m. intros H. apply Uint63.eqb_spec in H.
  rewrite <- (mulm_spec p Hp), H. reflexivity.
Qed.

Lemma mdot_congr p (Hp : (1 < phi p < 2 ^ 31)%Z) d RA eA i (u : list int) :
  congr (phi p) (zentry RA) eA -> length u = d ->
  phi (mdot p u (nth i RA [])) = (zsum d (fun l => phi (nth l u 0%uint63) * eA i l) mod phi p)%Z.
Proof.
  intros C Hu. rewrite (mdot_zdot p Hp d u _ Hu). unfold zdotrow. apply dot_congr. intros l.
  apply C.
Qed.

Lemma zsum_nonzero d (f : nat -> Z) : zsum d f <> 0%Z -> exists k, (k < d)%nat /\ f k <> 0%Z.
Proof.
  intros H.
  destruct (Classical_Prop.classic (exists k, (k < d)%nat /\ f k <> 0%Z)) as [Y|N]; [exact Y|].
  exfalso. apply H. rewrite (zsum_ext d _ (fun _ => 0%Z)); [apply zsum_zero|].
  intros l Hl. destruct (Z.eq_dec (f l) 0) as [E|E]; [exact E|].
  exfalso. apply N. exists l. split; assumption.
Qed.

Theorem check_generic_sorted_sound_gen d n dA dB RA CB p u v eA eBt :
  check_generic_sorted d n RA CB p u v = true -> (0 < dA)%Z -> (0 < dB)%Z ->
  congr (phi p) (zentry RA) eA -> (forall i k, zentry CB i k <> 0 -> eBt i k <> 0)%Z ->
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
            ((phi (mdot p v (nth i RA [])) * phi (inv_m p (mdot p v (nth i RA []))))
               mod phi p = 1)%Z).
  { intros i Hi. apply (invertible_value p Hp).
    replace (mdot p v (nth i RA [])) with (snd (nth i uv (0%uint63, 0%uint63)))
      by (rewrite (Huv i Hi); reflexivity).
    apply (Hinv (nth i uv (0%uint63, 0%uint63))). apply nth_In. unfold uv.
    rewrite map_length, seq_length. exact Hi. }
  assert (Hnd : NoDup (map (ratio p) uv)).
  { apply (Permutation_NoDup (Permutation_sym (IntSort.Permuted_sort _))). apply strict_inc_nodup.
    exact Hsort. }
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
    apply
      (ratio_congruent (phi p) _ (phi (mdot p v (nth i RA []))) _ (phi (mdot p v (nth j RA []))));
      [lia | apply Hinv'; exact Hi | apply Hinv'; exact Hj|].
    rewrite !(mdot_congr p Hp d RA eA _ v CA Hv).
    rewrite Zminus_mod, !Zmult_mod_idemp_l, !Zmult_mod_idemp_r, <- Zminus_mod, E. reflexivity.
  - intros i Hi. destruct (nonzero_row_spec d _ (HBc i ltac:(apply in_seq; lia))) as [k [Hk Hz]].
    apply (nonzero_vec_z d dB (eBt i) HB). exists k. split; [exact Hk|].
    exact (CB' i k Hz).
Qed.

Theorem check_generic_sorted_sound d n dA dB RA CB p u v :
  check_generic_sorted d n RA CB p u v = true -> (0 < dA)%Z -> (0 < dB)%Z ->
  generic d n (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros H HA HB.
  exact (check_generic_sorted_sound_gen d n dA dB RA CB p u v (zentry RA) (zentry CB)
                           H HA HB (congr_refl _ _) (fun _ _ Hz => Hz)).
Qed.
