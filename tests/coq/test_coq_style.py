"""Size rules of the Coq library: short files, short lines, and a README that maps the folders.

Every ``coq/theories/**/*.v`` file has at most ``MAX_FILE_LINES`` lines and no line over
``MAX_LINE_CHARS`` characters; ``coq/README.md`` exists and names every folder of
``coq/theories``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
THEORIES = ROOT / "coq" / "theories"
README = ROOT / "coq" / "README.md"
MAX_FILE_LINES = 700
MAX_LINE_CHARS = 100
THEORY_FILES = sorted(THEORIES.rglob("*.v"))


def rel(path: Path) -> str:
    return path.relative_to(THEORIES).as_posix()


def long_lines(path: Path) -> list[str]:
    """``file:line (length)`` for each line of ``path`` over the limit."""
    return [
        f"coq/theories/{rel(path)}:{number} ({len(line)} chars)"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if len(line) > MAX_LINE_CHARS
    ]


def test_library_has_files() -> None:
    assert THEORY_FILES, f"no .v files under {THEORIES}"


def test_no_file_over_max_lines() -> None:
    too_long = [
        f"coq/theories/{rel(p)}: {n} lines"
        for p in THEORY_FILES
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES
    ]
    assert not too_long, f"files over {MAX_FILE_LINES} lines (split them):\n" + "\n".join(too_long)


@pytest.mark.parametrize("path", THEORY_FILES, ids=rel)
def test_no_line_over_max_chars(path: Path) -> None:
    offending = long_lines(path)
    assert not offending, f"lines over {MAX_LINE_CHARS} characters:\n" + "\n".join(offending)


def test_readme_names_every_folder() -> None:
    assert README.is_file(), "coq/README.md is missing"
    text = README.read_text(encoding="utf-8")
    folders = sorted(p.name for p in THEORIES.iterdir() if p.is_dir())
    missing = [f for f in folders if f"`{f}/`" not in text]
    assert not missing, f"coq/README.md does not name these folders of coq/theories: {missing}"
