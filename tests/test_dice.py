"""companion.dice: faces, the Time Captain cost, and a chi-square check of fairness."""

import random
import secrets

import fairness
import pytest

from companion import dice
from companion.errors import MalformedAction

# A p-value this small from a fair die happens about once in a million runs.
P_THRESHOLD = 1e-6
ROLLS = 60_000


@pytest.mark.parametrize(
    ("face", "cost"), [(1, 1), (2, 2), (3, 2), (4, 2), (5, 2), (6, 3)]
)
def test_captain_cost_follows_the_rulebook_table(face, cost):
    assert dice.captain_cost(face) == cost


@pytest.mark.parametrize("face", [0, 7, -1, True, 2.0, "6", None])
def test_captain_cost_rejects_what_is_not_a_face(face):
    with pytest.raises(MalformedAction, match="1 to 6"):
        dice.captain_cost(face)


def test_injected_rng_gives_repeatable_faces_in_range():
    a = dice.roll(50, random.Random(7))
    b = dice.roll(50, random.Random(7))
    assert a == b
    assert len(a) == 50
    assert set(a) <= {1, 2, 3, 4, 5, 6}
    assert dice.roll(0, random.Random(7)) == ()


def test_default_source_is_the_operating_system(monkeypatch):
    assert isinstance(dice._SYSTEM, secrets.SystemRandom)
    calls = []

    class Spy:
        def randrange(self, a, b):
            calls.append((a, b))
            return 4

    monkeypatch.setattr(dice, "_SYSTEM", Spy())
    assert dice.roll(3) == (4, 4, 4)
    assert calls == [(1, 7)] * 3


@pytest.mark.parametrize("n", [-1, 101, True, 2.5, "3"])
def test_roll_rejects_bad_counts(n):
    with pytest.raises(ValueError):
        dice.roll(n)


def test_roll_rejects_a_source_giving_non_faces():
    class Broken:
        def randrange(self, a, b):
            return 7

    with pytest.raises(ValueError, match="not a face"):
        dice.roll(2, Broken())


@pytest.mark.parametrize(
    ("stat", "dof", "p"),
    [(11.0705, 5, 0.05), (15.0863, 5, 0.01), (3.8415, 1, 0.05), (5.9915, 2, 0.05),
     (9.4877, 4, 0.05), (0.0, 5, 1.0), (2.0, 2, 0.36788)],
)
def test_chi_square_tail_matches_tables(stat, dof, p):
    assert fairness.chi_square_p(stat, dof) == pytest.approx(p, rel=1e-3)


def test_chi_square_statistic_by_hand():
    faces = [1] * 20 + [2] * 10 + [3] * 10 + [4] * 10 + [5] * 10 + [6] * 0
    # expected 10 each: (100 + 0 + 0 + 0 + 0 + 100) / 10
    assert fairness.chi_square(faces) == pytest.approx(20.0)
    with pytest.raises(ValueError):
        fairness.chi_square([7])
    with pytest.raises(ValueError):
        fairness.chi_square([])


def test_os_dice_are_fair_by_chi_square():
    faces = tuple(f for _ in range(ROLLS // 100) for f in dice.roll(100))
    assert len(faces) == ROLLS
    p = fairness.chi_square_p(fairness.chi_square(faces))
    assert p > P_THRESHOLD, f"OS dice look biased: p = {p:.3g}"


class LoadedDie(random.Random):
    """Shows a 6 one time in five instead of one in six."""

    def randrange(self, start, stop=None, step=1):
        if self.random() < 0.2:
            return 6
        return 1 + int(self.random() * 5)


def test_the_check_catches_a_loaded_die():
    rng = LoadedDie(3)
    faces = tuple(f for _ in range(ROLLS // 100) for f in dice.roll(100, rng))
    p = fairness.chi_square_p(fairness.chi_square(faces))
    assert p < P_THRESHOLD, f"a loaded die passed: p = {p:.3g}"


def test_the_check_passes_a_fair_seeded_die():
    rng = random.Random(2024)
    faces = tuple(f for _ in range(ROLLS // 100) for f in dice.roll(100, rng))
    assert fairness.chi_square_p(fairness.chi_square(faces)) > P_THRESHOLD
