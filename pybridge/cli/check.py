"""``pybridge check``, ``pybridge scan`` and ``pybridge generate``."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterator, Optional

import click
from rich.console import Console
from rich.markup import escape

from pybridge.activations import MAX_DEGREE, REGISTRY, resolve
from pybridge.api import not_certified, timed_out
from pybridge.errors import InputError
from pybridge.files import atomic_write_text
from pybridge.generate import MAX_DIM
from pybridge.model import Activation, Report

#: ``--timeout``: a finite number of seconds (``inf`` and ``nan`` are refused by the range).
TIMEOUT = click.FloatRange(min=1, max=10**7)

VERDICT_STYLE = {
    "absorbable": "bold green",
    "not_absorbable": "bold red",
    "outside_hypotheses": "bold yellow",
    "undecided": "bold magenta",
}


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (no partial files); :class:`InputError` when it cannot."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise InputError(f"{path}: directory does not exist")
    if path.is_dir():
        raise InputError(f"{path}: is a directory")
    try:
        atomic_write_text(path, text)
    except OSError as exc:
        raise InputError(f"{path}: cannot write ({exc.strerror})") from None


def ensure_writable_dir(path: Path, what: str) -> None:
    """Refuse, before any work, a directory that cannot be created or written to."""
    path = Path(path)
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise InputError(f"{what} {path}: {probe} is not a directory")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise InputError(f"{what} {path}: not writable")
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".pybridge-probe-", dir=path)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise InputError(f"{what} {path}: cannot write there ({exc.strerror})") from None


def ensure_writable_file(path: Path, what: str) -> None:
    """Refuse, before any work, an output file whose directory is missing or read-only."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise InputError(f"{what} {path}: directory does not exist")
    if path.is_dir():
        raise InputError(f"{what} {path}: is a directory")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".pybridge-probe-", dir=directory)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise InputError(f"{what} {path}: cannot write there ({exc.strerror})") from None


def _activation_option(value: Optional[str]):
    from pybridge.io import parse_activation

    return parse_activation(value) if value is not None else None


def print_report(report: Report, console: Console) -> None:
    """Human-readable summary of one report."""
    d = report.decision
    console.print(
        f"[bold]{escape(report.instance_source or 'instance')}[/bold]: {report.activation}, "
        f"d={report.d}, n={report.n}",
        highlight=False,
    )
    console.print(f"verdict: [{VERDICT_STYLE[d.verdict]}]{d.verdict}[/]   (about the bare block {BARE_FORM})",
                  highlight=False)
    console.print(f"result: {d.result or '-'}   theorem: {d.theorem or '-'}", highlight=False)
    console.print(f"reason: {escape(d.reason)}", highlight=False)
    if report.prover is None:
        status = "no certificate (nothing to certify)" if "certify" in report.timings else "not attempted (--no-prove)"
    elif not_certified(report):
        status = f"[yellow]{escape(report.prover.message)}[/]"
    elif timed_out(report):
        status = f"[yellow]Coq did not finish in time[/]: {escape(report.prover.message)} (not a rejection)"
    elif report.prover.accepted:
        status = f"[green]Coq accepted the certificate[/] ({report.prover.seconds:.1f} s)"
    else:
        first = (report.prover.message.strip().splitlines() or ["no message"])[-1]
        status = f"[red]Coq REJECTED the certificate[/]: {escape(first)}"
    console.print(f"checked: {report.checked}  {status}", highlight=False)
    if report.certificate_path:
        console.print(f"certificate: {escape(str(report.certificate_path))}", highlight=False)
    if d.witness is not None:
        console.print(f"witness: S = {list(d.witness.subset)} (rows of W_up in S negated)", highlight=False)
    _print_width(report, console)
    cc = report.crosscheck
    if cc:
        parts = [cc.get("method", "")]
        if cc.get("symbolic_identity") not in (None, "skipped"):
            parts.append(f"symbolic identity: {cc['symbolic_identity']}")
        if cc.get("witness_equal") is not None:
            screening = "" if cc.get("method", "").startswith("exact") else " (float screening)"
            parts.append(f"witness equal on {cc['points']} points{screening}: {cc['witness_equal']}")
        for key in ("z3_identity", "z3_subset"):
            if cc.get(key) not in (None, "skipped"):
                parts.append(f"{key}: {cc[key]}")
        for key in ("homogeneity", "linearization"):
            if cc.get(key):
                parts.append(cc[key])
        consistent = cc.get("consistent")
        parts.append("consistent: " + ("no independent evidence gathered" if consistent is None else str(consistent)))
        console.print("crosscheck: " + escape("; ".join(str(p) for p in parts if p)), highlight=False)
    if report.sublayer is not None:
        print_sublayer(report.sublayer, console)
    console.print(
        "timings: " + ", ".join(f"{k} {v:.2f} s" for k, v in report.timings.items()), highlight=False
    )


#: what the bare verdict is about, and each kind of sublayer (one line each in the output)
BARE_FORM = "x + B σ(A x + c) + b0, no normalization"
SUBLAYER_FORMS = {
    "pre": "the pre-norm sublayer x + f(N x)",
    "post": "the post-norm sublayer N(x + f(x))",
    "parallel": "the parallel-residual sublayer x + attn(N1 x) + f(N2 x)",
    "none": "no normalization known",
}


def sublayer_about(entry: dict) -> str:
    """One line saying which function a sublayer verdict is about."""
    form = SUBLAYER_FORMS["parallel" if entry.get("parallel") else entry.get("norm", "none")]
    kind = {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm"}.get(str(entry.get("kind")), "")
    return f"{form}" + (f", N a {kind}" if kind else "") + (f", eps = {entry['eps']}" if entry.get("eps") else "")


def print_sublayer(entry: dict, console: Console) -> None:
    """The sublayer verdict of ``check`` (R11 / R11') in human form."""
    verdict = entry.get("verdict")
    shown = f"[{VERDICT_STYLE.get(verdict, 'bold')}]{verdict}[/]" if verdict else f"[bold red]{entry.get('status')}[/]"
    console.print(f"sublayer verdict: {shown}   (about {escape(sublayer_about(entry))})", highlight=False)
    console.print(f"  result: {entry.get('result') or '-'}   theorem: {entry.get('theorem') or '-'}   "
                  f"checked: {entry.get('checked')}", highlight=False)
    console.print(f"  reason: {escape(str(entry.get('reason', '')))}", highlight=False)


def sublayer_cell(entry: Optional[dict]) -> str:
    """The scan table's sublayer column: verdict (or status), where the norm is, checked."""
    if not entry:
        return "-"
    where = "par" if entry.get("parallel") else entry.get("norm", "none")
    kind = {"layernorm": "LN", "rmsnorm": "RMS"}.get(str(entry.get("kind")), "")
    verdict = entry.get("verdict")
    if entry.get("status", "ok") != "ok":
        return f"[bold red]{escape(str(entry.get('status')))}[/] ({where} {kind})".replace(" )", ")")
    if verdict is None:
        return f"- ({where})"
    style = VERDICT_STYLE.get(verdict, "bold")
    return f"[{style}]{escape(str(verdict))}[/] ({where} {kind}{', checked' if entry.get('checked') else ''})"


def _print_width(report: Report, console: Console) -> None:
    """Width, least width and the explicit residual-free block of a width-route verdict."""
    from pybridge.api import width_to_json

    info = report.decision.width_info
    if info is None:
        return
    doc = width_to_json(report)
    mw = "not computed (--min-width)" if doc["min_width_lower"] is None else (
        str(doc["min_width"]) if doc["min_width_exact"] else f"{doc['min_width_lower']}..{doc['min_width_upper']}")
    console.print(f"width: {doc['width']}   ridges k: {doc['ridges']}   least absorbing width: {mw}", highlight=False)
    block = doc.get("witness_block")
    if block is not None:
        console.print("residual-free block (exact): W_up = " + escape(str(block["W_up"])) + ", b_up = "
                      + escape(str(block["b_up"])) + ", W_down = " + escape(str(block["W_down"]))
                      + ", b_down = " + escape(str(block["b_down"]))
                      + ("".join(f" + {escape(str(t['b']))} sigma({escape(t['c'])})"
                                 for t in block.get("b_down_plus_sigma", ()))), highlight=False)


@click.command("check")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--activation", "activation", default=None, help="Activation (required for .npz/.safetensors).")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@click.option(
    "--keep-certificate",
    "keep_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Directory to keep the generated Coq certificate in (created if missing; its parent must exist).",
)
@click.option("--no-prove", is_flag=True, help="Decide and cross-check only; no Coq.")
@click.option("--timeout", type=TIMEOUT, default=120.0, show_default=True, help="Coq timeout (s).")
@click.option(
    "--max-entries", type=click.IntRange(min=1), default=None,
    help="Largest matrix accepted, in entries (default 4000000; checked before reading).",
)
@click.option("--width", "width", type=click.IntRange(min=0), default=None,
              help="Decide absorbability at this width m (default: n).")
@click.option("--min-width", "min_width", is_flag=True,
              help="Report the least absorbing width m* (certified: absorbable at m*, and not at m*-1 when "
                   "exact; smaller widths follow by padding with zero units, not a library lemma).")
def check_cmd(
    file: Path, activation: Optional[str], as_json: bool, keep_dir: Optional[Path], no_prove: bool, timeout: float,
    max_entries: Optional[int], width: Optional[int] = None, min_width: bool = False,
) -> None:
    """Decide whether the block in FILE can absorb its skip connection, with a Coq certificate.

    Exit status: 0 for any verdict (also when Coq timed out: not a rejection), 1 when
    Coq rejected the certificate, 2 for bad input, 3 for an internal error.
    """
    from pybridge.api import check, exit_code, load, report_to_json

    if width is not None and min_width:
        raise click.UsageError("--width and --min-width exclude each other (--min-width searches every width)")
    if keep_dir is not None and no_prove:
        raise click.UsageError("--keep-certificate needs Coq: it cannot be combined with --no-prove")
    if keep_dir is not None:
        parent = keep_dir.parent if str(keep_dir.parent) else Path(".")
        if keep_dir.exists() and not keep_dir.is_dir():
            raise InputError(f"--keep-certificate {keep_dir} is not a directory")
        if not keep_dir.is_dir() and parent.exists() and not parent.is_dir():
            raise InputError(f"--keep-certificate {keep_dir}: {parent} is not a directory")
        if not keep_dir.is_dir() and not parent.is_dir():
            raise InputError(f"--keep-certificate {keep_dir}: its parent directory {parent} does not exist")
    instance = load(file, _activation_option(activation), max_entries=max_entries)
    norm = _json_norm(file, instance.d)
    if keep_dir is not None:
        ensure_writable_dir(keep_dir, "--keep-certificate")
    report = check(instance, prove=not no_prove, timeout=timeout, keep_dir=keep_dir, width=width,
                   min_width=min_width)
    sub_rejected = False
    if norm is not None:
        from pybridge.certify.sublayer import analyse_sublayer
        from pybridge.coq.backend import CoqBackend

        sub = analyse_sublayer(instance, norm, report.decision, report.checked, prove=not no_prove,
                               backend=None if no_prove else CoqBackend(), timeout=timeout)
        report.sublayer = sub.to_json()
        sub_rejected = sub.prover is not None and sub.prover.rejected
    if as_json:
        doc = report_to_json(report)
        if report.sublayer is not None:
            doc["sublayer"] = report.sublayer
        click.echo(json.dumps(doc, indent=2))
    else:
        print_report(report, plain_console())
    sys.exit(max(exit_code(report), 1 if sub_rejected else 0))


def _json_norm(file: Path, d: int):
    """The ``"norm"`` of a JSON instance (None for other formats or when absent)."""
    if file.suffix.lower() != ".json":
        return None
    from pybridge.io.jsonfile import norm_from_json

    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{file}: {exc}") from None
    return norm_from_json(text, d)


def plain_console() -> Console:
    """The terminal's console; when piped, one that never wraps a line (no field cut in two)."""
    console = Console()
    return console if console.is_terminal else Console(soft_wrap=True)


class ActivationName(click.ParamType):
    """An activation name the registry knows (``relu^k`` too), resolved on parsing."""

    name = "activation"

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        if isinstance(value, Activation):
            return value
        try:
            return resolve(value)
        except InputError as exc:
            self.fail(str(exc), param, ctx)


def activation_names() -> str:
    """Every canonical activation id of the registry, for help texts."""
    return ", ".join(("relu^k" if k == "relu_pow" else k) for k in REGISTRY) + f" (relu^k: k = 2..{MAX_DEGREE})"


@click.command("generate")
@click.option("--activation", type=ActivationName(), required=True,
              help=f"One of: {activation_names()}, or an alias (gelu_new, swish, ...).")
@click.option("--d", "d", type=click.IntRange(1, MAX_DIM), required=True, help="Model dimension.")
@click.option("--n", "n", type=click.IntRange(1, MAX_DIM), required=True, help="Hidden width.")
@click.option("--absorbable", is_flag=True, help="Plant S with sum_{i in S} b_i a_i^T = -I.")
@click.option("--seed", type=int, default=None, help="Random seed (printed when not given).")
@click.option("--skip", "with_skip", is_flag=True, help="Add a random invertible integer skip matrix.")
@click.option("--bias", "with_bias", is_flag=True, help="Add random biases.")
@click.option("--postln-absorbable", "postln", is_flag=True,
              help="Plant B_S A_S = -I + 1 w^T: absorbable after a LayerNorm (written as the norm), not bare.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True)
def generate_cmd(
    activation: Activation, d: int, n: int, absorbable: bool, seed: Optional[int], with_skip: bool,
    with_bias: bool, postln: bool, output: Path,
) -> None:
    """Write a random exact instance (small integers; generic for ungated activations) as JSON."""
    from pybridge.generate import generate, generate_postln, norm_to_json
    from pybridge.io import instance_to_json

    if output.suffix.lower() != ".json":
        raise InputError(f"{output}: the output file must end in .json")
    if postln and (absorbable or with_skip or with_bias):
        raise InputError("--postln-absorbable plants its own S, with the identity skip and no biases")
    gen = generate_postln(activation, d, n, seed=seed) if postln else generate(
        activation, d, n, absorbable=absorbable, seed=seed, skip=with_skip, bias=with_bias
    )
    doc = instance_to_json(gen.instance)
    if gen.norm is not None:
        doc["norm"] = norm_to_json(gen.norm)
    atomic_write(output, json.dumps(doc) + "\n")
    planted = f", planted S={list(gen.subset)}" if gen.subset else ""
    click.echo(f"wrote {output} ({gen.instance.activation.label}, d={d}, n={n}, seed={gen.seed}{planted})")


@click.command("scan")
@click.argument("checkpoint", type=click.Path(path_type=Path))
@click.option("--map", "maps", multiple=True, help="ROLE=TEMPLATE tensor names, {i} = layer number (repeatable).")
@click.option("--transposed", is_flag=True, help="With --map: weights stored (in, out) like GPT-2's Conv1D.")
@click.option("--activation", default=None, help="Override the activation from config.json.")
@click.option("--json-out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the JSON report here, rewritten atomically as each layer finishes.")
@click.option("--resume", is_flag=True,
              help="With --json-out: keep the layers that file records for the same weights; analyse the rest.")
@click.option("--no-prove", is_flag=True, help="Decide only; no Coq.")
@click.option("--timeout", type=TIMEOUT, default=120.0, show_default=True, help="Coq timeout per certificate (s).")
@click.option("--max-memory", "max_memory", default=None, metavar="SIZE",
              help="Memory one layer may use, e.g. 8G (default: the memory available now; on a cluster, "
                   "the largest worker's limit). Layers estimated above it are reported too_large.")
@click.option(
    "--max-entries", type=click.IntRange(min=1), default=None,
    help="Older limit, still honoured when given: ungated layers with more entries per matrix are too_large.",
)
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Layers analysed in parallel processes (default: the number of cores).")
@click.option("--cluster", default=None, metavar="ADDRESS",
              help="Run layers on this Dask scheduler (tcp://host:8786); workers read CHECKPOINT at the same path.")
@click.option("--batch", type=click.IntRange(min=1), default=None, metavar="N",
              help="Layers whose certificates one coqc run checks (default: about two runs per worker, "
                   "within its memory; 1: one run per layer). Layers are recorded as their batch ends.")
def scan_cmd(
    checkpoint: Path, maps: tuple[str, ...], transposed: bool, activation: Optional[str],
    json_out: Optional[Path], resume: bool, no_prove: bool, timeout: float, max_memory: Optional[str],
    max_entries: Optional[int], jobs: Optional[int], cluster: Optional[str], batch: Optional[int],
) -> None:
    """Check every MLP block of a checkpoint (.safetensors file or directory with config.json).

    Exit status: 0 when every layer was analysed (any verdict), 1 when Coq rejected a
    certificate, 2 when some layer was not analysed (too large for the memory, not whole,
    unreadable: the report still lists every layer) or for bad input.
    """
    import os
    import signal

    from pybridge.io import checkpoints as ck
    from pybridge.scanning import parse_size, scan

    mapping = ck.parse_map(maps)
    if transposed and not mapping:
        raise InputError("--transposed only applies with --map")
    if resume and json_out is None:
        raise InputError("--resume needs --json-out (the report to resume from)")
    if json_out is not None:
        ensure_writable_file(json_out, "--json-out")
    budget = parse_size(max_memory) if max_memory is not None else None
    act = _activation_option(activation)
    err = Console(stderr=True)

    def terminated(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # ends the workers (scan's cleanup), then exit 130

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        with _scan_progress(err) as step:
            result = scan(
                checkpoint, activation=act, mapping=mapping or None, transposed=transposed,
                prove=not no_prove, timeout=timeout, max_entries=max_entries, max_memory=budget, progress=step,
                jobs=jobs or os.cpu_count() or 1, json_out=json_out, resume=resume, cluster=cluster,
                batch=batch,
            )
    except KeyboardInterrupt:
        if json_out is not None and json_out.exists():
            click.echo(f"pybridge: the finished layers are in {json_out.resolve()} (continue with --resume)",
                       err=True)
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)
    doc = result.to_json()
    _print_scan(checkpoint, result, doc)
    if result.json_out is not None:
        click.echo(f"report: {result.json_out}" + (f" ({result.resumed} layers kept from the earlier report)"
                                                   if resume else ""))
    sub_rejected = any(((lr.report.sublayer or {}).get("prover") or {}).get("outcome") == "rejected"
                       for lr in result.layers if lr.report is not None)
    if any(lr.rejected for lr in result.layers) or sub_rejected:
        sys.exit(1)
    bad = result.problems
    if bad:
        raise InputError(
            f"{checkpoint}: {len(bad)} of {len(result.layers)} layers not analysed "
            f"(first: {bad[0].layer}: {bad[0].status}: {bad[0].note})"
            + ("; the report lists every layer" if json_out is not None else "")
        )
    sys.exit(0)


@contextlib.contextmanager
def _scan_progress(err: Console) -> Iterator[Optional[Callable[[int, int, str], None]]]:
    """A progress bar on stderr when it is a terminal (nothing otherwise: no stray lines)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    if not err.is_terminal:
        yield None
        return
    with Progress(
        TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=err, transient=True,
    ) as bar:
        task = bar.add_task("scanning", total=None)

        def step(k: int, total: int, name: str) -> None:
            bar.update(task, description=f"layer {name}" if name else "scanning", completed=k, total=total)

        yield step


def _print_scan(checkpoint: Path, result, doc: dict) -> None:
    """The scan's table, notes and summary on stdout."""
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        console.width = max(console.width, 160)
    table = Table(title=escape(f"{checkpoint} ({result.model_type or 'model type unknown'}): {result.activation_note}"))
    for col in ("layer", "activation", "d", "n", "verdict", "result", "theorem", "checked", "sublayer", "note"):
        table.add_column(col)
    for entry in doc["layers"]:
        verdict = entry.get("verdict")
        if verdict is None:
            table.add_row(escape(entry["layer"]), str(entry.get("activation", "-")), str(entry.get("d", "-")), str(entry.get("n", "-")),
                          f"[bold red]{entry['status']}[/]", "-", "-", "no", "-", escape(entry["note"]))
            continue
        note = entry["note"] or (entry.get("reason", "") if verdict in ("outside_hypotheses", "undecided") else "")
        if entry.get("resumed"):
            note = "; ".join(p for p in ("from the earlier report", note) if p)
        table.add_row(
            escape(entry["layer"]), str(entry.get("activation")), str(entry.get("d")), str(entry.get("n")),
            f"[{VERDICT_STYLE.get(verdict, 'bold')}]{escape(str(verdict))}[/]", str(entry.get("result") or "-"),
            escape(str(entry.get("theorem") or "-").rsplit(".", 1)[-1]), "yes" if entry.get("checked") else "no",
            sublayer_cell(entry.get("sublayer")), escape(str(note)),
        )
    console.print(table)
    console.print(f"verdict: about the bare block {BARE_FORM}; sublayer: about the block inside its "
                  "normalization (pre: x + f(N x), post: N(x + f(x)), par: x + attn(N1 x) + f(N2 x)), R11 / R11'",
                  highlight=False)
    for note in result.notes:
        console.print(f"note: {escape(note)}", highlight=False)
    if result.sublayer_problems:  # the bare verdicts stand; the sublayer's norm could not be read
        name, sub = result.sublayer_problems[0]
        console.print(f"note: [bold red]the sublayer of {len(result.sublayer_problems)} of {len(result.layers)} "
                      f"layers was not analysed[/] (first: {escape(name)}: {escape(str(sub.get('status')))}: "
                      f"{escape(str(sub.get('reason')))})", highlight=False)
    summary = doc["summary"]
    console.print(
        f"{summary['layers']} layers; verdicts: "
        + (", ".join(f"{k} {v}" for k, v in summary["verdicts"].items()) or "none")
        + f"; Coq-checked: {summary['checked']}"
        + ("; sublayer: " + ", ".join(f"{k} {v}" for k, v in summary["sublayer_verdicts"].items())
           + f", Coq-checked {summary['sublayer_checked']}" if summary.get("sublayer_verdicts") else "")
        + ("" if set(summary["statuses"]) <= {"ok"} else
           "; statuses: " + ", ".join(f"{k} {v}" for k, v in summary["statuses"].items())),
        highlight=False,
    )
