(** * Finite sums over the reals: the algebra of [sumn]

    [sumn n f] is [f 0 + ... + f (n-1)] (defined in [spec/SumDefs.v], which
    this file re-exports).  The lemmas here are the only facts
    about finite sums the library relies on: extensionality on the index
    range, linearity, exchange of a double sum, splitting, the Kronecker
    delta, and the triangle inequality. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Export SumDefs.
Open Scope R_scope.


Lemma sumn_0 f : sumn 0 f = 0.
Proof. reflexivity. Qed.

Lemma sumn_S n f : sumn (S n) f = sumn n f + f n.
Proof. reflexivity. Qed.

Lemma sumn_ext n f g :
  (forall i, (i < n)%nat -> f i = g i) -> sumn n f = sumn n g.
Proof.
  induction n as [|n IH]; intros H; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H n) by lia. reflexivity.
Qed.

Lemma sumn_zero n f : (forall i, (i < n)%nat -> f i = 0) -> sumn n f = 0.
Proof.
  induction n as [|n IH]; intros H; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H n) by lia. lra.
Qed.

Lemma sumn_plus n f g :
  sumn n (fun i => f i + g i) = sumn n f + sumn n g.
Proof. induction n; simpl; [lra | rewrite IHn; lra]. Qed.

Lemma sumn_opp n f : sumn n (fun i => - f i) = - sumn n f.
Proof. induction n; simpl; [lra | rewrite IHn; lra]. Qed.

Lemma sumn_minus n f g :
  sumn n (fun i => f i - g i) = sumn n f - sumn n g.
Proof. induction n; simpl; [lra | rewrite IHn; lra]. Qed.

Lemma sumn_scal_l n c f : sumn n (fun i => c * f i) = c * sumn n f.
Proof. induction n; simpl; [lra | rewrite IHn; lra]. Qed.

Lemma sumn_scal_r n c f : sumn n (fun i => f i * c) = sumn n f * c.
Proof. induction n; simpl; [lra | rewrite IHn; lra]. Qed.

Lemma sumn_swap n m (f : nat -> nat -> R) :
  sumn n (fun i => sumn m (fun j => f i j)) =
  sumn m (fun j => sumn n (fun i => f i j)).
Proof.
  induction n as [|n IH]; simpl.
  - symmetry. apply sumn_zero. reflexivity.
  - rewrite IH, <- sumn_plus. reflexivity.
Qed.

Lemma sumn_add n m f :
  sumn (n + m) f = sumn n f + sumn m (fun i => f (n + i)%nat).
Proof.
  induction m as [|m IH]; simpl.
  - rewrite Nat.add_0_r. lra.
  - rewrite Nat.add_succ_r. simpl. rewrite IH. lra.
Qed.

(** Only the [i]-th term survives. *)
Lemma sumn_delta n i f :
  (i < n)%nat ->
  sumn n (fun j => if Nat.eq_dec i j then f j else 0) = f i.
Proof.
  induction n as [|n IH]; intros Hi; [lia|]. simpl.
  destruct (Nat.eq_dec i n) as [->|Hne].
  - rewrite sumn_zero; [lra|]. intros j Hj.
    destruct (Nat.eq_dec n j); [lia | reflexivity].
  - rewrite IH by lia. lra.
Qed.

Lemma sumn_le n f g :
  (forall i, (i < n)%nat -> f i <= g i) -> sumn n f <= sumn n g.
Proof.
  induction n as [|n IH]; intros H; simpl; [lra|].
  pose proof (H n ltac:(lia)). pose proof (IH ltac:(intros; apply H; lia)). lra.
Qed.

Lemma sumn_nonneg n f :
  (forall i, (i < n)%nat -> 0 <= f i) -> 0 <= sumn n f.
Proof.
  intros H. rewrite <- (sumn_zero n (fun _ => 0)) by reflexivity.
  apply sumn_le. exact H.
Qed.

Lemma sumn_abs n f : Rabs (sumn n f) <= sumn n (fun i => Rabs (f i)).
Proof.
  induction n; simpl.
  - rewrite Rabs_R0. lra.
  - eapply Rle_trans; [apply Rabs_triang|]. lra.
Qed.

(** A single nonnegative term is bounded by the whole sum. *)
Lemma sumn_term_le n f i :
  (forall j, (j < n)%nat -> 0 <= f j) -> (i < n)%nat -> f i <= sumn n f.
Proof.
  induction n as [|n IH]; intros H Hi; [lia|]. simpl.
  destruct (Nat.eq_dec i n) as [->|Hne].
  - pose proof (sumn_nonneg n f ltac:(intros; apply H; lia)). lra.
  - pose proof (IH ltac:(intros; apply H; lia) ltac:(lia)).
    pose proof (H n ltac:(lia)). lra.
Qed.
