"""Packaging: the wheel carries the Coq library and a fresh install checks an instance.

The slow test builds the wheel (``pip wheel .``), installs it into a fresh
virtual environment, and runs ``pybridge check`` outside the repository with no
``PYBRIDGE_ROOT``: the packaged library is copied into a new cache directory
and built there on first use. The fresh environment installs only the wheel;
its third-party dependencies (numpy, z3...) are read from this venv through a
``.pth`` line, so that the test needs no download of them (the editable
install of this checkout is not visible there: ``.pth`` files of an added
directory are not processed).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from helpers import REPO

import pybridge
from pybridge.coq.library_home import materialize, packaged_sources, use_packaged_library


def test_version_flag() -> None:
    proc = subprocess.run([sys.executable, "-c", "from pybridge.cli import main; main()", "--version"],
                          capture_output=True, text=True)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"pybridge {pybridge.__version__} (distribution absorb-bridge)"


def test_checkout_needs_no_packaged_library(monkeypatch) -> None:
    monkeypatch.delenv("PYBRIDGE_ROOT", raising=False)
    assert use_packaged_library() is None          # the checkout's coq/ is found first
    assert "PYBRIDGE_ROOT" not in os.environ
    assert (Path(pybridge.__file__).parent / "py.typed").is_file()
    assert (REPO / "LICENSE").read_text().startswith("MIT License")


def test_materialize_copies_once_per_content(tmp_path) -> None:
    src = tmp_path / "coq"
    (src / "theories").mkdir(parents=True)
    (src / "_CoqProject").write_text("-R theories Absorb\ntheories/A.v\n")
    (src / "theories" / "A.v").write_text("Definition a := 1.\n")
    root = materialize(src, tmp_path / "cache", build=False)
    assert (root / "coq" / "theories" / "A.v").read_text() == "Definition a := 1.\n"
    assert materialize(src, tmp_path / "cache", build=False) == root
    (src / "theories" / "A.v").write_text("Definition a := 2.\n")
    assert materialize(src, tmp_path / "cache", build=False) != root


@pytest.mark.slow
@pytest.mark.coq
def test_wheel_installs_and_checks_from_a_fresh_venv(tmp_path) -> None:
    dist = tmp_path / "dist"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-q",
                            "-w", str(dist)], capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-2000:]
    [wheel] = list(dist.glob("absorb_bridge-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "pybridge/py.typed" in names
    assert "pybridge/_library/coq/_CoqProject" in names
    assert "pybridge/templates/vendor/dagre.min.js" in names
    assert any(n.endswith("LICENSE") for n in names)
    assert not [n for n in names if n.endswith((".vo", ".glob", ".vok", ".vos"))]
    project = (REPO / "coq" / "_CoqProject").read_text().split()
    sources = [f"pybridge/_library/coq/{f}" for f in project if f.endswith(".v")]
    assert sources and set(sources) <= set(names)

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py = venv / "bin" / "python"
    inst = subprocess.run([str(py), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert inst.returncode == 0, inst.stderr[-2000:]
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "host-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYBRIDGE_ROOT", "PYTHONPATH")}
    env["PYBRIDGE_CACHE_DIR"] = str(tmp_path / "cache")
    where = subprocess.run([str(py), "-c", "import pybridge, importlib.metadata as m; "
                            "print(pybridge.__file__); print(m.version('absorb-bridge'))"],
                           capture_output=True, text=True, env=env, cwd=work)
    location, version = where.stdout.split()
    assert location.startswith(site) and version == pybridge.__version__
    example = REPO / "examples" / "relu_absorbable.json"
    check = subprocess.run([str(venv / "bin" / "pybridge"), "check", str(example), "--json"],
                           capture_output=True, text=True, env=env, cwd=work, timeout=1800)
    assert check.returncode == 0, check.stderr[-2000:]
    report = json.loads(check.stdout)
    assert report["verdict"] == "absorbable"
    assert report["checked"] is True
    [built] = list((tmp_path / "cache").glob("library-*"))
    assert (built / "coq" / ".pybridge-built").is_file()
    assert list((built / "coq" / "theories").rglob("*.vo"))
    assert not (work / "coq").exists()
    # without coqc the packaged library cannot be built: one line, exit 2
    bare = dict(env, PATH=str(venv / "bin"), PYBRIDGE_CACHE_DIR=str(tmp_path / "cache2"))
    fail = subprocess.run([str(venv / "bin" / "pybridge"), "check", str(example)],
                          capture_output=True, text=True, env=bare, cwd=work)
    assert fail.returncode == 2 and "coqc" in fail.stderr and len(fail.stderr.strip().splitlines()) == 1
    assert packaged_sources() is None  # this checkout's package carries no copy
