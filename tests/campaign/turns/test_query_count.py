"""Closing a turn runs a fixed number of queries whatever the number of ships repaired
(bulk updates; on SQLite, within one statement's batch of rows)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.turn_close import generate_campaign
from campaign.core.actors import SYSTEM
from campaign.turns.closing import campaign_turn_close
from factions.models import Ship

pytestmark = pytest.mark.django_db


def _queries(orders: int) -> int:
    campaign = generate_campaign(factions=4, ships=60, orders=orders)
    with CaptureQueriesContext(connection) as captured:
        campaign_turn_close(campaign=campaign, user=SYSTEM)
    repaired = Ship.objects.filter(fleet__faction__campaigns=campaign, status="active").count()
    assert repaired == 60  # every damaged ship was fully repaired (yards of 10 000 a turn)
    return len(captured)


def test_closing_a_turn_does_not_query_per_ship():
    assert _queries(4) == _queries(40)
