"""The BLAS LU mod p (modular.solve_square_blas, balanced residues) and the float block
system of the subset search: exact against Python-int arithmetic."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge.decision.subset_search import _positions, _System
from pybridge.exact.blas_lu import reduce_balanced as _reduce
from pybridge.exact.modular import IntMatrix, random_primes, rank_mod, solve_square_blas

P = 1048573  # the largest prime below 2**20


@settings(max_examples=examples(300), deadline=None)
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


@pytest.mark.parametrize("orders", ["CCC", "FFF", "CFC", "FCF", "FFC", "CCF"])
def test_gemm_sub_in_place_every_layout(orders):
    """``c -= a @ b`` through BLAS for every memory order (views of larger arrays included)."""
    from pybridge.exact.openblas import gemm_sub

    rng = np.random.default_rng(len(orders))
    big = [np.array(rng.integers(-99, 99, size=(40, 50)), dtype=np.float64, order=o) for o in orders]
    c, a, b = big[0][3:20, 5:30], big[1][1:18, 2:11], big[2][4:13, 7:32]
    want = c - a @ b
    before = big[0].copy()
    gemm_sub(c, a, b)
    assert np.array_equal(c, want)
    outside = np.ones(big[0].shape, dtype=bool)
    outside[3:20, 5:30] = False
    assert np.array_equal(big[0][outside], before[outside])  # nothing written outside the view


def test_prime_bound_keeps_float64_exact():
    """The LU's bound: start + n products of balanced residues stay below 2**53."""
    from pybridge.exact.blas_lu import START_BOUND, max_size, prime_bound

    for b in (2**20, 2**19, 2**18):
        h = b // 2 + 4
        n = max_size(b)
        assert START_BOUND + n * h * h < 2**53 <= START_BOUND + (n + 1) * h * h
    assert prime_bound(16385) == 2**20 and prime_bound(40000) == 2**19
    with pytest.raises(ValueError):
        prime_bound(10**6)
    with pytest.raises(ValueError):  # a prime beyond the bound of the size is refused
        solve_square_blas(np.eye(3, dtype=np.int64), np.ones(3, dtype=np.int64), 2**20 + 7)


@pytest.mark.parametrize("n", [31, 32, 33, 65, 130])
def test_solve_with_singular_leading_blocks(n):
    """Zero leading minors inside every leaf (row exchanges) and at leaf boundaries."""
    rng = np.random.default_rng(n)
    m = rng.integers(0, P, size=(n, n))
    m[:, :2] = 0
    m[n - 2:, :2] = rng.integers(1, P, size=(2, 2))  # the first two pivots are in the last rows
    m[32:34 if n > 34 else n, 32:34 if n > 34 else n] = 0
    b = rng.integers(0, P, size=n)
    x = solve_square_blas(m, b, P)
    if x is None:
        assert rank_mod(m, P) < n
    else:
        check_solution(m, b, x, P)


def test_matmul_mod_both_paths():
    from pybridge.exact.modular import matmul_mod

    rng = np.random.default_rng(5)
    for p in (1048573, 2147483647):
        m = rng.integers(0, p, size=(20, 300))
        v = rng.integers(0, p, size=(300, 7))
        want = (m.astype(object).dot(v.astype(object))) % p
        assert np.array_equal(matmul_mod(m, v, p).astype(object), want)
