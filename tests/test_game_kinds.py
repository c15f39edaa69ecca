"""No module outside ``companion.games`` names a game: what differs from game to game is
the engine's answer (``outcome``, ``charts``, ``spoken``) or its descriptor (``GAME``).

Every product module outside ``companion/games`` is read (its syntax tree, so comments
and docstrings do not count) for a game's name: a comparison (``kind == "crazy_time"``,
``kind in ("stop_time", ...)``), a ``case``, a table keyed by it (``{"times": ...}``), a
default (``kind or "scorepad"``), anywhere. The one use allowed is naming an engine to
start or find it, as a call's argument (``get_rules("stop_time")``)."""

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


def named(source: str, names: set[str]) -> list[tuple[int, str]]:
    """``(line, game)`` for each string that is a game's name, anywhere but in a
    docstring or as a call's own argument (an engine named to start or find it)."""
    tree = ast.parse(source)
    allowed = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                allowed.add(id(body[0].value))
        elif isinstance(node, ast.Call):
            allowed.update(id(a) for a in node.args if isinstance(a, ast.Constant))
    return sorted((node.lineno, node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and node.value in names and id(node) not in allowed)


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


def test_the_scan_finds_a_game_named_anywhere_but_to_start_it():
    names = {"crazy_time", "stop_time", "scorepad"}
    source = ('"""scorepad in a docstring"""\n'
              'LINES = {"crazy_time": 1}\n'
              'kind = pending or "scorepad"\n'
              'BUTTONS = (("Stop Time!", "stop_time"),)\n'
              'rules = get_rules("stop_time")\n'
              'rows = log.games("crazy_time")\n'
              'def f():\n    """crazy_time"""\n')
    assert named(source, names) == [(2, "crazy_time"), (3, "scorepad"), (4, "stop_time")]


def _product_modules():
    for path in sorted(ROOT.rglob("*.py")):
        if path.relative_to(ROOT).parts[0] != "games":
            yield path, path.read_text(encoding="utf-8")


def test_no_module_outside_the_games_switches_on_a_games_kind():
    names = set(known())
    assert len(names) >= 7
    found = [f"{path.relative_to(ROOT.parent)}:{line}: compares with {name!r}"
             for path, source in _product_modules()
             for line, name in switches(source, names)]
    assert found == []


def test_no_module_outside_the_games_names_a_game():
    """A table keyed by game name (as the spoken lines were) or a game chosen by name
    as a default is a switch too: the engine or its descriptor says it instead."""
    names = set(known())
    found = [f"{path.relative_to(ROOT.parent)}:{line}: names {name!r}"
             for path, source in _product_modules()
             for line, name in named(source, names)]
    assert found == []
