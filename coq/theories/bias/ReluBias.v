(** * R5 with biases for ReLU (paper.md R9): the submatrix condition

    A biased ReLU block [x + B relu(A x + c) + b0] whose augmented rows
    [(a_i, c_i)] are pairwise linearly independent, with [a_i <> 0] and
    [b_i <> 0] ([BiasSpec.generic_bias_lines]), is absorbable at width [n]
    by a biased residual-free ReLU block iff [B[:,S] A[S,:] = -I] for some [S].
    Writing [relu z = z/2 + |z|/2]:
    - [relu_bias_even_part]: the [|.|] parts of both blocks differ by an
      affine function (for a residual block with any linear part [P]), so
      their kinks agree ([AffineRidge.bkink_eq]);
    - [relu_bias_choice]: each hyperplane [a_i.x + c_i = 0] is matched by a
      distinct row [(a'_{j(i)}, c'_{j(i)}) = lam_i (a_i, c_i)], [lam_i <> 0];
    - [relu_bias_generic_not_absorbable_below] (headline): so never at a
      width [m < n];
    - [relu_bias_skip_generic_submatrix]: at width [n] the matching is a
      bijection with [b'_{j(i)} |lam_i| = b_i]; the [|.|] parts then cancel
      exactly, the linear parts give [sum_j b'_j a'_j^T = 2 P + sum_i b_i a_i^T]
      for the residual block's linear part [P] (any, singular allowed), and
      [S = {i | lam_i < 0}] has [B[:,S] A[S,:] = -P]
      ([PostNormGeneric.matched_skip_submatrix]);
      [relu_bias_absorbable_generic_submatrix] (headline) is [P = I], and
      [relu_bias_skip_not_absorbable_below] the width bound for every [P];
    - [relu_bias_absorbable_iff_submatrix] (headline): with
      [Biases.odd_part_absorbable_bias] for (<=). *)

From Coq Require Import Reals Lra Lia Arith.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry FiniteMaps
  Ridge ReluSubmatrix Biases BiasSpec AffineRidge.
From Absorb Require PostNormGeneric.
Open Scope R_scope.

(** ** Splitting ReLU into its linear and [|.|] parts *)

(** [sum_j beta_j relu(v_j.x + c_j) = 1/2 sum_j beta_j (v_j.x + c_j) + 1/2 (biased ridge sum)]. *)
Lemma relu_sum_split d N (V : mat) (c : vec) (beta : nat -> R) x :
  sumn N (fun j => beta j * relu (dot d (row V j) x + c j)) =
  / 2 * sumn N (fun j => beta j * (dot d (row V j) x + c j)) + / 2 * bridge_sum d N V c beta x.
Proof.
  unfold bridge_sum. rewrite <- !sumn_scal_l, <- sumn_plus. apply sumn_ext. intros j _.
  rewrite relu_abs. field.
Qed.

(** The affine difference of the two blocks' [|.|] parts, in output
    coordinate [k], for a residual block with any linear part [P]. *)
Definition bias_affine_gap (d n m : nat) (P A : mat) (c : vec) (B : mat) (b0 : vec)
    (A' : mat) (c' : vec) (B' : mat) (b0' : vec) (k : nat) (x : vec) : R :=
  2 * mv d P x k + 2 * (b0 k - b0' k) + sumn n (fun i => B k i * (dot d (row A i) x + c i))
  - sumn m (fun j => B' k j * (dot d (row A' j) x + c' j)).

Lemma bias_affine_gap_affine d n m P A c B b0 A' c' B' b0' k :
  affine_like (bias_affine_gap d n m P A c B b0 A' c' B' b0' k).
Proof.
  intros x0 w t. unfold bias_affine_gap.
  pose proof (affine_like_sum_dot d n A c (B k) x0 w t) as E1.
  pose proof (affine_like_sum_dot d m A' c' (B' k) x0 w t) as E2.
  pose proof (affine_like_dot d (row P k) 0 x0 w t) as E3.
  cbv beta in E1, E2, E3. unfold mv. lra.
Qed.

Lemma relu_bias_even_part d n m P A c B b0 A' c' B' b0' :
  same_fun d (ungated_bias relu d m A' c' B' b0') (residual d P (ungated_bias relu d n A c B b0)) ->
  forall k, (k < d)%nat -> forall x,
    bridge_sum d m A' c' (B' k) x =
    bridge_sum d n A c (B k) x + bias_affine_gap d n m P A c B b0 A' c' B' b0' k x.
Proof.
  intros H k Hk x. pose proof (H x k Hk) as E.
  unfold ungated_bias, residual in E. rewrite !relu_sum_split in E.
  unfold bias_affine_gap. lra.
Qed.

Lemma relu_bias_kinks d n m P A c B b0 A' c' B' b0' :
  same_fun d (ungated_bias relu d m A' c' B' b0') (residual d P (ungated_bias relu d n A c B b0)) ->
  forall k, (k < d)%nat -> forall x0 w,
    bkink_sum d m A' c' (B' k) x0 w = bkink_sum d n A c (B k) x0 w.
Proof.
  intros H k Hk.
  apply (bkink_eq d m A' c' (B' k) n A c (B k) (bias_affine_gap d n m P A c B b0 A' c' B' b0' k)).
  - exact (relu_bias_even_part d n m P A c B b0 A' c' B' b0' H k Hk).
  - apply bias_affine_gap_affine.
Qed.

(** ** Matching the hyperplanes *)

(** The row [(v, e)] is [lam (a_i, c_i)]. *)
Definition aug_multiple (d : nat) (A : mat) (c : vec) (i : nat) (v : vec) (e lam : R) : Prop :=
  (forall k, (k < d)%nat -> v k = lam * A i k) /\ e = lam * c i.

(** On the hyperplane of row [i0], at a point off every other hyperplane,
    the kinks of both sides must agree. *)
Lemma relu_bias_kink d n m A c B A' c' B' i0 :
  generic_bias_lines d n A c B -> (i0 < n)%nat ->
  (forall k, (k < d)%nat -> forall x0 w,
     bkink_sum d m A' c' (B' k) x0 w = bkink_sum d n A c (B k) x0 w) ->
  exists x0, dot d (row A i0) x0 + c i0 = 0 /\
    (forall i, (i < n)%nat -> i <> i0 -> dot d (row A i) x0 + c i <> 0) /\
    (forall j, (j < m)%nat -> dot d (row A' j) x0 + c' j = 0 ->
       exists lam, aug_multiple d A c i0 (row A' j) (c' j) lam) /\
    (forall k, (k < d)%nat ->
       bkink_sum d m A' c' (B' k) x0 (row A i0) = B k i0 * dot d (row A i0) (row A i0)).
Proof.
  intros [Hnz [Hind Hb]] Hi0 Hk.
  pose (v := fun j => if lt_dec j m then row A' j else row A (j - m)%nat).
  pose (e := fun j => if lt_dec j m then c' j else c (j - m)%nat).
  destruct (affine_avoid d (row A i0) (c i0) v e (m + n) (Hnz i0 Hi0)) as [x0 [Hpx Hx]].
  assert (HA : forall i, (i < n)%nat -> i <> i0 -> dot d (row A i) x0 + c i <> 0).
  { intros i Hi Hne. pose proof (Hx (m + i)%nat ltac:(lia)) as G. unfold v, e in G.
    destruct (lt_dec (m + i) m) as [|_]; [lia|].
    replace (m + i - m)%nat with i in G by lia.
    destruct G as [G|[lam [Hl Hc]]]; [exact G|]. exfalso.
    apply (aug_multiple_not_independent d A c i i0 (row A i) (c i) 1 lam);
      [lra | intros; unfold row; ring | ring | exact Hl | exact Hc | apply Hind; auto]. }
  exists x0. split; [exact Hpx|]. split; [exact HA|]. split.
  - intros j Hj H0. pose proof (Hx j ltac:(lia)) as G. unfold v, e in G.
    destruct (lt_dec j m) as [_|]; [|lia].
    destruct G as [G|[lam [Hl Hc]]]; [contradiction|]. exists lam. split; assumption.
  - intros k Hk'. rewrite (Hk k Hk' x0 (row A i0)). unfold bkink_sum.
    rewrite (sumn_ext n _ (fun i => if Nat.eq_dec i0 i
                                   then B k i * dot d (row A i0) (row A i0) else 0)).
    + apply sumn_delta. exact Hi0.
    + intros i Hi. destruct (Nat.eq_dec i0 i) as [<-|Hne].
      * destruct (Req_EM_T (dot d (row A i0) x0 + c i0) 0) as [_|E]; [|contradiction].
        rewrite Rabs_right; [reflexivity|].
        apply Rle_ge, Rlt_le, dot_self_pos, Hnz, Hi0.
      * destruct (Req_EM_T (dot d (row A i) x0 + c i) 0) as [E|_]; [|reflexivity].
        exfalso. exact (HA i Hi ltac:(lia) E).
Qed.

Lemma relu_bias_match d n m A c B A' c' B' i0 :
  generic_bias_lines d n A c B -> (i0 < n)%nat ->
  (forall k, (k < d)%nat -> forall x0 w,
     bkink_sum d m A' c' (B' k) x0 w = bkink_sum d n A c (B k) x0 w) ->
  exists jl : nat * R, (fst jl < m)%nat /\ snd jl <> 0 /\
    aug_multiple d A c i0 (row A' (fst jl)) (c' (fst jl)) (snd jl).
Proof.
  intros Hg Hi0 Hk. pose proof Hg as [Hnz [Hind Hb]].
  destruct (relu_bias_kink d n m A c B A' c' B' i0 Hg Hi0 Hk) as [x0 [Hpx [HA [HA' Hkk]]]].
  destruct (Hb i0 Hi0) as [k [Hk' Hbk]]. unfold col in Hbk.
  pose proof (dot_self_pos d _ (Hnz i0 Hi0)) as Hpp.
  assert (Hs : bkink_sum d m A' c' (B' k) x0 (row A i0) <> 0).
  { rewrite (Hkk k Hk'). intro E. apply Rmult_integral in E. destruct E; lra. }
  unfold bkink_sum in Hs. apply sumn_nonzero_term in Hs. destruct Hs as [j [Hj Hf]].
  destruct (Req_EM_T (dot d (row A' j) x0 + c' j) 0) as [E|E]; [|contradiction Hf; reflexivity].
  destruct (HA' j Hj E) as [lam [Hl Hc]]. exists (j, lam). simpl.
  split; [exact Hj|]. split; [|split; assumption].
  intro Hl0. apply Hf.
  rewrite (parallel_dot d (row A' j) (row A i0) lam (row A i0) Hl), Hl0.
  rewrite Rmult_0_l, Rabs_R0. ring.
Qed.

(** Every hyperplane [a_i.x + c_i = 0] is matched by a distinct row
    [(a'_{j(i)}, c'_{j(i)}) = lam_i (a_i, c_i)], [lam_i <> 0]. *)
Lemma relu_bias_choice d n m A c B A' c' B' :
  generic_bias_lines d n A c B ->
  (forall k, (k < d)%nat -> forall x0 w,
     bkink_sum d m A' c' (B' k) x0 w = bkink_sum d n A c (B k) x0 w) ->
  exists (jf : nat -> nat) (lf : nat -> R),
    (forall i, (i < n)%nat ->
       (jf i < m)%nat /\ lf i <> 0 /\ aug_multiple d A c i (row A' (jf i)) (c' (jf i)) (lf i)) /\
    (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> jf i1 = jf i2 -> i1 = i2).
Proof.
  intros Hg Hk.
  destruct (finite_choice (0%nat, 0) n (fun i jl => (fst jl < m)%nat /\ snd jl <> 0 /\
              aug_multiple d A c i (row A' (fst jl)) (c' (fst jl)) (snd jl))) as [f Hf].
  { intros i Hi. exact (relu_bias_match d n m A c B A' c' B' i Hg Hi Hk). }
  exists (fun i => fst (f i)), (fun i => snd (f i)). split; [exact Hf|].
  intros i1 i2 H1 H2 E. destruct (Nat.eq_dec i1 i2) as [|Hne]; [assumption|]. exfalso.
  destruct (Hf i1 H1) as [_ [Hl1 [E1 F1]]]. destruct (Hf i2 H2) as [_ [_ [E2 F2]]].
  destruct Hg as [_ [Hind _]].
  apply (aug_multiple_not_independent d A c i1 i2 (row A' (fst (f i1))) (c' (fst (f i1)))
           (snd (f i1)) (snd (f i2)) Hl1 E1 F1); [| | apply Hind; assumption].
  - intros k Hk'. rewrite E. apply E2. exact Hk'.
  - rewrite E. exact F2.
Qed.

(** ** Headline results: widths below [n] *)

Theorem relu_bias_generic_absorbable_width : forall d n m A c B b0,
  generic_bias_lines d n A c B -> absorbable_ungated_bias relu d n m identity A c B b0 ->
  (n <= m)%nat.
Proof.
  intros d n m A c B b0 Hg [A' [c' [B' [b0' H]]]].
  destruct (relu_bias_choice d n m A c B A' c' B' Hg
              (relu_bias_kinks d n m identity A c B b0 A' c' B' b0' H)) as [jf [lf [Hf Hinj]]].
  apply (injective_bound n m jf); [intros i Hi; apply Hf, Hi | exact Hinj].
Qed.

(** Below width [n], whatever the linear part [P]. *)
Theorem relu_bias_skip_not_absorbable_below : forall d n m P A c B b0,
  generic_bias_lines d n A c B -> (m < n)%nat ->
  ~ absorbable_ungated_bias relu d n m P A c B b0.
Proof.
  intros d n m P A c B b0 Hg Hmn [A' [c' [B' [b0' H]]]].
  destruct (relu_bias_choice d n m A c B A' c' B' Hg
              (relu_bias_kinks d n m P A c B b0 A' c' B' b0' H)) as [jf [lf [Hf Hinj]]].
  pose proof (injective_bound n m jf (fun i Hi => proj1 (Hf i Hi)) Hinj). lia.
Qed.

Theorem relu_bias_generic_not_absorbable_below : forall d n m A c B b0,
  generic_bias_lines d n A c B -> (m < n)%nat ->
  ~ absorbable_ungated_bias relu d n m identity A c B b0.
Proof.
  intros d n m A c B b0 Hg Hmn Habs.
  pose proof (relu_bias_generic_absorbable_width d n m A c B b0 Hg Habs). lia.
Qed.

(** ** Width [n]: the submatrix condition *)

(** The row [(a'_{j(i)}, c'_{j(i)}) = lam_i (a_i, c_i)] has the affine value
    [lam_i (a_i.x + c_i)]. *)
Lemma aug_multiple_value d A c i v e lam x :
  aug_multiple d A c i v e lam -> dot d v x + e = lam * (dot d (row A i) x + c i).
Proof.
  intros [Hv He]. rewrite (parallel_dot d v (row A i) lam x Hv), He. ring.
Qed.

(** Along a bijective matching the down-projections match: [b'_{j(i)} |lam_i| = b_i]. *)
Lemma relu_bias_coef d n A c B A' c' B' (jf : nat -> nat) (lf : nat -> R) :
  generic_bias_lines d n A c B ->
  (forall k, (k < d)%nat -> forall x0 w,
     bkink_sum d n A' c' (B' k) x0 w = bkink_sum d n A c (B k) x0 w) ->
  (forall i, (i < n)%nat ->
     (jf i < n)%nat /\ lf i <> 0 /\ aug_multiple d A c i (row A' (jf i)) (c' (jf i)) (lf i)) ->
  (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> jf i1 = jf i2 -> i1 = i2) ->
  forall i k, (i < n)%nat -> (k < d)%nat -> B' k (jf i) * Rabs (lf i) = B k i.
Proof.
  intros Hg Hk Hf Hinj i0 k Hi0 Hk'.
  assert (Hrange : forall i, (i < n)%nat -> (jf i < n)%nat) by (intros i Hi; apply Hf, Hi).
  pose proof (injective_surjective n jf Hrange Hinj) as Hsurj.
  destruct (relu_bias_kink d n n A c B A' c' B' i0 Hg Hi0 Hk) as [x0 [Hpx [HA [_ Hkink]]]].
  pose proof (Hkink k Hk') as E. unfold bkink_sum in E.
  pose proof (dot_self_pos d (row A i0) (proj1 Hg i0 Hi0)) as Hpp.
  destruct (Hf i0 Hi0) as [_ [Hl0 M0]].
  rewrite (sumn_ext n _ (fun j => if Nat.eq_dec (jf i0) j
             then B' k j * (Rabs (lf i0) * dot d (row A i0) (row A i0)) else 0)) in E.
  - rewrite sumn_delta in E by (apply Hrange; exact Hi0).
    apply (Rmult_eq_reg_r (dot d (row A i0) (row A i0))); [|lra]. rewrite <- E. ring.
  - intros j Hj. destruct (Nat.eq_dec (jf i0) j) as [<-|Hne].
    + rewrite (aug_multiple_value d A c i0 _ _ _ x0 M0), Hpx, Rmult_0_r.
      destruct (Req_EM_T 0 0) as [_|C]; [|congruence].
      rewrite (parallel_dot d (row A' (jf i0)) (row A i0) (lf i0) (row A i0) (proj1 M0)).
      rewrite Rabs_mult, (Rabs_right (dot d (row A i0) (row A i0))) by lra. reflexivity.
    + destruct (Hsurj j Hj) as [i [Hi <-]].
      assert (Hii0 : i <> i0) by (intro; subst; contradiction).
      destruct (Hf i Hi) as [_ [Hli Mi]].
      rewrite (aug_multiple_value d A c i _ _ _ x0 Mi).
      destruct (Req_EM_T (lf i * (dot d (row A i) x0 + c i)) 0) as [Z|_]; [|reflexivity].
      exfalso. apply Rmult_integral in Z.
      destruct Z as [Z|Z]; [exact (Hli Z) | exact (HA i Hi Hii0 Z)].
Qed.

(** With the matching and the coefficients, the [|.|] parts are equal. *)
Lemma matched_bridge_eq d n A c A' c' (beta beta' : nat -> R) (jf : nat -> nat) (lf : nat -> R) :
  (forall i, (i < n)%nat ->
     (jf i < n)%nat /\ lf i <> 0 /\ aug_multiple d A c i (row A' (jf i)) (c' (jf i)) (lf i)) ->
  (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> jf i1 = jf i2 -> i1 = i2) ->
  (forall i, (i < n)%nat -> beta' (jf i) * Rabs (lf i) = beta i) ->
  forall x, bridge_sum d n A' c' beta' x = bridge_sum d n A c beta x.
Proof.
  intros Hf Hinj Hcoef x.
  assert (Hrange : forall i, (i < n)%nat -> (jf i < n)%nat) by (intros i Hi; apply Hf, Hi).
  pose proof (injective_surjective n jf Hrange Hinj) as Hsurj.
  unfold bridge_sum. rewrite (sumn_reindex n jf _ Hrange Hinj Hsurj).
  apply sumn_ext. intros i Hi. destruct (Hf i Hi) as [_ [_ Mi]].
  rewrite (aug_multiple_value d A c i _ _ _ x Mi), Rabs_mult, <- (Hcoef i Hi). ring.
Qed.

(** An affine identity [F x = 0] for all [x] gives the linear identity
    obtained by subtracting [F 0]. *)
Lemma sumn_affine_split d N (V : mat) (c : vec) (beta : nat -> R) x :
  sumn N (fun j => beta j * (dot d (row V j) x + c j)) =
  sumn N (fun j => beta j * dot d (row V j) x) + sumn N (fun j => beta j * c j).
Proof. rewrite <- sumn_plus. apply sumn_ext. intros; ring. Qed.

Lemma bias_gap_linear d n m P A c B b0 A' c' B' b0' k :
  (forall x, bias_affine_gap d n m P A c B b0 A' c' B' b0' k x = 0) ->
  forall x, sumn m (fun j => B' k j * dot d (row A' j) x) =
            2 * mv d P x k + sumn n (fun i => B k i * dot d (row A i) x).
Proof.
  intros H x. pose proof (H x) as E1. pose proof (H (fun _ => 0)) as E0.
  unfold bias_affine_gap in E1, E0. rewrite !sumn_affine_split in E1, E0.
  rewrite (sumn_zero n (fun i => B k i * dot d (row A i) (fun _ => 0))) in E0
    by (intros; rewrite dot_zero_r; ring).
  rewrite (sumn_zero m (fun j => B' k j * dot d (row A' j) (fun _ => 0))) in E0
    by (intros; rewrite dot_zero_r; ring).
  assert (Hm0 : mv d P (fun _ => 0) k = 0) by (unfold mv; apply dot_zero_r).
  rewrite Hm0 in E0. lra.
Qed.

(** Any linear part [P]: [B[:,S] A[S,:] = -P] ([PostNormGeneric.matched_skip_submatrix]). *)
Theorem relu_bias_skip_generic_submatrix : forall d n P A c B b0,
  generic_bias_lines d n A c B -> absorbable_ungated_bias relu d n n P A c B b0 ->
  exists S, PostNormGeneric.skip_submatrix_cond d n S A B P.
Proof.
  intros d n P A c B b0 Hg [A' [c' [B' [b0' H]]]].
  pose proof (relu_bias_kinks d n n P A c B b0 A' c' B' b0' H) as Hk.
  destruct (relu_bias_choice d n n A c B A' c' B' Hg Hk) as [jf [lf [Hf Hinj]]].
  pose proof (relu_bias_coef d n A c B A' c' B' jf lf Hg Hk Hf Hinj) as Hcoef.
  assert (Hf' : forall i, (i < n)%nat -> (jf i < n)%nat /\ lf i <> 0 /\
                  forall k, (k < d)%nat -> A' (jf i) k = lf i * A i k).
  { intros i Hi. destruct (Hf i Hi) as [Hr [Hl [Ma _]]]. split; [exact Hr|].
    split; [exact Hl|]. exact Ma. }
  apply (PostNormGeneric.matched_skip_submatrix d n P A B A' B' jf lf Hf' Hinj Hcoef).
  intros k Hk'. apply (bias_gap_linear d n n P A c B b0 A' c' B' b0' k).
  intros x. pose proof (relu_bias_even_part d n n P A c B b0 A' c' B' b0' H k Hk' x) as E.
  rewrite (matched_bridge_eq d n A c A' c' (B k) (B' k) jf lf Hf Hinj
             (fun i Hi => Hcoef i k Hi Hk') x) in E.
  lra.
Qed.

Theorem relu_bias_absorbable_generic_submatrix : forall d n A c B b0,
  generic_bias_lines d n A c B -> absorbable_ungated_bias relu d n n identity A c B b0 ->
  exists S, submatrix_cond d n S A B.
Proof. intros d n. exact (relu_bias_skip_generic_submatrix d n identity). Qed.

Theorem relu_bias_absorbable_iff_submatrix : forall d n A c B b0,
  generic_bias_lines d n A c B ->
  (absorbable_ungated_bias relu d n n identity A c B b0 <-> exists S, submatrix_cond d n S A B).
Proof.
  intros d n A c B b0 Hg. split.
  - exact (relu_bias_absorbable_generic_submatrix d n A c B b0 Hg).
  - intros [S Hs]. exact (odd_part_absorbable_bias relu d n S A c B b0 relu_odd_part Hs).
Qed.

(** ** Non-vacuity *)

(** [d = n = 1], [A = 1], [c = 1]: one hyperplane [x = -1]. *)
Definition rb_ex_A : mat := fun _ _ => 1.
Definition rb_ex_c : vec := fun _ => 1.

Example relu_bias_generic_instance (beta : R) : beta <> 0 ->
  generic_bias_lines 1 1 rb_ex_A rb_ex_c (fun _ _ => beta).
Proof.
  intros Hb. split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row, rb_ex_A; lra].
  - intros i j Hi Hj Hne. lia.
  - intros i _. exists 0%nat. split; [lia | unfold col; exact Hb].
Qed.

(** With [B = -1]: [B A = -1 = -I], so [x - relu(x + 1) + 3] is absorbable
    (indeed it is [-relu(-x - 1) + 2]). *)
Example relu_bias_absorbable_instance :
  absorbable_ungated_bias relu 1 1 1 identity rb_ex_A rb_ex_c (fun _ _ => -1) (fun _ => 3).
Proof.
  apply (relu_bias_absorbable_iff_submatrix 1 1 rb_ex_A rb_ex_c (fun _ _ => -1) (fun _ => 3)
           (relu_bias_generic_instance (-1) ltac:(lra))).
  exists (fun _ => true). intros k l Hk Hl.
  assert (k = 0%nat) by lia. assert (l = 0%nat) by lia. subst.
  unfold subset_sum, identity, rb_ex_A. simpl. ring.
Qed.

(** With [B = 1]: no subset of [{0}] gives [B[:,S] A[S,:] = -1], so
    [x + relu(x + 1)] is not absorbable at width 1, whatever the biases. *)
Example relu_bias_not_absorbable_instance :
  ~ absorbable_ungated_bias relu 1 1 1 identity rb_ex_A rb_ex_c (fun _ _ => 1) (fun _ => 0).
Proof.
  rewrite (relu_bias_absorbable_iff_submatrix 1 1 rb_ex_A rb_ex_c (fun _ _ => 1) (fun _ => 0)
             (relu_bias_generic_instance 1 ltac:(lra))).
  intros [S HS]. specialize (HS 0%nat 0%nat ltac:(lia) ltac:(lia)).
  unfold subset_sum, identity, rb_ex_A in HS. simpl in HS.
  destruct (S 0%nat); lra.
Qed.

(** [d = 1], [n = 2]: kinks at [x = 0] and [x = -1].  The augmented rows
    [(1, 0)], [(1, 1)] are independent, so this block is not absorbable at
    width 1 (bias-free [d = 1] blocks always are at width 2, R8). *)
Definition rb_ex2_c : vec := fun j => if Nat.eq_dec j 0 then 0 else 1.

Example relu_bias_generic_instance2 : generic_bias_lines 1 2 rb_ex_A rb_ex2_c (fun _ _ => 1).
Proof.
  split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row, rb_ex_A; lra].
  - intros i j Hi Hj Hne al be Hab.
    pose proof (Hab 0%nat ltac:(lia)) as E0. pose proof (Hab 1%nat ltac:(lia)) as E1.
    unfold aug_row, rb_ex_A, rb_ex2_c in E0, E1. simpl in E0, E1.
    destruct i as [|[|i]], j as [|[|j]]; try lia; simpl in E0, E1; split; lra.
  - intros i _. exists 0%nat. split; [lia | unfold col; lra].
Qed.

Example relu_bias_below_instance :
  ~ absorbable_ungated_bias relu 1 2 1 identity rb_ex_A rb_ex2_c (fun _ _ => 1) (fun _ => 0).
Proof.
  exact (relu_bias_generic_not_absorbable_below 1 2 1 rb_ex_A rb_ex2_c _ _
           relu_bias_generic_instance2 ltac:(lia)).
Qed.
