"""Steps of a Times event driven through the screen, one driver each for the window
tests that take them (no Kivy import here: a window-test module imports this at its
top)."""

from __future__ import annotations

#: the cards of the event the steps play: Ann (seat 1) lays her pink 5 first
CARDS = {1: "pink5", 2: "blue3", 3: "yellow1", 4: "blue1"}


def play_cards(ui, screen) -> None:
    """Each player's card entered (``CARDS``) and sent: the turns begin."""
    for seat, card in CARDS.items():
        screen.select(seat)
        screen.choose(card)
    screen.play_cards()
    ui.pump(2)
    assert screen._shown == "turns", ui.app.status


def lay_first_space(ui, screen) -> None:
    """A tap on the first space open to the marker laid now."""
    lane = next(lane for lane in screen.time_table.lanes if lane.active)
    ui.tap(next(b for b in lane.buttons if not b.disabled))


def lay_and_doubt(ui, screen) -> None:
    """Ann lays her pink 5, Bob doubts her and the two others join his doubt: the event
    goes to the year's reveal."""
    lay_first_space(ui, screen)
    screen.doubt()
    screen.join_doubt()
    screen.join_doubt()
    ui.pump(2)
    assert screen._shown == "reveal", ui.app.status
