"""The pad link's intake of press reports: each one checked against the clock fit before
it goes out, floods refused.

What it is for: a mixin of ``PadLink`` (it keeps its state there: ``_unchecked``,
``_recent``, ``_flooding``, ``clock``, ``timing``, ``stats``, ``_events``). A new report
is checked by the time the pad says it sent it: mapped through the current fit, that
must be before the host received it and not long before (``max_delivery_ns``), and after
the press's own stamp. A report that fails waits while a heartbeat goes out at once: if
the answer shows a clock jump, it is checked again against the new fit. A report also
waits, at most ``hold_ns``, for a fit at least ``max_uncertainty_ns`` tight at its
stamp. Whatever cannot be placed is handed out marked ``untimed`` (its level counts, its
time does not), and the round voided, with a sentence.
More than ``flood_per_s`` new reports in a second are a flood: left out, round voided.
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.pad import codec
from companion.pad.linkevents import PadPress

MAX_UNCHECKED = 256  # presses waiting for a clock check; more is a flood
DEDUP_WINDOW = 1024


class SeenReports:
    """Report ids delivered for one boot: a set plus a low-water mark."""

    def __init__(self) -> None:
        self.ids: set[int] = set()
        self.highest = 0

    def add(self, report: int) -> bool:
        """Record ``report``; False if it was delivered before."""
        if report in self.ids or report <= self.highest - DEDUP_WINDOW:
            return False
        self.ids.add(report)
        if report > self.highest:
            self.highest = report
            if len(self.ids) > 2 * DEDUP_WINDOW:
                floor = self.highest - DEDUP_WINDOW
                self.ids = {r for r in self.ids if r > floor}
        return True


def _seats(mask: int) -> Iterator[int]:
    seat = 1
    while mask:
        if mask & 1:
            yield seat
        mask >>= 1
        seat += 1


class PressIntake:
    """``PadLink``'s press checks (a mixin: see the module docstring)."""

    def _take(self, msg: codec.Press, now_ns: int) -> None:
        if not self._unchecked and self._verdict(msg, now_ns) == "ok":
            self._deliver(msg)
            return
        if len(self._unchecked) >= MAX_UNCHECKED:
            self._flooded(now_ns, len(self._unchecked))
            return
        self.stats["held"] += 1
        self._unchecked.append((msg, now_ns))
        self._next_hb_ns = min(self._next_hb_ns, now_ns)  # ask the pad's time at once
        self._check_waiting(now_ns)

    def _verdict(self, msg: codec.Press, received_ns: int) -> str:
        """``ok`` to deliver now, ``wait`` for a better fit, ``doubt`` (the clock may have
        jumped: ask again), ``bad`` never. ``received_ns``: when the host read it (the
        check is against that moment, however long the press has waited since)."""
        t = self.timing
        age = msg.sent_ns - msg.t_ns
        if age < 0 or age > t.max_report_age_ns:
            return "bad"  # stamped and sent in two different clocks
        snap = self.clock.snapshot()
        if snap is None:
            return "wait"
        sent_u = snap.uncertainty_at(msg.sent_ns)
        sent_host = snap.to_host(msg.sent_ns)
        if (sent_host > received_ns + sent_u
                or sent_host < received_ns - t.max_delivery_ns - sent_u):
            return "doubt"  # sent "after" it arrived, or long before: the clock jumped?
        if snap.uncertainty_at(msg.t_ns) > t.max_uncertainty_ns:
            return "wait"
        return "ok"

    def _check_waiting(self, now_ns: int) -> None:
        t = self.timing
        keep: list[tuple[codec.Press, int]] = []
        lost = 0
        for msg, since in self._unchecked:
            verdict = self._verdict(msg, since)
            waited = now_ns - since
            if verdict == "ok" or (verdict == "wait" and waited >= t.hold_ns
                                   and self.clock.snapshot() is not None):
                self._deliver(msg)
            elif verdict == "bad" or waited >= t.hold_ns:
                lost += 1
                self._deliver(msg, untimed=True)
            else:
                keep.append((msg, since))
        self._unchecked = keep
        if lost:
            self.stats["untimed"] += lost
            self._void("untimed", f"{lost} slap pad report(s) could not be placed in time "
                                  "(the pad's clock did not agree with itself): their "
                                  "levels count, their times do not")

    def _deliver_held(self) -> None:
        """The pad restarted: the reports still waiting here go out before its restart is
        told, placed with the last fit of the boot that stamped them when that fit has
        them (they waited only for a tighter one), else marked ``untimed`` (their levels
        count). Never dropped: a slap the pad sent before it restarted is the table's."""
        snap = self.clock.snapshot()
        lost = 0
        for msg, since in self._unchecked:
            if snap is not None and self._verdict(msg, since) in ("ok", "wait"):
                self._deliver(msg)
            else:
                lost += 1
                self._deliver(msg, untimed=True)
        self._unchecked = []
        self.stats["untimed"] += lost

    def _deliver(self, msg: codec.Press, untimed: bool = False) -> None:
        """Hand the report's edges out. ``untimed``: it could not be placed in time; its
        edges still go out marked so (the arbiter learns the seat's level from them, so
        a release is never lost and a hand gone from the button is never "held")."""
        source = self.source
        clock = (self.nonce, self.clock.epoch)
        for seat in _seats(msg.pressed):
            self._events.append(PadPress(seat, msg.t_ns, source, True, msg.gap_ns, 0, clock,
                                         untimed))
        for seat in _seats(msg.released):
            self._events.append(PadPress(seat, msg.t_ns, source, False, msg.gap_ns, 0, clock,
                                         untimed))

    def _flood(self, now_ns: int) -> bool:
        """Count a new report; True while the pad floods (its presses are dropped)."""
        recent = self._recent
        recent.append(now_ns)
        while recent and recent[0] <= now_ns - 1_000_000_000:
            recent.popleft()
        if len(recent) > self.timing.flood_per_s:
            if not self._flooding:
                self._flooded(now_ns, len(recent))
            self.stats["flooded"] += 1
            return True
        self._flooding = False
        return False

    def _flooded(self, now_ns: int, count: int) -> None:
        self._flooding = True
        self._void("flood", f"the slap pad sent {count} reports within a second, more than "
                            "hands can make (a short circuit or a broken switch?): they are "
                            "ignored until it calms down")
