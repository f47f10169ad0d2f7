"""The campaign-turn tests' battles of the Norwegian fleet (``norway_battle``) and a damaged
fleet with an open turn (``damaged``), on the sample campaign (the ``sample`` fixture of
tests/conftest.py, its rows loaded once per module here: ``sample`` below)."""

from __future__ import annotations

import pytest

from battles.models import Battle, BattleSide, Participant
from battles.services import battle_record
from campaign.core.actors import SYSTEM
from campaign.league.models import Campaign
from campaign.turns.closing import campaign_turn_open
from campaign.turns.treasury import treasury_adjust
from factions.models import Fleet
from tests.conftest import sample_cast


@pytest.fixture
def sample(sample_module, db, django_user_model):
    """tests/conftest.py's ``sample``, the sample's rows loaded once per module
    (``sample_module``: each test in a savepoint, rolled back after it). A transactional
    test goes in a module of its own that overrides this back."""
    return sample_cast(Campaign.objects.get(pk=sample_module), django_user_model)


def norway_battle(campaign, fleet, results_by_ship, *, name="Raid on Trøndelag"):
    """A draft battle of the Norwegian fleet against the Qatzrin 5th, recorded with
    ``results_by_ship`` ({ship: {fate, hull_lost, …}}); returns the concluded battle."""
    battle = Battle.objects.create(
        campaign=campaign, name=name, slug=name.lower().replace(" ", "-")[:50]
    )
    side = BattleSide.objects.create(battle=battle, faction=fleet.faction, fleet=fleet, order=0)
    qfleet = Fleet.objects.get(slug="qatzrin-5th-long-range-incursion-fleet")
    BattleSide.objects.create(battle=battle, faction=qfleet.faction, fleet=qfleet, order=1)
    afloat = fleet.ships.exclude(status__in=["destroyed", "captured"])
    parts = {s.pk: Participant.objects.create(side=side, ship=s) for s in afloat}
    results = [{"participant": parts[ship.pk].pk, **r} for ship, r in results_by_ship.items()]
    return battle_record(
        user=SYSTEM, battle=battle, results=results, outcome="Raid repulsed", winner=None
    )


@pytest.fixture
def damaged(sample):
    """Turn 1 open, 600 resources and 1 technology in the Norwegian treasury, a battle that
    damaged a Tordenskjold (8 hull, 2 armour, beam-a) and destroyed the other."""
    s = sample
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    treasury_adjust(
        campaign=s.campaign,
        faction=s.norge,
        resources=600,
        technology=1,
        reason="chest",
        user=s.organiser,
    )
    s.tord_a, s.tord_b = s.fleet.ships.filter(ship_class__name="Tordenskjold").order_by("pk")
    s.battle = norway_battle(
        s.campaign,
        s.fleet,
        {
            s.tord_a: {
                "fate": "damaged",
                "hull_lost": 8,
                "armour_lost": 2,
                "systems_lost": ["beam-a"],
            },
            s.tord_b: {"fate": "destroyed"},
        },
    )
    s.tord_a.refresh_from_db()
    s.tord_b.refresh_from_db()
    return s
