"""The check / scan / generate commands: exact verdicts checked by Coq, exit codes, bad input."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from helpers import run_main as run
from safetensors.numpy import save_file

import pybridge.api as api
import pybridge.checking as checking
from pybridge.io import load_instance

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"




def assert_input_error(code: int, out: str, err: str) -> None:
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pybridge: error: ")
    assert "Traceback" not in err


# ------------------------------------------------------------------ generate


def test_generate_writes_exact_planted_instance(capsys, tmp_path: Path) -> None:
    out_file = tmp_path / "g.json"
    code, out, _ = run(capsys, "generate", "--activation", "relu", "--d", "3", "--n", "6",
                       "--absorbable", "--seed", "5", "-o", str(out_file))
    assert code == 0 and "planted S=" in out and "seed=5" in out
    inst = load_instance(out_file)
    subset = json.loads(out.split("planted S=")[1].rstrip(")\n"))
    total = [[sum(inst.W_down[r][i] * inst.W_up[i][c] for i in subset) for c in range(3)] for r in range(3)]
    assert total == [[-1 if r == c else 0 for c in range(3)] for r in range(3)]


@pytest.mark.parametrize(
    "args",
    [
        ["--activation", "swiglu", "--d", "2", "--n", "3", "--absorbable"],
        ["--activation", "relu", "--d", "5", "--n", "3", "--absorbable"],
        ["--activation", "tanh", "--d", "2", "--n", "3"],
        ["--activation", "relu", "--d", "0", "--n", "3"],
        ["--activation", "relu", "--d", "2"],
    ],
)
def test_generate_bad_input(capsys, tmp_path: Path, args: list[str]) -> None:
    target = tmp_path / "g.json"
    assert_input_error(*run(capsys, "generate", *args, "-o", str(target)))
    assert list(tmp_path.iterdir()) == []


def test_generate_missing_directory(capsys, tmp_path: Path) -> None:
    assert_input_error(*run(capsys, "generate", "--activation", "relu", "--d", "2", "--n", "3",
                            "-o", str(tmp_path / "nope" / "g.json")))


# --------------------------------------------------------------- check, bad


@pytest.mark.parametrize(
    "content,extra",
    [
        ('{"activation": "relu", "W_up": [[1, 2]], "W_down": [[1]]}', []),
        ('{"activation": "relu", "W_up": [[NaN]], "W_down": [[1]]}', []),
        ('{"activation": "relu", "W_up": [[1]], "W_down": [[1]]', []),
        ('{"activation": "swiglu", "W_up": [[1]], "W_down": [[1]]}', []),
        ('{"activation": "relu", "W_up": [[1]], "W_down": [[1]], "W_gate": [[1]]}', []),
        ('{"activation": "relu", "W_up": [[1]], "W_down": [[1]], "skip": [[1, 0]]}', []),
        ('{"activation": "relu", "W_up": [], "W_down": []}', []),
        ('{"activation": "elu", "W_up": [[1]], "W_down": [[1]]}', []),
        ('{"activation": "relu", "W_up": [[1]], "W_down": [[1]]}', ["--activation", "gelu"]),
    ],
)
def test_check_bad_input(capsys, tmp_path: Path, content: str, extra: list[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    keep = tmp_path / "certs"
    assert_input_error(*run(capsys, "check", str(path), "--json", "--keep-certificate", str(keep), *extra))
    assert not keep.exists()


def test_check_file_not_what_extension_says(capsys, tmp_path: Path) -> None:
    path = tmp_path / "w.safetensors"
    path.write_text('{"activation": "relu"}')
    assert_input_error(*run(capsys, "check", str(path), "--activation", "relu"))
    assert_input_error(*run(capsys, "check", str(tmp_path / "missing.json")))


def test_scan_bad_input(capsys, tmp_path: Path) -> None:
    save_file({"embed.weight": np.ones((3, 2), dtype=np.float32)}, str(tmp_path / "m.safetensors"))
    report = tmp_path / "scan.json"
    assert_input_error(*run(capsys, "scan", str(tmp_path), "--json-out", str(report), "--no-prove"))
    assert not report.exists()
    assert_input_error(*run(capsys, "scan", str(tmp_path), "--map", "up=x"))
    assert_input_error(*run(capsys, "scan", str(tmp_path / "nothing")))


# ---------------------------------------------------- check, real verdicts


from pybridge.decision.width_route import library_has  # noqa: E402

EXPECTED = {
    "relu_absorbable.json": ("absorbable", True),
    "relu_decimal.json": ("absorbable", True),
    "relu_skip_absorbable.json": ("absorbable", True),
    "gelu_absorbable.json": ("absorbable", True),
    "relu_generic.json": ("not_absorbable", True),
    "relu2.json": ("not_absorbable", True),
    "swiglu.json": ("not_absorbable", True),
    # R8 / R8' (width route): certified once certify/R8Certify.v is in the library
    "relu_counterexample.json": ("absorbable", library_has("certify/R8Certify.v")),
    "gelu_parallel_rows.json": ("not_absorbable", library_has("certify/R8Certify.v")),
    "relu_bias_generic.json": ("not_absorbable", True),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_check_examples_with_coq(capsys, backend, tmp_path: Path, name: str) -> None:
    verdict, checked = EXPECTED[name]
    code, out, err = run(capsys, "check", str(EXAMPLES / name), "--json", "--keep-certificate", str(tmp_path))
    assert code == 0, err
    doc = json.loads(out)
    assert doc["verdict"] == verdict
    assert doc["checked"] is checked
    assert {"theorem", "result", "reason", "witness", "crosscheck", "timings"} <= doc.keys()
    if checked:
        assert doc["prover"]["accepted"] is True
        assert doc["certificate"] and Path(doc["certificate"]).is_file()
        assert doc["theorem"]
    if verdict == "absorbable" and doc["witness"] is None:  # R8: the width route's block instead
        assert doc["result"] == "R8" and doc.get("witness_block")
    elif verdict == "absorbable":
        w = doc["witness"]
        inst = load_instance(EXAMPLES / name)
        assert sorted(w["subset"]) == w["subset"]
        assert [[Fraction(x) for x in row] for row in w["W_down"]] == [list(r) for r in inst.W_down]
        assert doc["crosscheck"]["witness_equal"] is True
        if inst.activation.name == "relu":
            assert doc["crosscheck"]["z3_identity"] == "proved"
    assert doc["crosscheck"].get("consistent") is not False


def test_check_no_prove_human_output(capsys) -> None:
    code, out, _ = run(capsys, "check", str(EXAMPLES / "relu_absorbable.json"), "--no-prove")
    assert code == 0 and "absorbable" in out and "--no-prove" in out
    code, out, _ = run(capsys, "check", str(EXAMPLES / "relu_generic.json"), "--json", "--no-prove")
    doc = json.loads(out)
    assert doc["verdict"] == "not_absorbable" and doc["checked"] is False and doc["prover"] is None


def test_wrong_subset_rejected_by_coq_exit_1(capsys, backend, monkeypatch) -> None:
    real = checking.decide

    def tampered(instance, **kw):
        dec = real(instance, **kw)
        w = dec.witness
        bad = dataclasses.replace(w, subset=w.subset[1:])  # drop one element of S
        return dataclasses.replace(dec, witness=bad)

    monkeypatch.setattr(checking, "decide", tampered)
    code, out, _ = run(capsys, "check", str(EXAMPLES / "relu_absorbable.json"), "--json")
    doc = json.loads(out)
    assert code == 1
    assert doc["checked"] is False and doc["prover"]["outcome"] == "rejected"
    # the weights still agree as functions, but no longer match the claimed S
    assert doc["crosscheck"]["witness_is_flip"] is False and doc["crosscheck"]["consistent"] is False


def test_npz_input_with_activation_option(capsys, tmp_path: Path) -> None:
    inst = load_instance(EXAMPLES / "relu_absorbable.json")
    def arr(m):
        return np.array([[float(x) for x in r] for r in m], dtype=np.float64)

    np.savez(tmp_path / "b.npz", W_up=arr(inst.W_up), W_down=arr(inst.W_down))
    code, out, _ = run(capsys, "check", str(tmp_path / "b.npz"), "--activation", "relu", "--json", "--no-prove")
    assert code == 0 and json.loads(out)["verdict"] == "absorbable"
    assert_input_error(*run(capsys, "check", str(tmp_path / "b.npz"), "--no-prove"))


# -------------------------------------------------------------------- scan


def fake_llama(tmp: Path, layers: int = 3) -> Path:
    rng = np.random.default_rng(0)
    t = {}
    for i in range(layers):
        p = f"model.layers.{i}.mlp"
        t[f"{p}.gate_proj.weight"] = rng.standard_normal((6, 4)).astype(np.float32)
        t[f"{p}.up_proj.weight"] = rng.standard_normal((6, 4)).astype(np.float32)
        t[f"{p}.down_proj.weight"] = rng.standard_normal((4, 6)).astype(np.float32)
    save_file(t, str(tmp / "model.safetensors"))
    (tmp / "config.json").write_text(json.dumps({"model_type": "llama", "hidden_act": "silu"}))
    return tmp


def test_scan_llama_with_coq_shared_certificate(capsys, backend, tmp_path: Path) -> None:
    ckpt = fake_llama(tmp_path)
    report = tmp_path / "scan.json"
    code, out, err = run(capsys, "scan", str(ckpt), "--json-out", str(report))
    assert code == 0, err
    doc = json.loads(report.read_text())
    assert doc["summary"]["layers"] == 3 and doc["summary"]["checked"] == 3
    assert [l["verdict"] for l in doc["layers"]] == ["not_absorbable"] * 3
    assert all(l["activation"] == "swiglu" and l["result"] == "R3" for l in doc["layers"])
    assert "shared with model.layers.0" in doc["layers"][2]["note"]
    assert "hidden_act=silu -> swiglu" in doc["activation_note"]
    assert "model.layers.2" in out


def test_scan_gpt2_biases_decided_by_r9(capsys, tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    t = {}
    for i in range(2):
        p = f"h.{i}.mlp"
        t[f"{p}.c_fc.weight"] = rng.integers(-3, 4, (4, 6)).astype(np.float32)
        t[f"{p}.c_fc.bias"] = np.ones(6, dtype=np.float32)
        t[f"{p}.c_proj.weight"] = rng.integers(-3, 4, (6, 4)).astype(np.float32)
        t[f"{p}.c_proj.bias"] = np.zeros(4, dtype=np.float32)
    save_file(t, str(tmp_path / "model.safetensors"))
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "gpt2", "activation_function": "gelu_new"}))
    report = tmp_path / "scan.json"
    code, _, err = run(capsys, "scan", str(tmp_path), "--no-prove", "--json-out", str(report))
    assert code == 0, err
    doc = json.loads(report.read_text())
    assert [l["activation"] for l in doc["layers"]] == ["gelu_tanh", "gelu_tanh"]
    # GELU_tanh with biases: R9 (generic with biases) decides; non-generic ones stay outside
    assert {l["verdict"] for l in doc["layers"]} <= {"outside_hypotheses", "absorbable", "not_absorbable"}
    assert all(l["result"] in ("R7", "R9") for l in doc["layers"])
    assert all(l["checked"] is False for l in doc["layers"])  # --no-prove


def test_scan_relu_checkpoint_bf16_with_coq(capsys, backend, tmp_path: Path) -> None:
    """Ungated bias-free ReLU layers stored as bfloat16: decided exactly and Coq-checked."""
    from helpers import write_bf16_safetensors

    rng = np.random.default_rng(7)

    def bf16_bits(shape):  # small integers are exact in bfloat16: top half of the float32
        vals = rng.integers(-3, 4, size=shape).astype(np.float32)
        vals[vals == 0] = 1
        return list(shape), (vals.view(np.uint32) >> 16).astype(np.uint16).ravel().tolist()

    tensors = {}
    for i in range(2):
        tensors[f"model.decoder.layers.{i}.fc1.weight"] = bf16_bits((5, 2))
        tensors[f"model.decoder.layers.{i}.fc2.weight"] = bf16_bits((2, 5))
    write_bf16_safetensors(tmp_path / "model.safetensors", tensors)
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "opt", "activation_function": "relu"}))
    report = tmp_path / "scan.json"
    code, _, err = run(capsys, "scan", str(tmp_path), "--json-out", str(report))
    assert code == 0, err
    doc = json.loads(report.read_text())
    for layer in doc["layers"]:
        assert layer["activation"] == "relu" and (layer["d"], layer["n"]) == (2, 5)
        assert layer["verdict"] in ("absorbable", "not_absorbable", "outside_hypotheses", "undecided")
        # every verdict with a theorem behind it is Coq-checked (R8 ones too, rank refutations included)
        assert layer["checked"] or layer["verdict"] == "outside_hypotheses"


def test_docs_api_example_runs(backend, tmp_path: Path, monkeypatch, capsys) -> None:
    import re

    text = (ROOT / "docs" / "api.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    code = code.replace('Path("certs")', f"Path({str(tmp_path / 'certs')!r})")
    monkeypatch.chdir(ROOT)
    exec(compile(code, "docs/api.md", "exec"), {})
    out = capsys.readouterr().out
    assert "absorbable R5" in out and "True proved" in out
    assert (tmp_path / "certs").is_dir()


def test_not_certified_is_not_a_rejection(capsys, backend, monkeypatch) -> None:
    real = checking.decide
    monkeypatch.setattr(checking, "decide", lambda inst, **kw: dataclasses.replace(real(inst, **kw), witness=None))
    code, out, _ = run(capsys, "check", str(EXAMPLES / "relu_absorbable.json"), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["checked"] is False
    assert doc["prover"]["accepted"] is False and doc["prover"]["rejected"] is False
    assert doc["prover"]["outcome"] == "not_certified"
    assert doc["prover"]["message"].startswith("not certified")


def test_timeout_is_not_a_rejection(capsys, backend, tmp_path: Path) -> None:
    """`--timeout 1` on a certificate Coq needs longer for: outcome timeout, exit 0 (not 1)."""
    from pybridge.generate import generate
    from pybridge.io import instance_to_json

    inst = generate(api.parse_activation("relu"), 12, 150, seed=5).instance
    path = tmp_path / "big.json"
    path.write_text(json.dumps(instance_to_json(inst)))
    code, out, _ = run(capsys, "check", str(path), "--json", "--timeout", "1")
    doc = json.loads(out)
    assert doc["verdict"] == "not_absorbable" and doc["checked"] is False
    assert doc["prover"]["outcome"] == "timeout" and doc["prover"]["rejected"] is False
    assert code == 0


def test_scan_gemma_geglu_tanh_with_coq(capsys, backend, tmp_path: Path) -> None:
    fake_llama(tmp_path, layers=2)
    (tmp_path / "config.json").write_text(json.dumps(
        {"model_type": "gemma", "hidden_act": "gelu", "hidden_activation": "gelu_pytorch_tanh"}))
    report = tmp_path / "scan.json"
    code, _, err = run(capsys, "scan", str(tmp_path), "--json-out", str(report))
    assert code == 0, err
    doc = json.loads(report.read_text())
    assert doc["activation_note"] == "hidden_activation=gelu_pytorch_tanh -> geglu_tanh"
    assert [l["verdict"] for l in doc["layers"]] == ["not_absorbable"] * 2
    assert all(l["theorem"].endswith("geglu_tanh_not_absorbable") and l["checked"] for l in doc["layers"])


@pytest.mark.coq
def test_kept_certificates_are_distinct_and_recheck(capsys, tmp_path: Path) -> None:
    """Each kept certificate gets its own file, and Coq accepts it again on its own."""
    from pybridge.coq import CoqBackend

    keep = tmp_path / "certs"
    paths = []
    for name in ("relu_absorbable.json", "relu_generic.json", "relu_absorbable.json"):
        code, out, _ = run(capsys, "check", str(EXAMPLES / name), "--json", "--keep-certificate", str(keep))
        assert code == 0
        doc = json.loads(out)
        assert doc["checked"] is True
        paths.append(Path(doc["certificate"]))
    assert paths[0] == paths[2] and paths[0] != paths[1]
    certificates = sorted(p for p in keep.glob("*.v") if not p.name.startswith("Vet_"))
    assert certificates == sorted(set(paths))
    assert any(keep.glob("Vet_*.v")), "the statement-vetting driver is kept beside its certificates"
    backend = CoqBackend()
    for p in set(paths):
        assert backend.check_file(p.read_text(), stem=p.stem, timeout=120).accepted
