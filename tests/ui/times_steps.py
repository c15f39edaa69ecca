"""Steps of a Times event driven through the screen, for the window tests that take
them (no Kivy import at the top: a window-test module imports this at its top)."""

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
    assert screen.view.panel == "turns", ui.app.status


def open_spaces(screen) -> list:
    """The Time Table's spaces that take the marker to lay now, in order."""
    from companion.ui.screens.times_panels import SpaceButton

    return [w for w in screen.ids.time_table.walk(restrict=True)
            if isinstance(w, SpaceButton) and not w.disabled]


def lay_first_space(ui, screen) -> None:
    """A tap on the first space open to the marker laid now."""
    ui.tap(open_spaces(screen)[0])
