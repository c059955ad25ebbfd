"""A singular skip ``P`` decided without R1 (R5/R9 with any linear part).

R1 reduces ``P x + f(x)`` to the identity skip only when ``P`` is invertible. :func:`decide`
keeps that route unchanged for the identity and every invertible skip (the verdicts are
those of :func:`pybridge.decision.classify.decide`) and decides a singular ``P`` here, with
the library's theorems for any linear part (``PostNormGeneric.relu_skip_absorbable_iff``,
``EvenBiasSkip.even_skip_absorbable_iff``, ``ReluBiasSkip.relu_bias_skip_absorbable_iff``,
``EvenBiasSkip.even_bias_skip_absorbable_iff``; ``Paper.R9_relu_any_skip``,
``R9_gelu_family_any_skip``):

- ``P = 0``: ``0 x + f(x)`` is ``f``, residual-free already: **absorbable** at width ``n``
  for every activation (or gate), every weight and bias (``CertifyAnySkip.cert_zero_skip_*``);
- a gated activation or ``relu^k`` (``k != 1``), ``P != 0``: R3 / R2 hold for every nonzero
  skip, singular included (the classification's verdict, unchanged);
- ReLU and the GELU family at width ``n``: the subset search for ``P + B[:,S] A[S,:] = 0``
  (:func:`~pybridge.decision.subset_search.search_subset` with target ``P``). An ``S``:
  **absorbable** (rows ``S`` of ``W_up`` negated; with biases for every ``b_up``, ``b_down``
  adjusted). No ``S`` and the weights generic (bias-free: rows of ``W_up`` nonzero and
  pairwise independent, columns of ``W_down`` nonzero; with biases the same for the augmented
  rows ``(a_i, c_i)`` and every ``a_i != 0``): **not absorbable**. Not generic:
  ``outside_hypotheses``;
- any other width, the least width, or an activation without these theorems: ``undecided``
  with the reason (:data:`REASONS`).

With biases the integer ``W_up`` is the first ``d`` columns of the augmented rows over their
common denominator (:func:`pybridge.decision.postnorm.augmented_rows`), the data the
certificate (:mod:`pybridge.certify.any_skip`) states, so the no-subset certificate of the
search is the one Coq checks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Optional

import numpy as np

from pybridge.decision.classify import decide as decide_by_r1
from pybridge.decision.classify import flip_witness
from pybridge.decision.genericity import check_generic
from pybridge.decision.identity import weights_digest
from pybridge.decision.postnorm import SKIP_FAMILY, augmented_rows
from pybridge.decision.subset_search import search_subset
from pybridge.errors import InputError
from pybridge.exact.evidence import Evidence
from pybridge.exact.modular import IntMatrix, scale_matrix
from pybridge.io.linalg import is_invertible
from pybridge.model import Decision, Instance

METHOD = "subset search for P + B_S A_S = 0 mod p, exact verification (singular skip, no R1)"
_CERT = "Absorb.certify.CertifyAnySkip."
#: the zero skip's theorems: (ungated, ungated with biases, gated, gated with biases)
ZERO_THEOREMS = (_CERT + "cert_zero_skip_absorbable", _CERT + "cert_zero_skip_absorbable_bias",
                 _CERT + "cert_zero_skip_absorbable_gated", _CERT + "cert_zero_skip_absorbable_gated_bias")
ABSORBABLE_THEOREMS = ("Absorb.results.PostNormGeneric.odd_skip_absorbable",
                       "Absorb.bias.ReluBiasSkip.odd_skip_absorbable_bias")
#: (bias-free, with biases) theorems of a not-absorbable verdict, by family
NOT_ABSORBABLE_THEOREMS = {
    "relu": ("Absorb.results.PostNormGeneric.relu_skip_absorbable_iff",
             "Absorb.bias.ReluBiasSkip.relu_bias_skip_absorbable_iff"),
    "even": ("Absorb.bias.EvenBiasSkip.even_skip_absorbable_iff",
             "Absorb.bias.EvenBiasSkip.even_bias_skip_absorbable_iff"),
}

REASONS = {
    "width": ("singular skip at width {m} != n = {n}: the library decides it (R8_relu_any_skip, "
              "R8p_any_skip, R9_decided_any_skip) but pybridge has no certificate route for a singular "
              "skip's width condition yet (only width n)"),
    "min_width": ("singular skip: the least absorbing width needs R8/R9's width condition for a singular "
                  "skip, which pybridge does not compute yet (only width n)"),
    "zero_width": ("zero skip (P = 0): the block is residual-free at its own width n; other widths need "
                   "R8/R9 for a singular skip, which pybridge does not compute yet"),
    "activation": ("singular skip: {act} has no R5/R9 with a singular skip in the library (ReLU and the "
                   "GELU family only)"),
    "gate_bias": "singular skip: a gate bias on an ungated block",
}


def singular_skip(inst: Instance) -> bool:
    """The instance has a ``d x d`` skip ``P`` that is not invertible (exact). A skip of another
    shape is not one (:func:`pybridge.decision.classify.decide` refuses it)."""
    P, d = inst.skip, inst.d
    if P is None or len(P) != d or any(len(row) != d for row in P):
        return False
    return not is_invertible(P)


def zero_skip(inst: Instance) -> bool:
    """The instance's skip is the zero matrix."""
    return inst.skip is not None and all(v == 0 for row in inst.skip for v in row)


def decide(inst: Instance, width: Optional[int] = None, min_width: bool = False) -> Decision:
    """:func:`pybridge.decision.classify.decide` for the identity and invertible skips; a
    singular skip decided here (module docstring). The decision carries the digest of ``inst``."""
    if not isinstance(inst, Instance):
        raise TypeError(f"decide expects an Instance, not {type(inst).__name__}")
    if not singular_skip(inst):
        return decide_by_r1(inst, width=width, min_width=min_width)
    if width is not None and (isinstance(width, bool) or not isinstance(width, int) or width < 0):
        raise InputError(f"width must be a non-negative integer, got {width!r:.40}")
    m = inst.n if width is None else width
    return replace(_decide_singular(inst, m, width, min_width), weights_sha256=weights_digest(inst))


def _decide_singular(inst: Instance, m: int, width: Optional[int], min_width: bool) -> Decision:
    act = inst.activation
    at: dict[str, Any] = {} if width is None else {"width": m}
    if zero_skip(inst):
        if m != inst.n or min_width:
            return Decision("undecided", None, None, REASONS["zero_width"], method="classification", **at)
        theorem = ZERO_THEOREMS[2 * act.gated + inst.has_bias]
        return Decision("absorbable", "R5", theorem,
                        "zero skip (P = 0): the block x -> B sigma(A x) (+ biases) is residual-free already, "
                        "absorbable at width n by itself (every activation and weight)",
                        method="classification", **at)
    hom = act.homogeneous_degree
    if act.gated or (hom is not None and hom != 1) or not act.odd_part_identity or not act.certifiable:
        # R2 / R3 (any nonzero skip) or no support: the classification ignores the weights and
        # the skip beyond P != 0, so it is asked about the same block with the identity skip.
        fixed = decide_by_r1(replace(inst, skip=None), width=width, min_width=min_width)
        if fixed.method != "classification":
            return Decision("undecided", None, None, REASONS["activation"].format(act=act.label), **at)
        note = "; the skip P is singular and nonzero, which R2/R3 allow" if fixed.verdict == "not_absorbable" else ""
        return replace(fixed, reason=fixed.reason + note, evidence=None)
    if min_width:
        return Decision("undecided", None, None, REASONS["min_width"], **at)
    if m != inst.n:
        return Decision("undecided", None, None, REASONS["width"].format(m=m, n=inst.n), **at)
    if act.name not in SKIP_FAMILY:
        return Decision("undecided", None, None, REASONS["activation"].format(act=act.label))
    return _decide_width_n(inst)


def _first_columns(M: IntMatrix, k: int) -> IntMatrix:
    return IntMatrix.from_numerators(np.ascontiguousarray(M.numerators()[:, :k]), M.den)


def _decide_width_n(inst: Instance) -> Decision:
    """ReLU / the GELU family at width ``n``: the subset search with target ``P``, genericity."""
    act = inst.activation
    bias = inst.has_bias
    if bias and inst.b_gate is not None and any(v != 0 for v in inst.b_gate):
        return Decision("undecided", None, None, REASONS["gate_bias"])
    aug = augmented_rows(inst) if bias else None
    A = scale_matrix(inst.W_up) if aug is None else _first_columns(aug, inst.d)
    B = scale_matrix(inst.W_down)
    T = scale_matrix(inst.skip or ())
    out = search_subset(A, B, T)
    result = "R9" if bias else "R5"
    if out.status == "found" and out.subset is not None:
        ev = Evidence(A, B, T, None, None)
        what = "; with biases for every b_up, b_down adjusted by sum_S b_i c_i" if bias else ""
        return Decision("absorbable", result, ABSORBABLE_THEOREMS[bias],
                        f"S = {list(out.subset)} gives P + B[:,S] A[S,:] = 0 (P singular, no R1): flip rows S "
                        f"of W_up (R5 <= with any linear part{what})",
                        witness=flip_witness(inst, out.subset), evidence=ev, method=METHOD)
    if out.status != "none":
        return Decision("undecided", result, None, f"singular skip: subset search inconclusive: {out.reason}",
                        evidence=Evidence(A, B, T, None, None), method=METHOD)
    if aug is not None:
        zero = np.flatnonzero(~(A.numerators() != 0).any(axis=1))
        gen = check_generic(aug, B)
        why = f"row {int(zero[0])} of W_up is zero" if zero.size else gen.reason.replace("of W_up", "of (W_up, b_up)")
        generic = gen.generic and not zero.size
    else:
        gen = check_generic(A, B)
        why, generic = gen.reason, gen.generic
    ev = Evidence(aug if aug is not None else A, B, T, gen.certificate if generic else None, out.certificate)
    if not generic:
        return Decision("outside_hypotheses", result, None,
                        f"no S with P + B[:,S] A[S,:] = 0 exists, but the weights are not generic ({why}); "
                        "without genericity the submatrix test does not decide", generic=False, evidence=ev,
                        method=METHOD)
    theorem = NOT_ABSORBABLE_THEOREMS["relu" if act.name == "relu" else "even"][bias]
    name = theorem.rsplit(".", 1)[-1]
    what = "generic with biases" if bias else "generic weights"
    return Decision("not_absorbable", result, theorem,
                    f"{what} and no S with P + B[:,S] A[S,:] = 0 ({out.reason}; P singular, no R1): not "
                    f"absorbable at width n ({name}, {act.label})", generic=True, evidence=ev, method=METHOD)
