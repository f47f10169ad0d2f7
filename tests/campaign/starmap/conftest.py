"""A small star map on the cast's campaign (``cast``: Norge and Qatzrin, their players).

Systems (map units): Sol (100, 100), Vega (400, 100), Rigel (700, 100), Deneb (400, 400),
Far (900, 900, no link). Links: Sol–Vega 1 turn, Vega–Rigel 2, Sol–Deneb 1, Deneb–Rigel
1, so Sol → Rigel is quickest through Deneb (2 turns, against 3 through Vega).
Territories: Oslo Station (Norge, yard) at Sol, Qatz Prime (Qatzrin) at Rigel.
Fleets: Home Fleet (Norge) at Sol, Raiders (Qatzrin) at Rigel, Shadow (Qatzrin, hidden)
at Deneb; each with one ship.
"""

import pytest

from campaign.starmap.models import FleetPosition, StarLink, StarSystem, TerritoryPlacement
from factions.models import Fleet, Ship, ShipClass, Territory


def add_link(campaign, a, b, turns):
    a, b = sorted([a, b], key=lambda s: s.pk)
    return StarLink.objects.create(campaign=campaign, a=a, b=b, travel_turns=turns)


@pytest.fixture
def starmap(cast):
    c = cast.campaign
    cast.sol, cast.vega, cast.rigel, cast.deneb, cast.far = (
        StarSystem.objects.create(campaign=c, name=n, slug=n.lower(), x=x, y=y)
        for n, x, y in [
            ("Sol", 100, 100),
            ("Vega", 400, 100),
            ("Rigel", 700, 100),
            ("Deneb", 400, 400),
            ("Far", 900, 900),
        ]
    )
    cast.sol_vega = add_link(c, cast.sol, cast.vega, 1)
    cast.vega_rigel = add_link(c, cast.vega, cast.rigel, 2)
    cast.sol_deneb = add_link(c, cast.sol, cast.deneb, 1)
    cast.deneb_rigel = add_link(c, cast.deneb, cast.rigel, 1)
    cast.oslo = Territory.objects.create(
        faction=cast.norge,
        name="Oslo Station",
        slug="oslo",
        kind="station",
        has_shipyard=True,
        shipyard_capacity=10,
    )
    cast.prime = Territory.objects.create(faction=cast.qatzrin, name="Qatz Prime", slug="prime")
    TerritoryPlacement.objects.create(campaign=c, system=cast.sol, territory=cast.oslo)
    TerritoryPlacement.objects.create(campaign=c, system=cast.rigel, territory=cast.prime)
    fleets = {}
    for name, faction, system, hidden, territory in [
        ("Home Fleet", cast.norge, cast.sol, False, cast.oslo),
        ("Raiders", cast.qatzrin, cast.rigel, False, cast.prime),
        ("Shadow", cast.qatzrin, cast.deneb, True, None),
    ]:
        fleet = Fleet.objects.create(
            faction=faction,
            name=name,
            slug=name.lower().replace(" ", "-"),
            hidden=hidden,
            territory=territory,
        )
        cls, _ = ShipClass.objects.get_or_create(
            faction=faction,
            slug="frigate",
            defaults={"name": "Frigate", "mass": 24, "hull_boxes": 8},
        )
        Ship.objects.create(fleet=fleet, ship_class=cls, name=f"{name} One")
        FleetPosition.objects.create(campaign=c, fleet=fleet, system=system)
        fleets[name] = fleet
    cast.home, cast.raiders, cast.shadow = fleets["Home Fleet"], fleets["Raiders"], fleets["Shadow"]
    return cast
