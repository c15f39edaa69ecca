"""Assemble the firmware's ``@rp2.asm_pio`` programs on the host, to run them in an emulator.

What it is for: ``firmware/seat_pio.py`` is MicroPython code. On the Pico, ``rp2.asm_pio``
runs the decorated function with the PIO names (``mov``, ``in_``, ``jmp``, ``x``,
``pins`` ...) in its globals and collects the 16-bit instructions. This module does the
same on CPython, following the RP2040 datasheet's encodings (section 3.4), so the tests
run *that very function* in ``rp2040-pio-emulator``: one program, two consumers, no copy
to drift apart.

How to wire it::

    program = load_pio_program(FIRMWARE_DIR / "seat_pio.py", "seat_edges")
    program.opcodes, program.wrap_target, program.wrap, program.in_shift_right
    for name, value in program.config.items(): ...   # what asm_pio(...) was given

Only what the DSL offers is supported: instructions ``nop jmp wait in_ out push pull mov
irq set word``, delays as ``instr[n]``, ``label``, ``wrap_target``, ``wrap``; side-set is
refused (the slap pad does not use it) rather than half-done.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import types
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import CompanionError


class PioAsmError(CompanionError):
    """A PIO program that cannot be assembled: names the instruction and why."""


# Operand values, as the DSL defines them.
_NAMES = {
    "gpio": 0, "pins": 0, "x": 1, "y": 2, "null": 3, "pindirs": 4, "pc": 5, "status": 5,
    "isr": 6, "osr": 7, "exec": 8,
    "not_x": 1, "x_dec": 2, "not_y": 3, "y_dec": 4, "x_not_y": 5, "pin": 6, "not_osre": 7,
    "noblock": 0x01, "block": 0x21, "iffull": 0x40, "ifempty": 0x40, "clear": 0x40,
}
SHIFT_LEFT, SHIFT_RIGHT = 0, 1
JOIN_NONE, JOIN_TX, JOIN_RX = 0, 1, 2


@dataclass(frozen=True)
class PioProgram:
    """An assembled program and the state machine settings it was declared with."""

    name: str
    opcodes: tuple[int, ...]
    wrap_target: int
    wrap: int
    labels: dict[str, int] = field(hash=False)
    config: dict[str, object] = field(hash=False)

    @property
    def in_shift_right(self) -> bool:
        return self.config.get("in_shiftdir", SHIFT_LEFT) == SHIFT_RIGHT


class _Emitter:
    """Runs the decorated function twice: once to place labels, once to encode."""

    def __init__(self, name: str, config: dict[str, object]) -> None:
        if config.get("sideset_init") is not None:
            raise PioAsmError(f"{name}: side-set is not supported by this assembler")
        self.name, self.config = name, config
        self.labels: dict[str, int] = {}
        self.words: list[int] = []
        self.count = 0
        self.pass_ = 0
        self.wrap_target_at = 0
        self.wrap_at: int | None = None

    def start(self, pass_: int) -> None:
        self.pass_, self.count, self.words = pass_, 0, []

    # directives
    def wrap_target(self) -> None:
        self.wrap_target_at = self.count

    def wrap(self) -> None:
        if not self.count:
            raise PioAsmError(f"{self.name}: wrap() before any instruction")
        self.wrap_at = self.count - 1

    def label(self, name: str) -> None:
        if self.pass_ == 0:
            if name in self.labels:
                raise PioAsmError(f"{self.name}: label {name!r} defined twice")
            self.labels[name] = self.count

    # instructions
    def word(self, instr: int, label: str | None = None) -> _Emitter:
        self.count += 1
        if self.pass_:
            target = 0
            if label is not None:
                if label not in self.labels:
                    raise PioAsmError(f"{self.name}: jump to unknown label {label!r}")
                target = self.labels[label]
            self.words.append(instr | target)
        return self

    def __getitem__(self, delay: int) -> _Emitter:
        if self.pass_:
            if not 0 <= delay <= 31:
                raise PioAsmError(f"{self.name}: delay {delay} is not 0..31")
            self.words[-1] |= delay << 8
        return self

    def nop(self) -> _Emitter:
        return self.word(0xA042)  # mov y, y

    def jmp(self, cond, label=None) -> _Emitter:
        if label is None:
            cond, label = 0, cond
        return self.word(cond << 5, label)

    def wait(self, polarity: int, src: int, index: int) -> _Emitter:
        src = 1 if src == 6 else (0 if src == 0 else 2)
        return self.word(0x2000 | polarity << 7 | src << 5 | index)

    def in_(self, src: int, bits: int) -> _Emitter:
        if not 0 < bits <= 32:
            raise PioAsmError(f"{self.name}: in_ of {bits} bits")
        return self.word(0x4000 | src << 5 | bits & 0x1F)

    def out(self, dest: int, bits: int) -> _Emitter:
        if not 0 < bits <= 32:
            raise PioAsmError(f"{self.name}: out of {bits} bits")
        return self.word(0x6000 | (7 if dest == 8 else dest) << 5 | bits & 0x1F)

    def push(self, a: int = 0, b: int = 0) -> _Emitter:
        value = a | b
        if not value & 1:
            value |= 0x20  # blocking unless noblock
        return self.word(0x8000 | value & 0x60)

    def pull(self, a: int = 0, b: int = 0) -> _Emitter:
        value = a | b
        if not value & 1:
            value |= 0x20
        return self.word(0x8080 | value & 0x60)

    def mov(self, dest: int, src: int) -> _Emitter:
        return self.word(0xA000 | (4 if dest == 8 else dest) << 5 | src)

    def irq(self, mod, index=None) -> _Emitter:
        if index is None:
            mod, index = 0, mod
        return self.word(0xC000 | mod & 0x60 | index)

    def set(self, dest: int, value: int) -> _Emitter:
        return self.word(0xE000 | dest << 5 | value)


_INSTRUCTIONS = ("word", "nop", "jmp", "wait", "in_", "out", "push", "pull", "mov", "irq", "set")
_DIRECTIVES = ("wrap_target", "wrap", "label")


def asm_pio(**config):
    """The host's ``rp2.asm_pio``: the decorated function becomes a ``PioProgram``."""

    def assemble(fn) -> PioProgram:
        emitter = _Emitter(fn.__name__, dict(config))
        scope = fn.__globals__
        saved = dict(scope)
        try:
            scope.clear()
            scope.update(_NAMES)
            scope["invert"] = lambda v: v | 0x08
            scope["reverse"] = lambda v: v | 0x10
            scope["rel"] = lambda v: v | 0x10
            for name in _INSTRUCTIONS + _DIRECTIVES:
                scope[name] = getattr(emitter, name)
            for pass_ in (0, 1):
                emitter.start(pass_)
                fn()
        finally:
            scope.clear()
            scope.update(saved)
        wrap = emitter.wrap_at if emitter.wrap_at is not None else emitter.count - 1
        return PioProgram(fn.__name__, tuple(emitter.words), emitter.wrap_target_at, wrap,
                          dict(emitter.labels), dict(config))

    return assemble


def fake_rp2() -> types.ModuleType:
    """A module that stands in for MicroPython's ``rp2`` while a program file loads."""
    module = types.ModuleType("rp2")
    module.asm_pio = asm_pio
    module.PIO = types.SimpleNamespace(SHIFT_LEFT=SHIFT_LEFT, SHIFT_RIGHT=SHIFT_RIGHT,
                                       JOIN_NONE=JOIN_NONE, JOIN_TX=JOIN_TX, JOIN_RX=JOIN_RX,
                                       IN_LOW=0, IN_HIGH=1, OUT_LOW=2, OUT_HIGH=3)
    return module


_lock = threading.Lock()


def load_pio_program(path: Path, name: str) -> PioProgram:
    """Load the MicroPython file ``path`` with the host's ``rp2`` and return its program
    ``name``; the module's other values are attributes of ``program.config["module"]``."""
    with _lock:
        saved = sys.modules.get("rp2")
        sys.modules["rp2"] = fake_rp2()
        try:
            spec = importlib.util.spec_from_file_location(f"_slapfw_pio.{path.stem}", path)
            if spec is None or spec.loader is None or not path.is_file():
                raise PioAsmError(f"PIO program file {path} is missing")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        finally:
            if saved is None:
                sys.modules.pop("rp2", None)
            else:
                sys.modules["rp2"] = saved
    program = getattr(module, name, None)
    if not isinstance(program, PioProgram):
        raise PioAsmError(f"{path} has no @rp2.asm_pio program named {name!r}")
    program.config["module"] = module
    return program
