"""``pytorch_model.bin`` read without torch, by a restricted unpickler.

PyTorch's zip format (``torch.save`` since 1.6): ``<root>/data.pkl`` is a pickle of
the state dict in which every tensor is ``torch._utils._rebuild_tensor_v2(storage,
offset, size, stride, requires_grad, hooks)`` and every storage a persistent id
``("storage", torch.FloatStorage, key, location, numel)`` whose bytes are the zip
member ``<root>/data/<key>``.

Unpickling runs code named by the pickle. Here :meth:`RestrictedUnpickler.find_class`
resolves only the names in :data:`ALLOWED` to inert stand-ins (a tensor stub that
records offset/size/stride, a storage-type tag, ``OrderedDict``); any other global
(``os.system``, ``builtins.eval``, ``subprocess.Popen``, ...) is refused with an
:class:`~pybridge.errors.InputError` before anything is called. Nothing from torch
is imported or executed. The legacy (pre-1.6, non-zip) format is refused.

:class:`TorchFile` has the interface of :class:`~.safetensors_file.SafetensorsFile`
(``tensors`` with shapes, ``names()``, ``array(name)``), so checkpoints treat both alike.
"""

from __future__ import annotations

import collections
import io
import pickle
import struct
import zipfile
from dataclasses import dataclass
from math import prod
from pathlib import Path
from typing import Any, cast

import numpy as np

from pybridge.errors import InputError

#: Storage classes -> (numpy dtype, safetensors-style dtype name). BFloat16 is read as
#: uint16 bit patterns and converted exactly to float32 (as for safetensors).
STORAGES: dict[str, tuple[np.dtype, str]] = {
    "DoubleStorage": (np.dtype("<f8"), "F64"),
    "FloatStorage": (np.dtype("<f4"), "F32"),
    "HalfStorage": (np.dtype("<f2"), "F16"),
    "BFloat16Storage": (np.dtype("<u2"), "BF16"),
    "LongStorage": (np.dtype("<i8"), "I64"),
    "IntStorage": (np.dtype("<i4"), "I32"),
    "ShortStorage": (np.dtype("<i2"), "I16"),
    "CharStorage": (np.dtype("i1"), "I8"),
    "ByteStorage": (np.dtype("u1"), "U8"),
    "BoolStorage": (np.dtype("?"), "BOOL"),
}
MAX_PICKLE_BYTES = 64 * 1024 * 1024
MAX_DIMS = 8


@dataclass(frozen=True)
class StorageType:
    """Stand-in for ``torch.FloatStorage`` etc.: only its name is kept."""

    name: str


@dataclass(frozen=True)
class StorageRef:
    """A persistent id ``("storage", type, key, location, numel)``."""

    type: StorageType
    key: str
    numel: int


@dataclass(frozen=True)
class TensorStub:
    """What ``_rebuild_tensor_v2`` would build: a strided view of a storage."""

    storage: StorageRef
    offset: int
    size: tuple[int, ...]
    stride: tuple[int, ...]


def _count(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def _rebuild_tensor_v2(storage: object, offset: object, size: object, stride: object, *rest: object) -> TensorStub:
    if not isinstance(storage, StorageRef):
        raise pickle.UnpicklingError("tensor without a storage")
    if not (_count(offset) and isinstance(size, tuple) and isinstance(stride, tuple)
            and len(size) == len(stride) <= MAX_DIMS and all(map(_count, size)) and all(map(_count, stride))):
        raise pickle.UnpicklingError("malformed tensor (offset, size or stride)")
    if prod(size) and offset + sum((s - 1) * st for s, st in zip(size, stride)) >= storage.numel:
        raise pickle.UnpicklingError("tensor reaches outside its storage")
    return TensorStub(storage, cast(int, offset), tuple(size), tuple(stride))


def _revalidated(stub: object) -> TensorStub:
    """A fresh, checked copy of a stub: pickle's BUILD opcode can rewrite an object's
    fields after it was built, so nothing built during unpickling is trusted as is."""
    if not isinstance(stub, TensorStub):
        raise pickle.UnpicklingError("malformed tensor")
    ref = stub.storage
    if not (isinstance(ref, StorageRef) and isinstance(ref.type, StorageType)
            and isinstance(ref.type.name, str) and ref.type.name in STORAGES
            and isinstance(ref.key, str) and _count(ref.numel)):
        raise pickle.UnpicklingError("malformed tensor storage")
    clean = StorageRef(StorageType(ref.type.name), ref.key, ref.numel)
    return _rebuild_tensor_v2(clean, stub.offset, stub.size, stub.stride)


def _rebuild_parameter(data: object, requires_grad: object = False, hooks: object = None, *rest: object) -> object:
    if not isinstance(data, TensorStub):
        raise pickle.UnpicklingError("parameter without a tensor")
    return data


#: (module, name) -> the inert object the pickle gets instead (and ``torch.<X>Storage``
#: for the storages of :data:`STORAGES`, a fresh :class:`StorageType` each time).
ALLOWED: dict[tuple[str, str], Any] = {
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    ("collections", "OrderedDict"): collections.OrderedDict,
}


class RestrictedUnpickler(pickle.Unpickler):
    """Resolves only :data:`ALLOWED` globals; storages become :class:`StorageRef`."""

    def find_class(self, module: str, name: str) -> Any:  # noqa: D401
        if module == "torch" and name in STORAGES:
            return StorageType(name)  # a fresh tag each time: nothing shared is mutable by the pickle
        try:
            return ALLOWED[(module, name)]
        except (KeyError, TypeError):
            raise pickle.UnpicklingError(
                f"refused to load {str(module)[:40]}.{str(name)[:40]} (only tensor data is accepted)"
            ) from None

    def persistent_load(self, pid: Any) -> StorageRef:
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"
                and isinstance(pid[1], StorageType) and isinstance(pid[2], str) and _count(pid[4])):
            raise pickle.UnpicklingError("unexpected persistent id (not a tensor storage)")
        return StorageRef(pid[1], pid[2], pid[4])


def restricted_loads(data: bytes) -> Any:
    """Unpickle ``data`` with :class:`RestrictedUnpickler` (raises ``pickle.UnpicklingError``)."""
    return RestrictedUnpickler(io.BytesIO(data)).load()


@dataclass(frozen=True)
class TorchTensorInfo:
    name: str
    dtype: str
    shape: tuple[int, ...]
    stub: TensorStub


def _flatten(obj: Any, prefix: str, out: dict[str, TensorStub], depth: int = 0) -> None:
    """Tensors of a (possibly nested, e.g. ``{"state_dict": ...}``) dict, dotted names."""
    if depth > 8:
        return
    if isinstance(obj, TensorStub):
        out[prefix] = obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            if isinstance(key, str):
                _flatten(value, f"{prefix}.{key}" if prefix else key, out, depth + 1)


class TorchFile:
    """Tensor index of one ``pytorch_model.bin``; arrays read on demand."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        name = self.path.name
        try:
            if not zipfile.is_zipfile(self.path):
                with open(self.path, "rb") as fh:
                    head = fh.read(2)
                if head[:1] == b"\x80":
                    raise InputError(
                        f"{name}: legacy (pre-1.6) PyTorch format is not supported; "
                        "re-save it with torch.save or convert it to .safetensors"
                    )
                raise InputError(f"{name}: not a PyTorch checkpoint (not a zip archive)")
            self._zip = zipfile.ZipFile(self.path)
            pkl = [i for i in self._zip.infolist() if i.filename.count("/") == 1 and i.filename.endswith("/data.pkl")]
            if len(pkl) != 1:
                raise InputError(f"{name}: not a PyTorch checkpoint (no single <root>/data.pkl)")
            self.root = pkl[0].filename[: -len("data.pkl")]
            if pkl[0].file_size > MAX_PICKLE_BYTES:
                raise InputError(f"{name}: data.pkl of {pkl[0].file_size} bytes is too large")
            order = self._member(self.root + "byteorder")
            if order is not None and self._zip.read(order).strip() not in (b"little", b""):
                raise InputError(f"{name}: big-endian PyTorch checkpoints are not supported")
            data = self._zip.read(pkl[0])
        except InputError:
            raise
        except (OSError, zipfile.BadZipFile, EOFError, NotImplementedError, RuntimeError, ValueError) as exc:
            raise InputError(f"{name}: unreadable PyTorch checkpoint ({type(exc).__name__})") from None
        try:
            obj = restricted_loads(data)
        except pickle.UnpicklingError as exc:
            raise InputError(f"{name}: {exc}") from None
        except (EOFError, ValueError, TypeError, AttributeError, IndexError, KeyError, struct.error,
                RecursionError, MemoryError, OverflowError, UnicodeDecodeError) as exc:
            raise InputError(f"{name}: malformed pickle in data.pkl ({type(exc).__name__})") from None
        stubs: dict[str, TensorStub] = {}
        _flatten(obj, "", stubs)
        try:
            stubs = {k: _revalidated(v) for k, v in stubs.items()}
        except pickle.UnpicklingError as exc:
            raise InputError(f"{name}: {exc}") from None
        self.tensors: dict[str, TorchTensorInfo] = {
            k: TorchTensorInfo(k, STORAGES[s.storage.type.name][1], s.size, s) for k, s in stubs.items()
        }
        self.metadata: dict[str, str] = {}

    def _member(self, filename: str) -> zipfile.ZipInfo | None:
        try:
            return self._zip.getinfo(filename)
        except KeyError:
            return None

    def names(self) -> list[str]:
        return list(self.tensors)

    def _storage(self, ref: StorageRef, np_dtype: np.dtype) -> np.ndarray:
        info = self._member(f"{self.root}data/{ref.key}")
        if info is None:
            raise InputError(f"{self.path.name}: storage {ref.key!r:.20} is missing from the archive")
        if info.file_size != ref.numel * np_dtype.itemsize:
            raise InputError(f"{self.path.name}: storage {ref.key!r:.20} has the wrong size")
        if info.compress_type == zipfile.ZIP_STORED and ref.numel:
            with open(self.path, "rb") as fh:  # memory-map the uncompressed bytes in place
                fh.seek(info.header_offset)
                local = fh.read(30)
            if len(local) == 30 and local[:4] == b"PK\x03\x04":
                name_len, extra_len = struct.unpack("<HH", local[26:30])
                start = info.header_offset + 30 + name_len + extra_len
                return np.memmap(self.path, dtype=np_dtype, mode="r", offset=start, shape=(ref.numel,))
        return np.frombuffer(self._zip.read(info), dtype=np_dtype, count=ref.numel)

    def array(self, name: str) -> np.ndarray:
        """The tensor as a numpy array (bfloat16 converted exactly to float32)."""
        from pybridge.io.safetensors_file import bf16_to_float32

        stub = self.tensors[name].stub
        np_dtype, tag = STORAGES[stub.storage.type.name]
        try:
            storage = self._storage(stub.storage, np_dtype)
        except (OSError, zipfile.BadZipFile, ValueError, EOFError, NotImplementedError, RuntimeError) as exc:
            raise InputError(f"{self.path.name}: unreadable tensor {name!r:.60} ({type(exc).__name__})") from None
        if not prod(stub.size):
            return np.zeros(stub.size, dtype=np_dtype if tag != "BF16" else np.float32)
        item = np_dtype.itemsize
        arr = np.lib.stride_tricks.as_strided(
            storage[stub.offset:], shape=stub.size, strides=tuple(s * item for s in stub.stride), writeable=False
        )
        if tag == "BF16":
            return bf16_to_float32(np.asarray(arr))
        if tag == "BOOL":
            raise InputError(f"{self.path.name}: tensor {name!r:.60} is boolean")
        return arr
