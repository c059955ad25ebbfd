"""Recognising the MLP blocks of real checkpoints (``.safetensors`` files or directories).

Families (tensor names as in Hugging Face checkpoints):

========  ===========================================  ==========================
family    tensors (``<prefix>.<suffix>.weight/.bias``)  notes
========  ===========================================  ==========================
llama     mlp.gate_proj, mlp.up_proj, mlp.down_proj    LLaMA, Mistral, Gemma, Qwen
                                                       (gate absent: ungated, e.g. relu2)
gpt2      mlp.c_fc, mlp.c_proj                         Conv1D: stored transposed
opt       fc1, fc2                                     OPT
bert      intermediate.dense, output.dense             BERT (attention.output.dense
                                                       has no partner and is ignored)
========  ===========================================  ==========================

The activation comes from ``config.json`` (``hidden_activation``, else
``hidden_act``, else ``activation_function``), see :data:`CONFIG_ACTIVATIONS`.
With a gate tensor present the block is gated: ``silu`` -> SwiGLU, ``gelu`` ->
GeGLU, ``relu`` -> ReGLU; Gemma's ``gelu_pytorch_tanh`` (and ``gelu_new``) gate ->
``geglu_tanh`` (GeGLU with the tanh GELU; never treated as the exact GELU).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from .errors import InputError
from .io.activations import parse_activation
from .io.build import build_instance
from .io.exact import exact_array
from .io.lazy import ArrayMatrix
from .io.safetensors_file import SafetensorsFile
from .model import Activation, Instance

#: family -> role -> tensor suffix (without ``.weight``/``.bias``)
FAMILIES: dict[str, dict[str, str]] = {
    "llama": {"gate": "mlp.gate_proj", "up": "mlp.up_proj", "down": "mlp.down_proj"},
    "gpt2": {"up": "mlp.c_fc", "down": "mlp.c_proj"},
    "opt": {"up": "fc1", "down": "fc2"},
    "bert": {"up": "intermediate.dense", "down": "output.dense"},
}
TRANSPOSED = {"gpt2"}

#: config activation string -> (ungated activation, gated activation)
CONFIG_ACTIVATIONS: dict[str, tuple[str, str]] = {
    "relu": ("relu", "reglu"),
    "relu2": ("relu^2", ""),
    "gelu": ("gelu", "geglu"),
    "gelu_new": ("gelu_tanh", "geglu_tanh"),
    "gelu_pytorch_tanh": ("gelu_tanh", "geglu_tanh"),
    "gelu_tanh": ("gelu_tanh", "geglu_tanh"),
    "silu": ("silu", "swiglu"),
    "swish": ("silu", "swiglu"),
}
CONFIG_KEYS = ("hidden_activation", "hidden_act", "activation_function")

ROLE_TO_FIELD = {"up": "W_up", "down": "W_down", "gate": "W_gate"}
BIAS_TO_FIELD = {"up": "b_up", "down": "b_down", "gate": "b_gate"}


@dataclass(frozen=True)
class TensorRef:
    file: SafetensorsFile
    name: str


@dataclass
class Layer:
    """One recognised MLP block: where its tensors are, and how they are stored."""

    name: str
    family: str
    weights: dict[str, TensorRef]
    biases: dict[str, TensorRef] = field(default_factory=dict)
    transposed: bool = False

    @property
    def gated(self) -> bool:
        return "gate" in self.weights


@dataclass
class Checkpoint:
    """The tensor index of a checkpoint and its (possibly empty) config."""

    path: Path
    files: list[SafetensorsFile]
    tensors: dict[str, TensorRef]
    config: dict

    @property
    def model_type(self) -> str:
        return str(self.config.get("model_type", ""))


def open_checkpoint(path: Path | str) -> Checkpoint:
    """Index a ``.safetensors`` file or a directory of them (with ``config.json`` if present)."""
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.safetensors"))
        if not files:
            raise InputError(f"{path}: no .safetensors files in this directory")
        config_path = path / "config.json"
    elif path.is_file():
        if path.suffix.lower() != ".safetensors":
            raise InputError(f"{path.name}: a checkpoint must be a .safetensors file or a directory")
        files = [path]
        config_path = path.parent / "config.json"
    else:
        raise InputError(f"{path}: no such file or directory")
    config: dict = {}
    if config_path.is_file():
        try:
            config = json.loads(config_path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise InputError(f"{config_path.name}: malformed JSON") from None
        if not isinstance(config, dict):
            raise InputError(f"{config_path.name}: expected a JSON object")
    opened = [SafetensorsFile(f) for f in files]
    tensors: dict[str, TensorRef] = {}
    for f in opened:
        for name in f.names():
            tensors[name] = TensorRef(f, name)
    return Checkpoint(path, opened, tensors, config)


def _natural_key(text: str) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


def find_layers(ckpt: Checkpoint) -> list[Layer]:
    """Every recognised MLP block, in natural layer order."""
    groups: dict[tuple[str, str], Layer] = {}
    for tname, ref in ckpt.tensors.items():
        for kind in ("weight", "bias"):
            if not tname.endswith("." + kind):
                continue
            stem = tname[: -len(kind) - 1]
            for family, roles in FAMILIES.items():
                for role, suffix in roles.items():
                    if stem == suffix or stem.endswith("." + suffix):
                        prefix = stem[: -len(suffix)].rstrip(".")
                        layer = groups.setdefault(
                            (family, prefix),
                            Layer(prefix or "(root)", family, {}, {}, family in TRANSPOSED),
                        )
                        (layer.weights if kind == "weight" else layer.biases)[role] = ref
    layers = [l for l in groups.values() if "up" in l.weights and "down" in l.weights]
    return sorted(layers, key=lambda l: _natural_key(l.name))


def parse_map(items: tuple[str, ...]) -> dict[str, str]:
    """``--map ROLE=TEMPLATE`` (repeatable or comma-separated); ROLE in up, down, gate,
    b_up, b_down, b_gate; TEMPLATE is a tensor name with ``{i}`` for the layer number."""
    out: dict[str, str] = {}
    for item in items:
        for part in item.split(","):
            part = part.strip()
            if not part:
                continue
            role, sep, template = part.partition("=")
            role = role.strip()
            if not sep or role not in ("up", "down", "gate", "b_up", "b_down", "b_gate"):
                raise InputError(f"--map: expected ROLE=TEMPLATE with ROLE up/down/gate/b_up/b_down/b_gate, got {part!r:.60}")
            if template.count("{i}") != 1:
                raise InputError(f"--map {role}: the template must contain {{i}} exactly once")
            out[role] = template.strip()
    if out and not ("up" in out and "down" in out):
        raise InputError("--map needs at least up=... and down=...")
    return out


def find_mapped_layers(ckpt: Checkpoint, mapping: dict[str, str], transposed: bool) -> list[Layer]:
    """Layers named by ``--map`` templates (biases default to ``.bias`` beside ``.weight``)."""
    patterns = {
        role: re.compile(re.escape(t).replace(re.escape("{i}"), r"(\d+)")) for role, t in mapping.items()
    }
    found: dict[int, Layer] = {}
    for tname, ref in ckpt.tensors.items():
        for role, pat in patterns.items():
            m = pat.fullmatch(tname)
            if m:
                idx = int(m.group(1))
                layer = found.setdefault(idx, Layer(f"layer {idx}", "custom", {}, {}, transposed))
                if role.startswith("b_"):
                    layer.biases[role[2:]] = ref
                else:
                    layer.weights[role] = ref
    for idx, layer in found.items():
        for role, ref in layer.weights.items():
            if f"b_{role}" not in mapping and ref.name.endswith(".weight"):
                bias = ckpt.tensors.get(ref.name[: -len("weight")] + "bias")
                if bias is not None:
                    layer.biases.setdefault(role, bias)
    return [found[i] for i in sorted(found) if "up" in found[i].weights and "down" in found[i].weights]


def config_activation(ckpt: Checkpoint, gated: bool) -> tuple[Activation, str]:
    """The activation named by ``config.json`` for a gated or ungated block, and a note."""
    for key in CONFIG_KEYS:
        raw = ckpt.config.get(key)
        if isinstance(raw, str):
            break
    else:
        raise InputError("no activation in config.json (or no config.json): use --activation")
    entry = CONFIG_ACTIVATIONS.get(raw.lower())
    if entry is None:
        raise InputError(
            f"config.json {key}={raw!r:.40} is not a supported activation: use --activation"
        )
    name = entry[1] if gated else entry[0]
    if not name:
        raise InputError(f"config.json {key}={raw!r:.40} has no gated form")
    act = parse_activation(name)
    return act, f"{key}={raw} -> {act.label}"


def _read_matrix(ref: TensorRef, transposed: bool, lazy: bool, where: str):
    arr = ref.file.array(ref.name)
    if arr.ndim != 2 or 0 in arr.shape:
        raise InputError(f"{where} ({ref.name}): expected a non-empty 2-D tensor, got shape {tuple(arr.shape)}")
    if lazy:
        return ArrayMatrix(arr, transposed=transposed, where=where)
    return exact_array(arr.T if transposed else arr, where)


def _read_vector(ref: TensorRef, where: str):
    arr = ref.file.array(ref.name)
    if arr.ndim != 1 or arr.size == 0:
        raise InputError(f"{where} ({ref.name}): expected a non-empty 1-D tensor, got shape {tuple(arr.shape)}")
    return exact_array(arr, where)


def layer_shape(layer: Layer) -> tuple[int, int]:
    """``(d, n)`` from the up-projection's header shape (no data read)."""
    ref = layer.weights["up"]
    shape = ref.file.tensors[ref.name].shape
    if len(shape) != 2:
        raise InputError(f"{layer.name}: up-projection {ref.name} is not 2-D")
    n, d = (shape[1], shape[0]) if layer.transposed else shape
    return d, n


def load_layer(layer: Layer, activation: Activation, *, lazy: bool = False) -> Instance:
    """The exact instance of one layer (``lazy``: matrices converted row by row on demand)."""
    if activation.gated != layer.gated:
        what = "has a gate tensor" if layer.gated else "has no gate tensor"
        raise InputError(f"{layer.name} {what} but the activation is {activation.label}")
    tensors: dict[str, object] = {}
    for role, ref in layer.weights.items():
        field_name = ROLE_TO_FIELD[role]
        tensors[field_name] = _read_matrix(ref, layer.transposed, lazy, f"{layer.name} {field_name}")
    for role, ref in layer.biases.items():
        field_name = BIAS_TO_FIELD[role]
        tensors[field_name] = _read_vector(ref, f"{layer.name} {field_name}")
    return build_instance(activation, tensors, source=layer.name)
