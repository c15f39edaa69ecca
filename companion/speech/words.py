"""Spoken words: numbers, names and lists as the box says them, for every line.

Names are made speakable first (``speakable``): markup, emoji and symbols are dropped,
SHOUTED names are said as names rather than spelt, and a name is cut to ``MAX_NAME``
characters on a word boundary, so no typed name can make a line long. Lists of players
name at most ``MAX_NAMED`` of them ("Too close between five players"). Numbers are
written as words ("twenty-three"), so every engine says them the same way.

Used by the engines' ``spoken()`` lines (``companion.games``) and the screens' tool
lines (``companion.ui.presenters.spoken``). Pure: no Kivy, no clock, no audio.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

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
