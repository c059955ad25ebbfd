"""Coq certificates for width-route verdicts on blocks with a non-identity skip (R1 + R8, R1 + R8').

The width route decides ``P x + B sigma(A x)`` on the reduced block ``x + B~ sigma(A x)``,
``B~ = P^-1 B`` exactly (R1). The certificate is the bias-free R8 certificate of the reduced
block (:func:`pybridge.certify.width.build_r8`, its theorem renamed
``reduced_verdict``), followed by the skip data of ``certify/CertifySkipWidth.v``: ``P``,
``Q = P^-1`` (``check_inverse``), the user's ``B`` and the check ``check_reduced_down`` that
``Q B`` is the reduced ``B~``; ``cert_skip_reduce`` carries each part of the reduced verdict
(absorbable at ``m``; not absorbable at ``m``; both for the least width) to the user's block.
"""

from __future__ import annotations

from dataclasses import replace

from pybridge.certify.encoding import CoqWriter, columns
from pybridge.certify.kinds import CannotCertify, Certificate
from pybridge.certify.pieces import write_inverse_check, write_skip
from pybridge.certify.pm_facts import PM_FACTS
from pybridge.certify.width import build_r8
from pybridge.exact.linalg import invert, matmul
from pybridge.exact.modular import scale_matrix
from pybridge.exact.width_evidence import WidthInfo
from pybridge.model import Decision, Instance

LIBRARY_FILE = "certify/CertifySkipWidth.v"
_THEOREM = "Theorem verdict : "


def _split(source: str) -> tuple[str, str, str]:
    """``(header before Module Cert., body of the module, the verdict's statement)``."""
    head, sep, rest = source.partition("Module Cert.\n")
    body, sep2, _ = rest.rpartition("End Cert.")
    if not sep or not sep2 or _THEOREM not in body:
        raise CannotCertify("the reduced block's certificate has an unexpected layout")
    stmt = body.split(_THEOREM, 1)[1].split(".\nProof.", 1)[0]
    return head, body.replace(_THEOREM, "Theorem reduced_verdict : ", 1), stmt


def build_skip_r8(inst: Instance, decision: Decision, info: WidthInfo) -> Certificate:
    """The certificate of a width-route verdict on a bias-free block with skip ``P``."""
    from pybridge.decision.width_route import library_has

    if inst.skip is None:
        raise CannotCertify("no skip to reduce")
    if inst.has_bias:
        raise CannotCertify("biases with a non-identity skip: no R1 reduction with biases is written")
    if not library_has(LIBRARY_FILE):
        raise CannotCertify(f"the R1 + R8 checkers ({LIBRARY_FILE}) are not in the library yet")
    Q = decision.skip_inverse if decision.skip_inverse is not None else invert(inst.skip)
    reduced_down = matmul(Q, inst.W_down)
    reduced = Instance(inst.activation, inst.W_up, reduced_down)
    inner = build_r8(reduced, decision, info)
    head, body, stmt = _split(inner.source)
    w = CoqWriter()
    start = len(w.lines)
    write_skip(w, inst)
    write_inverse_check(w, inst, replace(decision, skip_inverse=Q))
    B = scale_matrix(inst.W_down)
    with w.data():
        w.z("dBu", B.den)
        w.rows("CBu", columns(B))
    w.check("rd_ok", "check_reduced_down d n dQ RQ dBu CBu dB CB")
    pm = PM_FACTS.get(inst.activation.name)
    sigma = "relu" if pm is None else pm.sigma

    def part(m: int) -> str:
        return f"absorbable_ungated {sigma} d n {m} (mat_of_rows dP RP) (zmat_rows dA (zrows RA)) (mat_of_cols dBu CBu)"

    def iff(m: int) -> str:
        return f"(cert_skip_reduce {sigma} d n {m}%nat dP RP dQ RQ _ (zmat_rows dA (zrows RA)) dBu CBu dB CB inv_ok rd_ok)"

    m = info.width
    if decision.verdict == "absorbable" and " /\\ " in stmt:
        final = f"{part(m)} /\\ ~ {part(m - 1)}"
        proof = (f"(conj (proj2 {iff(m)} (proj1 reduced_verdict)) "
                 f"(fun H => proj2 reduced_verdict (proj1 {iff(m - 1)} H)))")
    elif decision.verdict == "absorbable":
        final, proof = part(m), f"(proj2 {iff(m)} reduced_verdict)"
    else:
        final, proof = f"~ {part(m)}", f"(fun H => reduced_verdict (proj1 {iff(m)} H))"
    lines = w.lines[start:] + [f"Theorem verdict : {final}.\nProof. exact {proof}. Qed."]
    source = (head + "From Absorb Require Import CheckSkip CertifySkipWidth.\nModule Cert.\n" + body
              + "\n".join(lines) + "\nEnd Cert.\nPrint Assumptions Cert.verdict.\n")
    return Certificate("CertSkipWidth", source, f"{inner.kind}, after skip reduction (R1)",
                            inst.activation.label)
