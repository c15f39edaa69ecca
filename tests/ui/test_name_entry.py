"""Typing names on the kiosk: the Players screen's own keyboard, in the real window.

Nothing slides or hides: the keyboard takes the rows' place, Start stays where it was;
Shift gives a capital; Next name (and Tab) moves to the next seat; known players are
one tap; the 20-letter limit holds while typing, pasting included."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window

# the keys' words (companion.ui.name_entry's ERASE, SHIFT, SPACE; not imported here:
# importing Kivy's window before the session's window is prepared opens it at 800x600)
ERASE, SHIFT, SPACE = "Erase", "Shift", "Space"


@pytest.fixture
def players(ui):
    ui.goto_home()
    ui.app.pending_game = "scorepad"
    ui.app.navigate("players")
    ui.pump()
    screen = ui.app.sm.current_screen
    assert screen.name == "players"
    for row in screen.rows.values():
        row.name_input.text = ""
    yield screen
    screen.stop_typing()
    ui.goto_home()


def type_keys(ui, screen, keys):
    for key in keys:
        ui.tap(screen.entry.keyboard.keys[key], after_s=0.05)  # fast typing: every tap counts


def test_typing_a_name_never_moves_the_screen_or_covers_start(ui, players):
    screen = players
    start_before = ui.buttons()["Start"]
    ui.tap(screen.rows[1].name_input)
    assert screen.typing and screen.editing == 1
    assert ui.app.root.y == 0, "the screen never slides"
    assert ui.buttons()["Start"] == start_before, "Start stays where it was, in sight"
    type_keys(ui, screen, ["c", "a", "r", "a"])
    assert screen.rows[1].name_input.text == "Cara", "a capital at the start of a name"
    ui.screenshot("players_typing")
    keys = [w for w in screen.entry.walk() if hasattr(w, "repeat_ok") and w.opacity > 0]
    assert all(k.height >= 64 and k.width >= 64 for k in keys), [
        (k.text, k.size) for k in keys if k.height < 64 or k.width < 64]


def test_shift_then_a_letter_is_a_capital_and_shift_is_one_shot(ui, players):
    screen = players
    ui.tap(screen.rows[2].name_input)
    type_keys(ui, screen, ["a", "n", "n", SPACE, "m", SHIFT, "a", "y"])
    # "Ann", then a space starts a word (capital M), then Shift by hand: a capital A
    assert screen.rows[2].name_input.text == "Ann MAy"
    type_keys(ui, screen, [ERASE, ERASE])
    assert screen.rows[2].name_input.text == "Ann M"


def test_next_name_and_tab_move_to_the_next_seat(ui, players):
    from kivy.core.window import Window

    screen = players
    ui.tap(screen.rows[1].name_input)
    ui.tap(screen.entry.ids.next)
    assert screen.editing == 2
    Window.dispatch("on_key_down", 9, 0, None, [])  # Tab on a plugged-in keyboard
    assert screen.editing == 3
    Window.dispatch("on_textinput", "\t")  # never typed as a letter
    assert screen.rows[3].name_input.text == ""
    ui.tap(screen.entry.ids.done)
    assert not screen.typing and screen.rows[1].parent is not None


def test_seat_keys_type_letters_while_typing_not_seat_presses(ui, players):
    from kivy.core.window import Window

    screen = players
    ui.tap(screen.rows[1].name_input)
    Window.dispatch("on_key_down", ord("3"), 0, "3", [])
    Window.dispatch("on_textinput", "3")
    ui.pump()
    assert screen.rows[1].name_input.text == "3"
    assert ui.app.table.drain() == [], "no seat button was pressed"


def test_twenty_letters_at_most_while_typing_and_pasting(ui, players):
    screen = players
    ui.tap(screen.rows[1].name_input)
    field = screen.rows[1].name_input
    field.insert_text("A" * 60)
    assert field.text == "A" * 20
    type_keys(ui, screen, ["b"])
    assert field.text == "A" * 20
    assert screen.entry.count == "20/20"


def test_known_players_are_one_tap(ui, players):
    screen = players
    screen.control.known = ["Cara", "Carl", "Dan", "Ann"]  # from the log, as if
    screen.rows[2].name_input.text = "Dan"
    ui.tap(screen.rows[1].name_input)
    offered = [b.text for b in screen.known_buttons if b.opacity > 0]
    assert offered == ["Cara", "Carl", "Ann"], "Dan sits at seat 2 already"
    type_keys(ui, screen, ["c", "a", "r", "a"])
    assert [b.text for b in screen.known_buttons if b.opacity > 0] == []
    type_keys(ui, screen, [ERASE])
    assert [b.text for b in screen.known_buttons if b.opacity > 0] == ["Cara", "Carl"]
    ui.tap(next(b for b in screen.known_buttons if b.text == "Carl"))
    assert screen.rows[1].name_input.text == "Carl" and screen.editing == 2


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 720)])
def test_keys_are_64_px_and_start_in_sight_at_every_screen_size(ui, players, size):
    from kivy.core.window import Window

    screen = players
    before = tuple(Window.size)
    ui.resize(size)
    try:
        ui.tap(screen.rows[1].name_input)
        ui.screenshot(f"players_typing_{size[0]}x{size[1]}")
        keys = [w for w in screen.entry.walk() if hasattr(w, "repeat_ok")]
        small = [(k.text, k.size) for k in keys if k.height < 64 or k.width < 64]
        assert not small
        start = next(w for w in screen.walk() if getattr(w, "text", "") == "Start")
        x, y = start.to_window(*start.pos)
        assert y >= 0 and y + start.height <= Window.height and x + start.width <= size[0]
        assert start.height >= 64
    finally:
        screen.stop_typing()
        ui.resize(before)
