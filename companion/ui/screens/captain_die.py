"""The standalone Time Captain die: a tool for any table, no game needed.

The captain button (seat 0; the space bar in simulation) or a tap on the big die rolls
it: the face is drawn at once (``companion.dice.roll`` with ``self.rng``; None = the OS
random source), the die tumbles for a few frames driven by ``on_frame(now_ns)`` with the
"dice" cue, then settles and shows the face and its TU cost (1 -> 1, 2-5 -> 2, 6 -> 3,
+2 with the "Red-lettered" toggle). The last rolls are listed and kept in
``app.log`` settings under ``captain_die.history`` so they survive a restart.

Registered as "captain_die" in ``companion.ui.app.SCREENS``; the home screen's tools
list opens it.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion import dice
from companion.ui.app import Question, load_kv
from companion.ui.presenters import time_stories as p
from companion.ui.presenters.spoken import die_line
from companion.ui.widgets import TapToggle, TouchBox  # noqa: F401  (the kv rule uses them)

load_kv(__file__)

SETTING = "captain_die.history"


class FacePicker(Question):
    """"Which face does your die show?": six faces and Cancel over the screen, for a
    table that rolled its own die (an ``app.ask`` question, made once per screen and
    laid again at each asking instead of built anew).

        picker = FacePicker("Which face ...?")
        picker.ask(lambda face: ...)   # called with 1..6 when a face is tapped
    """

    def __init__(self, text: str, **kwargs) -> None:
        faces = [(str(f), (lambda f=f: self._chosen(f)), None) for f in range(1, 7)]
        super().__init__(text, faces + [("Cancel", None, None)], **kwargs)
        # a face is one digit: Cancel takes the room of two, so its word is never cut
        # over two lines (it shared a seventh of the row and wrapped as "Cance" / "l")
        self.ids.answers.children[0].size_hint_x = 2
        self.then = None

    def ask(self, then) -> None:
        """Show it (an earlier question goes, as with ``app.ask``); ``then(face)``."""
        app = App.get_running_app()
        if app.question is not None and app.question is not self:
            app.question.close()
        self.then, app.question = then, self
        if self.parent is None:
            self.show()

    def _chosen(self, face: int) -> None:
        then, self.then = self.then, None
        if then is not None:
            then(face)


class CaptainDieScreen(Screen):
    face_text = StringProperty("?")
    cost_text = StringProperty("Tap the die or press the captain button")
    tu_text = StringProperty("")  # "2 TU": the big number the table reads
    history_text = StringProperty("")
    red = BooleanProperty(False)
    rolling = BooleanProperty(False)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.rng = None  # a random.Random in tests; None = the OS random source
        self.anim: p.DieAnimation | None = None
        self._anim_red = False
        self._history: list | None = None  # the setting, read once per opening
        self.picker: FacePicker | None = None  # made on the first "Enter a face"

    def history(self) -> list:
        """The last rolls, newest first (the ``SETTING``, read once per opening: only
        this screen writes it, through ``_keep``)."""
        if self._history is None:
            self._history = list(App.get_running_app().log.get_setting(SETTING, []) or [])
        return list(self._history)

    def _keep(self, history: list) -> None:
        """The rolls into the settings (they survive a restart) and on screen."""
        App.get_running_app().log.set_setting(SETTING, history)
        self._history = list(history)
        self.refresh()

    def on_pre_enter(self, *_args) -> None:
        self._history = None
        self.refresh()

    def refresh(self) -> None:
        self.history_text = "\n".join(p.history_lines(self.history()[:5]))

    def roll(self, now_ns: int | None = None) -> None:
        if self.anim is not None:
            return
        app = App.get_running_app()
        face = dice.roll(1, self.rng)[0]
        start = app.table.now_ns() if now_ns is None else now_ns
        self.anim = p.DieAnimation(face=face, start_ns=start)
        self._anim_red, self.rolling = self.red, True
        self.cost_text, self.tu_text = "Rolling...", ""
        app.play("dice")

    def frames_wanted(self) -> bool:
        """Every frame while the die rolls (the app idles otherwise)."""
        return self.anim is not None

    def on_frame(self, now_ns: int) -> None:
        if self.anim is None:
            return
        face, settled = self.anim.shown(now_ns)
        self.face_text = str(face)
        if not settled:
            return
        red = self._anim_red
        self.anim, self.rolling = None, False
        self.cost_text = p.captain_text(face, red)
        self.tu_text = f"{p.captain_total(face, red)} TU"
        self._keep(p.push_history(self.history(), face, red))
        App.get_running_app().speak(die_line(face, red))

    def enter_face(self) -> None:
        """The table rolled its own die: ask which face, and show its cost."""
        if self.anim is not None:
            return
        red = self.red

        def show(face):
            self.face_text = str(face)
            self.cost_text = p.captain_text(face, red)
            self._keep(p.push_history(self.history(), face, red))

        if self.picker is None:
            self.picker = FacePicker("Which face does your die show?")
        self.picker.ask(show)

    def on_press_event(self, event) -> None:
        if event.pressed and event.seat == 0:
            self.roll()

    def on_touch_down(self, touch):
        die = self.ids.die
        if die.collide_point(*touch.pos):
            self.roll()
            return True
        return super().on_touch_down(touch)

    def clear(self) -> None:
        self._keep([])
