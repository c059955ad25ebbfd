(** * R6: the submatrix set [Z] and the non-generic set are Lebesgue-null

    The space of weights.  A point is [p : key -> R]; its coordinates are the
    keys of [param_coords d n]: [(i, k, true)] is the entry [A i k] and
    [(i, k, false)] the entry [B k i] ([i < n], [k < d]); [matA p], [matB p]
    read the matrices off [p].  These [2 n d] keys are distinct
    ([param_coords_NoDup]), so this is [R^(n*d) x R^(d*n)].

    Lebesgue null sets (defined in [spec/ParamSets.v]).  A box is given by [lo c <= hi c] for
    every coordinate [c]; its [volume] is [prod_c (hi c - lo c)].  A set [E]
    is [lebesgue_null] when for every [eps > 0] it is covered by countably
    many boxes (here a sequence of finite lists of boxes) whose total volume
    is at most [eps] (every partial sum is [<= eps]).  This is the standard
    definition of Lebesgue outer measure zero (e.g. Folland, Real Analysis,
    §1.5 and §2.6; Tao, An introduction to measure theory, Def. 1.2.1 and
    Ex. 1.2.5: boxes may be closed, and "[<= eps] for all [eps]" is the same
    as "[< eps] for all [eps]").  [params_null d n T] says that
    [{p | T (matA p) (matB p)}] is Lebesgue-null.

    Main results:
    - [Z_null]: [1 <= d -> params_null d n (in_Z d n)];
    - [nongeneric_null]: [1 <= d -> (2 <= d \/ n <= 1) -> params_null d n (nongeneric d n)]
      (for [d = 1 <= 2 <= n] every block is non-generic, [nongeneric_d1]);
    - the general tool [graph_union_null]: a set covered by the pieces
      [ER R] ([R = 1, 2, ...]), each bounded and lying on finitely many
      graphs [y_j = F_j(other coordinates)] of locally Lipschitz functions,
      is null (grid of step [1/K] on the other coordinates, a slab of
      width [O(1/K)] in [y_j] per cell; [grid_size_spec] chooses [K] per
      stage, [stage_covers] and [stage_volume] bound each stage; this
      box-cover machinery is in [NullSetCover.v]).
    Proof for [Z]: a point of [Z] with subset [S] has [sum_{i in S}
    B 0 i * A i 0 = -1], so some [A i 0 <> 0] ([i in S]) and
    [B 0 i = (-1 - sum_{j in S, j <> i} B 0 j A j 0) / A i 0].  For the
    non-generic set: [A i 0 = 0], [B 0 i = 0], or a vanishing minor
    [A i 0 A j 1 = A i 1 A j 0] with [A i 0 <> 0].
    Non-vacuity: [Z_point_example], [nongeneric_point_example] (the sets
    are non-empty), [whole_R0_not_null] and, in [NullNontrivial.v],
    [unit_interval_not_null] (the notion is not trivial: [[0, 1]] is not
    null). *)

From Coq Require Import Reals Lra Lia List Classical.
From Absorb Require Import Sums Blocks ParamSets NonGeneric NullSetCover.
Import ListNotations.
Open Scope R_scope.

(** ** Coordinates of the parameter space *)

Lemma in_param_coords d n i k b : In (i, k, b) (param_coords d n) <-> (i < n)%nat /\ (k < d)%nat.
Proof.
  unfold param_coords. rewrite in_flat_map. split.
  - intros [i' [Hi' Hin]]. rewrite in_flat_map in Hin. destruct Hin as [k' [Hk' Hin]].
    apply in_seq in Hi'. apply in_seq in Hk'.
    destruct Hin as [E|[E|[]]]; injection E; intros; subst; lia.
  - intros [Hi Hk]. exists i. split; [apply in_seq; lia|]. apply in_flat_map.
    exists k. split; [apply in_seq; lia|]. destruct b; [left | right; left]; reflexivity.
Qed.

(** ** Finite unions of locally Lipschitz graphs are null

    [E] is covered by the pieces [ER R] ([R >= 1]); on [ER R] all
    coordinates are bounded by [R], and each point [p] of [ER R] lies on one
    of finitely many graphs [j]: its [y j] coordinate is within [C R * delta]
    of [F R j q] whenever [q] is within [delta <= delta0 R] of [p] on the
    other coordinates. *)
Theorem graph_union_null {T : Type} (cs : list key) (js : list T) (y : T -> key)
    (F : nat -> T -> (key -> R) -> R) (C delta0 : nat -> R)
    (E : (key -> R) -> Prop) (ER : nat -> (key -> R) -> Prop) :
  (forall j, In j js -> In (y j) cs) ->
  (forall R, 0 <= C R) -> (forall R, (1 <= R)%nat -> 0 < delta0 R) ->
  (forall p, E p -> exists R, (1 <= R)%nat /\ ER R p) ->
  (forall R p, (1 <= R)%nat -> ER R p -> forall c, In c cs -> Rabs (p c) <= INR R) ->
  (forall R p, (1 <= R)%nat -> ER R p -> exists j, In j js /\
     forall q delta, 0 < delta <= delta0 R ->
       (forall c, In c cs -> c <> y j -> Rabs (p c - q c) <= delta) ->
       Rabs (p (y j) - F R j q) <= C R * delta) ->
  lebesgue_null cs E.
Proof.
  intros Hy HC Hd0' HE Hbd Hlip eps Heps.
  assert (Hd0 : forall m, 0 < delta0 (S m)) by (intros; apply Hd0'; lia).
  set (V := fun R : nat => INR (length js) * ((2 * INR R) ^ length cs * (2 * C R))).
  assert (HV : forall R, 0 <= V R).
  { intros R. unfold V. apply Rmult_le_pos; [apply pos_INR|].
    apply Rmult_le_pos; [apply pow_le; pose proof (pos_INR R); lra | pose proof (HC R); lra]. }
  set (Km := fun m => grid_size (delta0 (S m)) (C (S m)) (V (S m)) eps m).
  assert (HK : forall m, 0 < INR (Km m) /\ (1 <= Km m)%nat /\ / INR (Km m) <= delta0 (S m) /\
                 2 * (C (S m) * / INR (Km m)) <= 1 /\ V (S m) * / INR (Km m) <= eps * / 2 ^ S m)
    by (intros m; exact (grid_size_spec _ _ _ _ m (Hd0 m) (HC (S m)) (HV (S m)) Heps)).
  exists (fun m => stage_cover cs js y (F (S m)) (INR (S m)) (2 * S m * Km m)
                      (/ INR (Km m)) (C (S m) * / INR (Km m))).
  split; [|split].
  - intros m b Hb. destruct (HK m) as [HKpos _]. eapply stage_cover_proper; [| | exact Hb].
    + apply Rmult_le_pos; [apply HC | left; apply Rinv_0_lt_compat, HKpos].
    + apply Rinv_0_lt_compat, HKpos.
  - intros p Hp. destruct (HE p Hp) as [R [HR HpR]].
    destruct R as [|m]; [lia|]. destruct (HK m) as [HKpos [HK1 [Hdel _]]].
    destruct (Hlip (S m) p ltac:(lia) HpR) as [j [Hj Hl]].
    destruct (stage_covers cs js y (F (S m)) (S m) (Km m) p j (C (S m)))
      as [b [Hb Hin]]; [lia | exact HK1 | exact Hj | apply HC | apply Hbd; [lia | exact HpR] | |].
    + intros q Hq. apply Hl; [|exact Hq]. split; [apply Rinv_0_lt_compat, HKpos | exact Hdel].
    + exists m, b. split; assumption.
  - intros M.
    apply Rle_trans with (sumn M (fun m => eps * / 2 ^ S m)); [|apply sumn_eps_halves, Heps].
    apply sumn_le. intros m _. destruct (HK m) as [HKpos [_ [_ [Hw1 Hvol]]]].
    eapply Rle_trans; [apply stage_volume|].
    + exact Hy.
    + apply Rmult_le_pos; [apply HC | left; apply Rinv_0_lt_compat, HKpos].
    + exact Hw1.
    + apply Rinv_0_lt_compat, HKpos.
    + pose proof (le_INR 1 (S m) ltac:(lia)). simpl in H |- *. lra.
    + rewrite !mult_INR. replace (INR 2) with 2 by (simpl; ring). field. lra.
    + eapply Rle_trans; [|exact Hvol]. right. unfold V. ring.
Qed.

(** ** Real-number estimates *)

Lemma sumn_const n c : sumn n (fun _ => c) = INR n * c.
Proof. induction n as [|n IH]; [simpl; ring | rewrite sumn_S, IH, S_INR; ring]. Qed.

Lemma prod_diff_bound a b a' b' R delta :
  Rabs a <= R -> Rabs b <= R -> Rabs (a - a') <= delta -> Rabs (b - b') <= delta ->
  delta <= 1 -> Rabs (a * b - a' * b') <= (2 * R + 1) * delta.
Proof.
  intros Ha Hb Haa Hbb Hd.
  replace (a * b - a' * b') with (a * (b - b') + b' * (a - a')) by ring.
  eapply Rle_trans; [apply Rabs_triang|]. rewrite !Rabs_mult.
  assert (Hb' : Rabs b' <= R + 1).
  { replace b' with (b + - (b - b')) by ring.
    eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_Ropp. lra. }
  pose proof (Rabs_pos a). pose proof (Rabs_pos b'). pose proof (Rabs_pos (b - b')).
  pose proof (Rabs_pos (a - a')).
  assert (Rabs a * Rabs (b - b') <= R * delta) by (apply Rmult_le_compat; lra).
  assert (Rabs b' * Rabs (a - a') <= (R + 1) * delta) by (apply Rmult_le_compat; lra).
  lra.
Qed.

Lemma quotient_bound yy x x' hp hq R delta D :
  0 < R -> Rabs yy <= R -> / R <= Rabs x -> Rabs (x - x') <= delta -> 0 <= delta ->
  delta <= / (2 * R) -> yy * x = hp -> Rabs (hp - hq) <= D ->
  Rabs (yy - hq / x') <= 2 * R * (R * delta + D).
Proof.
  intros HR Hy Hx Hxx Hd0 Hd Heq Hh.
  assert (Hx' : / (2 * R) <= Rabs x').
  { replace x' with (x - (x - x')) by ring.
    pose proof (Rabs_triang_inv x (x - x')).
    replace (/ R) with (2 * / (2 * R)) in Hx by (field; lra). lra. }
  assert (Hpos : 0 < / (2 * R)) by (apply Rinv_0_lt_compat; lra).
  assert (Hx'0 : x' <> 0).
  { intros E. rewrite E, Rabs_R0 in Hx'. lra. }
  replace (yy - hq / x') with ((yy * (x' - x) + (hp - hq)) / x')
    by (rewrite <- Heq; field; exact Hx'0).
  unfold Rdiv. rewrite Rabs_mult, Rabs_inv.
  assert (Hnum : Rabs (yy * (x' - x) + (hp - hq)) <= R * delta + D).
  { eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_mult.
    replace (x' - x) with (- (x - x')) by ring. rewrite Rabs_Ropp.
    pose proof (Rabs_pos yy). pose proof (Rabs_pos (x - x')).
    assert (Rabs yy * Rabs (x - x') <= R * delta) by (apply Rmult_le_compat; lra). lra. }
  assert (Hinv : / Rabs x' <= 2 * R).
  { replace (2 * R) with (/ / (2 * R)) by (field; lra). apply Rinv_le_contravar; assumption. }
  assert (0 <= / Rabs x') by (left; apply Rinv_0_lt_compat; lra).
  pose proof (Rabs_pos (yy * (x' - x) + (hp - hq))).
  rewrite Rmult_comm. apply Rmult_le_compat; lra.
Qed.

(** ** R6: [Z] is Lebesgue-null *)

(** [sum_{j in S, j <> i} B 0 j * A j 0]. *)
Definition rest_sum (n : nat) (S : nat -> bool) (i : nat) (p : key -> R) : R :=
  sumn n
    (fun j => if S j then (if Nat.eq_dec i j then 0 else matB p 0%nat j * matA p j 0%nat) else 0).

Lemma subset_sum_00_split n S p i :
  (i < n)%nat -> S i = true ->
  subset_sum n S (matA p) (matB p) 0%nat 0%nat = matB p 0%nat i * matA p i 0%nat + rest_sum n S i p.
Proof.
  intros Hi HS. unfold subset_sum, rest_sum.
  rewrite (sumn_ext n _ (fun j =>
    (if Nat.eq_dec i j then (if S j then matB p 0%nat j * matA p j 0%nat else 0) else 0) +
    (if S j then (if Nat.eq_dec i j then 0 else matB p 0%nat j * matA p j 0%nat) else 0))).
  - rewrite sumn_plus,
      (sumn_delta n i (fun j => if S j then matB p 0%nat j * matA p j 0%nat else 0) Hi).
    rewrite HS. reflexivity.
  - intros j _. destruct (Nat.eq_dec i j); destruct (S j); ring.
Qed.

Lemma coords_bound (p : key -> R) (cs : list key) (r : R) :
  exists R, (1 <= R)%nat /\ r <= INR R /\ forall c, In c cs -> Rabs (p c) <= INR R.
Proof.
  induction cs as [|c cs IH].
  - exists (S (nat_above r)). split; [lia|]. split; [|intros c []].
    pose proof (nat_above_spec r). rewrite S_INR. lra.
  - destruct IH as [R0 [H1 [H2 H3]]].
    exists (Nat.max R0 (nat_above (Rabs (p c)))).
    pose proof (le_INR _ _ (Nat.le_max_l R0 (nat_above (Rabs (p c))))).
    pose proof (le_INR _ _ (Nat.le_max_r R0 (nat_above (Rabs (p c))))).
    pose proof (nat_above_spec (Rabs (p c))).
    split; [lia|]. split; [lra|]. intros c' [<-|Hc']; [lra|].
    pose proof (H3 c' Hc'). lra.
Qed.

Definition Z_graphs (n : nat) : list (nat * (nat -> bool)) := list_prod (seq 0 n) (subsets n).

Definition Z_y (j : nat * (nat -> bool)) : key := (fst j, 0%nat, false).

(** On the graph [j = (i, S)]: [B 0 i = (-1 - rest_sum) / A i 0]. *)
Definition Z_F (n : nat) (j : nat * (nat -> bool)) (q : key -> R) : R :=
  (-1 - rest_sum n (snd j) (fst j) q) / q (fst j, 0%nat, true).

Definition Z_C (n s : nat) : R := 2 * INR s * (INR s + INR n * (2 * INR s + 1)).

Definition Z_delta0 (s : nat) : R := / (2 * INR s).

(** The piece of [Z] at scale [s]: coordinates bounded by [s], and some
    [A i 0] with [i] in [S] of size at least [1 / s]. *)
Definition Z_piece (d n s : nat) (p : key -> R) : Prop :=
  (forall c, In c (param_coords d n) -> Rabs (p c) <= INR s) /\
  exists i S, (i < n)%nat /\ In S (subsets n) /\ S i = true /\
    / INR s <= Rabs (p (i, 0%nat, true)) /\ subset_sum n S (matA p) (matB p) 0%nat 0%nat = -1.

Lemma Z_in_pieces d n p :
  (1 <= d)%nat -> in_Z d n (matA p) (matB p) -> exists R, (1 <= R)%nat /\ Z_piece d n R p.
Proof.
  intros Hd HZ. destruct (in_Z_subsets d n _ _ HZ) as [S [HS Hcond]].
  assert (H00 : subset_sum n S (matA p) (matB p) 0%nat 0%nat = -1).
  { rewrite (Hcond 0%nat 0%nat) by lia. unfold identity. simpl. ring. }
  assert (Hex : exists i, (i < n)%nat /\ S i = true /\ p (i, 0%nat, true) <> 0).
  { apply NNPP. intros Hno. revert H00. unfold subset_sum. rewrite sumn_zero; [lra|].
    intros j Hj. destruct (S j) eqn:ESj; [|reflexivity].
    destruct (Req_dec (p (j, 0%nat, true)) 0) as [E|E].
    - unfold matA. rewrite E. ring.
    - exfalso. apply Hno. exists j. auto. }
  destruct Hex as [i [Hi [HSi Hx]]].
  destruct (coords_bound p (param_coords d n) (/ Rabs (p (i, 0%nat, true)))) as [R [HR [Hr Hb]]].
  exists R. split; [exact HR|]. split; [exact Hb|].
  exists i, S. repeat split; try assumption.
  assert (Hax : 0 < Rabs (p (i, 0%nat, true))) by (apply Rabs_pos_lt; exact Hx).
  rewrite <- (Rinv_inv (Rabs (p (i, 0%nat, true)))).
  apply Rinv_le_contravar; [apply Rinv_0_lt_compat; exact Hax | exact Hr].
Qed.

Lemma rest_sum_close n S i (p q : key -> R) (R delta : R) :
  (forall j, (j < n)%nat -> i <> j -> Rabs (p (j, 0%nat, false)) <= R
    /\ Rabs (p (j, 0%nat, true)) <= R /\
      Rabs (p (j, 0%nat, false) - q (j, 0%nat, false)) <= delta /\
      Rabs (p (j, 0%nat, true) - q (j, 0%nat, true)) <= delta) ->
  0 <= delta <= 1 -> 0 <= R ->
  Rabs ((-1 - rest_sum n S i p) - (-1 - rest_sum n S i q)) <= INR n * ((2 * R + 1) * delta).
Proof.
  intros H Hd HR. replace ((-1 - rest_sum n S i p) - (-1 - rest_sum n S i q))
    with (rest_sum n S i q - rest_sum n S i p) by ring.
  unfold rest_sum. rewrite <- sumn_minus. eapply Rle_trans; [apply sumn_abs|].
  rewrite <- sumn_const. apply sumn_le. intros j Hj.
  destruct (S j); destruct (Nat.eq_dec i j) as [E|Hne];
    try (replace (0 - 0) with 0 by ring; rewrite Rabs_R0; apply Rmult_le_pos; lra).
  destruct (H j Hj Hne) as [H1 [H2 [H3 H4]]]. unfold matA, matB.
  rewrite Rabs_minus_sym. apply prod_diff_bound; lra.
Qed.

Lemma Z_piece_lipschitz d n R p :
  (1 <= d)%nat -> (1 <= R)%nat -> Z_piece d n R p ->
  exists j, In j (Z_graphs n) /\
    forall q delta, 0 < delta <= Z_delta0 R ->
      (forall c, In c (param_coords d n) -> c <> Z_y j -> Rabs (p c - q c) <= delta) ->
      Rabs (p (Z_y j) - Z_F n j q) <= Z_C n R * delta.
Proof.
  intros Hd HR [Hb [i [S [Hi [HS [HSi [Hx Heq]]]]]]].
  assert (HRpos : 0 < INR R) by (apply lt_0_INR; lia).
  assert (HR1 : 1 <= INR R) by (apply (le_INR 1); exact HR).
  exists (i, S). split.
  { apply in_prod; [apply in_seq; lia | exact HS]. }
  intros q delta [Hd0 Hd1] Hq. unfold Z_y, Z_F, Z_C. simpl fst; simpl snd.
  assert (Hdel1 : delta <= 1).
  { unfold Z_delta0 in Hd1. assert (/ (2 * INR R) <= / 1) by (apply Rinv_le_contravar; lra).
    rewrite Rinv_1 in H. lra. }
  eapply Rle_trans.
  - apply (quotient_bound _ (p (i, 0%nat, true)) _ (-1 - rest_sum n S i p) _ (INR R) delta
             (INR n * ((2 * INR R + 1) * delta))).
    + exact HRpos.
    + apply Hb. apply in_param_coords. lia.
    + exact Hx.
    + apply Hq; [apply in_param_coords; lia | discriminate].
    + lra.
    + exact Hd1.
    + rewrite (subset_sum_00_split n S p i Hi HSi) in Heq. unfold matA, matB in Heq.
      unfold matA, matB. lra.
    + apply rest_sum_close; [|lra|lra]. intros j Hj Hij.
      assert (Hjc : forall b, In (j, 0%nat, b) (param_coords d n))
        by (intros; apply in_param_coords; lia).
      repeat split;
        [apply Hb, Hjc | apply Hb, Hjc | apply Hq; [apply Hjc|] | apply Hq; [apply Hjc|]].
      * intros E. injection E. intros. lia.
      * discriminate.
  - right. ring.
Qed.

(** *** Headline: [Z] has Lebesgue measure zero ([d >= 1]). *)
Theorem Z_null d n : (1 <= d)%nat -> params_null d n (in_Z d n).
Proof.
  intros Hd. unfold params_null.
  apply (graph_union_null (param_coords d n) (Z_graphs n) Z_y (fun _ => Z_F n) (Z_C n) Z_delta0
           _ (Z_piece d n)).
  - intros [i S] Hj. apply in_prod_iff in Hj. destruct Hj as [Hi _]. apply in_seq in Hi.
    apply in_param_coords. simpl. lia.
  - intros R. unfold Z_C. pose proof (pos_INR R). pose proof (pos_INR n).
    apply Rmult_le_pos; [lra|]. apply Rplus_le_le_0_compat; [lra|].
    apply Rmult_le_pos; lra.
  - intros R HR. unfold Z_delta0. apply Rinv_0_lt_compat.
    pose proof (lt_0_INR R ltac:(lia)). lra.
  - intros p Hp. apply Z_in_pieces; assumption.
  - intros R p _ [Hb _]. exact Hb.
  - intros R p HR Hp. apply Z_piece_lipschitz; assumption.
Qed.

(** ** The non-generic set is Lebesgue-null ([d >= 2]) *)

Lemma nongeneric_cases d n A B :
  (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat -> nongeneric d n A B ->
  (exists i, (i < n)%nat /\ A i 0%nat = 0) \/
  (exists i, (i < n)%nat /\ B 0%nat i = 0) \/
  (exists i j, (i < n)%nat /\ (j < n)%nat /\ i <> j /\ A i 0%nat <> 0 /\
     A i 0%nat * A j 1%nat - A i 1%nat * A j 0%nat = 0).
Proof.
  intros Hd Hdn HN. apply NNPP. intros Hno. apply HN. split; [|split].
  - intros i Hi. exists 0%nat. split; [lia|]. unfold row. intros E.
    apply Hno. left. exists i. auto.
  - intros i j Hi Hj Hij. destruct Hdn as [Hd2|Hn1]; [|lia].
    apply (indep_of_minor d _ _ 0 1); [lia | lia |].
    unfold minor2, row. intros E. destruct (Req_dec (A i 0%nat) 0) as [E0|E0].
    + apply Hno. left. exists i. auto.
    + apply Hno. right; right. exists i, j. auto.
  - intros i Hi. exists 0%nat. split; [lia|]. unfold col. intros E.
    apply Hno. right; left. exists i. auto.
Qed.

(** Graph [(0, (i, _))]: [A i 0 = 0]; [(1, (i, _))]: [B 0 i = 0];
    [(2, (i, j))]: [A j 1 = A i 1 * A j 0 / A i 0] (a vanishing [2 x 2] minor;
    only when [d >= 2]). *)
Definition NG_graphs (d n : nat) : list (nat * (nat * nat)) :=
  list_prod (seq 0 (if Nat.leb d 1 then 2 else 3)) (list_prod (seq 0 n) (seq 0 n)).

Definition NG_y (g : nat * (nat * nat)) : key :=
  match g with
  | (0%nat, (i, _)) => (i, 0%nat, true)
  | (1%nat, (i, _)) => (i, 0%nat, false)
  | (_, (i, j)) => (j, 1%nat, true)
  end.

Definition NG_F (g : nat * (nat * nat)) (q : key -> R) : R :=
  match g with
  | (0%nat, _) | (1%nat, _) => 0
  | (_, (i, j)) => q (i, 1%nat, true) * q (j, 0%nat, true) / q (i, 0%nat, true)
  end.

Definition NG_good (s : nat) (p : key -> R) (g : nat * (nat * nat)) : Prop :=
  match g with
  | (0%nat, (i, _)) => p (i, 0%nat, true) = 0
  | (1%nat, (i, _)) => p (i, 0%nat, false) = 0
  | (_, (i, j)) => i <> j /\ / INR s <= Rabs (p (i, 0%nat, true)) /\
      p (i, 0%nat, true) * p (j, 1%nat, true) - p (i, 1%nat, true) * p (j, 0%nat, true) = 0
  end.

Definition NG_piece (d n s : nat) (p : key -> R) : Prop :=
  (forall c, In c (param_coords d n) -> Rabs (p c) <= INR s) /\
  exists g, In g (NG_graphs d n) /\ NG_good s p g.

Definition NG_C (s : nat) : R := 2 * INR s * (INR s + (2 * INR s + 1)).

Lemma NG_in_pieces d n p :
  (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat -> nongeneric d n (matA p) (matB p) ->
  exists s, (1 <= s)%nat /\ NG_piece d n s p.
Proof.
  intros Hd Hdn HN.
  destruct (nongeneric_cases d n _ _ Hd Hdn HN)
    as [[i [Hi E]]|[[i [Hi E]]|[i [j [Hi [Hj [Hij [Hx E]]]]]]]];
    unfold matA, matB in *.
  - destruct (coords_bound p (param_coords d n) 0) as [s [Hs [_ Hb]]].
    exists s. split; [exact Hs|]. split; [exact Hb|]. exists (0%nat, (i, i)). split; [|exact E].
    apply in_prod;
      [apply in_seq; destruct (Nat.leb_spec d 1); lia | apply in_prod; apply in_seq; lia].
  - destruct (coords_bound p (param_coords d n) 0) as [s [Hs [_ Hb]]].
    exists s. split; [exact Hs|]. split; [exact Hb|]. exists (1%nat, (i, i)). split; [|exact E].
    apply in_prod;
      [apply in_seq; destruct (Nat.leb_spec d 1); lia | apply in_prod; apply in_seq; lia].
  - destruct (coords_bound p (param_coords d n) (/ Rabs (p (i, 0%nat, true)))) as [s [Hs [Hr Hb]]].
    exists s. split; [exact Hs|]. split; [exact Hb|]. exists (2%nat, (i, j)). split.
    + apply in_prod;
        [apply in_seq; destruct (Nat.leb_spec d 1); lia | apply in_prod; apply in_seq; lia].
    + simpl. split; [exact Hij|]. split; [|exact E].
      assert (Hax : 0 < Rabs (p (i, 0%nat, true))) by (apply Rabs_pos_lt; exact Hx).
      rewrite <- (Rinv_inv (Rabs (p (i, 0%nat, true)))).
      apply Rinv_le_contravar; [apply Rinv_0_lt_compat; exact Hax | exact Hr].
Qed.

Lemma NG_piece_lipschitz d n s p :
  (1 <= d)%nat -> (1 <= s)%nat -> NG_piece d n s p ->
  exists g, In g (NG_graphs d n) /\
    forall q delta, 0 < delta <= Z_delta0 s ->
      (forall c, In c (param_coords d n) -> c <> NG_y g -> Rabs (p c - q c) <= delta) ->
      Rabs (p (NG_y g) - NG_F g q) <= NG_C s * delta.
Proof.
  intros Hd Hs [Hb [g [Hg Hgood]]].
  assert (Hspos : 0 < INR s) by (apply lt_0_INR; lia).
  assert (Hs1 : 1 <= INR s) by (apply (le_INR 1); exact Hs).
  assert (HC : 0 <= NG_C s) by (unfold NG_C; apply Rmult_le_pos; lra).
  exists g. split; [exact Hg|]. intros q delta [Hd0 Hd1] Hq.
  destruct g as [t [i j]]. unfold NG_graphs in Hg.
  apply in_prod_iff in Hg. destruct Hg as [Ht Hij]. apply in_seq in Ht.
  apply in_prod_iff in Hij. destruct Hij as [Hi Hj]. apply in_seq in Hi. apply in_seq in Hj.
  simpl in Ht, Hi, Hj.
  destruct t as [|[|[|t]]]; [| | |destruct (Nat.leb d 1); lia]; simpl in Hgood |- *.
  - rewrite Hgood. replace (0 - 0) with 0 by ring. rewrite Rabs_R0. apply Rmult_le_pos; lra.
  - rewrite Hgood. replace (0 - 0) with 0 by ring. rewrite Rabs_R0. apply Rmult_le_pos; lra.
  - destruct Hgood as [Hne [Hx Heq]].
    assert (Hd2 : (2 <= d)%nat) by (destruct (Nat.leb_spec d 1); lia).
    assert (Hdel1 : delta <= 1).
    { unfold Z_delta0 in Hd1. assert (/ (2 * INR s) <= / 1) by (apply Rinv_le_contravar; lra).
      rewrite Rinv_1 in H. lra. }
    assert (Hc : forall a k b, (a < n)%nat -> (k < d)%nat -> In (a, k, b) (param_coords d n))
      by (intros; apply in_param_coords; auto).
    eapply Rle_trans.
    + apply (quotient_bound _ (p (i, 0%nat, true)) _ (p (i, 1%nat, true) * p (j, 0%nat, true)) _
               (INR s) delta ((2 * INR s + 1) * delta)).
      * exact Hspos.
      * apply Hb, Hc; lia.
      * exact Hx.
      * apply Hq; [apply Hc; lia | intros E; injection E; intros; lia].
      * lra.
      * exact Hd1.
      * lra.
      * apply prod_diff_bound; [apply Hb, Hc; lia | apply Hb, Hc; lia | | | exact Hdel1].
        -- apply Hq; [apply Hc; lia | intros E; injection E; intros; lia].
        -- apply Hq; [apply Hc; lia | intros E; injection E; intros; lia].
    + right. unfold NG_C. ring.
Qed.

(** *** Headline: the non-generic set has Lebesgue measure zero ([d >= 2]). *)
Theorem nongeneric_null d n :
  (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat -> params_null d n (nongeneric d n).
Proof.
  intros Hd Hdn. unfold params_null.
  apply (graph_union_null (param_coords d n) (NG_graphs d n) NG_y (fun _ => NG_F) NG_C Z_delta0
           _ (NG_piece d n)).
  - intros [t [i j]] Hg. unfold NG_graphs in Hg. apply in_prod_iff in Hg. destruct Hg as [Ht Hij].
    apply in_seq in Ht.
    apply in_prod_iff in Hij. destruct Hij as [Hi Hj]. apply in_seq in Hi. apply in_seq in Hj.
    simpl in Ht, Hi, Hj. destruct t as [|[|t]]; simpl; apply in_param_coords; [lia | lia |].
    destruct (Nat.leb_spec d 1); lia.
  - intros s. unfold NG_C. pose proof (pos_INR s). apply Rmult_le_pos; lra.
  - intros s Hs. unfold Z_delta0. apply Rinv_0_lt_compat.
    pose proof (lt_0_INR s ltac:(lia)). lra.
  - intros p Hp. apply NG_in_pieces; assumption.
  - intros s p _ [Hb _]. exact Hb.
  - intros s p Hs Hp. apply NG_piece_lipschitz; assumption.
Qed.

(** ** The coordinates are distinct, so [volume] is the usual product *)

Lemma NoDup_app_gen {X : Type} (l1 l2 : list X) :
  NoDup l1 -> NoDup l2 -> (forall a, In a l1 -> ~ In a l2) -> NoDup (l1 ++ l2).
Proof.
  induction l1 as [|a l1 IH]; intros H1 H2 Hdis; simpl; [exact H2|].
  apply NoDup_cons_iff in H1. destruct H1 as [Ha H1]. constructor.
  - intros Hin. apply in_app_or in Hin. destruct Hin as [Hin|Hin]; [exact (Ha Hin)|].
    exact (Hdis a (or_introl eq_refl) Hin).
  - apply IH; [exact H1 | exact H2 |]. intros b Hb. apply Hdis. right. exact Hb.
Qed.

Lemma NoDup_flat_map_gen {X Y : Type} (f : X -> list Y) (l : list X) :
  NoDup l -> (forall x, In x l -> NoDup (f x)) ->
  (forall x x' a, In x l -> In x' l -> In a (f x) -> In a (f x') -> x = x') ->
  NoDup (flat_map f l).
Proof.
  induction l as [|x l IH]; intros Hl Hf Hdis; simpl; [constructor|].
  apply NoDup_cons_iff in Hl. destruct Hl as [Hx Hl]. apply NoDup_app_gen.
  - apply Hf. left. reflexivity.
  - apply IH; [exact Hl | intros; apply Hf; right; assumption |].
    intros; eapply Hdis; [right | right | |]; eassumption.
  - intros a Ha Hin. apply in_flat_map in Hin. destruct Hin as [x' [Hx' Ha']].
    assert (x = x') as <-
      by (eapply Hdis; [left; reflexivity | right; exact Hx' | exact Ha | exact Ha']).
    exact (Hx Hx').
Qed.

Lemma param_coords_NoDup d n : NoDup (param_coords d n).
Proof.
  unfold param_coords. apply NoDup_flat_map_gen; [apply seq_NoDup | |].
  - intros i _. apply NoDup_flat_map_gen; [apply seq_NoDup | |].
    + intros k _. constructor; [|constructor; [intros []|constructor]].
      intros [E|[]]. discriminate.
    + intros k k' a _ _ Ha Ha'.
      destruct Ha as [<-|[<-|[]]]; destruct Ha' as [E|[E|[]]]; injection E; intros; lia.
  - intros i i' a _ _ Ha Ha'. apply in_flat_map in Ha. apply in_flat_map in Ha'.
    destruct Ha as [k [_ Ha]]. destruct Ha' as [k' [_ Ha']].
    destruct Ha as [<-|[<-|[]]]; destruct Ha' as [E|[E|[]]]; injection E; intros; lia.
Qed.

(** ** Non-vacuity *)

(** [Z] and the non-generic set are not empty, so the theorems say something. *)
Example Z_point_example : exists p : key -> R, in_Z 1 1 (matA p) (matB p).
Proof. exists (fun c : key => if snd c then 1 else -1). exact in_Z_example. Qed.

Example nongeneric_point_example : exists p : key -> R, nongeneric 2 2 (matA p) (matB p).
Proof.
  exists (fun _ : key => 0). intros [Hrows _]. destruct (Hrows 0%nat ltac:(lia)) as [k [_ Hk]].
  apply Hk. reflexivity.
Qed.

Example Z_null_instance : params_null 1 1 (in_Z 1 1) := Z_null 1 1 (le_n 1).

Example nongeneric_null_instance : params_null 2 2 (nongeneric 2 2) :=
  nongeneric_null 2 2 ltac:(lia) ltac:(lia).

(** The notion is not trivial: in [R^0] (a point, of volume [1]) the whole
    space is not null. *)
Lemma whole_R0_not_null : ~ lebesgue_null [] (fun _ => True).
Proof.
  intros H. destruct (H (/ 2) ltac:(lra)) as [cover [_ [Hcov Hsum]]].
  destruct (Hcov (fun _ => 0) I) as [m [b [Hb _]]].
  assert (Htot : forall l, total_volume [] l = INR (length l)).
  { induction l as [|b' l IH]; [reflexivity|]. cbn [total_volume length].
    rewrite IH, S_INR. unfold volume. simpl. ring. }
  assert (H1 : 1 <= total_volume [] (cover m)).
  { rewrite Htot. destruct (cover m) as [|b' l]; [destruct Hb|].
    cbn [length]. rewrite S_INR. pose proof (pos_INR (length l)). lra. }
  pose proof (Hsum (S m)) as HS. rewrite sumn_S in HS.
  assert (0 <= sumn m (fun m0 => total_volume [] (cover m0))).
  { apply sumn_nonneg. intros. rewrite Htot. apply pos_INR. }
  lra.
Qed.
