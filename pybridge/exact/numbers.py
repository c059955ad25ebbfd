"""Exact numbers: parsing user-written numbers and converting binary floats.

Written numbers become :class:`fractions.Fraction` here: JSON decimals are read
as written (``0.1`` is 1/10), strings ``"p/q"`` or ``"-0.125"`` likewise, and
small binary floating-point arrays (bias vectors) by their exact binary value.
Weight matrices read from arrays are not converted entry by entry: they stay
arrays (:class:`~pybridge.exact.arrays.ArrayMatrix`) whose exact value is integer
numerators over a power of two (:mod:`pybridge.exact.dyadic`).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import numpy as np

from pybridge.errors import InputError

#: Decimal exponents beyond this are refused (they would build enormous integers).
MAX_EXPONENT = 4000
#: Characters of one written number beyond this are refused before any conversion
#: (Python's own limit for int() of a decimal string is 4300 digits).
MAX_DIGITS = 4300

_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?[0-9]+/[+-]?[0-9]+", re.ASCII)
_EXPONENT = re.compile(r"[eE]([+-]?[0-9]+)$", re.ASCII)


def fraction_from_text(
    text: str, where: str, *, max_digits: int = MAX_DIGITS, max_exponent: int = MAX_EXPONENT
) -> Fraction:
    """Parse a decimal (``-0.125``, ``1e-3``) or a ratio (``"3/4"``) exactly.

    Only ASCII digits; the length is checked before anything else, so a 50 MB
    number is refused at once.
    """
    if len(text) > max_digits + 8:
        raise InputError(f"{where}: number with {len(text)} characters exceeds the limit of {max_digits} digits")
    s = text.strip()
    if not _NUMBER.fullmatch(s):
        raise InputError(f"{where}: not a number: {_short(text)}")
    digits = sum(c.isdigit() for c in s)
    if digits > max_digits:
        raise InputError(f"{where}: number with {digits} digits exceeds the limit of {max_digits}")
    m = _EXPONENT.search(s)
    if m and abs(int(m.group(1))) > max_exponent:
        raise InputError(f"{where}: exponent too large in {_short(text)}")
    try:
        return Fraction(s)
    except ZeroDivisionError:
        raise InputError(f"{where}: zero denominator in {_short(text)}") from None
    except ValueError:
        raise InputError(f"{where}: not a number: {_short(text)}") from None


def fraction_from_json(value: object, where: str, *, max_digits: int = MAX_DIGITS) -> Fraction:
    """A JSON value (int, exact decimal already parsed to Fraction, or string) as a Fraction."""
    if isinstance(value, bool):
        raise InputError(f"{where}: expected a number, got a boolean")
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, str):
        return fraction_from_text(value, where, max_digits=max_digits)
    what = {dict: "an object", list: "a list", type(None): "null"}.get(type(value), type(value).__name__)
    raise InputError(f"{where}: expected a number, got {what}")


def fraction_to_text(x: Fraction) -> str:
    """``"p/q"`` (or ``"p"`` when integral): the exact text form used in reports."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def fraction_to_json(x: Fraction) -> int | str:
    """A JSON integer when integral, else the exact ``"p/q"`` string."""
    return x.numerator if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def exact_scalar(v: np.generic) -> Fraction:
    """One array entry as its exact value; long double through ``as_integer_ratio``, since
    converting it to a Python float would round it."""
    if isinstance(v, np.floating) and v.dtype.itemsize > 8:
        return Fraction(*v.as_integer_ratio())
    return Fraction(v.item())


def exact_array(arr: np.ndarray, where: str) -> list:
    """Nested lists of Fractions equal to ``arr``'s entries exactly (floats by binary value).

    Accepts float16/32/64 and integer arrays; NaN or infinity is an input error.
    """
    kind = arr.dtype.kind
    if kind == "f":
        if not np.isfinite(arr).all():
            raise InputError(f"{where}: contains NaN or infinity")
        if arr.dtype.itemsize > 8:  # long double: not via float64
            return _nested(arr, exact_scalar)
        # float16/32 -> float64 is exact; Fraction(float) is the exact binary value.
        values = arr.astype(np.float64).tolist()
    elif kind in "iu":
        values = arr.tolist()
    elif kind == "b":
        raise InputError(f"{where}: boolean array where numbers were expected")
    else:
        raise InputError(f"{where}: unsupported array type {arr.dtype}")
    return _to_fractions(values)


def _nested(arr: np.ndarray, conv) -> list:
    if arr.ndim == 0:
        return conv(arr[()])
    return [_nested(sub, conv) for sub in arr]


def _to_fractions(values: Any) -> Any:
    if isinstance(values, list):
        return [_to_fractions(v) for v in values]
    return Fraction(values)


def _short(text: str, limit: int = 40) -> str:
    text = repr(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."
