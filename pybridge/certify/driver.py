"""The driver: one Coq file, written by pybridge from the instances alone, that loads
certificates and checks that each proves the statement expected for its instance.

Layout of a driver for certificates ``1..k`` (``N`` a fresh random tag per run, so that
no certificate can name or shadow the driver's own modules)::

    <imports>                                   (the expected claims' library modules)
    Module Expected_N_i.  <instance data>  Definition claim : Prop := ... .  End Expected_N_i.
    Module Slot_N_k.  Load "./Vet_<certificate k>.v".  End Slot_N_k.   (each distinct file once)
    Strategy expand [Slot_N_k.Cert.X ...].      (the aliases: the slot's, a later claim's)
    Lemma same_N_i_X : Slot_N_k.Cert.X = Expected_N_i.X.   (only the data that are not aliases)
    Lemma vetted_N_i : Expected_N_i.claim.   (claim_of <expected data>: the compared data
      rewritten to the certificate's, then exactly Slot_N_k.Cert.<theorem>, ``verdict`` unless
      the claim names another: a post-norm glue's embedded ``verdict_bare`` is its own item)
    Definition vetted_N := conj vetted_N_0 (conj ... vetted_N_k).   (one theorem for the run)
    Definition begin_N_all ... Check begin_N_all.  Print Assumptions vetted_N.  Check end_N_all.

An item whose certificate proves its theorem by ``exact`` of names and whose data are all
aliased is *counted* instead (:mod:`pybridge.certify.accounting`): before the slots,
``From Absorb Require Import <the certificate's library modules>``, ``Notation ext_j_N :=
(name)`` for its external names and, unless remembered, ``Print Assumptions`` of a tuple of
them and ``Expected_N_i.claim_of``; after them ``Definition vetted_N_i : Expected_N_i.claim
:= ltac:(exact (<the certificate's term, re-read>))``, ``Print`` of it under ``Set Printing
All``, and ``Print Assumptions`` of a tuple of its local names and claim data. Counted items
are left out of ``vetted_N``.

**Data read once.** A certificate writes the data its statement names (``d n dA dB RA CB``,
``E``, ``R``, ``dP RP``, ...) between two marker lines, one ``Definition`` per line
(:func:`pybridge.certify.encoding.data_region`). The slot does not load the certificate
as written but ``Vet_<certificate>.v`` (a file of the driver's): the same text, where each
claim datum ``X`` whose region definition (with its row and chunk helpers ``X<k>``, ``X_c<k>``) is *textually
identical* to the expected module's is replaced by ``Definition X := Expected_N_i.X.``
(no second copy of the literals for Coq to read) and its helpers dropped; every other line
is kept. A datum that is not so defined (no region, another text, defined elsewhere) is
compared by the VM instead (``same_*``: a swapped or edited certificate fails there at
once, where conversion would unfold real-number definitions for minutes). ``Strategy
expand`` on the aliases makes conversion unfold an alias (one step to the instance's
constant) rather than the data (which it would compute). The certificate as written is
the file kept with ``keep_dir`` (``kept``); it compiles on its own.

**Why this is sound.** The certificate's text is untrusted, the slot text too (its lines
other than the aliases are the certificate's). Whatever that text does:

(a) a name the driver defines first in the module (an alias) cannot be defined again
    there: Coq refuses a second ``Definition X`` (a certificate that redefines an aliased
    datum after the region, or defines it before, fails);
(b) ``vetted_N_i`` is proved by ``exact Slot_N_k.Cert.<theorem>`` against the trusted
    ``Expected_N_i.claim`` -- elaborated from the instance before any certificate is
    loaded -- and checked by Coq's conversion (and the kernel at ``Qed``). So a
    certificate that keeps its data elsewhere (outside the region, in a nested module,
    under other names, behind a notation) either fails there or has proved the trusted
    claim about the trusted data; the aliases only make the honest case cheap. ``Strategy``
    (also in reach of a certificate) changes the order of unfolding, never what converts;
(c) the slot text is the driver's choice of what to Load; the aliases name the trusted
    constants by their full path (``Expected_N_i``: the tag is drawn after the certificate
    was written), so a certificate cannot point them elsewhere.

A certificate vetted against several claims (a post-norm glue: ``verdict_bare`` and
``verdict``) is loaded once, its data aliased to the *first* claim's module. A later
claim's module is the driver's own text: the definitions it begins with alike the first
module's (the same lines after the same lines: the same meaning) are written as aliases
of the first module's constants too (``Strategy expand`` on them as well), so the glue's
data are read once and need no comparison; any other datum of a later claim (``eps_s``,
or all of them when the modules differ) is compared by the VM (``same_*``), as before.

Every expected claim is elaborated before any certificate is loaded (a certificate's
notations or imports cannot change how a claim reads), and ``Load`` reads each certificate
as its own file (an unterminated comment cannot swallow the driver). The claim is
``claim_of`` its data, which ``vetted`` rewrites into the certificate's compared data,
and then holds only if the certificate's theorem proves exactly that statement (Coq's
conversion, on the very same constants: no data unfolded); its assumptions are read
between the two markers only (:func:`assumptions`), so nothing a certificate prints can
pose as them. They are printed once per run, for the conjunction of the run's vetted
theorems (``Print Assumptions`` walks the real-number library afresh each time, about a
second): the axioms of each vetted theorem are among them, so when they are all allowed,
each theorem's are; a run of several certificates reports that union for each.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Optional, Sequence

from pybridge.certify.accounting import (
    AxiomMemo,
    ProofPlan,
    axioms_of,
    counted,
    library_key,
    proof_plan,
    term_names,
)
from pybridge.certify.encoding import CoqWriter, MalformedData, data_region
from pybridge.certify.statement import Expected

_MODULE_START = "Module Cert."
_TRAILER = "Print Assumptions Cert.verdict.\n"
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_DEFINED = re.compile(r"Definition ([A-Za-z][A-Za-z0-9_]*) : (.+?) :=")
_DEFINITION = re.compile(r"Definition ([A-Za-z][A-Za-z0-9_]*)\b")


@dataclass(frozen=True)
class Driver:
    """A driver's source, its file stem, the files it loads (stem, text), the file each
    item's slot loads (``loads[i]``) and its certificate's own file (``kept[i]``: the same
    unless the slot reads aliases for its data, then among ``originals``)."""

    stem: str
    source: str
    files: tuple[tuple[str, str], ...]
    tag: str
    loads: tuple[str, ...] = ()
    #: the certificate file of each item (what ``keep_dir`` users re-run)
    kept: tuple[str, ...] = ()
    #: the certificates (stem, text) whose slot loads another text: written only to be kept
    originals: tuple[tuple[str, str], ...] = ()
    #: per item, how its axioms are counted part by part (None: by the run's one walk)
    counted: tuple[Optional[Counted], ...] = ()
    #: the library facts this run prints to remember: (memo key, marker)
    learned: tuple[tuple[str, str], ...] = ()
    #: the driver's lines (1-based, inclusive) that read library names for the counted items
    library_lines: tuple[int, int] = (0, -1)


@dataclass(frozen=True)
class Counted:
    """An item the driver proves itself from its certificate's proof term
    (:mod:`pybridge.certify.accounting`): the plan, the markers of its printed term and of the
    ``Print Assumptions`` of its local part, and the memo key of its library part."""

    plan: ProofPlan
    term: str
    local: str
    library: str


def certificate_file(stem: str, source: str) -> tuple[str, str]:
    """The file a certificate is loaded from: ``stem_<sha256[:12]>``, its final ``Print
    Assumptions`` dropped (the driver prints the vetted theorem's instead, once)."""
    body = source[:-len(_TRAILER)] if source.endswith(_TRAILER) else source
    return f"{stem}_{hashlib.sha256(source.encode()).hexdigest()[:12]}", body


def _expected_lines(expected: Expected, module: str) -> tuple[list[str], list[str], list[str]]:
    """(import header, module body, the data names the claim uses) of one expected claim."""
    w = CoqWriter(extra=expected.modules)
    start = len(w.lines)
    expected.write(w)
    types = {m.group(1): m.group(2) for ln in w.lines[start:] for m in [_DEFINED.match(ln)] if m is not None}
    used = [x for x in types if re.search(rf"(?<![\w.]){re.escape(x)}(?![\w.])", expected.claim)]
    # the claim as a function of its data, so that the driver can rewrite the certificate's
    # (equal) data into it instead of having Coq unfold both
    binders = " ".join(f"({x} : {types[x]})" for x in used)
    w.add(f"Definition claim_of {binders} : Prop := {expected.claim}.")
    w.add(f"Definition claim : Prop := claim_of {' '.join(used)}.")
    cut = w.lines.index(_MODULE_START)
    return w.lines[:cut], [f"Module {module}."] + w.lines[cut + 1:] + [f"End {module}."], used


def _owner(name: str, used: Sequence[str]) -> Optional[str]:
    """The datum ``name`` defines or helps define: the longest ``X`` of ``used`` with
    ``name`` one of ``X``, ``X<k>``, ``X_c<k>``, ``X<k>_c<k>`` (the writer's row and chunk
    definitions), or None."""
    owners = [x for x in used if re.fullmatch(rf"{re.escape(x)}[0-9]*(?:_c[0-9]+)?", name)]
    return max(owners, key=len) if owners else None


def _definitions(lines: Sequence[str], used: Sequence[str]) -> dict[str, list[str]]:
    """The definition lines of each datum of ``used`` among ``lines`` (its own and its helpers'),
    in order, spaces normalized."""
    out: dict[str, list[str]] = {}
    for line in lines:
        m = _DEFINITION.match(line.strip())
        owner = _owner(m.group(1), used) if m is not None else None
        if owner is not None:
            out.setdefault(owner, []).append(" ".join(line.split()))
    return out


def _slot_text(body: str, used: Sequence[str], module: str, trusted: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """The text a slot loads for a certificate ``body``, and the data it aliases.

    A datum ``X`` of ``used`` is aliased when the certificate's claim-data region defines it
    (and its helpers) with exactly the text of the trusted module's lines ``trusted`` (the
    same definitions, so the certificate means what it says): its first definition there
    becomes ``Definition X := <module>.X.``, its helpers are dropped. Every other line is
    kept. The body unchanged, nothing aliased, when it has no region (or a malformed one:
    :func:`pybridge.certify.statement.stated` refuses those first)."""
    try:
        region = data_region(body)
    except MalformedData:
        region = None
    if region is None:
        return body, ()
    lines = body.split("\n")
    mine = _definitions([lines[k] for k in region.lines], used)
    theirs = _definitions(trusted, used)
    wanted = [x for x in used if x in region.names and x in mine and mine.get(x) == theirs.get(x)]
    done: set[str] = set()
    for k, name in zip(region.lines, region.names):
        owner = _owner(name, used)
        if owner not in wanted:
            continue
        if name == owner and name not in done:
            lines[k] = f"Definition {name} := {module}.{name}."
            done.add(name)
        else:
            lines[k] = ""
    return "\n".join(lines), tuple(wanted)


def _shared_lines(lines: list[str], earlier: list[str], module: str) -> tuple[list[str], set[str]]:
    """An Expected module's ``lines`` with each definition of their common beginning with an
    ``earlier`` module's (same lines, hence same meaning) made an alias of ``module``'s, and
    the names so aliased (both modules are the driver's own, written from the instance)."""
    out, names = list(lines), set()
    for k in range(1, min(len(lines), len(earlier))):
        if lines[k] != earlier[k]:
            break
        m = _DEFINITION.match(lines[k])
        if m is not None:
            out[k] = f"Definition {m.group(1)} := {module}.{m.group(1)}."
            names.add(m.group(1))
    return out, names


_LIBRARY_IMPORT = re.compile(r"^From Absorb Require Import ((?:[A-Z][A-Za-z0-9_]* ?)+)\.$", re.M)


def _library_imports(body: str) -> list[str]:
    """The library modules a certificate imports before its ``Module Cert.`` (its first
    ``From Absorb Require Import`` line: module names only)."""
    m = _LIBRARY_IMPORT.search(body.split(_MODULE_START, 1)[0])
    return m.group(1).split() if m is not None else []


def _marked(tag: str, label: str, commands: Sequence[str]) -> list[str]:
    """``commands`` between the marker checks ``begin_<tag>_<label>`` / ``end_<tag>_<label>``."""
    b, e = f"begin_{tag}_{label}", f"end_{tag}_{label}"
    return [f"Definition {b} := 0%nat.", f"Definition {e} := 0%nat.", f"Check {b}.", *commands, f"Check {e}."]


def _tuple(names: Sequence[str]) -> str:
    """A term holding every constant of ``names`` (``(@a, (@b, tt))``): one ``Print
    Assumptions`` of it walks them all once."""
    out = "tt"
    for x in reversed(names):
        out = f"(@{x}, {out})"
    return out


def between(output: str, tag: str, label: str) -> Optional[str]:
    """What coqc printed between the markers of ``label`` (None: they did not both print).
    The tag is drawn after the certificates were written, so they cannot print a marker."""
    begin, end = f"begin_{tag}_{label}\n     : nat\n", f"end_{tag}_{label}\n     : nat"
    a = output.find(begin)
    if a < 0:
        return None
    b = output.find(end, a + len(begin))
    return None if b < 0 else output[a + len(begin):b]


def printed_axioms(output: str, tag: str, label: str) -> Optional[tuple[str, ...]]:
    """The axioms the ``Print Assumptions`` between the markers of ``label`` printed (None:
    it did not print them)."""
    chunk = between(output, tag, label)
    return axioms_of(chunk) if chunk is not None else None


def write_driver(items: Sequence[tuple[str, str, Expected]], tag: Optional[str] = None,
                 memo: Optional[AxiomMemo] = None, count: bool = True) -> Driver:
    """The driver for ``items`` = ``(certificate stem, certificate source, expected claim)``.

    With ``count``, an item whose certificate proves its theorem by a plain ``exact`` of
    names, and whose claim data are all aliased, is proved by the driver from that term and
    its axioms counted part by part (:mod:`pybridge.certify.accounting`; what ``memo``
    knows is not printed again); the others share one ``Print Assumptions``."""
    tag = tag or secrets.token_hex(8)
    memo = memo if memo is not None else {}
    head: list[str] = []
    expected: list[str] = []
    slots: list[str] = []
    files: list[tuple[str, str]] = []
    loads: list[str] = []
    kept: list[str] = []
    originals: list[tuple[str, str]] = []
    data: list[list[str]] = []
    aliased: list[tuple[str, ...]] = []  # the data item i's certificate reads from Expected_i
    seen: dict[str, str] = {}  # certificate file -> the slot that loads it
    first: dict[str, int] = {}  # certificate file -> the item whose data its slot aliases
    modules: list[list[str]] = []  # each item's Expected module
    for i, (stem, source, exp) in enumerate(items):
        if not _NAME.fullmatch(exp.theorem):
            raise ValueError(f"not a theorem name: {exp.theorem!r:.40}")
        fstem, body = certificate_file(stem, source)
        h, lines, used = _expected_lines(exp, f"Expected_{tag}_{i}")
        head += [ln for ln in h if ln not in head]
        data.append(used)
        if fstem in seen:  # a certificate vetted against several claims: loaded once, its data
            j = first[fstem]  # those of the first claim; this claim's the same constants where
            lines, shared = _shared_lines(lines, modules[j], f"Expected_{tag}_{j}")  # written alike
            names = tuple(x for x in aliased[j] if x in shared and x in used)
            aliased.append(names)
            if names:
                slots.append(f"Strategy expand [{' '.join(f'Expected_{tag}_{i}.{x}' for x in names)}].")
            expected += lines
            modules.append(lines)
        else:
            expected += lines
            modules.append(lines)
            first[fstem] = i
            text, names = _slot_text(body, used, f"Expected_{tag}_{i}", lines)
            aliased.append(names)
            lstem = fstem if text == body else f"Vet_{fstem}"
            files.append((lstem, text))
            if lstem != fstem:
                originals.append((fstem, body))
            seen[fstem] = lstem
            k = len(seen) - 1
            slots += [f"Module Slot_{tag}_{k}.", f'Load "./{lstem}.v".', f"End Slot_{tag}_{k}."]
            if names:  # conversion unfolds an alias, never the data it names (else Qed computes them)
                slots.append(f"Strategy expand [{' '.join(f'Slot_{tag}_{k}.Cert.{x}' for x in names)}].")
        loads.append(seen[fstem])
        kept.append(fstem)
    order = list(seen.values())
    checks: list[str] = []
    abbreviation: dict[str, str] = {}
    plans: list[Optional[ProofPlan]] = []
    texts = dict(files)
    for i, used in enumerate(data):
        plan = None
        if count and first[kept[i]] == i and set(aliased[i]) == set(used):
            slot = f"Slot_{tag}_{order.index(loads[i])}.Cert"
            plan = proof_plan(texts[loads[i]], items[i][2].theorem, slot, abbreviation, tag)
        plans.append(plan)
    # the library modules the counted certificates import (names checked: library modules
    # only, after the claims were elaborated): their external names are read there
    libs = [m for k, p in enumerate(plans) if p is not None for m in _library_imports(texts[loads[k]])]
    imports = [f"From Absorb Require Import {' '.join(dict.fromkeys(libs))}."] if libs else []
    head_text = "\n".join(head + imports)
    notations = imports + [f"Notation {a} := ({x}) (only parsing)." for x, a in abbreviation.items()]
    learned: list[tuple[str, str]] = []
    early: list[str] = []  # library facts not yet known, printed before any certificate is loaded
    by_parts: list[Optional[Counted]] = []
    for i, used in enumerate(data):
        plan = plans[i]
        ex, sl = f"Expected_{tag}_{i}", f"Slot_{tag}_{order.index(loads[i])}.Cert"
        if plan is None:
            by_parts.append(None)
            continue
        # the library part of the item's theorem: its external names and its claim's
        # definition, walked together once (one Print Assumptions) and then remembered
        claim_of = next(ln for ln in modules[i] if ln.startswith("Definition claim_of "))
        ckey = library_key(head_text, plan.externals, claim_of)
        if ckey not in memo and ckey not in dict(learned):
            label = f"x{len(learned)}"
            learned.append((ckey, label))
            early += [f"Definition library_{tag}_{label} := {_tuple([*plan.externals, f'{ex}.claim_of'])}."]
            early += _marked(tag, label, [f"Print Assumptions library_{tag}_{label}."])
        checks.append(f"Definition vetted_{tag}_{i} : {ex}.claim := ltac:(exact ({plan.term})).")
        checks += _marked(tag, f"t{i}", ["Set Printing All.", f"Print vetted_{tag}_{i}.", "Unset Printing All."])
        # the local part: the certificate's names in the term and the claim data
        checks.append(f"Definition parts_{tag}_{i} := {_tuple([*plan.locals, *(f'{ex}.{x}' for x in used)])}.")
        checks += _marked(tag, f"a{i}", [f"Print Assumptions parts_{tag}_{i}."])
        by_parts.append(Counted(plan, f"t{i}", f"a{i}", ckey))
    for i, used in enumerate(data):
        if plans[i] is not None:
            continue
        # data the certificate defines itself equal the instance's, by the VM (fast, and fails
        # fast): the statements are then compared on equal data, never by unfolding real-number
        # terms; aliased data are the instance's own constants
        ex, sl = f"Expected_{tag}_{i}", f"Slot_{tag}_{order.index(loads[i])}.Cert"
        compared = [x for x in used if x not in aliased[i]]
        for x in compared:
            checks.append(f"Lemma same_{tag}_{i}_{x} : {sl}.{x} = {ex}.{x}.\n"
                          f"Proof. vm_cast_no_check (eq_refl {ex}.{x}). Qed.")
        rewrites = "".join(f" rewrite <- same_{tag}_{i}_{x}." for x in compared)
        checks.append(f"Lemma vetted_{tag}_{i} : {ex}.claim.\n"
                      f"Proof. unfold {ex}.claim.{rewrites} exact {sl}.{items[i][2].theorem}. Qed.")
    # the items not counted part by part: one Print Assumptions for them all (each walks the
    # real-number library afresh, ~1 s), of the conjunction of their vetted theorems, whose
    # axioms include each one's
    walked = [i for i in range(len(items)) if plans[i] is None]
    if walked:
        proofs = f"vetted_{tag}_{walked[-1]}"
        for i in reversed(walked[:-1]):
            proofs = f"(conj vetted_{tag}_{i} {proofs})"
        checks += [f"Definition vetted_{tag} := {proofs}."]
        checks += _marked(tag, "all", [f"Print Assumptions vetted_{tag}."])
    quiet = ['Set Warnings "-require-in-module".']  # each certificate's imports, inside its slot
    source = "\n".join(head + quiet + expected + notations + early + slots + checks) + "\n"
    stem = f"Vet_{hashlib.sha256(source.encode()).hexdigest()[:12]}"
    start = len(head) + len(quiet) + len(expected) + 1
    return Driver(stem, source, tuple(files), tag, tuple(loads), tuple(kept), tuple(originals),
                  tuple(by_parts), tuple(learned), (start, start + len(notations) + len(early) - 1))


def explain(message: str, drv: Driver) -> str:
    """A failed run's coqc message, prefixed with what failed when it is the driver's own
    check (the certificate compiled, but its data or statement are not the expected ones)."""
    if f"{drv.stem}.v" in message:
        return ("not vetted: the certificate's data or statement are not the ones expected for the "
                "instance (Coq): " + message)
    return message


def assumptions(output: str, tag: str) -> Optional[tuple[str, ...]]:
    """The axioms ``Print Assumptions vetted_<tag>`` printed (None: it did not run): those of
    the run's vetted theorems not counted part by part, together, hence a superset of each
    one's. Read between its markers: coqc's stdout comes before its stderr in ``output``, so
    only the driver's own command prints there."""
    return printed_axioms(output, tag, "all")


def learn(output: str, drv: Driver, memo: AxiomMemo) -> None:
    """Remember the library facts a successful run printed (:attr:`Driver.learned`)."""
    for key, label in drv.learned:
        found = printed_axioms(output, drv.tag, label)
        if found is not None:
            memo[key] = found


def counted_axioms(output: str, drv: Driver, i: int, memo: AxiomMemo) -> Optional[tuple[str, ...]]:
    """The axioms of item ``i``'s vetted theorem counted part by part (a superset of its
    own), or None when they cannot be: not counted, its term holds a name not counted,
    or an answer is missing (the item is then checked with one walk)."""
    c = drv.counted[i] if i < len(drv.counted) else None
    if c is None:
        return None
    printed = between(output, drv.tag, c.term)
    names = term_names(printed) if printed is not None else None
    if names is None or not all(counted(x, c.plan) for x in names):
        return None
    local = printed_axioms(output, drv.tag, c.local)
    if local is None or c.library not in memo:
        return None
    return tuple(dict.fromkeys([*local, *memo[c.library]]))
