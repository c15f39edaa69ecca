"""Legal long games for every engine: the logs a long night at the table leaves behind.

``long_game(kind, n, seed)`` returns ``(setup, actions)``: ``n`` actions that the engine
accepts, one after the other, exactly as the game log would give them back (plain JSON).
Each engine has a proposer that looks at the state and offers a few plausible next
actions, most natural first; the driver keeps the first one the engine accepts, so a
log is legal by construction even when a rule reading changes. Games that would end on
their own are kept going the way a long night does: runs start again after a failed
one, the Times scores are corrected before anyone reaches the target, ghosts change
hands, counted Professor Tempus rounds are corrected, Crazy Time rounds last long.

Shared by the growth tests (``tests/test_long_night.py``) and ``bench/long_night.py``
(which puts ``tests/`` on its path). A prefix of a legal log is legal, so callers ask
once for the longest game and slice it.

    setup, actions = long_game("stop_time", 20_000)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games import get_rules
from companion.games import professor_tempus as pt
from companion.games import time_stories as ts
from companion.games import times as tm
from companion.games.time_after_time import FIRST_HOUR, LAST_HOUR, SLOTS, legal_slots
from companion.games.times.cards import CARD_CODES, parse_card
from companion.games.times.table import Marker, required_forced
from companion.games.times.table import legal_starts as board_starts
from companion.slap import decide, false_alarm

Action = dict[str, Any]
Proposer = Callable[[Any, random.Random], Iterator[Action]]


def _players(n: int) -> list[dict]:
    names = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal"]
    return [{"name": names[i], "seat": i + 1} for i in range(n)]


SETUPS: dict[str, dict] = {
    "scorepad": {"players": _players(4)},
    "stop_time": {"players": _players(6)},
    "time_stories": {
        "players": _players(3), "mission": "Asylum", "starting_tu": 25,
        "characters": [
            {"name": "Marie", "player_seat": 1, "life": 3, "resistance": 2,
             "characteristics": {"Deftness": 2, "Glibness": 3, "Combat": 1}},
            {"name": "Madeleine", "player_seat": 2, "life": 4, "resistance": 2,
             "characteristics": {"Deftness": 1, "Glibness": 1, "Combat": 2}},
            {"name": "Hilda", "player_seat": 3, "life": 3, "resistance": 1,
             "characteristics": {"Deftness": 3, "Glibness": 2, "Combat": 2}},
        ],
    },
    "crazy_time": {"players": _players(5)},
    "times": {"players": _players(4), "target": 30},
    "time_after_time": {"players": _players(3)},
    "professor_tempus": {"players": _players(3)},
}

#: Every engine, in the order the bench prints them.
KINDS = tuple(SETUPS)


# ----------------------------------------------------------------------------- proposers
def _scorepad(state, rng: random.Random) -> Iterator[Action]:
    if rng.random() < 0.15:
        yield {"type": "end_round"}
    yield {"type": "score", "seat": rng.choice(state.players).seat,
           "points": rng.randint(-3, 12)}


def _slap_verdict(seats: list[int], rng: random.Random):
    t0 = rng.randrange(10**12)
    slappers = seats if rng.random() < 0.85 else rng.sample(seats, len(seats) - 1)
    slaps = {s: t0 + rng.randrange(0, 450_000_000) for s in slappers}
    if rng.random() < 0.1:  # the last two within a millisecond: too close to call
        a, b = rng.sample(slappers, 2)
        slaps[b] = max(slaps.values()) + 1
        slaps[a] = slaps[b] + rng.randrange(0, 900_000)
    return decide(slaps, seats, 1_000_000, "gpio")


def _stop_time(state, rng: random.Random) -> Iterator[Action]:
    verdict = _slap_verdict([p.seat for p in state.players], rng)
    if rng.random() < 0.08 and verdict.ranking:
        alarm = false_alarm(verdict)
        yield {"type": "slap_round", "verdict": alarm.to_facts(), "decision": "false_alarm",
               "picker": alarm.picker if alarm.picker is not None else alarm.candidates[0]}
    if verdict.picker is not None:
        yield {"type": "slap_round", "verdict": verdict.to_facts(), "decision": "verdict",
               "picker": verdict.picker}
    yield {"type": "slap_round", "verdict": verdict.to_facts(), "decision": "table",
           "picker": rng.choice(verdict.candidates) if verdict.candidates else None}


_PLACES = ("Hall", "Kitchen", "Cellar", "Chapel", "Garden", "Ward", "Office", "Attic")
_SHIELDS = ("blank", "skull", "heart", "tu", "blank", "blank")


def _time_stories(state, rng: random.Random) -> Iterator[Action]:
    if not state.running:
        yield {"type": "start_run"}
        return
    for test in state.tests:
        if test.status == "ready":
            dice = ts.dice_for(state, test)
            yield {"type": "test_roll", "space": test.space,
                   "faces": [rng.randint(1, 6) for _ in range(dice)]}
        else:
            if rng.random() < 0.6:
                yield {"type": "test_continue", "space": test.space}
            yield {"type": "test_abandon", "space": test.space}
    alive = [c for c in state.characters if not c.dead]
    roll = rng.random()
    if roll < 0.25:
        yield {"type": "travel", "die": rng.randint(1, 6), "to": rng.choice(_PLACES),
               "to_red": rng.random() < 0.2}
    if roll < 0.4:
        yield {"type": "stay", "reason": "searching the room"}
    if roll < 0.5 and state.tu < 12:
        yield {"type": "adjust_tu", "delta": rng.randint(2, 6), "reason": "a card gives time"}
    if roll < 0.7 and alive and not state.tests:
        who = rng.sample(alive, rng.randint(1, len(alive)))
        characteristic = rng.choice(sorted(dict(who[0].characteristics)))
        yield {"type": "test_start", "space": rng.choice("ABC"),
               "characteristic": characteristic, "characters": [c.name for c in who],
               "shields": [rng.choice(_SHIELDS) for _ in range(rng.randint(1, 4))]}
    if roll < 0.8 and alive:
        c = rng.choice(alive)
        if c.life < c.max_life:
            yield {"type": "heal", "character": c.name, "amount": 1}
        yield {"type": "damage", "character": c.name, "amount": 1, "reason": "a trap"}
    if roll < 0.9:
        if len(state.items) < 4:
            yield {"type": "gain_item", "item": f"Key {rng.randrange(100)}",
                   "agency": rng.random() < 0.3}
        if state.items:
            item = rng.choice(state.items)
            if alive:
                yield {"type": "give_item", "item": item.name, "to": rng.choice(alive).name}
            yield {"type": "drop_item", "item": item.name}
    yield {"type": "stay"}


def _crazy_time(state, rng: random.Random, per_round: int) -> Iterator[Action]:
    seats = list(state.seats)
    if state.phase == "new_law":
        creator = state.results[-1].seat
        gone = set(state.left_room())
        absent = [s for s in seats if s != creator and s not in gone]
        yield {"type": "new_law", "name": f"Law of round {state.round}",
               "when": "when a card shows an hour", "what": "say its hour aloud",
               "creator": creator, "absent": rng.choice(absent)}
        return
    if len(state.pickups) + len(state.tick_tocks) + len(state.guesses) \
            >= per_round * state.round:
        yield {"type": "round_won", "seat": rng.choice(seats)}
    roll = rng.random()
    laws = [law.name for law in state.laws]
    for law in state.laws:
        if law.absent is not None and roll < 0.2:
            yield {"type": "guess", "seat": law.absent, "law": law.name,
                   "correct": rng.random() < 0.3}
    if roll < 0.3:
        verdict = _slap_verdict(seats, rng)
        seat = verdict.picker if verdict.picker is not None else rng.choice(verdict.candidates)
        yield {"type": "pickup", "seat": seat, "reason": "slap", "verdict": verdict.to_facts()}
    if roll < 0.5:
        yield {"type": "pickup", "seat": rng.choice(seats), "reason": "temporal_flaw",
               "law": rng.choice(laws), "pile": rng.randint(0, 20) + 6}  # a correct guess
        # on five or fewer counted cards would win the round, and round 4 must go on
    if roll < 0.6:
        a, b = rng.sample(seats, 2)
        yield {"type": "accusation", "accuser": a, "accused": b, "law": rng.choice(laws),
               "correct": rng.random() < 0.5}
    if roll < 0.7:
        yield {"type": "mistakes", "seats": rng.sample(seats, 2)}
    yield {"type": "tick_tock", "seat": rng.choice(seats)}


def _times(state, rng: random.Random) -> Iterator[Action]:
    if state.phase in (tm.PLAY, tm.EVALUATED):
        for p, score in zip(state.players, state.scores, strict=True):
            if score >= state.target - 4:
                yield {"type": "override", "seat": p.seat, "score": rng.randint(0, 5),
                       "reason": "the table counted again"}
    if state.phase == tm.PLAY:
        holders = [p.seat for p, n in zip(state.players, state.hands, strict=True) if n >= 1]
        codes = rng.sample(CARD_CODES, len(holders))
        if rng.random() < 0.1 and len(holders) > 2:
            codes[1] = codes[0]  # two identical cards cancel
        yield {"type": "play", "cards": {str(s): c for s, c in zip(holders, codes, strict=True)}}
    elif state.phase == tm.TURNS:
        seat = tm.whose_turn(state)
        code = state.played[len(state.turns)][1]
        place = _times_place(state.board, seat, code, rng)
        if place is not None and (rng.random() < 0.75 or not state.turns):
            yield {"type": "place", "seat": seat, "markers": place}
        if tm.may_doubt(state, seat):
            yield {"type": "doubt", "seat": seat}
        if tm.may_join_doubt(state, seat):
            yield {"type": "join_doubt", "seat": seat}
        if place is not None:
            yield {"type": "place", "seat": seat, "markers": place}
    elif state.phase == tm.REVEAL:
        lo, hi = tm.period_in_force(state)
        year = rng.randint(lo, hi) if rng.random() < 0.6 else rng.randint(1000, 1999)
        yield {"type": "reveal_year", "year": year}
    elif state.phase == tm.EVALUATED:
        yield {"type": "next_event"}


def _times_place(board, seat: int, code: str, rng: random.Random) -> list[dict] | None:
    card = parse_card(code)
    markers = []
    for column, size in [(c, 1) for c in required_forced(board, card.column)] + [
            (card.column, card.size)]:
        starts = board_starts(board, column, size)
        if not starts:
            return None
        start = rng.choice(starts)
        markers.append({"column": column, "size": size, "start": start})
        board = (*board, Marker(column, size, start, seat))
    return markers


def _time_after_time(state, rng: random.Random) -> Iterator[Action]:
    seats = state.seats
    i = rng.randrange(len(seats))
    s = seats[i]
    held = sum(x.ghosts for x in seats)
    roll = rng.random()
    placed = sum(h is not None for h in s.row)
    if roll < 0.3 and placed < SLOTS - 1:
        hour = rng.randint(FIRST_HOUR, LAST_HOUR)
        slots = legal_slots(s.row, hour)
        if slots:
            yield {"type": "place", "seat": s.player.seat, "slot": rng.choice(slots),
                   "hour": hour}
    if roll < 0.4 and state.draw_pile > 2:
        yield {"type": "draw_pile", "seat": s.player.seat, "count": 1}
    if held < state.deal.ghosts:
        yield {"type": "ghost", "seat": s.player.seat, "delta": 1}
    right = seats[i - 1]
    if right.ghosts:
        yield {"type": "ghost", "seat": s.player.seat, "delta": 1, "from": right.player.seat}
    if s.ghosts and rng.random() < 0.3:
        yield {"type": "ghost", "seat": s.player.seat, "delta": -1}
    for other in seats:
        if other.ghosts:
            yield {"type": "ghost", "seat": other.player.seat, "delta": -1}


def _professor_tempus(state, rng: random.Random) -> Iterator[Action]:
    if state.phase in ("scoring", "over"):
        record = state.rounds[-1] if state.phase == "scoring" else rng.choice(state.rounds)
        glasses = {str(p.seat): rng.randint(0, 3 * len(cards))
                   for p, cards in zip(state.players, record.collected, strict=True)}
        kind = "score_round" if state.phase == "scoring" else "correct_round"
        yield {"type": kind, "round": record.number, "hourglasses": glasses}
        return
    seat = state.players[state.turn].seat
    unseen = [c for c in pt.all_cards() if c.key not in state.seen]
    for card in rng.sample(unseen, min(12, len(unseen))):
        raw = {"colour": card.colour, "value": card.value}
        for h, series in enumerate(state.holders):
            if series is None:
                yield {"type": "open_series", "seat": seat, "holder": h, "card": raw,
                       "direction": rng.choice("+-")}
            elif pt.can_play(series, card, seat)[0]:
                yield {"type": "play_on", "seat": seat, "holder": h, "card": raw}
            elif series.owner != seat:
                yield {"type": "tuck", "seat": seat, "holder": h, "card": raw}
    for h in range(pt.HOLDERS):
        yield {"type": "tuck", "seat": seat, "holder": h, "card": {
            "colour": unseen[0].colour, "value": unseen[0].value}}


def _proposer(kind: str, n: int) -> Proposer:
    if kind == "crazy_time":
        per_round = n // 4 + 1  # the fourth round is never won: the game goes on
        return lambda state, rng: _crazy_time(state, rng, per_round)
    return {"scorepad": _scorepad, "stop_time": _stop_time, "time_stories": _time_stories,
            "times": _times, "time_after_time": _time_after_time,
            "professor_tempus": _professor_tempus}[kind]


# ----------------------------------------------------------------------------- the driver
@cache
def _generate(kind: str, n: int, seed: int) -> tuple[str, tuple[str, ...]]:
    rules = get_rules(kind)
    setup = SETUPS[kind]
    state = rules.initial(setup)
    rng = random.Random(f"{kind}/{seed}")
    propose = _proposer(kind, n)
    out: list[str] = []
    while len(out) < n:
        for action in propose(state, rng):
            action = json.loads(json.dumps(action))  # as the log gives it back
            try:
                state = rules.apply(state, action)
            except (RuleError, MalformedAction):
                continue
            out.append(json.dumps(action, sort_keys=True, separators=(",", ":")))
            break
        else:
            raise RuntimeError(f"{kind}: no legal action offered after {len(out)} actions")
    return json.dumps(setup), tuple(out)


def long_game(kind: str, n: int, seed: int = 0) -> tuple[dict, list[Action]]:
    """``(setup, actions)``: ``n`` legal actions of ``kind`` (fresh objects each call)."""
    setup, texts = _generate(kind, n, seed)
    return json.loads(setup), [json.loads(t) for t in texts]


def long_game_texts(kind: str, n: int, seed: int = 0) -> tuple[dict, tuple[str, ...]]:
    """Like ``long_game`` but each action as its stored JSON text (cheap to slice)."""
    setup, texts = _generate(kind, n, seed)
    return json.loads(setup), texts
