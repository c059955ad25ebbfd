(** * R8 with biases for the GELU family: necessity of the width condition (paper.md R9)

    For any [sigma] with [odd_part_identity sigma] ([sigma z - sigma (-z) = z])
    and [affine_ridge_unique_even (even_part sigma)] (GELU, GELU_tanh, SiLU),
    a canonical biased ridge form
    [F x = L x + l0 + sum_{t < k} G[:,t] sigma(u_t . x + s_t)]
    ([generic_bias_signs d k U s G]: [u_t <> 0], the augmented rows
    [(u_t, s_t)] pairwise not equal up to sign, every [G[:,t] <> 0]) equal to
    a biased block of width [m] satisfies R8's width condition
    [width_condition d k m U G L].  The proof is that of
    [ReluBiasNecessity.v] with hyperplane classes replaced by the classes
    [+-(u, s)] of augmented rows:
    - [pm_class_total]: for two families differing by an affine function, the
      coefficients of the rows equal up to sign to a given augmented row add
      up to the same total (write [sigma = even_part sigma + id/2] and apply
      [GeluBias.affine_ridge_grouped] to the even parts);
    - [pm_affine_block_low_rank]: a masked block equal to an affine map
      [x |-> Mx x + mu] has [Mx] of rank at most half its number of rows;
    - [pm_form_block_width]: a class of the form served by one row is in [S]
      (sign [-1]) or untouched (sign [+1]), served by two or more rows it is
      in [T];
    - headlines: [pm_bias_form_necessary], [pm_bias_form_iff] (with
      [BiasRidgeForm.bias_width_condition_sufficient]),
      [pm_bias_residual_form_iff] (a block whose residual equals a canonical
      form), [pm_bias_block_decided] (every biased block is decided, with
      [PmBiasCanonical.pm_bias_ridge_form_canonical]) and its instances
      [gelu_bias_block_decided], [gelu_tanh_bias_block_decided],
      [silu_bias_block_decided];
    - non-vacuity: the non-generic block [x + gelu(x + 1) + gelu(x + 1)] is
      absorbable at width 2 and not at width 1 (also for GELU_tanh and SiLU),
      and [x + gelu(x + 1) - gelu(-x - 1) = 2 x + 1] (no class at all) is
      absorbable at width 2 and not at width 1. *)

From Coq Require Import Reals Lra Lia Arith Bool.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry FiniteMaps
  Ridge ReluSubmatrix Biases BiasSpec AugRows AffineRidge ReluBias RidgeForm BiasRidgeForm
  ReluBiasNecessity BiasCanonical GeluAffineRidge GeluBias PmBiasCanonical
  SiluAffineRidge GeluTanhAffineRidge.
Open Scope R_scope.

(** ** Classes of augmented rows equal up to sign *)

(** Row [j] of [(V, cv)] equals row [t] of [(P, cp)] up to sign, as augmented rows. *)
Definition pm_class (d : nat) (V : mat) (cv : vec) (j : nat) (P : mat) (cp : vec) (t : nat)
  : bool :=
  if sign_sim_dec (S d) (aug_row d V cv j) (aug_row d P cp t) then true else false.

Lemma pm_class_self d P cp t : pm_class d P cp t P cp t = true.
Proof.
  unfold pm_class. destruct sign_sim_dec as [_|C]; [reflexivity|].
  exfalso. apply C, same_up_to_sign_refl.
Qed.

Lemma sim_ind_pm_class d V cv j P cp t :
  sim_ind (S d) (aug_row d V cv j) (aug_row d P cp t) = if pm_class d V cv j P cp t then 1 else 0.
Proof. unfold sim_ind, pm_class. destruct sign_sim_dec; reflexivity. Qed.

(** On a class row, [lam_of] is the sign and the affine value is [+-] that of row [t]. *)
Lemma pm_class_value d V cv j P cp t q0 : (q0 < d)%nat -> P t q0 <> 0 ->
  pm_class d V cv j P cp t = true ->
  (lam_of (row P t) q0 (row V j) = 1 \/ lam_of (row P t) q0 (row V j) = -1) /\
  forall x, dot d (row V j) x + cv j = lam_of (row P t) q0 (row V j) * (dot d (row P t) x + cp t).
Proof.
  intros Hq Hp Hc. unfold pm_class in Hc.
  destruct sign_sim_dec as [Hs|_]; [|discriminate].
  destruct (aug_pm_split d V cv j P cp t Hs) as [c [Hc1 [HA Hcc]]].
  assert (Hl : lam_of (row P t) q0 (row V j) = c).
  { unfold lam_of, row. rewrite (HA q0 Hq). field. exact Hp. }
  rewrite Hl. split; [exact Hc1|]. intros x.
  rewrite (parallel_dot d (row V j) (row P t) c x)
    by (intros l Hl'; unfold row; apply HA; exact Hl').
  rewrite Hcc. ring.
Qed.

(** [sigma (lam z)] for [lam = +-1], in the shape of [relu_scale_any]. *)
Lemma pm_scale_any sigma lam z : odd_part_identity sigma -> lam = 1 \/ lam = -1 ->
  sigma (lam * z) = sigma z - (if Rlt_dec lam 0 then z else 0).
Proof.
  intros Hodd [-> | ->].
  - destruct (Rlt_dec 1 0); [lra|]. rewrite Rmult_1_l. ring.
  - destruct (Rlt_dec (-1) 0); [|lra]. pose proof (Hodd z) as E.
    replace (-1 * z) with (- z) by ring. lra.
Qed.

(** The rows of a class add up to [(total) sigma(z) - (negative part) z]. *)
Lemma class_sigma_sum sigma d w (A' : mat) (c' : vec) (beta : nat -> R) (h : nat -> bool)
    (P : mat) (cp : vec) t q0 x :
  odd_part_identity sigma -> (q0 < d)%nat -> P t q0 <> 0 ->
  (forall j, (j < w)%nat -> h j = true -> pm_class d A' c' j P cp t = true) ->
  sumn w (fun j => (if h j then beta j else 0) * sigma (dot d (row A' j) x + c' j)) =
  sumn w (fun j => if h j then beta j else 0) * sigma (dot d (row P t) x + cp t)
  - sumn w (fun j => if h j then
                       if Rlt_dec (lam_of (row P t) q0 (row A' j)) 0 then beta j else 0
                     else 0) * (dot d (row P t) x + cp t).
Proof.
  intros Hodd Hq Hp Hh. rewrite <- !sumn_scal_r, <- sumn_minus. apply sumn_ext. intros j Hj.
  destruct (h j) eqn:E; [|ring].
  destruct (pm_class_value d A' c' j P cp t q0 Hq Hp (Hh j Hj E)) as [Hl Hv].
  rewrite (Hv x), (pm_scale_any sigma _ _ Hodd Hl).
  destruct (Rlt_dec (lam_of (row P t) q0 (row A' j)) 0); ring.
Qed.

(** The only class of a generic form on the class of its row [t0] is [t0]. *)
Lemma pm_form_class_sum d k U s t0 (gamma : nat -> R) :
  (forall i j, (i < k)%nat -> (j < k)%nat -> i <> j ->
     ~ pm_equal (S d) (aug_row d U s i) (aug_row d U s j)) ->
  (t0 < k)%nat ->
  sumn k (fun t => if pm_class d U s t U s t0 then gamma t else 0) = gamma t0.
Proof.
  intros Hind Ht0. rewrite (sumn_ext k _ (fun t => if Nat.eq_dec t0 t then gamma t else 0)).
  - apply sumn_delta. exact Ht0.
  - intros t Ht. destruct (Nat.eq_dec t0 t) as [<-|Hne].
    + rewrite pm_class_self. reflexivity.
    + unfold pm_class. destruct sign_sim_dec as [C|_]; [|reflexivity].
      exfalso. exact (Hind t t0 Ht Ht0 (not_eq_sym Hne) C).
Qed.

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

(** ** The argument, for [sigma = even_part sigma + id/2] *)

Section PmNecessity.

Context (sigma : R -> R) (Hodd : odd_part_identity sigma)
        (Hu : affine_ridge_unique_even (even_part sigma)).

(** Two families differing by an affine function carry the same class totals. *)
Lemma pm_class_total d w (A' : mat) (c' : vec) (beta : nat -> R) k (U : mat) (s : vec)
    (gamma : nat -> R) (ell : vec) (C : R) (P : mat) (cp : vec) t :
  nonzero_vec d (row P t) ->
  (forall x, sumn w (fun j => beta j * sigma (dot d (row A' j) x + c' j)) =
             dot d ell x + C + sumn k (fun t' => gamma t' * sigma (dot d (row U t') x + s t'))) ->
  sumn w (fun j => if pm_class d A' c' j P cp t then beta j else 0) =
  sumn k (fun t' => if pm_class d U s t' P cp t then gamma t' else 0).
Proof.
  intros Hp H.
  pose (Vc := (fun j => if lt_dec j w then A' j else U (j - w)%nat) : mat).
  pose (cc := (fun j => if lt_dec j w then c' j else s (j - w)%nat) : vec).
  pose (bc := fun j => if lt_dec j w then beta j else - gamma (j - w)%nat).
  assert (Hsplit : forall h : vec -> R -> R,
    sumn (w + k) (fun j => bc j * h (row Vc j) (cc j)) =
    sumn w (fun j => beta j * h (row A' j) (c' j)) - sumn k (fun i => gamma i * h (row U i) (s i))).
  { intros h. rewrite sumn_add. unfold Rminus. rewrite <- sumn_opp. f_equal.
    - apply sumn_ext. intros j Hj. unfold bc, Vc, cc, row. destruct (lt_dec j w); [reflexivity | lia].
    - apply sumn_ext. intros i Hi. unfold bc, Vc, cc, row. destruct (lt_dec (w + i) w); [lia|].
      replace (w + i - w)%nat with i by lia. ring. }
  assert (Hsplit2 : forall h : vec -> R,
    sumn (w + k) (fun j => bc j * h (aug_row d Vc cc j)) =
    sumn w (fun j => beta j * h (aug_row d A' c' j))
    - sumn k (fun i => gamma i * h (aug_row d U s i))).
  { intros h. rewrite sumn_add. unfold Rminus. rewrite <- sumn_opp. f_equal.
    - apply sumn_ext. intros j Hj. unfold bc, Vc, cc, aug_row.
      destruct (lt_dec j w); [reflexivity | lia].
    - apply sumn_ext. intros i Hi. unfold bc, Vc, cc, aug_row. destruct (lt_dec (w + i) w); [lia|].
      replace (w + i - w)%nat with i by lia. ring. }
  set (wv := vlin 1 (vlin 1 ell (- / 2) (fun l => sumn w (fun j => beta j * A' j l)))
                  (/ 2) (fun l => sumn k (fun i => gamma i * U i l))).
  assert (Hs : forall x, sumn (w + k) (fun j => bc j * even_part sigma (dot d (row Vc j) x + cc j))
    = dot d wv x + (C - / 2 * sumn w (fun j => beta j * c' j) + / 2 * sumn k (fun i => gamma i * s i))).
  { intros x. rewrite (Hsplit (fun v b => even_part sigma (dot d v x + b))). cbv beta.
    pose proof (H x) as E.
    rewrite (sumn_sigma_split sigma d w beta A' c' x), (sumn_sigma_split sigma d k gamma U s x) in E.
    rewrite (sumn_affine d w beta A' c' x), (sumn_affine d k gamma U s x) in E.
    unfold wv. rewrite !dot_vlin_l. lra. }
  pose proof (affine_ridge_grouped (even_part sigma) (even_part_even sigma Hodd) Hu
                d (w + k) Vc cc bc wv _ Hs (aug_row d P cp t) (nonzero_aug_row d P cp t Hp)) as G.
  rewrite (Hsplit2 (fun v => sim_ind (S d) v (aug_row d P cp t))) in G. cbv beta in G.
  rewrite (sumn_ext w _ (fun j => if pm_class d A' c' j P cp t then beta j else 0)) in G
    by (intros j _; rewrite sim_ind_pm_class; destruct (pm_class d A' c' j P cp t); ring).
  rewrite (sumn_ext k _ (fun j => if pm_class d U s j P cp t then gamma j else 0)) in G
    by (intros j _; rewrite sim_ind_pm_class; destruct (pm_class d U s j P cp t); ring).
  lra.
Qed.

(** A masked block equal to an affine map [x |-> Mx x + mu]: [Mx] has rank at
    most half the number of rows. *)
Lemma pm_affine_block_low_rank d w (A' : mat) (c' : vec) (B' : mat) : forall n (M : nat -> bool)
    (Mx : mat) (mu : vec),
  (count w M <= n)%nat ->
  (forall x i, (i < d)%nat ->
     sumn w (fun j => masked M (B' i) j * sigma (dot d (row A' j) x + c' j)) = mv d Mx x i + mu i) ->
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
    apply (affine_const_zero d Mx mu i (sumn w (fun j => masked M (B' i) j * sigma (c' j))));
    [intros x; rewrite <- (H x i Hi); apply no_active_row_const_any; exact Hz | exact Hq].
  - destruct Hex as [j0 [Hj0 [HM0 _]]]. pose proof (count_ge1 w M j0 Hj0 HM0). lia.
  - destruct Hex as [j0 [Hj0 [HM0 Hnz0]]]. pose proof Hnz0 as [q0 [Hq0 Hp0]].
    set (h := fun j => pm_class d A' c' j A' c' j0).
    assert (Hlam1 : lam_of (row A' j0) q0 (row A' j0) = 1)
      by (unfold lam_of; field; exact Hp0).
    (* the class of [j0] has total coefficient 0 *)
    assert (Hk : forall i, (i < d)%nat ->
      sumn w (fun j => if h j then masked M (B' i) j else 0) = 0).
    { intros i Hi.
      pose proof (pm_class_total d w A' c' (masked M (B' i)) 0 A' c' (fun _ => 0) (row Mx i) (mu i)
                    A' c' j0 Hnz0 (fun x => eq_trans (H x i Hi) (eq_sym (Rplus_0_r _)))) as Hc.
      rewrite sumn_0 in Hc. exact Hc. }
    (* negative part of the class *)
    set (Nn := fun i => sumn w (fun j => if M j && h j then
                           if Rlt_dec (lam_of (row A' j0) q0 (row A' j)) 0 then B' i j else 0
                         else 0)).
    set (M' := fun j => M j && negb (h j)).
    assert (Hrest : forall x i, (i < d)%nat ->
      sumn w (fun j => masked M' (B' i) j * sigma (dot d (row A' j) x + c' j)) =
      mv d (fun i' q => Mx i' q + Nn i' * row A' j0 q) x i + (mu i + Nn i * c' j0)).
    { intros x i Hi. rewrite mv_add_outer.
      pose proof (H x i Hi) as E. unfold masked in E.
      rewrite (msum_coef_split w M h (B' i)) in E.
      rewrite (class_sigma_sum sigma d w A' c' (B' i) (fun j => M j && h j) A' c' j0 q0 x
                 Hodd Hq0 Hp0) in E
        by (intros j Hj Hmh; apply andb_prop in Hmh; apply Hmh).
      rewrite (sumn_ext w (fun j => if M j && h j then B' i j else 0)
                 (fun j => if h j then masked M (B' i) j else 0))
        in E by (intros j _; unfold masked; destruct (M j), (h j); simpl; ring).
      rewrite (Hk i Hi) in E. fold (Nn i) in E. unfold masked, M'. lra. }
    assert (Hcnt : count w M = (count w M' + count w (fun j => M j && h j))%nat)
      by apply count_split_mask.
    assert (Hh1 : (1 <= count w (fun j => M j && h j))%nat).
    { apply (count_ge1 w _ j0 Hj0). cbv beta. rewrite HM0. apply pm_class_self. }
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
                              ltac:(cbv beta; rewrite HM0; apply pm_class_self) H2).
        rewrite Hlam1. destruct (Rlt_dec 1 0); [lra | reflexivity]. }
      rewrite HN. ring.
Qed.

(** Peeling the classes of the form. *)
Lemma pm_form_block_width d k w U s G A' c' B' : generic_bias_signs d k U s G ->
  forall n (K M : nat -> bool) (L : mat) (l0 : vec),
  (count k K <= n)%nat ->
  (forall x i, (i < d)%nat ->
     sumn w (fun j => masked M (B' i) j * sigma (dot d (row A' j) x + c' j)) =
     mv d L x i + l0 i + sumn k (fun t => masked K (G i) t * sigma (dot d (row U t) x + s t))) ->
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
    destruct (pm_affine_block_low_rank d w A' c' B' (count w M) M L l0 (le_n _))
      as [r [P [Q [Hr HPQ]]]];
    [ intros x i Hi; rewrite (H x i Hi);
      rewrite (sumn_zero k (fun t => masked K (G i) t * sigma (dot d (row U t) x + s t)))
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
    pose proof (Hnz t0 Ht0) as Hnz0. destruct Hnz0 as [q0 [Hq0 Hp0]].
    set (h := fun j => pm_class d A' c' j U s t0).
    (* the block rows in the class of [t0] carry the kink [G[:,t0]] *)
    assert (Hk : forall i, (i < d)%nat ->
      sumn w (fun j => if h j then masked M (B' i) j else 0) = G i t0).
    { intros i Hi.
      pose proof (pm_class_total d w A' c' (masked M (B' i)) k U s (masked K (G i))
                    (row L i) (l0 i) U s t0 (Hnz t0 Ht0) (fun x => H x i Hi)) as Hc.
      etransitivity; [exact Hc|].
      rewrite (pm_form_class_sum d k U s t0 _ Hind Ht0).
      unfold masked. rewrite HK0. reflexivity. }
    set (Nn := fun i => sumn w (fun j => if M j && h j then
                           if Rlt_dec (lam_of (row U t0) q0 (row A' j)) 0 then B' i j else 0
                         else 0)).
    set (M' := fun j => M j && negb (h j)).
    set (K' := fun t => K t && negb (Nat.eqb t t0)).
    assert (Hrest : forall x i, (i < d)%nat ->
      sumn w (fun j => masked M' (B' i) j * sigma (dot d (row A' j) x + c' j)) =
      mv d (fun i' q => L i' q + Nn i' * row U t0 q) x i + (l0 i + Nn i * s t0)
      + sumn k (fun t => masked K' (G i) t * sigma (dot d (row U t) x + s t))).
    { intros x i Hi. rewrite mv_add_outer.
      pose proof (H x i Hi) as E. unfold masked in E.
      rewrite (msum_coef_split w M h (B' i)) in E.
      rewrite (msum_coef_split k K (fun t => Nat.eqb t t0) (G i)) in E.
      rewrite (class_sigma_sum sigma d w A' c' (B' i) (fun j => M j && h j) U s t0 q0 x
                 Hodd Hq0 Hp0) in E
        by (intros j Hj Hmh; apply andb_prop in Hmh; apply Hmh).
      rewrite (sumn_ext w (fun j => if M j && h j then B' i j else 0)
                 (fun j => if h j then masked M (B' i) j else 0))
        in E by (intros j _; unfold masked; destruct (M j), (h j); simpl; ring).
      rewrite (Hk i Hi) in E.
      rewrite (sumn_ext k (fun t => (if K t && Nat.eqb t t0 then G i t else 0)
                                    * sigma (dot d (row U t) x + s t))
                 (fun t => if Nat.eq_dec t0 t then G i t * sigma (dot d (row U t) x + s t) else 0))
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
    + (* one row [j1]: [t0] is untouched (sign [+1]) or flipped (sign [-1]) *)
      assert (Hone : forall f : nat -> R,
        sumn w (fun j => if M j && h j then f j else 0) = f j1)
        by (intros f; apply (msum_single w _ f j1 Hj1 HMh1 H2)).
      assert (Hcoef : forall i, (i < d)%nat -> B' i j1 = G i t0).
      { intros i Hi. rewrite <- (Hk i Hi).
        transitivity (sumn w (fun j => if M j && h j then B' i j else 0)).
        - symmetry. apply (Hone (fun j => B' i j)).
        - apply sumn_ext. intros j _. unfold masked. destruct (M j), (h j); simpl; ring. }
      assert (HN : forall i, (i < d)%nat ->
        Nn i = if Rlt_dec (lam_of (row U t0) q0 (row A' j1)) 0 then G i t0 else 0).
      { intros i Hi. unfold Nn.
        rewrite (Hone (fun j => if Rlt_dec (lam_of (row U t0) q0 (row A' j)) 0
                                then B' i j else 0)).
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

End PmNecessity.

(** ** Headline results *)

Theorem pm_bias_form_necessary : forall sigma, odd_part_identity sigma ->
  affine_ridge_unique_even (even_part sigma) ->
  forall d k m U s G L l0,
  generic_bias_signs d k U s G ->
  (exists A' c' B' b0',
     same_fun d (ungated_bias sigma d m A' c' B' b0') (bias_ridge_form sigma d k U s G L l0)) ->
  width_condition d k m U G L.
Proof.
  intros sigma Hodd Hu d k m U s G L l0 Hg [A' [c' [B' [b0' H]]]].
  destruct (pm_form_block_width sigma Hodd Hu d k m U s G A' c' B' Hg k (fun _ => true)
              (fun _ => true) L (fun i => l0 i - b0' i) ltac:(rewrite count_true; lia))
    as [T [S [r [E [P [Q [HT [HS [Hc HL]]]]]]]]].
  - intros x i Hi. pose proof (H x i Hi) as E.
    unfold ungated_bias, bias_ridge_form in E. unfold masked. cbv beta iota. lra.
  - exists T, S, r, E, P, Q. split; [intros t Ht Et; apply (HT t Ht Et)|].
    split; [rewrite !count_true in Hc; lia | exact HL].
Qed.

Theorem pm_bias_form_iff : forall sigma, odd_part_identity sigma ->
  affine_ridge_unique_even (even_part sigma) ->
  forall d k m U s G L l0,
  generic_bias_signs d k U s G ->
  ((exists A' c' B' b0',
      same_fun d (ungated_bias sigma d m A' c' B' b0') (bias_ridge_form sigma d k U s G L l0))
   <-> width_condition d k m U G L).
Proof.
  intros sigma Hodd Hu d k m U s G L l0 Hg. split.
  - apply (pm_bias_form_necessary sigma Hodd Hu). exact Hg.
  - intros Hw. exact (bias_width_condition_sufficient sigma d k m U s G L l0 Hodd Hw).
Qed.

(** A block whose residual equals a canonical form is absorbable at width
    [m] iff the form's width condition holds. *)
Theorem pm_bias_residual_form_iff : forall sigma, odd_part_identity sigma ->
  affine_ridge_unique_even (even_part sigma) ->
  forall d n A c B b0 k U s G L l0,
  generic_bias_signs d k U s G ->
  same_fun d (residual d identity (ungated_bias sigma d n A c B b0))
             (bias_ridge_form sigma d k U s G L l0) ->
  forall m, absorbable_ungated_bias sigma d n m identity A c B b0 <-> width_condition d k m U G L.
Proof.
  intros sigma Hodd Hu d n A c B b0 k U s G L l0 Hg Hres m.
  rewrite <- (pm_bias_form_iff sigma Hodd Hu d k m U s G L l0 Hg). split.
  - intros [A' [c' [B' [b0' H]]]]. exists A', c', B', b0'.
    exact (same_fun_trans_b d _ _ _ H Hres).
  - intros [A' [c' [B' [b0' H]]]]. exists A', c', B', b0'. intros x p Hp.
    rewrite (H x p Hp). symmetry. exact (Hres x p Hp).
Qed.

(** Every biased block of the GELU family is decided. *)
Theorem pm_bias_block_decided : forall sigma, odd_part_identity sigma ->
  affine_ridge_unique_even (even_part sigma) ->
  forall d n A c B b0,
  exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_bias_signs d k U s G /\
    same_fun d (residual d identity (ungated_bias sigma d n A c B b0))
               (bias_ridge_form sigma d k U s G L l0) /\
    forall m, absorbable_ungated_bias sigma d n m identity A c B b0 <-> width_condition d k m U G L.
Proof.
  intros sigma Hodd Hu d n A c B b0.
  destruct (pm_bias_ridge_form_canonical sigma Hodd n d n A c B identity b0 (le_n n))
    as [k [U [s [G [L [l0 [Hk [Hg Hs]]]]]]]].
  assert (Hres : same_fun d (residual d identity (ungated_bias sigma d n A c B b0))
                            (bias_ridge_form sigma d k U s G L l0))
    by exact (same_fun_trans_b d _ _ _ (residual_is_bias_ridge_form sigma d n A c B b0) Hs).
  exists k, U, s, G, L, l0. split; [exact Hk|]. split; [exact Hg|]. split; [exact Hres|].
  exact (pm_bias_residual_form_iff sigma Hodd Hu d n A c B b0 k U s G L l0 Hg Hres).
Qed.

Corollary gelu_bias_block_decided : forall d n A c B b0,
  exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_bias_signs d k U s G /\
    same_fun d (residual d identity (ungated_bias gelu d n A c B b0))
               (bias_ridge_form gelu d k U s G L l0) /\
    forall m, absorbable_ungated_bias gelu d n m identity A c B b0 <-> width_condition d k m U G L.
Proof. exact (pm_bias_block_decided gelu gelu_odd_part gelu_even_part_affine_unique). Qed.

Corollary gelu_tanh_bias_block_decided : forall d n A c B b0,
  exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_bias_signs d k U s G /\
    same_fun d (residual d identity (ungated_bias gelu_tanh d n A c B b0))
               (bias_ridge_form gelu_tanh d k U s G L l0) /\
    forall m, absorbable_ungated_bias gelu_tanh d n m identity A c B b0
              <-> width_condition d k m U G L.
Proof.
  exact (pm_bias_block_decided gelu_tanh gelu_tanh_odd_part gelu_tanh_even_part_affine_unique).
Qed.

Corollary silu_bias_block_decided : forall d n A c B b0,
  exists k U s (G L : mat) l0, (k <= n)%nat /\ generic_bias_signs d k U s G /\
    same_fun d (residual d identity (ungated_bias silu d n A c B b0))
               (bias_ridge_form silu d k U s G L l0) /\
    forall m, absorbable_ungated_bias silu d n m identity A c B b0 <-> width_condition d k m U G L.
Proof. exact (pm_bias_block_decided silu silu_odd_part silu_even_part_affine_unique). Qed.

Corollary gelu_bias_form_iff : forall d k m U s G L l0,
  generic_bias_signs d k U s G ->
  ((exists A' c' B' b0',
      same_fun d (ungated_bias gelu d m A' c' B' b0') (bias_ridge_form gelu d k U s G L l0))
   <-> width_condition d k m U G L).
Proof. exact (pm_bias_form_iff gelu gelu_odd_part gelu_even_part_affine_unique). Qed.

Corollary gelu_tanh_bias_form_iff : forall d k m U s G L l0,
  generic_bias_signs d k U s G ->
  ((exists A' c' B' b0',
      same_fun d (ungated_bias gelu_tanh d m A' c' B' b0')
                 (bias_ridge_form gelu_tanh d k U s G L l0))
   <-> width_condition d k m U G L).
Proof.
  exact (pm_bias_form_iff gelu_tanh gelu_tanh_odd_part gelu_tanh_even_part_affine_unique).
Qed.

Corollary silu_bias_form_iff : forall d k m U s G L l0,
  generic_bias_signs d k U s G ->
  ((exists A' c' B' b0',
      same_fun d (ungated_bias silu d m A' c' B' b0') (bias_ridge_form silu d k U s G L l0))
   <-> width_condition d k m U G L).
Proof. exact (pm_bias_form_iff silu silu_odd_part silu_even_part_affine_unique). Qed.

(** ** Non-vacuity *)

(** The non-generic block [x + sigma(x + 1) + sigma(x + 1)] ([d = 1], two
    equal rows) has the canonical form [x + 2 sigma(x + 1)] ([k = 1],
    [u = s = 1], [G = 2], [L = 1]). *)
Definition pmn_A : mat := fun _ _ => 1.
Definition pmn_c : vec := fun _ => 1.
Definition pmn_B : mat := fun _ _ => 1.
Definition pmn_G : mat := fun _ _ => 2.

Lemma pmn_residual sigma :
  same_fun 1 (residual 1 identity (ungated_bias sigma 1 2 pmn_A pmn_c pmn_B (fun _ => 0)))
             (bias_ridge_form sigma 1 1 pmn_A pmn_c pmn_G identity (fun _ => 0)).
Proof.
  intros x i Hi. unfold residual, ungated_bias, bias_ridge_form, pmn_A, pmn_B, pmn_c, pmn_G, row.
  rewrite !sumn_S, !sumn_0. ring.
Qed.

Lemma pmn_generic : generic_bias_signs 1 1 pmn_A pmn_c pmn_G.
Proof.
  split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row, pmn_A; lra].
  - intros i j Hi Hj Hne. lia.
  - intros i _. exists 0%nat. split; [lia | unfold col, pmn_G; lra].
Qed.

Lemma pmn_width2 : width_condition 1 1 2 pmn_A pmn_G identity.
Proof.
  exists (fun _ => true), (fun _ => false), 0%nat, (fun _ _ => 1), (fun _ _ => 0), (fun _ _ => 0).
  split; [intros; reflexivity|]. split; [simpl; lia|].
  intros i j Hi Hj. replace i with 0%nat by lia. replace j with 0%nat by lia.
  unfold masked_outer, low_rank, identity, pmn_A. simpl. ring.
Qed.

Lemma pmn_not_width1 : ~ width_condition 1 1 1 pmn_A pmn_G identity.
Proof.
  intros [T [S [r [E [P [Q [_ [Hw HL]]]]]]]].
  pose proof (HL 0%nat 0%nat ltac:(lia) ltac:(lia)) as H.
  unfold masked_outer, low_rank, identity, pmn_A, pmn_G in H. simpl in Hw, H.
  destruct (T 0%nat); [lia|]. assert (r = 0%nat) by lia. subst r. simpl in H.
  destruct (S 0%nat); lra.
Qed.

Example gelu_bias_decided_width2 :
  absorbable_ungated_bias gelu 1 2 2 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  apply (pm_bias_residual_form_iff gelu gelu_odd_part gelu_even_part_affine_unique
           1 2 _ _ _ _ 1 _ _ _ _ _ pmn_generic (pmn_residual gelu)).
  exact pmn_width2.
Qed.

Example gelu_bias_decided_width1 :
  ~ absorbable_ungated_bias gelu 1 2 1 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  rewrite (pm_bias_residual_form_iff gelu gelu_odd_part gelu_even_part_affine_unique
             1 2 _ _ _ _ 1 _ _ _ _ _ pmn_generic (pmn_residual gelu)).
  exact pmn_not_width1.
Qed.

Example gelu_tanh_bias_decided_width2 :
  absorbable_ungated_bias gelu_tanh 1 2 2 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  apply (pm_bias_residual_form_iff gelu_tanh gelu_tanh_odd_part gelu_tanh_even_part_affine_unique
           1 2 _ _ _ _ 1 _ _ _ _ _ pmn_generic (pmn_residual gelu_tanh)).
  exact pmn_width2.
Qed.

Example gelu_tanh_bias_decided_width1 :
  ~ absorbable_ungated_bias gelu_tanh 1 2 1 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  rewrite (pm_bias_residual_form_iff gelu_tanh gelu_tanh_odd_part gelu_tanh_even_part_affine_unique
             1 2 _ _ _ _ 1 _ _ _ _ _ pmn_generic (pmn_residual gelu_tanh)).
  exact pmn_not_width1.
Qed.

Example silu_bias_decided_width2 :
  absorbable_ungated_bias silu 1 2 2 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  apply (pm_bias_residual_form_iff silu silu_odd_part silu_even_part_affine_unique
           1 2 _ _ _ _ 1 _ _ _ _ _ pmn_generic (pmn_residual silu)).
  exact pmn_width2.
Qed.

Example silu_bias_decided_width1 :
  ~ absorbable_ungated_bias silu 1 2 1 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  rewrite (pm_bias_residual_form_iff silu silu_odd_part silu_even_part_affine_unique
             1 2 _ _ _ _ 1 _ _ _ _ _ pmn_generic (pmn_residual silu)).
  exact pmn_not_width1.
Qed.

(** Both sides of [gelu_bias_form_iff] on the canonical form itself. *)
Example gelu_bias_form_iff_width2 :
  exists A' c' B' b0', same_fun 1 (ungated_bias gelu 1 2 A' c' B' b0')
    (bias_ridge_form gelu 1 1 pmn_A pmn_c pmn_G identity (fun _ => 0)).
Proof. apply (gelu_bias_form_iff 1 1 2 _ _ _ _ _ pmn_generic). exact pmn_width2. Qed.

Example gelu_bias_form_iff_width1 :
  ~ exists A' c' B' b0', same_fun 1 (ungated_bias gelu 1 1 A' c' B' b0')
      (bias_ridge_form gelu 1 1 pmn_A pmn_c pmn_G identity (fun _ => 0)).
Proof. rewrite (gelu_bias_form_iff 1 1 1 _ _ _ _ _ pmn_generic). exact pmn_not_width1. Qed.

(** The block [x + sigma(x + 1) - sigma(-x - 1)] (rows equal up to sign) is
    the affine map [2 x + 1]: no class is left ([k = 0], [L = 2], [l0 = 1]),
    and the rank of [L] alone costs two rows: absorbable at width 2, not 1. *)
Definition pmf_A : mat := fun j _ => if Nat.eq_dec j 0 then 1 else -1.
Definition pmf_B : mat := fun _ j => if Nat.eq_dec j 0 then 1 else -1.

Lemma pmf_residual sigma : odd_part_identity sigma ->
  same_fun 1 (residual 1 identity (ungated_bias sigma 1 2 pmf_A (fun j => pmf_A j 0%nat) pmf_B
                                     (fun _ => 0)))
             (bias_ridge_form sigma 1 0 pmf_A (fun j => pmf_A j 0%nat) pmf_B (fun _ _ => 2)
                (fun _ => 1)).
Proof.
  intros Hodd x i Hi. replace i with 0%nat by lia.
  unfold residual, ungated_bias, bias_ridge_form, pmf_A, pmf_B, mv, dot, row, identity.
  rewrite !sumn_S, !sumn_0. simpl.
  pose proof (Hodd (0 + 1 * x 0%nat + 1)) as E.
  replace (0 + -1 * x 0%nat + -1) with (- (0 + 1 * x 0%nat + 1)) by ring. lra.
Qed.

Lemma pmf_generic : generic_bias_signs 1 0 pmf_A (fun j => pmf_A j 0%nat) pmf_B.
Proof. split; [|split]; intros; lia. Qed.

Lemma pmf_width2 : width_condition 1 0 2 pmf_A pmf_B (fun _ _ => 2).
Proof.
  exists (fun _ => false), (fun _ => false), 1%nat, (fun _ _ => 0), (fun _ _ => 2), (fun _ _ => 1).
  split; [intros; lia|]. split; [simpl; lia|].
  intros i j Hi Hj. unfold masked_outer, low_rank. simpl. ring.
Qed.

Lemma pmf_not_width1 : ~ width_condition 1 0 1 pmf_A pmf_B (fun _ _ => 2).
Proof.
  intros [T [S [r [E [P [Q [_ [Hw HL]]]]]]]].
  pose proof (HL 0%nat 0%nat ltac:(lia) ltac:(lia)) as H.
  unfold masked_outer, low_rank in H. simpl in Hw, H.
  assert (r = 0%nat) by lia. subst r. simpl in H. lra.
Qed.

Example gelu_bias_affine_width2 :
  absorbable_ungated_bias gelu 1 2 2 identity pmf_A (fun j => pmf_A j 0%nat) pmf_B (fun _ => 0).
Proof.
  apply (pm_bias_residual_form_iff gelu gelu_odd_part gelu_even_part_affine_unique
           1 2 _ _ _ _ 0 _ _ _ _ _ pmf_generic (pmf_residual gelu gelu_odd_part)).
  exact pmf_width2.
Qed.

Example gelu_bias_affine_width1 :
  ~ absorbable_ungated_bias gelu 1 2 1 identity pmf_A (fun j => pmf_A j 0%nat) pmf_B (fun _ => 0).
Proof.
  rewrite (pm_bias_residual_form_iff gelu gelu_odd_part gelu_even_part_affine_unique
             1 2 _ _ _ _ 0 _ _ _ _ _ pmf_generic (pmf_residual gelu gelu_odd_part)).
  exact pmf_not_width1.
Qed.
