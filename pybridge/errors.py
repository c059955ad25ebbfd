"""Errors that the CLI turns into one clear line on stderr, and the exit codes.

Exit status of every ``pybridge`` command:

====  =====================================================================
0     success: any verdict (absorbable, not_absorbable, outside_hypotheses,
      undecided), including a certificate that timed out (its own status)
1     Coq rejected a certificate (and nothing else)
2     bad input: the file, an option or the environment the user controls;
      one line on stderr naming the file and the problem
3     internal error: a bug in pybridge; one line on stderr (no traceback)
130   interrupted
====  =====================================================================
"""

from __future__ import annotations

#: Exit codes (see the module docstring).
EXIT_OK = 0
EXIT_REJECTED = 1
EXIT_INPUT = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130


class BridgeError(Exception):
    """Base class: a problem the user can act on (exit code 2 unless stated)."""

    exit_code = EXIT_INPUT


class InputError(BridgeError):
    """The input file or option is malformed, inconsistent or unsupported."""


class ProverUnavailable(BridgeError):
    """The proof assistant (or the compiled library) cannot be found or built."""


class InternalError(BridgeError):
    """A bug in pybridge (an invariant failed); exit code 3."""

    exit_code = EXIT_INTERNAL


def one_line(text: object, limit: int = 300) -> str:
    """``text`` as one line of at most ``limit`` characters (for error messages)."""
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 3] + "..."
