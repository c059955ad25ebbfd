"""Reading instances exactly: JSON, ``.npz``, ``.safetensors`` (see :func:`load_instance`).

Every reader checks sizes before work (:mod:`.limits`) and raises
:class:`~pybridge.errors.InputError` with one line naming the file and the problem.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from pybridge.errors import InputError
from pybridge.model import Activation, Instance
from pybridge.io.activations import parse_activation
from pybridge.io.arrays import instance_from_arrays, read_npz, read_safetensors
from pybridge.io.build import build_instance
from pybridge.exact.numbers import fraction_to_json, fraction_to_text
from pybridge.io.jsonfile import instance_from_json, instance_to_json
from pybridge.io.limits import DEFAULT_LIMITS, Limits

#: Kept for callers of the old constant: the default JSON size limit.
MAX_JSON_BYTES = DEFAULT_LIMITS.max_file_bytes


def _prefixed(source: str, exc: InputError) -> InputError:
    text = str(exc)
    return exc if text.startswith(source) else InputError(f"{source}: {text}")


def load_instance(
    path: Path | str, activation: Optional[Activation] = None, *, limits: Limits = DEFAULT_LIMITS
) -> Instance:
    """Read one block from ``.json``, ``.npz`` or ``.safetensors`` exactly.

    ``activation`` is required for array files (they carry no activation) and,
    for JSON, must agree with the file's ``activation`` when both are given.
    Raises :class:`InputError` with a one-line message naming the file on any bad input.
    """
    if not isinstance(path, (str, Path)):
        raise InputError(f"path must be a str or Path, not {type(path).__name__}")
    if activation is not None and not isinstance(activation, Activation):
        raise InputError(f"activation must be an Activation, not {type(activation).__name__}")
    if not isinstance(limits, Limits):
        raise InputError("limits must be a pybridge.io.limits.Limits")
    path = Path(path)
    source = path.name
    if not path.is_file():
        if path.is_dir():
            raise InputError(f"{path}: is a directory (pybridge scan reads checkpoint directories)")
        raise InputError(f"{path}: {'not a file' if path.exists() else 'no such file'}")
    try:
        suffix = path.suffix.lower()
        if suffix == ".json":
            limits.check_file_size(source, path.stat().st_size)
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                raise InputError(f"{source}: not a JSON file (not UTF-8 text)") from None
            return instance_from_json(text, source=source, activation=activation, limits=limits)
        if suffix == ".npz":
            return instance_from_arrays(read_npz(path, limits), source=source, activation=activation)
        if suffix == ".safetensors":
            return instance_from_arrays(read_safetensors(path, limits), source=source, activation=activation)
        raise InputError(f"{source}: unsupported file type (expected .json, .npz or .safetensors)")
    except InputError as exc:
        raise _prefixed(source, exc) from None
    except OSError as exc:
        raise InputError(f"{source}: cannot read ({exc.strerror or type(exc).__name__})") from None


__all__ = [
    "load_instance",
    "parse_activation",
    "build_instance",
    "instance_from_json",
    "instance_to_json",
    "fraction_to_text",
    "fraction_to_json",
    "Limits",
    "DEFAULT_LIMITS",
]
