(** * R8 with biases (paper.md R9): biased ridge forms, sufficiency and the width bound

    A *biased ridge form* is
    [x |-> L x + l0 + sum_{t < k} G[:,t] sigma(u_t . x + s_t)]
    ([BiasSpec.bias_ridge_form]); its classes are the affine hyperplanes
    [u_t . x + s_t = 0].  R8's width condition ([RidgeForm.width_condition])
    only involves the linear parts [u_t] and [L]; the biases [s_t] and [l0]
    go into the biases of the absorbing block.  Main results:
    - [bias_width_condition_sufficient] (headline): for every [sigma] with
      [sigma(z) - sigma(-z) = z] (ReLU, GELU, GELU_tanh, SiLU), if
      [width_condition d k m U G L] holds then the biased ridge form equals a
      biased residual-free block of width [m], whatever [s] and [l0]
      (classes in [S] are served by one flipped row, classes in [T] by two
      rows, the low-rank rest by [r] pairs [p sigma(q.x) - p sigma(-q.x)]);
    - [relu_bias_form_width] (headline): for ReLU, a biased ridge form whose
      augmented rows [(u_t, s_t)] are pairwise independent with [u_t <> 0]
      and nonzero kink vectors ([generic_bias_lines d k U s G]) is not equal
      to any biased block of width [m < k];
    - [residual_is_bias_ridge_form]: the residual block
      [x + B sigma(A x + c) + b0] is the biased ridge form with [L = I].
    - [relu_bias_form_tight] (headline): R8's necessity at the tight width
      [m = k] for ReLU: a canonical biased ridge form equal to a block of
      width [k] satisfies [width_condition d k k U G L].
    The converse of the sufficiency at every width (R8's necessity with
    biases, ReLU) is [ReluBiasNecessity.relu_bias_form_necessary]. *)

From Coq Require Import Reals Lra Lia Arith.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry FiniteMaps
  Ridge ReluSubmatrix FlipSigns Biases BiasSpec AffineRidge ReluBias RidgeForm.
Open Scope R_scope.

(** [bias_ridge_form] ([x |-> L x + l0 + sum_t G[:,t] sigma(u_t . x + s_t)])
    is defined in [BiasSpec.v]. *)

Lemma residual_is_bias_ridge_form sigma d n A c B b0 :
  same_fun d (residual d identity (ungated_bias sigma d n A c B b0))
             (bias_ridge_form sigma d n A c B identity b0).
Proof. intros x i Hi. unfold residual, ungated_bias, bias_ridge_form. ring. Qed.

(** ** Blocks of a given width, without output bias *)

(** [F] is computed by [m] rows: [F x = sum_{j < m} B'[:,j] sigma(a'_j . x + c'_j)]. *)
Definition rep_width (sigma : R -> R) (d w : nat) (F : vec -> vec) : Prop :=
  exists (A' : mat) (c' : vec) (B' : mat), forall x i, (i < d)%nat ->
    sumn w (fun j => B' i j * sigma (dot d (row A' j) x + c' j)) = F x i.

Lemma rep_ext sigma d w (F F' : vec -> vec) :
  rep_width sigma d w F -> (forall x i, (i < d)%nat -> F x i = F' x i) -> rep_width sigma d w F'.
Proof.
  intros [A' [c' [B' H]]] E. exists A', c', B'. intros x i Hi. rewrite H by exact Hi. apply E, Hi.
Qed.

Lemma rep_rows sigma d N (A : mat) (c : vec) (B : mat) :
  rep_width sigma d N (fun x i => sumn N (fun j => B i j * sigma (dot d (row A j) x + c j))).
Proof. exists A, c, B. reflexivity. Qed.

Lemma rep_zero sigma d : rep_width sigma d 0 (fun _ _ => 0).
Proof. exists (fun _ _ => 0), (fun _ => 0), (fun _ _ => 0). reflexivity. Qed.

(** Putting two blocks side by side. *)
Lemma rep_concat sigma d w1 w2 F1 F2 :
  rep_width sigma d w1 F1 -> rep_width sigma d w2 F2 ->
  rep_width sigma d (w1 + w2) (fun x i => F1 x i + F2 x i).
Proof.
  intros [A1 [c1 [B1 H1]]] [A2 [c2 [B2 H2]]].
  exists (fun j k => if lt_dec j w1 then A1 j k else A2 (j - w1)%nat k),
         (fun j => if lt_dec j w1 then c1 j else c2 (j - w1)%nat),
         (fun i j => if lt_dec j w1 then B1 i j else B2 i (j - w1)%nat).
  intros x i Hi. rewrite sumn_add, <- (H1 x i Hi), <- (H2 x i Hi). f_equal.
  - apply sumn_ext. intros j Hj. unfold row. destruct (lt_dec j w1); [reflexivity | lia].
  - apply sumn_ext. intros j Hj. unfold row. destruct (lt_dec (w1 + j) w1); [lia|].
    replace (w1 + j - w1)%nat with j by lia. reflexivity.
Qed.

(** Unused rows (zero coefficients) pad a block to any larger width. *)
Lemma rep_pad sigma d w m F : rep_width sigma d w F -> (w <= m)%nat -> rep_width sigma d m F.
Proof.
  intros Hw Hle.
  assert (E : m = (w + (m - w))%nat) by lia. rewrite E.
  apply (rep_ext sigma d _ (fun x i => F x i + 0)); [| intros; cbv beta; ring].
  apply rep_concat; [exact Hw|].
  exists (fun _ _ => 0), (fun _ => 0), (fun _ _ => 0). intros x i _.
  apply sumn_zero. intros; ring.
Qed.

(** One row. *)
Lemma rep_one sigma d (a : vec) (c0 : R) (b : vec) :
  rep_width sigma d 1 (fun x i => b i * sigma (dot d a x + c0)).
Proof.
  exists (fun _ => a), (fun _ => c0), (fun i _ => b i). intros x i _. simpl.
  rewrite Rplus_0_l. reflexivity.
Qed.

(** Rows whose coefficients vanish can be dropped: [N] rows of which only
    those in [M] are used make a block of width [count N M]. *)
Lemma rep_compact sigma d N (M : nat -> bool) (A : mat) (c : vec) (B : mat) :
  (forall j, (j < N)%nat -> M j = false -> forall i, B i j = 0) ->
  rep_width sigma d (count N M)
    (fun x i => sumn N (fun j => B i j * sigma (dot d (row A j) x + c j))).
Proof.
  induction N as [|N IH]; intros HM.
  - apply (rep_ext sigma d 0 (fun _ _ => 0)); [apply rep_zero | reflexivity].
  - simpl. destruct (M N) eqn:EM.
    + apply (rep_ext sigma d _ (fun x i =>
          sumn N (fun j => B i j * sigma (dot d (row A j) x + c j))
          + B i N * sigma (dot d (row A N) x + c N))); [| reflexivity].
      apply rep_concat; [apply IH; intros; apply HM; auto | apply rep_one].
    + rewrite Nat.add_0_r.
      apply (rep_ext sigma d _ (fun x i =>
          sumn N (fun j => B i j * sigma (dot d (row A j) x + c j)))).
      * apply IH. intros; apply HM; auto.
      * intros x i _. rewrite (HM N ltac:(lia) EM i). ring.
Qed.

(** A linear map of rank one with two rows: [p sigma(q.x) - p sigma(-q.x) = p (q.x)]. *)
Lemma rep_linear_pair sigma d (p q : vec) : odd_part_identity sigma ->
  rep_width sigma d 2 (fun x i => p i * dot d q x).
Proof.
  intros Hodd.
  exists (fun j k => match j with O => q k | _ => - q k end), (fun _ => 0),
         (fun i j => match j with O => p i | _ => - p i end).
  intros x i _. simpl. unfold row.
  rewrite (dot_comm d (fun k => - q k) x), dot_opp_r, (dot_comm d x q).
  pose proof (Hodd (dot d q x)) as E.
  replace (dot d (fun k => q k) x) with (dot d q x) by reflexivity.
  rewrite !Rplus_0_r. transitivity (p i * (sigma (dot d q x) - sigma (- dot d q x))); [ring|].
  rewrite E. reflexivity.
Qed.

(** A linear map of rank at most [r] with [2 r] rows. *)
Lemma rep_low_rank sigma d r (P Q : mat) : odd_part_identity sigma ->
  rep_width sigma d (2 * r) (fun x i => sumn r (fun l => P i l * dot d (row Q l) x)).
Proof.
  intros Hodd. induction r as [|r IH].
  - apply (rep_ext sigma d 0 (fun _ _ => 0)); [apply rep_zero | reflexivity].
  - replace (2 * S r)%nat with (2 * r + 2)%nat by lia.
    apply (rep_ext sigma d _ (fun x i => sumn r (fun l => P i l * dot d (row Q l) x)
                                       + (fun x i => P i r * dot d (row Q r) x) x i));
      [| reflexivity].
    apply rep_concat; [exact IH | exact (rep_linear_pair sigma d (col P r) (row Q r) Hodd)].
Qed.

(** ** Sufficiency *)

Lemma mv_lin_comb d (L M1 M2 M3 : mat) x i :
  (forall q, (q < d)%nat -> L i q = M1 i q + M2 i q - M3 i q) ->
  mv d L x i = mv d M1 x i + mv d M2 x i - mv d M3 x i.
Proof.
  intros H. unfold mv, dot, row. rewrite <- sumn_plus, <- sumn_minus.
  apply sumn_ext. intros q Hq. rewrite (H q Hq). ring.
Qed.

(** The linear part [L x] under the width condition. *)
Lemma width_linear_part d k r (T S : nat -> bool) (U G L E P Q : mat) x i :
  (forall q, (q < d)%nat ->
     L i q + masked_outer k S G U i q = masked_outer k T E U i q + low_rank r P Q i q) ->
  mv d L x i =
    sumn k (fun t => if T t then E i t * dot d (row U t) x else 0)
    + sumn r (fun l => P i l * dot d (row Q l) x)
    - sumn k (fun t => if S t then G i t * dot d (row U t) x else 0).
Proof.
  intros HL.
  rewrite (mv_lin_comb d L (masked_outer k T E U) (low_rank r P Q) (masked_outer k S G U) x i)
    by (intros q Hq; pose proof (HL q Hq); lra).
  rewrite !subset_sum_mv.
  rewrite (subset_sum_mv d r (fun _ => true) Q P x i). reflexivity.
Qed.

(** Term by term: a class in [S] is served by its flipped row, a class in
    [T] by its row and its flipped row. *)
Lemma width_term sigma d (T S : nat -> bool) (U G E : mat) (s : vec) x i t :
  odd_part_identity sigma -> (T t = true -> S t = false) ->
  G i t * sigma (dot d (row U t) x + s t)
  + (if T t then E i t * dot d (row U t) x else 0)
  - (if S t then G i t * dot d (row U t) x else 0)
  = (G i t + (if T t then E i t else 0))
      * sigma (dot d (row (flip_rows S U) t) x + flip_bias S s t)
    + (if T t then - E i t else 0)
      * sigma (dot d (row (flip_rows (fun _ => true) U) t) x + flip_bias (fun _ => true) s t)
    + ((if S t then G i t * s t else 0) - (if T t then E i t * s t else 0)).
Proof.
  intros Hodd Hd. rewrite !dot_flip_row. unfold flip_bias.
  set (z := dot d (row U t) x).
  assert (Hn : - z + - s t = - (z + s t)) by ring.
  pose proof (Hodd (z + s t)) as O.
  destruct (S t) eqn:ES, (T t) eqn:ET; rewrite ?Hn.
  - discriminate (Hd eq_refl).
  - replace (sigma (z + s t)) with (sigma (- (z + s t)) + (z + s t)) by lra. ring.
  - replace (sigma (- (z + s t))) with (sigma (z + s t) - (z + s t)) by lra. ring.
  - ring.
Qed.

Lemma bias_form_decompose sigma d k r U s G L l0 (T S : nat -> bool) (E P Q : mat) x i :
  odd_part_identity sigma ->
  (forall t, (t < k)%nat -> T t = true -> S t = false) ->
  (forall q, (q < d)%nat ->
     L i q + masked_outer k S G U i q = masked_outer k T E U i q + low_rank r P Q i q) ->
  bias_ridge_form sigma d k U s G L l0 x i =
    (sumn k (fun t => (G i t + (if T t then E i t else 0))
                      * sigma (dot d (row (flip_rows S U) t) x + flip_bias S s t))
     + sumn k (fun t => (if T t then - E i t else 0)
                      * sigma (dot d (row (flip_rows (fun _ => true) U) t) x
                               + flip_bias (fun _ => true) s t))
     + sumn r (fun l => P i l * dot d (row Q l) x))
    + (l0 i + sumn k (fun t => if S t then G i t * s t else 0)
            - sumn k (fun t => if T t then E i t * s t else 0)).
Proof.
  intros Hodd Hd HL. unfold bias_ridge_form.
  rewrite (width_linear_part d k r T S U G L E P Q x i HL).
  assert (Hs : sumn k (fun t => G i t * sigma (dot d (row U t) x + s t)
                 + (if T t then E i t * dot d (row U t) x else 0)
                 - (if S t then G i t * dot d (row U t) x else 0)) =
               sumn k (fun t => (G i t + (if T t then E i t else 0))
                      * sigma (dot d (row (flip_rows S U) t) x + flip_bias S s t)
                 + (if T t then - E i t else 0)
                      * sigma (dot d (row (flip_rows (fun _ => true) U) t) x
                               + flip_bias (fun _ => true) s t)
                 + ((if S t then G i t * s t else 0) - (if T t then E i t * s t else 0)))).
  { apply sumn_ext. intros t Ht. apply width_term; [exact Hodd | exact (Hd t Ht)]. }
  repeat (rewrite sumn_plus in Hs || rewrite sumn_minus in Hs). lra.
Qed.

Theorem bias_width_condition_sufficient : forall sigma d k m U s G L l0,
  odd_part_identity sigma -> width_condition d k m U G L ->
  exists A' c' B' b0',
    same_fun d (ungated_bias sigma d m A' c' B' b0') (bias_ridge_form sigma d k U s G L l0).
Proof.
  intros sigma d k m U s G L l0 Hodd [T [S [r [E [P [Q [Hd [Hw HL]]]]]]]].
  assert (Hrep : rep_width sigma d (k + count k T + 2 * r) (fun x i =>
     sumn k (fun t => (G i t + (if T t then E i t else 0))
                      * sigma (dot d (row (flip_rows S U) t) x + flip_bias S s t))
     + sumn k (fun t => (if T t then - E i t else 0)
                      * sigma (dot d (row (flip_rows (fun _ => true) U) t) x
                               + flip_bias (fun _ => true) s t))
     + sumn r (fun l => P i l * dot d (row Q l) x))).
  { apply rep_concat; [apply rep_concat|].
    - apply rep_rows.
    - apply (rep_compact sigma d k T (flip_rows (fun _ => true) U) (flip_bias (fun _ => true) s)
               (fun i t => if T t then - E i t else 0)).
      intros t _ ET i. rewrite ET. reflexivity.
    - apply rep_low_rank. exact Hodd. }
  destruct (rep_pad sigma d _ m _ Hrep Hw) as [A' [c' [B' H]]].
  exists A', c', B', (fun i => l0 i + sumn k (fun t => if S t then G i t * s t else 0)
                                  - sumn k (fun t => if T t then E i t * s t else 0)).
  intros x i Hi. unfold ungated_bias. rewrite (H x i Hi).
  rewrite (bias_form_decompose sigma d k r U s G L l0 T S E P Q x i Hodd Hd
             (fun q Hq => HL i q Hi Hq)).
  reflexivity.
Qed.

(** ** The width bound for ReLU *)

(** The affine difference of the [|.|] parts of a block and a biased ridge
    form, in output coordinate [i]. *)
Definition form_affine_gap (d k m : nat) (U : mat) (s : vec) (G L : mat) (l0 : vec)
    (A' : mat) (c' : vec) (B' : mat) (b0' : vec) (i : nat) (x : vec) : R :=
  2 * dot d (row L i) x + 2 * (l0 i - b0' i)
  + sumn k (fun t => G i t * (dot d (row U t) x + s t))
  - sumn m (fun j => B' i j * (dot d (row A' j) x + c' j)).

Lemma form_affine_gap_affine d k m U s G L l0 A' c' B' b0' i :
  affine_like (form_affine_gap d k m U s G L l0 A' c' B' b0' i).
Proof.
  intros x0 w t. unfold form_affine_gap.
  pose proof (affine_like_dot d (row L i) 0 x0 w t) as E0.
  pose proof (affine_like_sum_dot d k U s (G i) x0 w t) as E1.
  pose proof (affine_like_sum_dot d m A' c' (B' i) x0 w t) as E2.
  cbv beta in E0, E1, E2. lra.
Qed.

Lemma relu_bias_form_kinks d k m U s G L l0 A' c' B' b0' :
  same_fun d (ungated_bias relu d m A' c' B' b0') (bias_ridge_form relu d k U s G L l0) ->
  forall i, (i < d)%nat -> forall x0 w,
    bkink_sum d m A' c' (B' i) x0 w = bkink_sum d k U s (G i) x0 w.
Proof.
  intros H i Hi.
  apply (bkink_eq d m A' c' (B' i) k U s (G i) (form_affine_gap d k m U s G L l0 A' c' B' b0' i)).
  - intros x. pose proof (H x i Hi) as E. unfold ungated_bias, bias_ridge_form, mv in E.
    rewrite !relu_sum_split in E. unfold form_affine_gap. lra.
  - apply form_affine_gap_affine.
Qed.

Theorem relu_bias_form_width : forall d k m U s G L l0,
  generic_bias_lines d k U s G ->
  (exists A' c' B' b0',
     same_fun d (ungated_bias relu d m A' c' B' b0') (bias_ridge_form relu d k U s G L l0)) ->
  (k <= m)%nat.
Proof.
  intros d k m U s G L l0 Hg [A' [c' [B' [b0' H]]]].
  destruct (relu_bias_choice d k m U s G A' c' B' Hg
              (relu_bias_form_kinks d k m U s G L l0 A' c' B' b0' H)) as [jf [lf [Hf Hinj]]].
  apply (injective_bound k m jf); [intros t Ht; apply Hf, Ht | exact Hinj].
Qed.

Corollary relu_bias_form_not_below : forall d k m U s G L l0,
  generic_bias_lines d k U s G -> (m < k)%nat ->
  ~ exists A' c' B' b0',
      same_fun d (ungated_bias relu d m A' c' B' b0') (bias_ridge_form relu d k U s G L l0).
Proof.
  intros d k m U s G L l0 Hg Hmk Habs.
  pose proof (relu_bias_form_width d k m U s G L l0 Hg Habs). lia.
Qed.

(** ** Necessity at the tight width [m = k] (ReLU)

    A canonical biased ridge form equal to a block of width exactly [k]:
    every class is served by one row [(a'_{j(t)}, c'_{j(t)}) = lam_t (u_t, s_t)],
    and the linear parts give [L + sum_{lam_t < 0} G[:,t] u_t^T = 0], i.e.
    R8's width condition with [T = {}], [r = 0]. *)

Lemma count_false k : count k (fun _ => false) = 0%nat.
Proof. induction k as [|k IH]; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

(** The affine gap vanishing everywhere gives the linear identity. *)
Lemma form_gap_linear d k m U s G L l0 A' c' B' b0' i :
  (forall x, form_affine_gap d k m U s G L l0 A' c' B' b0' i x = 0) ->
  forall x, sumn m (fun j => B' i j * dot d (row A' j) x) =
            2 * dot d (row L i) x + sumn k (fun t => G i t * dot d (row U t) x).
Proof.
  intros H x. pose proof (H x) as E1. pose proof (H (fun _ => 0)) as E0.
  unfold form_affine_gap in E1, E0. rewrite !sumn_affine_split in E1, E0.
  rewrite dot_zero_r in E0.
  rewrite (sumn_zero k (fun t => G i t * dot d (row U t) (fun _ => 0))) in E0
    by (intros; rewrite dot_zero_r; ring).
  rewrite (sumn_zero m (fun j => B' i j * dot d (row A' j) (fun _ => 0))) in E0
    by (intros; rewrite dot_zero_r; ring).
  lra.
Qed.

Theorem relu_bias_form_tight : forall d k U s G L l0,
  generic_bias_lines d k U s G ->
  (exists A' c' B' b0',
     same_fun d (ungated_bias relu d k A' c' B' b0') (bias_ridge_form relu d k U s G L l0)) ->
  width_condition d k k U G L.
Proof.
  intros d k U s G L l0 Hg [A' [c' [B' [b0' H]]]].
  pose proof (relu_bias_form_kinks d k k U s G L l0 A' c' B' b0' H) as Hk.
  destruct (relu_bias_choice d k k U s G A' c' B' Hg Hk) as [jf [lf [Hf Hinj]]].
  pose proof (relu_bias_coef d k U s G A' c' B' jf lf Hg Hk Hf Hinj) as Hcoef.
  assert (Hrange : forall t, (t < k)%nat -> (jf t < k)%nat) by (intros t Ht; apply Hf, Ht).
  pose proof (injective_surjective k jf Hrange Hinj) as Hsurj.
  exists (fun _ => false), (fun t => if Rlt_dec (lf t) 0 then true else false), 0%nat,
         (fun _ _ => 0), (fun _ _ => 0), (fun _ _ => 0).
  split; [intros; discriminate|]. split; [rewrite count_false; lia|].
  intros i q Hi Hq.
  (* the [|.|] parts cancel, so the affine gap vanishes *)
  assert (Hgap : forall x, form_affine_gap d k k U s G L l0 A' c' B' b0' i x = 0).
  { intros x. pose proof (H x i Hi) as E. unfold ungated_bias, bias_ridge_form, mv in E.
    rewrite !relu_sum_split in E.
    rewrite (matched_bridge_eq d k U s A' c' (G i) (B' i) jf lf Hf Hinj
               (fun t Ht => Hcoef t i Ht Hi) x) in E.
    unfold form_affine_gap. lra. }
  pose proof (form_gap_linear d k k U s G L l0 A' c' B' b0' i Hgap (fun t => identity q t)) as E.
  rewrite (sumn_reindex k jf _ Hrange Hinj Hsurj) in E.
  rewrite dot_unit in E by exact Hq.
  rewrite (sumn_ext k (fun t => B' i (jf t) * dot d (row A' (jf t)) (fun t0 => identity q t0))
             (fun t => (if Rlt_dec (lf t) 0 then - G i t else G i t) * U t q)) in E.
  2:{ intros t Ht. destruct (Hf t Ht) as [_ [_ [Ma _]]].
      rewrite (parallel_dot d (row A' (jf t)) (row U t) (lf t) _ Ma), dot_unit by exact Hq.
      pose proof (Hcoef t i Ht Hi) as C. unfold row.
      destruct (Rlt_dec (lf t) 0) as [N|N].
      - rewrite Rabs_left in C by exact N. rewrite <- C. ring.
      - rewrite Rabs_right in C by (apply Rnot_lt_ge; exact N). rewrite <- C. ring. }
  rewrite (sumn_ext k (fun t => G i t * dot d (row U t) (fun t0 => identity q t0))
             (fun t => G i t * U t q)) in E
    by (intros t _; rewrite dot_unit by exact Hq; reflexivity).
  unfold masked_outer, low_rank. rewrite sumn_0.
  rewrite (sumn_zero k (fun t => if false then 0 * U t q else 0)) by reflexivity.
  assert (Hd : sumn k (fun t => (if Rlt_dec (lf t) 0 then - G i t else G i t) * U t q)
               - sumn k (fun t => G i t * U t q)
               = -2 * sumn k (fun t => if (if Rlt_dec (lf t) 0 then true else false)
                                       then G i t * U t q else 0)).
  { rewrite <- sumn_minus, <- sumn_scal_l. apply sumn_ext. intros t _.
    destruct (Rlt_dec (lf t) 0); ring. }
  change (row L i q) with (L i q) in E. lra.
Qed.

(** ** Non-vacuity *)

(** [x + relu(x + 1)] ([d = k = 1], [U = G = L = 1], [s = 1]) meets the width
    condition at width 2 with [T = {0}], [E = 1]
    ([x + relu(x + 1) = 2 relu(x + 1) - relu(-x - 1) - 1]); it is not
    absorbable at width 1 ([ReluBias.relu_bias_not_absorbable_instance]). *)
Example bias_width_condition_instance :
  width_condition 1 1 2 (fun _ _ => 1) (fun _ _ => 1) (fun _ _ => 1).
Proof.
  exists (fun _ => true), (fun _ => false), 0%nat, (fun _ _ => 1), (fun _ _ => 0), (fun _ _ => 0).
  split; [intros; reflexivity|]. split; [simpl; lia|].
  intros i j _ _. unfold masked_outer, low_rank. simpl. ring.
Qed.

Example bias_sufficient_instance :
  exists A' c' B' b0', same_fun 1 (ungated_bias relu 1 2 A' c' B' b0')
    (bias_ridge_form relu 1 1 (fun _ _ => 1) (fun _ => 1) (fun _ _ => 1) (fun _ _ => 1)
       (fun _ => 0)).
Proof.
  exact (bias_width_condition_sufficient relu 1 1 2 _ _ _ _ _ relu_odd_part
           bias_width_condition_instance).
Qed.

(** Two hyperplanes [x = 0] and [x = -1] in [d = 1]: the form
    [x + relu(x) + relu(x + 1)] needs width at least 2. *)
Example relu_bias_form_below_instance :
  ~ exists A' c' B' b0', same_fun 1 (ungated_bias relu 1 1 A' c' B' b0')
      (bias_ridge_form relu 1 2 rb_ex_A rb_ex2_c (fun _ _ => 1) identity (fun _ => 0)).
Proof.
  exact (relu_bias_form_not_below 1 2 1 rb_ex_A rb_ex2_c _ identity _
           relu_bias_generic_instance2 ltac:(lia)).
Qed.

(** The tight case applies: [x - relu(x + 1) + 3] is a width-1 block
    ([ReluBias.relu_bias_absorbable_instance]), so its ridge form meets the
    width condition at width 1. *)
Example relu_bias_form_tight_instance :
  width_condition 1 1 1 rb_ex_A (fun _ _ => -1) identity.
Proof.
  apply (relu_bias_form_tight 1 1 rb_ex_A rb_ex_c _ identity (fun _ => 3)
           (relu_bias_generic_instance (-1) ltac:(lra))).
  destruct relu_bias_absorbable_instance as [A' [c' [B' [b0' H]]]].
  exists A', c', B', b0'. intros x i Hi. rewrite (H x i Hi).
  apply residual_is_bias_ridge_form. exact Hi.
Qed.
