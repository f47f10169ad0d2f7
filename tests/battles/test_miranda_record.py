"""The seed's Miranda battle ("Colonisation compromise") recorded through the pages as
the seed tells it: set up with every ship, Petra IV's fighter squadrons and the colonies'
batteries, recorded in one formset, confirmed, concluded into the fleets — which end
exactly as the sample loader leaves them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from battles.models import Battle, Participant
from battles.services.common import battle_sides
from campaign.models import Campaign, Intel, Membership
from campaign.services import sample_load
from factions.models import LightUnitGroup, Ship

pytestmark = pytest.mark.django_db
SHIP_FIELDS = ("hull_lost", "armour_lost", "crew_lost", "systems_lost", "status", "fleet_id")


def test_miranda_recorded_through_the_form_concludes_into_the_fleets(client):
    sample_load()
    campaign = Campaign.objects.get(slug="sample")
    miranda = Battle.objects.get(campaign=campaign, slug="colonisation-compromise")
    parts = list(Participant.objects.filter(side__battle=miranda).select_related("side__faction"))
    expected_ships = {
        s.pk: tuple(getattr(s, f) for f in SHIP_FIELDS)
        for s in Ship.objects.filter(participations__side__battle=miranda)
    }
    expected_groups = dict(
        LightUnitGroup.objects.filter(participations__side__battle=miranda).values_list(
            "pk", "strength"
        )
    )
    fates = {(p.ship_id, p.light_units_id): p for p in parts}
    groups = [p for p in parts if p.light_units_id]
    assert {g.light_units.kind for g in groups} >= {"battery", "fighter", "heavy-fighter"}
    # Back to the eve of the battle: no damage, craft aboard, no intel, no battle.
    for p in parts:
        if p.ship_id:
            ship = p.ship
            ship.hull_lost -= p.hull_lost if p.fate != "destroyed" else ship.hull_lost
            ship.armour_lost -= p.armour_lost if p.fate != "destroyed" else ship.armour_lost
            ship.crew_lost = 0
            ship.systems_lost = [s for s in ship.systems_lost if s not in p.systems_lost]
            ship.status = "damaged" if ship.hull_lost or ship.systems_lost else "active"
            ship.save()
        else:
            p.light_units.strength += p.craft_lost
            p.light_units.save()
    Intel.objects.filter(campaign=campaign).delete()
    Battle.objects.filter(campaign=campaign).delete()  # the Miranda battle and the draft
    assert not Ship.objects.filter(
        pk__in=expected_ships, hull_lost__gt=0
    ).exists()  # the sample's ships came to Miranda undamaged

    organiser = get_user_model().objects.create_user("orga", password="pw")
    Membership.objects.create(campaign=campaign, user=organiser, role="organiser")
    client.force_login(organiser)
    sides = {p.side.faction.slug: p.side.faction_id for p in parts}
    response = client.post(
        reverse("battle-setup", args=["sample"]),
        {
            "name": "Colonisation compromise",
            "campaign_turn": 1,
            "faction_a": sides["phalon"],
            "faction_b": sides["collectif-g-plus"],
            "ships": [p.ship_id for p in parts if p.ship_id],
            "light_units": [p.light_units_id for p in groups],
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    battle = Battle.objects.get(campaign=campaign, name="Colonisation compromise")
    new_parts = [p for s in battle_sides(battle) for p in s.participants.all()]
    assert len(new_parts) == len(parts)

    url = reverse("battle-record", args=[battle.pk])
    page = client.get(url).content.decode()
    assert page.count('class="unit-row"') == len(parts)
    assert "Miranda colony battery A" in page and "Tuus" in page
    data = {
        "unit-TOTAL_FORMS": len(new_parts),
        "unit-INITIAL_FORMS": len(new_parts),
        "battle-winner": "phalon",
        "battle-outcome": miranda.outcome,
        "battle-game_turns": 5,
    }
    for i, p in enumerate(new_parts):
        old = fates[(p.ship_id, p.light_units_id)]
        row = {"fate": old.fate, "notes": old.notes}
        if p.ship_id:
            row |= {"hull_lost": old.hull_lost, "armour_lost": old.armour_lost}
            row["systems_lost"] = list(old.systems_lost)
        else:
            row["craft_lost"] = old.craft_lost
        if old.fate == "destroyed":
            row |= {"hull_lost": 0, "armour_lost": 0}
        for k, v in row.items():
            data[f"unit-{i}-{k}"] = v
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    entry = battle.record_entries.get()
    client.post(reverse("battle-record-decide", args=[battle.pk, entry.pk, "confirm"]))
    battle.refresh_from_db()
    assert (battle.status, battle.mode, battle.winner.slug) == ("concluded", "recorded", "phalon")
    got_ships = {
        s.pk: tuple(getattr(s, f) for f in SHIP_FIELDS)
        for s in Ship.objects.filter(pk__in=expected_ships)
    }
    assert got_ships == expected_ships
    got_groups = dict(
        LightUnitGroup.objects.filter(pk__in=expected_groups).values_list("pk", "strength")
    )
    assert got_groups == expected_groups
    assert Intel.objects.filter(campaign=campaign).exists()
