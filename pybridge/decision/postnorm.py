"""Post-LayerNorm blocks decided through the singular skip ``C P`` (R11', ``PostNormGeneric``).

With ``C = I - 11^T/d`` and every ``gamma_i != 0``, ``eps > 0``, the post-LN block
``LN(P x + B sigma(A x))`` is absorbable at width ``n`` iff the bare block with skip ``C P``
and down-projection ``C B`` is (``PostNorm.postln_ungated_iff``). For that bare problem R5's
subset search applies unchanged (:func:`pybridge.decision.subset_search.search_subset` on
``(A, C B)`` with target ``C P``), over the integers after scaling by ``d``:

- some ``S`` with ``C (P + B[:,S] A[S,:]) = 0``: **absorbable**, for every activation with
  ``sigma(z) - sigma(-z) = z`` and every ``eps``, ``gamma`` (zeros allowed) and ``beta``
  (``odd_skip_absorbable`` + ``postln_ungated_sufficient``);
- no such ``S``, ReLU, ``(A, C B)`` generic (rows of ``A`` nonzero and pairwise independent,
  no column of ``B`` a multiple of ``1``), every ``gamma_i != 0``, ``eps > 0``: **not
  absorbable** (``postln_relu_generic``, i.e. ``relu_skip_absorbable_iff`` for a singular skip);
- anything else stays ``undecided`` with the precise reason (:data:`REASONS`).

Biases: the library proves R9 (the bias case) for the identity skip only, so a biased
post-LN block is not decided here; :data:`BIAS_HOOK` names what a future bias route
(``postln_ungated_bias_iff`` with a singular-skip R9) would plug into.
The integer data are exactly those the Coq certificate states (:func:`centered_problem`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Optional

import numpy as np

from pybridge.decision.genericity import check_generic
from pybridge.decision.subset_search import search_subset
from pybridge.exact.evidence import GenericCertificate, NoSubsetCertificate
from pybridge.exact.modular import IntMatrix, scale_matrix
from pybridge.model import Instance, Norm

ABSORBABLE_THEOREM = "Absorb.certify.CertifyPostNorm.cert_postln_absorbable"
NOT_ABSORBABLE_THEOREM = "Absorb.results.PostNormGeneric.postln_relu_generic"

#: why a post-LN block whose bare block is not absorbable stays undecided
REASONS = {
    "gated": "post-LayerNorm with a gated activation: R3's post-LN form with a singular skip is not in the library",
    "bias": ("post-LayerNorm with biases: R9 (biases) is proved for the identity skip only, not for the "
             "singular skip C·P this block reduces to (postln_ungated_bias_iff)"),
    "activation": ("post-LayerNorm: {act} has no R5 with a singular skip in the library (ReLU only: "
                   "relu_skip_absorbable_iff); no S with C(P + B_S A_S) = 0 was found"),
    "odd": "post-LayerNorm: {act} does not satisfy sigma(z) - sigma(-z) = z, so no subset S decides it",
    "zero_gamma": ("post-LayerNorm, gamma has a zero entry: no S with C(P + B_S A_S) = 0, and the converse "
                   "(postln_relu_generic) needs every gamma_i != 0"),
    "eps": "post-LayerNorm without an exact eps > 0: postln_relu_generic needs eps > 0",
    "generic": ("post-LayerNorm: no S with C(P + B_S A_S) = 0, but (A, C B) is not generic ({why}); "
                "postln_relu_generic needs genericity"),
    "search": "post-LayerNorm: the subset search for C(P + B_S A_S) = 0 was inconclusive ({why})",
}
#: where a biased post-LN route would plug in (``decide_postln`` returns ``undecided`` today)
BIAS_HOOK = "bias"


@dataclass(frozen=True)
class CenteredProblem:
    """The bare problem a post-LN block reduces to, as the certificate states it: ``A``
    (``W_up`` over ``dA``), ``CB`` (numerators ``d B - 1 (column sums)`` over ``d dB``) and the
    target ``CP`` (``d P - 1 (column sums)`` over ``d dP``; identity skip: ``d I - 11^T`` over ``d``)."""

    A: IntMatrix
    CB: IntMatrix
    CP: IntMatrix


@dataclass(frozen=True)
class PostLNDecision:
    """A post-LN verdict from the centered problem. ``subset``: the ``S`` found (absorbable);
    ``nosub`` and ``generic``: the certificates of a not-absorbable verdict."""

    verdict: Literal["absorbable", "not_absorbable", "undecided"]
    reason: str
    problem: Optional[CenteredProblem] = None
    subset: Optional[tuple[int, ...]] = None
    nosub: Optional[NoSubsetCertificate] = None
    generic: Optional[GenericCertificate] = None
    hook: str = ""


def _center_columns(num: np.ndarray, d: int) -> np.ndarray:
    """``d * num - 1 (column sums of num)``, exactly (``object`` when ``int64`` could overflow)."""
    big = num.dtype.kind == "O" or (num.size and max(-int(num.min()), int(num.max())) >= 2**62 // (2 * max(d, 1)))
    work = num.astype(object) if big else num.astype(np.int64)
    return work * d - work.sum(axis=0, keepdims=True)


def centered_problem(inst: Instance) -> CenteredProblem:
    """The exact integer data of ``(A, C B)`` and ``C P`` (see :class:`CenteredProblem`)."""
    d = inst.d
    A = scale_matrix(inst.W_up)
    B = scale_matrix(inst.W_down)
    if inst.skip is None:
        P_num, P_den = np.eye(d, dtype=np.int64), 1
    else:
        P = scale_matrix(inst.skip)
        P_num, P_den = P.numerators(), P.den
    CB = IntMatrix.from_numerators(_center_columns(B.numerators(), d), d * B.den)
    CP = IntMatrix.from_numerators(_center_columns(P_num, d), d * P_den)
    return CenteredProblem(A, CB, CP)


def decide_postln(inst: Instance, norm: Norm) -> PostLNDecision:
    """The post-LayerNorm verdict of ``inst`` at width ``n`` through ``C P`` (module docstring)."""
    act = inst.activation
    if act.gated:
        return PostLNDecision("undecided", REASONS["gated"])
    if inst.has_bias:
        return PostLNDecision("undecided", REASONS["bias"], hook=BIAS_HOOK)
    if not act.odd_part_identity:
        return PostLNDecision("undecided", REASONS["odd"].format(act=act.label))
    prob = centered_problem(inst)
    out = search_subset(prob.A, prob.CB, prob.CP)
    if out.status == "found" and out.subset is not None:
        return PostLNDecision("absorbable",
                              f"post-LayerNorm: S = {list(out.subset)} gives C(P + B_S A_S) = 0, so the block "
                              f"with skip C·P and down-projection C·B is absorbable (R5 <=, {act.label}) and the "
                              "post-LN sublayer is, for every eps, gamma and beta (R11', postln_ungated_sufficient)",
                              prob, subset=out.subset)
    if out.status != "none":
        return PostLNDecision("undecided", REASONS["search"].format(why=out.reason), prob)
    if act.name != "relu":
        return PostLNDecision("undecided", REASONS["activation"].format(act=act.label), prob)
    if norm.eps is None or norm.eps <= 0:
        return PostLNDecision("undecided", REASONS["eps"], prob)
    if norm.gamma is None or any(g == 0 for g in norm.gamma):
        return PostLNDecision("undecided", REASONS["zero_gamma"], prob)
    gen = check_generic(prob.A, prob.CB)
    if not gen.generic:
        why = gen.reason.replace("W_down", "C·W_down")
        return PostLNDecision("undecided", REASONS["generic"].format(why=why), prob)
    return PostLNDecision("not_absorbable",
                          f"post-LayerNorm, every gamma_i != 0: (A, C B) generic and no S with "
                          f"C(P + B_S A_S) = 0 ({out.reason}): not absorbable at width n (R11', "
                          "postln_relu_generic)", prob, nosub=out.certificate, generic=gen.certificate)
