"""Post-LayerNorm blocks decided through the singular skip C P (R11', decision side, no Coq).

Every verdict is re-checked here with Fractions: the found S has C(P + B_S A_S) = 0 exactly;
the generated post-LN-only blocks have no S with B_S A_S = -I (bare not absorbable).
"""

from __future__ import annotations

from fractions import Fraction as F
from itertools import combinations

import pytest

from pybridge.decision import decide
from pybridge.decision.postnorm import BIAS_HOOK, REASONS, centered_problem, decide_postln
from pybridge.decision.sublayer import CERT_POSTLN, decide_sublayer
from pybridge.errors import InputError
from pybridge.generate import bert_checkpoint, generate, generate_postln, norm_to_json
from pybridge.model import Activation, Instance, Norm

EPS = F(1, 10**12)


def layernorm(d: int, gamma=None) -> Norm:
    return Norm("post", "layernorm", False, tuple(gamma or (F(1),) * d), None, EPS)


def centered_residual(inst: Instance, S: tuple[int, ...]) -> list[list[F]]:
    """C (P + B_S A_S), exactly."""
    d = inst.d
    P = inst.skip or tuple(tuple(F(int(k == l)) for l in range(d)) for k in range(d))
    M = [[F(P[k][l]) + sum((F(inst.W_down[k][i]) * F(inst.W_up[i][l]) for i in S), F(0)) for l in range(d)]
         for k in range(d)]
    means = [sum((M[k][l] for k in range(d)), F(0)) / d for l in range(d)]
    return [[M[k][l] - means[l] for l in range(d)] for k in range(d)]


def bare_subsets(inst: Instance) -> list[tuple[int, ...]]:
    """Every S with B_S A_S = -I (brute force)."""
    d, n = inst.d, inst.n
    out = []
    for r in range(n + 1):
        for S in combinations(range(n), r):
            if all(sum((F(inst.W_down[k][i]) * F(inst.W_up[i][l]) for i in S), F(0)) == -int(k == l)
                   for k in range(d) for l in range(d)):
                out.append(S)
    return out


EX2 = Instance(Activation("relu"), ((F(1), F(-1)),), ((F(0),), (F(1),)))  # PostNormGeneric.ex2
EX2_NOT = Instance(Activation("relu"), ((F(1), F(-1)),), ((F(1),), (F(0),)))


def test_paper_instance_d2_absorbable_only_after_layernorm() -> None:
    bare = decide(EX2)
    assert bare.verdict == "not_absorbable"
    sub = decide_sublayer(EX2, layernorm(2), bare)
    assert (sub.verdict, sub.certificate, sub.result) == ("absorbable", CERT_POSTLN, "R11'")
    assert sub.postln is not None and sub.postln.subset == (0,)
    assert all(v == 0 for row in centered_residual(EX2, (0,)) for v in row)
    # a zero gamma entry: the absorbable direction holds for every gamma
    assert decide_sublayer(EX2, layernorm(2, (F(0), F(1))), bare).verdict == "absorbable"
    # RMSNorm: the bare verdict (postrms_ungated_iff)
    rms = Norm("post", "rmsnorm", False, (F(1), F(1)), None, EPS)
    assert decide_sublayer(EX2, rms, bare).verdict == "not_absorbable"


def test_paper_instance_d2_not_absorbable() -> None:
    sub = decide_sublayer(EX2_NOT, layernorm(2), decide(EX2_NOT))
    assert sub.verdict == "not_absorbable" and sub.certificate == CERT_POSTLN
    assert sub.theorem == "Absorb.results.PostNormGeneric.postln_relu_generic"
    pd = sub.postln
    assert pd is not None and pd.nosub is not None and pd.generic is not None
    for r in range(2):  # brute force: no S
        for S in combinations(range(1), r):
            assert any(v != 0 for row in centered_residual(EX2_NOT, S) for v in row)


def test_centered_problem_is_d_times_c() -> None:
    inst = Instance(Activation("relu"), ((F(1, 2), F(3)), (F(-1), F(1, 3))),
                    ((F(2, 5), F(1)), (F(-1), F(7))), skip=((F(2), F(1)), (F(1, 2), F(1))))
    prob = centered_problem(inst)
    d = 2
    for k in range(d):
        for i in range(2):
            col = [F(inst.W_down[t][i]) for t in range(d)]
            want = col[k] - sum(col, F(0)) / d
            assert F(int(prob.CB.numerators()[k, i]), prob.CB.den) == want
        for l in range(d):
            colp = [F(inst.skip[t][l]) for t in range(d)]  # type: ignore[index]
            assert F(int(prob.CP.numerators()[k, l]), prob.CP.den) == colp[k] - sum(colp, F(0)) / d
    ident = centered_problem(EX2).CP
    assert ident.den == 2 and ident.numerators().tolist() == [[1, -1], [-1, 1]]


@pytest.mark.parametrize("d", range(4, 9))
def test_generated_postln_only_blocks(d: int) -> None:
    gen = generate_postln(Activation("relu"), d, d + 2, seed=100 + d)
    inst, norm = gen.instance, gen.norm
    assert norm is not None and all(g != 0 for g in norm.gamma or ())
    bare = decide(inst)
    assert bare.verdict == "not_absorbable"  # R5 (=>): generic, no S with B_S A_S = -I
    if d <= 5:
        assert bare_subsets(inst) == []  # brute force agrees
    sub = decide_sublayer(inst, norm, bare)
    assert sub.verdict == "absorbable" and sub.postln is not None and sub.postln.subset is not None
    assert all(v == 0 for row in centered_residual(inst, sub.postln.subset) for v in row)
    assert not any(v != 0 for row in centered_residual(inst, gen.subset) for v in row)


def test_generated_generic_block_without_s_is_not_absorbable() -> None:
    for seed in range(5):
        inst = generate(Activation("relu"), 5, 7, seed=seed).instance
        sub = decide_sublayer(inst, layernorm(5), decide(inst))
        assert sub.verdict == "not_absorbable", sub.reason
        # ... unless a gamma entry is zero: the converse needs every gamma_i != 0
        zero = decide_sublayer(inst, layernorm(5, (F(1), F(0), F(1), F(1), F(1))), decide(inst))
        assert zero.verdict == "undecided" and REASONS["zero_gamma"] in zero.reason


def test_undecided_cases_have_precise_reasons() -> None:
    # a column of B a multiple of 1: (A, C B) not generic, and no S
    flat = Instance(Activation("relu"), ((F(1), F(-1)), (F(1), F(2))), ((F(1), F(0)), (F(1), F(3))))
    sub = decide_sublayer(flat, layernorm(2), decide(flat))
    assert sub.verdict == "undecided" and "not generic" in sub.reason and "C·W_down" in sub.reason
    # biases: routed through R9 for the singular skip C·P (the bias hook)
    biased = Instance(Activation("relu"), EX2_NOT.W_up, EX2_NOT.W_down, b_up=(F(1),), b_down=(F(0), F(1)))
    pd = decide_postln(biased, layernorm(2))
    assert pd.verdict == "not_absorbable" and pd.hook == BIAS_HOOK and "postln_relu_bias_generic" in pd.reason
    assert decide_sublayer(biased, layernorm(2), decide(biased)).verdict == "not_absorbable"
    # GELU without S: R5 (=>) for a singular skip (EvenBiasSkip.even_postln_generic_pm)
    gelu = Instance(Activation("gelu"), EX2_NOT.W_up, EX2_NOT.W_down)
    sub = decide_sublayer(gelu, layernorm(2), decide(gelu))
    assert sub.verdict == "not_absorbable" and "even_postln_generic_pm" in sub.reason
    # GELU with S: absorbable (odd_skip_absorbable holds for sigma(z) - sigma(-z) = z)
    gelu_s = Instance(Activation("gelu"), EX2.W_up, EX2.W_down)
    assert decide_sublayer(gelu_s, layernorm(2), decide(gelu_s)).verdict == "absorbable"
    # gated: untouched
    gated = Instance(Activation("swiglu"), EX2.W_up, EX2.W_down, W_gate=EX2.W_up)
    assert decide_sublayer(gated, layernorm(2), decide(gated)).verdict == "undecided"
    # d = 1: LayerNorm is constant (C = 0): S = {} works, absorbable
    one = Instance(Activation("relu"), ((F(2),),), ((F(3),),))
    assert decide_sublayer(one, layernorm(1), decide(one)).verdict == "absorbable"


def test_generator_inputs_and_outputs() -> None:
    with pytest.raises(InputError):
        generate_postln(Activation("relu"), 4, 3)  # n < d
    with pytest.raises(InputError):
        generate_postln(Activation("relu_pow", degree=2), 4, 6)  # no odd-part identity
    gen = generate_postln(Activation("relu"), 4, 5, seed=7)
    assert gen == generate_postln(Activation("relu"), 4, 5, seed=7)  # reproducible
    doc = norm_to_json(gen.norm)  # type: ignore[arg-type]
    assert doc["position"] == "post" and doc["kind"] == "layernorm" and doc["eps"] == "1/1000000000000"
    tensors, config = bert_checkpoint([gen, generate_postln(Activation("relu"), 4, 5, seed=8)])
    assert config["hidden_act"] == "relu" and config["num_hidden_layers"] == 2
    assert tensors["bert.encoder.layer.1.output.dense.weight"].shape == (4, 5)  # type: ignore[attr-defined]
    with pytest.raises(InputError):
        bert_checkpoint([gen, generate_postln(Activation("relu"), 5, 6, seed=1)])  # shapes differ
