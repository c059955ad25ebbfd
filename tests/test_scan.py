"""``scan``: memory estimates that decide, too-large layers with their own status and exit
code, reports recorded as layers finish, resuming by digest, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers import run_main as run
from safetensors.numpy import save_file

import pybridge.scanning as scanning
from pybridge.errors import InputError
from pybridge.generate import generate
from pybridge.io import parse_activation
from pybridge.scanning import layer_memory, parse_size, scan

GB = 2**30


def opt_checkpoint(directory: Path, layers: int = 3, d: int = 4, n: int = 12, absorbable: tuple[int, ...] = (1,),
                   seed: int = 0) -> Path:
    """An OPT-style (ReLU, bias-free) checkpoint of generated exact layers; the layers in
    ``absorbable`` have a planted subset S."""
    directory.mkdir(parents=True, exist_ok=True)
    tensors = {}
    for i in range(layers):
        inst = generate(parse_activation("relu"), d, n, absorbable=i in absorbable, seed=seed + i).instance
        p = f"model.decoder.layers.{i}"
        tensors[f"{p}.fc1.weight"] = np.array([[float(x) for x in row] for row in inst.W_up], dtype=np.float32)
        tensors[f"{p}.fc2.weight"] = np.array([[float(x) for x in row] for row in inst.W_down], dtype=np.float32)
    save_file(tensors, str(directory / "model.safetensors"))
    (directory / "config.json").write_text(json.dumps(
        {"model_type": "opt", "activation_function": "relu", "num_hidden_layers": layers}))
    return directory




def essentials(doc: dict) -> list[tuple]:
    """What two scans of the same weights must agree on, layer by layer."""
    return [(e["layer"], e["status"], e.get("verdict"), e.get("result"), e.get("theorem"), e.get("checked"),
             e.get("digest")) for e in doc["layers"]]


# ------------------------------------------------------------------ the estimate


def test_layer_memory_formula() -> None:
    """base + SYSTEM_COPIES float64 (n+1) x n systems + one int64 per weight entry."""
    assert layer_memory(768, 3072) == (scanning.BASE_BYTES + int(scanning.SYSTEM_COPIES * 8 * 3073 * 3072)
                                       + scanning.WEIGHT_ENTRY_BYTES * 2 * 768 * 3072)
    assert layer_memory(2048, 8192, matrices=3) - layer_memory(2048, 8192) == 8 * 2048 * 8192
    # never below the system the exact decision eliminates on, and monotone in both dimensions
    for d, n in ((1, 1), (64, 256), (4096, 16384)):
        assert layer_memory(d, n) >= 8 * (n + 1) * n
        assert layer_memory(d + 1, n) > layer_memory(d, n) and layer_memory(d, n + 1) > layer_memory(d, n)


@pytest.mark.parametrize("name,d,n", [("GPT-2 small", 768, 3072), ("MPNet", 768, 3072),
                                      ("GPT-2 XL", 1600, 6400), ("OPT-1.3B", 2048, 8192)])
def test_real_models_fit_a_23_gb_machine_two_at_a_time(name: str, d: int, n: int) -> None:
    """With no flags these layers are analysed on a 23 GB machine, two workers at once."""
    assert 2 * layer_memory(d, n) < 20 * GB, name


def test_layer_too_large_for_any_machine_here() -> None:
    assert layer_memory(16384, 65536) > 100 * GB  # a 70B-class layer: too_large, with the estimate


@pytest.mark.parametrize("text,value", [("8G", 8 * GB), ("512MiB", 512 * 2**20), ("1.5g", 3 * GB // 2),
                                        ("1000000", 1000000), (" 2 GB ", 2 * GB), ("3k", 3072)])
def test_parse_size(text: str, value: int) -> None:
    assert parse_size(text) == value


@pytest.mark.parametrize("text", ["", "G", "-1G", "0", "8X", "1e9", "nan", "8 G B"])
def test_parse_size_rejects(text: str) -> None:
    with pytest.raises(InputError, match="--max-memory"):
        parse_size(text)


def test_available_memory_reads_meminfo() -> None:
    avail = scanning.available_memory()
    assert avail is not None and avail > 0
    text = Path("/proc/meminfo").read_text()
    kb = int(next(line for line in text.splitlines() if line.startswith("MemAvailable:")).split()[1])
    assert abs(avail - kb * 1024) < GB  # read moments apart


# ------------------------------------------------------------------ too large


def test_too_large_layers_have_their_status_and_need(tmp_path: Path) -> None:
    ckpt = opt_checkpoint(tmp_path / "opt")
    result = scan(ckpt, prove=False, max_memory=100 * 2**20)
    doc = result.to_json()
    assert [e["status"] for e in doc["layers"]] == ["too_large"] * 3
    need = layer_memory(4, 12)
    for e in doc["layers"]:
        assert e["verdict"] is None and e["checked"] is False and (e["d"], e["n"]) == (4, 12)
        assert e["memory_estimate"] == need and e["activation"] == "relu"
        assert f"needs about {scanning.human_bytes(need)}" in e["note"] and "--max-memory" in e["note"]
    assert len(result.problems) == 3 and doc["complete"] is True


def test_default_budget_is_the_memory_available(tmp_path: Path, monkeypatch) -> None:
    """No flag: the limit is MemAvailable (here pretended to be 300 MB, below any layer's base)."""
    ckpt = opt_checkpoint(tmp_path / "opt", layers=2)
    monkeypatch.setattr(scanning, "available_memory", lambda: 300 * 2**20)
    doc = scan(ckpt, prove=False).to_json()
    assert [e["status"] for e in doc["layers"]] == ["too_large"] * 2
    assert "300.0 MB available" in doc["layers"][0]["note"]
    monkeypatch.setattr(scanning, "available_memory", lambda: 23 * GB)
    doc = scan(ckpt, prove=False).to_json()
    assert [e["verdict"] for e in doc["layers"]] == ["not_absorbable", "absorbable"]


def test_max_entries_still_honoured(tmp_path: Path) -> None:
    ckpt = opt_checkpoint(tmp_path / "opt", layers=2)
    doc = scan(ckpt, prove=False, max_entries=47).to_json()
    assert [e["status"] for e in doc["layers"]] == ["too_large"] * 2
    assert "4x12 exceeds --max-entries 47" in doc["layers"][0]["note"]
    assert [e["status"] for e in scan(ckpt, prove=False, max_entries=48).to_json()["layers"]] == ["ok"] * 2


def test_cli_too_large_exits_2_with_full_report(capsys, tmp_path: Path) -> None:
    ckpt = opt_checkpoint(tmp_path / "opt", layers=2)
    report = tmp_path / "scan.json"
    code, out, err = run(capsys, "scan", str(ckpt), "--no-prove", "--max-memory", "1M", "--json-out", str(report))
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pybridge: error: ")
    assert "2 of 2 layers not analysed" in lines[0] and "too_large" in lines[0] and "needs about" in lines[0]
    assert f"report: {report.resolve()}" in out
    doc = json.loads(report.read_text())
    assert doc["complete"] is True and doc["summary"]["statuses"] == {"too_large": 2}


def test_cli_scan_errors_start_on_the_first_line(capsys, tmp_path: Path) -> None:
    """No blank line (the progress bar's) before an error."""
    save_file({"embed.weight": np.ones((3, 2), dtype=np.float32)}, str(tmp_path / "m.safetensors"))
    for argv in (["scan", str(tmp_path)], ["scan", str(tmp_path / "nothing")],
                 ["scan", str(tmp_path), "--max-memory", "lots"], ["scan", str(tmp_path), "--resume"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and err.startswith("pybridge: error: ") and err.count("\n") == 1, argv


# ------------------------------------------------------------------ recording and resuming


def test_report_recorded_with_digests_and_resumed(tmp_path: Path, monkeypatch) -> None:
    ckpt = opt_checkpoint(tmp_path / "opt")
    report = tmp_path / "scan.json"
    writes: list[dict] = []
    real = scanning.atomic_write_text
    monkeypatch.setattr(scanning, "atomic_write_text",
                        lambda path, text: (writes.append(json.loads(text)), real(path, text))[1])
    first = scan(ckpt, prove=False, json_out=report).to_json()
    # written before any layer, then once per finished layer, then complete
    assert [w["complete"] for w in writes] == [False] * 4 + [True]
    assert [sum(e["status"] == "ok" for e in w["layers"]) for w in writes] == [0, 1, 2, 3, 3]
    assert all(e["status"] == "pending" for e in writes[0]["layers"])
    assert json.loads(report.read_text()) == first
    digests = [e["digest"] for e in first["layers"]]
    assert all(d.startswith("sha256:") for d in digests) and len(set(digests)) == 3

    again = scan(ckpt, prove=False, json_out=report, resume=True)
    assert again.resumed == 3 and essentials(again.to_json()) == essentials(first)
    assert all(e["resumed"] for e in again.to_json()["layers"])

    # other weights in layer 2: only that layer is analysed again
    from safetensors.numpy import load_file

    tensors = load_file(str(ckpt / "model.safetensors"))
    tensors["model.decoder.layers.2.fc1.weight"][0, 0] += 1
    save_file(tensors, str(ckpt / "model.safetensors"))
    third = scan(ckpt, prove=False, json_out=report, resume=True).to_json()
    assert [e.get("resumed", False) for e in third["layers"]] == [True, True, False]
    assert third["layers"][2]["digest"] != digests[2] and third["summary"]["resumed"] == 2

    # another activation, or --no-prove against a proved report: nothing reused
    assert scan(ckpt, prove=False, json_out=report, resume=True, activation="gelu").resumed == 0


def test_resume_refuses_what_is_not_a_report(tmp_path: Path) -> None:
    ckpt = opt_checkpoint(tmp_path / "opt", layers=1)
    bad = tmp_path / "bad.json"
    for text in ("{", "[]", '{"layers": []}'):
        bad.write_text(text)
        with pytest.raises(InputError, match="not a pybridge scan report"):
            scan(ckpt, prove=False, json_out=bad, resume=True)
        assert bad.read_text() == text  # untouched
    with pytest.raises(InputError, match="--resume needs --json-out"):
        scan(ckpt, prove=False, resume=True)
    # no file yet: a fresh scan
    assert scan(ckpt, prove=False, json_out=tmp_path / "new.json", resume=True).resumed == 0


def test_resume_does_not_reuse_a_report_without_proofs(tmp_path: Path) -> None:
    ckpt = opt_checkpoint(tmp_path / "opt", layers=1)
    report = tmp_path / "scan.json"
    scan(ckpt, prove=False, json_out=report)
    assert scanning.recorded_layers(report, prove=True) == {}
    assert list(scanning.recorded_layers(report, prove=False)) == ["model.decoder.layers.0"]


def test_cluster_needs_the_extra(tmp_path: Path, monkeypatch) -> None:
    import sys

    ckpt = opt_checkpoint(tmp_path / "opt", layers=1)
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(InputError, match=r"absorb-bridge\[cluster\]"):
        scan(ckpt, prove=False, cluster="tcp://127.0.0.1:1")


def test_gated_layers_keyed_on_their_header(tmp_path: Path) -> None:
    """A gated layer's verdict does not depend on its weights: its digest covers roles,
    dtypes and shapes only (no 100 GB read to resume a LLaMA-70B scan)."""
    rng = np.random.default_rng(0)
    t = {}
    for i in range(2):
        p = f"model.layers.{i}.mlp"
        t[f"{p}.gate_proj.weight"] = rng.standard_normal((6, 4)).astype(np.float32)
        t[f"{p}.up_proj.weight"] = rng.standard_normal((6, 4)).astype(np.float32)
        t[f"{p}.down_proj.weight"] = rng.standard_normal((4, 6)).astype(np.float32)
    save_file(t, str(tmp_path / "model.safetensors"))
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "llama", "hidden_act": "silu"}))
    report = tmp_path / "scan.json"
    first = scan(tmp_path, prove=False, json_out=report).to_json()
    assert all(e["digest"].startswith("sha256-header:") for e in first["layers"])
    assert first["layers"][0]["digest"] == first["layers"][1]["digest"]  # same shapes
    again = scan(tmp_path, prove=False, json_out=report, resume=True)
    assert again.resumed == 2 and essentials(again.to_json()) == essentials(first)
