"""Packaging: the wheel carries the Coq library and a fresh install checks an instance.

The slow test builds the wheel (``pip wheel .``), installs it into a fresh
virtual environment, and runs the README's Python snippet and then ``pybridge
check`` outside the repository with no ``PYBRIDGE_ROOT``: the packaged library
is copied into a new cache directory and built there on first use (by the API,
with a progress line on stderr; the CLI then finds the built copy). The fresh environment installs only the wheel;
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
import time
import zipfile
from pathlib import Path

import pytest
from helpers import REPO

import pybridge
import pybridge.coq.library_home as home
from pybridge.coq import CoqBackend
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


def _fake_wheel_library(tmp_path: Path, monkeypatch) -> tuple[Path, list]:
    """A wheel's situation: no PYBRIDGE_ROOT, no checkout, the sources as package data;
    ``make`` recorded instead of run."""
    src = tmp_path / "pkg" / "coq"
    (src / "theories" / "certify").mkdir(parents=True)
    (src / "_CoqProject").write_text("-R theories Absorb\ntheories/certify/R8Certify.v\n")
    (src / "theories" / "certify" / "R8Certify.v").write_text("Definition a := 1.\n")
    monkeypatch.delenv("PYBRIDGE_ROOT", raising=False)
    monkeypatch.setenv("PYBRIDGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(home, "checkout_root", lambda: None)
    monkeypatch.setattr(home, "packaged_sources", lambda: src)
    calls: list = []

    def fake_make(argv, **kw):
        calls.append(argv)
        return subprocess.CompletedProcess(argv, 0, "", "")

    monkeypatch.setattr(home.subprocess, "run", fake_make)
    return src, calls


def test_backend_finds_the_wheel_library_and_builds_it_only_for_coq(tmp_path, monkeypatch, capsys) -> None:
    """The API route of a wheel install: CoqBackend() finds the packaged copy (no
    PYBRIDGE_ROOT, no CLI); deciding alone never builds it; the first coqc use builds it
    once, saying so on stderr."""
    _, calls = _fake_wheel_library(tmp_path, monkeypatch)
    backend = CoqBackend()
    assert backend.root.parent == tmp_path / "cache" and backend.root.name.startswith("library-")
    assert (backend.theories / "certify" / "R8Certify.v").is_file()
    from pybridge.decision.width_route import library_has

    assert library_has("certify/R8Certify.v") and calls == []      # found, not built
    monkeypatch.setattr(home.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr("pybridge.coq.backend.shutil.which", lambda name: f"/usr/bin/{name}")
    assert backend.require_coq() == "/usr/bin/coqc"
    assert calls == [["make", "-C", str(backend.coq_dir), "-j2"]]
    err = capsys.readouterr().err
    assert "first use: building the formal library (1 Coq files)" in err and "takes several minutes" in err
    assert "formal library built in" in err
    CoqBackend().require_coq()                                       # built: never again
    assert len(calls) == 1 and capsys.readouterr().err == ""


def test_check_without_prove_never_builds_the_wheel_library(tmp_path, monkeypatch) -> None:
    import pybridge

    _, calls = _fake_wheel_library(tmp_path, monkeypatch)
    report = pybridge.check(pybridge.load(REPO / "examples" / "relu_absorbable.json"), prove=False)
    assert report.decision.verdict == "absorbable" and report.checked is False
    assert calls == []


def test_no_library_anywhere_is_one_clear_error(monkeypatch) -> None:
    from pybridge.errors import ProverUnavailable

    monkeypatch.delenv("PYBRIDGE_ROOT", raising=False)
    monkeypatch.setattr(home, "checkout_root", lambda: None)
    monkeypatch.setattr(home, "packaged_sources", lambda: None)
    with pytest.raises(ProverUnavailable, match="formal library not found"):
        CoqBackend()


README_SNIPPET_START = "```python\nimport numpy as np\nimport pybridge"


def readme_snippet() -> str:
    """The README's first Python snippet (the one the slow test runs in a fresh venv)."""
    text = (REPO / "README.md").read_text()
    start = text.index(README_SNIPPET_START) + len("```python\n")
    return text[start:text.index("```", start)]


def test_readme_snippet_runs_here(monkeypatch) -> None:
    """The README's snippet, run in this checkout without Coq (prove=False stands in for the
    slow test's Coq run): it reads arrays and an example and prints what the README says."""
    code = readme_snippet()
    assert "pybridge.check(" in code and "from_arrays(" in code
    out: list[str] = []
    namespace = {"print": lambda *a: out.append(" ".join(map(str, a)))}
    monkeypatch.chdir(REPO)
    exec(compile(code.replace("pybridge.check(inst)", "pybridge.check(inst, prove=False)")
                 .replace("pybridge.check(example)", "pybridge.check(example, prove=False)"),
                 "README.md", "exec"), namespace)
    expected = [line[3:] for line in code.splitlines() if line.startswith("#> ")]
    assert [o.replace("False", "True") for o in out] == expected


def _seed_cache_with_checkout_build(packaged: Path, cache: Path) -> None:
    """Copy the wheel's library into the cache as its first use does, with the checkout's
    compiled modules beside the sources: the wheel's ``.v`` files are the checkout's byte for
    byte (asserted here), so their compiled forms are the same. The first use then runs the
    real build step (``make``, the stamp, the progress lines) without compiling 113 files
    again (two minutes that the suite's own build has just spent)."""
    theories = REPO / "coq" / "theories"
    for v in theories.rglob("*.v"):
        assert (packaged / "theories" / v.relative_to(theories)).read_bytes() == v.read_bytes(), v
    root = materialize(packaged, cache, build=False, progress=None)
    target = root / "coq" / "theories"
    copied = []
    for f in sorted(theories.rglob("*")):
        if f.suffix in (".vo", ".vok", ".vos", ".glob"):
            dst = target / f.relative_to(theories)
            dst.write_bytes(f.read_bytes())
            copied.append(dst)
    stamp = time.time() + 1  # one time for all, after the sources: every module up to date
    for dst in copied:
        os.utime(dst, (stamp, stamp))


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

    # the sdist carries the library's sources; a wheel built from it carries them again
    sdist = subprocess.run([sys.executable, str(REPO / "setup.py"), "-q", "sdist", "-d", str(tmp_path / "sd")],
                           capture_output=True, text=True, cwd=REPO, timeout=600)
    assert sdist.returncode == 0, sdist.stderr[-2000:]
    [tarball] = list((tmp_path / "sd").glob("absorb-bridge-*.tar.gz"))
    import tarfile

    members = tarfile.open(tarball).getnames()
    assert sum(m.endswith(".v") for m in members) == len(sources)
    assert not [m for m in members if m.endswith((".vo", ".glob"))]
    again = subprocess.run([sys.executable, "-m", "pip", "wheel", str(tarball), "--no-deps", "-q",
                            "-w", str(tmp_path / "dist2")], capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr[-2000:]
    [wheel2] = list((tmp_path / "dist2").glob("absorb_bridge-*.whl"))
    assert set(sources) <= set(zipfile.ZipFile(wheel2).namelist())

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
    _seed_cache_with_checkout_build(Path(site, "pybridge", "_library", "coq"), tmp_path / "cache")
    where = subprocess.run([str(py), "-c", "import pybridge, importlib.metadata as m; "
                            "print(pybridge.__file__); print(m.version('absorb-bridge'))"],
                           capture_output=True, text=True, env=env, cwd=work)
    location, version = where.stdout.split()
    assert location.startswith(site) and version == pybridge.__version__
    # The README's Python snippet, as a user would run it: API only, no environment variables.
    script = work / "snippet.py"
    script.write_text(readme_snippet())
    (work / "examples").mkdir()
    (work / "examples" / "relu_absorbable.json").write_text((REPO / "examples" / "relu_absorbable.json").read_text())
    api = subprocess.run([str(py), str(script)], capture_output=True, text=True, env=env, cwd=work, timeout=3600)
    assert api.returncode == 0, api.stderr[-2000:]
    expected = [line[3:] for line in readme_snippet().splitlines() if line.startswith("#> ")]
    assert api.stdout.splitlines() == expected
    assert "first use: building the formal library" in api.stderr   # the progress line
    example = REPO / "examples" / "relu_absorbable.json"
    check = subprocess.run([str(venv / "bin" / "pybridge"), "check", str(example), "--json"],
                           capture_output=True, text=True, env=env, cwd=work, timeout=1800)
    assert check.returncode == 0, check.stderr[-2000:]
    report = json.loads(check.stdout)
    assert report["verdict"] == "absorbable"
    assert report["checked"] is True
    assert "building" not in check.stderr                             # the API's build is reused
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
