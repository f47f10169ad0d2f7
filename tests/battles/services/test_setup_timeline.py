"""The set-up's timeline line counts the light-unit groups a chosen carrier brings."""

from __future__ import annotations

import pytest

from battles.models import Battle, BattleAction
from battles.services import SideSpec, battle_create
from campaign.core.actors import SYSTEM
from campaign.league.models import Campaign
from factions.models import LightUnitGroup, Ship
from tests.battles.battle_fixtures import draft_skirmish

pytestmark = pytest.mark.django_db


def test_the_set_up_line_counts_the_groups_the_carrier_brought():
    campaign = Campaign.objects.create(slug="c4", name="C4")
    template = draft_skirmish(campaign, slug="template", qatzrin=("Ra'am",), phalon=("Huulth",))
    q = template.sides.get(faction__slug="qatzrin")
    p = template.sides.get(faction__slug="phalon")
    carrier = Ship.objects.create(ship_class=q.participants.first().ship.ship_class, fleet=q.fleet)
    for n in range(1, 5):
        LightUnitGroup.objects.create(
            name=f"Wing {n}", kind="fighter", faction=q.faction, carrier=carrier, size=6, strength=6
        )
    huulth = p.participants.filter(ship__isnull=False).first().ship_id
    Battle.objects.filter(pk=template.pk).delete()
    battle = battle_create(
        user=SYSTEM,
        campaign=campaign,
        name="Carrier fight",
        sides=[SideSpec(q.faction, ships=[carrier.pk]), SideSpec(p.faction, ships=[huulth])],
    )
    line = BattleAction.objects.get(battle=battle, kind=BattleAction.Kind.CREATE)
    q_part, p_part = line.summary.split(" / ")
    assert q_part == "Qatzrin: 1 ship, 4 groups"
    assert line.summary_message["params"]["sides"][0]["groups"] == 4
    assert p_part.startswith("Phalon: 1 ship, ")
