(** * Certificates: a block whose [W_up] has low rank is not absorbable below [2 (d - rho)]

    The rows of [W_up] lie in the span of the [rho] rows of an integer matrix
    [V = RV] ([rows_in_span]: a fact about every entry of [W_up], which pybridge
    checks exactly on the instance; the claim names [V] only, [O(rho d)] numbers).
    [check_low_rank d rho m RV P W D] decides over [Z] that
    - [D <> 0], every pivot column [P_s < d], and [m < 2 c] where [c] counts the
      free columns [F = free_cols d P] (the columns below [d] not in [P]);
    - for every free column [F_b] and every row [t < rho]:
      [D V_(t, F_b) = sum_s W_(b, s) V_(t, P_s)] ([null_ok]),
    i.e. the columns [x_b = D e_(F_b) - sum_s W_(b, s) e_(P_s)] ([null_mat]) are
    orthogonal to [V], hence to [W_up]; their rows [F] are [D I_c], so they are
    independent ([low_rank_premises]).
    [cert_low_rank_relu] / [cert_low_rank_pm]: for every such [W_up] and every
    [W_down], not absorbable at width [m] ([NullspaceWidth.nullspace_width_relu] /
    [nullspace_width_pm]).
    Examples: [lr_relu_example] ([V = (1 2 0)], [d = 3]: not absorbable at width 3 for any
    number of rows on that line), [lr_gelu_example], whose premise holds for the all-equal
    rows [lr_rows_in_span]; a wrong null vector is refused ([lr_tampered]). *)

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

(** [D V_(t, F_b) - sum_s W_(b, s) V_(t, P_s)]. *)
Definition null_entry (RV : list (list Z)) (F P : list nat) (W : list (list Z)) (D : Z)
    (t b : nat) : Z :=
  (D * zent RV t (nth b F O) - zsum (length P) (fun s => zent W b s * zent RV t (nth s P O)))%Z.

Definition null_ok (rho : nat) (RV : list (list Z)) (F P : list nat) (W : list (list Z))
    (D : Z) : bool :=
  forallb (fun b => forallb (fun t => Z.eqb (null_entry RV F P W D t b) 0) (seq 0 rho))
          (seq 0 (length F)).

Definition check_low_rank (d rho m : nat) (RV : list (list Z)) (P : list nat)
    (W : list (list Z)) (D : Z) : bool :=
  let F := free_cols d P in
  negb (Z.eqb D 0) && forallb (fun j => Nat.ltb j d) P && Nat.ltb m (2 * length F) &&
  null_ok rho RV F P W D.

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

Lemma null_mat_orth d (RV : list (list Z)) P W D t b :
  forallb (fun j => Nat.ltb j d) P = true -> (b < length (free_cols d P))%nat ->
  sumn d (fun j => zmat_rows 1 RV t j * null_mat (free_cols d P) P W D j b) =
  IZR (null_entry RV (free_cols d P) P W D t b).
Proof.
  set (F := free_cols d P). intros HP Hb.
  assert (HF : (nth b F O < d)%nat)
    by (assert (Hin : In (nth b F O) F) by (apply nth_In; exact Hb);
        apply free_cols_spec in Hin as [H _]; exact H).
  assert (HPs : forall s, (s < length P)%nat -> (nth s P O < d)%nat).
  { intros s Hs. rewrite forallb_forall in HP. apply Nat.ltb_lt, HP, nth_In, Hs. }
  unfold null_entry. rewrite minus_IZR, mult_IZR, IZR_zsum.
  unfold null_mat. rewrite (sumn_ext d _ (fun j =>
      (if Nat.eq_dec (nth b F O) j then IZR (zent RV t j) * IZR D else 0) -
      sumn (length P) (fun s => if Nat.eq_dec (nth s P O) j
                                then IZR (zent W b s) * IZR (zent RV t j) else 0))).
  - rewrite sumn_minus, sumn_delta by exact HF. rewrite sumn_swap. f_equal; [ring|].
    apply sumn_ext. intros s Hs. rewrite sumn_delta by exact (HPs s Hs).
    rewrite mult_IZR. reflexivity.
  - intros j _. rewrite zmat_rows_zent. unfold Rdiv. rewrite Rinv_1, Rmult_1_r.
    rewrite Rmult_minus_distr_l, <- sumn_scal_l. f_equal.
    + destruct (Nat.eq_dec (nth b F O) j); ring.
    + apply sumn_ext. intros s _. destruct (Nat.eq_dec (nth s P O) j); ring.
Qed.

Lemma low_rank_premises d n rho m RV P W D (A : mat) :
  check_low_rank d rho m RV P W D = true -> rows_in_span d n rho (zmat_rows 1 RV) A ->
  kills d n (length (free_cols d P)) A (null_mat (free_cols d P) P W D) /\
  rank_witness d (length (free_cols d P)) (null_mat (free_cols d P) P W D)
    (free_sel (free_cols d P)) unit_mat (IZR D) /\
  (m < 2 * length (free_cols d P))%nat.
Proof.
  unfold check_low_rank. intros H HA. set (F := free_cols d P) in *. cbv zeta in H.
  apply andb_prop in H as [H Hnull]. apply andb_prop in H as [H Hm].
  apply andb_prop in H as [HD HP]. apply Nat.ltb_lt in Hm.
  apply Bool.negb_true_iff, Z.eqb_neq in HD.
  assert (H0 : forall t b, (t < rho)%nat -> (b < length F)%nat -> null_entry RV F P W D t b = 0%Z).
  { intros t b Ht Hb. unfold null_ok in Hnull. rewrite forallb_forall in Hnull.
    specialize (Hnull b (proj2 (in_seq _ _ _) (conj (Nat.le_0_l b) Hb))).
    rewrite forallb_forall in Hnull. apply Z.eqb_eq, Hnull, in_seq. lia. }
  split; [|split; [split|exact Hm]].
  - intros i b Hi Hb. destruct (HA i Hi) as [w Hw].
    rewrite (sumn_ext d _ (fun j => sumn rho (fun t => w t * (zmat_rows 1 RV t j *
                                                                null_mat F P W D j b))))
      by (intros j Hj; rewrite (Hw j Hj), <- sumn_scal_r; apply sumn_ext; intros; ring).
    rewrite sumn_swap. apply sumn_zero. intros t Ht. rewrite sumn_scal_l.
    unfold F. rewrite (null_mat_orth d RV P W D t b HP Hb). fold F. rewrite (H0 t b Ht Hb). ring.
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

Theorem cert_low_rank_relu d n rho m RV P W D :
  check_low_rank d rho m RV P W D = true ->
  forall A B : mat, rows_in_span d n rho (zmat_rows 1 RV) A ->
  ~ absorbable_ungated relu d n m identity A B.
Proof.
  intros H A B HA Habs. destruct (low_rank_premises d n rho m RV P W D A H HA) as (HX & HW & Hm).
  pose proof (nullspace_width_relu d n m _ A B _ _ _ _ HX HW Habs). lia.
Qed.

Theorem cert_low_rank_pm (sigma : R -> R) d n rho m RV P W D :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  check_low_rank d rho m RV P W D = true ->
  forall A B : mat, rows_in_span d n rho (zmat_rows 1 RV) A ->
  ~ absorbable_ungated sigma d n m identity A B.
Proof.
  intros Hodd H0 Hun H A B HA Habs.
  destruct (low_rank_premises d n rho m RV P W D A H HA) as (HX & HW & Hm).
  pose proof (nullspace_width_pm sigma d n m _ A B _ _ _ _ Hodd H0 Hun HX HW Habs). lia.
Qed.

(** ** Examples: [V = (1 2 0)] in dimension 3 *)

(** Pivot column 0, free columns 1 and 2: [x_1 = e_1 - 2 e_0], [x_2 = e_2]. *)
Definition lr_V : list (list Z) := [[1; 2; 0]]%Z.
Definition lr_W : list (list Z) := [[2]; [0]]%Z.

Example lr_relu_example : forall A B : mat, rows_in_span 3 5 1 (zmat_rows 1 lr_V) A ->
  ~ absorbable_ungated relu 3 5 3 identity A B.
Proof. exact (cert_low_rank_relu 3 5 1 3 lr_V [0%nat] lr_W 1 ltac:(vm_compute; reflexivity)). Qed.

Example lr_gelu_example : forall A B : mat, rows_in_span 3 5 1 (zmat_rows 1 lr_V) A ->
  ~ absorbable_ungated gelu 3 5 3 identity A B.
Proof.
  exact (cert_low_rank_pm gelu 3 5 1 3 lr_V [0%nat] lr_W 1 gelu_odd_part gelu_zero
           gelu_even_part_unique ltac:(vm_compute; reflexivity)).
Qed.

(** The premise holds: five rows, each a multiple of [(1 2 0)]. *)
Lemma lr_rows_in_span :
  rows_in_span 3 5 1 (zmat_rows 1 lr_V) (fun i j => INR i * zmat_rows 1 lr_V 0%nat j).
Proof. intros i _. exists (fun _ => INR i). intros j _. simpl. ring. Qed.

(** A wrong null vector ([x_1 = e_1 - 3 e_0]), and a width the bound does not reach
    ([m = 4 = 2 c]), are refused. *)
Example lr_tampered :
  check_low_rank 3 1 3 lr_V [0%nat] [[3]; [0]]%Z 1 = false /\
  check_low_rank 3 1 4 lr_V [0%nat] lr_W 1 = false.
Proof. split; vm_compute; reflexivity. Qed.
