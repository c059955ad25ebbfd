"""From a decision to a checked certificate: pick the writer, run the prover, vet the result.

:func:`build_certificate` chooses the writer of the decision's kind (each writer only
serialises exact evidence); :func:`certify` has the prover check the file and accepts only
when Coq does and every assumption is allowed (:data:`pybridge.prover.ALLOWED_AXIOMS`,
primitive integers), after the exact agreement check of a partial certificate's extract.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Optional

from pybridge.certify import bias_width, generic, skip_bias, skip_width, width
from pybridge.certify.agreement import agreement
from pybridge.certify.kinds import CannotCertify, Certificate
from pybridge.coq.protocol import final_assumptions
from pybridge.model import Decision, Instance
from pybridge.prover import ALLOWED_AXIOMS, PRIMITIVE_INT_AXIOMS, ProverBackend, ProverOutcome, ProverResult


def build_certificate(instance: Instance, decision: Decision) -> Optional[Certificate]:
    """The Coq certificate for ``decision`` (None: nothing to certify).

    Raises :class:`CannotCertify` when the verdict is of a certifiable kind but
    no certificate can be written (encoding limits, missing evidence, an
    activation Coq does not support yet).
    """
    if decision.verdict in ("outside_hypotheses", "undecided"):
        return None
    if skip_bias.applies(instance) and decision.result not in ("R2", "R3"):  # R1 with biases
        return skip_bias.build_skip_bias_certificate(instance, decision, build_certificate)
    if width.handles(decision):  # R8 / R8' / R9
        info = decision.width_info
        if info is not None and decision.result not in ("R2", "R3"):
            if instance.has_bias:  # R8 with biases: certify/CertifyBiasWidth.v
                return bias_width.build_bias_r8(instance, decision, info)
            if instance.skip is not None:  # R1 + R8: certify/CertifySkipWidth.v
                return skip_width.build_skip_r8(instance, decision, info)
        return width.build_width_certificate(instance, decision)
    return generic.build_generic_certificate(instance, decision)


def certify(instance: Instance, decision: Decision, backend: ProverBackend, *,
            timeout: float = 120.0, keep_dir: Optional[Path] = None) -> Optional[ProverResult]:
    """Have the prover check a certificate of ``decision``.

    None when there is nothing to certify (outside the hypotheses, undecided).
    Outcome ``not_certified`` when no certificate can be written; ``accepted``
    only if the file compiles and its ``Print Assumptions verdict`` lists only
    allowed axioms; ``timeout`` when the prover ran out of time.
    """
    try:
        cert = build_certificate(instance, decision)
    except CannotCertify as exc:
        return ProverResult(ProverOutcome.NOT_CERTIFIED, 0.0, f"not certified: {exc}", prover=backend.name)
    if cert is None:
        return None
    agree_note = ""
    if cert.extract is not None:
        bad = agreement(cert.extract_of or instance, cert.extract)
        whose = "the weights" if cert.extract_of is None else "the reduced weights (W_up, P^-1 W_down)"
        if bad is not None:
            return ProverResult(ProverOutcome.REJECTED, 0.0, "the certificate's extracted entries disagree with "
                                f"{whose} ({bad})", prover=backend.name)
        agree_note = (f"; {whose} agree exactly with the certificate's {len(cert.extract.block)}-index block "
                      f"(weights sha256 {cert.extract.weights_sha256[:16]}, "
                      f"entries sha256 {cert.extract.extract_sha256[:16]})")
    res = backend.check_file(cert.source, stem=cert.stem, timeout=timeout, keep_dir=keep_dir)
    if not res.accepted:
        return res
    axioms = final_assumptions(res.message)
    if axioms is None:
        return replace(res, outcome=ProverOutcome.REJECTED, message="no Print Assumptions output")
    disallowed = [a for a in axioms if a not in ALLOWED_AXIOMS and a not in PRIMITIVE_INT_AXIOMS]
    if disallowed:
        return replace(res, outcome=ProverOutcome.REJECTED,
                       message=f"disallowed assumptions: {', '.join(disallowed)}")
    prim = sum(a in PRIMITIVE_INT_AXIOMS for a in axioms)
    named = [a for a in axioms if a not in PRIMITIVE_INT_AXIOMS]
    note = f" + {prim} primitive-integer axioms" if prim else ""
    return replace(res, message=f"{cert.summary}; axioms: {', '.join(named) or 'none'}{note}{agree_note}")
