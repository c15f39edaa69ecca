"""What the Settings screen does to the box: volume, screen brightness, switching off.

No Kivy here. The backlight is the kernel's ``/sys/class/backlight/<name>/`` (a file
``brightness`` from 0 to ``max_brightness``); a display without one (HDMI monitors, this
laptop) has none to adjust, and the screen says so plainly. Switching off runs
``systemctl poweroff``: systemd asks logind, and polkit lets the user of the active local
session (the kiosk user on its tty) power off without root. In simulation nothing is run;
the sentence says what the box would do.

    light = find_backlight()              # None: no adjustable backlight
    light.set_percent(60)                 # None, or why it could not
    words = shut_down(simulated=True)     # the sentence to show
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

BACKLIGHT_ROOT = Path("/sys/class/backlight")
POWEROFF = ("systemctl", "poweroff")
VOLUME_STEPS = tuple(range(0, 101, 10))
NO_BACKLIGHT = ("This display has no adjustable backlight (none under "
                "/sys/class/backlight): use the monitor's own buttons.")


@dataclass(frozen=True)
class Backlight:
    """One kernel backlight device."""

    path: Path
    max: int

    def percent(self) -> int:
        try:
            now = int((self.path / "brightness").read_text().strip())
        except (OSError, ValueError):
            return 100
        return round(100 * now / self.max) if self.max else 100

    def set_percent(self, percent: int) -> str | None:
        """Set the brightness (10..100 %: never dark by mistake); None, or why not."""
        percent = max(10, min(100, int(percent)))
        value = max(1, round(self.max * percent / 100))
        try:
            (self.path / "brightness").write_text(str(value))
        except OSError as exc:
            return (f"The brightness could not be set ({exc.strerror or exc}): the "
                    f"companion's user may not write {self.path / 'brightness'}.")
        return None


def find_backlight(root: Path = BACKLIGHT_ROOT) -> Backlight | None:
    """The first backlight device with a readable maximum, or None."""
    try:
        devices = sorted(root.iterdir())
    except OSError:
        return None
    for dev in devices:
        try:
            top = int((dev / "max_brightness").read_text().strip())
        except (OSError, ValueError):
            continue
        if top > 0 and (dev / "brightness").exists():
            return Backlight(dev, top)
    return None


def step(value: int, delta: int, lo: int = 0, hi: int = 100) -> int:
    return max(lo, min(hi, value + delta))


def shut_down(simulated: bool, run: Callable = subprocess.run) -> str:
    """Switch the box off (or, in simulation, say what would happen)."""
    if simulated:
        return ("Simulation: the box would now run 'systemctl poweroff' and switch off "
                "safely; the game log is already saved.")
    try:
        done = run(list(POWEROFF), capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"The box could not be switched off: {exc}"
    if done.returncode != 0:
        why = (done.stderr or done.stdout or "").strip().splitlines()
        return ("The box could not be switched off: "
                + (why[-1] if why else f"systemctl exited with {done.returncode}"))
    return "Switching off: wait for the screen to go dark before unplugging the box."
