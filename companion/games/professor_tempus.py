"""Professor Tempus: series referee, hand and draw-pile counter, hourglass score keeper.

The companion sits beside the physical cards. The table reports each turn (a series
opened, a card played onto an opponent's series, a card tucked under one) and, at the
end of each round, the hourglasses on the cards each player collected. This engine
checks every card against the series rules (direction, colour, jokers, same-value
takes), knows whose turn it is, counts every hand and the draw pile from the deal, so
it knows when a round ends, when the game ends (or, in the 5-player variant, when the
first count is due) and who won.

Wiring: ``companion.games`` finds this engine by its ``GAME`` descriptor; the session
feeds logged action dicts to ``apply`` and shows ``snapshot``. ``can_play`` and
``playable_holders`` are pure helpers for the screens. The ``players`` list of the setup
is in clockwise order. Rule readings are written down in docs/professor-tempus.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from companion.errors import CompanionError, MalformedAction, RuleError
from companion.games.base import GameInfo, Player, handler_for, players_from_setup, require
from companion.games.evolve import replace

GAME = GameInfo(
    name="professor_tempus",
    title="Professor Tempus",
    blurb="Series, hourglasses",
    order=50,
    screen="companion.ui.screens.professor_tempus:ProfessorTempusScreen",
    players=(2, 5),
)
NAME = GAME.name
TITLE = GAME.title

COLOURS = ("red", "purple", "joker")
MAX_VALUE = 25
DECK = 63  # red 1-25, purple 1-25, joker 1, 3, ..., 25
HOLDERS = 3
KEEP = 2  # a round ends when every hand is down to two cards
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


@dataclasses.dataclass(frozen=True, slots=True)
class Deal:
    players: int
    per_hand: int  # cards dealt, and hand size after each refill
    refill: int  # cards each player draws between rounds
    draw_pile: int  # after the deal


def setup_for(n_players: int) -> Deal:
    """6 cards each (7 with 2 players); the rest of the 63 is the draw pile."""
    if isinstance(n_players, bool) or not isinstance(n_players, int) or not 2 <= n_players <= 5:
        raise RuleError("professor_tempus.player_count", "Professor Tempus takes 2 to 5 players, "
                        "not {count}.", count=n_players)
    per_hand = 7 if n_players == 2 else 6
    return Deal(n_players, per_hand, per_hand - KEEP, DECK - n_players * per_hand)


@dataclasses.dataclass(frozen=True, slots=True)
class Round:
    number: int
    count: int  # 1, or 2 after the first exhaustion in the 5-player variant
    first_seat: int
    collected: tuple[tuple[Card, ...], ...]  # per player, in player order
    hourglasses: tuple[int, ...] | None = None  # per player, once scored


@dataclasses.dataclass(frozen=True, slots=True)
class State:
    players: tuple[Player, ...]
    deal: Deal
    two_counts: bool  # the 5-player variant
    phase: str  # "play", "scoring" or "over"
    round: int
    count: int
    first: int  # index of the round's first player
    turn: int  # index of the player on turn
    hands: tuple[int, ...]
    holders: tuple[Series | None, ...]
    draw_pile: int
    seen: frozenset[tuple[str, int]]  # cards played since the last shuffle
    rounds: tuple[Round, ...] = ()


def initial(setup: Mapping[str, Any]) -> State:
    """Setup: ``players`` (clockwise), optional ``first_seat`` (the youngest; default the
    first listed) and ``five_player_variant`` (default on with 5 players)."""
    players = players_from_setup(setup, *GAME.players, game=TITLE)
    deal = setup_for(len(players))
    variant = setup.get("five_player_variant", len(players) == 5)
    if not isinstance(variant, bool):
        raise MalformedAction(f"five_player_variant must be true or false, not {variant!r}")
    if variant and len(players) != 5:
        raise RuleError("professor_tempus.variant_needs_five", "The two-count variant is for 5 "
                        "players, not {count}.", count=len(players))
    first = 0
    if setup.get("first_seat") is not None:
        first = _seat_index(players, setup["first_seat"])
    return State(players, deal, variant, "play", 1, 1, first, first,
                 (deal.per_hand,) * len(players), (None,) * HOLDERS, deal.draw_pile,
                 frozenset())


def _seat_index(players: tuple[Player, ...], seat: object) -> int:
    if isinstance(seat, str) and seat.isdigit():
        seat = int(seat)
    for i, p in enumerate(players):
        if p.seat == seat and not isinstance(seat, bool):
            return i
    raise RuleError("professor_tempus.no_such_seat", "Nobody plays at seat {seat} in this "
                    "game.", seat=seat)


def _who(state: State, i: int) -> str:
    return state.players[i].name


def _owner(state: State, seat: int) -> str:
    return next((p.name for p in state.players if p.seat == seat), f"seat {seat}")


def _on_turn(state: State, action: Mapping[str, Any]) -> int:
    if state.phase == "scoring":
        raise RuleError("professor_tempus.count_first", "No card can be played now: the round "
                        "is waiting for its count of hourglasses.")
    if state.phase != "play":
        raise RuleError("professor_tempus.over", "The game is over.")
    i = _seat_index(state.players, require(action, "seat", int))
    if i != state.turn:
        raise RuleError("professor_tempus.not_your_turn", "It is {turn}'s turn, not {name}'s.",
                        turn=_who(state, state.turn), name=_who(state, i))
    return i


def _holder(state: State, action: Mapping[str, Any]) -> int:
    h = require(action, "holder", int)
    if not 0 <= h < HOLDERS:
        raise MalformedAction(f"there is no card holder {h}: holders are 0 to {HOLDERS - 1}")
    return h


def _card(state: State, action: Mapping[str, Any], i: int) -> Card:
    card = parse_card(require(action, "card", (Mapping, Card)))
    if card.key in state.seen:
        raise RuleError("professor_tempus.card_played", "The {card} has already been played.",
                        card=card.label)
    return card


def _cards(n: int) -> str:
    return "one card" if n == 1 else f"{n} cards"


def _round_start(state: State) -> bool:
    return state.turn == state.first and all(h == state.deal.per_hand for h in state.hands)


def _played(state: State, i: int, h: int, series: Series, card: Card) -> State:
    hands = state.hands[:i] + (state.hands[i] - 1,) + state.hands[i + 1:]
    holders = state.holders[:h] + (series,) + state.holders[h + 1:]
    state = replace(state, hands=hands, holders=holders, seen=state.seen | {card.key},
                                turn=(i + 1) % len(state.players))
    if any(n > KEEP for n in hands):
        return state
    collected = tuple(
        tuple(c for s in holders if s is not None and s.owner == p.seat for c in s.all_cards)
        for p in state.players
    )
    record = Round(state.round, state.count, state.players[state.first].seat, collected)
    return replace(state, phase="scoring", holders=(None,) * HOLDERS,
                               rounds=state.rounds + (record,))


def _open(state: State, action: Mapping[str, Any]) -> State:
    i = _on_turn(state, action)
    h = _holder(state, action)
    if state.holders[h] is not None:
        raise RuleError("professor_tempus.holder_taken", "Holder {holder} is in use (in front "
                        "of {owner}): open a series on a free holder.", holder=h + 1,
                        owner=_owner(state, state.holders[h].owner))
    direction = require(action, "direction", str)
    if direction not in DIRECTIONS:
        raise MalformedAction(f"open_series: a series goes '+' or '-', not {direction!r}")
    card = _card(state, action, i)
    return _played(state, i, h, Series(state.players[i].seat, direction, (card,)), card)


def _target(state: State, action: Mapping[str, Any], i: int) -> tuple[int, Series]:
    if _round_start(state):
        raise RuleError("professor_tempus.open_first", "{name} plays first this round and must "
                        "open a series.", name=_who(state, i))
    h = _holder(state, action)
    series = state.holders[h]
    if series is None:
        raise RuleError("professor_tempus.holder_empty", "Holder {holder} is free: open a "
                        "series on it.", holder=h + 1)
    return h, series


def _play_on(state: State, action: Mapping[str, Any]) -> State:
    i = _on_turn(state, action)
    h, series = _target(state, action, i)
    card = _card(state, action, i)
    ok, why = can_play(series, card, state.players[i].seat)
    if not ok:
        raise RuleError("professor_tempus.cannot_play_on", "The {card} cannot go on holder "
                        "{holder}: {why}.", card=card.label, holder=h + 1, why=why)
    taken = replace(series, owner=state.players[i].seat, cards=series.cards + (card,))
    return _played(state, i, h, taken, card)


def _tuck(state: State, action: Mapping[str, Any]) -> State:
    i = _on_turn(state, action)
    h, series = _target(state, action, i)
    seat = state.players[i].seat
    if series.owner == seat:
        others = any(s is not None and s.owner != seat for s in state.holders)
        if others or None in state.holders:
            raise RuleError("professor_tempus.tuck_own", "{name} tucks under an opponent's "
                            "series, not their own.", name=_who(state, i))
    card = _card(state, action, i)
    return _played(state, i, h, replace(series, tucked=series.tucked + (card,)), card)


def _hourglasses(state: State, action: Mapping[str, Any], record: Round) -> tuple[int, ...]:
    raw = action.get("hourglasses", {})
    if not isinstance(raw, Mapping):
        raise MalformedAction(f"'hourglasses' maps seat to a number, not {raw!r}")
    entered = {}
    for seat, n in raw.items():
        i = _seat_index(state.players, seat)
        if isinstance(n, bool) or not isinstance(n, int):
            raise MalformedAction(f"hourglasses of seat {seat}: {n!r} is not a number")
        entered[i] = n
    out = []
    for i, cards in enumerate(record.collected):
        known = None
        if all(c.hourglasses is not None for c in cards):
            known = sum(c.hourglasses for c in cards)
        n = entered.get(i, known)
        if n is None:
            raise RuleError("professor_tempus.enter_hourglasses", "{name} collected {cards} in "
                            "round {round}: enter their hourglasses.", name=_who(state, i),
                            cards=_cards(len(cards)), round=record.number)
        if not 0 <= n <= MAX_HOURGLASSES * len(cards):
            raise RuleError("professor_tempus.hourglasses_range", "{name} cannot have {n} "
                            "hourglasses on {cards} (0 to {most}).", name=_who(state, i), n=n,
                            cards=_cards(len(cards)), most=MAX_HOURGLASSES * len(cards))
        if known is not None and n != known:
            raise RuleError("professor_tempus.hourglasses_shown", "{name}'s cards show {known} "
                            "hourglasses, not {n}.", name=_who(state, i), known=known, n=n)
        out.append(n)
    return tuple(out)


def _score_round(state: State, action: Mapping[str, Any]) -> State:
    if state.phase == "play":
        raise RuleError("professor_tempus.no_count_due", "No round is waiting for its count: "
                        "it is counted when every hand is down to two cards.")
    if state.phase != "scoring":
        raise RuleError("professor_tempus.over", "The game is over.")
    record = state.rounds[-1]
    record = replace(record, hourglasses=_hourglasses(state, action, record))
    state = replace(state, rounds=state.rounds[:-1] + (record,))
    n = len(state.players)
    need = n * state.deal.refill
    pile, count, seen = state.draw_pile, state.count, state.seen
    if pile < need:
        if not state.two_counts or count == 2:
            return replace(state, phase="over")
        # first exhaustion in the variant: count 1 is closed; everything but the hands
        # is shuffled into a new draw pile
        pile, count, seen = DECK - n * KEEP, 2, frozenset()
    first = (state.first + 1) % n
    return replace(state, phase="play", round=state.round + 1, count=count,
                               first=first, turn=first, hands=(state.deal.per_hand,) * n,
                               draw_pile=pile - need, seen=seen)


def _correct_round(state: State, action: Mapping[str, Any]) -> State:
    number = require(action, "round", int)
    pos = next((k for k, r in enumerate(state.rounds) if r.number == number), None)
    if pos is None or state.rounds[pos].hourglasses is None:
        raise RuleError("professor_tempus.not_counted", "Round {round} has not been counted "
                        "yet, so it cannot be corrected.", round=number)
    record = state.rounds[pos]
    record = replace(record, hourglasses=_hourglasses(state, action, record))
    return replace(state, rounds=state.rounds[:pos] + (record,)
                               + state.rounds[pos + 1:])


_ACTIONS = {
    "open_series": _open,
    "play_on": _play_on,
    "tuck": _tuck,
    "score_round": _score_round,
    "correct_round": _correct_round,
}


def apply(state: State, action: Mapping[str, Any]) -> State:
    """The state after ``action``, or RuleError (``state`` itself never changes)."""
    _, handler = handler_for(_ACTIONS, action, "Professor Tempus")
    return handler(state, action)


def is_over(state: State) -> bool:
    """The last count is done (the session then closes the game in the log)."""
    return state.phase == "over"


def playable_holders(state: State, seat: int, card: Card | Mapping[str, Any]) -> tuple[int, ...]:
    """Holders whose series ``seat`` could take with ``card`` right now."""
    return tuple(h for h, s in enumerate(state.holders)
                 if s is not None and can_play(s, card, seat)[0])


def counts(state: State) -> list[dict[str, int]]:
    """Hourglass totals per count (one, or two in the 5-player variant), seat -> total."""
    out = []
    for c in range(1, state.count + 1):
        total = dict.fromkeys((str(p.seat) for p in state.players), 0)
        for r in state.rounds:
            if r.count == c and r.hourglasses is not None:
                for p, n in zip(state.players, r.hourglasses, strict=True):
                    total[str(p.seat)] += n
        out.append(total)
    return out


def _card_json(c: Card) -> dict:
    return dataclasses.asdict(c)


def snapshot(state: State, recent: int | None = None) -> dict:
    """The whole state as JSON data. Nothing in it grows with the length of the game (a
    deck's worth of cards, a dozen rounds), so ``recent`` changes nothing."""
    seats = [str(p.seat) for p in state.players]
    per_count = counts(state)
    totals = {s: sum(c[s] for c in per_count) for s in seats}
    best = max(totals.values())
    need = len(state.players) * state.deal.refill
    return {
        "game": NAME,
        "title": TITLE,
        "players": [{"seat": p.seat, "name": p.name} for p in state.players],
        "deal": dataclasses.asdict(state.deal),
        "five_player_variant": state.two_counts,
        "phase": state.phase,
        "over": state.phase == "over",
        "round": state.round,
        "count": state.count,
        "first_seat": state.players[state.first].seat,
        "turn_seat": state.players[state.turn].seat if state.phase == "play" else None,
        "hands": dict(zip(seats, state.hands, strict=True)),
        "draw_pile": state.draw_pile,
        "refills_left": state.draw_pile // need,
        "last_round": state.phase == "play" and state.draw_pile < need
        and (not state.two_counts or state.count == 2),
        "holders": [
            None if s is None else {
                "owner": s.owner, "direction": s.direction, "colour": s.colour,
                "last": _card_json(s.last), "cards": [_card_json(c) for c in s.cards],
                "tucked": [_card_json(c) for c in s.tucked],
            }
            for s in state.holders
        ],
        "rounds": [
            {
                "round": r.number,
                "count": r.count,
                "first_seat": r.first_seat,
                "cards": {s: len(c) for s, c in zip(seats, r.collected, strict=True)},
                "hourglasses": None if r.hourglasses is None
                else dict(zip(seats, r.hourglasses, strict=True)),
            }
            for r in state.rounds
        ],
        "counts": per_count,
        "totals": totals,
        "winners": [int(s) for s in seats if totals[s] == best] if state.phase == "over" else [],
    }
