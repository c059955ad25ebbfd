"""The accepted-axiom lists are exactly what the library uses (issue 21): no axiom is
allowed that no theorem needs, and every one allowed is needed.

Headline theorems (``coq/results.toml``) use ``ALLOWED_AXIOMS`` and nothing more; the
certificate lemmas of ``certify/`` (``cert*``, the ones pybridge's certificates apply)
use those and Coq's primitive 63-bit integers, whose axioms are ``PRIMITIVE_INT_AXIOMS``.
"""

from __future__ import annotations

import re

from pybridge.coq import CoqBackend
from pybridge.prover import ALLOWED_AXIOMS, PRIMITIVE_INT_AXIOMS
from pybridge.results import ResultStatus


def certificate_lemmas(backend: CoqBackend) -> list[str]:
    """``Absorb.certify.<File>.cert...``: every certificate lemma of the library."""
    names = []
    for f in sorted((backend.theories / "certify").glob("*.v")):
        for m in re.finditer(r"^(?:Theorem|Lemma|Corollary) (cert[A-Za-z0-9_']*)", f.read_text(), re.M):
            names.append(f"Absorb.certify.{f.stem}.{m.group(1)}")
    return names


def test_headline_theorems_use_exactly_the_allowed_axioms(statuses: list[ResultStatus]) -> None:
    used = {a for s in statuses for t in s.theorems for a in t.assumptions}
    assert used == ALLOWED_AXIOMS, (sorted(used - ALLOWED_AXIOMS), sorted(ALLOWED_AXIOMS - used))


def test_certificate_lemmas_use_exactly_the_primitive_integer_axioms(backend: CoqBackend) -> None:
    names = certificate_lemmas(backend)
    assert len(names) > 20
    infos = backend.describe(names)
    used = set()
    for name in names:
        assert infos[name].exists, name
        extra = set(infos[name].assumptions) - ALLOWED_AXIOMS - PRIMITIVE_INT_AXIOMS
        assert not extra, (name, sorted(extra))
        used |= set(infos[name].assumptions)
    assert used & PRIMITIVE_INT_AXIOMS == PRIMITIVE_INT_AXIOMS, sorted(PRIMITIVE_INT_AXIOMS - used)
