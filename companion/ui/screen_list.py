"""Which screens the app builds, by name: the shell and the tools, then one per game.

Kept apart from ``app`` so that it can be read without importing Kivy (Kivy must be
set up before its first import; see ``companion.ui.kivy_env``).
"""

from __future__ import annotations

from companion.games import games

#: (screen name, module, class) of the screens that are not a game's own. Each game's
#: screen comes from its descriptor (``GameInfo.screen``); see ``screens()``.
SCREENS: list[tuple[str, str, str]] = [
    ("home", "companion.ui.screens.home", "HomeScreen"),
    ("players", "companion.ui.screens.players", "PlayersScreen"),
    ("settings", "companion.ui.screens.settings", "SettingsScreen"),
    ("game", "companion.ui.screens.game", "GameScreen"),
    # tools usable in any game
    ("slap", "companion.ui.screens.slap", "SlapScreen"),
    ("captain_die", "companion.ui.screens.captain_die", "CaptainDieScreen"),
    ("timer", "companion.ui.screens.timer", "TimerScreen"),
    ("history", "companion.ui.screens.history", "HistoryScreen"),
]


def screens() -> list[tuple[str, str, str]]:
    """Every screen to build: the shell and tools, then one per game that has its own."""
    own = []
    for game in games():
        if game.screen:
            module, _, cls = game.screen.partition(":")
            own.append((game.name, module, cls))
    return SCREENS + own
