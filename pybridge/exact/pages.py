"""Large NumPy arrays on ordinary pages.

NumPy asks Linux for transparent huge pages (``madvise(MADV_HUGEPAGE)``) on every large
array. Where the kernel's THP defrag setting is ``madvise`` (Debian's default), each first
touch of such an array may compact memory synchronously: on our 2-core machine, filling a
fresh 75 MB system matrix took 0.65 s instead of 0.04 s, and a 12-layer GPT-2-small scan
spent 13-16 s of system time instead of 7 s (``bench/RESULTS.md``). A scan allocates such
matrices for every layer, so its processes use ordinary pages.
"""

from __future__ import annotations

import importlib

#: The environment variable NumPy reads at import time (NumPy >= 1.20).
NUMPY_HUGEPAGE_VARIABLE = "NUMPY_MADVISE_HUGEPAGE"


def use_small_pages() -> None:
    """Stop NumPy's huge-page advice in this process (no effect on an older NumPy)."""
    for module in ("numpy._core.multiarray", "numpy.core.multiarray"):  # NumPy 2, NumPy 1
        try:
            setter = getattr(importlib.import_module(module), "_set_madvise_hugepage", None)
        except ImportError:
            continue
        if setter is not None:
            setter(False)
            return
