(** * R11 for continuous maps: pre-norm blocks with continuous [f], [g]

    The R11 theorems of [results/PreNorm.v] stated, as in the paper, for
    continuous maps [f], [g] of [R^d] ([continuous_vec],
    [spec/ContinuityDefs.v]) instead of maps bounded on bounded sets; each
    follows from the bounded version and
    [continuous_vec_bounded_on_bounded] ([analysis/ContinuousBounded.v]):
    - [prenorm_continuous_not_residual_free]: [x |-> P x + f(N x)],
      [P <> 0], is never [x |-> g(N' x)];
    - [prenorm_continuous_depth_not_residual_free]: a stack of pre-norm
      blocks with identity skips is never a composition ending in
      [x |-> g(N(H x))], [d >= 1];
    - [parallel_continuous_not_residual_free]: [x + attn(N1 x) + mlp(N2 x)]
      is never [attn'(N1' x) + mlp'(N2' x)], [d >= 1].
    Non-vacuity: [prenorm_continuous_hypotheses_instance] (coordinatewise
    [sin] and squaring, continuous maps that are no MLP blocks) and
    [prenorm_continuous_instance]. *)

From Coq Require Import Reals Lra Lia List.
From Absorb Require Import Sums Blocks Compositions Norms ContinuityDefs.
From Absorb Require Import ContinuousBounded PreNorm.
Open Scope R_scope.

(** ** The theorems *)

Theorem prenorm_continuous_not_residual_free d P N N' f g :
  is_norm d N -> is_norm d N' -> nonzero_mat d P ->
  continuous_vec d f -> continuous_vec d g ->
  ~ same_fun d (prenorm d P N f) (fun x => g (N' x)).
Proof.
  intros HN HN' HP Hf Hg. apply prenorm_not_residual_free; try assumption;
    apply continuous_vec_bounded_on_bounded; assumption.
Qed.

Theorem prenorm_continuous_depth_not_residual_free d (bs : list ((vec -> vec) * (vec -> vec)))
    N g H :
  (1 <= d)%nat -> is_norm d N ->
  Forall (fun b => is_norm d (fst b) /\ continuous_vec d (snd b)) bs -> continuous_vec d g ->
  ~ same_fun d (compose (map (fun b => prenorm d identity (fst b) (snd b)) bs))
               (fun x => g (N (H x))).
Proof.
  intros Hd HN Hall Hg. apply prenorm_depth_not_residual_free; [exact Hd | | exact HN |].
  - eapply Forall_impl; [|exact Hall]. intros b [Hb Hf].
    split; [exact Hb | apply continuous_vec_bounded_on_bounded, Hf].
  - apply continuous_vec_bounded_on_bounded, Hg.
Qed.

Theorem parallel_continuous_not_residual_free d N1 N2 N1' N2' attn mlp attn' mlp' :
  (1 <= d)%nat -> is_norm d N1 -> is_norm d N2 -> is_norm d N1' -> is_norm d N2' ->
  continuous_vec d attn -> continuous_vec d mlp ->
  continuous_vec d attn' -> continuous_vec d mlp' ->
  ~ same_fun d (parallel_residual N1 N2 attn mlp)
               (fun x k => attn' (N1' x) k + mlp' (N2' x) k).
Proof.
  intros Hd H1 H2 H1' H2' Ha Hm Ha' Hm'.
  apply parallel_not_residual_free; try assumption;
    apply continuous_vec_bounded_on_bounded; assumption.
Qed.

(** ** Non-vacuity *)

(** [x |-> (sin x_i)_i] and [x |-> (x_i^2)_i]: continuous, not MLP blocks. *)
Definition sin_map : vec -> vec := fun x i => sin (x i).
Definition square_map : vec -> vec := fun x i => x i * x i.

Lemma sin_map_continuous d : continuous_vec d sin_map.
Proof. exact (coordinatewise_continuous d sin continuity_sin). Qed.

Lemma square_map_continuous d : continuous_vec d square_map.
Proof.
  assert (Hid : continuity id) by exact (derivable_continuous id derivable_id).
  exact (coordinatewise_continuous d (mult_fct id id) (continuity_mult id id Hid Hid)).
Qed.

(** Every hypothesis of the three theorems holds: LayerNorm and RMSNorm,
    [P = I_1], [sin_map] and [square_map] (also as [attn], [mlp], ...). *)
Example prenorm_continuous_hypotheses_instance :
  is_norm 1 ln1 /\ is_norm 1 rms1 /\ nonzero_mat 1 identity /\ (1 <= 1)%nat /\
  continuous_vec 1 sin_map /\ continuous_vec 1 square_map /\
  Forall (fun b => is_norm 1 (fst b) /\ continuous_vec 1 (snd b))
    ((ln1, sin_map) :: (rms1, square_map) :: nil).
Proof.
  destruct prenorm_hypotheses_instance as [H1 [H2 [HP _]]].
  pose proof (sin_map_continuous 1) as Hs. pose proof (square_map_continuous 1) as Hq.
  split; [exact H1|]. split; [exact H2|]. split; [exact HP|]. split; [lia|].
  split; [exact Hs|]. split; [exact Hq|].
  constructor; [split; assumption|]. constructor; [split; assumption | constructor].
Qed.

(** Hence, e.g., [x + sin(LN x)] is no [(RMSNorm x)^2] (coordinatewise). *)
Example prenorm_continuous_instance :
  ~ same_fun 1 (prenorm 1 identity ln1 sin_map) (fun x => square_map (rms1 x)).
Proof.
  destruct prenorm_continuous_hypotheses_instance as [H1 [H2 [HP [_ [Hs [Hq _]]]]]].
  exact (prenorm_continuous_not_residual_free 1 identity ln1 rms1 _ _ H1 H2 HP Hs Hq).
Qed.
