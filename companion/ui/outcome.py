"""Whether a game is over, read from its snapshot (no Kivy, no engine changes).

A game that is over is closed ("finished") when the table leaves it, so History counts it
and Home no longer offers to resume it. Each engine says "over" in its own words; this
is the one place that knows them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def is_over(kind: str, snapshot: Mapping[str, Any]) -> bool:
    """True when the game in ``snapshot`` has ended by its rules (a winner, a mission
    completed, the last round scored)."""
    if snapshot.get("over") is True:
        return True
    if snapshot.get("phase") == "over":
        return True
    if kind == "time_stories":
        return bool(snapshot.get("mission_complete"))
    if kind == "scorepad":
        return bool(snapshot.get("finished"))
    return False
