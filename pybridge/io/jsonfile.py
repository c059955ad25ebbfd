"""JSON instances: ``{"activation": ..., "W_up": ..., "W_down": ..., ...}`` read exactly.

Parsed by :func:`~.strictjson.strict_loads` (duplicate keys, digit and count limits).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

from pybridge.errors import InputError
from pybridge.model import Activation, Instance
from pybridge.io.activations import parse_activation
from pybridge.io.build import ROLES, build_instance, optional_activation
from pybridge.exact.numbers import fraction_from_json
from pybridge.io.limits import DEFAULT_LIMITS, Limits
from pybridge.io.strictjson import strict_loads


def _numbers(value: object, name: str, depth: int, limits: Limits) -> object:
    """Nested lists of Fractions of the given depth (1 vector, 2 matrix)."""
    if not isinstance(value, list):
        what = "matrix (list of rows)" if depth == 2 else "vector (list of numbers)"
        raise InputError(f"{name}: expected a {what}")
    if depth == 2 and value and isinstance(value[0], list):
        limits.check_entries(name, (len(value), len(value[0])))
    if depth == 1:
        return [fraction_from_json(v, f"{name}[{i}]", max_digits=limits.max_digits) for i, v in enumerate(value)]
    return [_numbers(row, f"{name}[{i}]", 1, limits) for i, row in enumerate(value)]


def instance_from_json(
    text: str,
    *,
    source: str = "",
    activation: Optional[Activation] = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Instance:
    """Parse a JSON instance exactly; ``activation`` (from an option) may supply or confirm it."""
    if not isinstance(text, str):
        raise InputError("JSON instance must be given as text")
    doc = strict_loads(text, limits=limits)
    if not isinstance(doc, dict):
        raise InputError("JSON instance must be an object")
    unknown = [k for k in doc if k != "activation" and k not in ROLES]
    if unknown:
        raise InputError(f"unknown key {unknown[0]!r:.40} in JSON instance")
    raw_act = doc.get("activation")
    if raw_act is not None and not isinstance(raw_act, str):
        raise InputError("activation must be a string")
    in_file = parse_activation(raw_act) if raw_act is not None else None
    act = optional_activation(activation, in_file, source)
    tensors: dict[str, object] = {}
    for key in ROLES:
        if doc.get(key) is None:
            continue
        depth = 1 if key.startswith("b_") else 2
        tensors[key] = _numbers(doc[key], key, depth, limits)
    return build_instance(act, tensors, source=source)


def instance_to_json(instance: Instance) -> dict:
    """The JSON document for ``instance`` (integers, or exact ``"p/q"`` strings)."""
    from pybridge.exact.numbers import fraction_to_json

    doc: dict = {"activation": instance.activation.label}
    for key in ROLES:
        value = getattr(instance, key)
        if value is None:
            continue
        if key.startswith("b_"):
            doc[key] = [fraction_to_json(x) for x in value]
        else:
            doc[key] = [[fraction_to_json(x) for x in row] for row in value]
    return doc


__all__ = ["instance_from_json", "instance_to_json", "strict_loads", "Fraction"]
