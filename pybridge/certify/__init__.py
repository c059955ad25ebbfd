"""Certificates: from a decision's exact evidence to a Coq file, and its check.

- :mod:`.encoding`: the one Coq data encoding (packed integer literals, codes, digests,
  prime lists, the :class:`~.encoding.CoqWriter` that every writer uses);
- :mod:`.kinds`: :class:`~.kinds.CertificateKind`, :class:`~.kinds.Certificate`;
- one writer per kind of decision, each only serialising evidence:
  :mod:`.generic` (R2, R3, R5 and R1 + R5), :mod:`.width` (R8, R8'), :mod:`.bias` and
  :mod:`.bias_width` (R9), :mod:`.rank`, :mod:`.skip_bias`, :mod:`.skip_width` (R1 with biases);
- :mod:`.pipeline`: :func:`~.pipeline.build_certificate` picks the writer,
  :func:`~.pipeline.certify` has the prover check it;
- :mod:`.uses`: which library lemmas the writers name (for the lemma graph).
"""
