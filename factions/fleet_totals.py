"""Totals of a fleet page: ship counts, mass and points, from rows already fetched.

Prices come from the stored ``ShipClass.points`` and, for the squadrons in bays and the
light units based on no carrier, from ``factions.designs.construction`` (Fleet Book figures).
Runs no query.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from factions.designs import construction
from factions.models import LightUnitGroup, Ship, ShipClass

logger = logging.getLogger(__name__)


@dataclass
class FleetTotals:
    """Totals of a fleet page: ship counts, mass (mass points) and points.

    Strength that tells the truth: ``ship_points`` sums ``ShipClass.points``
    (one ship, bays empty) of the ships **afloat** only; ``squadron_points`` prices the
    squadrons in their bays and the fleet's light units based on no carrier (station
    fighters, colony batteries) at their strength left, with ``factions.designs.construction``
    (Fleet Book figures); ``points`` is the whole. Destroyed and captured ships
    are counted apart (``lost``, ``lost_points`` with their bays); ``damaged_points`` is the
    share of the afloat points that is damaged (each damaged ship's points × hull boxes
    lost ÷ hull boxes, rounded half up). ``unpriced`` counts ships whose class has no points
    and light-unit groups that cannot be priced: the total is then partial.
    """

    ships: int = 0
    afloat: int = 0
    mass: int = 0
    ship_points: int = 0
    squadron_points: int = 0
    unpriced: int = 0
    lost: int = 0
    lost_points: int = 0
    damaged: int = 0
    damaged_points: int = 0

    @property
    def points(self) -> int:
        """Ship and squadron points together."""
        return self.ship_points + self.squadron_points


def _embarked_points(ship_class: ShipClass, cache: dict[int, int | None]) -> int | None:
    """Points of the squadrons in the bays of ``ship_class``'s design (None: cannot price),
    memoised in ``cache`` by class id.

    Reads the bays straight from the design document rather than re-validating the whole
    design: a class whose stored design no longer passes the construction checks still
    shows its stored points and its squadrons.
    """
    if ship_class.pk not in cache:
        total = 0
        try:
            for system in (ship_class.design or {}).get("systems", []):
                squadron = system.get("squadron") if system.get("kind") == "bay" else None
                if squadron:
                    total += construction.squadron_points(
                        squadron["unit"],
                        size=int(squadron.get("size", 6)),
                        variant=squadron.get("variant"),
                    )
        except (ValueError, KeyError, TypeError) as exc:  # UnknownSystem, malformed bay
            logger.warning("squadrons of class %s cannot be priced: %s", ship_class.pk, exc)
            cache[ship_class.pk] = None
        else:
            cache[ship_class.pk] = total
    return cache[ship_class.pk]


def embarked_points(classes: Iterable[ShipClass]) -> dict[int, int | None]:
    """``{class id: points of the squadrons in its bays, or None}`` for ``classes`` (read
    with their ``design``): what :func:`row_totals` needs, each design read once."""
    cache: dict[int, int | None] = {}
    for ship_class in classes:
        _embarked_points(ship_class, cache)
    return cache


class ShipFigures(NamedTuple):
    """What the totals read of one ship: its state and its class's figures."""

    status: str
    hull_lost: int
    damaged: bool  # any hull, armour, crew or system lost
    mass: int
    points: int | None
    hull_boxes: int
    embarked: int | None  # squadrons in its bays, None: cannot price


class LightUnitFigures(NamedTuple):
    """What the totals read of one light-unit group."""

    pk: int
    carrier_id: int | None
    kind: str
    unit_type: str
    strength: int


def fleet_totals(ships: list[Ship], light_units: Sequence[LightUnitGroup] = ()) -> FleetTotals:
    """Count ``ships`` (afloat = not destroyed nor captured), their mass and points.

    Runs no query: ``ships`` come with their ``ship_class``. Light units on a carrier are
    already priced as its bays' squadrons, so only those without a carrier are added.
    """
    cache: dict[int, int | None] = {}
    return _totals(
        (
            ShipFigures(
                s.status,
                s.hull_lost,
                bool(s.hull_lost or s.armour_lost or s.crew_lost or s.systems_lost),
                s.ship_class.mass,
                s.ship_class.points,
                s.ship_class.hull_boxes,
                _embarked_points(s.ship_class, cache),
            )
            for s in ships
        ),
        (
            LightUnitFigures(g.pk, g.carrier_id, g.kind, g.unit_type, g.strength)
            for g in light_units
        ),
    )


def row_totals(
    ships: Iterable[ShipFigures], light_units: Iterable[LightUnitFigures] = ()
) -> FleetTotals:
    """:func:`fleet_totals` from plain figures (the fleet API's rows, which are read with
    ``values()`` and without the class designs: ``embarked_points`` gives those)."""
    return _totals(ships, light_units)


def _totals(ships: Iterable[ShipFigures], light_units: Iterable[LightUnitFigures]) -> FleetTotals:
    totals = FleetTotals()
    for ship in ships:
        totals.ships += 1
        afloat = ship.status not in (Ship.Status.DESTROYED, Ship.Status.CAPTURED)
        totals.mass += ship.mass
        priced = ship.points is not None and ship.embarked is not None
        if not afloat:
            totals.lost += 1
            if priced:
                totals.lost_points += ship.points + ship.embarked
            continue
        totals.afloat += 1
        if not priced:
            totals.unpriced += 1
            continue
        totals.ship_points += ship.points
        totals.squadron_points += ship.embarked
        if ship.damaged:
            totals.damaged += 1
            hull = max(ship.hull_boxes, 1)
            totals.damaged_points += construction.round_half_up(
                ship.points * min(ship.hull_lost, hull), hull
            )
    for group in light_units:
        if group.carrier_id is not None:
            continue
        variant = group.unit_type if group.kind in ("battery", "gunboat") else None
        try:
            totals.squadron_points += construction.squadron_points(
                group.kind, size=group.strength, variant=variant
            )
        except ValueError as exc:  # UnknownSystem
            logger.warning("light units %s cannot be priced: %s", group.pk, exc)
            totals.unpriced += 1
    return totals
