"""Kivy's settings before its first import: one touch provider, and the kiosk's screen."""

from __future__ import annotations

import json
import subprocess
import sys

CODE = """
import json, sys
from pathlib import Path
from companion.ui.kivy_env import prepare
prepare(Path(sys.argv[1]), sys.argv[2] != "window", sys.argv[2] == "kiosk")
from kivy.config import Config
print(json.dumps({"input": dict(Config.items("input")),
                  "cursor": Config.get("graphics", "show_cursor"),
                  "resizable": Config.get("graphics", "resizable"),
                  "fullscreen": Config.get("graphics", "fullscreen"),
                  "borderless": Config.get("graphics", "borderless")}))
"""


def settings(tmp_path, mode: str) -> dict:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "KIVY_NO_CONSOLELOG": "1"}
    out = subprocess.run([sys.executable, "-c", CODE, str(tmp_path / "kivy"), mode], env=env,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_touch_comes_from_one_provider_only(tmp_path):
    # Kivy's Linux default adds probesysfs (evdev read directly) beside the mouse: the
    # same tap would arrive twice.
    for mode in ("window", "fullscreen", "kiosk"):
        assert settings(tmp_path, mode)["input"] == {"mouse": "mouse,disable_multitouch"}


def test_under_cage_the_window_lets_the_compositor_size_it_and_hides_the_cursor(tmp_path):
    kiosk = settings(tmp_path, "kiosk")
    assert (kiosk["cursor"], kiosk["resizable"], kiosk["fullscreen"], kiosk["borderless"]) \
        == ("0", "1", "0", "1")


def test_full_screen_on_a_desktop_asks_sdl_and_a_window_stays_a_window(tmp_path):
    full = settings(tmp_path, "fullscreen")
    assert (full["cursor"], full["resizable"], full["fullscreen"]) == ("0", "0", "auto")
    window = settings(tmp_path, "window")
    assert (window["cursor"], window["resizable"], window["fullscreen"]) == ("1", "0", "0")
