"""JSON instances: ``{"activation": ..., "W_up": ..., "W_down": ..., ...}`` read exactly.

Parsed by :func:`~.strictjson.strict_loads` (duplicate keys, digit and count limits).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

from pybridge.errors import InputError
from pybridge.model import Activation, Instance, Norm
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
    unknown = [k for k in doc if k not in ("activation", "norm") and k not in ROLES]
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


NORM_KEYS = ("position", "kind", "gamma", "beta", "eps", "parallel")


def norm_from_json(text: str, d: int, *, limits: Limits = DEFAULT_LIMITS) -> Optional[Norm]:
    """The ``"norm"`` object of a JSON instance, exactly (None when absent)::

        "norm": {"position": "pre" | "post", "kind": "layernorm" | "rmsnorm",
                 "gamma": [...], "beta": [...], "eps": "1e-5", "parallel": false}

    ``gamma`` defaults to ones, ``beta`` to none (zero); both have length ``d``; ``eps`` is
    required, exact and > 0. Anything else is an :class:`InputError`."""
    doc = strict_loads(text, limits=limits)
    if not isinstance(doc, dict) or doc.get("norm") is None:
        return None
    raw = doc["norm"]
    if not isinstance(raw, dict):
        raise InputError("norm: expected an object with position, kind, eps (and gamma, beta, parallel)")
    unknown = [k for k in raw if k not in NORM_KEYS]
    if unknown:
        raise InputError(f"norm: unknown key {unknown[0]!r:.40}")
    position, kind, parallel = raw.get("position"), raw.get("kind"), raw.get("parallel", False)
    if position not in ("pre", "post"):
        raise InputError(f"norm.position must be \"pre\" or \"post\", got {str(position)[:20]!r}")
    if kind not in ("layernorm", "rmsnorm"):
        raise InputError(f"norm.kind must be \"layernorm\" or \"rmsnorm\", got {str(kind)[:20]!r}")
    if not isinstance(parallel, bool):
        raise InputError("norm.parallel must be true or false")
    if "eps" not in raw:
        raise InputError("norm.eps is required (the exact epsilon inside the square root, > 0)")
    eps = fraction_from_json(raw["eps"], "norm.eps", max_digits=limits.max_digits)
    if eps <= 0:
        raise InputError(f"norm.eps must be > 0, got {eps}")
    vecs: dict[str, Optional[tuple[Fraction, ...]]] = {}
    for key in ("gamma", "beta"):
        value = raw.get(key)
        if value is None:
            vecs[key] = None
            continue
        if isinstance(value, list) and len(value) != d:
            raise InputError(f"norm.{key} has length {len(value)}, the block has d = {d}")
        vecs[key] = tuple(_numbers(value, f"norm.{key}", 1, limits))  # type: ignore[arg-type]
    gamma = vecs["gamma"] if vecs["gamma"] is not None else (Fraction(1),) * d
    return Norm(position, kind, parallel, gamma, vecs["beta"], eps, "from the JSON instance")


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


__all__ = ["instance_from_json", "instance_to_json", "norm_from_json", "strict_loads", "Fraction"]
