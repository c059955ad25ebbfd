(** * R8 with biases for ReLU: necessity of the width condition (paper.md R9)

    A canonical biased ridge form
    [F x = L x + l0 + sum_{t < k} G[:,t] relu(u_t . x + s_t)]
    ([generic_bias_lines d k U s G]: [u_t <> 0], the augmented rows
    [(u_t, s_t)] pairwise independent, every [G[:,t] <> 0]) equal to a biased
    ReLU block of width [m] satisfies R8's width condition
    [width_condition d k m U G L].  The proof peels off one hyperplane class
    at a time:
    - [class_kink]: along a hyperplane [p.x + c0 = 0], the rows of two
      families proportional to [(p, c0)] carry the same total [sum |lam| beta]
      when the families differ by an affine function;
    - [affine_block_low_rank]: a masked block equal to an affine map
      [x |-> Mx x + mu] has [Mx] of rank at most half its number of rows
      (each class of rows has net kink 0, so it is linear and, if it has at
      least two rows, of rank one; a single row of such a class is dead);
    - [form_block_width]: a class of the form served by one row is in [S]
      (flipped) or untouched, served by two or more rows it is in [T];
    - [relu_bias_form_necessary] (headline) and [relu_bias_form_iff]
      (headline, with [BiasRidgeForm.bias_width_condition_sufficient]);
    - [relu_bias_grouped_iff] (headline): for a biased block with a grouping
      into canonical classes ([ReluBiasGrouping.bias_grouping]),
      absorbability at width [m] iff the width condition. *)

From Coq Require Import Reals Lra Lia Arith Bool.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry FiniteMaps
  Ridge ReluSubmatrix Biases BiasSpec AffineRidge ReluBias RidgeForm BiasRidgeForm
  ReluBiasGrouping.
Open Scope R_scope.

(** ** Rows proportional to a given augmented row [(p, c0)] *)

(** The candidate factor, read off a coordinate [q0] with [p q0 <> 0]. *)
Definition lam_of (p : vec) (q0 : nat) (v : vec) : R := v q0 / p q0.

(** [(v, e) = lam (p, c0)] for some [lam] (decided with [lam = lam_of]). *)
Definition on_class (d : nat) (p : vec) (c0 : R) (q0 : nat) (v : vec) (e : R) : bool :=
  if forall_lt_sumbool (fun k => v k = lam_of p q0 v * p k)
       (fun k => Req_EM_T (v k) (lam_of p q0 v * p k)) d
  then if Req_EM_T e (lam_of p q0 v * c0) then true else false
  else false.

Lemma on_class_true d p c0 q0 v e :
  on_class d p c0 q0 v e = true ->
  (forall k, (k < d)%nat -> v k = lam_of p q0 v * p k) /\ e = lam_of p q0 v * c0.
Proof.
  unfold on_class. destruct forall_lt_sumbool as [H|H]; [|discriminate].
  destruct Req_EM_T as [E|E]; [|discriminate]. intros _. split; assumption.
Qed.

Lemma on_class_intro d p c0 q0 v e lam : (q0 < d)%nat -> p q0 <> 0 ->
  (forall k, (k < d)%nat -> v k = lam * p k) -> e = lam * c0 ->
  on_class d p c0 q0 v e = true.
Proof.
  intros Hq Hp Hv He.
  assert (Hl : lam_of p q0 v = lam) by (unfold lam_of; rewrite (Hv q0 Hq); field; exact Hp).
  unfold on_class. rewrite Hl.
  destruct forall_lt_sumbool as [H|H]; [| exfalso; apply H; exact Hv].
  destruct Req_EM_T as [E|E]; [reflexivity | contradiction].
Qed.

Lemma on_class_self d p c0 q0 : (q0 < d)%nat -> p q0 <> 0 ->
  on_class d p c0 q0 p c0 = true /\ lam_of p q0 p = 1.
Proof.
  intros Hq Hp. split.
  - apply (on_class_intro d p c0 q0 p c0 1 Hq Hp); intros; ring.
  - unfold lam_of. field. exact Hp.
Qed.

(** On a class row, the affine value is [lam] times that of [(p, c0)]. *)
Lemma on_class_value d p c0 q0 v e x :
  on_class d p c0 q0 v e = true ->
  dot d v x + e = lam_of p q0 v * (dot d p x + c0).
Proof.
  intros H. destruct (on_class_true d p c0 q0 v e H) as [Hv He].
  rewrite (parallel_dot d v p _ x Hv), He. ring.
Qed.

(** ** Kinks of a class *)

Lemma bkink_class d N V c beta p c0 q0 x0 :
  (q0 < d)%nat -> p q0 <> 0 -> dot d p x0 + c0 = 0 ->
  (forall j, (j < N)%nat -> dot d (row V j) x0 + c j <> 0 \/
     exists lam, (forall k, (k < d)%nat -> row V j k = lam * p k) /\ c j = lam * c0) ->
  bkink_sum d N V c beta x0 p =
  dot d p p * sumn N (fun j => if on_class d p c0 q0 (row V j) (c j)
                               then Rabs (lam_of p q0 (row V j)) * beta j else 0).
Proof.
  intros Hq Hp Hx0 Hav. unfold bkink_sum. rewrite <- sumn_scal_l.
  assert (Hpp : 0 <= dot d p p).
  { unfold dot. apply sumn_nonneg. intros; apply Rle_0_sqr. }
  apply sumn_ext. intros j Hj.
  destruct (on_class d p c0 q0 (row V j) (c j)) eqn:Ec.
  - rewrite (on_class_value d p c0 q0 _ _ x0 Ec), Hx0, Rmult_0_r.
    destruct (Req_EM_T 0 0) as [_|C]; [|congruence].
    destruct (on_class_true d p c0 q0 _ _ Ec) as [Hv _].
    rewrite (parallel_dot d (row V j) p _ p Hv), Rabs_mult, (Rabs_right (dot d p p)) by lra.
    ring.
  - destruct (Hav j Hj) as [Hn|[lam [Hv He]]].
    + destruct (Req_EM_T (dot d (row V j) x0 + c j) 0); [contradiction | ring].
    + rewrite (on_class_intro d p c0 q0 _ _ lam Hq Hp Hv He) in Ec. discriminate.
Qed.

(** Two families differing by an affine function carry the same class totals. *)
Lemma class_kink d N V c beta N2 W e gamma (F : vec -> R) p c0 q0 :
  (q0 < d)%nat -> p q0 <> 0 ->
  (forall x, bridge_sum d N V c beta x = bridge_sum d N2 W e gamma x + F x) ->
  affine_like F ->
  sumn N (fun j => if on_class d p c0 q0 (row V j) (c j)
                   then Rabs (lam_of p q0 (row V j)) * beta j else 0) =
  sumn N2 (fun j => if on_class d p c0 q0 (row W j) (e j)
                    then Rabs (lam_of p q0 (row W j)) * gamma j else 0).
Proof.
  intros Hq Hp H HF.
  assert (Hnz : nonzero_vec d p) by (exists q0; split; assumption).
  pose proof (dot_self_pos d p Hnz) as Hpp.
  pose (v := fun j => if lt_dec j N then row V j else row W (j - N)%nat).
  pose (ev := fun j => if lt_dec j N then c j else e (j - N)%nat).
  destruct (affine_avoid d p c0 v ev (N + N2) Hnz) as [x0 [Hx0 Hav]].
  pose proof (bkink_eq d N V c beta N2 W e gamma F H HF x0 p) as E.
  rewrite (bkink_class d N V c beta p c0 q0 x0 Hq Hp Hx0) in E.
  - rewrite (bkink_class d N2 W e gamma p c0 q0 x0 Hq Hp Hx0) in E.
    + apply (Rmult_eq_reg_l (dot d p p)); [exact E | lra].
    + intros j Hj. pose proof (Hav (N + j)%nat ltac:(lia)) as G. unfold v, ev in G.
      destruct (lt_dec (N + j) N); [lia|]. replace (N + j - N)%nat with j in G by lia. exact G.
  - intros j Hj. pose proof (Hav j ltac:(lia)) as G. unfold v, ev in G.
    destruct (lt_dec j N); [exact G | lia].
Qed.

(** ** ReLU on a class *)

Lemma relu_scale_any lam z :
  relu (lam * z) = Rabs lam * relu z - (if Rlt_dec lam 0 then Rabs lam * z else 0).
Proof.
  destruct (Req_EM_T lam 0) as [->|Hl].
  - rewrite Rmult_0_l, Rabs_R0. destruct (Rlt_dec 0 0); [lra|].
    unfold relu, Rmax. destruct (Rle_dec 0 0); lra.
  - apply relu_scale_abs. exact Hl.
Qed.

(** The rows of a class add up to [(total) relu(z) - (negative part) z]. *)
Lemma class_relu_sum d w (A' : mat) (c' : vec) (beta : nat -> R) (h : nat -> bool)
    p c0 q0 x :
  (forall j, (j < w)%nat -> h j = true -> on_class d p c0 q0 (row A' j) (c' j) = true) ->
  sumn w (fun j => (if h j then beta j else 0) * relu (dot d (row A' j) x + c' j)) =
  sumn w (fun j => if h j then Rabs (lam_of p q0 (row A' j)) * beta j else 0)
    * relu (dot d p x + c0)
  - sumn w (fun j => if h j then
                       if Rlt_dec (lam_of p q0 (row A' j)) 0
                       then Rabs (lam_of p q0 (row A' j)) * beta j else 0
                     else 0) * (dot d p x + c0).
Proof.
  intros Hh. rewrite <- !sumn_scal_r, <- sumn_minus. apply sumn_ext. intros j Hj.
  destruct (h j) eqn:E; [|ring].
  rewrite (on_class_value d p c0 q0 _ _ x (Hh j Hj E)), relu_scale_any.
  destruct (Rlt_dec (lam_of p q0 (row A' j)) 0); ring.
Qed.

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

(** Splitting a masked sum along a second mask. *)
Lemma msum_split w (M h : nat -> bool) (f : nat -> R) :
  sumn w (fun j => (if M j then f j else 0)) =
  sumn w (fun j => if M j && negb (h j) then f j else 0)
  + sumn w (fun j => if M j && h j then f j else 0).
Proof.
  rewrite <- sumn_plus. apply sumn_ext. intros j _. destruct (M j), (h j); simpl; ring.
Qed.

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

(** ** The affine remainder of a masked block *)

Definition masked (M : nat -> bool) (beta : nat -> R) : nat -> R :=
  fun j => if M j then beta j else 0.

(** If a masked block equals [x |-> dot ell x + const + (a form)], the [|.|]
    parts differ by an affine function. *)
Lemma masked_bridge_eq d w (A' : mat) (c' : vec) (beta : nat -> R) k (U : mat) (s : vec)
    (gamma : nat -> R) (ell : vec) (C : R) :
  (forall x, sumn w (fun j => beta j * relu (dot d (row A' j) x + c' j)) =
             dot d ell x + C + sumn k (fun t => gamma t * relu (dot d (row U t) x + s t))) ->
  forall x, bridge_sum d w A' c' beta x =
    bridge_sum d k U s gamma x +
    (2 * (dot d ell x + C) + sumn k (fun t => gamma t * (dot d (row U t) x + s t))
     - sumn w (fun j => beta j * (dot d (row A' j) x + c' j))).
Proof.
  intros H x. pose proof (H x) as E. rewrite !relu_sum_split in E. lra.
Qed.

Lemma masked_gap_affine d w (A' : mat) (c' : vec) (beta : nat -> R) k (U : mat) (s : vec)
    (gamma : nat -> R) (ell : vec) (C : R) :
  affine_like (fun x => 2 * (dot d ell x + C) + sumn k (fun t => gamma t * (dot d (row U t) x + s t))
                        - sumn w (fun j => beta j * (dot d (row A' j) x + c' j))).
Proof.
  intros x0 w' t.
  pose proof (affine_like_dot d ell C x0 w' t) as E0.
  pose proof (affine_like_sum_dot d k U s gamma x0 w' t) as E1.
  pose proof (affine_like_sum_dot d w A' c' beta x0 w' t) as E2.
  cbv beta in E0, E1, E2. lra.
Qed.

(** ** A block equal to an affine map has low rank *)

Lemma no_active_row_const d w (A' : mat) (c' : vec) (B' : mat) (M : nat -> bool) i :
  (forall j, (j < w)%nat -> M j = true -> forall q, (q < d)%nat -> A' j q = 0) ->
  forall x, sumn w (fun j => masked M (B' i) j * relu (dot d (row A' j) x + c' j)) =
            sumn w (fun j => masked M (B' i) j * relu (c' j)).
Proof.
  intros H x. apply sumn_ext. intros j Hj. unfold masked. destruct (M j) eqn:E; [|ring].
  rewrite (parallel_dot d (row A' j) (row A' j) 0 x) by (intros q Hq; unfold row; rewrite (H j Hj E q Hq); ring).
  rewrite Rmult_0_l, Rplus_0_l. reflexivity.
Qed.

Lemma affine_block_low_rank d w (A' : mat) (c' : vec) (B' : mat) : forall n (M : nat -> bool)
    (Mx : mat) (mu : vec),
  (count w M <= n)%nat ->
  (forall x i, (i < d)%nat ->
     sumn w (fun j => masked M (B' i) j * relu (dot d (row A' j) x + c' j)) = mv d Mx x i + mu i) ->
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
    apply (affine_const_zero d Mx mu i (sumn w (fun j => masked M (B' i) j * relu (c' j))));
    [intros x; rewrite <- (H x i Hi); apply no_active_row_const; exact Hz | exact Hq].
  - destruct Hex as [j0 [Hj0 [HM0 _]]]. pose proof (count_ge1 w M j0 Hj0 HM0). lia.
  - destruct Hex as [j0 [Hj0 [HM0 [q0 [Hq0 Hp0]]]]].
    set (p := row A' j0). set (c0 := c' j0).
    set (h := fun j => on_class d p c0 q0 (row A' j) (c' j)).
    destruct (on_class_self d p c0 q0 Hq0 Hp0) as [Hself Hlam1].
    (* the class of [j0] has net kink 0 *)
    assert (Hk : forall i, (i < d)%nat ->
      sumn w (fun j => if h j then Rabs (lam_of p q0 (row A' j)) * masked M (B' i) j else 0) = 0).
    { intros i Hi.
      pose proof (masked_bridge_eq d w A' c' (masked M (B' i)) 0 A' c' (fun _ => 0) (row Mx i) (mu i)
                    (fun x => eq_trans (H x i Hi) (eq_sym (Rplus_0_r _)))) as Hb.
      pose proof (class_kink d w A' c' (masked M (B' i)) 0 A' c' (fun _ => 0) _ p c0 q0 Hq0 Hp0
                    Hb (masked_gap_affine d w A' c' (masked M (B' i)) 0 A' c' (fun _ => 0)
                          (row Mx i) (mu i))) as Hc.
      rewrite sumn_0 in Hc. exact Hc. }
    (* negative part of the class *)
    set (Nn := fun i => sumn w (fun j => if M j && h j then
                           if Rlt_dec (lam_of p q0 (row A' j)) 0
                           then Rabs (lam_of p q0 (row A' j)) * B' i j else 0
                         else 0)).
    set (M' := fun j => M j && negb (h j)).
    assert (Hrest : forall x i, (i < d)%nat ->
      sumn w (fun j => masked M' (B' i) j * relu (dot d (row A' j) x + c' j)) =
      mv d (fun i' q => Mx i' q + Nn i' * p q) x i + (mu i + Nn i * c0)).
    { intros x i Hi. rewrite mv_add_outer.
      pose proof (H x i Hi) as E. unfold masked in E.
      rewrite (msum_coef_split w M h (B' i)) in E.
      rewrite (class_relu_sum d w A' c' (B' i) (fun j => M j && h j) p c0 q0 x) in E
        by (intros j Hj Hmh; apply andb_prop in Hmh; apply Hmh).
      rewrite (sumn_ext w (fun j => if M j && h j then Rabs (lam_of p q0 (row A' j)) * B' i j else 0)
                 (fun j => if h j then Rabs (lam_of p q0 (row A' j)) * masked M (B' i) j else 0))
        in E by (intros j _; unfold masked; destruct (M j), (h j); simpl; ring).
      rewrite (Hk i Hi) in E. fold (Nn i) in E. unfold masked, M'. lra. }
    assert (Hcnt : count w M = (count w M' + count w (fun j => M j && h j))%nat)
      by apply count_split_mask.
    assert (Hh1 : (1 <= count w (fun j => M j && h j))%nat).
    { apply (count_ge1 w _ j0 Hj0). rewrite HM0. exact Hself. }
    destruct (IH M' _ _ ltac:(lia) Hrest) as [r' [P' [Q' [Hr' HPQ]]]].
    destruct (le_lt_dec 2 (count w (fun j => M j && h j))) as [H2|H2].
    + (* at least two rows: one more rank-one term *)
      destruct (low_rank_extend d r' P' Q' (fun i => - Nn i) p) as [P [Q HPQ']].
      exists (S r'), P, Q. split; [lia|]. intros i q Hi Hq.
      rewrite (HPQ' i q Hq), <- (HPQ i q Hi Hq). ring.
    + (* the class is [{j0}] alone: its negative part is 0 *)
      exists r', P', Q'. split; [lia|]. intros i q Hi Hq. rewrite <- (HPQ i q Hi Hq).
      assert (HN : Nn i = 0).
      { unfold Nn. rewrite (msum_single w (fun j => M j && h j) _ j0 Hj0
                              ltac:(cbv beta; rewrite HM0; exact Hself) H2).
        fold p. rewrite Hlam1. destruct (Rlt_dec 1 0); [lra | reflexivity]. }
      rewrite HN. ring.
Qed.

(** ** Peeling the classes of the form *)

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

Lemma count_ext k (M1 M2 : nat -> bool) :
  (forall t, (t < k)%nat -> M1 t = M2 t) -> count k M1 = count k M2.
Proof.
  induction k as [|k IH]; intros H; [reflexivity|]. simpl.
  rewrite IH by (intros; apply H; lia). rewrite (H k ltac:(lia)). reflexivity.
Qed.

(** The only class of the form on the hyperplane of [t0] is [t0]. *)
Lemma form_class_sum d k U s t0 q0 :
  (forall i j, (i < k)%nat -> (j < k)%nat -> i <> j ->
     lin_independent2 (S d) (aug_row d U s i) (aug_row d U s j)) ->
  (t0 < k)%nat -> (q0 < d)%nat -> U t0 q0 <> 0 ->
  forall (beta : nat -> R),
  sumn k (fun t => if on_class d (row U t0) (s t0) q0 (row U t) (s t)
                   then Rabs (lam_of (row U t0) q0 (row U t)) * beta t else 0) = beta t0.
Proof.
  intros Hind Ht0 Hq0 Hp0 beta.
  rewrite (sumn_ext k _ (fun t => if Nat.eq_dec t0 t then beta t else 0)).
  - apply sumn_delta. exact Ht0.
  - intros t Ht. destruct (Nat.eq_dec t0 t) as [<-|Hne].
    + destruct (on_class_self d (row U t0) (s t0) q0 Hq0 Hp0) as [Hs Hl].
      rewrite Hs, Hl, Rabs_R1. ring.
    + destruct (on_class d (row U t0) (s t0) q0 (row U t) (s t)) eqn:E; [|reflexivity].
      exfalso. destruct (on_class_true d _ _ q0 _ _ E) as [Hv He].
      apply (aug_multiple_not_independent d U s t t0 (row U t) (s t) 1
               (lam_of (row U t0) q0 (row U t)));
        [lra | intros; unfold row; ring | ring | exact Hv | exact He | apply Hind; auto].
Qed.

Lemma form_block_width d k w U s G A' c' B' : generic_bias_lines d k U s G ->
  forall n (K M : nat -> bool) (L : mat) (l0 : vec),
  (count k K <= n)%nat ->
  (forall x i, (i < d)%nat ->
     sumn w (fun j => masked M (B' i) j * relu (dot d (row A' j) x + c' j)) =
     mv d L x i + l0 i + sumn k (fun t => masked K (G i) t * relu (dot d (row U t) x + s t))) ->
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
    destruct (affine_block_low_rank d w A' c' B' (count w M) M L l0 (le_n _)) as [r [P [Q [Hr HPQ]]]];
    [ intros x i Hi; rewrite (H x i Hi);
      rewrite (sumn_zero k (fun t => masked K (G i) t * relu (dot d (row U t) x + s t)))
        by (intros t Ht; unfold masked; rewrite (HK t Ht); ring); ring
    | exists (fun _ => false), (fun _ => false), r, (fun _ _ => 0), P, Q;
      split; [intros; discriminate|]; split; [intros; discriminate|];
      split; [rewrite (count_all_false k K HK), (count_all_false k (fun _ => false)) by reflexivity; lia|];
      intros i q Hi Hq; unfold masked_outer;
      rewrite !sumn_zero by (intros; reflexivity);
      rewrite (HPQ i q Hi Hq); ring ].
  - destruct Hex as [t0 [Ht0 HK0]]. pose proof (count_ge1 k K t0 Ht0 HK0). lia.
  - destruct Hex as [t0 [Ht0 HK0]].
    destruct (Hnz t0 Ht0) as [q0 [Hq0 Hp0]].
    set (p := row U t0). set (c0 := s t0).
    set (h := fun j => on_class d p c0 q0 (row A' j) (c' j)).
    (* the block rows on the hyperplane of [t0] carry the kink [G[:,t0]] *)
    assert (Hk : forall i, (i < d)%nat ->
      sumn w (fun j => if h j then Rabs (lam_of p q0 (row A' j)) * masked M (B' i) j else 0)
      = G i t0).
    { intros i Hi.
      pose proof (masked_bridge_eq d w A' c' (masked M (B' i)) k U s (masked K (G i))
                    (row L i) (l0 i) (fun x => H x i Hi)) as Hbr.
      pose proof (class_kink d w A' c' (masked M (B' i)) k U s (masked K (G i)) _ p c0 q0 Hq0 Hp0
                    Hbr (masked_gap_affine d w A' c' (masked M (B' i)) k U s (masked K (G i))
                          (row L i) (l0 i))) as Hc.
      etransitivity; [exact Hc|]. unfold p, c0.
      rewrite (form_class_sum d k U s t0 q0 Hind Ht0 Hq0 Hp0).
      unfold masked. rewrite HK0. reflexivity. }
    set (Nn := fun i => sumn w (fun j => if M j && h j then
                           if Rlt_dec (lam_of p q0 (row A' j)) 0
                           then Rabs (lam_of p q0 (row A' j)) * B' i j else 0
                         else 0)).
    set (M' := fun j => M j && negb (h j)).
    set (K' := fun t => K t && negb (Nat.eqb t t0)).
    assert (Hrest : forall x i, (i < d)%nat ->
      sumn w (fun j => masked M' (B' i) j * relu (dot d (row A' j) x + c' j)) =
      mv d (fun i' q => L i' q + Nn i' * p q) x i + (l0 i + Nn i * c0)
      + sumn k (fun t => masked K' (G i) t * relu (dot d (row U t) x + s t))).
    { intros x i Hi. rewrite mv_add_outer.
      pose proof (H x i Hi) as E. unfold masked in E.
      rewrite (msum_coef_split w M h (B' i)) in E.
      rewrite (msum_coef_split k K (fun t => Nat.eqb t t0) (G i)) in E.
      rewrite (class_relu_sum d w A' c' (B' i) (fun j => M j && h j) p c0 q0 x) in E
        by (intros j Hj Hmh; apply andb_prop in Hmh; apply Hmh).
      rewrite (sumn_ext w (fun j => if M j && h j then Rabs (lam_of p q0 (row A' j)) * B' i j else 0)
                 (fun j => if h j then Rabs (lam_of p q0 (row A' j)) * masked M (B' i) j else 0))
        in E by (intros j _; unfold masked; destruct (M j), (h j); simpl; ring).
      rewrite (Hk i Hi) in E.
      rewrite (sumn_ext k (fun t => (if K t && Nat.eqb t t0 then G i t else 0)
                                    * relu (dot d (row U t) x + s t))
                 (fun t => if Nat.eq_dec t0 t then G i t * relu (dot d (row U t) x + s t) else 0))
        in E.
      2:{ intros t _. destruct (Nat.eqb_spec t t0) as [->|Hne].
          - rewrite HK0. destruct (Nat.eq_dec t0 t0); [simpl; ring | congruence].
          - rewrite andb_false_r. destruct (Nat.eq_dec t0 t); [congruence | ring]. }
      rewrite (sumn_delta k t0 _ Ht0) in E. fold (Nn i) in E. fold p c0 in E.
      unfold masked, M', K'. lra. }
    assert (HK' : count k K = S (count k K')) by (apply count_single; assumption).
    assert (Hcnt : count w M = (count w M' + count w (fun j => M j && h j))%nat)
      by apply count_split_mask.
    assert (HK't0 : K' t0 = false) by (unfold K'; rewrite Nat.eqb_refl, andb_false_r; reflexivity).
    destruct (IH K' M' _ _ ltac:(lia) Hrest) as [T' [S' [r' [E' [P' [Q' [HT' [HS' [Hc' HL']]]]]]]]].
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
      unfold masked in Hf. destruct (h j1), (M j1); simpl in *; try reflexivity; exfalso; apply Hf; ring. }
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
           unfold p in E. unfold row in E. lra.
        -- intros t Ht E. destruct (Nat.eqb_spec t t0) as [->|]; [congruence | reflexivity].
    + (* one row [j1]: [t0] is untouched or flipped *)
      assert (Hone : forall f : nat -> R,
        sumn w (fun j => if M j && h j then f j else 0) = f j1)
        by (intros f; apply (msum_single w _ f j1 Hj1 HMh1 H2)).
      assert (Hcoef : forall i, (i < d)%nat ->
        Rabs (lam_of p q0 (row A' j1)) * B' i j1 = G i t0).
      { intros i Hi. rewrite <- (Hk i Hi).
        transitivity (sumn w (fun j => if M j && h j
                                       then Rabs (lam_of p q0 (row A' j)) * B' i j else 0)).
        - symmetry. apply Hone.
        - apply sumn_ext. intros j _. unfold masked. destruct (M j), (h j); simpl; ring. }
      assert (HN : forall i, (i < d)%nat ->
        Nn i = if Rlt_dec (lam_of p q0 (row A' j1)) 0 then G i t0 else 0).
      { intros i Hi. unfold Nn.
        rewrite (Hone (fun j => if Rlt_dec (lam_of p q0 (row A' j)) 0
                                then Rabs (lam_of p q0 (row A' j)) * B' i j else 0)).
        cbv beta. rewrite (Hcoef i Hi). reflexivity. }
      destruct (Rlt_dec (lam_of p q0 (row A' j1)) 0) as [Neg|Pos].
      * exists T', (fun t => S' t || Nat.eqb t t0), r', E', P', Q'.
        split; [|split; [|split]].
        -- intros t Ht E. destruct (HT' t Ht E) as [E1 E2]. destruct (HK'K t Ht E1) as [E3 E4].
           split; [exact E3|]. rewrite E2. apply Nat.eqb_neq. exact E4.
        -- intros t Ht E. destruct (Nat.eqb_spec t t0) as [->|Hne]; [exact HK0|].
           rewrite orb_false_r in E. apply (HK'K t Ht (HS' t Ht E)).
        -- lia.
        -- intros i q Hi Hq. rewrite masked_outer_add by assumption.
           pose proof (HL' i q Hi Hq) as E. cbv beta in E. rewrite (HN i Hi) in E.
           unfold p, row in E. lra.
      * exists T', S', r', E', P', Q'.
        split; [|split; [|split]].
        -- intros t Ht E. destruct (HT' t Ht E) as [E1 E2].
           split; [apply (HK'K t Ht E1) | exact E2].
        -- intros t Ht E. apply (HK'K t Ht (HS' t Ht E)).
        -- lia.
        -- intros i q Hi Hq. pose proof (HL' i q Hi Hq) as E. cbv beta in E.
           rewrite (HN i Hi) in E. lra.
Qed.

(** ** Headline results *)

Theorem relu_bias_form_necessary : forall d k m U s G L l0,
  generic_bias_lines d k U s G ->
  (exists A' c' B' b0',
     same_fun d (ungated_bias relu d m A' c' B' b0') (bias_ridge_form relu d k U s G L l0)) ->
  width_condition d k m U G L.
Proof.
  intros d k m U s G L l0 Hg [A' [c' [B' [b0' H]]]].
  destruct (form_block_width d k m U s G A' c' B' Hg k (fun _ => true) (fun _ => true) L
              (fun i => l0 i - b0' i) ltac:(rewrite count_true; lia))
    as [T [S [r [E [P [Q [HT [HS [Hc HL]]]]]]]]].
  - intros x i Hi. pose proof (H x i Hi) as E.
    unfold ungated_bias, bias_ridge_form in E. unfold masked. cbv beta iota. lra.
  - exists T, S, r, E, P, Q. split; [intros t Ht Et; apply (HT t Ht Et)|].
    split; [rewrite !count_true in Hc; lia | exact HL].
Qed.

Theorem relu_bias_form_iff : forall d k m U s G L l0,
  generic_bias_lines d k U s G ->
  ((exists A' c' B' b0',
      same_fun d (ungated_bias relu d m A' c' B' b0') (bias_ridge_form relu d k U s G L l0))
   <-> width_condition d k m U G L).
Proof.
  intros d k m U s G L l0 Hg. split.
  - apply relu_bias_form_necessary. exact Hg.
  - intros Hw. exact (bias_width_condition_sufficient relu d k m U s G L l0 relu_odd_part Hw).
Qed.

Theorem relu_bias_grouped_iff : forall d n k m A c B b0 U s G L l0 cls lam,
  bias_grouping d n k A c B b0 U s G L l0 cls lam ->
  generic_bias_lines d k U s G ->
  (absorbable_ungated_bias relu d n m identity A c B b0 <-> width_condition d k m U G L).
Proof.
  intros d n k m A c B b0 U s G L l0 cls lam Hgr Hg. split.
  - intros [A' [c' [B' [b0' H]]]]. apply (relu_bias_form_necessary d k m U s G L l0 Hg).
    exists A', c', B', b0'. intros x p Hp. rewrite (H x p Hp).
    exact (bias_grouping_form d n k A c B b0 U s G L l0 cls lam Hgr x p Hp).
  - apply (relu_bias_grouped_sufficient d n k m A c B b0 U s G L l0 cls lam Hgr).
Qed.

(** ** Non-vacuity *)

(** The block [x + relu(x + 1) + relu(2x + 2)] of [ReluBiasGrouping]
    (one class: [u = 1], [s = 1], kink [G = 3], [L = 1]) is canonical after
    grouping; by [relu_bias_grouped_iff] it is absorbable at width 2 and not
    at width 1.  It is not generic, and no [S] has [B[:,S] A[S,:] = -1]
    (the sums are [0, 1, 2, 3]), so R5's criterion does not apply to it. *)
Example bias_grouped_canonical :
  generic_bias_lines 1 1 (fun _ _ => 1) (fun _ => 1) (fun _ _ => 3).
Proof.
  split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row; lra].
  - intros i j Hi Hj Hne. lia.
  - intros i _. exists 0%nat. split; [lia | unfold col; lra].
Qed.

Example relu_bias_grouped_iff_width2 :
  absorbable_ungated_bias relu 1 2 2 identity bg_A bg_c (fun _ _ => 1) (fun _ => 0).
Proof.
  apply (relu_bias_grouped_iff 1 2 1 2 _ _ _ _ _ _ _ _ _ _ _ bias_grouping_instance
           bias_grouped_canonical).
  exists (fun _ => true), (fun _ => false), 0%nat, (fun _ _ => 1), (fun _ _ => 0), (fun _ _ => 0).
  split; [intros; reflexivity|]. split; [simpl; lia|].
  intros i j _ _. unfold masked_outer, low_rank. simpl. ring.
Qed.

Example relu_bias_grouped_iff_width1 :
  ~ absorbable_ungated_bias relu 1 2 1 identity bg_A bg_c (fun _ _ => 1) (fun _ => 0).
Proof.
  rewrite (relu_bias_grouped_iff 1 2 1 1 _ _ _ _ _ _ _ _ _ _ _ bias_grouping_instance
             bias_grouped_canonical).
  intros [T [S [r [E [P [Q [_ [Hw HL]]]]]]]].
  pose proof (HL 0%nat 0%nat ltac:(lia) ltac:(lia)) as H.
  unfold masked_outer, low_rank in H. simpl in Hw, H.
  destruct (T 0%nat); [lia|]. assert (r = 0%nat) by lia. subst r. simpl in H.
  destruct (S 0%nat); lra.
Qed.

Example relu_bias_grouped_no_submatrix :
  ~ exists S, submatrix_cond 1 2 S bg_A (fun _ _ => 1).
Proof.
  intros [S HS]. specialize (HS 0%nat 0%nat ltac:(lia) ltac:(lia)).
  unfold subset_sum, identity, bg_A in HS. simpl in HS.
  destruct (S 0%nat), (S 1%nat); lra.
Qed.

(** Both sides of [relu_bias_form_iff] on the canonical form [x + relu(x + 1)]
    ([d = k = 1], [U = G = L = 1], [s = 1]): a block of width 2, none of width 1. *)
Example relu_bias_form_iff_width2 :
  exists A' c' B' b0', same_fun 1 (ungated_bias relu 1 2 A' c' B' b0')
    (bias_ridge_form relu 1 1 (fun _ _ => 1) (fun _ => 1) (fun _ _ => 1) (fun _ _ => 1)
       (fun _ => 0)).
Proof.
  apply (relu_bias_form_iff 1 1 2 _ _ _ _ _ (relu_bias_generic_instance 1 ltac:(lra))).
  exact bias_width_condition_instance.
Qed.

Example relu_bias_form_iff_width1 :
  ~ exists A' c' B' b0', same_fun 1 (ungated_bias relu 1 1 A' c' B' b0')
      (bias_ridge_form relu 1 1 (fun _ _ => 1) (fun _ => 1) (fun _ _ => 1) (fun _ _ => 1)
         (fun _ => 0)).
Proof.
  rewrite (relu_bias_form_iff 1 1 1 _ _ _ _ _ (relu_bias_generic_instance 1 ltac:(lra))).
  intros [T [S [r [E [P [Q [_ [Hw HL]]]]]]]].
  pose proof (HL 0%nat 0%nat ltac:(lia) ltac:(lia)) as H.
  unfold masked_outer, low_rank in H. simpl in Hw, H.
  destruct (T 0%nat); [lia|]. assert (r = 0%nat) by lia. subst r. simpl in H.
  destruct (S 0%nat); unfold rb_ex_A in H; lra.
Qed.
