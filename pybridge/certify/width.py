"""Coq certificates for the width route (R8, R8') and generic blocks with biases (R9).

Biased blocks through the width search (R8 with biases) are written by
:mod:`.certificates_bias_width`, blocks with a non-identity skip by
:mod:`.certificates_skip_width`; both are called from ``build_r8``.

Bias-free blocks (identity skip) are written with the R8 checkers of
``certify/R8Certify.v`` (``Z`` data, read from primitive-integer lists through
``CertifyWidth.zrows``):

- absorbable at ``m``: a grouping with a zero-kink tail (``check_grouping_drop``,
  ``check_pm_scales`` for the GELU family) and the width data
  ``(T, S, r, E, P, Q)`` (``check_width_data``): ``cert_r8_absorbable_*``;
- not absorbable at ``m < k``: the grouping, canonical classes
  (``check_lines_distinct`` / ``check_signs_distinct``, ``check_nonzero_cols``):
  ``cert_r8_below_classes_*``;
- not absorbable at ``m = k``: the same and a no-subset certificate for
  ``A := U``, ``B := G``, target ``L`` (``CertifyWidth.cert_r8_nosub_*``);
- not absorbable at ``m >= k`` after the exhaustive search: a rank certificate for
  every ``(T, S)`` (``RankCheck.cert_r8_rank_*``, :mod:`.certificates_rank`);
- ``--min-width``: one theorem, "absorbable at m* and not at m* - 1", when the
  lower side is one of the cases above.

Generic blocks with biases are written as partial (block) certificates when a
block applies (:mod:`.certificates_bias`: columns ``R`` of ``W_up``, rows ``R`` of
``W_down``, biases not read, ``cert_bias_not_absorbable_partial`` /
``cert_bias_not_absorbable_below_partial``, checked against the instance by
:func:`~pybridge.certify.pipeline.agreement`); otherwise with ``CertifyBias.v``'s
full certificate: the augmented rows
``(a_i, c_i)`` over one denominator, ``check_bias_nonzero``, ``check_generic`` in
dimension ``d + 1`` and ``check_nosub`` (``cert_bias_not_absorbable``), or
``m < n`` (``cert_bias_not_absorbable_below``).

"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional, Sequence

import numpy as np

from pybridge.certify.bias import find_block, write_bias_partial
from pybridge.certify.coded import coding
from pybridge.certify.encoding import LIMIT, ROW_CHUNK, CoqWriter, columns, nat_list
from pybridge.certify.kinds import MAX_FREE_CERT, CannotCertify, Certificate
from pybridge.certify.low_rank import LIBRARY_FILE as LOW_RANK_FILE
from pybridge.certify.low_rank import build_low_rank
from pybridge.certify.pieces import write_nonzero_skip, write_nosub, write_projection
from pybridge.certify.pm_facts import PM_FACTS, PmFacts
from pybridge.certify.rank import GroupingData, enum_ts, rank_term, shifted_int
from pybridge.certify.width_one import LIBRARY_FILE as ONE_EXTRA_FILE
from pybridge.certify.width_one import build_one_extra
from pybridge.decision.genericity import check_generic
from pybridge.decision.subset_search import search_subset
from pybridge.decision.width_route import library_has
from pybridge.exact.modular import IntMatrix, identity_int, scale_matrix
from pybridge.exact.ridge_form import RidgeForm
from pybridge.exact.width import WidthData
from pybridge.exact.width_evidence import WidthInfo
from pybridge.model import Decision, Instance

#: R9 per activation: (library file, (=>) property on generic_bias_lines, below-n property, modules).
R9_FACTS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "relu": ("bias/ReluBias.v", "relu_bias_lines_property", "relu_bias_below_property", ()),
    "gelu": ("bias/GeluBias.v", "(lines_of_signs_property gelu gelu_bias_absorbable_generic_submatrix)",
             "(below_of_signs_property gelu gelu_bias_generic_not_absorbable_below)", ("GeluBias",)),
    "gelu_tanh": ("bias/GeluTanhAffineRidge.v",
                  "(lines_of_signs_property gelu_tanh (signs_property_of_iff gelu_tanh "
                  "gelu_tanh_bias_absorbable_iff_submatrix))",
                  "(below_of_signs_property gelu_tanh gelu_tanh_bias_generic_not_absorbable_below)",
                  ("GeluTanhAffineRidge",)),
    "silu": ("bias/SiluAffineRidge.v",
             "(lines_of_signs_property silu (signs_property_of_iff silu silu_bias_absorbable_iff_submatrix))",
             "(below_of_signs_property silu silu_bias_generic_not_absorbable_below)", ("SiluAffineRidge",)),
    "quick_gelu": ("bias/QuickGeluAffineRidge.v",
                   "(lines_of_signs_property quick_gelu (signs_property_of_iff quick_gelu "
                   "quick_gelu_bias_absorbable_iff_submatrix))",
                   "(below_of_signs_property quick_gelu quick_gelu_bias_generic_not_absorbable_below)",
                   ("MoreActivationDefs", "QuickGeluAffineRidge")),
    "gelu_fast": ("bias/TanhGeluAffineRidge.v",
                  "(lines_of_signs_property gelu_fast (signs_property_of_iff gelu_fast "
                  "gelu_fast_bias_absorbable_iff_submatrix))",
                  "(below_of_signs_property gelu_fast gelu_fast_bias_generic_not_absorbable_below)",
                  ("MoreActivationDefs", "TanhGeluAffineRidge")),
}
#: Largest width a certificate states: Coq's statements take the width as a unary ``nat``,
#: and the checkers compare it with ``k + |T| + 2 r`` by computation.
MAX_CERT_WIDTH = 100_000


def check_cert_width(m: int) -> None:
    """:class:`CannotCertify` with a one-line reason when width ``m`` is beyond :data:`MAX_CERT_WIDTH`."""
    if m > MAX_CERT_WIDTH:
        raise CannotCertify(f"width {m} is above {MAX_CERT_WIDTH}, the largest width a certificate states "
                            "(Coq reads widths as unary naturals); the verdict is exact but not Coq-checked")


R8_MODULES = ("R8", "GroupingDrop", "ZMatrices", "GroupingCheck", "WidthCheck", "SignsCheck", "R8Certify",
              "CertifyWidth", "RankCheck", "CodedData")


def _bools(sel: Sequence[int], k: int) -> str:
    s = set(sel)
    return "[" + "; ".join("true" if t in s else "false" for t in range(k)) + "]"


def block_terms(w: CoqWriter, A: IntMatrix, B: IntMatrix, coded: bool) -> tuple[str, str]:
    """Write ``dA dB`` and the block (rows of ``A``, columns of ``B``) as plain numerators or,
    with ``coded`` and when :func:`~pybridge.certify.coded.coding` prefers them, as codes over
    ``E`` (the lines the expected statement writes for the same instance); return the
    ``list (list Z)`` terms the checks read (``(zrows RA)`` or ``(zcodes E RA)``, and ``CB``'s)."""
    cols = columns(B)
    codes = coding([A.rows, cols]) if coded else None
    w.z("dA", A.den)
    w.z("dB", B.den)
    if codes is None:
        w.rows("RA", A.rows)
        w.rows("CB", cols)
        return "(zrows RA)", "(zrows CB)"
    w.add(f"Definition E : int := {codes.base}%uint63.")
    w.rows("RA", codes.writable(0), unsigned=True)
    w.rows("CB", codes.writable(1), unsigned=True)
    return "(zcodes E RA)", "(zcodes E CB)"


def write_form_data(w: CoqWriter, dims: tuple[int, int, int, int], A: IntMatrix, B: IntMatrix, U: IntMatrix,
                    G: IntMatrix, L: IntMatrix, lam: IntMatrix, cls: Sequence[int],
                    coded: bool = False) -> tuple[str, str, str]:
    """Write a block (rows of ``A``, columns of ``B``; codes allowed with ``coded``) and its
    canonical form (``U``, ``G``, ``L``, scales ``lam``, classes ``cls``, ``-1`` for a dropped
    row) as the grouping checks read them; return their argument string (``{m}`` left for
    the width) and the block's two ``list (list Z)`` terms."""
    d, n, k, K = dims
    with w.data():
        w.nat("d", d)
        w.nat("n", n)
        w.nat("k", k)
        w.nat("K", K)
        za, zb = block_terms(w, A, B, coded)
    w.z("dU", U.den)
    w.rows("RU", U.rows if K else [])
    w.z("dG", G.den)
    w.rows("CG", columns(G))
    w.z("dL", L.den)
    w.rows("RL", L.rows)
    w.z("dl", lam.den)
    w.int_list("LNi", lam.rows[0])
    w.add("Definition LN : list Z := map zval LNi.")
    w.add(f"Definition cls : list nat := {nat_list([c if c >= 0 else K for c in cls])}.")
    return ("d n k K {m} dA " + za + " dB " + zb + " dU (zrows RU) dl LN cls dG (zrows CG) dL (zrows RL)",
            za, zb)


class _Grouping:
    """The integer data of a canonical grouping, written once into a writer."""

    def __init__(self, w: CoqWriter, inst: Instance, form: RidgeForm) -> None:
        d, n, k = inst.d, inst.n, form.k
        K = k + len(form.flat)
        self.k, self.K = k, K
        A = scale_matrix(inst.W_up)
        Bc = scale_matrix(inst.W_down)
        self.U, self.G = form_int_parts(form, [list(r) for r in form.flat])
        self.L = form.Li
        lam = scale_matrix([[form.lam[i] if form.cls[i] >= 0 else Fraction(0) for i in range(n)]])
        self.args, self.za, self.zb = write_form_data(w, (d, n, k, K), A, Bc, self.U, self.G, self.L, lam,
                                                      form.cls, coded=True)
        w.check("g_ok", f"check_grouping_drop d n k K dA {self.za} dB {self.zb} dU (zrows RU) dl LN cls dG "
                "(zrows CG) dL (zrows RL)")


def form_int_parts(form: RidgeForm, extra_rows: Sequence[Sequence[Fraction]]) -> tuple[IntMatrix, IntMatrix]:
    """``(U, G)`` of the certificate: the ridges' rows ``form.Ui`` followed by ``extra_rows``
    (the flat classes' representatives), and ``form.Gi`` with a zero column per extra row.
    Integer matrices straight from the form (no Fraction per entry when there are no flat classes)."""
    d, k = form.d, form.k
    K = k + len(extra_rows)
    if K == 0:
        return IntMatrix((), 1), IntMatrix(tuple(() for _ in range(d)), 1)
    if not extra_rows:
        return form.Ui, form.Gi
    U = scale_matrix(list(form.U) + [list(r) for r in extra_rows])
    Gn = np.zeros((d, K), dtype=form.Gi.numerators().dtype)
    Gn[:, :k] = form.Gi.numerators()
    return U, IntMatrix.from_numerators(Gn, form.Gi.den)


def _header(inst: Instance) -> tuple[CoqWriter, str, Optional[PmFacts]]:
    name = inst.activation.name
    pm = PM_FACTS.get(name)
    extra = (pm.modules if pm else ()) + R8_MODULES + (("RankSparse",) if library_has(SPARSE_FILE) else ())
    return CoqWriter(extra=extra), ("relu" if pm is None else pm.sigma), pm


SPARSE_FILE = "certify/RankSparse.v"
SparseEntry = tuple[int, int, list[int], int]  # (t0, i0, J, D) of RankSparse.sparse_entry


def sparse_entries(g: GroupingData, d: int, m: int) -> Optional[list[SparseEntry]]:
    """The entries of ``RankSparse.check_sparse_refute`` at width ``m`` for one ridge class
    (``k = 1``), or None when the sparse form does not apply (then the dense rank entries
    are written).

    For every pair ``(T, S)`` with ``|T| <= 1`` (``t0`` the class in ``T``, else class 0):
    the pivot ``i0`` (first nonzero entry of ``u_t0``), ``c = (m - k - |T|) // 2 + 1`` other
    indices ``J``, and ``D``, when ``u_t0[i0] M[j_a, j_b] - u_t0[j_b] M[j_a, i0]`` is ``D``
    on the diagonal and 0 elsewhere for ``M = shifted_int`` (the identity plus terms along
    ``u_t0``, as for a layer whose rows lie on one line)."""
    k = g.k
    if k != 1:  # one ridge class (rows on one line); several classes keep the dense entries
        return None
    Un = g.U.numerators()
    out: list[SparseEntry] = []
    for T, S in enum_ts(k):
        nT = sum(T)
        if k + nT > m:
            continue
        if nT > 1:
            return None
        t0 = T.index(True) if nT else 0
        u = [int(x) for x in Un[t0].tolist()]
        i0 = next((i for i, x in enumerate(u) if x), None)
        c = (m - k - nT) // 2 + 1
        if i0 is None or c > d - 1:
            return None
        J = [j for j in range(d) if j != i0][:c]
        M = shifted_int(g.U, g.G, g.L, k, S, d)
        D = u[i0] * M[J[0]][J[0]] - u[J[0]] * M[J[0]][i0]
        if D == 0:
            return None
        for a, ja in enumerate(J):
            row, mi = M[ja], M[ja][i0]
            for b, jb in enumerate(J):
                if u[i0] * row[jb] - u[jb] * mi != (D if a == b else 0):
                    return None
        out.append((t0, i0, J, D))
    return out


def _rank_term(w: CoqWriter, g: GroupingData, d: int, m: int, sigma: str,
               pm: Optional[PmFacts]) -> str:
    """The refutation at width ``m`` (every ``(T, S)``): sparse entries
    (``RankSparse.cert_r8_rank_sparse_*``: a few small integers per pair, checked in seconds
    where the dense ones take hours at ``d = 300``) when they apply, else
    :func:`pybridge.certify.rank.rank_term`."""
    es = sparse_entries(g, d, m) if library_has(SPARSE_FILE) else None
    if es is None:
        return rank_term(w, g, d, m, sigma, pm)
    tag = str(m)
    names = []
    for i, (t0, i0, J, D) in enumerate(es):
        names.append(f"SP{tag}_{i}")
        w.add(f"Definition SP{tag}_{i} : sparse_entry := Build_sparse_entry {t0}%nat {i0}%nat {nat_list(J)} ({D})%Z.")
    w.add(f"Definition SP{tag} : list sparse_entry := [{'; '.join(names)}].")
    w.check(f"sp_ok{tag}", f"check_sparse_refute d k {m}%nat dL (zrows RL) dG (zrows CG) dU (zrows RU) SP{tag}")
    args = g.args.format(m=f"{m}%nat") + f" SP{tag}"
    if pm is None:
        return f"(cert_r8_rank_sparse_relu {args} g_ok l_ok nz_ok sp_ok{tag})"
    return f"(cert_r8_rank_sparse_pm {sigma} {args} {pm.odd_part} {pm.zero} {pm.ridge_unique} g_ok pm_ok s_ok nz_ok sp_ok{tag})"


def zmatrix(w: CoqWriter, name: str, rows: Sequence[Sequence[int]] | np.ndarray) -> str:
    """A ``list (list Z)`` term for ``rows``: primitive integers read by ``zrows`` when every
    numerator fits 62 bits, else ``Z`` literals (exact at any size; slower to parse)."""
    if all(-LIMIT <= v < LIMIT for r in rows for v in r):
        w.rows(name, rows)
        return f"(zrows {name})"
    if "Definition zc := @cons Z." not in w.lines:
        w.add("Definition zc := @cons Z.")
        w.add("Definition ze := @nil Z.")
    names = []
    for i, r in enumerate(rows):
        parts = []
        for c in range(0, max(len(r), 1), ROW_CHUNK):
            chunk = r[c:c + ROW_CHUNK]
            part = f"{name}{i}_z{c // ROW_CHUNK}"
            w.add(f"Definition {part} : list Z := " + "".join(f"(zc ({v})%Z " for v in chunk) + "ze"
                  + ")" * len(chunk) + ".")
            parts.append(part)
        names.append(f"{name}{i}")
        w.add(f"Definition {name}{i} : list Z := {' ++ '.join(parts)}.")
    w.add(f"Definition {name} : list (list Z) := [{'; '.join(names)}].")
    return name


def width_data_terms(w: CoqWriter, data: WidthData, k: int, d: int, m: int, tag: str) -> str:
    """Write the width data ``(T, S, r, E, P, Q)`` and its check ``w_ok<tag>``; return the
    arguments ``T S r dE CE dP CP dQ RQ`` of the certificate lemmas (``Z`` terms)."""
    E = scale_matrix([[data.E[p][t] for t in range(k)] for p in range(d)]) if k else IntMatrix((), 1)
    P = scale_matrix(data.P) if data.r else IntMatrix((), 1)
    Q = scale_matrix(data.Q) if data.r else IntMatrix((), 1)
    w.z(f"dE{tag}", E.den)
    ce = zmatrix(w, f"CE{tag}", columns(E) if k else [])
    w.z(f"dP{tag}", P.den)
    cp = zmatrix(w, f"CP{tag}", columns(P) if data.r else [])
    w.z(f"dQ{tag}", Q.den)
    rq = zmatrix(w, f"RQ{tag}", Q.rows if data.r else [])
    tail = f"{_bools(data.T, k)} {_bools(data.S, k)} {data.r}%nat dE{tag} {ce} dP{tag} {cp} dQ{tag} {rq}"
    w.check(f"w_ok{tag}", f"check_width_data d k {m} dL (zrows RL) dG (zrows CG) dU (zrows RU) {tail}")
    return tail


def _absorbable_term(w: CoqWriter, g: _Grouping, inst: Instance, info: WidthInfo, m: int, sigma: str, pm) -> str:
    if info.data is None:
        raise CannotCertify("absorbable width decision without width data")
    tail = width_data_terms(w, info.data, g.k, inst.d, m, "a")
    args = g.args.format(m=f"{m}%nat") + " " + tail
    if pm is None:
        return f"(cert_r8_absorbable_relu {args} g_ok w_oka)"
    return f"(cert_r8_absorbable_pm {sigma} {args} {pm.odd_part} {pm.zero} g_ok pm_ok w_oka)"


def _canonical_checks(w: CoqWriter, pm) -> None:
    if pm is None:
        w.check("l_ok", "check_lines_distinct d k dU (zrows RU)")
    else:
        w.check("s_ok", "check_signs_distinct d k dU (zrows RU)")
    w.check("nz_ok", "check_nonzero_cols d k dG (zrows CG)")


def _below_term(g: _Grouping, m: int, sigma: str, pm) -> str:
    args = g.args.format(m=f"{m}%nat")
    if pm is None:
        return f"(cert_r8_below_classes_relu {args} g_ok l_ok nz_ok eq_refl)"
    return f"(cert_r8_below_classes_pm {sigma} {args} {pm.odd_part} {pm.zero} {pm.ridge_unique} g_ok pm_ok s_ok nz_ok eq_refl)"


def write_nosub_at_k(w: CoqWriter, U: IntMatrix, G: IntMatrix, L: IntMatrix) -> None:
    """No ``S`` among the ``k`` ridges cancels ``L`` (``U``: the ridges' directions, ``G``:
    their kinks): the no-subset certificate for ``A := U``, ``B := G``, target ``L``, and its
    check ``ns_ok``. Raises :class:`CannotCertify` when the search gives none."""
    out = search_subset(U, G, L)
    if out.status != "none" or out.certificate is None:
        raise CannotCertify(f"no no-subset certificate at width k ({out.reason or out.status})")
    cert = out.certificate
    if len(cert.free) > MAX_FREE_CERT:
        raise CannotCertify(f"the certificate would enumerate 2^{len(cert.free)} assignments")
    write_nosub(w, cert)
    w.check("ns_ok", "check_nosub d k dU dG dL RU CG RL p F FS")


def _nosub_term(w: CoqWriter, g: _Grouping, sigma: str, pm) -> str:
    k = g.k
    write_nosub_at_k(w, IntMatrix(g.U.rows[:k], g.U.den), IntMatrix(tuple(r[:k] for r in g.G.rows), g.G.den), g.L)
    args = f"d n k K dA {g.za} dB {g.zb} dU RU dl LN cls dG CG dL RL p F FS"
    if pm is None:
        return f"(cert_r8_nosub_relu {args} g_ok l_ok nz_ok ns_ok)"
    return f"(cert_r8_nosub_pm {sigma} {args} {pm.odd_part} {pm.zero} {pm.ridge_unique} g_ok pm_ok s_ok nz_ok ns_ok)"


def _statement(g: _Grouping, sigma: str, m: int, negated: bool) -> str:
    s = f"absorbable_ungated {sigma} d n {m} identity (zmat_rows dA {g.za}) (zmat_cols dB {g.zb})"
    return f"~ {s}" if negated else s


def build_r8(inst: Instance, decision: Decision, info: WidthInfo) -> Certificate:
    """R8 / R8' on a bias-free block with the identity skip (the pipeline sends biased blocks
    to :mod:`.bias_width` and other skips to :mod:`.skip_width`)."""
    if inst.has_bias or inst.skip is not None:
        raise CannotCertify("the plain R8 certificate is for bias-free blocks with the identity skip")
    if info.reason == "low_rank" and decision.verdict == "not_absorbable":
        if info.low_rank is None:
            raise CannotCertify("a rank-bound verdict without its null vectors")
        if not library_has(LOW_RANK_FILE):
            raise CannotCertify(f"the rank-bound theorem ({LOW_RANK_FILE}) is not in the library yet")
        check_cert_width(info.width)
        return build_low_rank(inst, info.low_rank, info.width)
    if info.reason == "one_extra" and decision.verdict == "not_absorbable":
        if info.one_extra is None:
            raise CannotCertify("a one-extra-row verdict without its refutation")
        if not library_has(ONE_EXTRA_FILE):
            raise CannotCertify(f"the one-extra-row theorem ({ONE_EXTRA_FILE}) is not in the library yet")
        return build_one_extra(inst, info.one_extra)
    if not library_has("certify/R8Certify.v"):
        raise CannotCertify("the R8 checkers (certify/R8Certify.v) are not in the library yet")
    check_cert_width(info.width)
    w, sigma, pm = _header(inst)
    g = _Grouping(w, inst, info.form)
    if pm is not None:
        w.check("pm_ok", "check_pm_scales n K dl LN cls")
    m = info.width
    if decision.verdict == "absorbable":
        term = _absorbable_term(w, g, inst, info, m, sigma, pm)
        stmt = _statement(g, sigma, m, False)
        kind = f"absorbable at width {m} (R8 <=, explicit width data)"
        low = info.lower_reason if info.min_exact else None
        if low in ("below_classes", "no_subset_at_k", "exhaustive") and m >= 1:
            _canonical_checks(w, pm)
            lterm = _below_term(g, m - 1, sigma, pm) if low == "below_classes" else \
                _nosub_term(w, g, sigma, pm) if low == "no_subset_at_k" else _rank_term(w, g, inst.d, m - 1, sigma, pm)
            stmt = f"{stmt} /\\ {_statement(g, sigma, m - 1, True)}"
            term = f"(conj {term} {lterm})"
            kind = f"least absorbing width {m}: absorbable at {m}, not at {m - 1} (R8)"
    elif info.reason == "below_classes":
        _canonical_checks(w, pm)
        term, stmt = _below_term(g, m, sigma, pm), _statement(g, sigma, m, True)
        kind = f"not absorbable at width {m} < k = {g.k} (R8 =>)"
    elif info.reason == "no_subset_at_k":
        _canonical_checks(w, pm)
        term, stmt = _nosub_term(w, g, sigma, pm), _statement(g, sigma, m, True)
        kind = f"not absorbable at width k = {m}: no S cancels L (R8 =>)"
    elif info.reason == "exhaustive":
        _canonical_checks(w, pm)
        term, stmt = _rank_term(w, g, inst.d, m, sigma, pm), _statement(g, sigma, m, True)
        kind = f"not absorbable at width {m} >= k = {g.k}: every (T, S) refuted by a rank certificate (R8 =>)"
    else:
        raise CannotCertify(f"no certificate for the width reason {info.reason!r}")
    w.add(f"Theorem verdict : {stmt}.\nProof. exact {term}. Qed.")
    return Certificate("CertWidth", w.text(), kind, inst.activation.label)


def _build_bias(inst: Instance, decision: Decision, residues: bool = True) -> Certificate:
    """Generic with biases, no S (width n) or width below n: ``CertifyBias.v``."""
    name = inst.activation.name
    if inst.skip is not None:
        raise CannotCertify("biases with a non-identity skip")
    if name not in R9_FACTS:
        raise CannotCertify(f"no R9 certificate for {inst.activation.label}")
    path, prop, below, modules = R9_FACTS[name]
    if not library_has(path):
        raise CannotCertify(f"R9 for {inst.activation.label} with biases ({path}) is not in the library yet")
    d, n = inst.d, inst.n
    sigma = inst.activation.coq_function
    m = decision.width if decision.width is not None else n
    partial = _bias_partial(inst, decision, m, sigma, prop, below, modules, residues)
    if partial is not None:
        return partial
    c = inst.b_up or (Fraction(0),) * n
    aug = scale_matrix([list(inst.W_up[i]) + [c[i]] for i in range(n)])
    A = IntMatrix(tuple(r[:d] for r in aug.rows), aug.den)
    B = scale_matrix(inst.W_down)
    gen = check_generic(aug, B)
    if not gen.generic or gen.certificate is None:
        raise CannotCertify("the augmented rows (a_i, c_i) have no pairwise-independence projection certificate"
                            f" ({gen.reason})")
    b0 = scale_matrix([list(inst.b_down or (Fraction(0),) * d)])
    w = CoqWriter(extra=("BiasBlocks", "BiasSpec", "ReluBias", *modules, "CertifyBias"))
    with w.data():
        w.nat("d", d)
        w.nat("n", n)
        w.z("dA", aug.den)
        w.z("dB", B.den)
        w.rows("RA", aug.rows)
        w.rows("CB", columns(B))
        w.z("db0", b0.den)
        w.int_list("Lb0", b0.rows[0])
    g = gen.certificate
    write_projection(w, g)
    w.check("nz_ok", "check_bias_nonzero d n RA CB")
    w.check("gen_ok", "check_generic (S d) n RA CB pg U V")
    block = (f"absorbable_ungated_bias {sigma} d n {m} identity (mat_of_rows dA RA) (aug_bias d dA RA) "
             "(mat_of_cols dB CB) (vec_of db0 Lb0)")
    if m < n:
        term = (f"(cert_bias_not_absorbable_below {sigma} {below} d n {m}%nat dA dB RA CB "
                "(vec_of db0 Lb0) pg U V eq_refl eq_refl nz_ok gen_ok eq_refl)")
        kind = f"not absorbable at width {m} < n (R9, generic with biases)"
    else:
        ev = decision.evidence
        if ev is not None and ev.nosub_cert is not None and ev.A.rows == A.rows and ev.A.den == A.den \
                and ev.B == B and inst.skip is None:
            cert = ev.nosub_cert  # the R5 search ran on exactly these integers
        else:
            out = search_subset(A, B, identity_int(d))
            if out.status != "none" or out.certificate is None:
                raise CannotCertify("no no-subset certificate for the biased block")
            cert = out.certificate
        if len(cert.free) > MAX_FREE_CERT:
            raise CannotCertify(f"the certificate would enumerate 2^{len(cert.free)} assignments")
        write_nosub(w, cert)
        w.check("nosub_ok", "check_nosub d n dA dB 1 RA CB (id_rows d) p F FS")
        term = (f"(cert_bias_not_absorbable {sigma} {prop} d n dA dB RA CB (vec_of db0 Lb0) pg U V p F FS "
                "nz_ok gen_ok nosub_ok)")
        kind = "not absorbable at width n (R9 =>, generic with biases, no S)"
    w.add(f"Theorem verdict : ~ {block}.\nProof. exact {term}. Qed.")
    return Certificate("CertBias", w.text(), kind, inst.activation.label)


def _bias_partial(inst: Instance, decision: Decision, m: int, sigma: str, prop: str, below: str,
                  modules: tuple[str, ...], residues: bool = True) -> Optional[Certificate]:
    """The partial certificate (``certificates_bias``), or None when no block applies."""
    ev = decision.evidence
    if m >= inst.n:
        if ev is None or ev.nosub_cert is None:
            return None
        blk = find_block(inst, ev.A, ev.B, ev.nosub_cert, residues)
    else:
        A = ev.A if ev is not None else scale_matrix(inst.W_up)
        B = ev.B if ev is not None else scale_matrix(inst.W_down)
        blk = find_block(inst, A, B, None)
    if blk is None:
        return None
    source, kind = write_bias_partial(blk, inst.d, inst.n, m, sigma, prop, below, modules)
    return Certificate("CertBias", source, kind, inst.activation.label, blk.extract)


def _build_classification_at(inst: Instance, decision: Decision) -> Certificate:
    """R2 / R3 at a width ``m`` other than ``n`` (both theorems hold at every width)."""
    act = inst.activation
    m = decision.width if decision.width is not None else inst.n
    lemma = act.spec.not_absorbable_lemma
    if lemma is None:
        raise CannotCertify(f"no classification theorem for {act.label}")
    name = lemma.rsplit(".", 1)[-1]
    w = CoqWriter(extra=(act.spec.coq_module,))
    with w.data():
        w.nat("d", inst.d)
        w.nat("n", inst.n)
    sk, k, l = write_nonzero_skip(w, inst)
    nz = f"(check_skip_nonzero_sound d {sk} {k} {l} P_nz)"
    if act.gated:
        stmt = f"forall C A B : mat, ~ absorbable_gated {act.coq_function} d n {m} (skip_mat {sk}) C A B"
        proof = f"intros C A B. exact ({name} d n {m} _ C A B {nz})."
        kind = f"not absorbable at width {m} (R3), all weights"
    elif act.name == "relu_pow" and act.degree is not None and act.degree != 1:
        stmt = f"forall A B : mat, ~ absorbable_ungated {act.coq_function} d n {m} (skip_mat {sk}) A B"
        proof = (f"intros A B. exact (relu_pow_not_absorbable {act.degree} d n {m} _ A B "
                 f"(proj1 (Nat.eqb_neq {act.degree} 1) eq_refl) {nz}).")
        kind = f"not absorbable at width {m} (R2), all weights"
    else:
        raise CannotCertify(f"no classification certificate for {act.label}")
    w.add(f"Theorem verdict : {stmt}.\nProof. {proof} Qed.")
    return Certificate("CertClassifyWidth", w.text(), kind, act.label)


def handles(decision: Decision) -> bool:
    """This module writes the certificate of ``decision`` (width route, R9, R2/R3 at a width != n)."""
    if decision.result in ("R2", "R3"):
        return decision.width is not None
    return decision.width_info is not None or (decision.result == "R9" and decision.verdict == "not_absorbable")


def build_width_certificate(instance: Instance, decision: Decision, residues: bool = True) -> Optional[Certificate]:
    """The certificate of a width-route / R9 decision (None: nothing to certify); ``residues``:
    a partial certificate may be written on residues."""
    if decision.verdict in ("outside_hypotheses", "undecided"):
        return None
    if decision.result in ("R2", "R3"):
        return _build_classification_at(instance, decision)
    if decision.width_info is not None:
        return build_r8(instance, decision, decision.width_info)
    return _build_bias(instance, decision, residues)
