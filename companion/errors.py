"""One exception family for the whole project.

Every message names the thing at fault (file and key, seat, pin, log line), so that a
person at the table or at the terminal can fix it without reading code.
"""


class CompanionError(Exception):
    """Base of every error the companion raises on purpose."""


class ConfigError(CompanionError):
    """The hardware/config TOML is wrong: names the file, the key and the value."""


class RuleError(CompanionError):
    """An action that the game's rules do not allow; the state is left unchanged."""


class LogError(CompanionError):
    """The game log (database or exported file) cannot be read or written as asked."""


class LinkError(CompanionError):
    """The Pico pad link failed: framing, version mismatch, unplugged device."""
