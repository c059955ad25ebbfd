"""Shared fixtures: the compiled formal library and the Coq backend; Hypothesis profiles.

The suite runs in parallel (pytest-xdist, ``run-tests.sh``): every worker asks for the
library through :func:`backend`, and the first one builds it while the others wait on a
file lock, so ``make`` never runs twice at once on the same tree.

Property tests are sized by the Hypothesis profile: ``ci`` (the default) runs a quarter of
each test's nominal examples, ``thorough`` four times them (``--hypothesis-profile
thorough``, for nightly-style runs). Tests write ``max_examples=examples(N)``
(:func:`helpers.examples`).
"""

from __future__ import annotations

import fcntl
import os
import shutil

import networkx as nx
import pytest
from hypothesis import settings

from pybridge.coq import CoqBackend
from pybridge.results import ResultStatus, assess, load_results

settings.register_profile("ci", max_examples=25)
settings.register_profile("thorough", max_examples=400)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: fixtures that need coqc and the compiled library / Chromium
COQ_FIXTURES = {"backend", "statuses", "coq", "library", "library_graph", "mini"}
BROWSER_FIXTURES = {"browser", "page"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests using a Coq or browser fixture get the ``coq`` / ``browser`` marker, so that
    ``pytest -m "not coq and not browser"`` runs the fast, self-contained part.

    Tests marked ``slow`` (tens of seconds each: whole scans, clusters, a fresh environment)
    run first: pytest-xdist hands tests out in collection order, and a long test handed out
    last keeps one core busy after the other has finished."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & COQ_FIXTURES:
            item.add_marker(pytest.mark.coq)
        if names & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def _build_library_locked(b: CoqBackend) -> None:
    """Build (or find up to date) the library, one process at a time."""
    with open(b.coq_dir / ".pybridge-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build = b.build_library()
    assert build.ok, build.log[-2000:]


@pytest.fixture(scope="session")
def backend() -> CoqBackend:
    """The Coq backend, with the library built once per test session."""
    b = CoqBackend()
    _build_library_locked(b)
    return b


@pytest.fixture(scope="session", autouse=True)
def _library_ready(request: pytest.FixtureRequest) -> None:
    """Tests that run the CLI with Coq use the library without asking for ``backend``: build it
    first in every worker that may run Coq (not when only ``-m "not coq"`` tests run)."""
    if "not coq" in (request.config.getoption("-m") or "") or shutil.which("coqc") is None:
        return
    _build_library_locked(CoqBackend())


@pytest.fixture(scope="session")
def statuses(backend: CoqBackend) -> list[ResultStatus]:
    """Each paper result assessed once against the compiled library."""
    return assess(load_results(backend.coq_dir / "results.toml"), backend)


@pytest.fixture(scope="session")
def library_graph(backend: CoqBackend, tmp_path_factory: pytest.TempPathFactory) -> nx.DiGraph:
    """The whole library's lemma graph, extracted once per suite run: the first worker extracts
    it under a file lock into a cache shared by the workers (keyed on the compiled files, as
    ``pybridge graph`` caches it); the others load that."""
    from pybridge.site.cache import library_key, load, save
    from pybridge.site.graph import extract

    shared = tmp_path_factory.getbasetemp().parent / "library-graph"
    shared.mkdir(exist_ok=True)
    with open(shared / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        key = library_key(backend)
        g = load(key, shared)
        if g is None:
            g = extract(backend, build=False)
            save(g, key, shared)
    return g
