"""The one activation registry: every fact pybridge uses about an activation.

One :class:`ActivationSpec` (frozen) per activation says how users and model
configs spell it (``aliases``, Hugging Face ``hidden_act`` names as in
``transformers.activations.ACT2FN``), whether it is gated (and by which gate),
whether ``sigma(z) - sigma(-z) = z`` (odd-part identity), its degree of positive
homogeneity, the Coq function and the Coq lemmas the certificates use, whether
Coq can certify it today, and a float evaluator (screening only: no verdict
rests on it).

:class:`Activation` is the value carried by an instance: a registry entry and,
for ``relu^k``, its degree. :func:`resolve` turns a spelling into it and raises
:class:`~pybridge.errors.InputError` for unknown names. Nothing else in pybridge
dispatches on activation name strings.

Coq lemma names are fully qualified (``Absorb.folder.Module.lemma``, e.g.
``Absorb.results.ReluSubmatrix.relu_absorbable_generic_submatrix``), the only
form Coq resolves now that the library's files live in folders; a test checks
that each one exists in the compiled library. :func:`qualified` checks that form.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Optional, Union

from pybridge.errors import InputError

THEORY = "Absorb"
#: Largest k accepted for ``relu^k``.
MAX_DEGREE = 64

Number = Union[float, Fraction]


def qualified(name: str) -> str:
    """``name`` itself when it is a full library name ``Absorb.folder.Module.lemma``.

    Raises ValueError on a shorter name (``Module.lemma`` or ``Absorb.Module.lemma``):
    Coq does not find those, so they must not reach a verdict.
    """
    parts = name.split(".")
    if len(parts) != 4 or parts[0] != THEORY or not all(parts):
        raise ValueError(f"not a full Coq name (Absorb.folder.Module.lemma): {name!r}")
    return name


# ---------------------------------------------------------------- evaluators


def _relu(z: Number) -> Number:
    return z if z > 0 else z * 0


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


def _silu(z: Number) -> float:
    zf = float(z)
    return zf * _sigmoid(zf)


def _gelu(z: Number) -> float:
    zf = float(z)
    return 0.5 * zf * (1.0 + math.erf(zf / math.sqrt(2.0)))


def _gelu_tanh(z: Number) -> float:
    zf = float(z)
    c = math.sqrt(2.0 / math.pi)
    return 0.5 * zf * (1.0 + math.tanh(c * (zf + 0.044715 * zf**3)))


def _gelu_fast(z: Number) -> float:
    zf = float(z)
    return 0.5 * zf * (1.0 + math.tanh(zf * 0.7978845608 * (1.0 + 0.044715 * zf * zf)))


def _quick_gelu(z: Number) -> float:
    zf = float(z)
    return zf * _sigmoid(1.702 * zf)


def _heaviside(z: Number) -> Number:
    return z * 0 + 1 if z > 0 else z * 0


# ---------------------------------------------------------------- entries


@dataclass(frozen=True)
class ActivationSpec:
    """What pybridge knows about one activation (one registry entry).

    For a gated activation (``x -> B (gate(Cx) * Ax)``) ``gate`` is the id of
    the ungated entry used as the gate, and the Coq function is the gate's.
    ``odd_part_lemma`` proves ``odd_part_identity`` in Coq; ``generic_submatrix_lemma``
    is R5 (=>) in the library and ``generic_cert_lemma`` the same as
    ``Certify.generic_submatrix_property``, the argument of R5 (=>) certificates;
    ``not_absorbable_lemma`` the
    R2/R3 theorem for every weight of a shape. ``exact_evaluation``: ``evaluate``
    is exact on Fractions (piecewise polynomial), otherwise float screening.
    """

    id: str
    aliases: tuple[str, ...] = ()
    hf_names: tuple[str, ...] = ()
    gate: Optional[str] = None
    odd_part_identity: bool = False
    homogeneity: Optional[int] = None
    coq_module: str = "ActivationDefs"
    #: the library folder of ``coq_module`` (``spec``: ``Absorb.spec.ActivationDefs``)
    coq_folder: str = "spec"
    coq_function: str = ""
    odd_part_lemma: Optional[str] = None
    generic_submatrix_lemma: Optional[str] = None
    generic_cert_lemma: Optional[str] = None
    not_absorbable_lemma: Optional[str] = None
    #: ``(k, lemma)``: the library's own name of ``not_absorbable_lemma`` at degree k
    degree_lemmas: tuple[tuple[int, str], ...] = ()
    certifiable: bool = True
    exact_evaluation: bool = False
    #: R8 / R8': how rows group into ridges (``lines`` for ReLU, ``signs`` for the GELU family)
    #: and the library's width theorem (``Module.lemma``); None: no width route
    ridge_classes: Optional[str] = None
    width_theorem: Optional[str] = None
    #: R9 (generic with biases): (library file, theorem at width n, theorem below n); None: not proved
    bias_theorems: Optional[tuple[str, str, str]] = None
    #: R8 with biases (any weights, any width): (library file, theorem deciding every biased block:
    #: canonical form and ``absorbable <-> width_condition`` at every width); None: not proved.
    #: The route checks that the file is in the library before naming the theorem.
    bias_width_theorem: Optional[tuple[str, str]] = None
    #: Z3 can state the block in real arithmetic (ReLU as ``If``): the cross-check's identity proof
    z3_encodable: bool = False
    evaluate: Callable[[Number], Number] = field(default=_relu, repr=False, compare=False)
    note: str = ""

    @property
    def gated(self) -> bool:
        return self.gate is not None

    @property
    def coq_names(self) -> tuple[str, ...]:
        """Every Coq name this entry refers to, fully qualified (``Absorb.folder.Module.name``)."""
        names = [self.coq_function_name] if self.coq_function else []
        names += [n for n in (self.odd_part_lemma, self.generic_submatrix_lemma,
                              self.generic_cert_lemma, self.not_absorbable_lemma) if n]
        names += [n for _, n in self.degree_lemmas]
        names += [self.width_theorem] if self.width_theorem else []
        names += list(self.bias_theorems[1:]) if self.bias_theorems else []
        names += [self.bias_width_theorem[1]] if self.bias_width_theorem else []
        return tuple(names)

    @property
    def certificate_modules(self) -> tuple[str, ...]:
        """Library modules a certificate for this activation imports: the function's and those
        of the lemmas certificates cite (short names, from this registry, never user text)."""
        cited = (self.odd_part_lemma, self.generic_cert_lemma, self.not_absorbable_lemma)
        return tuple(dict.fromkeys([self.coq_module] + [n.split(".")[-2] for n in cited if n]))

    @property
    def coq_function_name(self) -> str:
        """The Coq function's full name (``Absorb.spec.ActivationDefs.relu``)."""
        return f"{THEORY}.{self.coq_folder}.{self.coq_module}.{self.coq_function}"


_PM_WIDTH = "Absorb.decide.GroupingDrop.pm_absorbable_iff_width_drop"
#: R8 with biases for the GELU family (PmBiasNecessity.pm_bias_block_decided and its instances)
_PM_BIAS_FILE = "bias/PmBiasNecessity.v"
#: R9 and R8 with biases for quick_gelu (rescaled SiLU) and gelu_fast (the tanh-GELU family), R10
_QUICK_GELU_BIAS_FILE = "bias/QuickGeluAffineRidge.v"
_TANH_GELU_BIAS_FILE = "bias/TanhGeluAffineRidge.v"

_SPECS: tuple[ActivationSpec, ...] = (
    ActivationSpec(
        "relu", hf_names=("relu",), odd_part_identity=True, homogeneity=1,
        coq_function="relu", odd_part_lemma="Absorb.analysis.Activations.relu_odd_part",
        generic_submatrix_lemma="Absorb.results.ReluSubmatrix.relu_absorbable_generic_submatrix",
        generic_cert_lemma="Absorb.certify.Certify.relu_generic_submatrix",
        ridge_classes="lines", width_theorem="Absorb.decide.GroupingDrop.relu_absorbable_iff_width_drop",
        bias_theorems=("bias/ReluBias.v", "Absorb.bias.ReluBias.relu_bias_absorbable_generic_submatrix",
                       "Absorb.bias.ReluBias.relu_bias_generic_not_absorbable_below"),
        bias_width_theorem=("bias/ReluBiasNecessity.v", "Absorb.bias.ReluBiasNecessity.relu_bias_grouped_iff"),
        exact_evaluation=True, z3_encodable=True, evaluate=_relu),
    ActivationSpec(
        "relu_pow", aliases=("relu2", "squared_relu"), hf_names=("relu2",),
        coq_function="relu_pow",
        not_absorbable_lemma="Absorb.results.ImpossibilityInstances.relu_pow_not_absorbable",
        degree_lemmas=((2, "Absorb.results.ImpossibilityInstances.relu2_not_absorbable"),),
        exact_evaluation=True, evaluate=_relu,
        note="relu^k, k >= 2 (relu^1 is relu): positively homogeneous of degree k"),
    ActivationSpec(
        "gelu", hf_names=("gelu", "gelu_python"), odd_part_identity=True,
        coq_function="gelu", odd_part_lemma="Absorb.analysis.Activations.gelu_odd_part",
        generic_submatrix_lemma="Absorb.ridge.GeluRidge.gelu_absorbable_generic_submatrix",
        generic_cert_lemma="Absorb.certify.Certify.gelu_generic_submatrix",
        ridge_classes="signs", width_theorem=_PM_WIDTH,
        bias_theorems=("bias/GeluBias.v", "Absorb.bias.GeluBias.gelu_bias_absorbable_generic_submatrix",
                       "Absorb.bias.GeluBias.gelu_bias_generic_not_absorbable_below"),
        bias_width_theorem=(_PM_BIAS_FILE, "Absorb.bias.PmBiasNecessity.gelu_bias_block_decided"),
        evaluate=_gelu),
    ActivationSpec(
        "gelu_tanh", hf_names=("gelu_new", "gelu_pytorch_tanh", "gelu_accurate"),
        odd_part_identity=True, coq_function="gelu_tanh",
        odd_part_lemma="Absorb.analysis.Activations.gelu_tanh_odd_part",
        generic_submatrix_lemma="Absorb.ridge.GeluTanhRidge.gelu_tanh_absorbable_generic_submatrix",
        generic_cert_lemma="Absorb.certify.Certify.gelu_tanh_generic_submatrix",
        ridge_classes="signs", width_theorem=_PM_WIDTH,
        bias_theorems=("bias/GeluTanhAffineRidge.v", "Absorb.bias.GeluTanhAffineRidge.gelu_tanh_bias_absorbable_iff_submatrix",
                       "Absorb.bias.GeluTanhAffineRidge.gelu_tanh_bias_generic_not_absorbable_below"),
        bias_width_theorem=(_PM_BIAS_FILE, "Absorb.bias.PmBiasNecessity.gelu_tanh_bias_block_decided"),
        evaluate=_gelu_tanh),
    ActivationSpec(
        "silu", aliases=("swish",), hf_names=("silu", "swish"), odd_part_identity=True,
        coq_function="silu", odd_part_lemma="Absorb.analysis.Activations.silu_odd_part",
        generic_submatrix_lemma="Absorb.ridge.SiluRidge.silu_absorbable_generic_submatrix",
        generic_cert_lemma="Absorb.certify.Certify.silu_generic_submatrix",
        ridge_classes="signs", width_theorem=_PM_WIDTH,
        bias_theorems=("bias/SiluAffineRidge.v", "Absorb.bias.SiluAffineRidge.silu_bias_absorbable_iff_submatrix",
                       "Absorb.bias.SiluAffineRidge.silu_bias_generic_not_absorbable_below"),
        bias_width_theorem=(_PM_BIAS_FILE, "Absorb.bias.PmBiasNecessity.silu_bias_block_decided"),
        evaluate=_silu),
    ActivationSpec(
        "swiglu", gate="silu", coq_function="silu",
        not_absorbable_lemma="Absorb.results.ImpossibilityInstances.swiglu_not_absorbable", evaluate=_silu),
    ActivationSpec(
        "geglu", gate="gelu", coq_function="gelu",
        not_absorbable_lemma="Absorb.results.ImpossibilityInstances.geglu_not_absorbable", evaluate=_gelu),
    ActivationSpec(
        "geglu_tanh", gate="gelu_tanh", coq_function="gelu_tanh",
        not_absorbable_lemma="Absorb.results.ImpossibilityInstances.geglu_tanh_not_absorbable", evaluate=_gelu_tanh),
    ActivationSpec(
        "reglu", gate="relu", homogeneity=2, coq_function="relu",
        not_absorbable_lemma="Absorb.results.ImpossibilityInstances.reglu_not_absorbable",
        exact_evaluation=True, evaluate=_relu),
    # R10: defined in MoreActivationDefs; R5 (=>) from QuickGeluRidge / GeluFastRidge.
    ActivationSpec(
        "gelu_fast", hf_names=("gelu_fast",), odd_part_identity=True,
        coq_module="MoreActivationDefs", coq_folder="activations", coq_function="gelu_fast",
        odd_part_lemma="Absorb.activations.MoreActivations.gelu_fast_odd_part",
        generic_submatrix_lemma="Absorb.activations.GeluFastRidge.gelu_fast_absorbable_generic_submatrix",
        generic_cert_lemma="Absorb.certify.CertifyMore.gelu_fast_generic_submatrix",
        ridge_classes="signs", width_theorem=_PM_WIDTH,
        bias_theorems=(_TANH_GELU_BIAS_FILE,
                       "Absorb.bias.TanhGeluAffineRidge.gelu_fast_bias_absorbable_iff_submatrix",
                       "Absorb.bias.TanhGeluAffineRidge.gelu_fast_bias_generic_not_absorbable_below"),
        bias_width_theorem=(_TANH_GELU_BIAS_FILE, "Absorb.bias.TanhGeluAffineRidge.gelu_fast_bias_block_decided"),
        evaluate=_gelu_fast, note="tanh approximation with the rounded constant 0.7978845608"),
    ActivationSpec(
        "quick_gelu", hf_names=("quick_gelu",), odd_part_identity=True,
        coq_module="MoreActivationDefs", coq_folder="activations", coq_function="quick_gelu",
        odd_part_lemma="Absorb.activations.MoreActivations.quick_gelu_odd_part",
        generic_submatrix_lemma="Absorb.activations.QuickGeluRidge.quick_gelu_absorbable_generic_submatrix",
        generic_cert_lemma="Absorb.certify.CertifyMore.quick_gelu_generic_submatrix",
        ridge_classes="signs", width_theorem=_PM_WIDTH,
        bias_theorems=(_QUICK_GELU_BIAS_FILE,
                       "Absorb.bias.QuickGeluAffineRidge.quick_gelu_bias_absorbable_iff_submatrix",
                       "Absorb.bias.QuickGeluAffineRidge.quick_gelu_bias_generic_not_absorbable_below"),
        bias_width_theorem=(_QUICK_GELU_BIAS_FILE, "Absorb.bias.QuickGeluAffineRidge.quick_gelu_bias_block_decided"),
        evaluate=_quick_gelu, note="z * sigmoid(1.702 z)"),
    # Not yet certifiable: R2 for it is proved (HomogeneousReal), no certificate kind writes it.
    ActivationSpec(
        "heaviside", aliases=("step",), homogeneity=0,
        coq_module="MoreActivationDefs", coq_folder="activations", coq_function="heaviside", certifiable=False,
        exact_evaluation=True, evaluate=_heaviside, note="1 for z > 0, else 0"),
)

#: canonical id -> entry
REGISTRY: dict[str, ActivationSpec] = {s.id: s for s in _SPECS}

#: Hugging Face ``hidden_act`` names known not to be supported, with the reason.
UNSUPPORTED_HF: dict[str, str] = {
    "relu6": "relu6 (clipped ReLU) has no formal support",
    "gelu_10": "gelu_10 (clipped GELU) has no formal support",
    "leaky_relu": "leaky_relu has no formal support",
    "tanh": "tanh has no formal support",
    "sigmoid": "sigmoid has no formal support",
    "mish": "mish has no formal support",
    "linear": "a linear activation has no formal support",
    "laplace": "laplace has no formal support",
}


@dataclass(frozen=True)
class Activation:
    """An instance's activation: a registry ``name`` and, for ``relu_pow``, its degree."""

    name: str
    degree: Optional[int] = None

    def __post_init__(self) -> None:
        if self.name not in REGISTRY:
            raise InputError(f"unknown activation {_short(self.name)}")
        if self.name == "relu_pow" and (
            not isinstance(self.degree, int) or self.degree == 1 or not 0 <= self.degree <= MAX_DEGREE
        ):
            raise InputError(f"relu^k needs a degree k in 0..{MAX_DEGREE}, k != 1 (relu^1 is relu)")
        if self.name != "relu_pow" and self.degree is not None:
            raise InputError(f"activation {self.name} takes no degree")

    @property
    def spec(self) -> ActivationSpec:
        return REGISTRY[self.name]

    @property
    def gated(self) -> bool:
        return self.spec.gated

    @property
    def gate(self) -> Optional[Activation]:
        """The gate activation of a gated block (None when ungated)."""
        g = self.spec.gate
        return None if g is None else Activation(g)

    @property
    def odd_part_identity(self) -> bool:
        """``sigma(z) - sigma(-z) = z`` (ReLU, GELU, GELU_tanh, SiLU, ...)."""
        return self.spec.odd_part_identity

    @property
    def homogeneous_degree(self) -> Optional[int]:
        """Degree of positive homogeneity of the whole block, if any."""
        return self.degree if self.name == "relu_pow" else self.spec.homogeneity

    @property
    def certifiable(self) -> bool:
        """Coq support exists for this activation today."""
        return self.spec.certifiable

    @property
    def coq_function(self) -> str:
        """The Coq term of sigma (of the gate for gated blocks): ``relu``, ``(relu_pow 3)``."""
        if self.name == "relu_pow":
            return f"(relu_pow {self.degree})"
        return self.spec.coq_function

    @property
    def not_absorbable_lemma(self) -> Optional[str]:
        """The R2/R3 theorem for every weight (``Module.lemma``), at this degree."""
        return dict(self.spec.degree_lemmas).get(self.degree or -1, self.spec.not_absorbable_lemma)

    @property
    def label(self) -> str:
        """The canonical spelling, accepted back by :func:`resolve`."""
        return f"relu^{self.degree}" if self.name == "relu_pow" else self.name

    def evaluate(self, z: Number) -> Number:
        """sigma(z) (the gate's value for gated blocks): exact on Fractions when
        ``spec.exact_evaluation``, float screening otherwise."""
        v = self.spec.evaluate(z)
        return v ** self.degree if self.name == "relu_pow" and self.degree is not None else v


def _short(text: object, limit: int = 40) -> str:
    r = repr(text)
    return r if len(r) <= limit else r[: limit - 3] + "..."


def _spellings() -> dict[str, Activation]:
    out: dict[str, Activation] = {}
    for s in _SPECS:
        for key in (s.id, *s.aliases, *s.hf_names):
            if s.id == "relu_pow":
                out[key] = Activation("relu_pow", 2)
            else:
                out[key] = Activation(s.id)
    return out


#: every accepted spelling (lower case) -> activation
SPELLINGS: dict[str, Activation] = _spellings()


def resolve(name: str) -> Activation:
    """The activation a user or model config names (case-insensitive).

    Accepts canonical ids, aliases, Hugging Face ``hidden_act`` names and
    ``relu^k`` / ``relu**k`` / ``relu_pow k`` (``relu^1`` is ``relu``).
    Raises :class:`InputError` for anything else."""
    if not isinstance(name, str):
        raise InputError("activation must be a string")
    key = name.strip().lower()
    if key in SPELLINGS:
        return SPELLINGS[key]
    m = re.fullmatch(r"relu\s*(\^|\*\*|_pow)\s*(\d+)", key)
    if m:
        k = int(m.group(2))
        if k == 1:
            return Activation("relu")
        if 2 <= k <= MAX_DEGREE:
            return Activation("relu_pow", k)
        raise InputError(f"activation relu^{k}: the degree must be between 1 and {MAX_DEGREE}")
    if key in UNSUPPORTED_HF:
        raise InputError(f"unsupported activation {_short(name)}: {UNSUPPORTED_HF[key]}")
    known = ", ".join(sorted(SPELLINGS)) + ", relu^k"
    raise InputError(f"unknown activation {_short(name)} (known: {known})")


def gated_form(act: Activation) -> Optional[Activation]:
    """The gated activation whose gate is ``act`` (silu -> swiglu), None if none."""
    for s in _SPECS:
        if s.gate == act.name:
            return Activation(s.id)
    return None


def resolve_hf(hidden_act: str, *, gated: bool) -> Activation:
    """A Hugging Face ``hidden_act`` with or without a gate tensor (``silu`` + gate -> swiglu)."""
    act = resolve(hidden_act)
    if not gated or act.gated:
        return act
    form = gated_form(act)
    if form is None:
        raise InputError(f"activation {act.label} has no gated form known to pybridge")
    return form
