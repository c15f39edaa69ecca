"""The box's wiring diagram, drawn as SVG from the same config the code validates.

``hardware/wiring.svg`` is this module's output for ``companion/default_config.toml``;
``tests/test_wiring_svg.py`` keeps the two in step. For another box:

    python -m companion.wiring_svg --config box.toml -o box-wiring.svg

The drawing has the Pi's 40-pin header with physical pin numbers (3V3, 5 V, grounds and
every GPIO the config uses, in the seat's colour), each button's microswitch (COM to the
ground bus, NO to its GPIO) and lamp, and the ULN2803A driver(s) with their pinout: a
lamp GPIO drives an input (1B-8B, pins 1-8), the lamp's minus goes to the matching
output (1C-8C, pins 18-11), GND (pin 9) to the Pi's ground, COM (pin 10) to the lamp
supply: the Pi's 5 V for 5 V lamps, a 12 V supply (ground joined) for 12 V lamps.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from html import escape
from pathlib import Path

from companion.config import Config, config_path, load_config
from companion.palette import PALETTE

#: BCM GPIO number -> physical pin on the 40-pin header (Pi 4 and Pi 5 alike).
HEADER_PIN = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27,
              5: 29, 6: 31, 13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18,
              25: 22, 8: 24, 7: 26, 1: 28, 12: 32, 16: 36, 20: 38, 21: 40}
POWER_PINS = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V",
              **{p: "GND" for p in (6, 9, 14, 20, 25, 30, 34, 39)}}
GROUND_PIN, LAMP_5V_PIN = 6, 4
CAPTAIN_COLOUR = "#ffffff"
INK, PAPER, DIM = "#1b1f2a", "#ffffff", "#8a8f99"
WIDTH = 1460


@dataclass(frozen=True)
class Lamp:
    label: str
    gpio: int
    colour: str
    chip: int      # which ULN2803A (1, 2)
    channel: int   # 1-8: input pin = channel, output pin = 19 - channel


def lamps(config: Config) -> list[Lamp]:
    """Seat lamps in seat order, then the captain's: eight to a ULN2803A."""
    wanted = [(f"seat {s.seat}", s.lamp_pin, PALETTE[s.colour]) for s in config.seats
              if s.lamp_pin is not None]
    if config.captain_lamp_pin is not None:
        wanted.append(("captain", config.captain_lamp_pin, CAPTAIN_COLOUR))
    return [Lamp(label, gpio, colour, i // 8 + 1, i % 8 + 1)
            for i, (label, gpio, colour) in enumerate(wanted)]


def pin_roles(config: Config) -> dict[int, tuple[str, str]]:
    """Physical pin -> (label, colour) for every header pin the box uses or names."""
    roles = {pin: (name, DIM) for pin, name in POWER_PINS.items()}
    roles[GROUND_PIN] = ("GND: ground bus (buttons' COM, ULN2803A pin 9)", INK)
    roles[LAMP_5V_PIN] = ("5V: lamp supply for 5 V lamps (ULN2803A pin 10)", INK)
    for s in config.seats:
        roles[HEADER_PIN[s.button_pin]] = (f"GPIO{s.button_pin}: seat {s.seat} button (NO)",
                                           PALETTE[s.colour])
    if config.captain_button_pin is not None:
        roles[HEADER_PIN[config.captain_button_pin]] = (
            f"GPIO{config.captain_button_pin}: captain button (NO)", CAPTAIN_COLOUR)
    for lamp in lamps(config):
        roles[HEADER_PIN[lamp.gpio]] = (
            f"GPIO{lamp.gpio}: {lamp.label} lamp (ULN2803A #{lamp.chip} pin {lamp.channel})",
            lamp.colour)
    return roles


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, s: str, size: int = 13, anchor: str = "start",
             weight: str = "normal", fill: str = INK) -> None:
        self.add(f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
                 f'font-weight="{weight}" fill="{fill}">{escape(s)}</text>')

    def rect(self, x: float, y: float, w: float, h: float, fill: str = PAPER,
             stroke: str = INK, rx: float = 4) -> None:
        self.add(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" '
                 f'fill="{fill}" stroke="{stroke}"/>')

    def circle(self, x: float, y: float, r: float, fill: str, stroke: str = INK) -> None:
        self.add(f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{fill}" stroke="{stroke}"/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK,
             width: float = 2) -> None:
        self.add(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{stroke}" '
                 f'stroke-width="{width:g}"/>')


def _header(svg: _Svg, config: Config, x: float, y: float) -> None:
    svg.text(x + 270, y - 40, "Raspberry Pi 4 / 5: 40-pin header (pin 1 at the SD-card end)",
             15, "middle", "bold")
    svg.text(x + 270, y - 20, "physical pin numbers in the circles, BCM GPIO numbers in the "
             "labels", 12, "middle", fill=DIM)
    roles = pin_roles(config)
    svg.rect(x + 240, y - 8, 60, 20 * 22 + 4, fill="#2b2f3a")
    for pin in range(1, 41):
        row, right = (pin - 1) // 2, pin % 2 == 0
        cx, cy = x + (285 if right else 255), y + 6 + row * 22
        label, colour = roles.get(pin, ("", PAPER))
        used = pin in roles and pin not in POWER_PINS
        svg.circle(cx, cy, 9, colour if used else ("#d9d9d9" if pin in roles else "#555b66"))
        svg.text(cx, cy + 4, str(pin), 9, "middle", "bold")
        if label:
            lx = cx + 18 if right else cx - 18
            svg.text(lx, cy + 4, label, 12, "start" if right else "end",
                     "bold" if used or pin in (GROUND_PIN, LAMP_5V_PIN) else "normal")


def _chip(svg: _Svg, chip: int, chip_lamps: list[Lamp], x: float, y: float) -> None:
    svg.text(x + 80, y - 12, f"ULN2803A #{chip} (top view, notch up)", 14, "middle", "bold")
    svg.rect(x + 40, y, 80, 9 * 24 + 8, fill="#2b2f3a")
    by_channel = {lamp.channel: lamp for lamp in chip_lamps}
    for i in range(9):
        left_pin, right_pin = i + 1, 18 - i
        cy = y + 16 + i * 24
        svg.line(x + 25, cy, x + 40, cy)
        svg.line(x + 120, cy, x + 135, cy)
        svg.text(x + 52, cy + 4, str(left_pin), 11, fill=PAPER)
        svg.text(x + 108, cy + 4, str(right_pin), 11, "end", fill=PAPER)
        if left_pin <= 8:
            lamp = by_channel.get(left_pin)
            text = (f"{left_pin}B ← GPIO{lamp.gpio} ({lamp.label})" if lamp
                    else f"{left_pin}B: spare")
            svg.text(x + 20, cy + 4, text, 11, "end")
            out = by_channel.get(19 - right_pin)
            text = (f"{19 - right_pin}C → {out.label} lamp −" if out
                    else f"{19 - right_pin}C: spare")
            svg.text(x + 140, cy + 4, text, 11)
        else:
            svg.text(x + 20, cy + 4, "GND → ground bus", 11, "end", "bold")
            svg.text(x + 140, cy + 4, "COM → lamp supply +", 11, weight="bold")


def _button(svg: _Svg, x: float, y: float) -> None:
    svg.text(x, y, "Every button (seats and captain), seen from below", 15, weight="bold")
    svg.rect(x, y + 14, 200, 96, fill="#f4f4f4")
    svg.text(x + 100, y + 32, "microswitch", 12, "middle", "bold")
    for i, (name, note) in enumerate((("COM", "→ ground bus (header pin 6)"),
                                      ("NO", "→ the seat's button GPIO"),
                                      ("NC", "not connected"))):
        cy = y + 52 + i * 22
        svg.circle(x + 20, cy, 6, PAPER)
        svg.text(x + 34, cy + 4, name, 12, weight="bold")
        svg.text(x + 212, cy + 4, note, 12)
    svg.rect(x, y + 122, 200, 60, fill="#f4f4f4")
    svg.text(x + 100, y + 140, "lamp (LED holder)", 12, "middle", "bold")
    for i, (name, note) in enumerate((("+", "→ lamp supply + (5 V: header pin 4; 12 V: supply +)"),
                                      ("−", "→ its ULN2803A output (nC)"))):
        cy = y + 158 + i * 18
        svg.circle(x + 20, cy - 2, 6, PAPER)
        svg.text(x + 34, cy + 2, name, 13, weight="bold")
        svg.text(x + 212, cy + 2, note, 12)


NOTES = (
    "Pressed = NO closes to ground: the pin's internal pull-up holds it high at rest (no",
    "resistor, no capacitor); with wires longer than about 1 m add 4.7 kΩ from the pin to 3V3.",
    "5 V lamps: supply + is header pin 4 (LED lamps draw 10-20 mA each: 9 lamps ≈ 180 mA).",
    "12 V lamps: a separate 12 V supply; its + to the lamps and ULN2803A pin 10, its − joined",
    "to the ground bus. Never 12 V on a header pin. A high GPIO lights the lamp.",
)


def render(config: Config) -> str:
    """The wiring diagram for ``config`` as an SVG document (deterministic text)."""
    chips = sorted({lamp.chip for lamp in lamps(config)})
    height = max(560 + 60, 120 + len(chips) * 290 + 250)
    svg = _Svg()
    svg.text(40, 40, f"Table companion wiring: {len(config.seats)} seats "
             f"({config.path.name})", 20, weight="bold")
    _header(svg, config, 120, 110)
    for i, chip in enumerate(chips):
        _chip(svg, chip, [lamp for lamp in lamps(config) if lamp.chip == chip],
              1100, 120 + i * 290)
    _button(svg, 40, 600)
    for i, note in enumerate(NOTES):
        svg.text(820, 120 + len(chips) * 290 + 20 + i * 20, note, 12)
    body = "\n".join(svg.parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Arial, sans-serif">\n'
            f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>\n{body}\n</svg>\n')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="draw the box's wiring as SVG")
    parser.add_argument("--config", help="hardware config (default: the built-in one)")
    parser.add_argument("-o", "--output", help="SVG file to write (default: standard output)")
    args = parser.parse_args(argv)
    text = render(load_config(config_path(args.config)))
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
