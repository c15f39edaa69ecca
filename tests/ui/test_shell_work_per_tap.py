"""The app's shared work per tap, in the real window: the Undo label is worded once per
state of the game (and still follows a state the screen made itself), the status bar's
lamp dots follow the lamps, a banner with nothing in it is not cleared again."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window

TWO = [{"name": "Ann", "seat": 1}, {"name": "Bob", "seat": 2}]


def test_the_undo_label_is_worded_once_per_state(ui, monkeypatch):
    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": TWO})
    ui.pump(2)
    worded = []
    label = ui.app.controller.undo_label
    monkeypatch.setattr(ui.app.controller, "undo_label",
                        lambda: worded.append(1) or label())
    assert ui.app.act({"type": "score", "seat": 2, "points": 3})
    ui.pump(3)  # the refresh worded it; the frames after see the same state
    assert len(worded) == 1 and ui.app.undo_text == "Undo: score (Bob)"
    # a state the screen made without the controller: the next frame words it
    ui.app.session.do({"type": "score", "seat": 1, "points": 1})
    ui.pump(1)
    assert len(worded) == 2 and ui.app.undo_text == "Undo: score (Ann)"
    assert ui.app.undo()
    ui.pump(2)
    assert len(worded) == 3 and ui.app.undo_text == "Undo: score (Bob)"
    ui.app.end_game("abandoned", ask=False)
    ui.pump(1)
    assert ui.app.undo_text == "Undo"


def test_only_the_shown_screen_s_undo_follows_each_action(ui):
    """Every game screen has an Undo button; an action words only the shown one's, and
    a screen that shows later says the words of the moment."""
    from companion.ui.widgets import UndoButton

    ui.app.sm.build_all()
    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": TWO})
    ui.pump(2)
    buttons = [w for s in ui.app.sm.screens for w in s.walk(restrict=True)
               if isinstance(w, UndoButton)]
    shown = [b for b in buttons if b.get_root_window() is not None]
    assert len(buttons) >= 5 and len(shown) == 1
    worded = []
    for b in buttons:
        b.fbind("words", lambda w, _v: worded.append(w))
    assert ui.app.act({"type": "score", "seat": 2, "points": 3})
    ui.pump(2)
    assert worded == shown and shown[0].text == "Undo: score (Bob)"
    ui.app.navigate("timer")  # a screen without one: the score pad's is hidden
    ui.pump(2)
    assert ui.app.act({"type": "score", "seat": 1, "points": 1})
    ui.pump(2)
    assert ui.app.undo_text == "Undo: score (Ann)" and shown[0].words == "Undo: score (Bob)"
    ui.app.back()  # shown again: the words of the moment
    ui.pump(2)
    assert shown[0].text == "Undo: score (Ann)"
    ui.app.end_game("abandoned", ask=False)


def test_the_lamp_dots_follow_the_lamps(ui):
    from companion.palette import seat_rgba
    from companion.ui import theme

    ui.goto_home()
    lamps = ui.app.table.lamps
    lamps.on(3)
    ui.pump(1)
    dots = ui.app.root.lamp_colours
    seats = [s.seat for s in ui.app.cfg.seats]
    assert tuple(dots[seats.index(3)]) == tuple(seat_rgba(ui.app.cfg, 3))
    assert tuple(dots[seats.index(2)]) == tuple(theme.LAMP_OFF)
    lamps.off(3)
    lamps.on(2)
    ui.pump(1)
    dots = ui.app.root.lamp_colours
    assert tuple(dots[seats.index(3)]) == tuple(theme.LAMP_OFF)
    assert tuple(dots[seats.index(2)]) == tuple(seat_rgba(ui.app.cfg, 2))
    lamps.all_off()
    ui.pump(1)
    assert all(tuple(d) == tuple(theme.LAMP_OFF) for d in ui.app.root.lamp_colours)


def test_clearing_an_empty_banner_sets_nothing(ui, monkeypatch):
    ui.goto_home()
    ui.app.say("Nobody plays at seat 7 in this game.", error=True)
    assert ui.app.banner_text
    ui.app.clear_banner()
    assert not ui.app.banner_text and ui.app.status == ""
    shown = []
    monkeypatch.setattr(ui.app.banner, "show", lambda *args: shown.append(args))
    ui.app.status = "a line of its own"  # not the banner's: it stays
    ui.app.clear_banner()  # what every recorded action does first
    assert shown == [] and ui.app.status == "a line of its own"
    ui.app.status = ""
