"""Where the formal library is when pybridge is installed from a wheel.

In a checkout the library is ``coq/`` beside the package. A wheel carries the
library's sources as package data (``pybridge/_library/coq``: ``_CoqProject``,
``Makefile``, ``results.toml`` and the ``.v`` files ``_CoqProject`` lists,
copied by ``setup.py``). On first use they are copied into the cache
(``$PYBRIDGE_CACHE_DIR`` or ``~/.cache/pybridge``, one directory per content
digest) and built there with ``make`` (coqc, Coquelicot and MathComp must be
installed); later runs find the built copy.

:func:`use_packaged_library` points ``PYBRIDGE_ROOT`` at that copy when
neither ``PYBRIDGE_ROOT`` nor a checkout's ``coq/`` is there; the CLI calls it
before any command.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
from importlib import resources
from pathlib import Path
from typing import Optional

from pybridge.errors import ProverUnavailable

PACKAGED = "_library"
_BUILT = ".pybridge-built"


def checkout_root() -> Optional[Path]:
    """The repository beside the package, when it holds ``coq/_CoqProject``."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "coq" / "_CoqProject").is_file() else None


def packaged_sources() -> Optional[Path]:
    """The library sources inside the installed package (wheel installs), if any."""
    path = Path(str(resources.files("pybridge").joinpath(PACKAGED, "coq")))
    return path if (path / "_CoqProject").is_file() else None


def _digest(coq: Path) -> str:
    h = hashlib.sha256()
    for f in sorted(p for p in coq.rglob("*") if p.is_file()):
        h.update(str(f.relative_to(coq)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _cache_dir() -> Path:
    env = os.environ.get("PYBRIDGE_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "pybridge"


def materialize(sources: Path, cache: Optional[Path] = None, *, build: bool = True) -> Path:
    """Copy ``sources`` (a ``coq/`` directory) into the cache and build it once; the root.

    The root is the directory holding ``coq/``. Concurrent first uses wait on a
    lock; a failed build raises :class:`ProverUnavailable` and is retried next time.
    """
    root = (cache or _cache_dir()) / f"library-{_digest(sources)}"
    coq = root / "coq"
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (coq / "_CoqProject").is_file():
            tmp = root / "coq.partial"
            shutil.rmtree(tmp, ignore_errors=True)
            shutil.copytree(sources, tmp)
            os.replace(tmp, coq)
        if build and not (coq / _BUILT).is_file():
            if shutil.which("coqc") is None:
                raise ProverUnavailable("'coqc' not found: install Coq 8.16 to build the formal library")
            proc = subprocess.run(["make", "-C", str(coq), "-j2"], capture_output=True, text=True)
            if proc.returncode != 0:
                tail = " | ".join((proc.stdout + proc.stderr).strip().splitlines()[-3:])
                raise ProverUnavailable(f"building the packaged formal library failed: {tail}")
            (coq / _BUILT).write_text("built by pybridge\n")
    return root


def use_packaged_library() -> Optional[Path]:
    """Set ``PYBRIDGE_ROOT`` to the built packaged library unless a library is already found."""
    if os.environ.get("PYBRIDGE_ROOT") or checkout_root() is not None:
        return None
    sources = packaged_sources()
    if sources is None:
        return None
    root = materialize(sources)
    os.environ["PYBRIDGE_ROOT"] = str(root)
    return root
