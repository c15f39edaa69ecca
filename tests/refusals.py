"""Expecting a refusal in tests: by its stable code, never by its words.

    with refused("time_stories.locked_leave"):
        ts.apply(state, {"type": "travel", "die": 2})
    with malformed():
        ts.apply(state, {"type": "travel"})

``refusal_of(fn, *args)`` returns the RuleError or MalformedAction that ``fn`` raises, for
tables that mix both (``MALFORMED`` stands for the malformed ones).
"""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest

from companion.errors import CompanionError, MalformedAction, RuleError

#: In tables of bad input: the action is malformed (a programming error), not refused.
MALFORMED = "malformed"


@contextmanager
def refused(code: str):
    """The block must raise a RuleError with ``code``; yields pytest's ExceptionInfo."""
    with pytest.raises(RuleError) as info:
        yield info
    assert info.value.code == code, f"{info.value.code}: {info.value.sentence}"


@contextmanager
def malformed(match: str | None = None):
    """The block must raise a MalformedAction (a programming error, not a rule)."""
    with pytest.raises(MalformedAction, match=match) as info:
        yield info


def expect(expected: str, fn, *args):
    """Call ``fn(*args)``; it must be refused with code ``expected``, or be malformed
    when ``expected`` is ``MALFORMED``. Returns the error."""
    with pytest.raises(CompanionError) as info:
        fn(*args)
    error = info.value
    if expected == MALFORMED:
        assert isinstance(error, MalformedAction), f"refused, not malformed: {error!r}"
    else:
        assert isinstance(error, RuleError), f"malformed, not refused: {error}"
        assert error.code == expected, f"{error.code}: {error.sentence}"
    return error


#: What a sentence for the table must not show: program words and data.
_SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
_DATA = re.compile(r"[{}\[\]]|\bNone\b|\bTrue\b|\bFalse\b|!r\b")
_SEAT = re.compile(r"\bseats? (\d+)", re.IGNORECASE)


def plain_sentence_problems(sentence: str, seated: dict[int, str]) -> list[str]:
    """What is wrong with a refusal's sentence as words for the table: it must start
    with a capital letter and end like a sentence, name seated players by their names
    (never "seat 3" when Cara sits there), and show no identifiers or data."""
    problems = []
    if not (sentence[:1].isupper() or sentence[:1].isdigit()):
        problems.append("does not start with a capital letter")
    if not sentence.endswith((".", "!", "?")):
        problems.append("does not end like a sentence")
    if m := _SNAKE.search(sentence):
        problems.append(f"shows the identifier {m.group(0)!r}")
    if m := _DATA.search(sentence):
        problems.append(f"shows data ({m.group(0)!r})")
    for m in _SEAT.finditer(sentence):
        seat = int(m.group(1))
        if seat in seated:
            problems.append(f"says seat {seat} instead of {seated[seat]}")
    return problems
