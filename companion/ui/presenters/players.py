"""Player setup as data: which seats are in play, who sits there, and what is wrong.

The setup screen edits a list of ``SeatRow``; ``setup_from_rows`` turns it into the
``{"players": [...]}`` setup that a rules engine checks, or a message naming the problem.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.config import Config
from companion.palette import rgba

#: Player counts each game accepts (the rulebooks').
PLAYER_RANGE: dict[str, tuple[int, int]] = {
    "crazy_time": (4, 7),
    "time_stories": (1, 4),
    "times": (2, 5),
    "time_after_time": (2, 4),
    "professor_tempus": (2, 5),
    "scorepad": (1, 8),
}


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
    lo, hi = PLAYER_RANGE.get(kind, (1, 8))
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
        first = seen.setdefault(p["name"].casefold(), p)
        if first is not p:
            return None, (f"Seats {first['seat']} and {p['seat']} are both called "
                          f"{p['name']}: give one of them another name.")
    return {"players": players}, ""
