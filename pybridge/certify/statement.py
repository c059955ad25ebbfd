"""The statement a certificate must prove, written from the instance alone (the trusted side).

A certificate's ``Theorem verdict`` is written by a writer from the decision's evidence; a
patched writer, a swapped file or a decision for other weights could make it prove
something else (``True``, another instance's verdict). This module writes, for one
instance and the verdict pybridge reports, the *expected* claim: a small Coq module
defining the instance's data itself (from :class:`~pybridge.model.Instance`, never from
``Decision.evidence`` or the certificate) and ``Definition claim : Prop``. The driver
(:mod:`.driver`) then has Coq check ``Cert.verdict : claim``, so Coq's conversion ties the
proved statement to the expected one.

Each certificate kind states its verdict in one of a few forms (how the matrices are
encoded: plain numerators, ``+- m 2**e`` codes, residues modulo the checks' primes, ``Z``
rows, augmented rows for biases;
with or without the skip; a partial certificate's "for every pair agreeing with the
block"). :func:`expected_statement` lists the forms that state exactly the reported
verdict (absorbable or not, at the reported width, for this activation, skip and biases)
about this instance, and picks the one the certificate's text names. Choosing by the
text is safe: every candidate is a correct statement of the reported verdict about the
instance, and Coq, not the text, decides whether the certificate proves it.

Partial certificates carry an extract (a block of the weights); the pipeline checks it
exactly against the instance first (:func:`pybridge.certify.agreement.agreement`), so the
expected claim may use the extract's entries. :func:`header_digests` checks the digests a
partial certificate's header records.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterator, Optional, Sequence

from pybridge.certify.coded import coding
from pybridge.certify.encoding import CoqWriter, MalformedData, columns, data_region, digest
from pybridge.certify.kinds import Certificate, Extract
from pybridge.certify.low_rank import MODULES as LOW_RANK_MODULES
from pybridge.certify.low_rank import statement as low_rank_statement
from pybridge.certify.low_rank import write_statement_data as write_low_rank_data
from pybridge.certify.pieces import RESIDUE_AGREEMENT, residues_valid, write_block, write_block_residues
from pybridge.certify.pm_facts import width_sigma
from pybridge.certify.width_one import MODULES, statement, write_statement_data
from pybridge.exact.low_rank import span_pivots
from pybridge.exact.modular import IntMatrix, scale_matrix
from pybridge.model import Decision, Instance

DataWriter = Callable[[CoqWriter], None]

_THEOREM = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


class StatementMismatch(Exception):
    """The certificate does not state the verdict pybridge expects for the instance."""


@dataclass(frozen=True)
class Expected:
    """The trusted claim: ``claim`` (a Prop over the names ``write`` defines), the library
    modules its definitions live in, and the certificate's theorem that must prove it
    (``Cert.<theorem>``)."""

    claim: str
    modules: tuple[str, ...]
    write: DataWriter
    theorem: str = "verdict"


def normalize(text: str) -> str:
    return " ".join(text.split())


def stated(source: str, theorem: str = "verdict") -> str:
    """The text of the certificate's ``Theorem <theorem>`` statement (exactly one).

    Raises :class:`StatementMismatch` as well when the certificate's claim-data region
    (:func:`pybridge.certify.encoding.data_region`) is malformed."""
    if not _THEOREM.fullmatch(theorem):
        raise ValueError(f"not a theorem name: {theorem!r:.40}")
    try:
        data_region(source)
    except MalformedData as exc:
        raise StatementMismatch(f"the certificate's claim data are not well marked: {exc}") from exc
    found = re.findall(rf"Theorem {theorem} :(.*?)\.\nProof\.", source, re.DOTALL)
    if len(found) != 1:
        raise StatementMismatch(f"the certificate has {len(found)} `Theorem {theorem}` statements, not one")
    return normalize(found[0])


# ---------------------------------------------------------------- the instance's data


def _zero(k: int) -> tuple[Fraction, ...]:
    return (Fraction(0),) * k


class _Data:
    """Writers of the instance's data under the names the certificate forms use."""

    def __init__(self, inst: Instance) -> None:
        self.inst = inst

    def nd(self, w: CoqWriter) -> None:
        w.nat("d", self.inst.d)
        w.nat("n", self.inst.n)

    def bvec(self, which: str) -> IntMatrix:
        inst = self.inst
        v = inst.b_up if which == "up" else inst.b_down
        return scale_matrix([list(v or _zero(inst.n if which == "up" else inst.d))])

    def plain(self, w: CoqWriter) -> None:
        """``dA RA`` (rows of W_up), ``dB CB`` (columns of W_down)."""
        A, B = scale_matrix(self.inst.W_up), scale_matrix(self.inst.W_down)
        w.z("dA", A.den)
        w.z("dB", B.den)
        w.rows("RA", A.rows)
        w.rows("CB", columns(B))

    def plain_up(self, w: CoqWriter) -> None:
        A = scale_matrix(self.inst.W_up)
        w.z("dA", A.den)
        w.rows("RA", A.rows)

    def bias_vectors(self, w: CoqWriter, c_name: Optional[str] = "c", b0_name: Optional[str] = "b0") -> None:
        """``dc Lc`` (b_up) and ``db0 Lb0`` (b_down), under the given suffixes (None: not written)."""
        for name, which in ((c_name, "up"), (b0_name, "down")):
            if name is not None:
                v = self.bvec(which)
                w.z(f"d{name}", v.den)
                w.int_list(f"L{name}", v.rows[0])

    def coded(self, bias: bool) -> Optional[DataWriter]:
        """``E`` and the codes of ``RA``, ``CB`` (and ``Lc``, ``Lb0``), or None (no coding)."""
        A, B = scale_matrix(self.inst.W_up), scale_matrix(self.inst.W_down)
        mats = [A.rows, columns(B)]
        c = b0 = None
        if bias:
            c, b0 = self.bvec("up"), self.bvec("down")
            mats += [c.rows, b0.rows]
        codes = coding(mats)
        if codes is None:
            return None

        def write(w: CoqWriter) -> None:
            w.z("dA", A.den)
            w.z("dB", B.den)
            w.add(f"Definition E : int := {codes.base}%uint63.")
            w.rows("RA", codes.matrices[0], unsigned=True)
            w.rows("CB", codes.matrices[1], unsigned=True)
            if c is not None and b0 is not None:
                w.z("dc", c.den)
                w.int_list("Lc", codes.matrices[2][0])
                w.z("db0", b0.den)
                w.int_list("Lb0", codes.matrices[3][0])
        return write

    def augmented(self, w: CoqWriter) -> None:
        """``dA RA``: the augmented rows ``(a_i, c_i)`` over one denominator; ``dB CB``; ``db0 Lb0``."""
        inst = self.inst
        c = inst.b_up or _zero(inst.n)
        aug = scale_matrix([list(inst.W_up[i]) + [c[i]] for i in range(inst.n)])
        B = scale_matrix(inst.W_down)
        w.z("dA", aug.den)
        w.z("dB", B.den)
        w.rows("RA", aug.rows)
        w.rows("CB", columns(B))
        self.bias_vectors(w, None)

    def augmented_up(self, w: CoqWriter) -> None:
        inst = self.inst
        c = inst.b_up or _zero(inst.n)
        aug = scale_matrix([list(inst.W_up[i]) + [c[i]] for i in range(inst.n)])
        w.z("dA", aug.den)
        w.rows("RA", aug.rows)

    def skip(self, w: CoqWriter, suffix: str = "") -> None:
        P = scale_matrix(self.inst.skip or ())
        w.z(f"dP{suffix}", P.den)
        w.rows(f"RP{suffix}", P.rows)

    def user_down(self, w: CoqWriter, name: str) -> None:
        B = scale_matrix(self.inst.W_down)
        w.z(f"d{name}", B.den)
        w.rows(f"C{name}", columns(B))


def _join(*parts: DataWriter) -> DataWriter:
    def write(w: CoqWriter) -> None:
        for p in parts:
            p(w)
    return write


# ---------------------------------------------------------------- the candidate claims


BASE = ("Blocks",)
BIAS = ("BiasBlocks",)
CODED = ("CodedData", "CertifyCoded")
ZROWS = ("ZMatrices", "CertifyWidth")
RESIDUES = ("CertifyResidues",)


def _widths(inst: Instance, decision: Decision) -> tuple[int, list[str]]:
    """The reported width ``m`` and how a certificate may write it (``n`` or the number)."""
    m = decision.width if decision.width is not None else inst.n
    return m, (["n"] if m == inst.n else []) + [str(m)]


def _claims(atom: Callable[[str], str], positive: bool, m: int, texts: list[str]) -> Iterator[str]:
    """``X`` (or ``X /\\ ~ X(m - 1)``: the least width) when absorbable, ``~ X`` when not."""
    for t in texts:
        if positive:
            yield atom(t)
            if m >= 1:
                yield f"{atom(t)} /\\ ~ {atom(str(m - 1))}"
        else:
            yield f"~ {atom(t)}"


def _classification(inst: Instance, decision: Decision, d: _Data) -> Iterator[tuple[str, tuple[str, ...], DataWriter]]:
    """R2 / R3: not absorbable for every weight of the shape (and this skip)."""
    act = inst.activation
    f = act.coq_function
    m, texts = _widths(inst, decision)
    write = _join(d.nd, d.skip) if inst.skip is not None else d.nd
    mods = (act.spec.coq_module,)
    pterm = "(mat_of_rows dP RP)" if inst.skip is not None else "identity"
    sk = "(Some (dP, RP))" if inst.skip is not None else "None"
    for t in texts:
        for p in ([pterm] if t == "n" else []) + [f"(skip_mat {sk})"]:
            if act.gated:
                yield f"forall C A B : mat, ~ absorbable_gated {f} d n {t} {p} C A B", mods, write
            else:
                yield f"forall A B : mat, ~ absorbable_ungated {f} d n {t} {p} A B", mods, write


def _full(inst: Instance, decision: Decision, d: _Data) -> Iterator[tuple[str, tuple[str, ...], DataWriter]]:
    """Full certificates: the verdict about this instance's own data."""
    act = inst.activation
    s = act.coq_function
    positive = decision.verdict == "absorbable"
    m, texts = _widths(inst, decision)
    mods = (act.spec.coq_module,)
    plainA, plainB = "(mat_of_rows dA RA)", "(mat_of_cols dB CB)"
    zA, zB = "(zmat_rows dA (zrows RA))", "(zmat_cols dB (zrows CB))"
    if not inst.has_bias:
        forms: list[tuple[str, str, str, tuple[str, ...], Optional[DataWriter]]] = []
        if inst.skip is None:
            forms.append(("identity", plainA, plainB, (), _join(d.nd, d.plain)))
            forms.append(("identity", zA, zB, ZROWS, _join(d.nd, d.plain)))
            coded = d.coded(False)
            if coded is not None:
                forms.append(("identity", "(mat_of_drows dA E RA)", "(mat_of_dcols dB E CB)", CODED,
                              _join(d.nd, coded)))
                forms.append(("identity", "(zmat_rows dA (zcodes E RA))", "(zmat_cols dB (zcodes E CB))",
                              ZROWS + ("CodedData",), _join(d.nd, coded)))
        else:
            forms.append(("(mat_of_rows dP RP)", plainA, plainB, (), _join(d.nd, d.plain, d.skip)))
            forms.append(("(mat_of_rows dP RP)", zA, "(mat_of_cols dBu CBu)", ZROWS,
                          _join(d.nd, d.plain_up, d.skip, lambda w: d.user_down(w, "Bu"))))
        for P, A, B, extra, write in forms:
            assert write is not None
            pred = f"absorbable_ungated {s} d n {{}} {P} {A} {B}"
            for claim in _claims(pred.format, positive, m, texts):
                yield claim, mods + extra, write
        return
    # biases
    ups: list[tuple[str, str, tuple[str, ...], DataWriter]] = [
        (plainA, "(vec_of dc Lc)", (), _join(d.plain_up, lambda w: d.bias_vectors(w, "c", None))),
        (plainA, "(aug_bias d dA RA)", ("CertifyBias",), d.augmented_up),
        (zA, "(zaug d dA (zrows RA))", (*ZROWS, "BiasGroupingCheck"), d.augmented_up),
    ]
    if inst.skip is None:
        forms_b: list[tuple[str, str, str, str, str, tuple[str, ...], DataWriter]] = [
            ("identity", plainA, "(vec_of dc Lc)", plainB, "(vec_of db0 Lb0)", (),
             _join(d.nd, d.plain, d.bias_vectors)),
            ("identity", plainA, "(aug_bias d dA RA)", plainB, "(vec_of db0 Lb0)", ("CertifyBias",),
             _join(d.nd, d.augmented)),
            ("identity", zA, "(zaug d dA (zrows RA))", zB, "(vec_of db0 Lb0)", (*ZROWS, "BiasGroupingCheck"),
             _join(d.nd, d.augmented)),
        ]
        coded = d.coded(True)
        if coded is not None:
            forms_b.append(("identity", "(mat_of_drows dA E RA)", "(vec_of_coded dc E Lc)",
                            "(mat_of_dcols dB E CB)", "(vec_of_coded db0 E Lb0)", CODED, _join(d.nd, coded)))
    else:  # R1 with biases: the reduced certificate's A and c, the user's P, B and b0
        forms_b = [("(mat_of_rows dPs RPs)", A, c, "(mat_of_cols dBs CBs)", "(vec_of dbs Lbs)", extra,
                    _join(d.nd, up, lambda w: d.skip(w, "s"), lambda w: d.user_down(w, "Bs"),
                          lambda w: d.bias_vectors(w, None, "bs")))
                   for A, c, extra, up in ups]
    for P, A, c, B, b0, extra, write in forms_b:
        pred = f"absorbable_ungated_bias {s} d n {{}} {P} {A} {c} {B} {b0}"
        for claim in _claims(pred.format, positive, m, texts):
            yield claim, mods + BIAS + extra, write


def _block_matches(inst: Instance, ex: Extract) -> bool:
    """Columns ``ex.block`` of the instance's ``W_up`` equal ``ex.A`` exactly."""
    R = ex.block
    if any(not 0 <= k < inst.d for k in R) or ex.A.shape != (inst.n, len(R)):
        return False
    full = scale_matrix(inst.W_up)
    num = full.numerators()
    mine = ex.A.numerators()
    for i in range(inst.n):
        for r, k in enumerate(R):
            if int(num[i, k]) * ex.A.den != int(mine[i, r]) * full.den:
                return False
    return True


def _partial(inst: Instance, decision: Decision, cert: Certificate, d: _Data
             ) -> Iterator[tuple[str, tuple[str, ...], DataWriter]]:
    """Partial certificates: for every block agreeing with the extract (checked exactly)."""
    ex = cert.extract
    if ex is None or decision.verdict != "not_absorbable":
        return
    act = inst.activation
    s = act.coq_function
    mods = (act.spec.coq_module,)
    m, texts = _widths(inst, decision)
    cols = columns(ex.B)
    # write_block defines d and n (the instance's) with the block
    def plain(w: CoqWriter) -> None:
        write_block(w, inst.d, inst.n, ex.block, ex.A, ex.B, cols, None)
    codes = coding([ex.A.rows, cols])

    def coded(w: CoqWriter) -> None:
        write_block(w, inst.d, inst.n, ex.block, ex.A, ex.B, cols, codes)
    agree: list[tuple[str, tuple[str, ...], DataWriter]] = [
        ("agrees_up n R dA RA A -> agrees_down n R dB CB B", (), plain)]
    if codes is not None:
        agree.append(("agrees_up_coded n R dA E RA A -> agrees_down_coded n R dB E CB B", CODED, coded))
    res = ex.residues
    if res is not None and residues_valid(res, ex.block):
        def residues(w: CoqWriter) -> None:
            assert res is not None
            write_block_residues(w, inst.d, inst.n, ex.block, ex.A, ex.B, res)
        agree.append((RESIDUE_AGREEMENT, RESIDUES, residues))
    if inst.skip is None and not inst.has_bias and cert.extract_of is None:
        for hyp, extra, write in agree:
            for t in texts:
                yield f"forall A B : mat, {hyp} -> ~ absorbable_ungated {s} d n {t} identity A B", mods + extra, write
    elif inst.skip is None and inst.has_bias and cert.extract_of is None:
        for hyp, extra, write in agree:
            for t in texts:
                yield (f"forall (A : mat) (c : vec) (B : mat) (b0 : vec), {hyp} -> "
                       f"~ absorbable_ungated_bias {s} d n {t} identity A c B b0", mods + BIAS + extra, write)
    elif inst.skip is not None and inst.has_bias and _block_matches(inst, ex):
        # R1 with biases: the user's W_up agrees with the block; the user's P and B; any c, b0
        def write(w: CoqWriter) -> None:
            d.nd(w)
            w.add(f"Definition R : list nat := [{'; '.join(f'{k}%nat' for k in ex.block)}].")
            w.z("dA", ex.A.den)
            w.rows("RA", ex.A.rows)
            d.skip(w, "s")
            d.user_down(w, "Bs")
        for t in texts + [f"{m}%nat"]:
            yield (f"forall (A : mat) (c : vec) (b0 : vec), agrees_up n R dA RA A -> "
                   f"~ absorbable_ungated_bias {s} d n {t} (mat_of_rows dPs RPs) A c (mat_of_cols dBs CBs) b0",
                   mods + BIAS, write)


def one_extra_claims(inst: Instance, decision: Decision, cert: Certificate
                     ) -> Iterator[tuple[str, tuple[str, ...], DataWriter]]:
    """One-extra-row certificates (``CertifyWidthOneExtraResidues``): "not absorbable at width n"
    for every pair agreeing with the instance's own residues on the certificate's block, whose row
    ``z`` is ``ln / ld`` times row ``i1`` -- offered only when the instance's ``W_up`` satisfies
    that relation exactly and the block's indices are valid (so the claim is about the instance).
    ReLU, or the GELU family with the extra row zero, dead or ``+-`` row ``i1`` (``|ln| = ld``)."""
    blk = cert.one_extra
    d, n = inst.d, inst.n
    facts = width_sigma(inst.activation.name)
    if (blk is None or facts is None or decision.verdict != "not_absorbable" or _widths(inst, decision)[0] != n
            or inst.has_bias or inst.skip is not None):
        return
    sigma, pm = facts
    if pm is not None and not (blk.ln == 0 or abs(blk.ln) == blk.ld):
        return
    idx_ok = all(len(set(ix)) == len(ix) and all(0 <= q < d for q in ix) for ix in (blk.R1, blk.C, blk.C2))
    if not idx_ok or not (0 <= blk.z < n and 0 <= blk.i1 < n and blk.z != blk.i1 and blk.ld > 0):
        return
    # the primes only choose which residues the claim names (Coq checks them); C2 lies in C
    if not (1 < blk.p < 2**31 and 1 < blk.q < 2**21 and set(blk.C2) <= set(blk.C)):
        return
    A, B = scale_matrix(inst.W_up), scale_matrix(inst.W_down)
    num = A.numerators()
    if blk.dead:  # column z of W_down zero, exactly
        if blk.ln != 0 or any(int(x) for x in B.numerators()[:, blk.z].tolist()):
            return
    elif any(int(num[blk.z, q]) * blk.ld != int(num[blk.i1, q]) * blk.ln for q in range(d)):
        return
    Ab = IntMatrix.from_numerators(num[:, list(blk.C)], A.den)
    Bb = IntMatrix.from_numerators(B.numerators()[list(blk.R1), :], B.den)

    def write(w: CoqWriter) -> None:
        write_statement_data(w, d, n, blk, Ab, Bb)
    yield statement(sigma, blk.dead), MODULES + (pm.modules if pm else ()), write


def low_rank_claims(inst: Instance, decision: Decision, cert: Certificate
                    ) -> Iterator[tuple[str, tuple[str, ...], DataWriter]]:
    """Rank-bound certificates (``CertifyLowRank``): "not absorbable at width m" for every
    ``W_up`` whose rows lie in the span of the instance's rows ``cert.low_rank`` -- offered only
    when the instance's own ``W_up`` does, checked here exactly, and ``m < 2 (d - rho)``."""
    rows = cert.low_rank
    facts = width_sigma(inst.activation.name)
    if (rows is None or facts is None or decision.verdict != "not_absorbable" or inst.has_bias
            or inst.skip is not None or len(set(rows)) != len(rows) or not all(0 <= i < inst.n for i in rows)):
        return
    m, texts = _widths(inst, decision)
    if not m < 2 * (inst.d - len(rows)):
        return
    num = scale_matrix(inst.W_up).numerators()
    if span_pivots(num, rows) is None:
        return
    V = [[int(x) for x in num[i]] for i in rows]

    def write(w: CoqWriter) -> None:
        write_low_rank_data(w, inst.d, inst.n, V)
    sigma, pm = facts
    for t in texts:
        yield low_rank_statement(sigma, t), LOW_RANK_MODULES + (pm.modules if pm else ()), write


def any_skip_claims(inst: Instance, decision: Decision) -> Iterator[tuple[str, tuple[str, ...], DataWriter]]:
    """Skips decided without R1 (``CertifyAnySkip``, any ``P``, singular included): the verdict at
    width ``n`` about the user's own ``P`` (rows ``RP`` over ``dP``). With biases: absorbable
    with the instance's ``W_up``, ``b_up`` and ``b_down``, not absorbable with the augmented rows
    ``(a_i, c_i)``. A zero ``P``: absorbable for every weight of the shape (bias-free or with
    biases, ungated or gated). The bias-free forms for a non-identity ``P`` are :func:`_full`'s."""
    P = scale_matrix(inst.skip) if inst.skip is not None else None
    if P is None or decision.verdict not in ("absorbable", "not_absorbable") or _widths(inst, decision)[0] != inst.n:
        return
    d = _Data(inst)
    act = inst.activation
    s = act.coq_function
    mods = (act.spec.coq_module,) + BIAS
    pt = "(mat_of_rows dP RP)"
    if decision.verdict == "absorbable" and P.max_abs() == 0:
        if act.gated:
            yield f"forall C A B : mat, absorbable_gated {s} d n n {pt} C A B", mods, _join(d.nd, d.skip)
            yield (f"forall (C : mat) (cg : vec) (A : mat) (cu : vec) (B : mat) (b0 : vec), "
                   f"absorbable_gated_bias {s} d n n {pt} C cg A cu B b0", mods, _join(d.nd, d.skip))
        else:
            yield f"forall A B : mat, absorbable_ungated {s} d n n {pt} A B", mods, _join(d.nd, d.skip)
            yield (f"forall (A : mat) (c : vec) (B : mat) (b0 : vec), absorbable_ungated_bias {s} d n n {pt} A c B b0",
                   mods, _join(d.nd, d.skip))
    if not inst.has_bias or act.gated:
        return
    if decision.verdict == "absorbable":
        yield (f"absorbable_ungated_bias {s} d n n {pt} (mat_of_rows dA RA) (vec_of dc Lc) (mat_of_cols dB CB) "
               "(vec_of db0 Lb0)", mods, _join(d.nd, d.plain, d.bias_vectors, d.skip))
    else:
        yield (f"~ absorbable_ungated_bias {s} d n n {pt} (mat_of_rows dA RA) (aug_bias d dA RA) (mat_of_cols dB CB) "
               "(vec_of db0 Lb0)", mods + ("CertifyBias",), _join(d.nd, d.augmented, d.skip))


def candidates(inst: Instance, decision: Decision, cert: Certificate
               ) -> Iterator[tuple[str, tuple[str, ...], DataWriter]]:
    """Every claim that states the reported verdict about ``inst``: ``(text, modules, data)``."""
    d = _Data(inst)
    if decision.verdict not in ("absorbable", "not_absorbable"):
        return
    if decision.verdict == "not_absorbable" and decision.result in ("R2", "R3"):
        yield from _classification(inst, decision, d)
        return
    if cert.one_extra is not None:
        yield from one_extra_claims(inst, decision, cert)
        return
    if cert.low_rank is not None:
        yield from low_rank_claims(inst, decision, cert)
        return
    if cert.extract is not None:
        yield from _partial(inst, decision, cert, d)
        return
    yield from _full(inst, decision, d)
    yield from any_skip_claims(inst, decision)


def expected_statement(inst: Instance, decision: Decision, cert: Certificate, theorem: str = "verdict") -> Expected:
    """The trusted claim for ``cert``: the candidate (:func:`candidates`) its statement
    (of ``Theorem <theorem>``: ``verdict_bare`` in a post-norm glue) names.

    Raises :class:`StatementMismatch` when the certificate states anything else (``True``,
    another verdict, width, activation or skip, a form pybridge does not write)."""
    text = stated(cert.source, theorem)
    for claim, modules, write in candidates(inst, decision, cert):
        if normalize(claim) == text:
            return Expected(claim, tuple(dict.fromkeys(BASE + modules)), write, theorem)
    raise StatementMismatch(f"the certificate's `{theorem}` states `{text[:120]}{'...' if len(text) > 120 else ''}`, "
                            f"not a {decision.verdict} verdict about this instance")


def header_digests(inst: Instance, cert: Certificate) -> Optional[str]:
    """None when the sha256 digests a partial certificate records (of the weights the block
    was taken from, and of the block) are the recomputed ones; else what differs."""
    ex = cert.extract
    if ex is None:
        return None
    if ex.extract_sha256 != digest(ex.A, ex.B):
        return "the recorded digest of the extracted entries is not theirs"
    src = cert.extract_of or inst
    A, B = scale_matrix(src.W_up), scale_matrix(src.W_down)
    whole: list[Sequence[IntMatrix]] = [(A, B)]
    if src.has_bias:
        c = scale_matrix([list(src.b_up or _zero(src.n))])
        b0 = scale_matrix([list(src.b_down or _zero(src.d))])
        whole.append((A, B, c, b0))
    if ex.weights_sha256 not in {digest(*mats) for mats in whole}:
        return "the recorded digest of the weights is not the instance's"
    if ex.weights_sha256 not in cert.source or ex.extract_sha256 not in cert.source:
        return "the certificate's header does not record the digests"
    return None
