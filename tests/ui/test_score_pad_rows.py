"""The score pad's rows: a tap goes straight to its button when the rows fit the view
(no scroll gesture around it, the view takes no part of the touch), and the rows
scroll when they do not (six players)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window

NAMES = ["Ann", "Bob", "Cara", "Dan", "Eve", "Finn"]


def _players(n):
    return [{"name": name, "seat": i + 1} for i, name in enumerate(NAMES[:n])]


def _button(screen, seat, text):
    from companion.ui.widgets import CounterButton

    row = next(r for r in screen.ids.rows.children if r.children[-1].seat == seat)
    return next(b for b in row.children if isinstance(b, CounterButton) and b.text == text)


@pytest.mark.parametrize("n, scrolls", [(4, False), (6, True)])
def test_rows_scroll_only_when_taller_than_the_view(ui, n, scrolls):
    from kivy.tests.common import UnitTestTouch

    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": _players(n)})
    ui.pump(3)
    screen = ui.app.sm.get_screen("game")
    view = screen.ids.rows.parent
    assert view.do_scroll_y is scrolls
    assert not view.do_scroll_x
    if not scrolls:
        assert screen.ids.rows.height <= view.height
    # a real tap on seat 1's +5 counts, either way
    button = _button(screen, 1, "+5")
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    grabbed = [ref() for ref in touch.grab_list]
    # while nothing scrolls, the button takes the touch and the view does not take it
    # too (StillScroll); a view that scrolls waits to see a tap or a drag
    assert grabbed == ([view] if scrolls else [button])
    ui.pump(1)
    touch.touch_up()
    ui.pump(2)
    assert ui.app.session.snapshot()["totals"]["1"] == 5
    ui.app.end_game("abandoned", ask=False)
