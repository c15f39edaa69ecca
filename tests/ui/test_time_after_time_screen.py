"""The Time After Time screen in the real window: Chloé's rulebook row, placed by taps."""

from __future__ import annotations

import pytest

from companion.games import time_after_time as tat
from companion.ui.presenters import time_after_time as view

pytestmark = pytest.mark.window

SETUP = {"players": [{"name": "Chloé", "seat": 1}, {"name": "Lucas", "seat": 2}]}
# 12H, 17H, 8H ... 20H as in the rulebook, in slots that leave the row completable.
CHLOE = [(3, 12), (5, 17), (1, 8), (0, 6), (2, 10), (4, 15), (6, 20)]


class _ButtonClass:
    """Anything tapped as a button (a key, a player's name), Kivy imported once the
    window exists (see docs/ui.md)."""

    def __instancecheck__(self, obj):
        from kivy.uix.behaviors import ButtonBehavior

        return isinstance(obj, ButtonBehavior)


Button = _ButtonClass()


def start(ui, setup=SETUP):
    ui.goto_home()
    assert ui.app.start_game("time_after_time", setup)
    ui.pump()
    screen = ui.app.sm.current_screen
    assert screen.name == "time_after_time"
    return screen


def slot_button(screen, seat, slot):
    seats = [s.player.seat for s in ui_state(screen).seats]
    row = list(reversed(screen.ids.rows.children))[seats.index(seat)]
    return row.ids.slots.children[::-1][slot]


def ui_state(screen):
    return screen.control.state()


def hour_button(screen, hour):
    """The key for ``hour``: under the rows (2-3 players) or on the pad (4 players)."""
    keys = screen.ids.hour_pad if screen.hour_pad else screen.ids.hours
    return list(reversed(keys.children))[hour - 6]


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
    assert view.place_action(state, view.Pick(1, 14), 0)[0] == {  # the engine refuses it
        "type": "place", "seat": 1, "slot": 0, "hour": 14}
    bad = tat.SeatState(state.seats[0].player, (14, None, 9, None, None, None, None))
    state2 = tat.State(state.deal, (bad, state.seats[1]), state.draw_pile)
    assert [s["problem"] for s in view.rows(state2, view.Pick())[0]["slots"]][:3] == [
        True, False, True]


def test_chloe_example_through_taps(ui):
    screen = start(ui)
    ui.tap(ui.find("Chloé", Button))
    assert screen.pick.seat == 1
    for n, (slot, hour) in enumerate(CHLOE):
        if screen.pick.seat != 1:  # nobody stays chosen after a card is laid
            ui.tap(ui.find("Chloé", kind=Button))
        ui.tap(hour_button(screen, hour))
        assert screen.pick.hour == hour
        if n == 1:
            # 17H left of 12H is out of order: the slot is disabled and the engine refuses
            assert slot_button(screen, 1, 2).off
            assert not screen.tap_slot(1, 2)
            assert ui.app.status == ("Chloé cannot place it there: 17H00 cannot go left of "
                                     "12H00 in slot 4: times increase from left to right.")
            ui.tap(ui.app.banner)  # the refusal, read: tapped away
        if n == 3:
            ui.screenshot("time_after_time_midgame")
        ui.tap(slot_button(screen, 1, slot))
        assert ui.app.session.state.seats[0].row[slot] == hour
    actions = ui.app.session.actions
    assert actions == [{"type": "place", "seat": 1, "slot": s, "hour": h} for s, h in CHLOE]
    assert ui.app.log.actions(ui.app.session.game_id) == actions  # logged, not only shown
    # the row is complete, but the deal was secret: Chloé is asked before she wins
    assert not ui.app.session.state.over and screen.band == "ask"
    assert "Chloé: is a ghost still in your hand?" in screen.view.question
    ui.tap(ui.find("No ghost: Chloé wins"))
    assert ui.app.session.actions[-1] == {"type": "ghost_answer", "seat": 1,
                                          "holds_ghost": False}
    assert ui.app.session.state.over and ui.app.session.state.winners == (1,)
    assert "Chloé wins!" in screen.view.result
    ui.find("Chloé wins!")
    path, colours = ui.screenshot("time_after_time")
    assert colours > 5
    game_id = ui.app.session.game_id
    assert game_id not in [g.id for g in ui.app.log.open_games()]  # won: not resumable
    ui.tap(screen.ids.undo)
    assert not ui.app.session.state.over and screen.band == "ask"
    assert game_id in [g.id for g in ui.app.log.open_games()]
    assert len(ui.app.session.actions) == len(CHLOE)


def test_ghost_draw_and_discard(ui):
    screen = start(ui)
    assert screen.ids.ghost_plus.disabled  # nobody picked yet
    ui.tap(ui.find("Lucas"))
    ui.tap(screen.ids.ghost_plus)  # Lucas drew a ghost from Chloé, his right-hand neighbour
    assert ui.app.session.state.seats[1].ghosts == 1
    ui.tap(screen.ids.ghost_plus)  # the only ghost is not in Chloé's hand any more
    assert ui.app.status == ("Chloé holds no ghost to give: every ghost of this game is in "
                             "another hand.")
    ui.tap(screen.ids.draw)
    assert ui.app.session.state.draw_pile == 20
    ui.tap(hour_button(screen, 9))
    assert screen.ids.discard.disabled  # 9H can still be placed
    ui.tap(screen.ids.ghost_minus)
    assert ui.app.session.actions[-1] == {"type": "ghost", "seat": 2, "delta": -1}
    assert ui.app.session.actions[:2] == [
        {"type": "ghost", "seat": 2, "delta": 1, "from": 1},
        {"type": "draw_pile", "count": 1, "seat": 2}]


def test_emergency_move_of_two_cards(ui):
    screen = start(ui)
    ui.tap(ui.find("Chloé", Button))
    # 08H in the fifth slot, 09H in the sixth: the row cannot be completed
    for slot, hour in ((4, 8), (5, 9)):
        if screen.pick.seat != 1:  # nobody stays chosen after a card is laid
            ui.tap(ui.find("Chloé", kind=Button))
        ui.tap(hour_button(screen, hour))
        ui.tap(slot_button(screen, 1, slot))
    ui.tap(ui.find("Chloé", kind=Button))  # nobody stays chosen after a card is laid
    assert not screen.ids.emergency.disabled
    assert "cannot be completed" in screen.view.prompt
    ui.tap(ui.find("Lucas"))
    assert screen.ids.emergency.disabled  # Lucas's row is fine
    ui.tap(ui.find("Chloé", Button))
    ui.tap(screen.ids.emergency)
    assert screen.pick.emergency and screen.band == "emergency"
    assert screen.ids.ghost_plus.disabled and screen.ids.em_confirm.disabled
    assert all(b.off for b in screen.ids.hours.children)  # the hours wait, in place
    ui.tap(slot_button(screen, 1, 4))  # lift 08H
    assert slot_button(screen, 1, 0).off and not slot_button(screen, 1, 3).off
    assert slot_button(screen, 2, 0).off  # other rows are out of the flow
    ui.screenshot("time_after_time_emergency")
    ui.tap(slot_button(screen, 1, 3))
    ui.tap(slot_button(screen, 1, 5))  # lift 09H
    ui.tap(slot_button(screen, 1, 4))
    assert slot_button(screen, 1, 3).text == "8H" and slot_button(screen, 1, 4).text == "9H"
    assert ui.app.session.state.seats[0].row[4] == 8  # nothing sent yet
    ui.tap(screen.ids.em_confirm)
    assert ui.app.session.actions[-1] == {
        "type": "emergency_move", "seat": 1,
        "moves": [{"from": 4, "to": 3}, {"from": 5, "to": 4}]}
    assert ui.app.session.state.seats[0].row == (None, None, None, 8, 9, None, None)
    assert not screen.pick.emergency and screen.band == "hours"
    # still stuck: one more turn's worth, a single card, then cancel a second flow
    ui.tap(screen.ids.emergency)
    ui.tap(slot_button(screen, 1, 3))
    ui.tap(slot_button(screen, 1, 2))
    ui.tap(screen.ids.em_confirm)
    assert ui.app.session.actions[-1] == {"type": "emergency_move", "seat": 1,
                                          "from": 3, "to": 2}
    ui.tap(screen.ids.emergency)
    ui.tap(screen.ids.em_cancel)
    assert screen.band == "hours" and len(hour_button(screen, 6).text) > 0
    assert ui.app.log.actions(ui.app.session.game_id) == ui.app.session.actions


def test_hand_empty_once_the_pile_is_gone(ui):
    screen = start(ui)
    assert screen.ids.hand_empty.disabled and screen.ids.hand_empty.width == 0
    ui.tap(ui.find("Lucas"))
    assert screen.ids.hand_empty.disabled  # the pile still holds 21 cards
    assert ui.app.act({"type": "draw_pile", "count": 20})
    ui.pump()
    assert not screen.ids.draw.disabled
    ui.tap(screen.ids.draw)
    assert ui.app.session.state.draw_pile == 0
    ui.pump()
    assert screen.view.pile_out and screen.ids.draw.disabled and screen.ids.draw.width == 0
    assert not screen.ids.hand_empty.disabled
    ui.find("Pile 0")
    ui.screenshot("time_after_time_pile_out")
    ui.tap(screen.ids.hand_empty)
    assert ui.app.session.actions[-1] == {"type": "hand_empty", "seat": 2}
    assert ui.app.session.state.over and ui.app.session.state.result == "tie"
    ui.find("Tie: nobody wins")
    assert screen.band == "over" and screen.ids.hand_empty.disabled


@pytest.mark.parametrize("n", [3, 4])
def test_every_row_visible_with_three_and_four_players(ui, n):
    names = ["Chloé", "Lucas", "Inès", "Hugo"][:n]
    screen = start(ui, {"players": [{"name": nm, "seat": i + 1}
                                    for i, nm in enumerate(names)]})
    ui.tap(ui.find(names[-1]))
    ui.tap(hour_button(screen, 14))
    ui.tap(slot_button(screen, n, 3))
    ui.tap(ui.find(names[0]))
    ui.tap(hour_button(screen, 10))
    ui.pump()
    assert ui.app.session.state.seats[-1].row[3] == 14
    scroll = screen.ids.rows.parent
    rows = list(screen.ids.rows.children)
    assert len(rows) == n
    for row in rows:  # every row lies inside the visible part: no scrolling needed
        x, y = row.to_window(row.x, row.y)
        sx, sy = scroll.to_window(scroll.x, scroll.y)
        assert y >= sy and y + row.height <= sy + scroll.height
        assert all(c.height >= 64 for c in row.children[:-1])  # slots and name
    keys = [] if screen.hour_pad else [hour_button(screen, 22)]  # (4: the pad is closed)
    for w in (screen.ids.undo, screen.ids.discard, *keys):
        assert w.height >= 64
    path, colours = ui.screenshot(f"time_after_time_{n}_players")
    assert colours > 5


def test_a_seat_button_picks_that_players_row(ui):
    from companion.events import PressEvent

    screen = start(ui)
    assert screen.pick.seat is None
    ui.press_seat("2")
    assert screen.pick.seat == 2
    assert [r["selected"] for r in view.rows(ui_state(screen), screen.pick)] == [False, True]
    assert "Lucas" in screen.view.prompt
    ui.screenshot("time_after_time_seat_press")
    ui.press_seat("1")
    assert screen.pick.seat == 1
    screen.on_press_event(PressEvent(5, 0, "mock", True))  # not in this game: nothing
    screen.on_press_event(PressEvent(0, 0, "mock", True))  # the captain button: nothing
    screen.on_press_event(PressEvent(2, 0, "mock", False))  # a release: nothing
    assert screen.pick.seat == 1


def test_a_complete_row_asks_the_player_privately_and_play_goes_on(ui):
    from companion.events import PressEvent

    screen = start(ui, {"players": [{"name": "Chloé", "seat": 1}, {"name": "Lucas", "seat": 2},
                                    {"name": "Inès", "seat": 3}]})
    for slot, hour in CHLOE:
        assert ui.app.act({"type": "place", "seat": 1, "slot": slot, "hour": hour})
    ui.pump()
    assert screen.band == "ask" and ui.app.table.lamps.state(1)
    assert screen.ids.ghost_plus.disabled and all(b.off for b in screen.ids.hours.children)
    assert all(s["enabled"] is False for r in view.rows(ui_state(screen), screen.pick)
               for s in r["slots"])
    ui.screenshot("time_after_time_ghost_question")
    ui.press_seat("2")  # Lucas cannot answer for Chloé
    assert ui.app.session.state.asking == 1 and screen.band == "ask"
    ui.press_seat("1")  # her own button: yes, a ghost is still in her hand
    assert ui.app.session.actions[-1] == {"type": "ghost_answer", "seat": 1,
                                          "holds_ghost": True}
    assert screen.band == "hours" and not ui.app.session.state.over
    assert not ui.app.table.lamps.state(1)
    assert ui.app.status == "Chloé plays on"
    # Lucas draws a ghost from her: she is asked again (the second ghost may be hers)
    ui.tap(ui.find("Lucas"))
    ui.tap(screen.ids.ghost_plus)
    assert ui.app.session.state.asking == 1 and screen.band == "ask"
    screen.on_press_event(PressEvent(1, 0, "mock", False))  # a release answers nothing
    assert ui.app.session.state.asking == 1
    ui.tap(screen.ids.no_ghost)
    assert ui.app.session.state.winners == (1,) and "Chloé wins!" in screen.view.result
    assert ui.app.session.game_id not in [g.id for g in ui.app.log.open_games()]


def test_four_players_enter_the_hour_on_the_pad(ui):
    """Four players: choosing a player (seat button or name) opens the hour pad over the
    rows; a ghost drawn (Ghost +1, the bar under the pad) leaves it open for the second
    card; the hour tapped closes it with the legal slots green; Close goes back to the
    rows with the player still chosen; an hour whose two copies are out is disabled."""
    names = ["Chloé", "Lucas", "Inès", "Hugo"]
    screen = start(ui, {"players": [{"name": nm, "seat": i + 1}
                                    for i, nm in enumerate(names)]})
    assert screen.hour_pad and not screen.pad_shown
    assert screen.ids.hours.parent.height == 0 and not screen.ids.hours.children
    ui.press_seat("3")
    assert screen.pad_shown and screen.pick.seat == 3
    assert screen.ids.scroll.opacity == 0  # the rows under it are not shown
    ui.tap(screen.ids.ghost_plus)
    assert ui.app.session.actions[-1]["type"] == "ghost" and screen.pad_shown
    ui.tap(hour_button(screen, 9))
    assert not screen.pad_shown and screen.pick == view.Pick(seat=3, hour=9)
    assert slot_button(screen, 3, 0).background_color == list(view_colour("LEGAL"))
    ui.tap(ui.find("Inès", Button))  # the chosen name again: another hour
    assert screen.pad_shown and screen.pick.hour == 9
    ui.tap(ui.find("Close"))
    assert not screen.pad_shown and screen.pick.seat == 3
    ui.tap(ui.find("Inès", Button))
    ui.tap(hour_button(screen, 12))
    ui.tap(slot_button(screen, 3, 3))
    assert ui.app.session.state.seats[2].row[3] == 12 and not screen.pad_shown
    ui.tap(ui.find("Hugo", Button))
    ui.tap(hour_button(screen, 12))
    ui.tap(slot_button(screen, 4, 3))  # both 12H are out now
    ui.tap(ui.find("Chloé", Button))
    assert screen.pad_shown and hour_button(screen, 12).off
    assert not hour_button(screen, 13).off


def test_undo_leaves_no_hour_selected(ui):
    """Lucas has 9H picked when the host takes back Chloé's 12H: after the Undo no
    hour key is lit and no row offers green slots for a card nobody is placing."""
    from companion.ui import theme

    screen = start(ui)
    ui.tap(ui.find("Chloé", Button))
    ui.tap(hour_button(screen, 12))
    ui.tap(slot_button(screen, 1, 3))
    ui.tap(ui.find("Lucas", Button))
    ui.tap(hour_button(screen, 9))
    assert screen.pick == view.Pick(seat=2, hour=9)
    ui.tap(screen.ids.undo)
    assert ui.app.session.actions == []
    assert screen.pick.hour is None and screen.pick.seat is None
    lit = [h for h in view.HOURS
           if hour_button(screen, h).background_color == list(theme.PICKED)]
    assert lit == []
    assert not any(slot_button(screen, seat, slot).background_color
                   == list(view_colour("LEGAL")) for seat in (1, 2) for slot in range(7))
    assert screen.view.prompt.startswith("Tap a player")
    ui.screenshot("time_after_time_after_undo")


def view_colour(name):
    from companion.ui import theme

    return getattr(theme, name)
