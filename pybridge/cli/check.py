"""``pybridge check``, ``pybridge scan`` and ``pybridge generate``."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Optional

import click
from rich.console import Console
from rich.markup import escape

from pybridge.api import not_certified, rejected, timed_out
from pybridge.errors import InputError
from pybridge.files import atomic_write_text
from pybridge.model import Report

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
    console.print(f"verdict: [{VERDICT_STYLE[d.verdict]}]{d.verdict}[/]", highlight=False)
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
        if cc.get("witness_equal") is not None:
            parts.append(f"witness equal on {cc['points']} points: {cc['witness_equal']}")
        for key in ("z3_identity", "z3_subset"):
            if cc.get(key) not in (None, "skipped"):
                parts.append(f"{key}: {cc[key]}")
        for key in ("homogeneity", "linearization"):
            if cc.get(key):
                parts.append(cc[key])
        parts.append(f"consistent: {cc.get('consistent')}")
        console.print("crosscheck: " + escape("; ".join(str(p) for p in parts if p)), highlight=False)
    console.print(
        "timings: " + ", ".join(f"{k} {v:.2f} s" for k, v in report.timings.items()), highlight=False
    )


def _print_width(report: Report, console: Console) -> None:
    """Width, least width and the explicit residual-free block of a width-route verdict."""
    from pybridge.api import width_to_json

    info = report.decision.width_info
    if info is None:
        return
    doc = width_to_json(report)
    mw = "unknown" if doc["min_width_lower"] is None else (
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
    help="Directory to keep the generated Coq certificate in.",
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
              help="Report the least absorbing width (certified: absorbable there, and not one below when it can).")
def check_cmd(
    file: Path, activation: Optional[str], as_json: bool, keep_dir: Optional[Path], no_prove: bool, timeout: float,
    max_entries: Optional[int], width: Optional[int] = None, min_width: bool = False,
) -> None:
    """Decide whether the block in FILE can absorb its skip connection, with a Coq certificate.

    Exit status: 0 for any verdict (also when Coq timed out: not a rejection), 1 when
    Coq rejected the certificate, 2 for bad input, 3 for an internal error.
    """
    from pybridge.api import check, exit_code, load, report_to_json

    instance = load(file, _activation_option(activation), max_entries=max_entries)
    if keep_dir is not None and not no_prove:
        ensure_writable_dir(keep_dir, "--keep-certificate")
    report = check(instance, prove=not no_prove, timeout=timeout, keep_dir=keep_dir, width=width,
                   min_width=min_width)
    if as_json:
        click.echo(json.dumps(report_to_json(report), indent=2))
    else:
        print_report(report, Console())
    sys.exit(exit_code(report))


@click.command("generate")
@click.option("--activation", required=True, help="relu, relu^k, gelu, gelu_tanh, silu, swiglu, geglu, reglu.")
@click.option("--d", "d", type=int, required=True, help="Model dimension.")
@click.option("--n", "n", type=int, required=True, help="Hidden width.")
@click.option("--absorbable", is_flag=True, help="Plant S with sum_{i in S} b_i a_i^T = -I.")
@click.option("--seed", type=int, default=None, help="Random seed (printed when not given).")
@click.option("--skip", "with_skip", is_flag=True, help="Add a random invertible integer skip matrix.")
@click.option("--bias", "with_bias", is_flag=True, help="Add random biases.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True)
def generate_cmd(
    activation: str, d: int, n: int, absorbable: bool, seed: Optional[int], with_skip: bool,
    with_bias: bool, output: Path,
) -> None:
    """Write a random exact instance (small integers; generic for ungated activations) as JSON."""
    from pybridge.generate import generate
    from pybridge.io import instance_to_json, parse_activation

    if output.suffix.lower() != ".json":
        raise InputError(f"{output}: the output file must end in .json")
    gen = generate(
        parse_activation(activation), d, n, absorbable=absorbable, seed=seed, skip=with_skip, bias=with_bias
    )
    atomic_write(output, json.dumps(instance_to_json(gen.instance)) + "\n")
    planted = f", planted S={list(gen.subset)}" if gen.subset else ""
    click.echo(f"wrote {output} ({gen.instance.activation.label}, d={d}, n={n}, seed={gen.seed}{planted})")


@click.command("scan")
@click.argument("checkpoint", type=click.Path(path_type=Path))
@click.option("--map", "maps", multiple=True, help="ROLE=TEMPLATE tensor names, {i} = layer number (repeatable).")
@click.option("--transposed", is_flag=True, help="With --map: weights stored (in, out) like GPT-2's Conv1D.")
@click.option("--activation", default=None, help="Override the activation from config.json.")
@click.option("--json-out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write the JSON report here.")
@click.option("--no-prove", is_flag=True, help="Decide only; no Coq.")
@click.option("--timeout", type=TIMEOUT, default=120.0, show_default=True, help="Coq timeout per certificate (s).")
@click.option(
    "--max-entries", type=click.IntRange(min=1), default=1_000_000, show_default=True,
    help="Ungated layers with more entries per matrix are reported undecided (not analysed).",
)
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Layers analysed in parallel processes (default: the number of cores).")
def scan_cmd(
    checkpoint: Path, maps: tuple[str, ...], transposed: bool, activation: Optional[str],
    json_out: Optional[Path], no_prove: bool, timeout: float, max_entries: int, jobs: Optional[int],
) -> None:
    """Check every MLP block of a checkpoint (.safetensors file or directory with config.json)."""
    import os

    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
    from rich.table import Table

    from pybridge.io import checkpoints as ck
    from pybridge.scanning import scan

    mapping = ck.parse_map(maps)
    if transposed and not mapping:
        raise InputError("--transposed only applies with --map")
    if json_out is not None:
        ensure_writable_file(json_out, "--json-out")
    act = _activation_option(activation)
    err = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=err, transient=True,
    ) as bar:
        task = bar.add_task("scanning", total=None)

        def step(k: int, total: int, name: str) -> None:
            bar.update(task, description=f"layer {name}" if name else "scanning", completed=k, total=total)

        result = scan(
            checkpoint, activation=act, mapping=mapping or None, transposed=transposed,
            prove=not no_prove, timeout=timeout, max_entries=max_entries, progress=step,
            jobs=jobs or os.cpu_count() or 1,
        )
        bar.update(task, completed=len(result.layers), total=len(result.layers))
    doc = result.to_json()
    if json_out is not None:
        atomic_write(json_out, json.dumps(doc, indent=2) + "\n")
    console = Console()
    if not console.is_terminal:
        console.width = max(console.width, 160)
    table = Table(title=escape(f"{checkpoint} ({result.model_type or 'model type unknown'}): {result.activation_note}"))
    for col in ("layer", "activation", "d", "n", "verdict", "result", "theorem", "checked", "note"):
        table.add_column(col)
    for lr in result.layers:
        r = lr.report
        if r is None:
            table.add_row(escape(lr.layer), "-", "-", "-", f"[bold red]{lr.status}[/]", "-", "-", "no", escape(lr.note))
            continue
        dec = r.decision
        table.add_row(
            escape(lr.layer), r.activation, str(r.d), str(r.n), f"[{VERDICT_STYLE[dec.verdict]}]{dec.verdict}[/]",
            dec.result or "-", (dec.theorem or "-").rsplit(".", 1)[-1], "yes" if r.checked else "no",
            escape(lr.note or (dec.reason if dec.verdict in ("outside_hypotheses", "undecided") else "")),
        )
    console.print(table)
    for note in result.notes:
        console.print(f"note: {escape(note)}", highlight=False)
    summary = doc["summary"]
    console.print(
        f"{summary['layers']} layers; verdicts: "
        + ", ".join(f"{k} {v}" for k, v in summary["verdicts"].items())
        + f"; Coq-checked: {summary['checked']}"
        + ("" if set(summary["statuses"]) <= {"ok"} else
           "; statuses: " + ", ".join(f"{k} {v}" for k, v in summary["statuses"].items())),
        highlight=False,
    )
    if any(lr.report is not None and rejected(lr.report) for lr in result.layers):
        sys.exit(1)
    bad = result.problems
    if bad:
        raise InputError(
            f"{checkpoint}: {len(bad)} of {len(result.layers)} layers not analysed "
            f"(first: {bad[0].layer}: {bad[0].status}: {bad[0].note})"
            + ("; the report lists every layer" if json_out is not None else "")
        )
    sys.exit(0)
