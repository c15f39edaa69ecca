"""The Stop Time slap arbiter: seat-button edges in, one ``Verdict`` per slap round out.

Pure and single-threaded: no I/O, no threads, no clock reads. Wiring:

* Press sources (gpiozero callbacks, the Pico pad link, the keyboard) stamp each edge at
  the lowest layer and ``post()`` a ``PressEvent`` onto the ``EventQueue``.
* The UI thread owns a ``SlapArbiter``. When Stop Time may be slapped it calls
  ``arm(now_ns)``; every frame it ``feed()``s each drained event (showing the returned
  ``Notice``s) and then calls ``poll(now_ns)`` with ``now_ns`` in the *same clock as the
  events*. ``poll`` is the one place a ``Verdict`` comes out; after it the arbiter is
  disarmed until the next ``arm()``. ``take_notices()`` returns what ``poll`` noticed
  (stuck buttons, the verdict sentence).

Timing rules (all by timestamp, never by arrival order, so a permutation of the events
of a round gives the same verdict): a seat's slap is its earliest press edge stamped at
or after the arm time that is not within ``holdoff_ns`` after another edge of that seat
(bounce); later presses are mashing. A round opens at the first slap and closes at
``poll`` once every seat that is not held/flooded has slapped and ``settle_ns`` has
passed since the last slap (room for events still in flight), or ``settle_ns`` after
``timeout_ns`` has passed since the first slap. Notices are provisional descriptions of
each event as it arrives; the verdict is computed from all events at close.
See ``docs/slap-timing.md`` for the resolution bounds and the reasoning.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from companion.errors import ConfigError
from companion.events import PressEvent
from companion.slap.verdict import Verdict, decide

#: Honest ordering bound per press source, in ns (see docs/slap-timing.md).
DEFAULT_RESOLUTION_NS: Mapping[str, int] = MappingProxyType({
    "gpio": 1_000_000,             # kernel edge timestamps (lgpio)
    "gpio-userspace": 10_000_000,  # stamped in a userspace callback (RPi.GPIO, native)
    "pad": 100_000,                # Pico: one GPIO_IN read stamped with the 64-bit µs timer
    "keyboard": 30_000_000,        # key events through X/SDL and Kivy
    "mock": 1_000_000,             # gpiozero MockFactory and synthetic streams
})

#: Every ``Notice.kind`` the arbiter emits.
NOTICE_KINDS = frozenset({
    "slap", "bounce", "mash", "false_slap", "late", "unknown_seat", "unknown_source",
    "held", "stuck", "backwards", "orphan_release", "flood", "invalid", "verdict",
})
# Kinds reported once per seat per round (or per disarmed spell): they come in trains.
_ONCE = frozenset({"bounce", "mash", "late", "unknown_seat", "unknown_source", "backwards",
                   "orphan_release", "flood", "invalid"})
_MAX_ONCE_KEYS = 256


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the table may want to see: ``kind`` (see ``NOTICE_KINDS``), the seat
    and timestamp concerned (``None`` when not about one), and a sentence for the screen."""

    kind: str
    seat: int | None
    t_ns: int | None
    text: str


def _whole(name: str, value: object, lo: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < lo:
        raise ConfigError(f"ArbiterConfig.{name} must be a whole number >= {lo}, not {value!r}")
    return value


@dataclass(frozen=True)
class ArbiterConfig:
    """Tuning of the arbiter, all in ns; ``ConfigError`` names the field at fault.

    ``holdoff_ns``: edges of a seat within this after another edge are bounce.
    ``timeout_ns``: the round closes this long after the first slap at the latest.
    ``stuck_ns``: a press held longer than this is reported as stuck.
    ``settle_ns``: how long a stamped event may take to reach the arbiter; a complete
    round closes this long after its last slap. ``max_edges``: edges kept per seat per
    round (a flood beyond it leaves the seat untimed if no slap was found among them).
    ``resolution_ns``: press source name -> honest ordering bound.
    """

    holdoff_ns: int = 20_000_000
    timeout_ns: int = 2_500_000_000
    stuck_ns: int = 1_500_000_000
    settle_ns: int = 20_000_000
    max_edges: int = 64
    resolution_ns: Mapping[str, int] = field(
        default_factory=lambda: dict(DEFAULT_RESOLUTION_NS), hash=False)

    def __post_init__(self) -> None:
        _whole("holdoff_ns", self.holdoff_ns, 0)
        _whole("timeout_ns", self.timeout_ns, 1)
        _whole("stuck_ns", self.stuck_ns, 1)
        _whole("settle_ns", self.settle_ns, 0)
        _whole("max_edges", self.max_edges, 8)
        if self.holdoff_ns >= self.timeout_ns:
            raise ConfigError(f"ArbiterConfig.holdoff_ns ({self.holdoff_ns}) must be shorter "
                              f"than timeout_ns ({self.timeout_ns})")
        if not isinstance(self.resolution_ns, Mapping) or not self.resolution_ns:
            raise ConfigError("ArbiterConfig.resolution_ns must map at least one source name "
                              f"to a bound in ns, not {self.resolution_ns!r}")
        for name, bound in self.resolution_ns.items():
            if not isinstance(name, str) or not name:
                raise ConfigError(f"ArbiterConfig.resolution_ns: bad source name {name!r}")
            _whole(f"resolution_ns[{name!r}]", bound, 0)
        object.__setattr__(self, "resolution_ns", MappingProxyType(dict(self.resolution_ns)))

    def bound_for(self, source: str) -> int:
        """The source's bound; an unknown source gets the widest one (never a guess)."""
        return self.resolution_ns.get(source, max(self.resolution_ns.values()))

    def round_bound(self, sources: Iterable[str]) -> int:
        """Bound for a round: the source's own, or with mixed sources (two clocks) the sum
        of the two widest, since each side may be off by its own bound."""
        bounds = sorted((self.bound_for(s) for s in set(sources)), reverse=True)
        return sum(bounds[:2])


# One seat's edges: (t_ns, pressed, source), sorted by time.
_Edge = tuple[int, bool, str]


class _Seat:
    """Per-seat edge memory. ``edges`` holds the round's window (or, disarmed, the last
    holdoff); ``before`` is the latest edge older than everything in ``edges``."""

    __slots__ = ("edges", "before", "overflow", "slap", "dirty", "latest_t", "latest_pressed",
                 "stuck_t")

    def __init__(self) -> None:
        self.edges: list[_Edge] = []
        self.before: _Edge | None = None
        self.overflow = False
        self.slap: _Edge | None = None
        self.dirty = False
        self.latest_t: int | None = None
        self.latest_pressed = False
        self.stuck_t: int | None = None

    def prev_edge(self, t: int) -> _Edge | None:
        """The latest edge stamped strictly before ``t``."""
        i = bisect_left(self.edges, (t,))
        if i:
            return self.edges[i - 1]
        return self.before if self.before is not None and self.before[0] < t else None

    def push_before(self, edge: _Edge) -> None:
        if self.before is None or edge[0] > self.before[0]:
            self.before = edge


def _earliest_press(seat: _Seat, arm_ns: int, holdoff_ns: int) -> _Edge | None:
    """The earliest press edge at/after ``arm_ns`` with no other edge in the holdoff
    before it. Depends only on the set of edges, so arrival order cannot change it."""
    prev = seat.before[0] if seat.before is not None else None
    cur = prev
    for edge in seat.edges:
        t = edge[0]
        if t != cur:
            prev, cur = cur, t
        if edge[1] and t >= arm_ns and (prev is None or t - prev > holdoff_ns):
            return edge
    return None


class SlapArbiter:
    """Orders the slaps of one Stop Time round at a time; see the module docstring."""

    def __init__(self, seats: Iterable[int], config: ArbiterConfig | None = None) -> None:
        self.config = config if config is not None else ArbiterConfig()
        if not isinstance(self.config, ArbiterConfig):
            raise ConfigError(f"SlapArbiter config must be an ArbiterConfig, not {config!r}")
        seat_list = list(seats)
        for s in seat_list:
            if not isinstance(s, int) or isinstance(s, bool) or s < 1:
                raise ConfigError(f"SlapArbiter seats: {s!r} is not a seat number (1 or more)")
        if not seat_list or len(set(seat_list)) != len(seat_list):
            raise ConfigError(f"SlapArbiter seats must be distinct and not empty: {seat_list}")
        self.seats: tuple[int, ...] = tuple(sorted(seat_list))
        self._st = {s: _Seat() for s in self.seats}
        self._armed = False
        self._arm_ns = 0
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
        slaps = self._slaps() if self._armed else {}
        return min((e[0] for e in slaps.values()), default=None)

    # -- the round --------------------------------------------------------------------
    def arm(self, now_ns: int) -> list[Notice]:
        """Ready for a round from ``now_ns`` on (any open round is abandoned). Returns a
        "held" notice for each seat whose button is down now: it is left out of the round
        unless released before the first slap."""
        if not isinstance(now_ns, int) or isinstance(now_ns, bool):
            raise ConfigError(f"arm(now_ns): now_ns must be whole ns, not {now_ns!r}")
        self._armed, self._arm_ns = True, now_ns
        self._once.clear()
        window = now_ns - self.config.holdoff_ns
        out = []
        for seat, st in self._st.items():
            keep = bisect_left(st.edges, (window,))
            for edge in st.edges[:keep]:
                st.push_before(edge)
            del st.edges[:keep]
            st.overflow, st.dirty, st.slap = False, True, None
            if self._held_at_arm(st):
                out.append(Notice("held", seat, now_ns, f"Seat {seat}: button held down; left "
                                  "out of this round unless released before the first slap"))
        return out

    def disarm(self) -> None:
        """Stop timing; an open round is abandoned without a verdict."""
        self._armed = False
        self._once.clear()

    def feed(self, event: PressEvent) -> list[Notice]:
        """Take one edge (any order, any thread's stamp) and describe it. Never raises."""
        if not (isinstance(event, PressEvent) and isinstance(event.seat, int)
                and isinstance(event.t_ns, int) and isinstance(event.source, str)
                and not isinstance(event.seat, bool) and not isinstance(event.t_ns, bool)):
            return self._note("invalid", None, None, f"Ignored something that is not a valid "
                              f"press event: {event!r:.80}")
        seat, t, cfg = event.seat, event.t_ns, self.config
        st = self._st.get(seat)
        if st is None:
            return self._note("unknown_seat", seat, t, f"Seat {seat}: not in play, ignored")
        out: list[Notice] = []
        if event.source not in cfg.resolution_ns:
            out += self._note("unknown_source", seat, t, f"Seat {seat}: unknown press source "
                              f"{event.source!r}, timed with the widest bound "
                              f"({cfg.bound_for(event.source) / 1e6:.3f} ms)")
        if st.latest_t is not None and t < st.latest_t - cfg.holdoff_ns:
            out += self._note("backwards", seat, t, f"Seat {seat}: event stamped "
                              f"{(st.latest_t - t) / 1e6:.3f} ms before an earlier one; "
                              "ranked by its stamp")
        prev = st.prev_edge(t)
        bounce = prev is not None and t - prev[0] <= cfg.holdoff_ns
        if not event.pressed:
            if prev is None or not prev[1]:
                out += self._note("orphan_release", seat, t,
                                  f"Seat {seat}: release without a press, ignored")
        elif bounce:
            out += self._note("bounce", seat, t, f"Seat {seat}: contact bounce ignored")
        else:
            out += self._classify_press(seat, st, t)
        self._store(seat, st, (t, bool(event.pressed), event.source), out)
        return out

    def poll(self, now_ns: int) -> Verdict | None:
        """Call once per frame. Returns the ``Verdict`` when the round closes (then the
        arbiter is disarmed), else ``None``. Stuck buttons go to ``take_notices()``."""
        cfg = self.config
        for seat, st in self._st.items():
            if (st.latest_pressed and st.latest_t is not None and st.stuck_t != st.latest_t
                    and now_ns - st.latest_t > cfg.stuck_ns):
                st.stuck_t = st.latest_t
                self._outbox.append(Notice("stuck", seat, st.latest_t, f"Seat {seat}: button "
                                           f"held down for over {cfg.stuck_ns / 1e9:g} s"))
        if not self._armed:
            return None
        slaps = self._slaps()
        if not slaps:
            return None
        first = min(e[0] for e in slaps.values())
        deadline = first + cfg.timeout_ns
        counted = {s: e for s, e in slaps.items() if e[0] <= deadline}
        excluded = self._excluded(first, counted)
        close_at = deadline + cfg.settle_ns
        if all(s in counted or s in excluded for s in self.seats):
            close_at = min(close_at, max(e[0] for e in counted.values()) + cfg.settle_ns)
        if now_ns < close_at:
            return None
        sources = [e[2] for e in counted.values()]
        verdict = decide({s: e[0] for s, e in counted.items()}, self.seats,
                         cfg.round_bound(sources), "+".join(sorted(set(sources))),
                         excluded=excluded)
        self._armed, self._closed, self.last_verdict = False, (self._arm_ns, now_ns), verdict
        self._once.clear()
        self._outbox.append(Notice("verdict", verdict.picker, now_ns, verdict.summary()))
        return verdict

    def take_notices(self) -> list[Notice]:
        """Notices raised by ``poll`` since the last call (stuck buttons, the verdict)."""
        out, self._outbox = self._outbox, []
        return out

    # -- internals --------------------------------------------------------------------
    def _note(self, kind: str, seat: int | None, t: int | None, text: str) -> list[Notice]:
        if kind in _ONCE:
            key = (kind, seat)
            if key in self._once or len(self._once) >= _MAX_ONCE_KEYS:
                return []
            self._once.add(key)
        return [Notice(kind, seat, t, text)]

    def _classify_press(self, seat: int, st: _Seat, t: int) -> list[Notice]:
        if not self._armed:
            if self._closed is not None and self._closed[0] <= t <= self._closed[1]:
                return self._note("late", seat, t, f"Seat {seat}: slap arrived after the "
                                  "verdict, not counted")
            return [Notice("false_slap", seat, t, f"Seat {seat}: false slap (nothing armed)")]
        if t < self._arm_ns:
            return [Notice("false_slap", seat, t, f"Seat {seat}: false slap (before the round "
                           "was armed)")]
        mine = self._seat_slap(st)
        if mine is not None and mine[0] < t:
            return self._note("mash", seat, t, f"Seat {seat}: repeated press ignored")
        first = self.first_slap_ns
        if first is not None and t > first + self.config.timeout_ns:
            return self._note("late", seat, t, f"Seat {seat}: slap after the round's "
                              f"{self.config.timeout_ns / 1e9:g} s timeout, not counted")
        delay = 0 if first is None or t < first else t - first
        return [Notice("slap", seat, t, f"Seat {seat}: slap at +{delay / 1e6:.3f} ms")]

    def _store(self, seat: int, st: _Seat, edge: _Edge, out: list[Notice]) -> None:
        t, cfg = edge[0], self.config
        if st.latest_t is None or t >= st.latest_t:
            st.latest_t, st.latest_pressed = t, edge[1]
        st.dirty = True
        window = self._arm_ns - cfg.holdoff_ns if self._armed else None
        if (window is not None and t < window) or (st.before is not None and t <= st.before[0]):
            st.push_before(edge)
            return
        insort(st.edges, edge)
        if self._armed:
            if len(st.edges) > cfg.max_edges:
                st.overflow = True
                if st.edges.pop() is edge:
                    out += self._note("flood", seat, t, f"Seat {seat}: more than "
                                      f"{cfg.max_edges} edges this round, the rest ignored")
            return
        # Disarmed: keep only what bounce detection of the next edge needs.
        horizon = st.latest_t - cfg.holdoff_ns
        drop = max(bisect_left(st.edges, (horizon,)), len(st.edges) - cfg.max_edges)
        for old in st.edges[:drop]:
            st.push_before(old)
        del st.edges[:drop]

    def _seat_slap(self, st: _Seat) -> _Edge | None:
        if st.dirty:
            st.slap = _earliest_press(st, self._arm_ns, self.config.holdoff_ns)
            st.dirty = False
        return st.slap

    def _slaps(self) -> dict[int, _Edge]:
        out = {}
        for seat, st in self._st.items():
            edge = self._seat_slap(st)
            if edge is not None:
                out[seat] = edge
        return out

    def _held_at_arm(self, st: _Seat) -> bool:
        """Was the button down at the arm time (its latest edge before it a press)?"""
        i = bisect_left(st.edges, (self._arm_ns,))
        last = st.edges[i - 1] if i else st.before
        return last is not None and last[1]

    def _excluded(self, first: int, counted: Mapping[int, _Edge]) -> tuple[int, ...]:
        """Seats without a counted slap that were still held when the round opened, or
        whose flood of edges hid any slap."""
        out = []
        for seat, st in self._st.items():
            if seat in counted:
                continue
            flooded = st.overflow and self._seat_slap(st) is None
            held = self._held_at_arm(st) and not any(
                not e[1] and self._arm_ns <= e[0] < first for e in st.edges)
            if flooded or held:
                out.append(seat)
        return tuple(out)
