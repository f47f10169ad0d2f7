"""Monte-Carlo odds of who wins: the same two fleets fight many auto-resolved battles.

``win_odds(fleet_a, fleet_b, battles=1000, seed=0)`` fights battle ``i`` with seed
``seed + i`` through ``ai.resolve_battle`` (tactics documented there) without keeping its
log, and counts who wins and how. Any one of those battles can be replayed in full, every
die logged, with ``resolve_battle(..., seed=seed + i)``: unrecorded and recorded battles of
one seed end the same (tested).

Source: the rules engine issue's "1 000 such battles (Monte-Carlo odds of who wins)";
tactics and endings: ``battles/rules/ai.py``; rules: ``rules/ft-incursion.md``.
"""

from __future__ import annotations

import gc
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from battles.rules.ai import resolve_battle
from battles.rules.options import RuleOptions
from battles.rules.ships import ShipState

__all__ = ["Forecast", "win_odds", "MAX_BATTLES"]

MAX_BATTLES = 100_000


@dataclass(frozen=True)
class Forecast:
    """What ``battles`` auto-resolved battles gave.

    ``sides``: the two side labels (fleet A's first); ``wins``: battles won per side;
    ``draws``: battles with no winner (turn limit with equal strength, or both sides gone);
    ``endings``: battles per ending (``destruction``, ``withdrawal``, ``turn-limit``,
    ``mutual``); ``turns``: game turns summed over all battles; ``seed``: battle ``i`` used
    ``seed + i``.
    """

    battles: int
    sides: tuple[str, str]
    wins: dict[str, int]
    draws: int
    endings: dict[str, int] = field(default_factory=dict)
    turns: int = 0
    seed: int = 0

    def share(self, side: str | None) -> float:
        """Fraction of battles won by ``side`` (None: the draws), 0–1."""
        won = self.draws if side is None else self.wins[side]
        return won / self.battles if self.battles else 0.0

    def interval(self, side: str | None, z: float = 1.96) -> tuple[float, float]:
        """Wilson score interval of ``share(side)`` (``z`` = 1.96: 95 %), as (low, high)."""
        n = self.battles
        if n == 0:
            return (0.0, 1.0)
        p = self.share(side)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    @property
    def mean_turns(self) -> float:
        """Game turns per battle, on average."""
        return self.turns / self.battles if self.battles else 0.0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: counts, shares and 95 % intervals per side and for draws."""
        outcomes: list[dict[str, Any]] = []
        for side in (*self.sides, None):
            low, high = self.interval(side)
            outcomes.append(
                {
                    "side": side,
                    "battles": self.draws if side is None else self.wins[side],
                    "share": round(self.share(side), 6),
                    "interval_95": [round(low, 6), round(high, 6)],
                }
            )
        return {
            "battles": self.battles,
            "seed": self.seed,
            "outcomes": outcomes,
            "endings": dict(self.endings),
            "mean_turns": round(self.mean_turns, 3),
        }


def win_odds(
    fleet_a: Sequence[ShipState],
    fleet_b: Sequence[ShipState],
    *,
    battles: int = 1000,
    seed: int = 0,
    max_turns: int = 20,
    options: RuleOptions | Mapping[str, Any] | None = None,
    known_classes: Mapping[str, Iterable[str]] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Forecast:
    """Fight ``battles`` battles of ``fleet_a`` against ``fleet_b`` (ship states as for
    ``resolve_battle``, not mutated), battle ``i`` with seed ``seed + i``, and count the
    outcomes. ``progress(i)`` is called after each battle when given.

    Raises ``ValueError`` for ``battles`` outside 0–``MAX_BATTLES`` or a negative seed, and
    what ``resolve_battle`` raises for bad fleets.
    """
    if not isinstance(battles, int) or not 0 <= battles <= MAX_BATTLES:
        raise ValueError(f"battles: {battles!r}, expected 0–{MAX_BATTLES}")
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed: {seed!r}, expected a whole number ≥ 0")
    sides = (_side(fleet_a, "fleet_a"), _side(fleet_b, "fleet_b"))
    wins: Counter[str] = Counter({sides[0]: 0, sides[1]: 0})
    endings: Counter[str] = Counter()
    draws = turns = 0
    # A battle makes thousands of objects and no reference cycle (checked: a collection
    # after many battles finds nothing), so the cyclic collector's passes are pure cost
    # here; it is paused for the run and restored after.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for i in range(battles):
            outcome = resolve_battle(
                fleet_a,
                fleet_b,
                seed=seed + i,
                max_turns=max_turns,
                options=options,
                known_classes=known_classes,
                record=False,
            )
            if outcome.winner is None:
                draws += 1
            else:
                wins[outcome.winner] += 1
            endings[outcome.reason] += 1
            turns += outcome.turns
            if progress is not None:
                progress(i)
    finally:
        if collecting:
            gc.enable()
    return Forecast(battles, sides, dict(wins), draws, dict(endings), turns, seed)


def _side(fleet: Sequence[ShipState], label: str) -> str:
    if not fleet:
        raise ValueError(f"win_odds: {label} has no ship")
    return fleet[0].side
