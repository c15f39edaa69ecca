"""The T.I.M.E Stories mission screen: the group's time keeper on the table.

What it shows: a big TU counter, the run and turn, the mission, the Time Captain die, a
burn-down picture of this run (TU against turns, from the starting TU) and the last
lines of the readable log. What it does: the captain button (seat 0; the space bar in
simulation) or the "Roll captain die" button rolls the die for travel; "Red-lettered"
adds the +2 for leaving a red-lettered location; "Stay (1 TU)"; "Correct TU"; panels for
the characters and for action-dice tests (``time_stories_panels.py``), the item cards
(``time_stories_items.py``); the next run
with its starting TU when a run is over; undo through ``app.undo``.

Setup: while the run has no characters and nothing has happened in it, the screen
opens the setup panel (``time_stories_setup.py``) and the captain die and "Stay" are
refused ("Add the characters first") until the cast is recorded or the host taps
"Play without characters" (kept per game and run in the setting
``time_stories.without_characters``).

Refusals: panels hand actions to ``screen.act``, which asks the engine first (a dry run,
``games.base.check``) and says the refusing rule's sentence in the status bar; a panel
that can offer the way out a refusal names (the dice test's "Stay (1 TU) and start")
asks ``screen.refusal`` itself and reads the refusal's code.

Dice: the face is rolled (``companion.dice.roll`` with ``self.rng``, None = the OS
source) the moment the button is pressed, the die then tumbles for a few frames driven
by ``on_frame(now_ns)`` and, when it settles on that face, the ``travel`` action with
the face in it is logged. Tests set ``screen.rng`` to choose faces and pass a later
``now_ns`` to ``on_frame`` to settle the die without waiting.

Registered as "time_stories" from its game descriptor (``GameInfo.screen``).
"""

from __future__ import annotations

from kivy.app import App
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.label import Label
from kivy.uix.recycleboxlayout import RecycleBoxLayout
from kivy.uix.recyclelayout import RecycleLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from companion import dice
from companion.errors import RuleError
from companion.games.base import check
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.kept_text import KeptText
from companion.ui.presenters import time_stories as p
from companion.ui.presenters import time_stories_setup as setup
from companion.ui.screens import time_stories_items as items
from companion.ui.screens import time_stories_panels as panels
from companion.ui.screens import time_stories_setup as setup_panel
from companion.ui.screens.captain_die import FacePicker
from companion.ui.widgets import KeptFitLabel, Page, TapButton

load_kv(__file__)

#: log lines kept in the scrolling list under the burn-down chart
LOG_ROWS = 60

#: panels that show a finished run themselves (the rest give way to the next-run panel)
RUN_OVER_AWARE = (panels.NextRunPanel, panels.DiceTestPanel, items.ItemsPanel)


class BurndownChart(Widget):
    """TU against turns as a staircase; ``points`` are 0..1 pairs from ``chart_points``.

    Its lines are made once; a new point or size only moves them."""

    points = ListProperty([])
    starting_tu = NumericProperty(25)
    pad = NumericProperty(36)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        with self.canvas.after:
            Color(*theme.CHART_AXIS)
            self._axes = Line(width=1.2)
            Color(*theme.CHART_GUIDE)
            self._guide = Line(width=1, dash_length=6, dash_offset=4)
            Color(*theme.CHART_LINE)
            self._line = Line(width=2.5)
        self._redraw()

    def on_points(self, *_args) -> None:
        self._redraw()

    def on_size(self, *_args) -> None:
        self._redraw()

    def on_pos(self, *_args) -> None:
        self._redraw()

    def _redraw(self) -> None:
        x0, y0 = self.x + self.pad, self.y + 8
        w, h = max(1, self.width - self.pad - 8), max(1, self.height - 16)
        self._axes.points = [x0, y0 + h, x0, y0, x0 + w, y0]
        self._guide.points = [x0, y0 + h, x0 + w, y0 + h]
        self._line.points = [v for px, py in self.points for v in (x0 + px * w, y0 + py * h)]


class LogLine(Label):
    """A row of the time log: one line at its left, cut with "..." when it is longer
    than the row (``presenters.time_stories.one_line``: the line Kivy's ``shorten``
    gives).

    ``text`` keeps the whole line; the texture shows what fits, drawn unwrapped
    (``text_size`` stays None), so a line that fits is measured once and drawn, and a
    longer one measured a few times more. (Kivy's own wrapping and ``shorten`` measure a
    row word by word, and letter by letter to cut it: 24-35 text measures a row.)
    ``shorten`` stays True: the row is cut, never wrapped (the layout checks read it).

    Its text's rectangle is placed in Python, once per move (``_place``): a row moves
    one place at each new line, and the kv rule it had re-read its place two or three
    times per move (``x``, then ``center_y``, each a kv expression)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        with self.canvas:
            Color(*theme.WHITE)
            self._rect = Rectangle()
        self.fbind("width", self._trigger_texture)
        for name in ("pos", "size", "texture", "texture_size", "padding"):
            self.fbind(name, self._place)
        self._place()

    def _place(self, *_args) -> None:
        """Where Kivy puts a line in the middle of the row's own box, to the pixel."""
        rect, (tw, th), h = self._rect, self.texture_size, self.height
        rect.texture = self.texture
        rect.size = tw, th
        rect.pos = (int(self.x + self.padding[0]),
                    int(self.center_y - h / 2.) + h - int((h - th) / 2) - th)

    def texture_update(self, *largs) -> None:
        core = self._label
        core.resolve_font_name()
        pad = self.padding
        room = max(0, int(self.width - pad[0] - pad[2] - 2))
        core.text = p.one_line(self.text, room, lambda text: core.get_extents(text)[0])
        super().texture_update(*largs)
        self.is_shortened = core.text != self.text


class CentredLine(Label):
    """Centred text wrapped at its width (``text_size: self.width, None``), measured once
    when it fits on one line: it is then drawn unwrapped, where ``halign: "center"`` puts
    it. (Kivy lays out a wrapped text word by word: ~11 text measures for "Run 1 · turn
    9", at each turn.) Longer text, or text that is not centred, wraps as a Label does."""

    def texture_update(self, *largs) -> None:
        core, (width, height) = self._label, self.text_size
        if width is not None and self.halign == "center" and not self.markup:
            core.resolve_font_name()
            pad = self.padding
            one = "\n" not in self.text and (
                core.get_extents(self.text)[0] <= width - pad[0] - pad[2] - 2)
            core.text_size = (None, height) if one else (width, height)
        super().texture_update(*largs)


class DigitsLabel(Label):
    """A number drawn from one texture per digit, each drawn once for its font and size
    (the big TU count: a new count moves two or three rectangles, no text is drawn;
    Kivy would draw the whole number anew, ~0.15 ms at 120 sp here). Digits only: each
    is drawn alone, as the digits of one number are (no kerning between digits).

    ``texture_size`` is the number's size, as a Label's, centred in the box; its colour
    tints the white digits (``color``, or ``disabled_color`` when disabled)."""

    _digits: dict = {}  # (digit, font, size, bold) -> its texture, for every instance

    def __init__(self, **kwargs) -> None:
        self._shown: list = []
        self._rects: list = []
        super().__init__(**kwargs)
        with self.canvas:
            self._tint = Color(*self.color)
        for name in ("pos", "size"):
            self.fbind(name, self._place)
        for name in ("color", "disabled_color", "disabled"):
            self.fbind(name, self._retint)

    def texture_update(self, *_largs) -> None:
        self._shown = [self._digit(ch) for ch in self.text]
        self.texture_size = [sum(t.width for t in self._shown),
                             max((t.height for t in self._shown), default=0)]
        self._place()

    def _digit(self, ch: str):
        key = (ch, self.font_name, self.font_size, self.bold)
        texture = self._digits.get(key)
        if texture is None:
            from kivy.core.text import Label as CoreLabel

            core = CoreLabel(text=ch, font_name=self.font_name, font_size=self.font_size,
                             bold=self.bold)
            core.refresh()
            texture = self._digits[key] = core.texture
        return texture

    def _place(self, *_args) -> None:
        while len(self._rects) < len(self._shown):
            with self.canvas:
                self._rects.append(Rectangle())
        w, h = self.texture_size
        x, y = int(self.center_x - w / 2), int(self.center_y - h / 2)
        for i, rect in enumerate(self._rects):
            texture = self._shown[i] if i < len(self._shown) else None
            rect.texture = texture
            rect.size = texture.size if texture is not None else (0, 0)
            rect.pos = (x, y)
            x += texture.width if texture is not None else 0

    def _retint(self, *_args) -> None:
        self._tint.rgba = self.disabled_color if self.disabled else self.color


class DieFace(KeptText, TapButton):
    """The Time Captain die to tap (its face, "1" to "6", or "-"): the faces come back
    at every roll and every frame of its tumble, each drawn once and then shown from its
    kept texture (``kept_text.KeptText``, kept from its first showing)."""

    keep_first_showing = True


class DieCaption(KeptFitLabel):
    """What the die says ("Rolling...", "Die 2: 2 TU", how to enter the table's roll):
    a dozen sentences that come back at every roll, kept from their first showing."""

    keep_first_showing = True


class RedToggle(KeptText, ToggleButton):
    """The red-lettered toggle: "Red-lettered: no" and "Red-lettered: +2" come back at
    every tap on it and every red departure, each drawn once and then shown from its
    kept texture (``kept_text.KeptText``, kept from its first showing)."""

    keep_first_showing = True


class TimeLogLayout(RecycleBoxLayout):
    """The time log's rows, newest first, where each row view keeps its row when the
    rows move.

    A new line comes in at the top (or the newest goes, on Undo): the screen changes the
    data by one row and calls ``moved(by)``; every row view shown is then known to show
    the row one index further (or nearer), keeps its text and texture, and only the new
    row is drawn. (Kivy's own way puts every view back in its cache and hands them out
    again in another order: 3-4 rows rendered again per line, ~24 text measures each.)
    Leans on Kivy 2.3's view adapter (``views``, ``dirty_views``, ``make_views_dirty``);
    ``tests/ui/test_time_stories_screen.py`` checks each row view's text against its row.
    """

    _moved = False
    _laying = False  # inside ``compute_layout``

    def compute_layout(self, data, flags) -> None:
        self._laying = True
        try:
            if not self._lay_rows(data, flags):
                super().compute_layout(data, flags)
        finally:
            self._laying = False

    def _lay_rows(self, data, flags) -> bool:
        """Every row laid out afresh (the data changed: no view is placed yet) when the
        rows are alike, as the log's are (each its default size, its width from the
        box, no hints of their own): the places ``RecycleBoxLayout.compute_layout``
        gives them (``minimum_size``, each row's ``pos`` and ``size``, the positions it
        finds a row at), worked out in one pass, not through Kivy's general box layout
        (sizes listed, hints weighed, a generator per row: ~0.1 ms for 60 rows here, at
        every new line). False, nothing done, for rows that differ or views still placed
        (Kivy's own layout then). ``tests/ui/test_time_stories_screen.py`` checks the
        places against Kivy's."""
        opts = self.view_opts
        if self.orientation != "vertical" or not opts or self.view_indices or all(flags):
            return False
        first = opts[0]
        h = first["size"][1]
        hint, low, high = first["size_hint"], first["size_hint_min"], first["size_hint_max"]
        if (h is None or not hint[0] or hint[1] is not None or first["pos_hint"]
                or low != [None, None] or high != [None, None]):
            return False
        for opt in opts:
            if (opt["size"][1] != h or opt["size_hint"] != hint or opt["pos_hint"]
                    or opt["size_hint_min"] != low or opt["size_hint_max"] != high):
                return False
        RecycleLayout.compute_layout(self, data, flags)  # its bookkeeping: no view placed
        self.clear_layout()
        n, spacing = len(opts), self.spacing
        left, top, right, bottom = self.padding
        self.minimum_size = left + right, top + bottom + n * h + spacing * (n - 1)
        x, y, step = self.x + left, self.y + bottom, h + spacing
        size = [max(0, hint[0] * (self.width - left - right)), h]
        for i, opt in enumerate(opts):
            opt["pos"] = x, y + (n - 1 - i) * step
            opt["size"] = list(size)
        highest = self.y + self.height - top - h - spacing / 2.
        self._rv_positions = [highest - (n - 1 - i) * step for i in range(n)]
        return True

    def _catch_layout_trigger(self, instance=None, value=None) -> None:
        """A change of this layout's own size while it lays its rows out is the
        ``minimum_size`` that layout just gave it (a line more: one row taller), and the
        layout read the new height before placing any row (Kivy's ``_iterate_layout``
        sets ``minimum_size`` first): no second pass over every row for it. (Kivy asks
        for one, and the log laid all its rows out twice per new line.)"""
        if self._laying and instance is self:
            return
        super()._catch_layout_trigger(instance, value)

    def moved(self, by: int, count: int) -> None:
        """The rows moved ``by`` indices (the data now holds ``count`` rows)."""
        adapter = self.recycleview.view_adapter if self.recycleview else None
        if adapter is None:
            return

        def follow(views: dict) -> dict:
            out = {}
            for i, view in views.items():
                j = i + by if i >= 0 else i
                out[j if 0 <= j < count else -1 - len(out) - count] = view
            return out

        adapter.views = follow(adapter.views)
        for cls in list(adapter.dirty_views):
            adapter.dirty_views[cls] = follow(adapter.dirty_views[cls])
        self._moved = True

    def clear_layout(self) -> None:
        if not self._moved:
            super().clear_layout()
            return
        # the data changed by rows that moved: until the views in sight are set again
        # (``set_visible_views``), they stay in step with the rows they now stand at
        # (dirty, not stale), so none is refreshed; they stay in the layout too (taken
        # out and put back, each would be unbound and bound again): those in sight are
        # only moved to their rows' places, the others taken out then
        self.recycleview.view_adapter.make_views_dirty()
        self.view_indices = {}
        self._size_needs_update = False

    def set_visible_views(self, indices, data, viewport) -> None:
        super().set_visible_views(indices, data, viewport)
        if self._moved:
            shown = self.view_indices
            for view in [w for w in self.children if w not in shown]:
                self.remove_widget(view)  # out of sight now: a dirty view, as Kivy keeps
        self._moved = False


class TimeStoriesScreen(Screen):
    heading = StringProperty("T.I.M.E Stories")
    tu_text = StringProperty("")
    run_line = StringProperty("")
    log_text = StringProperty("")
    die_text = StringProperty("-")
    die_caption = StringProperty("")
    red = BooleanProperty(False)
    rolling = BooleanProperty(False)
    running = BooleanProperty(True)
    starting_tu = NumericProperty(25)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.rng = None  # a random.Random in tests; None = the OS random source
        self.anim: p.DieAnimation | None = None
        self._anim_red = False
        self.panel = None
        self.kept: dict[str, panels.Panel] = {}  # panels built once (``Panel.KEPT``)
        self.picker: FacePicker | None = None  # made on the first tap on the die
        self._drawn: dict | None = None  # the snapshot the mission shows (``refresh``)
        # the time log, newest first, as its RecycleView holds it (``_show_log``): a
        # plain list, as nothing is bound to it (a ListProperty copied and
        # compared its 60 rows at every line)
        self.log_rows: list[str] = []
        self.chart = self.ids.chart.__self__  # the burn-down (strong: ids are weak)
        self._charted = None  # the burn-down and starting TU it shows (``_draw_mission``)
        # strong references: ids are weak
        self.mission, self.undo_button = self.ids.mission.__self__, self.ids.undo.__self__
        self.ids.stack.shown = self.mission  # the body's first page (``_body``)
        self.pages: dict[panels.Panel, Page] = {}  # a page per paged panel (``_body``)
        self.spare = Page()  # the page of the panels that have none of their own
        self.ids.stack.add_page(self.spare)

    # -- showing -------------------------------------------------------------------

    def on_pre_enter(self, *_args) -> None:
        """The mission, or the dice test when one is under way (a resumed game opens
        where the log left it: the open test, or the roll it ended on)."""
        snap = self.snapshot()
        n, last = self.last_action()
        if snap is not None and snap["running"] and (
                snap["tests"] or p.roll_is_news(last, n, None)):
            self.panel = None
            self.refresh()  # the header and the die, then the panel over the mission
            self.open("test")
        else:
            self.show_mission()

    def session(self):
        """The game in progress when it is this screen's game, else None (no snapshot
        is taken: for a check that only asks whether there is a game)."""
        session = App.get_running_app().session
        if session is None or session.rules.GAME.screen_name != self.name:
            return None
        return session

    def last_action(self) -> tuple[int, dict | None]:
        """How many actions the game has and the last of them (what undo would remove)."""
        session = self.session()
        return (0, None) if session is None else (session.n_actions, session.last_action)

    def snapshot(self) -> dict | None:
        session = self.session()
        return None if session is None else session.snapshot()

    def refresh(self) -> None:
        """The screen from the engine's state, after every action: one snapshot, and
        only what changed is set (an equal text costs nothing, a new one a texture).
        The mission's part is drawn once per snapshot (one per state): a panel closed
        after its action (the correction's Apply) shows the mission drawn by the
        action's own refresh, its view not made a second time."""
        snap = self.snapshot()
        app = App.get_running_app()
        self.undo_button.disabled = not (app.session and app.session.can_undo)
        if snap is None:
            self._drawn = None
            self.heading, self.tu_text, self.run_line, self.log_text = "No game", "", "", ""
            self._show_log([])
            return
        self.heading = f"T.I.M.E Stories: {snap['mission']}"  # (the setup panel's own)
        if snap is not self._drawn:
            self._draw_mission(snap)
        if self.anim is None:  # the die as the log says: an undone roll leaves it
            self.die_text, self.die_caption = p.captain_shown(self.last_action()[1])
        if not snap["running"] and not isinstance(self.panel, RUN_OVER_AWARE):
            # the run is over (time, deaths, "Mission won"): say so at once
            self.show_panel(self.kept_panel("next"), snap)
        elif self.panel is not None:
            self.panel.refresh(snap)
        elif self.needs_setup(snap):
            self.show_panel(self.kept_panel("setup"), snap)

    def _draw_mission(self, snap: dict) -> None:
        """The TU, the run line, the time log and the chart of ``snap``."""
        self._drawn = snap
        v = p.mission_view(snap, lines=LOG_ROWS)
        self.tu_text = str(v.tu)
        self.run_line = v.run_line
        self.log_text = "\n".join(v.log_lines[-p.LOG_LINES:])
        self._show_log(v.log_lines[::-1])
        self.running = v.running
        self.starting_tu = v.starting_tu
        charted = snap["burndown"], v.starting_tu
        if charted != self._charted:  # a life, an item, a test: the same burn-down
            self._charted = charted
            self.chart.points = p.chart_points(*charted)

    def _show_log(self, rows: list[str]) -> None:
        """The time log's rows, newest first, into its RecycleView: one line more (or
        less, after an undo) is one row inserted (or removed) at the top, not the whole
        list laid out again; anything else replaces the rows."""
        old, data, layout = self.log_rows, self.ids.log.data, self.ids.log_rows
        if rows == old:
            return
        if rows[1:] == old[:len(rows) - 1] and len(old) in (len(rows) - 1, len(rows)):
            if len(old) == len(rows):  # the list is full: the oldest row goes
                data.pop()
            data.insert(0, {"text": rows[0]})
            layout.moved(1, len(rows))
        elif old[1:] == rows and old:  # the newest line undone
            data.pop(0)
            layout.moved(-1, len(rows))
        else:
            self.ids.log.data = [{"text": line} for line in rows]
        self.log_rows = rows

    def _body(self, widget) -> None:
        """``widget`` (the mission or a panel) shown in the body.

        The body is a ``PageStack``: the mission and each kept panel that is
        ``PAGED`` are pages of it for good, so showing one moves no widget (a box
        given a new parent lays out itself and all it holds again: ~0.3 ms here
        when the mission came back after each Apply). Any other panel is put alone in
        the spare page, and taken out of it (out of the window's tree, as before)
        when another page shows."""
        stack, spare = self.ids.stack, self.spare
        page = widget if widget is self.mission else self.pages.get(widget)
        if page is None and widget.KEPT and widget.PAGED:
            page = self.pages[widget] = Page()
            page.add_widget(widget)
            stack.add_page(page)
        if page is None:
            page = spare
            if spare.children != [widget]:
                spare.clear_widgets()
                spare.add_widget(widget)
        elif spare.children:
            spare.clear_widgets()
        stack.show(page)

    def show_panel(self, panel, snap: dict | None = None) -> None:
        """Put a panel (characters, dice test, correction, next run) in the body;
        ``snap``: the snapshot the caller holds already (else one is taken)."""
        self.panel = panel
        self._body(panel)
        snap = self.snapshot() if snap is None else snap
        if snap is not None:
            panel.refresh(snap)

    def show_mission(self) -> None:
        self.panel = None
        self._body(self.mission)
        self.refresh()

    def kept_panel(self, name: str) -> panels.Panel:
        """The panel ``name``, made on its first use; a ``KEPT`` panel is made once and
        kept (its widgets too), the others anew each time."""
        kind = {"characters": panels.CharactersPanel, "test": panels.DiceTestPanel,
                "correct": panels.CorrectPanel, "items": items.ItemsPanel,
                "setup": setup_panel.SetupPanel, "next": panels.NextRunPanel}[name]
        panel = self.kept.get(name)
        if panel is None:
            panel = kind(screen=self)
            if kind.KEPT:
                self.kept[name] = panel
        return panel

    def open(self, name: str) -> None:
        """Show the panel ``name``; a kept panel is reset (its first choices) on each
        opening."""
        fresh = name not in self.kept
        panel = self.kept_panel(name)
        if not fresh:
            panel.reset()
        self.show_panel(panel)

    def show_next_run(self, snap: dict | None = None) -> None:
        """The end-of-run panel (the run is over, or its roll was read)."""
        self.show_panel(self.kept_panel("next"), snap)

    # -- setup ---------------------------------------------------------------------

    def needs_setup(self, snap: dict) -> bool:
        """The setup panel is due (``setup.needs_setup``); the setting that says the host
        skipped it is read only when the run has no characters and nothing happened."""
        return setup.needs_setup(snap, False) and setup.needs_setup(snap, self.skipped(snap))

    def skipped(self, snap: dict) -> bool:
        """The host chose "Play without characters" for this run of this game."""
        app = App.get_running_app()
        if app.session is None:
            return False
        chosen = app.log.get_setting(setup.SKIP_SETTING, None)
        return chosen == setup.skip_value(app.session.game_id, snap["run"])

    def play_without_characters(self) -> None:
        app = App.get_running_app()
        snap = self.snapshot()
        if snap is None:
            return
        app.log.set_setting(setup.SKIP_SETTING,
                            setup.skip_value(app.session.game_id, snap["run"]))
        app.say("Playing without characters: dice tests need characters")
        self.show_mission()

    def blocked(self) -> bool:
        """Time may not pass yet: the characters come first (see the module doc)."""
        snap = self.snapshot()
        if snap is None or not self.needs_setup(snap):
            return False
        App.get_running_app().say(setup.NO_CHARACTERS, error=True)
        if not isinstance(self.panel, setup_panel.SetupPanel):
            self.open("setup")
        return True

    def restart_with(self, mission: str, starting_tu: int) -> bool:
        """Give this untouched game a new mission name / starting TU (both live in the
        engine's setup; the log allows a setup to change until the first action)."""
        app = App.get_running_app()
        game = app.session
        if game is None or game.actions:
            return False
        new = {k: v for k, v in game.setup.items() if k != "characters"}
        new.update(mission=mission, starting_tu=starting_tu)
        if not app.amend_setup(new):
            return False
        self.refresh()
        return True

    # -- acting --------------------------------------------------------------------

    def refusal(self, action: dict) -> RuleError | None:
        """The engine's refusal of ``action`` now (its code and sentence), or None when
        it would be accepted: a dry run, nothing is logged."""
        session = self.session()
        if session is None:
            return RuleError("time_stories.no_game", "No game in progress.")
        return check(session.rules, session.state, action)

    def act(self, action: dict) -> bool:
        """``app.act``: recorded, or refused with the rule's sentence in the status bar."""
        return App.get_running_app().act(action)

    # -- time ----------------------------------------------------------------------

    def roll_captain(self, now_ns: int | None = None) -> None:
        """Roll the Time Captain die now; it is logged when the animation settles."""
        app = App.get_running_app()
        if self.session() is None or self.anim is not None:
            return
        refused = self.refusal({"type": "travel", "die": 1, "red": self.red})
        if refused is not None:  # said before the die rolls, not after it settles
            app.say(refused.sentence, error=True)
            return
        if self.blocked():
            return
        face = dice.roll(1, self.rng)[0]
        start = app.table.now_ns() if now_ns is None else now_ns
        self.anim = p.DieAnimation(face=face, start_ns=start)
        self._anim_red = self.red
        self.rolling = True
        self.die_caption = "Rolling..."
        app.play("dice")

    def frames_wanted(self) -> bool:
        """Every frame while the Time Captain die rolls (the app idles otherwise)."""
        return self.anim is not None

    def on_frame(self, now_ns: int) -> None:
        if self.anim is None:
            return
        face, settled = self.anim.shown(now_ns)
        self.die_text = str(face)
        if not settled:
            return
        red = self._anim_red
        self.anim, self.rolling = None, False
        self.die_caption = p.captain_text(face, red)
        if self.act({"type": "travel", "die": face, "red": red}):
            self.red = False

    def on_press_event(self, event) -> None:
        if event.pressed and event.seat == 0:
            if self.blocked():
                return
            if self.panel is not None and not isinstance(self.panel, panels.NextRunPanel):
                self.show_mission()
            self.roll_captain()

    def enter_face(self) -> None:
        """The table rolled its own die: ask which face it shows and spend for it."""
        snap = self.snapshot()
        if snap is None or self.anim is not None or self.blocked():
            return
        if not snap["running"]:
            App.get_running_app().say("The run is over: start the next run first",
                                      error=True)
            return
        red = self.red

        def travel(face):
            self.die_text = str(face)
            self.die_caption = p.captain_text(face, red)
            if self.act({"type": "travel", "die": face, "red": red}):
                self.red = False

        if self.picker is None:
            self.picker = FacePicker("Which face does the Time Captain die show?")
        self.picker.ask(travel)

    def stay(self) -> None:
        if not self.blocked():
            self.act({"type": "stay"})

    def undo(self) -> None:
        if self.anim is None:
            App.get_running_app().undo()
