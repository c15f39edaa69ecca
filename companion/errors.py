"""One exception family for the whole project.

Every message names the thing at fault (file and key, seat, pin, log line), so that a
person at the table or at the terminal can fix it without reading code.
"""

from __future__ import annotations

from typing import Any


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


class LinkError(CompanionError):
    """The Pico pad link failed: framing, version mismatch, unplugged device."""
