"""Sorting a seat's edges in and describing them: once per poll (or per batch).

What it is for: a mixin of ``SlapArbiter`` (its state lives there). An edge that arrives
older than its seat's latest one waits in ``SeatLog.pending``; ``_merge`` sorts every
seat's waiting edges in at once and reads them with ``seatlog.scan`` (the one place the
edge rules are written). ``_describe`` is the one place a press is given its meaning
(false slap, slap, mash, late) and bounce and orphan releases are told: ``feed``'s
in-order path, ``_merge`` and the disarmed path (``_feed_disarmed``) all use it.
``bench/slap_arbiter.py`` measures what this costs.
"""

from __future__ import annotations

from companion.events import PressEvent
from companion.slap.config import Notice, notice, slap_notice
from companion.slap.seatlog import Edge, SeatLog, by_time, scan

# Kinds reported once per seat per round (bits of SeatLog.noted).
BOUNCE, MASH, LATE, SOURCE, BACKWARDS, ORPHAN, FLOOD = 1, 2, 4, 8, 16, 32, 64

Found = tuple  # what ``scan`` returns: (presses, bounce, orphan), or None


class SortIn:
    """``SlapArbiter``'s sorting in and describing (a mixin: see the module docstring)."""

    def _scan(self, st: SeatLog, new: list[Edge] | None = None) -> Found:
        return scan(st, self._arm_ns, self._holdoff, self._blip_ns, self._fine, new)

    def _unknown_source(self, st: SeatLog, seat: int, t: int, event: PressEvent,
                        out: list[Notice]) -> None:
        """An edge from a source with no configured bound: said once a round; it is
        timed with the widest bound."""
        if not st.noted & SOURCE:
            st.noted |= SOURCE
            out.append(Notice("unknown_source", seat, t, f"Seat {seat}: unknown press source "
                              f"{event.source!r}, timed with the widest bound "
                              f"({self.config.bound_for(event.source) / 1e6:.3f} ms)"))

    def _feed_disarmed(self, st: SeatLog, seat: int, t: int, pressed: bool,
                       event: PressEvent, out: list[Notice]) -> list[Notice]:
        """An edge while nothing is armed: described at once; only what the next round's
        checks need is kept."""
        latest = st.latest_t
        if latest is None or t > latest:
            st.latest_t, st.latest_pressed = t, pressed
        else:
            self._backwards(st, seat, t, latest, out)
        told = set(map(id, st.edges))
        st.pending.append((t, pressed, event))
        new, _ = st.merge()
        found = self._scan(st, new)
        if found is not None:
            self._describe(seat, st, found, told, out)
        horizon = st.latest_t - self._lookback
        if len(st.edges) > self._max_edges:
            horizon = max(horizon, st.edges[-self._max_edges][0])
        st.drop_older(horizon)
        return out

    def _backwards(self, st: SeatLog, seat: int, t: int, latest: int,
                   out: list[Notice]) -> None:
        """An edge (the oldest of a batch) that arrived stamped more than the hold-off
        before the seat's latest one sorted in: said once a round; ranked by its stamp."""
        if t < latest - self._holdoff and not st.noted & BACKWARDS:
            self._seat_note(st, BACKWARDS, "backwards", seat, t, f"event stamped "
                            f"{(latest - t) / 1e6:.3f} ms before an earlier one; ranked by "
                            "its stamp", out)

    def _early(self, seat: int, t: int, why: str = "before the round was armed") -> Notice:
        """A press before the round: a false slap, or a slap of the previous round that
        arrived after that round was over (said plainly: its verdict may be wrong)."""
        closed = self._closed
        if closed is not None and closed[0] <= t <= closed[1]:
            return Notice("late", seat, t, f"Seat {seat}: a slap of the previous round "
                          "arrived after that round was over; its verdict may be wrong: "
                          "check it (Undo corrects a recorded round)")
        return Notice("false_slap", seat, t, f"Seat {seat}: false slap ({why})")

    def _merge(self, out: list[Notice] | None = None) -> None:
        """Sort every seat's pending edges in, read them (``scan``), describe the new
        ones (``_describe``, into ``out``, else for ``take_notices``)."""
        self._pending = False
        if out is None:
            out = self._outbox
        merged = []
        window, max_edges = self._window, self._max_edges
        first = None
        for seat, st in self._st.items():
            if st.pending:
                latest = st.latest_t
                told = set(map(id, st.edges)) if st.edges else None  # described already
                new, oldest = st.merge()
                edges = st.edges
                if edges[0][0] < window:
                    st.drop_older(window)
                if edges and (latest is None or edges[-1][0] >= latest):
                    st.latest_t, st.latest_pressed = edges[-1][0], bool(edges[-1][1])
                if len(edges) > max_edges:
                    self._flood(st, seat, None, out)
                if st.state is not None:  # all newer than the edges read: read on
                    found, told = self._scan(st, new), None
                else:
                    found = self._scan(st)
                merged.append((seat, st, latest, oldest, found, told))
            elif st.state is None and st.edges:  # its ``before`` changed: read it again
                self._scan(st)
            slap = st.slap
            if slap is not None and (first is None or slap[0] < first):
                first = slap[0]
        self._first = first
        for seat, st, latest, oldest, found, told in merged:
            if latest is not None:
                self._backwards(st, seat, oldest, latest, out)
            if found is not None:
                self._describe(seat, st, found, told, out)

    def _describe(self, seat: int, st: SeatLog, found: Found, told: set[int] | None,
                  out: list[Notice]) -> None:
        """Notices for what ``scan`` found among the edges just read, but those described
        before (``told``: their ids): bounce and orphan releases once a round, and what
        each press means: a false slap (before the arm, or nothing armed), the seat's
        slap, a late slap (after the round's timeout) or mashing."""
        presses, bounce, orphan = found
        if orphan is not None and not st.noted & ORPHAN and (
                not told or id(orphan) not in told):
            self._seat_note(st, ORPHAN, "orphan_release", seat, orphan[0],
                            "release without a press, ignored", out)
        if bounce is not None and not st.noted & BOUNCE and (
                not told or id(bounce) not in told):
            st.noted |= BOUNCE
            out.append(notice("bounce", seat, bounce[0], self._bounce_text[seat]))
        if not presses:
            return
        slap, arm = st.slap, self._arm_ns
        for edge in presses:
            if told and id(edge) in told:
                continue
            t = edge[0]
            if not self._armed:
                out.append(self._early(seat, t, "nothing armed"))
            elif t < arm:
                out.append(self._early(seat, t))
            elif slap is not edge:
                if not st.noted & MASH:
                    st.noted |= MASH
                    out.append(notice("mash", seat, t, self._mash_text[seat]))
            else:
                first = self._first
                if first is None or t < first:
                    self._first = first = t
                if t > first + self._timeout:
                    self._seat_note(st, LATE, "late", seat, t, "slap after the round's "
                                    f"{self._timeout / 1e9:g} s timeout, not counted", out)
                else:
                    out.append(slap_notice(seat, t, t - first))

    def _flood(self, st: SeatLog, seat: int, edge: Edge | None, out: list[Notice]) -> None:
        """More edges this round than ``max_edges``: keep the earliest, say so once."""
        edges = st.edges
        extra = st.count_from(self._arm_ns - self._holdoff) - self._max_edges
        if extra <= 0:
            return  # the edges beyond the limit are from before the round
        st.overflow = True
        del edges[len(edges) - extra:]
        st.state = None
        self._seat_note(st, FLOOD, "flood", seat, edge[0] if edge else None,
                        f"more than {self._max_edges} edges this round, the rest ignored", out)


__all__ = ["BOUNCE", "MASH", "LATE", "SOURCE", "BACKWARDS", "ORPHAN", "FLOOD", "SortIn",
           "by_time"]
