"""The Coq facts a GELU-family certificate cites (R8', classes by sign), per activation."""

from __future__ import annotations

from typing import NamedTuple, Optional


class PmFacts(NamedTuple):
    """``sigma``'s Coq name, its odd-part identity, ``sigma 0 = 0``, the ridge uniqueness of its
    even part (``ridge_unique_even (even_part sigma)``) and the modules that hold them."""

    sigma: str
    odd_part: str
    zero: str
    ridge_unique: str
    modules: tuple[str, ...]


PM_FACTS: dict[str, PmFacts] = {
    "gelu": PmFacts("gelu", "gelu_odd_part", "gelu_zero", "gelu_even_part_unique", ()),
    "gelu_tanh": PmFacts("gelu_tanh", "gelu_tanh_odd_part", "gelu_tanh_zero", "gelu_tanh_ridge_unique",
                         ("GeluTanhRidge",)),
    "silu": PmFacts("silu", "silu_odd_part", "(proj2 silu_vanishing)", "silu_ridge_unique", ("SiluRidge",)),
    "quick_gelu": PmFacts("quick_gelu", "quick_gelu_odd_part", "quick_gelu_zero", "quick_gelu_ridge_unique",
                          ("MoreActivationDefs", "MoreActivations", "QuickGeluRidge")),
    "gelu_fast": PmFacts("gelu_fast", "gelu_fast_odd_part", "gelu_fast_zero", "gelu_fast_ridge_unique",
                         ("MoreActivationDefs", "MoreActivations", "GeluFastRidge")),
}


def width_sigma(activation: str) -> Optional[tuple[str, Optional[PmFacts]]]:
    """``(sigma, facts)`` of a width-route activation a certificate names: ReLU (no facts) or
    the GELU family; None for any other."""
    if activation == "relu":
        return "relu", None
    pm = PM_FACTS.get(activation)
    return None if pm is None else (pm.sigma, pm)
