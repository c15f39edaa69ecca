"""Professor Tempus: series referee, hand and draw-pile counter, hourglass score keeper.

The companion sits beside the physical cards. The table reports each turn (a series
opened, a card played onto an opponent's series, a card tucked under one) and, at the
end of each round, the hourglasses on the cards each player collected. This engine
checks every card against the series rules (direction, colour, jokers, same-value
takes), knows whose turn it is, counts every hand and the draw pile from the deal, so
it knows when a round ends, when the game ends (or, in the 5-player variant, when the
first count is due) and who won.

The cards and the series rules live in ``professor_tempus.cards``, the deal and the
state in ``professor_tempus.state``, the turns in ``professor_tempus.turns`` and the
counts in ``professor_tempus.counting``; the public names are re-exported here.

Wiring: ``companion.games`` finds this engine by its ``GAME`` descriptor; the session
feeds logged action dicts to ``apply`` and shows ``snapshot``. ``can_play`` and
``playable_holders`` are pure helpers for the screens. The ``players`` list of the setup
is in clockwise order. Rule readings are written down in docs/professor-tempus.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import GameInfo, Outcome, handler_for, players_from_setup, seated
from companion.games.professor_tempus.cards import (  # noqa: F401 - re-exported for screens
    COLOURS,
    DECK,
    DIRECTIONS,
    MAX_HOURGLASSES,
    MAX_VALUE,
    Card,
    Series,
    all_cards,
    can_play,
    parse_card,
)
from companion.games.professor_tempus.counting import correct_round, counts, score_round
from companion.games.professor_tempus.state import (  # noqa: F401 - re-exported for screens
    HOLDERS,
    KEEP,
    Deal,
    Round,
    State,
    seat_index,
    setup_for,
)
from companion.games.professor_tempus.turns import (  # noqa: F401 - re-exported for screens
    open_series,
    play_on,
    playable_holders,
    tuck,
)
from companion.speech.lines import INFO, VERDICT, Line
from companion.speech.words import cap, name_list, number_words, plural, verb

GAME = GameInfo(
    name="professor_tempus",
    title="Professor Tempus",
    blurb="Series, hourglasses",
    order=50,
    screen="companion.ui.screens.professor_tempus:ProfessorTempusScreen",
    players=(2, 5),
    first_player=("first_seat", "Plays first"),
)
NAME = GAME.name
TITLE = GAME.title


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
        first = seat_index(players, setup["first_seat"])
    return State(players, deal, variant, "play", 1, 1, first, first,
                 (deal.per_hand,) * len(players), (None,) * HOLDERS, deal.draw_pile,
                 frozenset())


#: The handler of each action type.
ACTIONS = {
    "open_series": open_series,
    "play_on": play_on,
    "tuck": tuck,
    "score_round": score_round,
    "correct_round": correct_round,
}


def apply(state: State, action: Mapping[str, Any]) -> State:
    """The state after ``action``, or RuleError (``state`` itself never changes)."""
    _, handler = handler_for(ACTIONS, action, "Professor Tempus")
    return handler(state, action)


def is_over(state: State) -> bool:
    """The last count is done (the session then closes the game in the log)."""
    return state.phase == "over"


def _card_json(c: Card) -> dict:
    """``dataclasses.asdict(c)``, written out (a flat card of plain values: the same
    dict, without asdict's deep copy; a snapshot holds a deck's worth of them)."""
    return {"colour": c.colour, "value": c.value, "hourglasses": c.hourglasses}


def snapshot(state: State, recent: int | None = None) -> dict:
    """The whole state as JSON data. Nothing in it grows with the length of the game (a
    deck's worth of cards, a dozen rounds), so ``recent`` changes nothing."""
    seats = [str(p.seat) for p in state.players]
    per_count = counts(state)
    totals = {s: sum(c[s] for c in per_count) for s in seats}
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
        "winners": list(_winners(state, totals)),
    }


def _winners(state: State, totals: Mapping[str, int]) -> tuple[int, ...]:
    """Once the last count is done, whoever collected the most hourglasses (a tie
    shares the win); nobody before."""
    if state.phase != "over":
        return ()
    best = max(totals.values())
    return tuple(int(s) for s, n in totals.items() if n == best)


def outcome(state: State) -> Outcome:
    """Hourglasses per seat over every count so far; the most wins at the end."""
    per_count = counts(state)
    totals = {str(p.seat): sum(c[str(p.seat)] for c in per_count) for p in state.players}
    status = "Final count done" if state.phase == "over" else f"Round {state.round}"
    return Outcome(seated(state.players), status, winners=_winners(state, totals),
                   scores={int(s): n for s, n in totals.items()})



# --------------------------------------------------------------------------- spoken

#: The actions after which the box may say something (``spoken``).
SPOKEN_AFTER = frozenset({"score_round"})


def spoken(before: dict, _action: Mapping[str, Any], after: dict,
           names: Mapping[int, str]) -> Line | None:
    """A round counted and who leads, or the winners."""
    counted = [r for r in after["rounds"] if r["hourglasses"] is not None]
    if len(counted) <= len([r for r in before["rounds"] if r["hourglasses"] is not None]):
        return None
    totals = {int(s): t for s, t in after["totals"].items()}
    if after["over"]:
        seats = list(after["winners"])
        best = totals[seats[0]] if seats else 0
        return Line(cap(f"{name_list(names, seats)} {verb(seats, 'wins', 'win')} with "
                        f"{plural(best, 'hourglass', 'hourglasses')}!"), VERDICT, tone=True)
    best = max(totals.values())
    seats = [s for s, t in totals.items() if t == best]
    return Line(f"Round {number_words(counted[-1]['round'])} counted: "
                f"{name_list(names, seats)} {verb(seats, 'leads', 'lead')} with "
                f"{plural(best, 'hourglass', 'hourglasses')}.", INFO)
