"""Certificates of sublayer verdicts (R11, R11'); see :mod:`pybridge.decision.sublayer`.

- **Pre-norm / parallel** (:func:`prenorm_certificate`): weight-independent. The statement,
  for this activation, ``d``, ``n``, norm kind and exact ``eps > 0``, is quantified over
  every ``gamma``, ``beta`` and every weight of the block, every residual-free MLP ``g`` of any
  width with any continuous activation ``tau`` and any normalization ``N'`` (parallel: also
  every bounded attention ``attn``, ``attn'`` and norms ``N1``, ``N1'``, ``N2'``). Proved by
  ``CertifySublayer.cert_prenorm_*`` / ``cert_parallel_*`` with the activation's continuity
  lemma; one certificate serves every layer with the same key (:func:`prenorm_key`).
- **Post-norm** (:func:`postnorm_certificate`): the bare block's certificate (written by
  :func:`pybridge.certify.pipeline.build_certificate`), its ``verdict`` renamed
  ``verdict_bare``, then a glue theorem stating the sublayer's verdict for every ``gamma``
  (with every ``gamma_i != 0`` for the post-RMSNorm iff) and every ``beta``: the bare
  statement with ``absorbable_X`` replaced by ``absorbable_postnorm_X (N d eps gamma beta)``,
  proved by rewriting with ``PostNorm.postrms_*_iff`` or by
  ``CertifySublayer.postnorm_of_bare_*`` (the sufficient direction).
- **Post-LayerNorm through C P** (``CERT_POSTLN``): :mod:`pybridge.certify.postnorm`, checked
  through a driver against the claim written from the instance alone
  (:func:`pybridge.certify.postnorm.expected_postln`).

Every identifier and number here is written by pybridge; ``eps`` is an exact rational.
A certificate is accepted only through :func:`check_certificate`: its statements (and, for a
glue, the embedded ``verdict_bare``'s, vetted like a bare certificate) are checked by Coq, in
the same run, against the claims :mod:`pybridge.certify.sublayer_statement` writes from the
instance and the decisions alone (:mod:`pybridge.certify.driver`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence

from pybridge.certify.encoding import CoqWriter
from pybridge.certify.kinds import CannotCertify, Certificate, Extract
from pybridge.certify.pipeline import NotVetted, build_certificate, check_vetted
from pybridge.certify.postnorm import build_postln_certificate, certify_postln
from pybridge.certify.statement import Expected
from pybridge.certify.sublayer_statement import check_stated, prenorm_claim, sublayer_claims
from pybridge.decision.sublayer import (
    CERT_PARALLEL,
    CERT_POST_IFF,
    CERT_POST_SUFFICIENT,
    CERT_POSTLN,
    CERT_PRENORM,
    SublayerDecision,
    continuity_lemma,
    decide_sublayer,
)
from pybridge.model import Activation, Decision, Instance, Norm
from pybridge.prover import ProverBackend, ProverOutcome, ProverResult

MODULES = ("BiasBlocks", "Norms", "MoreActivationDefs", "PreNorm", "PostNorm", "CertifySublayer")
_NORM_FN = {"layernorm": "layer_norm", "rmsnorm": "rms_norm"}
_FOOTER = "End Cert.\nPrint Assumptions Cert.verdict.\n"
_HEAD = "Theorem verdict : "
_PRED = re.compile(r"\babsorbable_(ungated_bias|ungated|gated_bias|gated)\b")
_BARE_LEFT = re.compile(r"\babsorbable_(?!postnorm_)\w*")
#: explicit arguments of ``CertifySublayer.postnorm_of_bare_*`` before the norm's respect
_ARITY = {"ungated": 8, "ungated_bias": 10, "gated_bias": 12}
_RESERVED = re.compile(r"\b(verdict_bare|eps_s|eps_s_pos|gam_s|bet_s|Hg_s|E_s[0-9])\b")


@dataclass(frozen=True)
class SublayerCertificate:
    """A generated Coq file for a sublayer verdict."""

    stem: str
    source: str
    summary: str
    #: the bare certificate's extract (partial certificates) and, as in the bare certificate,
    #: the block it was taken from when it is not the user's (None: the user's)
    extract: Optional[Extract] = None
    extract_of: Optional[Instance] = None

    def as_certificate(self) -> Certificate:
        """This file as a :class:`~pybridge.certify.kinds.Certificate` (for the vetting)."""
        return Certificate(self.stem, self.source, self.summary, "sublayer", self.extract, self.extract_of)


def prenorm_key(act: Activation, d: int, n: int, kind: str, eps: Fraction, parallel: bool) -> tuple:
    """What a pre-norm / parallel certificate depends on: equal keys share one certificate."""
    return (act, d, n, kind, eps, parallel)


def _eps_text(eps: Fraction) -> list[str]:
    """``eps_s`` (the exact rational) and ``eps_s_pos : 0 < eps_s``."""
    if not isinstance(eps, Fraction) or eps <= 0:
        raise CannotCertify("eps must be an exact number > 0")
    return [f"Definition eps_s : Rdefinitions.R := IZR ({eps.numerator}%Z) / IZR ({eps.denominator}%Z).",
            "Lemma eps_s_pos : 0 < eps_s.\nProof. apply eps_literal_pos; reflexivity. Qed."]


def prenorm_certificate(act: Activation, d: int, n: int, kind: str, eps: Fraction,
                        parallel: bool) -> SublayerCertificate:
    """R11 for this activation, ``d``, ``n``, norm kind and ``eps``: for every ``gamma``,
    ``beta`` and weight (see the module docstring)."""
    cont = continuity_lemma(act)
    if cont is None:
        raise CannotCertify(f"{act.label} is not continuous: R11 does not apply")
    if kind not in _NORM_FN:
        raise CannotCertify(f"unknown norm kind {kind!r:.20}")
    if d < 1 or n < 1:
        raise CannotCertify("d and n must be positive")
    sigma, fn = act.coq_function, _NORM_FN[kind]
    w = CoqWriter(MODULES)
    w.nat("d", d)
    w.nat("n", n)
    for line in _eps_text(eps):
        w.add(line)
    w.add("Lemma d_pos : (1 <= d)%nat.\nProof. apply Nat.leb_le. reflexivity. Qed.")
    norm = f"({fn} d eps_s gamma beta)"
    if act.gated:
        weights, block = ("(C : mat) (cg : vec) (A : mat) (cu : vec) (B : mat) (b0 : vec)",
                          f"(gated_bias {sigma} d n C cg A cu B b0)")
    else:
        weights, block = "(A : mat) (c : vec) (B : mat) (b0 : vec)", f"(ungated_bias {sigma} d n A c B b0)"
    form = "gated" if act.gated else "ungated"
    if parallel:
        stmt = (f"forall (gamma beta : vec) {weights} (N1 N1' N2' attn attn' g : vec -> vec) (tau : R -> R),\n"
                "  is_norm d N1 -> bounded_on_bounded d attn -> is_norm d N1' -> is_norm d N2' ->\n"
                "  bounded_on_bounded d attn' -> continuity tau -> mlp_block tau d g ->\n"
                f"  ~ same_fun d (parallel_residual N1 {norm} attn {block})\n"
                "               (fun x k => attn' (N1' x) k + g (N2' x) k)")
        lemma = f"cert_parallel_{form}"
    else:
        stmt = (f"forall (gamma beta : vec) {weights} (tau : R -> R) (N' g : vec -> vec),\n"
                "  continuity tau -> is_norm d N' -> mlp_block tau d g ->\n"
                f"  ~ same_fun d (prenorm d identity {norm} {block}) (fun x => g (N' x))")
        lemma = f"cert_prenorm_{form}"
    w.add(f"Theorem verdict : {stmt}.\nProof.\n  intros gamma beta.\n"
          f"  exact ({lemma} {sigma} d n {norm} {cont} d_pos ({fn}_is_norm d eps_s gamma beta eps_s_pos)).\nQed.")
    what = "parallel residual" if parallel else "pre-norm"
    return SublayerCertificate("CertSublayerPre", w.text(),
                               f"{act.label}: {what} {kind} sublayer never residual-free (R11), d={d}, n={n}, "
                               f"eps={eps}, every gamma, beta and weight")


def _bare_statement(src: str) -> tuple[str, str]:
    """The bare certificate without its footer (``verdict`` renamed ``verdict_bare``) and its
    statement."""
    if src.count(_HEAD) != 1 or not src.endswith(_FOOTER) or _RESERVED.search(src) \
            or "Definition d : nat" not in src:
        raise CannotCertify("the bare block's certificate has an unexpected layout")
    start = src.index(_HEAD) + len(_HEAD)
    end = src.index(".\nProof.", start)
    body = src[:-len(_FOOTER)].replace(_HEAD, "Theorem verdict_bare : ", 1)
    return body, src[start:end]


def _post_glue(stmt: str, how: str, kind: str) -> tuple[str, str]:
    """The sublayer's statement and proof from the bare statement ``stmt``."""
    fn = _NORM_FN[kind]
    preds = _PRED.findall(stmt)
    if not preds or "gated" in preds:
        raise CannotCertify("the bare certificate's statement has no post-norm counterpart "
                            "(bias-free gated blocks are stated without biases)")
    new = _PRED.sub(lambda m: f"absorbable_postnorm_{m.group(1)} ({fn} d eps_s gam_s bet_s)", stmt)
    if _BARE_LEFT.search(new):  # a predicate about the bare block would stay: never mix the two
        raise CannotCertify("the bare certificate's statement names a predicate with no post-norm counterpart")
    if how == CERT_POST_IFF:
        if kind != "rmsnorm":
            raise CannotCertify("the iff is proved for RMSNorm only")
        binder = "forall (gam_s bet_s : vec), (forall i, (i < d)%nat -> gam_s i <> 0) ->\n  "
        proof = ("  intros gam_s bet_s Hg_s.\n"
                 "  pose proof (fun sg n0 m0 P0 A0 B0 => postrms_ungated_iff sg d n0 m0 eps_s gam_s bet_s P0 A0 B0\n"
                 "    eps_s_pos Hg_s) as E_s1.\n"
                 "  pose proof (fun sg n0 m0 P0 A0 c0 B0 b1 => postrms_ungated_bias_iff sg d n0 m0 eps_s gam_s bet_s\n"
                 "    P0 A0 c0 B0 b1 eps_s_pos Hg_s) as E_s2.\n"
                 "  pose proof (fun sg n0 m0 P0 C0 g0 A0 u0 B0 b1 => postrms_gated_bias_iff sg d n0 m0 eps_s gam_s\n"
                 "    bet_s P0 C0 g0 A0 u0 B0 b1 eps_s_pos Hg_s) as E_s3.\n"
                 "  try setoid_rewrite E_s1; try setoid_rewrite E_s2; try setoid_rewrite E_s3.\n"
                 "  exact verdict_bare.\n")
        return binder + new, proof
    parts = stmt.split(" /\\ ")
    if parts[0].lstrip().startswith(("~", "forall", "exists")) or len(parts) > 2:
        raise CannotCertify("the bare certificate does not state absorbability of the block itself")
    first = _PRED.sub(lambda m: f"absorbable_postnorm_{m.group(1)} ({fn} d eps_s gam_s bet_s)", parts[0])
    if _BARE_LEFT.search(first):
        raise CannotCertify("the bare certificate's statement names a predicate with no post-norm counterpart")
    pred = _PRED.search(parts[0])
    assert pred is not None
    bare = "verdict_bare" if len(parts) == 1 else "(proj1 verdict_bare)"
    holes = " ".join("_" * _ARITY[pred.group(1)])
    proof = (f"  intros gam_s bet_s.\n  exact (postnorm_of_bare_{pred.group(1)} {holes} "
             f"({fn}_respects d eps_s gam_s bet_s) {bare}).\n")
    return "forall (gam_s bet_s : vec),\n  " + first, proof


def postnorm_certificate(instance: Instance, bare: Decision, sub: SublayerDecision) -> SublayerCertificate:
    """The bare block's certificate glued to the post-norm sublayer's verdict."""
    norm = sub.norm
    if norm.kind not in _NORM_FN or norm.eps is None:
        raise CannotCertify("the norm has no kind or eps")
    cert = build_certificate(instance, bare)
    if cert is None:
        raise CannotCertify("the bare block's verdict has no certificate")
    body, stmt = _bare_statement(cert.source)
    new_stmt, proof = _post_glue(stmt, sub.certificate, norm.kind)
    first = body.index("From Absorb Require Import")
    glue = _eps_text(norm.eps)
    source = (body[:first] + "From Coq Require Import Setoid.\nFrom Absorb Require Import "
              + " ".join(MODULES) + ".\n" + body[first:] + "\n".join(glue)
              + f"\nTheorem verdict : {new_stmt}.\nProof.\n{proof}Qed.\n" + _FOOTER)
    return SublayerCertificate("CertSublayerPost", source,
                               f"{cert.summary}, glued to the post-{norm.kind} sublayer (R11')",
                               cert.extract, cert.extract_of)


def certify_sublayer(instance: Instance, bare: Decision, sub: SublayerDecision, backend: ProverBackend, *,
                     timeout: float = 120.0) -> Optional[ProverResult]:
    """Have the prover check the sublayer verdict's certificate (None: nothing to check).
    ``accepted`` only when Coq compiles it, its statements are the expected ones
    (:func:`check_certificate`, or for ``CERT_POSTLN`` the driver of
    :func:`pybridge.certify.postnorm.certify_postln`) and it rests on allowed axioms only."""
    if sub.certificate == CERT_POSTLN and sub.verdict is not None:
        return certify_postln(instance, sub.verdict, sub.postln, backend, timeout=timeout)
    try:
        cert = certificate_for(instance, bare, sub)
    except CannotCertify as exc:
        return ProverResult(ProverOutcome.NOT_CERTIFIED, 0.0, f"not certified: {exc}", prover=backend.name)
    if cert is None:
        return None
    return check_certificate(instance, bare, sub, cert, backend, timeout=timeout)


def certificate_for(instance: Instance, bare: Decision, sub: SublayerDecision) -> Optional[SublayerCertificate]:
    """The certificate ``sub`` calls for (None: none); :class:`CannotCertify` if it cannot be written."""
    norm = sub.norm
    if sub.certificate in (CERT_PRENORM, CERT_PARALLEL):
        if norm.kind is None or norm.eps is None:
            raise CannotCertify("the norm has no kind or eps")
        return prenorm_certificate(instance.activation, instance.d, instance.n, norm.kind, norm.eps,
                                   sub.certificate == CERT_PARALLEL)
    if sub.certificate in (CERT_POST_IFF, CERT_POST_SUFFICIENT):
        return postnorm_certificate(instance, bare, sub)
    if sub.certificate == CERT_POSTLN:
        if sub.postln is None:
            raise CannotCertify("no post-LayerNorm decision")
        pc = build_postln_certificate(instance, sub.postln)
        return SublayerCertificate(pc.stem, pc.source, pc.summary)
    return None


def check_certificate(instance: Instance, bare: Decision, sub: SublayerDecision, cert: SublayerCertificate,
                      backend: ProverBackend, *, timeout: float) -> ProverResult:
    """Check ``cert`` as the certificate of ``sub``: ``rejected`` without the prover when its
    statements are not the ones written from the instance and decisions alone
    (:func:`pybridge.certify.sublayer_statement.sublayer_claims`: for a post-norm glue, its
    bare certificate vetted like a bare one, extract and header digests included); else
    :func:`run_certificate`."""
    try:
        claims, note = sublayer_claims(instance, bare, sub, cert.as_certificate())
    except NotVetted as exc:
        return ProverResult(ProverOutcome.REJECTED, 0.0, str(exc), prover=backend.name)
    return run_certificate(cert, claims, backend, timeout=timeout, note=note)


def run_certificate(cert: SublayerCertificate, claims: Sequence[Expected], backend: ProverBackend, *,
                    timeout: float, note: str = "") -> ProverResult:
    """Compile ``cert`` inside a driver (:mod:`pybridge.certify.driver`) that has Coq check,
    in the same run, that each claim's theorem proves that claim; accept only when every
    vetted theorem rests on allowed axioms (as the pipeline does)."""
    return check_vetted(cert.stem, cert.source, claims, backend, timeout=timeout, summary=cert.summary, note=note)


# ------------------------------------------------------------------ one sublayer, reported


@dataclass
class SublayerReport:
    """The sublayer verdict of one block and what checked it (see :func:`analyse_sublayer`)."""

    decision: Optional[SublayerDecision]
    position: str
    kind: Optional[str]
    parallel: bool
    checked: bool = False
    prover: Optional[ProverResult] = None
    status: str = "ok"
    reason: str = ""
    note: str = ""
    #: the weight-independent certificate is left to the process that shares them (scan workers)
    deferred: bool = False

    def to_json(self) -> dict:
        """The ``"sublayer"`` entry of a layer (``check --json`` / ``scan``)."""
        dec = self.decision
        norm = dec.norm if dec is not None else None
        doc: dict = {
            "norm": self.position, "kind": self.kind, "parallel": self.parallel, "status": self.status,
            "verdict": dec.verdict if dec else None, "result": dec.result if dec else None,
            "theorem": dec.theorem if dec else None, "checked": self.checked,
            "reason": self.reason or (dec.reason if dec else ""),
            "eps": str(norm.eps) if norm is not None and norm.eps is not None else None,
            "gamma_zero_entries": sum(g == 0 for g in norm.gamma) if norm is not None and norm.gamma else None,
        }
        if self.prover is not None:
            doc["prover"] = prover_json(self.prover)
        if self.note:
            doc["note"] = self.note
        if self.deferred:
            doc["deferred"] = True
        return doc


def prover_json(result: ProverResult) -> dict:
    """Coq's answer on a sublayer certificate, as JSON."""
    msg = result.message
    return {"outcome": result.outcome.value, "accepted": result.accepted, "seconds": round(result.seconds, 3),
            "message": msg if len(msg) <= 2000 else msg[:2000] + "..."}


def analyse_sublayer(instance: Instance, norm: Norm, bare: Decision, bare_checked: bool, *, prove: bool,
                     backend: Optional[ProverBackend], timeout: float,
                     shared: Optional[dict] = None, defer_shared: bool = False) -> SublayerReport:
    """Decide the sublayer of ``instance`` in ``norm`` from the bare decision and, with
    ``prove``, have Coq check its certificate. ``shared``: key -> (first layer, result) of
    weight-independent (pre-norm / parallel) certificates, filled and reused; with
    ``defer_shared`` such a certificate is not run here but marked ``deferred`` for
    :func:`finish_deferred` in the process holding ``shared``."""
    sub = decide_sublayer(instance, norm, bare)
    rep = SublayerReport(sub, norm.position, norm.kind, norm.parallel)
    if sub.verdict not in ("absorbable", "not_absorbable"):
        return rep
    if not sub.certificate:
        rep.reason = sub.reason + "; no certificate written (checked: false)"
        return rep
    if not prove or backend is None:
        rep.reason = sub.reason + "; not checked (--no-prove)"
        return rep
    if sub.certificate in (CERT_POST_IFF, CERT_POST_SUFFICIENT) and not bare_checked:
        rep.reason = sub.reason + "; the bare block's certificate was not accepted, so the transfer is not checked"
        return rep
    key = None
    if sub.certificate in (CERT_PRENORM, CERT_PARALLEL) and norm.kind is not None and norm.eps is not None:
        key = prenorm_key(instance.activation, instance.d, instance.n, norm.kind, norm.eps,
                          sub.certificate == CERT_PARALLEL)
    if key is not None and defer_shared:
        rep.deferred, rep.reason = True, sub.reason + "; certificate pending"
        return rep
    if key is not None and shared is not None and key in shared:
        first, result = shared[key]
        rep.prover, rep.note = result, f"sublayer certificate shared with {first}"
    else:
        rep.prover = certify_sublayer(instance, bare, sub, backend, timeout=timeout)
        if key is not None and shared is not None and rep.prover is not None and rep.prover.accepted:
            shared[key] = (instance.source, rep.prover)
    rep.checked = bool(rep.prover is not None and rep.prover.accepted)
    if not rep.checked and rep.prover is not None:
        rep.reason = sub.reason + f"; certificate {rep.prover.outcome.value}: not checked"
    return rep


def unavailable_sublayer(position: str, kind: Optional[str], parallel: bool, status: str,
                         reason: str) -> SublayerReport:
    """A sublayer whose norm could not be read (a missing tensor, a bad eps)."""
    return SublayerReport(None, position, kind, parallel, status=status, reason=reason)


def finish_deferred(entry: dict, act: Activation, d: int, n: int, *, backend: Optional[ProverBackend],
                    timeout: float, shared: dict, layer: str) -> dict:
    """Complete a ``deferred`` sublayer entry (a scan worker's): its weight-independent
    certificate, read from ``shared`` or checked now and shared. Other entries unchanged."""
    if not entry.get("deferred"):
        return entry
    out = {k: v for k, v in entry.items() if k != "deferred"}
    reason = str(out.get("reason", "")).removesuffix("; certificate pending")
    try:
        eps = Fraction(str(out["eps"]))
        key = prenorm_key(act, d, n, str(out["kind"]), eps, bool(out["parallel"]))
    except (KeyError, ValueError, ZeroDivisionError):
        out["reason"] = reason + "; not checked (the deferred entry is incomplete)"
        return out
    if backend is None:
        out["reason"] = reason + "; not checked"
        return out
    if key in shared:
        first, result = shared[key]
        out["note"] = f"sublayer certificate shared with {first}"
    else:
        try:
            cert = prenorm_certificate(act, d, n, str(out["kind"]), eps, bool(out["parallel"]))
            claim = prenorm_claim(act, d, n, str(out["kind"]), eps, bool(out["parallel"]))
            check_stated(cert.source, (claim,))
            result = run_certificate(cert, (claim,), backend, timeout=timeout)
        except CannotCertify as exc:
            result = ProverResult(ProverOutcome.NOT_CERTIFIED, 0.0, f"not certified: {exc}", prover=backend.name)
        except NotVetted as exc:
            result = ProverResult(ProverOutcome.REJECTED, 0.0, str(exc), prover=backend.name)
        if result.accepted:
            shared[key] = (layer, result)
    out["prover"], out["checked"] = prover_json(result), result.accepted
    out["reason"] = reason if result.accepted else reason + f"; certificate {result.outcome.value}: not checked"
    return out
