"""The sample campaign played a little: the Skirmish at Mieska resolved by the engine
(its log and rolls), turn 1 closed with repairs and the ledger (``manage.py demo``'s
turn), a report's narrative written, a construction and a fleet move ordered in turn 2."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from battles.models import Battle
from battles.services import battle_resolve
from campaign.core.actors import SYSTEM
from campaign.turns.building import construction_order
from campaign.turns.demo import sample_turn_demo
from campaign.turns.moves import fleet_move_order
from factions.models import Territory


@pytest.fixture
def played(sample):
    s = sample
    mieska = Battle.objects.get(campaign=s.campaign, slug="skirmish-at-mieska")
    battle_resolve(battle=mieska, seed=mieska.seed, user=SYSTEM)
    Battle.objects.filter(campaign=s.campaign, slug="colonisation-compromise").update(
        narrative="Les *Phalon* ont tenu Miranda.", analysis="Une leçon : ship-1 n'est pas un id."
    )
    sample_turn_demo(campaign=s.campaign)
    construction_order(
        campaign=s.campaign,
        user=s.norge_player,
        faction=s.norge,
        yard=s.yard,
        fleet=s.fleet,
        light_kind="gunboat",
        light_variant="emp",
        name="Skarv",
    )
    fleet_move_order(
        campaign=s.campaign,
        fleet=s.fleet,
        destination=Territory.objects.get(slug="kristiansand"),
        user=s.norge_player,
    )
    s.mieska = mieska
    return s


def empty_instance() -> None:
    """Delete every row of every table (inside the test's transaction): a new instance."""
    call_command("flush", interactive=False, inhibit_post_migrate=True, verbosity=0)
