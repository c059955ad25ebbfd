"""Which result applies to a block, and the verdict it gives (:func:`decide`).

- activations Coq does not support yet: ``undecided`` (not for those the width route
  covers, with or without biases);
- gated blocks: R3 (bias-free), every weight of the shape;
- positively homogeneous of degree k != 1 (relu^k): R2 (bias-free);
- odd-part-identity blocks (ReLU, GELU, GELU_tanh, SiLU): the exact subset
  search (:mod:`.subset_search`) and genericity (:mod:`.genericity`) decide
  between R5 (<=) (a subset S, with the witness), R5 (=>) (generic, no S) and
  ``outside_hypotheses`` (not generic, or biases without S).
- biases with a non-identity skip ``P``: R1 with biases (:func:`_decide_skip_bias`) reduces to
  the identity skip (``W_down``, ``b_down`` multiplied by ``P^-1``), decided as above.
- what R5 leaves open, other widths (``width``) and the least absorbing width
  (``min_width``): R8 / R8' / R9 through :mod:`.width_route`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any, Optional

from pybridge.activations import qualified
from pybridge.decision import width_route
from pybridge.decision.genericity import GenericOutcome, check_generic
from pybridge.decision.identity import weights_digest
from pybridge.decision.skips import SkipReduction, reduce_skip
from pybridge.decision.subset_search import search_subset
from pybridge.errors import InputError
from pybridge.exact.evidence import Evidence
from pybridge.exact.linalg import invert, matmul, matvec
from pybridge.exact.modular import identity_int, scale_matrix
from pybridge.model import Decision, Instance, Witness

METHOD = "subset search mod p, exact verification"


def _theorem(name: Optional[str]) -> Optional[str]:
    """The registry's full Coq name (``Absorb.folder.Module.lemma``) as reported."""
    return qualified(name) if name is not None else None


def flip_witness(inst: Instance, subset: tuple[int, ...]) -> Witness:
    """R5 (<=)'s residual-free block: rows of ``W_up`` in S negated (biases: R7's adjustment)."""
    s = set(subset)
    up = tuple(tuple(-v for v in r) if i in s else tuple(r) for i, r in enumerate(inst.W_up))
    b_up = b_down = None
    if inst.has_bias:
        c = inst.b_up or (Fraction(0),) * inst.n
        b0 = inst.b_down or (Fraction(0),) * inst.d
        b_up = tuple(-v if i in s else v for i, v in enumerate(c))
        b_down = tuple(b0[k] + sum((inst.W_down[k][i] * c[i] for i in subset), Fraction(0)) for k in range(inst.d))
    return Witness(subset=tuple(subset), W_up=up, W_down=tuple(tuple(r) for r in inst.W_down),
                   b_down=b_down, b_up=b_up)


def _classification(inst: Instance, skip: SkipReduction) -> Optional[Decision]:
    """Verdicts that do not look at the weights (None: the weights decide)."""
    act = inst.activation
    base: dict[str, Any] = dict(skip_inverse=skip.inverse, reduced_down=skip.reduced_down,
                                method="classification")
    # Activations the width route covers (quick_gelu, gelu_fast) go on with or without biases:
    # biased blocks reach ``width_route.decide_bias``, which names any missing theorem.
    if not act.certifiable and not width_route.covered(inst):
        return Decision("undecided", None, None,
                        f"{act.label}: the formal library has no support for this activation yet", **base)
    if act.gated:
        if inst.has_bias:
            return Decision("outside_hypotheses", "R7", None,
                            "gated block with nonzero biases: R3 is bias-free, and with biases the "
                            "gated impossibility fails (R7)", **base)
        return Decision("not_absorbable", "R3", _theorem(act.not_absorbable_lemma),
                        f"{act.label}: the gate is continuous at 0 and vanishes there; no residual gated "
                        "block with a nonzero skip is absorbable at any width (R3)", **base)
    hom = act.homogeneous_degree
    if hom is not None and hom != 1:
        if inst.has_bias:
            return Decision("outside_hypotheses", "R7", None,
                            f"{act.label} with nonzero biases: R2 is bias-free", **base)
        return Decision("not_absorbable", "R2", _theorem(act.not_absorbable_lemma),
                        f"{act.label} is positively homogeneous of degree {hom} != 1: never absorbable (R2)",
                        **base)
    if not act.odd_part_identity:
        raise InputError(f"unsupported activation {act.label!r}")
    return None


def _check_width(inst: Instance, width: object) -> int:
    if width is None:
        return inst.n
    if isinstance(width, bool) or not isinstance(width, int) or width < 0:
        raise InputError(f"width must be a non-negative integer, got {width!r:.40}")
    return width


def decide(inst: Instance, width: Optional[int] = None, min_width: bool = False) -> Decision:
    """Decide absorbability at width ``width`` (default n) exactly, or the least absorbing
    width (``min_width``); ``Decision.evidence`` / ``Decision.width_info`` hold the exact data.

    The decision carries ``weights_sha256``, the digest of ``inst``
    (:func:`pybridge.decision.identity.weights_digest`): certificates are only written for
    the weights it was made for."""
    if not isinstance(inst, Instance):
        raise TypeError(f"decide expects an Instance, not {type(inst).__name__}")
    m = _check_width(inst, width)
    return replace(_decide(inst, m, width, min_width), weights_sha256=weights_digest(inst))


def _decide(inst: Instance, m: int, width: Optional[int], min_width: bool) -> Decision:
    """:func:`decide` without the digest (also for the reduced block of R1 with biases)."""
    act = inst.activation
    skip = reduce_skip(inst)
    fixed = _classification(inst, skip)
    if fixed is not None:
        return fixed if m == inst.n and not min_width else replace(
            fixed, reason=fixed.reason + (" (this verdict holds at every width)"
                                          if fixed.verdict == "not_absorbable" else ""), width=m)
    if inst.has_bias and inst.skip is not None:
        return _decide_skip_bias(inst, width, min_width, skip)
    wbase: dict[str, Any] = dict(skip_inverse=skip.inverse, reduced_down=skip.reduced_down)
    route = width_route.covered(inst)
    if route and not inst.has_bias and (m != inst.n or min_width or not act.certifiable):
        return width_route.decide_width(inst, m, min_width, skip.inverse, wbase)
    if inst.has_bias and (m != inst.n or min_width) and inst.skip is None:
        return width_route.decide_bias(inst, m, min_width, None, dict(wbase, method=width_route.METHOD))
    gen = check_generic(scale_matrix(inst.W_up), scale_matrix(inst.W_down))
    if route and not gen.generic:
        early = width_route.decide_low_rank(inst, m, wbase) or width_route.decide_one_extra(inst, m, wbase)
        if early is not None:
            return early
    r5 = _decide_r5(inst, skip, gen)
    # R5 leaves the block open (not generic, or the subset search inconclusive: e.g. d = 1
    # with many rows): the width route decides it exactly when it covers the activation.
    if r5.verdict in ("outside_hypotheses", "undecided") and route:
        if not inst.has_bias:
            wd = width_route.decide_width(inst, m, False, skip.inverse, wbase)
        elif inst.skip is None:
            wd = width_route.decide_bias(inst, m, False, r5, dict(wbase, method=width_route.METHOD))
        else:
            return r5
        # an R5 "undecided" stays when the width route decides nothing either
        return wd if r5.verdict == "outside_hypotheses" or wd.verdict in DECIDED else r5
    return r5


DECIDED = ("absorbable", "not_absorbable")


def _decide_r5(inst: Instance, skip: SkipReduction, gen: GenericOutcome) -> Decision:
    """R5 / R7 at width n: the subset search, with genericity ``gen`` (:func:`check_generic`)."""
    act = inst.activation
    A = scale_matrix(inst.W_up)
    B = scale_matrix(inst.W_down)
    T = scale_matrix(inst.skip) if inst.skip is not None else identity_int(inst.d)
    out = search_subset(A, B, T)
    ev = Evidence(A, B, T, gen.certificate, out.certificate)
    common: dict[str, Any] = dict(generic=gen.generic, evidence=ev, method=METHOD, skip_inverse=skip.inverse,
                  reduced_down=skip.reduced_down)
    via = " (after skip reduction R1: B~ = P^-1 B)" if inst.skip is not None else ""
    if out.status == "found" and out.subset is not None:
        witness = flip_witness(inst, out.subset)
        if inst.has_bias:
            return Decision("absorbable", "R7", qualified("Absorb.results.Biases.odd_part_absorbable_bias"),
                            f"S = {list(out.subset)} gives sum b_i a_i^T = -I{via}; with biases the output "
                            "bias absorbs sum_S b_i c_i (R7)", witness=witness, **common)
        return Decision("absorbable", "R5", qualified("Absorb.results.FlipSigns.odd_part_absorbable"),
                        f"S = {list(out.subset)} gives B~[:,S] A[S,:] = -I{via}: flip rows S of W_up (R5 <=)",
                        witness=witness, **common)
    if out.status == "unknown":
        return Decision("undecided", "R5", None, f"subset search inconclusive: {out.reason}", **common)
    # No S exists.
    if inst.has_bias:
        return Decision("outside_hypotheses", "R7", None,
                        "no subset S exists, but the block has nonzero biases: the (=>) direction of R5 "
                        "is bias-free", **common)
    if not gen.generic:
        return Decision("outside_hypotheses", "R5", None,
                        f"no subset S exists, but the weights are not generic ({gen.reason}); without "
                        "genericity the submatrix test does not decide (paper's counterexample)", **common)
    return Decision("not_absorbable", "R5", _theorem(act.spec.generic_submatrix_lemma),
                    f"generic weights and no S with B~[:,S] A[S,:] = -I{via} ({out.reason}): "
                    f"not absorbable at width n (R5 =>, {act.label})", **common)


SKIP_BIAS_THEOREM = "Absorb.results.SkipReductionBias.skip_reduction_ungated_bias"


def reduced_bias_instance(inst: Instance, inverse: Optional[Any] = None) -> Instance:
    """R1 with biases: ``x + P^-1 B sigma(A x + c) + P^-1 b0`` for ``P x + B sigma(A x + c) + b0``."""
    if inst.skip is None:
        return inst
    Q = inverse if inverse is not None else invert(inst.skip)
    b_down = matvec(Q, inst.b_down) if inst.b_down is not None else None
    return replace(inst, skip=None, W_down=matmul(Q, inst.W_down), b_down=b_down)


def user_skip_witness(inst: Instance, w: Witness) -> Witness:
    """A residual-free block ``g`` of the reduced block gives ``P g`` for the user's block:
    ``W_down`` and ``b_down`` multiplied by ``P``."""
    P = inst.skip
    if P is None:
        return w
    return replace(w, W_down=matmul(P, w.W_down),
                   b_down=matvec(P, w.b_down) if w.b_down is not None else None)


def _decide_skip_bias(inst: Instance, width: Optional[int], min_width: bool, skip: SkipReduction) -> Decision:
    """Biases and a non-identity skip ``P``: decide the reduced identity-skip block
    (``skip_reduction_ungated_bias``: absorbable at width m iff the user's block is) and
    report its verdict, with any explicit block mapped back to the user's block."""
    red = reduced_bias_instance(inst, skip.inverse)
    dec = _decide(red, _check_width(red, width), width, min_width)
    info = dec.width_info
    if info is not None:
        info = width_route._user_witness(inst, info)
    witness = user_skip_witness(inst, dec.witness) if dec.witness is not None else None
    reduced_down = skip.reduced_down if skip.reduced_down is not None else None
    return replace(dec, witness=witness, width_info=info, skip_inverse=skip.inverse, reduced_down=reduced_down,
                   reason=f"{dec.reason}; after skip reduction with biases (R1, "
                   "SkipReductionBias.skip_reduction_ungated_bias: B~ = P^-1 B, b0~ = P^-1 b0)")
