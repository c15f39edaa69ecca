"""The hardware config: one TOML file, loaded into frozen dataclasses and validated.

Where it comes from, first match wins: ``--config PATH``, the ``COMPANION_CONFIG``
environment variable, the default shipped beside this module (``default_config.toml``).

Validation is strict because a wiring mistake found at start-up costs a minute and one
found mid-game costs the game: an unknown key, a wrong type, a value out of range, a pin
used twice or a seat listed twice is a ``ConfigError`` whose message names the file, the
key and the value (values and keys cut to a readable length). Any failure of the TOML
parser, absurd nesting included, is a ``ConfigError`` naming the file, and a file larger
than any config (``MAX_CONFIG_BYTES``) is refused before it is parsed. Loading never
writes anything.

    cfg = load_config(Path("box.toml"))
    for seat in cfg.seats:
        print(seat.seat, seat.button_pin, seat.colour)
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import ConfigError, clip
from companion.palette import PALETTE
from companion.tomltable import TableReader
from companion.venue.settings import VenueConfig, parse_venue

#: A config for eight seats is a few kilobytes.
MAX_CONFIG_BYTES = 256 * 1024
DEFAULT_CONFIG = Path(__file__).with_name("default_config.toml")
FACTORIES = ("auto", "lgpio", "rpigpio", "native", "mock", "keyboard")
#: BCM GPIO numbers a Pi header offers for buttons and lamps.
VALID_PINS = range(0, 28)


@dataclass(frozen=True, slots=True)
class SeatConfig:
    seat: int
    button_pin: int
    lamp_pin: int | None
    colour: str


@dataclass(frozen=True, slots=True)
class SlapConfig:
    holdoff_ms: float = 20.0
    timeout_ms: float = 2500.0
    stuck_ms: float = 1500.0


@dataclass(frozen=True, slots=True)
class PadConfig:
    enabled: bool = False
    port: str = ""


@dataclass(frozen=True, slots=True)
class Config:
    path: Path
    factory: str
    seats: tuple[SeatConfig, ...]
    captain_button_pin: int | None
    captain_lamp_pin: int | None
    slap: SlapConfig = field(default_factory=SlapConfig)
    pad: PadConfig = field(default_factory=PadConfig)
    muted: bool = False
    fullscreen: bool = False
    venue: VenueConfig | None = None  # when the config has a [venue] table

    def seat(self, number: int) -> SeatConfig:
        for s in self.seats:
            if s.seat == number:
                return s
        raise ConfigError(f"{self.path}: no seat {number} in [[seats]]")


def config_path(cli_path: str | os.PathLike | None = None) -> Path:
    """The config file in force: the CLI flag, then COMPANION_CONFIG, then the default."""
    if cli_path:
        return Path(cli_path)
    env = os.environ.get("COMPANION_CONFIG")
    return Path(env) if env else DEFAULT_CONFIG


def load_config(path: Path | None = None) -> Config:
    """Read and validate a config file; ConfigError names the file, key and value."""
    path = Path(path) if path is not None else config_path()
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file "
                          f"({exc.strerror or exc})") from exc
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES // 1024} KB, which no "
                          "config file is; is it the right file?")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not a text file in UTF-8 (byte {exc.start})") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {clip(exc, 200, plain=True)}") from exc
    except RecursionError as exc:
        raise ConfigError(f"{path}: not a config this companion can read (nested too "
                          "deeply)") from exc
    except (ValueError, MemoryError) as exc:  # any other refusal of the parser
        raise ConfigError(f"{path}: not a config this companion can read "
                          f"({clip(exc, 200, plain=True)})") from exc
    return parse_config(data, path)


def parse_config(data: dict, path: Path) -> Config:
    """Validate already-parsed TOML data (``load_config`` reads the file first)."""
    top = TableReader(path, data, "",
                  {"board", "captain", "seats", "slap", "pad", "sound", "ui", "venue"})
    board = TableReader(path, data.get("board", {}), "board", {"factory"})
    factory = board.get("factory", str, "auto")
    if factory not in FACTORIES:
        raise board.fail("factory", f"must be one of {', '.join(FACTORIES)}")

    captain = TableReader(path, data.get("captain", {}), "captain", {"button_pin", "lamp_pin"})
    seats_raw = top.get("seats", list)
    if not 2 <= len(seats_raw) <= 8:
        raise ConfigError(f"{path}: [[seats]] lists {len(seats_raw)} seats; a box has 2 to 8")
    seats = []
    for i, raw in enumerate(seats_raw):
        r = TableReader(path, raw, f"seats[{i}]", {"seat", "button_pin", "lamp_pin", "colour"})
        colour = r.get("colour", str)
        if colour not in PALETTE:
            raise r.fail("colour", f"must be one of {', '.join(PALETTE)}")
        seats.append(SeatConfig(r.get("seat", int, lo=1, hi=8), r.pin("button_pin", VALID_PINS),
                                r.pin("lamp_pin", VALID_PINS, optional=True), colour))

    colours: dict[str, int] = {}
    for i, seat in enumerate(seats):
        if seat.colour in colours:
            raise ConfigError(f"{path}: seats[{i}].colour = {clip(seat.colour)}: seat "
                              f"{colours[seat.colour]} has that colour already")
        colours[seat.colour] = seat.seat
    used: dict[int, str] = {}
    numbers: set[int] = set()
    for i, s in enumerate(seats):
        if s.seat in numbers:
            raise ConfigError(f"{path}: seats[{i}].seat = {s.seat}: seat listed twice")
        numbers.add(s.seat)
    pins = [(f"captain.{k}", captain.pin(k, VALID_PINS, optional=True))
            for k in ("button_pin", "lamp_pin")]
    for i, s in enumerate(seats):
        pins += [(f"seats[{i}].button_pin", s.button_pin), (f"seats[{i}].lamp_pin", s.lamp_pin)]
    for key, pin in pins:
        if pin is None:
            continue
        if pin in used:
            raise ConfigError(f"{path}: {key} = {pin}: GPIO{pin} is already used by {used[pin]}")
        used[pin] = key

    slap_r = TableReader(path, data.get("slap", {}), "slap",
                         {"holdoff_ms", "timeout_ms", "stuck_ms"})
    slap = SlapConfig(
        holdoff_ms=slap_r.get("holdoff_ms", (int, float), 20.0, lo=0, hi=200),
        timeout_ms=slap_r.get("timeout_ms", (int, float), 2500.0, lo=200, hi=30000),
        stuck_ms=slap_r.get("stuck_ms", (int, float), 1500.0, lo=100, hi=60000),
    )
    if slap.holdoff_ms >= slap.timeout_ms:
        raise ConfigError(f"{path}: slap.holdoff_ms = {clip(slap.holdoff_ms)} must be "
                          f"shorter than slap.timeout_ms = {clip(slap.timeout_ms)}")
    pad_r = TableReader(path, data.get("pad", {}), "pad", {"enabled", "port"})
    pad = PadConfig(pad_r.get("enabled", bool, False), pad_r.get("port", str, ""))
    sound = TableReader(path, data.get("sound", {}), "sound", {"muted"})
    ui = TableReader(path, data.get("ui", {}), "ui", {"fullscreen"})
    venue = parse_venue(data.get("venue"), path)  # venue mode (issue 16): opt-in
    return Config(
        path=path,
        factory=factory,
        seats=tuple(sorted(seats, key=lambda s: s.seat)),
        captain_button_pin=pins[0][1],
        captain_lamp_pin=pins[1][1],
        slap=slap,
        pad=pad,
        muted=sound.get("muted", bool, False),
        fullscreen=ui.get("fullscreen", bool, False),
        venue=venue,
    )
