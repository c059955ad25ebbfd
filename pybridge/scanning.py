"""Scanning a checkpoint: every MLP block found, decided, certified and reported per layer.

Layers are read one at a time (:mod:`pybridge.io.checkpoints`). Each layer's verdict
comes from :func:`pybridge.checking.check` on that layer's own weights.

- **Memory.** Before a weight-dependent layer is read, its peak memory is estimated
  (:func:`layer_memory`) and compared with the memory available (``/proc/meminfo``
  ``MemAvailable``, or ``max_memory``); a layer that cannot fit is not analysed and gets
  the status ``too_large`` with the memory it would need. With ``jobs > 1`` a layer starts
  only while the estimates of the running layers fit together.
- **Where.** In this process (``jobs=1``), in ``jobs`` worker processes, or on an existing
  Dask distributed cluster (``cluster="tcp://host:8786"``; the extra ``absorb-bridge[cluster]``),
  whose workers read the checkpoint from the same path (a shared file system).
- **Recording.** With ``json_out`` the report is rewritten atomically each time a layer
  finishes (``"complete": false`` until the end), each layer with the digest of its tensors
  (:func:`layer_digest`); ``resume=True`` reuses the layers of that file recorded for the
  same weights, activation and ``prove``, and analyses the others.

Certificates are asked for in one place, :func:`certify_layers`: a worker (or this process)
decides a batch of consecutive layers (:func:`plan_batches`), then one coqc run checks their
certificates, each layer still reported with its own vetted theorem; the layers of a batch are
recorded, and move the progress callback, one by one as the batch ends.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from pybridge.certify.pipeline import certify_batch
from pybridge.certify.sublayer import analyse_sublayer, finish_deferred, unavailable_sublayer
from pybridge.checking import check, positive_int, rejected, report_to_json
from pybridge.coq.backend import CoqBackend
from pybridge.decision import decide
from pybridge.errors import InputError
from pybridge.files import atomic_write_text
from pybridge.io import parse_activation
from pybridge.model import Activation, Decision, Instance, Report
from pybridge.prover import ProverBackend

#: Peak memory of deciding and certifying one weight-dependent layer, in copies of the
#: float64 ``(n+1) x n`` system of its exact decision (tune to what ``bench/`` measures).
SYSTEM_COPIES = 3.0
#: Bytes held per weight entry while a layer is analysed (its int64 numerator).
WEIGHT_ENTRY_BYTES = 8
#: A worker before any layer: Python, NumPy, SymPy, FLINT, the readers.
BASE_BYTES = 400 * 2**20
#: coqc's memory per certificate of a layer of width ``n``, beyond the first, in bytes per
#: ``n ** 1.5`` (a generic block certificate carries ``2 n sqrt(n)`` numbers, which the driver
#: reads twice: about 0.5 GB at ``n = 3072``, measured with three GPT-2-small certificates).
COQC_BYTES_PER_N15 = 3000
#: coqc's memory per byte of certificate text read in one run (the cap given to
#: :func:`pybridge.certify.pipeline.certify_batch`; 1.7 GB for 10 MB measured).
COQC_BYTES_PER_SOURCE_BYTE = 160
#: At most this many layers' certificates in one coqc run of a scan.
MAX_BATCH_LAYERS = 8

#: Layer statuses: ``ok`` (analysed), ``too_large`` (would not fit in memory, or over
#: ``max_entries``), ``missing_tensor`` / ``extra_tensor`` (the layer is not whole),
#: ``bad_tensor`` (unreadable, NaN, wrong shape), ``duplicate_block`` (the same block under two
#: roots, e.g. ``model.decoder.layers.0`` and ``decoder.layers.0``), ``worker_lost`` (its worker process or
#: cluster worker died with it, twice: killed, or out of memory), ``pending`` (not finished yet: only in a
#: report written while the scan runs).
NOT_ANALYSED = frozenset({"too_large", "missing_tensor", "extra_tensor", "bad_tensor", "duplicate_block",
                          "worker_lost", "pending"})

#: The ``format`` field of a scan report (what ``resume`` accepts).
REPORT_FORMAT = "pybridge-scan-1"

_SIZE_RE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([kmgt]?)(?:i?b)?\s*", re.I)
_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


# ------------------------------------------------------------------ memory


def layer_memory(d: int, n: int, matrices: int = 2) -> int:
    """Estimated peak bytes of deciding and certifying one ungated layer of shape ``d, n``:
    ``BASE_BYTES + SYSTEM_COPIES * 8 (n+1) n + WEIGHT_ENTRY_BYTES * matrices * d * n``."""
    system = 8 * (n + 1) * n
    return BASE_BYTES + int(SYSTEM_COPIES * system) + WEIGHT_ENTRY_BYTES * matrices * d * n


def batch_memory(shapes: Sequence[tuple[int, int]]) -> int:
    """Estimated peak bytes of deciding the layers of ``shapes`` one after the other and
    certifying them in one coqc run: the largest :func:`layer_memory`, plus for each other
    layer its weights (held until the run) and its certificate in coqc."""
    if not shapes:
        return 0
    peaks = [layer_memory(d, n) for d, n in shapes]
    first = peaks.index(max(peaks))
    extra = sum(WEIGHT_ENTRY_BYTES * 2 * d * n + int(COQC_BYTES_PER_N15 * n ** 1.5)
                for i, (d, n) in enumerate(shapes) if i != first)
    return peaks[first] + extra


def batch_size(layers: int, workers: int) -> int:
    """Layers per coqc run when ``layers`` weight-dependent layers share ``workers``: about
    two runs per worker (a killed scan loses at most its running batches; the last
    batches end together), at most :data:`MAX_BATCH_LAYERS`."""
    return max(1, min(MAX_BATCH_LAYERS, -(-layers // (2 * max(1, workers)))))


def available_memory() -> Optional[int]:
    """Bytes this machine can give a new computation (``MemAvailable``), or None when unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def parse_size(text: str) -> int:
    """``"8G"``, ``"512MiB"``, ``"1.5g"``, ``"1000000"`` -> bytes (units are powers of 1024)."""
    match = _SIZE_RE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise InputError(f"--max-memory {str(text)[:40]!r}: expected a size such as 8G, 512M or 1000000 (bytes)")
    value = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    if value <= 0:
        raise InputError(f"--max-memory {text[:40]!r}: must be positive")
    return value


def human_bytes(count: int) -> str:
    """``1536 * 2**20`` -> ``"1.5 GB"`` (powers of 1024)."""
    for unit, size in (("TB", 2**40), ("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return f"{count} B"


# ------------------------------------------------------------------ digests


def layer_digest(layer: Any, *, data: bool = True) -> str:
    """sha256 of a layer's tensors (roles, dtypes, shapes, layout and every byte of data),
    read a block of rows at a time from the memory-mapped file. ``data=False``: the header
    only (roles, dtypes, shapes, layout; prefix ``sha256-header:``), for gated layers, whose
    verdict does not depend on the weights."""
    import numpy as np

    h = hashlib.sha256(b"pybridge-layer-1\0" if data else b"pybridge-layer-header-1\0")
    norm = getattr(layer, "norm", None)
    norm_refs = {k: r for k, r in (("weight", getattr(norm, "weight", None)), ("bias", getattr(norm, "bias", None)))
                 if r is not None}
    if norm is not None:  # the sublayer's verdict rests on its norm (site, eps, gamma and beta)
        h.update(f"norm:{norm.site.position}:{norm.site.kind}:{norm.site.parallel}:{norm.eps}:{norm.status}\0".encode())
    for kind, refs in (("weight", layer.weights), ("bias", layer.biases), ("norm", norm_refs)):
        for role in sorted(refs):
            ref = refs[role]
            if not data:
                dtype = getattr(ref.file.tensors[ref.name], "dtype", "")
                h.update(f"{kind}:{role}:{dtype}:{tuple(ref.shape)}:{bool(layer.transposed)}\0".encode())
                continue
            arr = ref.file.array(ref.name)
            h.update(f"{kind}:{role}:{arr.dtype.str}:{tuple(arr.shape)}:{bool(layer.transposed)}\0".encode())
            if arr.ndim == 0 or arr.size == 0:
                h.update(np.ascontiguousarray(arr).tobytes())
                continue
            row_bytes = max(1, arr.itemsize * (arr.size // arr.shape[0]))
            step = max(1, (8 << 20) // row_bytes)
            for start in range(0, arr.shape[0], step):
                h.update(np.ascontiguousarray(arr[start:start + step]).tobytes())
    return ("sha256:" if data else "sha256-header:") + h.hexdigest()


# ------------------------------------------------------------------ reports


@dataclass
class LayerReport:
    """One layer of a scanned checkpoint.

    ``status``: see :data:`NOT_ANALYSED` (``ok`` when analysed). ``report`` is None unless
    the layer was analysed in this run; ``recorded`` is its JSON entry when it was taken
    from an earlier report (``resume``). ``memory``: the estimated peak bytes (ungated layers).
    """

    layer: str
    family: str
    report: Optional[Report]
    note: str = ""
    status: str = "ok"
    digest: Optional[str] = None
    shape: Optional[tuple[int, int]] = None
    memory: Optional[int] = None
    recorded: Optional[dict] = None
    activation: Optional[str] = None

    def to_json(self) -> dict:
        """This layer's entry of the scan report."""
        if self.recorded is not None:
            return {**self.recorded, "resumed": True}
        doc: dict = {"layer": self.layer, "family": self.family, "status": self.status, "note": self.note}
        if self.report is not None:
            doc.update(report_to_json(self.report))
            doc["sublayer"] = self.report.sublayer
        else:
            doc.update({"verdict": None, "checked": False, "sublayer": None})
            if self.activation is not None:
                doc["activation"] = self.activation
            if self.shape is not None:
                doc["d"], doc["n"] = self.shape
        if self.digest is not None:
            doc["digest"] = self.digest
        if self.memory is not None:
            doc["memory_estimate"] = self.memory
        return doc

    @property
    def rejected(self) -> bool:
        """Coq rejected this layer's certificate (in this run or the recorded one)."""
        if self.report is not None:
            return rejected(self.report)
        prover = (self.recorded or {}).get("prover")
        return isinstance(prover, dict) and prover.get("rejected") is True


@dataclass
class ScanResult:
    """All layers of a checkpoint, and how the activation was chosen."""

    checkpoint: str
    model_type: str
    activation_note: str
    layers: list[LayerReport] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    prove: bool = True
    complete: bool = True
    json_out: Optional[str] = None
    resumed: int = 0

    @property
    def sublayer_problems(self) -> list[tuple[str, dict]]:
        """Analysed layers whose sublayer could not be read (a missing or bad norm tensor, a
        bad eps): ``(layer, sublayer entry)``."""
        out = []
        for lr in self.layers:
            sub = lr.report.sublayer if lr.report is not None else (lr.recorded or {}).get("sublayer")
            if isinstance(sub, dict) and sub.get("status", "ok") != "ok":
                out.append((lr.layer, sub))
        return out

    @property
    def problems(self) -> list[LayerReport]:
        """Layers that were not analysed: too large, not whole, unreadable (or not finished)."""
        return [lr for lr in self.layers if lr.status != "ok"]

    def to_json(self) -> dict:
        """The ``scan --json-out`` document."""
        entries = [lr.to_json() for lr in self.layers]
        counts: dict[str, int] = {}
        statuses: dict[str, int] = {}
        sub_counts: dict[str, int] = {}
        for entry in entries:
            statuses[entry["status"]] = statuses.get(entry["status"], 0) + 1
            if entry.get("verdict") is not None:
                counts[entry["verdict"]] = counts.get(entry["verdict"], 0) + 1
            sub = entry.get("sublayer") or {}
            key = sub.get("verdict") or (sub.get("status") if sub.get("status", "ok") != "ok" else None)
            if key is not None:
                sub_counts[key] = sub_counts.get(key, 0) + 1
        return {
            "format": REPORT_FORMAT,
            "checkpoint": self.checkpoint,
            "model_type": self.model_type,
            "activation_note": self.activation_note,
            "prove": self.prove,
            "complete": self.complete,
            "notes": list(self.notes),
            "summary": {
                "layers": len(entries),
                "statuses": statuses,
                "verdicts": counts,
                "checked": sum(entry.get("checked") is True for entry in entries),
                "sublayer_verdicts": sub_counts,
                "sublayer_checked": sum((entry.get("sublayer") or {}).get("checked") is True for entry in entries),
                "resumed": self.resumed,
            },
            "layers": entries,
        }


# ------------------------------------------------------------------ analysing one layer


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


def decide_layer(instance: Instance) -> tuple[Decision, float]:
    """The exact decision of one layer and the seconds it took."""
    start = time.monotonic()
    decision = decide(instance)
    return decision, time.monotonic() - start


def certify_layers(pairs: Sequence[tuple[Instance, Decision]], *, prove: bool, timeout: float,
                   backend: Optional[ProverBackend], crosscheck_entries: int,
                   max_bytes: Optional[int] = None) -> list[Report]:
    """Certify (and cross-check) the decisions of several layers: the one place a scan asks
    the prover, one report per pair in order.

    The certificates are checked by one coqc run (:func:`pybridge.certify.pipeline.certify_batch`;
    ``max_bytes`` caps one run's certificate text), each layer's verdict still tied to its
    own vetted theorem and assumptions; a rejected certificate is checked again alone and
    its neighbours without it. Timings per layer: ``certify`` = its certificate's writing
    and vetting plus its equal share of the coqc run, ``coqc_run`` = the seconds of that
    whole run, ``coqc_run_layers`` = how many certificates shared it, ``coqc_runs`` (only
    when more than one) = how many runs this certificate took part in.
    """
    reports = [check(instance, prove=False, timeout=timeout, backend=backend,
                     crosscheck=instance.d * instance.n <= crosscheck_entries, use_z3=False, decision=decision)
               for instance, decision in pairs]
    for rep in reports:
        rep.timings.pop("decide", None)  # the scan's own decision time is recorded instead
    if not prove or not reports:
        return reports
    outcome = certify_batch(pairs, backend or CoqBackend(), timeout=timeout, max_bytes=max_bytes)
    for i, rep in enumerate(reports):
        result = outcome.results[i]
        rep.prover = result
        rep.checked = bool(result is not None and result.accepted)
        rep.certificate_path = result.kept_path if result is not None else None
        run = outcome.run_of(i)
        share = run.seconds / len(run.members) if run is not None else 0.0
        rep.timings["certify"] = round(outcome.prepare_seconds[i] + share, 4)
        if run is not None:
            rep.timings["coqc_run"] = round(run.seconds, 4)
            rep.timings["coqc_run_layers"] = len(run.members)
            if outcome.runs_of(i) > 1:
                rep.timings["coqc_runs"] = outcome.runs_of(i)
    return reports


def sublayer_json(layer: Any, instance: Instance, rep: Report, *, prove: bool, timeout: float,
                  backend: Optional[ProverBackend], shared: Optional[dict] = None, defer_shared: bool = False) -> dict:
    """The ``"sublayer"`` entry of one analysed layer: its norm read exactly, the sublayer
    verdict from the bare one, its certificate checked (:mod:`pybridge.certify.sublayer`).
    A norm tensor that is missing or unreadable gives that status, never ``none``."""
    from pybridge.io import checkpoints as ck

    ref = getattr(layer, "norm", None)
    position, kind, parallel = (ref.site.position, ref.site.kind, ref.site.parallel) if ref is not None \
        else ("none", None, False)
    if ref is not None and ref.status != "ok":
        return unavailable_sublayer(position, kind, parallel, ref.status, ref.problem).to_json()
    try:
        norm = ck.load_norm(layer, instance.d)
    except InputError as exc:
        return unavailable_sublayer(position, kind, parallel, "bad_tensor", str(exc)).to_json()
    if prove and backend is None:
        backend = CoqBackend()
    start = time.monotonic()
    sub = analyse_sublayer(instance, norm, rep.decision, rep.checked, prove=prove, backend=backend,
                           timeout=timeout, shared=shared, defer_shared=defer_shared)
    rep.timings["sublayer"] = round(time.monotonic() - start, 4)
    return sub.to_json()


def _open_layers(path: str, mapping: Optional[dict[str, str]], transposed: bool) -> tuple[Any, list]:
    from pybridge.io import checkpoints as ck

    ckpt = ck.open_checkpoint(path)
    layers = ck.find_mapped_layers(ckpt, mapping, transposed) if mapping else ck.find_layers(ckpt)
    return ckpt, layers


@dataclass
class LayerDone:
    """A worker's answer on one layer of its batch: the report and the digest of the
    tensors it read, or why it could not read the layer (``error``, status ``bad_tensor``)."""

    report: Optional[Report]
    digest: Optional[str] = None
    error: str = ""


def scan_batch_worker(path: str, mapping: Optional[dict[str, str]], transposed: bool,
                      items: Sequence[tuple[int, Activation]], options: dict) -> list[LayerDone]:
    """In a worker (a process or a cluster node): reopen the checkpoint, load and decide the
    layers ``items`` (``(k, activation)``) one after the other, have Coq check their
    certificates in one run (:func:`certify_layers`), then their sublayers; one answer per
    item, in order. Also each layer's digest when ``options["digest"]``."""
    from pybridge.exact.pages import use_small_pages
    from pybridge.io import checkpoints as ck

    use_small_pages()  # pool and cluster workers alike: one large system matrix per layer
    options = dict(options)
    want_digest = options.pop("digest", False)
    max_bytes = options.pop("max_bytes", None)
    _, layers = _open_layers(path, mapping, transposed)
    out: list[LayerDone] = []
    held: list[tuple[int, Any, Instance, Decision, float]] = []
    for k, act in items:
        layer = layers[k]
        try:
            digest = layer_digest(layer) if want_digest else None
            instance = ck.load_layer(layer, act, lazy=False)
        except InputError as exc:
            out.append(LayerDone(None, error=str(exc)))
            continue
        decision, decide_s = decide_layer(instance)
        out.append(LayerDone(None, digest))
        held.append((len(out) - 1, layer, instance, decision, decide_s))
    reports = certify_layers([(inst, dec) for _, _, inst, dec, _ in held], prove=options["prove"],
                             timeout=options["timeout"], backend=options["backend"],
                             crosscheck_entries=options["crosscheck_entries"], max_bytes=max_bytes)
    for (slot, layer, instance, _, decide_s), rep in zip(held, reports):
        rep.timings = {"decide": round(decide_s, 4), **rep.timings}
        # weight-independent (pre-norm) sublayer certificates are left to the scan's process, which shares them
        rep.sublayer = sublayer_json(layer, instance, rep, prove=options["prove"], timeout=options["timeout"],
                                     backend=options["backend"], defer_shared=True)
        out[slot].report = rep
    return out


# ------------------------------------------------------------------ scan


@dataclass
class _Planned:
    """A weight-dependent layer waiting for a worker."""

    slot: int
    k: int
    name: str
    act: Activation
    memory: int
    retried: bool = False
    shape: tuple[int, int] = (0, 0)


@dataclass
class _Batch:
    """Weight-dependent layers a worker decides and certifies in one coqc run."""

    layers: list[_Planned]
    memory: int

    @property
    def retried(self) -> bool:
        return any(p.retried for p in self.layers)

    def alone(self) -> list[_Batch]:
        """Each layer as its own batch, marked to run again alone."""
        out = []
        for p in self.layers:
            p.retried = True
            out.append(_Batch([p], p.memory))
        return out


def plan_batches(planned: Sequence[_Planned], workers: int, budget: Optional[int], prove: bool,
                 size: Optional[int] = None, sharing: Optional[int] = None) -> list[_Batch]:
    """Consecutive layers grouped ``size`` (default :func:`batch_size`) to a coqc run, a
    batch's :func:`batch_memory` within ``budget / sharing`` (default ``workers``: batches
    running at once on the same memory; 1 on a cluster, whose budget is per worker), or a
    single layer's need. Without ``prove`` every layer is its own batch (there is no prover
    run to share)."""
    size = (size or batch_size(len(planned), workers)) if prove else 1
    limit = budget // max(1, sharing or workers) if budget is not None else None
    out: list[_Batch] = []
    for p in planned:
        if out and len(out[-1].layers) < size:
            last = out[-1]
            memory = batch_memory([q.shape for q in last.layers] + [p.shape])
            if limit is None or memory <= max(limit, last.memory, p.memory):
                last.layers.append(p)
                last.memory = memory
                continue
        out.append(_Batch([p], p.memory))
    return out


def scan(
    path: Path | str,
    *,
    activation: Optional[Activation | str] = None,
    mapping: Optional[dict[str, str]] = None,
    transposed: bool = False,
    prove: bool = True,
    timeout: float = 120.0,
    backend: Optional[ProverBackend] = None,
    max_entries: Optional[int] = None,
    max_memory: Optional[int] = None,
    crosscheck_entries: int = 1_000_000,
    progress: Optional[Callable[[int, int, str], None]] = None,
    jobs: int = 1,
    json_out: Optional[Path | str] = None,
    resume: bool = False,
    cluster: Optional[str] = None,
    batch: Optional[int] = None,
) -> ScanResult:
    """Check every MLP block of a checkpoint (see :mod:`pybridge.io.checkpoints`).

    Gated layers are read lazily (their verdict does not depend on the weights). An
    ungated layer whose estimated peak memory (:func:`layer_memory`) exceeds ``max_memory``
    (default: the memory available now, or the largest cluster worker's limit) is not read:
    status ``too_large``, the estimate in its note; so is one with more than ``max_entries``
    entries per matrix when that (older) limit is given. A certificate that only depends on
    (activation, d, n) is checked once and shared by equal layers.

    ``jobs > 1``: weight-dependent layers in that many processes; ``cluster``: on the Dask
    scheduler at that address. ``progress(k, total, name)``: k layers done, ``name`` the
    layer started (one process) or last finished (workers). ``json_out``: the report,
    rewritten atomically as each layer finishes; ``resume``: reuse its layers recorded for the
    same weights (digest), activation and ``prove``.

    Coq's fixed cost (starting, loading the library) is paid once per batch: a worker (or
    this process) decides a few consecutive layers, then has Coq check their certificates in
    one run, each layer still reported with its own checked theorem (:func:`certify_layers`).
    ``batch``: layers per coqc run (default: about two runs per worker, :func:`batch_size`),
    fewer when the memory one worker may use calls for it (:func:`batch_memory`); ``1``: one
    run per layer. Layers are recorded when their batch ends.
    """
    if isinstance(activation, str):
        activation = parse_activation(activation)
    if activation is not None and not isinstance(activation, Activation):
        raise InputError(f"activation must be an Activation or a name, not {type(activation).__name__}")
    if mapping is not None and not (isinstance(mapping, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in mapping.items())):
        raise InputError("mapping must be a dict of role -> tensor name template")
    if max_entries is not None:
        positive_int("max_entries", max_entries)
    if max_memory is not None:
        positive_int("max_memory", max_memory)
    positive_int("jobs", jobs)
    if batch is not None:
        positive_int("batch", batch)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < float("inf"):
        raise InputError(f"timeout must be a positive number of seconds, got {timeout!r:.40}")
    if resume and json_out is None:
        raise InputError("--resume needs --json-out (the report to resume from)")
    if cluster is not None and (not isinstance(cluster, str) or not cluster.strip()):
        raise InputError("--cluster needs the scheduler's address, e.g. tcp://10.0.0.1:8786")
    where = str(Path(path).resolve()) if cluster is not None else str(path)
    ckpt, layers = _open_layers(where, mapping, transposed)
    if not layers:
        raise InputError(f"{Path(path).name}: no recognisable MLP block (use --map)")
    previous = recorded_layers(Path(json_out), prove) if resume and json_out is not None else {}
    result = ScanResult(str(path), ckpt.model_type, "", notes=list(ckpt.notes), prove=prove, complete=False,
                        json_out=str(Path(json_out).resolve()) if json_out is not None else None)
    user_backend = backend
    backend = backend or (CoqBackend() if prove else None)
    # cluster workers build their own backend (their own library path) unless one was given
    options = dict(prove=prove, timeout=timeout, crosscheck_entries=crosscheck_entries,
                   backend=backend if cluster is None else user_backend)
    runner: Optional[_Runner] = None
    try:
        if cluster is not None:
            runner = _ClusterRunner(cluster)
            budget = max_memory or runner.memory_limit()
        else:
            runner = _ProcessRunner(jobs) if jobs > 1 else None
            budget = max_memory or available_memory()
        job = _Scan(result, layers, ckpt, activation, prove, timeout, backend, crosscheck_entries, max_entries,
                    budget, max_memory is None and cluster is None, progress, previous, runner, options,
                    (where, mapping, transposed), batch)
        job.run()
    finally:
        if runner is not None:
            runner.close(abort=not result.complete)
    return result


@dataclass
class _Scan:
    """One scan in progress: plans each layer, analyses it here or hands it to the runner,
    records the report as layers finish."""

    result: ScanResult
    layers: list
    ckpt: Any
    activation: Optional[Activation]
    prove: bool
    timeout: float
    backend: Optional[ProverBackend]
    crosscheck_entries: int
    max_entries: Optional[int]
    budget: Optional[int]  #: memory one layer may use (None: no limit known)
    dynamic: bool  #: the budget is this machine's available memory: re-read before starting a layer
    progress: Optional[Callable[[int, int, str], None]]
    previous: dict[str, dict]  #: layer name -> its entry in the report resumed from
    runner: Optional[_Runner]
    options: dict  #: keyword arguments of certify_layers in the workers
    where: tuple  #: (checkpoint path, mapping, transposed) for the workers
    batch: Optional[int] = None  #: layers per coqc run (None: batch_size)
    shared: dict[tuple, tuple[str, Report]] = field(default_factory=dict)
    #: weight-independent sublayer certificates (pre-norm, parallel): key -> (first layer, result)
    sublayer_shared: dict = field(default_factory=dict)
    notes: set[str] = field(default_factory=set)
    done: int = 0

    @property
    def digests(self) -> bool:
        """Digests key --resume, and check that cluster workers read the same bytes."""
        return self.result.json_out is not None or isinstance(self.runner, _ClusterRunner)

    # -------------------------------------------------------------- bookkeeping

    def record(self) -> None:
        """Rewrite the report file (atomically) with what is known now."""
        self.result.activation_note = "; ".join(sorted(self.notes))
        if self.result.json_out is not None:
            atomic_write_text(self.result.json_out, json.dumps(self.result.to_json(), indent=2) + "\n")

    def finished(self, name: str) -> None:
        self.done += 1
        if self.progress is not None and self.runner is not None:
            self.progress(self.done, len(self.layers), name)
        self.record()

    # -------------------------------------------------------------- the scan

    def run(self) -> None:
        from pybridge.io import checkpoints as ck

        total = len(self.layers)
        queue: list[_Planned] = []
        gated: list[tuple[int, Any, Activation]] = []
        for k, layer in enumerate(self.layers):
            slot = len(self.result.layers)
            lr = LayerReport(layer.name, layer.family, None, status=layer.status, note=layer.problem)
            self.result.layers.append(lr)
            if layer.status != "ok":
                continue
            if self.activation is not None:
                act, note = self.activation, f"--activation {self.activation.label}"
            else:
                try:
                    act, note = ck.config_activation(self.ckpt, layer.gated, layer)
                except InputError as exc:
                    lr.status, lr.note = "bad_tensor", str(exc)
                    continue
            self.notes.add(note)
            lr.activation = act.label
            try:
                lr.shape = ck.layer_shape(layer)
                lr.digest = layer_digest(layer, data=not act.gated) if self.digests else None
            except InputError as exc:
                lr.status, lr.note = "bad_tensor", str(exc)
                continue
            d, n = lr.shape
            recorded = self.previous.get(layer.name)
            if recorded is not None and lr.digest is not None and recorded.get("digest") == lr.digest \
                    and recorded.get("activation") == act.label:
                self.result.layers[slot] = LayerReport(layer.name, layer.family, None, recorded.get("note", ""),
                                                       "ok", lr.digest, lr.shape, recorded=recorded)
                self.result.resumed += 1
                continue
            if not act.gated:
                lr.memory = layer_memory(d, n)
                too_large = self._too_large(d, n, lr.memory)
                if too_large:
                    lr.status, lr.note = "too_large", too_large
                    continue
            lr.status, lr.note = "pending", ""
            if act.gated:
                gated.append((slot, layer, act))
            else:
                queue.append(_Planned(slot, k, layer.name, act, lr.memory or 0, shape=(d, n)))
        self.done = total - len(queue) - len(gated)
        self.record()
        batches = plan_batches(queue, self.runner.slots() if self.runner is not None else 1, self.budget,
                               self.prove, self.batch, self.sharing)
        if self.runner is not None:
            self.runner.start(batches, self)
            if self.progress is not None:
                self.progress(self.done, total, "")
        for slot, layer, act in gated:
            if self.progress is not None and self.runner is None:
                self.progress(self.done, total, layer.name)
            self._analyse_here(slot, layer, act)
            self.finished(layer.name)
            if self.runner is not None:
                self.runner.poll(self)
        if self.runner is None:
            for batch in batches:
                self._batch_here(batch)
        else:
            self.runner.drain(self)
        self.result.complete = True
        self.record()

    def _too_large(self, d: int, n: int, memory: int) -> str:
        if self.max_entries is not None and d * n > self.max_entries:
            return f"not analysed: {d}x{n} exceeds --max-entries {self.max_entries}"
        if self.budget is not None and memory > self.budget:
            what = "available" if self.dynamic else "allowed by --max-memory"
            return (f"not analysed: needs about {human_bytes(memory)} (estimate), "
                    f"{human_bytes(self.budget)} {what}")
        return ""

    def _analyse_here(self, slot: int, layer: Any, act: Activation) -> None:
        """Analyse one (gated) layer in this process, read lazily; shared certificates."""
        from pybridge.io import checkpoints as ck

        lr = self.result.layers[slot]
        try:
            instance = ck.load_layer(layer, act, lazy=act.gated)
        except InputError as exc:
            lr.status, lr.note = "bad_tensor", str(exc)
            return
        decision, decide_s = decide_layer(instance)
        self._certify_here([(slot, layer, instance, decision, decide_s)])

    def _batch_here(self, batch: _Batch) -> None:
        """Decide the layers of ``batch`` in this process, one after the other, then certify
        them in one coqc run (:meth:`_certify_here`); each recorded as it ends."""
        from pybridge.io import checkpoints as ck

        held = []
        for planned in batch.layers:
            if self.progress is not None:
                self.progress(self.done, len(self.layers), planned.name)
            layer = self.layers[planned.k]
            try:
                instance = ck.load_layer(layer, planned.act, lazy=False)
            except InputError as exc:
                lr = self.result.layers[planned.slot]
                lr.status, lr.note = "bad_tensor", str(exc)
                self.finished(planned.name)
                continue
            decision, decide_s = decide_layer(instance)
            held.append((planned.slot, layer, instance, decision, decide_s))
        self._certify_here(held)
        for _, layer, *_rest in held:
            self.finished(layer.name)

    def _certify_here(self, held: list[tuple[int, Any, Instance, Decision, float]]) -> None:
        """Certify decided layers in one coqc run (a certificate that only depends on
        (activation, d, n) is checked once and shared), then their sublayers."""
        todo: list[tuple[int, Any, Instance, Decision, float]] = []
        reused: list[tuple[int, Any, Instance, Decision, float]] = []
        keys: dict[int, tuple] = {}
        for item in held:
            slot, layer, instance, decision, _ = item
            key = (instance.activation, instance.d, instance.n, decision.verdict, decision.theorem)
            if self.prove and _weight_independent(instance, decision):
                keys[slot] = key
                if key in self.shared or any(keys.get(s) == key for s, *_ in todo):
                    reused.append(item)
                    continue
            todo.append(item)
        reports = certify_layers([(inst, dec) for _, _, inst, dec, _ in todo], prove=self.prove,
                                 timeout=self.timeout, backend=self.backend,
                                 crosscheck_entries=self.crosscheck_entries, max_bytes=self.max_bytes)
        done: dict[int, Report] = {}
        for (slot, layer, *_), rep in zip(todo, reports):
            done[slot] = rep
            if slot in keys and keys[slot] not in self.shared:
                self.shared[keys[slot]] = (layer.name, rep)
        for slot, layer, instance, decision, _ in reused:
            first, prev = self.shared[keys[slot]]
            done[slot] = Report(layer.name, instance.d, instance.n, instance.activation.label, decision,
                                prev.checked, prev.prover)
            self.result.layers[slot].note = f"certificate shared with {first}"
        for slot, layer, instance, _, decide_s in held:
            rep = done[slot]
            rep.timings = {"decide": round(decide_s, 4), **rep.timings}
            rep.sublayer = sublayer_json(layer, instance, rep, prove=self.prove, timeout=self.timeout,
                                         backend=self.backend, shared=self.sublayer_shared)
            lr = self.result.layers[slot]
            lr.report, lr.status = rep, "ok"

    @property
    def sharing(self) -> int:
        """How many batches share the memory budget at once (1 on a cluster: per worker)."""
        return self.runner.slots() if isinstance(self.runner, _ProcessRunner) else 1

    @property
    def max_bytes(self) -> Optional[int]:
        """Certificate text one coqc run may read (from the memory one worker may use)."""
        if self.budget is None:
            return None
        return max(1, (self.budget // self.sharing - BASE_BYTES) // COQC_BYTES_PER_SOURCE_BYTE)

    def accept(self, batch: _Batch, outcome: Callable[[], list[LayerDone]]) -> None:
        """A worker finished ``batch``: fill its slots (``outcome()`` re-raises its error)."""
        try:
            answers = outcome()
        except InputError as exc:  # the worker could not open the checkpoint
            answers = [LayerDone(None, error=str(exc)) for _ in batch.layers]
        for planned, done in zip(batch.layers, answers):
            self._accept_layer(planned, done)

    def _accept_layer(self, planned: _Planned, done: LayerDone) -> None:
        lr = self.result.layers[planned.slot]
        rep, digest = done.report, done.digest
        if rep is None:
            lr.status, lr.note = "bad_tensor", done.error or "the worker returned no report"
        elif lr.digest is not None and digest is not None and digest != lr.digest:
            lr.status = "bad_tensor"
            lr.note = (f"the worker read other weights (digest {digest[:19]}..., here {lr.digest[:19]}...): "
                       "is the checkpoint path the same file on every machine?")
        else:
            if rep.sublayer is not None and lr.shape is not None:
                rep.sublayer = finish_deferred(rep.sublayer, planned.act, *lr.shape, backend=self.backend,
                                               timeout=self.timeout, shared=self.sublayer_shared,
                                               layer=planned.name)
            lr.report, lr.status = rep, "ok"
            if planned.retried:
                lr.note = "analysed again, alone, after a worker process ended abruptly"
        self.finished(planned.name)

    def lost(self, planned: _Planned) -> None:
        """The worker analysing ``planned`` ended abruptly, twice."""
        lr = self.result.layers[planned.slot]
        lr.status = "worker_lost"
        lr.note = ("not analysed: the worker process ended abruptly (killed, or out of memory: "
                   f"the estimate was {human_bytes(planned.memory)}; from a Python script, a scan with "
                   "jobs > 1 must run under `if __name__ == \"__main__\":`, or each worker runs the "
                   "script again and stops)")
        self.finished(planned.name)

    def worker_args(self, batch: _Batch) -> tuple:
        options = dict(self.options, digest=self.digests, max_bytes=self.max_bytes)
        return (*self.where, [(p.k, p.act) for p in batch.layers], options)

    def fits_now(self, memory: int, running: int) -> bool:
        """Whether a batch needing ``memory`` can start beside batches needing ``running``."""
        if running == 0 or self.budget is None:
            return True
        if running + memory > self.budget:
            return False
        if self.dynamic:
            now = available_memory()
            return now is None or memory <= now
        return True


# ------------------------------------------------------------------ runners


class _Runner:
    """Where weight-dependent layers run: worker processes or a cluster."""

    def memory_limit(self) -> Optional[int]:
        """Memory one layer may use (None: this machine's)."""
        return None

    def slots(self) -> int:
        """How many batches can run at once."""
        return 1

    def start(self, queue: list[_Batch], job: _Scan) -> None:
        raise NotImplementedError

    def poll(self, job: _Scan) -> None:
        """Collect what has finished (without waiting) and start what fits."""
        raise NotImplementedError

    def drain(self, job: _Scan) -> None:
        """Wait for every layer."""
        raise NotImplementedError

    def close(self, *, abort: bool) -> None:
        raise NotImplementedError


def _init_worker(parent: int) -> None:
    """A scan worker process: one BLAS thread; its own process group; ended (with its coqc)
    by SIGTERM or when the scan's process dies, even by SIGKILL (Linux)."""
    from pybridge.exact.modular import use_one_blas_thread

    use_one_blas_thread()  # (scan_batch_worker turns NumPy's huge pages off, here and on a cluster)
    try:
        os.setpgid(0, 0)
    except OSError:
        pass

    def end(signum: int, frame: object) -> None:
        os.killpg(os.getpgrp(), signal.SIGKILL)

    signal.signal(signal.SIGTERM, end)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the scan's process decides what an interrupt ends
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG
    except Exception:  # best effort (Linux only)
        pass
    if os.getppid() != parent:  # the scan ended before prctl
        os.killpg(os.getpgrp(), signal.SIGKILL)


class _ProcessRunner(_Runner):
    """``jobs`` spawned worker processes, each given a batch of layers (:func:`plan_batches`)
    when its memory estimate fits. A worker that ends abruptly (killed, out of memory)
    breaks the pool: the layers of its batch, and of the batches running with it, are tried
    once more, each alone in a new pool, then reported ``worker_lost``."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.executor: Any = None  # started with the first layer that needs it
        self.waiting: list[_Batch] = []
        self.running: dict[Any, _Batch] = {}

    def slots(self) -> int:
        return self.jobs

    def _new_executor(self) -> Any:
        import concurrent.futures as cf
        import multiprocessing as mp

        return cf.ProcessPoolExecutor(max_workers=self.jobs, mp_context=mp.get_context("spawn"),
                                      initializer=_init_worker, initargs=(os.getpid(),))

    def start(self, queue: list[_Batch], job: _Scan) -> None:
        self.waiting = list(queue)
        if self.waiting:
            self.executor = self._new_executor()
        self._fill(job)

    def _fill(self, job: _Scan) -> None:
        from concurrent.futures.process import BrokenProcessPool

        while self.waiting and len(self.running) < self.jobs:
            batch = self.waiting[0]
            alone = batch.retried or any(b.retried for b in self.running.values())
            if (alone and self.running) or not job.fits_now(batch.memory,
                                                            sum(b.memory for b in self.running.values())):
                break
            try:
                future = self.executor.submit(scan_batch_worker, *job.worker_args(batch))
            except BrokenProcessPool:  # a worker died since the last collect: not this batch's fault
                if self.running:
                    return  # _collect sees the running batches fail with the pool and starts a new one
                self.executor.shutdown(wait=True)
                self.executor = self._new_executor()
                continue
            self.waiting.pop(0)
            self.running[future] = batch

    def _collect(self, job: _Scan, timeout: Optional[float]) -> None:
        import concurrent.futures as cf
        from concurrent.futures.process import BrokenProcessPool

        done, _ = cf.wait(list(self.running), timeout=timeout, return_when=cf.FIRST_COMPLETED)
        broken = []
        for fut in done:
            if isinstance(fut.exception(), BrokenProcessPool):
                broken.append(self.running.pop(fut))
            else:
                job.accept(self.running.pop(fut), fut.result)
        if broken:  # every batch of a broken pool fails with it
            for fut in cf.wait(list(self.running)).done:
                batch = self.running.pop(fut)
                if isinstance(fut.exception(), BrokenProcessPool):
                    broken.append(batch)
                else:
                    job.accept(batch, fut.result)
            self.executor.shutdown(wait=True)
            self.executor = self._new_executor()
            again: list[_Batch] = []
            for batch in broken:
                if batch.retried:  # it already ran alone: its layer is lost
                    for planned in batch.layers:
                        job.lost(planned)
                else:
                    again += batch.alone()
            self.waiting[:0] = sorted(again, key=lambda b: b.layers[0].slot)
        self._fill(job)

    def poll(self, job: _Scan) -> None:
        if self.running:
            self._collect(job, 0)

    def drain(self, job: _Scan) -> None:
        while self.running or self.waiting:
            self._collect(job, None)

    def close(self, *, abort: bool) -> None:
        if self.executor is None:
            return
        if not abort:
            self.executor.shutdown(wait=True)
            return
        processes = list(getattr(self.executor, "_processes", {}).values())
        self.executor.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            proc.terminate()
        for proc in processes:
            proc.join(timeout=3)
            if proc.is_alive():
                proc.kill()


class _ClusterRunner(_Runner):
    """Batches of layers on an existing Dask distributed scheduler (``pip install
    'absorb-bridge[cluster]'``); a batch Dask gives up on (``KilledWorker``) is tried again,
    each layer alone, then its layer is ``worker_lost``."""

    def __init__(self, address: str) -> None:
        try:
            import distributed
        except ImportError:
            raise InputError("--cluster needs Dask distributed: pip install 'absorb-bridge[cluster]'") from None
        self.distributed = distributed
        try:
            self.client = distributed.Client(address, timeout="20s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise InputError(f"--cluster {address[:80]}: cannot reach the scheduler ({exc})"[:300]) from None
        workers = self.client.scheduler_info(n_workers=-1).get("workers", {})
        if not workers:
            self.client.close()
            raise InputError(f"--cluster {address[:80]}: the scheduler has no workers")
        self.workers = workers
        self.running: dict[Any, _Batch] = {}

    def memory_limit(self) -> Optional[int]:
        limits = [w.get("memory_limit") or 0 for w in self.workers.values()]
        return max(limits) or None

    def slots(self) -> int:
        return max(1, sum(int(w.get("nthreads") or 1) for w in self.workers.values()))

    def _submit(self, batch: _Batch, job: _Scan) -> None:
        fut = self.client.submit(scan_batch_worker, *job.worker_args(batch), pure=False,
                                 key=f"pybridge-scan-{os.getpid()}-{time.time_ns()}-{batch.layers[0].k}")
        self.running[fut] = batch

    def start(self, queue: list[_Batch], job: _Scan) -> None:
        for batch in queue:
            self._submit(batch, job)

    def _collect(self, job: _Scan, timeout: Optional[float]) -> None:
        try:
            done, _ = self.distributed.wait(list(self.running), timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return
        for fut in done:
            batch = self.running.pop(fut)
            if type(fut.exception()).__name__ == "KilledWorker":  # Dask gave up after retrying it
                if len(batch.layers) == 1:
                    job.lost(batch.layers[0])
                else:
                    for single in batch.alone():
                        self._submit(single, job)
            else:
                job.accept(batch, fut.result)

    def poll(self, job: _Scan) -> None:
        if self.running:
            self._collect(job, 0.01)

    def drain(self, job: _Scan) -> None:
        while self.running:
            self._collect(job, None)

    def close(self, *, abort: bool) -> None:
        if abort and self.running:
            self.client.cancel(list(self.running))
        self.client.close()


# ------------------------------------------------------------------ resuming


def recorded_layers(path: Path, prove: bool) -> dict[str, dict]:
    """Layer name -> its entry in an earlier report at ``path`` (analysed layers only, and
    only when that report was made with the same ``prove``; a layer whose certificate timed
    out is analysed again). A missing file: nothing to resume."""
    if not path.exists():
        return {}
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"--resume {path}: not a pybridge scan report ({type(exc).__name__})") from None
    if not isinstance(doc, dict) or doc.get("format") != REPORT_FORMAT or not isinstance(doc.get("layers"), list):
        raise InputError(f"--resume {path}: not a pybridge scan report (format {REPORT_FORMAT})")
    if doc.get("prove") is not prove:
        return {}
    out: dict[str, dict] = {}
    for entry in doc["layers"]:
        if not (isinstance(entry, dict) and isinstance(entry.get("layer"), str) and entry.get("status") == "ok"
                and isinstance(entry.get("digest"), str) and entry.get("verdict") is not None):
            continue
        prover = entry.get("prover")
        if prove and isinstance(prover, dict) and prover.get("outcome") == "timeout":
            continue
        out[entry["layer"]] = {k: v for k, v in entry.items() if k != "resumed"}
    return out
