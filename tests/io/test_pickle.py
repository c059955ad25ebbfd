"""pytorch_model.bin without torch: the restricted unpickler reads tensors and refuses code."""

from __future__ import annotations

import os
import pickle
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from torch_format import _global, _str, _tuple, state_dict_pickle, write_torch_archive, write_torch_bin

from pybridge.errors import InputError
from pybridge.io.torchfile import TorchFile, restricted_loads


def test_reads_tensors_exactly(tmp_path: Path) -> None:
    a = np.array([[0.1, -2.0, 3.5], [4.0, 5.0, 6.25]], dtype=np.float32)
    b = np.array([1 / 3, 2.0], dtype=np.float64)
    path = tmp_path / "pytorch_model.bin"
    write_torch_bin(path, {"x.weight": a, "x.bias": b, "t.weight": a}, transposed_views=("t.weight",),
                    bf16={"h.weight": ([1, 2], [0x3DCD, 0xBF80])})
    f = TorchFile(path)
    assert sorted(f.names()) == ["h.weight", "t.weight", "x.bias", "x.weight"]
    assert f.tensors["x.weight"].shape == (2, 3) and f.tensors["x.weight"].dtype == "F32"
    assert np.array_equal(f.array("x.weight"), a)
    assert np.array_equal(f.array("t.weight"), a)  # strided view of the transposed storage
    assert Fraction(float(f.array("x.bias")[0])) == Fraction(1 / 3)
    assert f.array("h.weight").tolist() == [[0.10009765625, -1.0]]


def test_hostile_pickle_refused_without_executing(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    payload = pickle.dumps({"model.weight": Evil()}, protocol=2)
    path = tmp_path / "pytorch_model.bin"
    write_torch_archive(path, payload, {})
    with pytest.raises(InputError, match=r"pytorch_model.bin: refused to load (posix|os)\.system"):
        TorchFile(path)
    assert not marker.exists()
    with pytest.raises(pickle.UnpicklingError, match="refused"):
        restricted_loads(payload)
    assert not marker.exists()


@pytest.mark.parametrize(
    "module,name",
    [("builtins", "eval"), ("builtins", "exec"), ("subprocess", "Popen"), ("torch", "load"),
     ("torch._utils", "_rebuild_from_type_v2"), ("collections", "namedtuple"), ("numpy", "frombuffer")],
)
def test_other_globals_refused(tmp_path: Path, module: str, name: str) -> None:
    payload = b"\x80\x02" + _global(module, name) + _tuple([_str("1+1")]) + b"R."
    with pytest.raises(pickle.UnpicklingError, match="refused"):
        restricted_loads(payload)
    path = tmp_path / "m.bin"
    write_torch_archive(path, payload, {})
    with pytest.raises(InputError, match="refused"):
        TorchFile(path)


@pytest.mark.parametrize(
    "data",
    [b"", b"\x80\x02", b"garbage", state_dict_pickle([])[:-3], b"\x80\x02Q."],
)
def test_malformed_pickles_are_input_errors(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "m.bin"
    write_torch_archive(path, data, {})
    with pytest.raises(InputError):
        TorchFile(path)


def test_legacy_and_non_zip(tmp_path: Path) -> None:
    legacy = tmp_path / "legacy.bin"
    legacy.write_bytes(pickle.dumps(119547037146038801333356, protocol=2))
    with pytest.raises(InputError, match="legacy"):
        TorchFile(legacy)
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"hello")
    with pytest.raises(InputError, match="not a PyTorch checkpoint"):
        TorchFile(junk)


def test_tensor_outside_storage_refused(tmp_path: Path) -> None:
    from torch_format import tensor_pickle

    path = tmp_path / "m.bin"
    data = state_dict_pickle([("w", tensor_pickle("0", "FloatStorage", 4, 0, (3, 3), (3, 1)))])
    write_torch_archive(path, data, {"0": np.zeros(4, dtype="<f4").tobytes()})
    with pytest.raises(InputError, match="outside its storage"):
        TorchFile(path)


def test_storage_size_mismatch(tmp_path: Path) -> None:
    from torch_format import tensor_pickle

    path = tmp_path / "m.bin"
    data = state_dict_pickle([("w", tensor_pickle("0", "FloatStorage", 4, 0, (2, 2), (2, 1)))])
    write_torch_archive(path, data, {"0": np.zeros(3, dtype="<f4").tobytes()})
    f = TorchFile(path)
    with pytest.raises(InputError, match="wrong size"):
        f.array("w")


def test_build_opcode_cannot_rewrite_a_checked_tensor(tmp_path: Path) -> None:
    """BUILD after the rebuild call (setting offset past the storage) is caught on re-validation."""
    from torch_format import tensor_pickle

    evil_state = b"}" + _str("offset") + b"J" + (10**6).to_bytes(4, "little") + b"s" + b"b"
    entry = tensor_pickle("0", "FloatStorage", 4, 0, (2, 2), (2, 1)) + evil_state
    data = state_dict_pickle([("w", entry)])
    path = tmp_path / "m.bin"
    write_torch_archive(path, data, {"0": np.zeros(4, dtype="<f4").tobytes()})
    assert restricted_loads(data)["w"].offset == 10**6  # the BUILD did rewrite the stub...
    with pytest.raises(InputError, match="outside its storage"):  # ...and re-validation catches it
        TorchFile(path)
