(** * Ridge uniqueness for GELU's even part (R5 (=>) for GELU, unconditionally)

    Main results:
    - [gelu_even_dilations_unique]: if [sum_j beta_j gelu_even (c_j t) = 0]
      for every real [t], with [c_j <> 0] and [|c_i| <> |c_j|] for [i <> j],
      then every [beta_j = 0].  Proof: dividing by [t] gives
      [sum_j beta_j c_j (Phi (c_j t) - 1/2) = 0]; differentiating in [t]
      gives [sum_j beta_j c_j^2 exp (- c_j^2 t^2 / 2) = 0]; at
      [t = sqrt (2 k)], [k = 0 .. N-1], this is a Vandermonde system in the
      distinct nodes [exp (- c_j^2)] ([Vandermonde.vandermonde_zero]).
    - [sign_normals]: [avoid_hyperplanes] ([tools/Geometry.v]) applied to
      [v_j], [v_i - v_j], [v_i + v_j] gives a direction [u] that reduces a
      ridge sum in [R^d] to the one-variable statement.
    - [ridge_unique_of_dilations]: for any even [e], one-variable
      independence of dilations gives [ridge_unique_even e] (also used by
      [SiluRidge.v], [GeluTanhRidge.v]);
    - [gelu_ridge_unique : ridge_unique_even gelu_even] (headline).
    - R5 for GELU: the package [gelu_R5] of [results/R5Package.v] and its
      uniform names [gelu_absorbable_iff_submatrix],
      [gelu_absorbable_generic_submatrix], [gelu_generic_not_absorbable_below],
      [gelu_absorbable_null]; non-vacuity [gelu_R5_instances]. *)

From Coq Require Import Reals Lra Lia List.
From Coquelicot Require Import Coquelicot.
From Absorb Require Import Sums Blocks ActivationDefs Activations Geometry Calculus Ridge
  Vandermonde.
From Absorb Require Import ReluSubmatrix R5Package.
Open Scope R_scope.

Lemma is_derive_Phi_dilate c t :
  is_derive (fun s => Phi (c * s) - / 2) t (c * gauss_density (c * t)).
Proof.
  replace (c * gauss_density (c * t)) with (c * gauss_density (c * t) - 0) by ring.
  apply
    (is_derive_minus (K := R_AbsRing) (V := R_NormedModule) (fun s => Phi (c * s)) (fun _ => / 2)).
  - apply (is_derive_comp (K := R_AbsRing) (V := R_NormedModule) Phi (fun s => c * s)).
    + apply Phi_derive.
    + pose proof (is_derive_scal (fun s => s) t c 1 (is_derive_id (K := R_AbsRing) t)) as H.
      rewrite Rmult_1_r in H. exact H.
  - apply (is_derive_const (K := R_AbsRing) (V := R_NormedModule)).
Qed.

(** ** One variable: dilations of [gelu_even] are linearly independent *)

Lemma gelu_even_sum_div N (c beta : nat -> R) :
  (forall t, sumn N (fun j => beta j * gelu_even (c j * t)) = 0) ->
  forall t, sumn N (fun j => beta j * c j * (Phi (c j * t) - / 2)) = 0.
Proof.
  intros Hs t. destruct (Req_dec t 0) as [->|Ht].
  - apply sumn_zero. intros j _. rewrite Rmult_0_r, Phi_0. ring.
  - apply (Rmult_eq_reg_l t); [|exact Ht]. rewrite <- sumn_scal_l, Rmult_0_r, <- (Hs t).
    apply sumn_ext. intros j _. unfold gelu_even. ring.
Qed.

Lemma gelu_even_sum_gauss N (c beta : nat -> R) :
  (forall t, sumn N (fun j => beta j * gelu_even (c j * t)) = 0) ->
  forall t, sumn N (fun j => beta j * c j * c j * exp (- (c j * c j) * (t * t) / 2)) = 0.
Proof.
  intros Hs t.
  assert (Hd : is_derive (fun s => sumn N (fun j => beta j * c j * (Phi (c j * s) - / 2))) t
                 (sumn N (fun j => beta j * c j * (c j * gauss_density (c j * t))))).
  { apply (is_derive_sumn N (fun j s => beta j * c j * (Phi (c j * s) - / 2))).
    intros j _. apply (is_derive_scal (fun s => Phi (c j * s) - / 2)).
    apply is_derive_Phi_dilate. }
  apply (is_derive_zero_fun _ t _ (gelu_even_sum_div N c beta Hs)) in Hd.
  pose proof sqrt_2PI_pos as Hpi.
  apply (Rmult_eq_reg_l (/ sqrt (2 * PI))); [|apply Rinv_neq_0_compat; lra].
  rewrite Rmult_0_r, <- Hd, <- sumn_scal_l. apply sumn_ext. intros j _.
  unfold gauss_density. replace (- (c j * t * (c j * t)) / 2) with (- (c j * c j) * (t * t) / 2)
    by field. field. lra.
Qed.

(** Dilations [e (c_j t)] with distinct [|c_j| <> 0] are linearly
    independent: a vanishing combination has zero coefficients. *)
Definition dilations_independent (e : R -> R) : Prop :=
  forall N (c beta : nat -> R),
    (forall j, (j < N)%nat -> c j <> 0) ->
    (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> Rabs (c i) <> Rabs (c j)) ->
    (forall t, sumn N (fun j => beta j * e (c j * t)) = 0) ->
    forall j, (j < N)%nat -> beta j = 0.

Theorem gelu_even_dilations_unique : dilations_independent gelu_even.
Proof.
  intros N c beta Hc Hd Hs j Hj.
  assert (Hw : beta j * c j * c j = 0).
  { apply (vandermonde_zero N (fun j => beta j * c j * c j) (fun j => exp (- (c j * c j))));
      [| |exact Hj].
    - intros i k Hi Hk Hne E. apply exp_inv in E. apply (Hd i k Hi Hk Hne).
      rewrite <- (sqrt_Rsqr_abs (c i)), <- (sqrt_Rsqr_abs (c k)). unfold Rsqr. f_equal. lra.
    - intros k _. rewrite <- (gelu_even_sum_gauss N c beta Hs (sqrt (2 * INR k))).
      apply sumn_ext. intros i _. rewrite <- exp_INR_mult. f_equal. f_equal.
      rewrite sqrt_sqrt by (pose proof (pos_INR k); lra). field. }
  pose proof (Hc j Hj). apply Rmult_integral in Hw. destruct Hw as [Hw|Hw]; [|contradiction].
  apply Rmult_integral in Hw. destruct Hw; [assumption | contradiction].
Qed.

(** The normals to avoid: [v_i], and [v_i - v_j], [v_i + v_j] for [i <> j]. *)
Definition sign_normals (N : nat) (V : mat) : list vec :=
  flat_map (fun i => row V i ::
    flat_map (fun j => if Nat.eq_dec i j then nil
                       else vlin 1 (row V i) (-1) (row V j) :: vlin 1 (row V i) 1 (row V j) :: nil)
      (seq 0 N))
    (seq 0 N).

Lemma sign_normals_row N V i : (i < N)%nat -> In (row V i) (sign_normals N V).
Proof.
  intros Hi. apply in_flat_map. exists i. split; [apply in_seq; lia | left; reflexivity].
Qed.

Lemma sign_normals_pair N V i j : (i < N)%nat -> (j < N)%nat -> i <> j ->
  In (vlin 1 (row V i) (-1) (row V j)) (sign_normals N V) /\
  In (vlin 1 (row V i) 1 (row V j)) (sign_normals N V).
Proof.
  intros Hi Hj Hne. split; apply in_flat_map; exists i; (split; [apply in_seq; lia|]);
    right; apply in_flat_map; exists j; (split; [apply in_seq; lia|]);
    destruct (Nat.eq_dec i j); try contradiction; [left | right; left]; reflexivity.
Qed.

Lemma sign_normals_nonzero d N V :
  (forall j, (j < N)%nat -> nonzero_vec d (row V j)) ->
  (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> ~ same_up_to_sign d (row V i) (row V j)) ->
  forall w, In w (sign_normals N V) -> nonzero_vec d w.
Proof.
  intros Hnz Hsign w Hw. apply in_flat_map in Hw. destruct Hw as [i [Hi Hw]].
  apply in_seq in Hi. destruct Hw as [E|Hw]; [subst w; apply Hnz; lia|].
  apply in_flat_map in Hw. destruct Hw as [j [Hj Hw]]. apply in_seq in Hj.
  destruct (Nat.eq_dec i j) as [|Hne]; [destruct Hw|].
  destruct (nonzero_vec_or_zero d w) as [Hw'|Hz]; [exact Hw'|].
  exfalso. apply (Hsign i j ltac:(lia) ltac:(lia) Hne).
  destruct Hw as [E|[E|[]]]; subst w; unfold vlin in Hz; [left | right];
    intros k Hk; specialize (Hz k Hk); lra.
Qed.

(** ** Ridge uniqueness *)

Lemma Rabs_eq_cases a b : Rabs a = Rabs b -> a - b = 0 \/ a + b = 0.
Proof. unfold Rabs. repeat destruct Rcase_abs; intros; lra. Qed.

(** ** From one variable to ridge sums

    For any even-part candidate [e]: if dilations [e (c_j t)] with distinct
    [|c_j| <> 0] are linearly independent, then [ridge_unique_even e]. *)

(** The hypothesis is [dilations_independent e], written out. *)
Theorem ridge_unique_of_dilations (e : R -> R) :
  (forall N (c beta : nat -> R),
     (forall j, (j < N)%nat -> c j <> 0) ->
     (forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> Rabs (c i) <> Rabs (c j)) ->
     (forall t, sumn N (fun j => beta j * e (c j * t)) = 0) ->
     forall j, (j < N)%nat -> beta j = 0) ->
  ridge_unique_even e.
Proof.
  intros Hdil d N V beta Hnz Hsign Hs j Hj.
  destruct (avoid_hyperplanes d (sign_normals N V) (sign_normals_nonzero d N V Hnz Hsign))
    as [u Hu].
  apply (Hdil N (fun j => dot d (row V j) u) beta); [| | | exact Hj].
  - intros i Hi. apply Hu, sign_normals_row. exact Hi.
  - intros i k Hi Hk Hne E. destruct (sign_normals_pair N V i k Hi Hk Hne) as [Hm Hp].
    apply Hu in Hm. apply Hu in Hp. rewrite dot_vlin_l in Hm, Hp.
    destruct (Rabs_eq_cases _ _ E); [apply Hm | apply Hp]; lra.
  - intros t. rewrite <- (Hs (vscale t u)). apply sumn_ext. intros i _.
    rewrite dot_scal_r, (Rmult_comm t). reflexivity.
Qed.

(** ** SiLU *)

Theorem gelu_ridge_unique : ridge_unique_even gelu_even.
Proof. exact (ridge_unique_of_dilations gelu_even gelu_even_dilations_unique). Qed.

(** ** R5 for GELU

    [gelu_even] is [gelu]'s even part, so [gelu_ridge_unique] gives the
    package of [results/R5Package.v] ([even_R5]); then the uniform names,
    each followed by its former [_uncond] name (kept for existing
    certificates). *)

Lemma even_part_gelu z : gelu_even z = even_part gelu z.
Proof. unfold even_part. rewrite gelu_split. ring. Qed.

Theorem gelu_R5 : R5_package gelu.
Proof.
  apply (even_R5 gelu gelu_odd_part gelu_zero).
  exact (ridge_unique_even_ext _ _ even_part_gelu gelu_ridge_unique).
Qed.

Definition gelu_absorbable_iff_submatrix := package_iff gelu_R5.
Definition gelu_absorbable_iff_submatrix_uncond := gelu_absorbable_iff_submatrix.
Definition gelu_absorbable_generic_submatrix := package_forward gelu_R5.
Definition gelu_absorbable_generic_submatrix_uncond := gelu_absorbable_generic_submatrix.
Definition gelu_generic_not_absorbable_below := package_below gelu_R5.
Definition gelu_generic_not_absorbable_below_uncond := gelu_generic_not_absorbable_below.
Definition gelu_absorbable_null := package_null gelu_R5.

(** ** Non-vacuity *)

(** One variable: two distinct dilations [c = 1, 2]. *)
Example gelu_even_dilations_instance :
  (forall j, (j < 2)%nat -> INR (S j) <> 0) /\
  (forall i j, (i < 2)%nat -> (j < 2)%nat -> i <> j -> Rabs (INR (S i)) <> Rabs (INR (S j))) /\
  (forall t, sumn 2 (fun j => 0 * gelu_even (INR (S j) * t)) = 0).
Proof.
  split; [|split].
  - intros j _. apply not_0_INR. lia.
  - intros i j _ _ Hne E. rewrite !Rabs_right in E by (apply Rle_ge, pos_INR).
    apply INR_eq in E. lia.
  - intros t. simpl. ring.
Qed.

(** Ridge sums: the hypotheses of [ridge_unique_even] hold for the two
    directions [1] and [2] of [R^1]. *)
Example gelu_ridge_instance :
  let V : mat := fun j _ => INR (S j) in
  (forall j, (j < 2)%nat -> nonzero_vec 1 (row V j)) /\
  (forall i j, (i < 2)%nat -> (j < 2)%nat -> i <> j -> ~ same_up_to_sign 1 (row V i) (row V j)) /\
  (forall x, sumn 2 (fun j => 0 * gelu_even (dot 1 (row V j) x)) = 0).
Proof.
  split; [|split].
  - intros j _. exists 0%nat. split; [lia | unfold row; apply not_0_INR; lia].
  - intros i j Hi Hj Hne [C|C]; specialize (C 0%nat ltac:(lia)); unfold row in C.
    + apply Hne. apply INR_eq in C. lia.
    + assert (0 < INR (S i)) by (apply lt_0_INR; lia).
      assert (0 < INR (S j)) by (apply lt_0_INR; lia). lra.
  - intros x. simpl. ring.
Qed.

(** Both sides of the equivalence and the width bound: [d = n = 1], [A = 1];
    [B = -1] is absorbable, [B = 1] is not, nor at width 0. *)
Example gelu_R5_instances : R5_instances gelu := package_instances gelu_R5.
