"""Tiny crafted inputs that would expand to gigabytes or hours: each ends at once with one
InputError line (exit 2 from the CLI, run under a 1 GiB address-space limit), before
the expansion happens. Also: a block under two roots, counts over the limits, a
refs/main naming a missing snapshot, and a 130,000-name header read in linear time."""

from __future__ import annotations

import json
import os
import re
import resource
import struct
import subprocess
import sys
import tracemalloc
import zipfile
from pathlib import Path
from typing import Callable

import numpy as np
import pytest
from safetensors.numpy import save_file
from torch_format import _str, state_dict_pickle, tensor_pickle, write_torch_archive

from pybridge.errors import InputError
from pybridge.io import checkpoints as ck
from pybridge.io.torchfile import MAX_INFLATED_BYTES, TorchFile

ROOT = Path(__file__).resolve().parents[2]
GIB = 1 << 30


def bounded(fn: Callable[[], object], match: str, peak_mb: int = 64) -> None:
    """``fn`` raises an InputError matching ``match`` with at most ``peak_mb`` MB allocated."""
    tracemalloc.start()
    try:
        with pytest.raises(InputError, match=match) as info:
            fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "\n" not in str(info.value)
    assert peak < peak_mb * 1024 * 1024, f"{peak / 1e6:.0f} MB allocated"


def cli_scan(path: Path, match: str) -> None:
    """``pybridge scan PATH`` exits 2 with one line naming the problem, within 1 GiB and 60 s."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (GIB, GIB))

    proc = subprocess.run(
        [sys.executable, "-c", "from pybridge.cli import main; main()", "scan", str(path), "--no-prove"],
        capture_output=True, text=True, timeout=60, cwd=ROOT, preexec_fn=limit,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert len(lines) == 1 and lines[0].startswith("pybridge: error: ") and re.search(match, lines[0]), lines


# ------------------------------------------------------------------ pickles that fan out


def fan_out_pickle(width: int = 30, depth: int = 8) -> bytes:
    """A dict whose ``width`` values are all one dict, ``depth`` times over (memo references):
    a few KB spelling width**depth tensor names."""
    leaf = b"}" + b"(" + _str("w") + tensor_pickle("0", "FloatStorage", 4, 0, (2, 2), (2, 1)) + b"u"
    out = b"\x80\x02" + leaf + b"q\x00"
    for level in range(1, depth + 1):
        get = b"h" + bytes([level - 1])
        out += b"}(" + b"".join(_str(f"k{j}") + get for j in range(width)) + b"u" + b"q" + bytes([level])
    return out + b"."


def test_pickle_fan_out_refused(tmp_path: Path) -> None:
    data = fan_out_pickle()
    assert len(data) < 4000  # 30**8 = 6.6e11 names if the tree were walked
    path = tmp_path / "pytorch_model.bin"
    write_torch_archive(path, data, {"0": np.zeros(4, dtype="<f4").tobytes()})
    bounded(lambda: TorchFile(path), "one dictionary is reached twice")
    cli_scan(path, "reached twice")


def test_pickle_names_bounded(tmp_path: Path) -> None:
    """A long key reused by memo at every level: names are refused beyond 1024 characters."""
    long_key = _str("x" * 600)
    leaf = b"}(" + long_key + tensor_pickle("0", "FloatStorage", 4, 0, (2, 2), (2, 1)) + b"u"
    data = b"\x80\x02}(" + long_key + b"}(" + long_key + leaf + b"uu."
    path = tmp_path / "m.bin"
    write_torch_archive(path, data, {"0": np.zeros(4, dtype="<f4").tobytes()})
    bounded(lambda: TorchFile(path), "longer than 1024 characters")


def test_two_paths_to_one_name_refused(tmp_path: Path) -> None:
    """{"a.b": t, "a": {"b": t'}}: one would silently replace the other."""
    t = tensor_pickle("0", "FloatStorage", 4, 0, (2, 2), (2, 1))
    data = b"\x80\x02}(" + _str("a.b") + t + _str("a") + b"}(" + _str("b") + t + b"uu."
    path = tmp_path / "m.bin"
    write_torch_archive(path, data, {"0": np.zeros(4, dtype="<f4").tobytes()})
    with pytest.raises(InputError, match="two tensors are named 'a.b'"):
        TorchFile(path)


def test_oversized_pickle_refused(tmp_path: Path) -> None:
    """Over MAX_PICKLE_BYTES: refused before unpickling in the zip format (a pickle of
    one-byte ``}`` opcodes builds ~90 bytes of objects per byte); in the legacy format only
    that many bytes are read."""
    from torch_format import legacy_preamble

    from pybridge.io.torchpickle import MAX_PICKLE_BYTES

    bomb = b"\x80\x02(" + b"}" * MAX_PICKLE_BYTES + b"l."
    path = tmp_path / "m.bin"
    write_torch_archive(path, bomb, {})
    bounded(lambda: TorchFile(path), f"data.pkl of {len(bomb)} bytes is over the limit of {MAX_PICKLE_BYTES}")
    # the legacy format has no length: at most MAX_PICKLE_BYTES are read and unpickled
    path.write_bytes(legacy_preamble() + b"\x80\x02" + b"N" * MAX_PICKLE_BYTES + b".")
    bounded(lambda: TorchFile(path), "legacy PyTorch format: pickles over the limit")


# ------------------------------------------------------------------ storages that inflate


def patch_recorded_size(path: Path, member: str, nbytes: int) -> None:
    """Make the zip's central directory claim ``nbytes`` uncompressed for ``member``."""
    blob = bytearray(path.read_bytes())
    cd = blob.index(b"PK\x01\x02")
    while blob[cd + 46:cd + 46 + struct.unpack("<H", blob[cd + 28:cd + 30])[0]] != member.encode():
        cd = blob.index(b"PK\x01\x02", cd + 4)
    blob[cd + 24:cd + 28] = struct.pack("<I", nbytes)
    path.write_bytes(bytes(blob))


def compressed_archive(path: Path, numel: int, claimed: int | None = None) -> None:
    """A 3x2 tensor on a deflated storage of ``numel`` floats; ``claimed`` (elements) is
    what the pickle and the zip's directory declare instead, as a bomb would."""
    data = state_dict_pickle([("w", tensor_pickle("0", "FloatStorage", claimed or numel, 0, (3, 2), (2, 1)))])
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as zf:
        zf.writestr("archive/data.pkl", data)
        zf.writestr("archive/data/0", np.arange(numel, dtype="<f4").tobytes(), compress_type=zipfile.ZIP_DEFLATED)
    if claimed is not None:
        patch_recorded_size(path, "archive/data/0", claimed * 4)


def test_compressed_storage_bomb_refused(tmp_path: Path) -> None:
    path = tmp_path / "pytorch_model.bin"
    compressed_archive(path, 250_000, claimed=500_000_000)  # 2 GB declared behind a 3x2 tensor
    assert path.stat().st_size < 1_000_000
    bounded(lambda: TorchFile(path), rf"compressed and would inflate to 2000000000 bytes, over the limit "
                                     rf"of {MAX_INFLATED_BYTES}")
    cli_scan(path, "would inflate")


def test_compressed_storage_read_only_as_far_as_the_tensor(tmp_path: Path) -> None:
    path = tmp_path / "m.bin"
    compressed_archive(path, 1_000_000)  # 4 MB inflated; the tensor needs 24 bytes
    f = TorchFile(path)
    tracemalloc.start()
    try:
        arr = f.array("w")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert arr.tolist() == [[0, 1], [2, 3], [4, 5]] and peak < 1_000_000


def test_stored_storage_beyond_the_file_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.bin"
    data = state_dict_pickle([("w", tensor_pickle("0", "FloatStorage", 500_000_000, 0, (2, 2), (2, 1)))])
    write_torch_archive(path, data, {"0": np.zeros(4, dtype="<f4").tobytes()})
    patch_recorded_size(path, "archive/data/0", 2_000_000_000)
    bounded(lambda: TorchFile(path), "storage '0' \\(2000000000 bytes\\) reaches beyond the end of the file")


# ------------------------------------------------------------------ layer and expert numbers


def one_tensor(directory: Path, name: str, config: dict) -> Path:
    save_file({name: np.ones((2, 2), dtype=np.float32)}, str(directory / "model.safetensors"))
    (directory / "config.json").write_text(json.dumps(config))
    return directory


@pytest.mark.parametrize("name,config,match", [
    ("model.layers.2000000.mlp.up_proj.weight", {"model_type": "llama"},
     "tensor names go up to layer 2000000, over the limit of 10000 layers, and config.json declares no layer count"),
    ("model.layers.0.block_sparse_moe.experts.3000000.w1.weight", {"model_type": "mixtral", "num_hidden_layers": 1},
     "tensor names go up to expert 3000000, over the limit of 10000 experts"),
    ("model.layers." + "9" * 5000 + ".mlp.up_proj.weight", {"model_type": "llama"}, "layer or expert number 9+... is too large"),
    ("model.layers.0.mlp.up_proj.weight", {"model_type": "llama", "num_hidden_layers": 10_001},
     "config.json num_hidden_layers=10001: more layers than the limit of 10000"),
    ("model.layers.0.mlp.up_proj.weight", {"model_type": "llama", "num_hidden_layers": "12"},
     "config.json num_hidden_layers='12' is not a number of layers"),
    ("model.layers.0.mlp.up_proj.weight", {"model_type": "llama", "num_hidden_layers": -1},
     "num_hidden_layers='-1' is not a number of layers"),
    ("x.weight", {"model_type": "mixtral", "num_hidden_layers": 10_000, "num_local_experts": 10_000},
     "10000 layers of 10000 experts: more than 200000 blocks"),
])
def test_layer_and_expert_numbers_bounded(tmp_path: Path, name: str, config: dict, match: str) -> None:
    directory = one_tensor(tmp_path, name, config)
    bounded(lambda: ck.find_layers(ck.open_checkpoint(directory)), match)


@pytest.mark.parametrize("name,config,match", [
    ("model.layers.2000000.mlp.up_proj.weight", {"model_type": "llama"}, "up to layer 2000000"),
    ("model.layers.0.block_sparse_moe.experts.3000000.w1.weight", {"model_type": "mixtral", "num_hidden_layers": 1},
     "up to expert 3000000"),
])
def test_layer_numbers_bounded_from_the_cli(tmp_path: Path, name: str, config: dict, match: str) -> None:
    cli_scan(one_tensor(tmp_path, name, config), match)


def test_config_over_the_layer_limit_from_the_cli(tmp_path: Path) -> None:
    cli_scan(one_tensor(tmp_path, "model.layers.0.mlp.up_proj.weight",
                        {"model_type": "llama", "num_hidden_layers": 10_001}),
             "num_hidden_layers=10001: more layers than the limit")


def test_layer_count_from_names_within_the_limit(tmp_path: Path) -> None:
    """Without a count, layers 0..max are listed (absent ones missing_tensor), as before."""
    directory = one_tensor(tmp_path, "model.layers.3.mlp.up_proj.weight", {"model_type": "llama"})
    c = ck.open_checkpoint(directory)
    layers = ck.find_layers(c)
    assert [l.name for l in layers] == [f"model.layers.{i}" for i in range(4)]
    assert {l.status for l in layers} == {"missing_tensor"}
    assert any("layer count from tensor names" in n for n in c.notes)


# ------------------------------------------------------------------ a block under two roots


def opt_tensors(root: str, seed: int, layers: int) -> dict:
    rng = np.random.default_rng(seed)
    t = {}
    for i in range(layers):
        for name, shape in (("fc1.weight", (6, 4)), ("fc1.bias", (6,)), ("fc2.weight", (4, 6)), ("fc2.bias", (4,))):
            t[f"{root}decoder.layers.{i}.{name}"] = rng.integers(-3, 4, size=shape).astype(np.float32)
    return t


def test_block_under_two_roots_is_its_own_status(tmp_path: Path) -> None:
    tensors = {**opt_tensors("model.", 0, 2), **opt_tensors("", 1, 1)}
    save_file(tensors, str(tmp_path / "model.safetensors"))
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "opt", "num_hidden_layers": 2,
                                                      "activation_function": "relu"}))
    layers = ck.find_layers(ck.open_checkpoint(tmp_path))
    assert [(l.name, l.status) for l in layers] == [("model.decoder.layers.0", "duplicate_block"),
                                                    ("model.decoder.layers.1", "ok")]
    assert "model.decoder.layers.0 and decoder.layers.0" in layers[0].problem
    with pytest.raises(InputError, match="two copies of this block"):
        ck.load_layer(layers[0], ck.config_activation(ck.open_checkpoint(tmp_path), False, layers[1])[0])
    from pybridge.scanning import scan

    result = scan(tmp_path, prove=False)
    assert [(lr.layer, lr.status) for lr in result.problems] == [("model.decoder.layers.0", "duplicate_block")]
    cli_scan(tmp_path, "model.decoder.layers.0: duplicate_block: two copies of this block: "
                       "model.decoder.layers.0 and decoder.layers.0")


def test_copy_only_under_the_other_root_is_listed(tmp_path: Path) -> None:
    """decoder.layers.5 (no model. root) beside model.decoder.layers.0-1: listed, never dropped."""
    tensors = {**opt_tensors("model.", 0, 2), **{k.replace(".0.", ".5."): v for k, v in opt_tensors("", 1, 1).items()}}
    save_file(tensors, str(tmp_path / "model.safetensors"))
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "opt", "num_hidden_layers": 2}))
    layers = ck.find_layers(ck.open_checkpoint(tmp_path))
    assert [(l.name, l.status) for l in layers][-1] == ("model.decoder.layers.5", "duplicate_block")
    assert "decoder.layers.5" in layers[-1].problem


def test_experts_under_two_roots_refused(tmp_path: Path) -> None:
    t = {}
    for root in ("model.", ""):
        for w in ("w1", "w2", "w3"):
            t[f"{root}layers.0.block_sparse_moe.experts.0.{w}.weight"] = np.ones((2, 2), dtype=np.float32)
    save_file(t, str(tmp_path / "model.safetensors"))
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "mixtral", "num_hidden_layers": 1,
                                                      "num_local_experts": 1}))
    with pytest.raises(InputError, match="two copies of the experts of layer 0: model.layers.0 and layers.0"):
        ck.find_layers(ck.open_checkpoint(tmp_path))


# ------------------------------------------------------------------ a huge header, linear time


class _Shapes:
    """Stands for a tensor file: only names are needed to find layers."""

    def __init__(self, names: list[str]) -> None:
        self.tensors = dict.fromkeys(names)


@pytest.mark.parametrize("with_config", [True, False])
def test_many_layers_and_names_found_in_linear_time(with_config: bool) -> None:
    """10,000 layers and 100,000 other names (the 371 s case): grouped once, not per layer.
    (Not timed: a quadratic walk would take minutes; bench/ measures speed.)"""
    names = [f"model.layers.{i}.mlp.{r}.weight" for i in range(10_000) for r in ("gate_proj", "up_proj", "down_proj")]
    names += [f"model.layers.{k % 10_000}.self_attn.extra_{k}.weight" for k in range(100_000)]
    names.append("model.layers.17.mlp.stray.weight")
    fake = _Shapes(names)
    tensors = {n: ck.TensorRef(fake, n) for n in names}  # type: ignore[arg-type]
    config = {"model_type": "llama", "num_hidden_layers": 10_000} if with_config else {}
    c = ck.Checkpoint(Path("x"), [], tensors, config)
    layers = ck.find_layers(c)
    assert len(layers) == 10_000 and layers[-1].name == "model.layers.9999"
    assert [l.name for l in layers if l.status != "ok"] == ["model.layers.17"]
    assert layers[17].status == "extra_tensor" and "model.layers.17.mlp.stray.weight" in layers[17].problem


# ------------------------------------------------------------------ Hugging Face cache


def test_refs_main_naming_a_missing_snapshot(tmp_path: Path) -> None:
    entry = tmp_path / "models--org--tiny"
    other = entry / "snapshots" / "fedcba9876543210fedcba9876543210fedcba98"
    other.mkdir(parents=True)
    save_file(opt_tensors("model.", 0, 1), str(other / "model.safetensors"))
    (entry / "refs").mkdir()
    (entry / "refs" / "main").write_text("0123456789abcdef0123456789abcdef01234567\n")
    with pytest.raises(InputError, match="refs/main names snapshot 0123456789abcdef0123456789abcdef01234567, which "
                                         "is missing from models--org--tiny/snapshots \\(present: fedcba987654\\)"):
        ck.open_checkpoint(entry)
    (entry / "refs" / "main").write_text("not a revision")
    with pytest.raises(InputError, match="refs/main does not name a revision"):
        ck.open_checkpoint(entry)


# ------------------------------------------------------------------ messages


@pytest.mark.parametrize("where", ["file", "file/sub"])
def test_keep_dir_that_is_a_file_is_an_input_error(tmp_path: Path, where: str) -> None:
    """``check(keep_dir=<a file>)``: InputError at argument validation, not FileExistsError."""
    import pybridge.api as api
    from pybridge.model import Activation, Instance

    (tmp_path / "file").write_text("x")
    inst = Instance(W_up=((1,),), W_down=((1,),), activation=Activation("relu"))
    with pytest.raises(InputError, match=f"keep_dir .*{where}: .*file is not a directory"):
        api.check(inst, keep_dir=tmp_path / where, prove=False)
    assert (tmp_path / "file").read_text() == "x"
