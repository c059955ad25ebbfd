(** * Exact integer matrices for certificates

    Concrete weights are lists of integers ([Z]) over a positive common
    denominator: [zmat_rows den rows] (row [i] is the [i]-th list),
    [zmat_cols den cols] (column [j] is the [j]-th list), [zvec den v].
    Missing entries read as [0].  The list tools below are written for
    [vm_compute] (structural recursion, [Z.eqb], no arithmetic on indices
    beyond counting):
    - zero-padded vector and matrix operations ([zvadd], [zvscale], [zouter],
      [zmadd], [zmscale], [zid]) and comparisons ([zzero], [zveqb], [zmeqb]),
      with their entrywise meaning ([nth_zvadd], [zent_zmadd], [zmeqb_sound],
      ...);
    - [hdd]/[tll] (head with default, tail of nil is nil) and the loop
      [all_upto] ("[f i (nth i l)] for every [i < n]", [all_upto_sound]);
    - [pairs_ok] (every pair [i < j]), [pairs_ok_sound];
    - finite sums over lists: [zlsum], [rlsum], and [sumn_nth_list] relating
      [sumn] over indices to a sum over a list.
    Nothing here mentions the paper; the checkers are in the other files of
    this directory. *)

From Coq Require Import Reals ZArith Lia Lra List.
From Absorb Require Import Sums Blocks.
Import ListNotations.
Open Scope bool_scope.

(** ** Representation *)

Definition zmat_rows (den : Z) (rows : list (list Z)) : mat :=
  fun i j => IZR (nth j (nth i rows nil) 0%Z) / IZR den.

Definition zmat_cols (den : Z) (cols : list (list Z)) : mat :=
  fun i j => IZR (nth i (nth j cols nil) 0%Z) / IZR den.

Definition zvec (den : Z) (v : list Z) : vec := fun i => IZR (nth i v 0%Z) / IZR den.

(** Entry [(i, j)] of a list of rows. *)
Definition zent (M : list (list Z)) (i j : nat) : Z := nth j (nth i M nil) 0%Z.

Lemma zmat_rows_zent den M i j : zmat_rows den M i j = IZR (zent M i j) / IZR den.
Proof. reflexivity. Qed.

Lemma zmat_cols_zent den M i j : zmat_cols den M i j = IZR (zent M j i) / IZR den.
Proof. reflexivity. Qed.

(** ** Heads and tails with defaults *)

Definition hdd {A} (l : list A) (x0 : A) : A := match l with [] => x0 | x :: _ => x end.
Definition tll {A} (l : list A) : list A := match l with [] => [] | _ :: l' => l' end.

Lemma nth_hdd {A} (l : list A) x0 : nth 0 l x0 = hdd l x0.
Proof. destruct l; reflexivity. Qed.

Lemma nth_tll {A} (l : list A) i x0 : nth (S i) l x0 = nth i (tll l) x0.
Proof. destruct l as [|x l]; [destruct i|]; reflexivity. Qed.

(** ** Loops over indices *)

(** [f (s + i) (nth i l x0)] for every [i < n]. *)
Fixpoint all_upto {A} (f : nat -> A -> bool) (x0 : A) (s n : nat) (l : list A) : bool :=
  match n with
  | O => true
  | S n' => f s (hdd l x0) && all_upto f x0 (S s) n' (tll l)
  end.

Lemma all_upto_sound {A} (f : nat -> A -> bool) x0 n : forall s l,
  all_upto f x0 s n l = true -> forall i, (i < n)%nat -> f (s + i)%nat (nth i l x0) = true.
Proof.
  induction n as [|n IH]; intros s l H i Hi; [lia|]. simpl in H.
  apply andb_prop in H as [H0 H1]. destruct i as [|i].
  - rewrite Nat.add_0_r, nth_hdd. exact H0.
  - rewrite nth_tll. replace (s + S i)%nat with (S s + i)%nat by lia. apply IH; [exact H1 | lia].
Qed.

Lemma all_upto_sound0 {A} (f : nat -> A -> bool) x0 n l :
  all_upto f x0 0 n l = true -> forall i, (i < n)%nat -> f i (nth i l x0) = true.
Proof. intros H i Hi. exact (all_upto_sound f x0 n 0 l H i Hi). Qed.

(** [f (nth i l) (nth j l)] for every [i < j < length l]. *)
Fixpoint pairs_ok {A} (f : A -> A -> bool) (l : list A) : bool :=
  match l with
  | [] => true
  | x :: l' => forallb (f x) l' && pairs_ok f l'
  end.

Lemma pairs_ok_sound {A} (f : A -> A -> bool) x0 l : pairs_ok f l = true ->
  forall i j, (i < j)%nat -> (j < length l)%nat -> f (nth i l x0) (nth j l x0) = true.
Proof.
  induction l as [|x l IH]; intros H i j Hij Hj; simpl in Hj; [lia|].
  simpl in H. apply andb_prop in H as [Hx Hl]. destruct j as [|j]; [lia|].
  destruct i as [|i]; simpl.
  - rewrite forallb_forall in Hx. apply Hx, nth_In. lia.
  - apply IH; [exact Hl | lia | lia].
Qed.

(** The first [n] elements of [l], padded with [x0]. *)
Fixpoint padl {A} (n : nat) (l : list A) (x0 : A) : list A :=
  match n with O => [] | S n' => hdd l x0 :: padl n' (tll l) x0 end.

Lemma padl_length {A} n (l : list A) x0 : length (padl n l x0) = n.
Proof. revert l. induction n; intros l; simpl; [reflexivity | rewrite IHn; reflexivity]. Qed.

Lemma nth_padl {A} n (l : list A) x0 i : (i < n)%nat -> nth i (padl n l x0) x0 = nth i l x0.
Proof.
  revert l i. induction n as [|n IH]; intros l i Hi; [lia|]. simpl.
  destruct i as [|i]; [rewrite nth_hdd; reflexivity|]. rewrite nth_tll, IH by lia. reflexivity.
Qed.

(** ** Zero-padded vectors *)

Fixpoint zzero (u : list Z) : bool :=
  match u with [] => true | x :: u' => Z.eqb x 0 && zzero u' end.

Fixpoint zveqb (u v : list Z) : bool :=
  match u with
  | [] => zzero v
  | x :: u' => match v with [] => zzero u | y :: v' => Z.eqb x y && zveqb u' v' end
  end.

Fixpoint zvadd (u v : list Z) : list Z :=
  match u with
  | [] => v
  | x :: u' => match v with [] => u | y :: v' => (x + y)%Z :: zvadd u' v' end
  end.

Definition zvscale (c : Z) (v : list Z) : list Z := map (Z.mul c) v.

Lemma zzero_sound u : zzero u = true -> forall p, nth p u 0%Z = 0%Z.
Proof.
  induction u as [|x u IH]; intros H p; [destruct p; reflexivity|]. simpl in H.
  apply andb_prop in H as [Hx Hu].
  destruct p; simpl; [apply Z.eqb_eq; exact Hx | apply IH; exact Hu].
Qed.

Lemma zveqb_sound u : forall v, zveqb u v = true -> forall p, nth p u 0%Z = nth p v 0%Z.
Proof.
  induction u as [|x u IH]; intros v H p.
  - simpl in H. rewrite (zzero_sound v H p). destruct p; reflexivity.
  - destruct v as [|y v].
    + rewrite (zzero_sound (x :: u) H p). destruct p; reflexivity.
    + simpl in H. apply andb_prop in H as [Hx Hu].
      destruct p; simpl; [apply Z.eqb_eq; exact Hx | apply IH; exact Hu].
Qed.

Lemma nth_zvadd u : forall v p, nth p (zvadd u v) 0%Z = (nth p u 0 + nth p v 0)%Z.
Proof.
  induction u as [|x u IH]; intros v p; [destruct p; simpl; lia|].
  destruct v as [|y v]; [destruct p; simpl; lia|]. destruct p; simpl; [reflexivity | apply IH].
Qed.

Lemma nth_zvscale c v p : nth p (zvscale c v) 0%Z = (c * nth p v 0)%Z.
Proof.
  unfold zvscale. revert p. induction v as [|x v IH]; intros p; destruct p; simpl; try lia.
  apply IH.
Qed.

Lemma zvscale_nil c : zvscale c [] = [].
Proof. reflexivity. Qed.

(** ** Zero-padded matrices (lists of rows) *)

Definition zouter (u v : list Z) : list (list Z) := map (fun x => zvscale x v) u.

Fixpoint zmadd (M N : list (list Z)) : list (list Z) :=
  match M with
  | [] => N
  | r :: M' => match N with [] => M | s :: N' => zvadd r s :: zmadd M' N' end
  end.

Definition zmscale (c : Z) (M : list (list Z)) : list (list Z) := map (zvscale c) M.

Fixpoint zmeqb (M N : list (list Z)) : bool :=
  match M with
  | [] => forallb zzero N
  | r :: M' => match N with [] => forallb zzero M | s :: N' => zveqb r s && zmeqb M' N' end
  end.

(** [c] times the [d x d] identity, rows shifted by [s]. *)
Fixpoint zid_from (s d : nat) (c : Z) : list (list Z) :=
  match d with O => [] | S d' => (repeat 0%Z s ++ [c]) :: zid_from (S s) d' c end.

Definition zid (d : nat) (c : Z) : list (list Z) := zid_from 0 d c.

Lemma zent_nil i j : zent [] i j = 0%Z.
Proof. unfold zent. destruct i, j; reflexivity. Qed.

Lemma zent_cons r M i j :
  zent (r :: M) i j = match i with O => nth j r 0%Z | S i' => zent M i' j end.
Proof. destruct i; reflexivity. Qed.

Lemma zent_zouter u v i j : zent (zouter u v) i j = (nth i u 0 * nth j v 0)%Z.
Proof.
  unfold zent, zouter. revert i. induction u as [|x u IH]; intros i.
  - destruct i, j; reflexivity.
  - destruct i; simpl; [apply nth_zvscale | apply IH].
Qed.

Lemma zent_zmadd M : forall N i j, zent (zmadd M N) i j = (zent M i j + zent N i j)%Z.
Proof.
  induction M as [|r M IH]; intros N i j; [rewrite zent_nil; simpl; lia|].
  destruct N as [|s N]; [rewrite zent_nil; simpl; lia|]. simpl zmadd. rewrite !zent_cons.
  destruct i; [apply nth_zvadd | apply IH].
Qed.

Lemma zent_zmscale c M i j : zent (zmscale c M) i j = (c * zent M i j)%Z.
Proof.
  unfold zent, zmscale. rewrite <- nth_zvscale. f_equal.
  rewrite <- (zvscale_nil c) at 1. apply map_nth.
Qed.

Lemma forallb_zzero_zent M : forallb zzero M = true -> forall i j, zent M i j = 0%Z.
Proof.
  intros H i j. unfold zent. destruct (Nat.lt_ge_cases i (length M)) as [Hi|Hi].
  - rewrite forallb_forall in H. apply zzero_sound, H, nth_In, Hi.
  - rewrite (nth_overflow M [] Hi). destruct j; reflexivity.
Qed.

Lemma zmeqb_sound M : forall N, zmeqb M N = true -> forall i j, zent M i j = zent N i j.
Proof.
  induction M as [|r M IH]; intros N H i j.
  - rewrite zent_nil, (forallb_zzero_zent N H). reflexivity.
  - destruct N as [|s N].
    + rewrite zent_nil, (forallb_zzero_zent _ H). reflexivity.
    + simpl in H. apply andb_prop in H as [Hr HM]. rewrite !zent_cons.
      destruct i; [apply zveqb_sound; exact Hr | apply IH; exact HM].
Qed.

Lemma nth_repeat_last s c j :
  nth j (repeat 0%Z s ++ [c]) 0%Z = if Nat.eqb j s then c else 0%Z.
Proof.
  revert j. induction s as [|s IH]; intros j; simpl.
  - destruct j as [|[|j]]; reflexivity.
  - destruct j; simpl; [reflexivity | apply IH].
Qed.

Lemma zent_zid_from d : forall s c i j,
  zent (zid_from s d c) i j = if Nat.ltb i d && Nat.eqb j (s + i) then c else 0%Z.
Proof.
  induction d as [|d IH]; intros s c i j; [rewrite zent_nil; reflexivity|].
  simpl zid_from. rewrite zent_cons. destruct i as [|i].
  - rewrite nth_repeat_last, Nat.add_0_r. reflexivity.
  - rewrite IH. replace (S s + i)%nat with (s + S i)%nat by lia. reflexivity.
Qed.

Lemma zent_zid d c i j : (i < d)%nat -> (j < d)%nat ->
  zent (zid d c) i j = if Nat.eq_dec i j then c else 0%Z.
Proof.
  intros Hi Hj. unfold zid. rewrite zent_zid_from. simpl.
  destruct (Nat.ltb_spec i d); [|lia]. destruct (Nat.eqb_spec j i), (Nat.eq_dec i j); subst;
    simpl; congruence.
Qed.

(** ** Sums over lists *)

Fixpoint zlsum (l : list Z) : Z := match l with [] => 0%Z | x :: l' => (x + zlsum l')%Z end.
Fixpoint rlsum (l : list R) : R := match l with [] => 0%R | x :: l' => (x + rlsum l')%R end.

Lemma sumn_nth_list {A} (l : list A) x0 (F : A -> R) :
  sumn (length l) (fun i => F (nth i l x0)) = rlsum (map F l).
Proof.
  induction l as [|x l IH]; [reflexivity|]. simpl length.
  change (S (length l)) with (1 + length l)%nat. rewrite sumn_add. simpl.
  rewrite IH. ring.
Qed.

Lemma rlsum_IZR {A} (l : list A) (f : A -> Z) :
  rlsum (map (fun x => IZR (f x)) l) = IZR (zlsum (map f l)).
Proof. induction l as [|x l IH]; [reflexivity|]. simpl. rewrite IH, plus_IZR. reflexivity. Qed.

Lemma rlsum_div {A} (l : list A) (F : A -> R) c :
  rlsum (map (fun x => F x / c) l) = rlsum (map F l) / c.
Proof. induction l as [|x l IH]; simpl; [unfold Rdiv; ring | rewrite IH; unfold Rdiv; ring]. Qed.

Lemma rlsum_ext {A} (l : list A) (F G : A -> R) :
  (forall x, In x l -> F x = G x) -> rlsum (map F l) = rlsum (map G l).
Proof.
  induction l as [|x l IH]; intros H; [reflexivity|]. simpl.
  rewrite H by (left; reflexivity). rewrite IH by (intros y Hy; apply H; right; exact Hy).
  reflexivity.
Qed.

Lemma zlsum_filter {A} (l : list A) (h : A -> bool) (g : A -> Z) :
  zlsum (map g (filter h l)) = zlsum (map (fun x => if h x then g x else 0%Z) l).
Proof. induction l as [|x l IH]; [reflexivity|]. simpl. destruct (h x); simpl; rewrite IH; lia. Qed.

(** A sum of vectors, entrywise. *)
Lemma nth_fold_zvadd {A} (l : list A) (g : A -> list Z) p :
  nth p (fold_right (fun x acc => zvadd (g x) acc) [] l) 0%Z =
    zlsum (map (fun x => nth p (g x) 0%Z) l).
Proof.
  induction l as [|x l IH]; [destruct p; reflexivity|]. simpl. rewrite nth_zvadd, IH. reflexivity.
Qed.

(** A sum of matrices, entrywise. *)
Lemma zent_fold_zmadd {A} (l : list A) (g : A -> list (list Z)) i j :
  zent (fold_right (fun x acc => zmadd (g x) acc) [] l) i j =
    zlsum (map (fun x => zent (g x) i j) l).
Proof.
  induction l as [|x l IH]; [apply zent_nil|]. simpl. rewrite zent_zmadd, IH. reflexivity.
Qed.

(** ** Reals from integers *)

Lemma IZR_pos_neq0 z : (0 < z)%Z -> IZR z <> 0%R.
Proof. intros H. apply not_0_IZR. lia. Qed.

Lemma IZR_pos_gt0 z : (0 < z)%Z -> (0 < IZR z)%R.
Proof. intros H. apply IZR_lt. exact H. Qed.

Lemma IZR_div_neq0 x den : (0 < den)%Z -> x <> 0%Z -> (IZR x / IZR den <> 0)%R.
Proof.
  intros Hd Hx E. apply Hx, eq_IZR. unfold Rdiv in E.
  apply Rmult_integral in E as [E|E]; [exact E|].
  exfalso. exact (Rinv_neq_0_compat _ (IZR_pos_neq0 den Hd) E).
Qed.

Lemma IZR_div_inj x y den : (0 < den)%Z -> (IZR x / IZR den = IZR y / IZR den)%R -> x = y.
Proof.
  intros Hd E. apply eq_IZR. pose proof (IZR_pos_neq0 den Hd).
  apply (Rmult_eq_reg_r (/ IZR den)); [exact E | apply Rinv_neq_0_compat; assumption].
Qed.

(** ** Sums of outer products by dot products

    [outer_sum d us vs] has entry [(p, q)] equal to
    [sum_l us_l[p] vs_l[q]] for [p, q < d]; it transposes [us] and [vs] once
    and takes [d^2] dot products, without building the outer products. *)

Fixpoint zdot (u v : list Z) : Z :=
  match u, v with x :: u', y :: v' => (x * y + zdot u' v')%Z | _, _ => 0%Z end.

(** The first [d] columns of a list of rows, as lists. *)
Fixpoint transp (d : nat) (rows : list (list Z)) : list (list Z) :=
  match d with O => [] | S d' => map (fun r => hdd r 0%Z) rows :: transp d' (map tll rows) end.

Definition outer_sum (d : nat) (us vs : list (list Z)) : list (list Z) :=
  let vt := transp d vs in map (fun c => map (zdot c) vt) (transp d us).

Lemma transp_length d : forall rows, length (transp d rows) = d.
Proof. induction d; intros rows; simpl; [reflexivity | rewrite IHd; reflexivity]. Qed.

Lemma nth_transp d : forall rows p, (p < d)%nat ->
  nth p (transp d rows) [] = map (fun r => nth p r 0%Z) rows.
Proof.
  induction d as [|d IH]; intros rows p Hp; [lia|]. destruct p as [|p]; simpl.
  - apply map_ext. intros r. rewrite nth_hdd. reflexivity.
  - rewrite IH by lia. rewrite map_map. apply map_ext. intros r. rewrite nth_tll. reflexivity.
Qed.

Lemma zdot_map {A} (l : list A) (a b : A -> Z) :
  zdot (map a l) (map b l) = zlsum (map (fun x => (a x * b x)%Z) l).
Proof. induction l as [|x l IH]; [reflexivity|]. simpl. rewrite IH. reflexivity. Qed.

Lemma nth_map_lt {A B} (F : A -> B) (l : list A) p a0 b0 : (p < length l)%nat ->
  nth p (map F l) b0 = F (nth p l a0).
Proof.
  intros Hp. rewrite (nth_indep _ b0 (F a0)) by (rewrite map_length; exact Hp). apply map_nth.
Qed.

Lemma zent_outer_sum {A} d (l : list A) (f g : A -> list Z) p q : (p < d)%nat -> (q < d)%nat ->
  zent (outer_sum d (map f l) (map g l)) p q =
    zlsum (map (fun x => (nth p (f x) 0 * nth q (g x) 0)%Z) l).
Proof.
  intros Hp Hq. unfold zent, outer_sum.
  rewrite (nth_map_lt _ _ p []) by (rewrite transp_length; exact Hp).
  rewrite (nth_map_lt _ _ q []) by (rewrite transp_length; exact Hq).
  rewrite !nth_transp by assumption. rewrite !map_map. apply zdot_map.
Qed.
