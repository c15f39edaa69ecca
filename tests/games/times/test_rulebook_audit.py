"""Times: an independent audit of the engine against the rulebook, rule by rule.

Each test restates (in our own words) the rule or worked example it checks. The
readings chosen where the rulebook is open are those of docs/times-rulings.md; where a
test pins one of them down, its docstring says so.
"""

from __future__ import annotations

import dataclasses
import json
from functools import reduce

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from refusals import MALFORMED, expect, refused

from companion.games import times
from companion.games.times.cards import CARD_CODES, PlayOutcome, parse_card, resolve_play
from companion.games.times.score import round_points
from companion.games.times.table import BOUNDS, Marker, period

NAMES = ("Einstein", "Curie", "Gauss", "Riese", "Newton")


def new(n=4, **options):
    return times.initial({"players": [{"name": NAMES[i], "seat": i + 1} for i in range(n)],
                          **options})


def run(state, *actions):
    return reduce(times.apply, actions, state)


def m(column, size, start):
    return {"column": column, "size": size, "start": start}


def place(seat, *markers):
    return {"type": "place", "seat": seat, "markers": list(markers)}


def play(*cards):
    """play("pink5", "blue1") -> seat 1 shows pink 5, seat 2 blue 1, ..."""
    return {"type": "play", "cards": {str(i + 1): c for i, c in enumerate(cards)}}


def doubt(seat):
    return {"type": "doubt", "seat": seat}


def join(seat):
    return {"type": "join_doubt", "seat": seat}


def reveal(year):
    return {"type": "reveal_year", "year": year}


def frozen(state):
    return json.dumps(times.snapshot(state), sort_keys=True)


def refused_unchanged(state, action, code):
    """The action is refused with ``code`` and the state's picture is the same after."""
    before = frozen(state)
    expect(code, times.apply, state, action)
    assert frozen(state) == before


# ----------------------------------------------------------------- setup and players
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_player_starts_on_the_start_space_with_six_cards(n):
    """Setup: each player's figure starts on the start space; six cards are dealt to
    each player out of the 30 TIMES cards (so at most five players, one per figure)."""
    state = new(n)
    assert state.hands == (6,) * n
    assert state.scores == (0,) * n
    assert (state.round, state.event, state.phase) == (1, 1, times.PLAY)


@pytest.mark.parametrize("n", [0, 1, 6])
def test_player_counts_outside_two_to_five_are_refused(n):
    """Thirty cards, six a hand, five figures: a game is two to five players (a
    one-player game has nobody to doubt or to cancel a card with)."""
    players = [{"name": f"P{i}", "seat": i} for i in range(1, n + 1)]
    with refused("setup.player_count"):
        times.initial({"players": players})


# ----------------------------------------------------------------- the Time Table
def test_marker_example_large_medium_small_stack_in_the_century_column():
    """Markers in one column stack, each on its own period: a large marker on 1400 to
    1899, the medium on 1400 to 1699 and the small on 1500 to 1599 leave 1500-1599."""
    state = run(new(3), play("pink5", "pink3", "pink1"), place(1, m("century", 5, 14)))
    assert times.period_in_force(state) == (1400, 1899)
    state = run(state, place(2, m("century", 3, 14)))
    assert times.period_in_force(state) == (1400, 1699)
    state = run(state, place(3, m("century", 1, 15)))
    assert times.period_in_force(state) == (1500, 1599)


def test_the_table_shows_the_year_1342():
    """One small marker per column (13, 4, 2) shows a single year: 1342."""
    state = run(new(3), play("pink1", "blue1", "yellow1"), place(1, m("century", 1, 13)),
                place(2, m("decade", 1, 4)), place(3, m("year", 1, 2)))
    assert times.period_in_force(state) == (1342, 1342)
    assert [t.period for t in state.turns] == [(1300, 1399), (1340, 1349), (1342, 1342)]


@pytest.mark.parametrize(
    ("board", "years"),
    [
        # the medium marker in the year column on 7 covers the years 7 to 9
        ((("century", 1, 16), ("decade", 1, 2), ("year", 3, 7)), (1627, 1629)),
        # the small marker in the decade column on 8 covers 80 to 89
        ((("century", 1, 17), ("decade", 1, 8)), (1780, 1789)),
        # a large decade marker on 5 covers 50 to 90
        ((("century", 1, 19), ("decade", 5, 5)), (1950, 1999)),
        ((("century", 5, 10),), (1000, 1499)),
        ((), (1000, 1999)),
    ],
)
def test_periods_the_markers_cover(board, years):
    """A 5-, 3- or 1-marker covers that many spaces of its column from where it lies."""
    assert period(tuple(Marker(c, s, st_, 1) for c, s, st_ in board)) == years


def _first_turn(column, size):
    """Two players; seat 1 holds the (column, size) card and lays it first."""
    colour = {"century": "pink", "decade": "blue", "year": "yellow"}[column]
    other = "yellow1" if f"{colour}{size}" != "yellow1" else "pink5"
    return run(new(2), play(f"{colour}{size}", other))


def _forced_before(column):
    return {"century": [], "decade": [m("century", 1, 15)],
            "year": [m("century", 1, 15), m("decade", 1, 5)]}[column]


# yellow 1 is the last card, never laid first: its column edges are those of yellow 3/5
EDGES = [(c, s) for c in ("century", "decade", "year") for s in (5, 3, 1)][:-1]


@pytest.mark.parametrize(("column", "size"), EDGES)
def test_a_marker_fits_every_start_inside_its_column_and_none_past_either_end(column, size):
    """No marker may hang over the start or the end of its column (a large decade marker
    lies on 50 to 90 at the latest, never on 70 to 10): the first and last fitting
    starts are accepted, one space beyond either end is refused and changes nothing."""
    first, last = BOUNDS[column]
    state = _first_turn(column, size)
    forced = _forced_before(column)
    for start in (first, last - size + 1):
        after = run(state, place(1, *forced, m(column, size, start)))
        assert after.board[-1].start == start
    for start in (first - 1, last - size + 2):
        refused_unchanged(state, place(1, *forced, m(column, size, start)),
                          "times.off_the_column")


# ----------------------------------------------------------------- cards and order
def test_the_nine_cards_play_in_the_rulebook_order():
    """Turn order: pink 5, pink 3, pink 1, blue 5, blue 3, blue 1, yellow 5, yellow 3,
    yellow 1 - whoever covers the largest period of the coarsest column begins."""
    shown = dict(enumerate(reversed(CARD_CODES), start=1))
    res = resolve_play({s: parse_card(c) for s, c in shown.items()})
    assert [shown[s] for s in res.active] == [
        "pink5", "pink3", "pink1", "blue5", "blue3", "blue1", "yellow5", "yellow3", "yellow1"]


@pytest.mark.parametrize(
    ("cards", "order"),
    [
        (("blue3", "yellow5", "blue5"), (3, 1, 2)),  # no pink: the largest blue begins
        (("yellow1", "yellow3", "yellow5"), (3, 2, 1)),  # only yellow: the largest begins
        (("yellow5", "pink1", "blue5", "pink3"), (4, 2, 3, 1)),
    ],
)
def test_who_begins_and_who_follows(cards, order):
    """Without pink cards the largest blue card begins; without pink or blue, the
    largest yellow card; everyone else follows the card order, not the seating."""
    state = run(new(len(cards)), play(*cards))
    assert tuple(s for s, _ in state.played) == order
    assert times.whose_turn(state) == order[0]


@pytest.mark.parametrize(
    ("cards", "outcome", "active", "cancelled"),
    [
        # three identical cards all cancel, the fourth card stands alone
        (("pink5", "pink5", "pink5", "blue1"), PlayOutcome.LONE_CARD, (4,), (1, 2, 3)),
        # two pairs: nothing stands, everyone plays again
        (("blue3", "yellow1", "blue3", "yellow1"), PlayOutcome.ALL_CANCELLED, (), (1, 2, 3, 4)),
        # same colour, different number: no cancelling
        (("blue3", "blue5"), PlayOutcome.TURNS, (2, 1), ()),
        # same number, different colour: no cancelling
        (("pink3", "yellow3", "blue3"), PlayOutcome.TURNS, (1, 3, 2), ()),
        # one pair among five: the other three take their turns
        (("pink1", "yellow5", "pink1", "blue1", "blue5"), PlayOutcome.TURNS, (5, 4, 2), (1, 3)),
    ],
)
def test_only_cards_equal_in_colour_and_number_cancel(cards, outcome, active, cancelled):
    """Identical cards (same colour and same number) cancel each other out: those
    players take them back and sit this event out."""
    res = resolve_play({i + 1: parse_card(c) for i, c in enumerate(cards)})
    assert (res.outcome, res.active, res.cancelled) == (outcome, active, cancelled)


def test_three_all_cancelling_reveals_abort_the_round_but_keep_the_event_and_scores():
    """When every card cancels, the same event is played again; the third time in a row
    the round is abandoned and six new cards are dealt to everyone, still for the same
    event. Reading: an abandoned round is not scored and keeps its number."""
    state = dataclasses.replace(new(2), hands=(3, 5), scores=(4, 2), event=7)
    same = play("blue3", "blue3")
    state = run(state, same, same)
    assert (state.event, state.hands, state.cancel_streak) == (7, (3, 5), 2)
    state = run(state, same)
    assert (state.event, state.hands, state.scores, state.round) == (7, (6, 6), (4, 2), 1)
    assert state.phase == times.PLAY and state.history == ()


def test_a_lone_card_goes_to_the_discard_pile_and_the_event_is_played_again():
    """When every other card cancels, the one card left is discarded by its owner and
    everyone plays again for the unchanged event."""
    state = run(new(3), play("pink1", "pink1", "yellow3"))
    assert state.hands == (6, 6, 5)
    state = run(state, {"type": "next_event"})
    assert (state.phase, state.event) == (times.PLAY, 1)
    state = run(state, play("pink5", "blue5", "yellow5"))
    assert state.phase == times.TURNS and state.event == 1


# ----------------------------------------------------------------- placing and refining
def test_rulebook_forced_markers_pink5_then_yellow3():
    """After a pink 5, a yellow 3 needs the exact century and decade first: a pink 1 and
    a blue 1, then the yellow 3. Laid without them, the move is not accepted."""
    state = run(new(2), play("pink5", "yellow3"), place(1, m("century", 5, 10)))
    assert times.required_forced_markers(state, 2) == ("century", "decade")
    refused_unchanged(state, place(2, m("year", 3, 2)), MALFORMED)
    state = run(state, place(2, m("century", 1, 11), m("decade", 1, 0), m("year", 3, 2)))
    assert times.period_in_force(state) == (1102, 1104)


def test_rulebook_round_einstein_curie_gauss_riese():
    """Einstein covers 1000-1499 with pink 5; Curie (blue 1) must first fix the century
    with pink 1 on 1300, then lays blue 1 on 30: 1330-1339. Gauss doubts. Riese (yellow 1)
    accepts Curie's period, needs no extra marker, and lays yellow 1 on 7: 1337."""
    state = run(new(4), play("pink5", "blue1", "yellow5", "yellow1"),
                place(1, m("century", 5, 10)))
    refused_unchanged(state, place(2, m("decade", 1, 3)), MALFORMED)
    state = run(state, place(2, m("century", 1, 13), m("decade", 1, 3)), doubt(3))
    assert times.period_in_force(state) == (1330, 1339)
    assert times.required_forced_markers(state, 4) == ()
    state = run(state, place(4, m("year", 1, 7)))
    assert times.period_in_force(state) == (1337, 1337)
    assert state.phase == times.REVEAL


@pytest.mark.parametrize(
    ("first", "mine", "good", "bad"),
    [
        # same column: the next marker goes on top, inside the one below (1200-1699)
        (("pink5", "pink3"), [m("century", 5, 12)], [m("century", 3, 14)],
         [m("century", 3, 15)]),
        # another column: the forced pink 1 must stay inside 1200-1699
        (("pink5", "blue5"), [m("century", 5, 12)], [m("century", 1, 16), m("decade", 5, 0)],
         [m("century", 1, 17), m("decade", 5, 0)]),
        # a blue 3 on the decades 1830-1879 stays inside them
        (("blue5", "blue3"), [m("century", 1, 18), m("decade", 5, 3)], [m("decade", 3, 5)],
         [m("decade", 3, 6)]),
    ],
)
def test_a_refinement_stays_inside_the_predecessors_period(first, mine, good, bad):
    """A refinement only ever narrows the predecessor's period; a marker laid outside
    it is refused, and the state is left as it was."""
    state = run(new(2), play(*first), place(1, *mine))
    outer = times.period_in_force(state)
    after = run(state, place(2, *good))
    lo, hi = times.period_in_force(after)
    assert outer[0] <= lo <= hi <= outer[1] and (lo, hi) != outer
    refused_unchanged(state, place(2, *bad), "times.outside_period")


def test_after_a_pink1_a_yellow_card_fixes_only_the_decade():
    """When the century is already exact, a yellow card needs just one extra marker, a
    blue 1, before its own."""
    state = run(new(2), play("pink1", "yellow5"), place(1, m("century", 1, 17)))
    assert times.required_forced_markers(state, 2) == ("decade",)
    state = run(state, place(2, m("decade", 1, 7), m("year", 5, 5)))
    assert times.period_in_force(state) == (1775, 1779)


# ----------------------------------------------------------------- doubting
def test_the_first_card_can_never_pass_or_doubt():
    """The holder of the first card in the order must place: a pass (doubt) is never
    possible for them, and there is no doubt yet to join."""
    state = run(new(2), play("yellow5", "yellow1"))
    refused_unchanged(state, doubt(1), "times.first_places")
    refused_unchanged(state, join(1), "times.first_places")


def test_doubt_only_the_direct_predecessor_in_card_order_not_seating():
    """The predecessor is the previous card in the order, not the neighbour at the
    table: seat 3 (pink 1) follows seat 1 (pink 5), not seat 2."""
    state = run(new(3), play("pink5", "blue5", "pink1"), place(1, m("century", 5, 10)))
    assert times.whose_turn(state) == 3
    refused_unchanged(state, doubt(2), "times.not_your_turn")
    refused_unchanged(state, {"type": "doubt", "seat": 3, "target": 2},
                      "times.doubt_predecessor")
    state = run(state, {"type": "doubt", "seat": 3, "target": 1})
    assert state.turns[-1].target == 1


def test_a_doubter_may_not_be_doubted_only_joined():
    """When the predecessor doubted, one may join that doubt or refine the last placed
    period; doubting the doubter is not a move."""
    state = run(new(3), play("pink5", "pink3", "pink1"), place(1, m("century", 5, 10)),
                doubt(2))
    refused_unchanged(state, doubt(3), "times.predecessor_doubted")
    assert times.may_join_doubt(state, 3) and not times.may_doubt(state, 3)


def test_a_whole_five_space_period_falls_with_one_wrong_year():
    """Doubt declares the predecessor's whole period false, whatever its size: a doubt
    of 1000-1499 is right for 1500 and wrong for 1499."""
    base = run(new(2), play("pink5", "blue1"), place(1, m("century", 5, 10)), doubt(2))
    right = run(base, reveal(1500))
    assert [(r.seat, r.correct, r.result) for r in right.results] == [
        (1, False, "took_back"), (2, True, "discarded")]
    assert right.hands == (6, 5)
    wrong = run(base, reveal(1499))
    assert [(r.seat, r.correct, r.result) for r in wrong.results] == [
        (1, True, "handed_over"), (2, False, "took_back")]
    assert wrong.hands == (5, 7)


@pytest.mark.parametrize(
    ("year", "hands", "receiver"),
    [
        (1700, (6, 5, 5, 5, 6), None),  # Einstein wrong: all three doubters discard
        (1200, (5, 6, 6, 7, 5), 4),  # Einstein right: the last doubter, Riese, gets his card
    ],
)
def test_a_chain_of_doubts_the_last_doubter_receives_the_card(year, hands, receiver):
    """Several players may doubt one period (each joining the doubt before them); when
    the period proves right the last of them is handed the placer's card and everyone
    in the chain takes their own card back; when it proves wrong they all discard.
    Newton, after the chain, refines Einstein's period and is judged on his own."""
    state = run(new(5), play("pink5", "pink3", "pink1", "blue5", "yellow1"),
                place(1, m("century", 5, 10)), doubt(2), join(3), join(4))
    assert [t.target for t in state.turns[1:]] == [1, 1, 1]
    state = run(state, place(5, m("century", 1, 12), m("decade", 1, 0), m("year", 1, 0)),
                reveal(year))
    assert state.hands == hands
    by_seat = {r.seat: r for r in state.results}
    assert by_seat[1].given_to == receiver
    assert [by_seat[s].received_from for s in (2, 3, 4)] == (
        [None, None, 1] if receiver else [None, None, None])
    assert by_seat[5].correct is (year == 1200)


# ----------------------------------------------------------------- evaluation
def test_rulebook_evaluation_of_1299():
    """The event was 1299: Einstein (1000-1499) was right and discards; Curie (1330-1339)
    was wrong and takes her card back; Gauss doubted her rightly and discards; Riese did
    not join and set 1337, so he too takes his card back."""
    state = run(new(4), play("pink5", "blue1", "yellow5", "yellow1"),
                place(1, m("century", 5, 10)), place(2, m("century", 1, 13), m("decade", 1, 3)),
                doubt(3), place(4, m("year", 1, 7)), reveal(1299))
    assert [(r.seat, r.correct, r.result) for r in state.results] == [
        (1, True, "discarded"), (2, False, "took_back"), (3, True, "discarded"),
        (4, False, "took_back")]
    assert state.hands == (5, 6, 5, 6)


def test_the_board_is_cleared_for_the_next_event():
    """Once the cards are sorted out, every marker goes back beside the Time Table and a
    new event is read."""
    state = run(new(2), play("pink5", "pink3"), place(1, m("century", 5, 10)),
                place(2, m("century", 3, 10)), reveal(1100), {"type": "next_event"})
    assert state.board == () and times.period_in_force(state) == (1000, 1999)
    assert (state.phase, state.event) == (times.PLAY, 2)


# ----------------------------------------------------------------- end of a round
@pytest.mark.parametrize(
    ("hands", "points"),
    [
        ((1, 3, 6), (3, 2, 1)),
        ((1, 1, 4, 2), (3, 3, 1, 2)),
        ((2, 1, 8, 8, 5), (2, 3, 1, 1, 2)),
        ((1, 2), (3, 1)),
    ],
)
def test_round_scoring_through_the_engine(hands, points):
    """A player down to one card ends the round: they move 3, whoever holds the most
    cards moves 1, everyone else 2; ties share the same step."""
    state = dataclasses.replace(new(len(hands), target=50), hands=hands, phase=times.EVALUATED)
    state = run(state, {"type": "next_event"})
    assert state.scores == points
    assert state.history[-1].points == points
    assert state.hands == (6,) * len(hands) and state.round == 2


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=2, max_size=5).filter(lambda h: 1 in h))
def test_round_points_properties(hands):
    """Down to one card scores 3, the most cards (among the others) scores 1, the rest
    2; so fewer cards never scores less than more cards."""
    points = round_points(hands)
    others = [h for h in hands if h > 1]
    for h, p in zip(hands, points, strict=True):
        if h == 1:
            assert p == 3
        elif h == max(others):
            assert p == 1
        else:
            assert p == 2
    for a, pa in zip(hands, points, strict=True):
        for b, pb in zip(hands, points, strict=True):
            if a < b:
                assert pa >= pb


def test_no_round_end_while_everyone_still_has_two_or_more():
    """The round goes on until someone is down to exactly one card."""
    state = dataclasses.replace(new(3), hands=(2, 5, 6), phase=times.EVALUATED)
    state = run(state, {"type": "next_event"})
    assert (state.round, state.history, state.hands) == (1, (), (2, 5, 6))


# ----------------------------------------------------------------- end of the game
def test_several_players_reaching_the_target_in_one_round_all_win():
    """Whoever reaches the target space wins; when several reach it in the same round
    there are several winners, even if one of them went further than the other."""
    state = dataclasses.replace(new(3, target=10), hands=(1, 1, 4), scores=(9, 7, 9),
                                phase=times.EVALUATED)
    state = run(state, {"type": "next_event"})
    assert state.scores == (12, 10, 10)
    assert state.winners == (1, 2, 3) and times.is_over(state)


def test_one_short_of_the_target_plays_another_round():
    """Short of the target space, another round starts with six new cards each."""
    state = dataclasses.replace(new(2, target=10), hands=(1, 3), scores=(6, 9),
                                phase=times.EVALUATED)
    state = run(state, {"type": "next_event"})
    assert state.scores == (9, 10) and state.winners == (2,)
    state = dataclasses.replace(new(2, target=10), hands=(1, 3), scores=(6, 8),
                                phase=times.EVALUATED)
    state = run(state, {"type": "next_event"})
    assert state.scores == (9, 9) and not times.is_over(state)
    assert (state.round, state.hands, state.phase) == (2, (6, 6), times.PLAY)


@pytest.mark.parametrize(
    "action",
    [play("pink5", "blue1"), {"type": "next_event"}, reveal(1500),
     {"type": "override", "seat": 1, "score": 3, "reason": "x"}],
)
def test_nothing_is_played_after_the_game_is_won(action):
    """The game ends when someone reaches the target: every further move is refused."""
    state = dataclasses.replace(new(2, target=3), hands=(1, 4), phase=times.EVALUATED)
    state = run(state, {"type": "next_event"})
    assert times.is_over(state)
    refused_unchanged(state, action, "times.over")


# ----------------------------------------------------------------- properties of one event
def _random_turn(data, state):
    seat = times.whose_turn(state)
    options = ["place"]
    if times.may_doubt(state, seat):
        options.append("doubt")
    if times.may_join_doubt(state, seat):
        options.append("join_doubt")
    kind = data.draw(st.sampled_from(options))
    if kind != "place":
        return {"type": kind, "seat": seat}
    card = parse_card(dict(state.played)[seat])
    wanted = [(c, 1) for c in times.required_forced_markers(state, seat)]
    wanted.append((card.column, card.size))
    board, markers = state.board, []
    for column, size in wanted:
        lo, hi = BOUNDS[column]
        for mk in board:
            if mk.column == column:
                lo, hi = max(lo, mk.start), min(hi, mk.end)
        start = data.draw(st.integers(lo, hi - size + 1))
        markers.append(m(column, size, start))
        board = (*board, Marker(column, size, start, seat))
    return place(seat, *markers)


@settings(max_examples=150, deadline=None)
@given(st.data(), st.integers(2, 5))
def test_an_event_narrows_the_period_and_moves_every_card_once(data, n):
    """Within an event every placement narrows the period in force (a refinement stays
    inside its predecessor's period); at the evaluation each played card goes exactly
    one way - discard pile, back to its hand, or over to a doubter - so the cards that
    leave the hands are the discarded ones, and a handed-over card lands with one doubter.
    A doubt is right exactly when the doubted period misses the year."""
    cards = data.draw(st.lists(st.sampled_from(CARD_CODES), min_size=n, max_size=n,
                               unique=True))
    state = run(new(n), play(*cards))
    last = times.period_in_force(state)
    while state.phase == times.TURNS:
        state = times.apply(state, _random_turn(data, state))
        now = times.period_in_force(state)
        assert last[0] <= now[0] <= now[1] <= last[1]
        if state.turns[-1].kind == "place":
            assert now != last
        last = now
    year = data.draw(st.integers(1000, 1999))
    before = sum(state.hands)
    state = times.apply(state, reveal(year))
    results = {r.seat: r for r in state.results}
    discarded = sum(1 for r in state.results if r.result == "discarded")
    assert before - sum(state.hands) == discarded
    periods = {t.seat: t.period for t in state.turns if t.kind == "place"}
    for t in state.turns:
        r = results[t.seat]
        if t.kind == "place":
            assert r.correct is (periods[t.seat][0] <= year <= periods[t.seat][1])
            if r.result == "handed_over":
                assert results[r.given_to].received_from == t.seat
        else:
            lo, hi = periods[t.target]
            assert r.correct is not (lo <= year <= hi)
