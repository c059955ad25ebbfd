"""Issue 20, items 5 and 9: crashes on a zero-width hidden layer and an infinite timeout;
absorbable blocks R5's subset search cannot enumerate are decided by the width route."""

from __future__ import annotations

import random
from fractions import Fraction as F
from pathlib import Path

import pytest

from pybridge.checking import check
from pybridge.cli import main
from pybridge.decision import decide
from pybridge.decision.classify import _decide_r5  # the R5 step alone, for the premise
from pybridge.decision.genericity import check_generic
from pybridge.decision.skips import reduce_skip
from pybridge.exact.modular import scale_matrix
from pybridge.model import Activation, Instance

RELU = Activation("relu")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def zero_block() -> Instance:
    """``x + B relu(A x)`` with ``B relu(A x) = relu(-x) - relu(x) = -x``: the block is
    identically zero, so its least absorbing width is 0 (an empty hidden layer)."""
    return Instance(RELU, ((F(1),), (F(-1),)), ((F(-1), F(1)),))


@pytest.mark.parametrize("kw", [{"min_width": True}, {"width": 0}])
def test_zero_width_cross_check(kw):
    rep = check(zero_block(), prove=False, **kw)
    assert rep.decision.verdict == "absorbable" and rep.decision.width == 0
    assert rep.crosscheck["consistent"] is True


def test_zero_width_certified_with_no_time_limit(backend):
    rep = check(zero_block(), min_width=True, timeout=float("inf"), backend=backend, crosscheck=False)
    assert rep.checked, rep.prover
    assert "width 0" in rep.prover.message and "vetted" in rep.prover.message


def test_cli_timeout_inf_is_a_clear_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["check", str(EXAMPLES / "relu_absorbable.json"), "--no-prove", "--timeout", "inf"])
    out, err = capsys.readouterr()
    assert info.value.code == 2 and "Traceback" not in err and "timeout" in err.lower()


def one_dimensional(seed: int) -> Instance:
    """d = 1, n = 30: positive ``a_i``, and ``b_0 a_0 = -1`` (S = {0} works)."""
    rng = random.Random(seed)
    A = [[F(rng.randint(1, 9))] for _ in range(30)]
    B = [[F(rng.randint(-9, 9)) for _ in range(30)]]
    B[0][0] = F(-1) / A[0][0]
    return Instance(RELU, tuple(map(tuple, A)), tuple(map(tuple, B)))


def test_r5_undecided_goes_to_the_width_route(backend):
    inst = one_dimensional(1)
    gen = check_generic(scale_matrix(inst.W_up), scale_matrix(inst.W_down))
    assert _decide_r5(inst, reduce_skip(inst), gen).verdict == "undecided"  # the premise: 29 free indices
    dec = decide(inst)
    assert dec.verdict == "absorbable" and dec.result == "R8"
    rep = check(inst, decision=dec, backend=backend, crosscheck=False)
    assert rep.checked, rep.prover
