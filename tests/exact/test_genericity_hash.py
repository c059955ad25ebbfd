"""Exact genericity without pairwise comparisons: rows normalised (gcd, sign) and hashed."""

from __future__ import annotations

import numpy as np
import pytest

from pybridge.decision import genericity
from pybridge.decision.genericity import check_generic, parallel_pair
from pybridge.exact.modular import IntMatrix


def _brute(num: np.ndarray):
    rows = num.astype(object).tolist()
    for j in range(len(rows)):
        for i in range(j):
            u, v = rows[i], rows[j]
            if all(u[a] * v[b] == u[b] * v[a] for a in range(len(u)) for b in range(len(u))):
                return i, j
    return None


@pytest.mark.parametrize("big", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_parallel_pair_matches_pairwise(seed, big):
    rng = np.random.default_rng(seed)
    num = rng.integers(-4, 5, size=(40, 3)).astype(object if big else np.int64)
    num[np.all(num == 0, axis=1)] = 1
    if big:
        num = num * (2**70 + 1)  # beyond int64: Python ints
    assert parallel_pair(IntMatrix.from_numerators(num, 1)) == _brute(num)


def test_planted_parallel_rows_with_opposite_signs_and_scales():
    rng = np.random.default_rng(1)
    num = rng.integers(-2**40, 2**40, size=(500, 6))
    num[417] = -3 * num[58]
    num[58] *= 5
    assert parallel_pair(IntMatrix.from_numerators(num, 7)) == (58, 417)


def test_fallback_decides_exactly(monkeypatch):
    """With no projection prime tried, genericity is still decided exactly (no certificate)."""
    monkeypatch.setattr(genericity, "PRIME_TRIES", 0)
    rng = np.random.default_rng(2)
    a = rng.integers(-50, 50, size=(300, 4))
    a[np.all(a == 0, axis=1)] = 1
    b = rng.integers(1, 50, size=(4, 300))
    pair = _brute(a)
    out = check_generic(IntMatrix.from_numerators(a, 1), IntMatrix.from_numerators(b, 1))
    assert out.generic == (pair is None) and out.certificate is None
    a[7] = 2 * a[3]
    out = check_generic(IntMatrix.from_numerators(a, 1), IntMatrix.from_numerators(b, 1))
    assert not out.generic and "parallel" in out.reason
