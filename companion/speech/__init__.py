"""The box speaks: verdicts, time units and warnings said aloud, offline.

* ``lines``: ``Line`` (sentence, short form, priority, tone) and the one-line waiting
  room ``LineSlot``;
* ``engines``: espeak-ng (always) and piper (when a voice model is installed);
* ``sinks``: ``aplay`` or WAV files (the kiosk plays through Kivy, like the cues:
  ``companion.ui.voice_output``);
* ``speaker``: the worker thread that survives crashed and hung engines;
* ``voice``: ``Voice`` and ``VoiceSettings``, what the app holds;
* ``device``: is there an audio output at all.

The sentences themselves are built by ``companion.ui.presenters.spoken`` and
``spoken_games`` from the names the table typed.
"""

from companion.speech.lines import INFO, URGENT, VERDICT, Line
from companion.speech.voice import Voice, VoiceSettings

__all__ = ["INFO", "URGENT", "VERDICT", "Line", "Voice", "VoiceSettings"]
