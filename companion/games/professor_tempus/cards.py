"""Professor Tempus: the 63 numbered cards, a series on a card holder, and who may take it.

Part of the Professor Tempus rules engine (``companion.games.professor_tempus``); pure,
no state of its own.

* ``Card``: a colour (red, purple or joker) and a value 1..25 (jokers carry the odd
  ones), with its hourglasses when the table entered them; ``all_cards`` lists the 63;
  ``parse_card`` reads one from an action (``{"colour", "value"[, "hourglasses"]}``).
* ``Series``: the cards on one holder in front of its owner, going up (+) or down (-),
  and the cards tucked under it.
* ``can_play``: whether a seat may play a card onto a series (direction, colour,
  jokers, the same-value joker rule), with the reason the screens show.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from companion.errors import CompanionError, MalformedAction, RuleError

COLOURS = ("red", "purple", "joker")
MAX_VALUE = 25
DECK = 63  # red 1-25, purple 1-25, joker 1, 3, ..., 25
MAX_HOURGLASSES = 3  # per card
DIRECTIONS = ("+", "-")


@dataclasses.dataclass(frozen=True, slots=True)
class Card:
    """A numbered card; ``hourglasses`` is optional (the table may enter it per card)."""

    colour: str
    value: int
    hourglasses: int | None = None

    @property
    def key(self) -> tuple[str, int]:
        return (self.colour, self.value)

    @property
    def label(self) -> str:
        return f"{self.value} {self.colour}"


def all_cards() -> tuple[Card, ...]:
    """The 63 numbered cards."""
    return tuple(
        Card(c, v) for c in COLOURS for v in range(1, MAX_VALUE + 1) if c != "joker" or v % 2
    )


def parse_card(raw: object) -> Card:
    """A ``Card`` from a Card or ``{"colour", "value"[, "hourglasses"]}``, or RuleError."""
    if isinstance(raw, Card):
        raw = dataclasses.asdict(raw)
    if not isinstance(raw, Mapping):
        raise MalformedAction(f"a card is {{'colour', 'value'}}, not {raw!r}")
    colour, value, glasses = raw.get("colour"), raw.get("value"), raw.get("hourglasses")
    if colour not in COLOURS:
        raise MalformedAction(f"card colour {colour!r} does not exist (red, purple or joker)")
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction(f"card value {value!r} is not a whole number")
    if not 1 <= value <= MAX_VALUE:
        raise RuleError("professor_tempus.no_such_value", "Cards are numbered 1 to {most}, not "
                        "{value}.", most=MAX_VALUE, value=value)
    if colour == "joker" and value % 2 == 0:
        raise RuleError("professor_tempus.even_joker", "There is no {value} joker: jokers carry "
                        "the odd numbers 1 to 25.", value=value)
    if glasses is not None and (isinstance(glasses, bool) or not isinstance(glasses, int)
                                or not 0 <= glasses <= MAX_HOURGLASSES):
        raise RuleError("professor_tempus.card_hourglasses", "The {value} {colour} cannot show "
                        "{glasses} hourglasses (0 to 3).", value=value, colour=colour,
                        glasses=glasses)
    return Card(colour, value, glasses)


@dataclasses.dataclass(frozen=True, slots=True)
class Series:
    """A card holder in front of ``owner`` (a seat): played cards in order, tucked under."""

    owner: int
    direction: str
    cards: tuple[Card, ...]
    tucked: tuple[Card, ...] = ()

    @property
    def last(self) -> Card:
        return self.cards[-1]

    @property
    def colour(self) -> str | None:
        """The colour the next card must have; None after a joker (any colour)."""
        return None if self.last.colour == "joker" else self.last.colour

    @property
    def all_cards(self) -> tuple[Card, ...]:
        return self.cards + self.tucked


def can_play(series: Series, card: Card | Mapping[str, Any], seat: int) -> tuple[bool, str]:
    """Whether ``seat`` may play ``card`` onto ``series`` (and so take it), with a reason."""
    try:
        card = parse_card(card)
    except CompanionError as exc:
        return False, str(exc)
    if series.owner == seat:
        return False, "a player cannot play on the series in front of them"
    last = series.last
    if card.value == last.value and (card.colour == "joker") != (last.colour == "joker"):
        return True, f"same value as the {last.label}: joker rule, takes the series"
    if series.colour is not None and card.colour not in (series.colour, "joker"):
        return False, f"the series is {series.colour}: the {card.label} does not match"
    if series.direction == "+" and card.value <= last.value:
        return False, f"the series goes up (+): play higher than {last.label}"
    if series.direction == "-" and card.value >= last.value:
        return False, f"the series goes down (-): play lower than {last.label}"
    return True, f"follows the {last.label}, takes the series"
