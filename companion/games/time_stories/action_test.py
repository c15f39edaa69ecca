"""T.I.M.E Stories action-dice tests: shields, dice faces, and what one roll does.

Pure functions and frozen records only; ``companion.games.time_stories`` keeps the open
tests in its state and calls ``resolve`` for every ``test_roll`` action, and
``companion.games.time_stories.action_odds`` uses the same helpers (``shields_after``,
``riposte_loss``) so the odds shown before a roll and the outcome after it can never
disagree.

A regular die stands in for an action die: 1-2 skull, 3 blank, 4-5 one hit, 6 two hits.
Each hit removes the leftmost shield still on the card. Shield kinds, in card order:

* ``blank``   - plain difficulty;
* ``skull``   - counts towards the riposte while it is left on the card;
* ``heart``   - left after a roll: each character in the test loses one life point;
* ``tu``      - left after a roll: the group loses one time unit;
* ``special`` - a black shield whose effect the card itself describes (enter it with
  ``damage`` / ``adjust_tu``); it only needs a hit to go.

Riposte: only if the roll (after modifiers) shows at least one skull, count the skulls
rolled plus the skull shields left; every character in the test whose resistance is
below that count loses one life point.

Modifiers: ``extra_dice`` (more faces in the roll, or fewer when negative) and
``turn_to_hit`` (that many dice become one hit each; the engine picks the dice that gain
most: skulls first, then blanks; dice already showing hits are never turned). A
character's own abilities for one characteristic come from the sheet (``Ability``);
the engine adds them to a roll's modifiers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import MalformedAction, RuleError

SHIELD_KINDS = ("blank", "skull", "heart", "tu", "special")
MAX_SHIELDS = 30
MAX_CHARACTERISTIC = 20
MAX_EXTRA_DICE = 20

SKULL, BLANK, HIT, DOUBLE = "skull", "blank", "hit", "double"
#: What each face of a regular die shows, and how many hits each symbol is worth.
FACE_SYMBOL = {1: SKULL, 2: SKULL, 3: BLANK, 4: HIT, 5: HIT, 6: DOUBLE}
SYMBOL_HITS = {SKULL: 0, BLANK: 0, HIT: 1, DOUBLE: 2}


@dataclass(frozen=True, slots=True)
class Test:
    """One open test at a space of the current location.

    ``status`` is ``"ready"`` (the next action is a roll) or ``"rolled"`` (shields are
    left: continue or abandon). ``rolled_turn`` is the turn of the last roll, so the
    engine knows whether the group has already paid for a new turn.
    """

    space: str
    characteristic: str
    characters: tuple[str, ...]
    shields: tuple[str, ...]
    left: tuple[str, ...]
    locked: bool
    status: str = "ready"
    rolls: int = 0
    rolled_turn: int | None = None


@dataclass(frozen=True, slots=True)
class Loss:
    """What one character in the test loses from one roll."""

    character: str
    riposte: int
    hearts: int

    @property
    def total(self) -> int:
        return self.riposte + self.hearts


@dataclass(frozen=True, slots=True)
class RollOutcome:
    """The full effect of one roll; the engine applies it and keeps it for the screen."""

    faces: tuple[int, ...]
    symbols: tuple[str, ...]
    turned: tuple[int, ...]
    hits: int
    skulls: int
    removed: tuple[str, ...]
    left: tuple[str, ...]
    riposte: int
    losses: tuple[Loss, ...]
    tu_cost: int
    cleared: bool




def parse_shields(raw: Any) -> tuple[str, ...]:
    """Validate the card's shields, left to right."""
    if raw is not None and not isinstance(raw, (list, tuple)):
        raise MalformedAction(f"'shields' must be a list in card order, not {raw!r}")
    if not raw:
        raise RuleError("time_stories.no_shields", "Add the card's shields, left to right.")
    if len(raw) > MAX_SHIELDS:
        raise RuleError("time_stories.too_many_shields", "A test has at most {most} shields, "
                        "not {count}.", most=MAX_SHIELDS, count=len(raw))
    for kind in raw:
        if kind not in SHIELD_KINDS:
            raise MalformedAction(f"unknown shield {kind!r}: use one of "
                                  f"{', '.join(SHIELD_KINDS)}")
    return tuple(raw)


def characteristic_value(character: str, characteristics: Mapping[str, int], name: str) -> int:
    """A character's dice for ``name``, or a RuleError saying what is wrong with it."""
    if name not in characteristics:
        raise RuleError("time_stories.lacks_characteristic", "{character} has no {name}: leave "
                        "{character} out of this test.", character=character, name=name)
    return check_characteristic(character, name, characteristics[name])


def check_characteristic(character: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction(f"{character}'s {name} must be a whole number, not {value!r}")
    if not 0 <= value <= MAX_CHARACTERISTIC:
        raise RuleError("time_stories.characteristic_range", "{character}'s {name} must be 0 "
                        "to {most} dice, not {value}.", character=character, name=name,
                        most=MAX_CHARACTERISTIC, value=value)
    return value


def parse_modifiers(raw: Any) -> tuple[int, int]:
    """``(extra_dice, turn_to_hit)`` from a roll's ``modifiers`` object (may be absent).

    ``extra_dice`` may be negative (a card or the company takes dice away); the roll
    itself never has fewer than 0 dice (see ``time_stories.dice_for``)."""
    if raw is None:
        return 0, 0
    if not isinstance(raw, Mapping):
        raise MalformedAction("'modifiers' must be an object with 'extra_dice' and/or "
                              "'turn_to_hit'")
    unknown = sorted(set(raw) - {"extra_dice", "turn_to_hit"})
    if unknown:
        raise MalformedAction(f"unknown modifier(s): {', '.join(map(str, unknown))}")
    values = []
    for key in ("extra_dice", "turn_to_hit"):
        v = raw.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, int):
            raise MalformedAction(f"modifier {key!r} must be a whole number, not {v!r}")
        lo = -MAX_EXTRA_DICE if key == "extra_dice" else 0  # fewer dice: a card, company
        if not lo <= v <= MAX_EXTRA_DICE:
            raise RuleError("time_stories.modifier_range", "{What} must be {lo} to {most}, not "
                            "{value}.", What=_MODIFIER_WORDS[key], lo=lo, most=MAX_EXTRA_DICE,
                            value=v)
        values.append(v)
    return values[0], values[1]


_MODIFIER_WORDS = {"extra_dice": "Extra dice", "turn_to_hit": "Dice turned into hits"}


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` things in figures, the word singular or plural: "1 die", "0 hits"."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def faces_words(faces: Sequence[int]) -> str:
    """The faces rolled as the table reads them: "6", "3 and 5", "1, 3 and 4"."""
    shown = [str(f) for f in faces]
    return " and ".join(shown) if len(shown) < 3 else ", ".join(shown[:-1]) + " and " + shown[-1]


def dice_words(n: int) -> str:
    """A number of dice as the table says it: "no dice", "one die", "3 dice"."""
    return "no dice" if n == 0 else "one die" if n == 1 else f"{n} dice"


def turn_dice(symbols: Sequence[str], n: int) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Turn up to ``n`` dice into one hit each: skulls first, then blanks, left to right."""
    order = [i for i, s in enumerate(symbols) if s == SKULL]
    order += [i for i, s in enumerate(symbols) if s == BLANK]
    turned = tuple(sorted(order[:n]))
    out = list(symbols)
    for i in turned:
        out[i] = HIT
    return tuple(out), turned


def shields_after(left: Sequence[str], hits: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(removed, still_left)`` after ``hits`` hits, removing from the left."""
    k = min(hits, len(left))
    return tuple(left[:k]), tuple(left[k:])


def riposte_count(skulls: int, left: Sequence[str], riposte_on_clear: bool = True) -> int:
    """Skulls that the riposte counts (0 when it does not happen at all)."""
    if skulls <= 0 or (not left and not riposte_on_clear):
        return 0
    return skulls + sum(1 for s in left if s == "skull")


def riposte_loss(resistance: int, count: int) -> int:
    """One life point lost when the riposte count beats the resistance."""
    return 1 if count > resistance else 0


def resolve(
    left: Sequence[str],
    faces: Sequence[int],
    resistances: Sequence[tuple[str, int]],
    turn_to_hit: int = 0,
    riposte_on_clear: bool = True,
) -> RollOutcome:
    """Everything one roll does to the shields still ``left`` and to the characters."""
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or face not in FACE_SYMBOL:
            raise MalformedAction(f"a die face is 1 to 6, not {face!r}")
    if turn_to_hit > len(faces):
        raise RuleError("time_stories.turn_too_many", "{Turn} cannot become hits with {dice} "
                        "rolled.", Turn=dice_words(turn_to_hit).capitalize(),
                        dice=dice_words(len(faces)))
    symbols = tuple([FACE_SYMBOL[f] for f in faces])
    turned: tuple[int, ...] = ()
    if turn_to_hit:
        symbols, turned = turn_dice(symbols, turn_to_hit)
    hits = sum([SYMBOL_HITS[s] for s in symbols])
    skulls = symbols.count(SKULL)
    removed, still = shields_after(left, hits)
    count = riposte_count(skulls, still, riposte_on_clear)
    hearts = still.count("heart")
    losses = tuple([Loss(name, 1 if count > res else 0, hearts)
                    for name, res in resistances])  # riposte_loss, inline
    return RollOutcome(tuple(faces), symbols, turned, hits, skulls, removed, still, count,
                        losses, still.count("tu"), not still)


def describe(outcome: RollOutcome) -> str:
    """One line for the log and the screen."""
    parts = [f"{counted(outcome.hits, 'hit')}, {counted(outcome.skulls, 'skull')}"]
    if outcome.turned:
        turned = len(outcome.turned)
        parts.append(f"{counted(turned, 'die', 'dice')} turned into "
                     f"{'a hit' if turned == 1 else 'hits'}")
    parts.append(f"removed {counted(len(outcome.removed), 'shield')}")
    parts.append("test cleared" if outcome.cleared
                 else f"{counted(len(outcome.left), 'shield')} left")
    if outcome.riposte:
        parts.append(f"riposte {counted(outcome.riposte, 'skull')}")
    return ", ".join(parts)
