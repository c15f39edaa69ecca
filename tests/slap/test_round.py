"""SlapRound: a Stop Time round at the table, from its arm to its record, edge by edge.

Each case is what a table does (who slaps when, from which button, what goes wrong) and
what it must see; the round's own ``SlapArbiter`` is the real one.
"""

from __future__ import annotations

import pytest

from companion.events import CAPTAIN_SEAT, PressEvent
from companion.pad.linkevents import VOID_WORDS, PadPress, PadRebooted, PadVoid
from companion.slap.arbiter import ArbiterConfig
from companion.slap.round import SlapRound, interrupted_text
from companion.slap.view import ARMED, IDLE, OPEN, VERDICT

pytestmark = pytest.mark.arm64

MS = 1_000_000
CFG = ArbiterConfig()
LATER = CFG.timeout_ns + CFG.settle_ns + CFG.quiet_ns + 10 * MS  # any round has closed
NAMES = {1: "Ann", 2: "Bob", 3: "Cara", 4: "Dan", 5: "Eve"}


def key(seat, ms, pressed=True, source="gpio"):
    return PressEvent(seat, round(ms * MS), source, pressed)


def pad(seat, ms, pressed=True, doubt_ns=148_000):
    """A pad press mapped into host time, with its clock-sync doubt (as PadBridge gives)."""
    return PadPress(seat, round(ms * MS), "pad", pressed, resolution_ns=100_000,
                    uncertainty_ns=doubt_ns, clock=("pad", 1))


def table(seats=(1, 2, 3, 4, 5)):
    return SlapRound(seats, CFG, names={s: NAMES[s] for s in seats})


def tap(rnd, event, hold_ms=60):
    """A whole tap: the press, and its release ``hold_ms`` later."""
    rnd.press(event)
    release = type(event)(**{**{f: getattr(event, f) for f in event.__dataclass_fields__},
                             "t_ns": event.t_ns + round(hold_ms * MS), "pressed": False})
    rnd.press(release)


def run_to_verdict(rnd, from_ms):
    rnd.tick(round(from_ms * MS))
    rnd.tick(round(from_ms * MS) + LATER)
    return rnd.verdict


def kinds(effects):
    return [e.kind for e in effects]


# -- who opens the round is in it ---------------------------------------------------------------

OPENERS = [
    # (case, the slaps in arrival order (seat, ms, source), who picks up)
    ("pad opener, the rest on the pad", [(4, 1000, "pad"), (1, 1040, "pad"),
                                         (2, 1090, "pad"), (3, 1150, "pad"),
                                         (5, 1300, "pad")], 5),
    ("pad opener is the fastest and must not pick up", [(4, 1000, "pad"), (1, 1200, "pad"),
                                                        (2, 1210, "pad"), (3, 1230, "pad"),
                                                        (5, 1260, "pad")], 5),
    ("key opener", [(4, 1000, "gpio"), (1, 1040, "gpio"), (2, 1090, "gpio"),
                    (3, 1150, "gpio"), (5, 1300, "gpio")], 5),
    ("pad slap stamped just before a key opener, arriving after it",
     [(1, 1000, "gpio"), (4, 998, "pad"), (2, 1090, "gpio"), (3, 1150, "gpio"),
      (5, 1300, "pad")], 5),
    ("two pad slaps 80 ms before a button's, held back by the pad's link",
     [(1, 1000, "gpio"), (4, 920, "pad"), (5, 920.5, "pad"), (2, 1090, "gpio"),
      (3, 1150, "gpio")], 3),
]


@pytest.mark.parametrize("case,slaps,picker", OPENERS, ids=[c[0] for c in OPENERS])
def test_a_slap_that_opens_the_round_counts_in_it(case, slaps, picker):
    rnd = table()
    for seat, ms, source in slaps:
        tap(rnd, pad(seat, ms) if source == "pad" else key(seat, ms))
        rnd.tick(round(ms * MS) + MS)
    assert rnd.phase == OPEN and rnd.opened_by == "slap"
    verdict = run_to_verdict(rnd, max(ms for _, ms, _ in slaps))
    assert verdict.certain and verdict.picker == picker, (case, verdict.summary())
    assert not verdict.excluded, verdict.excluded
    assert sorted(e.seat for e in verdict.ranking) == [1, 2, 3, 4, 5]


def test_a_round_opened_by_a_slap_takes_nothing_of_the_round_before():
    """Recorded, then a second round opened by a slap 1 s later: the first round's slaps
    and mashes (stamped before the record) are not the second round's."""
    rnd = table((1, 2, 3))
    rnd.arm(0)
    for seat, ms in ((1, 100), (2, 200), (3, 300)):
        tap(rnd, key(seat, ms))
    tap(rnd, key(3, 400))  # a mash after the slap
    rnd.tick(530 * MS)  # every seat slapped: judged once the stream has settled
    assert rnd.phase == VERDICT
    rnd.recorded(("game", 1))
    rnd.press(key(2, 520))  # arrived late: a press of the round recorded
    later = 600  # after the verdict was given, within a round's length of its slaps
    for seat, ms in ((3, later + 100), (1, later + 200), (2, later + 400)):
        tap(rnd, key(seat, ms))
        rnd.tick(round(ms * MS) + MS)
    assert rnd.opened_by == "slap"
    verdict = run_to_verdict(rnd, later + 400)
    assert [e.seat for e in verdict.ranking] == [3, 1, 2] and verdict.picker == 2


@pytest.mark.parametrize("doubt_ns", [1, 250_000, 8 * MS])
def test_a_pad_slap_that_ended_the_round_before_does_not_straddle_the_next_one_s_start(
        doubt_ns):
    """The round before ended with a pad slap (its stamp doubtful by ``doubt_ns``); the
    next round, opened by a button's slap 1.5 s later (within a round's length), starts
    after the latest that pad slap may truly have been: its seat slaps again and is
    timed, never "within 0.250 ms of the round's start" and left out."""
    rnd = table((1, 2, 3))
    rnd.arm(0)
    tap(rnd, key(1, 100))
    tap(rnd, key(2, 150))
    tap(rnd, pad(3, 200, doubt_ns=doubt_ns))  # the last press of that round
    run_to_verdict(rnd, 200)
    assert rnd.verdict.picker == 3
    rnd.cancel()
    later = 1700
    for event in (key(1, later), pad(3, later + 40, doubt_ns=doubt_ns), key(2, later + 90)):
        tap(rnd, event)
        rnd.tick(event.t_ns + MS)
    assert rnd.opened_by == "slap"
    verdict = run_to_verdict(rnd, later + 90)
    assert not verdict.excluded, verdict.summary()
    assert verdict.certain and verdict.picker == 2
    assert [e.seat for e in verdict.ranking] == [1, 3, 2]


def test_a_slap_before_anything_is_armed_lights_its_lamp_and_clicks():
    rnd = table()
    rnd.press(pad(2, 500))
    rnd.tick(501 * MS)
    effects = rnd.take_effects()
    assert ("lamp", 2) in [(e.kind, e.value) for e in effects]
    assert "sound" in kinds(effects) and rnd.live == {2: 500 * MS}


def test_the_captain_button_arms_and_then_records_a_decided_verdict():
    rnd = table((1, 2))
    assert rnd.captain(0) is False and rnd.phase == ARMED and rnd.opened_by == "captain"
    tap(rnd, key(1, 100))
    tap(rnd, key(2, 180))
    run_to_verdict(rnd, 180)
    assert rnd.phase == VERDICT and rnd.decided == (2, "verdict")
    assert rnd.captain(5000 * MS) is True  # the screen records it


def test_a_press_of_the_captain_seat_is_never_a_slap():
    rnd = table((1, 2))
    rnd.press(key(CAPTAIN_SEAT, 100))
    rnd.tick(200 * MS)
    assert rnd.phase == IDLE


# -- the pad restarting or losing its clock mid-round -------------------------------------------

@pytest.mark.parametrize("notice,reason", [
    (PadRebooted(VOID_WORDS["reboot"]), "reboot"),
    (PadRebooted(VOID_WORDS["replug"], reason="replug"), "replug"),
    (PadVoid(VOID_WORDS["clock_jump"], "clock_jump"), "clock_jump"),
    (PadVoid(VOID_WORDS["flood"], "flood"), "flood"),
    (PadVoid(VOID_WORDS["untimed"], "untimed"), "untimed"),
])
def test_a_pad_problem_mid_round_voids_it_says_so_and_the_next_slaps_count(notice, reason):
    rnd = table((1, 2, 3))
    rnd.arm(0)
    tap(rnd, pad(1, 100))
    tap(rnd, pad(2, 150))
    rnd.tick(160 * MS)
    rnd.take_effects()
    assert rnd.pad_event(notice, 170 * MS) is True
    told = [e.value for e in rnd.take_effects() if e.kind == "tell"]
    assert len(told) == 1 and told[0].startswith(VOID_WORDS[reason])
    assert "Ann, Bob" in told[0]  # who had slapped in the round that does not count
    view = rnd.view({1: "red", 2: "blue", 3: "green"})
    assert rnd.phase == IDLE and view.headline == "Slap again!"
    assert view.detail == VOID_WORDS[reason]
    # the next slaps are a new round, never "false slaps (nothing armed)"
    for seat, ms in ((3, 400), (1, 450), (2, 520)):
        tap(rnd, key(seat, ms))
        rnd.tick(round(ms * MS) + MS)
    lines = [e.value for e in rnd.take_effects() if e.kind == "say"]
    assert not [line for line in lines if "false slap" in line], lines
    verdict = run_to_verdict(rnd, 520)
    assert verdict.certain and verdict.picker == 2
    assert [e.seat for e in verdict.ranking] == [3, 1, 2]


def test_a_pad_restart_between_rounds_voids_nothing():
    rnd = table((1, 2))
    assert rnd.pad_event(PadRebooted("restarted"), 5 * MS) is False
    assert rnd.phase == IDLE and not [e for e in rnd.take_effects() if e.kind == "tell"]


def test_a_round_waits_for_a_ready_pad_and_leaves_its_silent_seats_to_the_table():
    rnd = table((1, 2, 3))
    rnd.arm(0)
    rnd.pad_state(True, 0)
    tap(rnd, key(1, 100))
    tap(rnd, key(2, 160))
    rnd.tick(200 * MS)
    rnd.pad_state(True, 150 * MS)  # the pad's stream stops short of the deadline
    rnd.tick(200 * MS + LATER)
    verdict = rnd.verdict
    assert not verdict.certain and dict(verdict.excluded) == {3: "quiet"}


# -- the table's decision and the record --------------------------------------------------------

def test_too_close_the_table_chooses_and_the_action_says_so():
    rnd = table((1, 2, 3))
    rnd.arm(0)
    for seat, ms in ((1, 100), (2, 300.0), (3, 300.4)):
        tap(rnd, key(seat, ms))
    run_to_verdict(rnd, 300.4)
    assert rnd.verdict.too_close and rnd.decided is None
    assert rnd.action(for_game=True) == "Tap who picks up first"
    rnd.choose(1)  # not a candidate: nothing changes
    assert rnd.chosen is None
    rnd.choose(3)
    act = rnd.action(for_game=False)
    assert (act["type"], act["picker"], act["decision"]) == ("slap_round", 3, "table")
    act = rnd.action(for_game=True)
    assert (act["type"], act["seat"], act["reason"]) == ("pickup", 3, "slap")


def test_a_false_alarm_names_the_last_slapper_as_a_false_slap():
    rnd = table((1, 2, 3))
    rnd.arm(0)
    tap(rnd, key(1, 100))
    tap(rnd, key(2, 200))
    run_to_verdict(rnd, 200)
    rnd.call_false_alarm()
    act = rnd.action(for_game=True)
    assert (act["seat"], act["reason"]) == (2, "false_slap")


def test_a_late_slap_of_the_recorded_round_is_weighed_not_taken_for_a_new_round():
    rnd = table((1, 2, 3))
    rnd.arm(0)
    tap(rnd, key(1, 100))
    tap(rnd, key(2, 160))
    rnd.pad_state(True, 0)
    rnd.tick(200 * MS)
    rnd.pad_state(True, 150 * MS)
    rnd.tick(200 * MS + LATER)
    rnd.choose(3)
    rnd.recorded(("game", 7))
    assert rnd.phase == IDLE and rnd.last.picker == 3
    rnd.take_effects()
    # seat 3's pad slap, stamped at 120 ms, arrives now: it was in the recorded round
    tap(rnd, pad(3, 120))
    rnd.pad_state(True, 10_000 * MS)
    rnd.tick(300 * MS + LATER)
    assert rnd.phase == IDLE  # no new round opened by it
    effects = rnd.take_effects()
    assert [e.value.picker for e in effects if e.kind == "correction"] == [2]
    assert any("may be wrong" in e.value for e in effects if e.kind == "tell")
    rnd.show_correction()
    assert rnd.phase == VERDICT and rnd.decided == (2, "verdict")


def test_a_late_slap_that_changes_nothing_says_the_record_stands():
    rnd = table((1, 2))
    rnd.arm(0)
    tap(rnd, key(1, 100))
    tap(rnd, key(2, 160))
    run_to_verdict(rnd, 160)
    rnd.recorded(("game", 1))
    rnd.take_effects()
    rnd.press(key(1, 120))  # a bounce-free second press of seat 1: a mash, late
    rnd.tick(200 * MS + LATER)
    assert not [e for e in rnd.take_effects() if e.kind == "correction"]


def test_cancel_abandons_the_round_and_nothing_is_kept():
    rnd = table((1, 2))
    rnd.arm(0)
    tap(rnd, key(1, 100))
    rnd.tick(101 * MS)
    rnd.cancel()
    assert rnd.phase == IDLE and rnd.journal() is None
    assert [e.value for e in rnd.take_effects() if e.kind == "keep"][-1] is None


# -- a restart in the middle of a round ---------------------------------------------------------

def test_the_round_on_is_kept_for_a_restart_and_told_after_it():
    rnd = table((1, 2, 3))
    rnd.arm(0)
    tap(rnd, key(2, 100))
    tap(rnd, key(1, 140))
    rnd.tick(150 * MS)
    kept = [e.value for e in rnd.take_effects() if e.kind == "keep"][-1]
    assert kept["slapped"] == [[2, 100 * MS], [1, 140 * MS]]
    text = interrupted_text(kept)
    assert "Bob, Ann had slapped" in text and "does not count" in text
    run_to_verdict(rnd, 140)
    kept = [e.value for e in rnd.take_effects() if e.kind == "keep"][-1]
    assert kept["phase"] == VERDICT and kept["picker"] == 3  # never slapped, the only one
    assert "Cara was to pick up" in interrupted_text(kept)
    rnd.recorded(("game", 1))
    assert [e.value for e in rnd.take_effects() if e.kind == "keep"] == [None]


def test_an_armed_round_with_no_slap_is_told_too():
    rnd = table((1, 2))
    rnd.arm(0)
    kept = [e.value for e in rnd.take_effects() if e.kind == "keep"][-1]
    assert interrupted_text(kept) == "The box stopped while a slap round was armed: slap again."


def test_a_round_waits_for_a_pad_that_is_reconnecting_and_judges_it_whole():
    """The pad is unplugged just after the first slap and back 4 s later with seat 3's
    slap it kept: the round waits (and says so) and its first verdict counts everyone."""
    rnd = table((1, 2, 3))
    rnd.arm(0)
    rnd.pad_state(True, 0)
    tap(rnd, key(1, 100))
    rnd.tick(110 * MS)
    rnd.pad_state(False, None)  # unplugged
    tap(rnd, key(2, 160))
    for now_ms in (300, 3000, 4000):
        rnd.tick(now_ms * MS)
        assert rnd.verdict is None
    assert rnd.view({}).detail == "The slap pad is reconnecting: waiting for its slaps..."
    rnd.pad_state(True, None)  # back; its slap comes a moment later
    rnd.tick(4100 * MS)
    tap(rnd, pad(3, 130))
    rnd.pad_state(True, 4200 * MS)  # complete past the round's deadline
    rnd.tick(4300 * MS)
    verdict = rnd.verdict
    assert verdict.certain and verdict.picker == 2 and not verdict.excluded


def test_a_pad_that_never_comes_back_leaves_its_seats_to_the_table_in_the_end():
    from companion.slap.round import PAD_PATIENCE_NS

    rnd = table((1, 2, 3))
    rnd.arm(0)
    rnd.pad_state(True, 0)
    tap(rnd, key(1, 100))
    tap(rnd, key(2, 160))
    rnd.tick(170 * MS)
    rnd.pad_state(False, None)
    rnd.tick(100 * MS + PAD_PATIENCE_NS - MS)
    assert rnd.verdict is None
    rnd.tick(100 * MS + PAD_PATIENCE_NS + MS)
    assert dict(rnd.verdict.excluded) == {3: "quiet"}


def test_a_seat_whose_pad_button_was_down_when_the_pad_restarted_is_not_held_after():
    """Bob's pad press went out, the pad restarted before his release: the next round
    does not take his seat for held (its release was lost with the pad, not kept)."""
    rnd = table((1, 2, 3))
    rnd.arm(0)
    rnd.press(pad(2, 100))  # no release ever comes
    rnd.tick(110 * MS)
    assert rnd.pad_event(PadRebooted(VOID_WORDS["reboot"]), 150 * MS)
    for seat, ms in ((1, 400), (2, 450), (3, 520)):
        tap(rnd, key(seat, ms) if seat != 2 else pad(seat, ms))
        rnd.tick(round(ms * MS) + MS)
    verdict = run_to_verdict(rnd, 520)
    assert not verdict.excluded and verdict.picker == 3


def test_a_report_of_the_pad_s_boot_before_a_restart_never_counts_after_it():
    """A press stamped in the restarted boot's clock that reaches the box after the
    restart was told is no slap of the new round, and does not leave its seat held."""
    rnd = table((1, 2, 3))
    rnd.arm(0)
    tap(rnd, pad(1, 100))
    rnd.tick(110 * MS)
    assert rnd.pad_event(PadRebooted(VOID_WORDS["reboot"], old_nonce=0xAB, new_nonce=0xCD),
                         200 * MS)
    old = PadPress(2, 150 * MS, "pad", True, 100_000, 148_000, ("pad", (0xAB, 1), 1))
    rnd.press(old)  # late, from the old boot
    for seat, ms in ((1, 400), (2, 450), (3, 520)):
        tap(rnd, key(seat, ms))
        rnd.tick(round(ms * MS) + MS)
    verdict = run_to_verdict(rnd, 520)
    assert verdict.certain and verdict.picker == 3 and not verdict.excluded


def test_a_pad_slap_stamped_before_the_void_it_came_after_is_the_table_s_call():
    """After a restart the pad's new clock fit may be off: a slap that reaches the box
    after the void but is stamped before it cannot be placed, so its seat is a candidate
    (never a false slap, never a non-slapper named to pick up)."""
    rnd = table((1, 2, 3))
    rnd.arm(0)
    tap(rnd, pad(1, 100))
    rnd.tick(110 * MS)
    assert rnd.pad_event(PadRebooted(VOID_WORDS["reboot"]), 1000 * MS)
    tap(rnd, key(1, 1400))  # opens the next round
    rnd.tick(1401 * MS)
    tap(rnd, pad(2, 900))  # the new fit puts Bob's slap before the void
    tap(rnd, key(3, 1500))
    verdict = run_to_verdict(rnd, 1500)
    assert not verdict.certain and 2 in verdict.candidates
    assert dict(verdict.excluded) == {2: "untimed"}
