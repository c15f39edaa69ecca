"""The Times screen's panels as kept pages: built with the screen, one page per phase in
the body and in the action row (``PageStack``), the phase's page shown and the others
off the window; a Time Table lane shown again with the same data changes nothing; the
texts that come back at every turn are kept textures."""

from __future__ import annotations

import pytest

from tests.ui.times_steps import lay_and_doubt, lay_first_space, play_cards

pytestmark = pytest.mark.window

FOUR = [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]


@pytest.fixture
def screen(ui):
    ui.goto_home()
    assert ui.app.start_game("times", {"players": FOUR, "target": 15}), ui.app.status
    ui.pump(2)
    yield ui.app.sm.get_screen("times")
    ui.app.end_game("abandoned", ask=False)
    ui.pump(2)


def test_every_phase_has_its_panel_before_a_game_and_the_time_table_its_numbers(ui):
    ui.goto_home()
    screen = ui.app.sm.get_screen("times")
    assert set(screen._panels) == {"play", "turns", "reveal", "evaluated", "track"}
    for lane in screen.time_table.lanes:
        assert [b.text for b in lane.buttons] and all(b.text for b in lane.buttons)
        assert all(b.label_texture is not None for b in lane.buttons)


def test_a_change_of_phase_moves_no_widget_and_takes_the_other_pages_off_the_window(
        ui, screen):
    body, row = screen.ids.body, screen.ids.phase_actions
    pages = list(body.children)
    rows = list(row.children)
    play, turns = screen._panels["play"], screen._panels["turns"]
    assert body.shown is play.page and row.shown is play.row
    play_cards(ui, screen)
    assert list(body.children) == pages and list(row.children) == rows, "no page moved"
    assert body.shown is turns.page and row.shown is turns.row
    # the play page: not drawn, see-through, off the window (for it and all it holds)
    assert play.page.canvas not in body.canvas.children
    assert play.page.opacity == 0 and screen._play_button.get_root_window() is None
    assert turns.page.canvas in body.canvas.children
    assert turns.page.opacity == 1 and screen._doubt.get_root_window() is not None
    assert screen.time_table.get_root_window() is not None


def test_a_tap_where_a_hidden_page_has_a_button_reaches_only_the_shown_page(ui, screen):
    """The year's action row is empty: a tap where "Next event" (hidden) lies is lost."""
    play_cards(ui, screen)
    lay_and_doubt(ui, screen)
    assert not screen._panels["reveal"].actions
    pressed = []
    for kind, panel in screen._panels.items():
        for button in panel.actions:
            button.bind(on_press=lambda w, k=kind: pressed.append((k, w.text)))
    hidden = screen._next_event
    n = ui.app.session.n_actions
    ui.tap(hidden)
    assert pressed == [], "a button of a page not shown took the tap"
    assert ui.app.session.n_actions == n and screen._shown == "reveal"


def test_a_lane_shown_again_with_the_same_data_changes_nothing(ui, screen, monkeypatch):
    from dataclasses import replace

    from companion.ui.presenters import times as view
    from companion.ui.screens.times_panels import MarkerBar

    play_cards(ui, screen)
    lay_first_space(ui, screen)  # Ann lays her pink 5
    state = ui.app.session.state
    lanes = view.lanes(state, [])
    colours = screen.colours(state)
    placed = []
    for lane in screen.time_table.lanes:
        monkeypatch.setattr(lane.ids.cells, "put", lambda *a, **k: placed.append(a))
    screen.time_table.show(lanes, colours, screen.tap_space)
    assert placed == [], "the same lanes were laid out again"
    laid = next(i for i, lane in enumerate(lanes) if lane.bars)  # the century: Ann's bar
    changed = list(lanes)
    changed[laid] = view.Lane(**{**lanes[laid].__dict__, "enabled": (lanes[laid].spaces[0][0],)})
    assert changed[laid] != lanes[laid]
    screen.time_table.show(tuple(changed), colours, screen.tap_space)
    buttons = screen.time_table.lanes[laid].buttons
    assert not buttons[0].disabled and all(b.disabled for b in buttons[1:]), \
        "a lane whose data changed must be shown anew"
    assert placed == [], "only which spaces take a tap changed: nothing is placed again"
    bar = lanes[laid].bars[0]
    moved = list(changed)
    moved[laid] = view.Lane(**{**lanes[laid].__dict__, "bars": (
        replace(bar, start=bar.start + 1, end=bar.end + 1),)})
    screen.time_table.show(tuple(moved), colours, screen.tap_space)
    assert placed and all(isinstance(a[0], MarkerBar) for a in placed), \
        "its bars changed, its spaces did not"


def test_the_headline_is_kept_from_its_first_showing(ui, screen):
    play_cards(ui, screen)
    headline = screen._headline
    first_text = headline.text
    ui.pump(2)
    first = headline.texture
    headline.text = "Someone else's turn: Pink 1"
    ui.pump(2)
    assert headline.texture is not first
    headline.text = first_text
    ui.pump(2)
    assert headline.texture is first, "a headline that came back was drawn again"


def test_the_badge_number_and_the_year_are_kept_texts(ui, screen):
    from companion.ui.kept_text import KeptText
    from companion.ui.widgets import SeatBadge

    play_cards(ui, screen)
    (number,) = screen._turn_badge.children
    assert isinstance(screen._turn_badge, SeatBadge) and isinstance(number, KeptText)
    year = next(w for w in screen._year_pad.walk() if getattr(w, "text", "") == "1 _ _ _")
    assert isinstance(year, KeptText)


def test_the_widest_period_is_whole_in_its_box_and_kept(ui, screen):
    from companion.ui.kept_text import KeptText

    play_cards(ui, screen)
    period = screen._period
    assert isinstance(period, KeptText), "each event starts with the whole millennium again"
    period.text = "Now: 1000–1999"
    ui.pump(2)
    assert period.texture_size[0] <= period.width
    assert period.texture_size[1] <= period.height + 4


def test_a_turn_passing_on_tells_only_the_two_lamps_that_change(ui, screen, monkeypatch):
    """Ann lays her pink 5: her lamp goes off and Bob's on; no other seat is told (a
    lamp told again is mirrored to the pad again)."""
    play_cards(ui, screen)
    lamps = ui.app.table.lamps
    told = []
    monkeypatch.setattr(lamps, "on", lambda seat, f=lamps.on: (told.append(("on", seat)),
                                                                 f(seat)))
    monkeypatch.setattr(lamps, "off", lambda seat, f=lamps.off: (told.append(("off", seat)),
                                                                   f(seat)))
    lay_first_space(ui, screen)  # Ann lays her pink 5: Bob's turn
    assert sorted(told) == [("off", 1), ("on", 2)]
    assert [s for s in ui.app.table.seats if lamps.state(s)] == [2]


def test_the_doubt_words_are_kept_from_their_first_showing(ui, screen):
    """"Doubt Dan" comes back every round: drawn once, then shown from its texture."""
    play_cards(ui, screen)
    doubt = screen._doubt
    doubt.text = "Doubt Zoe Quentin"  # a name no earlier test showed
    ui.pump(2)
    first = doubt.texture
    doubt.text = "Doubt"
    ui.pump(2)
    assert doubt.texture is not first
    doubt.text = "Doubt Zoe Quentin"
    ui.pump(2)
    assert doubt.texture is first, "words that came back were drawn again"
