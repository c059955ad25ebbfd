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
    Definition begin_N_i ... Check begin_N_i.  Print Assumptions vetted_N_i.  Check end_N_i.

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
pose as them.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Optional, Sequence

from pybridge.certify.encoding import CoqWriter, MalformedData, data_region
from pybridge.certify.statement import Expected
from pybridge.coq.protocol import parse_assumptions

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


def write_driver(items: Sequence[tuple[str, str, Expected]], tag: Optional[str] = None) -> Driver:
    """The driver for ``items`` = ``(certificate stem, certificate source, expected claim)``."""
    tag = tag or secrets.token_hex(8)
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
    for i, used in enumerate(data):
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
    for i in range(len(items)):
        checks += [f"Definition begin_{tag}_{i} := 0%nat.", f"Definition end_{tag}_{i} := 0%nat.",
                   f"Check begin_{tag}_{i}.", f"Print Assumptions vetted_{tag}_{i}.", f"Check end_{tag}_{i}."]
    quiet = ['Set Warnings "-require-in-module".']  # each certificate's imports, inside its slot
    source = "\n".join(head + quiet + expected + slots + checks) + "\n"
    stem = f"Vet_{hashlib.sha256(source.encode()).hexdigest()[:12]}"
    return Driver(stem, source, tuple(files), tag, tuple(loads), tuple(kept), tuple(originals))


def explain(message: str, drv: Driver) -> str:
    """A failed run's coqc message, prefixed with what failed when it is the driver's own
    check (the certificate compiled, but its data or statement are not the expected ones)."""
    if f"{drv.stem}.v" in message:
        return ("not vetted: the certificate's data or statement are not the ones expected for the "
                "instance (Coq): " + message)
    return message


def assumptions(output: str, tag: str, i: int) -> Optional[tuple[str, ...]]:
    """The axioms ``Print Assumptions vetted_<tag>_<i>`` printed (None: it did not run).

    Read between ``begin`` and ``end`` markers: coqc's stdout comes before its stderr in
    ``output``, so only the driver's own command prints there."""
    begin, end = f"begin_{tag}_{i}\n     : nat\n", f"end_{tag}_{i}\n     : nat"
    a = output.find(begin)
    if a < 0:
        return None
    b = output.find(end, a + len(begin))
    if b < 0:
        return None
    chunk = output[a + len(begin):b]
    if "Closed under the global context" not in chunk and "Axioms:" not in chunk:
        return None
    return parse_assumptions(chunk)
