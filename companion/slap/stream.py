"""A press source the slap arbiter waits for before it closes a round, and how far its
stream is known to be complete.

What it is for: ``SlapArbiter.expect(name, sources, label, seats)`` makes one per source
whose events may arrive late (the Pico pad: its reports are resent until acknowledged,
its link may stall or be unplugged); ``SlapArbiter.confirm(name, up_to_ns)`` moves its
watermark ``mark``: every edge of it stamped at or before ``mark`` (the arbiter's clock)
has been fed. The host's own stream (GPIO, keyboard) needs none: it is complete up to
the frame's drain less ``settle_ns``. Pure data.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True, eq=False)
class Stream:
    name: str
    sources: frozenset[str] = frozenset()  # ``PressEvent.source`` values it brings
    label: str = ""  # for the sentence: "The slap pad went quiet during the round"
    seats: frozenset[int] = frozenset()  # the seats it may serve
    mark: int | None = None  # complete up to this stamp
    expected: bool = False  # the current round waits for it
