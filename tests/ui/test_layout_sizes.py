"""Screens in their states at 800x480, 1024x600 and 1280x720 with 20-letter names:
no label cut or spilling over its box, no two buttons overlapping, every button inside
the window and (at 800x480) at least 64 px. Screenshots in tests/_artifacts/layout_*."""

from __future__ import annotations

import pytest
from layout_check import FOUR, LONG, SIZES, problems, size_id

from tests.ui.times_steps import lay_first_space, play_cards

pytestmark = pytest.mark.window


@pytest.fixture(params=SIZES, ids=size_id)
def size(request, ui):
    with ui.sized(request.param) as shown:
        yield shown


def check(ui, size, name):
    ui.pump(3)
    ui.screenshot(f"layout_{name}_{size[0]}x{size[1]}")
    found = problems(ui.app.root, min_target=64 if size == (800, 480) else None)
    assert not found, "\n".join(found)


def test_times_play_turns_reveal_evaluated(ui, size):
    ui.goto_home()
    assert ui.app.start_game("times", {"players": FOUR, "target": 15})
    screen = ui.app.sm.current_screen
    check(ui, size, "times_play")
    play_cards(ui, screen)
    check(ui, size, "times_turns")
    lay_first_space(ui, screen)
    check(ui, size, "times_turns_pending")
    ui.app.end_game("abandoned", ask=False)


def test_professor_tempus_move_entry(ui, size):
    """The 25 value keys: 1-24 in two rows, 25 opening the row of kinds and colours (was
    three rows of keys under that row: 61 px high at 800x480)."""
    ui.goto_home()
    assert ui.app.start_game("professor_tempus", {"players": FOUR[:3], "first_seat": 1})
    check(ui, size, "professor_tempus_move")
    ui.app.end_game("abandoned", ask=False)


def test_players_rows_and_typing(ui, size):
    ui.goto_home()
    ui.app.choose_game("times")
    ui.pump()
    screen = ui.app.sm.current_screen
    for seat, row in screen.rows.items():
        row.name_input.text = LONG[(seat - 1) % 4]
    check(ui, size, "players_rows")
    ui.tap(screen.rows[1].name_input)
    check(ui, size, "players_typing")
    screen.stop_typing()


def test_crazy_time_board(ui, size):
    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": FOUR})
    for i in range(6):
        ui.app.act({"type": "pickup", "seat": 1 + i % 4, "reason": "temporal_flaw"})
    check(ui, size, "crazy_time_board")
    undo = ui.app.sm.current_screen.ids.undo
    assert undo.text.startswith("Undo") and "…" not in undo.text and "..." not in undo.text
    ui.app.end_game("abandoned", ask=False)


def test_the_check_sees_a_cut_label_a_lost_line_overlaps_text_over_text_and_small_buttons(ui):
    """The check itself: each kind of fault it names is found on widgets made to have it."""
    from kivy.core.window import Window
    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    box = FloatLayout(size_hint=(None, None), size=(400, 200), pos=(0, 0))
    box.add_widget(Label(text="A name far too long for it", shorten=True, font_size=22,
                         size_hint=(None, None), size=(60, 30), text_size=(60, 30),
                         pos=(0, 0)))
    box.add_widget(Label(text="one two three four five six", font_size=22, max_lines=1,
                         size_hint=(None, None), size=(80, 30), text_size=(80, None),
                         pos=(0, 40)))
    box.add_widget(Button(text="A", size_hint=(None, None), size=(70, 70), pos=(200, 0)))
    box.add_widget(Button(text="B", size_hint=(None, None), size=(70, 40), pos=(230, 20)))
    # a big "7" over a caption's words, and two texts whose boxes overlap but whose
    # letters do not (a number at the top of a tall box, a caption at its foot)
    box.add_widget(Label(text="7", font_size=40, size_hint=(None, None), size=(30, 30),
                         pos=(100, 150)))
    box.add_widget(Label(text="under it", font_size=16, size_hint=(None, None),
                         size=(90, 20), pos=(80, 155)))
    box.add_widget(Label(text="5:00", font_size=30, size_hint=(None, None), size=(100, 120),
                         text_size=(100, 120), valign="top", pos=(290, 80)))
    box.add_widget(Label(text="moves 0", font_size=16, size_hint=(None, None),
                         size=(100, 20), pos=(290, 80)))
    Window.add_widget(box)
    try:
        ui.pump(2)
        found = "\n".join(problems(box, min_target=64))
    finally:
        Window.remove_widget(box)
    assert "is cut with '...'" in found
    assert "loses lines" in found or "spills over" in found
    assert "'A' overlaps Button 'B'" in found
    assert "'B' is 70x40, under 64 px" in found
    assert "Label '7' is drawn over Label 'under it'" in found
    assert "'5:00' is drawn over" not in found


def test_crazy_time_newest_pick_up_is_whole_in_its_list(ui, size):
    """The newest pick-up (the big first row) lies whole inside the list's box: the news
    above it gets smaller as far as needed (was: 46 px left, the row half hidden)."""
    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": FOUR})
    for i in range(6):
        ui.app.act({"type": "pickup", "seat": 1 + i % 4, "reason": "temporal_flaw"})
    ui.pump(3)
    rv = ui.app.sm.current_screen.ids.pickups
    rows = [w for w in rv.children[0].children if getattr(w, "text", "")]
    newest = max(rows, key=lambda w: w.top)
    assert newest.height >= 48
    _x, top = newest.to_window(newest.x, newest.top)
    _x, bottom = newest.to_window(newest.x, newest.y)
    _x, rv_bottom = rv.to_window(rv.x, rv.y)
    _x, rv_top = rv.to_window(rv.x, rv.top)
    try:
        assert bottom >= rv_bottom - 1 and top <= rv_top + 1, (bottom, top, rv_bottom, rv_top)
    finally:
        ui.app.end_game("abandoned", ask=False)
