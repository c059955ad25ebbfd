"""Independent cross-checks of a decision, without the proof assistant.

- Symbolic identity (every activation with the odd-part identity: ReLU, GELU,
  GELU_tanh, SiLU, quick_gelu, gelu_fast): SymPy proves sigma(z) - sigma(-z) = z
  and sigma(0) = 0 for the activation's closed form; then, per hidden unit, the
  witness block minus the residual block is rewritten exactly (Fractions) with that
  identity (and sigma(lz) = l sigma(z), l > 0, for ReLU) into sum_u c_u sigma(u) +
  affine part; every c_u and the affine part must vanish. Exact, independent of Coq
  and of float evaluation (run by :func:`crosscheck` for the smooth ones; ReLU has exact
  evaluation and Z3).
- Witness equality: the residual block ``x -> Px + f(x)`` and the witness's
  residual-free block are evaluated on random points: exactly (Fractions) for
  ReLU, relu^k and ReGLU, in float64 for the others (*screening only*, an extra).
- Z3, ReLU up to moderate size: ``forall x, B' relu(A'x + c') + b0' = Px + B relu(Ax + c) + b0``
  (unsat of the negation, Real arithmetic, ReLU as ``If``), and an independent
  search for the submatrix subset S (``sum_{i in S} b~_i a_i^T = -I``, Boolean s_i).
- Homogeneous activations: the residual block is not k-homogeneous (exact).
- Gated activations: ``g(tv)/t -> 0`` while ``(Ptv + g(tv))/t -> Pv`` (float screening).

Nothing here decides a verdict; ``consistent`` says whether the evidence agrees.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from math import lcm
from typing import Optional, Sequence

import numpy as np

from pybridge.model import Decision, Instance, Matrix, Vector, Witness

#: Exact evaluation is used when n*d is at most this; float screening above.
EXACT_LIMIT = 250_000
#: The symbolic witness identity is run when n*d^2 is at most this (exact Fractions, O(n d^2)).
SYMBOLIC_LIMIT = 4_000_000
#: Z3 limits (beyond them the check is skipped and a note says so).
Z3_IDENTITY_MAX_N = 64
Z3_SUBSET_MAX_N = 24
Z3_MAX_D = 16


@dataclass
class CrossCheck:
    """Evidence gathered independently of Coq; JSON-friendly via :meth:`to_json`."""

    method: str = ""
    points: int = 0
    witness_equal: Optional[bool] = None
    witness_is_flip: Optional[bool] = None
    max_abs_diff: Optional[str] = None
    z3_identity: str = "skipped"
    z3_subset: str = "skipped"
    #: the symbolic witness identity (exact): "proved", "refuted" (the units do not cancel),
    #: "skipped" (no odd-part identity / block too large), with ``symbolic_note`` saying how
    symbolic_identity: str = "skipped"
    symbolic_note: Optional[str] = None
    homogeneity: Optional[str] = None
    linearization: Optional[str] = None
    consistent: Optional[bool] = None
    notes: list[str] = field(default_factory=list)
    #: why (part of) the float screening was skipped, e.g. an overflow; never affects the verdict
    skipped: Optional[str] = None

    def to_json(self) -> dict:
        return asdict(self)


# ---------------------------------------------------------------- evaluation


def _mv(M: Sequence[Sequence], x: Sequence):
    """``M x``; an empty ``x`` (a hidden layer of width 0) gives zeros."""
    zero = x[0] * 0 if len(x) else 0
    return [sum((a * b for a, b in zip(row, x)), zero) for row in M]


def _plus(u, v):
    return [a + b for a, b in zip(u, v)] if v is not None else list(u)


def block_value(
    inst: Instance,
    x: Sequence,
    *,
    up: Optional[Matrix] = None,
    down: Optional[Matrix] = None,
    b_up: Optional[Vector] = None,
    b_down: Optional[Vector] = None,
    skip: bool = True,
    exact: bool = True,
) -> list:
    """``P x + f(x)`` (``skip=False``: ``f(x)`` alone) with optional replacement weights.

    ``f(x) = B sigma(Ax + b_up) + b_down`` or ``B (gamma(Cx + b_gate) * (Ax + b_up)) + b_down``.
    Exact arithmetic when ``x`` holds Fractions and the activation is piecewise polynomial.
    """
    act = inst.activation
    sig = act.evaluate
    A = up if up is not None else inst.W_up
    B = down if down is not None else inst.W_down
    bu = b_up if up is not None else inst.b_up
    bd = b_down if down is not None else inst.b_down
    conv = (lambda v: v) if exact else (lambda v: None if v is None else [float(t) for t in v])
    pre = _plus(_mv(A, x), conv(bu))
    if act.gated and inst.W_gate is not None:
        gate = _plus(_mv(inst.W_gate, x), conv(inst.b_gate))
        hidden = [sig(g) * p for g, p in zip(gate, pre)]
    else:
        hidden = [sig(p) for p in pre]
    out = _plus(_mv(B, hidden), conv(bd))
    if skip:
        px = list(x) if inst.skip is None else _mv(inst.skip, x)
        out = _plus(out, px)
    return out


def _float_rows(M: Optional[Sequence[Sequence]]):
    if M is None:
        return None
    arr = getattr(M, "float_array", None)
    if arr is not None:
        return arr()
    return np.array([[float(t) for t in row] for row in M], dtype=np.float64)


def _flip(v: Optional[Vector], subset: Sequence[int]) -> Optional[Vector]:
    if v is None:
        return None
    s = set(subset)
    return tuple(-t if i in s else t for i, t in enumerate(v))


def _witness_bias_up(inst: Instance, w: Witness) -> Optional[Vector]:
    given = getattr(w, "b_up", None)
    return given if given is not None else _flip(inst.b_up, w.subset)


def _is_flip(inst: Instance, w: Witness) -> bool:
    """The witness is R5 (<=)'s: ``W_up`` with the rows in S negated, ``W_down`` unchanged."""
    s = set(w.subset)
    if len(w.W_up) != inst.n or any(not 0 <= i < inst.n for i in s):
        return False
    same_down = all(tuple(a) == tuple(b) for a, b in zip(w.W_down, inst.W_down))
    return same_down and all(
        tuple(w.W_up[i]) == tuple(-t if i in s else t for t in inst.W_up[i]) for i in range(inst.n)
    )


def _random_point(rng: random.Random, d: int, exact: bool) -> list:
    if exact:
        return [Fraction(rng.randint(-40, 40), rng.choice((1, 2, 3, 5, 7))) for _ in range(d)]
    return [rng.uniform(-3.0, 3.0) for _ in range(d)]


def check_witness(inst: Instance, w: Witness, *, points: int, seed: int, exact: bool) -> tuple[bool, str]:
    """Compare the residual block with the witness block on random points."""
    rng = random.Random(seed)
    worst: Fraction | float = 0
    scale = 1.0
    b_up_w = _witness_bias_up(inst, w)
    for _ in range(points):
        x = _random_point(rng, inst.d, exact)
        lhs = block_value(inst, x, exact=exact)
        rhs = block_value(
            inst, x, up=w.W_up, down=w.W_down, b_up=b_up_w, b_down=w.b_down, skip=False, exact=exact
        )
        for a, b in zip(lhs, rhs):
            worst = max(worst, abs(a - b))
            scale = max(scale, abs(float(a)))
    if exact:
        return worst == 0, str(worst)
    return float(worst) <= 1e-9 * scale, f"{float(worst):.3e}"


# ------------------------------------------------------------- symbolic (SymPy)


def sympy_activation(name: str):
    """``(z, sigma(z))`` as SymPy expressions, for the activations with the odd-part identity
    (same closed forms as :mod:`pybridge.activations`); None for the others."""
    import sympy as sp

    z = sp.Symbol("z", real=True)
    R = sp.Rational
    forms = {
        "relu": sp.Max(z, 0),
        "gelu": z / 2 * (1 + sp.erf(z / sp.sqrt(2))),
        "gelu_tanh": z / 2 * (1 + sp.tanh(sp.sqrt(2 / sp.pi) * (z + R(44715, 10**6) * z**3))),
        "silu": z / (1 + sp.exp(-z)),
        "quick_gelu": z / (1 + sp.exp(-R(1702, 1000) * z)),
        "gelu_fast": z / 2 * (1 + sp.tanh(z * R(7978845608, 10**10) * (1 + R(44715, 10**6) * z * z))),
    }
    form = forms.get(name)
    return None if form is None else (z, form)


@functools.cache
def odd_part_identity_holds(name: str) -> Optional[str]:
    """SymPy's proof that ``sigma(z) - sigma(-z) = z`` and ``sigma(0) = 0``: a one-line
    account, or None when the activation has no closed form here or SymPy cannot show it.

    ReLU (piecewise) is split at 0 (z = p > 0, z = -p, z = 0); the smooth ones simplify to 0."""
    import sympy as sp

    found = sympy_activation(name)
    if found is None:
        return None
    z, form = found
    if sp.simplify(form.subs(z, 0)) != 0:
        return None
    if name == "relu":
        p = sp.Symbol("p", positive=True)
        cases = [form.subs(z, t) - form.subs(z, -t) - t for t in (p, -p, sp.Integer(0))]
        return "sigma(z) - sigma(-z) = z by cases z > 0, z < 0, z = 0 (SymPy)" if all(
            sp.simplify(c) == 0 for c in cases) else None
    if sp.simplify(form - form.subs(z, -z) - z) != 0:
        return None
    return f"sigma(z) - sigma(-z) - z simplifies to 0 for sigma(z) = {sp.sstr(form)} (SymPy)"


def _exact_rows(M) -> tuple[tuple[Fraction, ...], ...]:
    materialize = getattr(M, "materialize", None)
    if materialize is not None:
        return materialize()
    return tuple(tuple(Fraction(x) for x in row) for row in M)


def symbolic_identity(inst: Instance, w: Witness) -> tuple[str, str]:
    """Is ``w``'s block equal to ``x -> Px + f(x)`` for every real ``x``? ``("proved", how)``
    when the units cancel exactly after the odd-part identity, ``("refuted", why)`` when they do
    not, ``("skipped", why)`` when the activation has no symbolic odd-part identity here.

    Every hidden unit ``b sigma(a.x + c)`` is keyed by ``v = (a, c)`` up to sign (and, for ReLU,
    up to a positive factor); ``sigma(-w) = sigma(w) - w`` moves the sign into the affine part."""
    act = inst.activation
    if act.gated or not act.odd_part_identity:
        return "skipped", f"{act.label} has no odd-part identity"
    how = odd_part_identity_holds(act.name)
    if how is None:
        return "skipped", f"no symbolic odd-part identity for {act.label}"
    positive_scaling = act.homogeneous_degree == 1
    d = inst.d
    zero = Fraction(0)
    coef: dict[tuple[Fraction, ...], list[Fraction]] = {}
    linear = [[zero] * d for _ in range(d)]  # D(x) = sum_u coef_u sigma(u.(x,1)) + linear x + const
    const = [zero] * d

    def add(A, c, B, sign: int) -> None:
        rows = _exact_rows(A)
        cols = list(zip(*_exact_rows(B)))
        for i, a in enumerate(rows):
            v = tuple(a) + ((Fraction(c[i]),) if c is not None else (zero,))
            b = [sign * x for x in cols[i]]
            lead = next((x for x in v if x != 0), None)
            if lead is None:
                continue  # b sigma(0) = 0 (checked symbolically above)
            if positive_scaling:
                scale = abs(lead)
                v = tuple(x / scale for x in v)
                b = [x * scale for x in b]
                lead = lead / scale
            if lead < 0:  # b sigma(-u) = b sigma(u) - b u
                v = tuple(-x for x in v)
                for r in range(d):
                    if b[r]:
                        for k in range(d):
                            linear[r][k] -= b[r] * v[k]
                        const[r] -= b[r] * v[d]
            acc = coef.setdefault(v, [zero] * d)
            for r in range(d):
                acc[r] += b[r]

    add(w.W_up, _witness_bias_up(inst, w), w.W_down, +1)
    add(inst.W_up, inst.b_up, inst.W_down, -1)
    P = None if inst.skip is None else _exact_rows(inst.skip)
    for r in range(d):
        for k in range(d):
            linear[r][k] -= (P[r][k] if P is not None else (1 if r == k else 0))
        const[r] += (Fraction(w.b_down[r]) if w.b_down is not None else zero) - (
            Fraction(inst.b_down[r]) if inst.b_down is not None else zero)
    left = sum(1 for acc in coef.values() if any(acc))
    if left:
        return "refuted", f"{left} ridge(s) sigma(u.x + c) keep a nonzero coefficient after the odd-part identity"
    if any(any(row) for row in linear) or any(const):
        return "refuted", "the affine parts differ"
    return "proved", f"{how}; all {len(coef)} ridges cancel and the affine parts agree (exact)"


# ------------------------------------------------------------------------ Z3


def _z3_real(z3, q: Fraction):
    return z3.Q(q.numerator, q.denominator) if q.denominator != 1 else z3.RealVal(q.numerator)


def z3_identity(inst: Instance, w: Witness, timeout: float) -> str:
    """``proved`` / ``refuted`` / ``unknown``: does the witness block equal the residual block?"""
    import z3

    xs = [z3.Real(f"x{k}") for k in range(inst.d)]

    def lin(row, b):
        s = z3.Sum([_z3_real(z3, c) * x for c, x in zip(row, xs) if c != 0] or [z3.RealVal(0)])
        return s + _z3_real(z3, b) if b is not None and b != 0 else s

    def relu(e):
        return z3.If(e > 0, e, z3.RealVal(0))

    def block(A, B, bu, bd):
        hidden = [relu(lin(row, None if bu is None else bu[i])) for i, row in enumerate(A)]
        outs = []
        for r, brow in enumerate(B):
            terms = [_z3_real(z3, c) * h for c, h in zip(brow, hidden) if c != 0]
            s = z3.Sum(terms) if terms else z3.RealVal(0)
            if bd is not None and bd[r] != 0:
                s = s + _z3_real(z3, bd[r])
            outs.append(s)
        return outs

    res = block(inst.W_up, inst.W_down, inst.b_up, inst.b_down)
    P = inst.skip
    for k in range(inst.d):
        res[k] = res[k] + (xs[k] if P is None else lin(P[k], None))
    wit = block(w.W_up, w.W_down, _witness_bias_up(inst, w), w.b_down)
    solver = z3.Solver()
    solver.set("timeout", int(timeout * 1000))
    solver.add(z3.Or([a != b for a, b in zip(res, wit)]))
    out = solver.check()
    return "proved" if out == z3.unsat else "refuted" if out == z3.sat else "unknown"


def z3_subset(inst: Instance, timeout: float) -> str:
    """``exists`` / ``none`` / ``unknown``: is there S with ``sum_{i in S} b_i a_i^T = -P``
    (``-I`` for the identity skip; for an invertible ``P`` the same as R1's
    ``sum_{i in S} b~_i a_i^T = -I``, and it needs no inverse for a singular ``P``)?

    Integer 0/1 unknowns ``s_i``; each of the d^2 equations is scaled to integers.
    """
    import z3

    P = inst.skip
    s = [z3.Int(f"s{i}") for i in range(inst.n)]
    solver = z3.Solver()
    solver.set("timeout", int(timeout * 1000))
    for v in s:
        solver.add(v >= 0, v <= 1)
    for r in range(inst.d):
        for c in range(inst.d):
            coefs = [Fraction(inst.W_down[r][i]) * Fraction(inst.W_up[i][c]) for i in range(inst.n)]
            target = -Fraction(P[r][c] if P is not None else int(r == c))
            den = lcm(target.denominator, *(q.denominator for q in coefs))
            terms = [int(q * den) * s[i] for i, q in enumerate(coefs) if q != 0]
            total = z3.Sum(terms) if terms else z3.IntVal(0)
            solver.add(total == int(target * den))
    out = solver.check()
    return "exists" if out == z3.sat else "none" if out == z3.unsat else "unknown"


# ------------------------------------------------------- activation-specific


def homogeneity_defect(inst: Instance, seed: int) -> str:
    """For a k-homogeneous block: ``r(2x) - 2^k r(x) = (2 - 2^k) P x`` is nonzero (exact)."""
    k = inst.activation.homogeneous_degree
    if k is None:
        return "not homogeneous"
    rng = random.Random(seed)
    x = [Fraction(rng.randint(1, 9)) for _ in range(inst.d)]
    r1 = block_value(inst, x)
    r2 = block_value(inst, [2 * t for t in x])
    defect = [a - (2**k) * b for a, b in zip(r2, r1)]
    nonzero = any(defect)
    return f"r(2x) - 2^{k} r(x) {'!=' if nonzero else '=='} 0 at an integer point (exact)"


def gated_linearization(inst: Instance, seed: int) -> tuple[bool, str]:
    """``|g(tv)|/t`` at t = 1e-6 against ``|Pv|`` (float screening)."""
    rng = np.random.default_rng(seed)
    C, A, B = _float_rows(inst.W_gate), _float_rows(inst.W_up), _float_rows(inst.W_down)
    v = rng.standard_normal(inst.d)
    v /= np.linalg.norm(v)
    t = 1e-6
    sig = np.vectorize(inst.activation.evaluate)
    g = B @ (sig(t * (C @ v)) * (t * (A @ v)))
    pv = v if inst.skip is None else _float_rows(inst.skip) @ v
    ratio = float(np.linalg.norm(g) / t) / float(np.linalg.norm(pv))
    return ratio < 1e-2, f"|g(tv)|/t / |Pv| = {ratio:.3e} at t=1e-6 (float screening)"


# -------------------------------------------------------------------- driver


#: Float failures of the screening (huge exact weights do not fit a float64).
FLOAT_ERRORS = (OverflowError, FloatingPointError, ZeroDivisionError)


def _float_problem(exc: BaseException) -> str:
    return f"float overflow ({type(exc).__name__}): the exact weights exceed float64 range"


def crosscheck(
    inst: Instance,
    decision: Decision,
    *,
    points: int = 6,
    seed: int = 0,
    z3_timeout: float = 10.0,
    use_z3: bool = True,
) -> CrossCheck:
    """Gather the evidence above for one decided instance."""
    if not isinstance(inst, Instance) or not isinstance(decision, Decision):
        from pybridge.errors import InputError

        raise InputError("crosscheck needs a pybridge Instance and its Decision")
    act = inst.activation
    small = inst.n * inst.d <= EXACT_LIMIT
    exact = act.spec.exact_evaluation and small
    cc = CrossCheck(method="exact rational evaluation" if exact else "float64 screening (an extra)")
    verdict = decision.verdict
    agree: list[bool] = []
    w = decision.witness
    # The width route (R8/R9) reports its explicit residual-free block of width m instead.
    winfo = decision.width_info
    width_route = winfo is not None
    if w is None and winfo is not None and winfo.block is not None:
        # Constants b sigma(c) of the output bias (GELU family, a_i = 0 rows) as rows (0, c).
        up, b_up, down, b_down = winfo.block.evaluable()
        w = Witness(subset=(), W_up=up, W_down=down, b_down=b_down, b_up=b_up)
    # Smooth activations (no exact evaluation): the symbolic identity is their exact check.
    # ReLU has exact evaluation and Z3 already (symbolic_identity covers it too, on request).
    if w is not None and act.odd_part_identity and not act.gated and not act.spec.exact_evaluation:
        if inst.n * inst.d * inst.d > SYMBOLIC_LIMIT:
            cc.symbolic_note = f"symbolic identity skipped: n d^2 > {SYMBOLIC_LIMIT}"
        else:
            cc.symbolic_identity, cc.symbolic_note = symbolic_identity(inst, w)
        if cc.symbolic_identity != "skipped":
            if not exact:
                cc.method = "symbolic identity (SymPy, exact); float64 screening as an extra"
            agree.append((cc.symbolic_identity == "proved") == (verdict == "absorbable"))
    if w is not None:
        if small:
            if width_route:
                cc.notes.append(f"width-{decision.width} block of the width route evaluated")
            else:
                cc.witness_is_flip = _is_flip(inst, w)
                agree.append(cc.witness_is_flip)
            try:
                equal, diff = check_witness(inst, w, points=points, seed=seed, exact=exact)
            except FLOAT_ERRORS as exc:
                cc.skipped = f"witness evaluation skipped: {_float_problem(exc)}"
            else:
                if not exact and not math.isfinite(float(diff)):
                    cc.skipped = "witness evaluation skipped: float overflow (non-finite values)"
                else:
                    cc.points = points
                    cc.witness_equal, cc.max_abs_diff = equal, diff
                    agree.append(cc.witness_equal == (verdict == "absorbable"))
        else:
            cc.notes.append("witness evaluation skipped: block too large for the Python evaluator")
    relu_like = act.spec.z3_encodable
    # The subset search is activation-free (R5's submatrix condition): every activation with the
    # odd-part identity gets it; the identity check encodes ReLU only.
    subset_ok = use_z3 and act.odd_part_identity and not act.gated and inst.d <= Z3_MAX_D
    z3_ok = use_z3 and (relu_like or subset_ok) and inst.d <= Z3_MAX_D
    if z3_ok:
        if not relu_like:
            pass
        elif w is not None and inst.n <= Z3_IDENTITY_MAX_N:
            cc.z3_identity = z3_identity(inst, w, z3_timeout)
            if cc.z3_identity != "unknown":
                agree.append((cc.z3_identity == "proved") == (verdict == "absorbable"))
        elif w is not None:
            cc.notes.append(f"Z3 identity skipped: n > {Z3_IDENTITY_MAX_N}")
        if width_route or not subset_ok or decision.width not in (None, inst.n):
            pass  # the subset test is R5's / R9's at width n; the width route's block is checked above
        elif inst.n > Z3_SUBSET_MAX_N:
            cc.notes.append(f"Z3 subset search skipped: n > {Z3_SUBSET_MAX_N}")
        else:
            cc.z3_subset = z3_subset(inst, z3_timeout)
            if cc.z3_subset == "exists" and verdict == "not_absorbable":
                agree.append(False)
            elif cc.z3_subset == "none" and verdict == "absorbable":
                agree.append(False)
            elif cc.z3_subset != "unknown" and verdict in ("absorbable", "not_absorbable"):
                agree.append(True)
    elif use_z3 and relu_like:
        cc.notes.append(f"Z3 skipped: d > {Z3_MAX_D}")
    if not inst.has_bias and verdict == "not_absorbable":
        k = act.homogeneous_degree
        if k is not None and k != 1 and act.spec.exact_evaluation and small:
            cc.homogeneity = homogeneity_defect(inst, seed)
            agree.append("!=" in cc.homogeneity)
        elif act.gated:
            try:
                with np.errstate(over="raise", invalid="raise", divide="raise"):
                    ok, text = gated_linearization(inst, seed)
            except FLOAT_ERRORS as exc:
                cc.skipped = f"gated linearization skipped: {_float_problem(exc)}"
            else:
                cc.linearization = text
                agree.append(ok)
    cc.consistent = all(agree) if agree else None
    return cc
