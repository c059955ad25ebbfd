"""The width route at size (issue 20 items 3, 4, 9): integer canonical forms, modular
rank bounds with exact data, huge widths without an m-row block, more than 8 ridges.

Oracles: the Fraction definition of the ridge form (classes by exact ratios, kinks and
linear part summed row by row), exact rank (``pybridge.exact.linalg.rank``) and the exact
check of the width data (``condition_holds``)."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from pybridge.activations import resolve
from pybridge.certify.kinds import CannotCertify
from pybridge.certify.pipeline import build_certificate, certify
from pybridge.certify.width import MAX_CERT_WIDTH
from pybridge.decision.classify import decide
from pybridge.exact.arrays import ArrayMatrix
from pybridge.exact.linalg import rank
from pybridge.exact.ridge_form import canonical_form
from pybridge.exact.width import condition_for, condition_holds, exhaustive_feasible, min_width
from pybridge.model import Instance

F = Fraction


def _oracle_form(up, down):
    """Classes by line, kinks and L with Fractions, the definition in paper.md R8."""
    d = len(down)
    reps: list[list[Fraction]] = []
    members: list[list[tuple[int, Fraction]]] = []
    for i, a in enumerate(up):
        if not any(a) or not any(down[p][i] for p in range(d)):
            continue
        for j, u in enumerate(reps):
            q = next(c for c in range(d) if u[c])
            lam = F(a[q]) / u[q]
            if all(F(a[c]) == lam * u[c] for c in range(d)):
                members[j].append((i, lam))
                break
        else:
            reps.append([F(v) for v in a])
            members.append([(i, F(1))])
    kinks = [[sum((abs(l) * down[p][i] for i, l in mem), F(0)) for p in range(d)] for mem in members]
    L = [[F(int(p == q)) for q in range(d)] for p in range(d)]
    for u, mem in zip(reps, members):
        for i, lam in mem:
            if lam < 0:
                for p in range(d):
                    for q in range(d):
                        L[p][q] -= abs(lam) * down[p][i] * u[q]
    ridges = {tuple(u): tuple(g) for u, g in zip(reps, kinks) if any(g)}
    return ridges, L


def test_integer_form_matches_the_fraction_definition():
    rng = random.Random(5)
    d, n = 3, 14
    base = [[F(rng.randint(-4, 4), rng.randint(1, 3)) for _ in range(d)] for _ in range(6)]
    up = [[v * s for v in base[rng.randrange(6)]] for s in [F(rng.choice([-3, -1, 1, 2]), rng.randint(1, 4))
                                                         for _ in range(n)]]
    up[3] = [F(0)] * d  # a dead neuron
    down = [[F(rng.randint(-3, 3), rng.randint(1, 5)) for _ in range(n)] for _ in range(d)]
    form = canonical_form(up, down, "lines")
    ridges, L = _oracle_form(up, down)
    assert form.k == len(ridges)
    got = {}
    for t in range(form.k):
        u = form.U[t]
        # the oracle's representative is the first member: compare lines, rescale the kink
        key = next(r for r in ridges if rank([list(r), list(u)]) == 1)
        lam = next(F(key[c]) / u[c] for c in range(d) if u[c])
        got[key] = tuple(g / abs(lam) for g in form.kink(t))
    assert got == {r: g for r, g in ridges.items()}
    assert [list(r) for r in form.L] == L


def test_hash_grouping_is_exact_on_near_duplicates():
    """Rows equal up to scale go together, rows differing by one unit in the last place do not."""
    a = np.array([[0.1, 0.2, 0.3]], dtype=np.float32)
    b = np.nextafter(a, np.float32(1.0))
    A = np.concatenate([a, 2 * a, -a, b]).astype(np.float32)
    B = np.ones((3, 4), dtype=np.float32)
    form = canonical_form(ArrayMatrix(A, exact=True), ArrayMatrix(B, exact=True), "lines")
    assert form.cls[0] == form.cls[1] == form.cls[2] != form.cls[3]
    assert form.lam[1] == 2 and form.lam[2] == -1
    signs = canonical_form(ArrayMatrix(A, exact=True), ArrayMatrix(B, exact=True), "signs")
    assert signs.cls[0] == signs.cls[2] != signs.cls[1]


def test_identical_rows_least_width_exact():
    """All rows equal: one ridge; least width 2d (T = {u}: rank(Q_T) = d - 1), checked exactly."""
    rng = np.random.default_rng(3)
    d = 12
    A = np.broadcast_to(rng.integers(-5, 6, d).astype(np.float32), (d, d))
    B = rng.integers(-5, 6, (d, d)).astype(np.float32)
    inst = Instance(resolve("relu"), ArrayMatrix(A, exact=True), ArrayMatrix(B, exact=True))
    dec = decide(inst, min_width=True)
    info = dec.width_info
    assert info.k == 1 and info.min_exact and info.min_width == 2 * d
    assert condition_holds(info.form, info.data)
    assert decide(inst).verdict == "not_absorbable"
    assert decide(inst, width=2 * d).verdict == "absorbable"


def test_modular_search_agrees_with_exact_ranks():
    """The least width from modular bounds equals the exact minimum over all (T, S)."""
    from itertools import combinations

    rng = random.Random(11)
    for _ in range(5):
        d, n = 2, 5
        up = [[F(rng.randint(-3, 3)) for _ in range(d)] for _ in range(n)]
        down = [[F(rng.randint(-3, 3)) for _ in range(n)] for _ in range(d)]
        form = canonical_form(up, down, "lines")
        k = form.k
        best = None
        for nt in range(k + 1):
            for T in combinations(range(k), nt):
                rest = [t for t in range(k) if t not in T]
                for ns in range(len(rest) + 1):
                    for S in combinations(rest, ns):
                        data = condition_for(form, T, S)
                        assert condition_holds(form, data)
                        w = data.width(k)
                        best = w if best is None else min(best, w)
        assert min_width(form).lower == min_width(form).upper == best


def test_ten_ridges_decided_between_the_bounds():
    """k = 10 ridges (beyond the old k <= 8 limit): the least width is exact, and the widths
    just below and at it are decided."""
    rng = random.Random(2)
    d, n = 2, 10
    up = [[F(1), F(i)] for i in range(n)]  # ten distinct lines
    down = [[F(rng.randint(1, 4)) for _ in range(n)] for _ in range(d)]
    inst = Instance(resolve("relu"), tuple(map(tuple, up)), tuple(map(tuple, down)))
    form = canonical_form(up, down, "lines")
    assert form.k == 10 and exhaustive_feasible(form)
    mw = decide(inst, min_width=True)
    w = mw.width_info.min_width
    assert mw.width_info.min_exact and w is not None and w > 10
    assert decide(inst, width=w).verdict == "absorbable"
    below = decide(inst, width=w - 1)
    assert below.verdict == "not_absorbable"
    if w - 1 != n:  # width n itself goes through R5 first
        assert below.width_info.reason == "exhaustive"
    wide = decide(inst, width=w + 1)
    assert wide.verdict == "absorbable" and condition_holds(form, wide.width_info.data)


@pytest.mark.parametrize("m", [10**7, 10**12])
def test_huge_width_decided_without_a_block_of_m_rows(m):
    inst = Instance(resolve("relu"), ((F(1), F(2)), (F(3), F(-1)), (F(2), F(4))),
                    ((F(1), F(1), F(0)), (F(2), F(0), F(1))))
    dec = decide(inst, width=m)
    blk = dec.width_info.block
    assert dec.verdict == "absorbable" and blk.width == m
    assert len(blk.W_up) <= inst.n + 2 * inst.d and blk.padding == m - len(blk.W_up)
    with pytest.raises(CannotCertify, match=f"width {m} is above {MAX_CERT_WIDTH}"):
        build_certificate(inst, dec)


def test_huge_width_reported_not_certified(backend):
    inst = Instance(resolve("relu"), ((F(1), F(2)), (F(3), F(-1))), ((F(1), F(1)), (F(2), F(0))))
    res = certify(inst, decide(inst, width=10**9), backend)
    assert res is not None and not res.accepted and "above" in res.message


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_heuristic_lower_bounds_both_witnesses(seed):
    """``heuristic_lower`` (ranks mod a prime) never exceeds the width of either of
    ``heuristic_data``'s exact choices, so skipping them when it exceeds ``m`` loses nothing."""
    from pybridge.exact.width import _independent_subset, heuristic_lower

    rng = np.random.default_rng(seed)
    d, n = 5, 9
    A = rng.integers(-3, 4, (n, d))
    A[2] = 0
    A[4] = -2 * A[6]
    A[5] = A[1] if seed else A[5]
    B = rng.integers(-3, 4, (d, n))
    for kind in ("lines", "signs"):
        form = canonical_form(ArrayMatrix(A.astype(np.float64), exact=True), ArrayMatrix(B.astype(np.float64), exact=True), kind)
        widths = [condition_for(form, (), ()).width(form.k),
                  condition_for(form, _independent_subset(form), ()).width(form.k)]
        assert heuristic_lower(form) <= min(widths), (kind, widths)


def test_pruned_gelu_layer_skips_the_exact_witnesses(monkeypatch):
    """A GELU-family layer with two zero rows (R8', beyond the one-extra refutation): the cheap
    witnesses' modular bound exceeds width n, so their exact echelon forms (hours at GPT-2
    size) are not computed and the layer is ``undecided`` at once; with one zero row the
    one-extra refutation decides it, again without them."""
    import pybridge.decision.width_route as wr

    def exact_witnesses(*_a, **_k):
        raise AssertionError("exact witnesses computed though their bound exceeds the width")

    monkeypatch.setattr(wr, "heuristic_data", exact_witnesses)
    rng = np.random.default_rng(3)
    A = (rng.standard_normal((96, 24)) * 0.02).astype(np.float32)
    B = (rng.standard_normal((24, 96)) * 0.02).astype(np.float32)
    A[40] = 0
    dec = decide(Instance(resolve("gelu_tanh"), ArrayMatrix(A, exact=True), ArrayMatrix(B, exact=True)))
    assert dec.verdict == "not_absorbable" and dec.result == "R8'", dec.reason
    assert dec.width_info is not None and dec.width_info.reason == "one_extra"
    A[41] = 0
    dec = decide(Instance(resolve("gelu_tanh"), ArrayMatrix(A, exact=True), ArrayMatrix(B, exact=True)))
    assert dec.verdict == "undecided" and dec.result == "R8'", dec.reason
    assert "need width at least" in dec.reason and "> 96" in dec.reason


def test_witness_beyond_budget_is_refused_not_computed(monkeypatch):
    """Past ``WITNESS_MAX_D`` the cheap witnesses' exact data (an hour or more at GPT-2 size)
    are never computed: ``--min-width`` is a one-line input error, a width they would reach
    is ``undecided``, and both come at once."""
    import pybridge.decision.width_route as wr
    from pybridge.errors import InputError
    from pybridge.exact.width import WITNESS_MAX_D

    def exact_witnesses(*_a, **_k):
        raise AssertionError("exact witnesses computed beyond the budget")

    monkeypatch.setattr(wr, "heuristic_data", exact_witnesses)
    d, n = WITNESS_MAX_D + 8, 2 * WITNESS_MAX_D
    rng = np.random.default_rng(4)
    A = (rng.standard_normal((n, d)) * 0.02).astype(np.float32)
    B = (rng.standard_normal((d, n)) * 0.02).astype(np.float32)
    inst = Instance(resolve("relu"), ArrayMatrix(A, exact=True), ArrayMatrix(B, exact=True))
    with pytest.raises(InputError, match="decide one width instead"):
        decide(inst, min_width=True)
    dec = decide(inst, width=n + d)
    assert dec.verdict == "undecided" and "beyond the budget in dimension" in dec.reason, dec.reason
    assert decide(inst).verdict == "not_absorbable"  # width n: R5, untouched
