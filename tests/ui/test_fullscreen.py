"""Full screen fills the display at 800×480, 1024×600 and 1280×720 (issue 11, trap 2).

Each size runs the real app in its own process under its own X server of that size
(Kivy allows one window per process), started the way ``companion run --fullscreen``
starts it. The screenshots are left in tests/_artifacts/fullscreen_<W>x<H>.png.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.window

CHILD = Path(__file__).with_name("fullscreen_child.py")


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs xvfb-run")
@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 720)])
def test_full_screen_fills_the_display(size, artifacts):
    width, height = size
    shot = artifacts / f"fullscreen_{width}x{height}.png"
    run = subprocess.run(
        ["xvfb-run", "-a", "-s", f"-screen 0 {width}x{height}x24", sys.executable,
         str(CHILD), str(shot)], capture_output=True, text=True, timeout=120,
        cwd=Path(__file__).parents[2])
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["window"] == [width, height]
    assert result["root"] == [width, height]
    if result["x_window"] is not None:  # what the X server shows, not what Kivy believes
        assert result["x_window"] == [width, height, 0, 0]
    texts = {b["text"] for b in result["buttons"]}
    for needed in ("History", "Settings", "Sound on"):
        assert needed in texts
    for b in result["buttons"]:  # every button of Home lies wholly on the display
        assert b["x"] >= 0 and b["right"] <= width and b["y"] >= 0 and b["top"] <= height, b
    assert shot.exists()
