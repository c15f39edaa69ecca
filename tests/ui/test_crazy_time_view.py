"""Tests for the Crazy Time presenter: the view data, and above all the secret (a new
law's When?/What? text never reaches the view of the player who was out of the room)."""

from __future__ import annotations

import json
from functools import reduce

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import crazy_time as ct
from companion.ui.presenters.crazy_time_view import SECRET_PLACEHOLDER, view

NAMES = ["Ann", "Bob", "Cara", "Dan", "Eve", "Finn", "Gus"]
WHEN = "a clock card shows 7 or 8"
WHAT = "Stand up and shout midnight"


def strings(data) -> list[str]:
    """Every string anywhere in a view (keys included)."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in strings(k) + strings(v)]
    if isinstance(data, (list, tuple)):
        return [s for v in data for s in strings(v)]
    return []


def leaks(data, secret: str) -> bool:
    return any(secret.casefold() in s.casefold() for s in strings(data))


def game(*actions, n=4):
    setup = {"players": [{"name": NAMES[i], "seat": i + 1} for i in range(n)]}
    return reduce(ct.apply, actions, ct.initial(setup))


# Cara (3) wins round 1 and makes "Midnight" while Ann (1) is out of the room.
NEW = {"type": "new_law", "name": "Midnight", "when": WHEN, "what": WHAT, "creator": 3,
       "absent": 1}
ROUND_2 = [{"type": "round_won", "seat": 3}, NEW]


@pytest.mark.parametrize("viewer", [1, None, 0, 9])
def test_the_secret_never_reaches_the_absent_player_or_an_unidentified_screen(viewer):
    state = game(*ROUND_2,
                 {"type": "pickup", "seat": 2, "reason": "temporal_flaw", "law": "Midnight"},
                 {"type": "guess", "seat": 1, "law": "Midnight", "correct": True})
    data = view(state, viewer)
    assert not leaks(data, WHEN) and not leaks(data, WHAT)
    midnight = data["laws"][-1]
    assert midnight["name"] == "Midnight" and midnight["hidden"] is True
    assert "when" not in midnight and "what" not in midnight
    # the standing laws are public to everyone
    assert all("when" in x and "what" in x for x in data["laws"] if x["standing"])


@pytest.mark.parametrize("viewer", [2, 3, 4])
def test_everyone_else_present_sees_the_law(viewer):
    data = view(game(*ROUND_2), viewer)
    midnight = data["laws"][-1]
    assert (midnight["when"], midnight["what"], midnight["hidden"]) == (WHEN, WHAT, False)
    assert (midnight["creator_name"], midnight["absent_name"]) == ("Cara", "Ann")


def test_free_text_quoting_a_secret_is_scrubbed_for_the_absent_player():
    state = game(*ROUND_2, {"type": "pickup", "seat": 2, "reason": "temporal_flaw",
                            "law": f"did not {WHAT.upper()}"})
    assert not leaks(view(state, 1), WHAT)
    assert view(state, 1)["pickups"][-1]["cause"] == SECRET_PLACEHOLDER
    assert view(state, 2)["pickups"][-1]["cause"] == f"did not {WHAT.upper()}"


def test_players_rounds_and_pickups_as_the_screen_shows_them():
    state = game(*ROUND_2,
                 {"type": "accusation", "accuser": 2, "accused": 4, "law": "Midnight",
                  "correct": True},
                 {"type": "tick_tock", "seat": 4},
                 {"type": "pickup", "seat": 4, "reason": "slap", "pile": 7})
    data = view(state, 2)
    assert (data["round"], data["rounds"], data["phase"], data["deal"]) == (2, 4, "playing", 15)
    assert data["dealer"] == {"seat": 3, "name": "Cara"}
    assert data["lead"] == {"seat": 4, "name": "Dan"}
    assert data["reveal_first"] == [{"seat": 3, "name": "Cara"}]
    assert "1 o'clock" in data["notice"]
    dan = data["players"][3]
    assert (dan["pickups_round"], dan["pickups_total"], dan["pile_told"],
            dan["tick_tocks_round"], dan["is_lead"]) == (2, 2, 7, 1, True)
    ann = data["players"][0]
    assert (ann["left_room_for"], ann["is_viewer"]) == ("Midnight", False)
    assert data["players"][1]["is_viewer"] is True
    assert [(p["name"], p["reason"], p["cause"], p["accuser"]) for p in data["pickups"]] == [
        ("Dan", "temporal_flaw", "Midnight", 2), ("Dan", "slap", None, None)]
    assert data["pickup_grid"] == {"rounds": [1, 2], "rows": [
        {"seat": 1, "name": "Ann", "counts": [0, 0]},
        {"seat": 2, "name": "Bob", "counts": [0, 0]},
        {"seat": 3, "name": "Cara", "counts": [0, 0]},
        {"seat": 4, "name": "Dan", "counts": [0, 2]}]}
    assert data["guesses_open"] == [{"seat": 1, "name": "Ann", "law": "Midnight"}]
    assert data["new_law"] is None and data["grand_master"] is None
    json.dumps(data)


def test_between_rounds_the_view_says_who_makes_the_law_and_who_may_leave():
    data = view(game(*ROUND_2, {"type": "round_won", "seat": 2}), None)
    assert data["phase"] == "new_law" and data["lead"] is None
    assert data["new_law"] == {"for_round": 3, "creator": 2, "creator_name": "Bob",
                               "absent_choices": [3, 4]}  # not Bob, not Ann (left already)


def test_the_grand_master_is_crowned_in_the_view():
    state = game({"type": "round_won", "seat": 3}, NEW,
                 {"type": "round_won", "seat": 2},
                 {**NEW, "name": "Dawn", "creator": 2, "absent": 3},
                 {"type": "round_won", "seat": 2},
                 {**NEW, "name": "Dusk", "creator": 2, "absent": 4},
                 {"type": "round_won", "seat": 4})
    data = view(state, None)
    assert data["grand_master"] == {"seat": 4, "name": "Dan"} and data["phase"] == "over"
    assert [r["name"] for r in data["results"]] == ["Cara", "Bob", "Bob", "Dan"]
    assert data["players"][3]["grand_master"] is True
    # each absent player still cannot read the law they were out of the room for
    for law, absent in (("Midnight", 1), ("Dawn", 3), ("Dusk", 4)):
        hidden = next(x for x in view(state, absent)["laws"] if x["name"] == law)
        assert hidden["hidden"] and "what" not in hidden


# --------------------------------------------------------------------------- property


@st.composite
def secret_game(draw):
    """A legal random game where every new law has its own unmistakable secret text."""
    n = draw(st.integers(4, 7))
    state = ct.initial({"players": [{"name": NAMES[i], "seat": i + 1} for i in range(n)]})
    for _ in range(draw(st.integers(1, 4))):
        made = [x for x in state.laws if not x.standing]
        for _ in range(draw(st.integers(0, 4))):
            action = {"type": "pickup", "seat": draw(st.sampled_from(state.seats)),
                      "reason": "temporal_flaw"}
            if made:
                target = draw(st.sampled_from(made))
                action["law"] = target.name
                state = ct.apply(state, action)
                if state.can_guess(target.absent, target):
                    state = ct.apply(state, {"type": "guess", "seat": target.absent,
                                             "law": target.name, "correct": draw(st.booleans())})
            else:
                state = ct.apply(state, action)
        if state.phase != ct.PLAYING:
            break
        state = ct.apply(state, {"type": "round_won", "seat": draw(st.sampled_from(state.seats))})
        if state.phase == ct.OVER:
            break
        creator = state.results[-1].seat
        free = [s for s in state.seats if s != creator and s not in state.left_room()]
        rnd = state.round + 1
        state = ct.apply(state, {"type": "new_law", "name": f"Law {rnd}",
                                 "when": f"zq-when-{rnd}-secret", "what": f"zq-what-{rnd}-secret",
                                 "creator": creator, "absent": draw(st.sampled_from(free))})
    return state


@settings(deadline=None, max_examples=50)
@given(secret_game())
def test_no_absent_player_ever_sees_their_law(state):
    for viewer in (*state.seats, None):
        data = view(state, viewer)
        json.dumps(data)
        for law in state.laws:
            if law.standing:
                continue
            shown = leaks(data, law.when) or leaks(data, law.what)
            assert shown == (viewer is not None and viewer != law.absent), (viewer, law.name)


@pytest.mark.parametrize("pickup,line", [
    ({"seat": 4, "name": "Dan", "reason": "slap", "decision": "verdict"}, "Dan: last to slap"),
    ({"seat": 5, "name": "Eve", "reason": "slap", "decision": "table"},
     "Eve: the table's call after a slap"),
    ({"seat": 1, "name": "Ann", "reason": "false_slap", "decision": "verdict"},
     "Ann: false slap"),
    ({"seat": 2, "name": "Bob", "reason": "wrong_accusation", "cause": "Midnight"},
     "Bob: wrong accusation (Midnight)"),
])
def test_a_pick_up_says_who_decided_it(pickup, line):
    from companion.ui.presenters.crazy_time import pickup_line

    assert pickup_line(pickup).text == line
