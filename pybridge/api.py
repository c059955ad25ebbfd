"""The typed Python API: read an instance, decide, certify with Coq, cross-check.

>>> from pybridge.api import load, check, report_to_json
>>> report = check(load("examples/relu_absorbable.json"))      # doctest: +SKIP
>>> report.decision.verdict, report.checked                     # doctest: +SKIP
('absorbable', True)

``check`` never raises on a rejected certificate: ``report.checked`` is then
False and ``report.prover.outcome`` says why (``rejected``: the CLI exits 1;
``timeout`` and ``not_certified``: exit 0, not a rejection). Bad input raises
:class:`pybridge.errors.InputError`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from .coq.backend import CoqBackend
from .coq.certificates import certify
from .crosscheck import crosscheck as run_crosscheck
from .decision import decide
from .errors import EXIT_OK, EXIT_REJECTED, InputError
from .io import fraction_to_text, load_instance, parse_activation
from .model import Activation, Decision, Instance, Report, Witness
from .prover import ProverBackend, ProverOutcome

__all__ = [
    "load",
    "check",
    "scan",
    "report_to_json",
    "exit_code",
    "parse_activation",
    "Activation",
    "Instance",
    "Report",
    "ScanResult",
]


def load(
    path: Path | str, activation: Optional[Activation | str] = None, *, max_entries: Optional[int] = None
) -> Instance:
    """Read a ``.json``, ``.npz`` or ``.safetensors`` instance exactly (see :mod:`pybridge.io`).

    ``max_entries`` bounds the entries per matrix (checked before conversion; default
    :data:`pybridge.io.limits.DEFAULT_MAX_ENTRIES`). Bad input raises :class:`InputError`.
    """
    from .io.limits import DEFAULT_LIMITS, Limits

    if isinstance(activation, str):
        activation = parse_activation(activation)
    limits = DEFAULT_LIMITS if max_entries is None else Limits(max_entries=_positive_int("max_entries", max_entries))
    return load_instance(path, activation, limits=limits)


def _positive_int(name: str, value: object) -> int:
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
    the generated certificate. ``decision`` may be passed to reuse an earlier one.
    ``report.checked`` is True only when the prover accepted the certificate.
    """
    _check_arguments(instance, timeout, keep_dir, backend, decision)
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


# ---------------------------------------------------------------- checkpoints


@dataclass
class LayerReport:
    """One layer of a scanned checkpoint.

    ``status``: ``ok`` (analysed), ``too_large`` (not analysed, over ``max_entries``),
    ``missing_tensor`` / ``extra_tensor`` (the layer is not whole: never analysed as
    another kind of block), ``bad_tensor`` (a tensor is unreadable, NaN, wrong shape).
    ``report`` is None unless the layer was analysed or is ``too_large``.
    """

    layer: str
    family: str
    report: Optional[Report]
    note: str = ""
    status: str = "ok"


@dataclass
class ScanResult:
    """All layers of a checkpoint, and how the activation was chosen."""

    checkpoint: str
    model_type: str
    activation_note: str
    layers: list[LayerReport] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[LayerReport]:
        """Layers that could not be analysed because the checkpoint is not whole or unreadable."""
        return [lr for lr in self.layers if lr.status not in ("ok", "too_large")]

    def to_json(self) -> dict:
        counts: dict[str, int] = {}
        statuses: dict[str, int] = {}
        for lr in self.layers:
            statuses[lr.status] = statuses.get(lr.status, 0) + 1
            if lr.report is not None:
                counts[lr.report.decision.verdict] = counts.get(lr.report.decision.verdict, 0) + 1
        return {
            "checkpoint": self.checkpoint,
            "model_type": self.model_type,
            "activation_note": self.activation_note,
            "notes": list(self.notes),
            "summary": {
                "layers": len(self.layers),
                "statuses": statuses,
                "verdicts": counts,
                "checked": sum(lr.report.checked for lr in self.layers if lr.report is not None),
            },
            "layers": [
                {"layer": lr.layer, "family": lr.family, "status": lr.status, "note": lr.note,
                 **(report_to_json(lr.report) if lr.report is not None else {"verdict": None, "checked": False})}
                for lr in self.layers
            ],
        }


def _weight_independent(instance: Instance, decision: Decision) -> bool:
    """R2/R3 verdicts for bias-free, identity-skip blocks depend on (activation, d, n) only."""
    act = instance.activation
    homogeneous = act.homogeneous_degree is not None and act.homogeneous_degree != 1
    return (
        decision.verdict == "not_absorbable"
        and (act.gated or homogeneous)
        and not instance.has_bias
        and instance.skip is None
    )


def scan(
    path: Path | str,
    *,
    activation: Optional[Activation | str] = None,
    mapping: Optional[dict[str, str]] = None,
    transposed: bool = False,
    prove: bool = True,
    timeout: float = 120.0,
    backend: Optional[ProverBackend] = None,
    max_entries: int = 1_000_000,
    crosscheck_entries: int = 1_000_000,
    progress: Optional[Callable[[int, int, str], None]] = None,
    jobs: int = 1,
) -> ScanResult:
    """Check every MLP block of a checkpoint (see :mod:`pybridge.checkpoints`).

    Gated layers are read lazily (their verdict does not depend on the weights);
    ungated layers with more than ``max_entries`` entries per matrix are reported
    ``undecided`` (not analysed) rather than converted. A certificate that only
    depends on (activation, d, n) is checked once and shared by equal layers.
    ``progress(k, total, name)`` is called before layer k (0-based) is analysed; with
    ``jobs > 1`` the weight-dependent layers are analysed in that many processes and
    ``progress(k, total, name)`` reports k layers done, ``name`` the last one finished.
    """
    from . import checkpoints as ck

    if isinstance(activation, str):
        activation = parse_activation(activation)
    if activation is not None and not isinstance(activation, Activation):
        raise InputError(f"activation must be an Activation or a name, not {type(activation).__name__}")
    if mapping is not None and not (isinstance(mapping, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in mapping.items())):
        raise InputError("mapping must be a dict of role -> tensor name template")
    _positive_int("max_entries", max_entries)
    _positive_int("jobs", jobs)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise InputError(f"timeout must be a positive number of seconds, got {timeout!r:.40}")
    ckpt = ck.open_checkpoint(path)
    layers = ck.find_mapped_layers(ckpt, mapping, transposed) if mapping else ck.find_layers(ckpt)
    if not layers:
        raise InputError(f"{Path(path).name}: no recognisable MLP block (use --map)")
    result = ScanResult(str(path), ckpt.model_type, "", notes=ckpt.notes)
    notes = set()
    shared: dict[tuple, tuple[str, Report]] = {}
    backend = backend or (CoqBackend() if prove else None)
    pool = _ScanPool(path, mapping, transposed, jobs, dict(prove=prove, timeout=timeout, backend=backend,
                     crosscheck_entries=crosscheck_entries)) if jobs > 1 else None
    for k, layer in enumerate(layers):
        if progress is not None and pool is None:
            progress(k, len(layers), layer.name)
        if layer.status != "ok":
            result.layers.append(LayerReport(layer.name, layer.family, None, layer.problem, layer.status))
            continue
        if activation is not None:
            act, note = activation, f"--activation {activation.label}"
        else:
            act, note = ck.config_activation(ckpt, layer.gated, layer)
        notes.add(note)
        try:
            d, n = ck.layer_shape(layer)
            unread = not act.gated and (d * n > max_entries or pool is not None)  # workers read their own
            instance = None if unread else ck.load_layer(layer, act, lazy=act.gated)
        except InputError as exc:
            result.layers.append(LayerReport(layer.name, layer.family, None, str(exc), "bad_tensor"))
            continue
        if not act.gated and d * n > max_entries:
            decision = Decision(
                "undecided",
                None,
                None,
                f"not analysed: {d}x{n} exceeds --max-entries {max_entries} for exact conversion",
                method="skipped",
            )
            rep = Report(layer.name, d, n, act.label, decision)
            result.layers.append(LayerReport(layer.name, layer.family, rep, "too large", "too_large"))
            continue
        if pool is not None and not act.gated:
            pool.submit(len(result.layers), k, layer.name, act)
            result.layers.append(LayerReport(layer.name, layer.family, None, "pending"))
            continue
        assert instance is not None  # only too-large or pooled ungated layers are left unread, above
        start = time.monotonic()
        decision = decide(instance)
        decide_s = time.monotonic() - start
        key = (act, d, n, decision.verdict, decision.theorem)
        lr_note = ""
        if prove and _weight_independent(instance, decision) and key in shared:
            first, prev = shared[key]
            rep = Report(layer.name, d, n, act.label, decision, prev.checked, prev.prover)
            rep.timings = {"decide": round(decide_s, 4)}
            lr_note = f"certificate shared with {first}"
        else:
            rep = check(
                instance,
                prove=prove,
                timeout=timeout,
                backend=backend,
                crosscheck=d * n <= crosscheck_entries,
                use_z3=False,
                decision=decision,
            )
            rep.timings["decide"] = round(decide_s, 4)
            if prove and _weight_independent(instance, decision):
                shared[key] = (layer.name, rep)
        result.layers.append(LayerReport(layer.name, layer.family, rep, lr_note))
    if pool is not None:
        pool.collect(result, len(layers), progress)
    result.activation_note = "; ".join(sorted(notes))
    return result


def _analyse_layer(instance: Instance, name: str, d: int, n: int, act: Activation, *, prove: bool,
                   timeout: float, backend: Optional[ProverBackend], crosscheck_entries: int) -> Report:
    """Decide and certify one weight-dependent layer."""
    start = time.monotonic()
    decision = decide(instance)
    decide_s = time.monotonic() - start
    rep = check(instance, prove=prove, timeout=timeout, backend=backend, crosscheck=d * n <= crosscheck_entries,
                use_z3=False, decision=decision)
    rep.timings["decide"] = round(decide_s, 4)
    return rep


def _scan_worker(path: str, mapping: Optional[dict[str, str]], transposed: bool, k: int, act: Activation,
                 options: dict) -> Report:
    """In a worker process: reopen the checkpoint, load layer ``k``, analyse it."""
    from . import checkpoints as ck

    ckpt = ck.open_checkpoint(path)
    layers = ck.find_mapped_layers(ckpt, mapping, transposed) if mapping else ck.find_layers(ckpt)
    layer = layers[k]
    d, n = ck.layer_shape(layer)
    instance = ck.load_layer(layer, act, lazy=False)
    return _analyse_layer(instance, layer.name, d, n, act, **options)


class _ScanPool:
    """Weight-dependent layers of a scan analysed in worker processes (``scan(jobs=N)``)."""

    def __init__(self, path: Path | str, mapping: Optional[dict[str, str]], transposed: bool, jobs: int,
                 options: dict) -> None:
        import concurrent.futures as cf
        import multiprocessing as mp

        self.args = (str(path), mapping, transposed)
        self.options = options
        from .modular import use_one_blas_thread

        # one process per core: BLAS threads inside the workers would only compete with them
        self.executor = cf.ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("spawn"),
                                               initializer=use_one_blas_thread)
        self.futures: dict = {}

    def submit(self, slot: int, k: int, name: str, act: Activation) -> None:
        fut = self.executor.submit(_scan_worker, *self.args, k, act, self.options)
        self.futures[fut] = (slot, name)

    def collect(self, result: ScanResult, total: int, progress: Optional[Callable[[int, int, str], None]]) -> None:
        """Wait for the workers; fill the pending layers in order of the checkpoint."""
        import concurrent.futures as cf

        done = total - len(self.futures)
        if progress is not None:
            progress(done, total, "")
        try:
            for fut in cf.as_completed(self.futures):
                slot, name = self.futures[fut]
                lr = result.layers[slot]
                try:
                    lr.report = fut.result()
                    lr.note = ""
                except InputError as exc:
                    lr.note, lr.status = str(exc), "bad_tensor"
                done += 1
                if progress is not None:
                    progress(done, total, name)
        finally:
            self.executor.shutdown(wait=True, cancel_futures=True)
