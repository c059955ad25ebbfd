"""Post-LayerNorm verdicts through C P, checked by Coq (``certify/CertifyPostNorm.v``).

Both verdicts are accepted through a driver that proves the claim written from the instance;
tampered certificates (a flipped centered entry, a swapped S, a no-subset certificate for
other weights, another instance's certificate) are rejected by Coq. The generated
post-LN-only block, as ``check`` JSON with a norm and as a BERT-style post-norm checkpoint:
bare ``not_absorbable`` and sublayer ``absorbable``, both Coq-checked.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from pybridge.certify.postnorm import build_postln_certificate, expected_postln, postln_claim, run_postln
from pybridge.certify.sublayer import analyse_sublayer
from pybridge.cli import main
from pybridge.decision import decide
from pybridge.decision.postnorm import decide_postln
from pybridge.exact.modular import IntMatrix
from pybridge.generate import bert_checkpoint, generate, generate_postln, norm_to_json
from pybridge.io import instance_to_json
from pybridge.model import Activation, Instance, Norm
from pybridge.prover import ProverOutcome
from pybridge.scanning import scan

EPS = F(1, 10**12)


def layernorm(d: int) -> Norm:
    return Norm("post", "layernorm", False, tuple(F(k + 1, 2) for k in range(d)), None, EPS)


def check(backend, inst: Instance, verdict: str, pd):
    cert = build_postln_certificate(inst, pd)
    return run_postln(cert, expected_postln(inst, verdict), backend, timeout=120)


@pytest.fixture(scope="module")
def postln_only() -> Instance:
    return generate_postln(Activation("relu"), 5, 7, seed=3).instance


def test_both_verdicts_accepted(backend, postln_only: Instance) -> None:
    generic = generate(Activation("relu"), 5, 7, seed=1).instance
    skip = replace(generic, skip=tuple(tuple(F(int(k == l) + (k == 0 and l == 1)) for l in range(5))
                                       for k in range(5)))
    gelu = replace(postln_only, activation=Activation("gelu"))
    for inst, verdict in ((postln_only, "absorbable"), (generic, "not_absorbable"),
                          (skip, "not_absorbable"), (gelu, "absorbable")):
        rep = analyse_sublayer(inst, layernorm(5), decide(inst), False, prove=True, backend=backend, timeout=120)
        doc = rep.to_json()
        assert doc["verdict"] == verdict and doc["checked"], doc
        assert "statement vetted against the instance" in doc["prover"]["message"]
        assert "postln" in (rep.decision.certificate if rep.decision else "")


def test_tampered_certificates_rejected(backend, postln_only: Instance) -> None:
    pd = decide_postln(postln_only, layernorm(5))
    assert pd.verdict == "absorbable" and pd.problem is not None and pd.subset is not None
    # one entry of the centered W_down flipped
    num = np.array(pd.problem.CB.numerators(), dtype=np.int64)
    num[0, 0] += 1
    bad = replace(pd, problem=replace(pd.problem, CB=IntMatrix.from_numerators(num, pd.problem.CB.den)))
    res = check(backend, postln_only, "absorbable", bad)
    assert res.outcome is ProverOutcome.REJECTED and "check_centered_cols" in res.message
    # S with one index swapped for another
    out = next(i for i in range(postln_only.n) if i not in pd.subset)
    swapped = replace(pd, subset=tuple(sorted(pd.subset[1:] + (out,))))
    res = check(backend, postln_only, "absorbable", swapped)
    assert res.outcome is ProverOutcome.REJECTED and "check_submatrix" in res.message
    # "not absorbable" with another block's genericity and no-subset certificates
    other = decide_postln(generate(Activation("relu"), 5, 7, seed=1).instance, layernorm(5))
    assert other.verdict == "not_absorbable"
    lie = replace(other, problem=pd.problem)
    res = check(backend, postln_only, "not_absorbable", lie)
    assert res.outcome is ProverOutcome.REJECTED and "check_" in res.message
    # a valid certificate, vetted against another instance (one weight changed): rejected
    cert = build_postln_certificate(postln_only, pd)
    w_up = [list(r) for r in postln_only.W_up]
    w_up[0][0] += 1
    moved = replace(postln_only, W_up=tuple(map(tuple, w_up)))
    res = run_postln(cert, expected_postln(moved, "absorbable"), backend, timeout=120)
    assert res.outcome is ProverOutcome.REJECTED


def test_claims_quantify_as_stated() -> None:
    inst = generate(Activation("relu"), 3, 4, seed=2).instance
    pos, neg = postln_claim(inst, "absorbable"), postln_claim(inst, "not_absorbable")
    assert "forall (eps : Rdefinitions.R) (gam_s bet_s : vec)" in pos and "gam_s i <> 0" not in pos
    assert "0 < eps" in neg and "(forall i, (i < d)%nat -> gam_s i <> 0)" in neg and "~ absorbable_postnorm" in neg
    assert "identity (mat_of_rows dA RA) (mat_of_cols dB CB)" in pos


def test_check_json_with_norm(backend, capsys, tmp_path: Path) -> None:
    path = tmp_path / "postln.json"
    with pytest.raises(SystemExit) as exc:
        main(["generate", "--activation", "relu", "--d", "6", "--n", "8", "--postln-absorbable", "--seed", "11",
              "-o", str(path)])
    assert exc.value.code == 0 and "planted S=" in capsys.readouterr().out
    doc = json.loads(path.read_text())
    assert doc["norm"]["position"] == "post" and doc["norm"]["kind"] == "layernorm"
    with pytest.raises(SystemExit) as exc:
        main(["check", str(path), "--json"])
    assert exc.value.code == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["verdict"], out["checked"]) == ("not_absorbable", True)
    sub = out["sublayer"]
    assert (sub["verdict"], sub["checked"], sub["norm"], sub["kind"]) == ("absorbable", True, "post", "layernorm")
    # the same block as check JSON written from Python, with a norm
    gen = generate_postln(Activation("relu"), 4, 6, seed=12)
    (tmp_path / "py.json").write_text(json.dumps({**instance_to_json(gen.instance),
                                                  "norm": norm_to_json(gen.norm)}))  # type: ignore[arg-type]
    with pytest.raises(SystemExit) as exc:
        main(["check", str(tmp_path / "py.json"), "--json"])
    assert json.loads(capsys.readouterr().out)["sublayer"]["checked"] is True
    with pytest.raises(SystemExit) as exc:  # bad input: one line, exit 2
        main(["generate", "--activation", "relu", "--d", "4", "--n", "6", "--postln-absorbable", "--bias",
              "-o", str(tmp_path / "x.json")])
    assert exc.value.code == 2 and "--postln-absorbable" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()


def test_scan_bert_style_checkpoint(backend, tmp_path: Path) -> None:
    blocks = [generate_postln(Activation("relu"), 4, 6, seed=s) for s in (21, 22)]
    tensors, config = bert_checkpoint(blocks)
    save_file(tensors, str(tmp_path / "model.safetensors"))  # type: ignore[arg-type]
    (tmp_path / "config.json").write_text(json.dumps(config))
    result = scan(tmp_path, backend=backend, jobs=1).to_json()
    assert len(result["layers"]) == 2
    for entry in result["layers"]:
        assert (entry["verdict"], entry["checked"]) == ("not_absorbable", True), entry
        sub = entry["sublayer"]
        assert (sub["norm"], sub["kind"], sub["verdict"], sub["checked"]) == ("post", "layernorm", "absorbable",
                                                                              True), sub


def test_numerators_beyond_63_bits_are_not_certified(backend) -> None:
    """d * B - 1 (column sums) overflows the 63-bit encoding: the verdict stands (exact, from
    Python integers), the certificate is ``not_certified``, never a wrong one."""
    big = 2**61
    inst = Instance(Activation("relu"), ((F(1), F(-1)),), ((F(-big),), (F(big),)))
    rep = analyse_sublayer(inst, layernorm(2), decide(inst), False, prove=True, backend=backend, timeout=120)
    doc = rep.to_json()
    assert doc["verdict"] == "not_absorbable" and doc["checked"] is False
    assert doc["prover"]["outcome"] == "not_certified" and "63-bit" in doc["prover"]["message"]
