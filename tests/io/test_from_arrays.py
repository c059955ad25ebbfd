"""pybridge.from_arrays and NumPy input to Instance (issue 21): every real dtype read
exactly, activations by name or object, one-line InputError for bad input."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

import pybridge
from pybridge.activations import Activation
from pybridge.errors import InputError
from pybridge.io.arrays import instance_from_arrays
from pybridge.model import Instance

F = Fraction


def test_top_level_names_are_lazy() -> None:
    """Importing pybridge or a submodule does not import the API (and so numpy, sympy, z3)."""
    code = ("import sys, pybridge, pybridge.io.limits; "
            "print('pybridge.api' in sys.modules, 'sympy' in sys.modules); "
            "pybridge.check; print('pybridge.api' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False", "True"]
    assert {"check", "scan", "load", "from_arrays"} <= set(dir(pybridge))
    with pytest.raises(AttributeError):
        pybridge.no_such_name  # noqa: B018


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.longdouble,
                                   np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64])
def test_every_real_dtype_is_read_exactly(dtype) -> None:
    up = np.array([[3, -1], [1, 2], [0, 5]]).astype(dtype) if np.dtype(dtype).kind != "u" else \
        np.array([[3, 1], [1, 2], [0, 5]], dtype=dtype)
    inst = pybridge.from_arrays(up, np.ones((2, 3), dtype=dtype), "relu")
    assert inst.W_up.materialize() == tuple(tuple(F(int(x)) for x in row) for row in up.tolist())


def test_floats_read_by_binary_value_not_decimal() -> None:
    inst = pybridge.from_arrays(np.array([[0.1]], dtype=np.float32), np.array([[1.0]]), "gelu")
    assert inst.W_up.materialize()[0][0] == F(np.float32(0.1).item())    # 13421773/134217728
    assert inst.W_up.materialize()[0][0] != F(1, 10)
    tiny = pybridge.from_arrays(np.array([[5e-324]]), np.array([[2.0**1000]]), "relu")  # subnormal, huge
    assert tiny.W_up.materialize()[0][0] == F(1, 2**1074) and tiny.W_down.materialize()[0][0] == 2**1000


def test_bfloat16_as_uint16_bits_and_via_ml_dtypes() -> None:
    bits = np.array([[0x3FC0, 0xC000]], dtype=np.uint16)       # 1.5, -2.0 in bfloat16
    inst = pybridge.from_arrays(bits, np.array([[1], [1]]), bfloat16_bits=True)
    assert inst.W_up.materialize() == ((F(3, 2), F(-2)),)
    plain = pybridge.from_arrays(bits, np.array([[1], [1]]))    # without the flag: integers
    assert plain.W_up.materialize() == ((F(0x3FC0), F(0xC000)),)
    ml_dtypes = pytest.importorskip("ml_dtypes")
    arr = np.array([[1.5, -2.0]], dtype=ml_dtypes.bfloat16)
    assert pybridge.from_arrays(arr, np.array([[1], [1]])).W_up.materialize() == ((F(3, 2), F(-2)),)


def test_all_roles_and_activation_objects() -> None:
    inst = pybridge.from_arrays(np.eye(2), -np.eye(2), Activation("swiglu"), b_up=np.array([1, 2]),
                                b_down=np.array([0.5, 0]), skip=np.array([[2, 0], [0, 1]]), gate=np.eye(2),
                                b_gate=np.array([0, 0]))
    assert inst.activation == Activation("swiglu") and inst.b_down == (F(1, 2), F(0))
    assert inst.skip is not None and inst.W_gate is not None
    assert pybridge.from_arrays(np.eye(2), np.eye(2), "gelu_new").activation == Activation("gelu_tanh")


@pytest.mark.parametrize(
    "up,down,kw,words",
    [
        (np.array([[np.nan]]), np.array([[1.0]]), {}, "NaN"),
        (np.array([[1.0]]), np.array([[np.inf]]), {}, "NaN or infinity"),
        (np.array([1.0, 2.0]), np.array([[1.0, 1.0]]), {}, "2-dimensional"),
        (np.ones((2, 1, 1)), np.array([[1.0, 1.0]]), {}, "2-dimensional"),
        (np.ones((2, 1)), np.ones((2, 1)), {}, "W_down"),
        (np.zeros((0, 2)), np.zeros((2, 0)), {}, "zero-size"),
        (np.array([[F(1)]], dtype=object), np.array([[1]]), {}, "dtype object"),
        (np.array([[1 + 2j]]), np.array([[1]]), {}, "complex"),
        (np.array([[True]]), np.array([[1]]), {}, "boolean"),
        (np.array([["1"]]), np.array([[1]]), {}, "unsupported array type"),
        ([[1], [2, 3]], np.array([[1, 1]]), {}, "rectangular"),
        ("[[1]]", np.array([[1]]), {}, "array of numbers"),
        (np.eye(2), np.eye(2), {"activation": "tanh"}, "tanh"),
        (np.eye(2), np.eye(2), {"activation": 3}, "activation must be"),
        (np.eye(2), np.eye(2), {"activation": None}, "activation is required"),
        (np.eye(2), np.eye(2), {"gate": np.eye(2)}, "not gated"),
        (np.eye(2), np.eye(2), {"activation": "swiglu"}, "W_gate is missing"),
        (np.eye(2), np.eye(2), {"b_up": np.ones(3)}, "b_up has length 3"),
    ],
)
def test_bad_input_is_one_line_input_error(up, down, kw, words: str) -> None:
    with pytest.raises(InputError) as info:
        pybridge.from_arrays(up, down, **kw)
    text = str(info.value)
    assert words in text and "\n" not in text


def test_size_limit_checked_before_conversion() -> None:
    from pybridge.io.limits import Limits

    with pytest.raises(InputError, match="exceeds the limit of 10"):
        pybridge.from_arrays(np.ones((4, 4)), np.ones((4, 4)), limits=Limits(max_entries=10))


def test_instance_takes_numpy_arrays_and_names() -> None:
    inst = Instance(activation="relu", W_up=np.array([[1], [2]], dtype=np.int64), W_down=np.array([[1, 1]]),
                    b_up=np.array([1, -1]))
    assert inst.activation == Activation("relu") and inst.n == 2 and inst.d == 1
    assert inst.W_up.materialize() == ((F(1),), (F(2),)) and inst.b_up == (F(1), F(-1))
    with pytest.raises(InputError, match="unknown activation"):
        Instance(activation="elu", W_up=((F(1),),), W_down=((F(1),),))
    with pytest.raises(InputError, match="NaN"):
        Instance(activation="relu", W_up=np.array([[np.nan]]), W_down=np.array([[1.0]]))


def test_instance_from_arrays_accepts_a_name() -> None:
    inst = instance_from_arrays({"W_up": np.eye(2), "W_down": -np.eye(2)}, source="x", activation="silu")
    assert inst.activation == Activation("silu")


def test_from_arrays_decides_as_the_json_route() -> None:
    """Arrays and the JSON example give the same decision (same exact numbers)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    json_inst = pybridge.load(root / "examples" / "relu_absorbable.json")
    up = np.array([[float(x) for x in row] for row in json_inst.W_up])
    down = np.array([[float(x) for x in row] for row in json_inst.W_down])
    arr_inst = pybridge.from_arrays(up, down, "relu")
    a = pybridge.check(arr_inst, prove=False).decision
    b = pybridge.check(json_inst, prove=False).decision
    assert (a.verdict, a.result, a.witness.subset) == (b.verdict, b.result, b.witness.subset) == ("absorbable", "R5", (0, 2))
