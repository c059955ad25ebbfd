"""Certificates for blocks with biases and a non-identity skip ``P`` (R1 with biases).

The decision (:func:`pybridge.decision.classify._decide_skip_bias`) rests on
``SkipReductionBias.skip_reduction_ungated_bias`` and the reduced identity-skip block's theorem.
A certificate would glue the reduced block's certificate to a Z check of ``P Q = Q P = I``,
``Q B = B~`` and ``Q b0 = b0~``; that glue is not written yet, so these verdicts are reported
``not_certified`` (never certified by a certificate about another block).
"""

from __future__ import annotations

from typing import NoReturn

from ..model import Decision, Instance
from .certificates import CannotCertify


def applies(instance: Instance) -> bool:
    """True for the blocks this module is responsible for: biases and a non-identity skip."""
    return instance.skip is not None and instance.has_bias


def build_skip_bias_certificate(instance: Instance, decision: Decision) -> NoReturn:
    """Raises :class:`CannotCertify`: the R1-with-biases glue certificate is not written yet."""
    raise CannotCertify(f"{decision.result or 'this'} verdict after skip reduction with biases (R1, "
                        "SkipReductionBias.skip_reduction_ungated_bias): the Coq certificate gluing the "
                        "reduced block's certificate to the check P^-1 (B, b0) = (B~, b0~) is not written yet")
