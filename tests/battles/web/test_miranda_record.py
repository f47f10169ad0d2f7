"""The seed's Miranda battle ("Colonisation compromise") recorded through the pages as
the seed tells it: set up with every ship, Petra IV's fighter squadrons and the colonies'
batteries, recorded in one formset, confirmed, concluded into the fleets — which end
exactly as the sample loader leaves them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from battles.models import Battle
from battles.services.common import battle_sides
from campaign.league.models import Campaign, Intel, Membership
from factions.models import Ship
from tests.battles.miranda import group_states, miranda_eve, ship_states

pytestmark = pytest.mark.django_db


def test_miranda_recorded_through_the_form_concludes_into_the_fleets(client):
    eve = miranda_eve()
    campaign = Campaign.objects.get(slug="sample")
    parts = list(eve.fates.values())
    assert {p.light_units.kind for p in parts if p.light_units_id} >= {
        "battery",
        "fighter",
        "heavy-fighter",
    }
    assert not Ship.objects.filter(pk__in=eve.ships, hull_lost__gt=0).exists()

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
            "light_units": [p.light_units_id for p in parts if p.light_units_id],
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
        "battle-outcome": eve.outcome,
        "battle-game_turns": 5,
    }
    for i, p in enumerate(new_parts):
        old = eve.fates[(p.ship_id, p.light_units_id)]
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
    assert ship_states(eve.ships) == eve.ships
    assert group_states(eve.groups) == eve.groups
    assert Intel.objects.filter(campaign=campaign).exists()
