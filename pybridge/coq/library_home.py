"""Where the formal library is when pybridge is installed from a wheel.

In a checkout the library is ``coq/`` beside the package. A wheel carries the
library's sources as package data (``pybridge/_library/coq``: ``_CoqProject``,
``Makefile``, ``results.toml`` and the ``.v`` files ``_CoqProject`` lists,
copied by ``setup.py``). On first use they are copied into the cache
(``$PYBRIDGE_CACHE_DIR`` or ``~/.cache/pybridge``, one directory per content
digest) and built there with ``make`` (coqc 8.16 and Coquelicot must be
installed; a line on stderr says so, the build takes minutes); later runs find
the built copy.

:func:`locate_library` is the one lookup, used by :class:`pybridge.coq.CoqBackend`
(so the Python API and the CLI find the same library): ``PYBRIDGE_ROOT``, else
the checkout's ``coq/``, else the wheel's copy in the cache. The copy is built
only when Coq is first asked (:func:`ensure_built`), never by a decision alone.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Callable, Optional

from pybridge.errors import ProverUnavailable
from pybridge.files import atomic_write_text

PACKAGED = "_library"
_BUILT = ".pybridge-built"
#: OCaml's garbage collector settings for every coqc (and ``make``) pybridge runs: a major
#: GC that lets the heap grow to 9x the live data before collecting, and OCaml's default
#: minor heap instead of the 256 MB one coqc sets for itself. Measured (bench/RESULTS.md):
#: about 30 % less CPU for a small certificate and 25 % for a batch of GPT-2-small
#: certificates, for about 60 % more peak memory on the large ones.
COQC_GC = "o=800"


def coq_environment() -> dict[str, str]:
    """The environment ``coqc`` runs in: this process's, with :data:`COQC_GC` as
    ``OCAMLRUNPARAM`` unless the user set that variable (then theirs is used as it is)."""
    env = dict(os.environ)
    env.setdefault("OCAMLRUNPARAM", COQC_GC)
    return env


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


def default_cache_dir() -> Path:
    """``$PYBRIDGE_CACHE_DIR``, else ``$XDG_CACHE_HOME/pybridge``, else ``~/.cache/pybridge``."""
    env = os.environ.get("PYBRIDGE_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "pybridge"


def load_memo(path: Path) -> dict[str, tuple[str, ...]]:
    """A cache of ``Print Assumptions`` answers (key -> axiom names); empty if unreadable."""
    try:
        raw = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(raw, dict):
        return {}
    return {k: tuple(v) for k, v in raw.items()
            if isinstance(k, str) and isinstance(v, list) and all(isinstance(a, str) for a in v)}


def save_memo(path: Path, memo: dict[str, tuple[str, ...]]) -> None:
    """Write the cache atomically, merged with what another process wrote meanwhile."""
    try:
        merged = {**load_memo(path), **memo}
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps({k: list(v) for k, v in sorted(merged.items())}))
    except OSError:
        pass  # a cache that cannot be written is skipped


def _stderr_line(text: str) -> None:
    print(f"pybridge: {text}", file=sys.stderr, flush=True)


def materialize(sources: Path, cache: Optional[Path] = None, *, build: bool = True,
                progress: Optional[Callable[[str], None]] = _stderr_line) -> Path:
    """Copy ``sources`` (a ``coq/`` directory) into the cache and build it once; the root.

    The root is the directory holding ``coq/``. Concurrent first uses wait on a
    lock; a failed build raises :class:`ProverUnavailable` and is retried next time.
    ``progress`` receives one line before the build (it takes minutes) and one after.
    """
    root = (cache or default_cache_dir()) / f"library-{_digest(sources)}"
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
            files = sum(1 for line in (coq / "_CoqProject").read_text().splitlines() if line.strip().endswith(".v"))
            if progress is not None:
                progress(f"first use: building the formal library ({files} Coq files) in {coq}; "
                         "this takes several minutes, once")
            start = time.monotonic()
            proc = subprocess.run(["make", "-C", str(coq), "-j2"], capture_output=True, text=True,
                                  env=coq_environment())
            if proc.returncode != 0:
                tail = " | ".join((proc.stdout + proc.stderr).strip().splitlines()[-3:])
                raise ProverUnavailable(f"building the packaged formal library failed: {tail}")
            (coq / _BUILT).write_text("built by pybridge\n")
            if progress is not None:
                progress(f"formal library built in {time.monotonic() - start:.0f} s")
    return root


def is_built(root: Path) -> bool:
    """A cache copy made by :func:`materialize` has been built."""
    return (root / "coq" / _BUILT).is_file()


@dataclass(frozen=True)
class Library:
    """Where the formal library is: ``root/coq``; ``sources`` when it is the wheel's copy
    (built in the cache on first use by :func:`ensure_built`)."""

    root: Path
    sources: Optional[Path] = None


def locate_library() -> Library:
    """The library Coq runs use: ``PYBRIDGE_ROOT``, else this checkout, else the wheel's copy.

    The wheel's copy is copied to the cache (cheap) but not built here. Raises
    :class:`ProverUnavailable` when none is there.
    """
    env = os.environ.get("PYBRIDGE_ROOT")
    if env:
        root = Path(env)
        if not (root / "coq" / "_CoqProject").is_file():
            raise ProverUnavailable(f"formal library not found under {root}/coq (PYBRIDGE_ROOT)")
        return Library(root)
    checkout = checkout_root()
    if checkout is not None:
        return Library(checkout)
    sources = packaged_sources()
    if sources is None:
        raise ProverUnavailable(
            "formal library not found: neither PYBRIDGE_ROOT, a checkout's coq/, nor the copy a wheel carries")
    return Library(materialize(sources, build=False), sources)


def ensure_built(library: Library) -> None:
    """Build the wheel's copy of the library in the cache if it is not built yet (minutes, once)."""
    if library.sources is not None and not is_built(library.root):
        materialize(library.sources, library.root.parent)


def use_packaged_library() -> Optional[Path]:
    """Set ``PYBRIDGE_ROOT`` to the built packaged library unless a library is already found.

    Kept for callers that want the build up front; :class:`pybridge.coq.CoqBackend`
    finds and builds the library itself (:func:`locate_library`)."""
    if os.environ.get("PYBRIDGE_ROOT") or checkout_root() is not None:
        return None
    sources = packaged_sources()
    if sources is None:
        return None
    root = materialize(sources)
    os.environ["PYBRIDGE_ROOT"] = str(root)
    return root
