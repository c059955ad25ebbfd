"""Strict JSON: what Python's ``json`` lets through silently is an error here.

Duplicate keys are an error (Python keeps the last), numbers are ASCII digits
within :class:`~.limits.Limits` (checked before conversion, so a 50 MB number is
refused at once), ``NaN``/``Infinity`` are refused, the count of numbers is
bounded while parsing, and too deep nesting is an error.
"""

from __future__ import annotations

import json

from pybridge.errors import InputError
from pybridge.exact.numbers import fraction_from_text
from pybridge.io.limits import DEFAULT_LIMITS, Limits


def _reject_constant(name: str) -> None:
    raise InputError(f"JSON contains {name}: only finite numbers are allowed")


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise InputError(f"duplicate key {key!r:.40} in a JSON object")
            seen.add(key)
    return out


class _Counter:
    """Counts the numbers the JSON parser meets and refuses too many."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0

    def tick(self) -> None:
        self.count += 1
        if self.count > self.limit:
            raise InputError(f"JSON holds more than {self.limit} numbers (raise it with --max-entries)")


def strict_loads(text: str, *, limits: Limits = DEFAULT_LIMITS, exact: bool = True) -> object:
    """Parse JSON strictly (see the module docstring); decimals become exact Fractions
    when ``exact``; otherwise (config and index files, headers) ints/floats as Python
    reads them, still digit-limited, and ``NaN``/``Infinity`` as floats (transformers
    writes them in some configs)."""
    counter = _Counter(4 * limits.max_entries + 3 * 65536)
    short = min(18, limits.max_digits)  # an integer this short is within every limit

    def parse_number(s: str) -> object:
        counter.tick()
        if len(s) <= short and "." not in s and "e" not in s and "E" not in s:
            return int(s)  # the parser only passes JSON integers: -?(0|[1-9][0-9]*)
        if exact or not any(c in s for c in ".eE"):
            value = fraction_from_text(s, "JSON number", max_digits=limits.max_digits,
                                       max_exponent=limits.max_exponent)
            return int(value) if value.denominator == 1 and not any(c in s for c in ".eE") else value
        fraction_from_text(s, "JSON number", max_digits=limits.max_digits, max_exponent=limits.max_exponent)
        return float(s)

    try:
        return json.loads(
            text,
            parse_float=parse_number,
            parse_int=parse_number,
            parse_constant=_reject_constant if exact else float,
            object_pairs_hook=_no_duplicates,
        )
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply") from None
