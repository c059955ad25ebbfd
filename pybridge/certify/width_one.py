"""Coq certificate: a ReLU layer with one extra row is not absorbable at width ``n``.

``CertifyWidthOneExtra.cert_one_extra_coded_not_absorbable`` (issue 20 item 3): the
certificate carries columns ``C`` of ``W_up`` (all ``n`` rows, ``RA``) and rows ``R1`` of
``W_down`` (all ``n`` columns, ``CB``) as codes of ``+- m 2**e`` over the base ``E``
(:mod:`.coded`: two float32 numerators per 63-bit literal, where plain numerators need one
literal each; Coq decodes them, ``CertifyWidthOneExtra.decode``), the relation
``a_z = (ln / ld) a_i1`` of the extra row, the genericity prime ``p`` and projection
``(u, v)`` of the block's classes, the refutation's prime ``q < 2**20``, the basis
functionals ``Ys`` and one combination per class ``As`` (:mod:`pybridge.exact.width_one`).
Its statement::

    forall A B : mat, agrees_up_coded n C dA E RA A -> agrees_down_coded n R1 dB E CB B ->
      row_multiple d z i1 ln ld A -> ~ absorbable_ungated relu d n n identity A B

The expected statement (:func:`pybridge.certify.statement.one_extra_claims`) writes the
block and the relation from the instance itself.
"""

from __future__ import annotations

import numpy as np

from pybridge.certify.coded import FIELD_LIMIT, code
from pybridge.certify.encoding import LIMIT, CoqWriter, columns, nat_list
from pybridge.certify.kinds import CannotCertify, Certificate, OneExtraBlock
from pybridge.exact.modular import IntMatrix
from pybridge.exact.width_one import OneExtraRefutation
from pybridge.model import Instance

MODULES = ("RidgeForm", "R8", "RefuteOneExtra", "OneExtraGrouping", "CertifyCoded", "CertifyWidthOneExtra")
LIBRARY_FILE = "certify/CertifyWidthOneExtra.v"
LEMMA = "cert_one_extra_coded_not_absorbable"
STATEMENT = ("forall A B : mat, agrees_up_coded n C dA E RA A -> agrees_down_coded n R1 dB E CB B -> "
             "row_multiple d z i1 ln ld A -> ~ absorbable_ungated relu d n n identity A B")


def block_codes(mats: list[np.ndarray]) -> tuple[int, list[np.ndarray | list[list[int]]]]:
    """``(E, codes)``: every matrix's numerators as codes over one base ``E = 2**we``
    (``CodedData.dval``), each decoding to a value below ``2**62`` in absolute value
    (``CertifyWidthOneExtra.fits``). Raises :class:`CannotCertify` when a numerator or a
    code does not fit."""
    if all(m.dtype == np.int64 and int(m.min(initial=0)) > -2**63 for m in mats):
        mags = [np.abs(m) for m in mats]
        if any(int(a.max(initial=0)) >= LIMIT for a in mags):
            raise CannotCertify("a weight numerator of the block does not fit the 63-bit encoding")
        exps = [np.where(a > 0, np.log2(np.maximum(a & -a, 1)).astype(np.int64), 0) for a in mags]
        top = max((int(e.max()) for e in exps if e.size), default=0)
        we = max(1, top.bit_length())
        out: list[np.ndarray | list[list[int]]] = []
        for m, a, e in zip(mats, mags, exps):
            mag = a >> e
            if mag.size and int(mag.max()) >= FIELD_LIMIT >> (we + 1):
                raise CannotCertify("a weight numerator of the block does not fit the coded encoding")
            out.append((((mag << we) | e) << 1) | (m < 0).astype(np.int64))
        return 1 << we, out
    rows = [[[int(x) for x in r] for r in m.tolist()] for m in mats]
    if any(abs(x) >= LIMIT for m in rows for r in m for x in r):
        raise CannotCertify("a weight numerator of the block does not fit the 63-bit encoding")
    top = max(((abs(x) & -abs(x)).bit_length() - 1 for m in rows for r in m for x in r if x), default=0)
    base = 1 << max(1, top.bit_length())
    coded = [[[code(x, base) for x in r] for r in m] for m in rows]
    if any(x >= FIELD_LIMIT for m in coded for r in m for x in r):
        raise CannotCertify("a weight numerator of the block does not fit the coded encoding")
    return base, list(coded)


def write_statement_data(w: CoqWriter, d: int, n: int, blk: OneExtraBlock, A: IntMatrix, B: IntMatrix) -> None:
    """The data the statement names: ``d n z i1 ln ld R1 C dA dB E RA CB`` (``A``: ``n x |C|``
    block of ``W_up``, ``B``: ``|R1| x n`` block of ``W_down``, written as codes over the base
    ``E``). Raises :class:`CannotCertify` when a numerator does not fit the encoding."""
    cb = columns(B)
    base, (ra, cbc) = block_codes([A.numerators(), cb if isinstance(cb, np.ndarray) else np.array(cb, dtype=object)])
    with w.data():
        w.nat("d", d)
        w.nat("n", n)
        w.nat("z", blk.z)
        w.nat("i1", blk.i1)
        w.z("ln", blk.ln)
        w.z("ld", blk.ld)
        w.add(f"Definition R1 : list nat := {nat_list(blk.R1)}.")
        w.add(f"Definition C : list nat := {nat_list(blk.C)}.")
        w.z("dA", A.den)
        w.z("dB", B.den)
        w.add(f"Definition E : int := {base}%uint63.")
        w.rows("RA", ra, unsigned=True)
        w.rows("CB", cbc, unsigned=True)


def build_one_extra(inst: Instance, ref: OneExtraRefutation) -> Certificate:
    """The certificate of "not absorbable at width n" from the refutation ``ref``."""
    ex = ref.extra
    blk = OneExtraBlock(ref.R1, ref.C, ex.z, ex.i1, ex.ln, ex.ld)
    w = CoqWriter(extra=MODULES)
    write_statement_data(w, inst.d, inst.n, blk, ref.A, ref.B)
    w.add(f"Definition p : int := {ref.p}%uint63.")
    w.add(f"Definition q : int := {ref.q}%uint63.")
    w.int_list("u", list(ref.u))
    w.int_list("v", list(ref.v))
    names = [w.rows(f"Y{m}", [list(r) for r in Y], unsigned=True) for m, Y in enumerate(ref.Ys)]
    w.add(f"Definition Ys : list (list (list int)) := [{'; '.join(names)}].")
    w.rows("As", [list(a) for a in ref.As], unsigned=True)
    args = "d n z i1 ln ld R1 C dA dB E RA CB p q u v Ys As"
    w.check("ok", f"check_one_extra_coded {args}")
    w.add(f"Theorem verdict : {STATEMENT}.\n"
          f"Proof. exact ({LEMMA} {args} ok). Qed.")
    what = "zero row" if ex.zero_row else f"row on another row's line (a_{ex.z} = {ex.ln}/{ex.ld} a_{ex.i1})"
    kind = (f"not absorbable at width n = k + 1 (R8 =>, one {what}: linear refutation of every (T, S) "
            f"on a {len(ref.R1)} x {len(ref.C)} block), for every pair agreeing with the block")
    return Certificate("CertOneExtra", w.text(), kind, inst.activation.label, one_extra=blk)
