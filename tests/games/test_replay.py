"""The one replay (companion.games.replay): every reader of a log goes through it."""

from __future__ import annotations

import pytest

from companion.errors import LogError, RuleError
from companion.games import get_rules
from companion.games.replay import as_raised, final, replay

pytestmark = pytest.mark.arm64

SCOREPAD = get_rules("scorepad")
SETUP = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}


def score(seat, points):
    return {"type": "score", "seat": seat, "points": points}


def test_each_state_follows_from_the_one_apply():
    start = SCOREPAD.initial(SETUP)
    actions = [score(1, 3), score(2, 4), score(1, 1)]
    got = list(replay(SCOREPAD, start, actions))
    assert [i for i, _, _ in got] == [1, 2, 3]
    state = start
    for (_, action, after), want in zip(got, actions, strict=True):
        state = SCOREPAD.apply(state, want)
        assert action is want and after == state
    assert final(SCOREPAD, start, actions) == state
    assert final(SCOREPAD, start, []) is start


def test_a_refused_action_is_named_by_its_position_and_type():
    start = SCOREPAD.initial(SETUP)
    with pytest.raises(LogError, match=r"action 6 \('score'\) does not replay: .*seat 9"):
        final(SCOREPAD, start, [score(1, 3), score(9, 1)], start=5)


def test_a_caller_may_keep_the_engine_s_own_error_or_word_it():
    start = SCOREPAD.initial(SETUP)
    with pytest.raises(RuleError):
        final(SCOREPAD, start, [score(9, 1)], refusal=as_raised)
    with pytest.raises(LogError, match="^f.jsonl:7: nope$"):
        final(SCOREPAD, start, [score(9, 1)],
              refusal=lambda i, action, exc: LogError(f"f.jsonl:{i + 6}: nope"))


def test_states_before_a_refusal_are_given_out():
    start = SCOREPAD.initial(SETUP)
    seen = []
    with pytest.raises(LogError):
        for i, _, _ in replay(SCOREPAD, start, [score(1, 3), score(2, 2), score(7, 1)]):
            seen.append(i)
    assert seen == [1, 2]
