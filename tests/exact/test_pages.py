"""Large arrays on ordinary pages in pybridge's scan processes and CLI."""

from __future__ import annotations

import os

import pytest

from pybridge.cli import main
from pybridge.exact.pages import NUMPY_HUGEPAGE_VARIABLE, use_small_pages

try:
    from numpy._core.multiarray import _set_madvise_hugepage
except ImportError:  # NumPy < 2
    from numpy.core.multiarray import _set_madvise_hugepage


def test_use_small_pages_turns_numpy_advice_off() -> None:
    before = _set_madvise_hugepage(True)
    try:
        use_small_pages()
        assert _set_madvise_hugepage(True) is False  # returns the setting it replaces
    finally:
        _set_madvise_hugepage(before)


def test_cli_sets_the_variable_for_itself_and_its_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(NUMPY_HUGEPAGE_VARIABLE, raising=False)
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code in (0, None)
    assert os.environ[NUMPY_HUGEPAGE_VARIABLE] == "0"


def test_cli_keeps_a_users_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NUMPY_HUGEPAGE_VARIABLE, "1")
    with pytest.raises(SystemExit):
        main(["--version"])
    assert os.environ[NUMPY_HUGEPAGE_VARIABLE] == "1"
