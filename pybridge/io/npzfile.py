"""A guarded ``.npz`` reader: every array's header (dtype, shape) is checked first.

A 622 KB ``.npz`` of zeros can expand to gigabytes. Each member's ``.npy`` header
is read from the compressed stream (a few hundred bytes) and the declared shape
checked against :class:`~.limits.Limits` before any data is decompressed; the data
read is then bounded by that shape. No pickles (object arrays are refused).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

from pybridge.errors import InputError
from pybridge.io.limits import DEFAULT_LIMITS, Limits

_ERRORS = (ValueError, OSError, EOFError, zipfile.BadZipFile, NotImplementedError, RuntimeError,
           KeyError, TypeError, SyntaxError, OverflowError)


def _header(fp) -> tuple[tuple[int, ...], bool, np.dtype]:
    version = np.lib.format.read_magic(fp)
    if version == (1, 0):
        return np.lib.format.read_array_header_1_0(fp)
    if version in ((2, 0), (3, 0)):
        return np.lib.format.read_array_header_2_0(fp)
    raise ValueError(f"unsupported .npy version {version}")


def read_npz(path: Path, limits: Limits = DEFAULT_LIMITS) -> dict[str, np.ndarray]:
    """All arrays of an ``.npz`` file, each checked against ``limits`` before decompression."""
    path = Path(path)
    name = path.name
    try:
        limits.check_file_size(name, path.stat().st_size)
        if not zipfile.is_zipfile(path):
            raise InputError(f"{name}: not an .npz file (not a zip archive)")
        out: dict[str, np.ndarray] = {}
        with zipfile.ZipFile(path) as zf:
            members = zf.infolist()
            if len(members) > limits.max_tensors:
                raise InputError(f"{name}: {len(members)} arrays exceed the limit of {limits.max_tensors}")
            for info in members:
                key = info.filename[:-4] if info.filename.endswith(".npy") else info.filename
                if info.is_dir() or not info.filename.endswith(".npy"):
                    raise InputError(f"{name}: member {info.filename!r:.40} is not a .npy array")
                if key in out:
                    raise InputError(f"{name}: array {key!r:.40} appears twice")
                with zf.open(info) as fp:
                    shape, _, dtype = _header(fp)
                if dtype.hasobject:
                    raise InputError(f"{name}: array {key!r:.40} holds Python objects (pickles are refused)")
                limits.check_entries(f"{name}: {key!r:.40}", tuple(shape))
                with zf.open(info) as fp:
                    arr = np.lib.format.read_array(fp, allow_pickle=False)
                out[key] = np.asarray(arr)
        return out
    except InputError:
        raise
    except _ERRORS as exc:
        raise InputError(f"{name}: unreadable .npz ({type(exc).__name__})") from None
