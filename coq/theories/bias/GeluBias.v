(** * R5 (=>) with biases, for GELU (paper.md R9)

    A biased block [x + B sigma(A x + c) + b0] with generic augmented rows
    ([BiasSpec.generic_bias_signs]: every [a_i <> 0], the [(a_i, c_i)]
    pairwise not equal up to sign, every [b_i <> 0]).

    Generic part (a [Section] over [sigma] with [odd_part_identity sigma]
    and [affine_ridge_unique_even (even_part sigma)] of [GeluAffineRidge.v]
    as context; after the section they are explicit premises).  The
    matching lemmas take any linear part [P] of the residual block (singular
    allowed); the identity skip is their instance [P = I]:
    - [affine_ridge_grouped]: in a sum of ridges [e (v_j . x + c_j)] equal to
      an affine function, the coefficients of every class of augmented rows
      equal up to sign add up to [0] (rows with [v_j = 0] are constants);
    - [bias_even_part_affine]: an absorbing block and the residual block
      differ, in their even parts [e = sigma - id/2], by an affine function;
    - [bias_absorb_choice]: every [(a_i, c_i)] is matched by a distinct
      [(a'_{j(i)}, c'_{j(i)}) = s_i (a_i, c_i)], [s_i = +-1];
    - [even_bias_absorbable_width], [even_bias_not_absorbable_below]:
      [n <= m];
    - [even_bias_skip_submatrix]: for [m = n], [b'_{j(i)} = b_i], the even
      parts cancel, the linear parts give [B[:,S] A[S,:] = -P] for
      [S = {i | s_i = -1}] ([PostNormGeneric.matched_skip_submatrix]);
      [even_bias_absorbable_submatrix] is [P = I], and
      [even_bias_skip_not_absorbable_below] the width bound for every [P]
      ([EvenBiasSkip.v] adds (<=), the bias-free and post-norm forms).
    Any [sigma] with [odd_part_identity sigma] and the one-variable
    statement [affine_independent_1d (even_part sigma)]:
    [bias_absorbable_iff_of_1d], [bias_not_absorbable_below_of_1d] (used for
    SiLU and GELU_tanh in [SiluAffineRidge.v], [GeluTanhAffineRidge.v]), and
    [affine_independent_of_positive]: positive dilations suffice.
    GELU (no hypotheses): [gelu_bias_absorbable_generic_submatrix],
    [gelu_bias_absorbable_iff_submatrix] (with [Biases.odd_part_absorbable_bias]),
    [gelu_bias_generic_not_absorbable_below]; non-vacuity examples for
    both sides of the equivalence and below the width. *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Geometry FiniteMaps Calculus.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix.
From Absorb Require Import Biases SubmatrixIff GeluRidge RidgeForm BiasSpec AugRows GeluAffineRidge.
From Absorb Require PostNormGeneric.
Open Scope R_scope.

(** ** Augmented rows *)

(** [(a, c) = s (a', c')] with [s = +-1], read coordinatewise (the converse is
    [GeluAffineRidge.aug_pm_of_split]). *)
Lemma aug_pm_split d (A1 : mat) (c1 : vec) i (A2 : mat) (c2 : vec) j :
  pm_equal (S d) (aug_row d A1 c1 i) (aug_row d A2 c2 j) ->
  exists s, (s = 1 \/ s = -1) /\ (forall l, (l < d)%nat -> A1 i l = s * A2 j l) /\ c1 i = s * c2 j.
Proof.
  intros [H|H]; [exists 1 | exists (-1)]; (split; [lra|]); split.
  - intros l Hl.
    rewrite <- (aug_row_coord d A1 c1 i l Hl), <- (aug_row_coord d A2 c2 j l Hl), H; [ring|lia].
  - rewrite <- (aug_row_bias_coord d A1 c1 i), <- (aug_row_bias_coord d A2 c2 j), H; [ring|lia].
  - intros l Hl.
    rewrite <- (aug_row_coord d A1 c1 i l Hl), <- (aug_row_coord d A2 c2 j l Hl), H; [ring|lia].
  - rewrite <- (aug_row_bias_coord d A1 c1 i), <- (aug_row_bias_coord d A2 c2 j), H; [ring|lia].
Qed.

(** An even function takes the same value on two affine functions whose
    augmented rows are equal up to sign. *)
Lemma aug_even_eq (e : R -> R) d (A1 : mat) (c1 : vec) i (A2 : mat) (c2 : vec) j x :
  (forall z, e (- z) = e z) ->
  pm_equal (S d) (aug_row d A1 c1 i) (aug_row d A2 c2 j) ->
  e (dot d (row A1 i) x + c1 i) = e (dot d (row A2 j) x + c2 j).
Proof.
  intros He Hpm. destruct (aug_pm_split d A1 c1 i A2 c2 j Hpm) as [s [Hs [HA Hc]]].
  rewrite (parallel_dot d (row A1 i) (row A2 j) s x HA), Hc.
  destruct Hs as [Es|Es]; subst s.
  - f_equal. ring.
  - rewrite <- (He (dot d (row A2 j) x + c2 j)). f_equal. ring.
Qed.

Lemma pm_equal_sym d u v : pm_equal d u v -> pm_equal d v u.
Proof. exact (same_up_to_sign_sym d u v). Qed.

Lemma pm_equal_trans d u v w : pm_equal d u v -> pm_equal d v w -> pm_equal d u w.
Proof. exact (same_up_to_sign_trans d u v w). Qed.

(** A row with zero linear part is not equal up to sign to one with a
    nonzero linear part. *)
Lemma sim_ind_aug_zero d (V : mat) (c : vec) j (p : vec) :
  (forall k, (k < d)%nat -> V j k = 0) -> nonzero_vec d p ->
  sim_ind (S d) (aug_row d V c j) p = 0.
Proof.
  intros Hz [k [Hk Hp]]. unfold sim_ind.
  destruct (sign_sim_dec (S d) (aug_row d V c j) p) as [[C|C]|]; [| |reflexivity];
    exfalso; apply Hp; specialize (C k ltac:(lia));
    rewrite (aug_row_coord d V c j k Hk), (Hz k Hk) in C;
    lra.
Qed.

Lemma nonzero_aug_row d (A : mat) (c : vec) i :
  nonzero_vec d (row A i) -> nonzero_vec d (aug_row d A c i).
Proof.
  intros [k [Hk Hn]]. exists k. split; [exact Hk|]. rewrite aug_row_coord by exact Hk. exact Hn.
Qed.

(** ** Regrouping a sum of affine ridges *)

Theorem affine_ridge_grouped (e : R -> R) :
  (forall z, e (- z) = e z) -> affine_ridge_unique_even e ->
  forall d N (V : mat) (c : vec) (beta : nat -> R) (w : vec) (w0 : R),
    (forall x, sumn N (fun j => beta j * e (dot d (row V j) x + c j)) = dot d w x + w0) ->
    forall p, nonzero_vec d p ->
    sumn N (fun t => beta t * sim_ind (S d) (aug_row d V c t) p) = 0.
Proof.
  intros He Hu d N. induction N as [|N IH]; intros V c beta w w0 Hsum p Hp; [apply sumn_0|].
  (* case A: some row has zero linear part: it is a constant; delete it *)
  destruct (exists_lt_or (fun j => forall k, (k < d)%nat -> row V j k = 0)
              (fun j => match forall_lt_sumbool _ (fun k => Req_EM_T (row V j k) 0) d with
                        | left h => or_introl h | right h => or_intror h end) (S N))
    as [[j [Hj Hz]]|Hnz'].
  { pose proof (IH (skip_rows V j) (fun t => c (skip j t)) (merge_coef beta j j) w
                   (w0 - beta j * e (c j))) as IH'.
    assert (Hs' : forall x, sumn N (fun t => merge_coef beta j j t
              * e (dot d (row (skip_rows V j) t) x + c (skip j t))) = dot d w x
              + (w0 - beta j * e (c j))).
    { intros x.
      refine (eq_trans (sumn_merge N beta (fun t => e (dot d (row V t) x + c t)) j j
                          ltac:(lia) ltac:(lia)) _). cbv beta.
      rewrite Hsum, (dot_zero_l d (row V j) x Hz).
      rewrite Rplus_0_l. destruct (Nat.eq_dec j j); [ring | congruence]. }
    specialize (IH' Hs' p Hp).
    pose proof (eq_trans (eq_sym (sumn_merge N beta (fun t => sim_ind (S d) (aug_row d V c t) p) j j
                                    ltac:(lia) ltac:(lia))) IH') as IH''. cbv beta in IH''.
    rewrite (sim_ind_aug_zero d V c j p Hz Hp) in IH''.
    destruct (Nat.eq_dec j j); [|congruence]. lra. }
  (* case B: two augmented rows agree up to sign: merge them *)
  assert (Hdec : forall j,
    (exists i, (i < S N)%nat /\ (i <> j /\ pm_equal (S d) (aug_row d V c i) (aug_row d V c j)))
    \/ ~ (exists i, (i < S N)%nat
           /\ (i <> j /\ pm_equal (S d) (aug_row d V c i) (aug_row d V c j)))).
  { intros j.
    destruct (exists_lt_or (fun i => i <> j /\ pm_equal (S d) (aug_row d V c i) (aug_row d V c j)))
      with (N := S N) as [E|E].
    - intros i. destruct (Nat.eq_dec i j); [right; tauto|].
      destruct (sign_sim_dec (S d) (aug_row d V c i) (aug_row d V c j));
        [left; tauto | right; tauto].
    - left. exact E.
    - right. intros [i [Hi Hi']]. exact (E i Hi Hi'). }
  destruct (exists_lt_or _ Hdec (S N)) as [[j [Hj [i [Hi [Hij Hsim]]]]]|Hnone].
  { pose proof (IH (skip_rows V j) (fun t => c (skip j t)) (merge_coef beta j i) w w0) as IH'.
    assert (Hs' : forall x, sumn N (fun t => merge_coef beta j i t
              * e (dot d (row (skip_rows V j) t) x + c (skip j t))) = dot d w x + w0).
    { intros x.
      refine (eq_trans (sumn_merge N beta (fun t => e (dot d (row V t) x + c t)) j i
                          ltac:(lia) ltac:(lia)) _). cbv beta. rewrite Hsum.
      rewrite (aug_even_eq e d V c i V c j x He Hsim).
      destruct (Nat.eq_dec i j); [contradiction | ring]. }
    specialize (IH' Hs' p Hp).
    pose proof (eq_trans (eq_sym (sumn_merge N beta (fun t => sim_ind (S d) (aug_row d V c t) p) j i
                                    ltac:(lia) ltac:(lia))) IH') as IH''. cbv beta in IH''.
    rewrite (sim_ind_trans (S d) (aug_row d V c i) (aug_row d V c j) p Hsim) in IH''.
    destruct (Nat.eq_dec i j); [contradiction | lra]. }
  (* case C: nonzero linear parts, pairwise distinct up to sign: all coefficients vanish *)
  apply sumn_zero. intros t Ht.
  rewrite (Hu d (S N) V c beta w w0); [ring | | | exact Hsum | exact Ht].
  - intros j Hj. specialize (Hnz' j Hj).
    destruct (nonzero_vec_or_zero d (row V j)) as [Hn|Hz]; [exact Hn|].
    exfalso. exact (Hnz' Hz).
  - intros i j Hi Hj Hne Hs. apply (Hnone j Hj). exists i. split; [exact Hi|]. split; assumption.
Qed.

(** The hypothesis only depends on the values of [e]. *)
Lemma affine_ridge_unique_even_ext (e1 e2 : R -> R) :
  (forall z, e1 z = e2 z) -> affine_ridge_unique_even e1 -> affine_ridge_unique_even e2.
Proof.
  intros He H d N V c beta w w0 Hnz Hind Hs. apply (H d N V c beta w w0 Hnz Hind).
  intros x. rewrite <- (Hs x). apply sumn_ext. intros j _. rewrite He. reflexivity.
Qed.

(** ** Sums of affine functions *)

Lemma sumn_affine d N (b : nat -> R) (V : mat) (c : vec) x :
  sumn N (fun j => b j * (dot d (row V j) x + c j)) =
  dot d (fun l => sumn N (fun j => b j * V j l)) x + sumn N (fun j => b j * c j).
Proof.
  rewrite (sumn_ext N _ (fun j => sumn d (fun l => b j * V j l * x l) + b j * c j)).
  - rewrite sumn_plus, sumn_swap. f_equal. unfold dot. apply sumn_ext. intros l _.
    rewrite <- sumn_scal_r. reflexivity.
  - intros j _. unfold dot, row. rewrite Rmult_plus_distr_l, <- sumn_scal_l. f_equal.
    apply sumn_ext. intros l _. ring.
Qed.

(** [sigma = id/2 + e] summed over the rows. *)
Lemma sumn_sigma_split sigma d N (b : nat -> R) (V : mat) (c : vec) x :
  sumn N (fun j => b j * sigma (dot d (row V j) x + c j)) =
  sumn N (fun j => b j * even_part sigma (dot d (row V j) x + c j))
  + / 2 * sumn N (fun j => b j * (dot d (row V j) x + c j)).
Proof.
  rewrite <- sumn_scal_l, <- sumn_plus. apply sumn_ext. intros j _. unfold even_part. field.
Qed.

(** ** The matching argument, for every [sigma = id/2 + e] with [e] even and
    affine ridge uniqueness of [e] *)

Section AffineMatching.

Context (sigma : R -> R) (Hodd : odd_part_identity sigma)
        (Hu : affine_ridge_unique_even (even_part sigma)).

(** Absorbing block minus residual block with skip [P], even parts: affine. *)
Lemma bias_even_part_affine d n m P A c B b0 A' c' B' b0' :
  same_fun d (ungated_bias sigma d m A' c' B' b0')
             (residual d P (ungated_bias sigma d n A c B b0)) ->
  forall k, (k < d)%nat -> exists (w : vec) (w0 : R), forall x,
    sumn m (fun j => B' k j * even_part sigma (dot d (row A' j) x + c' j))
    - sumn n (fun i => B k i * even_part sigma (dot d (row A i) x + c i)) = dot d w x + w0.
Proof.
  intros H k Hk.
  set (wA := fun l => sumn n (fun i => B k i * A i l)).
  set (wA' := fun l => sumn m (fun j => B' k j * A' j l)).
  exists (vlin 1 (vlin 1 (row P k) (/ 2) wA) (- / 2) wA'),
    (/ 2 * sumn n (fun i => B k i * c i) + b0 k - / 2 * sumn m (fun j => B' k j * c' j) - b0' k).
  intros x. pose proof (H x k Hk) as E. unfold ungated_bias, residual in E.
  rewrite (sumn_sigma_split sigma d m (B' k) A' c' x),
    (sumn_sigma_split sigma d n (B k) A c x) in E.
  rewrite (sumn_affine d m (B' k) A' c' x), (sumn_affine d n (B k) A c x) in E.
  fold wA wA' in E.
  rewrite !dot_vlin_l. unfold mv in E. lra.
Qed.

(** The coefficients matching the class of [(a_i0, c_i0)] add up to [b_i0]. *)
Lemma bias_absorb_group d n m P A c B b0 A' c' B' b0' :
  generic_bias_signs d n A c B ->
  same_fun d (ungated_bias sigma d m A' c' B' b0')
             (residual d P (ungated_bias sigma d n A c B b0)) ->
  forall i0 k, (i0 < n)%nat -> (k < d)%nat ->
    sumn m (fun j => B' k j * sim_ind (S d) (aug_row d A' c' j) (aug_row d A c i0)) = B k i0.
Proof.
  intros Hg H i0 k Hi0 Hk. pose proof Hg as [Hnz [Hind Hb]].
  pose (Vc := (fun j => if lt_dec j m then A' j else A (j - m)%nat) : mat).
  pose (cc := (fun j => if lt_dec j m then c' j else c (j - m)%nat) : vec).
  pose (bc := fun j => if lt_dec j m then B' k j else - B k (j - m)%nat).
  assert (Hsplit : forall h : vec -> R -> R,
    sumn (m + n) (fun j => bc j * h (row Vc j) (cc j)) =
    sumn m (fun j => B' k j * h (row A' j) (c' j)) - sumn n (fun i => B k i * h (row A i) (c i))).
  { intros h. rewrite sumn_add. unfold Rminus. rewrite <- sumn_opp. f_equal.
    - apply sumn_ext. intros j Hj. unfold bc, Vc, cc, row.
      destruct (lt_dec j m); [reflexivity | lia].
    - apply sumn_ext. intros i Hi. unfold bc, Vc, cc, row. destruct (lt_dec (m + i) m); [lia|].
      replace (m + i - m)%nat with i by lia. ring. }
  destruct (bias_even_part_affine d n m P A c B b0 A' c' B' b0' H k Hk) as [w [w0 Hw]].
  assert (Hs : forall x, sumn (m + n) (fun j => bc j * even_part sigma (dot d (row Vc j) x + cc j))
                         = dot d w x + w0).
  { intros x. rewrite <- (Hw x).
    exact (Hsplit (fun v b => even_part sigma (dot d v x + b))). }
  pose proof (affine_ridge_grouped (even_part sigma) (even_part_even sigma Hodd) Hu
                d (m + n) Vc cc bc w w0 Hs (aug_row d A c i0)
                (nonzero_aug_row d A c i0 (Hnz i0 Hi0))) as G.
  pose proof (eq_trans (eq_sym (Hsplit (fun v b => sim_ind (S d)
                 (fun l => if Nat.ltb l d then v l else b) (aug_row d A c i0)))) G) as G'.
  clear G. rename G' into G. cbv beta in G.
  rewrite
    (sumn_ext n (fun i => B k i * sim_ind (S d) (fun l => if Nat.ltb l d then row A i l else c i)
                                                 (aug_row d A c i0))
             (fun i => if Nat.eq_dec i0 i then B k i else 0)) in G.
  - rewrite sumn_delta in G by exact Hi0.
    apply (Rplus_eq_reg_r (- B k i0)). rewrite Rplus_opp_r, <- G. unfold Rminus. f_equal.
  - intros i Hi. change (fun l => if Nat.ltb l d then row A i l else c i) with (aug_row d A c i).
    unfold sim_ind. destruct (Nat.eq_dec i0 i) as [<-|Hne].
    + destruct (sign_sim_dec (S d) (aug_row d A c i0) (aug_row d A c i0)) as [_|C]; [ring|].
      exfalso. apply C, same_up_to_sign_refl.
    + destruct (sign_sim_dec (S d) (aug_row d A c i) (aug_row d A c i0)) as [C|_]; [|ring].
      exfalso. exact (Hind i i0 Hi Hi0 (not_eq_sym Hne) C).
Qed.

Lemma bias_absorb_match d n m P A c B b0 A' c' B' b0' i0 :
  generic_bias_signs d n A c B ->
  same_fun d (ungated_bias sigma d m A' c' B' b0')
             (residual d P (ungated_bias sigma d n A c B b0)) ->
  (i0 < n)%nat ->
  exists js : nat * R, (fst js < m)%nat /\ (snd js = 1 \/ snd js = -1) /\
    (forall l, (l < d)%nat -> A' (fst js) l = snd js * A i0 l) /\ c' (fst js) = snd js * c i0.
Proof.
  intros Hg H Hi0. pose proof Hg as [_ [_ Hb]].
  destruct (Hb i0 Hi0) as [k [Hk Hbk]]. unfold col in Hbk.
  pose proof (bias_absorb_group d n m P A c B b0 A' c' B' b0' Hg H i0 k Hi0 Hk) as G.
  assert (Hs : sumn m (fun j => B' k j * sim_ind (S d) (aug_row d A' c' j) (aug_row d A c i0)) <> 0)
    by (rewrite G; exact Hbk).
  apply sumn_nonzero_term in Hs. destruct Hs as [j [Hj Hf]].
  unfold sim_ind in Hf.
  destruct (sign_sim_dec (S d) (aug_row d A' c' j) (aug_row d A c i0)) as [Sj|_];
    [|exfalso; apply Hf; ring].
  destruct (aug_pm_split d A' c' j A c i0 Sj) as [s [Hs [HA Hc]]].
  exists (j, s). simpl. split; [exact Hj|]. split; [exact Hs|]. split; [exact HA | exact Hc].
Qed.

(** Two generic rows matched by the same row are the same. *)
Lemma bias_matched_rows_same d n A c i1 i2 (A' : mat) (c' : vec) j :
  (forall i j, (i < n)%nat -> (j < n)%nat -> i <> j ->
     ~ pm_equal (S d) (aug_row d A c i) (aug_row d A c j)) ->
  (i1 < n)%nat -> (i2 < n)%nat ->
  pm_equal (S d) (aug_row d A' c' j) (aug_row d A c i1) ->
  pm_equal (S d) (aug_row d A' c' j) (aug_row d A c i2) -> i1 = i2.
Proof.
  intros Hind H1 H2 E1 E2. destruct (Nat.eq_dec i1 i2) as [|Hne]; [assumption|].
  exfalso. apply (Hind i1 i2 H1 H2 Hne).
  exact (pm_equal_trans _ _ _ _ (pm_equal_sym _ _ _ E1) E2).
Qed.

(** [jf] matches every [(a_i, c_i)], [i < n], with a distinct row
    [(a'_{j(i)}, c'_{j(i)}) = s_i (a_i, c_i)], [j(i) < m], [s_i = sf i = +-1]. *)
Definition bias_matching d n m (A : mat) (c : vec) (A' : mat) (c' : vec)
    (jf : nat -> nat) (sf : nat -> R) : Prop :=
  (forall i, (i < n)%nat -> (jf i < m)%nat /\ (sf i = 1 \/ sf i = -1) /\
     (forall l, (l < d)%nat -> A' (jf i) l = sf i * A i l) /\ c' (jf i) = sf i * c i) /\
  (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> jf i1 = jf i2 -> i1 = i2).

(** Every [(a_i, c_i)] is matched by a distinct [(a'_{j(i)}, c'_{j(i)}) = s_i (a_i, c_i)]. *)
Lemma bias_absorb_choice d n m P A c B b0 A' c' B' b0' :
  generic_bias_signs d n A c B ->
  same_fun d (ungated_bias sigma d m A' c' B' b0')
             (residual d P (ungated_bias sigma d n A c B b0)) ->
  exists (jf : nat -> nat) (sf : nat -> R), bias_matching d n m A c A' c' jf sf.
Proof.
  intros Hg H.
  destruct
    (finite_choice (0%nat, 0) n (fun i js => (fst js < m)%nat /\ (snd js = 1 \/ snd js = -1) /\
              (forall l, (l < d)%nat -> A' (fst js) l = snd js * A i l) /\
              c' (fst js) = snd js * c i)) as [f Hf].
  { intros i Hi. exact (bias_absorb_match d n m P A c B b0 A' c' B' b0' i Hg H Hi). }
  exists (fun i => fst (f i)), (fun i => snd (f i)). split; [exact Hf|].
  intros i1 i2 H1 H2 E. destruct (Hf i1 H1) as [_ [Hs1 [HA1 Hc1]]].
  destruct (Hf i2 H2) as [_ [Hs2 [HA2 Hc2]]].
  destruct Hg as [_ [Hind _]].
  apply (bias_matched_rows_same d n A c i1 i2 A' c' (fst (f i1)) Hind H1 H2).
  - exact (aug_pm_of_split d A' c' _ A c i1 _ Hs1 HA1 Hc1).
  - rewrite E. exact (aug_pm_of_split d A' c' _ A c i2 _ Hs2 HA2 Hc2).
Qed.

Theorem even_bias_skip_not_absorbable_below : forall d n m P A c B b0,
  generic_bias_signs d n A c B -> (m < n)%nat ->
  ~ absorbable_ungated_bias sigma d n m P A c B b0.
Proof.
  intros d n m P A c B b0 Hg Hmn [A' [c' [B' [b0' H]]]].
  destruct (bias_absorb_choice d n m P A c B b0 A' c' B' b0' Hg H) as [jf [sf [Hf Hinj]]].
  pose proof (injective_bound n m jf (fun i Hi => proj1 (Hf i Hi)) Hinj). lia.
Qed.

(** With [m = n]: [b'_{j(i)} = b_i]. *)
Lemma bias_matched_coef d n P A c B b0 A' c' B' b0' (jf : nat -> nat) (sf : nat -> R) :
  generic_bias_signs d n A c B ->
  same_fun d (ungated_bias sigma d n A' c' B' b0')
             (residual d P (ungated_bias sigma d n A c B b0)) ->
  bias_matching d n n A c A' c' jf sf ->
  forall i k, (i < n)%nat -> (k < d)%nat -> B' k (jf i) = B k i.
Proof.
  intros Hg H [Hf Hinj] i0 k Hi0 Hk.
  assert (Hrange : forall i, (i < n)%nat -> (jf i < n)%nat) by (intros i Hi; apply Hf, Hi).
  pose proof (injective_surjective n jf Hrange Hinj) as Hsurj.
  pose proof Hg as [_ [Hind _]].
  rewrite <- (bias_absorb_group d n n P A c B b0 A' c' B' b0' Hg H i0 k Hi0 Hk).
  rewrite (sumn_ext n _ (fun j => if Nat.eq_dec (jf i0) j then B' k j else 0)).
  - symmetry. apply sumn_delta. apply Hrange. exact Hi0.
  - intros j Hj. unfold sim_ind. destruct (Nat.eq_dec (jf i0) j) as [<-|Hne].
    + destruct (sign_sim_dec (S d) (aug_row d A' c' (jf i0)) (aug_row d A c i0)) as [_|C]; [ring|].
      exfalso. apply C. destruct (Hf i0 Hi0) as [_ [Hs [HA Hc]]].
      exact (aug_pm_of_split d A' c' _ A c i0 _ Hs HA Hc).
    + destruct (sign_sim_dec (S d) (aug_row d A' c' j) (aug_row d A c i0)) as [C|_]; [|ring].
      exfalso. destruct (Hsurj j Hj) as [i [Hi <-]]. destruct (Hf i Hi) as [_ [Hs [HA Hc]]].
      assert (i = i0).
      { apply (bias_matched_rows_same d n A c i i0 A' c' (jf i) Hind Hi Hi0); [|exact C].
        exact (aug_pm_of_split d A' c' _ A c i _ Hs HA Hc). }
      subst i. contradiction.
Qed.

(** The even parts cancel; the linear parts give
    [sum_j b'_j (a'_j . x) = 2 P x + sum_i b_i (a_i . x)]. *)
Lemma bias_matched_odd d n P A c B b0 A' c' B' b0' (jf : nat -> nat) (sf : nat -> R) :
  generic_bias_signs d n A c B ->
  same_fun d (ungated_bias sigma d n A' c' B' b0')
             (residual d P (ungated_bias sigma d n A c B b0)) ->
  bias_matching d n n A c A' c' jf sf ->
  forall k, (k < d)%nat -> forall x,
    sumn n (fun j => B' k j * dot d (row A' j) x) = 2 * mv d P x k
      + sumn n (fun i => B k i * dot d (row A i) x).
Proof.
  intros Hg H Hm k Hk. pose proof Hm as [Hf Hinj].
  assert (Hrange : forall i, (i < n)%nat -> (jf i < n)%nat) by (intros i Hi; apply Hf, Hi).
  pose proof (injective_surjective n jf Hrange Hinj) as Hsurj.
  pose proof (bias_matched_coef d n P A c B b0 A' c' B' b0' jf sf Hg H Hm) as Hcoef.
  assert (Hev : forall x,
    sumn n (fun j => B' k j * even_part sigma (dot d (row A' j) x + c' j)) =
    sumn n (fun i => B k i * even_part sigma (dot d (row A i) x + c i))).
  { intros x. rewrite (sumn_reindex n jf _ Hrange Hinj Hsurj). apply sumn_ext. intros i Hi.
    rewrite (Hcoef i k Hi Hk). f_equal. destruct (Hf i Hi) as [_ [Hs [HA Hc]]].
    exact (aug_even_eq (even_part sigma) d A' c' (jf i) A c i x (even_part_even sigma Hodd)
             (aug_pm_of_split d A' c' _ A c i _ Hs HA Hc)). }
  assert (Haff : forall x,
    sumn n (fun j => B' k j * (dot d (row A' j) x + c' j)) + 2 * b0' k =
    2 * mv d P x k + sumn n (fun i => B k i * (dot d (row A i) x + c i)) + 2 * b0 k).
  { intros x. pose proof (H x k Hk) as E. unfold ungated_bias, residual in E.
    rewrite (sumn_sigma_split sigma d n (B' k) A' c' x),
      (sumn_sigma_split sigma d n (B k) A c x) in E.
    rewrite (Hev x) in E. lra. }
  intros x.
  pose proof (Haff x) as E1. pose proof (Haff (fun _ => 0)) as E0.
  assert (Hm0 : mv d P (fun _ => 0) k = 0) by (unfold mv; apply dot_zero_r).
  rewrite Hm0 in E0.
  rewrite
    (sumn_ext n (fun j => B' k j * (dot d (row A' j) (fun _ => 0) + c' j)) (fun j => B' k j * c' j))
    in E0 by (intros j _; rewrite dot_zero_r; ring).
  rewrite
    (sumn_ext n (fun i => B k i * (dot d (row A i) (fun _ => 0) + c i)) (fun i => B k i * c i))
    in E0 by (intros i _; rewrite dot_zero_r; ring).
  rewrite (sumn_ext n (fun j => B' k j * (dot d (row A' j) x + c' j))
             (fun j => B' k j * dot d (row A' j) x + B' k j * c' j)) in E1 by (intros; ring).
  rewrite (sumn_ext n (fun i => B k i * (dot d (row A i) x + c i))
             (fun i => B k i * dot d (row A i) x + B k i * c i)) in E1 by (intros; ring).
  rewrite !sumn_plus in E1. lra.
Qed.

Theorem even_bias_skip_submatrix : forall d n P A c B b0,
  generic_bias_signs d n A c B -> absorbable_ungated_bias sigma d n n P A c B b0 ->
  exists S, PostNormGeneric.skip_submatrix_cond d n S A B P.
Proof.
  intros d n P A c B b0 Hg [A' [c' [B' [b0' H]]]].
  destruct (bias_absorb_choice d n n P A c B b0 A' c' B' b0' Hg H) as [jf [sf [Hf Hinj]]].
  apply (PostNormGeneric.matched_skip_submatrix d n P A B A' B' jf sf).
  - intros i Hi. destruct (Hf i Hi) as [Hr [Hs [HA _]]].
    split; [exact Hr|]. split; [exact (pm1_nonzero _ Hs) | exact HA].
  - exact Hinj.
  - intros i k Hi Hk. destruct (Hf i Hi) as [_ [Hs _]].
    rewrite (pm1_abs _ Hs), Rmult_1_r.
    exact (bias_matched_coef d n P A c B b0 A' c' B' b0' jf sf Hg H (conj Hf Hinj) i k Hi Hk).
  - exact (bias_matched_odd d n P A c B b0 A' c' B' b0' jf sf Hg H (conj Hf Hinj)).
Qed.

(** The identity skip: the width bound and the submatrix condition. *)
Theorem even_bias_absorbable_width : forall d n m A c B b0,
  generic_bias_signs d n A c B -> absorbable_ungated_bias sigma d n m identity A c B b0 ->
  (n <= m)%nat.
Proof.
  intros d n m A c B b0 Hg [A' [c' [B' [b0' H]]]].
  destruct (bias_absorb_choice d n m identity A c B b0 A' c' B' b0' Hg H) as [jf [sf [Hf Hinj]]].
  apply (injective_bound n m jf); [intros i Hi; apply Hf, Hi | exact Hinj].
Qed.

Theorem even_bias_not_absorbable_below : forall d n m A c B b0,
  generic_bias_signs d n A c B -> (m < n)%nat ->
  ~ absorbable_ungated_bias sigma d n m identity A c B b0.
Proof. intros d n m. exact (even_bias_skip_not_absorbable_below d n m identity). Qed.

Theorem even_bias_absorbable_submatrix : forall d n A c B b0,
  generic_bias_signs d n A c B -> absorbable_ungated_bias sigma d n n identity A c B b0 ->
  exists S, submatrix_cond d n S A B.
Proof. intros d n. exact (even_bias_skip_submatrix d n identity). Qed.

End AffineMatching.

(** After the section, [even_bias_absorbable_submatrix] and its siblings take
    [sigma], [odd_part_identity sigma] and
    [affine_ridge_unique_even (even_part sigma)] as explicit premises.  Any
    [sigma] for which the one-variable statement [affine_independent_1d]
    holds for its even part gets the results below through
    [affine_ridge_unique_of_1d]. *)

(** ** Any [sigma] with the one-variable statement for its even part *)

Theorem bias_absorbable_iff_of_1d : forall sigma,
  odd_part_identity sigma -> affine_independent_1d (even_part sigma) ->
  forall d n A c B b0, generic_bias_signs d n A c B ->
  (absorbable_ungated_bias sigma d n n identity A c B b0 <-> exists S, submatrix_cond d n S A B).
Proof.
  intros sigma Hodd H1 d n A c B b0 Hg. split.
  - exact
      (even_bias_absorbable_submatrix sigma Hodd (affine_ridge_unique_of_1d _ H1) d n A c B b0 Hg).
  - intros [S HS]. exact (odd_part_absorbable_bias sigma d n S A c B b0 Hodd HS).
Qed.

Theorem bias_not_absorbable_below_of_1d : forall sigma,
  odd_part_identity sigma -> affine_independent_1d (even_part sigma) ->
  forall d n m A c B b0, generic_bias_signs d n A c B -> (m < n)%nat ->
  ~ absorbable_ungated_bias sigma d n m identity A c B b0.
Proof.
  intros sigma Hodd H1.
  exact (even_bias_not_absorbable_below sigma Hodd (affine_ridge_unique_of_1d _ H1)).
Qed.

(** ** From positive dilations to every nonzero one (the even part is even)

    [affine_positive_1d e] is [affine_independent_1d e] for [alpha_j > 0]
    and pairs [(alpha_j, beta_j)] pairwise distinct; flipping the sign of
    [(alpha_j, beta_j)] where [alpha_j < 0] gives the general statement
    ([affine_independent_of_positive]; SiLU and GELU_tanh use it). *)

Definition affine_positive_1d (e : R -> R) : Prop :=
  forall N (gamma alpha beta : nat -> R) (p q : R),
    (forall j, (j < N)%nat -> 0 < alpha j) ->
    (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j ->
      ~ (alpha i = alpha j /\ beta i = beta j)) ->
    (forall t, sumn N (fun j => gamma j * e (alpha j * t + beta j)) = p * t + q) ->
    forall j, (j < N)%nat -> gamma j = 0.

Theorem affine_independent_of_positive sigma : odd_part_identity sigma ->
  affine_positive_1d (even_part sigma) -> affine_independent_1d (even_part sigma).
Proof.
  intros Hodd Hpos N gamma alpha beta p q Ha Hd Hs.
  set (sg := fun j => if Rlt_dec (alpha j) 0 then -1 else 1).
  assert (Hsg : forall j, sg j = 1 \/ sg j = -1).
  { intros j. unfold sg. destruct (Rlt_dec (alpha j) 0); [right|left]; reflexivity. }
  apply (Hpos N gamma (fun j => sg j * alpha j) (fun j => sg j * beta j) p q).
  - intros j Hj. unfold sg. pose proof (Ha j Hj).
    destruct (Rlt_dec (alpha j) 0); [lra|]. apply Rnot_lt_le in n. lra.
  - intros i j Hi Hj Hne [E1 E2]. apply (Hd i j Hi Hj Hne).
    destruct (Hsg i) as [Si|Si], (Hsg j) as [Sj|Sj]; rewrite Si, Sj in E1, E2.
    + left. split; lra.
    + right. split; lra.
    + right. split; lra.
    + left. split; lra.
  - intros t. rewrite <- (Hs t). apply sumn_ext. intros j _. f_equal.
    destruct (Hsg j) as [S1|S1]; rewrite S1.
    + f_equal. ring.
    + rewrite <- (even_part_even sigma Hodd (alpha j * t + beta j)). f_equal. ring.
Qed.

(** ** GELU, unconditionally *)

Lemma gelu_even_part_affine_unique : affine_ridge_unique_even (even_part gelu).
Proof. exact (affine_ridge_unique_even_ext _ _ even_part_gelu gelu_affine_ridge_unique). Qed.

Theorem gelu_bias_absorbable_generic_submatrix : forall d n A c B b0,
  generic_bias_signs d n A c B ->
  absorbable_ungated_bias gelu d n n identity A c B b0 ->
  exists S, submatrix_cond d n S A B.
Proof. exact (even_bias_absorbable_submatrix gelu gelu_odd_part gelu_even_part_affine_unique). Qed.

Theorem gelu_bias_absorbable_iff_submatrix : forall d n A c B b0,
  generic_bias_signs d n A c B ->
  (absorbable_ungated_bias gelu d n n identity A c B b0 <-> exists S, submatrix_cond d n S A B).
Proof.
  intros d n A c B b0 Hg. split.
  - exact (gelu_bias_absorbable_generic_submatrix d n A c B b0 Hg).
  - intros [S HS]. exact (odd_part_absorbable_bias gelu d n S A c B b0 gelu_odd_part HS).
Qed.

Theorem gelu_bias_generic_not_absorbable_below : forall d n m A c B b0,
  generic_bias_signs d n A c B -> (m < n)%nat ->
  ~ absorbable_ungated_bias gelu d n m identity A c B b0.
Proof. exact (even_bias_not_absorbable_below gelu gelu_odd_part gelu_even_part_affine_unique). Qed.

(** ** Non-vacuity *)

(** [d = 1], [n = 2], both rows [a = 1] with biases [c = 0, 1]: generic with
    biases (though not [generic] without them: the rows are parallel).
    [B = (-1, 1)] is absorbable ([S = {0}]); [B = (1, 1)] is not. *)
Definition ex2_A : mat := fun _ _ => 1.
Definition ex2_c : vec := fun j => INR j.
Definition ex2_B_yes : mat := fun _ j => if Nat.eq_dec j 0 then -1 else 1.
Definition ex2_B_no : mat := fun _ _ => 1.

Lemma ex2_generic (B : mat) : (forall j, (j < 2)%nat -> B 0%nat j <> 0) ->
  generic_bias_signs 1 2 ex2_A ex2_c B.
Proof.
  intros HB. split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row, ex2_A; lra].
  - intros i j Hi Hj Hne [C|C]; specialize (C 1%nat ltac:(lia)); unfold aug_row, ex2_c in C;
      simpl in C.
    + apply INR_eq in C. lia.
    + pose proof (pos_INR i). pose proof (pos_INR j).
      apply Hne. apply INR_eq. lra.
  - intros i Hi. exists 0%nat. split; [lia | unfold col; apply HB, Hi].
Qed.

Lemma ex2_not_generic_bias_free : ~ generic 1 2 ex2_A ex2_B_yes.
Proof.
  intros [_ [Hind _]]. destruct (Hind 0%nat 1%nat ltac:(lia) ltac:(lia) ltac:(lia) 1 (-1)) as [C _];
    [|lra].
  intros k _. unfold row, ex2_A. ring.
Qed.

(** The three non-vacuity facts of R9 on the [ex2] blocks: both sides of
    the equivalence and the width bound. *)
Definition ex2_absorbable_side (sigma : R -> R) : Prop :=
  generic_bias_signs 1 2 ex2_A ex2_c ex2_B_yes /\
  (exists S, submatrix_cond 1 2 S ex2_A ex2_B_yes) /\
  absorbable_ungated_bias sigma 1 2 2 identity ex2_A ex2_c ex2_B_yes (fun _ => 5).

Definition ex2_not_absorbable_side (sigma : R -> R) : Prop :=
  generic_bias_signs 1 2 ex2_A ex2_c ex2_B_no /\
  ~ (exists S, submatrix_cond 1 2 S ex2_A ex2_B_no) /\
  ~ absorbable_ungated_bias sigma 1 2 2 identity ex2_A ex2_c ex2_B_no (fun _ => 5).

Definition ex2_below_instance (sigma : R -> R) : Prop :=
  generic_bias_signs 1 2 ex2_A ex2_c ex2_B_yes /\ (1 < 2)%nat /\
  ~ absorbable_ungated_bias sigma 1 2 1 identity ex2_A ex2_c ex2_B_yes (fun _ => 5).

(** They hold for any activation with R9's two statements (GELU here, the
    others through [BiasR9Instances.ex2_instances_of_1d]). *)
Lemma ex2_r9_sides (sigma : R -> R) :
  (forall d n A c B b0, generic_bias_signs d n A c B ->
     (absorbable_ungated_bias sigma d n n identity A c B b0 <->
       exists S, submatrix_cond d n S A B)) ->
  (forall d n m A c B b0, generic_bias_signs d n A c B -> (m < n)%nat ->
     ~ absorbable_ungated_bias sigma d n m identity A c B b0) ->
  ex2_absorbable_side sigma /\ ex2_not_absorbable_side sigma /\ ex2_below_instance sigma.
Proof.
  intros Hiff Hbelow.
  assert (Hy : generic_bias_signs 1 2 ex2_A ex2_c ex2_B_yes).
  { apply ex2_generic. intros j Hj. unfold ex2_B_yes. destruct (Nat.eq_dec j 0); lra. }
  assert (Hn : generic_bias_signs 1 2 ex2_A ex2_c ex2_B_no)
    by (apply ex2_generic; intros; unfold ex2_B_no; lra).
  assert (HSy : exists S, submatrix_cond 1 2 S ex2_A ex2_B_yes).
  { exists (fun i => if Nat.eq_dec i 0 then true else false).
    intros k l Hk Hl. assert (k = 0%nat) by lia. assert (l = 0%nat) by lia. subst.
    unfold subset_sum, ex2_A, ex2_B_yes, identity. simpl. ring. }
  assert (HSn : ~ exists S, submatrix_cond 1 2 S ex2_A ex2_B_no).
  { intros [S HS]. specialize (HS 0%nat 0%nat ltac:(lia) ltac:(lia)).
    unfold subset_sum, ex2_A, ex2_B_no, identity in HS. simpl in HS.
    destruct (S 0%nat), (S 1%nat); lra. }
  unfold ex2_absorbable_side, ex2_not_absorbable_side, ex2_below_instance. split; [|split].
  - split; [exact Hy|]. split; [exact HSy|]. apply (Hiff 1%nat 2%nat _ _ _ _ Hy). exact HSy.
  - split; [exact Hn|]. split; [exact HSn|]. rewrite (Hiff 1%nat 2%nat _ _ _ _ Hn). exact HSn.
  - split; [exact Hy|]. split; [lia|]. exact (Hbelow 1%nat 2%nat 1%nat _ _ _ _ Hy ltac:(lia)).
Qed.

Lemma gelu_ex2_sides :
  ex2_absorbable_side gelu /\ ex2_not_absorbable_side gelu /\ ex2_below_instance gelu.
Proof.
  exact
    (ex2_r9_sides gelu gelu_bias_absorbable_iff_submatrix gelu_bias_generic_not_absorbable_below).
Qed.

Example gelu_bias_absorbable_side : ex2_absorbable_side gelu.
Proof. exact (proj1 gelu_ex2_sides). Qed.

Example gelu_bias_not_absorbable_side : ex2_not_absorbable_side gelu.
Proof. exact (proj1 (proj2 gelu_ex2_sides)). Qed.

(** Below the width: the same generic block at width [m = 1 < 2]. *)
Example gelu_bias_below_instance : ex2_below_instance gelu.
Proof. exact (proj2 (proj2 gelu_ex2_sides)). Qed.
