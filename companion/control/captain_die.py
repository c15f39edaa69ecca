"""What a tap on the standalone Time Captain die means, without Kivy.

A tool for any table, no game needed: a roll (the captain button, a tap on the die or
"Roll") draws the face at once (``companion.dice.roll`` with ``rng``; None = the OS
source); the die tumbles through ``frame(now_ns)`` (the screen's ``on_frame``) and then
shows the face and its TU cost (1 -> 1, 2-5 -> 2, 6 -> 3, +2 when leaving a
red-lettered location). A table that rolled its own die enters the face. The last
rolls are kept in the setting ``captain_die.history`` (they survive a restart).

Wiring: ``CaptainDieControl(app, rng=None)``; ``app`` is a port with ``log`` (settings),
``table.now_ns()``, ``play(cue)`` and ``speak(line)``. The screen
(``companion/ui/screens/captain_die.py``) shows ``view()``.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion import dice
from companion.ui.presenters import time_stories as p
from companion.ui.presenters.spoken import die_line

SETTING = "captain_die.history"


@dataclass(frozen=True)
class DieView:
    face: str = "?"
    cost: str = "Tap the die or press the captain button"
    tu: str = ""  # "2 TU": the big number the table reads
    history: tuple = ()  # the last rolls' words, newest first
    red: bool = False
    rolling: bool = False
    buttons: tuple = ()  # the row of buttons: {"text", "key", "down", "disabled"}


class CaptainDieControl:
    def __init__(self, app, rng=None) -> None:
        self.app, self.rng = app, rng
        self.red = False
        self.anim: p.DieAnimation | None = None
        self.anim_red = False
        self.face, self.cost, self.tu = "?", DieView.cost, ""
        self.asking = False

    def enter(self) -> DieView:
        """The screen comes up: no question left open from an earlier visit."""
        self.asking = False
        return self.view()

    def history(self) -> list:
        return list(self.app.log.get_setting(SETTING, []) or [])

    def view(self) -> DieView:
        if self.asking:
            buttons = [(str(f), ("face", f)) for f in range(1, 7)] + [("Cancel", ("face", 0))]
        else:
            buttons = [("Roll", ("roll",)), ("Enter a face", ("face",)),
                       ("Clear list", ("clear",))]
        cost = "Which face does your die show?" if self.asking else self.cost
        return DieView(face=self.face, cost=cost, tu="" if self.asking else self.tu,
                       history=tuple(p.history_lines(self.history()[:5])), red=self.red,
                       rolling=self.anim is not None, buttons=tuple(
                           {"text": text, "key": key, "down": False,
                            "disabled": key == ("roll",) and self.anim is not None}
                           for text, key in buttons))

    def tap(self, key) -> DieView:
        """A tap on a button keyed ``key`` ("roll", "red", "face" [n], "clear")."""
        name, *args = key
        return {"roll": self.roll, "red": self.toggle_red, "face": self.enter_face,
                "clear": self.clear}[name](*args)

    def toggle_red(self) -> DieView:
        self.red = not self.red
        return self.view()

    def roll(self, now_ns: int | None = None) -> DieView:
        if self.anim is None:
            face = dice.roll(1, self.rng)[0]
            start = self.app.table.now_ns() if now_ns is None else now_ns
            self.anim, self.anim_red = p.DieAnimation(face=face, start_ns=start), self.red
            self.cost, self.tu = "Rolling...", ""
            self.app.play("dice")
        return self.view()

    def frames_wanted(self) -> bool:
        return self.anim is not None

    def frame(self, now_ns: int) -> DieView | None:
        """A frame while the die tumbles (None when nothing moves)."""
        if self.anim is None:
            return None
        face, settled = self.anim.shown(now_ns)
        self.face = str(face)
        if settled:
            red, self.anim = self.anim_red, None
            self.settle(face, red)
            self.app.speak(die_line(face, red))
        return self.view()

    def settle(self, face: int, red: bool) -> None:
        self.face, self.cost = str(face), p.captain_text(face, red)
        self.tu = f"{p.captain_total(face, red)} TU"
        self.app.log.set_setting(SETTING, p.push_history(self.history(), face, red))

    def enter_face(self, face: int | None = None) -> DieView:
        """``enter_face()`` asks which face the table's die shows; ``enter_face(n)``
        shows its cost (0: Cancel)."""
        if self.anim is not None:
            return self.view()
        self.asking = face is None
        if face:  # 0: Cancel
            self.settle(int(face), self.red)
        return self.view()

    def clear(self) -> DieView:
        self.app.log.set_setting(SETTING, [])
        return self.view()
