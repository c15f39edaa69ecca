"""decide(), false_alarm() and the slap facts JSON: table-driven cases and properties."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import ConfigError, LogError, MalformedAction
from companion.slap import RankEntry, decide, facts_from_json, false_alarm
from companion.slap.verdict import WHYS

pytestmark = pytest.mark.arm64

MS = 1_000_000


# -- decide: the table -------------------------------------------------------------------
# (name, slaps (seat -> ms), seats, bound ms, picker, candidates, too_close, non_slappers)
CASES = [
    ("last slapper picks up", {1: 0, 2: 50, 3: 120}, (1, 2, 3), 1, 3, (3,), False, ()),
    ("order by time, not seat", {3: 0, 1: 80, 2: 40}, (1, 2, 3), 1, 1, (1,), False, ()),
    ("one non-slapper picks up", {1: 0, 2: 5}, (1, 2, 3), 1, 3, (3,), False, (3,)),
    ("two non-slappers: table decides", {1: 0}, (1, 2, 3), 1, None, (2, 3), False, (2, 3)),
    ("non-slappers beat a close call", {1: 0, 2: 0.2}, (1, 2, 3), 1, 3, (3,), False, (3,)),
    ("last two too close", {1: 0, 2: 30, 3: 30.5}, (1, 2, 3), 1, None, (2, 3), True, ()),
    ("all within the bound of the last", {1: 0, 2: 29.2, 3: 29.6, 4: 30},
     (1, 2, 3, 4), 1, None, (2, 3, 4), True, ()),
    ("exactly the bound apart is resolved", {1: 0, 2: 29, 3: 30}, (1, 2, 3), 1, 3, (3,),
     False, ()),
    ("same timestamp is too close", {1: 0, 2: 7, 3: 7}, (1, 2, 3), 1, None, (2, 3), True, ()),
    ("same timestamp, zero bound", {1: 0, 2: 7, 3: 7}, (1, 2, 3), 0, None, (2, 3), True, ()),
    ("zero bound resolves 1 ns", {1: 0, 2: 7, 3: 7.000001}, (1, 2, 3), 0, 3, (3,), False, ()),
    ("keyboard bound", {1: 0, 2: 100, 3: 125}, (1, 2, 3), 30, None, (2, 3), True, ()),
    ("lone slapper", {4: 10}, (4,), 1, 4, (4,), False, ()),
    ("nobody slapped, one seat", {}, (5,), 1, 5, (5,), False, (5,)),
    ("nobody slapped", {}, (1, 2), 1, None, (1, 2), False, (1, 2)),
]


@pytest.mark.parametrize(("slaps", "seats", "bound", "picker", "cands", "close", "never"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_decide_table(slaps, seats, bound, picker, cands, close, never):
    v = decide({s: round(t * MS) for s, t in slaps.items()}, seats, bound * MS, "gpio")
    assert (v.picker, v.candidates, v.too_close, v.non_slappers) == (picker, cands, close, never)
    assert v.certain == (picker is not None)
    assert set(v.slappers) == set(slaps)
    assert v.resolution_ns == bound * MS and v.source == "gpio"


def test_ranking_delays():
    v = decide({5: 1_000, 2: 4_000, 7: 2_500}, (2, 5, 7), 0, "pad")
    assert v.ranking == (RankEntry(5, 1_000, 0, 0), RankEntry(7, 2_500, 1_500, 1_500),
                         RankEntry(2, 4_000, 3_000, 1_500))


# -- certain means certain: a seat that could not be timed is always a candidate ----------
# (name, slaps (seat -> ms), seats, excluded, case, picker, candidates)
EXCLUDED = [
    ("held seat may have been last", {1: 0, 2: 10}, (1, 2, 3), {3: "held"}, "synchronisation",
     None, (2, 3)),
    ("held seat beside a non-slapper", {1: 0}, (1, 2, 3), {3: "held"}, "synchronisation",
     None, (2, 3)),
    ("chatter beside a close call", {1: 0, 2: 10, 3: 10.5}, (1, 2, 3, 4), {4: "chatter"},
     "synchronisation", None, (2, 3, 4)),
    ("the only seat in play, untimed", {}, (5,), {5: "untimed"}, "synchronisation", 5, (5,)),
    ("every seat untimed", {}, (1, 2), {1: "late", 2: "quiet"}, "synchronisation", None,
     (1, 2)),
    ("false alarm: the held seat may have slapped last", {1: 0, 2: 10}, (1, 2, 3),
     {3: "held"}, "false_alarm", None, (2, 3)),
    ("false alarm nobody timed slapped: the untimed one", {}, (1, 2, 3), {3: "chatter"},
     "false_alarm", 3, (3,)),
]


@pytest.mark.parametrize(("slaps", "seats", "excluded", "case", "picker", "cands"),
                         [c[1:] for c in EXCLUDED], ids=[c[0] for c in EXCLUDED])
def test_excluded_seats_are_always_candidates(slaps, seats, excluded, case, picker, cands):
    v = decide({s: round(t * MS) for s, t in slaps.items()}, seats, MS, "gpio",
               excluded=excluded, case=case)
    assert (v.picker, v.candidates) == (picker, cands)
    assert v.excluded == tuple(sorted(excluded.items()))
    assert not set(v.excluded_seats) & (set(v.slappers) | set(v.non_slappers))


def test_summary_names_who_was_left_out_and_why():
    v = decide({1: 0, 2: 10 * MS}, (1, 2, 3), MS, "gpio", excluded={3: "held"})
    assert v.summary() == ("Seat 2 was last (+10.000 ms), but seat 3 (button already held "
                           "down) could not be timed: the table decides who picks up.")
    alone = decide({}, (4,), MS, "gpio", excluded={4: "chatter"})
    assert alone.summary() == "Seat 4 could not be timed (switch chattering) and picks up."


@pytest.mark.parametrize(("kwargs", "error", "words"), [
    ({"slaps": {9: 0}}, MalformedAction, "seat 9 slapped but is not in play"),
    ({"slaps": {1: 0}, "excluded": {1: "held"}}, MalformedAction,
     "seat 1 slapped but is excluded"),
    ({"excluded": {7: "held"}}, MalformedAction, "seat 7 is excluded but not in play"),
    ({"excluded": {2: "bored"}}, MalformedAction, "seat 2 is excluded for 'bored'"),
    ({"excluded": (2,)}, MalformedAction, "excluded must map seat -> why"),
    ({"seats": ()}, MalformedAction, "at least one seat"),
    ({"seats": ("3",)}, MalformedAction, "'3'"),
    ({"slaps": {1: 1.5}}, MalformedAction, "seat 1: slap time"),
    ({"resolution_ns": -1}, ConfigError, "-1"),
    ({"resolution_ns": True}, ConfigError, "True"),
    ({"case": "oops"}, MalformedAction, "oops"),
])
def test_decide_rejects(kwargs, error, words):
    args = {"slaps": {}, "seats": (1, 2), "resolution_ns": MS, "source": "gpio"} | kwargs
    with pytest.raises(error, match=words):
        decide(**args)


# -- false alarm: several slapped when nobody should have ---------------------------------
def test_false_alarm_last_false_slapper_picks_up():
    v = decide({1: 0, 3: 40 * MS, 4: 90 * MS}, (1, 2, 3, 4, 5), MS, "gpio")
    assert v.picker is None and v.candidates == (2, 5)  # as a real slap: non-slappers
    fa = false_alarm(v)
    assert (fa.case, fa.picker, fa.non_slappers, fa.slappers) == ("false_alarm", 4, (), (1, 3, 4))


def test_false_alarm_too_close_names_candidates():
    fa = false_alarm(decide({1: 0, 3: 40 * MS, 4: 40 * MS + 10}, (1, 2, 3, 4), MS, "gpio"))
    assert (fa.picker, fa.candidates, fa.too_close) == (None, (3, 4), True)


def test_false_alarm_keeps_excluded_and_handles_nobody():
    fa = false_alarm(decide({1: 0, 2: 5 * MS}, (1, 2, 3), MS, "gpio", excluded={3: "held"}))
    assert (fa.picker, fa.candidates, fa.excluded) == (None, (2, 3), ((3, "held"),))
    nobody = false_alarm(decide({}, (1, 2), MS, "gpio"))
    assert (nobody.picker, nobody.candidates, nobody.ranking) == (None, (), ())
    assert nobody.summary() == "Nobody slapped: nobody picks up."


def test_summaries():
    assert decide({1: 0, 2: 41_250_000}, (1, 2), MS, "gpio").summary() == \
        "Seat 2 picks up (last, +41.250 ms)."
    assert decide({1: 0}, (1, 2), MS, "gpio").summary() == "Seat 2 never slapped and picks up."
    assert "Seats 2, 3 never slapped" in decide({1: 0}, (1, 2, 3), MS, "gpio").summary()
    close = decide({1: 0, 2: 10}, (1, 2), MS, "gpio").summary()
    assert close.startswith("Too close to call between seats 1, 2 (within 1.000 ms)")


# -- properties --------------------------------------------------------------------------
@st.composite
def slap_rounds(draw):
    seats = draw(st.lists(st.integers(1, 8), min_size=1, max_size=8, unique=True))
    slappers = draw(st.lists(st.sampled_from(seats), unique=True))
    times = draw(st.lists(st.integers(0, 3 * 10**9), min_size=len(slappers),
                          max_size=len(slappers)))
    bound = draw(st.sampled_from([0, 100_000, MS, 10 * MS, 30 * MS]))
    return dict(zip(slappers, times, strict=True)), seats, bound


@settings(deadline=None, max_examples=150)
@given(slap_rounds(), st.randoms(use_true_random=False))
def test_certain_verdict_is_never_wrong_under_stamp_delay(rnd, random):
    """Stamps late by up to the bound (the model behind it): a named picker is right."""
    truth, seats, bound = rnd
    stamps = {s: t + (random.randrange(bound) if bound else 0) for s, t in truth.items()}
    v = decide(stamps, seats, bound, "gpio")
    never = set(seats) - set(truth)
    if never:
        assert set(v.candidates) == never
    elif v.certain:
        last = max(truth, key=truth.get)
        assert v.picker == last
        assert all(truth[last] > t for s, t in truth.items() if s != last)
    else:
        assert truth and max(truth, key=truth.get) in v.candidates


@st.composite
def excluded_rounds(draw):
    slaps, seats, bound = draw(slap_rounds())
    quiet = [s for s in seats if s not in slaps]
    left = draw(st.lists(st.sampled_from(quiet), unique=True)) if quiet else []
    return slaps, seats, bound, {s: draw(st.sampled_from(WHYS)) for s in left}


@settings(deadline=None, max_examples=150)
@given(excluded_rounds())
def test_facts_round_trip_derive_the_same_verdict(rnd):
    slaps, seats, bound, excluded = rnd
    for v in (decide(slaps, seats, bound, "gpio+pad", excluded=excluded),
              false_alarm(decide(slaps, seats, bound, "pad", excluded=excluded))):
        data = json.loads(json.dumps(v.to_facts()))
        assert facts_from_json(data).decide() == v


@settings(deadline=None, max_examples=150)
@given(excluded_rounds())
def test_a_named_picker_is_the_only_seat_that_can_be_last(rnd):
    """Certain means certain: with any excluded seat beside others, nobody is named."""
    slaps, seats, bound, excluded = rnd
    v = decide(slaps, seats, bound, "gpio", excluded=excluded)
    assert set(excluded) <= set(v.candidates)
    if v.certain:
        assert v.candidates == (v.picker,)
        assert not excluded or set(excluded) == {v.picker}


def test_facts_shape():
    v = decide({2: 12_345_678, 1: 0}, (3, 1, 2, 4), MS, "gpio", excluded={4: "held"})
    assert v.to_facts() == {
        "version": 2, "case": "synchronisation", "source": "gpio", "resolution_ns": MS,
        "seats": [1, 2, 3, 4],
        "slaps": [{"seat": 1, "t_ns": 0}, {"seat": 2, "t_ns": 12_345_678}],
        "excluded": [{"seat": 4, "why": "held"}],
    }


def _good():
    return decide({1: 0, 2: 5 * MS}, (1, 2, 3), MS, "gpio", excluded={3: "held"}).to_facts()


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.update(version=3), "version"),
    (lambda d: d.pop("source"), "missing field source"),
    (lambda d: d.update(case="cheat"), "case"),
    (lambda d: d.update(resolution_ns=-5), "negative"),
    (lambda d: d.update(resolution_ns="1"), "resolution_ns"),
    (lambda d: d["slaps"].reverse(), "time order"),
    (lambda d: d["slaps"][1].update(seat=1), "twice"),
    (lambda d: d["slaps"][1].pop("t_ns"), r"slaps\[1\].t_ns"),
    (lambda d: d.update(seats=[3, 1, 2]), "sorted"),
    (lambda d: d.update(seats=[1, 2]), "seat 3 is not one of the seats in play"),
    (lambda d: d["excluded"][0].update(why="bored"), "bored"),
    (lambda d: d["excluded"][0].update(seat=2), "seat 2 slapped but is excluded"),
    (lambda d: d.update(excluded=[3]), r"missing field excluded\[0\].seat"),
])
def test_facts_from_json_rejects(change, words):
    data = _good()
    change(data)
    with pytest.raises(LogError, match=words):
        facts_from_json(data)


def test_facts_from_json_rejects_non_object():
    with pytest.raises(LogError, match="object"):
        facts_from_json([])


V1 = {  # a verdict as version 1 stored it (issue 15's logs): its inputs are all there
    "version": 1, "case": "synchronisation", "source": "gpio", "resolution_ns": MS,
    "resolution_ms": 1.0,
    "ranking": [{"seat": 2, "t_ns": 0, "delay_first_ms": 0.0, "delay_prev_ms": 0.0},
                {"seat": 1, "t_ns": 7 * MS, "delay_first_ms": 7.0, "delay_prev_ms": 7.0}],
    "non_slappers": [], "excluded": [3], "picker": 1, "candidates": [1], "too_close": False,
}


def test_version_1_verdicts_are_read_as_facts():
    facts = facts_from_json(V1)
    assert (facts.seats, dict(facts.slaps), dict(facts.excluded)) == (
        (1, 2, 3), {2: 0, 1: 7 * MS}, {3: "held"})
    # its picker is no longer certain: the held seat may have slapped last
    assert facts.decide().candidates == (1, 3)


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d["ranking"][1].update(seat=2), "twice"),
    (lambda d: d.update(non_slappers=[2]), "listed twice"),
    (lambda d: d.update(excluded=None), "excluded"),
    (lambda d: d.pop("ranking"), "missing field ranking"),
])
def test_version_1_reader_rejects(change, words):
    data = json.loads(json.dumps(V1))
    change(data)
    with pytest.raises(LogError, match=words):
        facts_from_json(data)
