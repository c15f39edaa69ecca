"""The touchscreen UI (Kivy): thin screens over presenters that turn state into view data.

Layout: ``app.py`` builds the window, the ScreenManager and the status bar, moves between
screens, lays banners and questions over them, and owns the one frame loop that drains
press events; ``session_controller.py`` holds the game in progress and what each step on
it means (start, act, undo, end, refusals in the rules' words, what is spoken), with no
Kivy, so it is tested without a window, and the app delegates to it;
``widgets.py``/``widgets.kv`` hold the shared big-text widgets; ``screens/`` holds one
``.py``/``.kv`` pair per screen; ``presenters/`` holds the pure functions that screens
call (tested without Kivy).
"""
