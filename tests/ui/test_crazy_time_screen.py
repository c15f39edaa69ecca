"""A Crazy Time game of four in the real window: slap pick-ups through the slap pad, a
wrong accusation, mistakes, "Tick, Tock", a round win, the new-law wizard, a guess, the
secret kept from the absent player, and the Grand Master of Time."""

from __future__ import annotations

import pytest

from companion.events import PressEvent

pytestmark = pytest.mark.window

MS = 1_000_000
PLAYERS = [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]
WHEN = "someone calls noon"
WHAT = "everyone whistles a tune"


@pytest.fixture
def cues(ui, monkeypatch):
    played = []
    monkeypatch.setattr(ui.app.cues, "play", lambda name: played.append(name) or True)
    return played


def texts(ui) -> str:
    """Every text on the window now."""
    return "\n".join(str(getattr(w, "text", "")) for w in ui.app.root.walk())


def seat_option(ui, seat):
    """The answer button of ``seat`` in the question shown."""
    answers = ui.app.sm.current_screen.ids.answers
    ui.pump()
    return next(w for w in answers.children[0].children if getattr(w, "seat", 0) == seat)


def pickups(ui):
    return ui.app.session.snapshot()["pickups"]


def slaps(screen, t0, slaps_ms):
    for seat, ms in slaps_ms.items():
        t = t0 + round(ms * MS)
        screen.on_press_event(PressEvent(seat, t, "mock", True))
        screen.on_press_event(PressEvent(seat, t + 90 * MS, "mock", False))


def type_on_keys(ui, text):
    """Type ``text`` on the screen's own keyboard, key by key (fast, as a person does)."""
    keyboard = ui.app.sm.current_screen.ids.keyboard
    for letter in text:
        key = "Space" if letter == " " else letter.lower()
        if letter.isupper() != keyboard.shift and letter.isalpha():
            ui.tap(keyboard.keys["Shift"], after_s=0.05)
        ui.tap(keyboard.keys[key], after_s=0.05)


def test_a_game_of_crazy_time(ui, cues):
    from companion.ui.widgets import BigButton  # Kivy is imported only once ui set it up

    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": PLAYERS})
    ui.pump()
    screen = ui.app.sm.current_screen
    assert screen.name == "crazy_time"
    assert screen.heading == "Crazy Time: round 1 of 4"
    ui.find("Dealer: Ann")
    ui.find("15 cards each")
    assert ui.find("Guess a law").disabled  # nobody may guess yet: it keeps its place
    ui.screenshot("crazy_board_start")

    # "Stop Time!": the slap pad opens armed; Dan is last.
    ui.tap(ui.find("Stop Time!"))
    slap = ui.app.sm.current_screen
    assert slap.name == "slap" and slap.mode == "crazy" and slap.round.phase == "armed"
    assert slap.round.seats == (1, 2, 3, 4)
    t0 = ui.app.table.now_ns() - 20_000 * MS
    slap.arm(t0)
    slaps(slap, t0, {1: 0, 2: 35, 3: 80, 4: 210})
    slap.on_frame(t0 + 5_000 * MS)
    ui.pump()
    assert slap.headline == "Dan picks up"
    ui.tap(ui.find("Record"))
    assert ui.app.sm.current == "crazy_time"
    p = pickups(ui)[-1]
    assert (p["seat"], p["reason"], p["decision"]) == (4, "slap", "verdict")
    ui.find("Dan: last to slap")

    # A seat button on the board is a slap: Bob's press opens the round; only Ann follows,
    # and the table says nobody should have slapped: Ann, the last of them, picks up.
    ui.press_seat("2")
    assert ui.app.sm.current == "slap" and set(slap.round.live) == {2}
    first = slap.round.live[2]
    slaps(slap, first, {1: 120})
    slap.on_frame(first + 5_000 * MS)
    ui.pump()
    ui.tap(ui.find("False alarm"))
    assert slap.headline == "False alarm: Ann picks up"
    ui.tap(ui.find("Record"))
    assert ui.app.sm.current == "crazy_time"
    assert (pickups(ui)[-1]["seat"], pickups(ui)[-1]["reason"]) == (1, "false_slap")
    slap.round.arbiter.disarm()  # judged 5 s ahead of the clock: the presses below are new

    # A wrong accusation: Bob accuses Cara (Cara answers with her own button).
    ui.tap(ui.find("Temporal flaw"))
    ui.tap(seat_option(ui, 2))
    ui.press_seat("3")
    assert screen.page == "question" and "Which law" in screen.q_title
    ui.screenshot("crazy_accusation_law")
    ui.tap(ui.find("Time Machine"))
    ui.tap(ui.find("No: Bob was wrong"))
    p = pickups(ui)[-1]
    assert (p["seat"], p["reason"], p["accuser"], p["law"]) == (2, "wrong_accusation", 2,
                                                                  "Time Machine")
    assert screen.page == "board" and ui.find("Bob: wrong accusation (Time Machine)")

    # The three verdicts all in sight at 800x480, none under a finger's 64 px.
    ui.tap(ui.find("Temporal flaw"))
    ui.tap(seat_option(ui, 1))
    ui.tap(seat_option(ui, 3))
    ui.tap(ui.find("Synchronisation"))
    ui.pump()
    answers = screen.ids.answers
    shown = answers.children[0].children
    assert len(shown) == 3 and answers.children[0].height <= answers.height + 1
    assert all(b.height >= 64 for b in shown)
    ui.screenshot("crazy_verdict_question")
    ui.tap(ui.find("Yes, but others have played since"))
    assert "Who played last" in screen.q_title
    ui.tap(seat_option(ui, 4))
    p = pickups(ui)[-1]
    assert (p["seat"], p["reason"], p["accuser"], p["erred"]) == (4, "temporal_flaw", 1, [3])

    # Several erred: Ann, then Dan; Dan picks up.
    ui.tap(ui.find("Mistakes"))
    ui.tap(seat_option(ui, 1))
    ui.press_seat("4")
    assert screen.q_hint == "Ann then Dan: Dan picks up"  # names, not numbers
    ui.tap(ui.find("Next"))
    ui.find("What went wrong? Dan picks up")
    ui.tap(ui.find("Wrong hour"))
    p = pickups(ui)[-1]
    assert (p["seat"], p["erred"], p["rule"]) == (4, [1, 4], "Wrong hour")

    # "Tick, Tock" at Cara: a word a second, driven by the frame times.
    ui.tap(ui.find("Tick, Tock"))
    ui.tap(seat_option(ui, 3))
    metro = screen.control.metro
    if metro["start"] is None:  # the app's frame loop may have started it already
        screen.on_frame(ui.app.table.now_ns())
    start = metro["start"]
    screen.on_frame(start)
    assert screen.word == "Tick" and cues[-1] == "tick"
    screen.on_frame(start + 1_000 * MS)
    assert screen.word == "Tock" and cues[-1] == "tock"
    ui.screenshot("crazy_tick_tock")
    screen.on_frame(start + 4_000 * MS)
    assert ui.app.session.snapshot()["tick_tocks"] == [{"round": 1, "seat": 3}]
    assert screen.page == "board"
    ui.pump()
    ui.screenshot("crazy_board_pickups")

    # Cara wins round 1; Ann leaves the room; Cara types the law on the screen's keys.
    ui.tap(ui.find("Round won"))
    ui.tap(seat_option(ui, 3))
    assert screen.q_title == "Cara won round 1: who leaves the room?"
    ui.screenshot("crazy_wizard_absent")
    ui.tap(seat_option(ui, 1))
    ui.tap(ui.find("Everyone will know the name"))
    assert screen.typing and screen.ids.stage.current == "typing"
    type_on_keys(ui, "High Noon")
    ui.tap(ui.find("Next", kind=BigButton))
    keyboard = screen.ids.keyboard
    assert keyboard.shift  # a capital to begin with
    type_on_keys(ui, WHEN)
    ui.tap(keyboard.keys["Space"])
    assert not keyboard.shift  # a sentence: no capital at each word (a name has one)
    ui.tap(keyboard.keys["Erase"])
    ui.screenshot("crazy_wizard_typing")
    ui.tap(ui.find("Next", kind=BigButton))
    type_on_keys(ui, WHAT)
    ui.tap(ui.find("Done"))
    assert not screen.typing and screen.law_texts == ["High Noon", WHEN, WHAT]
    ui.screenshot("crazy_wizard_text")
    ui.tap(ui.find("Record the law"))
    state = ui.app.session.snapshot()
    assert state["round"] == 2 and state["laws"][-1]["absent"] == 1
    # the message is the screen's own, above the news: the buttons stay free to tap
    message = ui.find("Call Ann back")
    assert ui.app.banner_text == ""
    for text in ("Stop Time!", "Temporal flaw"):
        button = ui.find(text)
        assert message.y >= button.top or message.right <= button.x, text
    assert WHEN not in texts(ui)  # the shared screen hides it
    assert screen.heading == "Crazy Time: round 2 of 4"
    ui.screenshot("crazy_board_round2")
    ui.tap(message)
    assert screen.call_back == "" and "Call Ann back" not in texts(ui)

    # Who is looking? Ann (out of the room) never sees the secret; Bob does.
    ui.tap(ui.find("Laws", kind=BigButton))
    ui.press_seat("1")
    assert "for Ann" in screen.laws_text and "Hidden from you" in screen.laws_text
    assert WHEN not in texts(ui)
    ui.screenshot("crazy_laws_ann")
    ui.tap(ui.find("Done"))
    ui.tap(ui.find("Laws", kind=BigButton))
    ui.tap(seat_option(ui, 2))
    assert WHEN in texts(ui) and WHAT in texts(ui)
    ui.screenshot("crazy_laws_bob")
    ui.tap(ui.find("Done"))
    assert WHEN not in texts(ui)

    # Dan is caught by High Noon: Ann may now guess it, and is right.
    ui.app.act({"type": "accusation", "accuser": 2, "accused": 4, "law": "High Noon",
                "correct": True})
    ui.pump()
    ui.tap(ui.find("Guess a law"))
    ui.tap(ui.find("Ann guesses High Noon"))
    ui.tap(ui.find("Right"))
    ui.tap(ui.find("No, cards are left"))
    guess = ui.app.session.snapshot()["guesses"][-1]
    assert (guess["seat"], guess["correct"], guess["removed"]) == (1, True, 5)
    ui.find("Ann guessed High Noon: right")  # the table sees the guess was recorded
    ui.screenshot("crazy_guess_right")

    # Undo takes back the guess.
    ui.tap(ui.find("Undo"))
    assert ui.app.session.snapshot()["guesses"] == []


def test_the_end_of_the_game_crowns_the_grand_master(ui):
    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": PLAYERS})
    for rnd, (winner, absent) in enumerate(((3, 1), (2, 3), (2, 4)), start=1):
        assert ui.app.act({"type": "pickup", "seat": 4 - rnd % 2, "reason": "temporal_flaw"})
        assert ui.app.act({"type": "round_won", "seat": winner})
        assert ui.app.act({"type": "new_law", "name": f"Law {rnd}", "when": "w" * 9,
                           "what": "x" * 9, "creator": winner, "absent": absent})
    assert ui.app.act({"type": "pickup", "seat": 1, "reason": "slap"})
    assert ui.app.act({"type": "round_won", "seat": 4})
    ui.pump()
    screen = ui.app.sm.current_screen
    assert screen.page == "end"
    ui.find("Grand Master of Time: Dan")
    chart = screen.ids.chart
    assert chart.rounds == [1, 2, 3, 4] and len(chart.bars) == 16
    path, colours = ui.screenshot("crazy_end")
    assert colours > 8
    ui.tap(ui.find("Undo"))
    assert screen.page == "board" and screen.heading == "Crazy Time: round 4 of 4"
    ui.app.act({"type": "round_won", "seat": 4})
    ui.pump()
    ui.tap(ui.find("Finish game"))
    assert ui.app.sm.current == "home" and ui.app.session is None


# --------------------------------------------------------------- the presenter, no window


def game_view(*actions, viewer=None):
    from functools import reduce

    from companion.games import crazy_time as ct
    from companion.ui.presenters.crazy_time_view import view

    return view(reduce(ct.apply, actions, ct.initial({"players": PLAYERS})), viewer)


LAW = {"type": "new_law", "name": "High Noon", "when": WHEN, "what": WHAT, "creator": 3,
       "absent": 1}


def test_metronome_says_four_words_a_second_apart():
    from companion.ui.presenters import crazy_time as cp

    t0 = 7_000 * MS
    steps = [cp.metronome(t0, t0 + ms * MS) for ms in (0, 999, 1000, 2500, 3999, 4000)]
    assert steps == [(0, "Tick", False), (0, "Tick", False), (1, "Tock", False),
                     (2, "Tick", False), (3, "Tock", False), (3, None, True)]
    assert cp.metronome(t0, t0 - MS) == (0, "Tick", False)  # a frame stamped early
    assert [cp.cue(b) for b in range(4)] == ["tick", "tock", "tick", "tock"]


def test_board_lines_reveal_reminder_and_pickups():
    from companion.ui.presenters import crazy_time as cp

    v = game_view({"type": "round_won", "seat": 3}, LAW)
    b = cp.board(v)
    assert b.title == "Crazy Time: round 2 of 4" and b.lead.text == "Cara"
    assert b.facts == "Dealer: Cara  ·  15 cards each" and b.won == "Won: Cara (round 1)"
    assert b.notice.startswith("Before play: Cara turns up one card")
    assert b.laws == ("Time Machine", "Synchronisation", "High Noon (round 2+)")
    v = game_view({"type": "round_won", "seat": 3}, LAW,
                  {"type": "mistakes", "seats": [1, 2, 4], "law": "High Noon"})
    b = cp.board(v)
    assert b.pickups[-1].text == "Dan: temporal flaw (High Noon) after seats 1, 2"
    assert b.notice.startswith("Dan gathers every discard pile") and b.can_guess
    assert cp.guess_options(v) == [("Ann guesses High Noon", 1, "High Noon")]


def test_a_guess_right_or_wrong_is_what_the_board_says_until_the_next_pick_up():
    from companion.ui.presenters import crazy_time as cp

    caught = {"type": "mistakes", "seats": [2, 4], "law": "High Noon"}
    start = ({"type": "round_won", "seat": 3}, LAW, caught)
    wrong = cp.board(game_view(*start, {"type": "guess", "seat": 1, "law": "High Noon",
                                        "correct": False}))
    assert wrong.notice == "Ann's guess for High Noon is wrong"
    assert "after the next pick-up because of High Noon" in wrong.notice_more
    again = (*start, {"type": "guess", "seat": 1, "law": "High Noon", "correct": False},
             caught, {"type": "guess", "seat": 1, "law": "High Noon", "correct": True})
    right = cp.board(game_view(*again))
    assert right.notice == "Ann guessed High Noon: right"
    assert right.notice_more == "Ann takes 5 cards off their draw pile and puts them in the box."
    later = cp.board(game_view(*again, {"type": "pickup", "seat": 2,
                                        "reason": "temporal_flaw"}))
    assert later.notice.startswith("Bob gathers every discard pile")


def test_law_cards_keep_the_secret_from_the_absent_player():
    from companion.ui.presenters import crazy_time as cp

    ann = cp.law_cards(game_view({"type": "round_won", "seat": 3}, LAW, viewer=1))[-1]
    assert (ann.hidden, ann.when, ann.what) == (True, None, None)
    bob = cp.law_cards(game_view({"type": "round_won", "seat": 3}, LAW, viewer=2))[-1]
    assert (bob.when, bob.what) == (WHEN, WHAT) and "Ann was out of the room" in bob.by


def test_chart_bars_are_scaled_to_the_most_pickups():
    from companion.ui.presenters import crazy_time as cp

    v = game_view(*[{"type": "pickup", "seat": 2, "reason": "slap"}] * 4,
                  {"type": "pickup", "seat": 1, "reason": "slap"})
    rounds, bars = cp.chart(v)
    assert rounds == [1] and [(b.seat, b.count, b.height) for b in bars] == [
        (1, 1, 0.25), (2, 4, 1.0), (3, 0, 0.0), (4, 0, 0.0)]


# ------------------------------------------------- readable from across the table (review)

SEVEN = [{"name": n, "seat": i + 1} for i, n in enumerate(
    ["Ann", "Bob", "Cara", "Dan", "Evangelina", "Fred", "Gwendolyn"])]


def test_refusals_are_said_in_the_screens_own_lines(ui):
    from companion.ui.widgets import BigButton

    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": PLAYERS})
    ui.pump()
    screen = ui.app.sm.current_screen

    # "Mistakes" then "Next" with nobody chosen says what to do, in the question.
    ui.tap(ui.find("Mistakes"))
    ui.tap(ui.find("Next"))
    assert screen.q_hint == "Tap the players who erred, in order" and pickups(ui) == []
    ui.find("Tap the players who erred, in order")
    ui.tap(ui.find("Cancel"))

    # The new law: an empty name or a taken one is refused in the engine's words, in
    # the form under the fields; typing again answers it.
    ui.tap(ui.find("Round won"))
    ui.tap(seat_option(ui, 3))
    ui.tap(seat_option(ui, 1))
    ui.tap(ui.find("Record the law"))
    assert screen.law_note == "Write the law's name first." and ui.app.banner_text == ""
    ui.screenshot("crazy_law_refused")
    ui.tap(ui.find("What must be done"))  # a tap on another field: the note stays
    assert screen.law_note == "Write the law's name first."
    ui.tap(ui.find("Done"))
    ui.tap(ui.find("Everyone will know the name"))
    type_on_keys(ui, "Time machine")
    assert screen.law_note == ""
    ui.tap(ui.find("Done"))
    ui.tap(ui.find("Record the law"))
    assert screen.law_note == ("There is already a Law of Time called Time Machine: "
                               "choose another name.")
    ui.tap(ui.find("Time machine"))
    for _ in range(len("machine")):
        ui.tap(screen.ids.keyboard.keys["Erase"], after_s=0.05)
    type_on_keys(ui, "Noon")
    ui.tap(ui.find("Next", kind=BigButton))
    type_on_keys(ui, "w")
    ui.tap(ui.find("Done"))
    ui.tap(ui.find("Record the law"))
    assert screen.law_note == "Write what must be done (What?) first."
    assert ui.app.session.snapshot()["round"] == 1
    ui.tap(ui.find("What must be done"))
    type_on_keys(ui, "x")
    ui.tap(ui.find("Done"))
    ui.tap(ui.find("Record the law"))
    law = ui.app.session.snapshot()["laws"][-1]
    assert (law["name"], law["when"], law["what"]) == ("Time Noon", "w", "x")


def test_board_lines_are_large_and_never_cut(ui):
    from kivy.uix.label import Label

    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": SEVEN})
    for rnd, (winner, absent) in enumerate(((3, 1), (5, 2)), start=1):
        assert ui.app.act({"type": "round_won", "seat": winner})
        assert ui.app.act({"type": "new_law", "name": f"Law number {rnd}", "when": "w",
                           "what": "x", "creator": winner, "absent": absent})
    assert ui.app.act({"type": "mistakes", "seats": [7, 5], "law": "Law number 1"})
    for seat in (1, 2, 3):
        assert ui.app.act({"type": "pickup", "seat": seat, "reason": "slap"})
    ui.pump()
    screen = ui.app.sm.current_screen
    for text in ("Cara gathers every discard pile", "Laws:", "Won: Cara (round 1)",
                 "They keep up to 5 cards"):
        label = ui.find(text, kind=Label)
        assert label.font_size >= 22 and not label.shorten, text
    ui.pump()
    rv = screen.ids.pickups
    rows = sorted((w for w in rv.children[0].children if getattr(w, "text", "")),
                  key=lambda w: -w.top)
    newest = rows[0]
    assert newest.size_px == 28 and newest.text.startswith("Cara: last to slap")
    _x, rv_bottom = rv.to_window(rv.x, rv.y)
    whole = [w for w in rows if w.to_window(w.x, w.y)[1] >= rv_bottom - 1]
    ui.screenshot("crazy_board_seven")
    assert len(whole) >= 3, "the newest three pick-ups lie whole in the list"


def test_the_end_lists_seven_players_below_the_headline(ui):
    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": SEVEN})
    for rnd, (winner, absent) in enumerate(((3, 1), (5, 2), (7, 4)), start=1):
        assert ui.app.act({"type": "pickup", "seat": rnd + 1, "reason": "slap"})
        assert ui.app.act({"type": "round_won", "seat": winner})
        assert ui.app.act({"type": "new_law", "name": f"Law {rnd}", "when": "w", "what": "x",
                           "creator": winner, "absent": absent})
    assert ui.app.act({"type": "round_won", "seat": 6})
    ui.pump()
    screen = ui.app.sm.current_screen
    assert screen.page == "end"
    headline = ui.find("Grand Master of Time: Fred")
    rows = [w for w in screen.ids.end_rows.children[0].children if hasattr(w, "wins")]
    assert sorted(r.seat for r in rows) == list(range(1, 8))
    finish = ui.find("Finish game")  # the buttons sit at the bottom of the panel
    below_headline = headline.to_window(headline.x, headline.y)[1]
    bottom_bar = finish.to_window(finish.x, finish.y)[1]
    for row in rows:
        _x, y = row.to_window(row.x, row.y)
        assert y + row.height <= below_headline + 1 and y >= bottom_bar - 1
        assert row.height >= 36
    ui.find("Evangelina")
    ui.screenshot("crazy_end_seven")


# ------------------------------------------------- every page through the layout check

@pytest.fixture(params=[(800, 480), (1024, 600), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def size(request, ui):
    with ui.sized(request.param) as shown:
        yield shown


def test_every_page_is_whole_and_covers_nothing(ui, size):
    """Each page with 20-letter names at each size: nothing cut, nothing over another,
    buttons a finger wide at 800x480 (``tests/layout_check.py``)."""
    from layout_check import FOUR as LONG_FOUR
    from layout_check import problems

    from companion.ui.widgets import BigButton

    def check(name):
        ui.pump(3)
        ui.screenshot(f"crazy_page_{name}_{size[0]}x{size[1]}")
        found = problems(ui.app.root, min_target=64 if size == (800, 480) else None)
        assert not found, name + ":\n" + "\n".join(found)

    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": LONG_FOUR})
    screen = ui.app.sm.current_screen
    ui.pump()
    ui.tap(ui.find("Mistakes"))
    ui.tap(seat_option(ui, 2))
    ui.tap(seat_option(ui, 4))
    check("mistakes")
    ui.tap(ui.find("Next"))
    check("what_went_wrong")
    ui.tap(ui.find("Wrong hour"))
    ui.tap(ui.find("Round won"))
    ui.tap(seat_option(ui, 3))
    check("who_leaves")
    ui.tap(seat_option(ui, 1))
    ui.tap(ui.find("Record the law"))
    check("law_refused")
    ui.tap(ui.find("What must be done"))
    check("typing")
    screen.ids.typed.insert_text("x" * 90)
    check("typing_long")
    ui.tap(ui.find("Done"))
    for field, text in (("name", "The Law of " + LONG_FOUR[1]["name"]), ("when", "w " * 45)):
        screen.type_field(field)
        screen.ids.typed.insert_text(text)
    screen.stop_typing()
    check("law_filled")
    ui.tap(ui.find("Record the law"))
    assert screen.call_back
    check("call_back")
    ui.tap(ui.find("Laws", kind=BigButton))
    ui.tap(seat_option(ui, 2))
    check("laws")
    ui.tap(ui.find("Done"))
    ui.tap(ui.find("Tick, Tock"))
    ui.tap(seat_option(ui, 4))
    check("metronome")
    ui.tap(ui.find("Stop counting"))
    ui.app.end_game("abandoned", ask=False)
