"""The Time After Time screen in the real window: Chloé's rulebook row, placed by taps."""

from __future__ import annotations

import pytest

from companion.games import time_after_time as tat
from companion.ui.presenters import time_after_time as view

pytestmark = pytest.mark.window

SETUP = {"players": [{"name": "Chloé", "seat": 1}, {"name": "Lucas", "seat": 2}]}
# 12H, 17H, 8H ... 20H as in the rulebook, in slots that leave the row completable.
CHLOE = [(3, 12), (5, 17), (1, 8), (0, 6), (2, 10), (4, 15), (6, 20)]


def start(ui):
    ui.goto_home()
    assert ui.app.start_game("time_after_time", SETUP)
    ui.pump()
    screen = ui.app.sm.current_screen
    assert screen.name == "time_after_time"
    return screen


def slot_button(screen, seat, slot):
    seats = [s.player.seat for s in ui_state(screen).seats]
    row = list(reversed(screen.ids.rows.children))[seats.index(seat)]
    return list(reversed(row.children))[2 + slot]


def ui_state(screen):
    return screen._state()


def hour_button(screen, hour):
    return list(reversed(screen.ids.hours.children))[hour - 6]


def test_presenter_rows_and_controls():
    state = tat.initial(SETUP)
    pick = view.Pick(seat=1, hour=12)
    rows = view.rows(state, pick)
    assert [r["name"] for r in rows] == ["Chloé", "Lucas"]
    assert all(s["legal"] for s in rows[0]["slots"]) and not any(
        s["legal"] for s in rows[1]["slots"])
    assert not view.controls(state, pick)["discard"]  # anyone can place 12H
    assert view.place_action(state, pick, 3)[0] == {
        "type": "place", "seat": 1, "slot": 3, "hour": 12}
    state = tat.apply(state, {"type": "place", "seat": 1, "slot": 3, "hour": 12})
    assert view.place_action(state, view.Pick(1, 14), 0)[0] is None
    bad = tat.SeatState(state.seats[0].player, (14, None, 9, None, None, None, None))
    state2 = tat.State(state.deal, (bad, state.seats[1]), state.draw_pile)
    assert [s["problem"] for s in view.rows(state2, view.Pick())[0]["slots"]][:3] == [
        True, False, True]


def test_chloe_example_through_taps(ui):
    screen = start(ui)
    ui.tap(ui.find("Chloé"))
    assert screen.pick.seat == 1
    for n, (slot, hour) in enumerate(CHLOE):
        ui.tap(hour_button(screen, hour))
        assert screen.pick.hour == hour
        if n == 1:
            # 17H left of 12H is out of order: the slot is disabled and the handler refuses
            assert slot_button(screen, 1, 2).disabled
            assert not screen.tap_slot(1, 2)
            assert "slot" in ui.app.status.lower() or ui.app.status
        if n == 3:
            ui.screenshot("time_after_time_midgame")
        ui.tap(slot_button(screen, 1, slot))
        assert ui.app.session.state.seats[0].row[slot] == hour
    actions = ui.app.session.actions
    assert actions == [{"type": "place", "seat": 1, "slot": s, "hour": h} for s, h in CHLOE]
    assert ui.app.log.actions(ui.app.session.game_id) == actions  # logged, not only shown
    assert ui.app.session.state.over and ui.app.session.state.winners == (1,)
    assert "Chloé wins!" in screen.result
    ui.find("Chloé wins!")
    path, colours = ui.screenshot("time_after_time")
    assert colours > 5
    ui.tap(screen.ids.undo)
    assert not ui.app.session.state.over
    assert len(ui.app.session.actions) == len(CHLOE) - 1


def test_ghost_draw_and_discard(ui):
    screen = start(ui)
    assert screen.ids.ghost_plus.disabled  # nobody picked yet
    ui.tap(ui.find("Lucas"))
    ui.tap(screen.ids.ghost_plus)
    assert ui.app.session.state.seats[1].ghosts == 1
    ui.tap(screen.ids.draw)
    assert ui.app.session.state.draw_pile == 20
    ui.tap(hour_button(screen, 9))
    assert screen.ids.discard.disabled  # 9H can still be placed
    ui.tap(screen.ids.ghost_minus)
    assert ui.app.session.actions[-1] == {"type": "ghost", "seat": 2, "delta": -1}
    assert ui.app.session.actions[:2] == [
        {"type": "ghost", "seat": 2, "delta": 1},
        {"type": "draw_pile", "count": 1, "seat": 2}]
