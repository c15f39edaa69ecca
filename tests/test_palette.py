"""Seat colours: distinct, and readable as text on the dark screen."""

from __future__ import annotations

from companion.palette import PALETTE, _luminance, rgba, text_rgba


def test_every_text_colour_is_light_enough_and_keeps_its_hue_order():
    for name in PALETTE:
        r, g, b, _ = text_rgba(name)
        assert _luminance(r, g, b) >= 0.3, name
    assert text_rgba("yellow") == rgba("yellow")  # light colours are left alone
    r, g, b, _ = text_rgba("blue")
    assert b > r and b > g  # still a blue


def test_the_palette_colours_are_all_different():
    assert len({rgba(n) for n in PALETTE}) == len(PALETTE)
