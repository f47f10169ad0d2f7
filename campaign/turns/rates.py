"""Rates and costs of repairs, construction and income: campaign settings with defaults.

``Campaign.turn_settings`` overrides any key of :data:`DEFAULTS`; :func:`turn_rates` merges
them and raises ``ValueError`` naming the key for a value that is not a whole number ≥ 0.

What the defaults are based on (the seed gives no campaign economy, rules
§15b; only the construction rules it announces, which D-24 reads as the Fleet Book):

- **Prices are Fleet Book points** as ``factions.designs.construction.design_breakdown`` bills a
  design: a hull box costs the design's hull points ÷ its hull boxes (1–3 points), an armour
  box its layer's points ÷ boxes, a lost system the points of its line (weapon, bay, PD,
  fire control 4, screen its share, drive its share). The Fleet Book prices no crew and no
  command system: a crew factor costs ``crew_factor_points`` (2, a mid hull box) and the
  bridge / life support / core ``command_system_points`` (6, the price of a PD and a half).
- **Repairs cost half the new price** (``repair_percent`` 50): mending what the yard already
  has the frame of, as the seed's wish for "un porte-nef en atelier de réparation" suggests
  it should be cheaper than building.
- **Yard work**: one work unit per hull box, armour box or crew factor, ``system_work`` (2)
  per system; a yard does ``Territory.shipyard_capacity`` units a turn (sample: Trøndelag's
  Kristorensen yard 12 — a Tordenskjold's worst hull in two turns) and queues at most
  ``yard_queue_turns`` (4) turns of work.
- **Construction** costs the design's points (ship plus the squadrons of its bays) and
  ``ship_tech_cost`` (0) technology; a gunboat squadron costs the seed's 72 (heavy
  transports) or 54 (EMP launchers) and ``gunboat_tech_cost`` 1 technology (seed, Norwegian
  sheet). It takes ``ceil(mass / construction_mass_per_turn)`` turns (50 mass a turn: a
  frigate in one turn, a 150-mass cruiser in three); a squadron ``squadron_turns`` (1).
- **Income** per turn: ``income_per_territory`` (100) for each territory held,
  ``income_shipyard_bonus`` (50) more where there is a shipyard (the seed's Norwegian
  economy is its orbital yards and automated factories) and ``technology_per_turn`` (1).
- **Movement**: one order may take a fleet at most ``move_reach_turns`` (4) turns of travel
  along the star map's links (``campaign.starmap.movement``; the seed gives no allowance).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from factions.designs import construction
from factions.designs.validation import design_parse

DEFAULTS: dict[str, int] = {
    "repair_percent": 50,
    "crew_factor_points": 2,
    "command_system_points": 6,
    "system_work": 2,
    "yard_queue_turns": 4,
    "ship_tech_cost": 0,
    "gunboat_tech_cost": 1,
    "construction_mass_per_turn": 50,
    "squadron_turns": 1,
    "income_per_territory": 100,
    "income_shipyard_bonus": 50,
    "technology_per_turn": 1,
    "move_reach_turns": 4,
}
COMMAND_SYSTEMS = ("bridge", "life-support", "core")


def turn_rates(settings: dict[str, Any] | None) -> dict[str, int]:
    """The campaign's rates: :data:`DEFAULTS` overridden by ``settings`` (unknown keys or
    values that are not whole numbers ≥ 0 raise ``ValueError`` naming the key)."""
    rates = dict(DEFAULTS)
    for key, value in (settings or {}).items():
        if key not in DEFAULTS:
            raise ValueError(f"turn_settings.{key}: unknown setting ({', '.join(DEFAULTS)})")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"turn_settings.{key}: {value!r} is not a whole number ≥ 0")
        rates[key] = value
    return rates


@dataclass(frozen=True)
class UnitPrices:
    """Fleet Book points of one unit of each repair kind for a design (before the repair
    percentage): ``hull`` and ``armour`` per box (fractions kept), ``systems`` by id."""

    hull: float
    armour: float
    systems: dict[str, float]


def unit_prices(design_doc: dict[str, Any], rates: dict[str, int]) -> UnitPrices:
    """Price one hull box, armour box and each system of ``design_doc`` from its Fleet Book
    bill (``factions.designs.construction.design_breakdown``). Raises ``DesignInvalid``."""
    design = design_parse(dict(design_doc))
    lines = construction.design_breakdown(design)
    hull = next(line for line in lines if line.field == "hull")
    armour = [line for line in lines if line.field.startswith("armour")]
    armour_boxes = sum(line.mass for line in armour)
    systems: dict[str, float] = {}
    for i, spec in enumerate(design.systems):
        line = next((x for x in lines if x.field == f"systems[{i}]"), None)
        if line is not None:
            systems[spec.id] = float(line.points)
    for line in lines:
        if line.field == "fire_controls":
            for n in range(1, design.fire_controls + 1):
                systems[f"fc-{n}"] = line.points / design.fire_controls
        elif line.field == "screens":
            for n in range(1, design.screens + 1):
                systems[f"screen-{n}"] = line.points / design.screens
        elif line.field == "thrust":
            systems["drive"] = float(line.points)
    for name in COMMAND_SYSTEMS:
        systems[name] = float(rates["command_system_points"])
    return UnitPrices(
        hull=hull.points / max(hull.mass, 1),
        armour=sum(line.points for line in armour) / armour_boxes if armour_boxes else 0.0,
        systems=systems,
    )


def repair_unit_costs(design_doc: dict[str, Any], rates: dict[str, int]) -> dict[str, Any]:
    """Resources for one unit of each repair kind, repair percentage applied, whole numbers
    (half up): ``{"hull", "armour", "crew", "systems": {id: cost}}``."""
    prices = unit_prices(design_doc, rates)
    pct = rates["repair_percent"]

    def cost(points: float) -> int:
        return math.floor(points * pct / 100 + 0.5)

    return {
        "hull": cost(prices.hull),
        "armour": cost(prices.armour),
        "crew": cost(rates["crew_factor_points"]),
        "systems": {sid: cost(p) for sid, p in prices.systems.items()},
    }


def construction_turns(mass: int, rates: dict[str, int]) -> int:
    """Turns to build a ship of ``mass``: ``ceil(mass / construction_mass_per_turn)``, ≥ 1."""
    per_turn = max(rates["construction_mass_per_turn"], 1)
    return max(1, math.ceil(mass / per_turn))
