"""Crazy Time presenter: the game screen's plain view data for one viewer.

``view(state, viewer_seat)`` turns a ``crazy_time.State`` into dicts, lists, strings and
numbers, ready for a Kivy screen (no Kivy here, so it is tested without a window).
It is the only way the screen should read the game, because it keeps the secret: the
When?/What? text of a law the table invented is left out entirely (the keys are absent)
for the player who was out of the room when it was made, and for ``viewer_seat=None``
("nobody identified", e.g. the shared table screen). The standing laws are public.
Free text typed by the table (the rule named in a pick-up, the notice) is scrubbed too
if it quotes a secret the viewer may not see.

Wiring: the game screen calls ``view(state, None)`` for the shared display; a player who
wants to read the laws identifies with their seat button and the screen calls
``view(state, seat)``. ``new_law`` tells the law-entry screen who creates the law and
who may be sent out; ``guesses_open`` tells it whose "guess" button to offer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games.crazy_time import NEW_LAW, OVER, PLAYING, ROUNDS, TITLE, State
from companion.games.crazy_time.laws import Law, hidden_from, law_key
from companion.games.crazy_time.records import Pickup

SECRET_PLACEHOLDER = "(a secret law)"


def view(state: State, viewer_seat: int | None) -> dict[str, Any]:
    """Plain view data for ``viewer_seat`` (a seat in the game, or None for nobody)."""
    viewer = viewer_seat if viewer_seat in state.seats else None
    secrets = tuple(key for law in state.laws if hidden_from(law, viewer)
                    for key in (law_key(law.when), law_key(law.what)) if key)

    def scrub(text: str | None) -> str | None:
        if text is None:
            return None
        key = law_key(text)
        return SECRET_PLACEHOLDER if any(s in key for s in secrets) else text

    def who(seat: int | None) -> dict | None:
        return None if seat is None else {"seat": seat, "name": state.name(seat)}

    return {
        "title": TITLE,
        "viewer": who(viewer),
        "phase": state.phase,
        "round": state.round,
        "rounds": ROUNDS,
        "deal": state.deal,
        "dealer": who(state.dealer),
        "lead": who(state.lead) if state.phase == PLAYING else None,
        "notice": scrub(state.notice),
        "reveal_first": [who(s) for s in state.reveal_first],
        "players": [_player(state, p.seat, viewer) for p in state.players],
        "laws": [_law(state, law, viewer) for law in state.laws],
        "pickups": [_pickup(state, p, scrub) for p in state.round_pickups()],
        "pickup_grid": _grid(state),
        "guesses_open": [{"seat": law.absent, "name": state.name(law.absent), "law": law.name}
                         for law in state.laws
                         if law.absent is not None and state.can_guess(law.absent, law)],
        "last_guess": _last_guess(state),
        "new_law": _new_law(state) if state.phase == NEW_LAW else None,
        "results": [{"round": r.round, "seat": r.seat, "name": state.name(r.seat),
                     "how": r.how} for r in state.results],
        "grand_master": who(state.grand_master) if state.phase == OVER else None,
    }


def _last_guess(state: State) -> dict[str, Any] | None:
    """The newest guess of this round when nobody picked up since (what the table did
    last), else None. Its law's name is public; its secret text is not in it."""
    if not state.guesses:
        return None
    g = state.guesses[-1]
    if g.round != state.round or g.after_pickups != len(state.pickups):
        return None
    return {"seat": g.seat, "name": state.name(g.seat), "law": g.law, "correct": g.correct,
            "removed": g.removed}


def _player(state: State, seat: int, viewer: int | None) -> dict[str, Any]:
    left_for = next((law.name for law in state.laws if law.absent == seat), None)
    piles = dict(state.piles)
    return {
        "seat": seat,
        "name": state.name(seat),
        "is_viewer": seat == viewer,
        "is_dealer": seat == state.dealer,
        "is_lead": seat == state.lead and state.phase == PLAYING,
        "pickups_round": state.pickup_count(seat, state.round),
        "pickups_total": state.pickup_count(seat),
        "rounds_won": sum(1 for r in state.results if r.seat == seat),
        "left_room_for": left_for,
        "cards_removed": state.cards_removed(seat),
        "pile_told": piles.get(seat),
        "tick_tocks_round": state.tick_tock_count(seat, state.round),
        "reveal_first": seat in state.reveal_first,
        "grand_master": seat == state.grand_master,
    }


def _law(state: State, law: Law, viewer: int | None) -> dict[str, Any]:
    hidden = hidden_from(law, viewer)
    out: dict[str, Any] = {
        "name": law.name,
        "standing": law.standing,
        "from_round": law.from_round,
        "creator": law.creator,
        "creator_name": None if law.creator is None else state.name(law.creator),
        "absent": law.absent,
        "absent_name": None if law.absent is None else state.name(law.absent),
        "guessed": state.guessed(law.name),
        "hidden": hidden,
    }
    if not hidden:
        out["when"] = law.when
        out["what"] = law.what
    return out


def _pickup(state: State, p: Pickup, scrub: Callable[[str | None], str | None]) -> dict[str, Any]:
    return {
        "n": p.n,
        "seat": p.seat,
        "name": state.name(p.seat),
        "reason": p.reason,
        "cause": p.law if p.law is not None else scrub(p.rule),
        "accuser": p.accuser,
        "erred": list(p.erred),
    }


def _grid(state: State) -> dict[str, Any]:
    """Pick-ups per player per round begun: rows for a small bar chart or table."""
    rounds = list(range(1, state.round + 1))
    rows = []
    for pl in state.players:
        counts = [state.pickup_count(pl.seat, r) for r in rounds]
        rows.append({"seat": pl.seat, "name": pl.name, "counts": counts})
    return {"rounds": rounds, "rows": rows}


def _new_law(state: State) -> dict[str, Any]:
    creator = state.results[-1].seat
    gone = state.left_room()
    return {
        "for_round": state.round + 1,
        "creator": creator,
        "creator_name": state.name(creator),
        "absent_choices": [s for s in state.seats if s != creator and s not in gone],
    }
