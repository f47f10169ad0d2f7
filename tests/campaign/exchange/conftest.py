"""The sample campaign played a little: the Skirmish at Mieska resolved by the engine
(its log and rolls), turn 1 closed with repairs and the ledger (``manage.py demo``'s
turn), a report's narrative written, a construction and a move on the star map ordered in turn 2."""

from __future__ import annotations

import pytest
from django.core.management.color import no_style
from django.db import connection

from battles.models import Battle
from battles.services import battle_resolve
from campaign.core.actors import SYSTEM
from campaign.league.models import Campaign
from campaign.starmap.models import StarSystem
from campaign.starmap.movement import map_move_order
from campaign.turns.building import construction_order
from campaign.turns.demo import sample_turn_demo
from tests.conftest import sample_cast


@pytest.fixture
def sample(sample_module, db, django_user_model):
    """tests/conftest.py's ``sample``, its rows loaded once per module (``sample_module``)."""
    return sample_cast(Campaign.objects.get(pk=sample_module), django_user_model)


@pytest.fixture
def turn_closed(sample):
    """The sample with the Skirmish at Mieska resolved, a narrative written and turn 1
    closed (repairs, income, the opening treasury), turn 2 open."""
    s = sample
    mieska = Battle.objects.get(campaign=s.campaign, slug="skirmish-at-mieska")
    battle_resolve(battle=mieska, seed=mieska.seed, user=SYSTEM)
    Battle.objects.filter(campaign=s.campaign, slug="colonisation-compromise").update(
        narrative="Les *Phalon* ont tenu Miranda.", analysis="Une leçon : ship-1 n'est pas un id."
    )
    sample_turn_demo(campaign=s.campaign)
    s.mieska = mieska
    return s


@pytest.fixture
def played(turn_closed):
    """:func:`turn_closed`, and in turn 2 a construction ordered and a fleet move."""
    s = turn_closed
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
    map_move_order(
        campaign=s.campaign,
        fleet=s.fleet,
        destination=StarSystem.objects.get(campaign=s.campaign, slug="kristiansand"),
        user=s.norge_player,
    )
    return s


def empty_instance() -> None:
    """Delete every row of every table (inside the test's transaction): a new instance.
    Id sequences go on (no reset), so the import's rows get other ids than the export's."""
    tables = connection.introspection.django_table_names(only_existing=True)
    statements = connection.ops.sql_flush(no_style(), tables, reset_sequences=False)
    connection.ops.execute_sql_flush(statements)
