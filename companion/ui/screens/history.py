"""History: every game night in the log, who won, statistics, and export.

Games are summed up from their replay (the log is the truth; a finished game's summary is
kept, see ``presenters.history``); an open game can be resumed from here. 'Export' writes
the whole log as JSON Lines and CSV beside the database (``exports/``), the same files
``companion export`` writes.
"""

from __future__ import annotations

from datetime import datetime

from kivy.app import App
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.errors import CompanionError
from companion.export.bgstats import exported
from companion.export.logfile import export_csv, export_jsonl, exported_ids
from companion.games import get_rules
from companion.session import replay
from companion.ui import storage_problem, theme
from companion.ui.app import load_kv
from companion.ui.bgstats_panel import show_play
from companion.ui.modal import Modal
from companion.ui.presenters.history import (
    PlayerStats,
    delete_question,
    recent_summaries,
    score_sheet,
    win_table,
)
from companion.ui.widgets import BigButton, BodyLabel, TapButton

load_kv(__file__)

SHOWN_GAMES = 30


#: The chart shows this many players (the table's most), names up to NAME_LETTERS letters.
CHART_ROWS = 8
NAME_LETTERS = 12
NAME_W, COUNT_W = 150, 124  # px: a 12-letter name at 22 px; "12/30 180ms" at 20 px


def chart_name(name: str) -> str:
    """A name as the chart shows it: whole up to 12 letters, longer ones cut with '…'."""
    return name if len(name) <= NAME_LETTERS else name[:NAME_LETTERS - 1] + "…"


class WinsChart(Widget):
    """Horizontal bars: games won (bright) over games played (dim), one per player (up
    to 8: the bars get thinner, the names keep 12 letters)."""

    stats: list[PlayerStats] = []

    def show(self, stats: list[PlayerStats]) -> None:
        self.stats = stats
        self._draw()

    def on_size(self, *_args) -> None:
        self._draw()

    def on_pos(self, *_args) -> None:
        self._draw()

    def _labels(self, n: int) -> list[tuple[Label, Label]]:
        """The first ``n`` rows' (name, count) labels, built once and reused."""
        pool = self.__dict__.setdefault("_pool", [])
        while len(pool) < n:
            pool.append((Label(font_size=sp(theme.SMALL), halign="right", valign="middle"),
                         Label(font_size=sp(theme.TINY), halign="left", valign="middle")))
        return pool[:n]

    def _draw(self) -> None:
        """The bars go to ``canvas.before``: ``canvas`` also holds the labels' own
        canvases, and clearing it there took every name and count off the screen."""
        stats = self.stats
        self.canvas.before.clear()
        rows = stats[:CHART_ROWS]
        labels = self._labels(len(rows))
        if self.children[::-1] != [w for pair in labels for w in pair]:
            self.clear_widgets()
            for name, count in labels:
                self.add_widget(name)
                self.add_widget(count)
        if not rows:
            return
        most = max(s.played for s in rows)
        h = min(self.height / len(rows), 56)
        gap = 12 if h >= 40 else 8  # 8 rows: ~30 px each, bars ~22 px
        x0 = self.x + NAME_W + 6
        width = max(self.width - NAME_W - 6 - COUNT_W, 10)
        with self.canvas.before:
            for i, s in enumerate(rows):
                y = self.top - (i + 1) * h + gap / 2
                Color(*theme.BAR_PLAYED)
                Rectangle(pos=(x0, y), size=(width * s.played / most, h - gap))
                Color(*theme.GO)
                Rectangle(pos=(x0, y), size=(width * s.won / most, h - gap))
        for i, (s, (name, count)) in enumerate(zip(rows, labels, strict=True)):
            y = self.top - (i + 1) * h
            name.text = chart_name(s.name)
            name.pos, name.size, name.text_size = (self.x, y), (NAME_W, h), (NAME_W, h)
            react = f" {s.median_reaction_ms:.0f}ms" if s.median_reaction_ms is not None else ""
            count.text = f"{s.won}/{s.played}{react}"
            count.pos, count.size = (self.right - COUNT_W, y), (COUNT_W, h)
            count.text_size = (COUNT_W - 4, h)


class ScoreSheet(Modal, BoxLayout):
    """One game's sheet over the History screen (a ``Modal``: it takes every tap until
    closed)."""


class HistoryScreen(Screen):
    message = StringProperty("")

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def summaries(self):
        """The newest games, newest first; finished ones from their kept summaries."""
        app = App.get_running_app()
        return recent_summaries(app.log, SHOWN_GAMES, live=app.session)

    _read_at: tuple | None = None  # (log version, live session, its state) last read

    def refresh(self) -> None:
        """The list and the chart from the newest games: rows are built once (a pool, one
        per game shown) and updated in place; nothing is redrawn when nothing changed.
        Nothing is read again when neither the log (``GameLog.version``) nor the game
        in progress changed since the last reading."""
        app = App.get_running_app()
        session = app.session
        state = session.state if session is not None else None
        seen = self._read_at
        if seen is not None and seen[0] == app.log.version() and seen[1] is session \
                and seen[2] is state:
            return
        games = self.summaries()
        self._read_at = (app.log.version(), session, state)  # after any summary kept
        if games == getattr(self, "_shown", None):
            return
        self._shown = games
        kids = [self._row(i, g) for i, g in enumerate(games)] or [self._none_yet()]
        box = self.ids.games
        if box.children[::-1] != kids:
            box.clear_widgets()
            for kid in kids:
                box.add_widget(kid)
        self.ids.chart.show(win_table(games))

    def _none_yet(self):
        if not hasattr(self, "_empty"):
            self._empty = BodyLabel(text="No games yet.", size_hint_y=None,
                                    height=dp(theme.TOUCH))
        return self._empty

    def _row(self, i: int, g):
        """The list's ``i``-th line (built the first time), showing game ``g``: the whole
        line is a button that opens its score sheet; an open game has Resume beside it."""
        pool = self.__dict__.setdefault("_rows", [])
        if i == len(pool):
            app = App.get_running_app()
            row = BoxLayout(size_hint_y=None, height=dp(theme.HISTORY_ROW_H),
                            spacing=dp(theme.GAP))
            line = TapButton(font_size=sp(theme.SMALL), halign="left", valign="middle",
                             background_normal="", background_color=theme.LIST_ROW)
            line.bind(width=lambda w, width: setattr(w, "text_size", (width - 12, None)))
            # a game of 8 long names takes 4 lines: the row grows instead of spilling over
            line.bind(texture_size=lambda w, ts, r=row: setattr(
                r, "height", max(dp(theme.HISTORY_ROW_H), ts[1] + dp(12))))
            line.bind(on_release=lambda _w, r=row: self.show_sheet(r.game))
            resume = BigButton(text="Resume", size_hint_x=None, width=dp(theme.SIDE_BUTTON_W),
                               tint=theme.GO)
            resume.bind(on_release=lambda _w, r=row: app.resume_game(r.game.game_id))
            row.add_widget(line)
            row.line, row.resume = line, resume
            pool.append(row)
        row = pool[i]
        row.game = g
        row.line.text = g.line + "  [Sheet]"
        if g.resumable != (row.resume.parent is row):
            if row.resume.parent is row:
                row.remove_widget(row.resume)
            else:
                row.add_widget(row.resume)
        return row

    def show_sheet(self, summary) -> None:
        """The game's score sheet over the screen: totals, result, every action."""
        app = App.get_running_app()
        row = app.log.game(summary.game_id)
        try:
            actions = app.log.action_rows(summary.game_id)
            rules = get_rules(row.kind)
            outcome = rules.outcome(replay(rules, row.setup, [a for _s, _t, a in actions])[-1])
        except CompanionError as exc:
            actions, outcome = [], None
            app.say(f"Game {summary.game_id} cannot be replayed: {exc}", error=True)
        sheet = ScoreSheet()
        sheet.ids.lines.data = [{"text": line} for line in
                                score_sheet(summary, row.setup, outcome, actions)]
        sheet.ids.delete.bind(on_release=lambda _w: self.ask_delete(summary, sheet))
        sheet.ids.bgstats.disabled = not (outcome is not None and summary.status == "finished"
                                          and exported(row.kind))
        sheet.ids.bgstats.bind(on_release=lambda _w: show_play(app, summary.game_id))
        sheet.show()

    def ask_delete(self, summary, sheet=None) -> None:
        """"Delete" on a score sheet: asked first; a deleted game leaves History, the
        statistics and the exports, and stays in the log as it was recorded."""
        app = App.get_running_app()
        app.ask(delete_question(summary),
                [("Keep it", None, None),
                 ("Delete it", lambda: self.delete(summary.game_id), theme.ALARM)])

    def delete(self, game_id: int) -> bool:
        app = App.get_running_app()
        try:
            app.log.delete_game(game_id)
        except CompanionError as exc:
            app.say(str(exc), error=True)
            storage_problem.tell(exc)
            return False
        if app.session is not None and app.session.game_id == game_id:
            app.session = None  # closed as abandoned with the mark: not played on
        self.message = f"Game #{game_id} deleted from History (kept in the log)."
        app.switch(self.name)  # shown afresh: the sheet and question go, the list reads again
        return True

    def export(self) -> None:
        app = App.get_running_app()
        ids = exported_ids(app.log)
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

    def to_usb(self) -> None:
        """Every game's HTML score sheet onto a mounted USB stick, with the games as JSON
        Lines (what Restore reads back) and as a BG Stats play file
        (companion/export/usb.py)."""
        from companion.export.usb import copy_log, copy_sheets

        app = App.get_running_app()
        self.message = copy_sheets(app.log)
        if self.message.startswith("Wrote"):
            self.message += " " + copy_log(app.log)
        app.say(self.message, seconds=12)

    def ask_restore(self) -> None:
        """"Restore": the newest games export on the USB stick back into this box
        (issue 37), asked first; games the box has stay exactly as they are."""
        from companion.export.usb import newest_export

        app = App.get_running_app()
        found = newest_export()
        if found is None:
            self.message = ("No games export on a USB stick: plug in the stick that "
                            "'Sheets to USB' wrote (folder table-companion), then tap again.")
            app.say(self.message, seconds=12)
            return
        app.ask(f"Add the games of {found.parent.parent.name}/{found.parent.name}/"
                f"{found.name} that this box does not have? Games already here stay as "
                "they are.",
                [("Not now", None, None),
                 ("Restore", lambda: self.restore(found), theme.GO)])

    def restore(self, path) -> None:
        from companion.export.usb import restore_from_stick

        app = App.get_running_app()
        self.message = restore_from_stick(app.log, path)
        app.say(self.message, seconds=12, error=self.message.startswith("Nothing"))
        app.switch(self.name)  # the list reads the log again
