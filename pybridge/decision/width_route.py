"""Deciding absorbability at any width with R8, R8' and R9 (paper.md "Beyond the paper").

The block is first rewritten exactly in its canonical ridge form
(:func:`pybridge.exact.ridge_form.canonical_form`: classes of rows by line for ReLU, by
sign for the GELU family; kink vectors ``G``, linear part ``L``), then R8's
width condition is searched (:mod:`pybridge.exact.width`):

- ``m < k`` (fewer rows than ridges): never (R8 =>), certified;
- ``m = k``: exactly when some ``S`` has ``L + sum_S gamma_t u_t^T = 0``, found or
  refuted by :func:`.subset_search.search_subset` with ``A := U``, ``B := G``,
  ``T := L``; both certified;
- ``m > k``: the least width over all ``(T, S)`` (exhaustive for
  3^k d^2 within ``width.SEARCH_BUDGET``, ranks mod p as lower bounds, exact data at the
  optimum); absorbable verdicts are certified by the explicit
  width data, "not absorbable" there on the exhaustive search and R8, certified
  by one rank refutation per ``(T, S)`` (``certify/RankCheck.v``), and a large
  ``k`` with no cheap witness is ``undecided``.

Biases (R9): rows are the augmented rows ``(a_i, c_i)``. Generic-with-biases blocks at
widths ``<= n`` use ``relu_bias_*``, ``gelu_bias_*``, ``gelu_tanh_bias_*``, ``silu_bias_*``
(each once its file is in the library); any other biased block, width or least width uses
R8 with biases through the canonical form of the augmented rows (by line for ReLU:
``ReluBiasNecessity.relu_bias_grouped_iff``; equal up to sign for GELU, GELU_tanh, SiLU:
``PmBiasNecessity.*_bias_block_decided``, from the registry's ``bias_width_theorem``, once
``bias/PmBiasNecessity.v`` is in the library). What no theorem covers stays
``outside_hypotheses`` with the missing theorem named. Verdicts with biases through the
width search are certified by :mod:`pybridge.certify.bias_width` (the biased
grouping checked over Z, then width data, below classes, no S at ``k`` or rank refutations).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from math import gcd
from pathlib import Path
from typing import Optional

from pybridge.activations import Activation, qualified
from pybridge.decision.subset_search import search_subset
from pybridge.errors import InputError
from pybridge.exact.linalg import invert, matmul, matvec
from pybridge.exact.low_rank import MAX_DIGITS as LOW_RANK_MAX_DIGITS
from pybridge.exact.low_rank import find_low_rank
from pybridge.exact.modular import IntMatrix, identity_int, scale_matrix
from pybridge.exact.ridge_form import ClassKind, RidgeForm, canonical_form
from pybridge.exact.width import (
    WITNESS_MAX_D,
    best_data_exhaustive,
    condition_for,
    exhaustive_feasible,
    explicit_block,
    heuristic_data,
    heuristic_lower,
    witness_feasible,
)
from pybridge.exact.width_evidence import NoSubsetAtK, WidthInfo, WidthReason
from pybridge.exact.width_one import OneExtra, find_one_extra, refute
from pybridge.model import Decision, Instance

METHOD = "canonical ridge form and R8 width search, exact"
R9_METHOD = "genericity of the augmented rows (a_i, c_i), exact"

BELOW_THEOREM = {"lines": "Absorb.decide.R8.relu_not_absorbable_below_classes",
                 "signs": "Absorb.decide.R8.pm_not_absorbable_below_classes"}

RELU_BIAS_GROUPED = "Absorb.bias.ReluBiasNecessity.relu_bias_grouped_iff"


def library_has(relpath: str) -> bool:
    """The Coq library of this checkout has ``theories/<relpath>`` (a theorem file merged in)."""
    from pybridge.coq.backend import CoqBackend

    try:
        theories = Path(CoqBackend().theories)
    except Exception:  # no library found: nothing is proved here
        return False
    return (theories / relpath).is_file()


def _classes(act: Activation) -> ClassKind:
    """How the activation's rows group into ridges (the registry's ``ridge_classes``)."""
    return "lines" if act.spec.ridge_classes == "lines" else "signs"


def covered(inst: Instance) -> bool:
    """The width route has a theorem for this (ungated, odd-part-identity) activation."""
    spec = inst.activation.spec
    return spec.ridge_classes is not None and spec.width_theorem is not None and not spec.gated


# ---------------------------------------------------------------- the search at one width


def _nosub_at_k(form: RidgeForm):
    """Search ``S`` with ``L + sum_S G U^T = 0``: ``(status, subset, NoSubsetAtK or None, reason)``."""
    d = form.d
    if form.k == 0:
        zero = not form.Li.numerators().any()
        return ("found" if zero else "none_trivial"), (), None, "no ridges"
    U, G, L = form.Ui, form.Gi, form.Li
    out = search_subset(U, G, L)
    nos = NoSubsetAtK(U, G, L, out.certificate) if out.status == "none" and out.certificate else None
    del d
    return out.status, out.subset, nos, out.reason


def _absorbable_info(form: RidgeForm, m: int, data) -> WidthInfo:
    return WidthInfo(width=m, form=form, reason="width_data", data=data, block=explicit_block(form, data, m))


def decide_form(form: RidgeForm, m: int) -> tuple[str, WidthInfo, str]:
    """``(verdict, info, reason)`` for the ridge form at width ``m`` (exact)."""
    k = form.k
    if m < k:
        return "not_absorbable", WidthInfo(width=m, form=form, reason="below_classes"), \
            f"{k} ridges need at least {k} rows; width {m} < {k} (R8 =>)"
    status, subset, nos, why = _nosub_at_k(form)
    if status == "found" and subset is not None:
        data = condition_for(form, (), subset)
        return "absorbable", _absorbable_info(form, m, data), \
            f"S = {list(subset)} among the {k} ridges gives L + sum_S gamma_t u_t^T = 0: width {k} suffices (R8 <=)"
    if m == k:
        if status == "unknown":
            return "undecided", WidthInfo(width=m, form=form, reason="no_subset_at_k"), \
                f"subset search over the {k} ridges inconclusive: {why}"
        if status == "none_trivial":
            # k = 0 and L != 0: the width condition needs r >= 1 > 0 rows.
            return "not_absorbable", WidthInfo(width=m, form=form, reason="exhaustive"), \
                "no ridges and a nonzero linear part: width 0 is impossible"
        return "not_absorbable", WidthInfo(width=m, form=form, reason="no_subset_at_k", nosub=nos), \
            f"no S among the {k} ridges cancels the linear part L: not absorbable at width k = {k} (R8 =>)"
    if exhaustive_feasible(form):
        try:
            best = best_data_exhaustive(form)
        except ArithmeticError as exc:
            return "undecided", WidthInfo(width=m, form=form, reason="exhaustive"), str(exc)
        w = best.width(k)
        if w <= m:
            return "absorbable", _absorbable_info(form, m, best), \
                f"T = {list(best.T)}, S = {list(best.S)}, r = {best.r}: width {w} <= {m} suffices (R8 <=)"
        return "not_absorbable", WidthInfo(width=m, form=form, reason="exhaustive", min_lower=w, min_upper=w), \
            f"exhaustive search over all (T, S) for k = {k} ridges: the least width is {w} > {m} (R8 =>)"
    if m == k + 1 and k >= 2 and form.kind == "lines" and not any(form.shift):
        # |T| <= 1 and r = 0: T = {} needs L + sum_S = 0 (refuted above), and the cheap witnesses
        # need |T| = rank U >= 2 (k >= 2 ReLU classes on distinct lines through 0) or r >= 1:
        # width > k + 1 (skip them)
        return "undecided", WidthInfo(width=m, form=form, reason="exhaustive"), \
            f"width k + 1 = {m} with {k} ridges: only T = {{t}}, r = 0 remains, i.e. 2^{k - 1} subsets S per t"
    beyond = (f"{k} ridges in dimension {form.d}: the search over 3^{k} choices of (T, S) is beyond the search "
              "budget and the cheap witnesses need width")
    lower = heuristic_lower(form)
    if lower > m:  # the exact witnesses cannot fit: skip computing them
        return "undecided", WidthInfo(width=m, form=form, reason="exhaustive"), f"{beyond} at least {lower} > {m}"
    if not witness_feasible(form):
        return "undecided", WidthInfo(width=m, form=form, reason="exhaustive"), (
            f"{beyond} at least {lower} <= {m}, but their exact data (an integer echelon form of size "
            f"{form.d}) are beyond the budget in dimension {form.d} > {WITNESS_MAX_D}")
    data = heuristic_data(form)
    if data.width(k) <= m:
        return "absorbable", _absorbable_info(form, m, data), \
            f"T = {list(data.T)}, S = {list(data.S)}, r = {data.r}: width {data.width(k)} <= {m} suffices (R8 <=)"
    return "undecided", WidthInfo(width=m, form=form, reason="exhaustive"), f"{beyond} {data.width(k)} > {m}"


def min_width_info(form: RidgeForm) -> WidthInfo:
    """The least absorbing width with its data; how ``min - 1`` is refuted when it can be."""
    k = form.k
    status, subset, nos, why = _nosub_at_k(form)
    if status == "found" and subset is not None:
        data = condition_for(form, (), subset)
        lower, upper, reason = k, k, f"a subset S of the ridges cancels L: width k = {k}"
    elif exhaustive_feasible(form):
        data = best_data_exhaustive(form)
        w = data.width(k)
        lower, upper, reason = w, w, f"exhaustive search over all (T, S) for k = {k}"
    else:
        if not witness_feasible(form):
            raise InputError(
                f"the least absorbing width of this block ({k} ridges in dimension {form.d}) needs an explicit "
                f"witness whose exact data are beyond the budget in dimension > {WITNESS_MAX_D}; decide one width "
                "instead (--width m)")
        data = heuristic_data(form)
        lower = k + 1 if status in ("none", "none_trivial") else k
        upper = max(lower, data.width(k))
        reason = f"{k} ridges: bounds only (3^{k} choices of (T, S))"
    m = upper
    info = _absorbable_info(form, m, data)
    lower_reason: Optional[WidthReason] = None
    lower_nosub = None
    if lower == upper and m >= 1:
        if m - 1 < k:
            lower_reason = "below_classes"
        elif m - 1 == k and nos is not None:
            lower_reason, lower_nosub = "no_subset_at_k", nos
        else:
            lower_reason = "exhaustive"
    return replace(info, min_lower=lower, min_upper=upper, min_reason=reason,
                   lower_reason=lower_reason, lower_nosub=lower_nosub)


# ---------------------------------------------------------------- blocks


def _reduced_down(inst: Instance, skip_inverse) -> tuple:
    if inst.skip is None:
        return inst.W_down
    inv = skip_inverse if skip_inverse is not None else invert(inst.skip)
    return matmul(inv, inst.W_down)


def _user_witness(inst: Instance, info: WidthInfo) -> WidthInfo:
    """The explicit block for the user's skip ``P``: the route decides ``x + P^-1 B sigma(Ax)``,
    whose witness ``g`` gives ``P g = P x + B sigma(Ax)`` (R1), so ``W_down`` and ``b_down`` are
    multiplied by ``P``."""
    blk = info.block
    if inst.skip is None or blk is None:
        return info
    P = inst.skip
    scaled = replace(blk, W_down=matmul(P, blk.W_down), b_down=matvec(P, blk.b_down),
                     sigma_constants=tuple((c, matvec(P, b)) for c, b in blk.sigma_constants))
    return replace(info, block=scaled)


def _head(inst: Instance, form: RidgeForm, kind: ClassKind) -> str:
    via = " after skip reduction (R1)" if inst.skip is not None else ""
    return (f"{form.k} ridge(s) from {inst.n} rows (classes by {'line' if kind == 'lines' else 'sign'}"
            f"{', ' + str(len(form.flat)) + ' flat' if form.flat else ''}){via}; ")


def _base(base: Optional[dict]) -> dict:
    out = dict(base or {})
    out.setdefault("method", METHOD)
    return out


def decide_width(inst: Instance, m: int, min_width: bool = False, skip_inverse=None,
                 base: Optional[dict] = None) -> Decision:
    """Bias-free blocks of a covered activation at width ``m`` (R1 first for a skip)."""
    act = inst.activation
    kind, iff = _classes(act), act.spec.width_theorem or ""
    base = _base(base)
    down = _reduced_down(inst, skip_inverse)
    form = canonical_form(inst.W_up, down, kind)
    head = _head(inst, form, kind)
    if min_width:
        info = min_width_info(form)
        mm = info.width
        exact = "exact" if info.min_exact else f"bounds {info.min_lower}..{info.min_upper}"
        return Decision("absorbable", _result(kind), qualified(iff),
                        head + f"least absorbing width {mm} ({exact}: {info.min_reason})",
                        generic=None, width=mm, width_info=_user_witness(inst, info), **base)
    low = decide_low_rank(inst, m, base, form)
    if low is not None:
        return low
    refuted = _one_extra(inst, WidthInfo(width=m, form=form, reason="exhaustive"), "") \
        if _one_extra_applies(inst, form, m, kind) else None
    if refuted is not None and refuted[0] == "not_absorbable":
        # the linear refutation covers T = {} (L + sum_S = 0) too: no subset search needed
        verdict, info, why = refuted
    else:
        verdict, info, why = decide_form(form, m)
        if verdict == "undecided" and m == form.k + 1 and covered(inst) and inst.skip is None:
            verdict, info, why = (_one_extra(inst, info, why) if refuted is None
                                  else (verdict, info, why + refuted[2]))
    return _width_decision(inst, kind, m, verdict, info, head + why, base)


def _result(kind: ClassKind) -> str:
    return "R8" if kind == "lines" else "R8'"


def _width_decision(inst: Instance, kind: ClassKind, m: int, verdict: str, info: WidthInfo, reason: str,
                    base: dict) -> Decision:
    theorem: Optional[str] = None
    if info.reason == "low_rank":
        theorem = qualified(LOW_RANK_THEOREMS[kind])
    elif info.reason == "one_extra":
        dead = info.one_extra is not None and info.one_extra.extra.dead
        theorem = qualified(ONE_EXTRA_THEOREMS[(kind == "signs", dead)])
    elif verdict != "undecided":
        iff = inst.activation.spec.width_theorem or ""
        theorem = qualified(BELOW_THEOREM[kind]) if info.reason == "below_classes" else qualified(iff)
    return Decision(verdict, _result(kind), theorem, reason, generic=None, width=m,  # type: ignore[arg-type]
                    width_info=_user_witness(inst, info), **base)


def decide_one_extra(inst: Instance, m: int, base: Optional[dict] = None) -> Optional[Decision]:
    """A bias-free, identity-skip ReLU or GELU-family layer of ``n = k + 1`` rows (one zero row,
    one row on another's line -- for the GELU family ``+-`` another row -- or one dead neuron: a
    pruned or duplicated neuron) refuted at width ``m = n`` by
    :func:`_one_extra` before R5's subset search, which such a non-generic layer cannot
    use for ``not_absorbable``; None when that does not apply or does not refute (then R5
    and :func:`decide_width` decide as before)."""
    kind = _classes(inst.activation)
    if not covered(inst) or inst.skip is not None or inst.has_bias or m != inst.n:
        return None
    extra, _ = find_one_extra(scale_matrix(inst.W_up), scale_matrix(inst.W_down))
    if extra is None:
        return None
    form = canonical_form(inst.W_up, inst.W_down, kind)
    if not _one_extra_applies(inst, form, m, kind):
        return None
    verdict, info, why = _one_extra(inst, WidthInfo(width=m, form=form, reason="exhaustive"), "", extra)
    if verdict != "not_absorbable":
        return None
    return _width_decision(inst, kind, m, verdict, info, _head(inst, form, kind) + why, _base(base))


LOW_RANK_THEOREMS = {"lines": "Absorb.certify.CertifyLowRank.cert_low_rank_relu",
                     "signs": "Absorb.certify.CertifyLowRank.cert_low_rank_pm"}


def decide_low_rank(inst: Instance, m: int, base: Optional[dict] = None,
                    form: Optional[RidgeForm] = None) -> Optional[Decision]:
    """Not absorbable at width ``m < 2 (d - rank W_up)``, whatever ``W_down``
    (:mod:`pybridge.exact.low_rank`; bias-free, identity skip, a width-route activation): on
    the null space of ``W_up`` the block is the identity, which takes two neurons per
    dimension. None when the rank is not that low (or above ``low_rank.MAX_RANK``)."""
    d = inst.d
    if not covered(inst) or inst.skip is not None or inst.has_bias or m >= 2 * d:
        return None
    # null vectors past LOW_RANK_MAX_DIGITS would make a certificate Coq reads for minutes
    lr = find_low_rank(scale_matrix(inst.W_up), (2 * d - m - 1) // 2, seed=0, max_digits=LOW_RANK_MAX_DIGITS)
    if lr is None or lr.digits > LOW_RANK_MAX_DIGITS:
        return None
    kind = _classes(inst.activation)
    form = form or canonical_form(inst.W_up, inst.W_down, kind)
    info = WidthInfo(width=m, form=form, reason="low_rank", low_rank=lr)
    shown = ", ".join(str(i) for i in lr.rows[:4]) + (", ..." if lr.rho > 4 else "")
    spans = "W_up = 0" if lr.rho == 0 else f"row {shown} spans it" if lr.rho == 1 else f"rows {shown} span it"
    why = (f"W_up has rank {lr.rho} ({spans}): on its null space, "
           f"of dimension {lr.free}, the block is the identity, which takes two neurons per dimension; "
           f"width {m} < 2 (d - rank W_up) = {2 * lr.free}: not absorbable whatever W_down "
           f"({_result(kind)} =>, rank bound)")
    return _width_decision(inst, kind, m, "not_absorbable", info, _head(inst, form, kind) + why, _base(base))


#: ``(GELU family, dead neuron)`` -> the one-extra theorem the verdict rests on.
ONE_EXTRA_THEOREMS = {
    (False, False): "Absorb.certify.CertifyWidthOneExtraResidues.cert_one_extra_res_not_absorbable",
    (False, True): "Absorb.certify.CertifyWidthOneExtraResidues.cert_one_extra_res_dead_not_absorbable",
    (True, False): "Absorb.certify.CertifyWidthOneExtraResidues.cert_one_extra_res_pm_not_absorbable",
    (True, True): "Absorb.certify.CertifyWidthOneExtraResidues.cert_one_extra_res_pm_dead_not_absorbable",
}


def _one_extra_applies(inst: Instance, form: RidgeForm, m: int, kind: ClassKind) -> bool:
    """Width ``n = k + 1`` beyond the exhaustive search, where :func:`decide_form` would leave
    the block to :func:`_one_extra` unless the subset search over the ``k`` ridges finds an
    ``S`` (which a successful refutation rules out)."""
    return (m == form.k + 1 == inst.n and form.k >= 2 and covered(inst) and inst.skip is None
            and not any(form.shift) and not exhaustive_feasible(form))


def _one_extra(inst: Instance, info: WidthInfo, why: str, extra: Optional[OneExtra] = None
               ) -> tuple[str, WidthInfo, str]:
    """Width ``n = k + 1`` with one zero row or one row on another's line (ReLU, or the GELU
    family with the row ``+-`` another; bias-free, identity skip): the linear refutation of every
    ``(T, S)`` (:mod:`pybridge.exact.width_one`), or ``undecided`` with what is missing."""
    A, B = scale_matrix(inst.W_up), scale_matrix(inst.W_down)
    no = ""
    if extra is None:
        extra, no = find_one_extra(A, B)
    if extra is None:
        return "undecided", info, f"{why}; width k + 1: {no}"
    pm = _classes(inst.activation) == "signs"
    if pm and not (extra.ln == 0 or abs(extra.ln) == extra.ld):
        return "undecided", info, (f"{why}; width k + 1: row {extra.z} = {extra.ln}/{extra.ld} row {extra.i1} "
                                   "is its own ridge class (classes by sign)")
    ref, no = refute(A, B, extra)
    if ref is None:
        what = ("zero column of W_down" if extra.dead else "zero row" if extra.zero_row
                else "row on another row's line")
        return "undecided", info, (f"{why}; one {what} (row {extra.z}), but no linear refutation of every "
                                   f"(T, S) at width k + 1 was found ({no}): the layer may be absorbable")
    r8 = "R8'" if pm else "R8"
    what = ("a zero column of W_down (a dead neuron)" if extra.dead else "a zero row (a pruned neuron)"
            if extra.zero_row else f"row {extra.z} = {extra.ln}/{extra.ld} row {extra.i1}")
    return "not_absorbable", replace(info, reason="one_extra", one_extra=ref), (
        f"width n = k + 1 with {what}: {r8} leaves r = 0 and |T| <= 1, and {len(ref.Ys)} functionals on a "
        f"{len(ref.R1)} x {len(ref.C)} block (one combination per ridge, mod {ref.q}) refute every (T, S) ({r8} =>)")


def _aug_int_rows(inst: Instance) -> list[tuple[int, ...]]:
    """The augmented rows ``(a_i, c_i)`` as integers over one common denominator (exact;
    from the readers' integers, no Fraction per entry)."""
    A = scale_matrix(inst.W_up)
    c = scale_matrix([list(inst.b_up or (Fraction(0),) * inst.n)])
    return [tuple(v * c.den for v in a) + (ci * A.den,) for a, ci in zip(A.rows, c.rows[0])]


def _class_key(r: tuple[int, ...], kind: ClassKind) -> tuple[int, ...]:
    """Equal keys <=> same class: the same line (``lines``) or equal up to sign (``signs``)."""
    first = next(v for v in r if v != 0)
    g = gcd(*r) if kind == "lines" else 1
    if first < 0:
        g = -g
    return r if g == 1 else tuple(v // g for v in r)


def generic_with_biases(inst: Instance, kind: ClassKind) -> tuple[bool, str]:
    """Paper.md R9's genericity: every ``a_i != 0``, ``b_i != 0``, augmented rows in distinct classes."""
    d, n = inst.d, inst.n
    B = scale_matrix(inst.W_down).rows
    aug = _aug_int_rows(inst)
    for i in range(n):
        if not any(aug[i][:d]):
            return False, f"row {i} of W_up is zero (a constant)"
        if not any(B[p][i] for p in range(d)):
            return False, f"column {i} of W_down is zero"
    seen: dict[tuple, int] = {}
    for i, r in enumerate(aug):
        key = _class_key(r, kind)
        if key in seen:
            rel = "parallel" if kind == "lines" else "equal up to sign"
            return False, f"augmented rows {seen[key]} and {i} ((a_i, c_i)) are {rel}"
        seen[key] = i
    return True, "augmented rows (a_i, c_i) pairwise in distinct classes, a_i and b_i nonzero"


def bias_width_theorem(act: Activation) -> tuple[Optional[str], str]:
    """``(theorem, why not)``: R8 with biases for this activation if its file is in the library.

    The theorem (registry field ``bias_width_theorem``) decides every biased block at every
    width: its canonical form and ``absorbable <-> width_condition``. ``why not`` names what
    is missing when the theorem is None."""
    entry = act.spec.bias_width_theorem
    if entry is None:
        return None, f"R8 with biases (any weights, any width) is not proved for {act.label}"
    path, name = entry
    if not library_has(path):
        short = name.rsplit(".", 2)[-2:]
        return None, (f"R8 with biases for {act.label} ({'.'.join(short)}, {path}) is not in the library yet")
    return qualified(name), ""


def _decide_bias_form(inst: Instance, m: int, min_width: bool, theorem: str, gen: bool, base: dict) -> Decision:
    """R8 with biases: canonical form of the augmented rows and the width search (exact)."""
    kind = _classes(inst.activation)
    form = canonical_form(inst.W_up, inst.W_down, kind, inst.b_up, inst.b_down)
    consts = f", {len(form.constants)} constant row(s) a_i = 0" if form.constants else ""
    flat = f", {len(form.flat)} flat" if form.flat else ""
    head = (f"{form.k} ridge(s) from {inst.n} rows (classes of augmented rows (a_i, c_i) "
            f"{'on a line' if kind == 'lines' else 'equal up to sign'}{flat}{consts}); ")
    if min_width:
        info = min_width_info(form)
        exact = "exact" if info.min_exact else f"bounds {info.min_lower}..{info.min_upper}"
        return Decision("absorbable", "R9", theorem,
                        head + f"least absorbing width {info.width} ({exact}: {info.min_reason})",
                        generic=gen, width=info.width, width_info=info, **base)
    verdict, info, why = decide_form(form, m)
    thm = theorem if verdict != "undecided" else None
    return Decision(verdict, "R9", thm, head + why, generic=gen, width=m, width_info=info, **base)  # type: ignore[arg-type]


def decide_bias(inst: Instance, m: int, min_width: bool, r5_decision: Optional[Decision],
                base: dict) -> Decision:
    """Biased blocks (identity skip) of ReLU and the GELU family (R9, R8 with biases).

    Generic with biases at widths ``<= n``: R9 (``bias_theorems``). Otherwise R8 with biases
    (``bias_width_theorem``: ReLU's ``relu_bias_grouped_iff``, the GELU family's
    ``*_bias_block_decided``) once its file is in the library; until then
    ``outside_hypotheses`` naming the missing theorem."""
    act = inst.activation
    r9 = act.spec.bias_theorems
    if r9 is None or not library_has(r9[0]):
        missing = (f"R9 for {act.label} with biases ({r9[0]}) is not in the library yet" if r9 is not None
                   else f"R9 (the => direction with biases) is not proved for {act.label}")
        if r5_decision is not None and r5_decision.verdict == "absorbable" and m == inst.n and not min_width:
            return r5_decision
        return Decision("outside_hypotheses", "R9", None,
                        f"nonzero biases and no subset S at width n: {missing}", **base)
    kind = _classes(act)
    _, thm_n, thm_below = r9
    if r5_decision is not None and r5_decision.generic:
        # a_i pairwise independent (R5's exact check) implies (a_i, c_i) pairwise independent
        # (CertifyBias.generic_bias_lines_of_generic): the Fraction pass below is not needed.
        gen, greason = True, "rows a_i nonzero and pairwise independent, hence so are the augmented rows (a_i, c_i); " \
            "b_i nonzero"
    else:
        gen, greason = generic_with_biases(inst, kind)
    n = inst.n
    if gen and not min_width and m <= n:
        # R9 needs no ridge form or width search: say what was run instead
        base = dict(base, method=R9_METHOD if m < n or r5_decision is None
                    else f"{R9_METHOD}; {r5_decision.method}")
        if m < n:
            return Decision("not_absorbable", "R9", qualified(thm_below),
                            f"generic with biases ({greason}): never absorbable below width n = {n}",
                            generic=True, width=m, **base)
        if r5_decision is not None and r5_decision.verdict in ("absorbable", "undecided"):
            return replace(r5_decision, width=m)
        ev = r5_decision.evidence if r5_decision is not None else None
        return Decision("not_absorbable", "R9", qualified(thm_n),
                        f"generic with biases ({greason}) and no S with B[:,S] A[S,:] = -I: not absorbable "
                        f"at width n (R9 =>, {act.label})", generic=True, width=m, evidence=ev, **base)
    theorem, missing = bias_width_theorem(act)
    if theorem is None:
        why = f"not generic with biases ({greason})" if not gen else \
            ("the least width was asked" if min_width else f"width {m} > n")
        return Decision("outside_hypotheses", "R9", None,
                        f"{act.label} with biases, {why}: R9 decides generic blocks at widths <= n only, "
                        f"and {missing}", generic=gen, **base)
    return _decide_bias_form(inst, m, min_width, theorem, gen, base)


def identity_target(d: int) -> IntMatrix:
    return identity_int(d)
