"""R10 with biases: quick_gelu and gelu_fast blocks with biases get a verdict.

The library proves R9 (generic with biases: iff at width n, never below n) and R8 with biases
(every biased block decided) for quick_gelu (bias/QuickGeluAffineRidge.v) and gelu_fast
(bias/TanhGeluAffineRidge.v); the registry names those theorems and the classification lets
biased blocks of these activations reach the width route instead of ``undecided``.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path
from unittest.mock import patch

import pytest
from helpers import mat
from pm_oracle import least_width, same_function

from pybridge.activations import REGISTRY
from pybridge.certify.pipeline import build_certificate, certify, certify_many
from pybridge.decision import decide
from pybridge.decision.width_route import library_has
from pybridge.model import Activation, Instance

ACTS = ["quick_gelu", "gelu_fast"]
FILES = {"quick_gelu": ("bias/QuickGeluAffineRidge.v", "Absorb.bias.QuickGeluAffineRidge"),
         "gelu_fast": ("bias/TanhGeluAffineRidge.v", "Absorb.bias.TanhGeluAffineRidge")}

# d = 2, n = 3: generic with biases ((a_i, c_i) pairwise not equal up to sign, a_i, b_i != 0)
GEN_UP, GEN_C, GEN_DOWN, GEN_B0 = [[1, 2], [3, 5], [2, -1]], [1, 0, -2], [[1, 1, 1], [2, 0, 1]], [1, 0]
# the same shape with a planted S = {0, 1}: B[:,S] A[S,:] = -I
PLANT_UP, PLANT_C, PLANT_DOWN, PLANT_B0 = [[1, 0], [0, 1], [1, 1]], [1, 2, 3], [[-1, 0, 1], [0, -1, 2]], [1, 0]

# (W_up, b_up, W_down, b_down): absorbable at widths 0.. (by hand), least width
NON_GENERIC = {
    # x + s(x + 1) + s(x + 1): Coq's non-vacuity example (QuickGeluAffineRidge / TanhGeluAffineRidge)
    "coq_duplicate": (([[1], [1]], [1, 1], [[1, 1]], [0]), [False, False, True, True], 2),
    # x + s(x + 1) - s(-x - 1) = 2x + 1: no ridge, L = 2
    "no_class": (([[1], [-1]], [1, -1], [[1, -1]], [0]), [False, False, True, True], 2),
    # opposite rows: one ridge, G = 2, L = 1 - 1 = 0: width 1
    "opposite": (([[1], [-1]], [1, -1], [[1, 1]], [0]), [False, True, True, True], 1),
    # a zero column: one ridge, G = 1, L = 1
    "zero_column": (([[1], [1]], [0, 1], [[1, 0]], [0]), [False, False, True, True], 2),
}



def inst(act: str, up, c, down, b0) -> Instance:
    return Instance(Activation(act), mat(up), mat(down), b_up=tuple(F(v) for v in c),
                    b_down=tuple(F(v) for v in b0))


def generic(act: str) -> Instance:
    return inst(act, GEN_UP, GEN_C, GEN_DOWN, GEN_B0)


def float_residual(act: str, up, c, down, b0, x, residual: bool) -> list[float]:
    f = REGISTRY[act].evaluate
    h = [f(sum(float(up[i][q]) * x[q] for q in range(len(x))) + float(c[i])) for i in range(len(up))]
    out = [sum(float(down[p][i]) * h[i] for i in range(len(up))) + float(b0[p]) for p in range(len(down))]
    return [o + x[p] for p, o in enumerate(out)] if residual else out


# ------------------------------------------------------------------ registry


@pytest.mark.parametrize("act", ACTS)
def test_registry_names_the_r10_bias_theorems(act):
    path, module = FILES[act]
    spec = REGISTRY[act]
    assert library_has(path)
    assert spec.bias_theorems == (path, f"{module}.{act}_bias_absorbable_iff_submatrix",
                                  f"{module}.{act}_bias_generic_not_absorbable_below")
    assert spec.bias_width_theorem == (path, f"{module}.{act}_bias_block_decided")
    assert set(spec.bias_theorems[1:]) | {spec.bias_width_theorem[1]} <= set(spec.coq_names)
    assert spec.certifiable and spec.generic_cert_lemma == f"Absorb.certify.CertifyMore.{act}_generic_submatrix"


# ------------------------------------------------------------------ generic with biases


@pytest.mark.parametrize("act", ACTS)
def test_generic_biased_block_not_absorbable_without_subset(act):
    module = FILES[act][1]
    i = generic(act)
    dec = decide(i)
    assert (dec.verdict, dec.result, dec.generic) == ("not_absorbable", "R9", True)
    assert dec.theorem == f"{module}.{act}_bias_absorbable_iff_submatrix"
    assert "no support" not in dec.reason
    for m in (0, 1, 2):
        below = decide(i, width=m)
        assert (below.verdict, below.theorem) == ("not_absorbable", f"{module}.{act}_bias_generic_not_absorbable_below")
    # above n and the least width: R8 with biases on the canonical form
    assert decide(i, width=4).theorem == f"{module}.{act}_bias_block_decided"
    mw = decide(i, min_width=True)
    assert (mw.verdict, mw.theorem) == ("absorbable", f"{module}.{act}_bias_block_decided")
    assert mw.width == least_width(GEN_UP, GEN_C, GEN_DOWN) and mw.width > 3


@pytest.mark.parametrize("act", ACTS)
def test_r9_certificates_with_the_new_theorems(backend, act):
    """The R9 certificate is accepted by Coq at width n and below; a tampered one is rejected."""
    i = generic(act)
    for res in certify_many([(i, decide(i)), (i, decide(i, width=2))], backend):  # one coqc run
        assert res is not None and res.accepted, res.message
        assert act in res.message and "R9" in res.message
    cert = build_certificate(i, decide(i))
    # claim the no-subset check with no functionals at all: the checker must fail
    assert cert is not None and " p F FS = true." in cert.source  # the block (partial) certificate
    bad = cert.source.replace(" p F FS = true.", " p F [] = true.", 1)
    assert not backend.check_file(bad, stem=cert.stem, timeout=120).accepted


@pytest.mark.parametrize("act", ACTS)
def test_planted_subset_absorbable(backend, act):
    i = inst(act, PLANT_UP, PLANT_C, PLANT_DOWN, PLANT_B0)
    dec = decide(i)
    assert (dec.verdict, dec.result) == ("absorbable", "R7")
    assert dec.theorem == "Absorb.results.Biases.odd_part_absorbable_bias"
    w = dec.witness
    assert w is not None and w.subset == (0, 1)
    # exact: the witness is the residual block for every sigma with sigma(z) - sigma(-z) = z
    assert same_function(PLANT_UP, PLANT_C, PLANT_DOWN, PLANT_B0, w.W_up, w.b_up, w.W_down, w.b_down)
    # and numerically for the activation itself
    for x in ([0.3, -1.2], [2.0, 0.5], [-3.1, 4.4]):
        lhs = float_residual(act, PLANT_UP, PLANT_C, PLANT_DOWN, PLANT_B0, x, True)
        rhs = float_residual(act, w.W_up, w.b_up, w.W_down, w.b_down, x, False)
        assert all(abs(a - b) < 1e-9 for a, b in zip(lhs, rhs))
    # R7's certificate (odd part identity of the activation itself) is accepted by Coq
    res = certify(i, dec, backend)
    assert res is not None and res.accepted, res.message
    cert = build_certificate(i, dec)
    assert cert is not None and f"{act}_odd_part" in cert.source


# ------------------------------------------------------------------ not generic: R8 with biases


@pytest.mark.parametrize("act", ACTS)
@pytest.mark.parametrize("name", sorted(NON_GENERIC))
def test_non_generic_biased_blocks_decided_at_every_width(act, name):
    (up, c, down, b0), expected, least = NON_GENERIC[name]
    i = inst(act, up, c, down, b0)
    thm = f"{FILES[act][1]}.{act}_bias_block_decided"
    for m, absorbable in enumerate(expected):
        dec = decide(i, width=m)
        assert dec.verdict == ("absorbable" if absorbable else "not_absorbable"), (m, dec.reason)
        assert dec.result in ("R9", "R7")
        if dec.result == "R9":
            assert dec.theorem == thm
        if dec.verdict == "absorbable" and dec.width_info is not None:
            blk = dec.width_info.block
            assert len(blk.W_up) + blk.padding == m
            assert same_function(up, c, down, b0, *blk.evaluable())
    mw = decide(i, min_width=True)
    assert (mw.verdict, mw.width, mw.result, mw.theorem) == ("absorbable", least, "R9", thm)
    assert least == least_width(up, c, down)


# ------------------------------------------------------------------ what stays outside


def test_uncovered_activation_with_biases_still_undecided():
    i = Instance(Activation("heaviside"), mat([[1], [1]]), mat([[1, 1]]), b_up=(F(1), F(1)))
    dec = decide(i)
    assert dec.verdict == "undecided" and "no support" in dec.reason


@pytest.mark.parametrize("act", ACTS)
def test_biases_with_a_skip_reduced_by_r1(act):
    """Biases and a skip P: R1 with biases reduces to W_down / P, b_down / P, decided by R9."""
    i = Instance(Activation(act), mat([[1], [2]]), mat([[1, 1]]), skip=mat([[2]]), b_up=(F(1), F(0)))
    dec = decide(i)
    assert (dec.verdict, dec.result) == ("not_absorbable", "R9")
    assert dec.theorem is not None and "skip_reduction_ungated_bias" in dec.reason
    assert dec.reduced_down == ((F(1, 2), F(1, 2)),)


@pytest.mark.parametrize("act", ACTS)
def test_missing_library_file_names_the_theorem(act):
    """If the R10 bias file were absent, the verdict is outside_hypotheses naming it."""
    path = FILES[act][0]
    real = library_has
    with patch("pybridge.decision.width_route.library_has", lambda p: False if p == path else real(p)):
        dec = decide(generic(act))
        assert dec.verdict == "outside_hypotheses" and dec.theorem is None and path in dec.reason
        dec = decide(inst(act, *NON_GENERIC["coq_duplicate"][0]), width=1)
        assert dec.verdict == "outside_hypotheses" and dec.theorem is None and path in dec.reason


# ------------------------------------------------------------------ CLI


@pytest.mark.parametrize("act", ACTS)
def test_cli_check_biased_block(tmp_path, capsys, act):
    from pybridge.cli import main

    f = tmp_path / f"{act}.json"
    f.write_text(json.dumps({"activation": act, "W_up": GEN_UP, "b_up": GEN_C, "W_down": GEN_DOWN,
                             "b_down": GEN_B0}))
    with pytest.raises(SystemExit) as info:
        main(["check", str(f), "--json", "--no-prove"])
    out, _ = capsys.readouterr()
    doc = json.loads(out)
    assert info.value.code == 0
    assert (doc["verdict"], doc["result"]) == ("not_absorbable", "R9")
    assert doc["theorem"] == f"{FILES[act][1]}.{act}_bias_absorbable_iff_submatrix"


def test_scan_clip_checkpoint_layers_decided(tmp_path):
    """A CLIP-shaped checkpoint (quick_gelu, fc1/fc2 with biases, random weights): every layer
    gets R9's verdict instead of ``undecided``."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "io"))
    from test_architectures import clip, write

    import pybridge.api as api

    write(tmp_path, *clip())
    layers = api.scan(tmp_path, prove=False).to_json()["layers"]
    assert len(layers) == 3
    for layer in layers:
        assert layer["activation"] == "quick_gelu"
        assert (layer["verdict"], layer["result"]) == ("not_absorbable", "R9")
        assert layer["theorem"] == "Absorb.bias.QuickGeluAffineRidge.quick_gelu_bias_absorbable_iff_submatrix"
        assert layer["checked"] is False
