"""Crazy Time: an audit of the engine against the rulebook, rule by rule.

Each test names, in our own words, the rule it checks. The engine keeps the book of a
four-round game (deals, who leads, pick-ups, laws, guesses, round winners); the cards
themselves are the table's business, so the tests speak in the actions the table
records.
"""

from __future__ import annotations

import copy
from functools import reduce

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from refusals import refused

from companion.errors import CompanionError
from companion.games import crazy_time as ct

NAMES = ["Ann", "Bob", "Cara", "Dan", "Eve", "Finn", "Gus"]


def setup(n: int = 4, **extra) -> dict:
    return {"players": [{"name": NAMES[i], "seat": i + 1} for i in range(n)], **extra}


def play(actions, n: int = 4, **extra) -> ct.State:
    return reduce(ct.apply, actions, ct.initial(setup(n, **extra)))


def won(seat):
    return {"type": "round_won", "seat": seat}


def law(name, creator, absent):
    return {"type": "new_law", "name": name, "when": f"when {name}", "what": f"what {name}",
            "creator": creator, "absent": absent}


def pickup(seat, reason="temporal_flaw", law_name=None, **more):
    action = {"type": "pickup", "seat": seat, "reason": reason, **more}
    if law_name:
        action["law"] = law_name
    return action


def guess(seat, name, correct, **more):
    return {"type": "guess", "seat": seat, "law": name, "correct": correct, **more}


def refused_unchanged(state, action, code):
    before = ct.snapshot(state)
    with refused(code):
        ct.apply(state, action)
    assert ct.snapshot(state) == before


# -- components and setup --------------------------------------------------------------


@pytest.mark.parametrize(("n", "each"), [(4, 15), (5, 12), (6, 10), (7, 9)])
def test_deal_by_player_count(n, each):
    """Setup: 15 cards each with 4, 12 with 5, 10 with 6, 9 with 7 (of the 63 hours)."""
    assert ct.deal_size(n) == each
    assert n * each <= 63
    assert ct.initial(setup(n)).deal == each


@pytest.mark.parametrize("n", [1, 2, 3, 8])
def test_the_deal_table_has_no_other_player_count(n):
    """The rulebook deals for 4 to 7 players only."""
    with pytest.raises(CompanionError):
        ct.initial({"players": [{"name": f"P{i}", "seat": i + 1} for i in range(n)]})


def test_the_dealer_plays_first_at_one_oclock_under_the_two_standing_laws():
    """Course of the game: the dealer starts at "1 o'clock"; round one has only the
    Time Machine and Synchronisation laws."""
    state = ct.initial(setup(5, first_dealer=4))
    assert (state.round, state.dealer, state.lead) == (1, 4, 4)
    assert [(x.name, x.standing) for x in state.laws] == [("Time Machine", True),
                                                          ("Synchronisation", True)]
    assert "1 o'clock" in state.notice and "12 cards" in state.notice


# -- picking up ---------------------------------------------------------------------------


def test_synchronisation_the_last_to_slap_picks_up_and_restarts_at_one():
    """Synchronisation: everybody slaps; the last one picks up, and it is their turn:
    they announce "1 o'clock"; laws in effect are cancelled."""
    state = ct.apply(play([]), pickup(3, "slap", "synchronisation"))
    (p,) = state.pickups
    assert (p.seat, p.reason, p.law) == (3, "slap", "Synchronisation")
    assert state.lead == 3
    assert "1 o'clock" in state.notice and "cancelled" in state.notice
    assert "5" in state.notice  # keeps up to five cards


@pytest.mark.parametrize(("correct", "last_played", "picker"), [
    (True, None, 2),  # right: the one who broke the rule
    (False, None, 1),  # wrong: the accuser
    (True, 4, 4),  # others played since the mistake: the last one to have played
])
def test_temporal_flaw_who_picks_up(correct, last_played, picker):
    """Temporal Flaw: the accused picks up; a wrong accuser picks up instead; if players
    played after the mistake, the last of them picks up (they should have seen it)."""
    action = {"type": "accusation", "accuser": 1, "accused": 2, "law": "Time Machine",
              "correct": correct}
    if last_played is not None:
        action["last_played"] = last_played
    state = ct.apply(play([]), action)
    assert state.pickups[-1].seat == picker and state.lead == picker


def test_several_mistakes_the_last_one_to_err_picks_up():
    """Special case: several players slap when they should not; the last one picks up."""
    state = ct.apply(play([]), {"type": "mistakes", "seats": [2, 4, 1], "reason": "false_slap"})
    assert state.pickups[-1].seat == 1 and state.pickups[-1].erred == (2, 4, 1)


# -- rounds, new laws, the end ----------------------------------------------------------


def test_a_whole_game_four_rounds_winner_deals_laws_added_gmt():
    """Rounds: a round ends when a draw pile is empty; the winner sends one player out,
    makes a new law, deals and starts the next round; laws stay in force; every round
    winner turns up a card first; the winner of round four is the Grand Master of Time."""
    state = ct.initial(setup(4, first_dealer=1))
    state = ct.apply(state, won(2))
    assert state.phase == ct.NEW_LAW
    state = ct.apply(state, law("Sevens", creator=2, absent=3))
    assert (state.round, state.dealer, state.lead, state.reveal_first) == (2, 2, 2, (2,))
    state = ct.apply(ct.apply(state, won(4)), law("Mirror", creator=4, absent=1))
    assert (state.round, state.dealer, state.reveal_first) == (3, 4, (2, 4))
    state = ct.apply(ct.apply(state, won(2)), law("Hush", creator=2, absent=4))
    assert (state.round, state.dealer, state.reveal_first) == (4, 2, (2, 4))
    assert [x.name for x in state.laws] == ["Time Machine", "Synchronisation", "Sevens",
                                            "Mirror", "Hush"]
    state = ct.apply(state, won(3))
    assert state.phase == ct.OVER and ct.is_over(state) and state.grand_master == 3
    assert [r.seat for r in state.results] == [2, 4, 2, 3]
    for action in (won(1), law("More", 3, 2), pickup(1), {"type": "tick_tock", "seat": 1}):
        with pytest.raises(CompanionError):
            ct.apply(state, action)


LAW_1 = [won(2), law("Sevens", creator=2, absent=3)]


@pytest.mark.parametrize(("prefix", "action", "code"), [
    ([won(2)], law("Sevens", creator=1, absent=3), "crazy_time.law_by_winner"),
    ([won(2)], law("Sevens", creator=2, absent=2), "crazy_time.creator_stays"),
    (LAW_1 + [won(4)], law("Mirror", creator=4, absent=3), "crazy_time.left_once"),
    (LAW_1 + [won(4)], law("sevens", creator=4, absent=1), "crazy_time.law_name_taken"),
    ([won(2)], pickup(1), "crazy_time.law_first"),  # no play before the new law
    ([won(2)], won(2), "crazy_time.law_first"),
    ([], law("Early", creator=1, absent=2), "crazy_time.law_after_win"),
])
def test_new_law_rules_refused_and_nothing_changes(prefix, action, code):
    """Choosing a new law: made by the round's winner, who stays; the one sent out is
    someone else, and nobody leaves the room twice in a game."""
    refused_unchanged(play(prefix), action, code)


# -- guessing a law ----------------------------------------------------------------------


def test_only_the_absent_player_guesses_and_only_after_a_pickup_for_that_law():
    """Guessing: the player who was out of the room waits for someone to pick up because
    of that law, then makes one proposal; if wrong, another after a later such pick-up."""
    state = play(LAW_1)
    refused_unchanged(state, guess(3, "Sevens", True), "crazy_time.guess_needs_pickup")
    state = ct.apply(state, pickup(1, law_name="Sevens"))
    refused_unchanged(state, guess(1, "Sevens", True), "crazy_time.guess_not_absent")
    state = ct.apply(state, guess(3, "Sevens", False))
    refused_unchanged(state, guess(3, "Sevens", True), "crazy_time.guess_needs_pickup")
    state = ct.apply(state, pickup(4, law_name="Time Machine"))  # another law's pick-up
    refused_unchanged(state, guess(3, "Sevens", True), "crazy_time.guess_needs_pickup")
    state = ct.apply(state, pickup(2, law_name="Sevens"))
    state = ct.apply(state, guess(3, "Sevens", True))
    assert state.guesses[-1].removed == 5 and state.phase == ct.PLAYING


def test_a_correct_guess_emptying_the_pile_wins_the_round_at_once():
    """If the guesser then has no cards left, they win the round immediately."""
    state = play(LAW_1 + [pickup(1, law_name="Sevens")])
    state = ct.apply(state, guess(3, "Sevens", True, pile_after=0))
    assert state.phase == ct.NEW_LAW and state.results[-1].seat == 3
    assert state.results[-1].how == "guess"


@pytest.mark.parametrize("pile", [1, 4, 5])
def test_a_correct_guess_on_five_cards_or_fewer_wins_the_round(pile):
    """A correct guess removes five cards; a pile last counted at five or fewer (it can
    only have shrunk since, by the cards turned up) is then empty: the guesser wins."""
    state = play(LAW_1 + [pickup(3, law_name="Sevens", pile=pile)])
    state = ct.apply(state, guess(3, "Sevens", True))
    assert state.phase == ct.NEW_LAW and state.results[-1].seat == 3


def test_a_correct_guess_on_five_cards_cannot_leave_cards():
    state = play(LAW_1 + [pickup(3, law_name="Sevens", pile=5)])
    refused_unchanged(state, guess(3, "Sevens", True, emptied=False), "crazy_time.pile_emptied")


def test_a_correct_guess_on_more_than_five_cards_keeps_the_round_going():
    state = play(LAW_1 + [pickup(3, law_name="Sevens", pile=6)])
    state = ct.apply(state, guess(3, "Sevens", True))
    assert state.phase == ct.PLAYING


def test_a_correct_guess_takes_five_cards_off_the_counted_pile():
    """The five cards go back in the box: a pile counted at 9 holds at most 4 after."""
    state = play(LAW_1 + [pickup(3, law_name="Sevens", pile=9)])
    refused_unchanged(state, guess(3, "Sevens", True, pile_after=6), "crazy_time.pile_count")
    assert ct.apply(state, guess(3, "Sevens", True, pile_after=4)).piles == ((3, 4),)


def test_a_wrong_guess_removes_nothing_and_adds_nothing():
    """A wrong proposal costs nothing and gives nothing: the pile cannot have grown."""
    state = play(LAW_1 + [pickup(3, law_name="Sevens", pile=7)])
    refused_unchanged(state, guess(3, "Sevens", False, pile_after=8), "crazy_time.pile_count")
    assert ct.apply(state, guess(3, "Sevens", False, pile_after=7)).piles == ((3, 7),)


def test_a_pickup_keeps_at_most_five_cards():
    """Picking up: the picker keeps five cards (or all, if fewer) under the draw pile."""
    state = play([pickup(2, pile=7)])
    refused_unchanged(state, pickup(2, pile=13), "crazy_time.pile_count")
    assert ct.apply(state, pickup(2, pile=12)).piles == ((2, 12),)


# A counted draw pile never holds more than this round's deal, plus five cards for each
# of the seat's pick-ups this round, less five for each of its correct guesses this round
# (the deal, the five cards a pick-up keeps, the five a correct guess removes).
# (name, players, actions before, the counted action, refused?)
CEILING = [
    ("first pick-up, four players: 15 + 5", 4, [], pickup(2, pile=20), False),
    ("first pick-up, four players: not 21", 4, [], pickup(2, pile=21), True),
    ("first pick-up, seven players: 9 + 5", 7, [], pickup(2, pile=14), False),
    ("first pick-up, seven players: not 15", 7, [], pickup(2, pile=15), True),
    ("second pick-up: 15 + 10", 4, [pickup(2)], pickup(2, pile=25), False),
    ("second pick-up: not 26", 4, [pickup(2)], pickup(2, pile=26), True),
    ("another seat's pick-up gives nothing", 4, [pickup(1), pickup(1)], pickup(2, pile=21),
     True),
    ("a correct guess, never picked up: 15 - 5", 4, LAW_1 + [pickup(1, law_name="Sevens")],
     guess(3, "Sevens", True, pile_after=10), False),
    ("a correct guess, never picked up: not 11", 4, LAW_1 + [pickup(1, law_name="Sevens")],
     guess(3, "Sevens", True, pile_after=11), True),
    ("a wrong guess, never picked up: 15", 4, LAW_1 + [pickup(1, law_name="Sevens")],
     guess(3, "Sevens", False, pile_after=15), False),
    ("a wrong guess, never picked up: not 16", 4, LAW_1 + [pickup(1, law_name="Sevens")],
     guess(3, "Sevens", False, pile_after=16), True),
    ("a pick-up after a correct guess: 15 + 5 - 5", 4,
     LAW_1 + [pickup(1, law_name="Sevens"), guess(3, "Sevens", True)], pickup(3, pile=15),
     False),
    ("a pick-up after a correct guess: not 16", 4,
     LAW_1 + [pickup(1, law_name="Sevens"), guess(3, "Sevens", True)], pickup(3, pile=16),
     True),
    ("last round's pick-ups do not count", 4, [pickup(2), pickup(2), won(1),
                                                law("Sevens", 1, 3)], pickup(2, pile=21), True),
]


@pytest.mark.parametrize(("n", "before", "action", "refuse"), [c[1:] for c in CEILING],
                         ids=[c[0] for c in CEILING])
def test_a_counted_pile_never_exceeds_the_deal_and_the_pickups(n, before, action, refuse):
    state = play(before, n)
    if refuse:
        refused_unchanged(state, action, "crazy_time.pile_ceiling")
    else:
        ct.apply(state, action)


def test_the_ceiling_is_said_in_the_table_s_words():
    state = play(LAW_1 + [pickup(1, law_name="Sevens"), guess(3, "Sevens", True),
                          pickup(3)])
    with refused("crazy_time.pile_ceiling") as info:
        ct.apply(state, pickup(3, pile=21))
    assert info.value.sentence == (
        "Cara's draw pile cannot hold 21 cards: 15 were dealt this round, 2 pick-ups this "
        "round kept at most 10, 1 correct guess took 5 away, so it holds 20 at most.")


# A count binds every later count of the same pile this round, whatever was left
# uncounted in between: the last count, plus five for each of the seat's pick-ups since
# (a pick-up keeps at most five cards), less five for each correct guess since (it takes
# five out); the pile never grows otherwise. Seat 3 (Cara) was out of the room for
# "Sevens" in round 2, the round LAW_1 starts.
# (name, players, actions before, the counted action, refused?)
SINCE_COUNT = [
    ("counted 3, an uncounted pick-up, then 13 at a pick-up", 4,
     [pickup(2, pile=3), pickup(2)], pickup(2, pile=13), False),
    ("counted 3, an uncounted pick-up, then not 14 at a pick-up (the referee's 16)", 4,
     [pickup(2, pile=3), pickup(2)], pickup(2, pile=14), True),
    ("counted 3, two uncounted pick-ups, then 18", 4,
     [pickup(2, pile=3), pickup(2), pickup(2)], pickup(2, pile=18), False),
    ("counted 3, two uncounted pick-ups, then not 19", 4,
     [pickup(2, pile=3), pickup(2), pickup(2)], pickup(2, pile=19), True),
    ("seven players: counted 2, an uncounted pick-up, then not 13", 7,
     [pickup(2, pile=2), pickup(2)], pickup(2, pile=13), True),
    ("another seat's pick-up adds nothing: counted 3, then not 9", 4,
     [pickup(2, pile=3), pickup(1), pickup(4)], pickup(2, pile=9), True),
    ("a newer count binds instead: counted 3, a pick-up, 10, then 15", 4,
     [pickup(2, pile=3), pickup(2), pickup(2, pile=10)], pickup(2, pile=15), False),
    ("a newer count binds instead: counted 3, a pick-up, 10, then not 16", 4,
     [pickup(2, pile=3), pickup(2), pickup(2, pile=10)], pickup(2, pile=16), True),
    ("an uncounted correct guess takes five: counted 9, then 9 at a pick-up", 4,
     LAW_1 + [pickup(3, law_name="Sevens", pile=9), guess(3, "Sevens", True)],
     pickup(3, pile=9), False),
    ("an uncounted correct guess takes five: counted 9, then not 10 at a pick-up", 4,
     LAW_1 + [pickup(3, law_name="Sevens", pile=9), guess(3, "Sevens", True)],
     pickup(3, pile=10), True),
    ("counted 8, an uncounted pick-up, then a correct guess leaves 8", 4,
     LAW_1 + [pickup(3, law_name="Sevens", pile=8), pickup(3)],
     guess(3, "Sevens", True, pile_after=8), False),
    ("counted 8, an uncounted pick-up, then a correct guess leaves not 9", 4,
     LAW_1 + [pickup(3, law_name="Sevens", pile=8), pickup(3)],
     guess(3, "Sevens", True, pile_after=9), True),
    ("an uncounted wrong guess takes nothing and adds nothing: counted 7, then not 8", 4,
     LAW_1 + [pickup(1, law_name="Sevens"), pickup(3, pile=7), guess(3, "Sevens", False),
              pickup(2, law_name="Sevens")],
     guess(3, "Sevens", False, pile_after=8), True),
    ("an uncounted wrong guess: counted 7, then 7", 4,
     LAW_1 + [pickup(1, law_name="Sevens"), pickup(3, pile=7), guess(3, "Sevens", False),
              pickup(2, law_name="Sevens")],
     guess(3, "Sevens", False, pile_after=7), False),
    ("a new deal forgets the count: counted 3 in round 1, 20 at round 2's pick-up", 4,
     [pickup(3, pile=3), pickup(3)] + LAW_1, pickup(3, pile=20), False),
]


@pytest.mark.parametrize(("n", "before", "action", "refuse"), [c[1:] for c in SINCE_COUNT],
                         ids=[c[0] for c in SINCE_COUNT])
def test_a_count_binds_later_counts_through_uncounted_pickups(n, before, action, refuse):
    state = play(before, n)
    if refuse:
        refused_unchanged(state, action, "crazy_time.pile_count")
    else:
        ct.apply(state, action)


def test_the_referees_case_is_refused_with_its_bound_and_why():
    """Four players: Bob counted 3, picked up uncounted, then says 16 at a pick-up."""
    state = play([pickup(2, pile=3), pickup(2)])
    with refused("crazy_time.pile_count") as info:
        ct.apply(state, pickup(2, pile=16))
    assert info.value.sentence == (
        "Bob's draw pile was counted at 3, 1 pick-up since kept at most 5 more, and a "
        "pick-up keeps at most 5 cards: it holds at most 13, not 16.")


def test_a_guess_since_the_count_is_said_too():
    state = play(LAW_1 + [pickup(3, law_name="Sevens", pile=9), pickup(3),
                          guess(3, "Sevens", True), pickup(3)])
    with refused("crazy_time.pile_count") as info:
        ct.apply(state, pickup(3, pile=20))
    assert info.value.sentence == (
        "Cara's draw pile was counted at 9, 2 pick-ups since kept at most 10 more, 1 "
        "correct guess since took 5 away, and a pick-up keeps at most 5 cards: it holds "
        "at most 19, not 20.")


def test_a_pile_bound_at_five_or_fewer_is_emptied_by_a_correct_guess():
    """Counted at 4, then a wrong guess nobody counted after: the pile still holds 4 at
    most, so the next correct guess empties it and wins the round."""
    state = play(LAW_1 + [pickup(3, law_name="Sevens", pile=4), guess(3, "Sevens", False),
                          pickup(1, law_name="Sevens")])
    refused_unchanged(state, guess(3, "Sevens", True, emptied=False), "crazy_time.pile_emptied")
    state = ct.apply(state, guess(3, "Sevens", True))
    assert state.phase == ct.NEW_LAW and state.results[-1] == ct.RoundResult(2, 3, 2, "guess")


def test_the_round_four_guess_that_empties_the_pile_makes_the_gmt():
    actions = LAW_1 + [won(4), law("Mirror", 4, 1), won(1), law("Hush", 1, 4),
                       pickup(2, law_name="Hush"), guess(4, "Hush", True, emptied=True)]
    state = play(actions)
    assert state.phase == ct.OVER and state.grand_master == 4


# -- properties --------------------------------------------------------------------------


@st.composite
def round_winners(draw):
    n = draw(st.integers(4, 7))
    return n, draw(st.lists(st.integers(1, n), min_size=4, max_size=4)), draw(st.data())


@settings(deadline=None, max_examples=60)
@given(round_winners())
def test_any_four_winners_give_a_legal_game_with_three_laws(case):
    """Whoever wins each round, a legal game exists: three new laws, each by that round's
    winner, three different players out of the room, each round dealt and started by the
    previous winner, and round four's winner is the Grand Master of Time."""
    n, winners, data = case
    state = ct.initial(setup(n))
    for r, w in enumerate(winners, start=1):
        assert state.round == r and state.phase == ct.PLAYING
        if r > 1:
            assert state.dealer == state.lead == winners[r - 2]
            assert state.reveal_first == tuple(sorted(set(winners[:r - 1])))
        state = ct.apply(state, won(w))
        if r == 4:
            break
        free = [s for s in state.seats if s != w and s not in state.left_room()]
        assert free  # there is always someone left to send out
        absent = data.draw(st.sampled_from(free))
        before = copy.deepcopy(state)
        for bad in {w, *state.left_room()}:
            with pytest.raises(CompanionError):
                ct.apply(state, law(f"Law {r}", w, bad))
        assert state == before
        state = ct.apply(state, law(f"Law {r}", w, absent))
    assert state.phase == ct.OVER and state.grand_master == winners[-1]
    assert len(set(state.left_room())) == 3


@st.composite
def pile_events(draw):
    """Pick-ups (some because of "Sevens", some with a counted pile) and Cara's guesses."""
    events = []
    for _ in range(draw(st.integers(1, 14))):
        if draw(st.booleans()):
            events.append(pickup(draw(st.integers(1, 4)),
                                 law_name=draw(st.sampled_from(["Sevens", None])),
                                 pile=draw(st.one_of(st.none(), st.integers(0, 25)))))
        else:
            events.append(guess(3, "Sevens", draw(st.booleans()),
                                pile_after=draw(st.one_of(st.none(), st.integers(0, 25)))))
    return events


@settings(deadline=None, max_examples=300)
@given(pile_events())
def test_counted_piles_follow_the_five_card_rules(events):
    """Against a model of the rulebook's counts: a pick-up keeps at most five cards, a
    correct guess removes five (and wins the round when nothing is left), a wrong guess
    removes none; since the last count a pile only shrinks, but for five cards at most
    per pick-up since and less five per correct guess since, whether or not anything was
    counted in between; and a pile never holds more than the deal (15 cards each for four
    players) plus five a pick-up this round, less five a correct guess. Cara was out of
    the room for "Sevens" and guesses once per pick-up because of it."""
    state = play(LAW_1)
    told: dict[int, int] = {}  # the counts the table gave, as the screen shows them
    most: dict[int, int] = {}  # the most a counted pile can hold by its last count
    ups = dict.fromkeys(range(1, 5), 0)  # this round's pick-ups per seat
    right = 0  # Cara's correct guesses this round
    may_guess = guessed = False
    for action in events:
        ok = True
        if action["type"] == "pickup":
            seat, pile = action["seat"], action.get("pile")
            ok = pile is None or seat not in most or pile <= most[seat] + 5
            ceiling = 15 + 5 * (ups[seat] + 1) - 5 * (right if seat == 3 else 0)
            ok = ok and (pile is None or pile <= ceiling)
        else:
            correct, after = action["correct"], action.get("pile_after")
            known = most.get(3)
            if not may_guess or guessed:
                ok = False
            elif known is not None and after is not None:
                ok = after <= (max(0, known - 5) if correct else known)
            if ok and not correct and after == 0:
                ok = False  # a wrong guess cannot empty a pile
            ceiling = max(0, 15 + 5 * ups[3] - 5 * (right + correct))
            ok = ok and (after is None or after <= ceiling)
        try:
            new = ct.apply(state, action)
        except CompanionError:
            assert not ok, action
            continue
        assert ok, action
        state = new
        if action["type"] == "pickup":
            seat = action["seat"]
            ups[seat] += 1
            told.pop(seat, None)
            if action.get("pile") is not None:
                told[seat] = most[seat] = action["pile"]
            elif seat in most:
                most[seat] += 5
            may_guess = may_guess or action.get("law") == "Sevens"
            continue
        may_guess = False
        guessed = guessed or action["correct"]
        right += action["correct"]
        known = most.get(3)
        told.pop(3, None)
        if action.get("pile_after") is not None:
            told[3] = most[3] = action["pile_after"]
        elif known is not None and action["correct"]:
            most[3] = max(0, known - 5)
        empties = action.get("pile_after") == 0 or (
            action["correct"] and known is not None and known <= 5)
        assert (state.phase == ct.NEW_LAW) is empties
        if empties:
            assert state.results[-1] == ct.RoundResult(2, 3, 2, "guess")
            break
        assert dict(state.piles) == told


@st.composite
def counted_runs(draw):
    """One seat's round: pick-ups and correct guesses, each counted or not (Bob picks
    up, Cara was out of the room for "Sevens"; each pick-up is because of it)."""
    seat = draw(st.sampled_from([2, 3]))
    events = []
    for _ in range(draw(st.integers(1, 12))):
        count = draw(st.one_of(st.none(), st.integers(0, 30)))
        if seat == 3 and draw(st.booleans()):
            events.append(pickup(1, law_name="Sevens"))
            events.append(guess(3, "Sevens", draw(st.booleans()), pile_after=count))
        else:
            events.append(pickup(seat, law_name="Sevens", pile=count))
    return seat, events


@settings(deadline=None, max_examples=300)
@given(counted_runs())
def test_no_accepted_count_exceeds_the_last_count_and_what_came_since(run):
    """Whatever goes uncounted in between, every count the engine accepts is at most the
    last count accepted for that pile, plus five for each of its pick-ups since, less
    five for each of its correct guesses since (never below none)."""
    seat, events = run
    state = play(LAW_1)
    last = None  # (count, pick-ups since, correct guesses since)
    for action in events:
        try:
            state = ct.apply(state, action)
        except CompanionError:
            continue
        if state.phase != ct.PLAYING:
            break
        if action["type"] == "pickup" and action["seat"] != seat:
            continue
        count = action.get("pile", action.get("pile_after"))
        if count is not None:
            if last is not None:
                told, up, right = last
                add = 5 if action["type"] == "pickup" else -5 * action["correct"]
                assert count <= max(0, told + 5 * up - 5 * right + add), (last, action)
            last = (count, 0, 0)
        elif last is not None:
            told, up, right = last
            if action["type"] == "pickup":
                last = (told, up + 1, right)
            elif action["correct"]:
                last = (told, up, right + 1)
