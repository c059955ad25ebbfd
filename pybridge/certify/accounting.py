"""The axioms of a vetted theorem, counted part by part instead of by one library walk.

``Print Assumptions`` of a vetted theorem walks everything it depends on, the real-number
library included: about a second per call, whatever the certificate (more than half of a
small certificate's coqc time). When a certificate proves its theorem by ``exact TERM``
with ``TERM`` an application of names only (what every ``CoqWriter.verdict`` writes), the
driver proves the expected claim itself from the same term (:func:`proof_plan`):

- each *external* name (the library lemma, the activation, ...) is an abbreviation the
  driver declares before any certificate is loaded (after the library modules the
  certificate imports), so it means what it means in the library;
- the *library part* (the external names and the claim's definition ``claim_of``, library
  definitions over the reals) is walked once, by one ``Print Assumptions`` of a tuple of
  them, and remembered (:data:`AxiomMemo`: the backend's ``assumption_memo``, kept with
  the compiled library's digest in pybridge's cache directory, as trusted as the ``.vo``
  files it describes; keyed on the driver's imports, the names and the claim's text);
- each *local* name (the certificate's data and boolean checks) and each claim datum gets
  its own ``Print Assumptions`` (cheap: lists of integers and checkers over them);
- the term the driver elaborated is printed (``Set Printing All``) and every name in it
  must be one of those counted (:func:`term_names`): a coercion or an instance the
  elaborator inserted would be a name not counted, and the item is then checked again the
  old way (one ``Print Assumptions`` of the vetted theorem).

A term with a notation, a binder or a qualified name (literals ``2%nat`` and ``[true]``
aside: their constructors are counted with the library part), or a name the certificate
gives a meaning some other way (an ``Axiom``, a ``Notation``, a ``Module``, ...), is not
counted: that item's axioms are walked the old way.

The axioms of the vetted theorem are among the union of these (its proof term is
``TERM``, its type the claim), so when they are all allowed, the theorem's are.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Optional

from pybridge.coq.protocol import parse_assumptions

_NAME = r"[A-Za-z_][A-Za-z0-9_']*"
_TOKEN = re.compile(rf"\s*(?:({_NAME}(?:\.{_NAME})*)|([()]))")
#: literals a proof term may hold as written: the driver writes them with the constructors of
#: Coq's own bool and list and a binary natural (``N.to_nat``: a unary ``600`` prints too
#: deep to be read back), and only those (:data:`LITERAL_NAMES`, counted with the library part)
_LITERAL = re.compile(r"\s*([0-9]+%nat|\[(?:true|false)(?:; (?:true|false))*\])")
LITERAL_NAMES = ("O", "S", "true", "false", "nil", "cons", "bool", "nat", "N.to_nat", "Npos", "N0", "xO", "xI",
                 "xH")
_DECLARED = re.compile(rf"^[ \t]*(?:Definition|Lemma|Theorem|Fixpoint)[ \t]+({_NAME})\b", re.M)
#: any other way a file can give a name a meaning: a proof term using such a name is not counted
_OTHERWISE = re.compile(r"\b(?:Axiom|Axioms|Parameter|Parameters|Conjecture|Hypothesis|Hypotheses|Variable|"
                        r"Variables|Let|Notation|Infix|Inductive|CoInductive|Record|Structure|Class|Instance|"
                        r"Existing|Canonical|Coercion|Corollary|Remark|Fact|Proposition|Example|CoFixpoint|"
                        r"Module|Include|Export|Import|Declare)\b([^.]*)")
#: words that are Coq syntax, never names of constants: a term holding one is not counted
_KEYWORDS = frozenset("fun forall let in match with end as return fix cofix if then else exists "
                      "Type Prop Set _".split())


#: ``Print Assumptions`` answers about the library's parts (the backend's
#: ``assumption_memo``): key (:func:`library_key`) -> axioms
AxiomMemo = dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class ProofPlan:
    """How the driver proves one claim itself: ``term`` (its own text), the certificate's
    local names it uses (qualified), the external names (as written) and their
    abbreviations."""

    term: str
    locals: tuple[str, ...]
    externals: tuple[str, ...]


def library_key(head: str, externals: tuple[str, ...], claim_of: str) -> str:
    """The memo key of a theorem's library part: its external names, read in a driver whose
    imports are ``head``, and its claim's definition (``Definition claim_of ...``)."""
    return hashlib.sha256("\n".join([head, *externals, claim_of]).encode()).hexdigest()


def proof_plan(body: str, theorem: str, slot: str, abbreviation: dict[str, str],
               tag: str) -> Optional[ProofPlan]:
    """The plan for a certificate ``body`` whose ``Theorem <theorem>`` is proved by ``exact
    TERM`` with ``TERM`` names and parentheses only (None otherwise).

    A name the certificate declares (``Definition``/``Lemma``/``Theorem``/``Fixpoint`` at a
    line's start) is local: written ``<slot>.<name>`` (if the certificate declared it some
    other way, Coq finds no such constant and the run fails). Any other name is external:
    written as its abbreviation (``abbreviation[name]``: ``ext_<k>_<tag>``, added here when
    new)."""
    proofs = re.findall(rf"^Theorem {re.escape(theorem)} :.*?\.\nProof\. exact (.+?)\. Qed\.$", body, re.M | re.S)
    if len(proofs) != 1:
        return None
    text = proofs[0]
    declared = set(_DECLARED.findall(body))
    otherwise = {x for m in _OTHERWISE.finditer(body) for x in re.findall(_NAME, m.group(1))}
    fresh = dict(abbreviation)  # committed only when the whole term is read
    pos = 0
    out: list[str] = []
    local: list[str] = []
    external: list[str] = []
    literal = False
    while pos < len(text):
        lit = _LITERAL.match(text, pos)
        if lit is not None:  # written without notations the driver may not have imported
            out.append(_plain(lit.group(1)))
            pos, literal = lit.end(), True
            continue
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            break
        pos = m.end()
        name, paren = m.group(1), m.group(2)
        if paren is not None:
            out.append(paren)
        elif name in _KEYWORDS or "." in name or name in otherwise:
            return None
        elif name in declared:
            out.append(f"{slot}.{name}")
            local.append(f"{slot}.{name}")
        else:
            fresh.setdefault(name, f"ext_{len(fresh)}_{tag}")
            out.append(fresh[name])
            external.append(name)
    if text[pos:].strip() or not out:
        return None
    abbreviation.update(fresh)
    if literal:
        external += LITERAL_NAMES
    return ProofPlan(" ".join(out), tuple(dict.fromkeys(local)), tuple(dict.fromkeys(external)))


def _plain(literal: str) -> str:
    """``600%nat`` as ``(N.to_nat 600%N)``; ``[true; false]`` as ``(@cons bool true (@cons bool
    false (@nil bool)))``."""
    if not literal.startswith("["):
        return f"(N.to_nat {literal.removesuffix('%nat')}%N)"
    out = "(@nil bool)"
    for b in reversed(literal[1:-1].split("; ")):
        out = f"(@cons bool {b} {out})"
    return out


def term_names(printed: str) -> Optional[list[str]]:
    """The names in the body ``Print <definition>`` showed under ``Set Printing All``
    (``name = BODY`` then ``     : TYPE``), or None when it is not names, ``@`` and parentheses."""
    head, sep, _ = printed.partition("\n     : ")
    if not sep or " = " not in head:
        return None
    body = head.split(" = ", 1)[1].replace("@", " ")
    names: list[str] = []
    pos = 0
    while pos < len(body):
        m = _TOKEN.match(body, pos)
        if m is None or m.end() == pos:
            return None if body[pos:].strip() else names
        pos = m.end()
        if m.group(1) is not None:
            if m.group(1) in _KEYWORDS:
                return None
            names.append(m.group(1))
    return names


def counted(name: str, plan: ProofPlan) -> bool:
    """Whether a printed ``name`` is one the plan counts: an external as written, or a local
    (printed qualified as far as needed, at least by its module: ``Slot_T_0.Cert.x`` or
    ``Cert.x``; the slot is never imported, so a bare ``x`` is some other constant)."""
    if name in plan.externals:
        return True
    return "." in name and any(q == name or q.endswith("." + name) for q in plan.locals)


def axioms_of(chunk: str) -> Optional[tuple[str, ...]]:
    """The axioms one ``Print Assumptions`` printed (None: it printed none of its answers)."""
    if "Closed under the global context" not in chunk and "Axioms:" not in chunk:
        return None
    return parse_assumptions(chunk)
