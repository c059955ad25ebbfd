(** * Box covers of thin grid cells: the machinery behind [NullSet.graph_union_null]

    The tools with which [NullSet.v] proves that a set lying on finitely
    many locally Lipschitz graphs is Lebesgue-null (outer measure zero,
    [spec/ParamSets.v]):
    - finite products and total volumes of lists of boxes
      ([prodl_two_values], [total_volume_app], [total_volume_flat_map_le],
      [total_volume_map_const]), the geometric sum [sumn_geometric];
    - an explicit natural number above a real ([nat_above_spec]);
    - grids of step [delta] on a list of coordinates: every point of the
      cube lies in a cell ([grid_cover]), and there are [N ^ length G]
      cells ([grid_length]);
    - one stage of the cover: the cells of the grid on the other
      coordinates, thickened to width [2 w] around the graph in coordinate
      [y j] ([stage_cover]); its boxes are proper ([stage_cover_proper]),
      its total volume is at most [#graphs * (2 R)^#coords * 2 w]
      ([stage_volume]) and it covers every point of the graph piece
      ([stage_covers]);
    - the grid size of stage [m] ([grid_size_spec]) and
      [sum_m eps / 2^(m+1) <= eps] ([sumn_eps_halves]).
    The headline [graph_union_null] and its uses ([Z_null],
    [nongeneric_null]) are in [NullSet.v]. *)

From Coq Require Import Reals Lra Lia List Classical.
From Absorb Require Import Sums Blocks ParamSets.
Import ListNotations.
Open Scope R_scope.

(** ** Coordinates *)

Definition key_eq_dec (a b : key) : {a = b} + {a <> b}.
Proof. decide equality; [apply Bool.bool_dec | decide equality; apply Nat.eq_dec]. Defined.

(** ** Finite sums and products *)

Lemma prodl_ext cs f g : (forall c, In c cs -> f c = g c) -> prodl cs f = prodl cs g.
Proof.
  induction cs as [|c cs IH]; intros H; simpl; [reflexivity|].
  rewrite H by (left; reflexivity). rewrite IH; [reflexivity|]. intros; apply H; right; assumption.
Qed.

Definition is_key (y c : key) : bool := if key_eq_dec c y then true else false.
Definition not_key (y c : key) : bool := if key_eq_dec c y then false else true.

Lemma prodl_two_values cs y a b :
  prodl cs (fun c => if key_eq_dec c y then a else b) =
  a ^ length (filter (is_key y) cs) * b ^ length (filter (not_key y) cs).
Proof.
  induction cs as [|c cs IH]; simpl; [ring|].
  rewrite IH. unfold is_key, not_key. destruct (key_eq_dec c y); simpl; ring.
Qed.

Lemma filter_length_le_key (f : key -> bool) cs : (length (filter f cs) <= length cs)%nat.
Proof. induction cs as [|c cs IH]; simpl; [lia|]. destruct (f c); simpl; lia. Qed.

Lemma total_volume_app cs l1 l2 :
  total_volume cs (l1 ++ l2) = total_volume cs l1 + total_volume cs l2.
Proof. induction l1 as [|b l1 IH]; simpl; [ring | rewrite IH; ring]. Qed.

Lemma total_volume_flat_map_le {X : Type} cs (g : X -> list box) (l : list X) V :
  (forall x, In x l -> total_volume cs (g x) <= V) ->
  total_volume cs (flat_map g l) <= INR (length l) * V.
Proof.
  induction l as [|x l IH]; intros H; cbn [flat_map length total_volume]; [simpl; lra|].
  rewrite total_volume_app. rewrite S_INR.
  pose proof (H x (or_introl eq_refl)). pose proof (IH (fun x' Hx' => H x' (or_intror Hx'))). lra.
Qed.

Lemma total_volume_map_const {X : Type} cs (g : X -> box) (l : list X) v :
  (forall x, In x l -> volume cs (g x) = v) ->
  total_volume cs (map g l) = INR (length l) * v.
Proof.
  induction l as [|x l IH]; intros H; cbn [map length total_volume]; [simpl; ring|].
  rewrite H by (left; reflexivity). rewrite IH by (intros; apply H; right; assumption).
  rewrite S_INR. ring.
Qed.

Lemma sumn_geometric M : sumn M (fun m => / 2 ^ (S m)) = 1 - / 2 ^ M.
Proof.
  induction M as [|M IH].
  - simpl. field.
  - rewrite sumn_S, IH. simpl. field. apply pow_nonzero. lra.
Qed.

(** ** An explicit natural number above a real *)

Definition nat_above (r : R) : nat := Z.to_nat (up r).

Lemma nat_above_spec r : r < INR (nat_above r).
Proof.
  unfold nat_above. destruct (archimed r) as [H1 _].
  destruct (Z_lt_le_dec (up r) 0) as [Hn|Hp].
  - destruct (up r) as [|pp|pp] eqn:E; [lia | lia |]. simpl.
    apply IZR_lt in Hn. lra.
  - rewrite INR_IZR_INZ, Z2Nat.id by exact Hp. exact H1.
Qed.

(** ** Grids *)

Lemma floor_in_range N z :
  (1 <= N)%nat -> 0 <= z <= INR N -> exists t, (t < N)%nat /\ INR t <= z <= INR t + 1.
Proof.
  induction N as [|N IH]; intros HN Hz; [lia|].
  destruct (Nat.eq_dec N 0) as [E|HN0].
  - subst. exists 0%nat. simpl in *. split; [lia|lra].
  - destruct (Rle_lt_dec z (INR N)) as [Hle|Hlt].
    + destruct (IH ltac:(lia) ltac:(lra)) as [t [Ht H]]. exists t. split; [lia|exact H].
    + exists N. rewrite S_INR in Hz. split; [lia|lra].
Qed.

Definition upd (f : key -> nat) (c : key) (t : nat) : key -> nat :=
  fun c' => if key_eq_dec c' c then t else f c'.

(** All ways to give each coordinate of [G] an index below [N]. *)
Fixpoint grid (N : nat) (G : list key) : list (key -> nat) :=
  match G with
  | [] => [fun _ => 0%nat]
  | c :: G' => flat_map (fun t => map (fun f => upd f c t) (grid N G')) (seq 0 N)
  end.

Lemma length_flat_map_const {X Y : Type} (g : X -> list Y) (l : list X) k :
  (forall x, In x l -> length (g x) = k) -> length (flat_map g l) = (length l * k)%nat.
Proof.
  induction l as [|x l IH]; intros H; simpl; [reflexivity|].
  rewrite app_length, H by (left; reflexivity). rewrite IH by (intros; apply H; right; assumption).
  reflexivity.
Qed.

Lemma grid_length N G : length (grid N G) = (N ^ length G)%nat.
Proof.
  induction G as [|c G IH]; simpl; [reflexivity|].
  rewrite (length_flat_map_const _ _ (N ^ length G)).
  - rewrite seq_length. reflexivity.
  - intros t _. rewrite map_length. exact IH.
Qed.

Definition corner (a delta : R) (f : key -> nat) : key -> R := fun c => a + INR (f c) * delta.

Lemma grid_cover N G (a delta : R) (p : key -> R) :
  (1 <= N)%nat -> 0 < delta ->
  (forall c, In c G -> a <= p c <= a + INR N * delta) ->
  exists f, In f (grid N G) /\
    forall c, In c G -> corner a delta f c <= p c <= corner a delta f c + delta.
Proof.
  intros HN Hd. induction G as [|c G IH]; intros Hp.
  - exists (fun _ => 0%nat). split; [left; reflexivity | intros c []].
  - destruct IH as [f [Hf Hfc]]; [intros; apply Hp; right; assumption|].
    destruct (Hp c (or_introl eq_refl)) as [H1 H2].
    destruct (floor_in_range N ((p c - a) / delta) HN) as [t [Ht Htc]].
    { split; [unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]|].
      apply (Rmult_le_reg_r delta); [exact Hd|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l; lra. }
    exists (upd f c t). split.
    + simpl. apply in_flat_map. exists t. split; [apply in_seq; lia|].
      apply (in_map (fun g => upd g c t)). exact Hf.
    + intros c' Hc'. unfold corner, upd. destruct (key_eq_dec c' c) as [->|Hne].
      * destruct Htc as [L U].
        assert (L' : INR t * delta <= p c - a).
        { apply (Rmult_le_compat_r delta) in L; [|lra]. unfold Rdiv in L.
          rewrite Rmult_assoc, Rinv_l in L; lra. }
        assert (U' : p c - a <= (INR t + 1) * delta).
        { apply (Rmult_le_compat_r delta) in U; [|lra]. unfold Rdiv in U.
          rewrite Rmult_assoc, Rinv_l in U; lra. }
        lra.
      * destruct Hc' as [E|Hc']; [congruence|]. apply Hfc. exact Hc'.
Qed.

(** ** Covering a graph-like set by thin cells *)

(** The cell of the grid of step [delta] starting at [a] indexed by [f],
    with coordinate [y] replaced by [[ctr - w, ctr + w]]. *)
Definition cell (a delta w : R) (y : key) (ctr : R) (f : key -> nat) : box :=
  mkbox (fun c => if key_eq_dec c y then ctr - w else corner a delta f c)
        (fun c => if key_eq_dec c y then ctr + w else corner a delta f c + delta).

Lemma cell_volume cs a delta w y ctr f :
  volume cs (cell a delta w y ctr f) =
  (2 * w) ^ length (filter (is_key y) cs) * delta ^ length (filter (not_key y) cs).
Proof.
  unfold volume, cell. simpl. rewrite <- prodl_two_values. apply prodl_ext.
  intros c _. destruct (key_eq_dec c y); ring.
Qed.

Lemma cell_proper cs a delta w y ctr f :
  0 <= w -> 0 < delta -> proper_box cs (cell a delta w y ctr f).
Proof.
  intros Hw Hd c _. unfold cell. simpl. destruct (key_eq_dec c y); lra.
Qed.

(** One stage: for every graph index [j], the cells of the grid on the
    coordinates other than [y j], thickened around [Fj j] at the corner. *)
Definition stage_cover {T : Type} (cs : list key) (js : list T) (y : T -> key)
    (Fj : T -> (key -> R) -> R) (Rr : R) (N : nat) (delta w : R) : list box :=
  flat_map (fun j => map (fun f => cell (- Rr) delta w (y j) (Fj j (corner (- Rr) delta f)) f)
                         (grid N (filter (not_key (y j)) cs))) js.

Lemma stage_cover_proper {T : Type} cs (js : list T) y Fj Rr N delta w b :
  0 <= w -> 0 < delta -> In b (stage_cover cs js y Fj Rr N delta w) -> proper_box cs b.
Proof.
  intros Hw Hd Hb. unfold stage_cover in Hb. apply in_flat_map in Hb.
  destruct Hb as [j [_ Hb]]. apply in_map_iff in Hb. destruct Hb as [f [<- _]].
  apply cell_proper; assumption.
Qed.

Lemma pow_le_base a m : 0 <= a <= 1 -> (1 <= m)%nat -> a ^ m <= a.
Proof.
  intros Ha Hm. destruct m as [|m]; [lia|]. change (a ^ S m) with (a * a ^ m).
  assert (H1 : a ^ m <= 1).
  { clear Hm. induction m as [|m IH]; [simpl; lra|]. change (a ^ S m) with (a * a ^ m).
    pose proof (pow_le a m (proj1 Ha)). nra. }
  apply Rle_trans with (a * 1); [apply Rmult_le_compat_l; lra | lra].
Qed.

Lemma filter_is_key_length y cs : In y cs -> (1 <= length (filter (is_key y) cs))%nat.
Proof.
  intros Hy. assert (H : In y (filter (is_key y) cs)).
  { apply filter_In. split; [exact Hy|]. unfold is_key. destruct (key_eq_dec y y); congruence. }
  destruct (filter (is_key y) cs); [destruct H | simpl; lia].
Qed.

Lemma stage_volume {T : Type} cs (js : list T) y Fj Rr N delta w :
  (forall j, In j js -> In (y j) cs) -> 0 <= w -> 2 * w <= 1 -> 0 < delta ->
  1 <= 2 * Rr -> INR N * delta = 2 * Rr ->
  total_volume cs (stage_cover cs js y Fj Rr N delta w) <=
  INR (length js) * ((2 * Rr) ^ length cs * (2 * w)).
Proof.
  intros Hy Hw Hw1 Hd HR HN. apply total_volume_flat_map_le. intros j Hj.
  rewrite (total_volume_map_const _ _ _
    ((2 * w) ^ length (filter (is_key (y j)) cs) * delta ^ length (filter (not_key (y j)) cs)))
    by (intros; apply cell_volume).
  rewrite grid_length, pow_INR.
  replace (INR N ^ length (filter (not_key (y j)) cs) *
      ((2 * w) ^ length (filter (is_key (y j)) cs) * delta ^ length (filter (not_key (y j)) cs)))
    with ((INR N * delta) ^ length (filter (not_key (y j)) cs) *
          (2 * w) ^ length (filter (is_key (y j)) cs)) by (rewrite Rpow_mult_distr; ring).
  rewrite HN. apply Rmult_le_compat.
  - apply pow_le. lra.
  - apply pow_le. lra.
  - apply Rle_pow; [exact HR | apply filter_length_le_key].
  - apply pow_le_base; [lra | apply filter_is_key_length; apply Hy; exact Hj].
Qed.

Lemma Rabs_le_between' x r : Rabs x <= r -> - r <= x <= r.
Proof. unfold Rabs. destruct (Rcase_abs x); intros; lra. Qed.

Lemma between_Rabs_le x a b : a <= x <= a + b -> Rabs (x - a) <= b.
Proof. intros H. unfold Rabs. destruct (Rcase_abs (x - a)); lra. Qed.

Lemma stage_covers {T : Type} cs (js : list T) (y : T -> key) Fj (R K : nat) p j C :
  (1 <= R)%nat -> (1 <= K)%nat -> In j js -> 0 <= C ->
  (forall c, In c cs -> Rabs (p c) <= INR R) ->
  (forall q, (forall c, In c cs -> c <> y j -> Rabs (p c - q c) <= / INR K) ->
     Rabs (p (y j) - Fj j q) <= C * / INR K) ->
  exists b, In b (stage_cover cs js y Fj (INR R) (2 * R * K) (/ INR K) (C * / INR K)) /\
            in_box cs b p.
Proof.
  intros HR HK Hj HC Hp Hlip.
  assert (HKpos : 0 < INR K) by (apply lt_0_INR; lia).
  assert (Hd : 0 < / INR K) by (apply Rinv_0_lt_compat; exact HKpos).
  destruct (grid_cover (2 * R * K) (filter (not_key (y j)) cs) (- INR R) (/ INR K) p)
    as [f [Hf Hfc]].
  - lia.
  - exact Hd.
  - intros c Hc. apply filter_In in Hc. destruct Hc as [Hc _].
    rewrite !mult_INR. replace (INR 2 * INR R * INR K * / INR K) with (2 * INR R)
      by (simpl; field; lra).
    pose proof (Rabs_le_between' _ _ (Hp c Hc)). lra.
  - exists (cell (- INR R) (/ INR K) (C * / INR K) (y j)
                 (Fj j (corner (- INR R) (/ INR K) f)) f). split.
    + unfold stage_cover. apply in_flat_map. exists j. split; [exact Hj|].
      apply (in_map (fun g => cell (- INR R) (/ INR K) (C * / INR K) (y j)
                                   (Fj j (corner (- INR R) (/ INR K) g)) g)).
      exact Hf.
    + assert (Hnear : forall c, In c cs -> c <> y j ->
                corner (- INR R) (/ INR K) f c <= p c <= corner (- INR R) (/ INR K) f c + / INR K).
      { intros c Hc Hne. apply Hfc. apply filter_In. split; [exact Hc|].
        unfold not_key. destruct (key_eq_dec c (y j)); congruence. }
      intros c Hc. unfold cell. simpl. destruct (key_eq_dec c (y j)) as [->|Hne].
      * pose proof (Rabs_le_between' _ _ (Hlip _ (fun c Hc Hne =>
            between_Rabs_le _ _ _ (Hnear c Hc Hne)))). lra.
      * apply Hnear; assumption.
Qed.

(** The grid size of stage [m]: [1/K <= d0], [2 c / K <= 1] and
    [v / K <= eps / 2^(m+1)]. *)
Definition grid_size (d0 c v eps : R) (m : nat) : nat :=
  nat_above (/ d0 + 2 * c + v * 2 ^ S m / eps).

Lemma grid_size_spec d0 c v eps m : 0 < d0 -> 0 <= c -> 0 <= v -> 0 < eps ->
  let K := INR (grid_size d0 c v eps m) in
  0 < K /\ (1 <= grid_size d0 c v eps m)%nat /\ / K <= d0 /\ 2 * (c * / K) <= 1 /\
  v * / K <= eps * / 2 ^ S m.
Proof.
  intros Hd0 Hc Hv Heps K.
  assert (HKm : / d0 + 2 * c + v * 2 ^ S m / eps < K) by apply nat_above_spec.
  assert (H2m : 0 < 2 ^ S m) by (apply pow_lt; lra).
  assert (Hq : 0 <= v * 2 ^ S m / eps).
  { unfold Rdiv. apply Rmult_le_pos; [apply Rmult_le_pos; lra|]. left.
    apply Rinv_0_lt_compat, Heps. }
  pose proof (Rinv_0_lt_compat _ Hd0) as Hi.
  assert (HK : 0 < K) by lra.
  split; [exact HK|]. split.
  { unfold K in HK. destruct (grid_size d0 c v eps m); [simpl in HK; lra | lia]. }
  split; [|split].
  - rewrite <- (Rinv_inv d0). left. apply Rinv_lt_contravar; [apply Rmult_lt_0_compat; lra | lra].
  - apply (Rmult_le_reg_r K); [exact HK|].
    replace (2 * (c * / K) * K) with (2 * c) by (field; lra). lra.
  - apply (Rmult_le_reg_r (K * 2 ^ S m / eps)).
    { unfold Rdiv. apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat; assumption|].
      apply Rinv_0_lt_compat; exact Heps. }
    replace (v * / K * (K * 2 ^ S m / eps)) with (v * 2 ^ S m / eps) by (field; lra).
    replace (eps * / 2 ^ S m * (K * 2 ^ S m / eps)) with K by (field; lra). lra.
Qed.

(** [sum_{m < M} eps / 2^(m+1) <= eps]. *)
Lemma sumn_eps_halves eps M : 0 < eps -> sumn M (fun m => eps * / 2 ^ S m) <= eps.
Proof.
  intros Heps. rewrite sumn_scal_l, sumn_geometric.
  assert (0 < eps * / 2 ^ M)
    by (apply Rmult_lt_0_compat; [exact Heps | apply Rinv_0_lt_compat, pow_lt; lra]).
  assert (eps * (1 - / 2 ^ M) = eps - eps * / 2 ^ M) by ring. lra.
Qed.
