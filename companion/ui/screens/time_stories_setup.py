"""The T.I.M.E Stories setup panel: the mission, its starting TU, a character a player.

The mission screen (``time_stories.py``) opens it by itself while the run has no
characters and nothing has happened in it yet, and from the Characters panel to change
the cast before anything happens. Pages: the mission (name typed or a preset, starting
TU with big +/- buttons; only in a game where nothing at all is logged yet), then one
page per player's character (name typed or a preset card, life and resistance +/-,
characteristics as name + dice +/-). "Start run" records the cast with the engine's
``set_characters``; "Play without characters" lets the host roll first.

The engine has no action for the mission name or run 1's starting TU: they belong to
its setup. When the host changes them in a game where nothing is logged yet, the panel
amends the untouched game's setup (``screen.restart_with``) before the cast is
recorded.

All state is a ``SetupDraft`` from ``companion.ui.presenters.time_stories_setup``.
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput

from companion.palette import rgba
from companion.ui import theme
from companion.ui.presenters import time_stories_setup as s
from companion.ui.screens.time_stories_panels import Panel, _button, _toggle, grown_text
from companion.ui.widgets import BigButton, BodyLabel, SeatBadge

ROW = 64
NAME_W = 210  # a stepper's name: "Ranged Combat" at 28 px fits
STEP_W = 60


def _row(*widgets, height=ROW) -> BoxLayout:
    row = BoxLayout(size_hint_y=None, height=height, spacing=6)
    for w in widgets:
        row.add_widget(w)
    return row


def _field(text: str, hint: str, on_text, **kw) -> TextInput:
    box = TextInput(text=text, hint_text=hint, font_size=sp(theme.TEXT), multiline=False,
                    write_tab=False,
                    size_hint_y=None, height=ROW, padding=(6, 14), **kw)
    box.bind(text=lambda _w, value: on_text(value))
    return box


class Stepper(BoxLayout):
    """A name (label or text field), a big -, the value, a big +."""

    def __init__(self, name_widget, value: int, on_step, **kw) -> None:
        super().__init__(size_hint_y=None, height=ROW, spacing=4, **kw)
        self.add_widget(name_widget)
        self.add_widget(_step_button("-", lambda: on_step(-1), STEP_W))
        self.value_label = Label(text=str(value), font_size=sp(theme.HEADING), bold=True,
                                 size_hint_x=None, width=44)
        self.add_widget(self.value_label)
        self.add_widget(_step_button("+", lambda: on_step(1), STEP_W))


def _name_label(text: str) -> Label:
    return Label(text=text, font_size=sp(theme.TEXT), halign="left", valign="middle",
                 size_hint_x=None,
                 width=NAME_W, text_size=(NAME_W - 8, None))


def _step_button(text: str, action, width: int = ROW, height: int = ROW) -> BigButton:
    b = BigButton(text=text, font_size=sp(theme.STEP_TEXT), size_hint_x=None, width=width,
                  height=height,
                  repeat_ok=True)  # a stepper: every fast tap counts
    b.bind(on_release=lambda *_: action())
    return b


class SetupPanel(Panel):
    """Mission, starting TU and the characters, page by page, before run 1 (or run n)."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.draft: s.SetupDraft | None = None
        self.page = 0
        self.title = "Setup"

    # -- drawing -------------------------------------------------------------------

    def refresh(self, snap: dict) -> None:
        if not s.nothing_happened(snap):  # time spent, run over or undone past the start
            self.screen.show_mission()
            return
        if self.draft is None:
            app = App.get_running_app()
            self.draft = s.new_draft(snap, fresh=not app.session.n_actions)
        self.page = max(0, min(self.page, self.draft.pages - 1))
        sheet = self.draft.sheet_at(self.page)
        if sheet is None:
            self._mission_page()
        else:
            self._sheet_page(sheet)
        self._footer(snap)
        self.screen.heading = self.title

    def redraw(self) -> None:
        self.refresh(self.screen.snapshot())

    def _mission_page(self) -> None:
        d = self.draft
        self.title = "Setup: mission and time"
        box = self.content()
        self.mission_in = _field(d.mission, "Mission name", self._type_mission)
        box.add_widget(_row(BodyLabel(text="Mission", size_hint_x=None, width=150),
                            self.mission_in))
        presets = [_toggle(m, m == d.mission.strip(), lambda m=m: self._pick_mission(m))
                   for m in s.MISSIONS]
        for t in presets:
            t.font_size = sp(theme.TEXT)
            t.size_hint_x = len(t.text) + 6
        box.add_widget(_row(*presets))
        tu = Label(text=str(d.starting_tu), font_size=sp(theme.START_TU_TEXT), bold=True,
                   color=theme.TALLY)
        self.tu_label = tu
        box.add_widget(_row(
            BodyLabel(text="Starting TU", size_hint_x=None, width=170),
            *[_step_button(f"{n:+d}", lambda n=n: self._step_tu(n), 88, 72) for n in (-5, -1)],
            tu,
            *[_step_button(f"{n:+d}", lambda n=n: self._step_tu(n), 88, 72) for n in (1, 5)],
            height=72))
        names = ", ".join(x.player for x in d.sheets)
        box.add_widget(grown_text(text=f"Next: a character for each player ({names})",
                                 font_size=sp(theme.SMALL), height=40))

    def _sheet_page(self, sheet: s.SheetDraft) -> None:
        d = self.draft
        first = 1 if d.fresh else 0
        self.title = (f"Setup: {sheet.player}'s character "
                      f"({self.page - first + 1} of {len(d.sheets)})")
        box = self.content()
        colours = {x.seat: x.colour for x in App.get_running_app().cfg.seats}
        badge = SeatBadge(seat=sheet.seat, colour=rgba(colours.get(sheet.seat, "grey")),
                          pos_hint={"center_y": 0.5})
        self.name_in = _field(sheet.name, f"{sheet.player}'s character",
                              lambda v: setattr(sheet, "name", v))
        presets = []
        for pre in s.presets_for(d.mission):
            b = _button(pre["short"], lambda pre=pre: self._preset(sheet, pre), 170)
            b.height = ROW
            presets.append(b)
        box.add_widget(_row(badge, self.name_in, *presets))
        life = Stepper(_name_label("Life"), sheet.life, lambda n: self._step(sheet, "life", n))
        res = Stepper(_name_label("Resistance"), sheet.resistance,
                      lambda n: self._step(sheet, "resistance", n))
        self.steppers = {"life": life, "resistance": res}
        box.add_widget(_row(life, res))
        cells = []
        self.trait_steppers = []
        for i, (trait, dice_n) in enumerate(sheet.traits):
            name = _field(trait, "Characteristic", lambda v, i=i: self._rename(sheet, i, v),
                          size_hint_x=None, width=NAME_W)
            self.trait_steppers.append(
                Stepper(name, dice_n, lambda n, i=i: self._step_trait(sheet, i, n)))
            cells.append(self.trait_steppers[-1])
        if len(sheet.traits) < s.MAX_TRAITS:
            add = _button("+ Characteristic", lambda: self._add_trait(sheet))
            add.height = ROW
            cells.append(add)
        for j in range(0, len(cells), 2):
            pair = cells[j:j + 2]
            if len(pair) == 1:
                pair.append(BoxLayout())
            box.add_widget(_row(*pair))

    def _footer(self, snap: dict) -> None:
        self.ids.footer.clear_widgets()
        last = self.page >= self.draft.pages - 1
        run = snap["run"]
        buttons = ([_button("Cancel", self.screen.show_mission, 200)] if snap["characters"]
                   else [_button("Play without characters", self.without, 330)])
        back = _button("< Back", lambda: self._go(-1), 140)
        back.disabled = self.page == 0
        buttons.append(back)
        buttons.append(_button(f"Start run {run}" if last else "Next >",
                               self.start if last else (lambda: self._go(1))))
        for b in buttons:
            self.ids.footer.add_widget(b)

    # -- changes ---------------------------------------------------------------------

    def _type_mission(self, text: str) -> None:
        s.choose_mission(self.draft, text)

    def _pick_mission(self, mission: str) -> None:
        s.choose_mission(self.draft, mission)
        self.redraw()

    def _step_tu(self, n: int) -> None:
        s.step_tu(self.draft, n)
        self.tu_label.text = str(self.draft.starting_tu)

    def _step(self, sheet, what: str, n: int) -> None:
        """Life or resistance -/+: only its number changes (the page stays as it is)."""
        s.step(sheet, what, n)
        self.steppers[what].value_label.text = str(getattr(sheet, what))

    def _step_trait(self, sheet, i: int, n: int) -> None:
        """A characteristic's dice -/+: only its number changes."""
        s.step_trait(sheet, i, n)
        self.trait_steppers[i].value_label.text = str(sheet.traits[i][1])

    def _rename(self, sheet, i: int, text: str) -> None:
        sheet.traits[i][0] = text

    def _add_trait(self, sheet) -> None:
        s.add_trait(sheet)
        self.redraw()

    def _preset(self, sheet, preset: dict) -> None:
        s.use_preset(sheet, preset)
        self.redraw()

    def _go(self, delta: int) -> None:
        self.page += delta
        self.redraw()

    # -- the end of setup ----------------------------------------------------------------

    def without(self) -> None:
        self.screen.play_without_characters()

    def start(self) -> None:
        app = App.get_running_app()
        sheets, why, page = s.check(self.draft)
        if sheets is None:
            app.say(why, error=True)
            self.page = page
            self.redraw()
            return
        action = {"type": "set_characters", "characters": sheets}
        refused = self.screen.refusal(action)
        if refused is not None:  # the engine's sentence, on the page of the sheet it names
            app.say(refused.sentence, error=True)
            self.page = s.page_of(self.draft, refused)
            self.redraw()
            return
        snap = self.screen.snapshot()
        d = self.draft
        if d.fresh and s.tu_changes(d, snap) and not self.screen.restart_with(
                d.mission.strip(), d.starting_tu):
            self.page = 0  # the mission page: its name or time was refused
            self.redraw()
            return
        if self.screen.act(action):
            snap = self.screen.snapshot()
            names = ", ".join(c["name"] for c in snap["characters"])
            app.say(f"Run {snap['run']} of {snap['mission']}: {snap['tu']} TU, {names}")
            self.screen.show_mission()
