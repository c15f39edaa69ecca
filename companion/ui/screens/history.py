"""History: every game night in the log, who won, statistics, notes, and export.

Games are summed up from their replay (the log is the truth; a finished game's summary is
kept, see ``presenters.history``); an open game can be resumed from here. What shows is
the presenter's ``history_view`` (the list, the wins chart, the statistics page of
``companion.stats``, offered only when it has something to say); the layout is
``history.kv`` and this module only shows it. A closed game's sheet has "Note": the note
is typed on the screen's own keyboard (``ScreenKeyboard``, shown in place of the screen
while typing, as the Players screen does) and kept in the log (``GameLog.set_note``).
'Export' writes the whole log as JSON Lines and CSV beside the database (``exports/``),
the same files ``companion export`` writes.
"""

from __future__ import annotations

from kivy.app import App
from kivy.factory import Factory
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from companion.errors import CompanionError
from companion.export.logfile import export_beside
from companion.store.gamelog import NOTE_CHARS
from companion.ui import storage_problem, theme
from companion.ui.app import load_kv
from companion.ui.bgstats_panel import show_play
from companion.ui.modal import Modal
from companion.ui.name_entry import NUMBERS, SHIFT, ScreenKeyboard
from companion.ui.presenters.history import (
    PlayerStats,
    delete_question,
    history_view,
    paged,
    recent_summaries,
    sentence_start,
    sheet_view,
)

load_kv(__file__)

SHOWN_GAMES = 30
ALL_GAMES = 100_000  # the statistics count every game History knows


#: The chart shows this many players (the table's most), names up to NAME_LETTERS letters.
CHART_ROWS = 8
NAME_LETTERS = 12
NAME_W, COUNT_W = 150, 136  # px: a 12-letter name at 22 px; "12/30 180ms" at 22 px


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
                         Label(font_size=sp(theme.SMALL), halign="left", valign="middle")))
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


class GameLine(BoxLayout):
    """A game in the list (a tap opens its sheet; Resume beside an open game): laid out
    in ``history.kv``, ``lines`` lines high."""

    text = StringProperty("")
    lines = NumericProperty(1)
    game_id = NumericProperty(0)
    resumable = BooleanProperty(False)


#: A game's line in the list, and the room around its lines (px at 22 px text).
LINE_H, ROW_PAD, ROW_GAP = 30, 12, 4


class NoteInput(TextInput):
    """The note as typed: no system keyboard, at most ``NOTE_CHARS`` letters."""

    limit = NumericProperty(NOTE_CHARS)

    def __init__(self, **kwargs) -> None:
        super().__init__(keyboard_mode="managed", **kwargs)

    def insert_text(self, substring: str, from_undo: bool = False):
        room = max(0, NOTE_CHARS - len(self.text) + len(self.selection_text))
        return super().insert_text(substring[:room], from_undo=from_undo)


class NoteKeyboard(ScreenKeyboard):
    """The screen's keyboard for a note: a capital where a sentence begins, not at every
    word as for a name."""

    def press(self, key: str) -> None:
        super().press(key)
        if key not in (SHIFT, NUMBERS) and self.target is not None:
            self.shift = sentence_start(self.target.text)

    def type_into(self, target) -> None:
        super().type_into(target)
        self.shift = target is None or sentence_start(target.text)


class HistoryScreen(Screen):
    message = StringProperty("")
    page = StringProperty("games")  # "games" (list and chart) or "stats"
    has_stats = BooleanProperty(False)  # the statistics page has something to say
    typing = BooleanProperty(False)  # a note is typed: the keyboard shows instead
    note_game = NumericProperty(0)  # the game whose note is typed
    pages = NumericProperty(1)  # the games list's pages of whole games
    page_no = NumericProperty(0)  # the one shown, 0 the newest

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.app = App.get_running_app()
        self._read_at: tuple | None = None  # (log version, live session, its state)
        self._view = None
        self._pages: list[tuple[int, int]] = [(0, 0)]

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def on_leave(self, *_args) -> None:
        self.stop_note()

    def summaries(self):
        """The newest games, newest first; finished ones from their kept summaries."""
        return recent_summaries(self.app.log, SHOWN_GAMES, live=self.app.session)

    def refresh(self) -> None:
        """The view from the log, read again only when the log (``GameLog.version``) or
        the game in progress changed since the last reading."""
        app = self.app
        state = app.session.state if app.session is not None else None
        was = self._read_at
        if was is not None and was[0] == app.log.version() and was[1] is app.session \
                and was[2] is state:
            return
        games = recent_summaries(app.log, ALL_GAMES, live=app.session)
        self._read_at = (app.log.version(), app.session, state)  # after any summary kept
        self.show(history_view(games, SHOWN_GAMES))

    def show(self, view) -> None:
        if view == self._view:
            return
        self._view = view
        self.page_no = 0
        self.fit_rows()
        self.ids.chart.show(list(view.chart))
        self.ids.stats.data = list(view.stats)
        self.has_stats = bool(view.chart or view.stats)
        if not self.has_stats:
            self.page = "games"

    def fit_rows(self) -> None:
        """The games cut into pages of whole games for the list's height, and the page
        shown (again when the window's size changes)."""
        if self._view is None:
            return
        heights = [dp(LINE_H) * g["lines"] + dp(ROW_PAD) for g in self._view.games]
        self._pages = paged(heights, self.ids.games.height, dp(ROW_GAP))
        self.pages = len(self._pages)
        self.turn(0)

    def turn(self, step: int) -> None:
        """Newer (-1) or Older (+1) games; 0: the page shown, laid out again."""
        self.page_no = max(0, min(self.pages - 1, self.page_no + step))
        first, end = self._pages[self.page_no]
        box = self.ids.games
        box.clear_widgets()
        for item in self._view.games[first:end]:
            box.add_widget(GameLine(height=dp(LINE_H) * item["lines"] + dp(ROW_PAD), **item))
        if not self._view.games:
            box.add_widget(Factory.NoGamesYet())
        box.add_widget(Widget())  # the room left over goes below the games

    def toggle_page(self) -> None:
        self.page = "stats" if self.page == "games" else "games"

    def open_sheet(self, game_id: int) -> None:
        """A line tapped: its game's sheet."""
        found = [g for g in self.summaries() if g.game_id == game_id]
        if found:
            self.show_sheet(found[0])

    def show_sheet(self, summary) -> None:
        """The game's score sheet over the screen: totals, result, note, every action."""
        view = sheet_view(self.app.log, summary)
        if view.error:
            self.app.say(view.error, error=True)
        sheet = ScoreSheet()
        sheet.ids.lines.data = [{"text": line} for line in view.lines]
        sheet.ids.delete.bind(on_release=lambda _w: self.ask_delete(summary, sheet))
        sheet.ids.bgstats.disabled = not view.bgstats
        sheet.ids.bgstats.bind(on_release=lambda _w: show_play(self.app, summary.game_id))
        sheet.ids.note.disabled = not view.note
        sheet.ids.note.bind(on_release=lambda _w: self.start_note(summary.game_id, sheet))
        sheet.show()

    # -- a game's note, typed on the screen's keyboard ---------------------------------

    def start_note(self, game_id: int, sheet=None) -> None:
        """The note of ``game_id`` on the keyboard, in place of the screen (the sheet
        closes; it opens again when the note is kept or left)."""
        if sheet is not None:
            sheet.close()
        self.note_game = game_id
        field = self.ids.note_input
        field.text = self.app.log.game(game_id).note
        keyboard = self.ids.keyboard
        keyboard.type_into(field)
        keyboard.on_enter, keyboard.on_tab = self.save_note, None
        if not self.typing:
            keyboard.attach()
        self.typing = True

    def stop_note(self) -> None:
        if self.typing:
            self.ids.keyboard.detach()
            self.ids.keyboard.type_into(None)
            self.typing = False

    def save_note(self) -> None:
        """Done: the note into the log (an empty one removes it), then its sheet."""
        gid = self.note_game
        try:
            note = self.app.log.set_note(gid, self.ids.note_input.text)
        except CompanionError as exc:
            self.app.say(str(exc), error=True)
            storage_problem.tell(exc)
            return
        self.stop_note()
        self.message = f"Note kept with game #{gid}." if note else \
            f"Game #{gid} has no note now."
        self.refresh()
        self.open_sheet(gid)

    def cancel_note(self) -> None:
        self.stop_note()
        self.open_sheet(self.note_game)

    def ask_delete(self, summary, sheet=None) -> None:
        """"Delete" on a score sheet: asked first; a deleted game leaves History, the
        statistics and the exports, and stays in the log as it was recorded."""
        app = self.app
        app.ask(delete_question(summary),
                [("Keep it", None, None),
                 ("Delete it", lambda: self.delete(summary.game_id), theme.ALARM)])

    def delete(self, game_id: int) -> bool:
        app = self.app
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
        self.message = export_beside(self.app.log)
        self.app.say(self.message)

    def to_usb(self) -> None:
        """Every game's HTML score sheet onto a mounted USB stick, with the games as JSON
        Lines (what Restore reads back) and as a BG Stats play file
        (companion/export/usb.py)."""
        from companion.export.usb import copy_log, copy_sheets

        app = self.app
        self.message = copy_sheets(app.log)
        if self.message.startswith("Wrote"):
            self.message += " " + copy_log(app.log)
        app.say(self.message, seconds=12)

    def ask_restore(self) -> None:
        """"Restore": the newest games export on the USB stick back into this box
        (issue 37), asked first; games the box has stay exactly as they are."""
        from companion.export.usb import newest_export

        app = self.app
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

        app = self.app
        self.message = restore_from_stick(app.log, path)
        app.say(self.message, seconds=12, error=self.message.startswith("Nothing"))
        app.switch(self.name)  # the list reads the log again
