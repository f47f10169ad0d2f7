"""Export → import into an empty instance → export gives the same bytes."""

from __future__ import annotations

import json

import pytest

from campaign.core.actors import SYSTEM
from campaign.exchange.export import campaign_export, document_dumps
from campaign.exchange.load import campaign_import
from campaign.league.models import Campaign
from tests.campaign.exchange.conftest import empty_instance

pytestmark = pytest.mark.django_db


def test_export_import_export_gives_the_same_document(played):
    first = document_dumps(campaign_export(campaign=played.campaign, user=SYSTEM))
    empty_instance()
    result = campaign_import(document=json.loads(first), user=SYSTEM)
    again = document_dumps(campaign_export(campaign=result.campaign, user=SYSTEM))
    assert again == first
    assert Campaign.objects.count() == 1
