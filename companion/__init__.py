"""The table companion: a Raspberry Pi referee and score keeper for time-themed games.

Data flows one way: press sources (GPIO seat buttons, the Pico pad, the keyboard in
simulation) post ``PressEvent``s onto a queue; the UI thread drains it into a
``GameSession`` that appends every action to the SQLite game log and replays it through
a pure rules engine (``companion.games``); Kivy screens show the resulting state.
"""

__version__ = "0.1.0"
