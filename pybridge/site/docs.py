"""The browsable site of the library: lemma graph, paper view and coqdoc source pages.

``write_site`` writes, into one directory that works offline from ``file://``:

- ``graph.html``: the lemma graph and the paper view (one page, state in the URL);
- ``index.html``: opens the paper view;
- ``src/``: coqdoc's HTML of every file of ``_CoqProject`` (anchors per declaration),
  each page with a bar back to the graph and a ``graph`` link per declaration
  (:func:`link_back`);
- ``vendor/``: KaTeX (mathematics) and dagre (no longer used by the page), see
  ``vendor/LICENSES.md``.

Every node links to its declaration's anchor in ``src/``; the page also carries
each declaration's source text (statement up to its final period, with the
comment just above it) for the side panel.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Optional
from urllib.parse import quote

import networkx as nx

from pybridge.coq import CoqBackend
from pybridge.errors import ProverUnavailable
from pybridge.files import atomic_write_text
from pybridge.site.html import to_html

SRC_DIR = "src"
VENDOR_DIR = "vendor"

#: Longest declaration source carried into the page (lines).
MAX_SOURCE_LINES = 40

_ANCHOR_RE = re.compile(r'<a id="([^"]+)" class="idref"')
#: A declaration site in coqdoc's HTML: the anchor, then the name's span.
_DECL_RE = re.compile(r'(<a id="([^"]+)" class="idref" href="#[^"]+"><span class="id" '
                      r'title="[^"]*">[^<]*</span></a>)')
_NAV_STYLE = ("<style>.pybridge-nav{font:13px system-ui,sans-serif;padding:6px 10px;"
              "background:#eef2f8;border-bottom:1px solid #c9d2e0}.pybridge-nav a{margin-right:14px}"
              "a.to-graph{font:11px system-ui,sans-serif;margin-left:6px;padding:0 5px;"
              "border:1px solid #9fb3d1;border-radius:8px;text-decoration:none;color:#1f5fb8}"
              "</style>")
_INDEX_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Absorb library</title>
<meta http-equiv="refresh" content="0; url=graph.html#view=paper"></head>
<body><p><a href="graph.html#view=paper">The paper's results</a> ·
<a href="graph.html">the lemma graph</a> · <a href="src/toc.html">the sources</a></p></body></html>
"""


@dataclass(frozen=True)
class SourceDocs:
    """coqdoc's output: the page of each module and the anchors it defines."""

    directory: Path
    pages: dict[str, str]
    anchors: dict[str, frozenset[str]]
    seconds: float


@dataclass(frozen=True)
class SiteReport:
    """What :func:`write_site` wrote."""

    page: Path
    docs: Optional[SourceDocs]
    seconds: float


# --------------------------------------------------------------------------- coqdoc


def page_name(module: str) -> str:
    """coqdoc's file name for a module: ``Absorb.results.Depth`` -> ``Absorb.results.Depth.html``."""
    return f"{module}.html"


class CoqdocRun:
    """coqdoc running in the background (it needs only the ``.glob`` files, so it can run
    while the graph is extracted); :meth:`wait` collects its pages and anchors."""

    def __init__(self, backend: CoqBackend, out: Path, *, timeout: float = 120.0) -> None:
        exe = shutil.which("coqdoc")
        if exe is None:
            raise ProverUnavailable("coqdoc not found: install Coq (it ships coqdoc)")
        self.modules = backend.modules()
        files = [str(backend.module_file(m)) for m in self.modules]
        self.out = out.resolve()  # coqdoc runs in coq/
        self.out.mkdir(parents=True, exist_ok=True)
        self.timeout = timeout
        self.start = time.monotonic()
        self.proc = subprocess.Popen(
            [exe, "--html", "--utf8", "--toc", "--no-externals", "-R", str(backend.theories),
             "Absorb", "-d", str(self.out), *files],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=backend.coq_dir,
        )

    def wait(self) -> SourceDocs:
        try:
            _, stderr = self.proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()
            raise ProverUnavailable(f"coqdoc took longer than {self.timeout:.0f} s") from None
        if self.proc.returncode != 0:
            tail = " | ".join(stderr.strip().splitlines()[-3:])
            raise ProverUnavailable(f"coqdoc failed: {tail}")
        pages: dict[str, str] = {}
        anchors: dict[str, frozenset[str]] = {}
        for m in self.modules:
            f = self.out / page_name(m)
            if f.is_file():
                pages[m] = page_name(m)
                anchors[m] = frozenset(_ANCHOR_RE.findall(f.read_text(errors="replace")))
        return SourceDocs(self.out, pages, anchors, time.monotonic() - self.start)

    def discard(self) -> None:
        """Stop coqdoc and remove its output (the command failed before the site was written)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate()
        shutil.rmtree(self.out, ignore_errors=True)


def run_coqdoc(backend: CoqBackend, out: Path, *, timeout: float = 120.0) -> SourceDocs:
    """coqdoc HTML of every ``_CoqProject`` file into ``out`` (needs the ``.glob`` files)."""
    return CoqdocRun(backend, out, timeout=timeout).wait()


def coqdoc_anchor(inner: str) -> str:
    """coqdoc's anchor for a module-relative name: the name when ASCII, else its MD5 in hex."""
    return inner if inner.isascii() else hashlib.md5(inner.encode("utf-8")).hexdigest()


def node_hrefs(g: nx.DiGraph, docs: SourceDocs, prefix: str = SRC_DIR) -> dict[str, str]:
    """Each node's link into the source pages (relative to the site directory).

    The declaration's anchor when coqdoc made one; else the anchor of the module
    inside the file that holds it (names made by a functor application,
    ``IntSort.sort``); a constructor without its own anchor links to its type;
    otherwise the file's page.
    """
    out: dict[str, str] = {}
    for n, d in g.nodes(data=True):
        module = d.get("module", "")
        page = docs.pages.get(module)
        if page is None:
            continue
        known = docs.anchors.get(module, frozenset())
        parts = n[len(module) + 1 :].split(".")
        anchors = [coqdoc_anchor(".".join(parts[:k])) for k in range(len(parts), 0, -1)]
        anchor = next((a for a in anchors if a in known), None)
        out[n] = f"{prefix}/{page}#{anchor}" if anchor else f"{prefix}/{page}"
    for n, d in g.nodes(data=True):
        if d.get("kind") == "constructor" and n in out and "#" not in out[n]:
            for t in g.successors(n):
                if g.nodes[t].get("kind") in ("inductive", "record") and "#" in out.get(t, ""):
                    out[n] = out[t]
                    break
    return out


def _graph_link(fragment: dict[str, str]) -> str:
    """``../graph.html#k=v&...`` with every value percent-encoded, HTML-escaped for an attribute."""
    query = "&".join(f"{k}={quote(v, safe='')}" for k, v in fragment.items())
    return html.escape(f"../graph.html#{query}", quote=True)


def link_back(g: nx.DiGraph, docs: SourceDocs) -> int:
    """Give every coqdoc page a bar linking back to the graph, and each declaration a link.

    The bar of a module's page opens the graph on that file; each declaration
    coqdoc anchors (its own anchor, :func:`coqdoc_anchor`) gets a small
    ``graph`` link that opens the graph focused on it. Returns the number of
    declaration links written. Names reach the HTML only percent-encoded and
    escaped.
    """
    by_page: dict[str, dict[str, str]] = {}
    for n, d in g.nodes(data=True):
        module = d.get("module", "")
        page = docs.pages.get(module)
        anchor = coqdoc_anchor(n[len(module) + 1 :]) if module else ""
        if page and anchor in docs.anchors.get(module, frozenset()):
            by_page.setdefault(page, {})[anchor] = n
    files = {d.get("module", ""): d.get("file", "") for _, d in g.nodes(data=True)}
    links = 0
    pages = dict((page, module) for module, page in docs.pages.items())
    extra = [f.name for f in docs.directory.glob("*.html") if f.name not in pages]
    for page in [*pages, *extra]:
        path = docs.directory / page
        text = path.read_text(encoding="utf-8", errors="replace")
        if 'class="pybridge-nav"' in text:
            continue
        module = pages.get(page)
        bar = ['<div class="pybridge-nav">']
        if module and files.get(module):
            bar.append(f'<a href="{_graph_link({"file": files[module]})}">&larr; this file in the '
                       "lemma graph</a>")
        bar.append('<a href="../graph.html">the lemma graph</a>')
        bar.append(f'<a href="{_graph_link({"view": "paper"})}">the paper\'s results</a>')
        bar.append('<a href="toc.html">all source pages</a></div>')
        anchors = by_page.get(page, {})

        def add(m: re.Match, anchors: dict[str, str] = anchors) -> str:
            nonlocal links
            name = anchors.get(m.group(2))
            if name is None:
                return m.group(1)
            links += 1
            href = _graph_link({"node": name, "sel": name})
            return (f'{m.group(1)}<a class="to-graph" href="{href}" '
                    'title="this declaration in the lemma graph">graph</a>')

        text = _DECL_RE.sub(add, text)
        text = text.replace("</head>", _NAV_STYLE + "</head>", 1)
        text = text.replace("<body>", "<body>\n" + " ".join(bar), 1)
        atomic_write_text(path, text, prefix=".site-", mode=0o644)
    return links


# --------------------------------------------------------------------------- declaration sources


def _comment_above(lines: list[str], start: int) -> int:
    """Index of the first line of a ``(* ... *)`` comment ending right above line ``start``."""
    k = start - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    if k < 0 or not lines[k].rstrip().endswith("*)"):
        return start
    j = k
    while j >= 0 and "(*" not in lines[j]:
        j -= 1
    return j if j >= 0 and start - j <= MAX_SOURCE_LINES // 2 else start


def _sentence_end(text: str) -> int:
    """Index just past the first Coq sentence end (a '.' then blank) outside comments and strings."""
    depth = 0
    i, n = 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            in_string = c != '"'
        elif text.startswith("(*", i):
            depth += 1
            i += 1
        elif depth and text.startswith("*)", i):
            depth -= 1
            i += 1
        elif not depth and c == '"':
            in_string = True
        elif not depth and c == "." and (i + 1 == n or text[i + 1].isspace()):
            return i + 1
        i += 1
    return n


def declaration_source(source: str, line: int) -> str:
    """The declaration starting on ``line`` (1-based): comment above it, then up to its period."""
    lines = source.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    start = line - 1
    first = _comment_above(lines, start)
    body = "\n".join(lines[start : start + MAX_SOURCE_LINES])
    body = body[: _sentence_end(body)]
    head = "\n".join(lines[first:start])
    text = (head + "\n" + body) if head else body
    return text.rstrip()


def node_sources(g: nx.DiGraph, root: Path) -> dict[str, str]:
    """Each node's declaration source, read from its file (``file`` relative to ``root``)."""
    cache: dict[str, str] = {}
    out: dict[str, str] = {}
    for n, d in g.nodes(data=True):
        f, line = d.get("file"), d.get("line")
        if not f or not line:
            continue
        if f not in cache:
            try:
                cache[f] = (root / f).read_text(encoding="utf-8", errors="replace")
            except OSError:
                cache[f] = ""
        text = declaration_source(cache[f], int(line))
        if text:
            out[n] = text
    return out


# --------------------------------------------------------------------------- the site


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, readable by all (:mod:`pybridge.files`)."""
    atomic_write_text(path, text, prefix=".site-", mode=0o644)


def copy_vendor(out: Path) -> None:
    """Copy the vendored browser libraries next to the page."""
    src = resources.files("pybridge").joinpath("templates", VENDOR_DIR)
    dest = out / VENDOR_DIR
    with resources.as_file(src) as path:
        shutil.copytree(path, dest, dirs_exist_ok=True)


def write_site(
    g: nx.DiGraph, out: Path, backend: CoqBackend, *, docs: bool | CoqdocRun = True,
    title: str = "Lemma graph of the Absorb library",
) -> SiteReport:
    """Write the page, the vendored libraries and (``docs``) the coqdoc pages into ``out``.

    ``docs`` may be a :class:`CoqdocRun` started earlier into ``out/src``.
    """
    start = time.monotonic()
    out.mkdir(parents=True, exist_ok=True)
    if isinstance(docs, CoqdocRun):
        try:
            done = docs.wait()
        except BaseException:
            docs.discard()
            raise
        src = out / SRC_DIR  # the scratch output replaces the previous pages
        if done.directory != src.resolve():
            shutil.rmtree(src, ignore_errors=True)
            os.replace(done.directory, src)
        source_docs: SourceDocs | None = SourceDocs(src, done.pages, done.anchors, done.seconds)
    else:
        source_docs = run_coqdoc(backend, out / SRC_DIR) if docs else None
    if source_docs:
        link_back(g, source_docs)
    hrefs = node_hrefs(g, source_docs) if source_docs else {}
    sources = node_sources(g, backend.root)
    copy_vendor(out)
    page = out / "graph.html"
    write_atomic(page, to_html(g, title=title, hrefs=hrefs, sources=sources,
                               coq_dir=backend.coq_dir))
    write_atomic(out / "index.html", _INDEX_HTML)
    return SiteReport(page, source_docs, time.monotonic() - start)
