"""Crazy Time's pick-up list in the real window: a line that moves down at a new pick-up
keeps its row, the rows in sight show exactly the log's pick-ups (newest first, after an
undo too), and no row is left over; labels that keep their textures show what a freshly
drawn label shows."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window

FOUR = [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]


def rows(screen):
    """The rows in the list, top first: (widget, its seat, its words, its font size)."""
    layout = screen.board_w.ids.pickups.layout_manager
    shown = sorted(layout.children, key=lambda w: -w.top)
    return [(w, w.seat, w.text, w.font_size) for w in shown]


def accuse(ui, screen, accuser: int, accused: int) -> None:
    from companion.ui.screens.crazy_time_panels import SeatOption

    def answers():
        return list(reversed(screen._choices.ids.options.children))

    ui.tap(screen.buttons["accuse"])
    for seat in (accuser, accused):
        ui.tap(next(w for w in answers() if isinstance(w, SeatOption) and w.seat == seat))
    ui.tap(answers()[0])
    ui.tap(next(w for w in answers() if w.text.startswith("Yes:")))
    ui.pump(2)


def test_a_line_moving_down_keeps_its_row_and_the_list_follows_the_log(ui):
    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": FOUR})
    screen = ui.app.sm.current_screen
    ui.pump(3)
    for accuser, accused in ((1, 2), (2, 3), (3, 4), (4, 1)):
        accuse(ui, screen, accuser, accused)
    before = rows(screen)
    assert len(before) >= 2  # the newest row and the next in sight
    moved = []  # rows taken out of the list (or put back)
    for row, *_x in before:
        row.fbind("parent", lambda row, parent: moved.append(row))
    accuse(ui, screen, 1, 3)
    after = rows(screen)
    lines = [p for p in reversed(screen._seen_state(ui.app.session.state)[1].pickups)]
    # the rows in sight show the log's pick-ups, newest first, the newest large
    assert [(seat, text) for _w, seat, text, _f in after] == \
        [(p.seat, p.text) for p in lines[:len(after)]]
    assert after[0][3] == 28 and all(f == 24 for *_x, f in after[1:])
    # the line that was the newest moved down one row and kept its row (now small)
    assert after[1][0] is before[0][0] and after[1][2] == before[0][2]
    # the rows stayed in the list: no row was taken out and put back
    assert moved == []
    # no row is left over in the list beyond the ones in sight
    layout = screen.board_w.ids.pickups.layout_manager
    assert len(layout.children) == len(layout.view_indices) == len(after)
    ui.tap(screen.buttons["undo"])
    ui.pump(2)
    back = rows(screen)
    assert [(seat, text) for _w, seat, text, _f in back] == \
        [(seat, text) for _w, seat, text, _f in before]
    ui.app.end_game("abandoned", ask=False)


def test_a_kept_texture_shows_what_a_fresh_label_draws(ui):
    from kivy.uix.label import Label

    from companion.ui.screens.kept_texture import KeptTexture

    class Kept(KeptTexture, Label):
        pass

    kept, fresh = Kept(font_size=28), Label(font_size=28)
    shown = {}
    for text in ("Ann's turn", "Bob's turn", "Ann's turn"):
        kept.text = fresh.text = text
        kept.texture_update()
        fresh.texture_update()
        fresh.texture.bind()  # drawn now, as the window would before showing it
        assert kept.texture.size == fresh.texture.size
        assert kept.texture.pixels == fresh.texture.pixels
        shown.setdefault(text, kept.texture)
    # the look seen again took its kept texture; another look has its own
    assert kept.texture is shown["Ann's turn"]
    assert shown["Bob's turn"] is not shown["Ann's turn"]
    kept.bold = True  # another look of the same words: drawn anew
    kept.texture_update()
    assert kept.texture is not shown["Ann's turn"]
