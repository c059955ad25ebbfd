(** * R11': post-norm blocks reduce to bare blocks

    (N2) [v |-> v / rho_eps(v)] is injective ([normalized_injective]), so
    when every [gamma_i <> 0]:
    - [rms_norm_eq_iff]: [RMSNorm(u) = RMSNorm(v) <-> u = v];
    - [layer_norm_eq_iff]: [LayerNorm(u) = LayerNorm(v) <-> C u = C v].
    For arbitrary [gamma] only the coordinates with [gamma_i <> 0] are
    compared ([layer_norm_eq_coords], [rms_norm_eq_coords]), and the
    direction [u = v] (resp. [C u = C v]) [->] equal norms always holds.
    Absorbability of post-norm blocks [N(P x + f x)] by post-norm
    residual-free blocks [N(g x)]:
    - [postrms_*_iff]: with RMSNorm, iff the bare block is absorbable;
    - [postln_*_iff]: with LayerNorm, iff the bare block with skip [C P],
      down-projection [C B] and output bias [C b0] is absorbable at the
      same width, since [C] times a residual-free block of width [m] is
      one ([B' |-> C B'], [b0' |-> C b0']; [mv_down]);
    for ungated blocks (with and without biases) and gated blocks with
    biases.  The [<-] directions hold for every [gamma] ([*_sufficient]). *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Import Sums Blocks BiasBlocks Norms SkipReduction.
Open Scope R_scope.

Definition rho (d : nat) (eps : R) (v : vec) : R := sqrt (mean_sq d v + eps).

(** ** (N2) Injectivity *)

Lemma mean_sq_ext d u v : vec_eq d u v -> mean_sq d u = mean_sq d v.
Proof.
  intros H. unfold mean_sq. f_equal. apply sumn_ext. intros k Hk. rewrite (H k Hk). reflexivity.
Qed.

Lemma mean_sq_scale d u v lam : (forall k, (k < d)%nat -> u k = lam * v k) ->
  mean_sq d u = lam * lam * mean_sq d v.
Proof.
  intros H. unfold mean_sq, Rdiv. rewrite (sumn_ext d _ (fun k => lam * lam * (v k * v k))).
  - rewrite sumn_scal_l. ring.
  - intros k Hk. rewrite (H k Hk). ring.
Qed.

Lemma mean_sq_nonneg' d v : 0 <= mean_sq d v.
Proof.
  unfold mean_sq. destruct d as [|d]; [simpl; lra|].
  apply Rmult_le_pos; [apply sumn_nonneg; intros; apply Rle_0_sqr|].
  left. apply Rinv_0_lt_compat, lt_0_INR. lia.
Qed.

Lemma rho_pos d eps v : 0 < eps -> 0 < rho d eps v.
Proof. intros He. apply sqrt_lt_R0. pose proof (mean_sq_nonneg' d v). lra. Qed.

Lemma rho_sq d eps v : 0 < eps -> rho d eps v * rho d eps v = mean_sq d v + eps.
Proof. intros He. apply sqrt_sqrt. pose proof (mean_sq_nonneg' d v). lra. Qed.

(** [r |-> r / sqrt(r^2/d + eps)] is injective along rays, hence so is
    [v |-> v / rho_eps(v)]. *)
Theorem normalized_injective d eps u v : 0 < eps ->
  (forall i, (i < d)%nat -> u i / rho d eps u = v i / rho d eps v) -> vec_eq d u v.
Proof.
  intros He H. pose proof (rho_pos d eps u He) as Hu. pose proof (rho_pos d eps v He) as Hv.
  set (lam := rho d eps u / rho d eps v).
  assert (Hl : 0 < lam) by (unfold lam; apply Rdiv_lt_0_compat; assumption).
  assert (Hs : forall k, (k < d)%nat -> u k = lam * v k).
  { intros k Hk. pose proof (H k Hk) as E. unfold lam.
    apply (Rmult_eq_reg_r (/ rho d eps u)); [|apply Rinv_neq_0_compat; lra].
    unfold Rdiv in E. rewrite E. field. lra. }
  assert (Hq : lam * lam * (mean_sq d v + eps) = lam * lam * mean_sq d v + eps).
  { rewrite <- (rho_sq d eps v He), <- (mean_sq_scale d u v lam Hs), <- (rho_sq d eps u He).
    unfold lam. field. lra. }
  assert (H1 : lam * lam = 1).
  { apply (Rmult_eq_reg_r eps); [|lra]. lra. }
  assert (E1 : lam = 1) by nra.
  intros k Hk. rewrite (Hs k Hk), E1. ring.
Qed.

(** ** Equality of normalized vectors, coordinate by coordinate *)

Lemma affine_normalize_eq_coords d eps gamma beta u v :
  vec_eq d (affine_normalize d eps gamma beta u) (affine_normalize d eps gamma beta v) <->
  forall i, (i < d)%nat -> gamma i <> 0 -> u i / rho d eps u = v i / rho d eps v.
Proof.
  unfold affine_normalize, vec_eq. fold (rho d eps u) (rho d eps v). split.
  - intros H i Hi Hg. pose proof (H i Hi) as E. apply (Rmult_eq_reg_r (gamma i)); [lra | exact Hg].
  - intros H i Hi. destruct (Req_dec (gamma i) 0) as [Z|Z].
    + rewrite Z. ring.
    + rewrite (H i Hi Z). reflexivity.
Qed.

Lemma affine_normalize_ext d eps gamma beta u v :
  vec_eq d u v ->
  vec_eq d (affine_normalize d eps gamma beta u) (affine_normalize d eps gamma beta v).
Proof.
  intros H i Hi. unfold affine_normalize. rewrite (H i Hi), (mean_sq_ext d u v H). reflexivity.
Qed.

Lemma affine_normalize_injective d eps gamma beta u v : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) ->
  vec_eq d (affine_normalize d eps gamma beta u) (affine_normalize d eps gamma beta v) ->
  vec_eq d u v.
Proof.
  intros He Hg H. apply (normalized_injective d eps u v He). intros i Hi.
  apply (proj1 (affine_normalize_eq_coords d eps gamma beta u v) H i Hi (Hg i Hi)).
Qed.

(** ** The centering *)

Lemma sumn_const d c : sumn d (fun _ => c) = INR d * c.
Proof. induction d as [|d IH]; [simpl; ring|]. rewrite sumn_S, IH, S_INR. ring. Qed.

Lemma centering_mv d x i : (i < d)%nat -> mv d (centering d) x i = center d x i.
Proof.
  intros Hi. unfold centering, center, mean.
  unfold mv, dot, row. rewrite (sumn_ext d _ (fun k => identity i k * x k - / INR d * x k))
    by (intros; ring).
  rewrite sumn_minus, sumn_scal_l. pose proof (mv_identity d x i Hi) as E.
  unfold mv, dot, row in E. rewrite E. unfold Rdiv. ring.
Qed.

Lemma center_ext d u v : vec_eq d u v -> vec_eq d (center d u) (center d v).
Proof.
  intros H i Hi. unfold center, mean. rewrite (H i Hi). f_equal. f_equal.
  apply sumn_ext. exact H.
Qed.

Lemma mean_center d x : (1 <= d)%nat -> mean d (center d x) = 0.
Proof.
  intros Hd. assert (HD : 0 < INR d) by (apply lt_0_INR; lia).
  unfold mean at 1, center. rewrite sumn_minus, sumn_const. unfold mean. field. lra.
Qed.

Lemma center_idempotent d x : vec_eq d (center d (center d x)) (center d x).
Proof.
  intros i Hi. unfold center at 1. rewrite mean_center by lia. ring.
Qed.

(** [C (C y) = C y] on [R^d]. *)
Lemma centering_idempotent d y i : (i < d)%nat ->
  mv d (centering d) (mv d (centering d) y) i = mv d (centering d) y i.
Proof.
  intros Hi. rewrite centering_mv by exact Hi.
  rewrite (centering_mv d y i Hi), <- (center_idempotent d y i Hi).
  apply center_ext; [|exact Hi]. intros k Hk. apply centering_mv, Hk.
Qed.

(** ** LayerNorm and RMSNorm *)

Theorem layer_norm_eq_coords d eps gamma beta u v :
  vec_eq d (layer_norm d eps gamma beta u) (layer_norm d eps gamma beta v) <->
  forall i, (i < d)%nat -> gamma i <> 0 ->
    center d u i / rho d eps (center d u) = center d v i / rho d eps (center d v).
Proof. apply affine_normalize_eq_coords. Qed.

Theorem rms_norm_eq_coords d eps gamma beta u v :
  vec_eq d (rms_norm d eps gamma beta u) (rms_norm d eps gamma beta v) <->
  forall i, (i < d)%nat -> gamma i <> 0 -> u i / rho d eps u = v i / rho d eps v.
Proof. apply affine_normalize_eq_coords. Qed.

(** Any [gamma]: equal centered inputs give equal LayerNorms. *)
Lemma layer_norm_of_center_eq d eps gamma beta u v :
  vec_eq d (mv d (centering d) u) (mv d (centering d) v) ->
  vec_eq d (layer_norm d eps gamma beta u) (layer_norm d eps gamma beta v).
Proof.
  intros H. apply affine_normalize_ext. intros i Hi.
  rewrite <- !centering_mv by exact Hi. apply H, Hi.
Qed.

Lemma rms_norm_of_eq d eps gamma beta u v :
  vec_eq d u v -> vec_eq d (rms_norm d eps gamma beta u) (rms_norm d eps gamma beta v).
Proof. apply affine_normalize_ext. Qed.

Theorem layer_norm_eq_iff d eps gamma beta u v : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) ->
  (vec_eq d (layer_norm d eps gamma beta u) (layer_norm d eps gamma beta v) <->
   vec_eq d (mv d (centering d) u) (mv d (centering d) v)).
Proof.
  intros He Hg. split; [|apply layer_norm_of_center_eq].
  intros H. pose proof (affine_normalize_injective d eps gamma beta _ _ He Hg H) as E.
  intros i Hi. rewrite !centering_mv by exact Hi. apply E, Hi.
Qed.

Theorem rms_norm_eq_iff d eps gamma beta u v : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) ->
  (vec_eq d (rms_norm d eps gamma beta u) (rms_norm d eps gamma beta v) <-> vec_eq d u v).
Proof.
  intros He Hg. split; [apply (affine_normalize_injective d eps gamma beta u v He Hg)|].
  apply rms_norm_of_eq.
Qed.

(** ** [C] times a residual-free block is a residual-free block *)

Lemma mv_down0 d m (M B : mat) (s : nat -> R) i :
  mv d M (fun k => sumn m (fun j => B k j * s j)) i = sumn m (fun j => mm d M B i j * s j).
Proof.
  unfold mv, dot, row, mm.
  rewrite (sumn_ext d _ (fun k => sumn m (fun j => M i k * B k j * s j))).
  - rewrite sumn_swap. apply sumn_ext. intros j _. rewrite <- sumn_scal_r. reflexivity.
  - intros k _. rewrite <- sumn_scal_l. apply sumn_ext. intros; ring.
Qed.

Lemma mv_down d m (M B : mat) (b0 : vec) (s : nat -> R) i :
  mv d M (fun k => sumn m (fun j => B k j * s j) + b0 k) i =
  sumn m (fun j => mm d M B i j * s j) + mv d M b0 i.
Proof. rewrite mv_plus, mv_down0. reflexivity. Qed.

Lemma mv_residual d M P f x i :
  mv d M (residual d P f x) i = mv d (mm d M P) x i + mv d M (f x) i.
Proof. unfold residual. rewrite mv_plus, mv_mm. reflexivity. Qed.

(** ** Post-norm equalities, pointwise *)

Section PostNormMaps.
  Context (d : nat) (eps : R) (gamma beta : vec).
  Let C := centering d.
  Let LN := layer_norm d eps gamma beta.
  Let RMS := rms_norm d eps gamma beta.

  (** Any [gamma]: [g = C h] gives [LN(g) = LN(h)]. *)
  Lemma postln_of_center (g h : vec -> vec) :
    (forall x, vec_eq d (g x) (mv d C (h x))) -> same_fun d (fun x => LN (g x)) (fun x => LN (h x)).
  Proof.
    intros H x. apply layer_norm_of_center_eq. intros i Hi. fold C.
    rewrite (mv_ext_vec d C (g x) (mv d C (h x)) i (H x)). apply centering_idempotent, Hi.
  Qed.

  Lemma center_of_postln (g h : vec -> vec) : 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    same_fun d (fun x => LN (g x)) (fun x => LN (h x)) ->
    forall x, vec_eq d (mv d C (g x)) (mv d C (h x)).
  Proof. intros He Hg H x. apply (layer_norm_eq_iff d eps gamma beta _ _ He Hg), H. Qed.

  Lemma postrms_iff (g h : vec -> vec) : 0 < eps -> (forall i, (i < d)%nat -> gamma i <> 0) ->
    (same_fun d (fun x => RMS (g x)) (fun x => RMS (h x)) <-> same_fun d g h).
  Proof.
    intros He Hg. split; intros H x; apply (rms_norm_eq_iff d eps gamma beta _ _ He Hg), H.
  Qed.
End PostNormMaps.

(** ** RMSNorm: absorbable iff the bare block is *)

Theorem postrms_ungated_iff sigma d n m eps gamma beta P A B : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) ->
  (absorbable_postnorm_ungated (rms_norm d eps gamma beta) sigma d n m P A B <->
   absorbable_ungated sigma d n m P A B).
Proof.
  intros He Hg. split; intros [A' [B' H]]; exists A', B'; revert H;
    apply (postrms_iff d eps gamma beta _ (residual d P _) He Hg).
Qed.

Theorem postrms_ungated_bias_iff sigma d n m eps gamma beta P A c B b0 : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) ->
  (absorbable_postnorm_ungated_bias (rms_norm d eps gamma beta) sigma d n m P A c B b0 <->
   absorbable_ungated_bias sigma d n m P A c B b0).
Proof.
  intros He Hg. split; intros [A' [c' [B' [b0' H]]]]; exists A', c', B', b0'; revert H;
    apply (postrms_iff d eps gamma beta _ (residual d P _) He Hg).
Qed.

Theorem postrms_gated_bias_iff gamma0 d n m eps gamma beta P C cg A cu B b0 : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) ->
  (absorbable_postnorm_gated_bias (rms_norm d eps gamma beta) gamma0 d n m P C cg A cu B b0 <->
   absorbable_gated_bias gamma0 d n m P C cg A cu B b0).
Proof.
  intros He Hg. split; intros [C' [cg' [A' [cu' [B' [b0' H]]]]]];
    exists C', cg', A', cu', B', b0'; revert H;
    apply (postrms_iff d eps gamma beta _ (residual d P _) He Hg).
Qed.

(** Any [gamma], any normalization reading [R^d]: the bare block's
    absorbability suffices. *)
Theorem postrms_ungated_sufficient sigma d n m eps gamma beta P A B :
  absorbable_ungated sigma d n m P A B ->
  absorbable_postnorm_ungated (rms_norm d eps gamma beta) sigma d n m P A B.
Proof.
  intros [A' [B' H]]. exists A', B'. intros x. apply rms_norm_of_eq, H.
Qed.

(** ** LayerNorm: reduction to the bare block with skip [C P], down [C B], bias [C b0] *)

Theorem postln_ungated_iff sigma d n m eps gamma beta P A B : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) ->
  (absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n m P A B <->
   absorbable_ungated sigma d n m (mm d (centering d) P) A (mm d (centering d) B)).
Proof.
  intros He Hg. split.
  - intros [A' [B' H]]. exists A', (mm d (centering d) B'). intros x i Hi.
    pose proof (center_of_postln d eps gamma beta _ _ He Hg H x i Hi) as E.
    unfold ungated in E at 1. rewrite mv_down0 in E. unfold ungated. rewrite E.
    rewrite mv_residual. unfold residual, ungated. rewrite mv_down0. reflexivity.
  - intros [A' [B' H]]. exists A', B'. apply postln_of_center. intros x i Hi.
    rewrite (H x i Hi), mv_residual. unfold residual, ungated. rewrite mv_down0. reflexivity.
Qed.

Theorem postln_ungated_bias_iff sigma d n m eps gamma beta P A c B b0 : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) ->
  (absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n m P A c B b0 <->
   absorbable_ungated_bias sigma d n m (mm d (centering d) P) A c (mm d (centering d) B)
     (mv d (centering d) b0)).
Proof.
  intros He Hg. split.
  - intros [A' [c' [B' [b0' H]]]].
    exists A', c', (mm d (centering d) B'), (mv d (centering d) b0'). intros x i Hi.
    pose proof (center_of_postln d eps gamma beta _ _ He Hg H x i Hi) as E.
    unfold ungated_bias in E at 1. rewrite mv_down in E. unfold ungated_bias. rewrite E.
    rewrite mv_residual. unfold residual, ungated_bias. rewrite mv_down. reflexivity.
  - intros [A' [c' [B' [b0' H]]]]. exists A', c', B', b0'. apply postln_of_center.
    intros x i Hi. rewrite (H x i Hi), mv_residual. unfold residual, ungated_bias.
    rewrite mv_down. reflexivity.
Qed.

Theorem postln_gated_bias_iff gamma0 d n m eps gamma beta P C cg A cu B b0 : 0 < eps ->
  (forall i, (i < d)%nat -> gamma i <> 0) ->
  (absorbable_postnorm_gated_bias (layer_norm d eps gamma beta) gamma0 d n m P C cg A cu B b0 <->
   absorbable_gated_bias gamma0 d n m (mm d (centering d) P) C cg A cu (mm d (centering d) B)
     (mv d (centering d) b0)).
Proof.
  intros He Hg. split.
  - intros [C' [cg' [A' [cu' [B' [b0' H]]]]]].
    exists C', cg', A', cu', (mm d (centering d) B'), (mv d (centering d) b0'). intros x i Hi.
    pose proof (center_of_postln d eps gamma beta _ _ He Hg H x i Hi) as E.
    unfold gated_bias in E at 1. rewrite mv_down in E. unfold gated_bias. rewrite E.
    rewrite mv_residual. unfold residual, gated_bias. rewrite mv_down. reflexivity.
  - intros [C' [cg' [A' [cu' [B' [b0' H]]]]]]. exists C', cg', A', cu', B', b0'.
    apply postln_of_center. intros x i Hi. rewrite (H x i Hi), mv_residual.
    unfold residual, gated_bias. rewrite mv_down. reflexivity.
Qed.

(** Any [gamma] (zeros allowed): the reduced bare block's absorbability
    suffices. *)
Theorem postln_ungated_sufficient sigma d n m eps gamma beta P A B :
  absorbable_ungated sigma d n m (mm d (centering d) P) A (mm d (centering d) B) ->
  absorbable_postnorm_ungated (layer_norm d eps gamma beta) sigma d n m P A B.
Proof.
  intros [A' [B' H]]. exists A', B'. apply postln_of_center. intros x i Hi.
  rewrite (H x i Hi), mv_residual. unfold residual, ungated. rewrite mv_down0. reflexivity.
Qed.

Theorem postln_ungated_bias_sufficient sigma d n m eps gamma beta P A c B b0 :
  absorbable_ungated_bias sigma d n m (mm d (centering d) P) A c (mm d (centering d) B)
    (mv d (centering d) b0) ->
  absorbable_postnorm_ungated_bias (layer_norm d eps gamma beta) sigma d n m P A c B b0.
Proof.
  intros [A' [c' [B' [b0' H]]]]. exists A', c', B', b0'. apply postln_of_center.
  intros x i Hi. rewrite (H x i Hi), mv_residual. unfold residual, ungated_bias.
  rewrite mv_down. reflexivity.
Qed.
