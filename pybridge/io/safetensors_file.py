"""A minimal, validating reader of the ``.safetensors`` format (lazy, memory-mapped).

Format: 8-byte little-endian header length N, N bytes of JSON header
``{name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}``,
then the data. Reading it directly lets us load one tensor at a time, read
shapes without data, and convert bfloat16 exactly (numpy has no bfloat16).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from math import prod
from pathlib import Path

import numpy as np

from pybridge.errors import InputError
from pybridge.io.strictjson import strict_loads

#: safetensors dtype -> (numpy dtype, bytes per entry); BF16 is read as uint16.
DTYPES: dict[str, tuple[np.dtype, int]] = {
    "F64": (np.dtype("<f8"), 8),
    "F32": (np.dtype("<f4"), 4),
    "F16": (np.dtype("<f2"), 2),
    "BF16": (np.dtype("<u2"), 2),
    "I64": (np.dtype("<i8"), 8),
    "I32": (np.dtype("<i4"), 4),
    "I16": (np.dtype("<i2"), 2),
    "I8": (np.dtype("i1"), 1),
    "U8": (np.dtype("u1"), 1),
}

MAX_HEADER = 100 * 1024 * 1024
MAX_DIMS = 8


def _is_count(x: object) -> bool:
    """A non-negative JSON integer (``true`` is not one)."""
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


@dataclass(frozen=True)
class TensorInfo:
    name: str
    dtype: str
    shape: tuple[int, ...]
    begin: int
    end: int


def bf16_to_float32(raw: np.ndarray) -> np.ndarray:
    """Exact conversion: a bfloat16 is the top half of the float32 with the same value."""
    return (raw.astype(np.uint32) << 16).view(np.float32)


class SafetensorsFile:
    """Header of one ``.safetensors`` file; tensors are read on demand."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            size = self.path.stat().st_size
            with open(self.path, "rb") as fh:
                head = fh.read(8)
                if len(head) < 8:
                    raise InputError(f"{self.path.name}: not a safetensors file (too short)")
                (hlen,) = struct.unpack("<Q", head)
                if hlen == 0 or hlen > MAX_HEADER or 8 + hlen > size:
                    raise InputError(f"{self.path.name}: not a safetensors file (bad header length)")
                header_bytes = fh.read(hlen)
        except OSError as exc:
            raise InputError(f"{self.path.name}: cannot read ({exc.strerror})") from None
        try:
            text = header_bytes.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{self.path.name}: not a safetensors file (header is not UTF-8)") from None
        try:
            header = strict_loads(text, exact=False)
        except InputError as exc:
            raise InputError(f"{self.path.name}: not a safetensors file (header: {exc})") from None
        if not isinstance(header, dict):
            raise InputError(f"{self.path.name}: not a safetensors file (header is not an object)")
        self.data_start = 8 + hlen
        self.data_size = size - self.data_start
        metadata = header.pop("__metadata__", None)
        if metadata is None:
            metadata = {}
        if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
            raise InputError(f"{self.path.name}: malformed header (__metadata__ must map strings to strings)")
        self.metadata: dict[str, str] = metadata
        self.tensors: dict[str, TensorInfo] = {}
        for name, spec in header.items():
            self.tensors[name] = self._info(name, spec)

    def _info(self, name: str, spec: object) -> TensorInfo:
        def bad(what: str) -> InputError:
            return InputError(f"{self.path.name}: malformed header entry for tensor {name!r:.60}: {what}")

        if not isinstance(spec, dict):
            raise bad("not an object")
        extra = set(spec) - {"dtype", "shape", "data_offsets"}
        if extra:
            raise bad(f"unexpected field {sorted(extra)[0]!r:.30}")
        dtype, shape, offs = spec.get("dtype"), spec.get("shape"), spec.get("data_offsets")
        if not isinstance(dtype, str) or not dtype or len(dtype) > 16:
            raise bad('"dtype" must be a short string such as "F32"')
        if not (isinstance(shape, list) and len(shape) <= MAX_DIMS and all(map(_is_count, shape))):
            raise bad('"shape" must be a list of non-negative integers')
        if not (isinstance(offs, list) and len(offs) == 2 and _is_count(offs[0]) and _is_count(offs[1])):
            raise bad('"data_offsets" must be two non-negative integers')
        begin, end = offs
        if not begin <= end:
            raise bad('"data_offsets" must be increasing')
        if end > self.data_size:
            raise InputError(f"{self.path.name}: tensor data outside the file (truncated?)")
        if dtype in DTYPES and end - begin != prod(shape) * DTYPES[dtype][1]:
            raise InputError(f"{self.path.name}: tensor {name!r:.60}: size does not match its shape")
        return TensorInfo(name, dtype, tuple(shape), begin, end)

    def names(self) -> list[str]:
        return list(self.tensors)

    def array(self, name: str) -> np.ndarray:
        """The tensor as a numpy array (memory-mapped; bfloat16 converted exactly to float32)."""
        info = self.tensors[name]
        if info.dtype not in DTYPES:
            raise InputError(f"{self.path.name}: tensor {name!r:.60} has unsupported dtype {info.dtype!r:.20}")
        np_dtype, _ = DTYPES[info.dtype]
        count = prod(info.shape)
        if count == 0:
            return np.zeros(info.shape, dtype=np_dtype)
        raw = np.memmap(
            self.path, dtype=np_dtype, mode="r", offset=self.data_start + info.begin, shape=(count,)
        ).reshape(info.shape)
        if info.dtype == "BF16":
            return bf16_to_float32(np.asarray(raw))
        return raw
