"""Stop Time slap timing for Crazy Time: who slapped last, honestly.

``SlapArbiter`` (pure state machine) turns seat-button ``PressEvent``s into one
``Verdict`` per round; ``decide()`` and ``false_alarm()`` are the pure rules it uses,
callable on their own by the Pico pad link or a log replay; ``companion.slap.chatter``
tells a chattering switch from a hand. Wiring and timing rules are in
``companion.slap.arbiter`` and ``docs/slap-timing.md``.
"""

from companion.slap.arbiter import (
    DEFAULT_RESOLUTION_NS,
    NOTICE_KINDS,
    ArbiterConfig,
    Notice,
    SlapArbiter,
)
from companion.slap.verdict import (
    CASE_FALSE_ALARM,
    CASE_SYNC,
    RankEntry,
    SlapFacts,
    Verdict,
    decide,
    facts_from_json,
    false_alarm,
)

__all__ = [
    "CASE_FALSE_ALARM",
    "CASE_SYNC",
    "DEFAULT_RESOLUTION_NS",
    "NOTICE_KINDS",
    "ArbiterConfig",
    "Notice",
    "RankEntry",
    "SlapArbiter",
    "Verdict",
    "SlapFacts",
    "decide",
    "facts_from_json",
    "false_alarm",
]
