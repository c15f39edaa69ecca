"""A finished game as a BG Stats play: per game (cooperative or ranked, scores or none,
T.I.M.E Stories' BGG id, the slap pad never), the createPlay link, and the .bgsplay
file checked against its JSON Schema with ``jsonschema``."""

from __future__ import annotations

import json
from datetime import UTC
from urllib.parse import unquote

import jsonschema
import pytest

from companion.cli import main
from companion.errors import LogError
from companion.export.bgstats import (
    LINK_BASE,
    SCHEMA,
    NotExported,
    bgsplay,
    link,
    log_play,
    payload,
    play_id,
    play_of,
    read_bgsplay,
)
from companion.games import get_rules
from companion.games.base import Outcome
from companion.games.replay import final
from companion.store.gamelog import GameLog

START, END = "2026-03-07T19:30:00.000+00:00", "2026-03-07T20:41:40.000+00:00"
NAMES = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus"]


class Engine:
    """An engine's face as ``play_of`` sees it, answering with a fixed outcome (so each
    game's mapping is checked by itself, whatever it takes to end one)."""

    def __init__(self, outcome: Outcome, snapshot: dict | None = None) -> None:
        self._outcome, self._snapshot = outcome, snapshot or {}

    def outcome(self, _state):
        return self._outcome

    def snapshot(self, _state, recent=None):
        return self._snapshot


def seats(n: int):
    return tuple((i + 1, NAMES[i]) for i in range(n))


# kind, setup extras, outcome, expected (game fields, per player: score, rank, winner, start)
CASES = [
    ("professor_tempus", {"first_seat": 2},
     Outcome(seats(3), "Final count done", winners=(1,), scores={1: 45, 2: 15, 3: 7}),
     {"noPoints": False, "highestWins": True},
     [(45, 1, True, False), (15, 2, False, True), (7, 3, False, False)]),
    ("crazy_time", {"first_dealer": 1},
     Outcome(seats(4), "Grand Master", winners=(3,)),
     {"noPoints": True, "highestWins": True},
     [(None, 2, False, True), (None, 2, False, False), (None, 1, True, False),
      (None, 2, False, False)]),
    ("time_stories", {},
     Outcome(seats(2), "Mission complete in run 2, 4 TU left", winners=(1, 2)),
     {"noPoints": True, "bggId": 146508},
     [(None, 0, True, False), (None, 0, True, False)]),
    ("time_stories", {},
     Outcome(seats(3), "Run 3: 9 TU left"),
     {"noPoints": True, "bggId": 146508},
     [(None, 0, False, False)] * 3),
    ("times", {},
     Outcome(seats(3), "Round 5", winners=(2,), scores={1: 20, 2: 31, 3: 20}),
     {"noPoints": False, "highestWins": True},
     [(20, 2, False, False), (31, 1, True, False), (20, 2, False, False)]),
    ("time_after_time", {},
     Outcome(seats(2), "Bob completed a row", winners=(2,)),
     {"noPoints": True},
     [(None, 2, False, False), (None, 1, True, False)]),
    ("scorepad", {},  # a game of fewest points: the winner has the lowest score
     Outcome(seats(3), "Finished", winners=(3,), scores={1: 12, 2: 30, 3: 4}),
     {"noPoints": False, "highestWins": False},
     [(12, 2, False, False), (30, 3, False, False), (4, 1, True, False)]),
]


@pytest.mark.parametrize(("kind", "extra", "outcome", "game", "players"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_game_is_the_play_bg_stats_expects(kind, extra, outcome, game, players):
    setup = {"players": [{"name": n, "seat": s} for s, n in outcome.players], **extra}
    play = play_of(kind, setup, START, END, Engine(outcome), None, tz=UTC)
    data = payload(play)
    assert data["sourceName"] == "Table Companion"
    assert data["sourcePlayId"] == play_id(kind, START, setup)
    assert data["playDate"] == "2026-03-07 19:30:00"
    assert data["durationMin"] == 72  # 71 min 40 s
    assert data["comments"].startswith(outcome.status)
    assert data["game"]["sourceGameId"] == kind and data["game"]["usesTeams"] is False
    for field, value in game.items():
        assert data["game"][field] == value, field
    if "bggId" not in game:  # only T.I.M.E Stories' id is confirmed: none is guessed
        assert "bggId" not in data["game"]
    got = [(p.get("score"), p["rank"], p["winner"], p["startPlayer"]) for p in data["players"]]
    assert got == players
    assert [p["name"] for p in data["players"]] == [n for _s, n in outcome.players]


def test_the_slap_pad_tool_is_never_a_play():
    outcome = Outcome(seats(2), "3 slap rounds", reactions={1: (12.0,)})
    with pytest.raises(NotExported):
        play_of("stop_time", {"players": []}, START, END, Engine(outcome), None)


def test_a_real_time_stories_game_tells_its_runs_and_time_units():
    from longgames import long_game

    setup, actions = long_game("time_stories", 60)
    rules = get_rules("time_stories")
    state = final(rules, rules.initial(setup), actions)
    snap = rules.snapshot(state)
    play = play_of("time_stories", setup, START, END, rules, state, tz=UTC)
    assert play.bgg_id == 146508 and play.cooperative and play.no_points
    assert len(snap["runs"]) >= 2
    for run in snap["runs"]:
        assert f"Run {run['number']}: " in play.comments
    assert "Run 1: time ran out, 25 TU used of 25" in play.comments
    left = snap["tu"]
    assert f"{snap['starting_tu'] - left} TU used of {snap['starting_tu']}" in play.comments


def test_the_link_carries_the_payload_and_a_seven_player_play_stays_under_2_kb():
    outcome = Outcome(seats(7), "Grand Master", winners=(5,))
    setup = {"players": [{"name": n, "seat": s} for s, n in outcome.players]}
    play = play_of("crazy_time", setup, START, END, Engine(outcome), None, tz=UTC)
    url = link(play)
    assert url.startswith(LINK_BASE)
    assert json.loads(unquote(url[len(LINK_BASE):])) == payload(play)
    assert len(url) < 2000


def _plays():
    out = []
    for kind, extra, outcome, _game, _players in CASES:
        setup = {"players": [{"name": n, "seat": s} for s, n in outcome.players], **extra}
        out.append(play_of(kind, setup, START, END, Engine(outcome), None, tz=UTC))
    return out


def test_the_play_file_meets_its_schema_and_reads_back():
    plays = _plays()
    text = bgsplay(plays)
    data = json.loads(text)
    jsonschema.validate(data, SCHEMA)
    assert len(data["games"]) == len({p.kind for p in plays})  # each game listed once
    assert len(data["players"]) == 4  # Ann..Dee across all plays, each once
    assert all(isinstance(s["score"], str) for p in data["plays"] for s in p["playerScores"])
    back = read_bgsplay(text)
    for play, read in zip(plays, back, strict=True):
        assert read["sourcePlayId"] == play.play_id
        assert read["game"]["name"] == play.title
        assert [p["name"] for p in read["players"]] == [p.name for p in play.players]
        assert [p["score"] for p in read["players"]] == [
            "" if p.score is None else str(p.score) for p in play.players]
        assert [p["winner"] for p in read["players"]] == [p.winner for p in play.players]
    assert bgsplay(plays) == text  # uuids and ids are stable: the same file twice


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.pop("plays"), "'plays' is a required property"),
    (lambda d: d["plays"][0]["playerScores"][0].update(score=3), "is not of type 'string'"),
    (lambda d: d["games"][0].update(bggId="x"), "is not of type 'integer'"),
    (lambda d: d["plays"][0].update(playDate="7 March"), "does not match"),
    (lambda d: d["plays"][0].update(gameRefId=99), "names game 99"),
    (lambda d: d["plays"][0]["playerScores"][0].update(playerRefId=99), "names player 99"),
])
def test_a_broken_play_file_is_refused_saying_what_is_wrong(change, words):
    data = json.loads(bgsplay(_plays()))
    change(data)
    with pytest.raises(LogError, match="night.bgsplay") as err:
        read_bgsplay(json.dumps(data), "night.bgsplay")
    assert words in str(err.value)


def test_export_bgsplay_from_the_command_line(tmp_path, capsys):
    log = GameLog(tmp_path / "games.sqlite3")
    setup = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}
    done = log.new_game("scorepad", setup)
    for action in ({"type": "score", "seat": 2, "points": 4}, {"type": "finish"}):
        log.append(done, action)
    log.finish(done)
    log.new_game("scorepad", setup)  # open: not a play yet
    slap = log.new_game("stop_time", setup)
    log.finish(slap)
    expected = log_play(log, done)
    log.close()
    out = tmp_path / "night.bgsplay"
    assert main(["export", "--data-dir", str(tmp_path), "--format", "bgsplay",
                 "-o", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(data, SCHEMA)
    assert [p["sourcePlayId"] for p in data["plays"]] == [expected.play_id]
    assert "wrote 1 game(s)" in capsys.readouterr().err
    assert main(["export", "--data-dir", str(tmp_path), "--format", "bgstats",
                 "--game", str(slap)]) == 2
    assert "Slap pad is not a game BG Stats logs" in capsys.readouterr().err


def test_only_the_confirmed_bgg_id_is_declared():
    from companion.games import get_rules, known

    declared = {k: get_rules(k).GAME.bgg_id for k in known() if get_rules(k).GAME.bgg_id}
    assert declared == {"time_stories": 146508}
