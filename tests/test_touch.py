"""Touchscreen detection from the kernel's input device list."""

from __future__ import annotations

from companion import touch

DEVICES = """I: Bus=0019 Vendor=0000 Product=0000 Version=0000
N: Name="pwr_button"
H: Handlers=kbd event0
B: PROP=0
B: EV=3

I: Bus=0018 Vendor=0000 Product=0000 Version=0000
N: Name="raspberrypi-ts"
H: Handlers=event4
B: PROP=2
B: EV=b
B: ABS=2608000 3

I: Bus=0003 Vendor=046d Product=c077 Version=0111
N: Name="Logitech USB Optical Mouse"
H: Handlers=mouse0 event5
B: PROP=0
B: EV=17
B: REL=1803
"""


def test_the_official_display_is_found_and_a_mouse_is_not(tmp_path):
    path = tmp_path / "devices"
    path.write_text(DEVICES)
    assert touch.touchscreens(path) == [touch.Touchscreen("raspberrypi-ts", "event4")]
    assert touch.summary(touch.touchscreens(path)) == "raspberrypi-ts (/dev/input/event4)"


def test_no_touchscreen_is_a_sentence_about_the_cable(tmp_path):
    path = tmp_path / "devices"
    path.write_text(DEVICES.split("\n\n")[0])
    assert touch.touchscreens(path) == []
    assert touch.touchscreens(tmp_path / "absent") == []
    assert "ribbon cable" in touch.summary([])
