"""Export to JSON Lines and CSV, and replay of exported logs (including broken ones)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from companion.cli import main
from companion.errors import LogError
from companion.export.logfile import export_csv, export_jsonl, read_jsonl, replay_game
from companion.games import get_rules
from companion.session import GameSession

SETUP = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}


@pytest.fixture
def played(game_log):
    game = GameSession.start(game_log, get_rules("scorepad"), SETUP)
    for seat, points in [(1, 3), (2, 5), (1, 1)]:
        game.do({"type": "score", "seat": seat, "points": points})
    return game


def test_jsonl_round_trip_replays_to_the_same_state(game_log, played):
    text = export_jsonl(game_log, [played.game_id])
    lines = [json.loads(x) for x in text.splitlines()]
    assert lines[0]["format"] == "table-companion-log" and lines[0]["version"] == 1
    assert [x["seq"] for x in lines[1:]] == [1, 2, 3]
    (game,) = read_jsonl(text)
    _, state = replay_game(game)
    assert state == played.state


def test_csv_has_one_row_per_action(game_log, played):
    rows = list(csv.DictReader(io.StringIO(export_csv(game_log, [played.game_id]))))
    assert [r["type"] for r in rows] == ["score"] * 3
    assert json.loads(rows[1]["action"]) == {"type": "score", "seat": 2, "points": 5}


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda ls: ls[:1] + ["{not json"] + ls[2:], "f.jsonl:2: not JSON"),
        (lambda ls: ls[1:], "f.jsonl:1: an action before any game header"),
        (lambda ls: [ls[0].replace('"version": 1', '"version": 9')] + ls[1:],
         "f.jsonl:1: log version 9"),
        (lambda ls: ls[:2] + ls[3:], "f.jsonl:3: action seq 3, expected 2"),
        (lambda ls: ls[:1] + ['{"seq": 1, "action": {"type": "score", "seat": 9, "points": 1}}'],
         "f.jsonl:2: action 'score' is refused: Nobody plays at seat 9 in this game"),
        (lambda ls: ls[:1] + ['{"seq": 1, "action": [1]}'], "f.jsonl:2: an action line needs"),
        (lambda ls: [], "f.jsonl: no game in this file"),
        (lambda ls: ls[:1] + ['{"seq": 1, "action": {"type": "score", "points": 1' + "0" * 5000
                              + '}}'], "f.jsonl:2: not JSON this companion can read"),
        (lambda ls: ls[:1] + ["[" * 100_000 + "]" * 100_000],
         "f.jsonl:2: not JSON this companion can read"),
        (lambda ls: [ls[0].replace('"kind": "scorepad"', '"kind": ["scorepad"]')] + ls[1:],
         "f.jsonl:1: unknown game kind"),
        (lambda ls: [ls[0].replace('"version": 1', '"version": true')] + ls[1:],
         "f.jsonl:1: log version True"),
        (lambda ls: ls[:1] + [ls[1].replace('"seq": 1', '"seq": true')] + ls[2:],
         "f.jsonl:2: action seq True, expected 1"),
        (lambda ls: [ls[0].replace('"seat": 2', '"seat": 1')] + ls[1:],
         "f.jsonl:1: the game's setup is refused"),
    ],
)
def test_malformed_log_names_line_and_reason(game_log, played, mangle, message):
    lines = export_jsonl(game_log, [played.game_id]).splitlines()
    with pytest.raises(LogError) as err:
        for game in read_jsonl("\n".join(mangle(lines)), "f.jsonl"):
            replay_game(game, "f.jsonl")
    assert message in str(err.value)


def test_cli_export_and_replay(tmp_path, data_dir, capsys):
    from companion.paths import log_path
    from companion.store.gamelog import GameLog

    log = GameLog(log_path())
    game = GameSession.start(log, get_rules("scorepad"), SETUP)
    game.do({"type": "score", "seat": 2, "points": 7})
    log.close()
    out = tmp_path / "night.jsonl"
    assert main(["export", "--format", "jsonl", "-o", str(out)]) == 0
    assert main(["replay", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["state"]["totals"] == {"1": 0, "2": 7}
    bad = tmp_path / "bad.jsonl"
    bad.write_text(out.read_text().replace('"points": 7', '"points": "seven"'))
    assert main(["replay", str(bad)]) == 2
    assert f"{bad}:2:" in capsys.readouterr().err


def test_replay_of_an_endless_or_huge_file_is_a_message(tmp_path, capsys):
    assert main(["replay", "/dev/zero"]) == 2
    assert "/dev/zero: larger than 32 MB" in capsys.readouterr().err
    long_line = tmp_path / "long.jsonl"
    long_line.write_text('{"format": "' + "x" * 2_000_000 + '"}\n')
    assert main(["replay", str(long_line)]) == 2
    assert f"{long_line}:1: a line of 2000014 characters" in capsys.readouterr().err


def test_replay_stops_when_it_takes_too_long(game_log, played):
    from companion.export.logfile import Deadline

    ticks = iter(range(0, 10_000, 7))  # an injected clock: 7 s per look at it
    deadline = Deadline(seconds=20, clock=lambda: next(ticks))
    (game,) = read_jsonl(export_jsonl(game_log, [played.game_id]), "f.jsonl")
    with pytest.raises(LogError, match=r"f.jsonl:4: replay stopped after 20 s"):
        replay_game(game, "f.jsonl", deadline)


def test_a_long_value_in_a_replay_message_is_cut(game_log, played):
    lines = export_jsonl(game_log, [played.game_id]).splitlines()
    lines[0] = lines[0].replace('"kind": "scorepad"', '"kind": "' + "k" * 100_000 + '"')
    with pytest.raises(LogError) as err:
        read_jsonl("\n".join(lines), "f.jsonl")
    assert "unknown game kind 'kkkk" in str(err.value) and len(str(err.value)) < 300


def test_export_writes_the_whole_file_under_its_name_and_nothing_else(tmp_path, data_dir):
    from companion.paths import log_path
    from companion.store.gamelog import GameLog

    log = GameLog(log_path())
    GameSession.start(log, get_rules("scorepad"), SETUP).do(
        {"type": "score", "seat": 1, "points": 2})
    log.close()
    out = tmp_path / "out"
    out.mkdir()
    (out / "night.jsonl").write_text("an older export\n")
    assert main(["export", "-o", str(out / "night.jsonl")]) == 0
    assert [p.name for p in out.iterdir()] == ["night.jsonl"]
    assert (out / "night.jsonl").read_text().count("\n") == 2
    assert main(["export", "-o", "/dev/null"]) == 0  # not a regular file: written, not replaced
