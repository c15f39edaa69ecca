"""What the home screen shows: the games, the tools, and the offer to resume."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from companion.store.gamelog import GameRow

#: (engine name, title, one-line description) in home-screen order.
GAMES: tuple[tuple[str, str, str], ...] = (
    ("crazy_time", "Crazy Time", "Slap pad, laws, pick-ups"),
    ("time_stories", "T.I.M.E Stories", "Captain die, time units"),
    ("times", "Times", "Timer, Time Table, scores"),
    ("time_after_time", "Time After Time", "Rows, ghosts, wins"),
    ("professor_tempus", "Professor Tempus", "Series, hourglasses"),
    ("scorepad", "Score pad", "Points for any game"),
)

#: (screen name, title, description): tools usable in any game.
TOOLS: tuple[tuple[str, str, str], ...] = (
    ("slap", "Slap pad", "Who slapped last?"),
    ("captain_die", "Captain die", "Roll for time units"),
    ("timer", "Timer", "Countdown, game clock"),
)


#: Game kinds that are a tool's running log, not a game to offer for resume.
TOOL_LOGS = frozenset({"stop_time"})


@dataclass(frozen=True)
class ResumeOffer:
    game_id: int
    text: str


def title_of(kind: str) -> str:
    for name, title, _ in GAMES:
        if name == kind:
            return title
    return kind.replace("_", " ").title()


def resume_offer(open_games: list[GameRow]) -> ResumeOffer | None:
    """The newest unfinished game as one sentence, or None when there is none."""
    games = [g for g in open_games if g.kind not in TOOL_LOGS]
    if not games:
        return None
    g = games[0]
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
