"""Player setup as data: which seats are in play, who sits there, and what is wrong.

The setup screen edits a list of ``SeatRow``; ``setup_from_rows`` turns it into the
``{"players": [...]}`` setup that a rules engine checks, or a message naming the problem.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.config import Config
from companion.games import info
from companion.palette import rgba


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


def setup_from_rows(kind: str, rows: list[SeatRow]) -> tuple[dict | None, str]:
    """``(setup, "")`` when the table is ready for ``kind``; ``(None, why)`` otherwise."""
    game = info(kind)
    lo, hi = game.players if game is not None else (1, 8)  # the rulebook's, from the engine
    playing = [r for r in rows if r.in_play]
    if not lo <= len(playing) <= hi:
        return None, f"This game takes {lo} to {hi} players; {len(playing)} seats are in play."
    players = []
    for r in playing:
        name = r.name.strip() or f"Seat {r.seat}"
        if len(name) > 20:
            return None, f"Seat {r.seat}: the name is too long (20 letters at most)."
        players.append({"name": name, "seat": r.seat})
    names = [p["name"].lower() for p in players]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        return None, f"Two seats are both called {dupes[0]!r}."
    return {"players": players}, ""
