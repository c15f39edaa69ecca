"""The game registry: engines are found by their descriptor, and everything that lists
games (home tiles, screens, resume offer, exports) is built from the descriptors."""

from __future__ import annotations

import sys
import textwrap

import pytest

import companion.games as games_pkg
from companion.errors import LogError
from companion.games import games, get_rules, info, known
from companion.games.base import GameInfo

ALL = ["crazy_time", "time_stories", "times", "time_after_time", "professor_tempus",
       "scorepad", "stop_time"]


def test_every_engine_is_found_in_home_order():
    assert known() == ALL
    for name in ALL:
        rules = get_rules(name)
        assert rules.NAME == rules.GAME.name == name
        assert rules.GAME.title == rules.TITLE


def test_unknown_kind_is_named():
    with pytest.raises(LogError, match="unknown game kind 'chess'"):
        get_rules("chess")
    assert info("chess") is None


def test_screen_names_come_from_the_descriptor():
    assert info("crazy_time").screen_name == "crazy_time"
    assert info("stop_time").screen_name == "slap"
    assert info("scorepad").screen_name == "game"
    assert not info("stop_time").on_home


@pytest.fixture
def extra_game(tmp_path, monkeypatch):
    """A game package dropped into a folder on the package's search path."""
    pkg = tmp_path / "egg_timer"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent('''
        from companion.games.base import GameInfo
        GAME = GameInfo(name="egg_timer", title="Egg Timer", blurb="Three minutes",
                        order=35, screen="egg_screens:EggScreen")
        NAME = GAME.name
        TITLE = GAME.title
        def initial(setup): return {}
        def apply(state, action): return state
        def snapshot(state): return {}
    '''))
    monkeypatch.setattr(games_pkg, "__path__", [*games_pkg.__path__, str(tmp_path)])
    games_pkg._engines.cache_clear()
    yield "egg_timer"
    games_pkg._engines.cache_clear()
    sys.modules.pop("companion.games.egg_timer", None)


def test_adding_a_package_is_all_it_takes(extra_game):
    from companion.ui.presenters.home import home_games, title_of

    assert known().index("egg_timer") == known().index("times") + 1
    assert get_rules("egg_timer").TITLE == "Egg Timer"
    assert "Egg Timer" in [g.title for g in home_games()]
    assert title_of("egg_timer") == "Egg Timer"
    assert isinstance(info("egg_timer"), GameInfo)
    assert all(isinstance(g, GameInfo) for g in games())


def test_a_game_screen_is_registered_from_its_descriptor(extra_game):
    from companion.ui.screen_list import screens

    assert ("egg_timer", "egg_screens", "EggScreen") in screens()
    assert ("crazy_time", "companion.ui.screens.crazy_time", "CrazyTimeScreen") in screens()


def test_the_player_counts_come_from_the_descriptors():
    from companion.ui.presenters.players import SeatRow, setup_from_rows

    assert info("crazy_time").players == (4, 7) and info("time_after_time").players == (2, 4)
    rows = [SeatRow(s, "red", f"P{s}", True) for s in (1, 2, 3)]
    assert setup_from_rows("crazy_time", rows)[0] is None  # Crazy Time needs 4
    assert setup_from_rows("time_after_time", rows)[0] is not None


def test_an_added_game_brings_its_player_count(extra_game):
    from companion.ui.presenters.players import SeatRow, setup_from_rows

    rows = [SeatRow(s, "red", f"P{s}", True) for s in range(1, 9)]
    assert setup_from_rows("egg_timer", rows)[0] is not None  # the default: 1 to 8
