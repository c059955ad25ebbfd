(** * R8 with biases for the GELU family: necessity of the width condition (paper.md R9)

    For any [sigma] with [odd_part_identity sigma] ([sigma z - sigma (-z) = z])
    and [affine_ridge_unique_even (even_part sigma)] (GELU, GELU_tanh, SiLU),
    a canonical biased ridge form
    [F x = L x + l0 + sum_{t < k} G[:,t] sigma(u_t . x + s_t)]
    ([generic_bias_signs d k U s G]: [u_t <> 0], the augmented rows
    [(u_t, s_t)] pairwise not equal up to sign, every [G[:,t] <> 0]) equal to
    a biased block of width [m] satisfies R8's width condition
    [width_condition d k m U G L].  The proof is that of
    [ReluBiasNecessity.v] ([BiasNecessityCommon.peel_form_necessary]) with
    hyperplane classes replaced by the classes [+-(u, s)] of augmented rows,
    every row of weight 1:
    - [pm_class_value]: [sigma (-z) = sigma z - z];
    - [pm_class_total]: for two families differing by an affine function, the
      coefficients of the rows equal up to sign to a given augmented row add
      up to the same total (write [sigma = even_part sigma + id/2] and apply
      [GeluBias.affine_ridge_grouped] to the even parts);
    - [pm_class_form]: in a generic form, the class of row [t0] is [{t0}];
    - [pm_form_block_width]: [BiasNecessityCommon.peel_form_width] for these
      classes;
    - headlines: [pm_bias_form_necessary], [pm_bias_form_iff] (with
      [BiasRidgeForm.bias_width_condition_sufficient]),
      [pm_bias_residual_form_iff] (a block whose residual equals a canonical
      form), [pm_bias_block_decided] (every biased block is decided, with
      [PmBiasCanonical.pm_bias_ridge_form_canonical]) and its instances
      [gelu_bias_block_decided], [gelu_tanh_bias_block_decided],
      [silu_bias_block_decided];
    - non-vacuity: the non-generic block [x + gelu(x + 1) + gelu(x + 1)] is
      absorbable at width 2 and not at width 1 ([pmn_decided_widths], for
      every such [sigma]; GELU, GELU_tanh and SiLU here),
      and [x + gelu(x + 1) - gelu(-x - 1) = 2 x + 1] (no class at all) is
      absorbable at width 2 and not at width 1. *)

From Coq Require Import Reals Lra Lia Arith Bool.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry FiniteMaps
  Ridge ReluSubmatrix Biases BiasSpec AugRows AffineRidge ReluBias RidgeForm BiasRidgeForm
  BiasNecessityCommon ReluBiasNecessity BiasCanonical GeluAffineRidge GeluBias PmBiasCanonical
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

(** [pm_class] as a [BiasNecessityCommon.class_mem] (every row of weight 1;
    [q0] is not needed here). *)
Definition pm_mem d (P : mat) (cp : vec) t (q0 : nat) (V : mat) (cv : vec) j : bool :=
  pm_class d V cv j P cp t.

Lemma pm_mem_self : class_self pm_mem.
Proof. intros d P cp t q0 _ _. apply pm_class_self. Qed.

(** In a generic form, the class of row [t0] is [{t0}]. *)
Lemma pm_class_form : class_form pm_mem (fun _ _ _ => 1) (fun d u v => ~ pm_equal (S d) u v).
Proof.
  intros d k U s t0 q0 gamma Hind Ht0 _ _.
  rewrite (sumn_ext k _ (fun t => if Nat.eq_dec t0 t then gamma t else 0)).
  - apply sumn_delta. exact Ht0.
  - intros t Ht. unfold pm_mem. destruct (Nat.eq_dec t0 t) as [<-|Hne].
    + rewrite pm_class_self. ring.
    + unfold pm_class. destruct sign_sim_dec as [C|_]; [|reflexivity].
      exfalso. exact (Hind t t0 Ht Ht0 (not_eq_sym Hne) C).
Qed.

(** [sigma (lam z)] for [lam = +-1], in the shape of [relu_scale_any]. *)
Lemma pm_scale_any sigma lam z : odd_part_identity sigma -> lam = 1 \/ lam = -1 ->
  sigma (lam * z) = sigma z - (if Rlt_dec lam 0 then z else 0).
Proof.
  intros Hodd Hl. rewrite (pm_scale sigma lam z Hodd Hl).
  destruct Hl as [-> | ->]; [rewrite Rabs_R1 | rewrite Rabs_left by lra]; destruct Rlt_dec; ring.
Qed.

Section PmNecessity.

Context (sigma : R -> R) (Hodd : odd_part_identity sigma)
        (Hu : affine_ridge_unique_even (even_part sigma)).

(** On a class row, [lam_of] is the sign and the affine value is [+-] that of row [t]. *)
Lemma pm_class_value : class_value sigma pm_mem (fun _ _ _ => 1).
Proof.
  intros d P cp t q0 V cv j x Hq Hp Hc. unfold pm_mem, pm_class in Hc.
  destruct sign_sim_dec as [Hs|_]; [|discriminate].
  destruct (aug_pm_split d V cv j P cp t Hs) as [c [Hc1 [HA Hcc]]].
  assert (Hl : lam_of (row P t) q0 (row V j) = c).
  { unfold lam_of, row. rewrite (HA q0 Hq). field. exact Hp. }
  rewrite Hl, (parallel_dot d (row V j) (row P t) c x)
    by (intros l Hl'; unfold row; apply HA; exact Hl').
  rewrite Hcc, <- Rmult_plus_distr_l, (pm_scale_any sigma _ _ Hodd Hc1).
  destruct (Rlt_dec c 0); ring.
Qed.

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
    - apply sumn_ext. intros j Hj. unfold bc, Vc, cc, row.
      destruct (lt_dec j w); [reflexivity | lia].
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
    = dot d wv x
    + (C - / 2 * sumn w (fun j => beta j * c' j) + / 2 * sumn k (fun i => gamma i * s i))).
  { intros x. rewrite (Hsplit (fun v b => even_part sigma (dot d v x + b))). cbv beta.
    pose proof (H x) as E.
    rewrite (sumn_sigma_split sigma d w beta A' c' x),
      (sumn_sigma_split sigma d k gamma U s x) in E.
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

Lemma pm_mem_total : class_total sigma pm_mem (fun _ _ _ => 1).
Proof.
  intros d w A' c' beta k U s gamma ell C P cp t q0 Hq Hp H. unfold pm_mem.
  rewrite (sumn_ext w _ (fun j => if pm_class d A' c' j P cp t then beta j else 0))
    by (intros j _; destruct (pm_class d A' c' j P cp t); ring).
  rewrite (pm_class_total d w A' c' beta k U s gamma ell C P cp t (ex_intro _ q0 (conj Hq Hp)) H).
  apply sumn_ext. intros t' _. destruct (pm_class d U s t' P cp t); ring.
Qed.

(** Peeling the classes of the form ([BiasNecessityCommon.peel_form_width]). *)
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
  exact (peel_form_width sigma pm_mem (fun _ _ _ => 1) (fun d u v => ~ pm_equal (S d) u v)
           pm_mem_self pm_class_value pm_mem_total pm_class_form d k w U s G A' c' B').
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
  intros sigma Hodd Hu.
  exact (peel_form_necessary sigma pm_mem (fun _ _ _ => 1) (fun d u v => ~ pm_equal (S d) u v)
           pm_mem_self (pm_class_value sigma Hodd) (pm_mem_total sigma Hodd Hu) pm_class_form).
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

(** Absorbable at width 2, not at width 1, for every [sigma] of R8 with
    biases (GELU, GELU_tanh and SiLU here; quick_gelu and gelu_fast in
    [QuickGeluAffineRidge.v], [TanhGeluAffineRidge.v]). *)
Lemma pmn_decided_widths sigma : odd_part_identity sigma ->
    affine_ridge_unique_even (even_part sigma) ->
  absorbable_ungated_bias sigma 1 2 2 identity pmn_A pmn_c pmn_B (fun _ => 0) /\
  ~ absorbable_ungated_bias sigma 1 2 1 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  intros Hodd Hu.
  rewrite
    !(pm_bias_residual_form_iff sigma Hodd Hu 1 2 _ _ _ _ 1 _ _ _ _ _ pmn_generic
      (pmn_residual sigma)).
  exact (conj pmn_width2 pmn_not_width1).
Qed.

Example gelu_bias_decided_width2 :
  absorbable_ungated_bias gelu 1 2 2 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof. exact (proj1 (pmn_decided_widths gelu gelu_odd_part gelu_even_part_affine_unique)). Qed.

Example gelu_bias_decided_width1 :
  ~ absorbable_ungated_bias gelu 1 2 1 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof. exact (proj2 (pmn_decided_widths gelu gelu_odd_part gelu_even_part_affine_unique)). Qed.

Example gelu_tanh_bias_decided_width2 :
  absorbable_ungated_bias gelu_tanh 1 2 2 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  exact (proj1 (pmn_decided_widths gelu_tanh gelu_tanh_odd_part gelu_tanh_even_part_affine_unique)).
Qed.

Example gelu_tanh_bias_decided_width1 :
  ~ absorbable_ungated_bias gelu_tanh 1 2 1 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof.
  exact (proj2 (pmn_decided_widths gelu_tanh gelu_tanh_odd_part gelu_tanh_even_part_affine_unique)).
Qed.

Example silu_bias_decided_width2 :
  absorbable_ungated_bias silu 1 2 2 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof. exact (proj1 (pmn_decided_widths silu silu_odd_part silu_even_part_affine_unique)). Qed.

Example silu_bias_decided_width1 :
  ~ absorbable_ungated_bias silu 1 2 1 identity pmn_A pmn_c pmn_B (fun _ => 0).
Proof. exact (proj2 (pmn_decided_widths silu silu_odd_part silu_even_part_affine_unique)). Qed.

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
