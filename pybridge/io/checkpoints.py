"""Recognising the MLP blocks of real checkpoints (files, directories, Hugging Face caches).

Where the tensors are (:func:`open_checkpoint`):

- a directory with ``model.safetensors.index.json`` (or ``pytorch_model.bin.index.json``):
  the index is the truth; each tensor is read from the shard it names, files the index
  does not name are ignored (and said so), a shard the index names but that is absent
  makes its tensors *missing*;
- a directory without an index: every ``*.safetensors`` (else every ``pytorch_model*.bin``);
  a tensor name in two files is an error;
- one ``.safetensors`` / ``.bin`` file: that file only (tensors the index beside it puts
  in other shards are *missing*, with where they are);
- a Hugging Face cache entry ``models--org--name/``: the snapshot ``refs/main`` names
  (or the only one).

``pytorch_model.bin`` is read without torch (:mod:`pybridge.io.torchfile`).

Which blocks (:func:`find_layers`): the family is keyed on ``config.json``'s
``model_type`` (else ``architectures``; see :mod:`pybridge.io.architectures` for
LLaMA, Mistral, Mixtral, Qwen2, Gemma, Phi-2, Phi-3, GPT-2, GPT-NeoX, OPT, BERT,
RoBERTa, MPNet, DistilBERT, Falcon, T5, CLIP, Nemotron); without it the family is inferred
from tensor names. Every layer the config declares is listed; a layer with a missing
or unexpected tensor gets the status ``missing_tensor`` / ``extra_tensor`` and is never
analysed as another kind of block; a layer whose tensors are present under two roots
(``model.decoder.layers.0`` and ``decoder.layers.0``) gets ``duplicate_block``, naming
both. Layer and expert numbers are bounded by the config's counts, or without one by
:data:`MAX_LAYERS` / :data:`MAX_EXPERTS`; a count over them is an error. ``--map``
names the tensors of anything else.

The activation (:func:`config_activation`) is read where transformers reads it
(``hidden_act``, Gemma's ``hidden_activation``, GPT-2's ``activation_function``,
Falcon's and DistilBERT's ``activation``, T5's ``feed_forward_proj``/``dense_act_fn``,
CLIP's ``text_config``/``vision_config``), resolved by the activation registry; a
gated block with ``silu`` is SwiGLU, ``gelu`` GeGLU, ``gelu_pytorch_tanh`` GeGLU-tanh.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Iterable, Optional, Union

from pybridge.activations import resolve_hf
from pybridge.errors import InputError
from pybridge.io.architectures import (ARCHITECTURES, Architecture, NormSite, Stack, architecture_for, none_site,
                                      norm_site, t5_gating)
from pybridge.io.build import build_instance
from pybridge.exact.numbers import exact_array, fraction_from_text
from pybridge.exact.arrays import ArrayMatrix
from pybridge.io.safetensors_file import SafetensorsFile
from pybridge.io.strictjson import strict_loads
from pybridge.io.torchfile import TorchFile
from pybridge.model import Activation, Instance, Norm

TensorFile = Union[SafetensorsFile, TorchFile]

#: Keys tried, in order, when the family is unknown (``--map`` or inferred families).
CONFIG_KEYS = ("hidden_activation", "hidden_act", "activation_function", "activation")
MAX_CONFIG_BYTES = 16 * 1024 * 1024
MAX_LAYERS = 10_000
MAX_EXPERTS = 10_000
#: blocks listed for one checkpoint (layers times experts; DeepSeek-V3: 61 x 256)
MAX_BLOCKS = 200_000
#: a layer or expert number in a tensor name longer than this is refused before ``int()``
MAX_INDEX_DIGITS = 9
NOT_WEIGHTS = ("training_args.bin", "optimizer.bin", "scheduler.bin")

ROLE_TO_FIELD = {"up": "W_up", "down": "W_down", "gate": "W_gate"}
BIAS_TO_FIELD = {"up": "b_up", "down": "b_down", "gate": "b_gate"}

#: Layer statuses besides ``ok``.
MISSING = "missing_tensor"
EXTRA = "extra_tensor"
DUPLICATE = "duplicate_block"


@dataclass(frozen=True)
class TensorRef:
    file: TensorFile
    name: str

    @property
    def shape(self) -> tuple[int, ...]:
        return self.file.tensors[self.name].shape


@dataclass
class NormRef:
    """The normalization of one layer's MLP sublayer: its site (:class:`NormSite`), its
    tensors and exact ``eps``. ``status`` is ``ok``, ``missing_tensor`` (a norm tensor the
    family has is absent: ``problem`` names it) or ``bad_config`` (``eps`` unreadable)."""

    site: NormSite
    weight: Optional[TensorRef] = None
    bias: Optional[TensorRef] = None
    eps: Optional[Fraction] = None
    status: str = "ok"
    problem: str = ""


@dataclass
class Layer:
    """One MLP block: where its tensors are, how they are stored, and whether it is whole.

    ``status`` is ``ok``, ``missing_tensor``, ``extra_tensor`` or ``duplicate_block``
    (``problem`` says which tensor or which other copy); only ``ok`` layers are analysed.
    """

    name: str
    family: str
    weights: dict[str, TensorRef]
    biases: dict[str, TensorRef] = field(default_factory=dict)
    transposed: bool = False
    status: str = "ok"
    problem: str = ""
    stack: Optional[Stack] = None
    expect_gated: Optional[bool] = None
    #: the sublayer's normalization (None: not looked for)
    norm: Optional[NormRef] = None

    @property
    def gated(self) -> bool:
        if self.expect_gated is not None:
            return self.expect_gated
        return "gate" in self.weights or "gate_up" in self.weights


@dataclass
class Checkpoint:
    """The tensor index of a checkpoint, its config, and what was noticed opening it."""

    path: Path
    files: list[TensorFile]
    tensors: dict[str, TensorRef]
    config: dict
    notes: list[str] = field(default_factory=list)
    #: tensor name -> why it is not available (its shard is absent / not scanned)
    elsewhere: dict[str, str] = field(default_factory=dict)

    @property
    def model_type(self) -> str:
        mt = self.config.get("model_type", "")
        return mt if isinstance(mt, str) else ""

    @property
    def architecture(self) -> Optional[Architecture]:
        return architecture_for(self.config)


# ------------------------------------------------------------------ locating


def _hf_snapshot(path: Path) -> Path:
    """``models--org--name/`` -> the snapshot directory ``refs/main`` names (or the only one).

    A ``refs/main`` that names no snapshot present (a partial download or deletion) is an
    error naming it: another revision is never read in its place."""
    snaps = path / "snapshots"
    ref = path / "refs" / "main"
    found = sorted(p for p in snaps.iterdir() if p.is_dir())
    there = ", ".join(p.name[:12] for p in found[:5]) + (" ..." if len(found) > 5 else "") or "none"
    if ref.is_file():
        rev = ref.read_text(encoding="utf-8", errors="replace").strip()
        if not re.fullmatch(r"[0-9a-fA-F]{7,64}", rev):
            raise InputError(f"{path}: refs/main does not name a revision ({rev[:40]!r}); "
                             f"pass {path.name}/snapshots/<revision> (present: {there})")
        if not (snaps / rev).is_dir():
            raise InputError(f"{path}: refs/main names snapshot {rev}, which is missing from "
                             f"{path.name}/snapshots (present: {there}); download it again or pass "
                             f"{path.name}/snapshots/<revision>")
        return snaps / rev
    if len(found) == 1:
        return found[0]
    if not found:
        raise InputError(f"{path}: Hugging Face cache entry without a snapshot")
    raise InputError(
        f"{path}: {len(found)} snapshots and no refs/main: pass one of {path.name}/snapshots/<revision>"
    )


def _read_json(path: Path) -> dict:
    try:
        size = path.stat().st_size
        if size > MAX_CONFIG_BYTES:
            raise InputError(f"{path.name}: {size} bytes is too large for a config/index file")
        doc = strict_loads(path.read_text(encoding="utf-8"), exact=False)
    except InputError as exc:
        raise InputError(f"{path.name}: {exc}") if not str(exc).startswith(path.name) else exc from None
    except UnicodeDecodeError:
        raise InputError(f"{path.name}: malformed JSON (not UTF-8)") from None
    except OSError as exc:
        raise InputError(f"{path.name}: cannot read ({exc.strerror})") from None
    if not isinstance(doc, dict):
        raise InputError(f"{path.name}: expected a JSON object")
    return doc


def _open_file(path: Path) -> TensorFile:
    return TorchFile(path) if path.suffix.lower() == ".bin" else SafetensorsFile(path)


def _weight_map(index_path: Path) -> dict[str, str]:
    doc = _read_json(index_path)
    wm = doc.get("weight_map")
    if not isinstance(wm, dict) or not all(isinstance(v, str) for v in wm.values()):
        raise InputError(f"{index_path.name}: no weight_map of tensor name -> file name")
    for v in set(wm.values()):
        if Path(v).name != v or v in ("", ".", ".."):
            raise InputError(f"{index_path.name}: shard name {v!r:.60} is not a file name in this directory")
    return wm


def _bins(directory: Path) -> list[Path]:
    bins = sorted(directory.glob("pytorch_model*.bin"))
    if not bins:
        bins = sorted(p for p in directory.glob("*.bin") if p.name not in NOT_WEIGHTS and not p.name.startswith("rng_state"))
    return bins


def open_checkpoint(path: Path | str) -> Checkpoint:
    """Index a checkpoint (see the module docstring); bad input raises :class:`InputError`."""
    if not isinstance(path, (str, Path)):
        raise InputError(f"checkpoint path must be a str or Path, not {type(path).__name__}")
    path = Path(path)
    if path.is_dir() and path.name.startswith("models--") and (path / "snapshots").is_dir():
        path = _hf_snapshot(path)
    notes: list[str] = []
    if path.is_dir():
        directory, only = path, None
    elif path.is_file():
        if path.suffix.lower() not in (".safetensors", ".bin"):
            raise InputError(f"{path.name}: a checkpoint must be a .safetensors or .bin file or a directory")
        directory, only = path.parent, path.name
    else:
        raise InputError(f"{path}: no such file or directory")
    config_path = directory / "config.json"
    config = _read_json(config_path) if config_path.is_file() else {}
    st_index = directory / "model.safetensors.index.json"
    bin_index = directory / "pytorch_model.bin.index.json"
    safetensors = sorted(directory.glob("*.safetensors"))
    index_path: Optional[Path] = None
    if only is not None:
        index_path = st_index if only.endswith(".safetensors") else bin_index
        index_path = index_path if index_path.is_file() else None
        chosen = [directory / only]
    elif st_index.is_file():
        index_path = st_index
    elif safetensors:
        chosen = safetensors
    elif bin_index.is_file():
        index_path = bin_index
    else:
        chosen = _bins(directory)
        if not chosen:
            raise InputError(f"{path}: no .safetensors or pytorch_model.bin files in this directory")
    if only is None and index_path is None and safetensors and _bins(directory):
        notes.append("pytorch_model*.bin ignored: .safetensors files present")
    elsewhere: dict[str, str] = {}
    tensors: dict[str, TensorRef] = {}
    opened: dict[str, TensorFile] = {}
    wm: dict[str, str] = _weight_map(index_path) if index_path is not None else {}
    if only is not None and index_path is not None and only not in set(wm.values()):
        notes.append(f"{index_path.name} ignored: it does not name {only}")
        index_path = None
    if index_path is not None:
        if only is None:
            chosen = [directory / f for f in sorted(set(wm.values())) if (directory / f).is_file()]
            absent = sorted({f for f in wm.values() if not (directory / f).is_file()})
            for missing in absent:
                notes.append(f"{missing} (named by {index_path.name}) is missing")
            suffix = ".bin" if index_path is bin_index else ".safetensors"
            named = set(wm.values())
            stray = [p.name for p in directory.glob(f"*{suffix}") if p.name not in named]
            if stray:
                notes.append(f"ignored (not named by {index_path.name}): {', '.join(sorted(stray))}")
        for f in chosen:
            opened[f.name] = _open_file(f)
        for tname, fname in wm.items():
            if fname in opened:
                if tname not in opened[fname].tensors:
                    raise InputError(f"{index_path.name} puts {tname!r:.80} in {fname}, which does not hold it")
                tensors[tname] = TensorRef(opened[fname], tname)
            elif only is not None:
                elsewhere[tname] = f"in {fname} (scan the directory to read it)"
            else:
                elsewhere[tname] = f"its shard {fname} (named by {index_path.name}) is missing"
        if only is not None:
            for tname in opened[only].tensors:
                if tname not in wm:
                    raise InputError(f"{only}: tensor {tname!r:.80} is not in {index_path.name}")
    else:
        for f in chosen:
            tf = _open_file(f)
            opened[f.name] = tf
            for tname in tf.tensors:
                if tname in tensors:
                    first = tensors[tname].file.path.name
                    raise InputError(f"tensor {tname!r:.80} is in both {first} and {f.name} (and no index says which)")
                tensors[tname] = TensorRef(tf, tname)
    return Checkpoint(path, list(opened.values()), tensors, config, notes, elsewhere)


# ------------------------------------------------------------------ layers


def _natural_key(text: str) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


def _template_regex(template: str) -> re.Pattern:
    """``{i}``/``{j}`` -> an ASCII number (``\\d`` would also take other scripts' digits)."""
    return re.compile(re.escape(template).replace(re.escape("{i}"), "([0-9]+)").replace(re.escape("{j}"), "([0-9]+)"))


def _number(digits: str, name: str) -> int:
    """A layer or expert number from a tensor name, refused before ``int`` if absurd."""
    if len(digits) > MAX_INDEX_DIGITS:
        raise InputError(f"tensor {name!r:.80}: layer or expert number {digits[:12]}... is too large")
    return int(digits)


def _group(names: Iterable[str], prefix_template: str) -> dict[int, list[str]]:
    """Names under ``prefix_template`` (``{i}`` a number, followed by ``.``), by that number.
    One pass over ``names``."""
    pat = re.compile(_template_regex(prefix_template).pattern + r"\.")
    out: dict[int, list[str]] = {}
    for name in names:
        m = pat.match(name)
        if m:
            out.setdefault(_number(m.group(1), name), []).append(name)
    return out


def _sub(config: dict, stack: Stack) -> dict:
    if stack.subconfig:
        sub = config.get(stack.subconfig) or config.get(stack.subconfig + "_dict")
        if isinstance(sub, dict):
            return sub
        if config.get("model_type") in ("clip_text_model", "clip_vision_model"):
            return config
        return {}
    return config


def _count(config: dict, keys: tuple[str, ...], limit: int, what: str) -> Optional[tuple[str, int]]:
    """The first of ``keys`` the config sets (``null`` counts as unset); a value that is not
    a count from 0 to ``limit`` is an :class:`InputError` (never silently ignored)."""
    for key in keys:
        v = config.get(key)
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(f"config.json {key}={str(v)[:40]!r} is not a number of {what}")
        if v > limit:
            raise InputError(f"config.json {key}={v}: more {what} than the limit of {limit}")
        return key, v
    return None


def _roles(arch: Architecture, stack: Stack, config: dict) -> tuple[dict[str, str], bool]:
    """The role -> tensor base map of a stack, and whether blocks are gated."""
    if arch.family == "t5":
        gated, _, _ = t5_gating(config)
        if gated:
            base = stack.roles["up"]
            return {"gate": base + "_0", "up": base + "_1", "down": stack.roles["down"]}, True
        return dict(stack.roles), False
    return dict(stack.roles), arch.gated


def _block(ckpt: Checkpoint, prefix: str, names: list[str], roles: dict[str, str], namespace: Optional[str],
           arch: Architecture, stack: Stack, gated: bool) -> Layer:
    """The block at ``prefix``; ``names`` are the tensor names under ``prefix + "."``."""
    layer = Layer(prefix, arch.family, {}, {}, arch.transposed, stack=stack, expect_gated=gated)
    expected: set[str] = set()
    missing: list[str] = []
    for role, base in roles.items():
        wname, bname = f"{prefix}.{base}.weight", f"{prefix}.{base}.bias"
        expected.update((wname, bname))
        if wname in ckpt.tensors:
            layer.weights[role] = TensorRef(ckpt.tensors[wname].file, wname)
        else:
            missing.append(wname)
        if bname in ckpt.tensors:
            layer.biases[role] = TensorRef(ckpt.tensors[bname].file, bname)
        elif bname in ckpt.elsewhere:
            missing.append(bname)
    spaces = tuple([f"{prefix}.{namespace}"] if namespace else [f"{prefix}.{base}." for base in roles.values()])
    extra = sorted(t for t in names if t not in expected and t in ckpt.tensors and t.startswith(spaces))
    if missing:
        where = ckpt.elsewhere.get(missing[0])
        layer.status = MISSING
        layer.problem = f"missing tensor {missing[0]}" + (f" ({where})" if where else "") + (
            f" and {len(missing) - 1} more" if len(missing) > 1 else "")
    elif extra:
        layer.status = EXTRA
        layer.problem = f"unexpected tensor {extra[0]} in a {arch.family} block" + (
            f" and {len(extra) - 1} more" if len(extra) > 1 else "")
    return layer


def _mark_duplicates(layers: dict[int, Layer], groups: dict[str, dict[int, list[str]]], root: str,
                     stack: Stack) -> None:
    """A layer number that also has tensors under another root (``model.decoder.layers.0``
    and ``decoder.layers.0``) is two copies of the block: status ``duplicate_block``,
    naming both, whichever copy is complete."""
    for other, by_index in groups.items():
        if other == root:
            continue
        for i, names in by_index.items():
            layer = layers[i]
            there = other + stack.layer.format(i=i)
            layer.status = DUPLICATE
            layer.problem = (f"two copies of this block: {layer.name} and {there} ({len(names)} tensor"
                             f"{'s' if len(names) > 1 else ''}, e.g. {sorted(names)[0]}) under different "
                             "roots; which one is meant is unclear (use --map to name one)")


def _experts(ckpt: Checkpoint, prefix: str, names: list[str], config: dict, arch: Architecture, stack: Stack,
             roles: dict[str, str], gated: bool, declared: bool, budget: list[int]) -> list[Layer]:
    """The experts of one mixture-of-experts layer, each a block."""
    assert stack.experts is not None
    groups = _group(names, prefix + "." + stack.experts.replace("{j}", "{i}"))
    ecfg = _count(config, stack.expert_count_keys, MAX_EXPERTS, "experts") if declared else None
    if ecfg is not None:
        n_exp = ecfg[1]
    elif declared and not groups:
        n_exp = stack.default_experts or 0
    else:
        n_exp = max(groups) + 1 if groups else 0
        if n_exp > MAX_EXPERTS:
            raise InputError(f"{prefix}: tensor names go up to expert {n_exp - 1}, over the limit of "
                             f"{MAX_EXPERTS} experts, and config.json declares no expert count")
    indices = sorted(set(range(n_exp)) | set(groups))
    budget[0] -= len(indices)
    if budget[0] < 0:
        raise InputError(f"{prefix}: more than {MAX_BLOCKS} blocks (layers times experts) in one checkpoint")
    out = []
    for j in indices:
        eprefix = prefix + "." + stack.experts.format(j=j)
        blk = _block(ckpt, eprefix, groups.get(j, []), roles, "", arch, stack, gated)
        if j >= n_exp:
            blk.status, blk.problem = EXTRA, f"expert {j} beyond {stack.expert_count_keys[0]}={n_exp}"
        out.append(blk)
    return out


def _stack_layers(ckpt: Checkpoint, arch: Architecture, stack: Stack, declared: bool, budget: list[int]) -> list[Layer]:
    config = _sub(ckpt.config, stack)
    roles, gated = _roles(arch, stack, ckpt.config if arch.family == "t5" else config)
    names = list(dict.fromkeys([*ckpt.tensors, *ckpt.elsewhere]))
    groups = {root: _group(names, root + stack.layer) for root in stack.roots}
    root = max(stack.roots, key=lambda r: len(groups[r]))  # the first of the roots holding most layers
    present = groups[root]
    counted = _count(config, stack.count_keys, MAX_LAYERS, "layers") if declared else None
    if counted is None and declared and stack.default_count is not None and not present:
        counted = ("default", stack.default_count)
    if counted is not None:
        key, count = counted
    else:
        key, count = "tensor names", (max(present) + 1 if present else 0)
        if count > MAX_LAYERS:
            raise InputError(f"{root}{stack.label}: tensor names go up to layer {count - 1}, over the limit of "
                             f"{MAX_LAYERS} layers, and config.json declares no layer count")
        if declared:
            ckpt.notes.append(f"{root}{stack.label}: layer count from tensor names (config.json has none)")
    others = {i for r, g in groups.items() if r != root for i in g}
    indices = sorted(set(range(count)) | set(present) | others)
    per_layer = 1
    if stack.experts and declared:
        ecfg = _count(config, stack.expert_count_keys, MAX_EXPERTS, "experts")
        per_layer = ecfg[1] if ecfg else 1
    if len(indices) * per_layer > budget[0]:
        raise InputError(f"{root}{stack.label}: {len(indices)} layers"
                         + (f" of {per_layer} experts" if per_layer > 1 else "")
                         + f": more than {MAX_BLOCKS} blocks in one checkpoint")
    if not stack.experts:
        budget[0] -= len(indices)
    layers: dict[int, Layer] = {}
    out: list[Layer] = []
    site = norm_site(arch, stack, config) if declared else none_site(
        f"family {arch.family} inferred from tensor names: its normalization is not read without config.json")
    for i in indices:
        prefix = root + stack.layer.format(i=i)
        if stack.experts:
            experts = _experts(ckpt, prefix, present.get(i, []), config, arch, stack, roles, gated, declared, budget)
            for blk in experts:
                blk.norm = NormRef(site)
            out.extend(experts)
            continue
        blk = _block(ckpt, prefix, present.get(i, []), roles, stack.namespace, arch, stack, gated)
        blk.norm = norm_ref(ckpt, prefix, site)
        if i >= count:
            blk.status, blk.problem = EXTRA, f"layer {i} beyond {key}={count} declared by config.json"
        layers[i] = blk
        out.append(blk)
    if stack.experts:
        for other, by_index in groups.items():
            if other != root and by_index:
                i = min(by_index)
                raise InputError(f"two copies of the experts of layer {i}: {root}{stack.layer.format(i=i)} and "
                                 f"{other}{stack.layer.format(i=i)} (use --map to name one)")
    else:
        _mark_duplicates(layers, groups, root, stack)
    return out


def exact_eps(raw: object, where: str) -> Fraction:
    """``eps`` exactly: a JSON number as the decimal it is written as (``1e-05`` -> 1/100000);
    it must be finite and > 0 (:class:`InputError` otherwise)."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise InputError(f"{where}: eps {str(raw)[:40]!r} is not a number")
    if isinstance(raw, float) and not math.isfinite(raw):
        raise InputError(f"{where}: eps {raw!r} is not finite")
    text = repr(raw) if isinstance(raw, float) else str(raw)
    if len(text) > 60:
        raise InputError(f"{where}: eps {text[:40]!r}... is too long")
    value = fraction_from_text(text.strip(), f"{where}: eps", max_digits=60, max_exponent=400)
    if value <= 0:
        raise InputError(f"{where}: eps {text[:40]} is not > 0")
    if value.numerator.bit_length() > 256 or value.denominator.bit_length() > 256:
        raise InputError(f"{where}: eps {text[:40]} has too many digits")
    return value


def norm_ref(ckpt: Checkpoint, prefix: str, site: NormSite) -> NormRef:
    """The norm tensors of the layer at ``prefix`` for ``site``; a tensor the family has that
    is absent gives the status ``missing_tensor`` (never silently ``none``)."""
    ref = NormRef(site)
    if site.position == "none":
        return ref
    try:
        ref.eps = exact_eps(site.eps, site.eps_note)
    except InputError as exc:
        ref.status, ref.problem = "bad_config", str(exc)
        return ref
    if not site.affine:
        return ref
    assert site.tensor is not None
    wanted = [("weight", f"{prefix}.{site.tensor}.weight")]
    if site.bias:
        wanted.append(("bias", f"{prefix}.{site.tensor}.bias"))
    for role, name in wanted:
        if name in ckpt.tensors:
            setattr(ref, role, TensorRef(ckpt.tensors[name].file, name))
        else:
            where = ckpt.elsewhere.get(name)
            ref.status = MISSING
            ref.problem = f"missing norm tensor {name}" + (f" ({where})" if where else "")
            return ref
    return ref


def load_norm(layer: Layer, d: int) -> Norm:
    """The exact normalization of ``layer``'s sublayer (``d`` the block's width of the
    residual stream). :class:`InputError` when its status is not ``ok`` or a tensor has the
    wrong shape."""
    ref = layer.norm
    if ref is None or ref.site.position == "none":
        return Norm("none", note=ref.site.note if ref is not None else "no normalization looked for")
    site = ref.site
    if ref.status != "ok":
        raise InputError(f"{layer.name}: {ref.problem}")
    if ref.weight is None:
        gamma: tuple[Fraction, ...] = (Fraction(1),) * d
        beta: Optional[tuple[Fraction, ...]] = (Fraction(0),) * d if site.bias else None
    else:
        raw = tuple(_read_vector(ref.weight, f"{layer.name} norm gamma"))
        gamma = tuple(Fraction(site.gamma_offset) + Fraction(x) for x in raw)
        beta = tuple(Fraction(x) for x in _read_vector(ref.bias, f"{layer.name} norm beta")) \
            if ref.bias is not None else None
    for name, vec in (("gamma", gamma), ("beta", beta)):
        if vec is not None and len(vec) != d:
            raise InputError(f"{layer.name}: norm {name} has length {len(vec)}, the block has d = {d}")
    note = "; ".join(x for x in (site.note, site.eps_note) if x)
    return Norm(site.position, site.kind, site.parallel, gamma, beta, ref.eps, note)


def _suffix_index(names: Iterable[str], suffixes: set[str]) -> dict[str, list[str]]:
    """The names ending in each of ``suffixes`` (which begin after a dot), in one pass."""
    depth = max((s.count(".") for s in suffixes), default=0) + 1
    out: dict[str, list[str]] = {}
    for name in names:
        pos = len(name)
        for _ in range(depth):
            pos = name.rfind(".", 0, pos)
            if pos < 0:
                break
            tail = name[pos + 1:]
            if tail in suffixes:
                out.setdefault(tail, []).append(name)
    return out


def _infer_architecture(ckpt: Checkpoint) -> Optional[Architecture]:
    """The family whose role tensors the checkpoint holds most of (no config model_type)."""
    wanted = {f"{base}.weight" for arch in ARCHITECTURES for stack in arch.stacks for base in stack.roles.values()}
    by_suffix = _suffix_index(ckpt.tensors, wanted)
    best: Optional[Architecture] = None
    best_score: tuple = (0.0, 0, 0)
    for arch in ARCHITECTURES:
        roles_found, tensors_found, roles_total = 0, 0, 0
        for stack in arch.stacks:
            roles_total += len(stack.roles)
            for root in stack.roots:
                for base in stack.roles.values():
                    tpl = root + stack.layer + "." + (stack.experts + "." if stack.experts else "") + base
                    pat = re.compile(_template_regex(tpl).pattern + r"\.weight")
                    hits = sum(1 for t in by_suffix.get(f"{base}.weight", ()) if pat.fullmatch(t))
                    if hits:
                        roles_found += 1
                        tensors_found += hits
        score = (roles_found / max(roles_total, 1), roles_found, tensors_found)
        if roles_found and score > best_score:
            best, best_score = arch, score
    return best


def find_layers(ckpt: Checkpoint) -> list[Layer]:
    """Every MLP block of the checkpoint's family, in order; every declared layer listed.

    Near-linear in the number of tensor names: names are grouped by layer once per stack
    and root. Layer and expert numbers are bounded by the config's counts (at most
    :data:`MAX_LAYERS` / :data:`MAX_EXPERTS`; a larger declared count is an
    :class:`InputError`) or, without one, by the same limits; at most :data:`MAX_BLOCKS`
    blocks are listed.
    """
    arch = ckpt.architecture
    declared = arch is not None
    if arch is None:
        arch = _infer_architecture(ckpt)
        if arch is None:
            return []
        ckpt.notes.append(f"family {arch.family} inferred from tensor names (config.json names no known model_type)")
    layers: list[Layer] = []
    budget = [MAX_BLOCKS]
    for stack in arch.stacks:
        if arch.family == "clip" and ckpt.model_type in ("clip_text_model", "clip_vision_model") and \
                not stack.layer.startswith(ckpt.model_type.split("_")[1]):
            continue
        layers.extend(_stack_layers(ckpt, arch, stack, declared, budget))
    return layers


# ------------------------------------------------------------------ --map


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
    """Layers named by ``--map`` templates (biases default to ``.bias`` beside ``.weight``).

    Every layer number any template matches is listed; one without all its mapped
    weights has the status ``missing_tensor``.
    """
    patterns = {role: _template_regex(t) for role, t in mapping.items()}
    found: dict[int, Layer] = {}
    for tname, ref in ckpt.tensors.items():
        for role, pat in patterns.items():
            m = pat.fullmatch(tname)
            if m:
                idx = _number(m.group(1), tname)
                layer = found.setdefault(idx, Layer(f"layer {idx}", "custom", {}, {}, transposed,
                                                    expect_gated="gate" in mapping,
                                                    norm=NormRef(none_site("--map names no normalization"))))
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
        absent = [mapping[r].replace("{i}", str(idx)) for r in ("gate", "up", "down")
                  if r in mapping and r not in layer.weights]
        if absent:
            layer.status, layer.problem = MISSING, f"missing tensor {absent[0]}"
    return [found[i] for i in sorted(found)]


# ------------------------------------------------------------------ activation


def config_activation(ckpt: Checkpoint, gated: bool, layer: Optional[Layer] = None) -> tuple[Activation, str]:
    """The activation ``config.json`` names for a gated or ungated block, and a note.

    Read where transformers reads it for the checkpoint's family (a layer's stack may
    have its own sub-config, e.g. CLIP's towers); unknown families try
    :data:`CONFIG_KEYS`. Names are resolved by the activation registry; a name it does
    not know is an :class:`InputError` (use ``--activation``).
    """
    arch = ckpt.architecture
    stack = layer.stack if layer is not None else None
    config = _sub(ckpt.config, stack) if stack is not None else ckpt.config
    raw: object = None
    key = ""
    if arch is not None and arch.family == "t5":
        _, raw, key = t5_gating(ckpt.config)
        note_key = key
    else:
        keys = arch.activation_keys if arch is not None and layer is not None and layer.family == arch.family \
            else CONFIG_KEYS
        for key in keys:
            if isinstance(config.get(key), str):
                raw = config[key]
                break
        if raw is None and arch is not None and layer is not None and layer.family == arch.family:
            raw = arch.default_activation
            absent = "/".join(arch.activation_keys)
            key = f"{absent} absent, {arch.family} default"
        if raw is None:
            raise InputError("no activation in config.json (or no config.json): use --activation")
        note_key = f"{key}={raw}" if "default" not in key else f"{key} {raw}"
    try:
        act = resolve_hf(str(raw), gated=gated)
    except InputError as exc:
        raise InputError(f"config.json {note_key}: {exc} (use --activation)") from None
    if act.gated != gated:
        raise InputError(f"config.json {note_key}: {act.label} is {'' if act.gated else 'not '}gated, "
                         f"but the block {'has' if gated else 'has no'} gate")
    return act, f"{note_key} -> {act.label}"


# ------------------------------------------------------------------ reading


def _read_matrix(arr, transposed: bool, lazy: bool, where: str):
    if arr.ndim != 2 or 0 in arr.shape:
        raise InputError(f"{where}: expected a non-empty 2-D tensor, got shape {tuple(arr.shape)}")
    return ArrayMatrix(arr, transposed=transposed, where=where, exact=not lazy)


def _read_vector(ref: TensorRef, where: str):
    arr = ref.file.array(ref.name)
    if arr.ndim != 1 or arr.size == 0:
        raise InputError(f"{where} ({ref.name}): expected a non-empty 1-D tensor, got shape {tuple(arr.shape)}")
    return exact_array(arr, where)


def layer_shape(layer: Layer) -> tuple[int, int]:
    """``(d, n)`` from the header shapes (no data read)."""
    if layer.status != "ok":
        raise InputError(f"{layer.name}: {layer.problem}")
    fused = "gate_up" in layer.weights
    ref = layer.weights["gate_up" if fused else "up"]
    shape = ref.shape
    if len(shape) != 2:
        raise InputError(f"{layer.name}: {ref.name} is not 2-D (shape {shape})")
    n, d = (shape[1], shape[0]) if layer.transposed else shape
    if fused:
        if n % 2:
            raise InputError(f"{layer.name}: {ref.name} has {n} rows, not gate and up rows of equal count")
        n //= 2
    return d, n


def load_layer(layer: Layer, activation: Activation, *, lazy: bool = False) -> Instance:
    """The exact instance of one layer. Matrices are :class:`~pybridge.exact.arrays.ArrayMatrix`
    views of the tensors: converted at once to integer numerators over a power of two
    (no Fraction per entry), or with ``lazy`` only on demand (rows as Fractions)."""
    if layer.status != "ok":
        raise InputError(f"{layer.name}: {layer.problem}")
    if activation.gated != layer.gated:
        what = "has a gate tensor" if layer.gated else "has no gate tensor"
        raise InputError(f"{layer.name} {what} but the activation is {activation.label}")
    tensors: dict[str, object] = {}
    for role, ref in layer.weights.items():
        arr = ref.file.array(ref.name)
        if role == "gate_up":
            d, n = layer_shape(layer)
            if arr.ndim != 2:
                raise InputError(f"{layer.name}: {ref.name} is not 2-D")
            rows = arr.T if layer.transposed else arr
            tensors["W_gate"] = _read_matrix(rows[:n], False, lazy, f"{layer.name} W_gate ({ref.name} rows 0..{n - 1})")
            tensors["W_up"] = _read_matrix(rows[n:], False, lazy, f"{layer.name} W_up ({ref.name} rows {n}..{2 * n - 1})")
            continue
        field_name = ROLE_TO_FIELD[role]
        tensors[field_name] = _read_matrix(arr, layer.transposed, lazy, f"{layer.name} {field_name} ({ref.name})")
    for role, ref in layer.biases.items():
        if role == "gate_up":
            raise InputError(f"{layer.name}: a bias on the fused gate_up projection is not supported")
        field_name = BIAS_TO_FIELD[role]
        tensors[field_name] = _read_vector(ref, f"{layer.name} {field_name}")
    try:
        return build_instance(activation, tensors, source=layer.name)
    except InputError as exc:
        raise InputError(f"{layer.name}: {exc}") from None
