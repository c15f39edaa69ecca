"""Shared fixtures. Kivy is pointed at a temporary home before anything imports it."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

_KIVY_HOME = tempfile.mkdtemp(prefix="companion-kivy-")
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_HOME"] = _KIVY_HOME
os.environ["KIVY_NO_FILELOG"] = "1"
os.environ["KIVY_LOG_MODE"] = "PYTHON"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.pop("COMPANION_CONFIG", None)

ARTIFACTS = Path(__file__).parent / "_artifacts"


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    """A fresh data directory (game log, sounds) for one test."""
    path = tmp_path / "data"
    monkeypatch.setenv("COMPANION_DATA_DIR", str(path))
    return path


@pytest.fixture
def mock_factory():
    """gpiozero's own MockFactory: real gpiozero devices on simulated pins."""
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    yield factory
    factory.close()


@pytest.fixture
def config():
    from companion.config import load_config

    return load_config()


@pytest.fixture
def game_log(tmp_path):
    from companion.store.gamelog import GameLog

    log = GameLog(tmp_path / "games.sqlite3")
    yield log
    log.close()


@pytest.fixture
def engine_snapshots(monkeypatch):
    """Counts an engine's snapshots: ``made = engine_snapshots(rules)`` has
    ``rules.snapshot`` note ``(state, recent)`` in ``made`` at each call, for the rest of
    the test; ``made.engine`` is the engine's own (it notes nothing)."""

    class Made(list):
        engine = None

    def count(rules) -> Made:
        made = Made()
        made.engine = engine = rules.snapshot

        def counting(state, recent=None):
            made.append((state, recent))
            return engine(state, recent=recent)

        monkeypatch.setattr(rules, "snapshot", counting)
        return made

    return count


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where tests leave screenshots for a person to look at (tests/_artifacts)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
