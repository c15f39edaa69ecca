"""View data for the T.I.M.E Stories screens and the standalone Time Captain die tool.

Pure (no Kivy, no clock, no randomness): the controllers in ``companion/control/
time_stories*.py`` and ``captain_die.py`` read the engine's snapshot through these
functions and put what comes back in the views their screens show.

    view = mission_view(snap)          # TU, run line, log lines, burn-down, run-over offer
    odds_lines(test["odds"])           # "Clear 40.7 %" and each character's risk
    roll_lines(snap["last_roll"])      # what a roll removed and what each character lost
    anim = DieAnimation(face=2, start_ns=t)   # cycling faces, then the rolled one
    anim.shown(now_ns)                 # (face to draw, settled?)
    chart_points(snap["burndown"], snap["starting_tu"])   # 0..1 steps for the chart
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.dice import captain_cost
from companion.games.time_stories.action_test import counted
from companion.ui import theme

RED_EXTRA_TU = 2
LOG_LINES = 4
HISTORY = 8

#: action-die face -> (symbol text, words, RGBA of its tile)
FACE_LOOK = {
    "skull": ("\u2620", "skull", theme.FACE_SKULL),
    "blank": ("\u2013", "blank", theme.FACE_BLANK),
    "hit": ("\u2739", "1 hit", theme.FACE_HIT),
    "double": ("\u2739\u2739", "2 hits", theme.FACE_DOUBLE),
}
#: A die's symbols in the order a tap steps through them, when the table enters its
#: own action dice, and the regular die's face the engine reads for each.
DIE_SYMBOLS = ("skull", "blank", "hit", "double")
FACE_OF_SYMBOL = {"skull": 1, "blank": 3, "hit": 4, "double": 6}


def faces_for(symbols: list[str]) -> list[int]:
    """The ``test_roll`` faces for dice the table rolled and entered by their symbols."""
    return [FACE_OF_SYMBOL[s] for s in symbols]


#: shield kind -> (short label for a shield chip, words)
SHIELD_LOOK = {
    "blank": ("\u25cb", "blank"),
    "skull": ("\u2620", "skull"),
    "heart": ("\u2665", "heart"),
    "tu": ("TU", "time"),
    "special": ("\u25a0", "black"),
}
OUTCOME_TEXT = {
    "successful": "Mission successful!",
    "failed_time": "Mission failed: time ran out",
    "failed_deaths": "Mission failed: every character is dead",
}
#: the number buttons offered for the next run's starting TU
STARTING_TU_CHOICES = (20, 25, 30, 35, 40)


# ----------------------------------------------------------------- Time Captain die
def captain_total(face: int, red: bool) -> int:
    """TU a travel costs: the die's cost plus 2 when leaving a red-lettered location."""
    return captain_cost(face) + (RED_EXTRA_TU if red else 0)


def captain_text(face: int, red: bool) -> str:
    """"Die 2: 2 TU"; with a red-lettered location the sum: "Die 2: 2 TU + 2 red = 4 TU"."""
    if not red:
        return f"Die {face}: {captain_cost(face)} TU"
    return (f"Die {face}: {captain_cost(face)} TU + {RED_EXTRA_TU} red = "
            f"{captain_total(face, red)} TU")


def captain_shown(last: dict | None) -> tuple[str, str]:
    """The captain die's face and caption as the log says them: the roll of the last
    action when it was a travel, else none ("-"). Read from the log, so an undone roll
    is never left on the die and a resumed game shows the roll it ended on."""
    if last and last.get("type") == "travel" and isinstance(last.get("die"), int):
        return str(last["die"]), captain_text(last["die"], bool(last.get("red")))
    return "-", ""


def roll_is_news(last: dict | None, n_actions: int, dismissed: int | None) -> bool:
    """Whether the dice test shows the last roll's result: the last action in the log is
    a ``test_roll`` the table has not put away ("New test") since. From the log, so an
    undo shows the state before the roll and a resume shows the roll it ended on."""
    return bool(last) and last.get("type") == "test_roll" and dismissed != n_actions


def push_history(history: list, face: int, red: bool, limit: int = HISTORY) -> list:
    """The last rolls, newest first, as JSON-ready [face, red] pairs (kept in settings)."""
    return [[face, bool(red)]] + [list(h) for h in history][: limit - 1]


def history_lines(history: list) -> list[str]:
    return [captain_text(int(f), bool(r)) for f, r in history]


@dataclass
class DieAnimation:
    """A rolled die shown tumbling: other faces for ``duration_ns``, then the real one.

    The face is rolled before the animation starts; the animation only decides what is
    drawn at ``now_ns`` (passed in by the screen's ``on_frame``).
    """

    face: int
    start_ns: int
    duration_ns: int = 600_000_000
    step_ns: int = 60_000_000
    sides: int = 6
    done: bool = field(default=False)

    def shown(self, now_ns: int) -> tuple[int, bool]:
        elapsed = now_ns - self.start_ns
        if self.done or elapsed >= self.duration_ns:
            self.done = True
            return self.face, True
        step = max(0, elapsed) // self.step_ns
        # never the rolled face while tumbling, so the settle is visible
        others = [f for f in range(1, self.sides + 1) if f != self.face]
        return others[(step * 3 + self.face) % len(others)], False


# ----------------------------------------------------------------- the mission view
@dataclass(frozen=True)
class MissionView:
    mission: str
    tu: int
    starting_tu: int
    run_line: str
    log_lines: list[str]
    running: bool
    outcome_text: str
    mission_complete: bool
    kept_items: list[str]
    location_red: bool
    tests_open: int


def mission_view(snap: dict, lines: int = LOG_LINES) -> MissionView:
    running = bool(snap["running"])
    where = f", at {snap['location']}" if snap.get("location") else ""
    run_line = f"Run {snap['run']} · turn {snap['turn']}{where}"
    kept = [i["name"] + (f" ({i['holder']})" if i.get("holder") else "")
            for i in snap.get("items", []) if i.get("agency")]
    return MissionView(
        mission=snap["mission"],
        tu=snap["tu"],
        starting_tu=snap["starting_tu"],
        run_line=run_line,
        log_lines=[short_log(e["text"]) for e in snap["log"][-lines:]],
        running=running,
        outcome_text=OUTCOME_TEXT.get(snap.get("outcome") or "", ""),
        mission_complete=bool(snap.get("mission_complete")),
        kept_items=kept,
        location_red=bool(snap.get("location_red")),
        tests_open=len(snap.get("tests", [])),
    )


def short_log(text: str) -> str:
    """A log line without its "run N, " prefix (the run is on screen already)."""
    head, sep, rest = text.partition(", ")
    return rest if sep and head.startswith("run ") else text


def chart_points(burndown: list, starting_tu: int, min_turns: int = 10) -> list[tuple]:
    """Steps of TU against turns, scaled to 0..1 both ways (x: turn, y: TU/start).

    Each (turn, TU) point is held until the next turn, drawn as a staircase.
    """
    if not burndown:
        return []
    top = max([starting_tu] + [tu for _, tu in burndown]) or 1
    last_turn = max(min_turns, burndown[-1][0] + 1)
    out: list[tuple[float, float]] = []
    for i, (turn, tu) in enumerate(burndown):
        x, y = turn / last_turn, tu / top
        if i:
            out.append((x, out[-1][1]))  # hold the previous level until this turn
        out.append((x, y))
    out.append(((burndown[-1][0] + 1) / last_turn, out[-1][1]))
    return out


# ----------------------------------------------------------------- characters
def life_text(c: dict) -> str:
    """Hearts for small life totals, a number for large ones; the dead say when back."""
    if c["dead"]:
        if c.get("revives_at") is not None:
            return f"dead: back at {c['revives_at']} TU"
        return "dead: cannot come back in this run"
    if c["max_life"] <= 6:
        return "\u2665" * c["life"] + "\u2661" * (c["max_life"] - c["life"])
    return f"{c['life']}/{c['max_life']} LP"


def traits_text(c: dict) -> str:
    traits = " ".join(f"{k[:4]} {v}" for k, v in c["characteristics"].items())
    return f"res {c['resistance']} · {traits}"


# ----------------------------------------------------------------- dice tests
def pct(p: dict | float | None) -> str:
    if p is None:
        return "-"
    value = p["p"] if isinstance(p, dict) else p
    return f"{100 * value:.1f} %"


def odds_lines(odds: dict | None) -> list[str]:
    """The exact odds of the next roll, in words, before the dice are thrown."""
    if not odds:
        return []
    out = [f"{counted(odds['dice'], 'die', 'dice')}: clear {pct(odds['p_clear'])}"]
    for name, c in odds["characters"].items():
        death = c.get("p_death")
        dies = f", dies {pct(death)}" if death and death["p"] > 0 else ""
        out.append(f"{name} hurt {pct(c['p_damage'])}{dies}")
    if odds.get("p_tu_loss") and odds["p_tu_loss"]["p"] > 0:
        out.append(f"TU shields cost time {pct(odds['p_tu_loss'])}")
    return out


def shields_text(shields: list[str]) -> str:
    return " ".join(SHIELD_LOOK[s][0] for s in shields) or "none"


def roll_lines(last: dict | None) -> list[str]:
    """What the last roll did: removed shields, the riposte, each character's loss."""
    if not last:
        return []
    out = last["outcome"]
    turned = f", {len(out['turned'])} turned to hit" if out["turned"] else ""
    lines = [f"Space {last['space']}: {counted(out['hits'], 'hit')}, "
             f"{counted(out['skulls'], 'skull')}{turned}"]
    removed = ", ".join(SHIELD_LOOK[s][1] for s in out["removed"]) or "nothing"
    lines.append(f"Removed: {removed}")
    lines.append("Test cleared!" if out["cleared"]
                 else f"Left: {', '.join(SHIELD_LOOK[s][1] for s in out['left'])}")
    if out["riposte"]:
        lines.append(f"Riposte: {counted(out['riposte'], 'skull')}")
    for loss in out["losses"]:
        total = loss["riposte"] + loss["hearts"]
        if total:
            lines.append(f"{loss['character']} loses {total} LP")
    if out["tu_cost"]:
        lines.append(f"TU shields: -{out['tu_cost']} TU")
    for name in last.get("deaths", []):
        lines.append(f"{name} dies")
    return lines


def face_symbols(last: dict | None) -> list[str]:
    """The symbol of each die of the last roll (after modifiers), for big tiles."""
    return [] if not last else list(last["outcome"]["symbols"])
