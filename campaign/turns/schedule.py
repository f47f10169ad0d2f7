"""A yard's queue, turn by turn: pure arithmetic on what each order has left (no Django).

A yard does ``capacity`` work units a turn over its queue, in order: each order takes hull
boxes first, then armour boxes, crew factors and systems (a system needs ``system_work``
units within one turn; when they do not fit, the rest of the turn passes to the next order).
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_TURNS = 200  # a queue no yard finishes within this many turns has no ETA


@dataclass
class Left:
    """Work still to do on one order: boxes, crew factors and system ids."""

    hull: int = 0
    armour: int = 0
    crew: int = 0
    systems: list[str] = field(default_factory=list)

    def units(self, system_work: int) -> int:
        """Work units left."""
        return self.hull + self.armour + self.crew + system_work * len(self.systems)

    @property
    def empty(self) -> bool:
        return not (self.hull or self.armour or self.crew or self.systems)


def allocate(left: Left, budget: int, system_work: int) -> tuple[Left, int]:
    """What ``budget`` units restore of ``left`` this turn: ``(restored, budget left)``."""
    done = Left()
    for kind in ("hull", "armour", "crew"):
        n = min(getattr(left, kind), budget)
        setattr(done, kind, n)
        budget -= n
    for sid in left.systems:
        if budget < system_work:
            break
        done.systems.append(sid)
        budget -= system_work
    return done, budget


def subtract(left: Left, done: Left) -> Left:
    """``left`` minus ``done``."""
    return Left(
        left.hull - done.hull,
        left.armour - done.armour,
        left.crew - done.crew,
        [s for s in left.systems if s not in done.systems],
    )


def yard_turns(
    queue: list[tuple[int, Left]], capacity: int, system_work: int
) -> dict[int, int | None]:
    """Turn ends each order of ``queue`` (``(key, left)`` in queue order) needs to finish:
    ``{key: n}`` (1 = the coming turn end), None when the yard never finishes it (no
    capacity, or a system needing more units than the yard does a turn)."""
    pending = [(key, Left(lf.hull, lf.armour, lf.crew, list(lf.systems))) for key, lf in queue]
    result: dict[int, int | None] = {key: None for key, _ in queue}
    if capacity <= 0:
        return result
    for turn in range(1, MAX_TURNS + 1):
        budget = capacity
        still = []
        for key, left in pending:
            done, budget = allocate(left, budget, system_work)
            left = subtract(left, done)
            if left.empty:
                result[key] = turn
            else:
                still.append((key, left))
        pending = still
        if not pending:
            break
    return result


def yard_first_turn(
    queue: list[tuple[int, Left]], capacity: int, system_work: int
) -> dict[int, Left]:
    """What the coming turn end restores of each order of ``queue``: ``{key: restored}``."""
    budget = max(capacity, 0)
    out: dict[int, Left] = {}
    for key, left in queue:
        out[key], budget = allocate(left, budget, system_work)
    return out
