"""Coq certificate: a layer whose ``W_up`` has rank ``rho`` is not absorbable below ``2 (d - rho)``.

``CertifyLowRank.cert_low_rank_relu`` / ``cert_low_rank_pm`` (the GELU family): the claim
names ``rho`` rows of ``W_up`` (integer numerators, given by their ``d`` columns ``CV``, the
order Coq's one-pass check reads them in) and states, for every ``W_up`` whose rows lie in
their span and every ``W_down``::

    forall A B : mat, rows_in_span d n rho (zmat_cols 1 CV) A ->
      ~ absorbable_ungated relu d n m identity A B

The certificate adds the null vectors of ``V`` (pivot columns ``P``, ``D``, ``W``;
:mod:`pybridge.exact.low_rank`), which ``check_low_rank`` checks: ``O(rho d)`` numbers
where the grouping certificates carried every entry of both matrices. That the user's
``W_up`` lies in the span is checked exactly by pybridge on the instance
(:func:`pybridge.certify.statement.low_rank_claims`), as the one-extra claims' relation is.
"""

from __future__ import annotations

from typing import Sequence

from pybridge.certify.encoding import CoqWriter, nat_list
from pybridge.certify.kinds import CannotCertify, Certificate
from pybridge.certify.pm_facts import width_sigma
from pybridge.exact.low_rank import LowRank
from pybridge.model import Instance

MODULES = ("RidgeForm", "R8", "RankRefute", "ZMatrices", "NullspaceWidth", "CertifyLowRank")
LIBRARY_FILE = "certify/CertifyLowRank.v"


def statement(sigma: str, m: str) -> str:
    """The certificate's theorem at width ``m`` (``n`` or a number)."""
    return (f"forall A B : mat, rows_in_span d n rho (zmat_cols 1 CV) A -> "
            f"~ absorbable_ungated {sigma} d n {m} identity A B")


def _z_literal(x: int) -> str:
    """A ``Z`` literal; hexadecimal past 18 digits (Coq elaborates a long decimal literal about
    eight times slower)."""
    x = int(x)
    return f"({x})" if abs(x) < 10**18 else f"({'-' if x < 0 else ''}0x{abs(x):x})"


def _z_rows(rows: Sequence[Sequence[int]]) -> str:
    return "[" + "; ".join("[" + "; ".join(_z_literal(x) for x in r) + "]" for r in rows) + "]%Z"


def write_statement_data(w: CoqWriter, d: int, n: int, V: Sequence[Sequence[int]]) -> None:
    """The data the statement names: ``d n rho CV`` (the spanning rows' numerators, by columns)."""
    with w.data():
        w.nat("d", d)
        w.nat("n", n)
        w.nat("rho", len(V))
        w.add(f"Definition CV : list (list Z) := {_z_rows([[r[j] for r in V] for j in range(d)])}.")


def build_low_rank(inst: Instance, lr: LowRank, m: int) -> Certificate:
    """The certificate of "not absorbable at width m" from the rank bound ``lr``."""
    facts = width_sigma(inst.activation.name)
    if facts is None:
        raise CannotCertify(f"no rank-bound theorem for {inst.activation.label}")
    if not m < 2 * lr.free:
        raise CannotCertify(f"width {m} is not below 2 (d - rank W_up) = {2 * lr.free}")
    sigma, pm = facts
    w = CoqWriter(extra=MODULES + (pm.modules if pm else ()))
    write_statement_data(w, inst.d, inst.n, lr.V)
    w.add(f"Definition P : list nat := {nat_list(lr.P)}.")
    w.add(f"Definition W : list (list Z) := {_z_rows(lr.W)}.")
    w.add(f"Definition D : Z := {_z_literal(lr.D)}%Z.")
    mt = "n" if m == inst.n else str(m)
    w.check("ok", f"check_low_rank d rho {mt} CV P W D")
    facts_args = "" if pm is None else f" {pm.odd_part} {pm.zero} {pm.ridge_unique}"
    lemma = "cert_low_rank_relu" if pm is None else f"cert_low_rank_pm {sigma}"
    w.add(f"Theorem verdict : {statement(sigma, mt)}.\n"
          f"Proof. exact ({lemma} d n rho {mt} CV P W D{facts_args} ok). Qed.")
    kind = (f"not absorbable at width {m} < 2 (d - rank W_up) = {2 * lr.free} (rank bound, whatever W_down), "
            f"for every W_up whose rows lie in the span of its rows {list(lr.rows)}")
    return Certificate("CertLowRank", w.text(), kind, inst.activation.label, low_rank=lr.rows)
