"""The standalone Stop Time engine: slap rounds logged with who picks up and why."""

from __future__ import annotations

import json
from functools import reduce

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from longgames import long_game
from refusals import malformed, refused

from companion.errors import MalformedAction, RuleError
from companion.games import get_rules
from companion.games import stop_time as st
from companion.slap.verdict import decide, false_alarm

pytestmark = pytest.mark.arm64

MS = 1_000_000
RES = 1 * MS  # a 1 ms source bound


def setup(n=4):
    return {"players": [{"name": f"Seat {i}", "seat": i} for i in range(1, n + 1)]}


def verdict(slaps_ms, seats=(1, 2, 3, 4), res=RES):
    return decide({s: int(t * MS) for s, t in slaps_ms.items()}, seats, res, "mock")


def rnd(v, picker, decision="verdict"):
    return {"type": "slap_round", "verdict": v.to_facts(), "picker": picker, "decision": decision}


def play(*actions, n=4):
    return reduce(st.apply, actions, st.initial(setup(n)))


def test_registered_and_refuses_bad_setups():
    assert get_rules("stop_time") is st and st.TITLE == "Slap pad"
    with refused("setup.player_count"):
        st.initial(setup(1))
    with malformed():
        st.initial({"players": "everyone"})


def test_a_clear_round_records_the_last_slapper_and_the_delays():
    v = verdict({1: 0, 2: 40, 3: 95, 4: 180})
    state = play(rnd(v, 4))
    (r,) = state.rounds
    assert (r.n, r.picker, r.decision, r.too_close) == (1, 4, "verdict", False)
    assert r.delays == ((1, 0.0), (2, 40.0), (3, 95.0), (4, 180.0))
    snap = st.snapshot(state)
    json.dumps(snap)
    assert snap["pickups"] == {"1": 0, "2": 0, "3": 0, "4": 1}
    assert snap["rounds"][0]["ranking"][-1] == {"seat": 4, "delay_ms": 180.0}
    assert snap["rounds"][0]["verdict"] == v.to_facts()  # the facts, as stored


def test_the_verdict_decision_must_name_the_verdicts_picker():
    v = verdict({1: 0, 2: 40, 3: 95, 4: 180})
    with refused("slap.verdict_names_other") as info:
        play(rnd(v, 2))
    assert info.value.sentence == ("The slap verdict names Seat 4, not Seat 2: the last one to "
                                   "have slapped picks up.")
    with refused("stop_time.no_such_seat"):
        play(rnd(v, 7))
    with malformed("picker was chosen by the verdict"):
        play(rnd(v, 4, "table"))
    with malformed("unknown decision"):
        play(rnd(v, 4, "coin"))
    with refused("slap.somebody_picks_up"):
        play(rnd(v, None))


def test_too_close_the_table_picks_one_of_the_candidates():
    v = verdict({1: 0, 2: 40, 3: 95.0, 4: 95.4})  # 0.4 ms apart, bound 1 ms
    assert v.too_close and v.candidates == (3, 4)
    with malformed("picker was chosen by the table"):
        play(rnd(v, 3))
    with refused("slap.not_a_candidate"):
        play(rnd(v, 2, "table"))
    state = play(rnd(v, 3, "table"))
    assert state.rounds[0].picker == 3 and state.rounds[0].too_close


def test_several_non_slappers_the_table_picks_among_them():
    v = verdict({1: 0, 2: 30})
    assert v.candidates == (3, 4)
    state = play(rnd(v, 4, "table"))
    assert state.rounds[0].non_slappers == (3, 4)
    assert st.snapshot(state)["reaction_ms"]["4"] == {"delays": [], "count": 0,
                                                     "median": None}


def test_false_alarm_takes_the_last_slapper_and_needs_the_false_alarm_verdict():
    v = verdict({1: 0, 2: 30})  # 3 and 4 rightly did not slap
    with malformed("needs the false-alarm verdict"):
        play(rnd(v, 4, "false_alarm"))
    fa = false_alarm(v)
    assert fa.picker == 2
    with refused("slap.verdict_names_other"):
        play(rnd(fa, 1, "false_alarm"))
    state = play(rnd(fa, 2, "false_alarm"))
    assert state.rounds[0].case == "false_alarm" and state.pickups(2) == 1


def test_a_seat_that_could_not_be_timed_is_a_candidate():
    """Certain means certain: seat 4's button was held, it may have slapped last."""
    v = decide({1: 0, 2: 40 * MS, 3: 95 * MS}, (1, 2, 3, 4), RES, "mock", excluded={4: "held"})
    with malformed("picker was chosen by the table"):
        play(rnd(v, 3))
    with refused("slap.not_a_candidate") as info:
        play(rnd(v, 2, "table"))
    assert info.value.sentence == ("Seat 2 is not one of those the table chooses from (Seat 3 "
                                   "and Seat 4): Seat 4 could not be timed.")
    state = play(rnd(v, 4, "table"))
    assert st.snapshot(state)["rounds"][0]["excluded"] == [{"seat": 4, "why": "held"}]


def test_facts_that_do_not_add_up_are_refused():
    data = verdict({1: 0, 2: 40, 3: 95, 4: 180}).to_facts()
    data["excluded"] = [{"seat": 4, "why": "held"}]  # but seat 4 slapped
    with malformed("seat 4 slapped but is excluded"):
        play({"type": "slap_round", "verdict": data, "picker": 4, "decision": "verdict"})
    with malformed("slap_round"):
        play({"type": "slap_round", "verdict": {"version": 99}, "picker": 3,
              "decision": "verdict"})
    outsider = verdict({1: 0, 2: 40, 3: 95, 9: 180}, seats=(1, 2, 3, 9))
    with malformed("seat 9 was in play but is not a player"):
        play(rnd(outsider, 9))


# a round as version 1 of the log stored it: the verdict itself (its inputs are all there)
V1_ROUND = {"type": "slap_round", "picker": 4, "decision": "verdict", "verdict": {
    "version": 1, "case": "synchronisation", "source": "mock", "resolution_ns": RES,
    "resolution_ms": 1.0,
    "ranking": [{"seat": 1, "t_ns": 0, "delay_first_ms": 0.0, "delay_prev_ms": 0.0},
                {"seat": 2, "t_ns": 40 * MS, "delay_first_ms": 40.0, "delay_prev_ms": 40.0},
                {"seat": 4, "t_ns": 90 * MS, "delay_first_ms": 90.0, "delay_prev_ms": 50.0}],
    "non_slappers": [3], "excluded": [], "picker": 3, "candidates": [3], "too_close": False}}


def test_an_old_log_keeps_its_meaning_through_the_version_1_reader():
    """The picker is checked against the verdict derived from the old facts: the stored
    verdict's own picker (3, never slapped) is what counts, not what the action says."""
    with refused("slap.verdict_names_other"):
        play(V1_ROUND)
    state = play({**V1_ROUND, "picker": 3})
    assert state.rounds[0].delays == ((1, 0.0), (2, 40.0), (4, 90.0))
    assert st.snapshot(state)["rounds"][0]["verdict"]["version"] == 2


def test_reaction_times_are_medians_of_the_delays_after_the_first_slap():
    rounds = [verdict({1: 0, 2: 50, 3: 100, 4: 200}),
              verdict({1: 10, 2: 0, 3: 300, 4: 250}),
              verdict({1: 0, 2: 70, 3: 20, 4: 400})]
    state = play(*(rnd(v, v.picker) for v in rounds))
    stats = st.snapshot(state)["reaction_ms"]
    assert stats["3"]["median"] == 100.0 and stats["3"]["count"] == 3
    assert stats["1"]["median"] == 0.0
    assert st.snapshot(state)["pickups"] == {"1": 0, "2": 0, "3": 1, "4": 2}


def test_apply_never_changes_the_state_it_was_given():
    state = play()
    v = verdict({1: 0, 2: 40, 3: 95, 4: 180})
    after = st.apply(state, rnd(v, 4))
    assert state.rounds == () and len(after.rounds) == 1
    with malformed("no action 'pickup'"):
        st.apply(state, {"type": "pickup", "seat": 1})


def test_the_newest_rounds_listed_after_each_record_derive_no_verdict_again(monkeypatch):
    """The slap screen lists the newest rounds after every record (``snapshot(recent=5)``):
    a round's verdict is derived from its facts once, as it is recorded, not again at
    any listing; what is listed is what deriving every verdict afresh lists."""
    from companion.games import slap_verdicts

    derived = []
    facts_from_json = slap_verdicts.facts_from_json

    def counted(data):
        derived.append(data)
        return facts_from_json(data)

    slap_verdicts.forget_verdicts()
    monkeypatch.setattr(slap_verdicts, "facts_from_json", counted)
    rounds = [verdict({1: 0, 2: 10 * k, 3: 95, 4: 180 + k}) for k in range(1, 9)]
    state = play(*(rnd(v, v.picker) for v in rounds[:7]))
    first = st.snapshot(state, recent=5)
    assert len(derived) == 7  # each round checked as recorded; none again to list them
    state = st.apply(state, rnd(rounds[7], rounds[7].picker))
    del derived[:]
    listed = st.snapshot(state, recent=5)
    assert len(derived) == 0  # the new round's verdict was kept as it was recorded
    assert [r["n"] for r in listed["rounds"]] == [4, 5, 6, 7, 8]
    assert listed["rounds"][:4] == first["rounds"][1:]
    assert listed["rounds"][0] is first["rounds"][1]  # a listed round is made once
    slap_verdicts.forget_verdicts()
    st._round_json.cache_clear()
    assert st.snapshot(state, recent=5) == listed  # derived afresh: the same


# --------------------------------------------------------------------------- replaying the log
# What the game log gives back (JSON) replays to the same state, round by round.


def outcome(state, action):
    """What ``apply`` makes of ``action``: ("ok", new state) or how it was refused."""
    try:
        return "ok", st.apply(state, action)
    except RuleError as exc:
        return "refused", exc.code
    except MalformedAction:
        return "malformed", None


def assert_same_replay(setup, actions, legal=False):
    """Played, then read back from JSON: the same state after each round, the same
    refusals (``legal``: every round must be accepted)."""
    state = logged = st.initial(setup)
    for action, back in zip(actions, json.loads(json.dumps(actions)), strict=True):
        want, got = outcome(state, action), outcome(logged, back)
        assert got[0] == want[0] and (want[0] == "ok" or got == want), action
        assert want[0] == "ok" or not legal, (action, want)
        if want[0] == "ok":
            state, logged = want[1], got[1]
            assert logged == state
    assert st.snapshot(logged) == st.snapshot(state)
    return logged


CLEAR = verdict({1: 0, 2: 40, 3: 95, 4: 180})
CLOSE = verdict({1: 0, 2: 40, 3: 95.0, 4: 95.4})
TWO_NEVER = verdict({1: 0, 2: 30})
RULEBOOK_ROUNDS = [  # the rounds of the tests above, legal and not
    rnd(CLEAR, 4), rnd(CLEAR, 2), rnd(CLEAR, 7), rnd(CLEAR, 4, "table"),
    rnd(CLEAR, 4, "coin"), rnd(CLEAR, None), rnd(CLOSE, 3), rnd(CLOSE, 2, "table"),
    rnd(CLOSE, 3, "table"), rnd(TWO_NEVER, 4, "table"), rnd(TWO_NEVER, 4, "false_alarm"),
    rnd(false_alarm(TWO_NEVER), 1, "false_alarm"), rnd(false_alarm(TWO_NEVER), 2, "false_alarm"),
    rnd(false_alarm(verdict({})), None, "false_alarm"), rnd(verdict({}), None, "table"),
    {"type": "pickup", "seat": 1}, {"type": "slap_round", "picker": 1, "decision": "verdict"},
    {**rnd(CLEAR, 4), "decision": 3}, {k: v for k, v in rnd(CLEAR, 4).items() if k != "picker"},
    {**rnd(CLEAR, 4), "picker": "4"}, {**rnd(CLEAR, 4), "picker": True},
    {**rnd(CLEAR, 4), "verdict": "clear"},
]


def test_the_rulebook_rounds_replay_from_the_log_to_the_same_state():
    state = assert_same_replay(setup(), RULEBOOK_ROUNDS)
    assert [r.picker for r in state.rounds] == [4, 3, 4, 2, None]
    assert state.rounds[1].candidates == (3, 4) and state.rounds[2].non_slappers == (3, 4)
    assert state.rounds[0].delays == ((1, 0.0), (2, 40.0), (3, 95.0), (4, 180.0))


@hs.composite
def a_night(draw):
    """Random slap rounds for 2 to 8 players (some seats not timed), the picker and
    decision right or not."""
    n = draw(hs.integers(2, 8))
    seats = tuple(range(1, n + 1))
    rounds = []
    for _ in range(draw(hs.integers(0, 25))):
        slapped = draw(hs.lists(hs.sampled_from(seats), unique=True))
        rest = [s for s in seats if s not in slapped]
        left = draw(hs.lists(hs.sampled_from(rest), unique=True, max_size=2)) if rest else []
        v = decide({s: draw(hs.integers(0, 900)) * MS // 2 for s in slapped}, seats, RES,
                   "mock", excluded=dict.fromkeys(left, "held"))
        if draw(hs.booleans()):
            v = false_alarm(v)
        picker = draw(hs.sampled_from([*v.candidates, None, 1, n + 1]))
        decision = draw(hs.sampled_from(st.DECISIONS))
        rounds.append(rnd(v, picker, decision))
    return setup(n), rounds


@settings(deadline=None, max_examples=80)
@given(a_night())
def test_any_night_replays_from_the_log_to_the_same_state(night):
    state = assert_same_replay(*night)
    for r in state.rounds:  # nothing recorded can contradict itself
        assert r.picker is None or r.picker in r.verdict.candidates
        assert set(r.verdict.excluded_seats) <= set(r.verdict.candidates)


@settings(deadline=None, max_examples=15)
@given(hs.integers(0, 10_000), hs.integers(1, 400))
def test_long_nights_replay_from_the_log(seed, n):
    assert_same_replay(*long_game("stop_time", n, seed), legal=True)
