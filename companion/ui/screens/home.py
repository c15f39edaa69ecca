"""The home screen: the five games, the tools, and 'Resume' for an unfinished game.

The resume line always keeps its place (tiles never move): it offers the open game
played last, "Open games" lists every open one (resume or abandon each), and with
nothing open it says so and its buttons are disabled. Choosing a new game while one is
open asks first whether to put that one aside or end it.
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.ui import theme
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
from companion.ui.widgets import BigButton, FitLabel, Tile

load_kv(__file__)

NOTHING_OPEN = "No unfinished game: choose one below."


class OpenGames(Modal, BoxLayout):
    """Every open game, with Resume and Abandon each (a ``Modal`` over the home screen:
    nothing under it is touched)."""


class HomeScreen(Screen):
    resume_text = StringProperty("")
    resume_id = NumericProperty(0)
    open_count = NumericProperty(0)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._tiles_for: tuple | None = None
        self.sheet: OpenGames | None = None

    def on_pre_enter(self, *_args) -> None:
        app = App.get_running_app()
        rows = offered(app.log.open_games())
        offer = resume_offer(rows)
        self.resume_text = offer.text if offer else NOTHING_OPEN
        self.resume_id = offer.game_id if offer else 0
        self.open_count = len(rows)
        self.close_open_games()
        tools = tuple(s for s, _t, _l in TOOLS if app.has_screen(s))
        if tools != self._tiles_for:  # built once the tools exist; never rebuilt after
            self._tiles_for = tools
            self._build_tiles(app, tools)

    def _build_tiles(self, app, tools) -> None:
        grid = self.ids.tiles
        grid.clear_widgets()
        for game in home_games():
            tile = Tile(title=game.title, subtitle=game.blurb)
            tile.bind(on_release=lambda _w, n=game.name: self.new_game(n))
            grid.add_widget(tile)
        for screen, title, line in TOOLS:
            if screen not in tools:
                continue
            tile = Tile(title=title, subtitle=line)
            tile.bind(on_release=lambda _w, s=screen: app.navigate(s))
            grid.add_widget(tile)

    def resume(self) -> None:
        if self.resume_id:
            App.get_running_app().resume_game(self.resume_id)

    def dismiss_resume(self) -> None:
        """'Not now' keeps the game in the log; the line says how to find it again."""
        if self.resume_id:
            self.resume_text = "Not now: the game stays open (Open games, or History)."
            self.resume_id = 0

    # -- a new game while one is open -------------------------------------------------------

    def new_game(self, kind: str) -> None:
        """A game tile: with a game open, ask before putting it aside."""
        app = App.get_running_app()
        rows = offered(app.log.open_games())
        current = next((g for g in rows if g.n_actions), None)
        if current is None:
            app.choose_game(kind)
            return
        app.ask(f"{open_line(current)}.\nStart {title_of(kind)} anyway?",
                [("Cancel", None, None),
                 ("Keep it for later", lambda: self._set_aside(kind), theme.MAIN),
                 ("End it", lambda: self._end_and_start(current.id, kind), theme.ALARM)])

    def _set_aside(self, kind: str) -> None:
        app = App.get_running_app()
        app.session = None
        app.say("The open game is kept: resume it from Home or History.")
        app.choose_game(kind)

    def _end_and_start(self, game_id: int, kind: str) -> None:
        app = App.get_running_app()
        app.abandon_game(game_id)
        app.choose_game(kind)

    # -- every open game -----------------------------------------------------------------

    def show_open_games(self) -> None:
        app = App.get_running_app()
        rows = offered(app.log.open_games())
        if not rows:
            return
        self.close_open_games()
        sheet = OpenGames()
        box = sheet.ids.rows
        for g in rows:
            words = open_line(g)
            line = BoxLayout(size_hint_y=None, height=dp(theme.BUTTON_H), spacing=dp(theme.GAP))
            text = FitLabel(text=words, sizes=[sp(s) for s in theme.RESUME_SIZES], lines=3,
                            halign="left", valign="middle", color=theme.TEXT_COLOUR)
            line.add_widget(text)
            resume = BigButton(text="Resume", size_hint_x=None, width=dp(theme.ROW_BUTTON_W),
                               tint=theme.GO)
            resume.bind(on_release=lambda _w, gid=g.id: self._resume_from_list(gid))
            line.add_widget(resume)
            drop = BigButton(text="Abandon", size_hint_x=None, width=dp(theme.ROW_BUTTON_W))
            drop.bind(on_release=lambda _w, gid=g.id, t=words: self._abandon(gid, t))
            line.add_widget(drop)
            box.add_widget(line)
        self.sheet = sheet
        sheet.show()

    def close_open_games(self) -> None:
        if self.sheet is not None:
            self.sheet.close()
        self.sheet = None

    def _resume_from_list(self, game_id: int) -> None:
        self.close_open_games()
        App.get_running_app().resume_game(game_id)

    def _abandon(self, game_id: int, line: str) -> None:
        app = App.get_running_app()

        def drop():
            app.abandon_game(game_id)
            self.on_pre_enter()
            if self.open_count:
                self.show_open_games()

        app.ask(f"Abandon {line}?\nIt stays in History, not counted in the statistics.",
                [("Keep it", None, None), ("Abandon it", drop, theme.ALARM)])
