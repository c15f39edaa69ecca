"""Tell systemd the kiosk is alive (the ``sd_notify`` protocol, no library needed).

Under the unit in ``systemd/companion.service`` (``Type=notify``, ``WatchdogSec=``),
systemd sets ``NOTIFY_SOCKET``. The app sends ``READY=1`` once its first screen is up and
``WATCHDOG=1`` from the UI thread's frame loop; if the UI thread hangs, the pings stop
and systemd restarts the companion, which then offers to resume the game. Outside
systemd there is no socket and every call does nothing.

    dog = Watchdog.from_environ()
    dog.ready()
    dog.ping(now_s)      # from the frame loop; sends at most every ``interval_s``
"""

from __future__ import annotations

import os
import socket


class Watchdog:
    def __init__(self, address: str | None, interval_s: float = 2.0) -> None:
        if address and address.startswith("@"):
            address = "\0" + address[1:]  # an abstract socket
        self.address = address or None
        self.interval_s = interval_s
        self._last = float("-inf")
        self.sent: list[str] = []

    @classmethod
    def from_environ(cls, environ=os.environ) -> Watchdog:
        interval = 2.0
        usec = environ.get("WATCHDOG_USEC")
        if usec and usec.isdigit():
            interval = max(0.5, int(usec) / 1e6 / 3)  # ping three times per timeout
        return cls(environ.get("NOTIFY_SOCKET"), interval)

    def notify(self, message: str) -> bool:
        if self.address is None:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.sendto(message.encode(), self.address)
        except OSError:
            return False  # systemd gone (shutting down): nothing to tell
        self.sent.append(message)
        return True

    def ready(self) -> bool:
        return self.notify("READY=1")

    def ping(self, now_s: float) -> bool:
        if now_s - self._last < self.interval_s:
            return False
        self._last = now_s
        return self.notify("WATCHDOG=1")
