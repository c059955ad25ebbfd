(** * Continuous maps of R^d (definition only; R11 for continuous maps)

    [continuous_vec d f]: [f : vec -> vec] read as a map of [R^d] (the
    first [d] coordinates of input and output) is continuous, in the
    epsilon-delta form with the sup distance on the first [d] input
    coordinates.  Its consequence for R11, boundedness on bounded sets, is
    [analysis/ContinuousBounded.v]. *)

From Coq Require Import Reals.
From Absorb Require Import BlockDefs.
Open Scope R_scope.

(** For every [x], every output coordinate [i < d] and every [eps > 0]
    there is [delta > 0] such that every [y] with [|y_k - x_k| < delta] for
    all [k < d] has [|f(y)_i - f(x)_i| < eps].  The condition on [y] says
    nothing about the coordinates [k >= d], so the first [d] outputs of [f]
    depend only on the first [d] inputs ([y] equal to [x] below [d] is
    within every [delta] of it): [f] is a continuous map of [R^d] extended
    to [vec] in any way.  That is what boundedness on the sets
    [{x : sum_{k<d} |x_k| <= K}] ([bounded_on_bounded], [spec/Norms.v])
    needs: those sets leave the coordinates [k >= d] free. *)
Definition continuous_vec (d : nat) (f : vec -> vec) : Prop :=
  forall (x : vec) (i : nat) (eps : R), (i < d)%nat -> 0 < eps ->
    exists delta, 0 < delta /\
      forall y : vec, (forall k, (k < d)%nat -> Rabs (y k - x k) < delta) ->
        Rabs (f y i - f x i) < eps.
