"""The verdict about an MLP block inside its transformer sublayer (R11, R11').

The bare-block verdict (:func:`pybridge.decision.decide`) is about ``x + B sigma(Ax + c) + b0``.
In a transformer the block sits inside a normalization ``N`` (:class:`pybridge.model.Norm`):

- **pre-norm** ``x + f(N x)`` (and the **parallel** residual ``x + attn(N1 x) + f(N2 x)``,
  attention assumed bounded in ``N1 x``: softmax rows are convex weights): never a
  residual-free ``g(N' x)``, ``g`` an MLP block of any width with any continuous activation
  (R11, ``prenorm_mlp_not_residual_free`` / ``parallel_not_residual_free``), for every
  weight, whenever the skip is nonzero and ``sigma`` is continuous;
- **post-RMSNorm** ``N(x + f x)`` with every ``gamma_i != 0``: absorbable iff the bare block
  is (R11', ``postrms_*_iff``), at the same width;
- **post-LayerNorm**: an absorbable bare block gives an absorbable sublayer (any ``gamma``,
  R11p_zero_gamma); otherwise the ungated block is decided at width ``n`` through the
  singular skip ``C P`` (:mod:`pybridge.decision.postnorm`: absorbable when some ``S`` has
  ``C(P + B_S A_S) = 0``, with or without biases; not absorbable for ReLU and the GELU family
  with ``(A, C B)`` generic (with biases: the augmented rows) and every ``gamma_i != 0``);
  the rest (gated, other activations, non-generic) stays undecided with the reason;
- **post-RMSNorm** with a zero ``gamma`` entry: only the sufficient direction.

``gamma`` is checked exactly (Fractions). Nothing here claims more than these theorems.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pybridge.decision.postnorm import ABSORBABLE_THEOREM, NOT_ABSORBABLE_THEOREM, PostLNDecision, decide_postln
from pybridge.model import Activation, Decision, Instance, Norm

#: activations (by registry id) whose Coq function is continuous, with the continuity lemma
#: of ``certify/CertifySublayer.v`` (``relu_pow``: ``relu_pow_continuity k``). A gated
#: activation uses its gate's. ``heaviside`` (a step) is not continuous.
CONTINUITY_LEMMAS: dict[str, str] = {
    "relu": "relu_continuity",
    "gelu": "gelu_continuity",
    "gelu_tanh": "gelu_tanh_continuity",
    "silu": "silu_continuity",
    "quick_gelu": "quick_gelu_continuity",
    "gelu_fast": "gelu_fast_continuity",
    "relu_pow": "relu_pow_continuity",
}

PRENORM_THEOREM = "Absorb.results.PreNorm.prenorm_mlp_not_residual_free"
PARALLEL_THEOREM = "Absorb.results.PreNorm.parallel_not_residual_free"
SINGULAR_SKIP = ("post-LayerNorm reduces to a bare block with a singular skip C·P; the library "
                 "decides it at every width (R11p_decided), but pybridge has no certificate for "
                 "that route yet")  # (width m != n, or non-generic weights)
ZERO_GAMMA = ("gamma has a zero entry: only the direction 'absorbable bare block => absorbable sublayer' "
              "is proved (R11p_zero_gamma)")

#: what the certificate of a sublayer verdict must tie (see :mod:`pybridge.certify.sublayer`)
CERT_PRENORM = "prenorm"
CERT_PARALLEL = "parallel"
CERT_POST_IFF = "post_iff"
CERT_POST_SUFFICIENT = "post_sufficient"
CERT_POSTLN = "postln"  #: post-LayerNorm through C P (:mod:`pybridge.certify.postnorm`)


@dataclass(frozen=True)
class SublayerDecision:
    """The sublayer's verdict. ``certificate``: which certificate ties it (empty: none
    needed or none possible); ``status``: ``ok`` or the norm's problem status."""

    norm: Norm
    verdict: Optional[str]
    result: Optional[str]
    theorem: Optional[str]
    reason: str
    certificate: str = ""
    status: str = "ok"
    #: the post-LayerNorm decision through ``C P`` (``certificate == CERT_POSTLN``)
    postln: Optional[PostLNDecision] = None


def continuity_lemma(act: Activation) -> Optional[str]:
    """The Coq term proving ``continuity sigma`` (of the gate for gated activations), or None
    when the activation is not continuous (a step)."""
    base = act.gate if act.gated else act
    assert base is not None
    lemma = CONTINUITY_LEMMAS.get(base.name)
    if lemma is None:
        return None
    return f"({lemma} {base.degree})" if base.name == "relu_pow" else lemma


def _form(instance: Instance) -> str:
    if instance.activation.gated:
        return "gated_bias"
    return "ungated_bias" if instance.has_bias else "ungated"


def _skip_zero(instance: Instance) -> bool:
    return instance.skip is not None and all(v == 0 for row in instance.skip for v in row)


def decide_sublayer(instance: Instance, norm: Norm, bare: Decision) -> SublayerDecision:
    """The sublayer verdict of ``instance`` inside ``norm``, from the bare block's ``bare``."""
    if norm.position == "none":
        return SublayerDecision(norm, None, None, None, norm.note or "no normalization known around this block")
    if norm.position in ("pre",) or norm.parallel:
        return _decide_pre(instance, norm)
    if norm.position == "post":
        return _decide_post(instance, norm, bare)
    raise ValueError(f"unknown norm position {norm.position!r}")


def _decide_pre(instance: Instance, norm: Norm) -> SublayerDecision:
    act = instance.activation
    theorem = PARALLEL_THEOREM if norm.parallel else PRENORM_THEOREM
    what = "parallel-residual" if norm.parallel else "pre-norm"
    if continuity_lemma(act) is None:
        return SublayerDecision(norm, "outside_hypotheses", "R11", theorem,
                                f"R11 needs a continuous activation; {act.label} is a step")
    if _skip_zero(instance):
        return SublayerDecision(norm, "outside_hypotheses", "R11", theorem, "R11 needs a nonzero skip; P = 0")
    if norm.parallel and norm.position != "pre":
        return SublayerDecision(norm, "undecided", None, None,
                                "a parallel residual with a post-norm is not covered by R11")
    reason = (f"{what} {norm.kind} sublayer: never residual-free at any width, for every weight "
              f"(R11; {act.label} is continuous, the skip is nonzero)")
    if norm.parallel:
        reason += "; the attention output is assumed bounded in N1 x (softmax rows are convex weights)"
    cert = CERT_PARALLEL if norm.parallel else CERT_PRENORM
    if instance.skip is not None:
        reason += "; certificates are written for the identity skip only"
        cert = ""
    return SublayerDecision(norm, "not_absorbable", "R11", theorem, reason, cert)


def _decide_post(instance: Instance, norm: Norm, bare: Decision) -> SublayerDecision:
    assert norm.gamma is not None
    zero_gamma = any(g == 0 for g in norm.gamma)
    form = _form(instance)
    m = f"width {bare.width}" if bare.width is not None else "width n"
    if norm.kind == "rmsnorm" and not zero_gamma:
        theorem = f"Absorb.results.PostNorm.postrms_{form}_iff" if form != "ungated" else \
            "Absorb.results.PostNorm.postrms_ungated_iff"
        if bare.verdict in ("absorbable", "not_absorbable"):
            return SublayerDecision(norm, bare.verdict, "R11'", theorem,
                                    f"post-RMSNorm, every gamma_i != 0: absorbable at {m} iff the bare block is "
                                    f"(R11'); the bare block is {bare.verdict}", CERT_POST_IFF)
        return SublayerDecision(norm, bare.verdict, "R11'", theorem,
                                f"post-RMSNorm: the same as the bare block (R11'), which is {bare.verdict}")
    why = ZERO_GAMMA if zero_gamma else SINGULAR_SKIP
    if bare.verdict == "absorbable":
        return SublayerDecision(norm, "absorbable", "R11'", f"Absorb.certify.CertifySublayer.postnorm_of_bare_{form}",
                                f"post-{_kind(norm)}: the bare block is absorbable at {m}, so the sublayer is "
                                f"(N(g) = N(h) when g = h; R11p_zero_gamma)", CERT_POST_SUFFICIENT)
    if norm.kind == "layernorm" and bare.width is not None and bare.width != instance.n:
        why = f"{SINGULAR_SKIP} at width {bare.width}; the route through C·P decides width n = {instance.n} only"
    elif norm.kind == "layernorm":
        pd = decide_postln(instance, norm)
        if pd.verdict != "undecided":
            theorem = pd.theorem or (ABSORBABLE_THEOREM if pd.verdict == "absorbable" else NOT_ABSORBABLE_THEOREM)
            return SublayerDecision(norm, pd.verdict, "R11'", theorem, f"{pd.reason}; the bare block is "
                                    f"{bare.verdict}", CERT_POSTLN, postln=pd)
        why = pd.reason
    return SublayerDecision(norm, "undecided", None, None, f"{why}; the bare block is {bare.verdict}")


def _kind(norm: Norm) -> str:
    return "LayerNorm" if norm.kind == "layernorm" else "RMSNorm"
