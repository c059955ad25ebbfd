"""Sublayer verdicts (R11, R11') and their Coq certificates.

Pre-norm / parallel certificates are weight-independent (activation, d, n, norm kind, eps);
post-norm ones glue the bare block's certificate. Tampered certificates are rejected by Coq.
Scans of generated pre-norm, post-norm and parallel checkpoints report the sublayer.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import pytest

from pybridge.certify.sublayer import (
    analyse_sublayer,
    certificate_for,
    check_certificate,
    prenorm_certificate,
    run_certificate,
)
from pybridge.certify.sublayer_statement import prenorm_claim, sublayer_claims
from pybridge.cli import main
from pybridge.decision import decide
from pybridge.decision.sublayer import SINGULAR_SKIP, ZERO_GAMMA, decide_sublayer
from pybridge.model import Activation, Instance, Norm
from pybridge.prover import ProverOutcome
from pybridge.scanning import scan

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "io"))
from test_architectures import CASES, write  # noqa: E402
from test_norms import EXPECTED, with_norms  # noqa: E402

EPS = F(1, 100000)
I2 = ((F(1), F(0)), (F(0), F(1)))
MINUS_I2 = ((F(-1), F(0)), (F(0), F(-1)))
#: x + (-I) relu(I x): absorbable (S = {0, 1}); the other: generic, not absorbable
ABSORBABLE = Instance(Activation("relu"), I2, MINUS_I2)
NOT_ABSORBABLE = Instance(Activation("relu"), ((F(1), F(2)), (F(3), F(-1))), ((F(1), F(1)), (F(2), F(-3))))


def post(kind: str, gamma=(F(1), F(2))) -> Norm:
    return Norm("post", kind, False, tuple(gamma), (F(0), F(1, 2)), EPS)


@pytest.mark.parametrize("act,kind,parallel", [("relu", "layernorm", False), ("gelu", "rmsnorm", True),
                                               ("swiglu", "rmsnorm", False)])
def test_prenorm_certificate_accepted(backend, act: str, kind: str, parallel: bool) -> None:
    cert = prenorm_certificate(Activation(act), 3, 5, kind, EPS, parallel)
    res = run_certificate(cert, (prenorm_claim(Activation(act), 3, 5, kind, EPS, parallel),), backend, timeout=120)
    assert res.outcome is ProverOutcome.ACCEPTED, res.message[-500:]
    assert "eps=1/100000" in res.message and "statement vetted" in res.message
    assert ("parallel_residual" if parallel else "prenorm d identity") in cert.source
    assert "forall (gamma beta : vec)" in cert.source  # every gamma, beta: weight-independent


def test_tampered_prenorm_certificate_rejected(backend) -> None:
    cert = prenorm_certificate(Activation("relu"), 3, 5, "layernorm", EPS, False)
    bad = cert.source.replace("IZR (1%Z) / IZR (100000%Z)", "IZR (-1%Z) / IZR (100000%Z)")
    assert bad != cert.source
    claim = prenorm_claim(Activation("relu"), 3, 5, "layernorm", EPS, False)
    res = run_certificate(type(cert)(cert.stem, bad, cert.summary), (claim,), backend, timeout=120)
    assert res.outcome is ProverOutcome.REJECTED


def test_pre_norm_hypotheses() -> None:
    pre = Norm("pre", "layernorm", False, (F(1),) * 2, None, EPS)
    step = Instance(Activation("heaviside"), I2, I2)
    assert decide_sublayer(step, pre, decide(step)).verdict == "outside_hypotheses"
    zero_skip = Instance(Activation("relu"), I2, I2, skip=((F(0), F(0)), (F(0), F(0))))
    assert decide_sublayer(zero_skip, pre, decide(NOT_ABSORBABLE)).verdict == "outside_hypotheses"
    sub = decide_sublayer(NOT_ABSORBABLE, Norm("pre", "rmsnorm", True, (F(1),) * 2, None, EPS),
                          decide(NOT_ABSORBABLE))
    assert sub.verdict == "not_absorbable" and "softmax" in sub.reason
    assert sub.theorem == "Absorb.results.PreNorm.parallel_not_residual_free"


def test_post_rmsnorm_transfers_both_verdicts(backend) -> None:
    for inst, verdict in ((NOT_ABSORBABLE, "not_absorbable"), (ABSORBABLE, "absorbable")):
        bare = decide(inst)
        assert bare.verdict == verdict
        rep = analyse_sublayer(inst, post("rmsnorm"), bare, True, prove=True, backend=backend, timeout=120)
        assert rep.decision is not None and rep.decision.verdict == verdict
        assert rep.checked, rep.prover and rep.prover.message[-500:]
        assert rep.to_json()["theorem"].startswith("Absorb.results.PostNorm.postrms_ungated")


def test_tampered_post_glue_rejected(backend) -> None:
    bare = decide(NOT_ABSORBABLE)
    sub = decide_sublayer(NOT_ABSORBABLE, post("rmsnorm"), bare)
    cert = certificate_for(NOT_ABSORBABLE, bare, sub)
    assert cert is not None
    # drop "every gamma_i != 0": the iff no longer applies
    bad = cert.source.replace("(forall i, (i < d)%nat -> gam_s i <> 0) ->", "")
    assert bad != cert.source
    tampered = type(cert)(cert.stem, bad, cert.summary, cert.extract, cert.extract_of)
    # refused on its statement before Coq runs...
    res = check_certificate(NOT_ABSORBABLE, bare, sub, tampered, backend, timeout=120)
    assert res.outcome is ProverOutcome.REJECTED and "statement not vetted" in res.message
    # ...and by Coq when given the honest claims (its proof no longer goes through)
    claims, note = sublayer_claims(NOT_ABSORBABLE, bare, sub, cert.as_certificate())
    res = run_certificate(tampered, claims, backend, timeout=120)
    assert res.outcome is ProverOutcome.REJECTED


def test_post_layernorm_and_zero_gamma(backend) -> None:
    bare = decide(NOT_ABSORBABLE)
    sub = decide_sublayer(NOT_ABSORBABLE, post("layernorm"), bare)  # decided through C P (tests/*/test_postnorm.py)
    assert sub.verdict == "not_absorbable" and sub.certificate == "postln"
    gelu = Instance(Activation("gelu"), NOT_ABSORBABLE.W_up, NOT_ABSORBABLE.W_down)
    sub = decide_sublayer(gelu, post("layernorm"), decide(gelu))  # R5 for C P: even_postln_generic_pm
    assert sub.verdict == "not_absorbable" and "even_postln_generic_pm" in sub.reason
    assert decide_sublayer(gelu, post("layernorm"), replace(decide(gelu), width=3)).reason.startswith(SINGULAR_SKIP)
    sub = decide_sublayer(NOT_ABSORBABLE, post("rmsnorm", (F(1), F(0))), bare)
    assert sub.verdict == "undecided" and ZERO_GAMMA in sub.reason  # zero gamma: no iff
    # absorbable bare block: absorbable sublayer, any gamma (a zero entry included), checked by Coq
    rep = analyse_sublayer(ABSORBABLE, post("layernorm", (F(0), F(3))), decide(ABSORBABLE), True, prove=True,
                           backend=backend, timeout=120)
    assert rep.decision is not None and rep.decision.verdict == "absorbable" and rep.checked
    assert rep.to_json()["gamma_zero_entries"] == 1
    # not checked when the bare certificate was not accepted: never claim more
    rep = analyse_sublayer(ABSORBABLE, post("layernorm"), decide(ABSORBABLE), False, prove=True,
                           backend=backend, timeout=120)
    assert not rep.checked and "not accepted" in rep.to_json()["reason"]


def ckpt(tmp: Path, case: str, extra: dict | None = None) -> Path:
    builder, layer_names = CASES[case][:2]
    tensors, config = builder()
    tensor, bias = EXPECTED[case][:2]
    config.update(extra or {})
    tmp.mkdir()
    return write(tmp, with_norms(tensors, layer_names, tensor, bias), config)


def test_scan_prenorm_llama_shares_one_certificate(backend, tmp_path: Path) -> None:
    result = scan(ckpt(tmp_path / "llama", "llama"), backend=backend).to_json()
    subs = [entry["sublayer"] for entry in result["layers"]]
    assert [s["verdict"] for s in subs] == ["not_absorbable"] * 2
    assert all(s["checked"] and s["norm"] == "pre" and s["kind"] == "rmsnorm" for s in subs)
    assert "shared with model.layers.0" in subs[1]["note"]


def test_scan_post_layernorm_bert_and_parallel_neox(backend, tmp_path: Path) -> None:
    bert = scan(ckpt(tmp_path / "bert", "bert"), prove=False).to_json()
    for entry in bert["layers"]:
        assert entry["sublayer"]["norm"] == "post" and entry["sublayer"]["kind"] == "layernorm"
        # biased GELU blocks, generic: decided through C P with R9 (--no-prove: never checked)
        assert entry["sublayer"]["verdict"] == "not_absorbable" and not entry["sublayer"]["checked"]
    neox = scan(ckpt(tmp_path / "neox", "gpt_neox"), prove=False).to_json()
    assert all(e["sublayer"]["parallel"] and e["sublayer"]["verdict"] == "not_absorbable"
               and not e["sublayer"]["checked"] for e in neox["layers"])  # --no-prove: never checked


def test_cli_scan_table_and_check_json_norm(backend, capsys, tmp_path: Path) -> None:
    path = ckpt(tmp_path / "opt350", "opt", {"do_layer_norm_before": False})
    with pytest.raises(SystemExit) as exc:
        main(["scan", str(path), "--no-prove"])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    assert "sublayer" in out and "(post LN)" in out and "about the bare block" in out
    doc = {"activation": "relu", "W_up": [[1, 0], [0, 1]], "W_down": [[-1, 0], [0, -1]],
           "norm": {"position": "post", "kind": "rmsnorm", "gamma": [1, "1/3"], "eps": "1e-5"}}
    (tmp_path / "i.json").write_text(json.dumps(doc))
    with pytest.raises(SystemExit) as exc:
        main(["check", str(tmp_path / "i.json"), "--json"])
    assert exc.value.code == 0
    sub = json.loads(capsys.readouterr().out)["sublayer"]
    assert (sub["verdict"], sub["checked"], sub["eps"], sub["norm"]) == ("absorbable", True, "1/100000", "post")
    doc["norm"]["gamma"] = [1, 2, 3]
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    with pytest.raises(SystemExit) as exc:
        main(["check", str(tmp_path / "bad.json"), "--no-prove"])
    assert exc.value.code == 2
    assert "norm.gamma has length 3" in capsys.readouterr().err


def test_cli_scan_missing_norm_tensor_is_shown(capsys, tmp_path: Path) -> None:
    builder, layer_names = CASES["gpt2"][:2]
    tensors, config = builder()
    tensors = with_norms(tensors, layer_names[:1], "ln_2", True)  # layer h.1 has no ln_2
    with pytest.raises(SystemExit) as exc:
        main(["scan", str(write(tmp_path, tensors, config)), "--no-prove", "--json-out", str(tmp_path / "r.json")])
    assert exc.value.code == 0  # the bare verdicts stand
    assert "the sublayer of 1 of 2 layers was not analysed" in capsys.readouterr().out
    doc = json.loads((tmp_path / "r.json").read_text())
    assert [e["sublayer"]["status"] for e in doc["layers"]] == ["ok", "missing_tensor"]
    assert "h.1.ln_2.weight" in doc["layers"][1]["sublayer"]["reason"]
    assert doc["summary"]["sublayer_verdicts"] == {"not_absorbable": 1, "missing_tensor": 1}



def test_post_rmsnorm_gated_without_biases_is_not_checked(backend) -> None:
    """R3's statement is about bias-free gated blocks, which have no post-norm counterpart
    in the library: the verdict transfers but is reported unchecked, never claimed."""
    inst = Instance(Activation("swiglu"), I2, MINUS_I2, W_gate=I2)
    bare = decide(inst)
    assert bare.verdict == "not_absorbable"
    rep = analyse_sublayer(inst, post("rmsnorm"), bare, True, prove=True, backend=backend, timeout=120)
    doc = rep.to_json()
    assert doc["verdict"] == "not_absorbable" and doc["checked"] is False
    assert doc["prover"]["outcome"] == "not_certified" and "not checked" in doc["reason"]


def test_scan_workers_leave_prenorm_certificates_to_be_shared(backend, tmp_path: Path) -> None:
    """With worker processes, the weight-independent pre-norm certificate is checked once,
    in the scan's process, and shared by every layer with the same key."""
    result = scan(ckpt(tmp_path / "gpt2", "gpt2"), backend=backend, jobs=2).to_json()
    subs = [entry["sublayer"] for entry in result["layers"]]
    assert all(s["verdict"] == "not_absorbable" and s["checked"] and "deferred" not in s for s in subs), subs
    assert sum("shared with" in s.get("note", "") for s in subs) == 1
    assert all("pending" not in s["reason"] for s in subs)
