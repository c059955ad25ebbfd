(** * R5 (=>): absorbing the skip forces the submatrix condition

    Let [(A, B)] be generic (rows [a_i <> 0], pairwise linearly independent,
    columns [b_i <> 0]) and suppose a [sigma]-block of width [m] equals
    [x + B sigma(A x)] everywhere.  Odd and even parts split the equation:
    - [ungated_odd_part_eq]: [sum_j b'_j (a'_j.x) = 2x + sum_i b_i (a_i.x)];
    - the even parts agree; a ridge-uniqueness argument turns this into a
      matching of rows ([ridge_matching]: [a'_{j(i)} = c_i a_i], [j]
      injective, [b'_{j(i)} |c_i| = b_i] at [m = n]).
    Once for every [sigma] with a matching ([Section FromMatching]):
    [matching_absorbable_width] ([n <= m]), [matching_not_absorbable_below],
    and [matching_absorbable_generic_submatrix]: at [m = n],
    [S = {i | c_i < 0}] satisfies [B[:,S] A[S,:] = -I]
    ([matched_absorb_submatrix] is this last step).
    The matchings: [relu_ridge_matching] (ReLU, by the kinks of [Ridge.v]:
    [relu_absorb_choice], [relu_matched_coef]) and [even_ridge_matching]
    (every [sigma = z/2 + e], [e] even, [sigma 0 = 0], with
    [ridge_unique_even e]: GELU, GELU_tanh, SiLU in [ridge/]).
    For ReLU: [relu_absorbable_generic_submatrix],
    [relu_generic_not_absorbable_below], [relu_generic_absorbable_width].
    The complete R5 package (iff, below width, null sets) is
    [results/R5Package.v]. *)

From Coq Require Import Reals Lra Lia Arith List.
From Absorb Require Import Sums Blocks ActivationDefs Geometry FiniteMaps Ridge.
Open Scope R_scope.

(** ** Odd and even parts of ReLU *)

Lemma relu_add_opp z : relu z + relu (- z) = Rabs z.
Proof. unfold relu, Rmax, Rabs. repeat destruct Rle_dec; repeat destruct Rcase_abs; lra. Qed.

Lemma relu_sub_opp z : relu z - relu (- z) = z.
Proof. unfold relu, Rmax. repeat destruct Rle_dec; lra. Qed.

(** The even part does not see the linear part [P] of the residual block; with [P = I]
    it is [relu_even_part]. The odd part gives [2 P + B A = B' A'] ([ungated_odd_part_skip]). *)
Lemma mv_opp d P x k : mv d P (fun t => - x t) k = - mv d P x k.
Proof. unfold mv. apply dot_opp_r. Qed.

Lemma relu_even_part_skip d n m P A B A' B' :
  same_fun d (ungated relu d m A' B') (residual d P (ungated relu d n A B)) ->
  forall k, (k < d)%nat -> forall x, ridge_sum d m A' (B' k) x = ridge_sum d n A (B k) x.
Proof.
  intros H k Hk x.
  assert (Ev : forall N V (beta : nat -> R),
    ridge_sum d N V beta x = sumn N (fun j => beta j * relu (dot d (row V j) x))
      + sumn N (fun j => beta j * relu (dot d (row V j) (fun t => - x t)))).
  { intros N V beta. unfold ridge_sum. rewrite <- sumn_plus. apply sumn_ext. intros j _.
    rewrite dot_opp_r, <- Rmult_plus_distr_l, relu_add_opp. reflexivity. }
  rewrite !Ev.
  pose proof (H x k Hk) as E1. pose proof (H (fun t => - x t) k Hk) as E2.
  unfold ungated, residual in E1, E2. rewrite mv_opp in E2.
  cbv beta in E2. rewrite E1, E2. ring.
Qed.

Lemma ungated_odd_part_skip sigma d n m P A B A' B' : odd_part_identity sigma ->
  same_fun d (ungated sigma d m A' B') (residual d P (ungated sigma d n A B)) ->
  forall k, (k < d)%nat -> forall x,
    sumn m (fun j => B' k j * dot d (row A' j) x) =
    2 * mv d P x k + sumn n (fun i => B k i * dot d (row A i) x).
Proof.
  intros Hodd H k Hk x.
  assert (Od : forall N V (beta : nat -> R),
    sumn N (fun j => beta j * dot d (row V j) x) =
      sumn N (fun j => beta j * sigma (dot d (row V j) x))
      - sumn N (fun j => beta j * sigma (dot d (row V j) (fun t => - x t)))).
  { intros N V beta. rewrite <- sumn_minus. apply sumn_ext. intros j _.
    rewrite dot_opp_r, <- Rmult_minus_distr_l, Hodd. reflexivity. }
  rewrite (Od m A' (B' k)), (Od n A (B k)).
  pose proof (H x k Hk) as E1. pose proof (H (fun t => - x t) k Hk) as E2.
  unfold ungated, residual in E1, E2. rewrite mv_opp in E2.
  cbv beta in E2. rewrite E1, E2. ring.
Qed.

Lemma relu_even_part d n m A B A' B' :
  same_fun d (ungated relu d m A' B') (residual d identity (ungated relu d n A B)) ->
  forall k, (k < d)%nat -> forall x, ridge_sum d m A' (B' k) x = ridge_sum d n A (B k) x.
Proof. exact (relu_even_part_skip d n m identity A B A' B'). Qed.

(** The odd part, for every [sigma] with [sigma(z) - sigma(-z) = z]. *)
Lemma ungated_odd_part_eq sigma d n m A B A' B' : odd_part_identity sigma ->
  same_fun d (ungated sigma d m A' B') (residual d identity (ungated sigma d n A B)) ->
  forall k, (k < d)%nat -> forall x,
    sumn m (fun j => B' k j * dot d (row A' j) x) =
    2 * x k + sumn n (fun i => B k i * dot d (row A i) x).
Proof.
  intros Hodd H k Hk x.
  rewrite (ungated_odd_part_skip sigma d n m identity A B A' B' Hodd H k Hk x).
  rewrite (mv_identity d x k Hk). reflexivity.
Qed.

Lemma relu_odd_part_eq d n m A B A' B' :
  same_fun d (ungated relu d m A' B') (residual d identity (ungated relu d n A B)) ->
  forall k, (k < d)%nat -> forall x,
    sumn m (fun j => B' k j * dot d (row A' j) x) =
    2 * x k + sumn n (fun i => B k i * dot d (row A i) x).
Proof. apply ungated_odd_part_eq. exact relu_sub_opp. Qed.

(** ** Small helpers *)

Lemma parallel_dot d (v p : vec) c u :
  (forall k, (k < d)%nat -> v k = c * p k) -> dot d v u = c * dot d p u.
Proof.
  intros H. unfold dot. rewrite <- sumn_scal_l. apply sumn_ext. intros k Hk.
  rewrite (H k Hk). ring.
Qed.

Lemma dot_unit d (u : vec) l : (l < d)%nat -> dot d u (fun t => identity l t) = u l.
Proof.
  intros Hl. unfold dot, identity.
  rewrite (sumn_ext d _ (fun t => if Nat.eq_dec l t then u t else 0)).
  - apply sumn_delta. exact Hl.
  - intros t _. destruct (Nat.eq_dec l t); ring.
Qed.

Lemma identity_sym k l : identity k l = identity l k.
Proof. unfold identity. destruct (Nat.eq_dec k l), (Nat.eq_dec l k); congruence. Qed.

(** ** Matching the directions *)

(** Along a hyperplane [a_i0^perp] chosen to avoid every other direction,
    the kinks of both sides of the even part must agree. *)
Lemma relu_absorb_kink d n m A B A' B' i0 :
  generic d n A B -> (i0 < n)%nat ->
  (forall k, (k < d)%nat -> forall x, ridge_sum d m A' (B' k) x = ridge_sum d n A (B k) x) ->
  exists x0, dot d (row A i0) x0 = 0 /\
    (forall i, (i < n)%nat -> i <> i0 -> dot d (row A i) x0 <> 0) /\
    (forall j, (j < m)%nat -> dot d (row A' j) x0 = 0 -> parallel_to d (row A' j) (row A i0)) /\
    (forall k, (k < d)%nat ->
       kink_sum d m A' (B' k) x0 (row A i0) = B k i0 * dot d (row A i0) (row A i0)).
Proof.
  intros [Hnz [Hind Hb]] Hi0 Hev.
  pose (v := fun j => if lt_dec j m then row A' j else row A (j - m)%nat).
  destruct (ridge_avoid d (row A i0) v (m + n) (Hnz i0 Hi0)) as [x0 [Hpx Hx]].
  assert (HA : forall i, (i < n)%nat -> i <> i0 -> dot d (row A i) x0 <> 0).
  { intros i Hi Hne. pose proof (Hx (m + i)%nat ltac:(lia)) as H. unfold v in H.
    destruct (lt_dec (m + i) m) as [|_]; [lia|].
    replace (m + i - m)%nat with i in H by lia.
    destruct H as [H|H]; [exact H|].
    exfalso. exact (parallel_not_independent d _ _ H (Hind i0 i Hi0 Hi ltac:(lia))). }
  exists x0. split; [exact Hpx|]. split; [exact HA|]. split.
  - intros j Hj H0. pose proof (Hx j ltac:(lia)) as H. unfold v in H.
    destruct (lt_dec j m) as [_|]; [|lia].
    destruct H as [H|H]; [contradiction | exact H].
  - intros k Hk. rewrite (ridge_kink_eq d m A' (B' k) n A (B k) (Hev k Hk) x0 (row A i0)).
    unfold kink_sum.
    rewrite (sumn_ext n _ (fun i => if Nat.eq_dec i0 i
                                   then B k i * dot d (row A i0) (row A i0) else 0)).
    + apply sumn_delta. exact Hi0.
    + intros i Hi. destruct (Nat.eq_dec i0 i) as [<-|Hne].
      * destruct (Req_EM_T (dot d (row A i0) x0) 0) as [_|E]; [|contradiction].
        rewrite Rabs_right; [reflexivity|].
        apply Rle_ge, Rlt_le, dot_self_pos, Hnz, Hi0.
      * destruct (Req_EM_T (dot d (row A i) x0) 0) as [E|_]; [|reflexivity].
        exfalso. exact (HA i Hi ltac:(lia) E).
Qed.

Lemma relu_absorb_match d n m A B A' B' i0 :
  generic d n A B -> (i0 < n)%nat ->
  (forall k, (k < d)%nat -> forall x, ridge_sum d m A' (B' k) x = ridge_sum d n A (B k) x) ->
  exists jc : nat * R, (fst jc < m)%nat /\ snd jc <> 0 /\
    forall k, (k < d)%nat -> A' (fst jc) k = snd jc * A i0 k.
Proof.
  intros Hg Hi0 Hev. pose proof Hg as [Hnz [Hind Hb]].
  destruct (relu_absorb_kink d n m A B A' B' i0 Hg Hi0 Hev) as [x0 [Hpx [HA [HA' Hk]]]].
  destruct (Hb i0 Hi0) as [k [Hk' Hbk]]. unfold col in Hbk.
  pose proof (dot_self_pos d _ (Hnz i0 Hi0)) as Hpp.
  assert (Hs : kink_sum d m A' (B' k) x0 (row A i0) <> 0).
  { rewrite (Hk k Hk'). intro E. apply Rmult_integral in E. destruct E; lra. }
  unfold kink_sum in Hs. apply sumn_nonzero_term in Hs. destruct Hs as [j [Hj Hf]].
  destruct (Req_EM_T (dot d (row A' j) x0) 0) as [E|E]; [|contradiction Hf; reflexivity].
  destruct (HA' j Hj E) as [c Hc]. exists (j, c). simpl. split; [exact Hj|]. split.
  - intro Hc0. apply Hf.
    rewrite (parallel_dot d (row A' j) (row A i0) c (row A i0) Hc), Hc0.
    rewrite Rmult_0_l, Rabs_R0. ring.
  - intros l Hl. exact (Hc l Hl).
Qed.

Lemma parallel_rows_same d n (A : mat) i1 i2 (u : vec) c1 c2 :
  (forall i j, (i < n)%nat -> (j < n)%nat -> i <> j -> lin_independent2 d (row A i) (row A j)) ->
  (i1 < n)%nat -> (i2 < n)%nat -> c1 <> 0 ->
  (forall k, (k < d)%nat -> u k = c1 * A i1 k) ->
  (forall k, (k < d)%nat -> u k = c2 * A i2 k) -> i1 = i2.
Proof.
  intros Hind H1 H2 Hc1 E1 E2. destruct (Nat.eq_dec i1 i2) as [|Hne]; [assumption|].
  exfalso. destruct (Hind i1 i2 H1 H2 Hne c1 (- c2)) as [Hc _]; [|contradiction].
  intros k Hk. unfold row.
  replace (- c2 * A i2 k) with (- (c2 * A i2 k)) by ring.
  rewrite <- (E1 k Hk), <- (E2 k Hk). ring.
Qed.

(** Every [a_i] is matched by a distinct [a'_{j(i)} = c_i a_i], [c_i <> 0]. *)
Lemma relu_absorb_choice d n m A B A' B' :
  generic d n A B ->
  (forall k, (k < d)%nat -> forall x, ridge_sum d m A' (B' k) x = ridge_sum d n A (B k) x) ->
  exists (jf : nat -> nat) (cf : nat -> R),
    (forall i, (i < n)%nat ->
       (jf i < m)%nat /\ cf i <> 0 /\ forall k, (k < d)%nat -> A' (jf i) k = cf i * A i k) /\
    (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> jf i1 = jf i2 -> i1 = i2).
Proof.
  intros Hg Hev.
  destruct (finite_choice (0%nat, 0) n (fun i jc => (fst jc < m)%nat /\ snd jc <> 0 /\
              forall k, (k < d)%nat -> A' (fst jc) k = snd jc * A i k)) as [f Hf].
  { intros i Hi. exact (relu_absorb_match d n m A B A' B' i Hg Hi Hev). }
  exists (fun i => fst (f i)), (fun i => snd (f i)). split; [exact Hf|].
  intros i1 i2 H1 H2 E. destruct (Hf i1 H1) as [_ [Hc1 E1]]. destruct (Hf i2 H2) as [_ [_ E2]].
  destruct Hg as [_ [Hind _]].
  apply (parallel_rows_same d n A i1 i2 (row A' (fst (f i1))) (snd (f i1)) (snd (f i2))
           Hind H1 H2 Hc1).
  - exact E1.
  - intros k Hk. unfold row. rewrite E. apply E2. exact Hk.
Qed.

(** The last step, shared by ReLU and GELU: once [a'_{j(i)} = c_i a_i] along a
    bijection [j] with [b'_{j(i)} |c_i| = b_i], the odd part gives
    [B[:,S] A[S,:] = -I] for [S = {i | c_i < 0}]. *)
Lemma matched_absorb_submatrix d n A B A' B' (jf : nat -> nat) (cf : nat -> R) :
  (forall i, (i < n)%nat ->
     (jf i < n)%nat /\ cf i <> 0 /\ forall k, (k < d)%nat -> A' (jf i) k = cf i * A i k) ->
  (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> jf i1 = jf i2 -> i1 = i2) ->
  (forall i k, (i < n)%nat -> (k < d)%nat -> B' k (jf i) * Rabs (cf i) = B k i) ->
  (forall k, (k < d)%nat -> forall x,
     sumn n (fun j => B' k j * dot d (row A' j) x) =
     2 * x k + sumn n (fun i => B k i * dot d (row A i) x)) ->
  exists S, submatrix_cond d n S A B.
Proof.
  intros Hf Hinj Hcoef Hodd.
  assert (Hrange : forall i, (i < n)%nat -> (jf i < n)%nat) by (intros i Hi; apply Hf, Hi).
  pose proof (injective_surjective n jf Hrange Hinj) as Hsurj.
  exists (fun i => if Rlt_dec (cf i) 0 then true else false).
  intros k l Hk Hl. unfold subset_sum.
  pose proof (Hodd k Hk (fun t => identity l t)) as E. cbv beta in E.
  assert (Hsum : sumn n (fun j => B' k j * dot d (row A' j) (fun t => identity l t)) =
    sumn n (fun i => (if (if Rlt_dec (cf i) 0 then true else false) then - B k i else B k i)
                     * A i l)).
  { rewrite (sumn_reindex n jf _ Hrange Hinj Hsurj). apply sumn_ext. intros i Hi.
    destruct (Hf i Hi) as [_ [Hci Ei]].
    rewrite (parallel_dot d (row A' (jf i)) (row A i) (cf i) _ Ei), dot_unit by exact Hl.
    pose proof (Hcoef i k Hi Hk) as C. unfold row.
    destruct (Rlt_dec (cf i) 0) as [N|N]; simpl.
    - rewrite Rabs_left in C by exact N. rewrite <- C. ring.
    - rewrite Rabs_right in C by (apply Rnot_lt_ge; exact N). rewrite <- C. ring. }
  rewrite Hsum in E.
  rewrite (sumn_ext n (fun i => B k i * dot d (row A i) (fun t => identity l t))
             (fun i => B k i * A i l)) in E
    by (intros i _; rewrite dot_unit by exact Hl; reflexivity).
  assert (Hdiff : sumn n (fun i =>
      (if (if Rlt_dec (cf i) 0 then true else false) then - B k i else B k i) * A i l)
      - sumn n (fun i => B k i * A i l) =
      -2 * sumn n (fun i => if (if Rlt_dec (cf i) 0 then true else false)
                            then B k i * A i l else 0)).
  { rewrite <- sumn_minus, <- sumn_scal_l. apply sumn_ext. intros i _.
    destruct (if Rlt_dec (cf i) 0 then true else false); ring. }
  rewrite identity_sym. lra.
Qed.

(** ** Ridge matching: what a ridge-uniqueness argument delivers

    [ridge_matching sigma]: whenever a residual-free [sigma]-block of width
    [m] equals the residual block [x + B sigma(A x)] of a generic [(A, B)],
    every row [a_i] is matched by its own row [a'_{j(i)} = c_i a_i],
    [c_i <> 0] ([j] injective), and at equal widths [b'_{j(i)} |c_i| = b_i].
    ReLU has it by the kinks of [Ridge.v] ([relu_ridge_matching]); every
    [sigma] with [sigma(z) - sigma(-z) = z], [sigma 0 = 0] and ridge
    uniqueness of its even part has it ([even_ridge_matching]).  From it,
    R5 (=>) and the width bound follow once, for every [sigma]
    ([matching_absorbable_generic_submatrix], [matching_absorbable_width]). *)

Definition ridge_matching (sigma : R -> R) : Prop :=
  forall d n m A B A' B', generic d n A B ->
  same_fun d (ungated sigma d m A' B') (residual d identity (ungated sigma d n A B)) ->
  exists (jf : nat -> nat) (cf : nat -> R),
    (forall i, (i < n)%nat ->
       (jf i < m)%nat /\ cf i <> 0 /\ forall k, (k < d)%nat -> A' (jf i) k = cf i * A i k) /\
    (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> jf i1 = jf i2 -> i1 = i2) /\
    (m = n -> forall i k, (i < n)%nat -> (k < d)%nat -> B' k (jf i) * Rabs (cf i) = B k i).

Section FromMatching.
  Context (sigma : R -> R) (Hodd : odd_part_identity sigma) (Hmatch : ridge_matching sigma).

  Theorem matching_absorbable_width : forall d n m A B,
    generic d n A B -> absorbable_ungated sigma d n m identity A B -> (n <= m)%nat.
  Proof.
    intros d n m A B Hg [A' [B' H]].
    destruct (Hmatch d n m A B A' B' Hg H) as [jf [cf [Hf [Hinj _]]]].
    apply (injective_bound n m jf); [intros i Hi; apply Hf, Hi | exact Hinj].
  Qed.

  Theorem matching_not_absorbable_below : forall d n m A B,
    generic d n A B -> (m < n)%nat -> ~ absorbable_ungated sigma d n m identity A B.
  Proof.
    intros d n m A B Hg Hmn Habs.
    pose proof (matching_absorbable_width d n m A B Hg Habs). lia.
  Qed.

  Theorem matching_absorbable_generic_submatrix : forall d n A B,
    generic d n A B -> absorbable_ungated sigma d n n identity A B ->
    exists S, submatrix_cond d n S A B.
  Proof.
    intros d n A B Hg [A' [B' H]].
    destruct (Hmatch d n n A B A' B' Hg H) as [jf [cf [Hf [Hinj Hcoef]]]].
    exact (matched_absorb_submatrix d n A B A' B' jf cf Hf Hinj (Hcoef eq_refl)
             (ungated_odd_part_eq sigma d n n A B A' B' Hodd H)).
  Qed.
End FromMatching.

(** ** ReLU *)

(** At equal widths the matching is onto, so the kink of [a_i^perp] sees
    the single row [a'_{j(i)}]: [b'_{j(i)} |c_i| = b_i]. *)
Lemma relu_matched_coef d n A B A' B' (jf : nat -> nat) (cf : nat -> R) :
  generic d n A B ->
  (forall k, (k < d)%nat -> forall x, ridge_sum d n A' (B' k) x = ridge_sum d n A (B k) x) ->
  (forall i, (i < n)%nat ->
     (jf i < n)%nat /\ cf i <> 0 /\ forall k, (k < d)%nat -> A' (jf i) k = cf i * A i k) ->
  (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> jf i1 = jf i2 -> i1 = i2) ->
  forall i0 k, (i0 < n)%nat -> (k < d)%nat -> B' k (jf i0) * Rabs (cf i0) = B k i0.
Proof.
  intros Hg Hev Hf Hinj i0 k Hi0 Hk.
  assert (Hrange : forall i, (i < n)%nat -> (jf i < n)%nat) by (intros i Hi; apply Hf, Hi).
  pose proof (injective_surjective n jf Hrange Hinj) as Hsurj.
  destruct (relu_absorb_kink d n n A B A' B' i0 Hg Hi0 Hev) as [x0 [Hpx [HA [_ Hkink]]]].
  pose proof (Hkink k Hk) as E. unfold kink_sum in E.
  pose proof (dot_self_pos d (row A i0) (proj1 Hg i0 Hi0)) as Hpp.
  destruct (Hf i0 Hi0) as [_ [Hc0 E0]].
  rewrite (sumn_ext n _ (fun j => if Nat.eq_dec (jf i0) j
             then B' k j * (Rabs (cf i0) * dot d (row A i0) (row A i0)) else 0)) in E.
  - rewrite sumn_delta in E by (apply Hrange; exact Hi0).
    apply (Rmult_eq_reg_r (dot d (row A i0) (row A i0))); [|lra]. rewrite <- E. ring.
  - intros j Hj. destruct (Nat.eq_dec (jf i0) j) as [<-|Hne].
    + rewrite (parallel_dot d (row A' (jf i0)) (row A i0) (cf i0) x0 E0), Hpx, Rmult_0_r.
      destruct (Req_EM_T 0 0) as [_|C]; [|congruence].
      rewrite (parallel_dot d (row A' (jf i0)) (row A i0) (cf i0) (row A i0) E0).
      rewrite Rabs_mult, (Rabs_right (dot d (row A i0) (row A i0))) by lra. reflexivity.
    + destruct (Hsurj j Hj) as [i [Hi <-]].
      assert (Hii0 : i <> i0) by (intro; subst; contradiction).
      destruct (Hf i Hi) as [_ [Hci Ei]].
      rewrite (parallel_dot d (row A' (jf i)) (row A i) (cf i) x0 Ei).
      destruct (Req_EM_T (cf i * dot d (row A i) x0) 0) as [Z|_]; [|reflexivity].
      exfalso. apply Rmult_integral in Z.
      destruct Z as [Z|Z]; [exact (Hci Z) | exact (HA i Hi Hii0 Z)].
Qed.

(** ReLU's ridge lemma, in the form R5 uses. *)
Theorem relu_ridge_matching : ridge_matching relu.
Proof.
  intros d n m A B A' B' Hg H.
  pose proof (relu_even_part d n m A B A' B' H) as Hev.
  destruct (relu_absorb_choice d n m A B A' B' Hg Hev) as [jf [cf [Hf Hinj]]].
  exists jf, cf. split; [exact Hf|]. split; [exact Hinj|].
  intros E. subst m. exact (relu_matched_coef d n A B A' B' jf cf Hg Hev Hf Hinj).
Qed.

Theorem relu_generic_absorbable_width : forall d n m A B,
  generic d n A B -> absorbable_ungated relu d n m identity A B -> (n <= m)%nat.
Proof. exact (matching_absorbable_width relu relu_ridge_matching). Qed.

Theorem relu_generic_not_absorbable_below : forall d n m A B,
  generic d n A B -> (m < n)%nat -> ~ absorbable_ungated relu d n m identity A B.
Proof. exact (matching_not_absorbable_below relu relu_ridge_matching). Qed.

Theorem relu_absorbable_generic_submatrix : forall d n A B,
  generic d n A B -> absorbable_ungated relu d n n identity A B ->
  exists S, submatrix_cond d n S A B.
Proof. exact (matching_absorbable_generic_submatrix relu relu_sub_opp relu_ridge_matching). Qed.

(** ** Non-vacuity *)

(** [d = n = 1], [A = 1], [B = -1] is generic and absorbable
    ([-relu(-x) = x - relu(x)]), so both headline theorems apply. *)
Example relu_generic_instance : generic 1 1 (fun _ _ => 1) (fun _ _ => -1).
Proof.
  split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row; lra].
  - intros i j Hi Hj Hne. lia.
  - intros i _. exists 0%nat. split; [lia | unfold col; lra].
Qed.

Example relu_absorbable_instance :
  absorbable_ungated relu 1 1 1 identity (fun _ _ => 1) (fun _ _ => -1).
Proof.
  exists (fun _ _ => -1), (fun _ _ => -1). intros x i Hi.
  assert (i = 0%nat) by lia. subst i.
  unfold ungated, residual, mv, dot, row, identity. simpl.
  pose proof (relu_sub_opp (x 0%nat)) as E.
  replace (0 + -1 * x 0%nat) with (- x 0%nat) by ring.
  replace (0 + 1 * x 0%nat) with (x 0%nat) by ring. lra.
Qed.

(** ** Activations [sigma = z/2 + e] with [e] even: GELU, GELU_tanh, SiLU

    For every [sigma] with [sigma(z) - sigma(-z) = z] and [sigma(0) = 0]
    whose even part [e = sigma - id/2] has the ridge uniqueness property
    [ridge_unique_even e] of [Ridge.v] (proved for GELU, SiLU, GELU_tanh in
    [ridge/]), [ridge_matching sigma] holds.  Since [e] need not be
    homogeneous, the matched directions are now [a'_{j(i)} = +- a_i]. *)

Definition even_part (sigma : R -> R) (z : R) : R := sigma z - z / 2.

Lemma even_part_even sigma : odd_part_identity sigma ->
  forall z, even_part sigma (- z) = even_part sigma z.
Proof. intros Hodd z. unfold even_part. pose proof (Hodd z). lra. Qed.

Lemma even_part_abs sigma : odd_part_identity sigma ->
  forall c t, even_part sigma (c * t) = even_part sigma (Rabs c * t).
Proof.
  intros Hodd c t. unfold Rabs. destruct (Rcase_abs c); [|reflexivity].
  rewrite <- (even_part_even sigma Hodd (c * t)). f_equal. ring.
Qed.

Lemma ungated_even_part_eq sigma d n m A B A' B' : odd_part_identity sigma ->
  same_fun d (ungated sigma d m A' B') (residual d identity (ungated sigma d n A B)) ->
  forall k, (k < d)%nat -> forall x,
    sumn m (fun j => B' k j * even_part sigma (dot d (row A' j) x)) =
    sumn n (fun i => B k i * even_part sigma (dot d (row A i) x)).
Proof.
  intros Hodd H k Hk x.
  assert (Ev : forall N V (beta : nat -> R),
    2 * sumn N (fun j => beta j * even_part sigma (dot d (row V j) x)) =
      sumn N (fun j => beta j * sigma (dot d (row V j) x))
      + sumn N (fun j => beta j * sigma (dot d (row V j) (fun t => - x t)))).
  { intros N V beta. rewrite <- sumn_scal_l, <- sumn_plus. apply sumn_ext. intros j _.
    rewrite dot_opp_r. unfold even_part. pose proof (Hodd (dot d (row V j) x)) as E.
    replace (sigma (- dot d (row V j) x)) with (sigma (dot d (row V j) x) - dot d (row V j) x)
      by lra. field. }
  apply (Rmult_eq_reg_l 2); [|lra]. rewrite !Ev.
  pose proof (H x k Hk) as E1. pose proof (H (fun t => - x t) k Hk) as E2.
  unfold ungated, residual in E1, E2.
  rewrite (mv_identity d x k Hk) in E1. rewrite (mv_identity d _ k Hk) in E2.
  cbv beta in E2. rewrite E1, E2. ring.
Qed.

(** Grouping both sides of the even part by direction up to sign: the
    [a'_j = +- a_i0] carry total weight [b_i0]. *)
Lemma even_absorb_group sigma d n m A B A' B' :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  generic d n A B ->
  same_fun d (ungated sigma d m A' B') (residual d identity (ungated sigma d n A B)) ->
  forall i0 k, (i0 < n)%nat -> (k < d)%nat ->
    sumn m (fun j => B' k j * sim_ind d (row A' j) (row A i0)) = B k i0.
Proof.
  intros Hodd H0 Hu Hg H i0 k Hi0 Hk. pose proof Hg as [Hnz [Hind Hb]].
  pose (Vc := (fun j => if lt_dec j m then A' j else A (j - m)%nat) : mat).
  pose (bc := fun j => if lt_dec j m then B' k j else - B k (j - m)%nat).
  assert (Hsplit : forall h : vec -> R,
    sumn (m + n) (fun j => bc j * h (row Vc j)) =
    sumn m (fun j => B' k j * h (row A' j)) - sumn n (fun i => B k i * h (row A i))).
  { intros h. rewrite sumn_add. unfold Rminus. rewrite <- sumn_opp. f_equal.
    - apply sumn_ext. intros j Hj. unfold bc, Vc, row. destruct (lt_dec j m); [reflexivity | lia].
    - apply sumn_ext. intros i Hi. unfold bc, Vc, row. destruct (lt_dec (m + i) m); [lia|].
      replace (m + i - m)%nat with i by lia. ring. }
  assert (Hs : forall x, sumn (m + n) (fun j => bc j * even_part sigma (dot d (row Vc j) x)) = 0).
  { intros x. refine (eq_trans (Hsplit (fun v => even_part sigma (dot d v x))) _). cbv beta.
    rewrite (ungated_even_part_eq sigma d n m A B A' B' Hodd H k Hk x). ring. }
  assert (He0 : even_part sigma 0 = 0) by (unfold even_part; rewrite H0; field).
  pose proof (ridge_even_grouped (even_part sigma) (even_part_even sigma Hodd) He0 Hu
                d (m + n) Vc bc Hs (row A i0) (Hnz i0 Hi0)) as G.
  pose proof (eq_trans (eq_sym (Hsplit (fun v => sim_ind d v (row A i0)))) G) as G'.
  cbv beta in G'.
  rewrite (sumn_ext n _ (fun i => if Nat.eq_dec i0 i then B k i else 0)) in G'.
  - rewrite sumn_delta in G' by exact Hi0. lra.
  - intros i Hi. unfold sim_ind. destruct (Nat.eq_dec i0 i) as [<-|Hne].
    + destruct (sign_sim_dec d (row A i0) (row A i0)) as [_|C]; [ring|].
      exfalso. apply C, same_up_to_sign_refl.
    + destruct (sign_sim_dec d (row A i) (row A i0)) as [C|_]; [|ring]. exfalso.
      destruct (same_up_to_sign_parallel d _ _ C) as [c [_ Hc]].
      exact (parallel_not_independent d _ _ (ex_intro _ c Hc) (Hind i0 i Hi0 Hi Hne)).
Qed.

Lemma even_absorb_match sigma d n m A B A' B' i0 :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  generic d n A B ->
  same_fun d (ungated sigma d m A' B') (residual d identity (ungated sigma d n A B)) ->
  (i0 < n)%nat ->
  exists jc : nat * R, (fst jc < m)%nat /\ (snd jc = 1 \/ snd jc = -1) /\
    forall k, (k < d)%nat -> A' (fst jc) k = snd jc * A i0 k.
Proof.
  intros Hodd H0 Hu Hg H Hi0. pose proof Hg as [_ [_ Hb]].
  destruct (Hb i0 Hi0) as [k [Hk Hbk]]. unfold col in Hbk.
  pose proof (even_absorb_group sigma d n m A B A' B' Hodd H0 Hu Hg H i0 k Hi0 Hk) as G.
  assert (Hs : sumn m (fun j => B' k j * sim_ind d (row A' j) (row A i0)) <> 0)
    by (rewrite G; exact Hbk).
  apply sumn_nonzero_term in Hs. destruct Hs as [j [Hj Hf]].
  unfold sim_ind in Hf.
  destruct (sign_sim_dec d (row A' j) (row A i0)) as [Sj|_]; [|exfalso; apply Hf; ring].
  destruct (same_up_to_sign_parallel d _ _ Sj) as [c [Hc1 Hc]].
  exists (j, c). simpl. split; [exact Hj|]. split; [exact Hc1|]. exact Hc.
Qed.

Lemma pm1_nonzero c : c = 1 \/ c = -1 -> c <> 0.
Proof. intros [E|E] Z; rewrite E in Z; lra. Qed.

Lemma pm1_abs c : c = 1 \/ c = -1 -> Rabs c = 1.
Proof. intros [E|E]; rewrite E; unfold Rabs; destruct Rcase_abs; lra. Qed.

Lemma even_absorb_choice sigma d n m A B A' B' :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  generic d n A B ->
  same_fun d (ungated sigma d m A' B') (residual d identity (ungated sigma d n A B)) ->
  exists (jf : nat -> nat) (cf : nat -> R),
    (forall i, (i < n)%nat -> (jf i < m)%nat /\ (cf i = 1 \/ cf i = -1) /\
       forall k, (k < d)%nat -> A' (jf i) k = cf i * A i k) /\
    (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> jf i1 = jf i2 -> i1 = i2).
Proof.
  intros Hodd H0 Hu Hg H.
  destruct (finite_choice (0%nat, 0) n (fun i jc => (fst jc < m)%nat /\
              (snd jc = 1 \/ snd jc = -1) /\
              forall k, (k < d)%nat -> A' (fst jc) k = snd jc * A i k)) as [f Hf].
  { intros i Hi. exact (even_absorb_match sigma d n m A B A' B' i Hodd H0 Hu Hg H Hi). }
  exists (fun i => fst (f i)), (fun i => snd (f i)). split; [exact Hf|].
  intros i1 i2 H1 H2 E. destruct (Hf i1 H1) as [_ [Hc1 E1]]. destruct (Hf i2 H2) as [_ [_ E2]].
  destruct Hg as [_ [Hind _]].
  apply (parallel_rows_same d n A i1 i2 (row A' (fst (f i1))) (snd (f i1)) (snd (f i2))
           Hind H1 H2 (pm1_nonzero _ Hc1)).
  - exact E1.
  - intros k Hk. unfold row. rewrite E. apply E2. exact Hk.
Qed.

(** At equal widths the matching is onto, so the group of [a_i0] holds the
    single row [a'_{j(i0)}]: [b'_{j(i0)} = b_i0]. *)
Lemma even_matched_coef sigma d n A B A' B' (jf : nat -> nat) (cf : nat -> R) :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  generic d n A B ->
  same_fun d (ungated sigma d n A' B') (residual d identity (ungated sigma d n A B)) ->
  (forall i, (i < n)%nat -> (jf i < n)%nat /\ (cf i = 1 \/ cf i = -1) /\
     forall k, (k < d)%nat -> A' (jf i) k = cf i * A i k) ->
  (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> jf i1 = jf i2 -> i1 = i2) ->
  forall i0 k, (i0 < n)%nat -> (k < d)%nat -> B' k (jf i0) * Rabs (cf i0) = B k i0.
Proof.
  intros Hodd H0 Hu Hg H Hf Hinj i0 k Hi0 Hk.
  assert (Hrange : forall i, (i < n)%nat -> (jf i < n)%nat) by (intros i Hi; apply Hf, Hi).
  pose proof (injective_surjective n jf Hrange Hinj) as Hsurj.
  pose proof Hg as [_ [Hind _]].
  destruct (Hf i0 Hi0) as [_ [Hc0 E0]].
  rewrite (pm1_abs _ Hc0), Rmult_1_r.
  rewrite <- (even_absorb_group sigma d n n A B A' B' Hodd H0 Hu Hg H i0 k Hi0 Hk).
  rewrite (sumn_ext n _ (fun j => if Nat.eq_dec (jf i0) j then B' k j else 0)).
  - symmetry. apply sumn_delta. apply Hrange. exact Hi0.
  - intros j Hj. unfold sim_ind. destruct (Nat.eq_dec (jf i0) j) as [<-|Hne].
    + destruct (sign_sim_dec d (row A' (jf i0)) (row A i0)) as [_|C]; [ring|].
      exfalso. apply C. unfold row.
      destruct Hc0 as [Ec|Ec]; [left|right]; intros l Hl; rewrite (E0 l Hl), Ec; ring.
    + destruct (sign_sim_dec d (row A' j) (row A i0)) as [C|_]; [|ring]. exfalso.
      destruct (Hsurj j Hj) as [i [Hi <-]]. destruct (Hf i Hi) as [_ [Hci Ei]].
      destruct (same_up_to_sign_parallel d _ _ C) as [c [_ Hc]].
      assert (i = i0).
      { apply (parallel_rows_same d n A i i0 (row A' (jf i)) (cf i) c Hind Hi Hi0
                 (pm1_nonzero _ Hci)); [exact Ei | exact Hc]. }
      subst i. contradiction.
Qed.

Theorem even_ridge_matching sigma :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  ridge_matching sigma.
Proof.
  intros Hodd H0 Hu d n m A B A' B' Hg H.
  destruct (even_absorb_choice sigma d n m A B A' B' Hodd H0 Hu Hg H) as [jf [cf [Hf Hinj]]].
  exists jf, cf. split; [|split; [exact Hinj|]].
  - intros i Hi. destruct (Hf i Hi) as [Hr [Hc E]].
    split; [exact Hr|]. split; [exact (pm1_nonzero _ Hc) | exact E].
  - intros Emn. subst m.
    exact (even_matched_coef sigma d n A B A' B' jf cf Hodd H0 Hu Hg H Hf Hinj).
Qed.
