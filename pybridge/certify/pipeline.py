"""From a decision to a checked certificate: pick the writer, run the prover, vet the result.

:func:`build_certificate` chooses the writer of the decision's kind (each writer only
serialises exact evidence); :func:`certify` has the prover check the file and accepts only
when

- the decision was made for these weights (``Decision.weights_sha256`` is the instance's
  digest, :func:`pybridge.decision.identity.weights_digest`; otherwise ``rejected``, before
  any certificate is written);
- a partial certificate's extract agrees exactly with the weights and its header's digests
  are the recomputed ones;
- Coq accepts the certificate *and* its ``verdict`` proves the statement pybridge expects for
  this instance: a driver written from the instance alone (:mod:`.statement`, :mod:`.driver`)
  loads the certificate and checks ``Cert.verdict`` against the expected claim, in the same
  coqc run;
- every assumption of the vetted theorem is allowed (:data:`pybridge.prover.ALLOWED_AXIOMS`,
  primitive integers).

:func:`certify_many` checks several certificates in one coqc run (the library loaded once).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional, Sequence, Union

from pybridge.certify import bias_width, generic, skip_bias, skip_width, width
from pybridge.certify.agreement import agreement
from pybridge.certify.driver import assumptions, explain, write_driver
from pybridge.certify.kinds import CannotCertify, Certificate
from pybridge.certify.statement import Expected, StatementMismatch, expected_statement, header_digests
from pybridge.decision.identity import weights_digest
from pybridge.model import Decision, Instance
from pybridge.prover import ALLOWED_AXIOMS, PRIMITIVE_INT_AXIOMS, ProverBackend, ProverOutcome, ProverResult


class ForeignDecision(CannotCertify):
    """The decision was made for other weights than the instance's."""


def foreign(instance: Instance, decision: Decision) -> Optional[str]:
    """Why ``decision`` is not this instance's (None: its digest is the instance's)."""
    if decision.weights_sha256 is None:
        return "the decision carries no digest of the weights it was made for (use pybridge.decide)"
    if decision.weights_sha256 != weights_digest(instance):
        return "the decision was made for other weights (its weights digest is not this instance's)"
    return None


def _dispatch(instance: Instance, decision: Decision) -> Optional[Certificate]:
    """:func:`build_certificate` without the digest check (for reduced blocks, whose decision
    is the user's)."""
    if decision.verdict in ("outside_hypotheses", "undecided"):
        return None
    if skip_bias.applies(instance) and decision.result not in ("R2", "R3"):  # R1 with biases
        return skip_bias.build_skip_bias_certificate(instance, decision, _dispatch)
    if width.handles(decision):  # R8 / R8' / R9
        info = decision.width_info
        if info is not None and decision.result not in ("R2", "R3"):
            if instance.has_bias:  # R8 with biases: certify/CertifyBiasWidth.v
                return bias_width.build_bias_r8(instance, decision, info)
            if instance.skip is not None:  # R1 + R8: certify/CertifySkipWidth.v
                return skip_width.build_skip_r8(instance, decision, info)
        return width.build_width_certificate(instance, decision)
    return generic.build_generic_certificate(instance, decision)


def build_certificate(instance: Instance, decision: Decision) -> Optional[Certificate]:
    """The Coq certificate for ``decision`` (None: nothing to certify).

    Raises :class:`ForeignDecision` when ``decision`` was not made for ``instance`` (its
    ``weights_sha256`` differs), :class:`CannotCertify` when the verdict is of a certifiable
    kind but no certificate can be written (encoding limits, missing evidence, an
    activation Coq does not support yet).
    """
    why = foreign(instance, decision)
    if why is not None:
        raise ForeignDecision(why)
    return _dispatch(instance, decision)


@dataclass(frozen=True)
class _Prepared:
    """A certificate ready for the prover, with the claim it must prove."""

    cert: Certificate
    expected: Expected
    note: str


Prepared = Union[_Prepared, ProverResult, None]


def _prepare(instance: Instance, decision: Decision, backend: ProverBackend) -> Prepared:
    """The certificate and its expected claim, or the final answer without the prover."""
    def refuse(outcome: ProverOutcome, msg: str) -> ProverResult:
        return ProverResult(outcome, 0.0, msg, prover=backend.name)

    why = foreign(instance, decision)
    if why is not None:
        return refuse(ProverOutcome.REJECTED, why)
    try:
        cert = _dispatch(instance, decision)
    except CannotCertify as exc:
        return refuse(ProverOutcome.NOT_CERTIFIED, f"not certified: {exc}")
    if cert is None:
        return None
    try:
        expected, note = vet(instance, decision, cert)
    except NotVetted as exc:
        return refuse(ProverOutcome.REJECTED, str(exc))
    return _Prepared(cert, expected, note)


class NotVetted(Exception):
    """A certificate refused before the prover: its extract or header digests disagree with
    the weights, or it does not state the expected verdict (the message says which)."""


def vet(instance: Instance, decision: Decision, cert: Certificate, theorem: str = "verdict") -> tuple[Expected, str]:
    """The claim ``cert``'s ``theorem`` must prove about ``instance`` (written from the
    instance alone, :func:`pybridge.certify.statement.expected_statement`) and a note on a
    partial certificate's extract; :class:`NotVetted` when a partial certificate's extract
    or header digests disagree with the weights or the statement is not a candidate."""
    note = ""
    if cert.extract is not None:
        bad = agreement(cert.extract_of or instance, cert.extract)
        whose = "the weights" if cert.extract_of is None else "the reduced weights (W_up, P^-1 W_down)"
        if bad is not None:
            raise NotVetted(f"the certificate's extracted entries disagree with {whose} ({bad})")
        bad = header_digests(instance, cert)
        if bad is not None:
            raise NotVetted(f"partial certificate: {bad}")
        note = (f"; {whose} agree exactly with the certificate's {len(cert.extract.block)}-index block "
                f"(weights sha256 {cert.extract.weights_sha256[:16]}, "
                f"entries sha256 {cert.extract.extract_sha256[:16]})")
    try:
        return expected_statement(instance, decision, cert, theorem), note
    except StatementMismatch as exc:
        raise NotVetted(f"statement not vetted: {exc}") from exc


def judge_assumptions(res: ProverResult, axioms: Optional[tuple[str, ...]], missing: str,
                      summary: str, note: str = "") -> ProverResult:
    """An accepted coqc run judged by the assumptions it printed for the checked theorem:
    rejected when they are ``missing`` (that message) or one is not allowed
    (:data:`pybridge.prover.ALLOWED_AXIOMS`, primitive integers); else accepted, its message
    ``summary`` and the axioms, then ``note``."""
    if axioms is None:
        return replace(res, outcome=ProverOutcome.REJECTED, message=missing)
    disallowed = [a for a in axioms if a not in ALLOWED_AXIOMS and a not in PRIMITIVE_INT_AXIOMS]
    if disallowed:
        return replace(res, outcome=ProverOutcome.REJECTED,
                       message=f"disallowed assumptions: {', '.join(disallowed)}")
    prim = sum(a in PRIMITIVE_INT_AXIOMS for a in axioms)
    named = [a for a in axioms if a not in PRIMITIVE_INT_AXIOMS]
    extra = f" + {prim} primitive-integer axioms" if prim else ""
    return replace(res, message=f"{summary}; axioms: {', '.join(named) or 'none'}{extra}{note}")


def _judge(res: ProverResult, prep: _Prepared, tag: str, i: int) -> ProverResult:
    """The verdict on certificate ``i`` of a driver run: the vetted theorem's assumptions."""
    return judge_assumptions(res, assumptions(res.message, tag, i),
                             "the vetted statement's Print Assumptions did not run",
                             f"{prep.cert.summary}; statement vetted against the instance", prep.note)


def _run(preps: Sequence[_Prepared], backend: ProverBackend, timeout: float,
         keep_dir: Optional[Path]) -> tuple[bool, list[ProverResult]]:
    """One coqc run of a driver over ``preps``: did coqc succeed, and one result per certificate."""
    drv = write_driver([(p.cert.stem, p.cert.source, p.expected) for p in preps])
    res = backend.check_files([*drv.files, (drv.stem, drv.source)], main=drv.stem, timeout=timeout,
                              keep_dir=keep_dir)
    out = []
    for i, (prep, fstem) in enumerate(zip(preps, drv.loads)):
        kept = str(keep_dir / f"{fstem}.v") if keep_dir is not None else None
        share = replace(res, seconds=res.seconds / len(preps), kept_path=kept)
        out.append(_judge(share, prep, drv.tag, i) if res.accepted
                   else replace(share, message=explain(share.message, drv)))
    return res.accepted, out


def certify(instance: Instance, decision: Decision, backend: ProverBackend, *,
            timeout: float = 120.0, keep_dir: Optional[Path] = None) -> Optional[ProverResult]:
    """Have the prover check a certificate of ``decision`` for ``instance``.

    None when there is nothing to certify (outside the hypotheses, undecided).
    Outcome ``rejected`` without running the prover when the decision was made for other
    weights, a partial certificate's extract or digests disagree with the weights, or the
    certificate does not state the expected verdict about the instance; ``not_certified``
    when no certificate can be written; ``accepted`` only if Coq checks the certificate,
    its ``verdict`` has the expected statement (checked by Coq in the same run) and rests
    on allowed axioms only; ``timeout`` when the prover ran out of time. With ``keep_dir``
    the certificate (``<stem>_<sha>.v``, ``kept_path``) and its driver (``Vet_<sha>.v``,
    which loads it) are kept there.
    """
    prep = _prepare(instance, decision, backend)
    if not isinstance(prep, _Prepared):
        return prep
    return _run([prep], backend, timeout, keep_dir)[1][0]


def certify_many(pairs: Sequence[tuple[Instance, Decision]], backend: ProverBackend, *,
                 timeout: float = 120.0, keep_dir: Optional[Path] = None) -> list[Optional[ProverResult]]:
    """:func:`certify` for several ``(instance, decision)`` pairs in ONE coqc run.

    Returns one result per pair, in order, each exactly what :func:`certify` would answer
    for that pair (None: nothing to certify). The certificates to check are loaded by one
    driver, each inside its own module and tied to its own vetted theorem (the expected
    claim of its own instance), so the library is loaded once for all of them. ``timeout``
    is per certificate (the run gets ``timeout`` times their number); the seconds of the run
    are shared equally among them. When that run does not succeed (one certificate rejected
    or the time limit reached), each certificate is checked again in a run of its own, so
    that one bad certificate does not reject the others.
    """
    pairs = list(pairs)
    out: list[Optional[ProverResult]] = []
    todo: list[tuple[int, _Prepared]] = []
    for k, (instance, decision) in enumerate(pairs):
        prep = _prepare(instance, decision, backend)
        out.append(prep if not isinstance(prep, _Prepared) else None)
        if isinstance(prep, _Prepared):
            todo.append((k, prep))
    if not todo:
        return out
    if len(todo) > 1:
        ran, results = _run([p for _, p in todo], backend, timeout * len(todo), keep_dir)
        if ran:
            for (k, _), r in zip(todo, results):
                out[k] = r
            return out
    for k, prep in todo:
        out[k] = _run([prep], backend, timeout, keep_dir)[1][0]
    return out
