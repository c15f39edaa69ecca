"""Exact odds of a T.I.M.E Stories test roll, shown before the dice are thrown.

    from companion.games.time_stories.action_odds import roll_odds
    odds = roll_odds(4, ["blank"] * 4, {"Marie": 2, "Madeleine": 2},
                     lives={"Marie": 2, "Madeleine": 3}, turn_to_hit=1)
    odds.p_clear                    # Fraction: the test is cleared by this roll
    odds.characters["Marie"].p_damage
    odds.as_dict()                  # floats and "n/d" strings for the screen / JSON

The engine wraps this for its own state as ``time_stories.test_odds(state, ...)``.

Method: one die is a weighted choice of four symbols (skull 2/6, blank 1/6, one hit
2/6, two hits 1/6). The distribution of a roll is built die by die by convolution
over counts ``(hits, skulls, blanks)`` with integer weights out of 6**n, so the result is
exact (``fractions.Fraction``) and fast: counts are capped where more makes no
difference (hits at the number of shields, skulls just above the highest resistance
plus the dice that may be turned, blanks at the dice that may be turned), so the work
grows with dice x shields x resistance, never with 6**n. Each count is then resolved
with the very helpers the engine uses (``action_test.shields_after`` and
``riposte_loss``), so odds and outcomes follow one reading of the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from companion.errors import MalformedAction
from companion.games.time_stories.action_test import (
    MAX_SHIELDS,
    SHIELD_KINDS,
    riposte_count,
    riposte_loss,
    shields_after,
)

MAX_DICE = 100

#: (weight out of 6, hits, skulls, blanks) for one die.
_DIE = ((2, 0, 1, 0), (1, 0, 0, 1), (2, 1, 0, 0), (1, 2, 0, 0))


@dataclass(frozen=True, slots=True)
class CharacterOdds:
    """One character's risk from this roll: riposte and black hearts together."""

    name: str
    p_damage: Fraction
    p_death: Fraction | None
    expected_loss: Fraction


@dataclass(frozen=True, slots=True)
class RollOdds:
    dice: int
    shields: tuple[str, ...]
    p_clear: Fraction
    #: ``p_removed[k]``: exactly k shields removed (k = 0 .. number of shields).
    p_removed: tuple[Fraction, ...]
    p_riposte: Fraction
    p_tu_loss: Fraction
    expected_tu_loss: Fraction
    characters: Mapping[str, CharacterOdds]

    def as_dict(self) -> dict:
        """Plain JSON data: each probability as a float and as an exact "n/d" string."""

        def p(x: Fraction | None) -> dict | None:
            return None if x is None else {"p": float(x), "exact": str(x)}

        return {
            "dice": self.dice,
            "shields": list(self.shields),
            "p_clear": p(self.p_clear),
            "p_removed": [p(x) for x in self.p_removed],
            "p_riposte": p(self.p_riposte),
            "p_tu_loss": p(self.p_tu_loss),
            "expected_tu_loss": p(self.expected_tu_loss),
            "characters": {
                name: {
                    "p_damage": p(c.p_damage),
                    "p_death": p(c.p_death),
                    "expected_loss": p(c.expected_loss),
                }
                for name, c in self.characters.items()
            },
        }


def count_distribution(
    dice: int, hit_cap: int, skull_cap: int, blank_cap: int
) -> dict[tuple[int, int, int], int]:
    """Weights (out of 6**dice) of ``(hits, skulls, blanks)``, each count capped."""
    dist = {(0, 0, 0): 1}
    for _ in range(dice):
        nxt: dict[tuple[int, int, int], int] = {}
        for (h, s, b), w in dist.items():
            for weight, dh, ds, db in _DIE:
                key = (min(h + dh, hit_cap), min(s + ds, skull_cap), min(b + db, blank_cap))
                nxt[key] = nxt.get(key, 0) + w * weight
        dist = nxt
    return dist


def _check_int(name: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise MalformedAction(f"{name} must be {lo} to {hi}, not {value!r}")
    return value


def roll_odds(
    dice: int,
    shields: Sequence[str],
    resistances: Mapping[str, int],
    lives: Mapping[str, int] | None = None,
    turn_to_hit: int = 0,
    riposte_on_clear: bool = True,
) -> RollOdds:
    """Exact odds of one roll of ``dice`` action dice against the shields still left.

    ``resistances`` names the characters in the test; ``lives`` (optional) their life
    points now, for the chance of dying; ``turn_to_hit`` dice are turned into one hit
    each (skulls first, then blanks), as the engine does.
    """
    _check_int("the number of dice", dice, 0, MAX_DICE)
    _check_int("turn_to_hit", turn_to_hit, 0, dice)
    shields = tuple(shields)
    if not shields or len(shields) > MAX_SHIELDS or any(s not in SHIELD_KINDS for s in shields):
        raise MalformedAction(f"shields must be 1 to {MAX_SHIELDS} of "
                              f"{', '.join(SHIELD_KINDS)}")
    for name, res in resistances.items():
        _check_int(f"{name}'s resistance", res, 0, 100)
    max_res = max(resistances.values(), default=0)
    dist = count_distribution(dice, len(shields), max_res + 1 + turn_to_hit, turn_to_hit)
    total = 6**dice

    removed_w = [0] * (len(shields) + 1)
    riposte_w = tu_w = tu_sum = 0
    damage_w = dict.fromkeys(resistances, 0)
    death_w = dict.fromkeys(resistances, 0)
    loss_sum = dict.fromkeys(resistances, 0)
    for (h, s, b), w in dist.items():
        turned_skulls = min(turn_to_hit, s)
        turned_blanks = min(turn_to_hit - turned_skulls, b)
        removed, left = shields_after(shields, h + turned_skulls + turned_blanks)
        removed_w[len(removed)] += w
        count = riposte_count(s - turned_skulls, left, riposte_on_clear)
        if count:
            riposte_w += w
        tu = left.count("tu")
        if tu:
            tu_w += w
            tu_sum += w * tu
        hearts = left.count("heart")
        for name, res in resistances.items():
            loss = riposte_loss(res, count) + hearts
            if loss:
                damage_w[name] += w
                loss_sum[name] += w * loss
                if lives is not None and loss >= lives.get(name, 0):
                    death_w[name] += w

    def frac(x: int) -> Fraction:
        return Fraction(x, total)

    characters = {
        name: CharacterOdds(
            name=name,
            p_damage=frac(damage_w[name]),
            p_death=None if lives is None or name not in lives else frac(death_w[name]),
            expected_loss=frac(loss_sum[name]),
        )
        for name in resistances
    }
    return RollOdds(
        dice=dice,
        shields=shields,
        p_clear=frac(removed_w[-1]),
        p_removed=tuple(frac(x) for x in removed_w),
        p_riposte=frac(riposte_w),
        p_tu_loss=frac(tu_w),
        expected_tu_loss=frac(tu_sum),
        characters=characters,
    )
