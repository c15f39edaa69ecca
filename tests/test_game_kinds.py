"""No module outside ``companion.games`` switches on a game's kind: what differs from game
to game is the engine's answer (``outcome``, ``charts``) or its descriptor (``GAME``).

Every product module outside ``companion/games`` is read (its syntax tree, so comments
and docstrings do not count) for a comparison of anything with a game's name (``kind ==
"crazy_time"``, ``NAME != "scorepad"``, ``kind in ("stop_time", ...)``) or a ``case``
on one. Naming an engine to start it (``get_rules("stop_time")``) is not a switch."""

from __future__ import annotations

import ast
from pathlib import Path

import companion
from companion.games import known

ROOT = Path(companion.__file__).parent


def _game_names(node: ast.AST, names: set[str]) -> set[str]:
    if isinstance(node, ast.Constant) and node.value in names:
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return {e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in names}
    return set()


def switches(source: str, names: set[str]) -> list[tuple[int, str]]:
    """``(line, game)`` for each comparison with, or ``case`` on, a game's name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                found += [(node.lineno, name) for name in _game_names(side, names)]
        elif isinstance(node, ast.MatchValue):
            found += [(node.lineno, name) for name in _game_names(node.value, names)]
    return sorted(found)


def test_the_scan_finds_each_form_of_switch():
    names = {"crazy_time", "stop_time"}
    source = ('if kind == "crazy_time": pass\n'
              'ok = rules.NAME != "stop_time"\n'
              'if kind in ("stop_time", "other"): pass\n'
              'match kind:\n    case "crazy_time": pass\n'
              'rules = get_rules("stop_time")\n'
              '"""kind == \'crazy_time\' in a docstring"""\n')
    assert switches(source, names) == [(1, "crazy_time"), (2, "stop_time"), (3, "stop_time"),
                                       (5, "crazy_time")]


def test_no_module_outside_the_games_switches_on_a_games_kind():
    names = set(known())
    assert len(names) >= 7
    found = [f"{path.relative_to(ROOT.parent)}:{line}: compares with {name!r}"
             for path in sorted(ROOT.rglob("*.py"))
             if path.relative_to(ROOT).parts[0] != "games"
             for line, name in switches(path.read_text(encoding="utf-8"), names)]
    assert found == []
