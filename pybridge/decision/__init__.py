"""The exact decision procedure: is ``x -> P x + f(x)`` absorbable at width n?

Entry point :func:`decide`. Verdicts rest on exact arithmetic only. By job:

- :mod:`.classify`: which result applies (R2, R3, R5, R7) and the verdict;
- :mod:`.subset_search`: the subset ``S`` with ``sum_{i in S} b~_i a_i^T = -I``, or a
  certificate that none exists (modulo primes, verified exactly);
- :mod:`.genericity`: genericity of the weights, with a projection certificate;
- :mod:`.skips`: a non-identity skip, reduced by R1 (``B~ = P^-1 B``);
- :mod:`.any_skip`: a singular skip, decided without R1 (R5/R9 with any linear part);
  :func:`decide` sends it there and every other block to :mod:`.classify`.

The exact data behind a verdict is ``Decision.evidence`` (:mod:`pybridge.exact.evidence`),
from which :mod:`pybridge.certify.pipeline` writes the Coq certificate.
"""

from pybridge.decision.any_skip import decide
from pybridge.decision.classify import flip_witness
from pybridge.decision.genericity import GenericOutcome, check_generic
from pybridge.decision.skips import SkipReduction, reduce_skip
from pybridge.decision.subset_search import SearchOutcome, search_subset, verify_nosub
from pybridge.exact.evidence import Evidence, Functional, GenericCertificate, NoSubsetCertificate

__all__ = [
    "Evidence", "Functional", "GenericCertificate", "GenericOutcome", "NoSubsetCertificate",
    "SearchOutcome", "SkipReduction", "check_generic", "decide", "flip_witness", "reduce_skip",
    "search_subset", "verify_nosub",
]
