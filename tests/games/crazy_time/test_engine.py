"""Tests for the Crazy Time rules engine: the rulebook's cases as tables, a whole game
replayed from its action list, bad input, and Hypothesis properties over random play."""

from __future__ import annotations

import contextlib
import copy
import json
from functools import reduce

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from longgames import long_game
from refusals import MALFORMED, expect, malformed, refused

from companion.errors import CompanionError, MalformedAction, RuleError
from companion.games import crazy_time as ct
from companion.slap.verdict import decide, false_alarm

NAMES = ["Ann", "Bob", "Cara", "Dan", "Eve", "Finn", "Gus"]


def setup_for(n: int, **extra) -> dict:
    return {"players": [{"name": NAMES[i], "seat": i + 1} for i in range(n)], **extra}


def play(actions, n: int = 5, **extra) -> ct.State:
    return reduce(ct.apply, actions, ct.initial(setup_for(n, **extra)))


def law(name, creator, absent, when=None, what=None) -> dict:
    return {"type": "new_law", "name": name, "when": when or f"when-secret of {name}",
            "what": what or f"what-secret of {name}", "creator": creator, "absent": absent}


def won(seat):
    return {"type": "round_won", "seat": seat}


def pickup(seat, reason="temporal_flaw", law_name=None, **more):
    action = {"type": "pickup", "seat": seat, "reason": reason, **more}
    if law_name is not None:
        action["law"] = law_name
    return action


MS = 1_000_000


def slaps(ms: dict, seats=(1, 2, 3, 4, 5), res_ms=1):
    """The slap arbiter's verdict (as the log stores it) for slaps ``seat: ms``."""
    return decide({s: int(t * MS) for s, t in ms.items()}, seats, res_ms * MS, "mock")


VERDICT = slaps({1: 0, 3: 40, 2: 85.5, 5: 130, 4: 410}).to_facts()  # Dan (4) slaps last

# A whole game for five players (Ann 1, Bob 2, Cara 3, Dan 4, Eve 5), Bob dealing first.
FULL_GAME = [
    # round 1: the two standing laws only
    pickup(4, "slap", "Synchronisation", verdict=VERDICT),
    {"type": "accusation", "accuser": 1, "accused": 3, "law": "time machine", "correct": True},
    {"type": "accusation", "accuser": 5, "accused": 2, "law": "Synchronisation", "correct": False},
    {"type": "mistakes", "seats": [3, 1], "reason": "false_slap"},
    {"type": "tick_tock", "seat": 4},
    won(5),
    law("Sevens", creator=5, absent=1, when="A seven is revealed", what="Everyone says bonjour"),
    # round 2: Eve deals; Ann (out of the room) tries to guess "Sevens"
    pickup(2, "temporal_flaw", "Sevens"),
    {"type": "guess", "seat": 1, "law": "Sevens", "correct": False},
    {"type": "accusation", "accuser": 3, "accused": 4, "law": "sevens", "correct": True},
    {"type": "guess", "seat": 1, "law": "Sevens", "correct": True, "pile_after": 3},
    won(3),
    law("Mirror", creator=3, absent=2),
    # round 3: Cara deals; Bob's correct guess empties his pile and wins the round
    pickup(4, "slap", "Mirror", verdict=slaps({2: 0, 1: 20, 3: 30, 5: 40, 4: 55}).to_facts()),
    {"type": "guess", "seat": 2, "law": "Mirror", "correct": True, "emptied": True},
    law("Hush", creator=2, absent=4),
    # round 4: Bob deals; Eve wins the last round
    pickup(5, "temporal_flaw", "Hush", pile=6),
    won(5),
]


# --------------------------------------------------------------------------- tables


@pytest.mark.parametrize(("players", "cards"), [(4, 15), (5, 12), (6, 10), (7, 9)])
def test_deal_table(players, cards):
    assert ct.deal_size(players) == cards
    assert ct.initial(setup_for(players)).deal == cards


@pytest.mark.parametrize("players", [2, 3, 8])
def test_player_count_outside_4_to_7_is_refused(players):
    with refused("setup.player_count"):
        ct.initial({"players": [{"name": f"P{i}", "seat": i + 1} for i in range(players)]})
    with refused("crazy_time.player_count"):
        ct.deal_size(players)


def test_first_dealer_deals_and_leads_round_one():
    state = ct.initial(setup_for(4, first_dealer=3))
    assert (state.round, state.phase, state.dealer, state.lead) == (1, ct.PLAYING, 3, 3)
    assert [x.name for x in state.laws] == ["Time Machine", "Synchronisation"]
    assert state.reveal_first == ()
    assert ct.initial(setup_for(4)).dealer == 1  # default: the first player listed


@pytest.mark.parametrize("bad", [0, 9, 5, True, "2"])
def test_first_dealer_must_be_a_seat_in_the_game(bad):
    with malformed("first_dealer"):
        ct.initial(setup_for(4, first_dealer=bad))


@pytest.mark.arm64
def test_full_game_replayed_from_its_action_list():
    state = play(FULL_GAME, first_dealer=2)
    snap = ct.snapshot(state)
    assert state.phase == ct.OVER and state.grand_master == 5
    assert [(r["round"], r["seat"], r["dealer"], r["how"]) for r in snap["results"]] == [
        (1, 5, 2, "emptied"), (2, 3, 5, "emptied"), (3, 2, 3, "guess"), (4, 5, 2, "emptied")]
    assert [x["name"] for x in snap["laws"]] == [
        "Time Machine", "Synchronisation", "Sevens", "Mirror", "Hush"]
    assert [(x["creator"], x["absent"], x["from_round"], x["guessed"]) for x in snap["laws"][2:]] \
        == [(5, 1, 2, True), (3, 2, 3, True), (2, 4, 4, False)]
    assert snap["left_room"] == [1, 2, 4]
    # who picked up, and why
    assert [(p["round"], p["seat"], p["reason"], p["law"]) for p in snap["pickups"]] == [
        (1, 4, "slap", "Synchronisation"), (1, 3, "temporal_flaw", "Time Machine"),
        (1, 5, "wrong_accusation", "Synchronisation"), (1, 1, "false_slap", None),
        (2, 2, "temporal_flaw", "Sevens"), (2, 4, "temporal_flaw", "Sevens"),
        (3, 4, "slap", "Mirror"), (4, 5, "temporal_flaw", "Hush")]
    assert snap["pickups"][0]["verdict"] == VERDICT  # kept verbatim
    assert snap["pickups_per_round"] == [
        {"round": 1, "by_seat": {"1": 1, "2": 0, "3": 1, "4": 1, "5": 1}},
        {"round": 2, "by_seat": {"1": 0, "2": 1, "3": 0, "4": 1, "5": 0}},
        {"round": 3, "by_seat": {"1": 0, "2": 0, "3": 0, "4": 1, "5": 0}},
        {"round": 4, "by_seat": {"1": 0, "2": 0, "3": 0, "4": 0, "5": 1}}]
    assert snap["slap_delays"] == {"1": [0.0, 20.0], "2": [85.5, 0.0], "3": [40.0, 30.0],
                                   "4": [410.0, 55.0], "5": [130.0, 40.0]}
    assert [p["decision"] for p in snap["pickups"] if p["verdict"]] == ["verdict", "verdict"]
    assert [(g["seat"], g["law"], g["correct"], g["removed"]) for g in snap["guesses"]] == [
        (1, "Sevens", False, 0), (1, "Sevens", True, 5), (2, "Mirror", True, 5)]
    assert snap["tick_tocks"] == [{"round": 1, "seat": 4}]
    assert snap["piles"] == {"5": 6}
    assert "GMT" in state.notice and "Eve" in state.notice
    json.dumps(snap)  # JSON-able


def test_rounds_dealers_and_reveal_reminders_step_by_step():
    state = play(FULL_GAME[:6], first_dealer=2)
    assert (state.phase, state.round) == (ct.NEW_LAW, 1)
    state = ct.apply(state, FULL_GAME[6])
    assert (state.phase, state.round, state.dealer, state.lead) == (ct.PLAYING, 2, 5, 5)
    assert state.reveal_first == (5,)
    assert "12 cards" in state.notice and "Eve" in state.notice
    state = play(FULL_GAME[:13], first_dealer=2)
    assert (state.round, state.dealer, state.reveal_first) == (3, 3, (3, 5))
    state = play(FULL_GAME[:16], first_dealer=2)
    assert (state.round, state.dealer, state.reveal_first) == (4, 2, (2, 3, 5))


@pytest.mark.parametrize(("correct", "picker", "reason"), [
    (True, 3, "temporal_flaw"),  # the accused broke the rule: they pick up
    (False, 1, "wrong_accusation"),  # the accuser was wrong: the accuser picks up
])
def test_accusation_decides_who_picks_up(correct, picker, reason):
    state = ct.apply(ct.initial(setup_for(4)), {"type": "accusation", "accuser": 1,
                                                "accused": 3, "law": "Time Machine",
                                                "correct": correct})
    (p,) = state.pickups
    assert (p.seat, p.reason, p.accuser, p.law) == (picker, reason, 1, "Time Machine")
    assert state.lead == picker
    assert "1 o'clock" in state.notice and "cancelled" in state.notice


@pytest.mark.parametrize(("seats", "picker"), [([3, 1], 1), ([1, 3, 4], 4), ([2], 2),
                                               ([4, 2, 4], 4)])
def test_last_of_several_mistakes_picks_up(seats, picker):
    state = ct.apply(ct.initial(setup_for(4)),
                     {"type": "mistakes", "seats": seats, "reason": "false_slap"})
    (p,) = state.pickups
    assert (p.seat, p.erred, p.reason) == (picker, tuple(seats), "false_slap")


def test_slap_delays_are_read_from_the_arbiters_ranking():
    verdict = slaps({2: 0, 1: 4, 3: 12.5}, seats=(1, 2, 3, 4))  # Dan never slapped
    state = ct.apply(ct.initial(setup_for(4)), pickup(4, "slap", verdict=verdict.to_facts()))
    assert ct.slap_delays(state) == {"1": [4.0], "2": [0.0], "3": [12.5], "4": []}
    assert ct.snapshot(state)["pickups"][0]["verdict"] == verdict.to_facts()


def test_the_last_pile_count_the_table_gave_is_kept_and_forgotten_at_the_next_deal():
    state = play([pickup(4, pile=9), pickup(2, pile=5), pickup(4, pile=7)])
    assert ct.snapshot(state)["piles"] == {"2": 5, "4": 7}
    state = play([pickup(4, pile=9), won(4), law("Sevens", creator=4, absent=1)])
    assert ct.snapshot(state)["piles"] == {}


def test_a_pickup_names_a_rule_in_the_tables_words_when_it_is_no_law():
    state = ct.apply(ct.initial(setup_for(4)), pickup(2, law_name="  said  13 o'clock "))
    (p,) = state.pickups
    assert (p.law, p.rule) == (None, "said 13 o'clock")


ROUND_2 = [won(5), law("Sevens", creator=5, absent=1)]


def test_correct_guess_that_empties_the_pile_wins_the_round():
    state = play(ROUND_2 + [pickup(3, law_name="Sevens")])
    state = ct.apply(state, {"type": "guess", "seat": 1, "law": "Sevens", "correct": True,
                             "pile_after": 0})
    assert state.phase == ct.NEW_LAW
    assert state.results[-1] == ct.RoundResult(round=2, seat=1, dealer=5, how="guess")
    assert state.guesses[-1].emptied and state.guesses[-1].removed == 5


def test_correct_guess_emptying_the_pile_in_round_four_crowns_the_gmt():
    state = play(FULL_GAME[:-1] + [{"type": "guess", "seat": 4, "law": "Hush", "correct": True,
                             "emptied": True}], first_dealer=2)
    assert (state.phase, state.grand_master) == (ct.OVER, 4)


def test_correct_guess_that_leaves_cards_keeps_the_round_going():
    state = play(ROUND_2 + [pickup(3, law_name="Sevens"),
                            {"type": "guess", "seat": 1, "law": "Sevens", "correct": True}])
    assert state.phase == ct.PLAYING and state.guessed("Sevens")


def test_a_wrong_accusation_naming_a_law_opens_no_guess():
    state = play(ROUND_2 + [{"type": "accusation", "accuser": 2, "accused": 3, "law": "Sevens",
                             "correct": False}])
    with refused("crazy_time.guess_needs_pickup"):
        ct.apply(state, {"type": "guess", "seat": 1, "law": "Sevens", "correct": True})


# --------------------------------------------------------------------------- bad input

OVER = FULL_GAME
BAD = [
    # (prefix, action, the refusal's code, or MALFORMED for an action no screen builds)
    (OVER, won(1), "crazy_time.no_fifth_round"),
    (OVER, law("Late", creator=5, absent=3), "crazy_time.no_law_after_last_round"),
    (OVER, pickup(1), "crazy_time.game_over"),
    (FULL_GAME[:12], law("Mirror", creator=3, absent=1), "crazy_time.left_once"),
    (ROUND_2[:1], {**law("x", 5, 1), "name": "   "}, "crazy_time.empty_text"),
    (ROUND_2[:1], {k: v for k, v in law("x", 5, 1).items() if k != "name"}, MALFORMED),
    (ROUND_2[:1], {**law("x", 5, 1), "when": ""}, "crazy_time.empty_text"),
    (ROUND_2[:1], law("TIME  machine", 5, 1), "crazy_time.law_name_taken"),
    (ROUND_2[:1], law("Sevens", creator=2, absent=1), "crazy_time.law_by_winner"),
    (ROUND_2[:1], law("Sevens", creator=5, absent=5), "crazy_time.creator_stays"),
    (ROUND_2[:1], law("Sevens", creator=5, absent=9), "crazy_time.no_such_seat"),
    (ROUND_2[:1], pickup(2), "crazy_time.law_first"),
    ([], law("Early", creator=1, absent=2), "crazy_time.law_after_win"),
    (ROUND_2 + [pickup(3, law_name="Sevens")],
     {"type": "guess", "seat": 2, "law": "Sevens", "correct": True},
     "crazy_time.guess_not_absent"),
    (ROUND_2 + [pickup(3, law_name="Sevens")],
     {"type": "guess", "seat": 9, "law": "Sevens", "correct": True}, "crazy_time.no_such_seat"),
    (ROUND_2, {"type": "guess", "seat": 1, "law": "Sevens", "correct": True},
     "crazy_time.guess_needs_pickup"),
    (ROUND_2 + [pickup(3, law_name="Sevens"),
                {"type": "guess", "seat": 1, "law": "Sevens", "correct": False}],
     {"type": "guess", "seat": 1, "law": "Sevens", "correct": True},
     "crazy_time.guess_needs_pickup"),
    (FULL_GAME[:11] + [pickup(2, law_name="Sevens")],
     {"type": "guess", "seat": 1, "law": "Sevens", "correct": True}, "crazy_time.guessed_already"),
    (ROUND_2 + [pickup(3, law_name="Synchronisation")],
     {"type": "guess", "seat": 1, "law": "Synchronisation", "correct": True},
     "crazy_time.guess_standing_law"),
    (ROUND_2, {"type": "guess", "seat": 1, "law": "Nope", "correct": True},
     "crazy_time.guess_unknown_law"),
    (ROUND_2 + [pickup(3, law_name="Sevens")],
     {"type": "guess", "seat": 1, "law": "Sevens", "correct": False, "emptied": True},
     "crazy_time.wrong_guess_empties"),
    (ROUND_2 + [pickup(3, law_name="Sevens")],
     {"type": "guess", "seat": 1, "law": "Sevens", "correct": True, "emptied": True,
      "pile_after": 2}, MALFORMED),
    ([], pickup(8), "crazy_time.no_such_seat"),
    ([], pickup(0, "slap"), "crazy_time.no_such_seat"),
    ([], pickup(True), MALFORMED),
    ([], pickup(2, "sneeze"), MALFORMED),
    ([], pickup(2, "temporal_flaw", verdict=VERDICT), MALFORMED),
    ([], pickup(2, "slap", verdict={"x": float("nan")}), MALFORMED),
    ([], pickup(2, pile=-1), "crazy_time.negative_count"),
    ([], {"type": "accusation", "accuser": 2, "accused": 2, "law": "x", "correct": True},
     "crazy_time.self_accusation"),
    ([], {"type": "accusation", "accuser": 2, "accused": 7, "law": "x", "correct": True},
     "crazy_time.no_such_seat"),
    ([], {"type": "accusation", "accuser": 2, "accused": 3, "law": "", "correct": True},
     "crazy_time.empty_text"),
    ([], {"type": "accusation", "accuser": 2, "accused": 3, "law": "x"}, MALFORMED),
    ([], {"type": "mistakes", "seats": []}, "crazy_time.mistakes_nobody"),
    ([], {"type": "mistakes", "seats": [1, 6]}, "crazy_time.no_such_seat"),
    ([], {"type": "mistakes", "seats": [1, 2], "reason": "wrong_accusation"}, MALFORMED),
    ([], {"type": "tick_tock", "seat": 6}, "crazy_time.no_such_seat"),
    ([], {"type": "shuffle"}, MALFORMED),
    ([], {"seat": 1}, MALFORMED),
]


@pytest.mark.parametrize(("prefix", "action", "expected"), BAD,
                         ids=[f"{i}-{a.get('type')}" for i, (_, a, _) in enumerate(BAD)])
def test_bad_input_is_refused_and_leaves_state_unchanged(prefix, action, expected):
    state = play(prefix, first_dealer=2)
    before = ct.snapshot(state)
    sent = copy.deepcopy(action)
    expect(expected, ct.apply, state, action)
    assert ct.snapshot(state) == before and action == sent


# --------------------------------------------------------------------------- properties

LAW_NAMES = ["Sevens", "Mirror", "Hush", "Time Machine", "Nope"]
REASON_PICKS = [*ct.REASONS, "sneeze"]


@st.composite
def an_action(draw, state: ct.State) -> dict:
    """A plausible action for ``state``: mostly legal, often not."""
    seats = list(state.seats) + [0, 8]
    seat = st.sampled_from(seats)
    known = [x.name for x in state.laws] + LAW_NAMES
    made = [x for x in state.laws if not x.standing]
    if state.phase == ct.NEW_LAW and draw(st.integers(0, 4)):
        free = [s for s in state.seats if s not in state.left_room()]
        return {"type": "new_law", "name": draw(st.sampled_from([f"Law {state.round}", *known])),
                "when": "w", "what": "x", "creator": state.results[-1].seat,
                "absent": draw(st.sampled_from(free + seats))}
    kind = draw(st.sampled_from(["pickup"] * 3 + ["accusation", "mistakes", "guess", "guess",
                                 "tick_tock", "round_won", "new_law", "bogus"]))
    if kind == "pickup":
        action = {"type": kind, "seat": draw(seat), "reason": draw(st.sampled_from(REASON_PICKS))}
        if made and draw(st.booleans()):
            action["law"] = draw(st.sampled_from(made)).name
        elif draw(st.booleans()):
            action["law"] = draw(st.sampled_from(known))
        if draw(st.booleans()):  # a real verdict; the seat drawn may or may not be its picker
            slapped = draw(st.lists(st.sampled_from(state.seats), unique=True))
            verdict = slaps({s: draw(st.integers(0, 900)) for s in slapped}, state.seats)
            if draw(st.booleans()):
                verdict = false_alarm(verdict)
            action["verdict"] = verdict.to_facts()
            if draw(st.booleans()) and verdict.candidates:
                action["seat"] = draw(st.sampled_from(verdict.candidates))
        return action
    if kind == "accusation":
        return {"type": kind, "accuser": draw(seat), "accused": draw(seat),
                "law": draw(st.sampled_from(known)), "correct": draw(st.booleans())}
    if kind == "mistakes":
        return {"type": kind, "seats": draw(st.lists(seat, max_size=3))}
    if kind == "guess":
        target = draw(st.sampled_from(made)) if made and draw(st.booleans()) else None
        return {"type": kind,
                "seat": target.absent if target else draw(seat),
                "law": target.name if target else draw(st.sampled_from(known)),
                "correct": draw(st.booleans()), "emptied": draw(st.booleans())}
    if kind in ("round_won", "tick_tock"):
        return {"type": kind, "seat": draw(seat)}
    if kind == "new_law":
        return {"type": kind, "name": draw(st.sampled_from(LAW_NAMES + ["", "New"])),
                "when": "w", "what": "x", "creator": draw(seat), "absent": draw(seat)}
    return {"type": kind}


@st.composite
def a_game(draw):
    """Random play: the setup and every action tried (legal or not), drawn as it goes."""
    setup = setup_for(draw(st.integers(4, 7)))
    setup["first_dealer"] = draw(st.sampled_from([p["seat"] for p in setup["players"]]))
    state = ct.initial(setup)
    tried = []
    for _ in range(draw(st.integers(0, 40))):
        action = draw(an_action(state))
        tried.append(action)
        with contextlib.suppress(CompanionError):
            state = ct.apply(state, action)
    return setup, tried


def live(setup, tried):
    """Apply every tried action, keeping the state when one is refused."""
    state, accepted = ct.initial(setup), []
    for action in tried:
        try:
            state = ct.apply(state, action)
        except CompanionError:
            continue
        accepted.append(action)
    return state, accepted


@pytest.mark.arm64
@settings(deadline=None, max_examples=60)
@given(a_game())
def test_replay_of_the_accepted_log_equals_the_live_state(game):
    setup, tried = game
    state, accepted = live(setup, tried)
    logged = json.loads(json.dumps(accepted))  # what the SQLite log gives back
    replayed = reduce(ct.apply, logged, ct.initial(json.loads(json.dumps(setup))))
    assert replayed == state
    assert ct.snapshot(replayed) == ct.snapshot(state)
    json.dumps(ct.snapshot(state))


@settings(deadline=None, max_examples=60)
@given(a_game())
def test_apply_never_mutates_its_input(game):
    setup, tried = game
    state = ct.initial(setup)
    for action in tried:
        before, sent = ct.snapshot(state), copy.deepcopy(action)
        try:
            new = ct.apply(state, action)
        except CompanionError:
            new = state
        assert action == sent
        assert ct.snapshot(state) == before
        state = new


@settings(deadline=None, max_examples=60)
@given(a_game(), st.data())
def test_illegal_actions_never_change_state(game, data):
    state, _ = live(*game)
    before = ct.snapshot(state)
    outsider = data.draw(st.sampled_from([0, 8, 9, -1]))
    illegal = data.draw(st.sampled_from([
        {"type": "pickup", "seat": outsider, "reason": "slap"},
        {"type": "guess", "seat": outsider, "law": "Sevens", "correct": True},
        {"type": "accusation", "accuser": outsider, "accused": 1, "law": "x", "correct": True},
        {"type": "round_won", "seat": outsider},
        {"type": "tick_tock", "seat": outsider},
        {"type": "new_law", "name": "", "when": "w", "what": "x", "creator": 1, "absent": 2},
        {"type": "teleport", "seat": 1},
    ]))
    with pytest.raises(CompanionError):
        ct.apply(state, illegal)
    assert ct.snapshot(state) == before


@settings(deadline=None, max_examples=60)
@given(a_game())
def test_bookkeeping_invariants_hold_in_any_game(game):
    state, _ = live(*game)
    snap = ct.snapshot(state)
    left = snap["left_room"]
    assert len(left) == len(set(left))  # nobody leaves the room twice
    assert all(law.creator != law.absent for law in state.laws if not law.standing)
    assert len(state.results) == state.round - (state.phase == ct.PLAYING)
    assert sum(sum(r["by_seat"].values()) for r in snap["pickups_per_round"]) \
        == len(state.pickups)
    assert (state.grand_master is not None) == (state.phase == ct.OVER)
    for g in state.guesses:  # each guess followed a pick-up because of its law
        assert any(p.law == g.law and p.opens_guess for p in state.pickups[:g.after_pickups])
    for p in state.pickups:  # a slap pick-up charges whom its verdict allows, and says who chose
        if p.verdict is not None:
            v = p.verdict
            assert p.seat == v.picker if v.picker is not None else p.seat in v.candidates
            assert p.decision == ("verdict" if v.picker is not None else "table")
            assert (p.reason == "false_slap") == (v.case == "false_alarm")


# --------------------------------------------------------------------------- pick-ups and verdicts
# Rulebook, in our words: at the Law of Synchronisation the last one to slap picks up; when
# several players made a mistake (several slapped when nobody should have), the last one to
# have made a mistake picks up; when others have played since a mistake, the last one to have
# played picks up (they should have seen it).

CLEAR = slaps({1: 0, 3: 40, 2: 85.5, 5: 130, 4: 410})  # Dan (4) is the last to slap
CLOSE = slaps({1: 0, 2: 40, 5: 95.0, 3: 300.0, 4: 300.4})  # Cara and Dan within 1 ms
CALLED_OFF = false_alarm(slaps({3: 0, 1: 50}))  # nobody should have slapped; Ann last


@pytest.mark.parametrize(("action", "code"), [
    (pickup(1, "slap", verdict=CLEAR.to_facts()), "slap.verdict_names_other"),  # the first
    (pickup(2, "slap", verdict=CLOSE.to_facts()), "slap.not_a_candidate"),
    (pickup(1, "slap", verdict=CALLED_OFF.to_facts()), "crazy_time.false_alarm_is_no_slap"),
    (pickup(4, "false_slap", verdict=CLEAR.to_facts()), "crazy_time.slap_is_no_false_alarm"),
    (pickup(3, "false_slap", verdict=CALLED_OFF.to_facts()), "slap.verdict_names_other"),
    ({"type": "mistakes", "seats": [1, 3], "reason": "false_slap",
      "verdict": CALLED_OFF.to_facts()}, "slap.verdict_names_other"),
    ({"type": "mistakes", "seats": [2, 1], "reason": "false_slap",
      "verdict": CALLED_OFF.to_facts()}, "crazy_time.erred_without_slap"),
    ({"type": "mistakes", "seats": [1, 4], "reason": "slap", "verdict": CLEAR.to_facts()},
     "crazy_time.mistakes_need_false_alarm"),
])
def test_a_pickup_must_agree_with_its_own_verdict(action, code):
    state = play([])
    with refused(code) as info:
        ct.apply(state, action)
    assert "seat" not in info.value.sentence.lower()


def test_the_verdicts_last_slapper_picks_up_and_the_arbiter_chose():
    (p,) = ct.apply(play([]), pickup(4, "slap", verdict=CLEAR.to_facts())).pickups
    assert (p.seat, p.decision) == (4, "verdict")
    assert ct.snapshot(play([pickup(4, "slap", verdict=CLEAR.to_facts())]))["pickups"][0][
        "decision"] == "verdict"


def test_too_close_to_call_the_table_chooses_among_the_candidates_and_that_is_recorded():
    assert CLOSE.too_close and CLOSE.candidates == (3, 4)
    for seat in (3, 4):
        (p,) = ct.apply(play([]), pickup(seat, "slap", verdict=CLOSE.to_facts())).pickups
        assert (p.seat, p.decision) == (seat, "table")
    with malformed("the table chose"):
        ct.apply(play([]), pickup(3, "slap", verdict=CLOSE.to_facts(), decision="verdict"))


def test_players_who_never_slapped_count_as_last():
    verdict = slaps({1: 0, 2: 30, 3: 50, 5: 60})  # Dan never slapped
    (p,) = ct.apply(play([]), pickup(4, "slap", verdict=verdict.to_facts())).pickups
    assert (p.seat, p.decision) == (4, "verdict")
    with refused("slap.verdict_names_other") as info:
        ct.apply(play([]), pickup(5, "slap", verdict=verdict.to_facts()))
    assert info.value.sentence == "The slap verdict names Dan, not Eve: Dan never slapped."


def test_a_false_alarm_charges_the_last_to_slap_for_a_false_slap():
    state = ct.apply(play([]), pickup(1, "false_slap", verdict=CALLED_OFF.to_facts()))
    assert (state.pickups[0].seat, state.pickups[0].reason) == (1, "false_slap")
    state = ct.apply(play([]), {"type": "mistakes", "seats": [3, 1], "reason": "false_slap",
                                "verdict": CALLED_OFF.to_facts()})
    (p,) = state.pickups
    assert (p.seat, p.erred, p.decision) == (1, (3, 1), "verdict")
    assert ct.slap_delays(state)["1"] == [50.0]  # the statistics credit the right players


def test_a_false_alarm_nobody_slapped_at_charges_nobody():
    empty = false_alarm(slaps({}))
    assert empty.candidates == ()
    with refused("slap.nobody_picks_up"):
        ct.apply(play([]), pickup(1, "false_slap", verdict=empty.to_facts()))


def test_others_played_since_the_mistake_so_the_last_to_have_played_picks_up():
    # Dan turned up a card breaking a law; Eve then played; Ann calls the Temporal Flaw.
    state = ct.apply(play([]), {"type": "accusation", "accuser": 1, "accused": 4,
                                "law": "Time Machine", "correct": True, "last_played": 5})
    (p,) = state.pickups
    assert (p.seat, p.reason, p.accuser, p.erred) == (5, "temporal_flaw", 1, (4,))
    assert state.lead == 5 and "Dan's mistake, and Eve played since" in state.notice
    assert ct.snapshot(state)["pickups_per_round"][0]["by_seat"]["5"] == 1
    # nobody played since: the accused picks up as before
    same = ct.apply(play([]), {"type": "accusation", "accuser": 1, "accused": 4,
                               "law": "Time Machine", "correct": True, "last_played": 4})
    assert (same.pickups[0].seat, same.pickups[0].erred) == (4, ())
    # a wrong accusation is the accuser's, whoever played since
    with malformed("correct accusation"):
        ct.apply(play([]), {"type": "accusation", "accuser": 1, "accused": 4,
                            "law": "Time Machine", "correct": False, "last_played": 5})
    with refused("crazy_time.no_such_seat"):
        ct.apply(play([]), {"type": "accusation", "accuser": 1, "accused": 4,
                            "law": "Time Machine", "correct": True, "last_played": 9})


# --------------------------------------------------------------------------- replaying the log
# What the game log gives back (plain JSON) replays through ``apply`` to the same state.


def as_logged(actions):
    """The actions as the SQLite log gives them back (plain JSON)."""
    return json.loads(json.dumps(actions))


def outcome(state, action):
    """What ``apply`` makes of ``action``: ("ok", new state) or how it was refused."""
    try:
        return "ok", ct.apply(state, action)
    except RuleError as exc:
        return "refused", exc.code
    except MalformedAction:
        return "malformed", None


def assert_same_replay(setup, actions, legal=False):
    """Played, then read back from JSON: the same state after each action, the same
    refusals (``legal``: every action must be accepted)."""
    state = logged = ct.initial(setup)
    for action, back in zip(actions, as_logged(actions), strict=True):
        want, got = outcome(state, action), outcome(logged, back)
        assert got[0] == want[0] and (want[0] == "ok" or got == want), action
        assert want[0] == "ok" or not legal, (action, want)
        if want[0] == "ok":
            state, logged = want[1], got[1]
    assert ct.snapshot(logged) == ct.snapshot(state)
    return logged


@pytest.mark.arm64
def test_the_rulebook_game_replays_from_the_log_to_the_same_state():
    state = assert_same_replay(setup_for(5, first_dealer=2), FULL_GAME, legal=True)
    assert state.grand_master == 5 and len(state.pickups) == 8


@pytest.mark.arm64
def test_the_verdict_pickups_of_the_rulebook_replay_from_the_log():
    never = slaps({1: 0, 2: 30, 3: 50, 5: 60})  # Dan never slapped
    state = assert_same_replay(setup_for(5), [
        pickup(4, "slap", verdict=CLEAR.to_facts()),
        pickup(3, "slap", verdict=CLOSE.to_facts()),
        pickup(4, "slap", verdict=CLOSE.to_facts(), decision="table"),
        pickup(3, "slap", verdict=CLOSE.to_facts(), decision="verdict"),
        pickup(4, "slap", verdict=never.to_facts()),
        pickup(1, "false_slap", verdict=CALLED_OFF.to_facts()),
        {"type": "mistakes", "seats": [3, 1], "reason": "false_slap",
         "verdict": CALLED_OFF.to_facts()},
        {"type": "mistakes", "seats": [3, 1], "reason": "false_slap",
         "verdict": CALLED_OFF.to_facts(), "decision": "table"},
    ])
    assert [(p.seat, p.decision) for p in state.pickups] == [
        (4, "verdict"), (3, "table"), (4, "table"), (4, "verdict"), (1, "verdict"),
        (1, "verdict")]
    assert state.pickups[-1].erred == (3, 1) and state.pickups[0].delays[-1] == (4, 410.0)


def damaged(change):
    action = pickup(4, "slap", verdict=CLEAR.to_facts())
    change(action["verdict"])
    return action


@pytest.mark.parametrize(("action", "match"), [
    (damaged(lambda v: v.pop("slaps")), "missing field slaps"),
    (damaged(lambda v: v.update(case="sneeze")), "sneeze"),
    (damaged(lambda v: v["slaps"][0].update(t_ns="soon")), r"slaps\[0\].t_ns"),
    (damaged(lambda v: v["slaps"].reverse()), "time order"),
    (damaged(lambda v: v.update(seats=[1, 2, 3, 4, 5, 9])), "seat 9 was in play but is not"),
    (damaged(lambda v: v.update(excluded=[{"seat": 4, "why": "held"}])),
     "seat 4 slapped but is excluded"),
    (pickup(4, "slap", verdict=[1, 2]), "verdict"),
])
def test_slap_facts_that_do_not_add_up_are_refused(action, match):
    with malformed(match):
        ct.apply(play([]), action)


def test_a_seat_that_could_not_be_timed_may_be_charged_by_the_table():
    held = decide({1: 0, 3: 40 * MS, 2: 85 * MS, 5: 130 * MS}, (1, 2, 3, 4, 5), MS, "mock",
                  excluded={4: "chatter"})
    assert held.picker is None and held.candidates == (4, 5)  # 5 was last; 4 may have been
    with refused("slap.not_a_candidate"):
        ct.apply(play([]), pickup(2, "slap", verdict=held.to_facts()))
    state = ct.apply(play([]), pickup(4, "slap", verdict=held.to_facts()))
    assert state.pickups[-1].decision == "table"


@settings(deadline=None, max_examples=60)
@given(a_game())
def test_any_play_replays_from_the_log(game):
    """Every action tried (legal or not): the same state, or the same refusal."""
    assert_same_replay(*game)


@pytest.mark.arm64
@settings(deadline=None, max_examples=15)
@given(st.integers(0, 10_000), st.integers(1, 600))
def test_long_nights_replay_from_the_log(seed, n):
    assert_same_replay(*long_game("crazy_time", n, seed), legal=True)
