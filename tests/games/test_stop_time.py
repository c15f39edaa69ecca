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

MS = 1_000_000
RES = 1 * MS  # a 1 ms source bound


def setup(n=4):
    return {"players": [{"name": f"Seat {i}", "seat": i} for i in range(1, n + 1)]}


def verdict(slaps_ms, seats=(1, 2, 3, 4), res=RES):
    return decide({s: int(t * MS) for s, t in slaps_ms.items()}, seats, res, "mock")


def rnd(v, picker, decision="verdict"):
    return {"type": "slap_round", "verdict": v.to_json(), "picker": picker, "decision": decision}


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
    assert snap["rounds"][0]["verdict"]["picker"] == 4


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


def test_a_verdict_that_contradicts_its_own_times_is_refused():
    data = verdict({1: 0, 2: 40, 3: 95, 4: 180}).to_json()
    data["picker"], data["candidates"] = 3, [3]
    with malformed("do not follow"):
        play({"type": "slap_round", "verdict": data, "picker": 3, "decision": "verdict"})
    with malformed("slap_round"):
        play({"type": "slap_round", "verdict": {"version": 99}, "picker": 3,
              "decision": "verdict"})
    outsider = verdict({1: 0, 2: 40, 3: 95, 9: 180}, seats=(1, 2, 3, 9))
    with malformed("seat 9 slapped but is not a player"):
        play(rnd(outsider, 9))


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


# --------------------------------------------------------------------------- resuming from our log
# ``apply_logged`` replays rounds read back from our own game log: it trusts the verdict
# ``apply`` decided again when the round was played, but gives the very same state and
# refuses the same pickers and decisions.


def outcome(fn, state, action):
    """What ``fn`` makes of ``action``: ("ok", new state) or how it was refused."""
    try:
        return "ok", fn(state, action)
    except RuleError as exc:
        return "refused", exc.code
    except MalformedAction:
        return "malformed", None


def assert_same_replay(setup, actions, legal=False):
    """Both paths, round by round: the same state after each, the same refusals
    (``legal``: every round must be accepted)."""
    state = logged = st.initial(setup)
    for action in json.loads(json.dumps(actions)):  # as the SQLite log gives them back
        want, got = outcome(st.apply, state, action), outcome(st.apply_logged, logged, action)
        assert got == want, action
        assert want[0] == "ok" or not legal, (action, want)
        if want[0] == "ok":
            state, logged = want[1], got[1]
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
]


def test_apply_logged_gives_the_same_state_and_refusals_on_the_rulebook_rounds():
    state = assert_same_replay(setup(), RULEBOOK_ROUNDS)
    assert [r.picker for r in state.rounds] == [4, 3, 4, 2, None]
    assert state.rounds[1].candidates == (3, 4) and state.rounds[2].non_slappers == (3, 4)
    assert state.rounds[0].delays == ((1, 0.0), (2, 40.0), (3, 95.0), (4, 180.0))


def damaged(change):
    action = rnd(CLEAR, 4)
    change(action["verdict"])
    return action


@pytest.mark.parametrize(("action", "match"), [
    (damaged(lambda v: v.update(candidates="everyone")), "damaged"),
    (damaged(lambda v: v.pop("non_slappers")), "damaged"),
    (damaged(lambda v: v.update(picker=2)), "damaged"),  # not one of its candidates
    (damaged(lambda v: v.update(too_close=None)), "damaged"),
    (damaged(lambda v: v["ranking"].append("seat 5")), "damaged"),
    (damaged(lambda v: v["ranking"][1].update(t_ns=1.5)), "damaged"),
    (damaged(lambda v: v["ranking"][3].update(seat=9)), "seat 9 slapped but is not a player"),
    (damaged(lambda v: v.update(candidates=[4, 8])), "seat 8 is a candidate but is not a"),
    ({**rnd(CLEAR, 4), "verdict": "clear"}, "wrong type"),
])
def test_apply_logged_refuses_a_verdict_that_cannot_be_applied(action, match):
    with malformed(match):
        st.apply_logged(play(), action)


@hs.composite
def a_night(draw):
    """Random slap rounds for 2 to 8 players, the picker and decision right or not."""
    n = draw(hs.integers(2, 8))
    seats = tuple(range(1, n + 1))
    rounds = []
    for _ in range(draw(hs.integers(0, 25))):
        slapped = draw(hs.lists(hs.sampled_from(seats), unique=True))
        v = verdict({s: draw(hs.integers(0, 900)) / 2 for s in slapped}, seats)
        if draw(hs.booleans()):
            v = false_alarm(v)
        picker = draw(hs.sampled_from([*v.candidates, None, 1, n + 1]))
        decision = draw(hs.sampled_from(st.DECISIONS))
        rounds.append(rnd(v, picker, decision))
    return setup(n), rounds


@settings(deadline=None, max_examples=80)
@given(a_night())
def test_apply_logged_agrees_with_apply_on_any_round(night):
    assert_same_replay(*night)


@settings(deadline=None, max_examples=15)
@given(hs.integers(0, 10_000), hs.integers(1, 400))
def test_apply_logged_agrees_with_apply_over_long_nights(seed, n):
    assert_same_replay(*long_game("stop_time", n, seed), legal=True)


def test_apply_logged_agrees_with_apply_over_a_long_night_of_2000_rounds():
    state = assert_same_replay(*long_game("stop_time", 2000), legal=True)
    assert {r.decision for r in state.rounds} == set(st.DECISIONS)
