"""The theme's colours say what a button is: a disabled one never looks like a live one.

``companion.ui.theme`` imports Kivy, so it is imported inside the test once the ``ui``
fixture has prepared Kivy: imported first, Kivy would set itself up with its defaults and
every window test after it would lay out at the wrong sizes."""

from __future__ import annotations

import colorsys

import pytest

pytestmark = pytest.mark.window


@pytest.mark.parametrize("name", ["GO", "BUTTON", "MAIN", "ALARM"])
def test_a_disabled_button_is_greyer_and_darker_than_any_live_one(ui, name):
    from companion.ui import theme

    live = {n: getattr(theme, n) for n in ("GO", "BUTTON", "MAIN", "ALARM")}
    _h, light, sat = colorsys.rgb_to_hls(*theme.dimmed(live[name])[:3])
    assert sat <= 0.25 * colorsys.rgb_to_hls(*live[name][:3])[2] + 0.05
    assert all(light < colorsys.rgb_to_hls(*c[:3])[1] for c in live.values())
    assert theme.dimmed(live[name])[3] == live[name][3]
