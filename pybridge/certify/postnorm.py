"""Certificates of post-LayerNorm verdicts decided through ``C P`` (``certify/CertifyPostNorm.v``,
``certify/CertifyPostNormBias.v``).

:func:`build_postln_certificate` writes, from a :class:`~pybridge.decision.postnorm.PostLNDecision`,
the instance's data (``W_up`` rows ``RA`` -- with biases the augmented rows ``(a_i, c_i)`` --,
``W_down`` columns ``CB``, the skip's rows ``RP``, the bias vectors) and the centered data
``CBc`` (and ``RCP``) that Coq checks exactly against them (``check_centered_cols``,
``check_centered_rows``), then the bare checkers on the reduced problem: ``check_submatrix``
with the found ``S``; or the genericity checks (``check_generic``; with biases
``check_bias_nonzero`` and ``check_generic`` in dimension ``d + 1`` on the augmented rows) and
``check_nosub`` with target ``C P``.

Large identity-skip not-absorbable instances (``d n >=`` :data:`PARTIAL_FROM`) get a *partial*
certificate (``cert_postln_bias_not_absorbable_partial``, ``cert_postln_free_not_absorbable_partial``):
columns ``R`` of ``W_up`` and rows ``R`` of ``C W_down`` (``|R| = ceil(sqrt(n + 1))``, the block of
:func:`pybridge.decision.subset_search.block_indices`), the sorted-ratio genericity check and the
block no-subset functional against ``C[R, R]``; the claim is stated for EVERY block whose ``W_up``
agrees on columns ``R`` and whose ``C W_down`` agrees on rows ``R`` (any biases), with those
entries computed from the instance, so the instance is one of them. When a few of the block's
indices carry the genericity check, the block is written as residues
(``cert_postln_*_not_absorbable_partial_mod``, ``CertifyPostNormResidues``: modulo the no-subset
prime, those indices modulo the genericity prime; the claim: every block congruent to them).

:func:`expected_postln` is the trusted side: the claim, written from the instance and the
reported verdict alone (never from the decision's evidence or the certificate):

- absorbable: ``forall eps gam_s bet_s, absorbable_postnorm_ungated(_bias) (layer_norm d eps gam_s
  bet_s) sigma d n n P A (c) B (b0)`` (every ``eps``, ``gamma`` with zeros included, ``beta``);
- not absorbable (ReLU, GELU family): ``forall eps gam_s bet_s, 0 < eps -> (forall i, i < d ->
  gam_s i <> 0) -> ~ absorbable_postnorm_ungated(_bias) ...``; partial: ``forall A (c) B (b0),
  agrees_up n R dA RA A -> agrees_down n R dB CB (mm d (centering d) B) -> forall eps ...``;

with ``P`` ``identity`` or ``(mat_of_rows dP RP)``, ``A = (mat_of_rows dA RA)``,
``B = (mat_of_cols dB CB)``, ``c = (vec_of dc Lc)`` (absorbable) or ``(aug_bias d dA RA)`` (not
absorbable), ``b0 = (vec_of db0 Lb0)``. :func:`certify_postln` has the prover check the
certificate through a driver (:mod:`.driver`) that loads it and proves the expected claim from
its ``verdict``, and accepts only allowed axioms, as the bare pipeline does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Optional, Sequence

from pybridge.certify.encoding import LIMIT, CoqWriter, columns, prime_list, primes_for
from pybridge.certify.kinds import MAX_FREE_CERT, CannotCertify, Residues
from pybridge.certify.pieces import (
    RESIDUE_CHECKS,
    RESIDUE_DATA,
    residue_form,
    residues_valid,
    write_block,
    write_block_residues,
    write_nosub,
    write_projection,
    write_residue_block,
)
from pybridge.certify.pipeline import check_vetted
from pybridge.certify.statement import BASE, Expected
from pybridge.decision.genericity import SortedGenericCertificate, sorted_certificate
from pybridge.decision.postnorm import SKIP_FAMILY, PostLNDecision, augmented_rows, centered_problem
from pybridge.decision.subset_search import block_indices, restrict_functionals, sub_matrices
from pybridge.exact.evidence import NoSubsetCertificate
from pybridge.exact.modular import IntMatrix, scale_matrix
from pybridge.model import Instance
from pybridge.prover import ProverBackend, ProverOutcome, ProverResult

MODULES = ("Norms", "PostNorm", "PostNormGeneric", "BiasBlocks", "BiasSpec", "CertifyBias", "CertifyPostNorm",
           "CertifyPostNormBias")
#: the largest ``d`` with a non-identity skip: ``check_centered_rows`` costs about ``d^3`` steps
MAX_SKIP_D = 256
#: ``d * n`` from which an identity-skip not-absorbable certificate is partial (bench/RESULTS.md)
PARTIAL_FROM = 16384
_A, _B = "(mat_of_rows dA RA)", "(mat_of_cols dB CB)"
_EPS = "forall (eps : Rdefinitions.R) (gam_s bet_s : vec)"
_HYP = "0 < eps ->\n  (forall i, (i < d)%nat -> gam_s i <> 0) ->\n"


@dataclass(frozen=True)
class PostLNCertificate:
    """A generated Coq file for a post-LN verdict (``partial``: the block form)."""

    stem: str
    source: str
    summary: str
    partial: bool = False
    #: a partial certificate written on residues (``CertifyPostNormResidues``): its primes and
    #: genericity indices, from which the expected claim's residues are written
    residues: Optional[Residues] = None


def _skip_term(inst: Instance) -> str:
    return "identity" if inst.skip is None else "(mat_of_rows dP RP)"


def partial_form(inst: Instance, verdict: str) -> bool:
    """Whether the certificate of ``verdict`` about ``inst`` is the partial (block) form."""
    return verdict == "not_absorbable" and inst.skip is None and inst.d * inst.n >= PARTIAL_FROM


def _property(inst: Instance) -> str:
    """The Coq fact ``skip_bias_property sigma`` / ``skip_free_property sigma`` of the activation."""
    act = inst.activation
    if act.gated or act.name not in SKIP_FAMILY:
        raise CannotCertify(f"no post-LayerNorm not-absorbable certificate for {act.label}")
    return f"{act.name}_skip_{'bias' if inst.has_bias else 'free'}_property"


def postln_claim(inst: Instance, verdict: str, partial: bool = False, residues: bool = False) -> str:
    """The Coq statement of ``verdict`` about ``inst`` after a LayerNorm (module docstring);
    ``residues``: the partial form on residues (the block agrees modulo the data's primes)."""
    act = inst.activation
    s = act.coq_function
    bias = inst.has_bias
    pred = "absorbable_postnorm_ungated_bias" if bias else "absorbable_postnorm_ungated"
    ln = "(layer_norm d eps gam_s bet_s)"
    if verdict == "absorbable":
        args = f"{_A} (vec_of dc Lc) {_B} (vec_of db0 Lb0)" if bias else f"{_A} {_B}"
        return f"{_EPS},\n  {pred} {ln} {s} d n n {_skip_term(inst)} {args}"
    if verdict == "not_absorbable":
        _property(inst)
        if partial:
            if inst.skip is not None:
                raise CannotCertify("partial post-LayerNorm certificates are written for the identity skip only")
            head = "forall (A : mat) (c : vec) (B : mat) (b0 : vec)" if bias else "forall A B : mat"
            args = "A c B b0" if bias else "A B"
            agree = ("agrees_up_mod n R dA p RAp A ->\n  agrees_down_mod n R dB p CBp (mm d (centering d) B) ->\n"
                     "  agrees_up_mod n R2 dA pg RAg A ->\n  agrees_down_mod n R2 dB pg CBg (mm d (centering d) B)"
                     if residues else "agrees_up n R dA RA A ->\n  agrees_down n R dB CB (mm d (centering d) B)")
            return f"{head}, {agree} ->\n  {_EPS}, {_HYP}  ~ {pred} {ln} {s} d n n identity {args}"
        args = f"{_A} (aug_bias d dA RA) {_B} (vec_of db0 Lb0)" if bias else f"{_A} {_B}"
        return f"{_EPS}, {_HYP}  ~ {pred} {ln} {s} d n n {_skip_term(inst)} {args}"
    raise CannotCertify(f"no post-LayerNorm certificate for verdict {verdict!r:.30}")


def _vec(w: CoqWriter, name: str, values: Optional[Sequence[Fraction]], length: int) -> None:
    v = scale_matrix([list(values or (Fraction(0),) * length)])
    w.z(f"d{name}", v.den)
    w.int_list(f"L{name}", v.rows[0])


def _up(inst: Instance, verdict: str) -> IntMatrix:
    """``W_up`` as the certificate states it: with biases, the augmented rows (not absorbable)
    or their first ``d`` columns (absorbable) over the augmented rows' denominator."""
    if not inst.has_bias:
        return scale_matrix(inst.W_up)
    return augmented_rows(inst) if verdict == "not_absorbable" else centered_problem(inst).A


def _block(inst: Instance) -> tuple[tuple[int, ...], IntMatrix, IntMatrix]:
    """The partial form's block from the instance: ``R``, columns ``R`` of ``W_up`` and rows ``R``
    of ``C W_down`` (the denominators of :func:`~pybridge.decision.postnorm.centered_problem`)."""
    prob = centered_problem(inst)
    R = block_indices(inst.d, inst.n)
    Ab, Bb, _ = sub_matrices(prob.A, prob.CB, prob.CP, R)
    return R, Ab, Bb


def _write_instance(w: CoqWriter, inst: Instance, verdict: str, partial: bool,
                    residues: Optional[Residues] = None) -> None:
    """The instance's own data the claim names (module docstring); a partial form on
    ``residues`` (checked by :func:`expected_postln`) writes the block's residues modulo their
    primes."""
    if partial and residues is not None:
        R, Ab, Bb = _block(inst)
        write_block_residues(w, inst.d, inst.n, R, Ab, Bb, residues)
        return
    if partial:
        R, Ab, Bb = _block(inst)
        if max(Ab.max_abs(), Bb.max_abs()) >= LIMIT:
            raise CannotCertify("a block numerator does not fit the 63-bit encoding of the certificates")
        write_block(w, inst.d, inst.n, R, Ab, Bb, columns(Bb), None)
        return
    A, B = _up(inst, verdict), scale_matrix(inst.W_down)
    w.nat("d", inst.d)
    w.nat("n", inst.n)
    w.z("dA", A.den)
    w.z("dB", B.den)
    w.rows("RA", A.rows)
    w.rows("CB", columns(B))
    if inst.has_bias:
        if verdict == "absorbable":
            _vec(w, "c", inst.b_up, inst.n)
        _vec(w, "b0", inst.b_down, inst.d)
    if inst.skip is not None:
        P = scale_matrix(inst.skip)
        w.z("dP", P.den)
        w.rows("RP", P.rows)


def _modules(inst: Instance) -> tuple[str, ...]:
    return (*inst.activation.spec.certificate_modules, *MODULES)


def expected_postln(inst: Instance, verdict: str, partial: bool = False,
                    residues: Optional[Residues] = None) -> Expected:
    """The trusted claim for ``inst`` and the reported ``verdict`` (from the instance alone;
    for the partial form on ``residues``, with their primes and indices, which any values
    would keep true of the instance). Raises :class:`CannotCertify` when ``residues`` names no
    valid form for the block."""
    if residues is not None and not (partial and residues_valid(residues, block_indices(inst.d, inst.n))):
        raise CannotCertify("the residue form names primes or indices outside the block's")
    claim = postln_claim(inst, verdict, partial, residues is not None)
    mods = _modules(inst) + (("CertifyResidues", "CertifyPostNormResidues") if residues is not None else ())
    return Expected(claim, tuple(dict.fromkeys(BASE + mods)),
                    lambda w: _write_instance(w, inst, verdict, partial, residues))


def _target(w: CoqWriter, inst: Instance, pd: PostLNDecision) -> tuple[str, str, str, str]:
    """``(dT, RT, P, proof of cen_target d dT RT P)`` of the centered skip."""
    assert pd.problem is not None
    if inst.skip is None:
        w.check("dim_ok_", "dim_ok d")
        return "(Z.of_nat d)", "(cen_id_rows d)", "identity", "(cen_target_id d dim_ok_)"
    w.rows("RCP", pd.problem.CP.rows)
    w.check("dP_pos", "(0 <? dP)%Z")
    w.check("cenP_ok", "check_centered_rows d RP RCP")
    return "(Z.of_nat d * dP)", "RCP", "(mat_of_rows dP RP)", "(cen_target_skip d dP RP RCP dP_pos cenP_ok)"


def _write_generic(w: CoqWriter, pd: PostLNDecision) -> None:
    cert, gen = pd.nosub, pd.generic
    if cert is None or gen is None:
        raise CannotCertify("the not-absorbable post-LayerNorm decision lacks its genericity or no-subset certificate")
    if len(cert.free) > MAX_FREE_CERT:
        raise CannotCertify(f"the certificate would enumerate 2^{len(cert.free)} assignments")
    write_projection(w, gen)
    write_nosub(w, cert)


def _partial_certificate(inst: Instance, pd: PostLNDecision) -> Optional[PostLNCertificate]:
    """The partial (block) certificate, or None when the decision's no-subset certificate is
    not a block one on :func:`block_indices`' block or no sorted-ratio certificate exists there."""
    cert = pd.nosub
    R, Ab, Bb = _block(inst)
    if cert is None or getattr(cert, "block", None) != R or len(cert.free) > MAX_FREE_CERT:
        return None
    funcs = restrict_functionals(cert, R)
    if funcs is None:
        return None
    act = inst.activation
    found = residue_form(Ab, Bb, tuple(range(len(R))), cert.p)
    if found is not None:
        return _partial_residues(inst, R, Ab, Bb, replace(cert, functionals=funcs), *found)
    gen = sorted_certificate(Ab, Bb, tuple(range(len(R))))
    if gen is None:
        return None
    w = CoqWriter(extra=_modules(inst))
    w.add(f"(* Partial certificate (R11'): columns R of W_up and rows R of C W_down, |R| = {len(R)}. *)")
    _write_instance(w, inst, "not_absorbable", True)
    write_projection(w, gen)
    write_nosub(w, replace(cert, functionals=funcs))
    w.check("dim_ok_", "dim_ok d")
    w.check("idx_ok", "index_ok d R")
    w.check("gen_ok", "check_generic_sorted (length R) n RA CB pg U V")
    w.check("nosub_ok", "check_nosub (length R) n dA dB (Z.of_nat d) RA CB (cen_block_rows d (length R)) p F FS")
    lemma = "cert_postln_bias_not_absorbable_partial" if inst.has_bias else "cert_postln_free_not_absorbable_partial"
    proof = f"{lemma} d n R dA dB RA CB pg U V p F FS {act.coq_function} {_property(inst)} dim_ok_ idx_ok gen_ok nosub_ok"
    claim = postln_claim(inst, "not_absorbable", True)
    w.add(f"Theorem verdict : {claim}.\nProof. exact ({proof}). Qed.")
    what = (f"not absorbable after a LayerNorm with every gamma_i != 0, for every block agreeing with a "
            f"{len(R)}-index block of W_up and C W_down{' (any biases)' if inst.has_bias else ''} (R11', partial)")
    return PostLNCertificate("CertPostLN", w.text(), f"{act.label}: {what}, d={inst.d}, n={inst.n}", True)


def _partial_residues(inst: Instance, R: tuple[int, ...], Ab: IntMatrix, Bb: IntMatrix, cert: NoSubsetCertificate,
                      found: Residues, gen: SortedGenericCertificate) -> PostLNCertificate:
    """The partial certificate on residues (``CertifyPostNormResidues``); ``found`` names its
    genericity pair by positions in the block."""
    res = Residues(found.p, found.pg, tuple(R[k] for k in found.pair))
    act = inst.activation
    w = CoqWriter(extra=(*_modules(inst), "CertifyResidues", "CertifyPostNormResidues"))
    w.add(f"(* Partial certificate (R11'): columns R of W_up and rows R of C W_down, |R| = {len(R)},\n"
          "   modulo the checks' primes. *)")
    write_residue_block(w, inst.d, inst.n, R, Ab, Bb, res, gen, cert, ("(Z.of_nat d)", "(cen_block_rows d (length R))"))
    w.check("dim_ok_", "dim_ok d")
    lemma = ("cert_postln_bias_not_absorbable_partial_mod" if inst.has_bias
             else "cert_postln_free_not_absorbable_partial_mod")
    proof = " ".join([lemma, *RESIDUE_DATA, act.coq_function, _property(inst), "dim_ok_", *RESIDUE_CHECKS])
    claim = postln_claim(inst, "not_absorbable", True, True)
    w.add(f"Theorem verdict : {claim}.\nProof. exact ({proof}). Qed.")
    what = (f"not absorbable after a LayerNorm with every gamma_i != 0, for every block agreeing with a "
            f"{len(R)}-index block of W_up and C W_down modulo the checks' primes"
            f"{' (any biases)' if inst.has_bias else ''} (R11', partial)")
    return PostLNCertificate("CertPostLN", w.text(), f"{act.label}: {what}, d={inst.d}, n={inst.n}", True, res)


def build_postln_certificate(inst: Instance, pd: PostLNDecision, partial: Optional[bool] = None) -> PostLNCertificate:
    """The certificate of ``pd`` (absorbable or not absorbable) for ``inst``; ``partial``: force
    (True) or refuse (False) the block form, None: :func:`partial_form` decides, falling back to
    the full certificate when no block certificate exists."""
    prob = pd.problem
    if prob is None or pd.verdict not in ("absorbable", "not_absorbable"):
        raise CannotCertify("the post-LayerNorm decision carries no verdict to certify")
    if inst.activation.gated:
        raise CannotCertify("post-LayerNorm certificates are written for ungated blocks")
    if inst.skip is not None and inst.d > MAX_SKIP_D:
        raise CannotCertify(f"a non-identity skip with d > {MAX_SKIP_D}: the centered skip check is cubic in d")
    want = partial_form(inst, pd.verdict) if partial is None else partial
    if want:
        if pd.verdict != "not_absorbable" or inst.skip is not None:
            raise CannotCertify("partial post-LayerNorm certificates: identity skip, not absorbable only")
        pc = _partial_certificate(inst, pd)
        if pc is not None or partial:
            if pc is None:
                raise CannotCertify("no block certificate for this post-LayerNorm instance")
            return pc
    act = inst.activation
    bias = inst.has_bias
    claim = postln_claim(inst, pd.verdict)
    w = CoqWriter(extra=_modules(inst))
    _write_instance(w, inst, pd.verdict, False)
    w.rows("CBc", columns(prob.CB))
    dT, RT, P, HT = _target(w, inst, pd)
    w.check("cen_ok", "check_centered_cols d n CB CBc")
    data = f"d n dA dB {dT} RA CB CBc {RT} {P}"
    if pd.verdict == "absorbable":
        if pd.subset is None or not act.odd_part_identity or act.spec.odd_part_lemma is None:
            raise CannotCertify(f"no absorbable post-LayerNorm certificate for {act.label}")
        odd = act.spec.odd_part_lemma.rsplit(".", 1)[-1]
        sub = set(pd.subset)
        w.add("Definition SL : list bool := [" + "; ".join("true" if i in sub else "false"
                                                           for i in range(inst.n)) + "].")
        A, CB, T = prob.A, prob.CB, prob.CP
        ps = prime_list(primes_for(T.den * inst.n * CB.max_abs() * A.max_abs() + A.den * CB.den * T.max_abs()))
        w.check("sub_ok", f"check_submatrix d n dA (Z.of_nat d * dB) {dT} RA CBc {RT} SL {ps}")
        if bias:
            proof = (f"fun eps gam_s bet_s => cert_postln_bias_absorbable {data} {act.coq_function} {odd} SL {ps} "
                     f"{HT} cen_ok sub_ok (vec_of dc Lc) (vec_of db0 Lb0) eps gam_s bet_s")
        else:
            proof = (f"cert_postln_absorbable_skip {act.coq_function} {odd} d n dA dB RA CB "
                     f"CBc SL {ps} dP RP RCP cenP_ok cen_ok sub_ok" if inst.skip is not None else
                     f"cert_postln_absorbable {act.coq_function} {odd} d n dA dB RA CB CBc SL {ps} dim_ok_ cen_ok sub_ok")
        what = f"absorbable after a LayerNorm, S = {list(pd.subset)}{' (any biases)' if bias else ''} (R11' + R5/R9 <=)"
    else:
        _write_generic(w, pd)
        prop = _property(inst)
        if bias:
            w.check("nz_ok", "check_bias_nonzero d n RA CBc")
            w.check("gen_ok", "check_generic (S d) n RA CBc pg U V")
            w.check("nosub_ok", f"check_nosub d n dA (Z.of_nat d * dB) {dT} RA CBc {RT} p F FS")
            proof = (f"fun eps gam_s bet_s => cert_postln_bias_not_absorbable {data} pg U V p F FS "
                     f"{act.coq_function} {prop} {HT} cen_ok nz_ok gen_ok nosub_ok (vec_of db0 Lb0) eps gam_s bet_s")
        else:
            w.check("gen_ok", "check_generic d n RA CBc pg U V")
            w.check("nosub_ok", f"check_nosub d n dA (Z.of_nat d * dB) {dT} RA CBc {RT} p F FS")
            proof = (f"cert_postln_free_not_absorbable {data} pg U V p F FS {act.coq_function} {prop} {HT} cen_ok "
                     "gen_ok nosub_ok")
        gen = "(A, c, C B) generic with biases" if bias else "(A, C B) generic"
        what = f"not absorbable after a LayerNorm with every gamma_i != 0 ({gen}, no S; R11')"
    w.add(f"Theorem verdict : {claim}.\nProof. exact ({proof}). Qed.")
    return PostLNCertificate("CertPostLN", w.text(), f"{act.label}: {what}, d={inst.d}, n={inst.n}")


def certify_postln(inst: Instance, verdict: str, pd: Optional[PostLNDecision], backend: ProverBackend, *,
                   timeout: float) -> ProverResult:
    """Have the prover check the post-LN certificate of ``pd`` against the claim expected for
    ``inst`` and ``verdict`` (the reported one). ``accepted`` only when Coq proves exactly that
    claim from the certificate with allowed axioms only."""
    def refuse(outcome: ProverOutcome, msg: str) -> ProverResult:
        return ProverResult(outcome, 0.0, msg, prover=backend.name)

    if pd is None:
        return refuse(ProverOutcome.NOT_CERTIFIED, "not certified: no post-LayerNorm decision")
    if pd.verdict != verdict:
        return refuse(ProverOutcome.REJECTED, f"the post-LayerNorm decision is {pd.verdict}, not {verdict}")
    try:
        cert = build_postln_certificate(inst, pd)
        expected = expected_postln(inst, verdict, cert.partial, cert.residues)
    except CannotCertify as exc:
        return refuse(ProverOutcome.NOT_CERTIFIED, f"not certified: {exc}")
    return run_postln(cert, expected, backend, timeout=timeout)


def run_postln(cert: PostLNCertificate, expected: Expected, backend: ProverBackend, *,
               timeout: float) -> ProverResult:
    """One coqc run of a driver loading ``cert`` and proving ``expected`` from its verdict
    (:func:`pybridge.certify.pipeline.check_vetted`)."""
    return check_vetted(cert.stem, cert.source, (expected,), backend, timeout=timeout, summary=cert.summary)
