(** * Refuting R8's width condition at [m = k + 1] by linear functionals

    At width [k + 1], R8's condition ([RidgeForm.width_condition]) forces
    [r = 0] and [|T| <= 1]: some [S] has [M_S := L + sum_(t in S) g_t u_t^T]
    equal to [0] or to [e u_(t0)^T] for a class [t0] and a vector [e].  On a
    block (rows [l < r1], columns [j < c]) both say that [M_S] has proportional
    columns along [u_(t0)] ([N l j * u_(t0) j' = N l j' * u_(t0) j] for the
    integer matrix [N] of [M_S]).  A functional [y = sum_m a_m Y_m] made of
    basis functionals [Y_m] that kill every [g_t u_t^T] mod [p], with
    [y u_(t0) = 0] mod [p] and [u_(t0) jj * <y, L> <> 0] mod [p], refutes that
    ([core_refute]): [u_(t0) jj <y, N>] is [0] mod [p] by proportionality and
    [<y, L>] times it by the kills.  No inverse mod [p] is needed, so [p] need
    not be prime.

    [check_refute] computes, per class [t], the values [Y_m u_t] once and checks
    the kills, the combination [a_t] and the nonzero value;
    [check_refute_sound] states the result for any integer data congruent mod
    [p] to what it read, over the reals ([block_identity_false]). *)

From Coq Require Import Reals ZArith Lia Lra List Uint63.
From Absorb Require Import Sums IntSums Modular CheckNoSubset.
From Absorb.decide Require Import RidgeForm.
Import ListNotations.
Open Scope bool_scope.
Open Scope Z_scope.

Local Notation phi := Uint63.to_Z.

(** ** The core, over the integers *)

Lemma zsum_mod0 (P : Z) n f : (forall i, (i < n)%nat -> f i mod P = 0)%Z -> (zsum n f mod P = 0)%Z.
Proof.
  intros H. rewrite zsum_mod, (zsum_ext n _ (fun _ => 0%Z)) by exact H.
  rewrite zsum_zero. apply Zmod_0_l.
Qed.

Lemma zsum_mul_r n f x : (zsum n f * x = zsum n (fun i => f i * x))%Z.
Proof. rewrite Z.mul_comm, <- zsum_scal. apply zsum_ext. intros i _. ring. Qed.

Lemma zsum_pull n s (a : nat -> Z) (F : nat -> nat -> Z) :
  (zsum n (fun i => zsum s (fun m => a m * F m i)) = zsum s (fun m => a m * zsum n (F m)))%Z.
Proof.
  rewrite zsum_swap. apply zsum_ext. intros m _. rewrite <- zsum_scal. reflexivity.
Qed.

Lemma zsum_lin c s (a : nat -> Z) (Y : nat -> nat -> Z) (w : nat -> Z) :
  (zsum c (fun j => zsum s (fun m => a m * Y m j) * w j) =
   zsum s (fun m => a m * zsum c (fun j => Y m j * w j)))%Z.
Proof.
  rewrite <- zsum_pull. apply zsum_ext. intros j _. rewrite zsum_mul_r.
  apply zsum_ext. intros m _. ring.
Qed.

Section Core.

Variables (P : Z) (r1 c k s : nat).
Variables (eU eG eL : nat -> nat -> Z) (Y : nat -> nat -> nat -> Z) (a : nat -> Z).
Variables (N : nat -> nat -> Z) (S : nat -> bool) (cL cS : Z) (t0 jj : nat).

Variable HP : (0 < P)%Z.
Variable HN : forall l j, (l < r1)%nat -> (j < c)%nat ->
  N l j = (cL * eL l j + cS * zsum k (fun t => if S t then eG t l * eU t j else 0))%Z.
Variable Hprop : forall l j j', (l < r1)%nat -> (j < c)%nat -> (j' < c)%nat ->
  (N l j * eU t0 j' = N l j' * eU t0 j)%Z.
Variable Hkill : forall m t, (m < s)%nat -> (t < k)%nat ->
  (zsum r1 (fun l => eG t l * zsum c (fun j => Y m l j * eU t j)) mod P = 0)%Z.
Variable Hcomb : forall l, (l < r1)%nat ->
  (zsum s (fun m => a m * zsum c (fun j => Y m l j * eU t0 j)) mod P = 0)%Z.
Variable Hjj : (jj < c)%nat.

Let y l j := zsum s (fun m => a m * Y m l j).
Let X := zsum r1 (fun l => zsum c (fun j => y l j * N l j)).

Lemma core_times_u : ((eU t0 jj * X) mod P = 0)%Z.
Proof.
  unfold X. rewrite <- zsum_scal. apply zsum_mod0. intros l Hl.
  rewrite <- zsum_scal.
  rewrite (zsum_ext c _ (fun j => N l jj * (y l j * eU t0 j))%Z).
  - rewrite zsum_scal. unfold y. rewrite zsum_lin.
    rewrite Zmult_mod, (Hcomb l Hl), Z.mul_0_r. apply Zmod_0_l.
  - intros j Hj. transitivity (y l j * (N l jj * eU t0 j)); [|ring].
    rewrite <- (Hprop l j jj Hl Hj Hjj). ring.
Qed.

Lemma core_value :
  (X mod P = (cL * zsum s (fun m => a m * zsum r1 (fun l => zsum c (fun j => Y m l j * eL l j))))
               mod P)%Z.
Proof.
  assert (E : X = (cL * zsum s (fun m => a m *
                     zsum r1 (fun l => zsum c (fun j => Y m l j * eL l j)))
                   + cS * zsum s (fun m => a m * zsum k (fun t => if S t then
                       zsum r1 (fun l => eG t l * zsum c (fun j => Y m l j * eU t j)) else 0)))%Z).
  { unfold X.
    rewrite (zsum_ext r1 _ (fun l => cL * zsum c (fun j => y l j * eL l j)
               + cS * zsum c (fun j => y l j *
                   zsum k (fun t => if S t then eG t l * eU t j else 0)))%Z).
    2:{ intros l Hl. rewrite <- !zsum_scal, <- zsum_plus. apply zsum_ext. intros j Hj.
        rewrite (HN l j Hl Hj). ring. }
    rewrite zsum_plus, !zsum_scal. f_equal; f_equal.
    - unfold y. rewrite (zsum_ext r1 _ (fun l => zsum s (fun m => a m *
          zsum c (fun j => Y m l j * eL l j)))) by (intros l _; apply zsum_lin).
      apply zsum_pull.
    - unfold y. rewrite (zsum_ext r1 _ (fun l => zsum s (fun m => a m * zsum c (fun j => Y m l j *
          zsum k (fun t => if S t then eG t l * eU t j else 0))))) by (intros l _; apply zsum_lin).
      rewrite zsum_pull. apply zsum_ext. intros m _. f_equal.
      rewrite (zsum_ext r1 _ (fun l => zsum k (fun t => if S t then
                 eG t l * zsum c (fun j => Y m l j * eU t j) else 0))).
      + rewrite zsum_swap. apply zsum_ext. intros t _. destruct (S t); [reflexivity|].
        apply zsum_zero.
      + intros l _. rewrite (zsum_ext c _ (fun j => zsum k (fun t => if S t then
                 eG t l * (Y m l j * eU t j) else 0))).
        * rewrite zsum_swap. apply zsum_ext. intros t _. destruct (S t); [|apply zsum_zero].
          apply zsum_scal.
        * intros j _. rewrite Z.mul_comm, zsum_mul_r. apply zsum_ext. intros t _.
          destruct (S t); ring. }
  rewrite E, Zplus_mod.
  rewrite (Zmult_mod cS), (zsum_mod0 P s (fun m => a m * _)%Z), Z.mul_0_r, Zmod_0_l, Z.add_0_r.
  - apply Zmod_mod.
  - intros m Hm. rewrite Zmult_mod, (zsum_mod0 P k), Z.mul_0_r; [apply Zmod_0_l|].
    intros t Ht. destruct (S t); [exact (Hkill m t Hm Ht) | apply Zmod_0_l].
Qed.

Theorem core_refute :
  ((eU t0 jj * cL * zsum s (fun m => a m * zsum r1 (fun l => zsum c (fun j => Y m l j * eL l j))))
     mod P <> 0)%Z -> False.
Proof.
  intros Hnz. apply Hnz. rewrite <- Z.mul_assoc, Zmult_mod, <- core_value, <- Zmult_mod.
  exact core_times_u.
Qed.

End Core.

(** ** The checker *)

(** [Y u] for one functional (rows of [Y] against [u]), mod [p]. *)
Definition fvals (p : int) (Y : list (list int)) (u : list int) : list int :=
  map (fun yr => mdot p yr u) Y.

Definition col_at (V : list (list int)) (l : nat) : list int := map (fun v => nth l v 0%uint63) V.

(** [<Y, M>] mod [p] (rows against rows). *)
Fixpoint mdot2 (p : int) (Y M : list (list int)) : int :=
  match Y, M with
  | y :: Y', m :: M' => addm p (mdot p y m) (mdot2 p Y' M')
  | _, _ => 0%uint63
  end.

(** The residue of the first entry that is nonzero mod [p] ([0] if none). *)
Fixpoint pick (p : int) (u : list int) : int :=
  match u with
  | [] => 0%uint63
  | x :: u' => if (red p x =? 0)%uint63 then pick p u' else red p x
  end.

Definition class_ok (p cL : int) (r1 c : nat) (Ys : list (list (list int))) (ls u g a : list int)
  : bool :=
  let V := map (fun Y => fvals p Y u) Ys in
  Nat.eqb (length u) c && Nat.eqb (length a) (length Ys) &&
  forallb (fun v => (mdot p v g =? 0)%uint63) V &&
  forallb (fun l => (mdot p a (col_at V l) =? 0)%uint63) (seq 0 r1) &&
  negb (mulm p (mulm p (pick p u) cL) (mdot p a ls) =? 0)%uint63.

Fixpoint classes_ok (p cL : int) (r1 c : nat) (Ys : list (list (list int))) (ls : list int)
    (RU CG As : list (list int)) : bool :=
  match RU, CG, As with
  | u :: RU', g :: CG', a :: As' =>
      class_ok p cL r1 c Ys ls u g a && classes_ok p cL r1 c Ys ls RU' CG' As'
  | [], [], [] => true
  | _, _, _ => false
  end.

Definition shape_ok (r1 c : nat) (Y : list (list int)) : bool :=
  Nat.eqb (length Y) r1 && forallb (fun yr => Nat.eqb (length yr) c) Y.

(** [RU]: the [k] directions on the block's columns; [CG]: the [k] kink vectors on
    its rows; [RL]: the linear part on the block; [cL]: the scale of [L] in [N];
    [Ys]: the basis functionals ([r1] rows of [c] residues); [As]: one
    combination per class. *)
Definition check_refute (r1 c k : nat) (p cL : int) (Ys : list (list (list int)))
    (As RU CG RL : list (list int)) : bool :=
  p_ok p && Nat.ltb 0 k && Nat.eqb (length RU) k && forallb (shape_ok r1 c) Ys &&
  let ls := map (fun Y => mdot2 p Y RL) Ys in
  classes_ok p cL r1 c Ys ls RU CG As.

(** ** Soundness of the pieces *)

Lemma nth_map_d {X Z} (f : X -> Z) l x z i : f x = z -> nth i (map f l) z = f (nth i l x).
Proof. intros <-. apply map_nth. Qed.

Lemma classes_ok_nth p cL r1 c Ys ls RU : forall CG As,
  classes_ok p cL r1 c Ys ls RU CG As = true ->
  forall t, (t < length RU)%nat ->
  class_ok p cL r1 c Ys ls (nth t RU []) (nth t CG []) (nth t As []) = true.
Proof.
  induction RU as [|u RU IH]; intros CG As H t Ht; [simpl in Ht; lia|].
  destruct CG as [|g CG]; [discriminate|]. destruct As as [|a As]; [discriminate|].
  simpl in H. apply andb_prop in H as [H1 H2]. destruct t as [|t]; [exact H1|].
  simpl. apply IH; [exact H2 | simpl in Ht; lia].
Qed.

Lemma zval_phi_small (x : int) (P : Z) : (P < 2 ^ 31)%Z -> (phi x < P)%Z -> zval x = phi x.
Proof.
  intros H1 H2. unfold zval. destruct (x <? half_int)%uint63 eqn:E; [reflexivity|].
  exfalso. rewrite <- Bool.not_true_iff_false in E. apply E. apply ltb_spec.
  rewrite half_int_spec. lia.
Qed.

Lemma mdot_bound p (Hp : (1 < phi p < 2 ^ 31)%Z) u v : (phi (mdot p u v) < phi p)%Z.
Proof.
  rewrite (mdot_spec p Hp u v (length u) eq_refl). apply Z.mod_pos_bound. lia.
Qed.

Lemma mdot2_spec p (Hp : (1 < phi p < 2 ^ 31)%Z) c Y : forall M,
  forallb (fun yr => Nat.eqb (length yr) c) Y = true ->
  phi (mdot2 p Y M) = (zsum (length Y) (fun l => zsum c (fun j =>
    phi (nth j (nth l Y []) 0%uint63) * zval (nth j (nth l M []) 0%uint63))) mod phi p)%Z.
Proof.
  induction Y as [|y Y IH]; intros M Hs; [reflexivity|].
  simpl in Hs. apply andb_prop in Hs as [Hy Hs]. apply Nat.eqb_eq in Hy.
  destruct M as [|m M].
  - simpl mdot2. rewrite zsum_mod, (zsum_ext _ _ (fun _ => 0%Z)); [rewrite zsum_zero; reflexivity|].
    intros l _. rewrite (zsum_ext c _ (fun _ => 0%Z)); [rewrite zsum_zero; reflexivity|].
    intros j _. destruct l, j; simpl; rewrite zval_0; ring.
  - simpl mdot2. rewrite (addm_spec p Hp), (IH M Hs), (mdot_spec p Hp y m c Hy).
    rewrite <- Zplus_mod. simpl length. rewrite zsum_shift. f_equal.
Qed.

Lemma mdot2_bound p (Hp : (1 < phi p < 2 ^ 31)%Z) Y M : (phi (mdot2 p Y M) < phi p)%Z.
Proof.
  destruct Y as [|y Y]; [simpl; change (phi 0%uint63) with 0; lia|].
  destruct M as [|m M]; [simpl; change (phi 0%uint63) with 0; lia|].
  simpl. rewrite (addm_spec p Hp). apply Z.mod_pos_bound. lia.
Qed.

Lemma pick_spec p (Hp : (1 < phi p < 2 ^ 31)%Z) u : phi (pick p u) <> 0%Z ->
  exists jj, (jj < length u)%nat /\ phi (pick p u) = (zval (nth jj u 0%uint63) mod phi p)%Z.
Proof.
  induction u as [|x u IH]; simpl; intros H; [contradiction|].
  destruct (red p x =? 0)%uint63 eqn:E.
  - destruct (IH H) as [jj [Hj Ej]]. exists (S jj). split; [lia | exact Ej].
  - exists O. split; [lia|]. apply red_spec. exact Hp.
Qed.

(** ** Soundness: the core's hypotheses from the checker *)

Section Sound.

Variables (r1 c k : nat) (p cL : int) (Ys : list (list (list int))) (As RU CG RL : list (list int)).
Variables (eU eG eL : nat -> nat -> Z) (cLZ : Z).

Variable Hchk : check_refute r1 c k p cL Ys As RU CG RL = true.
Variable CU : congr (phi p) (zentry RU) eU.
Variable CG' : congr (phi p) (zentry CG) eG.
Variable CL : congr (phi p) (zentry RL) eL.
Variable HcL : (phi cL mod phi p = cLZ mod phi p)%Z.

Let s := length Ys.
Let Yz m l j := phi (nth j (nth l (nth m Ys []) []) 0%uint63).
Let az t m := phi (nth m (nth t As []) 0%uint63).

Lemma check_parts : (1 < phi p < 2 ^ 31)%Z /\ (0 < k)%nat /\ length RU = k /\
  (forall m, (m < s)%nat -> shape_ok r1 c (nth m Ys []) = true) /\
  forall t, (t < k)%nat -> class_ok p cL r1 c Ys (map (fun Y => mdot2 p Y RL) Ys)
                             (nth t RU []) (nth t CG []) (nth t As []) = true.
Proof.
  unfold check_refute in Hchk. cbv zeta in Hchk.
  apply andb_prop in Hchk as [H Hcl]. apply andb_prop in H as [H Hsh].
  apply andb_prop in H as [H Hlen]. apply andb_prop in H as [Hp Hk].
  apply p_ok_spec in Hp. apply Nat.ltb_lt in Hk. apply Nat.eqb_eq in Hlen.
  rewrite forallb_forall in Hsh.
  split; [exact Hp|]. split; [exact Hk|]. split; [exact Hlen|]. split.
  - intros m Hm. apply Hsh. apply nth_In. exact Hm.
  - intros t Ht. apply classes_ok_nth with (CG := CG) (As := As); [exact Hcl | lia].
Qed.

Lemma fvals_entry m l t : (m < s)%nat -> (l < r1)%nat -> (t < k)%nat ->
  phi (nth l (nth m (map (fun Y => fvals p Y (nth t RU [])) Ys) []) 0%uint63) mod phi p =
  (zsum c (fun j => Yz m l j * eU t j)) mod phi p.
Proof.
  destruct check_parts as (Hp & _ & _ & Hsh & _). intros Hm Hl Ht.
  pose proof (Hsh m Hm) as Hs. unfold shape_ok in Hs. apply andb_prop in Hs as [Hr Hc].
  apply Nat.eqb_eq in Hr. rewrite forallb_forall in Hc.
  rewrite (nth_map_d (fun Y => fvals p Y (nth t RU [])) Ys [] [] m) by reflexivity.
  unfold fvals. rewrite (nth_map_d (fun yr => mdot p yr (nth t RU [])) _ [] 0%uint63 l)
    by (destruct (nth t RU []); reflexivity).
  rewrite (mdot_spec p Hp _ _ c) by (apply Nat.eqb_eq, Hc, nth_In; lia).
  rewrite Zmod_mod.
  apply zsum_congr. intros j _. unfold Yz.
  change (zval (nth j (nth t RU []) 0%uint63)) with (zentry RU t j).
  rewrite Zmult_mod, (CU t j), <- Zmult_mod. reflexivity.
Qed.

Lemma class_parts t : (t < k)%nat ->
  let V := map (fun Y => fvals p Y (nth t RU [])) Ys in
  length (nth t RU []) = c /\ length (nth t As []) = s /\
  (forall m, (m < s)%nat -> mdot p (nth m V []) (nth t CG []) = 0%uint63) /\
  (forall l, (l < r1)%nat -> mdot p (nth t As []) (col_at V l) = 0%uint63) /\
  phi (mulm p (mulm p (pick p (nth t RU [])) cL)
         (mdot p (nth t As []) (map (fun Y => mdot2 p Y RL) Ys))) <> 0.
Proof.
  destruct check_parts as (Hp & _ & _ & _ & Hcl). intros Ht V.
  pose proof (Hcl t Ht) as H. unfold class_ok in H. cbv zeta in H. fold V in H.
  apply andb_prop in H as [H Hnz]. apply andb_prop in H as [H Hcomb].
  apply andb_prop in H as [H Hkill]. apply andb_prop in H as [Hu Ha].
  apply Nat.eqb_eq in Hu, Ha. rewrite forallb_forall in Hkill, Hcomb.
  split; [exact Hu|]. split; [exact Ha|]. split; [|split].
  - intros m Hm. apply Uint63.eqb_spec. apply Hkill. apply nth_In.
    unfold V. rewrite map_length. exact Hm.
  - intros l Hl. apply Uint63.eqb_spec. apply Hcomb. apply in_seq. lia.
  - intros E. apply Bool.negb_true_iff in Hnz. apply Uint63.eqb_false_spec in Hnz. apply Hnz.
    apply to_Z_inj. rewrite E. reflexivity.
Qed.

Lemma kill_mod m t : (m < s)%nat -> (t < k)%nat ->
  zsum r1 (fun l => eG t l * zsum c (fun j => Yz m l j * eU t j)) mod phi p = 0.
Proof.
  destruct check_parts as (Hp & _ & _ & Hsh & _). intros Hm Ht.
  destruct (class_parts t Ht) as (_ & _ & Hk & _ & _).
  pose proof (Hsh m Hm) as Hs. unfold shape_ok in Hs. apply andb_prop in Hs as [Hr _].
  apply Nat.eqb_eq in Hr.
  pose proof (f_equal phi (Hk m Hm)) as E. change (phi 0%uint63) with 0 in E.
  rewrite (mdot_spec p Hp _ _ r1) in E.
  2:{ rewrite (nth_map_d _ Ys [] [] m) by reflexivity. unfold fvals. rewrite map_length. exact Hr. }
  rewrite <- E. apply zsum_congr. intros l Hl.
  change (zval (nth l (nth t CG []) 0%uint63)) with (zentry CG t l).
  symmetry. rewrite Zmult_mod, (fvals_entry m l t Hm Hl Ht), (CG' t l), <- Zmult_mod. f_equal. ring.

Qed.

Lemma comb_mod t l : (t < k)%nat -> (l < r1)%nat ->
  zsum s (fun m => az t m * zsum c (fun j => Yz m l j * eU t j)) mod phi p = 0.
Proof.
  destruct check_parts as (Hp & _ & _ & _ & _). intros Ht Hl.
  destruct (class_parts t Ht) as (_ & Ha & _ & Hc & _).
  pose proof (f_equal phi (Hc l Hl)) as E. change (phi 0%uint63) with 0 in E.
  rewrite (mdot_spec p Hp _ _ s Ha) in E.
  rewrite <- E. apply zsum_congr. intros m Hm. unfold az.
  unfold col_at. rewrite (nth_map_d (fun v => nth l v 0%uint63) _ [] 0%uint63 m)
    by (destruct l; reflexivity).
  assert (Hb : (phi (nth l (nth m (map (fun Y => fvals p Y (nth t RU [])) Ys) []) 0%uint63)
                 < phi p)%Z).
  { rewrite (nth_map_d _ Ys [] [] m) by reflexivity. unfold fvals.
    rewrite (nth_map_d (fun yr => mdot p yr (nth t RU [])) _ [] 0%uint63 l) by reflexivity.
    apply mdot_bound; exact Hp. }
  rewrite (zval_phi_small _ (phi p)) by lia.
  symmetry. rewrite Zmult_mod, (fvals_entry m l t Hm Hl Ht), <- Zmult_mod. reflexivity.
Qed.

Lemma mul3_congr (P x x' y y' z z' : Z) : x mod P = x' mod P -> y mod P = y' mod P ->
  z mod P = z' mod P -> (x * y * z) mod P = (x' * y' * z') mod P.
Proof.
  intros Hx Hy Hz. rewrite (Zmult_mod (x * y) z), (Zmult_mod (x' * y') z'), Hz. f_equal. f_equal.
  rewrite (Zmult_mod x y), (Zmult_mod x' y'), Hx, Hy. reflexivity.
Qed.

Lemma nonzero_mod t : (t < k)%nat -> exists jj, (jj < c)%nat /\
  (eU t jj * cLZ *
   zsum s (fun m => az t m * zsum r1 (fun l => zsum c (fun j => Yz m l j * eL l j))))
    mod phi p <> 0.
Proof.
  destruct check_parts as (Hp & _ & _ & Hsh & _). intros Ht.
  destruct (class_parts t Ht) as (Hu & Ha & _ & _ & Hnz).
  rewrite !(mulm_spec p Hp) in Hnz.
  assert (Hpk : phi (pick p (nth t RU [])) <> 0).
  { intros E. apply Hnz. rewrite E. reflexivity. }
  destruct (pick_spec p Hp _ Hpk) as [jj [Hjj Ej]]. exists jj. split; [lia|].
  intros E. apply Hnz. rewrite Zmult_mod_idemp_l. rewrite <- E. apply mul3_congr.
  - rewrite Ej, Zmod_mod. exact (CU t jj).
  - exact HcL.
  - rewrite (mdot_spec p Hp _ _ s Ha), Zmod_mod. apply zsum_congr. intros m Hm.
    pose proof (Hsh m Hm) as Hs. unfold shape_ok in Hs. apply andb_prop in Hs as [Hr Hc].
    apply Nat.eqb_eq in Hr.
    rewrite (nth_map_d _ Ys [] 0%uint63 m) by reflexivity.
    rewrite (zval_phi_small _ (phi p)) by (lia || apply mdot2_bound; exact Hp).
    rewrite Zmult_mod, (mdot2_spec p Hp c _ RL Hc), Hr, Zmod_mod, <- Zmult_mod.
    rewrite Zmult_mod, (Zmult_mod (az t m)). f_equal. f_equal.
    apply zsum_congr. intros l _. apply zsum_congr. intros j _. unfold Yz.
    change (zval (nth j (nth l RL []) 0%uint63)) with (zentry RL l j).
    rewrite Zmult_mod, (CL l j), <- Zmult_mod. reflexivity.
Qed.

Theorem refute_Z (N : nat -> nat -> Z) (S : nat -> bool) (cS : Z) (t0 : nat) : (t0 < k)%nat ->
  (forall l j, (l < r1)%nat -> (j < c)%nat ->
     N l j = cLZ * eL l j + cS * zsum k (fun t => if S t then eG t l * eU t j else 0)) ->
  (forall l j j', (l < r1)%nat -> (j < c)%nat -> (j' < c)%nat ->
     N l j * eU t0 j' = N l j' * eU t0 j) -> False.
Proof.
  intros Ht HN Hprop. destruct check_parts as (Hp & _).
  destruct (nonzero_mod t0 Ht) as [jj [Hjj Hnz]].
  exact (core_refute (phi p) r1 c k s eU eG eL Yz (az t0) N S cLZ cS t0 jj HN Hprop
           kill_mod (fun l Hl => comb_mod t0 l Ht Hl) Hjj Hnz).
Qed.

Lemma check_k_pos : (0 < k)%nat.
Proof. destruct check_parts as (_ & Hk & _). exact Hk. Qed.

End Sound.

(** ** Over the reals: no [S] and [T] with [|T| <= 1] satisfy the block identity *)

Lemma count0 k (T : nat -> bool) : count k T = 0%nat -> forall t, (t < k)%nat -> T t = false.
Proof.
  induction k as [|k IH]; intros H t Ht; [exfalso; lia|]. simpl in H.
  destruct (T k) eqn:E; [lia|]. rewrite Nat.add_0_r in H.
  destruct (Nat.eq_dec t k) as [->|]; [exact E | apply IH; [exact H | lia]].
Qed.

Lemma count_le_one k (T : nat -> bool) : (count k T <= 1)%nat ->
  (forall t, (t < k)%nat -> T t = false) \/
  (exists t0, (t0 < k)%nat /\ T t0 = true /\ forall t, (t < k)%nat -> t <> t0 -> T t = false).
Proof.
  induction k as [|k IH]; intros H; [left; intros; lia|]. simpl in H.
  destruct (T k) eqn:Ek.
  - right. exists k. split; [lia|]. split; [exact Ek|]. intros t Ht Hne.
    assert (Hc : count k T = 0%nat) by lia.
    exact (count0 k T Hc t ltac:(lia)).
  - destruct (IH ltac:(lia)) as [Hn|(t0 & Ht0 & HT0 & Hrest)].
    + left. intros t Ht. destruct (Nat.eq_dec t k) as [->|]; [exact Ek | apply Hn; lia].
    + right. exists t0. split; [lia|]. split; [exact HT0|]. intros t Ht Hne.
      destruct (Nat.eq_dec t k) as [->|]; [exact Ek | apply Hrest; lia].
Qed.

Theorem check_refute_block (r1 c k : nat) (p cL : int) (Ys : list (list (list int)))
    (As RU CG RL : list (list int)) (eU eG eL : nat -> nat -> Z) (dU dG dL : Z) :
  check_refute r1 c k p cL Ys As RU CG RL = true ->
  congr (phi p) (zentry RU) eU -> congr (phi p) (zentry CG) eG -> congr (phi p) (zentry RL) eL ->
  phi cL mod phi p = (dG * dU) mod phi p -> 0 < dU -> 0 < dG -> 0 < dL ->
  forall (S T : nat -> bool) (E : nat -> nat -> R), (count k T <= 1)%nat ->
  ~ (forall l j, (l < r1)%nat -> (j < c)%nat ->
       (IZR (eL l j) / IZR dL + sumn k (fun t => if S t then
          IZR (eG t l) / IZR dG * (IZR (eU t j) / IZR dU) else 0) =
        sumn k (fun t => if T t then E l t * (IZR (eU t j) / IZR dU) else 0))%R).
Proof.
  intros Hchk HU HG HL HcL HdU HdG HdL S T E HT Hid.
  set (N := fun l j =>
    dG * dU * eL l j + dL * zsum k (fun t => if S t then eG t l * eU t j else 0)).
  assert (HR : forall l j, (l < r1)%nat -> (j < c)%nat ->
            IZR (N l j) = (IZR dL * IZR dG * sumn k (fun t => if T t then
                            E l t * IZR (eU t j) else 0))%R).
  { intros l j Hl Hj. specialize (Hid l j Hl Hj).
    apply IZR_lt in HdU, HdG, HdL.
    assert (E1 : IZR (N l j) = (IZR dL * IZR dG * IZR dU *
              (IZR (eL l j) / IZR dL + sumn k (fun t => if S t then
                IZR (eG t l) / IZR dG * (IZR (eU t j) / IZR dU) else 0)))%R).
    { unfold N. rewrite plus_IZR, !mult_IZR, IZR_zsum, Rmult_plus_distr_l.
      f_equal; [field; lra|]. rewrite <- !sumn_scal_l. apply sumn_ext. intros t _.
      destruct (S t); [rewrite mult_IZR; field; lra | ring]. }
    rewrite E1, Hid, <- (sumn_scal_l k (IZR dL * IZR dG * IZR dU)).
    rewrite <- (sumn_scal_l k (IZR dL * IZR dG)). apply sumn_ext. intros t _.
    destruct (T t); [field; lra | ring]. }
  pose proof (check_k_pos r1 c k p cL Ys As RU CG RL Hchk) as Hk.
  destruct (count_le_one k T HT) as [Hn|(t0 & Ht0 & HT0 & Hrest)].
  - apply (refute_Z r1 c k p cL Ys As RU CG RL eU eG eL (dG * dU) Hchk HU HG HL HcL N S dL 0
             Hk); [intros; unfold N; ring|].
    intros l j j' Hl Hj Hj'.
    assert (Z0 : forall jx, (jx < c)%nat -> N l jx = 0).
    { intros jx Hjx. apply eq_IZR. rewrite (HR l jx Hl Hjx), sumn_zero; [ring|].
      intros t Ht. rewrite (Hn t Ht). reflexivity. }
    rewrite (Z0 j Hj), (Z0 j' Hj'). ring.
  - apply (refute_Z r1 c k p cL Ys As RU CG RL eU eG eL (dG * dU) Hchk HU HG HL HcL N S dL t0
             Ht0); [intros; unfold N; ring|].
    intros l j j' Hl Hj Hj'.
    assert (Z1 : forall jx, (jx < c)%nat ->
              IZR (N l jx) = (IZR dL * IZR dG * (E l t0 * IZR (eU t0 jx)))%R).
    { intros jx Hjx. rewrite (HR l jx Hl Hjx). f_equal.
      rewrite (sumn_ext k _ (fun t => if Nat.eq_dec t0 t then (E l t * IZR (eU t jx))%R else 0%R)).
      - apply sumn_delta. exact Ht0.
      - intros t Ht. destruct (Nat.eq_dec t0 t) as [<-|Hne].
        + rewrite HT0. reflexivity.
        + rewrite (Hrest t Ht (fun e => Hne (eq_sym e))). reflexivity. }
    apply eq_IZR. rewrite !mult_IZR, (Z1 j Hj), (Z1 j' Hj'). ring.
Qed.

(** ** The same checker for small moduli, with unreduced dot products

    [check_refute_raw] computes the values [Y_m u_t] (the [(r1 + 1) r1 c k]
    steps that dominate) with [Modular.dot_raw] (no reduction per term; one at
    the end) on the functionals and directions reduced once, which needs
    [p < 2^21] and [c < 2^21] ([dot_raw_mdot]); everything else is
    [check_refute]'s.  [check_refute_raw_sound]: it implies [check_refute], so
    [check_refute_block] applies unchanged. *)

Definition p_small (p : int) : bool := (1 <? p)%uint63 && (p <? 2097152)%uint63.

Lemma p_small_spec p : p_small p = true -> (1 < phi p < 2 ^ 21)%Z.
Proof.
  unfold p_small. intros H. apply andb_prop in H as [H1 H2]. apply ltb_spec in H1, H2.
  change (phi 1) with 1%Z in H1. change (phi 2097152) with (2 ^ 21)%Z in H2. lia.
Qed.

Definition fvals_raw (p : int) (Yr : list (list int)) (ur : list int) : list int :=
  map (fun yr => (dot_raw yr ur 0 mod p)%uint63) Yr.

Definition class_ok_raw (p cL : int) (r1 c : nat) (Yrs : list (list (list int)))
    (ls u g a : list int) : bool :=
  let ur := map (red p) u in
  let V := map (fun Yr => fvals_raw p Yr ur) Yrs in
  Nat.eqb (length u) c && Nat.eqb (length a) (length Yrs) &&
  forallb (fun v => (mdot p v g =? 0)%uint63) V &&
  forallb (fun l => (mdot p a (col_at V l) =? 0)%uint63) (seq 0 r1) &&
  negb (mulm p (mulm p (pick p u) cL) (mdot p a ls) =? 0)%uint63.

Fixpoint classes_ok_raw (p cL : int) (r1 c : nat) (Yrs : list (list (list int))) (ls : list int)
    (RU CG As : list (list int)) : bool :=
  match RU, CG, As with
  | u :: RU', g :: CG', a :: As' =>
      class_ok_raw p cL r1 c Yrs ls u g a && classes_ok_raw p cL r1 c Yrs ls RU' CG' As'
  | [], [], [] => true
  | _, _, _ => false
  end.

Definition modrows (p : int) (Y : list (list int)) : list (list int) :=
  map (map (fun y => (y mod p)%uint63)) Y.

Definition check_refute_raw (r1 c k : nat) (p cL : int) (Ys : list (list (list int)))
    (As RU CG RL : list (list int)) : bool :=
  p_small p && (Z.of_nat c <? 2097152)%Z && Nat.ltb 0 k && Nat.eqb (length RU) k &&
  forallb (shape_ok r1 c) Ys &&
  let ls := map (fun Y => mdot2 p Y RL) Ys in
  classes_ok_raw p cL r1 c (map (modrows p) Ys) ls RU CG As.

Lemma fvals_raw_eq p c Y u : (1 < phi p < 2 ^ 21)%Z -> (Z.of_nat c < 2 ^ 21)%Z ->
  forallb (fun yr => Nat.eqb (length yr) c) Y = true ->
  fvals_raw p (modrows p Y) (map (red p) u) = fvals p Y u.
Proof.
  intros Hp Hc H. unfold fvals_raw, fvals, modrows. rewrite map_map. apply map_ext_in.
  intros yr Hin. rewrite forallb_forall in H. specialize (H yr Hin). apply Nat.eqb_eq in H.
  apply to_Z_inj. rewrite mod_spec. apply dot_raw_mdot; [exact Hp | lia].
Qed.

Lemma class_ok_raw_eq p cL r1 c Ys ls u g a : (1 < phi p < 2 ^ 21)%Z -> (Z.of_nat c < 2 ^ 21)%Z ->
  forallb (shape_ok r1 c) Ys = true ->
  class_ok_raw p cL r1 c (map (modrows p) Ys) ls u g a = class_ok p cL r1 c Ys ls u g a.
Proof.
  intros Hp Hc H. unfold class_ok_raw, class_ok. cbv zeta.
  assert (E : map (fun Yr => fvals_raw p Yr (map (red p) u)) (map (modrows p) Ys) =
              map (fun Y => fvals p Y u) Ys).
  { rewrite map_map. apply map_ext_in. intros Y Hin.
    apply (fvals_raw_eq p c); [exact Hp | exact Hc|].
    rewrite forallb_forall in H. specialize (H Y Hin). unfold shape_ok in H.
    apply andb_prop in H as [_ H]. exact H. }
  rewrite E, map_length. reflexivity.
Qed.

Lemma classes_ok_raw_eq p cL r1 c Ys ls (Hp : (1 < phi p < 2 ^ 21)%Z) (Hc : (Z.of_nat c < 2 ^ 21)%Z)
    (H : forallb (shape_ok r1 c) Ys = true) : forall RU CG As,
  classes_ok_raw p cL r1 c (map (modrows p) Ys) ls RU CG As = classes_ok p cL r1 c Ys ls RU CG As.
Proof.
  induction RU as [|u RU IH]; intros CG As; destruct CG as [|g CG]; destruct As as [|a As];
    try reflexivity.
  simpl. rewrite (class_ok_raw_eq p cL r1 c Ys ls u g a Hp Hc H), IH. reflexivity.
Qed.

Theorem check_refute_raw_sound r1 c k p cL Ys As RU CG RL :
  check_refute_raw r1 c k p cL Ys As RU CG RL = true ->
  check_refute r1 c k p cL Ys As RU CG RL = true.
Proof.
  unfold check_refute_raw, check_refute. cbv zeta. intros H.
  apply andb_prop in H as [H Hcl]. apply andb_prop in H as [H Hsh].
  apply andb_prop in H as [H Hlen]. apply andb_prop in H as [H Hk].
  apply andb_prop in H as [Hp Hc]. apply p_small_spec in Hp. apply Z.ltb_lt in Hc.
  assert (Hc' : (Z.of_nat c < 2 ^ 21)%Z) by lia.
  rewrite (classes_ok_raw_eq p cL r1 c Ys _ Hp Hc' Hsh) in Hcl.
  rewrite Hlen, Hk, Hsh, Hcl.
  assert (Hok : p_ok p = true).
  { unfold p_ok. apply andb_true_intro. split; apply ltb_spec; change (phi 1) with 1%Z;
      change (phi 2147483648) with (2 ^ 31)%Z; lia. }
  rewrite Hok. reflexivity.
Qed.
