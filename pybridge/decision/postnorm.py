"""Post-LayerNorm blocks decided through the singular skip ``C P`` (R11', ``PostNormGeneric``).

With ``C = I - 11^T/d`` and every ``gamma_i != 0``, ``eps > 0``, the post-LN block
``LN(P x + B sigma(A x))`` is absorbable at width ``n`` iff the bare block with skip ``C P``
and down-projection ``C B`` is (``PostNorm.postln_ungated_iff``). For that bare problem R5's
subset search applies unchanged (:func:`pybridge.decision.subset_search.search_subset` on
``(A, C B)`` with target ``C P``), over the integers after scaling by ``d``:

- some ``S`` with ``C (P + B[:,S] A[S,:]) = 0``: **absorbable**, for every activation with
  ``sigma(z) - sigma(-z) = z`` and every ``eps``, ``gamma`` (zeros allowed) and ``beta``
  (``odd_skip_absorbable`` + ``postln_ungated_sufficient``);
- no such ``S``, ReLU or the GELU family (GELU, GELU_tanh, SiLU, quick_gelu, gelu_fast), every
  ``gamma_i != 0``, ``eps > 0`` and ``(A, C B)`` generic (bias-free: rows of ``A`` nonzero and
  pairwise independent, no column of ``C B`` zero; with biases: the same for the augmented rows
  ``(a_i, c_i)``, every ``a_i != 0``): **not absorbable** (bias-free: ``postln_relu_generic``,
  ``even_postln_generic_pm``; biases: ``postln_relu_bias_generic``, ``even_postln_bias_generic``,
  i.e. R9 for the singular skip ``C P`` with down-projection ``C B`` and output bias ``C b0``);
- anything else stays ``undecided`` with the precise reason (:data:`REASONS`).

With biases the subset condition is the same (it reads the linear parts only) and an ``S``
gives absorbable for every ``c``, ``b0`` (``odd_skip_absorbable_bias``,
``postln_ungated_bias_sufficient``). The integer data are exactly those the Coq certificate
states (:func:`centered_problem`; with biases ``A`` is the first ``d`` columns of the augmented
rows over their common denominator, :func:`augmented_rows`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Literal, Optional

import numpy as np

from pybridge.decision.genericity import check_generic
from pybridge.decision.subset_search import search_subset
from pybridge.exact.evidence import GenericCertificate, NoSubsetCertificate
from pybridge.exact.modular import IntMatrix, scale_matrix
from pybridge.model import Instance, Norm

ABSORBABLE_THEOREM = "Absorb.certify.CertifyPostNorm.cert_postln_absorbable"
NOT_ABSORBABLE_THEOREM = "Absorb.results.PostNormGeneric.postln_relu_generic"
#: (bias-free, with biases) theorems of a not-absorbable verdict, by activation family
NOT_ABSORBABLE_THEOREMS = {
    "relu": (NOT_ABSORBABLE_THEOREM, "Absorb.bias.ReluBiasSkip.postln_relu_bias_generic"),
    "even": ("Absorb.bias.EvenBiasSkip.even_postln_generic_pm", "Absorb.bias.EvenBiasSkip.even_postln_bias_generic"),
}
ABSORBABLE_BIAS_THEOREM = "Absorb.certify.CertifyPostNormBias.cert_postln_bias_absorbable"
#: activations with R5/R9 for a singular skip (``ReluBiasSkip``; ``EvenSkipInstances.gelu_family_skip_hyps``)
SKIP_FAMILY = ("relu", "gelu", "gelu_tanh", "silu", "quick_gelu", "gelu_fast")

#: why a post-LN block whose bare block is not absorbable stays undecided
REASONS = {
    "gated": "post-LayerNorm with a gated activation: R3's post-LN form with a singular skip is not in the library",
    "bias": "post-LayerNorm with biases: {why}",
    "activation": ("post-LayerNorm: {act} has no R5/R9 with a singular skip in the library (ReLU and the "
                   "GELU family only); no S with C(P + B_S A_S) = 0 was found"),
    "odd": "post-LayerNorm: {act} does not satisfy sigma(z) - sigma(-z) = z, so no subset S decides it",
    "zero_gamma": ("post-LayerNorm, gamma has a zero entry: no S with C(P + B_S A_S) = 0, and the converse "
                   "(R11', generic weights) needs every gamma_i != 0"),
    "eps": "post-LayerNorm without an exact eps > 0: the converse (R11', generic weights) needs eps > 0",
    "generic": ("post-LayerNorm: no S with C(P + B_S A_S) = 0, but (A, C B) is not generic ({why}); "
                "the converse (R11', generic weights) needs genericity"),
    "search": "post-LayerNorm: the subset search for C(P + B_S A_S) = 0 was inconclusive ({why})",
}
#: the hook of biased post-LN verdicts (``PostLNDecision.hook``: routed through R9 for C·P)
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
    #: the theorem the verdict rests on
    theorem: str = ""


def _center_columns(num: np.ndarray, d: int) -> np.ndarray:
    """``d * num - 1 (column sums of num)``, exactly (``object`` when ``int64`` could overflow)."""
    big = num.dtype.kind == "O" or (num.size and max(-int(num.min()), int(num.max())) >= 2**62 // (2 * max(d, 1)))
    work = num.astype(object) if big else num.astype(np.int64)
    return work * d - work.sum(axis=0, keepdims=True)


def augmented_rows(inst: Instance) -> IntMatrix:
    """The augmented rows ``(a_i, c_i)`` (``c = b_up``, zeros when absent) over their least
    common denominator, exactly (``object`` numerators when ``int64`` could overflow)."""
    A = scale_matrix(inst.W_up)
    c = scale_matrix([list(inst.b_up or (Fraction(0),) * inst.n)])
    den = lcm(A.den, c.den)
    fa, fc = den // A.den, den // c.den
    an, cn = A.numerators(), c.numerators()[0]
    big = an.dtype.kind == "O" or cn.dtype.kind == "O" or max(A.max_abs() * fa, c.max_abs() * fc) >= 2**62
    an, cn = (an.astype(object), cn.astype(object)) if big else (an.astype(np.int64), cn.astype(np.int64))
    return IntMatrix.from_numerators(np.concatenate([an * fa, (cn * fc)[:, None]], axis=1), den)


def _first_columns(M: IntMatrix, k: int) -> IntMatrix:
    return IntMatrix.from_numerators(np.ascontiguousarray(M.numerators()[:, :k]), M.den)


def centered_problem(inst: Instance) -> CenteredProblem:
    """The exact integer data of ``(A, C B)`` and ``C P`` (see :class:`CenteredProblem`)."""
    d = inst.d
    A = scale_matrix(inst.W_up) if not inst.has_bias else _first_columns(augmented_rows(inst), d)
    B = scale_matrix(inst.W_down)
    if inst.skip is None:
        P_num, P_den = np.eye(d, dtype=np.int64), 1
    else:
        P = scale_matrix(inst.skip)
        P_num, P_den = P.numerators(), P.den
    CB = IntMatrix.from_numerators(_center_columns(B.numerators(), d), d * B.den)
    CP = IntMatrix.from_numerators(_center_columns(P_num, d), d * P_den)
    return CenteredProblem(A, CB, CP)


def _family(act_name: str) -> str:
    return "relu" if act_name == "relu" else "even"


def decide_postln(inst: Instance, norm: Norm) -> PostLNDecision:
    """The post-LayerNorm verdict of ``inst`` at width ``n`` through ``C P`` (module docstring)."""
    act = inst.activation
    if act.gated:
        return PostLNDecision("undecided", REASONS["gated"])
    bias = inst.has_bias
    hook = BIAS_HOOK if bias else ""
    if bias and inst.b_gate is not None and any(v != 0 for v in inst.b_gate):
        return PostLNDecision("undecided", REASONS["bias"].format(why="a gate bias on an ungated block"), hook=hook)
    if not act.odd_part_identity:
        return PostLNDecision("undecided", REASONS["odd"].format(act=act.label), hook=hook)
    prob = centered_problem(inst)
    out = search_subset(prob.A, prob.CB, prob.CP)
    if out.status == "found" and out.subset is not None:
        theorem = ABSORBABLE_BIAS_THEOREM if bias else ABSORBABLE_THEOREM
        what = "with biases b_up, b_down (any), " if bias else ""
        return PostLNDecision("absorbable",
                              f"post-LayerNorm: S = {list(out.subset)} gives C(P + B_S A_S) = 0, so the block "
                              f"{what}with skip C·P and down-projection C·B is absorbable (R5/R9 <=, {act.label}) "
                              "and the post-LN sublayer is, for every eps, gamma and beta (R11', "
                              "postln_ungated_sufficient)", prob, subset=out.subset, hook=hook, theorem=theorem)
    if out.status != "none":
        return PostLNDecision("undecided", REASONS["search"].format(why=out.reason), prob, hook=hook)
    if act.name not in SKIP_FAMILY:
        return PostLNDecision("undecided", REASONS["activation"].format(act=act.label), prob, hook=hook)
    if norm.eps is None or norm.eps <= 0:
        return PostLNDecision("undecided", REASONS["eps"], prob, hook=hook)
    if norm.gamma is None or any(g == 0 for g in norm.gamma):
        return PostLNDecision("undecided", REASONS["zero_gamma"], prob, hook=hook)
    if bias:
        zero = np.flatnonzero(~(prob.A.numerators() != 0).any(axis=1))
        if zero.size:
            return PostLNDecision("undecided", REASONS["generic"].format(
                why=f"row {int(zero[0])} of W_up is zero (a constant)"), prob, hook=hook)
        gen = check_generic(augmented_rows(inst), prob.CB)
        why = gen.reason.replace("W_down", "C·W_down").replace("of W_up", "of (W_up, b_up)")
    else:
        gen = check_generic(prob.A, prob.CB)
        why = gen.reason.replace("W_down", "C·W_down")
    if not gen.generic:
        return PostLNDecision("undecided", REASONS["generic"].format(why=why), prob, hook=hook)
    theorem = NOT_ABSORBABLE_THEOREMS[_family(act.name)][1 if bias else 0]
    name = theorem.rsplit(".", 1)[-1]
    what = "(A, c, C B) generic with biases" if bias else "(A, C B) generic"
    return PostLNDecision("not_absorbable",
                          f"post-LayerNorm, every gamma_i != 0: {what} and no S with "
                          f"C(P + B_S A_S) = 0 ({out.reason}): not absorbable at width n (R11', {name}, "
                          f"{act.label})", prob, nosub=out.certificate, generic=gen.certificate, hook=hook,
                          theorem=theorem)
