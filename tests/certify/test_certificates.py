"""Coq checks the certificates: correct ones are accepted, tampered ones rejected."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import pytest
from helpers import RELU, evidence_entry_changed, examples, generic_instance, mat, matmul, planted, structured_wide

from pybridge.certify.kinds import CertificateKind
from pybridge.certify.pipeline import build_certificate, certify, certify_many
from pybridge.coq import CoqBackend
from pybridge.decision import Functional, decide
from pybridge.exact.modular import IntMatrix
from pybridge.model import Activation, Instance
from pybridge.prover import PRIMITIVE_INT_AXIOMS, ProverOutcome, ProverResult

pytestmark = pytest.mark.coq


@pytest.fixture(scope="module")
def coq(backend: CoqBackend) -> CoqBackend:
    """The backend; building the library compiles certify/Certify.v too."""
    assert (backend.theories / "certify" / "Certify.vo").exists()
    return backend


def accepted(res: ProverResult | None) -> bool:
    assert res is not None
    return res.accepted


def test_absorbable_accepted(coq):
    A, B, S = planted(3, 8, 1)
    inst = Instance(RELU, A, B)
    dec = decide(inst)
    res = certify(inst, dec, coq)
    assert accepted(res), res.message
    assert "absorbable" in res.message and "ClassicalDedekindReals" in res.message


def test_not_absorbable_accepted(coq):
    inst = generic_instance(3, 10, 2)
    dec = decide(inst)
    assert dec.verdict == "not_absorbable"
    res = certify(inst, dec, coq)
    assert accepted(res), res.message


@pytest.mark.parametrize("name", ["gelu", "gelu_tanh", "silu"])
def test_smooth_not_absorbable_accepted(coq, name):
    inst = replace(generic_instance(3, 10, 16), activation=Activation(name))
    dec = decide(inst)
    assert dec.verdict == "not_absorbable"
    res = certify(inst, dec, coq)
    assert accepted(res), res.message
    assert name in res.message


def test_skip_both_verdicts_accepted(coq):
    P = mat([[2, 1, 0], [0, 1, -1], [1, 0, 3]])
    inst = generic_instance(3, 9, 3, skip=P)
    dec = decide(inst)
    assert dec.verdict == "not_absorbable"
    assert accepted(certify(inst, dec, coq))
    A, Bt, _ = planted(3, 9, 4)
    inst = Instance(RELU, A, matmul(P, Bt), skip=P)
    dec = decide(inst)
    assert dec.verdict == "absorbable"
    assert accepted(certify(inst, dec, coq))


def test_rank_deficient_certificate_accepted(coq):
    """d = 2, n = 9: 4 equations, 9 unknowns, free indices enumerated by Coq."""
    inst = generic_instance(2, 9, 15)
    dec = decide(inst)
    assert dec.verdict == "not_absorbable"
    assert len(dec.evidence.nosub_cert.free) == 5
    assert accepted(certify(inst, dec, coq))


def test_gated_and_homogeneous_accepted(coq):
    A = mat([[1, 2], [3, 4], [5, 7]])
    B = mat([[1, 0, 2], [0, 1, 1]])
    gated = [Instance(Activation(name), A, B, W_gate=A) for name in ("swiglu", "geglu", "reglu")]
    powers = [Instance(Activation("relu_pow", k), A, B, skip=mat([[0, 1], [1, 0]])) for k in (0, 2, 3)]
    # one coqc run for the six certificates, each judged by its own vetted theorem
    results = certify_many([(i, decide(i)) for i in gated + powers], coq)
    for res in results[:3]:
        assert accepted(res), res.message
        assert "R3" in res.message
    for res in results[3:]:
        assert accepted(res), res.message


def test_bias_absorbable_accepted(coq):
    A, B, _ = planted(2, 5, 6)
    inst = Instance(RELU, A, B, b_up=tuple(F(i, 3) for i in range(5)), b_down=(F(1), F(-2, 7)))
    dec = decide(inst)
    assert dec.verdict == "absorbable"
    assert accepted(certify(inst, dec, coq))


def test_nothing_to_certify():
    # A gated block with biases: R3 is bias-free and with biases the impossibility fails (R7)
    inst = Instance(Activation("swiglu"), mat([[1], [1]]), mat([[1, 0]]), W_gate=mat([[1], [2]]),
                    b_up=(F(0), F(1)))
    dec = decide(inst)
    assert dec.verdict == "outside_hypotheses"
    assert certify(inst, dec, CoqBackend()) is None


# ---------------------------------------------------------------- tampering


def test_wrong_subset_rejected(coq):
    A, B, S = planted(3, 8, 7)
    inst = Instance(RELU, A, B)
    dec = decide(inst)
    bad = tuple(sorted(set(dec.witness.subset) ^ {next(i for i in range(8) if i not in S)}))
    tampered = replace(dec, witness=replace(dec.witness, subset=bad))
    assert not accepted(certify(inst, tampered, coq))


def test_wrong_functional_rejected(coq):
    inst = generic_instance(3, 10, 8)
    dec = decide(inst)
    ev = dec.evidence
    f = ev.nosub_cert.functionals[0]
    k, row = f.rows[0]
    row2 = (row[0] + 1,) + row[1:]
    cert2 = replace(ev.nosub_cert, functionals=(Functional(f.pivot, ((k, row2),) + f.rows[1:]),))
    tampered = replace(dec, evidence=replace(ev, nosub_cert=cert2))
    assert not accepted(certify(inst, tampered, coq))


def test_perturbed_weight_rejected(coq):
    inst = generic_instance(3, 10, 9)
    dec = decide(inst)
    assert not accepted(certify(*evidence_entry_changed(inst, dec, 4, 1, lambda v: v + 1, match_weights=False), coq))
    # absorbable: perturb one weight of a planted block, keep the subset
    A, B, _ = planted(2, 6, 10)
    inst = Instance(RELU, A, B)
    dec = decide(inst)
    ev = dec.evidence
    rows = [list(r) for r in ev.B.rows]
    i = dec.witness.subset[0]
    rows[0][i] += 1
    tampered = replace(dec, evidence=replace(ev, B=IntMatrix(tuple(tuple(r) for r in rows), ev.B.den)))
    assert not accepted(certify(inst, tampered, coq))


def test_not_absorbable_claim_for_absorbable_rejected(coq):
    """A no-subset certificate from another instance, attached to an absorbable one."""
    A, B, _ = planted(3, 10, 11)
    inst = Instance(RELU, A, B)
    dec = decide(inst)
    assert dec.verdict == "absorbable"
    other = decide(generic_instance(3, 10, 12))
    fake = replace(dec, verdict="not_absorbable", result="R5", witness=None,
                   evidence=replace(dec.evidence, nosub_cert=other.evidence.nosub_cert,
                                    generic_cert=other.evidence.generic_cert))
    res = certify(inst, fake, coq)
    assert not accepted(res)


def test_disallowed_axiom_rejected():
    class FakeBackend:
        name = "coq"

        def check_files(self, files, *, main, timeout, keep_dir=None):
            """Answers as coqc would between the driver's markers, with a disallowed axiom."""
            tag = re.search(r"Check (begin_\w+)\.", dict(files)[main]).group(1).split("_", 1)[1]
            return ProverResult(ProverOutcome.ACCEPTED, 0.1,
                                f"begin_{tag}\n     : nat\nAxioms:\nCert.cheat : False\n"
                                f"Classical_Prop.classic : forall P, P\nend_{tag}\n     : nat\n")

    inst = generic_instance(2, 5, 13)
    res = certify(inst, decide(inst), FakeBackend())
    assert res is not None and not res.accepted and "Cert.cheat" in res.message


def test_certificate_has_no_user_text(tmp_path: Path):
    inst = replace(generic_instance(2, 5, 14), source='evil"). Axiom x : False. (*')
    cert = build_certificate(inst, decide(inst))
    assert "evil" not in cert.source and "Axiom" not in cert.source
    assert all(a.startswith(("PrimInt63.", "Uint63.")) for a in PRIMITIVE_INT_AXIOMS)


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=examples(5), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(d=st.integers(2, 3), n=st.integers(3, 7), data=st.data())
def test_every_certifiable_decision_is_accepted(coq, d, n, data):
    """Random small blocks (planted or not): Coq accepts whatever exact verdict was reached."""
    seed = data.draw(st.integers(0, 10**6))
    inst = Instance(RELU, *planted(d, n, seed)[:2]) if data.draw(st.booleans()) else generic_instance(d, n, seed)
    dec = decide(inst)
    res = certify(inst, dec, coq)
    # R8 (=>) at k < m below the least width included: rank certificates (certificates_rank)
    if dec.verdict in ("absorbable", "not_absorbable"):
        assert accepted(res), res.message
    else:
        assert res is None


def test_structured_wide_certificate_accepted(coq):
    A, B = structured_wide()
    inst = Instance(RELU, A, B)
    dec = decide(inst)
    assert dec.verdict == "not_absorbable"
    assert accepted(certify(inst, dec, coq))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_certificate_data_is_the_instance(coq, seed, monkeypatch):
    """Coq reads back, from the certificate's packed data, exactly the instance's weights
    (negative and fractional ones included): the checked statement is about this block
    (written with its entries: the residue form unavailable)."""
    monkeypatch.setattr("pybridge.certify.generic.residue_form", lambda *a: None)
    inst = generic_instance(3, 5, seed)
    cert = build_certificate(inst, decide(inst))
    assert cert is not None
    probe = cert.source + (
        "\nEval vm_compute in (Cert.dA, Cert.dB, "
        "List.map (List.map zval) Cert.RA, List.map (List.map zval) Cert.CB).\n"
    )
    res = coq.check_file(probe, stem="Probe", timeout=120)
    assert res.accepted, res.message
    shown = res.message[res.message.rindex("= (") :].split("\n     :")[0]
    nums = [int(t) for t in re.findall(r"-?\d+", shown)]
    d, n = inst.d, inst.n
    assert len(nums) == 2 + 2 * n * d
    dA, dB, flat = nums[0], nums[1], nums[2:]
    rows, cols = flat[: n * d], flat[n * d :]
    assert [[F(rows[i * d + k], dA) for k in range(d)] for i in range(n)] == [list(r) for r in inst.W_up]
    assert [[F(cols[j * d + k], dB) for j in range(n)] for k in range(d)] == [list(r) for r in inst.W_down]


@pytest.mark.parametrize("seed", [1, 2])
def test_residue_data_are_the_instance_residues(coq, seed):
    """A certificate on residues: Coq reads back, from its packed data, the residues of the
    instance's integer numerators modulo the two primes the certificate names, on its block
    and on its two genericity indices (float32 weights: numerators wider than the residues)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal((5, 3)).astype(np.float32), rng.standard_normal((3, 5)).astype(np.float32)
    inst = Instance(RELU, tuple(tuple(F(float(v)) for v in r) for r in a),
                    tuple(tuple(F(float(v)) for v in r) for r in b))
    cert = build_certificate(inst, decide(inst))
    assert cert is not None and cert.extract is not None and cert.extract.residues is not None
    ex, res = cert.extract, cert.extract.residues
    probe = cert.source + (
        "\nEval vm_compute in (Cert.dA, Cert.dB, Uint63.to_Z Cert.p, Uint63.to_Z Cert.pg, "
        "List.map Z.of_nat Cert.R, List.map Z.of_nat Cert.R2, "
        + ", ".join(f"List.map (List.map zval) Cert.{x}" for x in ("RAp", "CBp", "RAg", "CBg")) + ").\n")
    out = coq.check_file(probe, stem="Probe", timeout=120)
    assert out.accepted, out.message
    shown = out.message[out.message.rindex("= (") :].split("\n     :")[0]
    nums = [int(t) for t in re.findall(r"-?\d+", shown)]
    dA, dB, p, pg = nums[:4]
    assert (p, pg) == (res.p, res.pg) and 1 < p < 2**10
    R, R2 = nums[4:4 + len(ex.block)], nums[4 + len(ex.block):4 + len(ex.block) + len(res.pair)]
    assert tuple(R) == ex.block and tuple(R2) == res.pair
    flat = nums[4 + len(R) + len(R2):]
    n, r, q = inst.n, len(R), len(R2)
    assert len(flat) == 2 * n * r + 2 * n * q
    up = [[int(inst.W_up[i][k] * dA) for k in range(inst.d)] for i in range(n)]
    down = [[int(inst.W_down[k][i] * dB) for k in range(inst.d)] for i in range(n)]  # columns of W_down
    assert all(F(inst.W_up[i][k]) * dA == up[i][k] for i in range(n) for k in range(inst.d))
    want = ([up[i][k] % p for i in range(n) for k in R] + [down[i][k] % p for i in range(n) for k in R]
            + [up[i][k] % pg for i in range(n) for k in R2] + [down[i][k] % pg for i in range(n) for k in R2])
    assert flat == want


def test_quantized_weights_certified_on_residues(coq):
    """Dequantized int8 weights (k times a float32 scale, |k| <= 127) repeat pairs of values,
    so two columns do not separate every row's ratio; the genericity check on residues takes
    more indices, and Coq accepts. Without the scale (k / 64: numerators of 8 bits, narrower
    than the residues) the block's entries themselves are written."""
    import numpy as np

    from pybridge.exact.arrays import ArrayMatrix

    rng = np.random.default_rng(0)
    ka, kb = rng.integers(-127, 128, size=(512, 128)), rng.integers(-127, 128, size=(128, 512))
    a = (ka * np.float32(0.0173)).astype(np.float32)
    b = (kb * np.float32(0.0291)).astype(np.float32)
    inst = Instance(RELU, ArrayMatrix(a), ArrayMatrix(b))
    dec = decide(inst)
    cert = build_certificate(inst, dec)
    assert cert is not None and cert.extract is not None and cert.extract.residues is not None
    assert len(cert.extract.residues.pair) > 2
    res = certify(inst, dec, coq)
    assert accepted(res) and "(entries modulo the checks' primes)" in res.message, res.message
    plain = Instance(RELU, ArrayMatrix((ka / 64).astype(np.float32)), ArrayMatrix((kb / 64).astype(np.float32)))
    cert = build_certificate(plain, decide(plain))
    assert cert is not None and cert.extract is not None and cert.extract.residues is None
    assert "agrees_up n R dA RA A" in cert.source


# ---------------------------------------------------------------- shape of certificates


def test_each_certificate_is_data_plus_one_certify_lemma():
    """Every kind: checks proved by the VM, then ``verdict`` by one application of its
    ``Certify.v`` lemma (no per-activation proof script in Python)."""
    A, B, _ = planted(2, 5, 6)
    P = mat([[2, 1], [1, 1]])
    cases = [
        (Instance(RELU, A, B), CertificateKind.ABSORBABLE),
        (Instance(RELU, A, matmul(P, B), skip=P), CertificateKind.ABSORBABLE_SKIP),
        (Instance(RELU, A, B, b_up=tuple(F(i) for i in range(5))), CertificateKind.ABSORBABLE_BIAS),
        (generic_instance(2, 5, 3), CertificateKind.GENERIC_NOT_ABSORBABLE_PARTIAL),
        (generic_instance(2, 5, 3, skip=P), CertificateKind.GENERIC_NOT_ABSORBABLE_SKIP),
        (Instance(Activation("swiglu"), A, B, W_gate=A), CertificateKind.GATED_NOT_ABSORBABLE),
        (Instance(Activation("relu_pow", 3), A, B), CertificateKind.RELU_POW_NOT_ABSORBABLE),
    ]
    for inst, kind in cases:
        cert = build_certificate(inst, decide(inst))
        assert cert is not None and cert.kind is kind
        proof = cert.source.split("Theorem verdict", 1)[1].split("Qed.", 1)[0]
        # the partial kind's lemma for residues (CertifyResidues) or codes ends in _mod / _coded
        assert re.search(rf"Proof\. exact \({kind.lemma}(_mod|_coded)? ", proof), proof
        assert "intros" not in proof and "destruct" not in proof


def test_timeout_is_its_own_outcome(coq):
    """A time limit too short for Coq is a timeout, not a rejection (exit 0, not checked)."""
    import pybridge.api as api

    inst = generic_instance(6, 40, 21)
    report = api.check(inst, backend=coq, timeout=0.05, crosscheck=False)
    assert report.prover is not None and report.prover.outcome is ProverOutcome.TIMEOUT
    assert not report.checked and not api.rejected(report) and api.timed_out(report)
    assert api.exit_code(report) == 0
    assert api.report_to_json(report)["prover"]["outcome"] == "timeout"


def test_uncertifiable_activation_is_not_certified():
    """heaviside is in the registry but has no Coq support yet: undecided, never a rejection."""
    A, B, _ = planted(2, 5, 6)
    inst = Instance(Activation("heaviside"), A, B)
    dec = decide(inst)
    assert dec.verdict == "undecided" and dec.theorem is None
    assert certify(inst, dec, CoqBackend()) is None
