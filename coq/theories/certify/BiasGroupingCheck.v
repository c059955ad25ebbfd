(** * Checking a biased grouping with a zero-kink tail, exactly over the integers

    A biased block [x + B sigma(A x + c) + b0] is given by its augmented rows
    [(a_i, c_i)] over one denominator ([RA], [d + 1] entries a row):
    [A = zmat_rows dA RA] (the block reads the first [d] entries) and
    [c = zaug d dA RA] (entry [d]).  The classes are given the same way:
    [U = zmat_rows dU RU], shifts [s = zaug d dU RU].
    - [check_bias_grouping d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL]:
      every kept row has a nonzero [a_i] ([kept_nz]), and
      [GroupingCheck.check_grouping_drop] holds on the rows with the constant
      rows ([a_i = 0]) blanked ([strip_row]): kept rows then satisfy
      [(a_i, c_i) = lam_i (u_t, s_t)] entrywise (shift included), dropped rows
      [a_i = 0] or [b_i = 0], and [G], [L] as in the bias-free checker;
      [check_bias_grouping_sound]: a [sigma_bias_grouping_drop] for every
      [sigma] and [b0], with the offset [grouping_l0] (a term, never computed);
      [check_bias_grouping_pm_sound] with [check_pm_scales]:
      [pm_bias_grouping_drop];
    - [check_bias_lines] / [check_bias_signs]: the first [k] classes are
      canonical with biases ([u_t <> 0], augmented rows pairwise independent /
      not equal up to sign, nonzero kinks): [generic_bias_lines] /
      [generic_bias_signs] ([check_bias_lines_sound], [check_bias_signs_sound]). *)

From Coq Require Import Reals ZArith Lia Lra List.
From Absorb Require Import Sums Blocks BiasSpec BiasBlocks.
From Absorb.decide Require Import RidgeForm GroupingSound GroupingDrop.
From Absorb.certify Require Import ZMatrices GroupingCheck SignsCheck.
From Absorb.bias Require Import SigmaBiasGrouping.
Import ListNotations.
Open Scope bool_scope.

(** Entry [d] of every row: the biases of augmented rows. *)
Definition zaug (d : nat) (den : Z) (M : list (list Z)) : vec := fun i => zmat_rows den M i d.

(** A row whose first [d] entries vanish is blanked. *)
Definition strip_row (d : nat) (r : list Z) : list Z := if nz_upto d r then r else [].

(** Every kept row ([cls_i < K]) has a nonzero [a_i]. *)
Fixpoint kept_nz (d K n : nat) (RA : list (list Z)) (cls : list nat) : bool :=
  match n with
  | O => true
  | S n' =>
    (negb (Nat.ltb (hdd cls K) K) || nz_upto d (hdd RA [])) && kept_nz d K n' (tll RA) (tll cls)
  end.

Definition check_bias_grouping (d n k K : nat) (dA : Z) (RA : list (list Z)) (dB : Z)
    (CB : list (list Z)) (dU : Z) (RU : list (list Z)) (dl : Z) (LN : list Z) (cls : list nat)
    (dG : Z) (CG : list (list Z)) (dL : Z) (RL : list (list Z)) : bool :=
  kept_nz d K n RA cls &&
  check_grouping_drop d n k K dA (map (strip_row d) RA) dB CB dU RU dl LN cls dG CG dL RL.

Definition check_bias_lines (d k : nat) (dU : Z) (RU : list (list Z)) (dG : Z)
    (CG : list (list Z)) : bool :=
  all_upto (fun _ u => nz_upto d u) [] 0 k RU && check_lines_distinct (S d) k dU RU &&
  check_nonzero_cols d k dG CG.

Definition check_bias_signs (d k : nat) (dU : Z) (RU : list (list Z)) (dG : Z)
    (CG : list (list Z)) : bool :=
  all_upto (fun _ u => nz_upto d u) [] 0 k RU && check_signs_distinct (S d) k dU RU &&
  check_nonzero_cols d k dG CG.

(** ** Integer facts *)

Lemma nz_upto_false d : forall v, nz_upto d v = false -> forall p, (p < d)%nat -> nth p v 0%Z = 0%Z.
Proof.
  induction d as [|d IH]; intros v H p Hp; [lia|]. simpl in H.
  destruct (Z.eqb_spec (hdd v 0%Z) 0) as [E|_]; [|discriminate].
  destruct p as [|p]; [rewrite nth_hdd; exact E|]. rewrite nth_tll. apply IH; [exact H | lia].
Qed.

Lemma kept_nz_sound d K n : forall RA cls, kept_nz d K n RA cls = true ->
  forall i, (i < n)%nat -> (nth i cls K < K)%nat -> nz_upto d (nth i RA []) = true.
Proof.
  induction n as [|n IH]; intros RA cls H i Hi Hc; [lia|]. simpl in H.
  apply andb_prop in H as [H0 H]. destruct i as [|i].
  - rewrite nth_hdd in Hc. rewrite nth_hdd. destruct (Nat.ltb_spec (hdd cls K) K); [exact H0 | lia].
  - rewrite nth_tll in Hc. rewrite nth_tll. apply (IH _ _ H); [lia | exact Hc].
Qed.

Lemma nth_strip d RA : forall i, nth i (map (strip_row d) RA) [] = strip_row d (nth i RA []).
Proof.
  induction RA as [|r RA IH]; intros [|i]; simpl; try reflexivity; try apply IH;
    unfold strip_row; destruct (nz_upto d []); reflexivity.
Qed.

Lemma strip_agree d dA RA i j : (j < d)%nat ->
  zmat_rows dA (map (strip_row d) RA) i j = zmat_rows dA RA i j.
Proof.
  intros Hj. unfold zmat_rows. rewrite nth_strip. unfold strip_row.
  destruct (nz_upto d (nth i RA [])) eqn:E; [reflexivity|].
  rewrite (nz_upto_false d _ E j Hj). destruct j; reflexivity.
Qed.

(** ** Soundness of the grouping *)

Theorem check_bias_grouping_sound (sigma : R -> R) d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL
    (b0 : vec) :
  check_bias_grouping d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  sigma_bias_grouping_drop sigma d n k K (zmat_rows dA RA) (zaug d dA RA) (zmat_cols dB CB) b0
    (zmat_rows dU RU) (zaug d dU RU) (zmat_cols dG CG) (zmat_rows dL RL)
    (grouping_l0 sigma d n K (zaug d dA RA) (zmat_cols dB CB) b0 (zaug d dU RU)
       (fun i => nth i cls K) (fun i => IZR (nth i LN 0%Z) / IZR dl))
    (fun i => nth i cls K) (fun i => IZR (nth i LN 0%Z) / IZR dl).
Proof.
  intros H. apply andb_prop in H as [Hk Hg].
  destruct (check_grouping_drop_sound _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Hg)
    as [HkK [[Hkeep [Hdrop [HG HL]]] HZ]].
  destruct (check_parts _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Hg) as (HA & _ & HU & Hl & _).
  split; [exact HkK|]. split; [|exact HZ].
  split; [split; [|split; [|split; [exact HG | exact HL]]] | split; [|intros; reflexivity]].
  - intros i Hi Hc. destruct (Hkeep i Hi Hc) as [Hnz Ha]. split; [exact Hnz|].
    intros j Hj. rewrite <- (strip_agree d dA RA i j Hj). exact (Ha j Hj).
  - intros i Hi Hc. destruct (Hdrop i Hi Hc) as [Ha|Hb]; [left | right; exact Hb].
    intros j Hj. rewrite <- (strip_agree d dA RA i j Hj). exact (Ha j Hj).
  - intros i Hi Hc. pose proof (kept_nz_sound d K n RA cls Hk i Hi Hc) as Hn.
    pose proof
      (row_ok_at d n k K dA (map (strip_row d) RA) dB CB dU RU dl LN cls dG CG dL RL i Hg Hi) as R.
    unfold row_ok in R. simpl in R. rewrite nth_strip in R. unfold strip_row in R. rewrite Hn in R.
    destruct (Z.ltb_spec (Z.of_nat (nth i cls K)) (Z.of_nat K)) as [_|C]; [|lia].
    apply andb_prop in R as [_ Heq]. rewrite Nat2Z.id in Heq.
    pose proof (zveqb_sound _ _ Heq d) as E. rewrite !nth_zvscale in E.
    unfold zaug, zmat_rows. apply scale_eq_real; assumption.
Qed.

Theorem check_bias_grouping_pm_sound (sigma : R -> R) d n k K dA RA dB CB dU RU dl LN cls
    dG CG dL RL
    (b0 : vec) :
  check_bias_grouping d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  pm_bias_grouping_drop sigma d n k K (zmat_rows dA RA) (zaug d dA RA) (zmat_cols dB CB) b0
    (zmat_rows dU RU) (zaug d dU RU) (zmat_cols dG CG) (zmat_rows dL RL)
    (grouping_l0 sigma d n K (zaug d dA RA) (zmat_cols dB CB) b0 (zaug d dU RU)
       (fun i => nth i cls K) (fun i => IZR (nth i LN 0%Z) / IZR dl))
    (fun i => nth i cls K) (fun i => IZR (nth i LN 0%Z) / IZR dl).
Proof.
  intros H Hpm.
  split; [exact (check_bias_grouping_sound sigma _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ b0 H)|].
  apply andb_prop in H as [_ Hg].
  destruct (check_parts _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ Hg) as (_ & _ & _ & Hl & _).
  exact (check_pm_scales_sound n K dl LN cls Hl Hpm).
Qed.

(** ** Soundness of the canonical classes *)

Lemma aug_row_zaug d dU RU t j : (j < S d)%nat ->
  aug_row d (zmat_rows dU RU) (zaug d dU RU) t j = row (zmat_rows dU RU) t j.
Proof.
  intros Hj. unfold aug_row, zaug, row. destruct (Nat.ltb_spec j d); [reflexivity|].
  replace j with d by lia. reflexivity.
Qed.

Lemma lin_independent2_ext d (u v u' v' : vec) :
  (forall j, (j < d)%nat -> u' j = u j) -> (forall j, (j < d)%nat -> v' j = v j) ->
  lin_independent2 d u v -> lin_independent2 d u' v'.
Proof.
  intros Hu Hv H a b Hab. apply H. intros j Hj. rewrite <- (Hu j Hj), <- (Hv j Hj).
  exact (Hab j Hj).
Qed.

Lemma not_pm_equal_ext d (u v u' v' : vec) :
  (forall j, (j < d)%nat -> u' j = u j) -> (forall j, (j < d)%nat -> v' j = v j) ->
  ~ pm_equal d u v -> ~ pm_equal d u' v'.
Proof.
  intros Hu Hv H [E|E]; apply H; [left | right]; intros j Hj;
    rewrite <- (Hu j Hj), <- (Hv j Hj); exact (E j Hj).
Qed.

Lemma nonzero_rows_of_check d k dU RU : (0 < dU)%Z ->
  all_upto (fun _ u => nz_upto d u) [] 0 k RU = true ->
  forall t, (t < k)%nat -> nonzero_vec d (row (zmat_rows dU RU) t).
Proof.
  intros HU H t Ht. exact (nz_upto_nonzero_vec d dU _ HU (all_upto_sound0 _ _ _ _ H t Ht)).
Qed.

Theorem check_bias_lines_sound d k dU RU dG CG :
  check_bias_lines d k dU RU dG CG = true ->
  generic_bias_lines d k (zmat_rows dU RU) (zaug d dU RU) (zmat_cols dG CG).
Proof.
  intros H. unfold check_bias_lines in H. apply andb_prop in H as [H HG].
  apply andb_prop in H as [Hnz Hl].
  pose proof (check_lines_distinct_sound _ _ _ _ Hl) as [_ Hind].
  unfold check_lines_distinct in Hl. apply andb_prop in Hl as [Hl _].
  apply andb_prop in Hl as [HU _].
  apply Z.ltb_lt in HU.
  split; [exact (nonzero_rows_of_check d k dU RU HU Hnz)|].
  split; [|exact (check_nonzero_cols_sound _ _ _ _ HG)].
  intros i j Hi Hj Hne.
  apply (lin_independent2_ext (S d) (row (zmat_rows dU RU) i) (row (zmat_rows dU RU) j));
    [intros q Hq; apply aug_row_zaug; exact Hq .. | exact (Hind i j Hi Hj Hne)].
Qed.

Theorem check_bias_signs_sound d k dU RU dG CG :
  check_bias_signs d k dU RU dG CG = true ->
  generic_bias_signs d k (zmat_rows dU RU) (zaug d dU RU) (zmat_cols dG CG).
Proof.
  intros H. unfold check_bias_signs in H. apply andb_prop in H as [H HG].
  apply andb_prop in H as [Hnz Hs].
  pose proof (check_signs_distinct_sound _ _ _ _ Hs) as [_ Hsd].
  unfold check_signs_distinct in Hs. apply andb_prop in Hs as [Hs _].
  apply andb_prop in Hs as [HU _].
  apply Z.ltb_lt in HU.
  split; [exact (nonzero_rows_of_check d k dU RU HU Hnz)|].
  split; [|exact (check_nonzero_cols_sound _ _ _ _ HG)].
  intros i j Hi Hj Hne.
  apply (not_pm_equal_ext (S d) (row (zmat_rows dU RU) i) (row (zmat_rows dU RU) j));
    [intros q Hq; apply aug_row_zaug; exact Hq .. | exact (Hsd i j Hi Hj Hne)].
Qed.

(** ** Examples *)

(** [x + relu(x + 1) + relu(2x + 2) + 3 relu(0 x - 1)]: one class [(1, 1)],
    scales [1, 2], kink [3], [L = 1]; the constant row (here [relu(-1) = 0]) is
    dropped. *)
Definition bgx_RA : list (list Z) := [[1; 1]; [2; 2]; [0; -1]]%Z.
Definition bgx_CB : list (list Z) := [[1]; [1]; [3]]%Z.

Example bgx_grouping_ok :
  check_bias_grouping 1 3 1 1 1 bgx_RA 1 bgx_CB 1 [[1; 1]]%Z 1 [1; 2; 0]%Z [0; 0; 1]%nat 1 [[3]]%Z 1
    [[1]]%Z = true /\
  check_bias_lines 1 1 1 [[1; 1]]%Z 1 [[3]]%Z = true.
Proof. split; vm_compute; reflexivity. Qed.

(** Tampered: a wrong shift, a wrong scale, the constant row claimed in the class. *)
Example bgx_grouping_tampered :
  check_bias_grouping 1 3 1 1 1 bgx_RA 1 bgx_CB 1 [[1; 2]]%Z 1 [1; 2; 0]%Z [0; 0; 1]%nat 1 [[3]]%Z 1
    [[1]]%Z = false /\
  check_bias_grouping 1 3 1 1 1 bgx_RA 1 bgx_CB 1 [[1; 1]]%Z 1 [1; 1; 0]%Z [0; 0; 1]%nat 1 [[3]]%Z 1
    [[1]]%Z = false /\
  check_bias_grouping 1 3 1 1 1 bgx_RA 1 bgx_CB 1 [[1; 1]]%Z 1 [1; 2; 1]%Z [0; 0; 0]%nat 1 [[6]]%Z 1
    [[1]]%Z = false.
Proof. repeat split; vm_compute; reflexivity. Qed.

(** Two classes on the same hyperplane are not canonical; parallel [a] with different shifts are. *)
Example bgx_lines :
  check_bias_lines 1 2 1 [[1; 1]; [2; 2]]%Z 1 [[1]; [1]]%Z = false /\
  check_bias_lines 1 2 1 [[1; 1]; [2; 3]]%Z 1 [[1]; [1]]%Z = true /\
  check_bias_signs 1 2 1 [[1; 1]; [-1; -1]]%Z 1 [[1]; [1]]%Z = false /\
  check_bias_signs 1 2 1 [[1; 1]; [2; 2]]%Z 1 [[1]; [1]]%Z = true.
Proof. repeat split; vm_compute; reflexivity. Qed.
