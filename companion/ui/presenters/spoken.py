"""What the box says aloud about its tools, as ``Line``s.

A game's lines are its engine's (``spoken()`` in the engine contract, called through
``spoken_games.action_line``); the tools' lines are built here. Both are made of the
same words (``companion.speech.words``: numbers as words, typed names made speakable,
lists of at most ``MAX_NAMED`` names), re-exported here for the screens; a seat number
is said only when a seat has no name.

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

from collections.abc import Mapping

from companion.dice import captain_cost
from companion.slap.verdict import CASE_FALSE_ALARM, Verdict
from companion.speech.lines import INFO, URGENT, VERDICT, Line
from companion.speech.words import (
    MAX_NAME,
    MAX_NAMED,
    cap,
    name_list,
    number_words,
    plural,
    speakable,
    spoken_names,
    verb,
    who,
)
from companion.timer import DONE, EXPIRED, NS_PER_S, RUNNING

#: the words every line is made of (``companion.speech.words``), here for the screens
__all__ = ["MAX_NAME", "MAX_NAMED", "cap", "die_line", "name_list", "number_words", "plural",
           "slap_line", "speakable", "spoken_names", "timer_line", "verb", "who"]

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
