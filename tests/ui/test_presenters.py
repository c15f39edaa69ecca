"""Presenters for the home and player-setup screens, tested without Kivy."""

from __future__ import annotations

from datetime import UTC, datetime

from companion.store.gamelog import GameRow
from companion.ui.presenters.home import resume_offer
from companion.ui.presenters.players import SeatRow, default_rows, setup_from_rows


def row(seat, name="", in_play=True):
    return SeatRow(seat, "orange", name, in_play)


def test_resume_offer_names_game_players_and_time():
    now = datetime.now(UTC).isoformat()
    game = GameRow(3, "crazy_time", {"players": [{"name": "Ann", "seat": 1},
                                                 {"name": "Bo", "seat": 2},
                                                 {"name": "Cy", "seat": 3}]}, now, None, "open", 4)
    offer = resume_offer([game])
    assert offer.game_id == 3
    assert offer.text.startswith("Resume Crazy Time with Ann, Bo and Cy, started today ")
    assert resume_offer([]) is None
    slap_log = GameRow(4, "stop_time", game.setup, now, None, "open", 9)
    assert resume_offer([slap_log]) is None  # a tool's running log is not offered


def test_setup_from_rows_checks_the_player_count_for_the_game():
    rows = [row(1, "Ann"), row(2, "Bo"), row(3, "", in_play=False)]
    setup, why = setup_from_rows("crazy_time", rows)
    assert setup is None and "4 to 7 players; 2 seats" in why
    setup, why = setup_from_rows("times", rows)
    assert why == "" and setup == {"players": [{"name": "Ann", "seat": 1},
                                               {"name": "Bo", "seat": 2}]}


def test_blank_names_are_refused_in_a_sentence_and_duplicates_keep_their_case():
    setup, why = setup_from_rows("scorepad", [row(1), row(2, "Bo")])
    assert setup is None
    assert why == "Seat 1 is in play but has no name: type one, or tap Out if nobody sits there."
    setup, why = setup_from_rows("scorepad", [row(1, "Bo"), row(2, "bo")])
    assert setup is None and "Seats 1 and 2 are both called bo" in why
    setup, why = setup_from_rows("scorepad", [row(1, "McKay"), row(2, "MCKAY")])
    assert "MCKAY" in why  # the name as typed, never lower-cased
    setup, _ = setup_from_rows("scorepad", [row(1, "  Ann   Lee "), row(2, "Bo")])
    assert setup["players"][0]["name"] == "Ann Lee"


def test_resume_offers_the_game_played_last_not_the_one_started_last():
    setup = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}
    old = GameRow(1, "time_stories", setup, "2026-01-01T19:00:00+00:00", None, "open", 9,
                  last_at="2026-01-02T22:30:00+00:00")
    new = GameRow(2, "scorepad", setup, "2026-01-02T20:00:00+00:00", None, "open", 1,
                  last_at="2026-01-02T20:01:00+00:00")
    offer = resume_offer([new, old])
    assert offer.game_id == 1
    assert offer.text.startswith("Resume T.I.M.E Stories with Ann and Bo, last played ")
    assert offer.text.endswith("(1 more open)")


def test_default_rows_remember_who_sat_where(config):
    rows = default_rows(config, [("Ann", 6), ("Bo", 1)])
    by_seat = {r.seat: r for r in rows}
    assert by_seat[6].name == "Ann" and by_seat[6].in_play
    assert by_seat[1].name == "Bo"
    assert not by_seat[8].in_play


def test_a_resume_offer_of_long_names_among_open_games_keeps_to_its_length():
    # four 20-letter names with two other games open: the names are counted, then the
    # count of open games goes (the "Open games" button says it), then the moment
    from companion.ui.presenters.home import RESUME_CHARS

    long_names = ["Anne-Sophie Lefebvre", "Bartholomew Jamesons", "Carolina Wilhelmsens",
                  "Dominik Maximilianus"]
    setup = {"players": [{"name": n, "seat": i + 1} for i, n in enumerate(long_names)]}
    games = [GameRow(n, "crazy_time", setup, "2026-01-02T20:00:00+00:00", None, "open", 3,
                     last_at=f"2026-01-02T2{n}:00:00+00:00") for n in (1, 2, 3)]
    offer = resume_offer(games)
    assert len(offer.text) <= RESUME_CHARS, offer.text
    assert offer.text.startswith("Resume Crazy Time with Anne-Sophie Lefebvre and 3 more")
    assert offer.game_id == 3
