"""Partial (block) Coq certificates for generic blocks with biases (R9).

A block ``x + W_down sigma(W_up x + b_up) + b_down`` whose weights are generic
in the bias-free sense *on a block* ``R`` of indices (rows of ``W_up``
restricted to columns ``R`` nonzero and pairwise independent, rows ``R`` of
``W_down`` with a nonzero entry in every column) is generic with biases for
every bias ``b_up``: a relation between two augmented rows ``(a_i, c_i)``,
``(a_j, c_j)`` restricts to one between ``a_i[R]`` and ``a_j[R]``. So the
certificate reads neither bias, and states the verdict for EVERY
``(A, c, B, b0)`` agreeing with the extracted entries
(``CertifyBias.cert_bias_not_absorbable_partial``: width ``n``, with the block
no-subset certificate of the R5 search; ``cert_bias_not_absorbable_below_partial``:
width ``m < n``, genericity on the block alone).

What the certificate carries: ``R``, columns ``R`` of ``W_up`` (``n x |R|``
numerators over one denominator) and rows ``R`` of ``W_down`` (``|R| x n``),
``|R| = ceil(sqrt(n + 1))``; the sorted-ratio genericity projection on those
columns (``CheckGeneric.check_generic_sorted``); at width ``n`` the block
no-subset functional (``check_nosub``). Its header records the sha256 of the
full integer-scaled weights and biases and of the extracted entries;
:func:`pybridge.certify.pipeline.certify` checks exactly that the instance
agrees with the extracted entries before accepting
(:func:`pybridge.certify.pipeline.agreement`).

At width ``n`` the block is written as residues when a few of its indices carry the
genericity check (``CertifyResidues.cert_bias_not_absorbable_partial_mod``: the block modulo
the no-subset prime, those indices modulo the genericity prime). Otherwise the entries
are written as codes of ``+- m 2**e`` (:mod:`.coded`;
``CertifyBiasCoded.cert_bias_not_absorbable_partial_coded`` and
``cert_bias_not_absorbable_below_partial_coded``, the checkers reading the codes'
residues) when codes pack more entries per literal (float32 weights: two instead of
one) or the numerators exceed 63 bits; as plain numerators otherwise.

:func:`build_bias_partial` returns None when no block applies (no block
functional, or the rows are not pairwise independent on the block: e.g. rows
of ``W_up`` parallel with distinct biases); the full certificate is written then.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Optional

from pybridge.certify.encoding import CoqWriter, columns, digest
from pybridge.certify.kinds import MAX_FREE_CERT, Extract
from pybridge.certify.pieces import (
    RESIDUE_AGREEMENT,
    RESIDUE_CHECKS,
    RESIDUE_DATA,
    block_coding,
    residue_form,
    write_block,
    write_nosub,
    write_projection,
    write_residue_block,
)
from pybridge.decision.genericity import SortedGenericCertificate, sorted_certificate
from pybridge.decision.subset_search import block_indices, restrict_functionals, sub_matrices
from pybridge.exact.evidence import Functional, NoSubsetCertificate
from pybridge.exact.modular import IntMatrix, identity_int, scale_matrix
from pybridge.model import Instance


@dataclass(frozen=True)
class BiasBlock:
    """The block a partial certificate is written from (integer-scaled, exact)."""

    block: tuple[int, ...]
    A: IntMatrix  #: columns ``block`` of ``W_up`` (n x r)
    B: IntMatrix  #: rows ``block`` of ``W_down`` (r x n)
    #: the sorted-ratio genericity certificate: on ``block``, or on ``extract.residues.pair``
    #: when the certificate is written on residues
    generic: SortedGenericCertificate
    #: the no-subset functionals in block coordinates, with the certificate's p and free indices
    nosub: Optional[NoSubsetCertificate]
    extract: Extract


def _bias_digest(inst: Instance, A: IntMatrix, B: IntMatrix) -> str:
    c = scale_matrix([list(inst.b_up or (Fraction(0),) * inst.n)])
    b0 = scale_matrix([list(inst.b_down or (Fraction(0),) * inst.d)])
    return digest(A, B, c, b0)


def find_block(inst: Instance, A: IntMatrix, B: IntMatrix, nosub: Optional[NoSubsetCertificate],
               residues: bool = True) -> Optional[BiasBlock]:
    """The block of a partial certificate: the no-subset certificate's block (width ``n``;
    ``nosub`` given) or the default block (``nosub`` None: width ``m < n``). None when the
    functionals read outside the block or the sorted-ratio check fails on it. With
    ``residues`` and ``nosub``, the block is written on residues when it can be
    (:func:`~pybridge.certify.pieces.residue_form`)."""
    n, d = A.shape
    R: tuple[int, ...]
    if nosub is not None:
        R = getattr(nosub, "block", None) or tuple(range(d))
        funcs: Optional[tuple[Functional, ...]] = restrict_functionals(nosub, R)
        if funcs is None or len(nosub.free) > MAX_FREE_CERT:
            return None
    else:
        R, funcs = block_indices(d, n), None
    res = residue_form(A, B, R, nosub.p) if nosub is not None and residues else None
    gen = res[1] if res is not None else sorted_certificate(A, B, R)
    if gen is None:
        return None
    Ab, Bb, _ = sub_matrices(A, B, identity_int(d), R)
    extract = Extract(R, Ab, Bb, _bias_digest(inst, A, B), digest(Ab, Bb), res[0] if res is not None else None)
    block_cert = replace(nosub, functionals=funcs) if nosub is not None and funcs is not None else None
    return BiasBlock(R, Ab, Bb, gen, block_cert, extract)


def write_bias_partial(blk: BiasBlock, d: int, n: int, m: int, sigma: str, prop: str, below: str,
                       modules: tuple[str, ...]) -> tuple[str, str]:
    """The Coq source of a partial certificate and its kind (width ``m``; ``m = n`` needs
    ``blk.nosub``). ``prop`` / ``below``: the activation's R9 facts (``CertifyBias``).

    The block is written on residues (``CertifyResidues``) when ``blk.extract`` says so (width
    ``n`` only), else as codes of ``+- m 2**e`` (``CertifyBiasCoded``, the checkers reading
    the codes' residues) when that is denser or numerators exceed 63 bits."""
    if blk.extract.residues is not None:
        return _write_bias_residues(blk, d, n, m, sigma, prop, modules)
    cols = columns(blk.B)
    codes = block_coding(blk.A, blk.B, cols, blk.generic.p)
    suffix = "_coded" if codes is not None else ""
    extra = ("CodedData", "CertifyCoded", "CertifyBiasCoded") if codes is not None else ()
    w = CoqWriter(extra=("BiasBlocks", "BiasSpec", "ReluBias", *modules, "CertifyBias", *extra))
    _header(w, blk)
    write_block(w, d, n, blk.block, blk.A, blk.B, cols, codes)
    if codes is None:
        ra, cb, agree = "RA", "CB", "agrees_up n R dA RA A -> agrees_down n R dB CB B"
    else:  # the checkers read the codes' residues
        ra, cb = "(resid {p} E RA)", "(resid {p} E CB)"
        agree = "agrees_up_coded n R dA E RA A -> agrees_down_coded n R dB E CB B"
    g = blk.generic
    write_projection(w, g)
    w.check("idx_ok", "index_ok d R")
    w.check("gen_ok", f"check_generic_sorted (length R) n {ra.format(p='pg')} {cb.format(p='pg')} pg U V")
    data = "d n R dA dB E RA CB" if codes is not None else "d n R dA dB RA CB"
    head = f"{sigma} {data} pg U V"
    stmt = (f"forall (A : mat) (c : vec) (B : mat) (b0 : vec), {agree} ->\n"
            f"  ~ absorbable_ungated_bias {sigma} d n {m} identity A c B b0")
    if m < n:
        term = (f"(cert_bias_not_absorbable_below_partial{suffix} {head} {below} {m}%nat idx_ok eq_refl eq_refl "
                "gen_ok eq_refl)")
        kind = f"not absorbable at width {m} < n (R9, generic with biases), for all weights agreeing with a " \
               f"{len(blk.block)}-index block, any biases"
    else:
        cert = blk.nosub
        if cert is None:
            raise ValueError("a width-n partial certificate needs the block's no-subset functionals")
        write_nosub(w, cert)
        w.check("nosub_ok", f"check_nosub (length R) n dA dB 1 {ra.format(p='p')} {cb.format(p='p')} "
                "(id_rows (length R)) p F FS")
        term = f"(cert_bias_not_absorbable_partial{suffix} {head} {prop} p F FS idx_ok gen_ok nosub_ok)"
        kind = "not absorbable at width n (R9 =>, generic with biases, no S), for all weights agreeing with a " \
               f"{len(blk.block)}-index block, any biases"
    if codes is not None:
        kind += " (entries coded as +- m 2^e)"
    w.add(f"Theorem verdict : {stmt}.\nProof. exact {term}. Qed.")
    return w.text(), kind


def _header(w: CoqWriter, blk: BiasBlock) -> None:
    w.add(f"(* Partial certificate (R9, generic with biases): columns R of W_up and rows R of W_down,\n"
          f"   |R| = {len(blk.block)}; the biases are not read.\n"
          f"   sha256 of the full integer-scaled weights and biases (W_up, W_down, b_up, b_down): "
          f"{blk.extract.weights_sha256}\n"
          f"   sha256 of the extracted entries (RA, CB): {blk.extract.extract_sha256} *)")


def _write_bias_residues(blk: BiasBlock, d: int, n: int, m: int, sigma: str, prop: str,
                         modules: tuple[str, ...]) -> tuple[str, str]:
    """Width ``n`` on residues (``CertifyResidues.cert_bias_not_absorbable_partial_mod``)."""
    res = blk.extract.residues
    if res is None or blk.nosub is None or m != n:
        raise ValueError("a certificate on residues needs width n and the block's no-subset functionals")
    w = CoqWriter(extra=("BiasBlocks", "BiasSpec", "ReluBias", *modules, "CertifyBias", "CertifyResidues"))
    _header(w, blk)
    write_residue_block(w, d, n, blk.block, blk.A, blk.B, res, blk.generic, blk.nosub)
    stmt = (f"forall (A : mat) (c : vec) (B : mat) (b0 : vec), {RESIDUE_AGREEMENT} ->\n"
            f"  ~ absorbable_ungated_bias {sigma} d n {m} identity A c B b0")
    args = " ".join([sigma, *RESIDUE_DATA, prop, *RESIDUE_CHECKS])
    w.add(f"Theorem verdict : {stmt}.\nProof. exact (cert_bias_not_absorbable_partial_mod {args}). Qed.")
    kind = ("not absorbable at width n (R9 =>, generic with biases, no S), for all weights agreeing with a "
            f"{len(blk.block)}-index block, any biases")
    return w.text(), kind
