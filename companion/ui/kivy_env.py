"""Prepare Kivy before its first import: no argv parsing, config and logs in our folder,
an 800x480 window, Escape does not quit the kiosk, an on-screen keyboard in the kiosk,
and the interruptible clock the frame pacer needs.

Touch comes from one input provider only: Kivy's ``mouse`` provider, fed by SDL's pointer
events. Under cage (the kiosk's compositor) the compositor owns the touchscreen and hands
taps to the window as pointer events, so that is where a tap arrives. Kivy's Linux default
adds ``probesysfs``, which opens the same touchscreen a second time through evdev (mtdev or
hidinput) and would turn every tap into two; it is removed here.

Full screen hides the mouse cursor and docks the on-screen keyboard. Under the kiosk's
compositor (``compositor=True``: cage, started by ``companion kiosk``) the window does not
ask for full screen itself: it opens at 800x480, resizable and borderless, and cage
maximizes it to the display (the 7" display's 800x480, or an HDMI screen's). Asking SDL
for full screen there sized Kivy's drawing to the screen before the window had that size
(seen under cage: the picture cut off; docs/deploy.md). SDL keeps the screen saver off,
so the screen never blanks mid-game.

Call ``prepare()`` before anything imports ``kivy``; it imports nothing from Kivy's
window layer itself until the config is set.
"""

from __future__ import annotations

import os
from pathlib import Path

WIDTH, HEIGHT = 800, 480
#: Kivy's Linux default provider key (its value is "probesysfs"): evdev read directly.
PROBESYSFS_KEY = "%(name)s"


def prepare(kivy_home: Path, fullscreen: bool = False, compositor: bool = False) -> None:
    os.environ["KIVY_NO_ARGS"] = "1"
    os.environ.setdefault("KIVY_HOME", str(kivy_home))
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("SDL_VIDEO_ALLOW_SCREENSAVER", "0")  # no blanking mid-game
    from kivy.config import Config

    Config.set("graphics", "width", str(WIDTH))
    Config.set("graphics", "height", str(HEIGHT))
    Config.set("graphics", "resizable", "1" if compositor else "0")
    Config.set("graphics", "borderless", "1" if compositor else "0")
    Config.set("graphics", "fullscreen", "auto" if fullscreen and not compositor else "0")
    Config.set("graphics", "show_cursor", "0" if fullscreen or compositor else "1")
    fullscreen = fullscreen or compositor
    Config.set("kivy", "exit_on_escape", "0")
    one_touch_provider(Config)
    # The kiosk has a touchscreen and no keyboard: name fields and law texts get Kivy's
    # on-screen keyboard, docked at the bottom. A laptop keeps its own keyboard.
    Config.set("kivy", "keyboard_mode", "systemanddock" if fullscreen else "system")
    # A clock whose sleep a press from another thread can cut short: the app idles at a
    # low frame rate and still handles a press on the next frame (ui/frame_pacer.py).
    Config.set("kivy", "kivy_clock", "interrupt")


def one_touch_provider(config) -> None:
    """Leave exactly one input provider: the window's mouse (see the module docstring)."""
    for key, _ in list(config.items("input")):
        config.remove_option("input", key)
    config.set("input", "mouse", "mouse,disable_multitouch")
