"""Kivy-free controllers: what a tap on each screen means; a screen calls its controller
and shows the view it returns.

Each module here holds one screen's half-entered things (a selected seat, typed digits,
which page is up), builds the actions it sends through the app it is given (a port
object: ``app.session``, ``app.act``, ``app.undo``, ``app.play``, ``app.cfg``,
``app.table.lamps`` ...), and returns an immutable view; none imports Kivy, reads a
clock or does I/O, so every rule of a tap is tested without a window
(``tests/control/``).
"""
