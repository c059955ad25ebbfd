"""Singular-skip verdicts checked by Coq (``certify/CertifyAnySkip.v``, no R1).

Both verdicts, with and without biases, ReLU and the GELU family, skips of rank 1 and rank
``d - 1`` and the zero skip: accepted in one coqc run, each statement vetted against the
claim written from the instance. Tampered certificates (a wrong ``S``, a wrong row of ``P``,
another block's no-subset certificate, a valid certificate vetted against another ``P``) are
rejected. ``pybridge check`` on a JSON file with a singular skip exits 0 with the verdict.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

from helpers import mat, rebound, run_main

from pybridge.certify.pipeline import build_certificate, certify, certify_many, vet
from pybridge.decision import decide
from pybridge.exact.linalg import rank
from pybridge.model import Activation, Instance
from pybridge.prover import ProverOutcome

P1 = mat([[1, 0], [0, 0]])  # rank 1, d = 2


def _absorbable(act: str, P, bias: bool = False) -> Instance:
    """``a_i`` the unit vectors times 1, 2, 3; ``B`` columns chosen so that ``B_S A_S = -P`` for
    ``S = {0, 1}`` (d = 3) and a third, unused unit."""
    d = len(P)
    A = mat([[1, 0, 0], [0, 2, 0], [1, 1, 1]][:d] if d == 3 else [[1, 0], [1, 1]])
    # B[:, i] = -P[:, i] / A[i][i] on the first d - 1 units, so B_S A_S = -P when P's last column
    # is zero and its last row comes from the first d - 1 columns
    cols = [[-P[k][i] / A[i][i] for k in range(d)] for i in range(d - 1)] + [[F(1)] + [F(0)] * (d - 1)]
    B = tuple(tuple(cols[i][k] for i in range(d)) for k in range(d))
    kw = dict(b_up=tuple(F(i + 1) for i in range(d)), b_down=tuple(F(k, 2) for k in range(d))) if bias else {}
    return Instance(Activation(act), A, B, skip=P, **kw)


def test_both_verdicts_accepted_in_one_run(backend) -> None:
    P2 = mat([[1, 2, 0], [0, 3, 0], [1, 5, 0]])  # rank 2 = d - 1, last column zero
    cases = [
        (_absorbable("relu", mat([[1, 0, 0], [2, 0, 0], [0, 0, 0]])), "absorbable"),  # rank 1
        (_absorbable("gelu", P2), "absorbable"),
        (_absorbable("silu", P2, bias=True), "absorbable"),
        (Instance(Activation("relu"), mat([[1, 0]]), mat([[1], [0]]), skip=P1), "not_absorbable"),
        (Instance(Activation("gelu_fast"), mat([[1, 0], [1, 3]]), mat([[1, 2], [0, 1]]), skip=P1), "not_absorbable"),
        (Instance(Activation("relu"), mat([[1, 0]]), mat([[1], [0]]), skip=P1, b_up=(F(1),), b_down=(F(2), F(3))),
         "not_absorbable"),
        (Instance(Activation("swiglu"), mat([[1, 2]]), mat([[3], [4]]), W_gate=mat([[1, 1]]),
                  skip=mat([[0, 0], [0, 0]])), "absorbable"),
        (Instance(Activation("relu"), mat([[1, 2]]), mat([[3], [4]]), skip=mat([[0, 0], [0, 0]]),
                  b_up=(F(1),)), "absorbable"),
    ]
    assert rank(P2) == 2
    pairs = []
    for inst, verdict in cases:
        dec = decide(inst)
        assert dec.verdict == verdict, (inst.activation.label, dec.reason)
        pairs.append((inst, dec))
    results = certify_many(pairs, backend, timeout=300)
    for (inst, dec), res in zip(pairs, results):
        assert res is not None and res.accepted, (inst.activation.label, dec.verdict, res and res.message[-800:])
        assert "statement vetted against the instance" in res.message


def test_tampered_certificates_rejected(backend) -> None:
    inst = _absorbable("relu", mat([[1, 0, 0], [2, 0, 0], [0, 0, 0]]))
    dec = decide(inst)
    assert dec.verdict == "absorbable" and dec.witness is not None
    # a wrong S: the certificate claims S = {2}
    wrong_s = replace(dec, witness=replace(dec.witness, subset=(2,)))
    res = certify(inst, wrong_s, backend, timeout=120)
    assert res is not None and res.outcome is ProverOutcome.REJECTED and "check_submatrix" in res.message
    # a wrong row of P: the instance's P with row 1 changed, and the S found for the old P
    moved = replace(inst, skip=mat([[1, 0, 0], [2, 1, 0], [0, 0, 0]]))
    res = certify(moved, rebound(dec, moved), backend, timeout=120)
    assert res is not None and res.outcome is ProverOutcome.REJECTED and "check_submatrix" in res.message
    # "not absorbable" with another block's genericity and no-subset certificates
    other = Instance(Activation("relu"), inst.W_up, mat([[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
                     skip=mat([[1, 0, 0], [0, 0, 0], [0, 0, 0]]))
    lie = decide(other)
    assert lie.verdict == "not_absorbable"
    res = certify(inst, rebound(lie, inst), backend, timeout=120)  # its evidence: the other weights
    assert res is not None and res.outcome is ProverOutcome.REJECTED and "not vetted" in res.message
    assert dec.evidence is not None and lie.evidence is not None
    own = replace(lie.evidence, A=dec.evidence.A, B=dec.evidence.B, target=dec.evidence.target)
    res = certify(inst, rebound(replace(lie, evidence=own), inst), backend, timeout=120)
    assert res is not None and res.outcome is ProverOutcome.REJECTED and "check_" in res.message
    # a valid certificate vetted against another P: Coq refuses the statement
    cert = build_certificate(inst, dec)
    assert cert is not None
    expected, _ = vet(inst, dec, cert)
    from pybridge.certify.driver import write_driver

    other_p = replace(inst, skip=mat([[1, 0, 0], [2, 0, 0], [0, 1, 0]]))
    expected_other, _ = vet(other_p, rebound(dec, other_p), cert)
    drv = write_driver([(cert.stem, cert.source, expected_other)])
    res = backend.check_files([*drv.files, (drv.stem, drv.source)], main=drv.stem, timeout=120)
    assert res.outcome is ProverOutcome.REJECTED
    assert expected.claim == expected_other.claim  # same text, other data: only Coq tells them apart


def test_cli_check_json_with_a_singular_skip(backend, capsys, tmp_path: Path) -> None:
    path = tmp_path / "singular.json"
    path.write_text(json.dumps({"activation": "relu", "W_up": [[1, 0]], "W_down": [[-1], [0]],
                                "skip": [[1, 0], [0, 0]]}))
    code, out, err = run_main(capsys, "check", str(path), "--json")
    doc = json.loads(out)
    assert code == 0, err
    assert doc["verdict"] == "absorbable" and doc["checked"] is True and doc["skip_reduced"] is False
    assert doc["theorem"] == "Absorb.results.PostNormGeneric.odd_skip_absorbable"
    assert doc["witness"]["subset"] == [0]
    assert doc["crosscheck"]["consistent"] is True
    # another width: undecided with the reason, exit 0, nothing certified
    code, out, _ = run_main(capsys, "check", str(path), "--json", "--width", "2")
    doc = json.loads(out)
    assert code == 0 and doc["verdict"] == "undecided" and "singular skip" in doc["reason"]
    assert doc["checked"] is False


def test_numerators_beyond_63_bits_are_not_certified(backend) -> None:
    big = F(2**70 + 1)
    inst = Instance(Activation("relu"), mat([[1, 0]]), ((-big,), (F(0),)), skip=((big, F(0)), (F(0), F(0))))
    dec = decide(inst)
    assert dec.verdict == "absorbable"
    res = certify(inst, dec, backend, timeout=60)
    assert res is not None and res.outcome is ProverOutcome.NOT_CERTIFIED
