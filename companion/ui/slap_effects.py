"""What the box does for a slap round besides showing it: lamps, cues, lines, the voice.

What it is for: ``companion.slap.round.SlapRound`` lists what it asks of the box as
``Effect``s (``take_effects``); ``carry_out`` does each through the app (its table's
lamps, its cues, its status line and banner, its voice, its game log's settings), so the
slap screen only shows. Wiring: ``SlapScreen._after`` calls it after every step of the
round and acts on the correction it returns (a recorded round that may be wrong).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.slap.round import KEPT_ROUND, Effect
from companion.slap.verdict import Verdict
from companion.ui.presenters.spoken import slap_line, spoken_names


def carry_out(app, effects: Iterable[Effect], names: Mapping[int, str],
              quiet: bool = False) -> Verdict | None:
    """Do ``effects`` on ``app``; ``quiet``: another screen shows, so no status lines
    about presses meant for it. Returns the redone verdict of a recorded round that may
    be wrong (the last one asked for), or None."""
    lamps = app.table.lamps
    correction = None
    for effect in effects:
        kind, value = effect.kind, effect.value
        if kind == "lamps_off":
            lamps.all_off()
        elif kind == "lamp":
            lamps.on(value)
        elif kind == "blink":
            for seat in value:
                lamps.blink(seat)
        elif kind == "sound":
            app.play(value)
        elif kind == "say" and not quiet:
            app.say(value)
        elif kind == "tell":
            app.tell(value, cause="slap round")
        elif kind == "speak":
            app.speak(slap_line(value, spoken_names(names)))
        elif kind == "keep":  # with the game it is for, told when that game is resumed
            session = app.session  # (a tool's own log is never resumed: none)
            game = session.game_id if session is not None and session.rules.GAME.on_home \
                else None
            app.log.set_setting(KEPT_ROUND, None if value is None else {**value, "game": game})
        elif kind == "correction":
            correction = value
    return correction
