"""Kivy's settings before its first import: one touch provider, and the kiosk's screen."""

from __future__ import annotations

import json
import subprocess
import sys

CODE = """
import json, sys
from pathlib import Path
from companion.ui.kivy_env import prepare
prepare(Path(sys.argv[1]), sys.argv[2] == "kiosk")
from kivy.config import Config
print(json.dumps({"input": dict(Config.items("input")),
                  "cursor": Config.get("graphics", "show_cursor"),
                  "resizable": Config.get("graphics", "resizable"),
                  "fullscreen": Config.get("graphics", "fullscreen")}))
"""


def settings(tmp_path, mode: str) -> dict:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "KIVY_NO_CONSOLELOG": "1"}
    out = subprocess.run([sys.executable, "-c", CODE, str(tmp_path / "kivy"), mode], env=env,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_touch_comes_from_one_provider_only(tmp_path):
    # Kivy's Linux default adds probesysfs (evdev read directly) beside the mouse: the
    # same tap would arrive twice.
    for mode in ("window", "kiosk"):
        assert settings(tmp_path, mode)["input"] == {"mouse": "mouse,disable_multitouch"}


def test_the_kiosk_hides_the_cursor_and_fills_the_screen_it_is_given(tmp_path):
    kiosk = settings(tmp_path, "kiosk")
    assert (kiosk["cursor"], kiosk["resizable"], kiosk["fullscreen"]) == ("0", "1", "auto")
    window = settings(tmp_path, "window")
    assert (window["cursor"], window["resizable"], window["fullscreen"]) == ("1", "0", "0")
