"""Array files (``.npz``, ``.safetensors``) holding tensors named like the JSON keys."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import numpy as np

from pybridge.errors import InputError
from pybridge.model import Activation, Instance
from pybridge.io.build import ROLES, build_instance, optional_activation
from pybridge.exact.numbers import exact_array
from pybridge.exact.arrays import ArrayMatrix
from pybridge.io.limits import DEFAULT_LIMITS, Limits
from pybridge.io.npzfile import read_npz
from pybridge.io.safetensors_file import SafetensorsFile


def read_safetensors(path: Path, limits: Limits = DEFAULT_LIMITS) -> dict[str, np.ndarray]:
    """All tensors of a ``.safetensors`` file, each checked against ``limits`` before reading."""
    path = Path(path)
    limits.check_file_size(path.name, path.stat().st_size)
    f = SafetensorsFile(path)
    if len(f.names()) > limits.max_tensors:
        raise InputError(f"{path.name}: {len(f.names())} tensors exceed the limit of {limits.max_tensors}")
    for name in f.names():
        limits.check_entries(f"{path.name}: {name!r:.40}", f.tensors[name].shape)
    return {name: f.array(name) for name in f.names()}


def instance_from_arrays(
    arrays: dict[str, np.ndarray], *, source: str, activation: Optional[Activation]
) -> Instance:
    """Tensors named ``W_up``, ``W_down``, ... (other names rejected) -> exact instance.

    Matrices stay arrays (:class:`~pybridge.exact.arrays.ArrayMatrix`, converted at once to
    integer numerators over a power of two); bias vectors become Fractions."""
    unknown = [k for k in arrays if k not in ROLES]
    if unknown:
        raise InputError(f"{source}: unknown tensor name {unknown[0]!r:.40} (expected {', '.join(ROLES)})")
    act = optional_activation(activation, None, source)
    tensors: dict[str, object] = {}
    for key, arr in arrays.items():
        want = 1 if key.startswith("b_") else 2
        if arr.ndim != want:
            raise InputError(f"{source}: {key}: expected a {want}-dimensional array, got shape {arr.shape}")
        if arr.size == 0:
            raise InputError(f"{source}: {key}: zero-size array {arr.shape}")
        tensors[key] = exact_array(arr, key) if want == 1 else ArrayMatrix(arr, where=key, exact=True)
    return build_instance(act, tensors, source=source)
