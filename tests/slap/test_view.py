"""The Stop Time screen's view data, tested without Kivy."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from companion.games import stop_time as st
from companion.slap import view as sp
from companion.slap.arbiter import Notice
from companion.slap.verdict import decide, false_alarm

MS = 1_000_000
SEATS = (1, 2, 3, 4)
COLOURS = {1: "orange", 2: "sky", 3: "green", 4: "yellow"}


def verdict(slaps_ms, seats=SEATS, res=MS):
    return decide({s: round(t * MS) for s, t in slaps_ms.items()}, seats, res, "mock")


def view(phase, **kw):
    return sp.slap_view(phase, SEATS, COLOURS, **kw)


def test_idle_and_armed_say_what_to_do():
    v = view("idle", bound_ms=30)
    assert v.headline == "Tap STOP TIME to arm" and "captain" in v.detail
    assert "30 ms" in v.detail and "seat below" not in v.detail
    assert "Tap a seat below" in view("idle", choose_seats=True).detail
    assert not v.can_record and not v.choices
    v = view("armed")
    assert v.headline == "Armed: slap!" and v.marks == ()


def test_open_round_lists_the_slaps_in_order_whatever_order_they_arrived():
    t0 = 5_000 * MS
    v = view("armed", live=[(3, t0 + 50 * MS), (1, t0)])
    assert v.phase == "open" and v.headline == "2 of 4 slapped"
    assert [(m.seat, m.colour, m.label) for m in v.marks] == [(1, "orange", "0 ms"),
                                                              (3, "green", "+50.0 ms")]


def test_clear_verdict_names_the_last_slapper_in_their_colour():
    v = view("verdict", verdict=verdict({1: 0, 2: 40, 3: 95, 4: 180}))
    assert v.headline == "Seat 4 picks up"
    assert (v.headline_seat, v.headline_colour) == (4, "yellow")
    assert "+180.0 ms" in v.detail and v.can_record and v.can_false_alarm and not v.choices


def test_timeline_is_scaled_to_the_slowest_slap_with_ticks():
    v = view("verdict", verdict=verdict({1: 0, 2: 45, 3: 90, 4: 180}))
    assert [m.x for m in v.marks] == [0.0, 0.25, 0.5, 1.0]
    assert [m.delay_ms for m in v.marks] == [0.0, 45.0, 90.0, 180.0]
    assert v.span_ms == 180.0
    assert v.ticks[0] == (0.0, "0 ms") and v.ticks[-1][1] == "150 ms"
    assert all(0 <= x <= 1 for x, _ in v.ticks)


R = 22  # the disc's radius on the 800x480 screen
LABEL = 100  # "+309.4 ms" at 20 px, about


def spans(marks, places):
    """The room each labelled mark takes on its row, in pixels."""
    out = {}
    for (x, w), p in zip(marks, places, strict=True):
        lo, hi = x - R, x + R
        if p.labelled:
            lo, hi = (lo - 4 - w, hi) if p.label_left else (lo, hi + 4 + w)
        out.setdefault(p.row, []).append((lo, hi))
    return out


PACKS = [
    # (case, (x, label width) in px, rows, the rows, labelled)
    ("far apart: one row", [(40, LABEL), (300, LABEL)], 3, [0, 0], [True, True]),
    ("0, 309 and 632 ms on a 450 px axis: the last label goes left, a row up",
     [(40, LABEL), (40 + 450 * 309 / 632, LABEL), (490, LABEL)], 3, [0, 0, 1],
     [True, True, True]),
    ("two within a disc of each other: the second a row up", [(100, LABEL), (120, LABEL)],
     3, [0, 1], [True, True]),
    ("crowded, one row only: the discs that fit, labels dropped where none fit",
     [(40, LABEL), (60, LABEL), (80, LABEL)], 1, [0, 0, 0], [True, False, False]),
]


@pytest.mark.parametrize("case,marks,rows,want_rows,labelled", PACKS,
                         ids=[p[0] for p in PACKS])
def test_pack_keeps_labels_and_discs_apart(case, marks, rows, want_rows, labelled):
    from companion.slap.view import pack

    places = pack(marks, R, 500, rows)
    assert [p.row for p in places] == want_rows, case
    assert [p.labelled for p in places] == labelled, case


@given(hs.lists(hs.floats(0, 1), min_size=1, max_size=8),
       hs.lists(hs.integers(40, 140), min_size=8, max_size=8), hs.integers(1, 3))
def test_pack_never_lets_a_label_meet_another_labelled_mark(xs, widths, rows):
    """Labelled marks on a row never meet: neither their discs nor their labels (a
    mark left without a label, when the picture is too crowded, may)."""
    from companion.slap.view import pack

    marks = [(34 + x * 430, w) for x, w in zip(sorted(xs), widths, strict=False)]
    places = pack(marks, R, 500, rows)
    for row, room in spans(marks, places).items():
        labelled = sorted(span for span, p in zip(room, [
            p for p in places if p.row == row], strict=True) if p.labelled)
        for a, b in zip(labelled, labelled[1:], strict=False):
            assert a[1] < b[0], (row, labelled)
        assert all(hi <= 500 for _lo, hi in labelled)


def test_too_close_asks_the_table_with_one_button_per_candidate():
    verd = verdict({1: 0, 2: 40, 3: 95.0, 4: 95.4})
    v = view("verdict", verdict=verd)
    assert v.headline == "Too close to call: seat 3 or seat 4 — tap who picks up"
    assert [c.seat for c in v.choices] == [3, 4] and not v.can_record
    assert v.headline_seat is None
    v = view("verdict", verdict=verd, chosen=4)
    assert v.headline == "Seat 4 picks up" and v.detail == "The table's call."
    assert v.can_record and sp.decision(verd, 4) == (4, "table")
    assert sp.decision(verd, 2) is None  # not a candidate


def test_several_non_slappers():
    verd = verdict({1: 0, 2: 30})
    v = view("verdict", verdict=verd)
    assert v.headline == "Seat 3 and seat 4 never slapped — tap who picks up"
    assert [c.seat for c in v.non_slappers] == [3, 4]
    one = view("verdict", verdict=verdict({1: 0, 2: 30, 3: 50}))
    assert one.headline == "Seat 4 picks up" and one.detail == "Never slapped."


def test_a_seat_not_timed_is_named_with_why_and_the_table_decides():
    held = decide({1: 0, 2: 30 * MS}, (1, 2, 3), MS, "gpio", excluded={3: "held"})
    v = view("verdict", verdict=held)
    assert v.headline == "Seat 3 could not be timed — tap who picks up"
    assert v.detail == "Seat 3: button already held down."
    assert [c.seat for c in v.choices] == [2, 3] and not v.can_record
    assert sp.decision(held, 3) == (3, "table")


def test_false_alarm_takes_the_last_slapper():
    fa = false_alarm(verdict({1: 0, 2: 30}))
    v = view("verdict", verdict=fa)
    assert v.headline == "False alarm: Seat 2 picks up" and v.headline_colour == "sky"
    assert not v.can_false_alarm and v.non_slappers == ()
    assert sp.decision(fa, None) == (2, "false_alarm")
    close = false_alarm(verdict({1: 0, 2: 0.5}))
    v = view("verdict", verdict=close)
    assert v.headline.startswith("Too close to call: seat 1 or seat 2")
    assert sp.decision(close, 1) == (1, "false_alarm")


def test_notices_become_sentences_and_noise_is_left_out():
    notes = [Notice("bounce", 1, 0, "Seat 1: contact bounce ignored"),
             Notice("false_slap", 2, 0, "Seat 2: false slap (nothing armed)"),
             Notice("slap", 3, 0, "Seat 3: slap at +0.000 ms"),
             Notice("stuck", 4, 0, "Seat 4: button held down for over 1.5 s")]
    assert sp.notice_lines(notes) == ["Seat 2: false slap (nothing armed).",
                                      "Seat 4: button held down for over 1.5 s."]


def test_recorded_rounds_read_back_newest_first():
    state = st.initial({"players": [{"name": f"Seat {s}", "seat": s} for s in SEATS]})
    clear = verdict({1: 0, 2: 40, 3: 95, 4: 180})
    close = verdict({1: 0, 2: 40, 3: 95.0, 4: 95.4})
    for v, picker, how in ((clear, 4, "verdict"), (close, 3, "table"),
                           (false_alarm(verdict({1: 0, 2: 30})), 2, "false_alarm")):
        state = st.apply(state, {"type": "slap_round", "verdict": v.to_facts(),
                                 "picker": picker, "decision": how})
    lines = sp.rounds_from_stop_time(st.snapshot(state))
    assert [x.text for x in lines] == ["Round 3: seat 2 (false alarm)",
                                       "Round 2: seat 3 (table's call)",
                                       "Round 1: seat 4 (+180.0 ms)"]
    assert (lines[0].picker, lines[0].how) == (2, "false alarm")
    shown = sp.slap_view("idle", SEATS, COLOURS, rounds=lines * 3).rounds
    assert len(shown) == sp.LAST_ROUNDS


def test_crazy_time_slap_pickups_read_back():
    clear, alarm = verdict({1: 0, 2: 40, 3: 95, 4: 180}), false_alarm(verdict({3: 30, 1: 0}))
    snap = {"pickups": [  # as the engine's snapshot gives them
        {"round": 1, "seat": 4, "reason": "slap", "verdict": clear.to_facts(),
         "decision": "verdict", "delays": [list(d) for d in clear.delays_ms]},
        {"round": 1, "seat": 2, "reason": "temporal_flaw", "verdict": None},
        {"round": 1, "seat": 3, "reason": "false_slap", "verdict": alarm.to_facts(),
         "decision": "verdict", "delays": [list(d) for d in alarm.delays_ms]},
    ]}
    # numbered by slap round, not by the game's round (both slaps are in its round 1)
    lines = sp.rounds_from_crazy_time(snap)
    assert [x.text for x in lines] == ["Slap 2: seat 3 (false alarm)",
                                       "Slap 1: seat 4 (+180.0 ms)"]
    assert lines[0].text_for({3: "Cara"}) == "Slap 2: Cara (false alarm)"


def test_notices_and_chips_name_the_player():
    notes = [Notice("chatter", 4, None, "Seat 4's button is chattering (...): left out"),
             Notice("quiet", None, None, "The slap pad went quiet during the round: the "
                                         "table decides")]
    assert sp.notice_lines(notes, {4: "Dan"}) == [
        "Dan's button is chattering (...): left out.",
        "The slap pad went quiet during the round: the table decides."]
    v = view("verdict", verdict=verdict({1: 0, 2: 40, 3: 95.0, 4: 95.4}),
             names={3: "Cara", 4: "Dan"})
    assert [(c.seat, c.name) for c in v.choices] == [(3, "Cara"), (4, "Dan")]


def test_seats_left_out_are_named_with_why_where_the_verdict_is_read():
    verd = decide({1: 0, 2: 40 * MS}, SEATS, MS, "gpio+pad",
                  excluded={3: "quiet", 4: "held"})
    v = view("verdict", verdict=verd, names={3: "Cara", 4: "Dan", 2: "Bo"})
    assert v.headline == "Cara and Dan could not be timed — tap who picks up"
    assert v.detail == "Cara: its source went quiet; Dan: button already held down."
    assert not v.can_record and [c.seat for c in v.choices] == [2, 3, 4]
    assert sp.verdict_sentence(verd, {3: "Cara", 4: "Dan", 2: "Bo"}) == (
        "The table decides between Bo, Cara and Dan; not timed: Cara (its source went "
        "quiet), Dan (button already held down).")


def test_arbiter_config_from_milliseconds_and_phase_check():
    cfg = sp.arbiter_config(20, 2500, 1500.5)
    assert (cfg.holdoff_ns, cfg.timeout_ns, cfg.stuck_ns) == (20 * MS, 2500 * MS, 1_500_500_000)
    with pytest.raises(ValueError):
        view("waiting")
    assert sp.fmt_ms(0.4) == "+0.4 ms" and sp.fmt_ms(130.4) == "+130.4 ms"
    assert sp.fmt_ms(2500) == "+2500 ms"


def test_a_measured_pad_resolution_only_widens_the_bound():
    from companion.slap.arbiter import DEFAULT_RESOLUTION_NS
    from companion.slap.view import arbiter_config

    assert arbiter_config(20, 2500, 1500).bound_for("pad") == DEFAULT_RESOLUTION_NS["pad"]
    assert arbiter_config(20, 2500, 1500, 50_000).bound_for("pad") == DEFAULT_RESOLUTION_NS["pad"]
    assert arbiter_config(20, 2500, 1500, 400_000).bound_for("pad") == 400_000


def test_the_verdict_names_the_player_when_names_are_known():
    slaps = {s: 10 * s for s in SEATS}
    last = max(SEATS)
    assert view("verdict", verdict=verdict(slaps)).headline == f"Seat {last} picks up"
    named = view("verdict", verdict=verdict(slaps), names={last: "Bo"})
    assert named.headline == "Bo picks up"


def test_a_seat_not_timed_beside_a_real_tie_says_both():
    """Seat 4 chattered (left out); seats 2 and 3 were within the bound of each other:
    the headline names the tie too, not only the seat that could not be timed."""
    verd = decide({1: 0, 2: 95_000_000, 3: 95_400_000}, (1, 2, 3, 4), 1_000_000, "gpio",
                  excluded={4: "chatter"})
    v = view("verdict", verdict=verd)
    assert set(verd.candidates) == {2, 3, 4} and verd.too_close
    assert v.headline == ("Seat 4 could not be timed, seat 2 and seat 3 too close to call "
                          "— tap who picks up")
