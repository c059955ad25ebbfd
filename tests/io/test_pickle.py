"""pytorch_model.bin without torch: the restricted unpickler reads tensors and refuses code."""

from __future__ import annotations

import os
import pickle
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from torch_format import (
    _global,
    _str,
    _tuple,
    legacy_preamble,
    legacy_tensor_pickle,
    state_dict_pickle,
    write_legacy_archive,
    write_legacy_torch_bin,
    write_torch_archive,
    write_torch_bin,
)

from pybridge.errors import InputError
from pybridge.io.torchfile import TorchFile
from pybridge.io.torchpickle import restricted_loads
from pybridge.model import Activation


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


def test_not_torch_files_refused_with_their_folder(tmp_path: Path) -> None:
    plain = tmp_path / "plain.bin"
    plain.write_bytes(pickle.dumps({"a": 1}, protocol=2))
    with pytest.raises(InputError, match=rf"^{re.escape(str(tmp_path))}/plain.bin: a pickle, not a PyTorch checkpoint"):
        TorchFile(plain)
    truncated = tmp_path / "truncated.bin"
    truncated.write_bytes(pickle.dumps(0x1950A86A20F9469CFC6C, protocol=2))  # the magic number alone
    with pytest.raises(InputError, match=rf"^{re.escape(str(tmp_path))}/truncated.bin: legacy PyTorch format: "
                                         "malformed pickle .*torch.save"):
        TorchFile(truncated)
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"hello")
    with pytest.raises(InputError, match=rf"^{re.escape(str(tmp_path))}/junk.bin: not a PyTorch checkpoint"):
        TorchFile(junk)
    import tarfile

    old = tmp_path / "old.bin"
    with tarfile.open(old, "w") as tar:
        (tmp_path / "storages").write_bytes(b"x")
        tar.add(tmp_path / "storages", arcname="storages")
    with pytest.raises(InputError, match=rf"^{re.escape(str(tmp_path))}/old.bin: tar-format .* save it again with torch.save"):
        TorchFile(old)


def test_tensor_outside_storage_refused(tmp_path: Path) -> None:
    from torch_format import tensor_pickle

    path = tmp_path / "m.bin"
    data = state_dict_pickle([("w", tensor_pickle("0", "FloatStorage", 4, 0, (3, 3), (3, 1)))])
    write_torch_archive(path, data, {"0": np.zeros(4, dtype="<f4").tobytes()})
    with pytest.raises(InputError, match="outside its storage"):
        TorchFile(path)


def test_storage_size_mismatch_refused_on_opening(tmp_path: Path) -> None:
    from torch_format import tensor_pickle

    path = tmp_path / "m.bin"
    data = state_dict_pickle([("w", tensor_pickle("0", "FloatStorage", 4, 0, (2, 2), (2, 1)))])
    write_torch_archive(path, data, {"0": np.zeros(3, dtype="<f4").tobytes()})
    with pytest.raises(InputError, match="wrong size"):
        TorchFile(path)
    write_torch_archive(path, data, {})
    with pytest.raises(InputError, match="storage '0' is missing from the archive"):
        TorchFile(path)


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


# ------------------------------------------------------------------ the legacy (pre-1.6) format


def test_legacy_format_read_exactly(tmp_path: Path) -> None:
    a = np.array([[0.1, -2.0, 3.5], [4.0, 5.0, 6.25]], dtype=np.float32)
    b = np.array([1 / 3, 2.0], dtype=np.float64)
    c = np.arange(6, dtype=np.int64).reshape(3, 2)
    path = tmp_path / "pytorch_model.bin"
    write_legacy_torch_bin(path, {"x.weight": a, "x.bias": b, "t.weight": a, "c": c}, transposed_views=("t.weight",))
    f = TorchFile(path)
    assert f.names() == ["x.weight", "x.bias", "t.weight", "c"]
    assert f.tensors["x.bias"].dtype == "F64" and f.tensors["t.weight"].shape == (2, 3)
    assert np.array_equal(f.array("x.weight"), a) and np.array_equal(f.array("t.weight"), a)
    assert Fraction(float(f.array("x.bias")[0])) == Fraction(1 / 3)
    assert f.array("c").tolist() == c.tolist()


def test_legacy_storage_views_and_shared_storages(tmp_path: Path) -> None:
    """A view (view_key, offset, size) of a root storage, and two tensors on one storage."""
    root = np.arange(10, dtype="<f4")
    entries = [
        ("view", legacy_tensor_pickle("7", "FloatStorage", 10, 0, (2, 3), (3, 1), view=("8", 4, 6))),
        ("whole", legacy_tensor_pickle("7", "FloatStorage", 10, 1, (3,), (3,))),
    ]
    path = tmp_path / "m.bin"
    write_legacy_archive(path, state_dict_pickle(entries), {"7": (10, root.tobytes())})
    f = TorchFile(path)
    assert f.array("view").tolist() == [[4, 5, 6], [7, 8, 9]]
    assert f.array("whole").tolist() == [1, 4, 7]
    bad = [("view", legacy_tensor_pickle("7", "FloatStorage", 10, 1, (2, 3), (3, 1), view=("8", 4, 6)))]
    write_legacy_archive(path, state_dict_pickle(bad), {"7": (10, root.tobytes())})
    with pytest.raises(InputError, match="outside its storage"):
        TorchFile(path)


@pytest.mark.parametrize("case,message", [
    ("truncated", "beyond the end of the file"),
    ("count", "holds 3 elements, the pickle declares 4"),
    ("undeclared key", "not declared by the pickle"),
    ("no data", "has no data in the file"),
    ("code", "refused to load posix.system"),
    ("big-endian", "big-endian"),
    ("module", "unexpected persistent id"),
])
def test_legacy_malformed(tmp_path: Path, case: str, message: str) -> None:
    path = tmp_path / "m.bin"
    sd = state_dict_pickle([("w", legacy_tensor_pickle("1", "FloatStorage", 4, 0, (2, 2), (2, 1)))])
    blob = np.arange(4, dtype="<f4").tobytes()
    if case == "truncated":
        write_legacy_archive(path, sd, {"1": (4, blob[:10])})
    elif case == "count":
        write_legacy_archive(path, sd, {"1": (3, blob[:12])})
    elif case == "undeclared key":
        write_legacy_archive(path, sd, {"1": (4, blob), "2": (1, blob[:4])})
    elif case == "no data":
        write_legacy_archive(path, sd, {})
    elif case == "code":
        evil = b"\x80\x02" + _global("posix", "system") + _tuple([_str("true")]) + b"R."
        write_legacy_archive(path, evil, {})
    elif case == "big-endian":
        path.write_bytes(legacy_preamble(little_endian=False) + sd)
    else:  # a pickled nn.Module's persistent id ("module", ...) is not a state dict
        pid = _tuple([_str("module"), _str("x"), _str("y"), _str("z"), b"K\x01", b"N"]) + b"Q"
        write_legacy_archive(path, b"\x80\x02" + pid + b".", {})
    with pytest.raises(InputError, match=rf"^{re.escape(str(tmp_path))}/m.bin: .*{message}"):
        TorchFile(path)


def test_legacy_checkpoint_scanned(tmp_path: Path) -> None:
    """An old Hugging Face checkpoint: config.json beside a legacy pytorch_model.bin."""
    import json

    from pybridge.io import checkpoints as ck

    rng = np.random.default_rng(0)
    t = {f"bert.encoder.layer.0.{k}": (rng.integers(-3, 4, size=s) / 2).astype(np.float32)
         for k, s in (("intermediate.dense.weight", (6, 4)), ("intermediate.dense.bias", (6,)),
                      ("output.dense.weight", (4, 6)), ("output.dense.bias", (4,)))}
    write_legacy_torch_bin(tmp_path / "pytorch_model.bin", t)
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "bert", "num_hidden_layers": 1}))
    c = ck.open_checkpoint(tmp_path)
    (layer,) = ck.find_layers(c)
    inst = ck.load_layer(layer, Activation("gelu"))
    assert inst.W_up[5] == tuple(Fraction(float(x)) for x in t["bert.encoder.layer.0.intermediate.dense.weight"][5])
    assert inst.b_down == tuple(Fraction(float(x)) for x in t["bert.encoder.layer.0.output.dense.bias"])
