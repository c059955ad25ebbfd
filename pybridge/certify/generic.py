"""Coq certificates for decisions: written here, checked by the backend.

:func:`build_certificate` turns an instance and its :class:`~pybridge.model.Decision`
into a self-contained Coq file: the instance's data (numbers only; every
identifier is built here), one lemma per boolean checker proved by the VM
(``vm_cast_no_check``, checked once by the kernel at ``Qed``), and
``Theorem verdict`` proved by one application of the ``Certify.v`` lemma of its
:class:`CertificateKind` (``exact (cert_... data ... checks)``). The file ends
with ``Print Assumptions Cert.verdict``. :func:`certify` compiles it and
accepts only if Coq does and every assumption is allowed
(:data:`~pybridge.prover.ALLOWED_AXIOMS`, primitive integers).

Weights are written as signed 63-bit numerators (two's complement literals)
over a common positive denominator per matrix, or, when those numerators do
not fit 63 bits or codes are denser (float weights over one denominator), as
codes of ``+- m 2**e`` (:mod:`pybridge.certify.coded`; ``CodedData.v`` computes
their residues in Coq). Codes are written for the partial generic
not-absorbable certificate and for the absorbable ones with the identity skip
(with or without biases); elsewhere a numerator outside ``[-2**62, 2**62)`` leaves the
instance not certified. A matrix is one packed flat list cut into rows
(``IntSums.rows_of``), its cells written by wide constructors (``ints32``): the
time ``coqc`` takes is mostly elaborating these terms.

Generic not-absorbable verdicts with the identity skip are written as
*partial* certificates (:data:`CertificateKind.GENERIC_NOT_ABSORBABLE_PARTIAL`):
only columns ``R`` of ``W_up`` and rows ``R`` of ``W_down`` (the entries the
no-subset functional and the sorted-ratio genericity check read), and the
theorem is stated for every pair of matrices agreeing with them there. When a few
of the block's indices carry the genericity check (float weights: two), the block is
written as residues only (``CertifyResidues``: modulo the no-subset prime, below
``2**10``, six to a literal, and those indices modulo the genericity prime), the
theorem then stated for every pair whose integer numerators there are congruent to them. The
file's header records a digest of the full weights and of the extracted
entries; :func:`certify` checks exactly that the instance's weights agree with
the extracted entries before accepting (:func:`agreement`).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Optional

from pybridge.certify.coded import Coding, coding
from pybridge.certify.encoding import CoqWriter, columns, digest, prime_list, primes_for
from pybridge.certify.kinds import MAX_FREE_CERT, CannotCertify, Certificate, CertificateKind, Extract, Residues
from pybridge.certify.pieces import (
    A_TERM,
    B_TERM,
    P_TERM,
    RESIDUE_AGREEMENT,
    RESIDUE_CHECKS,
    RESIDUE_DATA,
    block_coding,
    residue_form,
    write_block,
    write_inverse_check,
    write_nonzero_skip,
    write_nosub,
    write_projection,
    write_residue_block,
    write_skip,
    write_weights,
)
from pybridge.decision.genericity import SortedGenericCertificate, sorted_certificate
from pybridge.decision.subset_search import restrict_functionals, sub_matrices
from pybridge.exact.evidence import Evidence, NoSubsetCertificate
from pybridge.exact.modular import scale_matrix
from pybridge.model import Decision, Instance

# ---------------------------------------------------------------- builders


def _build_classification(inst: Instance) -> Certificate:
    """Gated (R3) / relu^k (R2): the verdict for every weight of the given shape."""
    act = inst.activation
    w = CoqWriter(extra=(*act.spec.certificate_modules,))
    with w.data():
        w.nat("d", inst.d)
        w.nat("n", inst.n)
    sk, k, l = write_nonzero_skip(w, inst)
    pterm = P_TERM if sk != "None" else "identity"
    if act.gated and act.spec.not_absorbable_lemma:
        kind = CertificateKind.GATED_NOT_ABSORBABLE
        r3 = act.spec.not_absorbable_lemma.rsplit(".", 1)[-1]
        w.verdict(f"forall C A B : mat, ~ absorbable_gated {act.coq_function} d n n {pterm} C A B", kind,
                  [act.coq_function, r3, "d", "n", sk, k, l, "P_nz"])
    elif act.degree is not None and act.homogeneous_degree != 1:  # relu^k, the one family with a degree
        kind = CertificateKind.RELU_POW_NOT_ABSORBABLE
        w.verdict(f"forall A B : mat, ~ absorbable_ungated {act.coq_function} d n n {pterm} A B", kind,
                  [str(act.degree), "d", "n", sk, k, l, "eq_refl", "P_nz"])
    else:
        raise CannotCertify(f"no classification certificate for {act.label}")
    return Certificate("CertClassify", w.text(), kind, act.label)


def _subset_bound(ev: Evidence) -> list[int]:
    T = ev.target
    n = ev.A.shape[0]
    bound = T.den * n * ev.B.max_abs() * ev.A.max_abs() + ev.A.den * ev.B.den * T.max_abs()
    return primes_for(bound)


def _build_absorbable(inst: Instance, decision: Decision, ev: Evidence) -> Certificate:
    act = inst.activation
    if not act.odd_part_identity or act.spec.odd_part_lemma is None:
        raise CannotCertify(f"no absorbable certificate for {act.label}")
    if decision.witness is None:
        raise CannotCertify("absorbable decision without a witness")
    sigma, odd = act.coq_function, act.spec.odd_part_lemma.rsplit(".", 1)[-1]
    n = ev.A.shape[0]
    if inst.skip is None:
        mats = [ev.A.rows, columns(ev.B)]
        dens: tuple[int, ...] = ()
        if inst.has_bias:
            c = scale_matrix([list(inst.b_up or [Fraction(0)] * n)])
            b0 = scale_matrix([list(inst.b_down or [Fraction(0)] * inst.d)])
            mats += [c.rows, b0.rows]
            dens = (c.den, b0.den)
        codes = coding(mats)
        if codes is not None:
            return _build_absorbable_coded(inst, decision, ev, codes, dens)
    w = CoqWriter(extra=(*act.spec.certificate_modules,))
    write_weights(w, ev)
    skip = write_skip(w, inst)
    s = set(decision.witness.subset)
    w.add("Definition SL : list bool := [" + "; ".join("true" if i in s else "false" for i in range(n)) + "].")
    ps = prime_list(_subset_bound(ev))
    head = [sigma, odd, "d", "n", "dA", "dB", "RA", "CB", "SL", ps]
    if inst.has_bias:
        if skip:
            raise CannotCertify("biases with a non-identity skip")
        c = scale_matrix([list(inst.b_up or [Fraction(0)] * n)])
        b0 = scale_matrix([list(inst.b_down or [Fraction(0)] * inst.d)])
        with w.data():
            w.z("dc", c.den)
            w.int_list("Lc", c.rows[0])
            w.z("db0", b0.den)
            w.int_list("Lb0", b0.rows[0])
        w.check("sub_ok", f"check_submatrix d n dA dB 1 RA CB (id_rows d) SL {ps}")
        kind = CertificateKind.ABSORBABLE_BIAS
        w.verdict(f"absorbable_ungated_bias {sigma} d n n identity {A_TERM} (vec_of dc Lc) {B_TERM} "
                  "(vec_of db0 Lb0)", kind, head + ["dc", "db0", "Lc", "Lb0", "sub_ok"])
    elif not skip:
        w.check("sub_ok", f"check_submatrix d n dA dB 1 RA CB (id_rows d) SL {ps}")
        kind = CertificateKind.ABSORBABLE
        w.verdict(f"absorbable_ungated {sigma} d n n identity {A_TERM} {B_TERM}", kind, head + ["sub_ok"])
        w.add(f"Theorem witness : same_fun d (ungated {sigma} d n (flip_rows (Sfun SL) {A_TERM}) {B_TERM})\n"
              f"  (residual d identity (ungated {sigma} d n {A_TERM} {B_TERM})).\n"
              f"Proof. exact (cert_absorbable_witness {' '.join(head)} sub_ok). Qed.")
    else:
        inv = write_inverse_check(w, inst, decision)
        w.check("sub_ok", f"check_submatrix d n dA dB dP RA CB RP SL {ps}")
        kind = CertificateKind.ABSORBABLE_SKIP
        w.verdict(f"absorbable_ungated {sigma} d n n {P_TERM} {A_TERM} {B_TERM}", kind,
                  head + ["dP", "dQ", "RP", "RQ", "_", inv, "sub_ok"])
    return Certificate("CertAbsorbable", w.text(), kind, act.label)


def _build_absorbable_coded(inst: Instance, decision: Decision, ev: Evidence, codes: Coding,
                            bias_dens: tuple[int, ...] = ()) -> Certificate:
    """R5 (<=), identity skip, the weights (and biases, with ``bias_dens``) as +- m 2^e codes
    (``CertifyCoded.cert_absorbable_coded``, ``cert_absorbable_bias_coded``)."""
    act = inst.activation
    assert decision.witness is not None and act.spec.odd_part_lemma is not None
    sigma, odd = act.coq_function, act.spec.odd_part_lemma.rsplit(".", 1)[-1]
    n, d = ev.A.shape
    w = CoqWriter(extra=(*act.spec.certificate_modules, "CertifyCoded"))
    with w.data():
        w.nat("d", d)
        w.nat("n", n)
        w.z("dA", ev.A.den)
        w.z("dB", ev.B.den)
        w.add(f"Definition E : int := {codes.base}%uint63.")
        w.rows("RA", codes.writable(0), unsigned=True)
        w.rows("CB", codes.writable(1), unsigned=True)
    s = set(decision.witness.subset)
    w.add("Definition SL : list bool := [" + "; ".join("true" if i in s else "false" for i in range(n)) + "].")
    ps = prime_list(_subset_bound(ev))
    w.check("sub_ok", f"check_submatrix_coded d n dA dB 1 E RA CB (id_rows d) SL {ps}")
    A, B = "(mat_of_drows dA E RA)", "(mat_of_dcols dB E CB)"
    head = [sigma, odd, "d", "n", "dA", "dB", "E", "RA", "CB", "SL", ps]
    if bias_dens:
        with w.data():
            w.z("dc", bias_dens[0])
            w.int_list("Lc", codes.writable(2)[0])
            w.z("db0", bias_dens[1])
            w.int_list("Lb0", codes.writable(3)[0])
        kind = CertificateKind.ABSORBABLE_BIAS
        w.verdict(f"absorbable_ungated_bias {sigma} d n n identity {A} (vec_of_coded dc E Lc) {B} "
                  "(vec_of_coded db0 E Lb0)", kind, head + ["dc", "db0", "Lc", "Lb0", "sub_ok"],
                  lemma="cert_absorbable_bias_coded")
        return Certificate("CertAbsorbable", w.text(), kind, act.label)
    kind = CertificateKind.ABSORBABLE
    w.verdict(f"absorbable_ungated {sigma} d n n identity {A} {B}", kind, head + ["sub_ok"],
              lemma="cert_absorbable_coded")
    w.add(f"Theorem witness : same_fun d (ungated {sigma} d n (flip_rows (Sfun SL) {A}) {B})\n"
          f"  (residual d identity (ungated {sigma} d n {A} {B})).\n"
          f"Proof. exact (cert_absorbable_coded_witness {' '.join(head)} sub_ok). Qed.")
    return Certificate("CertAbsorbable", w.text(), kind, act.label)


def _build_not_absorbable(inst: Instance, decision: Decision, ev: Evidence, residues: bool = True) -> Certificate:
    if ev.nosub_cert is None:
        raise CannotCertify("no no-subset certificate")
    cert = ev.nosub_cert
    if len(cert.free) > MAX_FREE_CERT:
        raise CannotCertify(f"the certificate would enumerate 2^{len(cert.free)} assignments")
    act = inst.activation
    if act.spec.generic_cert_lemma is None:
        raise CannotCertify(f"no not-absorbable certificate for {act.label}")
    if inst.skip is None:
        partial = _build_partial(inst, ev, cert, residues)
        if partial is not None:
            return partial
    if ev.generic_cert is None:
        raise CannotCertify("genericity was shown without a single projection certificate")
    sigma, r5 = act.coq_function, act.spec.generic_cert_lemma.rsplit(".", 1)[-1]
    w = CoqWriter(extra=(*act.spec.certificate_modules,))
    write_weights(w, ev)
    skip = write_skip(w, inst)
    g = ev.generic_cert
    write_projection(w, g)
    write_nosub(w, cert)
    head = [sigma, r5, "d", "n", "dA", "dB", "RA", "CB", "pg", "U", "V", "p", "F", "FS"]
    if not skip:
        w.check("gen_ok", "check_generic d n RA CB pg U V")
        w.check("nosub_ok", "check_nosub d n dA dB 1 RA CB (id_rows d) p F FS")
        kind = CertificateKind.GENERIC_NOT_ABSORBABLE
        w.verdict(f"~ absorbable_ungated {sigma} d n n identity {A_TERM} {B_TERM}", kind,
                  head + ["gen_ok", "nosub_ok"])
    else:
        inv = write_inverse_check(w, inst, decision)
        w.check("gen_ok", "check_generic d n RA CB pg U V")
        w.check("nosub_ok", "check_nosub d n dA dB dP RA CB RP p F FS")
        kind = CertificateKind.GENERIC_NOT_ABSORBABLE_SKIP
        w.verdict(f"~ absorbable_ungated {sigma} d n n {P_TERM} {A_TERM} {B_TERM}", kind,
                  head + ["dP", "dQ", "RP", "RQ", "_", inv, "gen_ok", "nosub_ok"])
    return Certificate("CertNotAbsorbable", w.text(), kind, act.label)


def _build_partial(inst: Instance, ev: Evidence, cert: NoSubsetCertificate,
                   residues: bool = True) -> Optional[Certificate]:
    """R5 (=>) from columns R of W_up and rows R of W_down, for every pair agreeing there
    (``Certify.cert_generic_not_absorbable_partial``; on residues,
    ``CertifyResidues.cert_generic_not_absorbable_partial_mod``). None: no genericity
    certificate on any block (the full certificate is written instead)."""
    act = inst.activation
    if act.spec.generic_cert_lemma is None:
        return None
    n, d = ev.A.shape
    full = tuple(range(d))
    blocks = [getattr(cert, "block", None) or full]
    if blocks[0] != full:
        blocks.append(full)
    for R in blocks:
        funcs = restrict_functionals(cert, R)
        if funcs is None:
            continue
        res = residue_form(ev.A, ev.B, R, cert.p) if residues else None
        if res is not None:
            return _build_partial_residues(inst, ev, R, replace(cert, functionals=funcs), *res)
        gen = sorted_certificate(ev.A, ev.B, R)
        if gen is None:
            continue
        break
    else:
        return None
    sigma, r5 = act.coq_function, act.spec.generic_cert_lemma.rsplit(".", 1)[-1]
    Ab, Bb, _ = sub_matrices(ev.A, ev.B, ev.target, R)
    extract = Extract(R, Ab, Bb, digest(ev.A, ev.B), digest(Ab, Bb))
    cols = columns(Bb)
    codes = block_coding(Ab, Bb, cols, gen.p)
    w = CoqWriter(extra=(*act.spec.certificate_modules, *(("CertifyCoded",) if codes else ())))
    _partial_header(w, extract)
    write_block(w, d, n, R, Ab, Bb, cols, codes)
    write_projection(w, gen)
    write_nosub(w, replace(cert, functionals=funcs))
    w.check("idx_ok", "index_ok d R")
    kind = CertificateKind.GENERIC_NOT_ABSORBABLE_PARTIAL
    if codes is None:
        w.check("gen_ok", "check_generic_sorted (length R) n RA CB pg U V")
        w.check("nosub_ok", "check_nosub (length R) n dA dB 1 RA CB (id_rows (length R)) p F FS")
        w.verdict(f"forall A B : mat, agrees_up n R dA RA A -> agrees_down n R dB CB B ->\n"
                  f"  ~ absorbable_ungated {sigma} d n n identity A B", kind,
                  [sigma, r5, "d", "n", "R", "dA", "dB", "RA", "CB", "pg", "U", "V", "p", "F", "FS",
                   "idx_ok", "gen_ok", "nosub_ok"])
    else:
        w.check("gen_ok", "check_generic_sorted (length R) n (resid pg E RA) (resid pg E CB) pg U V")
        w.check("nosub_ok", "check_nosub (length R) n dA dB 1 (resid p E RA) (resid p E CB) "
                "(id_rows (length R)) p F FS")
        w.verdict(f"forall A B : mat, agrees_up_coded n R dA E RA A -> agrees_down_coded n R dB E CB B ->\n"
                  f"  ~ absorbable_ungated {sigma} d n n identity A B", kind,
                  [sigma, r5, "d", "n", "R", "dA", "dB", "E", "RA", "CB", "pg", "U", "V", "p", "F", "FS",
                   "idx_ok", "gen_ok", "nosub_ok"], lemma=kind.lemma + "_coded")
    return Certificate("CertNotAbsorbable", w.text(), kind, act.label, extract)


def _partial_header(w: CoqWriter, extract: Extract) -> None:
    w.add(f"(* Partial certificate: columns R of W_up and rows R of W_down, |R| = {len(extract.block)}.\n"
          f"   sha256 of the full integer-scaled weights (W_up, W_down): {extract.weights_sha256}\n"
          f"   sha256 of the extracted entries (RA, CB): {extract.extract_sha256} *)")


def _build_partial_residues(inst: Instance, ev: Evidence, R: tuple[int, ...], cert: NoSubsetCertificate,
                            res: Residues, gen: SortedGenericCertificate) -> Certificate:
    """The partial certificate written on residues: the block modulo the no-subset prime,
    two of its indices modulo the genericity prime."""
    act = inst.activation
    assert act.spec.generic_cert_lemma is not None
    sigma, r5 = act.coq_function, act.spec.generic_cert_lemma.rsplit(".", 1)[-1]
    n, d = ev.A.shape
    Ab, Bb, _ = sub_matrices(ev.A, ev.B, ev.target, R)
    extract = Extract(R, Ab, Bb, digest(ev.A, ev.B), digest(Ab, Bb), res)
    w = CoqWriter(extra=(*act.spec.certificate_modules, "CertifyResidues"))
    _partial_header(w, extract)
    write_residue_block(w, d, n, R, Ab, Bb, res, gen, cert)
    kind = CertificateKind.GENERIC_NOT_ABSORBABLE_PARTIAL
    w.verdict(f"forall A B : mat, {RESIDUE_AGREEMENT} ->\n  ~ absorbable_ungated {sigma} d n n identity A B",
              kind, [sigma, *RESIDUE_DATA, r5, *RESIDUE_CHECKS], lemma="cert_generic_not_absorbable_partial_mod")
    return Certificate("CertNotAbsorbable", w.text(), kind, act.label, extract)


def build_generic_certificate(instance: Instance, decision: Decision, residues: bool = True) -> Certificate:
    """The certificate of an R2 / R3 classification or an R5 (and R1 + R5) decision at width n,
    written from the decision's exact evidence (a partial one on residues when it can be and
    ``residues``)."""
    act = instance.activation
    v = decision.verdict
    if not act.certifiable:
        raise CannotCertify(f"Coq support for {act.label} is not proved yet")
    if v == "not_absorbable" and decision.result in ("R2", "R3"):
        return _build_classification(instance)
    ev = decision.evidence
    if ev is None:
        raise CannotCertify("the decision carries no exact evidence")
    if v == "absorbable":
        return _build_absorbable(instance, decision, ev)
    if v == "not_absorbable":
        return _build_not_absorbable(instance, decision, ev, residues)
    raise CannotCertify(f"no certificate kind for verdict {v} of {act.label}")
