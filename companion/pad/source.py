"""PadSource: the Pico slap pad as a press source, on its own thread.

What it is for: running the serial transport and the pad session (``PadLink``) on one
thread that owns them, and handing the UI only immutable events through ``post``:

* ``PadPress(seat, t_ns, source, pressed, resolution_ns, 0, clock)`` in the PAD's clock
  (ns since its boot; ``source`` is ``"pad"`` for the GPIO_IN scan, ``"pad-pio"`` for the
  PIO edge capture); rank them there, or map them into host time with ``PadBridge``;
* ``PadClock(map)`` whenever the clock fit changes (presses after it map with it);
* ``LinkStatus(state, text)`` whenever the link state or its sentence changes;
* ``PadRebooted`` / ``PadVoid`` when a slap round in progress must be voided: ``text``
  for the table in a player's words, ``reason`` for the screen (``reboot``, ``replug``,
  ``clock_jump``, ``flood``, ``untimed``), ``detail`` for a log.

How to wire it (``companion run --pad PATH``)::

    queue = EventQueue()
    pad = PadSource("/dev/slap-pad", queue.post)   # or None: find the Pico by USB id
    pad.start()
    ...  # UI thread, each frame: drain the queue, feed the arbiter,
    arbiter.poll(pad.now_ns())                     # the pad's clock now (None before sync)
    pad.set_lamp(3, True)                          # any thread; queued to the link thread
    pad.stop()

Unplugs, silence and garbage are handled here: the port is closed at once and reopened
with back-off, the link re-shakes hands, and acknowledged reports are never delivered
twice. Any exception at any step (finding, opening, the first write, reading, writing,
decoding, even a bug in the link) ends in the same place: the port is closed, a
``LinkStatus`` says what happened, and the thread reconnects after a back-off. The
thread only ends when ``stop()`` is called. Only ``start``, ``stop``, ``set_lamp``,
``now_ns`` and the read-only properties are for other threads.

Tests drive ``run_once()`` directly with an injected ``clock``, ``select`` and ``wait``
(no thread, no real time).
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import select
import threading
import time
from collections import deque
from collections.abc import Callable

from companion.errors import LinkError
from companion.pad.clocksync import ClockMap
from companion.pad.link import LinkStatus, LinkTiming, PadLink
from companion.pad.transport import Backoff, SerialTransport

log = logging.getLogger(__name__)

FAILED_RETRY_S = 5.0  # a pad that cannot be used (wrong protocol) is retried this often


class PadSource:
    def __init__(self, port: str | None, post: Callable[[object], None],
                 clock: Callable[[], int] = time.monotonic_ns, *,
                 timing: LinkTiming | None = None,
                 transport: SerialTransport | None = None,
                 backoff: Backoff | None = None,
                 select_fn: Callable = select.select,
                 wait: Callable[[float], None] | None = None) -> None:
        self._post = post
        self._clock = clock
        self._select = select_fn
        self._wait_fn = wait
        self.link = PadLink(timing)
        self.transport = transport or SerialTransport(port)
        self._backoff = backoff or Backoff()
        self._commands: queue.SimpleQueue[tuple[int, bool]] = queue.SimpleQueue()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._clock_map: ClockMap | None = None
        self._resolution_ns = 0
        self.faults = 0  # exceptions caught at the thread boundary and recovered from
        self._outbox: deque[object] = deque()  # taken from the link, not yet posted
        self.status = LinkStatus("searching", "Looking for the slap pad.")

    # ---- for any thread -------------------------------------------------------------
    def start(self) -> None:
        if self._thread is not None:
            raise LinkError("PadSource already started")
        self._thread = threading.Thread(target=self._run, name="pad-link", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 3.0) -> None:
        """Stop the link thread and close the port (idempotent)."""
        self._stopping.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                raise LinkError(f"the pad link thread did not stop within {timeout} s")
            self._thread = None
        self._close_quietly()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._wake_r = self._wake_w = -1

    def set_lamp(self, seat: int, on: bool) -> None:
        """Light or darken seat ``seat``'s lamp (1..8); applied by the link thread."""
        if not isinstance(seat, int) or not 1 <= seat <= 8:
            raise LinkError(f"pad lamp seat must be 1..8, not {seat!r}")
        self._commands.put((seat, bool(on)))
        self._wake()

    def now_ns(self) -> int | None:
        """The pad's clock now, in ns (as PressEvent.t_ns); None until clock sync."""
        mapping = self._clock_map
        return None if mapping is None else mapping.to_pad(self._clock())

    def clock_uncertainty_ns(self) -> int | None:
        """How far ``now_ns()`` may be off (half a round trip); None until clock sync."""
        mapping = self._clock_map
        return None if mapping is None else mapping.uncertainty_ns

    @property
    def clock_map(self) -> ClockMap | None:
        """The link's current fit of pad time against host time (immutable), or None."""
        return self._clock_map

    @property
    def resolution_ns(self) -> int:
        """The pad's honest capture bound (worst recent scan gap), 0 before the handshake."""
        return self._resolution_ns

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # ---- the link thread ------------------------------------------------------------
    def _wake(self) -> None:
        with contextlib.suppress(OSError):  # full pipe: already awake; closed: stopped
            os.write(self._wake_w, b"x")

    def _wait(self, seconds: float) -> None:
        """Back-off that a stop() or a command ends early."""
        if self._wait_fn is not None:
            self._wait_fn(seconds)
            self._apply_commands()
            return
        deadline = time.monotonic() + seconds
        while not self._stopping.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            select.select([self._wake_r], [], [], left)
            self._drain_wake()
            self._apply_commands()

    def _drain_wake(self) -> None:
        try:
            while os.read(self._wake_r, 512):
                pass
        except BlockingIOError:
            pass

    def _apply_commands(self) -> None:
        while True:
            try:
                seat, on = self._commands.get_nowait()
            except queue.Empty:
                return
            self.link.set_lamp(seat, on)

    def _flush(self) -> None:
        self._clock_map = self.link.clock_map
        self._resolution_ns = self.link.resolution_ns
        outbox = self._outbox
        outbox.extend(self.link.take_events())
        while outbox:
            event = outbox[0]
            if isinstance(event, LinkStatus):
                self.status = event
                if event.state == "ready":
                    self._backoff.reset()
            self._post(event)  # if this raises, the event stays queued for the next flush
            outbox.popleft()

    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                self.run_once()
        finally:
            self._close_quietly()
            self._clock_map = None

    def run_once(self) -> None:
        """One step of the link thread: connect, or serve the open port once. Never
        raises: any exception closes the port, is reported, and is retried later."""
        try:
            if not self.transport.is_open:
                self._connect()
            else:
                self._serve()
        except Exception as exc:  # the thread boundary: report, reconnect, never die
            self._recover(exc)

    def _connect(self) -> None:
        try:
            path = self.transport.open()
        except LinkError as exc:
            self.link.open_failed(str(exc))
            self._flush()
            self._wait(self._backoff.next())
            return
        self.link.opened(path, self._clock(), getattr(self.transport, "description", ""))
        self._exchange(readable=False)

    def _serve(self) -> None:
        now = self._clock()
        timeout = max(0, self.link.next_deadline(now) - now) / 1e9
        fd = self.transport.fileno()
        ready, _, _ = self._select([fd, self._wake_r], [], [], timeout)
        if self._wake_r in ready:
            self._drain_wake()
        self._apply_commands()
        self._exchange(readable=fd in ready)

    def _exchange(self, readable: bool) -> None:
        """Read (if there is something), run the link's timers, write; drop on failure."""
        try:
            if readable:
                data = self.transport.read()
                self.link.feed(data, self._clock())
            self.link.poll(self._clock())
            self._write()
        except LinkError as exc:
            reason = self.link.reconnect_reason or str(exc)
            self._drop(reason, failed=self.link.state == "failed")
            return
        if self.link.reconnect_reason:
            self._drop(self.link.reconnect_reason, failed=False)
            return
        self._flush()

    def _write(self) -> None:
        out = self.link.take_output()
        if out:
            self.transport.write(out)

    def _drop(self, reason: str, failed: bool) -> None:
        self._close_quietly()
        if not self.link.ready:  # that device was not (or not yet) the pad: try another
            rotate = getattr(self.transport, "rotate", None)
            if rotate is not None:
                rotate()
        self.link.closed(self._clock(), reason)
        self._flush()
        self._wait(FAILED_RETRY_S if failed else self._backoff.next())

    def _close_quietly(self) -> None:
        try:
            self.transport.close()
        except Exception:  # closing a port that is already gone: nothing left to do
            log.debug("closing the pad port failed", exc_info=True)

    def _recover(self, exc: BaseException) -> None:
        """An unexpected exception anywhere in a step: log it with its traceback, close
        the port, tell the UI, and come back after a back-off. Every part is guarded, so
        this never raises either."""
        self.faults += 1
        log.error("pad link: unexpected %r; closing the port and reconnecting", exc,
                  exc_info=exc)
        self._close_quietly()
        try:
            self.link.closed(self._clock(), f"unexpected error {exc!r:.120}, port closed")
            self._flush()
        except Exception:
            log.exception("pad link: could not reset the session after %r", exc)
            status = LinkStatus("lost", f"Slap pad link error ({exc!r:.120}); the port was "
                                        "closed and the pad will reconnect by itself.")
            self.status = status
            with contextlib.suppress(Exception):  # the UI's post failing: nothing more to do
                self._post(status)
        try:
            self._wait(self._backoff.next())
        except Exception:
            self._stopping.wait(self._backoff.limit)
