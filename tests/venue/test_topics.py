"""Topic levels from any table name, and the payload checks that keep foreign or
malformed messages off the page."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.venue.topics import (
    PayloadError,
    Topics,
    check_live,
    check_result,
    decode,
    encode,
    segment,
)


@pytest.mark.parametrize(("name", "slug"), [
    ("Table 3", "table-3"), ("Café Chronos", "cafe-chronos"), ("Table <2> & Bar", "table-2-bar"),
    ("a/b/#/+", "a-b"), ("  --x--  ", "x"), ("TABLE 3", "table-3")])
def test_odd_table_names_become_one_safe_level(name, slug):
    assert segment(name) == slug


def test_a_name_with_nothing_latin_still_gets_its_own_level():
    assert re.fullmatch(r"table-[0-9a-f]{8}", segment("東京"))
    assert segment("東京") != segment("大阪") and segment("東京") == segment("東京")


@given(st.text(max_size=80))
def test_any_name_gives_a_level_that_cannot_reach_another_branch(name):
    level = segment(name)
    assert re.fullmatch(r"[a-z0-9-]{1,40}", level)
    table, kind, _ = Topics("v").parse(Topics("v", name).live())
    assert (table, kind) == (level, "live")


def test_topics_outside_the_layout_are_named():
    t = Topics("Chronos Café")
    assert t.live("table-1") == "companion/chronos-cafe/table-1/live"
    assert t.parse("companion/chronos-cafe/table-1/ack/0a0a0a0a") == ("table-1", "ack",
                                                                       "0a0a0a0a")
    assert t.parse("companion/chronos-cafe/_venue") == ("", "venue", None)
    for bad in ("companion/other/table-1/live", "companion/chronos-cafe/table-1/oven",
                "companion/chronos-cafe/Table 1/live", "companion/chronos-cafe/a/b/live"):
        with pytest.raises(PayloadError):
            t.parse(bad)


LIVE = {"v": 1, "type": "live", "box": "0a0a0a0a", "table": "Table 1", "game": 1,
        "uid": "5e" * 16, "rev": 3,
        "seq": 2, "kind": "scorepad", "title": "Score pad", "status": "open",
        "players": [{"name": "Ann", "seat": 1, "score": 3}]}


@pytest.mark.parametrize(("change", "fragment"), [
    ({"v": 2}, "version 2"), ({"v": True}, "version True"), ({"type": "result"}, "type"),
    ({"box": "../../x"}, "not a box id"), ({"table": "Table 2"}, "does not belong"),
    ({"game": 0}, "'game' = 0 is out of range"), ({"rev": "3"}, "'rev' is missing"),
    ({"uid": None}, "'uid' is not a game's identity"),
    ({"uid": "5E" * 16}, "'uid' is not a game's identity"),
    ({"status": "won"}, "unknown status"), ({"players": []}, "1 to 8 players"),
    ({"players": [{"name": "A" * 41, "seat": 1}]}, "'name' is too long"),
    ({"players": [{"name": "Ann\n", "seat": 1}]}, "control characters"),
    ({"players": [{"name": "Ann", "seat": 1, "score": 1.5}]}, "whole number"),
    ({"line": 7}, "'line' is missing or of the wrong type"),
])
def test_a_malformed_live_state_is_refused_with_the_reason(change, fragment):
    with pytest.raises(PayloadError, match=re.escape(fragment)):
        check_live(decode(encode(LIVE | change)), "table-1")


def test_what_is_not_json_or_not_an_object_is_refused():
    for raw, fragment in ((b"\xff\xfe", "not JSON"), (b"[1, 2]", "not a JSON object"),
                          (b"{" * 100_000, "not JSON"), (b"x" * 1_000_001, "too big")):
        with pytest.raises(PayloadError, match=fragment):
            decode(raw)


def test_a_result_needs_its_actions_in_order():
    result = LIVE | {"type": "result", "status": "finished", "setup": {"players": []},
                     "started_at": "2026-01-01T20:00", "actions": [
                         {"seq": 1, "at": "t", "action": {"type": "finish"}}]}
    assert check_result(result, "table-1") is result
    result["actions"].append({"seq": 3, "at": "t", "action": {}})
    with pytest.raises(PayloadError, match="action 2 is not"):
        check_result(result, "table-1")
