(** * Certify: one lemma per kind of certificate

    A certificate pybridge writes for a concrete block is data (lists of
    primitive integers, [IntSums.v]), one lemma per boolean checker proved by
    the VM ([vm_cast_no_check], checked once by the kernel at [Qed]), and one
    application of a lemma below, whose conclusion is the verdict in the terms
    of [Blocks.v].  The kinds:
    - [cert_absorbable], [cert_absorbable_witness]: R5 (<=), identity skip;
    - [cert_absorbable_skip]: R1 + R5 (<=) with an invertible skip;
    - [cert_absorbable_bias]: R5 (<=) with biases (R7, output bias adjusted);
    - [cert_generic_not_absorbable], [cert_generic_not_absorbable_skip]: R5 (=>)
      for generic weights without any subset [S], given the activation's R5 (=>)
      theorem as [generic_submatrix_property] ([relu_generic_submatrix], ...);
    - [cert_generic_not_absorbable_partial]: R5 (=>) from a certificate that
      carries only a block of the weights (columns [R] of [W_up], rows [R] of
      [W_down]), stated for EVERY pair of matrices agreeing with it there;
    - [cert_gated_not_absorbable]: R3 for every weight of a shape;
    - [cert_relu_pow_not_absorbable]: R2 for [relu^k], [k <> 1].
    Skips are [None] (identity) or [Some (dP, RP)] ([skip_mat]). *)

From Coq Require Import Reals ZArith Lia List Uint63.
From Absorb Require Import Sums Blocks ActivationDefs Activations FlipSigns Biases SkipReduction
  ImpossibilityInstances ReluSubmatrix GeluRidge GeluTanhRidge SiluRidge.
From Absorb Require Export IntSums Modular SubsetTargets CheckNoSubset CheckGeneric CheckSubmatrix
  CheckSkip.
Import ListNotations.
Open Scope bool_scope.

(** ** Skips as data *)

Definition skip_data := option (Z * list (list int)).

Definition skip_mat (sk : skip_data) : mat :=
  match sk with None => identity | Some (dP, RP) => mat_of_rows dP RP end.

(** The skip has a nonzero entry at [(k, l)] (any entry of the identity when [d > 0]). *)
Definition check_skip_nonzero (d : nat) (sk : skip_data) (k l : nat) : bool :=
  match sk with
  | None => Nat.ltb 0 d
  | Some (dP, RP) => (0 <? dP)%Z && check_nonzero d RP k l
  end.

Lemma check_skip_nonzero_sound d sk k l :
  check_skip_nonzero d sk k l = true -> nonzero_mat d (skip_mat sk).
Proof.
  destruct sk as [[dP RP]|]; simpl; intros H.
  - apply andb_prop in H as [HP H]. apply Z.ltb_lt in HP.
    exact (check_nonzero_sound d dP RP k l H HP).
  - apply identity_nonzero. apply Nat.ltb_lt. exact H.
Qed.

Lemma check_nosub_denominators d n dA dB dT RA CB RT p F fs :
  check_nosub d n dA dB dT RA CB RT p F fs = true -> (0 < dA)%Z /\ (0 < dB)%Z.
Proof.
  unfold check_nosub. intros H.
  repeat match type of H with (_ && _) = true => apply andb_prop in H as [H ?] end.
  repeat match goal with Hx : (0 <? _)%Z = true |- _ => apply Z.ltb_lt in Hx end.
  split; assumption.
Qed.

(** ** Absorbable: R5 (<=) *)

Section Absorbable.

Variable sigma : R -> R.
Variable odd : odd_part_identity sigma.
Variables (d n : nat) (dA dB : Z) (RA CB : list (list int)) (Sl : list bool) (ps : list int).

Lemma cert_absorbable :
  check_submatrix d n dA dB 1 RA CB (id_rows d) Sl ps = true ->
  absorbable_ungated sigma d n n identity (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros H. exact (odd_part_absorbable sigma d n (Sfun Sl) _ _ odd
                     (check_submatrix_identity d n dA dB RA CB Sl ps H)).
Qed.

(** The witness: rows in [S] of [W_up] negated. *)
Lemma cert_absorbable_witness :
  check_submatrix d n dA dB 1 RA CB (id_rows d) Sl ps = true ->
  same_fun d (ungated sigma d n (flip_rows (Sfun Sl) (mat_of_rows dA RA)) (mat_of_cols dB CB))
    (residual d identity (ungated sigma d n (mat_of_rows dA RA) (mat_of_cols dB CB))).
Proof.
  intros H. exact (flip_rows_residual sigma d n (Sfun Sl) _ _ odd
                     (check_submatrix_identity d n dA dB RA CB Sl ps H)).
Qed.

Lemma cert_absorbable_skip dP dQ RP RQ qs :
  check_inverse d dP RP dQ RQ qs = true ->
  check_submatrix d n dA dB dP RA CB RP Sl ps = true ->
  absorbable_ungated sigma d n n (mat_of_rows dP RP) (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros Hinv H. pose proof (check_inverse_sound _ _ _ _ _ _ Hinv) as HPQ.
  apply (proj2 (skip_reduction_ungated sigma d n n _ _ _ _ HPQ)).
  exact (odd_part_absorbable sigma d n (Sfun Sl) _ _ odd
           (check_submatrix_skip d n dA dB dP RA CB RP Sl ps _ H HPQ)).
Qed.

Lemma cert_absorbable_bias dc db0 Lc Lb0 :
  check_submatrix d n dA dB 1 RA CB (id_rows d) Sl ps = true ->
  absorbable_ungated_bias sigma d n n identity (mat_of_rows dA RA) (vec_of dc Lc)
    (mat_of_cols dB CB) (vec_of db0 Lb0).
Proof.
  intros H. exact (odd_part_absorbable_bias sigma d n (Sfun Sl) _ _ _ _ odd
                     (check_submatrix_identity d n dA dB RA CB Sl ps H)).
Qed.

End Absorbable.

(** ** Not absorbable, generic weights without a subset: R5 (=>) *)

(** R5 (=>) for [sigma]: generic and absorbable at width [n] gives a subset [S]. *)
Definition generic_submatrix_property (sigma : R -> R) : Prop :=
  forall d n A B, generic d n A B -> absorbable_ungated sigma d n n identity A B ->
  exists S, submatrix_cond d n S A B.

Lemma relu_generic_submatrix : generic_submatrix_property relu.
Proof. exact relu_absorbable_generic_submatrix. Qed.

Lemma gelu_generic_submatrix : generic_submatrix_property gelu.
Proof. exact gelu_absorbable_generic_submatrix. Qed.

Lemma gelu_tanh_generic_submatrix : generic_submatrix_property gelu_tanh.
Proof. exact gelu_tanh_absorbable_generic_submatrix. Qed.

Lemma silu_generic_submatrix : generic_submatrix_property silu.
Proof. exact silu_absorbable_generic_submatrix. Qed.

Section Generic.

Variable sigma : R -> R.
Variable r5 : generic_submatrix_property sigma.
Variables (d n : nat) (dA dB : Z) (RA CB : list (list int)) (pg : int) (U V : list int)
  (p : int) (F : list nat) (FS : list (option nat * functional)).

Lemma cert_generic_not_absorbable :
  check_generic d n RA CB pg U V = true ->
  check_nosub d n dA dB 1 RA CB (id_rows d) p F FS = true ->
  ~ absorbable_ungated sigma d n n identity (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros Hg Hn Habs. destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ Hn) as [HA HB].
  destruct (r5 d n _ _ (check_generic_sound d n dA dB RA CB pg U V Hg HA HB) Habs) as [S HS].
  exact (check_nosub_identity d n dA dB RA CB p F FS Hn S HS).
Qed.

Lemma cert_generic_not_absorbable_skip dP dQ RP RQ qs :
  check_inverse d dP RP dQ RQ qs = true ->
  check_generic d n RA CB pg U V = true ->
  check_nosub d n dA dB dP RA CB RP p F FS = true ->
  ~ absorbable_ungated sigma d n n (mat_of_rows dP RP) (mat_of_rows dA RA) (mat_of_cols dB CB).
Proof.
  intros Hinv Hg Hn Habs. pose proof (check_inverse_sound _ _ _ _ _ _ Hinv) as HPQ.
  destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ Hn) as [HA HB].
  apply (proj1 (skip_reduction_ungated sigma d n n _ _ _ _ HPQ)) in Habs.
  pose proof
    (generic_skip d n _ _ _ _ HPQ (check_generic_sound d n dA dB RA CB pg U V Hg HA HB)) as Hgen.
  destruct (r5 d n _ _ Hgen Habs) as [S HS].
  exact (check_nosub_skip d n dA dB dP RA CB RP p F FS _ Hn HPQ S HS).
Qed.

End Generic.

(** ** Partial certificates: only the entries the argument reads

    The data are columns [R] of [W_up] ([RA]: row [i] holds [A i (R_j)]) and
    rows [R] of [W_down] ([CB]: column [i] holds [B (R_k) i]), [R] a list of
    distinct indices below [d].  Genericity of the block gives genericity of
    every pair of matrices that agrees with it ([generic_restrict]); a subset
    [S] for the full matrices gives one for the block, whose target is the
    identity again because [R] has no repeats ([submatrix_restrict]). *)

Fixpoint nodupb (R : list nat) : bool :=
  match R with [] => true | k :: R' => negb (existsb (Nat.eqb k) R') && nodupb R' end.

Definition index_ok (d : nat) (R : list nat) : bool := forallb (fun k => Nat.ltb k d) R && nodupb R.

(** [A] agrees with the data on columns [R]; [B] on rows [R]. *)
Definition agrees_up (n : nat) (R : list nat) (dA : Z) (RA : list (list int)) (A : mat) : Prop :=
  forall i j, (i < n)%nat -> (j < length R)%nat -> A i (nth j R O) = mat_of_rows dA RA i j.

Definition agrees_down (n : nat) (R : list nat) (dB : Z) (CB : list (list int)) (B : mat) : Prop :=
  forall k i, (k < length R)%nat -> (i < n)%nat -> B (nth k R O) i = mat_of_cols dB CB k i.

Lemma nodupb_nth R : nodupb R = true ->
  forall j k, (j < length R)%nat -> (k < length R)%nat -> nth j R O = nth k R O -> j = k.
Proof.
  intros H. apply NoDup_nth. induction R as [|x R IH]; [constructor|].
  simpl in H. apply andb_prop in H as [H1 H2]. constructor; [|exact (IH H2)].
  intros Hin. apply Bool.negb_true_iff in H1. rewrite <- Bool.not_true_iff_false in H1.
  apply H1. apply existsb_exists. exists x. split; [exact Hin | apply Nat.eqb_refl].
Qed.

Lemma index_ok_lt d R : index_ok d R = true -> forall j, (j < length R)%nat -> (nth j R O < d)%nat.
Proof.
  unfold index_ok. intros H j Hj. apply andb_prop in H as [H _]. rewrite forallb_forall in H.
  apply Nat.ltb_lt. apply H. apply nth_In. exact Hj.
Qed.

Lemma generic_restrict d n R (A B A' B' : mat) :
  (forall j, (j < length R)%nat -> (nth j R O < d)%nat) ->
  (forall i j, (i < n)%nat -> (j < length R)%nat -> A i (nth j R O) = A' i j) ->
  (forall k i, (k < length R)%nat -> (i < n)%nat -> B (nth k R O) i = B' k i) ->
  generic (length R) n A' B' -> generic d n A B.
Proof.
  intros HR HA HB [G1 [G2 G3]]. split; [|split].
  - intros i Hi. destruct (G1 i Hi) as [k [Hk Hnz]]. exists (nth k R O).
    split; [exact (HR k Hk)|]. unfold row in *. rewrite (HA i k Hi Hk). exact Hnz.
  - intros i j Hi Hj Hij a b Hab. apply (G2 i j Hi Hj Hij a b). intros k Hk. unfold row.
    rewrite <- (HA i k Hi Hk), <- (HA j k Hj Hk). exact (Hab _ (HR k Hk)).
  - intros i Hi. destruct (G3 i Hi) as [k [Hk Hnz]]. exists (nth k R O).
    split; [exact (HR k Hk)|]. unfold col in *. rewrite (HB k i Hk Hi). exact Hnz.
Qed.

Lemma submatrix_restrict d n R S (A B A' B' : mat) :
  index_ok d R = true ->
  (forall i j, (i < n)%nat -> (j < length R)%nat -> A i (nth j R O) = A' i j) ->
  (forall k i, (k < length R)%nat -> (i < n)%nat -> B (nth k R O) i = B' k i) ->
  submatrix_cond d n S A B -> submatrix_cond (length R) n S A' B'.
Proof.
  intros Hok HA HB Hs k l Hk Hl.
  pose proof (index_ok_lt d R Hok) as HR.
  assert (E : subset_sum n S A' B' k l = subset_sum n S A B (nth k R O) (nth l R O)).
  { unfold subset_sum. apply sumn_ext. intros i Hi. destruct (S i); [|reflexivity].
    rewrite (HA i l Hi Hl), (HB k i Hk Hi). reflexivity. }
  rewrite E, (Hs _ _ (HR k Hk) (HR l Hl)). f_equal. unfold identity.
  destruct (Nat.eq_dec (nth k R O) (nth l R O)) as [Q|Q], (Nat.eq_dec k l)
    as [Q'|Q']; try reflexivity.
  - exfalso. apply Q'. unfold index_ok in Hok. apply andb_prop in Hok as [_ Hnd].
    exact (nodupb_nth R Hnd k l Hk Hl Q).
  - subst. contradiction.
Qed.

Section Partial.

Variable sigma : R -> R.
Variable r5 : generic_submatrix_property sigma.
Variables (d n : nat) (R : list nat) (dA dB : Z) (RA CB : list (list int)) (pg : int)
    (U V : list int)
  (p : int) (F : list nat) (FS : list (option nat * functional)).

(** Not absorbable, for every [(W_up, W_down)] agreeing with the block. *)
Lemma cert_generic_not_absorbable_partial :
  index_ok d R = true ->
  check_generic_sorted (length R) n RA CB pg U V = true ->
  check_nosub (length R) n dA dB 1 RA CB (id_rows (length R)) p F FS = true ->
  forall A B : mat, agrees_up n R dA RA A -> agrees_down n R dB CB B ->
  ~ absorbable_ungated sigma d n n identity A B.
Proof.
  intros Hok Hg Hn A B HA HB Habs.
  destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ Hn) as [HdA HdB].
  pose proof (check_generic_sorted_sound _ n dA dB RA CB pg U V Hg HdA HdB) as Hgen.
  destruct (r5 d n A B (generic_restrict d n R A B _ _ (index_ok_lt d R Hok) HA HB Hgen) Habs)
    as [S HS].
  exact
    (check_nosub_identity _ n dA dB RA CB p F FS Hn S
      (submatrix_restrict d n R S A B _ _ Hok HA HB HS)).
Qed.

End Partial.

(** ** Not absorbable for every weight of a shape: R3 (gated), R2 (relu^k) *)

Lemma cert_gated_not_absorbable (gate : R -> R)
    (r3 : forall d n m P C A B, nonzero_mat d P -> ~ absorbable_gated gate d n m P C A B)
    d n sk k l :
  check_skip_nonzero d sk k l = true ->
  forall C A B, ~ absorbable_gated gate d n n (skip_mat sk) C A B.
Proof. intros H C A B. exact (r3 d n n _ C A B (check_skip_nonzero_sound d sk k l H)). Qed.

Lemma cert_relu_pow_not_absorbable kk d n sk k l :
  Nat.eqb kk 1 = false -> check_skip_nonzero d sk k l = true ->
  forall A B, ~ absorbable_ungated (relu_pow kk) d n n (skip_mat sk) A B.
Proof.
  intros Hk H A B. apply Nat.eqb_neq in Hk.
  exact (relu_pow_not_absorbable kk d n n _ A B Hk (check_skip_nonzero_sound d sk k l H)).
Qed.

(** ** Non-vacuity: certificates of each kind on small data *)

(** [d = n = 1], [a = 3], [b = -1/3]: absorbable with [S = {0}]. *)
Example cert_absorbable_example :
  absorbable_ungated relu 1 1 1 identity (mat_of_rows 1 [[3]]%uint63)
    (mat_of_cols 3 [[9223372036854775807]]%uint63).
Proof.
  exact
    (cert_absorbable relu relu_odd_part 1 1 1 3 [[3]]%uint63 [[9223372036854775807]]%uint63 [true]
           [7; 11]%uint63 eq_refl).
Qed.

(** [d = n = 1], [a = b = 1]: generic, [b a = 1 <> -1], not absorbable. *)
Example cert_generic_example :
  ~ absorbable_ungated relu 1 1 1 identity (mat_of_rows 1 [[1]]%uint63)
    (mat_of_cols 1 [[1]]%uint63).
Proof.
  exact (cert_generic_not_absorbable relu relu_generic_submatrix 1 1 1 1 [[1]]%uint63 [[1]]%uint63
           7%uint63 [1]%uint63 [0]%uint63 7%uint63 [0]%nat [(None, [(0%nat, [1%uint63])])]
           eq_refl eq_refl).
Qed.

Example cert_gated_example : forall C A B, ~ absorbable_gated silu 2 3 3 identity C A B.
Proof. exact (cert_gated_not_absorbable silu swiglu_not_absorbable 2 3 None 0 0 eq_refl). Qed.

(** A partial certificate: [d = 2], [n = 1], block [R = [1]] (column 1 of [W_up],
    row 1 of [W_down], both 1); every pair agreeing there is not absorbable. *)
Example cert_partial_example : forall A B : mat,
  agrees_up 1 [1%nat] 1 [[1]]%uint63 A -> agrees_down 1 [1%nat] 1 [[1]]%uint63 B ->
  ~ absorbable_ungated relu 2 1 1 identity A B.
Proof.
  exact
    (cert_generic_not_absorbable_partial relu relu_generic_submatrix 2 1 [1%nat] 1 1 [[1]]%uint63
           [[1]]%uint63 7%uint63 [1]%uint63 [1]%uint63 7%uint63 [0]%nat
           [(None, [(0%nat, [1%uint63])])]
           eq_refl eq_refl eq_refl).
Qed.
