"""A small league to drive the pages with: built on the shared ``cast`` fixture.

Qatzrin has a public fleet (one squadron, three Sa'ar corvettes — one damaged with two
systems lost — and a fighter group on the Kineret carrier) and a hidden fleet; Kongeriket
Norge has a hidden fleet and a public one. A concluded battle sets them against each other.
Used by the page tests and the end-to-end tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

HOSTILE_MARKDOWN = (
    "Une **puissance** du secteur.\n\n"
    "<script>window.pwned = 1</script>\n\n"
    '<img src="x" onerror="window.pwned = 2">\n\n'
    "[cliquez](javascript:window.pwned=3)\n"
)

SAAR_DESIGN: dict[str, Any] = {
    "format": "admiralty-design/1",
    "name": "Sa'ar",
    "faction": "qatzrin",
    "type_word": "corvette",
    "mass": 16,
    "thrust": 6,
    "ftl": True,
    "hull": {"boxes": 5, "rows": [2, 1, 1, 1]},
    "armour": {"layers": [2]},
    "screens": 0,
    "fire_controls": 1,
    "sensors": "standard",
    "ecm": 0,
    "command": ["bridge", "life-support", "core"],
    "systems": [
        {"id": "beam-a", "kind": "weapon", "weapon": "beam-2", "arcs": ["F", "FS", "FP"]},
        {"id": "torp-a", "kind": "weapon", "weapon": "plasma-torpedo", "arcs": ["F"],
         "magazine": "mag-a"},
        {"id": "mag-a", "kind": "magazine", "capacity": 4},
        {"id": "pd-a", "kind": "pd"},
    ],
    "power": {"power_points": 0, "biomass": 0},
    "tech_cost": 0,
    "provisional": True,
    "rationale": "Test corvette.",
    "points": 56,
}  # fmt: skip

KINERET_DESIGN: dict[str, Any] = {
    **SAAR_DESIGN,
    "name": "Kineret",
    "type_word": "porte-nef léger",
    "mass": 60,
    "thrust": 4,
    "hull": {"boxes": 18, "rows": [5, 5, 4, 4]},
    "armour": {"layers": [4]},
    "fire_controls": 1,
    "systems": [
        {"id": "pd-a", "kind": "pd"},
        {"id": "bay-a", "kind": "bay",
         "squadron": {"name": "Najna", "unit": "long-range-fighter", "size": 6}},
    ],
    "rationale": "Test light carrier.",
    "points": 210,
}  # fmt: skip


@dataclass
class World:
    """Handles on the objects the tests look at (see the module docstring)."""

    cast: Any
    saar: Any
    kineret: Any
    escort: Any
    public_fleet: Any
    hidden_fleet: Any
    norge_fleet: Any
    norge_hidden: Any
    damaged_ship: Any
    carrier: Any
    hidden_ship: Any
    norge_hidden_ship: Any
    battle: Any


def add_ships(fleet, ship_class, count: int, *, squadron=None, prefix: str = "Test") -> list:
    """Create ``count`` undamaged ships of ``ship_class`` in ``fleet`` (one bulk insert)."""
    from factions.models import Ship

    return Ship.objects.bulk_create(
        Ship(name=f"{prefix} {i}", ship_class=ship_class, fleet=fleet, squadron=squadron)
        for i in range(1, count + 1)
    )


def build_world(cast) -> World:
    """Populate the test database around ``cast`` and return the handles."""
    from battles.models import Battle, BattleSide, Participant
    from factions.models import Fleet, LightUnitGroup, Ship, ShipClass, Squadron, Territory

    norge, qatzrin = cast.norge, cast.qatzrin
    norge.capital = "Nova Oslo"
    norge.ruler = "Kong Harald IX"
    norge.description = HOSTILE_MARKDOWN
    norge.save()
    Territory.objects.create(
        faction=norge, name="Fjordheim", slug="fjordheim", kind="planet", has_shipyard=True
    )
    saar = ShipClass.objects.create(
        faction=qatzrin, name="Sa'ar", slug="saar", type_word="corvette", mass=16,
        hull_boxes=5, armour=2, thrust=6, design=SAAR_DESIGN, points=56,
    )  # fmt: skip
    kineret = ShipClass.objects.create(
        faction=qatzrin, name="Kineret", slug="kineret", type_word="porte-nef léger", mass=60,
        hull_boxes=18, armour=4, thrust=4, design=KINERET_DESIGN, points=210,
    )  # fmt: skip
    escort = ShipClass.objects.create(
        faction=norge, name="Draug", slug="draug", type_word="escorte", mass=20,
        hull_boxes=6, armour=0, thrust=6, design={},
    )  # fmt: skip
    public_fleet = Fleet.objects.create(
        faction=qatzrin, name="5e flotte d'incursion", slug="qatzrin-5th", admiral="Yael Dor"
    )
    squadron = Squadron.objects.create(fleet=public_fleet, name="Escadre Nimrod", commander="Ari")
    damaged = Ship.objects.create(
        name="Nimrod", ship_class=saar, fleet=public_fleet, squadron=squadron,
        status=Ship.Status.DAMAGED, hull_lost=2, armour_lost=1, crew_lost=0,
        systems_lost=["beam-a", "pd-a"],
    )  # fmt: skip
    add_ships(public_fleet, saar, 2, squadron=squadron, prefix="Namadira")
    carrier = Ship.objects.create(name="Lydia", ship_class=kineret, fleet=public_fleet)
    LightUnitGroup.objects.create(
        name="Najna-1",
        kind="long-range-fighter",
        faction=qatzrin,
        carrier=carrier,
        size=6,
        strength=4,
    )
    hidden_fleet = Fleet.objects.create(
        faction=qatzrin, name="Flotte de l'ombre", slug="qatzrin-shadow", hidden=True
    )
    hidden_ship = Ship.objects.create(name="Tzel", ship_class=saar, fleet=hidden_fleet)
    norge_fleet = Fleet.objects.create(faction=norge, name="Hjemmeflåten", slug="norge-home")
    add_ships(norge_fleet, escort, 2, prefix="Draug")
    norge_hidden = Fleet.objects.create(
        faction=norge, name="Skyggeflåten", slug="norge-shadow", hidden=True
    )
    norge_hidden_ship = Ship.objects.create(name="Fenrir", ship_class=escort, fleet=norge_hidden)

    battle = Battle.objects.create(
        campaign=cast.campaign, name="Bataille de Fjordheim", slug="fjordheim",
        location="Fjordheim",
        campaign_turn=2, game_turns=5, winner=qatzrin, status=Battle.Status.CONCLUDED,
        narrative="Les corvettes **attaquent**.", analysis="Une victoire nette.",
    )  # fmt: skip
    q_side = BattleSide.objects.create(
        battle=battle, faction=qatzrin, fleet=public_fleet, is_winner=True, order=0,
        primary_objective="Détruire le chantier naval.",
    )  # fmt: skip
    n_side = BattleSide.objects.create(
        battle=battle, faction=norge, fleet=norge_hidden, order=1,
        primary_objective="Tenir l'orbite.",
    )  # fmt: skip
    Participant.objects.create(side=q_side, ship=damaged, fate="damaged", hull_lost=2)
    Participant.objects.create(side=n_side, ship=norge_hidden_ship, fate="destroyed", hull_lost=6)
    return World(
        cast=cast, saar=saar, kineret=kineret, escort=escort, public_fleet=public_fleet,
        hidden_fleet=hidden_fleet, norge_fleet=norge_fleet, norge_hidden=norge_hidden,
        damaged_ship=damaged, carrier=carrier, hidden_ship=hidden_ship,
        norge_hidden_ship=norge_hidden_ship, battle=battle,
    )  # fmt: skip
