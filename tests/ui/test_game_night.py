"""The traps of a game night (issue 11), each played through the real window.

Resume offers the game last played; nothing moves under a finger; one tap is one action
(while counters count every fast tap); messages that need the table show on the screen;
lamps go dark when a screen is left; history stays clean.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from samples import ASYLUM

pytestmark = pytest.mark.window

MS = 1_000_000
TWO = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}
FOUR = {"players": [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara",
                                                                       "Dan"])]}


@pytest.fixture
def ticking(ui):
    """The game log's clock, a second further at every write (so "last played" is
    exact however fast the test plays)."""
    start = datetime(2026, 3, 1, 19, 0, tzinfo=UTC)
    seconds = itertools.count()
    before = ui.app.log.clock
    ui.app.log.clock = lambda: (start + timedelta(seconds=next(seconds))).isoformat(
        timespec="milliseconds")
    yield
    ui.app.log.clock = before


def close_open_games(ui):
    for g in ui.app.log.open_games():
        ui.app.log.finish(g.id)  # through the log: its row's checksum with it


def home(ui):
    ui.app.home()
    ui.pump()
    return ui.app.sm.current_screen


# -- 1. resume the right game -----------------------------------------------------------


def test_resume_offers_the_game_last_played_and_lists_every_open_one(ui, ticking):
    from kivy.uix.button import Button

    ui.goto_home()
    close_open_games(ui)
    assert ui.app.start_game("time_stories", ASYLUM)
    stories = ui.app.session.game_id
    assert ui.app.act({"type": "stay"})
    assert ui.app.start_game("scorepad", TWO)  # started later ...
    assert ui.app.act({"type": "score", "seat": 1, "points": 2})
    assert ui.app.resume_game(stories)  # ... but T.I.M.E Stories is resumed and played
    assert ui.app.act({"type": "stay"})
    ui.app.session = None  # kill -9: the app starts again with no game in memory
    screen = home(ui)
    assert screen.resume_id == stories
    assert screen.resume_text.startswith("Resume T.I.M.E Stories with Ann and Bea, last "
                                         "played ")
    assert screen.resume_text.endswith("(1 more open)")
    ui.tap(ui.find("Open games", kind=Button))
    ui.find("T.I.M.E Stories with Ann and Bea: 2 actions")
    ui.find("Score pad with Ann and Bo: 1 action")
    ui.screenshot("home_open_games")
    resume = [w for w in ui.app.root.walk() if isinstance(w, Button) and w.text == "Resume"
              and w.get_root_window() is not None]
    ui.tap(resume[-1])  # the second line: the score pad
    assert ui.app.sm.current == "game" and ui.app.session.rules.NAME == "scorepad"


# -- 3. nothing moves under a finger ----------------------------------------------------------


def test_home_tiles_keep_their_place_with_or_without_a_game_to_resume(ui):
    ui.goto_home()
    close_open_games(ui)
    screen = home(ui)
    assert screen.resume_text.startswith("No unfinished game")
    assert ui.find("Resume").disabled
    nothing_open = ui.buttons()
    assert ui.app.start_game("scorepad", TWO)
    assert ui.app.act({"type": "score", "seat": 2, "points": 1})
    screen = home(ui)
    offered = ui.buttons()
    ui.tap(ui.find("Not now"))
    after_not_now = ui.buttons()
    tiles = [t for t in nothing_open if "Crazy Time" in t or "Timer" in t or "History" in t]
    assert tiles
    for text in tiles:
        assert nothing_open[text] == offered[text] == after_not_now[text], text
    assert offered["Resume"] == nothing_open["Resume"] == after_not_now["Resume"]


def test_crazy_time_buttons_stay_put_when_a_guess_opens_and_closes(ui):
    ui.goto_home()
    assert ui.app.start_game("crazy_time", FOUR)
    ui.pump()
    before = ui.buttons()
    assert ui.app.act({"type": "round_won", "seat": 3})
    assert ui.app.act({"type": "new_law", "name": "High Noon", "when": "noon is called",
                       "what": "whistle", "creator": 3, "absent": 1})
    assert ui.app.act({"type": "accusation", "accuser": 2, "accused": 4, "law": "High Noon",
                       "correct": True})
    ui.app.clear_banner()
    ui.pump()
    assert not ui.find("Guess a law").disabled  # Ann may guess now
    during = ui.buttons()
    assert ui.app.act({"type": "guess", "seat": 1, "law": "High Noon", "correct": False})
    ui.pump()
    after = ui.buttons()
    for text in ("Stop Time!", "Temporal flaw", "Mistakes", "Round won", "Laws",
                 "Guess a law"):
        assert before[text] == during[text] == after[text], text
    undo = [k for k in during if k.startswith("Undo")]
    assert undo and during[undo[0]] == before["Undo"]


# -- 4. one tap is one action; counters count every tap ------------------------------------


def test_a_double_tap_on_stay_spends_one_time_unit(ui):
    ui.goto_home()
    assert ui.app.start_game("time_stories", ASYLUM)
    ui.pump()
    ui.double_tap(ui.find("Stay (1 TU)"))
    assert ui.app.session.snapshot()["tu"] == 24
    ui.tap(ui.find("Stay (1 TU)"))  # a deliberate second tap, a moment later, counts
    assert ui.app.session.snapshot()["tu"] == 23


def test_a_double_tap_on_next_in_the_story_setup_skips_nothing(ui):
    ui.goto_home()
    setup = {"players": ASYLUM["players"]}
    assert ui.app.start_game("time_stories", setup)
    ui.pump()
    panel = ui.app.sm.current_screen.control.setup
    assert panel is not None and panel.page == 0
    ui.double_tap(ui.find("Next >"))
    assert panel.page == 1, "the second touch of one tap must not turn a second page"


def test_fast_taps_on_a_counter_all_count(ui):
    from companion.ui.widgets import CounterButton

    ui.goto_home()
    assert ui.app.start_game("scorepad", TWO)
    ui.pump()
    plus = next(w for w in ui.app.sm.current_screen.walk()
                if isinstance(w, CounterButton) and w.text == "+1")
    for _ in range(7):
        ui.tap(plus, after_s=0.08)  # seven taps, 80 ms apart
    assert ui.app.session.snapshot()["totals"]["1"] == 7


def test_start_keeps_its_colour_after_a_refused_press(ui):
    from companion.ui import theme

    ui.goto_home()
    ui.app.choose_game("scorepad")
    ui.pump()
    start = ui.find("Start")
    for seat in (1, 2, 3, 4):
        ui.app.sm.current_screen.rows[seat].name_input.text = ""
    ui.tap(start)
    assert ui.app.sm.current == "players"
    assert tuple(start.background_color) == tuple(theme.GO), "Start must not turn grey"


# -- 5. messages where the table looks, lamps dark when a screen is left ---------------------


def test_a_refusal_shows_on_the_screen_and_goes_with_the_next_action(ui):
    ui.goto_home()
    assert ui.app.start_game("scorepad", TWO)
    ui.pump()
    assert not ui.app.act({"type": "score", "seat": 7, "points": 1})
    # in the notice band under the screen, its whole width taking the tap that closes it
    assert ui.app.banner_text and ui.app.banner.width >= 400
    ui.screenshot("banner_refusal")
    assert ui.app.act({"type": "score", "seat": 1, "points": 1})
    assert ui.app.banner_text == ""


def test_lamps_go_dark_when_the_slap_pad_hands_back_to_the_board(ui):
    from companion.events import PressEvent

    ui.goto_home()
    assert ui.app.start_game("crazy_time", FOUR)
    ui.pump()
    ui.tap(ui.find("Stop Time!"))
    slap = ui.app.sm.current_screen
    lamps = ui.app.table.lamps
    lit: dict[int, bool] = {}

    class Mirror:  # what the lamps were told (a blinking LED is on or off by chance)
        @staticmethod
        def set_lamp(seat, on):
            lit[seat] = on

    lamps.mirrors.append(Mirror)
    t0 = ui.app.table.now_ns() + 1_000 * MS  # after every press an earlier test made
    slap.arm(t0)
    for seat, ms in {1: 0, 2: 40, 3: 90, 4: 200}.items():
        slap.on_press_event(PressEvent(seat, t0 + ms * MS, "mock", True))
        slap.on_press_event(PressEvent(seat, t0 + (ms + 90) * MS, "mock", False))
    slap.on_frame(t0 + 5_000 * MS)
    ui.pump()
    try:
        assert slap.headline == "Dan picks up", slap.headline
        assert lit.get(4), "the loser's lamp blinks at the verdict"
        ui.tap(ui.find("Record"))
        assert ui.app.sm.current == "crazy_time"
        assert not any(lit.values()), "every lamp is dark on the board"
        assert not any(lamps.state(s) for s in ui.app.table.seats)
    finally:
        lamps.mirrors.remove(Mirror)


# -- 6. the slap pad tile never attaches to a game waiting for its new law ----------------------


def test_slap_pad_tile_beside_a_game_between_rounds_records_in_its_own_log(ui):
    from companion.events import PressEvent

    ui.goto_home()
    assert ui.app.start_game("crazy_time", FOUR)
    crazy = ui.app.session.game_id
    assert ui.app.act({"type": "round_won", "seat": 2})  # waiting for the new law
    from companion.ui.widgets import Tile

    screen = home(ui)
    ui.tap(ui.find("[b]Slap pad[/b]", kind=Tile))
    slap = ui.app.sm.current_screen
    assert slap.name == "slap" and slap.mode == "tool", ui.app.status
    t0 = ui.app.table.now_ns() + 1_000 * MS  # after every press an earlier test made
    slap.arm(t0)
    for seat in slap.round.seats:
        slap.on_press_event(PressEvent(seat, t0 + seat * 40 * MS, "mock", True))
        slap.on_press_event(PressEvent(seat, t0 + (seat * 40 + 90) * MS, "mock", False))
    slap.on_frame(t0 + 5_000 * MS)
    ui.pump()
    if slap.view.choices:  # some seats too late to count: the table names who picks up
        slap.choose(slap.view.choices[0].seat)
    assert slap.record(), ui.app.status
    assert ui.app.session.rules.NAME == "stop_time"
    ui.tap(ui.find("< Back"))
    assert ui.app.log.game(crazy).status == "open" and len(ui.app.log.actions(crazy)) == 1
    assert screen is ui.app.sm.current_screen


# -- 7. history stays clean ---------------------------------------------------------------


def test_backing_out_of_an_untouched_game_leaves_nothing(ui):
    ui.goto_home()
    before = len(ui.app.log.games())
    assert ui.app.start_game("time_stories", {"players": ASYLUM["players"]})
    ui.pump()
    ui.tap(ui.find("< Back"))
    assert ui.app.sm.current == "home" and ui.app.session is None
    assert len(ui.app.log.games()) == before


def test_a_won_game_is_finished_when_the_table_leaves_it(ui):
    ui.goto_home()
    assert ui.app.start_game("scorepad", TWO)
    game = ui.app.session.game_id
    assert ui.app.act({"type": "score", "seat": 1, "points": 3})
    assert ui.app.act({"type": "finish"})
    home(ui)
    assert ui.app.log.game(game).status == "finished"
    assert ui.app.sm.current_screen.resume_id != game


def test_starting_a_game_asks_before_putting_the_open_one_aside(ui):
    ui.goto_home()
    close_open_games(ui)
    assert ui.app.start_game("scorepad", TWO)
    game = ui.app.session.game_id
    assert ui.app.act({"type": "score", "seat": 1, "points": 1})
    home(ui)
    ui.tap(ui.find("Professor Tempus"))
    assert ui.app.sm.current == "home" and ui.app.question is not None
    ui.find("Score pad with Ann and Bo")
    ui.screenshot("home_ask_before_new_game")
    ui.tap(ui.find("Cancel"))
    assert ui.app.sm.current == "home"
    ui.tap(ui.find("Professor Tempus"))
    ui.tap(ui.find("End it"))
    assert ui.app.sm.current == "players"
    assert ui.app.log.game(game).status == "abandoned"


def test_an_empty_name_is_refused_in_a_sentence_and_a_fixed_name_clears_it(ui):
    ui.goto_home()
    ui.app.choose_game("scorepad")
    ui.pump()
    rows = ui.app.sm.current_screen.rows
    for seat, row in rows.items():
        row.toggle.state = "down" if seat <= 4 else "normal"
    for seat, name in ((1, "Ann"), (2, ""), (3, "Cy"), (4, "Di")):
        rows[seat].name_input.text = name
    ui.tap(ui.find("Start"))
    screen = ui.app.sm.current_screen
    assert screen.name == "players"
    # said once: in the banner, not again in the hint line nor in the status line
    assert ui.app.banner_text.startswith("Seat 2 is in play but has no name")
    assert screen.message == screen.HINT
    assert not [w for w in ui.app.root.walk() if w is not ui.app.banner and
                getattr(w, "text", "") == ui.app.banner_text and w.parent is not ui.app.banner]
    rows[2].name_input.text = "ANN"
    ui.pump()
    assert ui.app.banner_text == ("Seats 1 and 2 are both called ANN: give one of them "
                                  "another name.")
    rows[2].name_input.text = "Bo"
    ui.pump()
    assert ui.app.banner_text == "", "the banner goes once the names are fixed"
    assert screen.message == screen.HINT
