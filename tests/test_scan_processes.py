"""``scan`` as processes: a scan killed with SIGKILL keeps every finished layer and resumes
to the same report; SIGTERM ends the workers (and their coqc) within seconds; a local
two-worker Dask cluster gives the same report as the process pool. Real subprocesses and
real Coq certificates (the ``backend`` fixture)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_scan import essentials, opt_checkpoint

from pybridge.scanning import scan

PYBRIDGE = [sys.executable, "-m", "pybridge.cli"]


def children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            out += [int(c) for c in (task / "children").read_text().split()]
    except OSError:
        pass
    return out


def descendants(pid: int) -> set[int]:
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children(todo.pop()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def running(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def wait_for(condition, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def finished_layers(report: Path) -> int:
    try:
        doc = json.loads(report.read_text())
    except (OSError, ValueError):
        return 0
    return sum(e["status"] == "ok" for e in doc["layers"])


@pytest.mark.slow
def test_sigkill_keeps_finished_layers_and_resume_completes(backend, tmp_path: Path) -> None:
    layers = 4
    ckpt = opt_checkpoint(tmp_path / "opt", layers=layers, absorbable=(1,))
    report = tmp_path / "scan.json"
    argv = [*PYBRIDGE, "scan", str(ckpt), "--json-out", str(report), "--jobs", "2"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        wait_for(lambda: finished_layers(report) >= 1, 180, "a first finished layer")
        family = descendants(proc.pid)
        proc.kill()
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    killed = json.loads(report.read_text())  # a whole JSON document, never a partial file
    kept = [e for e in killed["layers"] if e["status"] == "ok"]
    assert killed["complete"] is False and 1 <= len(kept) < layers
    assert all(e["checked"] and e["digest"].startswith("sha256:") for e in kept)
    # the workers (and their coqc) end with the scan, even killed with SIGKILL
    wait_for(lambda: not any(running(p) for p in family), 10, "the workers to end")

    done = subprocess.run([*argv, "--resume"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"({len(kept)} layers kept from the earlier report)" in done.stdout
    resumed = json.loads(report.read_text())
    assert resumed["complete"] is True and resumed["summary"]["resumed"] == len(kept)
    for before in kept:  # finished layers are not analysed again
        after = next(e for e in resumed["layers"] if e["layer"] == before["layer"])
        assert after["resumed"] is True and after["timings"] == before["timings"]

    whole = scan(ckpt, backend=backend, json_out=tmp_path / "whole.json").to_json()
    assert essentials(resumed) == essentials(whole)
    assert [e["verdict"] for e in whole["layers"]] == [
        "absorbable" if i == 1 else "not_absorbable" for i in range(layers)]
    assert all(e["checked"] for e in whole["layers"])


def test_sigterm_ends_the_workers_within_seconds(backend, tmp_path: Path) -> None:
    ckpt = opt_checkpoint(tmp_path / "opt", layers=6)
    proc = subprocess.Popen([*PYBRIDGE, "scan", str(ckpt), "--jobs", "2"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        # both workers deep in their layers: Coq (coqtop -batch, or coqc) running under them
        wait_for(lambda: any(re.search(r"\bcoq(c|top)\b", cmdline(p)) for p in descendants(proc.pid)), 180,
                 "Coq under a worker")
        family = descendants(proc.pid)
        workers = [p for p in family if "python" in cmdline(p)]
        assert len(workers) >= 2, [cmdline(p) for p in family]  # two workers (and the resource tracker)
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(10)
        wait_for(lambda: not any(running(p) for p in family), 5, "the workers, coqc, the resource tracker")
        elapsed = time.monotonic() - start
    finally:
        if proc.poll() is None:
            proc.kill()
    assert code == 130 and proc.stderr is not None
    assert proc.stderr.read().strip() in ("pybridge: interrupted", "pybridge: aborted")
    assert elapsed < 6


@pytest.mark.slow
def test_local_cluster_gives_the_process_pool_report(backend, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    ckpt = opt_checkpoint(tmp_path / "opt", layers=3, absorbable=(1,))
    pool = scan(ckpt, backend=backend, jobs=2, json_out=tmp_path / "pool.json").to_json()
    seen: list[tuple[int, int, str]] = []
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=":0") as cluster:  # any free port
        result = scan(ckpt, cluster=cluster.scheduler_address, json_out=tmp_path / "cluster.json",
                      progress=lambda k, t, name: seen.append((k, t, name)))
    doc = result.to_json()
    assert essentials(doc) == essentials(pool)
    assert [e["verdict"] for e in doc["layers"]] == ["not_absorbable", "absorbable", "not_absorbable"]
    assert all(e["checked"] for e in doc["layers"])
    # results stream back one by one into the progress callback and the recorded report
    assert seen[0][:2] == (0, 3) and seen[-1][:2] == (3, 3) and len(seen) == 4
    assert json.loads((tmp_path / "cluster.json").read_text()) == doc


def test_cluster_address_unreachable_is_one_line(capsys, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    from test_scan import run

    ckpt = opt_checkpoint(tmp_path / "opt", layers=1)
    code, out, err = run(capsys, "scan", str(ckpt), "--no-prove", "--cluster", "nonsense://nowhere")
    assert code == 2 and out == "" and err.startswith("pybridge: error: --cluster") and err.count("\n") == 1


@pytest.mark.skipif(not hasattr(os, "setpgid"), reason="POSIX process groups")
def test_pool_close_on_error_leaves_no_worker(tmp_path: Path, monkeypatch) -> None:
    """An error in the main process mid-scan (here a failing report write) ends the workers."""
    import pybridge.scanning as scanning

    ckpt = opt_checkpoint(tmp_path / "opt", layers=4)
    calls = {"n": 0}
    real = scanning.atomic_write_text

    def failing(path, text):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(28, "No space left on device")
        real(path, text)

    monkeypatch.setattr(scanning, "atomic_write_text", failing)
    before = descendants(os.getpid())
    with pytest.raises(OSError):
        scan(ckpt, prove=False, jobs=2, json_out=tmp_path / "scan.json")
    # (the resource tracker lives as long as this process: only the workers must end)
    wait_for(lambda: not any(running(p) and "spawn_main" in cmdline(p) for p in descendants(os.getpid()) - before),
             10, "the workers to end")


def test_a_killed_worker_loses_no_layer(tmp_path: Path) -> None:
    """A worker killed mid-scan (as the out-of-memory killer would): its layers run again,
    alone, in a new pool; the report is whole. (12 layers: with 4, all could be done before
    the first progress report reached this process, and the kill would hit an idle pool.)"""
    ckpt = opt_checkpoint(tmp_path / "opt", layers=12, absorbable=(2,))
    killed: list[int] = []
    before = descendants(os.getpid())

    def kill_a_worker(k: int, total: int, name: str) -> None:
        if killed:
            return
        workers = [p for p in descendants(os.getpid()) - before if "spawn_main" in cmdline(p)]
        assert workers
        os.kill(workers[0], signal.SIGKILL)
        killed.append(workers[0])

    doc = scan(ckpt, prove=False, jobs=2, progress=kill_a_worker).to_json()
    assert killed
    assert [e["status"] for e in doc["layers"]] == ["ok"] * 12
    assert [e["verdict"] for e in doc["layers"]] == ["not_absorbable"] * 2 + ["absorbable"] + ["not_absorbable"] * 9
    assert any("after a worker process ended abruptly" in e["note"] for e in doc["layers"])


def test_an_unguarded_script_gets_a_note_that_names_the_guard(tmp_path: Path) -> None:
    """``pybridge.scan(jobs=2)`` at a script's top level: each spawned worker runs the script
    again, multiprocessing stops it, and every layer is reported lost, with a note that says
    how to call a scan from a script."""
    ckpt = opt_checkpoint(tmp_path / "opt", layers=2)
    script = tmp_path / "unguarded.py"
    script.write_text("import json, pybridge\n"
                      f"r = pybridge.scan({str(ckpt)!r}, jobs=2, prove=False)\n"
                      "print(json.dumps([(l.status, l.note) for l in r.layers]))\n")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("[")]
    assert lines, proc.stderr[-2000:]
    layers = json.loads(lines[-1])
    assert [s for s, _ in layers] == ["worker_lost", "worker_lost"]
    assert all('if __name__ == "__main__":' in note for _, note in layers)
