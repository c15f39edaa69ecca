"""The theme's colours say what a button is: a disabled one never looks like a live one."""

from __future__ import annotations

import colorsys

import pytest

from companion.ui import theme

LIVE = {"GO": theme.GO, "BUTTON": theme.BUTTON}


@pytest.mark.parametrize("name", sorted(LIVE))
def test_a_disabled_button_is_greyer_and_darker_than_any_live_one(name):
    h, light, sat = colorsys.rgb_to_hls(*theme.dimmed(LIVE[name])[:3])
    live = [colorsys.rgb_to_hls(*c[:3]) for c in LIVE.values()]
    assert sat <= 0.25 * colorsys.rgb_to_hls(*LIVE[name][:3])[2] + 0.05
    assert all(light < other[1] for other in live)
    assert theme.dimmed(LIVE[name])[3] == LIVE[name][3]
