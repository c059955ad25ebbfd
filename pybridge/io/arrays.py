"""NumPy arrays and array files (``.npz``, ``.safetensors``) holding tensors named like the JSON keys.

:func:`from_arrays` (also ``pybridge.from_arrays``) builds an exact instance from
in-memory arrays of any real dtype; :func:`instance_from_arrays` from a mapping of
named tensors, as the file readers do. Orientation is PyTorch's ``nn.Linear.weight``
(``W_up`` n x d, ``W_down`` d x n); see ``docs/format.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Union

import numpy as np

from pybridge.activations import resolve
from pybridge.errors import InputError
from pybridge.model import Activation, Instance
from pybridge.io.build import ROLES, build_instance, optional_activation
from pybridge.exact.numbers import exact_array
from pybridge.exact.arrays import ArrayMatrix
from pybridge.io.limits import DEFAULT_LIMITS, Limits
from pybridge.io.npzfile import read_npz
from pybridge.io.safetensors_file import SafetensorsFile, bf16_to_float32

#: ml_dtypes' narrow float types (bfloat16, float8_*, ...): every value is a float32, so
#: ``astype(float32)`` is exact.
_NARROW_FLOATS = ("bfloat16", "float8_", "float6_", "float4_")


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


def activation_of(value: object) -> Optional[Activation]:
    """An :class:`Activation` from a name (any spelling the registry knows) or an Activation."""
    if value is None or isinstance(value, Activation):
        return value
    if isinstance(value, str):
        return resolve(value)
    raise InputError(f"activation must be a name or an Activation, not {type(value).__name__}")


def instance_from_arrays(
    arrays: dict[str, np.ndarray], *, source: str, activation: Optional[Union[Activation, str]]
) -> Instance:
    """Tensors named ``W_up``, ``W_down``, ... (other names rejected) -> exact instance.

    ``activation`` is an :class:`Activation` or its name (``"relu"``, ``"gelu_new"``...).
    Matrices stay arrays (:class:`~pybridge.exact.arrays.ArrayMatrix`, converted at once to
    integer numerators over a power of two); bias vectors become Fractions."""
    unknown = [k for k in arrays if k not in ROLES]
    if unknown:
        raise InputError(f"{source}: unknown tensor name {unknown[0]!r:.40} (expected {', '.join(ROLES)})")
    act = optional_activation(activation_of(activation), None, source)
    tensors: dict[str, object] = {}
    for key, arr in arrays.items():
        want = 1 if key.startswith("b_") else 2
        if arr.ndim != want:
            raise InputError(f"{source}: {key}: expected a {want}-dimensional array, got shape {arr.shape}")
        if arr.size == 0:
            raise InputError(f"{source}: {key}: zero-size array {arr.shape}")
        tensors[key] = exact_array(arr, key) if want == 1 else ArrayMatrix(arr, where=key, exact=True)
    return build_instance(act, tensors, source=source)


def real_array(value: Any, where: str, *, bfloat16_bits: bool = False) -> np.ndarray:
    """``value`` (a NumPy array or anything ``np.asarray`` reads) as an array of a dtype the
    exact readers take: integers, float16/32/64/longdouble; ml_dtypes' bfloat16 and float8
    types, and with ``bfloat16_bits`` uint16 arrays holding bfloat16 bit patterns, become
    float32 exactly. Booleans, complex, object, string and other dtypes: :class:`InputError`."""
    if isinstance(value, (str, bytes)):
        raise InputError(f"{where}: expected an array of numbers, got {type(value).__name__}")
    try:
        arr = value if isinstance(value, np.ndarray) else np.asarray(value)
    except (ValueError, TypeError) as exc:  # ragged nested lists, unconvertible objects
        raise InputError(f"{where}: not a rectangular array of numbers ({str(exc)[:80]})") from None
    dtype = arr.dtype
    if any(dtype.name.startswith(p) for p in _NARROW_FLOATS):
        return arr.astype(np.float32)  # exact: every value of these types is a float32
    if bfloat16_bits and dtype.kind == "u" and dtype.itemsize == 2:
        return bf16_to_float32(arr)
    if dtype.kind == "b":
        raise InputError(f"{where}: boolean array where numbers were expected")
    if dtype.kind == "c":
        raise InputError(f"{where}: complex array {dtype}: weights must be real")
    if dtype.kind == "O":
        raise InputError(f"{where}: array of Python objects (dtype object): convert it to a numeric dtype, "
                         "or pass exact Fractions to pybridge.Instance")
    if dtype.kind not in "iuf":
        raise InputError(f"{where}: unsupported array type {dtype}")
    return arr


def from_arrays(
    W_up: Any,
    W_down: Any,
    activation: Union[Activation, str] = "relu",
    b_up: Any = None,
    b_down: Any = None,
    skip: Any = None,
    gate: Any = None,
    *,
    b_gate: Any = None,
    bfloat16_bits: bool = False,
    source: str = "arrays",
    limits: Limits = DEFAULT_LIMITS,
) -> Instance:
    """An exact instance from NumPy arrays (``pybridge.from_arrays``).

    Orientation as PyTorch's ``nn.Linear.weight``: ``W_up`` (and ``gate``, the gate's
    weight ``W_gate``, for SwiGLU/GeGLU/ReGLU) n x d, ``W_down`` d x n, ``skip`` d x d
    (``None``: the identity), biases ``b_up``/``b_gate`` of length n and ``b_down`` of length d.
    Every real dtype is read exactly: integers as integers, floats (float16, float32,
    float64, long double; bfloat16 and float8 from ``ml_dtypes``) by their exact binary
    value; ``bfloat16_bits=True`` reads uint16 arrays as bfloat16 bit patterns (how
    ``safetensors`` stores BF16 for NumPy). ``activation`` is a name (``"relu"``,
    ``"gelu_new"``, ``"swiglu"``, ...) or an :class:`Activation`.

    Raises :class:`InputError` (one line naming the array) for NaN or infinity, a wrong
    number of dimensions or shape, an empty array, boolean, complex,
    object or string dtypes, and arrays above ``limits`` (default 4,000,000 entries).
    """
    if not isinstance(limits, Limits):
        raise InputError("limits must be a pybridge.io.limits.Limits")
    given = {"W_up": W_up, "W_down": W_down, "W_gate": gate, "skip": skip,
             "b_up": b_up, "b_gate": b_gate, "b_down": b_down}
    arrays: dict[str, np.ndarray] = {}
    for key, value in given.items():
        if value is None:
            continue
        where = "gate (W_gate)" if key == "W_gate" else key
        arr = real_array(value, where, bfloat16_bits=bfloat16_bits)
        limits.check_entries(where, arr.shape)
        arrays[key] = arr
    if activation is None:
        raise InputError("activation is required (a name such as 'relu', or an Activation)")
    return instance_from_arrays(arrays, source=source, activation=activation_of(activation))
