"""Is there anywhere to play sound? The ALSA sound cards, read from ``/proc/asound``.

The box plays its cues through a USB speaker (the Pi 5 has no audio jack; HDMI sound
goes to a screen that usually has no speaker). This module lists the cards that can play,
prefers a USB one, and says in plain words when there is none, so that ``companion
doctor`` and the Settings screen can say "no audio device" instead of "Sound: on".

    card = choose(playback_cards())          # None: nothing to play on
    summary(card)                            # "USB-Audio: UACDemoV1.0 (card 2)"
    os.environ.update(sdl_environment(card)) # before Kivy's audio starts: sound to that card

Nothing here plays or opens a device: it only reads the kernel's card list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ASOUND = Path("/proc/asound")
NO_DEVICE = "no audio device"

_CARD_LINE = re.compile(r"^\s*(\d+)\s+\[(\S+)\s*\]:\s+(\S+)\s+-\s+(.*)$")


@dataclass(frozen=True, slots=True)
class Card:
    """One ALSA card that can play: its number, short id, driver, name, first playback device."""

    index: int
    id: str
    driver: str
    name: str
    device: int

    @property
    def usb(self) -> bool:
        return self.driver == "USB-Audio"


def playback_cards(root: Path = ASOUND) -> list[Card]:
    """The cards with at least one playback device, in the kernel's order."""
    try:
        text = (root / "cards").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []  # no sound support at all (a container, a kernel without ALSA)
    cards = []
    for line in text.splitlines():
        m = _CARD_LINE.match(line)
        if not m:
            continue
        index = int(m[1])
        devices = sorted(int(p.name[3:-1]) for p in (root / f"card{index}").glob("pcm*p")
                         if p.name[3:-1].isdigit())
        if devices:
            cards.append(Card(index, m[2], m[3], m[4].strip(), devices[0]))
    return cards


def choose(cards: list[Card]) -> Card | None:
    """The card the kiosk plays on: the first USB card, else the first card, else None."""
    for card in cards:
        if card.usb:
            return card
    return cards[0] if cards else None


def summary(card: Card | None) -> str:
    if card is None:
        return NO_DEVICE
    return f"{card.driver}: {card.name} (card {card.index})"


def settings_label(muted: bool, root: Path = ASOUND) -> str:
    """The Settings screen's sound button: says so plainly when nothing can play."""
    if choose(playback_cards(root)) is None:
        return f"Sound: {NO_DEVICE}"
    return "Sound: off (muted)" if muted else "Sound: on"


def sdl_environment(card: Card | None) -> dict[str, str]:
    """SDL's settings that send Kivy's sound to ``card`` through ALSA (empty: no card)."""
    if card is None:
        return {}
    return {"SDL_AUDIODRIVER": "alsa", "AUDIODEV": f"plughw:CARD={card.id},DEV={card.device}"}
