"""Per-phase CPU breakdown of auto-resolved battles (``python -m bench --phases``).

Wraps the turn's phase functions and the auto-resolve hooks with ``time.process_time``
accumulators for the duration of a ``with timed_phases() as totals:`` block, then puts the
originals back. Nested timers are not subtracted: ``ship fire: choices (ai)`` runs inside
``9 ship fire``, so the rows of the table do not add up to the whole.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from battles.rules import ai, turn

# (module, function name, label), in turn order.
TIMED: tuple[tuple[Any, str, str], ...] = (
    (ai, "clone", "setup: clone fleets"),
    (ai, "ship_orders", "1 orders: choices (ai)"),
    (turn, "_phase_orders", "1 orders: validation"),
    (turn, "_phase_initiative", "2 initiative"),
    (turn, "_phase_launch", "3 launch"),
    (turn, "_phase_second_move", "4+6 light-unit moves"),
    (turn, "_phase_ship_movement", "5 ship movement"),
    (turn, "_phase_sensors", "7 sensors"),
    (turn, "_phase_intent", "8 intent"),
    (turn, "_phase_ship_fire", "9 ship fire (all)"),
    (ai, "ship_fire", "9 ship fire: choices (ai)"),
    (turn, "_ship_volleys", "9 ship fire: volleys"),
    (turn, "_apply_pending", "9-10 damage applied"),
    (turn, "_phase_light_fire", "10 light-unit fire"),
    (turn, "_phase_end_of_turn", "11 end of turn"),
    (ai, "crew_plan", "11 end of turn: crew plan (ai)"),
)


def _timer(func: Callable[..., Any], label: str, totals: dict[str, float]) -> Callable[..., Any]:
    clock = time.process_time

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return func(*args, **kwargs)
        finally:
            totals[label] += clock() - start

    return timed


@contextmanager
def timed_phases() -> Iterator[dict[str, float]]:
    """Yield label → CPU seconds, filled while the block runs (module functions patched)."""
    totals = {label: 0.0 for _, _, label in TIMED}
    saved = [(module, name, getattr(module, name)) for module, name, _ in TIMED]
    try:
        for (module, name, label), (_, _, original) in zip(TIMED, saved, strict=True):
            setattr(module, name, _timer(original, label, totals))
        yield totals
    finally:
        for module, name, original in saved:
            setattr(module, name, original)
