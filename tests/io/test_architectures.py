"""Checkpoints of each supported architecture, built with its real tensor names and config.

Tiny sizes (d = 4, n = 6). Each test checks which layers are found (every layer the
config declares, in order), the activation read from the config, and exact values
read back (transposes and fused projections included). Then: sharded with an index,
a missing tensor or shard, a stray duplicate file, extra tensors, Hugging Face cache
layout, pytorch_model.bin.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Callable

import numpy as np
import pytest
from safetensors.numpy import save_file
from torch_format import write_legacy_torch_bin, write_torch_bin

import pybridge.api as api
from pybridge.cli import main
from pybridge.errors import InputError
from pybridge.io import checkpoints as ck
from pybridge.model import Activation

D, N, L = 4, 6, 2


def rnd(seed: int) -> Callable[..., np.ndarray]:
    rng = np.random.default_rng(seed)
    return lambda *shape: (rng.integers(-3, 4, size=shape) / 2).astype(np.float32)


def linear(t: dict, w, base: str, out: int, inp: int, bias: bool = False) -> None:
    t[f"{base}.weight"] = w(out, inp)
    if bias:
        t[f"{base}.bias"] = w(out)


# ------------------------------------------------------------ architectures


def llama_like(model_type: str, act_cfg: dict) -> tuple[dict, dict]:
    w, t = rnd(1), {"model.embed_tokens.weight": rnd(0)(10, D)}
    for i in range(L):
        p = f"model.layers.{i}"
        linear(t, w, f"{p}.mlp.gate_proj", N, D)
        linear(t, w, f"{p}.mlp.up_proj", N, D)
        linear(t, w, f"{p}.mlp.down_proj", D, N)
        linear(t, w, f"{p}.self_attn.q_proj", D, D)
        t[f"{p}.post_attention_layernorm.weight"] = w(D)
    return t, {"model_type": model_type, "num_hidden_layers": L, **act_cfg}


def mixtral() -> tuple[dict, dict]:
    w, t = rnd(2), {}
    for i in range(L):
        p = f"model.layers.{i}.block_sparse_moe"
        t[f"{p}.gate.weight"] = w(3, D)  # the router: not an MLP block
        for j in range(3):
            linear(t, w, f"{p}.experts.{j}.w1", N, D)
            linear(t, w, f"{p}.experts.{j}.w3", N, D)
            linear(t, w, f"{p}.experts.{j}.w2", D, N)
    return t, {"model_type": "mixtral", "architectures": ["MixtralForCausalLM"], "num_hidden_layers": L,
               "num_local_experts": 3, "hidden_act": "silu"}


def phi3() -> tuple[dict, dict]:
    w, t = rnd(3), {}
    for i in range(L):
        linear(t, w, f"model.layers.{i}.mlp.gate_up_proj", 2 * N, D)
        linear(t, w, f"model.layers.{i}.mlp.down_proj", D, N)
        linear(t, w, f"model.layers.{i}.self_attn.qkv_proj", 3 * D, D)
    return t, {"model_type": "phi3", "num_hidden_layers": L, "hidden_act": "silu"}


def phi2() -> tuple[dict, dict]:
    w, t = rnd(4), {}
    for i in range(L):
        linear(t, w, f"model.layers.{i}.mlp.fc1", N, D, bias=True)
        linear(t, w, f"model.layers.{i}.mlp.fc2", D, N, bias=True)
        linear(t, w, f"model.layers.{i}.self_attn.dense", D, D, bias=True)
    return t, {"model_type": "phi", "num_hidden_layers": L, "hidden_act": "gelu_new"}


def gpt2() -> tuple[dict, dict]:
    w, t = rnd(5), {"wte.weight": rnd(0)(10, D)}
    for i in range(L):
        t[f"h.{i}.mlp.c_fc.weight"] = w(D, N)  # Conv1D: (in, out)
        t[f"h.{i}.mlp.c_fc.bias"] = w(N)
        t[f"h.{i}.mlp.c_proj.weight"] = w(N, D)
        t[f"h.{i}.mlp.c_proj.bias"] = w(D)
        t[f"h.{i}.attn.c_proj.weight"] = w(D, D)
    return t, {"model_type": "gpt2", "n_layer": L, "activation_function": "gelu_new"}


def gpt_neox() -> tuple[dict, dict]:
    w, t = rnd(6), {}
    for i in range(L):
        linear(t, w, f"gpt_neox.layers.{i}.mlp.dense_h_to_4h", N, D, bias=True)
        linear(t, w, f"gpt_neox.layers.{i}.mlp.dense_4h_to_h", D, N, bias=True)
        linear(t, w, f"gpt_neox.layers.{i}.attention.dense", D, D, bias=True)
    return t, {"model_type": "gpt_neox", "num_hidden_layers": L, "hidden_act": "gelu"}


def opt() -> tuple[dict, dict]:
    w, t = rnd(7), {}
    for i in range(L):
        linear(t, w, f"model.decoder.layers.{i}.fc1", N, D, bias=True)
        linear(t, w, f"model.decoder.layers.{i}.fc2", D, N, bias=True)
        linear(t, w, f"model.decoder.layers.{i}.self_attn.out_proj", D, D, bias=True)
    return t, {"model_type": "opt", "num_hidden_layers": L, "activation_function": "relu"}


def bert_like(model_type: str, root: str) -> tuple[dict, dict]:
    w, t = rnd(8), {}
    for i in range(L):
        p = f"{root}encoder.layer.{i}"
        linear(t, w, f"{p}.attention.output.dense", D, D, bias=True)
        linear(t, w, f"{p}.intermediate.dense", N, D, bias=True)
        linear(t, w, f"{p}.output.dense", D, N, bias=True)
        t[f"{p}.output.LayerNorm.weight"] = w(D)
    return t, {"model_type": model_type, "num_hidden_layers": L, "hidden_act": "gelu"}


def mpnet(root: str) -> tuple[dict, dict]:
    """MPNet as transformers names it (MPNetModel saves without the ``mpnet.`` root)."""
    w, t = rnd(13), {"encoder.relative_attention_bias.weight" if not root else
                     f"{root}encoder.relative_attention_bias.weight": rnd(14)(32, 2)}
    for i in range(L):
        p = f"{root}encoder.layer.{i}"
        for q in ("q", "k", "v", "o"):
            linear(t, w, f"{p}.attention.attn.{q}", D, D, bias=True)
        t[f"{p}.attention.LayerNorm.weight"] = w(D)
        linear(t, w, f"{p}.intermediate.dense", N, D, bias=True)
        linear(t, w, f"{p}.output.dense", D, N, bias=True)
        t[f"{p}.output.LayerNorm.weight"] = w(D)
    return t, {"model_type": "mpnet", "architectures": ["MPNetForMaskedLM"], "num_hidden_layers": L,
               "hidden_act": "gelu"}


def distilbert() -> tuple[dict, dict]:
    w, t = rnd(9), {}
    for i in range(L):
        linear(t, w, f"distilbert.transformer.layer.{i}.ffn.lin1", N, D, bias=True)
        linear(t, w, f"distilbert.transformer.layer.{i}.ffn.lin2", D, N, bias=True)
        linear(t, w, f"distilbert.transformer.layer.{i}.attention.out_lin", D, D, bias=True)
    return t, {"model_type": "distilbert", "n_layers": L, "activation": "gelu"}


def falcon() -> tuple[dict, dict]:
    w, t = rnd(10), {}
    for i in range(L):
        linear(t, w, f"transformer.h.{i}.mlp.dense_h_to_4h", N, D)
        linear(t, w, f"transformer.h.{i}.mlp.dense_4h_to_h", D, N)
        linear(t, w, f"transformer.h.{i}.self_attention.dense", D, D)
    return t, {"model_type": "falcon", "num_hidden_layers": L}  # no "activation": FalconConfig's default gelu


def t5(gated: bool) -> tuple[dict, dict]:
    w, t = rnd(11), {}
    for stack, sub, count in (("encoder", 1, L), ("decoder", 2, 1)):
        for i in range(count):
            p = f"{stack}.block.{i}.layer.{sub}.DenseReluDense"
            if gated:
                linear(t, w, f"{p}.wi_0", N, D)
                linear(t, w, f"{p}.wi_1", N, D)
            else:
                linear(t, w, f"{p}.wi", N, D)
            linear(t, w, f"{p}.wo", D, N)
            t[f"{stack}.block.{i}.layer.0.SelfAttention.o.weight"] = w(D, D)
    cfg = {"model_type": "t5", "num_layers": L, "num_decoder_layers": 1,
           "feed_forward_proj": "gated-gelu" if gated else "relu"}
    return t, cfg


def clip() -> tuple[dict, dict]:
    w, t = rnd(12), {}
    for tower, count in (("text_model", 2), ("vision_model", 1)):
        for i in range(count):
            linear(t, w, f"{tower}.encoder.layers.{i}.mlp.fc1", N, D, bias=True)
            linear(t, w, f"{tower}.encoder.layers.{i}.mlp.fc2", D, N, bias=True)
    return t, {"model_type": "clip", "text_config": {"num_hidden_layers": 2, "hidden_act": "quick_gelu"},
               "vision_config": {"num_hidden_layers": 1}}


def names(prefix: str, count: int = L) -> list[str]:
    return [prefix.format(i=i) for i in range(count)]


#: name -> (builder, expected layer names, expected activation label, up/gate/down tensor names of layer 0)
CASES: dict[str, tuple] = {
    "llama": (lambda: llama_like("llama", {"hidden_act": "silu"}), names("model.layers.{i}"), "swiglu"),
    "mistral": (lambda: llama_like("mistral", {"hidden_act": "silu"}), names("model.layers.{i}"), "swiglu"),
    "qwen2": (lambda: llama_like("qwen2", {"hidden_act": "silu"}), names("model.layers.{i}"), "swiglu"),
    "gemma": (lambda: llama_like("gemma", {"hidden_act": "gelu"}), names("model.layers.{i}"), "geglu_tanh"),
    "gemma2": (lambda: llama_like("gemma2", {"hidden_activation": "gelu_pytorch_tanh", "hidden_act": "gelu"}),
               names("model.layers.{i}"), "geglu_tanh"),
    "mixtral": (mixtral, [f"model.layers.{i}.block_sparse_moe.experts.{j}" for i in range(L) for j in range(3)],
                "swiglu"),
    "phi3": (phi3, names("model.layers.{i}"), "swiglu"),
    "phi2": (phi2, names("model.layers.{i}"), "gelu_tanh"),
    "gpt2": (gpt2, names("h.{i}"), "gelu_tanh"),
    "gpt_neox": (gpt_neox, names("gpt_neox.layers.{i}"), "gelu"),
    "opt": (opt, names("model.decoder.layers.{i}"), "relu"),
    "bert": (lambda: bert_like("bert", "bert."), names("bert.encoder.layer.{i}"), "gelu"),
    "bert-no-root": (lambda: bert_like("bert", ""), names("encoder.layer.{i}"), "gelu"),
    "roberta": (lambda: bert_like("roberta", "roberta."), names("roberta.encoder.layer.{i}"), "gelu"),
    "distilbert": (distilbert, names("distilbert.transformer.layer.{i}"), "gelu"),
    "mpnet": (lambda: mpnet(""), names("encoder.layer.{i}"), "gelu"),
    "mpnet-masked-lm": (lambda: mpnet("mpnet."), names("mpnet.encoder.layer.{i}"), "gelu"),
    "falcon": (falcon, names("transformer.h.{i}"), "gelu"),
    "t5": (lambda: t5(False), names("encoder.block.{i}") + ["decoder.block.0"], "relu"),
    "flan-t5": (lambda: t5(True), names("encoder.block.{i}") + ["decoder.block.0"], "geglu_tanh"),
    "clip": (clip, names("text_model.encoder.layers.{i}") + ["vision_model.encoder.layers.0"], "quick_gelu"),
}


def write(tmp: Path, tensors: dict, config: dict, fmt: str = "safetensors") -> Path:
    if fmt == "safetensors":
        save_file(tensors, str(tmp / "model.safetensors"))
    elif fmt == "legacy":
        write_legacy_torch_bin(tmp / "pytorch_model.bin", tensors)
    else:
        write_torch_bin(tmp / "pytorch_model.bin", tensors)
    (tmp / "config.json").write_text(json.dumps(config))
    return tmp


def exact(x) -> Fraction:
    return Fraction(float(x))


def expected_matrices(case: str, tensors: dict, layer: str) -> tuple:
    """(W_gate, W_up, W_down) as the architecture defines them, from the raw tensors."""
    def g(suffix):
        return tensors[f"{layer}.{suffix}.weight"]

    if case in ("llama", "mistral", "qwen2", "gemma", "gemma2"):
        return g("mlp.gate_proj"), g("mlp.up_proj"), g("mlp.down_proj")
    if case == "mixtral":
        return g("w1"), g("w3"), g("w2")
    if case == "phi3":
        fused = g("mlp.gate_up_proj")
        return fused[:N], fused[N:], g("mlp.down_proj")
    if case == "gpt2":
        return None, g("mlp.c_fc").T, g("mlp.c_proj").T
    sub = {"phi2": ("mlp.fc1", "mlp.fc2"), "clip": ("mlp.fc1", "mlp.fc2"),
           "gpt_neox": ("mlp.dense_h_to_4h", "mlp.dense_4h_to_h"), "falcon": ("mlp.dense_h_to_4h", "mlp.dense_4h_to_h"),
           "opt": ("fc1", "fc2"), "distilbert": ("ffn.lin1", "ffn.lin2")}
    if case in sub:
        return None, g(sub[case][0]), g(sub[case][1])
    if case in ("bert", "bert-no-root", "roberta", "mpnet", "mpnet-masked-lm"):
        return None, g("intermediate.dense"), g("output.dense")
    dense = "layer.1.DenseReluDense" if layer.startswith("encoder") else "layer.2.DenseReluDense"
    if case == "t5":
        return None, g(f"{dense}.wi"), g(f"{dense}.wo")
    return g(f"{dense}.wi_0"), g(f"{dense}.wi_1"), g(f"{dense}.wo")


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("fmt", ["safetensors", "bin", "legacy"])
def test_architecture(tmp_path: Path, case: str, fmt: str) -> None:
    builder, layer_names, act_label = CASES[case]
    tensors, config = builder()
    c = ck.open_checkpoint(write(tmp_path, tensors, config, fmt))
    layers = ck.find_layers(c)
    assert [l.name for l in layers] == layer_names
    assert all(l.status == "ok" for l in layers), [l.problem for l in layers]
    for layer in layers:
        act, note = ck.config_activation(c, layer.gated, layer)
        assert act.label == act_label, note
        inst = ck.load_layer(layer, act, lazy=act.gated)
        assert (inst.d, inst.n) == (D, N)
        gate, up, down = expected_matrices(case, tensors, layer.name)
        assert [tuple(r) for r in inst.W_up] == [tuple(exact(x) for x in row) for row in up]
        assert [tuple(r) for r in inst.W_down] == [tuple(exact(x) for x in row) for row in down]
        if gate is None:
            assert inst.W_gate is None
        else:
            assert [tuple(r) for r in inst.W_gate] == [tuple(exact(x) for x in row) for row in gate]


def test_activation_notes(tmp_path: Path) -> None:
    c = ck.open_checkpoint(write(tmp_path, *llama_like("gemma", {"hidden_act": "gelu"})))
    act, note = ck.config_activation(c, True, ck.find_layers(c)[0])
    assert act == Activation("geglu_tanh") and "gemma default gelu_pytorch_tanh" in note
    tensors, config = t5(True)
    c = ck.open_checkpoint(write(tmp_path, tensors, config))
    act, note = ck.config_activation(c, True, ck.find_layers(c)[0])
    assert note == "feed_forward_proj=gated-gelu -> geglu_tanh"
    tensors, config = falcon()
    c = ck.open_checkpoint(write(tmp_path, tensors, config))
    act, note = ck.config_activation(c, False, ck.find_layers(c)[0])
    assert act == Activation("gelu") and "falcon default gelu" in note
    tensors, config = falcon()
    config["activation"] = "gelu_fast"
    c = ck.open_checkpoint(write(tmp_path, tensors, config))
    act, note = ck.config_activation(c, False, ck.find_layers(c)[0])
    assert act == Activation("gelu_fast") and note == "activation=gelu_fast -> gelu_fast"  # never mapped


def test_phi2_is_not_opt(tmp_path: Path) -> None:
    c = ck.open_checkpoint(write(tmp_path, *phi2()))
    assert {l.family for l in ck.find_layers(c)} == {"phi"}


def test_architectures_field_when_model_type_absent(tmp_path: Path) -> None:
    tensors, config = mixtral()
    del config["model_type"]
    c = ck.open_checkpoint(write(tmp_path, tensors, config))
    assert len(ck.find_layers(c)) == L * 3


# ------------------------------------------------------------ incomplete checkpoints


def shard(tmp: Path, tensors: dict, config: dict, parts: int = 2, index: bool = True) -> list[str]:
    names_sorted = sorted(tensors, key=ck._natural_key)
    files = [f"model-{s + 1:05d}-of-{parts:05d}.safetensors" for s in range(parts)]
    per = -(-len(names_sorted) // parts)
    weight_map = {}
    for s, f in enumerate(files):
        part = {k: tensors[k] for k in names_sorted[s * per:(s + 1) * per]}
        save_file(part, str(tmp / f))
        weight_map.update({k: f for k in part})
    if index:
        (tmp / "model.safetensors.index.json").write_text(json.dumps({"metadata": {}, "weight_map": weight_map}))
    (tmp / "config.json").write_text(json.dumps(config))
    return files


def test_sharded_with_index_and_stray_duplicate(tmp_path: Path) -> None:
    tensors, config = llama_like("llama", {"hidden_act": "silu"})
    shard(tmp_path, tensors, config)
    stray_name = "model.layers.1.mlp.up_proj.weight"
    save_file({stray_name: np.full((N, D), 99, dtype=np.float32)}, str(tmp_path / "consolidated.safetensors"))
    c = ck.open_checkpoint(tmp_path)
    assert any("consolidated.safetensors" in n and "ignored" in n for n in c.notes)
    layers = ck.find_layers(c)
    assert [l.status for l in layers] == ["ok", "ok"]
    inst = ck.load_layer(layers[1], Activation("swiglu"))
    assert inst.W_up[0] == tuple(exact(x) for x in tensors[stray_name][0])  # the index's, not the stray file's
    # without the index, the same name in two files is an error, never a silent replacement
    (tmp_path / "model.safetensors.index.json").unlink()
    with pytest.raises(InputError, match="model.layers.1.mlp.up_proj.weight.*in both"):
        ck.open_checkpoint(tmp_path)


def test_one_shard_lists_every_layer(tmp_path: Path) -> None:
    tensors, config = llama_like("llama", {"hidden_act": "silu"})
    files = shard(tmp_path, tensors, config)
    c = ck.open_checkpoint(tmp_path / files[0])
    layers = ck.find_layers(c)
    assert [l.name for l in layers] == ["model.layers.0", "model.layers.1"]
    bad = [l for l in layers if l.status != "ok"]
    assert bad and all(l.status == "missing_tensor" for l in bad)
    assert any(files[1] in l.problem and "scan the directory" in l.problem for l in bad)


def test_missing_shard_named_by_index(tmp_path: Path) -> None:
    tensors, config = llama_like("llama", {"hidden_act": "silu"})
    files = shard(tmp_path, tensors, config)
    (tmp_path / files[1]).unlink()
    c = ck.open_checkpoint(tmp_path)
    assert any(files[1] in n and "missing" in n for n in c.notes)
    layers = ck.find_layers(c)
    assert len(layers) == L
    assert any(l.status == "missing_tensor" and f"its shard {files[1]}" in l.problem for l in layers)


def test_index_disagreeing_with_shard_is_an_error(tmp_path: Path) -> None:
    tensors, config = llama_like("llama", {"hidden_act": "silu"})
    shard(tmp_path, tensors, config)
    index = json.loads((tmp_path / "model.safetensors.index.json").read_text())
    index["weight_map"]["model.layers.0.mlp.gate_proj.weight"] = "model-00002-of-00002.safetensors"
    index["weight_map"]["nonexistent.weight"] = "model-00001-of-00002.safetensors"
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps(index))
    with pytest.raises(InputError, match="does not hold it"):
        ck.open_checkpoint(tmp_path)
    index["weight_map"] = {"x": "../outside.safetensors"}
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps(index))
    with pytest.raises(InputError, match="not a file name in this directory"):
        ck.open_checkpoint(tmp_path)


@pytest.mark.parametrize("drop", ["mlp.gate_proj", "mlp.down_proj", "mlp.up_proj"])
def test_missing_tensor_is_its_own_status(tmp_path: Path, drop: str) -> None:
    tensors, config = llama_like("llama", {"hidden_act": "silu"})
    del tensors[f"model.layers.1.{drop}.weight"]
    c = ck.open_checkpoint(write(tmp_path, tensors, config))
    layers = ck.find_layers(c)
    assert [l.status for l in layers] == ["ok", "missing_tensor"]
    assert f"model.layers.1.{drop}.weight" in layers[1].problem
    with pytest.raises(InputError, match="missing tensor"):
        ck.load_layer(layers[1], Activation("silu"))  # never analysed as an ungated SiLU block


def test_extra_tensors_and_layers(tmp_path: Path) -> None:
    tensors, config = llama_like("llama", {"hidden_act": "silu"})
    tensors["model.layers.0.mlp.extra_proj.weight"] = np.ones((N, D), dtype=np.float32)
    tensors["model.layers.2.mlp.up_proj.weight"] = np.ones((N, D), dtype=np.float32)
    c = ck.open_checkpoint(write(tmp_path, tensors, config))
    layers = ck.find_layers(c)
    assert [(l.name, l.status) for l in layers] == [
        ("model.layers.0", "extra_tensor"), ("model.layers.1", "ok"), ("model.layers.2", "extra_tensor")]
    assert "extra_proj" in layers[0].problem and "beyond num_hidden_layers=2" in layers[2].problem


def test_declared_layers_without_tensors(tmp_path: Path) -> None:
    tensors, config = opt()
    config["num_hidden_layers"] = 3
    layers = ck.find_layers(ck.open_checkpoint(write(tmp_path, tensors, config)))
    assert [l.status for l in layers] == ["ok", "ok", "missing_tensor"]


def test_phi3_odd_fused_rows(tmp_path: Path) -> None:
    tensors, config = phi3()
    tensors["model.layers.0.mlp.gate_up_proj.weight"] = np.ones((2 * N + 1, D), dtype=np.float32)
    layers = ck.find_layers(ck.open_checkpoint(write(tmp_path, tensors, config)))
    with pytest.raises(InputError, match="not gate and up rows"):
        ck.load_layer(layers[0], Activation("swiglu"))


def test_huggingface_cache_layout(tmp_path: Path) -> None:
    entry = tmp_path / "models--org--tiny"
    snap = entry / "snapshots" / "0123456789abcdef0123456789abcdef01234567"
    snap.mkdir(parents=True)
    (entry / "snapshots" / "fedcba9876543210fedcba9876543210fedcba98").mkdir()
    (entry / "refs").mkdir()
    (entry / "refs" / "main").write_text(snap.name)
    write(snap, *opt())
    c = ck.open_checkpoint(entry)
    assert c.path == snap and len(ck.find_layers(c)) == L
    (entry / "refs" / "main").unlink()
    with pytest.raises(InputError, match="2 snapshots"):
        ck.open_checkpoint(entry)


def test_bin_index_and_safetensors_preferred(tmp_path: Path) -> None:
    tensors, config = opt()
    write_torch_bin(tmp_path / "pytorch_model-00001-of-00001.bin", tensors)
    (tmp_path / "pytorch_model.bin.index.json").write_text(json.dumps(
        {"weight_map": {k: "pytorch_model-00001-of-00001.bin" for k in tensors}}))
    (tmp_path / "config.json").write_text(json.dumps(config))
    assert [l.status for l in ck.find_layers(ck.open_checkpoint(tmp_path))] == ["ok", "ok"]
    save_file(tensors, str(tmp_path / "model.safetensors"))
    c = ck.open_checkpoint(tmp_path)
    assert all(f.path.suffix == ".safetensors" for f in c.files)


def test_training_args_bin_is_not_read(tmp_path: Path) -> None:
    import pickle

    tensors, config = opt()
    write(tmp_path, tensors, config, fmt="bin")
    (tmp_path / "training_args.bin").write_bytes(pickle.dumps({"lr": 1}))
    assert len(ck.find_layers(ck.open_checkpoint(tmp_path))) == L


# ------------------------------------------------------------ through the API and the CLI


def test_scan_report_statuses(tmp_path: Path) -> None:
    tensors, config = llama_like("llama", {"hidden_act": "silu"})
    del tensors["model.layers.1.mlp.gate_proj.weight"]
    write(tmp_path, tensors, config)
    result = api.scan(tmp_path, prove=False)
    doc = result.to_json()
    assert [l["status"] for l in doc["layers"]] == ["ok", "missing_tensor"]
    assert doc["layers"][0]["verdict"] == "not_absorbable" and doc["layers"][1]["verdict"] is None
    assert doc["summary"]["statuses"] == {"ok": 1, "missing_tensor": 1}


def test_cli_scan_missing_tensor_exit_2_with_full_report(capsys, tmp_path: Path) -> None:
    tensors, config = llama_like("llama", {"hidden_act": "silu"})
    del tensors["model.layers.0.mlp.down_proj.weight"]
    ckpt = tmp_path / "ck"
    ckpt.mkdir()
    write(ckpt, tensors, config)
    report = tmp_path / "scan.json"
    with pytest.raises(SystemExit) as info:
        main(["scan", str(ckpt), "--no-prove", "--json-out", str(report)])
    _, err = capsys.readouterr()
    assert info.value.code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "1 of 2 layers not analysed" in lines[0] and "down_proj" in lines[0]
    doc = json.loads(report.read_text())
    assert [l["status"] for l in doc["layers"]] == ["missing_tensor", "ok"]


def test_scan_quick_gelu_never_mapped(tmp_path: Path) -> None:
    write(tmp_path, *clip())
    result = api.scan(tmp_path, prove=False)
    assert {lr.report.activation for lr in result.layers if lr.report} == {"quick_gelu"}


# ------------------------------------------------------------ with Coq


@pytest.mark.coq
def test_scan_mixtral_experts_and_phi3_with_coq(backend, tmp_path: Path) -> None:
    mix = tmp_path / "mixtral"
    mix.mkdir()
    write(mix, *mixtral())
    result = api.scan(mix, prove=True, backend=backend)
    assert len(result.layers) == L * 3
    for lr in result.layers:
        assert lr.status == "ok" and lr.report.activation == "swiglu"
        assert lr.report.decision.verdict == "not_absorbable" and lr.report.decision.result == "R3"
        assert lr.report.checked is True
    assert "shared with model.layers.0.block_sparse_moe.experts.0" in result.layers[-1].note
    p3 = tmp_path / "phi3"
    p3.mkdir()
    write(p3, *phi3(), fmt="bin")
    result = api.scan(p3, prove=True, backend=backend)
    assert [(lr.report.d, lr.report.n, lr.report.checked) for lr in result.layers] == [(D, N, True)] * L


@pytest.mark.coq
def test_scan_t5_relu_bin_with_coq(backend, tmp_path: Path) -> None:
    """Ungated bias-free ReLU blocks of a T5 pytorch_model.bin: decided exactly, Coq-checked."""
    write(tmp_path, *t5(False), fmt="bin")
    result = api.scan(tmp_path, prove=True, backend=backend)
    assert [lr.layer for lr in result.layers] == ["encoder.block.0", "encoder.block.1", "decoder.block.0"]
    for lr in result.layers:
        dec = lr.report.decision
        assert lr.report.activation == "relu" and dec.verdict in ("absorbable", "not_absorbable", "outside_hypotheses")
        assert lr.report.checked is (dec.verdict != "outside_hypotheses")


def test_file_not_named_by_the_index_is_read_alone(tmp_path: Path) -> None:
    tensors, config = llama_like("llama", {"hidden_act": "silu"})
    shard(tmp_path, tensors, config)
    save_file({k: v for k, v in tensors.items() if ".layers.0." in k}, str(tmp_path / "extra.safetensors"))
    c = ck.open_checkpoint(tmp_path / "extra.safetensors")
    assert any("ignored: it does not name extra.safetensors" in n for n in c.notes)
    assert [l.status for l in ck.find_layers(c)] == ["ok", "missing_tensor"]


def test_config_with_infinity_and_duplicate_keys(tmp_path: Path) -> None:
    tensors, config = opt()
    write(tmp_path, tensors, config)
    text = json.dumps(config)[:-1] + ', "max_logit": Infinity, "eps": NaN}'
    (tmp_path / "config.json").write_text(text)
    assert len(ck.find_layers(ck.open_checkpoint(tmp_path))) == L
    (tmp_path / "config.json").write_text(json.dumps(config)[:-1] + ', "model_type": "llama"}')
    with pytest.raises(InputError, match="config.json: duplicate key 'model_type'"):
        ck.open_checkpoint(tmp_path)


@pytest.mark.parametrize("config_keys", [{"model_type": "mpnet"}, {"architectures": ["MPNetModel"]}])
def test_mpnet_is_a_named_family(tmp_path: Path, config_keys: dict) -> None:
    """MPNet is recognised by its config (not guessed as BERT from tensor names)."""
    tensors, config = mpnet("")
    config = {**{k: v for k, v in config.items() if k not in ("model_type", "architectures")}, **config_keys}
    c = ck.open_checkpoint(write(tmp_path, tensors, config, "legacy"))
    layers = ck.find_layers(c)
    assert [l.family for l in layers] == ["mpnet"] * L and not any("inferred" in n for n in c.notes)
    act, note = ck.config_activation(c, False, layers[0])
    assert act == Activation("gelu") and note == "hidden_act=gelu -> gelu"
