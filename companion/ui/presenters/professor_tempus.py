"""Professor Tempus as plain view data for the host's screen (no Kivy here).

The host enters each move: a kind (open + / open − / play on / tuck), a holder, a colour,
then taps the value, which builds the action. At a round's end the host enters each
player's hourglasses with +/−, then the round is scored. ``Move`` holds the choice.
From the scores (the players strip) the table reaches the totals, with count 1 and
count 2 apart in the 5-player variant, and can correct an earlier round's count.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from companion.games import professor_tempus as pt

MODES = (("open+", "Open +"), ("open-", "Open −"), ("play_on", "Play on"), ("tuck", "Tuck"))
COLOURS = (("red", "Red"), ("purple", "Purple"), ("joker", "Joker"))
VALUES = tuple(range(1, pt.MAX_VALUE + 1))


@dataclass(frozen=True)
class Move:
    """The entry being made: kind, holder, colour. ``suit``: the last red or purple
    chosen, the colour the next turn starts with (a joker is one card, not a series'
    colour)."""

    mode: str = "open+"
    holder: int | None = None
    colour: str = "red"
    suit: str = dataclasses.field(default="red", compare=False)

    def but(self, **changes) -> Move:
        return dataclasses.replace(self, **changes)

    def in_colour(self, colour: str) -> Move:
        """The move with ``colour`` chosen (remembered for the next turn unless a joker)."""
        return self.but(colour=colour, suit=self.suit if colour == "joker" else colour)


def fresh_move(state: pt.State, last: Move | None = None) -> Move:
    """The move to start a turn with: open on a free holder, or play on otherwise, in
    the colour of ``last`` (the move before: red or purple stays chosen from player to
    player; red at the start)."""
    suit = last.suit if last is not None else "red"
    free = [h for h, s in enumerate(state.holders) if s is None]
    if any(s is not None for s in state.holders):
        return Move(mode="play_on", colour=suit, suit=suit)
    return Move(mode="open+", holder=free[0] if free else None, colour=suit, suit=suit)


def turn_seat(state: pt.State) -> int | None:
    return state.players[state.turn].seat if state.phase == "play" else None


def name_of(state: pt.State, seat: int) -> str:
    return next(p.name for p in state.players if p.seat == seat)


_last: list = [None, None]  # the last state snapshotted, and its snapshot


def snapshot(state: pt.State) -> dict:
    """The engine's snapshot of ``state``, made once per state: a screen update asks
    for it from several presenters (a state never changes; only the last is kept)."""
    if _last[0] is not state:
        _last[0], _last[1] = state, pt.snapshot(state)
    return _last[1]


def keep(state: pt.State, snap: dict) -> None:
    """Take ``snap`` (the engine's ``snapshot(state)``, made by someone else: the
    session keeps the last two it made) as ``state``'s: the screen hands in the
    session's, so the spoken line of a count and an undo make none again."""
    _last[0], _last[1] = state, snap


def header(state: pt.State) -> str:
    snap = snapshot(state)
    count = f" (count {state.count})" if state.two_counts else ""
    last = " · last round" if snap["last_round"] else ""
    left = snap["refills_left"]
    refills = f"{left} refill{'s' if left != 1 else ''} left" if left else "no refill left"
    return f"Round {state.round}{count} · pile {state.draw_pile}\n{refills}{last}"


def turn_text(state: pt.State) -> str:
    if state.phase == "over":
        return "Game over"
    if state.phase == "scoring":
        return "Count hourglasses"
    return turn_of(state.players[state.turn].name)


def turn_of(name: str) -> str:
    """The headline while ``name`` plays: "Ann's turn"."""
    return f"{name}'s turn"


def points(state: pt.State, seat: int, per_count: list | None = None) -> str:
    """A seat's score for the strip: "7 points", or "3+4 points" once the variant's
    count 2 has begun (count 1 + count 2). ``per_count``: ``pt.counts(state)`` if
    already at hand (the snapshot's ``counts``)."""
    if per_count is None:
        per_count = pt.counts(state)
    key = str(seat)
    if state.two_counts and len(per_count) == 2:
        return f"{per_count[0][key]}+{per_count[1][key]} points"
    total = sum(c[key] for c in per_count)
    return f"{total} point{'s' if total != 1 else ''}"


def players(state: pt.State) -> list[dict]:
    """Per player: seat, name, cards in hand, total hourglasses, whether on turn, and
    the two lines to show (``name``; ``detail``, the secondary line in words: with four
    or five players a cell is too narrow for both, so it holds the score alone and the
    cards are in the scores panel)."""
    snap = snapshot(state)
    totals, per_count = snap["totals"], snap["counts"]
    on = turn_seat(state)
    width = len(state.players)  # the narrower the cell, the shorter the detail line
    out = []
    for p, n in zip(state.players, state.hands, strict=True):
        pts = points(state, p.seat, per_count)
        cards = f"{n} card{'s' if n != 1 else ''}"
        detail = pts if width >= 4 else f"{cards} · {pts}"
        out.append({"seat": p.seat, "name": p.name, "hand": n, "total": totals[str(p.seat)],
                    "on_turn": p.seat == on, "detail": detail,
                    "text": f"{p.name}\n{detail}"})
    return out


def score_table(state: pt.State) -> list[dict]:
    """The totals for the scores panel: one line per count in the variant (count 1,
    count 2) and the total; ``values`` maps seat -> hourglasses."""
    per_count = snapshot(state)["counts"]
    seats = [p.seat for p in state.players]
    lines = []
    if state.two_counts:
        lines = [{"label": f"Count {k + 1}", "values": {s: c[str(s)] for s in seats}}
                 for k, c in enumerate(per_count)]
    lines.append({"label": "Total",
                  "values": {s: sum(c[str(s)] for c in per_count) for s in seats}})
    return lines


def counted_rounds(state: pt.State) -> list[int]:
    """The rounds whose count is in, which the table may correct."""
    return [r.number for r in state.rounds if r.hourglasses is not None]


def _record(state: pt.State, number: int) -> pt.Round:
    return next(r for r in state.rounds if r.number == number)


def round_title(state: pt.State, number: int) -> str:
    r = _record(state, number)
    return f"Round {number}" + (f" (count {r.count})" if state.two_counts else "")


def correction_limits(state: pt.State, number: int) -> dict[int, int]:
    """Seat -> the most hourglasses the cards it collected in that round can show."""
    r = _record(state, number)
    return {p.seat: pt.MAX_HOURGLASSES * len(c)
            for p, c in zip(state.players, r.collected, strict=True)}


def correction_entries(state: pt.State, number: int) -> dict[int, int]:
    """The count as it stands, to start the correction from."""
    r = _record(state, number)
    return {p.seat: n for p, n in zip(state.players, r.hourglasses or (), strict=False)}


def correction_rows(state: pt.State, number: int, entries: dict[int, int]) -> list[dict]:
    """As ``score_rows``, for an earlier round's count."""
    return _count_rows(state, entries, _record(state, number).collected)


def correct_action(state: pt.State, number: int, entries: dict[int, int]) -> dict:
    return {"type": "correct_round", "round": number,
            "hourglasses": {str(p.seat): entries.get(p.seat, 0) for p in state.players}}


def holders(state: pt.State, move: Move) -> list[dict]:
    """The three holders: text, owner seat, selected, and enabled for the chosen kind."""
    seat = turn_seat(state)
    mine_only = seat is not None and not any(
        s is None or s.owner != seat for s in state.holders)
    out = []
    for h, s in enumerate(state.holders):
        if s is None:
            text, owner, nxt = "free", None, ""
            enabled = move.mode.startswith("open")
        else:
            arrow = "up" if s.direction == "+" else "down"
            colour = s.colour or "any"
            text, owner = f"{arrow} {s.last.value} {s.last.colour}", s.owner
            nxt = f"next: {colour}"
            enabled = not move.mode.startswith("open") and (
                s.owner != seat or (move.mode == "tuck" and mine_only))
        out.append({"holder": h, "text": text, "next": nxt, "owner": owner,
                    "selected": h == move.holder and state.phase == "play",
                    "enabled": enabled and state.phase == "play"})
    return out


def build_action(state: pt.State, move: Move, value: int) -> tuple[dict | None, str]:
    """The action for the tapped value, or None and what to choose first. Whether the
    card may be played there is the engine's to say (``app.act`` shows its sentence)."""
    if move.holder is None:
        return None, "Choose a holder first"
    seat = state.players[state.turn].seat  # after the round, the engine says it is over
    card = {"colour": move.colour, "value": value}
    if move.mode.startswith("open"):
        return {"type": "open_series", "seat": seat, "holder": move.holder,
                "direction": move.mode[-1], "card": card}, ""
    return {"type": move.mode, "seat": seat, "holder": move.holder, "card": card}, ""


# -- the count at a round's end -----------------------------------------------------------


def score_limits(state: pt.State) -> dict[int, int]:
    """Seat -> the most hourglasses the cards it collected this round can show."""
    if state.phase != "scoring":
        return {}
    last = state.rounds[-1]
    return {p.seat: pt.MAX_HOURGLASSES * len(c)
            for p, c in zip(state.players, last.collected, strict=True)}


def bump(entries: dict[int, int], limits: dict[int, int], seat: int, delta: int) -> dict:
    out = dict(entries)
    out[seat] = max(0, min(limits.get(seat, 0), out.get(seat, 0) + delta))
    return out


def count_key(state: pt.State) -> int:
    """Which round's count is being entered (the rounds played so far, this one too)."""
    return len(state.rounds)


def count_entries(kept: dict[int, dict[int, int]], state: pt.State) -> dict[int, int]:
    """The hourglasses entered for the round now being counted, each within its cap.
    ``kept`` holds each round's count by ``count_key`` and keeps it after "Score round":
    an undo of the score reopens the count as it was entered."""
    if state.phase != "scoring":
        return {}
    limits = score_limits(state)
    return {seat: min(value, limits.get(seat, 0))
            for seat, value in kept.get(count_key(state), {}).items()}


def bump_count(kept: dict[int, dict[int, int]], state: pt.State, seat: int,
               delta: int) -> dict[int, dict[int, int]]:
    """``kept`` with ``seat``'s count for the round being counted moved by ``delta``."""
    entries = bump(count_entries(kept, state), score_limits(state), seat, delta)
    return {**kept, count_key(state): entries}


def cap_reason(name: str, cards: int) -> str:
    """Why "+" stops for a player: at most 3 hourglasses per card they collected (short
    enough for the status bar)."""
    word = "no cards" if cards == 0 else f"{cards} card" + "s" * (cards != 1)
    return (f"{name}'s max: {pt.MAX_HOURGLASSES * cards} "
            f"({pt.MAX_HOURGLASSES} hourglasses per card, {word})")


def _count_rows(state: pt.State, entries: dict[int, int], collected) -> list[dict]:
    rows = []
    for p, c in zip(state.players, collected, strict=True):
        value, cards = entries.get(p.seat, 0), len(c)
        cap = pt.MAX_HOURGLASSES * cards
        rows.append({"seat": p.seat, "name": p.name, "value": value,
                     "text": f"{p.name}: {value}", "cards": cards, "max": cap,
                     "detail": f"max {cap}: {cards} card{'s' * (cards != 1)}",
                     "can_minus": value > 0, "can_plus": value < cap,
                     "why_not_plus": "" if value < cap else cap_reason(p.name, cards)})
    return rows


def score_rows(state: pt.State, entries: dict[int, int]) -> list[dict]:
    """Per player during the count: the value, the cap (3 hourglasses per collected
    card), whether − and + may be used, and why not + (said when it is tapped)."""
    if state.phase != "scoring":
        return [{"seat": p.seat, "name": p.name, "value": entries.get(p.seat, 0),
                 "text": f"{p.name}: {entries.get(p.seat, 0)}", "cards": 0, "max": 0,
                 "detail": "", "can_minus": entries.get(p.seat, 0) > 0, "can_plus": False,
                 "why_not_plus": "The round is not being counted"}
                for p in state.players]
    return _count_rows(state, entries, state.rounds[-1].collected)


def score_action(state: pt.State, entries: dict[int, int]) -> dict:
    return {"type": "score_round",
            "hourglasses": {str(p.seat): entries.get(p.seat, 0) for p in state.players}}


def winners_text(state: pt.State) -> str:
    snap = snapshot(state)
    if not snap["over"]:
        return ""
    names = [name_of(state, s) for s in snap["winners"]]
    best = snap["totals"][str(snap["winners"][0])] if snap["winners"] else 0
    return " & ".join(names) + f" win{'s' * (len(names) == 1)}: {best} hourglasses"
