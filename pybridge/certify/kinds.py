"""What a certificate is: its kind (one ``Certify`` lemma each), the generated file, and
the extract a partial certificate carries."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Optional, Protocol

from pybridge.exact.modular import IntMatrix
from pybridge.model import Decision, Instance

MAX_FREE_CERT = 20  #: largest number of free indices a Coq certificate enumerates


class CertificateKind(str, Enum):
    """The kinds of certificates; each is one lemma of ``Certify.v``."""

    ABSORBABLE = "absorbable"                          #: R5 (<=), identity skip
    ABSORBABLE_SKIP = "absorbable_skip"                #: R1 + R5 (<=)
    ABSORBABLE_BIAS = "absorbable_bias"                #: R5 (<=) with biases (R7)
    GENERIC_NOT_ABSORBABLE = "generic_not_absorbable"  #: R5 (=>), identity skip
    GENERIC_NOT_ABSORBABLE_SKIP = "generic_not_absorbable_skip"  #: R1 + R5 (=>)
    GATED_NOT_ABSORBABLE = "gated_not_absorbable"      #: R3, every weight of the shape
    RELU_POW_NOT_ABSORBABLE = "relu_pow_not_absorbable"  #: R2, every weight of the shape
    GENERIC_NOT_ABSORBABLE_PARTIAL = "generic_not_absorbable_partial"  #: R5 (=>) from a block of the weights

    @property
    def lemma(self) -> str:
        """The ``Certify.v`` lemma a certificate of this kind applies."""
        return "cert_" + self.value

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    CertificateKind.ABSORBABLE: "absorbable (R5 <=)",
    CertificateKind.ABSORBABLE_SKIP: "absorbable (R1 + R5 <=)",
    CertificateKind.ABSORBABLE_BIAS: "absorbable with biases (R5 <= with biases, R7)",
    CertificateKind.GENERIC_NOT_ABSORBABLE: "not absorbable (generic weights, R5 =>)",
    CertificateKind.GENERIC_NOT_ABSORBABLE_SKIP: "not absorbable (generic weights, R1 + R5 =>)",
    CertificateKind.GATED_NOT_ABSORBABLE: "not absorbable (R3), all weights",
    CertificateKind.RELU_POW_NOT_ABSORBABLE: "not absorbable (R2), all weights",
    CertificateKind.GENERIC_NOT_ABSORBABLE_PARTIAL:
        "not absorbable (generic weights, R5 =>), for all weights agreeing with the certificate's block",
}


class CannotCertify(Exception):
    """The decision is exact but no Coq certificate can be written for it."""


@dataclass(frozen=True)
class Residues:
    """How a partial certificate on residues (``CertifyResidues``) names its block: modulo
    ``p`` (the no-subset functional's prime) on the whole block, modulo ``pg`` (the
    genericity prime) on the indices ``pair`` (a part of the block: two indices for float
    weights, a few more for quantized ones)."""

    p: int
    pg: int
    pair: tuple[int, ...]


@dataclass(frozen=True)
class Extract:
    """The entries a partial certificate carries: columns ``block`` of ``W_up`` (``A``,
    n x r) and rows ``block`` of ``W_down`` (``B``, r x n), with digests; ``residues``:
    the certificate writes them only modulo its primes."""

    block: tuple[int, ...]
    A: IntMatrix
    B: IntMatrix
    weights_sha256: str
    extract_sha256: str
    residues: Optional[Residues] = None


@dataclass(frozen=True)
class OneExtraBlock:
    """What a one-extra-row certificate's statement names (``CertifyWidthOneExtraResidues``):
    rows ``R1`` of ``W_down`` and columns ``C`` of ``W_up`` modulo ``q``, columns ``C2`` of
    ``W_up`` modulo ``p``, and ``a_z = (ln / ld) a_i1`` (or, ``dead``, a zero column ``z`` of
    ``W_down``)."""

    R1: tuple[int, ...]
    C: tuple[int, ...]
    z: int
    i1: int
    ln: int
    ld: int
    C2: tuple[int, ...]
    p: int
    q: int
    #: column ``z`` of ``W_down`` is zero (a dead neuron) instead of the row relation (``ln = 0``)
    dead: bool = False


@dataclass(frozen=True)
class Certificate:
    """A generated Coq file: ``stem.v`` holding ``source``, of one ``kind`` (a
    :class:`CertificateKind`, or a description for the width route's many forms)."""

    stem: str
    source: str
    kind: CertificateKind | str
    activation: str
    extract: Optional[Extract] = None
    #: The block the extract was taken from when it is not the user's: R1 with biases
    #: extracts from the reduced block (the user's ``W_up``, ``P^-1 W_down``).
    extract_of: Optional[Instance] = None
    #: A one-extra-row certificate's block and row relation (its expected statement is
    #: written from the instance's own entries there, :func:`.statement.one_extra_claims`).
    one_extra: Optional[OneExtraBlock] = None
    #: A rank-bound certificate's spanning rows of ``W_up`` (its expected statement names the
    #: instance's own rows there, :func:`.statement.low_rank_claims`).
    low_rank: Optional[tuple[int, ...]] = None

    @property
    def summary(self) -> str:
        kind = self.kind.description if isinstance(self.kind, CertificateKind) else self.kind
        mod = " (entries modulo the checks' primes)" if self.extract is not None and self.extract.residues else ""
        return f"{self.activation}: {kind}{mod}"


class CertificateBuilder(Protocol):
    """The pipeline's dispatcher, handed to writers that certify a reduced block first;
    ``residues=False`` keeps a partial certificate's block entries (for a glue reading them)."""

    def __call__(self, instance: Instance, decision: Decision, residues: bool = True) -> Optional[Certificate]: ...
