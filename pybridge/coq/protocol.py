"""The text protocol pybridge speaks with ``coqc``: commands separated by markers, and the
parsing of ``Check`` / ``Print Assumptions`` output. Shared by the queries
(:mod:`.query`), the lemma graph's extraction (:mod:`.dpdgraph`) and the certificates."""

from __future__ import annotations

from typing import Optional

from pybridge.errors import ProverUnavailable

PREFIX = "Absorb"  #: the library's logical root (``-R theories Absorb``)

MARKER = "pybridge_query_marker"


_MARKER_OUT = f"{MARKER}\n     : nat\n"


def marked(groups: list[list[str]]) -> list[str]:
    """Command groups separated by marker checks."""
    lines = [f"Definition {MARKER} := 0%nat."]
    for group in groups:
        lines.append(f"Check {MARKER}.")
        lines += group
    lines.append(f"Check {MARKER}.")
    return lines


def split_marked(stdout: str, count: int) -> list[str]:
    """The output of each of ``count`` command groups."""
    chunks = stdout.split(_MARKER_OUT)[1:-1]
    if len(chunks) != count:
        raise ProverUnavailable("unexpected output from coqc while querying the library")
    return chunks


def parse_assumptions(text: str) -> tuple[str, ...]:
    """Axiom names from the output of one ``Print Assumptions`` command.

    Coq prints ``Closed under the global context`` or a header line followed by
    one entry per axiom whose name starts at column 0 (its type is indented).
    """
    if "Closed under the global context" in text:
        return ()
    names = []
    for line in text.splitlines():
        if line and not line[0].isspace() and not line.endswith(":"):
            names.append(line.split(" :")[0].strip())
    return tuple(names)


def final_assumptions(output: str) -> Optional[tuple[str, ...]]:
    """Axioms printed by the last ``Print Assumptions`` of a file (None if it printed none)."""
    for marker in ("Closed under the global context", "Axioms:"):
        pos = output.rfind(marker)
        if pos >= 0:
            return parse_assumptions(output[pos:])
    return None


def parse_check(chunk: str) -> str:
    """The type printed by one ``Check`` (the statement), on one line."""
    cut = min((i for i in (chunk.find("Axioms:"), chunk.find("Closed under")) if i >= 0),
              default=len(chunk))
    head = chunk[:cut]
    statement = head.split("\n", 1)[1] if "\n" in head else ""
    statement = statement.strip()
    if statement.startswith(":"):
        statement = statement[1:]
    return " ".join(statement.split())
