"""Exact algebra behind every verdict: modular and rational linear algebra
(:mod:`.modular`, :mod:`.linalg`), canonical ridge forms (:mod:`.ridge_form`) and the
width condition of R8/R9 (:mod:`.width`, :mod:`.width_evidence`)."""
