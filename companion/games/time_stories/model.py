"""T.I.M.E Stories engine, part 1: state records and the bookkeeping of time, life, items.

``companion.games.time_stories`` (the engine module the registry and the session use)
holds the action handlers and imports everything from here; nothing else should need
this module. What lives here:

* the frozen records: ``State``, ``Run``, ``Character``, ``Item``, ``LogEntry``,
  ``RollRecord`` (open tests are ``action_test.Test``);
* ``spend``: the only way TU leave the tracker. It stops at 0 and logs the real
  amount, brings back characters whose revival time has come, and ends the run as
  ``failed_time`` at 0;
* ``hurt`` / ``after_damage``: life-point loss, death (with the TU at death), dead
  characters leaving their tests, and ``failed_deaths`` when nobody is left;
* ``end_run``: records the outcome; on failure, items without the T.I.M.E Agency logo
  go back to the deck;
* the item actions (``gain_item``, ``give_item``, ``drop_item``), registered by the
  engine module;
* field readers: a missing or mistyped key is a ``MalformedAction``; an empty name or a
  number out of range a ``RuleError`` whose sentence says what the field is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import Player, listed, require
from companion.games.evolve import replace
from companion.games.pvec import EMPTY, PVec
from companion.games.time_stories import action_test as at

DEFAULT_TU = 25
MAX_TU = 200
REVIVAL_TU = 7
RED_DEPARTURE_TU = 2
MAX_CHARACTERS = 4
MAX_LIFE = 20
OUTCOMES = ("successful", "failed_time", "failed_deaths")
#: Log lines that do not begin a run: characters may still be chosen after them.
QUIET_KINDS = ("run", "cast", "item")
_OUTCOME_TEXT = {
    "successful": "mission successful",
    "failed_time": "mission failed: time ran out",
    "failed_deaths": "mission failed: every character is dead",
}


@dataclass(frozen=True, slots=True)
class Ability:
    """A receptacle's ability that changes the rolls of one characteristic only: that
    many dice turned into one hit each (Marie on Glibness), or extra dice."""

    characteristic: str
    turn_to_hit: int = 0
    extra_dice: int = 0


@dataclass(frozen=True, slots=True)
class Character:
    """A receptacle. ``characteristics`` are the dice of the card; ``alone`` and
    ``together`` are the values the card gives instead when the character is alone in
    a space, or shares it with every other living character (empty: no change)."""

    name: str
    seat: int
    max_life: int
    life: int
    resistance: int
    characteristics: tuple[tuple[str, int], ...]
    tu_at_death: int | None = None
    alone: tuple[tuple[str, int], ...] = ()
    together: tuple[tuple[str, int], ...] = ()
    abilities: tuple[Ability, ...] = ()

    def dice(self, characteristic: str, company: str = "") -> int:
        """Dice for ``characteristic`` in ``company`` ("alone", "together" or "")."""
        base = dict(self.characteristics)[characteristic]
        changed = dict(self.alone if company == "alone" else
                       self.together if company == "together" else ())
        return changed.get(characteristic, base)

    @property
    def dead(self) -> bool:
        return self.life <= 0

    @property
    def revives_at(self) -> int | None:
        """TU left at which this dead character comes back, None if not in this run."""
        if self.tu_at_death is None or self.tu_at_death - REVIVAL_TU < 1:
            return None
        return self.tu_at_death - REVIVAL_TU


@dataclass(frozen=True, slots=True)
class Item:
    name: str
    holder: str | None  # a character's name, or None: with the group
    agency: bool = False


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the run log. ``amount`` is the TU really spent (negative: given back),
    ``asked`` what the rule asked for before the tracker stopped at 0; 0 for notes."""

    run: int
    turn: int
    tu_before: int
    tu_after: int
    amount: int
    asked: int
    kind: str
    reason: str

    @property
    def text(self) -> str:
        head = f"run {self.run}, turn {self.turn}: {self.reason}"
        if not self.amount and not self.asked:
            return head
        out = f"{head}: {self.tu_before} -> {self.tu_after} TU"
        return out + (f" (asked {self.asked})" if self.asked != self.amount else "")


@dataclass(frozen=True, slots=True)
class Run:
    number: int
    starting_tu: int
    outcome: str | None = None


@dataclass(frozen=True, slots=True)
class RollRecord:
    """The last roll, kept so the screen can tell each character what they lost."""

    space: str
    characteristic: str
    outcome: at.RollOutcome
    deaths: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class State:
    """The mission so far. ``runs``, ``log`` and ``run_starts`` grow all night, so they
    are ``PVec``s (adding a line copies nothing). ``run_starts[k]`` is where run k + 1's
    lines begin in ``log``; ``run_begun`` says the current run has more than quiet lines
    (``QUIET_KINDS``): time, damage or a test, after which characters are fixed."""

    players: tuple[Player, ...]
    mission: str
    default_tu: int
    riposte_on_clear: bool
    runs: PVec
    tu: int
    turn: int = 0
    location: str | None = None
    location_red: bool = False
    characters: tuple[Character, ...] = ()
    items: tuple[Item, ...] = ()
    tests: tuple[at.Test, ...] = ()
    last_roll: RollRecord | None = None
    log: PVec = EMPTY
    #: (space, turn) of tests abandoned after a roll in that turn: trying one again
    #: needs a new turn, as continuing it would.
    abandoned: tuple[tuple[str, int], ...] = ()
    run_starts: PVec = EMPTY
    run_begun: bool = False
    #: (character, space, turn) for every character that rolled at a space in the
    #: current turn (older turns are dropped): another space needs another turn.
    acted: tuple[tuple[str, str, int], ...] = ()

    @property
    def run(self) -> Run:
        return self.runs[-1]

    @property
    def running(self) -> bool:
        return self.run.outcome is None


# ----------------------------------------------------------------- small helpers
#: what a field of an action is, for the sentence that asks for it or bounds it
FIELD_WORDS = {
    "space": "the space of the test",
    "characteristic": "the characteristic the test uses",
    "reason": "a reason",
    "item": "the item's name",
    "character": "a character",
    "delta": "a correction",
    "amount": "the amount",
    "starting_tu": "the starting time units",
}


def text_field(action: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = action.get(key, default)
    if value is not None and not isinstance(value, str):
        raise MalformedAction(f"action '{action.get('type')}': '{key}' must be text, "
                              f"not {value!r}")
    if value is None or not value.strip():
        raise RuleError("time_stories.missing", "Choose {what} first.",
                        what=FIELD_WORDS.get(key, key.replace("_", " ")))
    return value.strip()


def int_field(action: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    value = require(action, key, int)
    if not lo <= value <= hi:
        raise RuleError("time_stories.out_of_range", "{What} must be {lo} to {hi}, not "
                        "{value}.", What=_cap(FIELD_WORDS.get(key, key.replace("_", " "))),
                        lo=lo, hi=hi, value=value)
    return value


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def flag_field(action: Mapping[str, Any], key: str) -> bool:
    value = action.get(key, False)
    if not isinstance(value, bool):
        raise MalformedAction(f"action '{action.get('type')}': '{key}' must be true or false")
    return value


def character(state: State, name: str) -> Character:
    for c in state.characters:
        if c.name == name:
            return c
    if not state.characters:
        raise RuleError("time_stories.no_characters", "This run has no characters: add them "
                        "first.")
    raise RuleError("time_stories.no_such_character", "There is no character called {name} "
                    "in this run (characters: {known}).", name=name,
                    known=listed(c.name for c in state.characters))


def living(state: State, name: Any) -> Character:
    if name is None:
        raise RuleError("time_stories.missing", "Choose {what} first.", what="a character")
    if not isinstance(name, str):
        raise MalformedAction(f"a character is named by a string, not {name!r}")
    c = character(state, name)
    if c.dead:
        raise RuleError("time_stories.dead", "{name} is dead and {back}.", name=name,
                        back=f"comes back at {c.revives_at} TU" if c.revives_at
                        else "cannot come back in this run")
    return c


def put(state: State, new: Character) -> State:
    chars = tuple(new if c.name == new.name else c for c in state.characters)
    return replace(state, characters=chars)


def note(state: State, kind: str, reason: str, before: int | None = None,
         asked: int | None = None) -> State:
    """Append a log line; with ``before``, the line records a change of TU."""
    tu0 = state.tu if before is None else before
    entry = LogEntry(state.run.number, state.turn, tu0, state.tu, tu0 - state.tu,
                     tu0 - state.tu if asked is None else asked, kind, reason)
    return replace(state, log=state.log.append(entry),
                   run_begun=state.run_begun or kind not in QUIET_KINDS)


def parse_characters(raw: Any, players: tuple[Player, ...]) -> tuple[Character, ...]:
    """Validate receptacle sheets: name, player_seat, life, resistance, characteristics."""
    if not isinstance(raw, (list, tuple)):
        raise MalformedAction(f"'characters' must be a list of character sheets, not {raw!r}")
    if not 1 <= len(raw) <= MAX_CHARACTERS:
        raise RuleError("time_stories.character_count", "A run has 1 to {most} characters, not "
                        "{count}.", most=MAX_CHARACTERS, count=len(raw))
    seats = {p.seat for p in players}
    out: list[Character] = []
    for i, c in enumerate(raw):
        if not isinstance(c, Mapping):
            raise MalformedAction(f"character {i + 1} must be an object, not {c!r}")
        name = c.get("name")
        if name is not None and not isinstance(name, str):
            raise MalformedAction(f"character {i + 1}: 'name' must be text, not {name!r}")
        seat = c.get("player_seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in seats:
            raise MalformedAction(f"character {i + 1}'s player_seat {seat!r} is not a "
                                  f"player's seat {sorted(seats)}")
        if name is None or not name.strip():
            raise RuleError("time_stories.character_name", "{player}'s character needs a "
                            "name.", player=next(p.name for p in players if p.seat == seat))
        name = name.strip()
        stats = {}
        for key, lo in (("life", 1), ("resistance", 0)):
            v = c.get(key)
            if isinstance(v, bool) or not isinstance(v, int):
                raise MalformedAction(f"{name}'s {key} must be a whole number, not {v!r}")
            if not lo <= v <= MAX_LIFE:
                raise RuleError("time_stories.sheet_range", "{name}'s {what} must be {lo} to "
                                "{hi}, not {value}.", name=name,
                                what="life points" if key == "life" else key, lo=lo,
                                hi=MAX_LIFE, value=v)
            stats[key] = v
        chars = c.get("characteristics", {})
        if not isinstance(chars, Mapping):
            raise MalformedAction(f"{name}'s characteristics must be an object of name: dice")
        for k, v in chars.items():
            if not isinstance(k, str) or not k.strip():
                raise RuleError("time_stories.characteristic_name", "{name} has a "
                                "characteristic without a name.", name=name)
            at.check_characteristic(name, k, v)
        company = {key: _company(name, c, key, chars) for key in ("alone", "together")}
        out.append(Character(name, seat, stats["life"], stats["life"], stats["resistance"],
                             tuple(sorted(chars.items())), alone=company["alone"],
                             together=company["together"],
                             abilities=_abilities(name, c.get("abilities"), chars)))
    lowered = [c.name.lower() for c in out]
    twice = next((c.name for c in out if lowered.count(c.name.lower()) > 1), None)
    if twice is not None:
        raise RuleError("time_stories.same_character_name", "Two characters are both called "
                        "{name}: give each its own name.", name=twice)
    return tuple(out)


def _company(name: str, sheet: Mapping[str, Any], key: str,
             chars: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """The characteristics a sheet changes when its character is ``alone`` in a space or
    ``together`` with every other character: a subset of its own characteristics."""
    raw = sheet.get(key) or {}
    if not isinstance(raw, Mapping):
        raise MalformedAction(f"{name}'s {key!r} must be an object of name: dice, not {raw!r}")
    for k, v in raw.items():
        if k not in chars:
            raise RuleError("time_stories.company_unknown", "{name} has no {what} to change "
                            "when {when}.", name=name, what=k,
                            when="alone" if key == "alone" else "with everyone")
        at.check_characteristic(name, k, v)
    return tuple(sorted(raw.items()))


def _abilities(name: str, raw: Any, chars: Mapping[str, int]) -> tuple[Ability, ...]:
    """``[{"characteristic": "Glibness", "turn_to_hit": 1}, ...]`` from a sheet."""
    if raw is None:
        return ()
    if not isinstance(raw, (list, tuple)):
        raise MalformedAction(f"{name}'s abilities must be a list, not {raw!r}")
    out = []
    for item in raw:
        if not isinstance(item, Mapping) or set(item) - {"characteristic", "turn_to_hit",
                                                           "extra_dice"}:
            raise MalformedAction(f"{name}'s ability {item!r} is not "
                                  "{'characteristic', 'turn_to_hit', 'extra_dice'}")
        which = item.get("characteristic")
        if not isinstance(which, str):
            raise MalformedAction(f"{name}'s ability {item!r} names no characteristic")
        if which not in chars:
            raise RuleError("time_stories.ability_unknown", "{name}'s ability is for {what}, "
                            "which {name} does not have.", name=name, what=which)
        turn, extra = item.get("turn_to_hit", 0), item.get("extra_dice", 0)
        for v in (turn, extra):
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= at.MAX_EXTRA_DICE:
                raise MalformedAction(f"{name}'s ability {item!r}: dice must be 0 to "
                                      f"{at.MAX_EXTRA_DICE}")
        out.append(Ability(which, turn, extra))
    return tuple(out)


# ----------------------------------------------------------------- time, life, runs
def end_run(state: State, outcome: str, why: str) -> State:
    state = replace(state, runs=state.runs.set(-1, replace(state.run, outcome=outcome)),
                    tests=())
    state = note(state, "run", f"run {state.run.number} ends, {_OUTCOME_TEXT[outcome]} ({why})")
    if outcome != "successful":
        back = [i.name for i in state.items if not i.agency]
        if back:
            state = replace(state, items=tuple(i for i in state.items if i.agency))
            state = note(state, "item", "back to the item deck: " + ", ".join(back))
    return state


def spend(state: State, asked: int, kind: str, reason: str) -> State:
    """Take ``asked`` TU off the tracker (never below 0), log it, revive, end at 0."""
    before = state.tu
    state = note(replace(state, tu=max(0, before - asked)), kind, reason, before, asked)
    if state.tu == 0:
        return end_run(state, "failed_time", "no time units left")
    for c in state.characters:
        if c.dead and c.revives_at is not None and state.tu <= c.revives_at:
            state = put(state, replace(c, life=c.max_life, tu_at_death=None))
            state = note(state, "revival", f"{c.name} comes back at full health "
                          f"({c.max_life} LP; died at {c.tu_at_death} TU)")
    return state


def hurt(state: State, name: str, amount: int, reason: str) -> State:
    c = character(state, name)
    life = max(0, c.life - amount)
    state = put(state, replace(c, life=life, tu_at_death=state.tu if life == 0 else None))
    state = note(state, "damage", f"{name} loses {c.life - life} LP ({reason}): {life} LP left")
    if life == 0:
        back = character(state, name).revives_at
        when = f"comes back at {back} TU" if back else "cannot come back in this run"
        state = note(state, "death", f"{name} dies at {state.tu} TU and {when}")
    return state


def after_damage(state: State) -> State:
    """Take the dead out of their tests; a run with every character dead has failed."""
    tests = []
    for t in state.tests:
        alive = tuple(n for n in t.characters if not character(state, n).dead)
        if alive:
            tests.append(replace(t, characters=alive))
        else:
            state = note(state, "test", f"test at {t.space} ends: its characters are dead")
    state = replace(state, tests=tuple(tests))
    if state.characters and all(c.dead for c in state.characters):
        state = end_run(state, "failed_deaths", "every character is dead")
    return state


# ----------------------------------------------------------------- items
def item_named(state: State, name: Any) -> Item:
    for i in state.items:
        if i.name == name:
            return i
    if name is None or name == "":
        raise RuleError("time_stories.missing", "Choose {what} first.", what="an item")
    raise RuleError("time_stories.no_such_item", "The group has no item called {item}.",
                    item=name)


def put_item(state: State, new: Item) -> State:
    return replace(state, items=tuple(new if i.name == new.name else i for i in state.items))


def holder_field(state: State, action: Mapping[str, Any], key: str) -> str | None:
    if key not in action:
        raise MalformedAction(f"action '{action['type']}' needs '{key}': a character, or "
                              "null for the group")
    return None if action[key] is None else living(state, action[key]).name


def gain_item(state: State, action: Mapping[str, Any]) -> State:
    """An item card enters play; between runs (a MISSION FAILED card's items) it goes
    to the group, as nobody has a receptacle until the next run starts."""
    name = text_field(action, "item")
    if any(i.name.lower() == name.lower() for i in state.items):
        raise RuleError("time_stories.item_twice", "The group already has {item}.", item=name)
    if not state.running and action.get("holder") is not None:
        raise RuleError("time_stories.item_between_runs", "Between runs an item goes to the "
                        "group: hand it to a character once run {next} starts.",
                        next=state.run.number + 1)
    holder = holder_field(state, {"holder": None} | dict(action), "holder")
    agency = flag_field(action, "agency")
    state = replace(state, items=state.items + (Item(name, holder, agency),))
    kind = " (T.I.M.E Agency: kept between runs)" if agency else ""
    when = "" if state.running else f", for run {state.run.number + 1}"
    return note(state, "item", f"{holder or 'the group'} gains {name}{kind}{when}")


def give_item(state: State, action: Mapping[str, Any]) -> State:
    item = item_named(state, action.get("item"))
    to = holder_field(state, action, "to")
    if to == item.holder:
        raise RuleError("time_stories.holds_already", "{Holder} already holds {item}.",
                        Holder=to or "The group", item=item.name)
    state = put_item(state, replace(item, holder=to))
    return note(state, "item", f"{item.name}: {item.holder or 'the group'} -> {to or 'the group'}")


def drop_item(state: State, action: Mapping[str, Any]) -> State:
    item = item_named(state, action.get("item"))
    state = replace(state, items=tuple(i for i in state.items if i.name != item.name))
    return note(state, "item", f"{item.name} leaves play ({action.get('reason') or 'dropped'})")
