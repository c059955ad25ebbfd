"""The typed Python API: read an instance, decide, certify with Coq, cross-check; scan checkpoints.

>>> from pybridge.api import load, check, report_to_json
>>> report = check(load("examples/relu_absorbable.json"))      # doctest: +SKIP
>>> report.decision.verdict, report.checked                     # doctest: +SKIP
('absorbable', True)

``check`` never raises on a rejected certificate: ``report.checked`` is then
False and ``report.prover.outcome`` says why (``rejected``: the CLI exits 1;
``timeout`` and ``not_certified``: exit 0, not a rejection). Bad input raises
:class:`pybridge.errors.InputError`.
"""

from pybridge.checking import (
    check,
    exit_code,
    load,
    not_certified,
    rejected,
    report_to_json,
    timed_out,
    width_to_json,
    witness_to_json,
)
from pybridge.decision import decide
from pybridge.io import parse_activation
from pybridge.model import Activation, Instance, Report
from pybridge.scanning import LayerReport, ScanResult, scan

__all__ = [
    "load",
    "check",
    "scan",
    "report_to_json",
    "exit_code",
    "parse_activation",
    "decide",
    "not_certified",
    "timed_out",
    "rejected",
    "witness_to_json",
    "width_to_json",
    "Activation",
    "Instance",
    "Report",
    "LayerReport",
    "ScanResult",
]
