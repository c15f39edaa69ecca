"""What the Crazy Time screen shows, from ``crazy_time_view.view()`` data (no Kivy).

``crazy_time_view.view(state, viewer)`` already keeps each new law's secret from the
player who was out of the room; everything here works on *its* output only, so nothing
in this module can leak a secret the view left out. It adds what the screen needs on
top: the board's lines (round, deal, dealer, who leads at 1 o'clock, laws by name, this
round's pick-ups as sentences, round winners), the causes a Temporal Flaw can name, the
open guesses as buttons, the law cards a viewer may read, the "Tick, Tock" metronome
(one word a second, computed from times passed in: no clock here) and the end-of-game
bar chart of pick-ups per player per round.

Wiring: the screen's controller (``companion/control/crazy_time.py``) calls
``board(view(state, None))`` for the shared screen, ``law_cards(view(state, seat))``
once a player said who is looking, and ``metronome(start_ns, now_ns)`` at each frame the
screen passes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

REASONS = {"slap": "last to slap", "false_slap": "false slap",
           "temporal_flaw": "temporal flaw", "wrong_accusation": "wrong accusation"}
#: Causes a Temporal Flaw may name besides the Laws of Time (our own short words).
BASIC_RULES = ("Wrong hour", "Out of turn", "Too slow")
TICK_TOCK = ("Tick", "Tock", "Tick", "Tock")
BEAT_NS = 1_000_000_000


@dataclass(frozen=True)
class Line:
    """A line of a list, about one seat (0: nobody)."""

    seat: int
    text: str


@dataclass(frozen=True)
class Board:
    title: str
    phase: str
    facts: str  # "Dealer: Cara  ·  15 cards each"
    lead: Line | None
    notice: str  # what to do now, short (the board shows it large)
    pickups: tuple[Line, ...]
    laws: tuple[str, ...]
    can_guess: bool
    notice_more: str = ""  # the details of ``notice`` (a smaller line)
    won: str = ""  # "Won: Cara (round 1)" (a smaller line)
    law_parts: tuple[tuple[str, str], ...] = ()  # ("High Noon", "round 2+"): name, since


@dataclass(frozen=True)
class LawCard:
    name: str
    by: str  # "Standing law" or "Made by Cara in round 1"
    when: str | None  # None when hidden from this viewer
    what: str | None
    hidden: bool


@dataclass(frozen=True)
class Bar:
    round: int
    seat: int
    count: int
    height: float  # 0..1 of the tallest bar


def _who(d: Mapping[str, Any] | None) -> Line | None:
    return None if d is None else Line(d["seat"], d["name"])


#: A slap pick-up's words by how it was decided (the snapshot's ``decision``).
SLAP_DECISIONS = {"table": "the table's call after a slap"}


def pickup_line(p: Mapping[str, Any]) -> Line:
    """"Bob: wrong accusation (Midnight)", "Dan: last to slap", "Eve: the table's call
    after a slap" (a round too close to call, or with seats that never slapped)."""
    why = REASONS.get(p["reason"], p["reason"].replace("_", " "))
    if p["reason"] == "slap":
        why = SLAP_DECISIONS.get(p.get("decision"), why)
    text = f"{p['name']}: {why}"
    if p.get("cause"):
        text += f" ({p['cause']})"
    before = p.get("erred", [])[:-1]
    if before:
        text += (" after seat " if len(before) == 1 else " after seats ") + \
            ", ".join(str(s) for s in before)
    return Line(p["seat"], text)


def guess_lines(g: Mapping[str, Any]) -> tuple[str, str]:
    """A guess just recorded, right or wrong, as the board says it."""
    if g["correct"]:
        return (f"{g['name']} guessed {g['law']}: right",
                f"{g['name']} takes {g['removed']} cards off their draw pile and puts them "
                "in the box.")
    return (f"{g['name']}'s guess for {g['law']} is wrong",
            f"{g['name']} may guess again after the next pick-up because of {g['law']}.")


def now_lines(v: Mapping[str, Any]) -> tuple[str, str]:
    """What the table does now: a short line for large text and its details. A guess
    made since the last pick-up is what happened last, so it is said first."""
    if v["phase"] == "playing" and v.get("last_guess"):
        return guess_lines(v["last_guess"])
    if v["phase"] == "playing" and v["pickups"]:
        last = v["pickups"][-1]["name"]
        return (f"{last} gathers every discard pile",
                "They keep up to 5 cards under their draw pile and box the rest. "
                "Laws in effect stop.")
    if v["phase"] == "playing" and v["reveal_first"]:
        names = ", ".join(w["name"] for w in v["reveal_first"])
        turn = "turns" if len(v["reveal_first"]) == 1 else "turn"
        return (f"Before play: {names} {turn} up one card",
                f"It has no effect. {v['dealer']['name']} dealt {v['deal']} cards each.")
    if v["phase"] == "playing":
        return f"{v['dealer']['name']} deals {v['deal']} cards each", ""
    return v["notice"] or "", ""


def board(v: Mapping[str, Any]) -> Board:
    """The shared screen's board from ``view(state, None)``."""
    if v["phase"] == "over":
        title = "Crazy Time: game over"
    else:
        title = f"Crazy Time: round {v['round']} of {v['rounds']}"
    parts = tuple((law["name"], "" if law["standing"] else f"round {law['from_round']}+")
                  for law in v["laws"])
    laws = tuple(name + (f" ({since})" if since else "") for name, since in parts)
    facts = f"Dealer: {v['dealer']['name']}  ·  {v['deal']} cards each"
    won = ("Won: " + ", ".join(f"{r['name']} (round {r['round']})" for r in v["results"])
           if v["results"] else "")
    notice, more = now_lines(v)
    return Board(
        title=title, phase=v["phase"], facts=facts,
        lead=_who(v["lead"]), notice=notice, notice_more=more,
        won=won, law_parts=parts,
        pickups=tuple(pickup_line(p) for p in v["pickups"]), laws=laws,
        can_guess=bool(v["guesses_open"]) and v["phase"] == "playing")


def causes(v: Mapping[str, Any]) -> list[str]:
    """What a Temporal Flaw may name: every law in force, then the basic rules."""
    return [law["name"] for law in v["laws"]] + list(BASIC_RULES)


def guess_options(v: Mapping[str, Any]) -> list[tuple[str, int, str]]:
    """``(button text, seat, law)`` for every guess that may be made now."""
    return [(f"{g['name']} guesses {g['law']}", g["seat"], g["law"]) for g in v["guesses_open"]]


def law_cards(v: Mapping[str, Any]) -> list[LawCard]:
    """The laws as the identified viewer of ``v`` may read them."""
    out = []
    for law in v["laws"]:
        by = ("Standing law" if law["standing"] else
              f"Made by {law['creator_name']} for round {law['from_round']} on; "
              f"{law['absent_name']} was out of the room")
        out.append(LawCard(law["name"], by, law.get("when"), law.get("what"), law["hidden"]))
    return out


def metronome(start_ns: int, now_ns: int) -> tuple[int, str | None, bool]:
    """``(beat, word, done)``: beat 0..3 says "Tick", "Tock", "Tick", "Tock", one second
    apart from ``start_ns``; ``done`` once the fourth word has had its second."""
    beat = max(0, (now_ns - start_ns) // BEAT_NS)
    if beat >= len(TICK_TOCK):
        return len(TICK_TOCK) - 1, None, True
    return int(beat), TICK_TOCK[beat], False


def cue(beat: int) -> str:
    """The sound cue for a metronome beat."""
    return "tick" if beat % 2 == 0 else "tock"


def chart(v: Mapping[str, Any]) -> tuple[list[int], list[Bar]]:
    """Rounds and one bar per player per round, heights scaled to the tallest bar."""
    grid = v["pickup_grid"]
    top = max((c for row in grid["rows"] for c in row["counts"]), default=0) or 1
    bars = [Bar(rnd, row["seat"], row["counts"][i], row["counts"][i] / top)
            for i, rnd in enumerate(grid["rounds"]) for row in grid["rows"]]
    return list(grid["rounds"]), bars


@dataclass(frozen=True)
class EndRow:
    seat: int
    name: str
    wins: int
    pickups: int


def end_rows(v: Mapping[str, Any]) -> list[EndRow]:
    """Per player, in seat order: rounds won and cards picked up over the game."""
    return [EndRow(p["seat"], p["name"], p["rounds_won"], p["pickups_total"])
            for p in v["players"]]


def crowning(v: Mapping[str, Any]) -> str:
    """The line that crowns the Grand Master of Time."""
    gm = v["grand_master"]
    return f"Grand Master of Time: {gm['name']}" if gm else "The game is not over"
