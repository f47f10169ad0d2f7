"""A battle becomes concluded in one way (``Battle.mark_concluded``): its status and its
``concluded_at`` together, whichever path writes it."""

from __future__ import annotations

import pytest
from django.utils import timezone

from battles.models import Battle
from battles.services.other_games import SideInput, UnitInput, other_battle_record
from campaign.core.actors import SYSTEM
from campaign.sample.loader import sample_load

pytestmark = pytest.mark.django_db


def test_recording_another_systems_battle_sets_its_time_with_its_status(cast):
    start = timezone.now()
    battle = other_battle_record(
        user=SYSTEM,
        campaign=cast.campaign,
        name="Battle of Endor",
        game_system="sw-starship-battles",
        sides=[
            SideInput(cast.norge, [UnitInput("Falcon")], is_winner=True),
            SideInput(cast.qatzrin, [UnitInput("Devastator", fate="destroyed")]),
        ],
    )
    battle.refresh_from_db()
    assert battle.status == "concluded"
    assert start <= battle.concluded_at <= timezone.now()
    # One history row, already concluded with its time (no draft row in between).
    assert list(battle.history.values_list("status", "concluded_at")) == [
        ("concluded", battle.concluded_at)
    ]


def test_the_sample_battle_concluded_by_its_file_has_a_time_that_a_reload_keeps():
    sample_load()
    battle = Battle.objects.get(slug="colonisation-compromise")
    assert battle.status == "concluded" and battle.concluded_at is not None
    first = battle.concluded_at
    sample_load()
    battle.refresh_from_db()
    assert battle.concluded_at == first
    # The draft battle left for the engine has none.
    assert Battle.objects.get(slug="skirmish-at-mieska").concluded_at is None
