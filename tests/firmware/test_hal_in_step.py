"""FakeHal (companion/pad/fakehal.py) keeps firmware/hal.py's Hal interface: the same
public methods with the same parameters, the same data attributes, and everything the
firmware core asks of a hal. (hal.py imports ``machine``, so it is read with ``ast``.)"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from companion.pad.fakehal import DRIVER_METHODS, FIRMWARE_DIR, FakeHal

HAL = ast.parse((FIRMWARE_DIR / "hal.py").read_text())


def _class(tree: ast.Module, name: str) -> ast.ClassDef:
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)


def _hal_methods() -> dict[str, list[str]]:
    out = {}
    for node in _class(HAL, "Hal").body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            out[node.name] = [a.arg for a in node.args.args[1:]]
    return out


def _hal_attributes() -> set[str]:
    init = next(n for n in _class(HAL, "Hal").body
                if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    return {t.attr for n in ast.walk(init) if isinstance(n, ast.Assign) for t in n.targets
            if isinstance(t, ast.Attribute) and not t.attr.startswith("_")}


def _fake_methods() -> dict[str, list[str]]:
    return {name: list(inspect.signature(fn).parameters)[1:]
            for name, fn in inspect.getmembers(FakeHal, inspect.isfunction)
            if not name.startswith("_") and name not in DRIVER_METHODS}


def _core_uses() -> set[str]:
    tree = ast.parse((FIRMWARE_DIR / "core.py").read_text())
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, (ast.Name, ast.Attribute)):
            base = node.value
            name = base.id if isinstance(base, ast.Name) else base.attr
            if name == "hal":
                used.add(node.attr)
    return used


def test_same_public_methods_with_the_same_parameters():
    assert _fake_methods() == _hal_methods()


def test_same_data_attributes():
    fake = {name for name in vars(FakeHal(4)) if not name.startswith("_")}
    assert _hal_attributes() <= fake, _hal_attributes() - fake


def test_everything_the_core_asks_of_a_hal_is_in_both():
    used = _core_uses()
    assert {"setup", "now_us", "read_seats", "read_edges", "capture", "sample_ns"} <= used
    assert used <= set(_hal_methods()) | _hal_attributes()
    assert all(hasattr(FakeHal(4), name) for name in used)


def test_the_simulator_side_is_only_on_the_fake():
    for name in DRIVER_METHODS:
        assert hasattr(FakeHal, name) and name not in _hal_methods()


def test_this_test_would_notice_a_drift(monkeypatch):
    monkeypatch.setattr(FakeHal, "read_edges", lambda self, extra: None)
    assert _fake_methods() != _hal_methods()
    assert Path(FIRMWARE_DIR / "hal.py").is_file()
