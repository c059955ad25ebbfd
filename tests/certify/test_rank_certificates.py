"""Rank certificates (certify/RankCheck.v, pybridge.certify.rank): "not absorbable" at k <= m.

The exhaustive search over (T, S) refutes R8's width condition at widths m >= k below the
least absorbing width; these verdicts are now Coq-checked. Tampered certificates (an X
column not orthogonal to a u_t in T, a wrong D, a missing entry, the data claimed at a
larger width) are rejected by Coq."""

from __future__ import annotations

import random
import re
from fractions import Fraction as F

import pytest
from helpers import mat

from pybridge.certify.pipeline import build_certificate, certify, certify_many
from pybridge.certify.rank import enum_ts, rank_entries, shifted_int
from pybridge.decision import decide
from pybridge.decision.width_route import library_has
from pybridge.exact.modular import scale_matrix
from pybridge.exact.ridge_form import canonical_form
from pybridge.exact.width import best_data_exhaustive
from pybridge.model import Activation, Instance

pytestmark = pytest.mark.skipif(not library_has("certify/RankCheck.v"),
                                reason="certify/RankCheck.v (theory-rankcert) not merged into the library yet")

#: x + e1 relu(x1) + e2 relu(x2): k = 2, least width 4.
I2 = [[1, 0], [0, 1]]
#: x + e1 relu(x1) in R^3: k = 1, least width 6 (T = {0}, r = 2), c up to 3 below it.
E1_UP = [[1, 0, 0]]
E1_DOWN = [[1], [0], [0]]


def inst(act: str, up, down) -> Instance:
    return Instance(Activation(act), mat(up), mat(down))


def _check_entries_exactly(form, m: int) -> int:
    """Recompute every entry's claims in Python: X orthogonal to u_t (t in T), Z (Y^T M X) = D I."""
    U, G, L = scale_matrix(form.U), scale_matrix(form.G), scale_matrix(form.L)
    k, d = form.k, form.d
    entries = rank_entries(U, G, L, k, d, m)
    pairs = [(T, S) for T, S in enum_ts(k) if k + sum(T) <= m]
    assert len(entries) == len(pairs)
    for (T, S), e in zip(pairs, entries):
        assert e.D != 0 and m < k + sum(T) + 2 * e.c
        for t in range(k):
            if T[t]:
                assert all(sum(U.rows[t][j] * x[j] for j in range(d)) == 0 for x in e.X)
        M = shifted_int(U, G, L, k, S, d)
        K = [[sum(e.Y[a][i] * sum(e.X[b][j] * M[i][j] for j in range(d)) for i in range(d)) for b in range(e.c)]
             for a in range(e.c)]
        ZK = [[sum(e.Z[a][x] * K[x][b] for x in range(e.c)) for b in range(e.c)] for a in range(e.c)]
        assert ZK == [[e.D if a == b else 0 for b in range(e.c)] for a in range(e.c)]
    return len(entries)


def test_enum_order_and_size():
    assert enum_ts(1) == [((False,), (False,)), ((True,), (False,)), ((False,), (True,))]
    pairs = enum_ts(3)
    assert len(pairs) == 27 and len(set(pairs)) == 27
    assert all(not (a and b) for T, S in pairs for a, b in zip(T, S))


@pytest.mark.parametrize("seed", range(12))
def test_entries_exact_below_least_width_random(seed):
    """Random small blocks: at every width k <= m below the least one, every pair is refuted exactly."""
    rng = random.Random(seed)
    d, n = rng.choice([(2, 3), (2, 4), (3, 3), (3, 4)])
    up = [[rng.randint(-2, 2) for _ in range(d)] for _ in range(n)]
    down = [[rng.randint(-2, 2) for _ in range(n)] for _ in range(d)]
    form = canonical_form(mat(up), mat(down), "lines")
    w = best_data_exhaustive(form).width(form.k)
    for m in range(form.k, w):
        _check_entries_exactly(form, m)


def test_entries_need_several_columns():
    form = canonical_form(mat(E1_UP), mat(E1_DOWN), "lines")
    assert best_data_exhaustive(form).width(form.k) == 6
    U, G, L = scale_matrix(form.U), scale_matrix(form.G), scale_matrix(form.L)
    cs = sorted({e.c for e in rank_entries(U, G, L, 1, 3, 5)})
    assert cs == [2, 3]
    assert _check_entries_exactly(form, 5) == 3


def test_condition_met_gives_no_certificate():
    from pybridge.certify.kinds import CannotCertify

    form = canonical_form(mat(I2), mat(I2), "lines")
    U, G, L = scale_matrix(form.U), scale_matrix(form.G), scale_matrix(form.L)
    with pytest.raises(CannotCertify, match="meets the width condition"):
        rank_entries(U, G, L, 2, 2, 4)


# ---------------------------------------------------------------- Coq


@pytest.mark.slow
def test_not_absorbable_above_k_certified(backend):
    pairs = []
    for act in ("relu", "gelu", "silu"):
        i = inst(act, I2, I2)
        dec = decide(i, width=3)
        assert dec.verdict == "not_absorbable" and dec.width_info.reason == "exhaustive" and dec.width_info.k == 2
        cert = build_certificate(i, dec)
        assert cert is not None and "rank certificate" in cert.kind
        assert f"~ absorbable_ungated {act} d n 3 identity" in cert.source
        pairs.append((i, dec))
    for res in certify_many(pairs, backend):  # one coqc run
        assert res is not None and res.accepted, res and res.message


def test_several_columns_certified(backend):
    i = inst("relu", E1_UP, E1_DOWN)
    dec = decide(i, width=5)
    assert dec.verdict == "not_absorbable" and dec.width_info.reason == "exhaustive"
    res = certify(i, dec, backend)
    assert res is not None and res.accepted, res.message


@pytest.mark.slow
def test_min_width_lower_side_certified(backend):
    """--min-width: "absorbable at m* = 4 and not at 3" is one Coq theorem (the lower side by ranks)."""
    i = inst("relu", I2, I2)
    dec = decide(i, min_width=True)
    assert dec.width == 4 and dec.width_info.lower_reason == "exhaustive"
    cert = build_certificate(i, dec)
    assert "not at 3" in cert.kind and "/\\ ~ absorbable_ungated relu d n 3" in cert.source
    assert "cert_r8_rank_relu" in cert.source
    res = certify(i, dec, backend)
    assert res is not None and res.accepted, res.message


class _Rejected:
    """A Coq run that failed on the rank checker itself (not on a syntax error)."""

    def __init__(self, res) -> None:
        self.accepted = res.accepted or "check_rank_refute" not in res.message


def _tampered(i, dec, old: str, new: str, backend) -> _Rejected:
    cert = build_certificate(i, dec)
    assert re.search(old, cert.source), old
    src = re.sub(old, new, cert.source, count=1)
    assert src != cert.source
    return _Rejected(backend.check_file(src, stem=cert.stem, timeout=120))


@pytest.mark.slow
def test_tampered_rank_certificates_rejected(backend):
    i = inst("relu", I2, I2)
    dec = decide(i, width=3)
    e1, e2 = "[[(1)%Z; (0)%Z]]", "[[(0)%Z; (1)%Z]]"
    # entry 1 is T = {0}: X = Y = e2. With X = Y = e1 the product Z Y^T M X = 1 still holds,
    # but X is not orthogonal to u_0 = e1.
    old = re.escape(f"RK3_1 : rank_entry := Build_rank_entry 1%nat {e2} {e2} [[(1)%Z]] (1)%Z.")
    new = f"RK3_1 : rank_entry := Build_rank_entry 1%nat {e1} {e1} [[(1)%Z]] (1)%Z."
    assert not _tampered(i, dec, old, new, backend).accepted
    # a wrong D in entry 0 (Z Y^T M X = 1, claimed 2)
    assert not _tampered(i, dec, r"(RK3_0 : rank_entry := .*) \(1\)%Z\.", r"\1 (2)%Z.", backend).accepted
    # a missing entry
    assert not _tampered(i, dec, r"; RK3_7\]", "]", backend).accepted
    # the (true) refutation at width 3 claimed at width 4, where the block is absorbable
    assert not _tampered(i, dec, r"check_rank_refute d k 3%nat", "check_rank_refute d k 4%nat", backend).accepted


def test_fraction_weights_certified(backend):
    """Non-integer weights: denominators enter Coq's integer M = dL dG dU M_S."""
    i = Instance(Activation("relu"), mat([[F(1, 2), 0], [0, F(3)]]), mat([[F(2, 3), 0], [0, F(-1, 5)]]))
    dec = decide(i, width=3)
    assert dec.verdict == "not_absorbable" and dec.width_info.reason == "exhaustive"
    res = certify(i, dec, backend)
    assert res is not None and res.accepted, res.message
