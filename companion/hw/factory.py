"""Choosing a gpiozero pin factory, and what its timestamps are worth.

The slap arbiter needs to know how close to the electrical edge a press is stamped:

* ``lgpio``: the kernel stamps the edge (gpiozero passes it through as the pin tick,
  in seconds); the source is ``"gpio"``, the tightest bound on a Pi.
* ``rpigpio`` / ``native``: the tick is read in user space when the callback runs, so
  scheduling jitter is in it; the source is ``"gpio-userspace"`` and the bound widens.
* ``mock`` / ``keyboard``: gpiozero's ``MockFactory`` stamps with the monotonic clock
  at ``drive_low()``; the keyboard simulation drives mock pins from key presses.

    factory, info = make_factory("auto")
    print(info.name, info.source, info.kernel_stamps)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.errors import ConfigError
from companion.events import SOURCE_GPIO, SOURCE_KEYBOARD, SOURCE_MOCK

SOURCE_GPIO_USERSPACE = "gpio-userspace"


@dataclass(frozen=True, slots=True)
class FactoryInfo:
    """What the app and ``companion doctor`` need to know about the pin factory."""

    name: str
    source: str  # the PressEvent source name, which selects the resolution bound
    kernel_stamps: bool
    simulated: bool


_INFO = {
    "lgpio": FactoryInfo("lgpio", SOURCE_GPIO, True, False),
    "rpigpio": FactoryInfo("rpigpio", SOURCE_GPIO_USERSPACE, False, False),
    "native": FactoryInfo("native", SOURCE_GPIO_USERSPACE, False, False),
    "mock": FactoryInfo("mock", SOURCE_MOCK, False, True),
    "keyboard": FactoryInfo("keyboard", SOURCE_KEYBOARD, False, True),
}


def on_raspberry_pi(model_file: Path = Path("/proc/device-tree/model")) -> bool:
    """True on a Raspberry Pi (reads the device-tree model string)."""
    try:
        return "Raspberry Pi" in model_file.read_text(errors="replace")
    except OSError:
        return False


def make_factory(name: str = "auto"):
    """Return ``(pin_factory, FactoryInfo)`` for a config ``board.factory`` value."""
    if name == "auto":
        name = _pi_factory_name() if on_raspberry_pi() else "keyboard"
    if name in ("mock", "keyboard"):
        from gpiozero.pins.mock import MockFactory

        return MockFactory(), _INFO[name]
    try:
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory(), _INFO[name]
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            return RPiGPIOFactory(), _INFO[name]
        if name == "native":
            from gpiozero.pins.native import NativeFactory

            return NativeFactory(), _INFO[name]
    except Exception as exc:  # the library is missing or the chip cannot be opened
        raise ConfigError(
            f"board.factory = {name!r}: cannot start this pin factory ({exc}). "
            "On a Pi, install the extras: pip install 'table-companion[pi]'"
        ) from exc
    raise ConfigError(f"board.factory = {name!r}: unknown pin factory")


def _pi_factory_name() -> str:
    try:
        import lgpio  # noqa: F401
    except ImportError:
        return "rpigpio"
    return "lgpio"


def ticks_to_ns(ticks: float | int) -> int:
    """Convert a gpiozero pin tick to integer nanoseconds.

    lgpio, RPi.GPIO, native and mock factories all hand over seconds as a float.
    """
    return round(ticks * 1_000_000_000)
