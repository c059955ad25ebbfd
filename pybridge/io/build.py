"""Validated construction of an :class:`Instance` from named exact tensors.

Every reader (JSON, .npz, .safetensors, checkpoints) ends here, so shape,
consistency and skip checks are made once. Messages name the tensor, never
echo more than a short excerpt of user text.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping, Optional, Sequence

from pybridge.errors import InputError
from pybridge.model import Activation, Instance
from pybridge.exact.arrays import ArrayMatrix

MATRICES = ("W_up", "W_down", "W_gate", "skip")
VECTORS = ("b_up", "b_gate", "b_down")
ROLES = MATRICES + VECTORS
_FRACTION = {Fraction}


def _matrix(name: str, value: object) -> tuple[tuple[Fraction, ...], ...]:
    if isinstance(value, ArrayMatrix):
        return value  # type: ignore[return-value]  # validated on construction
    if not isinstance(value, (list, tuple)) or not value:
        raise InputError(f"{name}: expected a non-empty matrix (list of rows)")
    rows = []
    width = None
    for i, row in enumerate(value):
        if not isinstance(row, (list, tuple)):
            raise InputError(f"{name}: row {i} is not a list")
        if width is None:
            width = len(row)
            if width == 0:
                raise InputError(f"{name}: rows are empty (zero-size matrix)")
        elif len(row) != width:
            raise InputError(f"{name}: row {i} has {len(row)} entries, row 0 has {width}")
        if not set(map(type, row)) <= _FRACTION and not all(isinstance(x, Fraction) for x in row):
            raise InputError(f"{name}: row {i} holds a non-number")
        rows.append(tuple(row))
    return tuple(rows)


def _vector(name: str, value: object) -> tuple[Fraction, ...]:
    if not isinstance(value, (list, tuple)) or not value:
        raise InputError(f"{name}: expected a non-empty vector")
    if not set(map(type, value)) <= _FRACTION and not all(isinstance(x, Fraction) for x in value):
        raise InputError(f"{name}: expected a flat list of numbers")
    return tuple(value)


def _shape(m: Sequence[Sequence[object]]) -> tuple[int, int]:
    return len(m), len(m[0])


def build_instance(
    activation: Activation,
    tensors: Mapping[str, object],
    *,
    source: str = "",
) -> Instance:
    """Check shapes and consistency of ``tensors`` (exact Fractions) and build the instance.

    ``W_up`` n x d and ``W_down`` d x n are required; ``W_gate`` n x d exactly when the
    activation is gated; ``skip`` d x d (any: an invertible one is reduced by R1, a singular
    one, zero included, is decided without R1, :mod:`pybridge.decision.any_skip`); biases of
    lengths n, n, d.
    """
    unknown = [k for k in tensors if k not in ROLES]
    if unknown:
        raise InputError(f"unknown tensor name {unknown[0]!r:.40} (expected {', '.join(ROLES)})")
    for req in ("W_up", "W_down"):
        if tensors.get(req) is None:
            raise InputError(f"{req} is missing")
    mats = {k: _matrix(k, tensors[k]) for k in MATRICES if tensors.get(k) is not None}
    vecs = {k: _vector(k, tensors[k]) for k in VECTORS if tensors.get(k) is not None}
    n, d = _shape(mats["W_up"])
    if _shape(mats["W_down"]) != (d, n):
        r, c = _shape(mats["W_down"])
        raise InputError(f"W_down is {r}x{c}, expected {d}x{n} (W_up is {n}x{d})")
    if activation.gated:
        if "W_gate" not in mats:
            raise InputError(f"activation {activation.label} is gated: W_gate is missing")
        if _shape(mats["W_gate"]) != (n, d):
            r, c = _shape(mats["W_gate"])
            raise InputError(f"W_gate is {r}x{c}, expected {n}x{d}")
    else:
        if "W_gate" in mats:
            raise InputError(f"W_gate given but activation {activation.label} is not gated")
        if "b_gate" in vecs:
            raise InputError(f"b_gate given but activation {activation.label} is not gated")
    if "skip" in mats:
        r, c = _shape(mats["skip"])
        if r != c:
            raise InputError(f"skip is {r}x{c}: it must be square ({d}x{d})")
        if r != d:
            raise InputError(f"skip is {r}x{c}, expected {d}x{d}")
    for name, length in (("b_up", n), ("b_gate", n), ("b_down", d)):
        if name in vecs and len(vecs[name]) != length:
            raise InputError(f"{name} has length {len(vecs[name])}, expected {length}")
    return Instance(
        activation=activation,
        W_up=mats["W_up"],
        W_down=mats["W_down"],
        W_gate=mats.get("W_gate"),
        skip=mats.get("skip"),
        b_up=vecs.get("b_up"),
        b_gate=vecs.get("b_gate"),
        b_down=vecs.get("b_down"),
        source=source,
    )


def optional_activation(
    given: Optional[Activation], in_file: Optional[Activation], source: str
) -> Activation:
    """The activation from the option, else from the file; both given must agree."""
    if given is not None and in_file is not None and given != in_file:
        raise InputError(
            f"--activation {given.label} contradicts the file's activation {in_file.label}"
        )
    act = given or in_file
    if act is None:
        raise InputError(f"{source or 'input'}: no activation given (use --activation)")
    return act
