"""What the home screen shows: the games, the tools, and the offer to resume."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from companion.games import games, info
from companion.games.base import GameInfo
from companion.store.gamelog import GameRow

#: (screen name, title, description): tools usable in any game.
TOOLS: tuple[tuple[str, str, str], ...] = (
    ("slap", "Slap pad", "Who slapped last?"),
    ("captain_die", "Captain die", "Roll for time units"),
    ("timer", "Timer", "Countdown, game clock"),
)


def home_games() -> list[GameInfo]:
    """The games that get a tile on the home screen, in order (from their descriptors)."""
    return [g for g in games() if g.on_home]


@dataclass(frozen=True)
class ResumeOffer:
    game_id: int
    text: str


def title_of(kind: str) -> str:
    """A game kind's title from its descriptor; an unknown kind made readable."""
    game = info(kind)
    return game.title if game is not None else kind.replace("_", " ").title()


def resume_offer(open_games: list[GameRow]) -> ResumeOffer | None:
    """The newest unfinished game as one sentence, or None when there is none."""
    offered = [g for g in open_games if (game := info(g.kind)) is not None and game.on_home]
    if not offered:
        return None
    g = offered[0]
    names = [p.get("name", "?") for p in g.setup.get("players", [])]
    if len(names) > 1:
        who = ", ".join(names[:-1]) + " and " + names[-1]
    else:
        who = names[0] if names else "nobody"
    return ResumeOffer(g.id, f"Resume {title_of(g.kind)} with {who}, started {when(g.started_at)}?")


def when(iso: str) -> str:
    """A start time as a person says it: 'today 20:15' or '28 Nov 20:15'."""
    try:
        t = datetime.fromisoformat(iso).astimezone()
    except ValueError:
        return iso
    today = datetime.now().astimezone().date()
    day = "today" if t.date() == today else t.strftime("%d %b").lstrip("0")
    return f"{day} {t:%H:%M}"
