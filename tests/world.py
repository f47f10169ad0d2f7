"""A small league to drive the pages with: built on the shared ``cast`` fixture.

Qatzrin has a public fleet (one squadron, three Sa'ar corvettes — one damaged with two
systems lost — and a fighter group on the Kineret carrier) and a hidden fleet; Kongeriket
Norge has a hidden fleet and a public one. A concluded battle sets them against each other.
Used by the page tests and the end-to-end tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from battles.models import Battle, BattleSide, Participant
from factions.catalogue_loader import CATALOGUE_DIR
from factions.models import Commander, Fleet, LightUnitGroup, Ship, ShipClass, Squadron, Territory

HOSTILE_MARKDOWN = (
    "Une **puissance** du secteur.\n\n"
    "<script>window.pwned = 1</script>\n\n"
    '<img src="x" onerror="window.pwned = 2">\n\n'
    "[cliquez](javascript:window.pwned=3)\n"
)

CATALOGUE = CATALOGUE_DIR / "qatzrin.json"


def catalogue_design(name: str) -> dict[str, Any]:
    """The design of class ``name`` from the project's Qatzrin catalogue (valid, priced)."""
    classes = json.loads(CATALOGUE.read_text(encoding="utf-8"))["classes"]
    return next(c for c in classes if c["name"] == name)


def class_from_design(faction, design: dict[str, Any], slug: str):
    """A ShipClass whose summary fields are read from ``design``."""
    return ShipClass.objects.create(
        faction=faction,
        name=design["name"],
        slug=slug,
        type_word=design["type_word"],
        mass=design["mass"],
        hull_boxes=design["hull"]["boxes"],
        armour=sum(design["armour"]["layers"]),
        thrust=design["thrust"],
        design=design,
        provisional=design.get("provisional", True),
        points=design.get("points"),
    )


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
    return Ship.objects.bulk_create(
        Ship(name=f"{prefix} {i}", ship_class=ship_class, fleet=fleet, squadron=squadron)
        for i in range(1, count + 1)
    )


def build_world(cast) -> World:
    """Populate the test database around ``cast`` and return the handles."""
    norge, qatzrin = cast.norge, cast.qatzrin
    norge.capital = "Nova Oslo"
    norge.ruler = "Kong Harald IX"
    norge.description = HOSTILE_MARKDOWN
    norge.save()
    Territory.objects.create(
        faction=norge, name="Fjordheim", slug="fjordheim", kind="planet", has_shipyard=True
    )
    saar = class_from_design(qatzrin, catalogue_design("Sa'ar"), "saar")
    kineret = class_from_design(qatzrin, catalogue_design("Kineret"), "kineret")
    escort = ShipClass.objects.create(
        faction=norge, name="Draug", slug="draug", type_word="escorte", mass=20,
        hull_boxes=6, armour=0, thrust=6, design={},
    )  # fmt: skip
    public_fleet = Fleet.objects.create(
        faction=qatzrin, name="5e flotte d'incursion", slug="qatzrin-5th"
    )
    Commander.objects.create(faction=qatzrin, name="Yael Dor", rank="admiral", fleet=public_fleet)
    squadron = Squadron.objects.create(fleet=public_fleet, name="Escadre Nimrod")
    Commander.objects.create(faction=qatzrin, name="Ari", rank="commander", squadron=squadron)
    damaged = Ship.objects.create(
        name="Nimrod", ship_class=saar, fleet=public_fleet, squadron=squadron,
        status=Ship.Status.DAMAGED, hull_lost=2, armour_lost=1, crew_lost=0,
        systems_lost=[system["id"] for system in saar.design["systems"][:2]],
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
    LightUnitGroup.objects.create(
        name="Battery Ari", kind="battery", unit_type="beam-2", faction=qatzrin,
        fleet=public_fleet, size=1, strength=1,
    )  # fmt: skip
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
        battle=battle, faction=qatzrin, fleet=public_fleet, order=0,
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
