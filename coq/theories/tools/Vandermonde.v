(** * Vandermonde: vanishing power sums over distinct nodes

    Main result: [vandermonde_zero]: if the nodes [x_0, ..., x_{N-1}] are
    pairwise distinct and [sum_j w_j x_j^k = 0] for [k = 0 .. N-1], then
    every weight [w_j] is [0].  Proof by induction on [N]: the weights
    [w_j (x_j - x_{N-1})] satisfy the same hypothesis for the first [N - 1]
    nodes.  Also [vandermonde_zero_shift]: the same with the powers
    [x_j^(k+1)] and nonzero distinct nodes (the moment form). *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums.
Open Scope R_scope.

Theorem vandermonde_zero : forall N (w x : nat -> R),
  (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> x i <> x j) ->
  (forall k, (k < N)%nat -> sumn N (fun j => w j * x j ^ k) = 0) ->
  forall j, (j < N)%nat -> w j = 0.
Proof.
  induction N as [|N IH]; intros w x Hx Hs; [intros; lia|].
  assert (Hw' : forall j, (j < N)%nat -> w j * (x j - x N) = 0).
  { apply (IH (fun j => w j * (x j - x N)) x).
    - intros i j Hi Hj Hne. apply Hx; lia.
    - intros k Hk.
      assert (E : sumn (S N) (fun j => w j * (x j - x N) * x j ^ k) = 0).
      { rewrite (sumn_ext (S N) _ (fun j => w j * x j ^ S k - x N * (w j * x j ^ k)))
          by (intros; simpl; ring).
        rewrite sumn_minus, sumn_scal_l, !Hs by lia. ring. }
      rewrite sumn_S in E. replace (x N - x N) with 0 in E by ring. lra. }
  assert (Hlow : forall j, (j < N)%nat -> w j = 0).
  { intros j Hj. specialize (Hw' j Hj).
    assert (x j - x N <> 0) by (pose proof (Hx j N ltac:(lia) ltac:(lia) ltac:(lia)); lra).
    apply Rmult_integral in Hw'. destruct Hw'; [assumption | contradiction]. }
  assert (HN : w N = 0).
  { pose proof (Hs 0%nat ltac:(lia)) as E. rewrite sumn_S, (sumn_zero N) in E.
    - simpl in E. lra.
    - intros j Hj. rewrite Hlow by exact Hj. ring. }
  intros j Hj. destruct (Nat.eq_dec j N) as [->|]; [exact HN | apply Hlow; lia].
Qed.

(** Moment form: powers [1 .. N] and nonzero nodes. *)
Corollary vandermonde_zero_shift : forall N (w x : nat -> R),
  (forall j, (j < N)%nat -> x j <> 0) ->
  (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> x i <> x j) ->
  (forall k, (k < N)%nat -> sumn N (fun j => w j * x j ^ S k) = 0) ->
  forall j, (j < N)%nat -> w j = 0.
Proof.
  intros N w x Hx0 Hx Hs j Hj.
  assert (H : w j * x j = 0).
  { apply (vandermonde_zero N (fun j => w j * x j) x Hx); [|exact Hj].
    intros k Hk. rewrite <- (Hs k Hk). apply sumn_ext. intros; simpl; ring. }
  apply Rmult_integral in H. destruct H as [H|H]; [exact H | exfalso; exact (Hx0 j Hj H)].
Qed.

(** Non-vacuity: two distinct nodes [1, 2] and zero weights. *)
Example vandermonde_instance :
  (forall i j, (i < 2)%nat -> (j < 2)%nat -> i <> j -> INR (S i) <> INR (S j)) /\
  (forall k, (k < 2)%nat -> sumn 2 (fun j => 0 * INR (S j) ^ k) = 0).
Proof.
  split.
  - intros i j _ _ Hne E. apply INR_eq in E. lia.
  - intros k _. simpl. ring.
Qed.
