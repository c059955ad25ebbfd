"""Shared fixtures: the compiled formal library and the Coq backend."""

from __future__ import annotations

import pytest

from pybridge.prover import CoqBackend


@pytest.fixture(scope="session")
def backend() -> CoqBackend:
    """The Coq backend, with the library built once per test session."""
    b = CoqBackend()
    build = b.build_library()
    assert build.ok, build.log[-2000:]
    return b
