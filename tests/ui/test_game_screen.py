"""The score pad in the window: five players whole at 800x480 (six scroll), a real tap on
a row's button scores, + N asks on the number pad for the right player, and a second
game shows its own players."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window

NAMES = ["Ann", "Bob", "Cara", "Dan", "Eve", "Finn"]


def _players(n, names=NAMES):
    return [{"name": name, "seat": i + 1} for i, name in enumerate(names[:n])]


def _rows(screen):
    from companion.ui.screens.game import ScoreRowView

    return sorted((w for w in screen.ids.box.children if isinstance(w, ScoreRowView)),
                  key=lambda w: -w.y)


def _button(row, text):
    return next(b for b in row.walk() if getattr(b, "text", None) == text and b is not row)


@pytest.mark.parametrize("n, scrolls", [(5, False), (6, True)])
def test_five_rows_whole_at_800x480_and_a_tap_scores(ui, n, scrolls):
    from kivy.tests.common import UnitTestTouch

    ui.goto_home()
    ui.resize((800, 480))
    assert ui.app.start_game("scorepad", {"players": _players(n)})
    ui.pump(3)
    screen = ui.app.sm.get_screen("game")
    view = screen.ids.rows
    assert view.do_scroll_y is scrolls and not view.do_scroll_x
    rows = _rows(screen)
    if not scrolls:
        assert len(rows) == 5
        vx, vy = view.to_window(view.x, view.y)
        for row in rows:  # every row whole in the view, its buttons a finger's size
            x, y = row.to_window(row.x, row.y)
            assert y >= vy - 1 and y + row.height <= vy + view.height + 1
            assert row.height >= 64
    ui.screenshot(f"score_pad_{n}")
    button = _button(rows[0], "+5")
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    ui.pump(1)
    touch.touch_up()
    ui.pump(2)
    assert ui.app.session.snapshot()["totals"]["1"] == 5
    assert _rows(screen)[0].total == "5"
    ui.app.end_game("abandoned", ask=False)


def test_plus_n_asks_for_the_player_of_its_row_and_the_next_game_shows_its_own(ui):
    from companion.ui.widgets import NumberPad

    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": _players(3)})
    ui.pump(2)
    ui.app.end_game("abandoned", ask=False)
    assert ui.app.start_game("scorepad", {"players": _players(3, ["Eve", "Fay", "Gus"])})
    ui.pump(2)
    screen = ui.app.sm.current_screen
    assert [(r.name, r.total) for r in _rows(screen)] == [("Eve", "0"), ("Fay", "0"),
                                                          ("Gus", "0")]
    ui.tap(_button(_rows(screen)[1], "+ N"))
    pad = next(w for w in ui.app.layer.children if isinstance(w, NumberPad))
    assert pad.title == "Points for Fay"
    pad.press("1")
    pad.press("2")
    pad.ok()
    ui.pump(2)
    assert ui.app.session.snapshot()["totals"]["2"] == 12
    assert screen.can_undo
    assert ui.find("Undo: score (Fay)")
    ui.tap(ui.find("Undo: score (Fay)"))
    assert ui.app.session.snapshot()["totals"]["2"] == 0
    ui.app.end_game("abandoned", ask=False)
