"""Time After Time: referee for each player's row of seven times, ghosts and the draw pile.

The companion sits beside the physical cards. The table reports what happens (a time
card placed in a slot, a ghost changing hands, cards taken from the draw pile, a card
sent to the box, a hand running empty) and this engine checks each report against the
rulebook, counts the draw pile from the deal and declares the result: one winner, or
a tie when the draw pile is gone and a hand runs out without a winning row. The deal is
secret, so a player who completes a row while a ghost may still be in their hand is
asked first (``ghost_answer``) and is not declared the winner without that answer.

Wiring: ``companion.games`` finds this engine by its ``GAME`` descriptor; the session
feeds logged action dicts to ``apply`` and shows ``snapshot``. The pure row checkers
(``check_row``, ``can_place``, ``legal_slots``, ``safe_slots``) live in
``time_after_time.rows``, the state and its queries in ``time_after_time.state`` and
the seven reports in ``time_after_time.actions``; the public names are re-exported
here. The row checkers and ``seats_that_can_place`` are for the screens (highlight
slots, answer "can anyone still place 14H00?").
``tally_wins`` turns stored snapshots into win statistics across games.

Conventions: the ``players`` list in the setup is in clockwise order (so a player's
right-hand neighbour is the previous entry); slots are 0..6 from the left in actions,
and "slot 1".."slot 7" in messages, as the players count them; a time is its hour
(6..22, printed 06H00..22H00). Rule readings are written down in docs/time-after-time.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from companion.errors import CompanionError, RuleError
from companion.games.base import GameInfo, Outcome, handler_for, players_from_setup
from companion.games.time_after_time.actions import ACTIONS
from companion.games.time_after_time.rows import (  # noqa: F401 - re-exported for screens
    COPIES,
    FIRST_HOUR,
    LAST_HOUR,
    PER_HAND,
    SLOTS,
    TIME_CARDS,
    Deal,
    Problem,
    can_place,
    check_row,
    hour_label,
    is_complete,
    is_hour,
    legal_slots,
    safe_slots,
    setup_for,
    slot_name,
)
from companion.games.time_after_time.state import (  # noqa: F401 - re-exported for screens
    SeatState,
    State,
    on_table,
    seats_that_can_place,
    unaccounted_ghosts,
    unavailable_hours,
)
from companion.speech.lines import VERDICT, Line
from companion.speech.words import cap, name_list, verb

GAME = GameInfo(
    name="time_after_time",
    title="Time After Time",
    blurb="Rows, ghosts, wins",
    order=40,
    screen="companion.ui.screens.time_after_time:TimeAfterTimeScreen",
    players=(2, 4),
    version=2,  # 2: a complete row asks about ghosts before it wins
)
NAME = GAME.name
TITLE = GAME.title


def initial(setup: Mapping[str, Any]) -> State:
    players = players_from_setup(setup, *GAME.players, game=TITLE)
    deal = setup_for(len(players))
    return State(deal, tuple(SeatState(p) for p in players), deal.draw_pile)


def apply(state: State, action: Mapping[str, Any]) -> State:
    """The state after ``action``, or RuleError (``state`` itself never changes)."""
    kind, handler = handler_for(ACTIONS, action, "Time After Time")
    if state.over:
        raise RuleError("time_after_time.over", "The game is over: {result}.",
                        result=_result_words(state))
    if state.asking is not None and kind != "ghost_answer":
        name = next(s.player.name for s in state.seats if s.player.seat == state.asking)
        raise RuleError("time_after_time.answer_first", "{name}'s row is complete: {name} "
                        "first answers whether a ghost is still in their hand.", name=name)
    return handler(state, action)


def is_over(state: State) -> bool:
    """The game has a winner or ended in a tie (the session then closes it in the log)."""
    return state.over


def _result_words(state: State) -> str:
    if state.result == "win":
        names = {s.player.seat: s.player.name for s in state.seats}
        return " and ".join(names[w] for w in state.winners) + " won"
    return "it ended in a tie"


def outcome(state: State) -> Outcome:
    """Whoever first covers all seven spaces correctly with no Ghost in hand wins; a hand
    emptied without that ends the game in a tie (nobody wins)."""
    if state.over:
        words = _result_words(state)
        status = words[0].upper() + words[1:]
    else:
        status = f"{state.draw_pile} cards in the draw pile"
    return Outcome(tuple((s.player.seat, s.player.name) for s in state.seats), status,
                   winners=tuple(state.winners))


def snapshot(state: State, recent: int | None = None) -> dict:
    """The whole state as JSON data. Nothing in it grows with the length of the game
    (rows of seven, at most 34 time cards in the box), so ``recent`` changes nothing."""
    gone = unavailable_hours(state)
    names = {s.player.seat: s.player.name for s in state.seats}
    return {
        "game": NAME,
        "title": TITLE,
        "deal": dataclasses.asdict(state.deal),
        "players": [
            {
                "seat": s.player.seat,
                "name": s.player.name,
                "row": list(s.row),
                "placed": sum(h is not None for h in s.row),
                "ghosts": s.ghosts,
                "complete": is_complete(s.row),
                "problems": [p.message for p in check_row(s.row, gone)],
                "emergency_moves": s.emergency_moves,
            }
            for s in state.seats
        ],
        "draw_pile": state.draw_pile,
        "discarded": list(state.discarded),
        "unavailable": list(gone),
        "over": state.over,
        "result": state.result,
        "winners": list(state.winners),
        "winner_names": [names[w] for w in state.winners],
        "ended_by": state.ended_by,
        "asking": state.asking,
        "unaccounted_ghosts": unaccounted_ghosts(state),
    }


def tally_wins(games: Iterable[Mapping[str, Any]]) -> dict:
    """Statistics over stored snapshots: games, finished, ties, and per player name the
    games played, wins and win rate (wins / games played)."""
    out: dict[str, Any] = {"games": 0, "finished": 0, "ties": 0, "played": {}, "wins": {}}
    for n, game in enumerate(games):
        if not isinstance(game, Mapping) or game.get("game") != NAME:
            raise CompanionError(f"game {n + 1} is not a Time After Time snapshot")
        out["games"] += 1
        names = {p["seat"]: p["name"] for p in game["players"]}
        for name in names.values():
            out["played"][name] = out["played"].get(name, 0) + 1
            out["wins"].setdefault(name, 0)
        if game.get("over"):
            out["finished"] += 1
        if game.get("result") == "tie":
            out["ties"] += 1
        for seat in game.get("winners", ()):
            out["wins"][names[seat]] += 1
    out["win_rate"] = {name: out["wins"][name] / p for name, p in out["played"].items()}
    return out



# --------------------------------------------------------------------------- spoken

#: The actions after which the box may say something (``spoken``).
SPOKEN_AFTER = frozenset({"place", "ghost", "hand_empty", "ghost_answer"})


def spoken(before: dict, _action: Mapping[str, Any], after: dict,
           names: Mapping[int, str]) -> Line | None:
    """The winner, or the tie when the cards run out."""
    if not after["over"] or before["over"]:
        return None
    if after["result"] == "win" and after["winners"]:
        seats = after["winners"]
        return Line(cap(f"{name_list(names, seats)} {verb(seats, 'wins', 'win')}!"), VERDICT,
                    tone=True)
    return Line("The cards have run out: the game is a tie.", VERDICT, tone=True)
