"""Player setup as data: which seats are in play, who sits there, and what is wrong.

The setup screen edits a list of ``SeatRow``; ``setup_from_rows`` turns it into the
``{"players": [...]}`` setup that a rules engine checks, or a message naming the problem.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.config import Config
from companion.games import info
from companion.palette import rgba

#: The longest name a seat takes (the engines and the spoken lines expect no more);
#: the name field refuses letters beyond it as they are typed.
NAME_MAX = 20


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


def is_stand_in(name: str, seat: int | None = None) -> bool:
    """A seat's stand-in name ("Seat 3", what the slap pad tool records when it plays
    without names), never a person: not pre-filled, not offered."""
    words = name.split()
    return (len(words) == 2 and words[0] == "Seat" and words[1].isdigit()
            and (seat is None or int(words[1]) == seat))


def default_rows(config: Config, known: list[tuple[str, int | None]] = ()) -> list[SeatRow]:
    """One row per configured seat, pre-filled with who last sat there (a stand-in
    "Seat N" of the slap pad tool is nobody: the field stays empty)."""
    last = {seat: name for name, seat in reversed(list(known))
            if seat is not None and not is_stand_in(name)}
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
        if len(name) > NAME_MAX:
            return None, f"Seat {r.seat}: the name is too long ({NAME_MAX} letters at most)."
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


# -- typing a name on the screen's own keyboard --------------------------------------


def fitting(text: str, insert: str, replaced: int = 0) -> str:
    """The part of ``insert`` that fits in a name holding ``text`` (``replaced`` of its
    letters selected, so replaced by the insert): line breaks and tabs dropped, cut at
    ``NAME_MAX`` letters."""
    insert = "".join(c for c in insert if c not in "\r\n\t")
    room = max(0, NAME_MAX - len(text) + replaced)
    return insert[:room]


def shift_for(text: str) -> bool:
    """Whether the next letter starts a word (capital): an empty name, or after a space
    or a hyphen ("Jean-Luc", "Mary Ann")."""
    return not text or text[-1] in " -"


def suggestions(known: list[str], rows: list[SeatRow], seat: int, typed: str,
                limit: int = 3) -> list[str]:
    """Known players to offer as one-tap buttons while seat ``seat`` types ``typed``:
    the most recent first, those starting with what is typed (any case), none already
    at another seat, never the name exactly as typed."""
    taken = {" ".join(r.name.split()).casefold() for r in rows if r.seat != seat}
    start = " ".join(typed.split()).casefold()
    out: list[str] = []
    for name in known:
        folded = name.casefold()
        if folded in taken or not folded.startswith(start) or name == typed \
                or is_stand_in(name):
            continue
        if name not in out and len(name) <= NAME_MAX:
            out.append(name)
        if len(out) == limit:
            break
    return out
