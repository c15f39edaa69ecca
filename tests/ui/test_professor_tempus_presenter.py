"""Professor Tempus view data without Kivy: holders and strip lines, the totals with the
5-player variant's two counts, and correcting an earlier round."""

from __future__ import annotations

from companion.games import professor_tempus as pt
from companion.ui.presenters import professor_tempus as view

NAMES = ["Arthur", "Mickael", "Louisa", "Zoé", "Yann"]
# the engine tests' 5-player scores, round by round (two rounds per count)
SCORES = [{"1": 3, "2": 4, "3": 1, "4": 0, "5": 0},
          {"1": 0, "2": 4, "3": 2, "4": 1, "5": 0},
          {"1": 0, "2": 0, "3": 5, "4": 2, "5": 1},
          {"1": 1, "2": 0, "3": 0, "4": 3, "5": 6}]


def game(n=3, **options):
    return pt.initial({"players": [{"name": nm, "seat": i + 1}
                                   for i, nm in enumerate(NAMES[:n])], **options})


def round_actions(state, deck):
    """One round's legal actions: open a free holder, else tuck under an opponent's."""
    out = []
    while state.phase == "play":
        seat = state.players[state.turn].seat
        c = deck.pop()
        card = {"colour": c.colour, "value": c.value}
        free = [h for h, s in enumerate(state.holders) if s is None]
        if free:
            action = {"type": "open_series", "seat": seat, "holder": free[0],
                      "direction": "+", "card": card}
        else:
            theirs = [h for h, s in enumerate(state.holders) if s.owner != seat] or [0]
            action = {"type": "tuck", "seat": seat, "holder": theirs[0], "card": card}
        out.append(action)
        state = pt.apply(state, action)
    return out, state


def five_player_game(rounds=4):
    state = game(5)
    deck = list(reversed(pt.all_cards()))
    for k, score in enumerate(SCORES[:rounds]):
        if k == 2:
            deck = list(reversed(pt.all_cards()))
        _, state = round_actions(state, deck)
        state = pt.apply(state, {"type": "score_round", "hourglasses": score})
    return state


def test_holder_lines_and_strip_lines():
    state = pt.apply(game(), {"type": "open_series", "seat": 1, "holder": 0,
                              "direction": "-", "card": {"colour": "red", "value": 5}})
    hs = view.holders(state, view.Move("play_on"))
    assert (hs[0]["text"], hs[0]["next"]) == ("down 5 red", "next: red")
    assert (hs[1]["text"], hs[1]["next"]) == ("free", "")
    strip = view.players(state)
    assert [p["detail"] for p in strip] == ["5 cards · 0 points", "6 cards · 0 points",
                                            "6 cards · 0 points"]
    assert view.players(game(4))[0]["detail"] == "0 points"  # narrower cells: words only
    assert view.players(game(5))[0]["detail"] == "0 points"


def test_totals_show_both_counts_in_the_variant():
    state = five_player_game(3)  # two rounds of count 1, one of count 2
    assert state.count == 2
    table = view.score_table(state)
    assert [line["label"] for line in table] == ["Count 1", "Count 2", "Total"]
    assert table[0]["values"] == {1: 3, 2: 8, 3: 3, 4: 1, 5: 0}
    assert table[1]["values"] == {1: 0, 2: 0, 3: 5, 4: 2, 5: 1}
    assert table[2]["values"] == {1: 3, 2: 8, 3: 8, 4: 3, 5: 1}
    assert view.points(state, 3) == "3+5 points"
    assert view.players(state)[2]["detail"] == "3+5 points"
    assert view.round_title(state, 3) == "Round 3 (count 2)"
    # without the variant: one total, no count lines
    plain = game(3)
    assert [line["label"] for line in view.score_table(plain)] == ["Total"]
    assert view.points(plain, 1) == "0 points"
    assert view.points(five_player_game(1), 2) == "4 points"  # count 2 not begun yet


def test_correct_an_earlier_round():
    state = five_player_game(4)
    assert state.phase == "over" and view.counted_rounds(state) == [1, 2, 3, 4]
    entries = view.correction_entries(state, 1)
    assert entries == {1: 3, 2: 4, 3: 1, 4: 0, 5: 0}
    limits = view.correction_limits(state, 1)
    rows = view.correction_rows(state, 1, entries)
    assert [r["can_plus"] for r in rows] == [entries[s] < limits[s] for s in range(1, 6)]
    entries = view.bump(entries, limits, 2, -2)
    action = view.correct_action(state, 1, entries)
    assert action == {"type": "correct_round", "round": 1,
                      "hourglasses": {"1": 3, "2": 2, "3": 1, "4": 0, "5": 0}}
    fixed = pt.apply(state, action)
    assert view.score_table(fixed)[0]["values"][2] == 6
    assert view.winners_text(fixed) == "Louisa wins: 8 hourglasses"
    assert view.winners_text(state) == "Mickael & Louisa win: 8 hourglasses"


def test_nothing_to_correct_before_the_first_count():
    state = game(3)
    assert view.counted_rounds(state) == []
    _, state = round_actions(state, list(reversed(pt.all_cards())))
    assert state.phase == "scoring" and view.counted_rounds(state) == []


def test_a_turn_starts_in_the_last_red_or_purple_chosen():
    from companion.games import professor_tempus as pt
    from companion.ui.presenters import professor_tempus as view

    state = pt.initial({"players": [{"name": "A", "seat": 1}, {"name": "B", "seat": 2}],
                        "first_seat": 1})
    purple = view.Move().in_colour("purple")
    assert view.fresh_move(state, purple).colour == "purple"
    assert view.fresh_move(state, purple.in_colour("joker")).colour == "purple"
    assert view.fresh_move(state).colour == "red"


def test_a_rounds_count_is_kept_by_round_and_within_the_caps():
    from companion.games import professor_tempus as pt
    from companion.ui.presenters import professor_tempus as view

    state = pt.initial({"players": [{"name": "A", "seat": 1}, {"name": "B", "seat": 2}],
                        "first_seat": 1})
    assert view.count_entries({1: {1: 3}}, state) == {}  # no count due while playing
    state = pt.apply(state, view.build_action(state, view.Move("open+", 0), 3)[0])
    seat = 2
    while state.phase == "play":  # both play on holder 0 upwards until the count
        state = pt.apply(state, view.build_action(state, view.Move("play_on", 0),
                                                  state.holders[0].last.value + 1)[0])
    limits = view.score_limits(state)
    top = max(limits.values())
    key = view.count_key(state)
    kept = {key: {1: top + 5, 2: top + 5}, key - 1: {1: 1}}
    assert top > 0  # someone collected cards
    assert view.count_entries(kept, state) == {1: limits[1], 2: limits[2]}
    assert view.bump_count({}, state, seat, 1)[key] == {seat: min(1, limits[seat])}
