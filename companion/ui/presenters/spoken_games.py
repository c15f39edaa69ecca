"""What the box says after a game action: the engine's line, or nothing.

``action_line(rules, before, action, after)`` is called by ``app.act`` once the action
is in the log. The line is the engine's (``spoken(before, action, after, names)`` in
the engine contract, ``companion.games.base``): it looks at the engine's snapshots
before and after the action, never at screens. Snapshots are taken only for the action
types the engine speaks after (``SPOKEN_AFTER``); names come from the snapshot's
players through ``companion.speech.words.spoken_names``. Nothing here knows one game
from another. Pure: no Kivy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.speech.lines import Line
from companion.speech.words import spoken_names

Snap = Mapping[str, Any]


def listens(rules, action: Mapping[str, Any]) -> bool:
    """Whether ``rules`` may speak after ``action`` (an engine without ``spoken`` never)."""
    return (getattr(rules, "spoken", None) is not None
            and action.get("type") in getattr(rules, "SPOKEN_AFTER", ()))


def action_line(rules, before: Any, action: Mapping[str, Any], after: Any,
                snapshot: Callable[..., Snap] | None = None) -> Line | None:
    """The line to say after ``action`` took the game from ``before`` to ``after``
    (engine states; snapshots are taken only when the engine speaks after that type).
    ``snapshot(state)`` / ``snapshot(state, None)``: the session's kept snapshots of a
    state, the screens' / with whole lists (``GameSession.snapshot_of``). An action's
    "before" is the last one's "after" and the screen has made both, so a line made
    through the session takes at most one new snapshot: none for an engine whose line
    reads no growing list (``SPOKEN_READS_LISTS = False``), the new state's for the
    others. Without it every line makes its own two."""
    if not listens(rules, action):
        return None
    lists = getattr(rules, "SPOKEN_READS_LISTS", True)
    if snapshot is None:
        recent = None if lists else 0
        old, new = rules.snapshot(before, recent=recent), rules.snapshot(after, recent=recent)
    elif lists:
        old, new = snapshot(before, None), snapshot(after, None)
    else:
        old, new = snapshot(before), snapshot(after)
    names = spoken_names(new.get("players", ()))
    return rules.spoken(old, action, new, names)
