(** * The genericity checker [check_generic] and its soundness

    [check_generic_sound]: rows [a_i] and columns [b_i] nonzero and the [a_i]
    pairwise independent, shown through a projection mod [p]; [generic_skip]:
    genericity passes from [B] to [Q B] for an invertible skip. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63 Znumtheory.
From Absorb Require Import Sums Blocks IntSums Modular SubsetTargets.
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
  forallb (fun i => nonzero_row d (nth i RA [])) (seq 0 n) &&
  forallb (fun i => nonzero_row d (nth i CB [])) (seq 0 n) &&
  allpairs (proj_ok p) (map (fun i => (mdot p u (nth i RA []), mdot p v (nth i RA []))) (seq 0 n)).

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

Lemma proj_sum d dA RA i (u : list int) :
  IZR dA <> 0%R ->
  sumn d (fun k => IZR (phi (nth k u 0%uint63)) * mat_of_rows dA RA i k)%R =
  (IZR (zdotrow d u (nth i RA [])) / IZR dA)%R.
Proof.
  intros HA. unfold zdotrow. rewrite IZR_zsum. unfold Rdiv. rewrite <- sumn_scal_r.
  apply sumn_ext. intros k _. unfold mat_of_rows, zentry. rewrite mult_IZR. field. exact HA.
Qed.

Lemma lin_independent2_sym d u v : lin_independent2 d u v -> lin_independent2 d v u.
Proof.
  intros H a b E. destruct (H b a) as [H1 H2]; [|auto].
  intros k Hk. rewrite <- (E k Hk). ring.
Qed.

(** A nonzero numerator among the first [d] makes a nonzero row of the data matrix. *)
Lemma nonzero_row_mat d dA RA i : (0 < dA)%Z -> nonzero_row d (nth i RA []) = true ->
  nonzero_vec d (row (mat_of_rows dA RA) i).
Proof.
  intros HA H. apply IZR_lt in HA. destruct (nonzero_row_spec d _ H) as [k [Hk Hz]].
  exists k. split; [exact Hk|]. unfold row, mat_of_rows, zentry.
  intros E. apply Hz. apply eq_IZR. apply (f_equal (fun x => x * IZR dA)%R) in E.
  field_simplify in E; lra.
Qed.

Lemma nonzero_col_mat d dB CB i : (0 < dB)%Z -> nonzero_row d (nth i CB []) = true ->
  nonzero_vec d (col (mat_of_cols dB CB) i).
Proof.
  intros HB H. apply IZR_lt in HB. destruct (nonzero_row_spec d _ H) as [k [Hk Hz]].
  exists k. split; [exact Hk|]. unfold col, mat_of_cols, zentry.
  intros E. apply Hz. apply eq_IZR. apply (f_equal (fun x => x * IZR dB)%R) in E.
  field_simplify in E; lra.
Qed.

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

(** A vanishing combination of two rows makes every projection of them vanish. *)
Lemma combination_projection d dA RA i j a b :
  (0 < IZR dA)%R ->
  (forall k, (k < d)%nat -> a * row (mat_of_rows dA RA) i k + b * row (mat_of_rows dA RA) j k = 0)%R ->
  forall w : list int,
  (a * IZR (zdotrow d w (nth i RA [])) + b * IZR (zdotrow d w (nth j RA [])) = 0)%R.
Proof.
  intros HA Hab w.
  set (Si := sumn d (fun k => IZR (phi (nth k w 0%uint63)) * mat_of_rows dA RA i k)%R).
  set (Sj := sumn d (fun k => IZR (phi (nth k w 0%uint63)) * mat_of_rows dA RA j k)%R).
  assert (Ei : IZR (zdotrow d w (nth i RA [])) = (Si * IZR dA)%R)
    by (unfold Si; rewrite proj_sum by lra; field; lra).
  assert (Ej : IZR (zdotrow d w (nth j RA [])) = (Sj * IZR dA)%R)
    by (unfold Sj; rewrite proj_sum by lra; field; lra).
  assert (E0 : (a * Si + b * Sj = 0)%R).
  { unfold Si, Sj. rewrite <- !sumn_scal_l, <- sumn_plus. apply sumn_zero.
    intros k Hk. unfold row in Hab.
    transitivity (IZR (phi (nth k w 0%uint63)) *
                  (a * mat_of_rows dA RA i k + b * mat_of_rows dA RA j k))%R; [ring|].
    rewrite (Hab k Hk). ring. }
  rewrite Ei, Ej.
  replace (a * (Si * IZR dA) + b * (Sj * IZR dA))%R with ((a * Si + b * Sj) * IZR dA)%R by ring.
  rewrite E0. ring.
Qed.

(** Two rows whose projections have a nonzero 2 x 2 determinant are independent. *)
Lemma independent_of_projections d dA RA i j (u v : list int) :
  (0 < IZR dA)%R ->
  (zdotrow d u (nth i RA []) * zdotrow d v (nth j RA []) -
   zdotrow d v (nth i RA []) * zdotrow d u (nth j RA []) <> 0)%Z ->
  lin_independent2 d (row (mat_of_rows dA RA) i) (row (mat_of_rows dA RA) j).
Proof.
  intros HA Hdet a b Hab.
  pose proof (combination_projection d dA RA i j a b HA Hab u) as Hu'.
  pose proof (combination_projection d dA RA i j a b HA Hab v) as Hv'.
  set (Ui := zdotrow d u (nth i RA [])) in *. set (Uj := zdotrow d u (nth j RA [])) in *.
  set (Vi := zdotrow d v (nth i RA [])) in *. set (Vj := zdotrow d v (nth j RA [])) in *.
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
  exact (independent_of_projections d dA RA i j u v HA (proj_ok_det p Hp d u v _ _ Hu Hv Hd)).
Qed.

Theorem check_generic_sound d n dA dB RA CB p u v :
  check_generic d n RA CB p u v = true -> (0 < dA)%Z -> (0 < dB)%Z ->
  generic d n (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  unfold check_generic. intros H HA HB.
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
