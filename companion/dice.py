"""Fair six-sided dice for the table, and a check that they are fair.

The rules engines never roll: a die face is a field of the action, so a logged game
replays identically. The *session* rolls, here, and writes the faces into the action:

    from companion import dice
    face = dice.roll(1)[0]                       # the big captain button
    action = {"type": "travel", "die": face, "red": False}
    faces = dice.roll(4)                         # a test with four action dice
    action = {"type": "test_roll", "faces": list(faces)}

``roll`` draws from the operating system's random source (``secrets.SystemRandom``)
unless a generator is injected (tests pass ``random.Random(seed)``). ``captain_cost``
turns a Time Captain die face into time units. ``chi_square`` and ``chi_square_p`` let a
test (or a "dice health" screen) check a long series of rolls against a fair die.
"""

from __future__ import annotations

import math
import secrets
from collections import Counter
from collections.abc import Iterable
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


def chi_square(faces: Iterable[int], sides: int = SIDES) -> float:
    """Pearson's statistic of the face counts against a fair ``sides``-sided die."""
    counts = Counter(faces)
    bad = [f for f in counts if not (isinstance(f, int) and 1 <= f <= sides)]
    if bad:
        raise ValueError(f"not faces of a {sides}-sided die: {sorted(bad, key=repr)!r}")
    total = sum(counts.values())
    if total == 0:
        raise ValueError("no rolls to test")
    expected = total / sides
    return sum((counts.get(f, 0) - expected) ** 2 / expected for f in range(1, sides + 1))


def chi_square_p(statistic: float, dof: int = SIDES - 1) -> float:
    """Upper tail probability of a chi-square ``statistic`` with ``dof`` degrees of freedom.

    Closed forms of the regularised upper incomplete gamma function for whole and half
    shapes, so no numeric library is needed.
    """
    if dof < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {dof}")
    if statistic <= 0:
        return 1.0
    half = statistic / 2.0
    if dof % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, dof // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) / math.gamma(1.5)  # i = 1: half**0.5 / Gamma(1.5)
    for i in range(1, (dof - 1) // 2 + 1):
        if i > 1:
            term *= half / (i - 0.5)
        total += math.exp(-half) * term
    return min(1.0, total)
