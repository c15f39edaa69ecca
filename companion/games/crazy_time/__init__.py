"""Crazy Time referee: a pure rules engine for a whole four-round game.

The engine cannot see the cards, so the table tells it what happened (a round was won,
someone picks up and why, a law was made, a guess was right) and the engine keeps the
book: deal size, who deals and leads, the Laws of Time in force and their secrets, every
pick-up with its cause, who left the room, guesses and the cards they removed, round
winners and the Grand Master of Time. It refuses what the rules forbid (a fifth round,
leaving the room twice, a guess before anyone picked up because of the law ...).

Wiring: the session keeps the game log and computes ``state`` by replaying it through
``apply`` from ``initial(setup)`` (``companion.games.replay``). When the slap arbiter
closes a "Stop Time" round, the slap screen puts the round's facts (``Verdict.to_facts()``) into
a ``pickup`` action (``reason: "slap"``, or ``"false_slap"`` for a false alarm) for the
seat the verdict names or the table chose among its candidates; the engine derives the
verdict from the facts with the one ``decide()`` and refuses any other seat
(``pickups``). Action fields are read by ``fields``. The screen never reads
``State`` directly: it calls ``crazy_time_view.view(state, viewer_seat)``, which keeps
each new law's text from the player who was out of the room. ``snapshot()`` is the full
record (secrets included) for export and statistics, not for the screen.

The action list and the rule readings are in ``docs/crazy-time.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import (
    GameInfo,
    Outcome,
    Player,
    RoundsTable,
    Timeline,
    handler_for,
    players_from_setup,
    require,
    seated,
)
from companion.games.crazy_time.fields import (
    GUESS_REMOVES,
    NEW_LAW,
    OVER,
    PICKUP_KEEPS,
    PLAYING,
    bound_after,
    bump,
    check_pile,
    count_field,
    in_play,
    optional,
    pile_bound,
    put_pair,
    seat_field,
    text_field,
)
from companion.games.crazy_time.laws import STANDING_LAWS, Law, find_law
from companion.games.crazy_time.pickups import (
    REASONS,
    accusation,
    mistakes,
    pickup,
)
from companion.games.crazy_time.records import (
    Guess,
    Pickup,
    RoundResult,
    TickTock,
    guess_json,
    pickup_json,
    pickups_per_round,
    result_json,
    slap_delays,
)
from companion.games.pvec import EMPTY, PVec, newest
from companion.speech.lines import VERDICT, Line
from companion.speech.words import cap, number_words, who

GAME = GameInfo(
    name="crazy_time",
    title="Crazy Time",
    blurb="Slap pad, laws, pick-ups",
    order=10,
    screen="companion.ui.screens.crazy_time:CrazyTimeScreen",
    players=(4, 7),
    first_player=("first_dealer", "Deals first"),
    version=5,  # 2: slap pick-ups agree with their verdict, record who chose; 3: pile
    # counts hold against the five cards a pick-up keeps and a correct guess removes;
    # 4: slap pick-ups store facts, a seat that could not be timed is a candidate; a
    # counted pile never exceeds the deal + 5 a pick-up - 5 a correct guess this round;
    # 5: the last count still binds after pick-ups and guesses nobody counted
)
NAME = GAME.name
TITLE = GAME.title

ROUNDS = 4

_DEAL = {4: 15, 5: 12, 6: 10, 7: 9}


def deal_size(n_players: int) -> int:
    """Cards dealt to each player at the start of every round, by number of players."""
    if isinstance(n_players, bool) or n_players not in _DEAL:
        raise RuleError("crazy_time.player_count", "Crazy Time is played by 4 to 7 players, "
                        "not {count}.", count=n_players)
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
    # (seat, counted, pick-ups since, correct guesses since, most): each seat's last count
    # this round and the most its pile can hold now (``fields.check_pile``)
    bounds: tuple[tuple[int, int, int, int, int], ...] = ()
    grand_master: int | None = None
    picked: tuple[tuple[int, ...], ...] = ()
    ticked: tuple[tuple[int, ...], ...] = ()
    removed: tuple[int, ...] = ()
    opened: tuple[tuple[str, int], ...] = ()
    last_guess: tuple[tuple[tuple[int, str], int], ...] = ()
    correct: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()

    def name(self, seat: int) -> str:
        for p in self.players:
            if p.seat == seat:
                return p.name
        return f"seat {seat}"

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
        raise MalformedAction(f"seat {seat} is not in this game")

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
    players = players_from_setup(setup, *GAME.players, game=TITLE)
    seats = tuple(p.seat for p in players)
    first = setup.get("first_dealer", players[0].seat)
    if isinstance(first, bool) or not isinstance(first, int) or first not in seats:
        raise MalformedAction(f"first_dealer {first!r} is not a seat in this game "
                              f"{list(seats)}")
    zeros = (0,) * len(players)
    state = State(players=players, deal=deal_size(len(players)), first_dealer=first,
                  round=1, phase=PLAYING, dealer=first, lead=first, notice="",
                  picked=(zeros,) * ROUNDS, ticked=(zeros,) * ROUNDS, removed=zeros,
                  seats=seats)
    return replace(state, notice=_round_start_notice(state))


# --------------------------------------------------------------------------- apply


def apply(state: State, action: Mapping[str, Any]) -> State:
    """The state after ``action``, or RuleError (``state`` itself is never changed)."""
    _, handler = handler_for(_HANDLERS, action, "Crazy Time")
    return handler(state, action)


def _round_won(state: State, action: Mapping[str, Any]) -> State:
    if state.phase == OVER:
        raise RuleError("crazy_time.no_fifth_round", "There is no round {next}: the game "
                        "ended after round {rounds}.", next=ROUNDS + 1, rounds=ROUNDS)
    in_play(state)
    return _win(state, seat_field(state, action, "seat"), "emptied")


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
        raise RuleError("crazy_time.no_law_after_last_round", "The game is over: no new law "
                        "after the last round.")
    if state.phase != NEW_LAW:
        raise RuleError("crazy_time.law_after_win", "A new law is made only after a round "
                        "is won; round {round} is still being played.", round=state.round)
    name = " ".join(text_field(action, "name", "the law's name").split())
    twin = find_law(state.laws, name)
    if twin is not None:
        raise RuleError("crazy_time.law_name_taken", "There is already a Law of Time called "
                        "{law}: choose another name.", law=twin.name)
    when = text_field(action, "when", "when the law applies (When?)")
    what = text_field(action, "what", "what must be done (What?)")
    creator = seat_field(state, action, "creator")
    winner = state.results[-1].seat
    if creator != winner:
        raise RuleError("crazy_time.law_by_winner", "The new law is made by {winner}, who won "
                        "round {round}, not by {creator}.", winner=state.name(winner),
                        round=state.round, creator=state.name(creator))
    absent = seat_field(state, action, "absent")
    if absent == creator:
        raise RuleError("crazy_time.creator_stays", "{name} makes the law and cannot also "
                        "leave the room.", name=state.name(absent))
    if absent in state.left_room():
        earlier = next(law.name for law in state.laws if law.absent == absent)
        raise RuleError("crazy_time.left_once", "{name} already left the room once (for "
                        "{law}): each player leaves only once a game.",
                        name=state.name(absent), law=earlier)
    nxt = state.round + 1
    law = Law(name=name, when=when, what=what, creator=creator, absent=absent, from_round=nxt)
    winners = tuple(sorted({r.seat for r in state.results}))
    started = replace(state, laws=state.laws + (law,), round=nxt, phase=PLAYING, dealer=winner,
                      lead=winner, reveal_first=winners, piles=(), bounds=())
    return replace(started, notice=_round_start_notice(started))


def _round_start_notice(state: State) -> str:
    text = f"Round {state.round}: {state.name(state.dealer)} deals {state.deal} cards each"
    if state.reveal_first:
        names = ", ".join(state.name(s) for s in state.reveal_first)
        text += f"; before play, each round winner so far ({names}) turns up a card (no effect)"
    return text + f"; {state.name(state.dealer)} starts at 1 o'clock."


def _guess(state: State, action: Mapping[str, Any]) -> State:
    in_play(state)
    seat = seat_field(state, action, "seat")
    wanted = text_field(action, "law", "the law's name")
    law = find_law(state.laws, wanted)
    if law is None:
        raise RuleError("crazy_time.guess_unknown_law", "{name} guesses {law}, but no Law of "
                        "Time has that name.", name=state.name(seat), law=wanted)
    if law.standing:
        raise RuleError("crazy_time.guess_standing_law", "{law} is a standing law that "
                        "everyone knows: there is nothing to guess.", law=law.name)
    if law.absent != seat:
        own = next((x.name for x in state.laws if x.absent == seat), None)
        raise RuleError("crazy_time.guess_not_absent", "{name} cannot guess {law}: {absent} was "
                        "out of the room for it ({mine}).", name=state.name(seat), law=law.name,
                        absent=state.name(law.absent),
                        mine=f"they left the room for {own}" if own
                        else "they never left the room")
    if state.guessed(law.name):
        raise RuleError("crazy_time.guessed_already", "{name} already guessed {law} "
                        "correctly.", name=state.name(seat), law=law.name)
    if not state.can_guess(seat, law):
        raise RuleError("crazy_time.guess_needs_pickup", "{name} may guess {law} only after "
                        "someone picks up because of it (one proposal per such pick-up).",
                        name=state.name(seat), law=law.name)
    correct = require(action, "correct", bool)
    pile_after = count_field(action, "pile_after")
    if correct:
        check_pile(state, seat, pile_after, -GUESS_REMOVES,
                   f"a correct guess removes {GUESS_REMOVES} cards")
    else:
        check_pile(state, seat, pile_after, 0, "a wrong guess removes none")
    # a pile that holds five or fewer by its last count (it can only have shrunk since,
    # save for the pick-ups since) is emptied
    bound = pile_bound(state, seat)
    most = None if bound is None else bound[3]
    empties = correct and most is not None and most <= GUESS_REMOVES
    emptied = optional(action, "emptied", bool)
    if emptied is False and empties:
        known = f"was counted at {bound[0]}"
        if most != bound[0]:
            known += f" and holds at most {most} since"
        raise RuleError("crazy_time.pile_emptied", "{name}'s draw pile {known}: a correct "
                        "guess removes {removes} cards and leaves none, so {name} wins the "
                        "round.", name=state.name(seat), known=known, removes=GUESS_REMOVES)
    if emptied is None:
        emptied = pile_after == 0 or empties
    if emptied and not correct:
        raise RuleError("crazy_time.wrong_guess_empties", "A wrong guess removes no cards, so "
                        "it cannot empty {name}'s draw pile.", name=state.name(seat))
    if emptied and pile_after not in (None, 0):
        raise MalformedAction(f"guess: 'emptied' but 'pile_after' is {pile_after}")
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
    bounds = bound_after(state, seat, pile_after, -GUESS_REMOVES if correct else 0)
    after = replace(state, guesses=state.guesses.append(guess), piles=piles, bounds=bounds,
                    notice=notice,
                    last_guess=put_pair(state.last_guess, (seat, law.name), len(state.pickups)),
                    correct=state.correct + (law.name,) if correct else state.correct,
                    removed=bump((state.removed,), 0, i, guess.removed)[0])
    return _win(after, seat, "guess") if emptied else after


def _tick_tock(state: State, action: Mapping[str, Any]) -> State:
    in_play(state)
    seat = seat_field(state, action, "seat")
    return replace(state, tick_tocks=state.tick_tocks.append(TickTock(state.round, seat)),
                   ticked=bump(state.ticked, state.round - 1, state.seats.index(seat)))


_HANDLERS = {
    "round_won": _round_won,
    "new_law": _new_law,
    "pickup": pickup,
    "accusation": accusation,
    "mistakes": mistakes,
    "guess": _guess,
    "tick_tock": _tick_tock,
}


# --------------------------------------------------------------------------- snapshot


def is_over(state: State) -> bool:
    """Round 4 has a winner, the Grand Master of Time (the session closes the game)."""
    return state.phase == OVER


def snapshot(state: State, recent: int | None = None) -> dict:
    """The whole game as JSON data, secrets included (export/statistics, not the screen).
    With ``recent``: the newest ``recent`` pick-ups, guesses and "Tick, Tock" calls, and
    no slap statistics."""
    pickups = [pickup_json(p) for p in newest(state.pickups, recent)]
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
        "pickups": pickups,
        "guesses": [guess_json(g) for g in newest(state.guesses, recent)],
        "tick_tocks": [{"round": t.round, "seat": t.seat}
                       for t in newest(state.tick_tocks, recent)],
        "results": [result_json(r) for r in state.results],
        "piles": {str(s): c for s, c in state.piles},
        "grand_master": state.grand_master,
        "pickups_per_round": pickups_per_round(state),
    }
    if recent is None:
        out["slap_delays"] = slap_delays(state, pickups)
    return out


def outcome(state: State) -> Outcome:
    """The winner of the fourth round wins the game: the Grand Master of Time. Every
    slap round's delays count as the seats' reaction times."""
    if state.grand_master is not None:
        status = f"Round {state.round}: {state.name(state.grand_master)} is the Grand " \
                 "Master of Time"
    else:
        status = f"Round {state.round}"
    return Outcome(seated(state.players), status,
                   winners=() if state.grand_master is None else (state.grand_master,),
                   reactions={int(s): tuple(d) for s, d in slap_delays(state).items()})


def charts(state: State) -> tuple[Timeline | RoundsTable, ...]:
    """The pick-ups per player in every round begun, and the slap rounds' delays, one line
    per slap round named by the game's round ("round 2, slap 1"; none without one)."""
    picked = RoundsTable("Pick-ups per player, round by round", state.seats,
                         tuple(dict(zip(state.seats, row, strict=True))
                               for row in state.picked[:state.round]))
    slapped = [p for p in state.pickups if p.facts is not None and p.delays]
    if not slapped:
        return (picked,)
    labels, count = [], {}
    for p in slapped:
        count[p.round] = count.get(p.round, 0) + 1
        labels.append(f"round {p.round}, slap {count[p.round]}")
    return (picked, Timeline("Slap timeline: each slap round, ms after the first slap",
                             tuple(tuple(p.delays) for p in slapped), tuple(labels)))



# --------------------------------------------------------------------------- spoken

#: The actions after which the box may say something (``spoken``): the slap verdict is
#: said by the slap pad as it is reached, so a pick-up says nothing more.
SPOKEN_AFTER = frozenset({"round_won", "guess"})


def spoken(before: dict, _action: Mapping[str, Any], after: dict,
           names: Mapping[int, str]) -> Line | None:
    """A round won, and the Grand Master of Time (a guess that empties a pile wins)."""
    if len(after["results"]) <= len(before["results"]):
        return None
    result = after["results"][-1]
    name = who(names, result["seat"])
    rnd = number_words(result["round"])
    if after.get("grand_master") is not None:
        return Line(cap(f"{name} wins round {rnd} and is Grand Master of Time!"), VERDICT,
                    tone=True, short=cap(f"{name} is Grand Master of Time!"))
    return Line(cap(f"{name} wins round {rnd}."), VERDICT, tone=True)


__all__ = ["NAME", "TITLE", "ROUNDS", "REASONS", "PICKUP_KEEPS", "State", "Pickup", "Guess",
           "RoundResult",
           "Law", "deal_size", "initial", "apply", "snapshot", "outcome", "charts"]
