"""Does a design's stated points agree with its construction? (Flagged wherever
shown, never silently trusted.)"""

from __future__ import annotations

from dataclasses import dataclass

from factions.designs import validation
from factions.models import ShipClass


@dataclass(frozen=True)
class PointsCheck:
    """``stated``: ``ShipClass.points``; ``computed``: the Fleet Book bill of its design
    (``factions.designs.validation.design_points``, bays empty), None when the design does not
    validate (``error`` says why). ``ok`` is False when they disagree or cannot be compared."""

    stated: int | None
    computed: int | None
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.computed is not None and self.stated == self.computed


def points_check(ship_class: ShipClass) -> PointsCheck:
    """Compare ``ship_class.points`` with what its design costs by the construction rules."""
    try:
        computed = validation.design_points(ship_class.design or {})
    except ValueError as exc:  # DesignInvalid, UnknownSystem
        return PointsCheck(ship_class.points, None, str(exc)[:300])
    return PointsCheck(ship_class.points, computed)
