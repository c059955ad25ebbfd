"""Coq certificates of R8 with biases (``certify/CertifyBiasWidth.v``): ReLU and the GELU family.

Every verdict kind is accepted by Coq on small exact blocks (duplicate, scaled and opposite
augmented rows, constant rows ``a_i = 0``, classes whose kinks cancel); certificates written
from a tampered canonical form (wrong class, scale, kink, shift) are rejected by Coq; the
explicit witness block equals the user's block exactly (ReLU at rational points; the GELU
family through the activations of ``pm_oracle`` with the odd-part identity, no GELU value).
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction as F

import pytest
from helpers import block, mat
from pm_oracle import same_function

from pybridge.certify.bias_width import augmented_reps, build_bias_r8
from pybridge.certify.kinds import CannotCertify
from pybridge.certify.pipeline import build_certificate, certify, certify_many
from pybridge.decision import decide
from pybridge.decision.width_route import library_has
from pybridge.model import Activation, Instance

pytestmark = pytest.mark.skipif(not library_has("certify/CertifyBiasWidth.v"),
                                reason="certify/CertifyBiasWidth.v not in the library")

PM_ACTS = ["gelu", "gelu_tanh", "silu"]


def inst(act: str, up, down, c, b0=None) -> Instance:
    return Instance(Activation(act), mat(up), mat(down), b_up=tuple(F(v) for v in c),
                    b_down=None if b0 is None else tuple(F(v) for v in b0))


#: name -> (block, {width: expected verdict reason})
CASES = {
    # one class (1, 1) with scales 1, 1, 2 and a constant row (ReLU: scaled rows share the class)
    "relu_dup_scaled_const": (("relu", [[1], [1], [2], [0]], [[1, 1, 1, 3]], [1, 1, 2, -1], [5]),
                              {0: "below_classes", 1: "no_subset_at_k", 2: "width_data"}),
    # opposite rows: relu(x + 1) - relu(-x - 1) = x + 1, a flat class; L = 2, k = 0
    "relu_cancel": (("relu", [[1], [-1]], [[1, -1]], [1, -1], [0]), {2: "width_data"}),
    # GELU family: opposite rows in one class (scales 1, -1), constant row gelu(2)
    "pm_opposite_const": (("gelu", [[1], [-1], [0]], [[1, 1, 1]], [1, -1, 2], [0]),
                          {0: "below_classes", 1: "width_data"}),
    # two classes, d = 2, duplicate rows: not absorbable at k = 2 (no S), below at 1
    "pm_two_classes": (("silu", [[1, 0], [1, 0], [0, 1]], [[1, 1, 0], [0, 0, 1]], [1, 1, 0], None),
                       {1: "below_classes", 2: "no_subset_at_k", 4: "width_data"}),
    # a class whose kinks cancel (gelu_tanh(x + 1) - gelu_tanh(x + 1): flat) and one ridge (2, 0)
    "pm_flat": (("gelu_tanh", [[1], [1], [2]], [[1, -1, 1]], [1, 1, 0], [3]),
                {0: "below_classes", 1: "no_subset_at_k", 2: "width_data"}),
}


def _case(name: str) -> Instance:
    act, up, down, c, b0 = CASES[name][0]
    return inst(act, up, down, c, b0)


def test_bias_width_verdicts_accepted(backend):
    pairs, labels = [], []
    for name in sorted(CASES):
        i = _case(name)
        for m, reason in CASES[name][1].items():
            dec = decide(i, width=m)
            assert dec.width_info is not None and dec.width_info.reason == reason, (name, m, dec.reason)
            pairs.append((i, dec))
            labels.append((name, m))
    for label, res in zip(labels, certify_many(pairs, backend)):  # one coqc run
        assert res is not None and res.accepted, (label, res.message if res else None)
        assert "R8 with biases" in res.message


def test_least_width_certificate_states_both_sides(backend):
    i = _case("relu_dup_scaled_const")
    dec = decide(i, min_width=True)
    assert dec.width == 2 and dec.width_info.lower_reason == "no_subset_at_k"
    cert = build_certificate(i, dec)
    assert cert.kind.startswith("least absorbing width 2") and " /\\ ~ absorbable_ungated_bias relu" in cert.source
    assert certify(i, dec, backend).accepted


def test_gelu_constant_stays_symbolic(backend):
    """The GELU constant row enters only through Coq's ``grouping_l0`` term: no GELU value is written."""
    i = _case("pm_opposite_const")
    dec = decide(i, width=1)
    cert = build_certificate(i, dec)
    assert "gelu" in cert.source and "grouping_l0" not in cert.source
    assert "cert_bias_r8_absorbable_pm gelu" in cert.source


def test_width_data_as_z_literals(backend, monkeypatch):
    """Width data too large for 62-bit literals (rank factorizations at real sizes) are written as Z."""
    from pybridge.certify import width as cw

    monkeypatch.setattr(cw, "LIMIT", 1)  # every numerator >= 1 written as a Z literal
    i = _case("relu_dup_scaled_const")
    dec = decide(i, width=2)
    cert = build_certificate(i, dec)
    assert "(zc (1)%Z ze)" in cert.source and "dEa (zrows" not in cert.source
    assert certify(i, dec, backend).accepted


def test_bias_free_width_data_as_z_literals(backend, monkeypatch):
    """The bias-free R8 certificate writes its width data the same way (no 62-bit limit)."""
    from pybridge.certify import width as cw

    monkeypatch.setattr(cw, "LIMIT", 1)
    i = Instance(Activation("relu"), ((F(1),), (F(2),)), ((F(1), F(1)),))  # the paper's counterexample
    dec = decide(i, width=2)
    cert = build_certificate(i, dec)
    assert dec.verdict == "absorbable" and "%Z ze)" in cert.source
    assert certify(i, dec, backend).accepted


# ---------------------------------------------------------------- tampered canonical forms


def _with_form(i: Instance, dec, **changes):
    info = replace(dec.width_info, form=replace(dec.width_info.form, **changes))
    return build_bias_r8(i, replace(dec, width_info=info), info)


def _rejected(backend, cert, check: str = "check_bias_grouping") -> bool:
    """Coq rejects the certificate, at the boolean check ``check``."""
    res = backend.check_file(cert.source, stem=cert.stem, timeout=120)
    return not res.accepted and f'"{check} ' in res.message


def test_tampered_scale_rejected(backend):
    i = _case("relu_dup_scaled_const")
    dec = decide(i, width=2)
    form = dec.width_info.form
    lam = list(form.lam)
    lam[2] = F(3)  # the row (2, 2) claimed as 3 (1, 1)
    assert _rejected(backend, _with_form(i, dec, lam=tuple(lam)))


def test_tampered_kink_rejected(backend):
    i = _case("pm_opposite_const")
    dec = decide(i, width=1)
    G = [list(r) for r in dec.width_info.form.G]
    G[0][0] += 1
    from pybridge.exact.modular import scale_matrix

    assert _rejected(backend, _with_form(i, dec, Gi=scale_matrix(tuple(tuple(r) for r in G))))


def test_tampered_class_rejected(backend):
    i = _case("pm_two_classes")
    dec = decide(i, width=2)
    cls = list(dec.width_info.form.cls)
    cls[0] = 1 - cls[0]  # row (1, 0) put in the class of (0, 1)
    assert _rejected(backend, _with_form(i, dec, cls=tuple(cls)))


def test_tampered_shift_rejected(backend):
    i = _case("pm_opposite_const")
    dec = decide(i, width=0)
    shift = list(dec.width_info.form.shift)
    shift[0] += 1
    assert _rejected(backend, _with_form(i, dec, shift=tuple(shift)))


def test_tampered_constant_row_claimed_in_class_rejected(backend):
    """The constant row (a = 0) may not be given a class (its c would be checked against no shift)."""
    i = _case("relu_dup_scaled_const")
    dec = decide(i, width=2)
    form = dec.width_info.form
    cls, lam = list(form.cls), list(form.lam)
    cls[3], lam[3] = 0, F(-1)
    assert _rejected(backend, _with_form(i, dec, cls=tuple(cls), lam=tuple(lam)))


def test_tampered_width_rejected(backend):
    i = _case("relu_dup_scaled_const")
    dec = decide(i, width=2)
    cert = build_certificate(i, dec)
    src = cert.source.replace("check_width_data d k 2", "check_width_data d k 1", 1)
    src = src.replace("absorbable_ungated_bias relu d n 2", "absorbable_ungated_bias relu d n 1", 1)
    assert src != cert.source
    res = backend.check_file(src, stem=cert.stem, timeout=120)
    assert not res.accepted and '"check_width_data ' in res.message


# ---------------------------------------------------------------- no Coq needed


@pytest.mark.parametrize("case,m", [
    (("gelu_tanh", [[1, 0], [1, 0], [0, 1]], [[1, 1, 0], [0, 0, 1]], [1, 1, 0], None), 3),
    (("relu", [[1], [-1]], [[1, -1]], [1, -1], [0]), 1),     # k = 0 (a flat class), L = 2
    (("gelu", [[0], [0]], [[1, 2]], [1, 3], [1]), 0),        # only constant rows: k = 0, L = 1
])
def test_not_absorbable_above_k_rank_certificate(backend, case, m):
    """``m >= k`` refuted by rank certificates for every (T, S) (``RankCheck.check_rank_refute``)."""
    i = inst(*case)
    dec = decide(i, width=m)
    assert dec.verdict == "not_absorbable" and dec.width_info.reason == "exhaustive"
    res = certify(i, dec, backend)
    assert res is not None and res.accepted, res.message if res else None
    assert "rank certificate" in res.message


def test_least_width_with_rank_lower_side(backend):
    i = inst("gelu_tanh", [[1, 0], [1, 0], [0, 1]], [[1, 1, 0], [0, 0, 1]], [1, 1, 0])
    dec = decide(i, min_width=True)
    assert dec.width == 4 and dec.width_info.lower_reason == "exhaustive"
    cert = build_certificate(i, dec)
    assert cert.kind.startswith("least absorbing width 4") and "check_rank_refute d k 3%nat" in cert.source
    assert certify(i, dec, backend).accepted


def test_tampered_rank_entry_rejected(backend):
    i = inst("gelu_tanh", [[1, 0], [1, 0], [0, 1]], [[1, 1, 0], [0, 0, 1]], [1, 1, 0])
    cert = build_certificate(i, decide(i, width=3))
    old = "Lemma rk_ok3 :"
    assert old in cert.source
    src = cert.source.replace("check_rank_refute d k 3%nat", "check_rank_refute d k 4%nat", 1)
    src = src.replace("check_rank_refute_sound d k 3%nat", "check_rank_refute_sound d k 4%nat", 1)
    src = src.replace("absorbable_ungated_bias gelu_tanh d n 3", "absorbable_ungated_bias gelu_tanh d n 4", 1)
    res = backend.check_file(src, stem=cert.stem, timeout=120)
    assert not res.accepted and '"check_rank_refute ' in res.message


def test_augmented_reps_of_flat_classes():
    i = _case("relu_cancel")
    form = decide(i, width=2).width_info.form
    assert form.k == 0 and augmented_reps(i, form) == [[F(1), F(1)]]


def _random_biased(rng: random.Random, d: int, n: int, act: str) -> Instance:
    """Rows drawn from a few hyperplanes (duplicates, scaled / opposite copies) and constant rows."""
    base = [[F(rng.randint(-2, 2)) for _ in range(d + 1)] for _ in range(2)]
    up, c = [], []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.2:
            up.append([F(0)] * d)
            c.append(F(rng.randint(-2, 2)))
            continue
        r = rng.choice(base)
        lam = F(rng.choice([1, -1])) if act != "relu" else F(rng.choice([1, -1, 2, F(-1, 2)]))
        up.append([lam * v for v in r[:d]])
        c.append(lam * r[d])
    down = [[F(rng.randint(-2, 2)) for _ in range(n)] for _ in range(d)]
    b0 = [F(rng.randint(-3, 3)) for _ in range(d)]
    return inst(act, up, down, c, b0)


def _relu_witness_equal(i: Instance, dec, pts) -> bool:
    b = dec.width_info.block
    for x in pts:
        y = block(i.W_up, i.W_down, x, bias_up=list(i.b_up), bias_down=list(i.b_down))
        want = [a + v for a, v in zip(x, y)]
        if block(b.W_up, b.W_down, x, bias_up=list(b.b_up), bias_down=list(b.b_down)) != want:
            return False
    return True


@pytest.mark.parametrize("seed", range(12))
def test_witness_equals_block(seed):
    rng = random.Random(seed)
    act = ["relu", "gelu", "silu"][seed % 3]
    d = 1 + seed % 2
    i = _random_biased(rng, d, 5, act)
    dec = decide(i, min_width=True)
    assert dec.verdict == "absorbable" and dec.width_info is not None
    b = dec.width_info.block
    assert len(b.W_up) + b.padding == dec.width
    if act == "relu":
        pts = [[F(rng.randint(-30, 30), rng.randint(1, 7)) for _ in range(d)] for _ in range(25)]
        assert _relu_witness_equal(i, dec, pts)
    else:
        up, c, down, b0 = b.evaluable()
        assert same_function(i.W_up, i.b_up, i.W_down, i.b_down, up, c, down, b0)
    build_certificate(i, dec)  # the certificate is written (absorbable side always)


# ---------------------------------------------------------------- R1 + R8: a non-identity skip


def skip_inst(act: str, up, down, P) -> Instance:
    return Instance(Activation(act), mat(up), mat(down), skip=mat(P))


SKIP_CASES = {
    # 2x + relu(x) + relu(2x): B~ = B / 2, one class
    "relu_counterexample": (("relu", [[1], [2]], [[1, 1]], [[2]]),
                            {0: "below_classes", 1: "no_subset_at_k", 2: "width_data"}),
    # GELU, d = 2, duplicate rows, an upper-triangular skip
    "gelu_dup": (("gelu", [[1, 0], [1, 0], [0, 1]], [[1, 1, 0], [0, 0, 1]], [[2, 1], [0, 3]]),
                 {1: "below_classes", 2: "no_subset_at_k", 3: "exhaustive", 4: "width_data"}),
    # relu(x1) - relu(-x1) = x1 after reduction: a flat class, k = 0, rank 2: width 4
    "relu_flat": (("relu", [[1, 0], [-1, 0]], [[1, -1], [0, 0]], [[1, 1], [0, 1]]),
                  {1: "exhaustive", 3: "exhaustive", 4: "width_data"}),
}


@pytest.mark.parametrize("name", sorted(SKIP_CASES))
def test_skip_width_verdicts_accepted(backend, name):
    act, up, down, P = SKIP_CASES[name][0]
    i = skip_inst(act, up, down, P)
    decs = []
    for m, reason in SKIP_CASES[name][1].items():
        dec = decide(i, width=m)
        assert dec.width_info is not None and dec.width_info.reason == reason, (m, dec.reason)
        decs.append(dec)
    # every width and the least width, in one coqc run
    results = certify_many([(i, dec) for dec in decs + [decide(i, min_width=True)]], backend)
    for m, res in zip(list(SKIP_CASES[name][1]) + ["least"], results):
        assert res is not None and res.accepted, (m, res.message if res else None)
        if m != "least":
            assert "after skip reduction (R1)" in res.message


def test_skip_least_width_both_sides(backend):
    i = skip_inst("relu", [[1], [2]], [[1, 1]], [[2]])
    dec = decide(i, min_width=True)
    cert = build_certificate(i, dec)
    assert dec.width == 2 and cert.kind.startswith("least absorbing width 2")
    assert "~ absorbable_ungated relu d n 1 (mat_of_rows dP RP)" in cert.source


def test_skip_tampered_down_rejected(backend):
    """The user's B scaled by 2 (a different block): Q B is no longer the reduced B~."""
    i = skip_inst("relu", [[1], [2]], [[1, 1]], [[2]])
    cert = build_certificate(i, decide(i, width=2))
    old = "Definition dBu : Z := (1)%Z."
    assert old in cert.source
    res = backend.check_file(cert.source.replace(old, "Definition dBu : Z := (2)%Z."), stem=cert.stem, timeout=120)
    assert not res.accepted and '"check_reduced_down ' in res.message


def test_skip_tampered_inverse_rejected(backend):
    i = skip_inst("relu", [[1], [2]], [[1, 1]], [[2]])
    cert = build_certificate(i, decide(i, width=2))
    old = "Definition dQ : Z := (2)%Z."
    assert old in cert.source
    res = backend.check_file(cert.source.replace(old, "Definition dQ : Z := (3)%Z."), stem=cert.stem, timeout=120)
    assert not res.accepted and '"check_inverse ' in res.message


def test_skip_with_biases_refused():
    """Biases with a non-identity skip are decided after R1 with biases (SkipReductionBias), but the
    R8-with-biases builder refuses them (its certificate is about the identity skip)."""
    i = Instance(Activation("relu"), mat([[1], [2]]), mat([[1, 1]]), skip=mat([[2]]), b_up=(F(1), F(0)))
    assert "skip_reduction_ungated_bias" in decide(i, width=2).reason
    dec = decide(Instance(Activation("relu"), mat([[1], [2]]), mat([[1, 1]]), b_up=(F(1), F(0))), width=2)
    with pytest.raises(CannotCertify, match="non-identity skip"):
        build_bias_r8(i, dec, dec.width_info)


def test_rescaled_gelu_family_bias_width_certificates(backend):
    """quick_gelu and gelu_fast (R10 with biases): opposite rows and a constant row, widths 0 and 1
    (one coqc run for the four)."""
    pairs = []
    for act in ("quick_gelu", "gelu_fast"):
        i = inst(act, [[1], [-1], [0]], [[1, 1, 1]], [1, -1, 2], [0])
        for m, verdict in ((0, "not_absorbable"), (1, "absorbable")):
            dec = decide(i, width=m)
            assert dec.verdict == verdict and dec.width_info is not None, dec.reason
            pairs.append((i, dec))
    for (i, dec), res in zip(pairs, certify_many(pairs, backend)):
        assert res is not None and res.accepted, (i.activation.name, dec.width, res.message if res else None)


def test_headline_lemmas_with_allowed_axioms(backend):
    """The relation's theorems and every certificate lemma are in the library; the real-analysis
    theorems use the standard axioms only, the checker lemmas at most primitive integers too."""
    from pybridge.prover import ALLOWED_AXIOMS, PRIMITIVE_INT_AXIOMS

    theory = [f"Absorb.bias.SigmaBiasGrouping.{n}" for n in (
        "sigma_bias_grouping_form", "pm_bias_grouping_form", "relu_bias_grouping_drop_iff",
        "pm_bias_grouping_drop_iff", "relu_bias_grouping_drop_sufficient", "pm_bias_grouping_drop_sufficient")]
    checkers = [f"Absorb.certify.BiasGroupingCheck.{n}" for n in (
        "check_bias_grouping_sound", "check_bias_grouping_pm_sound", "check_bias_lines_sound",
        "check_bias_signs_sound")]
    checkers += [f"Absorb.certify.CertifyBiasWidth.cert_bias_r8_{k}_{s}"
                 for k in ("absorbable", "no_width", "below", "nosub") for s in ("relu", "pm")]
    checkers += ["Absorb.certify.CertifySkipWidth.cert_skip_reduce"]
    infos = backend.describe(theory + checkers)
    for name in theory:
        assert infos[name].exists and set(infos[name].assumptions) <= ALLOWED_AXIOMS, (name, infos[name].disallowed)
        assert not set(infos[name].assumptions) & PRIMITIVE_INT_AXIOMS, name
    for name in checkers:
        assert infos[name].exists, name
        assert set(infos[name].assumptions) <= ALLOWED_AXIOMS | PRIMITIVE_INT_AXIOMS, (name, infos[name].disallowed)
