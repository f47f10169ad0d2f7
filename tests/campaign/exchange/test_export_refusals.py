"""An export that cannot name a row refuses, naming the row and field."""

from __future__ import annotations

import pytest

from campaign.core.actors import SYSTEM
from campaign.exchange.export import ExportError, campaign_export
from factions.models import Faction

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_a_battle_side_of_a_faction_outside_the_campaign_is_named(sample):
    # The Phalon leave the campaign while its battles still have a Phalon side.
    sample.campaign.factions.remove(Faction.objects.get(slug="phalon"))
    with pytest.raises(ExportError) as caught:
        campaign_export(campaign=sample.campaign, user=SYSTEM)
    assert caught.value.status == 409
    # The first row naming them: a Phalon territory placed on the campaign's star map.
    assert str(caught.value) == "territory_placements[5].territory names a row outside the campaign"
