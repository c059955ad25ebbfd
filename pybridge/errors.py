"""Errors that the CLI turns into one clear line on stderr."""


class BridgeError(Exception):
    """Base class: a problem the user can act on (exit code 2 unless stated)."""

    exit_code = 2


class InputError(BridgeError):
    """The input file or option is malformed, inconsistent or unsupported."""


class ProverUnavailable(BridgeError):
    """The proof assistant (or the compiled library) cannot be found or built."""
