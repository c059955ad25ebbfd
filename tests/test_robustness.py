"""Inputs that used to make the CLI fall over: each gives a verdict or one line and exit 2.

Exit status: 0 any verdict, 1 only when Coq rejected a certificate, 2 bad input (one
line on stderr naming the file and the problem), 3 internal error (one line).
"""

from __future__ import annotations

import json
import struct
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from helpers import run_main as run

import pybridge.api as api
import pybridge.checking as checking
from pybridge.errors import EXIT_INTERNAL, InputError
from pybridge.model import Activation, Instance

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
F = Fraction




def one_line_error(code: int, out: str, err: str, *needles: str, exit_code: int = 2) -> str:
    assert code == exit_code, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


# ----------------------------------------------------------------- numbers


def test_json_integer_over_4300_digits(capsys, tmp_path: Path) -> None:
    path = tmp_path / "bigint.json"
    path.write_text('{"activation": "relu", "W_up": [[' + "9" * 5000 + ']], "W_down": [[1]]}')
    one_line_error(*run(capsys, "check", str(path), "--no-prove"), "bigint.json", "limit of 4300")


def test_fifty_megabyte_decimal_is_refused_fast(capsys, tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"activation": "relu", "W_up": [["0.' + "3" * (50 * 1024 * 1024) + '"]], "W_down": [[1]]}')
    start = time.monotonic()
    one_line_error(*run(capsys, "check", str(path), "--no-prove"), "big.json", "exceeds the limit")
    assert time.monotonic() - start < 5


@pytest.mark.parametrize(
    "content,needle",
    [
        ('{"activation": "relu", "W_up": [[1]], "W_down": [[1]], "W_up": [[2]]}', "duplicate key"),
        ('{"activation": "relu", "W_up": [["\u0661"]], "W_down": [[1]]}', "not a number"),
        ('{"activation": "relu", "W_up": [[1]], "W_down": [[1]], "b_up": [1, 2]}', "b_up has length 2"),
        ('{"activation": "relu", "W_up": [[1]], "W_down": [[1]], "b_gate": [1]}', "b_gate given"),
        ('{"activation": "relu^-1", "W_up": [[1]], "W_down": [[1]]}', "activation"),
        ('{"activation": 5, "W_up": [[1]], "W_down": [[1]]}', "activation must be a string"),
        ('{"activation": "relu", "W_up": [[{"a": 1}]], "W_down": [[1]]}', "expected a number, got an object"),
        ('[' * 100000 + ']' * 100000, "nested too deeply"),
    ],
)
def test_bad_json_one_line(capsys, tmp_path: Path, content: str, needle: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    one_line_error(*run(capsys, "check", str(path), "--no-prove"), "bad.json", needle)


def test_max_entries_option(capsys, tmp_path: Path) -> None:
    one_line_error(*run(capsys, "check", str(EXAMPLES / "relu_absorbable.json"), "--no-prove", "--max-entries", "3"),
                   "relu_absorbable.json", "exceeds the limit of 3")


# ----------------------------------------------------------------- array files


@pytest.mark.parametrize("spec", [{"dtype": ["F32"], "shape": [1, 1]}, {"dtype": "F32", "shape": [True, 1]}])
def test_safetensors_header_types(capsys, tmp_path: Path, spec: dict) -> None:
    path = tmp_path / "h.safetensors"
    header = {"W_up": {**spec, "data_offsets": [0, 4]}, "W_down": {"dtype": "F32", "shape": [1, 1], "data_offsets": [4, 8]}}
    h = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(h)) + h + b"\0" * 8)
    one_line_error(*run(capsys, "check", str(path), "--activation", "relu", "--no-prove"), "h.safetensors", "malformed header")


def test_npz_zip_bomb(capsys, tmp_path: Path) -> None:
    import io
    import zipfile

    path = tmp_path / "zeros.npz"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for key, shape in (("W_up", (20000, 2000)), ("W_down", (2000, 20000))):
            head = io.BytesIO()
            np.lib.format.write_array_header_1_0(head, {"descr": "<f8", "fortran_order": False, "shape": shape})
            with zf.open(f"{key}.npy", "w", force_zip64=True) as fp:
                fp.write(head.getvalue() + bytes(1 << 22))
    start = time.monotonic()
    one_line_error(*run(capsys, "check", str(path), "--activation", "relu"), "zeros.npz", "40000000 entries")
    assert time.monotonic() - start < 2


# ----------------------------------------------------------------- verdicts kept


OVERFLOWS = {
    "silu_absorbable": ('{"activation": "silu", "W_up": [[1e400]], "W_down": [[-1e-400]]}', "absorbable"),
    "gelu_tanh_absorbable": ('{"activation": "gelu_tanh", "W_up": [[1e200, 0], [0, 1]], '
                             '"W_down": [[-1e-200, 0], [0, -1]]}', "absorbable"),
    "swiglu_gate": ('{"activation": "swiglu", "W_gate": [[1e400]], "W_up": [[1]], "W_down": [[1]]}', "not_absorbable"),
}


@pytest.mark.parametrize("name", sorted(OVERFLOWS))
def test_crosscheck_overflow_keeps_the_verdict(capsys, tmp_path: Path, name: str) -> None:
    content, verdict = OVERFLOWS[name]
    path = tmp_path / f"{name}.json"
    path.write_text(content)
    code, out, err = run(capsys, "check", str(path), "--no-prove", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["verdict"] == verdict
    assert "float overflow" in doc["crosscheck"]["skipped"]
    assert doc["crosscheck"]["consistent"] is not False


# ----------------------------------------------------------------- outputs


def test_unwritable_keep_certificate_refused_before_work(capsys, tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setattr(checking, "certify", lambda *a, **k: pytest.fail("certify ran"))
    one_line_error(*run(capsys, "check", str(EXAMPLES / "relu_absorbable.json"), "--keep-certificate",
                        str(blocker / "certs")), "--keep-certificate", "is not a directory")


def test_unwritable_json_out_refused_before_work(capsys, tmp_path: Path, monkeypatch) -> None:
    from safetensors.numpy import save_file

    rng = np.random.default_rng(0)
    save_file({"model.decoder.layers.0.fc1.weight": rng.standard_normal((4, 2)).astype(np.float32),
               "model.decoder.layers.0.fc2.weight": rng.standard_normal((2, 4)).astype(np.float32)},
              str(tmp_path / "model.safetensors"))
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "opt", "num_hidden_layers": 1,
                                                       "activation_function": "relu"}))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setattr(checking, "decide", lambda *a, **k: pytest.fail("decide ran"))
    one_line_error(*run(capsys, "scan", str(tmp_path), "--no-prove", "--json-out", str(blocker / "r.json")),
                   "--json-out", "directory does not exist")
    one_line_error(*run(capsys, "scan", str(tmp_path), "--no-prove", "--json-out", str(tmp_path)),
                   "--json-out", "is a directory")


def test_rich_markup_in_file_names_is_shown_verbatim(capsys, tmp_path: Path) -> None:
    path = tmp_path / "x[red]y.json"
    path.write_text((EXAMPLES / "relu_absorbable.json").read_text())
    code, out, _ = run(capsys, "check", str(path), "--no-prove")
    assert code == 0 and "x[red]y.json" in out


def test_internal_error_exit_3_one_line(capsys, monkeypatch) -> None:
    def boom(*args, **kwargs):
        raise RuntimeError("invariant broken\nsecond line")

    monkeypatch.setattr(checking, "decide", boom)
    line = one_line_error(*run(capsys, "check", str(EXAMPLES / "relu_absorbable.json"), "--no-prove"),
                          "internal error", "RuntimeError", exit_code=EXIT_INTERNAL)
    assert line.startswith("pybridge: internal error:")


# ----------------------------------------------------------------- Python API


def test_api_bad_arguments_are_input_errors() -> None:
    from pybridge.decision.crosscheck import crosscheck
    from pybridge.generate import generate

    inst = api.load(EXAMPLES / "relu_absorbable.json")
    for call in (
        lambda: api.check(object()),
        lambda: api.check(inst, timeout=-1, prove=False),
        lambda: api.check(inst, timeout="x", prove=False),
        lambda: api.check(inst, keep_dir=3, prove=False),
        lambda: api.load(123),
        lambda: api.load(EXAMPLES / "relu_absorbable.json", activation=7),
        lambda: api.load(EXAMPLES / "relu_absorbable.json", max_entries=0),
        lambda: api.scan(EXAMPLES, max_entries=-1, prove=False),
        lambda: api.scan(12, prove=False),
        lambda: api.load(EXAMPLES),
        lambda: api.report_to_json(None),
        lambda: api.exit_code(3),
        lambda: generate(Activation("relu"), "3", 4),
        lambda: generate("relu", 2, 4),
        lambda: generate(Activation("relu"), 2, 4, seed="x"),
        lambda: crosscheck(None, None),
    ):
        with pytest.raises(InputError):
            call()


def test_instance_validates_on_construction() -> None:
    A = ((F(1), F(0)), (F(0), F(1)))
    relu = Activation("relu")
    with pytest.raises(InputError, match="b_up has length 3"):
        Instance(relu, A, A, b_up=(F(1), F(2), F(3)))
    with pytest.raises(InputError, match="b_gate given"):
        Instance(relu, A, A, b_gate=(F(1), F(2)))
    with pytest.raises(InputError, match="W_gate given"):
        Instance(relu, A, A, W_gate=A)
    with pytest.raises(InputError, match="W_gate is missing"):
        Instance(Activation("swiglu"), A, A)
    with pytest.raises(InputError):
        Instance(Activation("relu_pow", -1), A, A)
    with pytest.raises(InputError, match="degree"):
        Instance(Activation("relu_pow", 2.5), A, A)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="exact number"):
        Instance(relu, ((0.5, 0.0), (0.0, 1.0)), A)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="W_down must be"):
        Instance(relu, A, ((F(1), F(0)),))
    assert Instance("relu", A, A).activation == relu  # a name is resolved (issue 21)
    with pytest.raises(InputError):
        Instance("no_such_activation", A, A)  # type: ignore[arg-type]
    assert Instance(relu, A, A, b_up=(F(1), 0)).n == 2


@pytest.mark.coq
def test_huge_gate_weights_verdict_checked_by_coq(capsys, backend, tmp_path: Path) -> None:
    """R3's certificate does not depend on the weights: 1e400 in the gate is no obstacle."""
    path = tmp_path / "gate.json"
    path.write_text(OVERFLOWS["swiglu_gate"][0])
    code, out, err = run(capsys, "check", str(path), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["verdict"] == "not_absorbable" and doc["checked"] is True
    assert "float overflow" in doc["crosscheck"]["skipped"]


def test_activation_option_takes_transformers_names(capsys, tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text('{"W_up": [[1]], "W_down": [[-1]]}')
    for name, label in (("gelu_new", "gelu_tanh"), ("gelu_pytorch_tanh", "gelu_tanh"), ("swish", "silu"),
                        ("quick_gelu", "quick_gelu"), ("gelu_fast", "gelu_fast")):
        code, out, err = run(capsys, "check", str(path), "--activation", name, "--no-prove", "--json")
        assert code == 0, err
        assert json.loads(out)["activation"] == label
