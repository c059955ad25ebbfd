"""Coq certificate: a ReLU or GELU-family layer with one extra row is not absorbable at width ``n``.

``CertifyWidthOneExtraResidues.cert_one_extra_res_not_absorbable`` (issue 20 item 3): the
certificate carries columns ``C`` of ``W_up`` (all ``n`` rows, ``RAq``) and rows ``R1`` of
``W_down`` (all ``n`` columns, ``CBq``) modulo the refutation's prime ``q < 2**20`` (three
residues per 63-bit literal: Coq's checkers read the block only modulo the primes), columns
``C2`` of ``W_up`` modulo the genericity prime ``p`` (``RAp``; two columns for float weights),
the relation ``a_z = (ln / ld) a_i1`` of the extra row (or ``col_zero d z B``: a dead neuron,
``DEAD_STATEMENT``), the genericity projection ``(u, v)``,
the basis functionals ``Ys`` and one combination per class ``As``
(:mod:`pybridge.exact.width_one`). Its statement::

    forall A B : mat, agrees_up_mod n C dA q RAq A -> agrees_up_mod n C2 dA p RAp A ->
      agrees_down_mod n R1 dB q CBq B -> row_multiple d z i1 ln ld A ->
      ~ absorbable_ungated relu d n n identity A B

The GELU family (R8', classes by sign) has the same statement with its ``sigma``
(``cert_one_extra_res_pm_not_absorbable``, the extra row zero or ``+-`` row ``i1``: ``|ln| = ld``).
The expected statement (:func:`pybridge.certify.statement.one_extra_claims`) writes the
block's residues and the relation from the instance itself.
"""

from __future__ import annotations

import numpy as np

from pybridge.certify.encoding import CoqWriter, nat_list
from pybridge.certify.kinds import CannotCertify, Certificate, OneExtraBlock
from pybridge.certify.pm_facts import width_sigma
from pybridge.exact.modular import IntMatrix
from pybridge.exact.width_one import OneExtraRefutation
from pybridge.model import Instance

MODULES = ("RidgeForm", "R8", "RefuteOneExtra", "OneExtraGrouping", "CertifyResidues", "CertifyWidthOneExtra",
           "CertifyWidthOneExtraResidues")
LIBRARY_FILE = "certify/CertifyWidthOneExtraResidues.v"
LEMMA = "cert_one_extra_res_not_absorbable"
DEAD_LEMMA = "cert_one_extra_res_dead_not_absorbable"
PM_LEMMA = "cert_one_extra_res_pm_not_absorbable"
PM_DEAD_LEMMA = "cert_one_extra_res_pm_dead_not_absorbable"
_AGREE = ("forall A B : mat, agrees_up_mod n C dA q RAq A -> agrees_up_mod n C2 dA p RAp A -> "
          "agrees_down_mod n R1 dB q CBq B -> ")


def statement(sigma: str, dead: bool) -> str:
    """The certificate's theorem: for every pair agreeing with the residues and satisfying the
    relation of the extra row (``row_multiple``, or ``col_zero`` for a dead neuron)."""
    relation = "col_zero d z B" if dead else "row_multiple d z i1 ln ld A"
    return f"{_AGREE}{relation} -> ~ absorbable_ungated {sigma} d n n identity A B"


def write_statement_data(w: CoqWriter, d: int, n: int, blk: OneExtraBlock, A: IntMatrix, B: IntMatrix) -> None:
    """The data the statement names: ``d n z i1 ln ld R1 C C2 dA dB p q RAq RAp CBq``
    (``A``: the ``n x |C|`` block of ``W_up``, ``B``: the ``|R1| x n`` block of ``W_down``;
    ``C2`` lies in ``C``). The caller checks ``1 < p < 2**31`` and ``1 < q < 2**21``. Raises
    :class:`CannotCertify` when ``C2`` names a column outside ``C``."""
    if not set(blk.C2) <= set(blk.C):
        raise CannotCertify("the genericity columns of a one-extra-row certificate lie outside its block")
    pos = [blk.C.index(j) for j in blk.C2]
    with w.data():
        w.nat("d", d)
        w.nat("n", n)
        w.nat("z", blk.z)
        w.nat("i1", blk.i1)
        w.z("ln", blk.ln)
        w.z("ld", blk.ld)
        w.add(f"Definition R1 : list nat := {nat_list(blk.R1)}.")
        w.add(f"Definition C : list nat := {nat_list(blk.C)}.")
        w.add(f"Definition C2 : list nat := {nat_list(blk.C2)}.")
        w.z("dA", A.den)
        w.z("dB", B.den)
        w.add(f"Definition p : int := {blk.p}%uint63.")
        w.add(f"Definition q : int := {blk.q}%uint63.")
        w.rows("RAq", A.mod(blk.q), unsigned=True)
        w.rows("RAp", np.ascontiguousarray(A.mod(blk.p)[:, pos]), unsigned=True)
        w.rows("CBq", np.ascontiguousarray(B.mod(blk.q).T), unsigned=True)


def build_one_extra(inst: Instance, ref: OneExtraRefutation) -> Certificate:
    """The certificate of "not absorbable at width n" from the refutation ``ref``."""
    ex = ref.extra
    facts = width_sigma(inst.activation.name)
    if facts is None:
        raise CannotCertify(f"no one-extra-row theorem for {inst.activation.label}")
    sigma, pm = facts
    if pm is not None and not (ex.ln == 0 or abs(ex.ln) == ex.ld):
        raise CannotCertify("for the GELU family the extra row must be zero or +- another row")
    blk = OneExtraBlock(ref.R1, ref.C, ex.z, ex.i1, ex.ln, ex.ld, ref.C2, ref.p, ref.q, ex.dead)
    w = CoqWriter(extra=MODULES + (pm.modules if pm else ()))
    write_statement_data(w, inst.d, inst.n, blk, ref.A, ref.B)
    w.int_list("u", list(ref.u))
    w.int_list("v", list(ref.v))
    names = [w.rows(f"Y{m}", [list(r) for r in Y], unsigned=True) for m, Y in enumerate(ref.Ys)]
    w.add(f"Definition Ys : list (list (list int)) := [{'; '.join(names)}].")
    w.rows("As", [list(a) for a in ref.As], unsigned=True)
    args = "d n z i1 ln ld R1 C C2 dA dB RAq RAp CBq p q u v Ys As"
    check = "check_one_extra_res_pm" if pm is not None and not ex.dead else "check_one_extra_res"
    w.check("ok", f"{check} {args}")
    if ex.dead:  # the lemma's check has ln = 0 (the data's ln is 0)
        args = args.replace(" ln ", " ")
    if pm is None:
        proof = f"{DEAD_LEMMA if ex.dead else LEMMA} {args} ok"
    else:
        proof = f"{PM_DEAD_LEMMA if ex.dead else PM_LEMMA} {sigma} {args} {pm.odd_part} {pm.zero} {pm.ridge_unique} ok"
    w.add(f"Theorem verdict : {statement(sigma, ex.dead)}.\nProof. exact ({proof}). Qed.")
    what = ("zero column of W_down (a dead neuron)" if ex.dead else "zero row" if ex.zero_row
            else f"row on another row's line (a_{ex.z} = {ex.ln}/{ex.ld} a_{ex.i1})")
    r8 = "R8" if pm is None else "R8'"
    kind = (f"not absorbable at width n = k + 1 ({r8} =>, one {what}: linear refutation of every (T, S) "
            f"on a {len(ref.R1)} x {len(ref.C)} block), for every pair agreeing with the block "
            "(entries modulo the checks' primes)")
    return Certificate("CertOneExtra", w.text(), kind, inst.activation.label, one_extra=blk)
