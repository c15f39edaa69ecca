"""hardware/wiring.svg is drawn from the default config, and says what the config says."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from companion import wiring_svg
from companion.config import DEFAULT_CONFIG, load_config

SVG = Path(__file__).parent.parent / "hardware" / "wiring.svg"


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]


def test_the_committed_diagram_is_the_default_configs(config):
    assert SVG.read_text(encoding="utf-8") == wiring_svg.render(config), (
        "hardware/wiring.svg is out of step with companion/default_config.toml: "
        "python -m companion.wiring_svg -o hardware/wiring.svg")


def test_every_button_and_lamp_is_drawn_on_its_header_pin(config):
    labels = texts(wiring_svg.render(config))
    for seat in config.seats:
        assert f"GPIO{seat.button_pin}: seat {seat.seat} button (NO)" in labels
        assert any(t.startswith(f"GPIO{seat.lamp_pin}: seat {seat.seat} lamp") for t in labels)
    assert any(t.startswith(f"GPIO{config.captain_lamp_pin}: captain lamp (ULN2803A #2")
               for t in labels), "nine lamps need a second ULN2803A"
    assert labels.count("GND") + 1 == len([p for p, n in wiring_svg.POWER_PINS.items()
                                           if n == "GND"])


def test_another_config_gives_another_drawing(tmp_path):
    four = tmp_path / "four.toml"
    text = DEFAULT_CONFIG.read_text()
    cut = text.index("[[seats]]\nseat = 5")
    four.write_text(text[:cut] + text[text.index("[slap]"):])
    svg = wiring_svg.render(load_config(four))
    labels = texts(svg)
    assert "ULN2803A #2 (top view, notch up)" not in labels  # 4 seats + captain: one chip
    assert "5B ← GPIO21 (captain)" in labels
    assert "Table companion wiring: 4 seats (four.toml)" in labels


def test_the_header_map_is_the_40_pin_header():
    pins = list(wiring_svg.HEADER_PIN.values()) + list(wiring_svg.POWER_PINS)
    assert sorted(pins) == list(range(1, 41))
    assert sorted(wiring_svg.HEADER_PIN) == list(range(28))
    assert wiring_svg.HEADER_PIN[4] == 7 and wiring_svg.HEADER_PIN[21] == 40
