"""Seat colours: a colour-blind-safe palette (Okabe and Ito) plus a seat number.

Colour alone never carries meaning: the screen always shows the seat number beside the
colour, so players who cannot tell two colours apart still find their seat.
"""

from __future__ import annotations

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


def text_rgba(name: str) -> tuple[float, float, float, float]:
    """The colour for *text* in a seat's colour on the dark screen.

    Dark palette colours (blue, vermillion, green) are mixed toward white until they
    reach a contrast a player can read from across the table; the seat disc keeps the
    true colour, so the pair still matches the seat's lamp.
    """
    r, g, b, a = rgba(name)
    for _ in range(10):
        if _luminance(r, g, b) >= 0.3:
            break
        r, g, b = (c + (1 - c) * 0.15 for c in (r, g, b))
    return (r, g, b, a)


def _luminance(r: float, g: float, b: float) -> float:
    """Relative luminance (the WCAG formula) of an sRGB colour."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
