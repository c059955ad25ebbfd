"""``pytorch_model.bin`` read without torch, in both of PyTorch's formats.

- The zip format (``torch.save`` since 1.6): ``<root>/data.pkl`` is the pickled state
  dict; the bytes of storage ``key`` are the zip member ``<root>/data/<key>``.
- The legacy format (before 1.6, still common among older Hugging Face checkpoints):
  five pickles one after the other (the magic number ``0x1950a86a20f9469cfc6c``, the
  protocol version 1001, a dict of system information, the state dict, the sorted list
  of storage keys), then each storage in the order of that list as an 8-byte
  little-endian element count followed by its raw bytes.

The pickles are read by :class:`~pybridge.io.torchpickle.RestrictedUnpickler` (no code
runs). Every storage is located and checked when the file is opened, before any data is
read: it exists, its size is what the pickle declares, it lies inside the file, and a
compressed zip member (``torch.save`` never compresses) inflates to at most
:data:`MAX_INFLATED_BYTES`; a tensor then reads only the part of its storage it spans
(uncompressed storages are memory-mapped). Errors are one-line
:class:`~pybridge.errors.InputError` naming the file with its folder.

:class:`TorchFile` has the interface of :class:`~.safetensors_file.SafetensorsFile`
(``tensors`` with shapes, ``names()``, ``array(name)``), so checkpoints treat both alike.
"""

from __future__ import annotations

import io
import pickle
import struct
import tarfile
import zipfile
from dataclasses import dataclass
from math import prod
from pathlib import Path
from typing import Any, Optional

import numpy as np

from pybridge.errors import InputError
from pybridge.io.torchpickle import (
    MAX_PICKLE_BYTES,
    STORAGES,
    FlattenError,
    RestrictedUnpickler,
    StorageRef,
    TensorStub,
    flatten_tensors,
    restricted_loads,
)

#: A compressed storage is inflated into memory; beyond this many bytes it is refused.
MAX_INFLATED_BYTES = 256 * 1024 * 1024
LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
LEGACY_PROTOCOL = 1001
RESAVE = "load it with torch and save it again with torch.save (or convert it to .safetensors)"

__all__ = ["TorchFile", "TorchTensorInfo", "restricted_loads", "MAX_INFLATED_BYTES"]


@dataclass(frozen=True)
class TorchTensorInfo:
    name: str
    dtype: str
    shape: tuple[int, ...]
    stub: TensorStub


@dataclass(frozen=True)
class StorageSpan:
    """Where a storage's bytes are: at ``offset`` in the file (uncompressed), or in the
    compressed zip member ``member``."""

    numel: int
    dtype: np.dtype
    offset: int = -1
    member: Optional[zipfile.ZipInfo] = None


_UNPICKLE_ERRORS = (EOFError, ValueError, TypeError, AttributeError, IndexError, KeyError, struct.error,
                    RecursionError, MemoryError, OverflowError, UnicodeDecodeError)


class TorchFile:
    """Tensor index of one ``pytorch_model.bin`` (zip or legacy format); arrays read on demand."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.where = str(self.path)
        self._zip: Optional[zipfile.ZipFile] = None
        self._legacy_keys: list[str] = []
        self._legacy_roots: dict[str, StorageRef] = {}
        self._legacy_data = 0
        try:
            self.size = self.path.stat().st_size
            if zipfile.is_zipfile(self.path):
                obj = self._open_zip()
            else:
                obj = self._open_legacy()
        except InputError:
            raise
        except pickle.UnpicklingError as exc:
            raise InputError(f"{self.where}: {exc}") from None
        except (OSError, zipfile.BadZipFile, tarfile.TarError, NotImplementedError, RuntimeError) + \
                _UNPICKLE_ERRORS as exc:
            raise InputError(f"{self.where}: unreadable PyTorch checkpoint ({type(exc).__name__})") from None
        try:
            stubs = flatten_tensors(obj)
        except FlattenError as exc:
            raise InputError(f"{self.where}: {exc}") from None
        self.tensors: dict[str, TorchTensorInfo] = {
            k: TorchTensorInfo(k, STORAGES[s.storage.type.name][1], s.size, s) for k, s in stubs.items()
        }
        self._spans = self._locate(stubs)
        self.metadata: dict[str, str] = {}

    # ---------------------------------------------------------------- formats

    def _open_zip(self) -> Any:
        self._zip = zipfile.ZipFile(self.path)
        pkl = [i for i in self._zip.infolist() if i.filename.count("/") == 1 and i.filename.endswith("/data.pkl")]
        if len(pkl) != 1:
            raise InputError(f"{self.where}: not a PyTorch checkpoint (no single <root>/data.pkl)")
        self.root = pkl[0].filename[: -len("data.pkl")]
        if pkl[0].file_size > MAX_PICKLE_BYTES:
            raise InputError(f"{self.where}: data.pkl of {pkl[0].file_size} bytes is over the limit "
                             f"of {MAX_PICKLE_BYTES} bytes")
        order = self._member(self.root + "byteorder")
        if order is not None and self._zip.read(order).strip() not in (b"little", b""):
            raise InputError(f"{self.where}: big-endian PyTorch checkpoints are not supported")
        data = self._zip.read(pkl[0])
        try:
            return restricted_loads(data)
        except _UNPICKLE_ERRORS as exc:
            raise InputError(f"{self.where}: malformed pickle in data.pkl ({type(exc).__name__})") from None

    def _open_legacy(self) -> Any:
        with open(self.path, "rb") as fh:
            head = fh.read(MAX_PICKLE_BYTES)
        if not head.startswith(b"\x80"):
            if tarfile.is_tarfile(self.path):
                raise InputError(f"{self.where}: tar-format PyTorch checkpoint (torch < 0.4) is not supported; "
                                 f"{RESAVE}")
            raise InputError(f"{self.where}: not a PyTorch checkpoint (neither a zip archive nor a pickle)")
        buf = io.BytesIO(head)

        def plain() -> Any:
            return RestrictedUnpickler(buf).load()

        try:
            magic = plain()
            protocol = plain() if magic == LEGACY_MAGIC else None
            sys_info = plain() if protocol == LEGACY_PROTOCOL else None
            if isinstance(sys_info, dict) and sys_info.get("little_endian") is not False:
                unpickler = RestrictedUnpickler(buf, legacy=True)
                obj = unpickler.load()
                keys = plain()
        except pickle.UnpicklingError as exc:
            raise InputError(f"{self.where}: {exc} (legacy PyTorch format)") from None
        except _UNPICKLE_ERRORS as exc:
            what = "pickles over the limit" if len(head) == MAX_PICKLE_BYTES else "malformed pickle"
            raise InputError(f"{self.where}: legacy PyTorch format: {what} ({type(exc).__name__}); "
                             f"{RESAVE}") from None
        if magic != LEGACY_MAGIC:
            raise InputError(f"{self.where}: a pickle, not a PyTorch checkpoint (no torch.save magic number); "
                             "only tensor files written by torch.save are read")
        if protocol != LEGACY_PROTOCOL:
            raise InputError(f"{self.where}: legacy PyTorch checkpoint of an unknown protocol version")
        if not isinstance(sys_info, dict):
            raise InputError(f"{self.where}: legacy PyTorch format: malformed system information")
        if sys_info.get("little_endian") is False:
            raise InputError(f"{self.where}: big-endian PyTorch checkpoints are not supported")
        if not (isinstance(keys, list) and all(isinstance(k, str) for k in keys)) or len(set(keys)) != len(keys):
            raise InputError(f"{self.where}: legacy PyTorch format: malformed list of storage keys")
        self._legacy_keys = keys
        self._legacy_roots = unpickler.roots
        self._legacy_data = buf.tell()
        return obj

    # ---------------------------------------------------------------- storages

    def _member(self, filename: str) -> Optional[zipfile.ZipInfo]:
        assert self._zip is not None
        try:
            return self._zip.getinfo(filename)
        except KeyError:
            return None

    def _roots(self, stubs: dict[str, TensorStub]) -> dict[str, StorageRef]:
        """One declaration per storage key; two that disagree are an error."""
        roots: dict[str, StorageRef] = {}
        for stub in stubs.values():
            ref = StorageRef(stub.storage.type, stub.storage.key, stub.storage.numel)
            first = roots.setdefault(ref.key, ref)
            if first != ref:
                raise InputError(f"{self.where}: storage {ref.key!r:.20} is declared twice with different "
                                 "types or sizes")
        return roots

    def _locate(self, stubs: dict[str, TensorStub]) -> dict[str, StorageSpan]:
        """Every storage a tensor uses, located and checked (nothing read but headers)."""
        roots = self._roots(stubs)
        if self._zip is None:
            spans = self._legacy_spans()
            absent = sorted(set(roots) - set(spans))
            if absent:
                raise InputError(f"{self.where}: storage {absent[0]!r:.20} has no data in the file")
            return spans
        spans = {}
        with open(self.path, "rb") as fh:
            for key, ref in roots.items():
                spans[key] = self._zip_span(fh, key, ref)
        return spans

    def _legacy_spans(self) -> dict[str, StorageSpan]:
        """The storages after the pickles, in the order of the key list: each an 8-byte
        little-endian element count (checked against the pickle) and its bytes."""
        spans: dict[str, StorageSpan] = {}
        offset = self._legacy_data
        with open(self.path, "rb") as fh:
            for key in self._legacy_keys:
                fh.seek(offset)
                raw = fh.read(8)
                if len(raw) < 8:
                    raise InputError(f"{self.where}: storage {key!r:.20} is beyond the end of the file (truncated?)")
                (numel,) = struct.unpack("<q", raw)
                ref = self._legacy_roots.get(key)
                if ref is None:
                    raise InputError(f"{self.where}: storage key {key!r:.20} is not declared by the pickle")
                dtype = STORAGES[ref.type.name][0]
                if numel != ref.numel:
                    raise InputError(f"{self.where}: storage {key!r:.20} holds {numel} elements, "
                                     f"the pickle declares {ref.numel}")
                end = offset + 8 + numel * dtype.itemsize
                if end > self.size:
                    raise InputError(f"{self.where}: storage {key!r:.20} ({numel * dtype.itemsize} bytes) "
                                     "reaches beyond the end of the file (truncated?)")
                spans[key] = StorageSpan(numel, dtype, offset=offset + 8)
                offset = end
        return spans

    def _zip_span(self, fh: Any, key: str, ref: StorageRef) -> StorageSpan:
        """Where the zip member of storage ``key`` is, checked against the pickle and the file."""
        dtype = STORAGES[ref.type.name][0]
        info = self._member(f"{self.root}data/{key}")
        if info is None:
            raise InputError(f"{self.where}: storage {key!r:.20} is missing from the archive")
        nbytes = ref.numel * dtype.itemsize
        if info.file_size != nbytes:
            raise InputError(f"{self.where}: storage {key!r:.20} has the wrong size "
                             f"({info.file_size} bytes, the pickle declares {nbytes})")
        if info.compress_type != zipfile.ZIP_STORED:
            if nbytes > MAX_INFLATED_BYTES:
                raise InputError(f"{self.where}: storage {key!r:.20} is compressed and would inflate to "
                                 f"{nbytes} bytes, over the limit of {MAX_INFLATED_BYTES} "
                                 f"(torch.save writes storages uncompressed: {RESAVE})")
            return StorageSpan(ref.numel, dtype, member=info)
        fh.seek(info.header_offset)
        local = fh.read(30)
        if len(local) < 30 or local[:4] != b"PK\x03\x04":
            raise InputError(f"{self.where}: storage {key!r:.20}: malformed zip entry")
        name_len, extra_len = struct.unpack("<HH", local[26:30])
        start = info.header_offset + 30 + name_len + extra_len
        if start + nbytes > self.size:
            raise InputError(f"{self.where}: storage {key!r:.20} ({nbytes} bytes) reaches beyond the end "
                             "of the file (truncated?)")
        return StorageSpan(ref.numel, dtype, offset=start)

    def names(self) -> list[str]:
        return list(self.tensors)

    def _elements(self, span: StorageSpan, count: int) -> np.ndarray:
        """The first ``count`` elements of a storage (memory-mapped unless compressed)."""
        if span.member is None:
            return np.memmap(self.path, dtype=span.dtype, mode="r", offset=span.offset, shape=(count,))
        assert self._zip is not None
        with self._zip.open(span.member) as fh:
            raw = fh.read(count * span.dtype.itemsize)
        return np.frombuffer(raw, dtype=span.dtype, count=count)

    def array(self, name: str) -> np.ndarray:
        """The tensor as a numpy array (bfloat16 converted exactly to float32)."""
        from pybridge.io.safetensors_file import bf16_to_float32

        stub = self.tensors[name].stub
        np_dtype, tag = STORAGES[stub.storage.type.name]
        if tag == "BOOL":
            raise InputError(f"{self.where}: tensor {name!r:.60} is boolean")
        if not prod(stub.size):
            return np.zeros(stub.size, dtype=np_dtype if tag != "BF16" else np.float32)
        span = self._spans[stub.storage.key]
        first = stub.storage.start + stub.offset
        reach = first + sum((s - 1) * st for s, st in zip(stub.size, stub.stride)) + 1
        try:
            storage = self._elements(span, reach)
        except (OSError, zipfile.BadZipFile, ValueError, EOFError, NotImplementedError, RuntimeError) as exc:
            raise InputError(f"{self.where}: unreadable tensor {name!r:.60} ({type(exc).__name__})") from None
        if len(storage) < reach:
            raise InputError(f"{self.where}: tensor {name!r:.60}: its storage is shorter than declared")
        item = np_dtype.itemsize
        arr = np.lib.stride_tricks.as_strided(
            storage[first:], shape=stub.size, strides=tuple(s * item for s in stub.stride), writeable=False
        )
        if tag == "BF16":
            return bf16_to_float32(np.asarray(arr))
        return arr
