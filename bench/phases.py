"""Per-phase CPU breakdown of auto-resolved battles (``python -m bench --phases``).

Wraps the turn's phase functions (``battles.rules.phases``, patched in every engine module
that imported them) and the auto-resolve hooks with ``time.process_time``
accumulators for the duration of a ``with timed_phases() as totals:`` block, then puts the
originals back. Nested timers are not subtracted: ``ship fire: choices (ai)`` runs inside
``9 ship fire``, so the rows of the table do not add up to the whole.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from battles.rules import ai
from battles.rules.phases import (
    effects,
    end_of_turn,
    launches,
    light_fire,
    movement,
    orders,
    sensors,
    ship_fire,
)

# (module, function name, label), in turn order.
TIMED: tuple[tuple[Any, str, str], ...] = (
    (ai, "clone", "setup: clone fleets"),
    (ai, "ship_orders", "1 orders: choices (ai)"),
    (orders, "phase_orders", "1 orders: validation"),
    (orders, "phase_initiative", "2 initiative"),
    (launches, "phase_launch", "3 launch"),
    (movement, "phase_second_move", "4+6 light-unit moves"),
    (movement, "phase_ship_movement", "5 ship movement"),
    (sensors, "phase_sensors", "7 sensors"),
    (launches, "phase_intent", "8 intent"),
    (ship_fire, "phase_ship_fire", "9 ship fire (all)"),
    (ai, "ship_fire", "9 ship fire: choices (ai)"),
    (ship_fire, "ship_volleys", "9 ship fire: volleys"),
    (effects, "apply_pending", "9-10 damage applied"),
    (light_fire, "phase_light_fire", "10 light-unit fire"),
    (end_of_turn, "phase_end_of_turn", "11 end of turn"),
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


def _holders(original: Any) -> list[tuple[Any, str]]:
    """Every (engine module, name) bound to ``original``: a phase function imported by
    ``turn`` or by another phase module is patched where it is called from."""
    return [
        (module, name)
        for key, module in list(sys.modules.items())
        if key.startswith("battles.rules") and module is not None
        for name, value in vars(module).items()
        if value is original
    ]


@contextmanager
def timed_phases() -> Iterator[dict[str, float]]:
    """Yield label → CPU seconds, filled while the block runs (module functions patched)."""
    totals = {label: 0.0 for _, _, label in TIMED}
    saved: list[tuple[Any, str, Any]] = []
    try:
        for module, name, label in TIMED:
            original = getattr(module, name)
            timed = _timer(original, label, totals)
            for holder, alias in _holders(original):
                saved.append((holder, alias, original))
                setattr(holder, alias, timed)
        yield totals
    finally:
        for module, name, original in reversed(saved):
            setattr(module, name, original)
