"""The slap arbiter's tuning, its notices, and each press source's honest bound.

What it is for: the values ``SlapArbiter`` (``companion.slap.arbiter``) is built with,
checked once (``ConfigError`` names the field), and the ``Notice`` it hands the screen.
``docs/slap-timing.md`` says where every bound comes from.

How to wire it::

    config = ArbiterConfig(holdoff_ns=20 * MS, resolution_ns={**DEFAULT_RESOLUTION_NS})
    config.bound_for("pad")             # 100_000
    config.round_bound(["gpio", "pad"])  # two clocks: the two widest bounds added
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

from companion.errors import ConfigError

#: Honest ordering bound per press source, in ns (see docs/slap-timing.md).
DEFAULT_RESOLUTION_NS: Mapping[str, int] = MappingProxyType({
    "gpio": 1_000_000,             # kernel edge timestamps (lgpio)
    "gpio-userspace": 10_000_000,  # stamped in a userspace callback (RPi.GPIO, native)
    "pad": 100_000,                # Pico GPIO_IN scan stamped with the 64-bit timer
    "pad-pio": 112,                # Pico PIO edge capture: 14 cycles at 125 MHz, worst case
    "keyboard": 17_000_000,        # keys stamped when the UI thread handles them: a frame
    "mock": 1_000_000,             # gpiozero MockFactory and synthetic streams
})

#: Every ``Notice.kind`` the arbiter emits.
NOTICE_KINDS = frozenset({
    "slap", "bounce", "mash", "false_slap", "late", "unknown_seat", "unknown_source",
    "held", "stuck", "backwards", "orphan_release", "flood", "invalid", "chatter",
    "unsure_start", "verdict", "quiet", "untimed",
})


class Notice(NamedTuple):
    """Something the table may want to see: ``kind`` (see ``NOTICE_KINDS``), the seat
    and timestamp concerned (``None`` when not about one), and a sentence for the screen.
    (An immutable named tuple: the arbiter makes several per round, cheaply.)"""

    kind: str
    seat: int | None
    t_ns: int | None
    text: str


class SlapNotice(Notice):
    """The ``slap`` notice, whose sentence is written when someone reads it: a round
    makes several, and the arbiter must stay cheap. Its fourth item is the delay after
    the round's first slap, in ns; ``text`` reads like any other notice's."""

    __slots__ = ()

    @property
    def text(self) -> str:  # type: ignore[override]
        return f"Seat {self[1]}: slap at +{tuple.__getitem__(self, 3) / 1e6:.3f} ms"

    def __repr__(self) -> str:
        return f"Notice(kind='slap', seat={self[1]}, t_ns={self[2]}, text={self.text!r})"


class VerdictNotice(Notice):
    """The ``verdict`` notice, whose sentence (``Verdict.summary()``) is written when
    someone reads it. Its fourth item is the verdict."""

    __slots__ = ()

    @property
    def text(self) -> str:  # type: ignore[override]
        return tuple.__getitem__(self, 3).summary()

    def __repr__(self) -> str:
        return (f"Notice(kind='verdict', seat={self[1]}, t_ns={self[2]}, "
                f"text={self.text!r})")


def verdict_notice(verdict, t_ns: int) -> Notice:
    """The ``verdict`` notice for ``verdict``, closed at ``t_ns``."""
    return tuple.__new__(VerdictNotice, ("verdict", verdict.picker, t_ns, verdict))


def notice(kind: str, seat: int | None, t_ns: int | None, text: str) -> Notice:
    """A ``Notice`` made without the named tuple's keyword handling (faster)."""
    return tuple.__new__(Notice, (kind, seat, t_ns, text))


def slap_notice(seat: int, t_ns: int, delay_ns: int) -> Notice:
    """The ``slap`` notice of ``seat`` at ``t_ns``, ``delay_ns`` after the first slap."""
    return tuple.__new__(SlapNotice, ("slap", seat, t_ns, delay_ns))


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
    round closes this long after its last slap at the soonest (it covers the Pico pad's
    100 ms resend of a report whose frame was lost, and a busy host's delivery).
    ``quiet_ns``: how long past that a round waits for a source named with
    ``SlapArbiter.expect`` to confirm its stream; then its unheard seats are ``quiet``.
    ``reopen_ns``: how long after its deadline (or verdict) a judged round still takes a
    late slap stamped inside it and redoes its verdict; later ones are only noted.
    ``max_edges``: edges kept per seat per round (a flood beyond it leaves the seat
    untimed if no slap was found among them).
    ``blip_ns``: a press episode whose longest continuous closing is shorter than this
    is no hand (a blip); only sources whose bound is under it can see one
    (``companion.slap.chatter``). One blip of a seat within the round (arm to close)
    leaves it out (``chatter``), a candidate; its notice calls the switch chattering from
    ``chatter_blips`` blips on. The thresholds and where they come from:
    ``docs/slap-timing.md``.
    ``resolution_ns``: press source name -> honest ordering bound.
    """

    holdoff_ns: int = 20_000_000
    timeout_ns: int = 2_500_000_000
    stuck_ns: int = 1_500_000_000
    settle_ns: int = 120_000_000
    quiet_ns: int = 1_000_000_000
    reopen_ns: int = 30_000_000_000
    max_edges: int = 64
    blip_ns: int = 3_000_000
    chatter_blips: int = 2
    resolution_ns: Mapping[str, int] = field(
        default_factory=lambda: dict(DEFAULT_RESOLUTION_NS), hash=False)

    def __post_init__(self) -> None:
        _whole("holdoff_ns", self.holdoff_ns, 0)
        _whole("timeout_ns", self.timeout_ns, 1)
        _whole("stuck_ns", self.stuck_ns, 1)
        _whole("settle_ns", self.settle_ns, 0)
        _whole("quiet_ns", self.quiet_ns, 0)
        _whole("reopen_ns", self.reopen_ns, 0)
        _whole("max_edges", self.max_edges, 8)
        _whole("blip_ns", self.blip_ns, 0)
        _whole("chatter_blips", self.chatter_blips, 2)
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
