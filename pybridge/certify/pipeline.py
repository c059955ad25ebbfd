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

:func:`certify_many` checks several certificates in one coqc run (the library loaded once),
each still judged by its own vetted theorem; :func:`certify_batch` also says which runs it
made (a failed run is split so that one bad certificate never decides another's verdict).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional, Sequence, Union

from pybridge.certify import any_skip, bias_width, generic, skip_bias, skip_width, width
from pybridge.certify.accounting import AxiomMemo
from pybridge.certify.agreement import agreement
from pybridge.certify.driver import Driver, assumptions, counted_axioms, explain, learn, write_driver
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


def _dispatch(instance: Instance, decision: Decision, residues: bool = True) -> Optional[Certificate]:
    """:func:`build_certificate` without the digest check (for reduced blocks, whose decision
    is the user's). ``residues=False``: partial certificates keep their block's entries (a
    glue that reads them asks so)."""
    if decision.verdict in ("outside_hypotheses", "undecided"):
        return None
    if any_skip.applies(instance, decision):  # a singular skip, no R1: certify/CertifyAnySkip.v
        return any_skip.build_any_skip_certificate(instance, decision)
    if skip_bias.applies(instance) and decision.result not in ("R2", "R3"):  # R1 with biases
        return skip_bias.build_skip_bias_certificate(instance, decision, _dispatch)
    if width.handles(decision):  # R8 / R8' / R9
        info = decision.width_info
        if info is not None and decision.result not in ("R2", "R3"):
            if instance.has_bias:  # R8 with biases: certify/CertifyBiasWidth.v
                return bias_width.build_bias_r8(instance, decision, info)
            if instance.skip is not None:  # R1 + R8: certify/CertifySkipWidth.v
                return skip_width.build_skip_r8(instance, decision, info)
        return width.build_width_certificate(instance, decision, residues)
    return generic.build_generic_certificate(instance, decision, residues)


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
                      summary: str, note: str = "", together: int = 1) -> ProverResult:
    """An accepted coqc run judged by the assumptions it printed for the checked theorem:
    rejected when they are ``missing`` (that message) or one is not allowed
    (:data:`pybridge.prover.ALLOWED_AXIOMS`, primitive integers); else accepted, its message
    ``summary`` and the axioms, then ``note``. ``together > 1``: the axioms are those of that
    many vetted theorems of one run together (a superset of each one's), and the message
    says so."""
    if axioms is None:
        return replace(res, outcome=ProverOutcome.REJECTED, message=missing)
    disallowed = [a for a in axioms if a not in ALLOWED_AXIOMS and a not in PRIMITIVE_INT_AXIOMS]
    if disallowed:
        return replace(res, outcome=ProverOutcome.REJECTED,
                       message=f"disallowed assumptions: {', '.join(disallowed)}")
    prim = sum(a in PRIMITIVE_INT_AXIOMS for a in axioms)
    named = [a for a in axioms if a not in PRIMITIVE_INT_AXIOMS]
    extra = f" + {prim} primitive-integer axioms" if prim else ""
    whose = f" (of the {together} vetted statements of this coqc run together)" if together > 1 else ""
    return replace(res, message=f"{summary}; axioms{whose}: {', '.join(named) or 'none'}{extra}{note}")


def _memo(backend: ProverBackend) -> AxiomMemo:
    """The backend's memory of library axioms (a fresh one, kept nowhere, if it has none)."""
    memo = getattr(backend, "assumption_memo", None)
    return memo if isinstance(memo, dict) else {}


def check_vetted(stem: str, source: str, claims: Sequence[Expected], backend: ProverBackend, *,
                 timeout: float, summary: str, note: str = "") -> ProverResult:
    """One coqc run of a driver that loads the certificate ``source`` and has Coq check each
    claim's theorem against that claim (:mod:`.driver`, axioms read from the vetted
    statement's ``Print Assumptions``, not counted part by part); accepted only when every
    assumption is allowed (:func:`judge_assumptions`). For certificates checked one at a
    time (sublayers, post-LayerNorm); :func:`certify_many` batches the bare ones."""
    if not claims:
        return ProverResult(ProverOutcome.REJECTED, 0.0, "no expected statement to vet the certificate against",
                            prover=backend.name)
    drv = write_driver([(stem, source, exp) for exp in claims], count=False)
    res = backend.check_files([*drv.files, (drv.stem, drv.source)], main=drv.stem, timeout=timeout)
    if not res.accepted:
        return replace(res, message=explain(res.message, drv))
    theorems = "`, `".join(exp.theorem for exp in claims)
    return judge_assumptions(res, assumptions(res.message, drv.tag),
                             f"the vetted `{theorems}`'s Print Assumptions did not run",
                             f"{summary}; statement vetted against the instance", note)


def _run(preps: Sequence[_Prepared], backend: ProverBackend, timeout: float,
         keep_dir: Optional[Path], count: bool = True) -> tuple[ProverResult, Driver, list[Optional[ProverResult]]]:
    """One coqc run of a driver over ``preps``: the run's own result, its driver, and one
    result per certificate (the run's seconds shared equally; None: accepted by Coq but its
    axioms could not be counted part by part, to be checked again without ``count``)."""
    memo = _memo(backend)
    drv = write_driver([(p.cert.stem, p.cert.source, p.expected) for p in preps], memo=memo, count=count)
    res = backend.check_files([*drv.files, (drv.stem, drv.source)], main=drv.stem, timeout=timeout,
                              keep_dir=keep_dir)
    if keep_dir is not None:  # each certificate as written too (its slot read the data as aliases)
        for stem, text in drv.originals:
            (keep_dir / f"{stem}.v").write_text(text)
    if res.accepted and drv.learned:
        learn(res.message, drv, memo)
        remember = getattr(backend, "remember", None)
        if callable(remember):
            remember()
    walked = sum(c is None for c in drv.counted)
    out: list[Optional[ProverResult]] = []
    for i, (prep, fstem) in enumerate(zip(preps, drv.kept)):
        kept = str(keep_dir / f"{fstem}.v") if keep_dir is not None else None
        share = replace(res, seconds=res.seconds / len(preps), kept_path=kept)
        if not res.accepted:
            out.append(replace(share, message=explain(share.message, drv)))
            continue
        summary = f"{prep.cert.summary}; statement vetted against the instance"
        if drv.counted[i] is not None:
            axioms = counted_axioms(res.message, drv, i, memo)
            out.append(None if axioms is None else judge_assumptions(
                share, axioms, "", summary, prep.note))
        else:
            out.append(judge_assumptions(share, assumptions(res.message, drv.tag),
                                         "the vetted statement's Print Assumptions did not run",
                                         summary, prep.note, walked))
    return res, drv, out


_LOCATION = re.compile(r'File "(?:[^"\n]*/)?([A-Za-z][A-Za-z0-9_]*)\.v", line ([0-9]+)')


def _in_library_lines(output: str, drv: Driver) -> bool:
    """Whether coqc's error is the driver's own reading of a counted item: on one of its
    lines reading library names, or a term it wrote from a certificate's proof that does
    not read (a name or notation read otherwise there; not a statement that differs)."""
    found = [m for m in _LOCATION.finditer(output) if m.group(1) == drv.stem]
    if not found:
        return False
    line = int(found[-1].group(2))
    if drv.library_lines[0] <= line <= drv.library_lines[1]:
        return True
    lines = drv.source.splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return (text.startswith((f"Definition vetted_{drv.tag}_", f"Definition parts_{drv.tag}_"))
            and "while it is expected to have type" not in output)


def culprit(output: str, drv: Driver) -> Optional[int]:
    """Which certificate of a failed driver run the error is about (None: not known, e.g. a
    timeout or a crash). Read from coqc's error location: a line of a certificate file, or a
    line of the driver inside one certificate's module, lemma or check. Only used to choose
    what to run again: every verdict comes from a run of its own."""
    found: Optional[re.Match[str]] = None
    for match in _LOCATION.finditer(output):
        found = match
    if found is None:
        return None
    stem, line = found.group(1), int(found.group(2))
    if stem in drv.loads:
        return drv.loads.index(stem)
    if stem != drv.stem:
        return None
    item = re.compile(rf"(?:Expected|Slot|same|vetted|begin|end)_{re.escape(drv.tag)}_([0-9]+)(?![0-9])")
    lines = drv.source.splitlines()
    for text in reversed(lines[:min(line, len(lines))]):
        hit = item.search(text)
        if hit is not None:
            k = int(hit.group(1))
            return k if k < len(drv.loads) else None
    return None


@dataclass(frozen=True)
class BatchRun:
    """One prover run of :func:`certify_batch`: the pairs it checked (indices), its seconds
    and outcome."""

    members: tuple[int, ...]
    seconds: float
    outcome: ProverOutcome


@dataclass(frozen=True)
class BatchOutcome:
    """What :func:`certify_batch` answers: one result per pair (None: nothing to certify),
    the prover runs made, and the seconds spent per pair before the prover (writing and
    vetting its certificate)."""

    results: tuple[Optional[ProverResult], ...]
    runs: tuple[BatchRun, ...]
    prepare_seconds: tuple[float, ...]

    def run_of(self, i: int) -> Optional[BatchRun]:
        """The run that gave pair ``i`` its result (its last one; None: no prover run)."""
        return next((r for r in reversed(self.runs) if i in r.members), None)

    def runs_of(self, i: int) -> int:
        """How many prover runs pair ``i`` took part in (2 or more: checked again after a
        run with other certificates failed)."""
        return sum(i in r.members for r in self.runs)


def _settle(group: list[tuple[int, _Prepared]], backend: ProverBackend, timeout: float,
            keep_dir: Optional[Path], out: list[Optional[ProverResult]], runs: list[BatchRun],
            count: bool = True) -> None:
    """Check ``group`` in one run; when that run fails, the certificate the error names is
    checked alone and the others together again; a failure naming none (a timeout, a crash)
    has each checked alone. So one bad certificate never decides another's verdict."""
    res, drv, results = _run([p for _, p in group], backend, timeout * len(group), keep_dir, count)
    runs.append(BatchRun(tuple(k for k, _ in group), res.seconds, res.outcome))
    if res.accepted and any(r is None for r in results):
        # Coq accepted, but some item's axioms could not be counted part by part: those
        # items again, their axioms printed the plain way
        _settle([item for item, r in zip(group, results) if r is None], backend, timeout, keep_dir,
                out, runs, count=False)
        group, results = ([item for item, r in zip(group, results) if r is not None],
                          [r for r in results if r is not None])
        if not group:
            return
    if not res.accepted and count and res.outcome is ProverOutcome.REJECTED and _in_library_lines(res.message, drv):
        # the driver could not read a library name the way the certificate did: the same
        # certificates again, their axioms printed the plain way
        _settle(group, backend, timeout, keep_dir, out, runs, count=False)
        return
    if len(group) > 1 and res.accepted and not all(r is not None and r.accepted for r in results):
        # the run's walked axioms are its theorems' together: one certificate's disallowed
        # axiom would reject the others too, so each is checked alone
        for item in group:
            _settle([item], backend, timeout, keep_dir, out, runs, count)
        return
    if res.accepted or len(group) == 1:
        for (k, _), r in zip(group, results):
            out[k] = r
        return
    bad = culprit(res.message, drv) if res.outcome is ProverOutcome.REJECTED else None
    if bad is None:
        for item in group:
            _settle([item], backend, timeout, keep_dir, out, runs, count)
        return
    _settle([group[bad]], backend, timeout, keep_dir, out, runs, count)
    rest = group[:bad] + group[bad + 1:]
    if rest:
        _settle(rest, backend, timeout, keep_dir, out, runs, count)


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
    out: list[Optional[ProverResult]] = [None]
    _settle([(0, prep)], backend, timeout, keep_dir, out, [])  # the batch's rules for one certificate
    return out[0]


def certify_many(pairs: Sequence[tuple[Instance, Decision]], backend: ProverBackend, *,
                 timeout: float = 120.0, keep_dir: Optional[Path] = None,
                 max_bytes: Optional[int] = None) -> list[Optional[ProverResult]]:
    """:func:`certify` for several ``(instance, decision)`` pairs in ONE coqc run.

    Returns one result per pair, in order, each exactly what :func:`certify` would answer
    for that pair (None: nothing to certify). The certificates to check are loaded by one
    driver, each inside its own module and tied to its own vetted theorem (the expected
    claim of its own instance), so the library is loaded once for all of them. See
    :func:`certify_batch` (timeouts, failures, ``max_bytes``).
    """
    return list(certify_batch(pairs, backend, timeout=timeout, keep_dir=keep_dir, max_bytes=max_bytes).results)


def certify_batch(pairs: Sequence[tuple[Instance, Decision]], backend: ProverBackend, *,
                  timeout: float = 120.0, keep_dir: Optional[Path] = None,
                  max_bytes: Optional[int] = None) -> BatchOutcome:
    """:func:`certify_many` with what it did: the prover runs and the seconds per pair.

    ``timeout`` is per certificate (a run gets ``timeout`` times their number); the seconds
    of a run are shared equally among its certificates. ``max_bytes`` caps the certificate
    text of one run (coqc's memory grows with what it reads): the certificates are split
    into consecutive runs under it (one certificate over it runs alone). When a run does not
    succeed, the certificate its error names is checked alone and the others together again;
    after a timeout or a crash each is checked alone: one bad certificate never makes
    another's verdict, and no certificate is accepted but by a successful run.
    """
    pairs = list(pairs)
    out: list[Optional[ProverResult]] = []
    prepare: list[float] = []
    todo: list[tuple[int, _Prepared]] = []
    for k, (instance, decision) in enumerate(pairs):
        start = time.monotonic()
        prep = _prepare(instance, decision, backend)
        prepare.append(time.monotonic() - start)
        out.append(prep if not isinstance(prep, _Prepared) else None)
        if isinstance(prep, _Prepared):
            todo.append((k, prep))
    runs: list[BatchRun] = []
    group: list[tuple[int, _Prepared]] = []
    size = 0
    for item in todo:
        length = len(item[1].cert.source)
        if group and max_bytes is not None and size + length > max_bytes:
            _settle(group, backend, timeout, keep_dir, out, runs)
            group, size = [], 0
        group.append(item)
        size += length
    if group:
        _settle(group, backend, timeout, keep_dir, out, runs)
    return BatchOutcome(tuple(out), tuple(runs), tuple(prepare))
