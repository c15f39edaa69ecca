"""The shell's screens (Home, History, Players, Settings, the slap pad tool, the banner)
in their states, walked by ``layout_check`` at 800x480, 1024x600 and 1280x720 with
20-letter names, and at sizes the layout was not drawn for (640x400, 1920x1080):
nothing cut or spilling over, no two buttons overlapping, every button inside the
window and (at 800x480) at least 64 px. Screenshots in tests/_artifacts/shell_*."""

from __future__ import annotations

import pytest
from layout_check import FOUR, SIZES, problems, size_id

pytestmark = pytest.mark.window

ODD = [(640, 400), (1920, 1080)]


@pytest.fixture(params=SIZES + ODD, ids=size_id)
def size(request, ui):
    with ui.sized(request.param) as shown:
        yield shown


def check(ui, size, name):
    """What shows on top is checked: the newest modal, or the whole window."""
    from companion.ui.modal import Modal

    ui.pump(3)
    ui.screenshot(f"shell_{name}_{size[0]}x{size[1]}")
    modals = [w for w in ui.app.layer.children if isinstance(w, Modal)]
    top = modals[0] if modals else ui.app.root
    found = problems(top, min_target=64 if size == (800, 480) else None)
    assert not found, "\n".join(found)


def _open_game(ui):
    """An open Crazy Time game of four 20-letter names, put aside: Home offers it."""
    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": FOUR})
    assert ui.app.act({"type": "pickup", "seat": 1, "reason": "temporal_flaw"})
    gid = ui.app.session.game_id
    ui.app.session = None
    ui.app.home()
    ui.pump()
    return gid


def test_home_with_an_open_game_and_a_banner(ui, size):
    gid = _open_game(ui)
    try:
        home = ui.app.sm.current_screen
        assert home.resume_id == gid
        check(ui, size, "home_resume")
        ui.app.say("Seat 2 is in play but has no name: type one, or tap Out if nobody "
                   "sits there.", error=True)
        check(ui, size, "home_banner")
        ui.app.clear_banner()
        home.show_open_games()
        check(ui, size, "home_open_games")
        home.close_open_games()
    finally:
        ui.app.abandon_game(gid)


def test_history_with_many_games_a_sheet_and_a_question(ui, size):
    ui.goto_home()
    for i in range(12):
        assert ui.app.start_game("scorepad", {"players": FOUR})
        ui.app.act({"type": "score", "seat": 1 + i % 4, "points": 3 + i})
        ui.app.end_game(ask=False)
    ui.app.navigate("history")
    ui.pump()
    screen = ui.app.sm.current_screen
    check(ui, size, "history")
    screen.show_sheet(screen.summaries()[0])
    check(ui, size, "history_sheet")
    screen.ask_delete(screen.summaries()[0])
    check(ui, size, "history_delete")
    ui.app._close_question()


def test_players_with_long_emoji_and_markup_names_from_an_old_log(ui, size):
    odd = ["Maximiliana Konstantinopolous-Wetherby of Lower Saxony Old12",
           "Zoë 🎲 Ünal", "[b]Bold[/b] [color=ff0000]Red", "Ann"]
    assert len(odd[0]) == 60
    ui.goto_home()
    gid = ui.app.log.new_game("scorepad", {"players": [{"name": n, "seat": i + 1}
                                                       for i, n in enumerate(odd)]})
    ui.app.log.finish(gid, "abandoned")
    ui.app.choose_game("scorepad")
    ui.pump()
    screen = ui.app.sm.current_screen
    # nothing lost: each name as the old log holds it, whole in its field
    assert [screen.rows[s].name_input.text for s in (1, 2, 3, 4)] == odd
    check(ui, size, "players_odd_names")
    ui.tap(ui.find("Start"))
    assert ui.app.sm.current == "players"  # the 60-letter name is refused in a sentence
    assert "too long" in ui.app.banner_text
    ui.app.clear_banner()
    ui.app.log.delete_game(gid)


def test_settings(ui, size):
    ui.goto_home()
    ui.app.navigate("settings")
    check(ui, size, "settings")


def test_the_slap_pad_tool(ui, size, request):
    if size == (640, 400):
        request.applymarker(pytest.mark.xfail(strict=True, reason=(
            "the STOP TIME face and the seat chips need more than 400 px: the slap "
            "tool's layout is not yet made for a screen lower than 480")))
    ui.open_slap_tool((1, 2, 3, 4, 5))
    check(ui, size, "slap_tool")


def test_the_slap_pad_tool_with_named_rounds(ui, size, monkeypatch, request):
    """The last rounds listed with tonight's 20-letter names (the round and why, the
    name under it): every row whole."""
    if size == (640, 400):
        request.applymarker(pytest.mark.xfail(strict=True, reason=(
            "the slap tool's layout is not yet made for a screen lower than 480")))
    from companion.ui import slap_sessions

    names = {p["seat"]: p["name"] for p in FOUR}
    monkeypatch.setattr(slap_sessions, "last_names", lambda app: names)
    screen = ui.open_slap_tool((1, 2, 3, 4))
    for _ in range(5):
        ui.slap_round(screen, (4, 1, 2, 3))
        if screen.round.shown.candidates:  # a verdict the pad cannot be sure of: the table's call
            screen.choose(screen.round.shown.candidates[0])
        ui.tap(screen.buttons[2])  # Record
    from companion.ui.screens.slap_widgets import RoundRow

    rows = [w for w in screen.ids.side.walk() if isinstance(w, RoundRow)]
    try:
        assert len(rows) == 5 and all(row.who in names.values() for row in rows)
        check(ui, size, "slap_tool_named")
    finally:
        ui.goto_home()
        for game in ui.app.log.games("stop_time"):  # the next tests' pad names no one
            if game.status == "open":
                ui.app.log.finish(game.id, "abandoned")
