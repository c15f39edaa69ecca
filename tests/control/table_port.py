"""The app as a screen's controller sees it (its port), without a window.

A real ``SessionController`` on a real game log does every step; what the table would
see and hear is kept: the status lines (``said``, with whether each was a refusal), the
sound cues (``cues``) and the seat lamps lit (``lamps.lit``). ``on_refresh``, when set,
is called where the app refreshes the screen after a step (the screen asks its
controller for the view there).
"""

from __future__ import annotations

from types import SimpleNamespace

from companion.ui.session_controller import SessionController


class Lamps:
    def __init__(self) -> None:
        self.lit: set[int] = set()

    def on(self, seat: int) -> None:
        self.lit.add(seat)

    def off(self, seat: int) -> None:
        self.lit.discard(seat)

    def all_off(self) -> None:
        self.lit.clear()

    def state(self, seat: int) -> bool:
        return seat in self.lit


class TablePort:
    def __init__(self, game_log, cfg) -> None:
        self.cfg = cfg
        self.table = SimpleNamespace(lamps=Lamps())
        self.controller = SessionController(game_log, self)
        self.said: list[tuple[str, bool]] = []
        self.cues: list[str] = []
        self.on_refresh = None

    @property
    def session(self):
        return self.controller.session

    def start(self, kind: str, setup: dict) -> None:
        assert self.controller.start(kind, setup)

    def act(self, action: dict, cue: str | None = "tap") -> bool:
        return self.controller.act(action, cue)

    def undo(self) -> bool:
        return self.controller.undo()

    @property
    def actions(self) -> list[dict]:
        return self.session.actions

    def last_said(self) -> tuple[str, bool] | None:
        return self.said[-1] if self.said else None

    # -- the front the session controller shows through
    def play(self, cue: str) -> None:
        self.cues.append(cue)

    def speak(self, _line) -> None:
        pass

    def say(self, text: str, error: bool = False) -> None:
        self.said.append((text, error))

    def refuse(self, sentence: str, _exc=None) -> None:
        self.say(sentence, error=True)

    def clear_banner(self) -> None:
        pass

    def refresh(self) -> None:
        if self.on_refresh is not None:
            self.on_refresh()
