"""Coq certificates for decisions, checked by the prover.

:func:`build_certificate` turns an instance and its :class:`~pybridge.model.Decision`
into a self-contained Coq file that imports the library, defines the instance's
data (numbers only; every identifier is built here), proves ``verdict`` from the
headline theorems, discharging side conditions with the boolean checkers of
``Checkers.v`` by ``vm_compute``, and ends with ``Print Assumptions verdict``.
:func:`certify` compiles it and accepts only if Coq does and every assumption
is in :data:`~pybridge.prover.ALLOWED_AXIOMS`.

Weights are written as signed 63-bit numerators (two's complement literals)
over a common positive denominator per matrix; a numerator outside
``[-2**62, 2**62)`` cannot be encoded and the instance is then not certified.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from math import prod
from pathlib import Path
from typing import Optional, Sequence

from .decision import Evidence, NoSubsetCertificate, analyze
from .model import Decision, Instance, ProverResult
from .modular import PRIMES, IntMatrix, scale_matrix
from .prover import ALLOWED_AXIOMS, PRIMITIVE_INT_AXIOMS, ProverBackend, parse_assumptions

LIMIT = 2**62

ROW_CHUNK = 8000  #: longest list literal written in one piece (Coq's parser recurses)
MAX_FREE_CERT = 20  #: largest number of free indices a Coq certificate enumerates

#: activation name -> (Coq function, odd-part lemma) for odd-part-identity blocks
ODD = {
    "relu": ("relu", "relu_odd_part"),
    "gelu": ("gelu", "gelu_odd_part"),
    "gelu_tanh": ("gelu_tanh", "gelu_tanh_odd_part"),
    "silu": ("silu", "silu_odd_part"),
}
#: activation -> (extra module, proof term of ``exists S, submatrix_cond d n S A B``
#: from ``Hgen : generic d n A B`` and ``Habs``: R5 (=>))
GENERIC_SUBMATRIX = {
    "relu": (None, "relu_absorbable_generic_submatrix d n _ _ {g} Habs"),
    "gelu": ("GeluRidge", "gelu_absorbable_generic_submatrix_uncond d n _ _ {g} Habs"),
    "gelu_tanh": ("GeluTanhRidge", "proj1 (gelu_tanh_absorbable_iff_submatrix_uncond d n _ _ {g}) Habs"),
    "silu": ("SiluRidge", "silu_absorbable_generic_submatrix d n _ _ {g} Habs"),
}
#: gated activation name -> (gate function, instance theorem)
GATED = {
    "swiglu": ("silu", "swiglu_not_absorbable"),
    "geglu": ("gelu", "geglu_not_absorbable"),
    "geglu_tanh": ("gelu_tanh", "geglu_tanh_not_absorbable"),
    "reglu": ("relu", "reglu_not_absorbable"),
}


class CannotCertify(Exception):
    """The decision is exact but no Coq certificate can be written for it."""


@dataclass(frozen=True)
class Certificate:
    stem: str
    source: str
    kind: str


# ---------------------------------------------------------------- Coq text


class _Writer:
    """Accumulates Coq definitions; every name is generated here."""

    def __init__(self, extra: Sequence[str] = ()) -> None:
        # Uint63 is imported inside the module only, so that the final
        # Print Assumptions names the primitive-integer axioms fully qualified.
        self.lines: list[str] = [
            'Set Warnings "-abstract-large-number".',
            "From Coq Require Import Reals ZArith List.",
            "From Coq Require Uint63.",
            "From Absorb Require Import Sums Blocks ActivationDefs Activations FlipSigns Biases",
            "  SkipReduction Homogeneous Gated ImpossibilityInstances ReluSubmatrix Checkers"
            + "".join(f" {m}" for m in extra) + ".",
            "Open Scope R_scope.",
            "Module Cert.",
            "Import Uint63 ListNotations.",
            "Definition c := @cons int.",
            "Definition e := @nil int.",
            "",
        ]

    def add(self, text: str) -> None:
        self.lines.append(text)

    def _literal_list(self, lits: list[str]) -> str:
        """``c x1 (c x2 (... e))``: explicit applications elaborate faster than list notation."""
        return "".join(f"(c {x} " for x in lits) + "e" + ")" * len(lits)

    def int_list(self, name: str, values: Sequence[int], pack: bool = False) -> str:
        """Define ``name : list int`` from signed numerators; return ``name``.

        With ``pack``, several numerators share one literal (``Checkers.unpack``)."""
        w = (max((abs(v) for v in values), default=0)).bit_length() + 1
        k = 63 // w if pack else 1
        if k >= 2:
            off = 1 << (w - 1)
            words = []
            for c in range(0, len(values), k):
                x = 0
                for j, v in enumerate(values[c:c + k]):
                    x |= (v + off) << (j * w)
                words.append(str(x))
            body = self._chunked(name, words)
            self.add(f"Definition {name} : list int := unpack {w} {k} {len(values)} {body}.")
            return name
        body = self._chunked(name, [_lit(v) for v in values])
        self.add(f"Definition {name} : list int := {body}.")
        return name

    def _chunked(self, name: str, lits: list[str]) -> str:
        if len(lits) <= ROW_CHUNK:
            return self._literal_list(lits)
        parts = []
        for c in range(0, len(lits), ROW_CHUNK):
            part = f"{name}_c{c // ROW_CHUNK}"
            self.add(f"Definition {part} : list int := {self._literal_list(lits[c:c + ROW_CHUNK])}.")
            parts.append(part)
        return "(" + " ++ ".join(parts) + ")"

    def rows(self, prefix: str, rows: Sequence[Sequence[int]]) -> str:
        names = [self.int_list(f"{prefix}{i}", r, pack=True) for i, r in enumerate(rows)]
        self.add(f"Definition {prefix} : list (list int) := [{'; '.join(names)}].")
        return prefix

    def z(self, name: str, value: int) -> str:
        self.add(f"Definition {name} : Z := ({value})%Z.")
        return name

    def nat(self, name: str, value: int) -> str:
        self.add(f"Definition {name} : nat := {value}%nat.")
        return name

    def check(self, name: str, statement: str) -> None:
        """A boolean side condition, proved by the VM (checked once by the kernel at Qed)."""
        self.add(f"Lemma {name} : {statement} = true.\nProof. vm_cast_no_check (eq_refl true). Qed.")

    def text(self) -> str:
        """The whole file: the module, then ``Print Assumptions`` of its ``verdict``."""
        return "\n".join(self.lines + ["End Cert.", "Print Assumptions Cert.verdict."]) + "\n"


def _lit(v: int) -> str:
    if not -LIMIT <= v < LIMIT:
        raise CannotCertify("a weight numerator does not fit the 63-bit encoding of the certificates")
    return str(v if v >= 0 else 2**63 + v)


def _columns(m: IntMatrix) -> list[tuple[int, ...]]:
    return [tuple(r[i] for r in m.rows) for i in range(m.shape[1])]


def _primes_for(bound: int) -> list[int]:
    ps: list[int] = []
    for p in PRIMES:
        ps.append(p)
        if prod(ps) > bound:
            return ps
    raise CannotCertify("weights too large for the multi-modular exactness check")


def _plist(ps: Sequence[int]) -> str:
    return "[" + "; ".join(str(p) for p in ps) + "]%uint63"


def _nat_list(xs: Sequence[int]) -> str:
    return "[" + "; ".join(f"{x}%nat" for x in xs) + "]"


# ---------------------------------------------------------------- pieces


def _data(w: _Writer, ev: Evidence) -> None:
    n, d = ev.A.shape
    w.nat("d", d)
    w.nat("n", n)
    w.z("dA", ev.A.den)
    w.z("dB", ev.B.den)
    w.rows("RA", ev.A.rows)
    w.rows("CB", _columns(ev.B))


def _skip_data(w: _Writer, inst: Instance) -> Optional[str]:
    """Define the skip P as data; return the Coq term for P (None: identity)."""
    if inst.skip is None:
        return None
    P = scale_matrix(inst.skip)
    w.z("dP", P.den)
    w.rows("RP", P.rows)
    return "(mat_of_rows dP RP)"


def _skip(w: _Writer, inst: Instance, decision: Decision) -> Optional[str]:
    """Define the skip P and Q = P^-1 with a checked proof ``HPQ`` of ``inverse_of``."""
    if _skip_data(w, inst) is None:
        return None
    P = scale_matrix(inst.skip)
    Q = scale_matrix(decision.skip_inverse)
    d = len(P.rows)
    w.z("dQ", Q.den)
    w.rows("RQ", Q.rows)
    bound = d * P.max_abs() * Q.max_abs() + P.den * Q.den
    w.check("inv_ok", f"check_inverse d dP RP dQ RQ {_plist(_primes_for(bound))}")
    w.add("Definition HPQ := check_inverse_sound d dP RP dQ RQ _ inv_ok.")
    return "(mat_of_rows dP RP)"


def _functionals(w: _Writer, cert: NoSubsetCertificate) -> str:
    items = []
    for j, f in enumerate(cert.functionals):
        rows = []
        for k, row in f.rows:
            name = w.int_list(f"Y{j}_{k}", row)
            rows.append(f"({k}%nat, {name})")
        piv = "None" if f.pivot is None else f"(Some {f.pivot}%nat)"
        items.append(f"({piv}, [{'; '.join(rows)}])")
    w.add(f"Definition FS : list (option nat * functional) := [{'; '.join(items)}].")
    return "FS"


def _nonzero_skip(w: _Writer, inst: Instance, P: Optional[str]) -> str:
    """A proof term of ``nonzero_mat d P``."""
    if P is None:
        w.add("Definition P_nonzero : nonzero_mat d identity :=\n"
              "  identity_nonzero d (proj1 (Nat.ltb_lt 0 d) eq_refl).")
        return "P_nonzero"
    rows = scale_matrix(inst.skip).rows
    k, l = next((k, l) for k, r in enumerate(rows) for l, v in enumerate(r) if v != 0)
    w.check("P_nz", f"check_nonzero d RP {k}%nat {l}%nat")
    w.add("Definition P_nonzero : nonzero_mat d (mat_of_rows dP RP) :=\n"
          "  check_nonzero_sound d dP RP _ _ P_nz eq_refl.")
    return "P_nonzero"


# ---------------------------------------------------------------- builders


def _build_classification(inst: Instance, decision: Decision) -> Certificate:
    """Gated / homogeneous: the verdict for every weight of the given shape."""
    w = _Writer()
    d, n = inst.d, inst.n
    w.nat("d", d)
    w.nat("n", n)
    P = _skip_data(w, inst)
    pterm = P or "identity"
    hp = _nonzero_skip(w, inst, P)
    act = inst.activation
    if act.name in GATED:
        gate, thm = GATED[act.name]
        w.add(f"Theorem verdict : forall C A B : mat, ~ absorbable_gated {gate} d n n {pterm} C A B.\n"
              f"Proof. intros C A B. exact ({thm} d n n {pterm} C A B {hp}). Qed.")
        kind = f"{act.name}: not absorbable (R3), all weights"
    elif act.name == "relu_pow" and act.degree is not None and act.degree != 1:
        k = act.degree
        w.add(f"Theorem verdict : forall A B : mat, ~ absorbable_ungated (relu_pow {k}) d n n {pterm} A B.\n"
              f"Proof. intros A B. exact (relu_pow_not_absorbable {k} d n n {pterm} A B "
              f"ltac:(discriminate) {hp}). Qed.")
        kind = f"relu^{k}: not absorbable (R2), all weights"
    else:
        raise CannotCertify(f"no classification certificate for {act.label}")
    return Certificate("CertClassify", w.text(), kind)


def _build_absorbable(inst: Instance, decision: Decision, ev: Evidence) -> Certificate:
    act = inst.activation
    if act.name not in ODD:
        raise CannotCertify(f"no absorbable certificate for {act.label}")
    sigma, odd = ODD[act.name]
    subset = decision.witness.subset
    n, d = ev.A.shape
    w = _Writer()
    _data(w, ev)
    P = _skip(w, inst, decision)
    T = ev.target
    s = set(subset)
    w.add("Definition SL : list bool := [" + "; ".join("true" if i in s else "false" for i in range(n)) + "].")
    bound = T.den * n * ev.B.max_abs() * ev.A.max_abs() + ev.A.den * ev.B.den * T.max_abs()
    ps = _plist(_primes_for(bound))
    A, B = "(mat_of_rows dA RA)", "(mat_of_cols dB CB)"
    if inst.has_bias:
        if P is not None:
            raise CannotCertify("biases with a non-identity skip")
        c = scale_matrix([list(inst.b_up or [0] * n)])
        b0 = scale_matrix([list(inst.b_down or [0] * d)])
        w.add("Definition vec_of (den : Z) (l : list int) : vec := fun i => IZR (zval (nth i l 0%uint63)) / IZR den.")
        w.z("dc", c.den)
        w.int_list("Lc", c.rows[0])
        w.z("db0", b0.den)
        w.int_list("Lb0", b0.rows[0])
        w.check("sub_ok", f"check_submatrix d n dA dB 1 RA CB (id_rows d) SL {ps}")
        w.add(f"Theorem verdict : absorbable_ungated_bias {sigma} d n n identity {A} (vec_of dc Lc) {B} (vec_of db0 Lb0).\n"
              f"Proof. exact (odd_part_absorbable_bias {sigma} d n (Sfun SL) _ _ _ _ {odd}\n"
              f"  (check_submatrix_identity d n dA dB RA CB SL _ sub_ok)). Qed.")
        kind = "absorbable with biases (R5 <= with biases, R7)"
    elif P is None:
        w.check("sub_ok", f"check_submatrix d n dA dB 1 RA CB (id_rows d) SL {ps}")
        w.add(f"Theorem verdict : absorbable_ungated {sigma} d n n identity {A} {B}.\n"
              f"Proof. exact (odd_part_absorbable {sigma} d n (Sfun SL) _ _ {odd}\n"
              f"  (check_submatrix_identity d n dA dB RA CB SL _ sub_ok)). Qed.")
        w.add(f"Theorem witness : same_fun d (ungated {sigma} d n (flip_rows (Sfun SL) {A}) {B})\n"
              f"  (residual d identity (ungated {sigma} d n {A} {B})).\n"
              f"Proof. exact (flip_rows_residual {sigma} d n (Sfun SL) _ _ {odd}\n"
              f"  (check_submatrix_identity d n dA dB RA CB SL _ sub_ok)). Qed.")
        kind = "absorbable (R5 <=)"
    else:
        w.check("sub_ok", f"check_submatrix d n dA dB dP RA CB RP SL {ps}")
        w.add(f"Theorem verdict : absorbable_ungated {sigma} d n n {P} {A} {B}.\n"
              f"Proof. apply (proj2 (skip_reduction_ungated {sigma} d n n _ _ _ _ HPQ)).\n"
              f"  exact (odd_part_absorbable {sigma} d n (Sfun SL) _ _ {odd}\n"
              f"    (check_submatrix_skip d n dA dB dP RA CB RP SL _ _ sub_ok HPQ)). Qed.")
        kind = "absorbable (R1 + R5 <=)"
    return Certificate("CertAbsorbable", w.text(), kind)


def _build_not_absorbable(inst: Instance, decision: Decision, ev: Evidence) -> Certificate:
    if ev.generic_cert is None:
        raise CannotCertify("genericity was shown without a single projection certificate")
    if ev.nosub_cert is None:
        raise CannotCertify("no no-subset certificate")
    cert = ev.nosub_cert
    if len(cert.free) > MAX_FREE_CERT:
        raise CannotCertify(f"the certificate would enumerate 2^{len(cert.free)} assignments")
    act = inst.activation
    if act.name not in GENERIC_SUBMATRIX:
        raise CannotCertify(f"no not-absorbable certificate for {act.label}")
    module, r5 = GENERIC_SUBMATRIX[act.name]
    sigma = ODD[act.name][0]
    w = _Writer(extra=(module,) if module else ())
    _data(w, ev)
    P = _skip(w, inst, decision)
    g = ev.generic_cert
    w.add(f"Definition pg : int := {g.p}%uint63.")
    w.int_list("U", g.u)
    w.int_list("V", g.v)
    w.add(f"Definition p : int := {cert.p}%uint63.")
    w.add(f"Definition F : list nat := {_nat_list(cert.free)}.")
    _functionals(w, cert)
    w.check("gen_ok", "check_generic d n RA CB pg U V")
    w.add("Definition Hgen := check_generic_sound d n dA dB RA CB pg U V gen_ok eq_refl eq_refl.")
    A, B = "(mat_of_rows dA RA)", "(mat_of_cols dB CB)"
    if P is None:
        w.check("nosub_ok", "check_nosub d n dA dB 1 RA CB (id_rows d) p F FS")
        w.add(f"Theorem verdict : ~ absorbable_ungated {sigma} d n n identity {A} {B}.\n"
              f"Proof.\n  intros Habs.\n"
              f"  destruct ({r5.format(g='Hgen')}) as [S HS].\n"
              f"  exact (check_nosub_identity d n dA dB RA CB p F FS nosub_ok S HS).\nQed.")
    else:
        w.check("nosub_ok", "check_nosub d n dA dB dP RA CB RP p F FS")
        w.add(f"Theorem verdict : ~ absorbable_ungated {sigma} d n n {P} {A} {B}.\n"
              f"Proof.\n  intros Habs.\n"
              f"  apply (proj1 (skip_reduction_ungated {sigma} d n n _ _ _ _ HPQ)) in Habs.\n"
              f"  destruct ({r5.format(g='(generic_skip d n _ _ _ _ HPQ Hgen)')}) as [S HS].\n"
              f"  exact (check_nosub_skip d n dA dB dP RA CB RP p F FS _ nosub_ok HPQ S HS).\nQed.")
    return Certificate("CertNotAbsorbable", w.text(), f"not absorbable (generic {act.label}, R5 =>)")


def build_certificate(instance: Instance, decision: Decision) -> Optional[Certificate]:
    """The Coq certificate for ``decision`` (None: nothing to certify).

    Raises :class:`CannotCertify` when the verdict is of a certifiable kind but
    no certificate can be written (encoding limits, missing evidence).
    """
    v = decision.verdict
    if v in ("outside_hypotheses", "undecided"):
        return None
    act = instance.activation
    if v == "not_absorbable" and decision.result in ("R2", "R3"):
        return _build_classification(instance, decision)
    ev = decision.evidence
    if not isinstance(ev, Evidence):
        ev = analyze(instance).evidence
    if v == "absorbable":
        if decision.witness is None:
            raise CannotCertify("absorbable decision without a witness")
        return _build_absorbable(instance, decision, ev)
    if v == "not_absorbable":
        return _build_not_absorbable(instance, decision, ev)
    raise CannotCertify(f"no certificate kind for verdict {v} of {act.label}")


def _assumptions(output: str) -> Optional[tuple[str, ...]]:
    """Axioms printed by the final ``Print Assumptions`` (None if it printed nothing)."""
    for marker in ("Closed under the global context", "Axioms:"):
        pos = output.rfind(marker)
        if pos >= 0:
            return parse_assumptions(output[pos:])
    return None


def certify(instance: Instance, decision: Decision, backend: ProverBackend, *,
            timeout: float = 120.0, keep_dir: Optional[Path] = None) -> Optional[ProverResult]:
    """Have the prover check a certificate of ``decision``.

    None when there is nothing to certify (outside the hypotheses, undecided).
    Accepted only if the file compiles and its ``Print Assumptions verdict``
    lists only allowed axioms.
    """
    try:
        cert = build_certificate(instance, decision)
    except CannotCertify as exc:
        return ProverResult(False, 0.0, f"not certified: {exc}", prover=backend.name)
    if cert is None:
        return None
    assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", cert.stem)
    res = backend.check_file(cert.source, stem=cert.stem, timeout=timeout, keep_dir=keep_dir)
    if not res.accepted:
        return res
    axioms = _assumptions(res.message)
    if axioms is None:
        return replace(res, accepted=False, message="no Print Assumptions output")
    bad = [a for a in axioms if a not in ALLOWED_AXIOMS and a not in PRIMITIVE_INT_AXIOMS]
    if bad:
        return replace(res, accepted=False, message=f"disallowed assumptions: {', '.join(bad)}")
    prim = sum(a in PRIMITIVE_INT_AXIOMS for a in axioms)
    named = [a for a in axioms if a not in PRIMITIVE_INT_AXIOMS]
    note = f" + {prim} primitive-integer axioms" if prim else ""
    return replace(res, message=f"{cert.kind}; axioms: {', '.join(named) or 'none'}{note}")
