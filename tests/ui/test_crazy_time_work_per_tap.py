"""Crazy Time's work per tap, in the real window: the texts that come back at every
temporal flaw are not drawn again (the questions' titles and hints, the board's news
"Ann gathers every discard pile", who starts at 1 o'clock, the pick-up lines and the
seat numbers on the badges: KeptText; each core label render is counted), and the board
and the question panel taking turns under the top bar are not laid out again for it."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window

FOUR = [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]


@pytest.fixture
def renders(ui, label_renders):
    """The texts measured and drawn by Kivy's core labels from now on."""
    return label_renders()


def flaw(ui, screen, accuser: int, accused: int) -> None:
    """A temporal flaw tapped through its four questions, the accused picks up."""
    from companion.ui.screens.crazy_time_panels import SeatOption

    def answers():
        return list(reversed(screen._choices.ids.options.children))

    ui.tap(screen.buttons["accuse"])
    for seat in (accuser, accused):
        ui.tap(next(w for w in answers() if isinstance(w, SeatOption) and w.seat == seat))
    ui.tap(answers()[0])
    ui.tap(next(w for w in answers() if w.text.startswith("Yes:")))


def test_questions_news_and_seat_numbers_that_come_back_are_not_drawn_again(ui, renders):
    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": FOUR})
    screen = ui.app.sm.current_screen
    ui.pump(3)
    for accuser, accused in ((1, 2), (3, 4), (1, 2), (3, 4)):  # each look seen twice
        flaw(ui, screen, accuser, accused)
    board = screen.board_w
    assert board.notice == "Dan gathers every discard pile"
    renders.clear()
    flaw(ui, screen, 1, 2)  # Bob picks up again, then leads
    ui.pump(2)
    assert board.notice == "Bob gathers every discard pile"
    assert board.lead_name == "Bob"
    drawn = set(renders)
    for text in ("Temporal flaw! Who calls it?", "Whom does Ann accuse?",
                 "Which law or rule was broken?", "Bob gathers every discard pile",
                 "Bob starts at 1 o'clock", "1", "2", "3", "4"):
        assert text not in drawn, f"{text!r} drawn again"
    # the list shows the new pick-up on top, in its words
    assert board.ids.pickups.data[0]["text"].startswith("Bob: temporal flaw")
    ui.app.end_game("abandoned", ask=False)


def test_the_board_and_the_questions_take_turns_without_being_laid_out_again(ui, monkeypatch):
    from kivy.uix.boxlayout import BoxLayout

    from companion.ui.screens.crazy_time_panels import ChoicePanel, SeatOption

    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": FOUR})
    screen = ui.app.sm.current_screen
    ui.pump(3)
    ui.tap(screen.buttons["accuse"])  # the panel and its seat buttons laid out once
    ui.tap(screen._choices.ids.buttons.children[0])  # Cancel: the board comes back
    laid: list = []
    layout = BoxLayout.do_layout

    def counted(box, *args):
        laid.append(box)
        return layout(box, *args)

    counted.__name__ = "do_layout"  # Kivy's layout triggers call it by this name
    monkeypatch.setattr(BoxLayout, "do_layout", counted)
    for _ in range(2):
        ui.tap(screen.buttons["accuse"])
        assert screen.panel is screen._choices and screen.board_w.get_root_window() is None
        assert screen._choices.get_root_window() is not None
        ui.tap(screen._choices.ids.buttons.children[0])
        assert screen.panel is None and screen.board_w.get_root_window() is not None
        assert screen._choices.get_root_window() is None
    assert not [w for w in laid if w is screen.board_w or isinstance(w, (ChoicePanel,
                                                                         SeatOption))]
    ui.app.end_game("abandoned", ask=False)


def test_a_pick_up_lays_the_list_out_once_at_its_height(ui, monkeypatch):
    """The list's box is given its new height with its data: Kivy lays the rows out once
    per pick-up (not a second time for the height it found), and the height set is the
    one Kivy finds (``minimum_height``), so the newest row is never cut or moved."""
    from kivy.uix.recycleboxlayout import RecycleBoxLayout

    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": FOUR})
    screen = ui.app.sm.current_screen
    ui.pump(3)
    box = screen.board_w.ids.pickups.layout_manager
    flaw(ui, screen, 1, 2)
    passes: list = []
    compute = RecycleBoxLayout.compute_layout

    def counted(layout, *args):
        passes.append(layout)
        return compute(layout, *args)

    monkeypatch.setattr(RecycleBoxLayout, "compute_layout", counted)
    for n, (accuser, accused) in enumerate(((3, 4), (2, 1), (4, 3)), start=2):
        passes.clear()
        flaw(ui, screen, accuser, accused)
        ui.pump(2)
        assert len(screen.board_w.ids.pickups.data) == n
        assert passes == [box]
        assert box.height == box.minimum_height == 84 + 46 * (n - 1)
    ui.tap(screen.buttons["undo"])
    ui.pump(2)
    assert box.height == box.minimum_height == 84 + 46 * 2
    ui.app.end_game("abandoned", ask=False)


def test_a_pick_up_lays_no_row_of_the_list_out_again(ui, monkeypatch):
    """Every row of the pick-up list keeps its place (the newest row stays the large
    one) and takes the line now there: a pick-up lays no row out again (Kivy dealt the
    rows out anew, the large row's size to a small one and back, each row laid out
    twice), and every row in sight shows the line of its place, at its size."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.relativelayout import RelativeLayout

    from companion.ui.screens.crazy_time import LineRow

    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": FOUR})
    screen = ui.app.sm.current_screen
    ui.pump(3)
    rv = screen.board_w.ids.pickups
    flaw(ui, screen, 1, 2)
    ui.pump(2)
    laid: list = []

    def counting(cls):
        layout = cls.do_layout

        def counted(box, *args, **kwargs):
            if isinstance(box, LineRow) or isinstance(box.parent, LineRow):
                laid.append(box)
            return layout(box, *args, **kwargs)

        counted.__name__ = "do_layout"  # Kivy's layout triggers call it by this name
        monkeypatch.setattr(cls, "do_layout", counted)

    counting(BoxLayout)
    counting(RelativeLayout)
    for n, (accuser, accused) in enumerate(((3, 4), (2, 1), (4, 3), (1, 3)), start=2):
        laid.clear()
        flaw(ui, screen, accuser, accused)
        ui.pump(2)
        assert not laid, f"pick-up {n}: {len(laid)} layouts of the list's rows"
        views = rv.view_adapter.views
        assert len(views) >= 2
        for i, view in views.items():
            row = rv.data[i]
            assert (view.text, view.font_size, view.wrap) == \
                (row["text"], row["font_size"], row["wrap"]), i
            assert view.height == row["row_size"][1], i
    ui.app.end_game("abandoned", ask=False)
