"""The Coq data encoding of certificates: the one place that turns integers into Coq text.

:class:`CoqWriter` accumulates a certificate module (every identifier is built here or by
the writers, never taken from user text). Signed numerators are written as 63-bit two's
complement hexadecimal literals, several per literal when they are narrow
(``IntSums.unpack``); rows of one length as one packed flat list cut by ``rows_of``;
long lists in chunks. The data a certificate's statement names (``d``, ``n``, ``RA``, ...) are
written between :data:`DATA_BEGIN` and :data:`DATA_END` lines (:meth:`CoqWriter.data`), so
that the driver can read them once (:func:`data_region`; see :mod:`.driver`). :func:`digest` hashes integer matrices for the headers,
:func:`primes_for` picks the primes of a multi-modular exactness check and
:func:`prime_list` / :func:`nat_list` write them. :mod:`.coded` holds the
``+- m 2**e`` codes.
"""

from __future__ import annotations

import hashlib
import re
from contextlib import contextmanager
from dataclasses import dataclass
from math import prod
from typing import Iterator, Optional, Sequence

import numpy as np

from pybridge.certify.coded import max_abs_bits
from pybridge.certify.kinds import CannotCertify, CertificateKind
from pybridge.exact.modular import PRIMES, IntMatrix

LIMIT = 2**62


ROW_CHUNK = 8000  #: longest list literal written in one piece (Coq's parser recurses)


WIDE = (32, 8)  #: list cells written by one constructor (``ints32 x1 ... x32 l``), widest first

#: The lines around a certificate's claim data: one ``Definition NAME ...`` per line between them.
DATA_BEGIN = "(* pybridge: claim data begin *)"
DATA_END = "(* pybridge: claim data end *)"
_DATA_LINE = re.compile(r"Definition ([A-Za-z][A-Za-z0-9_]*) [^\n]*\.")


class MalformedData(ValueError):
    """A certificate's claim-data region is not well formed (the message says how)."""


@dataclass(frozen=True)
class DataRegion:
    """The claim-data lines of a certificate: ``names[k]`` is defined on line ``lines[k]``
    (0-based line numbers of the source; every region's marker lines are in ``markers``)."""

    names: tuple[str, ...]
    lines: tuple[int, ...]
    markers: tuple[int, ...]


def data_region(source: str) -> Optional[DataRegion]:
    """The claim-data definitions between :data:`DATA_BEGIN` and :data:`DATA_END` lines
    (several regions allowed, none nested), or None when the source has no marker line.

    Raises :class:`MalformedData` when a region is unterminated, nested or ends before it
    begins, or holds a line other than a blank one or one ``Definition NAME ... .``."""
    source_lines = source.split("\n")
    markers: list[int] = []
    inside: Optional[int] = None
    for k, line in enumerate(source_lines):
        text = line.strip()
        if text == DATA_BEGIN:
            if inside is not None:
                raise MalformedData(f"a claim-data region opened on line {inside + 1} is opened again on line {k + 1}")
            inside = k
            markers.append(k)
        elif text == DATA_END:
            if inside is None:
                raise MalformedData(f"line {k + 1} closes a claim-data region that was not opened")
            inside = None
            markers.append(k)
        elif "pybridge: claim data" in text:
            raise MalformedData(f"line {k + 1} is not a claim-data marker line")
    if inside is not None:
        raise MalformedData(f"the claim-data region opened on line {inside + 1} is not closed")
    if not markers:
        return None
    names: list[str] = []
    lines: list[int] = []
    for a, b in zip(markers[::2], markers[1::2]):
        for k in range(a + 1, b):
            text = source_lines[k].strip()
            if not text:
                continue
            m = _DATA_LINE.fullmatch(text)
            if m is None:
                raise MalformedData(f"line {k + 1}, in a claim-data region, is not one `Definition NAME ... .`")
            names.append(m.group(1))
            lines.append(k)
    return DataRegion(tuple(names), tuple(lines), tuple(markers))


class CoqWriter:
    """Accumulates Coq definitions; every name is generated here."""

    def __init__(self, extra: Sequence[str] = ()) -> None:
        # Uint63 is imported inside the module only, so that the final
        # Print Assumptions names the primitive-integer axioms fully qualified.
        self._data = False
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
            "",
        ]

    def add(self, text: str) -> None:
        self.lines.append(text)

    @contextmanager
    def data(self) -> Iterator[None]:
        """Write the definitions made inside as the certificate's claim data (one line each,
        between :data:`DATA_BEGIN` and :data:`DATA_END`); regions do not nest."""
        if self._data:
            raise ValueError("claim-data regions do not nest")
        self._data = True
        self.add(DATA_BEGIN)
        yield
        self.add(DATA_END)
        self._data = False

    def _literal_list(self, lits: list[str]) -> str:
        """``ints_list (ints32 x1 ... x32 (ints8 ... (ints1 x (... ints0))))`` (``IntSums.ints``):
        one wide application elaborates faster than list notation or 32 nested ones (about 20
        against 50 us per literal), and a closed tree of constructors is one constant for
        Coq's VM, where literals under a defined function took an entry of its table each."""
        parts, i = [], 0
        for k in WIDE + (1,):
            while len(lits) - i >= k:
                parts.append(f"(ints{k} {' '.join(lits[i:i + k])} ")
                i += k
        return "(ints_list " + "".join(parts) + "ints0" + ")" * len(parts) + ")"

    def int_list(self, name: str, values: Sequence[int] | np.ndarray, pack: bool = False) -> str:
        """Define ``name : list int`` from signed numerators; return ``name``.

        With ``pack``, several numerators share one literal (``IntSums.unpack``)."""
        values = values.tolist() if isinstance(values, np.ndarray) else values  # Python ints: no int64 overflow
        w = (max((abs(v) for v in values), default=0)).bit_length() + 1
        k = 63 // w if pack else 1
        if k >= 2:
            body = self._chunked(name, pack_fields(values, w, k, 1 << (w - 1)))
            self.add(f"Definition {name} : list int := unpack {w} {k} {len(values)} {body}.")
            return name
        body = self._chunked(name, [int_literal(v) for v in values])
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

    def rows(self, prefix: str, rows: Sequence[Sequence[int]] | np.ndarray, unsigned: bool = False) -> str:
        """Define ``prefix : list (list int)`` from the rows' numerators; return ``prefix``.

        Rows of one length are written as one flat list, packed (``unpack w k
        len``, ``k`` fields of ``w`` bits per literal) and cut into rows by
        ``IntSums.rows_of``: the cost of a certificate is mostly Coq elaborating
        its terms, about 50 us per list cell and 0.2 ms per definition, not the
        VM. With ``unsigned`` (nonnegative values below ``2**62``, codes) the
        fields hold the values as they are (``unpacku``), one bit narrower."""
        if isinstance(rows, np.ndarray):
            if rows.ndim != 2:
                raise ValueError("rows: a 2-D array expected")
            lengths = {rows.shape[1]}
            rows = rows if rows.dtype == np.int64 else rows.tolist()
        else:
            lengths = {len(r) for r in rows}
        if len(rows) < 2 or len(lengths) != 1 or not len(rows[0]):
            names = [self.int_list(f"{prefix}{i}", list(map(int, r)), pack=not unsigned) for i, r in enumerate(rows)]
            self.add(f"Definition {prefix} : list (list int) := [{'; '.join(names)}].")
            return prefix
        arr = rows if isinstance(rows, np.ndarray) else int64_rows(rows)
        top = max_abs_bits(rows if arr is None else arr)
        w = max(1, top) if unsigned else top + 1
        k = 63 // w
        size = len(rows) * len(rows[0])
        if k >= 2:
            off = 0 if unsigned else 1 << (w - 1)
            words = pack_fields([v for r in rows for v in r], w, k, off) if arr is None else pack_int64(arr, w, k, off)
            body = f"{'unpacku' if unsigned else 'unpack'} {w} {k} {size} {self._chunked(prefix, words)}"
        else:
            flat = arr.ravel().tolist() if arr is not None else [v for r in rows for v in r]
            body = self._chunked(prefix, [hex(v) if unsigned else int_literal(v) for v in flat])
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
        for coded data) applied to ``args``. An argument whose type does not depend on where
        it is read (``2%nat``, ``[p]%uint63``, ``(zrows RA)``, ``[true]``) is defined first as
        ``verdict_arg<k>``, so that the proof is more often an application of names only,
        whose axioms the driver counts part by part (:mod:`pybridge.certify.accounting`)."""
        names = []
        for k, arg in enumerate(args):
            if not _SCOPED.fullmatch(arg):
                names.append(arg)
            else:
                self.add(f"Definition verdict_arg{k} := {arg}.")
                names.append(f"verdict_arg{k}")
        self.add(f"Theorem verdict : {statement}.\nProof. exact ({lemma or kind.lemma} {' '.join(names)}). Qed.")

    def text(self) -> str:
        """The whole file: the module, then ``Print Assumptions`` of its ``verdict``."""
        return "\n".join(self.lines + ["End Cert.", "Print Assumptions Cert.verdict."]) + "\n"


_SCOPED = re.compile(r"[^\s()]+%[a-z0-9]+|\((?:[A-Za-z_][A-Za-z0-9_']*\s*)+\)|\[(?:true|false)(?:; (?:true|false))*\]")


def pack_fields(values: Sequence[int], w: int, k: int, off: int) -> list[str]:
    """Literals holding ``k`` fields of ``w`` bits each, a field being a value plus ``off``
    (hexadecimal: Coq reads them about a third faster than decimal ones)."""
    words = []
    for c in range(0, len(values), k):
        x = 0
        for j, v in enumerate(values[c:c + k]):
            x |= (v + off) << (j * w)
        words.append(hex(x))
    return words


def int64_rows(rows: Sequence[Sequence[int]]) -> Optional[np.ndarray]:
    """The rows as a 2-D ``int64`` array with every entry above ``-2**63``, or None
    (entries beyond 63 bits, ragged rows)."""
    try:
        arr = np.array(rows, dtype=np.int64)
    except (OverflowError, ValueError, TypeError):
        return None
    if arr.ndim != 2 or (arr.size and int(arr.min()) == -2**63):
        return None
    return arr


def pack_int64(arr: np.ndarray, w: int, k: int, off: int) -> list[str]:
    """:func:`pack_fields` of the array's entries in row order, by NumPy: every field value
    ``v + off`` lies in ``[0, 2**w)`` and ``k * w <= 63``, so each word is exact in ``uint64``."""
    flat = arr.ravel()
    pad = -len(flat) % k
    fields = (np.concatenate([flat, np.full(pad, -off, dtype=np.int64)]) + off).astype(np.uint64)
    fields = fields.reshape(-1, k)
    words = np.zeros(fields.shape[0], dtype=np.uint64)
    for j in range(k):
        words |= fields[:, j] << np.uint64(j * w)
    return list(map(hex, words.tolist()))


def int_literal(v: int) -> str:
    if not -LIMIT <= v < LIMIT:
        raise CannotCertify("a weight numerator does not fit the 63-bit encoding of the certificates")
    return hex(v if v >= 0 else 2**63 + v)


def columns(m: IntMatrix) -> list[tuple[int, ...]] | np.ndarray:
    """The columns of ``m``'s numerators as rows: a C-ordered ``int64`` array when they are
    ``int64`` (no Python int per entry), else tuples of Python ints."""
    num = m.numerators()
    if num.dtype == np.int64:
        return np.ascontiguousarray(num.T)
    return [tuple(r[i] for r in m.rows) for i in range(m.shape[1])]


def primes_for(bound: int) -> list[int]:
    ps: list[int] = []
    for p in PRIMES:
        ps.append(p)
        if prod(ps) > bound:
            return ps
    raise CannotCertify("weights too large for the multi-modular exactness check")


def prime_list(ps: Sequence[int]) -> str:
    return "[" + "; ".join(str(p) for p in ps) + "]%uint63"


def nat_list(xs: Sequence[int]) -> str:
    return "[" + "; ".join(f"{x}%nat" for x in xs) + "]"


def digest(*mats: IntMatrix) -> str:
    """sha256 of integer matrices (shape, denominator, numerators)."""
    h = hashlib.sha256()
    for m in mats:
        h.update(f"{m.shape} {m.den};".encode())
        num = m.numerators()
        if num.dtype == np.int64:  # the bytes of the C-ordered int64 numerators, hashed in place
            h.update(np.ascontiguousarray(num).data.cast("B"))
            continue
        try:
            h.update(np.array(m.rows, dtype=np.int64).tobytes())
        except OverflowError:
            h.update(repr(m.rows).encode())
    return h.hexdigest()
