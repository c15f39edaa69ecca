"""'Log in BG Stats' in the real window: the game-over button and History's sheet show a
QR code that ``zbarimg`` (Debian's zbar-tools) reads back, from a screenshot of the
800×480 window, as exactly the play's createPlay link."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from companion.export.bgstats import link, log_play

pytestmark = pytest.mark.window

SEVEN = ["Maximilienne", "Bartholomew", "Cara", "Dan", "Evangelina", "Fred", "Gwendolyn"]


def decoded(path) -> str:
    """The text of the one QR code in the PNG at ``path``, as zbarimg reads it."""
    zbarimg = shutil.which("zbarimg")
    assert zbarimg, "zbarimg is missing: deploy/system-packages.sh test installs zbar-tools"
    done = subprocess.run([zbarimg, "--raw", "-q", "-Sdisable", "-Sqrcode.enable",
                           str(path)], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, f"no QR code found in {path}: {done.stderr}"
    return done.stdout.rstrip("\n")


def play_seven(ui) -> int:
    ui.goto_home()
    ui.app.start_game("scorepad", {"players": [{"name": n, "seat": i + 1}
                                               for i, n in enumerate(SEVEN)]})
    for seat in range(1, 8):
        ui.app.act({"type": "score", "seat": seat, "points": 10 * seat + 3})
    ui.pump()
    assert ui.app.game_over_button.parent is None  # not over yet: no button
    ui.app.act({"type": "finish"})
    ui.pump()
    return ui.app.session.game_id


def test_game_over_shows_a_code_a_phone_reads_as_the_play(ui):
    gid = play_seven(ui)
    button = ui.app.game_over_button
    assert button.parent is ui.app.layer and button.opacity == 1 and not button.disabled
    ui.screenshot("bgstats-game-over-button")
    ui.tap(button)
    panel = ui.app.bgstats_panel
    assert panel is not None and panel.parent is not None
    expected = link(log_play(ui.app.log, gid))
    assert panel.url == expected
    assert 1500 < len(expected) < 2000  # seven long names: a code of about version 30
    assert panel.px == 3  # whole pixels per module, as large as 480 px allow
    path, _ = ui.screenshot("bgstats-game-over")
    assert decoded(path) == expected
    ui.tap(next(w for w in panel.walk() if getattr(w, "text", "") == "Close"))
    assert panel.parent is None  # closed: the game's screen is there again
    ui.app.end_game(ask=False)
    ui.pump()
    assert button.parent is None  # home: no game over on show, nothing takes taps there
    before = ui.app.muted
    ui.tap(ui.find("Sound"))  # where the button was, the home screen's own button answers
    assert ui.app.muted is not before
    ui.tap(ui.find("Sound"))


def test_a_finished_game_in_history_shows_the_same_code(ui):
    gid = play_seven(ui)
    expected = link(log_play(ui.app.log, gid))
    ui.app.end_game(ask=False)
    ui.app.navigate("history")
    ui.pump()
    screen = ui.app.sm.current_screen
    summary = next(g for g in screen.summaries() if g.game_id == gid)
    screen.show_sheet(summary)
    ui.pump()
    ui.tap(ui.find("BG Stats"))
    panel = ui.app.bgstats_panel
    assert panel is not None and panel.url == expected
    path, _ = ui.screenshot("bgstats-history")
    assert decoded(path) == expected
    ui.goto_home()
    assert panel.parent is None  # going home takes the code away


def test_an_unfinished_game_offers_no_code_in_history(ui):
    ui.goto_home()
    ui.app.start_game("scorepad", {"players": [{"name": "Ann", "seat": 1},
                                               {"name": "Bo", "seat": 2}]})
    ui.app.act({"type": "score", "seat": 1, "points": 2})
    gid = ui.app.session.game_id
    ui.app.navigate("history")
    ui.pump()
    screen = ui.app.sm.current_screen
    summary = next(g for g in screen.summaries() if g.game_id == gid)
    screen.show_sheet(summary)
    ui.pump()
    assert ui.find("BG Stats").disabled
    ui.goto_home()


def test_a_mission_complete_is_a_cooperative_play_of_time_stories(ui):
    import json
    from urllib.parse import unquote

    from samples import ASYLUM

    from companion.export.bgstats import LINK_BASE

    ui.goto_home()
    ui.app.start_game("time_stories", ASYLUM)
    ui.app.act({"type": "end_run", "outcome": "failed_time"})
    ui.app.act({"type": "start_run"})
    assert ui.app.game_over_button.parent is None  # a failed run is not the game's end
    ui.app.act({"type": "end_run", "outcome": "successful"})
    ui.pump()
    ui.tap(ui.app.game_over_button)
    path, _ = ui.screenshot("bgstats-time-stories")
    data = json.loads(unquote(decoded(path)[len(LINK_BASE):]))
    assert data["game"]["bggId"] == 146508 and data["game"]["noPoints"] is True
    assert [(p["name"], p["winner"], p["rank"]) for p in data["players"]] == [
        ("Ann", True, 0), ("Bea", True, 0)]
    assert "Run 1: time ran out" in data["comments"]
    assert "Run 2: mission complete" in data["comments"]
    ui.goto_home()
