"""Where the MLP blocks of known architectures live, keyed on ``config.json``.

One :class:`Architecture` per family: the ``model_type`` values and
``architectures`` class names that select it, its stacks of layers (T5 has an
encoder and a decoder, CLIP a text and a vision tower), the tensor names of each
MLP role, how many layers the config declares, and where the activation is read.
Tensor names are those of Hugging Face checkpoints; a root prefix (``model.``,
``transformer.``, ``bert.``, ...) may be present or not, as different model
classes save it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

#: roles of a block: ``gate`` (gated blocks), ``up``, ``down``; ``gate_up`` is Phi-3's
#: fused projection (gate rows first, then up rows: ``gate, up = x.chunk(2, dim=-1)``).
ROLES = ("gate", "up", "down", "gate_up")


@dataclass(frozen=True)
class Stack:
    """One stack of layers: ``layer`` is the layer prefix with ``{i}``; ``roles`` the
    tensor names (without ``.weight``/``.bias``) relative to it; ``namespace`` the
    part of the layer that only MLP tensors live under (tensors there that are not
    expected are *extra*)."""

    layer: str
    roles: dict[str, str]
    count_keys: tuple[str, ...]
    default_count: Optional[int] = None
    roots: tuple[str, ...] = ("",)
    subconfig: Optional[str] = None
    namespace: Optional[str] = None
    experts: Optional[str] = None
    expert_count_keys: tuple[str, ...] = ()
    default_experts: Optional[int] = None

    @property
    def label(self) -> str:
        return self.layer.split(".{i}")[0]


@dataclass(frozen=True)
class Architecture:
    """A family of checkpoints sharing tensor names and activation conventions."""

    family: str
    model_types: tuple[str, ...]
    classes: tuple[str, ...]
    stacks: tuple[Stack, ...]
    gated: bool
    activation_keys: tuple[str, ...]
    default_activation: Optional[str] = None
    transposed: bool = False
    note: str = ""
    extra: dict = field(default_factory=dict)


def _llama_stack(roots: tuple[str, ...] = ("model.", "")) -> Stack:
    return Stack("layers.{i}", {"gate": "mlp.gate_proj", "up": "mlp.up_proj", "down": "mlp.down_proj"},
                 ("num_hidden_layers",), roots=roots, namespace="mlp.")


ARCHITECTURES: tuple[Architecture, ...] = (
    Architecture("llama", ("llama", "mistral", "qwen2", "qwen3", "olmo", "olmo2", "granite"),
                 ("LlamaFor", "LlamaModel", "MistralFor", "MistralModel", "Qwen2For", "Qwen2Model",
                  "Qwen3For", "Qwen3Model"),
                 (_llama_stack(),), gated=True, activation_keys=("hidden_act",), default_activation="silu"),
    Architecture("gemma", ("gemma", "gemma2", "gemma3_text"), ("GemmaFor", "GemmaModel", "Gemma2For", "Gemma2Model"),
                 (_llama_stack(),), gated=True, activation_keys=("hidden_activation",),
                 default_activation="gelu_pytorch_tanh",
                 note="Gemma: hidden_activation (transformers uses gelu_pytorch_tanh when it is absent, "
                      "whatever hidden_act says)"),
    Architecture("mixtral", ("mixtral",), ("MixtralFor", "MixtralModel"),
                 (Stack("layers.{i}", {"gate": "w1", "up": "w3", "down": "w2"}, ("num_hidden_layers",),
                        roots=("model.", ""), namespace="", experts="block_sparse_moe.experts.{j}",
                        expert_count_keys=("num_local_experts",), default_experts=8),),
                 gated=True, activation_keys=("hidden_act",), default_activation="silu",
                 note="Mixtral: each expert is one block (w1 gate, w3 up, w2 down)"),
    Architecture("phi3", ("phi3",), ("Phi3For", "Phi3Model"),
                 (Stack("layers.{i}", {"gate_up": "mlp.gate_up_proj", "down": "mlp.down_proj"},
                        ("num_hidden_layers",), roots=("model.", ""), namespace="mlp."),),
                 gated=True, activation_keys=("hidden_act",), default_activation="silu",
                 note="Phi-3: gate_up_proj split by rows, gate first"),
    Architecture("phi", ("phi",), ("PhiFor", "PhiModel"),
                 (Stack("layers.{i}", {"up": "mlp.fc1", "down": "mlp.fc2"}, ("num_hidden_layers",),
                        roots=("model.", ""), namespace="mlp."),),
                 gated=False, activation_keys=("hidden_act",), default_activation="gelu_new"),
    Architecture("nemotron", ("nemotron",), ("NemotronFor", "NemotronModel"),
                 (Stack("layers.{i}", {"up": "mlp.up_proj", "down": "mlp.down_proj"}, ("num_hidden_layers",),
                        roots=("model.", ""), namespace="mlp."),),
                 gated=False, activation_keys=("hidden_act",), default_activation="relu2"),
    Architecture("gpt2", ("gpt2",), ("GPT2",),
                 (Stack("h.{i}", {"up": "mlp.c_fc", "down": "mlp.c_proj"}, ("n_layer", "num_hidden_layers"),
                        default_count=12, roots=("transformer.", ""), namespace="mlp."),),
                 gated=False, activation_keys=("activation_function",), default_activation="gelu_new",
                 transposed=True, note="GPT-2: Conv1D weights stored (in, out), transposed on reading"),
    Architecture("gpt_neox", ("gpt_neox",), ("GPTNeoXFor", "GPTNeoXModel"),
                 (Stack("layers.{i}", {"up": "mlp.dense_h_to_4h", "down": "mlp.dense_4h_to_h"},
                        ("num_hidden_layers",), roots=("gpt_neox.", ""), namespace="mlp."),),
                 gated=False, activation_keys=("hidden_act",), default_activation="gelu"),
    Architecture("opt", ("opt",), ("OPTFor", "OPTModel"),
                 (Stack("decoder.layers.{i}", {"up": "fc1", "down": "fc2"}, ("num_hidden_layers",),
                        roots=("model.", "")),),
                 gated=False, activation_keys=("activation_function",), default_activation="relu"),
    Architecture("bert", ("bert", "roberta", "xlm-roberta", "camembert", "electra"),
                 ("BertFor", "BertModel", "RobertaFor", "RobertaModel", "XLMRobertaFor", "XLMRobertaModel"),
                 (Stack("encoder.layer.{i}", {"up": "intermediate.dense", "down": "output.dense"},
                        ("num_hidden_layers",), roots=("bert.", "roberta.", "electra.", "")),),
                 gated=False, activation_keys=("hidden_act",), default_activation="gelu"),
    Architecture("mpnet", ("mpnet",), ("MPNetFor", "MPNetModel"),
                 (Stack("encoder.layer.{i}", {"up": "intermediate.dense", "down": "output.dense"},
                        ("num_hidden_layers",), roots=("mpnet.", "")),),
                 gated=False, activation_keys=("hidden_act",), default_activation="gelu",
                 note="MPNet (e.g. sentence-transformers' all-mpnet-base-v2): BERT's MLP names, "
                      "attention under attention.attn"),
    Architecture("distilbert", ("distilbert",), ("DistilBertFor", "DistilBertModel"),
                 (Stack("transformer.layer.{i}", {"up": "ffn.lin1", "down": "ffn.lin2"}, ("n_layers",),
                        default_count=6, roots=("distilbert.", ""), namespace="ffn."),),
                 gated=False, activation_keys=("activation",), default_activation="gelu"),
    Architecture("falcon", ("falcon", "RefinedWeb", "RefinedWebModel"), ("FalconFor", "FalconModel", "RWFor"),
                 (Stack("h.{i}", {"up": "mlp.dense_h_to_4h", "down": "mlp.dense_4h_to_h"},
                        ("num_hidden_layers", "n_layer"), roots=("transformer.", ""), namespace="mlp."),),
                 gated=False, activation_keys=("activation",), default_activation="gelu",
                 note="Falcon: activation (default gelu, the exact erf GELU)"),
    Architecture("t5", ("t5", "mt5", "umt5", "longt5"), ("T5For", "T5Model", "T5Encoder", "MT5For", "MT5Model",
                                                          "UMT5For", "UMT5Model"),
                 (Stack("encoder.block.{i}", {"up": "layer.1.DenseReluDense.wi", "down": "layer.1.DenseReluDense.wo"},
                        ("num_layers",), namespace="layer.1.DenseReluDense."),
                  Stack("decoder.block.{i}", {"up": "layer.2.DenseReluDense.wi", "down": "layer.2.DenseReluDense.wo"},
                        ("num_decoder_layers", "num_layers"), namespace="layer.2.DenseReluDense.")),
                 gated=False, activation_keys=("dense_act_fn",), default_activation="relu",
                 note="T5: feed_forward_proj 'gated-<act>' means wi_0 (gate) and wi_1 (up); "
                      "'gated-gelu' is gelu_new as in transformers"),
    Architecture("clip", ("clip", "clip_text_model", "clip_vision_model"),
                 ("CLIPModel", "CLIPText", "CLIPVision"),
                 (Stack("text_model.encoder.layers.{i}", {"up": "mlp.fc1", "down": "mlp.fc2"},
                        ("num_hidden_layers",), default_count=12, subconfig="text_config", namespace="mlp."),
                  Stack("vision_model.encoder.layers.{i}", {"up": "mlp.fc1", "down": "mlp.fc2"},
                        ("num_hidden_layers",), default_count=12, subconfig="vision_config", namespace="mlp.")),
                 gated=False, activation_keys=("hidden_act",), default_activation="quick_gelu"),
)

BY_FAMILY: dict[str, Architecture] = {a.family: a for a in ARCHITECTURES}


def architecture_for(config: dict) -> Optional[Architecture]:
    """The family named by ``model_type``, else by the first ``architectures`` class name."""
    model_type = config.get("model_type")
    if isinstance(model_type, str):
        for arch in ARCHITECTURES:
            if model_type in arch.model_types or model_type.lower() in arch.model_types:
                return arch
    classes = config.get("architectures")
    if isinstance(classes, list):
        for cls in classes:
            if isinstance(cls, str):
                for arch in ARCHITECTURES:
                    if any(cls.startswith(prefix) for prefix in arch.classes):
                        return arch
    return None


def t5_gating(config: dict) -> tuple[bool, str, str]:
    """T5's ``(gated, activation, note)`` from ``feed_forward_proj`` / ``dense_act_fn``
    / ``is_gated_act``, as ``transformers.T5Config`` derives them."""
    proj = config.get("feed_forward_proj", "relu")
    if not isinstance(proj, str):
        proj = "relu"
    parts = proj.split("-")
    gated_from_proj = parts[0] == "gated" and len(parts) == 2
    act = parts[-1]
    if proj == "gated-gelu":
        act = "gelu_new"
    flag = config.get("is_gated_act")
    gated = flag if isinstance(flag, bool) else gated_from_proj
    explicit = config.get("dense_act_fn")
    if isinstance(explicit, str):
        return gated, explicit, f"dense_act_fn={explicit}, feed_forward_proj={proj}"
    return gated, act, f"feed_forward_proj={proj}"


# ------------------------------------------------------------------ normalization (R11)


@dataclass(frozen=True)
class NormSite:
    """Where the normalization of a stack's MLP sublayer is, as the family's config selects it.

    ``position``: ``pre`` | ``post`` | ``none``; ``kind``: ``layernorm`` | ``rmsnorm``;
    ``tensor``: relative to the layer prefix, without ``.weight``/``.bias``; ``bias``:
    whether the norm has a ``.bias`` tensor; ``affine=False``: no tensors (``gamma = 1``,
    ``beta = 0``); ``gamma_offset``: ``gamma = offset + weight`` (Gemma, Nemotron: 1);
    ``eps``: the raw config value (or the family's default) and ``eps_note`` where it was read.
    """

    position: str
    kind: Optional[str] = None
    tensor: Optional[str] = None
    bias: bool = False
    parallel: bool = False
    eps: object = None
    eps_note: str = ""
    gamma_offset: int = 0
    affine: bool = True
    note: str = ""


def _eps(config: dict, key: str, default: float) -> tuple[object, str]:
    if key in config and config[key] is not None:
        return config[key], f"{key}={config[key]!r:.40}"
    return default, f"{key} absent: default {default!r}"


def _flag(config: dict, key: str, default: bool) -> bool:
    v = config.get(key, default)
    return v if isinstance(v, bool) else default


def none_site(note: str) -> NormSite:
    """No normalization known for this sublayer; ``note`` says why (never guessed)."""
    return NormSite("none", note=note)


def norm_site(arch: Architecture, stack: Stack, config: dict) -> NormSite:
    """The MLP sublayer's normalization for ``arch`` / ``stack`` under ``config`` (the
    stack's config: CLIP's text or vision config). Families or variants whose
    sublayer is not ``x + f(N x)``, ``N(x + f x)`` or a parallel residual get ``none``
    with the reason."""
    mt = config.get("model_type")
    fam = arch.family
    if fam == "llama":
        if mt in ("olmo", "olmo2"):
            return none_site(f"{mt}: its normalization (parameter-free LayerNorm / post-sublayer RMSNorm) "
                             "is not modelled")
        e, en = _eps(config, "rms_norm_eps", 1e-6)
        return NormSite("pre", "rmsnorm", "post_attention_layernorm", eps=e, eps_note=en)
    if fam in ("mixtral",):
        return none_site("mixture of experts: the sublayer adds a routed sum of experts, not one block")
    if fam == "phi3":
        e, en = _eps(config, "rms_norm_eps", 1e-5)
        return NormSite("pre", "rmsnorm", "post_attention_layernorm", eps=e, eps_note=en)
    if fam == "gemma":
        if mt != "gemma":
            return none_site(f"{mt}: sandwich normalization (pre- and post-feedforward RMSNorm) is not modelled")
        e, en = _eps(config, "rms_norm_eps", 1e-6)
        return NormSite("pre", "rmsnorm", "post_attention_layernorm", eps=e, eps_note=en, gamma_offset=1,
                        note="Gemma RMSNorm scales by 1 + weight")
    if fam == "nemotron":
        e, en = _eps(config, "norm_eps", 1e-5)
        return NormSite("pre", "layernorm", "post_attention_layernorm", bias=True, eps=e, eps_note=en,
                        gamma_offset=1, note="Nemotron LayerNorm1P scales by 1 + weight")
    if fam == "phi":
        e, en = _eps(config, "layer_norm_eps", 1e-5)
        return NormSite("pre", "layernorm", "input_layernorm", bias=True, parallel=True, eps=e, eps_note=en,
                        note="Phi: attention and MLP read one input_layernorm and add to one skip")
    if fam == "gpt2":
        e, en = _eps(config, "layer_norm_epsilon", 1e-5)
        return NormSite("pre", "layernorm", "ln_2", bias=True, eps=e, eps_note=en)
    if fam == "gpt_neox":
        e, en = _eps(config, "layer_norm_eps", 1e-5)
        par = _flag(config, "use_parallel_residual", True)
        return NormSite("pre", "layernorm", "post_attention_layernorm", bias=True, parallel=par, eps=e,
                        eps_note=en, note=f"use_parallel_residual={par}")
    if fam == "opt":
        before = _flag(config, "do_layer_norm_before", True)
        affine = _flag(config, "layer_norm_elementwise_affine", True)
        return NormSite("pre" if before else "post", "layernorm", "final_layer_norm", bias=True, eps=1e-5,
                        eps_note="nn.LayerNorm default 1e-5", affine=affine,
                        note=f"do_layer_norm_before={before}")
    if fam in ("bert", "mpnet"):
        e, en = _eps(config, "layer_norm_eps", 1e-12)
        return NormSite("post", "layernorm", "output.LayerNorm", bias=True, eps=e, eps_note=en)
    if fam == "distilbert":
        return NormSite("post", "layernorm", "output_layer_norm", bias=True, eps=1e-12,
                        eps_note="DistilBERT's eps 1e-12")
    if fam == "falcon":
        e, en = _eps(config, "layer_norm_epsilon", 1e-5)
        if not _flag(config, "parallel_attn", True):
            return NormSite("pre", "layernorm", "post_attention_layernorm", bias=True, eps=e, eps_note=en,
                            note="parallel_attn=false")
        if _flag(config, "new_decoder_architecture", False) and config.get("num_ln_in_parallel_attn") != 1:
            return NormSite("pre", "layernorm", "ln_mlp", bias=True, parallel=True, eps=e, eps_note=en,
                            note="new_decoder_architecture: ln_attn and ln_mlp")
        return NormSite("pre", "layernorm", "input_layernorm", bias=True, parallel=True, eps=e, eps_note=en,
                        note="parallel_attn: one input_layernorm")
    if fam == "t5":
        e, en = _eps(config, "layer_norm_epsilon", 1e-6)
        sub = ".".join(stack.roles["up"].split(".")[:2])  # layer.1 (encoder) / layer.2 (decoder)
        return NormSite("pre", "rmsnorm", f"{sub}.layer_norm", eps=e, eps_note=en,
                        note="T5LayerNorm: RMS, no bias")
    if fam == "clip":
        e, en = _eps(config, "layer_norm_eps", 1e-5)
        return NormSite("pre", "layernorm", "layer_norm2", bias=True, eps=e, eps_note=en)
    return none_site(f"{fam}: no normalization known for this family")
