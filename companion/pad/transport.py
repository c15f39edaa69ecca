"""The pad's serial port: finding the Pico, opening it exclusively, noticing an unplug.

What it is for: the I/O third of the Pico link, and nothing else (no protocol here).
``find_pad_port()`` looks for the pad: the udev name ``/dev/slap-pad``
(``systemd/99-slap-pad.rules``), then any USB serial port with the MicroPython VID:PID
``2E8A:0005`` (preferring its ``/dev/serial/by-id/...`` name, which survives replugs).
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


def find_pad_port(ports: Callable[[], Iterable] = list_ports.comports,
                  stable: Iterable[str] = STABLE_NAMES, by_id_dir: Path = BY_ID_DIR
                  ) -> str | None:
    """The path of the slap pad, or None when no Pico is plugged in."""
    for name in stable:
        if os.path.exists(name):
            return name
    for info in ports():
        if info.vid == PICO_VID and info.pid == PICO_PID:
            device = os.path.realpath(info.device)
            try:
                links = sorted(by_id_dir.iterdir())
            except OSError:
                links = []
            for link in links:
                if os.path.realpath(link) == device:
                    return str(link)
            return info.device
    return None


class SerialTransport:
    def __init__(self, port: str | None = None, *,
                 finder: Callable[[], str | None] = find_pad_port,
                 serial_factory: Callable[..., serial.Serial] = serial.Serial) -> None:
        self.port = port
        self._finder = finder
        self._factory = serial_factory
        self._serial: serial.Serial | None = None
        self.path: str | None = None

    @property
    def is_open(self) -> bool:
        return self._serial is not None

    def open(self) -> str:
        """Find (if no port was given) and open the pad; returns the path opened."""
        path = self.port or self._finder()
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
