(** * Integer data of certificates: sums, signed numerators, packed literals

    Finite sums over [Z] ([zsum]) and their link to [Sums.sumn]; concrete
    weights as lists of primitive 63-bit integers ([int]) read as signed
    (two's complement) numerators over a positive denominator ([mat_of_rows],
    [mat_of_cols]); several numerators per literal ([unpack]); literal lists as constructor trees
    ([ints_list]). *)

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

(** [phi] and [zval] as the VM should compute them: [Uint63.to_Z] always walks all 63
    bits; [phi_upto] stops at the value's top bit (a float32 numerator has about 24, a zero
    none), [zval_fast] negates small negative values first.  Certificates decode with
    these ([CertifyWidth.zrows], [CodedData.zcodes]); [phi_fast_spec] and [zval_fast_spec]
    say they are [phi] and [zval]. *)
Fixpoint phi_upto (k : nat) (i : int) : Z :=
  match k with
  | O => 0%Z
  | S k' => if (i =? 0)%uint63 then 0%Z
            else (if is_even i then Z.double else Z.succ_double) (phi_upto k' (i >> 1))
  end.

Definition phi_fast (i : int) : Z := phi_upto size i.

Lemma to_Z_rec_0 k : to_Z_rec k 0 = 0%Z.
Proof. induction k as [|k IH]; [reflexivity|]. simpl. rewrite IH. reflexivity. Qed.

Lemma phi_upto_rec k i : phi_upto k i = to_Z_rec k i.
Proof.
  revert i. induction k as [|k IH]; intros i; [reflexivity|]. simpl.
  destruct (i =? 0)%uint63 eqn:E0.
  - apply eqb_spec in E0. subst i. symmetry. apply (to_Z_rec_0 (S k)).
  - rewrite IH. reflexivity.
Qed.

Lemma phi_fast_spec i : phi_fast i = phi i.
Proof. apply phi_upto_rec. Qed.

Definition zval_fast (u : int) : Z :=
  if (u <? half_int)%uint63 then phi_fast u else Z.opp (phi_fast (0 - u)).

Lemma zval_fast_spec u : zval_fast u = zval u.
Proof.
  unfold zval_fast, zval. rewrite !phi_fast_spec.
  destruct (u <? half_int)%uint63 eqn:E; [reflexivity|].
  assert (H : ~ (phi u < 2 ^ 62)%Z) by (rewrite <- half_int_spec, <- ltb_spec, E; discriminate).
  pose proof (to_Z_bounded u) as B. rewrite wB_eq in B.
  rewrite sub_spec, wB_eq. change (phi 0) with 0%Z.
  rewrite <- (Z.mod_add _ 1) by lia. rewrite Z.mod_small by lia. ring.
Qed.

(** Row-major data ([W_up], skips) and column-major data ([W_down] given by its columns). *)
Definition mat_of_rows (den : Z) (rows : list (list int)) : mat :=
  fun i j => (IZR (zentry rows i j) / IZR den)%R.

Definition mat_of_cols (den : Z) (cols : list (list int)) : mat :=
  fun i j => (IZR (zentry cols j i) / IZR den)%R.

(** A data vector (biases). *)
Definition vec_of (den : Z) (l : list int) : vec :=
  fun i => (IZR (zval (nth i l 0%uint63)) / IZR den)%R.

(** A subset as a list of booleans; entries of row- and column-major data as functions. *)
Definition Sfun (Sl : list bool) (i : nat) : bool := nth i Sl false.
Definition colsX (C : list (list int)) : nat -> nat -> int :=
  fun k i => nth k (nth i C []) 0%uint63.
Definition rowsX (R : list (list int)) : nat -> nat -> int :=
  fun i l => nth l (nth i R []) 0%uint63.

Lemma nth_map_seq {X} (f : nat -> X) n i x : (i < n)%nat -> nth i (map f (seq 0 n)) x = f i.
Proof.
  intros Hi. rewrite (nth_indep _ x (f 0%nat)) by (rewrite map_length, seq_length; exact Hi).
  rewrite map_nth, seq_nth by exact Hi. reflexivity.
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

(** Unsigned fields: [k] values of [w] bits per literal, as they are (codes of
    [CodedData.v]). *)
Fixpoint unpacku_fields (w : int) (k : nat) (x : int) : list int :=
  match k with
  | O => []
  | S k' => (x land ((1 << w) - 1))%uint63 :: unpacku_fields w k' (x >> w)%uint63
  end.

Definition unpacku (w : int) (k len : nat) (l : list int) : list int :=
  firstn len (flat_map (unpacku_fields w k) l).

Example unpacku_example : unpacku 4 3 4 [(9 + 16 * 6 + 256 * 8)%uint63; 7%uint63] =
    [9; 6; 8; 7]%uint63.
Proof. vm_compute. reflexivity. Qed.

(** Literal lists as trees of constructors: [ints32 x0 .. x31 r], [ints8 x0 .. x7 r],
    [ints1 x r], [ints0].  Elaborating one wide application costs about what [c32 x0 ..
    x31 l] of a defined [c32] costs, but the VM compiles a closed tree of constructors to
    one constant, where each literal under a defined function took an entry of its global
    table (about 0.55 s for 172 k literals, the data of one GPT-2-small certificate). *)
Local Unset Elimination Schemes.  (* no induction principles: [ints_list] is all there is *)
Inductive ints : Set :=
| ints0 : ints
| ints1 (x : int) (r : ints)
| ints8 (x0 x1 x2 x3 x4 x5 x6 x7 : int) (r : ints)
| ints32 (x0 x1 x2 x3 x4 x5 x6 x7 x8 x9 x10 x11 x12 x13 x14 x15
         x16 x17 x18 x19 x20 x21 x22 x23 x24 x25 x26 x27 x28 x29 x30 x31 : int) (r : ints).

Fixpoint ints_list (c : ints) : list int :=
  match c with
  | ints0 => []
  | ints1 x r => x :: ints_list r
  | ints8 x0 x1 x2 x3 x4 x5 x6 x7 r => x0 :: x1 :: x2 :: x3 :: x4 :: x5 :: x6 :: x7 :: ints_list r
  | ints32 x0 x1 x2 x3 x4 x5 x6 x7 x8 x9 x10 x11 x12 x13 x14 x15
           x16 x17 x18 x19 x20 x21 x22 x23 x24 x25 x26 x27 x28 x29 x30 x31 r =>
      x0 :: x1 :: x2 :: x3 :: x4 :: x5 :: x6 :: x7 ::
      x8 :: x9 :: x10 :: x11 :: x12 :: x13 :: x14 :: x15 ::
      x16 :: x17 :: x18 :: x19 :: x20 :: x21 :: x22 :: x23 ::
      x24 :: x25 :: x26 :: x27 :: x28 :: x29 :: x30 :: x31 :: ints_list r
  end.

Example ints_list_example :
  ints_list (ints8 1 2 3 4 5 6 7 8 (ints1 9 ints0)) = [1; 2; 3; 4; 5; 6; 7; 8; 9]%uint63.
Proof. reflexivity. Qed.

(** A matrix of [r] rows of length [L] written as one flat list. *)
Fixpoint rows_of (L r : nat) (l : list int) : list (list int) :=
  match r with
  | O => []
  | S r' => firstn L l :: rows_of L r' (skipn L l)
  end.

Example rows_of_example : rows_of 2 2 [1; 2; 3; 4]%uint63 = [[1; 2]; [3; 4]]%uint63.
Proof. reflexivity. Qed.
