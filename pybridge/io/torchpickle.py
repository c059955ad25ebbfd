"""The pickles inside PyTorch checkpoints, read without torch by a restricted unpickler.

A state dict is pickled with every tensor as ``torch._utils._rebuild_tensor_v2(storage,
offset, size, stride, requires_grad, hooks)`` and every storage as a persistent id:
``("storage", torch.FloatStorage, key, location, numel)`` in the zip format (torch >=
1.6), ``(..., numel, view_metadata)`` in the legacy format, where ``view_metadata`` is
``None`` or ``(view_key, offset, view_size)`` (a window of the root storage, in elements).

Unpickling runs code named by the pickle. :meth:`RestrictedUnpickler.find_class`
resolves only the names in :data:`ALLOWED` to inert stand-ins (a tensor stub that
records offset/size/stride, a storage-type tag, ``OrderedDict``); any other global
(``os.system``, ``builtins.eval``, ``subprocess.Popen``, ...) is refused before anything
is called. Nothing from torch is imported or executed.

Bounds (every expansion is bounded before it happens):

- a pickle is at most :data:`MAX_PICKLE_BYTES` (4 MiB); each opcode byte builds at most
  one Python object (an empty dict and its list slot: ~90 bytes), so unpickling stays
  under ~400 MB whatever the pickle;
- :func:`flatten_tensors` walks each dictionary once (a pickle may reference one
  dictionary from many places: the tree it spells can be exponentially larger than the
  pickle, and is refused), names are at most :data:`MAX_NAME_CHARS` characters and
  :data:`MAX_NAME_TOTAL` characters together, and two paths spelling the same dotted
  name are an error (never one silently replacing the other);
- offsets, sizes, strides and element counts are below 2**62 and a tensor lies inside
  its storage (checked again after unpickling: pickle's BUILD opcode can rewrite an
  object's fields after it was built).
"""

from __future__ import annotations

import collections
import io
import pickle
from dataclasses import dataclass
from math import prod
from typing import Any, Optional, cast

import numpy as np

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
#: A state dict's pickle takes ~100-200 bytes per tensor, so 4 MiB holds 20,000-40,000
#: tensors (one file of Llama-3-405B holds a few hundred). A crafted pickle of one-byte
#: container opcodes builds ~90 bytes of Python objects per byte: measured 725 MB peak
#: for 8 MiB, so this limit keeps unpickling under ~400 MB.
MAX_PICKLE_BYTES = 4 * 1024 * 1024
MAX_DIMS = 8
MAX_DEPTH = 8
MAX_COUNT = 2**62
MAX_NAME_CHARS = 1024
MAX_NAME_TOTAL = 64 * 1024 * 1024


@dataclass(frozen=True)
class StorageType:
    """Stand-in for ``torch.FloatStorage`` etc.: only its name is kept."""

    name: str


@dataclass(frozen=True)
class StorageRef:
    """A storage ``key`` of ``numel`` elements; a tensor uses the window of ``length``
    elements from ``start`` (the whole storage unless a legacy view says otherwise)."""

    type: StorageType
    key: str
    numel: int
    start: int = 0
    length: Optional[int] = None

    @property
    def window(self) -> int:
        return self.numel - self.start if self.length is None else self.length


@dataclass(frozen=True)
class TensorStub:
    """What ``_rebuild_tensor_v2`` would build: a strided view of a storage."""

    storage: StorageRef
    offset: int
    size: tuple[int, ...]
    stride: tuple[int, ...]


def _count(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < MAX_COUNT


def _rebuild_tensor_v2(storage: object, offset: object, size: object, stride: object, *rest: object) -> TensorStub:
    if not isinstance(storage, StorageRef):
        raise pickle.UnpicklingError("tensor without a storage")
    if not (_count(offset) and isinstance(size, tuple) and isinstance(stride, tuple)
            and len(size) == len(stride) <= MAX_DIMS and all(map(_count, size)) and all(map(_count, stride))):
        raise pickle.UnpicklingError("malformed tensor (offset, size or stride)")
    if prod(size) >= MAX_COUNT:
        raise pickle.UnpicklingError("malformed tensor (too many elements)")
    if prod(size) and offset + sum((s - 1) * st for s, st in zip(size, stride)) >= storage.window:
        raise pickle.UnpicklingError("tensor reaches outside its storage")
    return TensorStub(storage, cast(int, offset), tuple(size), tuple(stride))


def revalidated(stub: object) -> TensorStub:
    """A fresh, checked copy of a stub (nothing built during unpickling is trusted as is)."""
    if not isinstance(stub, TensorStub):
        raise pickle.UnpicklingError("malformed tensor")
    ref = stub.storage
    if not (isinstance(ref, StorageRef) and isinstance(ref.type, StorageType)
            and isinstance(ref.type.name, str) and ref.type.name in STORAGES
            and isinstance(ref.key, str) and _count(ref.numel) and _count(ref.start)
            and (ref.length is None or _count(ref.length))):
        raise pickle.UnpicklingError("malformed tensor storage")
    clean = StorageRef(StorageType(ref.type.name), ref.key, ref.numel, ref.start, ref.length)
    if clean.start + clean.window > clean.numel:
        raise pickle.UnpicklingError("storage view reaches outside its storage")
    return _rebuild_tensor_v2(clean, stub.offset, stub.size, stub.stride)


def _rebuild_parameter(data: object, requires_grad: object = False, hooks: object = None, *rest: object) -> object:
    if not isinstance(data, TensorStub):
        raise pickle.UnpicklingError("parameter without a tensor")
    return data


#: (module, name) -> the inert object the pickle gets instead (and ``torch.<X>Storage``
#: for the storages of :data:`STORAGES`, a fresh :class:`StorageType` each time).
#: ``_rebuild_tensor`` is the name torch < 0.4 wrote (the same arguments, no hooks).
ALLOWED: dict[tuple[str, str], Any] = {
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
    ("torch._utils", "_rebuild_tensor"): _rebuild_tensor_v2,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    ("collections", "OrderedDict"): collections.OrderedDict,
}


def _text(x: object) -> bool:
    return isinstance(x, str) and len(x) <= MAX_NAME_CHARS


class RestrictedUnpickler(pickle.Unpickler):
    """Resolves only :data:`ALLOWED` globals; storages become :class:`StorageRef`.

    ``legacy``: persistent ids carry a sixth field, the view metadata (legacy format).
    """

    def __init__(self, file: io.BytesIO, *, legacy: bool = False) -> None:
        super().__init__(file)
        self.legacy = legacy
        #: every storage the pickle declared, by key (fresh objects the pickle cannot reach)
        self.roots: dict[str, StorageRef] = {}

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
        fields = 6 if self.legacy else 5
        if not (isinstance(pid, tuple) and len(pid) == fields and pid[0] == "storage"
                and isinstance(pid[1], StorageType) and _text(pid[2]) and _count(pid[4])):
            raise pickle.UnpicklingError("unexpected persistent id (not a tensor storage)")
        type_name = pid[1].name
        if not (isinstance(type_name, str) and type_name in STORAGES):
            raise pickle.UnpicklingError("unexpected persistent id (not a tensor storage)")
        root = StorageRef(StorageType(type_name), pid[2], pid[4])
        if self.roots.setdefault(root.key, root) != root:
            raise pickle.UnpicklingError(f"storage {root.key!r:.20} is declared twice with different types or sizes")
        if not self.legacy or pid[5] is None:
            return StorageRef(pid[1], pid[2], pid[4])
        view = pid[5]
        if not (isinstance(view, tuple) and len(view) == 3 and _text(view[0])
                and _count(view[1]) and _count(view[2]) and view[1] + view[2] <= pid[4]):
            raise pickle.UnpicklingError("malformed storage view")
        return StorageRef(pid[1], pid[2], pid[4], view[1], view[2])


def restricted_loads(data: bytes) -> Any:
    """Unpickle ``data`` with :class:`RestrictedUnpickler` (raises ``pickle.UnpicklingError``)."""
    if len(data) > MAX_PICKLE_BYTES:
        raise pickle.UnpicklingError(f"pickle of {len(data)} bytes is over the limit of {MAX_PICKLE_BYTES}")
    return RestrictedUnpickler(io.BytesIO(data)).load()


class FlattenError(ValueError):
    """The pickled object does not spell a state dict within the bounds."""


def flatten_tensors(obj: Any) -> dict[str, TensorStub]:
    """Tensors of a (possibly nested, e.g. ``{"state_dict": ...}``) dict, by dotted name,
    each re-validated. Raises :class:`FlattenError` for a dictionary reached twice, a
    name too long, two tensors with one name, or a malformed tensor."""
    out: dict[str, TensorStub] = {}
    seen: set[int] = set()
    total = 0

    def walk(node: Any, prefix: str, depth: int) -> None:
        nonlocal total
        if isinstance(node, TensorStub):
            if prefix in out:
                raise FlattenError(f"two tensors are named {prefix!r:.80}")
            total += len(prefix)
            if total > MAX_NAME_TOTAL:
                raise FlattenError(f"tensor names add up to over {MAX_NAME_TOTAL} characters")
            try:
                out[prefix] = revalidated(node)
            except pickle.UnpicklingError as exc:
                raise FlattenError(str(exc)) from None
        elif isinstance(node, dict) and depth <= MAX_DEPTH:
            if id(node) in seen:
                raise FlattenError(f"one dictionary is reached twice (again under {prefix!r:.80}): "
                                   "a pickle whose tree fans out is refused")
            seen.add(id(node))
            for key, value in node.items():
                if isinstance(key, str):
                    name = f"{prefix}.{key}" if prefix else key
                    if len(name) > MAX_NAME_CHARS:
                        raise FlattenError(f"a tensor name is longer than {MAX_NAME_CHARS} characters")
                    walk(value, name, depth + 1)

    walk(obj, "", 0)
    return out
