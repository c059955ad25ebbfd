"""Reading instances exactly, and refusing bad input with one clear InputError."""

from __future__ import annotations

import json
import struct
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from helpers import write_bf16_safetensors
from safetensors.numpy import save_file

from pybridge.errors import InputError
from pybridge.io import instance_from_json, instance_to_json, load_instance, parse_activation
from pybridge.model import Activation

F = Fraction


def js(**doc) -> str:
    doc.setdefault("activation", "relu")
    doc.setdefault("W_up", [[1, 0], [0, 1]])
    doc.setdefault("W_down", [[1, 0], [0, 1]])
    return json.dumps({k: v for k, v in doc.items() if v is not None})


# ------------------------------------------------------------------ numbers


def test_json_decimals_are_read_as_written() -> None:
    text = '{"activation": "relu", "W_up": [[0.1, "1/3"], ["-0.125", 2]], "W_down": [[1e-3, 0], [0, 1]]}'
    inst = instance_from_json(text)
    assert inst.W_up == ((F(1, 10), F(1, 3)), (F(-1, 8), F(2)))
    assert inst.W_down[0][0] == F(1, 1000)
    assert inst.d == 2 and inst.n == 2


def test_json_round_trip_is_exact() -> None:
    inst = instance_from_json(js(W_up=[["2/6", 0.25], [1, -7]], b_down=[0.5, "1/7"]))
    doc = instance_to_json(inst)
    assert doc["W_up"] == [["1/3", "1/4"], [1, -7]]
    assert instance_from_json(json.dumps(doc)) == inst


@pytest.mark.parametrize(
    "text,expected",
    [
        ("relu", Activation("relu")),
        ("ReLU", Activation("relu")),
        ("relu2", Activation("relu_pow", 2)),
        ("relu^3", Activation("relu_pow", 3)),
        ("relu^1", Activation("relu")),
        ("gelu_tanh", Activation("gelu_tanh")),
        ("swish", Activation("silu")),
        ("SwiGLU", Activation("swiglu")),
        ("reglu", Activation("reglu")),
    ],
)
def test_activation_names(text: str, expected: Activation) -> None:
    assert parse_activation(text) == expected


@pytest.mark.parametrize("text", ["tanh", "relu^0", "relu^x", "", "relu6"])
def test_unknown_activation(text: str) -> None:
    with pytest.raises(InputError):
        parse_activation(text)


# ------------------------------------------------------------------- JSON bad


BAD_JSON = {
    "malformed": '{"activation": "relu", "W_up": [[1]',
    "nan": '{"activation": "relu", "W_up": [[NaN]], "W_down": [[1]]}',
    "infinity": '{"activation": "relu", "W_up": [[Infinity]], "W_down": [[1]]}',
    "not an object": "[1, 2]",
    "wrong W_down shape": js(W_down=[[1, 0, 0], [0, 1, 0]]),
    "empty matrix": js(W_up=[], W_down=[[]]),
    "empty rows": js(W_up=[[], []], W_down=[[1, 1]]),
    "ragged": js(W_up=[[1, 0], [1]]),
    "unknown activation": js(activation="softplus"),
    "gate missing": js(activation="swiglu"),
    "gate for ungated": js(W_gate=[[1, 0], [0, 1]]),
    "b_gate for ungated": js(b_gate=[1, 1]),
    "gate wrong shape": js(activation="reglu", W_gate=[[1, 0]]),
    "non-square skip": js(skip=[[1, 0, 0], [0, 1, 0]]),
    "skip wrong size": js(skip=[[1]]),
    "unknown key": js(W_extra=[[1]]),
    "boolean entry": js(W_up=[[True, 0], [0, 1]]),
    "zero denominator": js(W_up=[["1/0", 0], [0, 1]]),
    "not a number string": js(W_up=[["abc", 0], [0, 1]]),
    "nan string": js(W_up=[["nan", 0], [0, 1]]),
    "bias wrong length": js(b_down=[1, 2, 3]),
    "bias matrix": js(b_up=[[1], [2]]),
    "missing W_down": '{"activation": "relu", "W_up": [[1]]}',
    "no activation": '{"W_up": [[1]], "W_down": [[1]]}',
    "huge exponent": js(W_up=[[1e999999, 0], [0, 1]]).replace("Infinity", "1e999999"),
}


@pytest.mark.parametrize("name", sorted(BAD_JSON))
def test_bad_json_is_an_input_error(name: str) -> None:
    with pytest.raises(InputError) as info:
        instance_from_json(BAD_JSON[name])
    message = str(info.value)
    assert message and "\n" not in message


def test_activation_option_must_agree_with_file() -> None:
    with pytest.raises(InputError, match="contradicts"):
        instance_from_json(js(), activation=Activation("gelu"))
    inst = instance_from_json('{"W_up": [[1]], "W_down": [[1]]}', activation=Activation("silu"))
    assert inst.activation == Activation("silu")


def test_invertible_skip_accepted() -> None:
    inst = instance_from_json(js(skip=[[0, 1], [1, 0]]))
    assert inst.skip == ((0, 1), (1, 0))


# ------------------------------------------------------------------- arrays


def test_npz_float32_read_by_exact_binary_value(tmp_path: Path) -> None:
    up = np.array([[0.1, 2.0], [-0.5, 3.0]], dtype=np.float32)
    down = np.array([[1, 2], [3, 4]], dtype=np.int64)
    path = tmp_path / "block.npz"
    np.savez(path, W_up=up, W_down=down)
    inst = load_instance(path, Activation("relu"))
    assert inst.W_up[0][0] == F(float(np.float32(0.1)))  # 13421773/134217728
    assert inst.W_up[0][0] == F(13421773, 134217728)
    assert inst.W_up[0][0] != F(1, 10)
    assert inst.W_down == ((1, 2), (3, 4))


def test_npz_float16(tmp_path: Path) -> None:
    path = tmp_path / "h.npz"
    np.savez(path, W_up=np.array([[0.1]], dtype=np.float16), W_down=np.array([[1]], dtype=np.float16))
    inst = load_instance(path, Activation("relu"))
    assert inst.W_up[0][0] == F(1638, 16384)  # float16(0.1) = 0x2E66


@pytest.mark.parametrize(
    "arrays",
    [
        {"W_up": np.array([[np.nan]]), "W_down": np.array([[1.0]])},
        {"W_up": np.array([[np.inf]]), "W_down": np.array([[1.0]])},
        {"W_up": np.zeros((0, 2)), "W_down": np.zeros((2, 0))},
        {"W_up": np.array([1.0, 2.0]), "W_down": np.array([[1.0]])},
        {"W_up": np.array([[1.0]]), "W_down": np.array([[1.0]]), "extra": np.array([1.0])},
        {"W_up": np.array([[1.0]])},
        {"W_up": np.array([[True]]), "W_down": np.array([[1.0]])},
    ],
)
def test_bad_npz(tmp_path: Path, arrays: dict) -> None:
    path = tmp_path / "bad.npz"
    np.savez(path, **arrays)
    with pytest.raises(InputError):
        load_instance(path, Activation("relu"))


def test_npz_needs_activation(tmp_path: Path) -> None:
    path = tmp_path / "b.npz"
    np.savez(path, W_up=np.ones((1, 1)), W_down=np.ones((1, 1)))
    with pytest.raises(InputError, match="activation"):
        load_instance(path)


def test_safetensors_float64_and_float32(tmp_path: Path) -> None:
    path = tmp_path / "b.safetensors"
    save_file(
        {
            "W_up": np.array([[1 / 3, 2.0]], dtype=np.float64),
            "W_down": np.array([[0.1], [0.2]], dtype=np.float32),
            "b_down": np.array([0.5, -0.25], dtype=np.float32),
        },
        str(path),
    )
    inst = load_instance(path, Activation("relu"))
    assert inst.W_up[0][0] == F(1 / 3) and inst.W_up[0][0].denominator == 2**54
    assert inst.W_down[1][0] == F(float(np.float32(0.2)))
    assert inst.b_down == (F(1, 2), F(-1, 4))


def test_safetensors_bfloat16_exact(tmp_path: Path) -> None:
    path = tmp_path / "bf.safetensors"
    # 0x3DCD is bfloat16(0.1) = 0.10009765625; 0xBF80 = -1; 0x4040 = 3
    write_bf16_safetensors(path, {"W_up": ([1, 2], [0x3DCD, 0xBF80]), "W_down": ([2, 1], [0x4040, 0x0000])})
    inst = load_instance(path, Activation("relu"))
    assert inst.W_up == ((F(0.10009765625), F(-1)),)
    assert inst.W_down == ((F(3),), (F(0),))


@pytest.mark.parametrize(
    "content",
    [b"", b"not a safetensors file at all", struct.pack("<Q", 10) + b"{bad json}", struct.pack("<Q", 999) + b"{}"],
)
def test_garbage_safetensors(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "x.safetensors"
    path.write_bytes(content)
    with pytest.raises(InputError, match="safetensors"):
        load_instance(path, Activation("relu"))


def test_truncated_safetensors(tmp_path: Path) -> None:
    path = tmp_path / "t.safetensors"
    save_file({"W_up": np.ones((4, 4), dtype=np.float32), "W_down": np.ones((4, 4), dtype=np.float32)}, str(path))
    data = path.read_bytes()
    path.write_bytes(data[:-10])
    with pytest.raises(InputError, match="truncated"):
        load_instance(path, Activation("relu"))


def test_extension_must_match_content(tmp_path: Path) -> None:
    fake_npz = tmp_path / "x.npz"
    fake_npz.write_text('{"activation": "relu"}')
    with pytest.raises(InputError, match="not an .npz"):
        load_instance(fake_npz, Activation("relu"))
    fake_json = tmp_path / "x.json"
    np.savez(tmp_path / "real.npz", W_up=np.ones((1, 1)))
    fake_json.write_bytes((tmp_path / "real.npz").read_bytes())
    with pytest.raises(InputError):
        load_instance(fake_json)
    other = tmp_path / "x.txt"
    other.write_text("1")
    with pytest.raises(InputError, match="unsupported file type"):
        load_instance(other)
    with pytest.raises(InputError, match="no such file"):
        load_instance(tmp_path / "missing.json")


def test_npz_long_double_exact(tmp_path: Path) -> None:
    x = np.longdouble(1) / np.longdouble(3)
    if np.finfo(np.longdouble).nmant <= 52:
        pytest.skip("long double is float64 on this platform")
    path = tmp_path / "ld.npz"
    np.savez(path, W_up=np.array([[x]], dtype=np.longdouble), W_down=np.array([[1]], dtype=np.longdouble))
    inst = load_instance(path, Activation("relu"))
    assert inst.W_up[0][0] == Fraction(*x.as_integer_ratio()) != Fraction(float(x))


# ------------------------------------------------------------------ guards


def test_duplicate_json_keys_are_an_error() -> None:
    text = '{"activation": "relu", "W_up": [[1]], "W_down": [[1]], "W_up": [[2]]}'
    with pytest.raises(InputError, match="duplicate key 'W_up'"):
        instance_from_json(text)


def test_json_integer_over_python_digit_limit() -> None:
    big = "7" * 5000
    with pytest.raises(InputError, match="limit of 4300"):
        instance_from_json(js(W_up=None).replace('"W_down"', f'"W_up": [[{big}]], "W_down"').replace(
            '"W_down": [[1, 0], [0, 1]]', '"W_down": [[1]]'))


def test_fifty_megabyte_decimal_rejected_fast(tmp_path: Path) -> None:
    import time

    path = tmp_path / "huge.json"
    path.write_text('{"activation": "relu", "W_up": [[0.' + "1" * (50 * 1024 * 1024) + ']], "W_down": [[1]]}')
    start = time.monotonic()
    with pytest.raises(InputError, match="huge.json: .*exceeds the limit"):
        load_instance(path)
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("text", ["\u0661\u0662", "\uff11", "1\u0665/2", "\u0661e3"])
def test_only_ascii_digits(text: str) -> None:
    with pytest.raises(InputError, match="not a number"):
        instance_from_json(js(W_up=[[text, 0], [0, 1]]))


def test_max_entries_guard_json() -> None:
    from pybridge.io.limits import Limits

    with pytest.raises(InputError, match="exceeds the limit of 3"):
        instance_from_json(js(), limits=Limits(max_entries=3))
    assert instance_from_json(js(), limits=Limits(max_entries=4)).n == 2


def _raw_safetensors(path: Path, header: dict, data: bytes = b"") -> None:
    h = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(h)) + h + data)


@pytest.mark.parametrize(
    "spec",
    [
        {"dtype": ["F32"], "shape": [1, 1], "data_offsets": [0, 4]},
        {"dtype": "F32", "shape": [True, 1], "data_offsets": [0, 4]},
        {"dtype": "F32", "shape": [1, 1], "data_offsets": [False, 4]},
        {"dtype": "F32", "shape": [1.0, 1], "data_offsets": [0, 4]},
        {"dtype": "F32", "shape": [-1, 1], "data_offsets": [0, 4]},
        {"dtype": "F32", "shape": "11", "data_offsets": [0, 4]},
        {"dtype": "F32", "shape": [1, 1], "data_offsets": [4, 0]},
        {"dtype": "F32", "shape": [1, 1], "data_offsets": [0, 4], "extra": 1},
        {"dtype": None, "shape": [1, 1], "data_offsets": [0, 4]},
        [1, 2],
    ],
)
def test_safetensors_header_types(tmp_path: Path, spec: object) -> None:
    path = tmp_path / "h.safetensors"
    _raw_safetensors(path, {"W_up": spec, "W_down": {"dtype": "F32", "shape": [1, 1], "data_offsets": [4, 8]}},
                     np.ones(2, dtype="<f4").tobytes())
    with pytest.raises(InputError, match="h.safetensors: malformed header"):
        load_instance(path, Activation("relu"))


def test_safetensors_header_duplicate_key_and_huge_int(tmp_path: Path) -> None:
    path = tmp_path / "d.safetensors"
    h = b'{"W_up": {"dtype": "F32", "shape": [1, 1], "data_offsets": [0, 4]}, "W_up": {}}'
    path.write_bytes(struct.pack("<Q", len(h)) + h + b"\0" * 4)
    with pytest.raises(InputError, match="duplicate key"):
        load_instance(path, Activation("relu"))
    h = b'{"W_up": {"dtype": "F32", "shape": [' + b"9" * 5000 + b'], "data_offsets": [0, 4]}}'
    path.write_bytes(struct.pack("<Q", len(h)) + h + b"\0" * 4)
    with pytest.raises(InputError, match="limit"):
        load_instance(path, Activation("relu"))


def test_npz_zip_bomb_refused_before_decompressing(tmp_path: Path) -> None:
    import io
    import time
    import zipfile

    path = tmp_path / "bomb.npz"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for key, shape in (("W_up", (20000, 2000)), ("W_down", (2000, 20000))):
            head = io.BytesIO()
            np.lib.format.write_array_header_1_0(head, {"descr": "<f8", "fortran_order": False, "shape": shape})
            with zf.open(f"{key}.npy", "w", force_zip64=True) as fp:
                fp.write(head.getvalue())
                chunk = bytes(1 << 20)
                for _ in range(64):  # 64 MB of zeros compressed to about 64 KB (a real file has 320 MB)
                    fp.write(chunk)
    assert path.stat().st_size < 1_000_000
    start = time.monotonic()
    with pytest.raises(InputError, match="bomb.npz: 'W_up': 20000x2000 = 40000000 entries exceeds"):
        load_instance(path, Activation("relu"))
    assert time.monotonic() - start < 2


def test_npz_object_array_refused(tmp_path: Path) -> None:
    path = tmp_path / "obj.npz"
    np.savez(path, W_up=np.array([[object()]], dtype=object), W_down=np.ones((1, 1)))
    with pytest.raises(InputError, match="pickles are refused"):
        load_instance(path, Activation("relu"))


def test_safetensors_max_entries(tmp_path: Path) -> None:
    from pybridge.io.limits import Limits

    path = tmp_path / "m.safetensors"
    save_file({"W_up": np.ones((3, 2), dtype=np.float32), "W_down": np.ones((2, 3), dtype=np.float32)}, str(path))
    with pytest.raises(InputError, match="6 entries exceeds the limit of 5"):
        load_instance(path, Activation("relu"), limits=Limits(max_entries=5))
