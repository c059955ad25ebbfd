"""Write PyTorch checkpoints (``torch.save`` layouts: zip and legacy) without torch, for tests.

The pickle is assembled opcode by opcode, as torch writes it: an OrderedDict whose
values are ``torch._utils._rebuild_tensor_v2(persistent storage, offset, size, stride,
False, OrderedDict())``, storages in ``archive/data/<key>``.
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

import numpy as np

STORAGE_OF = {
    np.dtype("float32"): "FloatStorage",
    np.dtype("float64"): "DoubleStorage",
    np.dtype("float16"): "HalfStorage",
    np.dtype("int64"): "LongStorage",
}


def _str(s: str) -> bytes:
    b = s.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def _int(i: int) -> bytes:
    return b"J" + struct.pack("<i", i)


def _global(module: str, name: str) -> bytes:
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def _tuple(items: list[bytes]) -> bytes:
    return b"(" + b"".join(items) + b"t"


def tensor_pickle(key: str, storage: str, numel: int, offset: int, size: tuple, stride: tuple) -> bytes:
    pid = _tuple([_str("storage"), _global("torch", storage), _str(key), _str("cpu"), _int(numel)]) + b"Q"
    hooks = _global("collections", "OrderedDict") + b")R"
    args = _tuple([pid, _int(offset), _tuple([_int(s) for s in size]), _tuple([_int(s) for s in stride]),
                   b"\x89", hooks])
    return _global("torch._utils", "_rebuild_tensor_v2") + args + b"R"


def state_dict_pickle(entries: list[tuple[str, bytes]]) -> bytes:
    body = b"".join(_str(name) + expr for name, expr in entries)
    return b"\x80\x02" + _global("collections", "OrderedDict") + b")R" + b"(" + body + b"u."


def write_torch_bin(path: Path, tensors: dict[str, np.ndarray], *, bf16: dict[str, tuple] | None = None,
                    transposed_views: tuple[str, ...] = ()) -> None:
    """``tensors`` as ``torch.save(state_dict)`` would write them (float32/64/16, int64).

    ``bf16``: name -> (shape, uint16 bit patterns) stored as BFloat16Storage.
    ``transposed_views``: names stored as the transpose of a contiguous storage
    (stride (1, rows)), as ``W.t()`` would be saved.
    """
    entries: list[tuple[str, bytes]] = []
    blobs: dict[str, bytes] = {}
    for k, (name, arr) in enumerate(tensors.items()):
        key = str(k)
        arr = np.asarray(arr)
        if name in transposed_views and arr.ndim == 2:
            base = np.ascontiguousarray(arr.T)
            size, stride = arr.shape, (1, arr.shape[0])
        else:
            base = np.ascontiguousarray(arr)
            size = arr.shape
            stride = tuple(int(s // arr.itemsize) for s in base.strides)
        blobs[key] = base.astype(base.dtype.newbyteorder("<")).tobytes()
        entries.append((name, tensor_pickle(key, STORAGE_OF[arr.dtype], base.size, 0, size, stride)))
    for j, (name, (shape, bits)) in enumerate((bf16 or {}).items()):
        key = f"b{j}"
        blobs[key] = np.array(bits, dtype="<u2").tobytes()
        stride = tuple(int(np.prod(shape[i + 1:])) for i in range(len(shape)))
        entries.append((name, tensor_pickle(key, "BFloat16Storage", len(bits), 0, tuple(shape), stride)))
    write_torch_archive(path, state_dict_pickle(entries), blobs)


def write_torch_archive(path: Path, data_pkl: bytes, blobs: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as zf:
        zf.writestr("archive/data.pkl", data_pkl)
        zf.writestr("archive/byteorder", "little")
        for key, blob in blobs.items():
            zf.writestr(f"archive/data/{key}", blob)
        zf.writestr("archive/version", "3\n")


LEGACY_MAGIC = 0x1950A86A20F9469CFC6C


def legacy_tensor_pickle(key: str, storage: str, numel: int, offset: int, size: tuple, stride: tuple,
                         view: tuple | None = None) -> bytes:
    """A tensor as the legacy format pickles it: the persistent id has a sixth field,
    ``None`` or ``(view_key, offset, view_size)``."""
    view_b = b"N" if view is None else _tuple([_str(view[0]), _int(view[1]), _int(view[2])])
    pid = _tuple([_str("storage"), _global("torch", storage), _str(key), _str("cpu"), _int(numel), view_b]) + b"Q"
    hooks = _global("collections", "OrderedDict") + b")R"
    args = _tuple([pid, _int(offset), _tuple([_int(s) for s in size]), _tuple([_int(s) for s in stride]),
                   b"\x89", hooks])
    return _global("torch._utils", "_rebuild_tensor_v2") + args + b"R"


def legacy_preamble(little_endian: bool = True) -> bytes:
    """The three pickles before the state dict: magic number, protocol version, system info."""
    import pickle

    sys_info = {"protocol_version": 1001, "little_endian": little_endian,
                "type_sizes": {"short": 2, "int": 4, "long": 8}}
    return b"".join(pickle.dumps(x, protocol=2) for x in (LEGACY_MAGIC, 1001, sys_info))


def write_legacy_archive(path: Path, state_pkl: bytes, storages: dict[str, tuple[int, bytes]],
                         keys: list[str] | None = None) -> None:
    """``_legacy_save``'s layout: preamble, state-dict pickle, sorted storage keys, then each
    storage as an 8-byte little-endian element count and its bytes. ``storages``: key ->
    (element count, raw bytes)."""
    import pickle

    keys = sorted(storages) if keys is None else keys
    body = b"".join(struct.pack("<q", storages[k][0]) + storages[k][1] for k in keys)
    path.write_bytes(legacy_preamble() + state_pkl + pickle.dumps(keys, protocol=2) + body)


def write_legacy_torch_bin(path: Path, tensors: dict[str, np.ndarray], *,
                           transposed_views: tuple[str, ...] = ()) -> None:
    """``tensors`` as ``torch.save(state_dict, _use_new_zipfile_serialization=False)`` writes them."""
    entries: list[tuple[str, bytes]] = []
    storages: dict[str, tuple[int, bytes]] = {}
    for k, (name, arr) in enumerate(tensors.items()):
        key = str(1000 + k)
        arr = np.asarray(arr)
        if name in transposed_views and arr.ndim == 2:
            base = np.ascontiguousarray(arr.T)
            size, stride = arr.shape, (1, arr.shape[0])
        else:
            base = np.ascontiguousarray(arr)
            size = arr.shape
            stride = tuple(int(s // arr.itemsize) for s in base.strides)
        storages[key] = (base.size, base.astype(base.dtype.newbyteorder("<")).tobytes())
        entries.append((name, legacy_tensor_pickle(key, STORAGE_OF[arr.dtype], base.size, 0, size, stride)))
    write_legacy_archive(path, state_dict_pickle(entries), storages)
