"""Player setup as data: which seats are in play, who sits there, and what is wrong.

The setup screen edits a list of ``SeatRow``; ``setup_from_rows`` turns it into the
``{"players": [...]}`` setup that a rules engine checks, or a message naming the problem.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.config import Config
from companion.games import info
from companion.palette import rgba


def first_player(kind: str) -> tuple[str, str] | None:
    """``(setup key, the button's words)`` when the game's engine takes who begins."""
    game = info(kind)
    return game.first_player if game is not None else None


def first_choice(kind: str, rows: list[SeatRow], current: int | None) -> int | None:
    """The seat that begins: ``current`` while it is still in play, else the first seat
    in play (None for a game that does not ask)."""
    if first_player(kind) is None:
        return None
    playing = [r.seat for r in rows if r.in_play]
    if current in playing:
        return current
    return playing[0] if playing else None


def next_first(rows: list[SeatRow], current: int | None) -> int | None:
    """The next seat in play after ``current`` (wrapping): a tap on "Deals first"."""
    playing = [r.seat for r in rows if r.in_play]
    if not playing:
        return None
    if current not in playing:
        return playing[0]
    return playing[(playing.index(current) + 1) % len(playing)]


@dataclass(frozen=True)
class SeatRow:
    seat: int
    colour: str
    name: str
    in_play: bool

    @property
    def rgba(self) -> tuple[float, float, float, float]:
        return rgba(self.colour)


def default_rows(config: Config, known: list[tuple[str, int | None]] = ()) -> list[SeatRow]:
    """One row per configured seat, pre-filled with who last sat there."""
    last = {seat: name for name, seat in reversed(list(known)) if seat is not None}
    return [SeatRow(s.seat, s.colour, last.get(s.seat, ""), s.seat in last or s.seat <= 4)
            for s in config.seats]


def setup_from_rows(kind: str, rows: list[SeatRow],
                    first: int | None = None) -> tuple[dict | None, str]:
    """``(setup, "")`` when the table is ready for ``kind``; ``(None, why)`` otherwise.
    ``first``: the seat that deals or plays first, for the games that ask."""
    game = info(kind)
    lo, hi = game.players if game is not None else (1, 8)  # the rulebook's, from the engine
    playing = [r for r in rows if r.in_play]
    if not lo <= len(playing) <= hi:
        return None, f"This game takes {lo} to {hi} players; {len(playing)} seats are in play."
    players = []
    for r in playing:
        name = " ".join(r.name.split())
        if not name:
            return None, (f"Seat {r.seat} is in play but has no name: type one, or tap "
                          f"Out if nobody sits there.")
        if len(name) > 20:
            return None, f"Seat {r.seat}: the name is too long (20 letters at most)."
        players.append({"name": name, "seat": r.seat})
    seen: dict[str, dict] = {}
    for p in players:
        twin = seen.setdefault(p["name"].casefold(), p)
        if twin is not p:
            return None, (f"Seats {twin['seat']} and {p['seat']} are both called "
                          f"{p['name']}: give one of them another name.")
    setup: dict = {"players": players}
    takes = first_player(kind)
    if takes is not None and first in {p["seat"] for p in players}:
        setup[takes[0]] = first
    return setup, ""
