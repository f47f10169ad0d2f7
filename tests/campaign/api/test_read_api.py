"""The read API: factions, fleets, ships and battles, scoped through each app's access module."""

import pytest
from django.test import Client

from battles.models import Battle, BattleSide, Participant
from factions.models import Commander, Fleet, LightUnitGroup, Ship, ShipClass, Squadron, Territory


def ship_class(faction, name, mass=16, hull=5):
    return ShipClass.objects.create(
        faction=faction,
        name=name,
        slug=name.lower().replace("'", ""),
        type_word="corvette",
        mass=mass,
        hull_boxes=hull,
        armour=2,
        thrust=6,
    )


def fleet_with_ships(faction, slug, n, *, hidden=False, cls=None):
    fleet = Fleet.objects.create(faction=faction, name=slug.title(), slug=slug, hidden=hidden)
    squadron = Squadron.objects.create(fleet=fleet, name="Saryat")
    # One person in one place: each fleet's squadron has its own commander.
    name = "E. Seddia" if slug == "steffen-konalson" else f"Commander of {slug}"
    Commander.objects.create(faction=faction, name=name, squadron=squadron)
    cls = cls or ship_class(faction, f"Class {slug}")
    Ship.objects.bulk_create(
        Ship(ship_class=cls, fleet=fleet, squadron=squadron, name=f"S{i}") for i in range(n)
    )
    LightUnitGroup.objects.create(
        name="Mijna", kind="fighter", faction=faction, fleet=fleet, carrier=fleet.ships.first()
    )
    return fleet


@pytest.fixture
def world(cast):
    """A public Norge fleet and a hidden Qatzrin fleet (3 ships each)."""
    Territory.objects.create(
        faction=cast.norge, name="Trøndelag", slug="trondelag", kind="moon", has_shipyard=True
    )
    cast.public = fleet_with_ships(cast.norge, "steffen-konalson", 3)
    cast.hidden = fleet_with_ships(cast.qatzrin, "fifth-fleet", 3, hidden=True)
    return cast


def as_user(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_faction_list_and_profile_are_public(world):
    response = as_user(None).get("/api/factions")
    assert [f["slug"] for f in response.json()] == ["kongeriket-norge", "qatzrin"]
    norge = as_user(None).get("/api/factions/kongeriket-norge").json()
    assert norge["territories"][0]["name"] == "Trøndelag"
    assert norge["territories"][0]["has_shipyard"] is True
    assert [f["slug"] for f in norge["fleets"]] == ["steffen-konalson"]
    assert as_user(None).get("/api/factions/nobody").status_code == 404


@pytest.mark.parametrize(
    ("who", "sees_hidden"),
    [
        (None, False),
        ("outsider", False),
        ("chronicler", False),
        ("norge_player", False),
        ("qatzrin_player", True),
        ("organiser", True),
    ],
)
def test_a_hidden_fleet_is_seen_only_by_its_faction_and_organisers(world, who, sees_hidden):
    client = as_user(getattr(world, who) if who else None)
    slugs = [f["slug"] for f in client.get("/api/fleets").json()]
    assert ("fifth-fleet" in slugs) is sees_hidden
    assert "steffen-konalson" in slugs
    expected = 200 if sees_hidden else 404
    assert client.get("/api/fleets/fifth-fleet").status_code == expected
    hidden_ship = world.hidden.ships.first()
    assert client.get(f"/api/ships/{hidden_ship.pk}").status_code == expected
    qatzrin_fleets = client.get("/api/factions/qatzrin").json()["fleets"]
    assert bool(qatzrin_fleets) is sees_hidden


def test_fleet_detail_gives_squadrons_ships_damage_and_light_units(world):
    ship = world.public.ships.order_by("pk").first()
    ship.hull_lost, ship.status, ship.systems_lost = 2, "damaged", ["beam-a"]
    ship.save()
    body = as_user(None).get("/api/fleets/steffen-konalson").json()
    assert body["ship_count"] == 3
    assert body["squadrons"] == [
        {"id": world.public.squadrons.get().pk, "name": "Saryat", "commander": "E. Seddia"}
    ]
    first = next(s for s in body["ships"] if s["id"] == ship.pk)
    assert (first["hull_lost"], first["hull_left"], first["status"]) == (2, 3, "damaged")
    assert first["systems_lost"] == ["beam-a"]
    assert first["squadron"] == "Saryat"
    assert first["ship_class"]["mass"] == 16
    assert body["light_units"][0]["carrier_id"] == ship.pk


def test_ship_detail_names_its_fleet_faction_and_carried_units(world):
    ship = world.public.ships.order_by("pk").first()
    body = as_user(None).get(f"/api/ships/{ship.pk}").json()
    assert (body["fleet"], body["faction"]) == ("steffen-konalson", "kongeriket-norge")
    assert [lu["name"] for lu in body["light_units"]] == ["Mijna"]
    assert as_user(None).get("/api/ships/999999").status_code == 404


@pytest.mark.parametrize("who", [None, "qatzrin_player"])
def test_a_fleet_of_100_ships_costs_the_same_queries_as_one_of_3(
    world, who, django_assert_num_queries
):
    cls = world.public.ships.first().ship_class
    fleet_with_ships(world.norge, "big-fleet", 100, cls=cls)
    client = as_user(getattr(world, who) if who else None)
    # anonymous: fleet, ships, squadrons, light units, and the ships' classes (their bays'
    # squadrons, for the truthful totals); a player adds session, user and their scope
    # (factions.fleet_cache; the fleet data version, read outside a transaction that has
    # written, is counted in tests/campaign/test_query_counts.py).
    expected = 5 if who is None else 9
    for slug in ("steffen-konalson", "big-fleet"):
        with django_assert_num_queries(expected):
            assert client.get(f"/api/fleets/{slug}").status_code == 200
    # and the list: how many (X-Total-Count), then the page's rows
    with django_assert_num_queries(2 if who is None else 6):
        assert len(client.get("/api/fleets").json()) >= 2


@pytest.fixture
def battle(world):
    """A concluded battle where the hidden Qatzrin fleet fought the public Norge one."""
    battle = Battle.objects.create(
        campaign=world.campaign,
        name="Miranda",
        slug="miranda",
        status="concluded",
        winner=world.norge,
        game_turns=5,
    )
    for order, (faction, fleet) in enumerate(
        [(world.norge, world.public), (world.qatzrin, world.hidden)]
    ):
        side = BattleSide.objects.create(battle=battle, faction=faction, fleet=fleet, order=order)
        for ship in fleet.ships.all():
            Participant.objects.create(side=side, ship=ship, fate="damaged", hull_lost=1)
    Battle.objects.create(campaign=world.campaign, name="Plans", slug="plans", status="draft")
    return battle


def test_battles_list_concluded_ones_to_the_public_and_drafts_to_organisers(battle, world):
    assert [b["slug"] for b in as_user(None).get("/api/battles").json()] == ["miranda"]
    organiser_view = as_user(world.organiser).get("/api/battles").json()
    assert sorted(b["slug"] for b in organiser_view) == ["miranda", "plans"]
    draft = Battle.objects.get(slug="plans")
    assert as_user(None).get(f"/api/battles/{draft.pk}").status_code == 404
    assert as_user(world.organiser).get(f"/api/battles/{draft.pk}").status_code == 200


def test_battle_detail_hides_participants_of_fleets_the_user_cannot_see(battle, world):
    public_view = as_user(world.norge_player).get(f"/api/battles/{battle.pk}").json()
    norge_side, qatzrin_side = public_view["sides"]
    assert (norge_side["fleet"], qatzrin_side["fleet"]) == ("steffen-konalson", None)
    assert len(norge_side["participants"]) == 3
    assert qatzrin_side["participants"] == []
    assert public_view["winner"] == "kongeriket-norge"
    own_view = as_user(world.qatzrin_player).get(f"/api/battles/{battle.pk}").json()
    assert own_view["sides"][1]["fleet"] == "fifth-fleet"
    assert [p["fate"] for p in own_view["sides"][1]["participants"]] == ["damaged"] * 3


def test_battle_list_query_count_does_not_grow_with_battles(
    battle, world, django_assert_num_queries
):
    # how many (X-Total-Count), the page's battles, sides, visible fleet ids
    with django_assert_num_queries(4):
        as_user(None).get("/api/battles")
    for i in range(10):
        copy = Battle.objects.create(
            campaign=world.campaign, name=f"B{i}", slug=f"b{i}", status="concluded"
        )
        BattleSide.objects.create(battle=copy, faction=world.norge, fleet=world.public)
    with django_assert_num_queries(4):
        assert len(as_user(None).get("/api/battles").json()) == 11


def test_battle_detail_query_count_does_not_grow_with_participants(
    battle, world, django_assert_num_queries
):
    # battle, sides, participants (with ships, classes, light units), visible fleet ids
    with django_assert_num_queries(4):
        assert as_user(None).get(f"/api/battles/{battle.pk}").status_code == 200
    side = battle.sides.get(faction=world.norge)
    big = fleet_with_ships(world.norge, "reserve", 50)
    for ship in big.ships.all():
        Participant.objects.create(side=side, ship=ship)
    Participant.objects.create(side=side, light_units=big.light_units.get())
    with django_assert_num_queries(4):
        body = as_user(None).get(f"/api/battles/{battle.pk}").json()
    assert len(body["sides"][0]["participants"]) == 3 + 50 + 1
