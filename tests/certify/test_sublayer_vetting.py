"""Nothing crafted gets through, sublayer edition (issue 20): a sublayer certificate's
statements are checked, in its own coqc run, against the claims pybridge writes from the
instance and the sublayer decision alone (:mod:`pybridge.certify.sublayer_statement`), and
the bare certificate inside a post-norm glue is vetted like a bare one.

Each crafted certificate below is refused (``rejected``, ``checked: false``) with a message
saying why: on its text before Coq runs when it states something else, by Coq when the text
is the expected one but the data or the definitions behind it are not."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction as F

import pytest

from pybridge.certify import sublayer
from pybridge.certify.driver import write_driver
from pybridge.certify.sublayer import (
    SublayerCertificate,
    analyse_sublayer,
    certificate_for,
    check_certificate,
    prenorm_certificate,
    run_certificate,
)
from pybridge.certify.sublayer_statement import prenorm_claim, sublayer_claims
from pybridge.decision import decide
from pybridge.decision.sublayer import decide_sublayer
from pybridge.model import Activation, Instance, Norm
from pybridge.prover import ProverOutcome

RELU = Activation("relu")
EPS = F(1, 100000)
I2 = ((F(1), F(0)), (F(0), F(1)))
#: two absorbable blocks (full certificates, the same statement text, other data)
ABSORBABLE = Instance(RELU, I2, ((F(-1), F(0)), (F(0), F(-1))))
ABSORBABLE_2 = Instance(RELU, ((F(2), F(0)), (F(0), F(1))), ((F(-1, 2), F(0)), (F(0), F(-1))))
#: two generic not-absorbable blocks (partial certificates)
GENERIC = Instance(RELU, ((F(1), F(2)), (F(3), F(-1))), ((F(1), F(1)), (F(2), F(-3))))
GENERIC_2 = Instance(RELU, ((F(2), F(1)), (F(1), F(-3))), ((F(1), F(2)), (F(-1), F(1))))


def pre(kind: str = "layernorm", parallel: bool = False) -> Norm:
    return Norm("pre", kind, parallel, (F(1),) * 2, None, EPS)


def post(kind: str, gamma=(F(1), F(2)), eps: F = EPS) -> Norm:
    return Norm("post", kind, False, tuple(gamma), (F(0), F(1, 2)), eps)


class NoProver:
    """A backend that must not be reached: the refusal happens before Coq."""

    name = "none"

    def check_files(self, *a, **k):  # pragma: no cover - must not be reached
        raise AssertionError("the prover ran on a certificate refused by its statement")


def check(inst: Instance, norm: Norm, cert: SublayerCertificate, backend):
    bare = decide(inst)
    return check_certificate(inst, bare, decide_sublayer(inst, norm, bare), cert, backend, timeout=120)


def glue(inst: Instance, norm: Norm) -> SublayerCertificate:
    bare = decide(inst)
    cert = certificate_for(inst, bare, decide_sublayer(inst, norm, bare))
    assert cert is not None
    return cert


def with_source(cert: SublayerCertificate, source: str) -> SublayerCertificate:
    assert source != cert.source
    return replace(cert, source=source)


def true_verdict(cert: SublayerCertificate, theorem: str = "verdict") -> SublayerCertificate:
    src, k = re.subn(rf"Theorem {theorem} : .*?Qed\.", f"Theorem {theorem} : True.\nProof. exact I. Qed.",
                     cert.source, count=1, flags=re.S)
    assert k == 1
    return with_source(cert, src)


# ------------------------------------------------------------------ refused on the text (no Coq)


def test_swapped_and_trivial_certificates_refused_before_coq() -> None:
    mine = prenorm_certificate(RELU, 2, 2, "layernorm", EPS, False)
    cases = [
        (GENERIC, pre(), prenorm_certificate(RELU, 2, 2, "layernorm", EPS, True), "verdict"),  # parallel for pre
        (GENERIC, pre(), prenorm_certificate(RELU, 2, 2, "rmsnorm", EPS, False), "verdict"),  # another kind
        (GENERIC, pre(), prenorm_certificate(Activation("gelu"), 2, 2, "layernorm", EPS, False), "verdict"),
        (GENERIC, pre(), glue(GENERIC, post("rmsnorm")), "verdict"),  # a post-norm glue for a pre-norm sublayer
        (GENERIC, pre("layernorm", True), mine, "verdict"),  # pre-norm for parallel
        (GENERIC, pre(), true_verdict(mine), "verdict"),  # Theorem verdict : True
        (GENERIC, post("rmsnorm"), mine, "verdict_bare"),  # a pre-norm certificate for a post-norm glue
        (GENERIC, post("rmsnorm"), true_verdict(glue(GENERIC, post("rmsnorm"))), "verdict"),
        # the embedded bare certificate states True: refused like a bare one
        (GENERIC, post("rmsnorm"), true_verdict(glue(GENERIC, post("rmsnorm")), "verdict_bare"), "verdict_bare"),
        # the post-RMSNorm iff glue where only the sufficient direction holds (post-LN)
        (ABSORBABLE, post("layernorm"), glue(ABSORBABLE, post("rmsnorm")), "verdict"),
        # the sufficient-direction glue where the iff is expected (drops "every gamma_i != 0"... the other way)
        (ABSORBABLE, post("rmsnorm"), glue(ABSORBABLE, post("layernorm")), "verdict"),
    ]
    for inst, norm, cert, theorem in cases:
        res = check(inst, norm, cert, NoProver())
        assert res.outcome is ProverOutcome.REJECTED, (norm, cert.summary)
        assert res.message.startswith("statement not vetted") and f"{theorem}`" in res.message, res.message


def test_glue_extract_and_header_digests_checked() -> None:
    """The bare certificate inside a post-norm glue: its extract and the digests its header
    records are checked against the instance, as for a bare partial certificate."""
    cert = glue(GENERIC, post("rmsnorm"))
    assert cert.extract is not None
    zeros = replace(cert, extract=replace(cert.extract, weights_sha256="0" * 64))
    res = check(GENERIC, post("rmsnorm"), zeros, NoProver())
    assert res.rejected and "digest of the weights is not the instance's" in res.message
    header = with_source(cert, cert.source.replace(cert.extract.weights_sha256, "f" * 64))
    res = check(GENERIC, post("rmsnorm"), header, NoProver())
    assert res.rejected and "header does not record the digests" in res.message
    theirs = glue(GENERIC_2, post("rmsnorm"))  # another block's (partial) glue
    res = check(GENERIC, post("rmsnorm"), theirs, NoProver())
    assert res.rejected and "disagree with the weights" in res.message


def test_a_foreign_bare_decision_is_refused() -> None:
    bare = decide(ABSORBABLE_2)
    sub = decide_sublayer(ABSORBABLE, post("rmsnorm"), bare)
    res = check_certificate(ABSORBABLE, bare, sub, glue(ABSORBABLE_2, post("rmsnorm")), NoProver(), timeout=1)
    assert res.rejected and "other weights" in res.message


# ------------------------------------------------------------------ refused by Coq


@pytest.mark.parametrize("other", [dict(d=3), dict(n=3), dict(eps=F(1, 1000)), dict(kind="rmsnorm"),
                                   dict(parallel=True)])
def test_another_instances_prenorm_certificate_rejected_by_coq(backend, other: dict) -> None:
    """Another key's (valid) pre-norm certificate against this key's claim, the text check
    skipped: Coq refuses it (other d, n, eps: the data differ; kind, parallel: the statement)."""
    mine = dict(act=RELU, d=2, n=2, kind="layernorm", eps=EPS, parallel=False)
    theirs = prenorm_certificate(**{**mine, **other})
    res = run_certificate(theirs, (prenorm_claim(**mine),), backend, timeout=120)
    assert res.outcome is ProverOutcome.REJECTED, res.message[-400:]
    assert res.message.startswith("not vetted") and "Slot_" in res.message, res.message[-600:]
    if "d" in other or "eps" in other:  # same text: the end-to-end check reaches Coq and Coq refuses it
        res = check(GENERIC, pre(), theirs, backend)
        assert res.rejected and "Slot_" in res.message


def test_redefined_prenorm_statement_rejected_by_coq(backend) -> None:
    """The statement's text is the expected one, but ``same_fun`` is redefined as ``False``
    first (so its negation is trivial): only Coq's check against the claim catches it."""
    cert = prenorm_certificate(RELU, 2, 2, "layernorm", EPS, False)
    head, rest = cert.source.split("Theorem verdict : ", 1)
    stmt = rest.split(".\nProof.", 1)[0]
    fake = (head + "Definition same_fun (d : nat) (f g : vec -> vec) : Prop := False.\n"
            f"Theorem verdict : {stmt}.\nProof. unfold same_fun. tauto. Qed.\nEnd Cert.\n"
            "Print Assumptions Cert.verdict.\n")
    forged = with_source(cert, fake)
    assert backend.check_file(forged.source, stem="Forged", timeout=120).accepted  # it does compile
    res = check(GENERIC, pre(), forged, backend)
    assert res.rejected and "expected to have type" in res.message, res.message[-600:]


def test_glue_of_another_block_rejected_by_coq(backend) -> None:
    """Another absorbable block's glue (full certificates: the same statement text): the
    embedded bare data are not the instance's, and Coq refuses them."""
    theirs = glue(ABSORBABLE_2, post("rmsnorm"))
    bare = decide(ABSORBABLE)
    sub = decide_sublayer(ABSORBABLE, post("rmsnorm"), bare)
    sublayer_claims(ABSORBABLE, bare, sub, theirs.as_certificate())  # the text passes...
    res = check(ABSORBABLE, post("rmsnorm"), theirs, backend)
    assert res.rejected and res.message.startswith("not vetted") and "Cert.dB" in res.message, \
        res.message[-600:]  # ...the data do not


def test_glue_with_other_eps_rejected_by_coq(backend) -> None:
    cert = glue(ABSORBABLE, post("layernorm", (F(0), F(3))))
    other = with_source(cert, cert.source.replace("IZR (100000%Z)", "IZR (1000%Z)"))
    res = check(ABSORBABLE, post("layernorm", (F(0), F(3))), other, backend)
    assert res.rejected and "eps_s" in res.message, res.message[-600:]


def test_glue_with_a_forged_bare_verdict_rejected_by_coq(backend) -> None:
    """A glue whose sublayer verdict is honest but whose ``verdict_bare`` (with the expected
    text) proves a redefined ``absorbable_ungated``: the embedded bare certificate is vetted
    on its own, and Coq refuses it."""
    cert = glue(ABSORBABLE, post("layernorm", (F(0), F(3))))
    stmt = re.search(r"Theorem verdict_bare :(.*?)\.\nProof\.", cert.source, re.S).group(1)
    src = cert.source.replace("Theorem verdict_bare : ", "Theorem verdict_real : ", 1)
    src = src.replace("verdict_bare).\nQed.", "verdict_real).\nQed.", 1)
    fake = ("Definition absorbable_ungated (s : R -> R) (d n m : nat) (P A B : mat) : Prop := True.\n"
            f"Theorem verdict_bare :{stmt}.\nProof. exact I. Qed.\n")
    src = src.replace("Definition eps_s", fake + "Definition eps_s", 1)
    forged = with_source(cert, src)
    assert backend.check_file(forged.source, stem="Forged", timeout=120).accepted  # it does compile
    res = check(ABSORBABLE, post("layernorm", (F(0), F(3))), forged, backend)
    assert res.rejected and "verdict_bare" in res.message and "expected to have type" in res.message, \
        res.message[-600:]


def test_reported_unchecked_with_the_reason(backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end: a patched writer serving another block's glue; the sublayer verdict is
    reported, ``checked: false``, with the rejection; the honest glue is accepted and vetted."""
    honest = analyse_sublayer(ABSORBABLE, post("rmsnorm"), decide(ABSORBABLE), True, prove=True,
                              backend=backend, timeout=120)
    assert honest.checked and honest.prover is not None and "statement vetted" in honest.prover.message
    theirs = glue(ABSORBABLE_2, post("rmsnorm"))
    monkeypatch.setattr(sublayer, "certificate_for", lambda i, b, s: theirs)
    rep = analyse_sublayer(ABSORBABLE, post("rmsnorm"), decide(ABSORBABLE), True, prove=True,
                           backend=backend, timeout=120)
    doc = rep.to_json()
    assert doc["verdict"] == "absorbable" and doc["checked"] is False
    assert doc["prover"]["outcome"] == "rejected" and "certificate rejected: not checked" in doc["reason"]


def test_nothing_to_vet_is_not_accepted() -> None:
    cert = prenorm_certificate(RELU, 2, 2, "layernorm", EPS, False)
    res = run_certificate(cert, (), NoProver(), timeout=1)
    assert res.rejected and "no expected statement" in res.message


def test_driver_loads_a_glue_once_and_vets_both_theorems() -> None:
    cert = glue(GENERIC, post("rmsnorm"))
    bare = decide(GENERIC)
    claims, note = sublayer_claims(GENERIC, bare, decide_sublayer(GENERIC, post("rmsnorm"), bare),
                                   cert.as_certificate())
    assert [c.theorem for c in claims] == ["verdict_bare", "verdict"] and "agree exactly" in note
    drv = write_driver([(cert.stem, cert.source, c) for c in claims], count=False)  # as sublayer.py writes it
    assert len(drv.files) == 1 and drv.source.count("Load ") == 1
    assert f"exact Slot_{drv.tag}_0.Cert.verdict_bare. Qed." in drv.source
    assert f"exact Slot_{drv.tag}_0.Cert.verdict. Qed." in drv.source
    # the glue's claim is written from the instance: its data are the instance's, eps included
    assert "Definition eps_s : Rdefinitions.R := IZR (1%Z) / IZR (100000%Z)." in drv.source
    assert "rms_norm d eps_s gam_s bet_s" in claims[1].claim and "gam_s i <> 0" in claims[1].claim
