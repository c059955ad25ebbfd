"""Coq certificates for R8 with biases (R9 beyond genericity), ReLU and the GELU family.

A biased block ``x + B sigma(A x + c) + b0`` decided by the width route
(:func:`pybridge.decision.width_route._decide_bias_form`) is written with the
checkers of ``certify/BiasGroupingCheck.v`` and the lemmas of
``certify/CertifyBiasWidth.v``:

- the augmented rows ``(a_i, c_i)`` over one denominator (``RA``), the class
  representatives ``(u_t, s_t)`` (``RU``, flat classes included), scales, classes,
  kinks ``G`` and linear part ``L``: ``check_bias_grouping`` (``check_pm_scales``
  for the GELU family). The offset of the form is never written: Coq builds it as a
  term (``grouping_l0``), so constant rows ``b_i sigma(c_i)`` of GELU stay symbolic;
- absorbable at ``m``: width data ``(T, S, r, E, P, Q)`` (``check_width_data``);
- not absorbable at ``m < k``: canonical classes (``check_bias_lines`` /
  ``check_bias_signs``) and ``m < k``;
- not absorbable at ``m = k``: the same and a no-subset certificate on ``(U, G, L)``;
- not absorbable at ``m >= k`` after the exhaustive search: a rank certificate for every
  ``(T, S)`` (``RankCheck.check_rank_refute``, entries from
  :func:`pybridge.certify.rank.rank_entries` on the ``d``-part of ``U``), whose
  soundness refutes the width condition for ``cert_bias_r8_no_width_relu`` /
  ``cert_bias_r8_no_width_pm`` (they take any proof of ``~ width_condition d k m U G L``);
- ``--min-width``: "absorbable at m* and not at m* - 1" when the lower side is one
  of the cases above.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from pybridge.certify.encoding import CoqWriter
from pybridge.certify.kinds import CannotCertify, Certificate
from pybridge.certify.width import (
    R8_MODULES,
    check_cert_width,
    form_int_parts,
    width_data_terms,
    write_form_data,
    write_nosub_at_k,
)
from pybridge.exact.modular import IntMatrix, scale_matrix
from pybridge.exact.ridge_form import RidgeForm
from pybridge.exact.width_evidence import WidthInfo
from pybridge.model import Decision, Instance

#: GELU family with biases: (sigma, odd-part identity, affine ridge uniqueness of the even part, modules).
PM_BIAS_FACTS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "gelu": ("gelu", "gelu_odd_part", "gelu_even_part_affine_unique", ()),
    "gelu_tanh": ("gelu_tanh", "gelu_tanh_odd_part", "gelu_tanh_even_part_affine_unique", ()),
    "silu": ("silu", "silu_odd_part", "silu_even_part_affine_unique", ()),
    "quick_gelu": ("quick_gelu", "quick_gelu_odd_part", "quick_gelu_even_part_affine_unique",
                   ("MoreActivationDefs", "MoreActivations", "QuickGeluAffineRidge")),
    "gelu_fast": ("gelu_fast", "gelu_fast_odd_part", "gelu_fast_even_part_affine_unique",
                  ("MoreActivationDefs", "MoreActivations", "TanhGeluAffineRidge")),
}
BIAS_MODULES = ("ReluSubmatrix", "BiasSpec", "BiasBlocks", "GeluAffineRidge", "GeluBias", "PmBiasCanonical",
                "IntSums", *R8_MODULES, "SigmaBiasGrouping", "BiasGroupingCheck", "CertifyBiasWidth")
LIBRARY_FILE = "certify/CertifyBiasWidth.v"



@dataclass(frozen=True)
class _Facts:
    """How the activation enters the certificate lemmas."""

    sigma: str
    pm: Optional[tuple[str, str, str, tuple[str, ...]]]

    @property
    def odd(self) -> str:
        return "" if self.pm is None else f" {self.pm[1]}"

    @property
    def odd_unique(self) -> str:
        return "" if self.pm is None else f" {self.pm[1]} {self.pm[2]}"

    @property
    def suffix(self) -> str:
        return "relu" if self.pm is None else "pm"

    @property
    def sigma_arg(self) -> str:
        return "" if self.pm is None else f" {self.sigma}"


def _facts(inst: Instance) -> _Facts:
    name = inst.activation.name
    if name == "relu":
        return _Facts("relu", None)
    pm = PM_BIAS_FACTS.get(name)
    if pm is None:
        raise CannotCertify(f"no R8-with-biases certificate for {inst.activation.label}")
    return _Facts(pm[0], pm)


def _modules(f: _Facts) -> tuple[str, ...]:
    return BIAS_MODULES if f.pm is None else (*f.pm[3], *BIAS_MODULES)


def augmented_reps(inst: Instance, form: RidgeForm) -> list[list[Fraction]]:
    """``(u_t, s_t)`` for every class, ridges first, then flat classes (``a_i / lam_i`` of a member)."""
    d = inst.d
    c = inst.b_up or (Fraction(0),) * inst.n
    reps = [list(form.U[t]) + [form.shift[t]] for t in range(form.k)]
    for t in range(form.k, form.k + len(form.flat)):
        i = form.cls.index(t)
        lam = form.lam[i]
        reps.append([Fraction(inst.W_up[i][q]) / lam for q in range(d)] + [Fraction(c[i]) / lam])
    return reps


class _BiasGrouping:
    """The integer data of a biased canonical grouping, written once into a writer."""

    def __init__(self, w: CoqWriter, inst: Instance, form: RidgeForm) -> None:
        d, n, k = inst.d, inst.n, form.k
        K = k + len(form.flat)
        self.d, self.k, self.K = d, k, K
        c = inst.b_up or (Fraction(0),) * n
        aug = scale_matrix([list(inst.W_up[i]) + [c[i]] for i in range(n)])
        B = scale_matrix(inst.W_down)
        reps = augmented_reps(inst, form)
        if [r[:d] for r in reps[:k]] != [list(u) for u in form.U]:
            raise CannotCertify("class representatives disagree with the ridge form")
        self.U = scale_matrix(reps) if K else IntMatrix((), 1)
        _, self.G = form_int_parts(form, reps[k:])
        self.L = form.Li
        lam = scale_matrix([[form.lam[i] if form.cls[i] >= 0 else Fraction(0) for i in range(n)]])
        b0 = scale_matrix([list(inst.b_down or (Fraction(0),) * d)])
        self.args, _, _ = write_form_data(w, (d, n, k, K), aug, B, self.U, self.G, self.L, lam, form.cls)
        with w.data():
            w.z("db0", b0.den)
            w.int_list("Lb0", b0.rows[0])
        w.check("g_ok", "check_bias_grouping d n k K dA (zrows RA) dB (zrows CB) dU (zrows RU) dl LN cls dG "
                "(zrows CG) dL (zrows RL)")


B0 = "(vec_of db0 Lb0)"


def _statement(f: _Facts, m: int, negated: bool) -> str:
    s = (f"absorbable_ungated_bias {f.sigma} d n {m} identity (zmat_rows dA (zrows RA)) (zaug d dA (zrows RA)) "
         f"(zmat_cols dB (zrows CB)) {B0}")
    return f"~ {s}" if negated else s


def _canonical(w: CoqWriter, f: _Facts) -> str:
    """The canonicity check of the first ``k`` classes; returns its name."""
    kind = "lines" if f.pm is None else "signs"
    return w.check("c_ok", f"check_bias_{kind} d k dU (zrows RU) dG (zrows CG)")


def _pm_hyp(f: _Facts) -> str:
    return "" if f.pm is None else " pm_ok"


def _absorbable_term(w: CoqWriter, g: _BiasGrouping, info: WidthInfo, m: int, f: _Facts) -> str:
    if info.data is None:
        raise CannotCertify("absorbable width decision without width data")
    tail = width_data_terms(w, info.data, g.k, g.d, m, "a")
    args = g.args.format(m=f"{m}%nat") + " " + tail
    return f"(cert_bias_r8_absorbable_{f.suffix}{f.sigma_arg} {args} {B0}{f.odd} g_ok{_pm_hyp(f)} w_oka)"


def _below_term(g: _BiasGrouping, m: int, f: _Facts) -> str:
    args = g.args.format(m=f"{m}%nat")
    return f"(cert_bias_r8_below_{f.suffix}{f.sigma_arg} {args} {B0}{f.odd_unique} g_ok{_pm_hyp(f)} c_ok eq_refl)"


def _nosub_term(w: CoqWriter, g: _BiasGrouping, f: _Facts) -> str:
    k, d = g.k, g.d
    write_nosub_at_k(w, IntMatrix(tuple(r[:d] for r in g.U.rows[:k]), g.U.den),
                     IntMatrix(tuple(r[:k] for r in g.G.rows), g.G.den), g.L)
    args = "d n k K dA (zrows RA) dB (zrows CB) dU RU dl LN cls dG CG dL RL p F FS"
    return f"(cert_bias_r8_nosub_{f.suffix}{f.sigma_arg} {args} {B0}{f.odd_unique} g_ok{_pm_hyp(f)} c_ok ns_ok)"


def _rank_term(w: CoqWriter, g: _BiasGrouping, m: int, f: _Facts) -> str:
    """``m > k``: rank entries for every ``(T, S)`` (``check_rank_refute``) and the no-width lemma."""
    from pybridge.certify.rank import rank_entries, write_entries

    d = g.d
    U = IntMatrix(tuple(r[:d] for r in g.U.rows), g.U.den)  # Coq reads the first d entries of RU
    es = write_entries(w, rank_entries(U, g.G, g.L, g.k, d, m), str(m))
    chk = w.check(f"rk_ok{m}", f"check_rank_refute d k {m}%nat dL (zrows RL) dG (zrows CG) dU (zrows RU) {es}")
    args = g.args.format(m=f"{m}%nat")
    refute = f"(check_rank_refute_sound d k {m}%nat dL (zrows RL) dG (zrows CG) dU (zrows RU) {es} {chk})"
    return f"(cert_bias_r8_no_width_{f.suffix}{f.sigma_arg} {args} {B0}{f.odd_unique} g_ok{_pm_hyp(f)} c_ok {refute})"


def _lower_term(w: CoqWriter, g: _BiasGrouping, m: int, reason: Optional[str], f: _Facts) -> Optional[str]:
    """A proof of "not absorbable at ``m``" for ``reason``, or None."""
    if reason not in ("below_classes", "no_subset_at_k", "exhaustive"):
        return None
    _canonical(w, f)  # called once per certificate
    if reason == "below_classes":
        return _below_term(g, m, f)
    if reason == "no_subset_at_k":
        return _nosub_term(w, g, f)
    return _rank_term(w, g, m, f)


def build_bias_r8(inst: Instance, decision: Decision, info: WidthInfo) -> Certificate:
    """The certificate of a width-route verdict on a biased block (identity skip)."""
    from pybridge.decision.width_route import library_has

    if inst.skip is not None:
        raise CannotCertify("biases with a non-identity skip: no R1 reduction with biases is written")
    f = _facts(inst)
    check_cert_width(info.width)
    if not library_has(LIBRARY_FILE):
        raise CannotCertify(f"the R8-with-biases checkers ({LIBRARY_FILE}) are not in the library yet")
    if getattr(inst, "W_gate", None) is not None or getattr(inst, "b_gate", None) is not None:
        raise CannotCertify("gated blocks have no width route")
    w = CoqWriter(extra=_modules(f))
    form = info.form
    g = _BiasGrouping(w, inst, form)
    if f.pm is not None:
        w.check("pm_ok", "check_pm_scales n K dl LN cls")
    m = info.width
    if decision.verdict == "absorbable":
        term = _absorbable_term(w, g, info, m, f)
        stmt = _statement(f, m, False)
        kind = f"absorbable at width {m} (R8 with biases <=, explicit width data)"
        if info.min_exact and m >= 1:
            lterm = _lower_term(w, g, m - 1, info.lower_reason, f)
            if lterm is not None:
                stmt = f"{stmt} /\\ {_statement(f, m - 1, True)}"
                term = f"(conj {term} {lterm})"
                kind = f"least absorbing width {m}: absorbable at {m}, not at {m - 1} (R8 with biases)"
    else:
        lterm = _lower_term(w, g, m, info.reason, f)
        if lterm is None:
            raise CannotCertify(f"no certificate for the width reason {info.reason!r}")
        term, stmt = lterm, _statement(f, m, True)
        kind = {"below_classes": f"not absorbable at width {m} < k = {g.k} (R8 with biases =>)",
                "no_subset_at_k": f"not absorbable at width k = {m}: no S cancels L (R8 with biases =>)"}.get(
                    info.reason, f"not absorbable at width {m} >= k = {g.k}: every (T, S) refuted by a rank "
                    "certificate (R8 with biases =>)")
    w.add(f"Theorem verdict : {stmt}.\nProof. exact {term}. Qed.")
    return Certificate("CertBiasWidth", w.text(), kind, inst.activation.label)
