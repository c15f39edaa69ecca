"""The sound card list: a USB speaker is preferred, and "no audio device" is said plainly."""

from __future__ import annotations

from companion import audio

CARDS = """ 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones
                      bcm2835 Headphones
 1 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
 2 [UACDemoV10     ]: USB-Audio - UACDemoV1.0
                      Jieli Technology UACDemoV1.0 at usb-0000:01:00.0-1.3, full speed
 3 [Mic            ]: USB-Audio - USB Microphone
                      a microphone only
"""


def fake_asound(root, cards=CARDS, playback=("card0/pcm0p", "card1/pcm0p", "card2/pcm0p")):
    root.mkdir()
    (root / "cards").write_text(cards)
    for path in playback:
        (root / path).mkdir(parents=True)
    (root / "card3" / "pcm0c").mkdir(parents=True)  # capture only: cannot play
    return root


def test_a_usb_speaker_wins_over_hdmi_and_the_jack(tmp_path):
    cards = audio.playback_cards(fake_asound(tmp_path / "asound"))
    assert [c.index for c in cards] == [0, 1, 2]
    card = audio.choose(cards)
    assert card.id == "UACDemoV10" and card.usb
    assert audio.summary(card) == "USB-Audio: UACDemoV1.0 (card 2)"
    assert audio.sdl_environment(card) == {"SDL_AUDIODRIVER": "alsa",
                                           "AUDIODEV": "plughw:CARD=UACDemoV10,DEV=0"}


def test_without_usb_the_first_card_plays(tmp_path):
    root = fake_asound(tmp_path / "asound", playback=("card1/pcm3p",))
    card = audio.choose(audio.playback_cards(root))
    assert (card.index, card.device) == (1, 3)


def test_no_card_at_all_is_said_plainly(tmp_path):
    assert audio.playback_cards(tmp_path / "nothing") == []
    assert audio.choose([]) is None
    assert audio.summary(None) == "no audio device"
    assert audio.sdl_environment(None) == {}
    assert audio.settings_label(False, tmp_path / "nothing") == "Sound: no audio device"
    assert audio.settings_label(True, tmp_path / "nothing") == "Sound: no audio device"


def test_with_a_card_the_label_follows_mute(tmp_path):
    root = fake_asound(tmp_path / "asound")
    assert audio.settings_label(False, root) == "Sound: on"
    assert audio.settings_label(True, root) == "Sound: off (muted)"
