(** * Certificates: a block whose [W_up] has low rank is not absorbable below [2 (d - rho)]

    The rows of [W_up] lie in the span of the [rho] rows of an integer matrix [V],
    given by its [d] columns [CV] ([rows_in_span d n rho (zmat_cols 1 CV) A]: a fact
    about every entry of [W_up], which pybridge checks exactly on the instance; the
    claim names [V] only, [O(rho d)] numbers).
    [check_low_rank d rho m CV P W D] decides over [Z] that
    - [D <> 0], every pivot column [P_s < d], and [m < 2 c] where [c] counts the
      free columns [F = free_cols d P] (the columns below [d] not in [P]);
    - every free column [F_b] of [V] is [D^-1] times its null vector's combination of
      the pivot columns: [D V_(t, F_b) = sum_s W_(b, s) V_(t, P_s)] for [t < rho]
      ([null_entry]), in one pass over the columns ([null_walk]: about [d rho^2]
      steps; [check_low_rank_entries]),
    i.e. the columns [x_b = D e_(F_b) - sum_s W_(b, s) e_(P_s)] ([null_mat]) are
    orthogonal to [V], hence to [W_up]; their rows [F] are [D I_c], so they are
    independent ([low_rank_premises]).
    [cert_low_rank_relu] / [cert_low_rank_pm]: for every such [W_up] and every
    [W_down], not absorbable at width [m] ([NullspaceWidth.nullspace_width_relu] /
    [nullspace_width_pm]).
    Examples: [lr_relu_example] ([V = (1 2 0)], [d = 3]: not absorbable at width 3 for
    five rows on that line), [lr_gelu_example], whose premise holds for such rows
    ([lr_rows_in_span]); a wrong or missing null vector and a width the bound does not
    reach are refused ([lr_tampered]). *)

From Coq Require Import Reals ZArith Lia Lra List.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix IntSums.
From Absorb.decide Require Import R8.
From Absorb.certify Require Import ZMatrices NullspaceWidth.
Import ListNotations.
Open Scope R_scope.

(** Every row of [A] ([n] rows, [d] columns) is a combination of the [rho] rows of [V]. *)
Definition rows_in_span (d n rho : nat) (V A : mat) : Prop :=
  forall i, (i < n)%nat -> exists w : vec,
    forall j, (j < d)%nat -> A i j = sumn rho (fun t => w t * V t j).

Definition memb (j : nat) (P : list nat) : bool := existsb (Nat.eqb j) P.

(** The columns below [d] that are not pivots. *)
Definition free_cols (d : nat) (P : list nat) : list nat :=
  filter (fun j => negb (memb j P)) (seq 0 d).

(** Entry [(t, j)] of [V] given by its columns [CV]. *)
Definition cent (CV : list (list Z)) (t j : nat) : Z := nth t (nth j CV nil) 0%Z.

(** [D V_(t, F_b) - sum_s W_(b, s) V_(t, P_s)]. *)
Definition null_entry (CV : list (list Z)) (F P : list nat) (W : list (list Z)) (D : Z)
    (t b : nat) : Z :=
  (D * cent CV t (nth b F O) - zsum (length P) (fun s => zent W b s * cent CV t (nth s P O)))%Z.

(** ** The checker: one pass over the columns *)

(** The rows of [V] at the pivots: [VPr_t = (V_(t, P_s))_s]. *)
Definition pivot_rows (rho : nat) (CV : list (list Z)) (P : list nat) : list (list Z) :=
  map (fun t => map (fun p => cent CV t p) P) (seq 0 rho).

(** [D col_t = w . VPr_t] for every [t]. *)
Fixpoint col_null_ok (D : Z) (w col : list Z) (VPr : list (list Z)) : bool :=
  match col, VPr with
  | [], [] => true
  | x :: col', vp :: VPr' => Z.eqb (D * x - zdot w vp) 0 && col_null_ok D w col' VPr'
  | _, _ => false
  end.

(** Columns [j, j + 1, ...] ([cols]): each free one takes the next null vector's [W] row. *)
Fixpoint null_walk (P : list nat) (D : Z) (VPr : list (list Z)) (j : nat)
    (cols W : list (list Z)) : bool :=
  match cols with
  | [] => match W with [] => true | _ :: _ => false end
  | col :: cols' =>
      if memb j P then null_walk P D VPr (S j) cols' W
      else match W with
           | [] => false
           | w :: W' => col_null_ok D w col VPr && null_walk P D VPr (S j) cols' W'
           end
  end.

Definition check_low_rank (d rho m : nat) (CV : list (list Z)) (P : list nat)
    (W : list (list Z)) (D : Z) : bool :=
  negb (Z.eqb D 0) && forallb (fun j => Nat.ltb j d) P &&
  Nat.ltb m (2 * length (free_cols d P)) && Nat.eqb (length CV) d &&
  forallb (fun col => Nat.eqb (length col) rho) CV &&
  null_walk P D (pivot_rows rho CV P) 0 CV W.

(** ** What the pass checks *)

Lemma zdot_zsum u v : zdot u v = zsum (length v) (fun s => nth s u 0%Z * nth s v 0%Z)%Z.
Proof.
  revert u. induction v as [|y v IH]; intros [|x u]; [reflexivity | reflexivity | |].
  - change (length (y :: v)) with (S (length v)). rewrite zsum_shift.
    rewrite (zsum_ext (length v) _ (fun _ => 0%Z)) by (intros s _; reflexivity).
    rewrite zsum_zero. reflexivity.
  - change (zdot (x :: u) (y :: v)) with (x * y + zdot u v)%Z. rewrite IH.
    change (length (y :: v)) with (S (length v)). rewrite zsum_shift. reflexivity.
Qed.

Lemma col_null_ok_nth D w : forall col VPr, col_null_ok D w col VPr = true ->
  (length VPr = length col)%nat /\
  forall t, (t < length col)%nat -> (D * nth t col 0 - zdot w (nth t VPr nil) = 0)%Z.
Proof.
  induction col as [|x col IH]; intros [|vp VPr] H; simpl in H; try discriminate.
  - split; [reflexivity|]. intros t Ht. simpl in Ht. lia.
  - apply andb_prop in H as [H0 H]. apply Z.eqb_eq in H0. destruct (IH VPr H) as [Hl Ht].
    split; [simpl; lia|]. intros [|t] Hlt; [exact H0|]. apply Ht. simpl in Hlt. lia.
Qed.

Lemma in_filter_seq_ge (f : nat -> bool) a l x : In x (filter f (seq a l)) -> (a <= x)%nat.
Proof. intros H. apply filter_In in H as [H _]. apply in_seq in H. lia. Qed.

Lemma null_walk_spec P D VPr : forall cols j W, null_walk P D VPr j cols W = true ->
  (length W = length (filter (fun i => negb (memb i P)) (seq j (length cols))))%nat /\
  forall b, (b < length W)%nat ->
    col_null_ok D (nth b W nil)
      (nth (nth b (filter (fun i => negb (memb i P)) (seq j (length cols))) O - j) cols nil)
      VPr = true.
Proof.
  induction cols as [|col cols IH]; intros j W H.
  - simpl in H. destruct W; [|discriminate]. split; [reflexivity|]. intros b Hb. simpl in Hb. lia.
  - simpl in H. simpl length. rewrite <- cons_seq. simpl filter.
    set (F' := filter (fun i => negb (memb i P)) (seq (S j) (length cols))).
    assert (Hge : forall b, (b < length F')%nat -> (S j <= nth b F' O)%nat)
      by (intros b Hb;
          apply (in_filter_seq_ge (fun i => negb (memb i P)) (S j) (length cols)), nth_In, Hb).
    destruct (memb j P) eqn:Hm; simpl negb; cbv iota.
    + destruct (IH (S j) W H) as [Hl Hc]. fold F' in Hl, Hc. split; [exact Hl|].
      intros b Hb. specialize (Hc b Hb). rewrite Hl in Hb. specialize (Hge b Hb).
      replace (nth b F' O - j)%nat with (S (nth b F' O - S j)) by lia. exact Hc.
    + destruct W as [|w W]; [discriminate|]. apply andb_prop in H as [Hw H].
      destruct (IH (S j) W H) as [Hl Hc]. fold F' in Hl, Hc.
      split; [simpl; rewrite Hl; reflexivity|].
      intros [|b] Hb; simpl; [rewrite Nat.sub_diag; exact Hw|].
      simpl in Hb. specialize (Hc b ltac:(lia)). rewrite Hl in Hb. specialize (Hge b ltac:(lia)).
      replace (nth b F' O - j)%nat with (S (nth b F' O - S j)) by lia. exact Hc.
Qed.

Lemma pivot_rows_nth rho CV P t : (t < rho)%nat ->
  nth t (pivot_rows rho CV P) nil = map (fun p => cent CV t p) P.
Proof.
  intros Ht. unfold pivot_rows.
  rewrite (nth_indep _ nil (map (fun p => cent CV O p) P))
    by (rewrite map_length, seq_length; exact Ht).
  rewrite (map_nth (fun t0 => map (fun p => cent CV t0 p) P) (seq 0 rho) O t), seq_nth by exact Ht.
  reflexivity.
Qed.

Lemma check_low_rank_entries d rho m CV P W D :
  check_low_rank d rho m CV P W D = true ->
  forall t b, (t < rho)%nat -> (b < length (free_cols d P))%nat ->
    null_entry CV (free_cols d P) P W D t b = 0%Z.
Proof.
  unfold check_low_rank. intros H t b Ht Hb.
  apply andb_prop in H as [H Hw]. apply andb_prop in H as [H Hcols].
  apply andb_prop in H as [H Hlen]. apply Nat.eqb_eq in Hlen.
  destruct (null_walk_spec P D _ CV 0 W Hw) as [Hl Hc]. rewrite Hlen in Hl, Hc.
  fold (free_cols d P) in Hl, Hc. rewrite <- Hl in Hb. specialize (Hc b Hb).
  rewrite Nat.sub_0_r in Hc.
  rewrite Hl in Hb.
  set (f := nth b (free_cols d P) O) in *.
  assert (Hf : (f < d)%nat).
  { assert (Hin : In f (free_cols d P)) by (apply nth_In; exact Hb).
    unfold free_cols in Hin. apply filter_In in Hin as [Hin _]. apply in_seq in Hin. lia. }
  assert (Hcol : length (nth f CV nil) = rho).
  { rewrite forallb_forall in Hcols. apply Nat.eqb_eq, Hcols, nth_In. lia. }
  destruct (col_null_ok_nth D _ _ _ Hc) as [HlV HV]. rewrite Hcol in HV.
  specialize (HV t Ht). rewrite (pivot_rows_nth rho CV P t Ht), zdot_zsum, map_length in HV.
  unfold null_entry. fold f. rewrite <- HV. unfold cent. f_equal.
  apply zsum_ext. intros s Hs. unfold zent. f_equal.
  rewrite (nth_indep (map (fun p => cent CV t p) P) 0%Z (cent CV t O))
    by (rewrite map_length; exact Hs).
  rewrite (map_nth (fun p => cent CV t p) P O s). reflexivity.
Qed.

(** ** The null vectors and their independence *)

Definition null_mat (F P : list nat) (W : list (list Z)) (D : Z) : mat :=
  fun j b => (if Nat.eq_dec (nth b F O) j then IZR D else 0) -
             sumn (length P) (fun s => if Nat.eq_dec (nth s P O) j then IZR (zent W b s) else 0).

Definition free_sel (F : list nat) : mat :=
  fun i e => if Nat.eq_dec (nth e F O) i then 1 else 0.

Definition unit_mat : mat := fun a e => if Nat.eq_dec a e then 1 else 0.

Lemma free_cols_spec d P j : In j (free_cols d P) <-> (j < d)%nat /\ memb j P = false.
Proof.
  unfold free_cols. rewrite filter_In, in_seq, Bool.negb_true_iff. split; intros [H1 H2];
    split; [lia | exact H2 | lia | exact H2].
Qed.

Lemma memb_false_nth j P s : memb j P = false -> (s < length P)%nat -> nth s P O <> j.
Proof.
  intros Hm Hs E. assert (Hin : In j P) by (rewrite <- E; apply nth_In; exact Hs).
  assert (existsb (Nat.eqb j) P = true) by (apply existsb_exists; exists j; split;
    [exact Hin | apply Nat.eqb_refl]).
  unfold memb in Hm. congruence.
Qed.

Lemma free_cols_nodup d P : NoDup (free_cols d P).
Proof. apply NoDup_filter, seq_NoDup. Qed.

Lemma null_mat_free d P W D a b :
  (a < length (free_cols d P))%nat -> (b < length (free_cols d P))%nat ->
  null_mat (free_cols d P) P W D (nth a (free_cols d P) O) b = if Nat.eqb a b then IZR D else 0.
Proof.
  set (F := free_cols d P). intros Ha Hb.
  assert (Hin : In (nth a F O) F) by (apply nth_In; exact Ha).
  apply free_cols_spec in Hin as [_ Hm]. unfold null_mat.
  rewrite (sumn_zero (length P)).
  - destruct (Nat.eq_dec (nth b F O) (nth a F O)) as [E|E].
    + assert (a = b).
      { apply (proj1 (NoDup_nth F O) (free_cols_nodup d P)); [exact Ha | exact Hb | auto]. }
      subst b. rewrite Nat.eqb_refl. ring.
    + destruct (Nat.eqb_spec a b) as [->|]; [contradiction | ring].
  - intros s Hs. destruct (Nat.eq_dec (nth s P O) (nth a F O)) as [E|]; [|reflexivity].
    exfalso. exact (memb_false_nth _ P s Hm Hs E).
Qed.

Lemma null_mat_orth d (CV : list (list Z)) P W D t b :
  forallb (fun j => Nat.ltb j d) P = true -> (b < length (free_cols d P))%nat ->
  sumn d (fun j => zmat_cols 1 CV t j * null_mat (free_cols d P) P W D j b) =
  IZR (null_entry CV (free_cols d P) P W D t b).
Proof.
  set (F := free_cols d P). intros HP Hb.
  assert (HF : (nth b F O < d)%nat)
    by (assert (Hin : In (nth b F O) F) by (apply nth_In; exact Hb);
        apply free_cols_spec in Hin as [H _]; exact H).
  assert (HPs : forall s, (s < length P)%nat -> (nth s P O < d)%nat).
  { intros s Hs. rewrite forallb_forall in HP. apply Nat.ltb_lt, HP, nth_In, Hs. }
  unfold null_entry. rewrite minus_IZR, mult_IZR, IZR_zsum.
  unfold null_mat. rewrite (sumn_ext d _ (fun j =>
      (if Nat.eq_dec (nth b F O) j then IZR (cent CV t j) * IZR D else 0) -
      sumn (length P) (fun s => if Nat.eq_dec (nth s P O) j
                                then IZR (zent W b s) * IZR (cent CV t j) else 0))).
  - rewrite sumn_minus, sumn_delta by exact HF. rewrite sumn_swap. f_equal; [ring|].
    apply sumn_ext. intros s Hs. rewrite sumn_delta by exact (HPs s Hs).
    rewrite mult_IZR. reflexivity.
  - intros j _. change (zmat_cols 1 CV t j) with (IZR (cent CV t j) / IZR 1).
    unfold Rdiv. rewrite Rinv_1, Rmult_1_r.
    rewrite Rmult_minus_distr_l, <- sumn_scal_l. f_equal.
    + destruct (Nat.eq_dec (nth b F O) j); ring.
    + apply sumn_ext. intros s _. destruct (Nat.eq_dec (nth s P O) j); ring.
Qed.

Lemma low_rank_premises d n rho m CV P W D (A : mat) :
  check_low_rank d rho m CV P W D = true -> rows_in_span d n rho (zmat_cols 1 CV) A ->
  kills d n (length (free_cols d P)) A (null_mat (free_cols d P) P W D) /\
  rank_witness d (length (free_cols d P)) (null_mat (free_cols d P) P W D)
    (free_sel (free_cols d P)) unit_mat (IZR D) /\
  (m < 2 * length (free_cols d P))%nat.
Proof.
  intros H HA. pose proof (check_low_rank_entries d rho m CV P W D H) as H0.
  unfold check_low_rank in H. set (F := free_cols d P) in *.
  apply andb_prop in H as [H _]. apply andb_prop in H as [H _]. apply andb_prop in H as [H _].
  apply andb_prop in H as [H Hm]. apply andb_prop in H as [HD HP]. apply Nat.ltb_lt in Hm.
  apply Bool.negb_true_iff, Z.eqb_neq in HD.
  split; [|split; [split|exact Hm]].
  - intros i b Hi Hb. destruct (HA i Hi) as [w Hw].
    rewrite (sumn_ext d _ (fun j => sumn rho (fun t => w t * (zmat_cols 1 CV t j *
                                                                null_mat F P W D j b))))
      by (intros j Hj; rewrite (Hw j Hj), <- sumn_scal_r; apply sumn_ext; intros; ring).
    rewrite sumn_swap. apply sumn_zero. intros t Ht. rewrite sumn_scal_l.
    unfold F. rewrite (null_mat_orth d CV P W D t b HP Hb). fold F. rewrite (H0 t b Ht Hb). ring.
  - apply IZR_neq. exact HD.
  - intros a b Ha Hb. unfold unit_mat.
    rewrite (sumn_ext (length F) _ (fun e => if Nat.eq_dec a e then
               sumn d (fun i => free_sel F i e * null_mat F P W D i b) else 0))
      by (intros e _; destruct (Nat.eq_dec a e); ring).
    rewrite sumn_delta by exact Ha. unfold free_sel.
    assert (HFa : (nth a F O < d)%nat)
      by (assert (Hin : In (nth a F O) F) by (apply nth_In; exact Ha);
          apply free_cols_spec in Hin as [Hd _]; exact Hd).
    rewrite (sumn_ext d _ (fun i => if Nat.eq_dec (nth a F O) i then null_mat F P W D i b else 0))
      by (intros i _; destruct (Nat.eq_dec (nth a F O) i); ring).
    rewrite sumn_delta by exact HFa. exact (null_mat_free d P W D a b Ha Hb).
Qed.

(** ** The certificate lemmas *)

Theorem cert_low_rank_relu d n rho m CV P W D :
  check_low_rank d rho m CV P W D = true ->
  forall A B : mat, rows_in_span d n rho (zmat_cols 1 CV) A ->
  ~ absorbable_ungated relu d n m identity A B.
Proof.
  intros H A B HA Habs. destruct (low_rank_premises d n rho m CV P W D A H HA) as (HX & HW & Hm).
  pose proof (nullspace_width_relu d n m _ A B _ _ _ _ HX HW Habs). lia.
Qed.

Theorem cert_low_rank_pm (sigma : R -> R) d n rho m CV P W D :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  check_low_rank d rho m CV P W D = true ->
  forall A B : mat, rows_in_span d n rho (zmat_cols 1 CV) A ->
  ~ absorbable_ungated sigma d n m identity A B.
Proof.
  intros Hodd H0 Hun H A B HA Habs.
  destruct (low_rank_premises d n rho m CV P W D A H HA) as (HX & HW & Hm).
  pose proof (nullspace_width_pm sigma d n m _ A B _ _ _ _ Hodd H0 Hun HX HW Habs). lia.
Qed.

(** ** Examples: [V = (1 2 0)] in dimension 3 *)

(** [V] by columns; pivot column 0, free columns 1 and 2: [x_1 = e_1 - 2 e_0], [x_2 = e_2]. *)
Definition lr_V : list (list Z) := [[1]; [2]; [0]]%Z.
Definition lr_W : list (list Z) := [[2]; [0]]%Z.

Example lr_relu_example : forall A B : mat, rows_in_span 3 5 1 (zmat_cols 1 lr_V) A ->
  ~ absorbable_ungated relu 3 5 3 identity A B.
Proof. exact (cert_low_rank_relu 3 5 1 3 lr_V [0%nat] lr_W 1 ltac:(vm_compute; reflexivity)). Qed.

Example lr_gelu_example : forall A B : mat, rows_in_span 3 5 1 (zmat_cols 1 lr_V) A ->
  ~ absorbable_ungated gelu 3 5 3 identity A B.
Proof.
  exact (cert_low_rank_pm gelu 3 5 1 3 lr_V [0%nat] lr_W 1 gelu_odd_part gelu_zero
           gelu_even_part_unique ltac:(vm_compute; reflexivity)).
Qed.

(** The premise holds: five rows, each a multiple of [(1 2 0)]. *)
Lemma lr_rows_in_span :
  rows_in_span 3 5 1 (zmat_cols 1 lr_V) (fun i j => INR i * zmat_cols 1 lr_V 0%nat j).
Proof. intros i _. exists (fun _ => INR i). intros j _. simpl. ring. Qed.

(** A wrong null vector ([x_1 = e_1 - 3 e_0]), a missing one, and a width the bound does not
    reach ([m = 4 = 2 c]) are refused. *)
Example lr_tampered :
  check_low_rank 3 1 3 lr_V [0%nat] [[3]; [0]]%Z 1 = false /\
  check_low_rank 3 1 3 lr_V [0%nat] [[2]]%Z 1 = false /\
  check_low_rank 3 1 4 lr_V [0%nat] lr_W 1 = false.
Proof. repeat split; vm_compute; reflexivity. Qed.
