"""The Stop Time slap arbiter: seat-button edges in, one ``Verdict`` per slap round out.

Pure and single-threaded: no I/O, no threads, no clock reads. Wiring:

* Press sources (gpiozero callbacks, the Pico pad link, the keyboard) stamp each edge at
  the lowest layer and ``post()`` a ``PressEvent`` onto the ``EventQueue``.
* The UI thread owns a ``SlapArbiter``. When Stop Time may be slapped it calls
  ``arm(now_ns)``; every frame it hands the frame's drained events to ``feed_many()``
  (``feed()`` takes one; both return ``Notice``s to show) and then calls ``poll(now_ns)``
  with ``now_ns`` in the *same clock as the events*. ``poll`` is the one place a
  ``Verdict`` comes out; after it the arbiter is disarmed until the next ``arm()``.
  ``take_notices()`` returns what ``poll`` noticed (stuck buttons, chattering switches,
  edges that arrived out of order, the verdict).

Timing rules (all by timestamp, never by arrival order, so a permutation of the events
of a round gives the same verdict): a seat's slap is its earliest press edge stamped at
or after the arm time that is not within ``holdoff_ns`` after another edge of that seat
(bounce); later presses are mashing. A round opens at the first slap and closes at
``poll`` once every seat that is not held/flooded has slapped and ``settle_ns`` has
passed since the last slap (room for events still in flight), or ``settle_ns`` after
``timeout_ns`` has passed since the first slap. At the close, seats whose switch
chatters (``companion.slap.chatter``) are left out, like held ones.

Honest bounds: the round's bound is the widest source bound of its slaps (the two widest
added, for two sources), never below a press's own capture bound (``resolution_ns`` on a
``PadPress``), and widened by the clock-sync ``uncertainty_ns`` of the two most uncertain
presses when they come from different clocks (``clock``). A slap whose uncertainty
straddles the arm time is left out rather than guessed.

Notices describe each event as known when it arrived. An edge older than its seat's
latest one is described at the next ``poll`` (``take_notices``), once sorted in: sorting
a round once is far cheaper than inserting every edge in place. See
``docs/slap-timing.md``; ``bench/slap_arbiter.py`` measures the cost against a minimal
sort-based ranking.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.errors import ConfigError
from companion.events import PressEvent
from companion.slap.bounds import maybe_before_arm, round_bound
from companion.slap.chatter import blips
from companion.slap.config import (
    DEFAULT_RESOLUTION_NS,
    NOTICE_KINDS,
    ArbiterConfig,
    Notice,
    notice,
    slap_notice,
    verdict_notice,
)
from companion.slap.seatlog import Edge, SeatLog
from companion.slap.sortin import BOUNCE, LATE, MASH, ORPHAN, SortIn
from companion.slap.verdict import Verdict, decide

__all__ = ["DEFAULT_RESOLUTION_NS", "NOTICE_KINDS", "ArbiterConfig", "Notice", "SlapArbiter"]

_MAX_ONCE_KEYS = 256


class SlapArbiter(SortIn):
    """Orders the slaps of one Stop Time round at a time; see the module docstring."""

    def __init__(self, seats: Iterable[int], config: ArbiterConfig | None = None) -> None:
        self.config = cfg = config if config is not None else ArbiterConfig()
        if not isinstance(cfg, ArbiterConfig):
            raise ConfigError(f"SlapArbiter config must be an ArbiterConfig, not {config!r}")
        seat_list = list(seats)
        for s in seat_list:
            if not isinstance(s, int) or isinstance(s, bool) or s < 1:
                raise ConfigError(f"SlapArbiter seats: {s!r} is not a seat number (1 or more)")
        if not seat_list or len(set(seat_list)) != len(seat_list):
            raise ConfigError(f"SlapArbiter seats must be distinct and not empty: {seat_list}")
        self.seats: tuple[int, ...] = tuple(sorted(seat_list))
        self._st = {s: SeatLog() for s in self.seats}
        self._bounce_text = {s: f"Seat {s}: contact bounce ignored" for s in self.seats}
        self._mash_text = {s: f"Seat {s}: repeated press ignored" for s in self.seats}
        self._holdoff = cfg.holdoff_ns
        self._max_edges = cfg.max_edges
        self._timeout, self._settle, self._stuck_ns = cfg.timeout_ns, cfg.settle_ns, cfg.stuck_ns
        self._lookback = max(cfg.holdoff_ns, cfg.chatter_window_ns)
        self._bounds = dict(cfg.resolution_ns)
        self._armed = False
        self._arm_ns = 0
        self._window = 0  # edges older than this go to SeatLog.before while armed
        self._first: int | None = None  # the round's first slap so far
        self._pending = False  # some seat has edges waiting to be sorted in
        self._once: set[tuple[str, int | None]] = set()
        self._outbox: list[Notice] = []
        self._closed: tuple[int, int] | None = None  # (arm_ns, close_ns) of the last round
        self.last_verdict: Verdict | None = None

    @property
    def armed(self) -> bool:
        return self._armed

    @property
    def first_slap_ns(self) -> int | None:
        """Time of the round's first slap while armed, else ``None``."""
        if not self._armed:
            return None
        if self._pending:
            self._merge()
        return self._first

    # -- the round --------------------------------------------------------------------
    def arm(self, now_ns: int) -> list[Notice]:
        """Ready for a round from ``now_ns`` on (any open round is abandoned). Returns a
        "held" notice for each seat whose button is down now: it is left out of the round
        unless released before the first slap."""
        if not isinstance(now_ns, int) or isinstance(now_ns, bool):
            raise ConfigError(f"arm(now_ns): now_ns must be whole ns, not {now_ns!r}")
        if self._pending:
            self._merge()
        self._armed, self._arm_ns, self._window = True, now_ns, now_ns - self._lookback
        self._once.clear()
        out = []
        for seat, st in self._st.items():
            st.drop_older(self._window)
            st.overflow, st.noted = False, 0
            st.find_slap(now_ns, self._holdoff)
            if st.held_at(now_ns):
                out.append(Notice("held", seat, now_ns, f"Seat {seat}: button held down; left "
                                  "out of this round unless released before the first slap"))
        self._first = min((st.slap[0] for st in self._st.values() if st.slap), default=None)
        return out

    def disarm(self) -> None:
        """Stop timing; an open round is abandoned without a verdict."""
        if self._pending:
            self._merge()
        self._armed = False
        self._once.clear()
        for st in self._st.values():
            st.noted = 0

    def feed(self, event: PressEvent) -> list[Notice]:
        """Take one edge (any order, any thread's stamp) and describe it. Never raises."""
        if not isinstance(event, PressEvent):
            return self._invalid(event)
        seat, t = event.seat, event.t_ns
        if t.__class__ is not int or seat.__class__ is not int:
            return self._invalid(event)
        st = self._st.get(seat)
        if st is None:
            return self._note("unknown_seat", seat, t, f"Seat {seat}: not in play, ignored")
        if event.source not in self._bounds:
            return self._feed_odd(st, seat, t, event)
        pressed = event.pressed
        if pressed.__class__ is not bool:
            pressed = bool(pressed)
        latest = st.latest_t
        if st.pending or not self._armed or (latest is not None and t <= latest):
            return self._feed_slow(st, seat, t, pressed, event, [])
        st.latest_t, st.latest_pressed = t, pressed
        out: list[Notice] = []
        edges = st.edges
        prev: Edge | None = edges[-1] if edges else st.before
        if t < self._window:  # long before the round: only the bounce rule needs it
            st.push_before((t, pressed, event))
            return out
        edge = (t, pressed, event)
        edges.append(edge)
        st.blips_ok = False
        if len(edges) > self._max_edges:
            self._flood(st, seat, edge, out)
            if edges[-1] is not edge:
                return out
        if prev is not None and t - prev[0] <= self._holdoff:
            if pressed and not st.noted & BOUNCE:
                st.noted |= BOUNCE
                out.append(notice("bounce", seat, t, self._bounce_text[seat]))
        elif not pressed:
            if prev is None or not prev[1]:
                self._orphan(st, seat, t, out)
        else:
            self._press(st, seat, edge, out)
        return out

    def feed_many(self, events: Iterable[PressEvent]) -> list[Notice]:
        """``feed()`` for a batch (one frame's worth): the same rules and notices, with
        the batch sorted in once instead of edge by edge."""
        if not self._armed:
            out: list[Notice] = []
            for event in events:
                out += self.feed(event)
            return out
        out = []
        seats, bounds = self._st, self._bounds
        for event in events:
            # Edges kept as (t_ns, pressed, event): ``pressed`` is only ever read for its
            # truth, so it is stored as given (``feed`` gives a bool).
            if event.__class__ is PressEvent or isinstance(event, PressEvent):
                seat, t = event.seat, event.t_ns
                if seat.__class__ is int and t.__class__ is int and event.source in bounds:
                    try:
                        seats[seat].pending.append((t, event.pressed, event))
                        continue
                    except KeyError:  # not a seat in play
                        pass
            out += self.feed(event)  # something to describe now
        self._merge(out)
        return out

    def poll(self, now_ns: int) -> Verdict | None:
        """Call once per frame. Returns the ``Verdict`` when the round closes (then the
        arbiter is disarmed), else ``None``. Stuck buttons go to ``take_notices()``."""
        if self._pending:
            self._merge()
        stuck_ns = self._stuck_ns
        first = self._first
        if not self._armed or first is None:
            for seat, st in self._st.items():
                if (st.latest_pressed and st.stuck_t != st.latest_t
                        and now_ns - st.latest_t > stuck_ns):
                    self._stuck(seat, st)
            return None
        deadline = first + self._timeout
        counted = []  # (seat, slap) of the slaps counted
        last = first  # the latest of them
        for seat, st in self._st.items():
            if st.latest_pressed and st.stuck_t != st.latest_t and now_ns - st.latest_t > stuck_ns:
                self._stuck(seat, st)
            slap = st.slap
            if slap is not None and slap[0] <= deadline:
                counted.append((seat, slap))
                if slap[0] > last:
                    last = slap[0]
        n = len(counted)
        close_at = deadline + self._settle
        if n == len(self.seats):
            excluded: dict[int, str] = {}
            close_at = min(close_at, last + self._settle)
        else:
            excluded = self._excluded(first, deadline)
            if n + len(excluded) == len(self.seats):
                close_at = min(close_at, last + self._settle)
        if now_ns < close_at:
            return None
        return self._close(counted, excluded, now_ns)

    def _stuck(self, seat: int, st: SeatLog) -> None:
        st.stuck_t = st.latest_t
        self._outbox.append(Notice("stuck", seat, st.latest_t, f"Seat {seat}: button held "
                                   f"down for over {self._stuck_ns / 1e9:g} s"))

    def take_notices(self) -> list[Notice]:
        out, self._outbox = self._outbox, []
        return out

    # -- describing edges ---------------------------------------------------------------
    def _press(self, st: SeatLog, seat: int, edge: Edge, out: list[Notice]) -> None:
        """A press that is no bounce, in time order: false slap, mash, late or the slap."""
        t = edge[0]
        if t < self._arm_ns:
            out.append(Notice("false_slap", seat, t, f"Seat {seat}: false slap (before the "
                              "round was armed)"))
        elif st.slap is not None:
            if not st.noted & MASH:
                st.noted |= MASH
                out.append(notice("mash", seat, t, self._mash_text[seat]))
        elif self._first is not None and t > self._first + self.config.timeout_ns:
            if not st.noted & LATE:
                self._seat_note(st, LATE, "late", seat, t, f"slap after the round's "
                                f"{self.config.timeout_ns / 1e9:g} s timeout, not counted", out)
        else:
            st.slap = edge
            first = self._first
            if first is None or t < first:
                self._first = first = t
            out.append(slap_notice(seat, t, t - first))

    def _orphan(self, st: SeatLog, seat: int, t: int, out: list[Notice]) -> None:
        self._seat_note(st, ORPHAN, "orphan_release", seat, t, "release without a press, "
                        "ignored", out)

    @staticmethod
    def _seat_note(st: SeatLog, bit: int, kind: str, seat: int, t: int | None, text: str,
                   out: list[Notice]) -> None:
        if not st.noted & bit:
            st.noted |= bit
            out.append(Notice(kind, seat, t, f"Seat {seat}: {text}"))

    def _invalid(self, event: object) -> list[Notice]:
        return self._note("invalid", None, None, f"Ignored something that is not a valid "
                          f"press event: {event!r:.80}")

    def _note(self, kind: str, seat: int | None, t: int | None, text: str) -> list[Notice]:
        key = (kind, seat)
        if key in self._once or len(self._once) >= _MAX_ONCE_KEYS:
            return []
        self._once.add(key)
        return [Notice(kind, seat, t, text)]

    # -- the close ----------------------------------------------------------------------
    def _close(self, counted: list[tuple[int, Edge]], excluded: dict[int, str],
               now_ns: int) -> Verdict:
        """The verdict on the ``counted`` slaps, leaving out ``excluded`` seats,
        chattering ones and those too close to the arm to tell."""
        cfg = self.config
        left_out = excluded  # seat -> why (``verdict.WHYS``)
        notes = self._outbox
        since = self._arm_ns - cfg.chatter_window_ns
        need = cfg.chatter_blips
        order = []  # (t_ns, seat) of the slaps counted
        source = None  # the slaps' one source, unless ``mixed``
        plain, mixed = True, False
        for seat, st in self._st.items():
            st.noted = 0  # the round is over: once-a-round notices may come again
            if not st.blips_ok:
                st.blips = blips(st.edges, not (st.before is not None and st.before[1]),
                                 cfg.holdoff_ns, cfg.blip_ns, since, now_ns) if len(
                    st.edges) >= 2 * need else 0
                st.blips_ok = True
            if st.blips >= need and seat not in left_out:
                left_out[seat] = "chatter"
                notes.append(Notice("chatter", seat, None, f"Seat {seat}'s button is "
                                    "chattering (it closes by itself in short bursts): left "
                                    "out of this round; check its switch and wiring"))
        for seat, edge in counted:
            event = edge[2]
            if event.source is not source and event.source != source:
                mixed, source = source is not None, event.source
            if event.__class__ is not PressEvent:  # no sync doubt about a host stamp
                plain = False
                if seat in left_out:
                    continue
                unsure = getattr(event, "uncertainty_ns", 0)
                if unsure and maybe_before_arm(self._st[seat], edge, unsure, self._arm_ns):
                    left_out[seat] = "untimed"
                    notes.append(Notice("unsure_start", seat, edge[0], f"Seat {seat}: slapped "
                                        f"within {unsure / 1e6:.3f} ms of the round's start, "
                                        "too close to tell whether it was before: left out"))
                    continue
            elif left_out and seat in left_out:
                continue
            order.append((edge[0], seat))
        if plain and not mixed and source in self._bounds:
            bound = self._bounds[source]  # the usual round: one source in the host's clock
        else:
            bound, source = round_bound(self._bounds, (
                self._st[s].slap for _, s in order))
        verdict = decide({seat: t for t, seat in order}, self.seats, bound, source,
                         excluded=left_out)
        self._armed = False
        self._once.clear()
        self._closed = (self._arm_ns, now_ns)
        self.last_verdict = verdict
        notes.append(verdict_notice(verdict, now_ns))
        return verdict

    def _excluded(self, first: int, deadline: int) -> dict[int, str]:
        """Seats without a counted slap that were still held when the round opened
        (``"held"``), or whose flood of edges hid any slap (``"chatter"``)."""
        out = {}
        arm = self._arm_ns
        for seat, st in self._st.items():
            if st.slap is not None and st.slap[0] <= deadline:
                continue
            flooded = st.overflow and st.slap is None
            held = st.held_at(arm) and not any(
                not e[1] and arm <= e[0] < first for e in st.edges)
            if flooded:
                out[seat] = "chatter"
            elif held:
                out[seat] = "held"
        return out
