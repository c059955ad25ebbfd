"""Data shared by every part of pybridge: activations, instances, decisions, reports.

All numbers a verdict rests on are exact (:class:`fractions.Fraction`, ints).
Matrices are tuples of rows, or, when read from array files and checkpoints,
:class:`pybridge.exact.arrays.ArrayMatrix` (the same rows on demand; the decision
reads its exact integer form directly); orientation as PyTorch's ``nn.Linear.weight``:
``W_up``/``W_gate`` are ``n x d``, ``W_down`` is ``d x n``, ``skip`` is ``d x d``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, Optional, Sequence, cast

from pybridge.activations import Activation
from pybridge.exact.evidence import Evidence
from pybridge.exact.width_evidence import WidthInfo
from pybridge.prover import ProverResult

__all__ = ["Activation", "Decision", "Instance", "Matrix", "Norm", "ProverResult", "Report", "Vector", "Verdict",
           "Witness"]

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

    def __post_init__(self) -> None:
        _accept_arrays_and_names(self)
        _validate_instance(self)

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


def _accept_arrays_and_names(inst: Instance) -> None:
    """An activation given by name is resolved; NumPy arrays are read exactly (matrices as
    :class:`pybridge.exact.arrays.ArrayMatrix`, vectors as Fractions)."""
    import numpy as np

    from pybridge.activations import resolve

    if isinstance(inst.activation, str):
        object.__setattr__(inst, "activation", resolve(inst.activation))
    for name in ("W_up", "W_down", "W_gate", "skip"):
        value = getattr(inst, name)
        if isinstance(value, np.ndarray):
            from pybridge.exact.arrays import ArrayMatrix

            object.__setattr__(inst, name, ArrayMatrix(value, where=name, exact=True))
    for name in ("b_up", "b_gate", "b_down"):
        value = getattr(inst, name)
        if isinstance(value, np.ndarray):
            from pybridge.errors import InputError
            from pybridge.exact.numbers import exact_array

            if value.ndim != 1:
                raise InputError(f"{name}: expected a 1-dimensional array, got shape {value.shape}")
            object.__setattr__(inst, name, tuple(exact_array(value, name)))


def _is_exact(x: object) -> bool:
    return isinstance(x, (int, Fraction)) and not isinstance(x, bool)


def _all_exact(row: Sequence[Any]) -> bool:
    """Every entry an int or a Fraction (not a bool): by type at C speed, entry by entry
    only for subclasses."""
    if set(map(type, row)) <= _EXACT_TYPES:
        return True
    return all(map(_is_exact, row))


_EXACT_TYPES = {int, Fraction}


def _shape(name: str, m: object, entries: bool) -> tuple[int, int]:
    """``(rows, cols)`` of a non-empty rectangular matrix of exact numbers, else InputError.

    A lazy array matrix (``pybridge.exact.arrays.ArrayMatrix``) is exact and rectangular by
    construction: its shape is read, no entry is converted."""
    from pybridge.errors import InputError

    if _lazy(m):
        rows, cols = cast(Any, m).shape
        if rows == 0 or cols == 0:
            raise InputError(f"{name}: expected a non-empty matrix (sequence of rows)")
        return rows, cols
    if isinstance(m, (str, bytes)) or not hasattr(m, "__len__") or not hasattr(m, "__getitem__") or len(m) == 0:
        raise InputError(f"{name}: expected a non-empty matrix (sequence of rows)")
    width = None
    for i, row in enumerate(cast(Sequence[Any], m)):
        if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
            raise InputError(f"{name}: row {i} is not a sequence")
        if width is None:
            width = len(row)
            if width == 0:
                raise InputError(f"{name}: rows are empty")
        elif len(row) != width:
            raise InputError(f"{name}: row {i} has {len(row)} entries, row 0 has {width}")
        if entries and not _all_exact(row):
            raise InputError(f"{name}: row {i} holds an entry that is not an exact number (int or Fraction)")
    return len(m), width  # type: ignore[return-value]


def _lazy(m: object) -> bool:
    """A matrix read from an array (``pybridge.exact.arrays.ArrayMatrix``): exact by construction."""
    from pybridge.exact.arrays import ArrayMatrix

    return isinstance(m, ArrayMatrix)


def _validate_instance(inst: Instance) -> None:
    """Shapes, gating, biases and entry types of an instance; :class:`InputError` otherwise.

    Lazy matrices (``pybridge.exact.arrays.ArrayMatrix``) are checked for shape only: their
    entries are exact by construction.
    """
    from pybridge.errors import InputError

    act = inst.activation
    if not isinstance(act, Activation):
        raise InputError(f"activation must be an Activation, not {type(act).__name__}")
    if act.degree is not None and (isinstance(act.degree, bool) or not isinstance(act.degree, int)):
        raise InputError(f"activation degree must be an integer, got {act.degree!r:.20}")
    if act.name != "relu_pow" and act.degree is not None:
        raise InputError(f"activation {act.name} takes no degree")

    n, d = _shape("W_up", inst.W_up, True)
    if _shape("W_down", inst.W_down, True) != (d, n):
        raise InputError(f"W_down must be d x n = {d} x {n} (W_up is {n} x {d})")
    if act.gated:
        if inst.W_gate is None:
            raise InputError(f"activation {act.label} is gated: W_gate is missing")
        if _shape("W_gate", inst.W_gate, True) != (n, d):
            raise InputError(f"W_gate must be n x d = {n} x {d} for a gated activation")
    else:
        if inst.W_gate is not None:
            raise InputError(f"W_gate given but activation {act.label} is not gated")
        if inst.b_gate is not None:
            raise InputError(f"b_gate given but activation {act.label} is not gated")
    if inst.skip is not None and _shape("skip", inst.skip, True) != (d, d):
        raise InputError(f"skip must be d x d = {d} x {d}")
    for name, value, length in (("b_up", inst.b_up, n), ("b_gate", inst.b_gate, n), ("b_down", inst.b_down, d)):
        if value is None:
            continue
        if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or not _all_exact(value):
            raise InputError(f"{name}: expected a vector of exact numbers (int or Fraction)")
        if len(value) != length:
            raise InputError(f"{name} has length {len(value)}, expected {length}")
    if not isinstance(inst.source, str):
        raise InputError("source must be a string")


@dataclass(frozen=True)
class Norm:
    """The normalization around an MLP block in its transformer sublayer (R11, R11').

    ``position``: ``pre`` (``x + f(N x)``), ``post`` (``N(x + f(x))``) or ``none`` (none
    known: ``note`` says why). ``kind``: ``layernorm`` or ``rmsnorm`` (None with ``none``).
    ``parallel``: attention and MLP add to one skip (``x + attn(N1 x) + f(N2 x)``).
    ``gamma``/``beta``: exact, length ``d`` (``beta`` None: no bias); ``eps`` exact, > 0.
    """

    position: str
    kind: Optional[str] = None
    parallel: bool = False
    gamma: Optional[Vector] = None
    beta: Optional[Vector] = None
    eps: Optional[Fraction] = None
    note: str = ""


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
    #: Exact data behind the verdict, used by :mod:`pybridge.certify.pipeline`.
    evidence: Optional[Evidence] = field(default=None, compare=False, repr=False)
    #: The width decided (None: width n by the R5 route); see :mod:`pybridge.decision.width_route`.
    width: Optional[int] = None
    #: Canonical form, width data, explicit block, min-width bounds (width route only).
    width_info: Optional[WidthInfo] = field(default=None, compare=False, repr=False)
    #: sha256 of the exact instance the decision was made for
    #: (:func:`pybridge.decision.identity.weights_digest`, set by ``decide``); ``check`` and
    #: ``certify`` refuse a decision whose digest is not their instance's.
    weights_sha256: Optional[str] = field(default=None, compare=False, repr=False)


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
    #: the verdict about the block inside its transformer sublayer (R11, R11'), as JSON
    #: (:meth:`pybridge.certify.sublayer.SublayerReport.to_json`); None: no norm given
    sublayer: Optional[dict] = None
