"""Post-LayerNorm verdicts with biases (ReLU, GELU family) and GELU-family bias-free verdicts,
checked by Coq (``certify/CertifyPostNormBias.v``) through the driver: full and partial (block)
certificates accepted, tampered ones rejected, and a BERT-style checkpoint with biases scanned
to a Coq-checked sublayer ``not_absorbable`` (small d; the MiniLM size is in bench/)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from pybridge.certify.kinds import CannotCertify
from pybridge.certify.postnorm import build_postln_certificate, expected_postln, postln_claim, run_postln
from pybridge.certify.sublayer import analyse_sublayer
from pybridge.decision import decide
from pybridge.decision.postnorm import decide_postln
from pybridge.exact.modular import IntMatrix
from pybridge.generate import generate, generate_postln
from pybridge.model import Activation, Instance, Norm
from pybridge.prover import ProverOutcome
from pybridge.scanning import scan

EPS = F(1, 10**12)


def layernorm(d: int) -> Norm:
    return Norm("post", "layernorm", False, tuple(F(k + 1, 2) for k in range(d)), None, EPS)


def with_biases(inst: Instance, seed: int) -> Instance:
    rng = random.Random(seed)
    return replace(inst, b_up=tuple(F(rng.randint(-9, 9), 4) for _ in range(inst.n)),
                   b_down=tuple(F(rng.randint(-9, 9)) for _ in range(inst.d)))


def run(backend, inst: Instance, pd, partial: bool):
    cert = build_postln_certificate(inst, pd, partial=partial)
    return run_postln(cert, expected_postln(inst, pd.verdict, cert.partial, cert.residues), backend, timeout=120)


@pytest.fixture(scope="module")
def gelu_bias() -> Instance:
    return with_biases(generate(Activation("gelu"), 4, 6, seed=2).instance, 3)


@pytest.mark.parametrize("act", ("relu", "gelu"))
def test_both_verdicts_with_biases_accepted(backend, act: str) -> None:
    generic = with_biases(generate(Activation(act), 4, 6, seed=4).instance, 1)
    only = with_biases(generate_postln(Activation(act), 4, 6, seed=6).instance, 2)
    skip = replace(generic, skip=tuple(tuple(F(int(k == l) + (k == 0 and l == 1)) for l in range(4))
                                       for k in range(4)))
    for inst, verdict in ((generic, "not_absorbable"), (only, "absorbable"), (skip, "not_absorbable")):
        rep = analyse_sublayer(inst, layernorm(4), decide(inst), False, prove=True, backend=backend, timeout=120)
        doc = rep.to_json()
        assert (doc["verdict"], doc["checked"]) == (verdict, True), doc
        assert "statement vetted against the instance" in doc["prover"]["message"]
    pd = decide_postln(generic, layernorm(4))
    res = run(backend, generic, pd, partial=True)
    assert res.outcome is ProverOutcome.ACCEPTED and "partial" in res.message, res.message


def test_gelu_family_bias_free_accepted(backend) -> None:
    for act, partial in (("gelu_tanh", False), ("quick_gelu", True)):
        inst = generate(Activation(act), 4, 6, seed=8).instance
        pd = decide_postln(inst, layernorm(4))
        assert pd.verdict == "not_absorbable"
        res = run(backend, inst, pd, partial)
        assert res.outcome is ProverOutcome.ACCEPTED, res.message


def test_tampered_bias_certificates_rejected(backend, gelu_bias: Instance) -> None:
    pd = decide_postln(gelu_bias, layernorm(4))
    assert pd.verdict == "not_absorbable" and pd.problem is not None
    # one centered W_down entry flipped: check_centered_cols (full); the block differs (partial)
    num = np.array(pd.problem.CB.numerators(), dtype=np.int64)
    num[0, 0] += 1
    bad = replace(pd, problem=replace(pd.problem, CB=IntMatrix.from_numerators(num, pd.problem.CB.den)))
    res = run(backend, gelu_bias, bad, partial=False)
    assert res.outcome is ProverOutcome.REJECTED and "check_centered_cols" in res.message
    # another block's genericity and no-subset certificates
    other = decide_postln(with_biases(generate(Activation("gelu"), 4, 6, seed=9).instance, 5), layernorm(4))
    lie = replace(other, problem=pd.problem)
    for partial in (False, True):
        res = run(backend, gelu_bias, lie, partial)
        assert res.outcome is ProverOutcome.REJECTED, res.message
    # a valid certificate vetted against another instance: another b_up (full: the augmented
    # rows differ), another W_down entry in the block (partial)
    cert = build_postln_certificate(gelu_bias, pd, partial=False)
    moved = replace(gelu_bias, b_up=(gelu_bias.b_up[0] + 1,) + tuple(gelu_bias.b_up[1:]))
    assert run_postln(cert, expected_postln(moved, "not_absorbable"), backend, timeout=120).outcome \
        is ProverOutcome.REJECTED
    pcert = build_postln_certificate(gelu_bias, pd, partial=True)
    w_down = [list(r) for r in gelu_bias.W_down]
    w_down[3][0] += 1  # row 3 is outside the block, but it moves the column mean: C W_down[R] changes
    moved = replace(gelu_bias, W_down=tuple(map(tuple, w_down)))
    assert run_postln(pcert, expected_postln(moved, "not_absorbable", True, pcert.residues), backend, timeout=120).outcome \
        is ProverOutcome.REJECTED
    # the same partial certificate vetted against a block differing outside R only in b_up: accepted
    biases = replace(gelu_bias, b_up=tuple(v + 1 for v in gelu_bias.b_up))
    assert run_postln(pcert, expected_postln(biases, "not_absorbable", True, pcert.residues), backend, timeout=120).outcome \
        is ProverOutcome.ACCEPTED


def float_block(act: str, seed: int, bias: bool) -> Instance:
    """float32 N(0, 1) weights (and biases), d = 8, n = 40 (the block: the first 7 indices): two
    columns separate every ratio, so the partial certificate is written on residues."""
    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal((40, 8)).astype(np.float32), rng.standard_normal((8, 40)).astype(np.float32)
    inst = Instance(Activation(act), tuple(tuple(F(float(v)) for v in r) for r in a),
                    tuple(tuple(F(float(v)) for v in r) for r in b))
    if bias:
        inst = replace(inst, b_up=tuple(F(float(v)) for v in rng.standard_normal(40).astype(np.float32)),
                       b_down=tuple(F(float(v)) for v in rng.standard_normal(8).astype(np.float32)))
    return inst


@pytest.mark.parametrize("act, bias", [("gelu", True), ("relu", False)])
def test_partial_on_residues_accepted_and_bound_to_the_block(backend, act: str, bias: bool) -> None:
    """The partial form on residues (``CertifyPostNormResidues``): accepted; vetted against a
    block with one ``C W_down`` entry of the block moved, or naming another prime: rejected."""
    inst = float_block(act, 31, bias)
    pd = decide_postln(inst, layernorm(8))
    assert pd.verdict == "not_absorbable"
    cert = build_postln_certificate(inst, pd, partial=True)
    assert cert.residues is not None and cert.residues.p < 2**10
    lemma = f"cert_postln_{'bias' if bias else 'free'}_not_absorbable_partial_mod"
    assert f"exact ({lemma} " in cert.source and "agrees_down_mod n R dB p CBp (mm d (centering d) B)" in cert.source
    res = run_postln(cert, expected_postln(inst, "not_absorbable", True, cert.residues), backend, timeout=120)
    assert res.outcome is ProverOutcome.ACCEPTED and "modulo the checks' primes" in res.message, res.message
    w_down = [list(r) for r in inst.W_down]
    w_down[0][0] += 1  # row 0 is in the block
    moved = replace(inst, W_down=tuple(map(tuple, w_down)))
    res = run_postln(cert, expected_postln(moved, "not_absorbable", True, cert.residues), backend, timeout=120)
    assert res.outcome is ProverOutcome.REJECTED, res.message
    other = replace(cert.residues, p=next(q for q in (509, 521) if q != cert.residues.p))
    res = run_postln(cert, expected_postln(inst, "not_absorbable", True, other), backend, timeout=120)
    assert res.outcome is ProverOutcome.REJECTED, res.message
    with pytest.raises(CannotCertify):  # indices outside the block: no claim is written
        expected_postln(inst, "not_absorbable", True, replace(cert.residues, pair=(0, 7)))


def test_claims() -> None:
    inst = with_biases(generate(Activation("gelu"), 3, 4, seed=2).instance, 1)
    neg = postln_claim(inst, "not_absorbable")
    assert "(aug_bias d dA RA) (mat_of_cols dB CB) (vec_of db0 Lb0)" in neg and "gam_s i <> 0" in neg
    part = postln_claim(inst, "not_absorbable", partial=True)
    assert "agrees_down n R dB CB (mm d (centering d) B)" in part and "identity A c B b0" in part
    pos = postln_claim(inst, "absorbable")
    assert "(vec_of dc Lc)" in pos and "gam_s i <> 0" not in pos
    with pytest.raises(CannotCertify):
        postln_claim(replace(inst, activation=Activation("relu_pow", degree=2)), "not_absorbable")
    with pytest.raises(CannotCertify):  # partial: identity skip only
        postln_claim(replace(inst, skip=((F(2), F(0), F(0)), (F(0), F(1), F(0)), (F(0), F(0), F(1)))),
                     "not_absorbable", partial=True)


def bert_with_biases(path: Path, d: int, n: int, layers: int, seed: int) -> None:
    """A BERT-style post-LN checkpoint with nonzero float32 biases (GELU)."""
    rng = np.random.default_rng(seed)
    f = np.float32
    t = {}
    for i in range(layers):
        p = f"bert.encoder.layer.{i}"
        t[f"{p}.attention.output.dense.weight"] = np.eye(d, dtype=f)
        t[f"{p}.attention.output.dense.bias"] = np.zeros(d, dtype=f)
        t[f"{p}.intermediate.dense.weight"] = rng.normal(0, 0.02, (n, d)).astype(f)
        t[f"{p}.intermediate.dense.bias"] = rng.normal(0, 0.02, n).astype(f)
        t[f"{p}.output.dense.weight"] = rng.normal(0, 0.02, (d, n)).astype(f)
        t[f"{p}.output.dense.bias"] = rng.normal(0, 0.02, d).astype(f)
        t[f"{p}.output.LayerNorm.weight"] = rng.normal(1, 0.02, d).astype(f)
        t[f"{p}.output.LayerNorm.bias"] = rng.normal(0, 0.02, d).astype(f)
    save_file(t, str(path / "model.safetensors"))
    (path / "config.json").write_text(json.dumps({
        "model_type": "bert", "num_hidden_layers": layers, "hidden_size": d, "intermediate_size": n,
        "hidden_act": "gelu", "layer_norm_eps": 1e-12}))


def test_scan_bert_checkpoint_with_biases(backend, tmp_path: Path) -> None:
    bert_with_biases(tmp_path, 6, 24, 1, seed=1)
    result = scan(tmp_path, backend=backend, jobs=1).to_json()
    assert len(result["layers"]) == 1
    for entry in result["layers"]:
        sub = entry["sublayer"]
        assert (sub["norm"], sub["kind"], sub["verdict"], sub["checked"]) == ("post", "layernorm",
                                                                              "not_absorbable", True), sub
        assert "(A, c, C B) generic with biases" in sub["reason"]
