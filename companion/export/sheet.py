"""A game's score sheet as one self-contained HTML page (no scripts, no links out, the
pictures drawn as inline SVG), so it can be copied off the box, mailed, or printed.

The same page is the venue's ``/game/<box>/<game>`` and what ``companion export --format
html`` and History's "Score sheets to USB" write. It is made from the game's log (setup
and actions) by replaying it through its rules engine, so it shows exactly what the
table recorded: players and scores, who won and where the game stands (the engine's
``outcome``), and the pictures people would rather look at than read, which the engine
gives as data (``charts``: the T.I.M.E Stories time-unit burn-down per run, the slap
timeline of the slap pad and Crazy Time, the Times scoring track, the score pad's rounds)
and this module draws. Nothing here knows one game from another.

    html = render_sheet(SheetGame(kind, setup, actions, started_at, finished_at, status))
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from companion.errors import LogError, MalformedAction, RuleError
from companion.games import get_rules, title_of
from companion.games.base import Chart, LineChart, RoundsTable, Timeline, charts
from companion.games.replay import as_raised as _as_raised
from companion.games.replay import final

PALETTE = ("#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#999")

STYLE = """
body { font: 16px/1.45 system-ui, sans-serif; max-width: 52rem; margin: 1.5rem auto;
       padding: 0 1rem; color: #1b1d22; }
h1 { margin-bottom: 0; } .meta { color: #5b6270; margin-top: .2rem; }
table { border-collapse: collapse; margin: .6rem 0; } td, th { padding: .2rem .6rem;
       border-bottom: 1px solid #dde; text-align: left; } .num { text-align: right; }
.won { font-weight: bold; color: #00734f; } svg { max-width: 100%; height: auto; }
figure { margin: 1rem 0; } figcaption { color: #5b6270; font-size: .9rem; }
.note { font-style: italic; }
.seat { display:inline-block; width:.8em; height:.8em; border-radius:50%; margin-right:.3em; }
"""


@dataclass(frozen=True)
class SheetGame:
    """What a score sheet is made from (a game log's row, or a venue's result)."""

    kind: str
    setup: dict
    actions: list[dict]  # {"seq", "at", "action"}
    started_at: str
    finished_at: str | None = None
    status: str = "finished"
    game: int | None = None
    table: str | None = None
    note: str = ""  # the table's note on the game (``GameLog.set_note``)


def _e(value) -> str:
    return escape("" if value is None else str(value))


def replay_game(game: SheetGame):
    """``(rules, final state)``; LogError when the game does not replay."""
    try:
        rules = get_rules(game.kind)
        state = final(rules, rules.initial(game.setup), (a["action"] for a in game.actions),
                      refusal=_as_raised)
        return rules, state
    except (RuleError, MalformedAction, RecursionError, KeyError, TypeError) as exc:
        raise LogError(f"game {game.game} does not replay: {exc}") from exc


def render_result(payload: dict) -> str:
    """A venue's stored result payload (``topics.check_result``) as its score sheet."""
    return render_sheet(SheetGame(payload["kind"], payload["setup"], payload["actions"],
                                  payload["started_at"], payload.get("finished_at"),
                                  payload["status"], payload["game"], payload["table"]))


def render_sheet(game: SheetGame) -> str:
    rules, state = replay_game(game)
    outcome = rules.outcome(state)
    players = [p for p in game.setup.get("players", []) if isinstance(p, dict)]
    colour = {p.get("seat"): PALETTE[i % len(PALETTE)] for i, p in enumerate(players)}
    scores = outcome.scores
    winners = outcome.winner_names if game.status == "finished" else ()
    heading = title_of(game.kind)
    where = f" at {_e(game.table)}" if game.table else ""
    number = f", game {game.game}" if game.game is not None else ""
    parts = [f"<h1>{_e(heading)}</h1>",
             f'<p class="meta">Score sheet{number}{where}: {_e(_day(game.started_at))}'
             f'{" to " + _e(_day(game.finished_at)) if game.finished_at else ""}'
             f" &middot; {_e(game.status)} &middot; {len(game.actions)} actions</p>"]
    if winners:
        parts.append(f'<p class="won">Won by {" and ".join(_e(w) for w in winners)}</p>')
    # a game that keeps no points (Crazy Time) has no score column rather than an empty one
    score_head = "<th>score</th>" if scores else ""
    rows = "".join(
        f'<tr><td><span class="seat" style="background:{colour[p.get("seat")]}"></span>'
        f'{_e(p.get("name"))}</td><td class="num">{_e(p.get("seat"))}</td>'
        + (f'<td class="num">{_e(scores.get(p.get("seat"), ""))}</td>' if scores else "")
        + "</tr>" for p in players)
    parts.append(f'<table class="players"><tr><th>player</th><th>seat</th>{score_head}</tr>'
                 f"{rows}</table>")
    if outcome.status:
        parts.append(f'<p class="meta">{_e(outcome.status)}</p>')
    if game.note:
        parts.append(f'<p class="note">Note: {_e(game.note)}</p>')
    names = {p.get("seat"): p.get("name") for p in players}
    parts += [_picture(chart, colour, names) for chart in charts(rules, state)]
    parts.append(_action_log(game, players))
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport"'
            ' content="width=device-width, initial-scale=1">'
            f"<title>{_e(heading)}{number}</title><style>{STYLE}</style></head><body>"
            + "\n".join(parts) + "</body></html>")


def _day(stamp: str | None) -> str:
    return (stamp or "")[:16].replace("T", " ")


def _picture(chart: Chart, colour: dict, names: dict) -> str:
    """One of the engine's charts, drawn (a seat is drawn in its colour, by its name)."""
    if isinstance(chart, LineChart):
        label = {k: names.get(k, k) if isinstance(k, int) else k for k, _ in chart.series}
        return _figure(_line_chart({label[k]: list(pts) for k, pts in chart.series},
                                   {label[k]: colour.get(k) if isinstance(k, int) else
                                    PALETTE[4] for k, _ in chart.series},
                                   chart.xlabel, chart.ylabel), chart.caption)
    if isinstance(chart, Timeline):
        return _figure(_timeline([dict(r) for r in chart.rounds], colour, names,
                                 chart.labels), chart.caption)
    if isinstance(chart, RoundsTable):
        head = "".join(f"<th>{_e(names.get(s))}</th>" for s in chart.seats)
        body = "".join(f"<tr><td>{i}</td>" + "".join(
            f'<td class="num">{rnd.get(s, 0)}</td>' for s in chart.seats) + "</tr>"
            for i, rnd in enumerate(chart.rounds, start=1))
        return f"<h2>{_e(chart.caption)}</h2><table><tr><th>round</th>{head}</tr>{body}</table>"
    raise TypeError(f"a score sheet cannot draw {type(chart).__name__}")


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{_e(caption)}</figcaption></figure>"


def _line_chart(series: dict, colours: dict, xlabel: str, ylabel: str) -> str:
    w, h, pad = 640, 240, 36
    xs = [x for pts in series.values() for x, _ in pts] or [0, 1]
    ys = [y for pts in series.values() for _, y in pts] or [0, 1]
    x0, x1 = min(xs), max(max(xs), min(xs) + 1)
    y0, y1 = min(0, min(ys)), max(max(ys), 1)

    def px(x, y):
        return (pad + (x - x0) / (x1 - x0) * (w - 2 * pad),
                h - pad - (y - y0) / (y1 - y0) * (h - 2 * pad))

    lines = [f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="#889"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" stroke="#889"/>',
             f'<text x="{w - pad}" y="{h - 8}" text-anchor="end" font-size="12">{_e(xlabel)}'
             f"</text>", f'<text x="4" y="{pad - 10}" font-size="12">{_e(ylabel)} (max '
             f"{y1})</text>"]
    for i, (name, pts) in enumerate(series.items()):
        coords = " ".join(f"{a:.1f},{b:.1f}" for a, b in (px(x, y) for x, y in pts))
        c = colours.get(name) or PALETTE[i % len(PALETTE)]
        lines.append(f'<polyline points="{coords}" fill="none" stroke="{c}" stroke-width="3"/>')
        last = px(*pts[-1]) if pts else (pad, h - pad)
        lines.append(f'<text x="{last[0] + 4:.1f}" y="{last[1] - 4:.1f}" font-size="12" '
                     f'fill="{c}">{_e(name)}</text>')
    return (f'<svg viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
            f'xmlns="http://www.w3.org/2000/svg">{"".join(lines)}</svg>')


def _timeline(rounds: list[dict], colour: dict, names: dict,
              labels: tuple[str, ...] = ()) -> str:
    w, row, pad = 640, 28, (120 if labels else 80)
    labels = labels or tuple(f"round {i + 1}" for i in range(len(rounds)))
    most = max([ms for r in rounds for ms in r.values()] + [1])
    h = row * len(rounds) + 30
    out = [f'<text x="{pad}" y="{h - 6}" font-size="12">0 ms</text>',
           f'<text x="{w - 10}" y="{h - 6}" font-size="12" text-anchor="end">{most:.0f} ms'
           "</text>"]
    for i, r in enumerate(rounds):
        y = 14 + i * row
        out.append(f'<text x="4" y="{y + 4}" font-size="12">{_e(labels[i])}</text>'
                   f'<line x1="{pad}" y1="{y}" x2="{w - 10}" y2="{y}" stroke="#ccd"/>')
        for seat, ms in sorted(r.items(), key=lambda kv: kv[1]):
            x = pad + ms / most * (w - pad - 20)
            out.append(f'<circle cx="{x:.1f}" cy="{y}" r="7" fill="{colour.get(seat, "#999")}">'
                       f"<title>{_e(names.get(seat, seat))}: {ms:.0f} ms</title></circle>")
    return (f'<svg viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
            f'xmlns="http://www.w3.org/2000/svg">{"".join(out)}</svg>')


def _action_log(game: SheetGame, players: list[dict]) -> str:
    names = {p.get("seat"): p.get("name") for p in players}
    rows = []
    for a in game.actions:
        action = a["action"]
        words = str(action.get("type", "action")).replace("_", " ")
        if action.get("seat") in names:
            words += f" ({names[action['seat']]})"
        rows.append(f'<tr><td class="num">{a["seq"]}</td><td>{_e(_day(a.get("at"))[11:])}</td>'
                    f"<td>{_e(words)}</td></tr>")
    return ("<details><summary>Every action, in order</summary><table><tr><th>#</th>"
            f"<th>time</th><th>action</th></tr>{''.join(rows)}</table></details>")
