"""Pieces that several certificate writers share: the weights, the skip and its inverse,
no-subset functionals and the nonzero-skip check, written from exact integer data."""

from __future__ import annotations

from typing import Optional, Protocol, Sequence

import numpy as np

from pybridge.certify.coded import Coding, coding, max_abs_bits
from pybridge.certify.encoding import LIMIT, CoqWriter, columns, nat_list, prime_list, primes_for
from pybridge.certify.kinds import CannotCertify, Residues
from pybridge.decision.genericity import SortedGenericCertificate, sorted_certificate
from pybridge.exact.evidence import Evidence, NoSubsetCertificate
from pybridge.exact.modular import IntMatrix, scale_matrix
from pybridge.model import Decision, Instance

A_TERM, B_TERM = "(mat_of_rows dA RA)", "(mat_of_cols dB CB)"


P_TERM = "(mat_of_rows dP RP)"


class GenericProjection(Protocol):
    """A genericity certificate's projection ``a -> (u.a, v.a) mod p`` (plain or sorted)."""

    @property
    def p(self) -> int: ...
    @property
    def u(self) -> tuple[int, ...]: ...
    @property
    def v(self) -> tuple[int, ...]: ...


def write_weights(w: CoqWriter, ev: Evidence) -> None:
    n, d = ev.A.shape
    with w.data():
        w.nat("d", d)
        w.nat("n", n)
        w.z("dA", ev.A.den)
        w.z("dB", ev.B.den)
        w.rows("RA", ev.A.rows)
        w.rows("CB", columns(ev.B))


def write_skip(w: CoqWriter, inst: Instance) -> bool:
    """Define the skip P as data ``dP``, ``RP`` (False: identity skip, nothing defined)."""
    if inst.skip is None:
        return False
    P = scale_matrix(inst.skip)
    with w.data():
        w.z("dP", P.den)
        w.rows("RP", P.rows)
    return True


def write_inverse_check(w: CoqWriter, inst: Instance, decision: Decision) -> str:
    """Define Q = P^-1 as data and the check ``inv_ok`` of ``P Q = Q P = I``."""
    if inst.skip is None or decision.skip_inverse is None:
        raise CannotCertify("a skip without its exact inverse")
    P = scale_matrix(inst.skip)
    Q = scale_matrix(decision.skip_inverse)
    d = len(P.rows)
    w.z("dQ", Q.den)
    w.rows("RQ", Q.rows)
    bound = d * P.max_abs() * Q.max_abs() + P.den * Q.den
    return w.check("inv_ok", f"check_inverse d dP RP dQ RQ {prime_list(primes_for(bound))}")


def write_projection(w: CoqWriter, g: GenericProjection, prime: bool = True) -> None:
    """The genericity projection ``a -> (U.a, V.a) mod pg`` (``pg`` unless ``prime`` is False:
    the claim data define it; ``U``, ``V``)."""
    if prime:
        w.add(f"Definition pg : int := {g.p}%uint63.")
    w.int_list("U", g.u)
    w.int_list("V", g.v)


def write_nosub(w: CoqWriter, cert: NoSubsetCertificate, prime: bool = True) -> str:
    """The no-subset certificate: its prime ``p`` (unless ``prime`` is False: the claim data
    define it), free indices ``F`` and functionals ``FS``."""
    if prime:
        w.add(f"Definition p : int := {cert.p}%uint63.")
    w.add(f"Definition F : list nat := {nat_list(cert.free)}.")
    return write_functionals(w, cert)


def write_functionals(w: CoqWriter, cert: NoSubsetCertificate) -> str:
    items = []
    for j, f in enumerate(cert.functionals):
        rows = []
        for k, row in f.rows:
            name = w.int_list(f"Y{j}_{k}", row)
            rows.append(f"({k}%nat, {name})")
        piv = "None" if f.pivot is None else f"(Some {f.pivot}%nat)"
        items.append(f"({piv}, [{'; '.join(rows)}])")
    w.add(f"Definition FS : list (option nat * functional) := [{'; '.join(items)}].")
    return "FS"


def write_nonzero_skip(w: CoqWriter, inst: Instance) -> tuple[str, str, str]:
    """``(skip data term, k, l)`` and the check ``P_nz`` that entry (k, l) of the skip is nonzero."""
    if not write_skip(w, inst):
        w.check("P_nz", "check_skip_nonzero d None 0 0")
        return "None", "0", "0"
    rows = scale_matrix(inst.skip or ()).rows
    k, l = next((k, l) for k, r in enumerate(rows) for l, v in enumerate(r) if v != 0)
    w.check("P_nz", f"check_skip_nonzero d (Some (dP, RP)) {k} {l}")
    return "(Some (dP, RP))", str(k), str(l)


def block_coding(Ab: IntMatrix, Bb: IntMatrix, cols: Sequence[Sequence[int]] | np.ndarray, p: int) -> Optional[Coding]:
    """How a partial certificate writes its block (``Ab``, and ``Bb`` as columns ``cols``):
    codes of ``+- m 2**e`` (:mod:`.coded`) when they are denser than 63-bit numerators (float
    weights) or the only encoding possible; None: plain numerators. Raises
    :class:`CannotCertify` when neither applies. ``p``: the genericity prime, modulo which
    Coq sees the coded columns of ``W_down`` (none may look zero)."""
    codes = coding([Ab.rows, cols])
    plain_ok = max(Ab.max_abs(), Bb.max_abs()) < LIMIT
    if codes is not None and (bool(np.any(~np.any(cols % p != 0, axis=1))) if isinstance(cols, np.ndarray)
                              else any(not any(v % p for v in col) for col in cols)):
        if not plain_ok:
            raise CannotCertify("a column of the W_down block vanishes modulo the genericity prime")
        codes = None
    if codes is None and not plain_ok:
        raise CannotCertify("a weight numerator does not fit the 63-bit encoding of the certificates "
                            "(neither as a 63-bit integer nor as +- m 2^e with m below 2^61)")
    return codes


def write_block(w: CoqWriter, d: int, n: int, R: Sequence[int], Ab: IntMatrix, Bb: IntMatrix,
                cols: Sequence[Sequence[int]] | np.ndarray, codes: Optional[Coding]) -> None:
    """The data of a partial certificate's block: ``d``, ``n``, ``R``, ``dA``, ``dB`` and
    ``RA``, ``CB`` (numerators, or codes over the base ``E``, whose residues the checkers read)."""
    with w.data():
        w.nat("d", d)
        w.nat("n", n)
        w.add(f"Definition R : list nat := {nat_list(R)}.")
        w.z("dA", Ab.den)
        w.z("dB", Bb.den)
        if codes is None:
            w.rows("RA", Ab.rows)
            w.rows("CB", cols)
        else:
            w.add(f"Definition E : int := {codes.base}%uint63.")
            w.rows("RA", codes.writable(0), unsigned=True)
            w.rows("CB", codes.writable(1), unsigned=True)


# ---------------------------------------------------------------- blocks on residues

#: The hypotheses of a certificate on residues (``CertifyResidues``): the pair agrees with
#: the data modulo ``p`` on the block ``R`` and modulo ``pg`` on the indices ``R2``.
RESIDUE_AGREEMENT = ("agrees_up_mod n R dA p RAp A -> agrees_down_mod n R dB p CBp B -> "
                     "agrees_up_mod n R2 dA pg RAg A -> agrees_down_mod n R2 dB pg CBg B")

#: What a certificate on residues hands its lemma after the activation: its data and checks.
RESIDUE_DATA = ("d", "n", "R", "R2", "dA", "dB", "p", "pg", "RAp", "CBp", "RAg", "CBg", "U", "V", "F", "FS")
RESIDUE_CHECKS = ("idx_ok", "idx2_ok", "gen_ok", "below_ok", "nosub_ok")

PAIR_TRIES = 3  #: disjoint pairs of block indices tried first for the genericity check on residues


def _index_sets(R: Sequence[int]) -> list[tuple[int, ...]]:
    """The index sets the genericity check on residues tries: a few disjoint pairs (float
    weights: two columns separate every row's ratio), then 4, 8, 16 indices (quantized weights
    repeat pairs of values: more columns separate their rows)."""
    if len(R) <= 2:
        return [tuple(R)]
    pairs = [tuple(R[k:k + 2]) for k in range(0, min(len(R) - 1, 2 * PAIR_TRIES), 2)]
    return pairs + [tuple(R[:m]) for m in (4, 8, 16) if m <= len(R)]


def residue_form(A: IntMatrix, B: IntMatrix, R: Sequence[int], p: int
                 ) -> Optional[tuple[Residues, SortedGenericCertificate]]:
    """A partial certificate on block ``R`` written on residues (no-subset prime ``p``): a few
    of the block's indices on which the sorted-ratio genericity check holds, with no column
    of those rows of ``W_down`` vanishing modulo its prime (Coq sees only residues), or None
    (also when the block's numerators are no wider than the residues: the entries themselves
    are then written, as dense and a stronger statement)."""
    if not 1 < p < 2**31:
        return None
    idx = np.asarray(R, dtype=np.intp)
    top = max(max_abs_bits(A.numerators()[:, idx]), max_abs_bits(B.numerators()[idx, :]))
    if top + 1 <= p.bit_length():
        return None
    for pair in _index_sets(R):
        gen = sorted_certificate(A, B, pair)
        if gen is None or not 1 < gen.p < 2**31:
            continue
        rows = IntMatrix.from_numerators(B.numerators()[list(pair), :], B.den).mod(gen.p)
        if bool(np.all(rows.any(axis=0))):
            return Residues(p, gen.p, pair), gen
    return None


def write_block_residues(w: CoqWriter, d: int, n: int, R: Sequence[int], Ab: IntMatrix, Bb: IntMatrix,
                         res: Residues) -> None:
    """The claim data of a certificate on residues: ``d``, ``n``, ``R``, ``R2`` (``res.pair``),
    ``dA``, ``dB``, the primes ``p``, ``pg``, and the residues ``RAp``, ``CBp`` (columns ``R``
    of ``W_up`` from ``Ab``, rows ``R`` of ``W_down`` from ``Bb`` as columns, modulo ``p``) and
    ``RAg``, ``CBg`` (the same on ``R2``, modulo ``pg``). Raises ValueError when ``R2`` is not
    part of ``R``."""
    index = {k: j for j, k in enumerate(R)}
    if any(k not in index for k in res.pair):
        raise ValueError("the genericity indices are not part of the block")
    pos = [index[k] for k in res.pair]
    with w.data():
        w.nat("d", d)
        w.nat("n", n)
        w.add(f"Definition R : list nat := {nat_list(R)}.")
        w.add(f"Definition R2 : list nat := {nat_list(res.pair)}.")
        w.z("dA", Ab.den)
        w.z("dB", Bb.den)
        w.add(f"Definition p : int := {res.p}%uint63.")
        w.add(f"Definition pg : int := {res.pg}%uint63.")
        w.rows("RAp", Ab.mod(res.p), unsigned=True)
        w.rows("CBp", np.ascontiguousarray(Bb.mod(res.p).T), unsigned=True)
        w.rows("RAg", np.ascontiguousarray(Ab.mod(res.pg)[:, pos]), unsigned=True)
        w.rows("CBg", np.ascontiguousarray(Bb.mod(res.pg)[pos, :].T), unsigned=True)


def residues_valid(res: Residues, block: Sequence[int]) -> bool:
    """The residue form names primes in ``(1, 2**31)`` and distinct indices of the block (what
    :func:`write_block_residues` may write a claim from)."""
    return (all(isinstance(q, int) and 1 < q < 2**31 for q in (res.p, res.pg))
            and 0 < len(res.pair) and len(set(res.pair)) == len(res.pair)
            and set(res.pair) <= set(block))


def write_residue_block(w: CoqWriter, d: int, n: int, R: Sequence[int], Ab: IntMatrix, Bb: IntMatrix,
                        res: Residues, gen: SortedGenericCertificate, nosub: NoSubsetCertificate,
                        target: tuple[str, str] = ("1", "(id_rows (length R))")) -> None:
    """A certificate on residues up to its verdict: the claim data (:func:`write_block_residues`),
    the genericity projection on ``R2``, the block's no-subset functionals and the checks
    :data:`RESIDUE_CHECKS`, the no-subset one against ``target`` (denominator and rows: the
    identity by default)."""
    if nosub.p != res.p or gen.p != res.pg:
        raise ValueError("the certificate's primes are not the residues' primes")
    write_block_residues(w, d, n, R, Ab, Bb, res)
    write_projection(w, gen, prime=False)
    write_nosub(w, nosub, prime=False)
    w.check("idx_ok", "index_ok d R")
    w.check("idx2_ok", "index_ok d R2")
    w.check("gen_ok", "check_generic_sorted (length R2) n RAg CBg pg U V")
    w.check("below_ok", "residues_below pg CBg")
    w.check("nosub_ok", f"check_nosub (length R) n dA dB {target[0]} RAp CBp {target[1]} p F FS")
