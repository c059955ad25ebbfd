"""Everything pybridge asks of Coq.

- :mod:`.backend`: the ``coqc`` process, the library's load path, time limits
  (:class:`CoqBackend`, the Coq implementation of :class:`pybridge.prover.ProverBackend`);
- :mod:`.query`: the one protocol for statements and axioms (marker-separated
  ``Check`` / ``Print Assumptions`` output), used by ``prove``, the lemma graph
  and the certificates, with a cache keyed on the compiled library;
- :mod:`.dpdgraph`: the lemma graph's extraction through coq-dpdgraph.

Certificates are written in :mod:`pybridge.certify`.
"""

from pybridge.coq.backend import CoqBackend, CoqRun

__all__ = ["CoqBackend", "CoqRun"]
