(** * R8 with biases: the peeling argument behind the necessity of the width condition

    [ReluBiasNecessity.v] (classes: augmented rows proportional to a row) and
    [PmBiasNecessity.v] (classes: augmented rows equal up to sign) prove R8's
    width condition necessary by one induction, written here once for an
    activation [f] and a notion of class [mem] whose rows carry weights [wt]:
    - what an activation's file proves about its classes: [class_self] (a row
      is in its own class), [class_value] ([f] on a class row is [wt] times
      [f] on the class's affine value, minus that value when the factor is
      negative), [class_total] (two families differing by an affine function
      carry the same class totals), [class_form] (in a generic form, the class
      of row [t0] is [{t0}]);
    - helpers on masks, counts and low-rank matrices;
    - [peel_affine_low_rank]: a masked block equal to an affine map
      [x |-> Mx x + mu] has [Mx] of rank at most half its number of rows;
    - [peel_form_width]: a class of the form served by one row is in [S]
      (negative factor) or untouched, served by two or more rows it is in [T];
    - [peel_form_necessary]: a generic canonical form equal to a biased block
      of width [m] satisfies [width_condition d k m U G L]. *)

From Coq Require Import Reals Lra Lia Arith Bool.
From Absorb Require Import Sums Blocks Geometry FiniteMaps ReluSubmatrix Biases BiasSpec
  RidgeForm.
Open Scope R_scope.

(** ** Classes of augmented rows *)

(** The candidate factor of [v] against [p], read off a coordinate [q0] with [p q0 <> 0]. *)
Definition lam_of (p : vec) (q0 : nat) (v : vec) : R := v q0 / p q0.

(** [mem d P cp t q0 V cv j]: row [j] of [(V, cv)] is in the class of row [t]
    of [(P, cp)] (read at a coordinate [q0] with [P t q0 <> 0]). *)
Definition class_mem : Type := nat -> mat -> vec -> nat -> nat -> mat -> vec -> nat -> bool.

Definition class_self (mem : class_mem) : Prop :=
  forall d P cp t q0, (q0 < d)%nat -> P t q0 <> 0 -> mem d P cp t q0 P cp t = true.

Definition class_value (f : R -> R) (mem : class_mem) (wt : vec -> nat -> vec -> R) : Prop :=
  forall d P cp t q0 V cv j x, (q0 < d)%nat -> P t q0 <> 0 -> mem d P cp t q0 V cv j = true ->
  f (dot d (row V j) x + cv j) =
  wt (row P t) q0 (row V j) * f (dot d (row P t) x + cp t)
  - (if Rlt_dec (lam_of (row P t) q0 (row V j)) 0
     then wt (row P t) q0 (row V j) * (dot d (row P t) x + cp t) else 0).

Definition class_total (f : R -> R) (mem : class_mem) (wt : vec -> nat -> vec -> R) : Prop :=
  forall d w (A' : mat) (c' : vec) (beta : nat -> R) k (U : mat) (s : vec) (gamma : nat -> R)
    (ell : vec) (C : R) (P : mat) (cp : vec) t q0, (q0 < d)%nat -> P t q0 <> 0 ->
  (forall x, sumn w (fun j => beta j * f (dot d (row A' j) x + c' j)) =
             dot d ell x + C + sumn k (fun t' => gamma t' * f (dot d (row U t') x + s t'))) ->
  sumn w (fun j => if mem d P cp t q0 A' c' j then wt (row P t) q0 (row A' j) * beta j else 0) =
  sumn k (fun t' => if mem d P cp t q0 U s t' then wt (row P t) q0 (row U t') * gamma t' else 0).

(** [indep d u v]: augmented rows [u], [v] of a generic form are in different classes. *)
Definition class_form (mem : class_mem) (wt : vec -> nat -> vec -> R)
    (indep : nat -> vec -> vec -> Prop) : Prop :=
  forall d k (U : mat) (s : vec) t0 q0 (beta : nat -> R),
  (forall i j, (i < k)%nat -> (j < k)%nat -> i <> j ->
     indep d (aug_row d U s i) (aug_row d U s j)) ->
  (t0 < k)%nat -> (q0 < d)%nat -> U t0 q0 <> 0 ->
  sumn k (fun t => if mem d U s t0 q0 U s t then wt (row U t0) q0 (row U t) * beta t else 0)
  = beta t0.

(** A canonical form: nonzero directions, rows in different classes, nonzero columns. *)
Definition generic_form (indep : nat -> vec -> vec -> Prop) (d k : nat) (U : mat) (s : vec)
    (G : mat) : Prop :=
  (forall t, (t < k)%nat -> nonzero_vec d (row U t)) /\
  (forall i j, (i < k)%nat -> (j < k)%nat -> i <> j ->
     indep d (aug_row d U s i) (aug_row d U s j)) /\
  (forall t, (t < k)%nat -> nonzero_vec d (col G t)).

(** ** Masks and counts *)

Lemma count_split_mask w (M h : nat -> bool) :
  count w M = (count w (fun j => M j && negb (h j)) + count w (fun j => M j && h j))%nat.
Proof.
  induction w as [|w IH]; [reflexivity|]. simpl. rewrite IH.
  destruct (M w), (h w); simpl; lia.
Qed.

Lemma count_ge1 w (M : nat -> bool) j : (j < w)%nat -> M j = true -> (1 <= count w M)%nat.
Proof.
  induction w as [|w IH]; intros Hj HM; [lia|]. simpl.
  destruct (Nat.eq_dec j w) as [->|Hne]; [rewrite HM; lia|].
  pose proof (IH ltac:(lia) HM). lia.
Qed.

Lemma count_ge2 w (M : nat -> bool) j1 j2 : (j1 < w)%nat -> (j2 < w)%nat -> j1 <> j2 ->
  M j1 = true -> M j2 = true -> (2 <= count w M)%nat.
Proof.
  induction w as [|w IH]; intros H1 H2 Hne M1 M2; [lia|]. simpl.
  destruct (Nat.eq_dec j1 w) as [->|N1].
  - rewrite M1. pose proof (count_ge1 w M j2 ltac:(lia) M2). lia.
  - destruct (Nat.eq_dec j2 w) as [->|N2].
    + rewrite M2. pose proof (count_ge1 w M j1 ltac:(lia) M1). lia.
    + pose proof (IH ltac:(lia) ltac:(lia) Hne M1 M2). lia.
Qed.

Lemma count_all_false w (M : nat -> bool) :
  (forall j, (j < w)%nat -> M j = false) -> count w M = 0%nat.
Proof.
  induction w as [|w IH]; intros H; [reflexivity|]. simpl.
  rewrite IH by (intros; apply H; lia). rewrite (H w ltac:(lia)). reflexivity.
Qed.

Lemma count_true w : count w (fun _ => true) = w.
Proof. induction w as [|w IH]; simpl; [reflexivity | rewrite IH; lia]. Qed.

Lemma count_single w (M : nat -> bool) t0 : (t0 < w)%nat -> M t0 = true ->
  count w M = S (count w (fun t => M t && negb (Nat.eqb t t0))).
Proof.
  intros Ht HM. rewrite (count_split_mask w M (fun t => Nat.eqb t t0)).
  enough (E : count w (fun j => M j && Nat.eqb j t0) = 1%nat) by (rewrite E; lia).
  clear -Ht HM. induction w as [|w IH]; [lia|]. simpl.
  destruct (Nat.eq_dec t0 w) as [->|Hne].
  - rewrite HM, Nat.eqb_refl. simpl.
    rewrite count_all_false; [reflexivity|].
    intros j Hj. destruct (Nat.eqb_spec j w); [lia | apply andb_false_r].
  - rewrite IH by lia. destruct (Nat.eqb_spec w t0); [lia|]. rewrite andb_false_r. lia.
Qed.

Lemma count_ext k (M1 M2 : nat -> bool) :
  (forall t, (t < k)%nat -> M1 t = M2 t) -> count k M1 = count k M2.
Proof.
  induction k as [|k IH]; intros H; [reflexivity|]. simpl.
  rewrite IH by (intros; apply H; lia). rewrite (H k ltac:(lia)). reflexivity.
Qed.

(** Splitting a masked sum along a second mask. *)
Lemma msum_coef_split w (M h : nat -> bool) (beta : nat -> R) (z : nat -> R) :
  sumn w (fun j => (if M j then beta j else 0) * z j) =
  sumn w (fun j => (if M j && negb (h j) then beta j else 0) * z j)
  + sumn w (fun j => (if M j && h j then beta j else 0) * z j).
Proof.
  rewrite <- sumn_plus. apply sumn_ext. intros j _. destruct (M j), (h j); simpl; ring.
Qed.

(** A mask with fewer than two elements, containing [j1]. *)
Lemma msum_single w (M : nat -> bool) (f : nat -> R) j1 :
  (j1 < w)%nat -> M j1 = true -> (count w M < 2)%nat ->
  sumn w (fun j => if M j then f j else 0) = f j1.
Proof.
  intros Hj1 HM Hc.
  rewrite (sumn_ext w _ (fun j => if Nat.eq_dec j1 j then f j else 0)).
  - apply sumn_delta. exact Hj1.
  - intros j Hj. destruct (Nat.eq_dec j1 j) as [<-|Hne]; [rewrite HM; reflexivity|].
    destruct (M j) eqn:E; [|reflexivity].
    pose proof (count_ge2 w M j1 j Hj1 Hj Hne HM E). lia.
Qed.

Definition masked (M : nat -> bool) (beta : nat -> R) : nat -> R :=
  fun j => if M j then beta j else 0.

(** A masked block whose active rows have zero linear part is constant. *)
Lemma no_active_row_const_any (f : R -> R) d w (A' : mat) (c' : vec) (B' : mat)
    (M : nat -> bool) i :
  (forall j, (j < w)%nat -> M j = true -> forall q, (q < d)%nat -> A' j q = 0) ->
  forall x, sumn w (fun j => masked M (B' i) j * f (dot d (row A' j) x + c' j)) =
            sumn w (fun j => masked M (B' i) j * f (c' j)).
Proof.
  intros H x. apply sumn_ext. intros j Hj. unfold masked. destruct (M j) eqn:E; [|ring].
  rewrite (parallel_dot d (row A' j) (row A' j) 0 x)
    by (intros q Hq; unfold row; rewrite (H j Hj E q Hq); ring).
  rewrite Rmult_0_l, Rplus_0_l. reflexivity.
Qed.

(** ** Linear algebra helpers *)

Lemma mv_add_outer d (L : mat) (a : vec) (p : vec) x i :
  mv d (fun i' q => L i' q + a i' * p q) x i = mv d L x i + a i * dot d p x.
Proof.
  unfold mv, dot, row. rewrite <- sumn_scal_l, <- sumn_plus. apply sumn_ext. intros; ring.
Qed.

(** An affine map [x |-> Mx x + mu] that is constant has [Mx = 0]. *)
Lemma affine_const_zero d (Mx : mat) (mu : vec) i (C : R) :
  (forall x, mv d Mx x i + mu i = C) -> forall q, (q < d)%nat -> Mx i q = 0.
Proof.
  intros H q Hq. pose proof (H (fun t => identity q t)) as E1. pose proof (H (fun _ => 0)) as E0.
  unfold mv in E1, E0. rewrite dot_unit in E1 by exact Hq. rewrite dot_zero_r in E0.
  unfold row in E1. lra.
Qed.

(** [P Q] with one more rank-one term [a p^T]. *)
Lemma low_rank_extend d r (P Q : mat) (a p : vec) :
  exists P' Q', forall i q, (q < d)%nat ->
    low_rank (S r) P' Q' i q = low_rank r P Q i q + a i * p q.
Proof.
  exists (fun i l => if Nat.ltb l r then P i l else a i),
         (fun l q => if Nat.ltb l r then Q l q else p q).
  intros i q _. unfold low_rank. rewrite sumn_S, Nat.ltb_irrefl. f_equal.
  apply sumn_ext. intros l Hl. apply Nat.ltb_lt in Hl. rewrite Hl. reflexivity.
Qed.

Lemma masked_outer_add k (T : nat -> bool) t0 (E U : mat) i q : (t0 < k)%nat -> T t0 = false ->
  masked_outer k (fun t => T t || Nat.eqb t t0) E U i q =
  masked_outer k T E U i q + E i t0 * U t0 q.
Proof.
  intros Ht HT. unfold masked_outer.
  rewrite (sumn_ext k _ (fun t => (if T t then E i t * U t q else 0)
                                + (if Nat.eq_dec t0 t then E i t * U t q else 0))).
  - rewrite sumn_plus, (sumn_delta k t0 (fun t => E i t * U t q) Ht). reflexivity.
  - intros t _. destruct (Nat.eqb_spec t t0) as [->|Hne].
    + rewrite HT, orb_true_r. destruct (Nat.eq_dec t0 t0); [ring | congruence].
    + rewrite orb_false_r. destruct (Nat.eq_dec t0 t); [congruence|]. ring.
Qed.

Lemma masked_outer_ext k (T : nat -> bool) (E1 E2 U : mat) i q :
  (forall t, (t < k)%nat -> T t = true -> E1 i t = E2 i t) ->
  masked_outer k T E1 U i q = masked_outer k T E2 U i q.
Proof.
  intros H. unfold masked_outer. apply sumn_ext. intros t Ht.
  destruct (T t) eqn:E; [rewrite (H t Ht E); reflexivity | reflexivity].
Qed.

(** ** The argument *)

Section Peeling.

Context (f : R -> R) (mem : class_mem) (wt : vec -> nat -> vec -> R)
        (indep : nat -> vec -> vec -> Prop)
        (Hself : class_self mem) (Hvalue : class_value f mem wt)
        (Htotal : class_total f mem wt) (Hform : class_form mem wt indep).

(** The rows of a class add up to [(total) f(z) - (negative part) z]. *)
Lemma peel_class_sum d w (A' : mat) (c' : vec) (beta : nat -> R) (h : nat -> bool)
    (P : mat) (cp : vec) t q0 x :
  (q0 < d)%nat -> P t q0 <> 0 ->
  (forall j, (j < w)%nat -> h j = true -> mem d P cp t q0 A' c' j = true) ->
  sumn w (fun j => (if h j then beta j else 0) * f (dot d (row A' j) x + c' j)) =
  sumn w (fun j => if h j then wt (row P t) q0 (row A' j) * beta j else 0)
    * f (dot d (row P t) x + cp t)
  - sumn w (fun j => if h j then
                       if Rlt_dec (lam_of (row P t) q0 (row A' j)) 0
                       then wt (row P t) q0 (row A' j) * beta j else 0
                     else 0) * (dot d (row P t) x + cp t).
Proof.
  intros Hq Hp Hh. rewrite <- !sumn_scal_r, <- sumn_minus. apply sumn_ext. intros j Hj.
  destruct (h j) eqn:E; [|ring].
  rewrite (Hvalue d P cp t q0 A' c' j x Hq Hp (Hh j Hj E)).
  destruct (Rlt_dec (lam_of (row P t) q0 (row A' j)) 0); ring.
Qed.

(** A masked block equal to an affine map [x |-> Mx x + mu]: each class of
    rows has total 0, so it is linear and, if it has at least two rows, of
    rank one; a single row of such a class is dead. *)
Lemma peel_affine_low_rank d w (A' : mat) (c' : vec) (B' : mat) : forall n (M : nat -> bool)
    (Mx : mat) (mu : vec),
  (count w M <= n)%nat ->
  (forall x i, (i < d)%nat ->
     sumn w (fun j => masked M (B' i) j * f (dot d (row A' j) x + c' j)) = mv d Mx x i + mu i) ->
  exists r P Q, (2 * r <= count w M)%nat /\
    forall i q, (i < d)%nat -> (q < d)%nat -> Mx i q = low_rank r P Q i q.
Proof.
  induction n as [|n IH]; intros M Mx mu Hn H.
  all: destruct (Classical_Prop.classic
          (exists j, (j < w)%nat /\ M j = true /\ nonzero_vec d (row A' j))) as [Hex|Hnone].
  2, 4: (* every active row is a constant: [Mx = 0] *)
    exists 0%nat, (fun _ _ => 0), (fun _ _ => 0); split; [lia|];
    intros i q Hi Hq; unfold low_rank; rewrite sumn_0;
    assert (Hz : forall j, (j < w)%nat -> M j = true -> forall q, (q < d)%nat -> A' j q = 0)
      by (intros j Hj HM q' Hq'; destruct (Req_EM_T (A' j q') 0) as [Z|Z]; [exact Z|];
          exfalso; apply Hnone; exists j; split; [exact Hj|]; split; [exact HM|];
          exists q'; split; [exact Hq' | exact Z]);
    apply (affine_const_zero d Mx mu i (sumn w (fun j => masked M (B' i) j * f (c' j))));
    [intros x; rewrite <- (H x i Hi); apply no_active_row_const_any; exact Hz | exact Hq].
  - destruct Hex as [j0 [Hj0 [HM0 _]]]. pose proof (count_ge1 w M j0 Hj0 HM0). lia.
  - destruct Hex as [j0 [Hj0 [HM0 [q0 [Hq0 Hp0]]]]].
    set (h := fun j => mem d A' c' j0 q0 A' c' j).
    pose proof (Hself d A' c' j0 q0 Hq0 Hp0) as Hh0.
    assert (Hlam1 : lam_of (row A' j0) q0 (row A' j0) = 1)
      by (unfold lam_of; field; exact Hp0).
    (* the class of [j0] has total 0 *)
    assert (Hk : forall i, (i < d)%nat ->
      sumn w (fun j => if h j then wt (row A' j0) q0 (row A' j) * masked M (B' i) j else 0) = 0).
    { intros i Hi.
      pose proof (Htotal d w A' c' (masked M (B' i)) 0%nat A' c' (fun _ => 0) (row Mx i) (mu i)
                    A' c' j0 q0 Hq0 Hp0 (fun x => eq_trans (H x i Hi) (eq_sym (Rplus_0_r _))))
        as Hc.
      rewrite sumn_0 in Hc. exact Hc. }
    (* negative part of the class *)
    set (Nn := fun i => sumn w (fun j => if M j && h j then
                           if Rlt_dec (lam_of (row A' j0) q0 (row A' j)) 0
                           then wt (row A' j0) q0 (row A' j) * B' i j else 0
                         else 0)).
    set (M' := fun j => M j && negb (h j)).
    assert (Hrest : forall x i, (i < d)%nat ->
      sumn w (fun j => masked M' (B' i) j * f (dot d (row A' j) x + c' j)) =
      mv d (fun i' q => Mx i' q + Nn i' * row A' j0 q) x i + (mu i + Nn i * c' j0)).
    { intros x i Hi. rewrite mv_add_outer.
      pose proof (H x i Hi) as E. unfold masked in E.
      rewrite (msum_coef_split w M h (B' i)) in E.
      rewrite (peel_class_sum d w A' c' (B' i) (fun j => M j && h j) A' c' j0 q0 x Hq0 Hp0) in E
        by (intros j Hj Hmh; apply andb_prop in Hmh; apply Hmh).
      rewrite (sumn_ext w (fun j => if M j && h j then wt (row A' j0) q0 (row A' j) * B' i j
                                    else 0)
                 (fun j => if h j then wt (row A' j0) q0 (row A' j) * masked M (B' i) j else 0))
        in E by (intros j _; unfold masked; destruct (M j), (h j); simpl; ring).
      rewrite (Hk i Hi) in E. fold (Nn i) in E. unfold masked, M'. lra. }
    assert (Hcnt : count w M = (count w M' + count w (fun j => M j && h j))%nat)
      by apply count_split_mask.
    assert (Hh1 : (1 <= count w (fun j => M j && h j))%nat).
    { apply (count_ge1 w _ j0 Hj0). cbv beta. rewrite HM0. exact Hh0. }
    destruct (IH M' _ _ ltac:(lia) Hrest) as [r' [P' [Q' [Hr' HPQ]]]].
    destruct (le_lt_dec 2 (count w (fun j => M j && h j))) as [H2|H2].
    + (* at least two rows: one more rank-one term *)
      destruct (low_rank_extend d r' P' Q' (fun i => - Nn i) (row A' j0)) as [P [Q HPQ']].
      exists (S r'), P, Q. split; [lia|]. intros i q Hi Hq.
      rewrite (HPQ' i q Hq), <- (HPQ i q Hi Hq). ring.
    + (* the class is [{j0}] alone: its negative part is 0 *)
      exists r', P', Q'. split; [lia|]. intros i q Hi Hq. rewrite <- (HPQ i q Hi Hq).
      assert (HN : Nn i = 0).
      { unfold Nn. rewrite (msum_single w (fun j => M j && h j) _ j0 Hj0
                              ltac:(cbv beta; rewrite HM0; exact Hh0) H2).
        rewrite Hlam1. destruct (Rlt_dec 1 0); [lra | reflexivity]. }
      rewrite HN. ring.
Qed.

(** Peeling the classes of the form. *)
Lemma peel_form_width d k w U s G A' c' B' : generic_form indep d k U s G ->
  forall n (K M : nat -> bool) (L : mat) (l0 : vec),
  (count k K <= n)%nat ->
  (forall x i, (i < d)%nat ->
     sumn w (fun j => masked M (B' i) j * f (dot d (row A' j) x + c' j)) =
     mv d L x i + l0 i + sumn k (fun t => masked K (G i) t * f (dot d (row U t) x + s t))) ->
  exists (T S : nat -> bool) (r : nat) (E P Q : mat),
    (forall t, (t < k)%nat -> T t = true -> K t = true /\ S t = false) /\
    (forall t, (t < k)%nat -> S t = true -> K t = true) /\
    (count k K + count k T + 2 * r <= count w M)%nat /\
    forall i q, (i < d)%nat -> (q < d)%nat ->
      L i q + masked_outer k S G U i q = masked_outer k T E U i q + low_rank r P Q i q.
Proof.
  intros Hg. pose proof Hg as [Hnz [Hind Hb]].
  induction n as [|n IH]; intros K M L l0 Hn H.
  all: destruct (Classical_Prop.classic (exists t0, (t0 < k)%nat /\ K t0 = true))
         as [Hex|Hnone].
  2, 4: (* no class left: the block is affine *)
    assert (HK : forall t, (t < k)%nat -> K t = false)
      by (intros t Ht; destruct (K t) eqn:E; [exfalso; apply Hnone; exists t; auto | reflexivity]);
    destruct (peel_affine_low_rank d w A' c' B' (count w M) M L l0 (le_n _))
      as [r [P [Q [Hr HPQ]]]];
    [ intros x i Hi; rewrite (H x i Hi);
      rewrite (sumn_zero k (fun t => masked K (G i) t * f (dot d (row U t) x + s t)))
        by (intros t Ht; unfold masked; rewrite (HK t Ht); ring); ring
    | exists (fun _ => false), (fun _ => false), r, (fun _ _ => 0), P, Q;
      split; [intros; discriminate|]; split; [intros; discriminate|];
      split; [rewrite (count_all_false k K HK), (count_all_false k (fun _ => false))
                by reflexivity; lia|];
      intros i q Hi Hq; unfold masked_outer;
      rewrite !sumn_zero by (intros; reflexivity);
      rewrite (HPQ i q Hi Hq); ring ].
  - destruct Hex as [t0 [Ht0 HK0]]. pose proof (count_ge1 k K t0 Ht0 HK0). lia.
  - destruct Hex as [t0 [Ht0 HK0]].
    destruct (Hnz t0 Ht0) as [q0 [Hq0 Hp0]].
    set (h := fun j => mem d U s t0 q0 A' c' j).
    (* the block rows in the class of [t0] carry the kink [G[:,t0]] *)
    assert (Hk : forall i, (i < d)%nat ->
      sumn w (fun j => if h j then wt (row U t0) q0 (row A' j) * masked M (B' i) j else 0)
      = G i t0).
    { intros i Hi.
      pose proof (Htotal d w A' c' (masked M (B' i)) k U s (masked K (G i))
                    (row L i) (l0 i) U s t0 q0 Hq0 Hp0 (fun x => H x i Hi)) as Hc.
      etransitivity; [exact Hc|].
      rewrite (Hform d k U s t0 q0 _ Hind Ht0 Hq0 Hp0).
      unfold masked. rewrite HK0. reflexivity. }
    set (Nn := fun i => sumn w (fun j => if M j && h j then
                           if Rlt_dec (lam_of (row U t0) q0 (row A' j)) 0
                           then wt (row U t0) q0 (row A' j) * B' i j else 0
                         else 0)).
    set (M' := fun j => M j && negb (h j)).
    set (K' := fun t => K t && negb (Nat.eqb t t0)).
    assert (Hrest : forall x i, (i < d)%nat ->
      sumn w (fun j => masked M' (B' i) j * f (dot d (row A' j) x + c' j)) =
      mv d (fun i' q => L i' q + Nn i' * row U t0 q) x i + (l0 i + Nn i * s t0)
      + sumn k (fun t => masked K' (G i) t * f (dot d (row U t) x + s t))).
    { intros x i Hi. rewrite mv_add_outer.
      pose proof (H x i Hi) as E. unfold masked in E.
      rewrite (msum_coef_split w M h (B' i)) in E.
      rewrite (msum_coef_split k K (fun t => Nat.eqb t t0) (G i)) in E.
      rewrite (peel_class_sum d w A' c' (B' i) (fun j => M j && h j) U s t0 q0 x Hq0 Hp0) in E
        by (intros j Hj Hmh; apply andb_prop in Hmh; apply Hmh).
      rewrite (sumn_ext w (fun j => if M j && h j then wt (row U t0) q0 (row A' j) * B' i j
                                    else 0)
                 (fun j => if h j then wt (row U t0) q0 (row A' j) * masked M (B' i) j else 0))
        in E by (intros j _; unfold masked; destruct (M j), (h j); simpl; ring).
      rewrite (Hk i Hi) in E.
      rewrite (sumn_ext k (fun t => (if K t && Nat.eqb t t0 then G i t else 0)
                                    * f (dot d (row U t) x + s t))
                 (fun t => if Nat.eq_dec t0 t then G i t * f (dot d (row U t) x + s t) else 0))
        in E.
      2:{ intros t _. destruct (Nat.eqb_spec t t0) as [->|Hne].
          - rewrite HK0. destruct (Nat.eq_dec t0 t0); [simpl; ring | congruence].
          - rewrite andb_false_r. destruct (Nat.eq_dec t0 t); [congruence | ring]. }
      rewrite (sumn_delta k t0 _ Ht0) in E. fold (Nn i) in E.
      unfold masked, M', K'. lra. }
    assert (HK' : count k K = S (count k K')) by (apply count_single; assumption).
    assert (Hcnt : count w M = (count w M' + count w (fun j => M j && h j))%nat)
      by apply count_split_mask.
    assert (HK't0 : K' t0 = false)
      by (unfold K'; rewrite Nat.eqb_refl, andb_false_r; reflexivity).
    destruct (IH K' M' _ _ ltac:(lia) Hrest)
      as [T' [S' [r' [E' [P' [Q' [HT' [HS' [Hc' HL']]]]]]]]].
    assert (HT't0 : T' t0 = false)
      by (destruct (T' t0) eqn:E; [destruct (HT' t0 Ht0 E) as [C _]; congruence | reflexivity]).
    assert (HS't0 : S' t0 = false)
      by (destruct (S' t0) eqn:E; [pose proof (HS' t0 Ht0 E) as C; congruence | reflexivity]).
    assert (HK'K : forall t, (t < k)%nat -> K' t = true -> K t = true /\ t <> t0).
    { intros t _ E. unfold K' in E. apply andb_prop in E as [E1 E2]. split; [exact E1|].
      intros ->. rewrite Nat.eqb_refl in E2. discriminate. }
    (* the class of [t0] is served by at least one row *)
    destruct (Hb t0 Ht0) as [i0 [Hi0 HG0]]. unfold col in HG0.
    assert (Hj1 : exists j1, (j1 < w)%nat /\ M j1 && h j1 = true).
    { pose proof (Hk i0 Hi0) as E. rewrite <- E in HG0.
      destruct (sumn_nonzero_term w _ HG0) as [j1 [Hj1 Hf]]. exists j1. split; [exact Hj1|].
      unfold masked in Hf.
      destruct (h j1), (M j1); simpl in *; try reflexivity; exfalso; apply Hf; ring. }
    destruct Hj1 as [j1 [Hj1 HMh1]].
    pose proof (count_ge1 w (fun j => M j && h j) j1 Hj1 HMh1) as Hh1.
    destruct (le_lt_dec 2 (count w (fun j => M j && h j))) as [H2|H2].
    + (* two or more rows: [t0] joins [T] *)
      exists (fun t => T' t || Nat.eqb t t0), S', r',
             (fun i t => if Nat.eqb t t0 then - Nn i else E' i t), P', Q'.
      split; [|split; [|split]].
      * intros t Ht E. destruct (Nat.eqb_spec t t0) as [->|Hne].
        -- split; [exact HK0 | exact HS't0].
        -- rewrite orb_false_r in E. destruct (HT' t Ht E) as [E1 E2].
           split; [apply (HK'K t Ht E1) | exact E2].
      * intros t Ht E. apply (HK'K t Ht (HS' t Ht E)).
      * assert (HT : count k (fun t => T' t || Nat.eqb t t0) = S (count k T')).
        { rewrite (count_single k _ t0 Ht0) by (rewrite Nat.eqb_refl, orb_true_r; reflexivity).
          f_equal. apply count_ext. intros t _. destruct (Nat.eqb_spec t t0) as [->|Hne].
          - rewrite HT't0. reflexivity.
          - rewrite orb_false_r, andb_true_r. reflexivity. }
        rewrite HT. lia.
      * intros i q Hi Hq. rewrite masked_outer_add by assumption.
        rewrite (masked_outer_ext k T' _ E' U i q).
        -- rewrite Nat.eqb_refl. pose proof (HL' i q Hi Hq) as E. cbv beta in E.
           unfold row in E. lra.
        -- intros t Ht E. destruct (Nat.eqb_spec t t0) as [->|]; [congruence | reflexivity].
    + (* one row [j1]: [t0] is untouched (factor [> 0]) or flipped (factor [< 0]) *)
      assert (Hone : forall g : nat -> R,
        sumn w (fun j => if M j && h j then g j else 0) = g j1)
        by (intros g; apply (msum_single w _ g j1 Hj1 HMh1 H2)).
      assert (Hcoef : forall i, (i < d)%nat -> wt (row U t0) q0 (row A' j1) * B' i j1 = G i t0).
      { intros i Hi. rewrite <- (Hk i Hi).
        transitivity (sumn w (fun j => if M j && h j then wt (row U t0) q0 (row A' j) * B' i j
                                       else 0)).
        - symmetry. apply (Hone (fun j => wt (row U t0) q0 (row A' j) * B' i j)).
        - apply sumn_ext. intros j _. unfold masked. destruct (M j), (h j); simpl; ring. }
      assert (HN : forall i, (i < d)%nat ->
        Nn i = if Rlt_dec (lam_of (row U t0) q0 (row A' j1)) 0 then G i t0 else 0).
      { intros i Hi. unfold Nn.
        rewrite (Hone (fun j => if Rlt_dec (lam_of (row U t0) q0 (row A' j)) 0
                                then wt (row U t0) q0 (row A' j) * B' i j else 0)).
        cbv beta. rewrite (Hcoef i Hi). reflexivity. }
      destruct (Rlt_dec (lam_of (row U t0) q0 (row A' j1)) 0) as [Neg|Pos].
      * exists T', (fun t => S' t || Nat.eqb t t0), r', E', P', Q'.
        split; [|split; [|split]].
        -- intros t Ht E. destruct (HT' t Ht E) as [E1 E2]. destruct (HK'K t Ht E1) as [E3 E4].
           split; [exact E3|]. rewrite E2. apply Nat.eqb_neq. exact E4.
        -- intros t Ht E. destruct (Nat.eqb_spec t t0) as [->|Hne]; [exact HK0|].
           rewrite orb_false_r in E. apply (HK'K t Ht (HS' t Ht E)).
        -- lia.
        -- intros i q Hi Hq. rewrite masked_outer_add by assumption.
           pose proof (HL' i q Hi Hq) as E. cbv beta in E. rewrite (HN i Hi) in E.
           unfold row in E. lra.
      * exists T', S', r', E', P', Q'.
        split; [|split; [|split]].
        -- intros t Ht E. destruct (HT' t Ht E) as [E1 E2].
           split; [apply (HK'K t Ht E1) | exact E2].
        -- intros t Ht E. apply (HK'K t Ht (HS' t Ht E)).
        -- lia.
        -- intros i q Hi Hq. pose proof (HL' i q Hi Hq) as E. cbv beta in E.
           rewrite (HN i Hi) in E. lra.
Qed.

(** A generic canonical form equal to a biased block of width [m] satisfies
    R8's width condition. *)
Lemma peel_form_necessary d k m U s G L l0 :
  generic_form indep d k U s G ->
  (exists A' c' B' b0',
     same_fun d (ungated_bias f d m A' c' B' b0') (bias_ridge_form f d k U s G L l0)) ->
  width_condition d k m U G L.
Proof.
  intros Hg [A' [c' [B' [b0' H]]]].
  destruct (peel_form_width d k m U s G A' c' B' Hg k (fun _ => true) (fun _ => true) L
              (fun i => l0 i - b0' i) ltac:(rewrite count_true; lia))
    as [T [S [r [E [P [Q [HT [HS [Hc HL]]]]]]]]].
  - intros x i Hi. pose proof (H x i Hi) as E.
    unfold ungated_bias, bias_ridge_form in E. unfold masked. cbv beta iota. lra.
  - exists T, S, r, E, P, Q. split; [intros t Ht Et; apply (HT t Ht Et)|].
    split; [rewrite !count_true in Hc; lia | exact HL].
Qed.

End Peeling.
