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
from typing import Any

from companion.errors import ConfigError, clip
from companion.palette import PALETTE

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
    venue: Any = None  # companion.venue.settings.VenueConfig when [venue] is present

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


class TableReader:
    """Reads one TOML table, checking keys and types, naming ``file: key = value`` (the
    config's tables here, and venue mode's in ``venue/settings.py``)."""

    def __init__(self, path: Path, table: Any, where: str, allowed: set[str]) -> None:
        self.path, self.where = path, where
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: [{where}] must be a table, not {clip(table)}")
        unknown = sorted(set(table) - allowed)
        if unknown:
            raise ConfigError(
                f"{path}: unknown key {self.key(unknown[0])} "
                f"(allowed: {', '.join(sorted(allowed))})"
            )
        self.table = table

    def key(self, name: str) -> str:
        name = name if len(name) <= 40 and name.isprintable() else clip(name, 40)
        return f"{self.where}.{name}" if self.where else name

    def fail(self, name: str, why: str) -> ConfigError:
        return ConfigError(f"{self.path}: {self.key(name)} = {clip(self.table.get(name))}: "
                           f"{why}")

    def get(self, name: str, kind: type | tuple[type, ...], default: Any = ..., *,
            lo: float | None = None, hi: float | None = None) -> Any:
        if name not in self.table:
            if default is ...:
                raise ConfigError(f"{self.path}: missing key {self.key(name)}")
            return default
        value = self.table[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(name, f"must be {' or '.join(k.__name__ for k in kinds)}")
        if not isinstance(value, kinds):
            raise self.fail(name, f"must be {' or '.join(k.__name__ for k in kinds)}")
        if isinstance(value, float) and value != value:  # NaN compares false to any bound
            raise self.fail(name, "must be a number")
        if lo is not None and value < lo or hi is not None and value > hi:
            raise self.fail(name, f"must be between {lo} and {hi}")
        return value

    def pin(self, name: str, optional: bool = False) -> int | None:
        if optional and name not in self.table:
            return None
        return self.get(name, int, lo=VALID_PINS.start, hi=VALID_PINS.stop - 1)


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
        seats.append(SeatConfig(r.get("seat", int, lo=1, hi=8), r.pin("button_pin"),
                                r.pin("lamp_pin", optional=True), colour))

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
    pins = [(f"captain.{k}", captain.pin(k, optional=True)) for k in ("button_pin", "lamp_pin")]
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
    from companion.venue.settings import parse_venue  # venue mode (issue 16): opt-in

    venue = parse_venue(data.get("venue"), path)
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
