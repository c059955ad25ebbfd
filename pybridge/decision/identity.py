"""The identity of the weights a decision was made for: a digest of the exact instance.

:func:`weights_digest` hashes everything a verdict depends on: the activation (name and
degree), the shapes, every entry of every matrix and bias exactly (as integer numerators
over the least common denominator, so equal values read in different ways hash alike)
and the skip. :func:`pybridge.decision.decide` stores it in ``Decision.weights_sha256``;
:func:`pybridge.checking.check` and :mod:`pybridge.certify.pipeline` refuse a decision
whose digest is not the instance's (a decision computed for other weights).

Matrices read from arrays (``ArrayMatrix``) are hashed from their integer numerators with
NumPy (one pass over the bytes), never one Fraction per entry.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from functools import reduce
from math import gcd
from typing import Any, Optional, Sequence

import numpy as np

from pybridge.exact.modular import IntMatrix, scale_matrix
from pybridge.model import Instance

#: Bumped when the digested data or its layout changes.
DIGEST_VERSION = "pybridge-weights-v1"


def _reduced(m: IntMatrix) -> tuple[np.ndarray, int]:
    """Numerators and denominator with their common factor removed (canonical form)."""
    num = m.numerators()
    den = int(m.den)
    if num.size == 0:
        return num, 1
    if num.dtype == np.int64:
        g = int(np.gcd.reduce(np.abs(num), axis=None)) if num.size else 0
    else:
        g = reduce(gcd, (int(v) for v in num.ravel()), 0)
    g = gcd(g, den)
    if g > 1:
        num = num // g
        den //= g
    return num, den


def _matrix(h: Any, name: str, m: Optional[Sequence[Sequence[Fraction]]]) -> None:
    if m is None:
        h.update(f"{name}:none;".encode())
        return
    num, den = _reduced(scale_matrix(m))
    rows, cols = num.shape
    h.update(f"{name}:{rows}x{cols}/{den}:".encode())
    if num.dtype == np.int64:
        h.update(b"i64")
        h.update(np.ascontiguousarray(num, dtype="<i8").tobytes())
    else:  # some numerator beyond 63 bits: every entry in decimal
        h.update(b"dec")
        h.update(",".join(str(int(v)) for v in num.ravel()).encode())
    h.update(b";")


def _vector(h: Any, name: str, v: Optional[Sequence[Fraction]]) -> None:
    _matrix(h, name, None if v is None else [list(v)])


def weights_digest(inst: Instance) -> str:
    """sha256 (hex) of the exact instance: activation, shapes, every entry, biases, skip.

    Two instances get the same digest exactly when they are the same block (same
    activation, equal matrices and biases entry by entry, same skip); a bias of zeros
    and no bias differ, as the certificates state them differently."""
    h = hashlib.sha256(DIGEST_VERSION.encode())
    act = inst.activation
    h.update(f"act:{act.name}:{act.degree};d={inst.d};n={inst.n};".encode())
    _matrix(h, "W_up", inst.W_up)
    _matrix(h, "W_down", inst.W_down)
    _matrix(h, "W_gate", inst.W_gate)
    _matrix(h, "skip", inst.skip)
    _vector(h, "b_up", inst.b_up)
    _vector(h, "b_gate", inst.b_gate)
    _vector(h, "b_down", inst.b_down)
    return h.hexdigest()
