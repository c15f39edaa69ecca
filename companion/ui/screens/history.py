"""History: every game night in the log, who won, statistics, and export.

Games are replayed from the log to sum them up (the log is the truth); an open game can
be resumed from here. 'Export' writes the whole log as JSON Lines and CSV beside the
database (``exports/``), the same files ``companion export`` writes.
"""

from __future__ import annotations

from datetime import datetime

from kivy.app import App
from kivy.graphics import Color, Rectangle
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.errors import CompanionError
from companion.games import get_rules
from companion.session import replay
from companion.store.export import export_csv, export_jsonl
from companion.ui.app import load_kv
from companion.ui.presenters.history import PlayerStats, summarise, win_table
from companion.ui.widgets import BigButton, BodyLabel

load_kv(__file__)

SHOWN_GAMES = 30


class WinsChart(Widget):
    """Horizontal bars: games won (bright) over games played (dim), one per player."""

    stats: list[PlayerStats] = []

    def show(self, stats: list[PlayerStats]) -> None:
        self.stats = stats
        self._draw()

    def on_size(self, *_args) -> None:
        self._draw()

    def on_pos(self, *_args) -> None:
        self._draw()

    def _draw(self) -> None:
        stats = self.stats
        self.clear_widgets()
        self.canvas.clear()
        rows = stats[:6]
        if not rows:
            return
        most = max(s.played for s in rows)
        h = min(self.height / len(rows), 56)
        with self.canvas:
            for i, s in enumerate(rows):
                y = self.top - (i + 1) * h + 6
                x0, width = self.x + 110, self.width - 180
                Color(0.25, 0.27, 0.33, 1)
                Rectangle(pos=(x0, y), size=(width * s.played / most, h - 12))
                Color(0.0, 0.62, 0.45, 1)
                Rectangle(pos=(x0, y), size=(width * s.won / most, h - 12))
        for i, s in enumerate(rows):
            y = self.top - (i + 1) * h
            self.add_widget(Label(text=s.name[:8], font_size=22, pos=(self.x, y),
                                  size=(105, h), halign="right", text_size=(100, h),
                                  valign="middle"))
            react = f" {s.median_reaction_ms:.0f}ms" if s.median_reaction_ms is not None else ""
            self.add_widget(Label(text=f"{s.won}/{s.played}{react}", font_size=20,
                                  pos=(self.right - 70, y), size=(70, h)))


class HistoryScreen(Screen):
    message = StringProperty("")

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def summaries(self):
        log = App.get_running_app().log
        out = []
        for row in reversed(log.games()[-SHOWN_GAMES:]):
            try:
                rules = get_rules(row.kind)
                state = replay(rules, row.setup, log.actions(row.id))[-1]
                out.append(summarise(row, rules.snapshot(state)))
            except CompanionError as exc:
                out.append(summarise(row, None, str(exc)))
        return out

    def refresh(self) -> None:
        app = App.get_running_app()
        games = self.summaries()
        box = self.ids.games
        box.clear_widgets()
        if not games:
            box.add_widget(BodyLabel(text="No games yet.", size_hint_y=None, height=64))
        for g in games:
            row = BoxLayout(size_hint_y=None, height=76, spacing=6)
            row.add_widget(BodyLabel(text=g.line, font_size=22, shorten=False,
                                     max_lines=3))
            if g.status == "open":
                b = BigButton(text="Resume", size_hint_x=None, width=130)
                b.bind(on_release=lambda _w, gid=g.game_id: app.resume_game(gid))
                row.add_widget(b)
            box.add_widget(row)
        self.ids.chart.show(win_table(games))

    def export(self) -> None:
        app = App.get_running_app()
        ids = [g.id for g in app.log.games()]
        folder = (app.log.path.parent if app.log.path else None)
        if folder is None or not ids:
            self.message = "Nothing to export yet."
            return
        out = folder / "exports"
        out.mkdir(exist_ok=True)
        stamp = datetime.now().strftime("%Y-%m-%d-%H%M")
        (out / f"games-{stamp}.jsonl").write_text(export_jsonl(app.log, ids), encoding="utf-8")
        (out / f"games-{stamp}.csv").write_text(export_csv(app.log, ids), encoding="utf-8")
        self.message = f"Exported {len(ids)} games to {out}"
        app.say(self.message)
