"""Sorting a seat's late edges in: once per poll (or per batch), not edge by edge.

What it is for: a mixin of ``SlapArbiter`` (its state lives there). An edge that arrives
older than its seat's latest one waits in ``SeatLog.pending``; ``_merge`` sorts every
seat's waiting edges in at once, finds each seat's slap again in one pass over its
edges (``_scan``, the one place the edge rules are written; it also counts the seat's
chatter blips as ``companion.slap.chatter.blips`` does), and describes the newly sorted
edges (``_describe``: the notices ``feed`` would have
given had they come in order). Edges while disarmed are described and stored at once
(``_feed_slow``). ``bench/slap_arbiter.py`` measures what this costs.
"""

from __future__ import annotations

from companion.events import PressEvent
from companion.slap.config import Notice, notice, slap_notice
from companion.slap.seatlog import Edge, SeatLog, by_time

# Kinds reported once per seat per round (bits of SeatLog.noted).
BOUNCE, MASH, LATE, SOURCE, BACKWARDS, ORPHAN, FLOOD = 1, 2, 4, 8, 16, 32, 64


class SortIn:
    """``SlapArbiter``'s late-edge sorting (a mixin: see the module docstring)."""

    def _feed_odd(self, st: SeatLog, seat: int, t: int, event: PressEvent) -> list[Notice]:
        """An edge from a source with no configured bound (or not a valid one)."""
        if event.source.__class__ is not str:
            return self._invalid(event)
        out: list[Notice] = []
        if not st.noted & SOURCE:
            st.noted |= SOURCE
            out.append(Notice("unknown_source", seat, t, f"Seat {seat}: unknown press source "
                              f"{event.source!r}, timed with the widest bound "
                              f"({self.config.bound_for(event.source) / 1e6:.3f} ms)"))
        return out + self._feed_slow(st, seat, t, bool(event.pressed), event, [])

    def _feed_slow(self, st: SeatLog, seat: int, t: int, pressed: bool, event: PressEvent,
                   out: list[Notice]) -> list[Notice]:
        """An edge out of time order, or while disarmed."""
        latest = st.latest_t
        if latest is None or t > latest:
            st.latest_t, st.latest_pressed = t, pressed
        elif t < latest - self._holdoff and not st.noted & BACKWARDS:
            self._seat_note(st, BACKWARDS, "backwards", seat, t, f"event stamped "
                            f"{(latest - t) / 1e6:.3f} ms before an earlier one; ranked by "
                            "its stamp", out)
        if self._armed:
            if t < self._window:
                st.push_before((t, pressed, event))
            else:
                st.pending.append((t, pressed, event))  # described when sorted in
                self._pending = True
            return out
        # Disarmed: describe at once, keep only what the next round's checks need.
        prev = st.last_before(t)
        st.pending.append((t, pressed, event))
        st.merge()
        horizon = st.latest_t - self._lookback
        if len(st.edges) > self._max_edges:
            horizon = max(horizon, st.edges[-self._max_edges][0])
        st.drop_older(horizon)
        if not pressed:
            if prev is None or not prev[1]:
                self._orphan(st, seat, t, out)
        elif prev is not None and t - prev[0] <= self._holdoff:
            self._seat_note(st, BOUNCE, "bounce", seat, t, "contact bounce ignored", out)
        else:
            out.append(self._early(seat, t, "nothing armed"))
        return out

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
        """Sort every seat's pending edges in, find the slaps again (``_scan``), describe
        the new edges (``_describe``, into ``out``, else for ``take_notices``)."""
        self._pending = False
        if out is None:
            out = self._outbox
        merged = []
        window, max_edges = self._window, self._max_edges
        first = None
        for seat, st in self._st.items():
            new = st.pending
            if not new:
                slap = st.slap
                if slap is not None and (first is None or slap[0] < first):
                    first = slap[0]
                continue
            latest = st.latest_t
            st.pending = []
            if not st.edges:
                new.sort(key=by_time)
                edges = st.edges = new[:]
            else:
                edges = st.edges
                edges += new
                edges.sort(key=by_time)
            if edges[0][0] < window:
                st.drop_older(window)
            if edges and (latest is None or edges[-1][0] >= latest):
                st.latest_t, st.latest_pressed = edges[-1][0], bool(edges[-1][1])
            if len(edges) > max_edges:
                self._flood(st, seat, None, out)
            merged.append((seat, st, latest, new, self._scan(st)))
            slap = st.slap
            if slap is not None and (first is None or slap[0] < first):
                first = slap[0]
        self._first = first
        for seat, st, latest, new, found in merged:
            self._describe(seat, st, latest, new, found, out)

    def _scan(self, st: SeatLog) -> tuple[list[Edge], Edge | None, Edge | None]:
        """One pass over a seat's sorted edges: its presses that are no bounce (the slap
        is the first of them at/after the arm), a bounce and an orphan release if any,
        and its chatter blips (counted as ``companion.slap.chatter.blips`` does)."""
        holdoff, arm = self._holdoff, self._arm_ns
        host_blip, pad_blip = self.config.blip_ns, self.config.pad_blip_ns
        before = st.before
        prev_t = cur_t = before[0] if before is not None else -(1 << 62)
        last_p = before is not None and before[1]
        presses: list[Edge] = []
        bounce = orphan = slap = start = closed_at = None
        count, train_rest = 0, not last_p
        from_pad, longest = False, 0  # see ``chatter.blips``: how a blip is measured
        boundary = False
        for edge in st.edges:
            t, pressed, event = edge
            if t == cur_t:  # one stamp, several edges: closed if any of them is a press
                if last_p:
                    pressed_after = True
                else:
                    pressed_after = pressed
            else:
                pressed_after = pressed
                prev_t, cur_t = cur_t, t
                boundary = t - prev_t > holdoff
                if boundary:  # a new train: the previous one ended at prev_t
                    if last_p:
                        train_rest = False
                    else:
                        if start is not None:
                            count += ((prev_t - start < pad_blip) if from_pad
                                      else longest < host_blip)
                            start = None
                        train_rest = True
            # (edges with one stamp share the first one's standing, and no train ends)
            if boundary:
                if pressed:
                    presses.append(edge)
                    if slap is None and t >= arm:
                        slap = edge
                    if start is None and train_rest:
                        start, longest = t, 0
                        from_pad = event is not None and event.__class__ is not PressEvent
                elif orphan is None and not last_p:
                    orphan = edge
            elif pressed:
                if bounce is None:
                    bounce = edge
                if start is None and train_rest:
                    start, longest = t, 0
                    from_pad = event is not None and event.__class__ is not PressEvent
            elif orphan is None and not last_p:
                orphan = edge
            if pressed_after and not last_p:
                closed_at = t
            elif last_p and not pressed_after and closed_at is not None \
                    and t - closed_at > longest:
                longest = t - closed_at
            last_p = pressed_after
        if start is not None and not last_p and (
                (cur_t - start < pad_blip) if from_pad else longest < host_blip):
            count += 1
        st.slap = slap
        st.blips, st.blips_ok = count, True
        return presses, bounce, orphan

    def _describe(self, seat: int, st: SeatLog, latest: int | None, new: list[Edge],
                  found: tuple[list[Edge], Edge | None, Edge | None],
                  out: list[Notice]) -> None:
        """Notices for the edges just sorted in (``new``), from what ``_scan`` found."""
        presses, bounce, orphan = found
        everything = len(new) == len(st.edges)  # a seat's first batch: all of it is new
        fresh = None if everything else set(map(id, new))
        if latest is not None and not st.noted & BACKWARDS:
            old = min(map(by_time, new))
            if old < latest - self._holdoff:
                self._seat_note(st, BACKWARDS, "backwards", seat, old, f"event stamped "
                                f"{(latest - old) / 1e6:.3f} ms before an earlier one; ranked "
                                "by its stamp", out)
        if orphan is not None and not st.noted & ORPHAN and (everything or id(orphan) in fresh):
            self._orphan(st, seat, orphan[0], out)
        if bounce is not None and not st.noted & BOUNCE and (everything or id(bounce) in fresh):
            st.noted |= BOUNCE
            out.append(notice("bounce", seat, bounce[0], self._bounce_text[seat]))
        slap, first = st.slap, self._first
        for edge in presses:
            if not everything and id(edge) not in fresh:
                continue
            t = edge[0]
            if t < self._arm_ns:
                out.append(self._early(seat, t))
            elif slap is not edge:
                if not st.noted & MASH:
                    st.noted |= MASH
                    out.append(notice("mash", seat, t, self._mash_text[seat]))
            elif first is not None and t > first + self.config.timeout_ns:
                self._seat_note(st, LATE, "late", seat, t, "slap after the round's "
                                f"{self.config.timeout_ns / 1e9:g} s timeout, not counted",
                                out)
            else:
                out.append(slap_notice(seat, t, t - (first or t)))

    def _flood(self, st: SeatLog, seat: int, edge: Edge | None, out: list[Notice]) -> None:
        """More edges this round than ``max_edges``: keep the earliest, say so once."""
        edges = st.edges
        extra = st.count_from(self._arm_ns - self._holdoff) - self._max_edges
        if extra <= 0:
            return  # the edges beyond the limit are from before the round
        st.overflow = True
        del edges[len(edges) - extra:]
        st.blips_ok = False
        if st.slap is not None and (not edges or st.slap[0] > edges[-1][0]):
            st.find_slap(self._arm_ns, self._holdoff)
        self._seat_note(st, FLOOD, "flood", seat, edge[0] if edge else None,
                        f"more than {self._max_edges} edges this round, the rest ignored", out)
