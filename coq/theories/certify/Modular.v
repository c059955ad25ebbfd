(** * Arithmetic modulo a prime on primitive integers, and exact identities through several primes

    [mulm], [addm], [subm], [red] compute modulo [p < 2^31] without overflow
    (specified against [Z]); [mdot] is a dot product mod [p], and [dot_raw] one without
    reductions for [p < 2^21] ([dot_raw_mdot]). [check_prod] shows an
    exact integer identity [c1 * sum_(i in S) X k i * Y i l + c2 * T k l = 0] from its
    vanishing modulo pairwise coprime numbers whose product exceeds a size bound. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63 Znumtheory.
From Absorb Require Import Sums Blocks IntSums.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

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

Lemma mulm_spec (p : int) (Hp : (1 < phi p < 2 ^ 31)%Z) x y : phi (mulm p x y) =
    ((phi x * phi y) mod phi p)%Z.
Proof.
  unfold mulm. rewrite mod_spec, mul_spec, wB_eq.
  pose proof (modp_small p Hp x). pose proof (modp_small p Hp y).
  rewrite (Z.mod_small (_ * _)) by nia. rewrite !mod_spec.
  rewrite <- Z.mul_mod by lia. reflexivity.
Qed.

Lemma addm_spec (p : int) (Hp : (1 < phi p < 2 ^ 31)%Z) x y : phi (addm p x y) =
    ((phi x + phi y) mod phi p)%Z.
Proof.
  unfold addm. rewrite mod_spec, add_spec, wB_eq.
  pose proof (modp_small p Hp x). pose proof (modp_small p Hp y).
  rewrite (Z.mod_small (_ + _)) by lia. rewrite !mod_spec.
  rewrite <- Z.add_mod by lia. reflexivity.
Qed.

Lemma subm_spec (p : int) (Hp : (1 < phi p < 2 ^ 31)%Z) x y : phi (subm p x y) =
    ((phi x - phi y) mod phi p)%Z.
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

Lemma mod_lt (p : int) (Hp : (1 < phi p < 2 ^ 31)%Z) x : (phi x < phi p)%Z ->
    (phi x mod phi p = phi x)%Z.
Proof. intros. apply Z.mod_small. pose proof (to_Z_bounded x). lia. Qed.


(** [cZ p z]: the residue of an integer [z] as a primitive integer. *)
Definition cZ (p : int) (z : Z) : int := Uint63.of_Z (z mod phi p).

Lemma cZ_spec p z : (1 < phi p < 2 ^ 31)%Z -> phi (cZ p z) = (z mod phi p)%Z.
Proof.
  intros Hp. unfold cZ. rewrite of_Z_spec, wB_eq.
  pose proof (Z.mod_pos_bound z (phi p) ltac:(lia)). apply Z.mod_small. lia.
Qed.

(** ** Dot products of a certificate vector with a data row *)

(** Fused: one reduction per term ([x mod p < 2^31], [red p y < 2^31], so
    [x * y + acc < 2^63] does not overflow). *)
Fixpoint mdot_acc (p : int) (u v : list int) (acc : int) : int :=
  match u, v with
  | x :: u', y :: v' => mdot_acc p u' v' (((x mod p) * red p y + acc) mod p)%uint63
  | _, _ => acc
  end.

Definition mdot (p : int) (u v : list int) : int := mdot_acc p u v 0%uint63.

Lemma zsum_nth_nil d (f : nat -> Z) :
  zsum d (fun l => f l * zval (nth l (@nil int) 0%uint63))%Z = 0%Z.
Proof.
  rewrite (zsum_ext d _ (fun _ => 0%Z)); [apply zsum_zero|].
  intros l _. destruct l; simpl; rewrite zval_0; ring.
Qed.

Lemma mdot_acc_spec p (Hp : (1 < phi p < 2 ^ 31)%Z) u : forall v acc, (phi acc < phi p)%Z ->
  phi (mdot_acc p u v acc) =
  ((phi acc + zsum (length u) (fun l => phi (nth l u 0%uint63) * zval (nth l v 0%uint63)))
    mod phi p)%Z.
Proof.
  induction u as [|x u IH]; intros v acc Hacc; pose proof (to_Z_bounded acc) as Ba.
  - simpl. rewrite Z.add_0_r, Z.mod_small; lia.
  - destruct v as [|y v].
    + simpl mdot_acc. simpl length. rewrite zsum_nth_nil, Z.add_0_r, Z.mod_small; lia.
    + simpl mdot_acc.
      pose proof (modp_small p Hp x) as Bx.
      pose proof (red_spec p Hp y) as Ry.
      pose proof (Z.mod_pos_bound (zval y) (phi p) ltac:(lia)) as By.
      assert (Hacc' : (phi (((x mod p) * red p y + acc) mod p)%uint63 < phi p)%Z)
        by (rewrite mod_spec; apply Z.mod_pos_bound; lia).
      rewrite (IH v _ Hacc'). simpl length. rewrite zsum_shift. simpl nth.
      rewrite mod_spec, add_spec, mul_spec, wB_eq, Ry.
      rewrite (Z.mod_small (phi (x mod p)%uint63 * _)) by nia.
      rewrite (Z.mod_small (_ + phi acc)) by nia.
      rewrite mod_spec, Zplus_mod_idemp_l.
      set (Z0 := zsum (length u) _).
      replace (phi acc + (phi x * zval y + Z0))%Z with (phi x * zval y + phi acc + Z0)%Z by ring.
      rewrite <- (Zplus_mod_idemp_l (phi x mod phi p * _ + phi acc)),
        <- (Zplus_mod_idemp_l (phi x * zval y + phi acc)).
      rewrite <- (Zplus_mod_idemp_l (phi x mod phi p * _)), <- (Zplus_mod_idemp_l (phi x * zval y)).
      rewrite <- Zmult_mod. reflexivity.
Qed.

Lemma mdot_spec p (Hp : (1 < phi p < 2 ^ 31)%Z) u : forall v d, length u = d ->
  phi (mdot p u v) =
  (zsum d (fun l => phi (nth l u 0%uint63) * zval (nth l v 0%uint63)) mod phi p)%Z.
Proof.
  intros v d Hd. unfold mdot.
  rewrite (mdot_acc_spec p Hp u v 0%uint63) by (change (phi 0) with 0%Z; lia).
  subst d. reflexivity.
Qed.

(** ** Dot products without reductions, for small moduli

    [dot_seq u v acc] adds the products with 63-bit wrap-around
    ([dot_seq_spec]); [dot_raw] is the same loop unrolled by four
    ([dot_raw_seq]).  With [p < 2^21], [u] and [v] reduced mod [p] and fewer
    than [2^21] terms, nothing wraps, and one final reduction gives [mdot]
    ([dot_raw_mdot]). *)

Fixpoint dot_seq (u v : list int) (acc : int) : int :=
  match u, v with
  | x :: u', y :: v' => dot_seq u' v' (acc + x * y)%uint63
  | _, _ => acc
  end.

Fixpoint dot_raw (u v : list int) (acc : int) : int :=
  match u, v with
  | x1 :: x2 :: x3 :: x4 :: u', y1 :: y2 :: y3 :: y4 :: v' =>
      dot_raw u' v' (acc + x1 * y1 + x2 * y2 + x3 * y3 + x4 * y4)%uint63
  | x :: u', y :: v' => dot_raw u' v' (acc + x * y)%uint63
  | _, _ => acc
  end.

Lemma dot_raw_four x1 x2 x3 x4 u y1 y2 y3 y4 v acc :
  dot_raw (x1 :: x2 :: x3 :: x4 :: u) (y1 :: y2 :: y3 :: y4 :: v) acc =
  dot_raw u v (acc + x1 * y1 + x2 * y2 + x3 * y3 + x4 * y4)%uint63.
Proof. reflexivity. Qed.

Lemma dot_raw_one x u y v acc : (length u < 3 \/ length v < 3)%nat ->
  dot_raw (x :: u) (y :: v) acc = dot_raw u v (acc + x * y)%uint63.
Proof.
  intros H. destruct u as [|x2 [|x3 [|x4 u]]]; try reflexivity.
  destruct v as [|y2 [|y3 [|y4 v]]]; try reflexivity. simpl in H. lia.
Qed.

Lemma dot_raw_nil_r u acc : dot_raw u [] acc = acc.
Proof. destruct u as [|x1 [|x2 [|x3 [|x4 u]]]]; reflexivity. Qed.

Lemma dot_raw_seq_le m : forall u v acc, (length u <= m)%nat -> dot_raw u v acc = dot_seq u v acc.
Proof.
  induction m as [|m IH]; intros u v acc Hl.
  - destruct u; [destruct v; reflexivity | simpl in Hl; lia].
  - destruct u as [|x1 u]; [destruct v; reflexivity|].
    destruct v as [|y1 v]; [apply dot_raw_nil_r|].
    destruct (Nat.lt_ge_cases (length u) 3) as [Hu|Hu];
      [|destruct (Nat.lt_ge_cases (length v) 3) as [Hv|Hv]].
    + rewrite dot_raw_one by lia. cbn [dot_seq]. apply IH. simpl in Hl. lia.
    + rewrite dot_raw_one by lia. cbn [dot_seq]. apply IH. simpl in Hl. lia.
    + destruct u as [|x2 [|x3 [|x4 u]]]; simpl in Hu; try lia.
      destruct v as [|y2 [|y3 [|y4 v]]]; simpl in Hv; try lia.
      rewrite dot_raw_four. cbn [dot_seq]. apply IH. simpl in Hl. lia.
Qed.

Lemma dot_raw_seq u v acc : dot_raw u v acc = dot_seq u v acc.
Proof. apply (dot_raw_seq_le (length u)). lia. Qed.

Lemma dot_seq_spec u : forall v acc,
  phi (dot_seq u v acc) =
  ((phi acc + zsum (length u) (fun l => phi (nth l u 0%uint63) * phi (nth l v 0%uint63)))
     mod 2 ^ 63)%Z.
Proof.
  induction u as [|x u IH]; intros v acc; pose proof (to_Z_bounded acc) as Ba; rewrite wB_eq in Ba.
  - simpl. rewrite Z.add_0_r, Z.mod_small; lia.
  - destruct v as [|y v].
    + simpl dot_seq. simpl length.
      rewrite (zsum_ext _ _ (fun _ => 0%Z))
        by (intros l _; destruct l; simpl; change (phi 0) with 0%Z; ring).
      rewrite zsum_zero, Z.add_0_r, Z.mod_small; lia.
    + simpl dot_seq. rewrite IH, add_spec, mul_spec, wB_eq. simpl length. rewrite zsum_shift.
      simpl nth. rewrite Zplus_mod_idemp_r, Zplus_mod_idemp_l. f_equal. ring.
Qed.

Lemma mod0_int p : (0 mod p)%uint63 = 0%uint63.
Proof. apply to_Z_inj. rewrite mod_spec. apply Zmod_0_l. Qed.

Lemma red0 p : red p 0 = 0%uint63.
Proof. unfold red. simpl. apply mod0_int. Qed.

Lemma nth_map0 (f : int -> int) (l : list int) k : f 0%uint63 = 0%uint63 ->
  nth k (map f l) 0%uint63 = f (nth k l 0%uint63).
Proof. intros H. rewrite <- H at 1. apply map_nth. Qed.

Lemma zsum_bounds n (f : nat -> Z) (K : Z) : (forall l, (l < n)%nat -> 0 <= f l <= K)%Z ->
  (0 <= zsum n f <= Z.of_nat n * K)%Z.
Proof.
  intros H. split.
  - rewrite <- (zsum_zero n). apply zsum_le. intros l Hl. apply H. exact Hl.
  - rewrite <- zsum_const. apply zsum_le. intros l Hl. apply H. exact Hl.
Qed.

Lemma dot_raw_mdot p (yr a : list int) : (1 < phi p < 2 ^ 21)%Z ->
    (Z.of_nat (length yr) < 2 ^ 21)%Z ->
  (phi (dot_raw (map (fun y => (y mod p)%uint63) yr) (map (red p) a) 0) mod phi p)%Z =
    phi (mdot p yr a).
Proof.
  intros Hp Hl. assert (Hp' : (1 < phi p < 2 ^ 31)%Z) by lia.
  rewrite (mdot_spec p Hp' yr a (length yr) eq_refl), dot_raw_seq, dot_seq_spec, map_length.
  change (phi 0) with 0%Z. rewrite Z.add_0_l.
  set (f := fun l => (phi (nth l (map (fun y => (y mod p)%uint63) yr) 0%uint63) *
                      phi (nth l (map (red p) a) 0%uint63))%Z).
  assert (Hf : forall l, (l < length yr)%nat -> (0 <= f l <= (phi p - 1) * (phi p - 1))%Z).
  { intros l _. unfold f. rewrite !nth_map0 by (apply mod0_int || apply red0).
    pose proof (modp_small p Hp' (nth l yr 0%uint63)).
    rewrite (red_spec p Hp').
    pose proof (Z.mod_pos_bound (zval (nth l a 0%uint63)) (phi p) ltac:(lia)).
    nia. }
  pose proof (zsum_bounds _ f _ Hf) as [B0 B1].
  rewrite (Z.mod_small (zsum _ f)) by nia.
  rewrite zsum_mod, (zsum_mod (length yr) (fun l => _ * _)%Z). f_equal. apply zsum_ext.
  intros l _. unfold f. rewrite !nth_map0 by (apply mod0_int || apply red0).
  rewrite mod_spec, (red_spec p Hp'), <- Zmult_mod. reflexivity.
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
      destruct (S i);
        [|pose proof (to_Z_bounded (maxabs d m X)); pose proof (to_Z_bounded (maxabs m d Y));
          simpl; nia].
      rewrite Z.abs_mul. apply Z.mul_le_mono_nonneg; try lia.
      * apply maxabs_spec; assumption.
      * apply (maxabs_spec m d Y i l); assumption.
    + apply Z.mul_le_mono_nonneg_l; [lia|]. apply maxabs_spec; assumption.
Qed.
