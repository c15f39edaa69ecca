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
