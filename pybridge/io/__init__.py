"""Reading instances exactly: JSON, ``.npz``, ``.safetensors`` (see :func:`load_instance`)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..errors import InputError
from ..model import Activation, Instance
from .activations import parse_activation
from .arrays import instance_from_arrays, read_npz, read_safetensors
from .build import build_instance
from .exact import fraction_to_json, fraction_to_text
from .jsonfile import instance_from_json, instance_to_json

MAX_JSON_BYTES = 512 * 1024 * 1024


def load_instance(path: Path | str, activation: Optional[Activation] = None) -> Instance:
    """Read one block from ``.json``, ``.npz`` or ``.safetensors`` exactly.

    ``activation`` is required for array files (they carry no activation) and,
    for JSON, must agree with the file's ``activation`` when both are given.
    Raises :class:`InputError` with a one-line message on any bad input.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    suffix = path.suffix.lower()
    source = path.name
    if suffix == ".json":
        if path.stat().st_size > MAX_JSON_BYTES:
            raise InputError(f"{source}: JSON file too large")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{source}: not a JSON file (not UTF-8 text)") from None
        return instance_from_json(text, source=source, activation=activation)
    if suffix == ".npz":
        return instance_from_arrays(read_npz(path), source=source, activation=activation)
    if suffix == ".safetensors":
        return instance_from_arrays(read_safetensors(path), source=source, activation=activation)
    raise InputError(f"{source}: unsupported file type (expected .json, .npz or .safetensors)")


__all__ = [
    "load_instance",
    "parse_activation",
    "build_instance",
    "instance_from_json",
    "instance_to_json",
    "fraction_to_text",
    "fraction_to_json",
]
