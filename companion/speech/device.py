"""Is there somewhere to send the voice? A quick look before the first line.

``output_problem()`` returns None when an audio output is likely there, or a sentence
for the Settings screen saying why there is none: no player program, or no sound card
and no sound server. It only looks (files and the PATH); whether the device really
plays is learnt from the player at the first line (``sinks.AudioDeviceError``).

(Issue 10 may bring a shared detection module for the sound cues and ``doctor``; this
small check can then defer to it.)
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

CARDS = Path("/proc/asound/cards")


def sound_server(env: Mapping[str, str]) -> bool:
    """A PulseAudio or PipeWire server this user can reach (it finds the device itself)."""
    if env.get("PULSE_SERVER"):
        return True
    runtime = env.get("XDG_RUNTIME_DIR")
    return bool(runtime) and any((Path(runtime) / name).exists()
                                 for name in ("pulse/native", "pipewire-0"))


def output_problem(player: str = "aplay", cards: Path = CARDS,
                   env: Mapping[str, str] | None = None) -> str | None:
    """None, or why the voice cannot be heard, in words for the Settings screen."""
    env = os.environ if env is None else env
    if shutil.which(player, path=env.get("PATH")) is None:
        return f"No audio player ({player}, package alsa-utils): the voice stays silent."
    if sound_server(env):
        return None
    try:
        listing = cards.read_text(encoding="utf-8", errors="replace")
    except OSError:
        listing = ""
    if not listing.strip() or "no soundcards" in listing:
        return "No audio output found (no sound card), so the voice stays silent."
    return None
