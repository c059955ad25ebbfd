"""Typed evidence behind a decision: the exact data the Coq certificates are written from.

Integer-scaled weights (:class:`~pybridge.exact.modular.IntMatrix`), the genericity
projection (:class:`GenericCertificate`) and the no-subset certificate
(:class:`NoSubsetCertificate`, checked in Coq by ``certify/CheckNoSubset.v``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pybridge.exact.modular import IntMatrix


@dataclass(frozen=True)
class Functional:
    """A linear functional ``Y`` on d x d matrices, supported on a few rows ``k``:
    ``<Y, M> = sum_k Y_k . M_k``. ``pivot``: the one non-free index ``i`` whose
    value ``y_i`` may be nonzero (None: all non-free values vanish)."""

    pivot: Optional[int]
    rows: tuple[tuple[int, tuple[int, ...]], ...]


@dataclass(frozen=True)
class NoSubsetCertificate:
    """Rules out every S modulo ``p``: for every assignment of the ``free`` indices,
    some functional's value is impossible (see ``certify/CheckNoSubset.v``, ``check_nosub``)."""

    p: int
    free: tuple[int, ...]
    functionals: tuple[Functional, ...]


@dataclass(frozen=True)
class GenericCertificate:
    """Projection ``a -> (u.a, v.a) mod p`` with all pairwise 2x2 determinants nonzero."""

    p: int
    u: tuple[int, ...]
    v: tuple[int, ...]


@dataclass(frozen=True)
class Evidence:
    """Exact data behind a decision (integer-scaled weights, certificates)."""

    A: IntMatrix
    B: IntMatrix
    target: IntMatrix  # the skip P (identity when None)
    generic_cert: Optional[GenericCertificate] = None
    nosub_cert: Optional[NoSubsetCertificate] = None
