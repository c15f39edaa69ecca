"""The Crazy Time screen ("crazy_time"): shows ``CrazyTimeControl``'s view.

What a person sees: the board (who starts at 1 o'clock, what to do now, the laws in
force, this round's pick-ups; the buttons "Stop Time!", "Temporal flaw", "Mistakes",
"Tick, Tock", "Round won", "Guess a law", "Laws", Undo; who dealt and who won), or, in
its place, the question the table answers, the "Tick, Tock" metronome, the laws one
player may read, the new law typed on the screen's own keyboard between rounds, and the
Grand Master of Time with a chart of the game. The message to call the absent player
back lies above the news, never over a button; a tap closes it.

What a tap means is ``companion.control.crazy_time`` (no Kivy): every handler here
passes the tap on and shows the view it returns (``show``). The layout is
``crazy_time.kv``; a seat button on the board opens the slap pad (``slap.py``) with that
press as its first slap.
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.screenmanager import NoTransition, Screen

from companion.control.crazy_time import CrazyTimeControl, CrazyView
from companion.events import CAPTAIN_SEAT
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.screens import crazy_time_panels  # noqa: F401  (kv rules use it)
from companion.ui.screens.slap import SlapScreen

load_kv(__file__)

GREY = theme.FADED_TEXT


class CrazyTimeScreen(Screen):
    heading = StringProperty("Crazy Time")
    page = StringProperty("none")
    call_back = StringProperty("")
    lead_seat = NumericProperty(0)
    lead_colour = ColorProperty(GREY)
    lead_text = StringProperty("")
    notice = StringProperty("")
    notice_more = StringProperty("")
    laws = StringProperty("")
    facts = StringProperty("")
    undo = StringProperty("Undo")
    can_undo = BooleanProperty(False)
    can_guess = BooleanProperty(False)
    q_title = StringProperty("")
    q_hint = StringProperty("")
    q_cols = NumericProperty(3)
    q_rows = NumericProperty(1)
    ends = ListProperty(["", "", ""])
    who = StringProperty("")
    word = StringProperty("")
    beat = NumericProperty(-1)
    laws_text = StringProperty("")
    law_title = StringProperty("")
    law_texts = ListProperty(["", "", ""])
    law_hints = ListProperty(["", "", ""])
    law_note = StringProperty("")
    typing_label = StringProperty("")
    typing_most = NumericProperty(30)
    end_head = StringProperty("")
    end_seat = NumericProperty(0)
    end_colour = ColorProperty(GREY)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.app = App.get_running_app()
        self.control = CrazyTimeControl(self.app)
        self.view: CrazyView | None = None
        self._filling = False
        self.ids.stage.transition = NoTransition()
        self.ids.keyboard.on_tab = self.next_field
        self.ids.keyboard.on_enter = self.stop_typing

    # -- showing the view ---------------------------------------------------------------

    def show(self, v: CrazyView) -> None:
        self.view, self.heading, self.page = v, v.heading, v.page
        b = v.board
        if b is not None:
            self.call_back, self.lead_colour = v.call_back, v.lead_colour
            self.lead_seat, self.lead_text = (b.lead.seat if b.lead else 0), v.lead
            self.notice, self.notice_more = v.notice, b.notice_more
            self.laws, self.facts = v.laws, v.facts
            self.undo, self.can_undo, self.can_guess = v.undo, v.can_undo, b.can_guess
            self.show_rows()
        q = v.question
        if q is not None:
            self.q_title, self.q_hint = q.title, q.hint
            self.q_cols, self.q_rows = q.cols, max(1, -(-len(q.options) // q.cols))
            self.ends = [*q.ends, "", "", ""][:3]
            self.ids.answers.data = [
                {"viewclass": "SeatAnswer" if o.seat else "WordAnswer", "index": i,
                 "text": o.text, "seat": o.seat, "colour": o.colour, "selected": o.selected}
                for i, o in enumerate(q.options)]
        self.who, self.word, self.beat, self.laws_text = v.who, v.word, v.beat, v.cards
        if v.law is not None:
            self._show_law(v.law)
        if v.end is not None:
            e = v.end
            self.end_head, self.end_seat, self.end_colour = e.head, e.seat, e.colour
            self.ids.end_rows.data = [
                {"seat": r.seat, "colour": r.colour, "name": r.name, "wins": r.wins,
                 "pickups": r.pickups} for r in e.rows]
            chart = self.ids.chart
            chart.rounds, chart.colours, chart.bars = e.rounds, e.bar_colours, e.bars
        typing = v.law is not None and bool(v.law.typing)
        self.ids.stage.current = {"mistakes": "question"}.get(v.page, v.page) \
            if not typing else "typing"

    def show_rows(self) -> None:
        """The pick-ups as the list's rows, the newest first and larger; a row is two
        lines tall when its words need them at the list's width (set again with it)."""
        room = self.ids.pickups.width - dp(60)  # a line's letters at about 0.55 em
        rows = self.view.pickups if self.view is not None else ()
        self.ids.pickups.data = [
            {"seat": r.seat, "colour": r.colour, "text": r.text,
             "size_px": 28 if i == 0 else 24,
             "row_size": (None, dp((72 if i == 0 else 64) if len(r.text) * sp(
                 16 if i == 0 else 14) > room else (50 if i == 0 else 42)))}
            for i, r in enumerate(rows)] or [
            {"seat": 0, "colour": GREY, "text": "No pick-ups yet this round",
             "size_px": 24, "row_size": (None, dp(42))}]

    def _show_law(self, law) -> None:
        self.law_title, self.law_note = law.title, law.note
        self.law_texts = [f.text for f in law.fields]
        self.law_hints = [f.hint for f in law.fields]
        keyboard, typed = self.ids.keyboard, self.ids.typed
        field = next((f for f in law.fields if f.key == law.typing), None)
        if field is None:
            if keyboard.target is not None:
                keyboard.detach()
                keyboard.type_into(None)
            return
        if keyboard.target is None or self.typing_label != field.label:
            self.typing_label, self.typing_most, typed.most = field.label, field.most, \
                field.most
            self._filling = True  # the field's words, not typed now
            typed.text = field.text
            typed.cursor, self._filling = (len(field.text), 0), False
            keyboard.words = field.key == "name"
            if keyboard.target is None:
                keyboard.attach()
            keyboard.type_into(typed)

    @property
    def typing(self) -> bool:
        """A law is typed on the screen's keyboard: keys are letters, not seats."""
        return self.ids.keyboard.target is not None

    def refresh(self) -> None:
        self.show(self.control.view())

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def on_leave(self, *_args) -> None:
        if self.typing:
            self.show(self.control.stop_typing())

    # -- taps: each passed on, its view shown ----------------------------------------------

    def tap(self, button: str) -> None:
        self.show(self.control.tap(button))

    def pick(self, index: int) -> None:
        self.show(self.control.pick(index))

    def end_button(self, index: int) -> None:
        self.show(self.control.end_button(index))

    def back(self) -> None:
        self.show(self.control.back())

    def close_call_back(self) -> None:
        self.show(self.control.close_call_back())

    def type_field(self, key: str) -> None:
        self.show(self.control.type_field(key))

    def typed(self, text: str) -> None:
        if self.typing and not self._filling:
            self.show(self.control.typed(text))

    def next_field(self) -> None:
        self.show(self.control.next_field())

    def stop_typing(self) -> None:
        self.show(self.control.stop_typing())

    def law_back(self) -> None:
        self.show(self.control.law_back())

    def record(self) -> None:
        self.show(self.control.record())

    def finish(self) -> None:
        self.control.finish()

    # -- the table's buttons and the frame -------------------------------------------------

    def on_press_event(self, event) -> None:
        if self.app.sm.current == "slap":  # an earlier press of this frame opened it
            self.app.sm.get_screen("slap").on_press_event(event)
            return
        if not event.pressed:
            return
        took = self.control.press(event.seat)
        if took == "slap" and self.app.has_screen("slap"):  # the captain's arms a round
            if event.seat == CAPTAIN_SEAT:
                SlapScreen.open_armed(self.app, by="captain")
            else:
                SlapScreen.open_armed(self.app, event)
        elif took:
            self.refresh()

    def open_slap_pad(self) -> None:
        if self.app.has_screen("slap"):
            SlapScreen.open_armed(self.app)

    def frames_wanted(self) -> bool:
        """Every frame while the "Tick, Tock" metronome runs (the app idles otherwise)."""
        return self.control.counting

    def on_frame(self, now_ns: int) -> None:
        v = self.control.frame(now_ns)
        if v is not None:
            self.show(v)
