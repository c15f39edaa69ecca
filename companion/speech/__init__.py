"""The box speaks: verdicts, time units and warnings said aloud, offline.

* ``lines``: ``Line`` (sentence, short form, priority, tone) and the one-line waiting
  room ``LineSlot``;
* ``engines``: espeak-ng (always) and piper (when a voice model is installed);
* ``sinks``: ``aplay`` or WAV files (the kiosk plays through Kivy, like the cues:
  ``companion.ui.voice_output``);
* ``speaker``: the worker thread that survives crashed and hung engines;
* ``voice``: ``Voice`` and ``VoiceSettings``, what the app holds;
* ``device``: is there an audio output at all.

* ``words``: numbers, names and lists as the box says them.

The sentences are the engines' (``spoken()``, a game's actions) and
``companion.ui.presenters.spoken``'s (the tools), made of ``words``. An engine imports
``lines`` and ``words`` only: ``Voice`` (threads, audio, engines) is loaded when it is
first asked for here.
"""

from companion.speech.lines import INFO, URGENT, VERDICT, Line

__all__ = ["INFO", "URGENT", "VERDICT", "Line", "Voice", "VoiceSettings"]


def __getattr__(name: str):
    if name in ("Voice", "VoiceSettings"):
        from companion.speech import voice

        return getattr(voice, name)
    raise AttributeError(f"module 'companion.speech' has no attribute {name!r}")
