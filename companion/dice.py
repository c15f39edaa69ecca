"""Fair six-sided dice for the table.

The rules engines never roll: a die face is a field of the action, so a logged game
replays identically. The *session* rolls, here, and writes the faces into the action:

    from companion import dice
    face = dice.roll(1)[0]                       # the big captain button
    action = {"type": "travel", "die": face, "red": False}
    faces = dice.roll(4)                         # a test with four action dice
    action = {"type": "test_roll", "faces": list(faces)}

``roll`` draws from the operating system's random source (``secrets.SystemRandom``)
unless a generator is injected (tests pass ``random.Random(seed)``). ``captain_cost``
turns a Time Captain die face into time units. Whether the dice are fair is checked by
the tests (tests/fairness.py: a chi-square test of long series of rolls).
"""

from __future__ import annotations

import secrets
from typing import Protocol

from companion.errors import MalformedAction

SIDES = 6
MAX_DICE = 100

_SYSTEM = secrets.SystemRandom()


class Rng(Protocol):
    def randrange(self, start: int, stop: int) -> int: ...


def roll(n: int, rng: Rng | None = None) -> tuple[int, ...]:
    """Roll ``n`` six-sided dice; faces 1..6, from the OS random source by default."""
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_DICE:
        raise ValueError(f"can roll 0 to {MAX_DICE} dice, not {n!r}")
    source = _SYSTEM if rng is None else rng
    faces = tuple(source.randrange(1, SIDES + 1) for _ in range(n))
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= SIDES:
            raise ValueError(f"the random source gave {face!r}, not a face 1..{SIDES}")
    return faces


def captain_cost(face: int) -> int:
    """Time units shown by a Time Captain die face: 1 -> 1, 2..5 -> 2, 6 -> 3."""
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= SIDES:
        raise MalformedAction(f"a Time Captain die shows 1 to 6, not {face!r}")
    if face == 1:
        return 1
    if face == 6:
        return 3
    return 2
