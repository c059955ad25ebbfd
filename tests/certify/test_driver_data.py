"""The certificate's claim data read once (issue 18): the driver loads each certificate with
its marked data replaced by aliases of the instance's (trusted) data, and nothing a
certificate does with that marking gets an untrue verdict through."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import RELU, generic_instance, planted

from pybridge.certify import pipeline
from pybridge.certify.driver import write_driver
from pybridge.certify.encoding import DATA_BEGIN, DATA_END, MalformedData, data_region
from pybridge.certify.kinds import Certificate
from pybridge.certify.pipeline import build_certificate, certify
from pybridge.certify.statement import StatementMismatch, expected_statement
from pybridge.coq import CoqBackend
from pybridge.decision import decide
from pybridge.model import Instance
from pybridge.prover import ProverOutcome


def _float_block() -> Instance:
    """float32 weights (numerators wider than residues: the partial certificate is on residues)."""
    import numpy as np

    from pybridge.exact.arrays import ArrayMatrix

    rng = np.random.default_rng(4)
    return Instance(RELU, ArrayMatrix(rng.standard_normal((30, 6)).astype(np.float32)),
                    ArrayMatrix(rng.standard_normal((6, 30)).astype(np.float32)))


def _absorbable(seed: int) -> Instance:
    A, B, _ = planted(3, 8, seed)
    return Instance(RELU, A, B)


def _cert(inst: Instance) -> Certificate:
    cert = build_certificate(inst, decide(inst))
    assert cert is not None
    return cert


def _region(source: str) -> str:
    """The text between the markers (exclusive), one region expected."""
    a, b = source.index(DATA_BEGIN), source.index(DATA_END)
    return source[a + len(DATA_BEGIN) + 1:b]


_DISPATCH = pipeline._dispatch


def _serving(monkeypatch: pytest.MonkeyPatch, make) -> None:
    """A patched writer: the pipeline's dispatcher returns ``make(honest certificate)``."""
    monkeypatch.setattr(pipeline, "_dispatch", lambda i, d: make(_DISPATCH(i, d)))


class NoProver:
    """Fails the test if the prover is asked."""

    name = "none"

    def check_files(self, *a, **k):  # pragma: no cover - must not be reached
        raise AssertionError("the prover ran")


# ------------------------------------------------------------------ the marking and the slot


def test_writers_mark_the_claim_data():
    residues = ("d", "n", "R", "R2", "dA", "dB", "p", "pg", "RAp", "CBp", "RAg", "CBg")
    plain = ("d", "n", "dA", "dB", "RA", "CB")
    for inst, names_used in ((_absorbable(1), plain), (generic_instance(3, 8, 2), plain),
                             (_float_block(), residues)):
        cert = _cert(inst)
        region = data_region(cert.source)
        assert region is not None
        assert set(names_used) <= set(region.names)
        exp = expected_statement(inst, decide(inst), cert)
        assert all(re.search(rf"\b{x}\b", exp.claim) for x in names_used if x not in ("dA", "dB"))


def test_slot_reads_aliases_of_the_instance_data():
    inst = _absorbable(1)
    cert = _cert(inst)
    drv = write_driver([(cert.stem, cert.source, expected_statement(inst, decide(inst), cert))], tag="T")
    (stem, slot), = drv.files
    assert stem == drv.loads[0] == f"Vet_{drv.kept[0]}" and drv.originals == ((drv.kept[0], cert.source[:-len(
        "Print Assumptions Cert.verdict.\n")]),)
    for x in ("d", "n", "dA", "dB", "RA", "CB"):
        assert f"Definition {x} := Expected_T_0.{x}." in slot
        assert f"same_T_0_{x}" not in drv.source
    assert "rows_of" not in _region(slot)  # the literals are read once, in Expected_T_0
    assert "Strategy expand [Slot_T_0.Cert.d Slot_T_0.Cert.n" in drv.source
    assert slot.replace(_region(slot), "") == cert.source[:-len("Print Assumptions Cert.verdict.\n")].replace(
        _region(cert.source), "")  # every other line as written


def test_only_data_written_as_the_instance_is_aliased():
    """An edited datum is the certificate's own, compared by the VM (``same_*``)."""
    inst = _absorbable(1)
    cert = _cert(inst)
    src = re.sub(r"Definition dA : Z := \((\d+)\)%Z\.", lambda m: f"Definition dA : Z := ({2 * int(m.group(1))})%Z.",
                 cert.source, count=1)
    drv = write_driver([(cert.stem, src, expected_statement(inst, decide(inst), cert))], tag="T")
    slot = drv.files[0][1]
    assert "Definition dA : Z := (2)%Z." in slot and "Definition RA := Expected_T_0.RA." in slot
    assert "Lemma same_T_0_dA" in drv.source and "same_T_0_RA" not in drv.source
    assert "rewrite <- same_T_0_dA." in drv.source


def test_several_claims_of_one_certificate_alias_the_first():
    inst = _absorbable(1)
    cert = _cert(inst)
    exp = expected_statement(inst, decide(inst), cert)
    drv = write_driver([(cert.stem, cert.source, exp), (cert.stem, cert.source, exp)], tag="T")
    assert len(drv.files) == 1 and drv.loads == (drv.loads[0],) * 2
    assert "Definition RA := Expected_T_0.RA." in drv.files[0][1]
    # the second claim's module, written alike, names the first's constants: nothing to compare
    assert "Definition RA := Expected_T_0.RA." in drv.source.split("Module Expected_T_1.")[1]
    assert "same_T_" not in drv.source and "Strategy expand [Expected_T_1.d Expected_T_1.n" in drv.source


def test_claims_written_differently_are_compared():
    """A second claim whose data are written otherwise: its data are compared by the VM."""
    inst = _absorbable(1)
    cert = _cert(inst)
    exp = expected_statement(inst, decide(inst), cert)
    other = replace(exp, write=lambda w: (w.add("Definition pad : nat := 0%nat."), exp.write(w)))
    drv = write_driver([(cert.stem, cert.source, exp), (cert.stem, cert.source, other)], tag="T")
    assert "Lemma same_T_1_RA : Slot_T_0.Cert.RA = Expected_T_1.RA." in drv.source
    assert "same_T_0_" not in drv.source


def test_a_certificate_without_marking_is_compared_as_before():
    inst = _absorbable(1)
    cert = _cert(inst)
    src = cert.source.replace(DATA_BEGIN + "\n", "").replace(DATA_END + "\n", "")
    drv = write_driver([(cert.stem, src, expected_statement(inst, decide(inst), cert))], tag="T")
    assert drv.files[0][0] == drv.kept[0] and drv.originals == () and "Strategy" not in drv.source
    assert all(f"Lemma same_T_0_{x} " in drv.source for x in ("d", "n", "dA", "dB", "RA", "CB"))


# ------------------------------------------------------------------ malformed marking


def _malformed(source: str) -> list[tuple[str, str]]:
    a, b = source.index(DATA_BEGIN), source.index(DATA_END)
    first = source.index("\n", a) + 1
    return [
        ("is not closed", source.replace(DATA_END + "\n", "")),
        ("not opened", source.replace(DATA_BEGIN + "\n", "")),
        ("opened again", source[:first] + DATA_BEGIN + "\n" + source[first:]),
        ("not one `Definition", source[:first] + "Lemma x : True.\nProof. exact I. Qed.\n" + source[first:]),
        ("not a claim-data marker", source[:b] + "(* pybridge: claim data *)\n" + source[b:]),
        ("not one `Definition", source[:first] + "Definition split :=\n  0.\n" + source[first:]),
    ]


def test_malformed_regions_are_refused_with_the_reason():
    inst = _absorbable(1)
    cert = _cert(inst)
    for why, src in _malformed(cert.source):
        with pytest.raises(MalformedData, match=re.escape(why)):
            data_region(src)
        with pytest.raises(StatementMismatch, match="not well marked"):
            expected_statement(inst, decide(inst), replace(cert, source=src))


def test_malformed_region_rejected_before_the_prover(monkeypatch: pytest.MonkeyPatch):
    inst = _absorbable(1)
    for why, src in _malformed(_cert(inst).source):
        _serving(monkeypatch, lambda cert, src=src: replace(cert, source=src))
        res = certify(inst, decide(inst), NoProver())  # type: ignore[arg-type]
        assert res is not None and res.rejected
        assert res.message.startswith("statement not vetted: the certificate's claim data are not well marked")
        assert why in res.message and "\n" not in res.message


# ------------------------------------------------------------------ what Coq makes of attacks


@pytest.mark.coq
def test_honest_certificate_kept_as_written(backend: CoqBackend, tmp_path: Path):
    inst = generic_instance(3, 8, 2)
    res = certify(inst, decide(inst), backend, keep_dir=tmp_path)
    assert res is not None and res.accepted, res.message[-600:]
    kept = Path(res.kept_path or "").read_text()
    assert "Expected_" not in kept and DATA_BEGIN in kept
    assert backend.check_file(kept, stem="Kept", timeout=120).accepted  # it compiles on its own
    driver, = (p for p in tmp_path.glob("Vet_*.v") if "Load" in p.read_text())
    slot = re.search(r'Load "\./([A-Za-z0-9_]+)\.v"', driver.read_text()).group(1)
    assert slot == f"Vet_{Path(res.kept_path or '').stem}" and "Expected_" in (tmp_path / f"{slot}.v").read_text()


@pytest.mark.coq
@pytest.mark.parametrize("where", ["after", "before"])
def test_redefined_aliased_datum_rejected(backend: CoqBackend, monkeypatch: pytest.MonkeyPatch, where: str):
    """The certificate defines ``RA`` again (another instance's rows) after its region, or
    before it: the driver's alias is one of two definitions of the name, which Coq refuses."""
    inst, other = _absorbable(1), _absorbable(2)
    ra = re.search(r"^Definition RA : .*$", _cert(other).source, re.M).group(0)

    def forge(cert: Certificate) -> Certificate:
        if where == "after":
            return replace(cert, source=cert.source.replace(DATA_END + "\n", DATA_END + "\n" + ra + "\n", 1))
        return replace(cert, source=cert.source.replace(DATA_BEGIN + "\n", ra + "\n" + DATA_BEGIN + "\n", 1))

    _serving(monkeypatch, forge)
    res = certify(inst, decide(inst), backend)
    assert res is not None and res.rejected and "RA already exists" in res.message, res.message[-600:]


def _their_proof_with_my_region(mine: str, theirs: str, data: str) -> str:
    """Another instance's certificate whose marked region is the instance's (so it is aliased),
    and ``data`` right after it."""
    return theirs.replace(_region(theirs), _region(mine), 1).replace(DATA_END + "\n", DATA_END + "\n" + data, 1)


@pytest.mark.coq
def test_data_in_a_nested_module_not_accepted(backend: CoqBackend, monkeypatch: pytest.MonkeyPatch):
    """The instance's data in the region (aliased), another instance's data in a module
    imported after it, so that the proof and the statement read those: Coq does not accept
    the vetted lemma (the proved statement is about other data). Conversion unfolds the
    real-number terms of both statements to find that out: a timeout, not a quick rejection
    (as before the aliases: the ``same_*`` lemmas compared the certificate's module's own
    data, not those its statement reads)."""
    inst, other = _absorbable(1), _absorbable(2)
    mine, theirs = _cert(inst), _cert(other).source
    fake = f"Module Fake.\n{_region(theirs)}End Fake.\nImport Fake.\n"
    forged = _their_proof_with_my_region(mine.source, theirs, fake)
    assert backend.check_file(forged, stem="Forged", timeout=120).accepted  # it does compile, about other data
    _serving(monkeypatch, lambda cert: replace(cert, source=forged))
    res = certify(inst, decide(inst), backend, timeout=6)
    assert res is not None and not res.accepted and (res.outcome is ProverOutcome.TIMEOUT or res.message.startswith("not vetted"))


@pytest.mark.coq
def test_data_outside_the_region_compared(backend: CoqBackend, monkeypatch: pytest.MonkeyPatch):
    """The data out of the marked region (the region left empty): compared by the VM. Another
    instance's data are rejected there; the instance's own prove the trusted claim."""
    inst, other = _absorbable(1), _absorbable(2)

    def moved(source: str) -> str:
        return source.replace(_region(source), "", 1).replace(DATA_END + "\n", DATA_END + "\n" + _region(source), 1)

    theirs = _cert(other)
    _serving(monkeypatch, lambda cert: replace(theirs, source=moved(theirs.source)))
    res = certify(inst, decide(inst), backend)
    assert res is not None and res.rejected and "Slot_" in res.message, res.message[-600:]
    _serving(monkeypatch, lambda cert: replace(cert, source=moved(cert.source)))
    res = certify(inst, decide(inst), backend)
    assert res is not None and res.accepted and "vetted" in res.message, res.message[-600:]


@pytest.mark.coq
def test_data_under_other_names(backend: CoqBackend, monkeypatch: pytest.MonkeyPatch):
    """The region defines ``RAx``, ``CBx``; ``RA := RAx`` and ``CB := CBx`` follow it: not
    aliases, so compared by the VM (another instance's rejected, the instance's accepted)."""
    def renamed(source: str) -> str:
        region = _region(source)
        other = re.sub(r"^Definition (RA|CB) ", r"Definition \1x ", region, flags=re.M)
        names = "Definition RA : list (list int) := RAx.\nDefinition CB : list (list int) := CBx.\n"
        return source.replace(region, other, 1).replace(DATA_END + "\n", DATA_END + "\n" + names, 1)

    inst, other = _absorbable(1), _absorbable(2)
    theirs = _cert(other)
    _serving(monkeypatch, lambda cert: replace(theirs, source=renamed(theirs.source)))
    res = certify(inst, decide(inst), backend)
    assert res is not None and res.rejected and "Slot_" in res.message, res.message[-600:]
    _serving(monkeypatch, lambda cert: replace(cert, source=renamed(cert.source)))
    res = certify(inst, decide(inst), backend)
    assert res is not None and res.accepted, res.message[-600:]
