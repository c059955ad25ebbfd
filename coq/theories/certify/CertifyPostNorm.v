(** * Certificates for post-LayerNorm ReLU blocks (R11', [PostNormGeneric])

    A post-LN block [x |-> LN(P x + B sigma(A x))] is absorbable at width [n]
    (as a post-LN residual-free block [x |-> LN(B' sigma(A' x))]) iff the bare
    block with the singular skip [C P] and down-projection [C B] is
    ([PostNorm.postln_ungated_iff], [C = I - 11^T/d] the centering); for ReLU
    and generic [(A, C B)] iff some [S] has [B[:,S] A[S,:] C-projected to
    -C P] ([PostNormGeneric.relu_skip_absorbable_iff]).  The certificates
    reuse R5's checkers on that bare problem:
    - the centered data are checked exactly against the instance's:
      [CBc] (the columns of [d dB C B] as integers) by [check_centered_cols],
      and, for a skip [P] given as rows, [RCP] (the rows of [d dP C P]) by
      [check_centered_rows]; for the identity skip the target is
      [cen_id_rows d] ([d C] as integers), computed here;
    - absorbable ([cert_postln_absorbable], [cert_postln_absorbable_skip]):
      [check_submatrix] on [(A, C B)] with target [C P] and a given [S]; then
      [odd_skip_absorbable] and [postln_ungated_sufficient]: for every
      activation with [sigma(z) - sigma(-z) = z], every [eps], [gamma]
      (zeros allowed) and [beta];
    - not absorbable ([cert_postln_relu_not_absorbable],
      [cert_postln_relu_not_absorbable_skip]): [check_generic] on [(A, C B)]
      and [check_nosub] with target [C P]; then [postln_ungated_iff] and
      [relu_skip_absorbable_iff]: ReLU, for every [eps > 0], every [gamma]
      with no zero entry and every [beta]. *)

From Coq Require Import Reals ZArith Lia Lra List Uint63.
From Absorb Require Import Sums Blocks ActivationDefs Activations FlipSigns Norms PostNorm
  PostNormGeneric.
From Absorb Require Import RowWalk IntSums Modular SubsetTargets CheckNoSubset CheckGeneric
  CheckSubmatrix Certify.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

(** ** Matrices that agree on the indices a statement reads *)

Lemma target_eq_ext d n S (A B B' T T' : mat) :
  (forall k i, (k < d)%nat -> (i < n)%nat -> B k i = B' k i) ->
  (forall k l, (k < d)%nat -> (l < d)%nat -> T k l = T' k l) ->
  target_eq d n S A B T -> target_eq d n S A B' T'.
Proof.
  intros HB HT H k l Hk Hl. rewrite <- (HT k l Hk Hl), <- (H k l Hk Hl).
  unfold subset_sum. apply sumn_ext. intros i Hi. rewrite (HB k i Hk Hi). reflexivity.
Qed.

Lemma generic_ext_B d n (A B B' : mat) :
  (forall k i, (k < d)%nat -> (i < n)%nat -> B k i = B' k i) ->
  generic d n A B -> generic d n A B'.
Proof.
  intros HB [G1 [G2 G3]]. split; [exact G1|]. split; [exact G2|].
  intros i Hi. destruct (G3 i Hi) as [k [Hk Hnz]]. exists k. split; [exact Hk|].
  unfold col in *. rewrite <- (HB k i Hk Hi). exact Hnz.
Qed.

(** ** The centering as integer data *)

(** [mm d C M] at [(k, j)] is [M k j - (1/d) sum_t M t j]. *)
Lemma centering_mm d (M : mat) k j : (k < d)%nat ->
  mm d (centering d) M k j = M k j - sumn d (fun t => M t j) / INR d.
Proof.
  intros Hk. unfold mm, centering.
  rewrite (sumn_ext d _ (fun t => (if Nat.eq_dec k t then M t j else 0) + (- / INR d) * M t j))
    by (intros t _; unfold identity; destruct (Nat.eq_dec k t); ring).
  rewrite sumn_plus, sumn_scal_l, (sumn_delta d k (fun t => M t j) Hk). unfold Rdiv. ring.
Qed.

(** An integer matrix over [den], centered: [d * e k j - sum_t e t j] over [d * den]. *)
Lemma centered_entry d (den : Z) (e e' : nat -> nat -> Z) k j : (k < d)%nat -> (0 < den)%Z ->
  e' k j = (Z.of_nat d * e k j - zsum d (fun t => e t j))%Z ->
  IZR (e' k j) / IZR (Z.of_nat d * den) =
  mm d (centering d) (fun a b => IZR (e a b) / IZR den) k j.
Proof.
  intros Hk Hden E. rewrite (centering_mm d _ k j Hk), E.
  assert (Hd : INR d <> 0%R) by (apply not_0_INR; lia).
  assert (Hden' : IZR den <> 0%R) by (apply not_0_IZR; lia).
  rewrite minus_IZR, !mult_IZR, <- INR_IZR_INZ, IZR_zsum.
  unfold Rdiv. rewrite sumn_scal_r. field. split; assumption.
Qed.

(** *** Columns (the down-projection [W_down], given by its columns) *)

Fixpoint lsum (r : list int) : Z :=
  match r with [] => 0%Z | x :: r' => (zval x + lsum r')%Z end.

Fixpoint cen_ok (dz s : Z) (r r' : list int) : bool :=
  match r, r' with
  | [], [] => true
  | x :: r1, y :: r1' => Z.eqb (zval y) (dz * zval x - s) && cen_ok dz s r1 r1'
  | _, _ => false
  end.

(** [r'] is [d * r - (sum r) 1], [r] of length [d]. *)
Definition centered_col (d : nat) (r r' : list int) : bool :=
  Nat.eqb (length r) d && cen_ok (Z.of_nat d) (lsum r) r r'.

Definition check_centered_cols (d n : nat) (CB CBc : list (list int)) : bool :=
  forallb (fun b => b) (map_rows2 (centered_col d) n CB CBc).

Lemma lsum_zsum r : lsum r = zsum (length r) (fun t => zval (nth t r 0%uint63)).
Proof.
  induction r as [|x r IH]; [reflexivity|]. simpl length. rewrite zsum_shift. simpl.
  rewrite IH. reflexivity.
Qed.

Lemma cen_ok_nth dz s r : forall r', cen_ok dz s r r' = true ->
  forall k, (k < length r)%nat -> zval (nth k r' 0%uint63) = (dz * zval (nth k r 0%uint63) - s)%Z.
Proof.
  induction r as [|x r IH]; intros r' H k Hk; [simpl in Hk; lia|].
  destruct r' as [|y r']; [discriminate|]. simpl in H. apply andb_prop in H as [H1 H2].
  destruct k as [|k]; simpl.
  - apply Z.eqb_eq. exact H1.
  - apply IH; [exact H2 | simpl in Hk; lia].
Qed.

Lemma check_centered_cols_entry d n CB CBc : check_centered_cols d n CB CBc = true ->
  forall i k, (i < n)%nat -> (k < d)%nat ->
  zentry CBc i k = (Z.of_nat d * zentry CB i k - zsum d (fun t => zentry CB i t))%Z.
Proof.
  unfold check_centered_cols. rewrite map_rows2_spec. intros H i k Hi Hk.
  rewrite forallb_forall in H.
  specialize (H (centered_col d (nth i CB []) (nth i CBc []))
    ltac:(apply (in_map (fun i0 => centered_col d (nth i0 CB []) (nth i0 CBc []))), in_seq; lia)).
  unfold centered_col in H. apply andb_prop in H as [Hl H]. apply Nat.eqb_eq in Hl.
  unfold zentry. rewrite (cen_ok_nth _ _ _ _ H k ltac:(lia)), lsum_zsum, Hl. reflexivity.
Qed.

Theorem check_centered_cols_sound d n dB CB CBc : (0 < dB)%Z ->
  check_centered_cols d n CB CBc = true ->
  forall k i, (k < d)%nat -> (i < n)%nat ->
  mat_of_cols (Z.of_nat d * dB) CBc k i = mm d (centering d) (mat_of_cols dB CB) k i.
Proof.
  intros HdB H k i Hk Hi. unfold mat_of_cols.
  exact (centered_entry d dB (fun a b => zentry CB b a) (fun a b => zentry CBc b a) k i Hk HdB
           (check_centered_cols_entry d n CB CBc H i k Hi Hk)).
Qed.

(** *** Rows (a skip [P] given by its rows): [d P - 1 (column sums)] *)

Definition colsums (d : nat) (RP : list (list int)) : list Z :=
  map (fun l => zsum d (fun t => zentry RP t l)) (seq 0 d).

Definition check_centered_rows (d : nat) (RP RCP : list (list int)) : bool :=
  let cs := colsums d RP in
  forallb (fun k => forallb (fun l =>
    Z.eqb (zentry RCP k l) (Z.of_nat d * zentry RP k l - nth l cs 0%Z)) (seq 0 d)) (seq 0 d).

Theorem check_centered_rows_sound d dP RP RCP : (0 < dP)%Z ->
  check_centered_rows d RP RCP = true ->
  forall k l, (k < d)%nat -> (l < d)%nat ->
  mat_of_rows (Z.of_nat d * dP) RCP k l = mm d (centering d) (mat_of_rows dP RP) k l.
Proof.
  unfold check_centered_rows. intros HdP H k l Hk Hl. rewrite forallb_forall in H.
  specialize (H k ltac:(apply in_seq; lia)). rewrite forallb_forall in H.
  specialize (H l ltac:(apply in_seq; lia)). apply Z.eqb_eq in H.
  unfold colsums in H. rewrite (nth_map_seq _ d l 0%Z Hl) in H.
  exact (centered_entry d dP (zentry RP) (zentry RCP) k l Hk HdP H).
Qed.

(** *** The identity skip: [d C] as integers *)

Definition cen_id_rows (d : nat) : list (list int) :=
  map (fun k => map (fun l => if Nat.eqb k l then Uint63.of_Z (Z.of_nat d - 1) else (0 - 1)%uint63)
                    (seq 0 d)) (seq 0 d).

(** The identity skip's target for dimensions the checkers can reach. *)
Definition dim_ok (d : nat) : bool := (Z.of_nat d <? 2 ^ 62)%Z.

Lemma cen_id_rows_spec d k l : dim_ok d = true -> (k < d)%nat -> (l < d)%nat ->
  mat_of_rows (Z.of_nat d) (cen_id_rows d) k l = mm d (centering d) identity k l.
Proof.
  intros Hd Hk Hl. unfold dim_ok in Hd. apply Z.ltb_lt in Hd.
  assert (Eid : forall t, (t < d)%nat -> zentry (id_rows d) t l = if Nat.eqb t l then 1%Z else 0%Z).
  { intros t Ht. unfold zentry, id_rows.
    rewrite (nth_map_seq _ d t [] Ht), (nth_map_seq _ d l 0%uint63 Hl).
    destruct (Nat.eqb t l); reflexivity. }
  assert (Hs : zsum d (fun t => zentry (id_rows d) t l) = 1%Z).
  { rewrite (zsum_ext d _ (fun t => if Nat.eqb t l then 1%Z else 0%Z)) by exact Eid.
    rewrite zsum_single. apply Nat.ltb_lt in Hl. rewrite Hl. reflexivity. }
  assert (Ez : zentry (cen_id_rows d) k l =
               (Z.of_nat d * zentry (id_rows d) k l - zsum d (fun t => zentry (id_rows d) t l))%Z).
  { rewrite Hs, (Eid k Hk). unfold zentry, cen_id_rows.
    rewrite (nth_map_seq _ d k [] Hk), (nth_map_seq _ d l 0%uint63 Hl).
    destruct (Nat.eqb k l).
    - unfold zval. assert (E : phi (Uint63.of_Z (Z.of_nat d - 1)) = (Z.of_nat d - 1)%Z).
      { rewrite Uint63.of_Z_spec. apply Z.mod_small. rewrite wB_eq. lia. }
      destruct (Uint63.of_Z (Z.of_nat d - 1) <? half_int)%uint63 eqn:L.
      + rewrite E. lia.
      + exfalso. assert (~ (phi (Uint63.of_Z (Z.of_nat d - 1)) < phi half_int)%Z) as L'
          by (rewrite <- Uint63.ltb_spec, L; discriminate).
        rewrite E, half_int_spec in L'. lia.
    - change (zval (0 - 1)%uint63) with (-1)%Z. lia. }
  pose proof (centered_entry d 1 (zentry (id_rows d)) (zentry (cen_id_rows d)) k l Hk
                ltac:(lia) Ez) as C.
  rewrite Z.mul_1_r in C. unfold mat_of_rows. rewrite C. unfold mm. apply sumn_ext.
  intros t Ht. f_equal. fold (mat_of_rows 1 (id_rows d) t l). apply id_rows_spec; assumption.
Qed.

(** ** The lemmas the certificates apply *)

(** [target_eq] for the centered data is R5's condition for the reduced bare
    block: skip [C P], down-projection [C B]. *)
Lemma postln_absorbable_of_target sigma d n eps gamma beta S (P A B : mat) :
  odd_part_identity sigma ->
  target_eq d n S A (mm d (centering d) B) (mm d (centering d) P) ->
  absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n n P A B.
Proof.
  intros Hodd Ht. apply postln_ungated_sufficient.
  exists (flip_rows S A), (mm d (centering d) B).
  exact (odd_skip_absorbable sigma d n S _ A _ Hodd Ht).
Qed.

Lemma postln_relu_not_absorbable_of d n eps gamma beta (P A B : mat) :
  0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
  generic d n A (mm d (centering d) B) ->
  (forall S, ~ target_eq d n S A (mm d (centering d) B) (mm d (centering d) P)) ->
  ~ absorbable_postnorm_ungated (layer_norm d eps gamma beta) relu d n n P A B.
Proof.
  intros He Hg Hgen Hno Habs.
  apply (postln_ungated_iff relu d n n eps gamma beta P A B He Hg) in Habs.
  apply (relu_skip_absorbable_iff d n _ A _ Hgen) in Habs as [S HS].
  exact (Hno S HS).
Qed.

Section Absorbable.

Variable sigma : R -> R.
Variable odd : odd_part_identity sigma.
Variables (d n : nat) (dA dB : Z) (RA CB CBc : list (list int)) (Sl : list bool) (ps : list int).

(** The identity skip: [C (I + B_S A_S) = 0]. *)
Theorem cert_postln_absorbable :
  dim_ok d = true -> check_centered_cols d n CB CBc = true ->
  check_submatrix d n dA (Z.of_nat d * dB) (Z.of_nat d) RA CBc (cen_id_rows d) Sl ps = true ->
  forall (eps : R) (gamma beta : vec),
    absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n n identity
      (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros Hd Hc Hs eps gamma beta.
  assert (HdB : (0 < dB)%Z).
  { unfold check_submatrix in Hs. apply andb_prop in Hs as [Hs _].
    apply andb_prop in Hs as [Hs _]. apply andb_prop in Hs as [_ Hs]. apply Z.ltb_lt in Hs. nia. }
  apply (postln_absorbable_of_target sigma d n eps gamma beta (Sfun Sl) _ _ _ odd).
  apply (target_eq_ext d n _ _ (mat_of_cols (Z.of_nat d * dB) CBc) _
           (mat_of_rows (Z.of_nat d) (cen_id_rows d))).
  - exact (check_centered_cols_sound d n dB CB CBc HdB Hc).
  - intros k l Hk Hl. exact (cen_id_rows_spec d k l Hd Hk Hl).
  - exact (check_submatrix_sound _ _ _ _ _ _ _ _ _ _ Hs).
Qed.

(** A skip [P] (rows [RP] over [dP]): [C (P + B_S A_S) = 0]. *)
Theorem cert_postln_absorbable_skip dP RP RCP :
  check_centered_rows d RP RCP = true -> check_centered_cols d n CB CBc = true ->
  check_submatrix d n dA (Z.of_nat d * dB) (Z.of_nat d * dP) RA CBc RCP Sl ps = true ->
  forall (eps : R) (gamma beta : vec),
    absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n n (mat_of_rows dP RP)
      (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros Hr Hc Hs eps gamma beta.
  assert (Hpos : (0 < Z.of_nat d * dB)%Z /\ (0 < Z.of_nat d * dP)%Z).
  { unfold check_submatrix in Hs. apply andb_prop in Hs as [Hs _].
    apply andb_prop in Hs as [Hs HP]. apply andb_prop in Hs as [_ HB].
    apply Z.ltb_lt in HP, HB. split; assumption. }
  assert (HdB : (0 < dB)%Z) by nia. assert (HdP : (0 < dP)%Z) by nia.
  apply (postln_absorbable_of_target sigma d n eps gamma beta (Sfun Sl) _ _ _ odd).
  apply (target_eq_ext d n _ _ (mat_of_cols (Z.of_nat d * dB) CBc) _
           (mat_of_rows (Z.of_nat d * dP) RCP)).
  - exact (check_centered_cols_sound d n dB CB CBc HdB Hc).
  - exact (check_centered_rows_sound d dP RP RCP HdP Hr).
  - exact (check_submatrix_sound _ _ _ _ _ _ _ _ _ _ Hs).
Qed.

End Absorbable.

Section NotAbsorbable.

Variables (d n : nat) (dA dB : Z) (RA CB CBc : list (list int)) (pg : int) (U V : list int)
  (p : int) (F : list nat) (FS : list (option nat * functional)).

Lemma nosub_pos dT RT :
  check_nosub d n dA (Z.of_nat d * dB) dT RA CBc RT p F FS = true ->
  (0 < dA)%Z /\ (0 < dB)%Z /\ (0 < Z.of_nat d * dB)%Z.
Proof.
  intros H. destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ H) as [HA HB].
  split; [exact HA | split; [nia | exact HB]].
Qed.

(** The identity skip: ReLU, [(A, C B)] generic, no [S] with [C (I + B_S A_S) = 0]. *)
Theorem cert_postln_relu_not_absorbable :
  dim_ok d = true -> check_centered_cols d n CB CBc = true ->
  check_generic d n RA CBc pg U V = true ->
  check_nosub d n dA (Z.of_nat d * dB) (Z.of_nat d) RA CBc (cen_id_rows d) p F FS = true ->
  forall (eps : R) (gamma beta : vec), 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    ~ absorbable_postnorm_ungated (layer_norm d eps gamma beta) relu d n n identity
        (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros Hd Hc Hg Hn eps gamma beta He Hgam.
  destruct (nosub_pos _ _ Hn) as [HA [HB HdB]].
  pose proof (check_centered_cols_sound d n dB CB CBc HB Hc) as EB.
  apply (postln_relu_not_absorbable_of d n eps gamma beta); [exact He | exact Hgam | |].
  - apply (generic_ext_B d n _ (mat_of_cols (Z.of_nat d * dB) CBc)); [exact EB|].
    exact (check_generic_sound d n dA _ RA CBc pg U V Hg HA HdB).
  - intros S HS. apply (check_nosub_sound _ _ _ _ _ _ _ _ _ _ _ Hn S).
    apply (target_eq_ext d n S _ (mm d (centering d) (mat_of_cols dB CB)) _
             (mm d (centering d) identity)); [| |exact HS].
    + intros k i Hk Hi. symmetry. exact (EB k i Hk Hi).
    + intros k l Hk Hl. symmetry. exact (cen_id_rows_spec d k l Hd Hk Hl).
Qed.

(** A skip [P] (rows [RP] over [dP]): no [S] with [C (P + B_S A_S) = 0]. *)
Theorem cert_postln_relu_not_absorbable_skip dP RP RCP :
  check_centered_rows d RP RCP = true -> check_centered_cols d n CB CBc = true ->
  check_generic d n RA CBc pg U V = true ->
  check_nosub d n dA (Z.of_nat d * dB) (Z.of_nat d * dP) RA CBc RCP p F FS = true ->
  forall (eps : R) (gamma beta : vec), 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    ~ absorbable_postnorm_ungated (layer_norm d eps gamma beta) relu d n n (mat_of_rows dP RP)
        (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros Hr Hc Hg Hn eps gamma beta He Hgam.
  destruct (nosub_pos _ _ Hn) as [HA [HB HdB]].
  assert (HP : (0 < dP)%Z).
  { unfold check_nosub in Hn.
    repeat match type of Hn with (_ && _) = true => apply andb_prop in Hn as [Hn ?] end.
    repeat match goal with Hx : (0 <? _)%Z = true |- _ => apply Z.ltb_lt in Hx end.
    match goal with Hx : (0 < Z.of_nat d * dP)%Z |- _ => nia end. }
  pose proof (check_centered_cols_sound d n dB CB CBc HB Hc) as EB.
  apply (postln_relu_not_absorbable_of d n eps gamma beta); [exact He | exact Hgam | |].
  - apply (generic_ext_B d n _ (mat_of_cols (Z.of_nat d * dB) CBc)); [exact EB|].
    exact (check_generic_sound d n dA _ RA CBc pg U V Hg HA HdB).
  - intros S HS. apply (check_nosub_sound _ _ _ _ _ _ _ _ _ _ _ Hn S).
    apply (target_eq_ext d n S _ (mm d (centering d) (mat_of_cols dB CB)) _
             (mm d (centering d) (mat_of_rows dP RP))); [| |exact HS].
    + intros k i Hk Hi. symmetry. exact (EB k i Hk Hi).
    + intros k l Hk Hl. symmetry. exact (check_centered_rows_sound d dP RP RCP HP Hr k l Hk Hl).
Qed.

End NotAbsorbable.

(** ** Non-vacuity: [PostNormGeneric]'s [d = 2] instances as certificates *)

(** [x + e_2 relu(x_1 - x_2)]: [C B = (-1, 1)/2], [S = {0}]; absorbable after
    any LayerNorm (the bare block is not: [ex2_bare_not_absorbable]). *)
Example cert_postln_absorbable_example : forall eps gamma beta,
  absorbable_postnorm_ungated (layer_norm 2 eps gamma beta) relu 2 1 1 identity
    (mat_of_rows 1 [[1; 0 - 1]]%uint63) (mat_of_cols 1 [[0; 1]]%uint63).
Proof.
  exact (cert_postln_absorbable relu relu_odd_part 2 1 1 1 [[1; 0 - 1]]%uint63 [[0; 1]]%uint63
           [[0 - 1; 1]]%uint63 [true] [7; 11]%uint63 eq_refl eq_refl eq_refl).
Qed.

(** [x + e_1 relu(x_1 - x_2)]: [C B = (1, -1)/2], generic; no [S]
    ([B_S A_S] projected by [C] is [0] or [(1, -1)(1, -1)^T / 2], never [-C]):
    a functional reading entry [(0, 0)] shows both fail modulo 7. *)
Example cert_postln_not_absorbable_example : forall eps gamma beta,
  0 < eps -> (forall i, (i < 2)%nat -> gamma i <> 0) ->
  ~ absorbable_postnorm_ungated (layer_norm 2 eps gamma beta) relu 2 1 1 identity
      (mat_of_rows 1 [[1; 0 - 1]]%uint63) (mat_of_cols 1 [[1; 0]]%uint63).
Proof.
  exact (cert_postln_relu_not_absorbable 2 1 1 1 [[1; 0 - 1]]%uint63 [[1; 0]]%uint63
           [[1; 0 - 1]]%uint63 7%uint63 [1; 0]%uint63 [0; 1]%uint63 7%uint63 [0]%nat
           [(None, [(0%nat, [1; 0]%uint63)])] eq_refl eq_refl eq_refl eq_refl).
Qed.

(** Tampered data are refused: a wrong centered column, the empty subset. *)
Example cert_postln_rejects :
  check_centered_cols 2 1 [[0; 1]]%uint63 [[0 - 1; 2]]%uint63 = false /\
  check_submatrix 2 1 1 (Z.of_nat 2 * 1) (Z.of_nat 2) [[1; 0 - 1]]%uint63 [[0 - 1; 1]]%uint63
    (cen_id_rows 2) [false] [7; 11]%uint63 = false.
Proof. split; vm_compute; reflexivity. Qed.
