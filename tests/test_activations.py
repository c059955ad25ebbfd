"""The activation registry: spellings, properties, and its Coq names against the library."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pybridge.activations import REGISTRY, Activation, gated_form, resolve, resolve_hf
from pybridge.errors import InputError

HF_EXPECTED = {
    "gelu": "gelu", "gelu_python": "gelu", "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh",
    "gelu_fast": "gelu_fast", "quick_gelu": "quick_gelu", "silu": "silu", "swish": "silu",
    "relu": "relu", "relu2": "relu^2",
}


@pytest.mark.parametrize("hf, label", sorted(HF_EXPECTED.items()))
def test_hugging_face_names(hf: str, label: str) -> None:
    assert resolve(hf).label == label


@pytest.mark.parametrize("text", ["relu6", "softplus", "relu^0", "relu^65", "", "gelu 2"])
def test_unknown_or_unsupported_names_raise_input_error(text: str) -> None:
    with pytest.raises(InputError):
        resolve(text)


def test_relu_powers_and_case() -> None:
    assert resolve("ReLU") == Activation("relu")
    assert resolve("relu^1") == Activation("relu")
    assert resolve("relu**3") == Activation("relu_pow", 3)
    assert resolve("relu^3").homogeneous_degree == 3
    with pytest.raises(InputError):
        Activation("relu_pow", 1)
    with pytest.raises(InputError):
        Activation("softplus")


def test_gating_and_properties() -> None:
    assert resolve_hf("silu", gated=True) == Activation("swiglu")
    assert resolve_hf("gelu_pytorch_tanh", gated=True) == Activation("geglu_tanh")
    assert resolve_hf("relu", gated=True).homogeneous_degree == 2  # ReGLU
    assert gated_form(Activation("quick_gelu")) is None
    with pytest.raises(InputError):
        resolve_hf("quick_gelu", gated=True)
    assert Activation("swiglu").gate == Activation("silu")
    odd = {a for a, s in REGISTRY.items() if s.odd_part_identity}
    assert odd == {"relu", "gelu", "gelu_tanh", "silu", "gelu_fast", "quick_gelu"}
    assert resolve("quick_gelu").certifiable and not resolve("heaviside").certifiable
    assert REGISTRY["gelu_fast"].certificate_modules == ("MoreActivationDefs", "MoreActivations", "CertifyMore")
    assert resolve("step").homogeneous_degree == 0


def test_evaluators() -> None:
    assert Activation("relu").evaluate(Fraction(-3, 2)) == 0
    assert Activation("relu_pow", 3).evaluate(Fraction(1, 2)) == Fraction(1, 8)
    assert Activation("heaviside").evaluate(Fraction(1, 3)) == 1
    # odd-part identity sigma(z) - sigma(-z) = z, in floats
    for name in ("gelu", "gelu_tanh", "silu", "gelu_fast", "quick_gelu"):
        a = Activation(name)
        assert abs(float(a.evaluate(1.3)) - float(a.evaluate(-1.3)) - 1.3) < 1e-12
    assert abs(Activation("gelu").evaluate(1.0) - 0.8413447460685429) < 1e-12


def test_every_coq_name_is_full() -> None:
    """Registry names are ``Absorb.folder.Module.name`` (Coq finds no shorter form);
    that each exists in the compiled library is tests/coq/test_formal.py's
    ``test_registry_and_certificate_names_exist``."""
    names = [n for spec in REGISTRY.values() for n in spec.coq_names]
    assert len(names) >= 20
    for name in names:
        assert name.startswith("Absorb.") and name.count(".") == 3, name
