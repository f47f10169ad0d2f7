"""Deletes never rewrite a concluded battle: its ships, light units, fleets and winner are
protected; a participant is exactly one ship or one light-unit group, a ship once per side."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.urls import reverse

from battles.models import Battle, Participant
from battles.services import battle_record
from campaign.core.actors import SYSTEM
from factions.models import Fleet, LightUnitGroup, Ship
from tests.battles.battle_fixtures import draft_skirmish

pytestmark = pytest.mark.django_db


@pytest.fixture
def fought():
    """A concluded skirmish: Phalon won, Ra'am damaged."""
    battle = draft_skirmish(qatzrin=("Ra'am",), phalon=("Huulth",))
    raam = Participant.objects.get(side__battle=battle, ship__isnull=False, side__order=0)
    battle_record(
        user=SYSTEM,
        battle=battle,
        results=[{"participant": raam.pk, "fate": "damaged", "hull_lost": 2}],
        outcome="Phalon hold.",
        winner="phalon",
    )
    battle.refresh_from_db()
    return battle


def _history(battle: Battle) -> list:
    return list(
        Participant.objects.filter(side__battle=battle)
        .order_by("pk")
        .values_list("pk", "ship_id", "light_units_id", "fate", "hull_lost")
    ) + [Battle.objects.values_list("winner_id", "version").get(pk=battle.pk)]


@pytest.mark.parametrize("model", [Fleet, Ship, LightUnitGroup])
def test_deleting_what_fought_a_concluded_battle_is_refused(fought, model):
    before = _history(fought)
    unit = model.objects.filter(faction__slug="phalon").first() if model is not Ship else None
    unit = unit or Ship.objects.filter(fleet__faction__slug="phalon").first()
    with pytest.raises(ProtectedError), transaction.atomic():
        unit.delete()
    assert model.objects.filter(pk=unit.pk).exists()
    assert _history(fought) == before


def test_the_winner_faction_and_a_sides_fleet_are_protected(fought):
    with pytest.raises(ProtectedError), transaction.atomic():
        fought.winner.delete()
    fleet = fought.sides.get(order=0).fleet
    fleet.ships.all().update(fleet=Fleet.objects.create(faction=fleet.faction, slug="x"))
    with pytest.raises(ProtectedError), transaction.atomic():
        fleet.delete()  # no ship left in it: its side still names it


def test_the_admin_shows_the_protected_page_and_keeps_the_fleet(fought, client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", password="pw-12345!")
    client.force_login(admin)
    fleet = Fleet.objects.get(faction__slug="phalon")
    url = reverse("admin:factions_fleet_delete", args=[fleet.pk])
    before = _history(fought)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert "would require deleting the following protected related objects" in page.content.decode()
    client.post(url, {"post": "yes"}, HTTP_ACCEPT_LANGUAGE="en")
    assert Fleet.objects.filter(pk=fleet.pk).exists() and _history(fought) == before


def test_deleting_the_battle_itself_still_takes_its_participants(fought):
    fought.delete()
    assert not Participant.objects.exists() and Ship.objects.count() == 2


def test_a_participant_is_exactly_one_unit_and_a_ship_once_per_side():
    battle = draft_skirmish(qatzrin=("Ra'am",), phalon=("Huulth",))
    q_side, p_side = battle.sides.order_by("order")
    raam = Ship.objects.get(fleet__faction__slug="qatzrin")
    group = LightUnitGroup.objects.get()
    for fields in ({"ship": raam, "light_units": group}, {}, {"ship": raam}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Participant.objects.create(side=q_side, **fields)
    # The same ship on the other side is no constraint's business (the services refuse it).
    Participant.objects.create(side=p_side, ship=raam)
