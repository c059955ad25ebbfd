"""JSON instances: ``{"activation": ..., "W_up": ..., "W_down": ..., ...}`` read exactly."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Optional

from ..errors import InputError
from ..model import Activation, Instance
from .activations import parse_activation
from .build import ROLES, build_instance, optional_activation
from .exact import fraction_from_json, fraction_from_text


def _reject_constant(name: str) -> None:
    raise InputError(f"JSON contains {name}: only finite numbers are allowed")


def _exact_loads(text: str) -> object:
    try:
        return json.loads(
            text,
            parse_float=lambda s: fraction_from_text(s, "JSON number"),
            parse_constant=_reject_constant,
        )
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply") from None


def _numbers(value: object, name: str, depth: int) -> object:
    """Nested lists of Fractions of the given depth (1 vector, 2 matrix)."""
    if not isinstance(value, list):
        what = "matrix (list of rows)" if depth == 2 else "vector (list of numbers)"
        raise InputError(f"{name}: expected a {what}")
    if depth == 1:
        return [fraction_from_json(v, f"{name}[{i}]") for i, v in enumerate(value)]
    return [_numbers(row, f"{name}[{i}]", 1) for i, row in enumerate(value)]


def instance_from_json(
    text: str, *, source: str = "", activation: Optional[Activation] = None
) -> Instance:
    """Parse a JSON instance exactly; ``activation`` (from an option) may supply or confirm it."""
    doc = _exact_loads(text)
    if not isinstance(doc, dict):
        raise InputError("JSON instance must be an object")
    unknown = [k for k in doc if k != "activation" and k not in ROLES]
    if unknown:
        raise InputError(f"unknown key {unknown[0]!r:.40} in JSON instance")
    in_file = parse_activation(doc["activation"]) if doc.get("activation") is not None else None
    act = optional_activation(activation, in_file, source)
    tensors: dict[str, object] = {}
    for key in ROLES:
        if doc.get(key) is None:
            continue
        depth = 1 if key.startswith("b_") else 2
        tensors[key] = _numbers(doc[key], key, depth)
    return build_instance(act, tensors, source=source)


def instance_to_json(instance: Instance) -> dict:
    """The JSON document for ``instance`` (integers, or exact ``"p/q"`` strings)."""
    from .exact import fraction_to_json

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


__all__ = ["instance_from_json", "instance_to_json", "Fraction"]
