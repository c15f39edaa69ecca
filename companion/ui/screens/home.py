"""The home screen: the five games, the tools, and 'Resume' for an unfinished game."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.ui.app import load_kv
from companion.ui.presenters.home import TOOLS, home_games, resume_offer
from companion.ui.widgets import Tile

load_kv(__file__)


class HomeScreen(Screen):
    resume_text = StringProperty("")
    resume_id = NumericProperty(0)

    _banner = None  # held here: ids are weak, and the banner leaves the tree at times

    def on_kv_post(self, *_args) -> None:
        self._banner, self._column = self.ids.banner.__self__, self.ids.column.__self__
        self.on_resume_text()

    def on_resume_text(self, *_args) -> None:
        """Show the resume banner only when there is a game to resume."""
        banner = self._banner
        if banner is None:
            return
        if self.resume_text and banner.parent is None:
            self._column.add_widget(banner, index=len(self._column.children) - 1)
        elif not self.resume_text and banner.parent is not None:
            self._column.remove_widget(banner)

    def on_pre_enter(self, *_args) -> None:
        app = App.get_running_app()
        offer = resume_offer(app.log.open_games())
        self.resume_text = offer.text if offer else ""
        self.resume_id = offer.game_id if offer else 0
        grid = self.ids.tiles
        grid.clear_widgets()
        for game in home_games():
            tile = Tile(text=f"[b]{game.title}[/b]\n[size=20]{game.blurb}[/size]")
            tile.bind(on_release=lambda _w, n=game.name: app.choose_game(n))
            grid.add_widget(tile)
        for screen, title, line in TOOLS:
            if not app.has_screen(screen):
                continue
            tile = Tile(text=f"[b]{title}[/b]\n[size=20]{line}[/size]")
            tile.bind(on_release=lambda _w, s=screen: app.navigate(s))
            grid.add_widget(tile)

    def resume(self) -> None:
        App.get_running_app().resume_game(self.resume_id)

    def dismiss_resume(self) -> None:
        """'Not now' keeps the game in the log; 'New game' is chosen from the tiles."""
        self.resume_text = ""
