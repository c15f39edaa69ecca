"""Crazy Time's texts that come back at every temporal flaw are not drawn again: the
questions' titles and hints, the board's news ("Ann gathers every discard pile", who
starts at 1 o'clock) and the seat numbers on the badges of the pick-up list (KeptText,
in the real window: each core label render is counted)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window

FOUR = [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]


@pytest.fixture
def renders(ui, monkeypatch):
    """The texts measured and drawn by Kivy's core labels from now on."""
    from kivy.core.text import Label as CoreLabel

    drawn: list[str] = []
    render = CoreLabel.render

    def counted(core, *args, **kwargs):
        drawn.append(core.text)
        return render(core, *args, **kwargs)

    monkeypatch.setattr(CoreLabel, "render", counted)
    return drawn


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
