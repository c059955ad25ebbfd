"""Recognising MLP blocks in tiny fake checkpoints with real tensor names and configs."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from pybridge.errors import InputError
from pybridge.exact.arrays import ArrayMatrix
from pybridge.io import checkpoints as ck
from pybridge.model import Activation

D, N = 4, 6


def w(rng: np.random.Generator, *shape: int, dtype=np.float32) -> np.ndarray:
    return rng.integers(-3, 4, size=shape).astype(dtype) / 2


def llama(tmp: Path, layers: int = 2, act: str = "silu", key: str = "hidden_act", shards: int = 1,
          model_type: str = "llama") -> Path:
    rng = np.random.default_rng(0)
    tensors = {"model.embed_tokens.weight": w(rng, 10, D), "model.norm.weight": w(rng, D)}
    for i in range(layers):
        p = f"model.layers.{i}"
        tensors[f"{p}.mlp.gate_proj.weight"] = w(rng, N, D)
        tensors[f"{p}.mlp.up_proj.weight"] = w(rng, N, D)
        tensors[f"{p}.mlp.down_proj.weight"] = w(rng, D, N)
        tensors[f"{p}.self_attn.q_proj.weight"] = w(rng, D, D)
        tensors[f"{p}.self_attn.o_proj.weight"] = w(rng, D, D)
    names = sorted(tensors)
    for s in range(shards):
        part = {k: tensors[k] for k in names[s::shards]}
        save_file(part, str(tmp / f"model-{s + 1:05d}-of-{shards:05d}.safetensors"))
    (tmp / "config.json").write_text(json.dumps({"model_type": model_type, key: act, "hidden_size": D}))
    return tmp


def gpt2(tmp: Path) -> Path:
    rng = np.random.default_rng(1)
    tensors = {"wte.weight": w(rng, 10, D)}
    for i in range(2):
        p = f"h.{i}"
        tensors[f"{p}.mlp.c_fc.weight"] = w(rng, D, N)  # Conv1D: (in, out)
        tensors[f"{p}.mlp.c_fc.bias"] = w(rng, N)
        tensors[f"{p}.mlp.c_proj.weight"] = w(rng, N, D)
        tensors[f"{p}.mlp.c_proj.bias"] = w(rng, D)
        tensors[f"{p}.attn.c_proj.weight"] = w(rng, D, D)
        tensors[f"{p}.attn.c_attn.weight"] = w(rng, D, 3 * D)
    save_file(tensors, str(tmp / "model.safetensors"))
    (tmp / "config.json").write_text(json.dumps({"model_type": "gpt2", "activation_function": "gelu_new"}))
    return tmp


def opt(tmp: Path) -> Path:
    rng = np.random.default_rng(2)
    tensors = {}
    for i in range(3):
        p = f"model.decoder.layers.{i}"
        tensors[f"{p}.fc1.weight"] = w(rng, N, D)
        tensors[f"{p}.fc1.bias"] = w(rng, N)
        tensors[f"{p}.fc2.weight"] = w(rng, D, N)
        tensors[f"{p}.fc2.bias"] = w(rng, D)
        tensors[f"{p}.self_attn.out_proj.weight"] = w(rng, D, D)
    save_file(tensors, str(tmp / "model.safetensors"))
    (tmp / "config.json").write_text(json.dumps({"model_type": "opt", "activation_function": "relu"}))
    return tmp


def bert(tmp: Path) -> Path:
    rng = np.random.default_rng(3)
    tensors = {}
    for i in range(2):
        p = f"bert.encoder.layer.{i}"
        tensors[f"{p}.attention.output.dense.weight"] = w(rng, D, D)
        tensors[f"{p}.attention.output.dense.bias"] = w(rng, D)
        tensors[f"{p}.intermediate.dense.weight"] = w(rng, N, D)
        tensors[f"{p}.intermediate.dense.bias"] = w(rng, N)
        tensors[f"{p}.output.dense.weight"] = w(rng, D, N)
        tensors[f"{p}.output.dense.bias"] = w(rng, D)
    save_file(tensors, str(tmp / "model.safetensors"))
    (tmp / "config.json").write_text(json.dumps({"model_type": "bert", "hidden_act": "gelu"}))
    return tmp


def test_llama_gated_swiglu_sharded(tmp_path: Path) -> None:
    c = ck.open_checkpoint(llama(tmp_path, layers=3, shards=2))
    layers = ck.find_layers(c)
    assert [l.name for l in layers] == ["model.layers.0", "model.layers.1", "model.layers.2"]
    assert all(l.family == "llama" and l.gated for l in layers)
    act, note = ck.config_activation(c, gated=True)
    assert act == Activation("swiglu") and "hidden_act=silu" in note
    inst = ck.load_layer(layers[1], act, lazy=True)
    assert isinstance(inst.W_up, ArrayMatrix) and (inst.d, inst.n) == (D, N)
    raw = c.tensors["model.layers.1.mlp.up_proj.weight"].file.array("model.layers.1.mlp.up_proj.weight")
    assert inst.W_up[2] == tuple(Fraction(float(x)) for x in raw[2])
    assert ck.layer_shape(layers[0]) == (D, N)


def test_gpt2_conv1d_transposed_with_biases(tmp_path: Path) -> None:
    c = ck.open_checkpoint(gpt2(tmp_path))
    layers = ck.find_layers(c)
    assert [l.name for l in layers] == ["h.0", "h.1"]  # attn.c_proj has no partner
    act, _ = ck.config_activation(c, gated=False)
    assert act == Activation("gelu_tanh")
    inst = ck.load_layer(layers[0], act)
    raw = c.tensors["h.0.mlp.c_fc.weight"].file.array("h.0.mlp.c_fc.weight")
    assert (inst.d, inst.n) == (D, N)
    assert inst.W_up[5][1] == Fraction(float(raw[1, 5]))  # W_up = c_fc.weight^T
    assert len(inst.b_up) == N and len(inst.b_down) == D and inst.has_bias


def test_opt_fc1_fc2(tmp_path: Path) -> None:
    c = ck.open_checkpoint(opt(tmp_path))
    layers = ck.find_layers(c)
    assert len(layers) == 3 and all(l.family == "opt" for l in layers)
    act, _ = ck.config_activation(c, gated=False)
    inst = ck.load_layer(layers[2], act)
    assert act == Activation("relu") and (inst.d, inst.n) == (D, N) and inst.b_up is not None


def test_bert_ignores_attention_output(tmp_path: Path) -> None:
    c = ck.open_checkpoint(bert(tmp_path))
    layers = ck.find_layers(c)
    assert [l.name for l in layers] == ["bert.encoder.layer.0", "bert.encoder.layer.1"]
    inst = ck.load_layer(layers[0], ck.config_activation(c, gated=False)[0])
    assert inst.activation == Activation("gelu") and (inst.d, inst.n) == (D, N)


def test_gemma_tanh_gate(tmp_path: Path) -> None:
    c = ck.open_checkpoint(llama(tmp_path, act="gelu_pytorch_tanh", key="hidden_activation", model_type="gemma"))
    act, note = ck.config_activation(c, gated=True)
    assert act == Activation("geglu_tanh") and act.gated
    assert note == "hidden_activation=gelu_pytorch_tanh -> geglu_tanh"
    inst = ck.load_layer(ck.find_layers(c)[0], act, lazy=True)
    assert inst.W_gate is not None and (inst.d, inst.n) == (D, N)


def test_relu2_ungated_up_down(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    save_file(
        {"model.layers.0.mlp.up_proj.weight": w(rng, N, D), "model.layers.0.mlp.down_proj.weight": w(rng, D, N)},
        str(tmp_path / "m.safetensors"),
    )
    (tmp_path / "config.json").write_text(json.dumps({"hidden_act": "relu2"}))
    c = ck.open_checkpoint(tmp_path / "m.safetensors")  # a single file: config.json beside it
    (layer,) = ck.find_layers(c)
    act, _ = ck.config_activation(c, gated=layer.gated)
    assert not layer.gated and act == Activation("relu_pow", 2)
    with pytest.raises(InputError, match="no gate tensor"):
        ck.load_layer(layer, Activation("swiglu"))


def test_map_overrides_names(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    tensors = {}
    for i in range(2):
        tensors[f"blocks.{i}.ffn.w_in.weight"] = w(rng, D, N)
        tensors[f"blocks.{i}.ffn.w_in.bias"] = w(rng, N)
        tensors[f"blocks.{i}.ffn.w_out.weight"] = w(rng, N, D)
    save_file(tensors, str(tmp_path / "m.safetensors"))
    c = ck.open_checkpoint(tmp_path)
    assert ck.find_layers(c) == []
    mapping = ck.parse_map(("up=blocks.{i}.ffn.w_in.weight,down=blocks.{i}.ffn.w_out.weight",))
    layers = ck.find_mapped_layers(c, mapping, transposed=True)
    assert [l.name for l in layers] == ["layer 0", "layer 1"]
    inst = ck.load_layer(layers[1], Activation("relu"))
    assert (inst.d, inst.n) == (D, N) and inst.b_up is not None and inst.b_down is None


@pytest.mark.parametrize("items", [("up=a.{i}",), ("upp=a.{i},down=b.{i}",), ("up=a,down=b.{i}",), ("nonsense",)])
def test_bad_map(items: tuple[str, ...]) -> None:
    with pytest.raises(InputError, match="--map"):
        ck.parse_map(items)


def test_no_config_or_unknown_activation(tmp_path: Path) -> None:
    llama(tmp_path)
    (tmp_path / "config.json").unlink()
    c = ck.open_checkpoint(tmp_path)
    with pytest.raises(InputError, match="--activation"):
        ck.config_activation(c, gated=True)
    (tmp_path / "config.json").write_text(json.dumps({"hidden_act": "tanh"}))
    with pytest.raises(InputError, match="unsupported activation 'tanh'.*--activation"):
        ck.config_activation(ck.open_checkpoint(tmp_path), gated=False)
    (tmp_path / "config.json").write_text(json.dumps({"hidden_act": "softsign"}))
    with pytest.raises(InputError, match="unknown activation 'softsign'"):
        ck.config_activation(ck.open_checkpoint(tmp_path), gated=False)
    (tmp_path / "config.json").write_text("{broken")
    with pytest.raises(InputError, match="malformed"):
        ck.open_checkpoint(tmp_path)


def test_bad_checkpoints(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no .safetensors"):
        ck.open_checkpoint(tmp_path)
    (tmp_path / "x.bin").write_bytes(b"123")
    with pytest.raises(InputError):
        ck.open_checkpoint(tmp_path / "x.bin")
    rng = np.random.default_rng(6)
    bad = {"model.layers.0.mlp.up_proj.weight": w(rng, N, D), "model.layers.0.mlp.down_proj.weight": w(rng, D, N)}
    bad["model.layers.0.mlp.up_proj.weight"][0, 0] = np.nan
    save_file(bad, str(tmp_path / "nan.safetensors"))
    (layer,) = ck.find_layers(ck.open_checkpoint(tmp_path / "nan.safetensors"))
    with pytest.raises(InputError, match="NaN"):
        ck.load_layer(layer, Activation("relu"))
    with pytest.raises(InputError, match="NaN"):
        ck.load_layer(layer, Activation("relu"), lazy=True)
