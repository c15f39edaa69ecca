"""Crazy Time referee: a pure rules engine for a whole four-round game.

The engine cannot see the cards, so the table tells it what happened (a round was won,
someone picks up and why, a law was made, a guess was right) and the engine keeps the
book: deal size, who deals and leads, the Laws of Time in force and their secrets, every
pick-up with its cause, who left the room, guesses and the cards they removed, round
winners and the Grand Master of Time. It refuses what the rules forbid (a fifth round,
leaving the room twice, a guess before anyone picked up because of the law ...).

Wiring: the session keeps the game log and computes ``state`` as
``functools.reduce(apply, log, initial(setup))``. When the slap arbiter closes a
"Stop Time" round, the session puts its verdict dict, untouched, into a ``pickup``
action (``reason: "slap"``) for the seat the verdict names. The screen never reads
``State`` directly: it calls ``crazy_time_view.view(state, viewer_seat)``, which keeps
each new law's text from the player who was out of the room. ``snapshot()`` is the full
record (secrets included) for export and statistics, not for the screen.

The action list and the rule readings are in ``docs/crazy-time.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import RuleError
from companion.games.base import GameInfo, Player, handler_for, players_from_setup, require
from companion.games.crazy_time.laws import STANDING_LAWS, Law, find_law
from companion.games.crazy_time.records import (
    Guess,
    Pickup,
    RoundResult,
    TickTock,
    guess_json,
    pickup_json,
    read_verdict,
    result_json,
)
from companion.games.evolve import replace
from companion.games.pvec import EMPTY, PVec, newest

GAME = GameInfo(
    name="crazy_time",
    title="Crazy Time",
    blurb="Slap pad, laws, pick-ups",
    order=10,
    screen="companion.ui.screens.crazy_time:CrazyTimeScreen",
)
NAME = GAME.name
TITLE = GAME.title

ROUNDS = 4
GUESS_REMOVES = 5  # cards a correct guess takes out of the guesser's draw pile
PICKUP_KEEPS = 5  # cards a picker keeps from the collected discards (at most)
REASONS = ("slap", "temporal_flaw", "wrong_accusation", "false_slap")
PLAYING, NEW_LAW, OVER = "playing", "new_law", "over"

_DEAL = {4: 15, 5: 12, 6: 10, 7: 9}


def deal_size(n_players: int) -> int:
    """Cards dealt to each player at the start of every round, by number of players."""
    if isinstance(n_players, bool) or n_players not in _DEAL:
        raise RuleError(f"Crazy Time is played by 4 to 7 players, not {n_players!r}")
    return _DEAL[n_players]


@dataclass(frozen=True, slots=True)
class State:
    """A whole game. ``pickups``, ``guesses`` and ``tick_tocks`` grow all night
    (``PVec``: adding one copies nothing). The fields after ``grand_master`` are kept
    alongside so that no question the referee or a screen asks walks the whole night:
    ``picked[r][i]`` / ``ticked[r][i]`` count the pick-ups / "Tick, Tock" calls of the
    player at index ``i`` in round ``r + 1``, ``removed[i]`` the cards their correct
    guesses took out, ``opened`` maps a law to the number of the newest pick-up that opens
    a guess for it, ``last_guess`` maps (seat, law) to the pick-ups recorded when that
    seat last guessed it, ``correct`` lists the laws guessed correctly."""

    players: tuple[Player, ...]
    deal: int
    first_dealer: int
    round: int  # the round being played, or the last one played
    phase: str  # PLAYING, NEW_LAW (a round ended; waiting for the new law) or OVER
    dealer: int  # deals and starts the current round
    lead: int  # the seat that (re)starts the count at 1 o'clock
    notice: str  # what the table must do now, in words
    reveal_first: tuple[int, ...] = ()  # before play: these round winners turn up a card
    laws: tuple[Law, ...] = STANDING_LAWS
    pickups: PVec = EMPTY
    guesses: PVec = EMPTY
    tick_tocks: PVec = EMPTY
    results: tuple[RoundResult, ...] = ()
    piles: tuple[tuple[int, int], ...] = ()  # (seat, cards) as last told this round
    grand_master: int | None = None
    picked: tuple[tuple[int, ...], ...] = ()
    ticked: tuple[tuple[int, ...], ...] = ()
    removed: tuple[int, ...] = ()
    opened: tuple[tuple[str, int], ...] = ()
    last_guess: tuple[tuple[tuple[int, str], int], ...] = ()
    correct: tuple[str, ...] = ()

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players)

    def name(self, seat: int) -> str:
        for p in self.players:
            if p.seat == seat:
                return p.name
        return f"seat {seat}"

    def who(self, seat: int) -> str:
        return f"seat {seat} ({self.name(seat)})"

    def left_room(self) -> tuple[int, ...]:
        """Seats that have been out of the room for a law (each at most once a game)."""
        return tuple(law.absent for law in self.laws if law.absent is not None)

    def guessed(self, law_name: str) -> bool:
        return law_name in self.correct

    def index(self, seat: int) -> int:
        """The position of ``seat`` in ``players`` (and in the counts kept per player)."""
        for i, p in enumerate(self.players):
            if p.seat == seat:
                return i
        raise RuleError(f"seat {seat} is not in this game")

    def pickup_count(self, seat: int, rnd: int | None = None) -> int:
        """Pick-ups of ``seat`` in round ``rnd`` (None: the whole game)."""
        i = self.index(seat)
        if rnd is None:
            return sum(row[i] for row in self.picked)
        return self.picked[rnd - 1][i] if 1 <= rnd <= len(self.picked) else 0

    def tick_tock_count(self, seat: int, rnd: int) -> int:
        i = self.index(seat)
        return self.ticked[rnd - 1][i] if 1 <= rnd <= len(self.ticked) else 0

    def cards_removed(self, seat: int) -> int:
        return self.removed[self.index(seat)]

    def round_pickups(self) -> tuple[Pickup, ...]:
        """The pick-ups of the round being played, oldest first (the newest entries)."""
        out = []
        for p in reversed(self.pickups):
            if p.round != self.round:
                break
            out.append(p)
        return tuple(reversed(out))

    def can_guess(self, seat: int, law: Law) -> bool:
        """Whether ``seat`` may now make a proposal for ``law`` (see ``_guess``)."""
        if self.phase != PLAYING or law.standing or law.absent != seat:
            return False
        if self.guessed(law.name):
            return False
        since = dict(self.last_guess).get((seat, law.name), 0)
        return dict(self.opened).get(law.name, 0) > since


# --------------------------------------------------------------------------- setup


def initial(setup: Mapping[str, Any]) -> State:
    """Round 1 about to start: ``setup = {"players": [...], "first_dealer": seat?}``."""
    if not isinstance(setup, Mapping):
        raise RuleError("setup must be an object with 'players'")
    players = players_from_setup(setup, lo=4, hi=7)
    seats = tuple(p.seat for p in players)
    first = setup.get("first_dealer", players[0].seat)
    if isinstance(first, bool) or not isinstance(first, int) or first not in seats:
        raise RuleError(f"first_dealer {first!r} is not a seat in this game {list(seats)}")
    zeros = (0,) * len(players)
    state = State(players=players, deal=deal_size(len(players)), first_dealer=first,
                  round=1, phase=PLAYING, dealer=first, lead=first, notice="",
                  picked=(zeros,) * ROUNDS, ticked=(zeros,) * ROUNDS, removed=zeros)
    return replace(state, notice=_round_start_notice(state))


# --------------------------------------------------------------------------- apply


def apply(state: State, action: Mapping[str, Any]) -> State:
    """The state after ``action``, or RuleError (``state`` itself is never changed)."""
    _, handler = handler_for(_HANDLERS, action, "Crazy Time")
    return handler(state, action)


def _seat(state: State, action: Mapping[str, Any], key: str) -> int:
    return _check_seat(state, action["type"], key, require(action, key, int))


def _check_seat(state: State, kind: str, label: str, seat: Any) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise RuleError(f"action '{kind}': {label} must be a seat number, not {seat!r}")
    if seat not in state.seats:
        raise RuleError(f"action '{kind}': {label} {seat} is not a seat in this game "
                        f"(seats {', '.join(map(str, state.seats))})")
    return seat


def _optional(action: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    return require(action, key, kind) if action.get(key) is not None else None


def _count(action: Mapping[str, Any], key: str) -> int | None:
    value = _optional(action, key, int)
    if value is not None and value < 0:
        raise RuleError(f"action '{action['type']}': '{key}' cannot be negative: {value}")
    return value


def _text(action: Mapping[str, Any], key: str, what: str) -> str:
    value = require(action, key, str).strip()
    if not value:
        raise RuleError(f"action '{action['type']}': {what} ('{key}') is empty")
    return value


def _in_play(state: State, kind: str) -> None:
    if state.phase == OVER:
        raise RuleError(f"'{kind}': the game is over; {state.who(state.grand_master)} "
                        "is Grand Master of Time")
    if state.phase == NEW_LAW:
        raise RuleError(f"'{kind}': round {state.round} is over; record the new law "
                        f"before round {state.round + 1} starts")


def _round_won(state: State, action: Mapping[str, Any]) -> State:
    if state.phase == OVER:
        raise RuleError(f"there is no round {ROUNDS + 1}: the game ended after round {ROUNDS}")
    _in_play(state, "round_won")
    return _win(state, _seat(state, action, "seat"), "emptied")


def _win(state: State, seat: int, how: str) -> State:
    results = state.results + (RoundResult(state.round, seat, state.dealer, how),)
    first = f"{state.name(seat)} wins round {state.round}"
    if how == "guess":
        first = (f"{state.name(seat)} guessed a law and has no cards left: they win "
                 f"round {state.round}")
    if state.round == ROUNDS:
        return replace(state, results=results, phase=OVER, grand_master=seat, reveal_first=(),
                       notice=f"{first} and become the GMT, Grand Master of Time!")
    return replace(state, results=results, phase=NEW_LAW, reveal_first=(),
                   notice=f"{first}: they send one player out of the room and make a new "
                          "Law of Time.")


def _new_law(state: State, action: Mapping[str, Any]) -> State:
    if state.phase == OVER:
        raise RuleError("the game is over: no new law after the last round")
    if state.phase != NEW_LAW:
        raise RuleError(f"a new law is made only after a round is won; round {state.round} "
                        "is still being played")
    name = " ".join(_text(action, "name", "the law's name").split())
    twin = find_law(state.laws, name)
    if twin is not None:
        raise RuleError(f"a Law of Time named {twin.name!r} already exists; choose another name")
    when = _text(action, "when", "the When? text")
    what = _text(action, "what", "the What? text")
    creator = _seat(state, action, "creator")
    winner = state.results[-1].seat
    if creator != winner:
        raise RuleError(f"the new law is made by the winner of round {state.round}, "
                        f"{state.who(winner)}, not {state.who(creator)}")
    absent = _seat(state, action, "absent")
    if absent == creator:
        raise RuleError(f"{state.who(absent)} makes the law and cannot also leave the room")
    if absent in state.left_room():
        earlier = next(law.name for law in state.laws if law.absent == absent)
        raise RuleError(f"{state.who(absent)} already left the room once (for {earlier!r}); "
                        "each player leaves only once a game")
    nxt = state.round + 1
    law = Law(name=name, when=when, what=what, creator=creator, absent=absent, from_round=nxt)
    winners = tuple(sorted({r.seat for r in state.results}))
    started = replace(state, laws=state.laws + (law,), round=nxt, phase=PLAYING, dealer=winner,
                      lead=winner, reveal_first=winners, piles=())
    return replace(started, notice=_round_start_notice(started))


def _round_start_notice(state: State) -> str:
    text = f"Round {state.round}: {state.name(state.dealer)} deals {state.deal} cards each"
    if state.reveal_first:
        names = ", ".join(state.name(s) for s in state.reveal_first)
        text += f"; before play, each round winner so far ({names}) turns up a card (no effect)"
    return text + f"; {state.name(state.dealer)} starts at 1 o'clock."


def _verdict(action: Mapping[str, Any], reason: str, state: State) -> tuple[str | None, tuple]:
    verdict = _optional(action, "verdict", Mapping)
    if verdict is None:
        return None, ()
    if reason not in ("slap", "false_slap"):
        raise RuleError(f"action '{action['type']}': a slap verdict goes with reason 'slap' or "
                        f"'false_slap', not {reason!r}")
    try:
        return read_verdict(verdict, state.seats)
    except RuleError as exc:
        raise RuleError(f"action '{action['type']}': {exc}") from exc


def _cause(state: State, text: str | None) -> tuple[str | None, str | None]:
    """Split a cause into (law name, None) when it names a law in force, else (None, text)."""
    if text is None or not text.strip():
        return None, None
    law = find_law(state.laws, text)
    return (law.name, None) if law is not None else (None, " ".join(text.split()))


def _record_pickup(state: State, action: Mapping[str, Any], seat: int, reason: str,
                   cause: str | None, **extra: Any) -> State:
    law, rule = _cause(state, cause)
    pile = _count(action, "pile")
    pickup = Pickup(n=len(state.pickups) + 1, round=state.round, seat=seat, reason=reason,
                    law=law, rule=rule, via=action["type"], pile=pile, **extra)
    piles = tuple((s, c) for s, c in state.piles if s != seat)
    if pile is not None:
        piles += ((seat, pile),)
    why = reason.replace("_", " ") + (f", {law or rule}" if (law or rule) else "")
    notice = (f"{state.name(seat)} picks up ({why}): collect every discard pile, keep up to "
              f"{PICKUP_KEEPS} under the draw pile, box the rest. Any law in effect is "
              f"cancelled. {state.name(seat)} restarts the count at 1 o'clock.")
    opened = state.opened
    if pickup.opens_guess:
        opened = _put(opened, pickup.law, pickup.n)
    return replace(state, pickups=state.pickups.append(pickup), piles=piles, lead=seat,
                   notice=notice, picked=_bump(state.picked, state.round - 1,
                                               state.index(seat)), opened=opened)


def _bump(grid: tuple[tuple[int, ...], ...], r: int, i: int, by: int = 1) -> tuple:
    """``grid`` with ``grid[r][i]`` raised by ``by``."""
    row = grid[r]
    return (*grid[:r], (*row[:i], row[i] + by, *row[i + 1:]), *grid[r + 1:])


def _put(pairs: tuple, key: Any, value: Any) -> tuple:
    """A small (key, value) table with ``key`` set to ``value``."""
    return (*((k, v) for k, v in pairs if k != key), (key, value))


def _reason(action: Mapping[str, Any], default: str | None = None) -> str:
    if default is not None and action.get("reason") is None:
        return default
    reason = require(action, "reason", str)
    if reason not in REASONS:
        raise RuleError(f"action '{action['type']}': unknown reason {reason!r} "
                        f"(one of {', '.join(REASONS)})")
    return reason


def _pickup(state: State, action: Mapping[str, Any]) -> State:
    _in_play(state, "pickup")
    seat = _seat(state, action, "seat")
    reason = _reason(action)
    cause = _optional(action, "law", str)
    verdict, delays = _verdict(action, reason, state)
    return _record_pickup(state, action, seat, reason, cause, verdict=verdict, delays=delays)


def _accusation(state: State, action: Mapping[str, Any]) -> State:
    _in_play(state, "accusation")
    accuser = _seat(state, action, "accuser")
    accused = _seat(state, action, "accused")
    if accuser == accused:
        raise RuleError(f"{state.who(accuser)} cannot accuse themselves")
    cause = _text(action, "law", "the law or rule said to be broken")
    correct = require(action, "correct", bool)
    if correct:
        return _record_pickup(state, action, accused, "temporal_flaw", cause, accuser=accuser)
    return _record_pickup(state, action, accuser, "wrong_accusation", cause, accuser=accuser)


def _mistakes(state: State, action: Mapping[str, Any]) -> State:
    _in_play(state, "mistakes")
    raw = require(action, "seats", (list, tuple))
    if not raw:
        raise RuleError("action 'mistakes': 'seats' lists nobody")
    seats = tuple(_check_seat(state, "mistakes", "seat", s) for s in raw)
    reason = _reason(action, default="temporal_flaw")
    if reason == "wrong_accusation":
        raise RuleError("action 'mistakes': a wrong accusation is recorded with 'accusation'")
    cause = _optional(action, "law", str)
    verdict, delays = _verdict(action, reason, state)
    return _record_pickup(state, action, seats[-1], reason, cause, erred=seats,
                          verdict=verdict, delays=delays)


def _guess(state: State, action: Mapping[str, Any]) -> State:
    _in_play(state, "guess")
    seat = _seat(state, action, "seat")
    wanted = _text(action, "law", "the law's name")
    law = find_law(state.laws, wanted)
    if law is None:
        raise RuleError(f"{state.who(seat)} guesses {wanted!r}, but no Law of Time has that name")
    if law.standing:
        raise RuleError(f"{law.name!r} is a standing law that everyone knows: nothing to guess")
    if law.absent != seat:
        own = next((x.name for x in state.laws if x.absent == seat), None)
        mine = f"they left the room for {own!r}" if own else "they never left the room"
        raise RuleError(f"{state.who(seat)} cannot guess {law.name!r}: {state.who(law.absent)} "
                        f"was out of the room for it ({mine})")
    if state.guessed(law.name):
        raise RuleError(f"{state.who(seat)} already guessed {law.name!r} correctly")
    if not state.can_guess(seat, law):
        raise RuleError(f"{state.who(seat)} may guess {law.name!r} only after someone picks up "
                        "because of it (one proposal per such pick-up)")
    correct = require(action, "correct", bool)
    pile_after = _count(action, "pile_after")
    emptied = _optional(action, "emptied", bool)
    if emptied is None:
        emptied = pile_after == 0
    if emptied and not correct:
        raise RuleError(f"{state.who(seat)}: a wrong guess removes no cards, so it cannot "
                        "empty the draw pile")
    if emptied and pile_after not in (None, 0):
        raise RuleError(f"{state.who(seat)}: 'emptied' but 'pile_after' is {pile_after}")
    if correct and emptied:
        pile_after = 0
    guess = Guess(n=len(state.guesses) + 1, round=state.round, seat=seat, law=law.name,
                  correct=correct, after_pickups=len(state.pickups),
                  removed=GUESS_REMOVES if correct else 0, pile_after=pile_after, emptied=emptied)
    piles = tuple((s, c) for s, c in state.piles if s != seat)
    if pile_after is not None:
        piles += ((seat, pile_after),)
    if correct:
        notice = (f"{state.name(seat)} guessed {law.name!r}: {GUESS_REMOVES} cards from their "
                  "draw pile go back in the box.")
    else:
        notice = (f"{state.name(seat)}'s guess for {law.name!r} is wrong; they may try again "
                  "after the next pick-up because of it.")
    i = state.index(seat)
    after = replace(state, guesses=state.guesses.append(guess), piles=piles, notice=notice,
                    last_guess=_put(state.last_guess, (seat, law.name), len(state.pickups)),
                    correct=state.correct + (law.name,) if correct else state.correct,
                    removed=_bump((state.removed,), 0, i, guess.removed)[0])
    return _win(after, seat, "guess") if emptied else after


def _tick_tock(state: State, action: Mapping[str, Any]) -> State:
    _in_play(state, "tick_tock")
    seat = _seat(state, action, "seat")
    return replace(state, tick_tocks=state.tick_tocks.append(TickTock(state.round, seat)),
                   ticked=_bump(state.ticked, state.round - 1, state.index(seat)))


_HANDLERS = {
    "round_won": _round_won,
    "new_law": _new_law,
    "pickup": _pickup,
    "accusation": _accusation,
    "mistakes": _mistakes,
    "guess": _guess,
    "tick_tock": _tick_tock,
}


# --------------------------------------------------------------------------- snapshot


def pickups_per_round(state: State) -> list[dict]:
    """Pick-ups per player for every round begun: ``[{"round", "by_seat": {seat: n}}]``."""
    return [{"round": rnd, "by_seat": {str(s): n for s, n in zip(state.seats, row,
                                                                 strict=True)}}
            for rnd, row in enumerate(state.picked[:state.round], start=1)]


def slap_delays(state: State) -> dict[str, list]:
    """Every delay (ms after the first slap) the slap verdicts gave each seat."""
    out: dict[str, list] = {str(s): [] for s in state.seats}
    for p in state.pickups:
        for seat, ms in p.delays:
            out[str(seat)].append(ms)
    return out


def snapshot(state: State, recent: int | None = None) -> dict:
    """The whole game as JSON data, secrets included (export/statistics, not the screen).
    With ``recent``: the newest ``recent`` pick-ups, guesses and "Tick, Tock" calls, and
    no slap statistics."""
    out = {
        "game": NAME,
        "players": [{"name": p.name, "seat": p.seat} for p in state.players],
        "deal": state.deal,
        "first_dealer": state.first_dealer,
        "round": state.round,
        "phase": state.phase,
        "dealer": state.dealer,
        "lead": state.lead,
        "notice": state.notice,
        "reveal_first": list(state.reveal_first),
        "laws": [{"name": x.name, "when": x.when, "what": x.what, "standing": x.standing,
                  "creator": x.creator, "absent": x.absent, "from_round": x.from_round,
                  "guessed": state.guessed(x.name)} for x in state.laws],
        "left_room": list(state.left_room()),
        "pickups": [pickup_json(p) for p in newest(state.pickups, recent)],
        "guesses": [guess_json(g) for g in newest(state.guesses, recent)],
        "tick_tocks": [{"round": t.round, "seat": t.seat}
                       for t in newest(state.tick_tocks, recent)],
        "results": [result_json(r) for r in state.results],
        "piles": {str(s): c for s, c in state.piles},
        "grand_master": state.grand_master,
        "pickups_per_round": pickups_per_round(state),
    }
    if recent is None:
        out["slap_delays"] = slap_delays(state)
    return out


__all__ = ["NAME", "TITLE", "ROUNDS", "REASONS", "State", "Pickup", "Guess", "RoundResult",
           "Law", "deal_size", "initial", "apply", "snapshot"]
