"""Coq certificates for decisions: written here, checked by the backend.

:func:`build_certificate` turns an instance and its :class:`~pybridge.model.Decision`
into a self-contained Coq file: the instance's data (numbers only; every
identifier is built here), one lemma per boolean checker proved by the VM
(``vm_cast_no_check``, checked once by the kernel at ``Qed``), and
``Theorem verdict`` proved by one application of the ``Certify.v`` lemma of its
:class:`CertificateKind` (``exact (cert_... data ... checks)``). The file ends
with ``Print Assumptions Cert.verdict``. :func:`certify` compiles it and
accepts only if Coq does and every assumption is allowed
(:data:`~pybridge.prover.ALLOWED_AXIOMS`, primitive integers).

Weights are written as signed 63-bit numerators (two's complement literals)
over a common positive denominator per matrix, or, when those numerators do
not fit 63 bits or codes are denser (float weights over one denominator), as
codes of ``+- m 2**e`` (:mod:`pybridge.coq.coded`; ``CodedData.v`` computes
their residues in Coq). Codes are written for the partial generic
not-absorbable certificate and for the absorbable ones with the identity skip
(with or without biases); elsewhere a numerator outside ``[-2**62, 2**62)`` leaves the
instance not certified. A matrix is one packed flat list cut into rows
(``IntSums.rows_of``), its cells written by wide applications (``c32``): the
time ``coqc`` takes is mostly elaborating these terms.

Generic not-absorbable verdicts with the identity skip are written as
*partial* certificates (:data:`CertificateKind.GENERIC_NOT_ABSORBABLE_PARTIAL`):
only columns ``R`` of ``W_up`` and rows ``R`` of ``W_down`` (the entries the
no-subset functional and the sorted-ratio genericity check read), and the
theorem is stated for every pair of matrices agreeing with them there. The
file's header records a digest of the full weights and of the extracted
entries; :func:`certify` checks exactly that the instance's weights agree with
the extracted entries before accepting (:func:`agreement`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from math import prod
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from ..decision import decide
from ..decision.genericity import sorted_certificate
from ..decision.subset_search import restrict_functionals, sub_matrices
from ..evidence import Evidence, NoSubsetCertificate
from ..io.lazy import ArrayMatrix
from ..model import Decision, Instance
from ..modular import PRIMES, IntMatrix, scale_matrix
from ..prover import ALLOWED_AXIOMS, PRIMITIVE_INT_AXIOMS, ProverBackend, ProverOutcome, ProverResult
from .coded import Coding, coding, max_abs_bits
from .query import final_assumptions

LIMIT = 2**62

ROW_CHUNK = 8000  #: longest list literal written in one piece (Coq's parser recurses)
WIDE = (32, 8)  #: list cells written by one application (``c32 x1 ... x32 l``), widest first
MAX_FREE_CERT = 20  #: largest number of free indices a Coq certificate enumerates


class CertificateKind(str, Enum):
    """The kinds of certificates; each is one lemma of ``Certify.v``."""

    ABSORBABLE = "absorbable"                          #: R5 (<=), identity skip
    ABSORBABLE_SKIP = "absorbable_skip"                #: R1 + R5 (<=)
    ABSORBABLE_BIAS = "absorbable_bias"                #: R5 (<=) with biases (R7)
    GENERIC_NOT_ABSORBABLE = "generic_not_absorbable"  #: R5 (=>), identity skip
    GENERIC_NOT_ABSORBABLE_SKIP = "generic_not_absorbable_skip"  #: R1 + R5 (=>)
    GATED_NOT_ABSORBABLE = "gated_not_absorbable"      #: R3, every weight of the shape
    RELU_POW_NOT_ABSORBABLE = "relu_pow_not_absorbable"  #: R2, every weight of the shape
    GENERIC_NOT_ABSORBABLE_PARTIAL = "generic_not_absorbable_partial"  #: R5 (=>) from a block of the weights

    @property
    def lemma(self) -> str:
        """The ``Certify.v`` lemma a certificate of this kind applies."""
        return "cert_" + self.value

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    CertificateKind.ABSORBABLE: "absorbable (R5 <=)",
    CertificateKind.ABSORBABLE_SKIP: "absorbable (R1 + R5 <=)",
    CertificateKind.ABSORBABLE_BIAS: "absorbable with biases (R5 <= with biases, R7)",
    CertificateKind.GENERIC_NOT_ABSORBABLE: "not absorbable (generic weights, R5 =>)",
    CertificateKind.GENERIC_NOT_ABSORBABLE_SKIP: "not absorbable (generic weights, R1 + R5 =>)",
    CertificateKind.GATED_NOT_ABSORBABLE: "not absorbable (R3), all weights",
    CertificateKind.RELU_POW_NOT_ABSORBABLE: "not absorbable (R2), all weights",
    CertificateKind.GENERIC_NOT_ABSORBABLE_PARTIAL:
        "not absorbable (generic weights, R5 =>), for all weights agreeing with the certificate's block",
}


class CannotCertify(Exception):
    """The decision is exact but no Coq certificate can be written for it."""


@dataclass(frozen=True)
class Extract:
    """The entries a partial certificate carries: columns ``block`` of ``W_up`` (``A``,
    n x r) and rows ``block`` of ``W_down`` (``B``, r x n), with digests."""

    block: tuple[int, ...]
    A: IntMatrix
    B: IntMatrix
    weights_sha256: str
    extract_sha256: str


@dataclass(frozen=True)
class Certificate:
    """A generated Coq file: ``stem.v`` holding ``source``, of one ``kind`` (a
    :class:`CertificateKind`, or a description for the width route's many forms)."""

    stem: str
    source: str
    kind: CertificateKind | str
    activation: str
    extract: Optional[Extract] = None
    #: The block the extract was taken from when it is not the user's: R1 with biases
    #: extracts from the reduced block (the user's ``W_up``, ``P^-1 W_down``).
    extract_of: Optional[Instance] = None

    @property
    def summary(self) -> str:
        kind = self.kind.description if isinstance(self.kind, CertificateKind) else self.kind
        return f"{self.activation}: {kind}"


# ---------------------------------------------------------------- Coq text


class _Writer:
    """Accumulates Coq definitions; every name is generated here."""

    def __init__(self, extra: Sequence[str] = ()) -> None:
        # Uint63 is imported inside the module only, so that the final
        # Print Assumptions names the primitive-integer axioms fully qualified.
        modules = ["Blocks", "ActivationDefs", "Activations", "FlipSigns", "Biases", "ImpossibilityInstances",
                   *extra, "Certify"]
        self.lines: list[str] = [
            'Set Warnings "-abstract-large-number".',
            "From Coq Require Import Reals ZArith List.",
            "From Coq Require Uint63.",
            "From Absorb Require Import " + " ".join(dict.fromkeys(modules)) + ".",
            "Open Scope R_scope.",
            "Module Cert.",
            "Import Uint63 ListNotations.",
            "Definition c := @cons int.",
            "Definition e := @nil int.",
            *(f"Definition c{k} ({' '.join(f'x{i}' for i in range(k))} : int) (l : list int) : list int := "
              f"{' :: '.join(f'x{i}' for i in range(k))} :: l." for k in WIDE),
            "",
        ]

    def add(self, text: str) -> None:
        self.lines.append(text)

    def _literal_list(self, lits: list[str]) -> str:
        """``c32 x1 ... x32 (c8 ... (c x (... e)))``: explicit applications elaborate faster than
        list notation, and one application of ``c32`` (about 20 us per literal) faster than 32
        nested ones (about 50 us per literal)."""
        parts, i = [], 0
        for k in WIDE + (1,):
            while len(lits) - i >= k:
                parts.append(f"(c{k if k > 1 else ''} {' '.join(lits[i:i + k])} ")
                i += k
        return "".join(parts) + "e" + ")" * len(parts)

    def int_list(self, name: str, values: Sequence[int], pack: bool = False) -> str:
        """Define ``name : list int`` from signed numerators; return ``name``.

        With ``pack``, several numerators share one literal (``IntSums.unpack``)."""
        w = (max((abs(v) for v in values), default=0)).bit_length() + 1
        k = 63 // w if pack else 1
        if k >= 2:
            body = self._chunked(name, _pack(values, w, k, 1 << (w - 1)))
            self.add(f"Definition {name} : list int := unpack {w} {k} {len(values)} {body}.")
            return name
        body = self._chunked(name, [_lit(v) for v in values])
        self.add(f"Definition {name} : list int := {body}.")
        return name

    def _chunked(self, name: str, lits: list[str]) -> str:
        if len(lits) <= ROW_CHUNK:
            return self._literal_list(lits)
        parts = []
        for c in range(0, len(lits), ROW_CHUNK):
            part = f"{name}_c{c // ROW_CHUNK}"
            self.add(f"Definition {part} : list int := {self._literal_list(lits[c:c + ROW_CHUNK])}.")
            parts.append(part)
        return "(" + " ++ ".join(parts) + ")"

    def rows(self, prefix: str, rows: Sequence[Sequence[int]], unsigned: bool = False) -> str:
        """Define ``prefix : list (list int)`` from the rows' numerators; return ``prefix``.

        Rows of one length are written as one flat list, packed (``unpack w k
        len``, ``k`` fields of ``w`` bits per literal) and cut into rows by
        ``IntSums.rows_of``: the cost of a certificate is mostly Coq elaborating
        its terms, about 50 us per list cell and 0.2 ms per definition, not the
        VM. With ``unsigned`` (nonnegative values below ``2**62``, codes) the
        fields hold the values as they are (``unpacku``), one bit narrower."""
        lengths = {len(r) for r in rows}
        if len(rows) < 2 or len(lengths) != 1 or not len(rows[0]):
            names = [self.int_list(f"{prefix}{i}", r, pack=not unsigned) for i, r in enumerate(rows)]
            self.add(f"Definition {prefix} : list (list int) := [{'; '.join(names)}].")
            return prefix
        arr = _int64_rows(rows)
        top = max_abs_bits(rows if arr is None else arr)
        w = max(1, top) if unsigned else top + 1
        k = 63 // w
        size = len(rows) * len(rows[0])
        if k >= 2:
            off = 0 if unsigned else 1 << (w - 1)
            words = _pack([v for r in rows for v in r], w, k, off) if arr is None else _pack_int64(arr, w, k, off)
            body = f"{'unpacku' if unsigned else 'unpack'} {w} {k} {size} {self._chunked(prefix, words)}"
        else:
            flat = [v for r in rows for v in r]
            body = self._chunked(prefix, [hex(v) if unsigned else _lit(v) for v in flat])
        self.add(f"Definition {prefix} : list (list int) := rows_of {len(rows[0])} {len(rows)} ({body}).")
        return prefix

    def z(self, name: str, value: int) -> str:
        self.add(f"Definition {name} : Z := ({value})%Z.")
        return name

    def nat(self, name: str, value: int) -> str:
        self.add(f"Definition {name} : nat := {value}%nat.")
        return name

    def check(self, name: str, statement: str) -> str:
        """A boolean side condition, proved by the VM (checked once by the kernel at Qed)."""
        self.add(f"Lemma {name} : {statement} = true.\nProof. vm_cast_no_check (eq_refl true). Qed.")
        return name

    def verdict(self, statement: str, kind: CertificateKind, args: Sequence[str],
                lemma: Optional[str] = None) -> None:
        """``Theorem verdict``, proved by the kind's ``Certify`` lemma (or ``lemma``, its variant
        for coded data) applied to ``args``."""
        self.add(f"Theorem verdict : {statement}.\nProof. exact ({lemma or kind.lemma} {' '.join(args)}). Qed.")

    def text(self) -> str:
        """The whole file: the module, then ``Print Assumptions`` of its ``verdict``."""
        return "\n".join(self.lines + ["End Cert.", "Print Assumptions Cert.verdict."]) + "\n"


def _pack(values: Sequence[int], w: int, k: int, off: int) -> list[str]:
    """Literals holding ``k`` fields of ``w`` bits each, a field being a value plus ``off``
    (hexadecimal: Coq reads them about a third faster than decimal ones)."""
    words = []
    for c in range(0, len(values), k):
        x = 0
        for j, v in enumerate(values[c:c + k]):
            x |= (v + off) << (j * w)
        words.append(hex(x))
    return words


def _int64_rows(rows: Sequence[Sequence[int]]) -> Optional[np.ndarray]:
    """The rows as a 2-D ``int64`` array with every entry above ``-2**63``, or None
    (entries beyond 63 bits, ragged rows)."""
    try:
        arr = np.array(rows, dtype=np.int64)
    except (OverflowError, ValueError, TypeError):
        return None
    if arr.ndim != 2 or (arr.size and int(arr.min()) == -2**63):
        return None
    return arr


def _pack_int64(arr: np.ndarray, w: int, k: int, off: int) -> list[str]:
    """:func:`_pack` of the array's entries in row order, by NumPy: every field value
    ``v + off`` lies in ``[0, 2**w)`` and ``k * w <= 63``, so each word is exact in ``uint64``."""
    flat = arr.ravel()
    pad = -len(flat) % k
    fields = (np.concatenate([flat, np.full(pad, -off, dtype=np.int64)]) + off).astype(np.uint64)
    fields = fields.reshape(-1, k)
    words = np.zeros(fields.shape[0], dtype=np.uint64)
    for j in range(k):
        words |= fields[:, j] << np.uint64(j * w)
    return [hex(x) for x in words.tolist()]


def _lit(v: int) -> str:
    if not -LIMIT <= v < LIMIT:
        raise CannotCertify("a weight numerator does not fit the 63-bit encoding of the certificates")
    return hex(v if v >= 0 else 2**63 + v)


def _columns(m: IntMatrix) -> list[tuple[int, ...]]:
    return [tuple(r[i] for r in m.rows) for i in range(m.shape[1])]


def _primes_for(bound: int) -> list[int]:
    ps: list[int] = []
    for p in PRIMES:
        ps.append(p)
        if prod(ps) > bound:
            return ps
    raise CannotCertify("weights too large for the multi-modular exactness check")


def _plist(ps: Sequence[int]) -> str:
    return "[" + "; ".join(str(p) for p in ps) + "]%uint63"


def _nat_list(xs: Sequence[int]) -> str:
    return "[" + "; ".join(f"{x}%nat" for x in xs) + "]"


# ---------------------------------------------------------------- pieces

A_TERM, B_TERM = "(mat_of_rows dA RA)", "(mat_of_cols dB CB)"
P_TERM = "(mat_of_rows dP RP)"


def _data(w: _Writer, ev: Evidence) -> None:
    n, d = ev.A.shape
    w.nat("d", d)
    w.nat("n", n)
    w.z("dA", ev.A.den)
    w.z("dB", ev.B.den)
    w.rows("RA", ev.A.rows)
    w.rows("CB", _columns(ev.B))


def _skip_data(w: _Writer, inst: Instance) -> bool:
    """Define the skip P as data ``dP``, ``RP`` (False: identity skip, nothing defined)."""
    if inst.skip is None:
        return False
    P = scale_matrix(inst.skip)
    w.z("dP", P.den)
    w.rows("RP", P.rows)
    return True


def _inverse_check(w: _Writer, inst: Instance, decision: Decision) -> str:
    """Define Q = P^-1 as data and the check ``inv_ok`` of ``P Q = Q P = I``."""
    if inst.skip is None or decision.skip_inverse is None:
        raise CannotCertify("a skip without its exact inverse")
    P = scale_matrix(inst.skip)
    Q = scale_matrix(decision.skip_inverse)
    d = len(P.rows)
    w.z("dQ", Q.den)
    w.rows("RQ", Q.rows)
    bound = d * P.max_abs() * Q.max_abs() + P.den * Q.den
    return w.check("inv_ok", f"check_inverse d dP RP dQ RQ {_plist(_primes_for(bound))}")


def _functionals(w: _Writer, cert: NoSubsetCertificate) -> str:
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


def _nonzero_skip(w: _Writer, inst: Instance) -> tuple[str, str, str]:
    """``(skip data term, k, l)`` and the check ``P_nz`` that entry (k, l) of the skip is nonzero."""
    if not _skip_data(w, inst):
        w.check("P_nz", "check_skip_nonzero d None 0 0")
        return "None", "0", "0"
    rows = scale_matrix(inst.skip or ()).rows
    k, l = next((k, l) for k, r in enumerate(rows) for l, v in enumerate(r) if v != 0)
    w.check("P_nz", f"check_skip_nonzero d (Some (dP, RP)) {k} {l}")
    return "(Some (dP, RP))", str(k), str(l)


# ---------------------------------------------------------------- builders


def _build_classification(inst: Instance) -> Certificate:
    """Gated (R3) / relu^k (R2): the verdict for every weight of the given shape."""
    act = inst.activation
    w = _Writer(extra=(*act.spec.certificate_modules,))
    w.nat("d", inst.d)
    w.nat("n", inst.n)
    sk, k, l = _nonzero_skip(w, inst)
    pterm = P_TERM if sk != "None" else "identity"
    if act.gated and act.spec.not_absorbable_lemma:
        kind = CertificateKind.GATED_NOT_ABSORBABLE
        r3 = act.spec.not_absorbable_lemma.rsplit(".", 1)[-1]
        w.verdict(f"forall C A B : mat, ~ absorbable_gated {act.coq_function} d n n {pterm} C A B", kind,
                  [act.coq_function, r3, "d", "n", sk, k, l, "P_nz"])
    elif act.degree is not None and act.homogeneous_degree != 1:  # relu^k, the one family with a degree
        kind = CertificateKind.RELU_POW_NOT_ABSORBABLE
        w.verdict(f"forall A B : mat, ~ absorbable_ungated {act.coq_function} d n n {pterm} A B", kind,
                  [str(act.degree), "d", "n", sk, k, l, "eq_refl", "P_nz"])
    else:
        raise CannotCertify(f"no classification certificate for {act.label}")
    return Certificate("CertClassify", w.text(), kind, act.label)


def _subset_bound(ev: Evidence) -> list[int]:
    T = ev.target
    n = ev.A.shape[0]
    bound = T.den * n * ev.B.max_abs() * ev.A.max_abs() + ev.A.den * ev.B.den * T.max_abs()
    return _primes_for(bound)


def _build_absorbable(inst: Instance, decision: Decision, ev: Evidence) -> Certificate:
    act = inst.activation
    if not act.odd_part_identity or act.spec.odd_part_lemma is None:
        raise CannotCertify(f"no absorbable certificate for {act.label}")
    if decision.witness is None:
        raise CannotCertify("absorbable decision without a witness")
    sigma, odd = act.coq_function, act.spec.odd_part_lemma.rsplit(".", 1)[-1]
    n = ev.A.shape[0]
    if inst.skip is None:
        mats = [ev.A.rows, _columns(ev.B)]
        dens: tuple[int, ...] = ()
        if inst.has_bias:
            c = scale_matrix([list(inst.b_up or [Fraction(0)] * n)])
            b0 = scale_matrix([list(inst.b_down or [Fraction(0)] * inst.d)])
            mats += [c.rows, b0.rows]
            dens = (c.den, b0.den)
        codes = coding(mats)
        if codes is not None:
            return _build_absorbable_coded(inst, decision, ev, codes, dens)
    w = _Writer(extra=(*act.spec.certificate_modules,))
    _data(w, ev)
    skip = _skip_data(w, inst)
    s = set(decision.witness.subset)
    w.add("Definition SL : list bool := [" + "; ".join("true" if i in s else "false" for i in range(n)) + "].")
    ps = _plist(_subset_bound(ev))
    head = [sigma, odd, "d", "n", "dA", "dB", "RA", "CB", "SL", ps]
    if inst.has_bias:
        if skip:
            raise CannotCertify("biases with a non-identity skip")
        c = scale_matrix([list(inst.b_up or [Fraction(0)] * n)])
        b0 = scale_matrix([list(inst.b_down or [Fraction(0)] * inst.d)])
        w.z("dc", c.den)
        w.int_list("Lc", c.rows[0])
        w.z("db0", b0.den)
        w.int_list("Lb0", b0.rows[0])
        w.check("sub_ok", f"check_submatrix d n dA dB 1 RA CB (id_rows d) SL {ps}")
        kind = CertificateKind.ABSORBABLE_BIAS
        w.verdict(f"absorbable_ungated_bias {sigma} d n n identity {A_TERM} (vec_of dc Lc) {B_TERM} "
                  "(vec_of db0 Lb0)", kind, head + ["dc", "db0", "Lc", "Lb0", "sub_ok"])
    elif not skip:
        w.check("sub_ok", f"check_submatrix d n dA dB 1 RA CB (id_rows d) SL {ps}")
        kind = CertificateKind.ABSORBABLE
        w.verdict(f"absorbable_ungated {sigma} d n n identity {A_TERM} {B_TERM}", kind, head + ["sub_ok"])
        w.add(f"Theorem witness : same_fun d (ungated {sigma} d n (flip_rows (Sfun SL) {A_TERM}) {B_TERM})\n"
              f"  (residual d identity (ungated {sigma} d n {A_TERM} {B_TERM})).\n"
              f"Proof. exact (cert_absorbable_witness {' '.join(head)} sub_ok). Qed.")
    else:
        inv = _inverse_check(w, inst, decision)
        w.check("sub_ok", f"check_submatrix d n dA dB dP RA CB RP SL {ps}")
        kind = CertificateKind.ABSORBABLE_SKIP
        w.verdict(f"absorbable_ungated {sigma} d n n {P_TERM} {A_TERM} {B_TERM}", kind,
                  head + ["dP", "dQ", "RP", "RQ", "_", inv, "sub_ok"])
    return Certificate("CertAbsorbable", w.text(), kind, act.label)


def _build_absorbable_coded(inst: Instance, decision: Decision, ev: Evidence, codes: Coding,
                            bias_dens: tuple[int, ...] = ()) -> Certificate:
    """R5 (<=), identity skip, the weights (and biases, with ``bias_dens``) as +- m 2^e codes
    (``CertifyCoded.cert_absorbable_coded``, ``cert_absorbable_bias_coded``)."""
    act = inst.activation
    assert decision.witness is not None and act.spec.odd_part_lemma is not None
    sigma, odd = act.coq_function, act.spec.odd_part_lemma.rsplit(".", 1)[-1]
    n, d = ev.A.shape
    w = _Writer(extra=(*act.spec.certificate_modules, "CertifyCoded"))
    w.nat("d", d)
    w.nat("n", n)
    w.z("dA", ev.A.den)
    w.z("dB", ev.B.den)
    w.add(f"Definition E : int := {codes.base}%uint63.")
    w.rows("RA", codes.matrices[0], unsigned=True)
    w.rows("CB", codes.matrices[1], unsigned=True)
    s = set(decision.witness.subset)
    w.add("Definition SL : list bool := [" + "; ".join("true" if i in s else "false" for i in range(n)) + "].")
    ps = _plist(_subset_bound(ev))
    w.check("sub_ok", f"check_submatrix_coded d n dA dB 1 E RA CB (id_rows d) SL {ps}")
    A, B = "(mat_of_drows dA E RA)", "(mat_of_dcols dB E CB)"
    head = [sigma, odd, "d", "n", "dA", "dB", "E", "RA", "CB", "SL", ps]
    if bias_dens:
        w.z("dc", bias_dens[0])
        w.int_list("Lc", codes.matrices[2][0])
        w.z("db0", bias_dens[1])
        w.int_list("Lb0", codes.matrices[3][0])
        kind = CertificateKind.ABSORBABLE_BIAS
        w.verdict(f"absorbable_ungated_bias {sigma} d n n identity {A} (vec_of_coded dc E Lc) {B} "
                  "(vec_of_coded db0 E Lb0)", kind, head + ["dc", "db0", "Lc", "Lb0", "sub_ok"],
                  lemma="cert_absorbable_bias_coded")
        return Certificate("CertAbsorbable", w.text(), kind, act.label)
    kind = CertificateKind.ABSORBABLE
    w.verdict(f"absorbable_ungated {sigma} d n n identity {A} {B}", kind, head + ["sub_ok"],
              lemma="cert_absorbable_coded")
    w.add(f"Theorem witness : same_fun d (ungated {sigma} d n (flip_rows (Sfun SL) {A}) {B})\n"
          f"  (residual d identity (ungated {sigma} d n {A} {B})).\n"
          f"Proof. exact (cert_absorbable_coded_witness {' '.join(head)} sub_ok). Qed.")
    return Certificate("CertAbsorbable", w.text(), kind, act.label)


def _build_not_absorbable(inst: Instance, decision: Decision, ev: Evidence) -> Certificate:
    if ev.nosub_cert is None:
        raise CannotCertify("no no-subset certificate")
    cert = ev.nosub_cert
    if len(cert.free) > MAX_FREE_CERT:
        raise CannotCertify(f"the certificate would enumerate 2^{len(cert.free)} assignments")
    act = inst.activation
    if act.spec.generic_cert_lemma is None:
        raise CannotCertify(f"no not-absorbable certificate for {act.label}")
    if inst.skip is None:
        partial = _build_partial(inst, ev, cert)
        if partial is not None:
            return partial
    if ev.generic_cert is None:
        raise CannotCertify("genericity was shown without a single projection certificate")
    sigma, r5 = act.coq_function, act.spec.generic_cert_lemma.rsplit(".", 1)[-1]
    w = _Writer(extra=(*act.spec.certificate_modules,))
    _data(w, ev)
    skip = _skip_data(w, inst)
    g = ev.generic_cert
    w.add(f"Definition pg : int := {g.p}%uint63.")
    w.int_list("U", g.u)
    w.int_list("V", g.v)
    w.add(f"Definition p : int := {cert.p}%uint63.")
    w.add(f"Definition F : list nat := {_nat_list(cert.free)}.")
    _functionals(w, cert)
    head = [sigma, r5, "d", "n", "dA", "dB", "RA", "CB", "pg", "U", "V", "p", "F", "FS"]
    if not skip:
        w.check("gen_ok", "check_generic d n RA CB pg U V")
        w.check("nosub_ok", "check_nosub d n dA dB 1 RA CB (id_rows d) p F FS")
        kind = CertificateKind.GENERIC_NOT_ABSORBABLE
        w.verdict(f"~ absorbable_ungated {sigma} d n n identity {A_TERM} {B_TERM}", kind,
                  head + ["gen_ok", "nosub_ok"])
    else:
        inv = _inverse_check(w, inst, decision)
        w.check("gen_ok", "check_generic d n RA CB pg U V")
        w.check("nosub_ok", "check_nosub d n dA dB dP RA CB RP p F FS")
        kind = CertificateKind.GENERIC_NOT_ABSORBABLE_SKIP
        w.verdict(f"~ absorbable_ungated {sigma} d n n {P_TERM} {A_TERM} {B_TERM}", kind,
                  head + ["dP", "dQ", "RP", "RQ", "_", inv, "gen_ok", "nosub_ok"])
    return Certificate("CertNotAbsorbable", w.text(), kind, act.label)


def _digest(*mats: IntMatrix) -> str:
    """sha256 of integer matrices (shape, denominator, numerators)."""
    h = hashlib.sha256()
    for m in mats:
        h.update(f"{m.shape} {m.den};".encode())
        try:
            import numpy as np

            h.update(np.array(m.rows, dtype=np.int64).tobytes())
        except OverflowError:
            h.update(repr(m.rows).encode())
    return h.hexdigest()


def _int_view(m: Sequence[Sequence[Fraction]]) -> Optional[IntMatrix]:
    """The matrix as exact integer numerators when its reader already holds them
    (:meth:`pybridge.io.lazy.ArrayMatrix.int_matrix`); None for plain matrices."""
    return m.int_matrix() if isinstance(m, ArrayMatrix) else None


def _block_mismatch(full: IntMatrix, rows: Sequence[int], cols: Sequence[int],
                    part: IntMatrix) -> Optional[tuple[int, int]]:
    """The first position ``(r, c)`` of ``part`` that differs from ``full[rows[r]][cols[c]]``
    as a rational (numerators over each matrix's denominator), or None."""
    sub = full.numerators()[np.ix_(np.asarray(rows, dtype=np.intp), np.asarray(cols, dtype=np.intp))]
    mine = part.numerators()
    if full.den == part.den:
        same = sub == mine
    else:  # cross-multiplied in Python ints (object arrays): no int64 overflow
        same = sub.astype(object) * part.den == mine.astype(object) * full.den
    same = np.asarray(same, dtype=bool)
    if same.all():
        return None
    r, c = np.argwhere(~same)[0]
    return int(r), int(c)


def _mismatch(m: Sequence[Sequence[Fraction]], rows: Sequence[int], cols: Sequence[int],
              part: IntMatrix) -> Optional[tuple[int, int]]:
    """:func:`_block_mismatch` for an instance matrix: on its integer numerators when its
    reader holds them (whole NumPy blocks), else entry by entry as Fractions."""
    full = _int_view(m)
    if full is not None:
        return _block_mismatch(full, rows, cols, part)
    for r, (i, prow) in enumerate(zip(rows, part.rows)):
        src = m[i]
        for c, (j, num) in enumerate(zip(cols, prow)):
            v = Fraction(src[j])
            if v.numerator * part.den != num * v.denominator:
                return r, c
    return None


def agreement(instance: Instance, extract: Extract) -> Optional[str]:
    """Exactly: do the instance's weights agree with the extracted entries?
    None when they do, else the first disagreeing entry."""
    R = extract.block
    A, B = extract.A, extract.B
    if len(instance.W_up) != A.shape[0] or any(not 0 <= k < instance.d for k in R):
        return "the block does not fit the weights' shape"
    bad = _mismatch(instance.W_up, range(A.shape[0]), R, A)
    if bad is not None:
        return f"W_up[{bad[0]}][{R[bad[1]]}]"
    for k in R[:B.shape[0]]:
        if len(instance.W_down[k]) != B.shape[1]:
            return f"row {k} of W_down"
    bad = _mismatch(instance.W_down, R, range(B.shape[1]), B)
    return None if bad is None else f"W_down[{R[bad[0]]}][{bad[1]}]"


def block_coding(Ab: IntMatrix, Bb: IntMatrix, cols: Sequence[Sequence[int]], p: int) -> Optional[Coding]:
    """How a partial certificate writes its block (``Ab``, and ``Bb`` as columns ``cols``):
    codes of ``+- m 2**e`` (:mod:`.coded`) when they are denser than 63-bit numerators (float
    weights) or the only encoding possible; None: plain numerators. Raises
    :class:`CannotCertify` when neither applies. ``p``: the genericity prime, modulo which
    Coq sees the coded columns of ``W_down`` (none may look zero)."""
    codes = coding([Ab.rows, cols])
    plain_ok = max(Ab.max_abs(), Bb.max_abs()) < LIMIT
    if codes is not None and any(not any(v % p for v in col) for col in cols):
        if not plain_ok:
            raise CannotCertify("a column of the W_down block vanishes modulo the genericity prime")
        codes = None
    if codes is None and not plain_ok:
        raise CannotCertify("a weight numerator does not fit the 63-bit encoding of the certificates "
                            "(neither as a 63-bit integer nor as +- m 2^e with m below 2^61)")
    return codes


def write_block(w: _Writer, d: int, n: int, R: Sequence[int], Ab: IntMatrix, Bb: IntMatrix,
                cols: Sequence[Sequence[int]], codes: Optional[Coding]) -> None:
    """The data of a partial certificate's block: ``d``, ``n``, ``R``, ``dA``, ``dB`` and
    ``RA``, ``CB`` (numerators, or codes over the base ``E``, whose residues the checkers read)."""
    w.nat("d", d)
    w.nat("n", n)
    w.add(f"Definition R : list nat := {_nat_list(R)}.")
    w.z("dA", Ab.den)
    w.z("dB", Bb.den)
    if codes is None:
        w.rows("RA", Ab.rows)
        w.rows("CB", cols)
    else:
        w.add(f"Definition E : int := {codes.base}%uint63.")
        w.rows("RA", codes.matrices[0], unsigned=True)
        w.rows("CB", codes.matrices[1], unsigned=True)


def _build_partial(inst: Instance, ev: Evidence, cert: NoSubsetCertificate) -> Optional[Certificate]:
    """R5 (=>) from columns R of W_up and rows R of W_down, for every pair agreeing there
    (``Certify.cert_generic_not_absorbable_partial``). None: no sorted-ratio genericity
    certificate on any block (the full certificate is written instead)."""
    act = inst.activation
    n, d = ev.A.shape
    full = tuple(range(d))
    blocks = [getattr(cert, "block", None) or full]
    if blocks[0] != full:
        blocks.append(full)
    for R in blocks:
        funcs = restrict_functionals(cert, R)
        if funcs is None:
            continue
        gen = sorted_certificate(ev.A, ev.B, R)
        if gen is None:
            continue
        break
    else:
        return None
    if act.spec.generic_cert_lemma is None:
        return None
    sigma, r5 = act.coq_function, act.spec.generic_cert_lemma.rsplit(".", 1)[-1]
    Ab, Bb, _ = sub_matrices(ev.A, ev.B, ev.target, R)
    extract = Extract(R, Ab, Bb, _digest(ev.A, ev.B), _digest(Ab, Bb))
    cols = _columns(Bb)
    codes = block_coding(Ab, Bb, cols, gen.p)
    w = _Writer(extra=(*act.spec.certificate_modules, *(("CertifyCoded",) if codes else ())))
    w.add(f"(* Partial certificate: columns R of W_up and rows R of W_down, |R| = {len(R)}.\n"
          f"   sha256 of the full integer-scaled weights (W_up, W_down): {extract.weights_sha256}\n"
          f"   sha256 of the extracted entries (RA, CB): {extract.extract_sha256} *)")
    write_block(w, d, n, R, Ab, Bb, cols, codes)
    w.add(f"Definition pg : int := {gen.p}%uint63.")
    w.int_list("U", gen.u)
    w.int_list("V", gen.v)
    w.add(f"Definition p : int := {cert.p}%uint63.")
    w.add(f"Definition F : list nat := {_nat_list(cert.free)}.")
    _functionals(w, replace(cert, functionals=funcs))
    w.check("idx_ok", "index_ok d R")
    kind = CertificateKind.GENERIC_NOT_ABSORBABLE_PARTIAL
    if codes is None:
        w.check("gen_ok", "check_generic_sorted (length R) n RA CB pg U V")
        w.check("nosub_ok", "check_nosub (length R) n dA dB 1 RA CB (id_rows (length R)) p F FS")
        w.verdict(f"forall A B : mat, agrees_up n R dA RA A -> agrees_down n R dB CB B ->\n"
                  f"  ~ absorbable_ungated {sigma} d n n identity A B", kind,
                  [sigma, r5, "d", "n", "R", "dA", "dB", "RA", "CB", "pg", "U", "V", "p", "F", "FS",
                   "idx_ok", "gen_ok", "nosub_ok"])
    else:
        w.check("gen_ok", "check_generic_sorted (length R) n (resid pg E RA) (resid pg E CB) pg U V")
        w.check("nosub_ok", "check_nosub (length R) n dA dB 1 (resid p E RA) (resid p E CB) "
                "(id_rows (length R)) p F FS")
        w.verdict(f"forall A B : mat, agrees_up_coded n R dA E RA A -> agrees_down_coded n R dB E CB B ->\n"
                  f"  ~ absorbable_ungated {sigma} d n n identity A B", kind,
                  [sigma, r5, "d", "n", "R", "dA", "dB", "E", "RA", "CB", "pg", "U", "V", "p", "F", "FS",
                   "idx_ok", "gen_ok", "nosub_ok"], lemma=kind.lemma + "_coded")
    return Certificate("CertNotAbsorbable", w.text(), kind, act.label, extract)


def build_certificate(instance: Instance, decision: Decision) -> Optional[Certificate]:
    """The Coq certificate for ``decision`` (None: nothing to certify).

    Raises :class:`CannotCertify` when the verdict is of a certifiable kind but
    no certificate can be written (encoding limits, missing evidence, an
    activation Coq does not support yet).
    """
    v = decision.verdict
    if v in ("outside_hypotheses", "undecided"):
        return None
    from .certificates_skip_bias import applies, build_skip_bias_certificate
    from .certificates_width import build_width_certificate, handles

    if applies(instance) and decision.result not in ("R2", "R3"):  # R1 with biases
        return build_skip_bias_certificate(instance, decision)
    if handles(decision):  # R8 / R8' / R9: pybridge/coq/certificates_width.py
        return build_width_certificate(instance, decision)  # type: ignore[return-value]
    act = instance.activation
    if not act.certifiable:
        raise CannotCertify(f"Coq support for {act.label} is not proved yet")
    if v == "not_absorbable" and decision.result in ("R2", "R3"):
        return _build_classification(instance)
    ev = decision.evidence if decision.evidence is not None else decide(instance).evidence
    if ev is None:
        raise CannotCertify("the decision carries no exact evidence")
    if v == "absorbable":
        return _build_absorbable(instance, decision, ev)
    if v == "not_absorbable":
        return _build_not_absorbable(instance, decision, ev)
    raise CannotCertify(f"no certificate kind for verdict {v} of {act.label}")


def certify(instance: Instance, decision: Decision, backend: ProverBackend, *,
            timeout: float = 120.0, keep_dir: Optional[Path] = None) -> Optional[ProverResult]:
    """Have the prover check a certificate of ``decision``.

    None when there is nothing to certify (outside the hypotheses, undecided).
    Outcome ``not_certified`` when no certificate can be written; ``accepted``
    only if the file compiles and its ``Print Assumptions verdict`` lists only
    allowed axioms; ``timeout`` when the prover ran out of time.
    """
    try:
        cert = build_certificate(instance, decision)
    except CannotCertify as exc:
        return ProverResult(ProverOutcome.NOT_CERTIFIED, 0.0, f"not certified: {exc}", prover=backend.name)
    if cert is None:
        return None
    agree_note = ""
    if cert.extract is not None:
        bad = agreement(cert.extract_of or instance, cert.extract)
        whose = "the weights" if cert.extract_of is None else "the reduced weights (W_up, P^-1 W_down)"
        if bad is not None:
            return ProverResult(ProverOutcome.REJECTED, 0.0, "the certificate's extracted entries disagree with "
                                f"{whose} ({bad})", prover=backend.name)
        agree_note = (f"; {whose} agree exactly with the certificate's {len(cert.extract.block)}-index block "
                      f"(weights sha256 {cert.extract.weights_sha256[:16]}, "
                      f"entries sha256 {cert.extract.extract_sha256[:16]})")
    res = backend.check_file(cert.source, stem=cert.stem, timeout=timeout, keep_dir=keep_dir)
    if not res.accepted:
        return res
    axioms = final_assumptions(res.message)
    if axioms is None:
        return replace(res, outcome=ProverOutcome.REJECTED, message="no Print Assumptions output")
    disallowed = [a for a in axioms if a not in ALLOWED_AXIOMS and a not in PRIMITIVE_INT_AXIOMS]
    if disallowed:
        return replace(res, outcome=ProverOutcome.REJECTED,
                       message=f"disallowed assumptions: {', '.join(disallowed)}")
    prim = sum(a in PRIMITIVE_INT_AXIOMS for a in axioms)
    named = [a for a in axioms if a not in PRIMITIVE_INT_AXIOMS]
    note = f" + {prim} primitive-integer axioms" if prim else ""
    return replace(res, message=f"{cert.summary}; axioms: {', '.join(named) or 'none'}{note}{agree_note}")
