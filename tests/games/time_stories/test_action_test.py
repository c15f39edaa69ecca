"""Action-dice tests: the pure resolution (action_test) and the test actions of the engine.

The two worked examples of the rulebook (the locked fight and the cook in the kitchen)
are checked both on ``resolve`` and through ``time_stories.apply``.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from refusals import MALFORMED, expect, malformed, refused

from companion.errors import CompanionError
from companion.games import time_stories as ts
from companion.games.time_stories import action_test as at

B, S, H, T = "blank", "skull", "heart", "tu"
PLAYERS = [{"name": "Ann", "seat": 1}, {"name": "Bea", "seat": 2}]
MARIE = {"name": "Marie", "player_seat": 1, "life": 2, "resistance": 2,
         "characteristics": {"Deftness": 2, "Glibness": 3, "Combat": 1}}
MADELEINE = {"name": "Madeleine", "player_seat": 2, "life": 3, "resistance": 2,
             "characteristics": {"Deftness": 2, "Glibness": 1, "Combat": 2}}
FIGHTER = {"name": "Hugo", "player_seat": 2, "life": 3, "resistance": 2,
           "characteristics": {"Combat": 3}}


def game(*characters, **setup):
    chars = list(characters) or [MARIE, MADELEINE]
    return ts.initial({"players": PLAYERS, "characters": chars} | setup)


def life(state, name):
    return next(c.life for c in state.characters if c.name == name)


def start(state, space="B", characteristic="Glibness", characters=("Marie", "Madeleine"),
          shields=(B, B, B, B), locked=False):
    return ts.apply(state, {"type": "test_start", "space": space, "characteristic": characteristic,
                            "characters": list(characters), "shields": list(shields),
                            "locked": locked})


# ----------------------------------------------------------------- faces and resolution
@pytest.mark.parametrize(("face", "symbol", "hits"),
                         [(1, "skull", 0), (2, "skull", 0), (3, "blank", 0), (4, "hit", 1),
                          (5, "hit", 1), (6, "double", 2)])
def test_faces_of_a_regular_die(face, symbol, hits):
    out = at.resolve([B, B, B], [face], [])
    assert out.symbols == (symbol,)
    assert out.hits == hits
    assert out.skulls == (1 if symbol == "skull" else 0)


def test_rulebook_fight_four_blank_two_skull_shields():
    # Three Combat dice give two hits and two skulls; resistance 2.
    out = at.resolve([B, B, B, B, S, S], [1, 6, 2], [("Hugo", 2)])
    assert (out.hits, out.skulls) == (2, 2)
    assert out.left == (B, B, S, S)
    assert out.riposte == 4  # two rolled skulls + two skull shields left
    assert out.losses == (at.Loss("Hugo", 1, 0),)
    assert not out.cleared


@pytest.mark.parametrize(
    ("faces", "turn", "hits", "cleared"),
    [([3, 4, 4, 5], 1, 4, True),   # the blank die is turned into a hit
     ([1, 4, 4, 5], 1, 4, True),   # a skull is turned first: no riposte left
     ([3, 4, 4, 5], 0, 3, False),  # without Marie's ability one shield stays
     ([6, 6, 3, 3], 1, 5, True)],
)
def test_rulebook_cook_four_glibness_dice(faces, turn, hits, cleared):
    out = at.resolve([B] * 4, faces, [("Marie", 2), ("Madeleine", 2)], turn_to_hit=turn)
    assert out.hits == hits
    assert out.cleared is cleared
    assert out.skulls == 0
    assert out.riposte == 0


@pytest.mark.parametrize(
    ("symbols", "n", "turned"),
    [(("hit", "skull", "blank", "skull"), 1, (1,)),
     (("hit", "skull", "blank", "skull"), 2, (1, 3)),
     (("hit", "skull", "blank", "skull"), 3, (1, 2, 3)),
     (("hit", "double", "blank"), 3, (2,)),
     (("double",), 1, ())],
)
def test_turn_to_hit_takes_skulls_then_blanks_never_hits(symbols, n, turned):
    out, idx = at.turn_dice(symbols, n)
    assert idx == turned
    assert all(out[i] == "hit" for i in idx)
    assert all(out[i] == symbols[i] for i in range(len(symbols)) if i not in idx)


@pytest.mark.parametrize(
    ("shields", "faces", "res", "riposte", "loss"),
    [([S, S], [3], 0, 0, 0),            # no skull rolled: skull shields do nothing
     ([B, S], [1], 2, 2, 0),            # 1 + 1 = 2, resistance 2 holds
     ([B, S], [1, 2], 2, 3, 1),         # 2 + 1 = 3 beats resistance 2
     ([B, B], [1, 1, 1], 2, 3, 1),      # rolled skulls alone can beat resistance
     ([S, B], [4, 1], 1, 1, 0)],        # the skull shield was hit away first
)
def test_riposte_rule(shields, faces, res, riposte, loss):
    out = at.resolve(shields, faces, [("X", res)])
    assert out.riposte == riposte
    assert out.losses[0].riposte == loss


def test_hearts_and_tu_shields_left_cost_per_character_and_for_the_group():
    out = at.resolve([B, H, H, T, T, T], [4], [("A", 5), ("B", 0)])
    assert out.left == (H, H, T, T, T)
    assert [loss.hearts for loss in out.losses] == [2, 2]
    assert out.tu_cost == 3
    out = at.resolve([B, H, T], [6, 4], [("A", 5)])
    assert out.cleared and out.tu_cost == 0 and out.losses[0].hearts == 0


def test_riposte_on_the_clearing_roll_is_a_table_option():
    on = at.resolve([B], [4, 1, 1, 1], [("A", 2)], riposte_on_clear=True)
    off = at.resolve([B], [4, 1, 1, 1], [("A", 2)], riposte_on_clear=False)
    assert on.cleared and off.cleared
    assert on.losses[0].riposte == 1 and off.losses[0].riposte == 0


@pytest.mark.parametrize(("raw", "expected"), [
    ([], "time_stories.no_shields"), (None, "time_stories.no_shields"),
    (["blank", "gold"], MALFORMED), ([B] * 31, "time_stories.too_many_shields"),
    ("blank", MALFORMED)])
def test_bad_shields_are_refused(raw, expected):
    expect(expected, at.parse_shields, raw)


@pytest.mark.parametrize("mods", [{"extra_dice": -21}, {"turn_to_hit": 21}, {"luck": 1},
                                  {"extra_dice": True}, [1]])
def test_bad_modifiers_are_refused(mods):
    with pytest.raises(CompanionError):
        at.parse_modifiers(mods)


@settings(deadline=None, max_examples=150)
@given(st.lists(st.sampled_from(at.SHIELD_KINDS), min_size=1, max_size=10),
       st.lists(st.integers(1, 6), max_size=10), st.integers(0, 4), st.integers(0, 10))
def test_resolution_invariants(shields, faces, res, turn):
    turn = min(turn, len(faces))
    out = at.resolve(shields, faces, [("A", res)], turn_to_hit=turn)
    assert out.removed + out.left == tuple(shields)
    assert len(out.removed) == min(out.hits, len(shields))
    assert out.cleared == (not out.left)
    assert out.losses[0].hearts == out.left.count(H)
    assert out.tu_cost == out.left.count(T)
    if out.skulls == 0:
        assert out.riposte == 0 and out.losses[0].riposte == 0


# ----------------------------------------------------------------- through the engine
def test_engine_rulebook_fight_locked_then_the_group_joins():
    s = game(MARIE, MADELEINE, FIGHTER)
    s = start(s, space="D", characteristic="Combat", characters=["Hugo"],
              shields=[B, B, B, B, S, S], locked=True)
    assert ts.dice_for(s, s.tests[0]) == 3
    s = ts.apply(s, {"type": "test_roll", "faces": [1, 6, 2]})
    assert life(s, "Hugo") == 2  # 3 LP -> 2 LP
    assert s.tests[0].left == (B, B, S, S)
    assert s.last_roll.outcome.losses[0].total == 1
    with refused("time_stories.locked_abandon"):
        ts.apply(s, {"type": "test_abandon"})
    with refused("time_stories.locked_leave"):
        ts.apply(s, {"type": "travel", "die": 3})
    with refused("time_stories.locked_stay") as info:
        ts.apply(s, {"type": "test_continue", "characters": ["Marie"]})
    assert info.value.fields["names"] == "Hugo"
    tu = s.tu
    s = ts.apply(s, {"type": "test_continue", "characters": ["Hugo", "Marie", "Madeleine"]})
    assert s.tu == tu - 1
    assert ts.dice_for(s, s.tests[0]) == 3 + 1 + 2


def test_engine_rulebook_cook_in_the_kitchen():
    s = ts.apply(game(), {"type": "travel", "die": 2, "to": "Kitchen"})
    s = start(s)
    assert ts.dice_for(s, s.tests[0]) == 4  # Marie 3 + Madeleine 1
    s = ts.apply(s, {"type": "test_roll", "faces": [3, 4, 5, 4],
                     "modifiers": {"turn_to_hit": 1}})
    assert s.tests == ()
    assert s.last_roll.outcome.cleared
    assert s.tu == 23  # clearing a test costs no time of its own


def test_face_count_must_match_dice_and_names_both_numbers():
    s = start(game())
    with malformed(r"3 faces .* needs 4 dice"):
        ts.apply(s, {"type": "test_roll", "faces": [4, 4, 4]})
    with malformed(r"4 faces .* needs 6 dice"):
        ts.apply(s, {"type": "test_roll", "faces": [4, 4, 4, 4],
                     "modifiers": {"extra_dice": 2}})
    s2 = ts.apply(s, {"type": "test_roll", "faces": [3, 3, 3, 3, 3, 3],
                      "modifiers": {"extra_dice": 2}})
    assert s2.last_roll.outcome.hits == 0


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [({"characters": []}, "time_stories.test_nobody"),
     ({"characters": ["Nobody"]}, "time_stories.no_such_character"),
     ({"characteristic": "Search"}, "time_stories.lacks_characteristic"),
     ({"characters": ["Marie", "Marie"]}, MALFORMED),
     ({"shields": []}, "time_stories.no_shields")],
)
def test_test_start_rejects(kwargs, expected):
    s = game()
    expect(expected, lambda: start(s, **kwargs))


@pytest.mark.parametrize("value", [-1, 21, True, 2.5])
def test_absurd_characteristics_are_refused_at_setup(value):
    bad = MARIE | {"characteristics": {"Glibness": value}}
    with pytest.raises(CompanionError, match="Glibness"):
        game(bad)


def test_continue_costs_one_tu_once_per_turn_and_abandon_resets():
    s = start(game(), shields=[B] * 8)
    s = ts.apply(s, {"type": "test_roll", "faces": [3, 3, 3, 3]})
    with refused("time_stories.rolled_this_turn"):
        ts.apply(s, {"type": "test_roll", "faces": [3, 3, 3, 3]})
    s1 = ts.apply(s, {"type": "test_continue"})
    assert s1.tu == s.tu - 1 and s1.turn == s.turn + 1
    # A group that has already paid for the turn (stay) continues for free.
    s2 = ts.apply(ts.apply(s, {"type": "stay"}), {"type": "test_continue"})
    assert s2.tu == s.tu - 1
    s3 = ts.apply(s, {"type": "test_abandon"})
    assert s3.tests == ()
    s4 = start(ts.apply(s3, {"type": "stay"}), shields=[B] * 8)
    assert s4.tests[0].left == (B,) * 8


STAY, ABANDON = {"type": "stay"}, {"type": "test_abandon", "space": "B"}
MISS = {"type": "test_roll", "space": "B", "faces": [3, 3, 3, 3]}


@pytest.mark.parametrize(
    ("before_retry", "retry_ok", "tu_spent"),
    [([MISS, ABANDON], False, 0),       # same turn: starting it again would be a free roll
     ([MISS, ABANDON, STAY], True, 1),  # a new turn paid for: the test may start again
     ([MISS, STAY, ABANDON], True, 1),  # the turn was already paid before abandoning
     ([ABANDON], True, 0)],             # never rolled: nothing was tried yet
)
def test_an_abandoned_test_is_tried_again_only_in_a_new_turn(before_retry, retry_ok, tu_spent):
    s = start(game(), shields=[B] * 8)
    for action in before_retry:
        s = ts.apply(s, action)
    assert s.tu == 25 - tu_spent
    if retry_ok:
        assert start(s, shields=[B] * 8).tests[0].left == (B,) * 8
    else:
        for who in (["Marie", "Madeleine"], ["Madeleine"]):
            with refused("time_stories.retry_needs_turn"):
                start(s, characters=who, shields=[B] * 8)


def test_tu_shields_left_cost_time_and_hearts_cost_life():
    s = start(game(), shields=[B, H, T, T])
    s = ts.apply(s, {"type": "test_roll", "faces": [4, 3, 3, 3]})
    assert s.tu == 25 - 2
    assert (life(s, "Marie"), life(s, "Madeleine")) == (1, 2)
    assert [e.kind for e in s.log][-1] == "shields"


def test_death_in_a_test_takes_the_character_out_and_can_end_the_run():
    s = start(game(MARIE), characters=["Marie"], shields=[H, H, H])
    s = ts.apply(s, {"type": "test_roll", "faces": [3, 3, 3]})
    marie = s.characters[0]
    assert marie.dead and marie.tu_at_death == 25 and marie.revives_at == 18
    assert s.last_roll.deaths == ("Marie",)
    assert s.tests == ()
    assert s.run.outcome == "failed_deaths"


def test_two_open_tests_need_a_space_and_keep_characters_apart():
    s = start(game(), characters=["Marie"])
    with refused("time_stories.space_busy"):
        start(s, characters=["Madeleine"])
    with refused("time_stories.in_other_test"):
        start(s, space="C", characters=["Marie"])
    s = start(s, space="C", characteristic="Deftness", characters=["Madeleine"], shields=[B])
    with refused("time_stories.which_test"):
        ts.apply(s, {"type": "test_roll", "faces": [4, 4, 4]})
    s = ts.apply(s, {"type": "test_roll", "space": "C", "faces": [4, 4]})
    assert [t.space for t in s.tests] == ["B"]
