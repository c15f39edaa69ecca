"""One replay: a game's actions through its engine's one ``apply``, in order.

Every reader of a game log replays through ``replay`` (resume and undo in
``companion.session``, History through ``session.final_state``, ``companion replay`` and
export in ``companion.store.export``, the venue's receiver, live payloads and score
sheets), so a log has one meaning wherever it is read. Pure: no I/O, no clock; the
caller owns the state it starts from (an engine's ``initial(setup)``, or a state kept
at a checkpoint) and says how a refusal is worded (``refusal``; by default a
``LogError`` naming the action's position and type).

    for i, action, state in replay(rules, rules.initial(setup), actions):
        ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from companion.errors import LogError, MalformedAction, RuleError

#: What an engine may raise for an action it cannot replay (a deeply nested value gives
#: a RecursionError when it is read).
REFUSED = (RuleError, MalformedAction, RecursionError)


def refused(i: int, action: Any, exc: Exception) -> Exception:
    """The default refusal: ``LogError("action 3 ('score') does not replay: ...")``."""
    kind = action.get("type") if isinstance(action, Mapping) else None
    return LogError(f"action {i} ({kind!r}) does not replay: {exc}")


def as_raised(i: int, action: Any, exc: Exception) -> Exception:
    """A refusal that keeps the engine's own error (for callers that word it)."""
    return exc


def replay(rules: Any, state: Any, actions: Iterable[Any], *, start: int = 1,
           refusal: Callable[[int, Any, Exception], Exception] = refused,
           ) -> Iterator[tuple[int, Any, Any]]:
    """``(i, action, state after it)`` for each action, from ``state`` (numbered from
    ``start``). An action the engine refuses stops the replay with ``refusal(i, action,
    exc)`` (raised as is when it returns ``exc`` itself)."""
    apply = rules.apply
    for i, action in enumerate(actions, start):
        try:
            state = apply(state, action)
        except REFUSED as exc:
            err = refusal(i, action, exc)
            if err is exc:
                raise
            raise err from exc
        yield i, action, state


def final(rules: Any, state: Any, actions: Iterable[Any], **how: Any) -> Any:
    """The state after every action of ``actions`` from ``state`` (``replay``'s)."""
    last = state
    for _, _, last in replay(rules, state, actions, **how):  # noqa: B007
        pass
    return last


__all__ = ["REFUSED", "as_raised", "final", "refused", "replay"]
