"""An export costs the same number of queries whatever the campaign's size: one a table."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.core.actors import SYSTEM
from campaign.exchange.export import campaign_export
from campaign.exchange.tables import TABLES
from campaign.league.models import Campaign

pytestmark = pytest.mark.django_db


def export_queries(campaign) -> int:
    with CaptureQueriesContext(connection) as queries:
        campaign_export(campaign=campaign, user=SYSTEM)
    return len(queries)


def test_the_export_query_count_is_flat(played):
    empty = Campaign.objects.create(name="Empty", slug="empty")
    # The played sample has 42 ships, 2 battles and 644 log entries; the other nothing.
    assert export_queries(empty) == export_queries(played.campaign) == len(TABLES) + 1
