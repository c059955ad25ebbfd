"""One zero row / one row on another's line at width n (issue 20 item 3).

``pybridge.exact.width_one`` refutes R8's condition at width ``n = k + 1`` by functionals on
a block; ``CertifyWidthOneExtraResidues.cert_one_extra_res_not_absorbable`` checks it on the
block's residues. Coq accepts the
verdicts of zero-row and duplicate-row layers (small integers and float32 weights), rejects
a tampered refutation, and layers that are absorbable at width n never get "not absorbable".
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import numpy as np
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge.activations import resolve
from pybridge.certify.pipeline import certify, certify_many
from pybridge.decision import decide
from pybridge.decision.width_route import library_has
from pybridge.exact.blas_lu import solve_square
from pybridge.exact.modular import IntMatrix
from pybridge.exact.width_one import OneExtra, block_shape, find_one_extra, refute
from pybridge.model import Instance

pytestmark = pytest.mark.skipif(not library_has("certify/CertifyWidthOneExtraResidues.v"),
                                reason="certify/CertifyWidthOneExtraResidues.v not in the library")


def _inst(A: np.ndarray, B: np.ndarray, activation: str = "relu") -> Instance:
    conv = (lambda x: F(float(x))) if A.dtype.kind == "f" else (lambda x: F(int(x)))
    return Instance(resolve(activation), [[conv(x) for x in r] for r in A], [[conv(x) for x in r] for r in B])


def _layer(d: int, n: int, seed: int, kind: str, floats: bool = False) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    if floats:
        A = (rng.standard_normal((n, d)) * 0.02).astype(np.float32)
        B = (rng.standard_normal((d, n)) * 0.02).astype(np.float32)
    else:
        A, B = rng.integers(-9, 10, (n, d)), rng.integers(-9, 10, (d, n))
    if kind == "zero":
        A[n // 2] = 0
    elif kind == "duplicate":
        A[1] = A[0]
    elif kind == "negative":
        A[3] = -2 * A[5]
    elif kind == "opposite":
        A[3] = -A[5]
    elif kind == "dead":
        B[:, 6] = 0
    return A, B


def _check_refutation(A: IntMatrix, B: IntMatrix, ref) -> None:
    """Re-check the refutation in Python, exactly mod its prime q: every basis functional kills
    every kink, each class's combination kills u_t, and the nonzero value."""
    p, ex = ref.q, ref.extra
    assert 2 < p < 2**21 and 2**29 <= ref.p < 2**31
    n = A.shape[0]
    k = n - 1
    rep = [t if t < ex.z else t + 1 for t in range(k)]
    ci1 = ex.i1 if ex.i1 < ex.z else ex.i1 - 1
    An, Bn = A.numerators(), B.numerators()
    U = [[int(An[rep[t], q]) for q in ref.C] for t in range(k)]
    G = [[ex.ld * int(Bn[l_, rep[t]]) + (abs(ex.ln) * int(Bn[l_, ex.z]) if t == ci1 else 0) for l_ in ref.R1]
         for t in range(k)]
    L = [[ex.ld * A.den * B.den * (a == b) + (ex.ln * int(Bn[a, ex.z]) * int(An[ex.i1, b]) if ex.ln < 0 else 0)
          for b in ref.C] for a in ref.R1]
    Yu = [[[sum(y * x for y, x in zip(row, U[t])) % p for row in Y] for Y in ref.Ys] for t in range(k)]
    for t in range(k):
        for m in range(len(ref.Ys)):
            assert sum(g * v for g, v in zip(G[t], Yu[t][m])) % p == 0
        a = ref.As[t]
        for l_ in range(len(ref.R1)):
            assert sum(a[m] * Yu[t][m][l_] for m in range(len(a))) % p == 0
        ell = [sum(y * x for row, lrow in zip(Y, L) for y, x in zip(row, lrow)) for Y in ref.Ys]
        pick = next(x % p for x in U[t] if x % p)
        assert pick * ex.ld * B.den * A.den * sum(x * y for x, y in zip(a, ell)) % p != 0


def test_find_one_extra_and_block_shape() -> None:
    A, _ = _layer(8, 20, 0, "zero")
    ex, _ = find_one_extra(IntMatrix.from_numerators(A, 1))
    assert ex == OneExtra(10, 0, 0, 1)
    A, _ = _layer(8, 20, 0, "negative")
    ex, _ = find_one_extra(IntMatrix.from_numerators(A, 1))
    assert ex == OneExtra(5, 3, -1, 2)  # a_5 = -1/2 a_3 (row 3 = -2 row 5)
    A[7] = 0
    ex, why = find_one_extra(IntMatrix.from_numerators(A, 1))
    assert ex is None and "exactly one" in why
    big = np.array([[int(x) * 2**70 for x in r] for r in A.tolist()], dtype=object)
    ex, why = find_one_extra(IntMatrix.from_numerators(big, 1))  # huge numerators: Python ints
    assert ex is None and "exactly one" in why
    big[7] = [int(x) * 3 for x in big[2]]
    big[5] = [1] * 8
    assert find_one_extra(IntMatrix.from_numerators(big, 1))[0] == OneExtra(7, 2, 3, 1)
    big[3] = [-(2**80)] * 8  # now also on the line of row 5: two extra rows
    assert find_one_extra(IntMatrix.from_numerators(big, 1))[0] is None
    r1, c = block_shape(768, 3071, 3072) or (0, 0)
    assert r1 * c >= 3071 + r1 + 1 and c <= 768 and 5 <= r1 <= 40
    assert block_shape(3, 100) is None


def test_not_absorbable_checked_by_coq(backend) -> None:
    """Zero, duplicate and negatively scaled rows, integer and float32 weights: each verdict
    accepted by Coq with its statement vetted (one coqc run for all)."""
    cases = [("zero", False), ("duplicate", False), ("negative", False), ("zero", True), ("duplicate", True)]
    pairs = []
    for kind, floats in cases:
        inst = _inst(*_layer(8, 20, 1, kind, floats))
        dec = decide(inst)
        assert dec.verdict == "not_absorbable", (kind, dec.reason)
        assert dec.width_info is not None and dec.width_info.reason == "one_extra"
        assert dec.theorem is not None and dec.theorem.endswith("cert_one_extra_res_not_absorbable")
        pairs.append((inst, dec))
    for case, res in zip(cases, certify_many(pairs, backend, timeout=300)):
        assert res is not None and res.accepted, (case, res and res.message)
        assert "statement vetted" in res.message


@pytest.mark.parametrize("kind", ["zero", "duplicate"])
def test_refutation_before_any_subset_search(monkeypatch, kind: str) -> None:
    """A refuted layer needs neither R5's subset search nor the one over the k ridges (the
    functionals rule out ``L + sum_S = 0`` too); an absorbable one still gets R5's S."""
    from pybridge.decision import classify, width_route

    def no_search(*_a, **_k):
        raise AssertionError("subset search run for a layer the functionals refute")

    inst = _inst(*_layer(8, 20, 1, kind, True))
    with monkeypatch.context() as m:
        m.setattr(classify, "search_subset", no_search)
        m.setattr(width_route, "search_subset", no_search)
        dec = decide(inst)
    assert dec.verdict == "not_absorbable" and dec.result == "R8", dec.reason
    assert dec.width_info is not None and dec.width_info.reason == "one_extra"
    assert dec.reason.startswith("19 ridge(s) from 20 rows (classes by line); width n = k + 1 with ")
    planted = decide(_inst(*_planted(6, 20, 4, False)))
    assert planted.verdict == "absorbable" and planted.result == "R5", planted.reason


@pytest.mark.parametrize("floats", [False, True])
def test_dead_neuron_checked_by_coq(backend, floats: bool) -> None:
    """A zero column of ``W_down`` (a dead neuron; ``W_up`` generic): the same refutation with
    ``ln = 0``, stated for every pair whose column ``z`` of ``W_down`` is zero
    (``cert_one_extra_res_dead_not_absorbable``); claiming it of a column that is not zero,
    or of the layer once that column is revived, is refused."""
    A, B = _layer(8, 20, 1, "none", floats)
    B[:, 6] = 0
    inst = _inst(A, B)
    dec = decide(inst)
    assert dec.verdict == "not_absorbable" and dec.width_info is not None, dec.reason
    assert "a zero column of W_down (a dead neuron)" in dec.reason
    assert dec.theorem is not None and dec.theorem.endswith("cert_one_extra_res_dead_not_absorbable")
    ref = dec.width_info.one_extra
    assert ref is not None and ref.extra.dead and ref.extra.z == 6 and ref.extra.ln == 0
    res = certify(inst, dec, backend, timeout=300)
    assert res is not None and res.accepted, res and res.message
    other = replace(ref, extra=replace(ref.extra, z=7, i1=0))
    res = certify(inst, replace(dec, width_info=replace(dec.width_info, one_extra=other)), backend, timeout=300)
    assert res is not None and not res.accepted
    B2 = B.copy()
    B2[0, 6] = 1
    revived = _inst(A, B2)
    res = certify(revived, replace(dec, weights_sha256=decide(revived).weights_sha256), backend, timeout=300)
    assert res is not None and not res.accepted


def test_gelu_family_checked_by_coq(backend) -> None:
    """The GELU family (R8', classes by sign): a zero row, a row equal or opposite to another, or
    a dead neuron leaves ``k = n - 1`` classes and the same refutation holds; Coq checks it
    with the activation's facts (``cert_one_extra_res_pm_*``; one coqc run for all)."""
    cases = [("gelu", "zero", "cert_one_extra_res_pm_not_absorbable"),
             ("gelu_tanh", "opposite", "cert_one_extra_res_pm_not_absorbable"),
             ("silu", "duplicate", "cert_one_extra_res_pm_not_absorbable"),
             ("quick_gelu", "dead", "cert_one_extra_res_pm_dead_not_absorbable")]
    pairs = []
    for activation, kind, lemma in cases:
        inst = _inst(*_layer(8, 20, 1, kind, floats=True), activation=activation)
        dec = decide(inst)
        assert dec.verdict == "not_absorbable" and dec.result == "R8'", (activation, dec.reason)
        assert dec.width_info is not None and dec.width_info.reason == "one_extra"
        assert dec.theorem is not None and dec.theorem.endswith(lemma)
        assert dec.reason.startswith("19 ridge(s) from 20 rows (classes by sign); width n = k + 1 with ")
        pairs.append((inst, dec))
    for case, res in zip(cases, certify_many(pairs, backend, timeout=300)):
        assert res is not None and res.accepted, (case, res and res.message)
        assert "statement vetted" in res.message


def test_gelu_scaled_row_is_no_extra(backend) -> None:
    """For GELU a row at twice another's is its own ridge class (classes by sign): the layer has
    ``k = n`` classes and is never refuted as a one-extra layer; ReLU's refutation of the same
    rows (``a_5 = -1/2 a_3``), offered for the GELU layer, is refused before Coq."""
    A, B = _layer(8, 20, 1, "negative")
    gelu = _inst(A, B, activation="gelu")
    dec = decide(gelu)
    assert dec.width_info is None or dec.width_info.reason != "one_extra", dec.reason
    relu = decide(_inst(A, B))
    assert relu.width_info is not None and relu.width_info.one_extra is not None
    assert (relu.width_info.one_extra.extra.ln, relu.width_info.one_extra.extra.ld) == (-1, 2)
    forged = replace(dec, verdict="not_absorbable", result="R8'", width=20, width_info=relu.width_info)
    res = certify(gelu, forged, backend, timeout=300)
    assert res is not None and not res.accepted
    assert "+- another row" in res.message


def test_tampered_refutation_rejected(backend) -> None:
    inst = _inst(*_layer(8, 20, 2, "zero"))
    dec = decide(inst)
    info = dec.width_info
    assert info is not None and info.one_extra is not None
    ref = info.one_extra
    bad_as = (tuple((x + 1) % ref.q for x in ref.As[0]),) + ref.As[1:]
    bad_y = ((ref.Ys[0][0][:1] + ((ref.Ys[0][0][1] + 1) % ref.q,) + ref.Ys[0][0][2:],) + ref.Ys[0][1:],) + ref.Ys[1:]
    # p only checks genericity (any modulus that separates the ratios would do): 3 cannot separate
    # 19 ratios, 2**31 + 11 is not a modulus the checker accepts; q carries the refutation
    # (below 2**21 for the unreduced dot products)
    for bad in (replace(ref, As=bad_as), replace(ref, Ys=bad_y), replace(ref, p=3), replace(ref, p=2**31 + 11),
                replace(ref, q=ref.q + 2), replace(ref, q=2**21 + 23), replace(ref, u=ref.v),
                # genericity read on one column (all ratios equal), on none, outside the block
                replace(ref, C2=ref.C2[:1], u=ref.u[:1], v=ref.v[:1]), replace(ref, C2=(), u=(), v=()),
                replace(ref, C2=(7, 7) if 7 not in ref.C else (ref.C[0], ref.C[0]))):
        tampered = replace(dec, width_info=replace(info, one_extra=bad))
        res = certify(inst, tampered, backend, timeout=300)
        assert res is not None and not res.accepted


def test_statement_of_another_relation_not_vetted(backend) -> None:
    """A certificate naming a relation the instance's rows do not satisfy is refused."""
    inst = _inst(*_layer(8, 20, 3, "zero"))
    dec = decide(inst)
    info = dec.width_info
    assert info is not None and info.one_extra is not None
    ref = info.one_extra
    other = replace(ref, extra=replace(ref.extra, z=(ref.extra.z + 1) % inst.n))
    res = certify(inst, replace(dec, width_info=replace(info, one_extra=other)), backend, timeout=300)
    assert res is not None and not res.accepted


def _planted(d: int, n: int, seed: int, t_extra: bool) -> tuple[np.ndarray, np.ndarray]:
    """Rows 0..d-1 = e_i with b_i = -e_i (+ w a_t^T when ``t_extra``: absorbable with T = {t}),
    other rows random, one zero row at the end: absorbable at width n."""
    rng = np.random.default_rng(seed)
    A, B = rng.integers(-9, 10, (n, d)), rng.integers(-9, 10, (d, n))
    A[:d] = np.eye(d, dtype=A.dtype)
    B[:, :d] = -np.eye(d, dtype=B.dtype)
    if t_extra:
        w = rng.integers(-3, 4, d)
        B[:, :d] += np.outer(w, A[d + 1])
    A[n - 1] = 0
    return A, B


@pytest.mark.parametrize("t_extra", [False, True])
def test_absorbable_at_width_n_never_refuted(t_extra: bool) -> None:
    inst = _inst(*_planted(6, 20, 4, t_extra))
    dec = decide(inst)
    assert dec.verdict != "not_absorbable", dec.reason
    if not t_extra:
        assert dec.verdict == "absorbable"


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(16, 24), kind=st.sampled_from(["zero", "duplicate", "negative"]))
def test_refutation_exact_or_undecided(seed: int, n: int, kind: str) -> None:
    A, B = _layer(7, n, seed, kind)
    Ai, Bi = IntMatrix.from_numerators(A, 1), IntMatrix.from_numerators(B, 1)
    ex, _ = find_one_extra(Ai)
    if ex is None:  # random rows happened to repeat a line: not this case
        return
    ref, why = refute(Ai, Bi, ex, seed=seed)
    if ref is not None:
        _check_refutation(Ai, Bi, ref)
    dec = decide(_inst(A, B))
    assert dec.verdict in ("not_absorbable", "undecided", "absorbable")
    if dec.verdict == "not_absorbable" and dec.width_info is not None and dec.width_info.reason == "one_extra":
        assert dec.width_info.one_extra is not None
        _check_refutation(Ai, Bi, dec.width_info.one_extra)


def test_tampered_block_code_rejected(backend) -> None:
    """A certificate whose block differs from the weights in one entry (the refutation still
    computed from the true weights) is rejected: Coq compares the certificate's residues with
    the ones written from the instance."""
    inst = _inst(*_layer(8, 20, 5, "duplicate", floats=True))
    dec = decide(inst)
    info = dec.width_info
    assert info is not None and info.one_extra is not None
    ref = info.one_extra
    num = ref.A.numerators().copy()
    num[4, 0] += 1
    bad = replace(ref, A=IntMatrix.from_numerators(num, ref.A.den))
    res = certify(inst, replace(dec, width_info=replace(info, one_extra=bad)), backend, timeout=300)
    assert res is not None and not res.accepted


def test_block_residues_any_size(backend) -> None:
    """Numerators beyond 63 bits (a weight 2**70 times another, as the codes could not hold):
    the block goes as residues, Coq checks the refutation, and the written residues are the
    numerators modulo the primes; a certificate whose residues name another prime's is refused."""
    A, B = _layer(8, 20, 1, "zero")
    A = A.astype(object)
    A[2] = [int(x) * 2**70 + 1 for x in A[2]]
    inst = _inst(A, B)
    dec = decide(inst)
    assert dec.verdict == "not_absorbable" and dec.width_info is not None, dec.reason
    ref = dec.width_info.one_extra
    assert ref is not None and len(ref.C2) >= 2 and set(ref.C2) <= set(ref.C)
    res = certify(inst, dec, backend, timeout=300)
    assert res is not None and res.accepted, res and res.message
    from pybridge.certify.width_one import build_one_extra
    src = build_one_extra(inst, ref).source
    assert "Definition RAq" in src and "Definition E : int" not in src
    num = ref.A.numerators()
    assert int(ref.A.mod(ref.q)[2, 0]) == int(num[2, 0]) % ref.q and int(num[2, 0]) % ref.q != int(num[2, 0])
    other = replace(ref, q=ref.q + 2)  # another modulus: the claim's residues are the instance's mod q + 2
    res = certify(inst, replace(dec, width_info=replace(dec.width_info, one_extra=other)), backend, timeout=300)
    assert res is not None and not res.accepted


def test_solve_square_many_right_hand_sides() -> None:
    """``blas_lu.solve_square`` with a matrix of right-hand sides: ``m x = rhs`` mod p column
    by column, the same as the vector solves (the refutation's kill-matrix nullspace)."""
    rng = np.random.default_rng(6)
    p = 786433
    m = rng.integers(0, p, (70, 70))
    rhs = rng.integers(0, p, (70, 5))
    x = solve_square(m.copy(), rhs, p)
    assert x is not None and x.shape == (70, 5)
    assert np.array_equal((m.astype(object) @ x.astype(object)) % p, rhs.astype(object) % p)
    for j in range(5):
        col = solve_square(m.copy(), rhs[:, j], p)
        assert col is not None and np.array_equal(col, x[:, j])
    sing = m.copy()
    sing[:, 3] = sing[:, 1]
    assert solve_square(sing, rhs, p) is None


def test_small_primes_failing_fall_back_to_larger(backend, monkeypatch) -> None:
    """Weights crafted against the small refutation primes (here: every q below 2**10 made to
    fail) cost a larger prime, not the verdict: the certificate then carries residues mod q
    near 2**15 or 2**20, and Coq accepts it."""
    import pybridge.exact.width_one as w1

    real = w1._refute_mod

    def no_small(*args, **kw):
        return (None, "crafted to fail mod every small prime") if args[-1] < 2**10 else real(*args, **kw)

    monkeypatch.setattr(w1, "_refute_mod", no_small)
    inst = _inst(*_layer(8, 20, 1, "zero", True))
    dec = decide(inst)
    assert dec.verdict == "not_absorbable" and dec.width_info is not None, dec.reason
    ref = dec.width_info.one_extra
    assert ref is not None and 2**14 <= ref.q < 2**15
    res = certify(inst, dec, backend, timeout=300)
    assert res is not None and res.accepted, res and res.message


def test_flint_nullspace_fallback(monkeypatch) -> None:
    """When the LU of the kill matrix's first columns is not available (singular mod q),
    FLINT's nullspace gives the functionals; the refutation is the same kind, checked exactly."""
    import pybridge.exact.width_one as w1

    monkeypatch.setattr(w1, "solve_square", lambda *args: None)
    A, B = _layer(8, 20, 8, "zero")
    Ai, Bi = IntMatrix.from_numerators(A, 1), IntMatrix.from_numerators(B, 1)
    ex, _ = find_one_extra(Ai)
    assert ex is not None
    ref, why = refute(Ai, Bi, ex, seed=8)
    assert ref is not None, why
    _check_refutation(Ai, Bi, ref)
