"""Reading one table of a TOML config file strictly: ``TableReader``.

Used by ``companion.config`` (the box's hardware tables) and
``companion.venue.settings`` (the ``[venue]`` table), which ``config`` calls: this
module imports neither, so the two do not import each other. An unknown key, a wrong
type or a value out of range is a ``ConfigError`` naming ``file: table.key = value``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.errors import ConfigError, clip


class TableReader:
    """Reads one TOML table, checking keys and types, naming ``file: key = value``."""

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

    def pin(self, name: str, valid: range, optional: bool = False) -> int | None:
        """A pin number in ``valid`` (None when ``optional`` and absent)."""
        if optional and name not in self.table:
            return None
        return self.get(name, int, lo=valid.start, hi=valid.stop - 1)
