"""Is cage's output the home screen, filling the display? One answer for the kiosk tests.

Reads a binary PPM (``grim -t ppm``) and judges it as a person across the table would:
the output has the display's size, hardly any of it is black (a window in a corner of a
larger output leaves the rest black), and the home screen's nine game tiles are lit where
the layout puts them at any size (three columns, three rows below the two top bars).

Used by tests/deploy/test_cage.py (imported) and tests/boot/boot-test.sh
(``python3 tests/screen_check.py FRAME.ppm 800x480``: exit status 0 when it is).
Standard library only: the boot test runs it with the host's python3.
"""

from __future__ import annotations

import sys
from pathlib import Path

#: Where a tile's top-left corner area is, as fractions of the width and the height.
TILE_SPOTS = [(fx, fy) for fx in (0.04, 0.37, 0.70) for fy in (0.36, 0.56, 0.76)]


def read_ppm(path: Path) -> tuple[int, int, bytes]:
    """Width, height and the RGB bytes of an 8-bit binary PPM."""
    data = Path(path).read_bytes()
    magic, width, height, maxval, rest = data.split(maxsplit=4)
    if magic != b"P6" or maxval != b"255":
        raise ValueError(f"{path}: not an 8-bit binary PPM")
    w, h = int(width), int(height)
    return w, h, rest[:w * h * 3]


def judge(path: Path, screen: tuple[int, int]) -> tuple[bool, str]:
    """(whether the frame is the home screen filling ``screen``, a line saying why)."""
    w, h, rgb = read_ppm(path)

    def px(x: int, y: int) -> bytes:
        i = (y * w + x) * 3
        return rgb[i:i + 3]

    sample = [px(x, y) for y in range(0, h, 4) for x in range(0, w, 4)]
    drawn = sum(p != b"\0\0\0" for p in sample) / len(sample)
    lit = sum(sum(px(int(w * fx), int(h * fy))) > 3 * 0x20 for fx, fy in TILE_SPOTS)
    good = (w, h) == screen and drawn > 0.95 and lit == len(TILE_SPOTS)
    return good, (f"output {w}x{h} (the display {screen[0]}x{screen[1]}), {drawn:.0%} not "
                  f"black, {lit} of {len(TILE_SPOTS)} home tiles where they belong")


if __name__ == "__main__":
    size = tuple(int(v) for v in sys.argv[2].split("x"))
    good, line = judge(Path(sys.argv[1]), (size[0], size[1]))
    print(f"  {line}")
    sys.exit(0 if good else 1)
