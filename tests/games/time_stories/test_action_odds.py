"""Exact odds of a test roll: hand values, brute force over every face, a seeded simulation.

The brute force and the simulation resolve each roll with ``action_test.resolve`` (the
engine's own resolution), so these tests check that the convolution counts the same
outcomes the engine produces.
"""

import itertools
import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import MalformedAction
from companion.games.time_stories import action_test as at
from companion.games.time_stories.action_odds import count_distribution, roll_odds

B, S, H, T = "blank", "skull", "heart", "tu"


def brute_force(dice, shields, resistances, lives, turn, riposte_on_clear=True):
    """Every one of the 6**dice rolls, resolved by the engine's own rules."""
    clear = riposte = tu = 0
    damage = dict.fromkeys(resistances, 0)
    death = dict.fromkeys(resistances, 0)
    for faces in itertools.product(range(1, 7), repeat=dice):
        out = at.resolve(shields, list(faces), list(resistances.items()), turn, riposte_on_clear)
        clear += out.cleared
        riposte += out.riposte > 0
        tu += out.tu_cost > 0
        for loss in out.losses:
            damage[loss.character] += loss.total > 0
            death[loss.character] += loss.total >= lives[loss.character]
    n = 6**dice
    return (Fraction(clear, n), Fraction(riposte, n), Fraction(tu, n),
            {k: Fraction(v, n) for k, v in damage.items()},
            {k: Fraction(v, n) for k, v in death.items()})


@pytest.mark.parametrize(
    ("dice", "shields", "p_clear"),
    [(1, [B], Fraction(1, 2)),          # 4, 5 or 6
     (1, [B, B], Fraction(1, 6)),       # only the 6
     # two dice with a hit each (1/2 * 1/2), or a 6 beside a die without hits
     (2, [B, B], Fraction(1, 4) + 2 * Fraction(1, 6) * Fraction(1, 2)),
     (0, [B], Fraction(0)),
     (3, [B] * 7, Fraction(0))],
)
def test_clear_odds_by_hand(dice, shields, p_clear):
    assert roll_odds(dice, shields, {}).p_clear == p_clear


def test_riposte_odds_by_hand():
    # One die against a single skull shield, resistance 1: a rolled skull (1/3) leaves the
    # shield standing, 1 + 1 = 2 > 1; any hit removes the shield and there is no skull.
    odds = roll_odds(1, [S], {"A": 1, "B": 2}, lives={"A": 1, "B": 3})
    assert odds.characters["A"].p_damage == Fraction(1, 3)
    assert odds.characters["A"].p_death == Fraction(1, 3)
    assert odds.characters["B"].p_damage == 0
    assert odds.p_riposte == Fraction(1, 3)


def test_cook_odds_with_and_without_marie():
    plain = roll_odds(4, [B] * 4, {"Marie": 2, "Madeleine": 2})
    helped = roll_odds(4, [B] * 4, {"Marie": 2, "Madeleine": 2}, turn_to_hit=1)
    assert helped.p_clear > plain.p_clear
    assert sum(plain.p_removed) == 1 == sum(helped.p_removed)
    # Marie's ability turns a skull first, so the chance of any riposte goes down.
    assert helped.p_riposte < plain.p_riposte


@pytest.mark.parametrize(
    ("dice", "shields", "res", "turn"),
    [(3, [B, B, B, B, S, S], {"Hugo": 2}, 0),        # the rulebook fight
     (4, [B] * 4, {"Marie": 2, "Madeleine": 2}, 1),  # the cook
     (4, [S, H, T, B, S], {"A": 0, "B": 3}, 2),
     (2, [H, H], {"A": 1}, 0),
     (3, [T, S, S], {"A": 1, "B": 4}, 3),
     (0, [H], {"A": 1}, 0)],
)
@pytest.mark.parametrize("riposte_on_clear", [True, False])
def test_exact_odds_equal_brute_force(dice, shields, res, turn, riposte_on_clear):
    lives = dict.fromkeys(res, 1) | {"B": 2}
    odds = roll_odds(dice, shields, res, lives, turn, riposte_on_clear)
    clear, riposte, tu, damage, death = brute_force(dice, shields, res, lives, turn,
                                                    riposte_on_clear)
    assert odds.p_clear == clear
    assert odds.p_riposte == riposte
    assert odds.p_tu_loss == tu
    for name in res:
        assert odds.characters[name].p_damage == damage[name]
        assert odds.characters[name].p_death == death[name]


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 3), st.lists(st.sampled_from(at.SHIELD_KINDS), min_size=1, max_size=7),
       st.integers(0, 4), st.integers(0, 3), st.integers(1, 3))
def test_exact_odds_equal_brute_force_property(dice, shields, res, turn, life):
    turn = min(turn, dice)
    odds = roll_odds(dice, shields, {"A": res}, {"A": life}, turn)
    clear, riposte, tu, damage, death = brute_force(dice, shields, {"A": res}, {"A": life}, turn)
    assert (odds.p_clear, odds.p_riposte, odds.p_tu_loss) == (clear, riposte, tu)
    assert odds.characters["A"].p_damage == damage["A"]
    assert odds.characters["A"].p_death == death["A"]


def test_exact_odds_match_a_seeded_simulation():
    dice, shields, turn = 8, [B, B, S, B, H, B, S, T, B, B], 1
    res = {"A": 2, "B": 4}
    odds = roll_odds(dice, shields, res, {"A": 2, "B": 3}, turn)
    rng = random.Random(20240611)
    n = 20_000
    clear = 0
    damage = dict.fromkeys(res, 0)
    tu_total = 0
    for _ in range(n):
        faces = [rng.randrange(1, 7) for _ in range(dice)]
        out = at.resolve(shields, faces, list(res.items()), turn)
        clear += out.cleared
        tu_total += out.tu_cost
        for loss in out.losses:
            damage[loss.character] += loss.total > 0

    def close(observed, p):
        p = float(p)
        se = math.sqrt(p * (1 - p) / n)
        assert abs(observed / n - p) <= 4 * se + 1e-9, (observed / n, p)

    close(clear, odds.p_clear)
    for name in res:
        close(damage[name], odds.characters[name].p_damage)
    assert 0 < odds.p_clear < 1 and 0 < odds.characters["B"].p_damage < 1
    assert abs(tu_total / n - float(odds.expected_tu_loss)) < 0.05


def test_fifteen_dice_is_quick_and_consistent():
    odds = roll_odds(15, [B] * 10 + [S, S, H, T], {"A": 2, "B": 3, "C": 1, "D": 5},
                     {"A": 2, "B": 3, "C": 1, "D": 4}, turn_to_hit=2)
    assert sum(odds.p_removed) == 1
    assert 0 < odds.p_clear < 1
    dist = count_distribution(15, 1000, 1000, 0)
    assert sum(dist.values()) == 6**15
    # mean hits of one die: (2*1 + 1*2) / 6 = 2/3
    assert Fraction(sum(h * w for (h, _, _), w in dist.items()), 6**15) == 10


@settings(deadline=None, max_examples=30)
@given(st.integers(0, 12), st.lists(st.sampled_from(at.SHIELD_KINDS), min_size=1, max_size=12))
def test_one_more_die_never_lowers_the_chance_to_clear(dice, shields):
    assert roll_odds(dice + 1, shields, {}).p_clear >= roll_odds(dice, shields, {}).p_clear


def test_as_dict_is_plain_json():
    import json

    d = roll_odds(2, [B, S], {"A": 1}, {"A": 1}).as_dict()
    json.dumps(d)
    assert d["p_clear"]["exact"] == str(Fraction(d["p_clear"]["exact"]))
    assert d["characters"]["A"]["p_death"]["p"] == pytest.approx(
        float(Fraction(d["characters"]["A"]["p_death"]["exact"])))


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((-1, [B], {}), {}), ((101, [B], {}), {}), ((2, [], {}), {}), ((2, ["gold"], {}), {}),
     ((2, [B], {}), {"turn_to_hit": 3}), ((2, [B], {"A": -1}), {})],
)
def test_bad_questions_are_malformed(args, kwargs):
    with pytest.raises(MalformedAction):
        roll_odds(*args, **kwargs)
