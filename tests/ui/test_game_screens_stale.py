"""Every game screen shows the state after an Undo and after a resume exactly.

For each game: actions bring it to a state S and the screen is read (every visible
label and button: its class, text and whether it is disabled, in tree order); one more
action, then Undo, must read the same; so must the game resumed from its log (a new
session replaying it, as after a crash), on a screen entered afresh. A screen that keeps
an undone result, or forgets what the log ends on, differs.
"""

from __future__ import annotations

import pytest
from fakes import Faces
from samples import ASYLUM

pytestmark = pytest.mark.window

FOUR = [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]


def reading(ui) -> list[tuple]:
    """What the current screen shows: (class, text, disabled) of each visible label and
    button, in reading order (top to bottom, then left to right: a list that keeps its
    row views and moves them may hold them in another tree order)."""
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label
    from layout_check import shown

    ui.pump(3)
    screen = ui.app.sm.current_screen
    out = []
    for w in screen.walk(restrict=True):
        if isinstance(w, Label | ButtonBehavior) and shown(w):
            x, top = w.to_window(w.x, w.top)
            out.append(((-round(top), round(x)), (type(w).__name__, str(getattr(w, "text", "")),
                        bool(getattr(w, "disabled", False)))))
    out.sort(key=lambda place_row: place_row[0])  # stable: tree order within a place
    return [row for _place, row in out]


def same(before, after, what):
    if before != after:
        gone = [r for r in before if r not in after]
        new = [r for r in after if r not in before]
        raise AssertionError(f"{what} differs: shown before {gone}, now {new}")


def check_undo_and_resume(ui, more):
    """Read S, do ``more()`` (one logged action), Undo, read; resume from the log, read."""
    live = reading(ui)
    n = ui.app.session.n_actions
    more()
    assert ui.app.session.n_actions == n + 1, ui.app.status
    changed = reading(ui)
    assert changed != live, "the extra action must show (else the check proves nothing)"
    assert ui.app.undo()
    same(live, reading(ui), "after Undo")
    game = ui.app.session.game_id
    ui.app.home()
    ui.pump()
    assert ui.app.resume_game(game)
    same(live, reading(ui), "after resume")
    ui.app.end_game("abandoned", ask=False)


def test_times(ui):
    ui.goto_home()
    assert ui.app.start_game("times", {"players": FOUR, "target": 15})
    from tests.ui.times_steps import lay_first_space, play_cards

    screen = ui.app.sm.current_screen
    play_cards(ui, screen)

    def more():
        lay_first_space(ui, screen)  # a marker placed

    check_undo_and_resume(ui, more)


def test_professor_tempus(ui):
    ui.goto_home()
    assert ui.app.start_game("professor_tempus", {"players": FOUR[:3], "first_seat": 1})
    screen = ui.app.sm.current_screen
    assert ui.app.act({"type": "open_series", "seat": 1, "holder": 0, "direction": "-",
                       "card": {"colour": "red", "value": 5}})
    check_undo_and_resume(ui, lambda: ui.app.act(
        {"type": "play_on", "seat": 2, "holder": 0, "card": {"colour": "red", "value": 3}}))
    assert screen.name == "professor_tempus"


def test_crazy_time(ui):
    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": FOUR})
    for seat in (1, 2, 3):
        assert ui.app.act({"type": "pickup", "seat": seat, "reason": "temporal_flaw"})
    check_undo_and_resume(ui, lambda: ui.app.act(
        {"type": "pickup", "seat": 4, "reason": "slap"}))


def test_crazy_time_after_a_round_and_a_law(ui):
    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": FOUR})
    assert ui.app.act({"type": "pickup", "seat": 2, "reason": "temporal_flaw"})
    assert ui.app.act({"type": "round_won", "seat": 1})
    check_undo_and_resume(ui, lambda: ui.app.act(
        {"type": "new_law", "name": "High Noon", "when": "at noon", "what": "say it",
         "creator": 1, "absent": 2}))


def test_time_after_time(ui):
    ui.goto_home()
    assert ui.app.start_game("time_after_time", {"players": FOUR[:2]})
    assert ui.app.act({"type": "place", "seat": 1, "slot": 3, "hour": 12})
    check_undo_and_resume(ui, lambda: ui.app.act(
        {"type": "place", "seat": 2, "slot": 2, "hour": 10}))


def test_time_stories_travel(ui):
    ui.goto_home()
    assert ui.app.start_game("time_stories", ASYLUM)
    screen = ui.app.sm.current_screen
    assert ui.app.act({"type": "travel", "die": 2, "red": False})
    ui.pump()
    assert screen.die_text == "2"  # the log ends on that roll: the die shows it
    check_undo_and_resume(ui, lambda: ui.app.act({"type": "travel", "die": 6, "red": True}))


def test_time_stories_dice_test_after_undo_and_resume(ui):
    """The roll (faces [4], one die) is the log's last action: after an undo of the next
    roll and after a resume from the same log, the panel shows exactly that roll."""
    ui.goto_home()
    assert ui.app.start_game("time_stories", ASYLUM)
    screen = ui.app.sm.current_screen
    assert ui.app.act({"type": "test_start", "space": "B", "characteristic": "Glibness",
                       "characters": ["Madeleine"], "shields": ["blank", "skull"],
                       "locked": False})
    ui.pump()
    ui.tap(ui.find("Dice test"))
    screen.rng = Faces(4)
    ui.tap(ui.find("Roll 1 die"))
    assert ui.app.session.actions[-1] == {"type": "test_roll", "space": "B", "faces": [4]}
    ui.find("Removed: blank")
    assert screen.control.panel == "test"
    check_undo_and_resume(ui, lambda: ui.app.act(
        {"type": "test_continue", "space": "B"}))


def test_time_stories_an_undone_roll_leaves_the_dice_test(ui):
    """Undo of a test's roll: the test as it was before it (Roll 1 die), not the roll."""
    ui.goto_home()
    assert ui.app.start_game("time_stories", ASYLUM)
    screen = ui.app.sm.current_screen
    assert ui.app.act({"type": "test_start", "space": "B", "characteristic": "Glibness",
                       "characters": ["Madeleine"], "shields": ["blank", "skull"],
                       "locked": False})
    ui.pump()
    ui.tap(ui.find("Dice test"))
    live = reading(ui)
    screen.rng = Faces(4)
    ui.tap(ui.find("Roll 1 die"))
    ui.find("Removed: blank")
    ui.tap(ui.find("Undo"))
    same(live, reading(ui), "after the roll's Undo")
    ui.app.end_game("abandoned", ask=False)


def test_time_stories_dice_test_with_more_dice_undone(ui):
    """The dice test keeps its widgets: after a roll of three dice the table entered
    itself (and its result) is undone, the open test of two dice shows exactly as
    before; a resume too (no tile, odds line or result line of the undone roll left)."""
    ui.goto_home()
    assert ui.app.start_game("time_stories", ASYLUM)
    screen = ui.app.sm.current_screen
    assert ui.app.act({"type": "test_start", "space": "B", "characteristic": "Combat",
                       "characters": ["Marie", "Madeleine"], "shields": ["blank", "skull"],
                       "locked": False})
    assert ui.app.act({"type": "test_roll", "space": "B", "faces": [3, 3, 1]})
    assert ui.app.act({"type": "test_continue", "space": "B"})
    ui.pump()
    ui.tap(ui.find("Dice test"))
    ui.find("Roll 3 dice")

    def more():
        ui.tap(ui.find("Our dice"))
        ui.tap(ui.find("skull"))
        ui.tap(ui.find("Record roll"))
        ui.find("Removed:")

    assert screen.control.panel == "test"
    check_undo_and_resume(ui, more)


def test_time_stories_next_run_panel(ui):
    """The end of a run (the next-run panel, kept): after the next run's start is
    undone, and after a resume, it reads exactly as before."""
    ui.goto_home()
    assert ui.app.start_game("time_stories", ASYLUM)
    screen = ui.app.sm.current_screen
    assert ui.app.act({"type": "adjust_tu", "delta": -25, "reason": "card effect"})
    ui.pump()
    assert screen.control.panel == "next"
    ui.find("Start run 2 (25 TU)")
    check_undo_and_resume(ui, lambda: ui.tap(ui.find("Start run 2")))


def test_score_pad(ui):
    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": FOUR[:2]})
    assert ui.app.act({"type": "score", "seat": 1, "points": 3})
    check_undo_and_resume(ui, lambda: ui.app.act({"type": "score", "seat": 2, "points": 5}))
