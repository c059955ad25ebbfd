(** * R11: pre-norm and parallel residual blocks are never residual-free

    (N1) LayerNorm and RMSNorm are bounded: every coordinate satisfies
    [|N(x)_i| <= sqrt d |gamma_i| + |beta_i|] ([layer_norm_coord_bound],
    [rms_norm_coord_bound]; [is_norm_bounded]).  Consequences, for every
    skip [P <> 0] and all maps [f], [g] bounded on bounded sets (every
    continuous map, every MLP block of any width with a continuous
    activation, gated or not, with biases: [mlp_block_bounded_on_bounded]):
    - [prenorm_not_residual_free]: [x |-> P x + f(N x)] is never
      [x |-> g(N' x)] ([N], [N'] any LayerNorms / RMSNorms);
    - [prenorm_mlp_not_residual_free]: the same for MLP blocks;
    - [prenorm_depth_not_residual_free]: a stack of pre-norm blocks with
      identity skips is never a composition ending in a pre-norm
      residual-free block [x |-> g(N(H x))] ([H] anything), [d >= 1];
    - [parallel_not_residual_free]: [x + attn(N1 x) + mlp(N2 x)] is never
      [attn'(N1' x) + mlp'(N2' x)], [d >= 1].
    All follow from [residual_not_bounded]: [x |-> P x + F x] with [F]
    bounded is never a bounded map ([linear_bounded_zero] of [Depth.v]). *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Sums Blocks BiasBlocks Compositions Norms.
From Absorb Require Import ActivationDefs Activations SkipReduction Gated Depth.
Open Scope R_scope.

(** ** (N1) Boundedness of the normalizations *)

Lemma mean_sq_nonneg d v : 0 <= mean_sq d v.
Proof.
  unfold mean_sq. destruct d as [|d]; [simpl; lra|].
  apply Rmult_le_pos; [apply sumn_nonneg; intros; apply Rle_0_sqr|].
  left. apply Rinv_0_lt_compat, lt_0_INR. lia.
Qed.

Lemma sq_le_sum_sq d v i : (i < d)%nat -> v i * v i <= sumn d (fun k => v k * v k).
Proof.
  intros Hi. apply (sumn_term_le d (fun k => v k * v k)); [intros; apply Rle_0_sqr | exact Hi].
Qed.

(** [|v_i| / rho_eps(v) <= sqrt d]. *)
Lemma normalized_coord_bound d eps v i : 0 < eps -> (i < d)%nat ->
  Rabs (v i / sqrt (mean_sq d v + eps)) <= sqrt (INR d).
Proof.
  intros He Hi. pose proof (mean_sq_nonneg d v) as Hm.
  set (q := mean_sq d v + eps). assert (Hq : 0 < q) by (unfold q; lra).
  assert (HD : 0 < INR d) by (apply lt_0_INR; lia).
  assert (Hs : v i * v i <= INR d * q).
  { pose proof (sq_le_sum_sq d v i Hi). unfold q, mean_sq in *.
    assert (E : INR d * (sumn d (fun k => v k * v k) / INR d) = sumn d (fun k => v k * v k))
      by (field; lra).
    nra. }
  rewrite <- sqrt_Rsqr_abs. apply sqrt_le_1_alt. unfold Rsqr.
  assert (Hsq : sqrt q * sqrt q = q) by (apply sqrt_sqrt; lra).
  assert (Hpos : 0 < sqrt q) by (apply sqrt_lt_R0; exact Hq).
  replace (v i / sqrt q * (v i / sqrt q)) with (v i * v i / (sqrt q * sqrt q))
    by (field; lra).
  rewrite Hsq.
  apply (Rmult_le_reg_r q); [exact Hq|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

Lemma affine_normalize_coord_bound d eps gamma beta v i : 0 < eps -> (i < d)%nat ->
  Rabs (affine_normalize d eps gamma beta v i) <= sqrt (INR d) * Rabs (gamma i) + Rabs (beta i).
Proof.
  intros He Hi. unfold affine_normalize. eapply Rle_trans; [apply Rabs_triang|].
  rewrite Rabs_mult. apply Rplus_le_compat_r, Rmult_le_compat_r; [apply Rabs_pos|].
  apply normalized_coord_bound; assumption.
Qed.

Theorem layer_norm_coord_bound d eps gamma beta x i : 0 < eps -> (i < d)%nat ->
  Rabs (layer_norm d eps gamma beta x i) <= sqrt (INR d) * Rabs (gamma i) + Rabs (beta i).
Proof. apply affine_normalize_coord_bound. Qed.

Theorem rms_norm_coord_bound d eps gamma beta x i : 0 < eps -> (i < d)%nat ->
  Rabs (rms_norm d eps gamma beta x i) <= sqrt (INR d) * Rabs (gamma i) + Rabs (beta i).
Proof. apply affine_normalize_coord_bound. Qed.

Lemma affine_normalize_bounded d eps gamma beta (F : vec -> vec) : 0 < eps ->
  bounded_map d (fun x => affine_normalize d eps gamma beta (F x)).
Proof.
  intros He. exists (sumn d (fun i => sqrt (INR d) * Rabs (gamma i) + Rabs (beta i))).
  intros x. apply sumn_le. intros i Hi. apply affine_normalize_coord_bound; assumption.
Qed.

Theorem is_norm_bounded d N : is_norm d N -> bounded_map d N.
Proof.
  intros [eps [gamma [beta [He [-> | ->]]]]].
  - exact (affine_normalize_bounded d eps gamma beta (center d) He).
  - exact (affine_normalize_bounded d eps gamma beta (fun x => x) He).
Qed.

(** ** The core: [P x + bounded] is never bounded *)

Lemma bob_vnorm d f : bounded_on_bounded d f ->
  forall K, exists M, forall x, vnorm d x <= K -> vnorm d (f x) <= M.
Proof. intros H. exact H. Qed.

Lemma bob_after_bounded d N f :
  bounded_map d N -> bounded_on_bounded d f -> bounded_map d (fun x => f (N x)).
Proof.
  intros [K HK] Hf. destruct (bob_vnorm d f Hf K) as [M HM].
  exists M. intros x. apply HM, HK.
Qed.

Lemma bounded_plus d F G :
  bounded_map d F -> bounded_map d G -> bounded_map d (fun x k => F x k + G x k).
Proof.
  intros [K1 H1] [K2 H2]. exists (K1 + K2). intros x.
  pose proof (vnorm_plus d (F x) (G x)). pose proof (H1 x). pose proof (H2 x). lra.
Qed.

(** [x |-> P x + F x] with [F] bounded and [P <> 0] is not a bounded map. *)
Theorem residual_not_bounded d P F G :
  nonzero_mat d P -> bounded_map d F -> bounded_map d G -> ~ same_fun d (residual d P F) G.
Proof.
  intros HP HF HG E. apply (mv_vanishing_not_nonzero d P); [|exact HP].
  apply linear_bounded_zero.
  apply (bounded_ext d (fun x k => G x k - F x k)); [|exact (bounded_minus d G F HG HF)].
  intros x i Hi. rewrite <- (E x i Hi). unfold residual. ring.
Qed.

(** ** Pre-norm blocks *)

(** For any bounded [N], [N'] (not only normalizations). *)
Theorem prenorm_bounded_not_residual_free d P N N' f g :
  nonzero_mat d P -> bounded_map d N -> bounded_map d N' ->
  bounded_on_bounded d f -> bounded_on_bounded d g ->
  ~ same_fun d (prenorm d P N f) (fun x => g (N' x)).
Proof.
  intros HP HN HN' Hf Hg.
  exact (residual_not_bounded d P _ _ HP (bob_after_bounded d N f HN Hf)
           (bob_after_bounded d N' g HN' Hg)).
Qed.

Theorem prenorm_not_residual_free d P N N' f g :
  is_norm d N -> is_norm d N' -> nonzero_mat d P ->
  bounded_on_bounded d f -> bounded_on_bounded d g ->
  ~ same_fun d (prenorm d P N f) (fun x => g (N' x)).
Proof.
  intros HN HN' HP. apply prenorm_bounded_not_residual_free;
    [exact HP | apply is_norm_bounded; assumption | apply is_norm_bounded; assumption].
Qed.

(** ** Depth: stacks of pre-norm blocks with identity skips *)

Definition prenorm_id_block (d : nat) (b : (vec -> vec) * (vec -> vec)) : vec -> vec :=
  prenorm d identity (fst b) (snd b).

(** A stack of pre-norm blocks stays within a bounded distance of [x]. *)
Lemma prenorm_stack_near_identity d (bs : list ((vec -> vec) * (vec -> vec))) :
  Forall (fun b => bounded_map d (fun x => snd b (fst b x))) bs ->
  bounded_map d (fun x k => compose (map (prenorm_id_block d) bs) x k - x k).
Proof.
  induction bs as [|b bs IH]; intros Hall.
  - exists 0. intros x. right. apply sumn_zero. intros. simpl. rewrite Rminus_diag_eq, Rabs_R0;
      reflexivity.
  - inversion Hall as [|? ? Hb Hbs]. subst. destruct (IH Hbs) as [K1 H1]. destruct Hb as [K2 H2].
    exists (K1 + K2). intros x. simpl. set (y := prenorm_id_block d b x).
    apply (Rle_trans _ (vnorm d (fun k => compose (map (prenorm_id_block d) bs) y k - y k)
                        + vnorm d (snd b (fst b x)))); [|pose proof (H1 y); pose proof (H2 x); lra].
    rewrite <- (vnorm_ext d (fun k => (compose (map (prenorm_id_block d) bs) y k - y k)
                                      + snd b (fst b x) k)); [apply vnorm_plus|].
    intros k Hk. unfold y, prenorm_id_block, prenorm, residual.
    rewrite (mv_identity d x k Hk). ring.
Qed.

(** On [R^d], [d >= 1], the identity is not bounded. *)
Lemma identity_not_bounded d : (1 <= d)%nat -> ~ bounded_map d (fun x => x).
Proof.
  intros Hd HB. apply (mv_vanishing_not_nonzero d identity).
  - apply linear_bounded_zero. apply (bounded_ext d (fun x => x)); [|exact HB].
    intros x i Hi. symmetry. apply mv_identity, Hi.
  - exists 0%nat, 0%nat. unfold identity. simpl. split; [lia|]. split; [lia|]. lra.
Qed.

(** Against any bounded map [G]. *)
Theorem prenorm_stack_not_bounded d (bs : list ((vec -> vec) * (vec -> vec))) G :
  (1 <= d)%nat -> Forall (fun b => bounded_map d (fun x => snd b (fst b x))) bs ->
  bounded_map d G -> ~ same_fun d (compose (map (prenorm_id_block d) bs)) G.
Proof.
  intros Hd Hall HG E. apply (identity_not_bounded d Hd).
  apply (bounded_ext d (fun x k => G x k - (compose (map (prenorm_id_block d) bs) x k - x k))).
  - intros x i Hi. rewrite <- (E x i Hi). ring.
  - apply bounded_minus; [exact HG | exact (prenorm_stack_near_identity d bs Hall)].
Qed.

Theorem prenorm_depth_not_residual_free d (bs : list ((vec -> vec) * (vec -> vec))) N g H :
  (1 <= d)%nat -> Forall (fun b => is_norm d (fst b) /\ bounded_on_bounded d (snd b)) bs ->
  is_norm d N -> bounded_on_bounded d g ->
  ~ same_fun d (compose (map (fun b => prenorm d identity (fst b) (snd b)) bs))
               (fun x => g (N (H x))).
Proof.
  intros Hd Hall HN Hg. apply (prenorm_stack_not_bounded d bs); [exact Hd| |].
  - eapply Forall_impl; [|exact Hall]. intros b [Hb Hf].
    apply bob_after_bounded; [apply is_norm_bounded|]; assumption.
  - apply (bob_after_bounded d (fun x => N (H x)) g); [|exact Hg].
    destruct (is_norm_bounded d N HN) as [K HK]. exists K. intros x. apply HK.
Qed.

(** ** Parallel residual blocks *)

Theorem parallel_not_bounded d N1 N2 attn mlp G :
  (1 <= d)%nat -> bounded_map d (fun x => attn (N1 x)) -> bounded_map d (fun x => mlp (N2 x)) ->
  bounded_map d G -> ~ same_fun d (parallel_residual N1 N2 attn mlp) G.
Proof.
  intros Hd Ha Hm HG E.
  apply (residual_not_bounded d identity (fun x k => attn (N1 x) k + mlp (N2 x) k) G).
  - exists 0%nat, 0%nat. unfold identity. simpl. split; [lia|]. split; [lia|]. lra.
  - apply bounded_plus; assumption.
  - exact HG.
  - intros x i Hi. rewrite <- (E x i Hi). unfold residual, parallel_residual.
    rewrite (mv_identity d x i Hi). ring.
Qed.

(** Against a residual-free parallel block [attn'(N1' x) + mlp'(N2' x)]. *)
Theorem parallel_not_residual_free d N1 N2 N1' N2' attn mlp attn' mlp' :
  (1 <= d)%nat -> is_norm d N1 -> is_norm d N2 -> is_norm d N1' -> is_norm d N2' ->
  bounded_on_bounded d attn -> bounded_on_bounded d mlp ->
  bounded_on_bounded d attn' -> bounded_on_bounded d mlp' ->
  ~ same_fun d (parallel_residual N1 N2 attn mlp)
               (fun x k => attn' (N1' x) k + mlp' (N2' x) k).
Proof.
  intros Hd H1 H2 H1' H2' Ha Hm Ha' Hm'.
  apply parallel_not_bounded; [exact Hd | | | apply bounded_plus];
    apply bob_after_bounded; try apply is_norm_bounded; assumption.
Qed.

(** ** MLP blocks with a continuous activation are bounded on bounded sets *)

Lemma continuous_bounded_interval sigma K :
  continuity sigma -> exists M, forall z, Rabs z <= K -> Rabs (sigma z) <= M.
Proof.
  intros Hc. destruct (Rle_or_lt 0 K) as [HK|HK].
  - assert (Hab : - K <= K) by lra.
    destruct (continuity_ab_maj sigma (- K) K Hab (fun c _ => Hc c)) as [zM [HM _]].
    destruct (continuity_ab_min sigma (- K) K Hab (fun c _ => Hc c)) as [zm [Hm _]].
    exists (Rabs (sigma zM) + Rabs (sigma zm)). intros z Hz.
    assert (Hz' : - K <= z <= K) by (unfold Rabs in Hz; destruct Rcase_abs in Hz; lra).
    clear Hz. rename Hz' into Hz.
    pose proof (HM z Hz). pose proof (Hm z Hz).
    pose proof (Rle_abs (sigma zM)). pose proof (Rle_abs (- sigma zm)). rewrite Rabs_Ropp in *.
    pose proof (Rabs_pos (sigma zM)). pose proof (Rabs_pos (sigma zm)).
    apply Rabs_le. split; lra.
  - exists 0. intros z Hz. pose proof (Rabs_pos z). lra.
Qed.

(** The pre-activations [a_j . x + c_j] are bounded on bounded sets. *)
Lemma preact_bound d n (A : mat) (c : vec) K x j : (j < n)%nat -> vnorm d x <= K ->
  Rabs (dot d (row A j) x + c j) <= sumn n (fun i => vnorm d (row A i) * Rabs K + Rabs (c i)).
Proof.
  intros Hj Hx. eapply Rle_trans; [apply Rabs_triang|].
  eapply Rle_trans;
    [|apply (sumn_term_le n (fun i => vnorm d (row A i) * Rabs K + Rabs (c i)) j); [|exact Hj]].
  - apply Rplus_le_compat_r. eapply Rle_trans; [apply dot_bound|].
    apply Rmult_le_compat_l; [apply vnorm_nonneg|]. pose proof (Rle_abs K). lra.
  - intros i _. pose proof (vnorm_nonneg d (row A i)). pose proof (Rabs_pos K).
    pose proof (Rabs_pos (c i)). nra.
Qed.

(** A block [x |-> sum_j B_ij s_j(x) + b0_i] with [|s_j(x)| <= M] on [|x| <= K]. *)
Lemma down_bound d n (B : mat) (b0 : vec) (s : nat -> R) M :
  (forall j, (j < n)%nat -> Rabs (s j) <= M) ->
  vnorm d (fun i => sumn n (fun j => B i j * s j) + b0 i) <=
  sumn d (fun i => sumn n (fun j => Rabs (B i j) * M) + Rabs (b0 i)).
Proof.
  intros Hs. apply sumn_le. intros i _. eapply Rle_trans; [apply Rabs_triang|].
  apply Rplus_le_compat_r. eapply Rle_trans; [apply sumn_abs|].
  apply sumn_le. intros j Hj. rewrite Rabs_mult.
  apply Rmult_le_compat_l; [apply Rabs_pos | apply Hs, Hj].
Qed.

Theorem ungated_bias_bounded_on_bounded sigma d n A c B b0 :
  continuity sigma -> bounded_on_bounded d (ungated_bias sigma d n A c B b0).
Proof.
  intros Hc K.
  destruct (continuous_bounded_interval sigma
              (sumn n (fun i => vnorm d (row A i) * Rabs K + Rabs (c i))) Hc) as [M HM].
  exists (sumn d (fun i => sumn n (fun j => Rabs (B i j) * M) + Rabs (b0 i))).
  intros x Hx. apply (down_bound d n B b0 (fun j => sigma (dot d (row A j) x + c j)) M).
  intros j Hj. apply HM, (preact_bound d n A c K x j Hj Hx).
Qed.

Theorem gated_bias_bounded_on_bounded sigma d n C cg A cu B b0 :
  continuity sigma -> bounded_on_bounded d (gated_bias sigma d n C cg A cu B b0).
Proof.
  intros Hc K.
  set (KC := sumn n (fun i => vnorm d (row C i) * Rabs K + Rabs (cg i))).
  set (KA := sumn n (fun i => vnorm d (row A i) * Rabs K + Rabs (cu i))).
  destruct (continuous_bounded_interval sigma KC Hc) as [M HM].
  exists (sumn d (fun i => sumn n (fun j => Rabs (B i j) * (M * KA)) + Rabs (b0 i))).
  intros x Hx. apply (down_bound d n B b0 (fun j => sigma (dot d (row C j) x + cg j) *
                                                    (dot d (row A j) x + cu j))).
  intros j Hj. rewrite Rabs_mult.
  apply Rmult_le_compat; [apply Rabs_pos | apply Rabs_pos | |].
  - apply HM, (preact_bound d n C cg K x j Hj Hx).
  - apply (preact_bound d n A cu K x j Hj Hx).
Qed.

Theorem mlp_block_bounded_on_bounded sigma d f :
  continuity sigma -> mlp_block sigma d f -> bounded_on_bounded d f.
Proof.
  intros Hc [[n [A [c [B [b0 ->]]]]] | [n [C [cg [A [cu [B [b0 ->]]]]]]]].
  - apply ungated_bias_bounded_on_bounded, Hc.
  - apply gated_bias_bounded_on_bounded, Hc.
Qed.

(** "No MLP of any width": pre-norm MLP blocks against pre-norm
    residual-free MLP blocks, any activations [sigma], [tau] continuous. *)
Theorem prenorm_mlp_not_residual_free sigma tau d P N N' f g :
  continuity sigma -> continuity tau -> is_norm d N -> is_norm d N' -> nonzero_mat d P ->
  mlp_block sigma d f -> mlp_block tau d g ->
  ~ same_fun d (prenorm d P N f) (fun x => g (N' x)).
Proof.
  intros Hs Ht HN HN' HP Hf Hg. apply prenorm_not_residual_free; try assumption.
  - exact (mlp_block_bounded_on_bounded sigma d f Hs Hf).
  - exact (mlp_block_bounded_on_bounded tau d g Ht Hg).
Qed.

(** ** Non-vacuity *)

Definition ln1 : vec -> vec := layer_norm 1 1 (fun _ => 1) (fun _ => 0).
Definition rms1 : vec -> vec := rms_norm 1 1 (fun _ => 1) (fun _ => 0).
Definition relu_mlp1 : vec -> vec :=
  ungated_bias relu 1 1 (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 0).
Definition reglu_mlp1 : vec -> vec :=
  gated_bias relu 1 1 (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1)
    (fun _ => 0).

Lemma identity_nonzero_mat_1 : nonzero_mat 1 identity.
Proof. exists 0%nat, 0%nat. unfold identity. simpl. split; [lia|]. split; [lia|]. lra. Qed.

(** Every hypothesis of the pre-norm, depth and parallel theorems holds:
    LayerNorm and RMSNorm, [P = I_1], ReLU, an ungated and a gated block. *)
Example prenorm_hypotheses_instance :
  is_norm 1 ln1 /\ is_norm 1 rms1 /\ nonzero_mat 1 identity /\ (1 <= 1)%nat /\
  continuity relu /\ mlp_block relu 1 relu_mlp1 /\ mlp_block relu 1 reglu_mlp1 /\
  Forall (fun b => is_norm 1 (fst b) /\ bounded_on_bounded 1 (snd b))
    ((ln1, relu_mlp1) :: (rms1, reglu_mlp1) :: nil).
Proof.
  assert (Hc : continuity relu) by exact relu_continuous.
  assert (H1 : is_norm 1 ln1) by (exists 1, (fun _ => 1), (fun _ => 0); split; [lra | left; auto]).
  assert (H2 : is_norm 1 rms1)
    by (exists 1, (fun _ => 1), (fun _ => 0); split; [lra | right; auto]).
  assert (Hu : mlp_block relu 1 relu_mlp1) by (left; do 5 eexists; reflexivity).
  assert (Hg : mlp_block relu 1 reglu_mlp1) by (right; do 7 eexists; reflexivity).
  split; [exact H1|]. split; [exact H2|]. split; [exact identity_nonzero_mat_1|].
  split; [lia|]. split; [exact Hc|]. split; [exact Hu|]. split; [exact Hg|].
  constructor; [split; [exact H1 | exact (mlp_block_bounded_on_bounded relu 1 _ Hc Hu)]|].
  constructor; [|constructor].
  split; [exact H2 | exact (mlp_block_bounded_on_bounded relu 1 _ Hc Hg)].
Qed.

(** Hence, e.g., [x + relu_mlp1(LN x)] is no [reglu_mlp1(RMSNorm x)]. *)
Example prenorm_instance :
  ~ same_fun 1 (prenorm 1 identity ln1 relu_mlp1) (fun x => reglu_mlp1 (rms1 x)).
Proof.
  destruct prenorm_hypotheses_instance as [H1 [H2 [HP [_ [Hc [Hu [Hg _]]]]]]].
  exact (prenorm_mlp_not_residual_free relu relu 1 identity ln1 rms1 _ _ Hc Hc H1 H2 HP Hu Hg).
Qed.
