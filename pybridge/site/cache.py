"""The lemma graph kept between runs, keyed on the compiled library.

Extraction asks Coq three times (several seconds); a query (``--rests-on``,
``--breaks``, ``--unused``) needs none of that when the library has not
changed. The key is a digest of every compiled file of ``_CoqProject``
(``.vo`` and ``.glob``: size and modification time), of ``_CoqProject`` and
``results.toml`` (contents), of the modules whose certificates name library
lemmas (:func:`pybridge.certify.uses.modules_digest`) and of :data:`SCHEMA`; any change gives a new key,
so a stale graph is never read. The file lives in
:func:`pybridge.coq.query.default_cache_dir`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import networkx as nx

from pybridge.certify.uses import modules_digest
from pybridge.coq import CoqBackend
from pybridge.coq.query import default_cache_dir
from pybridge.errors import ProverUnavailable
from pybridge.files import atomic_write_text
from pybridge.site.graph import extract

#: Bump when the node attributes written by :func:`pybridge.site.graph.extract` change.
SCHEMA = "graph-v2"

#: Graphs kept (several checkouts or libraries may share the cache directory).
KEEP = 8


@dataclass(frozen=True)
class CacheKey:
    """The digest naming a cached graph, or None when some compiled file is missing."""

    digest: Optional[str]

    def path(self, directory: Path) -> Optional[Path]:
        return directory / f"lemma-graph-{self.digest}.json" if self.digest else None


def library_key(backend: CoqBackend) -> CacheKey:
    """Digest of the compiled library as it is on disk now."""
    h = hashlib.sha256(SCHEMA.encode())
    h.update(modules_digest().encode())  # which nodes pybridge's certificates name
    project = backend.coq_dir / "_CoqProject"
    results = backend.coq_dir / "results.toml"
    for f in (project, results):
        h.update(f.name.encode())
        h.update(f.read_bytes() if f.is_file() else b"<absent>")
    for module in backend.modules():
        rel = module.split(".", 1)[1].replace(".", "/")
        for suffix in (".vo", ".glob", ".v"):
            f = backend.theories / f"{rel}{suffix}"
            try:
                st = f.stat()
            except OSError:
                return CacheKey(None)
            h.update(f"{rel}{suffix}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return CacheKey(h.hexdigest()[:24])


def load(key: CacheKey, directory: Optional[Path] = None) -> Optional[nx.DiGraph]:
    """The cached graph for ``key``, or None (absent, unreadable or malformed)."""
    path = key.path(directory or default_cache_dir())
    if path is None:
        return None
    try:
        data = json.loads(path.read_text())
        return nx.node_link_graph(data, directed=True, edges="links")
    except (OSError, ValueError, KeyError, TypeError, nx.NetworkXError):
        return None


def save(g: nx.DiGraph, key: CacheKey, directory: Optional[Path] = None) -> None:
    """Write the graph atomically; old graphs of this library are removed; errors are ignored."""
    directory = directory or default_cache_dir()
    path = key.path(directory)
    if path is None:
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(nx.node_link_data(g, edges="links"), separators=(",", ":")),
                          prefix=".lemma-graph-")
        olds = sorted(directory.glob("lemma-graph-*.json"), key=lambda f: f.stat().st_mtime)
        for old in olds[:-KEEP]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def build_library(backend: CoqBackend) -> None:
    """``make`` the library (a no-op when up to date), or :class:`ProverUnavailable`."""
    res = backend.build_library()
    if not res.ok:
        tail = " | ".join(res.log.strip().splitlines()[-3:])
        raise ProverUnavailable(f"the Coq library does not build: {tail}")


def load_graph(
    backend: Optional[CoqBackend] = None, *, build: bool = True, cache: bool = True
) -> nx.DiGraph:
    """The lemma graph: from the cache when the compiled library is unchanged, else extracted.

    ``build``: run ``make`` first (a no-op when up to date); ``cache=False``
    extracts afresh (and asks Coq for standard-library assumptions afresh).
    """
    backend = backend or CoqBackend()
    if build:
        build_library(backend)
    key = library_key(backend)
    if cache:
        g = load(key)
        if g is not None:
            return g
    g = extract(backend, build=False, cache=cache)
    if cache:
        save(g, key)
    return g
