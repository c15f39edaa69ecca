"""The speech benchmark runs end to end (a few rounds, in its own window process)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "speech.py"

pytestmark = [pytest.mark.window, pytest.mark.slow]


@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (Xvfb)")
def test_bench_prints_seen_and_heard_figures(tmp_path):
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_CONSOLELOG="1")
    out = subprocess.run([sys.executable, str(BENCH), "--rounds", "3"], capture_output=True,
                         text=True, timeout=240, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "verdict -> on screen, voice off : median" in out.stdout
    assert "verdict -> first audio sample   : median" in out.stdout
    assert "3 lines, 3 engine runs, 0 crashed, 0 hung" in out.stdout
