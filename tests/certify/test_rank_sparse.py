"""Sparse rank certificates (certify/RankSparse.v, ``pybridge.certify.width.sparse_entries``).

Rows all on one line (one ridge class, ``k = 1``) refute R8's width condition with 2-sparse
columns ``X``, selections ``Y`` and ``Z = I``: a few small integers per ``(T, S)``, checked
by Coq in seconds where the dense rank entries (``RankCheck``) take hours at ``d = 300``.
Coq accepts them; a wrong ``D``, a ``T`` not covered by the entry's class and a missing
entry are rejected; a layer where the sparse form does not apply keeps the dense entries."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import numpy as np
import pytest
from helpers import mat

from pybridge.activations import resolve
from pybridge.certify import pipeline
from pybridge.certify import width as width_cert
from pybridge.certify.pipeline import build_certificate, certify
from pybridge.decision import decide
from pybridge.decision.width_route import library_has
from pybridge.exact.arrays import ArrayMatrix
from pybridge.exact.modular import IntMatrix
from pybridge.model import Activation, Instance

pytestmark = pytest.mark.skipif(not library_has("certify/RankSparse.v"),
                                reason="certify/RankSparse.v not in the library")


@pytest.fixture(autouse=True)
def _no_rank_bound(monkeypatch):
    """These square layers of rank 1 are decided by the rank bound first
    (``CertifyLowRank``, ``tests/certify/test_low_rank.py``); here the sparse route they
    would take without it (as a rank-1 class with dead neurons of other rows does)."""
    from pybridge.decision import width_route

    monkeypatch.setattr(width_route, "decide_low_rank", lambda *_a, **_k: None)


def _identical(d: int, seed: int = 0, act: str = "relu") -> Instance:
    rng = np.random.default_rng(seed)
    A = (rng.standard_normal((d, d)) * 0.02).astype(np.float32)
    B = (rng.standard_normal((d, d)) * 0.02).astype(np.float32)
    A[:] = A[0]
    return Instance(resolve(act), ArrayMatrix(A, exact=True), ArrayMatrix(B, exact=True))


@pytest.mark.parametrize("act", ["relu", "gelu"])
def test_identical_rows_certified_sparse(backend, act: str) -> None:
    inst = _identical(12, act=act)
    dec = decide(inst)
    assert dec.verdict == "not_absorbable", dec.reason
    cert = build_certificate(inst, dec)
    assert cert is not None
    if act == "relu":
        assert "cert_r8_rank_sparse_relu" in cert.source and "Build_rank_entry" not in cert.source
    res = certify(inst, dec, backend, timeout=300)
    assert res is not None and res.accepted, res and res.message


def test_sparse_entries_exact() -> None:
    """Every entry's claim recomputed in Python from the integer M (as Coq's shifted_int)."""
    from pybridge.certify.rank import enum_ts, shifted_int

    inst = _identical(10, seed=3)
    dec = decide(inst)
    info = dec.width_info
    assert info is not None and info.form is not None
    form = info.form
    U, G = width_cert.form_int_parts(form, [list(r) for r in form.flat])
    g = _Parts(form.k, form.k + len(form.flat), U, G, form.Li, "")
    es = width_cert.sparse_entries(g, inst.d, inst.n)
    assert es is not None
    pairs = [(T, S) for T, S in enum_ts(g.k) if g.k + sum(T) <= inst.n]
    assert len(es) == len(pairs) == 3
    u = [int(x) for x in g.U.numerators()[0].tolist()]
    for (T, S), (t0, i0, J, D) in zip(pairs, es):
        assert t0 == 0 and u[i0] != 0 and i0 not in J and D != 0
        assert inst.n < g.k + sum(T) + 2 * len(J)
        M = shifted_int(g.U, g.G, g.L, g.k, S, inst.d)
        for a, ja in enumerate(J):
            for b, jb in enumerate(J):
                assert u[i0] * M[ja][jb] - u[jb] * M[ja][i0] == (D if a == b else 0)


@dataclass(frozen=True)
class _Parts:
    """The grouping data ``sparse_entries`` reads (``rank.GroupingData``)."""

    k: int
    K: int
    U: IntMatrix
    G: IntMatrix
    L: IntMatrix
    args: str


def _tampered(inst, dec, old: str, new: str, backend):
    cert = build_certificate(inst, dec)
    assert cert is not None and re.search(old, cert.source), old
    src = re.sub(old, new, cert.source, count=1)
    assert src != cert.source
    return backend.check_file(src, stem=cert.stem, timeout=120)


def test_tampered_sparse_certificates_rejected(backend) -> None:
    inst = _identical(8, seed=1)
    dec = decide(inst)
    n = inst.n
    # a wrong D in entry 0
    assert not _tampered(inst, dec, rf"(SP{n}_0 : sparse_entry := Build_sparse_entry .*) \((-?\d+)\)%Z\.",
                         r"\1 (7)%Z.", backend).accepted
    # entry 1 is T = {0} (the order of enum_ts): its columns must be orthogonal to u_0, so its
    # class must be 0; claim class 1
    assert not _tampered(inst, dec, rf"SP{n}_1 : sparse_entry := Build_sparse_entry 0%nat",
                         f"SP{n}_1 : sparse_entry := Build_sparse_entry 1%nat", backend).accepted
    # a missing entry
    assert not _tampered(inst, dec, rf"; SP{n}_2\]", "]", backend).accepted
    # the same columns out of order: the checker reads rows at J in one pass, so J must be
    # nondecreasing (else it would read other entries than it names)
    assert not _tampered(inst, dec, rf"(SP{n}_0 : sparse_entry := Build_sparse_entry 0%nat 0%nat) "
                         r"\[1%nat; 2%nat;", r"\1 [2%nat; 1%nat;", backend).accepted


def test_several_classes_keep_dense_entries() -> None:
    """x + e1 relu(x1) + e2 relu(x2) at width 3 (k = 2): the dense rank entries."""
    i = Instance(Activation("relu"), mat([[1, 0], [0, 1]]), mat([[1, 0], [0, 1]]))
    dec = decide(i, width=3)
    cert = build_certificate(i, dec)
    assert cert is not None and "Build_rank_entry" in cert.source and "sparse_entry :=" not in cert.source


def test_float_block_as_codes_counted_in_one_coqc_run(backend) -> None:
    """Float32 weights over one denominator are written as codes (``zcodes E RA``: plain
    numerators would end in many zero bits, which Coq elaborates about four times slower), in
    the lines the expected statement writes; the width 60 in the proof term (unary, too deep
    to print back) is counted by the driver as a binary natural: one coqc run, no fallback."""
    inst = _identical(60, seed=2)
    dec = decide(inst)
    assert dec.verdict == "not_absorbable" and dec.width_info is not None and dec.width_info.width == 60
    cert = build_certificate(inst, dec)
    assert cert is not None and "(zmat_rows dA (zcodes E RA)) (zmat_cols dB (zcodes E CB))" in cert.source
    prep = pipeline._prepare(inst, dec, backend)
    res, drv, out = pipeline._run([prep], backend, 300, None)
    assert res.accepted and out[0] is not None and out[0].accepted, out[0] and out[0].message
    assert len(drv.counted) == 1 and drv.counted[0] is not None


def test_a_changed_code_is_rejected(backend, monkeypatch) -> None:
    """One code of the block changed in the certificate: its data no longer is the weights'."""
    inst = _identical(12, seed=4)
    dec = decide(inst)
    real = pipeline._dispatch

    def edited(i, d):
        cert = real(i, d)
        src, k = re.subn(r"(Definition RA : list \(list int\) := rows_of \d+ \d+ \(unpacku \d+ \d+ \d+ "
                         r"\(ints_list \(ints\d+ )0x([0-9a-f]+)",
                         lambda m: m.group(1) + hex(int(m.group(2), 16) ^ 2), cert.source, count=1)
        assert k == 1, cert.source[:3000]
        return dataclasses.replace(cert, source=src)

    monkeypatch.setattr(pipeline, "_dispatch", edited)
    res = certify(inst, dec, backend, timeout=300)
    assert res is not None and res.rejected, res and res.message
