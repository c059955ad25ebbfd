"""Certificates for blocks with biases and a non-identity skip ``P`` (R1 with biases).

The decision (:func:`pybridge.decision.classify._decide_skip_bias`) decides the reduced
identity-skip block ``x + (Q B) sigma(A x + c) + Q b0`` (``Q = P^-1``). Its certificate is the
reduced block's certificate (whatever kind :func:`.certificates.build_certificate` writes), with
its ``verdict`` renamed ``verdict_reduced``, followed by the user's ``P``, ``Q``, ``B``, ``b0`` as
data, the Z checks ``P Q = Q P = I`` (``CheckSkip.check_inverse``), ``Q B = B~``
(``CertifySkipWidth.check_reduced_down``) and ``Q b0 = b0~`` (``CertifySkipBias.check_reduced_bias``),
and the glue ``CertifySkipBias.cert_skip_bias_reduce`` rewriting the verdict to the user's block.

Reduced verdicts stated about the concrete reduced block (``B~`` as ``mat_of_cols dB CB`` or
``zmat_cols dB (zrows CB)``, ``b0~`` as ``vec_of db0 Lb0``) are glued by the iff; partial ones
(R9: for all ``A`` agreeing with columns ``R`` and ``B`` with rows ``R`` of the data, any biases)
by ``cert_skip_bias_partial`` with the Z check ``check_reduced_down_rows`` (``Q B`` agrees with
``B~`` on rows ``R``), the user's statement then being for all ``A`` agreeing on columns ``R``,
the user's ``B``, any ``b0``; the extract is compared exactly with the reduced block before Coq
runs (``Certificate.extract_of``). Other forms (coded data) raise :class:`CannotCertify`: the verdict is
reported ``not_certified``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from typing import Optional

from pybridge.certify.encoding import CoqWriter, columns, prime_list, primes_for
from pybridge.certify.kinds import CannotCertify, Certificate, CertificateBuilder
from pybridge.decision import width_route
from pybridge.decision.classify import reduced_bias_instance, user_skip_witness
from pybridge.exact.modular import scale_matrix
from pybridge.model import Decision, Instance

_FOOTER = "End Cert.\nPrint Assumptions Cert.verdict.\n"
_HEAD = "Theorem verdict : "
_B_FORMS = {"(mat_of_cols dB CB)": "check_reduced_down_cols", "(zmat_cols dB (zrows CB))": "check_reduced_down_sound"}
_B0 = "(vec_of db0 Lb0)"
_NEW_NAMES = re.compile(r"\b(dPs|RPs|dQs|RQs|dBs|CBs|dbs|Lbs|inv_skip_ok|down_skip_ok|bias_skip_ok|skip_glue|"
                        r"rows_skip_ok|verdict_reduced)\w*\b")
_PARTIAL = re.compile(r"forall \(A : mat\) \(c : vec\) \(B : mat\) \(b0 : vec\), agrees_up n R dA RA A -> "
                      r"agrees_down n R dB CB B ->\s*~ absorbable_ungated_bias (\w+) d n (\w+|\d+%nat) identity A c B b0")


def applies(instance: Instance) -> bool:
    """True for the blocks this module is responsible for: biases and a non-identity skip."""
    return instance.skip is not None and instance.has_bias


def _atoms(text: str) -> list[str]:
    """Whitespace-separated arguments, a parenthesized group being one argument."""
    out: list[str] = []
    depth, cur = 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                break
        if ch.isspace() and depth == 0:
            if cur:
                out.append(cur)
            cur = ""
            if len(out) >= 8:
                break
            continue
        cur += ch
    if cur and len(out) < 8:
        out.append(cur)
    return out


def _reduced_decision(instance: Instance, decision: Decision) -> tuple[Instance, Decision]:
    """The reduced instance and its decision (explicit blocks multiplied back by ``Q``)."""
    Q = decision.skip_inverse
    if Q is None:
        raise CannotCertify("a skip without its exact inverse")
    red = reduced_bias_instance(instance, Q)
    back = replace(instance, skip=Q)
    info = width_route._user_witness(back, decision.width_info) if decision.width_info is not None else None
    w = user_skip_witness(back, decision.witness) if decision.witness is not None else None
    return red, replace(decision, skip_inverse=None, reduced_down=None, witness=w, width_info=info)


def _rewrite_statement(stmt: str) -> tuple[str, str]:
    """The user's statement (``identity ... B~ b0~`` -> ``P ... B b0``) and ``B~``'s form."""
    pieces = stmt.split("absorbable_ungated_bias ")
    if len(pieces) < 2 or "forall" in stmt:
        raise CannotCertify("the reduced certificate's statement (for all weights agreeing with coded data) "
                            "has no R1-with-biases glue yet")
    out, form = [pieces[0]], None
    for piece in pieces[1:]:
        args = _atoms(piece)
        if len(args) < 8 or args[1:4] != ["d", "n", args[3]] or args[4] != "identity" \
                or args[7] not in _B_FORMS or not piece.startswith(" ".join(args[:7]) + " " + args[7] + " " + _B0):
            raise CannotCertify("the reduced certificate's statement has an unexpected form")
        if form is not None and form != args[7]:
            raise CannotCertify("the reduced certificate's statement has an unexpected form")
        form = args[7]
        old = " ".join(args[:7]) + " " + args[7] + " " + _B0
        new = " ".join(args[:4]) + " (mat_of_rows dPs RPs) " + " ".join(args[5:7]) + \
            " (mat_of_cols dBs CBs) (vec_of dbs Lbs)"
        out.append(new + piece[len(old):])
    assert form is not None
    return "absorbable_ungated_bias ".join(out), form


def _proof_term(stmt: str) -> str:
    """The user's verdict from ``verdict_reduced`` and ``skip_glue``: the statement is ``X``,
    ``~ X`` or ``X /\\ ~ Y`` (one ``absorbable_ungated_bias`` per part)."""
    parts = stmt.split(" /\\ ")
    if len(parts) > 2 or any(p.count("absorbable_ungated_bias ") != 1 for p in parts):
        raise CannotCertify("the reduced certificate's statement has an unexpected form")
    reduced = ["verdict_reduced"] if len(parts) == 1 else ["(proj1 verdict_reduced)", "(proj2 verdict_reduced)"]
    terms = []
    for part, vr in zip(parts, reduced):
        if part.lstrip().startswith("~"):
            terms.append(f"(fun H => {vr} (proj1 (skip_glue _ _ _ _) H))")
        else:
            terms.append(f"(proj2 (skip_glue _ _ _ _) {vr})")
    return terms[0] if len(terms) == 1 else f"(conj {terms[0]} {terms[1]})"


def build_skip_bias_certificate(instance: Instance, decision: Decision,
                                build_certificate: CertificateBuilder) -> Optional[Certificate]:
    """The reduced block's certificate, written by ``build_certificate`` (the pipeline's
    dispatcher), glued to the user's block by R1 with biases (:class:`CannotCertify` when
    the reduced certificate cannot be glued)."""
    if instance.skip is None:
        raise CannotCertify("no skip to reduce")
    red, red_dec = _reduced_decision(instance, decision)
    rcert = build_certificate(red, red_dec, residues=False)  # the glue reads the block's rows of B~
    if rcert is None:
        return None
    src = rcert.source
    if src.count(_HEAD) != 1 or not src.endswith(_FOOTER) or _NEW_NAMES.search(src) \
            or "Definition d : nat" not in src or "Definition n : nat" not in src or "Import Uint63 ListNotations." not in src:
        raise CannotCertify("the reduced certificate has an unexpected layout")
    start = src.index(_HEAD) + len(_HEAD)
    end = src.index(".\nProof.", start)
    assert decision.skip_inverse is not None
    P, Q = scale_matrix(instance.skip), scale_matrix(decision.skip_inverse)
    Bu = scale_matrix(instance.W_down)
    w = CoqWriter()
    n0 = len(w.lines)
    w.z("dPs", P.den)
    w.rows("RPs", P.rows)
    w.z("dQs", Q.den)
    w.rows("RQs", Q.rows)
    ps = prime_list(primes_for(instance.d * P.max_abs() * Q.max_abs() + P.den * Q.den))
    w.check("inv_skip_ok", f"check_inverse d dPs RPs dQs RQs {ps}")
    with w.data():
        w.z("dBs", Bu.den)
        w.rows("CBs", columns(Bu))
    partial = _PARTIAL.fullmatch(src[start:end])
    if partial is not None:
        sig, m = partial.group(1), partial.group(2)
        w.check("rows_skip_ok", "check_reduced_down_rows d n R dQs RQs dBs CBs dB CB")
        w.add(f"Theorem verdict : forall (A : mat) (c : vec) (b0 : vec), agrees_up n R dA RA A ->\n"
              f"  ~ absorbable_ungated_bias {sig} d n {m} (mat_of_rows dPs RPs) A c (mat_of_cols dBs CBs) b0.\n"
              "Proof.\n  intros A0 c0 b1 HA H.\n"
              f"  destruct (cert_skip_bias_partial _ _ _ _ _ _ _ _ {ps} _ _ _ _ _ _ _ _ inv_skip_ok rows_skip_ok H)\n"
              "    as [Bt [bt [HB Hab]]].\n  exact (verdict_reduced A0 c0 Bt bt HA HB Hab).\nQed.")
        return replace(_assemble(rcert, src, w.lines[n0:]), extract=rcert.extract, extract_of=red)
    stmt, form = _rewrite_statement(src[start:end])
    b0 = scale_matrix([list(instance.b_down or (Fraction(0),) * instance.d)])
    with w.data():
        w.z("dbs", b0.den)
        w.int_list("Lbs", b0.rows[0])
    w.check("down_skip_ok", "check_reduced_down d n dQs RQs dBs CBs dB CB")
    w.check("bias_skip_ok", "check_reduced_bias d dQs RQs dbs Lbs db0 Lb0")
    w.add("Lemma skip_glue : forall (sg : Rdefinitions.R -> Rdefinitions.R) (mw : nat) (A0 : mat) (c0 : vec),\n"
          "  absorbable_ungated_bias sg d n mw (mat_of_rows dPs RPs) A0 c0 (mat_of_cols dBs CBs) (vec_of dbs Lbs) <->\n"
          f"  absorbable_ungated_bias sg d n mw identity A0 c0 {form} {_B0}.\n"
          "Proof.\n  intros sg mw A0 c0.\n"
          f"  exact (cert_skip_bias_reduce sg d n mw dPs RPs dQs RQs {ps} A0 c0 dBs CBs dbs Lbs _ _ inv_skip_ok\n"
          f"    ({_B_FORMS[form]} d n dQs RQs dBs CBs dB CB down_skip_ok)\n"
          "    (check_reduced_bias_sound d dQs RQs dbs Lbs db0 Lb0 bias_skip_ok)).\nQed.")
    w.add(f"Theorem verdict : {stmt}.\nProof. exact {_proof_term(stmt)}. Qed.")
    return _assemble(rcert, src, w.lines[n0:])


def _assemble(rcert: Certificate, src: str, glue_lines: list[str]) -> Certificate:
    """The reduced certificate (its ``verdict`` renamed ``verdict_reduced``), then the glue."""
    glue = "\n".join(glue_lines)
    body = src[:-len(_FOOTER)].replace(_HEAD, "Theorem verdict_reduced : ", 1)
    first = body.index("From Absorb Require Import")
    body = (body[:first] + "From Absorb Require Import CheckSkip CertifySkipWidth CertifySkipBias.\n" + body[first:])
    return replace(rcert, stem="CertSkipBias", source=body + glue + "\n" + _FOOTER, extract=None)
