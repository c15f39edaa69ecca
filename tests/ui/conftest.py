"""One real Kivy window for the whole test session (Kivy allows one per process).

``ui`` drives it like a person would: taps at widget centres with simulated touches,
seat buttons through the keyboard simulation, screenshots that tests look into.
Frames are pumped explicitly: no sleeps, no real-time waiting.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest


class TapClock:
    """The one-tap guard's clock in tests: a person's pace, set by the driver."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class UiDriver:
    def __init__(self, app, shots_dir):
        self.app, self.shots_dir = app, shots_dir
        from companion.ui.taps import GUARD

        self.clock = TapClock()
        GUARD.clock = self.clock
        self._slap_edges_until = 0  # the table-clock stamp of slap_round's last edge

    def pump(self, frames: int = 3) -> None:
        from kivy.base import EventLoop

        for _ in range(frames):
            EventLoop.idle()

    def tap(self, widget, after_s: float = 1.0) -> None:
        """A tap at the widget's centre, ``after_s`` seconds after the last one (a
        person's pace by default; a double tap is two taps 0.1 s apart)."""
        from kivy.tests.common import UnitTestTouch

        self.clock.now += after_s
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.pump(1)
        touch.touch_up()
        self.pump(2)

    def tap_at(self, x: float, y: float, after_s: float = 1.0) -> None:
        """A tap at a window position (whatever lies there now gets it)."""
        from kivy.tests.common import UnitTestTouch

        self.clock.now += after_s
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.pump(1)
        touch.touch_up()
        self.pump(2)

    def double_tap(self, widget, gap_s: float = 0.1) -> None:
        """One finger tapping twice on the same spot, ``gap_s`` apart."""
        x, y = widget.to_window(*widget.center)
        self.tap_at(x, y)
        self.tap_at(x, y, after_s=gap_s)

    def buttons(self):
        """Every visible button-like widget of the current screen: {text: window pos}."""
        from kivy.uix.behaviors import ButtonBehavior

        out = {}
        for w in self.app.sm.current_screen.walk():
            if isinstance(w, ButtonBehavior) and w.get_root_window() is not None \
                    and w.opacity > 0 and w.width > 0:
                out.setdefault(str(getattr(w, "text", "")) or type(w).__name__,
                               tuple(round(v) for v in w.to_window(*w.pos)))
        return out

    def find(self, text: str, kind=None):
        """The first visible widget whose text contains ``text``."""
        for w in self.app.root.walk():
            if text in str(getattr(w, "text", "")) and (kind is None or isinstance(w, kind)) \
                    and w.get_root_window() is not None and w.opacity > 0:
                return w
        raise LookupError(f"no widget showing {text!r} on screen {self.app.sm.current!r}")

    def press_seat(self, key: str) -> None:
        self.app.table.key_down(key)
        self.pump(1)
        self.app.table.key_up(key)
        self.pump(2)

    def screenshot(self, name: str):
        """Save the window as PNG; returns (path, number of distinct colours seen)."""
        from kivy.core.window import Window

        self.pump(2)
        path = self.shots_dir / f"{name}.png"
        width, height = Window.size
        from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

        data = glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE)
        from kivy.core.image import Image as CoreImage
        from kivy.graphics.texture import Texture

        texture = Texture.create(size=(width, height), colorfmt="rgba")
        texture.blit_buffer(data, colorfmt="rgba", bufferfmt="ubyte")
        texture.flip_vertical()
        CoreImage(texture).save(str(path), flipped=True)
        colours = {data[i : i + 3] for i in range(0, len(data), 4 * 97)}
        return path, len(colours)

    def resize(self, size) -> None:
        """The window at ``size``, laid out. The X server answers a resize later, and
        may answer an earlier one late: frames are pumped until the size holds."""
        from kivy.core.window import Window

        size = tuple(size)
        steady = 0
        for _ in range(60):  # the size must hold for 5 frames in a row
            if tuple(Window.size) != size:
                Window.size = size
                steady = 0
            self.pump(1)
            steady = steady + 1 if tuple(Window.size) == size else 0
            if steady >= 5:
                break
        else:
            raise AssertionError(f"the window stays {tuple(Window.size)}, not {size}")
        sm = self.app.sm  # screens not on show keep their size until shown: all follow
        for screen in sm.screens:
            screen.pos, screen.size = sm.pos, sm.size
        self.pump(2)

    @contextmanager
    def sized(self, size):
        """The window at ``size`` for a test's body, then home and back to the size
        it had: ``with ui.sized((1024, 600)): ...`` (the layout walks' fixtures)."""
        from kivy.core.window import Window

        before = tuple(Window.size)
        self.resize(size)
        try:
            yield tuple(size)
        finally:
            self.goto_home()
            self.resize(before)

    def goto_home(self) -> None:
        """Back to a clean start: no game, no button held, lamps off, home screen."""
        self.app.session = None
        self.app._close_question()
        self.app.clear_banner()
        self.app.table.release_all()
        self.app.table.drain()
        self.app.table.lamps.all_off()
        self.app.home()
        self.pump()

    def slap_round(self, screen, order, gap_ms: float = 70) -> None:
        """On the slap pad ``screen``: arm it, the seats of ``order`` slap ``gap_ms``
        apart (each held 80 ms) and the round closes: its verdict shows, not yet recorded.

        Stamped on the table's clock, as a table plays: the round is armed after every
        edge of the rounds before it (a round played 5 s ago, unless the previous one
        ended later) and its closing frame comes no earlier than now. (Armed at
        ``now_ns()`` with its slaps stamped after it, a round put its slaps in the
        clock's future, and the next round, armed at the next ``now_ns()``, counted them
        as its own.)"""
        from companion.events import PressEvent

        ms = 1_000_000
        t0 = max(self.app.table.now_ns() - 5_000 * ms, self._slap_edges_until + 1)
        screen.arm(t0)
        for i, seat in enumerate(order):
            t = t0 + round((100 + gap_ms * i) * ms)
            screen.on_press_event(PressEvent(seat, t, "mock", True))
            screen.on_press_event(PressEvent(seat, t + 80 * ms, "mock", False))
            self._slap_edges_until = t + 80 * ms
        screen.on_frame(max(t0 + 5_000 * ms, self.app.table.now_ns()))
        self.pump(1)
        assert screen.round.phase == "verdict"
        assert [e.seat for e in screen.round.verdict.ranking] == list(order)

    def open_slap_tool(self, seats):
        """The slap pad as a standalone tool with exactly ``seats`` in play."""
        self.goto_home()
        self.app.navigate("slap")
        self.pump()
        screen = self.app.sm.current_screen
        assert screen.name == "slap" and screen.mode == "tool"
        for seat in [s.seat for s in self.app.cfg.seats]:
            chip = next(c for c in screen.ids.actions.walk(restrict=True)
                        if getattr(c, "seat", None) == seat)
            if (seat in seats) != chip.lit:
                self.tap(chip)
        assert screen.round.seats == tuple(seats)
        return screen


@pytest.fixture(scope="session")
def ui(tmp_path_factory, artifacts):
    from companion.ui.kivy_env import prepare

    home = tmp_path_factory.mktemp("kivy")
    prepare(home)
    from companion.config import load_config
    from companion.sound import SoundCues
    from companion.store.gamelog import GameLog
    from companion.table import Table
    from companion.ui import collector
    from companion.ui.app import CompanionApp

    # No gc.freeze in the test process: frozen objects are hidden from gc.get_referrers,
    # which Hypothesis uses when modules imported later register their random
    # generators (tests/ui/test_collector.py checks the collector's calls apart).
    collector.ENABLED = False

    class SilentSound:
        def play(self):
            pass

        def stop(self):
            pass

    class SilentLoader:
        """Loads every cue as a sound that makes no noise, so ``cues.played`` records
        every cue a test triggers."""

        @staticmethod
        def load(_path):
            return SilentSound()

    cfg = load_config()
    data = tmp_path_factory.mktemp("data")
    app = CompanionApp(cfg, GameLog(data / "games.sqlite3"), Table.from_config(cfg, "keyboard"),
                       SoundCues(data / "sounds", loader=SilentLoader()))
    app.frame_pacing = False  # frames are pumped by hand here (the pacer has its own tests)
    app._run_prepare()
    driver = UiDriver(app, artifacts)
    driver.pump(5)
    yield driver
    app.stop()
    app.table.close()
    app.log.close()


@pytest.fixture(autouse=True)
def _window_at_the_box_size(request):
    """Every window test starts on the box's 800×480, whatever a test before it (a
    layout walk at another size, interrupted or answered late by the X server) left."""
    if "ui" in request.fixturenames:
        from kivy.core.window import Window

        ui = request.getfixturevalue("ui")
        if tuple(Window.size) != (800, 480) or tuple(ui.app.root.size) != (800, 480):
            ui.resize((800, 480))
        _fresh_slap_arbiter(ui.app)
    yield


def _fresh_slap_arbiter(app) -> None:
    """Every window test starts with no slap round behind it. The tests stamp their
    slaps from the table's clock ("now less 20 s"), and the slap pad keeps its arbiter
    while the seats stay the same: a round recorded by the test before takes late slaps
    for 30 s, and a test's slaps that fell into it were judged as that round's (which
    test failed depended on the order they ran in). The slap pad makes a new arbiter
    the next time it opens."""
    slap = next((s for s in app.sm.screens if s.name == "slap"), None)  # built only
    if slap is not None and app.sm.current_screen is not slap:
        slap.round = None


