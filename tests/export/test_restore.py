"""Games back into a box from its own export: export, new box, import, export gives the
same file; a second import doubles nothing; a bad file changes nothing and says where."""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from longgames import KINDS, long_game

from companion.cli import main
from companion.errors import LogError
from companion.export.bgstats import bgsplay, log_play
from companion.export.logfile import export_jsonl, exported_ids
from companion.export.restore import import_file, import_text
from companion.store.gamelog import GameLog


class Clock:
    """The log's clock, a second a tick from a given start (no real time read)."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> str:
        self.now += timedelta(seconds=1)
        return self.now.isoformat(timespec="milliseconds")


def record(path: Path, games, start=datetime(2026, 3, 7, 19, tzinfo=UTC)) -> GameLog:
    """A log holding ``games``: (kind, number of actions, status)."""
    log = GameLog(path, clock=Clock(start))
    for kind, n, status in games:
        setup, actions = long_game(kind, n)
        gid = log.new_game(kind, setup)
        for action in actions:
            log.append(gid, action)
        if status != "open":
            log.finish(gid, status)
    return log


def everything(log: GameLog) -> list:
    """All the log holds, rows as stored (to see that nothing changed)."""
    return [log.db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
            for t in ("games", "actions", "players", "summaries")]


games_st = st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 25),
                              st.sampled_from(["open", "finished", "abandoned"])),
                    min_size=1, max_size=5)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games=games_st, deleted=st.integers(0, 5))
def test_export_import_export_is_the_same_file_and_a_second_import_adds_nothing(
        games, deleted):
    with tempfile.TemporaryDirectory() as tmp:
        old = record(Path(tmp) / "old.sqlite3", games)
        if len(games) > 1 and deleted < len(games):  # a deleted game is not exported
            old.delete_game(deleted + 1)
        text = export_jsonl(old, exported_ids(old))
        new = GameLog(Path(tmp) / "new.sqlite3")
        report = import_text(new, text, "games.jsonl")
        assert report.known == []
        assert export_jsonl(new, exported_ids(new)) == text
        assert [g.id for g in new.games()] == exported_ids(old)
        before = everything(new)
        again = import_text(new, text, "games.jsonl")
        assert again.added == [] and len(again.known) == len(report.added)
        assert everything(new) == before
        home = import_text(old, text, "games.jsonl")  # the box it came from has them all
        assert home.added == []
        for gid in exported_ids(new):  # a restored game is the same BG Stats play
            if old.game(gid).status == "finished" and old.game(gid).kind != "stop_time":
                assert log_play(new, gid) == log_play(old, gid)
        old.close()
        new.close()


def test_a_second_box_gets_the_games_it_lacks_under_free_numbers(tmp_path):
    first = record(tmp_path / "a.sqlite3", [("scorepad", 5, "finished"),
                                            ("times", 8, "finished")])
    second = record(tmp_path / "b.sqlite3", [("crazy_time", 6, "finished")],
                    start=datetime(2026, 3, 8, 19, tzinfo=UTC))
    mine = everything(second)
    report = import_text(second, export_jsonl(first, exported_ids(first)), "a.jsonl")
    assert report.added == [2, 3]  # game 1 is this box's own Crazy Time
    assert report.sentence() == "a.jsonl: added 2 game(s) (#2-#3)."
    assert [r.kind for r in second.games()] == ["crazy_time", "scorepad", "times"]
    after = everything(second)
    assert all(set(rows) <= set(now) for rows, now in zip(mine, after, strict=True))
    assert second.action_rows(3) == first.action_rows(2)  # times and all, checksums good
    summaries = second.summaries([2, 3])
    assert set(summaries) == {2, 3}  # History need not replay them


@pytest.fixture
def box(tmp_path):
    log = record(tmp_path / "box.sqlite3", [("scorepad", 4, "finished")])
    yield log
    log.close()


@pytest.fixture
def exported(tmp_path):
    log = record(tmp_path / "other.sqlite3", [("times", 6, "finished"),
                                              ("professor_tempus", 9, "open")],
                 start=datetime(2026, 4, 1, 20, tzinfo=UTC))
    text = export_jsonl(log, exported_ids(log))
    log.close()
    return text


def _lines(text: str) -> list[str]:
    return text.splitlines()


@pytest.mark.parametrize(("spoil", "words"), [
    (lambda ls: ls[:7], None),  # cut between two games: whole games, one of them new
    (lambda ls: ls[:9], "other.jsonl:8: game 2 has 9 actions by its header but 1 in the "
     "file: the file is cut off"),
    (lambda ls: ls[:6] + ls[7:], "other.jsonl:1: game 1 has 6 actions by its header but 5"),
    (lambda ls: ls[:3], "other.jsonl:1: game 1 has 6 actions by its header but 2"),
    (lambda ls: ls[:3] + ['{"seq": 3, "at": "2026-04-01T20:00:09.000+00:00", "act'],
     "other.jsonl:4: not JSON"),
    (lambda ls: [ls[0].replace('"times"', '"monopoly"')] + ls[1:],
     "other.jsonl:1: unknown game kind 'monopoly'"),
    (lambda ls: ls[:2] + [ls[2].replace('"at": "2026', '"at": "20x6')] + ls[3:],
     "other.jsonl:3: the action has no valid time"),
    (lambda ls: ls[:1] + [json.dumps({"seq": 1, "at": "2026-04-01T20:00:02.000+00:00",
                                      "action": {"type": "score", "seat": 9}})] + ls[2:],
     "other.jsonl:2: action 'score' is refused"),
    (lambda ls: [ls[0].replace('"finished"', '"won"')] + ls[1:],
     "other.jsonl:1: game status 'won'"),
    (lambda ls: ["game,kind,started_at"] + ls, "other.jsonl:1: not a game log exported"),
])
def test_a_bad_file_is_refused_naming_the_line_and_nothing_changes(box, exported, spoil,
                                                                    words):
    before = everything(box)
    text = "\n".join(spoil(_lines(exported))) + "\n"
    if words is None:  # a file cut between two games still holds whole, checked games
        report = import_text(box, text, "other.jsonl")
        assert len(report.added) == 1
        return
    with pytest.raises(LogError) as err:
        import_text(box, text, "other.jsonl")
    assert words in str(err.value)
    assert everything(box) == before


def test_a_bg_stats_play_file_is_refused_as_what_it_is(box, tmp_path):
    plays = bgsplay([log_play(box, 1)])
    path = tmp_path / "night.bgsplay"
    path.write_text(plays, encoding="utf-8")
    before = everything(box)
    with pytest.raises(LogError, match="night.bgsplay: a BG Stats play file"):
        import_file(box, path)
    assert everything(box) == before


def test_import_from_the_command_line(tmp_path, exported, capsys):
    source = tmp_path / "other.jsonl"
    source.write_text(exported, encoding="utf-8")
    data = tmp_path / "box"
    assert main(["import", str(source), "--data-dir", str(data)]) == 0
    assert "other.jsonl: added 2 game(s) (#1-#2)." in capsys.readouterr().err
    assert main(["import", str(source), "--data-dir", str(data)]) == 0
    assert "nothing new; its 2 game(s) were already here" in capsys.readouterr().err
    source.write_text(exported[: len(exported) // 2 + 7], encoding="utf-8")
    assert main(["import", str(source), "--data-dir", str(data)]) == 2
    err = capsys.readouterr().err
    assert "other.jsonl:" in err and "nothing was imported" in err
    assert main(["import", str(tmp_path / "gone.jsonl"), "--data-dir", str(data)]) == 2
    assert "gone.jsonl: cannot read" in capsys.readouterr().err


def test_import_refuses_another_users_log(tmp_path, exported, capsys, monkeypatch):
    import os

    source = tmp_path / "other.jsonl"
    source.write_text(exported, encoding="utf-8")
    data = tmp_path / "box"
    data.mkdir()
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(data).st_uid + 1)
    assert main(["import", str(source), "--data-dir", str(data)]) == 2
    err = capsys.readouterr().err
    assert f"{data} belongs to the user" in err and "nothing was imported" in err
    assert list(data.iterdir()) == []  # no log made


def test_a_bad_file_makes_no_log_on_a_new_box(tmp_path, capsys):
    source = tmp_path / "notes.txt"
    source.write_text("shopping: milk\n", encoding="utf-8")
    data = tmp_path / "box"
    assert main(["import", str(source), "--data-dir", str(data)]) == 2
    assert "notes.txt:1: not a game log exported by a table companion" in \
        capsys.readouterr().err
    assert not data.exists()
