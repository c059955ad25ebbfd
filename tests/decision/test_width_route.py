"""The width route (R8, R8', R9): verdicts at any width, least widths, Coq certificates.

Coq tests need the R8 checkers (certify/R8Certify.v, branch theory-r8) in the library;
they are skipped with that reason until it is merged."""

from __future__ import annotations

import random
from contextlib import contextmanager
from fractions import Fraction as F
from itertools import combinations_with_replacement
from unittest.mock import patch

import pytest
from helpers import block, block_value, examples, mat, random_block, relu, sector_points, solvable
from hypothesis import given, settings
from hypothesis import strategies as st
from pm_oracle import least_width, same_function

from pybridge.activations import REGISTRY
from pybridge.certify.pipeline import build_certificate, certify, certify_many
from pybridge.decision import decide, width_route
from pybridge.decision.width_route import library_has
from pybridge.model import Activation, Instance

RELU = Activation("relu")
needs_r8 = pytest.mark.skipif(not library_has("certify/R8Certify.v"),
                              reason="certify/R8Certify.v (theory-r8) not merged into the library yet")


def inst(act: str, up, down, **kw) -> Instance:
    return Instance(Activation(act), mat(up), mat(down), **kw)


def residual_value(i: Instance, x):
    c = list(i.b_up) if i.b_up else None
    b0 = list(i.b_down) if i.b_down else None
    y = block(i.W_up, i.W_down, x, bias_up=c, bias_down=b0)
    return [a + b for a, b in zip(x, y)]


def witness_equal(i: Instance, dec, points) -> bool:
    b = dec.width_info.block
    return all(block(b.W_up, b.W_down, x, bias_up=list(b.b_up), bias_down=list(b.b_down)) == residual_value(i, x)
               for x in points)


POINTS_1D = [[F(v, 7)] for v in range(-30, 31)]


def test_counterexample_widths():
    cx = inst("relu", [[1], [2]], [[1, 1]])
    got = {m: decide(cx, width=m).verdict for m in range(4)}
    assert got == {0: "not_absorbable", 1: "not_absorbable", 2: "absorbable", 3: "absorbable"}
    dec = decide(cx, min_width=True)
    assert dec.width == 2 and dec.width_info.min_exact and dec.width_info.lower_reason == "no_subset_at_k"
    assert witness_equal(cx, dec, POINTS_1D)


@pytest.mark.parametrize("up,down", [
    ([[1], [-1]], [[1, -1]]),               # flat: x + relu(x) - relu(-x) = 2x
    ([[3], [-2], [5]], [[1, 2, -1]]),       # d = 1, mixed signs
    ([[0], [1]], [[4, -1]]),                # a zero row
    ([[1], [1]], [[0, -1]]),                # a zero column, duplicate rows
])
def test_d1_blocks_absorbable_at_two(up, down):
    i = inst("relu", up, down)
    dec = decide(i, width=2)
    assert dec.verdict == "absorbable" and dec.result in ("R5", "R8")
    dec = decide(i, min_width=True)
    assert dec.width <= 2 and witness_equal(i, dec, POINTS_1D)


def test_parallel_and_opposite_rows_d2():
    i = inst("relu", [[1, 1], [2, 2], [-1, -1], [1, 0]], [[1, 1, 1, 0], [0, 1, 0, 1]])
    dec = decide(i)
    assert dec.verdict in ("absorbable", "not_absorbable") and dec.width_info is not None
    mw = decide(i, min_width=True)
    pts = [[F(a, 3), F(b, 5)] for a in range(-6, 7, 2) for b in range(-7, 8, 3)]
    assert witness_equal(i, mw, pts)
    assert mw.width_info.k <= mw.width <= mw.width_info.k + 2 * 2


def test_gelu_family_opposite_rows_signs_classes():
    i = inst("gelu", [[1, 0], [-1, 0], [0, 1]], [[1, 1, 0], [0, 0, 1]])
    dec = decide(i)
    assert dec.result == "R8'" and dec.width_info.k == 2


def test_biased_generic_relu_with_and_without_subset():
    no_s = inst("relu", [[1], [1]], [[1, 1]], b_up=(F(0), F(1)))
    dec = decide(no_s)
    assert (dec.verdict, dec.result) == ("not_absorbable", "R9")
    assert dec.theorem == "Absorb.bias.ReluBias.relu_bias_absorbable_generic_submatrix"
    with_s = inst("relu", [[1], [2]], [[-1, 0]], b_up=(F(3), F(1)))
    assert decide(with_s).verdict == "absorbable"
    assert decide(no_s, width=1).theorem == "Absorb.bias.ReluBias.relu_bias_generic_not_absorbable_below"


def test_biased_nongeneric_relu_uses_grouped_r8():
    i = inst("relu", [[1], [2]], [[1, 1]], b_up=(F(1), F(2)))
    dec = decide(i)
    assert dec.verdict == "absorbable" and dec.theorem == "Absorb.bias.ReluBiasNecessity.relu_bias_grouped_iff"
    assert witness_equal(i, dec, POINTS_1D)


@pytest.mark.parametrize("act,thm", [
    ("gelu", "GeluBias.gelu_bias_absorbable_generic_submatrix"),
    ("gelu_tanh", "GeluTanhAffineRidge.gelu_tanh_bias_absorbable_iff_submatrix"),
    ("silu", "SiluAffineRidge.silu_bias_absorbable_iff_submatrix"),
])
def test_gelu_family_bias_generic_r9(act, thm):
    i = inst(act, [[1], [1]], [[1, 1]], b_up=(F(0), F(1)))
    dec = decide(i)
    assert (dec.verdict, dec.result, dec.theorem) == ("not_absorbable", "R9", "Absorb.bias." + thm)


# ---------------------------------------------------------------- R8 with biases, GELU family

PM_FILE = "bias/PmBiasNecessity.v"
HAS_PM = library_has(PM_FILE)
needs_pm = pytest.mark.skipif(not HAS_PM, reason=f"{PM_FILE} (R8 with biases, GELU family) not merged yet")
PM_ACTS = ["gelu", "gelu_tanh", "silu"]


@contextmanager
def pm_library(present: bool = True):
    """Decide as if ``bias/PmBiasNecessity.v`` were (or were not) in the library: the decision
    logic is tested either way; only the theorem names need the real file."""
    real = width_route.library_has
    with patch.object(width_route, "library_has", lambda p: present if p == PM_FILE else real(p)):
        yield


# (W_up, b_up, W_down, b_down): verdicts at widths 0.. and the least width, by hand.
PM_CASES = {
    # a zero column: one ridge (1, 0), G = 1, L = 1: no S at k = 1; T = {0} at 2
    "zero_column": (([[1], [1]], [0, 1], [[1, 0]], [0]), [False, False, True, True], 2),
    # duplicate augmented rows (1, 1): G = -2 + 1 = -1; ridge (2, 0), G = 3; S = {0}: 1 - 1 = 0
    "duplicates": (([[1], [1], [2]], [1, 1, 0], [[-2, 1, 3]], [2]), [False, False, True, True, True], 2),
    # opposite rows: one ridge, G = 2, L = 1 - 1 = 0: width 1
    "opposite": (([[1], [-1]], [1, -1], [[1, 1]], [0]), [False, True, True, True], 1),
    # a constant row (a = 0, c = 2): ridge (1, 0), G = -1, L = 1: S = {0} at width 1
    "constant": (([[0], [1]], [2, 0], [[5, -1]], [1]), [False, True, True, True], 1),
    # generic with biases, asked above n: two ridges, G = 1, 1, L = 1; width 3 (T = {0})
    # Coq's non-vacuity examples (PmBiasNecessity.v): x + gelu(x + 1) + gelu(x + 1), and
    # x + gelu(x + 1) - gelu(-x - 1) = 2x + 1 (no ridge, L = 2: r = 1): both width 2, not 1
    "coq_duplicate": (([[1], [1]], [1, 1], [[1, 1]], [0]), [False, False, True, True], 2),
    "coq_no_class": (([[1], [-1]], [1, -1], [[1, -1]], [0]), [False, False, True, True], 2),
    "generic_wide": (([[1], [1]], [0, 1], [[1, 1]], [0]), [False, False, False, True, True], 3),
    # d = 2, tests/exact/test_ridge_form_bias.py's block: k = 2, G = [[3,1],[2,1]], L = [[-1,1],[-1,1]];
    # no S at 2, no (T, S) with |T| = 1 and r = 0 at 3, T = {0, 1} at 4
    "d2_mixed": (([[1, 0], [-1, 0], [1, 0], [0, 1], [0, 0], [1, 1], [0, 1], [0, -1]], [1, -1, 1, 2, 3, 0, -1, 1],
                  [[1, 2, 0, 1, 1, 0, 1, -1], [0, 1, 1, 1, -1, 0, 0, 0]], [5, 7]),
                 [False] * 4 + [True] * 6, 4),
}


def _pm_inst(act, case) -> Instance:
    up, c, down, b0 = case
    return inst(act, up, down, b_up=tuple(F(v) for v in c), b_down=tuple(F(v) for v in b0))


def _witness_same_function(i: Instance, dec) -> bool:
    up, c, down, b0 = dec.width_info.block.evaluable()
    return same_function(i.W_up, i.b_up, i.W_down, i.b_down or (F(0),) * i.d, up, c, down, b0)


@pytest.mark.parametrize("act", PM_ACTS)
@pytest.mark.parametrize("name", sorted(PM_CASES))
def test_gelu_family_biased_blocks_decided(act, name):
    case, expected, least = PM_CASES[name]
    i = _pm_inst(act, case)
    with pm_library():
        for m, absorbable in enumerate(expected):
            dec = decide(i, width=m)
            assert dec.verdict == ("absorbable" if absorbable else "not_absorbable"), (m, dec.reason)
            assert dec.result in ("R9", "R7")
            if dec.width_info is not None and dec.verdict == "absorbable":
                assert len(dec.width_info.block.W_up) + dec.width_info.block.padding == m and _witness_same_function(i, dec)
        mw = decide(i, min_width=True)
    assert (mw.verdict, mw.width, mw.result) == ("absorbable", least, "R9")
    assert mw.width_info.min_exact and _witness_same_function(i, mw)
    assert least == least_width(case[0], case[1], case[2])


def test_constant_rows_kept_symbolic_in_the_witness():
    i = _pm_inst("gelu", PM_CASES["constant"][0])
    with pm_library():
        dec = decide(i, width=1)
    blk = dec.width_info.block
    assert blk.sigma_constants == ((F(2), (F(5),)),) and blk.b_down == (F(1),)


@pytest.mark.parametrize("act", PM_ACTS)
def test_gelu_family_biased_outside_until_merged(act):
    """Without bias/PmBiasNecessity.v: outside_hypotheses naming the missing theorem."""
    i = _pm_inst(act, PM_CASES["zero_column"][0])
    with pm_library(present=False):
        for kw in ({}, {"width": 3}, {"min_width": True}):
            dec = decide(i, **kw)
            assert dec.verdict == "outside_hypotheses" and dec.theorem is None
            assert f"PmBiasNecessity.{act}_bias_block_decided" in dec.reason and "not in the library" in dec.reason
        # generic with biases at widths <= n stays R9 either way
        g = _pm_inst(act, PM_CASES["generic_wide"][0])
        assert decide(g).verdict == "not_absorbable" and decide(g, width=4).verdict == "outside_hypotheses"


@pytest.mark.parametrize("act", ["quick_gelu", "gelu_fast"])
def test_quick_gelu_gelu_fast_biased_decided(act):
    """R9 / R8 with biases for them (R10, tests/decision/test_r10_bias.py): the hand-computed verdicts."""
    assert REGISTRY[act].bias_width_theorem is not None
    case, expected, least = PM_CASES["zero_column"]
    i = _pm_inst(act, case)
    for m, absorbable in enumerate(expected):
        assert decide(i, width=m).verdict == ("absorbable" if absorbable else "not_absorbable")


@pytest.mark.parametrize("act", PM_ACTS)
def test_gelu_family_bias_theorem_names_in_registry(act):
    path, name = REGISTRY[act].bias_width_theorem
    assert path == PM_FILE and name == f"Absorb.bias.PmBiasNecessity.{act}_bias_block_decided"
    assert REGISTRY["relu"].bias_width_theorem[1] == width_route.RELU_BIAS_GROUPED


@needs_pm
@pytest.mark.parametrize("act", PM_ACTS)
def test_gelu_family_biased_theorem_names(act):
    i = _pm_inst(act, PM_CASES["d2_mixed"][0])
    thm = f"Absorb.bias.PmBiasNecessity.{act}_bias_block_decided"
    assert decide(i, width=3).theorem == thm and decide(i, width=4).theorem == thm
    assert decide(i, min_width=True).theorem == thm


@needs_pm
def test_gelu_family_biased_theorems_exist(backend):
    names = [REGISTRY[a].bias_width_theorem[1] for a in PM_ACTS] + ["Absorb.bias.PmBiasNecessity.pm_bias_form_iff",
                                                                    "Absorb.bias.PmBiasNecessity.pm_bias_block_decided"]
    infos = backend.describe(names)
    assert all(infos[n].exists for n in names), names


@pytest.mark.parametrize("kw", [{"width": 1}, {"width": 4}])
def test_gelu_biased_width_verdict_certified(backend, kw):
    """Biased groupings are checked by certify/CertifyBiasWidth.v (tests/certify/test_bias_width_certificates.py)."""
    i = _pm_inst("gelu", PM_CASES["d2_mixed"][0])
    with pm_library():
        dec = decide(i, **kw)
    assert dec.width_info is not None
    res = certify(i, dec, backend)
    assert res is not None and res.accepted


small = st.integers(-2, 2)


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(PM_ACTS), st.integers(1, 2).flatmap(lambda d: st.tuples(
    st.just(d),
    st.lists(st.tuples(st.lists(small, min_size=d, max_size=d), small, st.lists(small, min_size=d, max_size=d)),
             min_size=1, max_size=4),
    st.lists(small, min_size=d, max_size=d))), st.integers(0, 6))
def test_gelu_family_biased_against_oracle(act, case, m):
    """Small integer blocks with biases: the verdict at width m and the least width agree with
    tests/pm_oracle.py's own grouping and (T, S) enumeration; every absorbing block is checked
    against the residual block exactly for three activations with the odd-part identity."""
    d, rows, b0 = case
    up = [r[0] for r in rows]
    c = [r[1] for r in rows]
    down = [[r[2][p] for r in rows] for p in range(d)]
    i = inst(act, up, down, b_up=tuple(F(v) for v in c), b_down=tuple(F(v) for v in b0))
    least = least_width(up, c, down)
    with pm_library():
        dec = decide(i, width=m)
        mw = decide(i, min_width=True) if i.has_bias else None
    assert dec.verdict == ("absorbable" if m >= least else "not_absorbable"), (dec.reason, least)
    if dec.verdict == "absorbable":
        if dec.width_info is not None:
            assert _witness_same_function(i, dec)
        else:  # R5 / R7 at width n: the flip witness
            w = dec.witness
            zero = (F(0),) * i.n
            assert same_function(i.W_up, i.b_up or zero, i.W_down, i.b_down or (F(0),) * d,
                                 w.W_up, w.b_up or i.b_up or zero, w.W_down, w.b_down or i.b_down or (F(0),) * d)
    if mw is not None:
        assert mw.width == least and mw.width_info.min_exact and _witness_same_function(i, mw)


def test_bad_width_is_input_error():
    from pybridge.errors import InputError
    with pytest.raises(InputError):
        decide(inst("relu", [[1]], [[1]]), width=-1)


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=5))
def test_min_width_witness_is_exact_d1(rows):
    """Oracle: the explicit block equals the residual block on every sector of the line
    (exact evaluation), and k <= least width <= k + 2 d."""
    i = inst("relu", [[a] for a, _ in rows], [[b for _, b in rows]])
    dec = decide(i, min_width=True)
    info = dec.width_info
    assert info.k <= dec.width <= info.k + 2
    assert dec.width <= 2  # every d = 1 ReLU block is absorbable at width 2
    assert witness_equal(i, dec, POINTS_1D)
    if dec.width >= 1:
        assert decide(i, width=dec.width - 1).verdict in ("not_absorbable", "undecided")


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 3))
def test_decision_against_sector_oracles_d2(seed, n):
    """The decision against the independent oracles of tests/helpers.py (no ridge-form theory):
    at the least width the explicit block equals the residual block on two points of every
    sector (hence everywhere); at the least width - 1 the decision says not absorbable and no
    block from the candidate rows (both signs of the block's rows and small vectors) solves."""
    A, B = random_block(random.Random(seed), 2, n)
    i = inst("relu", A, B)
    dec = decide(i, min_width=True)
    blk = dec.width_info.block
    Af = [[F(v) for v in r] for r in A]
    pts = sector_points(Af + [list(r) for r in blk.W_up])
    for x in pts:
        assert block_value(blk.W_up, blk.W_down, x, blk.b_up, blk.b_down) == block_value(A, B, x, residual=True)
    assert decide(i, width=dec.width).verdict == "absorbable"
    m = dec.width - 1
    if m < 0 or not dec.width_info.min_exact:
        return
    assert decide(i, width=m).verdict == "not_absorbable"
    if not 1 <= m <= 3:
        return
    cands = {(F(1), F(0)), (F(0), F(1)), (F(1), F(1)), (F(1), F(-1)), (F(2), F(1)), (F(1), F(2))}
    cands |= {tuple(F(v) for v in r) for r in A if any(r)}
    cands |= {tuple(-v for v in c) for c in cands}
    cl = sorted(cands)
    pts = sector_points(Af + [list(c) for c in cl])
    for rows in combinations_with_replacement(cl, m):
        assert not solvable(list(rows), A, B, pts), (A, B, rows)


# ---------------------------------------------------------------- Coq


def _accepted(res) -> bool:
    return res is not None and res.accepted


@needs_r8
def test_width_certificates_accepted(backend):
    """Every form of width certificate (at n, below k, at 0, the least width; a flat class,
    QuickGELU, GELU's least width), each accepted by Coq (one coqc run for all)."""
    insts = {
        "cx": inst("relu", [[1], [2]], [[1, 1]]),
        "flat": inst("relu", [[1], [-1]], [[1, -1]]),
        "quick": inst("quick_gelu", [[1, 0], [0, 1]], [[-1, 0], [0, -1]]),
        "gelu": inst("gelu", [[1, 0], [1, 0], [0, 1]], [[1, 1, 0], [0, 0, 1]]),
    }
    cases = [("cx", {}), ("cx", {"width": 1}), ("cx", {"width": 0}), ("cx", {"min_width": True}),
             ("flat", {}), ("quick", {}), ("gelu", {"min_width": True})]
    pairs = [(insts[case], decide(insts[case], **kw)) for case, kw in cases]
    for (case, kw), res in zip(cases, certify_many(pairs, backend)):
        assert _accepted(res), (case, kw, res and res.message)


def test_bias_certificates_accepted(backend):
    pairs = []
    for act in ("relu", "gelu", "gelu_tanh", "silu"):
        i = inst(act, [[1], [1]], [[1, 1]], b_up=(F(0), F(1)), b_down=(F(3),))
        pairs += [(i, decide(i)), (i, decide(i, width=1))]
    for (i, _), res in zip(pairs, certify_many(pairs, backend)):  # one coqc run
        assert _accepted(res), (i.activation.name, res and res.message)


def _tampered(i, dec, old: str, new: str, backend):
    cert = build_certificate(i, dec)
    assert old in cert.source
    return backend.check_file(cert.source.replace(old, new, 1), stem=cert.stem, timeout=120)


@needs_r8
def test_tampered_width_certificate_rejected(backend):
    i = inst("relu", [[1], [2]], [[1, 1]])
    dec = decide(i, width=2)
    # claim width 1 with the width-2 data: check_width_data must fail
    assert not _tampered(i, dec, "check_width_data d k 2", "check_width_data d k 1", backend).accepted


def test_tampered_bias_certificate_rejected(backend):
    i = inst("relu", [[1], [1]], [[1, 1]], b_up=(F(0), F(1)))
    dec = decide(i)
    res = _tampered(i, dec, "(id_rows d) p F FS = true", "(id_rows d) p F [] = true", backend)
    assert not res.accepted


def test_relu_identity_sanity():
    for x in (F(-2), F(0), F(3, 2)):
        assert x + relu(x) + relu(2 * x) == 4 * relu(x) - relu(-x)


def test_classification_verdicts_at_other_widths(backend):
    """R2 / R3 hold at every width: certified at the width asked, not at n."""
    A = mat([[1, 0], [0, 1], [1, 1]])
    B = mat([[1, 0, 1], [0, 1, 1]])
    for act, kw in (("swiglu", {"W_gate": A}), ("relu_pow", {})):
        a = Activation(act, 2) if act == "relu_pow" else Activation(act)
        i = Instance(a, A, B, **kw)
        dec = decide(i, width=7)
        assert dec.verdict == "not_absorbable" and dec.width == 7
        cert = build_certificate(i, dec)
        assert " d n 7 " in cert.source
        assert _accepted(certify(i, dec, backend))


def test_generated_checkpoints_decided(tmp_path):
    """OPT-style (ReLU) and GPT-2-style (GELU_tanh) checkpoints with biases, real tensor names."""
    import importlib.util
    from pathlib import Path

    from pybridge.api import scan

    spec = importlib.util.spec_from_file_location(
        "generated_checkpoints", Path(__file__).resolve().parents[2] / "bench" / "generated_checkpoints.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    opt = scan(mod.write_opt(tmp_path / "opt", 3, 8), prove=False).to_json()["layers"]
    assert [(l["verdict"], l["result"]) for l in opt] == [
        ("not_absorbable", "R9"), ("absorbable", "R7"), ("absorbable", "R9")]
    gpt2 = scan(mod.write_gpt2(tmp_path / "gpt2", 3, 8), prove=False).to_json()["layers"]
    assert [l["activation"] for l in gpt2] == ["gelu_tanh"] * 3
    assert [(l["verdict"], l["result"]) for l in gpt2][:2] == [("not_absorbable", "R9"), ("absorbable", "R7")]
    # Layer 2 is not generic with biases: R8 with biases decides it. Here (d = 3, n = 8) its 7
    # ridges need width 10 (tests/pm_oracle.py's enumeration agrees): not absorbable at n = 8.
    if HAS_PM:
        assert (gpt2[2]["verdict"], gpt2[2]["result"]) == ("not_absorbable", "R9")
        assert gpt2[2]["theorem"] == "Absorb.bias.PmBiasNecessity.gelu_tanh_bias_block_decided"
    else:
        assert gpt2[2]["verdict"] == "outside_hypotheses" and "PmBiasNecessity" in gpt2[2]["reason"]
    with pm_library():
        gpt2 = scan(tmp_path / "gpt2", prove=False).to_json()["layers"]
    assert (gpt2[2]["verdict"], gpt2[2]["result"]) == ("not_absorbable", "R9")
    assert "7 ridge(s)" in gpt2[2]["reason"] and "the least width is 10 > 8" in gpt2[2]["reason"]


def test_cli_reports_symbolic_constants_certified(tmp_path, capsys):
    """``check --json`` on a biased GELU block with an a_i = 0 row: the witness block's output
    bias carries ``b sigma(c)`` symbolically, the float screening of that block agrees, and the
    verdict is Coq-checked (certify/CertifyBiasWidth.v: the constant stays a term)."""
    import json

    from pybridge.cli import main

    f = tmp_path / "gelu_const.json"
    f.write_text(json.dumps({"activation": "gelu", "W_up": [[0], [1]], "b_up": [2, 0], "W_down": [[5, -1]],
                             "b_down": [1]}))
    with pm_library(), pytest.raises(SystemExit) as info:
        main(["check", str(f), "--width", "1", "--json"])
    out, _ = capsys.readouterr()
    doc = json.loads(out)
    assert info.value.code == 0 and doc["verdict"] == "absorbable" and doc["checked"] is True
    assert doc["prover"]["outcome"] == "accepted"
    assert doc["witness_block"]["b_down"] == ["1"]
    assert doc["witness_block"]["b_down_plus_sigma"] == [{"c": "2", "b": ["5"]}]
    assert doc["crosscheck"]["witness_equal"] is True
    with pm_library(), pytest.raises(SystemExit):
        main(["check", str(f), "--width", "1"])
    out, _ = capsys.readouterr()
    assert "b_down = ['1'] + ['5'] sigma(2)" in out


def test_skip_witness_is_the_users_block() -> None:
    """With a skip P the route decides x + P^-1 B relu(Ax); the reported block must equal the
    user's P x + B relu(Ax) (W_down multiplied by P), checked by exact evaluation and Z3."""
    from pybridge.decision.crosscheck import crosscheck

    A = ((F(1), F(0)), (F(2), F(0)), (F(0), F(1)))
    B = ((F(1), F(1), F(0)), (F(0), F(0), F(1)))
    P = ((F(2), F(1)), (F(0), F(3)))
    inst = Instance(Activation("relu"), A, B, skip=P)
    for kw in ({"min_width": True}, {"width": 5}):
        dec = decide(inst, **kw)
        assert dec.verdict == "absorbable" and dec.width_info is not None and dec.width_info.block is not None
        cc = crosscheck(inst, dec)
        assert cc.witness_equal is True and cc.z3_identity == "proved"
    assert decide(inst, min_width=True).width == 4
