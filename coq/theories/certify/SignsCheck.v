(** * Checking canonicity of a ridge form, exactly over the integers

    For [U = zmat_rows dU RU] ([k] rows) and [G = zmat_cols dG CG]
    ([k] columns), with entries beyond [d] ignored:
    - [check_nonzero_cols d k dG CG]: every column [t < k] has a nonzero
      entry below [d]; sound for [nonzero_cols d k G];
    - [check_lines_distinct d k dU RU]: every row is nonzero and any two rows
      [s < t] are linearly independent, witnessed by a nonzero [2 x 2] minor
      taken at the first nonzero coordinate of row [s] (so a pair usually
      costs a few steps); sound for [lines_distinct d k U];
    - [check_signs_distinct d k dU RU]: every row is nonzero and any two rows
      differ, and differ from each other's negative, at some coordinate;
      sound for [signs_distinct d k U]. *)

From Coq Require Import Reals ZArith Lia Lra List.
From Absorb Require Import Sums Blocks.
From Absorb.decide Require Import RidgeForm.
From Absorb.certify Require Import ZMatrices.
Import ListNotations.
Open Scope bool_scope.

(** ** Scans of the first [d] coordinates *)

(** Some coordinate [p < d] is nonzero. *)
Fixpoint nz_upto (d : nat) (v : list Z) : bool :=
  match d with O => false | S d' => if Z.eqb (hdd v 0%Z) 0 then nz_upto d' (tll v) else true end.

(** The scans stop at the first witness ([if], not the eager [||] of
    [vm_compute]). *)

(** The first nonzero coordinate below [d], with its value. *)
Fixpoint pivot (d : nat) (v : list Z) : option (nat * Z) :=
  match d with
  | O => None
  | S d' => let x := hdd v 0%Z in
            if Z.eqb x 0 then option_map (fun ay => (S (fst ay), snd ay)) (pivot d' (tll v))
            else Some (0%nat, x)
  end.

(** Some [b < d] with [ua v_b - u_b va <> 0]. *)
Fixpoint minor_nz (d : nat) (ua va : Z) (u v : list Z) : bool :=
  match d with
  | O => false
  | S d' =>
    if Z.eqb (ua * hdd v 0 - hdd u 0 * va)%Z 0 then minor_nz d' ua va (tll u) (tll v) else true
  end.

(** Some [j < d] with [u_j <> s v_j]. *)
Fixpoint diff_upto (d : nat) (s : Z) (u v : list Z) : bool :=
  match d with
  | O => false
  | S d' => if Z.eqb (hdd u 0%Z) (s * hdd v 0)%Z then diff_upto d' s (tll u) (tll v) else true
  end.

Lemma nz_upto_sound d : forall v, nz_upto d v = true -> exists p, (p < d)%nat /\ nth p v 0%Z <> 0%Z.
Proof.
  induction d as [|d IH]; intros v H; [discriminate|]. simpl in H.
  destruct (Z.eqb_spec (hdd v 0%Z) 0) as [_|N].
  - destruct (IH _ H) as [p [Hp Hnz]]. exists (S p). split; [lia|]. rewrite nth_tll. exact Hnz.
  - exists 0%nat. split; [lia|]. rewrite nth_hdd. exact N.
Qed.

Lemma pivot_sound d : forall v a x, pivot d v = Some (a, x) ->
  (a < d)%nat /\ nth a v 0%Z = x /\ x <> 0%Z.
Proof.
  induction d as [|d IH]; intros v a x H; [discriminate|]. simpl in H.
  destruct (Z.eqb_spec (hdd v 0%Z) 0) as [E|E].
  - destruct (pivot d (tll v)) as [[a' x']|] eqn:P; [|discriminate]. simpl in H.
    injection H as <- <-. destruct (IH _ _ _ P) as (Ha & Hn & Hx).
    split; [lia|]. rewrite nth_tll. split; assumption.
  - injection H as <- <-. split; [lia|]. rewrite nth_hdd. split; [reflexivity | exact E].
Qed.

Lemma minor_nz_sound d : forall ua va u v, minor_nz d ua va u v = true ->
  exists b, (b < d)%nat /\ (ua * nth b v 0 - nth b u 0 * va <> 0)%Z.
Proof.
  induction d as [|d IH]; intros ua va u v H; [discriminate|]. simpl in H.
  destruct (Z.eqb_spec (ua * hdd v 0 - hdd u 0 * va)%Z 0) as [_|N].
  - destruct (IH _ _ _ _ H) as [b [Hb Hnz]]. exists (S b). split; [lia|]. rewrite !nth_tll.
    exact Hnz.
  - exists 0%nat. split; [lia|]. rewrite !nth_hdd. exact N.
Qed.

Lemma diff_upto_sound d : forall s u v, diff_upto d s u v = true ->
  exists j, (j < d)%nat /\ nth j u 0%Z <> (s * nth j v 0)%Z.
Proof.
  induction d as [|d IH]; intros s u v H; [discriminate|]. simpl in H.
  destruct (Z.eqb_spec (hdd u 0%Z) (s * hdd v 0)%Z) as [_|N].
  - destruct (IH _ _ _ H) as [j [Hj Hnz]]. exists (S j). split; [lia|]. rewrite !nth_tll. exact Hnz.
  - exists 0%nat. split; [lia|]. rewrite !nth_hdd. exact N.
Qed.

(** ** The checkers *)

Definition check_nonzero_cols (d k : nat) (dG : Z) (CG : list (list Z)) : bool :=
  Z.ltb 0 dG && all_upto (fun _ col => nz_upto d col) [] 0 k CG.

Definition indep_ok (d : nat) (u v : list Z) : bool :=
  match pivot d u with
  | None => false
  | Some (a, ua) => minor_nz d ua (nth a v 0%Z) u v
  end.

Definition check_lines_distinct (d k : nat) (dU : Z) (RU : list (list Z)) : bool :=
  Z.ltb 0 dU && all_upto (fun _ u => nz_upto d u) [] 0 k RU && pairs_ok (indep_ok d) (padl k RU []).

Definition signs_ok (d : nat) (u v : list Z) : bool := diff_upto d 1 u v && diff_upto d (-1) u v.

Definition check_signs_distinct (d k : nat) (dU : Z) (RU : list (list Z)) : bool :=
  Z.ltb 0 dU && all_upto (fun _ u => nz_upto d u) [] 0 k RU && pairs_ok (signs_ok d) (padl k RU []).

(** ** Soundness *)

Lemma nz_upto_nonzero_vec d den v : (0 < den)%Z -> nz_upto d v = true -> nonzero_vec d (zvec den v).
Proof.
  intros Hd H. destruct (nz_upto_sound d v H) as [p [Hp Hnz]].
  exists p. split; [exact Hp|]. apply IZR_div_neq0; assumption.
Qed.

Theorem check_nonzero_cols_sound d k dG CG :
  check_nonzero_cols d k dG CG = true -> nonzero_cols d k (zmat_cols dG CG).
Proof.
  intros H. apply andb_prop in H as [Hd H]. apply Z.ltb_lt in Hd. intros t Ht.
  exact (nz_upto_nonzero_vec d dG _ Hd (all_upto_sound0 _ _ _ _ H t Ht)).
Qed.

Lemma rows_nonzero d k dU RU : (0 < dU)%Z -> all_upto (fun _ u => nz_upto d u) [] 0 k RU = true ->
  forall t, (t < k)%nat -> nonzero_vec d (row (zmat_rows dU RU) t).
Proof.
  intros Hd H t Ht. exact (nz_upto_nonzero_vec d dU _ Hd (all_upto_sound0 _ _ _ _ H t Ht)).
Qed.

(** A nonzero [2 x 2] minor makes two vectors independent. *)
Lemma minor_independent d (u v : vec) a b : (a < d)%nat -> (b < d)%nat ->
  u a * v b - u b * v a <> 0%R -> lin_independent2 d u v.
Proof.
  intros Ha Hb Hm al be H. pose proof (H a Ha) as Ea. pose proof (H b Hb) as Eb.
  assert (E1 : al * (u a * v b - u b * v a) = 0%R)
    by (replace (al * (u a * v b - u b * v a))
          with (v b * (al * u a + be * v a) - v a * (al * u b + be * v b))
          by ring; rewrite Ea, Eb; ring).
  assert (E2 : be * (u a * v b - u b * v a) = 0%R)
    by (replace (be * (u a * v b - u b * v a))
          with (u a * (al * u b + be * v b) - u b * (al * u a + be * v a))
          by ring; rewrite Ea, Eb; ring).
  apply Rmult_integral in E1, E2. split; [destruct E1 | destruct E2]; tauto.
Qed.

Lemma lin_independent2_sym d u v : lin_independent2 d u v -> lin_independent2 d v u.
Proof.
  intros H al be E. destruct (H be al) as [H1 H2]; [|split; assumption].
  intros q Hq. rewrite Rplus_comm. apply E, Hq.
Qed.

Lemma indep_ok_sound d den u v : (0 < den)%Z -> indep_ok d u v = true ->
  lin_independent2 d (zvec den u) (zvec den v).
Proof.
  intros Hd H. unfold indep_ok in H. destruct (pivot d u) as [[a ua]|] eqn:P; [|discriminate].
  destruct (pivot_sound d u a ua P) as (Ha & Hua & _).
  destruct (minor_nz_sound d _ _ u v H) as [b [Hb Hm]].
  apply (minor_independent d _ _ a b Ha Hb). unfold zvec. rewrite Hua.
  pose proof (IZR_pos_neq0 _ Hd).
  replace
    (IZR ua / IZR den * (IZR (nth b v 0%Z) / IZR den) - IZR (nth b u 0%Z) / IZR den *
      (IZR (nth a v 0%Z) / IZR den))
    with (IZR (ua * nth b v 0 - nth b u 0 * nth a v 0)%Z / IZR (den * den))
    by (rewrite minus_IZR, !mult_IZR; field; auto).
  apply IZR_div_neq0; [lia | exact Hm].
Qed.

Lemma row_zmat_rows dU RU t : row (zmat_rows dU RU) t = zvec dU (nth t RU []).
Proof. reflexivity. Qed.

(** From pairs [s < t] of a padded list to all pairs [s <> t] below [k]. *)
Lemma pairs_padl_all (P : list Z -> list Z -> Prop) (f : list Z -> list Z -> bool) k RU :
  (forall u v, f u v = true -> P u v) -> (forall u v, P u v -> P v u) ->
  pairs_ok f (padl k RU []) = true ->
  forall s t, (s < k)%nat -> (t < k)%nat -> s <> t -> P (nth s RU []) (nth t RU []).
Proof.
  intros Hf Hsym H s t Hs Ht Hst.
  assert (Hlt : forall s t, (s < t)%nat -> (t < k)%nat -> P (nth s RU []) (nth t RU [])).
  { intros s' t' H1 H2. rewrite <- (nth_padl k RU [] s') by lia.
    rewrite <- (nth_padl k RU [] t') by lia.
    apply Hf, (pairs_ok_sound f [] _ H); [exact H1 | rewrite padl_length; exact H2]. }
  destruct (proj1 (Nat.lt_gt_cases s t) Hst) as [Hl|Hl]; [|apply Hsym]; apply Hlt; lia.
Qed.

Theorem check_lines_distinct_sound d k dU RU :
  check_lines_distinct d k dU RU = true -> lines_distinct d k (zmat_rows dU RU).
Proof.
  intros H. unfold check_lines_distinct in H. apply andb_prop in H as [H Hp].
  apply andb_prop in H as [Hd Hn]. apply Z.ltb_lt in Hd.
  split; [exact (rows_nonzero d k dU RU Hd Hn)|]. intros s t Hs Ht Hst.
  rewrite !row_zmat_rows.
  exact (pairs_padl_all (fun u v => lin_independent2 d (zvec dU u) (zvec dU v)) (indep_ok d) k RU
           (fun u v => indep_ok_sound d dU u v Hd) (fun u v => lin_independent2_sym d _ _) Hp s t
           Hs Ht Hst).
Qed.

Lemma pm_equal_sym d u v : pm_equal d u v -> pm_equal d v u.
Proof.
  intros [E|E]; [left | right]; intros j Hj; rewrite (E j Hj); ring.
Qed.

Lemma signs_ok_sound d den u v : (0 < den)%Z -> signs_ok d u v = true ->
  ~ pm_equal d (zvec den u) (zvec den v).
Proof.
  intros Hd H. unfold signs_ok in H. apply andb_prop in H as [H1 H2].
  destruct (diff_upto_sound d _ _ _ H1) as [j [Hj N1]].
  destruct (diff_upto_sound d _ _ _ H2) as [j' [Hj' N2]].
  pose proof (IZR_pos_neq0 _ Hd).
  unfold pm_equal. intros [E|E]; [apply N1 | apply N2]; apply (IZR_div_inj _ _ den Hd).
  - pose proof (E j Hj) as Ej. unfold zvec in Ej. rewrite Ej. f_equal. f_equal. lia.
  - pose proof (E j' Hj') as Ej. unfold zvec in Ej. rewrite Ej, mult_IZR. field. auto.
Qed.

Theorem check_signs_distinct_sound d k dU RU :
  check_signs_distinct d k dU RU = true -> signs_distinct d k (zmat_rows dU RU).
Proof.
  intros H. unfold check_signs_distinct in H. apply andb_prop in H as [H Hp].
  apply andb_prop in H as [Hd Hn]. apply Z.ltb_lt in Hd.
  split; [exact (rows_nonzero d k dU RU Hd Hn)|]. intros s t Hs Ht Hst.
  rewrite !row_zmat_rows.
  exact (pairs_padl_all (fun u v => ~ pm_equal d (zvec dU u) (zvec dU v)) (signs_ok d) k RU
           (fun u v => signs_ok_sound d dU u v Hd) (fun u v N E => N (pm_equal_sym d _ _ E)) Hp s t
           Hs Ht Hst).
Qed.
