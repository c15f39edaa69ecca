"""A game's note in every way out of the box: BG Stats' comments (link and .bgsplay),
the HTML score sheet, the CSV, and the JSON Lines export, which brings it back into a
box unchanged (and a game noted after its export is still the same game)."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from longgames import KINDS, long_game

from companion.errors import LogError
from companion.export.bgstats import LINK_BASE, bgsplay, link, log_play, read_bgsplay
from companion.export.logfile import export_csv, export_jsonl, exported_ids, read_jsonl
from companion.export.restore import import_text
from companion.export.sheet import render_sheet
from companion.export.sheets import sheet_game
from companion.store.gamelog import NOTE_CHARS, GameLog

SETUP = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 7, 19, tzinfo=UTC)

    def __call__(self) -> str:
        self.now += timedelta(seconds=1)
        return self.now.isoformat(timespec="milliseconds")


def scored(log: GameLog, note: str = "") -> int:
    gid = log.new_game("scorepad", SETUP)
    log.append(gid, {"type": "score", "seat": 1, "points": 2})
    log.append(gid, {"type": "score", "seat": 2, "points": 5})
    log.finish(gid)
    if note:
        log.set_note(gid, note)
    return gid


@pytest.fixture
def log(tmp_path):
    out = GameLog(tmp_path / "g.sqlite3", clock=Clock())
    yield out
    out.close()


@pytest.mark.parametrize("note", ["Bo's first win!", "Ann & Bo <3 \"the box\"", "é ü 😀"])
def test_the_note_is_in_bg_stats_comments_link_and_file(log, note):
    gid = scored(log, note)
    play = log_play(log, gid)
    assert play.comments.endswith(note.rstrip(".") + ".")
    data = json.loads(unquote(link(play)[len(LINK_BASE):]))
    assert note in data["comments"]
    (back,) = read_bgsplay(bgsplay([play]))
    assert note in back["comments"]


def test_a_game_without_a_note_has_the_comments_it_had(log):
    gid = scored(log)
    before = log_play(log, gid)
    log.set_note(gid, "later")
    log.set_note(gid, "")
    assert log_play(log, gid) == before


def test_a_note_changes_the_comments_never_the_play_id(log):
    gid = scored(log)
    before = log_play(log, gid)
    log.set_note(gid, "added after the scan")
    after = log_play(log, gid)
    assert after.play_id == before.play_id  # BG Stats recognises the second scan
    assert after.comments != before.comments


def test_the_note_is_on_the_html_sheet_escaped(log):
    gid = scored(log, "Ann <b>cheated</b> & won")
    html = render_sheet(sheet_game(log, gid))
    assert '<p class="note">Note: Ann &lt;b&gt;cheated&lt;/b&gt; &amp; won</p>' in html
    assert 'class="note"' not in render_sheet(sheet_game(log, scored(log)))


def test_the_note_is_a_column_of_the_csv(log):
    noted, plain = scored(log, "played outside"), scored(log)
    rows = list(csv.DictReader(io.StringIO(export_csv(log, [noted, plain]))))
    assert {r["note"] for r in rows if r["game"] == str(noted)} == {"played outside"}
    assert {r["note"] for r in rows if r["game"] == str(plain)} == {""}


def test_the_json_lines_header_has_the_note_only_when_there_is_one(log):
    noted, plain = scored(log, "rainy night"), scored(log)
    headers = [json.loads(line) for line in export_jsonl(log, [noted, plain]).splitlines()
               if '"format"' in line]
    assert headers[0]["note"] == "rainy night"
    assert "note" not in headers[1] and "note" not in headers[0]["setup"]


notes_st = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60).map(
    lambda t: " ".join(t.split()))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(games=st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 12),
                                st.sampled_from(["open", "finished", "abandoned"]), notes_st),
                      min_size=1, max_size=4))
def test_export_import_export_keeps_every_note(tmp_path_factory, games):
    folder = tmp_path_factory.mktemp("notes")
    old = GameLog(folder / "old.sqlite3", clock=Clock())
    for kind, n, status, note in games:
        setup, actions = long_game(kind, n)
        gid = old.new_game(kind, setup)
        for action in actions:
            old.append(gid, action)
        if status != "open":
            old.finish(gid, status)
        old.set_note(gid, note)
    text = export_jsonl(old, exported_ids(old))
    new = GameLog(folder / "new.sqlite3")
    assert import_text(new, text, "games.jsonl").known == []
    assert export_jsonl(new, exported_ids(new)) == text
    assert [g.note for g in new.games()] == [note for *_, note in games]
    old.close()
    new.close()


def test_a_game_noted_after_its_export_is_recognised_and_keeps_its_new_note(tmp_path):
    box = GameLog(tmp_path / "box.sqlite3", clock=Clock())
    gid = scored(box)
    text = export_jsonl(box, [gid])
    box.set_note(gid, "noted after the export")
    report = import_text(box, text, "games.jsonl")
    assert report.added == [] and report.known == [gid]
    assert box.game(gid).note == "noted after the export"
    box.close()


@pytest.mark.parametrize("note, words", [
    (12, "note: a game's note is text"),
    ("x" * (NOTE_CHARS + 1), "note: a game's note holds at most"),
])
def test_a_bad_note_in_a_file_is_refused_with_its_line(log, note, words):
    text = export_jsonl(log, [scored(log)])
    lines = text.splitlines()
    header = json.loads(lines[0])
    header["note"] = note
    bad = "\n".join([json.dumps(header), *lines[1:]]) + "\n"
    with pytest.raises(LogError, match=f"games.jsonl:1: the game's {words}"):
        read_jsonl(bad, "games.jsonl")
    before = [g.id for g in log.games()]
    with pytest.raises(LogError, match="games.jsonl:1"):
        import_text(log, bad, "games.jsonl")
    assert [g.id for g in log.games()] == before


def test_a_file_of_an_older_box_without_notes_reads_as_before(log):
    text = export_jsonl(log, [scored(log)])
    assert '"note"' not in text
    (game,) = read_jsonl(text, "old.jsonl")
    assert game.note == ""
