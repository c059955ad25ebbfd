"""Size guards applied before any expensive work (parsing, decompressing, converting).

Every reader takes a :class:`Limits`; the defaults suit the command line. A
limit that is exceeded is an :class:`~pybridge.errors.InputError` naming the
file and the limit (raise it knowingly with ``--max-entries``).
"""

from __future__ import annotations

from dataclasses import dataclass

from pybridge.errors import InputError

#: Default entries per matrix for ``check`` (d = 768, n = 3072 fits: 2.4 million).
DEFAULT_MAX_ENTRIES = 4_000_000


@dataclass(frozen=True)
class Limits:
    """What a reader accepts.

    ``max_entries``: entries per matrix (n*d); ``max_digits``: characters of one
    written number (Python itself refuses integers over 4300 digits);
    ``max_exponent``: decimal exponent; ``max_file_bytes``: size of one input file
    (checkpoint shards are memory-mapped and not bound by it); ``max_tensors``:
    tensors in one array file.
    """

    max_entries: int = DEFAULT_MAX_ENTRIES
    max_digits: int = 4300
    max_exponent: int = 4000
    max_file_bytes: int = 256 * 1024 * 1024
    max_tensors: int = 64

    def __post_init__(self) -> None:
        for name in ("max_entries", "max_digits", "max_exponent", "max_file_bytes", "max_tensors"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InputError(f"{name} must be a positive integer")

    def check_entries(self, where: str, shape: tuple[int, ...]) -> None:
        """Refuse a matrix/vector whose entry count exceeds ``max_entries``."""
        count = 1
        for s in shape:
            count *= s
        if count > self.max_entries:
            dims = "x".join(str(s) for s in shape)
            raise InputError(
                f"{where}: {dims} = {count} entries exceeds the limit of {self.max_entries} "
                f"(raise it with --max-entries)"
            )

    def check_file_size(self, where: str, size: int) -> None:
        if size > self.max_file_bytes:
            raise InputError(
                f"{where}: file of {size} bytes exceeds the limit of {self.max_file_bytes} bytes"
            )


DEFAULT_LIMITS = Limits()
