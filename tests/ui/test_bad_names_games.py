"""Bad names on the game screens: 60 letters (the entry stops at 20, but a log or a
config can hold more), emoji and Kivy markup. Each game is started with them and played
a step at 800x480: the screen stays readable (nothing spills over its box, no two
buttons overlap, none leaves the window), a markup name changes no label (shown as
typed, brackets and all), and every name is there, whole or cut with an ellipsis where
a label says so: none is lost.
"""

from __future__ import annotations

import pytest
from layout_check import problems, shown

from tests.ui.times_steps import play_cards

pytestmark = pytest.mark.window

SIXTY = "Maximiliana Theodora Konstantinopoulou-Wittgenstein Bergstrm"
SIXTY = SIXTY[:60].ljust(60, "e")
BAD = [SIXTY, "Zoë 🎲⏳ Núñez", "[b]Bold[/b] Ann", "[color=ff0000]Red"]
assert len(BAD[0]) == 60
PLAYERS = [{"name": n, "seat": i + 1} for i, n in enumerate(BAD)]


def readable(ui, name):
    """The walk's faults that make a screen unreadable (spills, overlaps, outside);
    an ellipsis ("...") is a rule of the label that has it, not a fault here."""
    ui.pump(3)
    ui.screenshot(f"bad_names_{name}")
    found = [p for p in problems(ui.app.root, min_target=64)
             if "is cut with '...'" not in p]
    assert not found, "\n".join(found)


def names_on_screen(ui) -> str:
    """Every visible text of the screen as it reads (markup tags gone, escapes undone)."""
    from kivy.core.text.markup import MarkupLabel
    from kivy.uix.label import Label

    out = []
    for w in ui.app.sm.current_screen.walk(restrict=True):
        if isinstance(w, Label) and w.text and shown(w):
            if w.markup:
                core = MarkupLabel(text=w.text, font_size=20)
                core.refresh()
                out.append("".join(word.text for line in core._cached_lines
                                   for word in line.words))
            else:
                out.append(w.text)
    return "\n".join(out)


def no_name_lost(ui, names):
    text = names_on_screen(ui)
    for name in names:
        head = name[:8]
        assert head in text, f"{name!r} is not on screen"


@pytest.fixture
def small(ui):
    with ui.sized((800, 480)):
        yield


def test_times(ui, small):
    ui.goto_home()
    assert ui.app.start_game("times", {"players": PLAYERS, "target": 15}), ui.app.status
    screen = ui.app.sm.current_screen
    readable(ui, "times_play")
    play_cards(ui, screen)
    readable(ui, "times_turns")
    ui.app.end_game("abandoned", ask=False)


def test_professor_tempus(ui, small):
    ui.goto_home()
    assert ui.app.start_game("professor_tempus", {"players": PLAYERS[:3], "first_seat": 1})
    readable(ui, "professor_tempus")
    no_name_lost(ui, BAD[1:3])
    ui.app.end_game("abandoned", ask=False)


def test_crazy_time(ui, small):
    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": PLAYERS})
    for seat in (1, 2, 3, 4):
        assert ui.app.act({"type": "pickup", "seat": seat, "reason": "temporal_flaw"})
    readable(ui, "crazy_time")
    no_name_lost(ui, BAD[2:])  # the newest pick-ups in sight; the older ones scroll:
    rows = [row["text"] for row in ui.app.sm.current_screen.ids.pickups.data]
    assert all(any(name in text for text in rows) for name in BAD), rows
    ui.app.end_game("abandoned", ask=False)


def test_time_after_time(ui, small):
    ui.goto_home()
    assert ui.app.start_game("time_after_time", {"players": PLAYERS[:3]})
    readable(ui, "time_after_time")
    no_name_lost(ui, BAD[:3])
    ui.app.end_game("abandoned", ask=False)


def test_time_stories(ui, small):
    from samples import MADELEINE, MARIE

    ui.goto_home()
    setup = {"players": PLAYERS[:2], "mission": "[b]Asylum[/b] 🕰",
             "characters": [MARIE | {"name": SIXTY}, MADELEINE | {"name": "[b]Mad[/b] 🎩"}]}
    assert ui.app.start_game("time_stories", setup), ui.app.status
    screen = ui.app.sm.current_screen
    readable(ui, "time_stories")
    screen.open("characters")
    readable(ui, "time_stories_characters")
    no_name_lost(ui, [SIXTY, "[b]Mad[/b] 🎩"])
    ui.app.end_game("abandoned", ask=False)


def test_score_pad(ui, small):
    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": PLAYERS})
    readable(ui, "score_pad")
    no_name_lost(ui, BAD)
    ui.app.end_game("abandoned", ask=False)
