"""Seat colours: one palette for the screen and the lamps, exact everywhere, readable as
text on the dark screen and never confusable with another seat's."""

from __future__ import annotations

import itertools

import pytest

from companion.config import load_config
from companion.palette import (
    LARGE_TEXT_CONTRAST,
    MIN_SEAT_DELTA_E,
    PALETTE,
    contrast,
    delta_e,
    rgba,
    seat_rgba,
    text_rgba,
)
from companion.ui import theme


def test_the_screen_colour_of_every_seat_is_its_lamps_colour():
    cfg = load_config()  # the box's default config: the lamps' colours
    assert len(cfg.seats) >= 5
    for s in cfg.seats:
        lamp = rgba(s.colour)
        assert seat_rgba(cfg, s.seat) == lamp
        assert text_rgba(s.colour) == lamp, f"seat {s.seat}'s headline is not its lamp's colour"


def test_seat_five_blue_is_not_lightened_toward_seat_two_sky():
    cfg = load_config()
    blue, sky = text_rgba(cfg.seat(5).colour), text_rgba(cfg.seat(2).colour)
    assert (cfg.seat(5).colour, cfg.seat(2).colour) == ("blue", "sky")
    assert blue == rgba("blue") and delta_e(blue, sky) >= MIN_SEAT_DELTA_E


@pytest.mark.parametrize(("a", "b"), list(itertools.combinations(PALETTE, 2)))
def test_no_two_seats_text_colours_are_confusable(a, b):
    assert delta_e(text_rgba(a), text_rgba(b)) >= MIN_SEAT_DELTA_E, (a, b)


@pytest.mark.parametrize("name", list(PALETTE))
def test_every_seat_colour_reads_as_large_text_on_the_screen(name):
    for background in (theme.BACKGROUND, theme.BAR, theme.PANEL):
        assert contrast(text_rgba(name), background) >= LARGE_TEXT_CONTRAST, name


def test_the_measures_tell_colours_apart():
    # the old lightened blue (mixed 15 % toward white, four times) sat near sky
    lightened = tuple(c + (1 - c) * (1 - 0.85 ** 4) for c in rgba("blue")[:3])
    assert delta_e(lightened, rgba("sky")) < MIN_SEAT_DELTA_E
    assert contrast((1, 1, 1), (0, 0, 0)) == pytest.approx(21)
    assert delta_e(rgba("grey"), rgba("grey")) == 0


def test_the_palette_colours_are_all_different():
    assert len({rgba(n) for n in PALETTE}) == len(PALETTE)
