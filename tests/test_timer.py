"""Pure timers: countdown cues exactly once, pause, ready buttons, game clock, JSON restore."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.timer import (
    NS_PER_S,
    PRESETS_NS,
    Countdown,
    Cue,
    GameClock,
    TimerError,
)

S = NS_PER_S
T0 = 1_700_000_000 * S  # a wall-clock stamp, as the host passes them


def kinds(cues):
    return [c.kind for c in cues]


def test_presets():
    assert PRESETS_NS == (("30 s", 30 * S), ("60 s", 60 * S), ("2 min", 120 * S))
    for _label, duration in PRESETS_NS:
        assert Countdown.create(duration).duration_ns == duration


def test_default_warning():
    assert Countdown.create(60 * S).warning_ns == 10 * S
    assert Countdown.create(15 * S).warning_ns == 5 * S
    assert Countdown.create(60 * S, warning_ns=0).warning_ns == 0


def test_warning_and_expiry_fire_exactly_once():
    cd = Countdown.create(60 * S, warning_ns=10 * S).start(T0)
    fired = []
    for t in (0, 10, 49, 50, 51, 59, 60, 61, 120):
        cd, cues = cd.poll(T0 + t * S)
        fired += [(t, k) for k in kinds(cues)]
    assert fired == [(50, "warning"), (60, "expired")]
    assert cd.status == "expired" and cd.remaining(T0 + 500 * S) == 0


def test_one_late_poll_gives_both_cues_in_order():
    cd = Countdown.create(30 * S).start(T0)
    cd, cues = cd.poll(T0 + 31 * S)
    assert kinds(cues) == ["warning", "expired"]
    assert cd.poll(T0 + 40 * S)[1] == ()


def test_no_warning_when_disabled():
    cd = Countdown.create(30 * S, warning_ns=0).start(T0)
    assert kinds(cd.poll(T0 + 29 * S)[1]) == []
    assert kinds(cd.poll(T0 + 30 * S)[1]) == ["expired"]


def test_pause_stops_the_clock():
    cd = Countdown.create(60 * S).start(T0)
    cd = cd.pause(T0 + 10 * S)
    assert cd.remaining(T0 + 1000 * S) == 50 * S
    assert cd.poll(T0 + 1000 * S) == (cd, ())
    assert cd.pause(T0 + 2000 * S) is cd  # pausing twice changes nothing
    cd = cd.resume(T0 + 100 * S)
    assert cd.remaining(T0 + 110 * S) == 40 * S
    assert cd.resume(T0 + 120 * S) is cd
    cd, cues = cd.poll(T0 + 140 * S)
    assert kinds(cues) == ["warning"]


def test_start_restarts_from_the_full_duration():
    cd, _ = Countdown.create(30 * S).start(T0).poll(T0 + 25 * S)
    assert cd.warned
    cd = cd.start(T0 + 100 * S)
    assert (cd.remaining(T0 + 100 * S), cd.warned, cd.expired) == (30 * S, False, False)


def test_clock_stepping_back_gives_no_time_back():
    cd = Countdown.create(30 * S).start(T0)
    assert cd.remaining(T0 - 5 * S) == 30 * S


def test_all_ready_fires_once_and_stops_the_countdown():
    cd = Countdown.create(60 * S, seats=(1, 2, 4)).start(T0)
    cd, cues = cd.mark_ready(2, T0 + 1 * S)
    assert cues == () and cd.ready == (2,)
    cd, cues = cd.mark_ready(7, T0 + 2 * S)  # nobody sits at seat 7
    assert cues == () and cd.ready == (2,)
    cd, cues = cd.mark_ready(2, T0 + 3 * S)  # a repeat press
    assert cues == ()
    cd = cd.unready(2)
    cd, _ = cd.mark_ready(4, T0 + 4 * S)
    cd, _ = cd.mark_ready(1, T0 + 5 * S)
    cd, cues = cd.mark_ready(2, T0 + 12 * S)
    assert cues == (Cue("all_ready"),)
    assert cd.status == "done" and cd.remaining(T0 + 100 * S) == 48 * S
    assert cd.poll(T0 + 100 * S)[1] == ()
    assert cd.mark_ready(2, T0 + 101 * S)[1] == ()


def test_ready_after_expiry_is_ignored_and_seats_can_change():
    cd, _ = Countdown.create(30 * S, seats=(1, 2)).start(T0).poll(T0 + 30 * S)
    assert cd.mark_ready(1, T0 + 31 * S) == (cd, ())
    cd = Countdown.create(30 * S, seats=(1, 2, 3)).start(T0)
    cd, _ = cd.mark_ready(3, T0)
    cd = cd.with_seats((1, 2))
    assert cd.ready == ()


def test_countdown_json_round_trip_and_resume_after_restart():
    cd = Countdown.create(60 * S, seats=(1, 2)).start(T0)
    cd, _ = cd.mark_ready(1, T0 + 5 * S)
    stored = json.dumps(cd.to_json())
    back = Countdown.from_json(json.loads(stored))
    assert back == cd
    # The box was off for 20 s: the wall clock says so, and the countdown goes on.
    assert back.remaining(T0 + 30 * S) == 30 * S
    back, cues = back.poll(T0 + 55 * S)
    assert kinds(cues) == ["warning"]
    paused = Countdown.from_json(json.loads(json.dumps(back.pause(T0 + 56 * S).to_json())))
    assert paused.remaining(T0 + 999 * S) == 4 * S


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"kind": "game_clock"},
        {"kind": "countdown", "duration_ns": -1},
        {"kind": "countdown", "status": "running"},  # running without a start stamp
        {"kind": "countdown", "status": "sleeping"},
        {"kind": "countdown", "colour": "red"},
        {"kind": "countdown", "seats": [1], "ready": [2]},
        {"kind": "countdown", "duration_ns": 10, "warning_ns": 10},
        {"kind": "countdown", "warned": "yes"},
    ],
)
def test_countdown_from_bad_json(data):
    with pytest.raises(TimerError):
        Countdown.from_json(data)


def test_bad_settings():
    with pytest.raises(TimerError):
        Countdown.create(0)
    with pytest.raises(TimerError):
        Countdown.create(10 * S, warning_ns=20 * S)
    with pytest.raises(TimerError):
        GameClock.create((1, 1), 60 * S)
    with pytest.raises(TimerError):
        GameClock.create((), 60 * S)


def test_game_clock_passes_the_turn_and_adds_the_increment():
    clock = GameClock.create((1, 2, 3), 60 * S, increment_ns=5 * S).start(T0)
    assert clock.active == 1
    clock, cues = clock.press(2, T0 + 3 * S)  # not seat 2's turn: ignored
    assert (clock.active, cues) == (1, ())
    clock, _ = clock.press(1, T0 + 10 * S)
    assert clock.active == 2
    assert clock.remaining(1, T0 + 99 * S) == 55 * S  # 60 - 10 + 5, and it stands still
    assert clock.remaining(2, T0 + 30 * S) == 40 * S
    clock, _ = clock.press(2, T0 + 30 * S)
    clock, _ = clock.press(3, T0 + 31 * S)
    assert clock.active == 1  # round the table
    assert clock.banks_ns == (55 * S, 45 * S, 64 * S)
    assert clock.moves == (1, 1, 1)


def test_game_clock_pause_all():
    clock = GameClock.create((1, 2), 60 * S).start(T0, seat=2)
    clock = clock.pause(T0 + 10 * S)
    assert clock.remaining(2, T0 + 500 * S) == 50 * S
    assert clock.press(2, T0 + 20 * S)[0] is clock  # buttons do nothing while paused
    clock = clock.resume(T0 + 500 * S)
    assert clock.remaining(2, T0 + 510 * S) == 40 * S


def test_game_clock_flags_once_when_a_bank_runs_out():
    clock = GameClock.create((1, 2), 10 * S, increment_ns=2 * S).start(T0)
    clock, cues = clock.poll(T0 + 9 * S)
    assert cues == ()
    clock, cues = clock.poll(T0 + 11 * S)
    assert cues == (Cue("flag", 1),)
    assert clock.poll(T0 + 12 * S)[1] == ()
    assert clock.remaining(1, T0 + 12 * S) == 0
    clock, cues = clock.press(1, T0 + 15 * S)
    assert cues == () and clock.banks_ns == (2 * S, 10 * S)
    assert clock.flagged == (1,)
    # Seat 2 runs out, never polled, and presses: the flag comes with the press.
    clock, cues = clock.press(2, T0 + 40 * S)
    assert cues == (Cue("flag", 2),)
    assert clock.flagged == (1, 2)


def test_game_clock_flag_due_at_pause_is_not_lost():
    clock = GameClock.create((1, 2), 10 * S).start(T0).pause(T0 + 12 * S)
    clock, cues = clock.poll(T0 + 13 * S)
    assert cues == (Cue("flag", 1),)


def test_game_clock_json_round_trip():
    clock = GameClock.create((3, 1, 2), 90 * S, increment_ns=S).start(T0, seat=1)
    clock, _ = clock.press(1, T0 + 7 * S)
    back = GameClock.from_json(json.loads(json.dumps(clock.to_json())))
    assert back == clock
    assert back.remaining(2, T0 + 37 * S) == 60 * S
    with pytest.raises(TimerError):
        GameClock.from_json({**clock.to_json(), "banks_ns": [1]})
    with pytest.raises(TimerError):
        GameClock.from_json({**clock.to_json(), "active": 9})


OPS = st.lists(
    st.tuples(st.sampled_from(["poll", "pause", "resume", "ready", "restore"]),
              st.integers(0, 20 * S), st.integers(1, 3)),
    max_size=40,
)


@settings(deadline=None, max_examples=100)
@given(OPS, st.integers(1, 60 * S))
def test_countdown_cues_at_most_once_and_time_only_runs_down(ops, duration):
    cd = Countdown.create(duration, seats=(1, 2, 3)).start(T0)
    now, fired, last_left = T0, [], duration
    for op, step, seat in ops:
        now += step
        if op == "poll":
            cd, cues = cd.poll(now)
        elif op == "pause":
            cd, cues = cd.pause(now), ()
        elif op == "resume":
            cd, cues = cd.resume(now), ()
        elif op == "ready":
            cd, cues = cd.mark_ready(seat, now)
        else:
            cd, cues = Countdown.from_json(json.loads(json.dumps(cd.to_json()))), ()
        fired += kinds(cues)
        left = cd.remaining(now)
        assert 0 <= left <= last_left
        last_left = left
    for kind in ("warning", "expired", "all_ready"):
        assert fired.count(kind) <= 1
    assert not ("expired" in fired and "all_ready" in fired)
    if "expired" in fired and cd.warning_ns:
        assert fired.index("warning") < fired.index("expired")


def test_the_boot_id_is_read_once_per_process(monkeypatch, tmp_path):
    from companion import bootclock

    source = tmp_path / "boot_id"
    source.write_text("first-boot\n")
    monkeypatch.setattr(bootclock, "BOOT_ID", source)
    bootclock.boot_id.cache_clear()
    try:
        assert bootclock.boot_id() == "first-boot"
        source.write_text("changed\n")  # nothing the kernel would do while we live
        assert bootclock.boot_id() == "first-boot"
    finally:
        bootclock.boot_id.cache_clear()
