"""The ``companion`` command: run the kiosk, check the box, export and replay game logs.

    companion run [--config PATH] [--data-dir DIR] [--pad PATH] [--fullscreen]
    companion doctor [--config PATH] [--data-dir DIR] [--watch SECONDS]
    companion export [--data-dir DIR] [--format jsonl|csv|html|bgsplay] [--game ID ...]
                     [--output FILE]
    companion import FILE [--data-dir DIR]   games back from an export (nothing doubled)
    companion venue [...]            the venue's live page (see companion/venue/server.py)
    companion replay FILE [--json]
    companion kiosk [--config PATH] [--data-dir DIR]   the box's kiosk: the app under cage
    companion logs [journalctl options]   the kiosk's lines and systemd's, this boot
    companion pad-sim [...]          the virtual Pico slap pad (see companion/pad/sim.py)

Which config and log: ``--config``/``--data-dir``, then ``COMPANION_CONFIG``/
``COMPANION_DATA_DIR``; on the box, ``doctor`` and ``export`` then use the kiosk's own
(``/etc/table-companion/kiosk.env``, see companion/paths.py), so a shell sees the games
the kiosk recorded; ``run`` from a shell keeps the user's own folder unless told.

Every command exits non-zero with one clear line on stderr when its input is wrong
(a bad config, an unreadable log, a malformed replay file).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path

from companion import paths
from companion.errors import CompanionError, LogError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion", description=__doc__.splitlines()[0])
    config_help = ("hardware config TOML (default: COMPANION_CONFIG, the kiosk's on the box, "
                   "or the built-in default)")
    data_help = ("folder of the game log (default: COMPANION_DATA_DIR, the kiosk's on the box, "
                 "or your user data folder)")
    p.add_argument("--config", help=config_help)
    p.add_argument("--data-dir", help=data_help)
    # --config and --data-dir may also follow the subcommand; SUPPRESS keeps the top-level
    # value otherwise.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", default=argparse.SUPPRESS, help=config_help)
    common.add_argument("--data-dir", default=argparse.SUPPRESS, help=data_help)
    data_only = argparse.ArgumentParser(add_help=False)
    data_only.add_argument("--data-dir", default=argparse.SUPPRESS, help=data_help)
    sub = p.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="start the touchscreen companion", parents=[common])
    run.add_argument("--pad", help="serial device of the Pico slap pad (or of pad-sim)")
    run.add_argument("--fullscreen", action="store_true", help="kiosk mode")

    doctor = sub.add_parser("doctor", help="show the hardware, config and log in force",
                            parents=[common])
    doctor.add_argument("--watch", type=float, metavar="SECONDS", default=0,
                        help="list live button presses for this long, lighting each lamp")

    export = sub.add_parser("export", help="write games out as JSON Lines, CSV, HTML "
                            "score sheets (html: --output names a folder) or a BG Stats "
                            "play file (bgsplay, also called bgstats: finished games only)",
                            parents=[data_only])
    export.add_argument("--format", choices=("jsonl", "csv", "html", "bgsplay", "bgstats"),
                        default="jsonl")
    export.add_argument("--game", type=_game_id, action="append", help="game id (default: all)")
    export.add_argument("--output", "-o", help="file to write (default: standard output)")

    restore = sub.add_parser("import", help="add the games of an exported JSON Lines log "
                             "(companion export, History's Export) that this box does not "
                             "have; a damaged file changes nothing", parents=[data_only])
    restore.add_argument("file")

    replay = sub.add_parser("replay", help="print the state that an exported log produces")
    replay.add_argument("file")
    replay.add_argument("--json", action="store_true", help="machine-readable output")

    sub.add_parser("kiosk", help="the box's kiosk: the app full-screen under cage, for systemd",
                   parents=[common])
    sub.add_parser("logs", help="the kiosk's lines in the journal (launcher, cage, app) "
                   "with systemd's own; journalctl options pass through", add_help=False)
    sub.add_parser("pad-sim", help="run the virtual Pico slap pad on a pseudo-terminal",
                   add_help=False)
    sub.add_parser("venue", help="the venue's live page for many tables (MQTT)", add_help=False)
    return p


def _game_id(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a game number: {text!r}") from None
    if not 1 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"no game has the number {text}")
    return value


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["pad-sim"]:
        from companion.pad.sim import main as pad_sim_main

        return pad_sim_main(argv[1:])
    if argv[:1] == ["logs"]:
        return cmd_logs(argv[1:])
    if argv[:1] == ["venue"]:  # venue mode (issue 16)
        from companion.venue.server import main as venue_main

        return venue_main(argv[1:])
    args = _parser().parse_args(argv)
    # doctor and export look at the kiosk's games on the box; run and kiosk are told.
    paths.use(data_dir=args.data_dir, box=args.command in ("doctor", "export", "import"))
    try:
        return COMMANDS[args.command](args)
    except CompanionError as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `companion replay f | head`: the reader left, not an error
        sys.stderr.close()
        return 0
    finally:
        paths.reset()


def _config_arg(args: argparse.Namespace) -> str | None:
    """--config, else COMPANION_CONFIG or the kiosk's config (None: the built-in default)."""
    if args.config:
        return args.config
    path, _ = paths.config_file()
    return str(path) if path else None


def cmd_run(args: argparse.Namespace) -> int:
    from companion.config import config_path, load_config

    config = load_config(config_path(_config_arg(args)))  # a bad config stops here
    from companion.kiosk import start

    return start(config, pad_port=args.pad, fullscreen=args.fullscreen or config.fullscreen)


def cmd_doctor(args: argparse.Namespace) -> int:
    from companion.doctor import doctor

    return doctor(_config_arg(args), watch_seconds=args.watch)


def cmd_export(args: argparse.Namespace) -> int:
    from companion.export.logfile import export_csv, export_jsonl, exported_ids, write_file
    from companion.paths import log_path
    from companion.store.gamelog import GameLog

    path = log_path()
    if not path.exists():
        print(f"no game log yet at {path}: nothing to export", file=sys.stderr)
        return 0
    target = Path(args.output).resolve() if args.output else None
    if target is not None and target.name.startswith(path.name) \
            and target.parent == path.parent.resolve():
        raise CompanionError(f"--output {args.output} would overwrite the game log itself")
    log = GameLog(path, read_only=True)  # reading must never change the log
    try:
        known = {g.id for g in log.games()}
        ids = args.game or exported_ids(log)
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise CompanionError(f"there is no game {unknown[0]} in {path}")
        if args.format == "html":  # venue mode (issue 16): one score sheet per game
            from companion.export.sheets import export_command

            return export_command(log, ids, args.output)
        if args.format in ("bgsplay", "bgstats"):
            text, ids = _bgsplay(log, ids, named=bool(args.game))
        try:
            if args.format in ("jsonl", "csv"):
                text = (export_jsonl if args.format == "jsonl" else export_csv)(log, ids)
        except LogError as exc:
            raise CompanionError(f"{exc}; nothing was exported.{_others(log, ids)}") from exc
    finally:
        log.close()
    if target is None:
        emit(text)
        return 0
    try:
        write_file(target, text)
    except OSError as exc:
        raise CompanionError(f"cannot write {args.output}: {exc.strerror or exc}; nothing "
                             "was written") from exc
    print(f"wrote {len(ids)} game(s) to {args.output}", file=sys.stderr)
    return 0


def _bgsplay(log, ids: list[int], named: bool) -> tuple[str, list[int]]:
    """The BG Stats play file of the finished games among ``ids`` (each one named with
    --game must be one: else a CompanionError saying why)."""
    from companion.export.bgstats import NotExported, bgsplay, log_play

    plays, done = [], []
    for gid in ids:
        try:
            plays.append(log_play(log, gid))
        except NotExported as exc:
            if named:
                raise CompanionError(f"{exc}; nothing was exported") from exc
            continue
        except LogError as exc:
            raise CompanionError(f"game {gid}: {exc}; nothing was exported."
                                 f"{_others(log, ids)}") from exc
        done.append(gid)
    if not plays:
        raise CompanionError("no finished game to log in BG Stats (the slap pad's practice "
                             "and unfinished games are not plays); nothing was exported")
    return bgsplay(plays), done


def cmd_import(args: argparse.Namespace) -> int:
    from companion.export.logfile import read_log_file
    from companion.export.restore import add_new, checked
    from companion.paths import log_path
    from companion.store.gamelog import GameLog

    # the whole file read and checked first: no log is opened (or made) for a bad one
    try:
        ready = checked(read_log_file(args.file), args.file)
    except LogError as exc:
        raise CompanionError(f"{exc}; nothing was imported") from exc
    path = log_path()
    _same_owner(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    log = GameLog(path)
    try:
        if log.recovered:
            print(f"companion import: {log.recovered}", file=sys.stderr)
        report = add_new(log, ready, args.file)
    except LogError as exc:
        raise CompanionError(f"{exc}; nothing was imported, the game log is as it was") \
            from exc
    finally:
        log.close()
    print(report.sentence(), file=sys.stderr)
    return 0


def _same_owner(path: Path) -> None:
    """Refuse to write the log (or its folder) of another user: root importing into the
    kiosk's log would leave it files the kiosk cannot open."""
    for where in (path, path.parent):
        try:
            owner = where.stat().st_uid
        except OSError:
            continue
        if owner != os.geteuid():
            import pwd

            try:
                name = pwd.getpwuid(owner).pw_name
            except KeyError:
                name = str(owner)
            raise CompanionError(f"{where} belongs to the user {name}: import as that user "
                                 f"(sudo -u {name} companion import FILE), so the log's "
                                 "files stay theirs; nothing was imported")
        return


def _others(log, ids: list[int]) -> str:
    """How to export the games that read back whole, when one of them does not."""
    good = []
    for gid in ids:
        try:
            log.action_rows(gid)
        except LogError:
            continue
        good.append(gid)
    if not good:
        return ""
    return " To export the others: companion export " + " ".join(f"--game {g}" for g in good)


def cmd_replay(args: argparse.Namespace) -> int:
    from companion.export.logfile import Deadline, read_jsonl, read_log_file, replay_game

    text = read_log_file(args.file)  # bounded: `companion replay /dev/zero` is a message
    deadline = Deadline()
    games = read_jsonl(text, args.file, deadline)
    results = []
    for game in games:
        rules, state = replay_game(game, args.file, deadline)
        results.append({"game": game.game, "kind": game.kind, "actions": len(game.actions),
                        "state": rules.snapshot(state)})
    if args.json:
        emit(json.dumps(results if len(results) > 1 else results[0], indent=2,
                        sort_keys=True) + "\n")
    else:
        lines = []
        for r in results:
            lines.append(f"game {r['game']} ({r['kind']}), {r['actions']} actions:")
            for key, value in r["state"].items():
                lines.append(f"  {key}: {json.dumps(value, sort_keys=True)}")
        emit("\n".join(lines) + "\n")
    return 0


def emit(text: str) -> None:
    """Write ``text`` to standard output; a full disk or a closed device there is a
    sentence (CompanionError), not a traceback, and Python's own flush at exit is kept
    from failing again. A reader that went away (BrokenPipeError) is left to ``main``."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        raise CompanionError(f"cannot write to the standard output ({exc.strerror or exc}); "
                             "what was written there is incomplete") from exc


def cmd_kiosk(args: argparse.Namespace) -> int:
    from companion.launcher import launch

    return launch(config_arg=_config_arg(args), data_dir=args.data_dir)


def cmd_logs(extra: list[str]) -> int:
    """journalctl with the kiosk's matches (companion/journal.py); its exit status."""
    import shutil
    import subprocess

    from companion.journal import journal_args

    command = journal_args(extra)
    if shutil.which(command[0]) is None:
        print("companion logs: journalctl is not installed here: the kiosk's log is "
              "systemd's journal, on the box", file=sys.stderr)
        return 2
    return subprocess.call(command)


COMMANDS = {"run": cmd_run, "doctor": cmd_doctor, "export": cmd_export, "replay": cmd_replay,
            "kiosk": cmd_kiosk, "import": cmd_import}


if __name__ == "__main__":
    sys.exit(main())
