"""The statistics players know, from the games History sums up: head-to-head between two
players, cooperative results apart from competitive ones, and each game's bests.

Read from each game's summary (``ui.presenters.history.GameSummary``, or any object with
``game_id``, ``kind``, ``players``, ``status``, ``winners``, ``reactions``, ``scores``
and ``runs``: what ``companion.games.summary.kept`` keeps of a finished game), so nothing
here replays a game or knows one game from another: the ``GameInfo`` says whether a game
is ranked and cooperative, the engine's outcome gives winners, points and slap delays,
and ``summary.runs`` the time units each run used. Only finished games count (an open one
has no result yet, an abandoned one was given up without one), but slap delays count
from every game not abandoned (the slap pad's log is open for good). Names are matched
without regard to case, as the wins chart does. Pure: no Kivy, no I/O, no clock.

* ``head_to_head(games, a, b)``: the competitive games both played, and how many each
  won while the other did not (a shared win counts for neither), so ``a_won + b_won <=
  together`` and it reads the same from either side. ``head_to_heads`` gives every pair.
* ``cooperative_results(games)``: per cooperative game, missions won and lost (a game
  finished without its mission complete is lost).
* ``bests(games)``: per game, its records: the fastest slapper (the slap pad, Crazy
  Time's slap rounds: the lowest median delay after the first slap, the only time the
  box measures) and the most first slaps, the fewest time units used to complete a
  mission (T.I.M.E Stories), the best winning score (highest where the highest wins,
  lowest where the lowest does).
* ``sections(games)``: all of it as titled lines for a screen; a section with no data
  is left out.

    for section in sections(games):
        print(section.title, *section.lines, sep="\\n")
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, groupby
from typing import Any

from companion.games import info, title_of
from companion.games.base import listed

#: A slapper's median counts from this many slaps in a game on (one lucky slap is no
#: record).
MIN_SLAPS = 3


def _finished(games: Iterable[Any]) -> list[Any]:
    return [g for g in games if g.status == "finished"]


def competitive(kind: str) -> bool:
    """A game whose players win against each other (not the slap pad, not co-op)."""
    game = info(kind)
    return game is not None and game.ranked and not game.cooperative


def cooperative(kind: str) -> bool:
    game = info(kind)
    return game is not None and game.cooperative


def _key(name: str) -> str:
    return name.casefold()


# ------------------------------------------------------------------------ head-to-head
@dataclass(frozen=True)
class HeadToHead:
    """Two players' competitive games together: ``a_won`` games ``a`` won and ``b``
    did not, ``b_won`` the other way round, ``together`` all of them."""

    a: str
    b: str
    together: int
    a_won: int
    b_won: int

    @property
    def neither(self) -> int:
        """Games together that neither won alone (someone else won, or both shared it)."""
        return self.together - self.a_won - self.b_won

    def swapped(self) -> HeadToHead:
        return HeadToHead(self.b, self.a, self.together, self.b_won, self.a_won)

    @property
    def line(self) -> str:
        return (f"{self.a} {self.a_won} - {self.b_won} {self.b} "
                f"({self.together} game{'s' if self.together != 1 else ''})")


def head_to_head(games: Iterable[Any], a: str, b: str) -> HeadToHead:
    """``a`` against ``b`` over the finished competitive ``games`` both played."""
    ka, kb = _key(a), _key(b)
    together = a_won = b_won = 0
    if ka != kb:
        for g in _finished(games):
            if not competitive(g.kind):
                continue
            present = {_key(n) for n in g.players}
            if ka not in present or kb not in present:
                continue
            together += 1
            won = {_key(n) for n in g.winners}
            if ka in won and kb not in won:
                a_won += 1
            elif kb in won and ka not in won:
                b_won += 1
    return HeadToHead(a, b, together, a_won, b_won)


def head_to_heads(games: Iterable[Any]) -> list[HeadToHead]:
    """Every pair of players with a finished competitive game together: most games
    together first, then by name; each pair once, the player ahead named first."""
    games = [g for g in _finished(games) if competitive(g.kind)]
    shown: dict[str, str] = {}
    for g in games:
        for n in g.players:
            shown.setdefault(_key(n), n)
    out = []
    for ka, kb in combinations(sorted(shown), 2):
        h = head_to_head(games, shown[ka], shown[kb])
        if h.together:
            out.append(h if h.a_won >= h.b_won else h.swapped())
    return sorted(out, key=lambda h: (-h.together, -max(h.a_won, h.b_won),
                                      _key(h.a), _key(h.b)))


# ------------------------------------------------------------------ cooperative results
@dataclass(frozen=True)
class CoopResult:
    kind: str
    title: str
    won: int
    lost: int

    @property
    def line(self) -> str:
        return f"{self.title}: {self.won} won, {self.lost} lost"


def cooperative_results(games: Iterable[Any]) -> list[CoopResult]:
    """Per cooperative game with a finished game: won (the winners are the table) and
    lost (finished without a win); by title."""
    tally: dict[str, list[int]] = {}
    for g in _finished(games):
        if cooperative(g.kind):
            tally.setdefault(g.kind, [0, 0])[0 if g.winners else 1] += 1
    return sorted((CoopResult(k, title_of(k), w, lost) for k, (w, lost) in tally.items()),
                  key=lambda r: r.title)


# ----------------------------------------------------------------------------- bests
@dataclass(frozen=True)
class Best:
    """One record of a game: ``what`` ("Fastest slapper"), ``who`` (names), ``value``
    in words, and the game it was set in (None for a record over many games)."""

    kind: str
    title: str
    what: str
    who: str
    value: str
    game_id: int | None = None

    @property
    def line(self) -> str:
        where = f" (#{self.game_id})" if self.game_id is not None else ""
        return f"{self.what}: {self.who}, {self.value}{where}"


def _slap_bests(kind: str, games: Sequence[Any]) -> list[Best]:
    delays: dict[str, list[float]] = {}
    shown: dict[str, str] = {}
    for g in games:
        for name, ds in g.reactions.items():
            shown.setdefault(_key(name), name)
            delays.setdefault(_key(name), []).extend(float(d) for d in ds)
    out = []
    medians = {k: statistics.median(ds) for k, ds in delays.items() if len(ds) >= MIN_SLAPS}
    if medians:
        k = min(medians, key=lambda k: (medians[k], k))
        out.append(Best(kind, title_of(kind), "Fastest slapper", shown[k],
                        f"{medians[k]:.0f} ms median after the first ({len(delays[k])} slaps)"))
    firsts = {k: sum(1 for d in ds if d == 0) for k, ds in delays.items()}
    most = max(firsts.values(), default=0)
    if most:
        who = sorted((shown[k] for k, n in firsts.items() if n == most), key=_key)
        out.append(Best(kind, title_of(kind), "Most first slaps", listed(who), f"{most}"))
    return out


def _run_bests(kind: str, games: Sequence[Any]) -> list[Best]:
    done = []
    for g in games:
        used = [r.get("used") for r in g.runs]
        if g.winners and used and all(isinstance(u, (int, float)) for u in used):
            done.append((sum(used), len(used), g.game_id, g))
    if not done:
        return []
    used, n, gid, g = min(done, key=lambda t: (t[0], t[1], t[2]))
    return [Best(kind, title_of(kind), "Fewest TU used", listed(g.players),
                 f"{used:g} TU in {n} run{'s' if n != 1 else ''}", gid)]


def _score_bests(kind: str, games: Sequence[Any]) -> list[Best]:
    found: dict[bool, list[tuple[int, int, str]]] = {True: [], False: []}
    for g in games:
        scores = {_key(n): v for n, v in g.scores.items()}
        won = [scores[_key(w)] for w in g.winners if _key(w) in scores]
        if not won or len(set(scores.values())) < 2:
            continue
        highest = min(won) == max(scores.values())
        if not highest and max(won) != min(scores.values()):
            continue  # the winners neither topped nor bottomed the points: no record
        names = {_key(n): n for n in g.scores}
        for k in {_key(w) for w in g.winners} & set(scores):
            found[highest].append((scores[k], g.game_id, names[k]))
    out = []
    for highest, entries in found.items():
        if entries:
            value, gid, name = (max(entries, key=lambda e: (e[0], -e[1])) if highest
                                else min(entries, key=lambda e: (e[0], e[1])))
            out.append(Best(kind, title_of(kind),
                            "Highest score" if highest else "Lowest winning score",
                            name, f"{value}", gid))
    return out


def bests(games: Iterable[Any]) -> list[Best]:
    """Every game's records over its finished ``games``, by title (see the module)."""
    by_kind: dict[str, list[Any]] = {}
    for g in games:
        if g.status != "abandoned":
            by_kind.setdefault(g.kind, []).append(g)
    out = []
    for kind in sorted(by_kind, key=title_of):
        out += _slap_bests(kind, by_kind[kind])  # the slap pad's log stays open for good
        played = _finished(by_kind[kind])
        if cooperative(kind):
            out += _run_bests(kind, played)
        elif competitive(kind):
            out += _score_bests(kind, played)
    return out


# ------------------------------------------------------------------------ for a screen
@dataclass(frozen=True)
class Section:
    title: str
    lines: tuple[str, ...]


def sections(games: Iterable[Any]) -> list[Section]:
    """Head-to-head, cooperative results and bests as titled lines, each section only
    when it has something to say."""
    games = list(games)
    out = []
    pairs = head_to_heads(games)
    if pairs:
        out.append(Section("Head-to-head (competitive games)", tuple(h.line for h in pairs)))
    coop = cooperative_results(games)
    if coop:
        out.append(Section("Cooperative games", tuple(r.line for r in coop)))
    records = bests(games)
    if records:
        lines: list[str] = []
        for title, group in groupby(records, key=lambda b: b.title):
            lines.append(f"{title}:")
            lines += [f"  {b.line}" for b in group]
        out.append(Section("Bests", tuple(lines)))
    return out


__all__ = ["MIN_SLAPS", "Best", "CoopResult", "HeadToHead", "Section", "bests",
           "competitive", "cooperative", "cooperative_results", "head_to_head",
           "head_to_heads", "sections"]
