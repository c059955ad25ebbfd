"""The prover-neutral interface and its Coq implementation.

Everything pybridge asks of a proof assistant goes through :class:`ProverBackend`:
build the formal library, check one generated certificate file, and describe
named theorems (statement and assumptions). A Lean backend would implement
the same three methods.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Protocol

from .errors import ProverUnavailable
from .model import ProverResult

#: Axioms a headline theorem may rest on: those of Coq's real numbers, plus
#: functional extensionality and classical logic.
ALLOWED_AXIOMS = frozenset(
    {
        "ClassicalDedekindReals.sig_forall_dec",
        "ClassicalDedekindReals.sig_not_dec",
        "FunctionalExtensionality.functional_extensionality_dep",
        "Classical_Prop.classic",
        "ClassicalEpsilon.constructive_indefinite_description",
        "PropExtensionality.propositional_extensionality",
        "ProofIrrelevance.proof_irrelevance",
    }
)


#: Coq's primitive 63-bit integers (kernel-implemented operations) and the
#: standard library's axioms specifying them. Only instance certificates use
#: them, through the checkers of ``Checkers.v``; headline theorems must not.
PRIMITIVE_INT_AXIOMS = frozenset(
    [f"PrimInt63.{x}" for x in (
        "int lsl lsr land lor lxor asr add sub mul mulc div mod divs mods eqb ltb leb ltsb lesb "
        "addc addcarryc subc subcarryc diveucl diveucl_21 addmuldiv compare compares head0 tail0"
    ).split()]
    + [f"Uint63.{x}" for x in (
        "of_to_Z lsl_spec lsr_spec land_spec lor_spec lxor_spec add_spec sub_spec mul_spec mulc_spec "
        "div_spec mod_spec eqb_correct eqb_refl ltb_spec leb_spec compare_def_spec head0_spec "
        "tail0_spec addc_def_spec addcarryc_def_spec subc_def_spec subcarryc_def_spec diveucl_def_spec "
        "diveucl_21_spec addmuldiv_def_spec"
    ).split()]
)


@dataclass(frozen=True)
class BuildResult:
    ok: bool
    seconds: float
    log: str


@dataclass(frozen=True)
class TheoremInfo:
    """A theorem as the prover prints it; ``statement`` is None when it does not exist."""

    name: str
    statement: Optional[str]
    assumptions: tuple[str, ...]

    @property
    def exists(self) -> bool:
        return self.statement is not None

    @property
    def disallowed(self) -> tuple[str, ...]:
        return tuple(a for a in self.assumptions if a not in ALLOWED_AXIOMS)


class ProverBackend(Protocol):
    name: str

    def build_library(self) -> BuildResult: ...

    def check_file(
        self, source: str, *, stem: str, timeout: float, keep_dir: Optional[Path] = None
    ) -> ProverResult: ...

    def describe(self, names: list[str]) -> dict[str, TheoremInfo]: ...


def repo_root() -> Path:
    """The repository holding ``coq/`` (override with ``PYBRIDGE_ROOT``)."""
    env = os.environ.get("PYBRIDGE_ROOT")
    root = Path(env) if env else Path(__file__).resolve().parent.parent
    if not (root / "coq" / "_CoqProject").is_file():
        raise ProverUnavailable(f"formal library not found under {root}/coq (set PYBRIDGE_ROOT)")
    return root


def parse_assumptions(text: str) -> tuple[str, ...]:
    """Axiom names from the output of one ``Print Assumptions`` command.

    Coq prints ``Closed under the global context`` or a header line followed by
    one entry per axiom whose name starts at column 0 (its type is indented).
    """
    if "Closed under the global context" in text:
        return ()
    names = []
    for line in text.splitlines():
        if line and not line[0].isspace() and not line.endswith(":"):
            names.append(line.split(" :")[0].strip())
    return tuple(names)


class CoqBackend:
    """Coq 8.16 via ``make``/``coqc``; the library is ``coq/`` with prefix ``Absorb``."""

    name = "coq"

    def __init__(self, root: Optional[Path] = None, coqc: str = "coqc") -> None:
        self.root = root or repo_root()
        self.coq_dir = self.root / "coq"
        self.theories = self.coq_dir / "theories"
        self.coqc = coqc

    def _require_coq(self) -> str:
        path = shutil.which(self.coqc)
        if path is None:
            raise ProverUnavailable(f"'{self.coqc}' not found: install Coq 8.16 (see README setup)")
        return path

    def modules(self) -> list[str]:
        """Module paths of the library, in ``_CoqProject`` order (``Absorb.X``)."""
        mods = []
        for line in (self.coq_dir / "_CoqProject").read_text().splitlines():
            line = line.strip()
            if line.startswith("theories/") and line.endswith(".v"):
                mods.append("Absorb." + line[len("theories/") : -2].replace("/", "."))
        return mods

    def build_library(self) -> BuildResult:
        self._require_coq()
        start = time.monotonic()
        proc = subprocess.run(
            ["make", "-C", str(self.coq_dir), "-j2"],
            capture_output=True,
            text=True,
        )
        return BuildResult(proc.returncode == 0, time.monotonic() - start, proc.stdout + proc.stderr)

    def _coqc_args(self) -> list[str]:
        return [self._require_coq(), "-q", "-R", str(self.theories), "Absorb"]

    def check_file(
        self, source: str, *, stem: str, timeout: float, keep_dir: Optional[Path] = None
    ) -> ProverResult:
        """Compile one certificate; accepted iff coqc succeeds within ``timeout`` seconds.

        ``stem`` must be a Coq identifier built by pybridge, never user text.
        """
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", stem):
            raise ValueError(f"invalid certificate stem {stem!r}")
        with tempfile.TemporaryDirectory(prefix="pybridge-cert-") as tmp:
            path = Path(tmp) / f"{stem}.v"
            path.write_text(source)
            start = time.monotonic()
            try:
                proc = subprocess.run(
                    self._coqc_args() + [str(path)],
                    capture_output=True,
                    text=True,
                    timeout=timeout,
                    cwd=tmp,
                )
            except subprocess.TimeoutExpired:
                return ProverResult(False, time.monotonic() - start, f"coqc timed out after {timeout:g} s")
            seconds = time.monotonic() - start
            kept = None
            if keep_dir is not None:
                # One file per distinct certificate: runs into the same directory
                # never overwrite each other's evidence.
                digest = hashlib.sha256(source.encode()).hexdigest()[:12]
                keep_dir.mkdir(parents=True, exist_ok=True)
                kept = keep_dir / f"{stem}_{digest}.v"
                shutil.copyfile(path, kept)
            output = (proc.stdout + proc.stderr).strip()
            return ProverResult(
                proc.returncode == 0, seconds, output, kept_path=str(kept) if kept else None
            )

    def describe(self, names: list[str]) -> dict[str, TheoremInfo]:
        """Statement (as ``Check`` prints it) and assumptions of each named theorem."""
        marker = "pybridge_describe_marker"
        lines = ["From Coq Require Import Reals.", "Open Scope R_scope."]
        lines += [f"Require {m}." for m in self.modules()]
        lines.append(f"Definition {marker} := 0%nat.")
        for name in names:
            if not re.fullmatch(r"[A-Za-z_][\w.']*", name):
                raise ValueError(f"invalid theorem name {name!r}")
            lines += [f"Check {marker}.", f"Check {name}.", f"Print Assumptions {name}."]
        lines.append(f"Check {marker}.")
        result = {}
        with tempfile.TemporaryDirectory(prefix="pybridge-describe-") as tmp:
            path = Path(tmp) / "Describe.v"
            path.write_text("\n".join(lines) + "\n")
            proc = subprocess.run(
                self._coqc_args() + [str(path)], capture_output=True, text=True, cwd=tmp
            )
        if proc.returncode == 0:
            chunks = proc.stdout.split(f"{marker}\n     : nat\n")[1:-1]
            if len(chunks) != len(names):
                raise ProverUnavailable("unexpected output from coqc while describing theorems")
            for name, chunk in zip(names, chunks):
                cut = min(
                    (i for i in (chunk.find("Axioms:"), chunk.find("Closed under")) if i >= 0),
                    default=len(chunk),
                )
                statement = chunk[:cut].split("\n", 1)[1] if "\n" in chunk[:cut] else ""
                statement = statement.strip()
                if statement.startswith(":"):
                    statement = statement[1:]
                result[name] = TheoremInfo(name, _squash(statement), parse_assumptions(chunk[cut:]))
            return result
        # Some name does not exist: describe one at a time to find which.
        if len(names) == 1:
            return {names[0]: TheoremInfo(names[0], None, ())}
        for name in names:
            result.update(self.describe([name]))
        return result


def _squash(text: str) -> str:
    return " ".join(text.split())
