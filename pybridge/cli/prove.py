"""``pybridge prove``: build the formal library and report each paper result's status."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from pybridge.coq import CoqBackend
from pybridge.errors import ProverUnavailable
from pybridge.results import assess, load_results, markdown_table, short_name


@click.command("prove")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout (everything --verbose prints).")
@click.option("--markdown", is_flag=True, help="The README's results table, in Markdown.")
@click.option("-v", "--verbose", is_flag=True,
              help="Also every statement's and theorem's text as Coq prints it, with its axioms.")
def prove_cmd(as_json: bool, markdown: bool, verbose: bool) -> None:
    """Build the Coq library and report, for each paper result, its status and theorems.

    By default one line per result (id, status, counts, title) and the axioms the
    theorems rest on; --verbose adds each statement and theorem as Coq prints it.
    --json, --markdown and --verbose exclude each other.
    """
    chosen = [flag for flag, on in (("--json", as_json), ("--markdown", markdown), ("--verbose", verbose)) if on]
    if len(chosen) > 1:
        raise click.UsageError(f"{' and '.join(chosen)} exclude each other: choose one output format")
    backend = CoqBackend()
    build = backend.build_library()
    if not build.ok:
        tail = " | ".join(build.log.strip().splitlines()[-3:])
        raise ProverUnavailable(f"the Coq library does not build: {tail}")
    statuses = assess(load_results(backend.coq_dir / "results.toml"), backend)
    if markdown:
        click.echo(markdown_table(statuses), nl=False)
        return
    if as_json:
        doc = {
            "prover": backend.name,
            "build_seconds": round(build.seconds, 2),
            "results": [s.to_json() for s in statuses],
        }
        click.echo(json.dumps(doc, indent=2))
        return
    console = Console()
    if not verbose:
        _print_summary(statuses)
        return
    if not console.is_terminal:
        # Piped or redirected: plain lines, so that no name is ever cut to a column width.
        console = Console(soft_wrap=True)
        for s in statuses:
            click.echo(f"{s.entry.id}  {s.status}  {s.entry.title}")
            for n in s.entry.statements:
                click.echo(f"  statement: {n}")
            for t in s.theorems:
                click.echo(f"  theorem:   {t.name}")
            if s.note:
                click.echo(f"  note:      {s.note}")
        _print_details(statuses, console)
        return
    table = Table(title="Paper results and their formal proofs")
    for col in ("id", "statement", "status", "Coq theorems", "note"):
        table.add_column(col)
    for s in statuses:
        stmts = "\n".join(short_name(n) for n in s.entry.statements) or "-"
        names = "\n".join(short_name(t.name) for t in s.theorems) or "-"
        table.add_row(s.entry.id, stmts, s.status, names, s.note)
    console.print(table)
    _print_details(statuses, console)


def _print_summary(statuses: list) -> None:
    """One plain line per result, then the axioms used: a screenful, never cut mid-name."""
    for s in statuses:
        missing = sum(1 for t in s.theorems if not t.exists)
        extra = f", {missing} missing" if missing else ""
        click.echo(f"{s.entry.id:<4} {s.status:<8} {len(s.entry.statements)} statements, "
                   f"{len(s.theorems)} theorems{extra}  {s.entry.title}")
    axioms = sorted({a for s in statuses for t in s.theorems for a in t.assumptions})
    bad = sorted({a for s in statuses for t in s.theorems for a in t.disallowed})
    counts = {k: sum(1 for s in statuses if s.status == k) for k in ("proved", "partial", "missing")}
    click.echo(f"{len(statuses)} results: " + ", ".join(f"{v} {k}" for k, v in counts.items() if v))
    click.echo("axioms used: " + (", ".join(axioms) or "none"))
    if bad:
        click.echo("NOT ALLOWED: " + ", ".join(bad))
    click.echo("(--verbose: each statement and theorem as Coq prints it; --json: everything, machine-readable)")


def _print_details(statuses: list, console: Console) -> None:
    """Each statement's text and each theorem's statement with its axioms."""
    for s in statuses:
        for st in s.statements:
            console.print(f"[bold]{st.name}[/bold] := {st.statement or '(not in the library)'}", highlight=False)
        for t in s.theorems:
            console.print(f"[bold]{t.name}[/bold] : {t.statement}", highlight=False)
            console.print(f"  assumptions: {', '.join(t.assumptions) or 'none'}", highlight=False)
