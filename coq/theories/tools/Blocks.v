(** * Basic algebra of the block definitions

    Re-exports the definitions of [spec/BlockDefs.v] (vectors, matrices,
    blocks, absorbability, genericity, activation properties) and of
    [tools/Sums.v], and proves the few identities every result uses:
    scaling and negation inside [dot], [I x = x], [M (t x) = t (M x)] and
    [M (N x) = (M N) x]. *)

From Coq Require Import Reals Lra Lia.
From Absorb Require Export Sums BlockDefs.
Open Scope R_scope.

(** ** Basic algebra of the definitions *)

Lemma dot_scal_r d u t x : dot d u (vscale t x) = t * dot d u x.
Proof.
  unfold dot, vscale. rewrite <- sumn_scal_l. apply sumn_ext. intros; ring.
Qed.

Lemma dot_opp_r d u x : dot d u (fun k => - x k) = - dot d u x.
Proof.
  unfold dot. rewrite <- sumn_opp. apply sumn_ext. intros; ring.
Qed.

Lemma mv_identity d x : vec_eq d (mv d identity x) x.
Proof.
  intros i Hi. unfold mv, dot, row, identity.
  rewrite (sumn_ext d _ (fun j => if Nat.eq_dec i j then x j else 0)).
  - apply sumn_delta; exact Hi.
  - intros j _. destruct (Nat.eq_dec i j); ring.
Qed.


Lemma mv_vscale d P t x i : mv d P (vscale t x) i = t * mv d P x i.
Proof. unfold mv. apply dot_scal_r. Qed.

(** [M (N x) = (M N) x]. *)
Lemma mv_mm c d M N x i : mv c M (mv d N x) i = mv d (mm c M N) x i.
Proof.
  unfold mv, mm, dot, row.
  rewrite (sumn_ext c _ (fun k => sumn d (fun l => M i k * N k l * x l))).
  - rewrite sumn_swap. apply sumn_ext. intros l _. rewrite <- sumn_scal_r.
    apply sumn_ext. intros; ring.
  - intros k _. rewrite <- sumn_scal_l. apply sumn_ext. intros; ring.
Qed.
