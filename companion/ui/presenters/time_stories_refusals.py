"""Refusals of the T.I.M.E Stories screens as plain sentences (no Kivy).

The engine explains a refused action for the log and the developer ("action
'test_start' needs a non-empty 'characteristic'"); the table needs a sentence it can
act on ("Choose the characteristic the test uses"). Two tools:

    why = precheck(action, snap)   # a predictable refusal, found before app.act
    text = plain(engine_message)   # any engine refusal, reworded

The screen calls ``precheck`` first, then lets the engine try the action on a copy of
the state (the engine is pure) and rewords its refusal with ``plain``; only an action
that passes both reaches ``app.act`` and the log.
"""

from __future__ import annotations

import re

#: a refused action's missing field -> what to ask the table for
MISSING = {
    "characteristic": "Choose the characteristic the test uses",
    "space": "Choose the space of the test",
    "reason": "Choose a reason for the change",
    "character": "Choose a character",
    "item": "Type the item's name",
}
FIELD_WORDS = {"die": "The die", "delta": "The change", "amount": "The amount",
               "starting_tu": "The starting TU", "extra_dice": "Extra dice",
               "turn_to_hit": "Dice turned to hits"}
NO_CHARACTERS = "Add the characters first"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


#: engine message pattern -> plain sentence (format fields are the pattern's groups)
_PLAIN: list[tuple[re.Pattern, object]] = [
    (re.compile(r"action '\w+' needs a non-empty '(\w+)'"),
     lambda m: MISSING.get(m[1], f"Fill in the {m[1].replace('_', ' ')}")),
    (re.compile(r"action '\w+': '(\w+)' must be (-?\d+) to (-?\d+), not .*"),
     lambda m: f"{FIELD_WORDS.get(m[1], _cap(m[1].replace('_', ' ')))} must be "
               f"{m[2]} to {m[3]}"),
    (re.compile(r"the test at (\w+) needs at least one character"),
     lambda m: "Choose who takes part in the test"),
    (re.compile(r"a test needs a non-empty list of 'shields'.*"),
     lambda m: "Add the card's shields, left to right"),
    (re.compile(r"a test has at most (\d+) shields.*"),
     lambda m: f"A test has at most {m[1]} shields"),
    (re.compile(r"(.+) has no characteristic '(.+)' \(has: .*\)"),
     lambda m: f"{m[1]} has no {m[2]}: leave {m[1]} out of this test"),
    (re.compile(r"(.+) is in the test at (\w+): finish or abandon it first"),
     lambda m: f"{m[1]} is already in the test at space {m[2]}: finish or abandon that "
               "test first"),
    (re.compile(r"a test is already open at space (\w+)"),
     lambda m: f"Space {m[1]} already has a test: finish or abandon it first"),
    (re.compile(r"the test at (\w+) was rolled and abandoned this turn.*"),
     lambda m: f"The test at space {m[1]} was given up this turn: take another turn "
               "(Stay, 1 TU) to try it again"),
    (re.compile(r"the test at (\w+) was rolled this turn: continue it.*"),
     lambda m: f"The test at space {m[1]} was rolled this turn: continue or abandon it"),
    (re.compile(r"the test at (\w+) has not been rolled yet this turn.*"),
     lambda m: f"Roll the dice for the test at space {m[1]} first"),
    (re.compile(r"the test at (\w+) is locked: it cannot be abandoned.*"),
     lambda m: f"The test at space {m[1]} is locked: it goes on until it is cleared "
               "or its characters are dead"),
    (re.compile(r"the test at (\w+) is locked: (.+) must stay"),
     lambda m: f"The test at space {m[1]} is locked: {m[2]} must stay in it"),
    (re.compile(r"the group cannot leave: the test at (.+) is locked.*"),
     lambda m: f"The group cannot leave: the locked test at space {m[1]} must be "
               "cleared first"),
    (re.compile(r"the roll has (\d+) faces but the test at (\w+) needs (\d+) dice.*"),
     lambda m: f"The test at space {m[2]} needs {m[3]} dice, not {m[1]}"),
    (re.compile(r"several tests are open \(spaces (.+)\).*"),
     lambda m: f"Several tests are open (spaces {m[1]}): choose one"),
    (re.compile(r"no open test at space '?(\w+)'? .*"),
     lambda m: f"There is no open test at space {m[1]}"),
    (re.compile(r"characters are chosen at the start of a run.*"),
     lambda m: "Characters change only at the start of a run, before anything happens: "
               "new ones can come in with the next run"),
    (re.compile(r"run (\d+) is over \(.*\): start the next run first"),
     lambda m: f"Run {m[1]} is over: start the next run first"),
    (re.compile(r"run (\d+) is still going: end it first"),
     lambda m: f"Run {m[1]} is still going"),
    (re.compile(r"no character called '(.+)' in this run.*"),
     lambda m: f"There is no character called {m[1]} in this run"),
    (re.compile(r"(.+)'s (life|resistance) must be (\d+) to (\d+), not .*"),
     lambda m: f"{m[1]}'s {m[2]} must be {m[3]} to {m[4]}"),
    (re.compile(r"(.+)'s (.+) must be 0 to (\d+), not .*"),
     lambda m: f"{m[1]}'s {m[2]} must be 0 to {m[3]} dice"),
    (re.compile(r"'characters' must list 1 to (\d+) characters"),
     lambda m: f"A run has 1 to {m[1]} characters"),
    (re.compile(r"two characters share a name"),
     lambda m: "Two characters have the same name: give each its own"),
    (re.compile(r"character \d+ has no name"),
     lambda m: "Every character needs a name"),
    (re.compile(r"(.+)'s player_seat .*"),
     lambda m: f"{m[1]} needs a player at the table"),
    (re.compile(r"adjust_tu: a 'delta' of 0 changes nothing"),
     lambda m: "A correction of 0 changes nothing"),
    (re.compile(r"the group has no item '(.+)'"),
     lambda m: f"The group has no item called {m[1]}"),
]


def plain(message: str) -> str:
    """An engine refusal as a sentence for the table."""
    text = message.strip()
    for pattern, say in _PLAIN:
        m = pattern.fullmatch(text)
        if m:
            return say(m)
    text = re.sub(r"^action '\w+':\s*", "", text)
    text = re.sub(r"^(travel|stay|adjust_tu|start_run|end_run|test_\w+):? ", "", text)
    return _cap(text.replace("'", ""))


def _living(snap: dict) -> dict[str, dict]:
    return {c["name"]: c for c in snap["characters"] if not c["dead"]}


def precheck(action: dict, snap: dict) -> str | None:
    """The refusal the table can be told before the engine sees the action, or None."""
    kind = action.get("type")
    if snap.get("mission_complete"):
        return "The mission is complete: nothing more to play"
    if kind != "start_run" and not snap["running"]:
        return f"Run {snap['run']} is over: start the next run first"
    if kind == "test_start":
        return _precheck_test(action, snap)
    if kind == "adjust_tu":
        if not action.get("delta"):
            return "A correction of 0 changes nothing"
        if not str(action.get("reason") or "").strip():
            return MISSING["reason"]
    if kind in ("damage", "heal"):
        c = {x["name"]: x for x in snap["characters"]}.get(action.get("character"))
        if c is None:
            return MISSING["character"]
        if c["dead"]:
            back = (f"comes back at {c['revives_at']} TU" if c.get("revives_at") is not None
                    else "cannot come back in this run")
            return f"{c['name']} is dead and {back}"
        if kind == "heal" and c["life"] >= c["max_life"]:
            return f"{c['name']} already has full health ({c['max_life']} LP)"
    return None


def _precheck_test(action: dict, snap: dict) -> str | None:
    if not snap["characters"]:
        return NO_CHARACTERS
    space = action.get("space")
    if not space:
        return MISSING["space"]
    if any(t["space"] == space for t in snap["tests"]):
        return f"Space {space} already has a test: finish or abandon it first"
    trait = action.get("characteristic")
    if not trait:
        return MISSING["characteristic"]
    who = list(action.get("characters") or [])
    if not who:
        return "Choose who takes part in the test"
    living = _living(snap)
    for name in who:
        c = living.get(name)
        if c is None:
            return f"{name} is dead and cannot take part"
        if trait not in c["characteristics"]:
            return f"{name} has no {trait}: leave {name} out of this test"
        busy = [t["space"] for t in snap["tests"] if name in t["characters"]]
        if busy:
            return (f"{name} is already in the test at space {busy[0]}: finish or abandon "
                    "that test first")
    if not action.get("shields"):
        return "Add the card's shields, left to right"
    return None
