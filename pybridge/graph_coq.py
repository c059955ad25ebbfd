"""Compatibility: the lemma graph's Coq extraction now lives in :mod:`pybridge.coq.dpdgraph`."""

from .coq.dpdgraph import (  # noqa: F401
    AssumptionCache,
    CoqFacts,
    DpdNode,
    check_module,
    closure_facts,
    gather,
    parse_assumption_runs,
    parse_checks,
    parse_dpd,
    parse_glob,
    qualify_path,
    source_kind,
)
from .coq.query import default_cache_dir  # noqa: F401
