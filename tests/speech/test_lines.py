"""The one-line waiting room: replace by priority, shorten after a wait, drop when stale."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.speech.lines import (
    INFO,
    MAX_WAIT_S,
    SHORTEN_AFTER_S,
    URGENT,
    VERDICT,
    Line,
    LineSlot,
)


def test_a_newer_line_replaces_a_waiting_one_unless_it_matters_less():
    slot = LineSlot()
    assert slot.offer(Line("Ann picks up"), 0.0)
    assert slot.offer(Line("Bob picks up"), 0.1)  # same priority: the newer wins
    assert not slot.offer(Line("Round two scored", INFO), 0.2)  # less important: refused
    assert slot.offer(Line("Ten seconds", URGENT), 0.3)
    assert slot.take(0.4).text == "Ten seconds"
    assert slot.take(0.5) is None
    assert (slot.counts.replaced, slot.counts.refused) == (2, 1)


def test_a_line_that_waited_is_said_short_and_a_stale_one_is_dropped():
    slot = LineSlot()
    line = Line("Two: twenty-three time units left.", short="Twenty-three left.")
    slot.offer(line, 0.0)
    assert slot.take(SHORTEN_AFTER_S / 2).text == line.text
    slot.offer(line, 10.0)
    assert slot.take(10.0 + SHORTEN_AFTER_S + 0.1).text == "Twenty-three left."
    slot.offer(line, 20.0)
    assert slot.take(20.0 + MAX_WAIT_S[VERDICT] + 0.1) is None
    assert (slot.counts.shortened, slot.counts.stale) == (1, 1)


def test_an_urgent_line_asks_to_cut_a_lesser_one_being_spoken():
    slot = LineSlot()
    slot.offer(Line("Round one scored: Ann leads.", INFO), 0.0)
    slot.take(0.0)
    assert not slot.should_cut()
    slot.offer(Line("Dan picks up"), 0.1)
    assert not slot.should_cut()  # a verdict waits for the line being said
    slot.offer(Line("Reveal!", URGENT), 0.2)
    assert slot.should_cut()
    slot.take(0.3)
    slot.offer(Line("Time's up", URGENT), 0.4)
    assert not slot.should_cut()  # urgent never cuts urgent
    slot.done()
    assert not slot.should_cut()


def test_a_line_needs_words_and_a_known_priority():
    with pytest.raises(ValueError, match="words"):
        Line("   ")
    with pytest.raises(ValueError, match="priority"):
        Line("hello", priority=7)


def test_close_releases_a_waiting_worker_with_nothing():
    slot = LineSlot()
    slot.offer(Line("never said"), 0.0)
    slot.close()
    assert slot.wait_take(lambda: 0.0, 5.0) is None


@given(st.lists(st.tuples(st.sampled_from([INFO, VERDICT, URGENT]),
                          st.floats(0, 3), st.booleans()), max_size=60))
def test_lines_faster_than_speech_never_pile_up(events):
    """Whatever arrives, at most one line waits, nothing older than its patience is
    said, and what is said is never less important than a line refused meanwhile."""
    slot, now, refused_since_take, since = LineSlot(), 0.0, [], 0.0
    for i, (priority, gap, take) in enumerate(events):
        now += gap
        if slot.offer(Line(f"line {i}", priority, short=f"l{i}"), now):
            since = now
        else:
            refused_since_take.append(priority)
        assert slot.waiting is not None
        if take:
            waiting = slot.waiting
            line = slot.take(now)
            if line is not None:
                assert line.priority == waiting.priority
                assert now - since <= waiting.patience
                assert line.text == (waiting.short if now - since > SHORTEN_AFTER_S
                                     else waiting.text)
                assert all(p <= line.priority for p in refused_since_take)
            else:
                assert now - since > waiting.patience
            refused_since_take = []
            assert slot.waiting is None
            slot.done()
    c = slot.counts
    assert c.offered == len(events)
