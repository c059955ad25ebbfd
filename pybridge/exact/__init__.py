"""Exact algebra behind every verdict: modular and rational linear algebra
(:mod:`.modular`, :mod:`.linalg`; the blocked LU mod p over float64 BLAS with delayed
reduction, :mod:`.blas_lu`, through NumPy's bundled OpenBLAS, :mod:`.openblas`), exact
integer forms of float arrays (:mod:`.dyadic`, :mod:`.arrays`), canonical ridge forms
(:mod:`.ridge_form`) and the width condition of R8/R9 (:mod:`.width`, :mod:`.width_evidence`)."""
