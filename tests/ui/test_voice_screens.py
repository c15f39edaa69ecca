"""The voice in the real window: what the table hears at a verdict, a die roll, a timer
warning, and the Settings section (no audio: ``app.voice.said`` is what it would say)."""

from __future__ import annotations

import pytest
from fakes import Faces
from samples import ASYLUM

from companion.events import PressEvent
from companion.timer import NS_PER_S

pytestmark = pytest.mark.window

MS = 1_000_000


@pytest.fixture
def said(ui):
    ui.goto_home()
    ui.app.voice.said.clear()
    yield ui.app.voice.said
    ui.app.voice.said.clear()


def slaps(screen, t0, slaps_ms):
    for seat, ms in slaps_ms.items():
        t = t0 + round(ms * MS)
        screen.on_press_event(PressEvent(seat, t, "mock", True))
        screen.on_press_event(PressEvent(seat, t + 90 * MS, "mock", False))


def test_the_slap_verdict_is_said_once_with_the_names_typed(ui, said):
    from companion.ui.screens.slap import SlapScreen

    names = ["[b]Ann[/b]", "Bob", "Cara 🎲", "DAN"]
    assert ui.app.start_game("crazy_time", {"players": [
        {"name": n, "seat": i + 1} for i, n in enumerate(names)]})
    ui.pump()
    SlapScreen.open_armed(ui.app)
    ui.pump()
    slap = ui.app.sm.current_screen
    # on the table's clock, after the rounds other tests played on this arbiter (a
    # recorded round takes late slaps for 30 s): slaps stamped "now less 20 s" fell
    # into them when the tests before ran fast
    t0 = ui.app.table.now_ns() + 40_000 * MS
    slap.arm(t0)
    slaps(slap, t0, {1: 0, 2: 35, 3: 80, 4: 210})
    slap.on_frame(t0 + 5_000 * MS)
    assert said == [], "the line waits until the verdict is on screen"
    ui.pump(1)
    assert said == ["Dan picks up."]  # said once the frame with the verdict is drawn
    ui.pump()
    ui.tap(ui.find("Record"))
    assert said == ["Dan picks up."], "recording the pick-up says nothing more"

    SlapScreen.open_armed(ui.app)
    ui.pump()
    # the second round well after the first one closed on the table's clock (not "now
    # less 20 s" again: run fast, its first slap fell 0.15 s after the first round's
    # close and was taken as a late slap of that round)
    t1 = t0 + 8_000 * MS
    slap.arm(t1)
    slaps(slap, t1, {2: 0, 1: 120})
    slap.on_frame(t1 + 5_000 * MS)
    ui.pump()
    assert said[-1] == "Cara and Dan never slapped: the table decides."
    ui.tap(ui.find("False alarm"))
    assert said[-1] == "False alarm: Ann picks up."
    ui.tap(ui.find("Record"))
    assert len(said) == 3
    ui.app.end_game(ask=False)


def test_the_captain_die_and_a_death_are_said(ui, said):
    assert ui.app.start_game("time_stories", ASYLUM)
    ui.pump()
    screen = ui.app.sm.current_screen
    screen.rng = Faces(2)
    ui.press_seat("spacebar")
    assert said == [], "nothing is said while the die tumbles"
    screen.on_frame(ui.app.table.now_ns() + 10**9)
    ui.pump(2)
    assert said == ["Two: twenty-three time units left."]
    ui.app.act({"type": "damage", "character": "Marie", "amount": 2, "reason": "a fall"})
    ui.pump(1)
    assert said[-1] == "Marie is dead, back at sixteen time units."
    ui.app.undo()
    ui.pump(1)
    assert len(said) == 2, "undo says nothing"
    ui.app.end_game(ask=False)


def test_the_choice_timer_warns_and_reveals(ui, said):
    class Clock:
        t = 1_750_000_000 * NS_PER_S

        def __call__(self):
            return self.t

    ui.app.log.set_setting("timer", None)
    screen = ui.app.sm.get_screen("timer")
    screen.clock = clock = Clock()
    ui.app.navigate("timer")
    ui.pump(2)
    ui.tap(ui.find("30 s"))
    ui.tap(ui.find("Start"))
    clock.t += 20 * NS_PER_S
    ui.pump(3)
    assert said == ["Ten seconds."]
    clock.t += 10 * NS_PER_S
    ui.pump(3)
    assert said == ["Ten seconds.", "Time's up: reveal!"]
    ui.app.log.set_setting("timer", None)
    ui.goto_home()


def test_settings_voice_section(ui, said):
    from companion.ui.screens.voice_panel import VoicePanel

    ui.app.navigate("settings")
    ui.pump(3)
    panel = next(w for w in ui.app.root.walk() if isinstance(w, VoicePanel))
    voice = ui.app.voice
    start = voice.settings
    try:
        assert ui.find("Voice: on") and ui.find("Volume 80 %")
        assert panel.note == "Spoken by espeak-ng, offline."
        path, colours = ui.screenshot("settings_voice")
        assert colours > 6
        for w in panel.walk(restrict=True):
            if hasattr(w, "on_release"):
                assert w.height >= 64, w.text
        ui.tap(ui.find("Test"))
        assert said == ["Too close between Ann and Bob: the table decides."]
        ui.tap(ui.find("+"))
        assert voice.settings.volume == 0.9 and ui.find("Volume 90 %")
        ui.tap(ui.find("Speed: normal"))
        assert voice.settings.speed == "fast"
        accent = panel.accent
        ui.tap(ui.find(accent))
        assert voice.settings.voice != start.voice and panel.accent != accent
        assert ui.app.log.get_setting("voice")["speed"] == "fast"
        ui.tap(ui.find("Voice: on"))
        assert not voice.settings.on and ui.find("Voice: off")
        assert "off" in panel.note and not panel.can_test
        assert ui.app.log.get_setting("voice")["on"] is False
        ui.tap(ui.find("Voice: off"))
        ui.tap(ui.find("Sound on"))  # the top bar's mute button silences the voice too
        assert voice.muted and ui.app.cues.muted and panel.note.startswith("Muted")
        voice.say(__import__("companion.speech", fromlist=["Line"]).Line("Dan picks up."))
        assert said == ["Too close between Ann and Bob: the table decides."]
        ui.screenshot("settings_voice_muted")
        ui.tap(ui.find("Sound off"))
        assert not voice.muted
    finally:
        voice.settings = start
        ui.app.log.set_setting("voice", None)
        if ui.app.muted:
            ui.app.toggle_mute()
        ui.goto_home()


def test_settings_say_once_why_the_voice_is_silent(ui, said):
    from companion.ui.screens.voice_panel import VoicePanel

    voice = ui.app.voice
    voice._problem = "No audio output found (no sound card), so the voice stays silent."
    try:
        ui.app.navigate("settings")
        ui.pump(2)
        panel = next(w for w in ui.app.root.walk() if isinstance(w, VoicePanel))
        assert panel.note == voice._problem and ui.find("No audio output found")
        ui.screenshot("settings_voice_no_device")
        assert not ui.app.status_error, "no error in the status bar: Settings says it"
    finally:
        voice._problem = None
        ui.goto_home()


def test_settings_test_says_on_screen_that_nothing_can_be_heard(ui, said):
    """Test without an audio output: the note under the buttons answers the tap (the
    line could not be heard, and why), rather than staying as it was."""
    from companion.ui.screens.voice_panel import VoicePanel

    voice = ui.app.voice
    voice._problem = "No audio output found (no sound card), so the voice stays silent."
    try:
        ui.app.navigate("settings")
        ui.pump(2)
        panel = next(w for w in ui.app.root.walk() if isinstance(w, VoicePanel))
        before = panel.note
        ui.tap(ui.find("Test"))
        assert panel.note != before
        assert panel.note.startswith("Test: nothing can be heard.")
        assert "No audio output found" in panel.note
        ui.find("Test: nothing can be heard.")
        ui.screenshot("settings_voice_test_no_device")
        ui.tap(ui.find("Speed:"))  # another change: the note is the voice's again
        assert not panel.note.startswith("Test:")
    finally:
        voice._problem = None
        voice.settings = type(voice.settings)()
        ui.app.log.set_setting("voice", None)
        ui.goto_home()
