"""The statements a sublayer certificate must prove, written from the instance and the
sublayer decision alone (the trusted side of :mod:`pybridge.certify.sublayer`).

The sublayer writers (R11 pre-norm / parallel, R11' post-norm glue) write a statement and
its proof together; a patched writer, a swapped file or another instance's certificate
could prove something else. Here, independently of any certificate text, pybridge writes:

- **pre-norm / parallel** (:func:`prenorm_claim`): for the activation, ``d``, ``n``, norm
  kind, exact ``eps`` and the parallel flag, the R11 claim over every ``gamma``, ``beta`` and
  weight, with ``d``, ``n`` and ``eps_s`` as data;
- **post-norm** (:func:`postnorm_claims`): two claims. The embedded bare certificate's
  ``verdict_bare`` is vetted exactly like a bare certificate
  (:func:`pybridge.certify.pipeline.vet`: extract, header digests, the expected statement
  about the instance); the glue's ``verdict`` must prove that expected bare claim with each
  ``absorbable_X`` replaced by ``absorbable_postnorm_X (N d eps_s gam_s bet_s)``, under
  ``forall gam_s bet_s`` (and every ``gam_s i <> 0`` for the post-RMSNorm iff; only the
  absorbable claim itself, at its width, for the sufficient direction).

The driver (:mod:`pybridge.certify.driver`) then has Coq check, in the certificate's own
run, that each named theorem proves its claim (data compared by the VM first).
"""

from __future__ import annotations

import re
from fractions import Fraction

from pybridge.certify.encoding import CoqWriter
from pybridge.certify.kinds import Certificate
from pybridge.certify.pipeline import NotVetted, foreign, vet
from pybridge.certify.statement import BASE, Expected, StatementMismatch, normalize, stated
from pybridge.decision.sublayer import (
    CERT_PARALLEL,
    CERT_POST_IFF,
    CERT_POST_SUFFICIENT,
    CERT_PRENORM,
    SublayerDecision,
    continuity_lemma,
)
from pybridge.model import Activation, Decision, Instance

NORM_MODULES = ("BiasBlocks", "Norms")
_NORM_FN = {"layernorm": "layer_norm", "rmsnorm": "rms_norm"}
#: the bare predicates with a post-norm counterpart in ``spec/Norms.v`` (bias-free gated: none)
_POST = re.compile(r"\babsorbable_(ungated_bias|ungated|gated_bias)\b")
_BARE = re.compile(r"\babsorbable_(?!postnorm_)\w+")


def _eps_data(eps: Fraction) -> str:
    if not isinstance(eps, Fraction) or eps <= 0:
        raise NotVetted("eps must be an exact number > 0")
    return f"Definition eps_s : Rdefinitions.R := IZR ({eps.numerator}%Z) / IZR ({eps.denominator}%Z)."


def prenorm_claim(act: Activation, d: int, n: int, kind: str, eps: Fraction, parallel: bool) -> Expected:
    """R11 for this activation, ``d``, ``n``, norm kind and ``eps``: the pre-norm (or
    parallel-residual) block is never residual-free, for every ``gamma``, ``beta`` and weight.
    :class:`NotVetted` when R11 has no such claim (a step activation, an unknown kind)."""
    if continuity_lemma(act) is None:
        raise NotVetted(f"{act.label} is not continuous: R11 states nothing for it")
    if kind not in _NORM_FN or d < 1 or n < 1:
        raise NotVetted("R11 needs a known norm kind and positive d, n")
    eps_line = _eps_data(eps)
    s, norm = act.coq_function, f"({_NORM_FN[kind]} d eps_s gamma beta)"
    if act.gated:
        weights = "(C : mat) (cg : vec) (A : mat) (cu : vec) (B : mat) (b0 : vec)"
        block = f"(gated_bias {s} d n C cg A cu B b0)"
    else:
        weights, block = "(A : mat) (c : vec) (B : mat) (b0 : vec)", f"(ungated_bias {s} d n A c B b0)"
    if parallel:
        claim = (f"forall (gamma beta : vec) {weights} (N1 N1' N2' attn attn' g : vec -> vec) (tau : R -> R), "
                 "is_norm d N1 -> bounded_on_bounded d attn -> is_norm d N1' -> is_norm d N2' -> "
                 "bounded_on_bounded d attn' -> continuity tau -> mlp_block tau d g -> "
                 f"~ same_fun d (parallel_residual N1 {norm} attn {block}) "
                 "(fun x k => attn' (N1' x) k + g (N2' x) k)")
    else:
        claim = (f"forall (gamma beta : vec) {weights} (tau : R -> R) (N' g : vec -> vec), "
                 "continuity tau -> is_norm d N' -> mlp_block tau d g -> "
                 f"~ same_fun d (prenorm d identity {norm} {block}) (fun x => g (N' x))")

    def write(w: CoqWriter) -> None:
        w.nat("d", d)
        w.nat("n", n)
        w.add(eps_line)
    return Expected(claim, tuple(dict.fromkeys(BASE + NORM_MODULES + (act.spec.coq_module,))), write)


def _glue_claim(bare: Expected, how: str, kind: str, eps: Fraction) -> Expected:
    """The post-norm claim of the expected bare claim ``bare`` (see the module docstring)."""
    fn = _NORM_FN.get(kind)
    if fn is None:
        raise NotVetted(f"no post-norm claim for norm kind {kind!r:.20}")
    text = normalize(bare.claim)
    if how == CERT_POST_IFF:
        if kind != "rmsnorm":
            raise NotVetted("the post-norm iff is proved for RMSNorm only")
        binder = "forall (gam_s bet_s : vec), (forall i, (i < d)%nat -> gam_s i <> 0) -> "
    else:
        parts = text.split(" /\\ ")
        if len(parts) > 2 or parts[0].startswith(("~", "forall", "exists")):
            raise NotVetted("the sufficient direction transfers an absorbable verdict only")
        text, binder = parts[0], "forall (gam_s bet_s : vec), "
    body, k = _POST.subn(lambda m: f"absorbable_postnorm_{m.group(1)} ({fn} d eps_s gam_s bet_s)", text)
    if k == 0 or _BARE.search(body):
        raise NotVetted("the bare verdict's statement has no post-norm counterpart "
                        "(bias-free gated blocks are stated without biases)")
    eps_line = _eps_data(eps)

    def write(w: CoqWriter) -> None:
        bare.write(w)
        w.add(eps_line)
    return Expected(binder + body, tuple(dict.fromkeys(bare.modules + NORM_MODULES)), write)


def postnorm_claims(instance: Instance, bare: Decision, sub: SublayerDecision,
                    cert: Certificate) -> tuple[tuple[Expected, Expected], str]:
    """The claims of a post-norm glue ``cert`` (its text, extract and the block the extract
    was taken from, as the bare certificate's): ``(verdict_bare's, verdict's)`` and the bare
    vetting's note. :class:`NotVetted` when the bare decision is not the instance's, the
    extract or digests disagree, or no claim of this form states the reported verdicts."""
    norm = sub.norm
    if sub.certificate not in (CERT_POST_IFF, CERT_POST_SUFFICIENT):
        raise NotVetted(f"not a post-norm sublayer certificate ({sub.certificate!r:.30})")
    if norm.kind is None or norm.eps is None:
        raise NotVetted("the norm has no kind or eps")
    if sub.verdict != bare.verdict or (sub.certificate == CERT_POST_SUFFICIENT and bare.verdict != "absorbable"):
        raise NotVetted(f"a {sub.verdict} sublayer verdict does not follow from a {bare.verdict} bare verdict here")
    why = foreign(instance, bare)
    if why is not None:
        raise NotVetted(why)
    bare_claim, note = vet(instance, bare, cert, "verdict_bare")
    return (bare_claim, _glue_claim(bare_claim, sub.certificate, norm.kind, norm.eps)), note


def sublayer_claims(instance: Instance, bare: Decision, sub: SublayerDecision,
                    cert: Certificate) -> tuple[tuple[Expected, ...], str]:
    """The claims the certificate of ``sub`` must prove (each of its named theorem) and a
    note, written from ``instance``, ``bare`` and ``sub``; ``cert`` only chooses among the
    bare block's statement forms. :class:`NotVetted` when its statements are not those
    (checked on the text here; Coq checks the proofs against the claims)."""
    norm = sub.norm
    if sub.certificate in (CERT_PRENORM, CERT_PARALLEL):
        if sub.verdict != "not_absorbable" or instance.skip is not None:
            raise NotVetted("R11 certificates state non-absorbability for the identity skip only")
        if norm.kind is None or norm.eps is None:
            raise NotVetted("the norm has no kind or eps")
        claims: tuple[Expected, ...] = (prenorm_claim(instance.activation, instance.d, instance.n, norm.kind,
                                                      norm.eps, sub.certificate == CERT_PARALLEL),)
        note = ""
    else:
        claims, note = postnorm_claims(instance, bare, sub, cert)
    check_stated(cert.source, claims)
    return claims, note


def check_stated(source: str, claims: tuple[Expected, ...]) -> None:
    """Each claim's theorem in ``source`` states exactly that claim (text, up to spaces);
    :class:`NotVetted` otherwise. A quick refusal with a clear message: Coq's check in the
    driver is the one that counts."""
    for exp in claims:
        try:
            text = stated(source, exp.theorem)
        except StatementMismatch as exc:
            raise NotVetted(f"statement not vetted: {exc}") from exc
        if text != normalize(exp.claim):
            raise NotVetted(f"statement not vetted: the certificate's `{exp.theorem}` states "
                            f"`{text[:120]}{'...' if len(text) > 120 else ''}`, not the expected claim")
