"""Blueprint status of each node of the lemma graph: proved, partial or missing.

The rule (also the page's legend):

- A declaration is **proved** when the compiled library holds it and it rests
  only on accepted assumptions: :data:`pybridge.prover.ALLOWED_AXIOMS` and the
  kernel's primitive integers (:data:`pybridge.prover.PRIMITIVE_INT_AXIOMS`,
  used by the certificate checkers). A definition that is proved in this sense
  is complete: nothing in it is assumed.
- It is **partial** when it rests on any other assumption (an ``Axiom`` or an
  ``Admitted`` lemma of the library, or a standard-library axiom not accepted).
- It is **missing** when it *is* such an assumption: an ``Axiom`` or
  ``Parameter`` of the library, a statement with no proof.
- A node that states a paper result takes the worse of its own status and the
  result's (:mod:`pybridge.site.paper`: a result with no concrete instance is
  partial, one with no theorem missing).

The rule is sound in the direction a blueprint needs: whatever a proved
theorem uses is proved, since Coq's ``Print Assumptions`` of the theorem
contains the assumptions of everything it uses.
"""

from __future__ import annotations

from typing import Literal, Mapping

import networkx as nx

from pybridge.prover import ALLOWED_AXIOMS, PRIMITIVE_INT_AXIOMS

Status = Literal["proved", "partial", "missing"]

#: Worst first.
ORDER: tuple[Status, ...] = ("missing", "partial", "proved")

#: Kinds that are assumptions (no proof, no body).
ASSUMPTION_KINDS = frozenset({"axiom", "parameter", "conjecture", "hypothesis", "variable"})

#: The assumptions a proved declaration may rest on.
ACCEPTED = ALLOWED_AXIOMS | PRIMITIVE_INT_AXIOMS


def worst(*statuses: Status) -> Status:
    """The worst of the statuses (``proved`` for none)."""
    return min(statuses, key=ORDER.index, default="proved")


def own_status(data: Mapping) -> Status:
    """A node's status from its kind and its assumptions alone."""
    if data.get("kind") in ASSUMPTION_KINDS:
        return "missing"
    if any(a not in ACCEPTED for a in data.get("axioms", ())):
        return "partial"
    return "proved"


def node_statuses(g: nx.DiGraph, result_status: Mapping[str, Status]) -> dict[str, Status]:
    """Each node's status; ``result_status``: each paper result's (unknown ids are ignored)."""
    out: dict[str, Status] = {}
    for n, d in g.nodes(data=True):
        stated = [result_status[r] for r in d.get("states", ()) if r in result_status]
        out[n] = worst(own_status(d), *stated)
    return out


def shown_kind(data: Mapping) -> str:
    """The kind the page shows: a registered result proved by a ``Definition`` is a theorem.

    A headline result packaged as ``Definition name := package_iff ...`` has a
    proposition as its type; every proof ``results.toml`` lists as a result's
    theorem (``states``) is shown as a theorem, whatever its keyword. Any other
    proof written as a ``Definition`` is shown as a lemma; definitions of data
    stay definitions.
    """
    kind = str(data.get("kind", ""))
    if data.get("prop") and data.get("states") and kind not in ASSUMPTION_KINDS:
        return "theorem"
    if kind in ("definition", "fixpoint") and data.get("prop"):
        return "lemma"
    return kind
