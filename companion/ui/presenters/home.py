"""What the home screen shows: the games, the tools, and the offer to resume."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from companion.games import games, info, title_of  # title_of: screens use it from here
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


def offered(open_games: list[GameRow]) -> list[GameRow]:
    """The open games Home offers, the one played last first (a tool's running log,
    such as the slap pad's, is not a game to resume)."""
    rows = [g for g in open_games if (game := info(g.kind)) is not None and game.on_home]
    return sorted(rows, key=lambda g: (g.played_at, g.id), reverse=True)


def players_text(g: GameRow, most: int = 8) -> str:
    """"Ann, Bo and Cy" (more than ``most``: "Ann, Bo, Cy and 5 more")."""
    names = [str(p.get("name", "?")) for p in g.setup.get("players", [])]
    if len(names) > most:
        return ", ".join(names[:most - 1]) + f" and {len(names) - most + 1} more"
    if len(names) > 1:
        return ", ".join(names[:-1]) + " and " + names[-1]
    return names[0] if names else "nobody"


def open_line(g: GameRow) -> str:
    """One open game in the list: "Crazy Time with Ann and Bo: 12 actions, last played
    today 21:40 (started 20:15)"."""
    n = g.n_actions
    done = f"{n} action{'s' if n != 1 else ''}" if n else "not begun"
    played = f"last played {when(g.played_at)}" if g.last_at else f"started {when(g.started_at)}"
    return f"{title_of(g.kind)} with {players_text(g, 3)}: {done}, {played}"


def resume_offer(open_games: list[GameRow]) -> ResumeOffer | None:
    """The open game played last, as one sentence, or None when there is none."""
    rows = offered(open_games)
    if not rows:
        return None
    g = rows[0]
    moment = (f"last played {when(g.played_at)}" if g.last_at
              else f"started {when(g.started_at)}")
    more = f" ({len(rows) - 1} more open)" if len(rows) > 1 else ""
    # fewer names when long ones would take a third line; then without the count of the
    # other open games (the "Open games" button is beside it), then without the moment
    tails = [f", {moment}?{more}"] * 3 + [f", {moment}?", "?"]
    for most, tail in zip((4, 3, 2, 2, 2), tails, strict=True):
        text = f"Resume {title_of(g.kind)} with {players_text(g, most)}{tail}"
        if len(text) <= RESUME_CHARS:
            break
    return ResumeOffer(g.id, text)


#: The resume line at most (two lines of Home's resume label at 800x480, 18 px or more):
#: names beyond it are counted ("and 3 more"); at least two names are always given.
RESUME_CHARS = 84


def when(iso: str) -> str:
    """A start time as a person says it: 'today 20:15' or '28 Nov 20:15'."""
    try:
        t = datetime.fromisoformat(iso).astimezone()
    except ValueError:
        return iso
    today = datetime.now().astimezone().date()
    day = "today" if t.date() == today else t.strftime("%d %b").lstrip("0")
    return f"{day} {t:%H:%M}"
