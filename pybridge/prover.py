"""The prover-neutral interface: what pybridge asks of a proof assistant.

:class:`ProverBackend` is all the rest of pybridge uses: build the formal
library, check one generated certificate file (answering a
:class:`ProverResult` with a :class:`ProverOutcome`), and describe named
theorems (statement and assumptions, :class:`TheoremInfo`). The Coq
implementation is :class:`pybridge.coq.CoqBackend`; a Lean backend would
implement the same protocol.

The axiom allow-lists below are the policy every backend is held to; they are
spelled with Coq's names because Coq is the one backend today.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Optional, Protocol, Sequence, runtime_checkable

#: Axioms a headline theorem may rest on: exactly those the library uses (Coq's classical
#: real numbers, functional extensionality, excluded middle, which Coquelicot's integrals
#: bring in). ``tests/coq/test_formal.py`` checks every headline theorem against this list
#: and that each axiom here is used by some theorem.
ALLOWED_AXIOMS = frozenset(
    {
        "ClassicalDedekindReals.sig_forall_dec",
        "ClassicalDedekindReals.sig_not_dec",
        "FunctionalExtensionality.functional_extensionality_dep",
        "Classical_Prop.classic",
    }
)


#: Coq's primitive 63-bit integers (kernel-implemented operations) and the
#: standard library's axioms specifying them: exactly those the checkers of
#: ``certify/`` use (``Print Assumptions`` of every lemma there). Only instance
#: certificates use them; headline theorems must not.
PRIMITIVE_INT_AXIOMS = frozenset(
    [f"PrimInt63.{x}" for x in "int add sub mul div mod eqb ltb leb land lor lsl lsr".split()]
    + [f"Uint63.{x}" for x in (
        "of_to_Z add_spec sub_spec mul_spec div_spec mod_spec eqb_correct eqb_refl ltb_spec leb_spec "
        "lor_spec lsl_spec lsr_spec"
    ).split()]
)


class ProverOutcome(str, Enum):
    """What became of one certificate. A timeout is not a rejection."""

    ACCEPTED = "accepted"            #: checked, with allowed assumptions only
    REJECTED = "rejected"            #: the prover refused it (or it rests on a disallowed axiom)
    TIMEOUT = "timeout"              #: the prover did not finish within the time limit
    NOT_CERTIFIED = "not_certified"  #: no certificate could be written (encoding limits, ...)


@dataclass(frozen=True)
class ProverResult:
    """The proof assistant's answer on one certificate."""

    outcome: ProverOutcome
    seconds: float
    message: str = ""
    prover: str = "coq"
    kept_path: Optional[str] = None

    @property
    def accepted(self) -> bool:
        return self.outcome is ProverOutcome.ACCEPTED

    @property
    def rejected(self) -> bool:
        return self.outcome is ProverOutcome.REJECTED


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


@runtime_checkable
class ProverBackend(Protocol):
    """A proof assistant holding the formal library."""

    name: str

    def build_library(self) -> BuildResult: ...

    def check_file(
        self, source: str, *, stem: str, timeout: float, keep_dir: Optional[Path] = None
    ) -> ProverResult: ...

    def check_files(
        self, files: Sequence[tuple[str, str]], *, main: str, timeout: float, keep_dir: Optional[Path] = None
    ) -> ProverResult:
        """Check ``main`` with the other files (``(stem, source)``) beside it (a driver
        loading certificates; :mod:`pybridge.certify.driver`)."""
        ...

    def describe(self, names: list[str]) -> dict[str, TheoremInfo]: ...
