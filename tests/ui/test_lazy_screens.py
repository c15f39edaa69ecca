"""companion.ui.lazy_screens: the first screen at once, the others when needed or in
the background after the first frame, a missing one left out."""

from __future__ import annotations

import pytest

SCREEN = ("kivy.uix.screenmanager", "Screen")


@pytest.fixture
def manager(ui, monkeypatch):
    from companion.ui import collector, lazy_screens

    settled = []
    monkeypatch.setattr(collector, "settle", lambda: settled.append(True))
    sm = lazy_screens.LazyScreens()
    sm.know([("home", *SCREEN), ("tool", *SCREEN), ("gone", "companion.ui.screens.nope", "X"),
             ("game", *SCREEN)])
    sm._first_frame()  # (unbinds itself from the window: the app's own stays bound)
    return sm, settled


def test_only_the_first_screen_is_built_the_others_are_known(manager):
    sm, _ = manager
    assert [s.name for s in sm.screens] == ["home"] and sm.current == "home"
    assert sm.has_screen("tool") and sm.has_screen("game") and not sm.has_screen("other")


def test_a_screen_is_built_when_first_asked_for_and_shown(manager):
    sm, _ = manager
    assert sm.get_screen("tool").name == "tool"
    sm.current = "game"
    assert sm.current_screen.name == "game"
    assert sorted(s.name for s in sm.screens) == ["game", "home", "tool"]
    assert list(sm.pending) == ["gone"]


def test_the_background_builds_one_a_tick_then_lets_the_collector_freeze_them(manager):
    sm, settled = manager
    sm._build_next(0)
    assert [s.name for s in sm.screens] == ["home", "tool"] and not settled
    sm._build_next(0)  # a screen whose module does not exist is left out
    assert not sm.has_screen("gone") and not settled
    sm._build_next(0)
    assert [s.name for s in sm.screens] == ["home", "tool", "game"] and settled == [True]
    assert not sm.pending
