"""Every action an engine test here plays is also replayed the way a resume replays it.

While the tests of this folder run, ``ts.apply`` is wrapped: each action it accepts is
applied again with ``ts.apply_logged`` (what ``GameSession.resume`` uses on our own log);
the two states must be equal and the action untouched. So every rulebook example, table
and property of the engine's tests is also a test that a resumed game is the game that
was played. (Module scope: Hypothesis refuses function-scoped fixtures around its
examples.)
"""

from __future__ import annotations

import copy

import pytest

from companion.games import time_stories as ts
from companion.games.evolve import replace
from companion.games.pvec import EMPTY


def _equal(a, b, given) -> bool:
    """``a == b`` without walking the whole log: both states add their lines to the log
    of ``given`` (the same objects), so only the new lines and the other fields differ.
    Keeps the check linear in a long game (the long games here are built through it)."""
    n = len(given.log)
    return (len(a.log) == len(b.log) and a.log[n:] == b.log[n:]
            and replace(a, log=EMPTY) == replace(b, log=EMPTY))


def _checked(real_apply):
    def apply(state, action):
        new = real_apply(state, action)  # a refusal goes to the test as it always did
        given = copy.deepcopy(action)
        logged = ts.apply_logged(state, action)
        assert type(logged) is type(new)
        assert _equal(logged, new, state), f"apply_logged differs from apply after {action!r}"
        assert action == given, "apply_logged changed the action"
        return new

    return apply


@pytest.fixture(autouse=True, scope="module")
def _resume_agrees_with_play():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ts, "apply", _checked(ts.apply))
        yield
