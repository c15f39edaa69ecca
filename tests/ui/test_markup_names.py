"""A name is shown as typed, brackets and all: markup in player names never changes a
label (a player called "[b]Ann" is not bold, "[color=ff0000]Bo" is not red)."""

from __future__ import annotations

import pytest

from companion.games import time_after_time as tat
from companion.ui.presenters import escape_markup
from companion.ui.presenters import time_after_time as tat_view

NAMES = ["[b]Ann", "Bo[/b] & [color=ff0000]Cy", "[size=80]D]["]


def shown(text: str) -> str:
    """What a markup label shows for text without tags: Kivy's three escapes undone. An
    escaped name has no bracket left, so no tag can start inside it."""
    assert "[" not in text and "]" not in text, text
    return text.replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")


def rendered(text: str) -> str:
    """What a Kivy markup label shows for ``text``: its words, without the tags (needs
    the window: Kivy's text provider)."""
    from kivy.core.text.markup import MarkupLabel

    label = MarkupLabel(text=text, markup=True, font_size=20)
    label.refresh()
    return "".join(word.text for line in label._cached_lines for word in line.words)


@pytest.mark.parametrize("name", NAMES + ["plain", "a&b", "&bl;"])
def test_the_presenters_escape_is_kivys(name):
    from kivy.utils import escape_markup as kivys

    assert escape_markup(name) == kivys(name)
    assert shown(escape_markup(name)) == name


def test_time_after_time_rows_show_names_as_typed():
    setup = {"players": [{"name": n, "seat": i + 1} for i, n in enumerate(NAMES[:2])]}
    rows = tat_view.rows(tat.initial(setup), tat_view.Pick())
    assert [shown(r["label"]) for r in rows] == NAMES[:2]


@pytest.mark.window
def test_the_score_pad_shows_bracketed_names_literally(ui):
    ui.goto_home()
    setup = {"players": [{"name": n, "seat": i + 1} for i, n in enumerate(NAMES)]}
    assert ui.app.start_game("scorepad", setup)
    ui.pump()
    from companion.ui.screens.game import ScoreRowView
    from companion.ui.widgets import FitLabel

    rows = sorted((w for w in ui.app.sm.current_screen.ids.box.children
                   if isinstance(w, ScoreRowView)), key=lambda w: -w.y)
    labels = [[w for w in row.children if isinstance(w, FitLabel)] for row in rows]
    shown = [(rendered(name.text) if name.markup else name.text, total.text)
             for total, name in labels]
    assert shown == [(f"{name}:", "0") for name in NAMES]
    ui.app.end_game("abandoned", ask=False)
