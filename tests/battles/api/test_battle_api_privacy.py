"""A light-unit group with no fleet of its own follows its carrier's
visibility in ``GET /api/battles/{id}`` (and a station's group stays public)."""

from __future__ import annotations

import pytest
from django.test import Client

from battles.models import Battle, Participant
from factions.models import Fleet, LightUnitGroup, Territory
from tests.battles.battle_fixtures import draft_skirmish


@pytest.fixture
def battle(cast):
    """The skirmish, concluded, Qatzrin's fleet hidden; one of its ships carries a
    fleetless fighter group (in the battle), and a Qatzrin station has a group too."""
    battle = draft_skirmish(cast.campaign)
    qatzrin_side = battle.sides.get(order=0)
    carrier = qatzrin_side.participants.exclude(ship=None).first().ship
    carried = LightUnitGroup.objects.create(
        name="Carried Kites", kind="fighter", faction=cast.qatzrin, carrier=carrier, size=6
    )
    Participant.objects.create(
        side=qatzrin_side, light_units=carried, craft_lost=2, notes="lost over the moon"
    )
    territory = Territory.objects.create(faction=cast.qatzrin, name="Ha'Ir", slug="ha-ir")
    based = LightUnitGroup.objects.create(
        name="Station Wasps", kind="fighter", faction=cast.qatzrin, territory=territory, size=6
    )
    Participant.objects.create(side=qatzrin_side, light_units=based)
    Fleet.objects.filter(pk=carrier.fleet_id).update(hidden=True)
    Battle.objects.filter(pk=battle.pk).update(status=Battle.Status.CONCLUDED)
    return battle


@pytest.mark.parametrize(
    ("who", "sees_it"),
    [
        (None, False),
        ("outsider", False),
        ("chronicler", False),
        ("norge_player", False),
        ("qatzrin_player", True),
        ("organiser", True),
    ],
)
def test_a_carried_group_follows_its_hidden_carrier(cast, battle, who, sees_it):
    client = Client()
    if who:
        client.force_login(getattr(cast, who))
    response = client.get(f"/api/battles/{battle.pk}")
    assert response.status_code == 200
    names = [p["name"] for side in response.json()["sides"] for p in side["participants"]]
    assert ("Carried Kites" in names) is sees_it
    assert ("lost over the moon" in response.text) is sees_it
    assert "Station Wasps" in names  # a station's group is public


def test_the_battle_detail_takes_the_same_queries_with_carried_groups(
    cast, battle, django_assert_max_num_queries
):
    with django_assert_max_num_queries(8):
        assert Client().get(f"/api/battles/{battle.pk}").status_code == 200
