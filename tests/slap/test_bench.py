"""The slap benchmark runs, reports no wrong verdict, and would notice one."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from companion.slap import ArbiterConfig, SlapArbiter

BENCH = Path(__file__).resolve().parents[2] / "bench" / "slap_arbiter.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("slap_arbiter_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)


@pytest.mark.parametrize("extra", [[], ["--jitter"]])
def test_main_reports_no_wrong_verdict(bench, capsys, extra):
    assert bench.main(["--rounds", "150", "--seed", "7", *extra]) == 0
    out = capsys.readouterr().out
    assert "wrong certain verdicts: 0 (0.00 %)" in out
    assert "150 rounds" in out and "median" in out and "p99" in out


def test_exact_stamps_are_all_called(bench):
    t = bench.simulate(300, seed=11)
    assert t.rounds == 300 and t.no_verdict == 0 and t.wrong_excluded == 0
    assert t.apart and t.apart_right == t.apart
    assert t.close and t.close_called == t.close == t.close_covered
    assert t.non_slapper_rounds and t.non_slapper_right == t.non_slapper_rounds
    assert t.pairs and t.pairs_right == t.pairs and t.wrong_certain == 0


def test_bench_catches_an_arbiter_that_guesses(bench, monkeypatch, capsys):
    """Claiming a zero bound while stamps jitter must show up as wrong verdicts, exit 1."""
    liar = ArbiterConfig(resolution_ns={s: 0 for s in ArbiterConfig().resolution_ns})
    monkeypatch.setattr(bench, "SlapArbiter", lambda seats, _cfg: SlapArbiter(seats, liar))
    assert bench.main(["--rounds", "400", "--seed", "3", "--jitter"]) == 1
    assert "wrong certain verdicts: 0 " not in capsys.readouterr().out
