"""Each family's normalization read from config.json and tensor names (R11 sublayers).

Checkpoints are the generated ones of ``test_architectures`` (d = 4, n = 6) with each
family's norm tensors added; the norm found (position, kind, parallel), its exact gamma,
beta and eps are checked, and so are the config switches (OPT's do_layer_norm_before,
GPT-NeoX's use_parallel_residual, Falcon's parallel_attn), a missing norm tensor (its own
status) and a bad eps.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from test_architectures import CASES, D, gpt2, gpt_neox, opt, write

from pybridge.errors import InputError
from pybridge.io import checkpoints as ck

#: case -> (norm tensor under each layer, has bias, position, kind, parallel, eps)
EXPECTED: dict[str, tuple] = {
    "llama": ("post_attention_layernorm", False, "pre", "rmsnorm", False, Fraction(1, 10**6)),
    "mistral": ("post_attention_layernorm", False, "pre", "rmsnorm", False, Fraction(1, 10**6)),
    "qwen2": ("post_attention_layernorm", False, "pre", "rmsnorm", False, Fraction(1, 10**6)),
    "phi3": ("post_attention_layernorm", False, "pre", "rmsnorm", False, Fraction(1, 10**5)),
    "phi2": ("input_layernorm", True, "pre", "layernorm", True, Fraction(1, 10**5)),
    "gpt2": ("ln_2", True, "pre", "layernorm", False, Fraction(1, 10**5)),
    "gpt_neox": ("post_attention_layernorm", True, "pre", "layernorm", True, Fraction(1, 10**5)),
    "opt": ("final_layer_norm", True, "pre", "layernorm", False, Fraction(1, 10**5)),
    "bert": ("output.LayerNorm", True, "post", "layernorm", False, Fraction(1, 10**12)),
    "roberta": ("output.LayerNorm", True, "post", "layernorm", False, Fraction(1, 10**12)),
    "mpnet": ("output.LayerNorm", True, "post", "layernorm", False, Fraction(1, 10**12)),
    "distilbert": ("output_layer_norm", True, "post", "layernorm", False, Fraction(1, 10**12)),
    "falcon": ("input_layernorm", True, "pre", "layernorm", True, Fraction(1, 10**5)),
    "t5": (None, False, "pre", "rmsnorm", False, Fraction(1, 10**6)),
    "clip": ("layer_norm2", True, "pre", "layernorm", False, Fraction(1, 10**5)),
}


def with_norms(tensors: dict, layers: list[str], tensor: str | None, bias: bool, seed: int = 3) -> dict:
    rng = np.random.default_rng(seed)
    out = dict(tensors)
    for name in layers:
        base = tensor
        if base is None:  # T5: layer.1 (encoder) / layer.2 (decoder)
            base = "layer.1.layer_norm" if name.startswith("encoder") else "layer.2.layer_norm"
        out[f"{name}.{base}.weight"] = (rng.integers(1, 5, size=D) / 4).astype(np.float32)
        if bias:
            out[f"{name}.{base}.bias"] = (rng.integers(-3, 4, size=D) / 8).astype(np.float32)
    return out


def build(tmp: Path, case: str, config_extra: dict | None = None, drop: str | None = None) -> list:
    builder, layer_names, _ = CASES[case][:3]
    tensors, config = builder()
    tensor, bias = EXPECTED[case][:2]
    tensors = with_norms(tensors, layer_names, tensor, bias)
    if drop is not None:
        del tensors[drop]
    config.update(config_extra or {})
    ckpt = ck.open_checkpoint(write(tmp, tensors, config))
    return ck.find_layers(ckpt)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_family_norm(tmp_path: Path, case: str) -> None:
    tensor, bias, position, kind, parallel, eps = EXPECTED[case]
    layers = build(tmp_path, case)
    builder, layer_names, _ = CASES[case][:3]
    tensors = with_norms(builder()[0], layer_names, tensor, bias)
    for layer in layers:
        assert layer.norm is not None and layer.norm.status == "ok", layer.norm
        norm = ck.load_norm(layer, D)
        assert (norm.position, norm.kind, norm.parallel, norm.eps) == (position, kind, parallel, eps)
        base = tensor or ("layer.1.layer_norm" if layer.name.startswith("encoder") else "layer.2.layer_norm")
        assert norm.gamma == tuple(Fraction(float(x)) for x in tensors[f"{layer.name}.{base}.weight"])
        if bias:
            assert norm.beta == tuple(Fraction(float(x)) for x in tensors[f"{layer.name}.{base}.bias"])
        else:
            assert norm.beta is None


def test_config_switches(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    post = build(tmp_path / "a", "opt", {"do_layer_norm_before": False})  # OPT-350m
    assert {ck.load_norm(layer, D).position for layer in post} == {"post"}
    (tmp_path / "b").mkdir()
    seq = build(tmp_path / "b", "gpt_neox", {"use_parallel_residual": False, "layer_norm_eps": 1e-6})
    norm = ck.load_norm(seq[0], D)
    assert (norm.position, norm.parallel, norm.eps) == ("pre", False, Fraction(1, 10**6))
    (tmp_path / "c").mkdir()
    tensors, config = CASES["falcon"][0]()
    tensors = with_norms(tensors, CASES["falcon"][1], "post_attention_layernorm", True)
    config["parallel_attn"] = False
    layers = ck.find_layers(ck.open_checkpoint(write(tmp_path / "c", tensors, config)))
    assert ck.load_norm(layers[0], D).parallel is False
    (tmp_path / "d").mkdir()
    tensors, config = gpt2()
    config["layer_norm_epsilon"] = 1e-5
    layers = ck.find_layers(ck.open_checkpoint(write(tmp_path / "d", tensors, config)))
    # gpt2() has no ln_2: the norm is missing, not silently none
    assert all(layer.norm.status == "missing_tensor" and "h.0.ln_2.weight" in layers[0].norm.problem
               for layer in layers)
    with pytest.raises(InputError, match="missing norm tensor"):
        ck.load_norm(layers[0], D)


def test_missing_norm_bias_and_bad_eps(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    layers = build(tmp_path / "a", "clip", drop="text_model.encoder.layers.1.layer_norm2.weight")
    statuses = [layer.norm.status for layer in layers]
    assert statuses == ["ok", "missing_tensor", "ok"]
    assert layers[0].status == "ok"  # the bare block is whole
    for bad in (0, -1e-5, "x", True, float("inf"), "1e-99999999", "9" * 100):
        (tmp_path / "b").mkdir(exist_ok=True)
        layers = build(tmp_path / "b", "gpt2", {"layer_norm_epsilon": bad})
        assert layers[0].norm.status == "bad_config", bad


def test_unknown_and_unmodelled_families_are_none_with_a_note(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    tensors, config = CASES["gemma2"][0]()
    layers = ck.find_layers(ck.open_checkpoint(write(tmp_path / "a", tensors, config)))
    norm = ck.load_norm(layers[0], D)
    assert norm.position == "none" and "sandwich" in norm.note
    (tmp_path / "b").mkdir()
    tensors, config = CASES["mixtral"][0]()
    layers = ck.find_layers(ck.open_checkpoint(write(tmp_path / "b", tensors, config)))
    assert ck.load_norm(layers[0], D).position == "none"


def test_gemma_gamma_is_one_plus_weight(tmp_path: Path) -> None:
    tensors, config = CASES["gemma"][0]()
    layers = ck.find_layers(ck.open_checkpoint(write(tmp_path, tensors, config)))
    norm = ck.load_norm(layers[0], D)
    w = tensors["model.layers.0.post_attention_layernorm.weight"]
    assert norm.gamma == tuple(1 + Fraction(float(x)) for x in w)


def test_neox_parallel_default_and_opt_no_affine(tmp_path: Path) -> None:
    tensors, config = gpt_neox()
    tensors = with_norms(tensors, CASES["gpt_neox"][1], "post_attention_layernorm", True)
    layers = ck.find_layers(ck.open_checkpoint(write(tmp_path, tensors, config)))
    assert ck.load_norm(layers[1], D).parallel is True  # use_parallel_residual defaults to true
    (tmp_path / "o").mkdir()
    tensors, config = opt()
    config["layer_norm_elementwise_affine"] = False
    layers = ck.find_layers(ck.open_checkpoint(write(tmp_path / "o", tensors, config)))
    norm = ck.load_norm(layers[0], D)
    assert norm.gamma == (Fraction(1),) * D and norm.beta == (Fraction(0),) * D


def test_missing_norm_bias_is_missing(tmp_path: Path) -> None:
    """A family whose norm has a bias: an absent bias is a problem too (never read as zero)."""
    layers = build(tmp_path, "gpt2", drop="h.0.ln_2.bias")
    assert layers[0].norm.status == "missing_tensor" and "h.0.ln_2.bias" in layers[0].norm.problem
    assert layers[1].norm.status == "ok"
