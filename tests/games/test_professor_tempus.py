"""Professor Tempus engine: setup, series checker, turns, rounds, draw pile, counts."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from refusals import MALFORMED, expect, refused

from companion.errors import CompanionError
from companion.games import professor_tempus as pt
from companion.games.professor_tempus import Card, Series

ARTHUR, MICKAEL, LOUISA = 1, 2, 3


def game(n: int = 3, **options):
    names = ["Arthur", "Mickael", "Louisa", "Zoé", "Yann"][:n]
    players = [{"name": nm, "seat": i + 1} for i, nm in enumerate(names)]
    return pt.initial({"players": players, **options})


def card(colour, value, **extra):
    return {"colour": colour, "value": value, **extra}


def open_(seat, holder, direction, c):
    return {"type": "open_series", "seat": seat, "holder": holder, "direction": direction,
            "card": c}


def play(seat, holder, c):
    return {"type": "play_on", "seat": seat, "holder": holder, "card": c}


def tuck(seat, holder, c):
    return {"type": "tuck", "seat": seat, "holder": holder, "card": c}


def run(state, *actions):
    for a in actions:
        state = pt.apply(state, a)
    return state


# -- setup ----------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "per_hand", "refill", "pile"), [
    (2, 7, 5, 49),
    (3, 6, 4, 45),
    (4, 6, 4, 39),
    (5, 6, 4, 33),
])
def test_setup_by_player_count(n, per_hand, refill, pile):
    deal = pt.setup_for(n)
    assert (deal.per_hand, deal.refill, deal.draw_pile) == (per_hand, refill, pile)
    state = game(n)
    assert state.hands == (per_hand,) * n and state.draw_pile == pile
    assert state.two_counts is (n == 5)


@pytest.mark.parametrize("n", [1, 6, 0])
def test_setup_rejects_other_counts(n):
    with refused("professor_tempus.player_count"):
        pt.setup_for(n)


def test_deck_is_63_cards():
    cards = pt.all_cards()
    assert len(cards) == 63 == pt.DECK
    assert sum(c.colour == "joker" for c in cards) == 13
    assert {c.value for c in cards if c.colour == "joker"} == set(range(1, 26, 2))


def test_setup_options():
    assert game(3, first_seat=2).turn == 1
    assert game(5, five_player_variant=False).two_counts is False
    with refused("professor_tempus.variant_needs_five"):
        game(4, five_player_variant=True)
    with refused("professor_tempus.no_such_seat"):
        game(3, first_seat=9)


# -- the series checker ---------------------------------------------------------------


def series(direction, *cards, owner=ARTHUR):
    return Series(owner, direction, tuple(Card(c, v) for c, v in cards))


@pytest.mark.parametrize(("s", "c", "ok", "why"), [
    (series("-", ("red", 5)), card("red", 3), True, "takes"),  # Mickael, fig. 3
    (series("-", ("red", 5)), card("red", 7), False, "lower than 5 red"),
    (series("-", ("red", 5)), card("red", 5), False, "lower"),
    (series("+", ("red", 5)), card("red", 5), False, "higher"),
    (series("-", ("red", 5)), card("purple", 3), False, "series is red"),
    (series("-", ("red", 5)), card("joker", 3), True, "takes"),
    (series("+", ("red", 5)), card("joker", 3), False, "higher"),
    (series("-", ("red", 5), ("red", 3)), card("joker", 3), True, "same value"),  # Louisa
    (series("+", ("purple", 9)), card("joker", 9), True, "same value"),
    (series("-", ("purple", 9)), card("joker", 9), True, "same value"),
    (series("+", ("red", 4), ("joker", 7)), card("purple", 7), True, "same value"),
    (series("-", ("red", 9), ("joker", 7)), card("red", 7), True, "same value"),
    (series("-", ("red", 9), ("joker", 7)), card("purple", 2), True, "takes"),
    (series("-", ("red", 9), ("joker", 7)), card("purple", 8), False, "lower"),
    (series("+", ("joker", 3)), card("red", 3), True, "same value"),  # opened with a joker
    (series("+", ("joker", 3)), card("joker", 5), True, "takes"),
    (series("+", ("joker", 3)), card("purple", 20), True, "takes"),
    (series("+", ("purple", 3)), card("red", 3), False, "series is purple"),
    (series("+", ("red", 3), owner=MICKAEL), card("red", 9), False, "in front of them"),
    (series("+", ("red", 3)), card("joker", 4), False, "no 4 joker"),
    (series("+", ("red", 3)), card("red", 26), False, "1 to 25"),
    (series("+", ("red", 3)), card("green", 5), False, "does not exist"),
])
def test_can_play_table(s, c, ok, why):
    seat = MICKAEL
    got_ok, got_why = pt.can_play(s, c, seat)
    assert got_ok is ok
    assert why in got_why


def test_rulebook_examples_arthur_mickael_louisa():
    state = pt.apply(game(), open_(ARTHUR, 0, "-", card("red", 5)))
    assert state.holders[0].owner == ARTHUR and state.hands == (5, 6, 6)
    state = pt.apply(state, play(MICKAEL, 0, card("red", 3)))
    assert state.holders[0].owner == MICKAEL
    state = pt.apply(state, play(LOUISA, 0, card("joker", 3)))
    held = state.holders[0]
    assert held.owner == LOUISA and held.colour is None
    assert [c.label for c in held.cards] == ["5 red", "3 red", "3 joker"]
    assert state.hands == (5, 5, 5) and state.turn == 0
    snap = pt.snapshot(state)
    assert snap["holders"][0]["owner"] == LOUISA and snap["holders"][0]["colour"] is None
    assert pt.playable_holders(state, ARTHUR, card("purple", 1)) == (0,)
    assert pt.playable_holders(state, LOUISA, card("purple", 1)) == ()


def test_tuck_keeps_the_series_with_its_owner():
    state = run(game(), open_(ARTHUR, 0, "+", card("red", 5)),
                tuck(MICKAEL, 0, card("purple", 25)))
    assert state.holders[0].owner == ARTHUR
    assert [c.label for c in state.holders[0].tucked] == ["25 purple"]
    assert state.holders[0].last.label == "5 red"


def test_own_series_may_take_a_tuck_only_when_nothing_else_is_possible():
    # 2 players: Mickael takes all three series, so Arthur has none to tuck under
    state = run(game(2), open_(ARTHUR, 0, "+", card("red", 1)), play(MICKAEL, 0, card("red", 2)),
                open_(ARTHUR, 1, "+", card("purple", 1)),
                play(MICKAEL, 1, card("purple", 2)),
                open_(ARTHUR, 2, "+", card("red", 3)), play(MICKAEL, 2, card("red", 4)))
    state = pt.apply(state, tuck(ARTHUR, 0, card("red", 10)))
    # Mickael holds every series and no holder is free: he may not play on his own,
    # but he tucks under it
    before = copy.deepcopy(state)
    with refused("professor_tempus.cannot_play_on"):
        pt.apply(state, play(MICKAEL, 0, card("red", 11)))
    assert state == before
    state = pt.apply(state, tuck(MICKAEL, 0, card("purple", 10)))
    assert state.holders[0].tucked == (Card("red", 10), Card("purple", 10))
    # once Arthur has a series again, Mickael may not tuck under his own
    state = pt.apply(state, play(ARTHUR, 1, card("purple", 20)))
    with refused("professor_tempus.tuck_own"):
        pt.apply(state, tuck(MICKAEL, 0, card("red", 20)))


# -- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "expected"), [
    (play(LOUISA, 0, card("purple", 2)), "professor_tempus.cannot_play_on"),  # her own series
    (play(ARTHUR, 0, card("purple", 2)), "professor_tempus.not_your_turn"),
    (play(LOUISA, 2, card("purple", 2)), "professor_tempus.holder_empty"),
    (play(LOUISA, 3, card("purple", 2)), MALFORMED),
    (open_(LOUISA, 0, "+", card("purple", 2)), "professor_tempus.holder_taken"),
    (open_(LOUISA, 2, "up", card("purple", 2)), MALFORMED),
    (open_(LOUISA, 2, "+", card("joker", 4)), "professor_tempus.even_joker"),
    (open_(LOUISA, 2, "+", card("red", 26)), "professor_tempus.no_such_value"),
    (open_(LOUISA, 2, "+", card("red", 0)), "professor_tempus.no_such_value"),
    (open_(LOUISA, 2, "+", card("gold", 3)), MALFORMED),
    (open_(LOUISA, 2, "+", card("red", 3, hourglasses=4)), "professor_tempus.card_hourglasses"),
    (open_(LOUISA, 2, "+", card("red", 5)), "professor_tempus.card_played"),
    (open_(LOUISA, 2, "+", "5 red"), MALFORMED),
    (tuck(LOUISA, 0, card("red", 9)), "professor_tempus.tuck_own"),
    ({"type": "score_round", "hourglasses": {}}, "professor_tempus.no_count_due"),
    ({"type": "correct_round", "round": 1, "hourglasses": {}}, "professor_tempus.not_counted"),
    ({"type": "shuffle"}, MALFORMED),
    (play(7, 0, card("purple", 2)), "professor_tempus.no_such_seat"),
])
def test_bad_input_raises_and_leaves_state_unchanged(action, expected):
    state = run(game(), open_(ARTHUR, 0, "-", card("red", 5)), play(MICKAEL, 0, card("red", 3)),
                play(LOUISA, 0, card("joker", 3)), open_(ARTHUR, 1, "+", card("red", 1)),
                play(MICKAEL, 1, card("red", 2)))
    assert state.turn == 2  # Louisa's turn; she holds holder 0
    before = copy.deepcopy(state)
    expect(expected, pt.apply, state, action)
    assert state == before


def test_first_player_of_a_round_must_open():
    with refused("professor_tempus.open_first"):
        pt.apply(game(), tuck(ARTHUR, 0, card("red", 5)))
    with refused("professor_tempus.open_first"):
        pt.apply(game(first_seat=MICKAEL), play(MICKAEL, 0, card("red", 5)))
    with refused("professor_tempus.not_your_turn") as info:
        pt.apply(game(first_seat=MICKAEL), open_(ARTHUR, 0, "+", card("red", 5)))
    assert info.value.fields == {"turn": "Mickael", "name": "Arthur"}


# -- whole games: draw pile, rounds, counts -------------------------------------------


def play_round(state, deck):
    """Every turn: open a free holder, else tuck under an opponent's (or, if none, own)."""
    while state.phase == "play":
        seat = state.players[state.turn].seat
        free = [h for h, s in enumerate(state.holders) if s is None]
        c = dataclasses_card(deck.pop())
        if free:
            state = pt.apply(state, open_(seat, free[0], "+", c))
        else:
            theirs = [h for h, s in enumerate(state.holders) if s.owner != seat] or [0]
            state = pt.apply(state, tuck(seat, theirs[0], c))
    return state


def dataclasses_card(c: Card) -> dict:
    return {"colour": c.colour, "value": c.value}


def fresh_deck():
    return list(reversed(pt.all_cards()))


@pytest.mark.parametrize(("n", "variant", "piles", "counts"), [
    (2, False, [49, 39, 29, 19, 9], [1] * 5),
    (3, False, [45, 33, 21, 9], [1] * 4),
    (4, False, [39, 23, 7], [1] * 3),
    (5, False, [33, 13], [1] * 2),
    (5, True, [33, 13, 33, 13], [1, 1, 2, 2]),
])
def test_draw_pile_counted_to_the_end_of_the_game(n, variant, piles, counts):
    state = game(n, five_player_variant=variant)
    deck = fresh_deck()
    seen_piles, seen_counts, firsts = [], [], []
    while state.phase != "over":
        if seen_counts and state.count != seen_counts[-1]:
            deck = fresh_deck()  # the variant reshuffles after the first count
        seen_piles.append(state.draw_pile)
        seen_counts.append(state.count)
        firsts.append(state.players[state.first].seat)
        state = play_round(state, deck)
        assert state.phase == "scoring" and state.hands == (2,) * n
        collected = state.rounds[-1].collected
        assert sum(len(c) for c in collected) == n * (state.deal.per_hand - 2)
        state = pt.apply(state, {"type": "score_round", "hourglasses": {
            str(p.seat): len(cards) for p, cards in zip(state.players, collected, strict=True)}})
    assert seen_piles == piles and seen_counts == counts
    assert firsts == [(k % n) + 1 for k in range(len(piles))]  # rotates to the left
    snap = pt.snapshot(state)
    assert snap["phase"] == "over" and snap["over"]
    assert len(snap["counts"]) == (2 if variant else 1)
    assert snap["winners"]


def test_five_player_variant_two_counts():
    state = game(5)
    # play_round leaves the cards with three players per round (15, 4 and 1 cards)
    scores = [{"1": 3, "2": 4, "3": 1, "4": 0, "5": 0},
              {"1": 0, "2": 4, "3": 2, "4": 1, "5": 0},
              {"1": 0, "2": 0, "3": 5, "4": 2, "5": 1},
              {"1": 1, "2": 0, "3": 0, "4": 3, "5": 6}]
    deck = fresh_deck()
    for k, score in enumerate(scores):
        if k == 2:
            assert state.count == 2 and state.draw_pile == 33
            deck = fresh_deck()
        state = play_round(state, deck)
        if k == 1:
            assert pt.snapshot(state)["refills_left"] == 0
        state = pt.apply(state, {"type": "score_round", "hourglasses": score})
    snap = pt.snapshot(state)
    assert snap["phase"] == "over"
    assert snap["counts"] == [{"1": 3, "2": 8, "3": 3, "4": 1, "5": 0},
                              {"1": 1, "2": 0, "3": 5, "4": 5, "5": 7}]
    assert snap["totals"] == {"1": 4, "2": 8, "3": 8, "4": 6, "5": 7}
    assert snap["winners"] == [2, 3]  # a shared win
    assert [r["count"] for r in snap["rounds"]] == [1, 1, 2, 2]


def test_score_round_checks_and_corrections():
    state = play_round(game(2), fresh_deck())
    collected = state.rounds[-1].collected
    sizes = [len(c) for c in collected]
    before = copy.deepcopy(state)
    for bad, expected in [({"1": 3 * sizes[0] + 1, "2": 0}, "professor_tempus.hourglasses_range"),
                          ({"1": 1}, "professor_tempus.enter_hourglasses"),
                          ({"1": -1, "2": 0}, "professor_tempus.hourglasses_range"),
                          ({"1": "2", "2": 0}, MALFORMED),
                          ({"1": 1, "2": 0, "9": 0}, "professor_tempus.no_such_seat")]:
        expect(expected, pt.apply, state, {"type": "score_round", "hourglasses": bad})
        assert state == before
    with refused("professor_tempus.count_first"):
        pt.apply(state, open_(ARTHUR, 0, "+", card("red", 25)))
    state = pt.apply(state, {"type": "score_round", "hourglasses": {1: 2, 2: 1}})
    assert pt.snapshot(state)["totals"] == {"1": 2, "2": 1}
    state = pt.apply(state, {"type": "correct_round", "round": 1, "hourglasses": {"1": 0, "2": 5}})
    snap = pt.snapshot(state)
    assert snap["totals"] == {"1": 0, "2": 5}
    assert snap["rounds"][0]["hourglasses"] == {"1": 0, "2": 5}
    assert snap["round"] == 2 and snap["first_seat"] == MICKAEL


def test_hourglasses_from_the_cards_when_every_card_carries_them():
    state = game(2)
    deck = [Card(c.colour, c.value) for c in fresh_deck()]
    while state.phase == "play":
        seat = state.players[state.turn].seat
        c = deck.pop()
        c = card(c.colour, c.value, hourglasses=c.value % 4)
        free = [h for h, s in enumerate(state.holders) if s is None]
        theirs = [h for h, s in enumerate(state.holders) if s is not None and s.owner != seat]
        state = pt.apply(state, open_(seat, free[0], "-", c) if free else tuck(seat, theirs[0], c))
    expect = [sum(c.hourglasses for c in cards) for cards in state.rounds[-1].collected]
    with refused("professor_tempus.hourglasses_shown"):
        pt.apply(state, {"type": "score_round", "hourglasses": {"1": expect[0] + 1}})
    state = pt.apply(state, {"type": "score_round"})
    assert state.rounds[-1].hourglasses == tuple(expect)


# -- properties -----------------------------------------------------------------------


def on_table(state):
    return sum(len(s.all_cards) for s in state.holders if s is not None)


def legal_moves(state):
    """Every legal (kind, holder, card) for the player on turn, by brute force."""
    seat = state.players[state.turn].seat
    unseen = [c for c in pt.all_cards() if c.key not in state.seen]
    start = state.turn == state.first and all(h == state.deal.per_hand for h in state.hands)
    mine = {h for h, s in enumerate(state.holders) if s is not None and s.owner == seat}
    theirs = {h for h, s in enumerate(state.holders) if s is not None and s.owner != seat}
    free = {h for h, s in enumerate(state.holders) if s is None}
    moves = [("open_series", h, c) for h in free for c in unseen]
    if not start:
        moves += [("play_on", h, c) for h in theirs for c in unseen
                  if pt.can_play(state.holders[h], c, seat)[0]]
        moves += [("tuck", h, c) for h in (theirs or (set() if free else mine)) for c in unseen]
    return moves


@settings(deadline=None, max_examples=30)
@given(st.integers(2, 5), st.data())
def test_random_games_replay_never_mutate_and_conserve_cards(n, data):
    start = game(n)
    state, accepted = start, []
    deck = pt.all_cards()
    for _step in range(150):
        if state.phase == "over":
            break
        legal = data.draw(st.integers(0, 9)) > 0
        if state.phase == "scoring":
            hourglasses = {str(p.seat): data.draw(st.integers(0, 3 * len(cards) + (not legal)))
                           for p, cards in zip(state.players, state.rounds[-1].collected,
                                               strict=True)}
            action = {"type": "score_round", "hourglasses": hourglasses}
        elif legal:
            kind, holder, c = data.draw(st.sampled_from(legal_moves(state)))
            action = {"type": kind, "seat": state.players[state.turn].seat, "holder": holder,
                      "card": dataclasses_card(c), "direction": data.draw(st.sampled_from("+-"))}
        else:
            action = {"type": data.draw(st.sampled_from(["open_series", "play_on", "tuck"])),
                      "seat": data.draw(st.sampled_from([p.seat for p in state.players])),
                      "holder": data.draw(st.integers(0, 2)),
                      "card": dataclasses_card(data.draw(st.sampled_from(deck))),
                      "direction": data.draw(st.sampled_from("+-"))}
        old, before = state, copy.deepcopy(state)
        try:
            state = pt.apply(old, action)
        except CompanionError:
            assert old == before
            assert not legal  # the brute-force legal moves are all accepted
            continue
        assert old == before
        if action["type"] == "play_on":
            assert pt.can_play(old.holders[action["holder"]], action["card"], action["seat"])[0]
        accepted.append(action)
        collected = sum(len(c) for r in state.rounds if r.count == state.count
                        for c in r.collected)
        assert state.draw_pile + sum(state.hands) + on_table(state) + collected == pt.DECK
        assert all(2 <= h <= state.deal.per_hand for h in state.hands)
    assert run(start, *json.loads(json.dumps(accepted))) == state
    snap = pt.snapshot(state)
    assert json.loads(json.dumps(snap)) == snap


def test_a_cards_json_in_the_snapshot_is_its_dataclass_as_a_dict():
    import dataclasses

    from companion.games.professor_tempus import _card_json
    from companion.games.professor_tempus.cards import all_cards

    for card in all_cards() + (Card("red", 7, 2),):
        assert _card_json(card) == dataclasses.asdict(card)
