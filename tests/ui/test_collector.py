"""companion.ui.collector: what it asks of Python's garbage collector, and when."""

from __future__ import annotations

import pytest

from companion.ui import collector


class FakeGC:
    """The calls the collector makes, with counts it can be given."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.count = (0, 0, 0)
        self.frozen = 0

    def collect(self, generation: int = 2) -> int:
        self.calls.append(f"collect {generation}")
        return 0

    def freeze(self) -> None:
        self.calls.append("freeze")

    def unfreeze(self) -> None:
        self.calls.append("unfreeze")

    def get_freeze_count(self) -> int:
        return self.frozen

    def set_threshold(self, *thresholds: int) -> None:
        self.calls.append(f"threshold {thresholds[0]}")

    def get_count(self) -> tuple[int, int, int]:
        return self.count


@pytest.fixture
def fake(monkeypatch):
    gc = FakeGC()
    monkeypatch.setattr(collector, "gc", gc)
    monkeypatch.setattr(collector, "ENABLED", True)
    monkeypatch.setattr(collector, "_settled", False)
    return gc


def test_settle_collects_before_it_freezes_then_leaves_collections_to_quiet_moments(fake):
    collector.settle()
    assert fake.calls == ["collect 2", "freeze", f"threshold {collector.BACKSTOP}"]


def test_switched_off_it_leaves_the_collector_alone(fake, monkeypatch):
    monkeypatch.setattr(collector, "ENABLED", False)
    fake.count = (10**6, 0, 0)
    collector.settle()
    assert not collector.idle()
    assert fake.calls == []


def test_nothing_is_collected_before_the_app_has_settled(fake):
    fake.count = (10**6, 0, 0)
    assert not collector.idle()
    assert fake.calls == []


def test_a_quiet_moment_collects_what_was_made_and_everything_now_and_then(fake):
    collector.settle()
    fake.calls.clear()
    assert not collector.idle()  # nothing made since: no walk at all
    fake.count = (500, 0, 0)
    assert collector.idle()
    fake.count = (500, 0, collector.FULL_EVERY - 1)  # the young ones collected that often
    assert collector.idle()
    # what a full collection leaves alive is frozen: the next one walks only what is new
    assert fake.calls == ["collect 1", "collect 2", "freeze"]


def test_what_died_frozen_is_freed_once_enough_was_frozen_since_the_start(fake):
    collector.settle()
    fake.calls.clear()
    fake.count = (500, 0, collector.FULL_EVERY - 1)
    fake.frozen = collector.THAW_AFTER  # not more than that yet
    assert collector.idle()
    fake.frozen = collector.THAW_AFTER + 1
    assert collector.idle()
    assert fake.calls == ["collect 2", "freeze", "unfreeze", "collect 2", "freeze"]
    fake.calls.clear()
    assert collector.idle()  # counted afresh from the thaw
    assert fake.calls == ["collect 2", "freeze"]
