"""Activation names as users and model configs write them -> :class:`Activation`."""

from __future__ import annotations

import re

from ..errors import InputError
from ..model import Activation

#: Accepted spellings (lower case) -> canonical activation.
ALIASES: dict[str, Activation] = {
    "relu": Activation("relu"),
    "relu2": Activation("relu_pow", 2),
    "squared_relu": Activation("relu_pow", 2),
    "gelu": Activation("gelu"),
    "gelu_tanh": Activation("gelu_tanh"),
    "silu": Activation("silu"),
    "swish": Activation("silu"),
    "swiglu": Activation("swiglu"),
    "geglu": Activation("geglu"),
    "reglu": Activation("reglu"),
    "geglu_tanh": Activation("geglu_tanh"),
}

MAX_DEGREE = 64


def parse_activation(text: str) -> Activation:
    """``relu``, ``relu^k`` (k >= 1; ``relu^1`` is ``relu``), ``relu2``, ``gelu``, ``gelu_tanh``,
    ``silu``, ``swiglu``, ``geglu``, ``geglu_tanh``, ``reglu`` (case-insensitive)."""
    if not isinstance(text, str):
        raise InputError("activation must be a string")
    key = text.strip().lower()
    if key in ALIASES:
        return ALIASES[key]
    m = re.fullmatch(r"relu\s*(\^|\*\*|_pow)\s*(\d+)", key)
    if m:
        k = int(m.group(2))
        if k == 1:
            return Activation("relu")
        if 2 <= k <= MAX_DEGREE:
            return Activation("relu_pow", k)
        raise InputError(f"activation relu^{k}: the degree must be between 1 and {MAX_DEGREE}")
    known = ", ".join(sorted(ALIASES)) + ", relu^k"
    raise InputError(f"unknown activation {_short(text)} (known: {known})")


def activation_text(act: Activation) -> str:
    """The canonical spelling, accepted back by :func:`parse_activation`."""
    return act.label


def _short(text: str, limit: int = 40) -> str:
    r = repr(text)
    return r if len(r) <= limit else r[: limit - 3] + "..."
