"""Which library lemmas pybridge's own Coq certificates name.

A lemma nothing in the library uses may still be used: the certificates that
``pybridge check`` writes apply checkers (``check_nosub_identity``...) and
theorems by name. Those names are string literals in the modules that write
Coq (:data:`CERTIFICATE_MODULES`); this module reads them with :mod:`ast`
(docstrings left out) and keeps the identifiers that name a node of the graph.
"""

from __future__ import annotations

import ast
import hashlib
import re
from importlib import resources
from pathlib import Path

import networkx as nx

#: The modules whose string literals become Coq source or name Coq lemmas (glob
#: patterns relative to the package; absent ones are skipped).
CERTIFICATE_MODULES = ("certify/*.py", "activations.py",
                       "decision/*.py")

_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_']*(?:\.[A-Za-z_][A-Za-z0-9_']*)*")


def _docstring_nodes(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def literal_identifiers(source: str) -> set[str]:
    """Dotted identifiers in the string literals of ``source`` (docstrings left out)."""
    tree = ast.parse(source)
    skip = _docstring_nodes(tree)
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            out.update(_IDENT_RE.findall(node.value))
    return out


def _certificate_files() -> list[Path]:
    with resources.as_file(resources.files("pybridge")) as pkg:
        return [f for pattern in CERTIFICATE_MODULES for f in sorted(Path(pkg).glob(pattern))]


def modules_digest() -> str:
    """A digest of the certificate-writing modules (part of the lemma-graph cache key)."""
    h = hashlib.sha256()
    for f in _certificate_files():
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def pybridge_identifiers() -> set[str]:
    """Identifiers named by the certificate-writing modules of the installed package."""
    out: set[str] = set()
    for f in _certificate_files():
        out |= literal_identifiers(f.read_text(encoding="utf-8"))
    return out


def used_by_certificates(g: nx.DiGraph, identifiers: set[str] | None = None) -> set[str]:
    """Graph nodes the certificates name: by full name, ``Module.name`` or a unique short name."""
    idents = pybridge_identifiers() if identifiers is None else identifiers
    by_short: dict[str, list[str]] = {}
    by_module_short: dict[str, list[str]] = {}
    for n in g:
        parts = n.split(".")
        by_short.setdefault(parts[-1], []).append(n)
        by_module_short.setdefault(".".join(parts[-2:]), []).append(n)
    out: set[str] = set()
    for ident in idents:
        if ident in g:
            out.add(ident)
            continue
        for table, key in ((by_module_short, ".".join(ident.split(".")[-2:])),
                           (by_short, ident)):
            hits = table.get(key, [])
            if len(hits) == 1:
                out.add(hits[0])
                break
    return out
