"""Option handling of prove / check / generate (issue 21): exclusive formats, strict paths,
complete help, piped output that never wraps or prints values that were not computed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_main as run

from pybridge.activations import REGISTRY
from pybridge.generate import MAX_DIM

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"




def assert_usage_error(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pybridge: error: "), err
    for w in words:
        assert w in err, (w, err)


def no_coq(monkeypatch) -> None:
    """Any attempt to reach Coq fails the test: the options must be refused first."""
    import pybridge.cli.prove as prove

    def refuse(*a, **k):
        raise AssertionError("Coq was asked although the options were invalid")

    monkeypatch.setattr(prove, "CoqBackend", refuse)


@pytest.mark.parametrize("flags", [["--json", "--markdown"], ["--json", "--verbose"], ["--markdown", "-v"]])
def test_prove_output_formats_exclude_each_other(capsys, monkeypatch, flags: list[str]) -> None:
    no_coq(monkeypatch)
    assert_usage_error(*run(capsys, "prove", *flags), "exclude each other")


def test_check_width_and_min_width_exclude_each_other(capsys) -> None:
    assert_usage_error(*run(capsys, "check", str(EXAMPLES / "relu_counterexample.json"), "--no-prove",
                            "--width", "3", "--min-width"), "--width", "--min-width")


def test_keep_certificate_parent_must_exist(capsys, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "deeper" / "certs"
    assert_usage_error(*run(capsys, "check", str(EXAMPLES / "relu_absorbable.json"),
                            "--keep-certificate", str(target)), "does not exist")
    assert not (tmp_path / "missing").exists()


def test_keep_certificate_with_no_prove_is_refused(capsys, tmp_path: Path) -> None:
    assert_usage_error(*run(capsys, "check", str(EXAMPLES / "relu_absorbable.json"), "--no-prove",
                            "--keep-certificate", str(tmp_path / "certs")), "--no-prove")
    assert not (tmp_path / "certs").exists()


def test_generate_help_lists_every_activation_and_the_ranges(capsys) -> None:
    code, out, _ = run(capsys, "generate", "--help")
    assert code == 0
    flat = " ".join(out.split())
    for name in REGISTRY:
        assert (name if name != "relu_pow" else "relu^k") in flat, name
    assert f"1<=x<={MAX_DIM}" in flat.replace(" ", "")


@pytest.mark.parametrize("args,word", [(["--d", "0", "--n", "3"], "--d"), (["--d", "2", "--n", "5000"], "--n"),
                                       (["--d", "2", "--n", "3", "--activation", "tanh"], "tanh")])
def test_generate_out_of_range_or_unknown(capsys, tmp_path: Path, args: list[str], word: str) -> None:
    full = ["--activation", "relu", *args] if "--activation" not in args else args
    assert_usage_error(*run(capsys, "generate", *full, "-o", str(tmp_path / "g.json")), word)
    assert list(tmp_path.iterdir()) == []


def _piped(*argv: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pybridge.cli", *argv], capture_output=True, text=True,
                          env=env, timeout=300)


def test_piped_check_output_never_wraps_nor_prints_uncomputed_values(tmp_path: Path) -> None:
    long = tmp_path / ("a_rather_long_instance_name_" * 4 + ".json")
    long.write_text((EXAMPLES / "relu_counterexample.json").read_text())
    proc = _piped("check", str(long), "--no-prove")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(long.name + ": relu, d=1, n=2")       # not cut at 80 columns
    assert any(line.startswith("crosscheck: ") and line.endswith("consistent: True") for line in lines)
    assert "None" not in proc.stdout and "unknown" not in proc.stdout
    assert "least absorbing width: not computed (--min-width)" in proc.stdout
    proc = _piped("check", str(long), "--no-prove", "--min-width")
    assert "least absorbing width: 2" in proc.stdout


def test_check_no_prove_needs_no_coqc(tmp_path: Path) -> None:
    """No coqc on PATH: --no-prove still decides (exit 0); with Coq asked, one line, exit 2."""
    env = {k: v for k, v in os.environ.items() if k != "PATH"}
    env["PATH"] = str(tmp_path)  # nothing there
    proc = _piped("check", str(EXAMPLES / "relu_absorbable.json"), "--no-prove", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "verdict: absorbable" in proc.stdout and "not attempted (--no-prove)" in proc.stdout
    proc = _piped("check", str(EXAMPLES / "relu_absorbable.json"), env=env)
    assert proc.returncode == 2 and "coqc" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_prove_prints_a_compact_summary_by_default(capsys, backend) -> None:
    code, out, _ = run(capsys, "prove")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) < 25, len(lines)
    ids = [line.split()[0] for line in lines if line[:1] == "R"]
    assert ids[:2] == ["R1", "R2"] and "R10" in ids
    assert any(line.startswith("axioms used: ") and "Classical_Prop.classic" in line for line in lines)
    assert not any(line.startswith("NOT ALLOWED") for line in lines)
    code, verbose, _ = run(capsys, "prove", "--verbose")
    assert code == 0 and len(verbose.splitlines()) > 10 * len(lines)
    assert "assumptions: " in verbose
