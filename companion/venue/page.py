"""The venue page as HTML: big enough for a TV across the room, one column on
a phone. Pure functions from ``VenueStore.board()`` data to markup; every text a table
sent goes through ``html.escape`` here and nowhere else.

``page(board, status)`` is the whole document; ``board_html(board, status)`` is the part
the page replaces when the server sends an update (server-sent events, ``/events``).
With ``operator=True`` (the operator's page) each waiting box has an "Admit" button; the
operator page does not follow the live updates, so a box is never admitted from a list
that changed under the operator's finger.
"""

from __future__ import annotations

from html import escape

STYLE = """
:root { color-scheme: dark; --bg:#14161c; --card:#1f232c; --dim:#9aa3b5; --win:#2bd99f;
        --warn:#ffb347; --bad:#ff6b6b; }
* { box-sizing: border-box; }
body { margin:0; padding:1.2rem; background:var(--bg); color:#f2f4f8;
       font: 1.25rem/1.4 system-ui, sans-serif; }
h1 { font-size:2rem; margin:0 0 .2rem; } h2 { font-size:1.5rem; margin:1.4rem 0 .6rem; }
a { color:#8ec5ff; }
.status { color:var(--dim); font-size:1rem; }
.grid { display:grid; gap:1rem; grid-template-columns:repeat(auto-fill, minmax(18rem, 1fr)); }
.card { background:var(--card); border-radius:.6rem; padding:.8rem 1rem; }
.card h3 { margin:0; font-size:1.4rem; } .game { color:var(--dim); margin-bottom:.4rem; }
.players { list-style:none; padding:0; margin:0; }
.players li { display:flex; justify-content:space-between; font-size:1.3rem; }
.won { color:var(--win); font-weight:bold; }
.warn { background:#3a2a10; color:var(--warn); padding:.6rem 1rem; border-radius:.5rem; }
table { border-collapse:collapse; width:100%; } td, th { text-align:left; padding:.2rem .4rem; }
th { color:var(--dim); font-weight:normal; }
.num { text-align:right; font-variant-numeric:tabular-nums; }
details { color:var(--dim); font-size:1rem; margin-top:1.5rem; }
@media (min-width: 1600px) { body { font-size:1.6rem; } }
@media (max-width: 600px) { body { padding:.6rem; font-size:1.1rem; } h1 { font-size:1.5rem; } }
"""

SCRIPT = """
const source = new EventSource('/events');
source.addEventListener('board', (e) => {
  const data = JSON.parse(e.data);
  if (String(data.version) === document.body.dataset.version) return;  // shown already
  document.getElementById('board').innerHTML = data.html;
  document.body.dataset.version = data.version;
});
"""


def _e(value) -> str:
    return escape("" if value is None else str(value))


def _names(names: list[str]) -> str:
    return " and ".join(_e(n) for n in names)


def _table_card(t: dict) -> str:
    winners = {w.casefold() for w in t.get("winners", [])}
    rows = []
    for p in t["players"]:
        score = "" if p.get("score") is None else _e(p["score"])
        cls = ' class="won"' if p["name"].casefold() in winners else ""
        rows.append(f'<li{cls}><span>{_e(p["name"])}</span><span class="num">{score}</span></li>')
    if t["status"] == "finished":
        end = (f'<p class="won">Game over: won by {_names(t["winners"])}</p>' if t["winners"]
               else "<p>Game over</p>")
        if t.get("url"):
            end += f'<p><a href="{_e(t["url"])}">Score sheet</a></p>'
    elif t["status"] == "abandoned":
        end = "<p>Game abandoned</p>"
    else:
        end = f'<p class="status">{_e(t.get("line"))}' + (
            f' &middot; last: {_e(t["last"])}' if t.get("last") else "") + "</p>"
    return (f'<section class="card table" data-box="{_e(t["box"])}" data-game="{t["game"]}"'
            f' data-seq="{t["seq"]}" data-status="{_e(t["status"])}">'
            f'<h3>{_e(t["table"])}</h3><div class="game">{_e(t["title"])}</div>'
            f'<ul class="players">{"".join(rows)}</ul>{end}</section>')


def _waiting_html(board: dict, operator: bool) -> str:
    """Boxes heard but not admitted: id, the table they claim, their key's fingerprint."""
    if not board.get("waiting"):
        return ""
    rows = []
    for w in board["waiting"]:
        again = (f" (admitted before with {_e(w['replaces'])}: its key changed)"
                 if w.get("replaces") else "")
        button = ""
        if operator:
            button = ('<form method="post" action="admit" class="admit">'
                      f'<input type="hidden" name="box" value="{_e(w["box"])}">'
                      f'<input type="hidden" name="fingerprint" value="{_e(w["fingerprint"])}">'
                      '<button type="submit">Admit</button></form>')
        rows.append(f'<li data-box="{_e(w["box"])}" data-fingerprint="{_e(w["fingerprint"])}">'
                    f'box {_e(w["box"])} calling itself {_e(w["table"])}: fingerprint '
                    f'<code>{_e(w["fingerprint"])}</code>{again} &middot; {w["messages"]} '
                    f'message(s){button}</li>')
    hint = ("Admit a box only when the fingerprint matches the one on that box's Settings."
            if operator else "The operator admits them on the operator page.")
    return (f'<h2>Waiting to be admitted</h2><p class="status">{hint}</p>'
            f'<ul id="waiting">{"".join(rows)}</ul>')


def board_html(board: dict, status: str = "", operator: bool = False) -> str:
    parts = [f'<p class="status" id="status">{_e(status)}</p>'] if status else []
    for w in board["warnings"]:
        parts.append(f'<p class="warn">{_e(w)}</p>')
    parts.append('<h2>At the tables</h2>')
    if board["tables"]:
        parts.append('<div class="grid" id="tables">'
                     + "".join(_table_card(t) for t in board["tables"]) + "</div>")
    else:
        parts.append('<p class="status" id="tables">No table has started a game yet.</p>')
    parts.append("<h2>Tonight's winners</h2>")
    if board["tonight"]:
        items = "".join(
            f'<li data-table="{_e(g["table"])}"><span class="won">{_names(g["winners"])}</span>'
            f' won {_e(g["title"])} at {_e(g["table"])} &middot; '
            f'<a href="{_e(g["url"])}">score sheet</a></li>' for g in board["tonight"])
        parts.append(f'<ul id="tonight">{items}</ul>')
    else:
        parts.append('<p class="status" id="tonight">No game finished tonight yet.</p>')
    if board["leaderboards"]:
        parts.append('<h2>Leaderboard</h2><div class="grid" id="leaderboards">')
        for lb in board["leaderboards"]:
            rows = "".join(f'<tr><td>{i}</td><td>{_e(r["name"])}</td><td class="num">'
                           f'{r["won"]}</td><td class="num">{r["played"]}</td></tr>'
                           for i, r in enumerate(lb["rows"], start=1))
            parts.append(f'<section class="card leaderboard" data-kind="{_e(lb["kind"])}">'
                         f'<h3>{_e(lb["title"])}</h3><table><tr><th></th><th>player</th>'
                         f'<th class="num">won</th><th class="num">played</th></tr>{rows}'
                         "</table></section>")
        parts.append("</div>")
    if board["reactions"]:
        rows = "".join(f'<tr><td>{_e(r["name"])}</td><td class="num">{r["median_ms"]} ms</td>'
                       f'<td class="num">{r["slaps"]}</td></tr>' for r in board["reactions"])
        parts.append('<h2>Fastest hands (slap pad)</h2><table id="reactions"><tr><th>player'
                     '</th><th class="num">median delay</th><th class="num">slaps</th></tr>'
                     f"{rows}</table>")
    parts.append(_waiting_html(board, operator))
    if board.get("flood"):
        parts.append(f'<p class="warn" id="flood">{board["flood"]} message(s) came faster '
                     "than their table's rate limit and were dropped unread.</p>")
    if board.get("unproven"):
        parts.append(f'<p class="warn" id="unproven">{board["unproven"]} message(s) did not '
                     "prove the box they named (forged, or from a box whose key changed) and "
                     "were dropped.</p>")
    if board.get("fingerprint"):
        parts.append(f'<p class="status" id="fingerprint">{_e(board["fingerprint"])}</p>')
    if board["problems"]:
        rows = "".join(f'<li>{_e(p["reason"])} (topic {_e(p["topic"])}, {p["count"]}x)</li>'
                       for p in board["problems"])
        parts.append(f'<details id="problems"><summary>Messages we could not use '
                     f'({len(board["problems"])})</summary><ul>{rows}</ul></details>')
    return "\n".join(parts)


def page(board: dict, status: str = "", operator: bool = False, told: str = "") -> str:
    head = (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{_e(board["venue"])}: tonight</title><style>{STYLE}</style></head>'
            f'<body data-version="{board["version"]}"><h1>{_e(board["venue"])}</h1>')
    if operator:
        return (head + f'<p class="status">Operator page. {_e(board.get("fingerprint"))}'
                f'</p>' + (f'<p class="warn" id="told">{_e(told)}</p>' if told else "")
                + f'<div id="board">{board_html(board, status, operator=True)}</div>'
                "</body></html>")
    return (head + f'<div id="board">{board_html(board, status)}</div>'
            f'<script>{SCRIPT}</script></body></html>')


def not_found(text: str) -> str:
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><style>{STYLE}'
            f'</style><title>Not here</title></head><body><h1>Not here</h1><p>{_e(text)}</p>'
            '<p><a href="/">Back to the tables</a></p></body></html>')
