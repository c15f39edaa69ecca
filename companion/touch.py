"""Is there a touchscreen? The kernel's input device list, read from /proc/bus/input/devices.

A touchscreen is a device that reports absolute positions and has the "direct" input
property (the finger is on the picture): the official 7" display's ``raspberrypi-ts`` or
``generic ft5x06``, or the USB touch controller of an HDMI touch screen. ``companion
doctor`` and the kiosk launcher name it, or say that the screen will not answer taps.

    screens = touchscreens()         # [Touchscreen(name="raspberrypi-ts", event="event4")]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEVICES = Path("/proc/bus/input/devices")
INPUT_PROP_DIRECT = 0x02
NO_TOUCHSCREEN = ("no touchscreen found: the screen will not answer taps (check the "
                  "display's ribbon cable, or the USB cable of an HDMI touch screen)")


@dataclass(frozen=True, slots=True)
class Touchscreen:
    name: str
    event: str  # the /dev/input node, e.g. "event4"


def touchscreens(devices: Path = DEVICES) -> list[Touchscreen]:
    try:
        text = devices.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    found = []
    for block in text.split("\n\n"):
        name, event, props, has_abs = "", "", 0, False
        for line in block.splitlines():
            if line.startswith("N: Name="):
                name = line[len("N: Name="):].strip().strip('"')
            elif line.startswith("H: Handlers="):
                event = next((h for h in line.split("=", 1)[1].split()
                              if h.startswith("event")), "")
            elif line.startswith("B: PROP="):
                props = _hex(line.split("=", 1)[1])
            elif line.startswith("B: ABS="):
                has_abs = _hex(line.split("=", 1)[1]) != 0
        if event and has_abs and props & INPUT_PROP_DIRECT:
            found.append(Touchscreen(name, event))
    return found


def _hex(words: str) -> int:
    try:
        return int("".join(w.rjust(16, "0") for w in words.split()) or "0", 16)
    except ValueError:
        return 0


def summary(screens: list[Touchscreen]) -> str:
    if not screens:
        return NO_TOUCHSCREEN
    return ", ".join(f"{s.name} (/dev/input/{s.event})" for s in screens)
