(** * Boolean checkers for concrete rational instances, with soundness

    Concrete weights are lists of primitive 63-bit integers ([int]) read as
    signed numerators over a common positive denominator ([mat_of_rows],
    [mat_of_cols]).  The checkers compute modulo primes [p < 2^31] with
    primitive integer arithmetic (fast under [vm_compute]); their soundness
    lemmas state the real-valued facts of [Blocks.v]:
    - [check_nosub]: no subset [S] satisfies the submatrix condition;
    - [check_generic]: the weights are generic;
    - [check_prod]: an exact product identity (several primes, a size bound),
      giving [submatrix_cond] for a given [S] and [inverse_of] for a skip;
    - [check_nonzero]: a skip is a nonzero matrix. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63 Znumtheory.
From Absorb Require Import Sums Blocks.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

(** ** Integer sums *)

Fixpoint zsum (n : nat) (f : nat -> Z) : Z :=
  match n with O => 0%Z | S m => (zsum m f + f m)%Z end.

Lemma zsum_ext n f g : (forall i, (i < n)%nat -> f i = g i) -> zsum n f = zsum n g.
Proof.
  induction n as [|n IH]; intros H; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H n) by lia. reflexivity.
Qed.

Lemma zsum_plus n f g : zsum n (fun i => f i + g i)%Z = (zsum n f + zsum n g)%Z.
Proof. induction n; simpl; [reflexivity | rewrite IHn; ring]. Qed.

Lemma zsum_scal n c f : zsum n (fun i => c * f i)%Z = (c * zsum n f)%Z.
Proof. induction n; simpl; [ring | rewrite IHn; ring]. Qed.

Lemma zsum_zero n : zsum n (fun _ => 0%Z) = 0%Z.
Proof. induction n; simpl; [reflexivity | rewrite IHn; ring]. Qed.

Lemma zsum_swap n m (f : nat -> nat -> Z) :
  zsum n (fun i => zsum m (fun j => f i j)) = zsum m (fun j => zsum n (fun i => f i j)).
Proof.
  induction n as [|n IH]; simpl.
  - symmetry. apply zsum_zero.
  - rewrite IH, <- zsum_plus. reflexivity.
Qed.

Lemma zsum_shift n f : zsum (S n) f = (f O + zsum n (fun i => f (S i)))%Z.
Proof. induction n; simpl in *; [ring | rewrite IHn; ring]. Qed.

Lemma zsum_mod n f p : (zsum n f mod p = zsum n (fun i => f i mod p) mod p)%Z.
Proof.
  induction n; simpl; [reflexivity|].
  rewrite Zplus_mod, IHn.
  rewrite (Zplus_mod (zsum n _) (f n mod p)), Zmod_mod. reflexivity.
Qed.

Lemma IZR_zsum n f : IZR (zsum n f) = sumn n (fun i => IZR (f i)).
Proof. induction n; simpl; [reflexivity | rewrite plus_IZR, IHn; reflexivity]. Qed.

Lemma zsum_abs n f : (Z.abs (zsum n f) <= zsum n (fun i => Z.abs (f i)))%Z.
Proof. induction n; simpl; [lia|]. pose proof (Z.abs_triangle (zsum n f) (f n)). lia. Qed.

Lemma zsum_le n f g : (forall i, (i < n)%nat -> f i <= g i)%Z -> (zsum n f <= zsum n g)%Z.
Proof.
  induction n as [|n IH]; intros H; simpl; [lia|].
  pose proof (H n ltac:(lia)). pose proof (IH ltac:(intros; apply H; lia)). lia.
Qed.

Lemma zsum_const n c : zsum n (fun _ => c) = (Z.of_nat n * c)%Z.
Proof. induction n; simpl zsum; [lia | rewrite IHn; lia]. Qed.

(** ** Signed numerators *)

Definition half_int : int := 4611686018427387904%uint63.

Lemma wB_eq : wB = (2 ^ 63)%Z.
Proof. reflexivity. Qed.

Lemma half_int_spec : phi half_int = (2 ^ 62)%Z.
Proof. reflexivity. Qed.

(** The integer a literal stands for: two's complement on 63 bits. *)
Definition zval (u : int) : Z :=
  if (u <? half_int)%uint63 then phi u else (phi u - 2 ^ 63)%Z.

Lemma zval_0 : zval 0 = 0%Z.
Proof. reflexivity. Qed.

Lemma zval_zero u : zval u = 0%Z -> u = 0%uint63.
Proof.
  unfold zval. pose proof (to_Z_bounded u) as B. rewrite wB_eq in B.
  destruct (u <? half_int)%uint63 eqn:E; intros H.
  - apply to_Z_inj. rewrite H. reflexivity.
  - assert (~ (phi u < phi half_int)%Z) as E'.
    { rewrite <- Uint63.ltb_spec, E. discriminate. }
    rewrite half_int_spec in E'. lia.
Qed.

Definition zentry (rows : list (list int)) (i j : nat) : Z := zval (nth j (nth i rows []) 0%uint63).

(** Row-major data ([W_up], skips) and column-major data ([W_down] given by its columns). *)
Definition mat_of_rows (den : Z) (rows : list (list int)) : mat :=
  fun i j => (IZR (zentry rows i j) / IZR den)%R.

Definition mat_of_cols (den : Z) (cols : list (list int)) : mat :=
  fun i j => (IZR (zentry cols j i) / IZR den)%R.

(** ** Arithmetic modulo [p] *)

Definition p_ok (p : int) : bool := (1 <? p)%uint63 && (p <? 2147483648)%uint63.

Lemma p_ok_spec p : p_ok p = true -> (1 < phi p < 2 ^ 31)%Z.
Proof.
  unfold p_ok. intros H. apply andb_prop in H as [H1 H2].
  apply ltb_spec in H1, H2. change (phi 1) with 1%Z in H1.
  change (phi 2147483648) with (2 ^ 31)%Z in H2. lia.
Qed.

Definition mulm (p x y : int) : int := (((x mod p) * (y mod p)) mod p)%uint63.
Definition addm (p x y : int) : int := (((x mod p) + (y mod p)) mod p)%uint63.
Definition subm (p x y : int) : int := (((x mod p) + (p - (y mod p))) mod p)%uint63.

(** [red p u]: the residue of [zval u]. *)
Definition red (p u : int) : int :=
  if (u <? half_int)%uint63 then (u mod p)%uint63 else ((p - ((0 - u) mod p)) mod p)%uint63.

Lemma modp_small (p : int) (Hp : (1 < phi p < 2 ^ 31)%Z) x : (0 <= phi (x mod p)%uint63 < phi p)%Z.
Proof. rewrite mod_spec. apply Z.mod_pos_bound. lia. Qed.

Lemma mulm_spec (p : int) (Hp : (1 < phi p < 2 ^ 31)%Z) x y : phi (mulm p x y) = ((phi x * phi y) mod phi p)%Z.
Proof.
  unfold mulm. rewrite mod_spec, mul_spec, wB_eq.
  pose proof (modp_small p Hp x). pose proof (modp_small p Hp y).
  rewrite (Z.mod_small (_ * _)) by nia. rewrite !mod_spec.
  rewrite <- Z.mul_mod by lia. reflexivity.
Qed.

Lemma addm_spec (p : int) (Hp : (1 < phi p < 2 ^ 31)%Z) x y : phi (addm p x y) = ((phi x + phi y) mod phi p)%Z.
Proof.
  unfold addm. rewrite mod_spec, add_spec, wB_eq.
  pose proof (modp_small p Hp x). pose proof (modp_small p Hp y).
  rewrite (Z.mod_small (_ + _)) by lia. rewrite !mod_spec.
  rewrite <- Z.add_mod by lia. reflexivity.
Qed.

Lemma subm_spec (p : int) (Hp : (1 < phi p < 2 ^ 31)%Z) x y : phi (subm p x y) = ((phi x - phi y) mod phi p)%Z.
Proof.
  unfold subm. rewrite mod_spec, add_spec, sub_spec, wB_eq.
  pose proof (modp_small p Hp x). pose proof (modp_small p Hp y).
  rewrite (Z.mod_small (phi p - _)) by lia.
  rewrite (Z.mod_small (_ + _)) by lia. rewrite !mod_spec.
  replace (phi x mod phi p + (phi p - phi y mod phi p))%Z
    with ((phi x mod phi p - phi y mod phi p) + 1 * phi p)%Z by ring.
  rewrite Z_mod_plus_full, <- Zminus_mod. reflexivity.
Qed.

Lemma red_spec (p : int) (Hp : (1 < phi p < 2 ^ 31)%Z) u : phi (red p u) = (zval u mod phi p)%Z.
Proof.
  unfold red, zval. pose proof (to_Z_bounded u) as B. rewrite wB_eq in B.
  destruct (u <? half_int)%uint63 eqn:E.
  - apply mod_spec.
  - assert (~ (phi u < phi half_int)%Z) as E'.
    { rewrite <- Uint63.ltb_spec, E. discriminate. }
    rewrite half_int_spec in E'.
    rewrite mod_spec, sub_spec, mod_spec, sub_spec, wB_eq. change (phi 0) with 0%Z.
    assert (W : ((0 - phi u) mod 2 ^ 63 = 2 ^ 63 - phi u)%Z).
    { rewrite <- (Z_mod_plus_full _ 1). rewrite Z.mod_small; lia. }
    rewrite W.
    pose proof (Z.mod_pos_bound (2 ^ 63 - phi u) (phi p) ltac:(lia)).
    rewrite (Z.mod_small (phi p - _)) by lia.
    replace (phi u - 2 ^ 63)%Z with (0 - (2 ^ 63 - phi u))%Z by ring.
    rewrite (Zminus_mod 0), (Zminus_mod (phi p)), Z_mod_same_full, Zmod_mod.
    reflexivity.
Qed.

Lemma mod_lt (p : int) (Hp : (1 < phi p < 2 ^ 31)%Z) x : (phi x < phi p)%Z -> (phi x mod phi p = phi x)%Z.
Proof. intros. apply Z.mod_small. pose proof (to_Z_bounded x). lia. Qed.


(** ** Dot products of a certificate vector with a data row *)

Fixpoint mdot (p : int) (u v : list int) : int :=
  match u, v with
  | x :: u', y :: v' => addm p (mulm p x (red p y)) (mdot p u' v')
  | _, _ => 0%uint63
  end.

Lemma zsum_nth_nil d (f : nat -> Z) :
  zsum d (fun l => f l * zval (nth l (@nil int) 0%uint63))%Z = 0%Z.
Proof.
  rewrite (zsum_ext d _ (fun _ => 0%Z)); [apply zsum_zero|].
  intros l _. destruct l; simpl; rewrite zval_0; ring.
Qed.

Lemma mdot_spec p (Hp : (1 < phi p < 2 ^ 31)%Z) u : forall v d, length u = d ->
  phi (mdot p u v) =
  (zsum d (fun l => phi (nth l u 0%uint63) * zval (nth l v 0%uint63)) mod phi p)%Z.
Proof.
  induction u as [|x u IH]; intros v d Hd; simpl in Hd; subst d.
  - destruct v; reflexivity.
  - destruct v as [|y v].
    + simpl mdot. rewrite zsum_shift. simpl nth at 2.
      rewrite (zsum_ext _ _ (fun l => phi (nth l u 0%uint63) * zval (nth l (@nil int) 0%uint63))%Z)
        by (intros l _; destruct l; reflexivity).
      rewrite zsum_nth_nil. rewrite zval_0, Z.mul_0_r. reflexivity.
    + simpl mdot. rewrite (addm_spec p Hp), (mulm_spec p Hp), (red_spec p Hp).
      rewrite (IH v (length u) eq_refl). rewrite zsum_shift. simpl nth.
      rewrite Zmult_mod_idemp_r, <- Zplus_mod. reflexivity.
Qed.

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
         (if S i then dT * fsumZ Y (fun k yr => eB k i * zsum d (fun l => phi (nth l yr 0%uint63) * eA i l))
          else 0))%Z)).
    + rewrite zsum_plus, IH, zsum_swap.
      rewrite (zsum_ext d _ (fun l => phi (nth l yr 0%uint63) * (- (cAB * eT k l)))%Z).
      * rewrite (zsum_ext d (fun l => phi (nth l yr 0%uint63) * (- (cAB * eT k l)))%Z
                   (fun l => - cAB * (phi (nth l yr 0%uint63) * eT k l))%Z) by (intros; ring).
        rewrite zsum_scal. ring.
      * intros l Hl. rewrite <- (HS k l Hk Hl), <- zsum_scal, <- zsum_scal.
        apply zsum_ext. intros i _. destruct (S i); ring.
    + intros i _. destruct (S i).
      * rewrite Z.mul_add_distr_l, <- zsum_scal, <- zsum_scal. f_equal. apply zsum_ext. intros; ring.
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

Lemma target_Z d n S dA dB dT RA CB RT :
  (0 < dA)%Z -> (0 < dB)%Z -> (0 < dT)%Z ->
  target_eq d n S (mat_of_rows dA RA) (mat_of_cols dB CB) (mat_of_rows dT RT) ->
  forall k l, (k < d)%nat -> (l < d)%nat ->
  (dT * zsum n (fun i => if S i then zentry CB i k * zentry RA i l else 0) =
   - (dA * dB * zentry RT k l))%Z.
Proof.
  intros HA HB HT H k l Hk Hl. specialize (H k l Hk Hl).
  apply IZR_lt in HA, HB, HT.
  rewrite subset_sum_Z in H by lra. unfold mat_of_rows in H.
  apply eq_IZR. rewrite !mult_IZR, opp_IZR, !mult_IZR.
  match type of H with (?X / _ = _)%R =>
    assert (E : X = (- (IZR (zentry RT k l) / IZR dT) * (IZR dA * IZR dB))%R)
      by (rewrite <- H; field; lra) end.
  rewrite E. field. lra.
Qed.

(** ** The no-subset checker

    A certificate: a modulus [p], a list [F] of "free" indices and functionals,
    each with an optional pivot index.  For functional [Y], [y_i] is its value
    on [dT b_i a_i^T] and [t] its value on [- dA dB T] (mod p); every [y_i]
    with [i] neither free nor the pivot must vanish.  Then, for every 0/1
    assignment [z] of the free indices, some functional must show
    [t - sum_(i in F, z_i) y_i] to be neither [0] nor [y_pivot]. *)

Definition cZ (p : int) (z : Z) : int := Uint63.of_Z (z mod phi p).

Lemma cZ_spec p z : (1 < phi p < 2 ^ 31)%Z -> phi (cZ p z) = (z mod phi p)%Z.
Proof.
  intros Hp. unfold cZ. rewrite of_Z_spec, wB_eq.
  pose proof (Z.mod_pos_bound z (phi p) ltac:(lia)). apply Z.mod_small. lia.
Qed.

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

Definition fails (p : int) (F : list nat) (z : list bool) (r : option nat * list int * int) : bool :=
  let '(piv, ys, t) := r in
  let v := subm p t (wsum p F z ys 0) in
  negb (v =? 0)%uint63 && negb (v =? piv_val piv ys)%uint63.

Definition yvals (p cT : int) (Y : functional) (RA CB : list (list int)) (n : nat) : list int :=
  map (fun i => mulm p cT (ysum p Y (nth i RA []) (nth i CB []))) (seq 0 n).

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

Lemma nth_map_seq {X} (f : nat -> X) n i x : (i < n)%nat -> nth i (map f (seq 0 n)) x = f i.
Proof.
  intros Hi. rewrite (nth_indep _ x (f 0%nat)) by (rewrite map_length, seq_length; exact Hi).
  rewrite map_nth, seq_nth by exact Hi. reflexivity.
Qed.

Theorem check_nosub_sound d n dA dB dT RA CB RT p F fs :
  check_nosub d n dA dB dT RA CB RT p F fs = true ->
  forall S, ~ target_eq d n S (mat_of_rows dA RA) (mat_of_cols dB CB) (mat_of_rows dT RT).
Proof.
  unfold check_nosub. intros H S HS.
  apply andb_prop in H as [H Hrest]. cbv zeta in Hrest.
  apply andb_prop in Hrest as [Hzero Hall].
  apply andb_prop in H as [H Hfun].
  apply andb_prop in H as [H HT]. apply andb_prop in H as [H HB]. apply andb_prop in H as [Hp HA].
  apply Z.ltb_lt in HA, HB, HT. apply p_ok_spec in Hp.
  set (P := phi p) in *.
  pose proof (target_Z d n S dA dB dT RA CB RT HA HB HT HS) as HZ.
  rewrite forallb_forall in Hall.
  pose proof (bools_complete (map S F)) as Hb. rewrite map_length in Hb.
  specialize (Hall _ Hb).
  apply existsb_exists in Hall as [r [Hr Hfails]].
  rewrite forallb_forall in Hzero. specialize (Hzero r Hr).
  apply in_map_iff in Hr as [[piv Y] [Er Hf]]. subst r. simpl in Hzero, Hfails.
  rewrite forallb_forall in Hfun. specialize (Hfun _ Hf). simpl in Hfun.
  set (ys := yvals p (cZ p dT) Y RA CB n) in *.
  set (t := tval p (cZ p (- (dA * dB))) Y RT) in *.
  set (Yv := fun i => phi (nth i ys 0%uint63)).
  assert (Hlen : length ys = n) by (unfold ys, yvals; rewrite map_length, seq_length; reflexivity).
  assert (Hyi : forall i, (i < n)%nat ->
            Yv i = ((dT * fsumZ Y (fun k yr => zentry CB i k * zdotrow d yr (nth i RA []))) mod P)%Z).
  { intros i Hi. unfold Yv, ys, yvals. rewrite nth_map_seq by exact Hi.
    rewrite (mulm_spec p Hp), (cZ_spec p dT Hp), (ysum_spec p Hp d Y _ _ Hfun).
    fold P. rewrite <- Zmult_mod. reflexivity. }
  assert (HY : forall i, (0 <= Yv i < P)%Z).
  { intros i. destruct (Nat.lt_ge_cases i n) as [Hi|Hi].
    - rewrite (Hyi i Hi). apply Z.mod_pos_bound. lia.
    - unfold Yv. rewrite nth_overflow by lia. change (phi 0) with 0%Z. lia. }
  assert (Hz : forall i, (i < n)%nat -> inF F i = false -> opt_is piv i = false -> Yv i = 0%Z).
  { intros i _ E1 E2. unfold Yv.
    rewrite (zero_outside_spec F piv ys 0 Hzero i E1 E2). reflexivity. }
  assert (Ht : phi t = ((- (dA * dB)) * fsumZ Y (fun k yr => zdotrow d yr (nth k RT [])) mod P)%Z).
  { unfold t, tval. rewrite (mulm_spec p Hp), (cZ_spec p _ Hp), (tsum_spec p Hp d Y RT Hfun).
    fold P. rewrite <- Zmult_mod. reflexivity. }
  assert (HTm : (zsum n (fun i => if S i then Yv i else 0) mod P = phi t mod P)%Z).
  { rewrite Ht, Zmod_mod.
    pose proof (functional_identity d n S dT (dA * dB) (fun i l => zentry RA i l)
                  (fun k i => zentry CB i k) (fun k l => zentry RT k l) Y Hfun
                  (fun k l Hk Hl => HZ k l Hk Hl)) as FI.
    cbv beta in FI. unfold zentry in FI. unfold zdotrow. rewrite <- FI.
    rewrite zsum_mod, (zsum_mod n (fun i => if S i then _ else 0%Z)). f_equal.
    apply zsum_ext. intros i Hi. destruct (S i); [|reflexivity].
    rewrite (Hyi i Hi), Zmod_mod. unfold zdotrow, zentry. reflexivity. }
  assert (EW : zsum n (fun i => if inF F (0 + i) && zlook F (map S F) (0 + i)
                                then phi (nth i ys 0%uint63) else 0%Z) =
               zsum n (fun i => if inF F i && S i then Yv i else 0%Z)).
  { apply zsum_ext. intros i _. simpl.
    destruct (inF F i) eqn:EF; [|reflexivity]. simpl. rewrite zlook_map by exact EF. reflexivity. }
  unfold fails in Hfails. apply andb_prop in Hfails as [F1 F2].
  apply Bool.negb_true_iff in F1, F2.
  destruct (nosub_core P n S F piv Yv (phi t) ltac:(lia) HY Hz HTm) as [C|C].
  - assert (E : subm p t (wsum p F (map S F) ys 0) = 0%uint63); [|rewrite E in F1; discriminate].
    apply to_Z_inj. rewrite (subm_spec p Hp), (wsum_spec p Hp), Hlen. fold P.
    rewrite EW, Zminus_mod_idemp_r, C. reflexivity.
  - assert (E : subm p t (wsum p F (map S F) ys 0) = piv_val piv ys); [|rewrite E in F2;
      rewrite Uint63.eqb_refl in F2; discriminate].
    apply to_Z_inj. rewrite (subm_spec p Hp), (wsum_spec p Hp), Hlen. fold P.
    rewrite EW, Zminus_mod_idemp_r, C. destruct piv; reflexivity.
Qed.

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

Theorem check_generic_sound d n dA dB RA CB p u v :
  check_generic d n RA CB p u v = true -> (0 < dA)%Z -> (0 < dB)%Z ->
  generic d n (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  unfold check_generic. intros H HA HB.
  apply andb_prop in H as [H Hpairs]. apply andb_prop in H as [H HBc].
  apply andb_prop in H as [H HAr]. apply andb_prop in H as [H Hv].
  apply andb_prop in H as [Hp Hu]. apply p_ok_spec in Hp.
  apply Nat.eqb_eq in Hu, Hv. rewrite forallb_forall in HAr, HBc.
  apply IZR_lt in HA, HB.
  split; [|split].
  - intros i Hi. destruct (nonzero_row_spec d _ (HAr i ltac:(apply in_seq; lia))) as [k [Hk Hz]].
    exists k. split; [exact Hk|]. unfold row, mat_of_rows, zentry.
    intros E. apply Hz. apply eq_IZR. apply (f_equal (fun x => x * IZR dA)%R) in E.
    field_simplify in E; lra.
  - intros i j Hi Hj Hij.
    assert (key : forall i j, (i < j)%nat -> (j < n)%nat ->
              lin_independent2 d (row (mat_of_rows dA RA) i) (row (mat_of_rows dA RA) j)).
    { clear i j Hi Hj Hij. intros i j Hij Hj.
      pose proof (allpairs_spec _ _ (0%uint63, 0%uint63) Hpairs i j Hij
                    ltac:(rewrite map_length, seq_length; exact Hj)) as Hd.
      rewrite !nth_map_seq in Hd by lia. unfold proj_ok in Hd. simpl in Hd.
      apply Bool.negb_true_iff in Hd.
      set (Ui := zdotrow d u (nth i RA [])). set (Uj := zdotrow d u (nth j RA [])).
      set (Vi := zdotrow d v (nth i RA [])). set (Vj := zdotrow d v (nth j RA [])).
      assert (Hdet : (Ui * Vj - Vi * Uj <> 0)%Z).
      { intros E. assert (E' : subm p (mulm p (mdot p u (nth i RA [])) (mdot p v (nth j RA [])))
                                 (mulm p (mdot p v (nth i RA [])) (mdot p u (nth j RA []))) = 0%uint63).
        { apply to_Z_inj. rewrite (subm_spec p Hp), !(mulm_spec p Hp).
          rewrite !(mdot_zdot p Hp d) by assumption. fold Ui Uj Vi Vj.
          rewrite <- !Zmult_mod, <- Zminus_mod, E. reflexivity. }
        rewrite E' in Hd. discriminate. }
      intros a b Hab.
      assert (Hs : forall w : list int,
                 (a * IZR (zdotrow d w (nth i RA [])) + b * IZR (zdotrow d w (nth j RA [])) = 0)%R).
      { intros w.
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
        replace (a * (Si * IZR dA) + b * (Sj * IZR dA))%R with ((a * Si + b * Sj) * IZR dA)%R
          by ring.
        rewrite E0. ring. }
      pose proof (Hs u) as Hu'. pose proof (Hs v) as Hv'. fold Ui Uj in Hu'. fold Vi Vj in Hv'.
      apply not_0_IZR in Hdet. rewrite minus_IZR, !mult_IZR in Hdet.
      split.
      - apply (Rmult_eq_reg_r (IZR Ui * IZR Vj - IZR Vi * IZR Uj)); [|exact Hdet].
        transitivity ((a * IZR Ui + b * IZR Uj) * IZR Vj - (a * IZR Vi + b * IZR Vj) * IZR Uj)%R;
          [ring|]. rewrite Hu', Hv'. ring.
      - apply (Rmult_eq_reg_r (IZR Ui * IZR Vj - IZR Vi * IZR Uj)); [|exact Hdet].
        transitivity ((a * IZR Vi + b * IZR Vj) * IZR Ui - (a * IZR Ui + b * IZR Uj) * IZR Vi)%R;
          [ring|]. rewrite Hu', Hv'. ring. }
    destruct (proj1 (Nat.lt_gt_cases i j) Hij) as [L|L]; [|apply lin_independent2_sym]; apply key; lia.
  - intros i Hi. destruct (nonzero_row_spec d _ (HBc i ltac:(apply in_seq; lia))) as [k [Hk Hz]].
    exists k. split; [exact Hk|]. unfold col, mat_of_cols, zentry.
    intros E. apply Hz. apply eq_IZR. apply (f_equal (fun x => x * IZR dB)%R) in E.
    field_simplify in E; lra.
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

(** ** Exact product identities through several primes and a size bound

    [check_prod] shows, for all [k, l < d],
    [c1 * sum_(i < m, S i) X k i * Y i l + c2 * T k l = 0] exactly: the value is
    0 modulo pairwise coprime [p]s whose product exceeds a bound on its size. *)

Definition absi (u : int) : int := if (u <? half_int)%uint63 then u else (0 - u)%uint63.
Definition maxi (a b : int) : int := if (a <? b)%uint63 then b else a.

Fixpoint maxrow (X : nat -> int) (c : nat) : int :=
  match c with O => 0%uint63 | S c' => maxi (maxrow X c') (absi (X c')) end.

Fixpoint maxabs (r c : nat) (X : nat -> nat -> int) : int :=
  match r with O => 0%uint63 | S r' => maxi (maxabs r' c X) (maxrow (X r') c) end.

Lemma absi_spec u : phi (absi u) = Z.abs (zval u).
Proof.
  unfold absi, zval. pose proof (to_Z_bounded u) as B. rewrite wB_eq in B.
  destruct (u <? half_int)%uint63 eqn:E.
  - rewrite Z.abs_eq; [reflexivity | lia].
  - assert (~ (phi u < phi half_int)%Z) as E'.
    { rewrite <- Uint63.ltb_spec, E. discriminate. }
    rewrite half_int_spec in E'. rewrite sub_spec, wB_eq. change (phi 0) with 0%Z.
    rewrite <- (Z_mod_plus_full _ 1), Z.mod_small by lia. lia.
Qed.

Lemma maxi_spec a b : (phi a <= phi (maxi a b) /\ phi b <= phi (maxi a b))%Z.
Proof.
  unfold maxi. destruct (a <? b)%uint63 eqn:E.
  - apply Uint63.ltb_spec in E. lia.
  - assert (~ (phi a < phi b)%Z) by (rewrite <- Uint63.ltb_spec, E; discriminate). lia.
Qed.

Lemma maxrow_spec X c i : (i < c)%nat -> (Z.abs (zval (X i)) <= phi (maxrow X c))%Z.
Proof.
  induction c as [|c IH]; intros Hi; [lia|]. simpl.
  pose proof (maxi_spec (maxrow X c) (absi (X c))) as [M1 M2].
  destruct (Nat.eq_dec i c) as [->|Hne].
  - rewrite <- absi_spec. exact M2.
  - pose proof (IH ltac:(lia)). lia.
Qed.

Lemma maxabs_spec r c X k i : (k < r)%nat -> (i < c)%nat ->
  (Z.abs (zval (X k i)) <= phi (maxabs r c X))%Z.
Proof.
  induction r as [|r IH]; intros Hk Hi; [lia|]. simpl.
  pose proof (maxi_spec (maxabs r c X) (maxrow (X r) c)) as [M1 M2].
  destruct (Nat.eq_dec k r) as [->|Hne].
  - pose proof (maxrow_spec (X r) c i Hi). lia.
  - pose proof (IH ltac:(lia) Hi). lia.
Qed.

Fixpoint psum (p : int) (X Y : nat -> nat -> int) (S : nat -> bool) (k l m : nat) : int :=
  match m with
  | O => 0%uint63
  | S m' => addm p (psum p X Y S k l m')
                   (if S m' then mulm p (red p (X k m')) (red p (Y m' l)) else 0%uint63)
  end.

Lemma psum_spec p (Hp : (1 < phi p < 2 ^ 31)%Z) X Y S k l m :
  phi (psum p X Y S k l m) =
  (zsum m (fun i => if S i then zval (X k i) * zval (Y i l) else 0) mod phi p)%Z.
Proof.
  induction m as [|m IH]; [reflexivity|]. simpl psum. simpl zsum.
  rewrite (addm_spec p Hp), IH. destruct (S m).
  - rewrite (mulm_spec p Hp), !(red_spec p Hp), <- Zmult_mod, <- Zplus_mod. reflexivity.
  - change (phi 0) with 0%Z. rewrite !Z.add_0_r, Zmod_mod. reflexivity.
Qed.

Fixpoint coprime_all (p : int) (qs : list int) : bool :=
  match qs with [] => true | q :: qs' => Z.eqb (Z.gcd (phi p) (phi q)) 1 && coprime_all p qs' end.

Fixpoint pairwise_coprime (ps : list int) : bool :=
  match ps with [] => true | p :: ps' => coprime_all p ps' && pairwise_coprime ps' end.

Fixpoint zprod (ps : list int) : Z :=
  match ps with [] => 1%Z | p :: ps' => (phi p * zprod ps')%Z end.

Definition prod_entry_ok (p : int) (d m : nat) (X Y T : nat -> nat -> int) (S : nat -> bool)
    (c1 c2 : Z) (k l : nat) : bool :=
  (addm p (mulm p (cZ p c1) (psum p X Y S k l m)) (mulm p (cZ p c2) (red p (T k l))) =? 0)%uint63.

Definition check_prod (d m : nat) (X Y T : nat -> nat -> int) (S : nat -> bool) (c1 c2 : Z)
    (ps : list int) : bool :=
  forallb p_ok ps && pairwise_coprime ps &&
  (Z.abs c1 * Z.of_nat m * phi (maxabs d m X) * phi (maxabs m d Y) +
   Z.abs c2 * phi (maxabs d d T) <? zprod ps)%Z &&
  forallb (fun p => forallb (fun k => forallb (prod_entry_ok p d m X Y T S c1 c2 k) (seq 0 d))
                            (seq 0 d)) ps.

Lemma divide_mul_coprime a b x : (a | x)%Z -> (b | x)%Z -> rel_prime a b -> (a * b | x)%Z.
Proof.
  intros [u Hu] [v Hv] Hab.
  assert (Ha : (a | v)%Z).
  { apply (Gauss a b v); [|exact Hab]. exists u. rewrite Z.mul_comm, <- Hv, Hu. reflexivity. }
  destruct Ha as [w Hw]. exists w. rewrite Hv, Hw. ring.
Qed.

Lemma coprime_prod p qs : coprime_all p qs = true -> rel_prime (phi p) (zprod qs).
Proof.
  induction qs as [|q qs IH]; simpl; intros H.
  - apply rel_prime_sym, rel_prime_1.
  - apply andb_prop in H as [H1 H2]. apply Z.eqb_eq in H1.
    apply rel_prime_mult; [apply Zgcd_1_rel_prime; exact H1 | apply IH; exact H2].
Qed.

Lemma zprod_divide ps x : forallb p_ok ps = true -> pairwise_coprime ps = true ->
  (forall p, In p ps -> (x mod phi p = 0)%Z) -> (zprod ps | x)%Z.
Proof.
  induction ps as [|p ps IH]; simpl; intros Hok Hpc Hx.
  - apply Z.divide_1_l.
  - apply andb_prop in Hok as [Hp Hok]. apply andb_prop in Hpc as [Hc Hpc].
    apply p_ok_spec in Hp.
    apply divide_mul_coprime.
    + apply Z.mod_divide; [lia | apply Hx; left; reflexivity].
    + apply IH; auto.
    + apply coprime_prod. exact Hc.
Qed.

Lemma zprod_pos ps : forallb p_ok ps = true -> (0 < zprod ps)%Z.
Proof.
  induction ps as [|p ps IH]; simpl; intros H; [lia|].
  apply andb_prop in H as [H1 H2]. apply p_ok_spec in H1. specialize (IH H2). nia.
Qed.

Lemma small_multiple_zero q x : (0 < q)%Z -> (q | x)%Z -> (Z.abs x < q)%Z -> x = 0%Z.
Proof. intros Hq [k Hk] Hx. subst x. destruct (Z.eq_dec k 0) as [->|Hk]; [ring|]. nia. Qed.

Theorem check_prod_sound d m X Y T S c1 c2 ps :
  check_prod d m X Y T S c1 c2 ps = true ->
  forall k l, (k < d)%nat -> (l < d)%nat ->
  (c1 * zsum m (fun i => if S i then zval (X k i) * zval (Y i l) else 0) +
   c2 * zval (T k l) = 0)%Z.
Proof.
  unfold check_prod. intros H k l Hk Hl.
  apply andb_prop in H as [H Hall]. apply andb_prop in H as [H Hbound].
  apply andb_prop in H as [Hok Hpc]. apply Z.ltb_lt in Hbound.
  apply (small_multiple_zero (zprod ps)); [apply zprod_pos; exact Hok| |].
  - apply zprod_divide; auto. intros p Hin.
    rewrite forallb_forall in Hall, Hok. specialize (Hall p Hin). specialize (Hok p Hin).
    apply p_ok_spec in Hok.
    rewrite forallb_forall in Hall. specialize (Hall k ltac:(apply in_seq; lia)).
    rewrite forallb_forall in Hall. specialize (Hall l ltac:(apply in_seq; lia)).
    unfold prod_entry_ok in Hall. apply Uint63.eqb_spec in Hall.
    apply (f_equal phi) in Hall.
    rewrite (addm_spec p Hok), !(mulm_spec p Hok), !(cZ_spec p _ Hok), (psum_spec p Hok),
      (red_spec p Hok) in Hall.
    rewrite <- !Zmult_mod, <- Zplus_mod in Hall. exact Hall.
  - eapply Z.le_lt_trans; [|exact Hbound].
    eapply Z.le_trans; [apply Z.abs_triangle|]. rewrite !Z.abs_mul.
    apply Z.add_le_mono.
    + rewrite <- !Z.mul_assoc. apply Z.mul_le_mono_nonneg_l; [lia|].
      eapply Z.le_trans; [apply zsum_abs|].
      replace (Z.of_nat m * (phi (maxabs d m X) * phi (maxabs m d Y)))%Z
        with (zsum m (fun _ => phi (maxabs d m X) * phi (maxabs m d Y)))%Z
        by (rewrite zsum_const; ring).
      apply zsum_le. intros i Hi.
      destruct (S i); [|pose proof (to_Z_bounded (maxabs d m X)); pose proof (to_Z_bounded (maxabs m d Y)); simpl; nia].
      rewrite Z.abs_mul. apply Z.mul_le_mono_nonneg; try lia.
      * apply maxabs_spec; assumption.
      * apply (maxabs_spec m d Y i l); assumption.
    + apply Z.mul_le_mono_nonneg_l; [lia|]. apply maxabs_spec; assumption.
Qed.

(** ** Instances: a given subset [S], an inverse skip, a nonzero skip *)

Definition Sfun (Sl : list bool) (i : nat) : bool := nth i Sl false.
Definition colsX (C : list (list int)) : nat -> nat -> int := fun k i => nth k (nth i C []) 0%uint63.
Definition rowsX (R : list (list int)) : nat -> nat -> int := fun i l => nth l (nth i R []) 0%uint63.

Definition check_submatrix (d n : nat) (dA dB dT : Z) (RA CB RT : list (list int))
    (Sl : list bool) (ps : list int) : bool :=
  (0 <? dA)%Z && (0 <? dB)%Z && (0 <? dT)%Z &&
  check_prod d n (colsX CB) (rowsX RA) (rowsX RT) (Sfun Sl) dT (dA * dB) ps.

Theorem check_submatrix_sound d n dA dB dT RA CB RT Sl ps :
  check_submatrix d n dA dB dT RA CB RT Sl ps = true ->
  target_eq d n (Sfun Sl) (mat_of_rows dA RA) (mat_of_cols dB CB) (mat_of_rows dT RT).
Proof.
  unfold check_submatrix. intros H k l Hk Hl.
  apply andb_prop in H as [H Hc]. apply andb_prop in H as [H HT].
  apply andb_prop in H as [HA HB]. apply Z.ltb_lt in HA, HB, HT.
  pose proof (check_prod_sound _ _ _ _ _ _ _ _ _ Hc k l Hk Hl) as E.
  unfold colsX, rowsX in E. fold (zentry RT k l) in E.
  apply IZR_lt in HA, HB, HT.
  rewrite subset_sum_Z by lra. unfold mat_of_rows.
  set (z := zsum n (fun i => if Sfun Sl i then zentry CB i k * zentry RA i l else 0)%Z).
  assert (Ez : (dT * z = - (dA * dB * zentry RT k l))%Z).
  { unfold z. unfold zentry in *. lia. }
  apply (f_equal IZR) in Ez. rewrite !mult_IZR, opp_IZR, !mult_IZR in Ez.
  apply (Rmult_eq_reg_l (IZR dT)); [|lra].
  field_simplify; try lra. rewrite Ez. field. lra.
Qed.

Corollary check_submatrix_identity d n dA dB RA CB Sl ps :
  check_submatrix d n dA dB 1 RA CB (id_rows d) Sl ps = true ->
  submatrix_cond d n (Sfun Sl) (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros H k l Hk Hl. rewrite (check_submatrix_sound _ _ _ _ _ _ _ _ _ _ H k l Hk Hl).
  rewrite id_rows_spec by assumption. reflexivity.
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

Corollary check_submatrix_skip d n dA dB dP RA CB RP Sl ps Q :
  check_submatrix d n dA dB dP RA CB RP Sl ps = true ->
  inverse_of d (mat_of_rows dP RP) Q ->
  submatrix_cond d n (Sfun Sl) (mat_of_rows dA RA) (mm d Q (mat_of_cols dB CB)).
Proof.
  intros H HPQ. apply (target_skip_submatrix _ _ _ _ _ _ _ HPQ).
  exact (check_submatrix_sound _ _ _ _ _ _ _ _ _ _ H).
Qed.

Definition check_inverse (d : nat) (dP : Z) (RP : list (list int)) (dQ : Z) (RQ : list (list int))
    (ps : list int) : bool :=
  (0 <? dP)%Z && (0 <? dQ)%Z &&
  check_prod d d (rowsX RP) (rowsX RQ) (rowsX (id_rows d)) (fun _ => true) 1 (- (dP * dQ)) ps &&
  check_prod d d (rowsX RQ) (rowsX RP) (rowsX (id_rows d)) (fun _ => true) 1 (- (dP * dQ)) ps.

Lemma prod_identity d dP RP dQ RQ ps :
  (0 < dP)%Z -> (0 < dQ)%Z ->
  check_prod d d (rowsX RP) (rowsX RQ) (rowsX (id_rows d)) (fun _ => true) 1 (- (dP * dQ)) ps = true ->
  forall k l, (k < d)%nat -> (l < d)%nat ->
  mm d (mat_of_rows dP RP) (mat_of_rows dQ RQ) k l = identity k l.
Proof.
  intros HP HQ H k l Hk Hl.
  pose proof (check_prod_sound _ _ _ _ _ _ _ _ _ H k l Hk Hl) as E.
  rewrite <- (id_rows_spec d k l Hk Hl).
  unfold mm, mat_of_rows. unfold rowsX in E. fold (zentry (id_rows d) k l) in E.
  apply IZR_lt in HP, HQ.
  rewrite (sumn_ext d _ (fun m => IZR (zentry RP k m * zentry RQ m l) / (IZR dP * IZR dQ)))%R
    by (intros; rewrite mult_IZR; field; lra).
  unfold Rdiv. rewrite sumn_scal_r, <- IZR_zsum.
  assert (Ez : zsum d (fun m => zentry RP k m * zentry RQ m l)%Z =
               (dP * dQ * zentry (id_rows d) k l)%Z).
  { unfold zentry in *. lia. }
  rewrite Ez, !mult_IZR. field. lra.
Qed.

Theorem check_inverse_sound d dP RP dQ RQ ps :
  check_inverse d dP RP dQ RQ ps = true ->
  inverse_of d (mat_of_rows dP RP) (mat_of_rows dQ RQ).
Proof.
  unfold check_inverse. intros H.
  apply andb_prop in H as [H H2]. apply andb_prop in H as [H H1].
  apply andb_prop in H as [HP HQ]. apply Z.ltb_lt in HP, HQ.
  intros k l Hk Hl. split.
  - exact (prod_identity d dP RP dQ RQ ps HP HQ H1 k l Hk Hl).
  - rewrite Z.mul_comm in H2. exact (prod_identity d dQ RQ dP RP ps HQ HP H2 k l Hk Hl).
Qed.

Definition check_nonzero (d : nat) (RP : list (list int)) (k l : nat) : bool :=
  Nat.ltb k d && Nat.ltb l d && negb (nth l (nth k RP []) 0%uint63 =? 0)%uint63.

Lemma check_nonzero_sound d dP RP k l :
  check_nonzero d RP k l = true -> (0 < dP)%Z -> nonzero_mat d (mat_of_rows dP RP).
Proof.
  unfold check_nonzero. intros H HP.
  apply andb_prop in H as [H Hz]. apply andb_prop in H as [Hk Hl].
  apply Nat.ltb_lt in Hk, Hl. apply Bool.negb_true_iff in Hz.
  exists k, l. split; [exact Hk|]. split; [exact Hl|].
  unfold mat_of_rows, zentry. apply IZR_lt in HP. intros E.
  assert (E' : IZR (zval (nth l (nth k RP []) 0%uint63)) = 0%R).
  { apply (f_equal (fun x => x * IZR dP)%R) in E. field_simplify in E; lra. }
  apply eq_IZR, zval_zero in E'. rewrite E', Uint63.eqb_refl in Hz. discriminate.
Qed.

Lemma identity_nonzero d : (0 < d)%nat -> nonzero_mat d identity.
Proof.
  intros H. exists 0%nat, 0%nat. split; [exact H|]. split; [exact H|].
  unfold identity. simpl. lra.
Qed.

(** ** Compact literals

    Certificates may write [k] numerators per literal, each in a field of [w]
    bits holding the value plus [2^(w-1)]; [unpack] recovers the list of
    (two's complement) numerators.  This is plumbing for the data only: the
    statements and checkers above are about whatever lists the data denote. *)

Fixpoint unpack_fields (w : int) (k : nat) (x : int) : list int :=
  match k with
  | O => []
  | S k' => ((x land ((1 << w) - 1)) - (1 << (w - 1)))%uint63 :: unpack_fields w k' (x >> w)%uint63
  end.

Definition unpack (w : int) (k len : nat) (l : list int) : list int :=
  firstn len (flat_map (unpack_fields w k) l).

Example unpack_example :
  unpack 4 3 4 [(9 + 16 * 6 + 256 * 8)%uint63; 7%uint63] = [1; 6 - 8; 0; 7 - 8]%uint63.
Proof. vm_compute. reflexivity. Qed.

(** ** Non-vacuity: each checker accepts some data *)

(** The paper's counterexample ([d = 1], [a = (1, 2)], [b = (1, 1)]): no subset,
    shown modulo 7 with both indices free and the functional [Y = 1]. *)
Example nosub_counterexample :
  check_nosub 1 2 1 1 1 [[1]; [2]]%uint63 [[1]; [1]]%uint63 (id_rows 1) 7%uint63 [0; 1]%nat
    [(None, [(0%nat, [1%uint63])])] = true.
Proof. vm_compute. reflexivity. Qed.

Corollary counterexample_no_subset S :
  ~ submatrix_cond 1 2 S (mat_of_rows 1 [[1]; [2]]%uint63) (mat_of_cols 1 [[1]; [1]]%uint63).
Proof. exact (check_nosub_identity _ _ _ _ _ _ _ _ _ nosub_counterexample S). Qed.

Example generic_example :
  generic 2 2 (mat_of_rows 1 [[1; 2]; [3; 1]]%uint63) (mat_of_cols 2 [[1; 0]; [0; 5]]%uint63).
Proof.
  apply (check_generic_sound 2 2 1 2 _ _ 7%uint63 [1; 0]%uint63 [0; 1]%uint63);
    [vm_compute; reflexivity | reflexivity | reflexivity].
Qed.

(** [d = n = 1], [a = 3], [b = -1/3], [S = {0}]. *)
Example submatrix_example :
  submatrix_cond 1 1 (Sfun [true]) (mat_of_rows 1 [[3]]%uint63)
    (mat_of_cols 3 [[9223372036854775807]]%uint63).
Proof.
  apply (check_submatrix_identity _ _ _ _ _ _ _ [7; 11]%uint63). vm_compute. reflexivity.
Qed.

(** [P = 2], [Q = 1/2]. *)
Example inverse_example : inverse_of 1 (mat_of_rows 1 [[2]]%uint63) (mat_of_rows 2 [[1]]%uint63).
Proof. apply (check_inverse_sound _ _ _ _ _ [5; 7]%uint63). vm_compute. reflexivity. Qed.

Example nonzero_example : nonzero_mat 2 (mat_of_rows 4 [[0; 0]; [0; 1]]%uint63).
Proof. apply (check_nonzero_sound 2 4 _ 1 1); [vm_compute; reflexivity | reflexivity]. Qed.
