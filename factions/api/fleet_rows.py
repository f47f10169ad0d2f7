"""The fleet API's detail as plain rows (``GET /api/fleets/{slug}``, ``FleetDetailOut``):
a fleet's ships, squadrons, light units and truthful totals in a fixed number of queries.

Plain ``values()`` dicts, not model instances: instances through ``select_related``
decoded each ship class's whole ``design`` JSON once per ship, and django-ninja read every
attribute through its getter. Each class's design is read once, for the
squadrons in its bays.
"""

from __future__ import annotations

from dataclasses import dataclass

from factions.fleet_totals import LightUnitFigures, ShipFigures, embarked_points, row_totals
from factions.models import Fleet, LightUnitGroup, Ship, ShipClass, Squadron


@dataclass
class FleetRows:
    """``ships`` (``ShipOut`` dicts), ``squadrons`` (id, name, commander),
    ``light_units`` (the fields asked for) and ``totals`` (``FleetPointsOut``'s dict)."""

    ships: list[dict]
    squadrons: list[dict]
    light_units: list[dict]
    totals: dict


SHIP_VALUES = (
    "id",
    "name",
    "captain__name",
    "status",
    "hull_lost",
    "armour_lost",
    "crew_lost",
    "systems_lost",
    "squadron__name",
    "ship_class_id",
    "ship_class__name",
    "ship_class__type_word",
    "ship_class__mass",
    "ship_class__hull_boxes",
    "ship_class__armour",
    "ship_class__thrust",
    "ship_class__points",
    "ship_class__provisional",
)


def ship_rows(values: list[dict]) -> list[dict]:
    """``ShipOut`` dicts from ships read with ``values(*SHIP_VALUES)``.

    Read with ``values()``: model instances through ``select_related`` decoded each ship
    class's whole ``design`` JSON once per ship, and django-ninja read every attribute
    through its getter — together 80 % of a 100-ship fleet's time (60 req/s
    against 600 for ``/api/factions``; ``make bench`` prints today's ratio).
    """
    rows = []
    for v in values:
        rows.append(
            {
                "id": v["id"],
                "name": v["name"],
                "ship_class": {
                    "id": v["ship_class_id"],
                    "name": v["ship_class__name"],
                    "type_word": v["ship_class__type_word"],
                    "mass": v["ship_class__mass"],
                    "hull_boxes": v["ship_class__hull_boxes"],
                    "armour": v["ship_class__armour"],
                    "thrust": v["ship_class__thrust"],
                    "points": v["ship_class__points"],
                    "provisional": v["ship_class__provisional"],
                },
                "squadron": v["squadron__name"],
                "captain": v["captain__name"] or "",
                "status": v["status"],
                "hull_lost": v["hull_lost"],
                "hull_left": max(0, v["ship_class__hull_boxes"] - v["hull_lost"]),
                "armour_lost": v["armour_lost"],
                "crew_lost": v["crew_lost"],
                "systems_lost": v["systems_lost"] or [],
            }
        )
    return rows


def fleet_rows(fleet: Fleet, *, light_unit_fields: tuple[str, ...]) -> FleetRows:
    """:class:`FleetRows` of ``fleet``: four queries (ships with their class figures,
    squadrons, light units with ``light_unit_fields``, the classes' designs)."""
    # No COUNT(ships) annotation here (its GROUP BY cost a third of the fleet query): the
    # ships are read anyway.
    # Plain values() queries instead of prefetch_related: Django's prefetch machinery
    # cost 1.4 ms of a 2.8 ms 3-ship fleet (measured in-process).
    # The ships' default order starts with their fleet's (joins to fleets and factions,
    # ~10 % of this query measured in-process): one fleet here, so its rest only.
    ships = list(
        Ship.objects.filter(fleet=fleet)
        .order_by("ship_class__mass", "name", "pk")
        .values(*SHIP_VALUES)
    )
    squadrons = list(
        Squadron.objects.filter(fleet=fleet)
        .order_by("name", "pk")
        .values("id", "name", "commander__name")
    )
    for row in squadrons:  # the name, as when it was a text column
        row["commander"] = row.pop("commander__name") or ""
    light_units = list(LightUnitGroup.objects.filter(fleet=fleet).values(*light_unit_fields))
    # Strength counts only ships afloat, from the rows above and each class's
    # design read once (bays' squadrons): one more query, whatever the size.
    classes = ShipClass.objects.filter(pk__in={v["ship_class_id"] for v in ships})
    embarked = embarked_points(classes.only("pk", "design").order_by())
    t = row_totals(
        (
            ShipFigures(
                v["status"],
                v["hull_lost"],
                bool(v["hull_lost"] or v["armour_lost"] or v["crew_lost"] or v["systems_lost"]),
                v["ship_class__mass"],
                v["ship_class__points"],
                v["ship_class__hull_boxes"],
                embarked[v["ship_class_id"]],
            )
            for v in ships
        ),
        (
            LightUnitFigures(g["id"], g["carrier_id"], g["kind"], g["unit_type"], g["strength"])
            for g in light_units
        ),
    )
    return FleetRows(ship_rows(ships), squadrons, light_units, {**vars(t), "points": t.points})
