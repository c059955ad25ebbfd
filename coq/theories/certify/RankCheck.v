(** * Certificates refuting R8's width condition (not absorbable at [k < m])

    [check_rank_refute d k m dL RL dG CG dU RU es] decides, exactly over
    [Z], that no [(T, S, r, E, P, Q)] witnesses
    [width_condition d k m U G L] for [U = zmat_rows dU RU],
    [G = zmat_cols dG CG], [L = zmat_rows dL RL].  It walks through every
    pair of disjoint class sets [(T, S)] ([enum_ts k], [3^k] pairs, as lists
    of booleans), skips those with [k + |T| > m], and checks for the others,
    in order, one [rank_entry]: integer matrices [X] ([c] columns of
    length [d]), [Y] ([c] columns), [Z] ([c] rows) and [D <> 0] with
    - [m < k + |T| + 2c] (so every admissible [r] has [r < c]);
    - [u_t . X_b = 0] for [t in T], [b < c];
    - [Z (Y^T M X) = D I_c] for the integer matrix
      [M = dL dG dU (L + sum_{t in S} gamma_t u_t^T)] ([shifted_int]).
    Soundness ([check_rank_refute_sound]) is [RankRefute.rank_refute_width]
    for every pair.  [cert_r8_rank_relu] / [cert_r8_rank_pm] add a canonical
    grouping of a concrete block (as [R8Certify.cert_r8_no_width_condition_*]):
    the block is not absorbable at width [m].
    Examples: [x + e1 relu(x1) + e2 relu(x2)] in [R^2] ([k = 2]) is not
    absorbable at width [3] (ReLU and GELU), but is at width [4]; tampered
    certificates (an [X] column not orthogonal to [u_t], a wrong [D], a
    missing entry) are rejected. *)

From Coq Require Import Reals ZArith Lia Lra List.
From Absorb Require Import Sums Blocks ActivationDefs Activations ReluSubmatrix Ridge IntSums.
From Absorb.decide Require Import RidgeForm R8.
From Absorb.certify Require Import ZMatrices GroupingCheck SignsCheck R8Certify RankRefute.
Import ListNotations.
Open Scope bool_scope.

(** ** Tables: a function of indices, computed once *)

Definition tab (n m : nat) (f : nat -> nat -> Z) : list (list Z) :=
  map (fun i => map (f i) (seq 0 m)) (seq 0 n).

Lemma zent_tab n m f i j : (i < n)%nat -> (j < m)%nat -> zent (tab n m f) i j = f i j.
Proof.
  intros Hi Hj. unfold zent, tab.
  rewrite (nth_map_lt _ _ i 0%nat) by (rewrite seq_length; exact Hi). rewrite seq_nth by exact Hi.
  rewrite (nth_map_lt _ _ j 0%nat) by (rewrite seq_length; exact Hj). rewrite seq_nth by exact Hj.
  reflexivity.
Qed.

Lemma forallb_seq_sound (f : nat -> bool) n : forallb f (seq 0 n) = true -> forall i, (i < n)%nat ->
    f i = true.
Proof. intros H i Hi. rewrite forallb_forall in H. apply H, in_seq. lia. Qed.

(** ** Class sets as lists, and all disjoint pairs *)

Fixpoint bl (k : nat) (f : nat -> bool) : list bool :=
  match k with O => [] | S k' => f O :: bl k' (fun t => f (S t)) end.

Lemma nth_bl k : forall f t, (t < k)%nat -> nth t (bl k f) false = f t.
Proof.
  induction k as [|k IH]; intros f t Ht; [lia|]. destruct t as [|t]; [reflexivity|].
  simpl. apply (IH (fun t => f (S t))). lia.
Qed.

Lemma count_ext k (f g : nat -> bool) : (forall t, (t < k)%nat -> f t = g t) ->
    count k f = count k g.
Proof.
  induction k as [|k IH]; intros H; [reflexivity|]. simpl.
  rewrite IH by (intros; apply H; lia). rewrite H by lia. reflexivity.
Qed.

Lemma count_bl k f : count k (fun t => nth t (bl k f) false) = count k f.
Proof. apply count_ext. intros t Ht. apply nth_bl, Ht. Qed.

(** Class [0] is chosen last (outermost in the list): neither, [T], [S]. *)
Fixpoint enum_ts (k : nat) : list (list bool * list bool) :=
  match k with
  | O => [([], [])]
  | S k' => flat_map (fun p => [(false :: fst p, false :: snd p); (true :: fst p, false :: snd p);
                               (false :: fst p, true :: snd p)]) (enum_ts k')
  end.

Lemma in_enum_ts k : forall Tf Sf : nat -> bool,
  (forall t, (t < k)%nat -> Tf t = true -> Sf t = false) -> In (bl k Tf, bl k Sf) (enum_ts k).
Proof.
  induction k as [|k IH]; intros Tf Sf H; [left; reflexivity|]. simpl. apply in_flat_map.
  exists (bl k (fun t => Tf (S t)), bl k (fun t => Sf (S t))). split.
  - apply IH. intros t Ht. apply H. lia.
  - simpl. destruct (Tf O) eqn:T0, (Sf O) eqn:S0; auto.
    rewrite (H O ltac:(lia) T0) in S0. discriminate.
Qed.

(** [f p e] for each pair [p] not skipped, with the entries in order. *)
Fixpoint walk {A B} (skip : A -> bool) (f : A -> B -> bool) (ps : list A) (es : list B) : bool :=
  match ps with
  | [] => true
  | p :: ps' => if skip p then walk skip f ps' es
                else match es with [] => false | e :: es' => f p e && walk skip f ps' es' end
  end.

Lemma walk_sound {A B} (skip : A -> bool) (f : A -> B -> bool) ps : forall es,
  walk skip f ps es = true -> forall p, In p ps -> skip p = true \/ exists e, f p e = true.
Proof.
  induction ps as [|q ps IH]; intros es H p Hp; [destruct Hp|]. simpl in H.
  destruct (skip q) eqn:Hq.
  - destruct Hp as [<-|Hp]; [left; exact Hq | exact (IH es H p Hp)].
  - destruct es as [|e es]; [discriminate|]. apply andb_prop in H as [He H].
    destruct Hp as [<-|Hp]; [right; exists e; exact He | exact (IH es H p Hp)].
Qed.

(** ** The checker *)

Record rank_entry :=
  { rk_c : nat; rk_X : list (list Z); rk_Y : list (list Z); rk_Z : list (list Z); rk_D : Z }.

(** [dL dG dU (L + sum_{t in S} G_t U_t^T)], entries below [d]. *)
Definition shifted_int (d k : nat) (Sl : list bool) (dL : Z) (RL : list (list Z)) (dG : Z)
    (CG : list (list Z))
    (dU : Z) (RU : list (list Z)) : list (list Z) :=
  tab d d (fun i j => (dG * dU * zent RL i j +
                       dL * zsum k
                         (fun t => if nth t Sl false then zent CG t i * zent RU t j else 0))%Z).

Definition check_rank_entry (d k m : nat) (dL : Z) (RL : list (list Z)) (dG : Z)
    (CG : list (list Z))
    (dU : Z) (RU : list (list Z)) (p : list bool * list bool) (en : rank_entry) : bool :=
  let Tl := fst p in
  let c := rk_c en in
  let X := rk_X en in
  let Y := rk_Y en in
  let M := shifted_int d k (snd p) dL RL dG CG dU RU in
  let MX := tab d c (fun i b => zsum d (fun j => zent X b j * zent M i j)%Z) in
  let K := tab c c (fun a b => zsum d (fun i => zent Y a i * zent MX i b)%Z) in
  negb (Z.eqb (rk_D en) 0) &&
  Nat.ltb m (k + count k (fun t => nth t Tl false) + 2 * c) &&
  forallb (fun t => negb (nth t Tl false) ||
                    forallb (fun b => Z.eqb (zsum d (fun j => zent RU t j * zent X b j)%Z) 0)
                      (seq 0 c))
          (seq 0 k) &&
  forallb (fun a => forallb (fun b => Z.eqb (zsum c (fun e => zent (rk_Z en) a e * zent K e b)%Z)
                                            (if Nat.eqb a b then rk_D en else 0%Z))
                            (seq 0 c))
          (seq 0 c).

Definition check_rank_refute (d k m : nat) (dL : Z) (RL : list (list Z)) (dG : Z)
    (CG : list (list Z))
    (dU : Z) (RU : list (list Z)) (es : list rank_entry) : bool :=
  Z.ltb 0 dL && Z.ltb 0 dG && Z.ltb 0 dU &&
  walk (fun p => Nat.ltb m (k + count k (fun t => nth t (fst p) false)))
       (check_rank_entry d k m dL RL dG CG dU RU) (enum_ts k) es.

(** ** Soundness *)

Open Scope R_scope.

Lemma sumn_IZR_div n (f g : nat -> Z) C :
  sumn n (fun i => IZR (f i) * (IZR (g i) / C)) = IZR (zsum n (fun i => f i * g i)%Z) / C.
Proof.
  rewrite IZR_zsum. unfold Rdiv. rewrite <- sumn_scal_r. apply sumn_ext. intros i _.
  rewrite mult_IZR. ring.
Qed.

Lemma shifted_int_real d k Sf dL RL dG CG dU RU i j :
  (0 < dL)%Z -> (0 < dG)%Z -> (0 < dU)%Z -> (i < d)%nat -> (j < d)%nat ->
  zmat_rows dL RL i j + masked_outer k Sf (zmat_cols dG CG) (zmat_rows dU RU) i j =
  IZR (zent (shifted_int d k (bl k Sf) dL RL dG CG dU RU) i j) / (IZR dL * IZR dG * IZR dU).
Proof.
  intros HL HG HU Hi Hj. pose proof (IZR_pos_neq0 _ HL). pose proof (IZR_pos_neq0 _ HG).
  pose proof (IZR_pos_neq0 _ HU). unfold shifted_int. rewrite zent_tab by assumption.
  rewrite plus_IZR, !mult_IZR, IZR_zsum. unfold masked_outer.
  rewrite
    (sumn_ext k _ (fun t => IZR (if nth t (bl k Sf) false then zent CG t i * zent RU t j else 0)
                                  * / (IZR dG * IZR dU))).
  - rewrite sumn_scal_r. rewrite zmat_rows_zent. field. repeat split; assumption.
  - intros t Ht. rewrite nth_bl by exact Ht. destruct (Sf t).
    + rewrite mult_IZR, zmat_cols_zent, zmat_rows_zent. field. split; assumption.
    + simpl. ring.
Qed.

Lemma check_rank_entry_sound d k m dL RL dG CG dU RU (Tf Sf : nat -> bool) en :
  (0 < dL)%Z -> (0 < dG)%Z -> (0 < dU)%Z ->
  check_rank_entry d k m dL RL dG CG dU RU (bl k Tf, bl k Sf) en = true ->
  ~ exists r E P Q, (k + count k Tf + 2 * r <= m)%nat /\
      forall i j, (i < d)%nat -> (j < d)%nat ->
        zmat_rows dL RL i j + masked_outer k Sf (zmat_cols dG CG) (zmat_rows dU RU) i j =
        masked_outer k Tf E (zmat_rows dU RU) i j + low_rank r P Q i j.
Proof.
  intros HL HG HU H. unfold check_rank_entry in H. simpl fst in H. simpl snd in H.
  repeat rewrite Bool.andb_true_iff in H. destruct H as [[[HD Hc] Horth] HZ].
  rewrite Bool.negb_true_iff, Z.eqb_neq in HD. rewrite Nat.ltb_lt, count_bl in Hc.
  set (D0 := IZR dL * IZR dG * IZR dU).
  assert (HD0 : D0 <> 0) by (unfold D0; repeat apply Rmult_integral_contrapositive_currified;
                              apply IZR_pos_neq0; assumption).
  apply (rank_refute_width d k m (rk_c en) _ _ _ (fun j b => IZR (zent (rk_X en) b j))
           (fun i a => IZR (zent (rk_Y en) a i)) (fun a e => IZR (zent (rk_Z en) a e)) Tf Sf
           (IZR (rk_D en) / D0)).
  - unfold Rdiv.
    apply Rmult_integral_contrapositive_currified;
      [apply not_0_IZR, HD | apply Rinv_neq_0_compat, HD0].
  - exact Hc.
  - intros t b Ht HT Hb. pose proof (forallb_seq_sound _ _ Horth t Ht) as Ht'. simpl in Ht'.
    rewrite nth_bl, HT in Ht' by exact Ht. simpl in Ht'.
    pose proof (forallb_seq_sound _ _ Ht' b Hb) as Hz. simpl in Hz. apply Z.eqb_eq in Hz.
    rewrite (sumn_ext d _ (fun j => IZR (zent (rk_X en) b j) * (IZR (zent RU t j) / IZR dU)))
      by (intros j _; rewrite zmat_rows_zent; ring).
    rewrite sumn_IZR_div. rewrite (zsum_ext d _ (fun j => zent RU t j * zent (rk_X en) b j)%Z)
      by (intros; ring). rewrite Hz. unfold Rdiv. ring.
  - intros a b Ha Hb.
    assert (Hin : forall i, (i < d)%nat ->
      sumn d
      (fun j => (zmat_rows dL RL i j + masked_outer k Sf (zmat_cols dG CG) (zmat_rows dU RU) i j) *
                       IZR (zent (rk_X en) b j)) =
      IZR (zent (tab d (rk_c en) (fun i b => zsum d (fun j => zent (rk_X en) b j *
             zent (shifted_int d k (bl k Sf) dL RL dG CG dU RU) i j))) i b)%Z / D0).
    { intros i Hi. rewrite zent_tab by assumption. rewrite <- sumn_IZR_div. apply sumn_ext.
      intros j Hj.
      rewrite (shifted_int_real d k Sf dL RL dG CG dU RU i j) by assumption. unfold D0. ring. }
    rewrite (sumn_ext (rk_c en) _ (fun e => IZR (zent (rk_Z en) a e) *
      (IZR (zent (tab (rk_c en) (rk_c en) (fun a b => zsum d (fun i => zent (rk_Y en) a i *
          zent (tab d (rk_c en) (fun i b => zsum d (fun j => zent (rk_X en) b j *
             zent (shifted_int d k (bl k Sf) dL RL dG CG dU RU) i j)%Z)) i b)%Z)) e b) / D0))).
    + rewrite sumn_IZR_div.
      pose proof (forallb_seq_sound _ _ HZ a Ha) as Ha'. simpl in Ha'.
      pose proof (forallb_seq_sound _ _ Ha' b Hb) as Hab. simpl in Hab. apply Z.eqb_eq in Hab.
      rewrite Hab. destruct (Nat.eqb a b); [reflexivity | unfold Rdiv; ring].
    + intros e He. f_equal. rewrite zent_tab by assumption. rewrite <- sumn_IZR_div.
      apply sumn_ext. intros i Hi. rewrite Hin by exact Hi. reflexivity.
Qed.

(** Any entry checker sound for one [(T, S)] refutes the width condition when the walk over
    every [(T, S)] not skipped succeeds ([check_rank_refute], [RankSparse.check_sparse_refute]). *)
Lemma walk_refute_sound {En} d k m dL RL dG CG dU RU
    (entry : list bool * list bool -> En -> bool) es :
  (forall (Tf Sf : nat -> bool) en, (0 < dL)%Z -> (0 < dG)%Z -> (0 < dU)%Z ->
    entry (bl k Tf, bl k Sf) en = true ->
    ~ exists r E P Q, (k + count k Tf + 2 * r <= m)%nat /\
        forall i j, (i < d)%nat -> (j < d)%nat ->
          zmat_rows dL RL i j + masked_outer k Sf (zmat_cols dG CG) (zmat_rows dU RU) i j =
          masked_outer k Tf E (zmat_rows dU RU) i j + low_rank r P Q i j) ->
  Z.ltb 0 dL && Z.ltb 0 dG && Z.ltb 0 dU &&
    walk (fun p => Nat.ltb m (k + count k (fun t => nth t (fst p) false))) entry (enum_ts k) es
    = true ->
  ~ width_condition d k m (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL).
Proof.
  intros Hentry H (Tf & Sf & r & E & P & Q & Hdisj & Hm & HM).
  repeat rewrite Bool.andb_true_iff in H. destruct H as [[[HL HG] HU] Hw].
  rewrite Z.ltb_lt in HL, HG, HU.
  destruct (walk_sound _ _ _ _ Hw _ (in_enum_ts k Tf Sf Hdisj)) as [Hskip | [en He]].
  - simpl in Hskip. rewrite Nat.ltb_lt, count_bl in Hskip. lia.
  - apply (Hentry Tf Sf en HL HG HU He). exists r, E, P, Q. split; assumption.
Qed.

Theorem check_rank_refute_sound d k m dL RL dG CG dU RU es :
  check_rank_refute d k m dL RL dG CG dU RU es = true ->
  ~ width_condition d k m (zmat_rows dU RU) (zmat_cols dG CG) (zmat_rows dL RL).
Proof. apply walk_refute_sound. exact (check_rank_entry_sound d k m dL RL dG CG dU RU). Qed.

(** ** Certificate lemmas: not absorbable at width [m] *)

Theorem cert_r8_rank_relu d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL es :
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_lines_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  check_rank_refute d k m dL RL dG CG dU RU es = true ->
  ~ absorbable_ungated relu d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hg Hl HG Hr.
  apply (cert_r8_no_width_condition_relu d n k K m _ _ _ _ _ _ _ _ _ _ _ _ _ Hg Hl HG).
  exact (check_rank_refute_sound _ _ _ _ _ _ _ _ _ _ Hr).
Qed.

Theorem cert_r8_rank_pm (sigma : R -> R) d n k K m dA RA dB CB dU RU dl LN cls dG CG dL RL es :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  check_grouping_drop d n k K dA RA dB CB dU RU dl LN cls dG CG dL RL = true ->
  check_pm_scales n K dl LN cls = true ->
  check_signs_distinct d k dU RU = true ->
  check_nonzero_cols d k dG CG = true ->
  check_rank_refute d k m dL RL dG CG dU RU es = true ->
  ~ absorbable_ungated sigma d n m identity (zmat_rows dA RA) (zmat_cols dB CB).
Proof.
  intros Hodd H0 Hun Hg Hpm Hs HG Hr.
  apply
    (cert_r8_no_width_condition_pm sigma d n k K m _ _ _ _ _ _ _ _ _ _ _ _ _ Hodd H0 Hun Hg
      Hpm Hs HG).
  exact (check_rank_refute_sound _ _ _ _ _ _ _ _ _ _ Hr).
Qed.

(** ** Examples *)

(** [x + e1 relu(x1) + e2 relu(x2)] in [R^2]: rows [A = I], [B = I]; ridge
    form [U = I], [G = I], [L = I], [k = 2].  At width [3] every admissible
    [(T, S)] has [|T| <= 1] and [r = 0], and [M_S X] is nonzero for [X] a
    unit vector orthogonal to [T]; [c = 1], [Y = X], [Z = 1], [D = Y^T M_S X]. *)
Definition ex_I2 : list (list Z) := [[1%Z; 0%Z]; [0%Z; 1%Z]].
Definition ex_e1 : list (list Z) := [[1%Z; 0%Z]].
Definition ex_e2 : list (list Z) := [[0%Z; 1%Z]].
Definition ex_ent (x : list (list Z)) (D : Z) : rank_entry :=
  {| rk_c := 1; rk_X := x; rk_Y := x; rk_Z := [[1%Z]]; rk_D := D |}.

(** In the order of [enum_ts 2] (class [1] outermost), skipping [T = {0, 1}]. *)
Definition ex_rank_es : list rank_entry :=
  [ex_ent ex_e1 1; ex_ent ex_e2 1; ex_ent ex_e1 2;       (* class 1 in neither *)
   ex_ent ex_e1 1; ex_ent ex_e1 2;                      (* class 1 in T *)
   ex_ent ex_e1 1; ex_ent ex_e2 2; ex_ent ex_e1 2].     (* class 1 in S *)

Example ex_rank_ok : check_rank_refute 2 2 3 1 ex_I2 1 ex_I2 1 ex_I2 ex_rank_es = true.
Proof. vm_compute. reflexivity. Qed.

Example ex_rank_relu_not_absorbable_3 :
  ~ absorbable_ungated relu 2 2 3 identity (zmat_rows 1 ex_I2) (zmat_cols 1 ex_I2).
Proof.
  apply
    (cert_r8_rank_relu 2 2 2 2 3 1 ex_I2 1 ex_I2 1 ex_I2 1 [1%Z; 1%Z] [0%nat; 1%nat] 1 ex_I2 1 ex_I2
           ex_rank_es); vm_compute; reflexivity.
Qed.

Example ex_rank_gelu_not_absorbable_3 :
  ~ absorbable_ungated gelu 2 2 3 identity (zmat_rows 1 ex_I2) (zmat_cols 1 ex_I2).
Proof.
  apply
    (cert_r8_rank_pm gelu 2 2 2 2 3 1 ex_I2 1 ex_I2 1 ex_I2 1 [1%Z; 1%Z] [0%nat; 1%nat] 1
      ex_I2 1 ex_I2
           ex_rank_es gelu_odd_part gelu_zero gelu_even_part_unique); vm_compute; reflexivity.
Qed.

(** The other side: the same block is absorbable at width [4] ([T = {0, 1}], [E = -I] cancels). *)
Example ex_rank_relu_absorbable_4 :
  absorbable_ungated relu 2 2 4 identity (zmat_rows 1 ex_I2) (zmat_cols 1 ex_I2).
Proof.
  apply
    (cert_r8_absorbable_relu 2 2 2 2 4 1 ex_I2 1 ex_I2 1 ex_I2 1 [1%Z; 1%Z] [0%nat; 1%nat] 1
      ex_I2 1 ex_I2
           [true; true] [false; false] 0 1 ex_I2 1 [] 1 []); vm_compute; reflexivity.
Qed.

(** Tampered certificates are rejected: the second entry ([T = {0}]) with
    [X = e1], not orthogonal to [u_0 = e1]; a wrong [D]; a missing entry;
    and the (true) refutation data claimed at width [4]. *)
Example ex_rank_tampered :
  check_rank_refute 2 2 3 1 ex_I2 1 ex_I2 1 ex_I2
    (ex_ent ex_e1 1 :: ex_ent ex_e1 1 :: skipn 2 ex_rank_es) = false /\
  check_rank_refute 2 2 3 1 ex_I2 1 ex_I2 1 ex_I2 (ex_ent ex_e1 2 :: tl ex_rank_es) = false /\
  check_rank_refute 2 2 3 1 ex_I2 1 ex_I2 1 ex_I2 (removelast ex_rank_es) = false /\
  check_rank_refute 2 2 4 1 ex_I2 1 ex_I2 1 ex_I2 ex_rank_es = false.
Proof. vm_compute. repeat split. Qed.
