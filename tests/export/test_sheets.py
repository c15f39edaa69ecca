"""Score sheets without a venue: `companion export --format html`, the USB stick flow,
and what a sheet shows (players, winner, rounds, the slap timeline, TU burn-down)."""

from __future__ import annotations

import pytest
from simtable import SimTable

from companion.cli import main
from companion.export import usb
from companion.export.sheet import render_sheet
from companion.export.sheets import sheet_game, write_sheets


@pytest.fixture
def table(data_dir):
    t = SimTable(data_dir, None, "0a0a0a0a", games=3, actions=6, seed=5)
    while t.step() is not None:
        pass
    yield t
    t.log.close()


def test_export_html_writes_one_sheet_per_game_and_an_index(table, tmp_path, capsys):
    out = tmp_path / "sheets"
    assert main(["export", "--format", "html", "-o", str(out)]) == 0
    assert "wrote 3 score sheet(s)" in capsys.readouterr().err
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == 4 and "index.html" in files
    slap = next(out.glob("*stop-time.html")).read_text()
    assert "<svg" in slap and "Slap timeline" in slap and "<script" not in slap
    score = next(out.glob("*game-0001-scorepad.html")).read_text()
    assert "Won by" in score and "<h2>Rounds</h2>" in score
    (tmp_path / "file").write_text("x")
    assert main(["export", "--format", "html", "-o", str(tmp_path / "file")]) == 2
    assert "is a file" in capsys.readouterr().err


def test_a_sheet_escapes_what_players_typed(game_log):
    from companion.games import get_rules
    from companion.session import GameSession

    game = GameSession.start(game_log, get_rules("scorepad"), {"players": [
        {"name": "<b>Ann</b>", "seat": 1}, {"name": "Bo & Co", "seat": 2}]})
    game.do({"type": "score", "seat": 1, "points": 3})
    game.do({"type": "finish"})
    game.finish()
    html = render_sheet(sheet_game(game_log, game.game_id, table="Table <3>"))
    assert "<b>Ann" not in html and "&lt;b&gt;Ann&lt;/b&gt;" in html
    assert "Bo &amp; Co" in html and "Table &lt;3&gt;" in html


def test_a_time_stories_sheet_draws_the_burn_down(game_log):
    from samples import ASYLUM

    from companion.games import get_rules
    from companion.session import GameSession

    game = GameSession.start(game_log, get_rules("time_stories"), ASYLUM)
    html = render_sheet(sheet_game(game_log, game.game_id))
    assert "Time units left, run 1 (burn-down)" in html and "<polyline" in html


def mounts_file(tmp_path, *lines, name="mounts"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def test_sticks_are_read_from_the_mount_table(tmp_path):
    root = str(tmp_path / "media") + "/"
    m = mounts_file(tmp_path, "proc /proc proc rw 0 0",
                    f"/dev/sda1 {root}pi/MY\\040STICK vfat rw,nosuid 0 0",
                    f"/dev/sdb1 {root}pi/LOCKED vfat ro,nosuid 0 0",
                    f"tmpfs {root}pi/ram tmpfs rw 0 0")
    assert usb.sticks(m, (root,)) == [tmp_path / "media" / "pi" / "MY STICK"]
    assert usb.sticks(tmp_path / "nothing", (root,)) == []


def test_copy_sheets_to_the_stick_or_say_why_not(table, tmp_path):
    root = tmp_path / "media"
    stick = root / "KINGSTON"
    stick.mkdir(parents=True)
    m = mounts_file(tmp_path, f"/dev/sda1 {stick} vfat rw 0 0")
    none = mounts_file(tmp_path, "proc /proc proc rw 0 0", name="none")
    assert usb.copy_sheets(table.log, none, (f"{root}/",)).startswith("No USB stick found")
    text = usb.copy_sheets(table.log, m, (f"{root}/",), today="2026-11-30")
    assert text.startswith("Wrote 3 score sheets to KINGSTON, folder table-companion")
    folder = stick / "table-companion" / "score-sheets-2026-11-30"
    assert len(list(folder.glob("*.html"))) == 4 and not list(folder.glob("*.part"))
    (stick / "table-companion").rename(stick / "old")
    (stick / "table-companion").write_text("a file where the folder goes")
    text = usb.copy_sheets(table.log, m, (f"{root}/",), today="2026-11-30")
    assert text.startswith("Could not write to the USB stick KINGSTON")
    assert "nothing on the box changed" in text


def test_a_game_that_does_not_replay_is_named_and_the_others_written(table, tmp_path):
    table.log.db.execute("UPDATE actions SET action = '{\"type\": \"nonsense\"}' "
                         "WHERE game_id = 1 AND seq = 1")
    written, problems = write_sheets(table.log, [1, 2, 3], tmp_path / "out")
    assert len(written) == 2 and problems[0].startswith("game 1:")


def test_a_chart_line_labelled_by_a_seat_is_drawn_in_its_colour_under_its_name():
    from companion.export.sheet import _picture
    from companion.games.base import LineChart, RoundsTable

    track = LineChart("The scoring track, round by round", "round", "points",
                      ((1, ((0, 0), (1, 3))), (2, ((0, 0), (1, 1)))))
    svg = _picture(track, {1: "#e69f00", 2: "#56b4e9"}, {1: "Ann", 2: "Bo"})
    assert 'stroke="#e69f00"' in svg and ">Ann</text>" in svg and ">Bo</text>" in svg
    assert "The scoring track, round by round" in svg
    table = _picture(RoundsTable("Rounds", (1, 2), ({1: 3}, {2: 5})), {}, {1: "Ann", 2: "Bo"})
    assert "<th>Ann</th><th>Bo</th>" in table and '<td class="num">5</td>' in table
    with pytest.raises(TypeError, match="cannot draw str"):
        _picture("a pie", {}, {})


def test_a_full_disk_mid_export_leaves_no_partial_folder_and_says_so(table, tmp_path,
                                                                      capsys, monkeypatch):
    import os

    from companion.export import logfile  # where the sheets' atomic write renames

    calls = []

    def replace(src, dst):
        calls.append(dst)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        os.rename(src, dst)

    monkeypatch.setattr(logfile.os, "replace", replace)
    out = tmp_path / "sheets"
    assert main(["export", "--format", "html", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err
    assert "the 2 sheet(s) written before were removed" in err and "removed again" in err
    assert not out.exists()
    assert not list(tmp_path.glob("**/*.part*")) and not list(tmp_path.glob("**/.*.part*"))


def test_a_crazy_time_sheet_has_no_empty_score_column_and_numbers_slaps_by_game_round():
    """Crazy Time keeps no points: its sheet shows no score column left blank, but the
    pick-ups per player and round; its slap timeline names each slap by the game's round
    (a 4-round game has no 'round 9')."""
    import re

    from companion.export.sheet import SheetGame
    from companion.slap.verdict import decide

    ms = 1_000_000
    seats = (1, 2, 3, 4)

    def slap(last):
        times = {s: (400 if s == last else 10 * s) * ms for s in seats}
        verdict = decide(times, seats, ms, "mock")
        return {"type": "pickup", "seat": last, "reason": "slap", "law": "Synchronisation",
                "verdict": verdict.to_facts()}

    actions = [slap(2), slap(3), {"type": "round_won", "seat": 1},
               {"type": "new_law", "name": "Sevens", "when": "a seven", "what": "bonjour",
                "creator": 1, "absent": 4},
               slap(4)]
    setup = {"players": [{"name": n, "seat": i + 1}
                         for i, n in enumerate(["Ann", "Bob", "Cy", "Di"])]}
    html = render_sheet(SheetGame("crazy_time", setup,
                                  [{"seq": i + 1, "at": "2026-12-03T20:00:00", "action": a}
                                   for i, a in enumerate(actions)],
                                  "2026-12-03T20:00:00", status="open"))
    assert '<td class="num"></td>' not in html
    players = html.split('<table class="players">')[1].split("</table>")[0]
    assert "<th>score</th>" not in players
    labels = re.findall(r'font-size="12">(round[^<]*)</text>', html)
    assert labels == ["round 1, slap 1", "round 1, slap 2", "round 2, slap 1"]
    assert "Pick-ups per player, round by round" in html
    pickups = html.split("Pick-ups per player, round by round")[1].split("</table>")[0]
    assert ('<tr><td>1</td><td class="num">0</td><td class="num">1</td>'
            '<td class="num">1</td><td class="num">0</td></tr>') in pickups
