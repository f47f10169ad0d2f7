"""Posting commanders by name (factions/commanders/records.py): one record per name and
faction, one place at a time, the former holder relieved, bad names refused by field."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from campaign.core.validation import TextError
from factions.commanders.records import commander_post
from factions.models import Commander, Fleet, Squadron

pytestmark = pytest.mark.usefixtures("english")


def test_posting_moves_the_person_and_relieves_the_former_holder(world):
    qatzrin = world.cast.qatzrin
    fleet = world.public_fleet
    squadron = Squadron.objects.get(name="Escadre Nimrod")
    yael = commander_post(faction=qatzrin, name="Yael Dor", squadron=squadron)
    assert Commander.objects.filter(name="Yael Dor").count() == 1
    yael.refresh_from_db()
    assert (yael.fleet_id, yael.squadron_id, yael.rank) == (None, squadron.pk, "admiral")
    ari = Commander.objects.get(name="Ari")  # relieved: no place, record kept
    assert (ari.fleet_id, ari.squadron_id, ari.ship_id) == (None, None, None)
    assert not Commander.objects.filter(fleet=fleet).exists()
    # The same name posted again to the same place changes nothing; an empty name relieves.
    assert commander_post(faction=qatzrin, name="Yael Dor", squadron=squadron) == yael
    assert commander_post(faction=qatzrin, name="", squadron=squadron) is None
    assert not Commander.objects.filter(squadron=squadron).exists()
    # A new name: a new record with the post's rank.
    new = commander_post(faction=qatzrin, name="Noa Bar", ship=world.damaged_ship)
    assert (new.rank, new.ship_id, new.faction_id) == ("captain", world.damaged_ship.pk, qatzrin.pk)


def test_the_same_name_in_another_faction_is_another_person(world):
    other = commander_post(faction=world.cast.norge, name="Yael Dor", fleet=world.norge_fleet)
    assert other.faction == world.cast.norge
    assert Commander.objects.filter(name="Yael Dor").count() == 2


@pytest.mark.parametrize(
    ("name", "message"),
    [("Ad\x00m", "admiral: contains a NUL character"), ("A" * 201, "admiral: is 201 characters")],
)
def test_a_name_that_cannot_be_stored_is_refused_naming_the_post(world, name, message):
    with pytest.raises(TextError, match=message):
        commander_post(faction=world.cast.qatzrin, name=name, fleet=world.norge_fleet)


def test_a_commander_in_two_places_is_refused(world):
    yael = Commander.objects.get(name="Yael Dor")
    yael.ship = world.damaged_ship
    with pytest.raises(ValidationError) as refused:
        yael.full_clean()
    assert set(refused.value.message_dict) == {"fleet", "ship"}
    with pytest.raises(IntegrityError), transaction.atomic():
        yael.save()
    assert Fleet.objects.get(pk=world.public_fleet.pk).admiral == yael
