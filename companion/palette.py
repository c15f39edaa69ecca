"""Seat colours: a colour-blind-safe palette (Okabe and Ito) plus a seat number.

Colour alone never carries meaning: the screen always shows the seat number beside the
colour, so players who cannot tell two colours apart still find their seat.
"""

from __future__ import annotations

from companion.errors import ConfigError

#: name -> RGB hex. Order is the default seat order.
PALETTE: dict[str, str] = {
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "grey": "#BBBBBB",
}


def rgba(name: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    """Kivy-style RGBA floats for a palette colour name."""
    hexcode = PALETTE[name].lstrip("#")
    r, g, b = (int(hexcode[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b, alpha)


def default_colour(seat: int) -> str:
    """The palette colour a seat gets when the config does not say."""
    return list(PALETTE)[(seat - 1) % len(PALETTE)]


def seat_rgba(config, seat: int) -> tuple[float, float, float, float]:
    """Seat ``seat``'s colour on the screen: exactly the colour of its lamp, as the
    hardware config names it (``config.seat(seat).colour``; the default colour for a
    seat the config does not list). Discs, lamp dots and headlines all take it."""
    try:
        return rgba(config.seat(seat).colour)
    except ConfigError:
        return rgba(default_colour(seat))


def text_rgba(name: str) -> tuple[float, float, float, float]:
    """The colour for *text* in a seat's colour: the seat's colour itself, exactly.

    It used to be lightened toward white for contrast, which turned seat 5's blue into
    nearly seat 2's sky blue. Every palette colour is readable as large text on the
    screen's dark backgrounds as it is (``contrast`` at least ``LARGE_TEXT_CONTRAST``,
    tests/test_palette.py), so a headline matches the seat's disc and lamp.
    """
    return rgba(name)


#: WCAG's least contrast for large text (18 pt, or 14 pt bold): headlines and names.
LARGE_TEXT_CONTRAST = 3.0
#: The least colour difference (CIE76 delta E in Lab) between two seats' colours: well
#: above what a glance across the table confuses.
MIN_SEAT_DELTA_E = 25.0


def contrast(fg, bg) -> float:
    """WCAG contrast ratio of two sRGB colours (RGB or RGBA floats)."""
    a, b = _luminance(*fg[:3]), _luminance(*bg[:3])
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def delta_e(c1, c2) -> float:
    """CIE76 colour difference of two sRGB colours (RGB or RGBA floats), in Lab."""
    l1, a1, b1 = _lab(*c1[:3])
    l2, a2, b2 = _lab(*c2[:3])
    return ((l1 - l2) ** 2 + (a1 - a2) ** 2 + (b1 - b2) ** 2) ** 0.5


def _lab(r: float, g: float, b: float) -> tuple[float, float, float]:
    """CIE Lab (D65) of an sRGB colour."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    rl, gl, bl = lin(r), lin(g), lin(b)
    x = (0.4124 * rl + 0.3576 * gl + 0.1805 * bl) / 0.95047
    y = 0.2126 * rl + 0.7152 * gl + 0.0722 * bl
    z = (0.0193 * rl + 0.1192 * gl + 0.9505 * bl) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _luminance(r: float, g: float, b: float) -> float:
    """Relative luminance (the WCAG formula) of an sRGB colour."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
