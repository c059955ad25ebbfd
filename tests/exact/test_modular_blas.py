"""The BLAS LU mod p (modular.solve_square_blas, balanced residues) and the float block
system of the subset search: exact against Python-int arithmetic."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge.decision.subset_search import _positions, _System
from pybridge.exact.blas_lu import reduce_balanced as _reduce
from pybridge.exact.modular import IntMatrix, random_primes, rank_mod, solve_square_blas

P = 1048573  # the largest prime below 2**20


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-(2**52) + 1, 2**52 - 1), min_size=1, max_size=50),
       st.sampled_from([3, 65537, 786433, P]))
def test_balanced_residue(values, p):
    x = np.array(values, dtype=np.float64)
    _reduce(x, float(p), 1.0 / p)
    for v, r in zip(values, x.tolist()):
        assert r == int(r) and (v - int(r)) % p == 0 and abs(r) <= p / 2 + 4


def check_solution(m: np.ndarray, b: np.ndarray, x: np.ndarray, p: int) -> None:
    assert x.min() >= 0 and x.max() < p
    exact = (m.astype(object).dot(x.astype(object)) - b.astype(object)) % p
    assert not np.any(exact)


@pytest.mark.parametrize("n", [2, 16, 17, 33, 64, 100, 257, 600])
def test_solve_worst_case_magnitudes_and_pivoting(n):
    """Entries p - 1 and 0 (largest residues; zero leading entries force row swaps)."""
    rng = np.random.default_rng(n)
    m = rng.choice(np.array([0, 1, P - 1, P - 2, (P - 1) // 2]), size=(n, n))
    m[np.arange(n), np.arange(n)] = 0
    b = rng.integers(0, P, size=n)
    x = solve_square_blas(m, b, P)
    if x is None:  # singular mod P: FLINT agrees
        assert rank_mod(m, P) < n
    else:
        check_solution(m, b, x, P)


@pytest.mark.parametrize("bound", [2**39, 2**40 - 1, 2**50])
@pytest.mark.parametrize("n", [5, 40, 150])
def test_solve_float_input_matches_int_input(n, bound):
    """Float input: unreduced below 2**40 (the block system's products), reduced first above."""
    p = random_primes(1, 2**19, 2**20, rng=random.Random(n))[0]
    rng = np.random.default_rng(n)
    m = rng.integers(-bound, bound + 1, size=(n, n))
    m[0, 0] = bound
    b = rng.integers(0, p, size=n)
    x1 = solve_square_blas(m, b, p)
    x2 = solve_square_blas(m.astype(np.float64), b, p)
    assert x1 is not None and np.array_equal(x1, x2)
    check_solution(m % p, b, x1, p)


def test_transposed_float_is_the_rows_system():
    rng = np.random.default_rng(3)
    n, d = 30, 6
    A = IntMatrix.from_numerators(rng.integers(-(2**40), 2**40, size=(n, d)), 2**9)
    B = IntMatrix.from_numerators(rng.integers(-(2**40), 2**40, size=(d, n)), 2**7)
    T = IntMatrix.from_numerators(rng.integers(-5, 5, size=(d, d)), 3)
    system = _System(A, B, T, P)
    positions = _positions(d, n + 1)
    m, r = system.rows(positions)
    g = system.transposed_float(positions)
    assert np.all(np.abs(g) < 2**52)
    assert np.array_equal(g.astype(np.int64) % P, np.concatenate([m, r[:, None]], axis=1).T % P)


def test_scan_workers_use_one_blas_thread() -> None:
    """``scan --jobs`` workers run BLAS single-threaded (its spinning threads halved the speed)."""
    import subprocess
    import sys

    code = ("from pybridge.exact.openblas import thread_functions as _openblas_thread_functions\n"
            "from pybridge.exact.modular import use_one_blas_thread\n"
            "f = _openblas_thread_functions()\n"
            "use_one_blas_thread()\n"
            "print('none' if f is None else int(f[0]()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    if out == "none":
        pytest.skip("NumPy's bundled OpenBLAS not found")
    assert out == "1"
