"""Certificates of post-LayerNorm verdicts decided through ``C P`` (``certify/CertifyPostNorm.v``).

:func:`build_postln_certificate` writes, from a :class:`~pybridge.decision.postnorm.PostLNDecision`,
the instance's data (``W_up`` rows ``RA``, ``W_down`` columns ``CB``, the skip's rows ``RP``)
and the centered data ``CBc`` (and ``RCP``) that Coq checks exactly against them
(``check_centered_cols``, ``check_centered_rows``), then R5's checkers on the reduced problem
(``check_submatrix`` with the found ``S``; or ``check_generic`` and ``check_nosub``).

:func:`expected_postln` is the trusted side: the claim, written from the instance and the
reported verdict alone (never from the decision's evidence or the certificate):

- absorbable: ``forall eps gam_s bet_s, absorbable_postnorm_ungated (layer_norm d eps gam_s
  bet_s) sigma d n n P A B`` (every ``eps``, ``gamma`` with zeros included, ``beta``);
- not absorbable (ReLU): ``forall eps gam_s bet_s, 0 < eps -> (forall i, i < d -> gam_s i
  <> 0) -> ~ absorbable_postnorm_ungated ...``;

with ``P`` ``identity`` or ``(mat_of_rows dP RP)``, ``A = (mat_of_rows dA RA)``,
``B = (mat_of_cols dB CB)``. :func:`certify_postln` has the prover check the certificate
through a driver (:mod:`.driver`) that loads it and proves the expected claim from its
``verdict``, and accepts only allowed axioms, as the bare pipeline does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pybridge.certify.driver import assumptions, write_driver
from pybridge.certify.encoding import CoqWriter, columns, nat_list, prime_list, primes_for
from pybridge.certify.kinds import MAX_FREE_CERT, CannotCertify
from pybridge.certify.pieces import write_functionals
from pybridge.certify.pipeline import judge_assumptions
from pybridge.certify.statement import BASE, Expected
from pybridge.decision.postnorm import PostLNDecision
from pybridge.exact.modular import scale_matrix
from pybridge.model import Instance
from pybridge.prover import ProverBackend, ProverOutcome, ProverResult

MODULES = ("Norms", "PostNorm", "PostNormGeneric", "CertifyPostNorm")
#: the largest ``d`` with a non-identity skip: ``check_centered_rows`` costs about ``d^3`` steps
MAX_SKIP_D = 256
_A, _B = "(mat_of_rows dA RA)", "(mat_of_cols dB CB)"


@dataclass(frozen=True)
class PostLNCertificate:
    """A generated Coq file for a post-LN verdict."""

    stem: str
    source: str
    summary: str


def _skip_term(inst: Instance) -> str:
    return "identity" if inst.skip is None else "(mat_of_rows dP RP)"


def postln_claim(inst: Instance, verdict: str) -> str:
    """The Coq statement of ``verdict`` about ``inst`` after a LayerNorm (module docstring)."""
    act = inst.activation
    block = f"{act.coq_function} d n n {_skip_term(inst)} {_A} {_B}"
    if verdict == "absorbable":
        return ("forall (eps : Rdefinitions.R) (gam_s bet_s : vec),\n"
                f"  absorbable_postnorm_ungated (layer_norm d eps gam_s bet_s) {block}")
    if verdict == "not_absorbable":
        if act.name != "relu":
            raise CannotCertify(f"no post-LayerNorm not-absorbable certificate for {act.label}")
        return ("forall (eps : Rdefinitions.R) (gam_s bet_s : vec), 0 < eps ->\n"
                "  (forall i, (i < d)%nat -> gam_s i <> 0) ->\n"
                f"  ~ absorbable_postnorm_ungated (layer_norm d eps gam_s bet_s) {block}")
    raise CannotCertify(f"no post-LayerNorm certificate for verdict {verdict!r:.30}")


def _write_instance(w: CoqWriter, inst: Instance) -> None:
    """``d n dA dB RA CB`` (and ``dP RP``): the instance's own data."""
    A, B = scale_matrix(inst.W_up), scale_matrix(inst.W_down)
    w.nat("d", inst.d)
    w.nat("n", inst.n)
    w.z("dA", A.den)
    w.z("dB", B.den)
    w.rows("RA", A.rows)
    w.rows("CB", columns(B))
    if inst.skip is not None:
        P = scale_matrix(inst.skip)
        w.z("dP", P.den)
        w.rows("RP", P.rows)


def _modules(inst: Instance) -> tuple[str, ...]:
    return (*inst.activation.spec.certificate_modules, *MODULES)


def expected_postln(inst: Instance, verdict: str) -> Expected:
    """The trusted claim for ``inst`` and the reported ``verdict`` (from the instance alone)."""
    claim = postln_claim(inst, verdict)
    return Expected(claim, tuple(dict.fromkeys(BASE + _modules(inst))), lambda w: _write_instance(w, inst))


def build_postln_certificate(inst: Instance, pd: PostLNDecision) -> PostLNCertificate:
    """The certificate of ``pd`` (absorbable or not absorbable) for ``inst``."""
    prob = pd.problem
    if prob is None or pd.verdict not in ("absorbable", "not_absorbable"):
        raise CannotCertify("the post-LayerNorm decision carries no verdict to certify")
    if inst.has_bias or inst.activation.gated:
        raise CannotCertify("post-LayerNorm certificates are written for bias-free ungated blocks")
    if inst.skip is not None and inst.d > MAX_SKIP_D:
        raise CannotCertify(f"a non-identity skip with d > {MAX_SKIP_D}: the centered skip check is cubic in d")
    act = inst.activation
    claim = postln_claim(inst, pd.verdict)
    w = CoqWriter(extra=_modules(inst))
    _write_instance(w, inst)
    w.rows("CBc", columns(prob.CB))
    skip = inst.skip is not None
    if skip:
        w.rows("RCP", prob.CP.rows)
        w.check("cenP_ok", "check_centered_rows d RP RCP")
        dT, RT = "(Z.of_nat d * dP)", "RCP"
    else:
        w.check("dim_ok_", "dim_ok d")
        dT, RT = "(Z.of_nat d)", "(cen_id_rows d)"
    w.check("cen_ok", "check_centered_cols d n CB CBc")
    data = "d n dA dB RA CB CBc"
    tail = "dP RP RCP cenP_ok" if skip else "dim_ok_"
    suffix = "_skip" if skip else ""
    if pd.verdict == "absorbable":
        if pd.subset is None or not act.odd_part_identity or act.spec.odd_part_lemma is None:
            raise CannotCertify(f"no absorbable post-LayerNorm certificate for {act.label}")
        odd = act.spec.odd_part_lemma.rsplit(".", 1)[-1]
        s = set(pd.subset)
        w.add("Definition SL : list bool := [" + "; ".join("true" if i in s else "false"
                                                           for i in range(inst.n)) + "].")
        A, CB, T = prob.A, prob.CB, prob.CP
        ps = prime_list(primes_for(T.den * inst.n * CB.max_abs() * A.max_abs() + A.den * CB.den * T.max_abs()))
        w.check("sub_ok", f"check_submatrix d n dA (Z.of_nat d * dB) {dT} RA CBc {RT} SL {ps}")
        proof = f"cert_postln_absorbable{suffix} {act.coq_function} {odd} {data} SL {ps} {tail} cen_ok sub_ok"
        what = f"absorbable after a LayerNorm, S = {list(pd.subset)} (R11' + R5 <=)"
    else:
        cert, gen = pd.nosub, pd.generic
        if cert is None or gen is None:
            raise CannotCertify("the not-absorbable post-LayerNorm decision lacks its genericity or "
                                "no-subset certificate")
        if len(cert.free) > MAX_FREE_CERT:
            raise CannotCertify(f"the certificate would enumerate 2^{len(cert.free)} assignments")
        w.add(f"Definition pg : int := {gen.p}%uint63.")
        w.int_list("U", gen.u)
        w.int_list("V", gen.v)
        w.add(f"Definition p : int := {cert.p}%uint63.")
        w.add(f"Definition F : list nat := {nat_list(cert.free)}.")
        write_functionals(w, cert)
        w.check("gen_ok", "check_generic d n RA CBc pg U V")
        w.check("nosub_ok", f"check_nosub d n dA (Z.of_nat d * dB) {dT} RA CBc {RT} p F FS")
        proof = f"cert_postln_relu_not_absorbable{suffix} {data} pg U V p F FS {tail} cen_ok gen_ok nosub_ok"
        what = "not absorbable after a LayerNorm with every gamma_i != 0 ((A, C B) generic, no S; R11')"
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
        expected = expected_postln(inst, verdict)
    except CannotCertify as exc:
        return refuse(ProverOutcome.NOT_CERTIFIED, f"not certified: {exc}")
    return run_postln(cert, expected, backend, timeout=timeout)


def run_postln(cert: PostLNCertificate, expected: Expected, backend: ProverBackend, *,
               timeout: float) -> ProverResult:
    """One coqc run of a driver loading ``cert`` and proving ``expected`` from its verdict."""
    drv = write_driver([(cert.stem, cert.source, expected)])
    res = backend.check_files([*drv.files, (drv.stem, drv.source)], main=drv.stem, timeout=timeout)
    if not res.accepted:
        return res
    return judge_assumptions(res, assumptions(res.message, drv.tag, 0),
                             "the vetted statement's Print Assumptions did not run",
                             f"{cert.summary}; statement vetted against the instance")
