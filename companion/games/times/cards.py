"""Times: the nine TIMES card kinds, their order, and how one reveal of cards resolves.

Part of the Times rules engine (``companion.games.times``); pure, no state of its own.

* A card is a colour (pink = century column, blue = decade, yellow = year) and a size
  (5, 3 or 1 spaces). In actions and logs it is the code ``"pink5"`` ... ``"yellow1"``.
* ``CARD_CODES`` lists the nine codes in the order the players take their turns: pink
  before blue before yellow, and within a colour the larger marker first.
* ``resolve_play`` takes what every seat revealed for one event and says who is still
  in (in turn order) and whose cards cancelled because someone showed the same card.

Wiring: ``times.apply`` calls ``parse_card`` on each revealed code and ``resolve_play``
on the lot; the UI uses ``CARD_CODES``/``card_label`` for buttons and captions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from companion.errors import MalformedAction


class PlayOutcome(StrEnum):
    """How one reveal of cards goes on (see ``resolve_play``)."""

    TURNS = "turns"  # two or more cards stand: players place or doubt in card order
    ALL_CANCELLED = "all_cancelled"  # every card met its twin: everyone plays again
    LONE_CARD = "lone_card"  # one card stands: its owner discards it, everyone plays again


#: Column of each colour on the Time Table.
COLOUR_COLUMN = {"pink": "century", "blue": "decade", "yellow": "year"}
COLOURS = ("pink", "blue", "yellow")
SIZES = (5, 3, 1)

#: The nine card codes in turn order (pink 5 first, yellow 1 last).
CARD_CODES: tuple[str, ...] = tuple(f"{c}{s}" for c in COLOURS for s in SIZES)

#: Cards in the box: 30 TIMES cards of nine kinds; six are dealt to each player, so
#: at most five players (the box also has five figures).
DECK_SIZE = 30
HAND_SIZE = 6


@dataclass(frozen=True, slots=True)
class Card:
    """One TIMES card: ``colour`` in COLOURS and ``size`` in SIZES; ``code`` is the
    card's code (``"pink5"``), derived once when the card is made."""

    colour: str
    size: int
    code: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", f"{self.colour}{self.size}")

    @property
    def column(self) -> str:
        """The Time Table column this card's marker goes in."""
        return COLOUR_COLUMN[self.colour]

    @property
    def rank(self) -> int:
        """Position in the turn order: 0 for pink 5 ... 8 for yellow 1."""
        return RANKS[self.code]


#: Each code's position in the turn order, and the card of each exact code (a logged
#: code is nearly always one of these nine strings: looked up, not parsed again).
RANKS: dict[str, int] = {code: i for i, code in enumerate(CARD_CODES)}
CARDS: dict[str, Card] = {f"{c}{s}": Card(c, s) for c in COLOURS for s in SIZES}


def parse_card(code: object, seat: int | None = None) -> Card:
    """The card for a code such as ``"blue3"``; MalformedAction naming the seat otherwise."""
    if type(code) is str and (card := CARDS.get(code)) is not None:
        return card
    who = f"seat {seat}: " if seat is not None else ""
    if not isinstance(code, str):
        raise MalformedAction(f"{who}a card is a code like 'pink5', not {code!r}")
    text = code.strip().lower()
    for colour in COLOURS:
        if text.startswith(colour):
            size = text[len(colour) :]
            if size in {"5", "3", "1"}:
                return Card(colour, int(size))
    raise MalformedAction(f"{who}there is no TIMES card {code!r} (cards: {', '.join(CARD_CODES)})")


def card_label(code: str) -> str:
    """A caption for screens: ``"pink5"`` -> ``"Pink 5"``."""
    card = parse_card(code)
    return f"{card.colour.capitalize()} {card.size}"


def next_card(card: Card) -> Card | None:
    """The card directly after ``card`` in turn order (None after yellow 1)."""
    rank = card.rank
    return parse_card(CARD_CODES[rank + 1]) if rank + 1 < len(CARD_CODES) else None


@dataclass(frozen=True, slots=True)
class Resolution:
    """What one reveal of cards leads to.

    ``active``: seats whose cards stand, in turn order; ``cancelled``: seats whose
    cards met an identical card and go back to their hands (those players sit this
    event out, or everyone plays again when nothing, or one lone card, stands).
    """

    outcome: PlayOutcome
    active: tuple[int, ...]
    cancelled: tuple[int, ...]


def resolve_play(cards: Mapping[int, Card]) -> Resolution:
    """Cancel identical cards, order the rest; ``cards`` maps seat -> revealed card."""
    codes = [(seat, card.code) for seat, card in cards.items()]
    shown = [code for _, code in codes]  # a handful of cards: counting beats a Counter
    cancelled = tuple(sorted([seat for seat, code in codes if shown.count(code) > 1]))
    # Standing cards are all different, so the rank alone orders them.
    standing = sorted([(RANKS[code], seat) for seat, code in codes if shown.count(code) == 1])
    active = tuple([seat for _, seat in standing])
    if not active:
        outcome = PlayOutcome.ALL_CANCELLED
    elif len(active) == 1:
        outcome = PlayOutcome.LONE_CARD
    else:
        outcome = PlayOutcome.TURNS
    return Resolution(outcome, active, cancelled)
