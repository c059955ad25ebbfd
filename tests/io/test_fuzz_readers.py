"""Hypothesis fuzzing of every reader: any input gives a valid result or one InputError line.

In-process for speed (JSON, .npz, .safetensors, pytorch_model.bin, config.json and
checkpoint directories), plus a few CLI runs in a subprocess asserting exit 2 and
one line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pytest
from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pybridge.errors import InputError
from pybridge.io import checkpoints as ck
from pybridge.io import instance_from_json, load_instance
from pybridge.io.limits import Limits
from pybridge.io.safetensors_file import SafetensorsFile
from pybridge.io.torchfile import TorchFile
from pybridge.model import Activation, Instance

ROOT = Path(__file__).resolve().parents[2]
FUZZ = settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
SMALL = Limits(max_entries=10_000, max_file_bytes=10_000_000)


def outcome(fn) -> object:
    """Run a reader: a valid value, or an InputError with one non-empty line; anything else fails."""
    try:
        return fn()
    except InputError as exc:
        msg = str(exc)
        assert msg and "\n" not in msg and len(msg) < 2000, repr(msg)
        return exc


def in_file(suffix: str, data: bytes, fn) -> object:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"fuzz{suffix}"
        path.write_bytes(data)
        return outcome(lambda: fn(path))


# ----------------------------------------------------------------- strategies

numbers = st.one_of(
    st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.booleans(), st.none(),
    st.text(alphabet="0123456789-+./eE \u0661\uff11xn", max_size=12),
)
json_trees = st.recursive(
    st.one_of(numbers, st.text(max_size=8)),
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(st.text(max_size=6), children, max_size=4)),
    max_leaves=30,
)
matrices = st.lists(st.lists(numbers, min_size=0, max_size=3), min_size=0, max_size=3)
activations = st.sampled_from(["relu", "gelu", "silu", "swiglu", "relu^3", "relu^0", "quick_gelu", "gelu_new",
                               "tanh", "", "RELU", "relu2", "geglu", "reglu"])
roles = ["W_up", "W_down", "W_gate", "skip", "b_up", "b_gate", "b_down"]
instance_docs = st.fixed_dictionaries(
    {"activation": st.one_of(activations, json_trees)},
    optional={r: st.one_of(matrices, st.lists(numbers, max_size=3), json_trees) for r in roles},
)


def valid_instance(value: object) -> None:
    if not isinstance(value, InputError):
        assert isinstance(value, Instance)
        assert value.n == len(value.W_up) and value.d == len(value.W_down)


# ----------------------------------------------------------------- JSON


@FUZZ
@given(st.binary(max_size=200))
def test_json_random_bytes(data: bytes) -> None:
    valid_instance(in_file(".json", data, lambda p: load_instance(p, limits=SMALL)))


@FUZZ
@given(json_trees)
def test_json_random_trees(tree: object) -> None:
    valid_instance(outcome(lambda: instance_from_json(json.dumps(tree), limits=SMALL)))


@FUZZ
@given(instance_docs)
def test_json_instance_like(doc: dict) -> None:
    valid_instance(outcome(lambda: instance_from_json(json.dumps(doc), limits=SMALL)))


# ----------------------------------------------------------------- safetensors

dtypes = st.one_of(st.sampled_from(["F32", "F64", "F16", "BF16", "I64", "I8", "U8", "BOOL", "F8_E4M3", ""]),
                   st.lists(st.just("F32"), max_size=1), st.integers(), st.none())
shapes = st.one_of(st.lists(st.one_of(st.integers(-2, 4), st.booleans(), st.floats(0, 3)), max_size=3),
                   st.text(max_size=3), st.none())
offsets = st.one_of(st.lists(st.one_of(st.integers(-4, 80), st.booleans()), max_size=3), st.none())
tensor_specs = st.one_of(
    st.fixed_dictionaries({"dtype": dtypes, "shape": shapes, "data_offsets": offsets}),
    json_trees,
)
headers = st.dictionaries(st.sampled_from(roles + ["__metadata__", "other"]), tensor_specs, max_size=4)


def safetensors_bytes(header: object, data: bytes, declared: int | None = None) -> bytes:
    h = json.dumps(header).encode()
    return struct.pack("<Q", len(h) if declared is None else declared) + h + data


@FUZZ
@given(headers, st.binary(max_size=80), st.sampled_from([None, 0, 1, 2**63]))
def test_safetensors_random_headers(header: dict, data: bytes, declared) -> None:
    blob = safetensors_bytes(header, data, declared)
    valid_instance(in_file(".safetensors", blob, lambda p: load_instance(p, Activation("relu"), limits=SMALL)))
    in_file(".safetensors", blob, SafetensorsFile)


@FUZZ
@given(st.binary(max_size=120))
def test_safetensors_random_bytes(data: bytes) -> None:
    in_file(".safetensors", data, lambda p: load_instance(p, Activation("relu"), limits=SMALL))


def _valid_safetensors_header() -> dict:
    return {"W_up": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]},
            "W_down": {"dtype": "F32", "shape": [2, 2], "data_offsets": [16, 32]}}


@FUZZ
@given(st.integers(0, 200), st.integers(0, 255))
def test_safetensors_bit_flips(pos: int, byte: int) -> None:
    blob = bytearray(safetensors_bytes(_valid_safetensors_header(), np.arange(8, dtype="<f4").tobytes()))
    blob[pos % len(blob)] = byte
    valid_instance(in_file(".safetensors", bytes(blob), lambda p: load_instance(p, Activation("relu"), limits=SMALL)))


# ----------------------------------------------------------------- npz


def npz_bytes(members: dict[str, bytes]) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.npz"
        with zipfile.ZipFile(path, "w") as zf:
            for name, data in members.items():
                zf.writestr(name, data)
        return path.read_bytes()


npy_headers = st.builds(
    lambda descr, shape, fortran: b"\x93NUMPY\x01\x00" + (lambda h: struct.pack("<H", len(h)) + h)(
        (repr({"descr": descr, "fortran_order": fortran, "shape": shape}) + " " * 8 + "\n").encode()),
    st.sampled_from(["<f8", "<f4", "|b1", "|O", "<i8", "<U3", "garbage"]),
    st.tuples(st.integers(0, 5), st.integers(0, 5)) | st.tuples(st.integers(0, 10**9), st.integers(0, 10**9)),
    st.booleans(),
)


@FUZZ
@given(st.dictionaries(st.sampled_from(["W_up.npy", "W_down.npy", "b_up.npy", "x.txt", "dir/", "W_gate.npy"]),
                       st.tuples(npy_headers, st.binary(max_size=64)).map(lambda t: t[0] + t[1]), max_size=3))
def test_npz_random_members(members: dict[str, bytes]) -> None:
    valid_instance(in_file(".npz", npz_bytes(members), lambda p: load_instance(p, Activation("relu"), limits=SMALL)))


@FUZZ
@given(st.binary(max_size=200))
def test_npz_random_bytes(data: bytes) -> None:
    in_file(".npz", b"PK\x03\x04" + data, lambda p: load_instance(p, Activation("relu"), limits=SMALL))


# ----------------------------------------------------------------- pytorch_model.bin


@FUZZ
@given(st.binary(max_size=200))
def test_torch_random_pickles(data: bytes) -> None:
    from torch_format import write_torch_archive

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pytorch_model.bin"
        write_torch_archive(path, b"\x80\x02" + data, {"0": bytes(16)})
        f = outcome(lambda: TorchFile(path))
        if isinstance(f, TorchFile):
            for name in f.names():
                outcome(lambda name=name: f.array(name))


@FUZZ
@given(st.binary(max_size=200))
def test_torch_legacy_random_pickles(data: bytes) -> None:
    """Random bytes where the legacy format's state dict (and what follows) should be."""
    from torch_format import legacy_preamble

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pytorch_model.bin"
        path.write_bytes(legacy_preamble() + b"\x80\x02" + data)
        f = outcome(lambda: TorchFile(path))
        if isinstance(f, TorchFile):
            for name in f.names():
                outcome(lambda name=name: f.array(name))


# ----------------------------------------------------------------- layer numbers in tensor names


class _Names:
    """Stands for a tensor file when only names matter (finding layers reads no data)."""

    def __init__(self, names: list[str]) -> None:
        self.tensors = dict.fromkeys(names)


layer_numbers = st.one_of(
    st.integers(0, 12).map(str), st.integers(0, 10**12).map(str), st.sampled_from(["00", "01", "0" * 40, "9" * 400]),
    st.text(alphabet="0123456789\u0661\uff11", min_size=1, max_size=6),
)
index_names = st.lists(
    st.builds(lambda root, i, j, tail: f"{root}layers.{i}." + (f"block_sparse_moe.experts.{j}." if j else "") + tail,
              st.sampled_from(["model.", "", "model.model."]), layer_numbers, st.one_of(st.none(), layer_numbers),
              st.sampled_from(["mlp.up_proj.weight", "mlp.down_proj.weight", "mlp.gate_proj.weight", "w1.weight",
                               "w2.weight", "w3.weight", "mlp.extra.weight", "self_attn.q_proj.weight"])),
    max_size=12,
)
count_values = st.one_of(st.none(), st.integers(-1, 20), st.sampled_from([10_000, 10_001, 10**9]), st.text(max_size=3))


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index_names, st.sampled_from(["llama", "mixtral", None]), count_values, count_values)
def test_layer_numbers_in_names(names: list[str], model_type, layers, experts) -> None:
    """Any layer/expert numbers (huge, padded, other scripts' digits), any root, any count:
    a list of blocks or one InputError line, fast; a block under two roots is never dropped."""
    config: dict = {} if model_type is None else {"model_type": model_type}
    if layers is not None:
        config["num_hidden_layers"] = layers
    if experts is not None:
        config["num_local_experts"] = experts
    fake = _Names(names)
    c = ck.Checkpoint(Path("x"), [], {n: ck.TensorRef(fake, n) for n in names}, config)  # type: ignore[arg-type]
    found = outcome(lambda: ck.find_layers(c))
    if isinstance(found, InputError):
        return
    assert isinstance(found, list) and len(found) <= ck.MAX_BLOCKS
    assert all(l.status in ("ok", "missing_tensor", "extra_tensor", "duplicate_block") for l in found)
    if model_type == "llama":
        under = {(r, n.split(".")[len(r.split(".")) ]) for n in names for r in ("model.", "")
                 if n.startswith(r + "layers.") and ".mlp." in n}
        by_number: dict[str, set[str]] = {}
        for root, number in under:
            if number.isascii() and number.isdigit():
                by_number.setdefault(str(int(number)), set()).add(root)
        for number, roots in by_number.items():
            if len(roots) == 2:  # the same layer under model. and under no root: flagged
                assert any(l.status == "duplicate_block" and l.name.endswith(f".{number}") for l in found)


# ----------------------------------------------------------------- checkpoints


def _tiny_llama(directory: Path) -> None:
    from safetensors.numpy import save_file

    t = {}
    for i in range(2):
        for role, shape in (("gate_proj", (3, 2)), ("up_proj", (3, 2)), ("down_proj", (2, 3))):
            t[f"model.layers.{i}.mlp.{role}.weight"] = np.ones(shape, dtype=np.float32)
    save_file(t, str(directory / "model.safetensors"))


config_docs = st.fixed_dictionaries(
    {},
    optional={
        "model_type": st.one_of(st.sampled_from(["llama", "gemma", "t5", "clip", "mixtral", "phi3", "gpt2", "x"]),
                                json_trees),
        "architectures": st.one_of(st.lists(st.sampled_from(["LlamaForCausalLM", "T5Model", "Bad"])), json_trees),
        "num_hidden_layers": st.one_of(st.integers(-1, 4), json_trees),
        "hidden_act": st.one_of(activations, json_trees),
        "hidden_activation": st.one_of(activations, json_trees),
        "feed_forward_proj": st.one_of(st.sampled_from(["relu", "gated-gelu", "gated-silu", "gated-"]), json_trees),
        "text_config": json_trees,
        "num_local_experts": st.one_of(st.integers(-1, 3), json_trees),
    },
)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config_docs)
def test_checkpoint_random_configs(config: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        _tiny_llama(d)
        (d / "config.json").write_text(json.dumps(config))

        def scan_all() -> int:
            c = ck.open_checkpoint(d)
            count = 0
            for layer in ck.find_layers(c):
                assert layer.status in ("ok", "missing_tensor", "extra_tensor", "duplicate_block")
                if layer.status != "ok":
                    continue
                outcome(lambda layer=layer: ck.config_activation(c, layer.gated, layer))
                count += 1
            return count

        result = outcome(scan_all)
        assert isinstance(result, (int, InputError))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=100), st.binary(max_size=100))
def test_checkpoint_random_index_and_config(index: bytes, config: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        _tiny_llama(d)
        (d / "model.safetensors.index.json").write_bytes(index)
        (d / "config.json").write_bytes(config)
        outcome(lambda: ck.find_layers(ck.open_checkpoint(d)))


# ----------------------------------------------------------------- the CLI, in a subprocess


CLI_CASES = [
    ("x.json", b'{"activation": "relu", "W_up": [[1]], "W_down": [[1]], "W_up": [[1]]}', []),
    ("x.json", b"\xff\xfe garbage", []),
    ("x.safetensors", struct.pack("<Q", 40) + b'{"W_up": {"dtype": ["F32"], "shape": [1]}}', ["--activation", "relu"]),
    ("x.npz", b"PK\x03\x04 truncated zip", ["--activation", "relu"]),
    ("x.json", b'{"activation": "relu", "W_up": [[' + b"1" * 5000 + b']], "W_down": [[1]]}', []),
]


@pytest.mark.parametrize("name,data,extra", CLI_CASES)
def test_cli_subprocess_one_line_exit_2(tmp_path: Path, name: str, data: bytes, extra: list[str]) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    proc = subprocess.run(
        [sys.executable, "-c", "from pybridge.cli import main; main()", "check", str(path), "--no-prove", *extra],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pybridge: error: ") and name in lines[0]
    assert proc.stdout == ""


def test_cli_subprocess_scan_bad_checkpoint(tmp_path: Path) -> None:
    (tmp_path / "model.safetensors").write_bytes(b"\x00" * 7)
    proc = subprocess.run(
        [sys.executable, "-c", "from pybridge.cli import main; main()", "scan", str(tmp_path), "--no-prove"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "model.safetensors" in proc.stderr
