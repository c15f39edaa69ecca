"""Small stand-ins shared by several test files (importable: pytest puts tests/ on the path)."""

from __future__ import annotations

import random


class Faces(random.Random):
    """A random source that gives the die faces a test asks for, in order."""

    def __init__(self, *faces):
        super().__init__(0)
        self.faces = list(faces)

    def randrange(self, start, stop=None, step=1):
        return self.faces.pop(0)


class Front:
    """The table side of a ``SessionController`` (``companion/ui/session_controller.py``)
    without a window: every call is kept in ``calls`` in order, as ``(name, value)``."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []
        self.errors: list[object] = []  # the error behind each refusal (None: none given)

    def play(self, cue):
        self.calls.append(("play", cue))

    def speak(self, line):
        self.calls.append(("speak", line))

    def say(self, text):
        self.calls.append(("say", text))

    def refuse(self, sentence, exc=None):
        self.calls.append(("refuse", sentence))
        self.errors.append(exc)

    def clear_banner(self):
        self.calls.append(("clear_banner", None))

    def refresh(self):
        self.calls.append(("refresh", None))

    def took(self) -> list[tuple[str, object]]:
        """The calls since the last ``took()`` (and forget them)."""
        calls, self.calls = self.calls, []
        return calls


def usb_stick(tmp_path, name: str = "KINGSTON"):
    """A USB stick mounted under ``tmp_path/media``: ``(stick folder, mounts file, roots)``
    as ``companion.export.usb`` takes them (its ``MOUNTS`` and ``ROOTS``)."""
    root = tmp_path / "media"
    stick = root / name
    stick.mkdir(parents=True)
    mounts = tmp_path / "mounts"
    mounts.write_text(f"/dev/sda1 {stick} vfat rw 0 0\n")
    return stick, mounts, (f"{root}/",)


def plug_usb_stick(tmp_path, monkeypatch, name: str = "KINGSTON"):
    """``usb_stick``, plugged into the box the app sees; returns the stick's folder."""
    from companion.export import usb

    stick, mounts, roots = usb_stick(tmp_path, name)
    monkeypatch.setattr(usb, "MOUNTS", mounts)
    monkeypatch.setattr(usb, "ROOTS", roots)
    return stick
