"""Activation names as users and model configs write them -> :class:`Activation`.

The one source of truth is the registry :mod:`pybridge.activations`; this module
keeps the reader-side name ``parse_activation``.
"""

from __future__ import annotations

from pybridge.activations import MAX_DEGREE, SPELLINGS, resolve
from pybridge.model import Activation

#: Accepted spellings (lower case) -> canonical activation (from the registry).
ALIASES: dict[str, Activation] = dict(SPELLINGS)


def parse_activation(text: str) -> Activation:
    """Any spelling the registry knows (``relu``, ``relu^k``, ``gelu_new``, ``silu``/``swish``,
    ``quick_gelu``, ...), case-insensitive; :class:`InputError` otherwise."""
    return resolve(text)


__all__ = ["ALIASES", "MAX_DEGREE", "parse_activation"]
