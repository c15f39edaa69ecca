"""The kv and Python files of the UI take colours and sizes from ``companion.ui.theme``
only: no bare RGBA tuple, no literal font size, no bare size in px.

What the scan accepts, for a colour key (``rgba``, ``color``, ``tint``, ``shade`` …): a
value without a numeric tuple (``theme.GO``, ``theme.dimmed(self.tint)``,
``root.headline_colour``). For a size key (``font_size``, ``height``, ``width``,
``size``, ``padding``, ``spacing``, ``radius``): no plain number or list of numbers
(``72``, ``6, 0``), and no ``dp(N)`` / ``sp(N)`` of a number of 12 or more (a tile's
own gap of ``dp(4)`` reads as what it is; a button's 72 must be ``theme.BUTTON_H``).
In Python: no RGBA tuple literal and no ``font_size=<number>``.

Files: ``CHECKED_KV`` and ``CHECKED_PY`` are checked, and every kv file under
companion/ui must be in ``CHECKED_KV``, so that a new kv file is never left out.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parents[2] / "companion" / "ui"

CHECKED_KV = sorted([
    "app.kv", "widgets.kv", "modal.kv", "name_entry.kv", "storage_problem.kv",
    "screens/home.kv", "screens/history.kv", "screens/players.kv", "screens/settings.kv",
    "screens/slap.kv", "screens/voice_panel.kv",
    "screens/captain_die.kv", "screens/crazy_time.kv", "screens/crazy_time_panels.kv",
    "screens/game.kv", "screens/professor_tempus.kv", "screens/time_after_time.kv",
    "screens/time_stories.kv", "screens/timer.kv", "screens/times.kv",
    "screens/times_panels.kv",
])
CHECKED_PY = sorted([
    "app.py", "widgets.py", "modal.py", "name_entry.py", "storage_problem.py",
    "screens/home.py", "screens/history.py", "screens/players.py", "screens/settings.py",
    "screens/slap.py", "screens/slap_widgets.py", "screens/voice_panel.py",
    "presenters/home.py", "presenters/history.py", "presenters/players.py",
    "presenters/settings.py", "presenters/voice_settings.py",
    "screens/captain_die.py", "screens/crazy_time.py", "screens/crazy_time_panels.py",
    "screens/game.py", "screens/professor_tempus.py", "screens/time_after_time.py",
    "screens/time_stories.py", "screens/timer.py",
    "screens/times.py", "screens/times_panels.py",
    "presenters/crazy_time.py", "presenters/crazy_time_view.py",
    "presenters/professor_tempus.py", "presenters/time_after_time.py",
    "presenters/time_stories.py", "presenters/time_stories_items.py",
    "presenters/time_stories_setup.py",
])

COLOUR_KEYS = {"rgba", "color", "colour", "background_color", "tint", "shade",
               "disabled_color", "outline_color", "fill", "selection_color",
               "foreground_color", "hint_text_color", "cursor_color"}
SIZE_KEYS = {"font_size", "height", "width", "size", "padding", "spacing", "radius"}
TUPLE = re.compile(r"\d*\.?\d+\s*,\s*\d*\.?\d+\s*,\s*\d*\.?\d+")
NUMBERS = re.compile(r"^\s*\[?\s*-?\d+(\.\d+)?(\s*,\s*-?\d+(\.\d+)?)*\s*\]?\s*$")
BIG_UNIT = re.compile(r"\b[ds]p\(\s*(\d+(\.\d+)?)\s*\)")
KV_LINE = re.compile(r"^\s*([a-z_]+)\s*:\s*(.+?)\s*$")
_F = r"\s*[01]?\.?\d*\s*"
PY_TUPLE = re.compile(r"\(" + ",".join([_F] * 4) + r"\)")
PY_FONT = re.compile(r"font_size\s*=\s*\d")


def kv_faults(text: str) -> list[str]:
    """Each line of kv ``text`` that sets a colour or a size without the theme."""
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        code = line.split("#", 1)[0] if not line.lstrip().startswith("#:") else ""
        m = KV_LINE.match(code)
        if not m:
            continue
        key, value = m.groups()
        if key in COLOUR_KEYS and TUPLE.search(value):
            out.append(f"{n}: bare colour: {line.strip()}")
        if key in SIZE_KEYS:
            big = [u for u in BIG_UNIT.findall(value) if float(u[0]) >= 12]
            if NUMBERS.match(value) and value.strip() not in ("0", "0, 0"):
                out.append(f"{n}: bare size: {line.strip()}")
            elif big or _loose_numbers(value):
                out.append(f"{n}: a size in numbers: {line.strip()}")
    return out


LOOSE = re.compile(r"(?<![\w.\[])(\d+(\.\d+)?)(?![\w.(])")


def _loose_numbers(value: str) -> list[str]:
    """Numbers of 12 or more in a size expression, outside dp()/sp() and not compared
    with (``len(text) < 30`` counts letters, not pixels)."""
    bare = BIG_UNIT.sub("", value)
    out = []
    for m in LOOSE.finditer(bare):
        before = bare[:m.start()].rstrip()
        if float(m.group(1)) >= 12 and not before.endswith(("<", ">", "=")):
            out.append(m.group(1))
    return out


def py_faults(text: str) -> list[str]:
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        code = line.split("#", 1)[0]
        if PY_TUPLE.search(code) and not code.lstrip().startswith(("return", "def ")):
            out.append(f"{n}: bare colour: {line.strip()}")
        if PY_FONT.search(code):
            out.append(f"{n}: literal font size: {line.strip()}")
    return out


@pytest.mark.parametrize("name", CHECKED_KV)
def test_every_kv_file_takes_its_colours_and_sizes_from_the_theme(name):
    faults = kv_faults((UI / name).read_text(encoding="utf-8"))
    assert not faults, f"{name}:\n" + "\n".join(faults)


@pytest.mark.parametrize("name", CHECKED_PY)
def test_every_checked_python_file_writes_no_colour_or_font_size(name):
    faults = py_faults((UI / name).read_text(encoding="utf-8"))
    assert not faults, f"{name}:\n" + "\n".join(faults)


def test_every_kv_file_is_checked():
    every = sorted(str(p.relative_to(UI)) for p in UI.rglob("*.kv"))
    assert every == CHECKED_KV


def test_the_scan_finds_what_it_forbids_and_accepts_theme_names():
    bad = ("<X>:\n    color: 1, 0.85, 0.4, 1\n    font_size: 28\n    height: 72\n"
           "    padding: 6, 0\n    width: dp(130)\n    rgba: (0.1, 0.2, 0.3, 1)\n")
    assert len(kv_faults(bad)) == 6
    assert len(kv_faults("    size: (64, 64) if x else (0, 64)\n"
                         "    height: max(30, self.texture_size[1] + 4)\n")) == 2
    good = ("<X>:\n    color: theme.NEWS\n    font_size: sp(theme.TEXT)\n"
            "    height: dp(theme.BUTTON_H) + dp(4)\n    padding: dp(theme.GAP), 0\n"
            "    size_hint: None, None\n    rgba: theme.dimmed(self.tint)\n"
            "    width: self.texture_size[0] + dp(8)\n"
            "    font_size: sp(theme.TEXT) if len(self.text) < 30 else sp(theme.SMALL)\n")
    assert kv_faults(good) == []
    assert py_faults("x = Label(font_size=22, color=(0.9, 0.8, 0.8, 1))\n") != []
    assert py_faults("x = Label(font_size=sp(theme.SMALL), color=theme.NEWS)\n") == []

