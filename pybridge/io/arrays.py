"""Array files (``.npz``, ``.safetensors``) holding tensors named like the JSON keys."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Optional

import numpy as np

from ..errors import InputError
from ..model import Activation, Instance
from .build import ROLES, build_instance, optional_activation
from .exact import exact_array
from .safetensors_file import SafetensorsFile


def read_npz(path: Path) -> dict[str, np.ndarray]:
    """All arrays of an ``.npz`` file (no pickles)."""
    if not zipfile.is_zipfile(path):
        raise InputError(f"{path.name}: not an .npz file (not a zip archive)")
    try:
        with np.load(path, allow_pickle=False) as data:
            return {k: np.asarray(data[k]) for k in data.files}
    except (ValueError, OSError, zipfile.BadZipFile, KeyError, EOFError) as exc:
        raise InputError(f"{path.name}: unreadable .npz ({type(exc).__name__})") from None


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """All tensors of a ``.safetensors`` file."""
    f = SafetensorsFile(path)
    return {name: f.array(name) for name in f.names()}


def instance_from_arrays(
    arrays: dict[str, np.ndarray], *, source: str, activation: Optional[Activation]
) -> Instance:
    """Tensors named ``W_up``, ``W_down``, ... (other names rejected) -> exact instance."""
    unknown = [k for k in arrays if k not in ROLES]
    if unknown:
        raise InputError(f"{source}: unknown tensor name {unknown[0]!r:.40}")
    act = optional_activation(activation, None, source)
    tensors: dict[str, object] = {}
    for key, arr in arrays.items():
        want = 1 if key.startswith("b_") else 2
        if arr.ndim != want:
            raise InputError(f"{key}: expected a {want}-dimensional array, got shape {arr.shape}")
        if arr.size == 0:
            raise InputError(f"{key}: zero-size array {arr.shape}")
        tensors[key] = exact_array(arr, key)
    return build_instance(act, tensors, source=source)
