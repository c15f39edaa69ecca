"""What the box says aloud, as ``Line``s: words, names, and the tools' lines.

Every spoken line is built here or in ``spoken_games`` (the game actions) from the names
the table typed; a seat number is said only when a seat has no name. Names are made
speakable first (``speakable``): markup, emoji and symbols are dropped, SHOUTED names
are said as names rather than spelt, and a name is cut to ``MAX_NAME`` characters on a
word boundary, so no typed name can make a line long. Lists of players name at most
``MAX_NAMED`` of them ("Too close between five players"), so eight players slapping in
one round still give one short line. Numbers are written as words ("twenty-three"), so
every engine says them the same way.

The tools' lines:

* ``slap_line(verdict, names)``: the Stop Time verdict ("Dan picks up", "Too close
  between Ann and Bob: the table decides", "False alarm: Cara picks up");
* ``timer_line(before, after, names)``: the choice timer ("Ten seconds.", "Reveal!",
  "Time's up: reveal!") and a game clock's flag ("Ann's time is up.");
* ``die_line(face, red)``: the standalone Time Captain die.

Wiring: screens call ``app.speak(line)`` with these; ``app.act`` speaks the game lines
itself. Pure: no Kivy, no clock, no audio.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

from companion.dice import captain_cost
from companion.slap.verdict import CASE_FALSE_ALARM, Verdict
from companion.speech.lines import INFO, URGENT, VERDICT, Line
from companion.timer import DONE, EXPIRED, NS_PER_S, RUNNING

MAX_NAME = 20
MAX_NAMED = 3

_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
         "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
         "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
         "ninety")
_MARKUP = re.compile(r"\[/?[a-zA-Z_]+(=[^\]]*)?\]|<[^>]*>|&[a-zA-Z]+;")
_SEPARATORS = re.compile(r"[_/\\|*#~^`+=]+")


def number_words(n: int) -> str:
    """0..999 in words ("twenty-three", "one hundred and five"); larger as digits."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_ONES[hundreds]} hundred" + (f" and {number_words(rest)}" if rest else "")
    return str(n)


def cap(text: str) -> str:
    """The first letter upper case (a name stays as typed otherwise)."""
    return text[:1].upper() + text[1:]


def plural(n: int, one: str, many: str | None = None) -> str:
    """"one time unit", "twenty-three time units", "no time units"."""
    many = many or one + "s"
    if n == 0:
        return f"no {many}"
    return f"{number_words(n)} {one if n == 1 else many}"


def speakable(name: object) -> str:
    """A typed name as a speech engine should get it; "" when nothing sayable is left."""
    if not isinstance(name, str):
        return ""
    text = unicodedata.normalize("NFKC", _MARKUP.sub(" ", name))
    text = "".join(c if unicodedata.category(c)[0] in "LNMZ" or c in "'-.," else " "
                   for c in _SEPARATORS.sub(" ", text))
    words = [w.strip("'-.,") for w in text.split()]
    words = [w.capitalize() if len(w) > 2 and w.isupper() else w for w in words if w]
    out = ""
    for word in words:
        if len(out) + len(word) + (1 if out else 0) > MAX_NAME:
            break
        out = f"{out} {word}" if out else word
    if not out and words:
        out = words[0][:MAX_NAME]
    return out


def spoken_names(players: Iterable[object] | Mapping[int, str]) -> dict[int, str]:
    """seat -> the name to say, from a snapshot's ``players`` (dicts), ``Player``s or a
    {seat: name} mapping.

    A name with nothing sayable becomes "seat N"; two names that sound alike once
    cleaned ("Ann", "Ann 🙂") get their seat added.
    """
    if isinstance(players, Mapping):
        players = [{"seat": s, "name": n} for s, n in players.items()]
    out: dict[int, str] = {}
    for p in players:
        seat = p.get("seat") if isinstance(p, Mapping) else getattr(p, "seat", None)
        name = p.get("name") if isinstance(p, Mapping) else getattr(p, "name", None)
        if isinstance(seat, int) and not isinstance(seat, bool):
            out[seat] = speakable(name) or f"seat {seat}"
    seen: dict[str, int] = {}
    for name in out.values():
        seen[name.lower()] = seen.get(name.lower(), 0) + 1
    return {s: f"{n} at seat {s}" if seen[n.lower()] > 1 and not n.startswith("seat ") else n
            for s, n in out.items()}


def who(names: Mapping[int, str], seat: int | None) -> str:
    return names.get(seat, f"seat {seat}") if seat is not None else "nobody"


def name_list(names: Mapping[int, str], seats: Sequence[int], noun: str = "players") -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cara"; more than ``MAX_NAMED``: "five players"."""
    said = [who(names, s) for s in seats]
    if len(said) > MAX_NAMED:
        return f"{number_words(len(said))} {noun}"
    if len(said) <= 1:
        return "".join(said)
    return ", ".join(said[:-1]) + " and " + said[-1]


def verb(seats: Sequence[int], one: str, many: str) -> str:
    return one if len(seats) == 1 else many


# -- the slap pad ----------------------------------------------------------------------------


def slap_line(verdict: Verdict | None, names: Mapping[int, str]) -> Line | None:
    """The verdict of a Stop Time round, as the referee would say it."""
    if verdict is None:
        return None
    false = verdict.case == CASE_FALSE_ALARM
    head = "False alarm: " if false else ""
    if verdict.picker is not None:
        name = who(names, verdict.picker)
        return Line(cap(f"{head}{name} picks up."), VERDICT, short=cap(f"{name} picks up."))
    cands = verdict.candidates
    if not cands:
        return Line(f"{head}Nobody slapped.", INFO)
    if verdict.excluded:  # a seat not timed may have been last: always a candidate
        left = [s for s, _ in verdict.excluded]
        text = (f"{head}{name_list(names, left)} could not be timed: the table decides.")
    elif verdict.too_close:
        text = f"{head}Too close between {name_list(names, cands)}: the table decides."
    elif not verdict.ranking:
        text = "Nobody slapped: the table decides."
    else:
        listed = name_list(names, cands)
        text = cap(f"{listed} never slapped: the table decides.")
    return Line(cap(text), VERDICT, tone=True, short="The table decides.")


# -- the timer -------------------------------------------------------------------------------


def timer_line(before, after, names: Mapping[int, str]) -> Line | None:
    """What a timer board change says: warning, reveal, time's up, a flag (or None).

    ``before``/``after`` are ``TimerBoard``s (``companion.ui.presenters.timer``).
    """
    if before is None or after is None:
        return None
    b, a = before.countdown, after.countdown
    if a.status == DONE and b.status != DONE:
        return Line("Reveal!", URGENT)
    if a.status == EXPIRED and b.status != EXPIRED:
        return Line("Time's up: reveal!", URGENT, tone=True)
    if a.warned and not b.warned and a.status == RUNNING:
        secs = max(1, round(a.warning_ns / NS_PER_S))
        return Line(cap(f"{plural(secs, 'second')}."), URGENT)
    was = set(before.clock.flagged) if before.clock is not None else set()
    now = list(after.clock.flagged) if after.clock is not None else []
    flagged = [s for s in now if s not in was]
    if not flagged:
        return None
    if len(flagged) == 1:
        return Line(cap(f"{who(names, flagged[0])}'s time is up."), URGENT, tone=True)
    return Line(cap(f"{name_list(names, flagged)} are out of time."), URGENT, tone=True)


# -- the standalone Time Captain die -----------------------------------------------------------


def die_line(face: int, red: bool = False) -> Line:
    """"Four: two time units." (+2 for a red-lettered location)."""
    cost = captain_cost(face) + (2 if red else 0)
    where = " plus two for red" if red else ""
    return Line(cap(f"{number_words(face)}{where}: {plural(cost, 'time unit')}."), VERDICT)
