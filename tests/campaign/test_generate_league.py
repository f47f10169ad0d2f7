"""``generate_league``: a deterministic large league for benchmarks and load tests."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from battles.models import Battle, Participant
from campaign.league.models import Campaign
from factions.models import Faction, Fleet, Ship

pytestmark = pytest.mark.django_db


def _fingerprint() -> list:
    return [
        (b.slug, b.location, b.narrative, b.report_state, b.winner.name)
        for b in Battle.objects.order_by("pk")
    ] + list(Participant.objects.order_by("pk").values_list("ship__name", "fate", "hull_lost"))


def test_the_same_seed_gives_the_same_league_and_a_second_run_is_refused(capsys):
    call_command("generate_league", "--ships", "40", "--battles", "12", "--seed", "3")
    assert Ship.objects.count() == 40 and Battle.objects.count() == 12
    assert Fleet.objects.filter(hidden=True).exists()
    assert Battle.objects.filter(report_state="draft").count() == 1  # one report in ten
    # Concluded with their time; a ship's status follows its damage.
    assert not Battle.objects.filter(status="concluded", concluded_at__isnull=True).exists()
    assert Battle.objects.filter(status="concluded").count() == 12
    for ship in Ship.objects.all():
        assert ship.status == ("damaged" if ship.hull_lost else "active"), ship
    first = _fingerprint()
    with pytest.raises(CommandError, match="exists"):
        call_command("generate_league", "--ships", "40", "--battles", "12", "--seed", "3")
    Battle.objects.all().delete()
    Ship.objects.all().delete()

    Campaign.objects.all().delete()
    Faction.objects.all().delete()
    call_command("generate_league", "--ships", "40", "--battles", "12", "--seed", "3")
    assert _fingerprint() == first
