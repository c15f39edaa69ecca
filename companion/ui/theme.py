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
SHADE = (0, 0, 0, 0.78)  # the screen dimmed behind a modal's panel
SHEET = (0.06, 0.07, 0.09, 0.97)  # a modal sheet that hides the screen
CLEAR = (0, 0, 0, 0)  # nothing drawn
WHITE = (1, 1, 1, 1)  # text on a coloured button or banner
SOFT_WHITE = (1, 1, 1, 0.8)  # a hint on a banner
BANNER_EDGE = (1, 1, 1, 0.85)
CLOCK_NOTE = (0.55, 0.95, 0.55, 1)  # "Timer running" in the status bar
BLACK = (0, 0, 0, 1)  # a number on a lit seat disc
SEAT_OFF = (0.3, 0.3, 0.3, 1)  # a seat disc not in play
DISABLED_TEXT = (0.6, 0.6, 0.62, 1)
FADED_TEXT = (0.5, 0.5, 0.5, 1)  # a seat chip's name when not in play
FIELD = (0.96, 0.96, 0.94, 0.12)  # the name being typed, behind its letters
LIMIT = (1, 0.75, 0.3, 1)  # a count at its limit (20/20 letters)
COUNT_TEXT = (0.8, 0.8, 0.85, 1)
ALARM_PRESSED = (0.95, 0.35, 0.2, 1)  # the STOP TIME face under a finger
PROBLEM = (0.38, 0.08, 0.07, 1)  # the storage problem's page
ADVICE = (1, 0.9, 0.55, 1)  # what to do, on the storage problem's page
DETAILS = (0.9, 0.8, 0.8, 1)  # the technical details under it
WARN_TEXT = (1, 0.6, 0.5, 1)  # a number pad's "not possible here"
LIST_ROW = (0.12, 0.13, 0.17, 1)  # a line of History's list
BAR_PLAYED = (0.25, 0.27, 0.33, 1)  # the wins chart: games played (won is GO)
TRACK = (0.11, 0.12, 0.16, 1)  # the slap timeline's track
TICK = (0.7, 0.7, 0.75, 1)  # its ticks
# the game screens' keys and choices
KEY = (0.20, 0.22, 0.28, 1)  # a key, a slot or a choice not taken
KEY_AT_LIMIT = (0.16, 0.17, 0.21, 1)  # looks off, still answers a tap with why
KEY_TEXT_OFF = (0.55, 0.55, 0.55, 1)
CHOSEN = (0.55, 0.45, 0.12, 1)  # the choice made (a kind of move, a holder, a colour)
PICKED = (0.45, 0.40, 0.15, 1)  # the row, hour or card picked (Time After Time)
FILLED = (0.30, 0.33, 0.42, 1)  # a slot holding a card
LEGAL = (0.15, 0.55, 0.25, 1)  # where the picked card may go
OUT_OF_ORDER = (0.75, 0.18, 0.18, 1)  # a card out of order
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
CLOSE_HINT_W = 130  # the banner's "Tap to close"
LAMP_DOT_STEP = 30  # the status bar's lamp dots, one per seat
RESUME_SIZES = (22, 20, 18, 16)  # Home's resume line, largest first
NARROW_LINE = 320  # a line narrower than this may wrap on three lines
HEADING_SIZES = (34, 30, 28, 24, 22)  # a title line, largest first
TILE_LINE = 20  # a home tile's second line
TILE_FULL_H = 84  # a home tile lower than this shows its title only
ROW_BUTTON_W = 140  # Resume / Abandon beside a line of a list
SIM_HINT_W = 420  # the status line is wide enough for the whole simulation hint
INFO_SIZES = (22, 20, 18, 16, 14)  # a secondary line that must stay whole
TINY = 20  # counts and small print beside a larger line
MEDIUM = 24  # a sheet's lines, a key's word
FINE = 18  # details nobody reads from across the table
KEY_TEXT = 30  # a letter key
NAME_TEXT = 32  # the name being typed
TITLE = 40  # a full-page headline
DIGITS = 72  # the number pad's number
FIT_SIZES = (28, 24, 22, 20, 18, 16, 14)  # a FitLabel's sizes unless it says
SEAT_ROW_H = 72  # a seat's row on the Players screen, at most
TOGGLE_W = 84  # a seat's In/Out switch
FIRST_W = 210  # "Deals first: …" on the Players screen
START_W = 180
STEP_W = 96  # Softer / Louder, Dimmer / Brighter
LEVEL_W = 240  # "Sound 100 %"
SWITCH_OFF_W = 150  # "Switch off" at TEXT size needs this width
SEAT_BADGE = 56  # a seat's disc
SIDE_BUTTON_W = 130  # a button beside a line (Resume, Back)
SOUND_W = 170  # "Sound off"
NOT_NOW_W = 110
USB_W = 200  # "Sheets to USB"
RESUME_LINE_H = 80  # Home's resume line
LABEL_H = 30  # a one-line caption
SIDE_TITLE_H = 44  # a side column's title
SMALL_ROW_H = 48
ROUND_ROW_H = 78  # a slap round in the side list
SIDE_W = 250  # the slap pad's side column
WIDE_BUTTON_W = 260
NEXT_W = 150  # "Next name"
DONE_W = 120  # "Done"
COUNT_W = 70  # "20/20"
QUESTION_W = 720  # a question's panel at most
STOP_FACE_H = 100
PAGE_PAD = 28  # a full page's margin, left and right
PAGE_PAD_Y = 20  # and top and bottom
PANEL_PAD = 12  # inside a panel or a sheet, around its lines
LINE_W = 1.5  # an outline
HISTORY_ROW_H = 76  # a game's line in History, at least
STOP_FACE_MAX = 230  # the STOP TIME face at most
STOP_FACE_MIN = 150  # and before it is laid out
TAT_TITLE_H = 44  # Time After Time's title bar: what to do now, on two lines if need be
