"""Is there an audio output: a player program, and a sound card or a sound server."""

from __future__ import annotations

from companion.speech.device import output_problem


def player_on_path(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    player = bin_dir / "aplay"
    player.write_text("#!/bin/sh\n")
    player.chmod(0o755)
    return str(bin_dir)


def test_no_player_program(tmp_path):
    why = output_problem(env={"PATH": str(tmp_path)})
    assert why.startswith("No audio player (aplay, package alsa-utils)")


def test_no_sound_card(tmp_path):
    path = player_on_path(tmp_path)
    cards = tmp_path / "cards"
    cards.write_text("--- no soundcards ---\n")
    assert "no sound card" in output_problem(cards=cards, env={"PATH": path})
    assert "no sound card" in output_problem(cards=tmp_path / "missing", env={"PATH": path})


def test_a_card_or_a_sound_server_is_enough(tmp_path):
    path = player_on_path(tmp_path)
    cards = tmp_path / "cards"
    cards.write_text(" 0 [Device ]: USB-Audio - USB Audio Device\n")
    assert output_problem(cards=cards, env={"PATH": path}) is None
    runtime = tmp_path / "run"
    (runtime / "pulse").mkdir(parents=True)
    (runtime / "pulse" / "native").write_text("")
    assert output_problem(cards=tmp_path / "missing",
                          env={"PATH": path, "XDG_RUNTIME_DIR": str(runtime)}) is None
    assert output_problem(cards=tmp_path / "missing",
                          env={"PATH": path, "PULSE_SERVER": "unix:/x"}) is None
