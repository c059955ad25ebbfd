(** * Certificates on residues: the block given modulo the checkers' primes

    A partial certificate ([Certify.cert_generic_not_absorbable_partial]) reads the
    block's entries only modulo two primes: [p] for the no-subset functional, [pg]
    for the sorted-ratio genericity check.  Here the certificate carries just those
    residues: [RAp], [CBp] (columns [R] of [W_up], rows [R] of [W_down], modulo [p])
    and [RAg], [CBg] (columns [R2], rows [R2], modulo [pg]; genericity on a few
    indices gives genericity of the whole, [Certify.generic_restrict]).  The verdict
    is stated for every pair of matrices whose entries there are integers over [dA]
    (resp. [dB]) congruent to the data ([agrees_up_mod], [agrees_down_mod]); the
    user's weights are such a pair when their integer numerators have these
    residues ([agrees_up_mod_of_entries], [agrees_down_mod_of_entries]).

    [cert_generic_not_absorbable_partial_mod] (identity skip, no biases: R5 (=>)) and
    [cert_bias_not_absorbable_partial_mod] (with biases, width [n]: R9 (=>)).
    Examples: [cert_mod_example], [cert_bias_mod_example], and the premises of
    both satisfied by a concrete pair ([mod_example_agrees]). *)

From Coq Require Import Reals ZArith Lia List Uint63.
From Absorb Require Import Sums Blocks BiasBlocks ActivationDefs Activations BiasSpec ReluBias.
From Absorb Require Import Certify CodedData CertifyCoded CertifyBias.
Import ListNotations.
Open Scope bool_scope.

Local Notation phi := Uint63.to_Z.

(** [A]'s entries on columns [R] are integers over [dA], congruent modulo [p] to [X]'s. *)
Definition agrees_up_mod (n : nat) (R : list nat) (dA : Z) (p : int) (X : list (list int))
    (A : mat) : Prop :=
  exists eA : nat -> nat -> Z, congr (phi p) (zentry X) eA /\
    forall i j, (i < n)%nat -> (j < length R)%nat -> A i (nth j R O) = zmat dA eA i j.

(** [B]'s entries on rows [R] likewise; [X] holds [B]'s columns ([X_i] is column [i]). *)
Definition agrees_down_mod (n : nat) (R : list nat) (dB : Z) (p : int) (X : list (list int))
    (B : mat) : Prop :=
  exists eBt : nat -> nat -> Z, congr (phi p) (zentry X) eBt /\
    forall k i, (k < length R)%nat -> (i < n)%nat -> B (nth k R O) i = zmat_t dB eBt k i.

(** ** The premises hold for matrices whose numerators have the given residues *)

Lemma agrees_up_mod_of_entries n R dA p X (A : mat) (e : nat -> nat -> Z) :
  (forall i j, (i < n)%nat -> (j < length R)%nat ->
     A i (nth j R O) = (IZR (e i j) / IZR dA)%R /\ (e i j mod phi p = zentry X i j mod phi p)%Z) ->
  agrees_up_mod n R dA p X A.
Proof.
  intros H.
  exists (fun i j => if Nat.ltb i n && Nat.ltb j (length R) then e i j else zentry X i j).
  split.
  - intros i j. destruct (Nat.ltb i n && Nat.ltb j (length R)) eqn:Ein; [|reflexivity].
    apply andb_prop in Ein as [Ei Ej]. apply Nat.ltb_lt in Ei, Ej.
    symmetry. exact (proj2 (H i j Ei Ej)).
  - intros i j Hi Hj. unfold zmat.
    replace (Nat.ltb i n && Nat.ltb j (length R)) with true
      by (symmetry; apply andb_true_intro; split; apply Nat.ltb_lt; assumption).
    exact (proj1 (H i j Hi Hj)).
Qed.

Lemma agrees_down_mod_of_entries n R dB p X (B : mat) (e : nat -> nat -> Z) :
  (forall k i, (k < length R)%nat -> (i < n)%nat ->
     B (nth k R O) i = (IZR (e i k) / IZR dB)%R /\ (e i k mod phi p = zentry X i k mod phi p)%Z) ->
  agrees_down_mod n R dB p X B.
Proof.
  intros H.
  destruct (agrees_up_mod_of_entries n R dB p X (fun i k => B k i) e (fun i k Hi Hk => H k i Hk Hi))
    as [eB [C HB]].
  exists eB. split; [exact C|]. intros k i Hk Hi. exact (HB i k Hi Hk).
Qed.

(** ** Canonical residues *)

(** Every entry of [X] lies in [[0, p)]. *)
Definition residues_below (p : int) (X : list (list int)) : bool :=
  forallb (forallb (fun x => (x <? p)%uint63)) X.

Lemma residues_below_nth p X i k :
  (0 < phi p)%Z -> residues_below p X = true -> (nth k (nth i X []) 0%uint63 <? p)%uint63 = true.
Proof.
  intros Hp H. unfold residues_below in H. rewrite forallb_forall in H.
  assert (H0 : (0 <? p)%uint63 = true) by (apply ltb_spec; exact Hp).
  destruct (Nat.lt_ge_cases i (length X)) as [Hi|Hi].
  - pose proof (H _ (nth_In X [] Hi)) as Hrow. rewrite forallb_forall in Hrow.
    destruct (Nat.lt_ge_cases k (length (nth i X []))) as [Hk|Hk].
    + exact (Hrow _ (nth_In _ 0%uint63 Hk)).
    + rewrite nth_overflow by exact Hk. exact H0.
  - rewrite (nth_overflow X [] Hi). destruct k; exact H0.
Qed.

(** Data in [[0, p)] congruent to [e] are [e]'s residues, entry by entry. *)
Lemma canonical_residues p X e :
  (1 < phi p < 2 ^ 31)%Z -> residues_below p X = true -> congr (phi p) (zentry X) e ->
  forall i k, (zentry X i k = e i k mod phi p)%Z.
Proof.
  intros Hp Hb C i k. rewrite <- (C i k). symmetry. apply Z.mod_small.
  pose proof (proj1 (ltb_spec _ _) (residues_below_nth p X i k ltac:(lia) Hb)) as Hlt.
  unfold zentry. rewrite zval_small by lia.
  pose proof (to_Z_bounded (nth k (nth i X []) 0%uint63)). lia.
Qed.

(** ** The block on residues: genericity from [R2], no subset from [R] *)

Section Residues.

Variable sigma : R -> R.
Variables (d n : nat) (R R2 : list nat) (dA dB : Z) (p pg : int)
  (RAp CBp RAg CBg : list (list int)) (U V : list int) (F : list nat)
  (FS : list (option nat * functional)).

Lemma generic_of_residues (A B : mat) :
  index_ok d R2 = true -> (0 < dA)%Z -> (0 < dB)%Z ->
  check_generic_sorted (length R2) n RAg CBg pg U V = true -> residues_below pg CBg = true ->
  agrees_up_mod n R2 dA pg RAg A -> agrees_down_mod n R2 dB pg CBg B -> generic d n A B.
Proof.
  intros Hok HdA HdB Hg Hb [eA [CA HA]] [eBt [CB HB]].
  pose proof (check_generic_sorted_p _ _ _ _ _ _ _ Hg) as Hpg.
  exact (generic_restrict d n R2 A B _ _ (index_ok_lt d R2 Hok) HA HB
           (check_generic_sorted_sound_congr _ n dA dB RAg CBg pg U V eA eBt Hg HdA HdB CA
              (canonical_residues pg CBg eBt Hpg Hb CB))).
Qed.

Lemma no_subset_of_residues (A B : mat) :
  index_ok d R = true ->
  check_nosub (length R) n dA dB 1 RAp CBp (id_rows (length R)) p F FS = true ->
  agrees_up_mod n R dA p RAp A -> agrees_down_mod n R dB p CBp B ->
  forall S, ~ submatrix_cond d n S A B.
Proof.
  intros Hok Hn [eA [CA HA]] [eBt [CB HB]] S HS.
  exact (check_nosub_identity_congr _ n dA dB _ _ p F FS eA eBt Hn CA CB S
           (submatrix_restrict d n R S A B _ _ Hok HA HB HS)).
Qed.

(** R5 (=>): not absorbable, for every [(W_up, W_down)] agreeing with the residues. *)
Lemma cert_generic_not_absorbable_partial_mod (r5 : generic_submatrix_property sigma) :
  index_ok d R = true -> index_ok d R2 = true ->
  check_generic_sorted (length R2) n RAg CBg pg U V = true -> residues_below pg CBg = true ->
  check_nosub (length R) n dA dB 1 RAp CBp (id_rows (length R)) p F FS = true ->
  forall A B : mat, agrees_up_mod n R dA p RAp A -> agrees_down_mod n R dB p CBp B ->
    agrees_up_mod n R2 dA pg RAg A -> agrees_down_mod n R2 dB pg CBg B ->
  ~ absorbable_ungated sigma d n n identity A B.
Proof.
  intros Hok Hok2 Hg Hb Hn A B HA HB HgA HgB Habs.
  destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ Hn) as [HdA HdB].
  destruct (r5 d n A B (generic_of_residues A B Hok2 HdA HdB Hg Hb HgA HgB) Habs) as [S HS].
  exact (no_subset_of_residues A B Hok Hn HA HB S HS).
Qed.

(** R9 (=>), width [n]: not absorbable, for every [(W_up, c, W_down, b0)] agreeing with the
    residues; the biases are not read. *)
Theorem cert_bias_not_absorbable_partial_mod (r9 : bias_lines_property sigma) :
  index_ok d R = true -> index_ok d R2 = true ->
  check_generic_sorted (length R2) n RAg CBg pg U V = true -> residues_below pg CBg = true ->
  check_nosub (length R) n dA dB 1 RAp CBp (id_rows (length R)) p F FS = true ->
  forall (A : mat) (c : vec) (B : mat) (b0 : vec),
    agrees_up_mod n R dA p RAp A -> agrees_down_mod n R dB p CBp B ->
    agrees_up_mod n R2 dA pg RAg A -> agrees_down_mod n R2 dB pg CBg B ->
  ~ absorbable_ungated_bias sigma d n n identity A c B b0.
Proof.
  intros Hok Hok2 Hg Hb Hn A c B b0 HA HB HgA HgB.
  destruct (check_nosub_denominators _ _ _ _ _ _ _ _ _ _ _ Hn) as [HdA HdB].
  apply (bias_not_absorbable_of_generic sigma r9).
  - exact (generic_of_residues A B Hok2 HdA HdB Hg Hb HgA HgB).
  - exact (no_subset_of_residues A B Hok Hn HA HB).
Qed.

End Residues.

(** ** Non-vacuity *)

(** [d = 2], [n = 1], [R = R2 = [1]]: column 1 of [W_up] is [15 / 1] ([1] modulo [7]), row 1
    of [W_down] is [8 / 1] ([1] modulo [7]); every pair agreeing there is not absorbable. *)
Example cert_mod_example : forall A B : mat,
  agrees_up_mod 1 [1%nat] 1 7 [[1]]%uint63 A -> agrees_down_mod 1 [1%nat] 1 7 [[1]]%uint63 B ->
  agrees_up_mod 1 [1%nat] 1 7 [[1]]%uint63 A -> agrees_down_mod 1 [1%nat] 1 7 [[1]]%uint63 B ->
  ~ absorbable_ungated relu 2 1 1 identity A B.
Proof.
  exact (cert_generic_not_absorbable_partial_mod relu 2 1 [1%nat] [1%nat] 1 1 7 7 [[1]]%uint63
           [[1]]%uint63 [[1]]%uint63 [[1]]%uint63 [1]%uint63 [1]%uint63 [0]%nat
           [(None, [(0%nat, [1%uint63])])] relu_generic_submatrix
           eq_refl eq_refl eq_refl eq_refl eq_refl).
Qed.

Example cert_bias_mod_example : forall (A : mat) (c : vec) (B : mat) (b0 : vec),
  agrees_up_mod 1 [1%nat] 1 7 [[1]]%uint63 A -> agrees_down_mod 1 [1%nat] 1 7 [[1]]%uint63 B ->
  agrees_up_mod 1 [1%nat] 1 7 [[1]]%uint63 A -> agrees_down_mod 1 [1%nat] 1 7 [[1]]%uint63 B ->
  ~ absorbable_ungated_bias relu 2 1 1 identity A c B b0.
Proof.
  exact (cert_bias_not_absorbable_partial_mod relu 2 1 [1%nat] [1%nat] 1 1 7 7 [[1]]%uint63
           [[1]]%uint63 [[1]]%uint63 [[1]]%uint63 [1]%uint63 [1]%uint63 [0]%nat
           [(None, [(0%nat, [1%uint63])])] relu_bias_lines_property
           eq_refl eq_refl eq_refl eq_refl eq_refl).
Qed.

(** The premises are satisfiable: the pair with [W_up = [[0, 15]]], [W_down = [[0], [8]]]. *)
Example mod_example_agrees :
  agrees_up_mod 1 [1%nat] 1 7 [[1]]%uint63 (fun i j => if Nat.eqb j 1 then 15%R else 0%R) /\
  agrees_down_mod 1 [1%nat] 1 7 [[1]]%uint63 (fun k i => if Nat.eqb k 1 then 8%R else 0%R).
Proof.
  split.
  - apply (agrees_up_mod_of_entries _ _ _ _ _ _ (fun _ _ => 15%Z)). intros i j Hi Hj.
    simpl in Hj. replace j with O by lia. split.
    + simpl. unfold Rdiv. rewrite Rinv_1, Rmult_1_r. reflexivity.
    + replace i with O by lia. reflexivity.
  - apply (agrees_down_mod_of_entries _ _ _ _ _ _ (fun _ _ => 8%Z)). intros k i Hk Hi.
    simpl in Hk. replace k with O by lia. split.
    + simpl. unfold Rdiv. rewrite Rinv_1, Rmult_1_r. reflexivity.
    + replace i with O by lia. reflexivity.
Qed.
