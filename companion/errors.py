"""One exception family for the whole project.

Every message names the thing at fault (file and key, seat, pin, log line), so that a
person at the table or at the terminal can fix it without reading code. A value quoted
in a message goes through ``clip`` first, so a five-megabyte value is never echoed whole.
"""

from __future__ import annotations

from typing import Any

#: How much of a quoted value a message shows.
CLIP_CHARS = 60


def clip(value: object, limit: int = CLIP_CHARS, *, plain: bool = False) -> str:
    """``repr(value)`` (``str`` with ``plain``), cut to ``limit`` characters with the full
    length said after it."""
    try:
        text = str(value) if plain else repr(value)
    except (RecursionError, ValueError):  # absurdly nested, or an int too long to print
        return f"<{type(value).__name__}>"
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"


class CompanionError(Exception):
    """Base of every error the companion raises on purpose."""


class ConfigError(CompanionError):
    """The hardware/config TOML is wrong: names the file, the key and the value."""


class RuleError(CompanionError):
    """An action that the game's rules do not allow; the state is left unchanged.

    A refusal is written once, where its rule is, with three parts:

    * ``code``: a stable identifier of the rule (``"time_stories.another_space"``), so a
      screen can offer the way out a rule has (a "Stay (1 TU) and start" button) and a
      test can name the refusal it expects without matching words;
    * ``fields``: the values the sentence names (names of players and characters, spaces,
      counts), for screens and spoken lines that want them apart;
    * ``sentence``: what the table is told, in plain words, naming people and things by
      their names. ``str(error)`` is the sentence, so any screen that shows the error
      shows the table's words.

    The sentence is a ``str.format`` template filled from the fields::

        raise RuleError("time_stories.locked_leave",
                        "The group cannot leave: the test at space {space} is locked.",
                        space="D")
    """

    def __init__(self, code: str, sentence: str, **fields: Any) -> None:
        self.code = code
        self.fields = fields
        self.sentence = sentence.format(**fields) if fields else sentence
        super().__init__(self.sentence)

    def __reduce__(self):  # keep pickling (multiprocessing, copy) working with fields
        return (_rebuild_rule_error, (self.code, self.sentence, self.fields))


def _rebuild_rule_error(code: str, sentence: str, fields: dict) -> RuleError:
    error = RuleError(code, sentence)
    error.fields = fields
    return error


class MalformedAction(CompanionError):
    """An action or a setup that is not well formed: a missing key, a value of the wrong
    type, an unknown action kind or option. No rule was broken: whatever built the
    action (a screen, a script, a damaged log) has a bug, and the message is for its
    developer (it names the action, the key and the value)."""


class LogError(CompanionError):
    """The game log (database or exported file) cannot be read or written as asked."""


class StorageError(LogError):
    """The storage under the game log failed (full, read-only, read or write errors).

    The log itself is not damaged and is never set aside for it. ``kind`` is ``"full"``,
    ``"readonly"`` or ``"io"``; ``advice`` says what a person can do about it; ``kept``
    ``uncertain`` is True only in the rare case where a refused write could not be
    confirmed gone from the log (the storage failed again while taking it back).
    """

    def __init__(self, message: str, kind: str = "io", advice: str = "",
                 uncertain: bool = False) -> None:
        super().__init__(message)
        self.kind, self.advice, self.uncertain = kind, advice, uncertain


class LinkError(CompanionError):
    """The Pico pad link failed: framing, version mismatch, unplugged device."""
