"""The Stop Time slap pad in the real window: keyboard slaps, verdicts, the table's
decisions, recording in the slap pad's own log, undo."""

from __future__ import annotations

import pytest

from companion.events import PressEvent
from companion.ui.slap_sessions import last_names as real_last_names

pytestmark = pytest.mark.window

MS = 1_000_000


@pytest.fixture
def cues(ui, monkeypatch):
    """The cues the screen asks for (the test app's silent loader plays nothing)."""
    played = []
    monkeypatch.setattr(ui.app.cues, "play", lambda name: played.append(name) or True)
    return played


@pytest.fixture(autouse=True)
def seat_numbers(monkeypatch):
    """These tests read seats by number: the slap pad's own log takes no names from the
    games the other tests logged (``test_the_slap_pad_log_takes_tonight_s_names``)."""
    from companion.ui import slap_sessions

    monkeypatch.setattr(slap_sessions, "last_names", lambda app: {})


def pump_until(ui, cond, frames=400, seconds=10.0):
    """Frames until ``cond()`` holds: at least ``frames`` of them, and while the table's
    clock has not run ``seconds`` (a verdict waits ``settle_ns`` after the last slap)."""
    import time

    deadline = time.monotonic() + seconds
    n = 0
    while n < frames or time.monotonic() < deadline:
        if cond():
            return
        ui.pump(1)
        n += 1
    raise AssertionError(f"the screen never got there: "
                         f"{ui.app.sm.current_screen.headline!r} {ui.app.status!r}")


def open_tool(ui, seats):
    return ui.open_slap_tool(seats)


def slap_stream(screen, t0, slaps_ms, source="mock"):
    """Feed one press and release per seat, stamped ``t0 + ms``."""
    for seat, ms in slaps_ms.items():
        t = t0 + round(ms * MS)
        screen.on_press_event(PressEvent(seat, t, source, True))
        screen.on_press_event(PressEvent(seat, t + 80 * MS, source, False))


def test_keyboard_round_names_the_last_slapper_and_is_logged(ui, cues):
    screen = open_tool(ui, (1, 2))
    ui.screenshot("slap_idle")
    ui.tap(screen.face)
    assert screen.round.phase == "armed" and ui.find("Armed: slap!")
    ui.press_seat("1")
    assert screen.round.phase == "open" and ui.app.table.lamps.state(1)
    assert screen.headline == "1 of 2 slapped"
    ui.screenshot("slap_open")
    first = min(screen.round.live.values())
    pump_until(ui, lambda: ui.app.table.now_ns() - first > 45 * MS)
    ui.press_seat("2")
    pump_until(ui, lambda: screen.round.phase == "verdict")
    assert screen.headline == "Seat 2 picks up", screen.headline
    assert cues.count("slap") == 2 and cues[-1] == "verdict"
    ui.screenshot("slap_verdict_keyboard")
    ui.tap(ui.find("Record"))
    session = ui.app.session
    assert session.rules.NAME == "stop_time"
    assert [p["seat"] for p in session.snapshot()["players"]] == [1, 2]
    (rnd,) = session.snapshot()["rounds"]
    assert (rnd["picker"], rnd["decision"]) == (2, "verdict")
    assert rnd["ranking"][1]["delay_ms"] > 40
    assert screen.round.phase == "idle" and "ms" in ui.find("Round 1: ").text  # (a name, if known)


def test_false_alarm_too_close_captain_and_undo(ui, monkeypatch, cues):
    screen = open_tool(ui, (1, 2, 3, 4))
    blinks = []
    monkeypatch.setattr(ui.app.table.lamps, "blink", lambda seat, *a, **k: blinks.append(seat))

    # Seats 1 and 2 slap; 3 and 4 rightly do not: the table calls a false alarm.
    t0 = ui.app.table.now_ns() - 20_000 * MS
    screen.arm(t0)
    slap_stream(screen, t0, {1: 100, 2: 160})
    screen.on_frame(t0 + 5_000 * MS)
    ui.pump()
    assert screen.headline == "Seat 3 and seat 4 never slapped — tap who picks up"
    assert blinks[-2:] == [3, 4]
    assert ui.find("Record").disabled
    ui.screenshot("slap_non_slappers")
    ui.tap(ui.find("False alarm"))
    assert screen.headline == "False alarm: Seat 2 picks up" and blinks[-1] == 2
    ui.press_seat("spacebar")  # the captain button records a named picker
    snap = ui.app.session.snapshot()
    assert [p["seat"] for p in snap["players"]] == [1, 2, 3, 4]  # seats changed: a new log
    before = len(snap["rounds"])
    assert (snap["rounds"][-1]["picker"], snap["rounds"][-1]["decision"]) == (2, "false_alarm")

    # The captain arms the next round; the last two slap 0.4 ms apart (bound 1 ms).
    ui.press_seat("spacebar")
    assert screen.round.phase == "armed"
    t1 = ui.app.table.now_ns() - 10_000 * MS
    screen.arm(t1)
    slap_stream(screen, t1, {4: 0, 1: 55, 3: 130.0, 2: 130.4})
    screen.on_frame(t1 + 5_000 * MS)
    ui.pump()
    assert screen.headline == "Too close to call: seat 2 or seat 3 — tap who picks up"
    assert cues[-1] == "too_close"
    ui.screenshot("slap_too_close")
    chip = next(c for c in screen.ids.side.walk() if getattr(c, "seat", 0) == 3
                and hasattr(c, "lit"))
    ui.tap(chip)
    assert screen.headline == "Seat 3 picks up" and screen.detail == "The table's call."
    ui.screenshot("slap_too_close_chosen")
    ui.tap(ui.find("Record"))
    rounds = ui.app.session.snapshot()["rounds"]
    assert (rounds[-1]["picker"], rounds[-1]["decision"]) == (3, "table")
    assert [r["seat"] for r in rounds[-1]["ranking"]] == [4, 1, 3, 2]
    assert ui.find("table's call")

    ui.tap(ui.find("Undo"))
    assert len(ui.app.session.snapshot()["rounds"]) == before
    assert "Undone" in ui.app.status


def test_a_slap_with_nothing_armed_opens_the_round_and_a_held_button_is_told(ui):
    screen = open_tool(ui, (1, 2, 3))
    ui.press_seat("3")  # nothing armed: the slap opens the round and counts in it
    assert screen.round.phase == "open" and set(screen.round.live) == {3}
    assert ui.app.table.lamps.state(3) and screen.headline == "1 of 3 slapped"
    ui.tap(ui.find("Cancel"))
    assert screen.round.phase == "idle"
    ui.app.table.key_down("2")  # a slap that opens a round, and stays down
    ui.pump(2)
    assert screen.round.phase == "open"
    ui.tap(ui.find("Cancel"))
    ui.tap(screen.face)  # armed again while seat 2 is still held down
    assert "Seat 2: button held down" in ui.app.status
    ui.app.table.key_up("2")
    ui.pump(2)
    ui.tap(ui.find("Cancel"))
    assert screen.round.phase == "idle"


def test_a_pad_restart_mid_round_is_told_and_the_round_armed_again(ui):
    from companion.pad.linkevents import VOID_WORDS, PadRebooted

    screen = open_tool(ui, (1, 2))
    t0 = ui.app.table.now_ns() - 10_000 * MS
    screen.arm(t0)
    slap_stream(screen, t0, {1: 0}, source="pad")
    screen.on_frame(t0 + 100 * MS)  # the frame that brought the slap
    assert screen.round.phase == "open"
    ui.app._pad_notice(screen, PadRebooted(VOID_WORDS["reboot"], detail="boot a -> b"))
    ui.pump(2)
    assert ui.app.banner_text.startswith("The slap pad restarted: this round does not "
                                         "count. Slap again.")
    assert screen.round.phase == "idle" and screen.headline == "Slap again!"
    ui.screenshot("slap_pad_restarted")
    screen.on_frame(t0 + 5_000 * MS)  # the voided round never gives a verdict
    assert screen.round.verdict is None
    ui.app.clear_banner()


def test_a_frame_s_presses_are_fed_as_one_batch_in_that_frame(ui, monkeypatch):
    screen = open_tool(ui, (1, 2, 3))
    t0 = ui.app.table.now_ns() - 10_000 * MS
    screen.arm(t0)
    calls = []
    arbiter = screen.round.arbiter
    feed_many, feed = arbiter.feed_many, arbiter.feed
    monkeypatch.setattr(arbiter, "feed_many", lambda evs: calls.append(list(evs)) or
                        feed_many(evs))
    monkeypatch.setattr(arbiter, "feed", lambda ev: calls.append(ev) or feed(ev))

    slap_stream(screen, t0, {1: 100, 2: 160})
    assert calls == [] and screen.round.phase == "armed" and screen.frames_wanted()
    screen.on_frame(t0 + 300 * MS)  # the same frame: lamps and timeline at once
    assert len(calls) == 1 and len(calls[0]) == 4
    assert screen.round.phase == "open" and set(screen.round.live) == {1, 2}
    assert ui.app.table.lamps.state(1) and ui.app.table.lamps.state(2)
    assert not ui.app.table.lamps.state(3)

    slap_stream(screen, t0, {3: 400})
    screen.on_frame(t0 + 5_000 * MS)  # the last slap and the verdict in one frame
    assert len(calls) == 2 and screen.round.phase == "verdict"
    assert screen.round.verdict.picker == 3 and screen.round.verdict.slappers == (1, 2, 3)
    assert not screen.round.waiting and not screen.frames_wanted()
    screen.cancel()  # discard: leave the shared window idle


def test_the_captain_button_arms_and_records_the_verdict(ui):
    screen = open_tool(ui, (1, 2))
    now = ui.app.table.now_ns() - 10_000 * MS
    screen.on_press_event(PressEvent(0, now, "mock", True))  # the captain arms
    assert screen.round.phase == "armed" and screen.round.opened_by == "captain"
    slap_stream(screen, now, {1: 30, 2: 90})
    screen.on_frame(now + 5_000 * MS)
    assert screen.round.phase == "verdict" and screen.round.decided == (2, "verdict")
    screen.on_press_event(PressEvent(0, now + 5_100 * MS, "mock", True))  # and records
    assert screen.round.phase == "idle" and screen.round.last.picker == 2
    assert ui.app.session.snapshot()["rounds"][-1]["picker"] == 2


def test_a_release_while_another_screen_shows_reaches_the_arbiter(ui):
    """A hand on the button when the screen changes, lifted on another screen: the seat
    is not "held" in the next round, so it can be named when it slaps last."""
    screen = open_tool(ui, (1, 2))
    ui.app.table.key_down("1")
    ui.pump(2)
    ui.app.navigate("home")
    ui.pump(2)
    ui.app.table.key_up("1")  # lifted while Home shows
    ui.pump(2)
    ui.app.navigate("slap")
    ui.pump(2)
    t0 = ui.app.table.now_ns()
    screen.arm(t0)
    assert "held" not in ui.app.status
    slap_stream(screen, t0, {2: 100, 1: 180})
    screen.on_frame(t0 + 5_000 * MS)
    assert screen.round.verdict.certain and screen.round.verdict.picker == 1
    screen.cancel()


def test_a_slap_of_a_recorded_round_that_arrives_late_is_told_and_corrected(ui):
    from companion.pad.link import PadPress

    screen = open_tool(ui, (1, 2, 3))
    t0 = ui.app.table.now_ns() - 30_000 * MS
    screen.arm(t0)
    slap_stream(screen, t0, {1: 100, 2: 160})
    screen.on_frame(t0 + 3_000 * MS)
    ui.pump()
    assert screen.round.verdict.picker == 3 and screen.headline == "Seat 3 picks up"
    ui.tap(ui.find("Record"))
    before = len(ui.app.session.snapshot()["rounds"])
    # Seat 3's pad press, stamped inside the round (at +120 ms), arrives now.
    screen.on_press_event(PadPress(3, t0 + 120 * MS, "pad", True, 100_000, 0, ("pad", 1, 1)))
    screen.on_press_event(PadPress(3, t0 + 190 * MS, "pad", False, 100_000, 0, ("pad", 1, 1)))
    screen.on_frame(t0 + 3_100 * MS)
    ui.pump()
    assert "may be wrong" in ui.app.banner_text and "(Seat 3)" in ui.app.banner_text
    assert screen.round.phase == "verdict" and screen.headline == "Seat 2 picks up"
    ui.tap(ui.find("Record"))  # the correction: the recorded round is undone, recorded anew
    rounds = ui.app.session.snapshot()["rounds"]
    assert len(rounds) == before and rounds[-1]["picker"] == 2
    assert [r["seat"] for r in rounds[-1]["ranking"]] == [1, 3, 2]


def test_a_quiet_pad_leaves_the_table_to_decide_and_its_late_slap_redoes_the_verdict(ui):
    from types import SimpleNamespace

    from companion.pad.link import PadPress

    pad = SimpleNamespace(watermark_ns=None, resolution_ns=100_000, drain=lambda: [],
                          source=SimpleNamespace(status=SimpleNamespace(state="ready")),
                          stop=lambda: None)
    screen = open_tool(ui, (1, 2, 3))
    ui.app.pad = pad
    try:
        t0 = ui.app.table.now_ns() - 30_000 * MS
        screen.arm(t0)
        slap_stream(screen, t0, {1: 100, 2: 160})
        pad.watermark_ns = t0 + 50 * MS  # the pad's last word, then silence
        screen.on_frame(t0 + 100 * MS + 2_500 * MS + 120 * MS)
        assert screen.round.verdict is None  # waiting for the pad, within the bounded wait
        screen.on_frame(t0 + 100 * MS + 2_500 * MS + 120 * MS + 1_000 * MS)
        verdict = screen.round.verdict
        assert not verdict.certain and dict(verdict.excluded) == {3: "quiet"}
        assert "The slap pad went quiet during the round: the table decides" in ui.app.status
        assert "could not be timed" in screen.headline
        # the pad is back: its press of seat 3 (at +130 ms) and its watermark arrive
        for at, down in ((130, True), (200, False)):
            screen.on_press_event(PadPress(3, t0 + at * MS, "pad", down, 100_000, 0,
                                           ("pad", 1, 1)))
        pad.watermark_ns = t0 + 4_000 * MS
        screen.on_frame(t0 + 4_000 * MS)
        assert screen.round.verdict.certain and screen.round.verdict.picker == 2
        assert "changed the verdict" in ui.app.status
        assert screen.headline == "Seat 2 picks up"
    finally:
        ui.app.pad = None
        screen.cancel()


def test_the_slap_pad_log_takes_tonight_s_names():
    from types import SimpleNamespace

    rows = [SimpleNamespace(setup={"players": [{"name": "Ann", "seat": 1},
                                               {"name": "Seat 2", "seat": 2},
                                               {"name": "Cara", "seat": 3}]}),
            SimpleNamespace(setup={"players": [{"name": "Seat 1", "seat": 1}]})]
    app = SimpleNamespace(log=SimpleNamespace(games=lambda: rows))
    # the newest game names nobody: the one before it does
    assert real_last_names(app) == {1: "Ann", 3: "Cara"}


def test_armed_it_wants_no_frames_until_a_slap_comes(ui):
    screen = open_tool(ui, (1, 2))
    now = ui.app.table.now_ns()
    screen.arm(now)
    assert screen.round.phase == "armed" and not screen.frames_wanted()  # the app idles
    screen.on_press_event(PressEvent(1, now + 30 * MS, "mock", True))
    assert screen.frames_wanted()  # fed on the next frame
    screen.on_frame(now + 40 * MS)
    assert screen.round.phase == "open" and screen.frames_wanted()  # the round runs to its verdict
    screen.cancel()


def test_a_candidate_chosen_then_recorded_leaves_the_next_round_to_its_own_slaps(
        ui, monkeypatch):
    """Too close to call: the table picks a candidate, Record; the next rounds each
    close on their own frame with a verdict of their own slaps (none of the round before
    counted in them), however fast the rounds follow each other: here the table's clock
    stands still (a minute ago) from one round to the next."""
    screen = open_tool(ui, (1, 2, 3))
    still = ui.app.table.now_ns() - 60_000 * MS
    monkeypatch.setattr(ui.app.table, "clock", lambda: still)
    for _ in range(4):
        ui.slap_round(screen, (1, 2, 3), gap_ms=0.3)  # within the 1 ms bound: too close
        assert screen.round.verdict.too_close and screen.view.choices
        screen.choose(screen.round.shown.candidates[0])
        ui.tap(screen.buttons[2])  # Record
        assert screen.round.phase == "idle"
        for order in ((3, 1, 2), (2, 3, 1)):
            ui.slap_round(screen, order)  # asserts its verdict ranks exactly ``order``
            assert screen.round.verdict.picker == order[-1]
            ui.tap(screen.buttons[2])
    ui.goto_home()


def test_the_stop_time_words_sit_in_the_middle_of_the_face(ui):
    """The face's words are centred on it, whatever size they took after it was placed
    (they were placed once by the face's centre before their size was known: 12 px off)."""
    from companion.ui.screens.slap_widgets import StopFace

    screen = ui.open_slap_tool((1, 2, 3, 4))
    ui.pump(3)
    face = next(w for w in screen.walk(restrict=True) if isinstance(w, StopFace))
    words = face.children[0]
    assert words.text == "STOP\nTIME" and words.width > 10
    assert abs(words.center_x - face.center_x) <= 1
    assert abs(words.center_y - face.center_y) <= 1
