"""Checking one instance: decide exactly, have the prover check a certificate, cross-check.

``check`` never raises on a rejected certificate: ``report.checked`` is then
False and ``report.prover.outcome`` says why (``rejected``: the CLI exits 1;
``timeout`` and ``not_certified``: exit 0, not a rejection). Bad input raises
:class:`pybridge.errors.InputError`. The public names are gathered in :mod:`pybridge.api`.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

from pybridge.certify.pipeline import certify, foreign
from pybridge.coq.backend import CoqBackend
from pybridge.decision import decide
from pybridge.decision.crosscheck import crosscheck as run_crosscheck
from pybridge.errors import EXIT_OK, EXIT_REJECTED, InputError
from pybridge.io import fraction_to_text, load_instance, parse_activation
from pybridge.model import Activation, Decision, Instance, Report, Witness
from pybridge.prover import ProverBackend, ProverOutcome


def load(
    path: Path | str, activation: Optional[Activation | str] = None, *, max_entries: Optional[int] = None
) -> Instance:
    """Read a ``.json``, ``.npz`` or ``.safetensors`` instance exactly (see :mod:`pybridge.io`).

    ``max_entries`` bounds the entries per matrix (checked before conversion; default
    :data:`pybridge.io.limits.DEFAULT_MAX_ENTRIES`). Bad input raises :class:`InputError`.
    """
    from pybridge.io.limits import DEFAULT_LIMITS, Limits

    if isinstance(activation, str):
        activation = parse_activation(activation)
    limits = DEFAULT_LIMITS if max_entries is None else Limits(max_entries=positive_int("max_entries", max_entries))
    return load_instance(path, activation, limits=limits)


def positive_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{name} must be a positive integer, got {value!r:.40}")
    return value


def _check_arguments(instance: object, timeout: object, keep_dir: object, backend: object,
                     decision: object) -> None:
    """:class:`InputError` for arguments of the wrong type (never a raw TypeError)."""
    if not isinstance(instance, Instance):
        raise InputError(f"check needs a pybridge Instance, not {type(instance).__name__}")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise InputError(f"timeout must be a positive number of seconds, got {timeout!r:.40}")
    if keep_dir is not None and not isinstance(keep_dir, (str, Path)):
        raise InputError(f"keep_dir must be a path, not {type(keep_dir).__name__}")
    if keep_dir is not None:
        existing = next((p for p in (Path(keep_dir), *Path(keep_dir).parents) if p.exists()), None)
        if existing is not None and not existing.is_dir():
            raise InputError(f"keep_dir {str(keep_dir)[:200]}: {str(existing)[:200]} is not a directory")
    if backend is not None and not isinstance(backend, ProverBackend):
        raise InputError(f"backend must be a ProverBackend, not {type(backend).__name__}")
    if decision is not None and not isinstance(decision, Decision):
        raise InputError(f"decision must be a Decision, not {type(decision).__name__}")


def check(
    instance: Instance,
    *,
    prove: bool = True,
    timeout: float = 120.0,
    keep_dir: Optional[Path] = None,
    backend: Optional[ProverBackend] = None,
    crosscheck: bool = True,
    z3_timeout: float = 10.0,
    use_z3: bool = True,
    decision: Optional[Decision] = None,
    width: Optional[int] = None,
    min_width: bool = False,
) -> Report:
    """Decide ``instance`` exactly, have the prover check a certificate, cross-check.

    ``prove=False`` skips the prover (``checked`` stays False). ``keep_dir`` keeps
    the generated certificate. ``decision`` may be passed to reuse an earlier one made by
    ``decide`` for these same weights: :class:`InputError` when its ``weights_sha256`` is
    not this instance's digest (a decision for other weights, or one built by hand).
    ``timeout`` may be ``inf`` (no time limit).
    ``report.checked`` is True only when the prover accepted the certificate.
    """
    _check_arguments(instance, timeout, keep_dir, backend, decision)
    if decision is not None:
        why = foreign(instance, decision)
        if why is not None:
            raise InputError(f"decision refused: {why}")
    timings: dict[str, float] = {}
    start = time.monotonic()
    if decision is None:
        decision = decide(instance, width=width, min_width=min_width)
    timings["decide"] = round(time.monotonic() - start, 4)
    report = Report(
        instance_source=instance.source,
        d=instance.d,
        n=instance.n,
        activation=instance.activation.label,
        decision=decision,
    )
    if prove:
        backend = backend or CoqBackend()
        start = time.monotonic()
        result = certify(
            instance, decision, backend, timeout=timeout,
            keep_dir=Path(keep_dir) if keep_dir is not None else None,
        )
        timings["certify"] = round(time.monotonic() - start, 4)
        report.prover = result
        report.checked = bool(result is not None and result.accepted)
        if result is not None:
            report.certificate_path = result.kept_path
    if crosscheck:
        start = time.monotonic()
        report.crosscheck = run_crosscheck(
            instance, decision, z3_timeout=z3_timeout, use_z3=use_z3
        ).to_json()
        timings["crosscheck"] = round(time.monotonic() - start, 4)
    report.timings = timings
    return report


def not_certified(report: Report) -> bool:
    """No certificate could be written for a certifiable verdict (e.g. encoding limits)."""
    return report.prover is not None and report.prover.outcome is ProverOutcome.NOT_CERTIFIED


def timed_out(report: Report) -> bool:
    """The prover ran out of time on the certificate (not a rejection)."""
    return report.prover is not None and report.prover.outcome is ProverOutcome.TIMEOUT


def rejected(report: Report) -> bool:
    """The prover ran on a certificate and did not accept it."""
    return report.prover is not None and report.prover.outcome is ProverOutcome.REJECTED


def _need_report(report: object) -> None:
    if not isinstance(report, Report):
        raise InputError(f"expected a pybridge Report, not {type(report).__name__}")


def exit_code(report: Report) -> int:
    """0 for any verdict (a timeout or an uncertifiable instance included), 1 when the
    prover rejected the certificate (:mod:`pybridge.errors`)."""
    _need_report(report)
    return EXIT_REJECTED if rejected(report) else EXIT_OK


def _matrix_json(m) -> list[list[str]]:
    return [[fraction_to_text(x) for x in row] for row in m]


def witness_to_json(w: Optional[Witness]) -> Optional[dict]:
    """Subset S and residual-free weights, exact ``"p/q"`` strings."""
    if w is None:
        return None
    doc = {"subset": list(w.subset), "W_up": _matrix_json(w.W_up), "W_down": _matrix_json(w.W_down)}
    if w.b_down is not None:
        doc["b_down"] = [fraction_to_text(x) for x in w.b_down]
    b_up = getattr(w, "b_up", None)
    if b_up is not None:
        doc["b_up"] = [fraction_to_text(x) for x in b_up]
    return doc


def width_to_json(report: Report) -> dict:
    """``width``, ``min_width``, ``min_width_exact``, bounds and the explicit witness block (width route)."""
    d = report.decision
    info = d.width_info
    doc: dict = {"width": d.width if d.width is not None else report.n}
    if info is None:
        return doc
    doc.update({
        "ridges": info.k,
        "min_width": info.min_width,
        "min_width_exact": info.min_exact if info.min_lower is not None else None,
        "min_width_lower": info.min_lower,
        "min_width_upper": info.min_upper,
    })
    if info.block is not None:
        b = info.block
        doc["witness_block"] = {
            "W_up": _matrix_json(b.W_up), "b_up": [fraction_to_text(x) for x in b.b_up],
            "W_down": _matrix_json(b.W_down), "b_down": [fraction_to_text(x) for x in b.b_down],
            "padding_rows": b.padding,  # zero rows (W_up, b_up and W_down columns zero) not listed
        }
        if b.sigma_constants:  # the output bias is b_down + sum b sigma(c) (irrational: kept symbolic)
            doc["witness_block"]["b_down_plus_sigma"] = [
                {"c": fraction_to_text(c), "b": [fraction_to_text(x) for x in col]} for c, col in b.sigma_constants]
    if info.data is not None:
        doc["width_data"] = {"T": list(info.data.T), "S": list(info.data.S), "r": info.data.r}
    return doc


def report_to_json(report: Report) -> dict:
    """The JSON document ``pybridge check --json`` prints."""
    _need_report(report)
    d = report.decision
    prover = None
    if report.prover is not None:
        msg = report.prover.message
        prover = {
            "name": report.prover.prover,
            "outcome": report.prover.outcome.value,
            "accepted": report.prover.accepted,
            "rejected": rejected(report),
            "seconds": round(report.prover.seconds, 3),
            "message": msg if len(msg) <= 2000 else msg[:2000] + "...",
        }
    return {
        "source": report.instance_source,
        "activation": report.activation,
        "d": report.d,
        "n": report.n,
        "verdict": d.verdict,
        "result": d.result,
        "theorem": d.theorem,
        "reason": d.reason,
        "generic": d.generic,
        "method": d.method,
        "skip_reduced": d.skip_inverse is not None,
        "checked": report.checked,
        "prover": prover,
        "certificate": report.certificate_path,
        "witness": witness_to_json(d.witness),
        **width_to_json(report),
        "crosscheck": report.crosscheck,
        "timings": report.timings,
    }
