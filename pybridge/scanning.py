"""Scanning a checkpoint: every MLP block found, decided, certified and reported per layer.

Layers are read one at a time (:mod:`pybridge.io.checkpoints`); weight-dependent layers can
be analysed in worker processes (``jobs``). Each layer's verdict comes from
:func:`pybridge.checking.check` on that layer's own weights.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from pybridge.checking import check, positive_int, report_to_json
from pybridge.coq.backend import CoqBackend
from pybridge.decision import decide
from pybridge.errors import InputError
from pybridge.io import parse_activation
from pybridge.model import Activation, Decision, Instance, Report
from pybridge.prover import ProverBackend


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
    """Check every MLP block of a checkpoint (see :mod:`pybridge.io.checkpoints`).

    Gated layers are read lazily (their verdict does not depend on the weights);
    ungated layers with more than ``max_entries`` entries per matrix are reported
    ``undecided`` (not analysed) rather than converted. A certificate that only
    depends on (activation, d, n) is checked once and shared by equal layers.
    ``progress(k, total, name)`` is called before layer k (0-based) is analysed; with
    ``jobs > 1`` the weight-dependent layers are analysed in that many processes and
    ``progress(k, total, name)`` reports k layers done, ``name`` the last one finished.
    """
    from pybridge.io import checkpoints as ck

    if isinstance(activation, str):
        activation = parse_activation(activation)
    if activation is not None and not isinstance(activation, Activation):
        raise InputError(f"activation must be an Activation or a name, not {type(activation).__name__}")
    if mapping is not None and not (isinstance(mapping, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in mapping.items())):
        raise InputError("mapping must be a dict of role -> tensor name template")
    positive_int("max_entries", max_entries)
    positive_int("jobs", jobs)
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
    from pybridge.io import checkpoints as ck

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
        from pybridge.exact.modular import use_one_blas_thread

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
