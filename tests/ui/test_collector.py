"""companion.ui.collector: what it asks of Python's garbage collector, and when."""

from __future__ import annotations

import pytest

from companion.ui import collector


@pytest.fixture
def calls(monkeypatch):
    seen: list[str] = []
    monkeypatch.setattr(collector.gc, "collect", lambda: seen.append("collect"))
    monkeypatch.setattr(collector.gc, "freeze", lambda: seen.append("freeze"))
    monkeypatch.setattr(collector, "ENABLED", True)
    return seen


def test_settle_collects_before_it_freezes_so_no_garbage_is_kept(calls):
    collector.settle()
    assert calls == ["collect", "freeze"]


def test_keep_freezes_without_a_collection_in_the_middle_of_a_tap(calls):
    collector.keep()
    assert calls == ["freeze"]


def test_switched_off_it_leaves_the_collector_alone(calls, monkeypatch):
    monkeypatch.setattr(collector, "ENABLED", False)
    collector.settle()
    collector.keep()
    assert calls == []
