"""``PVec``: the persistent vector behind the engines' growing histories behaves like the
tuple it replaces, and never changes once made."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import to_jsonable
from companion.games.pvec import EMPTY, PVec, newest

ops = st.lists(st.one_of(st.tuples(st.just("append"), st.integers()),
                         st.tuples(st.just("set"), st.integers(), st.integers())),
               max_size=300)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(), max_size=200), ops)
def test_behaves_like_a_tuple_and_keeps_every_version(start, steps):
    vec, model = PVec(start), list(start)
    versions = [(vec, tuple(model))]
    for step in steps:
        if step[0] == "append":
            vec, model = vec.append(step[1]), model + [step[1]]
        elif model:
            i = step[1] % len(model) - (len(model) if step[1] % 2 else 0)  # negative too
            vec = vec.set(i, step[2])
            model[i] = step[2]
        versions.append((vec, tuple(model)))
    for v, expected in versions:  # every earlier version is untouched
        assert v == expected and expected == v and tuple(v) == expected
        assert len(v) == len(expected) and hash(v) == hash(expected)
        assert list(reversed(v)) == list(reversed(expected))
        if expected:
            assert v[-1] == expected[-1] and v[0] == expected[0]
            assert v[len(expected) // 3:] == expected[len(expected) // 3:]
            assert v[-5:] == expected[-5:] and v[::7] == expected[::7]


def test_sizes_around_the_tree_levels():
    for n in (31, 32, 33, 1024 + 32, 1024 + 33, 32 * 32 * 32 + 33):
        vec = EMPTY
        for i in range(n):
            vec = vec.append(i)
        assert list(vec) == list(range(n)) == list(PVec(range(n)))
        assert vec[n - 1] == n - 1 and vec[-n] == 0 and 5 in vec and n not in vec


def test_errors_copies_and_json():
    vec = PVec([1, 2, 3])
    with pytest.raises(IndexError):
        vec[3]
    with pytest.raises(IndexError):
        vec.set(-4, 0)
    with pytest.raises(TypeError):
        vec["a"]
    assert vec != [1, 2, 3] and vec == (1, 2, 3) and vec != (1, 2)
    assert vec + (4,) == (1, 2, 3, 4) and (0,) + vec == (0, 1, 2, 3)
    assert pickle.loads(pickle.dumps(vec)) == vec == copy.deepcopy(vec)
    assert to_jsonable({"log": vec}) == {"log": [1, 2, 3]}
    assert newest(vec, 2) == (2, 3) and newest(vec, None) is vec and newest(vec, 0) == ()
