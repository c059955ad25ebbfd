"""Shared fixtures: the compiled formal library and the Coq backend."""

from __future__ import annotations

import pytest

from pathlib import Path

from pybridge.prover import CoqBackend
from pybridge.results import ResultStatus, assess, load_results


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
