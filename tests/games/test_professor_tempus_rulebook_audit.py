"""Professor Tempus: an audit of the engine against the rulebook, rule by rule.

Each test names, in our own words, the rule it checks. The series checker is compared
with an independent reading of the rules over every pair of cards; whole rounds and
games are played through ``apply`` to check the end of a round, the end of the game,
the count and the winner.
"""

from __future__ import annotations

import copy
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from refusals import MALFORMED, expect, refused

from companion.errors import CompanionError
from companion.games import professor_tempus as pt
from companion.games.professor_tempus import Card, Series

NAMES = ["Arthur", "Mickael", "Louisa", "Zoé", "Yann"]
ARTHUR, MICKAEL, LOUISA = 1, 2, 3


def game(n: int = 3, **options) -> pt.State:
    return pt.initial({"players": [{"name": nm, "seat": i + 1}
                                   for i, nm in enumerate(NAMES[:n])], **options})


def card(colour: str, value: int) -> dict:
    return {"colour": colour, "value": value}


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


# -- contents and setup -----------------------------------------------------------------


def test_the_deck_is_25_red_25_purple_and_13_odd_jokers():
    """Contents: red 1-25, purple 1-25, and jokers carrying only the odd numbers 1-25."""
    cards = pt.all_cards()
    by_colour = {c: sorted(x.value for x in cards if x.colour == c) for c in pt.COLOURS}
    assert by_colour["red"] == by_colour["purple"] == list(range(1, 26))
    assert by_colour["joker"] == list(range(1, 26, 2))
    assert len(cards) == len(set(cards)) == 63


@pytest.mark.parametrize(("n", "hand", "pile"), [(2, 7, 63 - 14), (3, 6, 63 - 18),
                                                 (4, 6, 63 - 24), (5, 6, 63 - 30)])
def test_deal_six_each_seven_with_two_players(n, hand, pile):
    """Setup: six cards each, seven each when two play; the rest is the draw pile."""
    state = game(n)
    assert state.hands == (hand,) * n
    assert state.draw_pile == pile


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_two_to_five_players_are_allowed(n):
    """The rulebook's player counts: the two-player deal up to the five-player variant."""
    assert len(game(n).players) == n


@pytest.mark.parametrize("n", [1, 6])
def test_other_player_counts_are_refused(n):
    players = [{"name": f"P{i}", "seat": i} for i in range(1, n + 1)]
    with pytest.raises(CompanionError):
        pt.initial({"players": players})


def test_the_youngest_begins_and_play_goes_clockwise():
    """The youngest (``first_seat``) plays first; then the next player listed (clockwise)."""
    state = game(3, first_seat=LOUISA)
    with refused("professor_tempus.not_your_turn"):
        pt.apply(state, open_(ARTHUR, 0, "+", card("red", 5)))
    state = pt.apply(state, open_(LOUISA, 0, "+", card("red", 5)))
    assert state.players[state.turn].seat == ARTHUR  # wraps round the table


# -- the rulebook's worked examples -----------------------------------------------------


def test_fig2_fig3_fig5_arthur_mickael_louisa():
    """Fig. 2: Arthur opens a series '-' with the 5 red, it sits in front of him.
    Fig. 3: Mickael plays the 3 red on it (lower, same colour) and takes it.
    Fig. 5: Louisa plays the 3 joker on that 3 red (same value) and takes it."""
    state = pt.apply(game(), open_(ARTHUR, 0, "-", card("red", 5)))
    s = state.holders[0]
    assert (s.owner, s.direction, s.colour, s.last.label) == (ARTHUR, "-", "red", "5 red")
    state = pt.apply(state, play(MICKAEL, 0, card("red", 3)))
    assert state.holders[0].owner == MICKAEL
    state = pt.apply(state, play(LOUISA, 0, card("joker", 3)))
    s = state.holders[0]
    assert s.owner == LOUISA
    assert [c.label for c in s.cards] == ["5 red", "3 red", "3 joker"]
    assert s.colour is None  # a joker on top: the series has lost its colour


# -- the series checker against an independent reading --------------------------------


def rulebook_allows(direction: str, last: Card, new: Card) -> bool:
    """Our own reading of the rules for playing ``new`` on a series whose top is ``last``.

    * Same value, joker on red/purple or red/purple on joker: allowed (takes the series).
    * Otherwise the colour must match the top card, unless the new card is a joker or
      the top card is a joker (a joker leaves the series colourless).
    * And the value must be strictly higher on '+', strictly lower on '-'.
    """
    jokers = (new.colour == "joker", last.colour == "joker")
    if new.value == last.value and jokers[0] != jokers[1]:
        return True
    if not any(jokers) and new.colour != last.colour:
        return False
    return new.value > last.value if direction == "+" else new.value < last.value


@pytest.mark.parametrize("direction", ["+", "-"])
def test_every_pair_of_cards_follows_the_rulebook(direction):
    """Colour, order and the joker rules, checked over all 63 x 62 pairs of cards."""
    deck = pt.all_cards()
    for last, new in itertools.permutations(deck, 2):
        s = Series(ARTHUR, direction, (last,))
        ok, why = pt.can_play(s, new, MICKAEL)
        assert ok is rulebook_allows(direction, last, new), (direction, last, new, why)
        assert why


@pytest.mark.parametrize(("direction", "cards", "new", "ok"), [
    # a joker may go on a joker, a purple or a red card, in the series' order
    ("+", [("red", 4)], ("joker", 7), True),
    ("+", [("purple", 4)], ("joker", 7), True),
    ("+", [("joker", 3)], ("joker", 7), True),
    ("+", [("joker", 9)], ("joker", 7), False),  # jokers keep the order too
    ("-", [("red", 4)], ("joker", 7), False),
    # the joker of the same value takes a red or purple card, whatever the direction
    ("+", [("red", 9)], ("joker", 9), True),
    ("-", [("purple", 9)], ("joker", 9), True),
    # a red or purple of the same value takes the joker
    ("+", [("purple", 2), ("joker", 11)], ("red", 11), True),
    ("-", [("purple", 20), ("joker", 11)], ("purple", 11), True),
    # after a joker, the next card sets the colour again (any colour, in order)
    ("-", [("red", 20), ("joker", 11)], ("purple", 5), True),
    ("-", [("red", 20), ("joker", 11), ("purple", 5)], ("red", 4), False),
    ("-", [("red", 20), ("joker", 11), ("purple", 5)], ("purple", 4), True),
    # two red/purple cards of the same value never take one another
    ("+", [("red", 9)], ("purple", 9), False),
])
def test_joker_rules_table(direction, cards, new, ok):
    """Joker section: colourless, same-value takes both ways, colour lost after a joker."""
    s = Series(ARTHUR, direction, tuple(Card(c, v) for c, v in cards))
    assert pt.can_play(s, card(*new), MICKAEL)[0] is ok


def test_a_series_opened_with_a_joker_can_be_followed_by_any_colour():
    """Reading (documented): a joker opener leaves the series colourless, so the next card
    (in order) sets its colour, as after any joker."""
    state = run(game(), open_(ARTHUR, 0, "+", card("joker", 5)),
                play(MICKAEL, 0, card("purple", 12)))
    assert state.holders[0].colour == "purple" and state.holders[0].owner == MICKAEL


# -- illegal moves are refused and change nothing ---------------------------------------


def _mid_round():
    """Arthur opened '-' with 5 red (holder 0), Mickael opened '+' with 10 purple
    (holder 1); it is Louisa's turn."""
    return run(game(), open_(ARTHUR, 0, "-", card("red", 5)),
               open_(MICKAEL, 1, "+", card("purple", 10)))


@pytest.mark.parametrize(("action", "code"), [
    (play(LOUISA, 0, card("red", 7)), "professor_tempus.cannot_play_on"),  # not lower
    (play(LOUISA, 0, card("red", 5)), "professor_tempus.card_played"),  # played already
    (play(LOUISA, 0, card("purple", 4)), "professor_tempus.cannot_play_on"),  # colour
    (play(LOUISA, 1, card("purple", 9)), "professor_tempus.cannot_play_on"),  # not higher
    (play(LOUISA, 1, card("red", 14)), "professor_tempus.cannot_play_on"),  # colour
    (play(LOUISA, 2, card("red", 1)), "professor_tempus.holder_empty"),
    (open_(LOUISA, 0, "+", card("red", 1)), "professor_tempus.holder_taken"),
    (open_(LOUISA, 1, "-", card("red", 1)), "professor_tempus.holder_taken"),
    (play(ARTHUR, 1, card("purple", 11)), "professor_tempus.not_your_turn"),
    (tuck(ARTHUR, 1, card("purple", 11)), "professor_tempus.not_your_turn"),
    (open_(LOUISA, 2, "x", card("red", 1)), MALFORMED),
    (open_(LOUISA, 3, "+", card("red", 1)), MALFORMED),  # three holders only
    (open_(LOUISA, 2, "+", card("joker", 2)), "professor_tempus.even_joker"),
    ({"type": "score_round", "hourglasses": {}}, "professor_tempus.no_count_due"),
])
def test_illegal_moves_are_refused_and_the_state_is_unchanged(action, code):
    state = _mid_round()
    before = copy.deepcopy(state)
    expect(code, pt.apply, state, action)
    assert state == before


def test_nobody_plays_onto_or_tucks_under_their_own_series():
    """Caution: never play on a series in front of you; tuck only under an opponent's."""
    state = run(_mid_round(), open_(LOUISA, 2, "+", card("red", 1)))
    before = copy.deepcopy(state)
    with refused("professor_tempus.cannot_play_on"):
        pt.apply(state, play(ARTHUR, 0, card("red", 4)))
    with refused("professor_tempus.tuck_own"):
        pt.apply(state, tuck(ARTHUR, 0, card("red", 4)))
    assert state == before
    state = pt.apply(state, tuck(ARTHUR, 1, card("red", 25)))
    s = state.holders[1]
    assert s.owner == MICKAEL and [c.label for c in s.tucked] == ["25 red"]
    assert s.last.label == "10 purple"  # a tucked card does not change what follows


def test_a_tuck_may_be_any_colour_and_value():
    """Third action: any card from the hand, whatever its colour or value."""
    for c in (card("joker", 25), card("red", 1), card("purple", 10 + 1)):
        state = pt.apply(_mid_round(), tuck(LOUISA, 1, c))
        assert state.holders[1].owner == MICKAEL


def test_the_first_player_of_every_round_must_open_a_series():
    state = game(2)
    with refused("professor_tempus.open_first"):
        pt.apply(state, tuck(ARTHUR, 0, card("red", 1)))
    state = play_round(state, list(pt.all_cards()))
    state = pt.apply(state, {"type": "score_round", "hourglasses": zero_counts(state)})
    assert state.players[state.first].seat == MICKAEL
    with refused("professor_tempus.open_first"):
        pt.apply(state, tuck(MICKAEL, 0, card("red", 25)))


# -- end of a round, end of the game ------------------------------------------------------


def play_round(state: pt.State, deck: list[Card]) -> pt.State:
    """Play to the end of the round: open a free holder, else tuck under an opponent."""
    while state.phase == "play":
        seat = state.players[state.turn].seat
        c = deck.pop()
        c = card(c.colour, c.value)
        free = [h for h, s in enumerate(state.holders) if s is None]
        theirs = [h for h, s in enumerate(state.holders) if s is not None and s.owner != seat]
        if free:
            state = pt.apply(state, open_(seat, free[0], "+", c))
        else:
            state = pt.apply(state, tuck(seat, (theirs or [0])[0], c))
    return state


def zero_counts(state):
    return {str(p.seat): 0 for p in state.players}


def test_round_ends_when_every_hand_is_down_to_two_and_the_series_are_collected():
    """End of a round: all hands at two; each player gathers the series in front of them
    (played and tucked cards); holders go back to the middle."""
    state = run(game(2), open_(ARTHUR, 0, "-", card("red", 20)),
                play(MICKAEL, 0, card("red", 18)),
                open_(ARTHUR, 1, "+", card("purple", 1)),
                tuck(MICKAEL, 1, card("joker", 25)),
                play(ARTHUR, 0, card("red", 15)),
                open_(MICKAEL, 2, "+", card("purple", 2)),
                tuck(ARTHUR, 2, card("red", 1)),
                play(MICKAEL, 0, card("joker", 15)),
                play(ARTHUR, 0, card("red", 14)))
    assert state.phase == "play" and state.hands == (2, 3)
    state = pt.apply(state, tuck(MICKAEL, 1, card("purple", 25)))
    assert state.phase == "scoring" and state.hands == (2, 2)
    assert state.holders == (None, None, None)
    arthur, mickael = state.rounds[-1].collected
    assert sorted(c.label for c in arthur) == sorted(
        ["20 red", "18 red", "15 red", "15 joker", "14 red",
         "1 purple", "25 joker", "25 purple"])
    assert sorted(c.label for c in mickael) == ["1 red", "2 purple"]
    with refused("professor_tempus.count_first"):
        pt.apply(state, open_(MICKAEL, 0, "+", card("red", 2)))


def test_hourglasses_counted_only_on_collected_cards():
    """Cards still in hand never count; a player who collected nothing scores nothing."""
    # Arthur opens all three holders; Mickael only ever tucks under Arthur's series, and
    # Arthur, with nowhere else to go, tucks under his own
    arthur = [open_(ARTHUR, h, "+", card("red", h + 1)) for h in range(3)]
    arthur += [tuck(ARTHUR, 0, card("red", 10 + k)) for k in range(2)]
    mickael = [tuck(MICKAEL, k % 3, card("purple", k + 1)) for k in range(5)]
    state = run(game(2), *[a for pair in zip(arthur, mickael, strict=True) for a in pair])
    assert state.phase == "scoring"
    collected = state.rounds[-1].collected
    assert len(collected[0]) == 10 and collected[1] == ()
    with refused("professor_tempus.hourglasses_range"):
        pt.apply(state, {"type": "score_round", "hourglasses": {"1": 5, "2": 1}})
    with refused("professor_tempus.hourglasses_range"):
        pt.apply(state, {"type": "score_round", "hourglasses": {"1": 31, "2": 0}})
    done = pt.apply(state, {"type": "score_round", "hourglasses": {"1": 30, "2": 0}})
    assert pt.snapshot(done)["totals"] == {"1": 30, "2": 0}


@pytest.mark.parametrize(("n", "refill", "rounds"), [(2, 5, 5), (3, 4, 4), (4, 4, 3),
                                                      (5, 4, 2)])
def test_refill_rotation_and_the_end_when_the_pile_cannot_refill_everyone(n, refill, rounds):
    """Each player draws back to a full hand (4 each, 5 with two players); the next round
    begins with the player to the left of the previous first player; the game ends when
    the pile cannot give every player their refill."""
    state = game(n, five_player_variant=False) if n == 5 else game(n)
    deck = list(pt.all_cards())
    played = 0
    while state.phase != "over":
        pile = state.draw_pile
        first = state.players[state.first].seat
        state = play_round(state, deck)
        state = pt.apply(state, {"type": "score_round", "hourglasses": zero_counts(state)})
        played += 1
        if state.phase == "play":
            assert state.draw_pile == pile - n * refill
            assert state.players[state.first].seat == first % n + 1
            assert pile >= n * refill
        else:
            assert pile < n * refill
    assert played == rounds
    with refused("professor_tempus.over"):
        pt.apply(state, open_(1, 0, "+", card("red", 25)))


def test_most_hourglasses_wins_and_a_tie_shares_the_win():
    """End of the game: the most hourglasses over all rounds wins; equal tops share it
    (the rulebook names no tie-break)."""
    state = game(2)
    scores = [{"1": 3, "2": 1}, {"1": 0, "2": 4}, {"1": 2, "2": 2}, {"1": 1, "2": 0},
              {"1": 0, "2": 0}]
    deck = list(pt.all_cards())
    for k, score in enumerate(scores):
        state = play_round(state, deck)
        cards = [len(c) for c in state.rounds[-1].collected]
        score = {s: min(v, 3 * cards[int(s) - 1]) for s, v in score.items()}
        scores[k] = score
        assert not pt.snapshot(state)["winners"]
        state = pt.apply(state, {"type": "score_round", "hourglasses": score})
    snap = pt.snapshot(state)
    totals = {s: sum(r[s] for r in scores) for s in ("1", "2")}
    assert snap["over"] and snap["totals"] == totals
    best = max(totals.values())
    assert snap["winners"] == [int(s) for s, v in totals.items() if v == best]
    # correct every round to nothing: equal totals share the win
    for r in range(1, 6):
        state = pt.apply(state, {"type": "correct_round", "round": r,
                                 "hourglasses": {"1": 0, "2": 0}})
    assert pt.snapshot(state)["winners"] == [1, 2]
    # one hourglass more for whoever collected cards in round 1 breaks the tie
    cards = [len(c) for c in state.rounds[0].collected]
    seat = 1 if cards[0] else 2
    state = pt.apply(state, {"type": "correct_round", "round": 1,
                             "hourglasses": {"1": int(seat == 1), "2": int(seat == 2)}})
    assert pt.snapshot(state)["winners"] == [seat]


def test_five_player_variant_counts_twice_and_adds_the_counts():
    """5-player variant: at the first exhaustion the hourglasses are counted and noted,
    everything is shuffled again and play goes on until the pile runs out again."""
    state = game(5)
    assert state.two_counts
    deck = list(pt.all_cards())
    firsts = []
    for k in range(4):
        if k == 2:
            assert state.count == 2 and state.draw_pile == 33
            deck = list(pt.all_cards())  # reshuffled: cards may be played again
        firsts.append(state.players[state.first].seat)
        state = play_round(state, deck)
        score = {str(p.seat): (1 if p.seat == k + 1 else 0) for p in state.players}
        score = {s: v if state.rounds[-1].collected[int(s) - 1] else 0 for s, v in score.items()}
        state = pt.apply(state, {"type": "score_round", "hourglasses": score})
    assert firsts == [1, 2, 3, 4]
    snap = pt.snapshot(state)
    assert snap["over"] and len(snap["counts"]) == 2
    assert snap["totals"] == {s: snap["counts"][0][s] + snap["counts"][1][s]
                              for s in snap["totals"]}


# -- properties -----------------------------------------------------------------------


@settings(deadline=None, max_examples=25)
@given(st.integers(2, 5), st.data())
def test_any_legal_game_keeps_the_rulebooks_invariants(n, data):
    """Random legal play: clockwise turns, a round ends exactly when all hands are at two,
    each round collects every card played, the first player rotates, and the game ends
    exactly when the pile cannot refill every hand."""
    state = game(n, five_player_variant=False)
    deck = list(pt.all_cards())
    need = n * state.deal.refill
    while state.phase != "over":
        if state.phase == "scoring":
            before_pile, first = state.draw_pile, state.first
            cards = [len(c) for c in state.rounds[-1].collected]
            assert sum(cards) == n * (state.deal.per_hand - 2)
            score = {str(p.seat): data.draw(st.integers(0, 3 * k))
                     for p, k in zip(state.players, cards, strict=True)}
            state = pt.apply(state, {"type": "score_round", "hourglasses": score})
            assert (state.phase == "over") == (before_pile < need)
            if state.phase == "play":
                assert state.first == (first + 1) % n == state.turn
            continue
        i = state.turn
        seat = state.players[i].seat
        unseen = [c for c in deck if c.key not in state.seen]
        c = data.draw(st.sampled_from(unseen))
        free = [h for h, s in enumerate(state.holders) if s is None]
        takes = [h for h, s in enumerate(state.holders)
                 if s is not None and pt.can_play(s, c, seat)[0]]
        theirs = [h for h, s in enumerate(state.holders) if s is not None and s.owner != seat]
        options = [open_(seat, h, "+", card(c.colour, c.value)) for h in free]
        start = i == state.first and all(h == state.deal.per_hand for h in state.hands)
        if not start:
            options += [play(seat, h, card(c.colour, c.value)) for h in takes]
            options += [tuck(seat, h, card(c.colour, c.value)) for h in theirs]
        if not options:
            options = [tuck(seat, 0, card(c.colour, c.value))]
        action = data.draw(st.sampled_from(options))
        state = pt.apply(state, action)
        assert state.hands[i] >= 2
        if state.phase == "play":
            assert state.turn == (i + 1) % n
            assert any(h > 2 for h in state.hands)
        else:
            assert state.hands == (2,) * n
    snap = pt.snapshot(state)
    best = max(snap["totals"].values())
    assert snap["winners"] == [int(s) for s, v in snap["totals"].items() if v == best]
