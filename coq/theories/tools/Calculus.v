(** * Derivatives of finite sums (Coquelicot) and [exp (k a) = (exp a)^k]

    [is_derive_sumn]: a finite sum of differentiable functions is
    differentiable, termwise; [is_derive_zero_fun]: a function that is [0]
    everywhere has derivative [0]; [exp_INR_mult]. *)

From Coq Require Import Reals Lra Lia.
From Coquelicot Require Import Coquelicot.
From Absorb Require Import Sums.
Open Scope R_scope.

Lemma is_derive_sumn N (f : nat -> R -> R) (df : nat -> R) t :
  (forall j, (j < N)%nat -> is_derive (f j) t (df j)) ->
  is_derive (fun s => sumn N (fun j => f j s)) t (sumn N df).
Proof.
  induction N as [|N IH]; intros H; simpl.
  - apply (is_derive_const (K := R_AbsRing) (V := R_NormedModule) 0 t).
  - apply (is_derive_plus (K := R_AbsRing) (V := R_NormedModule)).
    + apply IH. intros; apply H; lia.
    + apply H; lia.
Qed.

(** A function equal to [0] everywhere has derivative [0]. *)
Lemma is_derive_zero_fun (f : R -> R) t l : (forall s, f s = 0) -> is_derive f t l -> l = 0.
Proof.
  intros Hf Hd.
  assert (H0 : is_derive f t 0).
  { apply (is_derive_ext (K := R_AbsRing) (V := R_NormedModule) (fun _ => 0));
        [intros; rewrite Hf; reflexivity|].
    apply (is_derive_const (K := R_AbsRing) (V := R_NormedModule)). }
  apply is_derive_unique in Hd. apply is_derive_unique in H0. congruence.
Qed.

Lemma exp_INR_mult k a : exp (INR k * a) = exp a ^ k.
Proof.
  induction k as [|k IH].
  - simpl. rewrite Rmult_0_l. apply exp_0.
  - rewrite S_INR, Rmult_plus_distr_r, Rmult_1_l, exp_plus, IH. simpl. ring.
Qed.

