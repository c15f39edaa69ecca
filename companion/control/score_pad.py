"""The score pad (the generic game screen) without Kivy: what its taps mean and what it
shows.

The score pad serves any game without a screen of its own: one row per player (seat,
name, total) with -1, +1, +5 and "+ N" (points typed on the number pad), and a seat
button press that adds one point for that seat. ``ScorePadControl`` turns each of those
into the game's ``score`` action and builds the ``ScorePadView`` the screen shows; a
game whose snapshot has no totals is shown as its snapshot's lines.

Wiring (``companion/ui/screens/game.py``): the screen makes one with the running app
(a port: it uses ``app.session``, ``app.act(action) -> bool`` and ``app.cfg.seats``),
calls ``score``/``press`` on a tap or a seat button and shows ``view()`` whenever the
app says the game changed (``refresh``) or the screen is entered.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from companion.games import title_of
from companion.palette import rgba

#: The points a row's buttons add, in order.
STEPS = (-1, 1, 5)
#: What "+ N" takes on the number pad.
TYPED_MIN, TYPED_MAX = 1, 999


@dataclass(frozen=True)
class ScoreRow:
    seat: int
    name: str
    total: str
    colour: tuple


@dataclass(frozen=True)
class ScorePadView:
    heading: str
    rows: tuple[ScoreRow, ...] = ()
    summary: str = ""  # a game without totals: its snapshot, one line per entry
    can_undo: bool = False


class ScorePadControl:
    """Taps on the score pad as the game's actions (see the module docstring)."""

    def __init__(self, app, screen_name: str = "game") -> None:
        self.app, self.screen_name = app, screen_name

    def view(self) -> ScorePadView:
        session = self.app.session
        if session is None:
            return ScorePadView("No game")
        heading = title_of(session.rules.NAME)
        snap = session.snapshot()
        totals = snap.get("totals")
        if totals is None:
            summary = "\n".join(f"{k}: {json.dumps(v)[:60]}" for k, v in snap.items())
            return ScorePadView(heading, summary=summary, can_undo=session.can_undo)
        colours = {s.seat: s.colour for s in self.app.cfg.seats}
        rows = tuple(ScoreRow(p.seat, p.name, str(totals[str(p.seat)]),
                              tuple(rgba(colours.get(p.seat, "grey"))))
                     for p in session.state.players)
        return ScorePadView(heading, rows, can_undo=session.can_undo)

    def name(self, seat: int) -> str:
        return next((r.name for r in self.view().rows if r.seat == seat), "")

    def score(self, seat: int, points: int) -> bool:
        """A row's button (or the points typed for it): that many points for ``seat``."""
        return self.app.act({"type": "score", "seat": seat, "points": points})

    def press(self, seat: int, pressed: bool = True) -> bool:
        """A seat button: one point for that seat, while a game played on this screen is
        on (a game with a screen of its own is not scored from here)."""
        session = self.app.session
        if not pressed or session is None or session.rules.GAME.screen_name != self.screen_name:
            return False
        return self.score(seat, 1)
