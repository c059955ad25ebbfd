"""Coq certificate: a ReLU layer with one extra row is not absorbable at width ``n``.

``CertifyWidthOneExtra.cert_one_extra_not_absorbable`` (issue 20 item 3): the certificate
carries columns ``C`` of ``W_up`` (all ``n`` rows, ``RA``), rows ``R1`` of ``W_down`` (all
``n`` columns, ``CB``), the relation ``a_z = (ln / ld) a_i1`` of the extra row, a prime ``p``,
the genericity projection ``(u, v)`` of the block's classes, the basis functionals ``Ys``
and one combination per class ``As`` (:mod:`pybridge.exact.width_one`). Its statement::

    forall A B : mat, agrees_up n C dA RA A -> agrees_down n R1 dB CB B ->
      row_multiple d z i1 ln ld A -> ~ absorbable_ungated relu d n n identity A B

The expected statement (:func:`pybridge.certify.statement.one_extra_claims`) writes the
block and the relation from the instance itself.
"""

from __future__ import annotations

from pybridge.certify.encoding import LIMIT, CoqWriter, columns, nat_list
from pybridge.certify.kinds import CannotCertify, Certificate, OneExtraBlock
from pybridge.exact.modular import IntMatrix
from pybridge.exact.width_one import OneExtraRefutation
from pybridge.model import Instance

MODULES = ("RidgeForm", "R8", "RefuteOneExtra", "OneExtraGrouping", "CertifyWidthOneExtra")
LIBRARY_FILE = "certify/CertifyWidthOneExtra.v"
LEMMA = "cert_one_extra_not_absorbable"
STATEMENT = ("forall A B : mat, agrees_up n C dA RA A -> agrees_down n R1 dB CB B -> "
             "row_multiple d z i1 ln ld A -> ~ absorbable_ungated relu d n n identity A B")


def write_statement_data(w: CoqWriter, d: int, n: int, blk: OneExtraBlock, A: IntMatrix, B: IntMatrix) -> None:
    """The data the statement names: ``d n z i1 ln ld R1 C dA dB RA CB`` (``A``: ``n x |C|``
    block of ``W_up``, ``B``: ``|R1| x n`` block of ``W_down``). Raises :class:`CannotCertify`
    when a numerator does not fit the 63-bit encoding."""
    if max(A.max_abs(), B.max_abs()) >= LIMIT:
        raise CannotCertify("a weight numerator of the block does not fit the 63-bit encoding")
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
        w.rows("RA", A.rows)
        w.rows("CB", columns(B))


def build_one_extra(inst: Instance, ref: OneExtraRefutation) -> Certificate:
    """The certificate of "not absorbable at width n" from the refutation ``ref``."""
    ex = ref.extra
    blk = OneExtraBlock(ref.R1, ref.C, ex.z, ex.i1, ex.ln, ex.ld)
    w = CoqWriter(extra=MODULES)
    write_statement_data(w, inst.d, inst.n, blk, ref.A, ref.B)
    w.add(f"Definition p : int := {ref.p}%uint63.")
    w.int_list("u", list(ref.u))
    w.int_list("v", list(ref.v))
    names = [w.rows(f"Y{m}", [list(r) for r in Y], unsigned=True) for m, Y in enumerate(ref.Ys)]
    w.add(f"Definition Ys : list (list (list int)) := [{'; '.join(names)}].")
    w.rows("As", [list(a) for a in ref.As], unsigned=True)
    w.check("ok", "check_one_extra d n z i1 ln ld R1 C dA dB RA CB p u v Ys As")
    w.add(f"Theorem verdict : {STATEMENT}.\n"
          f"Proof. exact ({LEMMA} d n z i1 ln ld R1 C dA dB RA CB p u v Ys As ok). Qed.")
    what = "zero row" if ex.zero_row else f"row on another row's line (a_{ex.z} = {ex.ln}/{ex.ld} a_{ex.i1})"
    kind = (f"not absorbable at width n = k + 1 (R8 =>, one {what}: linear refutation of every (T, S) "
            f"on a {len(ref.R1)} x {len(ref.C)} block), for every pair agreeing with the block")
    return Certificate("CertOneExtra", w.text(), kind, inst.activation.label, one_extra=blk)
