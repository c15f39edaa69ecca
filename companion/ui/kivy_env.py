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


def display_problem(environ=None, dri: Path = Path("/dev/dri")) -> str | None:
    """Why no window could be seen here, as a sentence; None when there is a display.

    Without X (``DISPLAY``), Wayland (``WAYLAND_DISPLAY``), a video driver chosen by hand
    (``SDL_VIDEODRIVER``) or a graphics card to draw on directly (``/dev/dri``: the Pi's
    kiosk without a desktop), SDL falls back to an off-screen window nobody can see, and
    the companion would wait there for taps that never come.
    """
    env = os.environ if environ is None else environ
    if any(env.get(k) for k in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")):
        return None
    try:
        if any(p.name.startswith("card") for p in dri.iterdir()):
            return None
    except OSError:
        pass
    return ("There is no display here (no DISPLAY or WAYLAND_DISPLAY, no graphics card "
            "under /dev/dri): start the companion on the box's screen, under a desktop, "
            "or with xvfb-run to try it without one.")


def prepare(kivy_home: Path, fullscreen: bool = False, compositor: bool = False) -> None:
    os.environ["KIVY_NO_ARGS"] = "1"
    os.environ.setdefault("KIVY_HOME", str(kivy_home))
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("SDL_VIDEO_ALLOW_SCREENSAVER", "0")  # no blanking mid-game
    from kivy.config import Config

    Config.set("graphics", "width", str(WIDTH))
    Config.set("graphics", "height", str(HEIGHT))
    # Full screen takes the display's own size (800x480, 1024x600, 1280x720 ...): once the
    # window exists, fill_display sizes it to the display (SDL alone leaves it at 800x480
    # where no window manager enlarges it). Under the kiosk's compositor, cage itself
    # sizes the borderless, resizable window to the output.
    Config.set("graphics", "resizable", "1" if compositor else "0")
    Config.set("graphics", "borderless", "1" if compositor else "0")
    Config.set("graphics", "fullscreen", "auto" if fullscreen and not compositor else "0")
    Config.set("graphics", "show_cursor", "0" if fullscreen or compositor else "1")
    fullscreen = fullscreen or compositor
    Config.set("kivy", "exit_on_escape", "0")
    one_touch_provider(Config)
    # The kiosk has a touchscreen and no keyboard: every field types on the box's own
    # keyboard, laid out inside its screen (companion/ui/name_entry.py), never Kivy's
    # docked one. A keyboard plugged in types too.
    Config.set("kivy", "keyboard_mode", "system")
    # A clock whose sleep a press from another thread can cut short: the app idles at a
    # low frame rate and still handles a press on the next frame (ui/frame_pacer.py).
    Config.set("kivy", "kivy_clock", "interrupt")


def one_touch_provider(config) -> None:
    """Leave exactly one input provider: the window's mouse (see the module docstring)."""
    for key, _ in list(config.items("input")):
        config.remove_option("input", key)
    config.set("input", "mouse", "mouse,disable_multitouch")


def fill_display() -> None:
    """Once the window exists: make a full-screen window cover the whole display.

    SDL's "auto" full screen asks the window manager to enlarge the window; with none
    (a bare X server, some kiosk compositors) the window stays 800x480 while Kivy lays
    out for the display's size, and the right and bottom are cut off. So the window is
    sized to the display itself, borderless at its top-left corner. Does nothing unless
    ``prepare(..., fullscreen=True)`` asked for full screen.
    """
    from kivy.base import EventLoop
    from kivy.config import Config
    from kivy.core.window import Window

    if Config.get("graphics", "fullscreen") != "auto":
        return
    size = tuple(Window.system_size)  # the display's size, as SDL reports it
    Window.fullscreen = False
    EventLoop.idle()  # let SDL leave its full-screen request before resizing
    Window.borderless = True
    Window.size = size
    Window.left, Window.top = 0, 0

