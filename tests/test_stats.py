"""The statistics players know (companion/stats.py), from small made-up game nights:
head-to-head, cooperative results apart, per-game bests, and no empty section."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.stats import (
    MIN_SLAPS,
    Best,
    CoopResult,
    HeadToHead,
    bests,
    cooperative_results,
    head_to_head,
    head_to_heads,
    sections,
)


@dataclass(frozen=True)
class G:
    """A game as History sums it up (the fields the statistics read)."""

    kind: str
    players: tuple[str, ...]
    winners: tuple[str, ...] = ()
    status: str = "finished"
    scores: dict = field(default_factory=dict)
    reactions: dict = field(default_factory=dict)
    runs: tuple = ()
    game_id: int = 0


def night(*games: G) -> list[G]:
    """Numbered from 1 in the order given."""
    return [G(**{**g.__dict__, "game_id": i}) for i, g in enumerate(games, start=1)]


AB = ("Ann", "Bob")
ABC = ("Ann", "Bob", "Cyd")


# ------------------------------------------------------------------------ head-to-head
@pytest.mark.parametrize("games, a, b, expected", [
    ([], "Ann", "Bob", (0, 0, 0)),
    ([G("scorepad", AB, ("Ann",))], "Ann", "Bob", (1, 1, 0)),
    ([G("scorepad", AB, ("Ann",))], "Bob", "Ann", (1, 0, 1)),
    # a shared win counts for neither; a third player's win neither
    ([G("scorepad", ABC, ("Ann", "Bob")), G("times", ABC, ("Cyd",))], "Ann", "Bob", (2, 0, 0)),
    # names match whatever their case
    ([G("crazy_time", ("ann", "BOB"), ("Bob",))], "Ann", "Bob", (1, 0, 1)),
    # only finished games: open and abandoned ones have no result
    ([G("scorepad", AB, ("Ann",), status="open"),
      G("scorepad", AB, ("Ann",), status="abandoned")], "Ann", "Bob", (0, 0, 0)),
    # competitive only: co-op missions and the slap pad are no duel
    ([G("time_stories", AB, AB), G("stop_time", AB)], "Ann", "Bob", (0, 0, 0)),
    # a game only one of them played does not count
    ([G("scorepad", ("Ann", "Cyd"), ("Ann",)), G("professor_tempus", AB, ("Bob",))],
     "Ann", "Bob", (1, 0, 1)),
    # one player against themself: nothing
    ([G("scorepad", AB, ("Ann",))], "Ann", "ann", (0, 0, 0)),
])
def test_head_to_head(games, a, b, expected):
    h = head_to_head(games, a, b)
    assert (h.together, h.a_won, h.b_won) == expected
    assert (h.a, h.b) == (a, b)


def test_every_pair_most_games_first_leader_named_first():
    games = night(G("scorepad", ABC, ("Bob",)), G("scorepad", ABC, ("Bob",)),
                  G("scorepad", AB, ("Ann",)), G("time_stories", ("Cyd", "Dee"), ("Cyd", "Dee")))
    assert head_to_heads(games) == [
        HeadToHead("Bob", "Ann", 3, 2, 1),
        HeadToHead("Bob", "Cyd", 2, 2, 0),
        HeadToHead("Ann", "Cyd", 2, 0, 0),
    ]
    assert head_to_heads(games)[0].line == "Bob 2 - 1 Ann (3 games)"
    assert head_to_heads(games)[2].neither == 2


# ------------------------------------------------------------------ cooperative results
@pytest.mark.parametrize("games, expected", [
    ([], []),
    ([G("scorepad", AB, ("Ann",))], []),  # competitive games are not counted here
    ([G("time_stories", AB, AB), G("time_stories", AB), G("time_stories", AB, AB),
      G("time_stories", AB, status="open"), G("time_stories", AB, status="abandoned")],
     [CoopResult("time_stories", "T.I.M.E Stories", 2, 1)]),
])
def test_cooperative_results(games, expected):
    assert cooperative_results(games) == expected


# ----------------------------------------------------------------------------- bests
def run(used, ending="mission complete", start=30):
    return {"number": 1, "ending": ending, "starting_tu": start, "used": used}


SLAPS = {"Ann": [0, 0, 40], "Bob": [12, 15, 0, 20], "Cyd": [5]}  # Cyd: too few to count


@pytest.mark.parametrize("games, expected", [
    ([], []),
    # the slap pad: the lowest median delay after the first slap; the most first slaps
    ([G("stop_time", ABC, status="open", reactions=SLAPS)],
     [Best("stop_time", "Slap pad", "Fastest slapper", "Ann",
           "0 ms median after the first (3 slaps)"),
      Best("stop_time", "Slap pad", "Most first slaps", "Ann", "2")]),
    # Crazy Time's slap rounds, over several games; a tie of first slaps names both
    ([G("crazy_time", AB, ("Ann",), reactions={"Ann": [30, 0], "Bob": [0]}),
      G("crazy_time", AB, ("Bob",), reactions={"Ann": [50], "bob": [10, 20]})],
     [Best("crazy_time", "Crazy Time", "Fastest slapper", "Bob",
           "10 ms median after the first (3 slaps)"),
      Best("crazy_time", "Crazy Time", "Most first slaps", "Ann and Bob", "1")]),
    # T.I.M.E Stories: fewest TU over every run of a completed mission; failed ones no
    ([G("time_stories", AB, AB, runs=(run(25, "time ran out"), run(12))),
      G("time_stories", AB, AB, runs=(run(30),)),
      G("time_stories", AB, (), runs=(run(3, "time ran out"),))],
     [Best("time_stories", "T.I.M.E Stories", "Fewest TU used", "Ann and Bob",
           "30 TU in 1 run", 2)]),
    # a run without its burn-down is no record
    ([G("time_stories", AB, AB, runs=({"number": 1, "used": None},))], []),
    # points: the highest winning score; the lowest where the lowest wins
    ([G("scorepad", AB, ("Bob",), scores={"Ann": 3, "Bob": 9}),
      G("scorepad", AB, ("Ann",), scores={"Ann": 12, "Bob": 4})],
     [Best("scorepad", "Score pad", "Highest score", "Ann", "12", 2)]),
    ([G("professor_tempus", AB, ("Ann",), scores={"Ann": 2, "Bob": 9})],
     [Best("professor_tempus", "Professor Tempus", "Lowest winning score", "Ann", "2", 1)]),
    # all level, or nobody won yet: no record
    ([G("scorepad", AB, AB, scores={"Ann": 5, "Bob": 5}),
      G("scorepad", AB, (), status="open", scores={"Ann": 99, "Bob": 0})], []),
])
def test_bests(games, expected):
    assert bests(night(*games) if games else games) == expected


def test_min_slaps_is_what_the_table_above_assumes():
    assert MIN_SLAPS == 3


# ------------------------------------------------------------------------------ sections
def test_a_section_without_data_is_left_out():
    assert sections([]) == []
    only_coop = sections([G("time_stories", AB, AB)])
    assert [s.title for s in only_coop] == ["Cooperative games"]
    only_duels = sections([G("crazy_time", AB, ("Ann",))])
    assert [s.title for s in only_duels] == ["Head-to-head (competitive games)"]


def test_every_section_with_its_lines():
    games = night(G("scorepad", AB, ("Ann",), scores={"Ann": 7, "Bob": 2}),
                  G("time_stories", AB, AB, runs=(run(18),)),
                  G("stop_time", AB, status="open", reactions={"Ann": [0, 0, 0]}))
    got = {s.title: s.lines for s in sections(games)}
    assert got == {
        "Head-to-head (competitive games)": ("Ann 1 - 0 Bob (1 game)",),
        "Cooperative games": ("T.I.M.E Stories: 1 won, 0 lost",),
        "Bests": ("Score pad:", "  Highest score: Ann, 7 (#1)",
                  "Slap pad:", "  Fastest slapper: Ann, 0 ms median after the first (3 slaps)",
                  "  Most first slaps: Ann, 3",
                  "T.I.M.E Stories:", "  Fewest TU used: Ann and Bob, 18 TU in 1 run (#2)"),
    }


# ---------------------------------------------------------------------------- properties
NAMES = ["Ann", "Bob", "Cyd", "ann", "Dee"]
game_st = st.builds(
    lambda kind, players, winners, status: G(kind, tuple(players),
                                             tuple(p for p in players if p in winners), status),
    st.sampled_from(["scorepad", "crazy_time", "times", "time_stories", "stop_time"]),
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True),
    st.sets(st.sampled_from(NAMES)),
    st.sampled_from(["finished", "finished", "open", "abandoned"]))


@settings(max_examples=200, deadline=None)
@given(games=st.lists(game_st, max_size=12), a=st.sampled_from(NAMES),
       b=st.sampled_from(NAMES))
def test_head_to_head_wins_fit_the_games_and_read_the_same_from_either_side(games, a, b):
    h = head_to_head(games, a, b)
    assert min(h.a_won, h.b_won) >= 0 and h.a_won + h.b_won <= h.together
    assert head_to_head(games, b, a) == h.swapped()
    if a.casefold() == b.casefold():
        assert h.together == 0
    assert h.together <= sum(1 for g in games if g.status == "finished")
    for pair in head_to_heads(games):
        assert pair.together > 0 and pair.a_won >= pair.b_won
        assert head_to_head(games, pair.a, pair.b) == pair


@settings(max_examples=100, deadline=None)
@given(games=st.lists(game_st, max_size=12))
def test_no_section_is_empty_and_coop_counts_every_finished_mission(games):
    for s in sections(games):
        assert s.lines
    coop = sum(r.won + r.lost for r in cooperative_results(games))
    assert coop == sum(1 for g in games if g.kind == "time_stories" and g.status == "finished")
