"""``scan`` checks the certificates of several layers in one coqc run: the same per-layer
verdicts, theorems and ``checked`` as one run per layer, with fewer coqc runs; a tampered
certificate in a batch is rejected alone while its neighbours stay checked; a batch run
that times out or crashes falls back to one run per layer; resuming a partial report works
with batches. Real Coq certificates (the ``backend`` fixture), small generated layers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional, Sequence

import pytest
from test_scan import essentials, opt_checkpoint

import pybridge.scanning as scanning
from pybridge.coq.backend import CoqBackend
from pybridge.prover import ProverOutcome, ProverResult
from pybridge.scanning import batch_memory, batch_size, layer_memory, plan_batches, scan

GB = 2**30


class Counting:
    """A backend that counts coqc runs (and the certificates each loads), and can tamper
    with the certificate at ``tamper`` of the first run loading several, in that run and
    every later run loading the same certificate; or answer ``batch_outcome`` instead of
    running coqc on a run with several certificates."""

    def __init__(self, real: CoqBackend, tamper: Optional[int] = None,
                 batch_outcome: Optional[ProverOutcome] = None, axiom: bool = False) -> None:
        self.real, self.tamper, self.batch_outcome, self.axiom = real, tamper, batch_outcome, axiom
        self.name = real.name
        self.runs: list[int] = []
        self.messages: list[str] = []
        self.bad: Optional[str] = None

    def check_files(self, files: Sequence[tuple[str, str]], *, main: str, timeout: float,
                    keep_dir: Optional[Path] = None) -> ProverResult:
        certs = [stem for stem, _ in files if stem != main]
        self.runs.append(len(certs))
        if self.tamper is not None and self.bad is None and len(certs) > self.tamper:
            self.bad = certs[self.tamper]
        if self.bad in certs:
            proof = "vm_cast_no_check (eq_refl true)"
            assert proof in dict(files)[self.bad]
            # a proof Coq refuses, or (axiom) one it accepts from an axiom the file declares
            cheat = (lambda src: src.replace("Module Cert.", "Module Cert.\nAxiom cheat : forall P : Prop, P.", 1)
                     .replace(proof, "exact (cheat _)", 1)) if self.axiom else (
                lambda src: src.replace(proof, "exact I", 1))
            files = [(stem, cheat(src) if stem == self.bad else src) for stem, src in files]
        if self.batch_outcome is not None and len(certs) > 1:
            return ProverResult(self.batch_outcome, 1.0, "coqc: killed (simulated)", prover=self.name)
        res = self.real.check_files(files, main=main, timeout=timeout, keep_dir=keep_dir)
        self.messages.append(res.message)
        return res

    def __getattr__(self, name: str):
        return getattr(self.real, name)


# ------------------------------------------------------------------ planning (no Coq)


def planned(count: int, d: int = 768, n: int = 3072) -> list:
    return [scanning._Planned(i, i, f"h.{i}", None, layer_memory(d, n), shape=(d, n))  # type: ignore[arg-type]
            for i in range(count)]


def test_batch_size_about_two_runs_per_worker() -> None:
    assert batch_size(12, 2) == 3 and batch_size(12, 1) == 6 and batch_size(4, 2) == 1
    assert batch_size(1000, 2) == scanning.MAX_BATCH_LAYERS and batch_size(0, 2) == 1


def test_gpt2_small_scan_with_two_jobs_has_four_coqc_runs() -> None:
    batches = plan_batches(planned(12), 2, 20 * GB, prove=True)
    assert [[p.slot for p in b.layers] for b in batches] == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]
    assert all(b.memory == batch_memory([(768, 3072)] * 3) for b in batches)


def test_batches_stay_within_the_memory_of_one_worker() -> None:
    one = layer_memory(2048, 8192)
    assert batch_memory([(2048, 8192)]) == one
    assert batch_memory([(2048, 8192)] * 2) > one + 8 * 2 * 2048 * 8192  # weights held + coqc's share
    # 12 GB for two workers: 6 GB each, room for two OPT-1.3B layers per batch, never three
    batches = plan_batches(planned(6, 2048, 8192), 2, 12 * GB, prove=True, size=3)
    assert all(b.memory <= 6 * GB for b in batches) and [len(b.layers) for b in batches] == [2, 2, 2]
    # a budget one layer barely fits: every layer alone (as before batching)
    assert [len(b.layers) for b in plan_batches(planned(4, 2048, 8192), 2, one, prove=True)] == [1] * 4
    # a cluster's budget is per worker: not divided among the batches running at once
    assert [len(b.layers) for b in plan_batches(planned(6, 2048, 8192), 2, 6 * GB, prove=True, size=3)] == [1] * 6
    assert [len(b.layers) for b in plan_batches(planned(6, 2048, 8192), 2, 6 * GB, prove=True, size=3,
                                                sharing=1)] == [2, 2, 2]
    # no prover: nothing to share, one layer per batch
    assert [len(b.layers) for b in plan_batches(planned(12), 2, None, prove=False)] == [1] * 12


def test_batch_option_checked(tmp_path: Path) -> None:
    ckpt = opt_checkpoint(tmp_path / "opt", layers=1)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(scanning.InputError, match="batch"):
            scan(ckpt, prove=False, batch=bad)  # type: ignore[arg-type]


# ------------------------------------------------------------------ with Coq


def coqc_runs(doc: dict) -> float:
    """The coqc runs a report says its layers took (each shared by coqc_run_layers layers)."""
    return sum(1 / e["timings"]["coqc_run_layers"] for e in doc["layers"])


@pytest.mark.slow
@pytest.mark.coq
def test_batched_scan_same_verdicts_fewer_coqc_runs(backend: CoqBackend, tmp_path: Path) -> None:
    ckpt = opt_checkpoint(tmp_path / "opt", layers=4, absorbable=(1,))
    alone, batched = Counting(backend), Counting(backend)
    one = scan(ckpt, backend=alone, batch=1).to_json()
    many = scan(ckpt, backend=batched).to_json()  # jobs=1: batch_size(4, 1) == 2
    assert alone.runs == [1, 1, 1, 1] and batched.runs == [2, 2]
    assert essentials(many) == essentials(one)
    assert [e["verdict"] for e in many["layers"]] == ["not_absorbable", "absorbable", "not_absorbable",
                                                      "not_absorbable"]
    assert all(e["checked"] and e["prover"]["outcome"] == "accepted" for e in many["layers"])
    for e in many["layers"]:  # each layer's own vetted theorem and assumptions
        assert "statement vetted against the instance" in e["prover"]["message"]
        # each layer's own axioms, counted part by part (certify/accounting.py)
        assert "; axioms: " in e["prover"]["message"]
        t = e["timings"]
        assert t["coqc_run_layers"] == 2 and t["certify"] >= t["coqc_run"] / 2 > 0 and "coqc_runs" not in t
    assert coqc_runs(many) == 2 and coqc_runs(one) == 4

    # two worker processes: each worker's batch in one run (4 layers, batch 2: two runs)
    pool = scan(ckpt, backend=backend, jobs=2, batch=2).to_json()
    assert essentials(pool) == essentials(one) and coqc_runs(pool) == 2


@pytest.mark.slow
@pytest.mark.coq
def test_a_tampered_certificate_in_a_batch_is_rejected_alone(backend: CoqBackend, tmp_path: Path) -> None:
    ckpt = opt_checkpoint(tmp_path / "opt", layers=3, absorbable=(2,))
    tampering = Counting(backend, tamper=1)
    doc = scan(ckpt, backend=tampering, batch=3).to_json()
    # the batch fails; coqc names the bad certificate: it runs alone, the two others together
    assert tampering.runs == [3, 1, 2], tampering.messages[0][-600:]
    layers = doc["layers"]
    assert [e["checked"] for e in layers] == [True, False, True]
    assert layers[1]["prover"]["outcome"] == "rejected" and layers[1]["verdict"] == "not_absorbable"
    assert [e["prover"]["outcome"] for e in (layers[0], layers[2])] == ["accepted", "accepted"]
    assert layers[0]["timings"]["coqc_runs"] == 2 and layers[0]["timings"]["coqc_run_layers"] == 2
    assert layers[1]["timings"]["coqc_run_layers"] == 1


@pytest.mark.coq
def test_a_certificate_with_an_axiom_in_a_batch_is_rejected_alone(backend: CoqBackend, tmp_path: Path) -> None:
    """The run's axioms are printed once, for its vetted theorems together: one certificate
    proving a check from its own axiom makes the run's list disallowed, so each certificate
    is checked alone; only that one is rejected."""
    ckpt = opt_checkpoint(tmp_path / "opt", layers=3)
    cheating = Counting(backend, tamper=1, axiom=True)
    doc = scan(ckpt, backend=cheating, batch=3).to_json()
    assert cheating.runs == [3, 1, 1, 1]
    assert "Cert.cheat" in cheating.messages[0]  # coqc accepted the run; its axioms name the cheat
    layers = doc["layers"]
    assert [e["checked"] for e in layers] == [True, False, True]
    assert layers[1]["prover"]["outcome"] == "rejected" and "disallowed assumptions" in layers[1]["prover"]["message"]
    assert "Cert.cheat" in layers[1]["prover"]["message"]
    for e in (layers[0], layers[2]):
        assert e["prover"]["outcome"] == "accepted" and "axioms: " in e["prover"]["message"]
        assert "cheat" not in e["prover"]["message"]


@pytest.mark.coq
@pytest.mark.parametrize("failure", [ProverOutcome.TIMEOUT, ProverOutcome.REJECTED])
def test_a_batch_run_that_fails_whole_falls_back_to_one_run_per_layer(backend: CoqBackend, tmp_path: Path,
                                                                        failure: ProverOutcome) -> None:
    """A run that times out or dies without naming a certificate: each layer checked alone,
    never a ``checked`` the batch run did not earn."""
    ckpt = opt_checkpoint(tmp_path / "opt", layers=2, absorbable=())
    failing = Counting(backend, batch_outcome=failure)
    doc = scan(ckpt, backend=failing, batch=2).to_json()
    assert failing.runs == [2, 1, 1]
    assert all(e["checked"] and e["prover"]["outcome"] == "accepted" for e in doc["layers"])
    assert all(e["timings"]["coqc_runs"] == 2 and e["timings"]["coqc_run_layers"] == 1 for e in doc["layers"])

    # and when the layers alone also fail: their own status, never checked
    class Dead(Counting):
        def check_files(self, files, *, main, timeout, keep_dir=None):
            self.runs.append(len(files) - 1)
            return ProverResult(failure, 1.0, "coqc: killed (simulated)", prover=self.name)

    dead = Dead(backend)
    doc = scan(ckpt, backend=dead, batch=2).to_json()
    assert dead.runs == [2, 1, 1]
    assert all(not e["checked"] and e["prover"]["outcome"] == failure.value for e in doc["layers"])


@pytest.mark.slow
@pytest.mark.coq
def test_resume_after_a_partial_report_with_batches(backend: CoqBackend, tmp_path: Path) -> None:
    ckpt = opt_checkpoint(tmp_path / "opt", layers=4, absorbable=(3,))
    report = tmp_path / "scan.json"
    whole = scan(ckpt, backend=backend, json_out=report, batch=2).to_json()
    # as a scan killed during its second batch leaves it: the first batch recorded, the rest pending
    partial = json.loads(report.read_text())
    partial["complete"] = False
    for e in partial["layers"][2:]:
        for key in list(e):
            if key not in ("layer", "family", "note", "digest", "memory_estimate"):
                del e[key]
        e.update(status="pending", verdict=None, checked=False, sublayer=None)
    report.write_text(json.dumps(partial))
    counting = Counting(backend)
    again = scan(ckpt, backend=counting, json_out=report, resume=True, batch=2)
    assert again.resumed == 2 and counting.runs == [2]  # the two layers left, in one run
    doc = again.to_json()
    assert doc["complete"] is True and essentials(doc) == essentials(whole)
    assert [e.get("resumed", False) for e in doc["layers"]] == [True, True, False, False]
    assert json.loads(report.read_text()) == doc


def test_culprit_read_from_the_error_location() -> None:
    """Which certificate a failed run's error is about: the one whose file, module, lemma or
    check holds the error's line; None when the output names none (a timeout, a crash)."""
    from pybridge.certify.driver import Driver
    from pybridge.certify.pipeline import culprit

    lines = ["Module Expected_T_0.", "End Expected_T_0.", "Module Expected_T_1.", "End Expected_T_1.",
             "Module Slot_T_0.", 'Load "./C0.v".', "End Slot_T_0.", "Module Slot_T_1.", 'Load "./C1.v".',
             "End Slot_T_1.", "Lemma same_T_1_RA : Slot_T_1.Cert.RA = Expected_T_1.RA.", "Proof. Qed.",
             "Lemma vetted_T_0 : Expected_T_0.claim.", "Proof. Qed."]
    drv = Driver("Vet_x", "\n".join(lines) + "\n", (("C0", ""), ("C1", "")), "T", ("C0", "C1"))

    def at(stem: str, line: int) -> str:
        return f'File "/tmp/pybridge-coq-abc/{stem}.v", line {line}, characters 0-42:\nError: no.'

    assert [culprit(at("Vet_x", k), drv) for k in (6, 9, 11, 12, 13, 14)] == [0, 1, 1, 1, 0, 0]
    assert culprit(at("C1", 3), drv) == 1 and culprit('File "./C0.v", line 1, characters 1-2:', drv) == 0
    assert culprit(at("Vet_x", 2), drv) == 0  # inside Expected_T_0
    assert culprit(at("Other", 3), drv) is None and culprit("coqc timed out after 10 s", drv) is None
    assert culprit("Killed", drv) is None
    big = Driver("Vet_x", "Module Slot_T_7.\n", (), "T", ("C0", "C1"))
    assert culprit(at("Vet_x", 1), big) is None  # names no certificate of this run


def test_cli_batch_option(capsys, tmp_path: Path) -> None:
    from test_scan import run

    ckpt = opt_checkpoint(tmp_path / "opt", layers=2)
    code, out, err = run(capsys, "scan", str(ckpt), "--no-prove", "--batch", "0")
    assert code == 2 and out == "" and "--batch" in err
    code, out, err = run(capsys, "scan", str(ckpt), "--no-prove", "--batch", "2", "--json-out", str(tmp_path / "r.json"))
    assert code == 0, err
    doc = json.loads((tmp_path / "r.json").read_text())
    assert [e["status"] for e in doc["layers"]] == ["ok", "ok"] and doc["complete"] is True


@pytest.mark.slow
@pytest.mark.coq
def test_cluster_batches_give_the_pool_report(backend: CoqBackend, tmp_path: Path) -> None:
    """Batches on a local two-worker Dask cluster: the same report as the process pool, each
    batch's layers streaming back into the progress callback one by one."""
    distributed = pytest.importorskip("distributed")
    ckpt = opt_checkpoint(tmp_path / "opt", layers=3, absorbable=(1,))
    pool = scan(ckpt, backend=backend, jobs=2, batch=2, json_out=tmp_path / "pool.json").to_json()
    seen: list[tuple[int, int, str]] = []
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=":0") as cluster:  # any free port
        doc = scan(ckpt, cluster=cluster.scheduler_address, batch=2, json_out=tmp_path / "cluster.json",
                   progress=lambda k, t, name: seen.append((k, t, name))).to_json()
    assert essentials(doc) == essentials(pool) and all(e["checked"] for e in doc["layers"])
    assert coqc_runs(doc) == coqc_runs(pool) == 2
    assert [k for k, _, _ in seen] == [0, 1, 2, 3]
