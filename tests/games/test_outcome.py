"""Each engine answers for its game (``outcome(state)``): who has won by its rulebook,
the points it keeps, the slap delays it times and a line saying where it stands.

One table of situations per game, each read from the rulebook's end-of-game section
(/work/shared/rules): the state is reached by the engine's own actions where that is
short, otherwise by setting the fields a played game would have reached. History, the
score sheets and the venue read nothing else, so these are what they show.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games import crazy_time as ct
from companion.games import get_rules, info, known
from companion.games import professor_tempus as pt
from companion.games import scorepad as sp
from companion.games import stop_time as st
from companion.games import time_after_time as tat
from companion.games import time_stories as ts
from companion.games import times as tm
from companion.games.base import Outcome, charts
from companion.games.professor_tempus.state import Round as PtRound
from companion.games.replay import final
from companion.slap import decide

MS = 1_000_000  # slap times are nanoseconds


def seats(n: int) -> list[dict]:
    return [{"name": name, "seat": i + 1}
            for i, name in enumerate(["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"][:n])]


def test_every_engine_sums_up_its_game():
    for kind in known():
        rules = get_rules(kind)
        assert callable(getattr(rules, "outcome", None)), f"{kind} has no outcome()"


# --------------------------------------------------------------------- Crazy Time
# "The winner of the fourth and last round wins the game. They become the GMT."


def ct_state(**fields) -> ct.State:
    return replace(ct.initial({"players": seats(5)}), **fields)


@pytest.mark.parametrize(("situation", "fields", "winners", "status"), [
    ("round 1 being played: nobody has won", {}, (), "Round 1"),
    ("round 3, whoever won rounds 1 and 2 has not won the game",
     {"round": 3, "results": (ct.RoundResult(1, 2, 1, "emptied"),
                              ct.RoundResult(2, 2, 2, "emptied"))}, (), "Round 3"),
    ("the winner of round 4 is the Grand Master of Time",
     {"round": 4, "phase": ct.OVER, "grand_master": 4}, (4,),
     "Round 4: Di is the Grand Master of Time"),
])
def test_crazy_time_is_won_by_the_winner_of_the_fourth_round(situation, fields, winners,
                                                              status):
    out = ct.outcome(ct_state(**fields))
    assert (out.winners, out.status, dict(out.scores)) == (winners, status, {})
    assert out.players[3] == (4, "Di")


def test_crazy_time_slap_rounds_are_the_seats_reaction_times():
    verdict = decide({1: 0, 2: 150 * MS, 3: 400 * MS, 4: 50 * MS, 5: 90 * MS},
                     (1, 2, 3, 4, 5), MS, "mock")  # Cy slapped last
    state = ct.apply(ct.initial({"players": seats(5)}),
                     {"type": "pickup", "seat": verdict.picker, "reason": "slap",
                      "verdict": verdict.to_facts()})
    out = ct.outcome(state)
    assert verdict.picker == 3
    assert dict(out.reactions) == {1: (0.0,), 2: (150.0,), 3: (400.0,), 4: (50.0,),
                                   5: (90.0,)}
    (_picked, timeline) = charts(ct, state)
    assert dict(timeline.rounds[0]) == {1: 0.0, 2: 150.0, 3: 400.0, 4: 50.0, 5: 90.0}


# ------------------------------------------------------------------ Professor Tempus
# "The player who has collected the most hourglasses wins the game." Cards still in
# hand at the end do not count; only collected cards, counted per round.


def pt_over(hourglasses: list[tuple[int, ...]], phase: str = "over") -> pt.State:
    state = pt.initial({"players": seats(3)})
    rounds = tuple(PtRound(i + 1, 1, 1, ((), (), ()), h) for i, h in enumerate(hourglasses))
    return replace(state, rounds=rounds, phase=phase, count=1)


@pytest.mark.parametrize(("situation", "rounds", "phase", "winners", "scores"), [
    ("the most hourglasses over all rounds wins", [(3, 5, 1), (4, 1, 1)], "over", (1,),
     {1: 7, 2: 6, 3: 2}),
    ("equal most hourglasses share the win", [(2, 5, 1), (3, 0, 1)], "over", (1, 2),
     {1: 5, 2: 5, 3: 2}),
    ("before the final count nobody has won, though someone leads", [(9, 0, 0)], "play",
     (), {1: 9, 2: 0, 3: 0}),
])
def test_professor_tempus_is_won_with_the_most_hourglasses(situation, rounds, phase, winners,
                                                            scores):
    out = pt.outcome(pt_over(rounds, phase))
    assert (out.winners, dict(out.scores)) == (winners, scores)
    assert pt.snapshot(pt_over(rounds, phase))["winners"] == list(winners)  # one rule


# ------------------------------------------------------------------ Time After Time
# "As soon as a player who has no Ghost in hand correctly covers all 7 spaces ... they
# are declared the winner." "If this player does not meet the victory conditions, the
# game ends in a tie."


@pytest.mark.parametrize(("situation", "fields", "winners", "status"), [
    ("nobody has finished their row", {}, (), "cards in the draw pile"),
    ("Bo covered all seven spaces with no Ghost", {"over": True, "result": "win",
                                                   "winners": (2,)}, (2,), "Bo won"),
    ("a hand emptied without a correct row: a tie, nobody wins",
     {"over": True, "result": "tie", "ended_by": 3}, (), "It ended in a tie"),
])
def test_time_after_time_has_one_winner_or_a_tie(situation, fields, winners, status):
    out = tat.outcome(replace(tat.initial({"players": seats(4)}), **fields))
    assert out.winners == winners and status in out.status and dict(out.scores) == {}


# ------------------------------------------------------------------ T.I.M.E Stories
# Cooperative: the group completes the mission together; a run that runs out of time
# is repeated ("failure is not an option"), so it is no loss and no end.


def ts_play(*actions) -> ts.State:
    state = ts.initial({"players": seats(3), "mission": "Asylum", "starting_tu": 20})
    return final(ts, state, actions)


@pytest.mark.parametrize(("situation", "actions", "winners", "status"), [
    ("the first run under way", [], (), "Run 1: 20 TU left"),
    ("a run failed for lack of time: the mission goes on",
     [{"type": "end_run", "outcome": "failed_time"}], (), "Run 1: 20 TU left"),
    ("the mission completed: everyone wins together",
     [{"type": "end_run", "outcome": "successful"}], (1, 2, 3),
     "Mission complete in run 1, 20 TU left"),
])
def test_time_stories_is_won_together_or_not_yet(situation, actions, winners, status):
    out = ts.outcome(ts_play(*actions))
    assert (out.winners, out.status) == (winners, status)
    assert info("time_stories").cooperative


def test_time_stories_draws_each_runs_burn_down():
    (chart,) = charts(ts, ts_play())
    assert chart.series == (("Run 1", ((0, 20),)),)


# ------------------------------------------------------------------------- Times
# "The first player to reach the target space wins the game. If several players reach
# the target space in the same round, there are several winners."


@pytest.mark.parametrize(("situation", "fields", "winners"), [
    ("nobody on the target space yet: no winner, though Cy leads",
     {"scores": (3, 5, 12), "round": 4}, ()),
    ("Cy reached 15 first", {"scores": (9, 11, 15), "phase": tm.OVER, "winners": (3,)}, (3,)),
    ("Ann and Cy reached it in the same round: two winners",
     {"scores": (16, 11, 15), "phase": tm.OVER, "winners": (1, 3)}, (1, 3)),
])
def test_times_is_won_on_the_target_space(situation, fields, winners):
    state = replace(tm.initial({"players": seats(3)}), **fields)
    out = tm.outcome(state)
    assert out.winners == winners
    assert dict(out.scores) == dict(zip((1, 2, 3), fields["scores"], strict=True))
    assert out.status.startswith(f"Round {state.round}") and "15" in out.status


# --------------------------------------------------------- score pad and slap pad


@pytest.mark.parametrize(("situation", "points", "finish", "winners"), [
    ("the most points wins once the game is finished", [(1, 5), (2, 3)], True, (1,)),
    ("equal most points share the win", [(1, 4), (2, 4)], True, (1, 2)),
    ("a leader is no winner while the game goes on", [(1, 5)], False, ()),
])
def test_the_score_pad_is_won_with_the_most_points(situation, points, finish, winners):
    actions = [{"type": "score", "seat": s, "points": p} for s, p in points]
    state = final(sp, sp.initial({"players": seats(2)}),
                  actions + ([{"type": "finish"}] if finish else []))
    out = sp.outcome(state)
    assert out.winners == winners
    assert dict(out.scores) == {s: sum(p for t, p in points if t == s) for s in (1, 2)}


def test_nobody_wins_the_slap_pad_and_it_is_not_ranked():
    verdict = decide({1: 0, 2: 80 * MS, 3: 300 * MS}, (1, 2, 3), MS, "mock")
    state = st.apply(st.initial({"players": seats(3)}),
                     {"type": "slap_round", "picker": verdict.picker, "decision": "verdict",
                      "verdict": verdict.to_facts()})
    out = st.outcome(state)
    assert out.winners == () and out.status == "1 slap round"
    assert dict(out.reactions) == {1: (0.0,), 2: (80.0,), 3: (300.0,)}
    assert not info("stop_time").ranked and all(
        info(k).ranked for k in known() if k != "stop_time")


def test_names_come_with_the_outcome():
    out = Outcome(((1, "Ann"), (2, "Bo")), "", winners=(2,), reactions={1: (), 2: (80.0,)})
    assert out.winner_names == ("Bo",) and out.reaction_names == {"Bo": (80.0,)}
    assert out.name(7) == "seat 7"
