"""``companion run`` with no display says so in a sentence and stops (issue 11)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.ui.kivy_env import display_problem


def test_display_problem_names_what_is_missing(tmp_path):
    empty = tmp_path / "dri"
    empty.mkdir()
    why = display_problem({}, dri=empty)
    assert why and why.startswith("There is no display here") and "xvfb-run" in why
    assert display_problem({"DISPLAY": ":0"}, dri=empty) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, dri=empty) is None
    (empty / "card0").touch()  # the Pi's kiosk draws on the graphics card directly
    assert display_problem({}, dri=empty) is None


@pytest.mark.skipif(Path("/dev/dri").exists() and any(Path("/dev/dri").iterdir()),
                    reason="this machine has a graphics card to draw on")
def test_run_without_a_display_says_so_and_exits(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
           and not k.startswith("KIVY_")}
    env.update(HOME=str(tmp_path), COMPANION_DATA_DIR=str(tmp_path / "data"))
    run = subprocess.run([sys.executable, "-m", "companion", "run"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "There is no display here" in run.stderr
