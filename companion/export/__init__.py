"""A game log out of the box, for people: what both the touch screen and the venue use.

``logfile``: the whole log as JSON Lines or CSV (``companion export``, History's Export)
and a JSON Lines file read back for ``companion replay``. ``sheet``: one game as a
self-contained HTML score sheet (the venue's game page, ``companion export --format
html``); ``sheets``: every game's sheet plus an index into a folder; ``usb``: those
sheets onto a mounted USB stick (History's "Score sheets to USB").

Nothing here imports the UI or the venue: both import from here.
"""
