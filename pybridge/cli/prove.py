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
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
@click.option("--markdown", is_flag=True, help="The README's results table, in Markdown.")
def prove_cmd(as_json: bool, markdown: bool) -> None:
    """Build the Coq library and report, for each paper result, its statement, theorems and status."""
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
    if not console.is_terminal:
        # Piped or redirected: plain lines, so that no name is ever cut to a column width.
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


def _print_details(statuses: list, console: Console) -> None:
    """Each statement's text and each theorem's statement with its axioms."""
    for s in statuses:
        for st in s.statements:
            console.print(f"[bold]{st.name}[/bold] := {st.statement or '(not in the library)'}", highlight=False)
        for t in s.theorems:
            console.print(f"[bold]{t.name}[/bold] : {t.statement}", highlight=False)
            console.print(f"  assumptions: {', '.join(t.assumptions) or 'none'}", highlight=False)
