"""The import structure: no two product modules import each other, directly or lazily.

Each module's ``companion`` imports are read from its source (top-level and inside
functions alike), so a circle hidden behind a lazy import is found too."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import companion

ROOT = Path(companion.__file__).parent


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    known = {_module(p) for p in ROOT.rglob("*.py")}
    out: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        me, found = _module(path), set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # ``from package import module`` imports the module, not the package's names
                names = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in known
                         else node.module for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            found |= {n for n in names if n in known and n != me}
        out[me] = found
    return out


def test_no_two_product_modules_import_each_other():
    graph = _imports()
    pairs = sorted({tuple(sorted((a, b))) for a, deps in graph.items() for b in deps
                    if a in graph.get(b, set())})
    assert pairs == []


def test_config_and_the_venue_settings_are_no_circle():
    graph = _imports()
    assert "companion.config" not in graph["companion.venue.settings"]
    assert "companion.venue.settings" in graph["companion.config"]


def test_the_venue_server_loads_no_ui_module():
    """The venue runs on a machine without a screen: importing its server (in a fresh
    interpreter, so nothing imported by other tests counts) loads no ``companion.ui``."""
    code = ("import sys, companion.venue.server\n"
            "print(sorted(m for m in sys.modules if m.startswith(('companion.ui', 'kivy'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT.parent, timeout=120)
    assert out.stdout.strip() == "[]"


def test_the_theme_and_the_presenters_load_without_kivy():
    """Presenters turn state into view data with the theme's colours and sizes, and are
    tested without a window: importing them (fresh interpreter) loads no Kivy."""
    code = ("import sys, pkgutil, importlib, companion.ui.theme, companion.ui.presenters as p\n"
            "for m in pkgutil.iter_modules(p.__path__):\n"
            "    importlib.import_module('companion.ui.presenters.' + m.name)\n"
            "print(sorted(m for m in sys.modules if m.startswith('kivy')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT.parent, timeout=120)
    assert out.stdout.strip() == "[]"


def test_no_product_code_relies_on_assert():
    # The box runs Python with PYTHONOPTIMIZE=1 (systemd/table-companion.service), which
    # drops assert statements: a check the product needs must be an `if ... raise`.
    found = [f"{path.relative_to(ROOT.parent)}:{node.lineno}"
             for path in ROOT.rglob("*.py")
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Assert)]
    assert found == []
