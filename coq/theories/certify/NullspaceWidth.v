(** * A width lower bound from the null space of [W_up]

    On the null space of [A] the block [x + B sigma(A x)] is the identity
    ([sigma 0 = 0]), and a residual-free block spends two neurons per
    dimension of it.  Through R8: the kept ridges [u_t] of a canonical grouping
    lie on rows of [A] (a ridge with a nonzero kink has a row in its class), so
    a [d x c] matrix [X] with [A X = 0] has [U X = 0] and [L X = X]; the width
    condition [L + sum_S g_t u_t^T = sum_T e_t u_t^T + P Q] then gives
    [X = P Q X], and when [X] has rank [c] ([rank_witness]: [Z Y^T X = D I_c],
    [D <> 0]) [RankRefute.rank_refute] gives [c <= r].
    - [nullspace_width_form]: for a grouping with a zero-kink tail and nonzero
      kinks, the width condition at [m] forces [k + 2 c <= m];
    - [nullspace_width_relu] / [nullspace_width_pm]: for every [B], absorbable
      at [m] forces [2 c <= m] (ReLU; the GELU family: odd-part identity,
      [sigma 0 = 0], ridge uniqueness of the even part).
    So a block whose [W_up] has rank [rho] is not absorbable at any width below
    [2 (d - rho)], whatever [W_down] ([CertifyLowRank.v] checks concrete [X]).
    Examples: [x + b relu(x_0)] in dimension 2 is not absorbable at width 1
    ([nullspace_width_example]); its premises hold ([nullspace_example_premises]). *)

From Coq Require Import Reals Lia Lra Classical.
From Absorb Require Import Sums Blocks ActivationDefs Activations Ridge ReluSubmatrix.
From Absorb.decide Require Import RidgeForm R8 GroupingDrop.
From Absorb.certify Require Import RankRefute.
Open Scope R_scope.

(** [A X = 0]: every row of [A] ([n] rows) is orthogonal to the [c] columns of [X]. *)
Definition kills (d n c : nat) (A X : mat) : Prop :=
  forall i b, (i < n)%nat -> (b < c)%nat -> sumn d (fun j => A i j * X j b) = 0.

(** [Z Y^T X = D I_c] with [D <> 0]: the [c] columns of [X] are independent. *)
Definition rank_witness (d c : nat) (X Y Z : mat) (D : R) : Prop :=
  D <> 0 /\ forall a b, (a < c)%nat -> (b < c)%nat ->
    sumn c (fun e => Z a e * sumn d (fun i => Y i e * X i b)) = if Nat.eqb a b then D else 0.

(** ** The ridges and the linear part of a grouping, against [X] *)

Lemma class_kills d n K c (A B U G L X : mat) cls lam i b :
  grouping d n K A B U G L cls lam -> kills d n c A X ->
  (i < n)%nat -> (cls i < K)%nat -> (b < c)%nat -> sumn d (fun j => U (cls i) j * X j b) = 0.
Proof.
  intros [Hkeep _] HX Hi Hc Hb. destruct (Hkeep i Hi Hc) as [Hl HA].
  assert (H : lam i * sumn d (fun j => U (cls i) j * X j b) = 0).
  { rewrite <- sumn_scal_l, <- (HX i b Hi Hb). apply sumn_ext. intros j Hj.
    rewrite (HA j Hj). ring. }
  apply Rmult_integral in H as [H|H]; [contradiction | exact H].
Qed.

Lemma ridge_kills d n k K c (A B U G L X : mat) cls lam t b :
  grouping_drop d n k K A B U G L cls lam -> nonzero_cols d k G -> kills d n c A X ->
  (t < k)%nat -> (b < c)%nat -> sumn d (fun j => U t j * X j b) = 0.
Proof.
  intros [Hk [Hg _]] HG HX Ht Hb.
  destruct (classic (exists i, (i < n)%nat /\ cls i = t)) as [[i [Hi <-]]|Hno].
  - exact (class_kills d n K c A B U G L X cls lam i b Hg HX Hi ltac:(lia) Hb).
  - exfalso. destruct (HG t Ht) as [p [Hp Hnz]]. apply Hnz. unfold col.
    destruct Hg as [_ [_ [HGt _]]]. rewrite (HGt p t Hp ltac:(lia)).
    apply sumn_zero. intros i Hi. destruct (Nat.eq_dec (cls i) t) as [E|]; [|reflexivity].
    exfalso. apply Hno. exists i. split; assumption.
Qed.

Lemma linear_part_fixes d n K c (A B U G L X : mat) cls lam p b :
  grouping d n K A B U G L cls lam -> kills d n c A X -> (p < d)%nat -> (b < c)%nat ->
  sumn d (fun j => L p j * X j b) = X p b.
Proof.
  intros Hg HX Hp Hb. pose proof Hg as [_ [_ [_ HL]]].
  rewrite (sumn_ext d _ (fun j => (if Nat.eq_dec p j then X j b else 0) -
      sumn n (fun i => (if Nat.ltb (cls i) K then if Rlt_dec (lam i) 0
                          then Rabs (lam i) * B p i * U (cls i) j else 0 else 0) * X j b))).
  - rewrite sumn_minus, sumn_delta by exact Hp. rewrite sumn_swap.
    rewrite (sumn_zero n); [ring|]. intros i Hi.
    destruct (Nat.ltb_spec (cls i) K) as [Hc|]; [|apply sumn_zero; intros; ring].
    destruct (Rlt_dec (lam i) 0); [|apply sumn_zero; intros; ring].
    rewrite (sumn_ext d _ (fun j => Rabs (lam i) * B p i * (U (cls i) j * X j b)))
      by (intros; ring).
    rewrite sumn_scal_l, (class_kills d n K c A B U G L X cls lam i b Hg HX Hi Hc Hb). ring.
  - intros j Hj. rewrite (HL p j Hp Hj), sumn_scal_r. unfold identity.
    destruct (Nat.eq_dec p j); ring.
Qed.

(** ** The bound *)

Theorem nullspace_width_form d n k K m c (A B U G L X Y Z : mat) cls lam (D : R) :
  grouping_drop d n k K A B U G L cls lam -> nonzero_cols d k G ->
  kills d n c A X -> rank_witness d c X Y Z D -> width_condition d k m U G L ->
  (k + 2 * c <= m)%nat.
Proof.
  intros Hgd HG HX [HD HZ] (T & S & r & E & P & Q & _ & Hm & Heq).
  pose proof Hgd as [_ [Hg _]].
  assert (HMX : forall i b, (i < d)%nat -> (b < c)%nat ->
            sumn d (fun j => (L i j + masked_outer k S G U i j) * X j b) = X i b).
  { intros i b Hi Hb.
    rewrite (sumn_ext d _ (fun j => L i j * X j b + masked_outer k S G U i j * X j b))
      by (intros; ring).
    rewrite sumn_plus, (linear_part_fixes d n K c A B U G L X cls lam i b Hg HX Hi Hb).
    unfold masked_outer. rewrite (sumn_ext d _ (fun j => sumn k (fun t =>
        (if S t then G i t else 0) * (U t j * X j b)))).
    - rewrite sumn_swap, (sumn_zero k); [ring|]. intros t Ht.
      rewrite sumn_scal_l, (ridge_kills d n k K c A B U G L X cls lam t b Hgd HG HX Ht Hb). ring.
    - intros j _. rewrite <- sumn_scal_r. apply sumn_ext. intros t _.
      destruct (S t); ring. }
  assert (Hc : (c <= r)%nat).
  { apply (rank_refute d k c r (fun i j => L i j + masked_outer k S G U i j) U E P Q X Y Z T D HD
             Heq).
    - intros t b Ht _ Hb. exact (ridge_kills d n k K c A B U G L X cls lam t b Hgd HG HX Ht Hb).
    - intros a b Ha Hb. rewrite <- (HZ a b Ha Hb). apply sumn_ext. intros e _. f_equal.
      apply sumn_ext. intros i Hi. rewrite (HMX i b Hi Hb). reflexivity. }
  lia.
Qed.

Theorem nullspace_width_relu d n m c (A B X Y Z : mat) (D : R) :
  kills d n c A X -> rank_witness d c X Y Z D ->
  absorbable_ungated relu d n m identity A B -> (2 * c <= m)%nat.
Proof.
  intros HX HW Habs.
  destruct (grouping_drop_exists_relu d n A B) as (k & K & U & G & L & cls & lam & Hg & Hl & HG).
  apply (relu_absorbable_iff_width_drop d n k K m A B U G L cls lam Hg Hl HG) in Habs.
  pose proof (nullspace_width_form d n k K m c A B U G L X Y Z cls lam D Hg HG HX HW Habs). lia.
Qed.

Theorem nullspace_width_pm (sigma : R -> R) d n m c (A B X Y Z : mat) (D : R) :
  odd_part_identity sigma -> sigma 0 = 0 -> ridge_unique_even (even_part sigma) ->
  kills d n c A X -> rank_witness d c X Y Z D ->
  absorbable_ungated sigma d n m identity A B -> (2 * c <= m)%nat.
Proof.
  intros Hodd H0 Hun HX HW Habs.
  destruct (grouping_drop_exists_pm d n A B) as (k & K & U & G & L & cls & lam & Hg & Hs & HG).
  apply (pm_absorbable_iff_width_drop sigma d n k K m A B U G L cls lam Hodd H0 Hun Hg Hs HG)
    in Habs.
  pose proof (nullspace_width_form d n k K m c A B U G L X Y Z cls lam D (proj1 Hg) HG HX HW Habs).
  lia.
Qed.

(** ** Example: [x + b relu(x_0)] in dimension 2, [W_up = (1 0)] *)

Definition ns_A : mat := fun _ j => if Nat.eqb j 0 then 1 else 0.
Definition ns_X : mat := fun j _ => if Nat.eqb j 1 then 1 else 0.
Definition ns_Z : mat := fun _ _ => 1.

Lemma nullspace_example_premises : kills 2 1 1 ns_A ns_X /\ rank_witness 2 1 ns_X ns_X ns_Z 1.
Proof.
  split.
  - intros i b _ _. unfold ns_A, ns_X. simpl. ring.
  - split; [lra|]. intros a b Ha Hb. replace a with 0%nat by lia. replace b with 0%nat by lia.
    unfold ns_X, ns_Z. simpl. ring.
Qed.

Example nullspace_width_example (B : mat) : ~ absorbable_ungated relu 2 1 1 identity ns_A B.
Proof.
  intros Habs. destruct nullspace_example_premises as [HX HW].
  pose proof (nullspace_width_relu 2 1 1 1 ns_A B ns_X ns_X ns_Z 1 HX HW Habs). lia.
Qed.
