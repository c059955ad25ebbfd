"""pybridge: machine-checked answers to "can this MLP block absorb its skip connection?".

The formal library lives in ``coq/``; this package reads weights, decides which
theorem applies, and has the proof assistant check a certificate per instance.

>>> import numpy as np, pybridge
>>> inst = pybridge.from_arrays(np.array([[1], [2]]), np.array([[1, 1]]), "relu")
>>> report = pybridge.check(inst)                    # doctest: +SKIP

The names below are imported on first use (PEP 562), so that importing a
submodule (``pybridge.io``, ``pybridge.cli``) does not load the whole package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Public name -> the module that defines it.
_LAZY = {
    "check": "pybridge.api",
    "scan": "pybridge.api",
    "load": "pybridge.api",
    "report_to_json": "pybridge.api",
    "from_arrays": "pybridge.io.arrays",
    "Instance": "pybridge.model",
    "Report": "pybridge.model",
    "Activation": "pybridge.activations",
    "InputError": "pybridge.errors",
    "ProverUnavailable": "pybridge.errors",
}

__all__ = ["__version__", *_LAZY]

if TYPE_CHECKING:
    from pybridge.activations import Activation as Activation
    from pybridge.api import check as check
    from pybridge.api import load as load
    from pybridge.api import report_to_json as report_to_json
    from pybridge.api import scan as scan
    from pybridge.errors import InputError as InputError
    from pybridge.errors import ProverUnavailable as ProverUnavailable
    from pybridge.io.arrays import from_arrays as from_arrays
    from pybridge.model import Instance as Instance
    from pybridge.model import Report as Report


def __getattr__(name: str) -> Any:
    """Import ``pybridge.<name>`` from its module on first access."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pybridge' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
