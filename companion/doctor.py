"""``companion doctor``: what the box is running on, for whoever wires or fixes it.

Prints the config file in force and where that choice came from (on the box: the
kiosk's own, from /etc/table-companion/kiosk.env), the pin factory and whether its
timestamps come from the kernel, the slap resolution bound that follows, the sound card
and touchscreen (or plainly that there is none), and the game log's path, origin and
schema version, and venue mode (off, or the broker, the table's name and what the
outbox still holds). ``--watch SECONDS`` lists every button edge with its timestamp and lights
the pressed seat's lamp while the button is down, so each button and lamp can be checked.
"""

from __future__ import annotations

import time

from companion import audio, touch
from companion.config import config_path, load_config
from companion.errors import ConfigError, LogError
from companion.events import EventQueue
from companion.hw.factory import make_factory
from companion.paths import config_file, log_path, origin
from companion.store.gamelog import GameLog


def resolution_ms(source: str) -> float | None:
    """The slap arbiter's resolution bound for a source, in ms (None if unknown)."""
    try:
        from companion.slap.arbiter import ArbiterConfig
    except ImportError:
        return None
    bound = ArbiterConfig().resolution_ns.get(source)
    return None if bound is None else bound / 1e6


def doctor(config_arg: str | None, watch_seconds: float = 0, out=print) -> int:
    path = config_path(config_arg)
    config = load_config(path)
    where = origin()
    from_env, _ = config_file()
    if not config_arg:
        why = "the built-in default"
    elif from_env is not None and str(from_env) == str(config_arg):
        why = where["config"]
    else:
        why = "--config"
    out(f"config:        {path} ({why})")
    seats = ", ".join(f"{s.seat} (GPIO{s.button_pin}, {s.colour})" for s in config.seats)
    out(f"seats:         {seats}")
    try:
        factory, info = make_factory(config.factory)
    except ConfigError as exc:  # the factory's own words, with the file they are about
        raise ConfigError(f"{path}: {exc}") from exc
    out(f"pin factory:   {info.name}{' (simulated)' if info.simulated else ''}")
    out(f"timestamps:    {'kernel edge time' if info.kernel_stamps else 'taken in user space'}")
    bound = resolution_ms(info.source)
    if bound is not None:
        out(f"slap bound:    {bound:g} ms: slaps closer than this are 'too close to call'")
    if not info.kernel_stamps and not info.simulated:
        out("               (install lgpio for kernel timestamps and a tighter bound)")
    card = audio.choose(audio.playback_cards())
    out(f"sound:         {audio.summary(card)}"
        f"{'' if card else ': the cues stay silent (plug in the USB speaker)'}")
    out(f"touchscreen:   {touch.summary(touch.touchscreens())}")
    venue = config.venue
    if venue is None:
        out("venue:         off (no [venue] table in the config)")
    else:
        out(f"venue:         {venue.venue}, table {venue.table!r}: broker {venue.host}:"
            f"{venue.port}{' (TLS)' if venue.tls else ''}, page {venue.page_base()}")
    status = 0
    try:
        path = log_path()
    except LogError as exc:
        out(f"PROBLEM:       {exc}")
        return 1
    out(f"log folder:    {path.parent} ({where['data']})")
    if not path.exists():
        out(f"game log:      {path} (none yet: the first game creates it)")
    else:
        try:
            log = GameLog(path, read_only=True)  # a check must not change what it checks
        except LogError as exc:
            out(f"PROBLEM:       {exc}")
            status = 1
        else:
            out(f"game log:      {log.path} (schema {log.schema_version}, "
                f"{len(log.games())} games)")
            if venue is not None:
                out(f"venue outbox:  {outbox_line(log)}")
                out(f"venue key:     {key_line(log)}")
            log.close()
    if watch_seconds > 0:
        _watch(config, factory, info, watch_seconds, out)
    return status


def outbox_line(log: GameLog) -> str:
    """What venue mode still has to send, read from the log without changing it."""
    tables = {r[0] for r in log.db.execute("SELECT name FROM sqlite_master")}
    if "venue_outbox" not in tables:
        return "none yet (this log predates venue mode)"
    (unsent,) = log.db.execute(
        "SELECT COUNT(*) FROM venue_outbox WHERE sent_at IS NULL").fetchone()
    (unacked,) = log.db.execute(
        "SELECT COUNT(*) FROM venue_outbox WHERE topic = 'result' AND sent_at IS NOT NULL"
        " AND acked_at IS NULL").fetchone()
    if not unsent and not unacked:
        return "empty: the venue has everything"
    return (f"{unsent} message(s) waiting to be sent, {unacked} result(s) sent but not yet "
            "acknowledged by the venue")


def key_line(log: GameLog) -> str:
    """This box's venue key fingerprint (what the venue's operator admits), read only."""
    from companion.venue.identity import Identity
    from companion.venue.outbox import BOX_KEY_SETTING

    try:
        me = Identity.from_seed(log.get_setting(BOX_KEY_SETTING))
    except (LogError, ValueError):
        return "none yet (made when venue mode first starts)"
    return f"fingerprint {me.fingerprint} (the venue's operator admits this box by it)"


def _watch(config, factory, info, seconds: float, out) -> None:
    from companion.hw.buttons import SeatButtons
    from companion.hw.lamps import Lamps

    queue = EventQueue()
    buttons = SeatButtons(config, queue.post, pin_factory=factory, source=info.source)
    lamps = Lamps(config, pin_factory=factory)
    out(f"watching buttons for {seconds:g} s (press each one; its lamp lights while held)")
    if buttons.held():
        out(f"held down now: seats {buttons.held()} (stuck button or wiring short?)")
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            for ev in queue.drain():
                name = "captain" if ev.seat == 0 else f"seat {ev.seat}"
                edge = "down" if ev.pressed else "up  "
                out(f"  {name:8} {edge} t={ev.t_ns / 1e9:.6f} s ({ev.source})")
                (lamps.on if ev.pressed else lamps.off)(ev.seat)
            time.sleep(0.005)  # a polling loop for a person, not a test wait
    finally:
        buttons.close()
        lamps.close()
