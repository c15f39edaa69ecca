"""T.I.M.E Stories character sheets: the receptacle cards, as the engine reads them.

A sheet gives a character's life points, resistance and dice per characteristic; it may
also say how those dice change with company (``alone`` in a space, ``together`` with
every other living character: Madeleine in the Asylum example) and carry abilities that
apply to one characteristic only (Marie turns a die into a hit on Glibness tests).
``parse_characters`` checks the sheets of a ``set_characters`` / ``start_run`` action or
of the setup: a value of the wrong type is a ``MalformedAction``; a missing name, a
number out of range or a name used twice is a ``RuleError`` in the table's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import Player
from companion.games.time_stories import action_test as at

MAX_CHARACTERS = 4
MAX_LIFE = 20
REVIVAL_TU = 7  # a dead character comes back this many TU after dying


@dataclass(frozen=True, slots=True)
class Ability:
    """A receptacle's ability that changes the rolls of one characteristic only: that
    many dice turned into one hit each (Marie on Glibness), or extra dice."""

    characteristic: str
    turn_to_hit: int = 0
    extra_dice: int = 0


@dataclass(frozen=True, slots=True)
class Character:
    """A receptacle. ``characteristics`` are the dice of the card; ``alone`` and
    ``together`` are the values the card gives instead when the character is alone in
    a space, or shares it with every other living character (empty: no change)."""

    name: str
    seat: int
    max_life: int
    life: int
    resistance: int
    characteristics: tuple[tuple[str, int], ...]
    tu_at_death: int | None = None
    alone: tuple[tuple[str, int], ...] = ()
    together: tuple[tuple[str, int], ...] = ()
    abilities: tuple[Ability, ...] = ()

    def dice(self, characteristic: str, company: str = "") -> int:
        """Dice for ``characteristic`` in ``company`` ("alone", "together" or "")."""
        changed = self.alone if company == "alone" else \
            self.together if company == "together" else ()
        for name, dice in changed:  # a few pairs: no dict to build
            if name == characteristic:
                return dice
        for name, dice in self.characteristics:
            if name == characteristic:
                return dice
        raise KeyError(characteristic)

    @property
    def dead(self) -> bool:
        return self.life <= 0

    @property
    def revives_at(self) -> int | None:
        """TU left at which this dead character comes back, None if not in this run."""
        if self.tu_at_death is None or self.tu_at_death - REVIVAL_TU < 1:
            return None
        return self.tu_at_death - REVIVAL_TU


def parse_characters(raw: Any, players: tuple[Player, ...]) -> tuple[Character, ...]:
    """Validate receptacle sheets: name, player_seat, life, resistance, characteristics."""
    if not isinstance(raw, (list, tuple)):
        raise MalformedAction(f"'characters' must be a list of character sheets, not {raw!r}")
    if not 1 <= len(raw) <= MAX_CHARACTERS:
        raise RuleError("time_stories.character_count", "A run has 1 to {most} characters, not "
                        "{count}.", most=MAX_CHARACTERS, count=len(raw))
    seats = {p.seat for p in players}
    out: list[Character] = []
    for i, c in enumerate(raw):
        if not isinstance(c, Mapping):
            raise MalformedAction(f"character {i + 1} must be an object, not {c!r}")
        name = c.get("name")
        if name is not None and not isinstance(name, str):
            raise MalformedAction(f"character {i + 1}: 'name' must be text, not {name!r}")
        seat = c.get("player_seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in seats:
            raise MalformedAction(f"character {i + 1}'s player_seat {seat!r} is not a "
                                  f"player's seat {sorted(seats)}")
        if name is None or not name.strip():
            raise RuleError("time_stories.character_name", "{player}'s character needs a "
                            "name.", player=next(p.name for p in players if p.seat == seat))
        name = name.strip()
        stats = {}
        for key, lo in (("life", 1), ("resistance", 0)):
            v = c.get(key)
            if isinstance(v, bool) or not isinstance(v, int):
                raise MalformedAction(f"{name}'s {key} must be a whole number, not {v!r}")
            if not lo <= v <= MAX_LIFE:
                raise RuleError("time_stories.sheet_range", "{name}'s {what} must be {lo} to "
                                "{hi}, not {value}.", name=name,
                                what="life points" if key == "life" else key, lo=lo,
                                hi=MAX_LIFE, value=v)
            stats[key] = v
        chars = c.get("characteristics", {})
        if not isinstance(chars, Mapping):
            raise MalformedAction(f"{name}'s characteristics must be an object of name: dice")
        for k, v in chars.items():
            if not isinstance(k, str) or not k.strip():
                raise RuleError("time_stories.characteristic_name", "{name} has a "
                                "characteristic without a name.", name=name)
            at.check_characteristic(name, k, v)
        company = {key: _company(name, c, key, chars) for key in ("alone", "together")}
        out.append(Character(name, seat, stats["life"], stats["life"], stats["resistance"],
                             tuple(sorted(chars.items())), alone=company["alone"],
                             together=company["together"],
                             abilities=_abilities(name, c.get("abilities"), chars)))
    lowered = [c.name.lower() for c in out]
    twice = next((c.name for c in out if lowered.count(c.name.lower()) > 1), None)
    if twice is not None:
        raise RuleError("time_stories.same_character_name", "Two characters are both called "
                        "{name}: give each its own name.", name=twice)
    return tuple(out)


def _company(name: str, sheet: Mapping[str, Any], key: str,
             chars: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """The characteristics a sheet changes when its character is ``alone`` in a space or
    ``together`` with every other character: a subset of its own characteristics."""
    raw = sheet.get(key) or {}
    if not isinstance(raw, Mapping):
        raise MalformedAction(f"{name}'s {key!r} must be an object of name: dice, not {raw!r}")
    for k, v in raw.items():
        if k not in chars:
            raise RuleError("time_stories.company_unknown", "{name} has no {what} to change "
                            "when {when}.", name=name, what=k,
                            when="alone" if key == "alone" else "with everyone")
        at.check_characteristic(name, k, v)
    return tuple(sorted(raw.items()))


def _abilities(name: str, raw: Any, chars: Mapping[str, int]) -> tuple[Ability, ...]:
    """``[{"characteristic": "Glibness", "turn_to_hit": 1}, ...]`` from a sheet."""
    if raw is None:
        return ()
    if not isinstance(raw, (list, tuple)):
        raise MalformedAction(f"{name}'s abilities must be a list, not {raw!r}")
    out = []
    for item in raw:
        if not isinstance(item, Mapping) or set(item) - {"characteristic", "turn_to_hit",
                                                           "extra_dice"}:
            raise MalformedAction(f"{name}'s ability {item!r} is not "
                                  "{'characteristic', 'turn_to_hit', 'extra_dice'}")
        which = item.get("characteristic")
        if not isinstance(which, str):
            raise MalformedAction(f"{name}'s ability {item!r} names no characteristic")
        if which not in chars:
            raise RuleError("time_stories.ability_unknown", "{name}'s ability is for {what}, "
                            "which {name} does not have.", name=name, what=which)
        turn, extra = item.get("turn_to_hit", 0), item.get("extra_dice", 0)
        for v in (turn, extra):
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= at.MAX_EXTRA_DICE:
                raise MalformedAction(f"{name}'s ability {item!r}: dice must be 0 to "
                                      f"{at.MAX_EXTRA_DICE}")
        out.append(Ability(which, turn, extra))
    return tuple(out)
