"""Typing a name, as data (companion.ui.presenters.players): the limit, the capital at
a word's start, the known players offered."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.ui.presenters.players import (
    NAME_MAX,
    SeatRow,
    default_rows,
    fitting,
    shift_for,
    suggestions,
)


@pytest.mark.parametrize(("text", "insert", "replaced", "fits"), [
    ("", "Ann", 0, "Ann"),
    ("A" * 19, "bc", 0, "b"),
    ("A" * 20, "b", 0, ""),
    ("A" * 20, "b", 1, "b"),  # a selected letter is replaced: room for one
    ("", "x" * 60, 0, "x" * 20),
    ("Ann", "\t", 0, ""),  # Tab is never a letter
    ("Ann", " M\r\n", 0, " M"),
])
def test_fitting(text, insert, replaced, fits):
    assert fitting(text, insert, replaced) == fits


@given(st.text(max_size=30), st.text(max_size=80))
def test_a_name_never_grows_past_the_limit(text, insert):
    text = text[:NAME_MAX]
    assert len(text + fitting(text, insert)) <= max(NAME_MAX, len(text))


@pytest.mark.parametrize(("text", "shift"), [
    ("", True), ("A", False), ("Ann ", True), ("Jean-", True), ("Jean-L", False)])
def test_shift_for(text, shift):
    assert shift_for(text) is shift


def rows(*names):
    return [SeatRow(i + 1, "red", n, True) for i, n in enumerate(names)]


@pytest.mark.parametrize(("known", "names", "typed", "offered"), [
    (["Cara", "Carl", "Dan", "Ann"], ("", "Dan"), "", ["Cara", "Carl", "Ann"]),
    (["Cara", "Carl", "Dan"], ("", ""), "car", ["Cara", "Carl"]),
    (["Cara", "Carl"], ("", ""), "Cara", []),  # exactly as typed: nothing to offer
    (["Cara", "Carl"], ("", "cara"), "", ["Carl"]),  # taken at seat 2, any case
    (["A", "B", "C", "D"], ("", ""), "", ["A", "B", "C"]),
    (["x" * 21], ("", ""), "", []),  # too long for a seat
    (["Seat 3", "Seat 1", "Ann"], ("", ""), "", ["Ann"]),  # the slap tool's stand-ins
])
def test_suggestions(known, names, typed, offered):
    assert suggestions(known, rows(*names), 1, typed) == offered


def test_the_slap_tools_stand_in_names_never_prefill_a_seat():
    from companion.config import load_config

    cfg = load_config()
    known = [("Seat 1", 1), ("Seat 2", 2), ("Ann", 3), ("Seat 9 extra", 4)]
    names = {r.seat: r.name for r in default_rows(cfg, known)}
    assert names[1] == "" and names[2] == "" and names[3] == "Ann"
    assert names[4] == "Seat 9 extra"  # a real name that starts with "Seat"
