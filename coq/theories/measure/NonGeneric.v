(** * R6: the submatrix set [Z] and the non-generic set are small

    The parameter space is the finite family of entries [A i k], [B k i]
    ([i < n], [k < d]); [close d n eps A B A' B'] says every such entry of
    [(A', B')] is within [eps] of that of [(A, B)].  A set of parameters
    [T : mat -> mat -> Prop] is [closed_set] when it contains every point all
    of whose neighbourhoods meet it, [open_set] when each of its points has a
    neighbourhood inside it, and has [empty_interior] when every
    neighbourhood of every point leaves it (definitions in
    [spec/ParamSets.v]).

    Main results, for [Z = in_Z d n] (some [S] with [B[:,S] A[S,:] = -I]):
    - [Z_closed], [Z_empty_interior] ([1 <= d]),
    - [Z_scalar_finite]: at most [2^n] scalars [t] put [(A, t B)] in [Z];
    and for the non-generic set [nongeneric d n]:
    - [nongeneric_closed] (the generic set is open: [generic_open], an
      instance of [rows_pairs_cols_open]),
    - [nongeneric_empty_interior] ([1 <= d] and [2 <= d \/ n <= 1]; for
      [d = 1 <= 2 <= n] every block is non-generic: [nongeneric_d1]),
    - [nongeneric_scalar_finite]: for generic [(A, B)], [(A, t B)] is
      non-generic only for [t = 0].
    [Z] joined with the complement of any open set is closed, with empty
    interior when that complement has one ([Z_union_closed],
    [Z_union_empty_interior]).  That both sets are moreover Lebesgue-null is
    [NullSet.v] ([Z_null], [nongeneric_null]). *)

From Coq Require Import Reals Lra Lia List Classical.
From Absorb Require Import Sums Blocks ParamSets.
Import ListNotations.
Open Scope R_scope.

(** ** Sets of parameters and their topology *)

Lemma close_mono d n e e' A B A' B' :
  e' <= e -> close d n e' A B A' B' -> close d n e A B A' B'.
Proof. intros He H i k Hi Hk. destruct (H i k Hi Hk). split; lra. Qed.

Lemma close_trans d n e1 e2 A B A1 B1 A2 B2 :
  close d n e1 A B A1 B1 -> close d n e2 A1 B1 A2 B2 -> close d n (e1 + e2) A B A2 B2.
Proof.
  intros H1 H2 i k Hi Hk. destruct (H1 i k Hi Hk) as [Ha1 Hb1].
  destruct (H2 i k Hi Hk) as [Ha2 Hb2].
  replace (A2 i k - A i k) with ((A2 i k - A1 i k) + (A1 i k - A i k)) by ring.
  replace (B2 k i - B k i) with ((B2 k i - B1 k i) + (B1 k i - B k i)) by ring.
  pose proof (Rabs_triang (A2 i k - A1 i k) (A1 i k - A i k)).
  pose proof (Rabs_triang (B2 k i - B1 k i) (B1 k i - B k i)). split; lra.
Qed.

Lemma open_compl_closed d n (T : mat -> mat -> Prop) :
  open_set d n (fun A B => ~ T A B) -> closed_set d n T.
Proof.
  intros Hopen A B H. apply NNPP. intros HnT.
  destruct (Hopen A B HnT) as [e [He Hball]].
  destruct (H e He) as [A' [B' [Hc HT]]]. exact (Hball A' B' Hc HT).
Qed.

(** ** Choosing one radius for finitely many conditions *)

Lemma eps_min_nat (P : nat -> R -> Prop) n :
  (forall i e e', (i < n)%nat -> 0 < e' <= e -> P i e -> P i e') ->
  (forall i, (i < n)%nat -> exists e, 0 < e /\ P i e) ->
  exists e, 0 < e /\ forall i, (i < n)%nat -> P i e.
Proof.
  induction n as [|n IH]; intros Hmono H.
  - exists 1. split; [lra | intros; lia].
  - destruct IH as [e1 [He1 H1]].
    + intros i e e' Hi. apply Hmono. lia.
    + intros i Hi. apply H. lia.
    + destruct (H n ltac:(lia)) as [e2 [He2 H2]].
      exists (Rmin e1 e2). split; [apply Rmin_pos; assumption|].
      intros i Hi. destruct (Nat.eq_dec i n) as [->|Hne].
      * apply (Hmono n e2); [lia | | exact H2].
        split; [apply Rmin_pos; assumption | apply Rmin_r].
      * apply (Hmono i e1); [lia | | apply H1; lia].
        split; [apply Rmin_pos; assumption | apply Rmin_l].
Qed.

Lemma eps_min_list {X : Type} (P : X -> R -> Prop) (L : list X) :
  (forall x e e', 0 < e' <= e -> P x e -> P x e') ->
  (forall x, In x L -> exists e, 0 < e /\ P x e) ->
  exists e, 0 < e /\ forall x, In x L -> P x e.
Proof.
  intros Hmono. induction L as [|y L IH]; intros H.
  - exists 1. split; [lra | intros x []].
  - destruct IH as [e1 [He1 H1]]; [intros x Hx; apply H; right; exact Hx|].
    destruct (H y (or_introl eq_refl)) as [e2 [He2 H2]].
    exists (Rmin e1 e2). split; [apply Rmin_pos; assumption|].
    intros x [<-|Hx].
    + apply (Hmono y e2); [split; [apply Rmin_pos; assumption | apply Rmin_r] | exact H2].
    + apply (Hmono x e1); [split; [apply Rmin_pos; assumption | apply Rmin_l] | auto].
Qed.

(** A ball condition shrinks with the radius. *)
Lemma ball_mono d n A B (Q : mat -> mat -> Prop) e e' :
  0 < e' <= e ->
  (forall A' B', close d n e A B A' B' -> Q A' B') ->
  (forall A' B', close d n e' A B A' B' -> Q A' B').
Proof. intros He H A' B' Hc. apply H. apply (close_mono d n e e'); [lra | exact Hc]. Qed.

(** ** Finite sets of reals *)

Lemma avoid_list (l : list R) : forall a b, a < b -> exists t, a < t < b /\ ~ In t l.
Proof.
  induction l as [|x l IH]; intros a b Hab.
  - exists ((a + b) / 2). split; [lra | intros []].
  - destruct (IH a b Hab) as [t [Ht Hn]].
    destruct (Req_dec t x) as [Etx|Hne].
    + destruct (IH a x ltac:(lra)) as [t' [Ht' Hn']].
      exists t'. split; [lra|]. intros [E|E]; [lra | exact (Hn' E)].
    + exists t. split; [exact Ht|]. intros [E|E]; [exact (Hne (eq_sym E)) | exact (Hn E)].
Qed.

Lemma finite_bad_nat (bad : nat -> R -> Prop) n :
  (forall i, (i < n)%nat -> exists l, forall s, bad i s -> In s l) ->
  exists l, forall i s, (i < n)%nat -> bad i s -> In s l.
Proof.
  induction n as [|n IH]; intros H.
  - exists []. intros; lia.
  - destruct IH as [l1 H1]; [intros i Hi; apply H; lia|].
    destruct (H n ltac:(lia)) as [l2 H2].
    exists (l1 ++ l2). intros i s Hi Hb. apply in_or_app.
    destruct (Nat.eq_dec i n) as [->|Hne]; [right; auto | left; apply (H1 i); [lia|auto]].
Qed.

(** A real quadratic with nonzero leading coefficient has at most two roots. *)
Lemma quadratic_roots a b c :
  c <> 0 -> exists l : list R, forall s, a + b * s + c * s * s = 0 -> In s l.
Proof.
  intros Hc. destruct (classic (exists r, a + b * r + c * r * r = 0)) as [[r Hr]|Hno].
  - exists [r; - (b / c) - r]. intros s Hs.
    assert (E : (s - r) * (b + c * (s + r)) = 0).
    { replace ((s - r) * (b + c * (s + r)))
        with ((a + b * s + c * s * s) - (a + b * r + c * r * r)) by ring. lra. }
    destruct (Rmult_integral _ _ E) as [E1|E2].
    + left. lra.
    + right; left. field_simplify_eq; [|exact Hc]. lra.
  - exists []. intros s Hs. exfalso. apply Hno. exists s. exact Hs.
Qed.

(** ** Perturbation bounds *)

Lemma prod_perturb x y x' y' e :
  0 < e <= 1 -> Rabs (x' - x) < e -> Rabs (y' - y) < e ->
  Rabs (x' * y' - x * y) <= e * (Rabs x + Rabs y + 1).
Proof.
  intros He Hx Hy.
  replace (x' * y' - x * y) with ((x' - x) * y' + x * (y' - y)) by ring.
  eapply Rle_trans; [apply Rabs_triang|]. rewrite !Rabs_mult.
  assert (Hy' : Rabs y' <= Rabs y + 1).
  { replace y' with (y + (y' - y)) by ring.
    pose proof (Rabs_triang y (y' - y)). lra. }
  assert (H1 : Rabs (x' - x) * Rabs y' <= e * (Rabs y + 1)).
  { apply Rmult_le_compat; [apply Rabs_pos | apply Rabs_pos | lra | exact Hy']. }
  assert (H2 : Rabs x * Rabs (y' - y) <= Rabs x * e).
  { apply Rmult_le_compat_l; [apply Rabs_pos | lra]. }
  lra.
Qed.

(** If [m <> 0] and [|m' - m| <= e K] for [e] small, then [m' <> 0]. *)
Lemma small_perturb_nonzero m K :
  m <> 0 -> 0 <= K ->
  exists e, 0 < e <= 1 /\ forall m', Rabs (m' - m) <= e * K -> m' <> 0.
Proof.
  intros Hm HK. pose proof (Rabs_pos_lt m Hm) as Hpos.
  exists (Rmin 1 (Rabs m / (2 * (K + 1)))).
  assert (He : 0 < Rmin 1 (Rabs m / (2 * (K + 1)))).
  { apply Rmin_pos; [lra|]. apply Rdiv_lt_0_compat; lra. }
  split; [split; [exact He | apply Rmin_l]|].
  intros m' Hm' E. subst m'.
  assert (Hb : Rmin 1 (Rabs m / (2 * (K + 1))) * K <= Rabs m / 2).
  { apply Rle_trans with (Rabs m / (2 * (K + 1)) * (K + 1)).
    - apply Rmult_le_compat; [lra | exact HK | apply Rmin_r | lra].
    - right. field. lra. }
  replace (0 - m) with (- m) in Hm' by ring. rewrite Rabs_Ropp in Hm'. lra.
Qed.

(** ** [Z] is closed *)

Lemma subset_sum_ext n (S T : nat -> bool) A B k l :
  (forall i, (i < n)%nat -> S i = T i) -> subset_sum n S A B k l = subset_sum n T A B k l.
Proof.
  intros H. unfold subset_sum. apply sumn_ext. intros i Hi. rewrite H by exact Hi. reflexivity.
Qed.

Lemma subset_sum_perturb d n (S : nat -> bool) A B A' B' e k l :
  0 < e <= 1 -> (k < d)%nat -> (l < d)%nat -> close d n e A B A' B' ->
  Rabs (subset_sum n S A' B' k l - subset_sum n S A B k l) <=
  e * sumn n (fun i => Rabs (B k i) + Rabs (A i l) + 1).
Proof.
  intros He Hk Hl Hc. unfold subset_sum. rewrite <- sumn_minus.
  eapply Rle_trans; [apply sumn_abs|]. rewrite <- sumn_scal_l. apply sumn_le.
  intros i Hi. destruct (Hc i l Hi Hl) as [Ha _]. destruct (Hc i k Hi Hk) as [_ Hb].
  destruct (S i).
  - apply prod_perturb; assumption.
  - replace (0 - 0) with 0 by ring. rewrite Rabs_R0.
    apply Rmult_le_pos; [lra|]. pose proof (Rabs_pos (B k i)). pose proof (Rabs_pos (A i l)). lra.
Qed.

Lemma not_submatrix_cond_stable d n (S : nat -> bool) A B :
  ~ submatrix_cond d n S A B ->
  exists e, 0 < e /\ forall A' B', close d n e A B A' B' -> ~ submatrix_cond d n S A' B'.
Proof.
  intros Hn.
  assert (Hex : exists k l, (k < d)%nat /\ (l < d)%nat /\
                  subset_sum n S A B k l <> - identity k l).
  { apply NNPP. intros Hno. apply Hn. intros k l Hk Hl. apply NNPP. intros E.
    apply Hno. exists k, l. auto. }
  destruct Hex as [k [l [Hk [Hl Hne]]]].
  set (K := sumn n (fun i => Rabs (B k i) + Rabs (A i l) + 1)).
  assert (HK : 0 <= K).
  { apply sumn_nonneg. intros i _. pose proof (Rabs_pos (B k i)).
    pose proof (Rabs_pos (A i l)). lra. }
  destruct (small_perturb_nonzero (subset_sum n S A B k l + identity k l) K) as [e [He Hsm]];
    [intros E; apply Hne; lra | exact HK|].
  exists e. split; [lra|]. intros A' B' Hc Hsub.
  apply (Hsm (subset_sum n S A' B' k l + identity k l)).
  - replace (subset_sum n S A' B' k l + identity k l - (subset_sum n S A B k l + identity k l))
      with (subset_sum n S A' B' k l - subset_sum n S A B k l) by ring.
    apply (subset_sum_perturb d n S A B A' B' e k l); assumption.
  - rewrite Hsub by assumption. ring.
Qed.

(** The subsets of [{0 .. n-1}], as [2^n] indicator functions. *)
Fixpoint subsets (n : nat) : list (nat -> bool) :=
  match n with
  | O => [fun _ => false]
  | S m => flat_map (fun T => [fun i => if Nat.eqb i m then false else T i;
                               fun i => if Nat.eqb i m then true else T i]) (subsets m)
  end.

Lemma length_flat_map2 {X Y : Type} (f g : X -> Y) (l : list X) :
  length (flat_map (fun x => [f x; g x]) l) = (2 * length l)%nat.
Proof. induction l as [|x l IH]; simpl; [reflexivity | rewrite IH; lia]. Qed.

Lemma subsets_length n : length (subsets n) = (2 ^ n)%nat.
Proof.
  induction n as [|n IH]; [reflexivity|]. simpl subsets.
  rewrite length_flat_map2, IH. simpl. lia.
Qed.

Lemma subsets_complete n (S : nat -> bool) :
  exists T, In T (subsets n) /\ forall i, (i < n)%nat -> T i = S i.
Proof.
  induction n as [|n IH].
  - exists (fun _ => false). split; [left; reflexivity | intros; lia].
  - destruct IH as [T [HT HTS]]. simpl subsets.
    exists (fun i => if Nat.eqb i n then S n else T i). split.
    + apply in_flat_map. exists T. split; [exact HT|].
      destruct (S n); [right; left | left]; reflexivity.
    + intros i Hi. destruct (Nat.eqb_spec i n) as [->|Hne]; [reflexivity|].
      apply HTS. lia.
Qed.

Lemma submatrix_cond_ext d n (S T : nat -> bool) A B :
  (forall i, (i < n)%nat -> T i = S i) -> submatrix_cond d n S A B -> submatrix_cond d n T A B.
Proof.
  intros H Hs k l Hk Hl. rewrite (subset_sum_ext n T S) by exact H. apply Hs; assumption.
Qed.

Lemma in_Z_subsets d n A B :
  in_Z d n A B -> exists T, In T (subsets n) /\ submatrix_cond d n T A B.
Proof.
  intros [S HS]. destruct (subsets_complete n S) as [T [HT HTS]].
  exists T. split; [exact HT|]. apply (submatrix_cond_ext d n S T); assumption.
Qed.

Lemma not_Z_open d n : open_set d n (fun A B => ~ in_Z d n A B).
Proof.
  intros A B HnZ.
  destruct (eps_min_list
    (fun T e => forall A' B', close d n e A B A' B' -> ~ submatrix_cond d n T A' B')
    (subsets n)) as [e [He H]].
  - intros T e e' He' H0. exact (ball_mono d n A B _ e e' He' H0).
  - intros T _. apply not_submatrix_cond_stable. intros HT. apply HnZ. exists T. exact HT.
  - exists e. split; [exact He|]. intros A' B' Hc HZ.
    destruct (in_Z_subsets d n A' B' HZ) as [T [HT Hsub]].
    exact (H T HT A' B' Hc Hsub).
Qed.

Theorem Z_closed d n : closed_set d n (in_Z d n).
Proof. apply open_compl_closed, not_Z_open. Qed.

(** ** At most [2^n] scalings of [B] land in [Z] *)

Lemma subset_sum_scale n (S : nat -> bool) A B t k l :
  subset_sum n S A (fun k i => t * B k i) k l = t * subset_sum n S A B k l.
Proof.
  unfold subset_sum. rewrite <- sumn_scal_l. apply sumn_ext.
  intros i _. destruct (S i); ring.
Qed.

Theorem Z_scalar_finite d n A B : (1 <= d)%nat ->
  exists l : list R, (length l <= 2 ^ n)%nat /\
    forall t, in_Z d n A (fun k i => t * B k i) -> In t l.
Proof.
  intros Hd. exists (map (fun T => - / subset_sum n T A B 0%nat 0%nat) (subsets n)).
  split; [rewrite map_length, subsets_length; lia|].
  intros t HZ. destruct (in_Z_subsets d n A _ HZ) as [T [HT Hsub]].
  specialize (Hsub 0%nat 0%nat ltac:(lia) ltac:(lia)).
  rewrite subset_sum_scale in Hsub. unfold identity in Hsub. simpl in Hsub.
  apply in_map_iff. exists T. split; [|exact HT].
  assert (Hs : subset_sum n T A B 0%nat 0%nat <> 0) by (intros E; rewrite E in Hsub; lra).
  field_simplify_eq; [lra | exact Hs].
Qed.

(** ** [Z] has empty interior *)

Lemma entry_le_double_sum d n (B : mat) k i :
  (k < d)%nat -> (i < n)%nat ->
  Rabs (B k i) <= sumn d (fun k => sumn n (fun i => Rabs (B k i))).
Proof.
  intros Hk Hi.
  apply Rle_trans with (sumn n (fun i => Rabs (B k i))).
  - apply (sumn_term_le n (fun i => Rabs (B k i))); [intros; apply Rabs_pos | exact Hi].
  - apply (sumn_term_le d (fun k => sumn n (fun i => Rabs (B k i)))); [|exact Hk].
    intros; apply sumn_nonneg; intros; apply Rabs_pos.
Qed.

Theorem Z_empty_interior d n : (1 <= d)%nat -> empty_interior d n (in_Z d n).
Proof.
  intros Hd A B e He.
  destruct (Z_scalar_finite d n A B Hd) as [l [_ Hl]].
  set (M := sumn d (fun k => sumn n (fun i => Rabs (B k i)))).
  assert (HM : 0 <= M) by (apply sumn_nonneg; intros; apply sumn_nonneg; intros; apply Rabs_pos).
  destruct (avoid_list l 1 (1 + e / (M + 1))) as [t [Ht Hnl]].
  { assert (0 < e / (M + 1)) by (apply Rdiv_lt_0_compat; lra). lra. }
  exists A, (fun k i => t * B k i). split.
  - intros i k Hi Hk. split.
    + replace (A i k - A i k) with 0 by ring. rewrite Rabs_R0. exact He.
    + cbv beta. replace (t * B k i - B k i) with ((t - 1) * B k i) by ring.
      rewrite Rabs_mult, (Rabs_right (t - 1)) by lra.
      pose proof (entry_le_double_sum d n B k i Hk Hi) as HB.
      apply Rle_lt_trans with ((t - 1) * M).
      * apply Rmult_le_compat_l; [lra | exact HB].
      * apply Rle_lt_trans with (e / (M + 1) * M).
        -- apply Rmult_le_compat_r; lra.
        -- apply Rlt_le_trans with (e / (M + 1) * (M + 1)).
           ++ apply Rmult_lt_compat_l; [apply Rdiv_lt_0_compat|]; lra.
           ++ right. field. lra.
  - intros HZ. exact (Hnl (Hl t HZ)).
Qed.

(** ** Pairwise independence through [2 x 2] minors *)

Definition minor2 (u v : vec) (k l : nat) : R := u k * v l - u l * v k.

Lemma indep_of_minor d (u v : vec) k l :
  (k < d)%nat -> (l < d)%nat -> minor2 u v k l <> 0 -> lin_independent2 d u v.
Proof.
  intros Hk Hl Hm alpha beta H.
  pose proof (H k Hk) as Ek. pose proof (H l Hl) as El. unfold minor2 in Hm.
  assert (Ea : alpha * (u k * v l - u l * v k) =
               v l * (alpha * u k + beta * v k) - v k * (alpha * u l + beta * v l)) by ring.
  assert (Eb : beta * (u k * v l - u l * v k) =
               u k * (alpha * u l + beta * v l) - u l * (alpha * u k + beta * v k)) by ring.
  rewrite Ek, El in Ea, Eb.
  split.
  - destruct (Rmult_integral alpha (u k * v l - u l * v k)); [lra | assumption | contradiction].
  - destruct (Rmult_integral beta (u k * v l - u l * v k)); [lra | assumption | contradiction].
Qed.

Lemma minor_of_indep d (u v : vec) :
  lin_independent2 d u v -> exists k l, (k < d)%nat /\ (l < d)%nat /\ minor2 u v k l <> 0.
Proof.
  intros Hind. apply NNPP. intros Hno.
  assert (Hz : forall k l, (k < d)%nat -> (l < d)%nat -> minor2 u v k l = 0).
  { intros k l Hk Hl. apply NNPP. intros Hne. apply Hno. exists k, l. auto. }
  destruct (classic (exists k, (k < d)%nat /\ u k <> 0)) as [[k [Hk Huk]]|Hu].
  - destruct (Hind (v k) (- u k)) as [_ Hb].
    + intros l Hl. pose proof (Hz k l Hk Hl) as E. unfold minor2 in E. lra.
    + apply Huk. lra.
  - destruct (Hind 1 0) as [H1 _]; [|lra].
    intros l Hl. assert (u l = 0).
    { apply NNPP. intros Hne. apply Hu. exists l. auto. }
    lra.
Qed.

(** ** The generic set is open *)

Lemma entry_stable x :
  x <> 0 -> exists e, 0 < e /\ forall x', Rabs (x' - x) < e -> x' <> 0.
Proof.
  intros Hx. exists (Rabs x). split; [apply Rabs_pos_lt; exact Hx|].
  intros x' H E. subst x'. replace (0 - x) with (- x) in H by ring.
  rewrite Rabs_Ropp in H. lra.
Qed.

Lemma minor_stable a b c d :
  a * b - c * d <> 0 ->
  exists e, 0 < e /\ forall a' b' c' d',
    Rabs (a' - a) < e -> Rabs (b' - b) < e -> Rabs (c' - c) < e -> Rabs (d' - d) < e ->
    a' * b' - c' * d' <> 0.
Proof.
  intros Hm.
  set (K := (Rabs a + Rabs b + 1) + (Rabs c + Rabs d + 1)).
  assert (HK : 0 <= K).
  { unfold K. pose proof (Rabs_pos a). pose proof (Rabs_pos b).
    pose proof (Rabs_pos c). pose proof (Rabs_pos d). lra. }
  destruct (small_perturb_nonzero (a * b - c * d) K Hm HK) as [e [He Hsm]].
  exists e. split; [lra|]. intros a' b' c' d' Ha Hb Hc Hd. apply Hsm.
  replace (a' * b' - c' * d' - (a * b - c * d))
    with ((a' * b' - a * b) - (c' * d' - c * d)) by ring.
  eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_Ropp.
  pose proof (prod_perturb a b a' b' e He Ha Hb).
  pose proof (prod_perturb c d c' d' e He Hc Hd).
  unfold K. lra.
Qed.

Lemma nonzero_row_stable d n A B i :
  (i < n)%nat -> nonzero_vec d (row A i) ->
  exists e, 0 < e /\ forall A' B', close d n e A B A' B' -> nonzero_vec d (row A' i).
Proof.
  intros Hi [k [Hk Hne]]. destruct (entry_stable _ Hne) as [e [He H]].
  exists e. split; [exact He|]. intros A' B' Hc. exists k. split; [exact Hk|].
  apply H. exact (proj1 (Hc i k Hi Hk)).
Qed.

Lemma nonzero_col_stable d n A B i :
  (i < n)%nat -> nonzero_vec d (col B i) ->
  exists e, 0 < e /\ forall A' B', close d n e A B A' B' -> nonzero_vec d (col B' i).
Proof.
  intros Hi [k [Hk Hne]]. destruct (entry_stable _ Hne) as [e [He H]].
  exists e. split; [exact He|]. intros A' B' Hc. exists k. split; [exact Hk|].
  apply H. exact (proj2 (Hc i k Hi Hk)).
Qed.

Lemma indep_rows_stable d n A B i j :
  (i < n)%nat -> (j < n)%nat -> lin_independent2 d (row A i) (row A j) ->
  exists e, 0 < e /\ forall A' B', close d n e A B A' B' ->
    lin_independent2 d (row A' i) (row A' j).
Proof.
  intros Hi Hj Hind. destruct (minor_of_indep d _ _ Hind) as [k [l [Hk [Hl Hm]]]].
  unfold minor2, row in Hm. destruct (minor_stable _ _ _ _ Hm) as [e [He H]].
  exists e. split; [exact He|]. intros A' B' Hc.
  apply (indep_of_minor d _ _ k l Hk Hl). unfold minor2, row.
  apply H; [apply (Hc i k) | apply (Hc j l) | apply (Hc i l) | apply (Hc j k)]; assumption.
Qed.

(** Nonzero rows, a pairwise condition on rows that survives small changes, and
    nonzero columns: an open set ([generic], [PmDisjointness.pm_generic]). *)
Lemma rows_pairs_cols_open d n (Pair : vec -> vec -> Prop) :
  (forall A B i j, (i < n)%nat -> (j < n)%nat -> Pair (row A i) (row A j) ->
     exists e, 0 < e /\ forall A' B', close d n e A B A' B' -> Pair (row A' i) (row A' j)) ->
  open_set d n (fun A B =>
    (forall i, (i < n)%nat -> nonzero_vec d (row A i)) /\
    (forall i j, (i < n)%nat -> (j < n)%nat -> i <> j -> Pair (row A i) (row A j)) /\
    (forall i, (i < n)%nat -> nonzero_vec d (col B i))).
Proof.
  intros Hst A B [Hrows [Hpairs Hcols]].
  destruct (eps_min_nat
    (fun i e => forall A' B', close d n e A B A' B' -> nonzero_vec d (row A' i)) n)
    as [e1 [He1 H1]].
  { intros i e e' _ He' H0. exact (ball_mono d n A B _ e e' He' H0). }
  { intros i Hi. apply nonzero_row_stable; auto. }
  destruct (eps_min_nat
    (fun i e => forall A' B', close d n e A B A' B' -> nonzero_vec d (col B' i)) n)
    as [e2 [He2 H2]].
  { intros i e e' _ He' H0. exact (ball_mono d n A B _ e e' He' H0). }
  { intros i Hi. apply nonzero_col_stable; auto. }
  destruct (eps_min_nat
    (fun i e => forall j, (j < n)%nat -> i <> j -> forall A' B', close d n e A B A' B' ->
       Pair (row A' i) (row A' j)) n)
    as [e3 [He3 H3]].
  { intros i e e' _ He' H0 j Hj Hij. exact (ball_mono d n A B _ e e' He' (H0 j Hj Hij)). }
  { intros i Hi.
    destruct (eps_min_nat
      (fun j e => i <> j -> forall A' B', close d n e A B A' B' ->
         Pair (row A' i) (row A' j)) n)
      as [e [He H]].
    - intros j e e' _ He' H0 Hij. exact (ball_mono d n A B _ e e' He' (H0 Hij)).
    - intros j Hj. destruct (Nat.eq_dec i j) as [Eij|Hij].
      + exists 1. split; [lra | intros Hc; contradiction].
      + destruct (Hst A B i j Hi Hj (Hpairs i j Hi Hj Hij)) as [e [He H]].
        exists e. split; [exact He | intros _; exact H].
    - exists e. split; [exact He|]. intros j Hj Hij. exact (H j Hj Hij). }
  exists (Rmin e1 (Rmin e2 e3)).
  assert (Hm2 : 0 < Rmin e2 e3) by (apply Rmin_pos; assumption).
  split; [apply Rmin_pos; assumption|].
  pose proof (Rmin_l e1 (Rmin e2 e3)). pose proof (Rmin_r e1 (Rmin e2 e3)).
  pose proof (Rmin_l e2 e3). pose proof (Rmin_r e2 e3).
  intros A' B' Hc. split; [|split].
  - intros i Hi. apply (H1 i Hi A' B').
    apply (close_mono d n e1 (Rmin e1 (Rmin e2 e3))); [lra | exact Hc].
  - intros i j Hi Hj Hij. apply (H3 i Hi j Hj Hij A' B').
    apply (close_mono d n e3 (Rmin e1 (Rmin e2 e3))); [lra | exact Hc].
  - intros i Hi. apply (H2 i Hi A' B').
    apply (close_mono d n e2 (Rmin e1 (Rmin e2 e3))); [lra | exact Hc].
Qed.

Theorem generic_open d n : open_set d n (generic d n).
Proof. exact (rows_pairs_cols_open d n (lin_independent2 d) (indep_rows_stable d n)). Qed.

(** The complement of an open set is closed. *)
Lemma open_neg_closed d n (G : mat -> mat -> Prop) : open_set d n G ->
    closed_set d n (fun A B => ~ G A B).
Proof.
  intros HG. apply open_compl_closed. intros A B HnN.
  destruct (HG A B (NNPP _ HnN)) as [e [He H]].
  exists e. split; [exact He|]. intros A' B' Hc HN. exact (HN (H A' B' Hc)).
Qed.

Theorem nongeneric_closed d n : closed_set d n (nongeneric d n).
Proof. exact (open_neg_closed d n _ (generic_open d n)). Qed.

(** ** [Z] joined with the complement of an open set

    Closed, and with empty interior when that complement has one
    ([GenericDisjointness.bad], [PmDisjointness.pm_bad]). *)

Lemma Z_union_complement_open d n (G : mat -> mat -> Prop) :
  open_set d n G -> open_set d n (fun A B => ~ (in_Z d n A B \/ ~ G A B)).
Proof.
  intros HGo A B Hnb.
  assert (HnZ : ~ in_Z d n A B) by (intros H; apply Hnb; left; exact H).
  assert (HG : G A B) by (apply NNPP; intros H; apply Hnb; right; exact H).
  destruct (not_Z_open d n A B HnZ) as [e1 [He1 H1]].
  destruct (HGo A B HG) as [e2 [He2 H2]].
  exists (Rmin e1 e2). split; [apply Rmin_pos; assumption|].
  pose proof (Rmin_l e1 e2). pose proof (Rmin_r e1 e2).
  intros A' B' Hc [HZ|HN].
  - apply (H1 A' B'); [apply (close_mono d n e1 (Rmin e1 e2)); [lra | exact Hc] | exact HZ].
  - apply HN, (H2 A' B'). apply (close_mono d n e2 (Rmin e1 e2)); [lra | exact Hc].
Qed.

Lemma Z_union_closed d n (G : mat -> mat -> Prop) :
  open_set d n G -> closed_set d n (fun A B => in_Z d n A B \/ ~ G A B).
Proof. intros HG. apply open_compl_closed, Z_union_complement_open, HG. Qed.

Lemma Z_union_empty_interior d n (G : mat -> mat -> Prop) :
  (1 <= d)%nat -> open_set d n G -> empty_interior d n (fun A B => ~ G A B) ->
  empty_interior d n (fun A B => in_Z d n A B \/ ~ G A B).
Proof.
  intros Hd HGo HN0 A B e He.
  destruct (HN0 A B (e / 2) ltac:(lra))
    as [A1 [B1 [Hc1 HG1]]].
  assert (HG : G A1 B1) by (apply NNPP; exact HG1).
  destruct (HGo A1 B1 HG) as [e1 [He1 Hopen]].
  assert (Hm : 0 < Rmin e1 (e / 2)) by (apply Rmin_pos; lra).
  destruct (Z_empty_interior d n Hd A1 B1 (Rmin e1 (e / 2)) Hm) as [A2 [B2 [Hc2 HnZ]]].
  pose proof (Rmin_l e1 (e / 2)). pose proof (Rmin_r e1 (e / 2)).
  exists A2, B2. split.
  - apply (close_mono d n e (e / 2 + Rmin e1 (e / 2))); [lra|].
    exact (close_trans d n _ _ A B A1 B1 A2 B2 Hc1 Hc2).
  - intros [HZ|HN]; [exact (HnZ HZ)|].
    apply HN, (Hopen A2 B2). apply (close_mono d n e1 (Rmin e1 (e / 2))); [lra | exact Hc2].
Qed.

(** ** The non-generic set has empty interior (when [d >= 2] or [n <= 1]) *)

(** Perturb [a_i] by [s (1, i, 0, ..., 0)] and [b_i] by [s e_0]. *)
Definition dir_up (i k : nat) : R :=
  if Nat.eqb k 0 then 1 else if Nat.eqb k 1 then INR i else 0.

Definition dir_down (k : nat) : R := if Nat.eqb k 0 then 1 else 0.

Definition pert_up (A : mat) (s : R) : mat := fun i k => A i k + s * dir_up i k.
Definition pert_down (B : mat) (s : R) : mat := fun k i => B k i + s * dir_down k.

Lemma dir_up_bound n i k : (i < n)%nat -> Rabs (dir_up i k) <= INR n + 1.
Proof.
  intros Hi. pose proof (pos_INR n) as Hn.
  assert (Hin : INR i <= INR n) by (apply le_INR; lia).
  pose proof (pos_INR i).
  unfold dir_up. destruct (Nat.eqb k 0); [rewrite Rabs_R1; lra|].
  destruct (Nat.eqb k 1); [rewrite Rabs_right; lra | rewrite Rabs_R0; lra].
Qed.

Lemma dir_down_bound n k : Rabs (dir_down k) <= INR n + 1.
Proof.
  pose proof (pos_INR n). unfold dir_down.
  destruct (Nat.eqb k 0); [rewrite Rabs_R1 | rewrite Rabs_R0]; lra.
Qed.

(** Some perturbation [(A + s dir, pert_down B s)] with small [s > 0] off a finite
    list [l] leaves [T], when no such [s] off [l] lands in [T]. *)
Lemma pert_escape d n (dir : nat -> nat -> R) (T : mat -> mat -> Prop) A B e (l : list R) :
  0 < e -> (forall i k, (i < n)%nat -> Rabs (dir i k) <= INR n + 1) ->
  (forall s, ~ In s l -> ~ T (fun i k => A i k + s * dir i k) (pert_down B s)) ->
  exists A' B', close d n e A B A' B' /\ ~ T A' B'.
Proof.
  intros He Hdir HT. pose proof (pos_INR n) as Hn.
  destruct (avoid_list l 0 (e / (INR n + 1))) as [s [Hs Hnl]]; [apply Rdiv_lt_0_compat; lra|].
  assert (Hse : s * (INR n + 1) < e).
  { apply Rlt_le_trans with (e / (INR n + 1) * (INR n + 1)); [apply Rmult_lt_compat_r; lra|].
    right. field. lra. }
  exists (fun i k => A i k + s * dir i k), (pert_down B s). split; [|exact (HT s Hnl)].
  intros i k Hi Hk. unfold pert_down.
  replace (A i k + s * dir i k - A i k) with (s * dir i k) by ring.
  replace (B k i + s * dir_down k - B k i) with (s * dir_down k) by ring.
  rewrite !Rabs_mult, (Rabs_right s) by lra.
  pose proof (Hdir i k Hi). pose proof (dir_down_bound n k).
  split; (eapply Rle_lt_trans; [apply Rmult_le_compat_l; [lra | eassumption] | exact Hse]).
Qed.

(** The minor of rows [i], [j] on coordinates [0], [1] as a polynomial in [s]. *)
Definition pair_poly (A : mat) (i j : nat) (s : R) : R :=
  (A i 0%nat * A j 1%nat - A i 1%nat * A j 0%nat) +
  (A i 0%nat * INR j + A j 1%nat - A i 1%nat - INR i * A j 0%nat) * s +
  (INR j - INR i) * s * s.

Lemma pair_poly_minor A i j s :
  minor2 (row (pert_up A s) i) (row (pert_up A s) j) 0 1 = pair_poly A i j s.
Proof. unfold minor2, row, pert_up, dir_up, pair_poly. simpl. ring. Qed.

Lemma pert_bad_finite n (A B : mat) :
  exists l : list R, forall s,
    (exists i, (i < n)%nat /\ A i 0%nat + s = 0) \/
    (exists i, (i < n)%nat /\ B 0%nat i + s = 0) \/
    (exists i j, (i < n)%nat /\ (j < n)%nat /\ i <> j /\ pair_poly A i j s = 0) -> In s l.
Proof.
  destruct (finite_bad_nat (fun i s => A i 0%nat + s = 0) n) as [l1 H1].
  { intros i _. exists [- A i 0%nat]. intros s Hs. left. lra. }
  destruct (finite_bad_nat (fun i s => B 0%nat i + s = 0) n) as [l2 H2].
  { intros i _. exists [- B 0%nat i]. intros s Hs. left. lra. }
  destruct (finite_bad_nat
    (fun i s => exists j, (j < n)%nat /\ i <> j /\ pair_poly A i j s = 0) n) as [l3 H3].
  { intros i _.
    destruct (finite_bad_nat (fun j s => i <> j /\ pair_poly A i j s = 0) n) as [l H].
    - intros j _. destruct (Nat.eq_dec i j) as [Eij|Hij].
      + exists []. intros s [Hne _]. contradiction.
      + destruct (quadratic_roots
          (A i 0%nat * A j 1%nat - A i 1%nat * A j 0%nat)
          (A i 0%nat * INR j + A j 1%nat - A i 1%nat - INR i * A j 0%nat)
          (INR j - INR i)) as [l Hl].
        * intros E. apply Hij. apply INR_eq. lra.
        * exists l. intros s [_ Hs]. apply Hl. exact Hs.
    - exists l. intros s [j [Hj [Hij Hs]]]. apply (H j s Hj). auto. }
  exists (l1 ++ l2 ++ l3). intros s [[i [Hi Hs]]|[[i [Hi Hs]]|[i [j [Hi [Hj [Hij Hs]]]]]]];
    apply in_or_app; [left; apply (H1 i); auto | right; apply in_or_app; left; apply (H2 i); auto |
                      right; apply in_or_app; right; apply (H3 i); [exact Hi | exists j; auto]].
Qed.

Theorem nongeneric_empty_interior d n :
  (1 <= d)%nat -> (2 <= d \/ n <= 1)%nat -> empty_interior d n (nongeneric d n).
Proof.
  intros Hd Hdn A B e He.
  destruct (pert_bad_finite n A B) as [l Hl].
  apply (pert_escape d n dir_up _ A B e l He (dir_up_bound n)). intros s Hnl HN.
  fold (pert_up A s) in HN. apply HN. split; [|split].
  - intros i Hi. exists 0%nat. split; [lia|]. unfold row, pert_up, dir_up. simpl.
    intros E. apply Hnl, Hl. left. exists i. split; [exact Hi | lra].
  - intros i j Hi Hj Hij. apply (indep_of_minor d _ _ 0 1); [lia | lia |].
    rewrite pair_poly_minor. intros E. apply Hnl, Hl. right; right.
    exists i, j. auto.
  - intros i Hi. exists 0%nat. split; [lia|]. unfold col, pert_down, dir_down. simpl.
    intros E. apply Hnl, Hl. right; left. exists i. split; [exact Hi | lra].
Qed.

(** For [d = 1] and [n >= 2] every block is non-generic: two nonzero reals
    are always linearly dependent. *)
Lemma nongeneric_d1 n A B : (2 <= n)%nat -> nongeneric 1 n A B.
Proof.
  intros Hn [Hrows [Hpairs _]].
  destruct (Hrows 1%nat ltac:(lia)) as [k [Hk H1]]. assert (k = 0%nat) by lia. subst k.
  destruct (Hpairs 0%nat 1%nat ltac:(lia) ltac:(lia) ltac:(lia) (A 1%nat 0%nat) (- A 0%nat 0%nat))
    as [Ha _].
  - intros k Hk0. assert (k = 0%nat) by lia. subst k. unfold row. ring.
  - exact (H1 Ha).
Qed.

(** ** Scalings of a generic [B] *)

Theorem nongeneric_scalar_finite d n A B :
  generic d n A B -> forall t, nongeneric d n A (fun k i => t * B k i) -> t = 0.
Proof.
  intros [Hrows [Hpairs Hcols]] t HN. apply NNPP. intros Ht. apply HN.
  split; [exact Hrows | split; [exact Hpairs|]].
  intros i Hi. destruct (Hcols i Hi) as [k [Hk Hne]]. exists k. split; [exact Hk|].
  unfold col in *. intros E. destruct (Rmult_integral _ _ E); contradiction.
Qed.

(** ** Non-vacuity: the sets above are neither empty nor everything *)

Example in_Z_example : in_Z 1 1 (fun _ _ => 1) (fun _ _ => -1).
Proof.
  exists (fun _ => true). intros k l Hk Hl. assert (k = 0%nat) by lia. assert (l = 0%nat) by lia.
  subst. unfold subset_sum, identity. simpl. ring.
Qed.

Example nongeneric_example : nongeneric 1 1 (fun _ _ => 0) (fun _ _ => 0).
Proof.
  intros [Hrows _]. destruct (Hrows 0%nat ltac:(lia)) as [k [_ Hk]]. apply Hk. reflexivity.
Qed.

Example generic_example : generic 1 1 (fun _ _ => 1) (fun _ _ => 1).
Proof.
  split; [|split].
  - intros i _. exists 0%nat. split; [lia | unfold row; lra].
  - intros i j Hi Hj Hij. lia.
  - intros i _. exists 0%nat. split; [lia | unfold col; lra].
Qed.
