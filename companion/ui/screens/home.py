"""The home screen: the five games, the tools, and 'Resume' for an unfinished game.

The resume line always keeps its place (tiles never move): it offers the open game
played last, "Open games" lists every open one (resume or abandon each), and with
nothing open it says so and its buttons are disabled. Choosing a new game while one is
open asks first whether to put that one aside or end it. The tiles and the list of open
games are RecycleViews (home.kv) fed from ``companion.ui.presenters.home``.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.ui import theme, widgets  # noqa: F401  (widgets: the classes home.kv uses)
from companion.ui.app import load_kv
from companion.ui.modal import Modal
from companion.ui.presenters.home import (
    TOOLS,
    home_games,
    offered,
    open_line,
    resume_offer,
    title_of,
)

NOTHING_OPEN = "No unfinished game: choose one below."


class OpenGames(Modal, BoxLayout):
    """Every open game, with Resume and Abandon each (a ``Modal`` over the home screen:
    nothing under it is touched)."""

    rows = ListProperty([])


class HomeScreen(Screen):
    resume_text = StringProperty("")
    resume_id = NumericProperty(0)
    open_count = NumericProperty(0)
    tiles = ListProperty([])

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.app = App.get_running_app()
        self.sheet: OpenGames | None = None

    def on_pre_enter(self, *_args) -> None:
        rows = offered(self.app.log.open_games())
        offer = resume_offer(rows)
        self.resume_text = offer.text if offer else NOTHING_OPEN
        self.resume_id = offer.game_id if offer else 0
        self.open_count = len(rows)
        self.close_open_games()
        self.tiles = [{"screen": self, "title": g.title, "subtitle": g.blurb,
                       "game": g.name, "tool": ""} for g in home_games()] + [
            {"screen": self, "title": title, "subtitle": line, "game": "", "tool": screen}
            for screen, title, line in TOOLS if self.app.has_screen(screen)]

    def open_tile(self, game: str, tool: str) -> None:
        if game:
            self.new_game(game)
        else:
            self.app.navigate(tool)

    def resume(self) -> None:
        if self.resume_id:
            self.app.resume_game(self.resume_id)

    def dismiss_resume(self) -> None:
        """'Not now' keeps the game in the log; the line says how to find it again."""
        if self.resume_id:
            self.resume_text = "Not now: the game stays open (Open games, or History)."
            self.resume_id = 0

    # -- a new game while one is open -------------------------------------------------------

    def new_game(self, kind: str) -> None:
        """A game tile: with a game open, ask before putting it aside."""
        app = self.app
        current = next((g for g in offered(app.log.open_games()) if g.n_actions), None)
        if current is None:
            app.choose_game(kind)
            return
        app.ask(f"{open_line(current)}.\nStart {title_of(kind)} anyway?",
                [("Cancel", None, None),
                 ("Keep it for later", lambda: self._set_aside(kind), theme.MAIN),
                 ("End it", lambda: self._end_and_start(current.id, kind), theme.ALARM)])

    def _set_aside(self, kind: str) -> None:
        self.app.session = None
        self.app.say("The open game is kept: resume it from Home or History.")
        self.app.choose_game(kind)

    def _end_and_start(self, game_id: int, kind: str) -> None:
        self.app.abandon_game(game_id)
        self.app.choose_game(kind)

    # -- every open game -----------------------------------------------------------------

    def show_open_games(self) -> None:
        rows = offered(self.app.log.open_games())
        if not rows:
            return
        self.close_open_games()
        self.sheet = OpenGames()
        self.sheet.rows = [{"screen": self, "game_id": g.id, "line": open_line(g)}
                           for g in rows]
        self.sheet.show()

    def close_open_games(self) -> None:
        if self.sheet is not None:
            self.sheet.close()
        self.sheet = None

    def resume_from_list(self, game_id: int) -> None:
        self.close_open_games()
        self.app.resume_game(game_id)

    def abandon(self, game_id: int, line: str) -> None:
        def drop():
            self.app.abandon_game(game_id)
            self.on_pre_enter()
            if self.open_count:
                self.show_open_games()

        self.app.ask(f"Abandon {line}?\nIt stays in History, not counted in the statistics.",
                     [("Keep it", None, None), ("Abandon it", drop, theme.ALARM)])


load_kv(__file__)
