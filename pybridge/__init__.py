"""pybridge: machine-checked answers to "can this MLP block absorb its skip connection?".

The formal library lives in ``coq/``; this package reads weights, decides which
theorem applies, and has the proof assistant check a certificate per instance.
"""

__version__ = "0.1.0"
