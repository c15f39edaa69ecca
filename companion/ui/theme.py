"""The one place for the screen's colours and sizes.

Screens, ``.kv`` rules and presenters take their colours and sizes from here instead of
writing literals, so the look changes in one file and the same layouts fill 800×480,
1024×600 and 1280×720.

The values are plain numbers, so presenters and tests import this module without Kivy.
Sizes are counted in ``dp`` (density-independent pixels) and text in ``sp``; on the 7"
touchscreen and under Xvfb one dp is one pixel, so the numbers read as the brief's pixels:
text at least 28, secondary lines 22, touch targets at least 64 high. Kivy code turns them
into pixels where it uses them:

    #:import theme companion.ui.theme          (in a .kv file)
    font_size: sp(theme.TEXT)
    height: dp(theme.TOUCH)

Colours are RGBA floats, which Kivy takes as they are.
"""

from __future__ import annotations

# -- colours (RGBA floats) -------------------------------------------------------------

BACKGROUND = (0.06, 0.07, 0.09, 1)
BAR = (0.10, 0.11, 0.15, 1)  # top bars and the status bar
PANEL = (0.14, 0.15, 0.20, 1)
BUTTON = (0.22, 0.24, 0.30, 1)
TILE = (0.17, 0.19, 0.25, 1)
GO = (0.0, 0.62, 0.45, 1)  # start, resume: the way forward
MAIN = (0.0, 0.45, 0.70, 1)  # the screen's main action
ALARM = (0.78, 0.16, 0.12, 1)  # Stop Time, danger
DANGER = (0.62, 0.12, 0.10, 1)  # a refusal's background
NOTICE = (0.45, 0.33, 0.05, 1)  # a message that needs the table's action
TEXT_COLOUR = (0.92, 0.92, 0.92, 1)
DIM_TEXT = (0.85, 0.85, 0.85, 1)
NEWS = (1, 0.85, 0.4, 1)  # the status line's news, notices on a board
LAMP_OFF = (0.25, 0.25, 0.25, 1)
# the game screens' keys and choices
KEY = (0.20, 0.22, 0.28, 1)  # a key, a slot or a choice not taken
KEY_AT_LIMIT = (0.16, 0.17, 0.21, 1)  # looks off, still answers a tap with why
KEY_TEXT_OFF = (0.55, 0.55, 0.55, 1)
CHOSEN = (0.55, 0.45, 0.12, 1)  # the choice made (a kind of move, a holder, a colour)
PICKED = (0.45, 0.40, 0.15, 1)  # the row, hour or card picked (Time After Time)
FILLED = (0.30, 0.33, 0.42, 1)  # a slot holding a card
LEGAL = (0.15, 0.55, 0.25, 1)  # where the picked card may go
PROBLEM = (0.75, 0.18, 0.18, 1)  # a card out of order
MOVED = (0.20, 0.35, 0.60, 1)  # a card moved by an emergency move
ROW = (0.12, 0.13, 0.17, 1)  # a row's name or count behind its buttons
ON_TURN = (1, 0.9, 0.5, 1)  # the player on turn's text
SCORE_GO = (0.15, 0.5, 0.25, 1)  # "Score round", "Save round"
CARD_RED = (0.70, 0.15, 0.15, 1)  # Professor Tempus's card colours
CARD_PURPLE = (0.45, 0.20, 0.60, 1)
CARD_JOKER = (0.25, 0.45, 0.30, 1)


def pressed(rgba) -> tuple[float, float, float, float]:
    """A button's colour while a finger is on it: lighter, so the press is seen."""
    r, g, b, a = rgba
    return (min(1.0, r + 0.13), min(1.0, g + 0.14), min(1.0, b + 0.18), a)


def dimmed(rgba) -> tuple[float, float, float, float]:
    """A disabled button's colour: mostly grey with a trace of its hue, darker than any
    live button, so a disabled "Resume" never reads as the way forward."""
    r, g, b, a = rgba
    grey = 0.3 * r + 0.59 * g + 0.11 * b
    return tuple(0.6 * (0.8 * grey + 0.2 * c) for c in (r, g, b)) + (a,)


# -- sizes (in sp for text, dp for the rest; numbers, so no Kivy is needed) --------------

TEXT = 28  # anything read from across the table
SMALL = 22  # secondary lines only
HEADING = 34
TOUCH = 64  # the smallest touch target
BUTTON_H = 72
BAR_H = 72  # a screen's top bar
STATUS_H = 36
BACK_W = 136  # a top bar's Back button and its margin: the banner leaves it free
BANNER_TEXT = 26
GAP = 6
KEY_MIN = 56  # on-screen keyboard keys
TAT_TITLE_H = 44  # Time After Time's title bar: what to do now, on two lines if need be
