(** * R6: generic disjointness of residual and residual-free ReLU blocks

    The bad set [bad d n = Z ∪ non-generic] is closed with empty interior
    (for [1 <= d] and [2 <= d \/ n <= 1]), and for every [(A, B)] outside it
    the residual ReLU block [x |-> x + B ReLU(A x)] is not absorbable at
    width [n] (by R5 (=>), [relu_absorbable_generic_submatrix] of
    [ReluSubmatrix.v]).  So on an open dense set of parameters skip-connected
    and residual-free ReLU MLPs of the same width are disjoint.  The bad set
    is also Lebesgue-null ([NullDisjointness.bad_null]), which gives the
    paper's "almost every"; for GELU, GELU_tanh and SiLU the same holds
    ([PaperProofs.disjoint_of_R5], statements [Paper.R6_disjoint_*]).

    Main result: [generic_disjointness]; [disjointness_example] is a concrete
    point outside [bad]. *)

From Coq Require Import Reals Lra Lia Classical.
From Absorb Require Import Sums Blocks ActivationDefs ParamSets ReluSubmatrix NonGeneric.
Open Scope R_scope.

Definition bad (d n : nat) (A B : mat) : Prop := in_Z d n A B \/ nongeneric d n A B.

Lemma bad_complement_open d n : open_set d n (fun A B => ~ bad d n A B).
Proof. exact (Z_union_complement_open d n _ (generic_open d n)). Qed.

Lemma bad_closed d n : closed_set d n (bad d n).
Proof. exact (Z_union_closed d n _ (generic_open d n)). Qed.

Lemma bad_empty_interior d n :
  (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat -> empty_interior d n (bad d n).
Proof.
  intros Hd Hdn.
  exact (Z_union_empty_interior d n _ Hd (generic_open d n) (nongeneric_empty_interior d n Hd Hdn)).
Qed.

Lemma not_bad_not_absorbable d n A B :
  ~ bad d n A B -> ~ absorbable_ungated relu d n n identity A B.
Proof.
  intros Hnb Habs.
  assert (HG : generic d n A B) by (apply NNPP; intros H; apply Hnb; right; exact H).
  apply Hnb. left. exact (relu_absorbable_generic_submatrix d n A B HG Habs).
Qed.

Theorem generic_disjointness d n :
  (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat ->
  closed_set d n (bad d n) /\ empty_interior d n (bad d n) /\
  forall A B, ~ bad d n A B -> ~ absorbable_ungated relu d n n identity A B.
Proof.
  intros Hd Hdn. split; [apply bad_closed|]. split; [apply bad_empty_interior; assumption|].
  apply not_bad_not_absorbable.
Qed.

(** ** Non-vacuity: [d = n = 1], [a = 1], [b = 1] is outside [bad], so
    [x + ReLU(x)] is not a ReLU block of width 1. *)

Example not_bad_example : ~ bad 1 1 (fun _ _ => 1) (fun _ _ => 1).
Proof.
  intros [[S HS]|HN].
  - specialize (HS 0%nat 0%nat ltac:(lia) ltac:(lia)).
    unfold subset_sum, identity in HS. simpl in HS. destruct (S 0%nat); lra.
  - apply HN. split; [|split].
    + intros i _. exists 0%nat. split; [lia | unfold row; lra].
    + intros i j Hi Hj Hij. lia.
    + intros i _. exists 0%nat. split; [lia | unfold col; lra].
Qed.

Example disjointness_example :
  ~ absorbable_ungated relu 1 1 1 identity (fun _ _ => 1) (fun _ _ => 1).
Proof. exact (not_bad_not_absorbable 1 1 _ _ not_bad_example). Qed.
