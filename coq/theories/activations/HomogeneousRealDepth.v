(** * R3/R4 for real degrees (R10, beyond): small-degree behaviour at 0

    For [pos_homogeneous_real k sigma] ([HomogeneousReal.v]):
    - [homogeneous_real_at_0]: [sigma 0 = 0] when [k <> 0];
    - [homogeneous_real_bound]: [|sigma z| <= (|sigma 1| + |sigma (-1)|) |z|^k]
      for [z <> 0];
    - [homogeneous_real_scalar_littleo0]: [k > 1] makes [sigma] [o(|z|)] at 0;
    - [homogeneous_real_vanishing_at_0]: [k > 0] makes [sigma] continuous at 0
      with value 0 (a valid gate for R3).
    Headlines:
    - [depth_homogeneous_real_not_representable] (R4, ungated, [k > 1]):
      [L] residual blocks are never [L'] residual-free ones ([L' >= 1]);
    - [depth_gated_homogeneous_real_not_representable] (R4, gate of real
      degree [k > 0]);
    - non-vacuity examples with [ReLU^(3/2)] (ungated) and a [ReLU^(1/2)]
      gate.
    Ungated depth for [0 <= k < 1] is in [SublinearDepth.v] (sublinear
    remainders at infinity instead of [o(|x|)] at 0). *)

From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From Absorb Require Import Sums Blocks Compositions SkipReduction Gated Depth.
From Absorb Require Import MoreActivationDefs MoreActivations HomogeneousReal.
Open Scope R_scope.

(** ** Scalar facts *)

Lemma Rpower2_neq_1 (k : R) : k <> 0 -> Rpower 2 k <> 1.
Proof.
  intros Hk E. apply Hk. unfold Rpower in E.
  assert (Hl : 0 < ln 2) by (rewrite <- ln_1; apply ln_increasing; lra).
  apply (f_equal ln) in E. rewrite ln_exp, ln_1 in E.
  apply Rmult_integral in E. destruct E as [E|E]; [exact E | lra].
Qed.

Lemma homogeneous_real_at_0 (k : R) sigma :
  k <> 0 -> pos_homogeneous_real k sigma -> sigma 0 = 0.
Proof.
  intros Hk Hs. pose proof (Hs 2 0 ltac:(lra)) as H. rewrite Rmult_0_r in H.
  assert (Hz : (Rpower 2 k - 1) * sigma 0 = 0) by lra.
  apply Rmult_integral in Hz. destruct Hz as [Hz|Hz]; [|exact Hz].
  exfalso. apply (Rpower2_neq_1 k Hk). lra.
Qed.

Lemma Rpower_pos (a k : R) : 0 < Rpower a k.
Proof. apply exp_pos. Qed.

Lemma homogeneous_real_bound (k : R) sigma z :
  pos_homogeneous_real k sigma -> z <> 0 ->
  Rabs (sigma z) <= (Rabs (sigma 1) + Rabs (sigma (-1))) * Rpower (Rabs z) k.
Proof.
  intros Hs Hz.
  pose proof (Rabs_pos (sigma 1)). pose proof (Rabs_pos (sigma (-1))).
  pose proof (Rpower_pos (Rabs z) k) as Hp.
  destruct (Rtotal_order z 0) as [Hn|[Hz0|Hpz]]; [| contradiction |].
  - replace z with (- z * -1) by ring. rewrite (Hs (- z) (-1)) by lra.
    replace (- z * -1) with z by ring. rewrite Rabs_mult, (Rabs_left z Hn).
    rewrite (Rabs_right (Rpower (- z) k)) by (apply Rle_ge, Rlt_le, Rpower_pos).
    pose proof (Rpower_pos (- z) k). nra.
  - replace z with (z * 1) by ring. rewrite (Hs z 1) by lra.
    rewrite Rmult_1_r, Rabs_mult, (Rabs_right z) by lra.
    rewrite (Rabs_right (Rpower z k)) by (apply Rle_ge, Rlt_le, Rpower_pos).
    pose proof (Rpower_pos z k). nra.
Qed.

(** [a^p < c] once [0 < a < c^(1/p)]. *)
Lemma Rpower_below (a p c : R) : 0 < p -> 0 < c -> 0 < a < Rpower c (/ p) -> Rpower a p < c.
Proof.
  intros Hp Hc Ha. eapply Rlt_le_trans; [apply Rlt_Rpower_l; [exact Hp | exact Ha]|].
  rewrite Rpower_mult, Rinv_l by lra. rewrite Rpower_1 by exact Hc. lra.
Qed.

(** ** [k > 1]: [o(|z|)] at 0 *)

Lemma homogeneous_real_scalar_littleo0 (k : R) sigma :
  1 < k -> pos_homogeneous_real k sigma -> scalar_littleo0 sigma.
Proof.
  intros Hk Hs eps He.
  set (K := Rabs (sigma 1) + Rabs (sigma (-1))).
  assert (HK : 0 <= K) by (unfold K; pose proof (Rabs_pos (sigma 1));
                            pose proof (Rabs_pos (sigma (-1))); lra).
  assert (Hc : 0 < eps / (K + 1)) by (apply Rdiv_lt_0_compat; lra).
  exists (Rpower (eps / (K + 1)) (/ (k - 1))). split; [apply Rpower_pos|]. intros z Hz.
  destruct (Req_dec z 0) as [->|Hz0].
  - rewrite (homogeneous_real_at_0 k sigma ltac:(lra) Hs), Rabs_R0. lra.
  - set (a := Rabs z) in *. assert (Ha : 0 < a) by (apply Rabs_pos_lt, Hz0).
    eapply Rle_trans; [apply (homogeneous_real_bound k); assumption|]. fold K a.
    assert (Hsplit : Rpower a k = a * Rpower a (k - 1)).
    { rewrite <- (Rpower_1 a) at 2 by exact Ha. rewrite <- Rpower_plus. f_equal. ring. }
    rewrite Hsplit.
    assert (Hsm : Rpower a (k - 1) < eps / (K + 1))
      by (apply Rpower_below; [lra | exact Hc | split; [exact Ha | exact Hz]]).
    pose proof (Rpower_pos a (k - 1)).
    assert ((K + 1) * (eps / (K + 1)) = eps) by (field; lra).
    assert (K * Rpower a (k - 1) <= eps).
    { apply Rle_trans with ((K + 1) * (eps / (K + 1))); [|lra].
      apply Rle_trans with ((K + 1) * Rpower a (k - 1)); [nra|].
      apply Rmult_le_compat_l; lra. }
    nra.
Qed.

(** ** [k > 0]: continuous at 0 with value 0 *)

Lemma homogeneous_real_vanishing_at_0 (k : R) gamma :
  0 < k -> pos_homogeneous_real k gamma -> vanishing_at_0 gamma.
Proof.
  intros Hk Hs. assert (H0 : gamma 0 = 0) by (apply (homogeneous_real_at_0 k); [lra | exact Hs]).
  split; [|exact H0].
  intros eps He.
  set (K := Rabs (gamma 1) + Rabs (gamma (-1))).
  assert (HK : 0 <= K) by (unfold K; pose proof (Rabs_pos (gamma 1));
                            pose proof (Rabs_pos (gamma (-1))); lra).
  assert (Hc : 0 < eps / (K + 1)) by (apply Rdiv_lt_0_compat; lra).
  exists (Rpower (eps / (K + 1)) (/ k)). split; [apply Rpower_pos|]. intros z [_ Hz].
  simpl in *. unfold R_dist in *. rewrite Rminus_0_r in Hz. rewrite H0, Rminus_0_r.
  destruct (Req_dec z 0) as [->|Hz0]; [rewrite H0, Rabs_R0; exact He|].
  set (a := Rabs z) in *. assert (Ha : 0 < a) by (apply Rabs_pos_lt, Hz0).
  eapply Rle_lt_trans; [apply (homogeneous_real_bound k); assumption|]. fold K a.
  assert (Hsm : Rpower a k < eps / (K + 1))
    by (apply Rpower_below; [exact Hk | exact Hc | split; [exact Ha | exact Hz]]).
  pose proof (Rpower_pos a k).
  assert ((K + 1) * (eps / (K + 1)) = eps) by (field; lra).
  apply Rle_lt_trans with ((K + 1) * Rpower a k); [nra|].
  apply Rlt_le_trans with ((K + 1) * (eps / (K + 1))); [apply Rmult_lt_compat_l; lra | lra].
Qed.

(** ** R4 *)

Theorem depth_homogeneous_real_not_representable :
  forall (k : R) sigma d (res free : list (nat * mat * mat)),
  (1 <= d)%nat -> 1 < k -> pos_homogeneous_real k sigma -> free <> nil ->
  ~ same_fun d (compose (map (res_ublock sigma d) res)) (compose (map (ublock sigma d) free)).
Proof.
  intros k sigma d res free Hd Hk Hs.
  exact (depth_small_not_representable_id d _ (littleo0_class d) (ublock sigma d) res free Hd
           (fun b => ublock_littleo0 sigma d b (homogeneous_real_scalar_littleo0 k sigma Hk Hs))).
Qed.

Theorem depth_gated_homogeneous_real_not_representable :
  forall (k : R) gamma d (res free : list (nat * mat * mat * mat)),
  (1 <= d)%nat -> 0 < k -> pos_homogeneous_real k gamma -> free <> nil ->
  ~ same_fun d (compose (map (res_gblock gamma d) res)) (compose (map (gblock gamma d) free)).
Proof.
  intros k gamma d res free Hd Hk Hs Hfree.
  exact (depth_gated_not_representable gamma d res free Hd
           (homogeneous_real_vanishing_at_0 k gamma Hk Hs) Hfree).
Qed.

(** ** Non-vacuity *)

Definition one_ublock_r : nat * mat * mat := (1%nat, const_mat 1, const_mat 1).
Definition one_gblock_r : nat * mat * mat * mat := (1%nat, const_mat 1, const_mat 1, const_mat 1).

(** [ReLU^(3/2)]: [o(|z|)] at 0, and two residual blocks are not one
    residual-free block. *)
Example relu_real_pow_three_halves_depth_instance :
  scalar_littleo0 (relu_real_pow (3 / 2)) /\
  ~ same_fun 1 (compose (map (res_ublock (relu_real_pow (3 / 2)) 1) [one_ublock_r; one_ublock_r]))
               (compose (map (ublock (relu_real_pow (3 / 2)) 1) [one_ublock_r])).
Proof.
  split.
  - apply (homogeneous_real_scalar_littleo0 (3 / 2)); [lra | apply relu_real_pow_homogeneous].
  - apply (depth_homogeneous_real_not_representable (3 / 2));
      [lia | lra | apply relu_real_pow_homogeneous | discriminate].
Qed.

(** A [ReLU^(1/2)] gate vanishes at 0; gated depth instance. *)
Example relu_real_pow_half_glu_depth_instance :
  vanishing_at_0 (relu_real_pow (1 / 2)) /\
  ~ same_fun 1 (compose (map (res_gblock (relu_real_pow (1 / 2)) 1) [one_gblock_r]))
               (compose (map (gblock (relu_real_pow (1 / 2)) 1) [one_gblock_r; one_gblock_r])).
Proof.
  split.
  - apply (homogeneous_real_vanishing_at_0 (1 / 2)); [lra | apply relu_real_pow_homogeneous].
  - apply (depth_gated_homogeneous_real_not_representable (1 / 2));
      [lia | lra | apply relu_real_pow_homogeneous | discriminate].
Qed.
