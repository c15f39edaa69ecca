"""The touchscreen UI (Kivy): thin screens over presenters that turn state into view data.

Layout: ``app.py`` builds the window, the ScreenManager and the status bar, and owns the
one frame loop that drains press events; ``widgets.py``/``widgets.kv`` hold the shared
big-text widgets; ``screens/`` holds one ``.py``/``.kv`` pair per screen; ``presenters/``
holds the pure functions that screens call (tested without Kivy).
"""
