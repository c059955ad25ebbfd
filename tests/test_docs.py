"""Documents that quote the code: the figures and lists they state are checked here (issue 21)."""

from __future__ import annotations

import re
import subprocess
from fractions import Fraction
from pathlib import Path

import click
import numpy as np

from pybridge.activations import REGISTRY
from pybridge.io import instance_from_json
from pybridge.io.build import ROLES
from pybridge.results import load_results

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
API = (ROOT / "docs" / "api.md").read_text()
FORMAT = (ROOT / "docs" / "format.md").read_text()


def coq_files() -> int:
    return sum(1 for line in (ROOT / "coq" / "_CoqProject").read_text().splitlines() if line.strip().endswith(".v"))


def test_readme_counts_the_library_files_from_coqproject() -> None:
    counts = {int(m) for m in re.findall(r"(\d+) files", README)}
    assert coq_files() in counts, counts
    assert not re.search(r"(?<!\d)27 files", README.replace("was for 27 files", ""))


def test_links_stay_inside_the_repository() -> None:
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "examples" / "README.md"]:
        for target in re.findall(r"\]\(([^)#]+)\)", path.read_text()):
            if target.startswith(("http://", "https://")):
                continue
            resolved = (path.parent / target).resolve()
            assert resolved.is_relative_to(ROOT), (path.name, target)
            assert resolved.exists(), (path.name, target)
    assert "../shared/" not in README
    assert (ROOT / "docs" / "paper.md").read_text().strip()


def test_mathcomp_is_not_named_as_a_requirement() -> None:
    used = [p for p in (ROOT / "coq" / "theories").rglob("*.v") if re.search(r"mathcomp", p.read_text(), re.I)]
    assert not used                       # nothing imports it ...
    install = README[README.index("## Install"):README.index("## What is proved")]
    assert "mathcomp" not in install.lower()   # ... so the install section does not ask for it
    assert "nothing in\n`coq/` imports" in README or "nothing in `coq/` imports" in README


def test_api_doc_result_ids_are_those_of_results_toml() -> None:
    ids = [e.id for e in load_results(ROOT / "coq" / "results.toml")]
    m = re.search(r"`result` \(a result id of `coq/results.toml`: ([^)]*)\)", API)
    assert m and [x.strip() for x in m.group(1).split(",")] == ids
    assert "R1–R7)" not in API and "R2–R6" not in API and "about 2 minutes" not in API


def test_api_doc_synopsis_lists_every_option() -> None:
    from pybridge.cli import main_group

    synopsis = API[API.index("<!-- cli-synopsis:start -->"):API.index("<!-- cli-synopsis:end -->")]
    for name in ("check", "scan", "generate", "prove", "graph"):
        assert f"pybridge {name}" in synopsis, name
        if name == "graph":
            continue
        ctx = click.Context(main_group)
        command = main_group.get_command(ctx, name)
        assert command is not None
        for param in command.params:
            if isinstance(param, click.Option):
                assert any(re.search(re.escape(o) + r"\b", synopsis) for o in param.opts), (name, param.opts)


def test_format_doc_keys_and_activations() -> None:
    for key in ROLES:
        assert f"| `{key}` |" in FORMAT, key
    for name in REGISTRY:
        assert f"`{name if name != 'relu_pow' else 'relu^k'}`" in FORMAT, name


def test_format_doc_examples_read_as_stated() -> None:
    block = FORMAT[FORMAT.index("```json") + 7:]
    block = block[:block.index("```")]
    inst = instance_from_json(block)

    assert inst.b_up == (Fraction(1), Fraction(1, 2), Fraction(-1)) and inst.b_down == (Fraction(-1, 4), Fraction(300))
    code = FORMAT[FORMAT.index("```python") + 9:]
    code = code[:code.index("```")]
    ns: dict = {}
    exec(code, ns)
    assert ns["inst"].b_up == (Fraction(1), Fraction(1, 2), Fraction(-1))
    assert Fraction(np.float32(0.1).item()) == Fraction(13421773, 134217728)   # the figure quoted


def test_examples_readme_has_no_stale_unchecked_claim() -> None:
    text = (ROOT / "examples" / "README.md").read_text()
    assert "not in the library yet" not in text and "checked: false" not in text


def test_bench_build_counts_files_from_coqproject(tmp_path: Path) -> None:
    """The script runs (with ``make`` replaced by ``true``: no build) and counts 107-style."""
    proc = subprocess.run(["bash", str(ROOT / "bench" / "bench_build.sh")], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "MAKE": "true"}, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert f"clean build of {coq_files()} Coq files" in proc.stdout


def test_api_doc_numpy_snippet_runs(monkeypatch) -> None:
    import pybridge

    section = API[API.index("### From NumPy arrays"):]
    code = section[section.index("```python") + 9:]
    code = code[:code.index("```")]
    real = pybridge.check
    monkeypatch.setattr(pybridge, "check", lambda inst: real(inst, prove=False))   # no Coq here
    ns: dict = {}
    exec(code, ns)
    assert ns["report"].decision.verdict == "absorbable" and ns["inst"].activation.name == "gelu"


def test_paper_view_names_every_result_of_results_toml() -> None:
    """The graph's overview labels a result by its short name from templates/paper.toml; a
    result without one would be drawn with its whole title (unreadable at 1024 px)."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    ids = [r["id"] for r in tomllib.loads((root / "coq" / "results.toml").read_text())["result"]]
    paper = {r["id"]: r for r in tomllib.loads((root / "pybridge" / "templates" / "paper.toml").read_text())["result"]}
    assert [i for i in ids if i not in paper] == []
    assert all(len(paper[i]["name"]) <= 40 for i in ids), [paper[i]["name"] for i in ids]
