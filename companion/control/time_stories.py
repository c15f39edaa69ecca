"""What a tap on the T.I.M.E Stories screen means, without Kivy.

``TimeStoriesControl`` holds everything the table has half chosen on the mission screen
and its panels (the red-lettered toggle, the rolling captain die, the dice test being
set up, the TU correction, the next run's starting TU, the item being added, the setup
draft and the field being typed) and turns each tap into an engine action. What the
screen shows is ``view()``: an immutable ``View`` built from the engine's snapshot and
that state (through ``companion.ui.presenters.time_stories*``). The screen
(``companion/ui/screens/time_stories.py``) is kv plus ``show(view)``; each tap is one
line there: ``self.show(control.tap(key))``, where ``key`` is the tuple the view gave
the button (``("space", "B")``, ``("roll",)``...).

Wiring: ``TimeStoriesControl(app, rng=None)``. ``app`` is a port (duck-typed) with
``session`` (the game in progress, or None), ``act(action) -> bool`` (logged, or refused
in the rule's words), ``undo()``, ``play(cue)``, ``say(text, error=False)``,
``amend_setup(setup) -> bool``, ``end_game(ask=...)``, ``log.get_setting/set_setting``,
``cfg.seats`` and ``table.now_ns()``. ``rng``: the random source of the dice (None: the
OS's; a ``tests/fakes.Faces`` in tests). No Kivy, no clock: the captain die tumbles
through ``frame(now_ns)``, called by the screen's ``on_frame``.

Refusals: each action is asked of the engine first (``games.base.check``, a dry run);
a refused one is not sent, its sentence goes to ``View.message``, which the screen shows
in its own layout beside the choices it is about (never over them), with the error cue.
The setup (mission, starting TU, a character a player) is ``time_stories_setup.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion import dice
from companion.control.time_stories_setup import SetupControl
from companion.games import time_stories
from companion.games.base import check
from companion.palette import rgba
from companion.ui.presenters import time_stories as p
from companion.ui.presenters import time_stories_items as pi
from companion.ui.presenters import time_stories_setup as setup

SCREEN = time_stories.GAME.screen_name  # the screen this controller drives
LOG_ROWS = 60  # the time log's rows, newest first
SPACES = ("A", "B", "C", "D", "E", "F", "G")
SHIELDS = ("blank", "skull", "heart", "tu")
REASONS = ("Card effect", "Item used", "Fix a mistake")
#: refusals of a test start that another turn (1 TU) answers: offered as "Stay and start"
PAY_A_TURN = ("time_stories.another_space", "time_stories.retry_needs_turn")
MISSION = {"text": "Mission", "key": ("mission",)}


@dataclass(frozen=True)
class View:
    """What the screen shows. ``panel``: "mission", "panel" (``title``, ``rows``,
    ``note``) or "typing" (the screen's keyboard in place of the panel). ``rows`` are
    dicts naming their kv class (``viewclass``) and its properties; a button's ``key``
    goes back to ``TimeStoriesControl.tap``. ``footer``: the buttons along the bottom,
    before Undo."""

    heading: str = "T.I.M.E Stories"
    panel: str = "mission"
    message: str = ""
    footer: tuple = ()
    tu: str = ""
    run_line: str = ""
    running: bool = True
    starting_tu: int = 25
    log: tuple = ()
    chart: tuple = ()
    die: str = "-"
    die_caption: str = ""
    rolling: bool = False
    red: bool = False
    title: str = ""
    rows: tuple = ()
    note: str = ""
    typing: dict | None = None  # {"text", "seat", "colour", "suggestions"} while typing


def choice(text: str, key: tuple, down: bool = False, disabled: bool = False,
           counter: bool = False) -> dict:
    """A button: a ``counter`` (a step, a shield) counts every tap, however fast; any
    other takes one tap for one action (a double tap on Stay spends one TU)."""
    return {"text": text, "key": key, "down": down, "disabled": disabled,
            "repeat_ok": counter}


def choices(heading: str, items) -> dict:
    return {"viewclass": "TsChoices", "heading": heading, "choices": tuple(items)}


def line(text: str, look: str = "text") -> dict:
    """A line of text (markup); ``look``: "text", "small", "big" or "symbols"."""
    return {"viewclass": "TsLine", "text": text, "look": look}


class TimeStoriesControl:
    """The mission screen's taps and view (see the module doc)."""

    TAPS = frozenset({
        "roll", "stay", "red", "face", "open", "mission", "undo", "next_tu", "start_run",
        "end_game", "delta", "reason", "apply", "won", "life", "space", "trait", "lock",
        "who", "shield", "clear_shields", "start_test", "paid_start", "no_offer", "roll_test",
        "our_dice", "turn_die", "record", "no_entry", "continue", "abandon", "new_test",
        "turn_to_hit", "run_over", "new_item", "agency", "holder", "add_item", "give",
        "give_to", "used", "items_back", "without", "setup_go", "setup_start",
        "setup_cancel", "setup_mission", "setup_tu", "setup_step", "setup_trait",
        "setup_add_trait", "setup_preset", "type", "next_field", "done_typing", "suggest"})

    def __init__(self, app, rng=None) -> None:
        self.app, self.rng = app, rng
        self.panel = "mission"  # mission, characters, test, correct, items, next, setup
        self.red = False
        self.anim: p.DieAnimation | None = None
        self.anim_red = False
        self.entered: tuple[str, str] | None = None  # a face the table entered, refused
        self.message = ""
        self.asking_face = False  # "which face does your die show?" is up
        self.next_tu, self.next_for = 25, None
        self.setup = SetupControl(self)
        self.reset_panel()

    # -- the game -------------------------------------------------------------------

    def session(self):
        """The game in progress when it is a T.I.M.E Stories game, else None."""
        s = self.app.session
        return s if s is not None and s.rules.GAME.screen_name == SCREEN else None

    def snapshot(self) -> dict | None:
        s = self.session()
        return None if s is None else s.snapshot()

    def last(self) -> tuple[int, dict | None]:
        s = self.session()
        return (0, None) if s is None else (s.n_actions, s.last_action)

    def refusal(self, action: dict):
        s = self.session()
        return None if s is None else check(s.rules, s.state, action)

    def act(self, action: dict) -> bool:
        """Recorded, or refused: then its sentence is this panel's message."""
        refused = self.refusal(action)
        if refused is not None:
            self.refuse(refused.sentence)
            return False
        self.message = ""
        return bool(self.app.act(action))

    def refuse(self, sentence: str) -> None:
        self.message = sentence
        self.app.play("error")

    def reset_panel(self) -> None:
        """The choices a panel starts with at each opening."""
        self.space, self.characteristic, self.who = "B", None, []
        self.shields: list[str] = []
        self.locked, self.turn_to_hit = False, 0
        self.dismissed: int | None = None  # the action count when "New test" put a roll away
        self.offer: dict | None = None  # a refused start another turn would allow
        self.entering: list[str] | None = None  # the table's own action dice
        self.delta, self.reason = -1, REASONS[0]
        self.item_mode, self.giving = "list", None
        self.new_holder, self.new_agency, self.item_name = None, False, ""

    # -- taps -----------------------------------------------------------------------

    def tap(self, key) -> View:
        """A tap on a button the view keyed ``key`` (its name, then its arguments)."""
        name, *args = key
        if name not in self.TAPS:
            raise ValueError(f"no such tap: {name}")
        if name not in ("type",):
            self.message = ""
        getattr(self, "tap_" + name)(*args)
        return self.view()

    def enter(self) -> View:
        """The screen comes up: the mission, or the dice test when one is under way (a
        resumed game opens where the log left it: the open test, or its last roll)."""
        self.anim, self.entered, self.message, self.asking_face = None, None, "", False
        self.red, self.setup.typing, self.setup.draft = False, None, None
        snap, (n, last) = self.snapshot(), self.last()
        busy = snap is not None and snap["running"] and (
            snap["tests"] or p.roll_is_news(last, n, None))
        self.panel = ""
        return self.open("test" if busy else "mission")

    def open(self, panel: str) -> View:
        if panel != self.panel:
            self.reset_panel()
        self.panel = panel
        if panel == "setup":
            self.setup.begin()
        return self.view()

    tap_open = open

    def tap_mission(self) -> None:
        self.panel = "mission"
        self.setup.typing = None

    def tap_undo(self) -> None:
        if self.anim is None:
            self.app.undo()

    def tap_red(self) -> None:
        self.red = not self.red

    def tap_stay(self) -> None:
        if not self.blocked():
            self.act({"type": "stay"})

    def blocked(self) -> bool:
        """Time may not pass before the characters are recorded (or skipped)."""
        snap = self.snapshot()
        if snap is None or not self.needs_setup(snap):
            return False
        self.open("setup")
        self.refuse(setup.NO_CHARACTERS)
        return True

    def needs_setup(self, snap: dict) -> bool:
        if not setup.needs_setup(snap, False):
            return False
        chosen = self.app.log.get_setting(setup.SKIP_SETTING, None)
        return chosen != setup.skip_value(self.session().game_id, snap["run"])

    # -- the Time Captain die -------------------------------------------------------------

    def tap_roll(self, now_ns: int | None = None) -> None:
        """Roll the die now; the travel is logged when it settles (``frame``)."""
        if self.session() is None or self.anim is not None:
            return
        refused = self.refusal({"type": "travel", "die": 1, "red": self.red})
        if refused is not None:
            self.refuse(refused.sentence)
            return
        if self.blocked():
            return
        if self.panel not in ("mission", "next"):
            self.panel = "mission"
        face = dice.roll(1, self.rng)[0]
        start = self.app.table.now_ns() if now_ns is None else now_ns
        self.anim, self.anim_red, self.entered = p.DieAnimation(face, start), self.red, None
        self.app.play("dice")

    def frames_wanted(self) -> bool:
        return self.anim is not None

    def frame(self, now_ns: int) -> View | None:
        """A frame while the die tumbles: the view to show, or None when nothing moves."""
        if self.anim is None:
            return None
        face, settled = self.anim.shown(now_ns)
        if settled:
            self.anim = None
            self.travel(face, self.anim_red)
        else:
            self.entered = (str(face), "Rolling...")
        return self.view()

    def travel(self, face: int, red: bool) -> None:
        self.entered = (str(face), p.captain_text(face, red))
        if self.act({"type": "travel", "die": face, "red": red}):
            self.red, self.entered = False, None

    def tap_face(self, face: int | None = None) -> None:
        """The table rolled its own die: ``("face",)`` asks which face, ``("face", n)``
        spends for it (``("face", 0)``: the question's Cancel)."""
        snap = self.snapshot()
        if face is None:
            if snap is None or self.anim is not None or self.blocked():
                return
            if not snap["running"]:
                self.refuse("The run is over: start the next run first.")
                return
            self.asking_face = True
            return
        self.asking_face = False
        if face:  # 0: the question's Cancel
            self.travel(int(face), self.red)

    # -- the mission view ------------------------------------------------------------------

    def view(self) -> View:
        snap = self.snapshot()
        if snap is None:
            return View(heading="No game", footer=(), message=self.message)
        n, last = self.last()
        self.settle_panel(snap, n, last)
        m = p.mission_view(snap, lines=LOG_ROWS)
        die, caption = self.entered or p.captain_shown(last)
        mission = dict(
            heading=f"T.I.M.E Stories: {snap['mission']}", message=self.message,
            tu=str(m.tu), run_line=m.run_line, running=m.running, starting_tu=m.starting_tu,
            log=tuple(m.log_lines[::-1]),
            chart=tuple(p.chart_points(snap["burndown"], m.starting_tu)),
            die=die, die_caption=caption or "Tap the die: your own roll",
            rolling=self.anim is not None, red=self.red)
        if self.setup.typing is not None:
            return View(**mission, **self.setup.typing_view(snap))
        if self.panel == "mission" and self.asking_face:
            mission["die_caption"] = "Which face does the Time Captain die show?"
            return View(**mission, footer=(*(choice(str(f), ("face", f)) for f in range(1, 7)),
                                           choice("Cancel", ("face", 0))))
        if self.panel == "mission":
            return View(**mission, footer=(
                choice("Roll die", ("roll",), disabled=self.anim is not None or not m.running),
                choice("Stay (1 TU)", ("stay",)), choice("Characters", ("open", "characters")),
                choice("Dice test", ("open", "test"))))
        title, rows, note, footer = getattr(self, "panel_" + self.panel)(snap, n, last)
        if self.panel not in ("setup", "next"):  # (the run over: no mission to go back to)
            footer = (*footer, MISSION)
        mission["heading"] = title or mission["heading"]
        return View(**mission, panel="panel", title=title, rows=tuple(rows), note=note,
                    footer=tuple(footer))

    def settle_panel(self, snap: dict, n: int, last: dict | None) -> None:
        """The panel the game's state allows now (an undo or a run's end moves it)."""
        news = p.roll_is_news(last, n, self.dismissed) and snap["last_roll"] is not None
        if not snap["running"] and self.panel not in ("next", "items") and not (
                self.panel == "test" and news):
            self.panel = "next"
        elif (self.panel == "next" and snap["running"]) or (
                self.panel == "setup" and not setup.nothing_happened(snap)):
            self.panel = "mission"  # undone, or the run has begun
        elif self.panel == "mission" and self.needs_setup(snap):
            self.open("setup")

    # -- the next run ---------------------------------------------------------------------

    def panel_next(self, snap, n, last):
        run = (self.session().game_id, snap["run"])
        if run != self.next_for:
            self.next_for, self.next_tu = run, 25
        m = p.mission_view(snap)
        rows = [line(f"[b]{m.outcome_text}[/b]  (run {snap['run']})", "big"),
                line(f"T.I.M.E Agency items kept: {', '.join(m.kept_items) or 'none'}")]
        if m.mission_complete:
            return "", rows, "", (choice("End game", ("end_game",)),)
        rows.append(choices("Next run starts with", (
            choice(str(tu), ("next_tu", tu), down=tu == self.next_tu)
            for tu in p.STARTING_TU_CHOICES)))
        note = ("A MISSION FAILED card gives items? Add them under Items before the next "
                "run.")
        return "", rows, note, (
            choice(f"Start run {snap['run'] + 1} ({self.next_tu} TU)", ("start_run",)),
            choice("Items", ("open", "items")))

    def tap_next_tu(self, tu: int) -> None:
        self.next_tu = tu

    def tap_start_run(self) -> None:
        if self.act({"type": "start_run", "starting_tu": self.next_tu}):
            self.panel = "mission"

    def tap_end_game(self) -> None:
        self.app.end_game(ask=False)

    # -- the TU correction -----------------------------------------------------------------

    def panel_correct(self, snap, n, last):
        after = max(0, snap["tu"] + self.delta)
        rows = [line(f"TU {snap['tu']}  change: [b]{self.delta:+d}[/b]  ->  {after}", "big"),
                choices("Change", (choice(f"{d:+d}", ("delta", d), counter=True)
                                    for d in (-5, -1, 1, 5))),
                choices("Why", (choice(r, ("reason", r), down=r == self.reason)
                                for r in REASONS))]
        return "Correct the TU", rows, "", (choice("Apply", ("apply",)),
                                            choice("Mission won", ("won",)))

    def tap_delta(self, d: int) -> None:
        self.delta += d

    def tap_reason(self, reason: str) -> None:
        self.reason = reason

    def tap_apply(self) -> None:
        if self.act({"type": "adjust_tu", "delta": self.delta,
                     "reason": self.reason.lower()}):
            self.panel = "mission"

    def tap_won(self) -> None:
        """The mission's success card: the run ends, the end-of-run panel says so."""
        if self.act({"type": "end_run", "outcome": "successful",
                     "reason": "mission successful"}):
            self.panel = "next"

    # -- characters ---------------------------------------------------------------------

    def panel_characters(self, snap, n, last):
        colours = {s.seat: s.colour for s in self.app.cfg.seats}
        rows = [{"viewclass": "TsPerson", "seat": c["seat"],
                 "colour": rgba(colours.get(c["seat"], "grey")), "name": c["name"],
                 "traits": p.traits_text(c), "life": p.life_text(c), "dead": c["dead"],
                 "minus": ("life", c["name"], -1), "plus": ("life", c["name"], 1)}
                for c in snap["characters"]]
        chars = snap["characters"]
        early = setup.nothing_happened(snap)
        if early:
            note = ("No characters yet." if not chars else
                    "Nothing has happened in this run yet: the cast can still change.")
            label = "Change characters" if chars else "Add characters"
            return "Characters", rows, note, (choice(label, ("open", "setup")),)
        note = ("" if chars else "This run goes on without characters. ") + (
            "New characters can come in at the start of the next run.")
        return "Characters", rows, note, ()

    def tap_life(self, name: str, delta: int) -> None:
        self.act({"type": "heal", "character": name, "amount": 1} if delta > 0 else
                 {"type": "damage", "character": name, "amount": 1, "reason": "card effect"})

    # -- the dice test ----------------------------------------------------------------------

    def panel_test(self, snap, n, last):
        tests = snap["tests"]
        news = p.roll_is_news(last, n, self.dismissed) and snap["last_roll"] is not None
        if self.entering is not None and tests and tests[0]["status"] == "ready":
            return self.test_entering(tests[0])
        if news:
            return self.test_results(snap, tests)
        if tests:
            return self.test_open(tests[0])
        return self.test_setup(snap)

    def test_setup(self, snap):
        alive = [c for c in snap["characters"] if not c["dead"]]
        traits = sorted({k for c in alive for k in c["characteristics"]})
        if self.characteristic not in traits:
            self.characteristic = traits[0] if traits else None
        self.who = [w for w in self.who if w in {c["name"] for c in alive}]
        rows = [
            choices("Space", (choice(s, ("space", s), s == self.space) for s in SPACES)),
            choices("Tested", [*(choice(t, ("trait", t), t == self.characteristic)
                                 for t in traits),
                               choice("Locked" if self.locked else "Unlocked", ("lock",),
                                      self.locked)]),
            choices("Who rolls", (choice(c["name"], ("who", c["name"]), c["name"] in self.who)
                                  for c in alive)),
            choices("Shields, in order", [
                *(choice(f"{p.SHIELD_LOOK[k][0]} {k}", ("shield", k), counter=True)
                  for k in SHIELDS),
                choice("Clear", ("clear_shields",))])]
        if self.offer is not None:
            return "Dice test", rows, "", (choice("Stay (1 TU) and start", ("paid_start",)),
                                           choice("Cancel", ("no_offer",)))
        return "Dice test", rows, "", (
            choice(f"Start: {p.shields_text(self.shields)}", ("start_test",)),)

    def test_head(self, t: dict) -> list[dict]:
        lock = " · locked" if t["locked"] else ""
        names = ", ".join(t["characters"])
        return [line(f"[b]Space {t['space']}[/b]: {t['characteristic']} ({names}){lock}"),
                line(f"Shields left: {p.shields_text(t['left'])}", "symbols")]

    def test_open(self, t: dict):
        rows = self.test_head(t)
        if t["status"] != "ready":
            return "Dice test", rows, "", self.continue_footer(t)
        if t.get("abilities"):
            rows.append(line("; ".join(t["abilities"]), "small"))
        odds = t["odds"] if not self.turn_to_hit else self.odds(t["space"])
        rows += [line(text) for text in p.odds_lines(odds)]
        rows.append(choices(f"Turn to hit: {self.turn_to_hit}",
                            (choice("-", ("turn_to_hit", -1), counter=True),
                             choice("+", ("turn_to_hit", 1), counter=True))))
        return "Dice test", rows, "", (
            choice(f"Roll {p.counted(t['dice'], 'die', 'dice')}", ("roll_test",)),
            choice("Our dice", ("our_dice",)))

    def odds(self, space: str) -> dict:
        from companion.games.time_stories import roll_odds_for

        return roll_odds_for(self.session().state, space,
                             turn_to_hit=self.turn_to_hit).as_dict()

    def test_entering(self, t: dict):
        tiles = tuple({"text": f"{p.FACE_LOOK[sym][0]}\n[size=22]{p.FACE_LOOK[sym][1]}[/size]",
                       "colour": p.FACE_LOOK[sym][2], "key": ("turn_die", i)}
                      for i, sym in enumerate(self.entering))
        rows = [line(f"Space {t['space']}: tap each die to match yours"),
                {"viewclass": "TsTiles", "tiles": tiles}]
        if self.turn_to_hit:
            rows.append(line(f"Turn to hit: {self.turn_to_hit}"))
        return "Our dice", rows, "", (choice("Record roll", ("record",)),
                                      choice("Cancel", ("no_entry",)))

    def test_results(self, snap, tests):
        tiles = tuple({"text": f"{p.FACE_LOOK[sym][0]}\n[size=22]{p.FACE_LOOK[sym][1]}[/size]",
                       "colour": p.FACE_LOOK[sym][2], "key": None}
                      for sym in p.face_symbols(snap["last_roll"]))
        said = p.roll_lines(snap["last_roll"])  # (what was removed and what is left: one line)
        said[1:3] = [" · ".join(said[1:3])]
        rows = [{"viewclass": "TsTiles", "tiles": tiles}, *(line(text) for text in said)]
        space = snap["last_roll"]["space"]
        still = [t for t in tests if t["space"] == space]
        if not snap["running"]:
            footer = (choice("Run over", ("run_over",)),)
        elif still and still[0]["status"] == "rolled":
            footer = self.continue_footer(still[0])
        else:
            footer = (choice("New test", ("new_test",)),)
        return "The roll", rows, "", footer

    def continue_footer(self, t: dict) -> tuple:
        cost = f" ({t['continue_cost']} TU)" if t["continue_cost"] else ""
        return (choice(f"Continue{cost}", ("continue", t["space"])),
                choice("Abandon", ("abandon", t["space"]), disabled=t["locked"]))

    def choose(self, attr: str, value) -> None:
        """A setup choice of the test: an offer made for the start as it was goes."""
        setattr(self, attr, value)
        self.offer = None

    def tap_space(self, s: str) -> None:
        self.choose("space", s)

    def tap_trait(self, t: str) -> None:
        self.choose("characteristic", t)

    def tap_lock(self) -> None:
        self.choose("locked", not self.locked)

    def tap_who(self, name: str) -> None:
        self.choose("who", [w for w in self.who if w != name] if name in self.who
                    else self.who + [name])

    def tap_shield(self, kind: str) -> None:
        self.choose("shields", self.shields + [kind])

    def tap_clear_shields(self) -> None:
        self.choose("shields", [])

    def tap_no_offer(self) -> None:
        self.offer = None

    def tap_turn_to_hit(self, d: int) -> None:
        self.turn_to_hit = max(0, self.turn_to_hit + d)

    def tap_start_test(self) -> None:
        action = {"type": "test_start", "space": self.space,
                  "characteristic": self.characteristic, "characters": list(self.who),
                  "shields": list(self.shields), "locked": self.locked}
        refused = self.refusal(action)
        if refused is not None and refused.code in PAY_A_TURN:
            self.refuse(refused.sentence)
            self.offer = action
            return
        if self.act(action):
            self.shields, self.turn_to_hit = [], 0

    def tap_paid_start(self) -> None:
        """The offered start, with the turn it needs (1 TU, logged with it)."""
        action, self.offer = self.offer, None
        if action is not None and self.act(action | {"new_turn": True}):
            self.shields, self.turn_to_hit = [], 0

    def open_test(self) -> dict | None:
        snap = self.snapshot()
        return snap["tests"][0] if snap and snap["tests"] else None

    def tap_roll_test(self) -> None:
        t = self.open_test()
        if t is not None:
            self.roll_test(t["space"], list(dice.roll(t["dice"], self.rng)))

    def roll_test(self, space: str, faces: list[int]) -> None:
        action = {"type": "test_roll", "space": space, "faces": faces}
        if self.turn_to_hit:
            action["modifiers"] = {"turn_to_hit": self.turn_to_hit}
        if self.act(action):
            self.app.play("dice")
            self.turn_to_hit = 0

    def tap_our_dice(self) -> None:
        t = self.open_test()
        if t is not None:
            self.entering = [p.DIE_SYMBOLS[0]] * t["dice"]

    def tap_turn_die(self, i: int) -> None:
        symbols = p.DIE_SYMBOLS
        self.entering[i] = symbols[(symbols.index(self.entering[i]) + 1) % len(symbols)]

    def tap_record(self) -> None:
        t = self.open_test()
        faces, self.entering = p.faces_for(self.entering or []), None
        if t is not None:
            self.roll_test(t["space"], faces)

    def tap_no_entry(self) -> None:
        self.entering = None

    def tap_continue(self, space: str) -> None:
        self.act({"type": "test_continue", "space": space})

    def tap_abandon(self, space: str) -> None:
        self.act({"type": "test_abandon", "space": space})

    def tap_new_test(self) -> None:
        self.dismissed = self.last()[0]

    def tap_run_over(self) -> None:
        self.panel = "next"

    # -- items ------------------------------------------------------------------------------

    def panel_items(self, snap, n, last):
        names = [i["name"] for i in snap.get("items", [])]
        if self.item_mode == "give" and self.giving not in names:
            self.item_mode, self.giving = "list", None
        if not snap["running"] and (self.item_mode == "give" or snap["mission_complete"]):
            self.item_mode = "list"
        return getattr(self, "items_" + self.item_mode)(snap)

    def items_list(self, snap):
        top = pi.summary_text(snap)
        if not snap["running"]:
            top = (f"Run {snap['run']} is over: T.I.M.E Agency items stay; add what a "
                   "MISSION FAILED card gives.")
        rows = [{"viewclass": "TsItem", "name": r.name, "detail": r.detail,
                 "agency": r.agency, "active": snap["running"], "give": ("give", r.name),
                 "used": ("used", r.name)} for r in pi.item_rows(snap)]
        if snap["running"]:
            return "Items", [line(top, "small"), *rows], "", (choice("New item", ("new_item",)),)
        if snap["mission_complete"]:
            return "Items", [line(top, "small"), *rows], "", ()
        return "Items", [line(top, "small"), *rows], "", (choice("New item", ("new_item",)),
                                                          choice("Next run", ("run_over",)))

    def items_add(self, snap):
        held = pi.holder_choices(snap)
        if self.new_holder not in [v for _, v in held]:
            self.new_holder = None
        on = self.new_agency
        rows = [{"viewclass": "TsField", "label": "Item", "text": self.item_name,
                 "hint": "item name, e.g. Item 12", "key": ("type", "item")},
                choices("Held by", (choice(label, ("holder", value), value == self.new_holder)
                                    for label, value in held)),
                choices("T.I.M.E Agency", (choice("Agency: yes" if on else "Agency: no",
                                                  ("agency",), on),))]
        note = ("Agency items (with the T.I.M.E logo) stay when a run fails; the others go "
                "back to the deck.")
        return "New item", rows, note, (choice("Add item", ("add_item",)),
                                        choice("Cancel", ("items_back",)))

    def items_give(self, snap):
        item = next(i for i in snap["items"] if i["name"] == self.giving)
        rows = [line(f"Give [b]{item['name']}[/b] (now: {pi.holder_text(item['holder'])}) to:"),
                choices("To", (choice(label, ("give_to", value))
                               for label, value in pi.give_targets(snap, item["name"])))]
        return "Give an item", rows, "", (choice("Cancel", ("items_back",)),)

    def tap_new_item(self) -> None:
        self.item_mode, self.item_name, self.new_agency = "add", "", False

    def tap_items_back(self) -> None:
        self.item_mode, self.giving = "list", None

    def tap_agency(self) -> None:
        self.new_agency = not self.new_agency

    def tap_holder(self, holder: str | None) -> None:
        self.new_holder = holder

    def tap_add_item(self) -> None:
        action, _why = pi.gain_action(self.item_name, self.new_holder, self.new_agency)
        if self.act(action):
            self.item_mode, self.item_name, self.new_agency = "list", "", False

    def tap_give(self, item: str) -> None:
        self.item_mode, self.giving = "give", item

    def tap_give_to(self, to: str | None) -> None:
        if self.act(pi.give_action(self.giving, to)):
            self.item_mode, self.giving = "list", None

    def tap_used(self, item: str) -> None:
        self.act(pi.drop_action(item))

    # -- setup and typing (time_stories_setup.py) -------------------------------------------

    def panel_setup(self, snap, n, last):
        return self.setup.panel(snap)

    def tap_without(self) -> None:
        self.setup.without()

    def tap_setup_go(self, d: int) -> None:
        self.setup.go(d)

    def tap_setup_start(self) -> None:
        self.setup.start()

    def tap_setup_cancel(self) -> None:
        self.panel = "mission"

    def tap_setup_mission(self, mission: str) -> None:
        setup.choose_mission(self.setup.draft, mission)

    def tap_setup_tu(self, d: int) -> None:
        setup.step_tu(self.setup.draft, d)

    def tap_setup_step(self, what: str, d: int) -> None:
        setup.step(self.setup.sheet(), what, d)

    def tap_setup_trait(self, i: int, d: int) -> None:
        setup.step_trait(self.setup.sheet(), i, d)

    def tap_setup_add_trait(self) -> None:
        setup.add_trait(self.setup.sheet())

    def tap_setup_preset(self, i: int) -> None:
        self.setup.preset(i)

    def tap_type(self, *field) -> None:
        self.setup.typing = field

    def typed(self, text: str) -> View:
        """The keyboard typed into the field being typed (its whole text now)."""
        self.setup.typed(text)
        return self.view()

    def tap_next_field(self) -> None:
        self.setup.next_field()

    def tap_done_typing(self) -> None:
        self.setup.typing = None

    def tap_suggest(self, text: str) -> None:
        self.setup.suggest(text)
