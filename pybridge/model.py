"""Data shared by every part of pybridge: activations, instances, decisions, reports.

All numbers a verdict rests on are exact (:class:`fractions.Fraction`).
Matrices are tuples of rows; orientation as PyTorch's ``nn.Linear.weight``:
``W_up``/``W_gate`` are ``n x d``, ``W_down`` is ``d x n``, ``skip`` is ``d x d``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, Optional

from .activations import Activation

__all__ = ["Activation", "Decision", "Instance", "Matrix", "ProverResult", "Report", "Vector", "Verdict", "Witness"]

Vector = tuple[Fraction, ...]
Matrix = tuple[Vector, ...]

Verdict = Literal["absorbable", "not_absorbable", "outside_hypotheses", "undecided"]

@dataclass(frozen=True)
class Instance:
    """One MLP block with exact weights. ``skip=None`` means the identity skip."""

    activation: Activation
    W_up: Matrix
    W_down: Matrix
    W_gate: Optional[Matrix] = None
    skip: Optional[Matrix] = None
    b_up: Optional[Vector] = None
    b_gate: Optional[Vector] = None
    b_down: Optional[Vector] = None
    source: str = ""

    @property
    def d(self) -> int:
        return len(self.W_down)

    @property
    def n(self) -> int:
        return len(self.W_up)

    @property
    def has_bias(self) -> bool:
        """True when some bias vector is present with a nonzero entry."""
        return any(
            b is not None and any(v != 0 for v in b)
            for b in (self.b_up, self.b_gate, self.b_down)
        )


@dataclass(frozen=True)
class Witness:
    """Residual-free weights equal to the residual block, and the subset S used."""

    subset: tuple[int, ...]
    W_up: Matrix
    W_down: Matrix
    b_down: Optional[Vector] = None
    b_up: Optional[Vector] = None


@dataclass(frozen=True)
class Decision:
    """What the exact decision procedure concluded, before any proof checking.

    ``theorem`` is the Coq name the verdict rests on (or None); ``result`` the
    paper's result id (``R2``...). ``skip_inverse`` and ``reduced_down`` are set
    when a non-identity skip was reduced by R1 (``B~ = P^-1 B``).
    """

    verdict: Verdict
    result: Optional[str]
    theorem: Optional[str]
    reason: str
    generic: Optional[bool] = None
    witness: Optional[Witness] = None
    skip_inverse: Optional[Matrix] = None
    reduced_down: Optional[Matrix] = None
    method: str = ""
    #: Exact data behind the verdict (``decision.Evidence``), used by ``certificates``.
    evidence: Optional[Any] = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ProverResult:
    """The proof assistant's answer on one certificate."""

    accepted: bool
    seconds: float
    message: str = ""
    prover: str = "coq"
    kept_path: Optional[str] = None


@dataclass
class Report:
    """Everything ``check`` says about one instance."""

    instance_source: str
    d: int
    n: int
    activation: str
    decision: Decision
    checked: bool = False
    prover: Optional[ProverResult] = None
    certificate_path: Optional[str] = None
    crosscheck: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
