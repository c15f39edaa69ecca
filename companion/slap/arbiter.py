"""The Stop Time slap arbiter: seat-button edges in, one ``Verdict`` per slap round out.

Pure and single-threaded: no I/O, no threads, no clock reads. Wiring:

* Press sources (gpiozero callbacks, the Pico pad link, the keyboard) stamp each edge at
  the lowest layer and ``post()`` a ``PressEvent`` onto the ``EventQueue``.
* The UI thread owns a ``SlapArbiter``. When Stop Time may be slapped it calls
  ``arm(now_ns)``; every frame it hands the frame's drained events to ``feed_many()``
  (``feed()`` takes one; both return ``Notice``s to show) and then calls ``poll(now_ns)``
  with ``now_ns`` in the *same clock as the events*. ``poll`` is the one place a
  ``Verdict`` comes out. The round stays open to late slaps until the next ``arm()``
  (``judged``): a slap stamped inside it that arrives after the verdict makes ``poll``
  return the verdict again, redone (``revision`` counts up), so the screen can replace
  it or say that a recorded one may be wrong. Never silently "not counted".
* Sources whose events may come late (the Pico pad) are named with ``expect()`` after
  ``arm()`` and report how far their stream is complete with ``confirm()``; see ``poll``.
  ``take_notices()`` returns what ``poll`` noticed (stuck buttons, chattering switches,
  edges that arrived out of order, the verdict).

Timing rules (all by timestamp, never by arrival order, so a permutation of the events
of a round gives the same verdict): a seat's slap is its earliest press edge stamped at
or after the arm time that is not within ``holdoff_ns`` after another edge of that seat
(bounce); later presses are mashing. A round opens at the first slap and closes at
``poll`` only when it can be judged: once every seat that is not held/flooded has
slapped and every source's stream is complete past the last slap (the host's own
``settle_ns`` after it), or ``timeout_ns`` after the first slap once every stream is
complete past that. A source that cannot confirm within ``quiet_ns`` more leaves the
seats it left unheard out as ``quiet``. Every seat left out (held, chattering
(``companion.slap.chatter``), untimed, quiet) is a candidate: the table decides unless
exactly one candidate remains (``companion.slap.verdict.decide``).

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
from companion.slap.chatter import closing_sources
from companion.slap.config import (
    DEFAULT_RESOLUTION_NS,
    NOTICE_KINDS,
    ArbiterConfig,
    Notice,
    verdict_notice,
)
from companion.slap.seatlog import Edge, SeatLog, scan
from companion.slap.sortin import BOUNCE, SortIn
from companion.slap.stream import Stream
from companion.slap.verdict import Verdict, decide

__all__ = ["DEFAULT_RESOLUTION_NS", "NOTICE_KINDS", "ArbiterConfig", "Notice", "SlapArbiter"]

_MAX_ONCE_KEYS = 256
_LOOKBACK_NS = 5_000_000_000


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
        # Edges this long before the arm are kept with the round's, so that one delivered
        # late is still read (and told) by the same scan; older ones only as ``before``.
        self._lookback = max(cfg.holdoff_ns, _LOOKBACK_NS)
        self._bounds = dict(cfg.resolution_ns)
        self._blip_ns = cfg.blip_ns
        self._fine = closing_sources(cfg)  # sources that can see a blip
        self._armed = False
        self._arm_ns = 0
        self._window = 0  # edges older than this go to SeatLog.before while armed
        self._first: int | None = None  # the round's first slap so far
        self._pending = False  # some seat has edges waiting to be sorted in
        self._once: set[tuple[str, int | None]] = set()
        self._told: set[tuple[str, int]] = set()  # poll's notices already given this round
        self._outbox: list[Notice] = []
        self._closed: tuple[int, int] | None = None  # (arm_ns, close_ns) of the last round
        self.last_verdict: Verdict | None = None
        self._quiet_ns = cfg.quiet_ns
        self._streams: dict[str, Stream] = {}  # sources whose watermark a round waits for
        self._judged = False  # the round has a verdict; it stays open to late slaps
        self._dirty = False  # something was fed or confirmed since the verdict
        self._reopen_ns = cfg.reopen_ns
        self._reopen_until = 0
        self._said_quiet: set[str] = set()
        #: How many times the round's verdict was redone after it was first given (a slap
        #: stamped inside the round that arrived late, a quiet source heard again).
        self.revision = 0

    @property
    def armed(self) -> bool:
        """True from ``arm()`` until the round's first verdict (or ``disarm()``)."""
        return self._armed and not self._judged

    @property
    def judged(self) -> bool:
        """The round has a verdict and is still open to late slaps (until the next
        ``arm()`` or ``disarm()``): ``poll`` returns a new verdict if one changes it."""
        return self._armed and self._judged

    # -- the sources' watermarks ----------------------------------------------------------
    def expect(self, name: str, sources: Iterable[str], label: str,
               seats: Iterable[int] | None = None) -> None:
        """This round must hear from the press source ``name`` (its events carry one of
        ``sources``) before it closes: it closes at its deadline only once ``confirm``
        has said the source's stream is complete past it, or after ``quiet_ns`` more with
        the seats it may serve (``seats``, default every seat) that it left unheard
        excluded as ``quiet`` ("``label`` went quiet during the round"). Call it after
        ``arm()`` (the expectation lasts for the round), or again while the round is
        on when a source comes back."""
        stream = self._streams.get(name)
        if stream is None:
            stream = self._streams[name] = Stream(name)
        stream.sources = frozenset(sources)
        stream.label = label
        stream.seats = frozenset(self.seats if seats is None else seats)
        stream.expected = True
        self._dirty = True

    def confirm(self, name: str, up_to_ns: int) -> None:
        """Every edge of source ``name`` stamped at or before ``up_to_ns`` (this arbiter's
        clock) has been fed. Only moves forward."""
        stream = self._streams.get(name)
        if stream is None:
            stream = self._streams[name] = Stream(name)
        if stream.mark is None or up_to_ns > stream.mark:
            stream.mark = up_to_ns
            self._dirty = True

    def expects(self, name: str) -> bool:
        """Does the current round wait for source ``name``?"""
        stream = self._streams.get(name)
        return stream is not None and stream.expected

    @property
    def unsettled(self) -> bool:
        """A judged round got something new that ``poll`` has not weighed yet."""
        return self._armed and self._judged and self._dirty

    def watermark(self, name: str) -> int | None:
        stream = self._streams.get(name)
        return None if stream is None else stream.mark

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
        self._judged, self.revision = False, 0
        self._said_quiet.clear()
        for stream in self._streams.values():
            stream.expected = False
        self._once.clear()
        self._told.clear()
        out = []
        for seat, st in self._st.items():
            st.drop_older(self._window)
            st.overflow, st.noted, st.untimed_press = False, 0, False
            st.state = None
            scan(st, now_ns, self._holdoff, self._blip_ns, self._fine)
            if st.held_at(now_ns):
                out.append(Notice("held", seat, now_ns, f"Seat {seat}: button held down; left "
                                  "out of this round unless released before the first slap"))
        self._first = min((st.slap[0] for st in self._st.values() if st.slap), default=None)
        return out

    def disarm(self) -> None:
        """Stop timing; an open round is abandoned without a verdict."""
        if self._pending:
            self._merge()
        self._armed = self._judged = False
        self._once.clear()
        for st in self._st.values():
            st.noted = 0

    def feed(self, event: PressEvent) -> list[Notice]:
        """Take one edge (any order, any thread's stamp) and describe it. Never raises."""
        self._dirty = True
        plain = event.__class__ is PressEvent
        if not plain and not isinstance(event, PressEvent):
            return self._invalid(event)
        seat, t = event.seat, event.t_ns
        if t.__class__ is not int or seat.__class__ is not int:
            return self._invalid(event)
        st = self._st.get(seat)
        if st is None:
            return self._note("unknown_seat", seat, t, f"Seat {seat}: not in play, ignored")
        if not plain and getattr(event, "untimed", False):
            return self._feed_untimed(st, seat, event)
        out: list[Notice] = []
        if event.source not in self._bounds:
            if event.source.__class__ is not str:
                return self._invalid(event)
            self._unknown_source(st, seat, t, event, out)
        pressed = event.pressed
        if pressed.__class__ is not bool:
            pressed = bool(pressed)
        if not self._armed:
            return self._feed_disarmed(st, seat, t, pressed, event, out)
        latest = st.latest_t
        if t < self._window:  # long before the round: only the bounce rule needs it
            if latest is None or t > latest:
                st.latest_t, st.latest_pressed = t, pressed
            st.push_before((t, pressed, event))
            self._pending = True  # the seat is read again from its new ``before``
            return out
        if st.pending or (latest is not None and t <= latest):
            st.pending.append((t, pressed, event))  # described when sorted in (``_merge``)
            self._pending = True
            return out
        st.latest_t, st.latest_pressed = t, pressed
        edges = st.edges
        edge = (t, pressed, event)
        edges.append(edge)
        reader = st.state
        if len(edges) > self._max_edges:
            self._flood(st, seat, edge, out)
            if edges[-1] is not edge:
                scan(st, self._arm_ns, self._holdoff, self._blip_ns, self._fine)
                return out
            reader = None
        if reader is not None:  # in time order: the scan goes on, one step (``scan``)
            found, st.slap, st.tail_blip = reader.send((edge,))
            # (a bounce already told this round is all most edges hold: nothing to say)
            if found is not None and (found[0] or found[2] or not st.noted & BOUNCE):
                self._describe(seat, st, found, None, out)
        else:
            found = scan(st, self._arm_ns, self._holdoff, self._blip_ns, self._fine)
            if found is not None:
                self._describe(seat, st, found, set(map(id, edges[:-1])), out)
        return out

    def feed_many(self, events: Iterable[PressEvent]) -> list[Notice]:
        """``feed()`` for a batch (one frame's worth): the same rules and notices, with
        the batch sorted in once instead of edge by edge."""
        self._dirty = True
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
                if (seat.__class__ is int and t.__class__ is int and event.source in bounds
                        and (event.__class__ is PressEvent
                             or not getattr(event, "untimed", False))):
                    try:
                        seats[seat].pending.append((t, event.pressed, event))
                        continue
                    except KeyError:  # not a seat in play
                        pass
            out += self.feed(event)  # something to describe now
        self._merge(out)
        return out

    def poll(self, now_ns: int) -> Verdict | None:
        """Call once per frame. Returns the ``Verdict`` when the round closes, and again
        (``revision`` counts up) whenever a slap that arrived later changes it; else
        ``None``. Stuck buttons go to ``take_notices()``.

        The round closes only when it can be judged: every seat slapped (or cannot be
        timed) and every source's stream is complete past the last slap, or the
        deadline (``timeout_ns`` after the first slap) has passed and every source's
        stream is complete past it. The host's own stream (GPIO, keyboard) is complete
        up to ``now_ns - settle_ns``; a source named with ``expect`` up to its last
        ``confirm``. One that has not confirmed ``quiet_ns`` later leaves its unheard
        seats out as ``quiet``: candidates, so the table decides."""
        if self._pending:
            self._merge()
        first = self._first
        if self._judged and now_ns > self._reopen_until:
            self._armed = self._judged = False  # long over: later slaps are only noted
        if not self._armed or first is None or (self._judged and not self._dirty):
            for seat, st in self._st.items():
                if st.latest_pressed and st.stuck_t != st.latest_t:
                    self._stuck(seat, st, now_ns)
            return None
        deadline = first + self._timeout
        counted = []  # (seat, slap) of the slaps counted
        last = first  # the latest of them
        for seat, st in self._st.items():
            if st.latest_pressed and st.stuck_t != st.latest_t:
                self._stuck(seat, st, now_ns)
            slap = st.slap
            if slap is not None and slap[0] <= deadline:
                counted.append((seat, slap))
                if slap[0] > last:
                    last = slap[0]
        n = len(counted)
        target = deadline  # every stream must be complete up to this stamp
        if n == len(self.seats) and not self._untimed_any:
            excluded: dict[int, str] = {}
            target = last
        else:
            excluded = self._excluded(first, deadline)
            if n + sum(1 for s in excluded if self._st[s].slap is None
                       or self._st[s].slap[0] > deadline) == len(self.seats):
                target = last
        for seat, _ in counted:
            st = self._st[seat]
            if st.tail_blip is not None:  # a burst so far: wait until it can count
                over = min(st.tail_blip + self._holdoff + 1, max(target, deadline))
                if over > target:
                    target = over
        if now_ns - self._settle < target:
            return None
        quiet = []
        if self._streams:
            for stream in self._streams.values():
                if stream.expected and (stream.mark is None or stream.mark < target):
                    quiet.append(stream)
            if quiet and now_ns < target + self._settle + self._quiet_ns:
                return None
        verdict = self._close(counted, excluded, now_ns, quiet)
        self._dirty = False
        if self._judged:
            if verdict == self.last_verdict:
                return None
            self.revision += 1
        self._judged = True
        self._reopen_until = max(now_ns, deadline) + self._reopen_ns
        self.last_verdict = verdict
        self._outbox.append(verdict_notice(verdict, now_ns))
        return verdict

    @property
    def _untimed_any(self) -> bool:
        return any(st.untimed_press for st in self._st.values())

    def _feed_untimed(self, st: SeatLog, seat: int, event: PressEvent) -> list[Notice]:
        """An edge its source could not place in time: its level counts (the seat is
        held only if its button is down now), its time does not; a press while a round
        is on leaves the seat out of it as ``untimed``."""
        if self._pending:
            self._merge()  # the timed edges that came before it, sorted in
        st.level = bool(event.pressed)
        st.level_after = st.latest_t
        if event.pressed and self._armed:
            st.untimed_press = True
            return self._note("untimed", seat, None, f"Seat {seat}: a press without a usable "
                              "time; left out of this round (the table decides)")
        return []

    def _stuck(self, seat: int, st: SeatLog, now_ns: int) -> None:
        """Say once that the seat's button is held down, if it really was for over
        ``stuck_ns``: its stream must be complete that far past the press with no release
        stamped in between (a release that arrives late, after a replug or a stall, is
        timed by its stamp, not its arrival)."""
        edges = st.edges
        edge = edges[-1] if edges else st.before
        mark = now_ns - self._settle  # the host's own stream
        if edge is not None and edge[0] == st.latest_t:
            source = edge[2].source
            for stream in self._streams.values():
                if source in stream.sources:
                    mark = stream.mark
                    break
        if mark is None or mark - st.latest_t <= self._stuck_ns:
            return
        st.stuck_t = st.latest_t
        self._outbox.append(Notice("stuck", seat, st.latest_t, f"Seat {seat}: button held "
                                   f"down for over {self._stuck_ns / 1e9:g} s"))

    def take_notices(self) -> list[Notice]:
        out, self._outbox = self._outbox, []
        return out

    # -- describing edges ---------------------------------------------------------------
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
               now_ns: int, quiet: list[Stream] = ()) -> Verdict:
        """The verdict on the ``counted`` slaps, leaving out ``excluded`` seats,
        chattering ones, those too close to the arm to tell, and those a ``quiet``
        source may hold unheard."""
        cfg = self.config
        left_out = excluded  # seat -> why (``verdict.WHYS``)
        notes = self._outbox
        for stream in quiet:
            self._quiet(stream, counted, left_out)
        arm, need, told = self._arm_ns, cfg.chatter_blips, self._told
        # A seat's last episode counts once it began a hold-off before the stream is
        # complete (only the host's own sources make blips: complete to the settle).
        settled = now_ns - self._settle - self._holdoff
        order = []  # (t_ns, seat) of the slaps counted
        source = None  # the slaps' one source, unless ``mixed``
        plain, mixed = True, False
        for seat, st in self._st.items():
            st.noted = 0  # the round is over: once-a-round notices may come again
            if seat in left_out or not (st.blip_at or st.tail_blip is not None):
                continue
            # Blips within the round only (presses after it, e.g. on another screen, and
            # before its arm do not count), read by ``scan`` with the rest. One is enough
            # to leave the seat out: no hand makes it, and a worn contact's burst stamped
            # a little late can pass for a short tap, so its "slap" cannot be trusted.
            count = st.blips(arm, now_ns, settled)
            if not count:
                continue
            left_out[seat] = "chatter"
            if ("chatter", seat) in told:
                continue
            told.add(("chatter", seat))
            if count >= need:
                text = (f"Seat {seat}'s button is chattering (it closes by itself in short "
                        "bursts): left out of this round; check its switch and wiring")
            else:
                text = (f"Seat {seat}'s button closed for under {cfg.blip_ns / 1e6:g} ms, "
                        "which no hand does: left out of this round; check its switch")
            notes.append(Notice("chatter", seat, None, text))
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
                    if ("unsure_start", seat) in told:
                        continue
                    told.add(("unsure_start", seat))
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
        self._closed = (self._arm_ns, now_ns)
        return verdict

    def _quiet(self, stream: Stream, counted: list[tuple[int, Edge]],
               left_out: dict[int, str]) -> None:
        """``stream`` did not confirm in time: its unheard seats (no slap counted, and
        never heard from another source only) and the seats whose slap it brought after
        its watermark (an earlier press may still be on its way) are left out."""
        slapped = {seat: edge for seat, edge in counted}
        mark = stream.mark if stream.mark is not None else self._arm_ns - 1
        hit = []
        for seat in stream.seats:
            if seat in left_out or seat not in self._st:
                continue
            edge = slapped.get(seat)
            st = self._st[seat]
            if edge is None:
                heard = {e[2].source for e in st.edges}
                if st.before is not None:
                    heard.add(st.before[2].source)
                if not heard or heard & stream.sources:
                    hit.append(seat)
            elif edge[2].source in stream.sources and edge[0] > mark:
                hit.append(seat)
        for seat in hit:
            left_out[seat] = "quiet"
        if hit and stream.name not in self._said_quiet:
            self._said_quiet.add(stream.name)
            self._outbox.append(Notice("quiet", None, None, f"{stream.label} went quiet during "
                                       "the round: the table decides"))

    def _excluded(self, first: int, deadline: int) -> dict[int, str]:
        """Seats that cannot be timed this round: a press without a usable time
        (``"untimed"``, even beside a timed slap: it may have been earlier); without a
        counted slap, a button down when the round was armed and not released before
        the first slap (``"held"``), or a flood of edges that hid any slap
        (``"chatter"``)."""
        out = {}
        arm = self._arm_ns
        for seat, st in self._st.items():
            if st.untimed_press:
                out[seat] = "untimed"
                continue
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
