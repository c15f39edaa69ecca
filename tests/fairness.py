"""Is a die fair? Pearson's chi-square statistic of its faces and its tail probability,
for the dice tests (tests/test_dice.py); nothing in the product needs them."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from companion.dice import SIDES


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
