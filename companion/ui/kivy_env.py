"""Prepare Kivy before its first import: no argv parsing, config and logs in our folder,
an 800x480 window, Escape does not quit the kiosk, an on-screen keyboard in the kiosk,
and the interruptible clock the frame pacer needs.

Call ``prepare()`` before anything imports ``kivy``; it imports nothing from Kivy's
window layer itself until the config is set.
"""

from __future__ import annotations

import os
from pathlib import Path

WIDTH, HEIGHT = 800, 480


def prepare(kivy_home: Path, fullscreen: bool = False) -> None:
    os.environ["KIVY_NO_ARGS"] = "1"
    os.environ.setdefault("KIVY_HOME", str(kivy_home))
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    from kivy.config import Config

    Config.set("graphics", "width", str(WIDTH))
    Config.set("graphics", "height", str(HEIGHT))
    Config.set("graphics", "resizable", "0")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    # The kiosk has a touchscreen and no keyboard: name fields and law texts get Kivy's
    # on-screen keyboard, docked at the bottom. A laptop keeps its own keyboard.
    Config.set("kivy", "keyboard_mode", "systemanddock" if fullscreen else "system")
    # A clock whose sleep a press from another thread can cut short: the app idles at a
    # low frame rate and still handles a press on the next frame (ui/frame_pacer.py).
    Config.set("kivy", "kivy_clock", "interrupt")
