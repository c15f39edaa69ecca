"""Sound cues: distinct files, a mute switch, and no crash without an audio device."""

from __future__ import annotations

import wave

import pytest

from companion.sound import CUES, SoundCues


class FakeSound:
    def __init__(self):
        self.plays = 0

    def play(self):
        self.plays += 1

    def stop(self):
        pass


class FakeLoader:
    def __init__(self, fail=False):
        self.fail, self.loaded = fail, []

    def load(self, path):
        if self.fail:
            return None
        self.loaded.append(path)
        return FakeSound()


def test_every_cue_is_a_distinct_wav(tmp_path):
    cues = SoundCues(tmp_path)
    blobs = set()
    for name in CUES:
        with wave.open(str(cues.path(name))) as w:
            assert w.getframerate() == 22050 and w.getnframes() > 0
        blobs.add(cues.path(name).read_bytes())
    assert len(blobs) == len(CUES)


def test_mute_plays_nothing(tmp_path):
    loader = FakeLoader()
    cues = SoundCues(tmp_path, muted=True, loader=loader)
    assert not cues.play("slap")
    cues.muted = False
    assert cues.play("slap") and loader.loaded


def test_no_audio_backend_is_not_a_crash(tmp_path):
    cues = SoundCues(tmp_path, loader=FakeLoader(fail=True))
    assert not cues.play("verdict")
    assert not cues.play("verdict")  # stays quietly off


def test_a_cue_is_looked_for_on_disk_once(tmp_path, monkeypatch):
    """Its file is written (or found) the first time; later taps reuse the answer."""
    cues = SoundCues(tmp_path, loader=FakeLoader())
    first = cues.path("tap")
    assert first.exists()
    looked = []
    monkeypatch.setattr(type(first), "exists", lambda p: looked.append(p) or True)
    assert cues.path("tap") == first and cues.play("tap")
    assert looked == []


def test_muted_play_of_an_unknown_cue_is_still_an_error(tmp_path):
    cues = SoundCues(tmp_path, muted=True, loader=FakeLoader())
    with pytest.raises(KeyError):
        cues.play("no-such-cue")
    assert not cues.play("tap") and not list(tmp_path.iterdir())  # nothing written muted
