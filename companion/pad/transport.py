"""The pad's serial port: finding the Pico, opening it exclusively, noticing an unplug.

What it is for: the I/O third of the Pico link, and nothing else (no protocol here).
``pad_ports()`` lists where the pad may be: the udev name ``/dev/slap-pad``
(``systemd/99-slap-pad.rules``), then every USB serial port with the MicroPython VID:PID
``2E8A:0005`` (preferring its ``/dev/serial/by-id/...`` name, which survives replugs).
Any MicroPython board has that VID:PID, so the link only accepts one whose HELLO says it
runs our firmware; ``SerialTransport.rotate()`` moves on to the next candidate after a
device that was not the pad, so a second board on USB cannot hide the real one.
``SerialTransport`` opens it raw and exclusive (a second program gets a clear error
instead of half the bytes), reads without blocking, and on any ``SerialException`` or
``OSError`` (a USB unplug; a closed pseudo-terminal looks the same) closes at once and
raises ``LinkError`` naming the port. ``Backoff`` spaces out the retries.

How to wire it::

    port = SerialTransport(None)          # None: find the pad; or a path
    path = port.open()                    # LinkError if absent or busy
    select.select([port.fileno()], [], [], timeout)
    data = port.read()                    # b"" if nothing; LinkError on unplug
    port.write(frame_bytes)
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path

import serial
from serial.tools import list_ports

from companion.errors import LinkError

PICO_VID = 0x2E8A
PICO_PID = 0x0005
STABLE_NAMES = ("/dev/slap-pad",)
BY_ID_DIR = Path("/dev/serial/by-id")
READ_CHUNK = 4096


def pad_ports(ports: Callable[[], Iterable] = list_ports.comports,
              stable: Iterable[str] = STABLE_NAMES, by_id_dir: Path = BY_ID_DIR) -> list[str]:
    """Every path where the slap pad may be, the likeliest first (no duplicates)."""
    out: list[str] = [name for name in stable if os.path.exists(name)]
    try:
        links = sorted(by_id_dir.iterdir())
    except OSError:
        links = []
    for info in ports():
        if info.vid == PICO_VID and info.pid == PICO_PID:
            device = os.path.realpath(info.device)
            named = [str(link) for link in links if os.path.realpath(link) == device]
            out.append(named[0] if named else info.device)
    seen: set[str] = set()
    unique = []
    for path in out:
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            unique.append(path)
    return unique


def find_pad_port(ports: Callable[[], Iterable] = list_ports.comports,
                  stable: Iterable[str] = STABLE_NAMES, by_id_dir: Path = BY_ID_DIR
                  ) -> str | None:
    """The likeliest path of the slap pad, or None when no Pico is plugged in."""
    found = pad_ports(ports, stable, by_id_dir)
    return found[0] if found else None


def describe_port(path: str, ports: Callable[[], Iterable] = list_ports.comports) -> str:
    """What USB says the device at ``path`` is, e.g. "Board in FS mode, USB 2E8A:0005,
    serial E6614C..." (empty when it is not a USB device, such as a pseudo-terminal)."""
    try:
        real = os.path.realpath(path)
        for info in ports():
            if os.path.realpath(info.device) == real and info.vid is not None:
                parts = [info.product or info.description or "USB serial device",
                         f"USB {info.vid:04X}:{info.pid:04X}"]
                if info.serial_number:
                    parts.append(f"serial {info.serial_number}")
                return ", ".join(parts)
    except Exception:  # describing is a courtesy: never let it break opening the port
        return ""
    return ""


class SerialTransport:
    def __init__(self, port: str | None = None, *,
                 finder: Callable[[], str | list[str] | None] = pad_ports,
                 serial_factory: Callable[..., serial.Serial] = serial.Serial,
                 describer: Callable[[str], str] = describe_port) -> None:
        self.port = port
        self._finder = finder
        self._factory = serial_factory
        self._describer = describer
        self._serial: serial.Serial | None = None
        self._turn = 0
        self.path: str | None = None
        self.description = ""

    def rotate(self) -> None:
        """The device just tried was not the pad: try the next candidate next time."""
        self._turn += 1

    @property
    def is_open(self) -> bool:
        return self._serial is not None

    def open(self) -> str:
        """Find (if no port was given) and open the pad; returns the path opened."""
        if self.port:
            path: str | None = self.port
        else:
            found = self._finder()
            candidates = [found] if isinstance(found, str) else list(found or ())
            path = candidates[self._turn % len(candidates)] if candidates else None
        if path is None:
            raise LinkError("no Pico on USB (VID:PID 2E8A:0005) and no /dev/slap-pad")
        try:
            self._serial = self._factory(path, baudrate=115200, timeout=0, write_timeout=0.5,
                                         exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            if not os.path.exists(path):
                raise LinkError(f"{path} is not there (unplugged?)") from exc
            if "lock" in str(exc).lower():
                raise LinkError(f"{path} is in use by another program (exclusive open "
                                f"failed): {exc}") from exc
            raise LinkError(f"cannot open {path}: {exc}") from exc
        self.path = path
        self.description = self._describer(path)
        return path

    def fileno(self) -> int:
        if self._serial is None:
            raise LinkError("the pad port is not open")
        return self._serial.fileno()

    def read(self) -> bytes:
        """Whatever has arrived (b"" if nothing); LinkError after an unplug."""
        if self._serial is None:
            raise LinkError("the pad port is not open")
        try:
            return self._serial.read(READ_CHUNK)
        except (serial.SerialException, OSError) as exc:
            self.close()
            raise LinkError(f"{self.path} went away (unplugged?): {exc}") from exc

    def write(self, data: bytes) -> None:
        if not data:
            return
        if self._serial is None:
            raise LinkError("the pad port is not open")
        try:
            self._serial.write(data)
        except (serial.SerialException, OSError) as exc:
            self.close()
            raise LinkError(f"{self.path} went away while writing (unplugged?): {exc}") from exc

    def close(self) -> None:
        ser, self._serial = self._serial, None
        if ser is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                ser.close()  # already gone: closing is all we wanted


class Backoff:
    """Retry delays: ``first`` seconds, doubling up to ``limit``; ``reset()`` on success."""

    def __init__(self, first: float = 0.05, limit: float = 1.0, factor: float = 2.0) -> None:
        self.first, self.limit, self.factor = first, limit, factor
        self._next = first

    def next(self) -> float:
        delay = self._next
        self._next = min(self._next * self.factor, self.limit)
        return delay

    def reset(self) -> None:
        self._next = self.first
