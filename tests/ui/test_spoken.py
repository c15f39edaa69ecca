"""Every spoken line, checked as a sentence (no audio): names, numbers, and each event
of each game walked through its real rules engine."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from samples import ASYLUM

from companion.games import get_rules
from companion.slap.verdict import decide, false_alarm
from companion.speech.lines import INFO, URGENT, VERDICT
from companion.timer import NS_PER_S
from companion.ui.presenters import spoken as sp
from companion.ui.presenters.spoken_games import action_line
from companion.ui.presenters.timer import CLOCK, TimerBoard

MS = 1_000_000


def said(kind: str, setup: dict, *actions: dict) -> list[str | None]:
    """The line (text) after each action, through the game's real engine."""
    rules = get_rules(kind)
    state, out = rules.initial(setup), []
    for action in actions:
        after = rules.apply(state, action)
        line = action_line(rules, state, action, after)
        out.append(None if line is None else line.text)
        state = after
    return out


def players(*names):
    return [{"name": n, "seat": i + 1} for i, n in enumerate(names)]


# -- words and names ---------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "words"), [
    (0, "zero"), (7, "seven"), (13, "thirteen"), (20, "twenty"), (23, "twenty-three"),
    (99, "ninety-nine"), (100, "one hundred"), (105, "one hundred and five"),
    (200, "two hundred"), (-3, "minus three"), (1234, "1234"),
])
def test_number_words(n, words):
    assert sp.number_words(n) == words


@pytest.mark.parametrize(("typed", "spoken"), [
    ("Dan", "Dan"),
    ("  Ann   Marie ", "Ann Marie"),
    ("[b]Dan[/b]", "Dan"),
    ("<i>Cara</i>", "Cara"),
    ("Bob 🎲🔥", "Bob"),
    ("👩‍👩‍👧", ""),
    ("DAN", "Dan"),
    ("DJ Ann", "DJ Ann"),
    ("xX_killer_Xx", "xX killer Xx"),
    ("Zoé", "Zoé"),
    ("Anne-Sophie", "Anne-Sophie"),
    ("O'Neill", "O'Neill"),
    ("Maximilian Alexander von Hohenberg-Wittelsbach the Third", "Maximilian Alexander"),
    ("A" * 60, "A" + "a" * 19),
    ("-v de --stdout", "v de stdout"),
    (None, ""),
])
def test_speakable_names(typed, spoken):
    assert sp.speakable(typed) == spoken


@given(st.text(max_size=200))
def test_any_typed_name_is_short_and_free_of_markup(name):
    out = sp.speakable(name)
    assert len(out) <= sp.MAX_NAME
    assert not set(out) & set("[]<>_*#|\\/\n\t")
    assert out == out.strip()


def test_seat_numbers_only_when_no_name_and_lookalikes_get_their_seat():
    names = sp.spoken_names([{"name": "Ann", "seat": 1}, {"name": "🎲", "seat": 2},
                             {"name": "Ann 🙂", "seat": 3}, {"name": "Bob", "seat": 4}])
    assert names == {1: "Ann at seat 1", 2: "seat 2", 3: "Ann at seat 3", 4: "Bob"}
    assert sp.spoken_names({5: "Eve"}) == {5: "Eve"}


# -- the slap pad ------------------------------------------------------------------------------


NAMES = {1: "Ann", 2: "Bob", 3: "Cara", 4: "Dan"}


def verdict(slaps_ms: dict[int, float], seats=(1, 2, 3, 4), bound_ms: float = 2.0):
    return decide({s: round(ms * MS) for s, ms in slaps_ms.items()}, seats,
                  round(bound_ms * MS), "gpio")


def test_slap_verdicts_in_words():
    clear = verdict({1: 0, 2: 40, 3: 90, 4: 180})
    assert sp.slap_line(clear, NAMES).text == "Dan picks up."
    close = verdict({1: 0, 2: 40, 3: 179, 4: 180})
    line = sp.slap_line(close, NAMES)
    assert line.text == "Too close between Cara and Dan: the table decides."
    assert line.tone and line.priority == VERDICT and line.short == "The table decides."
    alarm = sp.slap_line(false_alarm(verdict({1: 0, 3: 90})), NAMES)
    assert alarm.text == "False alarm: Cara picks up."
    never = verdict({1: 0, 2: 40})
    assert sp.slap_line(never, NAMES).text == "Cara and Dan never slapped: the table decides."
    assert sp.slap_line(verdict({1: 0, 2: 40, 3: 50}), NAMES).text == "Dan picks up."
    assert sp.slap_line(verdict({}), NAMES).text == "Nobody slapped: the table decides."
    held = decide({1: 0, 2: 40 * MS}, (1, 2, 3), 2 * MS, "gpio", excluded={3: "chatter"})
    assert sp.slap_line(held, NAMES).text == "Cara could not be timed: the table decides."
    assert sp.slap_line(verdict({4: 0, 1: 30, 2: 60, 3: 90}), {}).text == "Seat 3 picks up."


def test_eight_players_with_long_names_still_give_one_short_line():
    seats = tuple(range(1, 9))
    names = sp.spoken_names([{"name": f"{'Bartholomew' * 5}{s} 🎉", "seat": s}
                             for s in seats])
    for v in (verdict({s: 100 + s * 0.1 for s in seats}, seats),  # all too close
              verdict({1: 0}, seats),  # seven never slapped
              verdict({s: s * 50 for s in seats}, seats)):
        line = sp.slap_line(v, names)
        assert len(line.text) <= 70, line.text
    assert sp.slap_line(verdict({s: 100 + s * 0.1 for s in seats}, seats), names).text == \
        "Too close between eight players: the table decides."


# -- the timer ---------------------------------------------------------------------------------


def test_choice_timer_says_ten_seconds_then_reveal_or_times_up():
    board = TimerBoard.fresh((1, 2)).preset(60 * NS_PER_S).start(0)
    warned, _ = board.poll(50 * NS_PER_S)
    line = sp.timer_line(board, warned, {})
    assert line.text == "Ten seconds." and line.priority == URGENT
    assert sp.timer_line(warned, warned, {}) is None
    expired, _ = warned.poll(60 * NS_PER_S)
    assert sp.timer_line(warned, expired, {}).text == "Time's up: reveal!"
    ready, _ = board.press(1, NS_PER_S)
    done, _ = ready.press(2, 2 * NS_PER_S)
    assert sp.timer_line(ready, done, {}).text == "Reveal!"
    short = TimerBoard.fresh((1, 2)).preset(15 * NS_PER_S).start(0)
    assert sp.timer_line(short, short.poll(11 * NS_PER_S)[0], {}).text == "Five seconds."


def test_a_game_clock_flag_names_the_player():
    board = TimerBoard.fresh((1, 2)).set_mode(CLOCK).start(0)
    bank = board.clock.banks_ns[0]
    flagged, _ = board.poll(bank + 1)
    line = sp.timer_line(board, flagged, {1: "Ann", 2: "Bob"})
    assert line.text == "Ann's time is up." and line.tone
    assert sp.timer_line(board, flagged, {}).text == "Seat 1's time is up."


def test_the_captain_die_tool():
    assert sp.die_line(2).text == "Two: two time units."
    assert sp.die_line(1).text == "One: one time unit."
    assert sp.die_line(6, red=True).text == "Six plus two for red: five time units."


# -- each game's events -------------------------------------------------------------------------


def test_time_stories_die_cost_turns_deaths_returns_and_the_run():
    travel = [{"type": "travel", "die": d} for d in (2, 4, 1)]
    lines = said("time_stories", ASYLUM, *travel, {"type": "stay"},
                 {"type": "travel", "die": 6, "red": True},
                 {"type": "damage", "character": "Marie", "amount": 2, "reason": "a fall"},
                 *[{"type": "stay"}] * 8,
                 {"type": "damage", "character": "Madeleine", "amount": 3, "reason": "a bite"})
    assert lines[:5] == [
        "Two: twenty-three time units left.",
        "Four: twenty-one time units left.",
        "One: twenty time units left.",
        "Another turn: nineteen time units left.",
        "Six plus two: fourteen time units left.",
    ]
    assert lines[5] == "Marie is dead, back at seven time units."
    assert lines[6] == "Another turn: thirteen time units left."
    assert lines[12] == "Another turn: seven time units left. Marie is back."
    assert lines[14] == ("Madeleine is dead, gone for this run.")


def test_time_stories_run_failed_and_mission_accomplished():
    setup = dict(ASYLUM, starting_tu=3)
    lines = said("time_stories", setup, {"type": "travel", "die": 6},
                 {"type": "start_run", "starting_tu": 25},
                 {"type": "end_run", "outcome": "successful", "reason": "solved"})
    assert lines == ["Six: no time units left. Time is up: the run has failed.",
                     "Run two starts with twenty-five time units.",
                     "Mission accomplished!"]
    both = said("time_stories", ASYLUM,
                {"type": "damage", "character": "Marie", "amount": 2, "reason": "x"},
                {"type": "damage", "character": "Madeleine", "amount": 3, "reason": "y"})
    assert both[1] == ("Madeleine is dead, back at eighteen time units. "
                       "Every character is dead: the run has failed.")


def test_crazy_time_rounds_and_the_grand_master():
    setup = {"players": players("Ann", "Bob", "[color=ff0000]Cara[/color]", "Dan")}
    laws = [{"type": "new_law", "name": f"Law {n}", "when": "w", "what": "x",
             "creator": 3, "absent": n} for n in (1, 2, 4)]
    actions = [{"type": "pickup", "seat": 2, "reason": "temporal_flaw"}]
    for law in laws:
        actions += [{"type": "round_won", "seat": 3}, law]
    actions.append({"type": "round_won", "seat": 3})
    lines = said("crazy_time", setup, *actions)
    assert lines[0] is None  # the pick-up itself (a slap's verdict is said by the pad)
    assert lines[1] == "Cara wins round one."
    assert lines[2] is None
    assert lines[-1] == "Cara wins round four and is Grand Master of Time!"


def test_times_round_scored_and_the_winner():
    setup = {"players": players("Ann", "Bob"), "target": 5}
    lines = said("times", setup,
                 {"type": "override", "seat": 2, "hand": 1, "reason": "counted"},
                 {"type": "override", "seat": 2, "hand": 1, "score": 4, "reason": "recount"})
    assert lines[0] == "Round one scored: Bob leads with three points."
    assert lines[1] == "Bob wins the game!"


def test_professor_tempus_count_and_winner():
    from companion.games import professor_tempus as pt

    state = pt.initial({"players": players("Arthur", "Mickael")})
    deck = list(reversed(pt.all_cards()))
    rules = get_rules("professor_tempus")
    lines = []
    while state.phase != "over":
        while state.phase == "play":
            seat = state.players[state.turn].seat
            free = [h for h, s in enumerate(state.holders) if s is None]
            c = deck.pop()
            card = {"colour": c.colour, "value": c.value}
            if free:
                action = {"type": "open_series", "seat": seat, "holder": free[0],
                          "direction": "+", "card": card}
            else:
                theirs = [h for h, s in enumerate(state.holders) if s.owner != seat] or [0]
                action = {"type": "tuck", "seat": seat, "holder": theirs[0], "card": card}
            after = rules.apply(state, action)
            assert action_line(rules, state, action, after) is None
            state = after
        score = {"type": "score_round", "hourglasses": {"1": 2, "2": 1}}
        after = rules.apply(state, score)
        lines.append(action_line(rules, state, score, after).text)
        state = after
    assert lines[0] == "Round one counted: Arthur leads with two hourglasses."
    assert lines[1] == "Round two counted: Arthur leads with four hourglasses."
    assert lines[-1] == f"Arthur wins with {sp.number_words(2 * len(lines))} hourglasses!"


def test_time_after_time_win_and_tie():
    setup = {"players": players("Chloé", "LUCAS")}
    row = [7, 9, 11, 13, 14, 16, 22]
    # a complete row first asks whether a ghost is still in hand (issue 15): the answer wins
    lines = said("time_after_time", setup,
                 *[{"type": "place", "seat": 2, "slot": i, "hour": h} for i, h in enumerate(row)],
                 {"type": "ghost_answer", "seat": 2, "holds_ghost": False})
    # the complete row is asked about ghosts first, privately: nothing is said until then
    assert lines[:-1] == [None] * 7 and lines[-1] == "Lucas wins!"
    tie = said("time_after_time", setup, {"type": "draw_pile", "count": 21},
               {"type": "hand_empty", "seat": 1})
    assert tie == [None, "The cards have run out: the game is a tie."]


def test_score_pad_winner():
    lines = said("scorepad", {"players": players("Ann", "Bob", "Cy")},
                 {"type": "score", "seat": 2, "points": 12},
                 {"type": "score", "seat": 3, "points": 12}, {"type": "finish"})
    assert lines == [None, None, "Bob and Cy win with twelve points!"]


def test_each_engine_says_its_own_lines_after_its_own_actions():
    """The lines are the engines' (``spoken``): each speaking engine names the action
    types it speaks after, and the games that speak are the ones that did before."""
    from companion.games import known

    speaking = {k for k in known() if getattr(get_rules(k), "spoken", None) is not None}
    assert speaking == {"time_stories", "crazy_time", "times", "professor_tempus",
                        "time_after_time", "scorepad"}
    for kind in speaking:
        after = get_rules(kind).SPOKEN_AFTER
        assert after and all(isinstance(t, str) for t in after)
    assert {line.priority for line in (sp.die_line(1),)} <= {INFO, VERDICT, URGENT}
