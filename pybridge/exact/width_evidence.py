"""What a width decision (paper.md R8, R8', R9) carries: the exact data its certificate is written from.

:class:`WidthInfo` sits in :attr:`pybridge.model.Decision.width_info` for verdicts
of the width route (:mod:`pybridge.decision.width_route`): the canonical ridge
form, the width decided, the width data ``(T, S, r, E, P, Q)`` and the explicit
residual-free block when absorbable, the no-subset certificate when width ``k``
is refuted, and the bounds on the least absorbing width.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Optional

from pybridge.exact.evidence import NoSubsetCertificate
from pybridge.exact.low_rank import LowRank
from pybridge.exact.modular import IntMatrix
from pybridge.exact.ridge_form import RidgeForm
from pybridge.exact.width import ExplicitBlock, WidthData
from pybridge.exact.width_one import OneExtraRefutation

#: How a verdict at one width is justified.
WidthReason = Literal[
    "width_data",        # absorbable: explicit width data (R8 <=)
    "below_classes",     # not absorbable: m < k (R8 =>)
    "no_subset_at_k",    # not absorbable: m = k and no S with L + sum_S G U^T = 0
    "exhaustive",        # not absorbable: m > k, exhaustive search over (T, S) (rank refutations, RankCheck)
    "generic_bias",      # generic with biases: R9 at width n / below n
    "one_extra",         # not absorbable: m = n = k + 1, one zero / parallel row, linear refutation
    "low_rank",          # not absorbable: m < 2 (d - rank W_up), null vectors of W_up
]


@dataclass(frozen=True)
class NoSubsetAtK:
    """``U``, ``G``, ``L`` as integer matrices and the certificate that no ``S`` cancels ``L``."""

    U: IntMatrix          # k x d
    G: IntMatrix          # d x k
    L: IntMatrix          # d x d
    certificate: NoSubsetCertificate


@dataclass(frozen=True)
class WidthInfo:
    """The width route's exact data for one verdict at width ``width``."""

    width: int
    form: RidgeForm
    reason: WidthReason
    data: Optional[WidthData] = None
    block: Optional[ExplicitBlock] = None
    nosub: Optional[NoSubsetAtK] = None
    #: Bounds on the least absorbing width (None: not searched).
    min_lower: Optional[int] = None
    min_upper: Optional[int] = None
    min_reason: str = ""
    #: For ``--min-width``: how "not absorbable at min - 1" is justified (None: not certified).
    lower_reason: Optional[WidthReason] = None
    lower_nosub: Optional[NoSubsetAtK] = None
    #: ``one_extra``: the refutation of every ``(T, S)`` at width ``n = k + 1``.
    one_extra: Optional[OneExtraRefutation] = None
    #: ``low_rank``: rows spanning ``W_up`` and the null vectors of the bound.
    low_rank: Optional[LowRank] = None

    @property
    def k(self) -> int:
        """The number of ridges (classes with a nonzero kink)."""
        return self.form.k

    @property
    def min_exact(self) -> bool:
        return self.min_lower is not None and self.min_lower == self.min_upper

    @property
    def min_width(self) -> Optional[int]:
        """The least absorbing width when known exactly."""
        return self.min_lower if self.min_exact else None
