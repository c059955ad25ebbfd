(** * The submatrix condition as integer data: functionals and targets

    [target_eq d n S A B T] is [sum_(i in S) b_i a_i^T = - T]; for data
    matrices it is an identity of integers ([CheckNoSubset.target_Z_gen]).  Linear functionals
    [Y] on [d x d] matrices turn it into one scalar identity mod [p]
    ([functional_identity]); [ysum_raw] computes a functional's value with
    fewer reductions for small [p] ([ysum_raw_eq]).  With [T] the identity ([id_rows]) it is
    [submatrix_cond]; with an invertible skip [P] (inverse [Q]) it is the
    submatrix condition of R1's reduced block [Q B] (both directions). *)

From Coq Require Import Reals ZArith Lia Lra List Uint63 Znumtheory.
From Absorb Require Import Sums Blocks IntSums Modular.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

(** ** Linear functionals on [d x d] matrices, supported on a few rows

    [Y = [(k, y_k); ...]] stands for [<Y, M> = sum_(k, y_k) y_k . M_k]. *)

Definition functional := list (nat * list int).

Fixpoint fsumZ (Y : functional) (g : nat -> list int -> Z) : Z :=
  match Y with [] => 0%Z | (k, yr) :: Y' => (g k yr + fsumZ Y' g)%Z end.

Definition fun_ok (d : nat) (Y : functional) : bool :=
  forallb (fun ky => Nat.ltb (fst ky) d && Nat.eqb (length (snd ky)) d) Y.

Fixpoint ysum (p : int) (Y : functional) (a b : list int) : int :=
  match Y with
  | [] => 0%uint63
  | (k, yr) :: Y' => addm p (mulm p (red p (nth k b 0%uint63)) (mdot p yr a)) (ysum p Y' a b)
  end.

Fixpoint tsum (p : int) (Y : functional) (RT : list (list int)) : int :=
  match Y with
  | [] => 0%uint63
  | (k, yr) :: Y' => addm p (mdot p yr (nth k RT [])) (tsum p Y' RT)
  end.

Definition zdotrow (d : nat) (yr row : list int) : Z :=
  zsum d (fun l => phi (nth l yr 0%uint63) * zval (nth l row 0%uint63))%Z.

Lemma mdot_zdot p (Hp : (1 < phi p < 2 ^ 31)%Z) d u r : length u = d ->
  phi (mdot p u r) = (zdotrow d u r mod phi p)%Z.
Proof. intros H. unfold zdotrow. apply mdot_spec; assumption. Qed.

Lemma ysum_spec p (Hp : (1 < phi p < 2 ^ 31)%Z) d Y a b : fun_ok d Y = true ->
  phi (ysum p Y a b) =
  (fsumZ Y (fun k yr => zval (nth k b 0%uint63) * zdotrow d yr a) mod phi p)%Z.
Proof.
  induction Y as [|[k yr] Y IH]; intros H; [reflexivity|].
  simpl in H. apply andb_prop in H as [H1 H2]. apply andb_prop in H1 as [_ H1].
  apply Nat.eqb_eq in H1. simpl.
  rewrite (addm_spec p Hp), (mulm_spec p Hp), (red_spec p Hp), (IH H2),
    (mdot_spec p Hp yr a d H1).
  unfold zdotrow. rewrite <- Zmult_mod, <- Zplus_mod. reflexivity.
Qed.

(** [ysum] for small moduli: the functional reduced once ([fun_red]), the
    row [a] reduced once, dot products without reductions ([dot_raw]);
    [ysum_raw_eq]: the same value as [ysum] when [small_fun p Y]. *)
Definition fun_red (p : int) (Y : functional) : functional :=
  map (fun ky => (fst ky, map (fun y => (y mod p)%uint63) (snd ky))) Y.

Definition small_fun (p : int) (Y : functional) : bool :=
  (1 <? p)%uint63 && (p <? 2097152)%uint63 &&
  forallb (fun ky => Z.ltb (Z.of_nat (length (snd ky))) 2097152) Y.

Fixpoint ysum_raw (p : int) (Y : functional) (a b : list int) : int :=
  match Y with
  | [] => 0%uint63
  | (k, yr) :: Y' => addm p (mulm p (red p (nth k b 0%uint63)) (dot_raw yr a 0)) (ysum_raw p Y' a b)
  end.

Lemma small_fun_spec p Y : small_fun p Y = true ->
  (1 < phi p < 2 ^ 21)%Z /\ forall ky, In ky Y -> (Z.of_nat (length (snd ky)) < 2 ^ 21)%Z.
Proof.
  unfold small_fun. intros H. apply andb_prop in H as [H HY]. apply andb_prop in H as [H1 H2].
  apply ltb_spec in H1, H2. change (phi 1) with 1%Z in H1.
  change (phi 2097152) with (2 ^ 21)%Z in H2. split; [lia|].
  rewrite forallb_forall in HY. intros ky Hin. specialize (HY ky Hin). apply Z.ltb_lt in HY.
  exact HY.
Qed.

Lemma ysum_raw_eq p Y a b : small_fun p Y = true ->
  ysum_raw p (fun_red p Y) (map (red p) a) b = ysum p Y a b.
Proof.
  intros H. apply small_fun_spec in H as [Hp HY].
  assert (Hp' : (1 < phi p < 2 ^ 31)%Z) by lia.
  induction Y as [|[k yr] Y IH]; [reflexivity|]. simpl.
  rewrite IH by (intros ky Hin; apply HY; right; exact Hin). f_equal.
  apply to_Z_inj. rewrite !(mulm_spec p Hp').
  rewrite <- (dot_raw_mdot p yr a Hp (HY (k, yr) (or_introl eq_refl))).
  rewrite Zmult_mod_idemp_r. reflexivity.
Qed.

Lemma tsum_spec p (Hp : (1 < phi p < 2 ^ 31)%Z) d Y RT : fun_ok d Y = true ->
  phi (tsum p Y RT) = (fsumZ Y (fun k yr => zdotrow d yr (nth k RT [])) mod phi p)%Z.
Proof.
  induction Y as [|[k yr] Y IH]; intros H; [reflexivity|].
  simpl in H. apply andb_prop in H as [H1 H2]. apply andb_prop in H1 as [_ H1].
  apply Nat.eqb_eq in H1. simpl.
  rewrite (addm_spec p Hp), (IH H2), (mdot_spec p Hp yr _ d H1).
  unfold zdotrow. rewrite <- Zplus_mod. reflexivity.
Qed.

(** The exact identity behind the certificates: if
    [dT * sum_(i in S) b_i a_i^T = - dA dB T] then every functional gives
    [sum_(i in S) y_i = t]. *)
Lemma functional_identity d n (S : nat -> bool) (dT cAB : Z) (eA eB eT : nat -> nat -> Z)
    (Y : functional) :
  fun_ok d Y = true ->
  (forall k l, (k < d)%nat -> (l < d)%nat ->
     dT * zsum n (fun i => if S i then eB k i * eA i l else 0) = - (cAB * eT k l))%Z ->
  zsum n (fun i => if S i then
            dT * fsumZ Y (fun k yr => eB k i * zsum d (fun l => phi (nth l yr 0%uint63) * eA i l))
          else 0)%Z
  = (- cAB * fsumZ Y (fun k yr => zsum d (fun l => phi (nth l yr 0%uint63) * eT k l)))%Z.
Proof.
  intros HY HS. induction Y as [|[k yr] Y IH].
  - simpl. rewrite (zsum_ext n _ (fun _ => 0%Z)) by (intros i _; destruct (S i); ring).
    rewrite zsum_zero. ring.
  - simpl in HY. apply andb_prop in HY as [H1 H2]. apply andb_prop in H1 as [Hk H1].
    apply Nat.ltb_lt in Hk. apply Nat.eqb_eq in H1. simpl in H1.
    specialize (IH H2). simpl.
    rewrite (zsum_ext n _ (fun i =>
        (zsum d (fun l => phi (nth l yr 0%uint63) *
                          (if S i then dT * (eB k i * eA i l) else 0)) +
         (if S i then dT * fsumZ Y
           (fun k yr => eB k i * zsum d (fun l => phi (nth l yr 0%uint63) * eA i l))
          else 0))%Z)).
    + rewrite zsum_plus, IH, zsum_swap.
      rewrite (zsum_ext d _ (fun l => phi (nth l yr 0%uint63) * (- (cAB * eT k l)))%Z).
      * rewrite (zsum_ext d (fun l => phi (nth l yr 0%uint63) * (- (cAB * eT k l)))%Z
                   (fun l => - cAB * (phi (nth l yr 0%uint63) * eT k l))%Z) by (intros; ring).
        rewrite zsum_scal. ring.
      * intros l Hl. rewrite <- (HS k l Hk Hl), <- zsum_scal, <- zsum_scal.
        apply zsum_ext. intros i _. destruct (S i); ring.
    + intros i _. destruct (S i).
      * rewrite Z.mul_add_distr_l, <- zsum_scal, <- zsum_scal. f_equal. apply zsum_ext.
        intros; ring.
      * rewrite (zsum_ext d _ (fun _ => 0%Z)) by (intros; ring). rewrite zsum_zero. ring.
Qed.

(** ** From the real submatrix condition to an integer identity *)

Lemma subset_sum_Z n S dA dB RA CB k l :
  IZR dA <> 0%R -> IZR dB <> 0%R ->
  subset_sum n S (mat_of_rows dA RA) (mat_of_cols dB CB) k l =
  (IZR (zsum n (fun i => if S i then zentry CB i k * zentry RA i l else 0)%Z) /
   (IZR dA * IZR dB))%R.
Proof.
  intros HA HB. unfold subset_sum, mat_of_rows, mat_of_cols.
  rewrite IZR_zsum. unfold Rdiv. rewrite <- sumn_scal_r. apply sumn_ext.
  intros i _. destruct (S i); [rewrite mult_IZR; field; auto | lra].
Qed.

(** [sum_(i in S) b_i a_i^T = - T] over the reals, as an identity of integers. *)
Definition target_eq (d n : nat) (S : nat -> bool) (A B T : mat) : Prop :=
  forall k l, (k < d)%nat -> (l < d)%nat -> subset_sum n S A B k l = (- T k l)%R.

(** ** The identity as data, and skips *)

Definition id_rows (d : nat) : list (list int) :=
  map (fun k => map (fun l => if Nat.eqb k l then 1%uint63 else 0%uint63) (seq 0 d)) (seq 0 d).

Lemma id_rows_spec d k l : (k < d)%nat -> (l < d)%nat ->
  mat_of_rows 1 (id_rows d) k l = identity k l.
Proof.
  intros Hk Hl. unfold mat_of_rows, zentry, id_rows, identity.
  rewrite (nth_map_seq _ d k [] Hk), (nth_map_seq _ d l 0%uint63 Hl).
  destruct (Nat.eqb_spec k l), (Nat.eq_dec k l); try contradiction; simpl.
  - change (zval 1) with 1%Z. simpl. field.
  - rewrite zval_0. simpl. field.
Qed.

Lemma submatrix_target_identity d n S A B :
  submatrix_cond d n S A B -> target_eq d n S A B (mat_of_rows 1 (id_rows d)).
Proof.
  intros H k l Hk Hl. rewrite id_rows_spec by assumption. apply H; assumption.
Qed.

Lemma sumn_delta_r n l f :
  (l < n)%nat -> sumn n (fun m => f m * identity m l) = f l.
Proof.
  intros Hl. rewrite <- (sumn_delta n l f Hl). apply sumn_ext. intros m _.
  unfold identity. destruct (Nat.eq_dec m l), (Nat.eq_dec l m); subst; try ring; contradiction.
Qed.

(** With an invertible skip [P] (inverse [Q]): the condition of R1's reduced
    block, [sum_(i in S) (Q b_i) a_i^T = - I], is [sum_(i in S) b_i a_i^T = - P]. *)
Lemma submatrix_target_skip d n S A B P Q :
  inverse_of d P Q -> submatrix_cond d n S A (mm d Q B) -> target_eq d n S A B P.
Proof.
  intros HPQ Hs k l Hk Hl. unfold subset_sum.
  assert (EB : forall i, B k i = sumn d (fun m => P k m * mm d Q B m i)).
  { intros i. unfold mm.
    rewrite (sumn_ext d (fun m => P k m * sumn d (fun j => Q m j * B j i))
               (fun m => sumn d (fun j => P k m * Q m j * B j i)))
      by (intros m _; rewrite <- sumn_scal_l; apply sumn_ext; intros; ring).
    rewrite sumn_swap.
    rewrite (sumn_ext d (fun j => sumn d (fun m => P k m * Q m j * B j i))
               (fun j => B j i * identity k j)).
    - unfold identity. rewrite <- (sumn_delta d k (fun j => B j i) Hk). apply sumn_ext.
      intros j _. destruct (Nat.eq_dec k j); ring.
    - intros j Hj. rewrite sumn_scal_r.
      destruct (HPQ k j Hk Hj) as [E _]. unfold mm in E. rewrite E. ring. }
  rewrite (sumn_ext n _ (fun i => sumn d (fun m => P k m *
              (if S i then mm d Q B m i * A i l else 0)))).
  - rewrite sumn_swap.
    rewrite (sumn_ext d _ (fun m => P k m * - identity m l)).
    + rewrite (sumn_ext d _ (fun m => (- P k m) * identity m l)) by (intros; ring).
      rewrite sumn_delta_r by exact Hl. reflexivity.
    + intros m Hm. rewrite sumn_scal_l. f_equal. apply Hs; assumption.
  - intros i _. destruct (S i).
    + rewrite (EB i), <- sumn_scal_r. apply sumn_ext. intros; ring.
    + rewrite (sumn_ext d _ (fun _ => 0)) by (intros; ring).
      symmetry. apply sumn_zero. reflexivity.
Qed.

(** The converse of [submatrix_target_skip]: [sum_(i in S) b_i a_i^T = - P]
    gives the submatrix condition of R1's reduced block. *)
Lemma target_skip_submatrix d n S A B P Q :
  inverse_of d P Q -> target_eq d n S A B P -> submatrix_cond d n S A (mm d Q B).
Proof.
  intros HPQ Ht k l Hk Hl. unfold subset_sum, mm.
  rewrite (sumn_ext n _ (fun i => sumn d (fun m => Q k m * (if S i then B m i * A i l else 0)))).
  - rewrite sumn_swap.
    rewrite (sumn_ext d _ (fun m => Q k m * - P m l)).
    + rewrite (sumn_ext d _ (fun m => - (Q k m * P m l))) by (intros; ring).
      rewrite sumn_opp. destruct (HPQ k l Hk Hl) as [_ E]. unfold mm in E. rewrite E. reflexivity.
    + intros m Hm. rewrite sumn_scal_l. f_equal. apply Ht; assumption.
  - intros i _. destruct (S i).
    + rewrite <- sumn_scal_r. apply sumn_ext. intros; ring.
    + symmetry. apply sumn_zero. intros; ring.
Qed.
