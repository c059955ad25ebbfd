(** * Finite combinatorics on [{0 .. n-1}]

    [sumn_nonzero_term]: a nonzero sum has a nonzero term;
    [finite_choice]: choice over a finite index range (no axiom);
    [injective_bound]: an injection [{0..n-1} -> {0..m-1}] forces [n <= m];
    [injective_surjective]: an injection of [{0..n-1}] into itself is onto;
    [sumn_reindex]: a sum is invariant under such a bijection. *)

From Coq Require Import Reals Lra Lia Arith List.
From Absorb Require Import Sums.
Open Scope R_scope.

Lemma sumn_nonzero_term N f : sumn N f <> 0 -> exists j, (j < N)%nat /\ f j <> 0.
Proof.
  induction N as [|N IH]; intros H; [rewrite sumn_0 in H; lra|].
  rewrite sumn_S in H. destruct (Req_EM_T (f N) 0) as [E|E].
  - destruct IH as [j [Hj Hf]]; [lra|]. exists j. split; [lia | exact Hf].
  - exists N. split; [lia | exact E].
Qed.

(** Choice over a finite index range needs no axiom. *)
Lemma finite_choice {T : Type} (t0 : T) n (P : nat -> T -> Prop) :
  (forall i, (i < n)%nat -> exists x, P i x) ->
  exists f : nat -> T, forall i, (i < n)%nat -> P i (f i).
Proof.
  induction n as [|n IH]; intros H.
  - exists (fun _ => t0). intros; lia.
  - destruct IH as [f Hf]; [intros; apply H; lia|].
    destruct (H n ltac:(lia)) as [x Hx].
    exists (fun i => if Nat.eq_dec i n then x else f i). intros i Hi.
    destruct (Nat.eq_dec i n) as [->|]; [exact Hx | apply Hf; lia].
Qed.

(** ** Pigeonhole on [{0 .. n-1}] *)

Lemma nodup_map_inj (f : nat -> nat) l :
  (forall a b, In a l -> In b l -> f a = f b -> a = b) -> NoDup l -> NoDup (map f l).
Proof.
  intros Hi Hnd. induction Hnd as [|x l Hx Hnd IH]; simpl; constructor.
  - intros Hin. apply in_map_iff in Hin as [y [E Hy]].
    assert (y = x) by (apply Hi; simpl; auto). subst. contradiction.
  - apply IH. intros a b Ha Hb. apply Hi; simpl; auto.
Qed.

Lemma nodup_map_seq n (f : nat -> nat) :
  (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> f i1 = f i2 -> i1 = i2) ->
  NoDup (map f (seq 0 n)).
Proof.
  intros Hi. apply nodup_map_inj; [|apply seq_NoDup].
  intros a b Ha Hb. apply in_seq in Ha, Hb. apply Hi; lia.
Qed.

Lemma incl_map_seq n m (f : nat -> nat) :
  (forall i, (i < n)%nat -> (f i < m)%nat) -> incl (map f (seq 0 n)) (seq 0 m).
Proof.
  intros Hr y Hy. apply in_map_iff in Hy as [i [<- Hi]]. apply in_seq in Hi.
  apply in_seq. split; [lia|]. simpl. apply Hr. lia.
Qed.

Lemma injective_bound n m (f : nat -> nat) :
  (forall i, (i < n)%nat -> (f i < m)%nat) ->
  (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> f i1 = f i2 -> i1 = i2) ->
  (n <= m)%nat.
Proof.
  intros Hr Hi.
  pose proof (NoDup_incl_length (nodup_map_seq n f Hi) (incl_map_seq n m f Hr)) as H.
  rewrite map_length, !seq_length in H. exact H.
Qed.

Lemma injective_surjective n (f : nat -> nat) :
  (forall i, (i < n)%nat -> (f i < n)%nat) ->
  (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> f i1 = f i2 -> i1 = i2) ->
  forall j, (j < n)%nat -> exists i, (i < n)%nat /\ f i = j.
Proof.
  intros Hr Hi j Hj.
  assert (Hin : In j (map f (seq 0 n))).
  { apply (NoDup_length_incl (l := map f (seq 0 n)) (l' := seq 0 n) (nodup_map_seq n f Hi)).
    - rewrite map_length. lia.
    - exact (incl_map_seq n n f Hr).
    - apply in_seq. lia. }
  apply in_map_iff in Hin as [i [Hfi Hi']]. apply in_seq in Hi'.
  exists i. split; [lia | exact Hfi].
Qed.

(** Reindexing a sum along a bijection of [{0 .. n-1}]. *)
Lemma sumn_reindex n (f : nat -> nat) (g : nat -> R) :
  (forall i, (i < n)%nat -> (f i < n)%nat) ->
  (forall i1 i2, (i1 < n)%nat -> (i2 < n)%nat -> f i1 = f i2 -> i1 = i2) ->
  (forall j, (j < n)%nat -> exists i, (i < n)%nat /\ f i = j) ->
  sumn n g = sumn n (fun i => g (f i)).
Proof.
  intros Hr Hinj Hsurj.
  transitivity (sumn n (fun j => sumn n (fun i => if Nat.eq_dec (f i) j then g (f i) else 0))).
  - apply sumn_ext. intros j Hj. destruct (Hsurj j Hj) as [i0 [Hi0 <-]].
    rewrite (sumn_ext n _ (fun i => if Nat.eq_dec i0 i then g (f i) else 0)).
    + symmetry. apply (sumn_delta n i0 (fun i => g (f i))). exact Hi0.
    + intros i Hi. destruct (Nat.eq_dec (f i) (f i0)) as [E|E], (Nat.eq_dec i0 i) as [E'|E'].
      * reflexivity.
      * exfalso. apply E'. symmetry. apply Hinj; assumption.
      * subst. contradiction.
      * reflexivity.
  - rewrite sumn_swap. apply sumn_ext. intros i Hi.
    rewrite (sumn_ext n _ (fun j => if Nat.eq_dec (f i) j then g j else 0)).
    + apply sumn_delta. apply Hr. exact Hi.
    + intros j _. destruct (Nat.eq_dec (f i) j) as [<-|]; reflexivity.
Qed.

