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
PANEL = (0.12, 0.13, 0.17, 1)  # seat-coloured text on it keeps a contrast of 3
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
VEIL = (0.06, 0.07, 0.09, 0.55)  # over a button that takes no tap (its text dims too)
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
TICK = (0.7, 0.7, 0.75, 1)  # its ticks; a chart's baseline
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
# the game screens' dice, clocks, boards and dialogs
DIE_INK = (0.1, 0.1, 0.12, 1)  # the number on a die's white face
DIE_ROLLING = (0.82, 0.82, 0.88, 1)  # the die's face while it rolls
RED_LETTERED = (0.75, 0.18, 0.18, 1)  # the "Red-lettered" toggle when on
TALLY = (1, 0.82, 0.3, 1)  # the TU the table spends, big
TALLY_OUT = (0.9, 0.35, 0.3, 1)  # Time Stories' TU when the run's time is stopped
HOW_SUMMED = (1, 0.9, 0.6, 1)  # how a total comes about, under it
KEY_DOWN = (0.35, 0.38, 0.48, 1)  # a Crazy Time choice under a finger
KEY_SELECTED = (0.28, 0.30, 0.38, 1)  # and the one selected
OFF_BEAT = (0.55, 0.8, 1, 1)  # the countdown word on odd beats (NEWS on even ones)
ROLL = (0.80, 0.55, 0.10, 1)  # "Roll die"
ITEM_BADGE = (0.95, 0.74, 0.22, 1)  # an item's agency badge
ITEM_BADGE_TEXT = (0.12, 0.10, 0.05, 1)
LAMP_LIT = (0.18, 0.30, 0.20, 1)  # a countdown's ready lamp, lit (off is PANEL)
LAMP_LIT_TEXT = (0.6, 1, 0.6, 1)
LAMP_OFF_TEXT = (0.7, 0.7, 0.7, 1)
CLOCK_FLAGGED = (0.55, 0.12, 0.08, 1)  # a game clock whose time ran out
CLOCK_ACTIVE = (0.20, 0.26, 0.36, 1)  # the clock running
CLOCK_IDLE = (0.11, 0.12, 0.16, 1)  # the others
CLOCK_IDLE_TEXT = (0.75, 0.75, 0.78, 1)
CLOCK_NOTE_FLAGGED = (1, 0.8, 0.5, 1)  # the line under a flagged clock's digits
CLOCK_NOTE_IDLE = (0.6, 0.6, 0.65, 1)  # and under the others'
ON_TURN_CHIP = (0.25, 0.28, 0.36, 1)  # The Times: the hand chip of the player on turn
CARD_FACE = (0.94, 0.93, 0.88, 1)  # a card's face (the hand's card count)
CARD_INK = (0.08, 0.08, 0.1, 1)  # the writing on it
NO_CARD_TEXT = (0.8, 0.8, 0.8, 1)  # a card slot with no card
SPACE = (1, 1, 1, 0.16)  # a track space, over the lane's colour
SPACE_DOWN = (1, 1, 1, 0.35)  # under a finger
SPACE_OFF_TEXT = (0.72, 0.72, 0.75, 1)  # the number of a space that takes no tap
SPACE_EDGE = (1, 1, 1, 0.9)  # the frame of a space that takes a tap
SPACE_OFF_EDGE = (0.35, 0.35, 0.4, 1)  # and of one that does not
PENDING_EDGE = (1, 1, 1, 0.95)  # a marker laid but not yet confirmed
READY = (0.55, 0.95, 0.55, 1)  # all set: the year read whole, "Reveal!", a track won
OUTCOME_GOOD = (0.12, 0.24, 0.16, 1)  # a claim found right
OUTCOME_BAD = (0.28, 0.13, 0.12, 1)  # found wrong
OUTCOME_OPEN = (0.14, 0.15, 0.19, 1)  # not checked yet
DIALOG = (0.12, 0.13, 0.18, 1)  # a dialog's panel over the shade
TOTAL = (1, 0.85, 0.3, 1)  # a score sheet's total, the winners
ASIDE = (0.8, 0.82, 0.88, 1)  # a line that explains, in a panel
CHART_AXIS = (0.55, 0.57, 0.62, 1)  # Time Stories' TU chart: its axes
CHART_GUIDE = (0.55, 0.57, 0.62, 0.5)  # its guide line at the top
CHART_LINE = (1.0, 0.80, 0.25, 1)  # the TU line
LIFE = (0.95, 0.3, 0.35, 1)  # a character's life points
DEAD_TEXT = (0.7, 0.7, 0.7, 1)  # a dead character's
TIME_UP = (1, 0.55, 0.35, 1)  # the countdown's digits when time is up
NO_CARD = (0.3, 0.3, 0.3, 1)  # The Times: a pick with no card
CARD_NOW = (0.8, 0.8, 0.82, 1)  # the card "now" in a pick
TRACK_START = (0.95, 0.80, 0.20, 1)  # the scoring track: its start space's edge
TRACK_TARGET = (0.90, 0.25, 0.20, 1)  # the target space's edge
TRACK_EDGE = (0.4, 0.4, 0.45, 1)  # the other spaces' edges
TRACK_SPACE = (0.16, 0.17, 0.22, 1)  # a space
TRACK_NUMBER = (0.85, 0.85, 0.9, 1)  # its number
CARD_PINK = (0.93, 0.47, 0.68, 1)  # The Times' cards, in the board's colours
CARD_BLUE = (0.22, 0.50, 0.88, 1)
CARD_YELLOW = (0.97, 0.82, 0.28, 1)
CARD_PINK_TEXT = (0.1, 0.05, 0.08, 1)  # text on a pink card (WHITE on a blue one)
CARD_YELLOW_TEXT = (0.1, 0.08, 0.0, 1)
FACE_SKULL = (0.75, 0.15, 0.15, 1)  # Time Stories' action die: a skull's tile
FACE_BLANK = (0.35, 0.35, 0.38, 1)
FACE_HIT = (0.15, 0.40, 0.80, 1)
FACE_DOUBLE = (0.10, 0.30, 0.95, 1)


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
#: The status band while a notice takes two lines of SMALL text (2 x 26 px, 2 px above
#: and below; STATUS_H otherwise): the screens have 20 px less while it shows.
NOTICE_H = 56
NOTICE_CLOSE_W = 100  # a notice's "Close" / "Read all"
# the score pad (screens/game.kv)
SCORE_NAME_SIZES = (28, 24, 22)  # a name beside its total: two lines, then "..."
SCORE_TOTAL_SIZES = (28, 24, 22)  # a total of five digits and a sign
SCORE_TOTAL_W = 112
SCORE_STEP_W = 84  # -1, +1, +5, + N
END_GAME_W = 150
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
TILE_TWO_LINES_H = 70  # and lower than this, its title at SMALL size
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
ROUND_LINE_H = 24  # a line of a recorded round in the slap pad's side list (two: 48 px)
ROUND_SIZES = (18, 16, 14)  # its text: details, smaller for a long name
SIDE_W = 250  # a side column (the slap pad's, Time Stories' TU)
WIDE_BUTTON_W = 260
ANSWER_W = 320  # the storage problem's second answer ("Restore from USB")
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
# the game screens
COLUMN_GAP = 16  # between a screen's two columns
DIE = 130  # the Time Captain die to tap
DIE_COLUMN_W = 330  # and its column
DIE_FACE = 90  # the number on it
DIE_CORNER = 22
CAPTION_H = 28  # a caption line in SMALL text
LINE_H = 36  # a line of TEXT
TALLY_BLOCK_H = 150  # the Time Captain's TU and how it comes about
TALLY_TEXT = 96  # the TU, big
SUM_LINE_H = 40  # how it comes about, at least (two lines when it wraps)
SEAT_CHIP = 42  # a seat's disc beside a line of Crazy Time's board
LEAD_BADGE = 46  # the disc of the player who starts
CT_SIDE_W = 316  # Crazy Time's right column
PANEL_TITLE = 30  # a Crazy Time panel's title
PANEL_TITLE_H = 48
TWO_LINE_TITLE_H = 62  # a SUBHEADING title on two lines
SUBHEADING = 26  # a title or hint between TEXT and HEADING
BIG_WORD = 140  # the countdown's word, one a second
TEXT_LINE_H = 44  # a line of TEXT with room around it
FIELD_LABEL_W = 120  # a label left of its field
END_CELL_W = 64  # a number in the end table
END_WIDE_W = 92  # a wider one ("Pick-ups")
END_BADGE = 40  # a seat's disc in the end table
END_HEAD_H = 60  # the winner's line over it
END_TABLE_W = 356
BACK_BUTTON_W = 72  # a "<" back button
BACK_TEXT_W = 120  # a "< Back" button
INFO_W = 260  # Professor Tempus's info line in the top bar
UNDO_W = 110  # Undo in a game's top bar
TIMES_BAR_H = 68  # The Times' top bar
TAT_BAR_W = 100  # Time After Time's Undo, and its bar's buttons before layout
TAT_HEADING_W = 120  # its heading at the bar's right
RESULT_TEXT = 44  # a round's result line, the winners
TS_TALLY_TEXT = 120  # Time Stories' TU at most
TS_TALLY_H = 124
TS_LINE_H = 34  # the line under it
TS_DIE = 72  # the die to tap for the table's own die
TS_DIE_FACE = 48
TS_PIP_W = 34  # a die face's corner marks
TS_PIP_H = 24
TS_LOG_H = 116  # the roll log
CORRECT_TU_W = 170  # "Correct TU"
ITEMS_W = 110  # "Items"
WORD_BUTTON_W = 120  # a one-word button beside a line (Give, Used, Undo)
ITEM_ROW_H = 76  # an item's line
ITEM_BADGE_W = 110  # its agency badge
ITEM_BADGE_H = 40
TS_HEADING_W = 150  # a T.I.M.E Stories panel row's heading, at its left
TS_PERSON_H = 76  # a character's row, at least
TS_STEP_W = 70  # a character's - and +
TS_TILE_H = 86  # an action die's tile, at least (its symbol over its word)
TS_ROW_SHARE = 0.13  # a panel row's height, as a share of the window's
TS_TILE_SHARE = 0.16  # a character's row and a die's tile, as a share of the window's
LAMP_W = 92  # a countdown's ready lamp
LAMP_H = 120  # the badge and a 20-letter name on two lines of 22 px
LAMPS_H = 128  # their row
CLOCK_BADGE_ROOM = 84  # a game clock's seat disc and margins, left of the digits
CLOCK_DIGITS_ROOM = 100  # and a margin more: the digits never wrap
CLOCK_NOTE_W = 110  # the line under a clock's digits
CLOCK_NOTE_H = 26
COUNTDOWN_TEXT = 150  # the countdown's digits at most
CAPTION_LINE_H = 40  # the timer's caption under the digits
CONTROLS_H = 76  # the timer's control row
ROW_GAP = 4  # between Settings' rows (all whole at 800x480)
NOTE_LINE_H = 30  # one line of SMALL text
TWO_LINES_H = 52  # two lines of SMALL text
LAMP_MAX_W = 190  # a ready lamp at most: a 20-letter name on two lines
LAMP_NAME_SIZES = (24, 22)  # the name on a ready lamp
HAND_CHIP_W = 96  # The Times: a player's hand chip
HAND_CARD_W = 36  # the card count in it
MARKER_DOT = 20  # a marker's seat dot
CARDS_LABEL_H = 32  # "Year of the event"
YEAR_H = 84  # the year, in DIGITS
OUTCOME_ROW_H = 56  # a claim's line when checked
DIALOG_CORNER = 12
DIALOG_NAME_W = 118  # a player's name in a dialog
TOTAL_TEXT = 30  # a player's total on the score screen
PANEL_HEADING = 32  # a panel's headline (a run's outcome, the evaluated year)
SYMBOL_TEXT = 32  # a line of game symbols (shields left)
BIG_SYMBOL = 36  # a tile's symbol over its words
SYMBOL_KEY = 40  # a key that shows a game symbol
STEP_TEXT = 36  # a stepper's "-" and "+"
START_TU_TEXT = 48  # the starting TU on Time Stories' setup
TRACK_HEADING = 36  # The Times' scoring track headline
NUMBER_TYPED = 40  # the number typed on The Times' pad
LIST_LINE_H = 34  # a line of a scrolling list of lines (a score sheet, History's statistics)
NOTE_FIELD_H = 110  # History's note as typed, three lines at MEDIUM

# -- The Times (screens/times.kv, times_panels.kv) ---------------------------------------
TIMES_PROMPT_H = 50  # the instruction: two lines of 22 px at least
TIMES_HEADLINE_H = 40  # whose turn it is, beside their seat disc
TIMES_PERIOD_W = 230  # "Now: 1000–1999"
TIMES_HAND_W = 90  # an outcome's hand after it, "5 (-1)"
TIMES_POINTS_H = 56  # the track's row of points
TIMES_MENU_W = 480  # the More dialog
TIMES_DIALOG_W = 784  # the Override dialog at most
TIMES_LEAST = 18  # a line that must stay whole where 22 px cannot (five long names)

# Professor Tempus
PT_STRIP_TALL_H = 88  # the players strip with four or five players: names on two lines
PT_STRIP_BADGE = 30  # a seat's disc in the strip, beside the score (the name above)
PT_COUNT_KEY_W = 72  # a count's − and +
PT_LABEL_W = 150  # the scores table's first column ("Count 1", "Total")
# Time After Time
TAT_PROMPT_H = 54  # its title bar: what to do now on two lines of SMALL text
