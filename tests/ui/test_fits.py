"""``fits`` (companion/ui/widgets.py): whether a text is whole in a box at a size, and its
quick "no" (``too_wide``), which must never refuse a text that a label lays out whole."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

WORDS = ["Undo:", "card", "red", "(Dan)", "Anne-Sophie", "pickup", "12", "7", "a", "the",
         "Recorded:", "picks", "up", "Maximiliane-Josefa", "Wolfgang", "verdict", "WWWW",
         "iiii", "ÄÖÜ", "9,999", "+140 ms"]

texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)


def laid_out_whole(text: str, width: float, px: float, lines: int, bold: bool) -> bool:
    """What a label makes of the text: wrapped at ``width``, its widest line and its
    number of lines (the layout ``fits`` trusts)."""
    from kivy.core.text import Label as CoreLabel

    core = CoreLabel(text=text, font_size=px, bold=bold, text_size=(width, None))
    w, _h = core.render()
    n = len(core._cached_lines) or 1
    return w <= width + 1 and n <= lines


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(text=texts, width=st.floats(20, 500), px=st.sampled_from([18, 20, 22, 24, 28, 34]),
       lines=st.integers(1, 3), bold=st.booleans())
def test_too_wide_never_refuses_a_text_a_label_lays_out_whole(ui, text, width, px, lines,
                                                              bold):
    from companion.ui.widgets import too_wide

    if too_wide(text, width, px, lines, bold):
        assert not laid_out_whole(text, width, px, lines, bold)


def test_too_wide_refuses_a_text_plainly_too_long_and_lets_a_short_one_through(ui):
    from companion.ui.widgets import fits, too_wide

    long_name = "Undo: pickup (Maximiliane-Josefa)"
    assert too_wide(long_name, 120, 28, 2)
    assert not fits(long_name, 120, 60, 28, 2)
    assert not too_wide("Undo", 120, 28, 2)
    assert fits("Undo", 120, 60, 28, 2)


def test_fits_agrees_with_the_layout(ui):
    from companion.ui.widgets import fits

    for text in ("Undo: card 7 (Ann)", "Recorded: Wolfgang picks up", "a"):
        for width in (40, 90, 160, 300):
            for lines in (1, 2):
                assert fits(text, width, 200, 24, lines) == laid_out_whole(text, width, 24,
                                                                           lines, False)
