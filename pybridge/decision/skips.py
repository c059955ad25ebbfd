"""A non-identity skip ``P``: its exact inverse and the reduced block ``B~ = P^-1 B`` (R1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pybridge.exact.linalg import invert, matmul
from pybridge.model import Instance, Matrix

#: ``B~`` is reported only up to this d (it is d x n, exact).
REDUCED_MAX_D = 64


@dataclass(frozen=True)
class SkipReduction:
    """``inverse = P^-1`` and ``reduced_down = P^-1 W_down`` (None for the identity skip)."""

    inverse: Optional[Matrix] = None
    reduced_down: Optional[Matrix] = None


def reduce_skip(inst: Instance) -> SkipReduction:
    """R1's reduction of ``x -> P x + f(x)``; :class:`InputError` when P is singular
    (:func:`pybridge.decision.decide` never sends a singular ``P`` here: it is decided without
    R1 by :mod:`pybridge.decision.any_skip`)."""
    if inst.skip is None:
        return SkipReduction()
    inv = invert(inst.skip)
    reduced = matmul(inv, inst.W_down) if inst.d <= REDUCED_MAX_D else None
    return SkipReduction(inv, reduced)
