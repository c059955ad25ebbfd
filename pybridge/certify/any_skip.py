"""Certificates of singular-skip verdicts decided without R1 (``certify/CertifyAnySkip.v``).

:mod:`pybridge.decision.any_skip` decides a bare block ``P x + B sigma(A x + c) + b0`` whose
skip ``P`` is singular. Its certificate states the verdict about the user's own ``P`` (rows
``RP`` over ``dP``), with no inverse and no reduced block:

- ``P = 0``: ``check_zero_rows d RP``, then ``cert_zero_skip_absorbable`` (``_bias``,
  ``_gated``, ``_gated_bias``): absorbable at width ``n`` for every weight of the shape;
- absorbable: ``check_submatrix d n dA dB dP RA CB RP SL ps`` (``P + B_S A_S = 0`` for the
  found ``S``), then ``cert_any_skip_absorbable`` (and ``Theorem witness``: rows ``S`` of
  ``W_up`` negated) or, with biases, ``cert_any_skip_absorbable_bias`` (``RA``: ``W_up``);
- not absorbable: ``check_generic`` and ``check_nosub`` with target ``RP``, then
  ``cert_any_skip_not_absorbable``; with biases ``check_bias_nonzero``, ``check_generic`` in
  dimension ``d + 1`` on the augmented rows ``(a_i, c_i)`` (``RA``) and
  ``cert_any_skip_bias_not_absorbable``; the activation's ``skip_free_property`` /
  ``skip_bias_property`` (``CertifyPostNormBias``: ReLU and the GELU family).

The claims are those :func:`pybridge.certify.statement.any_skip_claims` (and, bias-free,
the skip forms of the full certificates) write from the instance alone.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional, Sequence

from pybridge.certify.encoding import CoqWriter, columns, prime_list, primes_for
from pybridge.certify.kinds import MAX_FREE_CERT, CannotCertify, Certificate
from pybridge.certify.pieces import A_TERM, B_TERM, P_TERM, write_nosub, write_projection, write_skip, write_weights
from pybridge.decision.any_skip import singular_skip, zero_skip
from pybridge.decision.postnorm import SKIP_FAMILY
from pybridge.exact.evidence import Evidence
from pybridge.exact.modular import scale_matrix
from pybridge.model import Decision, Instance

MODULES = ("BiasBlocks", "BiasSpec", "CertifyBias", "CertifyPostNormBias", "CertifyAnySkip")
#: the largest ``d`` written: the checks read the ``d x d`` skip
MAX_D = 512


def applies(instance: Instance, decision: Decision) -> bool:
    """This module writes the certificate: a singular skip, a verdict not from R2 / R3."""
    return decision.result not in ("R2", "R3") and singular_skip(instance)


def _writer(inst: Instance) -> CoqWriter:
    return CoqWriter(extra=(*inst.activation.spec.certificate_modules, *MODULES))


def _zero(inst: Instance) -> Certificate:
    """``P = 0``: absorbable at width ``n`` for every weight of the shape."""
    act = inst.activation
    f = act.coq_function
    w = _writer(inst)
    w.nat("d", inst.d)
    w.nat("n", inst.n)
    write_skip(w, inst)
    w.check("zero_ok", "check_zero_rows d RP")
    lemma, claim = zero_skip_claim(inst)
    w.add(f"Theorem verdict : {claim}.\nProof. exact ({lemma} d n dP RP zero_ok {f}). Qed.")
    return Certificate("CertZeroSkip", w.text(), "absorbable (zero skip: residual-free already), all weights",
                       act.label)


def zero_skip_claim(inst: Instance) -> tuple[str, str]:
    """``(lemma, claim)`` of the zero skip for ``inst``'s activation and biases."""
    f = inst.activation.coq_function
    if inst.activation.gated:
        if inst.has_bias:
            return ("cert_zero_skip_absorbable_gated_bias",
                    "forall (C : mat) (cg : vec) (A : mat) (cu : vec) (B : mat) (b0 : vec), "
                    f"absorbable_gated_bias {f} d n n {P_TERM} C cg A cu B b0")
        return "cert_zero_skip_absorbable_gated", f"forall C A B : mat, absorbable_gated {f} d n n {P_TERM} C A B"
    if inst.has_bias:
        return ("cert_zero_skip_absorbable_bias",
                f"forall (A : mat) (c : vec) (B : mat) (b0 : vec), absorbable_ungated_bias {f} d n n {P_TERM} A c B b0")
    return "cert_zero_skip_absorbable", f"forall A B : mat, absorbable_ungated {f} d n n {P_TERM} A B"


def _vec(w: CoqWriter, name: str, values: Optional[Sequence[Fraction]], length: int) -> None:
    v = scale_matrix([list(values or (Fraction(0),) * length)])
    w.z(f"d{name}", v.den)
    w.int_list(f"L{name}", v.rows[0])


def _absorbable(inst: Instance, decision: Decision, ev: Evidence) -> Certificate:
    act = inst.activation
    if not act.odd_part_identity or act.spec.odd_part_lemma is None or act.gated:
        raise CannotCertify(f"no absorbable singular-skip certificate for {act.label}")
    if decision.witness is None:
        raise CannotCertify("absorbable decision without a witness")
    s, odd = act.coq_function, act.spec.odd_part_lemma.rsplit(".", 1)[-1]
    # the claim's W_up is the instance's (with biases the search ran on the augmented rows'
    # first d columns: the same reals, another denominator)
    A, B, T = scale_matrix(inst.W_up), ev.B, ev.target
    w = _writer(inst)
    write_weights(w, Evidence(A, B, T))
    write_skip(w, inst)
    sub = set(decision.witness.subset)
    w.add("Definition SL : list bool := [" + "; ".join("true" if i in sub else "false" for i in range(inst.n)) + "].")
    ps = prime_list(primes_for(T.den * inst.n * B.max_abs() * A.max_abs() + A.den * B.den * T.max_abs()))
    w.check("sub_ok", f"check_submatrix d n dA dB dP RA CB RP SL {ps}")
    args = f"{s} {odd} d n dA dB dP RA CB RP SL {ps} sub_ok"
    if inst.has_bias:
        _vec(w, "c", inst.b_up, inst.n)
        _vec(w, "b0", inst.b_down, inst.d)
        w.add(f"Theorem verdict : absorbable_ungated_bias {s} d n n {P_TERM} {A_TERM} (vec_of dc Lc) {B_TERM} "
              f"(vec_of db0 Lb0).\nProof. exact (cert_any_skip_absorbable_bias {args} (vec_of dc Lc) "
              "(vec_of db0 Lb0)). Qed.")
        kind = "absorbable with biases (R9 <= with a singular skip, no R1)"
    else:
        w.add(f"Theorem verdict : absorbable_ungated {s} d n n {P_TERM} {A_TERM} {B_TERM}.\n"
              f"Proof. exact (cert_any_skip_absorbable {args}). Qed.")
        w.add(f"Theorem witness : same_fun d (ungated {s} d n (flip_rows (Sfun SL) {A_TERM}) {B_TERM})\n"
              f"  (residual d {P_TERM} (ungated {s} d n {A_TERM} {B_TERM})).\n"
              f"Proof. exact (cert_any_skip_absorbable_witness {args}). Qed.")
        kind = "absorbable (R5 <= with a singular skip, no R1)"
    return Certificate("CertAnySkip", w.text(), kind, act.label)


def _not_absorbable(inst: Instance, ev: Evidence) -> Certificate:
    act = inst.activation
    if act.gated or act.name not in SKIP_FAMILY:
        raise CannotCertify(f"no not-absorbable singular-skip certificate for {act.label}")
    cert, gen = ev.nosub_cert, ev.generic_cert
    if cert is None or gen is None:
        raise CannotCertify("the not-absorbable decision lacks its genericity or no-subset certificate")
    if len(cert.free) > MAX_FREE_CERT:
        raise CannotCertify(f"the certificate would enumerate 2^{len(cert.free)} assignments")
    s = act.coq_function
    bias = inst.has_bias
    w = _writer(inst)
    # with biases ev.A holds the augmented rows (a_i, c_i): d + 1 columns, d is the instance's
    w.nat("d", inst.d)
    w.nat("n", inst.n)
    w.z("dA", ev.A.den)
    w.z("dB", ev.B.den)
    w.rows("RA", ev.A.rows)
    w.rows("CB", columns(ev.B))
    write_skip(w, inst)
    write_projection(w, gen)
    write_nosub(w, cert)
    prop = f"{act.name}_skip_{'bias' if bias else 'free'}_property"
    w.check("nosub_ok", "check_nosub d n dA dB dP RA CB RP p F FS")
    data = f"d n dA dB dP RA CB RP pg U V p F FS {s} {prop}"
    if bias:
        _vec(w, "b0", inst.b_down, inst.d)
        w.check("nz_ok", "check_bias_nonzero d n RA CB")
        w.check("gen_ok", "check_generic (S d) n RA CB pg U V")
        w.add(f"Theorem verdict : ~ absorbable_ungated_bias {s} d n n {P_TERM} {A_TERM} (aug_bias d dA RA) {B_TERM} "
              f"(vec_of db0 Lb0).\nProof. exact (cert_any_skip_bias_not_absorbable {data} nz_ok gen_ok nosub_ok "
              "(vec_of db0 Lb0)). Qed.")
        kind = "not absorbable (generic with biases, R9 => with a singular skip, no R1)"
    else:
        w.check("gen_ok", "check_generic d n RA CB pg U V")
        w.add(f"Theorem verdict : ~ absorbable_ungated {s} d n n {P_TERM} {A_TERM} {B_TERM}.\n"
              f"Proof. exact (cert_any_skip_not_absorbable {data} gen_ok nosub_ok). Qed.")
        kind = "not absorbable (generic weights, R5 => with a singular skip, no R1)"
    return Certificate("CertAnySkip", w.text(), kind, act.label)


def build_any_skip_certificate(instance: Instance, decision: Decision) -> Certificate:
    """The certificate of a singular-skip decision at width ``n`` (module docstring)."""
    if decision.verdict not in ("absorbable", "not_absorbable"):
        raise CannotCertify(f"no singular-skip certificate for verdict {decision.verdict}")
    if decision.width not in (None, instance.n):
        raise CannotCertify("singular-skip certificates are written at width n only")
    if instance.d > MAX_D:
        raise CannotCertify(f"a singular skip with d > {MAX_D}")
    if zero_skip(instance):
        if decision.verdict != "absorbable":
            raise CannotCertify("a zero skip is absorbable; no other verdict is certified")
        return _zero(instance)
    ev = decision.evidence
    if ev is None:
        raise CannotCertify("the decision carries no exact evidence")
    if decision.verdict == "absorbable":
        return _absorbable(instance, decision, ev)
    return _not_absorbable(instance, ev)
