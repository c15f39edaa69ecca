"""What the pad link hands its owner, and the timers it runs by.

What it is for: the immutable events ``PadLink`` emits (``PadSource`` posts them to the
UI's queue, ``PadBridge`` maps the presses into host time) and ``LinkTiming``, the link's
timers and limits. Import them from ``companion.pad.link`` or ``companion.pad``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.events import PressEvent
from companion.pad.clocksync import ClockMap


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """The pad link's state (one of ``LINK_STATES``) and a sentence for the screen."""

    state: str
    text: str


#: Why a round was voided (``reason``) and what the table is told (``text``): words a
#: player understands, what happened and what to do. The details for a log are ``detail``.
VOID_WORDS = {
    "reboot": "The slap pad restarted: this round does not count. Slap again.",
    "replug": "The slap pad was reconnected and had restarted: this round does not count. "
              "Slap again.",
    "clock_jump": "The slap pad's clock skipped: this round does not count. Slap again.",
    "flood": "The slap pad sent more presses than hands can make (a stuck or shorted "
             "button?): this round does not count. Check the pad's buttons, then slap again.",
    "untimed": "The slap pad could not tell when a slap happened: this round does not count. "
               "Slap again.",
}


@dataclass(frozen=True, slots=True)
class PadRebooted:
    """The pad restarted: its clock and report numbers began again. Void the round.

    ``reason``: ``reboot`` (a new boot answered on the same connection) or ``replug``
    (the pad came back on a new connection as a new boot: unplugged, or its USB dropped
    as it restarted). ``text`` is for the table (``VOID_WORDS``), ``detail`` for a log."""

    text: str
    old_nonce: int = 0
    new_nonce: int = 0
    reason: str = "reboot"
    detail: str = ""
    voids_round: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class PadVoid:
    """The pad's presses cannot be judged honestly for now (``reason``: ``clock_jump``,
    ``flood``, ``untimed``): void a round in progress, show ``text`` (for the table,
    ``VOID_WORDS``); ``detail`` says more, for a log."""

    text: str
    reason: str
    detail: str = ""
    voids_round: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class PadClock:
    """The link's clock map changed; pad presses after this event map with it."""

    map: ClockMap


@dataclass(frozen=True, slots=True)
class PadWatermark:
    """Every report the pad stamped at or before ``pad_ns`` (its clock, boot ``clock[0]``)
    has been delivered before this event: the pad said so in a heartbeat reply with
    nothing left unacknowledged, and no press of it waits in the link. ``PadBridge`` maps
    it into host time for the arbiter (``SlapArbiter.confirm``)."""

    pad_ns: int
    clock: object = None


@dataclass(frozen=True, slots=True)
class PadPress(PressEvent):
    """A ``PressEvent`` with what the arbiter needs to be honest about it.

    ``resolution_ns``: the capture bound of this stamp (the edge happened within it
    before ``t_ns``). ``uncertainty_ns``: how far ``t_ns`` may be from the true time of
    the clock the round is judged in (0 in the pad's own clock; the clock sync's bound
    once ``PadBridge`` has mapped it into host time). ``clock``: stamps with the same
    value differ exactly as the pad measured them (no sync error between them).
    """

    resolution_ns: int = 0
    uncertainty_ns: int = 0
    clock: object = None
    untimed: bool = False  # the link could not place it in time: its level, not its time


@dataclass(frozen=True, slots=True)
class LinkTiming:
    """The link's timers and limits, in host nanoseconds (tests shorten them)."""

    hello_retry_ns: int = 200_000_000
    hello_timeout_ns: int = 2_000_000_000
    heartbeat_ns: int = 247_000_000  # not a round number: no beat against the pad's timers
    lost_after_ns: int = 1_500_000_000
    sync_lost_ns: int = 3_000_000_000  # no heartbeat reply for this long: reconnect
    lamp_retry_ns: int = 200_000_000
    max_uncertainty_ns: int = 2_000_000  # presses wait for a fit at least this tight ...
    hold_ns: int = 3_000_000_000  # ... but no longer than this
    max_delivery_ns: int = 2_000_000_000  # a PRESS is read within this of being sent
    max_report_age_ns: int = 600_000_000_000  # a report older than its send by more: bogus
    flood_per_s: int = 500  # new reports in one second beyond what hands can make
    confirm_after_ns: int = 30_000_000  # a heartbeat this soon after a new report, so
    # the watermark (``PadWatermark``) passes a slap quickly and its round can close
