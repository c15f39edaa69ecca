"""EventQueue: what the UI thread drains each frame (oldest first, nothing lost)."""

import threading

from companion.events import EventQueue, PressEvent


def _ev(i: int) -> PressEvent:
    return PressEvent(seat=1, t_ns=i, source="mock")


def test_drain_returns_events_oldest_first_and_empties_the_queue():
    q = EventQueue()
    for i in range(5):
        q.post(_ev(i))
    assert [e.t_ns for e in q.drain()] == [0, 1, 2, 3, 4]
    assert q.drain() == []


def test_drain_keeps_what_is_over_the_limit_for_the_next_frame():
    q = EventQueue()
    for i in range(5):
        q.post(_ev(i))
    assert [e.t_ns for e in q.drain(limit=3)] == [0, 1, 2]
    assert [e.t_ns for e in q.drain(limit=3)] == [3, 4]


def test_an_empty_drain_takes_nothing_out(monkeypatch):
    """The per-frame empty case only reads the count: no get (no raise and catch)."""
    q = EventQueue()

    def no_get():
        raise AssertionError("get_nowait called on an empty queue")

    monkeypatch.setattr(q._q, "get_nowait", no_get)
    assert q.drain() == []


def test_no_event_lost_while_another_thread_posts():
    q = EventQueue(maxsize=20_000)
    n = 20_000
    t = threading.Thread(target=lambda: [q.post(_ev(i)) for i in range(n)])
    t.start()
    got = []
    while t.is_alive():
        got.extend(q.drain(limit=100))
    t.join()
    got.extend(q.drain(limit=n))
    assert q.dropped == 0
    assert [e.t_ns for e in got] == list(range(n))


def test_a_full_queue_counts_what_it_drops():
    q = EventQueue(maxsize=2)
    for i in range(3):
        q.post(_ev(i))
    assert q.dropped == 1
    assert [e.t_ns for e in q.drain()] == [0, 1]
