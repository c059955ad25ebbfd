"""Shared fixtures: the compiled formal library and the Coq backend."""

from __future__ import annotations

import pytest

from pybridge.coq import CoqBackend
from pybridge.results import ResultStatus, assess, load_results

#: fixtures that need coqc and the compiled library / Chromium
COQ_FIXTURES = {"backend", "statuses", "coq", "library", "mini"}
BROWSER_FIXTURES = {"browser", "page"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests using a Coq or browser fixture get the ``coq`` / ``browser`` marker, so that
    ``pytest -m "not coq and not browser"`` runs the fast, self-contained part."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & COQ_FIXTURES:
            item.add_marker(pytest.mark.coq)
        if names & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def backend() -> CoqBackend:
    """The Coq backend, with the library built once per test session."""
    b = CoqBackend()
    build = b.build_library()
    assert build.ok, build.log[-2000:]
    return b


@pytest.fixture(scope="session")
def statuses(backend: CoqBackend) -> list[ResultStatus]:
    """Each paper result assessed once against the compiled library."""
    return assess(load_results(backend.coq_dir / "results.toml"), backend)
