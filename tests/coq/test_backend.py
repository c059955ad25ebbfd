"""The Coq backend tells a library it cannot load apart from a certificate it rejects."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from pybridge.coq import CoqBackend
from pybridge.errors import EXIT_INPUT, ProverUnavailable
from pybridge.prover import ProverOutcome

pytestmark = [pytest.mark.coq, pytest.mark.skipif(shutil.which("coqc") is None, reason="needs coqc")]


def _library(root: Path) -> CoqBackend:
    """A two-module library ``Absorb.a.X`` <- ``Absorb.a.Y``, compiled."""
    theories = root / "coq" / "theories" / "a"
    theories.mkdir(parents=True)
    (root / "coq" / "_CoqProject").write_text("-R theories Absorb\ntheories/a/X.v\ntheories/a/Y.v\n")
    (theories / "X.v").write_text("Definition x := 1.\n")
    (theories / "Y.v").write_text("From Absorb Require Import X. Definition y := x.\n")
    backend = CoqBackend(root)
    for stem in ("X", "Y"):
        subprocess.run(backend.coqc_args() + [str(theories / f"{stem}.v")], check=True, capture_output=True)
    return backend


CERT = "From Absorb Require Import Y.\nGoal y = 1. Proof. reflexivity. Qed.\n"


def test_consistent_library_accepts_and_rejects(tmp_path: Path) -> None:
    backend = _library(tmp_path)
    assert backend.check_file(CERT, stem="Ok", timeout=60).outcome is ProverOutcome.ACCEPTED
    wrong = "From Absorb Require Import Y.\nGoal y = 2. Proof. reflexivity. Qed.\n"
    assert backend.check_file(wrong, stem="Wrong", timeout=60).outcome is ProverOutcome.REJECTED


def test_stale_library_is_unavailable_not_rejected(tmp_path: Path) -> None:
    backend = _library(tmp_path)
    x = tmp_path / "coq" / "theories" / "a" / "X.v"
    x.write_text("Definition x := 2.\n")  # X recompiled, Y not: inconsistent assumptions
    subprocess.run(backend.coqc_args() + [str(x)], check=True, capture_output=True)
    with pytest.raises(ProverUnavailable, match="inconsistent assumption.*make -C coq") as info:
        backend.check_file(CERT, stem="Stale", timeout=60)
    assert info.value.exit_code == EXIT_INPUT


def test_corrupt_or_missing_module_is_unavailable(tmp_path: Path) -> None:
    backend = _library(tmp_path)
    vo = tmp_path / "coq" / "theories" / "a" / "X.vo"
    vo.write_bytes(b"garbage")
    with pytest.raises(ProverUnavailable, match="premature end of file"):
        backend.check_file(CERT, stem="Truncated", timeout=60)
    vo.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(ProverUnavailable, match="bad magic number"):
        backend.check_file(CERT, stem="Corrupt", timeout=60)
    missing = "From Absorb Require Import Z.\nGoal True. Proof. exact I. Qed.\n"
    with pytest.raises(ProverUnavailable, match="physical path"):
        backend.check_file(missing, stem="Missing", timeout=60)


def test_files_are_checked_by_coqtop_batch_or_coqc_alike(tmp_path: Path) -> None:
    """coqtop -batch -l (no .vo written) when coqtop sits beside coqc, else coqc: the same
    verdicts, and a rejected file's error is reported either way."""
    backend = _library(tmp_path / "lib")
    checked = tmp_path / "C.v"
    assert Path(backend.check_args(checked)[0]).name == "coqtop" and "-batch" in backend.check_args(checked)
    alone = tmp_path / "bin"
    alone.mkdir()
    (alone / "coqc").symlink_to(shutil.which("coqc") or "coqc")
    plain = CoqBackend(backend.root, coqc=str(alone / "coqc"))
    assert plain.check_args(checked) == plain.coqc_args() + [str(checked)]
    wrong = "From Absorb Require Import Y.\nGoal y = 2. Proof. reflexivity. Qed.\n"
    for b in (backend, plain):
        assert b.check_file(CERT, stem="Ok", timeout=60).outcome is ProverOutcome.ACCEPTED
        res = b.check_file(wrong, stem="Wrong", timeout=60)
        assert res.outcome is ProverOutcome.REJECTED and "Unable to unify" in res.message
